//! What the benchmarks share: where the repository and the shared material
//! are, and the generated homes they time.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `../shared` (or `$SKILLSCOPE_SHARED`).
pub fn shared() -> PathBuf {
    std::env::var_os("SKILLSCOPE_SHARED").map(PathBuf::from).unwrap_or_else(|| repo().join("../shared"))
}

/// Writes a home of `n` generated skills at `home` with `gen_skills.py`.
pub fn generate(home: &Path, n: usize, seed: Option<u64>) {
    let mut cmd = Command::new("python3");
    cmd.arg(shared().join("bench/gen_skills.py")).arg(home).arg(n.to_string());
    if let Some(seed) = seed {
        cmd.args(["--seed", &seed.to_string()]);
    }
    let ok = cmd.status().map(|s| s.success()).unwrap_or(false);
    assert!(ok, "gen_skills.py failed (python3 and {} needed)", shared().display());
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
