//! `skillscope scan`: the skills guard as a hub install runs it, with the
//! install decision for a source or trust level.

use super::output::Out;
use super::{EXIT_ANSWER_ERROR, EXIT_OK, EXIT_USAGE};
use crate::engine::scan::{self, Origin};
use crate::engine::Engine;
use serde_json::json;
use std::io;
use std::path::{Path, PathBuf};

/// The folder a `scan NAME` means in `engine`'s home: a skill's name, its
/// folder's name, or `category/folder`.
pub fn skill_folder(engine: &Engine, name: &str) -> Result<PathBuf, NoSuchSkill> {
    let catalog = engine.lean_catalog();
    let wanted = name.trim_matches('/');
    let found = catalog.skills.iter().filter(|s| s.db_row.is_none()).find(|s| {
        let dir = s.skill_dir.file_name().map(|d| d.to_string_lossy().into_owned()).unwrap_or_default();
        let path = format!("{}/{dir}", s.category_path());
        s.name == name || dir == wanted || path.trim_start_matches('/') == wanted
    });
    found.map(|s| s.skill_dir.clone()).ok_or_else(|| NoSuchSkill(name.to_owned()))
}

/// A `scan NAME` that names no skill folder of the home.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("no skill named {} (give a path to scan a folder)", crate::sanitize::clean_line(.0))]
pub struct NoSuchSkill(pub String);

/// Findings a scan prints without `--all`.
pub const SHOWN_FINDINGS: usize = 50;

/// Prints the scan (Hermes' report, or `--json`); exit status 1 when the
/// install would not go ahead (blocked, or waiting for a confirmation that
/// a script cannot give).
pub fn run(path: &Path, origin: &Origin, force: bool, all: bool, json: bool, out: &mut Out) -> io::Result<i32> {
    if !path.exists() {
        eprintln!("skillscope: {}: no such skill folder or file", crate::sanitize::clean_line(&path.to_string_lossy()));
        return Ok(EXIT_USAGE);
    }
    let mut result = scan::scan_skill(path, origin);
    // A folder of skills is scanned as one install of it would be.
    if path.is_dir() && !path.join("SKILL.md").exists() && crate::open::holds_skill_md(path) {
        result.notes.push(
            "this folder holds no SKILL.md of its own but skills below it: they are scanned together as one skill; pass one skill's folder to scan it alone".to_owned(),
        );
    }
    let decision = result.decision(force);
    if json {
        let doc = json!({
            "skill": result.skill,
            "source": result.source,
            "trust_level": result.trust_level,
            "verdict": result.error.is_none().then_some(result.verdict),
            "allowed": decision.allowed,
            "reason": decision.reason,
            "summary": result.summary(),
            "findings": result.findings,
            "error": result.error,
            "notes": result.notes,
        });
        serde_json::to_writer_pretty(&mut *out, &doc)?;
        writeln!(out)?;
    } else {
        match &result.error {
            Some(e) => {
                let line = format!("Scan: {} ({}/{})  {e}", result.skill, result.source, result.trust_level);
                writeln!(out, "{}", crate::sanitize::clean_line(&line))?
            }
            None => {
                let limit = (!all).then_some(SHOWN_FINDINGS);
                writeln!(out, "{}", crate::sanitize::clean(&result.report(limit)))?
            }
        }
        if force {
            writeln!(out, "With --force: {}", decision.reason)?;
        }
        for note in &result.notes {
            writeln!(out, "note: {}", crate::sanitize::clean_line(note))?;
        }
    }
    Ok(if decision.allowed == Some(true) { EXIT_OK } else { EXIT_ANSWER_ERROR })
}
