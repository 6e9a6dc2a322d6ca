//! Terminal lifecycle: raw mode, alternate screen, mouse capture, and their
//! exact undoing on exit, on panic, around a suspend for the editor, and
//! around a stop by job control (Ctrl-z, `kill -TSTP`, then `fg`).

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

/// Held while a frame is drawn, while the terminal is given back for
/// good (no frame lands after: it would hide the cursor again), and while
/// the process is stopped by job control.
static SCREEN: Mutex<()> = Mutex::new(());

/// Whether SIGTSTP gives the terminal back before the process stops
/// ([`on_job_control`]).
static STOPS_HANDLED: AtomicBool = AtomicBool::new(false);

fn screen() -> std::sync::MutexGuard<'static, ()> {
    SCREEN.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

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
    let _screen = screen();
    GIVEN_BACK.store(true, Ordering::SeqCst);
    if HELD.load(Ordering::SeqCst) {
        restore();
    }
}

/// Runs `draw` unless the terminal was given back for good
/// ([`restore_if_held`]); none then.
pub fn unless_given_back<T>(draw: impl FnOnce() -> io::Result<T>) -> io::Result<Option<T>> {
    let _screen = screen();
    match GIVEN_BACK.load(Ordering::SeqCst) {
        true => Ok(None),
        false => draw().map(Some),
    }
}

/// Job control: on SIGTSTP (Ctrl-z in the browser, `kill -TSTP`) the
/// terminal is given back before the process stops, and taken again when
/// it continues (`fg`), after which `continued` asks for a whole frame (the
/// alternate screen comes back empty). A SIGTSTP ignored at start (no job
/// control) stays ignored. Once per process.
#[cfg(unix)]
pub fn on_job_control(continued: impl Fn() + Send + 'static) {
    use signal_hook::consts::SIGTSTP;
    static STARTED: std::sync::Once = std::sync::Once::new();
    STARTED.call_once(|| {
        if crate::scratch::ignored(SIGTSTP) {
            return;
        }
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGTSTP]) else {
            return;
        };
        let spawned = std::thread::Builder::new().name("job control".into()).spawn(move || loop {
            if signals.wait().count() == 0 {
                continue;
            }
            let taken_again = stop_until_continued();
            // Stops asked for before this one ended (Ctrl-z pressed twice)
            // are this one: SIGCONT drops a stop the kernel still holds.
            let _ = signals.pending().count();
            if taken_again {
                continued();
            }
        });
        STOPS_HANDLED.store(spawned.is_ok(), Ordering::SeqCst);
    });
}

#[cfg(not(unix))]
pub fn on_job_control(_continued: impl Fn() + Send + 'static) {}

/// Stops the whole job, as Ctrl-z does in a shell: false when there is no
/// job control to come back from.
pub fn stop_job() -> bool {
    #[cfg(unix)]
    if STOPS_HANDLED.load(Ordering::SeqCst) {
        // SAFETY: `kill` on our own process group; our handler takes it.
        return unsafe { libc::kill(0, libc::SIGTSTP) } == 0;
    }
    false
}

/// Gives the terminal back, stops, and takes it again once continued:
/// whether it was taken again. No frame is drawn meanwhile.
#[cfg(unix)]
fn stop_until_continued() -> bool {
    let _screen = screen();
    if GIVEN_BACK.load(Ordering::SeqCst) {
        return false;
    }
    let held = HELD.load(Ordering::SeqCst);
    if held {
        restore();
    }
    stop_by_default();
    held && enter().is_ok()
}

/// Stops the process by SIGTSTP's own default action, not SIGSTOP: the
/// kernel then discards it where no shell could continue the process (an
/// orphaned process group, such as a program a terminal runs directly),
/// and this returns at once.
#[cfg(unix)]
fn stop_by_default() {
    // SAFETY: zeroed `sigaction`s are valid; the default action is put in
    // place for the time of one `raise` on this thread, then ours again.
    unsafe {
        let mut ours: libc::sigaction = std::mem::zeroed();
        let mut default: libc::sigaction = std::mem::zeroed();
        default.sa_sigaction = libc::SIG_DFL;
        if libc::sigaction(libc::SIGTSTP, &default, &mut ours) != 0 {
            return;
        }
        libc::raise(libc::SIGTSTP);
        libc::sigaction(libc::SIGTSTP, &ours, std::ptr::null_mut());
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
        let _screen = screen();
        restore();
        Ok(())
    }

    /// Takes the terminal back and forces a full repaint.
    pub fn resume(&mut self) -> io::Result<()> {
        let _screen = screen();
        if GIVEN_BACK.load(Ordering::SeqCst) {
            return Ok(());
        }
        enter()?;
        self.terminal.clear()
    }

    /// A whole frame next, after a stop by job control.
    pub fn repaint(&mut self) -> io::Result<()> {
        unless_given_back(|| self.terminal.clear()).map(|_| ())
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        restore();
    }
}
