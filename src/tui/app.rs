//! The browser's state and its pure update: keys and mouse become
//! [`Action`]s, actions change the state and return [`Effect`]s for the
//! event loop to carry out (open an editor, rescan, run a job, quit).
//! Nothing here draws or touches the terminal.

use super::help::HelpState;
use super::jobs::{JobKind, JobOutput, JobRequest, JobResult};
use super::keymap::{Action, Keymap, Mode};
use super::line_edit::{Edit, LineEdit};
use super::theme::Theme;
use super::tree::{NodeKey, Row, Tree, TreeSort};
use super::view_text::Hit;
use crate::engine::catalog::{Catalog, CatalogSkill};
use crate::engine::diagnostics::{Finding, Severity};
use crate::engine::env::Os;
use crate::engine::layers::{can_edit, read_db, DbSkill, Layers, Source};
use crate::engine::lifecycle::UsageOverview;
use crate::engine::reload::{self, Pending, ReloadPlan};
use crate::engine::sandbox::Backend;
use crate::engine::Engine;
use crate::search;
use crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseEvent, MouseEventKind};
use ratatui::layout::Rect;
use ratatui::text::Line;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

/// The views of the selected skill (and the system prompt).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ViewTab {
    Preview,
    Files,
    Readiness,
    Agent,
    Bundles,
    Prompt,
    Diagnostics,
    Lifecycle,
}

impl ViewTab {
    pub const ALL: [ViewTab; 8] = [
        ViewTab::Preview,
        ViewTab::Files,
        ViewTab::Readiness,
        ViewTab::Agent,
        ViewTab::Bundles,
        ViewTab::Prompt,
        ViewTab::Diagnostics,
        ViewTab::Lifecycle,
    ];

    pub fn title(self) -> &'static str {
        match self {
            ViewTab::Preview => "Preview",
            ViewTab::Files => "Files",
            ViewTab::Readiness => "Readiness",
            ViewTab::Agent => "Agent",
            ViewTab::Bundles => "Bundles",
            ViewTab::Prompt => "Prompt",
            ViewTab::Diagnostics => "Diagnostics",
            ViewTab::Lifecycle => "Lifecycle",
        }
    }

    fn index(self) -> usize {
        ViewTab::ALL.iter().position(|t| *t == self).unwrap_or(0)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Focus {
    Tree,
    View,
}

/// Rendered view lines are cached by (generation, selected row, tab, width,
/// raw, file cursor, diagnostics state): scrolling and redraws reuse them.
pub type CacheKey = (u64, Option<NodeKey>, ViewTab, u16, bool, usize, (bool, Severity, usize));

/// A view's lines as rendered for a width, and the widest of them (lines
/// wider than the view, code, scroll sideways).
#[derive(Debug, Default)]
pub struct Rendered {
    pub lines: Vec<Line<'static>>,
    pub max_width: usize,
    /// Unique to this rendering: a view search follows the text on screen,
    /// whichever key it was cached under (a job's answer replaces the text
    /// under the same key).
    pub serial: u64,
}

impl Rendered {
    pub fn new(lines: Vec<Line<'static>>) -> Rendered {
        static SERIAL: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        let max_width = super::view_text::max_width(&lines);
        let serial = SERIAL.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Rendered { lines, max_width, serial }
    }
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
        db: PathBuf,
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
    Quit,
}

#[derive(Debug, Clone, Default)]
pub struct SearchState {
    /// The prompt has the keyboard.
    pub typing: bool,
    pub input: LineEdit,
    /// Matching skills, best first, while a query is active: the tree
    /// pane then shows them as a ranked list.
    pub matches: Option<Vec<usize>>,
    /// Queries kept with Enter, oldest first.
    pub history: Vec<String>,
    /// Which history entry the prompt shows (↑ in an empty prompt).
    pub(super) history_pos: Option<usize>,
}

impl SearchState {
    pub fn query(&self) -> &str {
        self.input.text()
    }
}

/// A search inside the view's text.
#[derive(Debug, Clone, Default)]
pub struct ViewSearch {
    pub typing: bool,
    pub input: LineEdit,
    pub hits: Vec<Hit>,
    /// The hit `n`/`N` are at.
    pub current: usize,
    /// What the hits were computed for: ([`Rendered::serial`], query).
    pub computed_for: Option<(u64, String)>,
    /// Scroll to the current hit once hits are computed.
    pub reveal: bool,
}

/// The copy menu (`Y`): what can be copied for the selection.
#[derive(Debug, Clone)]
pub struct CopyMenu {
    pub items: Vec<CopyItem>,
    pub cursor: usize,
}

#[derive(Debug, Clone, PartialEq)]
pub struct CopyItem {
    pub key: char,
    pub label: &'static str,
    pub text: String,
}

/// Where things were drawn last frame, for mouse hit-testing and paging.
#[derive(Debug, Clone, Default)]
pub struct LayoutState {
    pub tree: Rect,
    pub view: Rect,
    /// Rows of the view's content area.
    pub view_height: u16,
    /// Columns of the view's text area.
    pub view_width: u16,
    /// Where each tab's title was drawn: (first column, past the last), in
    /// [`ViewTab::ALL`] order.
    pub tabs: [(u16, u16); ViewTab::ALL.len()],
    /// Lines of the view's content, and the widest, last frame.
    pub view_lines: usize,
    pub view_max_width: usize,
}

/// Answers from background jobs, with the request they answer.
#[derive(Debug, Default)]
pub struct JobState {
    next_id: u64,
    pub requested: HashMap<std::mem::Discriminant<JobKind>, (u64, JobKind)>,
    pub agent: Option<(JobKind, JobOutput)>,
    pub bundles: Option<JobOutput>,
    pub prompt: Option<JobOutput>,
    pub lifecycle: Option<(JobKind, JobOutput)>,
    /// Findings by skill (catalog index), and those about no skill.
    pub diagnostics: Option<Diagnostics>,
    /// How far the running check has got.
    pub diagnostics_progress: Option<Arc<crate::engine::check::Progress>>,
}

/// The home's findings, mapped onto the current catalog.
#[derive(Debug, Default)]
pub struct Diagnostics {
    pub all: Vec<Finding>,
    pub worst_by_skill: HashMap<usize, Severity>,
}

/// What the Diagnostics view shows.
#[derive(Debug, Clone, Copy)]
pub struct DiagnosticsView {
    /// Every finding in the home, not only the selected skill's.
    pub all: bool,
    pub min: Severity,
    pub cursor: usize,
}

pub struct App {
    pub engine: Arc<Engine>,
    /// Per-user layers, when the browser was opened with `--user`.
    pub layers: Option<Layers>,
    pub catalog: Catalog,
    /// Bumped on every rescan or setting change; caches are keyed by it.
    pub generation: u64,
    pub tree: Tree,
    pub rows: Vec<Row>,
    pub cursor: usize,
    pub tree_offset: usize,
    pub focus: Focus,
    pub view: ViewTab,
    pub view_scroll: usize,
    /// Columns scrolled away from lines wider than the view (code).
    pub h_scroll: usize,
    pub raw: bool,
    pub help: HelpState,
    pub search: SearchState,
    pub view_search: ViewSearch,
    pub copy_menu: Option<CopyMenu>,
    pub keymap: Keymap,
    /// Set when the config file could not be used: shown in the status line.
    pub config_note: Option<String>,
    /// Every problem of the config file, listed in the help.
    pub config_problems: Vec<String>,
    /// What the Diagnostics view and the tree's markers report: the
    /// repository's `skillscope.toml`, as `check` reads it.
    pub check_policy: super::jobs::SharedPolicy,
    /// The settings file read for it, or why it could not be used.
    pub check_settings: Result<Option<PathBuf>, String>,
    /// The editor command from the config file, over $VISUAL/$EDITOR.
    pub editor: Option<String>,
    /// The pager command from the config file, over $PAGER.
    pub pager: Option<String>,
    /// The usage records by name (tree markers and sort) and the archive.
    pub usage: UsageOverview,
    /// How the tree orders the skills in each folder.
    pub tree_sort: TreeSort,
    /// The time the Lifecycle view forecasts for: the clock, or a fixed
    /// time in tests.
    pub clock: fn() -> crate::engine::isotime::Micros,
    /// Made a step at a time while the browser is idle (see
    /// [`App::index_search`]): the first frame does not wait for it, and the
    /// first typed character seldom does.
    pub(super) search_index: search::Index,
    pub file_cursor: usize,
    pub diag: DiagnosticsView,
    pub notice: Option<String>,
    pub banner: Option<String>,
    /// The folder of skills shown through a stand-in home, if that is what was opened.
    pub folder: Option<PathBuf>,
    pub watch_note: Option<String>,
    /// The Hermes installed on this machine, once looked for (the status
    /// line shows its version).
    pub hermes: Option<crate::engine::hermes_install::HermesInstall>,
    pub theme: Theme,
    pub layout: LayoutState,
    pub jobs: JobState,
    /// Rendered views by [`CacheKey`].
    pub cache: HashMap<CacheKey, Arc<Rendered>>,
    /// Set while the first scan of a big home runs.
    pub scan: Option<ScanProgress>,
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
    pub fn with_layers(engine: Engine, theme: Theme, layers: Option<Layers>) -> App {
        let catalog = load_catalog(&engine, layers.as_ref());
        App::with_catalog(engine, theme, layers, catalog)
    }

    /// The browser before its skills are read (a big home): an empty tree
    /// until [`App::scanned`] brings the catalog; `progress` counts the
    /// skills read so far, for the screen.
    pub fn scanning(engine: Engine, theme: Theme, layers: Option<Layers>, progress: ScanProgress) -> App {
        let mut app = App::with_catalog(engine, theme, layers, Catalog::default());
        app.scan = Some(progress);
        app
    }

    /// The first scan is done: its catalog replaces the empty one.
    pub fn scanned(&mut self, catalog: Catalog) {
        self.scan = None;
        self.catalog = catalog;
        self.usage = self.engine.usage_overview();
        self.catalog_changed(None, 0, true);
    }

    /// The browser on a catalog already read.
    pub fn with_catalog(engine: Engine, theme: Theme, layers: Option<Layers>, catalog: Catalog) -> App {
        let usage = engine.usage_overview();
        let tree = Tree::build(&catalog, &usage, TreeSort::Name);
        let mut app = App {
            engine: Arc::new(engine),
            layers,
            catalog,
            generation: 1,
            tree,
            rows: Vec::new(),
            cursor: 0,
            tree_offset: 0,
            focus: Focus::Tree,
            view: ViewTab::Preview,
            view_scroll: 0,
            h_scroll: 0,
            raw: false,
            help: HelpState::default(),
            search: SearchState::default(),
            view_search: ViewSearch::default(),
            copy_menu: None,
            keymap: Keymap::default(),
            config_note: None,
            config_problems: Vec::new(),
            check_policy: super::jobs::SharedPolicy::default(),
            check_settings: Ok(None),
            editor: None,
            pager: None,
            search_index: search::Index::new(),
            clock: crate::engine::isotime::now,
            usage,
            tree_sort: TreeSort::Name,
            file_cursor: 0,
            // The tree's markers and the view show warnings and up until
            // the user asks for info (`f`).
            diag: DiagnosticsView { all: false, min: Severity::Warning, cursor: 0 },
            notice: None,
            banner: None,
            folder: None,
            watch_note: None,
            hermes: None,
            theme,
            layout: LayoutState::default(),
            jobs: JobState::default(),
            cache: HashMap::new(),
            scan: None,
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
        } else if self.help.open || self.view_search.typing || self.search.typing {
            Mode::Prompt
        } else {
            Mode::Normal
        }
    }

    /// The tree's rows, or while a query is active the ranked matches as a
    /// flat list (no folder rows).
    pub(super) fn refresh_rows(&mut self) {
        match &self.search.matches {
            // A search's rows are rewritten on each typed character: in the
            // same allocation (tens of thousands of rows, no fresh pages).
            Some(ranked) => {
                self.rows.clear();
                let node_rows = ranked.iter().filter_map(|&s| self.tree.skill_node(s));
                self.rows.extend(node_rows.map(|node| Row {
                    node,
                    depth: 0,
                    expanded: false,
                    has_children: false,
                    count: 1,
                }));
            }
            None => self.rows = self.tree.rows(),
        }
        self.cursor = self.cursor.min(self.rows.len().saturating_sub(1));
    }

    pub(super) fn select_first_skill(&mut self) {
        if let Some(i) = self.rows.iter().position(|r| self.tree.nodes[r.node].skill.is_some()) {
            self.cursor = i;
        }
    }

    pub fn selected_row(&self) -> Option<&Row> {
        self.rows.get(self.cursor)
    }

    pub fn selected_key(&self) -> Option<NodeKey> {
        self.selected_row().map(|r| self.tree.nodes[r.node].key.clone())
    }

    /// The catalog index of the selected skill.
    pub fn selected_skill(&self) -> Option<usize> {
        self.selected_row().and_then(|r| self.tree.nodes[r.node].skill)
    }

    /// The selected archived skill, as an index in [`UsageOverview::archived`].
    pub fn selected_archived(&self) -> Option<usize> {
        self.selected_row().and_then(|r| self.tree.nodes[r.node].archived)
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
        let mode = self.mode();
        if mode == Mode::CopyMenu {
            return self.copy_menu_key(key);
        }
        if let Some(action) = self.keymap.lookup(mode, key) {
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
                let row = usize::from(m.row.saturating_sub(self.layout.tree.y + 1)) + self.tree_offset;
                if row < self.rows.len() {
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
        self.cursor = row.min(self.rows.len().saturating_sub(1));
        if self.selected_key() != before {
            self.view_scroll = 0;
            self.h_scroll = 0;
            self.file_cursor = 0;
            if !self.diag.all {
                self.diag.cursor = 0;
            }
        }
    }

    pub(super) fn move_cursor(&mut self, delta: isize) {
        if self.rows.is_empty() {
            return;
        }
        let target = (self.cursor as isize + delta).clamp(0, self.rows.len() as isize - 1) as usize;
        self.select(target);
    }

    fn page(&self) -> isize {
        self.layout.view_height.max(2) as isize - 1
    }

    pub(super) fn scroll_view(&mut self, delta: isize) {
        self.view_scroll = (self.view_scroll as isize + delta).max(0) as usize;
        self.clamp_view_scroll();
    }

    pub(super) fn scroll_sideways(&mut self, delta: isize) {
        let room = self.layout.view_max_width.saturating_sub(usize::from(self.layout.view_width));
        self.h_scroll = (self.h_scroll as isize + delta).clamp(0, room as isize) as usize;
    }

    /// Keeps the view's scroll inside its content (after a resize, a rescan).
    pub fn clamp_view_scroll(&mut self) {
        let width = self.layout.view.width.saturating_sub(2);
        let key = self.cache_key(width);
        if let Some(view) = self.cache.get(&key) {
            let max = view.lines.len().saturating_sub(usize::from(self.layout.view_height.max(1)));
            self.view_scroll = self.view_scroll.min(max);
        }
    }

    pub fn cache_key(&self, width: u16) -> CacheKey {
        (
            self.generation,
            self.selected_key(),
            self.view,
            width,
            self.raw,
            self.file_cursor,
            (self.diag.all, self.diag.min, self.diag.cursor),
        )
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
            Action::Top if view_focus => self.view_scroll = 0,
            Action::Bottom if view_focus => self.scroll_view(isize::MAX / 2),
            Action::Top => self.select(0),
            Action::Bottom => self.select(self.rows.len().saturating_sub(1)),
            Action::Collapse if view_focus && self.h_scroll > 0 => self.scroll_sideways(-8),
            Action::Collapse if view_focus => self.focus = Focus::Tree,
            Action::Expand if view_focus => self.scroll_sideways(8),
            Action::Collapse => self.collapse(),
            Action::Expand => self.expand(),
            Action::Activate if view_focus && self.view == ViewTab::Diagnostics => self.jump_to_finding(),
            Action::Activate => match self.selected_row().cloned() {
                Some(r) if r.has_children => {
                    let expanded = self.tree.is_expanded(r.node);
                    self.tree.set_expanded(r.node, !expanded);
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
                } else if self.search.matches.is_some() && !self.rows.is_empty() {
                    let n = self.rows.len() as isize;
                    self.select(((self.cursor as isize + step) % n + n) as usize % n as usize);
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
            Action::NextView => self.show(ViewTab::ALL[(self.view.index() + 1) % ViewTab::ALL.len()]),
            Action::PrevView => {
                self.show(ViewTab::ALL[(self.view.index() + ViewTab::ALL.len() - 1) % ViewTab::ALL.len()])
            }
            Action::SystemPrompt => self.show(ViewTab::Prompt),
            Action::CycleSort => self.cycle_sort(),
            Action::ToggleRaw => {
                self.raw = !self.raw;
                self.view_scroll = 0;
                self.h_scroll = 0;
            }
            Action::OpenEditor => match self.editor_target() {
                Some(Ok(effect)) => effects.push(effect),
                Some(Err(denied)) => self.notice = Some(format!("Not editable: {denied}")),
                None => {}
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
                }
            }
            Action::Pager => effects.push(Effect::Pager { text: self.view_text() }),
            Action::Rescan => effects.push(Effect::Rescan),
            Action::DiagnosticsScope => {
                self.show(ViewTab::Diagnostics);
                self.diag.all = !self.diag.all;
                self.diag.cursor = 0;
            }
            Action::DiagnosticsSeverity => {
                self.show(ViewTab::Diagnostics);
                self.diag.min = match self.diag.min {
                    Severity::Info => Severity::Warning,
                    Severity::Warning => Severity::Error,
                    Severity::Error => Severity::Info,
                };
                self.diag.cursor = 0;
            }
        }
        effects.extend(self.wanted_jobs());
        effects
    }

    pub(super) fn show(&mut self, tab: ViewTab) {
        if self.view != tab {
            self.view = tab;
            self.view_scroll = 0;
            self.h_scroll = 0;
        }
    }

    /// j/k in the view: moves the file cursor in Files, else scrolls.
    fn view_down(&mut self, delta: isize) {
        if self.view == ViewTab::Diagnostics {
            let count = self.visible_findings().len();
            if count > 0 {
                self.diag.cursor = (self.diag.cursor as isize + delta).clamp(0, count as isize - 1) as usize;
            }
            return;
        }
        if self.view == ViewTab::Files {
            let count = self.selected_skill().map_or(0, |s| super::views::file_entries(self.skill(s)).len());
            if count > 0 {
                self.file_cursor = (self.file_cursor as isize + delta).clamp(0, count as isize - 1) as usize;
                self.view_scroll = 0;
            }
        } else {
            self.scroll_view(delta);
        }
    }

    fn collapse(&mut self) {
        let Some(row) = self.selected_row().cloned() else { return };
        if row.has_children && row.expanded {
            self.tree.set_expanded(row.node, false);
            self.refresh_rows();
        } else if let Some(parent) = self.tree.parent(row.node) {
            if let Some(i) = self.rows.iter().position(|r| r.node == parent) {
                self.select(i);
            }
        }
    }

    fn expand(&mut self) {
        let Some(row) = self.selected_row().cloned() else { return };
        if row.has_children && !row.expanded {
            self.tree.set_expanded(row.node, true);
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
        match self.rows.iter().position(|r| &self.tree.nodes[r.node].key == key) {
            Some(i) => {
                self.cursor = i;
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
        self.cache.clear();
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
            .filter(|f| f.severity >= self.diag.min)
            .filter(|f| self.diag.all || (selected.is_some() && f.skill == selected))
            .collect();
        out.sort_by(|a, b| (b.severity, &a.rel_path, a.line).cmp(&(a.severity, &b.rel_path, b.line)));
        out
    }

    /// What `e` opens, or why it may not be edited.
    fn editor_target(&self) -> Option<Result<Effect, String>> {
        if self.view == ViewTab::Diagnostics {
            let f = self.visible_findings().get(self.diag.cursor).copied()?;
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
        if self.view == ViewTab::Files && self.focus == Focus::View {
            let files = super::views::file_entries(skill);
            if let Some(entry) = files.get(self.file_cursor) {
                return Some(Ok(Effect::OpenEditor { path: skill.skill_dir.join(&entry.rel), line: 1 }));
            }
        }
        Some(Ok(Effect::OpenEditor { path: skill.skill_md.clone(), line: skill.body_line }))
    }

    /// Why this session may not edit a skill, when layers say so.
    fn edit_denied(&self, skill: &CatalogSkill) -> Option<String> {
        let layers = self.layers.as_ref()?;
        let source = self.source_of(skill)?;
        can_edit(source, layers.org_id.as_deref()).err()
    }

    /// Replaces the catalog after a rescan, keeping selection and scroll.
    pub fn rescan(&mut self, engine: Engine) {
        if self.scan.is_some() {
            // The first scan's answer is on its way.
            return;
        }
        let key = self.selected_key();
        let scroll = self.view_scroll;
        let catalog = load_catalog(&engine, self.layers.as_ref());
        self.engine = Arc::new(engine);
        self.catalog = catalog;
        self.usage = self.engine.usage_overview();
        self.catalog_changed(key.as_ref(), scroll, true);
    }

    /// Reads the check's settings (`skillscope.toml`) for the folder shown,
    /// as `check` finds them; a file that cannot be used is said in the
    /// Diagnostics view, and the defaults apply.
    pub fn load_check_settings(&mut self) {
        let start = self.folder.clone().unwrap_or_else(|| self.engine.home.root.clone());
        let found = crate::engine::check::settings::discover(&start);
        let settings = match found.as_deref().map(crate::engine::check::settings::load) {
            None => Ok(crate::engine::check::settings::Settings::default()),
            Some(loaded) => loaded,
        };
        let before = self.check_settings.clone();
        match settings {
            Ok(settings) => {
                let check = &settings.check;
                let policy = crate::engine::check::Policy {
                    select: check.select.clone().unwrap_or_default(),
                    ignore: check.ignore.clone().unwrap_or_default(),
                    severity: check.severity.clone(),
                    per_path_ignores: check.per_path_ignores.clone(),
                    base: settings.base().map(std::path::Path::to_path_buf),
                    min: Severity::Info,
                };
                if let Some(min) = check.min_severity {
                    self.diag.min = min;
                }
                self.check_policy = super::jobs::SharedPolicy(Arc::new(policy));
                self.check_settings = Ok(settings.path);
            }
            Err(e) => {
                self.check_policy = super::jobs::SharedPolicy::default();
                self.check_settings = Err(e.to_string());
            }
        }
        if before != self.check_settings {
            self.jobs.diagnostics = None;
            self.jobs.requested.retain(|_, (_, kind)| !matches!(kind, JobKind::Diagnostics(..)));
            self.cache.clear();
        }
    }

    /// Walks and reads the home again with the app's current settings.
    pub fn rescan_home(&mut self) {
        self.load_check_settings();
        let e = &self.engine;
        let fresh = Engine::new(e.home.root.clone(), e.env.clone(), e.options.clone());
        self.rescan(fresh);
    }

    /// Applies the changes the watcher reported with the least work that
    /// gives the answer of a full rescan ([`reload::plan`]). False when
    /// nothing shown depends on them.
    pub fn reload(&mut self, pending: &Pending) -> bool {
        if self.scan.is_some() {
            return false;
        }
        let plan = if self.layers.is_some() {
            ReloadPlan::Full
        } else {
            reload::plan(pending, &self.catalog, &self.engine.home, &self.engine.env)
        };
        match plan {
            ReloadPlan::Nothing => return false,
            ReloadPlan::Full => self.rescan_home(),
            ReloadPlan::Answers { usage } => {
                self.answers_changed();
                if usage {
                    self.usage_changed();
                }
            }
            ReloadPlan::Usage => self.usage_changed(),
            ReloadPlan::Part { skills, bundles } => {
                let key = self.selected_key();
                let scroll = self.view_scroll;
                let skills: Vec<usize> = skills.into_iter().collect();
                let names = |c: &Catalog| -> Vec<String> { skills.iter().map(|&i| c.skills[i].name.clone()).collect() };
                let before = names(&self.catalog);
                self.engine.refresh_skills(&mut self.catalog, &skills);
                if bundles {
                    self.engine.refresh_bundles(&mut self.catalog);
                }
                // The tree shows names, sorted: it stays unless one changed.
                let rebuild = names(&self.catalog) != before;
                self.catalog_changed(key.as_ref(), scroll, rebuild);
            }
        }
        true
    }

    /// Whether the search index still has work: the event loop then calls
    /// [`App::index_search`] whenever no event is waiting.
    pub fn search_index_pending(&self) -> bool {
        !self.search_index.is_ready()
    }

    /// One step of the search index (a few milliseconds at most).
    pub fn index_search(&mut self) {
        self.search_index.advance(&self.catalog, search::INDEX_STEP);
    }

    /// After a new catalog: the tree, the search and the selection follow it.
    /// The usage records are the caller's to read again: a save inside a
    /// skill folder leaves them as they were.
    fn catalog_changed(&mut self, key: Option<&NodeKey>, scroll: usize, rebuild_tree: bool) {
        if rebuild_tree {
            self.rebuild_tree();
        }
        self.search_index = search::Index::new();
        self.answers_changed();
        let query = self.search.query().trim().to_owned();
        self.search.matches = if query.is_empty() { None } else { Some(self.rank(&query)) };
        self.refresh_rows();
        if !self.restore_selection(key) {
            self.select_first_skill();
        } else {
            self.view_scroll = scroll;
        }
    }

    /// The tree again from the catalog and usage records, folders kept open
    /// or closed as they were.
    fn rebuild_tree(&mut self) {
        let mut tree = Tree::build(&self.catalog, &self.usage, self.tree_sort);
        tree.keep_expansion_of(&self.tree);
        self.tree = tree;
    }

    /// The usage records, hub lock, curator state or archive changed:
    /// markers, sort and the Lifecycle view follow.
    fn usage_changed(&mut self) {
        let key = self.selected_key();
        let usage = self.engine.usage_overview();
        // Markers are drawn from the records; the rows change only with the
        // order or the archive.
        let rows_change = self.tree_sort != TreeSort::Name || usage.archived != self.usage.archived;
        self.usage = usage;
        if rows_change {
            self.rebuild_tree();
        }
        // The Lifecycle view's answer is asked for again (one in flight is
        // dropped when it comes).
        self.jobs.lifecycle = None;
        self.jobs.requested.retain(|_, (_, kind)| !matches!(kind, JobKind::Lifecycle { .. }));
        self.cache.clear();
        self.refresh_rows();
        if !self.restore_selection(key.as_ref()) {
            self.select_first_skill();
        }
    }

    /// `s`: the next order of skills in the tree, the selection kept.
    fn cycle_sort(&mut self) {
        let key = self.selected_key();
        self.tree_sort = self.tree_sort.next();
        self.rebuild_tree();
        self.refresh_rows();
        self.restore_selection(key.as_ref());
        self.notice = Some(match self.search.matches {
            Some(_) => format!("skills sorted by {} once the search is cleared", self.tree_sort.label()),
            None => format!("skills sorted by {}", self.tree_sort.label()),
        });
    }

    /// Every rendered view and job answer is stale.
    fn answers_changed(&mut self) {
        self.generation += 1;
        self.cache.clear();
        self.jobs = JobState { next_id: self.jobs.next_id, ..JobState::default() };
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
            effects.extend(self.request(JobKind::Diagnostics(self.layers.clone(), self.check_policy.clone())));
        }
        effects.extend(self.view_job());
        effects
    }

    fn request(&mut self, kind: JobKind) -> Option<Effect> {
        let slot = std::mem::discriminant(&kind);
        if self.jobs.requested.get(&slot).is_some_and(|(_, k)| *k == kind) {
            return None;
        }
        self.jobs.next_id += 1;
        let id = self.jobs.next_id;
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

    fn view_job(&mut self) -> Vec<Effect> {
        let kind = match self.view {
            ViewTab::Agent => self.selected_skill().map(|i| {
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
            }),
            ViewTab::Bundles => Some(JobKind::Bundles),
            ViewTab::Prompt => Some(JobKind::Prompt),
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
            ViewTab::Diagnostics => Some(JobKind::Diagnostics(self.layers.clone(), self.check_policy.clone())),
            _ => None,
        };
        let Some(kind) = kind else { return Vec::new() };
        let have = match &kind {
            JobKind::Agent { .. } => self.jobs.agent.as_ref().is_some_and(|(k, _)| *k == kind),
            JobKind::Bundles => self.jobs.bundles.is_some(),
            JobKind::Prompt => self.jobs.prompt.is_some(),
            JobKind::Lifecycle { .. } => self.jobs.lifecycle.as_ref().is_some_and(|(k, _)| *k == kind),
            JobKind::Diagnostics(..) => self.jobs.diagnostics.is_some(),
        };
        if have {
            return Vec::new();
        }
        self.request(kind).into_iter().collect()
    }

    /// Stores a job's answer if it answers the latest request.
    pub fn apply_job(&mut self, result: JobResult) {
        let slot = std::mem::discriminant(&result.kind);
        if self.jobs.requested.get(&slot).map(|(id, _)| *id) != Some(result.id) {
            return;
        }
        self.jobs.requested.remove(&slot);
        match result.kind {
            JobKind::Agent { .. } => self.jobs.agent = Some((result.kind, result.output)),
            JobKind::Bundles => self.jobs.bundles = Some(result.output),
            JobKind::Prompt => self.jobs.prompt = Some(result.output),
            JobKind::Lifecycle { .. } => self.jobs.lifecycle = Some((result.kind, result.output)),
            JobKind::Diagnostics(..) => {
                if let JobOutput::Diagnostics(findings) = result.output {
                    self.jobs.diagnostics = Some(self.map_findings(findings));
                }
                self.cache.clear();
                return;
            }
        }
        self.cache.retain(|k, _| k.2 != self.view);
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
        self.view == ViewTab::Diagnostics && self.jobs.diagnostics.is_none() && self.jobs.diagnostics_progress.is_some()
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

/// The catalog the browser shows: the home, or its layers for one user.
/// It is lean ([`Catalog::lean`]): the views read the frontmatter of the
/// skill they show.
pub fn load_catalog(engine: &Engine, layers: Option<&Layers>) -> Catalog {
    match layers {
        Some(l) => {
            let db = l.db.as_ref().map(|p| read_db(p, &l.user)).unwrap_or_default();
            engine.lean_layered_catalog(l, &db)
        }
        None => engine.lean_catalog(),
    }
}
