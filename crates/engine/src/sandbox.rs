//! Terminal backends, the sandbox mounts of the skill roots (spec §11), and
//! where a skill's folder is inside the sandbox (`runtime_skill_dir`).
//!
//! Hermes 0.19.0 mounts or syncs the skill roots into docker, singularity,
//! modal, ssh and daytona sandboxes, but still shows the agent host paths,
//! which do not exist there. skillscope computes the path the agent needs.

use super::env::Env;
use super::home::Home;
use super::paths;
use super::value::Value;
use super::Engine;
use crate::py::py_strip;
use serde_json::{json, Value as Json};
use std::path::{Path, PathBuf};

/// Where Hermes mounts or syncs the skill trees inside a container.
pub const CONTAINER_BASE: &str = "/root/.hermes";

/// The terminal backends of Hermes 0.19.0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Backend {
    #[default]
    Local,
    Docker,
    Singularity,
    Modal,
    Ssh,
    Daytona,
}

impl Backend {
    pub const ALL: [Backend; 6] =
        [Backend::Local, Backend::Docker, Backend::Singularity, Backend::Modal, Backend::Ssh, Backend::Daytona];

    pub fn name(self) -> &'static str {
        match self {
            Backend::Local => "local",
            Backend::Docker => "docker",
            Backend::Singularity => "singularity",
            Backend::Modal => "modal",
            Backend::Ssh => "ssh",
            Backend::Daytona => "daytona",
        }
    }

    /// Trimmed, case-insensitive, as Hermes reads `TERMINAL_ENV`.
    pub fn parse(name: &str) -> Option<Backend> {
        let name = py_strip(name).to_lowercase();
        Backend::ALL.into_iter().find(|b| b.name() == name)
    }

    pub fn valid_names() -> String {
        Backend::ALL.map(Backend::name).join(", ")
    }

    pub fn is_remote(self) -> bool {
        self != Backend::Local
    }

    /// The next backend in `ALL`, wrapping (for cycling through them).
    pub fn next(self) -> Backend {
        let i = Backend::ALL.iter().position(|b| *b == self).unwrap_or(0);
        Backend::ALL[(i + 1) % Backend::ALL.len()]
    }

    pub fn previous(self) -> Backend {
        let i = Backend::ALL.iter().position(|b| *b == self).unwrap_or(0);
        Backend::ALL[(i + Backend::ALL.len() - 1) % Backend::ALL.len()]
    }
}

impl std::fmt::Display for Backend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The backend a session uses: env `TERMINAL_ENV`, else `terminal.backend`
/// (legacy `terminal.env_type`) in config.yaml, else local.
pub fn default_backend(home: &Home, env: &Env) -> Result<Backend, UnknownBackend> {
    if let Some(value) = env.var("TERMINAL_ENV").filter(|v| !py_strip(v).is_empty()) {
        return Backend::parse(value)
            .ok_or_else(|| UnknownBackend { value: py_strip(value).to_owned(), setting: "TERMINAL_ENV".into() });
    }
    let terminal = home.raw_config.get("terminal").and_then(Value::as_map);
    let configured = terminal.and_then(|t| t.get("backend").or_else(|| t.get("env_type"))).filter(|v| v.truthy());
    match configured {
        Some(v) => Backend::parse(&v.py_str()).ok_or_else(|| UnknownBackend {
            value: v.py_str(),
            setting: format!("{} terminal.backend", home.config_path().display()),
        }),
        None => Ok(Backend::Local),
    }
}

/// A backend name no Hermes backend has, and the setting that gives it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown backend '{value}' in {setting} (valid: {})", Backend::valid_names())]
pub struct UnknownBackend {
    pub value: String,
    pub setting: String,
}

/// One skill root and its place inside the sandbox.
#[derive(Debug, Clone, PartialEq)]
pub struct Mount {
    pub host_path: PathBuf,
    /// The path Hermes' mount table gives (`/root/.hermes/...`).
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
pub fn symlinks_under(root: &Path) -> Vec<PathBuf> {
    paths::rglob(root, "*").into_iter().filter(|p| paths::is_symlink(p)).collect()
}

/// A skill folder as the agent on a backend sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct RuntimePath {
    pub path: String,
    /// Set when no mount covers the folder and the host path is kept.
    pub unmapped: Option<String>,
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

    /// The base the selected backend puts `.hermes` under: `/root` for the
    /// containers and daytona, `~` over ssh, or `--remote-home`.
    fn remote_base(&self) -> String {
        let home = match (&self.options.remote_home, self.options.backend) {
            (Some(h), Backend::Ssh | Backend::Daytona) => h.trim_end_matches('/').to_owned(),
            (_, Backend::Ssh) => "~".to_owned(),
            _ => "/root".to_owned(),
        };
        format!("{home}/.hermes")
    }

    /// The mount table for the selected backend: where each root is inside
    /// the sandbox (containers) or synced to (ssh, daytona). For local,
    /// Hermes' table as its container backends would use it.
    pub fn backend_mounts(&self) -> Vec<Mount> {
        let mut mounts = self.mounts();
        if matches!(self.options.backend, Backend::Ssh | Backend::Daytona) {
            let base = self.remote_base();
            for m in &mut mounts {
                let rest = m.container_path.strip_prefix(CONTAINER_BASE).unwrap_or(&m.container_path).to_owned();
                m.container_path = format!("{base}{rest}");
            }
        }
        mounts
    }

    /// Where a host folder (a skill dir) is for the agent on the selected
    /// backend; the host path, with a reason, when no mount covers it.
    pub fn runtime_path(&self, host: &Path) -> RuntimePath {
        let keep = |reason: Option<String>| RuntimePath { path: paths::path_string(host), unmapped: reason };
        if !self.options.backend.is_remote() {
            return keep(None);
        }
        let mounts = self.backend_mounts();
        let resolved = paths::resolve(host);
        for m in &mounts {
            let rel = paths::relative_to(host, &m.host_path)
                .map(Path::to_path_buf)
                .or_else(|| resolved.strip_prefix(paths::resolve(&m.host_path)).ok().map(Path::to_path_buf));
            if let Some(rel) = rel {
                let rel = paths::rel_string(&rel);
                let path =
                    if rel.is_empty() { m.container_path.clone() } else { format!("{}/{rel}", m.container_path) };
                return RuntimePath { path, unmapped: None };
            }
        }
        keep(Some(format!(
            "{} is not under a skill root mounted into the {} sandbox; the host path is shown",
            host.display(),
            self.options.backend
        )))
    }

    /// Files of a skill folder that the sandbox will not have: Hermes mounts
    /// or syncs regular files only, so whatever is reached through a symlink
    /// is missing there. Empty for the local backend.
    pub fn files_missing_in_sandbox(&self, skill_dir: &Path) -> Vec<PathBuf> {
        if !self.options.backend.is_remote() {
            return Vec::new();
        }
        let mut missing = Vec::new();
        for link in symlinks_under(skill_dir) {
            if paths::is_dir(&link) {
                missing.extend(super::discover::files_under_following_links(&link));
            } else {
                missing.push(link);
            }
        }
        missing.sort();
        missing
    }
}
