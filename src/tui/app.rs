//! The browser's state and its pure update: keys and mouse become
//! [`Action`]s, actions change the state and return [`Effect`]s for the
//! event loop to carry out (open an editor, rescan, run a job, quit).
//! Nothing here draws or touches the terminal.

use super::help::HelpState;
use super::jobs::{JobKind, JobOutput, JobRequest, JobResult};
use super::keymap::{Action, Mode};
use super::line_edit::Edit;
pub use super::state::{CopyItem, CopyMenu, Diagnostics, DiagnosticsView, LayoutState, SearchState, ViewSearch};
use super::state::{DbFeed, JobState, Nav, Prefs, RenderState, RescanState, ViewState};
pub use super::tab::ViewTab;
use super::theme::Theme;
use super::tree::{NodeKey, Row, SortBasis, Tree, TreeSort};
use crate::engine::catalog::{Catalog, CatalogSkill};
use crate::engine::diagnostics::{Finding, Severity};
use crate::engine::env::Os;
use crate::engine::layers::{can_edit, DbLocation, DbRead, DbSkill, LayerError, Layers, Source};
use crate::engine::lifecycle::UsageOverview;
use crate::engine::sandbox::Backend;
use crate::engine::Engine;
use crate::search;
use crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseEvent, MouseEventKind};
use ratatui::layout::Rect;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Focus {
    Tree,
    View,
}

/// What the event loop must do after an update.
#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    OpenEditor {
        path: PathBuf,
        line: usize,
    },
    /// Edit a database skill through a temporary file, then write it back.
    EditDbSkill {
        row: Box<DbSkill>,
        db: DbLocation,
        /// Where the body starts, to open the editor there.
        line: usize,
    },
    Rescan,
    /// The catalog followed files that changed: jobs and watches follow it.
    Reloaded,
    Job(JobRequest),
    /// Put text on the clipboard (OSC 52); `what` names it for the notice.
    Copy {
        text: String,
        what: String,
    },
    /// Show text in the user's pager.
    Pager {
        text: String,
    },
    /// Stop the job, as Ctrl-z does in a shell (`fg` continues it).
    Stop,
    Quit,
}

/// The browser's state. What the screen shows is grouped by pane and kept
/// to this module tree; the rest reads it through methods.
pub struct App {
    pub engine: Arc<Engine>,
    /// Per-user layers, when the browser was opened with `--user`.
    pub layers: Option<Layers>,
    /// Shared with the jobs that need every skill (a skill's Why).
    pub catalog: Arc<Catalog>,
    /// Each offered skill's tokens in the index (for the cost order).
    pub index_tokens: Arc<HashMap<PathBuf, usize>>,
    /// The usage records by name (tree markers and sort) and the archive.
    pub usage: UsageOverview,
    pub theme: Theme,
    /// Bumped on every rescan or setting change; renderings are keyed by it.
    pub(super) generation: u64,
    pub(super) nav: Nav,
    pub focus: Focus,
    pub(super) view: ViewState,
    pub help: HelpState,
    pub search: SearchState,
    pub view_search: ViewSearch,
    pub copy_menu: Option<CopyMenu>,
    pub(super) prefs: Prefs,
    /// The time the Lifecycle view forecasts for: the clock, or a fixed
    /// time in tests.
    pub clock: fn() -> crate::engine::isotime::Micros,
    /// Made a step at a time while the browser is idle (see
    /// [`App::index_search`]): the first frame does not wait for it, and the
    /// first typed character seldom does.
    pub(super) search_index: search::Index,
    pub notice: Option<String>,
    pub banner: Option<String>,
    /// The folder of skills shown through a stand-in home, if that is what was opened.
    pub folder: Option<PathBuf>,
    pub watch_note: Option<String>,
    /// The Hermes installed on this machine, once looked for (the status
    /// line shows its version).
    pub hermes: Option<crate::engine::hermes_install::HermesInstall>,
    pub(super) layout: LayoutState,
    pub(super) jobs: JobState,
    pub(super) render: RenderState,
    pub(super) rescan: RescanState,
    /// Set while the first scan of a big home runs.
    pub scan: Option<ScanProgress>,
    /// `--since REV`: changes marked against a git revision.
    pub since: Option<super::state::SinceState>,
    /// `D`'s prompt for the revision to mark changes since, while typed in.
    pub since_prompt: Option<super::line_edit::LineEdit>,
    /// The database layer's rows and how they stand (with `--db`).
    pub db: DbFeed,
}

/// How far the first scan has got: SKILL.md files read since it began.
#[derive(Debug, Clone)]
pub struct ScanProgress {
    started_at: usize,
}

impl ScanProgress {
    /// Counts from now.
    pub fn start() -> ScanProgress {
        ScanProgress { started_at: crate::engine::source::skill_md_reads() }
    }

    pub fn read(&self) -> usize {
        crate::engine::source::skill_md_reads().saturating_sub(self.started_at)
    }
}

impl App {
    pub fn new(engine: Engine, theme: Theme) -> App {
        App::with_layers(engine, theme, None)
    }

    /// The browser over per-user layers (`--user`, `--db`, `--org-id`).
    /// Database rows are read on this thread (see [`DbFeed::read_now`]).
    pub fn with_layers(engine: Engine, theme: Theme, layers: Option<Layers>) -> App {
        let db = DbFeed::read_now(layers.as_ref());
        let catalog = load_catalog(&engine, layers.as_ref(), &db);
        let mut app = App::with_catalog(engine, theme, layers, catalog);
        app.db = db;
        app
    }

    /// The browser before its skills are read (a big home): an empty tree
    /// until [`App::scanned`] brings the catalog; `progress` counts the
    /// skills read so far, for the screen.
    pub fn scanning(engine: Engine, theme: Theme, layers: Option<Layers>, progress: ScanProgress) -> App {
        let mut app = App::with_catalog(engine, theme, layers, Catalog::default());
        app.scan = Some(progress);
        app
    }

    /// The browser on a catalog already read.
    pub fn with_catalog(engine: Engine, theme: Theme, layers: Option<Layers>, catalog: Catalog) -> App {
        let usage = engine.usage_overview();
        let no_costs = HashMap::new();
        let tree = Tree::build(&catalog, SortBasis { usage: &usage, index_tokens: &no_costs }, TreeSort::Name);
        let mut app = App {
            engine: Arc::new(engine),
            layers,
            catalog: Arc::new(catalog),
            index_tokens: Arc::default(),
            usage,
            theme,
            generation: 1,
            nav: Nav { tree, ..Nav::default() },
            focus: Focus::Tree,
            view: ViewState {
                tab: ViewTab::Preview,
                scroll: 0,
                h_scroll: 0,
                raw: false,
                focus_posture: false,
                file_cursor: 0,
                file_wanted: None,
                // The tree's markers and the view show warnings and up
                // until the user asks for info (`f`).
                diag: DiagnosticsView { all: false, min: Severity::Warning, cursor: 0 },
                since_diff: false,
            },
            help: HelpState::default(),
            search: SearchState::default(),
            view_search: ViewSearch::default(),
            copy_menu: None,
            prefs: Prefs::default(),
            clock: crate::engine::isotime::now,
            search_index: search::Index::new(),
            notice: None,
            banner: None,
            folder: None,
            watch_note: None,
            hermes: None,
            layout: LayoutState::default(),
            jobs: JobState::default(),
            render: Default::default(),
            rescan: Default::default(),
            scan: None,
            since: None,
            since_prompt: None,
            db: DbFeed::default(),
        };
        app.refresh_rows();
        app.select_first_skill();
        app
    }

    pub fn mode(&self) -> Mode {
        if self.copy_menu.is_some() {
            Mode::CopyMenu
        } else if self.help.open && !self.help.typing {
            Mode::Help
        } else if self.help.open || self.view_search.typing || self.search.typing || self.since_prompt.is_some() {
            Mode::Prompt
        } else {
            Mode::Normal
        }
    }

    /// The tree of roots, folders and skills.
    pub fn tree(&self) -> &Tree {
        &self.nav.tree
    }

    /// The tree pane's rows: the tree's open part, or the ranked matches.
    pub fn rows(&self) -> &[Row] {
        &self.nav.rows
    }

    /// The selected row.
    pub fn cursor(&self) -> usize {
        self.nav.cursor
    }

    /// How the tree orders the skills in each folder.
    pub fn tree_sort(&self) -> TreeSort {
        self.nav.sort
    }

    /// The view shown on the right.
    pub fn view(&self) -> ViewTab {
        self.view.tab
    }

    /// The view's first line on screen.
    pub fn view_scroll(&self) -> usize {
        self.view.scroll
    }

    /// Whether the Preview shows the raw SKILL.md.
    pub fn raw(&self) -> bool {
        self.view.raw
    }

    /// Where things are drawn this frame.
    pub fn layout(&self) -> &LayoutState {
        &self.layout
    }

    /// The home's findings, once the check has answered.
    pub fn findings(&self) -> Option<&Diagnostics> {
        self.jobs.diagnostics.as_ref()
    }

    /// The tree's rows, or while a query is active the ranked matches as a
    /// flat list (no folder rows).
    pub(super) fn refresh_rows(&mut self) {
        match &self.search.matches {
            // A search's rows are rewritten on each typed character: in the
            // same allocation (tens of thousands of rows, no fresh pages).
            Some(ranked) => {
                self.nav.rows.clear();
                let node_rows = ranked.iter().filter_map(|&s| self.nav.tree.skill_node(s));
                // Skills removed since the revision the marks are against,
                // by name or folder, after the skills there are.
                let query = self.search.query().trim().to_lowercase();
                let removed = self.nav.tree.nodes.iter().enumerate().filter_map(|(i, n)| match &n.key {
                    NodeKey::RemovedSkill(folder)
                        if !query.is_empty()
                            && (n.label.to_lowercase().contains(&query) || folder.to_lowercase().contains(&query)) =>
                    {
                        Some(i)
                    }
                    _ => None,
                });
                let node_rows: Vec<usize> = node_rows.chain(removed).collect();
                self.nav.rows.extend(node_rows.into_iter().map(|node| Row {
                    node,
                    depth: 0,
                    expanded: false,
                    has_children: false,
                    count: 1,
                }));
            }
            None => self.nav.rows = self.nav.tree.rows(),
        }
        self.nav.cursor = self.nav.cursor.min(self.nav.rows.len().saturating_sub(1));
    }

    pub(super) fn select_first_skill(&mut self) {
        if let Some(i) = self.nav.rows.iter().position(|r| self.nav.tree.nodes[r.node].skill.is_some()) {
            self.nav.cursor = i;
        }
    }

    pub fn selected_row(&self) -> Option<&Row> {
        self.nav.rows.get(self.nav.cursor)
    }

    pub fn selected_key(&self) -> Option<NodeKey> {
        self.selected_row().map(|r| self.nav.tree.nodes[r.node].key.clone())
    }

    /// The catalog index of the selected skill.
    pub fn selected_skill(&self) -> Option<usize> {
        self.selected_row().and_then(|r| self.nav.tree.nodes[r.node].skill)
    }

    /// The selected archived skill, as an index in [`UsageOverview::archived`].
    pub fn selected_archived(&self) -> Option<usize> {
        self.selected_row().and_then(|r| self.nav.tree.nodes[r.node].archived)
    }

    /// The folder of the selected skill removed since the revision.
    pub fn selected_removed(&self) -> Option<&str> {
        match &self.nav.tree.nodes[self.selected_row()?.node].key {
            NodeKey::RemovedSkill(folder) => Some(folder),
            _ => None,
        }
    }

    pub fn skill(&self, i: usize) -> &CatalogSkill {
        &self.catalog.skills[i]
    }

    /// Where a skill lives, for a person: its root and path inside it.
    pub fn source_label(&self, skill: &CatalogSkill) -> String {
        let root = self.catalog.roots.get(skill.root);
        let rel = root.and_then(|r| skill.skill_md.strip_prefix(&r.path).ok()).unwrap_or(&skill.skill_md);
        format!("{} {}", root.map_or("", |r| r.label.as_str()), rel.display())
    }

    /// The layer a skill comes from, when layers are on.
    pub fn source_of(&self, skill: &CatalogSkill) -> Option<Source> {
        self.catalog.roots.get(skill.root).and_then(|r| r.source)
    }

    /// Handles one terminal event.
    pub fn handle_event(&mut self, event: &Event) -> Vec<Effect> {
        match event {
            Event::Key(key) if key.kind != KeyEventKind::Release => self.handle_key(key),
            Event::Mouse(m) => self.handle_mouse(m),
            Event::Paste(text) => self.paste(text),
            Event::Resize(..) => {
                self.clamp_view_scroll();
                Vec::new()
            }
            _ => Vec::new(),
        }
    }

    pub fn handle_key(&mut self, key: &KeyEvent) -> Vec<Effect> {
        // Ctrl-c quits from every mode, whatever a config file binds.
        if key.code == KeyCode::Char('c') && key.modifiers.contains(KeyModifiers::CONTROL) {
            return vec![Effect::Quit];
        }
        // Ctrl-z stops the job from every mode, as in a shell.
        if key.code == KeyCode::Char('z') && key.modifiers.contains(KeyModifiers::CONTROL) {
            return vec![Effect::Stop];
        }
        let mode = self.mode();
        if mode == Mode::CopyMenu {
            return self.copy_menu_key(key);
        }
        if let Some(action) = self.prefs.keymap.lookup(mode, key) {
            return self.update(action);
        }
        if mode == Mode::Prompt {
            if let Some(prompt) = self.active_prompt() {
                if prompt.handle(key) == Edit::Changed {
                    self.prompt_changed();
                }
            }
            return self.wanted_jobs();
        }
        Vec::new()
    }

    fn handle_mouse(&mut self, m: &MouseEvent) -> Vec<Effect> {
        let inside = |r: Rect| m.column >= r.x && m.column < r.x + r.width && m.row >= r.y && m.row < r.y + r.height;
        match m.kind {
            MouseEventKind::Down(_) if inside(self.layout.view) && m.row == self.layout.view.y => {
                let tab = self.layout.tabs.iter().position(|&(x0, x1)| m.column >= x0 && m.column < x1);
                if let Some(i) = tab {
                    self.show(ViewTab::ALL[i]);
                }
            }
            MouseEventKind::Down(_) if inside(self.layout.tree) => {
                let row = usize::from(m.row.saturating_sub(self.layout.tree.y + 1)) + self.nav.offset;
                if row < self.nav.rows.len() {
                    self.focus = Focus::Tree;
                    self.select(row);
                }
            }
            MouseEventKind::Down(_) if inside(self.layout.view) => self.focus = Focus::View,
            MouseEventKind::ScrollDown if inside(self.layout.view) => self.scroll_view(3),
            MouseEventKind::ScrollUp if inside(self.layout.view) => self.scroll_view(-3),
            MouseEventKind::ScrollDown if inside(self.layout.tree) => self.move_cursor(3),
            MouseEventKind::ScrollUp if inside(self.layout.tree) => self.move_cursor(-3),
            _ => return Vec::new(),
        }
        self.wanted_jobs()
    }

    pub(super) fn select(&mut self, row: usize) {
        let before = self.selected_key();
        self.nav.cursor = row.min(self.nav.rows.len().saturating_sub(1));
        if self.selected_key() != before {
            self.view.scroll = 0;
            self.view.h_scroll = 0;
            self.view.file_cursor = 0;
            self.view.file_wanted = None;
            if !self.view.diag.all {
                self.view.diag.cursor = 0;
            }
        }
    }

    pub(super) fn move_cursor(&mut self, delta: isize) {
        if self.nav.rows.is_empty() {
            return;
        }
        let target = (self.nav.cursor as isize + delta).clamp(0, self.nav.rows.len() as isize - 1) as usize;
        self.select(target);
    }

    fn page(&self) -> isize {
        self.layout.view_height.max(2) as isize - 1
    }

    pub(super) fn scroll_view(&mut self, delta: isize) {
        self.view.scroll = (self.view.scroll as isize + delta).max(0) as usize;
        self.clamp_view_scroll();
    }

    pub(super) fn scroll_sideways(&mut self, delta: isize) {
        let room = self.layout.view_max_width.saturating_sub(usize::from(self.layout.view_width));
        self.view.h_scroll = (self.view.h_scroll as isize + delta).clamp(0, room as isize) as usize;
    }

    /// Keeps the view's scroll inside the lines shown (after a resize, a
    /// rescan, once built): not a placeholder's, so `G` pressed while a view
    /// is built lands at its bottom.
    pub fn clamp_view_scroll(&mut self) {
        if self.render.shown.as_ref().is_some_and(|s| !s.complete) {
            return;
        }
        if let Some(view) = self.shown() {
            let max = view.lines.len().saturating_sub(usize::from(self.layout.view_height.max(1)));
            self.view.scroll = self.view.scroll.min(max);
        }
    }

    /// Applies one action.
    pub fn update(&mut self, action: Action) -> Vec<Effect> {
        let mut effects = Vec::new();
        let view_focus = self.focus == Focus::View;
        match action {
            Action::Quit => return vec![Effect::Quit],
            Action::Help => {
                self.help = HelpState { open: true, ..HelpState::default() };
            }
            _ if self.help.open => self.help_action(action),
            Action::Back if self.since_prompt.is_some() => self.cancel_since_prompt(),
            Action::Activate if self.since_prompt.is_some() => self.apply_since_prompt(),
            _ if self.since_prompt.is_some() => {}
            Action::Back if self.search.typing || self.view_search.typing => self.close_prompt(),
            Action::Activate if self.search.typing || self.view_search.typing => self.keep_prompt(),
            Action::Up | Action::Down if self.view_search.typing => {
                self.step_hit(if action == Action::Up { -1 } else { 1 });
            }
            Action::Up if self.search.typing && (self.search.input.is_empty() || self.search.history_pos.is_some()) => {
                self.history_step(-1)
            }
            Action::Down if self.search.typing && self.search.history_pos.is_some() => self.history_step(1),
            Action::Back => self.back(),
            Action::Down if view_focus => self.view_down(1),
            Action::Up if view_focus => self.view_down(-1),
            Action::Down => self.move_cursor(1),
            Action::Up => self.move_cursor(-1),
            Action::PageDown if view_focus => self.scroll_view(self.page()),
            Action::PageUp if view_focus => self.scroll_view(-self.page()),
            Action::HalfPageDown if view_focus => self.scroll_view(self.page() / 2),
            Action::HalfPageUp if view_focus => self.scroll_view(-self.page() / 2),
            Action::PageDown => self.move_cursor(self.page()),
            Action::PageUp => self.move_cursor(-self.page()),
            Action::HalfPageDown => self.move_cursor(self.page() / 2),
            Action::HalfPageUp => self.move_cursor(-self.page() / 2),
            Action::ScrollViewDown => self.scroll_view(3),
            Action::ScrollViewUp => self.scroll_view(-3),
            Action::ScrollLeft => self.scroll_sideways(-8),
            Action::ScrollRight => self.scroll_sideways(8),
            Action::Top if view_focus => self.view.scroll = 0,
            Action::Bottom if view_focus => self.scroll_view(isize::MAX / 2),
            Action::Top => self.select(0),
            Action::Bottom => self.select(self.nav.rows.len().saturating_sub(1)),
            Action::Collapse if view_focus && self.view.h_scroll > 0 => self.scroll_sideways(-8),
            Action::Collapse if view_focus => self.focus = Focus::Tree,
            Action::Expand if view_focus => self.scroll_sideways(8),
            Action::Collapse => self.collapse(),
            Action::Expand => self.expand(),
            Action::Activate if view_focus && self.view.tab == ViewTab::Diagnostics => self.jump_to_finding(),
            Action::Activate if view_focus && self.view.tab == ViewTab::Files => {
                self.notice = Some("e opens this file in your editor; o shows the view in the pager".into());
            }
            Action::Activate => match self.selected_row().cloned() {
                Some(r) if r.has_children => {
                    let expanded = self.nav.tree.is_expanded(r.node);
                    self.nav.tree.set_expanded(r.node, !expanded);
                    self.refresh_rows();
                }
                Some(_) => self.focus = Focus::View,
                None => {}
            },
            Action::SwitchFocus => {
                self.focus = if self.focus == Focus::Tree { Focus::View } else { Focus::Tree };
            }
            Action::StartSearch if view_focus => self.start_view_search(),
            Action::SearchView => self.start_view_search(),
            Action::StartSearch => self.start_search(),
            Action::NextMatch | Action::PrevMatch => {
                let step = if action == Action::NextMatch { 1 } else { -1 };
                if !self.view_search.input.is_empty() && (view_focus || self.search.matches.is_none()) {
                    self.step_hit(step);
                } else if self.search.matches.is_some() && !self.nav.rows.is_empty() {
                    let n = self.nav.rows.len() as isize;
                    self.select(((self.nav.cursor as isize + step) % n + n) as usize % n as usize);
                } else if self.search.matches.is_some() {
                    // The search line already says nothing matches.
                } else {
                    self.notice = Some("No search: press / to search (in the view: its text)".into());
                }
            }
            Action::NextBackend | Action::PrevBackend => {
                let current = self.engine.options.backend;
                let backend = if action == Action::NextBackend { current.next() } else { current.previous() };
                self.set_backend(backend);
            }
            Action::NextPlatform => {
                let os = match self.engine.env.os {
                    Os::Linux => Os::Macos,
                    Os::Macos => Os::Windows,
                    Os::Windows => Os::Linux,
                };
                let mut engine = (*self.engine).clone();
                engine.env.os = os;
                self.notice = Some(format!("platform gates evaluated as on {}", os.name()));
                self.engine = Arc::new(engine);
                effects.push(Effect::Rescan);
            }
            Action::View(i) => self.show(ViewTab::ALL[i.min(ViewTab::ALL.len() - 1)]),
            Action::NextView => self.show(ViewTab::ALL[(self.view.tab.index() + 1) % ViewTab::ALL.len()]),
            Action::PrevView => {
                self.show(ViewTab::ALL[(self.view.tab.index() + ViewTab::ALL.len() - 1) % ViewTab::ALL.len()])
            }
            Action::SystemPrompt => self.show(ViewTab::Prompt),
            Action::CycleSort => self.cycle_sort(),
            Action::TogglePosture => {
                // The System prompt view's setting: shown where it acts, as
                // the Diagnostics view's keys are.
                self.show(ViewTab::Prompt);
                self.view.focus_posture = !self.view.focus_posture;
                self.render.clear();
                self.notice = Some(if self.view.focus_posture {
                    "system prompt: the focus posture (non-coding categories names-only)".to_owned()
                } else {
                    "system prompt: the posture config.yaml sets for this directory".to_owned()
                });
            }
            Action::ToggleSinceDiff => self.toggle_since_diff(),
            Action::ToggleSince => self.toggle_since(),
            Action::ToggleRaw if self.selected_skill().is_none() => {
                self.notice = Some("R shows a skill's SKILL.md raw: select a skill".into());
            }
            Action::ToggleRaw => {
                // The Preview's way of showing: from another view, R shows
                // the Preview raw.
                self.view.raw = self.view.tab != ViewTab::Preview || !self.view.raw;
                self.show(ViewTab::Preview);
                self.view.scroll = 0;
                self.view.h_scroll = 0;
            }
            Action::OpenEditor => match self.editor_target() {
                Some(Ok(effect)) => effects.push(effect),
                Some(Err(denied)) => self.notice = Some(format!("Not editable: {denied}")),
                None => self.notice = Some("e opens a skill or a file: select one".into()),
            },
            Action::Copy => match self.copy_target() {
                Some(item) => effects.push(Effect::Copy { text: item.text, what: item.label.to_owned() }),
                None => self.notice = Some("Nothing to copy here".into()),
            },
            Action::CopyMenu => {
                let items = self.copy_items();
                if items.is_empty() {
                    self.notice = Some("Nothing to copy here".into());
                } else {
                    self.copy_menu = Some(CopyMenu { items, cursor: 0 });
                    // The agent's message is offered once its job answers.
                    effects.extend(self.job_for(ViewTab::Agent));
                }
            }
            Action::Pager => effects.push(Effect::Pager { text: self.view_text() }),
            Action::Rescan => {
                self.rescan.asked = true;
                effects.push(Effect::Rescan);
            }
            Action::DiagnosticsScope => {
                self.show(ViewTab::Diagnostics);
                self.view.diag.all = !self.view.diag.all;
                self.view.diag.cursor = 0;
            }
            Action::DiagnosticsSeverity => {
                self.show(ViewTab::Diagnostics);
                self.view.diag.min = match self.view.diag.min {
                    Severity::Info => Severity::Warning,
                    Severity::Warning => Severity::Error,
                    Severity::Error => Severity::Info,
                };
                self.view.diag.cursor = 0;
            }
        }
        effects.extend(self.wanted_jobs());
        effects
    }

    pub(super) fn show(&mut self, tab: ViewTab) {
        if self.view.tab != tab {
            self.view.tab = tab;
            self.view.scroll = 0;
            self.view.h_scroll = 0;
        }
    }

    /// j/k in the view: moves the file cursor in Files, else scrolls.
    fn view_down(&mut self, delta: isize) {
        if self.view.tab == ViewTab::Diagnostics {
            let count = self.visible_findings().len();
            if count > 0 {
                self.view.diag.cursor = (self.view.diag.cursor as isize + delta).clamp(0, count as isize - 1) as usize;
            }
            return;
        }
        if self.view.tab == ViewTab::Files {
            let count = self.file_entries().map_or(0, <[_]>::len);
            if count > 0 {
                self.view.file_cursor = (self.view.file_cursor as isize + delta).clamp(0, count as isize - 1) as usize;
                self.view.scroll = 0;
            }
        } else {
            self.scroll_view(delta);
        }
    }

    fn collapse(&mut self) {
        let Some(row) = self.selected_row().cloned() else { return };
        if row.has_children && row.expanded {
            self.nav.tree.set_expanded(row.node, false);
            self.refresh_rows();
        } else if let Some(parent) = self.nav.tree.parent(row.node) {
            if let Some(i) = self.nav.rows.iter().position(|r| r.node == parent) {
                self.select(i);
            }
        }
    }

    fn expand(&mut self) {
        let Some(row) = self.selected_row().cloned() else { return };
        if row.has_children && !row.expanded {
            self.nav.tree.set_expanded(row.node, true);
            self.refresh_rows();
        } else if row.has_children {
            self.move_cursor(1);
        } else {
            self.focus = Focus::View;
        }
    }

    /// Selects the row with this key, if it is visible; true when found.
    pub(super) fn restore_selection(&mut self, key: Option<&NodeKey>) -> bool {
        let Some(key) = key else { return false };
        match self.nav.rows.iter().position(|r| &self.nav.tree.nodes[r.node].key == key) {
            Some(i) => {
                self.nav.cursor = i;
                true
            }
            None => false,
        }
    }

    fn set_backend(&mut self, backend: Backend) {
        let mut engine = (*self.engine).clone();
        engine.options.backend = backend;
        self.engine = Arc::new(engine);
        self.generation += 1;
        self.render.clear();
        self.jobs.agent = None;
        self.jobs.bundles = None;
        self.jobs.requested.clear();
        self.notice = Some(format!("backend: {backend}"));
    }

    /// The findings the Diagnostics view lists, in order.
    pub fn visible_findings(&self) -> Vec<&Finding> {
        let Some(d) = &self.jobs.diagnostics else { return Vec::new() };
        let selected = self.selected_skill();
        let mut out: Vec<&Finding> = d
            .all
            .iter()
            .filter(|f| f.severity >= self.view.diag.min)
            .filter(|f| self.view.diag.all || (selected.is_some() && f.skill == selected))
            .collect();
        out.sort_by(|a, b| (b.severity, &a.rel_path, a.line).cmp(&(a.severity, &b.rel_path, b.line)));
        out
    }

    /// What `e` opens, or why it may not be edited.
    fn editor_target(&self) -> Option<Result<Effect, LayerError>> {
        if self.view.tab == ViewTab::Diagnostics {
            let f = self.visible_findings().get(self.view.diag.cursor).copied()?;
            if let Some(denied) = f.skill.and_then(|i| self.edit_denied(self.skill(i))) {
                return Some(Err(denied));
            }
            return Some(Ok(Effect::OpenEditor { path: f.path.to_path_buf(), line: f.line.unwrap_or(1) }));
        }
        if let Some(a) = self.selected_archived() {
            return Some(Ok(Effect::OpenEditor { path: self.usage.archived[a].path.join("SKILL.md"), line: 1 }));
        }
        let skill = self.skill(self.selected_skill()?);
        if let Some(denied) = self.edit_denied(skill) {
            return Some(Err(denied));
        }
        if let (Some(row), Some(db)) = (&skill.db_row, self.layers.as_ref().and_then(|l| l.db.clone())) {
            return Some(Ok(Effect::EditDbSkill { row: row.clone(), db, line: skill.body_line }));
        }
        if self.view.tab == ViewTab::Files && self.focus == Focus::View {
            if let Some(entry) = self.file_entries().and_then(|files| files.get(self.view.file_cursor)) {
                return Some(Ok(Effect::OpenEditor { path: skill.skill_dir.join(&entry.rel), line: 1 }));
            }
        }
        // The raw SKILL.md is numbered as the file: the editor opens at the
        // line on top (a finding's, after Enter on it); the rendered body
        // at its first line.
        let line = match (self.view.tab, self.view.raw) {
            (ViewTab::Preview, true) => self.view.scroll + 1,
            _ => skill.body_line,
        };
        Some(Ok(Effect::OpenEditor { path: skill.skill_md.clone(), line }))
    }

    /// The layers with the database rows shown, for a job.
    fn layered_rows(&self) -> Option<(Layers, Arc<DbRead>)> {
        self.layers.clone().map(|l| (l, self.db.rows.clone()))
    }

    /// Why this session may not edit a skill, when layers say so.
    fn edit_denied(&self, skill: &CatalogSkill) -> Option<LayerError> {
        let layers = self.layers.as_ref()?;
        let source = self.source_of(skill)?;
        can_edit(source, layers.org_id.as_deref()).err()
    }

    /// `s`: the next order of skills in the tree, the selection kept.
    fn cycle_sort(&mut self) {
        let key = self.selected_key();
        self.nav.sort = self.nav.sort.next();
        self.rebuild_tree();
        self.refresh_rows();
        self.restore_selection(key.as_ref());
        self.notice = Some(match self.search.matches {
            Some(_) => format!("skills sorted by {} once the search is cleared", self.nav.sort.label()),
            None => format!("skills sorted by {}", self.nav.sort.label()),
        });
    }

    /// The jobs the screen needs that were not requested yet: the findings
    /// (for the tree markers) and whatever the visible view needs.
    pub fn wanted_jobs(&mut self) -> Vec<Effect> {
        let mut effects = Vec::new();
        if self.scan.is_some() {
            // Nothing competes with the first scan; the jobs follow it.
            return effects;
        }
        if self.jobs.diagnostics.is_none() {
            effects.extend(self.request(JobKind::Diagnostics(self.layered_rows(), self.prefs.check_policy.clone())));
        }
        effects.extend(self.view_job());
        if self.jobs.prompt.is_none() {
            // The status line and the tree's cost order need the index.
            effects.extend(self.request(self.prompt_kind()));
        }
        if let Some(kind) = self.since_kind() {
            self.since_asked(self.generation);
            effects.extend(self.request(kind));
        }
        effects
    }

    fn request(&mut self, kind: JobKind) -> Option<Effect> {
        let slot = std::mem::discriminant(&kind);
        if self.jobs.requested.get(&slot).is_some_and(|(_, k)| *k == kind) {
            return None;
        }
        let id = self.jobs.next_id();
        self.jobs.requested.insert(slot, (id, kind.clone()));
        let mut progress = super::jobs::SharedProgress::default();
        if matches!(kind, JobKind::Diagnostics(..)) {
            // The check walks and checks at once: its gauge runs towards
            // the number of skills shown now.
            let shown = self.catalog.skills.iter().filter(|s| s.db_row.is_none()).count();
            progress = super::jobs::SharedProgress(Arc::new(crate::engine::check::Progress::expecting(shown)));
            self.jobs.diagnostics_progress = Some(progress.0.clone());
        }
        Some(Effect::Job(JobRequest { id, kind, progress }))
    }

    /// The index question: with layers, the user's layer's index too.
    fn prompt_kind(&self) -> JobKind {
        JobKind::Prompt { user: self.layers.as_ref().map(|l| l.user.clone()) }
    }

    /// The index a skill is offered in (its layer's), in the posture shown,
    /// once measured.
    pub fn index_of_skill(&self, skill: &CatalogSkill) -> Option<&super::jobs::PostureIndex> {
        match &self.jobs.prompt {
            Some(JobOutput::Prompt(Ok(answer))) => {
                Some(answer.for_source(self.source_of(skill), self.view.focus_posture))
            }
            _ => None,
        }
    }

    /// The index in the posture the System prompt view shows, once measured.
    pub fn index_answer(&self) -> Option<&super::jobs::PostureIndex> {
        match &self.jobs.prompt {
            Some(JobOutput::Prompt(Ok(answer))) => Some(answer.shown(self.view.focus_posture)),
            _ => None,
        }
    }

    /// The Agent view's question for the selected skill.
    fn agent_kind(&self) -> Option<JobKind> {
        self.selected_skill().map(|i| {
            let s = self.skill(i);
            let user = match (self.source_of(s), &self.layers) {
                (Some(Source::User), Some(l)) => Some(l.user.clone()),
                _ => None,
            };
            JobKind::Agent {
                skill_md: s.skill_md.clone(),
                command: s.status.command.clone(),
                name: s.name.clone(),
                user,
            }
        })
    }

    fn view_job(&mut self) -> Vec<Effect> {
        self.job_for(self.view.tab)
    }

    /// The job a view's answer comes from, unless it is here or asked for.
    fn job_for(&mut self, tab: ViewTab) -> Vec<Effect> {
        let kind = match tab {
            ViewTab::Agent => self.agent_kind(),
            ViewTab::Bundles => Some(JobKind::Bundles),
            ViewTab::Prompt => Some(self.prompt_kind()),
            ViewTab::Lifecycle => {
                self.selected_skill().map(|i| self.skill(i)).filter(|s| s.db_row.is_none()).map(|s| {
                    // By the minute: a redraw does not ask again.
                    let minute = 60 * 1_000_000;
                    JobKind::Lifecycle {
                        name: s.name.clone(),
                        skill_md: s.skill_md.clone(),
                        skill_dir: s.skill_dir.clone(),
                        now: (self.clock)().div_euclid(minute) * minute,
                    }
                })
            }
            ViewTab::Diagnostics => Some(JobKind::Diagnostics(self.layered_rows(), self.prefs.check_policy.clone())),
            _ => None,
        };
        let Some(kind) = kind else { return Vec::new() };
        let have = match &kind {
            JobKind::Agent { .. } => self.jobs.agent.as_ref().is_some_and(|(k, _)| *k == kind),
            JobKind::Bundles => self.jobs.bundles.is_some(),
            JobKind::Prompt { .. } => self.jobs.prompt.is_some(),
            JobKind::Lifecycle { .. } => self.jobs.lifecycle.as_ref().is_some_and(|(k, _)| *k == kind),
            JobKind::Diagnostics(..) => self.jobs.diagnostics.is_some(),
            JobKind::View(_) | JobKind::Since { .. } => false,
        };
        if have {
            return Vec::new();
        }
        self.request(kind).into_iter().collect()
    }

    /// Stores a job's answer if it answers the latest request (a view's
    /// lines, if they are for this catalog).
    pub fn apply_job(&mut self, result: JobResult) {
        if let JobKind::View(job) = &result.kind {
            let answer = match result.output {
                JobOutput::View(answer) => Some(answer),
                _ => None,
            };
            self.apply_view(result.id, job, answer);
            return;
        }
        let agent = matches!(result.kind, JobKind::Agent { .. });
        let slot = std::mem::discriminant(&result.kind);
        if self.jobs.requested.get(&slot).map(|(id, _)| *id) != Some(result.id) {
            return;
        }
        self.jobs.requested.remove(&slot);
        match result.kind {
            JobKind::Agent { .. } => self.jobs.agent = Some((result.kind, result.output)),
            JobKind::Bundles => self.jobs.bundles = Some(result.output),
            JobKind::Prompt { .. } => {
                self.index_tokens = Arc::new(match &result.output {
                    JobOutput::Prompt(Ok(answer)) => std::iter::once(&answer.configured)
                        .chain(answer.user.as_ref())
                        .flat_map(|posture| &posture.cost.skills)
                        .filter(|s| s.offered)
                        .filter_map(|s| Some((s.skill_md.clone()?, s.index.tokens)))
                        .collect(),
                    _ => HashMap::new(),
                });
                self.jobs.prompt = Some(result.output);
                if self.nav.sort == TreeSort::IndexCost {
                    let key = self.selected_key();
                    self.rebuild_tree();
                    self.refresh_rows();
                    self.restore_selection(key.as_ref());
                }
                // The header cards and the Why sections quote the index.
                self.render.clear();
                return;
            }
            JobKind::Lifecycle { .. } => self.jobs.lifecycle = Some((result.kind, result.output)),
            JobKind::Diagnostics(..) => {
                if let JobOutput::Diagnostics(findings) = result.output {
                    self.jobs.diagnostics = Some(self.map_findings(findings));
                }
                self.render.clear();
                return;
            }
            JobKind::View(_) => return,
            JobKind::Since { .. } => {
                self.since_arrived(result.output);
                return;
            }
        }
        if agent && self.copy_menu.is_some() {
            // The menu offers the message now that it is known.
            let items = self.copy_items();
            if let Some(menu) = &mut self.copy_menu {
                menu.cursor = menu.cursor.min(items.len().saturating_sub(1));
                menu.items = items;
            }
        }
        self.render.forget_tab(self.view.tab);
    }

    /// Re-points findings at this catalog's skills (the worker scanned its own).
    fn map_findings(&self, findings: Vec<Finding>) -> Diagnostics {
        let by_path: HashMap<&std::path::Path, usize> =
            self.catalog.skills.iter().enumerate().map(|(i, s)| (s.skill_md.as_path(), i)).collect();
        let mut worst_by_skill: HashMap<usize, Severity> = HashMap::new();
        let all: Vec<Finding> = findings
            .into_iter()
            .map(|mut f| {
                f.skill = f.skill_md.as_deref().and_then(|p| by_path.get(p).copied());
                if let Some(i) = f.skill {
                    let w = worst_by_skill.entry(i).or_insert(f.severity);
                    *w = (*w).max(f.severity);
                }
                f
            })
            .collect();
        Diagnostics { all, worst_by_skill }
    }

    /// True while the findings are being computed and the Diagnostics view
    /// shows their progress (the screen is redrawn to move the gauge).
    pub fn checking(&self) -> bool {
        self.view.tab == ViewTab::Diagnostics
            && self.jobs.diagnostics.is_none()
            && self.jobs.diagnostics_progress.is_some()
    }

    /// The running check's gauge moved: the Diagnostics view is drawn again.
    pub fn gauge_moved(&mut self) {
        self.render.forget_tab(ViewTab::Diagnostics);
    }

    /// Runs requested jobs on this thread (tests, and small homes).
    pub fn run_jobs_inline(&mut self, effects: &[Effect]) {
        for e in effects {
            if let Effect::Job(req) = e {
                let result = super::jobs::run(&self.engine, req);
                self.apply_job(result);
            }
        }
    }
}

/// The catalog the browser shows: the home, or its layers for one user
/// with the database rows `db` holds (read elsewhere: a server may be slow).
/// It is lean ([`Catalog::lean`]): the views read the frontmatter of the
/// skill they show.
pub fn load_catalog(engine: &Engine, layers: Option<&Layers>, db: &DbFeed) -> Catalog {
    match layers {
        Some(l) => {
            let mut catalog = engine.lean_layered_catalog(l, &db.rows);
            db.mark(&mut catalog);
            catalog
        }
        None => engine.lean_catalog(),
    }
}
