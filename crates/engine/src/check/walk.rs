//! The one walk of a check: every skill's own rules run on the walking
//! threads while its SKILL.md text is at hand, with the policy applied and
//! suppressions honoured as findings are made; then the rules that need
//! the whole catalog, the config and the bundles. A check of a finished
//! catalog (the same findings, for tests and tools) and the layered check
//! of multi-user deployments live here too.

use super::{apply_suppressions, Dropped, Policy, Tally};
use crate::catalog::{Catalog, CatalogSkill, Source};
use crate::context::Context;
use crate::cost::CostBudgets;
use crate::diagnostics::{
    self, bundles, home_rules, index_rules, is_noted_md, linked_findings, md_file_names, read_error, skill_files,
    Finding, Severity,
};
use crate::discover::WalkReport;
use crate::layers::{DbRead, Layers, TABLE};
use crate::prompt::{IndexRequest, IndexWalks, PromptIndex, WalkedSkill};
use crate::py::PyError;
use crate::Engine;
use std::collections::{HashMap, HashSet};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// How far a check has got, readable from another thread while it runs.
#[derive(Debug, Default)]
pub struct Progress {
    done: AtomicUsize,
    total: AtomicUsize,
    /// The findings the check's policy dropped as they were made, and why.
    pub tally: Tally,
}

impl Progress {
    /// Progress towards `skills` skills, a guess (the last scan's count):
    /// a check that walks and checks at once learns the count only at the end.
    pub fn expecting(skills: usize) -> Progress {
        Progress { total: AtomicUsize::new(skills), ..Progress::default() }
    }

    /// Skills checked so far.
    pub fn done(&self) -> usize {
        self.done.load(Ordering::Relaxed)
    }

    /// Skills to check: as counted, or as expected; never fewer than
    /// [`Progress::done`]. Equal to it when nothing was expected.
    pub fn total(&self) -> usize {
        self.total.load(Ordering::Relaxed)
    }

    /// How many findings of `severity` the check dropped for being below
    /// its `min`: kept ones and these are all it found.
    pub fn dropped(&self, severity: Severity) -> usize {
        self.tally.get(Dropped::BelowMin(severity))
    }

    /// One more skill checked.
    fn checked_one_more(&self) {
        let done = self.done.fetch_add(1, Ordering::Relaxed) + 1;
        self.total.fetch_max(done, Ordering::Relaxed);
    }
}

/// Whether a skill's findings must wait for its suppression comments: its
/// SKILL.md holds one, or a finding points into another file that can.
fn holds_suppressions(skill_md_text: Option<&str>, found: &[Finding]) -> bool {
    let marked = |t: &str| memchr::memmem::find(t.as_bytes(), b"skillscope-").is_some();
    skill_md_text.is_some_and(marked)
        || found.iter().any(|f| {
            f.skill_md.as_deref() != Some(&*f.path)
                && super::suppress::Syntax::of(&f.path).is_some()
                && crate::source::read_text(&f.path).is_ok_and(|t| marked(&t))
        })
}

/// What a check's walk does besides parsing each skill: run its own rules,
/// note the `*.md` names below the roots, make the index's walks.
#[derive(Debug, Clone, Copy)]
pub struct CheckWalk {
    pub own_rules: bool,
    pub noting: bool,
    pub indexing: bool,
}

/// One skill as a check's walk left it: its own findings, the `*.md`
/// names in its folder, whether its files hold suppression comments, and
/// what the index's walk makes of it (with its root's number).
#[derive(Clone)]
pub(crate) struct SkillWalked {
    pub(crate) found: Vec<Finding>,
    pub(crate) md_names: Vec<OsString>,
    pub(crate) suppressing: bool,
    pub(crate) indexed: Option<(usize, WalkedSkill)>,
}

/// A check's walk of the roots, before the findings that depend on other
/// skills: what a state that differs in a few folders reuses
/// ([`crate::overlay`]). Its catalog is lean and linked as the walk found
/// it; one report per root.
#[derive(Clone)]
pub struct WalkedCheck {
    pub(crate) catalog: Catalog,
    pub(crate) skills: Vec<SkillWalked>,
    pub(crate) reports: Vec<WalkReport>,
}

impl WalkedCheck {
    /// Every skill file the walk found, as it reached them.
    pub fn skill_files(&self) -> impl Iterator<Item = &Path> {
        self.catalog.skills.iter().map(|s| s.skill_md.as_path())
    }

    /// The folders the walk could not list (not those it cut short).
    pub fn unlisted_folders(&self) -> impl Iterator<Item = &Path> {
        self.catalog.unreadable.iter().filter(|u| !u.cut).map(|u| u.path.as_path())
    }

    /// The own rules' findings of the skills `policy.only` selects (every
    /// skill without it), as the walk would have made them: for a walk made
    /// before it was known which skills need them ([`WalkedCheck::add_own`]).
    pub(crate) fn own_checked(&self, engine: &Engine, progress: &Progress, policy: &Policy) -> OwnFindings {
        let roots = engine.diagnostic_roots(&self.catalog);
        let selected: Vec<usize> = (0..self.catalog.skills.len())
            .filter(|&i| policy.only.as_ref().map_or(true, |only| (only.0)(&self.catalog.skills[i].skill_dir)))
            .collect();
        let catalog = &self.catalog;
        let checked = crate::parallel_map_min(&selected, 8, |&i| {
            let (skill, text) = engine.reread_skill(catalog, &catalog.skills[i]);
            let files = skill_files(&skill);
            let mut found =
                engine.own_findings(&skill, text.as_deref().ok_or_else(|| read_error(&skill)), &files, &roots);
            if let Some(text) = text.as_deref() {
                index_rules::check_skill_budget(&skill, text, &policy.budgets, &roots, &mut found);
            }
            let suppressing = holds_suppressions(text.as_deref(), &found);
            if !suppressing {
                policy.keep(&mut found, &progress.tally);
            }
            (found, suppressing)
        });
        OwnFindings(
            selected.into_iter().zip(checked).map(|(i, (found, suppressing))| (i, found, suppressing)).collect(),
        )
    }

    /// Adds own rules' findings made for this walk's skills.
    pub(crate) fn add_own(&mut self, own: OwnFindings) {
        for (i, mut found, suppressing) in own.0 {
            let walked = &mut self.skills[i];
            walked.found.append(&mut found);
            walked.suppressing |= suppressing;
        }
    }

    /// This walk's skills linked again by `engine`, a home the same but for
    /// its settings (which skills are disabled).
    pub(crate) fn relinked(mut self, engine: &Engine) -> WalkedCheck {
        self.catalog.commands = engine.link_catalog(&mut self.catalog.skills);
        self
    }

    /// The walk of a state that differs from this one only inside the
    /// overlay's folders: this walk's skills outside them, `differing`'s
    /// (a walk of the written copy of those folders, by an engine whose
    /// roots are the copies of this one's) inside, in the order one walk of
    /// that state would find them, linked again by `engine`. None when the
    /// two walks' roots do not match.
    pub(crate) fn overlaid(
        self,
        engine: &Engine,
        differing: WalkedCheck,
        overlay: std::sync::Arc<crate::overlay::Overlay>,
    ) -> Option<WalkedCheck> {
        let roots = &self.catalog.roots;
        let copies_match = differing.catalog.roots.len() == roots.len()
            && roots.iter().zip(&differing.catalog.roots).all(|(r, w)| overlay.actual_root(&r.path) == w.path);
        if !copies_match || self.reports.len() != differing.reports.len() {
            return None;
        }
        let WalkedCheck { catalog: mut kept, skills: mut walked, reports: kept_reports } = self;
        // The skills outside the folders that differ stay in their lists and
        // the copy's join them, all then moved to the places one walk of the
        // state gives them (by root, then path): a big home's skills are too
        // large to copy into new lists.
        let outside: Vec<bool> = kept.skills.iter().map(|s| !overlay.covers(&s.skill_dir)).collect();
        retain_marked(&mut kept.skills, &outside);
        retain_marked(&mut walked, &outside);
        let first_written = kept.skills.len();
        let shown: Vec<PathBuf> = differing.catalog.skills.iter().map(|s| overlay.shown(&s.skill_md)).collect();
        let mut skills = std::mem::take(&mut kept.skills);
        skills.extend(differing.catalog.skills);
        walked.extend(differing.skills);
        let order = {
            let listed_by = |i: usize| {
                let path = if i < first_written { &skills[i].skill_md } else { &shown[i - first_written] };
                (skills[i].root, path.as_os_str())
            };
            let mut order: Vec<usize> = (0..skills.len()).collect();
            order.sort_by(|&a, &b| listed_by(a).cmp(&listed_by(b)));
            order
        };
        crate::apply_order(&mut skills, &order);
        crate::apply_order(&mut walked, &order);
        let commands = engine.link_catalog(&mut skills);
        let mut unreadable: Vec<crate::catalog::UnreadableFolder> =
            kept.unreadable.into_iter().filter(|u| !overlay.covers(&u.path)).collect();
        unreadable.extend(differing.catalog.unreadable);
        unreadable.sort_by_key(|u| (u.root, overlay.shown(&u.path)));
        let reports = kept_reports
            .into_iter()
            .zip(differing.reports)
            .map(|(kept, written)| overlaid_report(kept, written, &overlay))
            .collect();
        let catalog = Catalog {
            roots: kept.roots,
            skills,
            bundles: Default::default(),
            commands,
            problems: kept.problems,
            unreadable,
            lean: true,
            overlay: Some(overlay),
        };
        Some(WalkedCheck { catalog, skills: walked, reports })
    }
}

/// Keeps the items whose mark is set.
fn retain_marked<T>(items: &mut Vec<T>, marks: &[bool]) {
    let mut marks = marks.iter();
    items.retain(|_| marks.next().copied().unwrap_or(false));
}

/// A root's walk report for an overlaid state: what `kept` found outside
/// the folders that differ, and all `written` found in their copy (`*.md`
/// names are kept from both: more names only cost a lookup a walk).
fn overlaid_report(kept: WalkReport, written: WalkReport, overlay: &crate::overlay::Overlay) -> WalkReport {
    let outside = |paths: Vec<PathBuf>| -> Vec<PathBuf> { paths.into_iter().filter(|p| !overlay.covers(p)).collect() };
    let mut report = WalkReport {
        unreadable: kept.unreadable.into_iter().filter(|u| !overlay.covers(&u.path)).collect(),
        cycles: outside(kept.cycles),
        excluded: outside(kept.excluded),
        md_names: kept.md_names,
        descriptions: outside(kept.descriptions),
    };
    report.unreadable.extend(written.unreadable);
    report.cycles.extend(written.cycles);
    report.excluded.extend(written.excluded);
    report.md_names.extend(written.md_names);
    report.descriptions.extend(written.descriptions);
    report
}

/// Own rules' findings made after a walk, by skill: its place in the walk,
/// the findings, whether its files hold suppression comments.
#[derive(Clone, Default)]
pub struct OwnFindings(Vec<(usize, Vec<Finding>, bool)>);

/// A home checked in one walk, and what the same walk gave besides.
pub struct CheckedHome {
    pub catalog: Catalog,
    pub findings: Vec<Finding>,
    /// Every `*.md` name below the roots a name lookup can find (for
    /// [`Context::knowing_md_names`]; see `Engine::walk_checked`).
    pub md_names: std::sync::Arc<HashSet<OsString>>,
    /// The system-prompt index asked for.
    pub index: Option<Result<PromptIndex, PyError>>,
    /// Each bundle's members, as the bundle rules found them.
    pub bundle_members: bundles::MembersByBundle,
}

impl Engine {
    /// Every finding of one skill.
    pub fn check_skill(&self, catalog: &Catalog, index: usize) -> Vec<Finding> {
        let skill = &catalog.skills[index];
        let text = crate::source::read_text(&skill.skill_md);
        let roots = self.diagnostic_roots(catalog);
        let files = skill_files(skill);
        let mut findings = self.own_findings(skill, text.as_deref().map_err(|e| e.to_string()), &files, &roots);
        linked_findings(catalog, index, text.as_deref().ok(), &roots, &mut findings);
        let always: Vec<(&Path, &str)> = text.as_deref().map(|t| (skill.skill_md.as_path(), t)).into_iter().collect();
        apply_suppressions(&mut findings, &always, &roots);
        for f in &mut findings {
            f.skill = Some(index);
        }
        findings
    }

    /// Scans the home and checks every skill in one walk (each SKILL.md is
    /// read once, its rules run while the text is at hand), then the
    /// rules that need the whole catalog, the config and the bundles. The
    /// catalog returned holds no skill's frontmatter but its string `name`:
    /// the rest has been checked already and is dropped so that a big
    /// home's check stays small. Findings `policy` does not report are
    /// dropped as they are made (and counted in `progress`), suppressions
    /// in the files applied.
    pub fn check_home(&self, progress: &Progress, policy: &Policy) -> (Catalog, Vec<Finding>) {
        let checked = self.check_home_indexing(progress, policy, None);
        (checked.catalog, checked.findings)
    }

    /// [`Engine::check_home`], with the names of every `*.md` file below
    /// the roots and, for `index`, the system-prompt index that request
    /// makes, from the same walk.
    pub fn check_home_indexing(
        &self,
        progress: &Progress,
        policy: &Policy,
        index: Option<&IndexRequest>,
    ) -> CheckedHome {
        let how = CheckWalk { own_rules: true, noting: true, indexing: indexes(policy, index) };
        let walked = self.walk_checked(progress, policy, how);
        self.finish_home(walked, progress, policy, index)
    }

    /// The rest of [`Engine::check_home_indexing`] after its walk.
    pub(crate) fn finish_home(
        &self,
        walked: WalkedCheck,
        progress: &Progress,
        policy: &Policy,
        index: Option<&IndexRequest>,
    ) -> CheckedHome {
        let mut md_names = HashSet::new();
        let similar = policy.would_report("index-similar-descriptions");
        // Hermes' index walks the roots for the SKILL.md files the check read.
        let indexed = walked.skills.iter().all(|s| s.indexed.is_some());
        let mut walks = (indexes(policy, index) && indexed).then(IndexWalks::default);
        let (mut catalog, mut findings) =
            self.finish_checked(walked, progress, policy, Some(&mut md_names), walks.as_mut());
        let asked = index.map(|request| self.prompt_index_reusing(request, walks.take().unwrap_or_default()));
        self.refresh_bundles(&mut catalog);
        let roots = self.diagnostic_roots(&catalog);
        let mut home = Vec::new();
        home_rules::check(self, &catalog, &roots, &mut home);
        // Bundle members are looked up as Hermes does, with the names the
        // walk saw: a `{name}.md` no folder holds needs no walk of the tree.
        let md_names = std::sync::Arc::new(md_names);
        let ctx = Context::prepared(self, &catalog).knowing_md_names(md_names.clone());
        let bundle_members = bundles::check(&ctx, &roots, &mut home);
        // The index rules read the default index: the one asked for, if it is that.
        let default_index = match (&asked, index) {
            (Some(Ok(made)), Some(request)) if *request == IndexRequest::default() => DefaultIndex::Made(made),
            _ => DefaultIndex::From(walks.unwrap_or_default()),
        };
        self.index_findings(&catalog, &roots, &policy.budgets, similar, default_index, &mut home);
        let suppressed = apply_suppressions(&mut home, &[], &roots);
        policy.count_suppressed(suppressed, &progress.tally);
        policy.keep(&mut home, &progress.tally);
        findings.append(&mut home);
        // The browser keeps them: no room for a doubling's slack.
        findings.shrink_to_fit();
        CheckedHome { catalog, findings, md_names, index: asked, bundle_members }
    }

    /// A lean catalog (no frontmatter but the `name`) and the names of every
    /// `*.md` file below its roots, in one walk: a context prepared with both
    /// looks skills and commands up reading no file again. Besides, the
    /// system-prompt index's walk of each root, made from the same reads and
    /// parses (Hermes' index walks the same roots for the same `SKILL.md`
    /// files): one walk where `cost --loaded` would make two.
    pub(crate) fn lean_catalog_and_index_walks(&self) -> (Catalog, HashSet<OsString>, IndexWalks) {
        let roots = self.skill_roots();
        let mut walked = Vec::new();
        let (mut catalog, per_skill) = self.walk_catalog(
            &|skill, text, tree| {
                let files = tree.unwrap_or_else(|| skill_files(skill));
                let indexed = self.index_entry(skill, text.is_some(), &roots);
                crate::catalog::drop_frontmatter(skill);
                (md_file_names(&files), indexed)
            },
            true,
            Some(&mut walked),
        );
        catalog.lean = true;
        self.refresh_bundles(&mut catalog);
        let mut md_names = HashSet::new();
        let mut indexed = Vec::with_capacity(per_skill.len());
        for (names, skill) in per_skill {
            md_names.extend(names);
            indexed.push(skill);
        }
        let walks = index_walks(roots, indexed, &walked, None);
        note_md_names(WalkReport::merged(walked), &mut md_names);
        (catalog, md_names, walks)
    }

    /// What the index's walk makes of a skill the catalog's walk parsed
    /// (`read`: its SKILL.md could be read), with its root's number.
    fn index_entry(&self, skill: &CatalogSkill, read: bool, roots: &[crate::catalog::Root]) -> (usize, WalkedSkill) {
        let fm = read.then_some(&skill.frontmatter);
        (skill.root, WalkedSkill::of(self, skill.skill_md.clone(), &roots[skill.root].path, fm))
    }

    /// [`Engine::check_home`] for the skills alone (no bundles,
    /// no home-level rules): a user's layer.
    pub fn checked_skills_catalog(&self, progress: &Progress, policy: &Policy) -> (Catalog, Vec<Finding>) {
        self.checked_skills_noting(progress, policy, None, None)
    }

    /// [`Engine::checked_skills_catalog`], adding to `md_names` the name of
    /// every `*.md` file under the roots (and maybe more), and with `walks`
    /// the system-prompt index's walks of the roots, made from the same
    /// reads and parses.
    fn checked_skills_noting(
        &self,
        progress: &Progress,
        policy: &Policy,
        md_names: Option<&mut HashSet<OsString>>,
        walks: Option<&mut IndexWalks>,
    ) -> (Catalog, Vec<Finding>) {
        let how = CheckWalk { own_rules: true, noting: md_names.is_some(), indexing: walks.is_some() };
        let walked = self.walk_checked(progress, policy, how);
        self.finish_checked(walked, progress, policy, md_names, walks)
    }

    /// The walk of a check: every skill parsed and its own rules run (those
    /// `policy` keeps), before the findings that depend on other skills.
    /// Without `own_rules`, no skill's own rules run and no skill's folder
    /// is listed: the `*.md` names noted leave out those in skills' support
    /// folders, which no name lookup can find.
    pub(crate) fn walk_checked(&self, progress: &Progress, policy: &Policy, how: CheckWalk) -> WalkedCheck {
        let CheckWalk { own_rules, noting, indexing } = how;
        // The roots are known before the walk; findings name files by them.
        let skill_roots = self.skill_roots();
        let roots = self.diagnostic_roots(&Catalog { roots: skill_roots.clone(), ..Catalog::default() });
        let mut reports = Vec::new();
        let (mut catalog, skills) = self.walk_catalog(
            &|skill, text, tree| {
                let own_rules = own_rules && policy.only.as_ref().map_or(true, |only| (only.0)(&skill.skill_dir));
                let files = match tree {
                    Some(tree) => tree,
                    None if own_rules => skill_files(skill),
                    None => Vec::new(),
                };
                let mut found = Vec::new();
                if own_rules {
                    found = self.own_findings(skill, text.ok_or_else(|| read_error(skill)), &files, &roots);
                    if let Some(text) = text {
                        index_rules::check_skill_budget(skill, text, &policy.budgets, &roots, &mut found);
                    }
                }
                // A skill whose files hold suppression comments keeps all
                // its findings until its name collisions are known; the
                // others are judged now: a big home's findings below `min`
                // (mostly infos) would outweigh its catalog.
                let suppressing = holds_suppressions(text, &found);
                if !suppressing {
                    policy.keep(&mut found, &progress.tally);
                }
                found.shrink_to_fit();
                progress.checked_one_more();
                let indexed = indexing.then(|| self.index_entry(skill, text.is_some(), &skill_roots));
                // Checked: of the frontmatter, linking and name lookups
                // read only `name`, which the skill keeps apart. On a big
                // home the rest is most of the catalog's memory.
                crate::catalog::drop_frontmatter(skill);
                // The skill walk does not enter support folders: their
                // names come from the skill's own listing.
                let md_names: Vec<OsString> = if noting { md_file_names(&files) } else { Vec::new() };
                SkillWalked { found, md_names, suppressing, indexed }
            },
            own_rules,
            (noting || indexing).then_some(&mut reports),
        );
        // Each skill's frontmatter was dropped once checked: read again on need.
        catalog.lean = true;
        WalkedCheck { catalog, skills, reports }
    }

    /// The rest of a check of the skills after its walk: the findings that
    /// depend on other skills (collisions) and the suppressions; with
    /// `md_names` and `walks`, the names and the index's walks the walk
    /// noted.
    fn finish_checked(
        &self,
        walked: WalkedCheck,
        progress: &Progress,
        policy: &Policy,
        mut md_names: Option<&mut HashSet<OsString>>,
        walks: Option<&mut IndexWalks>,
    ) -> (Catalog, Vec<Finding>) {
        let WalkedCheck { catalog, skills: mut per_skill, reports } = walked;
        let roots = self.diagnostic_roots(&catalog);
        if let Some(walks) = walks {
            let indexed = per_skill.iter_mut().filter_map(|skill| skill.indexed.take()).collect();
            *walks = index_walks(catalog.roots.clone(), indexed, &reports, catalog.overlay.as_deref());
        }
        let walked = WalkReport::merged(reports);
        let mut findings = Vec::new();
        home_rules::check_category_descriptions(&walked.descriptions, &roots, &mut findings);
        let suppressed = apply_suppressions(&mut findings, &[], &roots);
        policy.count_suppressed(suppressed, &progress.tally);
        policy.keep(&mut findings, &progress.tally);
        if let Some(md_names) = md_names.as_deref_mut() {
            note_md_names(walked, md_names);
        }
        for (index, skill_walked) in per_skill.into_iter().enumerate() {
            let SkillWalked { mut found, md_names: names, suppressing, .. } = skill_walked;
            if let Some(md_names) = md_names.as_deref_mut() {
                md_names.extend(names);
            }
            // Collisions are rare: only their SKILL.md is read again, for
            // the line of the name (and a skill with suppressions, for them).
            let skill = &catalog.skills[index];
            let colliding = !skill.status.ambiguous_with.is_empty() || skill.status.shadowed_by.is_some();
            let text = (colliding || suppressing).then(|| crate::source::read_text(&skill.skill_md).ok()).flatten();
            linked_findings(&catalog, index, text.as_deref().filter(|_| colliding), &roots, &mut found);
            if suppressing {
                let always: Vec<(&Path, &str)> =
                    text.as_deref().map(|t| (skill.skill_md.as_path(), t)).into_iter().collect();
                let suppressed = apply_suppressions(&mut found, &always, &roots);
                policy.count_suppressed(suppressed, &progress.tally);
                for f in &mut found {
                    f.skill = Some(index);
                }
            }
            policy.keep(&mut found, &progress.tally);
            findings.append(&mut found);
        }
        (catalog, findings)
    }

    /// The rules on the system-prompt index: the budget of `budgets`, and
    /// with `similar` the skills the agent may confuse, on Hermes' default
    /// index (made only when a rule needs it).
    fn index_findings(
        &self,
        catalog: &Catalog,
        roots: &[PathBuf],
        budgets: &CostBudgets,
        similar: bool,
        default_index: DefaultIndex,
        out: &mut Vec<Finding>,
    ) {
        if budgets.max_index_tokens.is_none() && !similar {
            return;
        }
        let rendered;
        let index = match default_index {
            DefaultIndex::Made(index) => index,
            DefaultIndex::From(walks) => {
                let Ok(index) = self.prompt_index_reusing(&IndexRequest::default(), walks) else { return };
                rendered = index;
                &rendered
            }
        };
        if budgets.max_index_tokens.is_some() {
            let report = self.cost_of(index, &crate::cost::CostRequest::default());
            out.extend(index_rules::check_index_budget(&report, budgets, &self.home.skills_dir, roots));
        }
        if similar {
            index_rules::check_similar(&crate::confusable::Confusable::of(index), catalog, roots, out);
        }
    }

    /// The findings of every skill of a catalog (no home-level rules).
    pub fn check_skills(&self, catalog: &Catalog, progress: &Progress) -> Vec<Finding> {
        let indices: Vec<usize> = (0..catalog.skills.len()).collect();
        progress.total.fetch_max(progress.done() + indices.len(), Ordering::Relaxed);
        let per_skill = crate::parallel_map(&indices, |&i| {
            let found = self.check_skill(catalog, i);
            progress.checked_one_more();
            found
        });
        per_skill.into_iter().flatten().collect()
    }

    /// Every finding in the home of a catalog made already (each skill, the
    /// config, the bundles; checked skills counted in `progress`): what the
    /// one walk of [`Engine::check_home`] finds, without a policy.
    pub fn check_catalog(&self, catalog: &Catalog, progress: &Progress) -> Vec<Finding> {
        let mut findings = self.check_skills(catalog, progress);
        let roots = self.diagnostic_roots(catalog);
        let mut home = Vec::new();
        let descriptions: Vec<PathBuf> = catalog
            .roots
            .iter()
            .filter(|r| r.source.is_none())
            .flat_map(|r| crate::discover::index_files(&r.path, "DESCRIPTION.md"))
            .collect();
        home_rules::check_category_descriptions(&descriptions, &roots, &mut home);
        home_rules::check(self, catalog, &roots, &mut home);
        bundles::check(&Context::prepared(self, catalog), &roots, &mut home);
        let default_index = DefaultIndex::From(IndexWalks::default());
        self.index_findings(catalog, &roots, &CostBudgets::default(), true, default_index, &mut home);
        apply_suppressions(&mut home, &[], &roots);
        findings.append(&mut home);
        findings
    }

    /// Every finding with layers on, and the layered catalog they point
    /// into: the shared home's, the user's folder's (paths under
    /// `users/<id>/skills/`), the database rows', and which layer hides
    /// which; checked skills counted in `progress`, `policy` applied.
    pub fn check_layered(
        &self,
        layers: &Layers,
        db: &DbRead,
        progress: &Progress,
        policy: &Policy,
    ) -> (Catalog, Vec<Finding>) {
        let user = self.user_engine(&layers.user);
        let (user_catalog, user_findings) = user.checked_skills_catalog(progress, policy);
        let (shared_catalog, mut findings) = self.check_home(progress, policy);
        for mut f in user_findings {
            f.rel_path = format!("users/{}/skills/{}", layers.user, f.rel_path).into();
            findings.push(f);
        }
        let mut in_rows = Vec::new();
        for row in &db.skills {
            diagnostics::check_text_skill(&row.name, &row.content, &format!("db:{TABLE}/{}", row.id), &mut in_rows);
        }
        let mut in_rows_findings: Vec<Finding> = in_rows
            .into_iter()
            .map(|mut f| {
                f.skill_md = Some(f.path.clone());
                f
            })
            .collect();
        let catalog = self.merge_layers(layers, db, user_catalog, shared_catalog);
        let mut more = shadowing_findings(&catalog, layers);
        more.append(&mut in_rows_findings);
        policy.keep(&mut more, &progress.tally);
        findings.append(&mut more);
        // Indices pointed into the catalogs merged above.
        let by_path: HashMap<&Path, usize> =
            catalog.skills.iter().enumerate().map(|(i, s)| (s.skill_md.as_path(), i)).collect();
        for f in &mut findings {
            f.skill = f.skill_md.as_deref().and_then(|p| by_path.get(p).copied());
        }
        (catalog, findings)
    }
}

/// `layer-shadows-shared` on a user skill hiding a shared one, and
/// `layer-row-unused` on a database row that an earlier skill hides.
fn shadowing_findings(catalog: &Catalog, layers: &Layers) -> Vec<Finding> {
    let source = |s: &CatalogSkill| catalog.roots.get(s.root).and_then(|r| r.source);
    let user_root = &catalog.roots[0].path;
    let shown = |s: &CatalogSkill| match (&s.db_row, source(s)) {
        (Some(r), _) => format!("db:{TABLE}/{}", r.id),
        (None, Some(Source::User)) => {
            let rel = diagnostics::relative(&s.skill_md, std::slice::from_ref(user_root));
            format!("users/{}/skills/{rel}", layers.user)
        }
        (None, _) => s.skill_md.display().to_string(),
    };
    let mut out = Vec::new();
    for hidden in &catalog.skills {
        let Some(first) = hidden.status.shadowed_by.map(|i| &catalog.skills[i]) else { continue };
        let (rule, on, message) = match (source(first), source(hidden)) {
            (Some(Source::User), Some(Source::Shared)) => (
                "layer-shadows-shared",
                first,
                format!("`{}` hides the shared skill {}", first.name, hidden.skill_md.display()),
            ),
            (_, Some(Source::Db)) => (
                "layer-row-unused",
                hidden,
                format!(
                    "row `{}` is never used: {} ({}) has its name",
                    hidden.name,
                    shown(first),
                    source(first).map_or("", Source::name)
                ),
            ),
            _ => continue,
        };
        let info = diagnostics::rule(rule);
        out.push(Finding {
            rule: rule.into(),
            severity: info.map_or(diagnostics::Severity::Warning, |r| r.severity),
            skill: None,
            skill_name: Some(on.name.as_str().into()),
            skill_md: Some(on.skill_md.as_path().into()),
            path: on.skill_md.as_path().into(),
            rel_path: shown(on).into(),
            line: None,
            column: None,
            message,
            hint: info.map_or("", |r| r.hint).into(),
            left_out: 0,
        });
    }
    out
}

/// The `*.md` names a walk noted, and those in the folders it did not enter
/// (`.git`, `node_modules`), listed here. The skill walk does not enter
/// support folders either: each skill's own listing names those.
fn note_md_names(walked: WalkReport, md_names: &mut HashSet<OsString>) {
    md_names.extend(walked.md_names);
    for dir in &walked.excluded {
        md_names.extend(crate::paths::entries_by_name(dir, is_noted_md).into_keys());
    }
}

/// Whether a check's walk makes the index's walks: the index rules need
/// them, or an index is asked for.
fn indexes(policy: &Policy, index: Option<&IndexRequest>) -> bool {
    let similar = policy.would_report("index-similar-descriptions");
    similar || policy.budgets.max_index_tokens.is_some() || index.is_some()
}

/// Hermes' default index for the index rules: made already, or to make
/// from the roots' walks held (a root not held is walked again).
enum DefaultIndex<'a> {
    Made(&'a PromptIndex),
    From(IndexWalks),
}

/// The index walks of `roots` from one walk's skills (each with its root's
/// number, in walk order) and its reports (one per root, in order).
fn index_walks(
    roots: Vec<crate::catalog::Root>,
    skills: Vec<(usize, WalkedSkill)>,
    reports: &[WalkReport],
    overlay: Option<&crate::overlay::Overlay>,
) -> IndexWalks {
    let mut counts = vec![0usize; roots.len()];
    for &(root, _) in &skills {
        counts[root] += 1;
    }
    let mut by_root: Vec<Vec<WalkedSkill>> = counts.into_iter().map(Vec::with_capacity).collect();
    for (root, skill) in skills {
        by_root[root].push(skill);
    }
    let mut walks = IndexWalks::default();
    for ((root, skills), report) in roots.into_iter().zip(by_root).zip(reports) {
        walks.add(root.path, skills, report.descriptions.clone(), overlay);
    }
    walks
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::env::{Env, Os};
    use crate::prompt::IndexRequest;

    /// The fixture homes of the repository's tests.
    fn fixture_homes() -> Vec<PathBuf> {
        let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures");
        let mut homes: Vec<PathBuf> = std::fs::read_dir(&fixtures)
            .expect("tests/fixtures")
            .flatten()
            .map(|e| e.path().join("home"))
            .filter(|home| home.is_dir())
            .collect();
        homes.sort();
        homes
    }

    #[test]
    fn retain_marked_keeps_the_marked_items() {
        let mut items = vec![1, 2, 3];
        retain_marked(&mut items, &[true, false, true]);
        assert_eq!(items, [1, 3]);
    }

    /// The index made from the walks a check or a lean catalog hands over
    /// is the one the index's own walk makes, and it was made from them
    /// (every root's walk was there to take).
    #[test]
    fn index_from_shared_walks_is_the_index_of_its_own_walk() {
        let homes = fixture_homes();
        assert!(homes.len() > 20, "fixture homes found: {}", homes.len());
        for home in homes {
            let engine =
                Engine::new(home.clone(), Env::with_vars([("HOME", "/nonexistent")], Os::Linux), Default::default());
            let roots = engine.skill_roots().len();
            let own = engine.prompt_index(&IndexRequest::default());

            let (_, _, walks) = engine.lean_catalog_and_index_walks();
            assert_eq!(walks.len(), roots, "{}", home.display());
            assert_eq!(engine.prompt_index_reusing(&IndexRequest::default(), walks), own, "lean: {}", home.display());

            let mut walks = IndexWalks::default();
            let mut md_names = HashSet::new();
            engine.checked_skills_noting(
                &Progress::default(),
                &Policy::everything(),
                Some(&mut md_names),
                Some(&mut walks),
            );
            assert_eq!(walks.len(), roots, "{}", home.display());
            assert_eq!(engine.prompt_index_reusing(&IndexRequest::default(), walks), own, "check: {}", home.display());

            // A request other than the default, beside the index rules' own.
            let compact = IndexRequest { compact: ["devops".to_owned()].into(), ..IndexRequest::default() };
            let checked = engine.check_home_indexing(&Progress::default(), &Policy::everything(), Some(&compact));
            assert_eq!(checked.index, Some(engine.prompt_index(&compact)), "compact: {}", home.display());
        }
    }
}
