//! `skillscope check`: diagnostics for authors.

use super::output::Out;
use super::{Layered, EXIT_ANSWER_ERROR, EXIT_OK, EXIT_USAGE};
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

/// The findings for the named skills (name, folder or categorized path) and
/// bundles (`/slug`), or for the whole home, at or above `min`.
pub fn findings(engine: &Engine, layered: Layered, names: &[String], min: Severity) -> Result<Checked, String> {
    crate::engine::diagnostics::guard::prepare_in_background();
    // A whole-home check drops what is below `min` as it goes; one for some
    // names keeps all until the other skills' findings are set aside, so
    // that what it leaves out is counted for those names alone.
    let keep = if names.is_empty() { min } else { Severity::Info };
    let progress = Progress::default();
    let (catalog, mut all) = with_progress(&progress, || match layered {
        Some((layers, db)) => engine.check_layered_with(layers, db, &progress, keep),
        None => engine.checked_catalog_with(&progress, keep),
    });
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
    json: bool,
    out: &mut Out,
) -> io::Result<i32> {
    let Checked { findings: all, below_min } = match findings(engine, layered, names, min) {
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
        "{} errors, {} warnings, {} info; showing {} at or above {}",
        count(Severity::Error),
        count(Severity::Warning),
        count(Severity::Info),
        all.len(),
        min.name()
    )?;
    Ok(code)
}
