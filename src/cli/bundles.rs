//! `skillscope bundles`: get_skill_bundles.

use super::output::{print_json, print_table, Out};
use super::EXIT_OK;
use crate::engine::messages::MemberStatus;
use crate::engine::Engine;
use crate::sanitize::clean;
use std::io;

pub fn run(engine: &Engine, json: bool, out: &mut Out) -> io::Result<i32> {
    let set = engine.bundles();
    if json {
        print_json(out, &set.to_json())?;
        return Ok(EXIT_OK);
    }
    // Each member as the bundle's message takes it: one skill_view skips
    // is marked so.
    let context = crate::engine::context::Context::new(engine);
    let members = |b: &crate::engine::bundles::Bundle| -> String {
        let statuses = context.bundle_members(b);
        let marked: Vec<String> = statuses
            .iter()
            .map(|(id, status)| match status {
                MemberStatus::Loaded(_) => id.clone(),
                MemberStatus::Missing(_) => format!("{id} (missing)"),
                MemberStatus::Disabled(_) => format!("{id} (disabled)"),
            })
            .collect();
        marked.join(", ")
    };
    let rows: Vec<Vec<String>> =
        set.bundles.iter().map(|(k, b)| vec![k.clone(), b.name.clone(), members(b), b.description.clone()]).collect();
    print_table(out, &["COMMAND", "NAME", "SKILLS", "DESCRIPTION"], &rows)?;
    let dir = engine.home.bundles_dir(&engine.env);
    let bundles = crate::engine::words::count_s(set.bundles.len() as u64, "bundle");
    writeln!(out, "\n{bundles} in {}", clean(&dir.display().to_string()))?;
    for p in &set.problems {
        writeln!(out, "skipped {}: {}", clean(&p.path.display().to_string()), clean(&p.reason))?;
    }
    Ok(EXIT_OK)
}
