//! The terminal browser: an event loop over the engine.
//!
//! One channel carries everything that can change the screen (keys and
//! mouse from the input thread, "something changed" from the watcher,
//! answers from the job worker and from a rescan). The loop applies them
//! to the [`App`] and draws only when something changed, so an idle
//! browser costs nothing. It only handles keys and draws: whatever reads
//! files or runs commands runs on other threads, and a frame shows a
//! placeholder for what is not ready.

pub mod app;
pub mod backend;
pub mod cache;
mod cells;
pub mod clipboard;
pub mod config;
pub mod db_feed;
pub mod editor;
mod handoff;
pub mod help;
pub mod input;
pub mod jobs;
pub mod keymap;
mod launch;
pub mod line_edit;
pub mod lines;
pub mod markdown;
mod prompt_view;
mod prompts;
pub mod render;
pub mod rescan;
mod since;
mod state;
pub mod tab;
pub mod terminal;
pub mod theme;
pub mod tree;
pub mod ui;
pub mod view_jobs;
pub mod view_text;
pub mod views;

use crate::engine::layers::{DbLocation, Layers};
use crate::engine::reload::Pending;
use crate::engine::watch::{self, Target, WatchEvent, Watcher};
use crate::engine::Engine;
use app::{App, Effect};
use crossterm::event::Event;
use launch::{open_editor, open_pager};
use state::DbFeed;
use std::io;
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How long the watcher must be quiet before a reload: an editor's save
/// (temporary file, write, rename) is one burst well within it.
pub const RELOAD_DEBOUNCE: Duration = Duration::from_millis(60);
/// How often a running check's gauge is redrawn.
const GAUGE_REFRESH: Duration = Duration::from_millis(150);
/// How long the first frame waits for the first scan before it shows the
/// scan's progress instead of the tree.
const FIRST_SCAN_WAIT: Duration = Duration::from_millis(60);
/// A transient notice stays this long.
const NOTICE_TTL: Duration = Duration::from_secs(4);

/// How long a notice stays: [`NOTICE_TTL`], and a second more for each 20
/// characters past 40 (a long one is read, not glimpsed), 10 s at most.
fn notice_ttl(notice: Option<&str>) -> Duration {
    let chars = notice.map_or(0, |n| n.chars().count());
    let more = (chars.saturating_sub(40) / 20) as u64;
    (NOTICE_TTL + Duration::from_secs(more)).min(Duration::from_secs(10))
}

enum Message {
    /// An input event, and how many stops by job control there had been
    /// when it was read.
    Input(Event, u64),
    /// The watcher saw changes (or lost some: an overflow).
    FilesChanged(WatchEvent),
    /// The watches are set up (off the UI thread, after the first frame).
    WatcherReady(u64, Result<Watcher, crate::engine::watch::WatchError>),
    Job(jobs::JobResult),
    /// Code highlighting is loaded: views rendered plain can be redone.
    HighlighterReady,
    /// The first scan of a big home is done.
    Scanned(Box<crate::engine::catalog::Catalog>),
    /// A rescan is done.
    Rescanned(Box<rescan::Rescanned>),
    /// A headless run's events have all been sent.
    InputClosed,
    /// The process continued after a stop by job control (`fg`).
    Continued,
    /// The Hermes installation on PATH was looked for.
    HermesFound(Option<crate::engine::hermes_install::HermesInstall>),
    /// The database layer's rows were read ([`db_feed::Poller`]).
    DbRead(Box<crate::engine::layers::DbRead>),
}

/// When to reload: changes are gathered until the watcher has been quiet
/// for [`RELOAD_DEBOUNCE`]; each burst (an overflow included) is one reload.
#[derive(Debug, Default)]
pub struct Reload {
    pub due: Option<Instant>,
    pending: Pending,
}

impl Reload {
    pub fn changed(&mut self, event: WatchEvent, now: Instant) {
        match event {
            WatchEvent::Changed(paths) => self.pending.paths.extend(paths),
            WatchEvent::Overflow => self.pending.overflow = true,
        }
        self.due = Some(now + RELOAD_DEBOUNCE);
    }

    /// The burst's changes, once, when its quiet time has passed.
    pub fn take_due(&mut self, now: Instant) -> Option<Pending> {
        if self.due.is_some_and(|at| now >= at) {
            self.due = None;
            return Some(std::mem::take(&mut self.pending));
        }
        None
    }
}

/// How the browser was opened, besides the engine.
#[derive(Debug, Clone, Default)]
pub struct Setup {
    /// Per-user layers (`--user`, or the demo's).
    pub layers: Option<Layers>,
    /// A line at the top: the demo home, or how a folder is shown.
    pub banner: Option<String>,
    /// The folder of skills shown through a stand-in home.
    pub folder: Option<std::path::PathBuf>,
    /// `--since REV`: the git revision the tree marks changes against.
    pub since: Option<String>,
}

/// What the event loop runs on: a terminal it draws to and can hand to an
/// editor or a pager (`TerminalHost`), or a test backend fed events by a
/// benchmark ([`run_headless`]).
pub trait Host {
    type Backend: ratatui::backend::Backend;
    fn terminal(&mut self) -> &mut ratatui::Terminal<Self::Backend>;
    /// Leaves the screen to another program (the input thread paused).
    fn suspend(&mut self) -> io::Result<()>;
    fn resume(&mut self) -> io::Result<()>;
    /// Stops the job as Ctrl-z does in a shell: false when nothing could
    /// continue it.
    fn stop_job(&mut self) -> bool {
        false
    }
    /// Draws the next frame whole (the screen came back empty).
    fn repaint(&mut self) -> io::Result<()> {
        Ok(())
    }
    /// An input event was applied to the app.
    fn applied(&mut self, _event: &Event, _app: &App) {}
    /// `events` more input events were taken in (applied or dropped) and
    /// what they asked for carried out.
    fn taken(&mut self, _events: u64) {}
    /// A frame was drawn.
    fn drawn(&mut self, _app: &App) {}
}

/// The real terminal and the input thread reading it.
struct TerminalHost {
    guard: terminal::Guard,
    input: input::Input,
}

impl Host for TerminalHost {
    type Backend = backend::SgrBackend<io::Stdout>;

    fn terminal(&mut self) -> &mut ratatui::Terminal<Self::Backend> {
        &mut self.guard.terminal
    }

    fn suspend(&mut self) -> io::Result<()> {
        self.input.pause();
        self.guard.suspend()
    }

    fn resume(&mut self) -> io::Result<()> {
        self.guard.resume()?;
        self.input.resume();
        Ok(())
    }

    fn stop_job(&mut self) -> bool {
        terminal::stop_job()
    }

    fn repaint(&mut self) -> io::Result<()> {
        self.guard.repaint()
    }

    fn taken(&mut self, events: u64) {
        self.input.taken(events);
    }
}

/// How the event loop was set up around the app.
struct Session {
    tx: mpsc::Sender<Message>,
    rx: mpsc::Receiver<Message>,
    /// Set up the file watches (a benchmark may go without).
    watch: bool,
    /// Reads the database layer's rows, with `--db`.
    poller: Option<db_feed::Poller>,
}

/// Runs the browser until the user quits.
pub fn run(engine: Engine, setup: Setup) -> io::Result<()> {
    crate::memory::tune_for_staying();
    let (tx, rx) = mpsc::channel::<Message>();
    let ready_tx = tx.clone();
    crate::tui::markdown::highlight::Highlighter::preload(move || {
        let _ = ready_tx.send(Message::HighlighterReady);
    });
    // Off the UI thread: PATH may name slow or hung mounts.
    let hermes_tx = tx.clone();
    std::thread::spawn(move || {
        let _ = hermes_tx.send(Message::HermesFound(crate::engine::hermes_install::find()));
    });
    let config = config::load_user_config();
    let theme = config.theme(theme::ColorMode::from_env());
    let mut app = open(engine, theme, setup.layers, &tx);
    app.banner = setup.banner;
    app.folder = setup.folder;
    app.since = setup.since.map(state::SinceState::new);
    app.load_check_settings();
    config.apply(&mut app);

    let guard = terminal::Guard::new()?;
    let continued_tx = tx.clone();
    terminal::on_job_control(move || {
        let _ = continued_tx.send(Message::Continued);
    });
    let input_tx = tx.clone();
    let keymap = app.prefs.keymap.clone();
    let input = input::Input::spawn(
        move |ev| input_tx.send(Message::Input(ev, terminal::stops())).is_ok(),
        move |ev| matches!(ev, Event::Key(key) if keymap.hands_off(key)),
    );
    let poller = app.layers.as_ref().and_then(|l| Some((l.db.clone()?, l.user.clone()))).map(|(db, user)| {
        let db_tx = tx.clone();
        db_feed::Poller::start(db, user, move |read| db_tx.send(Message::DbRead(Box::new(read))).is_ok())
    });
    let mut host = TerminalHost { guard, input };
    let ended = event_loop(&mut host, &mut app, Session { tx, rx, watch: true, poller });
    // The keyboard goes back with the screen (when `host` drops): what is
    // typed from now on, while the process ends, is the shell's.
    host.input.stop();
    ended
}

/// The event loop of [`run`] on a test backend of `width` x `height`,
/// without file watches: `events` are the keys (the loop ends on a quit,
/// or when `events` closes); `host` hears of each event applied and each
/// frame drawn. Highlighting is used if loaded already. For benchmarks.
pub fn run_headless(
    mut app: App,
    width: u16,
    height: u16,
    events: mpsc::Receiver<Event>,
    probe: impl FnMut(Probe, &App),
) -> io::Result<App> {
    let (tx, rx) = mpsc::channel::<Message>();
    let input_tx = tx.clone();
    std::thread::spawn(move || {
        for event in events {
            if input_tx.send(Message::Input(event, 0)).is_err() {
                return;
            }
        }
        let _ = input_tx.send(Message::InputClosed);
    });
    let terminal = ratatui::Terminal::new(ratatui::backend::TestBackend::new(width, height))
        .map_err(|e| io::Error::other(e.to_string()))?;
    let mut host = HeadlessHost { terminal, probe };
    event_loop(&mut host, &mut app, Session { tx, rx, watch: false, poller: None })?;
    Ok(app)
}

/// What [`run_headless`] tells its probe.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Probe {
    /// An input event was applied.
    Applied,
    /// A frame was drawn.
    Drawn,
}

struct HeadlessHost<F> {
    terminal: ratatui::Terminal<ratatui::backend::TestBackend>,
    probe: F,
}

impl<F: FnMut(Probe, &App)> Host for HeadlessHost<F> {
    type Backend = ratatui::backend::TestBackend;

    fn terminal(&mut self) -> &mut ratatui::Terminal<Self::Backend> {
        &mut self.terminal
    }

    fn suspend(&mut self) -> io::Result<()> {
        Ok(())
    }

    fn resume(&mut self) -> io::Result<()> {
        Ok(())
    }

    fn drawn(&mut self, app: &App) {
        (self.probe)(Probe::Drawn, app);
    }

    fn applied(&mut self, _event: &Event, app: &App) {
        (self.probe)(Probe::Applied, app);
    }
}

/// Starts a rescan on a thread of its own; its answer comes back as
/// [`Message::Rescanned`].
fn spawn_rescan(job: rescan::RescanJob, tx: &mpsc::Sender<Message>) {
    let tx = tx.clone();
    jobs::spawn_background(move || {
        let _ = tx.send(Message::Rescanned(Box::new(job.run())));
    });
}

/// Applies the watcher's changes: in place, or by a rescan off the UI thread.
fn follow_changes(app: &mut App, pending: &Pending, tx: &mpsc::Sender<Message>) -> Option<Effect> {
    match app.apply_changes(pending) {
        rescan::Changes::Nothing => None,
        rescan::Changes::Applied => Some(Effect::Reloaded),
        rescan::Changes::Rescan => {
            if let Some(job) = app.start_rescan() {
                spawn_rescan(job, tx);
            }
            None
        }
    }
}

fn event_loop<H: Host>(host: &mut H, app: &mut App, session: Session) -> io::Result<()> {
    let Session { tx, rx, watch, poller } = session;
    let job_tx = tx.clone();
    let worker = jobs::Worker::spawn(move |r| {
        let _ = job_tx.send(Message::Job(r));
    });
    // Watches are set up after the first frame and the first scan, off the
    // UI thread, and kept across reloads unless the folders to watch change.
    let mut watcher: Option<Watcher> = None;
    let mut watched = watch_targets(app);
    let mut watch_request = 0;
    if watch && app.scan.is_none() {
        start_watcher(&watched, watch_request, &tx);
    }

    let mut dirty = true;
    let mut reload = Reload::default();
    let mut notice_since: Option<Instant> = None;
    let mut shown_notice: Option<String> = None;
    let initial = app.wanted_jobs();
    run_effects(&initial, app, &worker);
    loop {
        if dirty {
            // Nothing is drawn once a signal gave the terminal back.
            let wanted = terminal::unless_given_back(|| ui::render(host.terminal(), app))?.unwrap_or_default();
            host.drawn(app);
            run_effects(&wanted, app, &worker);
            dirty = false;
        }
        let mut timeout = match (reload.due, notice_since) {
            (Some(at), _) => at.saturating_duration_since(Instant::now()),
            (None, Some(since)) => {
                (since + notice_ttl(shown_notice.as_deref())).saturating_duration_since(Instant::now())
            }
            (None, None) => Duration::from_secs(3600),
        };
        // Idle time makes the search index, a step per empty turn; gauges
        // wait for it (a few steps) rather than redraw on each.
        let indexing = app.search_index_pending();
        if app.scan.is_some() {
            timeout = timeout.min(GAUGE_REFRESH);
            dirty |= !indexing;
        }
        if app.checking() {
            timeout = timeout.min(GAUGE_REFRESH);
            app.gauge_moved();
            dirty |= !indexing;
        }
        if indexing {
            timeout = Duration::ZERO;
        }
        let first = match rx.recv_timeout(timeout) {
            Ok(m) => Some(m),
            Err(mpsc::RecvTimeoutError::Timeout) => None,
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        };
        if first.is_none() && indexing {
            app.index_search();
        }
        // Coalesce a burst: everything already queued is applied before drawing.
        let mut messages: Vec<Message> = first.into_iter().collect();
        messages.extend(rx.try_iter());
        let mut effects = Vec::new();
        let inputs = messages.iter().filter(|m| matches!(m, Message::Input(..))).count() as u64;
        for m in messages {
            match m {
                // A Ctrl-z read before a stop that has happened since is
                // that stop's (pressed twice): none after `fg`.
                Message::Input(ev, stops) if stops != terminal::stops() && is_ctrl_z(&ev) => {}
                Message::Input(ev, _) => {
                    if app.notice.is_some() && matches!(ev, Event::Key(_)) {
                        app.notice = None;
                    }
                    effects.extend(app.handle_event(&ev));
                    host.applied(&ev, app);
                    dirty = true;
                }
                Message::InputClosed => effects.push(Effect::Quit),
                Message::Continued => {
                    host.repaint()?;
                    dirty = true;
                }
                Message::FilesChanged(event) => reload.changed(event, Instant::now()),
                Message::WatcherReady(request, result) if request == watch_request => {
                    match result {
                        Ok(w) => {
                            app.watch_note = w.limit_note.clone();
                            watcher = Some(w);
                        }
                        Err(e) => app.watch_note = Some(format!("live reload unavailable ({e}); press r to rescan")),
                    }
                    dirty = true;
                }
                Message::WatcherReady(..) => {}
                Message::Job(r) => {
                    app.apply_job(r);
                    dirty = true;
                }
                Message::HighlighterReady => {
                    app.forget_rendered();
                    dirty = true;
                }
                Message::DbRead(read) => {
                    if app.db_polled(*read) {
                        if let Some(job) = app.start_rescan() {
                            spawn_rescan(job, &tx);
                        }
                        dirty = true;
                    }
                }
                Message::HermesFound(found) => {
                    // Said once, as a notice; the status line keeps the version.
                    if let Some(warning) = found.as_ref().and_then(|h| h.warning()) {
                        app.notice = Some(match app.notice.take() {
                            Some(notice) => format!("{notice} · {warning}"),
                            None => warning,
                        });
                    }
                    app.hermes = found;
                    dirty = true;
                }
                Message::Scanned(catalog) => {
                    app.scanned(*catalog);
                    // Watches are set up now whatever the folders are.
                    watched.clear();
                    effects.push(Effect::Reloaded);
                    dirty = true;
                }
                Message::Rescanned(fresh) => {
                    match app.rescanned(*fresh) {
                        Some(again) => spawn_rescan(again, &tx),
                        None => effects.push(Effect::Reloaded),
                    }
                    dirty = true;
                }
            }
        }
        if let Some(pending) = reload.take_due(Instant::now()) {
            effects.extend(follow_changes(app, &pending, &tx));
            dirty = true;
        }
        for effect in effects {
            match effect {
                Effect::Quit => return Ok(()),
                Effect::Rescan => {
                    if let Some(job) = app.start_rescan() {
                        spawn_rescan(job, &tx);
                    }
                    dirty = true;
                }
                Effect::Reloaded => {
                    let targets = watch_targets(app);
                    if watch && targets != watched {
                        // The old watches go before the new ones are set up.
                        drop(watcher.take());
                        watched = targets;
                        watch_request += 1;
                        start_watcher(&watched, watch_request, &tx);
                    }
                    run_effects(&app.wanted_jobs(), app, &worker);
                    dirty = true;
                }
                Effect::Copy { text, what } => {
                    app.notice = Some(copy_notice(&text, &what, clipboard::copy(&text)));
                    dirty = true;
                }
                Effect::Stop => {
                    if !host.stop_job() {
                        app.notice = Some("Ctrl-z: no job control here to come back from (q quits)".into());
                        dirty = true;
                    }
                }
                Effect::Pager { text } => {
                    host.suspend()?;
                    let outcome = open_pager(app.prefs.pager.as_deref(), &text);
                    host.resume()?;
                    app.notice = outcome.err().map(|e| e.to_string());
                    dirty = true;
                }
                Effect::OpenEditor { path, line } => {
                    host.suspend()?;
                    let outcome = open_editor(app.prefs.editor.as_deref(), &path, line);
                    host.resume()?;
                    app.notice = match outcome {
                        Ok(command) => command.line_notice(&path, line, config::config_path().as_deref()),
                        Err(e) => Some(e.to_string()),
                    };
                    // The edited file's skill now; anything else the editor
                    // touched comes from the watcher.
                    let edited = Pending { paths: [path].into_iter().collect(), overflow: false };
                    follow_changes(app, &edited, &tx);
                    run_effects(&app.wanted_jobs(), app, &worker);
                    dirty = true;
                }
                Effect::EditDbSkill { row, db, line } => {
                    host.suspend()?;
                    let editor = app.prefs.editor.clone();
                    let notice =
                        editor::edit_db_skill(&row, &db, |path| open_editor(editor.as_deref(), path, line).map(|_| ()));
                    host.resume()?;
                    app.notice = Some(notice);
                    // The saved row comes back with the next read.
                    if let Some(poller) = &poller {
                        poller.poll_now();
                    }
                    dirty = true;
                }
                job @ Effect::Job(_) => run_effects(&[job], app, &worker),
            }
        }
        // What the keys asked for is done (a quit has returned above): the
        // input thread may read past a key that could have handed the
        // terminal away.
        if inputs > 0 {
            host.taken(inputs);
        }
        // Each new notice gets its own time on screen.
        if app.notice != shown_notice {
            shown_notice = app.notice.clone();
            notice_since = app.notice.as_ref().map(|_| Instant::now());
        }
        if notice_since.is_some_and(|t| t.elapsed() >= notice_ttl(shown_notice.as_deref())) {
            app.notice = None;
            shown_notice = None;
            notice_since = None;
            dirty = true;
        }
    }
    drop(watcher);
    Ok(())
}

/// The first frame at a size, as text: what `run` draws first, without a
/// terminal.
pub fn first_frame(engine: Engine, setup: Setup, width: u16, height: u16) -> String {
    let config = config::load_user_config();
    let mut app = App::with_layers(engine, theme::Theme::new(theme::ColorMode::NoColor), setup.layers);
    app.banner = setup.banner;
    app.folder = setup.folder;
    app.since = setup.since.map(state::SinceState::new);
    app.load_check_settings();
    config.apply(&mut app);
    let backend = ratatui::backend::TestBackend::new(width, height);
    let Ok(mut terminal) = ratatui::Terminal::new(backend) else { return String::new() };
    // The views' lines are built here, on this thread: there is no other.
    let area = ratatui::layout::Rect::new(0, 0, width, height);
    for _ in 0..4 {
        let effects = app.prepare(area);
        if effects.is_empty() {
            break;
        }
        app.run_jobs_inline(&effects);
    }
    if terminal.draw(|f| ui::draw(f, &app)).is_err() {
        return String::new();
    }
    let buffer = terminal.backend().buffer();
    let mut out = String::new();
    for y in 0..height {
        let row: String = (0..width).map(|x| buffer[(x, y)].symbol()).collect();
        out.push_str(row.trim_end());
        out.push('\n');
    }
    out
}

fn is_ctrl_z(event: &Event) -> bool {
    use crossterm::event::{KeyCode, KeyModifiers};
    matches!(event, Event::Key(k) if k.code == KeyCode::Char('z') && k.modifiers.contains(KeyModifiers::CONTROL))
}

fn run_effects(effects: &[Effect], app: &mut App, worker: &jobs::Worker) {
    for e in effects {
        if let Effect::Job(req) = e {
            worker.submit(app.engine.clone(), req.clone());
        }
    }
}

/// The app on the home's first scan. A scan done within
/// [`FIRST_SCAN_WAIT`] is drawn at once; a longer one runs on while the
/// screen shows how far it got, and arrives as [`Message::Scanned`].
fn open(engine: Engine, theme: theme::Theme, layers: Option<Layers>, tx: &mpsc::Sender<Message>) -> App {
    let progress = app::ScanProgress::start();
    // An SQLite file is read with the first scan; a server's rows come
    // from the poller, the db root saying "connecting…" until then.
    let db = match layers.as_ref().and_then(|l| l.db.as_ref()) {
        Some(DbLocation::Server(_)) => DbFeed::default(),
        _ => DbFeed::read_now(layers.as_ref()),
    };
    let (done_tx, done_rx) = mpsc::channel();
    let (scan_engine, scan_layers, scan_db) = (engine.clone(), layers.clone(), db.clone());
    std::thread::spawn(move || {
        let _ = done_tx.send(app::load_catalog(&scan_engine, scan_layers.as_ref(), &scan_db));
    });
    let mut app = match done_rx.recv_timeout(FIRST_SCAN_WAIT) {
        Ok(catalog) => App::with_catalog(engine, theme, layers, catalog),
        Err(_) => {
            let tx = tx.clone();
            std::thread::spawn(move || {
                if let Ok(catalog) = done_rx.recv() {
                    let _ = tx.send(Message::Scanned(Box::new(catalog)));
                }
            });
            App::scanning(engine, theme, layers, progress)
        }
    };
    app.db = db;
    app
}

/// What the browser watches: the home's targets and the layers' roots.
fn watch_targets(app: &App) -> Vec<Target> {
    let extra: Vec<std::path::PathBuf> =
        app.catalog.roots.iter().filter(|r| r.source.is_some()).map(|r| r.path.clone()).collect();
    watch::targets(&app.engine.home, &app.engine.env, &extra)
}

/// Sets up the watches on a thread of their own; the result comes back as
/// [`Message::WatcherReady`] tagged with `request`.
fn start_watcher(targets: &[Target], request: u64, tx: &mpsc::Sender<Message>) {
    let targets = targets.to_vec();
    let tx = tx.clone();
    std::thread::spawn(move || {
        let events = tx.clone();
        let result = watch::watch(&targets, move |event| {
            let _ = events.send(Message::FilesChanged(event));
        });
        let _ = tx.send(Message::WatcherReady(request, result));
    });
}

/// The notice after a copy: what was copied, or why it was not.
fn copy_notice(text: &str, what: &str, written: io::Result<clipboard::Reach>) -> String {
    match written {
        Ok(reach) => {
            let shown: String = text.lines().next().unwrap_or_default().chars().take(60).collect();
            let more = if shown.len() < text.len() { "…" } else { "" };
            let how = match reach {
                clipboard::Reach::Terminal => "",
                clipboard::Reach::TmuxBuffer => " (and into tmux's paste buffer)",
                clipboard::Reach::TmuxRefused => {
                    " (tmux refused its paste buffer: `set -g set-clipboard on` lets tmux take the copy)"
                }
            };
            format!("Copied {what}{how}: {shown}{more}")
        }
        Err(e) if e.kind() == io::ErrorKind::InvalidInput => format!("Not copied: the {what} {e}"),
        Err(e) => format!("Could not copy the {what}: {e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_notice_stays_longer() {
        assert_eq!(notice_ttl(None), NOTICE_TTL);
        assert_eq!(notice_ttl(Some("backend: docker")), NOTICE_TTL);
        let long = "opened SKILL.md at its top, not line 6 (how cat takes a line is not known): set editor = \"cat +{line} {file}\"";
        assert_eq!(notice_ttl(Some(long)), NOTICE_TTL + Duration::from_secs(3));
        assert_eq!(notice_ttl(Some(&"x".repeat(1000))), Duration::from_secs(10));
    }

    #[test]
    fn a_burst_of_changes_is_one_reload() {
        let mut reload = Reload::default();
        let t0 = Instant::now();
        assert!(reload.take_due(t0).is_none());
        let events = [
            WatchEvent::Changed(vec!["/h/skills/a/SKILL.md".into()]),
            WatchEvent::Overflow,
            WatchEvent::Overflow,
            WatchEvent::Changed(vec!["/h/skills/b/SKILL.md".into()]),
        ];
        for (ms, event) in [0, 20, 30, 50].into_iter().zip(events) {
            reload.changed(event, t0 + Duration::from_millis(ms));
            assert!(reload.take_due(t0 + Duration::from_millis(ms + 10)).is_none(), "not while changes keep coming");
        }
        let quiet = t0 + Duration::from_millis(50) + RELOAD_DEBOUNCE;
        let pending = reload.take_due(quiet).expect("one reload");
        assert!(pending.overflow, "an overflow in the burst makes it a full rescan");
        assert_eq!(pending.paths.len(), 2);
        assert!(reload.take_due(quiet + Duration::from_secs(10)).is_none(), "exactly one reload");
    }
}
