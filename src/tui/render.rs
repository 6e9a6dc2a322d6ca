//! What the view pane shows, made ready before each frame so that drawing
//! only reads: the layout for the terminal's size, the view's lines from
//! the cache, else formatted from what the app holds, else asked of a job
//! (a placeholder line shows meanwhile; the answer is kept by what it
//! shows, [`ViewKey`]). The cache is bounded by bytes, least recently used
//! first out.

use super::app::{App, Effect, ViewTab};
use super::cache::{Rendered, Variant, ViewKey};
use super::jobs::{JobKind, JobRequest};
use super::lines;
use super::state::{FilesState, Shown};
use super::tree::NodeKey;
use super::view_jobs::{self, FileEntry, ViewAnswer, ViewJob, ViewRequest};
use super::views;
use ratatui::layout::Rect;
use ratatui::text::Line;
use std::sync::Arc;

/// How the view's lines come.
enum Plan {
    /// Formatted now from what the app holds.
    Lines(Vec<Line<'static>>),
    /// Built by a job.
    Job(ViewRequest),
    /// Formatted from an answer a job still computes: a placeholder until
    /// it arrives, not kept.
    Waiting,
    /// The Files view of this skill (catalog index): its list now, the
    /// file preview from a job.
    Files(usize),
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
            self.layout.help_height = height;
        }
    }

    pub(super) fn view_key(&self, width: u16) -> ViewKey {
        let diffing = self.view.since_diff && self.since_answer().is_some();
        let variant = match self.view.tab {
            ViewTab::Preview | ViewTab::Agent if diffing => Variant::SinceDiff,
            ViewTab::Preview if self.view.raw => Variant::Raw,
            ViewTab::Files => Variant::Files { cursor: self.view.file_cursor },
            ViewTab::Diagnostics => {
                Variant::Findings { all: self.view.diag.all, min: self.view.diag.min, cursor: self.view.diag.cursor }
            }
            _ if self.selected_row().is_none() && self.search.matches.is_some() => {
                Variant::NoMatch(self.search.query().trim().to_owned())
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
            self.clamp_view_scroll();
            return Vec::new();
        }
        let mut effects = Vec::new();
        let (lines, complete) = match self.view_plan() {
            Plan::Lines(lines) => (lines, true),
            Plan::Job(request) => {
                effects.extend(self.request_view(key.clone(), request, width));
                (lines::placeholder(&self.theme), false)
            }
            Plan::Files(i) => self.files_view(&key, i, width, &mut effects),
            Plan::Waiting => (views::computing(&self.theme), false),
        };
        let rendered = Arc::new(Rendered::new(lines));
        if complete {
            self.render.cache.insert(key.clone(), rendered.clone());
        }
        self.render.shown = Some(Shown { key, rendered, complete, epoch });
        self.clamp_view_scroll();
        effects
    }

    fn view_plan(&self) -> Plan {
        let width = self.layout.view_width.max(1);
        let theme = &self.theme;
        match self.view.tab {
            ViewTab::Prompt => return Plan::Lines(super::prompt_view::prompt(self, width)),
            ViewTab::Bundles => return views::bundles(self, width).map_or(Plan::Waiting, Plan::Lines),
            ViewTab::Diagnostics => return Plan::Lines(views::diagnostics(self, width)),
            _ => {}
        }
        if let Some(a) = self.selected_archived() {
            let archived = Box::new(self.usage.archived[a].clone());
            return Plan::Job(ViewRequest::Archived { archived, now: (self.clock)() });
        }
        let node = self.selected_row().map(|r| &self.nav.tree.nodes[r.node]);
        if let Some(folder) = self.selected_removed() {
            let message = self.view.tab == ViewTab::Agent;
            return Plan::Lines(super::since::diff_lines(self, None, Some(folder), message, width));
        }
        let diffing = self.view.since_diff && self.since_answer().is_some();
        if let (true, Some(i), ViewTab::Preview | ViewTab::Agent) = (diffing, self.selected_skill(), self.view.tab) {
            let path = self.skill(i).skill_md.clone();
            let message = self.view.tab == ViewTab::Agent;
            return Plan::Lines(super::since::diff_lines(self, Some(&path), None, message, width));
        }
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
            return Plan::Lines(lines::read_error(err, width, theme));
        }
        let snapshot = || Box::new(views::snapshot(self, i));
        match self.view.tab {
            ViewTab::Preview => Plan::Job(ViewRequest::Preview { skill: snapshot(), raw: self.view.raw }),
            ViewTab::Files if skill.db_row.is_some() => Plan::Lines(lines::no_folder(theme)),
            ViewTab::Files => Plan::Files(i),
            ViewTab::Readiness => Plan::Job(ViewRequest::Readiness { skill: snapshot() }),
            ViewTab::Agent => views::agent(self, skill, width).map_or(Plan::Waiting, Plan::Lines),
            ViewTab::Lifecycle => views::lifecycle(self, skill, width)
                .map_or(Plan::Waiting, |lines| Plan::Lines(lines::wrap_prose(lines, width))),
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
                    skill: Box::new(views::snapshot(self, skill)),
                    select: self.view.file_wanted.clone(),
                };
                let entries_key = ViewKey { variant: Variant::Entries, ..key.clone() };
                effects.extend(self.request_view(entries_key, request, width));
                return (lines::placeholder(&theme), false);
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
        (view_jobs::files(&entries, cursor, preview.as_ref().map(|r| &r.lines[..]), backend, &theme), complete)
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
        // An answer no longer awaited was asked for before its view's
        // renderings were dropped (the index's cost arrived, a rescan):
        // made from what was known then, it is not kept.
        let awaited = self.render.in_flight.get(&job.key) == Some(&id);
        if awaited {
            self.render.in_flight.remove(&job.key);
        }
        self.render.epoch += 1;
        let Some(answer) = answer else { return };
        if !awaited || job.key.generation != self.generation {
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
