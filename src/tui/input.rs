//! A thread reading terminal events, which can be paused so that a child
//! process (the editor) gets the keyboard to itself.

use crossterm::event::{self, Event};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Set while a stop by job control takes the terminal's unread keys
/// ([`hold_for_stop`]).
static HELD_FOR_STOP: AtomicBool = AtomicBool::new(false);

/// Set by the thread when it has seen [`HELD_FOR_STOP`] and reads no more.
static IDLE_FOR_STOP: AtomicBool = AtomicBool::new(false);

/// Stops the reading thread (within its 200 ms wait), so that a stop by job
/// control drops the keys read ahead and none is taken meanwhile; true
/// once it reads no more. [`release_after_stop`] lets it read again.
pub fn hold_for_stop() -> bool {
    HELD_FOR_STOP.store(true, Ordering::SeqCst);
    (0..60).any(|_| {
        let idle = IDLE_FOR_STOP.load(Ordering::SeqCst);
        if !idle {
            std::thread::sleep(Duration::from_millis(5));
        }
        idle
    })
}

pub fn release_after_stop() {
    HELD_FOR_STOP.store(false, Ordering::SeqCst);
}

pub struct Input {
    paused: Arc<AtomicBool>,
    /// Set by the thread when it has seen `paused` and stopped reading.
    idle: Arc<AtomicBool>,
}

impl Input {
    pub fn spawn(send: impl Fn(Event) -> bool + Send + 'static) -> Input {
        let paused = Arc::new(AtomicBool::new(false));
        let idle = Arc::new(AtomicBool::new(false));
        let (p, i) = (paused.clone(), idle.clone());
        std::thread::spawn(move || loop {
            if HELD_FOR_STOP.load(Ordering::SeqCst) {
                IDLE_FOR_STOP.store(true, Ordering::SeqCst);
                std::thread::sleep(Duration::from_millis(5));
                continue;
            }
            IDLE_FOR_STOP.store(false, Ordering::SeqCst);
            if p.load(Ordering::SeqCst) {
                i.store(true, Ordering::SeqCst);
                std::thread::sleep(Duration::from_millis(20));
                continue;
            }
            i.store(false, Ordering::SeqCst);
            match event::poll(Duration::from_millis(200)) {
                Ok(true) => match event::read() {
                    Ok(ev) => {
                        if !send(ev) {
                            return;
                        }
                    }
                    Err(_) => return,
                },
                Ok(false) => {}
                Err(_) => return,
            }
        });
        Input { paused, idle }
    }

    /// Stops reading and waits until the reader is idle.
    pub fn pause(&self) {
        self.paused.store(true, Ordering::SeqCst);
        for _ in 0..100 {
            if self.idle.load(Ordering::SeqCst) {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    pub fn resume(&self) {
        self.paused.store(false, Ordering::SeqCst);
    }
}
