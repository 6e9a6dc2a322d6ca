//! `skillscope prompt`: the system-prompt skills index.

use super::output::{print_json, Out};
use super::{CacheArg, EXIT_ANSWER_ERROR, EXIT_OK};
use crate::engine::gates::ToolAvailability;
use crate::engine::posture::{self, CodingMode};
use crate::engine::prompt::{IndexRequest, PromptCache};
use crate::engine::Engine;
use crate::sanitize::clean;
use serde_json::json;
use std::collections::HashSet;
use std::io;
use std::path::PathBuf;

/// The posture the index is built for (`--posture`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum PostureArg {
    /// Hermes' default posture: no category demoted.
    Default,
    /// The opt-in focus mode: non-coding categories names-only in a code workspace.
    Focus,
}

/// What the index is built for: the flags `prompt` and `cost` share.
#[derive(Debug, Clone, clap::Args)]
pub struct IndexArgs {
    /// Enabled tool names, comma-separated (applies tool conditions)
    #[arg(long, value_delimiter = ',', num_args = 0..)]
    pub tools: Option<Vec<String>>,
    /// Enabled toolsets, comma-separated (applies toolset conditions)
    #[arg(long, value_delimiter = ',', num_args = 0..)]
    pub toolsets: Option<Vec<String>>,
    /// Which path Hermes takes: `auto` (its snapshot if valid), `cold`
    /// (first run after a change), `warm` (every later run)
    #[arg(long, value_enum, default_value_t = CacheArg::Auto)]
    pub cache: CacheArg,
    /// Categories shown names-only, comma-separated (over --posture)
    #[arg(long, value_delimiter = ',', num_args = 0..)]
    pub compact: Option<Vec<String>>,
    /// The posture whose categories are shown names-only (default: as
    /// config.yaml's `agent.coding_context` says for --cwd)
    #[arg(long, value_enum)]
    pub posture: Option<PostureArg>,
    /// The session's working directory, for the posture (default: this one)
    #[arg(long, value_name = "DIR")]
    pub cwd: Option<PathBuf>,
}

fn to_set(items: Option<&Vec<String>>) -> Option<HashSet<String>> {
    items.map(|v| v.iter().map(|s| s.trim().to_owned()).filter(|s| !s.is_empty()).collect())
}

impl IndexArgs {
    /// The index these flags ask for in `engine`'s home.
    pub fn request(&self, engine: &Engine) -> IndexRequest {
        let avail = ToolAvailability { tools: to_set(self.tools.as_ref()), toolsets: to_set(self.toolsets.as_ref()) };
        let cache = match self.cache {
            CacheArg::Auto => PromptCache::Auto,
            CacheArg::Cold => PromptCache::Cold,
            CacheArg::Warm => PromptCache::Warm,
        };
        let compact = match &self.compact {
            Some(names) => names.iter().map(|s| s.trim().to_owned()).filter(|s| !s.is_empty()).collect(),
            None => {
                let mode = self.posture.map(|p| match p {
                    PostureArg::Default => CodingMode::Auto,
                    PostureArg::Focus => CodingMode::Focus,
                });
                let cwd = self.cwd.clone().or_else(|| std::env::current_dir().ok()).unwrap_or_default();
                // Hermes takes a missing folder as no code workspace; a
                // mistyped --cwd would pass unseen.
                if self.cwd.is_some() && !cwd.is_dir() {
                    eprintln!(
                        "skillscope: --cwd {}: no such folder (Hermes reads it as no code workspace)",
                        crate::sanitize::clean_line(&cwd.display().to_string())
                    );
                }
                let compact = posture::compact_categories(engine, mode, &cwd);
                if mode == Some(CodingMode::Focus) && compact.is_empty() {
                    if let Some(why) = posture::why_focus_demotes_nothing(engine, &cwd) {
                        eprintln!(
                            "skillscope: --posture focus demotes nothing here: {}; --cwd names a project folder, \
                             --compact the categories outright",
                            crate::sanitize::clean_line(&why)
                        );
                    }
                }
                compact
            }
        };
        IndexRequest { avail, compact, cache }
    }
}

pub fn run(engine: &Engine, args: &IndexArgs, json: bool, out: &mut Out) -> io::Result<i32> {
    match engine.system_prompt(&args.request(engine)) {
        Ok(text) if json => print_json(out, &json!(text)).map(|_| EXIT_OK),
        Ok(text) => writeln!(out, "{}", clean(&text)).map(|_| EXIT_OK),
        Err(e) => {
            eprintln!("skillscope: Hermes fails to build the skills index: {e}");
            Ok(EXIT_ANSWER_ERROR)
        }
    }
}
