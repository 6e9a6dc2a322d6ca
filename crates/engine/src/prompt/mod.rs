//! The system-prompt skills index (spec §14), cold path: what the agent is
//! told about every skill on the first run over a home.

pub mod snapshot;

use super::discover;
use super::frontmatter;
use super::gates::{self, Conditions, ToolAvailability};
use super::paths;
use super::skill;
use super::source;
use super::value::{Map, Value};
use super::Engine;
use crate::py::PyError;
use crate::py::{py_strip, py_strip_chars};
use std::collections::{BTreeMap, HashSet};
use std::path::Path;

const GUIDANCE: &str = "## Skills (mandatory)\n\
Before replying, scan the skills below. If a skill matches or is even partially relevant to your task, you MUST load it with skill_view(name) and follow its instructions. Err on the side of loading — it is always better to have context you don't need than to miss critical steps, pitfalls, or established workflows. Skills contain specialized knowledge — API endpoints, tool-specific commands, and proven workflows that outperform general-purpose approaches. Load the skill even if you think you could handle the task with basic tools like web_search or terminal. Skills also encode the user's preferred approach, conventions, and quality standards for tasks like code review, planning, and testing — load them even for tasks you already know how to do, because the skill defines how it should be done here.\n\
Whenever the user asks you to configure, set up, install, enable, disable, modify, or troubleshoot Hermes Agent itself — its CLI, config, models, providers, tools, skills, voice, gateway, plugins, or any feature — load the `hermes-agent` skill first. It has the actual commands (e.g. `hermes config set …`, `hermes tools`, `hermes setup`) so you don't have to guess or invent workarounds.\n\
If a skill has issues, fix it with skill_manage(action='patch').\n\
After difficult/iterative tasks, offer to save as a skill. If a skill you loaded was missing steps, had wrong commands, or needed pitfalls you discovered, update it before finishing.\n\
\n\
<available_skills>\n";

const CLOSING: &str =
    "</available_skills>\n\nOnly proceed without loading a skill if genuinely none are relevant to the task.";

/// One skill as the index sees it (`_build_snapshot_entry`), which is also
/// what Hermes stores in `.skills_prompt_snapshot.json`.
#[derive(Debug, Clone, PartialEq)]
pub struct IndexEntry {
    /// The folder name.
    pub skill_name: String,
    /// Folders above it joined by `/`, its own folder for `x/SKILL.md`, or `general`.
    pub category: String,
    /// `str(frontmatter.get("name", skill_name))`.
    pub shown_name: String,
    pub description: String,
    /// `platforms` as stored: each value's `str()`, stripped, empties dropped.
    pub platforms: Vec<String>,
    pub conditions: Conditions,
}

/// Which of Hermes' two code paths builds the index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PromptCache {
    /// Like Hermes: the snapshot in HERMES_HOME when it is valid, else a scan.
    #[default]
    Auto,
    /// A fresh scan (the first run after any SKILL.md changed).
    Cold,
    /// As every later run sees it: from the snapshot, which does not keep
    /// `environments:`, so environment-gated skills come back without a
    /// description.
    Warm,
}

/// `_parse_skill_file`: (compatible, frontmatter, description).
fn parse_skill_file(engine: &Engine, file: &discover::IndexedFile) -> (bool, Map, String) {
    file.with_text(|text| parse_skill_text(engine, text)).unwrap_or_else(|| (true, Map::new(), String::new()))
}

fn parse_skill_text(engine: &Engine, text: &str) -> (bool, Map, String) {
    let fm = frontmatter::parse(text).0.fields;
    if !gates::frontmatter_platform_matches(&fm, &engine.env)
        || !gates::environment_matches(&fm, &engine.home, &engine.env)
    {
        return (false, fm, String::new());
    }
    let desc = skill::prompt_description(&fm);
    (true, fm, desc)
}

fn snapshot_entry(path: &Path, root: &Path, fm: &Map, description: String) -> Result<IndexEntry, PyError> {
    let rel = path.strip_prefix(root).unwrap_or(path);
    let parts = paths::parts(rel);
    let (skill_name, category) = if parts.len() >= 2 {
        let name = parts[parts.len() - 2].clone();
        let cat = if parts.len() > 2 { parts[..parts.len() - 2].join("/") } else { parts[0].clone() };
        (name, cat)
    } else {
        let name =
            path.parent().and_then(Path::file_name).map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        (name, "general".to_owned())
    };
    let platforms = match fm.get("platforms").filter(|p| p.truthy()) {
        None => Vec::new(),
        Some(Value::Str(s)) => vec![s.clone()],
        // Hermes iterates the value here and raises on a scalar.
        Some(p) => p
            .py_iter()
            .ok_or_else(|| PyError::not_iterable(p.type_name()))?
            .iter()
            .map(|v| py_strip(&v.py_str()).to_owned())
            .collect(),
    };
    let platforms = platforms.into_iter().map(|p| py_strip(&p).to_owned()).filter(|p| !p.is_empty()).collect();
    let shown_name = fm.get("name").map_or_else(|| skill_name.clone(), Value::py_str);
    let conditions = Conditions::from_frontmatter(fm);
    Ok(IndexEntry { skill_name, category, shown_name, description, platforms, conditions })
}

/// Category descriptions from `DESCRIPTION.md` files under `root`.
fn category_descriptions(root: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for file in discover::index_files(root, "DESCRIPTION.md") {
        let Ok(text) = source::read_text(&file) else {
            continue;
        };
        let fm = frontmatter::parse(&text).0.fields;
        let Some(desc) = fm.get("description").filter(|d| d.truthy()) else {
            continue;
        };
        let rel = file.strip_prefix(root).unwrap_or(&file);
        let parts = paths::parts(rel);
        let cat = if parts.len() > 1 { parts[..parts.len() - 1].join("/") } else { "general".into() };
        let text = desc.py_str();
        out.push((cat, py_strip_chars(py_strip(&text), &['\'', '"']).to_owned()));
    }
    out
}

impl Engine {
    /// The local skills as the cold scan records them, in its order: each
    /// entry (or the error building it raises), whether it is compatible
    /// now, and its frontmatter.
    fn local_index_entries(&self) -> Vec<(Result<IndexEntry, PyError>, bool, Map)> {
        let skills_dir = &self.home.skills_dir;
        let files = discover::index_and_read(skills_dir, "SKILL.md").0;
        let parsed = super::parallel_map(&files, |f| parse_skill_file(self, f));
        files
            .iter()
            .zip(parsed)
            .map(|(f, (compatible, fm, desc))| (snapshot_entry(&f.path, skills_dir, &fm, desc), compatible, fm))
            .collect()
    }

    /// `build_skills_system_prompt(tools, toolsets)`, by the cache path
    /// `cache` says (`Auto`: as the next Hermes run would).
    pub fn system_prompt(&self, avail: &ToolAvailability, cache: PromptCache) -> Result<String, PyError> {
        let skills_dir = &self.home.skills_dir;
        if !paths::exists(skills_dir) && self.home.external_dirs.is_empty() {
            return Ok(String::new());
        }
        let disabled = gates::disabled_names(&self.home, &self.env, self.env.platform_scope())?;
        let mut by_category: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
        let mut cat_descs: BTreeMap<String, String> = BTreeMap::new();

        let snapshot = match cache {
            PromptCache::Cold => None,
            PromptCache::Auto => snapshot::load(&self.home),
            // The snapshot a cold scan would write, as read back from its
            // JSON; a cold scan that raises, or whose entries JSON cannot
            // hold, writes none, and the next call scans cold again.
            PromptCache::Warm => match snapshot::load(&self.home) {
                Some(snap) => Some(snap),
                None => self
                    .local_index_entries()
                    .into_iter()
                    .map(|(entry, _, _)| {
                        let entry = entry.ok()?;
                        let conditions = entry.conditions.through_json().ok()?;
                        Some(IndexEntry { conditions, ..entry })
                    })
                    .collect::<Option<Vec<_>>>()
                    .map(|entries| snapshot::Snapshot {
                        entries,
                        category_descriptions: category_descriptions(skills_dir),
                    }),
            },
        };
        if let Some(snap) = snapshot {
            for entry in snap.entries {
                let platforms = Value::Seq(entry.platforms.iter().cloned().map(Value::Str).collect());
                if !gates::platform_matches(Some(&platforms), &self.env) {
                    continue;
                }
                let name =
                    if entry.shown_name.is_empty() { entry.skill_name.clone() } else { entry.shown_name.clone() };
                if disabled.contains(&name) || disabled.contains(&entry.skill_name) {
                    continue;
                }
                if !gates::should_show(&entry.conditions, avail)? {
                    continue;
                }
                let category = if entry.category.is_empty() { "general".to_owned() } else { entry.category };
                by_category.entry(category).or_default().push((name, entry.description));
            }
            cat_descs.extend(snap.category_descriptions);
        } else {
            // Hermes builds each entry, then filters it, skill by skill.
            for (entry, compatible, fm) in self.local_index_entries() {
                let entry = entry?;
                if !compatible || disabled.contains(&entry.shown_name) || disabled.contains(&entry.skill_name) {
                    continue;
                }
                if !gates::should_show(&Conditions::from_frontmatter(&fm), avail)? {
                    continue;
                }
                by_category.entry(entry.category).or_default().push((entry.shown_name, entry.description));
            }
            cat_descs.extend(category_descriptions(skills_dir));
        }

        let mut seen: HashSet<String> = by_category.values().flatten().map(|(n, _)| n.clone()).collect();
        for ext in &self.home.external_dirs {
            if !paths::exists(ext) {
                continue;
            }
            for file in discover::index_and_read(ext, "SKILL.md").0 {
                let path = &file.path;
                let (compatible, fm, desc) = parse_skill_file(self, &file);
                if !compatible {
                    continue;
                }
                let Ok(entry) = snapshot_entry(path, ext, &fm, desc) else {
                    continue;
                };
                if seen.contains(&entry.shown_name)
                    || disabled.contains(&entry.shown_name)
                    || disabled.contains(&entry.skill_name)
                {
                    continue;
                }
                if !gates::should_show(&Conditions::from_frontmatter(&fm), avail).unwrap_or(false) {
                    continue;
                }
                seen.insert(entry.shown_name.clone());
                by_category.entry(entry.category).or_default().push((entry.shown_name, entry.description));
            }
            for (cat, desc) in category_descriptions(ext) {
                cat_descs.entry(cat).or_insert(desc);
            }
        }

        if by_category.is_empty() {
            return Ok(String::new());
        }
        let mut lines = Vec::new();
        for (category, skills) in &mut by_category {
            match cat_descs.get(category).filter(|d| !d.is_empty()) {
                Some(desc) => lines.push(format!("  {category}: {desc}")),
                None => lines.push(format!("  {category}:")),
            }
            skills.sort_by(|a, b| a.0.cmp(&b.0));
            let mut shown = HashSet::new();
            for (name, desc) in skills.iter() {
                if !shown.insert(name.clone()) {
                    continue;
                }
                if desc.is_empty() {
                    lines.push(format!("    - {name}"));
                } else {
                    lines.push(format!("    - {name}: {desc}"));
                }
            }
        }
        Ok(format!("{GUIDANCE}{}\n{CLOSING}", lines.join("\n")))
    }
}
