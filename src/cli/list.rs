//! `skillscope list`: skills_list.

use super::output::{print_json, print_table, status_of, text, Out};
use crate::engine::Engine;
use serde_json::Value as Json;
use std::io;

pub fn run(engine: &Engine, category: Option<&str>, json: bool, out: &mut Out) -> io::Result<i32> {
    let answer = engine.skills_list(category);
    if json {
        print_json(out, &answer)?;
        return Ok(status_of(&answer));
    }
    if let Some(err) = answer.get("error") {
        writeln!(out, "error: {}", text(err))?;
        return Ok(status_of(&answer));
    }
    let skills = answer.get("skills").and_then(Json::as_array).cloned().unwrap_or_default();
    if skills.is_empty() {
        writeln!(out, "{}", answer.get("message").map(text).unwrap_or_default())?;
        return Ok(status_of(&answer));
    }
    let rows: Vec<Vec<String>> = skills
        .iter()
        .map(|s| {
            vec![
                text(&s["name"]),
                s.get("category").filter(|c| !c.is_null()).map(text).unwrap_or_else(|| "-".into()),
                text(&s["description"]),
            ]
        })
        .collect();
    print_table(out, &["NAME", "CATEGORY", "DESCRIPTION"], &rows)?;
    writeln!(out, "\n{} skills", skills.len())?;
    Ok(status_of(&answer))
}
