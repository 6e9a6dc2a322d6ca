//! `skillscope list --json` and `skillscope check --json`, the whole
//! process, warm page cache, on generated homes of 1,000, 10,000 and
//! 100,000 skills (`SKILLSCOPE_BENCH_TIERS=1000,10000` picks tiers).
//! Budgets: `list` under 100 ms (median) at 10,000 skills; `check` within
//! 3× the time of `list` and 2× its peak memory on the same home.
//! `lifecycle --json` and `check --trust community --json` are timed
//! against `list` too (no budget: reported).
//!
//! `check --json` on the real skills of `tests/corpus` is timed too: there
//! the guard reading every file is most of it (budget 0.5 s).
//!
//! Run with `cargo bench --bench list`. The homes come from
//! `benches/gen_skills.py` and are kept in `target/bench-homes/`.
//! With a Hermes 0.19.0 venv (`$HERMES_VENV`, else `target/hermes-venv`, as
//! `tests/golden/regen.py` creates it), Hermes' in-process `skills_list()` is
//! timed on the 10,000-skill home for comparison.

mod common;

use common::{bench_home, corpus, ms, repo, run_measured, tiers};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

const LIST_BUDGET: Duration = Duration::from_millis(100);

/// `check --json` on the corpus's 223 real skills.
const CORPUS_CHECK_BUDGET: Duration = Duration::from_millis(500);

/// A home whose `skills/` holds a copy of the corpus, made once.
fn corpus_home() -> PathBuf {
    let home = repo().join("target/bench-homes/corpus");
    if !home.join("skills").is_dir() {
        std::fs::create_dir_all(&home).expect("bench home");
        let copied = Command::new("cp").arg("-r").arg(corpus()).arg(home.join("skills")).status();
        assert!(copied.is_ok_and(|s| s.success()), "copying the corpus");
    }
    home
}

/// Median time and the largest peak memory (KiB) of `runs` runs of a command.
fn measure(home: &Path, command: &[&str], runs: usize) -> (Duration, u64) {
    let once = || {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_skillscope"));
        cmd.args(command).args(["--json", "--home"]).arg(home);
        let (t, rss, ok) = run_measured(&mut cmd);
        assert!(ok, "skillscope {command:?} failed");
        (t, rss)
    };
    once(); // warm the page cache
    let mut results: Vec<(Duration, u64)> = (0..runs).map(|_| once()).collect();
    let peak = results.iter().map(|r| r.1).max().unwrap_or(0);
    results.sort();
    (results[runs / 2].0, peak)
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
    let (check, _) = measure(&corpus_home(), &["check"], 5);
    println!(
        "corpus (223 real skills): check --json median {:.0} ms (budget {} ms: {})",
        ms(check),
        CORPUS_CHECK_BUDGET.as_millis(),
        if check <= CORPUS_CHECK_BUDGET { "within" } else { "OVER" }
    );
    for skills in tiers() {
        let home = bench_home(skills);
        let runs = if skills >= 100_000 { 3 } else { 11 };
        let (list, list_mem) = measure(&home, &["list"], runs);
        let (check, check_mem) = measure(&home, &["check"], runs.min(5));
        let budget = if skills == 10_000 {
            format!(" (budget {} ms: {})", LIST_BUDGET.as_millis(), if list < LIST_BUDGET { "within" } else { "OVER" })
        } else {
            String::new()
        };
        println!("{skills} skills: list --json median {:.0} ms, peak {} MiB{budget}", ms(list), list_mem / 1024);
        let (time_ratio, mem_ratio) = (check.as_secs_f64() / list.as_secs_f64(), check_mem as f64 / list_mem as f64);
        println!(
            "{skills} skills: check --json median {:.0} ms ({time_ratio:.1}x list, budget 3x: {}), peak {} MiB ({mem_ratio:.1}x list, budget 2x: {})",
            ms(check),
            if time_ratio <= 3.0 { "within" } else { "OVER" },
            check_mem / 1024,
            if mem_ratio <= 2.0 { "within" } else { "OVER" },
        );
        for command in [&["lifecycle"][..], &["check", "--trust", "community"]] {
            let (t, mem) = measure(&home, command, runs.min(5));
            println!(
                "{skills} skills: {} --json median {:.0} ms ({:.1}x list), peak {} MiB",
                command.join(" "),
                ms(t),
                t.as_secs_f64() / list.as_secs_f64(),
                mem / 1024
            );
        }
        if skills == 10_000 {
            match hermes_in_process(&home) {
                Some(h) => println!(
                    "{skills} skills: Hermes 0.19.0 skills_list() in-process: {:.1} ms, {:.1}x skillscope's whole process",
                    ms(h),
                    h.as_secs_f64() / list.as_secs_f64()
                ),
                None => println!("Hermes not timed: no venv at $HERMES_VENV or target/hermes-venv"),
            }
        }
    }
}
