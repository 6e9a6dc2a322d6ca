//! What the view pane shows, made ready before each frame so that drawing
//! only reads: the layout for the terminal's size, the view's lines from
//! the cache, else formatted from what the app holds, else asked of a job
//! (a placeholder line shows meanwhile; the answer is kept by what it
//! shows, [`ViewKey`]). The cache is bounded by bytes, least recently used
//! first out.

use super::app::{App, Effect, ViewTab};
use super::jobs::{JobKind, JobRequest};
use super::tree::NodeKey;
use super::views::{self, FileEntry, SkillSnapshot, ViewAnswer, ViewJob, ViewRequest};
use crate::engine::diagnostics::Severity;
use ratatui::layout::Rect;
use ratatui::text::Line;
use std::collections::HashMap;
use std::sync::Arc;

/// How much rendered text the cache keeps (about a thousand previews of
/// a typical skill); past it the least recently shown go.
pub const CACHE_BYTES: usize = 16 * 1024 * 1024;

/// What a view's lines show: the same key, the same lines.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ViewKey {
    /// [`App`]'s generation: bumped by a rescan or another backend.
    pub generation: u64,
    pub selection: Option<NodeKey>,
    pub tab: ViewTab,
    pub width: u16,
    pub variant: Variant,
}

/// What else a view's lines depend on, per tab.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Variant {
    Plain,
    /// The raw SKILL.md, numbered.
    Raw,
    /// The Files view with its cursor on this file.
    Files {
        cursor: usize,
    },
    /// The folder's files and a first preview (a job's request).
    Entries,
    /// The preview of one file of the folder (by relative path).
    File(String),
    Findings {
        all: bool,
        min: Severity,
        cursor: usize,
    },
}

/// A view's lines as rendered for a width, and the widest of them (lines
/// wider than the view, code, scroll sideways).
#[derive(Debug, Default)]
pub struct Rendered {
    pub lines: Vec<Line<'static>>,
    pub max_width: usize,
    /// Unique to this rendering: a view search follows the text on screen,
    /// whichever key it was cached under.
    pub serial: u64,
    /// About how much memory the lines hold.
    bytes: usize,
}

impl Rendered {
    pub fn new(lines: Vec<Line<'static>>) -> Rendered {
        static SERIAL: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        let max_width = super::view_text::max_width(&lines);
        let serial = SERIAL.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let bytes = std::mem::size_of::<Line>() * lines.capacity()
            + lines
                .iter()
                .flat_map(|l| &l.spans)
                .map(|s| std::mem::size_of::<ratatui::text::Span>() + s.content.len())
                .sum::<usize>();
        Rendered { lines, max_width, serial, bytes }
    }
}

/// Rendered views by key, within a budget of bytes.
#[derive(Debug)]
pub struct RenderCache {
    entries: HashMap<ViewKey, (Arc<Rendered>, u64)>,
    budget: usize,
    used: usize,
    clock: u64,
}

impl RenderCache {
    pub fn new(budget: usize) -> RenderCache {
        RenderCache { entries: HashMap::new(), budget, used: 0, clock: 0 }
    }

    pub fn get(&mut self, key: &ViewKey) -> Option<Arc<Rendered>> {
        self.clock += 1;
        let (rendered, used) = self.entries.get_mut(key)?;
        *used = self.clock;
        Some(rendered.clone())
    }

    /// Keeps `rendered`, then drops the least recently used others until
    /// the cache is within its budget (the newest stays, however big).
    pub fn insert(&mut self, key: ViewKey, rendered: Arc<Rendered>) {
        self.clock += 1;
        self.used += rendered.bytes;
        if let Some((old, _)) = self.entries.insert(key.clone(), (rendered, self.clock)) {
            self.used -= old.bytes;
        }
        while self.used > self.budget && self.entries.len() > 1 {
            let oldest = self.entries.iter().filter(|(k, _)| **k != key).min_by_key(|(_, (_, used))| *used);
            let Some(oldest) = oldest.map(|(k, _)| k.clone()) else { break };
            if let Some((old, _)) = self.entries.remove(&oldest) {
                self.used -= old.bytes;
            }
        }
    }

    pub fn retain(&mut self, keep: impl Fn(&ViewKey) -> bool) {
        let before = self.entries.len();
        self.entries.retain(|k, _| keep(k));
        if self.entries.len() != before {
            self.used = self.entries.values().map(|(r, _)| r.bytes).sum();
        }
    }

    pub fn clear(&mut self) {
        self.entries.clear();
        self.used = 0;
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The bytes held, as [`Rendered`] counts them.
    pub fn bytes(&self) -> usize {
        self.used
    }
}

/// The view's lines between frames, and the jobs building others.
#[derive(Debug)]
pub(super) struct RenderState {
    pub(super) cache: RenderCache,
    /// What the view pane shows (set before a frame, read by the draw).
    pub(super) shown: Option<Shown>,
    /// Requests whose lines are being built, by what they show.
    in_flight: HashMap<ViewKey, u64>,
    /// Bumped when an answer arrives: a view shown before its lines were
    /// all there is put together again.
    epoch: u64,
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
    complete: bool,
    epoch: u64,
}

/// The files of the selected skill's folder.
#[derive(Debug, Clone)]
pub(super) struct FilesState {
    pub(super) selection: Option<NodeKey>,
    pub(super) entries: Arc<Vec<FileEntry>>,
}

/// How the view's lines come.
enum Plan {
    /// Formatted now from what the app holds.
    Lines(Vec<Line<'static>>),
    /// Built by a job.
    Job(ViewRequest),
    /// The Files view of this skill (catalog index): its list now, the
    /// file preview from a job.
    Files(usize),
}

impl RenderState {
    /// Drops every rendering (a rescan, a new backend, highlighting ready).
    pub(super) fn clear(&mut self) {
        self.cache.clear();
        self.shown = None;
        self.epoch += 1;
    }

    /// Drops one tab's renderings (its job answered).
    pub(super) fn forget_tab(&mut self, tab: ViewTab) {
        self.cache.retain(|k| k.tab != tab);
        if self.shown.as_ref().is_some_and(|s| s.key.tab == tab) {
            self.shown = None;
        }
    }

    /// After a rescan: the jobs under way answer for an older generation.
    pub(super) fn reset(&mut self) {
        // Thousands of lines: freed off the UI thread.
        super::rescan::drop_elsewhere(std::mem::replace(&mut self.cache, RenderCache::new(CACHE_BYTES)));
        self.clear();
        self.in_flight.clear();
        self.files = None;
    }
}

impl App {
    /// Gets the next frame ready for a terminal of `area`: the layout (for
    /// the mouse and paging too), the tree's scroll, the view's lines and
    /// its search hits. Returns the jobs to start for lines not built yet.
    pub fn prepare(&mut self, area: Rect) -> Vec<Effect> {
        let areas = super::ui::areas(self, area);
        self.layout.tree = areas.tree;
        self.layout.view = areas.view;
        self.layout.view_lines = 0;
        self.keep_cursor_visible(areas.tree);
        self.clamp_help(area);
        let view = areas.view;
        if view.width < 3 || view.height < 3 {
            return Vec::new();
        }
        self.layout.tabs = super::ui::tab_positions(self, view.x, view.width);
        let inner_height = view.height - 2;
        let width = (view.width - 2).saturating_sub(1).max(1);
        self.layout.view_height = inner_height;
        self.layout.view_width = width;
        if self.scan.is_some() {
            return Vec::new();
        }
        let effects = self.show_view(width);
        let Some(shown) = &self.render.shown else { return effects };
        let rendered = shown.rendered.clone();
        self.layout.view_lines = rendered.lines.len();
        self.layout.view_max_width = rendered.max_width;
        self.update_view_hits(&rendered);
        let max_scroll = rendered.lines.len().saturating_sub(usize::from(inner_height));
        self.view.scroll = self.view.scroll.min(max_scroll);
        effects
    }

    /// The lines the view pane shows, once [`App::prepare`] made them ready.
    pub fn shown(&self) -> Option<&Rendered> {
        self.render.shown.as_ref().map(|s| &*s.rendered)
    }

    /// Drops every rendered view (they are built again when shown).
    pub fn forget_rendered(&mut self) {
        self.render.clear();
    }

    /// The bytes the rendered views hold.
    pub fn rendered_bytes(&self) -> usize {
        self.render.cache.bytes()
    }

    /// The tree scrolls to keep the cursor's row in view.
    fn keep_cursor_visible(&mut self, tree: Rect) {
        if tree.width < 3 || tree.height < 3 || self.scan.is_some() {
            return;
        }
        let height = usize::from(tree.height - 2);
        let nav = &mut self.nav;
        if nav.cursor < nav.offset {
            nav.offset = nav.cursor;
        } else if height > 0 && nav.cursor >= nav.offset + height {
            nav.offset = nav.cursor + 1 - height;
        }
    }

    fn clamp_help(&mut self, area: Rect) {
        if !self.help.open {
            return;
        }
        if let Some((lines, height)) = super::ui::help_rows(self, area) {
            self.help.scroll = self.help.scroll.min(lines.len().saturating_sub(height));
        }
    }

    pub(super) fn view_key(&self, width: u16) -> ViewKey {
        let variant = match self.view.tab {
            ViewTab::Preview if self.view.raw => Variant::Raw,
            ViewTab::Files => Variant::Files { cursor: self.view.file_cursor },
            ViewTab::Diagnostics => {
                Variant::Findings { all: self.view.diag.all, min: self.view.diag.min, cursor: self.view.diag.cursor }
            }
            _ => Variant::Plain,
        };
        ViewKey { generation: self.generation, selection: self.selected_key(), tab: self.view.tab, width, variant }
    }

    /// Makes the view's lines ready for the draw: from the cache, formatted
    /// now, or a placeholder while a job builds them.
    fn show_view(&mut self, width: u16) -> Vec<Effect> {
        let key = self.view_key(width);
        let epoch = self.render.epoch;
        if self.render.shown.as_ref().is_some_and(|s| s.key == key && (s.complete || s.epoch == epoch)) {
            return Vec::new();
        }
        if let Some(rendered) = self.render.cache.get(&key) {
            self.render.shown = Some(Shown { key, rendered, complete: true, epoch });
            return Vec::new();
        }
        let mut effects = Vec::new();
        let (lines, complete) = match self.view_plan() {
            Plan::Lines(lines) => (lines, true),
            Plan::Job(request) => {
                effects.extend(self.request_view(key.clone(), request, width));
                (views::placeholder(&self.theme), false)
            }
            Plan::Files(i) => self.files_view(&key, i, width, &mut effects),
        };
        let rendered = Arc::new(Rendered::new(lines));
        if complete {
            self.render.cache.insert(key.clone(), rendered.clone());
        }
        self.render.shown = Some(Shown { key, rendered, complete, epoch });
        effects
    }

    fn view_plan(&self) -> Plan {
        let width = self.layout.view_width.max(1);
        let theme = &self.theme;
        match self.view.tab {
            ViewTab::Prompt => return Plan::Lines(views::prompt(self, width)),
            ViewTab::Bundles => return Plan::Lines(views::bundles(self, width)),
            ViewTab::Diagnostics => return Plan::Lines(views::diagnostics(self, width)),
            _ => {}
        }
        if let Some(a) = self.selected_archived() {
            let archived = Box::new(self.usage.archived[a].clone());
            return Plan::Job(ViewRequest::Archived { archived, now: (self.clock)() });
        }
        let node = self.selected_row().map(|r| &self.nav.tree.nodes[r.node]);
        if node.is_some_and(|n| n.key == NodeKey::Archive) {
            return Plan::Lines(views::archive_summary(self, width));
        }
        if let Some(u) = node.and_then(|n| n.unreadable) {
            return Plan::Lines(views::unreadable_folder(self, u, width));
        }
        let Some(i) = self.selected_skill() else {
            return Plan::Lines(views::folder_summary(self, width));
        };
        let skill = self.skill(i);
        if let Some(err) = &skill.read_error {
            return Plan::Lines(views::read_error(err, theme));
        }
        let snapshot = || Box::new(SkillSnapshot::of(self, i));
        match self.view.tab {
            ViewTab::Preview => Plan::Job(ViewRequest::Preview { skill: snapshot(), raw: self.view.raw }),
            ViewTab::Files if skill.db_row.is_some() => Plan::Lines(views::no_folder(theme)),
            ViewTab::Files => Plan::Files(i),
            ViewTab::Readiness => Plan::Job(ViewRequest::Readiness { skill: snapshot() }),
            ViewTab::Agent => Plan::Lines(views::agent(self, skill, width)),
            ViewTab::Lifecycle => Plan::Lines(views::wrap_prose(views::lifecycle(self, skill, width), width)),
            ViewTab::Bundles | ViewTab::Prompt | ViewTab::Diagnostics => Plan::Lines(Vec::new()),
        }
    }

    /// The Files view: its list from the folder's files (asked of a job
    /// once per selection), the selected file's preview from another.
    fn files_view(
        &mut self,
        key: &ViewKey,
        skill: usize,
        width: u16,
        effects: &mut Vec<Effect>,
    ) -> (Vec<Line<'static>>, bool) {
        let theme = self.theme;
        let entries = match &self.render.files {
            Some(f) if f.selection == key.selection => f.entries.clone(),
            _ => {
                let request = ViewRequest::Files {
                    skill: Box::new(SkillSnapshot::of(self, skill)),
                    select: self.view.file_wanted.clone(),
                };
                let entries_key = ViewKey { variant: Variant::Entries, ..key.clone() };
                effects.extend(self.request_view(entries_key, request, width));
                return (views::placeholder(&theme), false);
            }
        };
        let cursor = self.view.file_cursor.min(entries.len().saturating_sub(1));
        let preview = match entries.get(cursor) {
            None => None,
            Some(entry) => {
                let file_key = ViewKey { variant: Variant::File(entry.rel.clone()), ..key.clone() };
                let cached = self.render.cache.get(&file_key);
                if cached.is_none() {
                    let dir = self.skill(skill).skill_dir.clone();
                    let request = ViewRequest::File { dir, entry: entry.clone() };
                    effects.extend(self.request_view(file_key, request, width));
                }
                Some(cached)
            }
        };
        let complete = !matches!(preview, Some(None));
        let preview = preview.flatten();
        let backend = self.engine.options.backend;
        (views::files(&entries, cursor, preview.as_ref().map(|r| &r.lines[..]), backend, &theme), complete)
    }

    fn request_view(&mut self, key: ViewKey, request: ViewRequest, width: u16) -> Option<Effect> {
        if self.render.in_flight.contains_key(&key) {
            return None;
        }
        let id = self.jobs.next_id();
        self.render.in_flight.insert(key.clone(), id);
        let job = ViewJob { key, request, theme: self.theme, width };
        Some(Effect::Job(JobRequest { id, kind: JobKind::View(Box::new(job)), progress: Default::default() }))
    }

    /// Keeps a view job's lines (an older generation's are dropped).
    pub(super) fn apply_view(&mut self, id: u64, job: &ViewJob, answer: Option<ViewAnswer>) {
        if self.render.in_flight.get(&job.key) == Some(&id) {
            self.render.in_flight.remove(&job.key);
        }
        self.render.epoch += 1;
        let Some(answer) = answer else { return };
        if job.key.generation != self.generation {
            return;
        }
        let mut key = job.key.clone();
        if let Some((entries, at)) = answer.files {
            if let Some(entry) = entries.get(at) {
                key.variant = Variant::File(entry.rel.clone());
            }
            if key.selection == self.selected_key() {
                self.view.file_cursor = at;
                self.view.file_wanted = None;
            }
            self.render.files = Some(FilesState { selection: key.selection.clone(), entries });
        }
        self.render.cache.insert(key, Arc::new(Rendered::new(answer.lines)));
    }

    /// The files of the selected skill's folder, when the Files view has
    /// listed them.
    pub fn file_entries(&self) -> Option<&[FileEntry]> {
        let files = self.render.files.as_ref()?;
        (files.selection == self.selected_key()).then_some(&files.entries[..])
    }

    /// Recomputes the view search's hits whenever the text on screen or the
    /// query changed: a new view, a rebuilt one (backend, platform, rescan)
    /// or a job's answer arriving.
    fn update_view_hits(&mut self, rendered: &Rendered) {
        let vs = &self.view_search;
        let query = vs.input.text();
        if vs.computed_for.as_ref().is_some_and(|(serial, q)| *serial == rendered.serial && q == query) {
            return;
        }
        let query = query.to_owned();
        let hits = super::view_text::find(&rendered.lines, &query);
        // The same query over new text keeps its place: the current hit where
        // it still is, else the next one after it.
        let kept = match &vs.computed_for {
            Some((_, q)) if *q == query => vs.hits.get(vs.current).copied(),
            _ => None,
        };
        let current = match kept {
            Some(was) => hits
                .iter()
                .position(|h| (h.line, h.start) >= (was.line, was.start))
                .unwrap_or(hits.len().saturating_sub(1)),
            // Else the first hit at or below the top of the screen.
            None => hits.iter().position(|h| h.line >= self.view.scroll).unwrap_or(0),
        };
        let vs = &mut self.view_search;
        vs.current = current;
        vs.hits = hits;
        vs.computed_for = Some((rendered.serial, query));
        // A query typed while the view is still being computed is revealed
        // when the text with its hits arrives.
        if !vs.hits.is_empty() && std::mem::take(&mut vs.reveal) {
            self.reveal_hit();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(n: u16) -> ViewKey {
        ViewKey { generation: 1, selection: None, tab: ViewTab::Preview, width: n, variant: Variant::Plain }
    }

    #[test]
    fn the_cache_keeps_to_its_budget_dropping_the_least_recently_used() {
        let lines = || Arc::new(Rendered::new((0..100).map(|i| Line::from(format!("line {i} of text"))).collect()));
        let one = lines().bytes;
        let mut cache = RenderCache::new(one * 3);
        for n in 0..3 {
            cache.insert(key(n), lines());
        }
        assert!(cache.get(&key(0)).is_some(), "used again: now the most recent");
        cache.insert(key(3), lines());
        assert_eq!(cache.len(), 3);
        assert!(cache.get(&key(1)).is_none(), "the least recently used went");
        assert!(cache.get(&key(0)).is_some() && cache.get(&key(3)).is_some());
        assert!(cache.bytes() <= one * 3);
        let big = Arc::new(Rendered::new((0..1000).map(|i| Line::from(format!("line {i}"))).collect()));
        cache.insert(key(9), big);
        assert_eq!(cache.len(), 1, "the newest stays, however big");
        cache.retain(|_| false);
        assert_eq!((cache.len(), cache.bytes()), (0, 0));
    }
}
