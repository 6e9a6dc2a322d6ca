//! Where a home's files lie that no answer reads: a change there (an
//! untracked `.DS_Store`, a `.venv`, a CI workflow, a licence) leaves every
//! answer as it was, so a state that differs from a walked one only there
//! and inside some skill folders is still that walk with those folders
//! overlaid ([`crate::overlay`]), not a tree to write and walk whole.

use crate::discover::is_excluded_name;
use crate::env::Env;
use crate::home::Home;
use std::collections::HashSet;
use std::path::{Component, Path, PathBuf};

/// What a changed path is on disk, as far as it matters here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PathKind {
    /// A regular file.
    File,
    /// A regular file in both states: only its content differs.
    Rewritten,
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
    /// The roots as the caller wrote them (skill folders are named below
    /// them).
    given_roots: Vec<PathBuf>,
    /// The names the answers look skills up by, when known
    /// ([`Unread::knowing_lookups`]).
    lookups: Option<HashSet<String>>,
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
            given_roots: roots.to_vec(),
            lookups: None,
        }
    }

    /// Knowing every name the answers look a skill up by: each skill
    /// folder (of either state) below its root, as its slash command loads
    /// it, and each bundle member. A lookup of `NAME` finds a legacy flat
    /// file `NAME.md` anywhere below a root (`rglob`), or the name with
    /// its suffix replaced (`with_suffix`); a `*.md` file no name can find
    /// that way is read by no answer. A name that is a pattern, or the
    /// root itself, could find any: then every `*.md` file is read.
    pub fn knowing_lookups<'p>(
        mut self,
        skill_dirs: impl IntoIterator<Item = &'p Path>,
        members: impl IntoIterator<Item = &'p str>,
    ) -> Unread {
        let mut names = HashSet::new();
        for dir in skill_dirs {
            // A lookup names the folder below the first root holding it:
            // below each, to be sure.
            for rel in self.given_roots.iter().chain(&self.roots).filter_map(|r| dir.strip_prefix(r).ok()) {
                names.insert(crate::paths::rel_string(rel));
            }
            if let Some(folder) = dir.file_name() {
                names.insert(folder.to_string_lossy().into_owned());
            }
        }
        for member in members {
            let member = member.trim().trim_end_matches('/');
            names.insert(member.to_owned());
            // `namespace:name` is also looked up as `namespace/name`.
            if let Some((namespace, bare)) = member.split_once(':') {
                names.insert(format!("{namespace}/{bare}"));
            }
        }
        let mut with_stems = HashSet::with_capacity(names.len());
        for name in names {
            if name.is_empty() || name == "." || crate::paths::has_magic(&name) {
                return self;
            }
            let last = name.rsplit('/').next().unwrap_or(&name);
            // `Path.with_suffix`: a dot past the first character ends the stem.
            if let Some(at) = last.rfind('.').filter(|&at| at > 0) {
                with_stems.insert(format!("{}{}", &name[..name.len() - last.len()], &last[..at]));
            }
            with_stems.insert(name);
        }
        self.lookups = Some(with_stems);
        self
    }

    /// Whether no answer reads the `*.md` file `rel` (below a root, in no
    /// skill folder; `excluded`: below a folder the walk does not enter).
    /// A lookup finds it as a legacy flat file when a name it looks up is
    /// the path's end without `.md`, and a `SKILL.md` the walk passes over
    /// when a name is its folder; the walk reads a category's
    /// `DESCRIPTION.md`.
    fn no_lookup_finds(&self, rel: &Path, excluded: bool) -> bool {
        let Some(lookups) = &self.lookups else { return false };
        let Some(rel) = rel.to_str() else { return false };
        let Some(stem) = rel.strip_suffix(".md").filter(|s| !s.is_empty() && !s.ends_with('/')) else { return false };
        match rel.rsplit('/').next() {
            Some("SKILL.md") => return excluded && !lookups.contains(stem.strip_suffix("/SKILL").unwrap_or("")),
            Some("DESCRIPTION.md") if !excluded => return false,
            _ => {}
        }
        let ends = std::iter::once(stem).chain(stem.match_indices('/').map(|(at, _)| &stem[at + 1..]));
        !ends.into_iter().any(|end| lookups.contains(end))
    }

    /// Whether no answer reads `path` (absolute, as the roots are written),
    /// which lies in no skill folder of either state (the caller knows).
    ///
    /// - Below a root the walk lists a path's folder: it enters no folder
    ///   with an excluded name (`.git`, `.github`, `.venv`, ...), and of a
    ///   file it reads only a `SKILL.md` and notes a `*.md` name (a
    ///   category's `DESCRIPTION.md`, a legacy `{name}.md` a lookup finds:
    ///   [`Unread::knowing_lookups`] tells which).
    ///   The skills folder also holds Hermes' bookkeeping, read by name.
    /// - In the home outside the roots files are read by name: the content
    ///   of a few ([`read_in_home`]), and whether a skill's credential file
    ///   is there (any name). So what is left is what lies in a folder with
    ///   an excluded name, and a file of any other name — added, removed or
    ///   rewritten — unless a skill names it as a credential file, which the
    ///   caller checks once the skills are known
    ///   ([`crate::readiness::credential_file_names`]; a file beside the
    ///   skill folders below a root may be one too).
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
        // The nearest folder holding the path decides: a root inside the
        // home (the skills folder), or the home; a root holding the home
        // walks there too, and must leave the path aside as well.
        let nearest =
            self.roots.iter().chain([&self.home]).filter(|r| path.starts_with(r)).max_by_key(|r| r.as_os_str().len());
        match nearest {
            None => true,
            Some(home) if *home == self.home => {
                let Ok(rel) = path.strip_prefix(home) else { return false };
                let a_file = matches!(kind, PathKind::File | PathKind::Rewritten);
                let by_existence = a_file && !read_in_home(rel) && !steers_git(rel);
                let home_leaves_it = has_excluded_folder(rel) || by_existence;
                let mut holding = self.roots.iter().filter(|r| path.starts_with(r));
                home_leaves_it && holding.all(|root| self.walk_leaves(root, path, kind))
            }
            Some(root) => self.walk_leaves(root, path, kind),
        }
    }

    /// Whether the walk of `root` (and the lookups below it) leave `path`
    /// unread.
    fn walk_leaves(&self, root: &Path, path: &Path, kind: PathKind) -> bool {
        let Ok(rel) = path.strip_prefix(root) else { return false };
        let excluded = has_excluded_folder(rel);
        // A folder (one git names whole) is looked into, whatever its name.
        let folder = kind == PathKind::Other && path.is_dir();
        // A lookup's `rglob` enters every folder, excluded or not.
        if rel.as_os_str().as_encoded_bytes().ends_with(b".md") && !folder {
            return self.no_lookup_finds(rel, excluded);
        }
        match kind {
            PathKind::File | PathKind::Rewritten => true,
            PathKind::Other => excluded && !folder,
        }
    }
}

/// Whether the file at `rel` in a home is one whose content an answer
/// reads: `config.yaml` and `.env` (at any depth: a managed config may lie
/// in the home), the prompt's snapshot, and the curator's jobs (for the
/// lifecycle).
fn read_in_home(rel: &Path) -> bool {
    let by_name = rel.file_name().is_some_and(|n| n == "config.yaml" || n == ".env");
    let at = [Path::new(crate::prompt::snapshot::SNAPSHOT_FILE), Path::new("cron/jobs.json")];
    by_name || at.contains(&rel)
}

/// Whether the file tells git what to ignore or where a submodule is, which
/// decides what the comparison's states hold besides the answers.
fn steers_git(rel: &Path) -> bool {
    rel.file_name().is_some_and(|n| n == ".gitignore" || n == ".gitmodules" || n == ".gitattributes")
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
        for d in ["home/skills/ops/deploy", "home/skills/node_modules/pkg", "home/skills/drafts.md", "shared"] {
            std::fs::create_dir_all(top.join(d)).expect("mkdir");
        }
        let env = Env::with_vars([("HOME", "/nonexistent")], Os::Linux);
        let home = Home::load(home_root.clone(), &env);
        let roots = vec![home_root.join("skills"), top.join("shared")];
        let skill = home_root.join("skills/ops/deploy");
        let unread = Unread::new(&home, &env, &roots).knowing_lookups([skill.as_path()], ["legacy", "team:review"]);
        (dir, unread)
    }

    #[test]
    fn what_the_walk_and_the_home_read_is_read() {
        let (dir, u) = unread();
        let top = dir.path().canonicalize().expect("real");
        let read = [
            ("home/config.yaml", PathKind::File),
            ("home/.env", PathKind::File),
            ("home/notes", PathKind::Other),
            ("home/skill-bundles/release.yaml", PathKind::File),
            ("home/skills/.usage.json", PathKind::File),
            ("home/skills/.hub/lock.json", PathKind::File),
            ("home/skills/.archive/old/SKILL.md", PathKind::File),
            ("home/skills/ops/DESCRIPTION.md", PathKind::File),
            ("home/skills/ops/legacy.md", PathKind::File),
            // A lookup's `rglob` finds flat files wherever they lie.
            ("home/skills/tools/.venv/deploy.md", PathKind::File),
            ("home/skills/other/ops/deploy.md", PathKind::File),
            ("shared/team/review.md", PathKind::File),
            ("home/skills/node_modules/pkg", PathKind::Other),
            // A folder is looked into, though its name ends in `.md`.
            ("home/skills/drafts.md", PathKind::Other),
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
    fn a_file_in_the_home_is_read_only_by_its_name() {
        let (dir, u) = unread();
        let top = dir.path().canonicalize().expect("real");
        for rel in ["home/README.md", "home/notes.txt", "home/docs/guide.md", "home/google_token.json"] {
            assert!(u.is_unread(&top.join(rel), PathKind::Rewritten), "{rel}");
            // Added or removed, it may be a skill's credential file: the
            // caller checks the names the skills give.
            assert!(u.is_unread(&top.join(rel), PathKind::File), "{rel}");
            assert!(!u.is_unread(&top.join(rel), PathKind::Other), "{rel}");
        }
        for rel in [
            "home/config.yaml",
            "home/managed/config.yaml",
            "home/.env",
            "home/.skills_prompt_snapshot.json",
            "home/cron/jobs.json",
            "home/.gitignore",
            "home/docs/.gitignore",
            "home/.gitmodules",
            "home/skill-bundles/release.yaml",
            "home/skillscope.toml",
            "home/skills/.usage.json",
        ] {
            assert!(!u.is_unread(&top.join(rel), PathKind::Rewritten), "{rel}");
            assert!(!u.is_unread(&top.join(rel), PathKind::File), "{rel}");
        }
        // Below a root, the walk's rules: a markdown file a lookup finds is read.
        assert!(!u.is_unread(&top.join("home/skills/ops/legacy.md"), PathKind::Rewritten));
        assert!(u.is_unread(&top.join("home/skills/ops/notes.txt"), PathKind::Rewritten));
    }

    #[test]
    fn a_root_holding_the_home_leaves_the_home_read_by_name() {
        let (dir, u) = unread();
        let top = dir.path().canonicalize().expect("real");
        let u = Unread { roots: vec![top.clone()], ..u };
        assert!(u.is_unread(&top.join("home/notes.txt"), PathKind::File));
        assert!(!u.is_unread(&top.join("home/config.yaml"), PathKind::File));
        assert!(u.is_unread(&top.join("LICENSE"), PathKind::File));
        // The root's walk reads a category's description and lookups find
        // `{name}.md` there, even where the home alone would not read them.
        assert!(u.is_unread(&top.join("home/notes.txt"), PathKind::Rewritten));
        assert!(!u.is_unread(&top.join("home/notes/DESCRIPTION.md"), PathKind::Rewritten));
        assert!(!u.is_unread(&top.join("home/.github/legacy.md"), PathKind::File));
        assert!(u.is_unread(&top.join("home/.github/ci.yml"), PathKind::File));
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
            // Markdown no lookup names.
            ("home/skills/README.md", PathKind::File),
            ("home/skills/ops/deploy-old.md", PathKind::File),
            ("shared/NOTES.md", PathKind::File),
            ("home/skills/tools/.venv/DESCRIPTION.md", PathKind::File),
        ];
        for (rel, kind) in unread {
            assert!(u.is_unread(&top.join(rel), kind), "{rel}");
        }
    }

    #[test]
    fn markdown_is_read_when_a_lookup_may_find_it() {
        let (dir, u) = unread();
        let top = dir.path().canonicalize().expect("real");
        let env = Env::with_vars([("HOME", "/nonexistent")], Os::Linux);
        let home = Home::load(top.join("home"), &env);
        let roots = [top.join("home/skills")];
        let todo = top.join("home/skills/ops/todo.md");
        assert!(u.is_unread(&todo, PathKind::File));
        // Not knowing the lookups, or knowing one that is a pattern (or the
        // root itself), every `*.md` may be found.
        assert!(!Unread::new(&home, &env, &roots).is_unread(&todo, PathKind::File));
        let patterned = Unread::new(&home, &env, &roots).knowing_lookups([], ["dep*"]);
        assert!(!patterned.is_unread(&todo, PathKind::File));
        let at_root = Unread::new(&home, &env, &roots).knowing_lookups([roots[0].as_path()], []);
        assert!(!at_root.is_unread(&todo, PathKind::File));
        // `with_suffix`: a member `lint.v2` that is no folder finds `lint.md`.
        let suffixed = Unread::new(&home, &env, &roots).knowing_lookups([], ["lint.v2"]);
        assert!(!suffixed.is_unread(&top.join("home/skills/lint.md"), PathKind::File));
        assert!(suffixed.is_unread(&todo, PathKind::File));
    }
}
