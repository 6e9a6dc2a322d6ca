//! A snapshot of every skill in a home with what Hermes makes of it, for
//! the browser: one walk, one read and one parse per SKILL.md.
//!
//! Unlike `skills_list`, the catalog keeps the skills Hermes hides and says
//! why: platform or environment gates, disabled lists, a name another skill
//! already took, a name `skill_view` refuses as ambiguous, missing setup.

use super::discover::{self, IndexedFile};
use super::frontmatter::{self, FrontmatterKind};
use super::gates;
use super::list::Candidate;
use super::messages::{self, SkillCommand};
use super::readiness::{self, Readiness};
use super::skill::{self, LISTING_READ_CHARS};
use super::value::{take_chars, Map, Value};
use super::Engine;
use indexmap::IndexMap;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// A folder skills are discovered in.
#[derive(Debug, Clone, PartialEq)]
pub struct Root {
    pub path: PathBuf,
    /// `local`, or `external <i>` in config order; with layers, the source.
    pub label: String,
    /// The layer the root belongs to, when layers are on.
    pub source: Option<super::layers::Source>,
}

/// Why Hermes does not offer a skill, if it does not.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SkillStatus {
    /// Appears in `skills_list`.
    pub listed: bool,
    pub platform_ok: bool,
    pub environment_ok: bool,
    /// Its name is in `skills.disabled` (or the platform's list).
    pub disabled: bool,
    /// An earlier skill (index into `Catalog::skills`) took its name.
    pub shadowed_by: Option<usize>,
    /// The skills whose name this one took (the reverse of `shadowed_by`).
    pub shadows: Vec<usize>,
    /// Other SKILL.md files `skill_view` would also match by this name.
    pub ambiguous_with: Vec<usize>,
    /// The listing drops it: a non-string name or an unusable description.
    pub unlistable: bool,
    /// Its slash command, when it registers one.
    pub command: Option<String>,
}

/// One SKILL.md and what Hermes makes of it.
#[derive(Debug, Clone)]
pub struct CatalogSkill {
    pub root: usize,
    /// Folders between the root and the skill folder.
    pub categories: Vec<String>,
    pub skill_md: PathBuf,
    pub skill_dir: PathBuf,
    /// The name shown: the listing name, else `str()` of the frontmatter
    /// name, else the folder name.
    pub name: String,
    pub description: String,
    pub tags: Vec<String>,
    pub frontmatter: Map,
    pub frontmatter_kind: FrontmatterKind,
    /// 1-based line where the body starts (for opening an editor there).
    pub body_line: usize,
    pub read_error: Option<String>,
    pub readiness: Readiness,
    pub status: SkillStatus,
    /// The database row of a skill that has no folder (source `db`).
    pub db_row: Option<super::layers::DbSkill>,
}

impl CatalogSkill {
    /// Hermes will not show this skill to the agent (listing, prompt, commands).
    pub fn hidden(&self) -> bool {
        !self.status.platform_ok || !self.status.environment_ok || self.status.disabled
    }

    /// `category/sub` as shown in the tree.
    pub fn category_path(&self) -> String {
        self.categories.join("/")
    }
}

/// Everything the browser shows, computed at one moment.
#[derive(Debug, Clone, Default)]
pub struct Catalog {
    pub roots: Vec<Root>,
    pub skills: Vec<CatalogSkill>,
    pub bundles: super::bundles::BundleSet,
    pub commands: IndexMap<String, SkillCommand>,
    /// Problems worth a line in the status bar (config, unreadable folders).
    pub problems: Vec<String>,
}

impl Catalog {
    pub fn listed_count(&self) -> usize {
        self.skills.iter().filter(|s| s.status.listed).count()
    }

    pub fn index_of(&self, skill_md: &Path) -> Option<usize> {
        self.skills.iter().position(|s| s.skill_md == skill_md)
    }
}

/// One file's parse, made on the walking thread.
struct Parsed {
    file: IndexedFile,
    fields: Map,
    kind: FrontmatterKind,
    body_line: usize,
    listing: Candidate,
    command: Option<(String, Value)>,
    error: Option<String>,
}

impl Engine {
    /// The text and frontmatter of a file: from the reuse cache when the
    /// file is unchanged since the last scan, else read (and kept).
    fn text_and_frontmatter(
        &self,
        file: &mut IndexedFile,
    ) -> Result<super::reuse::ParsedText, super::source::ReadError> {
        let Some(cache) = &self.reuse else {
            let text = file.take_text()?;
            let (frontmatter, _) = frontmatter::parse(&text);
            return Ok(super::reuse::ParsedText { text: std::sync::Arc::new(text), frontmatter });
        };
        let stamp = super::reuse::Stamp::of(&file.path);
        if let Some(parsed) = stamp.and_then(|s| cache.get(&file.path, s)) {
            return Ok(parsed);
        }
        let text = file.take_text()?;
        Ok(cache.insert(&file.path, stamp, text))
    }

    fn parse_for_catalog(&self, mut file: IndexedFile) -> Parsed {
        let parsed = self.text_and_frontmatter(&mut file);
        match parsed {
            Ok(parsed) => {
                let text = parsed.text.as_str();
                let fm = parsed.frontmatter;
                let unmarked = text.strip_prefix('\u{feff}').unwrap_or(text);
                let body = &unmarked[fm.body_start.min(unmarked.len())..];
                let body_line = super::source::line_at(text, text.len() - body.len());
                let listing = if discover::has_excluded_component(&file.path) {
                    Candidate::Skip
                } else if text.len() <= LISTING_READ_CHARS {
                    self.listing_candidate_parsed(&file.path, &fm.fields, body)
                } else {
                    self.listing_candidate_text(&file.path, take_chars(text, LISTING_READ_CHARS))
                };
                let command = self.command_candidate_parsed(&file.path, &fm.fields, body);
                Parsed { file, fields: fm.fields, kind: fm.kind, body_line, listing, command, error: None }
            }
            Err(e) => Parsed {
                file,
                fields: Map::new(),
                kind: FrontmatterKind::None,
                body_line: 1,
                listing: Candidate::Skip,
                command: None,
                error: Some(e.to_string()),
            },
        }
    }

    /// Scans the home once and evaluates every skill and bundle.
    pub fn catalog(&self) -> Catalog {
        let mut catalog = self.skills_catalog();
        catalog.bundles = self.bundles();
        for p in &catalog.bundles.problems {
            catalog.problems.push(format!("{}: {}; Hermes skips this bundle", p.path.display(), p.reason));
        }
        catalog
    }

    /// [`Engine::catalog`] without the bundles, for a skill folder that
    /// shares its home's bundles (a user's layer).
    pub(crate) fn skills_catalog(&self) -> Catalog {
        let mut roots = Vec::new();
        if super::paths::exists(&self.home.skills_dir) {
            roots.push(Root { path: self.home.skills_dir.clone(), label: "local".into(), source: None });
        }
        for (i, dir) in self.home.external_dirs.iter().enumerate() {
            roots.push(Root { path: dir.clone(), label: format!("external {i}"), source: None });
        }
        let mut problems = Vec::new();
        if let Some(p) = &self.home.config_problem {
            problems.push(p.clone());
        }
        let mut parsed: Vec<(usize, Parsed)> = Vec::new();
        // With a reuse cache, the walk only lists: unchanged files are not read.
        let read = self.reuse.as_ref().map_or(true, |c| c.is_empty());
        for (ri, root) in roots.iter().enumerate() {
            let map = |f| self.parse_for_catalog(f);
            let (items, report) = if read {
                discover::index_read_map(&root.path, "SKILL.md", &map)
            } else {
                discover::index_map(&root.path, "SKILL.md", &map)
            };
            for dir in report.unreadable {
                problems.push(format!("{}: cannot be read; its skills are skipped", dir.display()));
            }
            parsed.extend(items.into_iter().map(|p| (ri, p)));
        }
        let disabled = gates::disabled_names(&self.home, &self.env, None).unwrap_or_default();
        let backend = self.options.backend.name();

        // Listing order is scan order: first name wins, then the disabled filter.
        let mut first_by_name: HashMap<String, usize> = HashMap::new();
        let mut skills: Vec<CatalogSkill> = Vec::with_capacity(parsed.len());
        let mut command_candidates: Vec<Option<(String, Value)>> = Vec::with_capacity(parsed.len());
        for (i, (ri, p)) in parsed.into_iter().enumerate() {
            let ri = &ri;
            let skill_dir = p.file.path.parent().map(Path::to_path_buf).unwrap_or_default();
            let dir_name = skill_dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            let categories = skill_dir
                .strip_prefix(&roots[*ri].path)
                .map(super::paths::parts)
                .unwrap_or_default()
                .into_iter()
                .rev()
                .skip(1)
                .rev()
                .collect();
            let mut status = SkillStatus {
                platform_ok: gates::frontmatter_platform_matches(&p.fields, &self.env),
                environment_ok: gates::environment_matches(&p.fields, &self.home, &self.env),
                ..SkillStatus::default()
            };
            let (name, description) = match &p.listing {
                Candidate::Keep { name, description } => {
                    match first_by_name.get(name) {
                        Some(&first) => status.shadowed_by = Some(first),
                        None => {
                            first_by_name.insert(name.clone(), i);
                            status.disabled = disabled.contains(name);
                            status.listed = !status.disabled;
                        }
                    }
                    (name.clone(), description.py_str())
                }
                Candidate::Skip => {
                    status.unlistable = p.error.is_none() && status.platform_ok && status.environment_ok;
                    let name = p.fields.get("name").map_or_else(|| dir_name.clone(), Value::py_str);
                    status.disabled = disabled.contains(&name) || disabled.contains(&dir_name);
                    let desc = p.fields.get("description").map(Value::py_str).unwrap_or_default();
                    (name, desc)
                }
            };
            let excluded = p
                .file
                .path
                .components()
                .any(|c| matches!(c.as_os_str().to_str(), Some(".git" | ".github" | ".hub" | ".archive")));
            command_candidates.push(if excluded { None } else { p.command });
            skills.push(CatalogSkill {
                root: *ri,
                categories,
                skill_md: p.file.path,
                skill_dir,
                name,
                description,
                tags: skill::tag_list(&p.fields, "tags"),
                readiness: readiness::evaluate(&p.fields, &self.home, &self.env, backend),
                frontmatter: p.fields,
                frontmatter_kind: p.kind,
                body_line: p.body_line,
                read_error: p.error,
                status,
                db_row: None,
            });
        }

        // skill_view(name) gathers every file whose folder or frontmatter
        // name equals the name, across all roots, and refuses several.
        let mut by_lookup: HashMap<String, Vec<usize>> = HashMap::new();
        for (i, skill) in skills.iter().enumerate() {
            let dir_name = skill.skill_dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            let mut keys: HashSet<String> = HashSet::from([dir_name]);
            if let Some(Value::Str(n)) = skill.frontmatter.get("name") {
                keys.insert(n.clone());
            }
            for k in keys {
                by_lookup.entry(k).or_default().push(i);
            }
        }
        for (i, skill) in skills.iter_mut().enumerate() {
            if let Some(all) = by_lookup.get(&skill.name) {
                if all.len() > 1 {
                    skill.status.ambiguous_with = all.iter().copied().filter(|&j| j != i).collect();
                }
            }
        }

        let commands =
            messages::register_commands(skills.iter().map(|s| s.skill_md.as_path()).zip(command_candidates), &disabled);
        let by_path: HashMap<&Path, usize> =
            skills.iter().enumerate().map(|(i, s)| (s.skill_md.as_path(), i)).collect();
        let registered: Vec<(usize, String)> = commands
            .iter()
            .filter_map(|(key, cmd)| by_path.get(cmd.skill_md_path.as_path()).map(|&i| (i, key.clone())))
            .collect();
        for (i, key) in registered {
            skills[i].status.command = Some(key);
        }
        link_shadows(&mut skills);
        Catalog { roots, skills, bundles: Default::default(), commands, problems }
    }
}

/// Fills `shadows` from `shadowed_by`.
pub(crate) fn link_shadows(skills: &mut [CatalogSkill]) {
    for s in skills.iter_mut() {
        s.status.shadows.clear();
    }
    for i in 0..skills.len() {
        if let Some(first) = skills[i].status.shadowed_by {
            skills[first].status.shadows.push(i);
        }
    }
}
