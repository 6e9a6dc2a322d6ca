//! What the benchmarks share: where the repository and the shared material
//! are, and the generated homes they time.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The real-skills corpus kept in the repository.
pub fn corpus() -> PathBuf {
    repo().join("tests/corpus")
}

/// Writes a home of `n` generated skills at `home` with `gen_skills.py`.
pub fn generate(home: &Path, n: usize, seed: Option<u64>) {
    let mut cmd = Command::new("python3");
    cmd.arg(repo().join("benches/gen_skills.py")).arg(home).arg(n.to_string());
    if let Some(seed) = seed {
        cmd.args(["--seed", &seed.to_string()]);
    }
    let ok = cmd.status().map(|s| s.success()).unwrap_or(false);
    assert!(ok, "benches/gen_skills.py failed (python3 needed)");
}

/// A generated home of `n` skills, kept in `target/bench-homes/<n>`.
pub fn bench_home(n: usize) -> PathBuf {
    let home = repo().join(format!("target/bench-homes/{n}"));
    if !home.join("skills").is_dir() {
        generate(&home, n, None);
    }
    home
}

pub fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// The tiers to measure: `SKILLSCOPE_BENCH_TIERS` (comma-separated skill
/// counts), else 1,000, 10,000 and 100,000 skills.
pub fn tiers() -> Vec<usize> {
    std::env::var("SKILLSCOPE_BENCH_TIERS")
        .ok()
        .map(|v| v.split(',').filter_map(|t| t.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![1_000, 10_000, 100_000])
}

/// Runs a command to its end with its output discarded: its wall time,
/// its peak resident memory in KiB, and whether it exited with 0 or 1.
pub fn run_measured(cmd: &mut Command) -> (Duration, u64, bool) {
    use std::process::Stdio;
    let start = std::time::Instant::now();
    // Reaped by wait4 below, which also gives its resource usage.
    #[allow(clippy::zombie_processes)]
    let child = cmd.stdout(Stdio::null()).stderr(Stdio::null()).spawn().expect("spawn");
    let mut status = 0;
    // SAFETY: rusage is plain data, zeroed, then filled by wait4 for our child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = child.id() as libc::pid_t;
    // SAFETY: waits for the child just spawned; both pointers are valid.
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    let elapsed = start.elapsed();
    assert_eq!(waited, pid, "wait4");
    let code = libc::WEXITSTATUS(status);
    (elapsed, usage.ru_maxrss as u64, libc::WIFEXITED(status) && code <= 1)
}
