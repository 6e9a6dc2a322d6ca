//! A home compared with what it was at a git revision: the revision's tree
//! written from git's objects into a temporary folder of our own, and both
//! states answered by the engine ([`crate::engine::diff`]). Shared by
//! `skillscope diff` and the browser's `--since`.

use crate::engine::check::run::{resolve, Overrides};
use crate::engine::check::Policy;
use crate::engine::diagnostics::Severity;
use crate::engine::diff::git::{self, Repo, Written};
use crate::engine::diff::unread::{PathKind, Unread};
use crate::engine::diff::{self, DiffReport, ReadOptions, SkillChange, State, Touched};
use crate::engine::{listing, paths};
use crate::open::FolderKind;
use crate::scratch::ScratchDir;
use std::borrow::Cow;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// A revision compared with the home an engine shows: the browser's
/// `--since`.
#[derive(Debug, Clone, PartialEq)]
pub struct SinceAnswer {
    pub rev: String,
    pub report: DiffReport,
    /// Each changed skill's SKILL.md diff (the revision's against now), by
    /// its SKILL.md now; empty when the file is the same.
    pub skill_md_diff: std::collections::HashMap<PathBuf, String>,
    /// Each changed skill's place in the report, by its SKILL.md now (the
    /// tree asks for every row it draws).
    changed_at: std::collections::HashMap<PathBuf, usize>,
    /// Skills the revision has and the home no longer does: name, folder,
    /// SKILL.md diff.
    pub removed: Vec<(String, String, String)>,
}

impl SinceAnswer {
    /// How the skill whose SKILL.md is `path` changed since the revision.
    pub fn change_of(&self, path: &Path) -> Option<&SkillChange> {
        self.changed_at.get(path).map(|&i| &self.report.skills[i])
    }

    /// The SKILL.md diffs of skills whose file changed though nothing the
    /// agent gets did (a skill hidden here, an edit no answer shows): each
    /// pair the revision's file and the one now, the first absent where
    /// the revision has none.
    /// The answer with paths under `real` named under `shown` instead, as
    /// the browser's engine names its skills.
    fn shown_at(mut self, real: &Path, shown: &Path) -> SinceAnswer {
        let at = |path: PathBuf| match path.strip_prefix(real) {
            Ok(rest) if !rest.as_os_str().is_empty() => shown.join(rest),
            _ => path,
        };
        for skill in &mut self.report.skills {
            skill.files = (skill.files.0.take().map(at), skill.files.1.take().map(at));
        }
        self.skill_md_diff = self.skill_md_diff.into_iter().map(|(path, diff)| (at(path), diff)).collect();
        self.changed_at = self.changed_at.into_iter().map(|(path, i)| (at(path), i)).collect();
        self
    }

    fn add_quiet_diffs(&mut self, pairs: Vec<(PathBuf, PathBuf)>) {
        for (was, now) in pairs {
            if self.skill_md_diff.contains_key(&now) {
                continue;
            }
            let (Ok(after), before) = (std::fs::read_to_string(&now), std::fs::read_to_string(&was)) else { continue };
            let before = before.unwrap_or_default();
            if before != after {
                self.skill_md_diff.insert(now, diff::unified(&before, &after, &self.rev, "now"));
            }
        }
    }
}

/// How a revision compared with the working tree is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reading {
    /// From the working tree's walk, the skill folders that differ read
    /// from their copy ([`against_worktree`]), where that can stand for
    /// the revision; else whole.
    Overlaid,
    /// The revision's whole tree written and walked.
    Whole,
}

/// Compares the home `engine` shows (its folder of skills `folder`, the
/// home itself when it is one) with what it was at `rev`.
///
/// Both states list folders in one order, as `diff` does: the revision's
/// copy lies on another filesystem than the working tree. Only this
/// thread and those it starts do; the browser's views, on others, keep the
/// filesystem's order the agent sees.
pub fn since(engine: &crate::engine::Engine, folder: &Path, rev: &str) -> Result<SinceAnswer, String> {
    listing::in_order(listing::Order::Fnv1a, || since_reading(engine, folder, rev, Reading::Overlaid))
}

/// [`since`], the revision read as `reading` says.
pub fn since_reading(
    engine: &crate::engine::Engine,
    folder: &Path,
    rev: &str,
    reading: Reading,
) -> Result<SinceAnswer, String> {
    let given = folder;
    let folder = folder.canonicalize().map_err(|e| format!("{}: {e}", folder.display()))?;
    // A home reached through a symlink (`~/.hermes` into a dotfiles
    // repository, a home folder through a link) is compared at its real
    // path, as `diff --home` reads it, then its skills named as shown.
    if folder != given && engine.home.root == given {
        let at_real = crate::engine::Engine::new(folder.clone(), engine.env.clone(), engine.options.clone());
        let answer = since_reading(&at_real, &folder, rev, reading)?;
        return Ok(answer.shown_at(&folder, given));
    }
    let repo = Repo::discover(&folder).map_err(|e| e.to_string())?;
    let commit = since_commit(&repo, rev)?;
    if reading == Reading::Overlaid {
        if let Some(overlaid) = against_worktree(engine, &repo, &commit, None, &folder, Severity::Warning) {
            let overlaid = overlaid?;
            // Read while the copy is there.
            let quiet = overlaid.skill_md_pairs();
            let mut answer = since_answer(rev, overlaid.report);
            answer.add_quiet_diffs(quiet);
            return Ok(answer);
        }
    }
    let repo_root = repo.root.canonicalize().unwrap_or_else(|_| repo.root.clone());
    let rel = folder.strip_prefix(&repo_root).unwrap_or(Path::new("")).to_path_buf();
    let changed = ChangedPaths::start(&repo, &commit, None);
    let (tree, mut copied) = read_revision(&repo, &commit, &real_roots(engine), true)?;
    let changed = changed.finish();
    if let Some(changed) = &changed {
        repo.take_unchanged_stand_ins(tree.path(), &mut copied, |rel| !changed.contains(rel));
    }
    let written = tree.path().canonicalize().map_err(|e| e.to_string())?;
    // Joined with an empty `rel`, a path would end in `/`, and so would the
    // paths Hermes writes from it (`{home}//config.yaml`).
    let before_folder = paths::normalize(&written.join(&rel));
    let stand_in = match crate::open::classify(&before_folder) {
        FolderKind::Home => None,
        kind => Some(crate::open::StandInHome::create(&before_folder, kind).map_err(|e| e.to_string())?),
    };
    let before_root = stand_in.as_ref().map_or_else(|| before_folder.clone(), |s| s.home());
    let mut before_engine = crate::engine::Engine::new(before_root, engine.env.clone(), engine.options.clone());
    let shown = stand_in.is_some().then_some(before_folder.as_path());
    let externals = externals_at(&mut before_engine, Some(rev), shown, (&repo_root, &written));
    let mut written_as = externals.written_as.clone();
    written_as.push((written.clone(), repo_root.clone()));
    // Messages naming the revision's stand-in home (its config.yaml) name
    // the one `engine` reads.
    if let Some(stand_in) = &stand_in {
        written_as.push((stand_in.home(), engine.home.root.clone()));
    }
    let before = Side { engine: &before_engine, home: &before_folder, root: &written, written_as };
    let after = Side { engine, home: &folder, root: &repo_root, written_as: Vec::new() };
    let top = (repo_root.as_path(), !copied.may_hold_links());
    let report = compare_sides(before, after, &changed, top, &folder, Severity::Warning)?;
    let mut answer = since_answer(rev, report);
    let changed_skill_mds = changed.iter().flatten().filter(|p| *p == "SKILL.md" || p.ends_with("/SKILL.md"));
    answer.add_quiet_diffs(changed_skill_mds.map(|rel| (written.join(rel), repo_root.join(rel))).collect());
    Ok(answer)
}

/// The commit `--since` compares with: a revision, or the merge base of
/// `A...B` as `git diff` reads it (an empty side is `HEAD`).
fn since_commit<'a>(repo: &Repo, rev: &'a str) -> Result<String, String> {
    let Some((a, b)) = rev.split_once("...") else {
        if let Some((a, _)) = rev.split_once("..") {
            let one = if a.is_empty() { "HEAD" } else { a };
            return Err(format!(
                "{rev} names two revisions; the marks compare one with the working tree: give {one}, or A...B for their merge base"
            ));
        }
        return repo.commit(rev).map_err(|e| e.to_string());
    };
    let side = |r: &'a str| if r.is_empty() { "HEAD" } else { r };
    repo.base_of(side(a), side(b)).map_err(|e| e.to_string())
}

/// The browser's answer from a report, each changed skill's SKILL.md diff
/// read while the revision's files are at hand (off the UI thread).
fn since_answer(rev: &str, report: DiffReport) -> SinceAnswer {
    let read = |p: &Option<PathBuf>| p.as_deref().and_then(|p| std::fs::read_to_string(p).ok()).unwrap_or_default();
    let mut skill_md_diff = std::collections::HashMap::new();
    let mut changed_at = std::collections::HashMap::new();
    let mut removed = Vec::new();
    for (i, skill) in report.skills.iter().enumerate() {
        let text = diff::unified(&read(&skill.files.0), &read(&skill.files.1), rev, "now");
        match &skill.files.1 {
            Some(now) => {
                skill_md_diff.insert(now.clone(), text);
                changed_at.entry(now.clone()).or_insert(i);
            }
            None => removed.push((skill.name.clone(), skill.folder.clone(), text)),
        }
    }
    SinceAnswer { rev: rev.to_owned(), report, skill_md_diff, changed_at, removed }
}

/// One state to compare: its engine, the folder compared in it, the top
/// its files stand under (where a revision was written, or the
/// repository's), and the written folders it names as others.
pub struct Side<'a> {
    pub engine: &'a crate::engine::Engine,
    pub home: &'a Path,
    pub root: &'a Path,
    pub written_as: Vec<(PathBuf, PathBuf)>,
}

/// Reads both states side by side and compares them: each skill's own
/// rules run on the skills the change touched, findings at `min` and up.
pub fn compare_sides<'a>(
    before: Side<'a>,
    after: Side<'a>,
    changed: &Option<std::collections::BTreeSet<String>>,
    (repo_root, no_links): (&Path, bool),
    folder: &Path,
    min: Severity,
) -> Result<DiffReport, String> {
    let trees = [before.root, after.root];
    // A message whose inline shell runs may read any file: every skill's
    // message is compared.
    let shell = before.engine.options.allow_inline_shell || after.engine.options.allow_inline_shell;
    let read = |side: Side<'a>| -> Result<State<'a>, String> {
        let overrides = Overrides { min_severity: Some(min), ..Overrides::default() };
        let mut policy = resolve(&overrides, side.home).map_err(|e| e.to_string())?.policy;
        policy.only = skill_filter(changed.as_ref().filter(|_| no_links), &trees, side.root);
        let options = ReadOptions { policy, posture_cwd: std::env::current_dir().ok(), ..ReadOptions::default() };
        State::read(side.engine, &options, side.written_as)
            .map_err(|e| format!("Hermes fails to build the skills index: {e}"))
    };
    // Each walk waits on the disk and on parts that run on one thread.
    let (before, after) = std::thread::scope(|scope| {
        let before = scope.spawn(listing::carried(|| read(before)));
        let after = read(after);
        (before.join().unwrap_or_else(|_| Err("reading the earlier state failed".to_owned())), after)
    });
    let (before, after) = (before?, after?);
    let touched = if shell { Touched::All } else { touched(changed, [&before, &after], repo_root, no_links) };
    Ok(diff::compare(&before, &after, folder, &touched))
}

/// Two revisions, or a revision and the working tree, compared from one
/// walk of the working tree ([`against_worktree`]); the written copies of
/// the skill folders that differ are removed when this is dropped.
pub struct Overlaid<'a> {
    pub report: DiffReport,
    /// What writing each copy left out.
    pub written: Vec<Written>,
    _copies: Vec<ScratchDir>,
    /// The two states compared.
    states: Box<[State<'a>; 2]>,
}

impl Overlaid<'_> {
    /// Each skill read from a revision's copy: where its SKILL.md was
    /// written, and the file it stands for.
    fn skill_md_pairs(&self) -> Vec<(PathBuf, PathBuf)> {
        let before = &self.states[0];
        let copied = before.catalog.skills.iter().filter_map(|skill| {
            before.written_as.iter().find_map(|(written, real)| {
                let rest = skill.skill_md.strip_prefix(written).ok()?;
                Some((skill.skill_md.clone(), real.join(rest)))
            })
        });
        copied.collect()
    }

    /// The report and what writing left out, the copies removed and the
    /// states left for the process's end to free: a command about to exit
    /// need not free two whole catalogs piece by piece.
    pub fn into_report_at_exit(self) -> (DiffReport, Vec<Written>) {
        let Overlaid { report, written, _copies, states } = self;
        drop(_copies);
        std::mem::forget(states);
        (report, written)
    }
}

/// A revision as the working tree's walk stands for it: the paths where
/// the two differ, the skill folders holding them (read from the
/// revision's copy), and the revision's files there.
struct Near {
    /// The revision (its commit).
    rev: String,
    changed: BTreeSet<String>,
    regions: BTreeSet<String>,
    wanted: Vec<git::TreeEntry>,
    /// Submodules outside those folders: read as the working tree has them.
    submodules: Vec<String>,
    /// The home under the revision's config.yaml, where it differs from
    /// the working tree's ([`with_revision_config`]).
    engine: Option<crate::engine::Engine>,
}

/// Whether two homes' settings are the same but for which skills are
/// disabled (`skills.disabled`, `skills.platform_disabled`).
fn differ_in_disabled_alone(a: &crate::engine::home::Home, b: &crate::engine::home::Home) -> bool {
    use crate::engine::value::{Map, Value};
    let without = |config: &Map| {
        let mut config = config.clone();
        if let Some(Value::Map(skills)) = config.get_mut("skills") {
            skills.shift_remove("disabled");
            skills.shift_remove("platform_disabled");
        }
        config
    };
    without(&a.raw_config) == without(&b.raw_config) && without(&a.merged_config) == without(&b.merged_config)
}

/// The home's config.yaml, relative to the repository's top, when the
/// repository holds the home.
fn home_config(worktree: &crate::engine::Engine, repo_root: &Path) -> Option<String> {
    let home = worktree.home.root.canonicalize().ok()?;
    let rel = home.strip_prefix(repo_root).ok()?.join("config.yaml");
    Some(crate::engine::paths::rel_string(&rel))
}

/// The home `worktree` shows with the config.yaml a revision's tree
/// (`entries`) holds at `rel` (a file, or none): its engine, when those
/// settings leave the walk as it is — the same external dirs, the same
/// toolsets (skills gated on kanban), the same default backend, the same
/// problem, if any — and the working tree's config.yaml is a file or none.
/// None: the revision is read whole.
fn with_revision_config(
    worktree: &crate::engine::Engine,
    repo: &Repo,
    entries: &[git::TreeEntry],
    rel: &str,
) -> Option<crate::engine::Engine> {
    let worktree_file = repo.root.join(rel);
    if std::fs::symlink_metadata(&worktree_file).is_ok_and(|meta| !meta.is_file()) {
        return None;
    }
    let bytes = match entries.iter().find(|e| e.path == rel) {
        None => None,
        Some(e) if e.mode == "100644" || e.mode == "100755" => Some(repo.blob(&e.oid).ok()?),
        Some(_) => return None,
    };
    let (env, now) = (&worktree.env, &worktree.home);
    let home = now.with_config(bytes, env);
    let backend = |home: &crate::engine::home::Home| crate::engine::sandbox::default_backend(home, env).ok();
    let same_walk = home.external_dirs == now.external_dirs
        && home.merged_config.get("toolsets") == now.merged_config.get("toolsets")
        && home.config_problem == now.config_problem
        && backend(&home).is_some_and(|b| Some(b) == backend(now));
    same_walk.then(|| crate::engine::Engine { home, env: env.clone(), options: worktree.options.clone() })
}

/// Compares what the home `worktree` shows (its folder of skills `folder`,
/// in the working tree of `repo`) at the commit `from` with the same at
/// `to` (default: the working tree), walking the working tree once: each
/// revision's state is the working tree's walk with the skill folders that
/// differ from it taken from a copy of them written from git's objects
/// ([`diff::State::overlaid`]); each skill's own rules run on the skills in
/// those folders, in both states. None when that cannot stand for a
/// revision, which is then to be written whole: git does not say what
/// changed, a changed path lies outside every skill folder where something
/// reads it (config.yaml, a bundle, a category's description: any skill may
/// change; paths nothing reads are left aside, [`Unread`]), a folder that
/// differs holds a symlink, tracked or ignored (it may point at what only
/// the whole tree holds), a symlink elsewhere leads into such a folder (it
/// would read the working tree's in both states), a path was left aside
/// while a revision's tree or the files git ignores hold a symlink (a
/// skill's may lead to it), a root lies outside the repository or is not in
/// the revision,
/// the backend is remote (paths inside the sandbox follow the roots),
/// inline shell may run (`--inline-shell`: a snippet may read any file), or
/// a folder differs in the later revision and not in the earlier.
pub fn against_worktree<'a>(
    worktree: &'a crate::engine::Engine,
    repo: &Repo,
    from: &str,
    to: Option<&str>,
    folder: &Path,
    min: Severity,
) -> Option<Result<Overlaid<'a>, String>> {
    let repo_root = repo.root.canonicalize().unwrap_or_else(|_| repo.root.clone());
    // A root elsewhere is the same in both states only when it holds
    // nothing (a stand-in home's skills dir); another may be a repository
    // of its own, read at the revision.
    let roots: Vec<PathBuf> =
        worktree.home.scan_dirs().into_iter().filter(|r| r.starts_with(&repo_root) || !is_empty_dir(r)).collect();
    // Inline shell a message runs may read any file, in any folder.
    let shell = worktree.options.allow_inline_shell;
    if shell || worktree.options.backend.is_remote() || !roots.iter().all(|r| r.starts_with(&repo_root)) {
        return None;
    }
    // Git answers while the working tree is walked: the untracked files on
    // one thread, each revision's changes and files on another.
    let untracked = {
        let (repo, later) = (repo.clone(), to.map(str::to_owned));
        // Untracked files make the working tree differ from the later
        // revision too, whose files are then wanted: asked for here, while
        // the walk goes on.
        std::thread::spawn(move || -> Result<_, git::GitError> {
            let untracked = repo.untracked()?;
            let later_tree = match later {
                Some(later) if !untracked.is_empty() => Some(repo.tree(&later)?),
                _ => None,
            };
            Ok((untracked, later_tree))
        })
    };
    let revisions = {
        let (repo, revs): (Repo, Vec<String>) =
            (repo.clone(), std::iter::once(from).chain(to).map(str::to_owned).collect());
        std::thread::spawn(move || -> Result<_, git::GitError> {
            // Where git does not look at the work tree, the work tree's
            // walk may stand for no revision: each is read whole.
            let unlooked = repo.unlooked()?;
            if !unlooked.walk_stands_for_revisions(revs.len() > 1) {
                return Ok(None);
            }
            let (earlier, mut entries) = (revs[0].clone(), repo.tree(&revs[0])?);
            let Some(later) = revs.get(1) else {
                // What a sparse checkout leaves out is no change.
                let changed = repo.tracked_changes(&earlier)?;
                let sparse = unlooked.outside_checkout(&repo, changed.iter().map(String::as_str));
                entries.retain(|e| !sparse.contains(&e.path));
                let (left_aside, changed): (BTreeSet<String>, _) =
                    changed.into_iter().partition(|p| sparse.contains(p));
                let sparse = left_aside.into_iter().collect();
                return Ok(Some((vec![(changed, earlier, Some(entries))], None, sparse, unlooked)));
            };
            let between = repo.changed_paths(&earlier, Some(later))?;
            let from_later = repo.tracked_changes(later)?;
            // The working tree differs from the earlier revision at most
            // where it differs from the later one or the later from the
            // earlier (exactly there in a checkout of the later): one
            // comparison of every file less. The later revision's files are
            // asked for only when it differs from the working tree.
            let from_earlier = between.union(&from_later).cloned().collect();
            let sides = vec![(from_earlier, earlier, Some(entries)), (from_later, later.clone(), None)];
            Ok(Some((sides, Some(between), Vec::new(), unlooked)))
        })
    };
    let overrides = Overrides { min_severity: Some(min), ..Overrides::default() };
    let policy = match resolve(&overrides, folder) {
        Ok(resolved) => resolved.policy,
        Err(e) => return Some(Err(e.to_string())),
    };
    let options = ReadOptions { policy, posture_cwd: std::env::current_dir().ok(), ..ReadOptions::default() };
    let walked = State::walk(worktree, &options);
    let (mut untracked, mut later_tree) = untracked.join().ok()?.ok()?;
    // Git lists no file of a folder it cannot list (another user's), nor
    // the folder: where no revision has it, the walk's finding that it
    // cannot be listed is the working tree's alone.
    let unlisted_folders: Vec<String> = walked
        .unlisted_folders()
        .filter_map(|dir| paths::strip_prefix(dir, &repo_root).map(crate::engine::paths::rel_string))
        .filter(|rel| !rel.is_empty() && !covered(rel, &untracked))
        .collect();
    if !unlisted_folders.is_empty() {
        let ignored = repo.ignored_among(&unlisted_folders).ok()?;
        untracked.extend(unlisted_folders.into_iter().filter(|rel| !ignored.contains(rel)));
    }
    let (revisions, between, sparse, index) = revisions.join().ok()?.ok()??;
    // A skill the walk found that git neither tracks nor calls untracked:
    // one git ignores is where the agent runs, the same in every state
    // (said in a note); any other git cannot tell from a tracked file (a
    // name that differs only in case, where git ignores case) or does not
    // see (a FIFO), and the revision is read whole, as itself.
    let mut unlisted = Vec::new();
    for skill_md in walked.skill_files() {
        let Some(rel) = paths::strip_prefix(skill_md, &repo_root).map(crate::engine::paths::rel_string) else {
            continue;
        };
        if !index.skill_files.contains(&rel) && !covered(&rel, &untracked) {
            unlisted.push(rel);
        }
    }
    // Not those in a submodule. Those reached through a symlink are the
    // link's: the same in both states where git ignores the link (named
    // in the note too), else as the link is in each.
    let submodules: BTreeSet<String> = index.submodules.iter().cloned().collect();
    unlisted.retain(|rel| !covered(rel, &submodules));
    let (linked, unlisted): (Vec<(String, Option<String>)>, _) = unlisted
        .into_iter()
        .map(|rel| {
            let link = symlink_on_the_way(&repo_root, &rel);
            (rel, link)
        })
        .partition(|(_, link)| link.is_some());
    let unlisted: Vec<String> = unlisted.into_iter().map(|(rel, _)| rel).collect();
    let mut ignored_skills = match unlisted.is_empty() {
        true => Vec::new(),
        false => {
            let ignored = repo.ignored_among(&unlisted).ok()?;
            if unlisted.iter().any(|rel| !ignored.contains(rel)) {
                return None;
            }
            unlisted
        }
    };
    if !linked.is_empty() {
        let links: Vec<String> = linked.iter().filter_map(|(_, link)| link.clone()).collect();
        let ignored = repo.ignored_among(&links).ok()?;
        let through_ignored = |(rel, link): (String, Option<String>)| link.filter(|l| ignored.contains(l)).map(|_| rel);
        ignored_skills.extend(linked.into_iter().filter_map(through_ignored));
    }
    let root_rels: Vec<String> = roots
        .iter()
        .map(|r| crate::engine::paths::rel_string(r.strip_prefix(&repo_root).unwrap_or(Path::new(""))))
        .collect();
    // Each revision's files, where a change is to be placed.
    let mut resolved = Vec::new();
    for (tracked, rev, entries) in revisions {
        let mut changed = tracked;
        changed.extend(untracked.iter().cloned());
        let entries = match entries.or_else(|| later_tree.take()) {
            Some(entries) => Some(entries),
            None if changed.is_empty() => None,
            None => Some(repo.tree(&rev).ok()?),
        };
        resolved.push((changed, rev, entries));
    }
    // The folder is read as the working tree has it (a home, a folder of
    // skills, one skill): a revision whose checkout would be read as
    // another is read whole, as itself.
    let folder_rel = paths::rel_string(paths::strip_prefix(folder, &repo_root)?);
    let inside = if folder_rel.is_empty() { String::new() } else { format!("{folder_rel}/") };
    let kind = crate::open::classify(folder);
    for entries in resolved.iter().filter_map(|(_, _, entries)| entries.as_ref()) {
        let files = || entries.iter().filter(|e| e.path.starts_with(inside.as_str()));
        // A submodule's skills are no tree's: read as the working tree has them.
        if files().any(|e| e.mode == "160000") {
            continue;
        }
        if crate::open::classify_files(files().filter_map(|e| e.path.strip_prefix(inside.as_str()))) != kind {
            return None;
        }
    }
    // A revision whose config.yaml differs reads the same walk under its
    // own settings: an engine of its own, when they leave what is walked
    // and how as it is; else the revision is read whole.
    let config_rel = home_config(worktree, &repo_root);
    let mut engines = Vec::new();
    let mut configs_differ = false;
    for (changed, _, entries) in &mut resolved {
        let engine = match &config_rel {
            Some(rel) if changed.remove(rel) => {
                configs_differ = true;
                Some(with_revision_config(worktree, repo, entries.as_deref().unwrap_or_default(), rel)?)
            }
            _ => None,
        };
        engines.push(engine);
    }
    // The names the answers look skills up by tell which `*.md` files
    // beside the skill folders nothing reads; gathered (a pass over every
    // skill) only when such a file may be among the changes.
    let unread = Unread::new(&worktree.home, &worktree.env, &roots);
    let markdown = |p: &String| {
        (p.ends_with(".md") && !p.ends_with("/SKILL.md")) || (untracked.contains(p) && repo_root.join(p).is_dir())
    };
    let unread = match resolved.iter().any(|(changed, _, _)| changed.iter().any(markdown)) {
        false => unread,
        true => {
            let revision_skills =
                resolved.iter().flat_map(|(_, _, entries)| entries.iter().flatten()).filter_map(|e| {
                    let folder = if e.path == "SKILL.md" { Some("") } else { e.path.strip_suffix("/SKILL.md") };
                    folder.map(|folder| repo_root.join(folder))
                });
            let skill_dirs: Vec<PathBuf> = walked
                .skill_files()
                .filter_map(|md| md.parent().map(Path::to_path_buf))
                .chain(revision_skills)
                .collect();
            let bundles = worktree.bundles();
            let members = bundles.bundles.values().flat_map(|b| b.skills.iter().map(String::as_str));
            unread.knowing_lookups(skill_dirs.iter().map(PathBuf::as_path), members)
        }
    };
    let mut sides = Vec::new();
    // Paths nothing reads left out, and whether a revision's tree holds a
    // symlink: a skill's link may lead to such a path, which then matters.
    let (mut left_out, mut linked, mut unseen) = (false, false, Vec::new());
    let mut aside = BTreeSet::new();
    let mut links: BTreeSet<String> = BTreeSet::new();
    let mut tracked_skills: std::collections::HashSet<String> = std::collections::HashSet::new();
    for (changed, rev, entries) in resolved {
        let entries = entries.unwrap_or_else(|| {
            unseen.push(rev.clone());
            Vec::new()
        });
        let rooted = |rel: &String| rel.is_empty() || entries.iter().any(|e| e.path.starts_with(&format!("{rel}/")));
        if !changed.is_empty() && !root_rels.iter().all(rooted) {
            return None;
        }
        let Differing { regions, kept, aside: left_aside } =
            differing_folders(&repo_root, &changed, &entries, &unread)?;
        aside.extend(left_aside);
        left_out |= !changed.is_subset(&kept);
        links.extend(entries.iter().filter(|e| e.mode == "120000").map(|e| e.path.clone()));
        tracked_skills.extend(entries.iter().filter(|e| e.path.ends_with("/SKILL.md")).map(|e| e.path.clone()));
        linked |= !links.is_empty();
        let changed = kept;
        // Asked of every path of the tree: by hash.
        let folders: paths::FolderSet = regions.iter().cloned().collect();
        let (wanted, rest): (Vec<git::TreeEntry>, Vec<git::TreeEntry>) =
            entries.into_iter().partition(|e| folders.covers(&e.path));
        let submodules = rest.into_iter().filter(|e| e.mode == "160000").map(|e| e.path).collect();
        // A symlink in a copy may point at what only a whole tree holds.
        if wanted.iter().any(|e| e.mode == "120000") {
            return None;
        }
        sides.push(Near { rev, changed, regions, wanted, submodules, engine: None });
    }
    // So may one lead to config.yaml, read as the working tree's in both
    // states where a revision's settings differ.
    if left_out || configs_differ {
        for rev in unseen {
            linked |= repo.tree(&rev).ok()?.iter().any(|e| e.mode == "120000");
        }
        // A symlink git ignores may lead there too (one git names; what an
        // ignored folder holds is not looked into).
        linked |= repo.ignored(&[]).ok()?.iter().any(|p| repo_root.join(p).is_symlink());
        if linked {
            return None;
        }
    }
    // A symlink outside the folders that differ that leads into one would
    // read it from the working tree in both states.
    let regions: BTreeSet<String> = sides.iter().flat_map(|s| s.regions.iter().cloned()).collect();
    if links.iter().any(|link| !covered(link, &regions) && leads_into(&repo_root, link, &regions)) {
        return None;
    }
    // So may one git does not track (it ignores it): the walk reached a
    // skill through it that no revision has at that path.
    if !regions.is_empty() {
        let untracked: BTreeSet<String> = sides.iter().flat_map(|s| s.changed.iter().cloned()).collect();
        for skill_md in walked.skill_files() {
            let Ok(rel) = skill_md.strip_prefix(&repo_root) else { continue };
            let rel = crate::engine::paths::rel_string(rel);
            if tracked_skills.contains(&rel) || covered(&rel, &untracked) {
                continue;
            }
            if symlink_on_the_way(&repo_root, &rel).is_some_and(|link| leads_into(&repo_root, &link, &regions)) {
                return None;
            }
        }
    }
    // The earlier revision's changed paths hold the later's: each folder
    // that differs in the later one lies in one that differs in the earlier,
    // whose state then reads them all from its copy ([`overlaid`]). Were it
    // otherwise, the revision is read whole.
    if sides.get(1).is_some_and(|later| later.regions.iter().any(|r| !covered(r, &sides[0].regions))) {
        return None;
    }
    // What a change touched: between the two revisions (each path of which
    // the earlier's changed paths hold, unless nothing reads it), else the
    // first's.
    let mut touched: BTreeSet<String> = match &between {
        Some(between) => between.iter().filter(|p| sides[0].changed.contains(*p)).cloned().collect(),
        None => sides[0].changed.clone(),
    };
    // The settings, where the two states' differ: which skills are disabled
    // shows in those skills' own answers (their names then in play); any
    // other setting may change every message.
    let home_of = |side: usize| engines.get(side).and_then(Option::as_ref).map_or(&worktree.home, |e| &e.home);
    let later = if to.is_some() { home_of(1) } else { &worktree.home };
    if let Some(rel) = config_rel.filter(|_| !differ_in_disabled_alone(home_of(0), later)) {
        touched.insert(rel);
    }
    for (side, engine) in sides.iter_mut().zip(engines) {
        side.engine = engine;
    }
    // Without a symlink in either revision (one git ignores has the tree
    // read whole), a folder holding no changed path has the same files in
    // both states.
    let no_links = configs_differ && links.is_empty();
    let top = (repo_root.as_path(), folder);
    let mut answer =
        overlaid(worktree, repo, &options, walked, sides, &root_rels, top, (&touched, no_links, &aside)).transpose()?;
    if let Ok(found) = &mut answer {
        found.report.notes.extend(git::sparse_note(&sparse));
        let given = found.written.iter().flat_map(|w| w.ignored_skills.iter().cloned());
        found.report.notes.extend(git::ignored_note(ignored_skills.into_iter().chain(given)));
    }
    Some(answer)
}

/// [`against_worktree`] once the folders that differ are known: their
/// copies written, both states answered side by side, compared; none when
/// a copy's roots do not match the working tree's, or a folder that differs
/// holds a symlink git ignores.
#[allow(clippy::too_many_arguments)]
fn overlaid<'a>(
    worktree: &'a crate::engine::Engine,
    repo: &Repo,
    options: &ReadOptions,
    mut walked: crate::engine::check::walk::WalkedCheck,
    mut sides: Vec<Near>,
    root_rels: &[String],
    (repo_root, folder): (&Path, &Path),
    (touched, no_links, aside): (&BTreeSet<String>, bool, &BTreeSet<String>),
) -> Result<Option<Overlaid<'a>>, String> {
    let mut copies = Vec::new();
    let mut written = Vec::new();
    let mut overlays = Vec::new();
    // Each side's engine: the working tree's, or its own settings'.
    let engines: Vec<Cow<'a, crate::engine::Engine>> =
        sides.iter_mut().map(|side| side.engine.take().map_or(Cow::Borrowed(worktree), Cow::Owned)).collect();
    for (side, engine) in sides.iter_mut().zip(&engines) {
        if side.regions.is_empty() {
            overlays.push(None);
            continue;
        }
        repo.sized(&mut side.wanted).map_err(|e| e.to_string())?;
        let copy = scratch_dir(&side.wanted)?;
        // Git lists the ignored files while the revision's are written.
        let (copied, ignored) = std::thread::scope(|scope| {
            let ignored = scope.spawn(|| ignored_within(repo, &side.regions));
            let copied = repo.write_entries(&side.wanted, copy.path(), &side.rev);
            (copied, ignored.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
        });
        let mut copied = copied.map_err(|e| e.to_string())?;
        repo.carry_ignored(&ignored.map_err(|e| e.to_string())?, &[], copy.path(), &mut copied);
        repo.take_unchanged_stand_ins(copy.path(), &mut copied, |rel| !side.changed.contains(rel));
        // A link may lead where the copy holds nothing (a relative one from
        // inside it): only the whole tree answers as the working tree would.
        if copied.ignored_links > 0 {
            return Ok(None);
        }
        written.push(copied);
        let written_top = copy.path().canonicalize().map_err(|e| e.to_string())?;
        for rel in root_rels {
            paths::create_dirs_below(&written_top, &written_top.join(rel)).map_err(|e| e.to_string())?;
        }
        let overlay = diff::Overlay { real_top: repo_root.to_path_buf(), written_top, regions: side.regions.clone() };
        let differing = engine.with_roots_in(&overlay);
        overlays.push(Some((overlay, differing)));
        copies.push(copy);
    }
    // The same skills' own rules run in both states: those in a folder
    // that differs in either.
    let regions: BTreeSet<String> = sides.iter().flat_map(|s| s.regions.iter().cloned()).collect();
    let (top, regions) = (repo_root.to_path_buf(), regions.into_iter().collect::<paths::FolderSet>());
    let only = crate::engine::check::SkillFilter(std::sync::Arc::new(move |dir: &Path| {
        crate::engine::paths::strip_prefix(dir, &top)
            .is_some_and(|rel| regions.covers(&crate::engine::paths::rel_string(rel)))
    }));
    let own = ReadOptions { policy: Policy { only: Some(only), ..options.policy.clone() }, ..options.clone() };
    let state = |walked, side: usize| {
        let engine = engines.get(side).cloned().unwrap_or(Cow::Borrowed(worktree));
        match overlays.get(side).and_then(Option::as_ref) {
            None => Some(State::from_walk(engine, options, walked)),
            Some((overlay, differing)) => State::overlaid(engine, options, walked, differing, overlay.clone()),
        }
    };
    // The earlier state takes every folder that differs from its copy
    // (`against_worktree`): it needs none of those rules, and starts as soon
    // as the walk is copied for it, while they run.
    let (before, after) = std::thread::scope(|outer| {
        let (send_kept, kept) = std::sync::mpsc::channel::<crate::engine::check::walk::WalkedCheck>();
        let state = &state;
        let before = outer.spawn(listing::carried(move || state(kept.recv().ok()?, 0)));
        let found = std::thread::scope(|inner| {
            inner.spawn(|| {
                // The earlier state gone, the copy has no one to take it.
                let _ = send_kept.send(walked.clone());
            });
            State::own_checked(worktree, &own, &walked)
        });
        State::add_own(&mut walked, found);
        // The working tree, or the later revision.
        let after = state(walked, 1);
        (before.join().ok().flatten(), after)
    });
    let failed = |e: crate::engine::py::PyError| format!("Hermes fails to build the skills index: {e}");
    let (Some(before), Some(after)) = (before, after) else { return Ok(None) };
    let (before, after) = (before.map_err(failed)?, after.map_err(failed)?);
    if names_a_path_left_aside([&before, &after], repo_root, aside) {
        return Ok(None);
    }
    let changed = Some(touched.clone());
    // Outside every skill folder only config.yaml is read here (a change
    // elsewhere has the tree read whole), or a folder neither state takes
    // for a skill's.
    let touched = self::touched(&changed, [&before, &after], repo_root, no_links);
    let mut report = diff::compare(&before, &after, folder, &touched);
    for sub in sides.iter().flat_map(|s| &s.submodules) {
        report.notes.push(format!("submodule {sub} left aside (its folder is read as the working tree has it)"));
    }
    Ok(Some(Overlaid { report, written, _copies: copies, states: Box::new([before, after]) }))
}

/// A revision's changed paths, sorted: the skill folders (relative to the
/// repository's top) that hold one, in the revision (by its tree's
/// `SKILL.md` files) or in the working tree, and the paths that matter —
/// those in a skill folder, a folder only the working tree has (untracked)
/// given as its files. A path nothing reads ([`Unread`]) is left out; None
/// when another path lies in no skill folder.
fn differing_folders(
    top: &Path,
    changed: &BTreeSet<String>,
    entries: &[git::TreeEntry],
    unread: &Unread,
) -> Option<Differing> {
    let in_revision: std::collections::HashSet<&str> =
        entries.iter().filter_map(|e| e.path.strip_suffix("/SKILL.md")).collect();
    let mut modes: Option<std::collections::HashMap<&str, &str>> = None;
    let mut regions = BTreeSet::new();
    let mut kept = BTreeSet::new();
    let mut aside = BTreeSet::new();
    let mut pending: Vec<String> = changed.iter().rev().cloned().collect();
    let mut listed = 0usize;
    while let Some(path) = pending.pop() {
        let mut in_a_skill = false;
        let mut at = Some(path.as_str());
        while let Some(dir) = at.filter(|d| !d.is_empty()) {
            if in_revision.contains(dir) || top.join(dir).join("SKILL.md").is_file() {
                regions.insert(dir.to_owned());
                in_a_skill = true;
            }
            at = dir.rfind('/').map(|i| &dir[..i]);
        }
        if in_a_skill {
            kept.insert(path);
            continue;
        }
        let on_disk = top.join(&path);
        let meta = std::fs::symlink_metadata(&on_disk).ok();
        let modes = modes.get_or_insert_with(|| entries.iter().map(|e| (e.path.as_str(), e.mode.as_str())).collect());
        let mode = modes.get(path.as_str()).copied();
        let kind = match &meta {
            // A regular file in the revision too: its content alone differs.
            Some(meta) if meta.is_file() && mode.is_some_and(|m| m == "100644" || m == "100755") => PathKind::Rewritten,
            Some(meta) if meta.is_file() => PathKind::File,
            Some(_) => PathKind::Other,
            // Gone from the working tree: the revision's file, unless a symlink.
            None if mode.is_some_and(|m| m != "120000" && m != "160000") => PathKind::File,
            None => PathKind::Other,
        };
        if unread.is_unread(&on_disk, kind) {
            // There in both states, a file's content alone changed.
            if kind != PathKind::Rewritten {
                aside.insert(path);
            }
            continue;
        }
        // A submodule the revision has, another commit (or none) checked
        // out in it: left aside, read as the working tree has it in both
        // states, as one whose commit is the same is (and said so).
        if mode == Some("160000") && meta.as_ref().map_or(true, |m| m.is_dir()) {
            continue;
        }
        // A folder only the working tree has (git names it once): what is
        // in it, which may be new skills.
        if !meta.is_some_and(|m| m.is_dir()) {
            return None;
        }
        for entry in std::fs::read_dir(&on_disk).ok()? {
            let name = entry.ok()?.file_name();
            listed += 1;
            if listed > UNTRACKED_LISTED_AT_MOST {
                return None;
            }
            pending.push(format!("{path}/{}", name.to_str()?));
        }
    }
    Some(Differing { regions, kept, aside })
}

/// The skill folders a revision's changed paths lie in ([`differing_folders`]).
struct Differing {
    regions: BTreeSet<String>,
    /// The changed paths in them.
    kept: BTreeSet<String>,
    /// The paths left aside that one state may have and the other not
    /// (not files whose content alone changed): nothing reads them, but
    /// whether a skill's credential file is there
    /// ([`names_a_path_left_aside`]).
    aside: BTreeSet<String>,
}

/// Whether a skill of either state names as a credential file (relative to
/// the home) a path left aside, or one below it: whether it is there is
/// then read.
fn names_a_path_left_aside(states: [&State; 2], repo_root: &Path, aside: &BTreeSet<String>) -> bool {
    if aside.is_empty() {
        return false;
    }
    let aside: Vec<PathBuf> = aside.iter().map(|p| paths::normalize(&repo_root.join(p))).collect();
    let left_aside = |path: &Path| aside.iter().any(|a| path.starts_with(a));
    states.iter().any(|state| {
        let home = &state.engine.home.root;
        state.catalog.skills.iter().any(|skill| {
            skill.readiness().credential_files.iter().any(|rel| {
                let host = paths::join(home, rel);
                left_aside(&paths::normalize(&host)) || paths::try_resolve(&host).map_or(true, |r| left_aside(&r))
            })
        })
    })
}

/// The first folder on the way to `rel` (below `top`) that is a symlink.
fn symlink_on_the_way(top: &Path, rel: &str) -> Option<String> {
    rel.match_indices('/').map(|(at, _)| &rel[..at]).find(|dir| top.join(dir).is_symlink()).map(str::to_owned)
}

/// Whether the working tree's symlink `link` (relative to `top`) leads to
/// or above one of `folders`: read through it, they would be the working
/// tree's in both states.
fn leads_into(top: &Path, link: &str, folders: &BTreeSet<String>) -> bool {
    let Ok(target) = std::fs::read_link(top.join(link)) else { return false };
    let from = Path::new(link).parent().unwrap_or(Path::new(""));
    let joined = match target.is_absolute() {
        true => match target.strip_prefix(top) {
            Ok(rel) => rel.to_path_buf(),
            Err(_) => return false,
        },
        false => from.join(target),
    };
    let Some(rel) = paths::lexical_within(&joined) else { return false };
    let rel = paths::rel_string(&rel);
    let below = format!("{rel}/");
    rel.is_empty() || covered(&rel, folders) || folders.iter().any(|f| f.starts_with(&below))
}

/// The files git ignores in `folders` (those that differ), which their
/// copies take from the working tree ([`crate::engine::diff::ignored`]).
fn ignored_within(repo: &Repo, folders: &BTreeSet<String>) -> Result<BTreeSet<String>, git::GitError> {
    // Beyond this many, one listing of the whole tree beats a long command line.
    const NAMED_AT_MOST: usize = 1_000;
    let named = match folders.len() > NAMED_AT_MOST {
        true => repo.ignored(&[])?,
        false => repo.ignored(&folders.iter().map(String::as_str).collect::<Vec<_>>())?,
    };
    // A folder git ignores whole is named once: only the folders that
    // differ below it are taken.
    let mut within = BTreeSet::new();
    for path in named {
        if covered(&path, folders) {
            within.insert(path);
        } else {
            let below = format!("{path}/");
            within.extend(folders.iter().filter(|f| f.starts_with(&below)).cloned());
        }
    }
    Ok(within)
}

/// How many entries of untracked folders are listed before the revision
/// is rather read whole.
const UNTRACKED_LISTED_AT_MOST: usize = 10_000;

fn is_empty_dir(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|mut entries| entries.next().is_none())
}

/// Whether `path` lies at or below one of `folders`.
fn covered(path: &str, folders: &std::collections::BTreeSet<String>) -> bool {
    crate::engine::paths::lies_in(path, |f| folders.contains(f))
}

/// An answer as one line of text for a person (control characters shown,
/// never sent to the terminal): none is `—`.
pub fn shown(value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::Null => "—".into(),
        serde_json::Value::String(s) => crate::sanitize::clean_line(s.trim()),
        other => crate::sanitize::clean_line(&other.to_string()),
    }
}

/// `field: before → after`.
pub fn change_line(change: &diff::FieldChange) -> String {
    format!("{}: {} → {}", change.field, shown(&change.before), shown(&change.after))
}

/// A bundle's changed fields as lines for a person: its composition (a
/// JSON object in `--json`) as the parts that changed, its members each
/// with how it loads where that is not under its own name.
pub fn bundle_lines(bundle: &diff::BundleChange) -> Vec<String> {
    let mut lines = Vec::new();
    for f in &bundle.fields {
        if f.field != "composition" {
            lines.push(change_line(f));
            continue;
        }
        let part = |side: &serde_json::Value, key: &str| match side {
            serde_json::Value::Null => serde_json::Value::Null,
            side if key == "skills" => serde_json::Value::String(members(side)),
            side => side.get(key).cloned().unwrap_or_default(),
        };
        for key in ["name", "description", "instruction", "skills"] {
            let (before, after) = (part(&f.before, key), part(&f.after, key));
            if before != after {
                let field = if key == "skills" { "members" } else { key };
                lines.push(format!("{field}: {} → {}", shown(&before), shown(&after)));
            }
        }
    }
    lines
}

/// A bundle's members in one line: `a, b (missing: no skill has this name)`.
fn members(composition: &serde_json::Value) -> String {
    let list = composition.get("skills").and_then(serde_json::Value::as_array);
    let each = list.into_iter().flatten().map(|m| {
        let (skill, status) = (m["skill"].as_str().unwrap_or_default(), m["status"].as_str().unwrap_or_default());
        match status.strip_prefix("loaded as ") {
            Some(as_name) if as_name == skill => skill.to_owned(),
            _ => format!("{skill} ({status})"),
        }
    });
    each.collect::<Vec<_>>().join(", ")
}

/// What changed in a bundle, in brief: `composition, message`.
pub fn bundle_gist(bundle: &diff::BundleChange) -> String {
    let mut parts: Vec<&str> = bundle.fields.iter().map(|f| f.field).collect();
    if bundle.message.is_some() {
        parts.push("message");
    }
    parts.join(", ")
}

/// `why: before → after` for a skill whose being offered changed: on each
/// side why it is not offered, or that it is (`—` where it does not exist).
pub fn why_line(skill: &diff::SkillChange) -> Option<String> {
    let (before, after) = skill.why.as_ref()?;
    let side = |exists: bool, why: &Option<String>| match (exists, why) {
        (false, _) => "—".to_owned(),
        (true, None) => "offered".to_owned(),
        (true, Some(why)) => format!("not offered ({})", crate::sanitize::clean_line(why)),
    };
    let (was, is) = (skill.change != diff::ChangeKind::Added, skill.change != diff::ChangeKind::Removed);
    Some(format!("why: {} → {}", side(was, before), side(is, after)))
}

/// Writes the tree of `commit` into a temporary folder of ours (in memory
/// when there is room), removed when the folder is dropped, with the files
/// git ignores in the working tree where the tree has none (a checkout
/// leaves them), those below `roots` (the working tree's, where skills are
/// walked) first.
///
/// `worktree_side`: the revision is compared with the working tree, so the
/// files a sparse checkout leaves out are left out of it too
/// ([`git::Unlooked::outside_checkout`]; said in [`Written::sparse`]).
pub fn read_revision(
    repo: &Repo,
    commit: &str,
    roots: &[PathBuf],
    worktree_side: bool,
) -> Result<(ScratchDir, Written), String> {
    let mut entries = repo.tree(commit).map_err(|e| e.to_string())?;
    let sparse = match worktree_side {
        true => {
            let unlooked = repo.unlooked().map_err(|e| e.to_string())?;
            unlooked.outside_checkout(repo, entries.iter().map(|e| e.path.as_str()))
        }
        false => BTreeSet::new(),
    };
    entries.retain(|e| !sparse.contains(&e.path));
    repo.sized(&mut entries).map_err(|e| e.to_string())?;
    let dir = scratch_dir(&entries)?;
    let mut written = repo.write_entries(&entries, dir.path(), commit).map_err(|e| e.to_string())?;
    written.sparse = sparse.into_iter().collect();
    let ignored = repo.ignored(&[]).map_err(|e| e.to_string())?;
    repo.carry_ignored(&ignored, roots, dir.path(), &mut written);
    Ok((dir, written))
}

/// Where `engine`'s skills are walked, as real paths.
pub fn real_roots(engine: &crate::engine::Engine) -> Vec<PathBuf> {
    engine.home.scan_dirs().iter().map(|r| r.canonicalize().unwrap_or_else(|_| r.clone())).collect()
}

/// A temporary folder of ours for `entries` (in memory when there is room).
fn scratch_dir(entries: &[git::TreeEntry]) -> Result<ScratchDir, String> {
    const PREFIX: &str = "skillscope-rev-";
    match crate::scratch::in_memory(git::room_needed(entries)) {
        Some(base) => ScratchDir::new_in(PREFIX, base),
        None => ScratchDir::new(PREFIX),
    }
    .map_err(|e| e.to_string())
}

/// A revision's external dirs, written where they are git repositories.
#[derive(Default)]
pub struct Externals {
    /// The folders their trees were written to, removed when dropped.
    pub trees: Vec<ScratchDir>,
    /// Each written folder and the one it stands for.
    pub written_as: Vec<(PathBuf, PathBuf)>,
    pub notes: Vec<String>,
}

/// Points `engine`'s external dirs at what they were at `rev`: one inside
/// the home's own repository is read from that revision's tree (`main`:
/// the repository's top and where its tree was written); one in a git
/// repository of its own that has `rev` is written at it; any other is
/// taken as it is, and said so. `shown` is the folder a stand-in home
/// lists, left alone.
pub fn externals_at(
    engine: &mut crate::engine::Engine,
    rev: Option<&str>,
    shown: Option<&Path>,
    main: (&Path, &Path),
) -> Externals {
    let mut out = Externals::default();
    let (repo_root, written_root) = main;
    let written_top = written_root.canonicalize().unwrap_or_else(|_| written_root.to_path_buf());
    for dir in engine.home.external_dirs.iter_mut() {
        if Some(dir.as_path()) == shown {
            continue;
        }
        let real = dir.canonicalize().unwrap_or_else(|_| dir.clone());
        // A home read from the revision's tree names its relative dirs in it.
        if real.starts_with(&written_top) {
            continue;
        }
        if let Ok(rel) = real.strip_prefix(repo_root) {
            *dir = paths::normalize(&written_root.join(rel));
            continue;
        }
        let written = rev.ok_or_else(|| "the revision is this repository's own".to_owned()).and_then(|rev| {
            let repo = Repo::discover(&real).map_err(|e| e.to_string())?;
            let commit = repo.commit(rev).map_err(|e| e.to_string())?;
            let top = repo.root.canonicalize().unwrap_or_else(|_| repo.root.clone());
            let (tree, _) = read_revision(&repo, &commit, std::slice::from_ref(&real), false)?;
            let at = tree.path().canonicalize().map_err(|e| e.to_string())?;
            Ok((tree, at, top))
        });
        match written {
            Ok((tree, at, top)) => {
                let rel = real.strip_prefix(&top).unwrap_or(Path::new("")).to_path_buf();
                *dir = paths::normalize(&at.join(rel));
                out.notes.push(format!(
                    "external dir {} compared at {} of its own repository",
                    real.display(),
                    rev.unwrap_or("")
                ));
                out.written_as.push((at, top));
                out.trees.push(tree);
            }
            Err(why) => out.notes.push(format!("external dir {} taken as it is ({why})", real.display())),
        }
    }
    out
}

/// The paths git says a change touched, asked for on another thread while
/// the states are read (`git diff` against the work tree reads every file's
/// metadata).
pub struct ChangedPaths(std::thread::JoinHandle<Result<Option<std::collections::BTreeSet<String>>, git::GitError>>);

impl ChangedPaths {
    pub fn start(repo: &Repo, from: &str, to: Option<&str>) -> ChangedPaths {
        let (repo, from, to) = (repo.clone(), from.to_owned(), to.map(str::to_owned));
        ChangedPaths(std::thread::spawn(move || {
            // Against a work tree whose edits git is told to assume away,
            // git cannot say where it differs.
            if to.is_none() && repo.unlooked()?.assumed {
                return Ok(None);
            }
            repo.changed_paths(&from, to.as_deref()).map(Some)
        }))
    }

    /// The paths, if git answered.
    pub fn finish(self) -> Option<std::collections::BTreeSet<String>> {
        self.0.join().ok()?.ok()?
    }
}

/// Which skills need their messages and scans compared: those holding a
/// changed path, or every one when a changed path lies outside every skill
/// folder (config.yaml, a bundle) or git did not say. `no_links`: neither
/// state has a symlink git tracks or ignores, so a folder holding no
/// changed path has the same files in both (the guard need not scan it).
fn touched<'a>(
    changed: &'a Option<std::collections::BTreeSet<String>>,
    states: [&State; 2],
    base: &'a Path,
    no_links: bool,
) -> Touched<'a> {
    match changed {
        Some(changed) if !diff::touches_home(states, base, changed) => {
            Touched::Paths { base, changed: diff::Changes::new(changed) }
        }
        Some(changed) if no_links => Touched::Home { base, changed: diff::Changes::new(changed) },
        _ => Touched::All,
    }
}

/// The check's filter for one state (its files under `root`, standing for
/// the repository's top): each skill's own rules run on the skills holding
/// a changed path; the others' findings are the same in both states. None
/// (every skill) when git did not say (or a tree may hold a symlink, by
/// which a skill may read a changed path from elsewhere), or when a
/// changed path lies in no skill folder of either state (`trees`: each
/// state's top), which may change any skill.
fn skill_filter(
    changed: Option<&std::collections::BTreeSet<String>>,
    trees: &[&Path],
    root: &Path,
) -> Option<crate::engine::check::SkillFilter> {
    let changed = changed?;
    let in_a_skill = |c: &String| trees.iter().any(|top| in_skill_folder(top, c));
    if !changed.iter().all(in_a_skill) {
        return None;
    }
    let (changed, root) = (diff::Changes::new(changed), root.to_path_buf());
    Some(crate::engine::check::SkillFilter(std::sync::Arc::new(move |dir: &Path| match dir.strip_prefix(&root) {
        Ok(rel) => changed.held_by(&crate::engine::paths::rel_string(rel)),
        // Outside the repository (an external dir): checked.
        Err(_) => true,
    })))
}

/// Whether `rel` (below `top`) is a skill folder or inside one.
fn in_skill_folder(top: &Path, rel: &str) -> bool {
    let mut dir = top.join(rel);
    loop {
        if dir.join("SKILL.md").is_file() {
            return true;
        }
        if dir == top || !dir.starts_with(top) {
            return false;
        }
        match dir.parent() {
            Some(parent) => dir = parent.to_path_buf(),
            None => return false,
        }
    }
}
