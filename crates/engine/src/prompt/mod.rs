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
use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::path::{Path, PathBuf};

const GUIDANCE: &str = "## Skills (mandatory)\n\
Before replying, scan the skills below. If a skill matches or is even partially relevant to your task, you MUST load it with skill_view(name) and follow its instructions. Err on the side of loading — it is always better to have context you don't need than to miss critical steps, pitfalls, or established workflows. Skills contain specialized knowledge — API endpoints, tool-specific commands, and proven workflows that outperform general-purpose approaches. Load the skill even if you think you could handle the task with basic tools like web_search or terminal. Skills also encode the user's preferred approach, conventions, and quality standards for tasks like code review, planning, and testing — load them even for tasks you already know how to do, because the skill defines how it should be done here.\n\
Whenever the user asks you to configure, set up, install, enable, disable, modify, or troubleshoot Hermes Agent itself — its CLI, config, models, providers, tools, skills, voice, gateway, plugins, or any feature — load the `hermes-agent` skill first. It has the actual commands (e.g. `hermes config set …`, `hermes tools`, `hermes setup`) so you don't have to guess or invent workarounds.\n\
If a skill has issues, fix it with skill_manage(action='patch').\n\
After difficult/iterative tasks, offer to save as a skill. If a skill you loaded was missing steps, had wrong commands, or needed pitfalls you discovered, update it before finishing.\n\
\n\
<available_skills>\n";

const CLOSING: &str =
    "</available_skills>\n\nOnly proceed without loading a skill if genuinely none are relevant to the task.";

/// The end of an index that shows a category names-only: the footer note
/// follows.
const CLOSING_DEMOTED: &str = concat!(
    "</available_skills>\n\nOnly proceed without loading a skill if genuinely none are relevant to the task.",
    "\n(Categories marked [names only] are outside the current coding context, so their descriptions are omitted — the skills work normally and load with skill_view(name) as usual.)"
);

/// What the index is built for: the agent's tools and toolsets, the
/// categories shown names-only (the focus posture's, [`crate::posture`]),
/// and which of Hermes' cache paths builds it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct IndexRequest {
    pub avail: ToolAvailability,
    /// Top-level categories: `social-media` also demotes `social-media/x`.
    pub compact: BTreeSet<String>,
    pub cache: PromptCache,
}

/// The index as Hermes renders it, kept in its parts: the text around the
/// categories, each category's lines, and in them each skill's.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PromptIndex {
    pub categories: Vec<IndexCategory>,
    /// The skills its walk read and did not show, in the order it met them.
    pub left_out: Vec<LeftOut>,
}

/// A skill the index's walk read and did not show, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct LeftOut {
    pub name: String,
    pub category: String,
    /// Its SKILL.md, when known (a snapshot entry names no file that exists).
    pub path: Option<PathBuf>,
    pub why: LeftOutWhy,
}

/// Why the index does not show a skill.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LeftOutWhy {
    /// Another platform, or environment (`_parse_skill_file`: not compatible).
    Platform,
    /// In `skills.disabled` (globally or for the platform).
    Disabled,
    /// Its toolset or tool conditions (`_skill_should_show`).
    Conditions,
    /// An earlier skill of the index has its name (an external skill, or a
    /// second of one name in a category).
    NameTaken,
    /// Building its entry raises, which Hermes catches for external skills.
    Raises,
}

impl LeftOutWhy {
    pub fn describe(self) -> &'static str {
        match self {
            LeftOutWhy::Platform => "another platform or environment",
            LeftOutWhy::Disabled => "disabled in config.yaml",
            LeftOutWhy::Conditions => "its toolset or tool conditions are not met",
            LeftOutWhy::NameTaken => "an earlier skill of the index has its name",
            LeftOutWhy::Raises => "reading its entry raises",
        }
    }
}

/// One category of the index.
#[derive(Debug, Clone, PartialEq)]
pub struct IndexCategory {
    pub name: String,
    /// Shown as one names-only line.
    pub demoted: bool,
    /// Its own line (`  name: description`, or the names-only line's start
    /// `  name [names only]: `), without the skills.
    pub header: String,
    pub skills: Vec<IndexSkill>,
}

/// A skill's part of the index: its line, or in a names-only category its
/// name and the separator after it.
#[derive(Debug, Clone, PartialEq)]
pub struct IndexSkill {
    pub name: String,
    pub text: String,
    /// Its SKILL.md, when known.
    pub path: Option<PathBuf>,
}

impl PromptIndex {
    pub fn is_empty(&self) -> bool {
        self.categories.is_empty()
    }

    /// The category and entry of the skill whose SKILL.md is `path`.
    pub fn entry_of(&self, path: &Path) -> Option<(&IndexCategory, &IndexSkill)> {
        self.categories.iter().find_map(|c| c.skills.iter().find(|s| s.path.as_deref() == Some(path)).map(|s| (c, s)))
    }

    /// Why the walk left out the skill whose SKILL.md is `path`, if it did.
    pub fn left_out_of(&self, path: &Path) -> Option<&LeftOut> {
        self.left_out.iter().find(|l| l.path.as_deref() == Some(path))
    }

    /// The SKILL.md files of the skills shown.
    pub fn offered_paths(&self) -> HashSet<&Path> {
        self.categories.iter().flat_map(|c| c.skills.iter().filter_map(|s| s.path.as_deref())).collect()
    }

    /// Whether a category is shown names-only (the footer note follows).
    pub fn demotes_any(&self) -> bool {
        self.categories.iter().any(|c| c.demoted)
    }

    /// The text before the first category and after the last: what every
    /// index costs, whatever its skills.
    pub fn frame(&self) -> (&'static str, &'static str) {
        if self.is_empty() {
            return ("", "");
        }
        (GUIDANCE, if self.demotes_any() { CLOSING_DEMOTED } else { CLOSING })
    }

    /// The same index with the categories under `compact` (top-level
    /// names) shown names-only as well, as Hermes would render it.
    pub fn demoted(&self, compact: &BTreeSet<String>) -> PromptIndex {
        let mut out = self.clone();
        for category in out.categories.iter_mut().filter(|c| !c.demoted) {
            let top = category.name.split('/').next().unwrap_or(&category.name);
            if !compact.contains(top) {
                continue;
            }
            category.demoted = true;
            category.header = format!("  {} [names only]: ", category.name);
            let count = category.skills.len();
            for (i, skill) in category.skills.iter_mut().enumerate() {
                skill.text = if i + 1 < count { format!("{}, ", skill.name) } else { skill.name.clone() };
            }
        }
        out
    }

    /// The string `build_skills_system_prompt` returns.
    pub fn render(&self) -> String {
        if self.is_empty() {
            return String::new();
        }
        let (head, tail) = self.frame();
        let mut out = String::from(head);
        for category in &self.categories {
            out.push_str(&category.text());
        }
        out.push_str(tail);
        out
    }
}

impl IndexCategory {
    /// Its own line, `\n` included; in a names-only category, the whole
    /// line with its skills' names.
    pub fn header_line(&self) -> String {
        if self.demoted {
            self.text()
        } else {
            format!("{}\n", self.header)
        }
    }

    /// The category's lines as the index holds them, each ending in `\n`.
    pub fn text(&self) -> String {
        let mut out = self.header.clone();
        if self.demoted {
            for skill in &self.skills {
                out.push_str(&skill.text);
            }
            out.push('\n');
        } else {
            out.push('\n');
            for skill in &self.skills {
                out.push_str(&skill.text);
            }
        }
        out
    }
}

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

/// `_parse_skill_file` on a parsed frontmatter: (compatible, description).
fn judge_frontmatter(engine: &Engine, fm: &Map) -> (bool, String) {
    if !gates::frontmatter_platform_matches(fm, &engine.env)
        || !gates::environment_matches(fm, &engine.home, &engine.env)
    {
        return (false, String::new());
    }
    (true, skill::prompt_description(fm))
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
    descriptions_in(root, discover::index_files(root, "DESCRIPTION.md").into_iter().map(|p| (p.clone(), p)).collect())
}

/// Category descriptions from the `DESCRIPTION.md` files under `root` a
/// walk for SKILL.md files listed on its way.
/// Each file is named as the user knows it (its category comes from that)
/// and where it is read from: the same path but in an overlaid state.
fn descriptions_in(root: &Path, files: Vec<(PathBuf, PathBuf)>) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (file, actual) in files {
        let Ok(text) = source::read_text(&actual) else {
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
    /// The local skills as the cold scan records them, in its order.
    fn local_index_entries(&self) -> Vec<WalkedSkill> {
        self.index_walk(&self.home.skills_dir).0
    }

    /// `iter_skill_index_files(root, "SKILL.md")`, each file parsed as
    /// `_parse_skill_file` does and its entry built on the walking threads
    /// (the frontmatter is dropped there), and the category descriptions
    /// of the `DESCRIPTION.md` files the walk listed.
    fn index_walk(&self, root: &Path) -> (Vec<WalkedSkill>, Vec<(String, String)>) {
        let how = discover::Walk { read: true, note_md_names: true, tree: false };
        let map = |f: discover::IndexedFile| {
            let fm = f.with_text(|text| frontmatter::parse(text).0.fields);
            WalkedSkill::of(self, f.path, root, fm.as_ref())
        };
        let (files, report) = discover::walk_found(root, "SKILL.md", how, &map);
        let mut descriptions = report.descriptions;
        descriptions.sort_by_key(|p| paths::path_string(p));
        (files, descriptions_in(root, descriptions.into_iter().map(|p| (p.clone(), p)).collect()))
    }

    /// `build_skills_system_prompt(tools, toolsets, compact_categories)`,
    /// by the cache path the request names (`Auto`: as the next Hermes run
    /// would).
    pub fn system_prompt(&self, request: &IndexRequest) -> Result<String, PyError> {
        self.prompt_index(request).map(|index| index.render())
    }

    /// The index [`Engine::system_prompt`] renders, in its parts, with the
    /// skills its walk read and left out.
    pub fn prompt_index(&self, request: &IndexRequest) -> Result<PromptIndex, PyError> {
        self.prompt_index_reusing(request, IndexWalks::default())
    }

    /// [`Engine::prompt_index`], taking the walks of the roots `walks` holds
    /// from there.
    pub(crate) fn prompt_index_reusing(
        &self,
        request: &IndexRequest,
        mut walks: IndexWalks,
    ) -> Result<PromptIndex, PyError> {
        let (avail, cache) = (&request.avail, request.cache);
        let skills_dir = &self.home.skills_dir;
        if !paths::exists(skills_dir) && self.home.external_dirs.is_empty() {
            return Ok(PromptIndex::default());
        }
        let disabled = gates::disabled_names(&self.home, &self.env, self.env.platform_scope())?;
        let mut by_category: BTreeMap<String, Vec<Candidate>> = BTreeMap::new();
        let mut left_out = Vec::new();
        let mut cat_descs: BTreeMap<String, String> = BTreeMap::new();
        let mut leave_out = |name: String, category: String, path: Option<PathBuf>, why: LeftOutWhy| {
            left_out.push(LeftOut { name, category, path, why });
        };

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
                    .map(|walked| {
                        let entry = walked.entry.ok()?;
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
                let path = snapshot::skill_md_of(skills_dir, &entry);
                let name =
                    if entry.shown_name.is_empty() { entry.skill_name.clone() } else { entry.shown_name.clone() };
                let category = if entry.category.is_empty() { "general".to_owned() } else { entry.category };
                let platforms = Value::Seq(entry.platforms.iter().cloned().map(Value::Str).collect());
                if !gates::platform_matches(Some(&platforms), &self.env) {
                    leave_out(name, category, path, LeftOutWhy::Platform);
                    continue;
                }
                if disabled.contains(&name) || disabled.contains(&entry.skill_name) {
                    leave_out(name, category, path, LeftOutWhy::Disabled);
                    continue;
                }
                if !gates::should_show(&entry.conditions, avail)? {
                    leave_out(name, category, path, LeftOutWhy::Conditions);
                    continue;
                }
                by_category.entry(category).or_default().push(Candidate { name, desc: entry.description, path });
            }
            cat_descs.extend(snap.category_descriptions);
        } else {
            // Hermes builds each entry, then filters it, skill by skill.
            let (walked, descriptions) = walks.take(skills_dir).unwrap_or_else(|| self.index_walk(skills_dir));
            for WalkedSkill { path, compatible, entry } in walked {
                let entry = entry?;
                let path = Some(path);
                if !compatible {
                    leave_out(entry.shown_name, entry.category, path, LeftOutWhy::Platform);
                    continue;
                }
                if disabled.contains(&entry.shown_name) || disabled.contains(&entry.skill_name) {
                    leave_out(entry.shown_name, entry.category, path, LeftOutWhy::Disabled);
                    continue;
                }
                if !gates::should_show(&entry.conditions, avail)? {
                    leave_out(entry.shown_name, entry.category, path, LeftOutWhy::Conditions);
                    continue;
                }
                let candidate = Candidate { name: entry.shown_name, desc: entry.description, path };
                by_category.entry(entry.category).or_default().push(candidate);
            }
            cat_descs.extend(descriptions);
        }

        let mut seen: HashSet<String, foldhash::fast::RandomState> =
            by_category.values().flatten().map(|c| c.name.clone()).collect();
        for ext in &self.home.external_dirs {
            if !paths::exists(ext) {
                continue;
            }
            let (walked, descriptions) = walks.take(ext).unwrap_or_else(|| self.index_walk(ext));
            for WalkedSkill { path, compatible, entry } in walked {
                if !compatible {
                    // Hermes builds no entry for it (the entry here only names it).
                    let (name, category) = match entry {
                        Ok(e) => (e.shown_name, e.category),
                        Err(_) => (folder_name(&path), external_category(&path, ext)),
                    };
                    leave_out(name, category, Some(path), LeftOutWhy::Platform);
                    continue;
                }
                let Ok(entry) = entry else {
                    leave_out(folder_name(&path), external_category(&path, ext), Some(path), LeftOutWhy::Raises);
                    continue;
                };
                let path = Some(path);
                if seen.contains(&entry.shown_name) {
                    leave_out(entry.shown_name, entry.category, path, LeftOutWhy::NameTaken);
                    continue;
                }
                if disabled.contains(&entry.shown_name) || disabled.contains(&entry.skill_name) {
                    leave_out(entry.shown_name, entry.category, path, LeftOutWhy::Disabled);
                    continue;
                }
                if !gates::should_show(&entry.conditions, avail).unwrap_or(false) {
                    leave_out(entry.shown_name, entry.category, path, LeftOutWhy::Conditions);
                    continue;
                }
                seen.insert(entry.shown_name.clone());
                let candidate = Candidate { name: entry.shown_name, desc: entry.description, path };
                by_category.entry(entry.category).or_default().push(candidate);
            }
            for (cat, desc) in descriptions {
                cat_descs.entry(cat).or_insert(desc);
            }
        }

        let mut categories = Vec::with_capacity(by_category.len());
        for (category, mut skills) in by_category {
            let top = category.split('/').next().unwrap_or(&category);
            // Hermes sorts by name alone, keeping the first of a name.
            skills.sort_by(|a, b| a.name.cmp(&b.name));
            // Sorted, the skills of a name come together: the first is kept.
            let mut kept: Vec<Candidate> = Vec::with_capacity(skills.len());
            for c in skills {
                if !matches!(kept.last(), Some(k) if k.name == c.name) {
                    kept.push(c);
                } else {
                    leave_out(c.name, category.clone(), c.path, LeftOutWhy::NameTaken);
                }
            }
            if request.compact.contains(top) {
                let count = kept.len();
                let skills = kept
                    .into_iter()
                    .enumerate()
                    .map(|(i, c)| {
                        let text = if i + 1 < count { format!("{}, ", c.name) } else { c.name.clone() };
                        IndexSkill { name: c.name, text, path: c.path }
                    })
                    .collect();
                let header = format!("  {category} [names only]: ");
                categories.push(IndexCategory { name: category, demoted: true, header, skills });
                continue;
            }
            let header = match cat_descs.get(&category).filter(|d| !d.is_empty()) {
                Some(desc) => format!("  {category}: {desc}"),
                None => format!("  {category}:"),
            };
            let skills = kept
                .into_iter()
                .map(|c| {
                    let text = if c.desc.is_empty() {
                        format!("    - {}\n", c.name)
                    } else {
                        format!("    - {}: {}\n", c.name, c.desc)
                    };
                    IndexSkill { name: c.name, text, path: c.path }
                })
                .collect();
            categories.push(IndexCategory { name: category, demoted: false, header, skills });
        }
        Ok(PromptIndex { categories, left_out })
    }
}

/// A SKILL.md the index's walk read: its entry (or the error building it
/// raises) and whether it is compatible now.
#[derive(Clone)]
pub(crate) struct WalkedSkill {
    path: PathBuf,
    compatible: bool,
    entry: Result<IndexEntry, PyError>,
}

impl WalkedSkill {
    /// What the index's walk makes of the SKILL.md at `path` below `root`,
    /// from its frontmatter parsed already (`None`: it could not be read).
    pub(crate) fn of(engine: &Engine, path: PathBuf, root: &Path, fm: Option<&Map>) -> WalkedSkill {
        let (compatible, desc) = fm.map_or((true, String::new()), |fm| judge_frontmatter(engine, fm));
        let entry = snapshot_entry(&path, root, fm.unwrap_or(&Map::default()), desc);
        WalkedSkill { path, compatible, entry }
    }
}

/// Index walks of skill roots made already, by a walk that read the same
/// files for another purpose: [`Engine::prompt_index_reusing`] takes a
/// root's from here instead of walking it again.
#[derive(Default)]
pub(crate) struct IndexWalks {
    roots: Vec<(PathBuf, RootWalk)>,
}

/// One root's skills in walk order and its categories' descriptions.
type RootWalk = (Vec<WalkedSkill>, Vec<(String, String)>);

impl IndexWalks {
    /// A root's walk: its skills in walk order and the `DESCRIPTION.md`
    /// files it listed.
    /// With an overlay, files that differ were read from its written copy.
    pub(crate) fn add(
        &mut self,
        root: PathBuf,
        skills: Vec<WalkedSkill>,
        description_files: Vec<PathBuf>,
        overlay: Option<&crate::overlay::Overlay>,
    ) {
        let mut files: Vec<(PathBuf, PathBuf)> = description_files
            .into_iter()
            .map(|actual| (overlay.map_or_else(|| actual.clone(), |o| o.shown(&actual)), actual))
            .collect();
        files.sort_by_key(|(shown, _)| paths::path_string(shown));
        let descriptions = descriptions_in(&root, files);
        self.roots.push((root, (skills, descriptions)));
    }

    /// How many roots' walks it holds.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.roots.len()
    }

    fn take(&mut self, root: &Path) -> Option<RootWalk> {
        let at = self.roots.iter().position(|(r, _)| r == root)?;
        Some(self.roots.remove(at).1)
    }
}

impl discover::Found for WalkedSkill {
    fn path(&self) -> &Path {
        &self.path
    }
}

/// A skill the index may show, before names are deduplicated.
struct Candidate {
    name: String,
    desc: String,
    path: Option<PathBuf>,
}

fn folder_name(skill_md: &Path) -> String {
    skill_md.parent().and_then(Path::file_name).map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
}

/// The category `_build_snapshot_entry` gives a SKILL.md under `root`.
fn external_category(skill_md: &Path, root: &Path) -> String {
    snapshot_entry(skill_md, root, &Map::default(), String::new()).map(|e| e.category).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::env::{Env, Os};

    /// Two skills of one name in one category: the index shows one of them
    /// (the first of the name once sorted), once, and leaves the other out
    /// as a name taken; a third skill between them in folder order keeps
    /// its line.
    #[test]
    fn a_category_shows_one_skill_of_a_name() {
        let home = tempfile::tempdir().unwrap();
        for (dir, name) in [("tools/b", "dup"), ("tools/a", "dup"), ("tools/ab", "aaa"), ("tools/c", "zzz")] {
            let folder = home.path().join("skills").join(dir);
            std::fs::create_dir_all(&folder).unwrap();
            let text = format!("---\nname: {name}\ndescription: From {dir}.\n---\nBody.\n");
            std::fs::write(folder.join("SKILL.md"), text).unwrap();
        }
        let env = Env::with_vars([("HOME", "/nonexistent")], Os::Linux);
        let engine = Engine::new(home.path().to_path_buf(), env, Default::default());
        let index = engine.prompt_index(&IndexRequest::default()).unwrap();
        let text = index.render();
        let lines: Vec<&str> = text.lines().filter(|l| l.trim_start().starts_with("- ")).collect();
        assert_eq!(lines.len(), 3, "{text}");
        assert_eq!(lines.iter().filter(|l| l.contains("- dup: From tools/")).count(), 1, "{text}");
        assert!(lines[0].contains("- aaa:") && lines[2].contains("- zzz:"), "{text}");
        let taken: Vec<&LeftOut> = index.left_out.iter().filter(|l| l.why == LeftOutWhy::NameTaken).collect();
        assert_eq!(taken.len(), 1, "{:?}", index.left_out.iter().map(|l| &l.name).collect::<Vec<_>>());
        assert_eq!(taken[0].name, "dup");
        let shown_dir = if lines[1].contains("tools/a.") { "a" } else { "b" };
        assert!(!taken[0].path.as_ref().unwrap().ends_with(format!("tools/{shown_dir}/SKILL.md")));
    }
}
