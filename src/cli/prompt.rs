//! `skillscope prompt`: the system-prompt skills index.

use super::output::{print_json, Out};
use super::{CacheArg, EXIT_ANSWER_ERROR, EXIT_OK};
use crate::engine::gates::ToolAvailability;
use crate::engine::prompt::PromptCache;
use crate::engine::Engine;
use crate::sanitize::clean;
use serde_json::json;
use std::collections::HashSet;
use std::io;

fn to_set(items: Option<Vec<String>>) -> Option<HashSet<String>> {
    items.map(|v| v.into_iter().map(|s| s.trim().to_owned()).filter(|s| !s.is_empty()).collect())
}

pub fn run(
    engine: &Engine,
    tools: Option<Vec<String>>,
    toolsets: Option<Vec<String>>,
    cache: CacheArg,
    json: bool,
    out: &mut Out,
) -> io::Result<i32> {
    let avail = ToolAvailability { tools: to_set(tools), toolsets: to_set(toolsets) };
    let cache = match cache {
        CacheArg::Auto => PromptCache::Auto,
        CacheArg::Cold => PromptCache::Cold,
        CacheArg::Warm => PromptCache::Warm,
    };
    match engine.system_prompt(&avail, cache) {
        Ok(text) if json => print_json(out, &json!(text)).map(|_| EXIT_OK),
        Ok(text) => writeln!(out, "{}", clean(&text)).map(|_| EXIT_OK),
        Err(e) => {
            eprintln!("skillscope: Hermes fails to build the skills index: {e}");
            Ok(EXIT_ANSWER_ERROR)
        }
    }
}
