//! `skillscope mounts`: where the skill roots appear inside a sandbox.

use super::output::{print_json, print_table, Out};
use super::EXIT_OK;
use crate::engine::Engine;
use crate::sanitize::clean_line;
use serde_json::Value as Json;
use std::io;

pub fn run(engine: &Engine, json: bool, out: &mut Out) -> io::Result<i32> {
    let mounts = engine.backend_mounts();
    if json {
        print_json(out, &Json::Array(mounts.iter().map(|m| m.to_json()).collect()))?;
        return Ok(EXIT_OK);
    }
    let rows: Vec<Vec<String>> =
        mounts.iter().map(|m| vec![m.container_path.clone(), m.host_path.display().to_string()]).collect();
    let backend = engine.options.backend;
    if !backend.is_remote() {
        writeln!(out, "local backend: nothing is mounted; this is the table Hermes builds for container backends\n")?;
    }
    print_table(out, &["SANDBOX PATH", "HOST PATH"], &rows)?;
    for m in mounts.iter().filter(|m| !m.symlinks.is_empty()) {
        writeln!(
            out,
            "\n{} holds {} symlink(s): Hermes mounts a copy without them, so files reached through them are missing in the sandbox:",
            clean_line(&m.host_path.display().to_string()),
            m.symlinks.len()
        )?;
        for s in &m.symlinks {
            writeln!(out, "  {}", clean_line(&s.display().to_string()))?;
        }
    }
    Ok(EXIT_OK)
}
