//! Watching a home for changes. The watcher only says "something changed";
//! the caller debounces and rescans.

use super::env::Env;
use super::home::Home;
use super::paths;
use notify::{EventKind, RecursiveMode, Watcher as _};

/// Keeps the OS watches alive; dropping it stops watching.
pub struct Watcher {
    _inner: notify::RecommendedWatcher,
    /// Folders that are watched.
    pub watched: Vec<std::path::PathBuf>,
}

/// Watches every skill root (recursively), the home itself (config.yaml,
/// `.env`, a `skills/` that appears) and the bundles folder. Editors that
/// save by renaming a temporary file are seen, since folders are watched.
/// `extra` adds folders (watched recursively) and files, such as a user's
/// skill folder and a skills database.
pub fn watch(
    home: &Home,
    env: &Env,
    extra: &[std::path::PathBuf],
    on_change: impl Fn() + Send + 'static,
) -> Result<Watcher, String> {
    let mut inner = notify::recommended_watcher(move |res: notify::Result<notify::Event>| {
        if let Ok(event) = res {
            if !matches!(event.kind, EventKind::Access(_)) {
                on_change();
            }
        }
    })
    .map_err(|e| e.to_string())?;
    let mut watched = Vec::new();
    let mut add = |path: &std::path::Path, mode: RecursiveMode| -> Result<(), String> {
        if paths::is_dir(path) || (mode == RecursiveMode::NonRecursive && path.is_file()) {
            inner.watch(path, mode).map_err(|e| format!("{}: {e}", path.display()))?;
            watched.push(path.to_path_buf());
        }
        Ok(())
    };
    add(&home.root, RecursiveMode::NonRecursive)?;
    for root in home.all_skills_dirs() {
        add(&root, RecursiveMode::Recursive)?;
    }
    add(&home.bundles_dir(env), RecursiveMode::NonRecursive)?;
    for path in extra {
        let mode = if path.is_file() { RecursiveMode::NonRecursive } else { RecursiveMode::Recursive };
        add(path, mode)?;
    }
    Ok(Watcher { _inner: inner, watched })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;
    use std::time::Duration;

    #[test]
    fn extra_folders_and_files_report_changes() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path().join("home");
        std::fs::create_dir_all(root.join("skills")).expect("skills");
        let user = root.join("users/alice/skills");
        std::fs::create_dir_all(&user).expect("user dir");
        let db = dir.path().join("skills.db");
        std::fs::write(&db, "x").expect("db");
        let env = Env::with_vars([("HOME", "/nonexistent")], super::super::env::Os::Linux);
        let home = Home::load(root, &env);
        let (tx, rx) = mpsc::channel();
        let w = watch(&home, &env, &[user.clone(), db.clone()], move || {
            let _ = tx.send(());
        })
        .expect("watch");
        assert!(w.watched.contains(&user) && w.watched.contains(&db), "{:?}", w.watched);
        std::fs::create_dir_all(user.join("new-skill")).expect("mkdir");
        assert!(rx.recv_timeout(Duration::from_secs(5)).is_ok(), "user folder change seen");
        while rx.try_recv().is_ok() {}
        std::fs::write(&db, "changed").expect("write db");
        assert!(rx.recv_timeout(Duration::from_secs(5)).is_ok(), "database change seen");
    }
}
