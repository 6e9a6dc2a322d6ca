//! Terminal lifecycle: raw mode, alternate screen, mouse capture, and their
//! exact undoing on exit, on panic, and around a suspend for the editor.

use super::backend::SgrBackend;
use crossterm::event::{DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture};
use crossterm::terminal::{self, EnterAlternateScreen, LeaveAlternateScreen};
use crossterm::{cursor, execute};
use ratatui::Terminal;
use std::io::{self, Stdout};
use std::sync::atomic::{AtomicBool, Ordering};

pub type Term = Terminal<SgrBackend<Stdout>>;

/// Whether the browser holds the terminal (raw mode, alternate screen).
static HELD: AtomicBool = AtomicBool::new(false);

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
/// escape sequences would land in a command's output): for the end of the
/// process by a signal.
pub fn restore_if_held() {
    if HELD.load(Ordering::SeqCst) {
        restore();
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
