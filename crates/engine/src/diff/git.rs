//! A git repository read through its objects with the `git` command's
//! plumbing (`rev-parse`, `ls-tree`, `cat-file --batch`, `diff-tree`,
//! `diff-index`; never `git diff` or `git status`, which refresh the index): a
//! revision's tree is written into a folder of our own, never checked out.
//! Nothing here writes into the repository: none of these commands changes
//! refs, the index or the work tree (each runs with `GIT_OPTIONAL_LOCKS=0`
//! too).

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Blobs bigger than this are not read unless something reads them
/// ([`stood_in`]): a stand-in of the same size, all zeros, takes their place.
pub const LARGE_BLOB_BYTES: u64 = 1 << 20;

/// Whether a file of `size` bytes at `path` is stood in for rather than
/// written: one over [`LARGE_BLOB_BYTES`] that neither decides a skill
/// ([`is_deciding`]) nor is read for the guard's patterns (a text file the
/// guard or `check`'s guard rules scan, up to the size they read), as a
/// large binary file.
pub fn stood_in(path: &str, size: u64) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    let scanned = crate::diagnostics::guard::scans_name(name) && size <= crate::guard::MAX_SCANNED_BYTES;
    size > LARGE_BLOB_BYTES && !is_deciding(path) && !scanned
}

/// How many bytes of large files a written tree takes from the work tree
/// where the work tree has them as the revision does
/// ([`Repo::take_unchanged_stand_ins`]); beyond, they stay stood in for.
pub const TAKEN_FROM_WORK_TREE_AT_MOST: u64 = 64 << 20;

#[derive(Debug, thiserror::Error)]
pub enum GitError {
    #[error("diff reads revisions with the `git` command, which is not installed (or not on PATH): {0}")]
    NoGit(std::io::Error),
    #[error("{0} is not in a git repository")]
    NotARepository(PathBuf),
    #[error(
        "{0} is in a git repository without a working tree (a bare one, or inside its .git folder): run diff in a \
         working tree of it"
    )]
    NoWorkTree(PathBuf),
    #[error("{a} and {b} share no history (no merge base): `{a}..{b}` compares them as they are")]
    NoMergeBase { a: String, b: String },
    #[error(
        "{a} and {b} have no merge base in this shallow clone: it lacks the history they share (fetch more of it: \
         git fetch --deepen=N, or --unshallow)"
    )]
    ShallowNoMergeBase { a: String, b: String },
    #[error("{dir}: git refuses to read this repository: {message}")]
    Refused { dir: PathBuf, message: String },
    #[error("{rev} names a {kind}, not a commit: diff compares commits")]
    NotACommit { rev: String, kind: String },
    #[error("{rev}: no such revision in {repo}{why}")]
    NoRevision { rev: String, repo: PathBuf, why: String },
    #[error("git {args}: {message}")]
    Failed { args: String, message: String },
    #[error(
        "{path} ({oid}) is not in the repository's objects: a partial clone leaves files out, and diff fetches none"
    )]
    Missing { path: String, oid: String },
    #[error(
        "{path} is a Git LFS file whose object (sha256 {oid}) is not in the local LFS store, and diff fetches none"
    )]
    LfsAbsent { path: String, oid: String },
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// Why a revision names no commit ([`Repo::why_no_commit`]).
enum NoCommit {
    /// It names an object of this kind.
    Kind(String),
    /// What git says of it.
    Said(String),
}

/// A repository, by its work tree.
#[derive(Debug, Clone)]
pub struct Repo {
    /// The work tree's top folder (`rev-parse --show-toplevel`).
    pub root: PathBuf,
    /// A shallow clone: older revisions may be missing.
    pub shallow: bool,
}

/// Files the index tells git not to look at in the work tree.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Unlooked {
    /// `assume-unchanged`: the work tree's copy may differ unsaid.
    pub assumed: bool,
    /// `skip-worktree` (a sparse checkout's): the work tree lacks these
    /// files, or may differ unsaid.
    pub skipped: BTreeSet<String>,
    /// Some skipped file is in the work tree (`git update-index
    /// --skip-worktree` on a file kept to edit): it may differ unsaid.
    pub skipped_present: bool,
    /// Every `SKILL.md` the index holds.
    pub skill_files: std::collections::HashSet<String>,
    /// The submodules the index holds (their folders).
    pub submodules: Vec<String>,
}

impl Unlooked {
    /// Whether the work tree's walk can stand for a revision: not where
    /// an edit may go unsaid, nor, for a revision other than the work
    /// tree's own comparison (`two revisions`), where a checkout skipped
    /// files (a sparse checkout lacks skills the revision has).
    pub fn walk_stands_for_revisions(&self, two_revisions: bool) -> bool {
        !(self.assumed || self.skipped_present || (!self.skipped.is_empty() && two_revisions))
    }

    /// The skipped files the work tree lacks (below `top`): outside a
    /// sparse checkout. Compared with the work tree, a revision is read
    /// without them, as the checkout has it, so that they are no change
    /// (git's own diff reads the index's copy there, which the agent does
    /// not see either); said in a note ([`sparse_note`]).
    ///
    /// So are `others` (paths a revision has) that the work tree lacks and
    /// the sparse checkout's rules leave out: a file gone from the index
    /// since (`git sparse-checkout check-rules`; git 2.41 or later, else
    /// they stay).
    pub fn outside_checkout<'a>(&self, repo: &Repo, others: impl Iterator<Item = &'a str>) -> BTreeSet<String> {
        if self.skipped.is_empty() {
            return BTreeSet::new();
        }
        let absent = |rel: &str| std::fs::symlink_metadata(repo.root.join(rel)).is_err();
        let mut outside: BTreeSet<String> = self.skipped.iter().filter(|rel| absent(rel)).cloned().collect();
        let others: Vec<&str> = others.filter(|rel| !outside.contains(*rel) && absent(rel)).collect();
        if let (false, Ok(inside)) = (others.is_empty(), repo.inside_sparse_rules(&others)) {
            outside.extend(others.into_iter().filter(|rel| !inside.contains(*rel)).map(str::to_owned));
        }
        outside
    }
}

/// The note for the files a sparse checkout leaves out that a comparison
/// with the work tree left aside ([`Unlooked::outside_checkout`]); none
/// when there were none.
pub fn sparse_note(left_aside: &[String]) -> Option<String> {
    let (files, them) = crate::words::first_and_more(left_aside, "file")?;
    Some(format!("{files}: outside the sparse checkout, left aside (the revision is read without {them}, as the checkout has it)"))
}

/// The note for the skill files git ignores that a revision without them
/// was given as the working tree has them (by the walk, or in a copy: each
/// named once); none without any.
pub fn ignored_note(skill_files: impl IntoIterator<Item = String>) -> Option<String> {
    let named: Vec<String> = skill_files.into_iter().collect::<BTreeSet<_>>().into_iter().collect();
    let (skills, them) = crate::words::first_and_more(&named, "skill")?;
    Some(format!(
        "{skills}: git ignores {them}, so a revision without such a file has {them} as the working tree does (a checkout leaves {them})"
    ))
}

/// One file of a revision's tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreeEntry {
    /// `100644`, `100755`, `120000` (a symlink) or `160000` (a submodule).
    pub mode: String,
    pub oid: String,
    /// Bytes; none for a submodule.
    pub size: Option<u64>,
    /// Relative to the repository's top, `/`-separated.
    pub path: String,
}

/// What writing a revision's tree left out.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Written {
    /// Submodules (their folders are left empty).
    pub submodules: Vec<String>,
    /// Large files stood in for by zeros of the same size.
    pub not_read: Vec<String>,
    /// Files the repository's objects lack (a partial clone), none that
    /// decides a skill ([`is_deciding`]): stood in for by empty files.
    pub missing: Vec<String>,
    /// Git LFS files whose object the local store lacks, none that decides
    /// a skill: stood in for by zeros of the object's size ([`super::lfs`]).
    pub lfs_absent: Vec<String>,
    /// Files outside a sparse checkout, left out ([`Unlooked::outside_checkout`]).
    pub sparse: Vec<String>,
    /// Files git ignores, taken from the work tree ([`super::ignored`]).
    pub ignored: usize,
    /// Of those, the skill files (`SKILL.md`).
    pub ignored_skills: Vec<String>,
    /// Whether more were ignored than were taken.
    pub ignored_left_out: bool,
    /// How many of those taken are symlinks (copied as links).
    pub ignored_links: usize,
    /// How many of the revision's own files are symlinks.
    pub links: usize,
}

impl Written {
    /// Whether the written tree holds a symlink (the revision's, or one
    /// git ignores), or may (ignored files were left out).
    pub fn may_hold_links(&self) -> bool {
        self.links > 0 || self.ignored_links > 0 || self.ignored_left_out
    }
}

/// `git -C repo`, reading only: it runs no program the repository's
/// settings name ([`quiet_settings`]), takes no optional lock and fetches
/// nothing.
fn git(repo: &Path) -> Command {
    let mut command = bare_git(repo);
    // As `-c` would, but a driver's name may hold `=`: after any the
    // caller gave, so that these win.
    let given: usize = std::env::var("GIT_CONFIG_COUNT").ok().and_then(|n| n.parse().ok()).unwrap_or(0);
    let quiet = quiet_settings(repo);
    for (i, (key, value)) in quiet.settings.iter().enumerate() {
        command.env(format!("GIT_CONFIG_KEY_{}", given + i), key).env(format!("GIT_CONFIG_VALUE_{}", given + i), value);
    }
    command.env("GIT_CONFIG_COUNT", (given + quiet.settings.len()).to_string());
    command
}

fn bare_git(repo: &Path) -> Command {
    let mut command = Command::new("git");
    command
        .arg("-C")
        .arg(repo)
        .env("GIT_OPTIONAL_LOCKS", "0")
        // A partial clone would fetch missing objects (network, new files
        // in the repository); a missing object is an error instead.
        .env("GIT_NO_LAZY_FETCH", "1")
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("LC_ALL", "C")
        .stdin(Stdio::null());
    command.envs(environment_as_started().iter().map(|(var, path)| (var, path)));
    command
}

/// The paths git takes from the environment, as git started here would
/// read them: relative ones are the current folder's (a commit hook's
/// `GIT_INDEX_FILE=.git/index`), not `-C`'s, and with `GIT_DIR` alone the
/// current folder is the work tree's top.
fn environment_as_started() -> &'static [(&'static str, PathBuf)] {
    static PATHS: std::sync::OnceLock<Vec<(&'static str, PathBuf)>> = std::sync::OnceLock::new();
    PATHS.get_or_init(|| {
        let Ok(here) = std::env::current_dir() else { return Vec::new() };
        let mut paths = Vec::new();
        for var in ["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_COMMON_DIR"] {
            match std::env::var_os(var).map(PathBuf::from) {
                Some(path) if path.as_os_str().is_empty() => {}
                Some(path) if path.is_relative() => paths.push((var, here.join(path))),
                _ => {}
            }
        }
        if std::env::var_os("GIT_DIR").is_some() && std::env::var_os("GIT_WORK_TREE").is_none() {
            paths.push(("GIT_WORK_TREE", here));
        }
        paths
    })
}

/// Settings that keep git from running programs a repository's settings
/// name while it compares the work tree: a file-system monitor
/// (`core.fsmonitor`, run on every look at the work tree, a hook or a
/// daemon), and each filter driver's `clean` and `process` commands (run
/// to hash a file whose metadata no longer fits the index; a slow one
/// hangs, any one runs code). Without them git hashes files as they lie,
/// as `hash-object --no-filters` does. Listed once per folder.
#[derive(Debug, Default)]
struct Quiet {
    settings: Vec<(String, String)>,
    /// The filter drivers the settings name.
    drivers: Vec<String>,
    /// `core.symlinks`: false where a checkout writes a symlink as a file
    /// holding its target (a filesystem without them; Git for Windows).
    symlinks: bool,
}

fn quiet_settings(repo: &Path) -> std::sync::Arc<Quiet> {
    type Known = std::collections::HashMap<PathBuf, std::sync::Arc<Quiet>>;
    static KNOWN: std::sync::Mutex<Option<Known>> = std::sync::Mutex::new(None);
    if let Some(known) = KNOWN.lock().ok().and_then(|k| k.as_ref().and_then(|k| k.get(repo).cloned())) {
        return known;
    }
    let listed = bare_git(repo).args(["config", "-z", "--get-regexp", r"^filter\.|^core\.symlinks$"]).output();
    let listed = listed.map(|out| out.stdout).unwrap_or_default();
    let (mut drivers, mut symlinks) = (BTreeSet::new(), true);
    for entry in listed.split(|&b| b == 0) {
        let (key, value) = match entry.iter().position(|&b| b == b'\n') {
            Some(at) => (&entry[..at], Some(&entry[at + 1..])),
            None => (entry, None),
        };
        let key = String::from_utf8_lossy(key);
        if key.eq_ignore_ascii_case("core.symlinks") {
            // The last one set wins; a key with no value is true.
            symlinks = !value.is_some_and(|v| is_false(&String::from_utf8_lossy(v)));
            continue;
        }
        if let Some(name) = key.strip_prefix("filter.").and_then(|k| k.rsplit_once('.')).map(|(name, _)| name) {
            drivers.insert(name.to_owned());
        }
    }
    let mut settings = vec![("core.fsmonitor".to_owned(), "false".to_owned())];
    for name in &drivers {
        for (var, value) in [("clean", ""), ("smudge", ""), ("process", ""), ("required", "false")] {
            settings.push((format!("filter.{name}.{var}"), value.to_owned()));
        }
    }
    let quiet = std::sync::Arc::new(Quiet { settings, drivers: drivers.into_iter().collect(), symlinks });
    if let Ok(mut known) = KNOWN.lock() {
        known.get_or_insert_with(Known::new).insert(repo.to_path_buf(), quiet.clone());
    }
    quiet
}

/// A boolean setting's false, as git reads one.
fn is_false(value: &str) -> bool {
    ["false", "no", "off", "0", ""].iter().any(|f| value.trim().eq_ignore_ascii_case(f))
}

/// What git said, without its `fatal: ` and on one line.
fn said(message: &str) -> String {
    let lines = message.lines().map(|l| l.trim().trim_start_matches("fatal: ")).filter(|l| !l.is_empty());
    lines.collect::<Vec<_>>().join(" ")
}

/// Runs `git ARGS` in `repo`, its standard output on success.
pub(super) fn run(repo: &Path, args: &[&str]) -> Result<Vec<u8>, GitError> {
    succeeded(git(repo).args(args).output().map_err(GitError::NoGit)?, args.join(" "))
}

/// A git command's standard output when it succeeded, else what it said
/// (`args` naming the command).
fn succeeded(output: std::process::Output, args: String) -> Result<Vec<u8>, GitError> {
    match output.status.success() {
        true => Ok(output.stdout),
        false => Err(GitError::Failed { args, message: String::from_utf8_lossy(&output.stderr).trim().to_owned() }),
    }
}

/// One entry of `git diff-index -z`'s raw output (no renames: one path).
struct RawEntry<'a> {
    old_mode: &'a str,
    new_mode: &'a str,
    old_id: &'a str,
    new_id: &'a str,
    status: &'a str,
    path: &'a [u8],
}

fn raw_entries(raw: &[u8]) -> Vec<RawEntry<'_>> {
    let mut fields = raw.split(|&b| b == 0);
    let mut entries = Vec::new();
    while let (Some(meta), Some(path)) = (fields.next(), fields.next()) {
        let Ok(meta) = std::str::from_utf8(meta) else { continue };
        let mut parts = meta.trim_start_matches(':').split(' ');
        if let (Some(old_mode), Some(new_mode), Some(old_id), Some(new_id), Some(status)) =
            (parts.next(), parts.next(), parts.next(), parts.next(), parts.next())
        {
            entries.push(RawEntry { old_mode, new_mode, old_id, new_id, status, path });
        }
    }
    entries
}

/// Whether `id` is git's id of nothing (all zeros, SHA-1 or SHA-256).
fn is_null_id(id: &str) -> bool {
    !id.is_empty() && id.bytes().all(|b| b == b'0')
}

/// NUL-separated paths, each without a trailing `/`.
pub(super) fn names(bytes: &[u8]) -> BTreeSet<String> {
    bytes
        .split(|&b| b == 0)
        .filter(|n| !n.is_empty())
        .map(|n| String::from_utf8_lossy(n).trim_end_matches('/').to_owned())
        .collect()
}

fn text(bytes: Vec<u8>) -> String {
    String::from_utf8_lossy(&bytes).trim_end_matches('\n').to_owned()
}

impl Repo {
    /// The repository whose work tree holds `dir`.
    pub fn discover(dir: &Path) -> Result<Repo, GitError> {
        let out = match run(dir, &["rev-parse", "--show-toplevel", "--is-shallow-repository"]) {
            Ok(out) => text(out),
            Err(GitError::Failed { message, .. }) if message.contains("must be run in a work tree") => {
                return Err(GitError::NoWorkTree(dir.to_path_buf()))
            }
            Err(GitError::Failed { message, .. }) if message.contains("not a git repository") || message.is_empty() => {
                return Err(GitError::NotARepository(dir.to_path_buf()))
            }
            // Another reason (dubious ownership, a ceiling, no permission):
            // git's own words say what to do.
            Err(GitError::Failed { message, .. }) => {
                return Err(GitError::Refused { dir: dir.to_path_buf(), message: said(&message) })
            }
            Err(e) => return Err(e),
        };
        let mut lines = out.lines();
        let root = PathBuf::from(lines.next().unwrap_or_default());
        let shallow = lines.next() == Some("true");
        Ok(Repo { root, shallow })
    }

    /// The commit `rev` names (any revision git accepts).
    pub fn commit(&self, rev: &str) -> Result<String, GitError> {
        // Named first, then peeled: a suffix on the name itself would be
        // read as part of some (`:/fix`, a search of commit messages).
        let named = run(&self.root, &["rev-parse", "--verify", "--quiet", "--end-of-options", rev]);
        let peeled = match named {
            Ok(oid) if !oid.is_empty() => {
                run(&self.root, &["rev-parse", "--verify", "--quiet", &format!("{}^{{commit}}", text(oid))])
            }
            other => other,
        };
        match peeled {
            Ok(out) if !out.is_empty() => Ok(text(out)),
            Ok(_) | Err(GitError::Failed { .. }) => {
                let why = match self.unborn_branch() {
                    Some(branch) if rev == "HEAD" || rev == branch => {
                        format!(" (branch {branch} has no commits yet: once it has one, diff compares with it)")
                    }
                    _ => match self.why_no_commit(rev) {
                        Some(NoCommit::Kind(kind)) => return Err(GitError::NotACommit { rev: rev.to_owned(), kind }),
                        Some(NoCommit::Said(why)) => format!(" (git: {why})"),
                        None if self.shallow => {
                            " (a shallow clone: it holds only the latest commits; `git fetch --unshallow` brings the \
                             rest)"
                                .to_owned()
                        }
                        None => String::new(),
                    },
                };
                Err(GitError::NoRevision { rev: rev.to_owned(), repo: self.root.clone(), why })
            }
            Err(e) => Err(e),
        }
    }

    /// Why `rev` names no commit, where git says more than that: it names
    /// an object of another kind (a tree, a blob), or git's own reason (a
    /// branch with no upstream for `@{u}`).
    fn why_no_commit(&self, rev: &str) -> Option<NoCommit> {
        match run(&self.root, &["rev-parse", "--verify", "--end-of-options", rev]) {
            Ok(oid) => {
                let kind = text(run(&self.root, &["cat-file", "-t", &text(oid)]).ok()?);
                (kind != "commit").then_some(NoCommit::Kind(kind))
            }
            Err(GitError::Failed { message, .. }) => {
                let said = message.lines().find(|l| !l.contains("Needed a single revision"))?;
                let said = said.trim_start_matches("fatal: ").trim();
                (!said.is_empty() && !said.starts_with("ambiguous argument")).then(|| NoCommit::Said(said.to_owned()))
            }
            Err(_) => None,
        }
    }

    /// The branch HEAD names when it has no commit yet (a new repository).
    fn unborn_branch(&self) -> Option<String> {
        if run(&self.root, &["rev-parse", "--verify", "--quiet", "HEAD"]).is_ok_and(|out| !out.is_empty()) {
            return None;
        }
        let branch = text(run(&self.root, &["symbolic-ref", "--quiet", "--short", "HEAD"]).ok()?);
        (!branch.is_empty()).then_some(branch)
    }

    /// The bytes of the blob `oid`.
    pub fn blob(&self, oid: &str) -> Result<Vec<u8>, GitError> {
        run(&self.root, &["cat-file", "blob", oid])
    }

    /// The best common ancestor of two commits (`A...B`); `None` when
    /// they share no history.
    pub fn merge_base(&self, a: &str, b: &str) -> Result<Option<String>, GitError> {
        match run(&self.root, &["merge-base", a, b]) {
            Ok(out) => Ok(Some(text(out))),
            // Exit 1 and nothing said: no common ancestor.
            Err(GitError::Failed { message, .. }) if message.is_empty() => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// The commit `A...B` compares from: the merge base of the commits the
    /// revisions `a` and `b` name; an error saying why where there is none
    /// (a shallow clone may lack it).
    pub fn base_of(&self, a: &str, b: &str) -> Result<String, GitError> {
        let (ca, cb) = (self.commit(a)?, self.commit(b)?);
        let (a, b) = (a.to_owned(), b.to_owned());
        match self.merge_base(&ca, &cb)? {
            Some(base) => Ok(base),
            None if self.shallow => Err(GitError::ShallowNoMergeBase { a, b }),
            None => Err(GitError::NoMergeBase { a, b }),
        }
    }

    /// Every file of a commit's tree, without sizes ([`Repo::sized`]): the
    /// tree objects alone are read, not one object per file.
    pub fn tree(&self, commit: &str) -> Result<Vec<TreeEntry>, GitError> {
        let out = run(&self.root, &["ls-tree", "-r", "-z", "--full-tree", commit])?;
        Ok(out.split(|&b| b == 0).filter(|l| !l.is_empty()).filter_map(parse_tree_line).collect())
    }

    /// Gives the entries to be written their sizes, through one `git
    /// cat-file --batch-check` (a submodule's commit has none).
    pub fn sized(&self, entries: &mut [TreeEntry]) -> Result<(), GitError> {
        let mut blobs: Vec<&mut TreeEntry> = entries.iter_mut().filter(|e| e.mode != "160000").collect();
        if blobs.is_empty() {
            return Ok(());
        }
        let mut batch =
            CatFile::start(&self.root, "--batch-check=%(objectsize)", blobs.iter().map(|e| e.oid.as_str()))?;
        let mut line = String::new();
        for entry in &mut blobs {
            line.clear();
            batch.reader.read_line(&mut line)?;
            let size = match line.trim() {
                // Written as an empty stand-in ([`Repo::write_entries`]).
                missing if missing.ends_with(" missing") => stand_in_for_missing(entry).map(|()| 0)?,
                size => size.parse().map_err(|_| batch.failed(format!("{}: {size}", entry.path)))?,
            };
            entry.size = Some(size);
        }
        batch.finish()
    }

    /// The paths that differ between two commits, or between a commit and
    /// the work tree (`to` none), untracked files git does not ignore
    /// included ([`Repo::untracked`]).
    pub fn changed_paths(&self, from: &str, to: Option<&str>) -> Result<BTreeSet<String>, GitError> {
        match to {
            Some(to) => {
                let listed = run(&self.root, &["diff-tree", "-r", "-z", "--no-renames", "--name-only", from, to])?;
                Ok(names(&listed))
            }
            None => {
                let mut paths = self.tracked_changes(from)?;
                paths.extend(self.untracked()?);
                Ok(paths)
            }
        }
    }

    /// The tracked paths whose content in the work tree differs from a
    /// commit's (untracked files aside: [`Repo::untracked`]).
    ///
    /// `git diff` would rewrite the index where its stat data is stale
    /// (`GIT_OPTIONAL_LOCKS` notwithstanding); `git diff-index` only reads
    /// it, naming such a file modified, its content unknown (an id of
    /// zeros). Those are hashed as they lie (`hash-object`, no filters run:
    /// it writes nothing) and kept where the id differs from the commit's;
    /// one a filter would make equal stays a change, which the comparison
    /// of the two states then finds alike.
    pub fn tracked_changes(&self, rev: &str) -> Result<BTreeSet<String>, GitError> {
        // A submodule's own work tree is not looked into (it is left
        // aside): git would run its status there, under its own settings.
        let raw = run(&self.root, &["diff-index", "-z", "--no-renames", "--ignore-submodules=dirty", rev, "--"])?;
        let mut changed = BTreeSet::new();
        let mut unknown: Vec<(&[u8], &str)> = Vec::new();
        for entry in raw_entries(&raw) {
            let RawEntry { old_mode, new_mode, old_id, new_id, status, path } = entry;
            let regular = old_mode == "100644" || old_mode == "100755";
            if status == "M"
                && old_mode == new_mode
                && regular
                && is_null_id(new_id)
                // `--stdin-paths` reads one name a line; git would open a
                // FIFO (and wait) or a device.
                && std::str::from_utf8(path).is_ok_and(|p| {
                    !p.contains('\n') && std::fs::symlink_metadata(self.root.join(p)).is_ok_and(|m| m.is_file())
                })
            {
                unknown.push((path, old_id));
            } else {
                changed.insert(String::from_utf8_lossy(path).into_owned());
            }
        }
        if unknown.is_empty() {
            return Ok(changed);
        }
        let paths: Vec<u8> = unknown.iter().flat_map(|(path, _)| path.iter().copied().chain([b'\n'])).collect();
        let hashed = self.hashed_as_they_lie(paths);
        for (i, (path, old_id)) in unknown.into_iter().enumerate() {
            // Unhashed (a file gone meanwhile, a name git reads otherwise): a change.
            if hashed.as_ref().and_then(|ids| ids.get(i)).map_or(true, |id| id != old_id) {
                changed.insert(String::from_utf8_lossy(path).into_owned());
            }
        }
        Ok(changed)
    }

    /// The object id of each work-tree file named (one a line), its bytes
    /// as they are; None when git could not hash them all.
    fn hashed_as_they_lie(&self, paths: Vec<u8>) -> Option<Vec<String>> {
        let (child, feeder) = fed(&self.root, &["hash-object", "--no-filters", "--stdin-paths"], paths).ok()?;
        let output = child.wait_with_output().ok()?;
        feeder.join().ok()?.ok()?;
        output.status.success().then(|| text(output.stdout).lines().map(str::to_owned).collect())
    }

    /// Which files the index tells git not to look at in the work tree,
    /// where `git diff` then says nothing of how the work tree differs.
    pub fn unlooked(&self) -> Result<Unlooked, GitError> {
        // `TAG MODE ID STAGE\tPATH` each.
        let listed = run(&self.root, &["ls-files", "-z", "-v", "-s"])?;
        let mut unlooked = Unlooked::default();
        for entry in listed.split(|&b| b == 0) {
            let Some(tab) = entry.iter().position(|&b| b == b'\t') else { continue };
            let (meta, path) = (&entry[..tab], String::from_utf8_lossy(&entry[tab + 1..]));
            let Some(&tag) = meta.first() else { continue };
            // A lowercase tag marks an assumed entry; `S` (or `s`) a skipped one.
            unlooked.assumed |= tag.is_ascii_lowercase();
            if tag.eq_ignore_ascii_case(&b'S') {
                unlooked.skipped_present |= std::fs::symlink_metadata(self.root.join(&*path)).is_ok();
                unlooked.skipped.insert(path.clone().into_owned());
            }
            if meta.get(2..8) == Some(b"160000") {
                unlooked.submodules.push(path.into_owned());
            } else if path == "SKILL.md" || path.ends_with("/SKILL.md") {
                unlooked.skill_files.insert(path.into_owned());
            }
        }
        Ok(unlooked)
    }

    /// The note for the filter drivers the repository's settings name,
    /// which `diff` never runs ([`quiet_settings`]); none without any. Git
    /// LFS's is not among them: its files are taken from the local store
    /// as a checkout would ([`super::lfs`]).
    pub fn filters_note(&self) -> Option<String> {
        let quiet = quiet_settings(&self.root);
        let named: Vec<&str> = quiet.drivers.iter().map(String::as_str).filter(|d| *d != "lfs").collect();
        let first = named.first()?;
        let (drivers, them) = match named.len() {
            1 => (format!("filter `{first}`"), "it"),
            n => (format!("filters `{first}` and {} more", n - 1), "them"),
        };
        Some(format!(
            "{drivers} set in git's settings not run (diff runs no program a repository names): a revision's files are read as git stores them, without {them}"
        ))
    }

    /// Which of `paths` the sparse checkout's rules take in.
    fn inside_sparse_rules(&self, paths: &[&str]) -> Result<BTreeSet<String>, GitError> {
        self.named_among(&["sparse-checkout", "check-rules", "-z"], paths, &[0])
    }

    /// Which of `paths` (of the work tree, none in the index) git ignores.
    pub fn ignored_among(&self, paths: &[impl AsRef<str>]) -> Result<BTreeSet<String>, GitError> {
        // Exit 1: none is.
        self.named_among(&["check-ignore", "-z", "--stdin"], paths, &[0, 1])
    }

    /// The paths `git ARGS` names of those it reads (NUL-separated) from
    /// its input, when it exits with one of `fine`.
    fn named_among(
        &self,
        args: &[&str],
        paths: &[impl AsRef<str>],
        fine: &[i32],
    ) -> Result<BTreeSet<String>, GitError> {
        let input: Vec<u8> = paths.iter().flat_map(|p| p.as_ref().bytes().chain([0])).collect();
        let (child, feeder) = fed(&self.root, args, input)?;
        let output = child.wait_with_output().map_err(GitError::NoGit)?;
        let _ = feeder.join();
        match output.status.code() {
            Some(code) if fine.contains(&code) => Ok(names(&output.stdout)),
            _ => Err(GitError::Failed {
                args: args.join(" "),
                message: String::from_utf8_lossy(&output.stderr).trim().to_owned(),
            }),
        }
    }

    /// The work tree's untracked files git does not ignore (ignored ones
    /// are the same in every state, [`super::ignored`]), a folder holding
    /// only such files named once. A folder holding no such file is no
    /// change: git's trees hold no folders, only files.
    pub fn untracked(&self) -> Result<BTreeSet<String>, GitError> {
        run(&self.root, &["ls-files", "-z", "--others", "--exclude-standard", "--directory", "--no-empty-directory"])
            .map(|l| names(&l))
    }

    /// Writes a tree's files ([`Repo::tree`], [`Repo::sized`]: a large
    /// file stands in as a sparse one of its size) into `dest`, an empty
    /// folder of ours; `commit` is the revision they are of.
    pub fn write_entries(&self, entries: &[TreeEntry], dest: &Path, commit: &str) -> Result<Written, GitError> {
        let mut written = Written::default();
        let mut wanted: Vec<&TreeEntry> = Vec::new();
        for entry in entries.iter().filter(|e| stays_inside(&e.path)) {
            let target = dest.join(&entry.path);
            if let Some(parent) = target.parent() {
                crate::paths::create_dirs_below(dest, parent)?;
            }
            match entry.mode.as_str() {
                "160000" => {
                    crate::paths::create_dirs_below(dest, &target)?;
                    written.submodules.push(entry.path.clone());
                }
                _ if stood_in(&entry.path, entry.size.unwrap_or(0)) => {
                    std::fs::File::create(&target)?.set_len(entry.size.unwrap_or(0))?;
                    written.not_read.push(entry.path.clone());
                }
                mode => {
                    written.links += usize::from(mode == "120000");
                    wanted.push(entry);
                }
            }
        }
        let pointers;
        (written.missing, pointers) = self.write_blobs(&wanted, dest)?;
        wanted.retain(|e| !written.missing.contains(&e.path));
        self.convert_as_checkout(&wanted, dest, commit)?;
        super::lfs::smudge(self, pointers, dest, &mut written)?;
        Ok(written)
    }

    /// Writes again, as a checkout converts them beyond line endings (the
    /// `ident` and `working-tree-encoding` attributes), the files of
    /// `entries` their attributes name: [`Repo::write_blobs`] wrote the bytes
    /// git stores. Git converts them (`cat-file --filters`), one process
    /// each; filter drivers stay unrun ([`quiet_settings`]). The attributes
    /// are `commit`'s own, as a checkout of it reads them
    /// (`GIT_ATTR_SOURCE`, git 2.42; an older git reads the working tree's).
    fn convert_as_checkout(&self, entries: &[&TreeEntry], dest: &Path, commit: &str) -> Result<(), GitError> {
        let files: Vec<&TreeEntry> = entries.iter().copied().filter(|e| e.mode.starts_with("100")).collect();
        if files.is_empty() {
            return Ok(());
        }
        let args = ["check-attr", "-z", "--stdin", "ident", "working-tree-encoding"];
        let input: Vec<u8> = files.iter().flat_map(|e| e.path.bytes().chain([0])).collect();
        let at_commit = || {
            let mut command = git(&self.root);
            command.env("GIT_ATTR_SOURCE", commit);
            command
        };
        let (child, feeder) = fed_command(at_commit().args(args), input)?;
        let output = child.wait_with_output().map_err(GitError::NoGit)?;
        let _ = feeder.join();
        let listed = succeeded(output, args.join(" "))?;
        // `PATH NUL ATTRIBUTE NUL VALUE NUL` for each path and attribute.
        let fields: Vec<&[u8]> = listed.split(|&b| b == 0).collect();
        let converted: BTreeSet<String> = fields
            .chunks_exact(3)
            .filter(|f| f[2] != b"unspecified" && f[2] != b"unset")
            .map(|f| String::from_utf8_lossy(f[0]).into_owned())
            .collect();
        for entry in files.into_iter().filter(|e| converted.contains(&e.path)) {
            let path = format!("--path={}", entry.path);
            let output =
                at_commit().args(["cat-file", "--filters", &path, &entry.oid]).output().map_err(GitError::NoGit)?;
            std::fs::write(dest.join(&entry.path), succeeded(output, format!("cat-file --filters {path}"))?)?;
        }
        Ok(())
    }

    /// Files `written` stood in for (large, or missing from the objects)
    /// whose copy in the work tree holds what the revision does
    /// (`unchanged`: git names no change there, or the file is one git
    /// ignores, taken from the work tree): copied from the work tree into
    /// `dest` instead, up to [`TAKEN_FROM_WORK_TREE_AT_MOST`] bytes in all,
    /// so the guard scans the same file in both states. The rest stay stood
    /// in for.
    pub fn take_unchanged_stand_ins(&self, dest: &Path, written: &mut Written, unchanged: impl Fn(&str) -> bool) {
        let mut room = TAKEN_FROM_WORK_TREE_AT_MOST;
        let mut take = |rel: &String| {
            if !unchanged(rel) || !stays_inside(rel) {
                return true;
            }
            let from = self.root.join(rel);
            let fits = std::fs::symlink_metadata(&from).is_ok_and(|meta| meta.is_file() && meta.len() <= room);
            // The stand-in goes first: the copy writes a file of our own,
            // never through a link.
            let target = dest.join(rel);
            let taken = fits
                && std::fs::remove_file(&target).is_ok()
                && std::fs::copy(&from, &target).is_ok_and(|bytes| {
                    room -= bytes.min(room);
                    true
                });
            !taken
        };
        written.not_read.retain(&mut take);
        written.missing.retain(&mut take);
        written.lfs_absent.retain(&mut take);
    }

    /// Streams the blobs through one `git cat-file --batch` into their
    /// files; those the objects lack, none deciding a skill, as empty files
    /// (their paths returned), and the Git LFS pointers written.
    fn write_blobs(
        &self,
        entries: &[&TreeEntry],
        dest: &Path,
    ) -> Result<(Vec<String>, Vec<super::lfs::PointerFile>), GitError> {
        let (mut missing, mut pointers) = (Vec::new(), Vec::new());
        if entries.is_empty() {
            return Ok((missing, pointers));
        }
        let symlinks = quiet_settings(&self.root).symlinks;
        let mut batch = CatFile::start(&self.root, "--batch", entries.iter().map(|e| e.oid.as_str()))?;
        let mut header = String::new();
        let mut body = Vec::new();
        for entry in entries {
            header.clear();
            batch.reader.read_line(&mut header)?;
            if header.trim_end().ends_with(" missing") {
                stand_in_for_missing(entry)?;
                std::fs::write(dest.join(&entry.path), b"")?;
                missing.push(entry.path.clone());
                continue;
            }
            let size: usize = header
                .split_whitespace()
                .nth(2)
                .and_then(|s| s.parse().ok())
                .ok_or_else(|| batch.failed(format!("{}: {}", entry.path, header.trim())))?;
            body.resize(size + 1, 0);
            batch.reader.read_exact(&mut body)?;
            let content = &body[..size];
            let target = dest.join(&entry.path);
            if entry.mode == "120000" && symlinks {
                write_symlink(&self.root, &entry.path, content, &target)?;
            } else {
                std::fs::write(&target, content)?;
                if let Some(pointer) = super::lfs::pointer(content) {
                    let (path, mode) = (entry.path.clone(), entry.mode.clone());
                    pointers.push(super::lfs::PointerFile { path, mode, pointer });
                }
                #[cfg(unix)]
                if entry.mode == "100755" {
                    use std::os::unix::fs::PermissionsExt;
                    std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o755))?;
                }
            }
        }
        batch.finish().map(|()| (missing, pointers))
    }
}

/// Whether a file the objects lack may be stood in for by an empty one:
/// not when it decides a skill ([`is_deciding`]) or is a symlink (its
/// target is its content).
fn stand_in_for_missing(entry: &TreeEntry) -> Result<(), GitError> {
    match is_deciding(&entry.path) || entry.mode == "120000" {
        true => Err(GitError::Missing { path: entry.path.clone(), oid: entry.oid.clone() }),
        false => Ok(()),
    }
}

/// One `git cat-file` answering for object ids it is fed from another
/// thread (git answers while it reads, so neither pipe fills up).
struct CatFile {
    args: String,
    child: std::process::Child,
    feeder: std::thread::JoinHandle<std::io::Result<()>>,
    reader: BufReader<std::process::ChildStdout>,
}

impl CatFile {
    fn start<'a>(repo: &Path, batch: &str, ids: impl Iterator<Item = &'a str>) -> Result<CatFile, GitError> {
        let ids: Vec<u8> = ids.flat_map(|id| [id.as_bytes(), b"\n"]).flatten().copied().collect();
        let (mut child, feeder) = fed(repo, &["cat-file", batch], ids)?;
        let reader = BufReader::with_capacity(1 << 16, child.stdout.take().expect("piped stdout"));
        Ok(CatFile { args: format!("cat-file {batch}"), child, feeder, reader })
    }

    fn failed(&self, message: String) -> GitError {
        GitError::Failed { args: self.args.clone(), message }
    }

    /// Waits for git, whose failure (its stderr) is the answer's.
    fn finish(self) -> Result<(), GitError> {
        let CatFile { args, child, feeder, reader } = self;
        drop(reader);
        let _ = feeder.join();
        let output = child.wait_with_output()?;
        match output.status.success() {
            true => Ok(()),
            false => Err(GitError::Failed { args, message: String::from_utf8_lossy(&output.stderr).trim().to_owned() }),
        }
    }
}

/// `git ARGS` in `repo` with `input` on its standard input, fed from
/// another thread (git answers while it reads, so neither pipe fills up).
pub(super) fn fed(
    repo: &Path,
    args: &[&str],
    input: Vec<u8>,
) -> Result<(std::process::Child, std::thread::JoinHandle<std::io::Result<()>>), GitError> {
    fed_command(git(repo).args(args), input)
}

/// [`fed`], for a command made ready.
fn fed_command(
    command: &mut Command,
    input: Vec<u8>,
) -> Result<(std::process::Child, std::thread::JoinHandle<std::io::Result<()>>), GitError> {
    let mut child =
        command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().map_err(GitError::NoGit)?;
    let mut stdin = child.stdin.take().expect("piped stdin");
    let feeder = std::thread::spawn(move || stdin.write_all(&input));
    Ok((child, feeder))
}

/// Writes the symlink `rel` (below the work tree `root`) to `link` in a
/// copy, leading where it leads from `root` ([`target_from_copy`]).
#[cfg(unix)]
fn write_symlink(root: &Path, rel: &str, target_bytes: &[u8], link: &Path) -> std::io::Result<()> {
    use std::os::unix::ffi::OsStrExt;
    symlink(&target_from_copy(root, rel, Path::new(std::ffi::OsStr::from_bytes(target_bytes))), link)
}

#[cfg(not(unix))]
fn write_symlink(_root: &Path, _rel: &str, target_bytes: &[u8], link: &Path) -> std::io::Result<()> {
    std::fs::write(link, target_bytes)
}

/// Where a copy's symlink `rel` leads to lead where it does in the work
/// tree `root`: a relative target that stays inside the tree as it is (a
/// checkout of the revision puts the revision's file there); one that
/// leaves it, from the work tree's folder (the copy lies elsewhere).
pub(super) fn target_from_copy(root: &Path, rel: &str, target: &Path) -> PathBuf {
    let from = Path::new(rel).parent().unwrap_or(Path::new(""));
    match target.is_relative() && crate::paths::lexical_within(&from.join(target)).is_none() {
        true => root.join(rel).parent().unwrap_or(root).join(target),
        false => target.to_path_buf(),
    }
}

#[cfg(unix)]
pub(super) fn symlink(target: &Path, link: &Path) -> std::io::Result<()> {
    std::os::unix::fs::symlink(target, link)
}

#[cfg(not(unix))]
pub(super) fn symlink(target: &Path, link: &Path) -> std::io::Result<()> {
    std::fs::write(link, target.to_string_lossy().as_bytes())
}

/// A tree's path that cannot lead out of the folder it is written to (git
/// refuses others, but a tree object may still hold one).
pub(super) fn stays_inside(path: &str) -> bool {
    !path.is_empty()
        && !path.starts_with('/')
        && path.split('/').all(|part| !part.is_empty() && part != ".." && part != ".")
}

/// About how much room writing `entries` takes: their bytes (large files
/// stand in as sparse files) and a block for each.
pub fn room_needed(entries: &[TreeEntry]) -> u64 {
    entries.iter().map(|e| e.size.filter(|&s| !stood_in(&e.path, s)).unwrap_or(0) + 4096).sum()
}

/// Files that decide what Hermes makes of a skill or a home: always read,
/// whatever their size.
pub fn is_deciding(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.ends_with(".md") || name.ends_with(".yaml") || name.ends_with(".yml") || name.ends_with(".toml")
}

/// `<mode> SP <type> SP <object> SP+ <size> TAB <path>`.
fn parse_tree_line(line: &[u8]) -> Option<TreeEntry> {
    let tab = line.iter().position(|&b| b == b'\t')?;
    let head = std::str::from_utf8(&line[..tab]).ok()?;
    let path = String::from_utf8_lossy(&line[tab + 1..]).into_owned();
    let mut fields = head.split_whitespace();
    let mode = fields.next()?.to_owned();
    let _kind = fields.next()?;
    let oid = fields.next()?.to_owned();
    let size = fields.next().and_then(|s| s.parse().ok());
    Some(TreeEntry { mode, oid, size, path })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_leaving_the_tree_leads_where_it_does_from_the_work_tree() {
        let root = Path::new("/work/repo");
        let from_copy = |rel: &str, target: &str| target_from_copy(root, rel, Path::new(target));
        assert_eq!(from_copy("skills/a/link", "../b/x.md"), Path::new("../b/x.md"));
        assert_eq!(from_copy("skills/a/link", "../../top.md"), Path::new("../../top.md"));
        assert_eq!(from_copy("skills/a/link", "../../../vendor"), Path::new("/work/repo/skills/a/../../../vendor"));
        assert_eq!(from_copy("link", "a/../../x"), Path::new("/work/repo/a/../../x"));
        assert_eq!(from_copy("skills/link", "/opt/shared"), Path::new("/opt/shared"));
    }

    #[test]
    fn tree_lines_parse() {
        let line = b"100644 blob 3b18e512dba79e4c8300dd08aeb37f8e728b8dad      12\tskills/a b/SKILL.md";
        let entry = parse_tree_line(line).unwrap();
        assert_eq!(entry.mode, "100644");
        assert_eq!(entry.size, Some(12));
        assert_eq!(entry.path, "skills/a b/SKILL.md");
        let sub = parse_tree_line(b"160000 commit 3b18e512dba79e4c8300dd08aeb37f8e728b8dad       -\tvendor/x").unwrap();
        assert_eq!(sub.size, None);
    }

    #[test]
    fn paths_that_would_leave_the_folder_are_not_written() {
        assert!(stays_inside("skills/a/SKILL.md"));
        for bad in ["../x", "a/../../x", "/etc/passwd", "a//b", "./a", ""] {
            assert!(!stays_inside(bad), "{bad}");
        }
    }

    #[test]
    fn deciding_files_are_read_whatever_their_size() {
        assert!(is_deciding("skills/a/SKILL.md"));
        assert!(is_deciding("config.yaml"));
        assert!(!is_deciding("skills/a/assets/video.mp4"));
    }

    #[test]
    fn only_large_files_nothing_reads_are_stood_in() {
        let (large, huge) = (LARGE_BLOB_BYTES + 1, crate::guard::MAX_SCANNED_BYTES + 1);
        assert!(stood_in("skills/a/assets/video.mp4", large));
        assert!(!stood_in("skills/a/assets/video.mp4", LARGE_BLOB_BYTES));
        assert!(!stood_in("skills/a/SKILL.md", huge));
        // Scripts the guard scans, up to what it reads.
        assert!(!stood_in("skills/a/scripts/run.SH", large));
        assert!(!stood_in("skills/a/scripts/run", large));
        assert!(stood_in("skills/a/scripts/run.sh", huge));
    }
}
