//! `skillscope view`, `invoke` and `preload`: what the agent reads.

use super::output::{print_json, status_of, text, Out};
use super::{Layered, EXIT_ANSWER_ERROR, EXIT_OK};
use crate::engine::context::Context;
use crate::engine::layers::Source;
use crate::engine::Engine;
use crate::sanitize::clean;
use serde_json::{json, Value as Json};
use std::io;

pub fn view(
    engine: &Engine,
    layered: Layered,
    only: Option<Source>,
    name: &str,
    file_path: Option<&str>,
    json: bool,
    out: &mut Out,
) -> io::Result<i32> {
    let session = Some(engine.options.session_id.as_str());
    let answer = match layered {
        Some((layers, db)) => engine.layered_view(layers, db, only, name, file_path, session),
        None => Context::new(engine).skill_view(name.into(), file_path, session, true),
    };
    if json {
        print_json(out, &answer)?;
        return Ok(status_of(&answer));
    }
    if status_of(&answer) != EXIT_OK {
        print_error(out, &answer)?;
        return Ok(status_of(&answer));
    }
    if answer.get("file").is_some() {
        writeln!(out, "{}", clean(&text(&answer["content"])))?;
        return Ok(EXIT_OK);
    }
    let field = |k: &str| answer.get(k).filter(|v| !v.is_null()).map(text);
    writeln!(out, "name:        {}", clean(&field("name").unwrap_or_default()))?;
    writeln!(out, "description: {}", clean(&field("description").unwrap_or_default()))?;
    writeln!(out, "path:        {}", clean(&field("path").unwrap_or_default()))?;
    if let Some(source) = field("source") {
        writeln!(out, "source:      {source}")?;
    }
    if let Some(dir) = field("skill_dir") {
        writeln!(out, "skill_dir:   {}", clean(&dir))?;
        let backend = engine.options.backend;
        let runtime = engine.runtime_path(std::path::Path::new(&dir));
        if backend.is_remote() {
            writeln!(out, "{:<13}{}", format!("in {backend}:"), clean(&runtime.path))?;
        }
        if let Some(reason) = runtime.unmapped {
            writeln!(out, "             {}", clean(&reason))?;
        }
        let missing = engine.files_missing_in_sandbox(std::path::Path::new(&dir));
        if !missing.is_empty() {
            writeln!(out, "not in the {backend} sandbox (reached through symlinks):")?;
            for f in missing {
                writeln!(out, "  {}", clean(&f.display().to_string()))?;
            }
        }
    }
    writeln!(out, "readiness:   {}", field("readiness_status").unwrap_or_default())?;
    if let Some(note) = field("setup_note") {
        writeln!(out, "setup:       {}", clean(&note))?;
    }
    for key in ["tags", "related_skills"] {
        let items: Vec<String> = answer[key].as_array().map(|a| a.iter().map(text).collect()).unwrap_or_default();
        if !items.is_empty() {
            writeln!(out, "{:<12} {}", format!("{key}:"), clean(&items.join(", ")))?;
        }
    }
    if let Some(Json::Object(groups)) = answer.get("linked_files") {
        writeln!(out, "linked files:")?;
        for (group, files) in groups {
            for f in files.as_array().into_iter().flatten() {
                writeln!(out, "  {group:<11} {}", clean(&text(f)))?;
            }
        }
    }
    writeln!(out, "\n{}", clean(&text(&answer["content"])))?;
    Ok(EXIT_OK)
}

fn print_error(out: &mut Out, answer: &Json) -> io::Result<()> {
    writeln!(out, "error: {}", clean(&answer.get("error").map(text).unwrap_or_default()))?;
    if let Some(matches) = answer.get("matches").and_then(Json::as_array) {
        for m in matches {
            writeln!(out, "  {}", clean(&text(m)))?;
        }
    }
    if let Some(skills) = answer.get("available_skills").and_then(Json::as_array) {
        let names: Vec<String> = skills.iter().map(text).collect();
        writeln!(out, "available: {}", clean(&names.join(", ")))?;
    }
    if let Some(Json::Object(files)) = answer.get("available_files") {
        for (group, list) in files {
            for f in list.as_array().into_iter().flatten() {
                writeln!(out, "  {group:<11} {}", clean(&text(f)))?;
            }
        }
    }
    if let Some(hint) = answer.get("hint") {
        writeln!(out, "hint: {}", clean(&text(hint)))?;
    }
    Ok(())
}

pub fn invoke(engine: &Engine, key: &str, instruction: &[String], json: bool, out: &mut Out) -> io::Result<i32> {
    let key = if key.starts_with('/') { key.to_owned() } else { format!("/{key}") };
    let line = std::iter::once(key.clone()).chain(instruction.iter().cloned()).collect::<Vec<_>>().join(" ");
    let context = Context::new(engine);
    let session = Some(engine.options.session_id.as_str());
    let message = context.dispatch(&line, session);
    let code = if message.is_some() { EXIT_OK } else { EXIT_ANSWER_ERROR };
    if json {
        print_json(out, &json!(message))?;
    } else {
        match &message {
            Some(m) => writeln!(out, "{}", clean(m))?,
            None => {
                let why = context.invocation_failure(&key, session).map(|w| format!(": {w}")).unwrap_or_default();
                let name = key.trim_start_matches('/');
                // `why` traces a skill of that name; for a command no skill
                // registers, the commands near it say more.
                let named = context.command(&key).is_some() || !context.candidates(name, None).is_empty();
                let hint = match named {
                    true => format!(" (`skillscope why {}` traces it)", crate::sanitize::clean_line(name)),
                    false => match closest_commands(&context, &key) {
                        near if near.is_empty() => " (`skillscope commands` lists them)".to_owned(),
                        near => format!(" (did you mean {}?)", near.join(", ")),
                    },
                };
                eprintln!(
                    "skillscope: Hermes builds no skill message for {}{}{hint}",
                    crate::sanitize::clean_line(&key),
                    crate::sanitize::clean_line(&why),
                );
            }
        }
    }
    Ok(code)
}

/// The slash commands nearest `key` (edit distance), at most three.
fn closest_commands(context: &Context, key: &str) -> Vec<String> {
    let wanted = key.to_lowercase();
    let mut near: Vec<(usize, &String)> = context
        .commands()
        .keys()
        .map(|k| (crate::engine::words::edit_distance(&wanted, &k.to_lowercase()), k))
        .filter(|(distance, k)| *distance <= (k.chars().count() / 3).max(2))
        .collect();
    near.sort();
    near.into_iter().take(3).map(|(_, k)| crate::sanitize::clean_line(k)).collect()
}

/// Splits `hermes -s a,b` style arguments: trimmed, no empties, no repeats.
pub fn split_names(names: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for part in names.iter().flat_map(|n| n.split(',')) {
        let part = part.trim();
        if !part.is_empty() && !out.iter().any(|o| o == part) {
            out.push(part.to_owned());
        }
    }
    out
}

pub fn preload(engine: &Engine, names: &[String], json: bool, out: &mut Out) -> io::Result<i32> {
    let ids = split_names(names);
    let (text, loaded, missing) = Context::new(engine).preloaded_prompt(&ids, Some(&engine.options.session_id));
    // Hermes refuses to start only when nothing at all could be loaded.
    let code = if loaded.is_empty() { EXIT_ANSWER_ERROR } else { EXIT_OK };
    if json {
        print_json(out, &json!([text, loaded, missing]))?;
    } else {
        if !text.is_empty() {
            writeln!(out, "{}", clean(&text))?;
        }
        match loaded.is_empty() {
            true => eprintln!("loaded: none (Hermes refuses to start a session with nothing preloaded)"),
            false => eprintln!("loaded: {}", clean(&loaded.join(", "))),
        }
        if !missing.is_empty() {
            eprintln!("missing: {}", clean(&missing.join(", ")));
        }
    }
    Ok(code)
}
