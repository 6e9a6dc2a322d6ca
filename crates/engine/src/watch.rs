//! Watching a home for changes. The watcher says which paths changed, or
//! that the kernel dropped events; the caller debounces and reloads.
//!
//! On Linux it uses inotify directly, asking only for changes (create,
//! write, move, delete, attributes): reads and opens, the app's own
//! included, are never reported, so a reload cannot trigger the next one.
//! Folders created later are watched as they appear. When the system's
//! watch limit (`fs.inotify.max_user_watches`) is reached, the folders left
//! over are checked by a cheap periodic look at their modification times,
//! and [`Watcher::limit_note`] says so. Elsewhere, `notify`'s watcher.

use super::env::Env;
use super::home::Home;
use std::path::{Path, PathBuf};

/// What the watcher reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WatchEvent {
    /// These paths changed (created, written, moved or deleted).
    Changed(Vec<PathBuf>),
    /// The kernel's event queue overflowed: changes may have been lost.
    Overflow,
}

/// A folder (watched with its subfolders when `recursive`) or a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    pub path: PathBuf,
    pub recursive: bool,
}

/// What a home needs watched: the home itself (config.yaml, `.env`, a
/// `skills/` that appears), every skill root with its subfolders, the
/// bundles folder, and `extra` (a user's folder, a database file).
pub fn targets(home: &Home, env: &Env, extra: &[PathBuf]) -> Vec<Target> {
    let mut out = vec![Target { path: home.root.clone(), recursive: false }];
    for root in home.all_skills_dirs() {
        out.push(Target { path: root, recursive: true });
    }
    out.push(Target { path: home.bundles_dir(env), recursive: false });
    for path in extra {
        out.push(Target { path: path.clone(), recursive: !path.is_file() });
    }
    out.retain(|t| t.path.exists());
    out.dedup();
    out
}

#[cfg(target_os = "linux")]
pub use linux::Watcher;

#[cfg(not(target_os = "linux"))]
pub use portable::Watcher;

/// Why watching could not start (the browser then rescans on `r` alone).
#[derive(Debug, thiserror::Error)]
pub enum WatchError {
    /// A folder the system refused to watch.
    #[error("{}: {source}", .path.display())]
    Folder { path: PathBuf, source: std::io::Error },
    /// The watcher itself: the OS facility, its wake-up pipe or its thread.
    #[error("{part}: {message}")]
    Setup { part: &'static str, message: String },
}

impl WatchError {
    #[cfg_attr(target_os = "linux", allow(dead_code))]
    fn setup(part: &'static str, e: impl std::fmt::Display) -> WatchError {
        WatchError::Setup { part, message: e.to_string() }
    }
}

/// Watches `targets`, calling `on_event` from a background thread.
pub fn watch(targets: &[Target], on_event: impl Fn(WatchEvent) + Send + 'static) -> Result<Watcher, WatchError> {
    Watcher::start(targets, Box::new(on_event))
}

type Handler = Box<dyn Fn(WatchEvent) + Send + 'static>;

/// Every folder below `root` (itself included), following symlinked
/// folders once each (a loop is walked once).
fn folders_below(root: &Path) -> Vec<PathBuf> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(meta) = std::fs::metadata(&dir) else { continue };
        if !meta.is_dir() || !seen.insert(file_id(&meta)) {
            continue;
        }
        if let Ok(entries) = std::fs::read_dir(&dir) {
            for e in entries.flatten() {
                let is_dir = e.file_type().is_ok_and(|t| t.is_dir() || (t.is_symlink() && e.path().is_dir()));
                if is_dir {
                    stack.push(e.path());
                }
            }
        }
        out.push(dir);
    }
    out
}

#[cfg(unix)]
fn file_id(meta: &std::fs::Metadata) -> (u64, u64) {
    use std::os::unix::fs::MetadataExt;
    (meta.dev(), meta.ino())
}

#[cfg(not(unix))]
fn file_id(meta: &std::fs::Metadata) -> (u64, u64) {
    (0, meta.modified().ok().and_then(|t| t.elapsed().ok()).map_or(0, |d| d.as_nanos() as u64))
}

#[cfg(target_os = "linux")]
mod linux {
    use super::{folders_below, Handler, Target, WatchError, WatchEvent};
    use inotify::{EventMask, Inotify, WatchDescriptor, WatchMask};
    use std::collections::HashMap;
    use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
    use std::path::{Path, PathBuf};
    use std::time::{Duration, SystemTime};

    /// Changes only: no OPEN, ACCESS or CLOSE_NOWRITE.
    fn mask() -> WatchMask {
        WatchMask::CREATE
            | WatchMask::DELETE
            | WatchMask::CLOSE_WRITE
            | WatchMask::MODIFY
            | WatchMask::ATTRIB
            | WatchMask::MOVED_FROM
            | WatchMask::MOVED_TO
            | WatchMask::DELETE_SELF
            | WatchMask::MOVE_SELF
    }

    /// How often folders without a watch are looked at.
    const POLL_EVERY: Duration = Duration::from_secs(2);

    /// What the status line says, once, when the watch limit is reached.
    fn limit_note(watched: usize, polled: usize) -> String {
        format!(
            "the system's file-watch limit is reached ({} watched); {polled} more are checked every {} s \
             (raise fs.inotify.max_user_watches for instant reloads)",
            crate::words::count_s(watched as u64, "folder"),
            POLL_EVERY.as_secs()
        )
    }

    /// Keeps the watches alive; dropping it stops the thread.
    pub struct Watcher {
        stop: Option<OwnedFd>,
        thread: Option<std::thread::JoinHandle<()>>,
        /// How many folders and files have a watch.
        pub watched: usize,
        /// Set when the system's watch limit left folders without a watch.
        pub limit_note: Option<String>,
    }

    struct State {
        inotify: Inotify,
        paths: HashMap<WatchDescriptor, (PathBuf, bool)>,
        /// Folders the watch limit left out, with their last seen times.
        uncovered: Vec<(PathBuf, Option<SystemTime>)>,
        limited: bool,
    }

    fn stamp(path: &Path) -> Option<SystemTime> {
        let dir = std::fs::metadata(path).and_then(|m| m.modified()).ok();
        let skill = std::fs::metadata(path.join("SKILL.md")).and_then(|m| m.modified()).ok();
        dir.max(skill)
    }

    impl State {
        /// Adds a watch; once the limit is hit, the folder is polled instead.
        fn add(&mut self, path: &Path, recursive: bool) -> Result<(), WatchError> {
            if !self.limited {
                match self.inotify.watches().add(path, mask()) {
                    Ok(wd) => {
                        self.paths.insert(wd, (path.to_path_buf(), recursive));
                        return Ok(());
                    }
                    Err(e) if e.raw_os_error() == Some(libc::ENOSPC) => self.limited = true,
                    // A folder that went away or cannot be read is not watched.
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
                    Err(e) if e.kind() == std::io::ErrorKind::PermissionDenied => return Ok(()),
                    Err(e) => return Err(WatchError::Folder { path: path.to_path_buf(), source: e }),
                }
            }
            if recursive || path.is_dir() {
                self.uncovered.push((path.to_path_buf(), stamp(path)));
            }
            Ok(())
        }

        fn add_tree(&mut self, root: &Path) -> Result<(), WatchError> {
            for dir in folders_below(root) {
                self.add(&dir, true)?;
            }
            Ok(())
        }

        /// Drains the queue: the paths that changed, or an overflow.
        fn read(&mut self, buffer: &mut [u8]) -> Option<WatchEvent> {
            let mut changed = Vec::new();
            let mut new_dirs = Vec::new();
            let mut overflow = false;
            loop {
                let events = match self.inotify.read_events(buffer) {
                    Ok(events) => events,
                    Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => break,
                    Err(_) => break,
                };
                let mut any = false;
                for event in events {
                    any = true;
                    if event.mask.contains(EventMask::Q_OVERFLOW) {
                        overflow = true;
                        continue;
                    }
                    if event.mask.contains(EventMask::IGNORED) {
                        self.paths.remove(&event.wd);
                        continue;
                    }
                    let Some((dir, recursive)) = self.paths.get(&event.wd) else { continue };
                    let path = match event.name {
                        Some(name) => dir.join(name),
                        None => dir.clone(),
                    };
                    let created = event.mask.intersects(EventMask::CREATE | EventMask::MOVED_TO);
                    if *recursive && created && event.mask.contains(EventMask::ISDIR) {
                        new_dirs.push(path.clone());
                    }
                    changed.push(path);
                }
                if !any {
                    break;
                }
            }
            for dir in new_dirs {
                let _ = self.add_tree(&dir);
            }
            if overflow {
                Some(WatchEvent::Overflow)
            } else if changed.is_empty() {
                None
            } else {
                changed.sort();
                changed.dedup();
                Some(WatchEvent::Changed(changed))
            }
        }

        /// The uncovered folders whose times moved since the last look.
        fn poll(&mut self) -> Option<WatchEvent> {
            let mut changed = Vec::new();
            for (path, last) in &mut self.uncovered {
                let now = stamp(path);
                if now != *last {
                    *last = now;
                    changed.push(path.clone());
                }
            }
            (!changed.is_empty()).then_some(WatchEvent::Changed(changed))
        }
    }

    impl Watcher {
        pub(super) fn start(targets: &[Target], on_event: Handler) -> Result<Watcher, WatchError> {
            let inotify = Inotify::init().map_err(|e| WatchError::setup("inotify", e))?;
            let mut state = State { inotify, paths: HashMap::new(), uncovered: Vec::new(), limited: false };
            for t in targets {
                if t.recursive {
                    state.add_tree(&t.path)?;
                } else {
                    state.add(&t.path, false)?;
                }
            }
            let watched = state.paths.len();
            let limit_note = state.limited.then(|| limit_note(watched, state.uncovered.len()));
            let mut fds = [0; 2];
            // SAFETY: pipe2 writes two descriptors into the array we own.
            if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
                return Err(WatchError::setup("pipe", std::io::Error::last_os_error()));
            }
            // SAFETY: both descriptors were just opened and are owned here.
            let (stop_read, stop_write) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
            let thread = std::thread::Builder::new()
                .name("skillscope-watch".into())
                .spawn(move || run(state, stop_read, on_event))
                .map_err(|e| WatchError::setup("watch thread", e))?;
            Ok(Watcher { stop: Some(stop_write), thread: Some(thread), watched, limit_note })
        }
    }

    fn run(mut state: State, stop: OwnedFd, on_event: Handler) {
        let mut buffer = vec![0u8; 64 * 1024];
        loop {
            let timeout = if state.uncovered.is_empty() { -1 } else { POLL_EVERY.as_millis() as i32 };
            let mut fds = [
                libc::pollfd { fd: state.inotify.as_raw_fd(), events: libc::POLLIN, revents: 0 },
                libc::pollfd { fd: stop.as_raw_fd(), events: libc::POLLIN, revents: 0 },
            ];
            // SAFETY: the array holds two valid pollfd structs for the call.
            let n = unsafe { libc::poll(fds.as_mut_ptr(), 2, timeout) };
            if n < 0 {
                if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
                    continue;
                }
                return;
            }
            if fds[1].revents != 0 {
                return;
            }
            if fds[0].revents & libc::POLLIN != 0 {
                if let Some(event) = state.read(&mut buffer) {
                    on_event(event);
                }
            }
            if n == 0 {
                if let Some(event) = state.poll() {
                    on_event(event);
                }
            }
        }
    }

    impl Drop for Watcher {
        fn drop(&mut self) {
            // Closing the pipe's write end wakes the thread, which returns.
            drop(self.stop.take());
            if let Some(t) = self.thread.take() {
                let _ = t.join();
            }
        }
    }

    #[cfg(test)]
    pub(super) fn start_with_limit(targets: &[Target], limit: usize, on_event: Handler) -> Watcher {
        // The real limit is system-wide; a test imitates it by watching
        // only the first `limit` folders.
        let inotify = Inotify::init().expect("inotify");
        let mut state = State { inotify, paths: HashMap::new(), uncovered: Vec::new(), limited: false };
        for t in targets {
            for dir in folders_below(&t.path) {
                if state.paths.len() >= limit {
                    state.limited = true;
                }
                state.add(&dir, true).expect("add");
            }
        }
        let mut fds = [0; 2];
        // SAFETY: pipe2 writes two descriptors into the array we own.
        assert_eq!(unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) }, 0);
        // SAFETY: both descriptors were just created and are owned by nothing else.
        let (r, w) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
        let watched = state.paths.len();
        let note = state.limited.then(|| limit_note(watched, state.uncovered.len()));
        let thread = std::thread::spawn(move || run(state, r, on_event));
        Watcher { stop: Some(w), thread: Some(thread), watched, limit_note: note }
    }
}

#[cfg(not(target_os = "linux"))]
mod portable {
    use super::{Handler, Target, WatchError, WatchEvent};
    use notify::{EventKind, RecursiveMode, Watcher as _};

    /// Keeps the OS watches alive; dropping it stops watching.
    pub struct Watcher {
        _inner: notify::RecommendedWatcher,
        pub watched: usize,
        pub limit_note: Option<String>,
    }

    impl Watcher {
        pub(super) fn start(targets: &[Target], on_event: Handler) -> Result<Watcher, WatchError> {
            let mut inner = notify::recommended_watcher(move |res: notify::Result<notify::Event>| match res {
                Ok(event) if event.need_rescan() => on_event(WatchEvent::Overflow),
                Ok(event) if !matches!(event.kind, EventKind::Access(_)) => on_event(WatchEvent::Changed(event.paths)),
                _ => {}
            })
            .map_err(|e| WatchError::setup("notify", e))?;
            for t in targets {
                let mode = if t.recursive { RecursiveMode::Recursive } else { RecursiveMode::NonRecursive };
                inner.watch(&t.path, mode).map_err(|e| WatchError::Folder {
                    path: t.path.clone(),
                    source: std::io::Error::other(e.to_string()),
                })?;
            }
            Ok(Watcher { _inner: inner, watched: targets.len(), limit_note: None })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;
    use std::time::Duration;

    fn collect() -> (mpsc::Sender<WatchEvent>, mpsc::Receiver<WatchEvent>) {
        mpsc::channel()
    }

    #[test]
    fn changes_are_reported_and_reads_are_not() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path().join("home");
        std::fs::create_dir_all(root.join("skills/a")).expect("skills");
        let skill = root.join("skills/a/SKILL.md");
        std::fs::write(&skill, "x").expect("write");
        let user = root.join("users/alice/skills");
        std::fs::create_dir_all(&user).expect("user dir");
        let db = dir.path().join("skills.db");
        std::fs::write(&db, "x").expect("db");
        let env = Env::with_vars([("HOME", "/nonexistent")], super::super::env::Os::Linux);
        let home = Home::load(root.clone(), &env);
        let (tx, rx) = collect();
        let w = watch(&targets(&home, &env, &[user.clone(), db.clone()]), move |e| {
            let _ = tx.send(e);
        })
        .expect("watch");
        assert!(w.watched >= 4 && w.limit_note.is_none());
        // Reading files is not a change.
        for _ in 0..50 {
            let _ = std::fs::read(&skill);
        }
        assert!(rx.recv_timeout(Duration::from_millis(300)).is_err(), "reads are not reported");
        std::fs::write(&skill, "y").expect("write");
        let got = rx.recv_timeout(Duration::from_secs(5)).expect("a change");
        assert!(matches!(&got, WatchEvent::Changed(p) if p.contains(&skill)), "{got:?}");
        while rx.try_recv().is_ok() {}
        // A folder created later is watched too.
        std::fs::create_dir_all(user.join("new-skill")).expect("mkdir");
        assert!(rx.recv_timeout(Duration::from_secs(5)).is_ok(), "user folder change seen");
        std::thread::sleep(Duration::from_millis(100));
        while rx.try_recv().is_ok() {}
        std::fs::write(user.join("new-skill/SKILL.md"), "z").expect("write");
        let got = rx.recv_timeout(Duration::from_secs(5)).expect("a change in the new folder");
        assert!(matches!(&got, WatchEvent::Changed(p) if p.iter().any(|p| p.ends_with("new-skill/SKILL.md"))));
        while rx.try_recv().is_ok() {}
        std::fs::write(&db, "changed").expect("write db");
        assert!(rx.recv_timeout(Duration::from_secs(5)).is_ok(), "database change seen");
        drop(w);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn folders_over_the_watch_limit_are_polled() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path().join("skills");
        for name in ["a", "b", "c"] {
            std::fs::create_dir_all(root.join(name)).expect("mkdir");
        }
        let (tx, rx) = collect();
        let targets = [Target { path: root.clone(), recursive: true }];
        let w = linux::start_with_limit(
            &targets,
            1,
            Box::new(move |e| {
                let _ = tx.send(e);
            }),
        );
        assert_eq!(w.watched, 1);
        let note = w.limit_note.clone().expect("the limit is reported");
        assert!(note.contains("file-watch limit") && note.contains("3 more are checked every 2 s"), "{note}");
        // Which folder got the one watch depends on the walk; change all of
        // the others and expect the poll to see each.
        std::thread::sleep(Duration::from_millis(1100));
        for name in ["a", "b", "c"] {
            std::fs::write(root.join(name).join("SKILL.md"), "x").expect("write");
        }
        let mut seen = std::collections::HashSet::new();
        let deadline = std::time::Instant::now() + Duration::from_secs(8);
        while seen.len() < 3 && std::time::Instant::now() < deadline {
            if let Ok(WatchEvent::Changed(paths)) = rx.recv_timeout(Duration::from_millis(500)) {
                for p in paths {
                    for name in ["a", "b", "c"] {
                        if p.starts_with(root.join(name)) || p == root.join(name) {
                            seen.insert(name);
                        }
                    }
                }
            }
        }
        assert_eq!(seen.len(), 3, "every folder is covered: {seen:?}");
    }
}
