//! What `check` reports of the diagnostics: rule selection, severities and
//! per-path ignores from the settings file and the flags, suppressions in
//! the files, noisy rules told once, and the output formats CI reads.
//! The rules themselves live in [`super::diagnostics`].

pub mod format;
pub mod run;
pub mod select;
pub mod settings;
pub mod suppress;
pub mod walk;

use super::diagnostics::rules::{self, RuleRef};
use super::diagnostics::{Finding, Severity};
use select::Selector;
use settings::{Level, PathIgnore};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use suppress::{Suppressions, Syntax};
pub use walk::Progress;

/// Which findings a check keeps, and at what severity.
#[derive(Debug, Clone, Default)]
pub struct Policy {
    /// Only these rules (empty: all).
    pub select: Vec<Selector>,
    pub ignore: Vec<Selector>,
    /// Severity by rule or prefix; the most specific entry wins.
    pub severity: Vec<(Selector, Level)>,
    pub per_path_ignores: Vec<PathIgnore>,
    /// The folder `per_path_ignores` globs are relative to.
    pub base: Option<PathBuf>,
    pub min: Severity,
    /// `[cost]`: the token budgets the cost rules hold the skills to.
    pub budgets: settings::CostBudgets,
    /// The skills (by folder) whose own rules run; none: every skill. Rules
    /// over the whole home run whatever it says.
    pub only: Option<SkillFilter>,
    /// Folders written elsewhere and the ones they stand for: a file
    /// below the first is judged as the same file below the second.
    pub written_as: Vec<(std::path::PathBuf, std::path::PathBuf)>,
}

/// Which skill folders a check runs each skill's own rules on (`diff` runs
/// them on the skills a change touched: the others' are the same in both
/// states).
#[derive(Clone)]
pub struct SkillFilter(pub Arc<dyn Fn(&std::path::Path) -> bool + Send + Sync>);

impl std::fmt::Debug for SkillFilter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SkillFilter")
    }
}

/// Why a finding is not reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dropped {
    /// `off` in the settings' severity table.
    Off,
    NotSelected,
    Ignored,
    PerPath,
    Inline,
    BelowMin(Severity),
}

/// How many findings were dropped, and why: readable while a check runs.
#[derive(Debug, Default)]
pub struct Tally {
    off: AtomicUsize,
    not_selected: AtomicUsize,
    ignored: AtomicUsize,
    per_path: AtomicUsize,
    inline: AtomicUsize,
    below_min: [AtomicUsize; 3],
}

impl Tally {
    pub fn count(&self, why: Dropped) {
        let counter = match why {
            Dropped::Off => &self.off,
            Dropped::NotSelected => &self.not_selected,
            Dropped::Ignored => &self.ignored,
            Dropped::PerPath => &self.per_path,
            Dropped::Inline => &self.inline,
            Dropped::BelowMin(s) => &self.below_min[s.index()],
        };
        counter.fetch_add(1, Ordering::Relaxed);
    }

    pub fn get(&self, why: Dropped) -> usize {
        let counter = match why {
            Dropped::Off => &self.off,
            Dropped::NotSelected => &self.not_selected,
            Dropped::Ignored => &self.ignored,
            Dropped::PerPath => &self.per_path,
            Dropped::Inline => &self.inline,
            Dropped::BelowMin(s) => &self.below_min[s.index()],
        };
        counter.load(Ordering::Relaxed)
    }

    /// Findings suppressed where they stand or by path (what a person
    /// silenced, as opposed to what they did not ask for).
    pub fn suppressed(&self) -> usize {
        self.get(Dropped::Inline) + self.get(Dropped::PerPath)
    }
}

impl Policy {
    /// Everything at every severity: the browser's check, filtered later.
    pub fn everything() -> Policy {
        Policy { min: Severity::Info, ..Policy::default() }
    }

    /// The rule a finding's name stands for (unregistered: none).
    fn rule_of(f: &Finding) -> Option<&'static RuleRef> {
        rules::lookup(&f.rule)
    }

    /// The settings' severity for a rule, if an entry covers it.
    fn level_of(&self, rule: &RuleRef) -> Option<Level> {
        self.severity.iter().filter(|(s, _)| s.matches(rule)).max_by_key(|(s, _)| s.specificity()).map(|(_, l)| *l)
    }

    /// Whether a finding of the rule named `id` would be shown: selected,
    /// not off, and at or above the minimum severity. (Rules costly to run
    /// are run only then.)
    pub fn would_report(&self, id: &str) -> bool {
        self.selected_severity(id).is_some_and(|severity| severity >= self.min)
    }

    /// Whether the rule named `id` is selected and on, but below the
    /// minimum severity.
    pub fn below_min(&self, id: &str) -> bool {
        self.selected_severity(id).is_some_and(|severity| severity < self.min)
    }

    /// The severity of the rule named `id` when it is selected and not off.
    fn selected_severity(&self, id: &str) -> Option<Severity> {
        let rule = rules::lookup(id)?;
        let severity = match self.level_of(rule) {
            Some(Level::Off) => return None,
            Some(Level::At(s)) => s,
            None => rule.severity,
        };
        self.reports(rule).then_some(severity)
    }

    /// Whether a rule is reported at all, as selection says.
    pub fn reports(&self, rule: &RuleRef) -> bool {
        (self.select.is_empty() || self.select.iter().any(|s| s.matches(rule)))
            && !self.ignore.iter().any(|s| s.matches(rule))
    }

    /// `path` as the user knows it (see [`Policy::written_as`]).
    fn shown_path<'p>(&self, path: &'p std::path::Path) -> std::borrow::Cow<'p, std::path::Path> {
        for (written, real) in &self.written_as {
            if let Ok(rest) = path.strip_prefix(written) {
                return std::borrow::Cow::Owned(real.join(rest));
            }
        }
        std::borrow::Cow::Borrowed(path)
    }

    /// The finding's fate, its severity set as the settings say (before
    /// the minimum is applied). Inline suppressions are judged elsewhere:
    /// they need the file's text.
    pub fn judge(&self, f: &mut Finding) -> Result<(), Dropped> {
        let Some(rule) = Policy::rule_of(f) else { return Ok(()) };
        match self.level_of(rule) {
            Some(Level::Off) => return Err(Dropped::Off),
            Some(Level::At(s)) => f.severity = s,
            None => {}
        }
        if !self.select.is_empty() && !self.select.iter().any(|s| s.matches(rule)) {
            return Err(Dropped::NotSelected);
        }
        if self.ignore.iter().any(|s| s.matches(rule)) {
            return Err(Dropped::Ignored);
        }
        if !self.per_path_ignores.is_empty() {
            let shown = self.shown_path(&f.path);
            let rel = match &self.base {
                Some(base) => shown.strip_prefix(base).unwrap_or(&shown),
                None => &shown,
            };
            if self.per_path_ignores.iter().any(|p| p.covers(rel) && p.rules.iter().any(|s| s.matches(rule))) {
                return Err(Dropped::PerPath);
            }
        }
        Ok(())
    }

    /// Keeps the findings this policy reports at or above its minimum,
    /// counting the others in `tally`.
    pub fn keep(&self, findings: &mut Vec<Finding>, tally: &Tally) {
        findings.retain_mut(|f| {
            // What a path silences below the threshold would not be shown
            // anyway: it counts as below it, not as suppressed.
            let verdict = match self.judge(f) {
                Ok(()) | Err(Dropped::PerPath) if f.severity < self.min => Err(Dropped::BelowMin(f.severity)),
                other => other,
            };
            if let Err(why) = verdict {
                tally.count(why);
            }
            verdict.is_ok()
        });
    }

    /// Counts, among findings suppressed where they stand, those this
    /// policy would have reported: what a summary says was suppressed.
    pub fn count_suppressed(&self, suppressed: Vec<Finding>, tally: &Tally) {
        for mut f in suppressed {
            if self.judge(&mut f).is_ok() && f.severity >= self.min {
                tally.count(Dropped::Inline);
            }
        }
    }

    /// The exact rules `select` names: a noisy one of these is not folded.
    pub fn named_exactly(&self) -> HashSet<&'static str> {
        self.select.iter().filter_map(Selector::exact).map(|r| r.name.as_str()).collect()
    }
}

/// What a finding in a file is attached to (its skill's name and SKILL.md,
/// the file as shown), for the findings made about that file's comments.
type Anchor = (Option<Arc<str>>, Option<Arc<Path>>, Arc<str>);

/// Applies the suppression comments of the files `findings` point into
/// and adds an `unused-suppression` finding for each directive that
/// suppressed nothing. `always` names files (and their text, at hand) whose
/// directives are read even when no finding points into them (a SKILL.md).
/// Returns the findings suppressed ([`Policy::count_suppressed`] counts
/// those the check would have reported).
pub fn apply_suppressions(findings: &mut Vec<Finding>, always: &[(&Path, &str)], roots: &[PathBuf]) -> Vec<Finding> {
    let mut suppressed = Vec::new();
    let mut by_file: HashMap<Arc<Path>, Suppressions> = HashMap::new();
    let parse = |path: &Path, text: Option<&str>| -> Option<Suppressions> {
        let syntax = Syntax::of(path)?;
        let owned;
        let text = match text {
            Some(t) => t,
            None => {
                owned = crate::source::read_text(path).ok()?;
                &owned
            }
        };
        let s = Suppressions::parse(text, syntax);
        (!s.is_empty()).then_some(s)
    };
    let mut unread: HashSet<Arc<Path>> = HashSet::new();
    for (path, text) in always {
        if let Some(s) = parse(path, Some(text)) {
            by_file.insert(Arc::from(*path), s);
        }
        unread.insert(Arc::from(*path));
    }
    // Findings with their own file: most files hold no directive.
    let mut anchor: HashMap<Arc<Path>, Anchor> = HashMap::new();
    let mut kept = Vec::with_capacity(findings.len());
    for f in findings.drain(..) {
        if !unread.contains(&f.path) {
            unread.insert(f.path.clone());
            if let Some(s) = parse(&f.path, None) {
                by_file.insert(f.path.clone(), s);
            }
        }
        anchor.entry(f.path.clone()).or_insert_with(|| (f.skill_name.clone(), f.skill_md.clone(), f.rel_path.clone()));
        let silenced = match (by_file.get_mut(&f.path), rules::lookup(&f.rule)) {
            (Some(suppressions), Some(rule)) => suppressions.suppresses(rule, f.line),
            _ => false,
        };
        if silenced {
            suppressed.push(f);
        } else {
            kept.push(f);
        }
    }
    *findings = kept;
    let unused_rule = rules::rule("unused-suppression");
    for (path, suppressions) in by_file {
        let (skill_name, skill_md, rel_path) = anchor.remove(&path).unwrap_or_else(|| {
            let skill_md = always.iter().find(|(p, _)| *p == &*path).map(|(p, _)| Arc::from(*p));
            (None, skill_md, super::diagnostics::relative(&path, roots))
        });
        for unused in suppressions.unused() {
            findings.push(Finding {
                rule: "unused-suppression".into(),
                severity: unused_rule.map_or(Severity::Info, |r| r.severity),
                skill: None,
                skill_name: skill_name.clone(),
                skill_md: skill_md.clone(),
                path: path.clone(),
                rel_path: rel_path.clone(),
                line: Some(unused.line),
                column: Some(unused.column),
                message: unused.message,
                hint: unused_rule.map_or("", |r| r.hint).into(),
                left_out: 0,
            });
        }
    }
    suppressed
}

/// One finding per place: the same rule, file, line, column and message
/// found twice is one.
pub fn dedup(findings: &mut Vec<Finding>) {
    // File, line, column, rule, message.
    type Place<'a> = (Arc<Path>, Option<usize>, Option<usize>, &'a str, &'a str);
    let mut seen: HashSet<Place> = HashSet::new();
    let keep: Vec<bool> =
        findings.iter().map(|f| seen.insert((f.path.clone(), f.line, f.column, &f.rule, &f.message))).collect();
    let mut keep = keep.into_iter();
    findings.retain(|_| keep.next().unwrap_or(true));
}

/// A rule told once for the home instead of on every skill it fires on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Folded {
    pub rule: &'static RuleRef,
    pub skills: usize,
    pub findings: usize,
}

/// Below this many skills a home has no "most".
const FOLD_MIN_SKILLS: usize = 10;

/// The informational rules that fire on more than half of the `skills`
/// skills, unless `keep` names them: on most skills such a finding says
/// nothing about any one of them, so the formats read by people tell each
/// once ([`Report::shown`]); JSON and SARIF keep every finding.
pub fn fold_noisy(findings: &[Finding], skills: usize, keep: &HashSet<&str>) -> Vec<Folded> {
    if skills < FOLD_MIN_SKILLS {
        return Vec::new();
    }
    let mut skills_by_rule: HashMap<&str, HashSet<&Path>> = HashMap::new();
    for f in findings.iter().filter(|f| f.severity == Severity::Info) {
        if let Some(md) = &f.skill_md {
            skills_by_rule.entry(&f.rule).or_default().insert(md);
        }
    }
    let mut folded: Vec<Folded> = skills_by_rule
        .into_iter()
        .filter(|(rule, on)| on.len() * 2 > skills && !keep.contains(rule))
        .filter_map(|(rule, on)| Some(Folded { rule: rules::lookup(rule)?, skills: on.len(), findings: 0 }))
        .collect();
    folded.sort_by(|a, b| a.rule.code.cmp(&b.rule.code));
    for fold in &mut folded {
        fold.findings = findings.iter().filter(|f| is_folded_by(f, fold)).count();
    }
    folded
}

fn is_folded_by(finding: &Finding, fold: &Folded) -> bool {
    finding.severity == Severity::Info && finding.rule == fold.rule.name
}

/// What a check reports: its findings and what it left out, for every
/// output format.
#[derive(Debug, Default)]
pub struct Report {
    /// Every finding reported, the folded rules' too.
    pub findings: Vec<Finding>,
    /// The rules told once in the formats read by people.
    pub folded: Vec<Folded>,
    /// Skills checked.
    pub skills: usize,
    /// Skills found in the home, before the names given kept some.
    pub found: usize,
    pub min: Severity,
    /// The settings file read, if any.
    pub settings: Option<PathBuf>,
    pub suppressed_inline: usize,
    pub suppressed_by_path: usize,
    /// Findings below the minimum, by severity.
    pub below_min: [usize; 3],
    /// Rules too costly to run for findings not shown: selected, but below
    /// the minimum, so not run (their findings are in no count).
    pub not_run_below_min: Vec<&'static str>,
}

impl Report {
    /// The findings the formats read by people list one by one: all but
    /// those of the folded rules (each told once, [`Report::notes`]).
    pub fn shown(&self) -> impl Iterator<Item = &Finding> {
        self.findings.iter().filter(|f| !self.folded.iter().any(|fold| is_folded_by(f, fold)))
    }

    /// Reported findings of a severity (the folded rules' too).
    pub fn count(&self, severity: Severity) -> usize {
        self.findings.iter().filter(|f| f.severity == severity).count()
    }

    /// `2 errors, 1 warning; 3 suppressed (2 by comments in the files, 1
    /// by per-path-ignores); below warning: 40 info`: the counts are of what
    /// is reported, at the severities it reports.
    pub fn summary(&self) -> String {
        use crate::words::count_s;
        let say = |severity: Severity, n: usize| match severity {
            Severity::Error => count_s(n as u64, "error"),
            Severity::Warning => count_s(n as u64, "warning"),
            Severity::Info => format!("{n} info"),
        };
        let levels = [Severity::Error, Severity::Warning, Severity::Info];
        let shown: Vec<String> = levels.iter().filter(|s| **s >= self.min).map(|s| say(*s, self.count(*s))).collect();
        let mut out = shown.join(", ");
        let suppressed = self.suppressed_inline + self.suppressed_by_path;
        if suppressed > 0 {
            let mut by = Vec::new();
            if self.suppressed_inline > 0 {
                by.push(format!("{} by comments in the files", self.suppressed_inline));
            }
            if self.suppressed_by_path > 0 {
                by.push(format!("{} by per-path-ignores", self.suppressed_by_path));
            }
            out.push_str(&format!("; {suppressed} suppressed ({})", by.join(", ")));
        }
        let below: Vec<String> = levels
            .iter()
            .filter(|s| **s < self.min && self.below_min[s.index()] > 0)
            .map(|s| say(*s, self.below_min[s.index()]))
            .collect();
        if !below.is_empty() {
            out.push_str(&format!("; not shown, below {}: {}", self.min.name(), below.join(", ")));
        }
        if !self.not_run_below_min.is_empty() {
            out.push_str(&format!(
                "; not run below {}: {} (--min-severity info runs {})",
                self.min.name(),
                self.not_run_below_min.join(", "),
                if self.not_run_below_min.len() == 1 { "it" } else { "them" }
            ));
        }
        out
    }

    /// One line per folded rule; and, where no skill was found, that
    /// (a CI job pointed at the wrong folder passes otherwise unnoticed).
    pub fn notes(&self) -> Vec<String> {
        let mut notes: Vec<String> = self
            .folded
            .iter()
            .map(|f| {
                format!(
                    "{} {} fires on {} of {} skills: told once here; --select {} lists each",
                    f.rule.code, f.rule.name, f.skills, self.skills, f.rule.code
                )
            })
            .collect();
        if self.found == 0 {
            notes.push("no skill was found to check (no SKILL.md where Hermes looks)".to_owned());
        }
        notes
    }
}
