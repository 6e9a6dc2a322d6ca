//! Temporary folders and files of ours, removed however the process ends.
//!
//! A destructor removes them on a normal exit, but a signal (Ctrl-C, `kill`,
//! a CI job's timeout, a closed terminal) ends the process without running
//! one: a revision's copy in `/dev/shm` would then hold memory until the
//! machine restarts. [`on_signals`] starts a thread that, on such a signal,
//! removes every scratch path still alive, gives the terminal back when the
//! browser holds it, and ends the process as the signal would have.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The scratch paths alive now.
static LIVE: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// A temporary folder, removed when dropped or when a signal ends the
/// process.
pub struct ScratchDir {
    dir: tempfile::TempDir,
    _tracked: Tracked,
}

impl ScratchDir {
    /// A new folder named `prefix…` in the system's temporary folder.
    pub fn new(prefix: &str) -> std::io::Result<ScratchDir> {
        ScratchDir::tracking(tempfile::Builder::new().prefix(prefix).tempdir()?)
    }

    /// A new folder named `prefix…` in `base`.
    pub fn new_in(prefix: &str, base: &Path) -> std::io::Result<ScratchDir> {
        ScratchDir::tracking(tempfile::Builder::new().prefix(prefix).tempdir_in(base)?)
    }

    fn tracking(dir: tempfile::TempDir) -> std::io::Result<ScratchDir> {
        let tracked = track(dir.path());
        Ok(ScratchDir { dir, _tracked: tracked })
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }
}

/// A path of ours that a signal's handler removes ([`on_signals`]) until
/// this is dropped. Its owner removes it otherwise: declared after the
/// owner's field, so the path is gone before it stops being tracked.
pub struct Tracked(PathBuf);

/// Tracks `path` (a folder or a file) until the guard is dropped.
pub fn track(path: &Path) -> Tracked {
    if let Ok(mut live) = LIVE.lock() {
        live.push(path.to_path_buf());
    }
    Tracked(path.to_path_buf())
}

impl Drop for Tracked {
    fn drop(&mut self) {
        if let Ok(mut live) = LIVE.lock() {
            if let Some(at) = live.iter().rposition(|p| *p == self.0) {
                live.swap_remove(at);
            }
        }
    }
}

/// Removes every tracked path.
fn remove_live() {
    // A thread that panicked holding the lock left the list intact.
    remove_all(&LIVE.lock().unwrap_or_else(|poisoned| poisoned.into_inner()));
}

/// Removes each folder or file; what cannot be removed is left.
fn remove_all(paths: &[PathBuf]) {
    for path in paths {
        match std::fs::symlink_metadata(path) {
            Ok(meta) if meta.is_dir() => {
                let _ = std::fs::remove_dir_all(path);
            }
            Ok(_) => {
                let _ = std::fs::remove_file(path);
            }
            Err(_) => {}
        }
    }
}

/// Starts the thread that handles the signals that end a process (SIGINT,
/// SIGTERM, SIGHUP, SIGQUIT): it removes the scratch paths, runs
/// `before_exit` (the browser gives the terminal back) and ends the process
/// by the same signal, so the exit status says which. Once per process;
/// a failure to install leaves the signals' default actions.
#[cfg(unix)]
pub fn on_signals(before_exit: fn()) {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM};
    static STARTED: std::sync::Once = std::sync::Once::new();
    STARTED.call_once(|| {
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP, SIGQUIT]) else {
            return;
        };
        let spawned = std::thread::Builder::new().name("signals".into()).spawn(move || {
            if let Some(signal) = signals.forever().next() {
                remove_live();
                before_exit();
                let _ = signal_hook::low_level::emulate_default_handler(signal);
                // A signal whose default action does not end the process.
                std::process::exit(128 + signal);
            }
        });
        drop(spawned);
    });
}

/// Elsewhere destructors are all there is.
#[cfg(not(unix))]
pub fn on_signals(_before_exit: fn()) {}

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
