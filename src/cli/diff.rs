//! `skillscope diff [REV] [REV2]`: what a change does to the agent. Each
//! revision's tree is written from git's objects into a folder of ours
//! (never checked out), each state is answered by the engine as if it were
//! the only one, and the answers are compared.

use super::output::{print_json, Out};
use super::{open_session, GlobalArgs, SessionError, EXIT_ANSWER_ERROR, EXIT_OK, EXIT_USAGE};
use crate::compare;
use crate::demo::DemoHome;
use crate::engine::diagnostics::Severity;
use crate::engine::diff::git::{GitError, Repo, Written};
use crate::engine::diff::{self, DiffReport, SkillChange};
use crate::engine::env::Env;
use crate::engine::words::thousands;
use crate::sanitize::{clean_line, html_text as html, markdown_text};
use serde_json::json;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Whenever diff cannot answer (a revision unreadable, its copy not
/// written, the output not written): never 1, which `--exit-code` gives a
/// change the agent sees.
const EXIT_NO_ANSWER: i32 = EXIT_USAGE;

/// Says on stderr why diff cannot answer, on one line: a path in it comes
/// from a repository's tree, and git's own message may quote one.
fn say(why: impl std::fmt::Display) {
    // A failure a signal brought (git ended by the same Ctrl-C) is no news.
    if crate::scratch::ending() {
        return;
    }
    eprintln!("skillscope: diff: {}", clean_line(&why.to_string()));
}

/// How a diff is printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum DiffFormat {
    #[default]
    Text,
    Json,
    Markdown,
}

/// `diff`'s arguments.
#[derive(Debug, Clone, clap::Args)]
pub struct DiffArgs {
    /// The revision to compare from (default HEAD); `A...B` compares the
    /// merge base of A and B with B, `A..B` compares A with B
    pub rev: Option<String>,
    /// The revision to compare to (default: the working tree)
    pub rev2: Option<String>,
    /// One line per changed skill
    #[arg(long)]
    pub stat: bool,
    /// text, json or markdown (a pull-request comment)
    #[arg(long, value_enum)]
    pub format: Option<DiffFormat>,
    /// markdown: keep the comment under N characters, leaving out the
    /// details that do not fit and saying so (default 65536, GitHub's
    /// limit; 0: no limit)
    #[arg(long, value_name = "N")]
    pub max_chars: Option<usize>,
    /// Exit 1 when what the agent gets changed, as `git diff --exit-code`
    #[arg(long)]
    pub exit_code: bool,
    /// Compare findings at or above: error, warning or info
    #[arg(long, value_name = "LEVEL", value_parser = super::parse_severity, default_value = "warning")]
    pub min_severity: Severity,
    /// Paths after `--`, as `git diff` takes them: refused, said why.
    #[arg(last = true, hide = true)]
    pub paths: Vec<String>,
}

/// The two revisions compared: commit ids, `to` none for the working tree.
struct Span {
    from: String,
    from_name: String,
    /// The revision as another repository may have it (an external dir's);
    /// none for a merge base, which is this repository's own.
    from_rev: Option<String>,
    to: Option<String>,
    to_name: String,
    to_rev: Option<String>,
}

fn span(repo: &Repo, args: &DiffArgs) -> Result<Span, GitError> {
    let rev = args.rev.clone().unwrap_or_else(|| "HEAD".to_owned());
    if args.rev2.is_none() {
        if let Some((a, b)) = rev.split_once("...") {
            let (a, b) = (or_head(a), or_head(b));
            let (base, cb) = (repo.base_of(a, b)?, repo.commit(b)?);
            return Ok(Span {
                from: base,
                from_name: format!("merge base of {a} and {b}"),
                from_rev: None,
                to: Some(cb),
                to_name: b.to_owned(),
                to_rev: Some(b.to_owned()),
            });
        }
        if let Some((a, b)) = rev.split_once("..") {
            let (a, b) = (or_head(a), or_head(b));
            return Ok(Span {
                from: repo.commit(a)?,
                from_name: a.to_owned(),
                from_rev: Some(a.to_owned()),
                to: Some(repo.commit(b)?),
                to_name: b.to_owned(),
                to_rev: Some(b.to_owned()),
            });
        }
    }
    let from = repo.commit(&rev)?;
    let to = args.rev2.as_deref().map(|r| repo.commit(r)).transpose()?;
    Ok(Span {
        from,
        from_name: rev.clone(),
        from_rev: Some(rev),
        to,
        to_name: args.rev2.clone().unwrap_or_else(|| "working tree".to_owned()),
        to_rev: args.rev2.clone(),
    })
}

fn or_head(rev: &str) -> &str {
    if rev.is_empty() {
        "HEAD"
    } else {
        rev
    }
}

/// The folder compared: the one given, else the repository the current
/// folder is in (its top, or the Hermes home it holds).
fn folder_of(global: &GlobalArgs) -> Result<(Repo, PathBuf), String> {
    let Some(given) = &global.home else {
        let here = std::env::current_dir().map_err(|e| format!("the current folder: {e}"))?;
        let here = here.canonicalize().map_err(|e| format!("{}: {e}", here.display()))?;
        let repo = Repo::discover(&here).map_err(|e| format!("{e}{}", hermes_home_in_git()))?;
        let folder = repository_folder(&repo)?;
        return Ok((repo, folder));
    };
    let not_found = match given.canonicalize() {
        Ok(real) => {
            // The repository it leads into, else the one it is given in (a
            // symlink of it may lead out). A file is no folder in the working
            // tree, which two revisions compared leave aside.
            let dir = if real.is_dir() { real.as_path() } else { real.parent().unwrap_or(&real) };
            let repo = Repo::discover(dir).or_else(|e| {
                let parent =
                    std::env::current_dir().ok().and_then(|here| here.join(given).parent()?.canonicalize().ok());
                parent.and_then(|parent| Repo::discover(&parent).ok()).ok_or(e)
            });
            let repo = repo.map_err(|e| e.to_string())?;
            let folder = as_given_in(&repo, given).unwrap_or(real);
            return Ok((repo, folder));
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => e,
        Err(e) => return Err(format!("{}: {e}", given.display())),
    };
    // A folder the working tree lacks may be a revision's: found in the
    // repository of the folder nearest to it.
    let missing = || format!("{}: {not_found}", given.display());
    let within = within_existing(given).ok_or_else(missing)?;
    let existing = within.ancestors().find(|dir| dir.exists()).unwrap_or(&within);
    let repo = Repo::discover(existing).map_err(|_| missing())?;
    let folder = as_given_in(&repo, given).unwrap_or(within);
    Ok((repo, folder))
}

/// Where the current folder is in no repository but the Hermes home
/// (`$HERMES_HOME`, `~/.hermes`) is: how to compare it.
fn hermes_home_in_git() -> String {
    let home = crate::engine::home::resolve_home_path(None, &Env::from_process());
    match home.is_dir() && Repo::discover(&home).is_ok() {
        true => format!("; the Hermes home is: skillscope diff --home {}", home.display()),
        false => String::new(),
    }
}

/// `given` below the repository's real top, its part inside the
/// repository as given: a symlink on the way stays one, since a revision's
/// may lead elsewhere than the working tree's. None for a path that steps
/// up (`..`) or enters the repository only through a symlink.
fn as_given_in(repo: &Repo, given: &Path) -> Option<PathBuf> {
    let root = repo.root.canonicalize().ok()?;
    let absolute = crate::engine::paths::normalize(&std::env::current_dir().ok()?.join(given));
    if absolute.components().any(|c| c == std::path::Component::ParentDir) {
        return None;
    }
    let top = absolute.ancestors().find(|dir| dir.canonicalize().is_ok_and(|real| real == root))?;
    Some(root.join(absolute.strip_prefix(top).ok()?))
}

/// Whether a folder on the way from the repository's top `root` to
/// `folder` (itself included) is a symlink.
fn through_a_symlink(folder: &Path, root: &Path) -> bool {
    folder.ancestors().take_while(|dir| *dir != root && dir.starts_with(root)).any(Path::is_symlink)
}

/// `path`, which does not exist, as a real path: its nearest folder that
/// does, resolved, and the rest of it as given (none when the rest steps
/// up or the path leads nowhere that exists).
fn within_existing(path: &Path) -> Option<PathBuf> {
    let path = std::env::current_dir().ok()?.join(path);
    let mut rest = Vec::new();
    for dir in path.ancestors() {
        if let Ok(real) = dir.canonicalize() {
            let steps_up = rest.iter().any(|c| !matches!(c, std::path::Component::Normal(_)));
            return (!steps_up).then(|| rest.iter().rev().fold(real, |p, c| p.join(c)));
        }
        rest.push(dir.components().next_back()?);
    }
    None
}

/// The folder of a repository that `diff` reads when given none: its top,
/// or the one Hermes home it holds.
fn repository_folder(repo: &Repo) -> Result<PathBuf, String> {
    let root = repo.root.canonicalize().unwrap_or_else(|_| repo.root.clone());
    match held_home(&root) {
        Held::None => Ok(root),
        Held::One(home) => Ok(home),
        Held::Several(homes) => {
            let names: Vec<String> =
                homes.iter().filter_map(|h| h.file_name()).map(|n| clean_line(&n.to_string_lossy())).collect();
            Err(format!(
                "{} holds {} Hermes homes ({}): pass the one to compare with --home (e.g. --home {})",
                clean_line(&root.to_string_lossy()),
                names.len(),
                names.join(", "),
                homes.first().map(|h| clean_line(&h.to_string_lossy())).unwrap_or_default()
            ))
        }
    }
}

/// The folder `diff` would read in the current folder's git repository,
/// when that holds skills or is a Hermes home: the browser's `--since`
/// opens it when no home is given; an error where it holds several
/// Hermes homes and nothing says which.
pub fn current_repository_folder() -> Result<Option<PathBuf>, String> {
    let Some(repo) = std::env::current_dir()
        .ok()
        .and_then(|here| here.canonicalize().ok())
        .and_then(|start| Repo::discover(&start).ok())
    else {
        return Ok(None);
    };
    let folder = repository_folder(&repo)?;
    Ok(crate::open::shows_skills(&folder).then_some(folder))
}

/// The Hermes homes a repository's top holds.
enum Held {
    /// None, or skills outside it: the top is read.
    None,
    One(PathBuf),
    /// More than one: which to compare is the user's to say.
    Several(Vec<PathBuf>),
}

/// The Hermes home a repository's top holds in a folder of its own (a
/// dotfiles repository's `.hermes/`, a deployment's `hermes/`): the one
/// folder just below the top that is a home (`skills/` or `skill-bundles/`
/// in it, or external dirs its `config.yaml` names; a `config.yaml` alone
/// may be anything's), when the top has no home's marks and no skill lies
/// outside it but in its external dirs.
fn held_home(root: &Path) -> Held {
    let marked = |dir: &Path| {
        ["skills", "skill-bundles"].iter().any(|d| dir.join(d).is_dir()) || dir.join("config.yaml").is_file()
    };
    if marked(root) || root.join("SKILL.md").exists() {
        return Held::None;
    }
    let env = Env::from_process();
    let (mut homes, mut others) = (Vec::new(), Vec::new());
    let Ok(entries) = std::fs::read_dir(root) else { return Held::None };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        let hidden = name.to_string_lossy().starts_with('.');
        if !entry.file_type().is_ok_and(|t| t.is_dir()) || (hidden && name != ".hermes") {
            continue;
        }
        match marked(&path).then(|| home_external_dirs(&path, &env)).flatten() {
            Some(external) => homes.push((path, external)),
            None => others.push(path),
        }
    }
    if homes.len() > 1 {
        let mut homes: Vec<PathBuf> = homes.into_iter().map(|(home, _)| home).collect();
        homes.sort();
        return Held::Several(homes);
    }
    let Some((home, external)) = homes.pop() else { return Held::None };
    match others.iter().any(|dir| skills_outside(dir, &external)) {
        true => Held::None,
        false => Held::One(home),
    }
}

/// The external dirs of `dir`, a folder with a home's marks, when it is a
/// home: it has `skills/` or `skill-bundles/`, or names external dirs.
fn home_external_dirs(dir: &Path, env: &Env) -> Option<Vec<PathBuf>> {
    let own = ["skills", "skill-bundles"].iter().any(|d| dir.join(d).is_dir());
    let external = crate::engine::home::Home::load(dir.to_path_buf(), env).external_dirs;
    let external: Vec<PathBuf> = external.iter().map(|d| d.canonicalize().unwrap_or_else(|_| d.clone())).collect();
    (own || !external.is_empty()).then_some(external)
}

/// Whether `dir` holds a skill outside the folders of `external`.
fn skills_outside(dir: &Path, external: &[PathBuf]) -> bool {
    if external.iter().any(|e| dir.starts_with(e)) {
        return false;
    }
    if !external.iter().any(|e| e.starts_with(dir)) {
        return crate::open::holds_skill_md(dir);
    }
    // An external dir lies below: what else the folder holds.
    let Ok(entries) = std::fs::read_dir(dir) else { return false };
    dir.join("SKILL.md").is_file()
        || entries.flatten().any(|entry| {
            let visible = !entry.file_name().to_string_lossy().starts_with('.');
            visible && entry.file_type().is_ok_and(|t| t.is_dir()) && skills_outside(&entry.path(), external)
        })
}

/// Output flags that ask for two outputs at once, said rather than one
/// picked silently.
fn conflicting_outputs(global: &GlobalArgs, args: &DiffArgs) -> Option<String> {
    let format = args.format.map(|f| match f {
        DiffFormat::Text => "text",
        DiffFormat::Json => "json",
        DiffFormat::Markdown => "markdown",
    });
    match (global.json, args.stat, format) {
        (true, _, Some(f)) if f != "json" => Some(format!("--json and --format {f} ask for two outputs: give one")),
        (true, true, _) => Some("--stat is one line per skill, --json the whole report: give one".into()),
        (false, true, Some(f)) if f != "text" => {
            Some(format!("--stat is one line per skill, --format {f} the whole report: give one"))
        }
        _ => None,
    }
}

pub fn run(global: &GlobalArgs, args: &DiffArgs) -> i32 {
    if let Some(path) = args.paths.first() {
        say(format_args!(
            "no paths after `--` (`{}`): diff compares what the agent gets from a whole home; pass the folder with --home",
            clean_line(path)
        ));
        return EXIT_USAGE;
    }
    if let Some(conflict) = conflicting_outputs(global, args) {
        say(conflict);
        return EXIT_USAGE;
    }
    // Hermes lists supporting files in the filesystem's order, and a
    // revision's copy lies on another filesystem than the working tree
    // (in memory): listed in one order, by their names, both states list
    // the same files alike.
    crate::engine::listing::set_order(crate::engine::listing::Order::Fnv1a);
    // `--demo`: the demo home kept in git, its last commit the demo a
    // change ago; read as a home given by `--home`.
    let demo = match global.demo.then(DemoHome::create_in_git).transpose() {
        Ok(demo) => demo,
        Err(e) => {
            say(format_args!("cannot write the demo home: {e}"));
            return EXIT_NO_ANSWER;
        }
    };
    let demo_global = demo.as_ref().map(|d| GlobalArgs { home: Some(d.home()), demo: false, ..global.clone() });
    let global = demo_global.as_ref().unwrap_or(global);
    let (repo, folder) = match folder_of(global) {
        Ok(found) => found,
        Err(msg) => {
            say(msg);
            return EXIT_USAGE;
        }
    };
    // Our copies go where the working tree's walk does not see them.
    crate::scratch::keep_out_of(&repo.root);
    let span = match span(&repo, args) {
        Ok(span) => span,
        Err(e) => {
            say(e);
            return EXIT_USAGE;
        }
    };
    // A folder the working tree lacks, or reaches through a symlink (whose
    // revisions may lead elsewhere), is read whole in each revision.
    let root = repo.root.canonicalize().unwrap_or_else(|_| repo.root.clone());
    let as_its_own = folder.is_dir() && !through_a_symlink(&folder, &root);
    let overlaid = as_its_own.then(|| read_overlaid(global, args, &repo, &span, &folder)).flatten();
    let report = match overlaid {
        Some(report) => report,
        None => read_whole(global, args, &repo, &span, &folder),
    };
    let mut report = match report {
        Ok(report) => report,
        Err(code) => return code,
    };
    report.notes.extend(repo.filters_note());
    if global.user.is_some() || global.db.is_some() {
        report.notes.push("per-user layers (--user, --db) are not compared: the home's own skills are".to_owned());
    }
    report.notes.sort();
    report.notes.dedup();
    let from = json!({"rev": span.from_name, "commit": span.from});
    let to = json!({"rev": span.to_name, "commit": span.to});
    let format = if global.json { DiffFormat::Json } else { args.format.unwrap_or_default() };
    if format != DiffFormat::Json {
        report = report.shown_from(&folder, &root);
    }
    super::max_chars_unused("diff", args.max_chars, format == DiffFormat::Markdown && !args.stat);
    let mut out = io::BufWriter::new(io::stdout().lock());
    let titles = (&span.from_name[..], &span.to_name[..]);
    let written = match (format, args.stat) {
        (DiffFormat::Json, _) => print_json(&mut out, &report.to_json(from, to)),
        (_, true) => write_stat(&report, &mut out),
        (DiffFormat::Markdown, _) => write_markdown(&report, titles, super::comment_limit(args.max_chars), &mut out),
        (DiffFormat::Text, _) => write_text(&report, titles, &folder, super::output::colour_on_stdout(), &mut out),
    };
    let code = if args.exit_code && report.changes_agent() { EXIT_ANSWER_ERROR } else { EXIT_OK };
    match super::output::verdict(written.and_then(|()| out.flush()), code) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("skillscope: {e}");
            EXIT_NO_ANSWER
        }
    }
}

/// The report of the diff, each state read whole: a revision's tree
/// written from git's objects, both states walked side by side.
fn read_whole(
    global: &GlobalArgs,
    args: &DiffArgs,
    repo: &Repo,
    span: &Span,
    folder: &Path,
) -> Result<DiffReport, i32> {
    let repo_root = repo.root.canonicalize().unwrap_or_else(|_| repo.root.clone());
    let rel = folder.strip_prefix(&repo_root).unwrap_or(Path::new("")).to_path_buf();
    // Git's changed paths are asked for while the revisions are written.
    let changed = compare::ChangedPaths::start(repo, &span.from, span.to.as_deref());
    // Where the working tree's skills are walked: their ignored files are
    // taken into a revision's copy first.
    let roots = match crate::engine::home::Home::load(folder.to_path_buf(), &Env::from_process()).scan_dirs() {
        dirs if dirs.is_empty() => vec![folder.to_path_buf()],
        dirs => dirs.iter().map(|d| d.canonicalize().unwrap_or_else(|_| d.clone())).collect(),
    };
    let worktree_side = span.to.is_none();
    let mut from_tree = match crate::compare::read_revision(repo, &span.from, &roots, worktree_side) {
        Ok(t) => t,
        Err(msg) => {
            say(format_args!("reading {}: {msg}", span.from_name));
            return Err(EXIT_NO_ANSWER);
        }
    };
    let to_tree = match span.to.as_deref().map(|to| crate::compare::read_revision(repo, to, &roots, false)).transpose()
    {
        Ok(t) => t,
        Err(msg) => {
            say(format_args!("reading {}: {msg}", span.to_name));
            return Err(EXIT_NO_ANSWER);
        }
    };
    let changed = changed.finish();
    // Of the files a sparse checkout leaves out, those that differ are said.
    if let Some(changed) = &changed {
        from_tree.1.sparse.retain(|rel| changed.contains(rel));
    }
    // Against the working tree, the large files it has as the revision does
    // are taken from it: the guard scans one file in both states.
    if let (None, Some(changed)) = (&to_tree, &changed) {
        repo.take_unchanged_stand_ins(from_tree.0.path(), &mut from_tree.1, |rel| !changed.contains(rel));
    }
    // A folder the working tree lacks holds nothing there: an empty one of
    // ours stands for it.
    let lacking = match folder.is_dir() {
        true => None,
        false => match crate::scratch::ScratchDir::new("skillscope-empty-") {
            Ok(empty) => Some(empty),
            Err(e) => {
                say(format_args!("cannot make an empty folder to stand for {}: {e}", folder.display()));
                return Err(EXIT_NO_ANSWER);
            }
        },
    };
    let side = |tree: Option<&crate::scratch::ScratchDir>| -> (PathBuf, Option<(PathBuf, PathBuf)>) {
        match tree {
            Some(dir) => {
                let written = dir.path().canonicalize().unwrap_or_else(|_| dir.path().to_path_buf());
                (crate::engine::paths::normalize(&written.join(&rel)), Some((written, repo_root.clone())))
            }
            None => (lacking.as_ref().map_or(folder, |empty| empty.path()).to_path_buf(), None),
        }
    };
    // A revision's external dirs are read at that revision where they can be.
    let at_revision = |session: &mut super::Session, map: &Option<(PathBuf, PathBuf)>, rev: Option<&str>| match map {
        Some((written, real)) => {
            let shown = session.folder.clone();
            compare::externals_at(&mut session.engine, rev, shown.as_deref(), (real, written))
        }
        None => compare::Externals::default(),
    };
    let (from_home, from_map) = side(Some(&from_tree.0));
    let (to_home, to_map) = side(to_tree.as_ref().map(|t| &t.0));
    // A folder no state has is a mistake (a typo); one a revision lacks
    // holds nothing there: made empty in its copy (ours), it reads as a
    // home without skills.
    let sides = [(&from_home, &from_map), (&to_home, &to_map)];
    if lacking.is_some() && sides.iter().all(|(home, written)| written.is_none() || !home.is_dir()) {
        if folder.exists() {
            say(SessionError::NotADirectory(folder.to_path_buf()));
            return Err(EXIT_USAGE);
        }
        let names = [Some(&span.from_name), span.to.as_ref().map(|_| &span.to_name)];
        let names: Vec<&str> = names.into_iter().flatten().map(String::as_str).collect();
        let tree = if span.to.is_none() { "the working tree, nor in " } else { "" };
        say(format_args!("{}: no such folder in {tree}{}", folder.display(), names.join(" or ")));
        return Err(EXIT_USAGE);
    }
    for (home, written) in sides {
        if let Some((top, _)) = written.as_ref().filter(|_| !home.is_dir()) {
            // A file or a symlink leading to none (in our copy) holds no
            // skills either.
            if std::fs::symlink_metadata(home).is_ok() {
                let _ = std::fs::remove_file(home);
            }
            let _ = crate::engine::paths::create_dirs_below(top, home);
        }
    }
    let open = |home: &Path| {
        let mut g = global.clone();
        g.home = Some(home.to_path_buf());
        open_session(&g, Env::from_process(), false)
    };
    let (mut from_session, mut to_session) = match (open(&from_home), open(&to_home)) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) | (_, Err(e)) => {
            say(e);
            return Err(EXIT_USAGE);
        }
    };
    let from_externals = at_revision(&mut from_session, &from_map, span.from_rev.as_deref());
    let to_externals = at_revision(&mut to_session, &to_map, span.to_rev.as_deref());
    let with_externals = |map: Option<(PathBuf, PathBuf)>, ext: &compare::Externals| -> Vec<(PathBuf, PathBuf)> {
        ext.written_as.iter().cloned().chain(map).collect()
    };
    let root_of = |map: &Option<(PathBuf, PathBuf)>| map.as_ref().map_or_else(|| repo_root.clone(), |(w, _)| w.clone());
    let (from_root, to_root) = (root_of(&from_map), root_of(&to_map));
    let (mut from_map, mut to_map) = (with_externals(from_map, &from_externals), with_externals(to_map, &to_externals));
    // A folder reached through a symlink (a skill folder's paths lead where
    // it does) is shown as given, the first mapping tried.
    for (home, map) in [(&from_home, &mut from_map), (&to_home, &mut to_map)] {
        if let Ok(real) = home.canonicalize().map(|real| crate::engine::paths::normalize(&real)) {
            if real != crate::engine::paths::normalize(home) {
                map.insert(0, (real, folder.to_path_buf()));
            }
        }
    }
    // A folder of skills is read through a stand-in home of each state's
    // own; messages naming it (its config.yaml) name the later one.
    if from_session.folder.is_some() && to_session.folder.is_some() {
        from_map.push((from_session.engine.home.root.clone(), to_session.engine.home.root.clone()));
    }
    let before =
        compare::Side { engine: &from_session.engine, home: &from_home, root: &from_root, written_as: from_map };
    let after = compare::Side { engine: &to_session.engine, home: &to_home, root: &to_root, written_as: to_map };
    // Without a symlink in either tree, a folder holding no changed path has
    // the same files in both states.
    let no_links = !from_tree.1.may_hold_links() && !to_tree.as_ref().is_some_and(|t| t.1.may_hold_links());
    let top = (repo_root.as_path(), no_links);
    let report = compare::compare_sides(before, after, &changed, top, folder, args.min_severity);
    let mut report = match report {
        Ok(report) => report,
        Err(e) => {
            say(e);
            return Err(EXIT_NO_ANSWER);
        }
    };
    report.notes.extend(notes(&from_tree.1, to_tree.as_ref().map(|t| &t.1)));
    let given = from_tree.1.ignored_skills.iter().chain(to_tree.iter().flat_map(|t| &t.1.ignored_skills));
    report.notes.extend(crate::engine::diff::git::ignored_note(given.cloned()));
    report.notes.extend(from_externals.notes.iter().chain(&to_externals.notes).cloned());
    Ok(report)
}

/// The report of a diff, the working tree walked once and the revisions
/// read as it with the skill folders that differ
/// ([`compare::against_worktree`]); none when that cannot be.
fn read_overlaid(
    global: &GlobalArgs,
    args: &DiffArgs,
    repo: &Repo,
    span: &Span,
    folder: &Path,
) -> Option<Result<DiffReport, i32>> {
    let mut g = global.clone();
    g.home = Some(folder.to_path_buf());
    let session = match open_session(&g, Env::from_process(), false) {
        Ok(session) => session,
        Err(e) => {
            say(e);
            return Some(Err(EXIT_USAGE));
        }
    };
    match compare::against_worktree(&session.engine, repo, &span.from, span.to.as_deref(), folder, args.min_severity)? {
        Ok(overlaid) => {
            let (mut report, written) = overlaid.into_report_at_exit();
            for written in &written {
                report.notes.extend(notes(written, None));
            }
            Some(Ok(report))
        }
        Err(e) => {
            say(e);
            Some(Err(EXIT_NO_ANSWER))
        }
    }
}

/// What the comparison left aside or took as it is.
fn notes(from: &Written, to: Option<&Written>) -> Vec<String> {
    let mut notes = Vec::new();
    for written in std::iter::once(from).chain(to) {
        for sub in &written.submodules {
            notes.push(format!("submodule {sub} left aside (its folder is empty in the revision read)"));
        }
        notes.extend(crate::engine::diff::git::sparse_note(&written.sparse));
        per_file(
            &mut notes,
            &written.not_read,
            (
                "larger than 1 MiB, not read (stood in for by a file of its size)",
                "files larger than 1 MiB not read, each stood in for by a file of its size",
            ),
        );
        per_file(
            &mut notes,
            &written.lfs_absent,
            (
                "a Git LFS file whose object is not in the local LFS store (diff fetches none): stood in for by a file of its size",
                "Git LFS files whose objects are not in the local LFS store (diff fetches none), each stood in for by a file of its size",
            ),
        );
        per_file(
            &mut notes,
            &written.missing,
            (
                "not in the repository's objects (a partial clone leaves files out, and diff fetches none): stood in for by an empty file",
                "files not in the repository's objects (a partial clone leaves files out, and diff fetches none), each stood in for by an empty file",
            ),
        );
        if written.ignored > 0 {
            let files = if written.ignored == 1 { "file" } else { "files" };
            notes.push(format!(
                "{} {files} git ignores taken as the working tree has them in the revision read (a checkout leaves them)",
                written.ignored
            ));
        }
        if written.ignored_left_out {
            notes.push(format!(
                "more than {} files and folders git ignores: the rest left out of the revision read",
                crate::engine::diff::ignored::CARRIED_AT_MOST
            ));
        }
    }
    notes
}

/// A note per file, `one` saying what of it, up to a few files; beyond,
/// one note, `many` saying what of them all, naming the first few: a
/// partial clone may leave out thousands, and a comment has a limit.
fn per_file(notes: &mut Vec<String>, files: &[String], (one, many): (&str, &str)) {
    const NAMED: usize = 5;
    if files.len() <= NAMED {
        notes.extend(files.iter().map(|file| format!("{file}: {one}")));
    } else {
        let (named, rest) = (files[..NAMED].join(", "), files.len() - NAMED);
        notes.push(format!("{} {many}: {named} and {rest} more", files.len()));
    }
}

/// `+1,234`, `-5`, `0`.
fn sign(n: i128) -> String {
    let size = thousands(usize::try_from(n.unsigned_abs()).unwrap_or(usize::MAX));
    match n {
        1.. => format!("+{size}"),
        0 => size,
        _ => format!("-{size}"),
    }
}

fn index_line(report: &DiffReport) -> String {
    let (b, a) = (report.index_before, report.index_after);
    format!(
        "index: {} → {} chars ({}), {} → {} tokens ({})",
        thousands(b.chars),
        thousands(a.chars),
        sign(a.chars as i128 - b.chars as i128),
        thousands(b.tokens),
        thousands(a.tokens),
        sign(a.tokens as i128 - b.tokens as i128)
    )
}

fn counts_line(report: &DiffReport) -> String {
    let parts: Vec<String> = report.counts().iter().map(|(k, n)| format!("{n} {}", k.name())).collect();
    let mut line = format!("skills: {}; bundles: {} changed", parts.join(", "), report.bundles.len());
    // Said when there are some: most changes leave every category's line.
    if !report.categories.is_empty() {
        line.push_str(&format!("; categories: {} changed", report.categories.len()));
    }
    line
}

/// The short summary of a skill's change, for --stat and tables.
fn gist(skill: &SkillChange) -> String {
    let mut parts: Vec<String> = skill
        .fields
        .iter()
        .filter(|_| skill.change != diff::ChangeKind::Added && skill.change != diff::ChangeKind::Removed)
        .map(|f| f.field.to_owned())
        .collect();
    if skill.message.is_some() {
        parts.push("message".into());
    }
    let alone = matches!(skill.change, diff::ChangeKind::Added | diff::ChangeKind::Removed);
    if alone {
        // Its one side's answers, in brief: whether it is (was) offered,
        // and the guard's verdict where it is not safe.
        if skill.why.is_some() {
            parts.push("not offered".into());
        }
        let verdict = skill.decisions.iter().find(|d| d.field == "guard.verdict");
        if let Some(verdict) = verdict.and_then(|d| d.after.as_str().or(d.before.as_str())) {
            parts.push(format!("guard {}", clean_line(verdict)));
        }
    } else {
        parts.extend(skill.decisions.iter().map(|d| d.field.to_owned()));
    }
    let (b, a) = skill.index;
    if b.tokens != a.tokens {
        parts.push(format!("index {} tokens", sign(a.tokens as i128 - b.tokens as i128)));
    }
    if !skill.findings.new.is_empty() {
        parts.push(crate::engine::comment::counted(skill.findings.new.len(), "new finding", "new findings"));
    }
    if !skill.findings.fixed.is_empty() {
        parts.push(format!("{} fixed", skill.findings.fixed.len()));
    }
    parts.join(", ")
}

fn write_stat(report: &DiffReport, out: &mut Out) -> io::Result<()> {
    for skill in &report.skills {
        writeln!(
            out,
            "{} {} ({})  {}",
            skill.change.mark(),
            clean_line(&skill.name),
            clean_line(&skill.folder),
            gist(skill)
        )?;
    }
    for bundle in &report.bundles {
        writeln!(
            out,
            "{} {} (bundle)  {}",
            bundle.change.mark(),
            clean_line(&bundle.slug),
            compare::bundle_gist(bundle)
        )?;
    }
    for category in &report.categories {
        let (mark, name) = (category.change.mark(), clean_line(&category.name));
        writeln!(out, "{mark} {name} (category)  {}", compare::change_line(&category.line))?;
    }
    // One line per skill stays one line per skill: the notes (what was
    // left aside) go to stderr.
    for note in &report.notes {
        eprintln!("skillscope: note: {}", clean_line(note));
    }
    writeln!(out, "{}; {}", counts_line(report), index_line(report))
}

struct Paint {
    on: bool,
}

impl Paint {
    fn wrap(&self, code: &str, text: &str) -> String {
        if self.on {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_owned()
        }
    }
}

fn write_text(
    report: &DiffReport,
    (from, to): (&str, &str),
    folder: &Path,
    colour: bool,
    out: &mut Out,
) -> io::Result<()> {
    let paint = Paint { on: colour };
    writeln!(
        out,
        "{}",
        paint.wrap(
            "1",
            &format!("{} → {}  ({})", clean_line(from), clean_line(to), clean_line(&folder.to_string_lossy()))
        )
    )?;
    writeln!(out, "{}", index_line(report))?;
    writeln!(out, "{}", counts_line(report))?;
    if report.skills.is_empty() && report.bundles.is_empty() && report.home_findings.is_empty() && !report.index_changed
    {
        writeln!(out, "\nNothing the agent gets changed.")?;
    }
    for skill in &report.skills {
        let code = match skill.change {
            diff::ChangeKind::Added => "32",
            diff::ChangeKind::Removed => "31",
            _ => "33",
        };
        writeln!(out)?;
        let title = format!(
            "{} {} ({}) {}",
            skill.change.mark(),
            clean_line(&skill.name),
            clean_line(&skill.folder),
            skill.change.name()
        );
        writeln!(out, "{}", paint.wrap(code, &title))?;
        for f in &skill.fields {
            writeln!(out, "    {}", compare::change_line(f))?;
        }
        if let Some(why) = compare::why_line(skill) {
            writeln!(out, "    {why}")?;
        }
        for d in &skill.decisions {
            writeln!(out, "    {}", compare::change_line(d))?;
        }
        let (b, a) = skill.index;
        if b != a {
            let [bc, ac, bt, at] = [b.chars, a.chars, b.tokens, a.tokens].map(thousands);
            writeln!(out, "    index cost: {bc} → {ac} chars, {bt} → {at} tokens")?;
        }
        if skill.message.is_some() {
            writeln!(out, "    message:")?;
            for note in skill.message_absences() {
                writeln!(out, "      {}", clean_line(&note))?;
            }
            if let Some(diff) = skill.message_diff_of_both() {
                write_diff(&diff, &paint, out)?;
            }
        }
        write_findings(&skill.findings, out)?;
    }
    for bundle in &report.bundles {
        writeln!(out)?;
        writeln!(
            out,
            "{}",
            paint.wrap(
                "36",
                &format!("{} {} (bundle) {}", bundle.change.mark(), clean_line(&bundle.slug), bundle.change.name())
            )
        )?;
        for line in compare::bundle_lines(bundle) {
            writeln!(out, "    {line}")?;
        }
        if let Some(diff) = bundle.message_diff() {
            writeln!(out, "    message:")?;
            write_diff(&diff, &paint, out)?;
        }
    }
    for category in &report.categories {
        writeln!(out)?;
        let title =
            format!("{} {} (category) {}", category.change.mark(), clean_line(&category.name), category.change.name());
        writeln!(out, "{}", paint.wrap("36", &title))?;
        writeln!(out, "    {}", compare::change_line(&category.line))?;
    }
    if !report.home_findings.is_empty() {
        writeln!(out, "\nhome:")?;
        write_findings(&report.home_findings, out)?;
    }
    for note in &report.notes {
        writeln!(out, "note: {}", clean_line(note))?;
    }
    Ok(())
}

fn write_diff(diff: &str, paint: &Paint, out: &mut Out) -> io::Result<()> {
    for line in diff.lines() {
        let code = match line.as_bytes().first() {
            Some(b'+') if !line.starts_with("+++") => "32",
            Some(b'-') if !line.starts_with("---") => "31",
            Some(b'@') => "36",
            _ => "",
        };
        let text = format!("      {}", clean_line(line));
        writeln!(out, "{}", if code.is_empty() { text } else { paint.wrap(code, &text) })?;
    }
    Ok(())
}

fn write_findings(f: &diff::FindingChanges, out: &mut Out) -> io::Result<()> {
    for (label, list) in [("new finding", &f.new), ("fixed", &f.fixed)] {
        for x in list {
            let at = x.line.map(|l| format!(":{l}")).unwrap_or_default();
            writeln!(out, "    {label}: {} {}{at}: {}", x.rule, clean_line(&x.file), clean_line(&x.message))?;
        }
    }
    Ok(())
}

/// A code span of a table cell: pipes escaped, one line (HTML is not read
/// inside code; elsewhere [`markdown_text`] escapes it), fenced by more
/// backticks than any run of them inside.
fn cell(text: &str) -> String {
    let text = clean_line(text).replace('|', "\\|");
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    match longest {
        0 => format!("`{text}`"),
        n => {
            let fence = "`".repeat(n + 1);
            format!("{fence} {text} {fence}")
        }
    }
}

/// A pull-request comment: the summary and a table of the changed skills,
/// then each skill's and bundle's details folded away, as many as `limit`
/// leaves room for (a message diff too long is left out first).
fn write_markdown(report: &DiffReport, titles: (&str, &str), limit: Option<usize>, out: &mut Out) -> io::Result<()> {
    let comment = markdown(report, titles, limit);
    let chars = comment.chars().count();
    if let Some(limit) = limit.filter(|&limit| chars > limit) {
        say(format_args!("note: the comment's summary alone takes {chars} characters, more than --max-chars {limit}"));
    }
    out.write_all(comment.as_bytes())
}

fn markdown(report: &DiffReport, (from, to): (&str, &str), limit: Option<usize>) -> String {
    use crate::engine::comment::{counted, Comment};
    use std::fmt::Write as _;
    let mut comment = Comment::default();
    comment.keep(format!(
        "### What this change does to the agent\n\n{} → {}: {}; {}\n\n",
        cell(from),
        cell(to),
        counts_line(report),
        index_line(report)
    ));
    if !report.skills.is_empty() || !report.bundles.is_empty() || !report.categories.is_empty() {
        // The header goes with the first row: never a table with no rows.
        let mut header = Some("| | Skill | Folder | Change | What changed |\n|---|---|---|---|---|\n");
        let rows = report.skills.iter().map(|s| (s.change, cell(&s.name), cell(&s.folder), gist(s)));
        let bundles =
            report.bundles.iter().map(|b| (b.change, cell(&b.slug), "(bundle)".into(), compare::bundle_gist(b)));
        let categories = report
            .categories
            .iter()
            .map(|c| (c.change, cell(&c.name), "(category)".into(), compare::change_line(&c.line)));
        for (change, name, folder, what) in rows.chain(bundles).chain(categories) {
            let (mark, change, what) = (change.mark(), change.name(), markdown_text(&what));
            let row = header.take().unwrap_or_default().to_owned()
                + &format!("| {mark} | {name} | {folder} | {change} | {what} |\n");
            comment.fold("row", row, None);
        }
        comment.keep("\n");
    }
    for skill in &report.skills {
        let mut head = format!(
            "<details><summary>{} <code>{}</code> ({})</summary>\n\n",
            skill.change.mark(),
            html(&skill.name),
            skill.change.name()
        );
        for f in &skill.fields {
            let _ = writeln!(head, "- {}", markdown_text(&compare::change_line(f)));
        }
        if let Some(why) = compare::why_line(skill) {
            let _ = writeln!(head, "- {}", markdown_text(&why));
        }
        for d in &skill.decisions {
            let _ = writeln!(head, "- {}", markdown_text(&compare::change_line(d)));
        }
        for x in &skill.findings.new {
            let at = x.line.map(|l| format!(":{l}")).unwrap_or_default();
            let (file, message) = (markdown_text(&x.file), markdown_text(&x.message));
            let _ = writeln!(head, "- new finding `{}` {file}{at}: {message}", x.rule);
        }
        for x in &skill.findings.fixed {
            let _ = writeln!(head, "- fixed `{}` {}: {}", x.rule, markdown_text(&x.file), markdown_text(&x.message));
        }
        for note in skill.message_absences() {
            let _ = writeln!(head, "- {}", markdown_text(&note));
        }
        let diff = skill.message_diff_of_both();
        let short = diff.as_deref().map(|d| head.clone() + &folded_short(d));
        comment.fold("skill", folded(head, diff), short);
    }
    for bundle in &report.bundles {
        let mut head = format!(
            "<details><summary>bundle <code>{}</code> ({})</summary>\n\n",
            html(&bundle.slug),
            bundle.change.name()
        );
        for line in compare::bundle_lines(bundle) {
            let _ = writeln!(head, "- {}", markdown_text(&line));
        }
        let diff = bundle.message_diff();
        let short = diff.as_deref().map(folded_short);
        comment.fold("bundle", folded(head.clone(), diff), short.map(|s| head + &s));
    }
    let home = &report.home_findings;
    if !home.new.is_empty() || !home.fixed.is_empty() {
        let mut block = String::from("<details><summary>the home (config.yaml, bundles, folders)</summary>\n\n");
        for (label, list) in [("new finding", &home.new), ("fixed", &home.fixed)] {
            for x in list {
                let at = x.line.map(|l| format!(":{l}")).unwrap_or_default();
                let (file, message) = (markdown_text(&x.file), markdown_text(&x.message));
                let _ = writeln!(block, "- {label} `{}` {file}{at}: {message}", x.rule);
            }
        }
        comment.fold("home", block + "\n</details>\n\n", None);
    }
    for note in &report.notes {
        comment.keep(format!("> {}\n", markdown_text(note)));
    }
    comment.fit(limit, |cut| {
        let mut parts = Vec::new();
        let rows = cut.left_out_of("row");
        if rows > 0 {
            parts.push(format!("{} of the table", counted(rows, "row", "rows")));
        }
        let (skills, bundles) = (cut.left_out_of("skill"), cut.left_out_of("bundle"));
        if skills > 0 {
            parts.push(format!("the details of {}", counted(skills, "skill", "skills")));
        }
        if bundles > 0 {
            parts.push(format!("the details of {}", counted(bundles, "bundle", "bundles")));
        }
        if cut.left_out_of("home") > 0 {
            parts.push("the home's findings".to_owned());
        }
        let diffs = cut.shortened_of("skill") + cut.shortened_of("bundle");
        if diffs > 0 {
            parts.push(counted(diffs, "message diff", "message diffs"));
        }
        let why = match cut.over {
            true => format!("as the summary alone is longer than the {} characters `--max-chars` allows", cut.limit),
            false => format!("to keep this comment under {} characters (`--max-chars`)", cut.limit),
        };
        format!("> Left out {why}: {}; `skillscope diff` of these revisions shows them all.\n", parts.join("; "))
    })
}

/// A folded block: its head, the message diff, the close.
fn folded(mut head: String, diff: Option<String>) -> String {
    if let Some(diff) = diff {
        head.push_str(&format!("\n{}\n", fenced_diff(&diff)));
    }
    head + "\n</details>\n\n"
}

/// The close of a folded block whose message diff is left out, saying how
/// long it was.
fn folded_short(diff: &str) -> String {
    let lines = diff.lines().count();
    format!("- message changed (its diff of {lines} lines left out for length)\n\n</details>\n\n")
}

/// A diff in a fenced block: each line's control characters shown, and no
/// line of it able to close the fence.
fn fenced_diff(diff: &str) -> String {
    let mut out = String::from("```diff\n");
    for line in diff.lines() {
        out.push_str(&clean_line(line).replace("```", "`\u{200b}``"));
        out.push('\n');
    }
    out.push_str("```");
    out
}

#[cfg(test)]
mod tests {
    use super::{cell, per_file};

    #[test]
    fn a_few_files_are_a_note_each_many_one_note() {
        let what = ("left out", "files left out");
        let files = |n: usize| (1..=n).map(|i| format!("f{i}")).collect::<Vec<_>>();
        let mut notes = Vec::new();
        per_file(&mut notes, &files(5), what);
        assert_eq!(notes, ["f1: left out", "f2: left out", "f3: left out", "f4: left out", "f5: left out"]);
        notes.clear();
        per_file(&mut notes, &files(500), what);
        assert_eq!(notes, ["500 files left out: f1, f2, f3, f4, f5 and 495 more"]);
    }

    #[test]
    fn a_code_span_holds_any_backticks_and_pipes() {
        assert_eq!(cell("tools/lint"), "`tools/lint`");
        assert_eq!(cell("back`tick"), "`` back`tick ``");
        assert_eq!(cell("a``b|c"), "``` a``b\\|c ```");
    }
}
