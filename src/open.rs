//! What a path given as the home is, and how to show it as Hermes would.
//!
//! Authors mostly work in a repository of skills, not in a Hermes home. A
//! folder of skills (or one skill folder) is shown as Hermes sees it once
//! listed in `skills.external_dirs` of an otherwise empty home: skillscope
//! writes such a home (an empty `skills/` and that `config.yaml`) to a
//! temporary folder, removed on exit, and the engine reads it like any
//! other. The folder itself is never written.

use std::io;
use std::path::{Path, PathBuf};

/// What a folder is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FolderKind {
    /// A Hermes home: it has `skills/`, `config.yaml` or `skill-bundles/`,
    /// or nothing that looks like skills.
    Home,
    /// A folder with `*/SKILL.md` below it (a repository of skills).
    Skills,
    /// One skill: a folder holding `SKILL.md`.
    Skill,
}

/// How deep the search for a `SKILL.md` below a folder goes.
const SEARCH_DEPTH: usize = 6;
/// How many folders the search reads at most before giving up.
const SEARCH_BUDGET: usize = 20_000;

/// Classifies `path` (which must be a readable directory).
pub fn classify(path: &Path) -> FolderKind {
    if has_home_marks(path) {
        FolderKind::Home
    } else if path.join("SKILL.md").is_file() {
        FolderKind::Skill
    } else if has_skill_below(path) {
        FolderKind::Skills
    } else {
        FolderKind::Home
    }
}

/// [`classify`] for a folder given as the paths of its files (a git
/// tree's, `/`-separated, relative to it): what a checkout of them would be.
pub fn classify_files<'a>(files: impl Iterator<Item = &'a str>) -> FolderKind {
    let (mut skill, mut skills) = (false, false);
    for file in files {
        let mut parts = file.split('/');
        let first = parts.next().unwrap_or_default();
        let below = file.len() > first.len();
        if (below && (first == "skills" || first == "skill-bundles")) || first == "config.yaml" {
            return FolderKind::Home;
        }
        skill |= file == "SKILL.md";
        // A `SKILL.md` in a subfolder at most SEARCH_DEPTH deep, none of
        // its folders one no walk enters ([`has_skill_below`]).
        if let Some(dir) = file.strip_suffix("/SKILL.md") {
            let folders: Vec<&str> = dir.split('/').collect();
            skills |= folders.len() <= SEARCH_DEPTH && folders.iter().all(|f| !passed_over(f));
        }
    }
    match (skill, skills) {
        (true, _) => FolderKind::Skill,
        (false, true) => FolderKind::Skills,
        (false, false) => FolderKind::Home,
    }
}

/// Whether `path` is a Hermes home by its marks, holds a `SKILL.md` or
/// has one below it: not a folder with nothing that looks like skills.
pub fn shows_skills(path: &Path) -> bool {
    has_home_marks(path) || path.join("SKILL.md").is_file() || has_skill_below(path)
}

/// Whether `path` is a skill's folder or has one below it (home marks
/// alone, such as a `config.yaml`, are not skills).
pub fn holds_skill_md(path: &Path) -> bool {
    path.join("SKILL.md").is_file() || has_skill_below(path)
}

fn has_home_marks(path: &Path) -> bool {
    ["skills", "skill-bundles"].iter().any(|d| path.join(d).is_dir()) || path.join("config.yaml").exists()
}

/// A folder the search for skills does not enter: one Hermes' walks do not
/// (`.git`, `.venv`, `node_modules`, ...), and a build's `target`. Other
/// hidden folders are entered, as Hermes' walks do (a repository whose
/// skills are all in `.curated/` is a folder of skills).
fn passed_over(name: &str) -> bool {
    name == "target" || crate::engine::discover::EXCLUDED_DIRS.contains(&name)
}

/// True when some `SKILL.md` lies in a subfolder (breadth first, bounded,
/// the folders [`passed_over`] skipped, symlinks not followed).
fn has_skill_below(root: &Path) -> bool {
    let mut queue = std::collections::VecDeque::from([(root.to_path_buf(), 0usize)]);
    let mut budget = SEARCH_BUDGET;
    while let Some((dir, depth)) = queue.pop_front() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for entry in entries.flatten() {
            let Ok(kind) = entry.file_type() else { continue };
            if !kind.is_dir() {
                continue;
            }
            if passed_over(&entry.file_name().to_string_lossy()) {
                continue;
            }
            let sub = entry.path();
            if sub.join("SKILL.md").is_file() {
                return true;
            }
            if depth + 1 < SEARCH_DEPTH && budget > 0 {
                budget -= 1;
                queue.push_back((sub, depth + 1));
            }
        }
    }
    false
}

/// An otherwise empty Hermes home listing one folder in
/// `skills.external_dirs`; removed when dropped.
pub struct StandInHome {
    dir: crate::scratch::ScratchDir,
    folder: PathBuf,
    kind: FolderKind,
}

impl StandInHome {
    pub fn create(folder: &Path, kind: FolderKind) -> io::Result<StandInHome> {
        let folder = folder.canonicalize()?;
        let text = folder.to_str().ok_or_else(|| {
            io::Error::new(io::ErrorKind::InvalidInput, format!("{}: not a UTF-8 path", folder.display()))
        })?;
        let dir = crate::scratch::ScratchDir::new("skillscope-home-")?;
        std::fs::create_dir(dir.path().join("skills"))?;
        // A single-quoted YAML scalar: only the quote itself needs escaping.
        let config = format!("skills:\n  external_dirs:\n    - '{}'\n", text.replace('\'', "''"));
        std::fs::write(dir.path().join("config.yaml"), config)?;
        Ok(StandInHome { dir, folder, kind })
    }

    /// The stand-in home to hand the engine.
    pub fn home(&self) -> PathBuf {
        self.dir.path().to_path_buf()
    }

    /// The folder shown through it.
    pub fn folder(&self) -> &Path {
        &self.folder
    }

    /// The line telling the user how the folder is shown.
    pub fn note(&self) -> String {
        let what = match self.kind {
            FolderKind::Skill => "a skill folder",
            _ => "a folder of skills",
        };
        format!(
            "{} is {what}, not a Hermes home: shown as Hermes sees it in skills.external_dirs of an otherwise empty home",
            self.folder.display()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skill(dir: &Path) {
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(dir.join("SKILL.md"), "---\nname: x\ndescription: y\n---\n").unwrap();
    }

    #[test]
    fn kinds_of_a_tree_are_those_of_its_checkout() {
        let t = tempfile::tempdir().unwrap();
        let cases: [&[&str]; 9] = [
            &["skills/tools/lint/SKILL.md", "other/x/SKILL.md"],
            &["config.yaml", "README.md"],
            &["tools/lint/SKILL.md", "README.md"],
            &["SKILL.md", "scripts/run.sh"],
            &["README.md", ".git/x/SKILL.md", "node_modules/y/SKILL.md", ".venv/z/SKILL.md"],
            &["README.md", ".curated/x/SKILL.md"],
            &["target/debug/x/SKILL.md"],
            &["a/b/c/d/e/f/SKILL.md"],
            &["a/b/c/d/e/f/g/SKILL.md"],
        ];
        for (i, files) in cases.iter().enumerate() {
            let dir = t.path().join(i.to_string());
            for file in *files {
                let path = dir.join(file);
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(&path, "---\nname: x\ndescription: y\n---\n").unwrap();
            }
            assert_eq!(classify_files(files.iter().copied()), classify(&dir), "{files:?}");
        }
        assert_eq!(classify_files(std::iter::empty()), FolderKind::Home);
    }

    #[test]
    fn kinds() {
        let t = tempfile::tempdir().unwrap();
        let home = t.path().join("home");
        std::fs::create_dir_all(home.join("skills")).unwrap();
        assert_eq!(classify(&home), FolderKind::Home);
        let repo = t.path().join("repo");
        skill(&repo.join("category/deploy"));
        assert_eq!(classify(&repo), FolderKind::Skills);
        assert_eq!(classify(&repo.join("category/deploy")), FolderKind::Skill);
        let empty = t.path().join("empty");
        std::fs::create_dir_all(empty.join(".git/x")).unwrap();
        skill(&empty.join(".git/x/hidden"));
        assert_eq!(classify(&empty), FolderKind::Home, "folders no walk enters are not searched");
        // Other hidden folders are, as Hermes' walks enter them.
        let curated = t.path().join("curated");
        skill(&curated.join(".curated/lint"));
        assert_eq!(classify(&curated), FolderKind::Skills);
        let configured = t.path().join("configured");
        skill(&configured.join("s"));
        std::fs::write(configured.join("config.yaml"), "").unwrap();
        assert_eq!(classify(&configured), FolderKind::Home);
    }

    #[test]
    fn stand_in_lists_the_folder_and_goes_away() {
        let t = tempfile::tempdir().unwrap();
        let repo = t.path().join("it's here");
        skill(&repo.join("deploy"));
        let stand_in = StandInHome::create(&repo, FolderKind::Skills).unwrap();
        let home = stand_in.home();
        assert!(home.join("skills").is_dir());
        let config = std::fs::read_to_string(home.join("config.yaml")).unwrap();
        assert!(config.contains("it''s here'"), "{config}");
        assert!(stand_in.note().contains("a folder of skills"));
        drop(stand_in);
        assert!(!home.exists());
    }
}
