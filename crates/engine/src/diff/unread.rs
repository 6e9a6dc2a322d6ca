//! Where a home's files lie that no answer reads: a change there (an
//! untracked `.DS_Store`, a `.venv`, a CI workflow, a licence) leaves every
//! answer as it was, so a state that differs from a walked one only there
//! and inside some skill folders is still that walk with those folders
//! overlaid ([`crate::overlay`]), not a tree to write and walk whole.

use crate::discover::is_excluded_name;
use crate::env::Env;
use crate::home::Home;
use std::path::{Component, Path, PathBuf};

/// What a changed path is on disk, as far as it matters here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PathKind {
    /// A regular file.
    File,
    /// A folder, a symlink, or not known.
    Other,
}

/// The places of one home that Hermes reads, to tell the paths nothing
/// reads.
#[derive(Debug, Clone)]
pub struct Unread {
    home: PathBuf,
    skills: PathBuf,
    bundles: PathBuf,
    roots: Vec<PathBuf>,
}

impl Unread {
    /// `roots`: the folders the home's skills are walked from.
    pub fn new(home: &Home, env: &Env, roots: &[PathBuf]) -> Unread {
        let real = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
        Unread {
            home: real(&home.root),
            skills: real(&home.skills_dir),
            bundles: real(&home.bundles_dir(env)),
            roots: roots.iter().map(|r| real(r)).collect(),
        }
    }

    /// Whether no answer reads `path` (absolute, as the roots are written),
    /// which lies in no skill folder of either state (the caller knows).
    ///
    /// - Below a root the walk lists a path's folder: it enters no folder
    ///   with an excluded name (`.git`, `.github`, `.venv`, ...), and of a
    ///   file it reads only a `SKILL.md` and notes a `*.md` name (a
    ///   category's `DESCRIPTION.md`, a legacy `{name}.md` a lookup finds).
    ///   The skills folder also holds Hermes' bookkeeping, read by name.
    /// - In the home outside the roots files are read by name
    ///   (`config.yaml`, `.env`, a skill's credential files), so only what
    ///   lies in a folder with an excluded name is left.
    /// - Nothing outside the home and the roots is read; a folder holding
    ///   either is.
    /// - A bundle or the settings of `check` are read wherever they lie.
    pub fn is_unread(&self, path: &Path, kind: PathKind) -> bool {
        let name = path.file_name().map(|n| n.as_encoded_bytes()).unwrap_or_default();
        let settings = crate::check::settings::FILE_NAMES.iter().any(|f| name == f.as_bytes());
        let holds_read = self.roots.iter().chain([&self.home, &self.bundles]).any(|r| r.starts_with(path));
        if settings || holds_read || path.starts_with(&self.bundles) {
            return false;
        }
        if let Ok(rel) = path.strip_prefix(&self.skills) {
            if rel.starts_with(".hub") || crate::reload::is_bookkeeping(rel) {
                return false;
            }
        }
        let excluded_below = |top: &Path| path.strip_prefix(top).is_ok_and(has_excluded_folder);
        // The nearest folder holding the path decides: a root inside the
        // home (the skills folder), or the home inside a root.
        let nearest =
            self.roots.iter().chain([&self.home]).filter(|r| path.starts_with(r)).max_by_key(|r| r.as_os_str().len());
        match nearest {
            None => true,
            Some(home) if *home == self.home => excluded_below(home),
            Some(root) => excluded_below(root) || (kind == PathKind::File && !name.ends_with(b".md")),
        }
    }
}

/// Whether a folder on the way to `rel` (or `rel` itself) has a name no
/// walk enters.
fn has_excluded_folder(rel: &Path) -> bool {
    rel.components().any(|c| matches!(c, Component::Normal(n) if n.to_str().is_some_and(is_excluded_name)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::env::Os;

    fn unread() -> (tempfile::TempDir, Unread) {
        let dir = tempfile::tempdir().expect("tempdir");
        let top = dir.path().canonicalize().expect("real");
        let home_root = top.join("home");
        for d in ["home/skills/ops/deploy", "shared"] {
            std::fs::create_dir_all(top.join(d)).expect("mkdir");
        }
        let env = Env::with_vars([("HOME", "/nonexistent")], Os::Linux);
        let home = Home::load(home_root.clone(), &env);
        let roots = vec![home_root.join("skills"), top.join("shared")];
        let unread = Unread::new(&home, &env, &roots);
        (dir, unread)
    }

    #[test]
    fn what_the_walk_and_the_home_read_is_read() {
        let (dir, u) = unread();
        let top = dir.path().canonicalize().expect("real");
        let read = [
            ("home/config.yaml", PathKind::File),
            ("home/.env", PathKind::File),
            ("home/google_token.json", PathKind::File),
            ("home/notes.txt", PathKind::File),
            ("home/skill-bundles/release.yaml", PathKind::File),
            ("home/skills/.usage.json", PathKind::File),
            ("home/skills/.hub/lock.json", PathKind::File),
            ("home/skills/.archive/old/SKILL.md", PathKind::File),
            ("home/skills/ops/DESCRIPTION.md", PathKind::File),
            ("home/skills/ops/legacy.md", PathKind::File),
            ("home/skills/ops/SKILL.md", PathKind::File),
            ("home/skills/ops/new", PathKind::Other),
            ("home/skills/ops/link", PathKind::Other),
            ("home/skills", PathKind::Other),
            ("home", PathKind::Other),
            ("shared/skillscope.toml", PathKind::File),
            ("skillscope.toml", PathKind::File),
            ("", PathKind::Other),
        ];
        for (rel, kind) in read {
            assert!(!u.is_unread(&top.join(rel), kind), "{rel}");
        }
    }

    #[test]
    fn a_root_holding_the_home_leaves_the_home_read_by_name() {
        let (dir, u) = unread();
        let top = dir.path().canonicalize().expect("real");
        let u = Unread { roots: vec![top.clone()], ..u };
        assert!(!u.is_unread(&top.join("home/notes.txt"), PathKind::File));
        assert!(!u.is_unread(&top.join("home/config.yaml"), PathKind::File));
        assert!(u.is_unread(&top.join("LICENSE"), PathKind::File));
    }

    #[test]
    fn what_nothing_reads_is_not_read() {
        let (dir, u) = unread();
        let top = dir.path().canonicalize().expect("real");
        let unread = [
            ("home/skills/ops/notes.txt", PathKind::File),
            ("home/skills/.DS_Store", PathKind::File),
            ("home/skills/ops/.venv", PathKind::Other),
            ("home/skills/node_modules/x/SKILL.md", PathKind::File),
            ("home/.github/workflows/ci.yml", PathKind::File),
            ("home/.git/config", PathKind::File),
            ("shared/LICENSE", PathKind::File),
            ("shared/.github/PULL_REQUEST_TEMPLATE.md", PathKind::File),
            ("README.md", PathKind::File),
            (".venv", PathKind::Other),
        ];
        for (rel, kind) in unread {
            assert!(u.is_unread(&top.join(rel), kind), "{rel}");
        }
    }
}
