//! The browser's state, grouped by pane and by what keeps it: the tree,
//! the view, the searches, the layout of the last frame, the user's
//! settings, the jobs' answers, the rendered views and the rescan. [`App`]
//! holds one of each; the modules that act on them read and write them.
//!
//! [`App`]: super::app::App

use super::cache::{RenderCache, Rendered, ViewKey, CACHE_BYTES};
use super::jobs::{JobKind, JobOutput, SharedPolicy};
use super::keymap::Keymap;
use super::line_edit::LineEdit;
use super::tab::ViewTab;
use super::tree::{NodeKey, Row, Tree, TreeSort};
use super::view_jobs::FileEntry;
use super::view_text::Hit;
use crate::engine::diagnostics::{Finding, Severity};
use ratatui::layout::Rect;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

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
    /// What the tree had selected when the search began: selected again
    /// when the search ends with nothing selected (no match).
    pub(super) selected_before: Option<NodeKey>,
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
    /// What the hits were computed for: ([`super::cache::Rendered::serial`], query).
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

/// Where things are drawn this frame, for mouse hit-testing and paging
/// (written before the frame by [`App::prepare`](super::app::App::prepare), from the terminal's size).
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
    /// Lines of the view's content, and the widest, this frame.
    pub view_lines: usize,
    pub view_max_width: usize,
    /// Rows of the help overlay's text (its page), while it is open.
    pub help_height: usize,
}

/// Answers from background jobs, with the request they answer.
#[derive(Debug, Default)]
pub(super) struct JobState {
    pub(super) next_id: u64,
    pub(super) requested: HashMap<std::mem::Discriminant<JobKind>, (u64, JobKind)>,
    pub(super) agent: Option<(JobKind, JobOutput)>,
    pub(super) bundles: Option<JobOutput>,
    pub(super) prompt: Option<JobOutput>,
    pub(super) lifecycle: Option<(JobKind, JobOutput)>,
    /// Findings by skill (catalog index), and those about no skill.
    pub(super) diagnostics: Option<Diagnostics>,
    /// How far the running check has got.
    pub(super) diagnostics_progress: Option<Arc<crate::engine::check::Progress>>,
}

impl JobState {
    /// A fresh request id (ids count on across resets).
    pub(super) fn next_id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    /// Goes on counting where `older` left off (answers to its requests
    /// are then never taken for this one's).
    pub(super) fn next_id_from(&mut self, older: &JobState) {
        self.next_id = older.next_id;
    }
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

/// The tree pane: the tree, its rows on screen, the cursor and the scroll.
#[derive(Debug, Default)]
pub(super) struct Nav {
    pub(super) tree: Tree,
    pub(super) rows: Vec<Row>,
    pub(super) cursor: usize,
    /// The first row on screen.
    pub(super) offset: usize,
    /// How the tree orders the skills in each folder.
    pub(super) sort: TreeSort,
}

/// The view pane: which view, how far it is scrolled, and its cursors.
#[derive(Debug)]
pub(super) struct ViewState {
    pub(super) tab: ViewTab,
    pub(super) scroll: usize,
    /// Columns scrolled away from lines wider than the view (code).
    pub(super) h_scroll: usize,
    pub(super) raw: bool,
    /// The System prompt view shows the focus posture's index.
    pub(super) focus_posture: bool,
    pub(super) file_cursor: usize,
    /// The file to put the cursor on when the folder's files arrive (a
    /// finding's file).
    pub(super) file_wanted: Option<String>,
    pub(super) diag: DiagnosticsView,
    /// The Preview and Agent views show the diff against `--since` (`d`).
    pub(super) since_diff: bool,
}

/// What the user set: the config file's entries and the check's settings.
#[derive(Debug)]
pub(super) struct Prefs {
    pub(super) keymap: Keymap,
    /// The editor command from the config file, over $VISUAL/$EDITOR.
    pub(super) editor: Option<String>,
    /// The pager command from the config file, over $PAGER.
    pub(super) pager: Option<String>,
    /// Set when the config file could not be used: shown in the status line.
    pub(super) config_note: Option<String>,
    /// Every problem of the config file, listed in the help.
    pub(super) config_problems: Vec<String>,
    /// What the Diagnostics view and the tree's markers report: the
    /// repository's `skillscope.toml`, as `check` reads it.
    pub(super) check_policy: SharedPolicy,
    /// The settings file read for it, or why it could not be used.
    pub(super) check_settings: Result<Option<PathBuf>, String>,
}

impl Default for Prefs {
    fn default() -> Prefs {
        Prefs {
            keymap: Keymap::default(),
            editor: None,
            pager: None,
            config_note: None,
            config_problems: Vec::new(),
            check_policy: SharedPolicy::default(),
            check_settings: Ok(None),
        }
    }
}

/// The view's lines between frames, and the jobs building others.
#[derive(Debug)]
pub(super) struct RenderState {
    pub(super) cache: RenderCache,
    /// What the view pane shows (set before a frame, read by the draw).
    pub(super) shown: Option<Shown>,
    /// Requests whose lines are being built, by what they show.
    pub(super) in_flight: HashMap<ViewKey, u64>,
    /// Bumped when an answer arrives: a view shown before its lines were
    /// all there is put together again.
    pub(super) epoch: u64,
    /// The Files view's files, walked once per selection.
    pub(super) files: Option<FilesState>,
}

impl Default for RenderState {
    fn default() -> RenderState {
        RenderState {
            cache: RenderCache::new(CACHE_BYTES),
            shown: None,
            in_flight: HashMap::new(),
            epoch: 0,
            files: None,
        }
    }
}

#[derive(Debug)]
pub(super) struct Shown {
    pub(super) key: ViewKey,
    pub(super) rendered: Arc<Rendered>,
    /// False while a part is still being built (a placeholder shows).
    pub(super) complete: bool,
    pub(super) epoch: u64,
}

/// The files of the selected skill's folder.
#[derive(Debug, Clone)]
pub(super) struct FilesState {
    pub(super) selection: Option<NodeKey>,
    pub(super) entries: Arc<Vec<FileEntry>>,
}

impl RenderState {
    /// Drops every rendering (a rescan, a new backend, highlighting ready),
    /// those being built too: their lines, made before, are not kept.
    pub(super) fn clear(&mut self) {
        self.cache.clear();
        self.in_flight.clear();
        self.shown = None;
        self.epoch += 1;
    }

    /// Drops one tab's renderings (its job answered), those being built too.
    pub(super) fn forget_tab(&mut self, tab: ViewTab) {
        self.cache.retain(|k| k.tab != tab);
        self.in_flight.retain(|k, _| k.tab != tab);
        if self.shown.as_ref().is_some_and(|s| s.key.tab == tab) {
            self.shown = None;
        }
    }

    /// After a rescan: the jobs under way answer for an older generation.
    pub(super) fn reset(&mut self) {
        // Thousands of lines: freed off the UI thread.
        super::cache::drop_elsewhere(std::mem::replace(&mut self.cache, RenderCache::new(CACHE_BYTES)));
        self.clear();
        self.in_flight.clear();
        self.files = None;
    }
}

/// Whether a rescan runs, and whether another was asked for meanwhile.
#[derive(Debug, Default)]
pub(super) struct RescanState {
    pub(super) next_id: u64,
    pub(super) running: Option<u64>,
    /// Asked for while one ran: that one's answer may be out of date.
    pub(super) again: bool,
    /// The user asked for one (`r`): its end is said, even when nothing
    /// on screen changes.
    pub(super) asked: bool,
}

/// The revision compared against, and the latest comparison.
#[derive(Debug, Clone)]
pub struct SinceState {
    pub rev: String,
    /// Off: no marks, no job (`D` turns it back on).
    pub on: bool,
    /// The latest answer, kept until the next one replaces it.
    pub answer: Option<Result<std::sync::Arc<crate::compare::SinceAnswer>, String>>,
    /// The catalog generation the answer (or the job in flight) is for.
    pub asked_for: u64,
}

impl SinceState {
    pub fn new(rev: String) -> SinceState {
        SinceState { rev, on: true, answer: None, asked_for: 0 }
    }
}

/// How the browser's database layer stands.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum DbLink {
    /// No answer yet: the db root says "connecting…".
    #[default]
    Connecting,
    /// The rows shown are the last read.
    Live,
    /// The database answered with a problem (no table, a bad value): no rows.
    Unavailable,
    /// The server went away: the rows read last stay on screen, marked
    /// stale since this time, until it is back.
    Stale { since: String, error: String },
}

/// The database rows the catalog is built with, and how they stand.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DbFeed {
    pub link: DbLink,
    pub rows: Arc<crate::engine::layers::DbRead>,
}
