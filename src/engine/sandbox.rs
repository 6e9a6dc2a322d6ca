//! Sandbox mounts of the skill roots (spec §11, SBX-2).

use super::paths;
use super::Engine;
use serde_json::{json, Value as Json};
use std::path::PathBuf;

/// Where Hermes mounts or syncs the skill trees inside a sandbox.
pub const CONTAINER_BASE: &str = "/root/.hermes";

/// One skill root and its place inside the sandbox.
#[derive(Debug, Clone, PartialEq)]
pub struct Mount {
    pub host_path: PathBuf,
    pub container_path: String,
    /// Symlinks under the root. Hermes then mounts a copy made of regular
    /// files only, so anything reached through them is absent in the sandbox.
    pub symlinks: Vec<PathBuf>,
}

impl Mount {
    pub fn to_json(&self) -> Json {
        json!({"host_path": paths::path_string(&self.host_path), "container_path": self.container_path})
    }
}

/// Every symlink below `root` (as `rglob("*")` sees them: symlinked
/// directories are listed but not entered).
pub fn symlinks_under(root: &std::path::Path) -> Vec<PathBuf> {
    paths::rglob(root, "*").into_iter().filter(|p| paths::is_symlink(p)).collect()
}

impl Engine {
    /// `get_skills_directory_mount()`: the local skills dir, then each
    /// external dir at `external_skills/<index>`.
    pub fn mounts(&self) -> Vec<Mount> {
        let base = CONTAINER_BASE.trim_end_matches('/');
        let mut mounts = Vec::new();
        if paths::is_dir(&self.home.skills_dir) {
            mounts.push(Mount {
                host_path: self.home.skills_dir.clone(),
                container_path: format!("{base}/skills"),
                symlinks: symlinks_under(&self.home.skills_dir),
            });
        }
        for (idx, dir) in self.home.external_dirs.iter().enumerate() {
            if paths::is_dir(dir) {
                mounts.push(Mount {
                    host_path: dir.clone(),
                    container_path: format!("{base}/external_skills/{idx}"),
                    symlinks: symlinks_under(dir),
                });
            }
        }
        mounts
    }
}
