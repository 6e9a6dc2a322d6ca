//! Terminal lifecycle: raw mode, alternate screen, mouse capture, and their
//! exact undoing on exit, on panic, and around a suspend for the editor.

use super::backend::SgrBackend;
use crossterm::event::{DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture};
use crossterm::terminal::{self, EnterAlternateScreen, LeaveAlternateScreen};
use crossterm::{cursor, execute};
use ratatui::Terminal;
use std::io::{self, Stdout};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

pub type Term = Terminal<SgrBackend<Stdout>>;

/// Whether the browser holds the terminal (raw mode, alternate screen).
static HELD: AtomicBool = AtomicBool::new(false);

/// Whether the terminal was given back for good (a signal ends the process).
static GIVEN_BACK: AtomicBool = AtomicBool::new(false);

/// Held while a frame is drawn, and while the terminal is given back for
/// good: no frame lands after (it would hide the cursor again).
static SCREEN: Mutex<()> = Mutex::new(());

fn enter() -> io::Result<()> {
    HELD.store(true, Ordering::SeqCst);
    terminal::enable_raw_mode()?;
    execute!(io::stdout(), EnterAlternateScreen, EnableMouseCapture, EnableBracketedPaste, cursor::Hide)
}

/// Undoes everything `enter` did; safe to call more than once.
pub fn restore() {
    HELD.store(false, Ordering::SeqCst);
    let _ = execute!(io::stdout(), DisableBracketedPaste, DisableMouseCapture, LeaveAlternateScreen, cursor::Show);
    let _ = terminal::disable_raw_mode();
}

/// [`restore`] when the browser holds the terminal, else nothing (the
/// escape sequences would land in a command's output), and no frame drawn
/// after: for the end of the process by a signal.
pub fn restore_if_held() {
    let _screen = SCREEN.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    GIVEN_BACK.store(true, Ordering::SeqCst);
    if HELD.load(Ordering::SeqCst) {
        restore();
    }
}

/// Runs `draw` unless the terminal was given back for good
/// ([`restore_if_held`]); none then.
pub fn unless_given_back<T>(draw: impl FnOnce() -> io::Result<T>) -> io::Result<Option<T>> {
    let _screen = SCREEN.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    match GIVEN_BACK.load(Ordering::SeqCst) {
        true => Ok(None),
        false => draw().map(Some),
    }
}

/// Restores the terminal before a panic message is printed.
pub fn install_panic_hook() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore();
        previous(info);
    }));
}

/// Owns the terminal while the app runs; restores it when dropped.
pub struct Guard {
    pub terminal: Term,
}

impl Guard {
    pub fn new() -> io::Result<Guard> {
        install_panic_hook();
        enter()?;
        let terminal = Terminal::new(SgrBackend::new(io::stdout()))?;
        Ok(Guard { terminal })
    }

    /// Hands the terminal to another program (the editor).
    pub fn suspend(&mut self) -> io::Result<()> {
        restore();
        Ok(())
    }

    /// Takes the terminal back and forces a full repaint.
    pub fn resume(&mut self) -> io::Result<()> {
        enter()?;
        self.terminal.clear()
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        restore();
    }
}
