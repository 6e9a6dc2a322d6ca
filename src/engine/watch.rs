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
pub fn watch(home: &Home, env: &Env, on_change: impl Fn() + Send + 'static) -> Result<Watcher, String> {
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
        if paths::is_dir(path) {
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
    Ok(Watcher { _inner: inner, watched })
}
