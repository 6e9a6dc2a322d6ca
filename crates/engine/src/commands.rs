//! Slash commands (spec §12): Hermes' core commands, what the command scan
//! makes of one SKILL.md, and which skill each `/slug` goes to
//! (`scan_skill_commands()`).

use crate::discover;
use crate::frontmatter;
use crate::gates;
use crate::paths;
use crate::py::take_chars;
use crate::skill::{self, slugify};
use crate::value::{Map, Value};
use crate::Engine;
use indexmap::IndexMap;
use serde_json::{json, Value as Json};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// Core command names and aliases of Hermes 0.19.0; a skill whose slug is
/// one of these gets no slash command.
pub const CORE_COMMANDS: &[&str] = &[
    "agents",
    "approve",
    "background",
    "bg",
    "blueprint",
    "bp",
    "branch",
    "browser",
    "btw",
    "bundles",
    "busy",
    "clear",
    "codex-runtime",
    "codex_runtime",
    "commands",
    "compact",
    "compose",
    "compress",
    "config",
    "copy",
    "cron",
    "curator",
    "debug",
    "deny",
    "exit",
    "fast",
    "footer",
    "fork",
    "gateway",
    "generate-pet",
    "goal",
    "handoff",
    "hatch",
    "help",
    "history",
    "image",
    "indicator",
    "insights",
    "journey",
    "kanban",
    "learn",
    "learning",
    "memory",
    "memory-graph",
    "moa",
    "model",
    "new",
    "paste",
    "personality",
    "pet",
    "platform",
    "platforms",
    "plugins",
    "profile",
    "prompt",
    "q",
    "queue",
    "quit",
    "reasoning",
    "redraw",
    "reload",
    "reload-mcp",
    "reload-skills",
    "reload_mcp",
    "reload_skills",
    "reset",
    "restart",
    "resume",
    "retry",
    "rollback",
    "save",
    "sb",
    "sessions",
    "set-home",
    "sethome",
    "skills",
    "skin",
    "snap",
    "snapshot",
    "start",
    "status",
    "statusbar",
    "steer",
    "stop",
    "subgoal",
    "subscription",
    "suggest",
    "suggestions",
    "tasks",
    "timestamps",
    "title",
    "tools",
    "toolsets",
    "topic",
    "topup",
    "ts",
    "undo",
    "update",
    "upgrade",
    "usage",
    "v",
    "verbose",
    "version",
    "voice",
    "whoami",
    "yolo",
];

pub fn is_core_command(name: &str) -> bool {
    CORE_COMMANDS.contains(&name.to_lowercase().as_str())
}

/// Folder names whose presence anywhere in the path hides a skill from the
/// slash-command scan (a narrower list than the walk's).
const COMMAND_SCAN_EXCLUDED: [&str; 4] = [".git", ".github", ".hub", ".archive"];
/// One registered slash command.
#[derive(Debug, Clone, PartialEq)]
pub struct SkillCommand {
    pub name: String,
    pub description: Value,
    pub skill_md_path: PathBuf,
    pub skill_dir: PathBuf,
}

impl SkillCommand {
    /// The command of a skill whose candidate is `name` and `description`.
    pub fn new(name: String, description: Value, skill_md_path: &Path) -> SkillCommand {
        let description = command_description(&name, description);
        let skill_dir = skill_md_path.parent().map(Path::to_path_buf).unwrap_or_default();
        SkillCommand { name, description, skill_md_path: skill_md_path.to_path_buf(), skill_dir }
    }

    pub fn to_json(&self) -> Json {
        json!({
            "name": self.name,
            "description": self.description.to_json(),
            "skill_md_path": paths::path_string(&self.skill_md_path),
            "skill_dir": paths::path_string(&self.skill_dir),
        })
    }
}

impl Engine {
    /// `scan_skill_commands()` in scan order.
    pub fn skill_commands(&self) -> IndexMap<String, SkillCommand> {
        let Ok(disabled) = gates::disabled_names(&self.home, &self.env, None) else {
            return IndexMap::new();
        };
        let mut files = Vec::new();
        for dir in self.home.scan_dirs() {
            files.extend(discover::index_and_read(&dir, "SKILL.md").0.into_iter().filter(|f| {
                !f.path.components().any(|c| COMMAND_SCAN_EXCLUDED.contains(&c.as_os_str().to_string_lossy().as_ref()))
            }));
        }
        let parsed =
            crate::parallel_map(&files, |f| f.with_text(|text| self.command_candidate(&f.path, text)).flatten());
        register_commands(files.iter().map(|f| f.path.as_path()).zip(parsed), &disabled)
    }

    /// What the command scan makes of one SKILL.md: (name, description), or
    /// `None` when it is gated or its name is not a string.
    pub fn command_candidate(&self, path: &Path, text: &str) -> Option<(String, Value)> {
        let (fm, body) = frontmatter::parse(text);
        self.command_candidate_parsed(path, &fm.fields, body)
    }
}

/// The slash-command map from scan candidates in scan order: first name
/// wins, disabled names and core or empty slugs skipped, first slug wins.
pub fn register_commands<'a>(
    candidates: impl Iterator<Item = (&'a Path, Option<(String, Value)>)>,
    disabled: &HashSet<String>,
) -> IndexMap<String, SkillCommand> {
    let mut candidates: Vec<(&Path, Option<(String, Value)>)> = candidates.collect();
    let names = candidates.iter().map(|(_, c)| c.as_ref().map(|(name, _)| name.as_str()));
    let slots = command_slots(names, disabled);
    // Each candidate has one slot at most: its name and description move.
    slots
        .into_iter()
        .filter_map(|(key, i)| {
            let (path, candidate) = &mut candidates[i];
            let (name, description) = candidate.take()?;
            Some((key, SkillCommand::new(name, description, path)))
        })
        .collect()
}

/// Which candidate (by position) each slash command goes to, for
/// candidates' names in scan order (`None`: the skill asks for none). The
/// rules of [`register_commands`], without copying what it keeps.
pub fn command_slots<'a>(
    names: impl Iterator<Item = Option<&'a str>>,
    disabled: &HashSet<String>,
) -> IndexMap<String, usize> {
    let mut slots = IndexMap::new();
    let mut seen: HashSet<&str, foldhash::fast::RandomState> = HashSet::default();
    for (i, name) in names.enumerate() {
        let Some(name) = name else { continue };
        if seen.contains(name) || disabled.contains(name) {
            continue;
        }
        seen.insert(name);
        let slug = slugify(name);
        // A slug is lowercase already.
        if slug.is_empty() || CORE_COMMANDS.contains(&slug.as_str()) {
            continue;
        }
        let key = format!("/{slug}");
        if !slots.contains_key(&key) {
            slots.insert(key, i);
        }
    }
    slots
}

/// A command's description: the skill's, else one made from its name.
pub fn command_description(name: &str, description: Value) -> Value {
    if description.truthy() {
        description
    } else {
        Value::Str(format!("Invoke the {name} skill"))
    }
}

impl Engine {
    /// [`Engine::command_candidate`] on an already parsed file.
    pub fn command_candidate_parsed(&self, path: &Path, fm: &Map, body: &str) -> Option<(String, Value)> {
        if !gates::frontmatter_platform_matches(fm, &self.env) || !gates::environment_matches(fm, &self.home, &self.env)
        {
            return None;
        }
        let dir_name =
            path.parent().and_then(Path::file_name).map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let name = match fm.get("name") {
            None => dir_name,
            Some(Value::Str(s)) => s.clone(),
            Some(_) => return None, // `.lower()` on a non-string raises
        };
        let mut description = fm.get("description").cloned().unwrap_or(Value::Str(String::new()));
        if !description.truthy() {
            if let Some(line) = skill::first_body_line(body) {
                description = Value::Str(take_chars(line, 80).to_owned());
            }
        }
        Some((name, description))
    }
}
