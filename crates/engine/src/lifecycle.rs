//! What Hermes does to skills besides loading them, read from the files it
//! keeps and never written: where each came from (`tools/skill_usage.py`:
//! the bundled manifest, the hub lock, agent-made records), its usage
//! record, whether the curator manages it, and what the curator's next
//! automatic pass would do to it (`agent/curator.py`:
//! `apply_automatic_transitions`, `should_run_now`).

use super::isotime::{self, Micros, MICROS_PER_HOUR};
use super::words::count_s;
use super::{discover, paths, Engine};
use crate::py::json_truthy as truthy;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

/// Built-ins the curator never touches (`PROTECTED_BUILTIN_SKILLS`).
const PROTECTED: [&str; 1] = ["plan"];

/// The state files larger than this are not read (a clear note instead).
const MAX_STATE_BYTES: u64 = 64 * 1024 * 1024;

/// `curator.*` from config.yaml, with Hermes' defaults.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct CuratorConfig {
    pub enabled: bool,
    pub interval_hours: i64,
    pub min_idle_hours: f64,
    pub stale_after_days: i64,
    pub archive_after_days: i64,
    pub prune_builtins: bool,
}

/// The curator's schedule as `.curator_state` and the config leave it.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Curator {
    #[serde(flatten)]
    pub config: CuratorConfig,
    pub paused: bool,
    pub last_run_at: Option<String>,
    /// `should_run_now(now)`.
    pub due: bool,
    /// When the next pass is due, when it can be said.
    pub next_run_at: Option<String>,
    pub why: String,
}

/// One skill's life around its loading.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct SkillLife {
    pub name: String,
    /// Hermes' `provenance()`: `bundled`, `hub` or `agent`.
    pub provenance: &'static str,
    /// In `skills.external_dirs`: read-only to the curator.
    pub external: bool,
    /// `list_agent_created_skill_names()` holds it: the curator pass walks it.
    pub eligible: bool,
    /// `is_curation_eligible(name)`: the curator may track and archive it
    /// (a local skill it does not walk without an agent-made record still is).
    pub curation_eligible: bool,
    /// Its usage record says the agent made it (`created_by: agent`).
    pub agent_made: bool,
    pub protected: bool,
    /// Its usage record says so, else `active`.
    pub state: String,
    pub pinned: bool,
    /// Whether `.usage.json` holds a record for it.
    pub recorded: bool,
    pub use_count: i64,
    pub view_count: i64,
    pub patch_count: i64,
    /// `activity_count`: uses, views and patches together.
    pub activity_count: i64,
    pub last_activity: Option<String>,
    /// What a curator pass at `now` does to it.
    pub next: &'static str,
    /// When that (or, when nothing is due, the next transition) is due.
    pub due: Option<String>,
    pub why: String,
    /// Its SKILL.md.
    #[serde(serialize_with = "lossy_path")]
    pub path: PathBuf,
    /// The hub's record of it: source and trust level, when installed from a hub.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hub: Option<HubEntry>,
}

impl SkillLife {
    /// Where it came from by our reading, finer than Hermes' `provenance()`
    /// (which calls everything neither bundled nor from a hub `agent`):
    /// the hub's source and trust, or whether a usage record says the agent
    /// made it. Shown beside Hermes' answer, labelled as ours.
    pub fn origin(&self) -> String {
        match (&self.hub, self.provenance) {
            (Some(hub), _) => format!(
                "from a hub: {} ({})",
                hub.source.as_deref().unwrap_or("source unknown"),
                hub.trust_level.as_deref().unwrap_or("trust unknown")
            ),
            (None, "bundled") => "bundled with Hermes".into(),
            (None, _) if self.agent_made => "made by the agent: its usage record says created_by: agent".into(),
            (None, _) => "local: no usage record says the agent made it".into(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct HubEntry {
    pub source: Option<String>,
    pub trust_level: Option<String>,
}

/// A skill the curator moved to `skills/.archive/`.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Archived {
    /// The folder's name in `skills/.archive/`, as Hermes lists it.
    pub name: String,
    /// The `name:` of its SKILL.md, when it has one.
    pub skill_name: Option<String>,
    #[serde(serialize_with = "lossy_path")]
    pub path: PathBuf,
    pub archived_at: Option<String>,
    /// `latest_activity_at` of its record: its last use before the archive.
    pub last_activity: Option<String>,
    pub restore: String,
    /// Why `hermes curator restore` would refuse it now, in Hermes' words.
    pub restore_refused: Option<String>,
    /// In `.curator_suppressed`: `hermes update` does not re-seed it.
    pub suppressed: bool,
}

#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Lifecycle {
    pub now: String,
    pub curator: Curator,
    /// `skills.guard_agent_created`: the agent's own writes (skill_manage)
    /// are scanned as `agent-created` installs.
    pub guard_agent_created: bool,
    pub skills: Vec<SkillLife>,
    pub archived: Vec<Archived>,
    /// Files Hermes would read that could not be, named.
    pub problems: Vec<String>,
}

/// Reads a JSON file Hermes reads with `json.loads(read_text())`; `None`
/// when missing, with a problem noted when it cannot be used.
fn read_json(path: &Path, problems: &mut Vec<String>) -> Option<Value> {
    if !paths::exists(path) {
        return None;
    }
    match super::source::read_text_at_most(path, MAX_STATE_BYTES) {
        Ok(Some(text)) if text.starts_with('\u{feff}') => {
            // `json.loads` on the decoded text refuses a byte-order mark.
            problems.push(format!("{}: starts with a byte-order mark; Hermes reads it as empty", path.display()));
            None
        }
        Ok(Some(text)) => match serde_json::from_str(&text) {
            Ok(v) => Some(v),
            Err(e) => {
                problems.push(format!("{}: not valid JSON ({e}); Hermes reads it as empty", path.display()));
                None
            }
        },
        Ok(None) => {
            problems.push(format!("{}: larger than {} MiB, not read", path.display(), MAX_STATE_BYTES >> 20));
            None
        }
        Err(e) => {
            problems.push(format!("{}: {}; Hermes reads it as empty", path.display(), e.message()));
            None
        }
    }
}

/// What the tree shows and sorts by of a skill's usage record.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct UsageMark {
    pub stale: bool,
    pub pinned: bool,
    pub use_count: i64,
    /// `latest_activity_at`: the newest of use, view and patch.
    pub last_activity: Option<Micros>,
}

/// The usage records by name and the archive: what the tree shows of the
/// curator's work.
#[derive(Debug, Clone, Default)]
pub struct UsageOverview {
    pub marks: std::collections::HashMap<String, UsageMark>,
    pub archived: Vec<Archived>,
}

impl UsageOverview {
    /// The usage record of a catalog skill (a database skill has none in
    /// this home).
    pub fn mark(&self, skill: &super::catalog::CatalogSkill) -> Option<&UsageMark> {
        self.marks.get(&skill.name).filter(|_| skill.db_row.is_none())
    }
}

impl Engine {
    /// Every usage record in `skills/.usage.json` (a corrupt or missing
    /// file has none) and the archived skills.
    pub fn usage_overview(&self) -> UsageOverview {
        let src = Sources::read(self);
        let archived = src.archived();
        let marks = src
            .usage
            .into_iter()
            .filter_map(|(name, record)| {
                let record = record.as_object()?;
                let mark = UsageMark {
                    stale: record.get("state").and_then(Value::as_str) == Some("stale"),
                    pinned: record.get("pinned").is_some_and(truthy),
                    use_count: count(record, "use_count"),
                    last_activity: latest_activity(record).map(|a| a.0),
                };
                Some((name, mark))
            })
            .collect();
        UsageOverview { marks, archived }
    }
}

/// A state file's text, read without ever blocking (a FIFO is refused), at
/// most [`MAX_STATE_BYTES`]; `None` where it cannot be read.
fn read_small_text(path: &Path) -> Option<String> {
    super::source::read_text_at_most(path, MAX_STATE_BYTES).ok().flatten()
}

/// `_read_skill_name`: the `name:` line of the frontmatter, not YAML.
pub fn read_skill_name(skill_md: &Path, fallback: &str) -> String {
    // 4,000 characters are at most 16,000 bytes: the rest is never looked at.
    let mut bytes = vec![0; 16_000];
    let Ok(len) = std::fs::File::open(skill_md).and_then(|mut f| read_up_to(&mut f, &mut bytes)) else {
        return fallback.to_owned();
    };
    let lossy = String::from_utf8_lossy(&bytes[..len]);
    let text = match lossy.char_indices().nth(4000) {
        Some((end, _)) => &lossy[..end],
        None => &lossy[..],
    };
    let mut in_frontmatter = false;
    for line in text.split('\n') {
        let stripped = crate::py::py_strip(line);
        if stripped == "---" {
            if in_frontmatter {
                break;
            }
            in_frontmatter = true;
            continue;
        }
        if in_frontmatter {
            if let Some(rest) = stripped.strip_prefix("name:") {
                let value = crate::py::py_strip(rest).trim_matches(['"', '\'']);
                if !value.is_empty() {
                    return value.to_owned();
                }
            }
        }
    }
    fallback.to_owned()
}

/// Fills `buf` from `file` until it is full or the file ends (a read at a
/// time, no probing): the bytes read.
fn read_up_to(file: &mut std::fs::File, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match std::io::Read::read(file, &mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

fn parent_name(skill_md: &Path) -> String {
    skill_md.parent().and_then(Path::file_name).map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
}

/// Every `SKILL.md` below `dir` as `dir.rglob("SKILL.md")` gives them,
/// less excluded paths.
/// A path as JSON text, a byte that is not UTF-8 shown as U+FFFD (as
/// every answer shows it): serde refuses such a path, midway through the
/// document.
fn lossy_path<S: serde::Serializer>(path: &Path, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&paths::path_string(path))
}

fn skill_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = paths::rglob(dir, "SKILL.md")
        .into_iter()
        .filter(|p| paths::is_file(p) && !discover::is_excluded_skill_path(p))
        .collect();
    files.sort();
    files
}

/// What the curator's decision reads of a home.
struct Sources {
    skills_dir: PathBuf,
    bundled: HashSet<String>,
    hub: HashSet<String>,
    hub_entries: BTreeMap<String, HubEntry>,
    usage: Map<String, Value>,
    cron: HashSet<String>,
    external_roots: Vec<PathBuf>,
    config: CuratorConfig,
    problems: Vec<String>,
}

impl Sources {
    fn read(engine: &Engine) -> Sources {
        let skills_dir = engine.home.skills_dir.clone();
        let mut problems = Vec::new();
        let bundled = read_small_text(&skills_dir.join(".bundled_manifest"))
            .map(|text| {
                crate::py::py_splitlines(&text)
                    .filter_map(|l| {
                        let name = crate::py::py_strip(crate::py::py_strip(l).split(':').next().unwrap_or(""));
                        (!name.is_empty()).then(|| name.to_owned())
                    })
                    .collect()
            })
            .unwrap_or_default();
        let (hub, hub_entries) = hub_names(&skills_dir, &mut problems);
        let usage = match read_json(&skills_dir.join(".usage.json"), &mut problems) {
            Some(Value::Object(map)) => map.into_iter().filter(|(_, v)| v.is_object()).collect(),
            Some(_) => {
                problems.push(format!(
                    "{}: not a JSON object; Hermes reads it as empty",
                    skills_dir.join(".usage.json").display()
                ));
                Map::new()
            }
            None => Map::new(),
        };
        let cron = cron_referenced(&engine.home.root);
        let external_roots = engine.home.external_dirs.iter().map(|d| paths::resolve(d)).collect();
        let config = curator_config(engine);
        Sources { skills_dir, bundled, hub, hub_entries, usage, cron, external_roots, config, problems }
    }

    fn is_external(&self, path: &Path) -> bool {
        if self.external_roots.is_empty() {
            return false;
        }
        let resolved = paths::resolve(path);
        self.external_roots.iter().any(|r| resolved.starts_with(r))
    }

    fn provenance(&self, name: &str) -> &'static str {
        if self.hub.contains(name) {
            "hub"
        } else if self.bundled.contains(name) {
            "bundled"
        } else {
            "agent"
        }
    }
}

/// `_read_hub_installed_names`: the lock's keys, and the names of the
/// skills at its install paths inside the skills folder.
fn hub_names(skills_dir: &Path, problems: &mut Vec<String>) -> (HashSet<String>, BTreeMap<String, HubEntry>) {
    let mut names = HashSet::new();
    let mut entries = BTreeMap::new();
    let lock = skills_dir.join(".hub/lock.json");
    let Some(Value::Object(data)) = read_json(&lock, problems) else { return (names, entries) };
    let Some(Value::Object(installed)) = data.get("installed").filter(|v| truthy(v)) else { return (names, entries) };
    let root = paths::resolve(skills_dir);
    for (key, entry) in installed {
        names.insert(key.clone());
        let text = |k: &str| entry.get(k).and_then(Value::as_str).map(str::to_owned);
        entries.insert(key.clone(), HubEntry { source: text("source"), trust_level: text("trust_level") });
        let Some(install_path) = entry.get("install_path").and_then(Value::as_str) else { continue };
        if crate::py::py_strip(install_path).is_empty() {
            continue;
        }
        let dir = Path::new(install_path);
        let dir = if dir.is_absolute() { dir.to_path_buf() } else { skills_dir.join(dir) };
        let resolved = paths::resolve(&dir);
        if !resolved.starts_with(&root) {
            problems.push(format!(
                "{}: the install path of {key} leaves the skills folder; Hermes ignores it",
                lock.display()
            ));
            continue;
        }
        let skill_md = resolved.join("SKILL.md");
        if paths::exists(&skill_md) {
            let fallback = resolved.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            names.insert(read_skill_name(&skill_md, &fallback));
        }
    }
    (names, entries)
}

/// `cron.jobs.referenced_skill_names()`: any failure is no protection.
fn cron_referenced(home: &Path) -> HashSet<String> {
    let mut names = HashSet::new();
    let Some(text) = read_small_text(&home.join("cron/jobs.json")) else { return names };
    let Ok(data) = serde_json::from_str::<Value>(text.trim_start_matches('\u{feff}')) else { return names };
    let jobs = match &data {
        Value::Object(o) => o.get("jobs").cloned().unwrap_or(Value::Array(Vec::new())),
        Value::Array(_) => data.clone(),
        _ => return names,
    };
    let Value::Array(jobs) = jobs else { return HashSet::new() };
    for job in jobs.iter().filter_map(Value::as_object) {
        let items: Vec<Value> = match (job.get("skill"), job.get("skills")) {
            (skill, None | Some(Value::Null)) => skill.filter(|v| truthy(v)).cloned().into_iter().collect(),
            (_, Some(Value::String(s))) => vec![Value::String(s.clone())],
            (_, Some(Value::Array(a))) => a.clone(),
            (_, Some(Value::Object(o))) => o.keys().map(|k| Value::String(k.clone())).collect(),
            // `list(5)` raises: the whole set is lost.
            _ => return HashSet::new(),
        };
        for item in items {
            let text = match &item {
                Value::String(s) => s.clone(),
                v if !truthy(v) => String::new(),
                v => v.to_string(),
            };
            let cleaned = crate::py::py_strip(&text).trim_start_matches('/').to_owned();
            if !cleaned.is_empty() {
                names.insert(cleaned);
            }
        }
    }
    names
}

fn curator_config(engine: &Engine) -> CuratorConfig {
    let section = engine.home.raw_config.get("curator");
    let cur: Option<&super::value::Map> = match section {
        Some(super::value::Value::Map(m)) => Some(m),
        _ => None,
    };
    let get = |k: &str| cur.and_then(|m| m.get(k)).map(super::value::Value::to_json);
    CuratorConfig {
        enabled: get("enabled").map_or(true, |v| truthy(&v)),
        interval_hours: get("interval_hours").and_then(|v| crate::py::json_int(&v)).unwrap_or(24 * 7),
        min_idle_hours: get("min_idle_hours").and_then(|v| crate::py::json_float(&v)).unwrap_or(2.0),
        stale_after_days: get("stale_after_days").and_then(|v| crate::py::json_int(&v)).unwrap_or(30),
        archive_after_days: get("archive_after_days").and_then(|v| crate::py::json_int(&v)).unwrap_or(90),
        prune_builtins: get("prune_builtins").map_or(true, |v| truthy(&v)),
    }
}

/// `_parse_iso_timestamp` / `_parse_iso` on a record's value.
fn timestamp(v: Option<&Value>) -> Option<Micros> {
    v.and_then(Value::as_str).filter(|s| !s.is_empty()).and_then(isotime::parse)
}

/// `latest_activity_at(record)`: the newest of use, view and patch.
fn latest_activity(record: &Map<String, Value>) -> Option<(Micros, String)> {
    let mut latest: Option<(Micros, String)> = None;
    for key in ["last_used_at", "last_viewed_at", "last_patched_at"] {
        let Some(raw) = record.get(key).filter(|v| truthy(v)) else { continue };
        let text = match raw {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        let Some(t) = isotime::parse(&text) else { continue };
        if latest.as_ref().map_or(true, |(l, _)| t > *l) {
            latest = Some((t, text));
        }
    }
    latest
}

fn count(record: &Map<String, Value>, key: &str) -> i64 {
    record.get(key).filter(|v| truthy(v)).and_then(crate::py::json_int).unwrap_or(0)
}

impl Engine {
    /// The lifecycle of every skill in the home, and the curator's next
    /// pass at `now`.
    pub fn lifecycle(&self, now: Micros) -> Lifecycle {
        let mut src = Sources::read(self);
        let local = skill_files(&src.skills_dir);
        let mut seen = HashSet::new();
        let mut skills = Vec::new();
        // The names the curator walks (`list_agent_created_skill_names`).
        let mut walked: HashSet<String> = HashSet::new();
        // Each SKILL.md's name and whether it lies in an external dir, found once.
        let local: Vec<(PathBuf, String, bool)> = super::parallel_map(&local, |md| {
            let name = read_skill_name(md, &parent_name(md));
            let external = src.is_external(md);
            (md.clone(), name, external)
        });
        for (_, name, external) in &local {
            if !external && src.walks(name) {
                walked.insert(name.clone());
            }
        }
        let externals: Vec<PathBuf> = self.home.external_dirs.iter().flat_map(|d| skill_files(d)).collect();
        let mut pass_failed: Option<String> = None;
        let mut names_in_order: Vec<(String, PathBuf, bool)> = Vec::new();
        let external_named =
            super::parallel_map(&externals, |md| (md.clone(), read_skill_name(md, &parent_name(md)), true));
        for (md, name, external) in local.into_iter().chain(external_named) {
            if seen.insert(name.clone()) {
                names_in_order.push((name, md, external));
            }
        }
        names_in_order.sort_by(|a, b| a.0.cmp(&b.0));
        for (name, path, external) in names_in_order {
            let eligible = walked.contains(&name);
            let life = src.life_of(name, path, external, eligible, now, pass_failed.as_deref());
            if eligible && pass_failed.is_none() && life.why.starts_with("the pass stops at ") {
                pass_failed = Some(life.why.clone());
            }
            skills.push(life);
        }
        let curator = curator_schedule(&src.skills_dir, &src.config, now, &mut src.problems);
        let archived = src.archived();
        Lifecycle {
            now: isotime::format(now),
            curator,
            guard_agent_created: self.guard_agent_created(),
            skills,
            archived,
            problems: src.problems,
        }
    }

    /// `_guard_agent_created_enabled()`: `skills.guard_agent_created` of the
    /// loaded config, as `is_truthy_value` reads it (off by default).
    pub fn guard_agent_created(&self) -> bool {
        let value = match self.home.merged_skills() {
            Some(super::value::Value::Map(m)) => m.get("guard_agent_created"),
            _ => None,
        };
        match value {
            None | Some(super::value::Value::Null) => false,
            Some(super::value::Value::Bool(b)) => *b,
            Some(super::value::Value::Str(s)) => {
                ["1", "true", "yes", "on"].contains(&crate::py::py_strip(s).to_lowercase().as_str())
            }
            Some(other) => other.truthy(),
        }
    }

    /// One skill's lifecycle (its name and SKILL.md as the catalog has
    /// them), without a walk of the home: for the browser's view of it. A
    /// pass that stops at an earlier skill is not seen from here.
    pub fn skill_lifecycle(&self, name: &str, skill_md: &Path, now: Micros) -> (SkillLife, Curator, Vec<String>) {
        let mut src = Sources::read(self);
        let external = src.is_external(skill_md);
        let eligible = !external && src.walks(name);
        let life = src.life_of(name.to_owned(), skill_md.to_path_buf(), external, eligible, now, None);
        let curator = curator_schedule(&src.skills_dir, &src.config, now, &mut src.problems);
        (life, curator, src.problems)
    }
}

impl Sources {
    /// Whether `list_agent_created_skill_names()` holds a local skill of this name.
    fn walks(&self, name: &str) -> bool {
        let managed = self.agent_made(name);
        !self.hub.contains(name)
            && !PROTECTED.contains(&name)
            && if self.bundled.contains(name) { self.config.prune_builtins } else { managed }
    }

    /// `_is_curator_managed_record`: its usage record says the agent made it.
    fn agent_made(&self, name: &str) -> bool {
        self.usage.get(name).and_then(Value::as_object).is_some_and(|r| {
            r.get("created_by").and_then(Value::as_str) == Some("agent")
                || r.get("agent_created") == Some(&Value::Bool(true))
        })
    }

    /// `is_curation_eligible(name)` of a skill that is external only when
    /// no local skill has its name.
    fn curation_eligible(&self, name: &str, external: bool) -> bool {
        !PROTECTED.contains(&name)
            && !self.hub.contains(name)
            && if self.bundled.contains(name) { self.config.prune_builtins } else { !external }
    }

    /// A skill's lifecycle at `now`; `stopped` is why the pass never reaches it.
    fn life_of(
        &self,
        name: String,
        path: PathBuf,
        external: bool,
        eligible: bool,
        now: Micros,
        stopped: Option<&str>,
    ) -> SkillLife {
        let (src, cfg) = (self, &self.config);
        let record = src.usage.get(&name).and_then(Value::as_object);
        let empty = Map::new();
        let rec = record.unwrap_or(&empty);
        let state = match rec.get("state") {
            Some(Value::String(s)) => s.clone(),
            Some(other) => other.to_string(),
            None => "active".into(),
        };
        let pinned = rec.get("pinned").is_some_and(truthy);
        let activity = latest_activity(rec);
        let mut life = SkillLife {
            provenance: src.provenance(&name),
            external,
            eligible,
            curation_eligible: src.curation_eligible(&name, external),
            agent_made: src.agent_made(&name),
            protected: PROTECTED.contains(&name.as_str()),
            state: state.clone(),
            pinned,
            recorded: record.is_some(),
            use_count: count(rec, "use_count"),
            view_count: count(rec, "view_count"),
            patch_count: count(rec, "patch_count"),
            activity_count: ["use_count", "view_count", "patch_count"]
                .iter()
                .fold(0, |total: i64, k| total.saturating_add(count(rec, k))),
            last_activity: activity.as_ref().map(|a| a.1.clone()),
            next: "none",
            due: None,
            why: String::new(),
            path,
            hub: src.hub_entries.get(&name).cloned(),
            name: name.clone(),
        };
        let (next, due, why) = match (eligible, stopped) {
            (false, _) => ("none", None, not_walked_why(src, &name, external, &life)),
            (true, Some(failure)) => ("none", None, failure.to_owned()),
            (true, None) => cutoffs(cfg, now)
                .and_then(|cutoffs| forecast(src, &name, record, activity.map(|a| a.0), now, cutoffs, cfg))
                .unwrap_or_else(|failure| ("none", None, failure)),
        };
        (life.next, life.due, life.why) = (next, due.map(isotime::format), why);
        life
    }
}

/// The pass's stale and archive cut-offs at `now`, or why Python raises
/// computing them (before any skill: none moves).
fn cutoffs(cfg: &CuratorConfig, now: Micros) -> Result<(Micros, Micros), String> {
    let cutoff = |key: &str, days: i64| {
        isotime::add_days(now, days.saturating_neg()).ok_or_else(|| {
            format!("the pass raises before any skill: {key} {days} puts its cut-off outside Python's calendar (OverflowError), so no skill moves")
        })
    };
    Ok((
        cutoff("curator.stale_after_days", cfg.stale_after_days)?,
        cutoff("curator.archive_after_days", cfg.archive_after_days)?,
    ))
}

fn not_walked_why(src: &Sources, name: &str, external: bool, life: &SkillLife) -> String {
    if external {
        "in skills.external_dirs: read-only to the curator".into()
    } else if src.hub.contains(name) {
        "hub-installed: the curator never touches it".into()
    } else if PROTECTED.contains(&name) {
        "a protected built-in: never archived or consolidated".into()
    } else if src.bundled.contains(name) {
        "bundled, and curator.prune_builtins is off".into()
    } else if life.recorded {
        "not made by the agent (its usage record does not say created_by: agent): the curator leaves it".into()
    } else {
        "not made by the agent (no usage record marks it): the curator leaves it".into()
    }
}

/// One skill's step of `apply_automatic_transitions(now)`: what happens,
/// when it falls due, and why; `Err` when Hermes' pass raises at it (and
/// stops for every skill after it).
fn forecast(
    src: &Sources,
    name: &str,
    record: Option<&Map<String, Value>>,
    last_activity: Option<Micros>,
    now: Micros,
    (stale_cutoff, archive_cutoff): (Micros, Micros),
    cfg: &CuratorConfig,
) -> Result<(&'static str, Option<Micros>, String), String> {
    if record.is_some_and(|r| r.get("pinned").is_some_and(truthy)) {
        return Ok(("none", None, "pinned: the curator never moves it".into()));
    }
    if src.cron.contains(name) {
        return Ok(("none", None, "a cron job names it: in use by definition".into()));
    }
    let Some(rec) = record else {
        return Ok(("seed", Some(now), "first sight: the pass records it now and starts its inactivity clock".into()));
    };
    // Backfilled as Hermes does: a record without `created_at` gets now (the clock's).
    let created = match rec.get("created_at") {
        None => Some(isotime::now()),
        Some(v) => timestamp(Some(v)),
    };
    let anchor = last_activity.or(created).unwrap_or(now);
    let current = rec.get("state").cloned().unwrap_or(Value::String("active".into()));
    let is = |s: &str| current == Value::String(s.into());
    let use_count = match rec.get("use_count") {
        None => 0,
        Some(v) if !truthy(v) => 0,
        Some(v) => crate::py::json_int(v).ok_or_else(|| {
            format!("the pass stops at {name}: its use_count {v} is not a number (Python raises), so no skill after it moves")
        })?,
    };
    let since = if last_activity.is_some() { "its last activity" } else { "its creation" };
    if use_count == 0 && anchor > stale_cutoff {
        return Ok(match is("stale") {
            true => ("reactivate", Some(now), "never used and younger than the stale window: back to active".into()),
            false => (
                "none",
                isotime::add_days(anchor, cfg.stale_after_days),
                format!("never used; stale {} after {since}", count_s(cfg.stale_after_days, "day")),
            ),
        });
    }
    if anchor <= archive_cutoff && !is("archived") {
        let why = format!(
            "no activity for {} since {since}: moved to skills/.archive/",
            count_s(cfg.archive_after_days, "day")
        );
        return Ok(("archive", isotime::add_days(anchor, cfg.archive_after_days), why));
    }
    if anchor <= stale_cutoff && is("active") {
        let why = format!("no activity for {} since {since}", count_s(cfg.stale_after_days, "day"));
        return Ok(("stale", isotime::add_days(anchor, cfg.stale_after_days), why));
    }
    if anchor > stale_cutoff && is("stale") {
        return Ok(("reactivate", Some(now), "used again since it was marked stale".into()));
    }
    Ok(if is("active") {
        (
            "none",
            isotime::add_days(anchor, cfg.stale_after_days),
            format!("active; stale {} after {since}", count_s(cfg.stale_after_days, "day")),
        )
    } else if is("stale") {
        let why = format!("stale; archived {} after {since}", count_s(cfg.archive_after_days, "day"));
        ("none", isotime::add_days(anchor, cfg.archive_after_days), why)
    } else {
        ("none", None, format!("its record's state is {current}: no automatic transition applies"))
    })
}

/// `should_run_now(now)` without its side effect (on first sight Hermes
/// writes `last_run_at` and waits one interval).
fn curator_schedule(skills_dir: &Path, cfg: &CuratorConfig, now: Micros, problems: &mut Vec<String>) -> Curator {
    let state = match read_json(&skills_dir.join(".curator_state"), problems) {
        Some(Value::Object(m)) => m,
        _ => Map::new(),
    };
    let paused = state.get("paused").is_some_and(truthy);
    let last_raw = state.get("last_run_at").and_then(Value::as_str).map(str::to_owned);
    let last = last_raw.as_deref().filter(|s| !s.is_empty()).and_then(isotime::parse);
    let (due, next_run_at, why) = if !cfg.enabled {
        (false, None, "curator.enabled is off".to_owned())
    } else if paused {
        (false, None, "paused (.curator_state)".to_owned())
    } else {
        let hours = cfg.interval_hours;
        match last {
            None => (
                false,
                isotime::add_hours(now, hours),
                "never run: the first tick records now and runs one interval later".to_owned(),
            ),
            // `timedelta(hours=...)` itself raises beyond its range.
            Some(_) if hours.div_euclid(24).unsigned_abs() > isotime::MAX_TIMEDELTA_DAYS as u64 => (
                false,
                None,
                format!("should_run_now raises: curator.interval_hours {hours} is beyond Python's timedelta (OverflowError)"),
            ),
            Some(last) if i128::from(now) - i128::from(last) >= i128::from(hours) * i128::from(MICROS_PER_HOUR) => {
                (true, isotime::add_hours(last, hours), "due: one interval since the last run".to_owned())
            }
            Some(last) => (false, isotime::add_hours(last, hours), format!("next run {hours} hours after the last")),
        }
    };
    Curator {
        config: cfg.clone(),
        paused,
        last_run_at: last_raw,
        due,
        next_run_at: next_run_at.map(isotime::format),
        why,
    }
}

/// The 14-digit UTC stamp `archive_skill` appends on a name collision.
fn timestamp_suffix_of<'a>(dir_name: &'a str, skill: &str) -> Option<&'a str> {
    let rest = dir_name.strip_prefix(skill)?.strip_prefix('-')?;
    (rest.len() == 14 && rest.bytes().all(|b| b.is_ascii_digit())).then_some(rest)
}

/// The folder `restore_skill(name)` would move back: an exact name
/// anywhere below the archive, else the newest timestamped copy.
fn restore_candidate(archive_dirs: &[PathBuf], name: &str) -> Option<PathBuf> {
    let dir_name = |p: &PathBuf| p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    if let Some(exact) = archive_dirs.iter().find(|p| dir_name(p) == name) {
        return Some(exact.clone());
    }
    let mut stamped: Vec<&PathBuf> =
        archive_dirs.iter().filter(|p| timestamp_suffix_of(&dir_name(p), name).is_some()).collect();
    // Python sorts the paths as strings, newest (largest) first.
    stamped.sort_by(|a, b| b.as_os_str().cmp(a.as_os_str()));
    stamped.first().map(|p| (*p).clone())
}

/// `read_suppressed_names()`: built-ins the curator pruned, which
/// `hermes update` does not re-seed.
fn suppressed_names(skills_dir: &Path) -> HashSet<String> {
    read_small_text(&skills_dir.join(".curator_suppressed"))
        .map(|text| {
            crate::py::py_splitlines(&text)
                .map(crate::py::py_strip)
                .filter(|l| !l.is_empty() && !l.starts_with('#'))
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

impl Sources {
    /// `list_archived_skill_names()`, with where each is, when it was
    /// archived, and what `hermes curator restore` would do with it.
    fn archived(&self) -> Vec<Archived> {
        let root = self.skills_dir.join(".archive");
        // Every folder below the archive, walked only for a timestamped copy:
        // a plain name always restores its own folder (listed first).
        let archive_dirs: std::cell::OnceCell<Vec<PathBuf>> = std::cell::OnceCell::new();
        let all_dirs =
            || archive_dirs.get_or_init(|| paths::rglob(&root, "*").into_iter().filter(|p| paths::is_dir(p)).collect());
        let suppressed = suppressed_names(&self.skills_dir);
        let mut out: Vec<Archived> = std::fs::read_dir(&root)
            .into_iter()
            .flatten()
            .flatten()
            .filter(|e| paths::is_dir(&e.path()))
            .map(|e| {
                let name = e.file_name().to_string_lossy().into_owned();
                let path = e.path();
                let skill_md = path.join("SKILL.md");
                let skill_name = paths::is_file(&skill_md).then(|| read_skill_name(&skill_md, &name));
                // `restore BASE` picks this copy when no exact BASE is archived
                // and it is the newest stamped one; otherwise its own name does.
                let base = name.rsplit_once('-').map(|(b, _)| b).filter(|b| timestamp_suffix_of(&name, b).is_some());
                let restore_name = base
                    .filter(|b| restore_candidate(all_dirs(), b).as_deref() == Some(path.as_path()))
                    .unwrap_or(&name)
                    .to_owned();
                let record = [skill_name.as_deref(), Some(name.as_str())]
                    .into_iter()
                    .flatten()
                    .find_map(|n| self.usage.get(n).and_then(Value::as_object));
                let archived_at = record.and_then(|r| r.get("archived_at")).and_then(Value::as_str).map(str::to_owned);
                let last_activity = record.and_then(latest_activity).map(|a| a.1);
                Archived {
                    restore: format!("hermes curator restore {restore_name}"),
                    restore_refused: self.restore_refusal(&restore_name),
                    suppressed: suppressed.contains(&name)
                        || skill_name.as_ref().is_some_and(|n| suppressed.contains(n)),
                    skill_name,
                    archived_at,
                    last_activity,
                    path,
                    name,
                }
            })
            .collect();
        out.sort_by(|a, b| a.name.cmp(&b.name));
        out
    }

    /// Why `restore_skill(name)` would refuse, in Hermes' words.
    fn restore_refusal(&self, name: &str) -> Option<String> {
        if self.hub.contains(name) {
            return Some(format!("skill '{name}' is now hub-installed; restore would shadow the upstream version"));
        }
        if self.bundled.contains(name) && !self.config.prune_builtins {
            return Some(format!("skill '{name}' is now bundled; restore would shadow the upstream version"));
        }
        let dest = self.skills_dir.join(name);
        paths::exists(&dest).then(|| format!("destination already exists: {}", dest.display()))
    }
}
