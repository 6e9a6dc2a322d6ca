//! Path operations with `pathlib` semantics: lexical joins, non-strict
//! `resolve()`, and `glob`/`rglob` (which do not descend into symlinked dirs).

use std::collections::HashMap;
use std::ffi::{OsStr, OsString};
use std::fs;
use std::io;
use std::path::{Component, Path, PathBuf};

/// `PurePosixPath(s)`: drops empty and `.` components and a trailing slash.
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for comp in path.components() {
        match comp {
            Component::CurDir => {}
            other => out.push(other.as_os_str()),
        }
    }
    if out.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        out
    }
}

/// Creates `dir` and the folders between `top` and it, never `top` itself:
/// a scratch folder removed meanwhile (its process ending on a signal) is
/// not made again in part. Fails when `top` is gone or `dir` is not below
/// it.
pub fn create_dirs_below(top: &Path, dir: &Path) -> std::io::Result<()> {
    use std::io::{Error, ErrorKind};
    if dir == top {
        return match top.is_dir() {
            true => Ok(()),
            false => Err(Error::new(ErrorKind::NotFound, format!("{}: no such folder", top.display()))),
        };
    }
    let parent = dir.parent().filter(|p| p.starts_with(top));
    let Some(parent) = parent else {
        return Err(Error::new(ErrorKind::InvalidInput, format!("{}: not below {}", dir.display(), top.display())));
    };
    let made = |dir: &Path| match fs::create_dir(dir) {
        Err(e) if e.kind() == ErrorKind::AlreadyExists && dir.is_dir() => Ok(()),
        made => made,
    };
    match made(dir) {
        Err(e) if e.kind() == ErrorKind::NotFound => {
            create_dirs_below(top, parent)?;
            made(dir)
        }
        made => made,
    }
}

/// The relative path `rel` with `.` dropped and each `..` taking back the
/// name before it; `None` when it climbs above where it starts (or is
/// absolute): where `rel` leads, read from a folder, if it stays below it.
pub fn lexical_within(rel: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for component in rel.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            Component::Normal(name) => out.push(name),
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(out)
}

/// `base / rel` as pathlib joins it (an absolute `rel` replaces `base`).
pub fn join(base: &Path, rel: &str) -> PathBuf {
    normalize(&base.join(rel))
}

/// Non-strict `Path.resolve()` as Python 3.11 computes it
/// (`os.path.realpath`): every symlink on the way is followed, a dangling
/// one too (its target is read and resolved in turn), a missing component
/// is kept as written and `..` after it still climbs lexically. On a
/// symlink loop this is the path where pathlib raises: see [`try_resolve`].
pub fn resolve(path: &Path) -> PathBuf {
    let absolute =
        if path.is_absolute() { path.to_path_buf() } else { std::env::current_dir().unwrap_or_default().join(path) };
    // A path that exists throughout resolves as the OS resolves it.
    if let Ok(real) = fs::canonicalize(&absolute) {
        return real;
    }
    let mut seen = HashMap::new();
    lexical_normpath(&join_realpath(PathBuf::from("/"), &absolute, &mut seen).0)
}

/// `Path.resolve()` with Python 3.11's `RuntimeError` on a symlink loop:
/// `RuntimeError: Symlink loop from '<path>'` when the resolved path cannot
/// be `stat`ed because of one.
pub fn try_resolve(path: &Path) -> Result<PathBuf, crate::py::PyError> {
    let resolved = resolve(path);
    // pathlib stats the answer and raises for ELOOP alone: a loop realpath
    // met but left behind (`loop/../x`) is no error.
    match fs::metadata(&resolved) {
        Err(e) if is_symlink_loop(&e) => Err(crate::py::PyError::new(
            "RuntimeError",
            format!("Symlink loop from {}", crate::py::py_str_repr(&path_string(&resolved))),
        )),
        _ => Ok(resolved),
    }
}

#[cfg(unix)]
fn is_symlink_loop(e: &std::io::Error) -> bool {
    e.raw_os_error() == Some(libc::ELOOP)
}

#[cfg(not(unix))]
fn is_symlink_loop(_: &std::io::Error) -> bool {
    false
}

/// `posixpath._joinrealpath(path, rest, strict=False, seen)`: `rest`
/// walked one component at a time from the resolved `path`. `seen` maps a
/// symlink to what it resolved to, `None` while it is being resolved.
fn join_realpath(mut path: PathBuf, rest: &Path, seen: &mut HashMap<PathBuf, Option<PathBuf>>) -> (PathBuf, bool) {
    let mut components = rest.components();
    while let Some(component) = components.next() {
        let name = match component {
            Component::RootDir => {
                path = PathBuf::from("/");
                continue;
            }
            Component::Prefix(prefix) => {
                path = PathBuf::from(prefix.as_os_str());
                continue;
            }
            Component::CurDir => continue,
            Component::ParentDir => {
                path.pop();
                continue;
            }
            Component::Normal(name) => name,
        };
        let newpath = path.join(name);
        let is_link = fs::symlink_metadata(&newpath).is_ok_and(|m| m.file_type().is_symlink());
        let target = if is_link { fs::read_link(&newpath).ok() } else { None };
        let Some(target) = target else {
            path = newpath;
            continue;
        };
        match seen.get(&newpath) {
            Some(Some(resolved)) => {
                path = resolved.clone();
                continue;
            }
            // Met again while resolving itself: a loop.
            Some(None) => return (newpath.join(components.as_path()), false),
            None => {}
        }
        seen.insert(newpath.clone(), None);
        let (resolved, finished) = join_realpath(path, &target, seen);
        if !finished {
            return (resolved.join(components.as_path()), false);
        }
        seen.insert(newpath, Some(resolved.clone()));
        path = resolved;
    }
    (path, true)
}

/// `os.path.normpath` of an absolute path: `.` dropped, `..` climbing.
fn lexical_normpath(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// Lexical `relative_to`; `None` when `path` is not under `base`.
pub fn relative_to<'a>(path: &'a Path, base: &Path) -> Option<&'a Path> {
    path.strip_prefix(base).ok()
}

/// `path` (absolute) as reached from `base` (absolute), climbing out of
/// it with `..` where it lies elsewhere (`/r/ext/a` from `/r/home` is
/// `../ext/a`); lexical, as config.yaml names an external dir beside the
/// home. None when either is relative.
pub fn climbed_to(path: &Path, base: &Path) -> Option<String> {
    if !path.is_absolute() || !base.is_absolute() {
        return None;
    }
    let (path, base) = (normalize(path), normalize(base));
    let (ours, theirs): (Vec<_>, Vec<_>) = (path.components().collect(), base.components().collect());
    let shared = ours.iter().zip(&theirs).take_while(|(a, b)| a == b).count();
    let climbs = std::iter::repeat("..".to_owned()).take(theirs.len() - shared);
    let rest = ours[shared..].iter().map(|c| c.as_os_str().to_string_lossy().into_owned());
    let parts: Vec<String> = climbs.chain(rest).collect();
    Some(if parts.is_empty() { ".".to_owned() } else { parts.join("/") })
}

/// A relative path as a `/`-joined string (what Python's `str()` prints).
pub fn rel_string(path: &Path) -> String {
    // Most paths are already written so (joined by us): no component to
    // drop or separator to fold, which parsing the components would find.
    if let Some(text) = path.to_str().filter(|t| is_plain_relative(t.as_bytes())) {
        return text.to_owned();
    }
    let mut out = String::with_capacity(path.as_os_str().len());
    for (i, c) in path.components().enumerate() {
        if i > 0 {
            out.push('/');
        }
        out.push_str(&c.as_os_str().to_string_lossy());
    }
    out
}

/// Whether `path` (relative, `/`-separated) is a folder `is_folder` names
/// or lies in one: the path itself or one of its leading folders.
pub fn lies_in(path: &str, is_folder: impl Fn(&str) -> bool) -> bool {
    is_folder(path) || path.match_indices('/').any(|(at, _)| is_folder(&path[..at]))
}

/// Folders (relative, `/`-separated) asked of many paths whether each is
/// one of them or lies in one ([`lies_in`], by hash).
#[derive(Debug, Default)]
pub struct FolderSet(std::collections::HashSet<String, foldhash::fast::RandomState>);

impl FolderSet {
    /// Whether `path` is one of the folders or lies in one.
    pub fn covers(&self, path: &str) -> bool {
        !self.0.is_empty() && lies_in(path, |folder| self.0.contains(folder))
    }
}

impl FromIterator<String> for FolderSet {
    fn from_iter<I: IntoIterator<Item = String>>(folders: I) -> FolderSet {
        FolderSet(folders.into_iter().collect())
    }
}

/// `path.strip_prefix(base)`: by the text where both are written plainly
/// (no empty or `.` part, no `/` at the end), as the paths skillscope
/// joins are, else by their components (which finds the same).
pub fn strip_prefix<'a>(path: &'a Path, base: &Path) -> Option<&'a Path> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let (text, prefix) = (path.as_os_str().as_bytes(), base.as_os_str().as_bytes());
        if !prefix.is_empty() && prefix.last() != Some(&b'/') && is_plain(text) && is_plain(prefix) {
            let rest = text.strip_prefix(prefix)?;
            return match rest.first() {
                None => Some(Path::new("")),
                Some(b'/') => Some(Path::new(std::ffi::OsStr::from_bytes(&rest[1..]))),
                Some(_) => None,
            };
        }
    }
    path.strip_prefix(base).ok()
}

/// A path written as its components joined by `/` write it, a leading
/// `/` aside.
#[cfg(unix)]
fn is_plain(bytes: &[u8]) -> bool {
    is_plain_relative(bytes.strip_prefix(b"/").unwrap_or(bytes))
}

/// A relative path whose text its components joined by `/` give back:
/// no root, empty part or inner `.` part.
fn is_plain_relative(bytes: &[u8]) -> bool {
    if bytes.first() == Some(&b'/') || bytes.last() == Some(&b'/') {
        return false;
    }
    // After each `/`: no other `/`, nor a `.` part.
    memchr::memchr_iter(b'/', bytes).all(|at| match bytes.get(at + 1) {
        Some(b'/') => false,
        Some(b'.') => !matches!(bytes.get(at + 2), None | Some(b'/')),
        _ => true,
    })
}

pub fn path_string(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

/// Python `Path.parts` as strings (`/` first for an absolute path).
pub fn parts(path: &Path) -> Vec<String> {
    path.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect()
}

/// `Path.exists()` (follows symlinks).
pub fn exists(path: &Path) -> bool {
    fs::metadata(path).is_ok()
}

/// Python 3.11's `Path.exists()` as it fails: false where the path is not
/// there (`ENOENT`, `ENOTDIR`, `EBADF`, `ELOOP`), the error where another
/// stops `stat` (a name longer than the file system takes, a folder that
/// cannot be searched).
pub fn py_exists(path: &Path) -> io::Result<bool> {
    py_stat(path).map(|m| m.is_some())
}

/// Python 3.11's `Path.is_dir()` as it fails ([`py_exists`]).
pub fn py_is_dir(path: &Path) -> io::Result<bool> {
    py_stat(path).map(|m| m.is_some_and(|m| m.is_dir()))
}

fn py_stat(path: &Path) -> io::Result<Option<fs::Metadata>> {
    match fs::metadata(path) {
        Ok(meta) => Ok(Some(meta)),
        Err(e) if is_ignored_by_pathlib(&e) => Ok(None),
        Err(e) => Err(e),
    }
}

/// `pathlib._IGNORED_ERRNOS`.
#[cfg(unix)]
fn is_ignored_by_pathlib(e: &io::Error) -> bool {
    !e.raw_os_error().is_some_and(|n| !matches!(n, libc::ENOENT | libc::ENOTDIR | libc::EBADF | libc::ELOOP))
}

#[cfg(not(unix))]
fn is_ignored_by_pathlib(_: &io::Error) -> bool {
    true
}

pub fn is_dir(path: &Path) -> bool {
    fs::metadata(path).map(|m| m.is_dir()).unwrap_or(false)
}

pub fn is_file(path: &Path) -> bool {
    fs::metadata(path).map(|m| m.is_file()).unwrap_or(false)
}

pub fn is_symlink(path: &Path) -> bool {
    fs::symlink_metadata(path).map(|m| m.file_type().is_symlink()).unwrap_or(false)
}

/// Python's `Path.suffix`.
pub fn suffix(name: &str) -> &str {
    match name.rfind('.') {
        Some(i) if i > 0 && i < name.len() - 1 => &name[i..],
        _ => "",
    }
}

/// Python's `Path.with_suffix(".md")` applied to the last component.
pub fn with_md_suffix(path: &Path) -> PathBuf {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let stem_len = name.len() - suffix(&name).len();
    path.with_file_name(format!("{}.md", &name[..stem_len]))
}

/// `fnmatch` for one path component (`*`, `?`, `[...]`, `[!...]`), case-sensitive.
pub fn fnmatch(name: &str, pattern: &str) -> bool {
    let name: Vec<char> = name.chars().collect();
    let pat: Vec<char> = pattern.chars().collect();
    fnmatch_at(&name, &pat)
}

fn fnmatch_at(name: &[char], pat: &[char]) -> bool {
    let (mut n, mut p) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while n < name.len() {
        if p < pat.len() {
            match pat[p] {
                '*' => {
                    star = Some((p, n));
                    p += 1;
                    continue;
                }
                '?' => {
                    n += 1;
                    p += 1;
                    continue;
                }
                '[' => {
                    if let Some((matched, next)) = match_class(name[n], &pat[p..]) {
                        if matched {
                            n += 1;
                            p += next;
                            continue;
                        }
                    } else if name[n] == '[' {
                        n += 1;
                        p += 1;
                        continue;
                    }
                }
                c if c == name[n] => {
                    n += 1;
                    p += 1;
                    continue;
                }
                _ => {}
            }
        }
        match star {
            Some((sp, sn)) => {
                p = sp + 1;
                n = sn + 1;
                star = Some((sp, sn + 1));
            }
            None => return false,
        }
    }
    pat[p..].iter().all(|&c| c == '*')
}

/// Matches `c` against a class starting at `pat[0] == '['`; returns whether it
/// matched and the class length, or `None` when the class is unterminated.
fn match_class(c: char, pat: &[char]) -> Option<(bool, usize)> {
    let mut i = 1;
    let negate = matches!(pat.get(i), Some('!'));
    if negate {
        i += 1;
    }
    if pat.get(i) == Some(&']') {
        i += 1;
    }
    while i < pat.len() && pat[i] != ']' {
        i += 1;
    }
    if i >= pat.len() {
        return None;
    }
    let body = &pat[if negate { 2 } else { 1 }..i];
    let mut matched = false;
    let mut j = 0;
    while j < body.len() {
        if j + 2 < body.len() && body[j + 1] == '-' {
            if body[j] <= c && c <= body[j + 2] {
                matched = true;
            }
            j += 3;
        } else {
            if body[j] == c {
                matched = true;
            }
            j += 1;
        }
    }
    Some((matched != negate, i + 1))
}

pub(crate) fn has_magic(s: &str) -> bool {
    s.contains(['*', '?', '['])
}

/// The entries of `dir` in the order `os.scandir` gives them
/// ([`super::listing`]).
fn list_dir(dir: &Path) -> Vec<fs::DirEntry> {
    let mut entries: Vec<fs::DirEntry> = match fs::read_dir(dir) {
        Ok(rd) => rd.filter_map(Result::ok).collect(),
        Err(_) => Vec::new(),
    };
    super::listing::arrange(&mut entries, fs::DirEntry::file_name);
    entries
}

/// `dir.glob(pattern)` as Python 3.11's pathlib runs it: every entry whose
/// name matches, in listing order.
pub fn glob(dir: &Path, pattern: &str) -> Vec<PathBuf> {
    select(dir, &components(pattern))
}

/// `dir.rglob(pattern)` as Python 3.11's pathlib runs it: `pattern` in
/// `dir`, then depth first in listing order in every subdirectory that is
/// not a symlink, each directory's matches in listing order.
pub fn rglob(dir: &Path, pattern: &str) -> Vec<PathBuf> {
    glob_in(walk_dirs_no_follow(dir).iter().map(PathBuf::as_path), pattern)
}

/// `pattern` matched in each of `dirs`, in order, each path once: `rglob`
/// over folders already known (in the order `rglob` walks them).
pub fn glob_in<'a>(dirs: impl Iterator<Item = &'a Path>, pattern: &str) -> Vec<PathBuf> {
    let comps = components(pattern);
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for d in dirs {
        for p in select(d, &comps) {
            if seen.insert(p.clone()) {
                out.push(p);
            }
        }
    }
    out
}

fn components(pattern: &str) -> Vec<String> {
    pattern.split('/').filter(|c| !c.is_empty() && *c != ".").map(str::to_owned).collect()
}

fn select(dir: &Path, comps: &[String]) -> Vec<PathBuf> {
    let Some((first, rest)) = comps.split_first() else {
        return vec![dir.to_path_buf()];
    };
    let last = rest.is_empty();
    let mut matches: Vec<PathBuf> = if has_magic(first) {
        list_dir(dir)
            .into_iter()
            .filter(|e| fnmatch(&e.file_name().to_string_lossy(), first))
            .filter(|e| last || e.path().is_dir())
            .map(|e| e.path())
            .collect()
    } else {
        let p = dir.join(first);
        let ok = if last { exists(&p) } else { is_dir(&p) };
        if ok {
            vec![p]
        } else {
            vec![]
        }
    };
    if last {
        return matches;
    }
    let mut out = Vec::new();
    for m in matches.drain(..) {
        out.extend(select(&m, rest));
    }
    out
}

/// `dir` and all its subdirectories, depth first in listing order, not
/// entering symlinked directories.
pub fn walk_dirs_no_follow(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let children: Vec<PathBuf> = list_dir(&d)
            .into_iter()
            .filter(|e| e.file_type().map(|t| t.is_dir()).unwrap_or(false))
            .map(|e| e.path())
            .collect();
        out.push(d);
        stack.extend(children.into_iter().rev());
    }
    out
}

/// The entries below `dir` whose names `keep` accepts, by name, from one
/// walk: each list in the order `rglob` visits folders (parents first, in
/// listing order, symlinked folders not entered), so `dir.rglob(name)` for a kept
/// name without wildcards is that list (less what no longer exists).
pub fn entries_by_name(dir: &Path, keep: impl Fn(&OsStr) -> bool + Sync) -> HashMap<OsString, Vec<PathBuf>> {
    use super::dirfd::{DirReader, EntryKind};
    /// Lists `dir` and, depth first in listing order, the folders below it
    /// (symlinked ones not entered), pushing the kept entries to `out`.
    fn visit(
        reader: &mut DirReader,
        dir: &Path,
        keep: &(impl Fn(&OsStr) -> bool + Sync),
        out: &mut Vec<(OsString, PathBuf)>,
    ) {
        for name in kept_and_subdirs(reader, dir, keep, out) {
            if let Ok(mut child) = reader.open_child(&name) {
                visit(&mut child, &dir.join(&name), keep, out);
            }
        }
    }
    /// Pushes a folder's kept entries; returns its real subfolders.
    fn kept_and_subdirs(
        reader: &mut DirReader,
        dir: &Path,
        keep: &(impl Fn(&OsStr) -> bool + Sync),
        out: &mut Vec<(OsString, PathBuf)>,
    ) -> Vec<OsString> {
        let mut subdirs = Vec::new();
        for e in reader.entries((0, 0)).unwrap_or_default() {
            if matches!(e.kind, EntryKind::Dir(_)) && !e.symlink {
                subdirs.push(e.name.clone());
            }
            if keep(&e.name) {
                out.push((e.name.clone(), dir.join(&e.name)));
            }
        }
        subdirs
    }
    let mut found = Vec::new();
    if let Ok((mut reader, _)) = DirReader::open(dir) {
        // The top folders' subtrees are walked on all cores, then joined
        // in their order: the walk is bound by directory syscalls.
        let subdirs = kept_and_subdirs(&mut reader, dir, &keep, &mut found);
        let parts = super::parallel_map_min(&subdirs, 2, |name| {
            let mut part = Vec::new();
            if let Ok(mut child) = reader.open_child(name) {
                visit(&mut child, &dir.join(name), &keep, &mut part);
            }
            part
        });
        found.extend(parts.into_iter().flatten());
    }
    let mut out: HashMap<OsString, Vec<PathBuf>> = HashMap::new();
    for (name, path) in found {
        out.entry(name).or_default().push(path);
    }
    out
}

/// One entry below a folder, with what `is_file` and `is_symlink` say of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreeFile {
    pub path: PathBuf,
    pub is_file: bool,
    pub is_dir: bool,
    pub is_symlink: bool,
}

/// The entry for `path` in a folder's listing, if it has one. Listings
/// hold paths joined onto their root, so bytes are compared (a path spelled
/// otherwise is not found, and callers then ask the disk).
pub fn tree_entry<'a>(tree: &'a [TreeFile], path: &Path) -> Option<&'a TreeFile> {
    let wanted = path.as_os_str().as_encoded_bytes();
    tree.iter().find(|f| f.path.as_os_str().as_encoded_bytes() == wanted)
}

/// Whether `path` lies below `dir`, by bytes (`dir/...`), for paths joined
/// onto `dir`.
pub fn is_below(path: &Path, dir: &Path) -> bool {
    let (p, d) = (path.as_os_str().as_encoded_bytes(), dir.as_os_str().as_encoded_bytes());
    p.len() > d.len() + 1 && p.starts_with(d) && std::path::is_separator(char::from(p[d.len()]))
}

/// Whether `path` is an entry directly in `dir`, by bytes.
pub fn is_child_of(path: &Path, dir: &Path) -> bool {
    is_below(path, dir)
        && !path.as_os_str().as_encoded_bytes()[dir.as_os_str().len() + 1..]
            .iter()
            .any(|&b| std::path::is_separator(char::from(b)))
}

/// What the listing of `root` ([`rglob_all`]) knows of `path`: its entry,
/// `Some(None)` when a folder on its way was listed without the next step
/// (so nothing is there), `None` when the listing cannot tell (outside the
/// root, or behind a symlink or a file).
fn listed<'a>(tree: &'a [TreeFile], root: &Path, path: &Path) -> Option<Option<&'a TreeFile>> {
    if let Some(entry) = tree_entry(tree, path) {
        return Some(Some(entry));
    }
    // The nearest folder on the way that was listed decides.
    let mut step = path;
    while let Some(parent) = step.parent() {
        // A `..` or `.` step is no entry of a listing.
        if step.file_name().is_none() || step.ends_with(".") {
            return None;
        }
        let parent_listed =
            (parent == root && !tree.is_empty()) || tree_entry(tree, parent).is_some_and(|f| f.is_dir && !f.is_symlink);
        if parent_listed {
            // `step` is listed only when it is not a folder the listing
            // entered (a symlink, a file): the disk says what is below.
            return (step == path || tree_entry(tree, step).is_none()).then_some(None);
        }
        if !is_below(parent, root) {
            return None;
        }
        step = parent;
    }
    None
}

/// `path.exists()`, answered from the listing of `root` where it can be.
pub fn exists_in(tree: &[TreeFile], root: &Path, path: &Path) -> bool {
    match listed(tree, root, path) {
        Some(Some(f)) if !f.is_symlink => true,
        Some(None) => false,
        _ => exists(path),
    }
}

/// `path.is_dir()`, answered from the listing of `root` where it can be.
pub fn is_dir_in(tree: &[TreeFile], root: &Path, path: &Path) -> bool {
    match listed(tree, root, path) {
        Some(Some(f)) => f.is_dir,
        Some(None) => false,
        None => is_dir(path),
    }
}

/// `dir.rglob("*")` from a single pass (each folder listed once), with each
/// entry's kind: folders top-down, each folder's entries in listing order, symlinked
/// folders not entered. Rules that each filtered their own walk of a skill
/// folder share this one.
pub fn rglob_all(dir: &Path) -> Vec<TreeFile> {
    let mut out = Vec::new();
    if let Ok((mut reader, _)) = super::dirfd::DirReader::open(dir) {
        let entries = reader.entries((0, 0)).unwrap_or_default();
        rglob_listed(&reader, dir, entries, &mut out);
    }
    out
}

/// [`rglob_all`] of the folder open in `reader`, whose `entries` a walk
/// has listed already: only its subfolders are opened and listed.
pub(crate) fn rglob_listed(
    reader: &super::dirfd::DirReader,
    dir: &Path,
    entries: Vec<super::dirfd::Entry>,
    out: &mut Vec<TreeFile>,
) {
    use super::dirfd::EntryKind;
    let mut subdirs = Vec::new();
    for e in entries {
        let path = dir.join(&e.name);
        let is_dir = matches!(e.kind, EntryKind::Dir(_));
        if is_dir && !e.symlink {
            subdirs.push((e.name.clone(), path.clone()));
        }
        if !fnmatch(&e.name.to_string_lossy(), "*") {
            continue;
        }
        let is_file = match e.kind {
            EntryKind::File { regular } if !e.symlink => regular,
            // What a symlink leads to, or a special file, takes a stat.
            EntryKind::File { .. } => fs::metadata(&path).is_ok_and(|m| m.is_file()),
            EntryKind::Dir(_) => false,
        };
        out.push(TreeFile { path, is_file, is_dir, is_symlink: e.symlink });
    }
    for (name, path) in subdirs {
        if let Ok(mut child) = reader.open_child(&name) {
            let entries = child.entries((0, 0)).unwrap_or_default();
            rglob_listed(&child, &path, entries, out);
        }
    }
}

/// Every regular file under `dir` (recursively, symlinked dirs not entered),
/// as `rglob("*")` filtered by `is_file()` would give them.
pub fn rglob_files(dir: &Path) -> Vec<PathBuf> {
    rglob(dir, "*").into_iter().filter(|p| is_file(p)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_is_climbed_to_from_a_folder_beside_it() {
        let climbed = |path: &str, base: &str| climbed_to(Path::new(path), Path::new(base));
        assert_eq!(climbed("/r/ext/a", "/r/home").as_deref(), Some("../ext/a"));
        assert_eq!(climbed("/r/home/skills/a", "/r/home").as_deref(), Some("skills/a"));
        assert_eq!(climbed("/r/home", "/r/home").as_deref(), Some("."));
        assert_eq!(climbed("/x/y", "/r/home/deep").as_deref(), Some("../../../x/y"));
        assert_eq!(climbed("/r/./ext/a", "/r/home/").as_deref(), Some("../ext/a"));
        assert_eq!(climbed("ext/a", "/r/home"), None, "a relative path is left as it is");
    }

    #[test]
    fn folders_are_made_below_a_top_never_the_top_itself() {
        let tmp = tempfile::tempdir().expect("tmp");
        let top = tmp.path().join("top");
        fs::create_dir(&top).expect("mkdir");
        create_dirs_below(&top, &top.join("a/b/c")).expect("made");
        assert!(top.join("a/b/c").is_dir());
        create_dirs_below(&top, &top.join("a/b")).expect("already there");
        assert!(create_dirs_below(&top, &tmp.path().join("elsewhere")).is_err());
        fs::remove_dir_all(&top).expect("rm");
        assert!(create_dirs_below(&top, &top.join("a/b")).is_err());
        assert!(!top.exists(), "a top removed stays removed");
    }

    /// A folder set covers a path as the definition says: the path is one
    /// of its folders or below one, and an empty set covers nothing.
    #[test]
    fn a_folder_set_covers_its_folders_and_what_lies_in_them() {
        let paths = ["a", "a/b", "a/b/SKILL.md", "a/bc", "a/b-c/x", "b", "ab/c"];
        for folders in [vec![], vec!["a/b"], vec!["a"], vec!["a/b", "b"], vec!["ab"]] {
            let set: FolderSet = folders.iter().map(|f| f.to_string()).collect();
            for path in paths {
                let by_definition = folders.iter().any(|f| path == *f || path.starts_with(&format!("{f}/")));
                assert_eq!(set.covers(path), by_definition, "{path:?} in {folders:?}");
            }
        }
    }

    /// By the text or by the components, a prefix is stripped alike.
    #[test]
    fn strip_prefix_is_path_s() {
        let paths = [
            "",
            "/",
            "/a",
            "/a/b",
            "/a/bc",
            "/a/b/c",
            "a",
            "a/b",
            "./a",
            "a/./b",
            "a//b",
            "a/",
            "/a/b/",
            "//a",
            "é/x",
            "/tmp/h/skills/x/SKILL.md",
            "/tmp/h/skills",
            "/tmp/h/skills2/y",
            ".",
        ];
        for path in paths {
            for base in paths {
                assert_eq!(
                    strip_prefix(Path::new(path), Path::new(base)),
                    Path::new(path).strip_prefix(base).ok(),
                    "{path:?} - {base:?}"
                );
            }
        }
    }

    /// The text of a plain path is what joining its components gives.
    #[test]
    fn rel_string_joins_the_components() {
        let by_components = |p: &Path| {
            p.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect::<Vec<_>>().join("/")
        };
        let cases = [
            "", ".", "a", "a/b", "./a", "a/./b", "a//b", "a/", "a/.", "a/..", "../a", ".a/b.", "a/.b/./c", "é/x y",
            "a/b/", "./", ".//a", "a/.../b",
        ];
        for case in cases {
            assert_eq!(rel_string(Path::new(case)), by_components(Path::new(case)), "{case:?}");
        }
    }

    /// The listing answers for paths below a folder it listed without the
    /// next step, however deep; behind a symlink or outside, the disk does.
    #[test]
    fn the_nearest_listed_folder_answers_for_what_is_below_it() {
        let t = tempfile::tempdir().unwrap();
        let root = t.path().join("skill");
        // On disk, but not in the (older) listing below.
        fs::create_dir_all(root.join("references/deep")).unwrap();
        fs::write(root.join("references/deep/a.md"), "x").unwrap();
        let entry = |rel: &str, is_dir: bool, is_symlink: bool| TreeFile {
            path: root.join(rel),
            is_file: !is_dir,
            is_dir,
            is_symlink,
        };
        let tree = vec![entry("SKILL.md", false, false), entry("scripts", true, false), entry("linked", true, true)];
        assert!(exists_in(&tree, &root, &root.join("SKILL.md")));
        assert!(!exists_in(&tree, &root, &root.join("references/deep/a.md")), "the root's listing has no references/");
        assert!(!exists_in(&tree, &root, &root.join("scripts/x/y.sh")), "scripts/ was listed without x/");
        assert_eq!(listed(&tree, &root, &root.join("linked/z.md")), None, "behind a symlink: ask the disk");
        assert_eq!(listed(&tree, &root, &root.join("SKILL.md/x")), None, "below a file: ask the disk");
        assert_eq!(listed(&tree, &root, &t.path().join("elsewhere/x")), None, "outside the root");
        assert_eq!(listed(&tree, &root, &root.join("../skill/references/deep/a.md")), None, "`..`: ask the disk");
        assert_eq!(listed(&tree, &root, &root.join("scripts/../references/x")), None);
        assert!(exists_in(&[], &root, &root.join("references/deep/a.md")), "no listing: the disk answers");
    }

    /// `resolve` and `try_resolve` answer what Python 3.11's `Path.resolve()`
    /// answered for the same tree (expectations taken from it): dangling
    /// links followed to their missing targets, links missing in the middle
    /// of a chain, `..` after a missing component or a link, loops.
    #[cfg(unix)]
    #[test]
    fn resolve_follows_links_as_python_does() {
        use std::os::unix::fs::symlink;
        let t = tempfile::tempdir().unwrap();
        let top = fs::canonicalize(t.path()).unwrap();
        let d = top.join("d");
        fs::create_dir_all(d.join("sub")).unwrap();
        fs::create_dir_all(d.join("real")).unwrap();
        fs::write(d.join("real/f"), "x").unwrap();
        for (link, target) in [
            ("abs_dangling", "/nonexistent/zz"),
            ("rel_dangling", "missing"),
            ("chain1", "link2/file"),
            ("link2", "/nonexistent"),
            ("chain0", "chain1"),
            ("updot", "missing/../../outside.md"),
            ("a", "b"),
            ("b", "a"),
            ("self", "self"),
            ("via_loop", "a/x"),
            ("tosub", "real/../sub"),
            ("mid", "sub/../nowhere/x"),
            ("filedot", "real/f/.."),
        ] {
            symlink(target, d.join(link)).unwrap();
        }
        let at = |rel: &str| d.join(rel);
        let inside = |rel: &str| Ok(d.join(rel));
        let outside = |abs: &str| Ok(PathBuf::from(abs));
        let lp = |rel: &str| {
            Err(crate::py::PyError::new("RuntimeError", format!("Symlink loop from '{}'", d.join(rel).display())))
        };
        let cases: Vec<(&str, Result<PathBuf, crate::py::PyError>)> = vec![
            ("abs_dangling", outside("/nonexistent/zz")),
            ("rel_dangling", inside("missing")),
            ("chain1", outside("/nonexistent/file")),
            ("chain0", outside("/nonexistent/file")),
            ("link2", outside("/nonexistent")),
            ("updot", Ok(top.join("outside.md"))),
            ("a", lp("a")),
            ("b", lp("b")),
            ("self", lp("self")),
            ("via_loop", lp("a/x")),
            ("a/../sub", inside("sub")),
            ("sub/../a/z", lp("a/z")),
            ("tosub", inside("sub")),
            ("mid", inside("nowhere/x")),
            ("filedot", inside("real")),
            ("missing/../chain1", outside("/nonexistent/file")),
            ("abs_dangling/../q", outside("/nonexistent/q")),
            ("real/f/x", inside("real/f/x")),
            ("sub/./real/../x", inside("sub/x")),
        ];
        for (rel, expected) in cases {
            assert_eq!(try_resolve(&at(rel)), expected, "{rel}");
            let lenient = expected.unwrap_or_else(|e| {
                PathBuf::from(e.message.trim_start_matches("Symlink loop from '").trim_end_matches('\''))
            });
            assert_eq!(resolve(&at(rel)), lenient, "{rel}");
        }
    }

    #[test]
    fn fnmatch_basics() {
        assert!(fnmatch("api.md", "*.md"));
        assert!(fnmatch(".hidden.md", "*.md"));
        assert!(!fnmatch("api.mdx", "*.md"));
        assert!(fnmatch("a1", "a[0-9]"));
        assert!(!fnmatch("ab", "a[!b]"));
        assert!(fnmatch("a[", "a["));
        assert!(fnmatch("x", "?"));
    }

    #[test]
    fn suffix_like_pathlib() {
        assert_eq!(suffix("a.tar.gz"), ".gz");
        assert_eq!(suffix(".bashrc"), "");
        assert_eq!(suffix("x."), "");
        assert_eq!(with_md_suffix(Path::new("/s/foo.bar")), PathBuf::from("/s/foo.md"));
        assert_eq!(with_md_suffix(Path::new("/s/foo")), PathBuf::from("/s/foo.md"));
    }

    #[test]
    fn lexical_within_stays_below_where_it_starts() {
        let within = |p: &str| lexical_within(Path::new(p));
        assert_eq!(within("a/./b/../c"), Some(PathBuf::from("a/c")));
        assert_eq!(within("a/.."), Some(PathBuf::new()));
        for out in ["..", "a/../../b", "./../x", "/abs"] {
            assert_eq!(within(out), None, "{out}");
        }
    }

    #[test]
    fn normalize_drops_dots_and_slashes() {
        assert_eq!(normalize(Path::new("a//./b/")), PathBuf::from("a/b"));
        assert_eq!(join(Path::new("/r"), "x/./y"), PathBuf::from("/r/x/y"));
    }

    #[test]
    fn one_pass_rglob_agrees_with_rglob() {
        let t = tempfile::tempdir().unwrap();
        let root = t.path();
        for p in ["b/x.md", "a/y.sh", "a/z/w.txt", ".hidden/k", "top.md"] {
            std::fs::create_dir_all(root.join(p).parent().unwrap()).unwrap();
            std::fs::write(root.join(p), "x").unwrap();
        }
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(root.join("a"), root.join("link-dir")).unwrap();
            std::os::unix::fs::symlink(root.join("top.md"), root.join("link-file")).unwrap();
            std::os::unix::fs::symlink(root.join("gone"), root.join("dangling")).unwrap();
        }
        let one: Vec<PathBuf> = rglob_all(root).into_iter().map(|f| f.path).collect();
        assert_eq!(one, rglob(root, "*"));
        let files: Vec<PathBuf> = rglob_all(root).into_iter().filter(|f| f.is_file).map(|f| f.path).collect();
        assert_eq!(files, rglob_files(root));
        let links: Vec<PathBuf> = rglob_all(root).into_iter().filter(|f| f.is_symlink).map(|f| f.path).collect();
        let expected: Vec<PathBuf> = rglob(root, "*").into_iter().filter(|p| is_symlink(p)).collect();
        assert_eq!(links, expected);
    }

    #[test]
    fn rglob_from_a_walk_agrees() {
        let t = tempfile::tempdir().unwrap();
        let root = t.path();
        for p in ["x.md", "a/x.md", "a/b/x.md", "c/y.md"] {
            let path = root.join(p);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, "").unwrap();
        }
        let by_name = entries_by_name(root, |n| n.to_string_lossy().ends_with(".md"));
        for name in ["x.md", "y.md", "z.md"] {
            let found = by_name.get(OsStr::new(name)).cloned().unwrap_or_default();
            assert_eq!(found, rglob(root, name), "{name}");
        }
    }

    #[test]
    fn rglob_skips_symlinked_dirs() {
        let t = tempfile::tempdir().unwrap();
        let root = t.path();
        fs::create_dir_all(root.join("a/b")).unwrap();
        fs::write(root.join("a/b/x.md"), "").unwrap();
        fs::write(root.join("top.md"), "").unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(root.join("a"), root.join("link")).unwrap();
        let found: Vec<String> =
            rglob(root, "*.md").iter().map(|p| rel_string(p.strip_prefix(root).unwrap())).collect();
        assert_eq!(found, ["top.md", "a/b/x.md"]);
    }
}
