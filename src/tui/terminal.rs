//! Terminal lifecycle: raw mode, alternate screen, mouse capture, and their
//! exact undoing on exit, on panic, and around a suspend for the editor.

use super::backend::SgrBackend;
use crossterm::event::{DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture};
use crossterm::terminal::{self, EnterAlternateScreen, LeaveAlternateScreen};
use crossterm::{cursor, execute};
use ratatui::Terminal;
use std::io::{self, Stdout};

pub type Term = Terminal<SgrBackend<Stdout>>;

fn enter() -> io::Result<()> {
    terminal::enable_raw_mode()?;
    execute!(io::stdout(), EnterAlternateScreen, EnableMouseCapture, EnableBracketedPaste, cursor::Hide)
}

/// Undoes everything `enter` did; safe to call more than once.
pub fn restore() {
    let _ = execute!(io::stdout(), DisableBracketedPaste, DisableMouseCapture, LeaveAlternateScreen, cursor::Show);
    let _ = terminal::disable_raw_mode();
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
