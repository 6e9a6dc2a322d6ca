//! The SKILL.md walk (spec §4): excluded names, support dirs, symlinks.

use super::dirfd::{DirKey, DirReader, EntryKind};
use super::paths;
use super::source::{self, ReadError};
use std::ffi::{OsStr, OsString};
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

/// A directory the walk could not open or list, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnreadableDir {
    pub path: PathBuf,
    /// The system's answer (`Permission denied (os error 13)`), or why the
    /// walk stopped short.
    pub error: String,
    /// A symlinked folder the walk stopped entering
    /// ([`LINKED_FOLDERS_AT_MOST`]): listed in part, not unreadable.
    pub cut: bool,
}

impl UnreadableDir {
    fn new(path: &Path, error: &std::io::Error) -> UnreadableDir {
        UnreadableDir { path: path.to_path_buf(), error: error.to_string(), cut: false }
    }
}

/// Problems met during a walk that Hermes passes over silently.
#[derive(Debug, Clone, Default)]
pub struct WalkReport {
    /// Directories that could not be listed: Hermes' `os.walk` skips them
    /// without a word, and every skill inside with them.
    pub unreadable: Vec<UnreadableDir>,
    /// Symlinked directories not entered because they lead back to an ancestor.
    pub cycles: Vec<PathBuf>,
    /// Directories not entered because of their excluded name.
    pub excluded: Vec<PathBuf>,
    /// The names of the `*.md` files in the directories listed, when asked
    /// for ([`Walk::note_md_names`]); see [`is_noted_md`].
    pub md_names: Vec<OsString>,
    /// The `DESCRIPTION.md` files (category descriptions) in the
    /// directories listed, asked for with the names.
    pub descriptions: Vec<PathBuf>,
}

impl WalkReport {
    /// The reports of several walks as one.
    pub fn merged(reports: Vec<WalkReport>) -> WalkReport {
        let mut all = WalkReport::default();
        for mut r in reports {
            all.unreadable.append(&mut r.unreadable);
            all.cycles.append(&mut r.cycles);
            all.excluded.append(&mut r.excluded);
            all.md_names.append(&mut r.md_names);
            all.descriptions.append(&mut r.descriptions);
        }
        all
    }
}

/// A `*.md` name a legacy `{name}.md` lookup could keep: any but
/// `SKILL.md`, which such a lookup passes over.
pub fn is_noted_md(name: &OsStr) -> bool {
    name.as_encoded_bytes().ends_with(b".md") && name != "SKILL.md"
}

/// How a walk goes beyond finding its files.
#[derive(Debug, Clone, Copy, Default)]
pub struct Walk {
    /// Read each file found, relative to its open directory.
    pub read: bool,
    /// Note the name of every `*.md` file listed ([`WalkReport::md_names`]).
    pub note_md_names: bool,
    /// Give each file found its folder's `rglob("*")` ([`IndexedFile::tree`]),
    /// made from the listing in hand.
    pub tree: bool,
}

/// `iter_skill_index_files(root, filename)`: every `filename` under `root`,
/// following symlinks (each directory entered once per path, cycles cut),
/// sorted by the full path string.
pub fn index_files(root: &Path, filename: &str) -> Vec<PathBuf> {
    index_entries(root, filename).0.into_iter().map(|f| f.path).collect()
}

/// A file the walk found.
#[derive(Debug, Clone, PartialEq)]
pub struct IndexedFile {
    pub path: PathBuf,
    /// The listing showed a regular file (not a symlink, FIFO, ...).
    pub regular: bool,
    /// Its text, when the walk was asked to read the files it finds.
    pub text: Option<Result<String, ReadError>>,
    /// Its folder's `rglob("*")` ([`paths::rglob_all`]), when the walk was
    /// asked for it.
    pub tree: Option<Vec<paths::TreeFile>>,
}

impl IndexedFile {
    /// Its text, as `read_text` gives it (read now unless the walk did).
    pub fn read_text(&self) -> Result<String, ReadError> {
        match &self.text {
            Some(text) => text.clone(),
            None if self.regular => source::read_listed_regular_text(&self.path),
            None => source::read_text(&self.path),
        }
    }

    /// Runs `f` on its text without copying it; `None` when unreadable.
    pub fn with_text<R>(&self, f: impl FnOnce(&str) -> R) -> Option<R> {
        match &self.text {
            Some(Ok(text)) => Some(f(text)),
            Some(Err(_)) => None,
            None => self.read_text().ok().map(|t| f(&t)),
        }
    }

    /// Like [`IndexedFile::read_text`], moving the text out when it was read.
    pub fn take_text(&mut self) -> Result<String, ReadError> {
        match self.text.take() {
            Some(text) => text,
            None => self.read_text(),
        }
    }
}

static FOLDERS_LISTED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// How many folders one walk lists through symlinked folders (at or below
/// one) before it enters no more of them. Hermes follows symlinks with no
/// such bound: a link to `/`, `/sys` or `/proc` has it walk the machine,
/// and links that fan out (as `/sys`'s do) lead to the same folders by
/// ever more paths, without end in practice.
pub const LINKED_FOLDERS_AT_MOST: usize = 100_000;

/// The number of folders the skill walks listed so far in this process.
pub fn folders_listed() -> usize {
    FOLDERS_LISTED.load(std::sync::atomic::Ordering::Relaxed)
}

pub fn index_files_with_report(root: &Path, filename: &str) -> (Vec<PathBuf>, WalkReport) {
    let (files, report) = index_entries(root, filename);
    (files.into_iter().map(|f| f.path).collect(), report)
}

/// [`index_files`] with what the listing knew about each file, and a report.
pub fn index_entries(root: &Path, filename: &str) -> (Vec<IndexedFile>, WalkReport) {
    walk_root(root, filename, Walk::default(), &|f| f)
}

/// [`index_entries`] that also reads each file found, relative to its open
/// directory: the cheapest way to scan every SKILL.md of a large home.
pub fn index_and_read(root: &Path, filename: &str) -> (Vec<IndexedFile>, WalkReport) {
    walk_root(root, filename, Walk { read: true, ..Walk::default() }, &|f| f)
}

/// Reads every `filename` under `root` and maps it with `map` on the walking
/// threads, while the text is fresh; results in index order.
pub fn index_read_map<T: Send>(
    root: &Path,
    filename: &str,
    map: &(dyn Fn(IndexedFile) -> T + Sync),
) -> (Vec<T>, WalkReport) {
    walk_map(root, filename, Walk { read: true, ..Walk::default() }, map)
}

/// Every `filename` under `root`, mapped with `map` on the walking threads;
/// results in index order.
fn walk_map<T: Send>(
    root: &Path,
    filename: &str,
    how: Walk,
    map: &(dyn Fn(IndexedFile) -> T + Sync),
) -> (Vec<T>, WalkReport) {
    let (found, report) = walk_root(root, filename, how, &|f| (f.path.clone(), map(f)));
    (found.into_iter().map(|(_, t)| t).collect(), report)
}

/// Something the walk collects, ordered by its file's path.
pub(crate) trait Found {
    fn path(&self) -> &Path;
}

impl Found for IndexedFile {
    fn path(&self) -> &Path {
        &self.path
    }
}

impl<T> Found for (PathBuf, T) {
    fn path(&self) -> &Path {
        &self.0
    }
}

/// [`walk_map`] for results that know their file's path: they are sorted
/// in place, never copied into a second list (they can be large).
pub(crate) fn walk_found<T: Found + Send>(
    root: &Path,
    filename: &str,
    how: Walk,
    map: &(dyn Fn(IndexedFile) -> T + Sync),
) -> (Vec<T>, WalkReport) {
    walk_root(root, filename, how, map)
}

fn walk_root<T: Found + Send>(
    root: &Path,
    filename: &str,
    how: Walk,
    map: &(dyn Fn(IndexedFile) -> T + Sync),
) -> (Vec<T>, WalkReport) {
    let (mut reader, root_key) = match DirReader::open(root) {
        Ok(opened) => opened,
        // A root that does not exist is no problem (Hermes lists nothing);
        // one that exists and cannot be opened is.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return (Vec::new(), WalkReport::default()),
        Err(e) => {
            let report = WalkReport { unreadable: vec![UnreadableDir::new(root, &e)], ..WalkReport::default() };
            return (Vec::new(), report);
        }
    };
    let linked = std::sync::atomic::AtomicUsize::new(0);
    let mut top = Walker::new(filename, how, map, vec![root_key], &linked);
    let Some(listing) = top.list(&mut reader, root, root_key) else {
        return (Vec::new(), top.report);
    };
    // The root's folders are walked on all cores: on large homes the walk is
    // bound by directory syscalls, which run in parallel.
    let children = top.children(&reader, root, &listing);
    let walkers = super::parallel_map_min(&children, 2, |child| {
        let mut w = Walker::new(filename, how, map, vec![root_key], &linked);
        w.enter(&reader, child.clone());
        w
    });
    let mut matches = top.matches;
    let mut report = top.report;
    for w in walkers {
        matches.extend(w.matches);
        report.unreadable.extend(w.report.unreadable);
        report.cycles.extend(w.report.cycles);
        report.excluded.extend(w.report.excluded);
        report.md_names.extend(w.report.md_names);
        report.descriptions.extend(w.report.descriptions);
    }
    super::sort_large_by(&mut matches, |a, b| a.path().as_os_str().cmp(b.path().as_os_str()));
    (matches, report)
}

/// A folder to enter, as its parent's listing shows it.
#[derive(Clone)]
struct Child {
    name: OsString,
    path: PathBuf,
    key: DirKey,
    symlink: bool,
}

/// One directory's entries as the walk needs them.
struct Listing {
    /// Each folder: its name, its identity when known, whether a symlink.
    subdirs: Vec<(OsString, Option<DirKey>, bool)>,
    has_skill_md: bool,
}

struct Walker<'a, T> {
    filename: &'a str,
    how: Walk,
    map: &'a (dyn Fn(IndexedFile) -> T + Sync),
    /// Identities of the directories on the current path, to cut cycles.
    ancestors: Vec<DirKey>,
    /// The folders this walk's walkers listed through symlinks, together.
    linked: &'a std::sync::atomic::AtomicUsize,
    /// The first symlinked folder on the current path, if any.
    through: Option<PathBuf>,
    /// The last such folder whose walk was cut (said once).
    cut: Option<PathBuf>,
    matches: Vec<T>,
    report: WalkReport,
}

impl<'a, T> Walker<'a, T> {
    fn new(
        filename: &'a str,
        how: Walk,
        map: &'a (dyn Fn(IndexedFile) -> T + Sync),
        ancestors: Vec<DirKey>,
        linked: &'a std::sync::atomic::AtomicUsize,
    ) -> Walker<'a, T> {
        let report = WalkReport::default();
        Walker { filename, how, map, ancestors, linked, through: None, cut: None, matches: Vec::new(), report }
    }

    /// Lists a directory, recording (and maybe reading) a match; `None` when
    /// it cannot be listed.
    fn list(&mut self, reader: &mut DirReader, dir: &Path, key: DirKey) -> Option<Listing> {
        FOLDERS_LISTED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let entries = match reader.entries(key) {
            Ok(entries) => entries,
            Err(e) => {
                self.report.unreadable.push(UnreadableDir::new(dir, &e));
                return None;
            }
        };
        let mut listing = Listing { subdirs: Vec::new(), has_skill_md: false };
        let mut target = None;
        for entry in &entries {
            match entry.kind {
                EntryKind::Dir(k) => listing.subdirs.push((entry.name.clone(), k, entry.symlink)),
                EntryKind::File { regular } => {
                    listing.has_skill_md |= entry.name == "SKILL.md";
                    if entry.name == self.filename {
                        target = Some(regular);
                    }
                    if self.how.note_md_names && is_noted_md(&entry.name) {
                        self.report.md_names.push(entry.name.clone());
                        if entry.name == "DESCRIPTION.md" {
                            self.report.descriptions.push(dir.join(&entry.name));
                        }
                    }
                }
            }
        }
        if let Some(regular) = target {
            let path = dir.join(self.filename);
            let text = self.how.read.then(|| reader.read_text(OsStr::new(self.filename), regular, &path));
            let tree = self.how.tree.then(|| {
                let mut tree = Vec::new();
                paths::rglob_listed(reader, dir, entries, &mut tree);
                tree
            });
            self.matches.push((self.map)(IndexedFile { path, regular, text, tree }));
        }
        Some(listing)
    }

    /// The subdirectories to enter: pruned, identified, cycles cut.
    fn children(&mut self, reader: &DirReader, dir: &Path, listing: &Listing) -> Vec<Child> {
        let mut out = Vec::new();
        for (name, key, symlink) in &listing.subdirs {
            let text = name.to_string_lossy();
            if is_excluded_name(&text) {
                self.report.excluded.push(dir.join(name));
                continue;
            }
            if listing.has_skill_md && is_support_name(&text) {
                continue;
            }
            let path = dir.join(name);
            let key = match key {
                Some(k) => *k,
                None => match reader.child_key(name) {
                    Ok(k) => k,
                    Err(_) => continue,
                },
            };
            // An inode from a listing may belong to another device (a mount
            // point); a real `stat` confirms a cycle before it is cut.
            if cfg!(unix)
                && self.ancestors.contains(&key)
                && reader.child_key(name).is_ok_and(|k| self.ancestors.contains(&k))
            {
                self.report.cycles.push(path);
                continue;
            }
            out.push(Child { name: name.clone(), path, key, symlink: *symlink });
        }
        out
    }

    /// Opens and walks a folder listed in `reader`'s.
    fn enter(&mut self, reader: &DirReader, child: Child) {
        let outermost = child.symlink && self.through.is_none();
        if outermost {
            self.through = Some(child.path.clone());
        }
        if self.through.is_some() && !self.within_linked_budget() {
            // Said once, of the symlink the path went through.
            if self.cut != self.through {
                let why = format!("more than {LINKED_FOLDERS_AT_MOST} folders were reached through symlinked folders");
                let link = self.through.clone().unwrap_or_default();
                self.report.unreadable.push(UnreadableDir { path: link, error: why, cut: true });
                self.cut = self.through.clone();
            }
            if outermost {
                self.through = None;
            }
            return;
        }
        match reader.open_child(&child.name) {
            Ok(mut opened) => self.walk(&mut opened, &child.path, child.key),
            Err(e) => self.report.unreadable.push(UnreadableDir::new(&child.path, &e)),
        }
        if outermost {
            self.through = None;
        }
    }

    /// Counts one more folder listed through a symlink: whether the walk's
    /// budget of such folders still holds it.
    fn within_linked_budget(&self) -> bool {
        self.linked.fetch_add(1, std::sync::atomic::Ordering::Relaxed) < LINKED_FOLDERS_AT_MOST
    }

    fn walk(&mut self, reader: &mut DirReader, dir: &Path, key: DirKey) {
        self.ancestors.push(key);
        if let Some(listing) = self.list(reader, dir, key) {
            for child in self.children(reader, dir, &listing) {
                self.enter(reader, child);
            }
        }
        self.ancestors.pop();
    }
}

/// Every file under `dir`, following symlinks (a directory already on the
/// current path is not entered again).
pub fn files_under_following_links(dir: &Path) -> Vec<PathBuf> {
    fn visit(dir: &Path, ancestors: &mut Vec<PathBuf>, out: &mut Vec<PathBuf>) {
        let Ok(real) = std::fs::canonicalize(dir) else { return };
        if ancestors.contains(&real) {
            return;
        }
        ancestors.push(real);
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if paths::is_dir(&path) {
                visit(&path, ancestors, out);
            } else {
                out.push(path);
            }
        }
        ancestors.pop();
    }
    let mut out = Vec::new();
    visit(dir, &mut Vec::new(), &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn touch(p: &Path) {
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, "x").unwrap();
    }

    /// The tree a walk gives each SKILL.md it finds is its folder's
    /// `rglob_all`: files, support folders, hidden files, nested skills,
    /// symlinks to files and to folders (not entered).
    #[test]
    fn the_walks_tree_of_a_skill_is_its_rglob() {
        let t = tempfile::tempdir().unwrap();
        let root = t.path().join("skills");
        let skill = root.join("cat/one");
        for f in ["SKILL.md", "references/a.md", "scripts/deep/run.sh", ".hidden", "nested/SKILL.md"] {
            touch(&skill.join(f));
        }
        touch(&root.join("cat/two/SKILL.md"));
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(skill.join("references"), skill.join("linked-dir")).unwrap();
            std::os::unix::fs::symlink(skill.join(".hidden"), skill.join("linked-file")).unwrap();
            std::os::unix::fs::symlink(skill.join("gone"), skill.join("dangling")).unwrap();
        }
        let how = Walk { tree: true, ..Walk::default() };
        let (found, _) = walk_root(&root, "SKILL.md", how, &|f| f);
        assert_eq!(found.len(), 3);
        for f in &found {
            let dir = f.path.parent().unwrap();
            assert_eq!(f.tree.as_ref().expect("a tree"), &paths::rglob_all(dir), "{}", dir.display());
        }
        let one = found.iter().find(|f| f.path == skill.join("SKILL.md")).unwrap();
        assert!(one.tree.as_ref().unwrap().len() >= 9, "{:?}", one.tree);
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
