//! Reading the home again. A full rescan (`r`, another platform, config.yaml
//! or `.env` changed, a skill added or removed) builds the new catalog, its
//! usage records and its tree off the UI thread ([`RescanJob::run`]) while
//! the old ones stay on screen with a note; the new ones take their place
//! when ready, the selection kept. A change the catalog can follow in place
//! (one skill saved, a bundle, usage records) is applied at once.

use super::app::{load_catalog, App};
use super::cache::drop_elsewhere;
use super::jobs::JobKind;
use super::state::{DbFeed, JobState};
use super::tree::{NodeKey, SortBasis, Tree, TreeSort};
use crate::engine::catalog::Catalog;
use crate::engine::diagnostics::Severity;
use crate::engine::layers::Layers;
use crate::engine::lifecycle::UsageOverview;
use crate::engine::reload::{self, Pending, ReloadPlan};
use crate::engine::Engine;
use crate::search;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

/// A rescan to run on another thread.
pub struct RescanJob {
    id: u64,
    engine: Engine,
    layers: Option<Layers>,
    db: DbFeed,
    sort: TreeSort,
    index_tokens: Arc<HashMap<PathBuf, usize>>,
}

/// A rescan's answer: everything the tree and the views are drawn from.
pub struct Rescanned {
    id: u64,
    engine: Engine,
    catalog: Catalog,
    usage: UsageOverview,
    tree: Tree,
    sort: TreeSort,
}

impl RescanJob {
    pub fn run(self) -> Rescanned {
        let catalog = load_catalog(&self.engine, self.layers.as_ref(), &self.db);
        let usage = self.engine.usage_overview();
        let basis = SortBasis { usage: &usage, index_tokens: &self.index_tokens };
        let tree = Tree::build(&catalog, basis, self.sort);
        Rescanned { id: self.id, engine: self.engine, catalog, usage, tree, sort: self.sort }
    }
}

/// What the watcher's changes ask for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Changes {
    /// Nothing shown depends on them.
    Nothing,
    /// Applied to the catalog in place.
    Applied,
    /// A full rescan is needed ([`App::start_rescan`]).
    Rescan,
}

impl App {
    /// The first scan is done: its catalog replaces the empty one.
    pub fn scanned(&mut self, catalog: Catalog) {
        self.scan = None;
        self.catalog = Arc::new(catalog);
        self.usage = self.engine.usage_overview();
        self.catalog_changed(None, 0, true);
    }

    /// Replaces the catalog with one read now with `engine`, keeping
    /// selection and scroll (on this thread: tests, `--print-frame`).
    pub fn rescan(&mut self, engine: Engine) {
        if self.scan.is_some() {
            // The first scan's answer is on its way.
            return;
        }
        let job = self.rescan_job(engine);
        self.rescanned(job.run());
    }

    /// Walks and reads the home again with the app's current settings, on
    /// this thread.
    pub fn rescan_home(&mut self) {
        self.load_check_settings();
        let engine = self.fresh_engine();
        self.rescan(engine);
    }

    /// A rescan of the home to run off the UI thread, or none when one
    /// already runs (its answer is then dropped and this one run after it)
    /// or the first scan has not ended.
    pub fn start_rescan(&mut self) -> Option<RescanJob> {
        if self.scan.is_some() {
            return None;
        }
        self.load_check_settings();
        if self.rescan.running.is_some() {
            self.rescan.again = true;
            return None;
        }
        let engine = self.fresh_engine();
        Some(self.rescan_job(engine))
    }

    /// True while a rescan runs (the status line says so).
    pub fn rescanning(&self) -> bool {
        self.rescan.running.is_some()
    }

    fn fresh_engine(&self) -> Engine {
        let e = &self.engine;
        Engine::new(e.home.root.clone(), e.env.clone(), e.options.clone())
    }

    fn rescan_job(&mut self, engine: Engine) -> RescanJob {
        self.rescan.next_id += 1;
        self.rescan.running = Some(self.rescan.next_id);
        RescanJob {
            id: self.rescan.next_id,
            engine,
            layers: self.layers.clone(),
            db: self.db.clone(),
            sort: self.nav.sort,
            index_tokens: self.index_tokens.clone(),
        }
    }

    /// A rescan's answer: it replaces the catalog and tree, selection and
    /// scroll kept, unless another rescan was asked for meanwhile, which is
    /// returned to run instead.
    pub fn rescanned(&mut self, fresh: Rescanned) -> Option<RescanJob> {
        if self.rescan.running != Some(fresh.id) {
            return None;
        }
        self.rescan.running = None;
        if std::mem::take(&mut self.rescan.again) {
            drop_elsewhere(fresh);
            let engine = self.fresh_engine();
            return Some(self.rescan_job(engine));
        }
        let key = self.selected_key();
        let scroll = self.view.scroll;
        self.engine = Arc::new(fresh.engine);
        let old_catalog = std::mem::replace(&mut self.catalog, Arc::new(fresh.catalog));
        self.usage = fresh.usage;
        let mut tree = fresh.tree;
        // The last comparison's removed skills stay until the next one.
        if let Some((label, removed)) = self.since_removed() {
            tree.add_removed(label, &removed);
        }
        // The order may have changed meanwhile: the tree is then made again.
        let same_order = fresh.sort == self.nav.sort;
        if same_order {
            tree.keep_expansion_of(&self.nav.tree);
        }
        let old_tree = std::mem::replace(&mut self.nav.tree, tree);
        drop_elsewhere((old_catalog, old_tree));
        self.catalog_changed(key.as_ref(), scroll, !same_order);
        if std::mem::take(&mut self.rescan.asked) {
            let skills = crate::engine::words::count_s(self.catalog.skills.len() as u64, "skill");
            self.notice = Some(format!("home read again: {skills}"));
        }
        None
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
        let before = self.prefs.check_settings.clone();
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
                    budgets: settings.cost,
                    only: None,
                    written_as: Vec::new(),
                };
                if let Some(min) = check.min_severity {
                    self.view.diag.min = min;
                }
                self.prefs.check_policy = super::jobs::SharedPolicy(Arc::new(policy));
                self.prefs.check_settings = Ok(settings.path);
            }
            Err(e) => {
                self.prefs.check_policy = super::jobs::SharedPolicy::default();
                self.prefs.check_settings = Err(e.to_string());
            }
        }
        if before != self.prefs.check_settings {
            self.jobs.diagnostics = None;
            self.jobs.requested.retain(|_, (_, kind)| !matches!(kind, JobKind::Diagnostics(..)));
            self.render.clear();
        }
    }

    /// Applies the changes the watcher reported with the least work that
    /// gives the answer of a full rescan ([`reload::plan`]), the rescan
    /// itself included (on this thread). False when nothing shown depends
    /// on them.
    pub fn reload(&mut self, pending: &Pending) -> bool {
        match self.apply_changes(pending) {
            Changes::Nothing => false,
            Changes::Applied => true,
            Changes::Rescan => {
                self.rescan_home();
                true
            }
        }
    }

    /// Applies what can be applied in place; says when a full rescan is
    /// needed instead (the caller starts it, off the UI thread).
    pub fn apply_changes(&mut self, pending: &Pending) -> Changes {
        if self.scan.is_some() {
            return Changes::Nothing;
        }
        let plan = if self.layers.is_some() || self.rescan.running.is_some() {
            // A rescan under way may have read the files before they changed.
            ReloadPlan::Full
        } else {
            reload::plan(pending, &self.catalog, &self.engine.home, &self.engine.env)
        };
        match plan {
            ReloadPlan::Nothing => return Changes::Nothing,
            ReloadPlan::Full => return Changes::Rescan,
            ReloadPlan::Answers { usage } => {
                let key = self.selected_key();
                self.keep_file_by_path(key.as_ref());
                self.answers_changed();
                if usage {
                    self.usage_changed();
                }
            }
            ReloadPlan::Usage => self.usage_changed(),
            ReloadPlan::Part { skills, bundles } => {
                let key = self.selected_key();
                let scroll = self.view.scroll;
                let skills: Vec<usize> = skills.into_iter().collect();
                let names = |c: &Catalog| -> Vec<String> { skills.iter().map(|&i| c.skills[i].name.clone()).collect() };
                let before = names(&self.catalog);
                self.engine.refresh_skills(Arc::make_mut(&mut self.catalog), &skills);
                if bundles {
                    self.engine.refresh_bundles(Arc::make_mut(&mut self.catalog));
                }
                // The tree shows names, sorted: it stays unless one changed.
                let rebuild = names(&self.catalog) != before;
                self.catalog_changed(key.as_ref(), scroll, rebuild);
            }
        }
        Changes::Applied
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
    pub(super) fn catalog_changed(&mut self, key: Option<&NodeKey>, scroll: usize, rebuild_tree: bool) {
        self.keep_file_by_path(key);
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
            // Another skill: its own first file, not the old one's place.
            self.view.file_cursor = 0;
            self.view.file_wanted = None;
        } else {
            self.view.scroll = scroll;
        }
    }

    /// The Files view's listing is about to be read again (a rescan, a
    /// save, the editor's return): its cursor is kept by the file's path,
    /// not its place, so that it stays on that file while it exists.
    /// `key` is the selection the listing was made for.
    fn keep_file_by_path(&mut self, key: Option<&NodeKey>) {
        let Some(files) = self.render.files.as_ref().filter(|f| f.selection.as_ref() == key) else { return };
        if self.view.file_wanted.is_none() {
            self.view.file_wanted = files.entries.get(self.view.file_cursor).map(|e| e.rel.clone());
        }
    }

    /// The tree again from the catalog and usage records, folders kept open
    /// or closed as they were.
    pub(super) fn rebuild_tree(&mut self) {
        let basis = SortBasis { usage: &self.usage, index_tokens: &self.index_tokens };
        let mut tree = Tree::build(&self.catalog, basis, self.nav.sort);
        if let Some((label, removed)) = self.since_removed() {
            tree.add_removed(label, &removed);
        }
        tree.keep_expansion_of(&self.nav.tree);
        self.nav.tree = tree;
    }

    /// The usage records, hub lock, curator state or archive changed:
    /// markers, sort and the Lifecycle view follow.
    fn usage_changed(&mut self) {
        let key = self.selected_key();
        let usage = self.engine.usage_overview();
        // Markers are drawn from the records; the rows change only with the
        // order or the archive.
        let rows_change = self.nav.sort != TreeSort::Name || usage.archived != self.usage.archived;
        self.usage = usage;
        if rows_change {
            self.rebuild_tree();
        }
        // The Lifecycle view's answer is asked for again (one in flight is
        // dropped when it comes).
        self.jobs.lifecycle = None;
        self.jobs.requested.retain(|_, (_, kind)| !matches!(kind, JobKind::Lifecycle { .. }));
        self.render.clear();
        self.refresh_rows();
        if !self.restore_selection(key.as_ref()) {
            self.select_first_skill();
        }
    }

    /// Every rendered view and job answer is stale.
    pub(super) fn answers_changed(&mut self) {
        self.generation += 1;
        self.render.reset();
        let mut jobs = JobState::default();
        jobs.next_id_from(&self.jobs);
        // The findings of a big home take a while to free.
        drop_elsewhere(std::mem::replace(&mut self.jobs, jobs));
    }
}
