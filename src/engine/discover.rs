//! The SKILL.md walk (spec §4): excluded names, support dirs, symlinks.

use super::paths;
use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};

/// Directory names no scanner enters (`EXCLUDED_SKILL_DIRS`).
pub const EXCLUDED_DIRS: [&str; 14] = [
    ".git",
    ".github",
    ".hub",
    ".archive",
    ".venv",
    "venv",
    "node_modules",
    "site-packages",
    "__pycache__",
    ".tox",
    ".nox",
    ".pytest_cache",
    ".mypy_cache",
    ".ruff_cache",
];

/// Folders of a skill that hold its supporting files (`SKILL_SUPPORT_DIRS`).
pub const SUPPORT_DIRS: [&str; 4] = ["references", "templates", "assets", "scripts"];

pub fn is_excluded_name(name: &str) -> bool {
    EXCLUDED_DIRS.contains(&name)
}

pub fn is_support_name(name: &str) -> bool {
    SUPPORT_DIRS.contains(&name)
}

/// True when some component of `path` (not the first, not the last) is a
/// support dir sitting directly in a folder that has a SKILL.md.
pub fn is_support_path(path: &Path) -> bool {
    let comps: Vec<_> = path.components().collect();
    if comps.len() < 2 {
        return false;
    }
    for idx in 1..comps.len() - 1 {
        let name = comps[idx].as_os_str().to_string_lossy();
        if !is_support_name(&name) {
            continue;
        }
        let root: PathBuf = comps[..idx].iter().collect();
        if paths::exists(&root.join("SKILL.md")) {
            return true;
        }
    }
    false
}

/// True when any component of `path` is an excluded name.
pub fn has_excluded_component(path: &Path) -> bool {
    path.components().any(|c| is_excluded_name(&c.as_os_str().to_string_lossy()))
}

/// `is_excluded_skill_path`.
pub fn is_excluded_skill_path(path: &Path) -> bool {
    has_excluded_component(path) || is_support_path(path)
}

/// Problems met during a walk that Hermes passes over silently.
#[derive(Debug, Clone, Default)]
pub struct WalkReport {
    /// Directories that could not be listed.
    pub unreadable: Vec<PathBuf>,
    /// Symlinked directories not entered because they lead back to an ancestor.
    pub cycles: Vec<PathBuf>,
}

/// `iter_skill_index_files(root, filename)`: every `filename` under `root`,
/// following symlinks (each directory entered once per path, cycles cut),
/// sorted by the full path string.
pub fn index_files(root: &Path, filename: &str) -> Vec<PathBuf> {
    index_files_with_report(root, filename).0
}

pub fn index_files_with_report(root: &Path, filename: &str) -> (Vec<PathBuf>, WalkReport) {
    let mut matches = Vec::new();
    let mut report = WalkReport::default();
    let mut ancestors = HashSet::new();
    walk(root, filename, &mut ancestors, &mut matches, &mut report);
    matches.sort_by(|a: &PathBuf, b: &PathBuf| a.as_os_str().cmp(b.as_os_str()));
    (matches, report)
}

#[cfg(unix)]
fn dir_key(meta: &fs::Metadata) -> (u64, u64) {
    use std::os::unix::fs::MetadataExt;
    (meta.dev(), meta.ino())
}

#[cfg(not(unix))]
fn dir_key(_meta: &fs::Metadata) -> (u64, u64) {
    (0, 0)
}

fn walk(
    dir: &Path,
    filename: &str,
    ancestors: &mut HashSet<(u64, u64)>,
    matches: &mut Vec<PathBuf>,
    report: &mut WalkReport,
) {
    let Ok(meta) = fs::metadata(dir) else { return };
    let key = dir_key(&meta);
    if cfg!(unix) && !ancestors.insert(key) {
        report.cycles.push(dir.to_path_buf());
        return;
    }
    let entries = match fs::read_dir(dir) {
        Ok(rd) => rd,
        Err(_) => {
            report.unreadable.push(dir.to_path_buf());
            ancestors.remove(&key);
            return;
        }
    };
    let mut subdirs = Vec::new();
    let mut has_skill_md = false;
    let mut has_target = false;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        // os.walk sorts entries by `is_dir()`, which follows symlinks.
        let is_dir = match entry.file_type() {
            Ok(t) if t.is_dir() => true,
            Ok(t) if t.is_symlink() => paths::is_dir(&entry.path()),
            _ => false,
        };
        if is_dir {
            subdirs.push(name.into_owned());
        } else {
            has_skill_md |= name == "SKILL.md";
            has_target |= name == filename;
        }
    }
    if has_target {
        matches.push(dir.join(filename));
    }
    for name in subdirs {
        if is_excluded_name(&name) || (has_skill_md && is_support_name(&name)) {
            continue;
        }
        walk(&dir.join(&name), filename, ancestors, matches, report);
    }
    ancestors.remove(&key);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn touch(p: &Path) {
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, "x").unwrap();
    }

    #[test]
    fn walk_prunes_support_and_excluded_dirs() {
        let t = tempfile::tempdir().unwrap();
        let r = t.path();
        touch(&r.join("a/SKILL.md"));
        touch(&r.join("a/references/inner/SKILL.md"));
        touch(&r.join("scripts/b/SKILL.md"));
        touch(&r.join("node_modules/c/SKILL.md"));
        touch(&r.join(".hidden/d/SKILL.md"));
        touch(&r.join("a-b/SKILL.md"));
        let found: Vec<String> =
            index_files(r, "SKILL.md").iter().map(|p| paths::rel_string(p.strip_prefix(r).unwrap())).collect();
        assert_eq!(found, [".hidden/d/SKILL.md", "a-b/SKILL.md", "a/SKILL.md", "scripts/b/SKILL.md"]);
    }

    #[cfg(unix)]
    #[test]
    fn symlink_loops_terminate() {
        let t = tempfile::tempdir().unwrap();
        let r = t.path();
        touch(&r.join("cat/s/SKILL.md"));
        std::os::unix::fs::symlink(r.join("cat"), r.join("cat/loop")).unwrap();
        std::os::unix::fs::symlink(r.join("cat"), r.join("alias")).unwrap();
        let (found, report) = index_files_with_report(r, "SKILL.md");
        let found: Vec<String> = found.iter().map(|p| paths::rel_string(p.strip_prefix(r).unwrap())).collect();
        assert_eq!(found, ["alias/s/SKILL.md", "cat/s/SKILL.md"]);
        assert_eq!(report.cycles.len(), 2);
    }

    #[test]
    fn support_path_needs_a_skill_md_parent() {
        let t = tempfile::tempdir().unwrap();
        let r = t.path();
        touch(&r.join("s/SKILL.md"));
        assert!(is_support_path(&r.join("s/references/x.md")));
        assert!(!is_support_path(&r.join("o/references/x.md")));
    }
}
