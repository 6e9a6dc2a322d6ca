//! A home compared with what it was at a git revision: the revision's tree
//! written from git's objects into a temporary folder of our own, and both
//! states answered by the engine ([`crate::engine::diff`]). Shared by
//! `skillscope diff` and the browser's `--since`.

use crate::engine::check::run::{resolve, Overrides};
use crate::engine::diagnostics::Severity;
use crate::engine::diff::git::{self, Repo, Written};
use crate::engine::diff::{self, DiffReport, ReadOptions, SkillChange, State, Touched};
use crate::open::FolderKind;
use std::path::{Path, PathBuf};

/// A revision compared with the home an engine shows: the browser's
/// `--since`.
#[derive(Debug, Clone, PartialEq)]
pub struct SinceAnswer {
    pub rev: String,
    pub commit: String,
    pub report: DiffReport,
    /// Each changed skill's SKILL.md as the revision has it, by its
    /// SKILL.md now.
    pub before_text: std::collections::HashMap<PathBuf, String>,
    /// Skills the revision has and the home no longer does: name, folder,
    /// SKILL.md text.
    pub removed: Vec<(String, String, String)>,
}

impl SinceAnswer {
    /// How the skill whose SKILL.md is `path` changed since the revision.
    pub fn change_of(&self, path: &Path) -> Option<&SkillChange> {
        self.report.skills.iter().find(|s| s.files.1.as_deref() == Some(path))
    }
}

/// Compares the home `engine` shows (its folder of skills `folder`, the
/// home itself when it is one) with what it was at `rev`.
pub fn since(engine: &crate::engine::Engine, folder: &Path, rev: &str) -> Result<SinceAnswer, String> {
    let folder = folder.canonicalize().map_err(|e| format!("{}: {e}", folder.display()))?;
    let repo = Repo::discover(&folder).map_err(|e| e.to_string())?;
    let commit = repo.commit(rev).map_err(|e| e.to_string())?;
    let repo_root = repo.root.canonicalize().unwrap_or_else(|_| repo.root.clone());
    let rel = folder.strip_prefix(&repo_root).unwrap_or(Path::new("")).to_path_buf();
    let (tree, _) = read_revision(&repo, &commit)?;
    let written = tree.path().canonicalize().map_err(|e| e.to_string())?;
    let before_folder = written.join(&rel);
    let stand_in = match crate::open::classify(&before_folder) {
        FolderKind::Home => None,
        kind => Some(crate::open::StandInHome::create(&before_folder, kind).map_err(|e| e.to_string())?),
    };
    let before_root = stand_in.as_ref().map_or_else(|| before_folder.clone(), |s| s.home());
    let before_engine = crate::engine::Engine::new(before_root, engine.env.clone(), engine.options.clone());
    let options = |home: &Path| -> Result<ReadOptions, String> {
        let overrides = Overrides { min_severity: Some(Severity::Warning), ..Overrides::default() };
        Ok(ReadOptions {
            policy: resolve(&overrides, home).map_err(|e| e.to_string())?.policy,
            ..ReadOptions::default()
        })
    };
    let index_error = |e| format!("Hermes fails to build the skills index: {e}");
    let before = State::read(&before_engine, &options(&before_folder)?, Some((written, repo_root.clone())))
        .map_err(index_error)?;
    let after = State::read(engine, &options(&folder)?, None).map_err(index_error)?;
    let changed = repo.changed_paths(&commit, None);
    let touched = match &changed {
        Ok(changed) if !diff::touches_home([&before, &after], &repo_root, changed) => {
            Touched::Paths { base: &repo_root, changed }
        }
        _ => Touched::All,
    };
    let report = diff::compare(&before, &after, &folder, &touched);
    let read = |p: &Option<PathBuf>| p.as_deref().and_then(|p| std::fs::read_to_string(p).ok());
    let mut before_text = std::collections::HashMap::new();
    let mut removed = Vec::new();
    for skill in &report.skills {
        match (&skill.files.1, read(&skill.files.0)) {
            (Some(now), Some(text)) => {
                before_text.insert(now.clone(), text);
            }
            (None, text) => removed.push((skill.name.clone(), skill.folder.clone(), text.unwrap_or_default())),
            _ => {}
        }
    }
    Ok(SinceAnswer { rev: rev.to_owned(), commit, report, before_text, removed })
}

/// Writes the tree of `commit` into a temporary folder of ours (in memory
/// when there is room), removed when the folder is dropped.
pub fn read_revision(repo: &Repo, commit: &str) -> Result<(tempfile::TempDir, Written), String> {
    let entries = repo.tree(commit).map_err(|e| e.to_string())?;
    let builder = tempfile::Builder::new().prefix("skillscope-rev-").to_owned();
    let dir = match scratch_in_memory(git::room_needed(&entries)) {
        Some(base) => builder.tempdir_in(base),
        None => builder.tempdir(),
    }
    .map_err(|e| e.to_string())?;
    let written = repo.write_entries(&entries, dir.path()).map_err(|e| e.to_string())?;
    Ok((dir, written))
}

/// A memory-backed folder (`/dev/shm`) with room to spare for a revision's
/// files, unless `TMPDIR` names where temporary files go: creating many
/// small files there takes a fraction of the time a disk's file system
/// does. The files are removed when the diff ends.
fn scratch_in_memory(needed: u64) -> Option<&'static Path> {
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
