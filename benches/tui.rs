//! Browser budgets, measured on this machine, per tier of generated homes
//! (1,000, 10,000 and 100,000 skills; `SKILLSCOPE_BENCH_TIERS=1000,10000`
//! picks tiers):
//! - first frame from process start (`skillscope --print-frame`, the same
//!   work as the first draw): 150 ms up to 10,000 skills, 1 s at 100,000;
//! - with layers (`--user`, `--db`) adding 1,000 user skills and 1,000
//!   database rows to the 10,000-skill home, first frame under 200 ms;
//! - filtering the tree for a typed character under 16 ms, the first one
//!   included, once the search index is made (while the browser is idle,
//!   each step of it under 16 ms too);
//! - a reload after one atomic save of a SKILL.md reads that one file and
//!   walks no folder (asserted), within the save-to-screen goal less the
//!   watcher's debounce (`cargo bench --bench tui -- reload` alone);
//! - in a real terminal (tmux): CPU while idle under 1 % of a core, and a
//!   save on screen within 300 ms (1 s at 100,000 skills)
//!   (`cargo bench --bench tui -- terminal`);
//! - the largest corpus SKILL.md (pytorch-fsdp, 160 KB, one 130,000-character
//!   line): first render under 30 ms, and scrolling without re-rendering.
//!
//! - each view's job, answered while a whole-home check runs, within 2× the
//!   time of the CLI commands that answer the same (`-- jobs`).
//!
//! - key to screen under 50 ms (p99) in the browser's own event loop while
//!   it rescans the home, while the whole-home check runs, and while a
//!   preview's inline-shell snippet sleeps 30 s (`-- busy`; `-- shell` for
//!   the snippet alone);
//! - resident memory within 64 MiB of where it started after showing the
//!   Preview and the Files view of every skill, up to 10,000 (`-- memory`).
//!
//! Run with `cargo bench --bench tui` (`-- reload`, `-- terminal`,
//! `-- filtering`, `-- jobs`, `-- busy`, `-- shell` or `-- memory` for one
//! part).

mod common;

// The allocator the skillscope binary runs on, tuned as it tunes it
// (`main` below), so the in-process timings here are the app's.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use common::{bench_home, corpus, ms, tiers};
use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use ratatui::backend::TestBackend;
use ratatui::Terminal;
use skillscope::engine::env::{Env, Os};
use skillscope::engine::reload::Pending;
use skillscope::engine::{Engine, Options};
use skillscope::tui::app::App;
use skillscope::tui::theme::{ColorMode, Theme};
use skillscope::tui::ui;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A process's resident memory in KiB (`VmRSS`; `pid` may be `self`), 0
/// where unknown.
fn resident_kib(pid: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap_or_default();
    line.split_whitespace().nth(1).and_then(|v| v.parse().ok()).unwrap_or(0)
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn verdict(value: Duration, budget_ms: f64) -> &'static str {
    if ms(value) < budget_ms {
        "within"
    } else {
        "OVER"
    }
}

fn app(home: &Path) -> App {
    let env = Env::with_vars([("HOME", "/nonexistent")], Os::Linux);
    App::new(Engine::new(home.to_path_buf(), env, Options::default()), Theme::new(ColorMode::TrueColor))
}

fn key(app: &mut App, c: char) {
    app.handle_event(&Event::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)));
}

/// Adds user `bench` (1,000 skills in `users/bench/skills`) and a database
/// of 1,000 active rows for that user next to the home; returns the database.
fn layered_home(home: &Path) -> PathBuf {
    let users = home.join("users/bench");
    if !users.join("skills").is_dir() {
        let tmp = tempfile::tempdir().expect("tmp");
        common::generate(&tmp.path().join("home"), 1000, Some(7));
        std::fs::create_dir_all(&users).expect("mkdir");
        std::fs::rename(tmp.path().join("home/skills"), users.join("skills")).expect("move");
    }
    let db = home.with_extension("layers.db");
    if !db.is_file() {
        let conn = rusqlite::Connection::open(&db).expect("db");
        conn.execute_batch(
            "CREATE TABLE hermes_skills (id INTEGER PRIMARY KEY, user_id TEXT, name TEXT, description TEXT,
             content TEXT, category TEXT, version TEXT, is_active INTEGER, created_at TEXT, updated_at TEXT)",
        )
        .expect("schema");
        for i in 0..1000 {
            let name = format!("row-skill-{i}");
            let content = format!("---\nname: {name}\ndescription: Row {i}\n---\n\n# {name}\n\nSteps for row {i}.\n");
            conn.execute(
                "INSERT INTO hermes_skills (user_id, name, description, content, category, version, is_active, created_at, updated_at)
                 VALUES ('bench', ?1, ?2, ?3, ?4, '1.0', 1, '2026-01-01', '2026-01-01')",
                rusqlite::params![name, format!("Row {i}"), content, format!("cat-{}", i % 20)],
            )
            .expect("insert");
        }
    }
    db
}

fn first_frame(home: &Path, extra: &[&std::ffi::OsStr], what: &str, budget_ms: f64) {
    let runs = if what.starts_with("100000") { 5 } else { 11 };
    let run = || {
        let start = Instant::now();
        let ok = Command::new(env!("CARGO_BIN_EXE_skillscope"))
            .args(["--print-frame", "120x40", "--home"])
            .arg(home)
            .args(extra)
            .stdout(Stdio::null())
            .status()
            .map(|s| s.success())
            .unwrap_or(false);
        assert!(ok);
        start.elapsed()
    };
    for _ in 0..2 {
        run();
    }
    let t = median((0..runs).map(|_| run()).collect());
    println!(
        "first frame, {what}, whole process: median {:.1} ms (budget {budget_ms} ms: {})",
        ms(t),
        verdict(t, budget_ms)
    );
}

fn filtering(home: &Path, skills: usize) {
    let mut a = app(home);
    // The browser makes the search index while idle, a step per turn of
    // its event loop: a key pressed meanwhile waits for one step at most.
    let (mut steps, mut longest, started) = (0, Duration::ZERO, Instant::now());
    while a.search_index_pending() {
        let start = Instant::now();
        a.index_search();
        longest = longest.max(start.elapsed());
        steps += 1;
    }
    println!(
        "{skills} skills: search index made while idle in {steps} steps, {:.1} ms in all, longest step {:.2} ms (budget 16 ms: {})",
        ms(started.elapsed()),
        ms(longest),
        verdict(longest, 16.0)
    );
    key(&mut a, '/');
    let mut per_char = Vec::new();
    let query = "deploy";
    for (i, c) in query.char_indices() {
        let start = Instant::now();
        key(&mut a, c);
        let t = start.elapsed();
        println!(
            "  typed {:?}: {:.2} ms, {} matching",
            &query[..i + c.len_utf8()],
            ms(t),
            a.search.matches.as_ref().map_or(0, |m| m.len())
        );
        per_char.push(t);
    }
    let worst = per_char.iter().max().copied().unwrap_or_default();
    println!(
        "{skills} skills: filtering for a typed character, the first included: worst {:.2} ms (budget 16 ms: {})",
        ms(worst),
        verdict(worst, 16.0)
    );
}

/// The median time of `runs` runs of `skillscope --home HOME ARGS`.
fn cli_time(home: &Path, args: &[&str], runs: usize) -> Duration {
    let once = || {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_skillscope"));
        cmd.arg("--home").arg(home).args(args).env("HOME", "/nonexistent");
        let (t, _, ok) = common::run_measured(&mut cmd);
        assert!(ok, "skillscope {args:?} failed");
        t
    };
    once();
    median((0..runs).map(|_| once()).collect())
}

/// Each view's job as the browser's worker answers it while a whole-home
/// check runs on its other lane, against the CLI commands that answer the
/// same (budget: 2x); and the check's own job against `check`.
fn view_jobs(home: &Path, skills: usize) {
    use skillscope::tui::app::Effect;
    use skillscope::tui::jobs::{JobKind, JobRequest, SharedProgress, Worker};
    use std::sync::mpsc;
    let mut a = app(home);
    let mut request_of = |view: char| {
        let effects = a.handle_event(&Event::Key(KeyEvent::new(KeyCode::Char(view), KeyModifiers::NONE)));
        effects.into_iter().chain(a.wanted_jobs()).find_map(|e| match e {
            Effect::Job(r) if !matches!(r.kind, JobKind::Diagnostics(..)) => Some(r.kind),
            _ => None,
        })
    };
    let agent = request_of('4').expect("the Agent view asks for a job");
    let command = match &agent {
        JobKind::Agent { command: Some(key), .. } => key.clone(),
        other => panic!("the selected skill has no slash command: {other:?}"),
    };
    let bundles = request_of('5').expect("a Bundles job");
    let prompt = request_of('6').expect("a Prompt job");
    // The view shows every bundle's members and message; the CLI lists the
    // bundles and builds one message.
    let bundle = a.catalog.bundles.bundles.keys().next().expect("the home has bundles").clone();
    let jobs = [
        ("Agent", agent, vec![vec!["invoke", command.as_str()], vec!["prompt"]]),
        ("Bundles", bundles, vec![vec!["bundles", "--json"], vec!["invoke", bundle.as_str()]]),
        ("Prompt", prompt, vec![vec!["prompt"]]),
    ];
    let env = Env::with_vars([("HOME", "/nonexistent")], Os::Linux);
    let engine = std::sync::Arc::new(Engine::new(home.to_path_buf(), env, Options::default()));
    let (tx, rx) = mpsc::channel();
    let worker = Worker::spawn(move |r| {
        let _ = tx.send((r.id, Instant::now()));
    });
    let request = |id, kind| JobRequest { id, kind, progress: SharedProgress::default() };
    let runs = if skills >= 100_000 { 3 } else { 5 };
    for (view, kind, commands) in jobs {
        let mut times = Vec::new();
        for _ in 0..runs {
            worker.submit(engine.clone(), request(0, JobKind::Diagnostics(None, Default::default())));
            std::thread::sleep(Duration::from_millis(20));
            let start = Instant::now();
            worker.submit(engine.clone(), request(1, kind.clone()));
            let mut answered = None;
            let mut checked = false;
            while answered.is_none() || !checked {
                let (id, at) = rx.recv_timeout(Duration::from_secs(600)).expect("an answer");
                match id {
                    1 => answered = Some(at - start),
                    _ => checked = true,
                }
            }
            times.push(answered.expect("answered"));
        }
        let job = median(times);
        let cli: Duration = commands.iter().map(|args| cli_time(home, args, runs)).sum();
        let ratio = job.as_secs_f64() / cli.as_secs_f64();
        let named: Vec<String> = commands.iter().map(|c| c.join(" ")).collect();
        println!(
            "{skills} skills: the {view} view's job while a check runs: median {:.0} ms; `{}`: {:.0} ms ({ratio:.1}x, budget 2x: {})",
            ms(job),
            named.join("` + `"),
            ms(cli),
            if ratio <= 2.0 { "within" } else { "OVER" }
        );
    }
    let mut times = Vec::new();
    for _ in 0..runs {
        let start = Instant::now();
        worker.submit(engine.clone(), request(2, JobKind::Diagnostics(None, Default::default())));
        let (_, at) = rx.recv_timeout(Duration::from_secs(600)).expect("the check's answer");
        times.push(at - start);
    }
    let job = median(times);
    let cli = cli_time(home, &["check", "--json", "--min-severity", "info"], runs);
    let ratio = job.as_secs_f64() / cli.as_secs_f64();
    println!(
        "{skills} skills: the Diagnostics view's job: median {:.0} ms; `check --json --min-severity info`: {:.0} ms ({ratio:.1}x, budget 2x: {})",
        ms(job),
        ms(cli),
        if ratio <= 2.0 { "within" } else { "OVER" }
    );
}

fn largest_skill() {
    let src = corpus().join("hermes/optional-skills/mlops/pytorch-fsdp");
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = tmp.path().join("home/skills/mlops/pytorch-fsdp");
    std::fs::create_dir_all(&dir).expect("mkdir");
    std::fs::copy(src.join("SKILL.md"), dir.join("SKILL.md")).expect("copy");
    skillscope::tui::markdown::highlight::Highlighter::get();
    let mut renders = Vec::new();
    let mut scrolls = Vec::new();
    for _ in 0..5 {
        let mut a = app(&tmp.path().join("home"));
        let mut terminal = Terminal::new(TestBackend::new(120, 40)).expect("terminal");
        // The preview's job, run here: the work the browser's worker does
        // before the preview reaches the screen.
        let start = Instant::now();
        let effects = ui::render(&mut terminal, &mut a).expect("draw");
        a.run_jobs_inline(&effects);
        ui::render(&mut terminal, &mut a).expect("draw");
        renders.push(start.elapsed());
        a.focus = skillscope::tui::app::Focus::View;
        let serial = a.shown().map(|r| r.serial);
        let start = Instant::now();
        for _ in 0..100 {
            a.update(skillscope::tui::keymap::Action::PageDown);
            let effects = ui::render(&mut terminal, &mut a).expect("draw");
            assert!(effects.is_empty(), "scrolling asked for a job");
        }
        scrolls.push(start.elapsed() / 100);
        assert_eq!(a.shown().map(|r| r.serial), serial, "scrolling re-rendered the preview");
    }
    let r = median(renders);
    println!(
        "pytorch-fsdp SKILL.md (160 KB): first render and draw {:.1} ms (budget 30 ms: {})",
        ms(r),
        verdict(r, 30.0)
    );
    println!("  scrolling a page and redrawing: {:.2} ms, from the cached lines (no re-render)", ms(median(scrolls)));
}

/// One atomic save of a SKILL.md, then the reload the browser does for it
/// (without the watcher's debounce), on a copy of the home.
fn reload_after_one_save(home: &Path, skills: usize) {
    let copy = tempfile::tempdir().expect("tmp");
    let status = Command::new("cp").arg("-a").arg(home).arg(copy.path().join("home")).status().expect("cp");
    assert!(status.success());
    let home = copy.path().join("home");
    let mut a = app(&home);
    let target = a.catalog.skills[a.catalog.skills.len() / 2].skill_md.clone();
    let mut times = Vec::new();
    for round in 0..5 {
        let text = std::fs::read_to_string(&target).expect("read");
        let temp = target.with_file_name(".SKILL.md.tmp");
        std::fs::write(&temp, format!("{text}\nSaved {round}.\n")).expect("write");
        std::fs::rename(&temp, &target).expect("rename");
        let pending = Pending { paths: [temp, target.clone()].into_iter().collect(), overflow: false };
        let reads = skillscope::engine::source::skill_md_reads();
        let walks = skillscope::engine::discover::folders_listed();
        let start = Instant::now();
        assert!(a.reload(&pending));
        times.push(start.elapsed());
        assert_eq!(skillscope::engine::source::skill_md_reads() - reads, 1, "one file read");
        assert_eq!(skillscope::engine::discover::folders_listed() - walks, 0, "no walk");
    }
    // Memory across reloads: after the first rounds, more of both kinds.
    let before = resident_kib("self");
    let mut at_rescans = Vec::new();
    for round in 0..40 {
        let text = std::fs::read_to_string(&target).expect("read");
        std::fs::write(&target, format!("{text}\nAgain {round}.\n")).expect("write");
        let pending = Pending { paths: [target.clone()].into_iter().collect(), overflow: false };
        assert!(a.reload(&pending));
        if round % 10 == 9 {
            assert!(a.reload(&Pending { paths: Default::default(), overflow: true }), "a full rescan");
            at_rescans.push(format!("{}", resident_kib("self") / 1024));
        }
    }
    let after = resident_kib("self");
    println!(
        "{skills} skills: resident memory {} MiB before 40 more reloads, {} MiB after each of the 4 full rescans among them, {} MiB at the end",
        before / 1024,
        at_rescans.join(", "),
        after / 1024
    );
    let t = median(times);
    let budget = if skills >= 100_000 { 900.0 } else { 200.0 };
    println!(
        "{skills} skills: reload after one save (one file read, no walk): median {:.1} ms (budget {budget:.0} ms, the goal less the {} ms debounce: {})",
        ms(t),
        skillscope::tui::RELOAD_DEBOUNCE.as_millis(),
        verdict(t, budget)
    );
}

/// The browser in a real terminal (tmux), on a copy of the home: CPU used
/// while idle once the start-up work (the findings) is done, and the time
/// from an atomic save of the selected skill to the change on screen.
fn in_a_terminal(home: &Path, skills: usize) {
    let has_tmux = Command::new("tmux").arg("-V").output().is_ok_and(|o| o.status.success());
    if !has_tmux {
        println!("browser in a terminal: skipped (tmux not found)");
        return;
    }
    let copy = tempfile::tempdir().expect("tmp");
    let status = Command::new("cp").arg("-a").arg(home).arg(copy.path().join("home")).status().expect("cp");
    assert!(status.success());
    let home = copy.path().join("home");
    let selected = {
        let a = app(&home);
        a.skill(a.selected_skill().expect("a skill is selected")).skill_md.clone()
    };
    let socket = format!("skillscope-bench-{}", std::process::id());
    let tmux = |args: &[&str]| -> String {
        let out = Command::new("tmux").arg("-L").arg(&socket).args(args).output().expect("tmux");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let command = format!(
        "exec env TERM=xterm-256color HOME=/nonexistent {} --home {}",
        env!("CARGO_BIN_EXE_skillscope"),
        home.display()
    );
    let start = Instant::now();
    tmux(&["new-session", "-d", "-s", "b", "-x", "120", "-y", "40", &command]);
    let pid = tmux(&["display", "-p", "-t", "b", "#{pane_pid}"]).trim().to_owned();
    // The first frame (the tree, or the first scan's progress on a big
    // home), then the tree with its counts.
    let mut first_frame = None;
    while start.elapsed() < Duration::from_secs(120) {
        let screen = tmux(&["capture-pane", "-p", "-t", "b"]);
        if first_frame.is_none() && screen.contains(" Skills ") {
            first_frame = Some(start.elapsed());
        }
        if screen.contains("offered") {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let tree = start.elapsed();
    let first_frame = first_frame.unwrap_or(tree);
    let budget = if skills >= 100_000 { 1000.0 } else { 150.0 };
    println!(
        "{skills} skills: in a terminal, first frame after {:.0} ms (budget {budget:.0} ms: {}), the tree after {:.0} ms",
        ms(first_frame),
        verdict(first_frame, budget),
        ms(tree)
    );
    let ticks = || -> u64 {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        // utime and stime: fields 14 and 15, counted after the `(comm)` field.
        let after = stat.rsplit(')').next().unwrap_or_default();
        let fields: Vec<&str> = after.split_whitespace().collect();
        fields.get(11).and_then(|u| u.parse::<u64>().ok()).unwrap_or(0)
            + fields.get(12).and_then(|s| s.parse::<u64>().ok()).unwrap_or(0)
    };
    // Settled: two quiet seconds in a row (at most a minute of start-up).
    let started = Instant::now();
    loop {
        let before = ticks();
        std::thread::sleep(Duration::from_secs(2));
        if ticks() - before <= 2 || started.elapsed() > Duration::from_secs(60) {
            break;
        }
    }
    let before = ticks();
    std::thread::sleep(Duration::from_secs(30));
    let idle = (ticks() - before) as f64 / 100.0;
    let rss = || resident_kib(&pid);
    let settled_rss = rss();
    let percent = idle / 30.0 * 100.0;
    println!(
        "{skills} skills: browser idle for 30 s: {idle:.2} s of CPU, {percent:.2} % of a core (budget 1 %: {})",
        if percent < 1.0 { "within" } else { "OVER" }
    );
    let mut times = Vec::new();
    for round in 0..3 {
        let mark = format!("SAVED-MARK-{round}");
        let text = std::fs::read_to_string(&selected).expect("read");
        let changed: Vec<String> = text
            .lines()
            .map(|l| if l.starts_with("description:") { format!("description: {mark}") } else { l.to_owned() })
            .collect();
        let temp = selected.with_file_name(".SKILL.md.tmp");
        std::fs::write(&temp, changed.join("\n") + "\n").expect("write");
        let start = Instant::now();
        std::fs::rename(&temp, &selected).expect("rename");
        while !tmux(&["capture-pane", "-p", "-t", "b"]).contains(&mark) {
            assert!(start.elapsed() < Duration::from_secs(20), "the save never reached the screen");
            std::thread::sleep(Duration::from_millis(5));
        }
        times.push(start.elapsed());
        // Let the findings that follow a reload finish before the next save.
        std::thread::sleep(Duration::from_secs(10));
    }
    let after_saves = rss();
    tmux(&["kill-server"]);
    println!(
        "{skills} skills: the browser's resident memory {} MiB once settled, {} MiB after the saves and their findings",
        settled_rss / 1024,
        after_saves / 1024
    );
    let t = median(times);
    let budget = if skills >= 100_000 { 1000.0 } else { 300.0 };
    println!(
        "{skills} skills: one save to the screen: median {:.0} ms (budget {budget:.0} ms: {})",
        ms(t),
        verdict(t, budget)
    );
}

/// What a load run's typist and probe share.
#[derive(Default)]
struct Busy {
    /// Keys sent, not yet applied: when each was sent and under which load.
    sent: std::collections::VecDeque<(Instant, &'static str)>,
    /// Keys applied, not yet on screen.
    applied: Vec<(Instant, &'static str)>,
    /// Key-to-screen times by load.
    times: std::collections::BTreeMap<&'static str, Vec<Duration>>,
    rescanning: bool,
    checking: bool,
    /// The view shows its lines, not a placeholder.
    ready: bool,
}

type Shared = std::sync::Arc<std::sync::Mutex<Busy>>;

/// The browser's own event loop ([`skillscope::tui::run_headless`], jobs on
/// its worker's threads) with a probe that times each key from the moment
/// it is sent to the end of the first frame drawn after it is applied.
fn headless(a: App) -> (Shared, std::sync::mpsc::Sender<Event>, std::thread::JoinHandle<std::io::Result<App>>) {
    use skillscope::tui::Probe;
    // Loaded as the browser loads it when it starts.
    skillscope::tui::markdown::highlight::Highlighter::get();
    let shared: Shared = Default::default();
    let (tx, rx) = std::sync::mpsc::channel();
    let probe_state = shared.clone();
    let handle = std::thread::spawn(move || {
        skillscope::tui::run_headless(a, 120, 40, rx, move |probe, app| {
            let Ok(mut b) = probe_state.lock() else { return };
            match probe {
                Probe::Applied => {
                    if let Some(sent) = b.sent.pop_front() {
                        b.applied.push(sent);
                    }
                }
                Probe::Drawn => {
                    let now = Instant::now();
                    for (at, load) in std::mem::take(&mut b.applied) {
                        b.times.entry(load).or_default().push(now - at);
                    }
                    b.rescanning = app.rescanning();
                    b.checking = app.findings().is_none();
                    // Ready: every key applied and drawn, and no part of the
                    // view still being built.
                    let placeholder =
                        |l: &ratatui::text::Line| skillscope::tui::view_text::line_text(l) == "rendering…";
                    b.ready = b.sent.is_empty() && app.shown().is_some_and(|r| !r.lines.iter().any(placeholder));
                }
            }
        })
    });
    (shared, tx, handle)
}

fn send(shared: &Shared, tx: &std::sync::mpsc::Sender<Event>, c: char, load: &'static str) {
    if let Ok(mut b) = shared.lock() {
        b.sent.push_back((Instant::now(), load));
    }
    let _ = tx.send(Event::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)));
}

/// Waits (up to `limit`) until `done` holds of the shared state.
fn wait_until(shared: &Shared, limit: Duration, done: impl Fn(&Busy) -> bool) -> bool {
    let start = Instant::now();
    while start.elapsed() < limit {
        if shared.lock().is_ok_and(|b| done(&b)) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    false
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let at = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted.get(at).copied().unwrap_or_default()
}

fn report(skills: usize, shared: &Shared) {
    let Ok(b) = shared.lock() else { return };
    for (load, times) in &b.times {
        let mut times = times.clone();
        times.sort();
        let (p50, p99) = (percentile(&times, 0.5), percentile(&times, 0.99));
        println!(
            "{skills} skills: key to screen {load}: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms over {} keys (budget p99 50 ms: {})",
            ms(p50),
            ms(p99),
            ms(times.last().copied().unwrap_or_default()),
            times.len(),
            verdict(p99, 50.0)
        );
    }
}

/// Key-to-screen latency while the browser rescans the home (`r`) and
/// while the whole-home check that follows runs: a key every 30 ms (a
/// held key's repeat), moving through the tree.
fn latency_rescan_and_check(home: &Path, skills: usize) {
    let (shared, tx, handle) = headless(app(home));
    let rounds = if skills >= 100_000 { 3 } else { 10 };
    let limit = Duration::from_secs(if skills >= 100_000 { 300 } else { 60 });
    assert!(wait_until(&shared, limit, |b| !b.checking), "the first check ends");
    let mut step = 0;
    let mut key = |load| {
        send(&shared, &tx, if step % 20 < 10 { 'j' } else { 'k' }, load);
        step += 1;
        std::thread::sleep(Duration::from_millis(30));
    };
    for _ in 0..rounds {
        send(&shared, &tx, 'r', "during a rescan");
        assert!(wait_until(&shared, limit, |b| b.rescanning), "the rescan starts");
        while shared.lock().is_ok_and(|b| b.rescanning) {
            key("during a rescan");
        }
        while shared.lock().is_ok_and(|b| b.checking) {
            key("during check");
        }
    }
    send(&shared, &tx, 'q', "idle");
    drop(tx);
    let _ = handle.join();
    report(skills, &shared);
}

/// Key-to-screen latency while a preview's `!`sleep 30`` snippet sleeps
/// (`--inline-shell`, `skills.inline_shell: true`): the snippet's skill is
/// shown first, then keys move through the tree for 10 s.
fn latency_inline_shell() {
    let tmp = tempfile::tempdir().expect("tmp");
    let home = tmp.path().join("home");
    let write = |rel: &str, text: &str| {
        let path = home.join(rel);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    };
    write("config.yaml", "skills:\n  inline_shell: true\n  inline_shell_timeout: 60\n");
    write("skills/a/aaa-sleepy/SKILL.md", "---\nname: aaa-sleepy\ndescription: waits\n---\nNow: !`sleep 30`\n");
    for i in 0..200 {
        let text = format!("---\nname: skill-{i}\ndescription: number {i}\n---\n# Skill {i}\n\nBody.\n");
        write(&format!("skills/b/skill-{i}/SKILL.md"), &text);
    }
    let env = Env::with_vars([("HOME", "/nonexistent")], Os::Linux);
    let options = Options { allow_inline_shell: true, ..Options::default() };
    let a = App::new(Engine::new(home, env, options), Theme::new(ColorMode::TrueColor));
    let (shared, tx, handle) = headless(a);
    assert!(wait_until(&shared, Duration::from_secs(30), |b| !b.checking), "the check ends");
    let start = Instant::now();
    let mut step = 0;
    while start.elapsed() < Duration::from_secs(10) {
        send(&shared, &tx, if step % 20 < 10 { 'j' } else { 'k' }, "while a snippet sleeps 30 s");
        step += 1;
        std::thread::sleep(Duration::from_millis(30));
    }
    send(&shared, &tx, 'q', "idle");
    drop(tx);
    let _ = handle.join();
    report(201, &shared);
}

/// The browser's resident memory before and after showing every skill's
/// Preview, then every skill's Files view (each view's lines on screen
/// before the next key).
fn memory_across_a_browse(home: &Path, skills: usize) {
    let (shared, tx, handle) = headless(app(home));
    assert!(wait_until(&shared, Duration::from_secs(120), |b| !b.checking && b.ready), "settled");
    let rows = {
        let a = app(home);
        a.rows().len()
    };
    let before = resident_kib("self");
    let started = Instant::now();
    let mut shown = 0;
    for view in ['1', '2'] {
        send(&shared, &tx, view, "browsing");
        send(&shared, &tx, 'g', "browsing");
        for _ in 0..rows {
            if let Ok(mut b) = shared.lock() {
                b.ready = false;
            }
            send(&shared, &tx, 'j', "browsing");
            if wait_until(&shared, Duration::from_secs(10), |b| b.ready) {
                shown += 1;
            }
        }
    }
    let after = resident_kib("self");
    send(&shared, &tx, 'q', "idle");
    drop(tx);
    let app = handle.join().ok().and_then(Result::ok);
    let held = app.map_or(0, |a| a.rendered_bytes());
    println!(
        "{skills} skills: resident memory {} MiB before showing the Preview and Files views of {rows} rows, {} MiB after ({:+} MiB, budget 64 MiB: {}); {shown} views shown in {:.0} s, the render cache holding {:.1} MiB",
        before / 1024,
        after / 1024,
        (after as i64 - before as i64) / 1024,
        if after.saturating_sub(before) < 64 * 1024 { "within" } else { "OVER" },
        started.elapsed().as_secs_f64(),
        held as f64 / (1024.0 * 1024.0)
    );
}

fn main() {
    skillscope::memory::tune();
    skillscope::memory::tune_for_staying();
    let only = |what: &str| std::env::args().any(|a| a == what);
    let (reload_only, terminal_only) = (only("reload"), only("terminal"));
    if only("shell") {
        latency_inline_shell();
        return;
    }
    for skills in tiers() {
        let home = bench_home(skills);
        if only("filtering") {
            filtering(&home, skills);
            continue;
        }
        if only("jobs") {
            view_jobs(&home, skills);
            continue;
        }
        if only("busy") {
            latency_rescan_and_check(&home, skills);
            continue;
        }
        if only("memory") {
            memory_across_a_browse(&home, skills);
            continue;
        }
        if !terminal_only {
            reload_after_one_save(&home, skills);
        }
        if !reload_only {
            in_a_terminal(&home, skills);
        }
        if reload_only || terminal_only {
            continue;
        }
        let budget = if skills >= 100_000 { 1000.0 } else { 150.0 };
        first_frame(&home, &[], &format!("{skills} skills"), budget);
        filtering(&home, skills);
        view_jobs(&home, skills);
        latency_rescan_and_check(&home, skills);
        if skills <= 10_000 {
            memory_across_a_browse(&home, skills);
        }
        if skills == 10_000 {
            let db = layered_home(&home);
            let layers = ["--user".as_ref(), "bench".as_ref(), "--db".as_ref(), db.as_os_str()];
            first_frame(&home, &layers, "10000 shared + 1000 user skills + 1000 rows", 200.0);
        }
    }
    if only("busy") {
        latency_inline_shell();
    }
    if !(reload_only || terminal_only || only("busy") || only("memory")) {
        latency_inline_shell();
        largest_skill();
    }
}
