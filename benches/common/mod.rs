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
