//! A thread reading terminal events, which can be paused so that a child
//! process (the editor) gets the keyboard to itself, and which reads
//! nothing past a key that hands the terminal away until that key is dealt
//! with (what is typed after `q` is the shell's).

use crossterm::event::{self, Event};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
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
    /// Set by the thread when it reads no more: paused, stopped, or held
    /// after an event that may hand the terminal away.
    idle: Arc<AtomicBool>,
    /// How many of the events sent the event loop has taken in ([`Input::taken`]).
    taken: Arc<AtomicU64>,
    stopped: Arc<AtomicBool>,
    reader: std::thread::Thread,
}

impl Input {
    /// Reads events and hands each to `send`. After an event that
    /// `hands_off` says may give the terminal away (quit, the editor, the
    /// pager) it reads nothing more until the event loop has taken that
    /// event in and carried out what it asked for: keys typed meanwhile
    /// stay in the terminal for whoever has it next (the shell after a
    /// quit, the editor), rather than be read here and lost.
    pub fn spawn(
        send: impl Fn(Event) -> bool + Send + 'static,
        hands_off: impl Fn(&Event) -> bool + Send + 'static,
    ) -> Input {
        let paused = Arc::new(AtomicBool::new(false));
        let idle = Arc::new(AtomicBool::new(false));
        let taken = Arc::new(AtomicU64::new(0));
        let stopped = Arc::new(AtomicBool::new(false));
        let (p, i, t, s) = (paused.clone(), idle.clone(), taken.clone(), stopped.clone());
        let thread = std::thread::spawn(move || {
            // Events sent, and how many must be taken in before reading on.
            let (mut sent, mut hold_until) = (0u64, 0u64);
            loop {
                if HELD_FOR_STOP.load(Ordering::SeqCst) {
                    IDLE_FOR_STOP.store(true, Ordering::SeqCst);
                    std::thread::sleep(Duration::from_millis(5));
                    continue;
                }
                IDLE_FOR_STOP.store(false, Ordering::SeqCst);
                if s.load(Ordering::SeqCst) {
                    i.store(true, Ordering::SeqCst);
                    return;
                }
                if p.load(Ordering::SeqCst) || t.load(Ordering::SeqCst) < hold_until {
                    i.store(true, Ordering::SeqCst);
                    // Woken by `taken`, `resume` and `stop`.
                    std::thread::park_timeout(Duration::from_millis(20));
                    continue;
                }
                i.store(false, Ordering::SeqCst);
                match event::poll(Duration::from_millis(200)) {
                    Ok(true) => match event::read() {
                        Ok(ev) => {
                            sent += 1;
                            if hands_off(&ev) {
                                hold_until = sent;
                            }
                            if !send(ev) {
                                return;
                            }
                        }
                        Err(_) => return,
                    },
                    Ok(false) => {}
                    Err(_) => return,
                }
            }
        });
        Input { paused, idle, taken, stopped, reader: thread.thread().clone() }
    }

    /// Stops reading and waits until the reader is idle.
    pub fn pause(&self) {
        self.paused.store(true, Ordering::SeqCst);
        self.wait_idle();
    }

    pub fn resume(&self) {
        self.paused.store(false, Ordering::SeqCst);
        self.reader.unpark();
    }

    /// The event loop has taken in `events` more of the events sent
    /// (applied or dropped) and carried out their effects.
    pub fn taken(&self, events: u64) {
        self.taken.fetch_add(events, Ordering::SeqCst);
        self.reader.unpark();
    }

    /// Reads no more, for good: before the terminal is given back, so that
    /// what is typed from then on reaches the shell.
    pub fn stop(&self) {
        self.stopped.store(true, Ordering::SeqCst);
        self.reader.unpark();
        self.wait_idle();
    }

    fn wait_idle(&self) {
        for _ in 0..100 {
            if self.idle.load(Ordering::SeqCst) {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}
