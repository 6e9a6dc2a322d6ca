//! Temporary folders and files of ours, removed however the process ends.
//!
//! A destructor removes them on a normal exit, but a signal (Ctrl-C, `kill`,
//! a CI job's timeout, a closed terminal) ends the process without running
//! one: a revision's copy in `/dev/shm` would then hold memory until the
//! machine restarts. [`on_signals`] starts a thread that, on such a signal,
//! removes every scratch path still alive, gives the terminal back when the
//! browser holds it, and ends the process as the signal would have.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

/// The scratch paths alive now.
static LIVE: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Set the moment a signal that ends the process arrives.
static ENDING: AtomicBool = AtomicBool::new(false);

/// Whether a signal is ending the process: what fails now (a `git` the
/// same Ctrl-C ended) is no error to report, and the process waits for the
/// signal's thread to end it ([`on_signals`]).
pub fn ending() -> bool {
    ENDING.load(Ordering::SeqCst)
}

/// Folders no scratch path may lie in (the repository a diff reads: a copy
/// inside it would be walked as part of the working tree).
static KEPT_OUT_OF: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Keeps scratch paths made from now on out of `folder` (a `TMPDIR` inside
/// it is passed over for the system's own temporary folders).
pub fn keep_out_of(folder: &Path) {
    let folder = folder.canonicalize().unwrap_or_else(|_| folder.to_path_buf());
    KEPT_OUT_OF.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).push(folder);
}

/// Whether a scratch path may lie in `base`.
fn may_hold_scratch(base: &Path) -> bool {
    let base = base.canonicalize().unwrap_or_else(|_| base.to_path_buf());
    let kept_out = KEPT_OUT_OF.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    !kept_out.iter().any(|folder| base.starts_with(folder))
}

/// Where a new scratch folder goes: the temporary folder (`TMPDIR`), else,
/// where that lies in a folder kept out of, the first of the system's own
/// that exists and does not.
fn scratch_base() -> PathBuf {
    let given = std::env::temp_dir();
    if may_hold_scratch(&given) {
        return given;
    }
    let system = ["/tmp", "/var/tmp", "/dev/shm"].map(PathBuf::from);
    system.into_iter().find(|dir| dir.is_dir() && may_hold_scratch(dir)).unwrap_or(given)
}

/// How often a folder is removed again while a thread still writes into it.
const REMOVAL_TRIES: usize = 100;

/// How long a signal's end waits for children it did not reach before a
/// last removal.
const LATE_WRITERS_MS: u64 = 100;

/// A temporary folder, removed when dropped or when a signal ends the
/// process.
pub struct ScratchDir {
    dir: tempfile::TempDir,
    _tracked: Tracked,
}

impl ScratchDir {
    /// A new folder named `prefix…` in the system's temporary folder (not
    /// in a folder [`keep_out_of`] names).
    pub fn new(prefix: &str) -> std::io::Result<ScratchDir> {
        ScratchDir::new_in(prefix, &scratch_base())
    }

    /// A new folder named `prefix…` in `base`.
    pub fn new_in(prefix: &str, base: &Path) -> std::io::Result<ScratchDir> {
        ScratchDir::tracking(tempfile::Builder::new().prefix(prefix).tempdir_in(base)?)
    }

    fn tracking(dir: tempfile::TempDir) -> std::io::Result<ScratchDir> {
        match track(dir.path()) {
            Some(tracked) => Ok(ScratchDir { dir, _tracked: tracked }),
            // Dropped, `dir` is removed.
            None => Err(std::io::Error::new(std::io::ErrorKind::Interrupted, "a signal is ending skillscope")),
        }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }
}

/// A path of ours that a signal's handler removes ([`on_signals`]) until
/// this is dropped. Its owner removes it otherwise: declared after the
/// owner's field, so the path is gone before it stops being tracked.
struct Tracked(PathBuf);

/// Tracks `path` (a folder or a file) until the guard is dropped; none
/// once a signal is ending the process (its paths may be removed already:
/// the caller removes this one).
fn track(path: &Path) -> Option<Tracked> {
    let mut live = LIVE.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if ending() {
        return None;
    }
    live.push(path.to_path_buf());
    Some(Tracked(path.to_path_buf()))
}

impl Drop for Tracked {
    fn drop(&mut self) {
        let mut live = LIVE.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(at) = live.iter().rposition(|p| *p == self.0) {
            live.swap_remove(at);
        }
    }
}

/// Removes every tracked path, and names them. Called once [`ending`]
/// holds, so no path is tracked after: the lock is held until all are gone.
fn remove_live() -> Vec<PathBuf> {
    // A thread that panicked holding the lock left the list intact.
    let live = LIVE.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    remove_all(&live);
    live.clone()
}

/// Removes each folder or file; what cannot be removed is left. A thread
/// still writing into a folder (a revision's copy) may add a file after
/// its folder was listed, which fails the removal: it is tried again until
/// the folder is gone, and then nothing below it can be made again (the
/// writers never make a scratch folder itself: `paths::create_dirs_below`).
fn remove_all(paths: &[PathBuf]) {
    for path in paths {
        for _ in 0..REMOVAL_TRIES {
            let removed = match std::fs::symlink_metadata(path) {
                Ok(meta) if meta.is_dir() => std::fs::remove_dir_all(path),
                Ok(_) => std::fs::remove_file(path),
                Err(_) => break,
            };
            if removed.is_ok() {
                break;
            }
        }
    }
}

/// Starts the thread that handles the signals that end a process (SIGINT,
/// SIGTERM, SIGHUP, SIGQUIT): it removes the scratch paths, runs
/// `before_exit` (the browser gives the terminal back) and ends the process
/// by the same signal, so the exit status says which; no scratch path is
/// tracked, and so none made, once the signal arrived. A signal ignored
/// when the process started (`nohup`, a background job of a script) stays
/// ignored. Once per process; a failure to install leaves the signals'
/// default actions.
#[cfg(unix)]
pub fn on_signals(before_exit: fn()) {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM};
    static STARTED: std::sync::Once = std::sync::Once::new();
    STARTED.call_once(|| {
        let handled: Vec<i32> = [SIGINT, SIGTERM, SIGHUP, SIGQUIT].into_iter().filter(|&s| !ignored(s)).collect();
        let Ok(mut signals) = signal_hook::iterator::Signals::new(&handled) else {
            return;
        };
        let spawned = std::thread::Builder::new().name("signals".into()).spawn(move || {
            if let Some(signal) = signals.forever().next() {
                // The terminal first: the user has it back at once.
                ENDING.store(true, Ordering::SeqCst);
                before_exit();
                let removed = remove_live();
                // A child the signal did not reach (a `git` writing the
                // demo's commit) may make a removed folder again: a last look.
                std::thread::sleep(std::time::Duration::from_millis(LATE_WRITERS_MS));
                remove_all(&removed);
                let _ = signal_hook::low_level::emulate_default_handler(signal);
                // A signal whose default action does not end the process.
                std::process::exit(128 + signal);
            }
        });
        // Marked as the signal arrives, in the handler itself: the thread
        // may not have woken yet when the main thread looks.
        if spawned.is_ok() {
            for &signal in &handled {
                // SAFETY: the action only stores to an atomic, which is
                // async-signal-safe.
                let _ = unsafe { signal_hook::low_level::register(signal, || ENDING.store(true, Ordering::SeqCst)) };
            }
        }
    });
}

/// Whether `signal` is ignored (`SIG_IGN`), as a process started by `nohup`
/// has SIGHUP.
#[cfg(unix)]
pub(crate) fn ignored(signal: i32) -> bool {
    // SAFETY: with no new action, `sigaction` only fills `current`.
    let mut current: libc::sigaction = unsafe { std::mem::zeroed() };
    // SAFETY: as above; a null new action changes nothing.
    let read = unsafe { libc::sigaction(signal, std::ptr::null(), &mut current) } == 0;
    read && current.sa_sigaction == libc::SIG_IGN
}

/// Waits, when a signal is ending the process, for its thread to end it
/// ([`on_signals`]); else removes the scratch paths still alive (a
/// browser's background job that was still reading a revision when the
/// user quit holds one) and returns: the last thing before the process
/// exits, which runs no other thread's destructors.
pub fn finish() {
    if ending() {
        loop {
            std::thread::park();
        }
    }
    ENDING.store(true, Ordering::SeqCst);
    remove_live();
}

/// Elsewhere destructors are all there is.
#[cfg(not(unix))]
pub fn on_signals(_before_exit: fn()) {}

/// A memory-backed folder (`/dev/shm`) with room to spare for `needed`
/// bytes of files (a revision's, the demo home), unless `TMPDIR` names
/// where temporary files go: creating and removing many small files there
/// takes a fraction of the time a disk's file system does (removing the
/// demo's from ext4 mounted with `discard` held the exit half a second).
pub fn in_memory(needed: u64) -> Option<&'static Path> {
    if std::env::var_os("TMPDIR").is_some() {
        return None;
    }
    let shm = Path::new("/dev/shm");
    free_bytes(shm).filter(|&free| free / 4 > needed).map(|_| shm)
}

#[cfg(unix)]
fn free_bytes(dir: &Path) -> Option<u64> {
    use std::os::unix::ffi::OsStrExt;
    let path = std::ffi::CString::new(dir.as_os_str().as_bytes()).ok()?;
    // SAFETY: `path` is a NUL-terminated string and `stats` a plain struct
    // statvfs fills; nothing is kept past the call.
    let mut stats: libc::statvfs = unsafe { std::mem::zeroed() };
    // SAFETY: as above.
    let ok = unsafe { libc::statvfs(path.as_ptr(), &mut stats) } == 0;
    // SAFETY: `access` reads the NUL-terminated `path` and keeps nothing.
    let writable = ok && unsafe { libc::access(path.as_ptr(), libc::W_OK) } == 0;
    writable.then(|| stats.f_bavail as u64 * stats.f_frsize as u64)
}

#[cfg(not(unix))]
fn free_bytes(_dir: &Path) -> Option<u64> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is_live(path: &Path) -> bool {
        LIVE.lock().unwrap().iter().any(|p| p == path)
    }

    #[test]
    fn a_scratch_dir_is_tracked_while_it_lives_and_removed_when_dropped() {
        let dir = ScratchDir::new("skillscope-test-").unwrap();
        let path = dir.path().to_path_buf();
        assert!(path.is_dir());
        assert!(is_live(&path));
        drop(dir);
        assert!(!path.exists());
        assert!(!is_live(&path));
    }

    #[test]
    fn a_temporary_folder_kept_out_of_is_passed_over() {
        let kept = tempfile::tempdir().unwrap();
        assert!(may_hold_scratch(&kept.path().join("tmp")));
        keep_out_of(kept.path());
        assert!(!may_hold_scratch(&kept.path().join("tmp")));
        assert!(!may_hold_scratch(kept.path()));
        assert!(may_hold_scratch(kept.path().parent().unwrap()));
    }

    #[test]
    fn removing_takes_folders_and_files_and_leaves_others() {
        let base = tempfile::tempdir().unwrap();
        let (folder, file, kept) = (base.path().join("f"), base.path().join("x.md"), base.path().join("kept"));
        std::fs::create_dir_all(folder.join("inner")).unwrap();
        std::fs::write(folder.join("inner/a"), "a").unwrap();
        std::fs::write(&file, "x").unwrap();
        std::fs::write(&kept, "k").unwrap();
        remove_all(&[folder.clone(), file.clone(), base.path().join("absent")]);
        assert!(!folder.exists() && !file.exists());
        assert!(kept.exists());
    }
}
