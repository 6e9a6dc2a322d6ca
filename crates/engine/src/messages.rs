//! Slash commands, invocation messages (single, stacked, bundle) and the
//! preloaded-skills prompt (spec §12–§13).

use super::frontmatter;
use super::gates;
use super::paths;
use super::preprocess::{self, PreprocessConfig, SkillDirs};

use super::bundles::Bundle;
use super::commands::{is_core_command, SkillCommand, CORE_COMMANDS};
use super::context::Context;
use super::value::{Map, Value};
use super::view::{Keeping, SkillRef};
use super::Engine;
use crate::py::json_truthy;
use crate::py::py_strip;
use crate::value::json_py_str;
use indexmap::IndexMap;
use serde_json::Value as Json;
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// Core commands that exist only on messaging gateways: the CLI's prefix
/// matching does not offer them.
const GATEWAY_ONLY_COMMANDS: [&str; 9] =
    ["start", "topic", "approve", "deny", "sethome", "set-home", "commands", "restart", "platform"];
const MAX_STACKED_SKILLS: usize = 5;

/// A skill loaded for a message: the `skill_view(preprocess=False)` payload,
/// the folder it resolves to, and the name to show.
pub struct LoadedSkill {
    pub payload: Json,
    pub skill_dir: Option<PathBuf>,
    pub name: String,
    /// The frontmatter of the payload's `content`, as the view parsed it.
    pub frontmatter: Option<Map>,
    /// `skill_dir` as the user knows it, when it was read from a written
    /// copy of its folder (an overlaid catalog's): what names it.
    pub named_dir: Option<PathBuf>,
}

/// A composed multi-skill message: (text, loaded names, missing names).
pub type Composed = (String, Vec<String>, Vec<String>);

impl Engine {
    /// `normalize_skill_lookup_name(identifier)`.
    pub fn normalize_lookup_name(&self, identifier: &str) -> String {
        let raw = py_strip(identifier);
        if raw.is_empty() {
            return String::new();
        }
        let expanded = self.env.expand_user(raw);
        let path = Path::new(&expanded);
        if !path.is_absolute() {
            return raw.trim_start_matches('/').to_owned();
        }
        let path = paths::normalize(path);
        for root in self.home.all_skills_dirs() {
            if let Some(rel) = paths::relative_to(&path, &root) {
                return rel_or_dot(rel);
            }
        }
        // A symlink loop raises there too, and the identifier passes unchanged.
        let (Ok(resolved), Ok(root)) = (paths::try_resolve(&path), paths::try_resolve(&self.home.skills_dir)) else {
            return raw.to_owned();
        };
        match resolved.strip_prefix(root) {
            Ok(rel) => rel_or_dot(rel),
            Err(_) => raw.to_owned(),
        }
    }

    /// `_build_skill_message`: one skill's block of a message.
    pub fn build_skill_message(
        &self,
        loaded: &LoadedSkill,
        activation_note: &str,
        user_instruction: &str,
        session_id: Option<&str>,
    ) -> String {
        self.skill_message_and_content(loaded, activation_note, user_instruction, session_id).0
    }

    /// [`Engine::build_skill_message`], and the skill's content as it
    /// preprocessed it (what `skill_view` gives with preprocessing, but for
    /// the timeout an invalid config gets here: it matters to inline shell only).
    pub fn skill_message_and_content(
        &self,
        loaded: &LoadedSkill,
        activation_note: &str,
        user_instruction: &str,
        session_id: Option<&str>,
    ) -> (String, String) {
        let raw_content = match loaded.payload.get("content") {
            Some(v) if json_truthy(v) => json_py_str(v),
            _ => String::new(),
        };
        let dir = loaded.skill_dir.as_deref();
        let host_dir = dir.map(paths::path_string);
        // What the agent is told: the folder inside its sandbox.
        let shown_dir = dir.map(|d| self.shown_skill_dir(d));
        let mut cfg = PreprocessConfig::from_skills(self.home.merged_skills());
        if cfg.timeout.is_err() {
            cfg.timeout = Ok(10);
        }
        let dirs = SkillDirs { host: host_dir.as_deref(), shown: shown_dir.as_deref() };
        let content =
            preprocess::preprocess(&raw_content, dirs, session_id, &cfg, self.options.allow_inline_shell).text;
        let mut parts: Vec<String> = vec![activation_note.to_owned(), String::new(), py_strip(&content).to_owned()];
        if let Some(d) = &shown_dir {
            parts.push(String::new());
            parts.push(format!("[Skill directory: {d}]"));
            parts.push(
                "Resolve any relative paths in this skill (e.g. `scripts/foo.js`, `templates/config.yaml`) against that directory, then run them with the terminal tool using the absolute path."
                    .into(),
            );
        }
        self.inject_skill_config(&raw_content, loaded.frontmatter.as_ref(), &mut parts);
        let p = &loaded.payload;
        let flag = |k: &str| p.get(k).is_some_and(json_truthy);
        if flag("setup_skipped") {
            parts.push(String::new());
            parts.push("[Skill setup note: Required environment setup was skipped. Continue loading the skill and explain any reduced functionality if it matters.]".into());
        } else if flag("gateway_setup_hint") {
            parts.push(String::new());
            parts.push(format!("[Skill setup note: {}]", json_py_str(&p["gateway_setup_hint"])));
        } else if flag("setup_needed") && flag("setup_note") {
            parts.push(String::new());
            parts.push(format!("[Skill setup note: {}]", json_py_str(&p["setup_note"])));
        }
        let supporting = supporting_files(p, dir);
        if let (false, Some(dir)) = (supporting.is_empty(), dir) {
            let named = loaded.named_dir.as_deref().unwrap_or(dir);
            let target = match named.strip_prefix(&self.home.skills_dir) {
                Ok(rel) => rel_or_dot(rel),
                Err(_) => named.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
            };
            let d = shown_dir.clone().unwrap_or_default();
            parts.push(String::new());
            parts.push("[This skill has supporting files:]".into());
            for sf in &supporting {
                parts.push(format!("- {sf}  ->  {}", paths::path_string(&paths::join(Path::new(&d), sf))));
            }
            parts.push(format!(
                "\nLoad any of these with skill_view(name=\"{target}\", file_path=\"<path>\"), or run scripts directly by absolute path (e.g. `node {d}/scripts/foo.js`)."
            ));
        }
        if !user_instruction.is_empty() {
            parts.push(String::new());
            parts.push(format!(
                "The user has provided the following instruction alongside the skill invocation: {user_instruction}"
            ));
        }
        (parts.join("\n"), content)
    }

    /// `_inject_skill_config`: the `[Skill config ...]` block, if any.
    /// `parsed` is `raw_content`'s frontmatter when the caller has it.
    fn inject_skill_config(&self, raw_content: &str, parsed: Option<&Map>, parts: &mut Vec<String>) {
        if raw_content.is_empty() {
            return;
        }
        let vars = match parsed {
            Some(fields) => config_vars(fields),
            None => config_vars(&frontmatter::parse(raw_content).0.fields),
        };
        if vars.is_empty() {
            return;
        }
        parts.push(String::new());
        parts.push(format!("[Skill config (from {}/config.yaml):", self.home.display(&self.env)));
        for var in &vars {
            let value = self.config_value(var);
            let shown = if value.truthy() { value.py_str() } else { "(not set)".into() };
            parts.push(format!("  {} = {shown}", var.key));
        }
        parts.push("]".into());
    }

    /// `resolve_skill_config_values` for one variable (raw config).
    pub fn config_value(&self, var: &ConfigVar) -> Value {
        let mut current: Option<&Value> = None;
        let mut map: Option<&Map> = Some(&self.home.raw_config);
        for part in format!("skills.config.{}", var.key).split('.') {
            current = map.and_then(|m| m.get(part));
            map = current.and_then(Value::as_map);
            if current.is_none() {
                break;
            }
        }
        let mut value = match current {
            None | Some(Value::Null) => var.default.clone().unwrap_or(Value::Str(String::new())),
            Some(Value::Str(s)) if py_strip(s).is_empty() => var.default.clone().unwrap_or(Value::Str(String::new())),
            Some(v) => v.clone(),
        };
        if let Value::Str(s) = &value {
            if s.contains('~') || s.contains("${") {
                value = Value::Str(self.env.expand_user(&self.env.expand_vars(s)));
            }
        }
        value
    }

    /// `split_stacked_skill_commands(rest)`.
    pub fn split_stacked(&self, commands: &IndexMap<String, SkillCommand>, rest: &str) -> (Vec<String>, String) {
        let mut keys: Vec<String> = Vec::new();
        let mut remaining = rest.to_owned();
        while keys.len() < MAX_STACKED_SKILLS - 1 {
            let stripped = remaining.trim_start_matches(crate::py::py_is_space);
            if !stripped.starts_with('/') {
                break;
            }
            let mut split = stripped.splitn(2, crate::py::py_is_space);
            let token = split.next().unwrap_or("");
            let tail = split.next().unwrap_or("").trim_start_matches(crate::py::py_is_space);
            let key = format!("/{}", token.trim_start_matches('/').replace('_', "-"));
            if token.trim_start_matches('/').is_empty() || !commands.contains_key(&key) || keys.contains(&key) {
                break;
            }
            keys.push(key);
            remaining = tail.to_owned();
        }
        (keys, py_strip(&remaining).to_owned())
    }

    fn is_quick_command(&self, name: &str) -> bool {
        self.home.merged_config.get("quick_commands").and_then(Value::as_map).is_some_and(|m| m.contains_key(name))
    }
}

impl Context<'_> {
    /// `_load_skill_payload(identifier)`.
    pub fn load_skill(&self, identifier: &str, task_id: Option<&str>) -> Option<LoadedSkill> {
        self.load_skill_keeping(identifier, task_id, true)
    }

    /// The `skill_view` a load of `identifier` makes, and the name it
    /// looked up; `None` for an empty identifier.
    fn load_view(&self, identifier: &str, task_id: Option<&str>, keeping: Keeping) -> Option<(Json, String)> {
        let raw = py_strip(identifier);
        if raw.is_empty() {
            return None;
        }
        // An overlaid catalog's folders that differ are named by their
        // copy: named as the user knows them, they are found in it.
        let shown = self.catalog.and_then(|c| c.overlay.as_ref()).map(|o| o.shown(Path::new(raw)));
        let raw = shown.as_deref().map_or_else(|| raw.to_owned(), paths::path_string);
        let normalized = self.engine.normalize_lookup_name(&raw);
        let payload = self.skill_view_keeping(SkillRef::Name(&normalized), None, task_id, false, keeping);
        Some((payload, normalized))
    }

    /// Why the slash command `key` would load no skill (and so build no
    /// message), as the agent would read it; None when it loads one. The
    /// `skill_view` the message would make, no message built.
    pub fn invocation_failure(&self, key: &str, task_id: Option<&str>) -> Option<String> {
        let Some(info) = self.command(key) else { return Some(format!("no skill registers {key}")) };
        let Some((payload, _)) =
            self.load_view(&paths::path_string(&info.skill_dir), task_id, Keeping::Load(&mut None))
        else {
            return Some("its folder names no skill to load".to_owned());
        };
        if payload.get("success").and_then(Json::as_bool) == Some(true) {
            return None;
        }
        Some(payload.get("error").map_or_else(|| "skill_view answers no skill".to_owned(), json_py_str))
    }

    /// [`Context::load_skill`]; without its linked files unless `linked`.
    fn load_skill_keeping(&self, identifier: &str, task_id: Option<&str>, linked: bool) -> Option<LoadedSkill> {
        let mut frontmatter = None;
        let keeping = if linked { Keeping::Load(&mut frontmatter) } else { Keeping::Status(&mut frontmatter) };
        let (payload, normalized) = self.load_view(identifier, task_id, keeping)?;
        if payload.get("success").and_then(Json::as_bool) != Some(true) {
            return None;
        }
        let name = match payload.get("name") {
            Some(v) if json_truthy(v) => json_py_str(v),
            _ => normalized.clone(),
        };
        let skill_dir = match payload.get("skill_dir").and_then(Json::as_str).filter(|s| !s.is_empty()) {
            Some(dir) => Some(PathBuf::from(dir)),
            // A legacy flat file: its folder, read from an overlay's copy
            // where that folder differs.
            None => payload.get("path").and_then(Json::as_str).filter(|p| !p.is_empty()).map(|p| {
                let dir =
                    paths::normalize(&self.engine.home.skills_dir.join(Path::new(p).parent().unwrap_or(Path::new(""))));
                match self.catalog.and_then(|c| c.overlay.as_ref()) {
                    Some(overlay) => overlay.actual(&dir),
                    None => dir,
                }
            }),
        };
        let named_dir = skill_dir.as_deref().and_then(|d| {
            let overlay = self.catalog.and_then(|c| c.overlay.as_ref())?;
            overlay.is_written(d).then(|| overlay.shown(d))
        });
        Some(LoadedSkill { payload, skill_dir, name, frontmatter, named_dir })
    }
    /// `build_skill_invocation_message(key, instruction)`.
    pub fn invocation_message(&self, key: &str, instruction: &str, task_id: Option<&str>) -> Option<String> {
        self.invocation_message_and_content(key, instruction, task_id).map(|(message, _, _)| message)
    }
    /// [`Context::invocation_message`] with the skill's preprocessed content
    /// and folder, from one `skill_view` of it.
    pub fn invocation_message_and_content(
        &self,
        key: &str,
        instruction: &str,
        task_id: Option<&str>,
    ) -> Option<(String, String, Option<PathBuf>)> {
        let info = self.command(key)?;
        let loaded = self.load_skill(&paths::path_string(&info.skill_dir), task_id)?;
        let note = format!(
            "[IMPORTANT: The user has invoked the \"{}\" skill, indicating they want you to follow its instructions. The full skill content is loaded below.]",
            loaded.name
        );
        let (message, content) = self.engine.skill_message_and_content(&loaded, &note, instruction, task_id);
        Some((message, content, loaded.skill_dir))
    }
    /// `build_stacked_skill_invocation_message(keys, instruction)`.
    pub fn stacked_message(&self, keys: &[String], instruction: &str, task_id: Option<&str>) -> Option<Composed> {
        let (mut loaded_names, mut missing, mut blocks) = (Vec::new(), Vec::new(), Vec::new());
        let mut seen = HashSet::new();
        for key in keys {
            if key.is_empty() || !seen.insert(key.clone()) {
                continue;
            }
            let loaded =
                self.command(key).and_then(|info| self.load_skill(&paths::path_string(&info.skill_dir), task_id));
            let Some(loaded) = loaded else {
                missing.push(key.trim_start_matches('/').to_owned());
                continue;
            };
            let note = format!("[Loaded as part of the stacked skill invocation \"{}\".]", loaded.name);
            blocks.push(self.engine.build_skill_message(&loaded, &note, "", task_id));
            loaded_names.push(loaded.name);
        }
        if blocks.is_empty() {
            return None;
        }
        let typed: Vec<&str> = keys.iter().filter(|k| !k.is_empty()).map(String::as_str).collect();
        let mut header = vec![
            format!(
                "[IMPORTANT: The user has invoked the \"{}\" stacked skill bundle, loading {} skills together. Treat every skill below as active guidance for this turn.]",
                typed.join(" "),
                loaded_names.len()
            ),
            String::new(),
            format!("Skills loaded: {}", loaded_names.join(", ")),
        ];
        if !missing.is_empty() {
            header.push(format!("Skills missing (skipped): {}", missing.join(", ")));
        }
        if !instruction.is_empty() {
            header.push(String::new());
            header.push(format!("User instruction: {instruction}"));
        }
        Some(compose(header, blocks, loaded_names, missing))
    }
    /// Loads each identifier once (trimmed, empties skipped) into a
    /// message block; what cannot load is missing, and a loaded skill whose
    /// name or identifier is disabled is set aside as `disabled_as` says.
    fn load_members(
        &self,
        identifiers: &[String],
        task_id: Option<&str>,
        disabled_as: DisabledAs,
        note: impl Fn(&str) -> String,
    ) -> Members {
        let disabled = gates::disabled_names(&self.engine.home, &self.engine.env, None).unwrap_or_default();
        let mut members = Members::default();
        let mut seen = HashSet::new();
        for raw in identifiers {
            let id = py_strip(raw).to_owned();
            if id.is_empty() || !seen.insert(id.clone()) {
                continue;
            }
            let Some(loaded) = self.load_skill(&id, task_id) else {
                members.missing.push(id);
                continue;
            };
            if disabled.contains(&loaded.name) || disabled.contains(&id) {
                match disabled_as {
                    DisabledAs::Missing => members.missing.push(id),
                    DisabledAs::Disabled => {
                        members.disabled.push(if loaded.name.is_empty() { id } else { loaded.name })
                    }
                }
                continue;
            }
            members.blocks.push(self.engine.build_skill_message(&loaded, &note(&loaded.name), "", task_id));
            members.loaded.push(loaded.name);
        }
        members
    }
    /// `build_bundle_invocation_message(key, instruction)`.
    pub fn bundle_message(&self, key: &str, instruction: &str, task_id: Option<&str>) -> Option<Composed> {
        let info = self.bundles().bundles.get(key)?;
        let m = self.load_members(&info.skills, task_id, DisabledAs::Disabled, |_| {
            format!("[Loaded as part of the \"{}\" skill bundle.]", info.name)
        });
        if m.blocks.is_empty() {
            return None;
        }
        let mut header = vec![
            format!(
                "[IMPORTANT: The user has invoked the \"{}\" skill bundle, loading {} skills together. Treat every skill below as active guidance for this turn.]",
                info.name,
                m.loaded.len()
            ),
            String::new(),
            format!("Bundle: {}", info.name),
            format!("Skills loaded: {}", m.loaded.join(", ")),
        ];
        if !m.missing.is_empty() {
            header.push(format!("Skills missing (skipped): {}", m.missing.join(", ")));
        }
        if !m.disabled.is_empty() {
            header.push(format!("Skills disabled for this platform (skipped): {}", m.disabled.join(", ")));
        }
        if !info.instruction.is_empty() {
            header.push(String::new());
            header.push(format!("Bundle instruction: {}", info.instruction));
        }
        if !instruction.is_empty() {
            header.push(String::new());
            header.push(format!("User instruction: {instruction}"));
        }
        Some(compose(header, m.blocks, m.loaded, m.missing))
    }
    /// `build_preloaded_skills_prompt(identifiers)`.
    pub fn preloaded_prompt(&self, identifiers: &[String], task_id: Option<&str>) -> Composed {
        let m = self.load_members(identifiers, task_id, DisabledAs::Missing, |name| {
            format!(
                "[IMPORTANT: The user launched this CLI session with the \"{name}\" skill preloaded. Treat its instructions as active guidance for the duration of this session unless the user overrides them.]"
            )
        });
        (m.blocks.join("\n\n"), m.loaded, m.missing)
    }
    /// The message the CLI sends for a typed `/command ...` line: bundles
    /// first, then skills (stacked or single), then a unique prefix match.
    /// `None` when Hermes builds no skill message (a core command, unknown, ...).
    pub fn dispatch(&self, line: &str, task_id: Option<&str>) -> Option<String> {
        self.dispatch_depth(line, task_id, 0)
    }
    fn dispatch_depth(&self, line: &str, task_id: Option<&str>, depth: u8) -> Option<String> {
        let original = py_strip(line);
        let lower = original.to_lowercase();
        let base = lower.split(crate::py::py_is_space).find(|s| !s.is_empty())?.to_owned();
        if !base.starts_with('/') {
            return None;
        }
        let bare = base.trim_start_matches('/');
        if is_core_command(bare) || self.engine.is_quick_command(bare) {
            return None;
        }
        let rest_of = |base: &str| py_strip(original.get(base.len()..).unwrap_or("")).to_owned();
        let bundles = self.bundles();
        if bundles.bundles.contains_key(&base) {
            return self.bundle_message(&base, &rest_of(&base), task_id).map(|c| c.0);
        }
        let commands = self.commands();
        if commands.contains_key(&base) {
            let rest = rest_of(&base);
            let (extra, instruction) = self.engine.split_stacked(commands, &rest);
            if !extra.is_empty() {
                let mut keys = vec![base.clone()];
                keys.extend(extra);
                return self.stacked_message(&keys, &instruction, task_id).map(|c| c.0);
            }
            return self.invocation_message(&base, &rest, task_id);
        }
        if depth > 0 {
            return None;
        }
        let mut matches: Vec<String> = CORE_COMMANDS
            .iter()
            .filter(|c| !GATEWAY_ONLY_COMMANDS.contains(c))
            .map(|c| format!("/{c}"))
            .chain(commands.keys().cloned())
            .chain(bundles.bundles.keys().cloned())
            .filter(|c| c.starts_with(&base))
            .collect();
        matches.sort();
        matches.dedup();
        if matches.len() > 1 {
            let exact: Vec<String> = matches.iter().filter(|c| **c == base).cloned().collect();
            if exact.len() == 1 {
                matches = exact;
            } else {
                let min = matches.iter().map(|c| c.chars().count()).min().unwrap_or(0);
                let shortest: Vec<String> = matches.iter().filter(|c| c.chars().count() == min).cloned().collect();
                if shortest.len() == 1 {
                    matches = shortest;
                }
            }
        }
        match matches.as_slice() {
            [full] if *full != base => {
                let remainder = original.get(base.len()..).unwrap_or("");
                self.dispatch_depth(&format!("{full}{remainder}"), task_id, depth + 1)
            }
            _ => None,
        }
    }
    /// Each distinct member of a bundle and what invoking it does with it.
    pub fn bundle_members(&self, bundle: &Bundle) -> Vec<(String, MemberStatus)> {
        let disabled = super::gates::disabled_names(&self.engine.home, &self.engine.env, None).unwrap_or_default();
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::new();
        for id in &bundle.skills {
            let id = py_strip(id).to_owned();
            if id.is_empty() || !seen.insert(id.clone()) {
                continue;
            }
            let status = match self.load_skill_keeping(&id, None, false) {
                None => MemberStatus::Missing(self.why_not_loaded(&id)),
                Some(l) if disabled.contains(&l.name) || disabled.contains(&id) => MemberStatus::Disabled(l.name),
                Some(l) => MemberStatus::Loaded(l.name),
            };
            out.push((id, status));
        }
        out
    }
    /// Why skill_view does not load `id`: the skills its lookup finds, and
    /// the gate the one it found fails.
    fn why_not_loaded(&self, id: &str) -> MissingMember {
        let name = self.engine.normalize_lookup_name(id);
        let found = self.candidates(&name, None);
        let [one] = found.as_slice() else {
            return if found.is_empty() { MissingMember::NoSuchSkill } else { MissingMember::Ambiguous(found.len()) };
        };
        let Ok(text) = super::source::read_text(&one.skill_md) else { return MissingMember::Unloadable };
        let fm = super::frontmatter::parse(&text).0.fields;
        if !super::gates::frontmatter_platform_matches(&fm, &self.engine.env) {
            return MissingMember::OtherPlatform;
        }
        let folder = one.skill_md.parent().and_then(Path::file_name).map(|n| n.to_string_lossy().into_owned());
        let resolved = fm.get("name").cloned().unwrap_or(super::value::Value::Str(folder.unwrap_or_default()));
        if super::gates::view_disabled(&self.engine.home, &self.engine.env, &resolved) {
            return MissingMember::Disabled;
        }
        MissingMember::Unloadable
    }
}

/// How a multi-skill loader reports a disabled member: preloading calls it
/// missing, bundles list it separately.
enum DisabledAs {
    Missing,
    Disabled,
}

#[derive(Default)]
struct Members {
    blocks: Vec<String>,
    loaded: Vec<String>,
    missing: Vec<String>,
    disabled: Vec<String>,
}

fn compose(header: Vec<String>, blocks: Vec<String>, loaded: Vec<String>, missing: Vec<String>) -> Composed {
    let mut all = vec![header.join("\n")];
    all.extend(blocks);
    (all.join("\n\n"), loaded, missing)
}

fn rel_or_dot(rel: &Path) -> String {
    let s = paths::rel_string(rel);
    if s.is_empty() {
        ".".into()
    } else {
        s
    }
}

/// The supporting-file list of a message: `linked_files` values in order,
/// else every regular file under the four support folders.
fn supporting_files(payload: &Json, dir: Option<&Path>) -> Vec<String> {
    let mut files: Vec<String> = Vec::new();
    if let Some(Json::Object(groups)) = payload.get("linked_files") {
        for entries in groups.values() {
            if let Json::Array(items) = entries {
                files.extend(items.iter().map(json_py_str));
            }
        }
    }
    if files.is_empty() {
        if let Some(dir) = dir {
            for sub in ["references", "templates", "scripts", "assets"] {
                let root = dir.join(sub);
                if !paths::exists(&root) {
                    continue;
                }
                let mut found: Vec<PathBuf> = paths::rglob(&root, "*")
                    .into_iter()
                    .filter(|p| paths::is_file(p) && !paths::is_symlink(p))
                    .collect();
                found.sort_by(|a, b| a.components().cmp(b.components()));
                files.extend(found.iter().map(|p| p.strip_prefix(dir).map(paths::rel_string).unwrap_or_default()));
            }
        }
    }
    files
}

/// One declared skill config variable (`metadata.hermes.config`).
#[derive(Debug, Clone, PartialEq)]
pub struct ConfigVar {
    pub key: String,
    pub description: String,
    pub default: Option<Value>,
    pub prompt: String,
}

/// `extract_skill_config_vars(frontmatter)`.
pub fn config_vars(fm: &Map) -> Vec<ConfigVar> {
    let raw = fm
        .get("metadata")
        .and_then(Value::as_map)
        .and_then(|m| m.get("hermes"))
        .and_then(Value::as_map)
        .and_then(|h| h.get("config"))
        .filter(|v| v.truthy());
    let items: Vec<Value> = match raw {
        Some(Value::Map(m)) => vec![Value::Map(m.clone())],
        Some(Value::Seq(items)) => items.clone(),
        _ => return Vec::new(),
    };
    let mut out: Vec<ConfigVar> = Vec::new();
    for item in items {
        let Value::Map(entry) = item else { continue };
        let field = |k: &str| py_strip(&entry.get(k).cloned().unwrap_or(Value::Str(String::new())).py_str()).to_owned();
        let key = field("key");
        if key.is_empty() || out.iter().any(|v| v.key == key) {
            continue;
        }
        let description = field("description");
        if description.is_empty() {
            continue;
        }
        let default = entry.get("default").filter(|v| !matches!(v, Value::Null)).cloned();
        let prompt = match entry.get("prompt") {
            Some(Value::Str(s)) if !py_strip(s).is_empty() => py_strip(s).to_owned(),
            _ => description.clone(),
        };
        out.push(ConfigVar { key, description, default, prompt });
    }
    out
}

/// What happens to one bundle member when the bundle is invoked.
#[derive(Debug, Clone, PartialEq)]
pub enum MemberStatus {
    /// Loaded under this name.
    Loaded(String),
    /// skill_view does not load it, for this reason: the bundle skips it
    /// (and its message lists it as missing).
    Missing(MissingMember),
    /// Loaded but disabled: skipped.
    Disabled(String),
}

/// Why skill_view does not load a bundle member.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MissingMember {
    /// No skill has this name or folder name.
    NoSuchSkill,
    /// Several skills do: skill_view refuses the name as ambiguous.
    Ambiguous(usize),
    /// Its skill is disabled in config.yaml: skill_view refuses it.
    Disabled,
    /// Its skill is for another platform.
    OtherPlatform,
    /// Found, but skill_view fails on it (unreadable, a value it cannot return).
    Unloadable,
}

impl MissingMember {
    /// Why, as the Bundles view and `check` say it.
    pub fn reason(self) -> String {
        match self {
            MissingMember::NoSuchSkill => "no skill has this name".into(),
            MissingMember::Ambiguous(n) => format!("{n} skills have this name: skill_view refuses it"),
            MissingMember::Disabled => "disabled: skill_view refuses it".into(),
            MissingMember::OtherPlatform => "for another platform".into(),
            MissingMember::Unloadable => "skill_view cannot load it".into(),
        }
    }
}

impl Engine {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn core_commands_are_case_insensitive() {
        assert!(is_core_command("Help"));
        assert!(is_core_command("reload_mcp"));
        assert!(!is_core_command("deploy"));
    }

    #[test]
    fn config_vars_rules() {
        let fm = crate::yaml::load(
            "metadata:\n  hermes:\n    config:\n      - key: wiki.path\n        description: Wiki dir\n        default: ~/wiki\n\
             \n      - key: wiki.path\n        description: dup\n      - key: nodesc\n      - key: other\n        description: d\n        prompt: '  p  '\n",
        )
        .unwrap();
        let vars = config_vars(fm.as_map().unwrap());
        assert_eq!(vars.len(), 2);
        assert_eq!(vars[0].prompt, "Wiki dir");
        assert_eq!(vars[1].prompt, "p");
    }
}
