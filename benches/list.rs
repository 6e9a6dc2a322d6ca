//! `skillscope list --json` on a 10,000-skill home, the whole process, warm
//! page cache. Budget: under 100 ms wall (median).
//!
//! Run with `cargo bench --bench list`. The home comes from
//! `benches/gen_skills.py` and is kept in `target/bench-homes/`.
//! With a Hermes 0.19.0 venv (`$HERMES_VENV`, else `target/hermes-venv`, as
//! `tests/golden/regen.py` creates it), Hermes' in-process `skills_list()` is
//! timed on the same home for comparison.

mod common;

use common::{bench_home, ms, repo};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const SKILLS: usize = 10_000;
const RUNS: usize = 15;
const BUDGET: Duration = Duration::from_millis(100);

fn time_once(home: &Path) -> Duration {
    let start = Instant::now();
    let status = Command::new(env!("CARGO_BIN_EXE_skillscope"))
        .args(["list", "--json", "--home"])
        .arg(home)
        .stdout(Stdio::null())
        .status()
        .expect("skillscope runs");
    let elapsed = start.elapsed();
    assert!(status.success());
    elapsed
}

/// Hermes' `skills_list()` timed inside one Python process (the import is
/// not counted), best of three.
fn hermes_in_process(home: &Path) -> Option<Duration> {
    let venv = std::env::var_os("HERMES_VENV").map(PathBuf::from).unwrap_or_else(|| repo().join("target/hermes-venv"));
    let python = venv.join("bin/python");
    if !python.exists() {
        return None;
    }
    let script = "import time, tools.skills_tool as t\n\
                  best = 1e9\n\
                  for _ in range(3):\n    t._SKILLS_CACHE.clear()\n    s = time.perf_counter(); t.skills_list(); best = min(best, time.perf_counter() - s)\n\
                  print(best)";
    let out = Command::new(python)
        .args(["-c", script])
        .env("HERMES_HOME", home)
        .env("HOME", home.join("fakehome"))
        .env("TERMINAL_ENV", "local")
        .stderr(Stdio::null())
        .output()
        .ok()?;
    let secs: f64 = String::from_utf8_lossy(&out.stdout).trim().parse().ok()?;
    Some(Duration::from_secs_f64(secs))
}

fn main() {
    let home = bench_home(SKILLS);
    for _ in 0..3 {
        time_once(&home); // warm the page cache
    }
    let mut times: Vec<Duration> = (0..RUNS).map(|_| time_once(&home)).collect();
    times.sort();
    let median = times[RUNS / 2];
    println!(
        "skillscope list --json, {SKILLS} skills, {RUNS} runs: min {:.1} ms, median {:.1} ms, max {:.1} ms",
        ms(times[0]),
        ms(median),
        ms(times[RUNS - 1])
    );
    let verdict = if median < BUDGET { "within" } else { "OVER" };
    println!("budget {} ms (median, whole process): {verdict}", BUDGET.as_millis());
    match hermes_in_process(&home) {
        Some(h) => println!(
            "Hermes 0.19.0 skills_list() in-process, same home: {:.1} ms, {:.1}x skillscope's whole process",
            ms(h),
            h.as_secs_f64() / median.as_secs_f64()
        ),
        None => println!("Hermes not timed: no venv at $HERMES_VENV or target/hermes-venv"),
    }
}
