//! What every surface answers from: one home (an [`Engine`]) and, when one
//! was made, its prepared index (a [`Catalog`] of the same home), with the
//! name lookups Hermes' `skill_view` makes, built once on first need (from
//! the catalog's skills when there is one, else from the disk). A surface
//! is one function over a context; there are no variants "with an index".

use crate::bundles::BundleSet;
use crate::catalog::Catalog;
use crate::commands::SkillCommand;
use crate::discover;
use crate::frontmatter;
use crate::paths;
use crate::py::PyError;
use crate::Engine;
use indexmap::IndexMap;
use std::collections::{HashMap, HashSet};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

/// A home, its prepared index if any, and what lookups in it have learnt.
pub struct Context<'a> {
    pub engine: &'a Engine,
    /// The prepared index: a catalog of this home.
    pub catalog: Option<&'a Catalog>,
    /// Names that include every `*.md` name below the roots, when a walk
    /// saw them: a legacy `{name}.md` lookup of another name walks nothing.
    md_names: Option<Arc<HashSet<OsString>>>,
    lookup: OnceLock<LookupIndex>,
    /// The bundles, when read here (a catalog has its own).
    bundles: OnceLock<BundleSet>,
    /// `skill_view`'s not-found answer's `available_skills`, once computed.
    pub(crate) available: OnceLock<Result<Vec<String>, PyError>>,
    /// `scan_skill_commands()`, once computed.
    commands: OnceLock<IndexMap<String, SkillCommand>>,
}

impl<'a> Context<'a> {
    /// The home alone: lookups read the disk.
    pub fn new(engine: &'a Engine) -> Context<'a> {
        Context {
            engine,
            catalog: None,
            md_names: None,
            lookup: OnceLock::new(),
            bundles: OnceLock::new(),
            available: OnceLock::new(),
            commands: OnceLock::new(),
        }
    }

    /// The home with a catalog of it made already: lookups take its skills
    /// and names, and read no file again.
    pub fn prepared(engine: &'a Engine, catalog: &'a Catalog) -> Context<'a> {
        Context { catalog: Some(catalog), ..Context::new(engine) }
    }

    /// The context, knowing every `*.md` name below the roots.
    pub fn knowing_md_names(mut self, names: Arc<HashSet<OsString>>) -> Context<'a> {
        self.md_names = Some(names);
        self
    }

    /// The home's bundles (`get_skill_bundles()`): the catalog's, else read
    /// once.
    pub fn bundles(&self) -> &BundleSet {
        match self.catalog {
            Some(catalog) => &catalog.bundles,
            None => self.bundles.get_or_init(|| self.engine.bundles()),
        }
    }

    /// The slash command `key` runs: the catalog's (one entry made, not the
    /// whole table), else from [`Context::commands`].
    pub fn command(&self, key: &str) -> Option<std::borrow::Cow<'_, SkillCommand>> {
        match self.catalog {
            Some(catalog) => catalog.command(key).map(std::borrow::Cow::Owned),
            None => self.commands().get(key).map(std::borrow::Cow::Borrowed),
        }
    }

    /// The slash commands (`scan_skill_commands()`): the catalog's, else
    /// scanned once.
    pub fn commands(&self) -> &IndexMap<String, SkillCommand> {
        self.commands.get_or_init(|| match self.catalog {
            Some(catalog) => catalog.skill_commands(),
            None => self.engine.skill_commands(),
        })
    }

    /// The name lookups' index, built on first need.
    pub fn lookup(&self) -> &LookupIndex {
        self.lookup.get_or_init(|| self.build_lookup())
    }

    fn build_lookup(&self) -> LookupIndex {
        let (engine, catalog, md_names) = (self.engine, self.catalog, &self.md_names);
        let dirs = engine
            .home
            .scan_dirs()
            .into_iter()
            .map(|root| {
                let scanned = catalog.and_then(|c| c.roots.iter().position(|r| r.path == root).map(|i| (c, i)));
                let skills = match scanned {
                    Some((catalog, ri)) => catalog
                        .skills
                        .iter()
                        .filter(|s| s.root == ri && s.db_row.is_none())
                        .map(|s| (s.skill_md.clone(), s.frontmatter_name().map(str::to_owned)))
                        .collect(),
                    None => {
                        discover::index_read_map(&root, "SKILL.md", &|f| {
                            let name = f
                                .with_text(|t| frontmatter::parse_selected(t, &["name"]).0.fields.get("name").cloned())
                                .flatten()
                                .and_then(|v| v.as_str().map(str::to_owned));
                            (f.path, name)
                        })
                        .0
                    }
                };
                let mut dir = DirLookup::new(root, skills, md_names.clone());
                // In an overlaid catalog, the folders that differ are looked
                // up in their written copy.
                let overlay = catalog.and_then(|c| c.overlay.clone()).filter(|o| dir.root.starts_with(&o.real_top));
                if let Some(overlay) = overlay {
                    let written = DirLookup::new(overlay.actual_root(&dir.root), Vec::new(), None);
                    dir.overlay = Some((overlay, Box::new(written)));
                }
                dir
            })
            .collect();
        LookupIndex { dirs }
    }

    /// Every SKILL.md (or legacy `.md`) that `name` could mean, across all
    /// roots, in Hermes' order.
    pub fn candidates(&self, name: &str, category_name: Option<&str>) -> Vec<Found> {
        self.candidates_raising(name, category_name).0
    }

    /// [`Context::candidates`], and the error the first of its direct
    /// probes that fails otherwise than on a missing path raises, as
    /// `skill_view` answers it: Python's `is_dir()` and `exists()` raise then
    /// (a name longer than the file system takes).
    pub fn candidates_raising(&self, name: &str, category_name: Option<&str>) -> (Vec<Found>, Option<String>) {
        let index = self.lookup();
        let mut raised: Option<String> = None;
        // A failed probe reads as a missing path; the first one's error is kept.
        let mut probe = |answer: std::io::Result<bool>, shown: &Path| {
            answer.unwrap_or_else(|e| {
                raised.get_or_insert_with(|| crate::source::os_error_message(&e, shown));
                false
            })
        };
        // Hermes keeps the first of each resolved path. The same path
        // written the same way is one; resolving (a syscall per component)
        // is left for when different paths remain.
        let mut candidates: Vec<Found> = Vec::new();
        let mut record = |skill_dir: Option<PathBuf>, skill_md: PathBuf| {
            if !candidates.iter().any(|c| c.skill_md == skill_md) {
                candidates.push(Found { skill_dir, skill_md });
            }
        };
        for dir in &index.dirs {
            let search_dir = &dir.root;
            for rel in std::iter::once(name).chain(category_name) {
                let direct = paths::join(search_dir, rel);
                let flat = paths::with_md_suffix(&direct);
                let (at, flat_at) = (dir.actual(&direct), dir.actual(&flat));
                if !discover::is_support_path(&direct)
                    && probe(paths::py_is_dir(&at), &direct)
                    && probe(paths::py_exists(&at.join("SKILL.md")), &direct.join("SKILL.md"))
                {
                    record(Some(at.clone()), at.join("SKILL.md"));
                } else if probe(paths::py_exists(&flat_at), &flat) && !discover::is_support_path(&flat) {
                    record(None, flat_at);
                } else if let Some(&i) = dir.unshowable.get(rel.trim_end_matches('/')) {
                    let path = &dir.skills[i].0;
                    record(path.parent().map(Path::to_path_buf), path.clone());
                }
            }
            for &i in dir.by_name.get(name).into_iter().flatten() {
                let path = &dir.skills[i].0;
                let parent = path.parent().map(Path::to_path_buf).unwrap_or_default();
                record(Some(parent), path.clone());
            }
            // Legacy flat files: `{name}.md` below the root, never a SKILL.md.
            let flat_name = format!("{name}.md");
            if flat_name.rsplit('/').next() == Some("SKILL.md") {
                continue;
            }
            for found in dir.rglob_name(&flat_name) {
                if found.file_name().is_some_and(|n| n != "SKILL.md") && !discover::is_support_path(&found) {
                    record(None, found);
                }
            }
        }
        if candidates.len() > 1 {
            let mut seen: HashSet<PathBuf> = HashSet::new();
            candidates.retain(|c| seen.insert(paths::resolve(&c.skill_md)));
        }
        (candidates, raised)
    }
}

/// The files name lookups consult, read once for many lookups.
pub struct LookupIndex {
    dirs: Vec<DirLookup>,
}

struct DirLookup {
    root: PathBuf,
    /// Each indexed SKILL.md and its frontmatter `name` when a string.
    skills: Vec<(PathBuf, Option<String>)>,
    /// The skills a name finds (folder name or frontmatter name), in
    /// index order: a lookup is one map access, not a pass over them all.
    by_name: HashMap<String, Vec<usize>>,
    /// Every `*.md` below the root by file name, in `rglob` order: the
    /// legacy `{name}.md` lookups. Walked on the first lookup that needs it.
    md_files: std::sync::OnceLock<HashMap<std::ffi::OsString, Vec<PathBuf>>>,
    /// Names that include every `*.md` name below the root that a lookup
    /// can find (those in a skill's support folders it never can), when a
    /// walk already saw them: a name not among them needs no walk.
    md_names: Option<std::sync::Arc<HashSet<std::ffi::OsString>>>,
    /// The name of every entry below the root (symlinked folders not
    /// entered): a pattern of several parts matches only under a folder
    /// holding its first part. Walked on the first lookup that needs it.
    /// Every entry below the root by name, in the order `rglob` walks.
    entries: std::sync::OnceLock<HashMap<std::ffi::OsString, Vec<PathBuf>>>,
    /// The overlay of an overlaid catalog, and the lookup of the root's
    /// written copy: files in the folders that differ are found there.
    overlay: Option<(Arc<crate::overlay::Overlay>, Box<DirLookup>)>,
    /// The skills whose folder (relative to the root) is not UTF-8, by
    /// that path as shown (U+FFFD for each byte that is not): a name from
    /// such a folder reaches it, as Python's escaped bytes reach the folder
    /// they came from. Usually empty.
    unshowable: HashMap<String, usize>,
}

impl DirLookup {
    fn new(
        root: PathBuf,
        skills: Vec<(PathBuf, Option<String>)>,
        md_names: Option<std::sync::Arc<HashSet<std::ffi::OsString>>>,
    ) -> DirLookup {
        let mut by_name: HashMap<String, Vec<usize>> = HashMap::with_capacity(skills.len());
        let mut unshowable = HashMap::new();
        for (i, (path, fm_name)) in skills.iter().enumerate() {
            let dir = path.parent();
            // Only a path that is not UTF-8 text can hold a folder name
            // shown lossily (most paths are text).
            if path.to_str().is_none() {
                let rel = dir.and_then(|dir| dir.strip_prefix(&root).ok());
                if let Some(rel) = rel.filter(|rel| rel.to_str().is_none()) {
                    unshowable.entry(paths::rel_string(rel)).or_insert(i);
                }
            }
            let dir_name = dir.and_then(Path::file_name).map(|n| n.to_string_lossy());
            if let Some(d) = &dir_name {
                by_name.entry(d.clone().into_owned()).or_default().push(i);
            }
            if let Some(n) = fm_name.as_ref().filter(|n| Some(n.as_str()) != dir_name.as_deref()) {
                by_name.entry(n.clone()).or_default().push(i);
            }
        }
        let (md_files, entries) = (std::sync::OnceLock::new(), std::sync::OnceLock::new());
        DirLookup { root, skills, by_name, md_files, md_names, entries, overlay: None, unshowable }
    }

    /// Where the file `path` names is read from.
    fn actual(&self, path: &Path) -> PathBuf {
        match &self.overlay {
            Some((overlay, _)) => overlay.actual(path),
            None => path.to_path_buf(),
        }
    }

    /// Whether no file below the root can be named `last`, by the names a
    /// walk noted (which hold every `*.md` file name but `SKILL.md`).
    fn surely_no_file_named(&self, last: &str) -> bool {
        let last = std::ffi::OsStr::new(last);
        discover::is_noted_md(last) && self.md_names.as_ref().is_some_and(|names| !names.contains(last))
    }

    /// `root.rglob(file_name)`: in an overlaid catalog, the root's files
    /// outside the folders that differ, then those of the written copy.
    fn rglob_name(&self, file_name: &str) -> Vec<PathBuf> {
        let mut found = self.rglob_here(file_name);
        if let Some((overlay, written)) = &self.overlay {
            found.retain(|p| !overlay.covers(p));
            found.extend(written.rglob_here(file_name));
        }
        found
    }

    fn rglob_here(&self, file_name: &str) -> Vec<PathBuf> {
        if !paths::has_magic(file_name) && file_name.contains('/') {
            // A skill named by its folder's path (as invocations name them)
            // asks for `…/folder.md`: when no file has that name, no walk.
            if file_name.rsplit('/').next().is_some_and(|last| self.surely_no_file_named(last)) {
                return Vec::new();
            }
            // `rglob("a/b.md")` matches `d/a/b.md` for folders `d` it walks,
            // each a real folder below the root holding an entry `a`: only
            // those are looked in. (An absolute skill folder, as invocations
            // name skills, is such a pattern: without this, every invocation
            // walked the tree.)
            let Some(first) = file_name.split('/').find(|c| !c.is_empty() && *c != ".") else {
                return paths::rglob(&self.root, file_name);
            };
            let entries = self.entries.get_or_init(|| paths::entries_by_name(&self.root, |_| true));
            let holders = entries.get(std::ffi::OsStr::new(first)).into_iter().flatten().filter_map(|a| a.parent());
            return paths::glob_in(holders, file_name);
        }
        if paths::has_magic(file_name) || !file_name.ends_with(".md") {
            return paths::rglob(&self.root, file_name);
        }
        if self.surely_no_file_named(file_name) {
            return Vec::new();
        }
        let name = std::ffi::OsStr::new(file_name);
        let md_files = self
            .md_files
            .get_or_init(|| paths::entries_by_name(&self.root, |n| n.as_encoded_bytes().ends_with(b".md")));
        md_files.get(name).into_iter().flatten().filter(|p| paths::exists(p)).cloned().collect()
    }
}

/// A skill a lookup found: its folder (`None` for a legacy flat file) and file.
#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    pub skill_dir: Option<PathBuf>,
    pub skill_md: PathBuf,
}
