//! `skill_view` (spec §9): name validation, the all-candidates lookup, gates,
//! `file_path`, linked files and readiness.

use super::frontmatter;
use super::gates;
use super::paths;
use super::preprocess::{self, PreprocessConfig, SkillDirs};
use super::readiness;
use super::skill;
use super::source::{self, ReadError};
use super::value::{Map, Value};
use super::Engine;
use crate::context::{Context, Found};
use crate::py::py_str_repr;
use crate::py::PyError;
use serde_json::{json, Map as JsonMap, Value as Json};

use std::path::Path;

pub const LOOKUP_HINT: &str = "Use a skill name or relative path within the skills directory.";
pub const USAGE_HINT: &str = "To view linked files, call skill_view(name, file_path) where file_path is e.g. 'references/api.md' or 'assets/config.yaml'";
pub const AMBIGUOUS_HINT: &str = "Pass the full relative path instead of the bare name (e.g., 'category/skill-name'), or rename one of the colliding skills so each name is unique.";
const FILE_HINT: &str = "Use a relative path within the skill directory";

/// `[a-zA-Z0-9_-]+`
fn is_valid_namespace(ns: &str) -> bool {
    !ns.is_empty() && ns.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// `Path(s).parts` contains `..`.
pub fn has_traversal_component(s: &str) -> bool {
    s.split('/').any(|c| c == "..")
}

/// True when a Windows reading of `s` has a drive or is absolute.
fn windows_drive_or_absolute(s: &str) -> bool {
    let normalized = s.replace('/', "\\");
    let b = normalized.as_bytes();
    if b.len() >= 2 && b[1] == b':' && b[0].is_ascii_alphabetic() {
        return true;
    }
    // UNC: \\server\share
    if normalized.starts_with("\\\\") && b.get(2) != Some(&b'\\') {
        if let Some(i) = normalized[2..].find('\\').map(|i| i + 2) {
            return normalized.as_bytes().get(i + 1) != Some(&b'\\');
        }
    }
    false
}

/// `_skill_lookup_path_error(name)`.
pub fn lookup_path_error(name: &str) -> Option<&'static str> {
    let candidate = crate::py::py_strip(name);
    if candidate.starts_with('/') || windows_drive_or_absolute(candidate) {
        return Some("Skill name must be a relative path within the skills directory.");
    }
    if has_traversal_component(candidate) {
        return Some("Skill name cannot contain '..' path traversal components.");
    }
    None
}

fn error(msg: impl Into<String>) -> Json {
    json!({"success": false, "error": msg.into()})
}

/// The ValueError Python 3.11's `Path.rglob(pattern)` raises on iteration,
/// if it does: `**` is a pattern's whole component or nothing.
fn rglob_pattern_error(pattern: &str) -> Option<&'static str> {
    pattern
        .split('/')
        .any(|part| part.contains("**") && part != "**")
        .then_some("Invalid pattern: '**' can only be an entire path component")
}

fn py_exception(e: PyError) -> Json {
    json!({"error": e, "success": false})
}

/// How many names the not-found answer's `available_skills` shows.
const AVAILABLE_SHOWN: usize = 20;

/// A SKILL.md found already, named by its folder.
fn found_file(skill_md: &Path) -> (String, Found) {
    let skill_dir = skill_md.parent().map(Path::to_path_buf);
    let name =
        skill_dir.as_deref().and_then(Path::file_name).map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    (name, Found { skill_dir, skill_md: skill_md.to_path_buf() })
}

/// What the caller of a view keeps of it.
pub(crate) enum Keeping<'k> {
    /// The whole answer, as the agent gets it.
    Answer,
    /// Whether it loads, and the frontmatter a successful view parsed
    /// (whoever reads the same SKILL.md next need not parse it again): a
    /// not-found answer names no available skills.
    Load(&'k mut Option<Map>),
    /// As [`Keeping::Load`], for whoever reads only whether it loads and
    /// its name (a bundle's member status): its linked files not listed.
    Status(&'k mut Option<Map>),
}

/// Whether a view lists the skill's linked files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Links {
    Listed,
    Skipped,
}

/// What a `skill_view` call asks for beside the skill.
#[derive(Clone, Copy)]
struct ViewArgs<'a> {
    file_path: Option<&'a str>,
    task_id: Option<&'a str>,
    preprocess: bool,
    /// The path the user knows for a file found in an overlay's written
    /// copy: its `path` is relative to the skills dir it stands in.
    shown_md: Option<&'a Path>,
}

/// The skill a `skill_view` is asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SkillRef<'a> {
    /// By name (or categorized path), as the agent asks: the lookup runs.
    Name(&'a str),
    /// A SKILL.md found already: what the agent gets once the lookup found it.
    File(&'a Path),
}

impl<'a> From<&'a str> for SkillRef<'a> {
    fn from(name: &'a str) -> SkillRef<'a> {
        SkillRef::Name(name)
    }
}

impl Context<'_> {
    /// `skill_view(name, file_path, task_id, preprocess)` as Hermes' JSON.
    pub fn skill_view(
        &self,
        skill: SkillRef<'_>,
        file_path: Option<&str>,
        task_id: Option<&str>,
        preprocess: bool,
    ) -> Json {
        self.skill_view_keeping(skill, file_path, task_id, preprocess, Keeping::Answer)
    }

    /// [`Context::skill_view`], kept as `keeping` says.
    pub(crate) fn skill_view_keeping(
        &self,
        skill: SkillRef<'_>,
        file_path: Option<&str>,
        task_id: Option<&str>,
        preprocess: bool,
        keeping: Keeping<'_>,
    ) -> Json {
        let (keep, links) = match keeping {
            Keeping::Answer => (None, Links::Listed),
            Keeping::Load(frontmatter) => (Some(frontmatter), Links::Listed),
            Keeping::Status(frontmatter) => (Some(frontmatter), Links::Skipped),
        };
        let engine = self.engine;
        let name = match skill {
            SkillRef::Name(name) => name,
            SkillRef::File(skill_md) => {
                let (name, found) = found_file(skill_md);
                return engine.view_found(
                    &name,
                    &found,
                    ViewArgs { file_path, task_id, preprocess, shown_md: None },
                    links,
                    keep,
                );
            }
        };
        if let Some(err) = lookup_path_error(name) {
            return json!({"success": false, "error": err, "hint": LOOKUP_HINT});
        }
        let mut category_name = None;
        if let Some((namespace, bare)) = name.split_once(':') {
            if !is_valid_namespace(namespace) {
                return error(format!(
                    "Invalid namespace '{namespace}' in '{name}'. Namespaces must match [a-zA-Z0-9_-]+."
                ));
            }
            if !bare.is_empty() {
                let qualified = format!("{namespace}/{bare}");
                if let Some(err) = lookup_path_error(&qualified) {
                    return json!({"success": false, "error": err, "hint": LOOKUP_HINT});
                }
                category_name = Some(qualified);
            }
        }
        if engine.home.scan_dirs().is_empty() {
            return error("Skills directory does not exist yet. It will be created on first install.");
        }
        // The lookup's `rglob(f"{name}.md")` raises on a bad pattern.
        if let Some(e) = rglob_pattern_error(&format!("{name}.md")) {
            return json!({"error": e, "success": false});
        }
        let (candidates, raised) = self.candidates_raising(name, category_name.as_deref());
        if let Some(e) = raised {
            return json!({"error": e, "success": false});
        }
        if candidates.len() > 1 {
            let matches: Vec<String> = candidates.iter().map(|c| paths::path_string(&c.skill_md)).collect();
            return json!({
                "success": false,
                "error": format!(
                    "Ambiguous skill name '{name}': {} skills match across your local skills dir and external_dirs. Refusing to guess — load one explicitly by its categorized path.",
                    candidates.len()
                ),
                "matches": matches,
                "hint": AMBIGUOUS_HINT,
            });
        }
        let Some(found) = candidates.into_iter().next().filter(|c| paths::exists(&c.skill_md)) else {
            // A load reads only that it failed; the names of a big home's
            // skills are listed and sorted for nothing.
            if keep.is_some() {
                return json!({"success": false, "error": format!("Skill '{name}' not found.")});
            }
            return match self.available.get_or_init(|| self.first_listed(AVAILABLE_SHOWN)).clone() {
                Ok(names) => json!({
                    "success": false,
                    "error": format!("Skill '{name}' not found."),
                    "available_skills": names,
                    "hint": "Use skills_list to see all available skills",
                }),
                Err(e) => py_exception(e),
            };
        };
        let overlay = self.catalog.and_then(|c| c.overlay.as_ref()).filter(|o| o.is_written(&found.skill_md));
        let shown_md = overlay.map(|o| o.shown(&found.skill_md));
        let args = ViewArgs { file_path, task_id, preprocess, shown_md: shown_md.as_deref() };
        engine.view_found(name, &found, args, links, keep)
    }

    /// `skill_view(name)` of a SKILL.md found already, preprocessed, without
    /// its `linked_files` (nothing else depends on them): what the agent reads
    /// when it loads the skill, at one folder walk less.
    pub fn skill_view_content(&self, skill_md: &Path, task_id: Option<&str>) -> Json {
        let (name, found) = found_file(skill_md);
        self.engine.view_found(
            &name,
            &found,
            ViewArgs { file_path: None, task_id, preprocess: true, shown_md: None },
            Links::Skipped,
            None,
        )
    }

    /// The first `n` names in skills_list order (the not-found answer):
    /// from the catalog when there is one (only (category, name) pairs are
    /// sorted, not whole listings: a big home has many), else the disk's.
    fn first_listed(&self, n: usize) -> Result<Vec<String>, PyError> {
        let engine = self.engine;
        let from_catalog = self.catalog.and_then(|c| {
            engine.listed_in_catalog(c, |s| (engine.listing_category(&s.skill_md).unwrap_or_default(), s.name.as_str()))
        });
        match from_catalog {
            Some(listed) => listed.map(|mut skills| {
                skills.sort();
                skills.into_iter().take(n).map(|(_, name)| name.to_owned()).collect()
            }),
            None => engine.sorted_skills().map(|s| s.into_iter().take(n).map(|s| s.name).collect()),
        }
    }
}

impl Engine {
    fn view_found(
        &self,
        name: &str,
        found: &Found,
        args: ViewArgs,
        links: Links,
        keep: Option<&mut Option<Map>>,
    ) -> Json {
        let ViewArgs { file_path, task_id, preprocess, shown_md } = args;
        let content = match source::read_text(&found.skill_md) {
            Ok(c) => c,
            Err(e) => return error(format!("Failed to read skill '{name}': {e}")),
        };
        let (fm, _) = frontmatter::parse(&content);
        let fm = fm.fields;
        if !gates::frontmatter_platform_matches(&fm, &self.env) {
            return json!({
                "success": false,
                "error": format!("Skill '{name}' is not supported on this platform."),
                "readiness_status": "unsupported",
            });
        }
        let parent_name = found
            .skill_md
            .parent()
            .and_then(|p| p.file_name())
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let resolved_name = fm.get("name").cloned().unwrap_or(Value::Str(parent_name));
        if gates::view_disabled(&self.home, &self.env, &resolved_name) {
            return error(format!(
                "Skill '{}' is disabled. Enable it with `hermes skills` or inspect the files directly on disk.",
                resolved_name.py_str()
            ));
        }
        if let (Some(fp), Some(dir)) = (file_path.filter(|f| !f.is_empty()), &found.skill_dir) {
            return view_file(name, dir, fp);
        }

        let linked = match (links, found.skill_dir.as_deref()) {
            (Links::Listed, Some(dir)) => linked_files(dir),
            _ => Default::default(),
        };
        let metadata = fm.get("metadata");
        if let Some(Value::Map(meta)) = metadata {
            if let Some(hermes) = meta.get("hermes").filter(|h| h.truthy() && h.as_map().is_none()) {
                return py_exception(PyError::new(
                    "AttributeError",
                    format!("'{}' object has no attribute 'get'", hermes.type_name()),
                ));
            }
        }
        let tags = skill::tag_list(&fm, "tags");
        let related = skill::tag_list(&fm, "related_skills");
        let skill_md = shown_md.unwrap_or(&found.skill_md);
        let rel_path = match paths::relative_to(skill_md, &self.home.skills_dir) {
            Some(rel) => paths::rel_string(rel),
            None => {
                let grand = skill_md.parent().and_then(Path::parent);
                match grand.and_then(|g| skill_md.strip_prefix(g).ok()) {
                    Some(rel) => paths::rel_string(rel),
                    None => skill_md.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
                }
            }
        };
        let default_name = match &found.skill_dir {
            Some(dir) => dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
            None => found.skill_md.file_stem().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
        };
        let skill_name = fm.get("name").cloned().unwrap_or(Value::Str(default_name));
        let ready = readiness::evaluate(&fm, &self.home, &self.env, self.options.backend.name());
        if let Some(e) = ready.view_error {
            return py_exception(e);
        }
        // `load_env()` comes next in Hermes, and raises the same for every skill.
        if let Some(problem) = &self.home.dotenv_problem {
            return json!({"error": problem, "success": false});
        }
        let skill_dir_str = found.skill_dir.as_deref().map(paths::path_string);
        let runtime_dir = found.skill_dir.as_deref().map(|d| self.runtime_path(d).path);
        let shown_dir = found.skill_dir.as_deref().map(|d| self.shown_skill_dir(d));
        let rendered = if preprocess {
            let cfg = PreprocessConfig::from_skills(self.home.merged_skills());
            let dirs = SkillDirs { host: skill_dir_str.as_deref(), shown: shown_dir.as_deref() };
            preprocess::preprocess(&content, dirs, task_id, &cfg, self.options.allow_inline_shell).text
        } else {
            content.clone()
        };

        // json.dumps fails on the first value it cannot write, in key order.
        let description = fm.get("description").cloned().unwrap_or(Value::Str(String::new()));
        let compat = fm.get("compatibility").filter(|v| v.truthy());
        let meta = metadata.filter(|m| m.as_map().is_some());
        let dumped = (|| -> Result<_, PyError> {
            Ok((
                skill_name.try_to_json()?,
                description.try_to_json()?,
                compat.map(Value::try_to_json).transpose()?,
                meta.map(Value::try_to_json).transpose()?,
            ))
        })();
        let (name_json, description_json, compat_json, meta_json) = match dumped {
            Ok(parts) => parts,
            Err(e) => return py_exception(e),
        };
        let mut out = JsonMap::new();
        out.insert("success".into(), json!(true));
        out.insert("name".into(), name_json);
        out.insert("description".into(), description_json);
        out.insert("tags".into(), json!(tags));
        out.insert("related_skills".into(), json!(related));
        out.insert("content".into(), json!(rendered));
        out.insert("path".into(), json!(rel_path));
        out.insert("skill_dir".into(), json!(skill_dir_str));
        // skillscope's addition: the folder as the agent's sandbox sees it.
        out.insert("runtime_skill_dir".into(), json!(runtime_dir));
        out.insert("linked_files".into(), if linked.is_empty() { Json::Null } else { linked.to_json() });
        out.insert("usage_hint".into(), if linked.is_empty() { Json::Null } else { json!(USAGE_HINT) });
        out.insert(
            "required_environment_variables".into(),
            Json::Array(ready.required.iter().map(|r| r.to_json()).collect()),
        );
        out.insert("required_commands".into(), json!([]));
        out.insert("missing_required_environment_variables".into(), json!(ready.missing_env));
        out.insert("missing_credential_files".into(), json!(ready.missing_files));
        out.insert("missing_required_commands".into(), json!([]));
        out.insert("setup_needed".into(), json!(ready.setup_needed));
        out.insert("setup_skipped".into(), json!(false));
        out.insert("readiness_status".into(), json!(ready.status()));
        if let Some(help) = &ready.setup_help {
            out.insert("setup_help".into(), json!(help));
        }
        if let Some(hint) = &ready.gateway_setup_hint {
            out.insert("gateway_setup_hint".into(), json!(hint));
        }
        if let Some(note) = &ready.setup_note {
            out.insert("setup_note".into(), json!(note));
        }
        if let Some(compat) = compat_json {
            out.insert("compatibility".into(), compat);
        }
        if let Some(meta) = meta_json {
            out.insert("metadata".into(), meta);
        }
        if let Some(keep) = keep {
            *keep = Some(fm);
        }
        Json::Object(out)
    }
}

/// `skill_view(name, file_path)` for a directory skill.
fn view_file(name: &str, skill_dir: &Path, file_path: &str) -> Json {
    if has_traversal_component(file_path) {
        return json!({"success": false, "error": "Path traversal ('..') is not allowed.", "hint": FILE_HINT});
    }
    // `resolve()` raises ValueError on a NUL, which `validate_within_dir`
    // catches and says.
    if file_path.contains('\0') {
        return json!({"success": false, "error": "Path escapes allowed directory: embedded null byte", "hint": FILE_HINT});
    }
    let target = paths::join(skill_dir, file_path);
    // `validate_within_dir` catches ValueError and OSError, not the
    // RuntimeError of a symlink loop: skill_view itself fails.
    let (resolved, root) = match paths::try_resolve(&target).and_then(|t| Ok((t, paths::try_resolve(skill_dir)?))) {
        Ok(both) => both,
        Err(e) => return py_exception(e),
    };
    if !resolved.starts_with(&root) {
        return json!({
            "success": false,
            "error": format!(
                "Path escapes allowed directory: {} is not in the subpath of {} OR one path is relative and the other is absolute.",
                py_str_repr(&paths::path_string(&resolved)),
                py_str_repr(&paths::path_string(&root))
            ),
            "hint": FILE_HINT,
        });
    }
    // `exists()` raises on a name too long, which skill_view answers with.
    let exists = match paths::py_exists(&target) {
        Ok(exists) => exists,
        Err(e) => return json!({"error": source::os_error_message(&e, &target), "success": false}),
    };
    if !exists {
        return json!({
            "success": false,
            "error": format!("File '{file_path}' not found in skill '{name}'."),
            "available_files": available_files(skill_dir),
            "hint": "Use one of the available file paths listed above",
        });
    }
    match source::read_text(&target) {
        Ok(content) => {
            let file_name = target.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            json!({
                "success": true,
                "name": name,
                "file": file_path,
                "content": content,
                "file_type": paths::suffix(&file_name),
            })
        }
        Err(ReadError::Decode(_)) => {
            let size = std::fs::metadata(&target).map(|m| m.len()).unwrap_or(0);
            let base = target.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            json!({
                "success": true,
                "name": name,
                "file": file_path,
                "content": format!("[Binary file: {base}, size: {size} bytes]"),
                "is_binary": true,
            })
        }
        Err(ReadError::Io(msg)) => py_exception(PyError::new("OSError", msg)),
    }
}

/// A skill's supporting files, grouped as `linked_files` groups them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LinkedFiles {
    pub references: Vec<String>,
    pub templates: Vec<String>,
    pub assets: Vec<String>,
    pub scripts: Vec<String>,
}

impl LinkedFiles {
    pub fn is_empty(&self) -> bool {
        self.groups().iter().all(|(_, v)| v.is_empty())
    }

    pub fn groups(&self) -> [(&'static str, &Vec<String>); 4] {
        [
            ("references", &self.references),
            ("templates", &self.templates),
            ("assets", &self.assets),
            ("scripts", &self.scripts),
        ]
    }

    /// All files in message order (references, templates, assets, scripts).
    pub fn all(&self) -> Vec<String> {
        self.groups().iter().flat_map(|(_, v)| v.iter().cloned()).collect()
    }

    pub fn to_json(&self) -> Json {
        let mut m = JsonMap::new();
        for (key, files) in self.groups() {
            if !files.is_empty() {
                m.insert(key.into(), json!(files));
            }
        }
        Json::Object(m)
    }
}

pub const TEMPLATE_PATTERNS: [&str; 7] = ["*.md", "*.py", "*.yaml", "*.yml", "*.json", "*.tex", "*.sh"];
pub const SCRIPT_PATTERNS: [&str; 6] = ["*.py", "*.sh", "*.bash", "*.js", "*.ts", "*.rb"];

fn rel_to(dir: &Path, p: &Path) -> String {
    p.strip_prefix(dir).map(paths::rel_string).unwrap_or_else(|_| paths::path_string(p))
}

/// `linked_files` for a skill folder: each pattern's matches in the order
/// `glob`/`rglob` list them.
pub fn linked_files(skill_dir: &Path) -> LinkedFiles {
    // Each support folder is listed once and the patterns matched in that
    // listing, rather than a listing per pattern.
    let mut tree = Vec::new();
    for sub in ["references", "templates", "assets", "scripts"] {
        let dir = skill_dir.join(sub);
        match std::fs::symlink_metadata(&dir) {
            Ok(meta) if meta.file_type().is_symlink() => return linked_files_by_globs(skill_dir),
            Ok(meta) if meta.is_dir() => tree.extend(paths::rglob_all(&dir)),
            _ => {}
        }
    }
    linked_files_in(skill_dir, &tree)
}

/// [`linked_files`] as Hermes finds them: a glob per pattern.
fn linked_files_by_globs(skill_dir: &Path) -> LinkedFiles {
    let mut linked = LinkedFiles::default();
    let refs = skill_dir.join("references");
    if paths::exists(&refs) {
        linked.references = paths::glob(&refs, "*.md").iter().map(|p| rel_to(skill_dir, p)).collect();
    }
    let templates = skill_dir.join("templates");
    if paths::exists(&templates) {
        for pat in TEMPLATE_PATTERNS {
            linked.templates.extend(paths::rglob(&templates, pat).iter().map(|p| rel_to(skill_dir, p)));
        }
    }
    let assets = skill_dir.join("assets");
    if paths::exists(&assets) {
        linked.assets = paths::rglob_files(&assets).iter().map(|p| rel_to(skill_dir, p)).collect();
    }
    let scripts = skill_dir.join("scripts");
    if paths::exists(&scripts) {
        for pat in SCRIPT_PATTERNS {
            linked.scripts.extend(paths::glob(&scripts, pat).iter().map(|p| rel_to(skill_dir, p)));
        }
    }
    linked
}

/// [`linked_files`] answered from the folder's `rglob("*")` listing
/// ([`paths::rglob_all`]) without reading the disk again. A support folder
/// that is a symlink (which that listing does not enter) is read from disk.
pub fn linked_files_in(skill_dir: &Path, tree: &[paths::TreeFile]) -> LinkedFiles {
    let sub = |name: &str| skill_dir.join(name);
    let support = [sub("references"), sub("templates"), sub("assets"), sub("scripts")];
    if support.iter().any(|d| paths::tree_entry(tree, d).is_some_and(|f| f.is_symlink)) {
        return linked_files(skill_dir);
    }
    let [refs, templates, assets, scripts] = &support;
    let name = |f: &paths::TreeFile| f.path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    fn in_dir<'a>(tree: &'a [paths::TreeFile], dir: &'a Path) -> impl Iterator<Item = &'a paths::TreeFile> {
        tree.iter().filter(move |f| paths::is_child_of(&f.path, dir))
    }
    fn below<'a>(tree: &'a [paths::TreeFile], dir: &'a Path) -> impl Iterator<Item = &'a paths::TreeFile> {
        tree.iter().filter(move |f| paths::is_below(&f.path, dir))
    }
    let mut linked = LinkedFiles {
        references: in_dir(tree, refs)
            .filter(|f| paths::fnmatch(&name(f), "*.md"))
            .map(|f| rel_to(skill_dir, &f.path))
            .collect(),
        ..LinkedFiles::default()
    };
    // The walk lists each support folder's subtree as its own `rglob` does.
    for pat in TEMPLATE_PATTERNS {
        linked.templates.extend(
            below(tree, templates).filter(|f| paths::fnmatch(&name(f), pat)).map(|f| rel_to(skill_dir, &f.path)),
        );
    }
    linked.assets = below(tree, assets).filter(|f| f.is_file).map(|f| rel_to(skill_dir, &f.path)).collect();
    for pat in SCRIPT_PATTERNS {
        linked.scripts.extend(
            in_dir(tree, scripts).filter(|f| paths::fnmatch(&name(f), pat)).map(|f| rel_to(skill_dir, &f.path)),
        );
    }
    linked
}

/// `available_files` of the not-found answer: every file, grouped by prefix.
pub fn available_files(skill_dir: &Path) -> Json {
    let mut groups: [(&str, Vec<String>); 5] =
        [("references", vec![]), ("templates", vec![]), ("assets", vec![]), ("scripts", vec![]), ("other", vec![])];
    let files: Vec<String> = paths::rglob_files(skill_dir)
        .iter()
        .filter(|p| p.file_name().is_some_and(|n| n != "SKILL.md"))
        .map(|p| rel_to(skill_dir, p))
        .collect();
    for rel in files {
        let idx = ["references/", "templates/", "assets/", "scripts/"].iter().position(|pre| rel.starts_with(pre));
        match idx {
            Some(i) => groups[i].1.push(rel),
            None => {
                let base = rel.rsplit('/').next().unwrap_or(&rel);
                if [".md", ".py", ".yaml", ".yml", ".json", ".tex", ".sh"].contains(&paths::suffix(base)) {
                    groups[4].1.push(rel);
                }
            }
        }
    }
    let mut m = JsonMap::new();
    for (k, v) in groups {
        if !v.is_empty() {
            m.insert(k.into(), json!(v));
        }
    }
    Json::Object(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    /// Every folder holding a SKILL.md below `dir`.
    fn skill_dirs(dir: &Path, out: &mut Vec<PathBuf>) {
        if dir.join("SKILL.md").is_file() {
            out.push(dir.to_path_buf());
        }
        for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            if e.file_type().is_ok_and(|t| t.is_dir()) {
                skill_dirs(&e.path(), out);
            }
        }
    }

    #[test]
    fn linked_files_from_a_listing_match_the_disk() {
        let t = tempfile::tempdir().expect("tempdir");
        let odd = t.path().join("odd");
        for rel in [
            "SKILL.md",
            "references/a.md",
            "references/b.txt",
            "references/deep/c.md",
            "references/dir.md/x.md",
            "templates/z.yaml",
            "templates/a/b/c.py",
            "templates/a/skip.txt",
            "assets/img/logo.png",
            "assets/.hidden",
            "scripts/run.sh",
            "scripts/tool.py",
            "scripts/nested/x.sh",
        ] {
            let path = odd.join(rel);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            std::fs::write(path, "x").expect("write");
        }
        std::fs::create_dir_all(odd.join("assets/empty.md")).expect("mkdir");
        let linked_out = t.path().join("linked");
        std::fs::create_dir_all(linked_out.join("scripts")).expect("mkdir");
        std::fs::write(linked_out.join("SKILL.md"), "x").expect("write");
        std::fs::write(linked_out.join("scripts/far.sh"), "x").expect("write");
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(linked_out.join("scripts"), odd.join("templates/link")).expect("symlink");
            std::os::unix::fs::symlink(odd.join("nowhere"), odd.join("assets/dangling")).expect("symlink");
            let via_link = t.path().join("via-link");
            std::fs::create_dir_all(&via_link).expect("mkdir");
            std::fs::write(via_link.join("SKILL.md"), "x").expect("write");
            std::os::unix::fs::symlink(linked_out.join("scripts"), via_link.join("scripts")).expect("symlink");
        }
        let mut dirs = vec![odd, t.path().join("via-link")];
        skill_dirs(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/corpus"), &mut dirs);
        assert!(dirs.len() > 200);
        for dir in dirs {
            let tree = paths::rglob_all(&dir);
            let by_globs = linked_files_by_globs(&dir);
            assert_eq!(linked_files_in(&dir, &tree).groups(), by_globs.groups(), "{}", dir.display());
            assert_eq!(linked_files(&dir).groups(), by_globs.groups(), "{}", dir.display());
        }
    }

    #[test]
    fn lookup_errors() {
        assert!(lookup_path_error("/abs").is_some());
        assert!(lookup_path_error("C:\\x").is_some());
        assert!(lookup_path_error("x:skill").is_some());
        assert!(lookup_path_error("\\\\server\\share").is_some());
        assert_eq!(lookup_path_error("a/../b"), Some("Skill name cannot contain '..' path traversal components."));
        assert!(lookup_path_error("a\\..\\b").is_none());
        assert!(lookup_path_error("devops:deploy").is_none());
        assert!(lookup_path_error("ok-name").is_none());
    }
}
