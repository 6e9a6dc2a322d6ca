//! Hermes' prompt snapshot, `HERMES_HOME/.skills_prompt_snapshot.json`
//! (spec PROMPT-8/9): read only, to know which path the next run takes.

use super::IndexEntry;
use crate::discover;
use crate::gates::Conditions;
use crate::home::Home;
use crate::value::Value;
use serde_json::Value as Json;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub const SNAPSHOT_FILE: &str = ".skills_prompt_snapshot.json";

/// What a valid snapshot holds.
#[derive(Debug, Clone, Default)]
pub struct Snapshot {
    pub entries: Vec<IndexEntry>,
    pub category_descriptions: Vec<(String, String)>,
}

/// The SKILL.md a snapshot entry was made from, when it still exists:
/// `category/skill_name/SKILL.md`, or `skill_name/SKILL.md` for a skill at
/// the top (whose category is its own folder).
pub fn skill_md_of(skills_dir: &Path, entry: &IndexEntry) -> Option<PathBuf> {
    let nested = skills_dir.join(&entry.category).join(&entry.skill_name).join("SKILL.md");
    let top = skills_dir.join(&entry.skill_name).join("SKILL.md");
    [nested, top].into_iter().find(|p| crate::paths::is_file(p))
}

/// `_build_skills_manifest`: relative path -> (mtime_ns, size) of every
/// SKILL.md and DESCRIPTION.md the index walk finds.
pub fn manifest(skills_dir: &Path) -> BTreeMap<String, (i128, u64)> {
    let mut out = BTreeMap::new();
    for name in ["SKILL.md", "DESCRIPTION.md"] {
        for path in discover::index_files(skills_dir, name) {
            let Ok(meta) = std::fs::metadata(&path) else {
                continue;
            };
            let Ok(rel) = path.strip_prefix(skills_dir) else {
                continue;
            };
            out.insert(crate::paths::path_string(rel), (mtime_ns(&meta), meta.len()));
        }
    }
    out
}

#[cfg(unix)]
fn mtime_ns(meta: &std::fs::Metadata) -> i128 {
    use std::os::unix::fs::MetadataExt;
    i128::from(meta.mtime()) * 1_000_000_000 + i128::from(meta.mtime_nsec())
}

#[cfg(not(unix))]
fn mtime_ns(meta: &std::fs::Metadata) -> i128 {
    meta.modified().ok().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok()).map_or(0, |d| d.as_nanos() as i128)
}

fn json_manifest(value: &Json) -> Option<BTreeMap<String, (i128, u64)>> {
    let mut out = BTreeMap::new();
    for (k, v) in value.as_object()? {
        let pair = v.as_array()?;
        let mtime = pair.first()?.as_i64().map(i128::from)?;
        let size = pair.get(1)?.as_u64()?;
        if pair.len() != 2 {
            return None;
        }
        out.insert(k.clone(), (mtime, size));
    }
    Some(out)
}

fn text(v: Option<&Json>) -> String {
    match v {
        Some(Json::String(s)) => s.clone(),
        Some(Json::Null) | None => String::new(),
        Some(other) => other.to_string(),
    }
}

fn entry(v: &Json) -> Option<IndexEntry> {
    let o = v.as_object()?;
    let skill_name = text(o.get("skill_name"));
    let conditions = o.get("conditions").and_then(Json::as_object);
    let cond = |k: &str| conditions.and_then(|c| c.get(k)).map(Value::from_json).unwrap_or(Value::Seq(vec![]));
    Some(IndexEntry {
        category: text(o.get("category")),
        shown_name: text(o.get("frontmatter_name")),
        description: text(o.get("description")),
        platforms: o
            .get("platforms")
            .and_then(Json::as_array)
            .map(|a| a.iter().map(|p| text(Some(p))).collect())
            .unwrap_or_default(),
        conditions: Conditions {
            fallback_for_toolsets: cond("fallback_for_toolsets"),
            requires_toolsets: cond("requires_toolsets"),
            fallback_for_tools: cond("fallback_for_tools"),
            requires_tools: cond("requires_tools"),
        },
        skill_name,
    })
}

/// The snapshot Hermes would use now, if there is a valid one.
pub fn load(home: &Home) -> Option<Snapshot> {
    let raw = crate::source::read_text(&home.root.join(SNAPSHOT_FILE)).ok()?;
    let doc: Json = serde_json::from_str(&raw).ok()?;
    if doc.get("version").and_then(Json::as_i64) != Some(1) {
        return None;
    }
    if json_manifest(doc.get("manifest")?)? != manifest(&home.skills_dir) {
        return None;
    }
    let entries = doc.get("skills").and_then(Json::as_array)?.iter().filter_map(entry).collect();
    let category_descriptions = doc
        .get("category_descriptions")
        .and_then(Json::as_object)
        .map(|m| m.iter().map(|(k, v)| (k.clone(), text(Some(v)))).collect())
        .unwrap_or_default();
    Some(Snapshot { entries, category_descriptions })
}
