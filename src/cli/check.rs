//! `skillscope check`: diagnostics for authors.

use super::output::Out;
use super::{Layered, EXIT_ANSWER_ERROR, EXIT_OK, EXIT_USAGE};
use crate::engine::check::format::{self, Format};
use crate::engine::check::run::{report, resolve, Overrides};
use crate::engine::check::Progress;
use crate::engine::Engine;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::{self, IsTerminal};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// `check`'s arguments besides the home.
#[derive(Debug, Default)]
pub struct CheckArgs {
    /// Skills (name, folder or category/skill) or bundles (`/slug`).
    pub names: Vec<String>,
    /// The flags over the settings file.
    pub overrides: Overrides,
    pub format: Option<Format>,
    /// `--max-chars`: a markdown comment's limit.
    pub comment_limit: Option<usize>,
    /// `--exit-zero`: exit 0 whatever is found.
    pub exit_zero: bool,
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

/// `check --list-rules`: every rule with its code and default severity.
pub fn list_rules(json: bool, out: &mut Out) -> io::Result<i32> {
    let all = crate::engine::diagnostics::rules::all();
    if json {
        let rows: Vec<serde_json::Value> = all
            .iter()
            .map(|r| {
                serde_json::json!({"code": r.code, "name": r.name, "severity": r.severity.name(), "title": r.title, "hint": r.hint})
            })
            .collect();
        serde_json::to_writer_pretty(&mut *out, &rows)?;
        writeln!(out)?;
        return Ok(EXIT_OK);
    }
    let rows: Vec<Vec<String>> = all
        .iter()
        .map(|r| vec![r.code.clone(), r.name.clone(), r.severity.name().to_owned(), r.title.clone()])
        .collect();
    super::output::print_table(out, &["CODE", "RULE", "SEVERITY", "FINDS"], &rows)?;
    Ok(EXIT_OK)
}

pub fn run(
    engine: &Engine,
    layered: Layered,
    checked: &Path,
    args: &CheckArgs,
    json: bool,
    out: &mut Out,
) -> io::Result<i32> {
    let resolved = match resolve(&args.overrides, checked) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("skillscope: {e}");
            return Ok(EXIT_USAGE);
        }
    };
    let progress = Progress::default();
    let report = match with_progress(&progress, || report(engine, layered, &args.names, &resolved, &progress)) {
        Ok(report) => report,
        Err(e) => {
            eprintln!("skillscope: {e}");
            return Ok(EXIT_USAGE);
        }
    };
    let format = args.format.unwrap_or(if json { Format::Json } else { Format::Text });
    let paths = format::Paths::for_checked(checked);
    let code = if report.findings.is_empty() || args.exit_zero { EXIT_OK } else { EXIT_ANSWER_ERROR };
    super::output::verdict(format::write(&report, format, &paths, args.comment_limit, out), code)
}
