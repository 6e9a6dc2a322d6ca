//! A state of a home that differs from a walked one only inside some skill
//! folders: the folders that differ were written elsewhere (a revision's
//! files, from git's objects) and every other file is read where it is.
//! Its catalog names each skill where its files are, so a skill taken from
//! the walked state keeps its own path and one that differs names the
//! written copy; [`Overlay::shown`] gives the path the user knows.

use crate::paths;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Which folders differ, and where their other version was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Overlay {
    /// The folder both trees stand for (a repository's top).
    pub real_top: PathBuf,
    /// Where the differing folders were written, as below `real_top`.
    pub written_top: PathBuf,
    /// The folders that differ, relative to the tops, `/`-separated: every
    /// file at or below one is read from the written copy.
    pub regions: BTreeSet<String>,
}

impl Overlay {
    /// Whether `real` (a path below the real top) lies in a folder that
    /// differs.
    pub fn covers(&self, real: &Path) -> bool {
        let Some(rel) = paths::strip_prefix(real, &self.real_top) else { return false };
        let rel = paths::rel_string(rel);
        paths::lies_in(&rel, |folder| self.regions.contains(folder))
    }

    /// Where the file the user knows as `real` is read from.
    pub fn actual(&self, real: &Path) -> PathBuf {
        match self.covers(real) {
            true => self.actual_root(real),
            false => real.to_path_buf(),
        }
    }

    /// The path the user knows for `actual` (a written copy's file, or a
    /// file read where it is).
    pub fn shown(&self, actual: &Path) -> PathBuf {
        match paths::strip_prefix(actual, &self.written_top) {
            Some(rel) if rel.as_os_str().is_empty() => self.real_top.clone(),
            Some(rel) => self.real_top.join(rel),
            None => actual.to_path_buf(),
        }
    }

    /// Where the written copy of the folder `real` is (whether or not it
    /// was written).
    pub fn actual_root(&self, real: &Path) -> PathBuf {
        match paths::strip_prefix(real, &self.real_top) {
            Some(rel) => self.written_top.join(rel),
            None => real.to_path_buf(),
        }
    }

    /// Whether `actual` was read from the written copy.
    pub fn is_written(&self, actual: &Path) -> bool {
        actual.starts_with(&self.written_top)
    }
}

impl crate::Engine {
    /// This engine with its roots (the skills dir, the external dirs) below
    /// the real top moved to their copies in the overlay's written folder,
    /// the rest of the home (config, `.env`, bundles) and the roots
    /// elsewhere where they are: the engine that walks the folders that
    /// differ.
    pub fn with_roots_in(&self, overlay: &Overlay) -> crate::Engine {
        let mut home = self.home.clone();
        home.skills_dir = overlay.actual_root(&self.home.skills_dir);
        home.external_dirs = self.home.external_dirs.iter().map(|d| overlay.actual_root(d)).collect();
        crate::Engine { home, env: self.env.clone(), options: self.options.clone() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn overlay() -> Overlay {
        Overlay {
            real_top: "/repo".into(),
            written_top: "/tmp/w".into(),
            regions: ["skills/a/b".to_owned(), "skills/c".to_owned()].into(),
        }
    }

    #[test]
    fn a_region_covers_itself_and_what_is_below_it_only() {
        let o = overlay();
        for covered in ["/repo/skills/a/b", "/repo/skills/a/b/SKILL.md", "/repo/skills/c/x/y.md"] {
            assert!(o.covers(Path::new(covered)), "{covered}");
        }
        for not in ["/repo/skills/a", "/repo/skills/a/bc/SKILL.md", "/repo/skills/cc", "/elsewhere/skills/c", "/repo"] {
            assert!(!o.covers(Path::new(not)), "{not}");
        }
        // Written otherwise, the same folders.
        for covered in ["/repo/skills//a/b", "/repo/skills/./c/", "/repo/skills/a/b/"] {
            assert!(o.covers(Path::new(covered)), "{covered}");
        }
        assert!(!o.covers(Path::new("/repo/skills//a/")));
    }

    #[test]
    fn paths_map_both_ways() {
        let o = overlay();
        let real = Path::new("/repo/skills/c/SKILL.md");
        assert_eq!(o.actual(real), Path::new("/tmp/w/skills/c/SKILL.md"));
        assert_eq!(o.shown(&o.actual(real)), real);
        let kept = Path::new("/repo/skills/d/SKILL.md");
        assert_eq!(o.actual(kept), kept);
        assert_eq!(o.shown(kept), kept);
        assert_eq!(o.shown(Path::new("/tmp/w")), Path::new("/repo"));
        assert!(o.is_written(Path::new("/tmp/w/skills/c")) && !o.is_written(kept));
    }
}
