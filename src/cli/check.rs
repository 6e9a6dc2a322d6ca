//! `skillscope check`: diagnostics for authors.

use super::output::Out;
use super::{Layered, EXIT_ANSWER_ERROR, EXIT_OK, EXIT_USAGE};
use crate::engine::catalog::Catalog;
use crate::engine::diagnostics::rules::GUARD_FAMILY;
use crate::engine::diagnostics::{Finding, Progress, Severity};
use crate::engine::Engine;
use crate::sanitize::clean_line;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::{self, IsTerminal};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// What a check found: the findings at or above its `min`, and how many
/// of each severity it left out below that.
pub struct Checked {
    pub findings: Vec<Finding>,
    pub below_min: [usize; 3],
}

/// Which findings a check reports, beyond their severity.
#[derive(Debug, Default)]
pub struct Rules {
    /// The distribution whose install decision makes guard findings count
    /// (`--trust`): a skill it would refuse has its guard findings raised to
    /// errors, with the refusal. Without it they are informational.
    pub trust: Option<&'static str>,
    /// Only findings of these rules (`--select`); a rule ending in `-` or `*`
    /// is a prefix (`guard-`).
    pub select: Vec<String>,
    /// Never findings of these rules (`--ignore`), prefixes likewise.
    pub ignore: Vec<String>,
}

impl Rules {
    fn matches(pattern: &str, rule: &str) -> bool {
        match pattern.strip_suffix('*') {
            Some(prefix) => rule.starts_with(prefix),
            None if pattern.ends_with('-') => rule.starts_with(pattern),
            None => rule == pattern,
        }
    }

    /// Whether a finding of `rule` is reported.
    pub fn reports(&self, rule: &str) -> bool {
        (self.select.is_empty() || self.select.iter().any(|p| Rules::matches(p, rule)))
            && !self.ignore.iter().any(|p| Rules::matches(p, rule))
    }
}

/// The rule of the finding a refused install adds.
pub const INSTALL_BLOCKED: &str = "guard-install-blocked";

/// Raises the guard findings of every skill an install at `trust` would
/// refuse to errors, and adds the refusal with Hermes' reason. Each skill
/// folder is scanned as Hermes' guard does (`skillscope scan`).
fn apply_install_decision(engine: &Engine, catalog: &Catalog, trust: &'static str, all: &mut Vec<Finding>) {
    let skills: Vec<usize> = (0..catalog.skills.len()).filter(|&i| catalog.skills[i].db_row.is_none()).collect();
    let refused = crate::engine::parallel_map(&skills, |&i| {
        let skill = &catalog.skills[i];
        let decision = crate::engine::scan::scan_at(&skill.skill_dir, trust).decision(false);
        (decision.allowed != Some(true)).then_some((i, decision.reason))
    });
    let refused: std::collections::HashMap<usize, String> = refused.into_iter().flatten().collect();
    if refused.is_empty() {
        return;
    }
    for f in all.iter_mut() {
        if f.rule.starts_with(GUARD_FAMILY) && f.skill.is_some_and(|i| refused.contains_key(&i)) {
            f.severity = Severity::Error;
        }
    }
    let roots = engine.diagnostic_roots(catalog);
    for (&i, reason) in &refused {
        let skill = &catalog.skills[i];
        let path: std::sync::Arc<std::path::Path> = skill.skill_md.as_path().into();
        all.push(Finding {
            rule: INSTALL_BLOCKED.into(),
            severity: Severity::Error,
            skill: Some(i),
            skill_name: Some(skill.name.as_str().into()),
            skill_md: Some(path.clone()),
            rel_path: crate::engine::diagnostics::relative(&path, &roots),
            path,
            line: None,
            message: format!("a hub install as {trust} is refused: {reason}"),
            hint: "`skillscope scan` shows Hermes' report for this skill; rephrase or remove what it flags, or add it to the skill's .skillignore if it is not part of the installed skill.".into(),
        });
    }
}

/// The findings for the named skills (name, folder or categorized path) and
/// bundles (`/slug`), or for the whole home, at or above `min`, as `rules` say.
pub fn findings(
    engine: &Engine,
    layered: Layered,
    names: &[String],
    min: Severity,
    rules: &Rules,
) -> Result<Checked, String> {
    crate::engine::diagnostics::guard::prepare_in_background();
    // A whole-home check drops what is below `min` as it goes; one for some
    // names keeps all until the other skills' findings are set aside, so
    // that what it leaves out is counted for those names alone. Guard
    // findings an install decision may raise are kept too.
    let keep = if names.is_empty() && rules.trust.is_none() { min } else { Severity::Info };
    let progress = Progress::default();
    let (catalog, mut all) = with_progress(&progress, || match layered {
        Some((layers, db)) => engine.check_layered_with(layers, db, &progress, keep),
        None => engine.checked_catalog_with(&progress, keep),
    });
    if let Some(trust) = rules.trust {
        apply_install_decision(engine, &catalog, trust, &mut all);
    }
    all.retain(|f| rules.reports(&f.rule));
    if !names.is_empty() {
        let mut keep_skills = Vec::new();
        let mut keep_bundles = Vec::new();
        for n in names {
            if n.starts_with('/') {
                let b = catalog.bundles.bundles.get(n).ok_or_else(|| format!("no bundle {n}"))?;
                keep_bundles.push(b.path.clone());
                continue;
            }
            let matched: Vec<usize> = catalog
                .skills
                .iter()
                .enumerate()
                .filter(|(_, s)| {
                    // A database skill has no folder: only its name matches.
                    let Some(dir) = s.skill_dir.file_name().map(|d| d.to_string_lossy().into_owned()) else {
                        return s.name == *n;
                    };
                    let path = format!("{}/{dir}", s.category_path());
                    s.name == *n || dir == *n || path.trim_start_matches('/') == n.trim_matches('/')
                })
                .map(|(i, _)| i)
                .collect();
            if matched.is_empty() {
                return Err(format!("no skill named {n}"));
            }
            keep_skills.extend(matched);
        }
        all.retain(|f| {
            f.skill.is_some_and(|s| keep_skills.contains(&s))
                || keep_bundles.iter().any(|b: &std::path::PathBuf| b.as_path() == &*f.path)
        });
    }
    let mut below_min = [Severity::Info, Severity::Warning, Severity::Error].map(|s| progress.dropped(s));
    all.retain(|f| {
        let keep = f.severity >= min;
        if !keep {
            below_min[f.severity.index()] += 1;
        }
        keep
    });
    all.sort_by(|a, b| (&a.rel_path, a.line, &a.rule).cmp(&(&b.rel_path, b.line, &b.rule)));
    Ok(Checked { findings: all, below_min })
}

/// Findings as a JSON array, each built when it is written.
struct FindingsJson<'a>(&'a [Finding]);

impl serde::Serialize for FindingsJson<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(|f| f.to_json()))
    }
}

/// How long a check runs before a progress bar is worth drawing.
const PROGRESS_AFTER: Duration = Duration::from_millis(300);

/// Runs `work`, drawing its `progress` as a bar on stderr while it runs when stderr
/// is a terminal (nothing when it is piped, nothing for a quick check).
fn with_progress<T>(progress: &Progress, work: impl FnOnce() -> T) -> T {
    if !std::io::stderr().is_terminal() {
        return work();
    }
    let finished = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let drawer = scope.spawn(|| {
            std::thread::park_timeout(PROGRESS_AFTER);
            if finished.load(Ordering::Relaxed) {
                return;
            }
            // The home is walked and checked at once: how many skills there
            // are is known only at the end, so the count is shown alone.
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            let style = ProgressStyle::with_template("{spinner} checking: {pos} skills so far, {elapsed}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner());
            bar.set_style(style);
            while !finished.load(Ordering::Relaxed) {
                bar.set_position(progress.done() as u64);
                bar.tick();
                std::thread::park_timeout(Duration::from_millis(100));
            }
            bar.finish_and_clear();
        });
        let out = work();
        finished.store(true, Ordering::Relaxed);
        // Wake the drawer: the check does not wait out its sleep.
        drawer.thread().unpark();
        out
    })
}

pub fn run(
    engine: &Engine,
    layered: Layered,
    names: &[String],
    min: Severity,
    rules: &Rules,
    json: bool,
    out: &mut Out,
) -> io::Result<i32> {
    let Checked { findings: all, below_min } = match findings(engine, layered, names, min, rules) {
        Ok(checked) => checked,
        Err(e) => {
            eprintln!("skillscope: {e}");
            return Ok(EXIT_USAGE);
        }
    };
    let code = if all.is_empty() { EXIT_OK } else { EXIT_ANSWER_ERROR };
    if json {
        // One finding's JSON at a time: a big home has tens of thousands.
        serde_json::to_writer_pretty(&mut *out, &FindingsJson(&all))?;
        writeln!(out)?;
        return Ok(code);
    }
    let mut last_path = "";
    for f in &all {
        if *f.rel_path != *last_path {
            if !last_path.is_empty() {
                writeln!(out)?;
            }
            writeln!(out, "{}", clean_line(&f.rel_path))?;
            last_path = &f.rel_path;
        }
        let at = f.line.map_or_else(|| "-".to_owned(), |l| l.to_string());
        writeln!(
            out,
            "  {}:{at}: {} [{}] {}",
            clean_line(&f.rel_path),
            f.severity.name(),
            f.rule,
            clean_line(&f.message)
        )?;
        writeln!(out, "      hint: {}", clean_line(&f.hint))?;
    }
    let count = |s: Severity| all.iter().filter(|f| f.severity == s).count() + below_min[s.index()];
    if !all.is_empty() {
        writeln!(out)?;
    }
    writeln!(
        out,
        "{}, {}, {} info; showing {} at or above {}",
        crate::engine::words::count_s(count(Severity::Error) as u64, "error"),
        crate::engine::words::count_s(count(Severity::Warning) as u64, "warning"),
        count(Severity::Info),
        all.len(),
        min.name()
    )?;
    Ok(code)
}
