//! `skillscope commands`: the slash-command map.

use super::output::{print_json, print_table, text, Out};
use super::EXIT_OK;
use crate::engine::Engine;
use serde_json::{json, Value as Json};
use std::io;

pub fn run(engine: &Engine, json: bool, out: &mut Out) -> io::Result<i32> {
    let commands = engine.skill_commands();
    if json {
        let pairs: Vec<Json> = commands.iter().map(|(k, c)| json!([k, c.to_json()])).collect();
        print_json(out, &Json::Array(pairs))?;
        return Ok(EXIT_OK);
    }
    let rows: Vec<Vec<String>> =
        commands.iter().map(|(k, c)| vec![k.clone(), c.name.clone(), text(&c.description.to_json())]).collect();
    print_table(out, &["COMMAND", "SKILL", "DESCRIPTION"], &rows)?;
    writeln!(out, "\n{}", crate::engine::words::count_s(commands.len() as u64, "command"))?;
    Ok(EXIT_OK)
}
