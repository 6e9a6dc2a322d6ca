//! `skillscope list`: skills_list.

use super::output::{print_json, print_table, status_of, text, Out};
use super::Layered;
use crate::engine::Engine;
use crate::sanitize::clean_line;
use serde_json::Value as Json;
use std::io;

pub fn run(engine: &Engine, layered: Layered, category: Option<&str>, json: bool, out: &mut Out) -> io::Result<i32> {
    let answer = match layered {
        Some((layers, db)) => engine.layered_list(layers, db, category),
        None => engine.skills_list(category),
    };
    if json {
        print_json(out, &answer)?;
        return Ok(status_of(&answer));
    }
    if let Some(err) = answer.get("error") {
        writeln!(out, "error: {}", clean_line(&text(err)))?;
        return Ok(status_of(&answer));
    }
    let skills = answer.get("skills").and_then(Json::as_array).cloned().unwrap_or_default();
    if skills.is_empty() && layered.is_none() && !crate::engine::paths::exists(&engine.home.skills_dir) {
        // Hermes says it created the folder; skillscope creates nothing.
        let dir = crate::engine::paths::path_string(&engine.home.skills_dir);
        writeln!(out, "No skills folder: Hermes would create {dir}/ on its first run.")?;
        if !engine.home.external_dirs.is_empty() {
            writeln!(out, "Until it exists, skills_list lists nothing, not even the skills of external dirs.")?;
        }
        return Ok(status_of(&answer));
    }
    if skills.is_empty() {
        let message = answer.get("message").map(text).unwrap_or_default();
        match (message.is_empty(), category) {
            (false, _) => writeln!(out, "{message}")?,
            // skills_list compares a skill's top-level category only.
            (true, Some(c)) if c.contains('/') => {
                let top = c.split('/').next().unwrap_or_default();
                let top = clean_line(top);
                writeln!(
                    out,
                    "0 skills in category `{}`: skills_list filters by the top-level category (try `{top}`)",
                    clean_line(c)
                )?
            }
            (true, Some(c)) => {
                let all = match layered {
                    Some((layers, db)) => engine.layered_list(layers, db, None),
                    None => engine.skills_list(None),
                };
                writeln!(out, "0 skills in category `{}`{}", clean_line(c), categories_named(&all))?
            }
            (true, None) => writeln!(out, "0 skills")?,
        }
        return Ok(status_of(&answer));
    }
    let layered = layered.is_some();
    let rows: Vec<Vec<String>> = skills
        .iter()
        .map(|s| {
            let mut row = vec![
                text(&s["name"]),
                s.get("category").filter(|c| !c.is_null()).map(text).unwrap_or_else(|| "-".into()),
                text(&s["description"]),
            ];
            if layered {
                row.insert(1, text(&s["source"]));
            }
            row
        })
        .collect();
    let header: &[&str] =
        if layered { &["NAME", "SOURCE", "CATEGORY", "DESCRIPTION"] } else { &["NAME", "CATEGORY", "DESCRIPTION"] };
    print_table(out, header, &rows)?;
    writeln!(out, "\n{}", crate::engine::words::count_s(skills.len() as u64, "skill"))?;
    Ok(status_of(&answer))
}

/// The categories an unfiltered answer lists, for a filter that matched
/// none: ` (categories: a, b, c)`, the first twenty; empty where there are none.
fn categories_named(all: &Json) -> String {
    let skills = all.get("skills").and_then(Json::as_array).map(Vec::as_slice).unwrap_or_default();
    let mut categories: Vec<String> =
        skills.iter().filter_map(|s| s.get("category").filter(|c| !c.is_null()).map(text)).collect();
    categories.sort();
    categories.dedup();
    if categories.is_empty() {
        return String::new();
    }
    const NAMED: usize = 20;
    let more = categories.len().saturating_sub(NAMED);
    let named: Vec<String> = categories.iter().take(NAMED).map(|c| clean_line(c)).collect();
    let more = if more > 0 { format!(" and {more} more") } else { String::new() };
    format!(" (categories: {}{more})", named.join(", "))
}
