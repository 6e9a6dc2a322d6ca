//! What a change does to the agent: two states of a home, each answered by
//! the same engine as if checked out alone, compared skill by skill. Diff
//! holds no second model of Hermes: every field compared is an answer the
//! other commands give (`list`, `prompt`, `cost`, `commands`, `invoke`,
//! readiness, `check`, `scan`), and the costly ones (the `/name` message,
//! the guard's decisions) are made only for skills whose files or answers
//! changed, and those a lookup by the same name may now find otherwise.

pub mod git;
pub mod ignored;
mod lfs;
mod report;
pub mod unread;

use crate::catalog::Catalog;
use crate::check::walk::{CheckWalk, CheckedHome, OwnFindings, WalkedCheck};
use crate::check::{Policy, Progress};
use crate::context::Context;
use crate::cost::{CostReport, CostRequest, Size, Tokenizer};
use crate::diagnostics::Finding;
use crate::prompt::{IndexRequest, PromptIndex};
use crate::py::PyError;
use crate::why::WhyInputs;
use crate::{paths, Engine};
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

pub use crate::overlay::Overlay;
pub use report::{
    unified, BundleChange, CategoryChange, ChangeKind, DiffReport, FieldChange, FindingChanges, FindingRef, SkillChange,
};

/// A state's walk: the names lookups need noted, the index's walks made,
/// no skill's own rules run (those are for the skills a change touched).
const NOTING: CheckWalk = CheckWalk { own_rules: false, noting: true, indexing: true };

/// One state of a home, as our engine answers for it: the caller's engine,
/// or one of its own (the home with a revision's config.yaml).
pub struct State<'a> {
    pub engine: Cow<'a, Engine>,
    pub catalog: Catalog,
    pub findings: Vec<Finding>,
    pub index: PromptIndex,
    pub cost: CostReport,
    /// Where this state's files were written, and the folders they stand
    /// for: answers name the latter.
    pub written_as: Vec<(PathBuf, PathBuf)>,
    /// The same as text, for the texts answers quote.
    written_text: Vec<(String, String)>,
    /// Every `*.md` name below the roots a name lookup can find: lookups
    /// need no walk.
    md_names: std::sync::Arc<HashSet<std::ffi::OsString>>,
    /// Each bundle's members, looked up once (by the bundle rules).
    bundle_members: crate::diagnostics::bundles::MembersByBundle,
}

/// How a state is read.
#[derive(Debug, Clone, Default)]
pub struct ReadOptions {
    pub policy: Policy,
    pub index: IndexRequest,
    pub tokenizer: Tokenizer,
    /// The session's working directory: each state's index shows names-only
    /// the categories its own settings' posture says for it
    /// (`agent.coding_context`), over `index.compact`.
    pub posture_cwd: Option<PathBuf>,
}

impl<'a> State<'a> {
    /// Reads the home `engine` opens: its catalog, findings and index (one
    /// walk), and the index's cost.
    pub fn read(
        engine: &'a Engine,
        options: &ReadOptions,
        written_as: Vec<(PathBuf, PathBuf)>,
    ) -> Result<State<'a>, PyError> {
        options.tokenizer.prepare_in_background();
        let progress = Progress::default();
        let walked = engine.walk_checked(&progress, &options.policy, CheckWalk { own_rules: true, ..NOTING });
        State::finished(Cow::Borrowed(engine), options, walked, &progress, written_as)
    }

    /// Walks the home `engine` opens, running no skill's own rules: the
    /// walk a state is answered from ([`State::from_walk`]) once it is
    /// known which skills need them, and that states differing from it in
    /// a few folders reuse ([`State::overlaid`]).
    pub fn walk(engine: &Engine, options: &ReadOptions) -> WalkedCheck {
        options.tokenizer.prepare_in_background();
        engine.walk_checked(&Progress::default(), &options.policy, NOTING)
    }

    /// Each skill's own rules on the skills of a walk ([`State::walk`])
    /// that `options.policy.only` selects, to add to it (and to its copies:
    /// [`State::add_own`]).
    pub fn own_checked(engine: &Engine, options: &ReadOptions, walked: &WalkedCheck) -> OwnFindings {
        walked.own_checked(engine, &Progress::default(), &options.policy)
    }

    /// Adds own rules' findings made for a walk's skills ([`State::own_checked`]).
    pub fn add_own(walked: &mut WalkedCheck, own: OwnFindings) {
        walked.add_own(own);
    }

    /// The state a walk ([`State::walk`]) found; with an engine of its own
    /// (the home under other settings), its skills linked again by it.
    pub fn from_walk(
        engine: Cow<'a, Engine>,
        options: &ReadOptions,
        walked: WalkedCheck,
    ) -> Result<State<'a>, PyError> {
        let walked = match &engine {
            Cow::Borrowed(_) => walked,
            Cow::Owned(own) => walked.relinked(own),
        };
        State::finished(engine, options, walked, &Progress::default(), Vec::new())
    }

    /// The state that differs from the one `base` walked ([`State::walk`])
    /// only inside the overlay's folders: their written copy is walked by
    /// `differing`, an engine of the same home whose roots are the copies
    /// of `engine`'s ([`Engine::with_roots_in`]), each skill's own rules
    /// run on the skills inside them (the other skills keep the findings
    /// `base` holds). None when the roots do not match.
    pub fn overlaid(
        engine: Cow<'a, Engine>,
        options: &ReadOptions,
        base: WalkedCheck,
        differing: &Engine,
        overlay: Overlay,
    ) -> Option<Result<State<'a>, PyError>> {
        let written_as = vec![(overlay.written_top.clone(), overlay.real_top.clone())];
        let policy = Policy { only: None, written_as: written_as.clone(), ..options.policy.clone() };
        let progress = Progress::default();
        let walked = differing.walk_checked(&progress, &policy, CheckWalk { own_rules: true, ..NOTING });
        let merged = base.overlaid(&engine, walked, std::sync::Arc::new(overlay))?;
        let options = ReadOptions { policy, ..options.clone() };
        Some(State::finished(engine, &options, merged, &progress, written_as))
    }

    /// The state a finished walk answers: its catalog, findings and index,
    /// and the index's cost.
    fn finished(
        engine: Cow<'a, Engine>,
        options: &ReadOptions,
        walked: WalkedCheck,
        progress: &Progress,
        written_as: Vec<(PathBuf, PathBuf)>,
    ) -> Result<State<'a>, PyError> {
        let mut request = options.index.clone();
        if let Some(cwd) = &options.posture_cwd {
            request.compact = crate::posture::compact_categories(&engine, None, cwd);
        }
        let checked = engine.finish_home(walked, progress, &options.policy, Some(&request));
        let CheckedHome { catalog, findings, md_names, index, bundle_members } = checked;
        let index = index.unwrap_or_else(|| engine.prompt_index(&request))?;
        let request = CostRequest { index: request, tokenizer: options.tokenizer, loaded: false };
        let cost = engine.cost_of(&index, &request);
        let written_text =
            written_as.iter().map(|(written, real)| (paths::path_string(written), paths::path_string(real))).collect();
        Ok(State { engine, catalog, findings, index, cost, written_as, written_text, md_names, bundle_members })
    }

    /// `path` as the user knows it: the written tree's folder replaced by
    /// the one it stands for.
    fn shown_path<'p>(&self, path: &'p Path) -> std::borrow::Cow<'p, Path> {
        for (written, real) in &self.written_as {
            match paths::strip_prefix(path, written) {
                Some(rest) if rest.as_os_str().is_empty() => return real.clone().into(),
                Some(rest) => return real.join(rest).into(),
                None => {}
            }
        }
        path.into()
    }

    /// `text` with the written tree's folder named as the one it stands for.
    fn shown_text(&self, text: &str) -> String {
        let mut text = text.to_owned();
        for (written, real) in &self.written_text {
            if text.contains(written.as_str()) {
                text = text.replace(written.as_str(), real);
            }
        }
        text
    }

    /// The `/name` message of the skill at `index`, paths as shown.
    fn message(&self, ctx: &Context, index: usize) -> Option<String> {
        let key = self.catalog.skills[index].status.command.as_deref()?;
        let session = Some(self.engine.options.session_id.as_str());
        ctx.invocation_message(key, "", session).map(|m| self.shown_text(&m))
    }

    /// Why the skill at `index` has no `/name` message though it has a
    /// slash command (`skill_view`'s error, paths as shown).
    fn message_refusal(&self, ctx: &Context, index: usize) -> Option<String> {
        let key = self.catalog.skills[index].status.command.as_deref()?;
        let session = Some(self.engine.options.session_id.as_str());
        ctx.invocation_failure(key, session).map(|why| self.shown_text(&why))
    }
}

/// What one skill is to the agent in one state.
#[derive(Debug, Clone)]
struct Answer {
    index: usize,
    /// Its folder as shown, relative to the home shown (else absolute):
    /// what identifies it across states.
    folder: String,
    name: String,
    category: String,
    offered: bool,
    line: Option<String>,
    size: Size,
    command: Option<String>,
    /// The environment variables and credential files the skill declares
    /// it needs, met here or not: the same in CI and on a laptop.
    required_env: Vec<String>,
    credential_files: Vec<String>,
    missing_env: Vec<String>,
    missing_files: Vec<String>,
    findings: Vec<FindingRef>,
    skill_md: PathBuf,
}

impl Answer {
    /// Whether every answer compared is the same in `other` (the state's
    /// own index and files aside): then only a touched folder can differ.
    fn same_as(&self, other: &Answer) -> bool {
        self.folder == other.folder
            && self.name == other.name
            && self.category == other.category
            && self.offered == other.offered
            && self.line == other.line
            && self.size == other.size
            && self.command == other.command
            && self.required_env == other.required_env
            && self.credential_files == other.credential_files
            && self.missing_env == other.missing_env
            && self.missing_files == other.missing_files
            && self.findings == other.findings
    }
}

/// Which skill folders a change touched, as the caller knows it (git's
/// changed paths): skills it did not touch need no message rendered, and
/// folders whose files are the same need no second scan by the guard.
pub enum Touched<'a> {
    /// Every skill may have changed, its files too (nothing is known).
    All,
    /// A changed path lies outside every skill folder where answers read it
    /// (config.yaml, a bundle, a credential file): every skill's answers
    /// and message may have changed, but only the folders holding a changed
    /// path have other files — the caller knows no symlink leads out of a
    /// skill folder, so the guard, which reads a folder's files only, scans
    /// the same files in both states elsewhere. Paths as in `Paths`.
    Home { base: &'a Path, changed: Changes },
    /// Paths relative to `base` (a repository's top), `/`-separated.
    Paths { base: &'a Path, changed: Changes },
}

impl Touched<'_> {
    /// Whether `folder`'s files may differ between the states.
    fn touches(&self, folder: &Path) -> bool {
        match self {
            Touched::All => true,
            Touched::Home { base, changed } | Touched::Paths { base, changed } => {
                let Some(rel) = paths::strip_prefix(folder, base) else { return true };
                changed.held_by(&paths::rel_string(rel))
            }
        }
    }

    /// Whether any skill's answers or message may have changed, its folder
    /// untouched.
    fn everywhere(&self) -> bool {
        matches!(self, Touched::All | Touched::Home { .. })
    }
}

/// Changed paths (relative to the repository's top, `/`-separated), asked
/// of every skill's folder whether it holds one: by hash.
#[derive(Debug, Default)]
pub struct Changes {
    /// Every folder a changed path lies below.
    around: HashSet<String, foldhash::fast::RandomState>,
    /// The changed paths: a folder in one (an untracked one) holds a change.
    paths: paths::FolderSet,
    /// The stems of the changed `*.md` files other than `SKILL.md`: a name
    /// lookup (`skill_view("deploy")`, `devops/deploy`) may now find such a
    /// file beside the skill it found, or instead of it.
    md_stems: HashSet<String>,
}

impl Changes {
    pub fn new(changed: &std::collections::BTreeSet<String>) -> Changes {
        let around = changed.iter().flat_map(|c| c.match_indices('/').map(|(at, _)| c[..at].to_owned())).collect();
        let md_stems = changed
            .iter()
            .filter_map(|c| c.rsplit('/').next()?.strip_suffix(".md"))
            .filter(|stem| *stem != "SKILL")
            .map(str::to_owned)
            .collect();
        Changes { around, paths: changed.iter().cloned().collect(), md_stems }
    }

    /// Whether `folder` holds a changed path, or is itself in a changed
    /// folder.
    pub fn held_by(&self, folder: &str) -> bool {
        self.around.contains(folder) || self.paths.covers(folder)
    }
}

/// Whether a changed path lies outside every skill folder of both states
/// (config.yaml, a bundle, a credential file): `touched` does not account
/// for it, and it may change any skill.
pub fn touches_home(states: [&State; 2], base: &Path, changed: &std::collections::BTreeSet<String>) -> bool {
    let folders: paths::FolderSet = states
        .iter()
        .flat_map(|state| {
            state.catalog.skills.iter().filter_map(|skill| {
                paths::strip_prefix(&state.shown_path(&skill.skill_dir), base).map(paths::rel_string)
            })
        })
        .collect();
    !changed.iter().all(|c| folders.covers(c))
}

/// Compares two states. `home` is the home as the user names it (folders
/// are shown relative to it).
pub fn compare<'a>(before: &'a State, after: &'a State, home: &Path, touched: &Touched) -> DiffReport {
    // Each state's answers and name lookups are made on a thread of its own.
    let read = |state: &'a State| {
        let ctx = Context::prepared(&state.engine, &state.catalog).knowing_md_names(state.md_names.clone());
        ctx.lookup();
        (answers(state, home), ctx)
    };
    let ((old, ctx_before), (new, ctx_after)) = std::thread::scope(|scope| {
        let earlier = scope.spawn(crate::listing::carried(|| read(before)));
        let later = read(after);
        (earlier.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)), later)
    });
    let pairs = pair_up(&old, &new);
    // Which pairs a change touched (their folder), and which answer alike.
    let everywhere = touched.everywhere();
    let status = crate::parallel_map_min(&pairs, 256, |&pair| match pair {
        (Some(o), Some(n)) => {
            let (o, n) = (&old[o], &new[n]);
            let dir_touched = touched.touches(&before.shown_path(&before.catalog.skills[o.index].skill_dir))
                || touched.touches(&after.shown_path(&after.catalog.skills[n.index].skill_dir));
            (dir_touched, !dir_touched && !everywhere && o.same_as(n))
        }
        _ => (true, false),
    });
    // A skill is looked up by its name and its folder's name: where a
    // change touched or changed a skill, another of the same name may now
    // be found in its place or beside it (ambiguous), its answers all
    // alike. Those names are in play.
    let mut in_play: HashSet<&str> = HashSet::new();
    for (&(o, n), _) in pairs.iter().zip(&status).filter(|(_, &(_, alike))| !alike) {
        for answer in [o.map(|o| &old[o]), n.map(|n| &new[n])].into_iter().flatten() {
            in_play.extend([answer.name.as_str(), folder_name(&answer.folder)]);
        }
    }
    if let Touched::Home { changed, .. } | Touched::Paths { changed, .. } = touched {
        in_play.extend(changed.md_stems.iter().map(String::as_str));
    }
    let plays = |a: &Answer| in_play.contains(a.name.as_str()) || in_play.contains(folder_name(&a.folder));
    // Messages and the guard's scans are made for the skills a change
    // touched, changed or put in play, on worker threads.
    let work: Vec<_> = pairs.iter().zip(&status).collect();
    let rendered = crate::parallel_map_min(&work, 16, |&(&pair, &(dir_touched, alike))| match pair {
        (Some(o), None) => {
            let o = &old[o];
            let mut change = SkillChange::gone(o);
            change.why = (!o.offered).then(|| (why_not(before, &ctx_before, o.index), None));
            change.decisions = decisions_alone(before, o.index, Side::Before);
            Some(change)
        }
        (None, Some(n)) => {
            let n = &new[n];
            let mut change = SkillChange::arrived(n);
            change.why = (!n.offered).then(|| (None, why_not(after, &ctx_after, n.index)));
            change.decisions = decisions_alone(after, n.index, Side::After);
            Some(change)
        }
        (Some(o), Some(n)) => {
            let (o, n) = (&old[o], &new[n]);
            if alike && !plays(o) && !plays(n) {
                // Untouched and answered alike: nothing to show (most skills).
                return None;
            }
            let mut change = SkillChange::between(o, n);
            let (m_old, m_new) = (before.message(&ctx_before, o.index), after.message(&ctx_after, n.index));
            if m_old != m_new {
                // No message: the lookup refuses the name, or another skill
                // took the command the other side has.
                let refused = |state: &State, ctx: &Context, own: &Answer, other: &Answer| {
                    state.message_refusal(ctx, own.index).or_else(|| command_taken(state, home, own, other))
                };
                change.message_refused = (
                    m_old.is_none().then(|| refused(before, &ctx_before, o, n)).flatten(),
                    m_new.is_none().then(|| refused(after, &ctx_after, n, o)).flatten(),
                );
                change.message = Some((m_old, m_new));
            }
            // The guard reads the folder's files only.
            if dir_touched || !change.fields.is_empty() {
                change.decisions = decisions_changed(before, o.index, after, n.index);
            }
            if o.offered != n.offered {
                change.why = Some((why_not(before, &ctx_before, o.index), why_not(after, &ctx_after, n.index)));
            }
            (!change.is_empty()).then_some(change)
        }
        (None, None) => None,
    });
    let skills: Vec<SkillChange> = rendered.into_iter().flatten().collect();
    // A bundle's message is its members' messages, each looked up by the
    // name or path the bundle gives: rendered again when a member's name
    // is in play or its message changed.
    let renders = |bundle: &crate::bundles::Bundle| {
        everywhere
            || bundle.skills.iter().any(|m| {
                let m = m.trim().trim_end_matches('/');
                in_play.contains(m) || in_play.contains(folder_name(m))
            })
    };
    let bundles = report::bundle_changes(&ctx_before, &ctx_after, before, after, &renders);
    let home_findings = report::finding_changes(&home_refs(before, home), &home_refs(after, home));
    DiffReport {
        skills,
        bundles,
        categories: report::category_changes(&before.index, &after.index),
        home_findings,
        index_before: before.cost.index,
        index_after: after.cost.index,
        index_changed: before.index.render() != after.index.render(),
        notes: Vec::new(),
    }
}

/// Each skill's answer.
fn answers(state: &State, home: &Path) -> Vec<Answer> {
    let catalog = &state.catalog;
    // Keyed by the path's bytes: hashing a `Path` walks its components.
    let lines: HashMap<&std::ffi::OsStr, (&str, Size), foldhash::fast::RandomState> = state
        .cost
        .skills
        .iter()
        .filter_map(|s| Some((s.skill_md.as_deref()?.as_os_str(), (s.line.as_deref()?, s.index))))
        .collect();
    let mut by_skill: Vec<Vec<FindingRef>> = vec![Vec::new(); catalog.skills.len()];
    for f in &state.findings {
        if let Some(i) = f.skill.filter(|&i| i < by_skill.len()) {
            by_skill[i].push(finding_ref(state, f, home));
        }
    }
    catalog
        .skills
        .iter()
        .enumerate()
        .zip(by_skill)
        .map(|((index, skill), findings)| {
            let line = lines.get(skill.skill_md.as_os_str());
            let readiness = skill.readiness();
            Answer {
                index,
                folder: shown_folder(&state.shown_path(&skill.skill_dir), home),
                name: skill.name.clone(),
                category: skill.category_path(),
                offered: line.is_some(),
                line: line.map(|(l, _)| state.shown_text(l)),
                size: line.map(|&(_, s)| s).unwrap_or_default(),
                command: skill.status.command.clone(),
                required_env: readiness
                    .required
                    .iter()
                    .map(|r| match r.optional {
                        true => format!("{} (optional)", r.name),
                        false => r.name.clone(),
                    })
                    .collect(),
                credential_files: readiness.credential_files.clone(),
                missing_env: readiness.missing_env.clone(),
                missing_files: readiness.missing_files.iter().map(|f| state.shown_text(f)).collect(),
                findings,
                skill_md: skill.skill_md.clone(),
            }
        })
        .collect()
}

/// The last part of a folder shown (`a/b` → `b`).
fn folder_name(folder: &str) -> &str {
    folder.rsplit('/').next().unwrap_or(folder)
}

fn shown_folder(dir: &Path, home: &Path) -> String {
    match paths::strip_prefix(dir, home) {
        Some(rel) => paths::rel_string(rel),
        None => paths::path_string(dir),
    }
}

fn finding_ref(state: &State, f: &Finding, home: &Path) -> FindingRef {
    FindingRef {
        rule: f.rule.to_string(),
        severity: f.severity.name(),
        file: shown_folder(&state.shown_path(&f.path), home),
        line: f.line,
        message: state.shown_text(&f.message),
    }
}

fn home_refs(state: &State, home: &Path) -> Vec<FindingRef> {
    state.findings.iter().filter(|f| f.skill.is_none()).map(|f| finding_ref(state, f, home)).collect()
}

/// Pairs each skill of one state with the same skill of the other: by
/// folder, then the rest by name (a folder moved, edited or not), each old
/// skill taking the first new one of its name in scan order.
fn pair_up(old: &[Answer], new: &[Answer]) -> Vec<(Option<usize>, Option<usize>)> {
    let mut pairs = Vec::new();
    // A folder below two roots (one holding the other) is two skills of
    // each state: paired in scan order.
    let mut new_by_folder: HashMap<&str, std::collections::VecDeque<usize>, foldhash::fast::RandomState> =
        HashMap::default();
    for (j, a) in new.iter().enumerate() {
        new_by_folder.entry(a.folder.as_str()).or_default().push_back(j);
    }
    let mut new_paired: HashSet<usize, foldhash::fast::RandomState> = HashSet::default();
    let mut old_left = Vec::new();
    for (i, a) in old.iter().enumerate() {
        match new_by_folder.get_mut(a.folder.as_str()).and_then(|same| same.pop_front()) {
            Some(j) => {
                new_paired.insert(j);
                pairs.push((Some(i), Some(j)));
            }
            None => old_left.push(i),
        }
    }
    let mut new_by_name: HashMap<&str, std::collections::VecDeque<usize>, foldhash::fast::RandomState> =
        HashMap::default();
    for j in (0..new.len()).filter(|j| !new_paired.contains(j)) {
        new_by_name.entry(new[j].name.as_str()).or_default().push_back(j);
    }
    let mut gone = Vec::new();
    for i in old_left {
        match new_by_name.get_mut(old[i].name.as_str()).and_then(|same| same.pop_front()) {
            Some(j) => pairs.push((Some(i), Some(j))),
            None => gone.push(i),
        }
    }
    let mut new_rest: Vec<usize> = new_by_name.into_values().flatten().collect();
    new_rest.sort_unstable();
    // A folder moved and its skill renamed at once: paired by content.
    let alike = pairs_by_content(old, new, &gone, &new_rest);
    let paired_new: HashSet<usize> = alike.iter().map(|&(_, j)| j).collect();
    let paired_old: HashSet<usize> = alike.iter().map(|&(i, _)| i).collect();
    pairs.extend(alike.into_iter().map(|(i, j)| (Some(i), Some(j))));
    pairs.extend(gone.into_iter().filter(|i| !paired_old.contains(i)).map(|i| (Some(i), None)));
    pairs.extend(new_rest.into_iter().filter(|j| !paired_new.contains(j)).map(|j| (None, Some(j))));
    pairs
}

/// How alike (by lines, 0 to 1) a removed and an added SKILL.md are at
/// least to be one skill moved and renamed: more than git's 50% for a
/// rename, as skills written from one template share half their lines.
const ALIKE_AT_LEAST: f32 = 0.8;

/// How many items two sorted lists share, each item counted as often as
/// both hold it.
fn shared_count(a: &[u64], b: &[u64]) -> usize {
    let (mut i, mut j, mut shared) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                shared += 1;
                i += 1;
                j += 1;
            }
        }
    }
    shared
}

/// How many removed × added skills are compared by content at most.
const CONTENT_PAIRS_AT_MOST: usize = 4096;

/// Skills only one state has by folder and by name, paired where their
/// SKILL.md files are [`ALIKE_AT_LEAST`] alike by lines: each pair the most
/// alike first.
fn pairs_by_content(old: &[Answer], new: &[Answer], gone: &[usize], arrived: &[usize]) -> Vec<(usize, usize)> {
    if gone.is_empty() || arrived.is_empty() || gone.len() * arrived.len() > CONTENT_PAIRS_AT_MOST {
        return Vec::new();
    }
    // Each text with its lines' hashes, sorted: the lines two texts share
    // in any order bound how alike they can be, and most pairs fail that
    // bound without a diff.
    let read = |a: &Answer| {
        use std::hash::BuildHasher;
        let text = crate::source::read_text(&a.skill_md).ok()?;
        let hasher = foldhash::quality::FixedState::with_seed(0);
        let mut lines: Vec<u64> = text.split_inclusive('\n').map(|l| hasher.hash_one(l)).collect();
        lines.sort_unstable();
        Some((text, lines))
    };
    let arrived_texts: Vec<(usize, (String, Vec<u64>))> =
        arrived.iter().filter_map(|&j| Some((j, read(&new[j])?))).collect();
    let mut candidates: Vec<(f32, usize, usize)> = Vec::new();
    for &i in gone {
        let Some((was, was_lines)) = read(&old[i]) else { continue };
        for (j, (is, is_lines)) in &arrived_texts {
            let most = 2 * shared_count(&was_lines, is_lines);
            if (most as f32) < ALIKE_AT_LEAST * (was_lines.len() + is_lines.len()) as f32 {
                continue;
            }
            let ratio = similar::TextDiff::from_lines(was.as_str(), is.as_str()).ratio();
            if ratio >= ALIKE_AT_LEAST {
                candidates.push((ratio, i, *j));
            }
        }
    }
    candidates.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    let (mut old_taken, mut new_taken) = (HashSet::new(), HashSet::new());
    let mut pairs = Vec::new();
    for (_, i, j) in candidates {
        if !old_taken.contains(&i) && !new_taken.contains(&j) {
            old_taken.insert(i);
            new_taken.insert(j);
            pairs.push((i, j));
        }
    }
    pairs.sort_unstable();
    pairs
}

/// Why a skill has no slash command where `other` (the same skill in the
/// other state) has one: another skill of this state holds it (Hermes
/// registers a command for the first skill of each slug).
fn command_taken(state: &State, home: &Path, own: &Answer, other: &Answer) -> Option<String> {
    let command = other.command.as_deref().filter(|_| own.command.is_none())?;
    let holder = state.catalog.skills.iter().find(|s| s.status.command.as_deref() == Some(command))?;
    let folder = shown_folder(&state.shown_path(&holder.skill_dir), home);
    Some(format!("{command} is {folder}'s ({}), found first", holder.name))
}

/// Why the skill at `index` is not offered: the first step of `why` that
/// fails; nothing when it is offered.
fn why_not<'s>(state: &'s State, ctx: &'s Context<'s>, index: usize) -> Option<String> {
    let inputs = WhyInputs { engine: &state.engine, catalog: &state.catalog, index: &state.index, context: Some(ctx) };
    let trace = inputs.trace(index, &[index]);
    if trace.offered {
        return None;
    }
    let step = trace.first_failure().or_else(|| trace.steps.iter().find(|s| s.step == "index"))?;
    Some(format!("{}: {}", step.step, state.shown_text(&step.detail)))
}

/// The guard's verdict and its install decision at each trust level of the
/// skill at `index` (one scan of its folder, as `skillscope scan` makes);
/// nothing for a database row.
fn guard_decisions(state: &State, index: usize) -> Vec<(&'static str, &'static str)> {
    let skill = &state.catalog.skills[index];
    if skill.db_row.is_some() {
        return Vec::new();
    }
    let scan = crate::scan::scan_skill(&skill.skill_dir, &crate::scan::Origin::Trust("community"));
    let mut out = vec![("guard.verdict", scan.verdict)];
    for (&level, field) in crate::scan::TRUST_LEVELS.iter().zip(INSTALL_FIELDS) {
        let decision = crate::scan::Scan { trust_level: level, ..scan.clone() }.decision(false);
        out.push((
            field,
            match decision.allowed {
                Some(true) => "allowed",
                Some(false) => "refused",
                None => "asks for confirmation",
            },
        ));
    }
    out
}

/// The guard's verdict and install decisions where they differ between
/// the states.
fn decisions_changed(before: &State, old: usize, after: &State, new: usize) -> Vec<FieldChange> {
    let (b, a) = (guard_decisions(before, old), guard_decisions(after, new));
    b.iter()
        .zip(&a)
        .filter(|(x, y)| x.1 != y.1)
        .map(|(&(field, was), &(_, is))| FieldChange::new(field, was.into(), is.into()))
        .collect()
}

/// The state a skill only one state has is in.
#[derive(Clone, Copy)]
enum Side {
    Before,
    After,
}

/// The guard's answers for a skill only one state has (added or removed),
/// against nothing on the other side: only when they say more than a safe
/// verdict every trust level installs (a new skill the guard refuses is a
/// refusal the change brings).
fn decisions_alone(state: &State, index: usize, side: Side) -> Vec<FieldChange> {
    let decided = guard_decisions(state, index);
    if decided.iter().all(|&(_, value)| matches!(value, "safe" | "allowed")) {
        return Vec::new();
    }
    decided
        .into_iter()
        .map(|(field, value)| match side {
            Side::Before => FieldChange::new(field, value.into(), serde_json::Value::Null),
            Side::After => FieldChange::new(field, serde_json::Value::Null, value.into()),
        })
        .collect()
}

/// The install decision's field for each of [`crate::scan::TRUST_LEVELS`].
const INSTALL_FIELDS: [&str; 4] = ["install.builtin", "install.trusted", "install.community", "install.agent-created"];

#[cfg(test)]
mod tests {
    use super::Changes;
    use crate::paths::lies_in;
    use std::collections::{BTreeSet, HashSet};

    /// The definition, pair by pair: the change is the folder, below it, or
    /// a folder holding it.
    fn holds_change_by_definition(folder: &str, changed: &BTreeSet<String>) -> bool {
        let inside = format!("{folder}/");
        changed.iter().any(|c| c == folder || c.starts_with(&inside) || inside.starts_with(&format!("{c}/")))
    }

    #[test]
    fn shared_lines_are_counted_as_often_as_both_hold_them() {
        use super::shared_count;
        assert_eq!(shared_count(&[1, 2, 2, 3], &[2, 2, 2, 4]), 2);
        assert_eq!(shared_count(&[], &[1]), 0);
        assert_eq!(shared_count(&[1, 5, 9], &[1, 5, 9]), 3);
    }

    #[test]
    fn a_folder_holds_the_changes_in_it_at_it_and_around_it() {
        let paths = ["a", "a/b", "a/b/SKILL.md", "a/b-c/SKILL.md", "a/b.md", "a/bc", "a/b/c/d", "b", "ab/x", "a b/c"];
        // `ab/`: an untracked folder, as git lists it.
        let paths: Vec<&str> = paths.into_iter().chain(["é/x", "ab/"]).collect();
        let folders = ["", "a", "a/b", "a/b/c", "a/b-c", "a/bc", "ab", "b", "a b", "é", "z", "a/b/c/d/e"];
        // Every subset of up to two paths, and a few larger ones.
        let mut sets: Vec<BTreeSet<String>> = vec![BTreeSet::new()];
        for (i, p) in paths.iter().enumerate() {
            sets.push([p.to_string()].into());
            for q in &paths[i + 1..] {
                sets.push([p.to_string(), q.to_string()].into());
            }
        }
        sets.push(paths.iter().map(|p| p.to_string()).collect());
        sets.push(["a/b-c/SKILL.md", "a/bc", "b"].iter().map(|p| p.to_string()).collect());
        // The same definition read the other way: the changes as folders.
        for changed in &sets {
            let as_folders: HashSet<String> = changed.iter().cloned().collect();
            for &path in &paths {
                let by_definition = changed.iter().any(|c| c == path || path.starts_with(&format!("{c}/")));
                assert_eq!(lies_in(path, |f| as_folders.contains(f)), by_definition, "{path:?} in {changed:?}");
            }
        }
        for changed in &sets {
            for folder in folders {
                assert_eq!(
                    Changes::new(changed).held_by(folder),
                    holds_change_by_definition(folder, changed),
                    "{folder:?} in {changed:?}"
                );
            }
        }
    }
}
