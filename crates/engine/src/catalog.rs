//! A snapshot of every skill in a home with what Hermes makes of it, for
//! the browser: one walk, one read and one parse per SKILL.md.
//!
//! Unlike `skills_list`, the catalog keeps the skills Hermes hides and says
//! why: platform or environment gates, disabled lists, a name another skill
//! already took, a name `skill_view` refuses as ambiguous, missing setup.

use super::commands::{self, SkillCommand};
use super::discover::{self, IndexedFile};
use super::frontmatter::{self, FrontmatterKind};
use super::gates;
use super::readiness::{self, Readiness};
use super::skill::Listing;
use super::skill::{self, LISTING_READ_CHARS};
use super::value::{Map, Value};
use super::Engine;
use crate::py::take_chars;
use indexmap::IndexMap;

/// What a catalog scan runs on each skill as it is found: the skill, its
/// SKILL.md text (when read) and its folder's `rglob("*")` (when asked for).
pub(crate) type EachSkill<'a, T> =
    dyn Fn(&mut CatalogSkill, Option<&str>, Option<Vec<super::paths::TreeFile>>) -> T + Sync + 'a;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// A folder skills are discovered in.
#[derive(Debug, Clone, PartialEq)]
pub struct Root {
    pub path: PathBuf,
    /// `local`, or `external <i>` in config order; with layers, the source.
    pub label: String,
    /// The layer the root belongs to, when layers are on.
    pub source: Option<Source>,
}

/// The layer a root belongs to, when layers are on (see [`crate::layers`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Source {
    User,
    Shared,
    Db,
}

impl Source {
    pub fn name(self) -> &'static str {
        match self {
            Source::User => "user",
            Source::Shared => "shared",
            Source::Db => "db",
        }
    }
}

/// A folder of a root the walk could not list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnreadableFolder {
    /// The index of its root in [`Catalog::roots`].
    pub root: usize,
    pub path: PathBuf,
    /// The system's answer (`Permission denied (os error 13)`), or why the
    /// walk stopped short.
    pub error: String,
    /// A symlinked folder whose walk was cut short, not an unreadable one
    /// ([`crate::discover::LINKED_FOLDERS_AT_MOST`]).
    pub cut: bool,
}

impl UnreadableFolder {
    /// The folders between its root and it, as a skill's `categories`.
    pub fn categories(&self, root: &Path) -> Vec<String> {
        let mut parts = self.path.strip_prefix(root).map(super::paths::parts).unwrap_or_default();
        parts.pop();
        parts
    }

    /// Its own name.
    pub fn name(&self) -> String {
        self.path
            .file_name()
            .map_or_else(|| super::paths::path_string(&self.path), |n| n.to_string_lossy().into_owned())
    }
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
    /// Its frontmatter; empty in a lean catalog ([`Catalog::lean`]).
    pub frontmatter: Map,
    /// The frontmatter's `name` when it is a string, kept when the rest
    /// of the frontmatter is dropped: [`CatalogSkill::frontmatter_name`].
    pub(crate) name_field: NameField,
    pub frontmatter_kind: FrontmatterKind,
    /// 1-based line where the body starts (for opening an editor there).
    pub body_line: usize,
    pub read_error: Option<String>,
    /// Its prerequisites as `skill_view` reports them, boxed only when
    /// something is required or missing (most skills need nothing):
    /// read it through [`CatalogSkill::readiness`].
    pub(crate) readiness: Option<Box<Readiness>>,
    pub status: SkillStatus,
    /// The database row of a skill that has no folder (source `db`).
    pub db_row: Option<Box<crate::db::DbSkill>>,
    /// The listing keeps it (before the first-name-wins pass).
    pub listing_kept: bool,
    /// The slash command it asks for: name and description.
    pub command_candidate: Option<(String, Value)>,
}

/// A frontmatter `name` as a lean catalog keeps it: most skills' is the
/// name they are listed by, which is then not held twice.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum NameField {
    /// No `name`, or one that is not a string.
    NotAString,
    /// The same as [`CatalogSkill::name`].
    Listed,
    Other(Box<str>),
}

impl NameField {
    pub(crate) fn of(fields: &Map, listed: &str) -> NameField {
        match fields.get("name") {
            Some(Value::Str(n)) if n == listed => NameField::Listed,
            Some(Value::Str(n)) => NameField::Other(n.as_str().into()),
            _ => NameField::NotAString,
        }
    }
}

impl CatalogSkill {
    /// A skill known only by its name, folders and description (no file
    /// behind it): for tools and tests that rank or show skills.
    pub fn named(name: &str, categories: Vec<String>, description: &str) -> CatalogSkill {
        CatalogSkill {
            root: 0,
            categories,
            skill_md: PathBuf::new(),
            skill_dir: PathBuf::new(),
            name: name.to_owned(),
            description: description.to_owned(),
            tags: Vec::new(),
            frontmatter: Map::default(),
            name_field: NameField::NotAString,
            frontmatter_kind: FrontmatterKind::None,
            body_line: 1,
            read_error: None,
            readiness: None,
            status: SkillStatus::default(),
            db_row: None,
            listing_kept: false,
            command_candidate: None,
        }
    }

    /// The frontmatter's `name`, when it is a string (linking and name
    /// lookups read it; a lean catalog keeps it).
    pub fn frontmatter_name(&self) -> Option<&str> {
        match &self.name_field {
            NameField::NotAString => None,
            NameField::Listed => Some(&self.name),
            NameField::Other(n) => Some(n),
        }
    }

    /// Its prerequisites as `skill_view` reports them.
    pub fn readiness(&self) -> &Readiness {
        static NOTHING_NEEDED: Readiness = Readiness::NOTHING_NEEDED;
        self.readiness.as_deref().unwrap_or(&NOTHING_NEEDED)
    }

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
    /// The slash commands, each to the index of the skill it runs (its
    /// name and description are that skill's: [`Catalog::command`]).
    pub commands: IndexMap<String, usize>,
    /// Problems worth a line in the status bar (config, bundles, the database).
    pub problems: Vec<String>,
    /// Folders under the roots that could not be listed: Hermes passes over
    /// them (and every skill inside) without a word.
    pub unreadable: Vec<UnreadableFolder>,
    /// No skill's frontmatter is held (a browser's catalog, see
    /// [`Engine::lean_catalog`]), but its string `name`
    /// ([`CatalogSkill::frontmatter_name`]); [`Engine::frontmatter_of`]
    /// reads the rest again.
    pub lean: bool,
    /// Set when the skills inside some folders were read from a written
    /// copy of another state ([`crate::overlay`]): lookups by path
    /// look there for those folders.
    pub overlay: Option<std::sync::Arc<crate::overlay::Overlay>>,
}

/// Drops a skill's frontmatter (its string `name` is kept apart): see
/// [`Catalog::lean`].
pub(crate) fn drop_frontmatter(skill: &mut CatalogSkill) {
    skill.frontmatter = Map::default();
}

impl Catalog {
    pub fn listed_count(&self) -> usize {
        self.skills.iter().filter(|s| s.status.listed).count()
    }

    pub fn index_of(&self, skill_md: &Path) -> Option<usize> {
        self.skills.iter().position(|s| s.skill_md == skill_md)
    }

    /// The slash command `key` (`/name`), as `scan_skill_commands()` has it.
    pub fn command(&self, key: &str) -> Option<SkillCommand> {
        self.command_of(*self.commands.get(key)?)
    }

    /// Every slash command in registration order: `scan_skill_commands()`.
    pub fn skill_commands(&self) -> IndexMap<String, SkillCommand> {
        self.commands.iter().filter_map(|(key, &i)| Some((key.clone(), self.command_of(i)?))).collect()
    }

    /// The slash command of the skill at `index`, which registered one.
    fn command_of(&self, index: usize) -> Option<SkillCommand> {
        let skill = self.skills.get(index)?;
        let (name, description) = skill.command_candidate.clone()?;
        Some(SkillCommand::new(name, description, &skill.skill_md))
    }
}

/// A skill as the walk found it, and what was computed beside it.
struct Walked<T>(Box<CatalogSkill>, T);

impl<T> discover::Found for Walked<T> {
    fn path(&self) -> &Path {
        &self.0.skill_md
    }
}

/// One file's parse, made on the walking thread.
struct Parsed {
    file: IndexedFile,
    fields: Map,
    kind: FrontmatterKind,
    body_line: usize,
    listing: Listing,
    command: Option<(String, Value)>,
    error: Option<String>,
    /// The text read, for work done while it is at hand (a check).
    text: Option<String>,
}

impl Engine {
    fn parse_for_catalog(&self, mut file: IndexedFile) -> Parsed {
        match file.take_text() {
            Ok(owned) => {
                let text = owned.as_str();
                let (fm, _) = frontmatter::parse(text);
                let unmarked = text.strip_prefix('\u{feff}').unwrap_or(text);
                let body = &unmarked[fm.body_start.min(unmarked.len())..];
                let body_line = super::source::line_at(text, text.len() - body.len());
                let listing = if discover::has_excluded_component(&file.path) {
                    Listing::Skip
                } else if text.len() <= LISTING_READ_CHARS {
                    self.listing_candidate_parsed(&file.path, &fm.fields, body)
                } else {
                    self.listing_candidate_text(&file.path, take_chars(text, LISTING_READ_CHARS))
                };
                let command = self.command_candidate_parsed(&file.path, &fm.fields, body);
                let (fields, kind) = (fm.fields, fm.kind);
                Parsed { file, fields, kind, body_line, listing, command, error: None, text: Some(owned) }
            }
            Err(e) => Parsed {
                file,
                fields: Map::default(),
                kind: FrontmatterKind::None,
                body_line: 1,
                listing: Listing::Skip,
                command: None,
                error: Some(e.to_string()),
                text: None,
            },
        }
    }

    /// Scans the home once and evaluates every skill and bundle.
    pub fn catalog(&self) -> Catalog {
        let mut catalog = self.skills_catalog();
        self.refresh_bundles(&mut catalog);
        catalog
    }

    /// [`Engine::catalog`] holding no skill's frontmatter (its string
    /// `name`, what linking needs, is kept apart), dropped skill by skill
    /// as the walk reads them:
    /// on a big home the frontmatter is most of a catalog's memory, and a
    /// browser shows one skill's at a time ([`Engine::frontmatter_of`]).
    pub fn lean_catalog(&self) -> Catalog {
        let (mut catalog, _) = self.walk_catalog(&|skill, _, _| drop_frontmatter(skill), false, None);
        catalog.lean = true;
        self.refresh_bundles(&mut catalog);
        catalog
    }

    /// A skill's frontmatter: held by the catalog, or read again from its
    /// SKILL.md (or database row) when the catalog is lean. Empty when the
    /// file cannot be read.
    pub fn frontmatter_of<'a>(&self, catalog: &Catalog, skill: &'a CatalogSkill) -> std::borrow::Cow<'a, Map> {
        if !catalog.lean {
            return std::borrow::Cow::Borrowed(&skill.frontmatter);
        }
        let fields = match &skill.db_row {
            Some(row) => frontmatter::parse(&row.content).0.fields,
            None => match super::source::read_text(&skill.skill_md) {
                Ok(text) => frontmatter::parse(&text).0.fields,
                Err(_) => Map::default(),
            },
        };
        std::borrow::Cow::Owned(fields)
    }

    /// Reads the bundles again; their problems replace the old ones.
    pub fn refresh_bundles(&self, catalog: &mut Catalog) {
        let old: HashSet<String> = catalog.bundles.problems.iter().map(bundle_problem).collect();
        catalog.problems.retain(|p| !old.contains(p));
        catalog.bundles = self.bundles();
        catalog.problems.extend(catalog.bundles.problems.iter().map(bundle_problem));
    }

    /// [`Engine::catalog`] without the bundles, for a skill folder that
    /// shares its home's bundles (a user's layer).
    pub(crate) fn skills_catalog(&self) -> Catalog {
        self.walk_catalog(&|_, _, _| (), false, None).0
    }

    /// The folders a scan walks: the skills dir, then the external dirs.
    pub(crate) fn skill_roots(&self) -> Vec<Root> {
        let mut roots = Vec::new();
        if super::paths::exists(&self.home.skills_dir) {
            roots.push(Root { path: self.home.skills_dir.clone(), label: "local".into(), source: None });
        }
        for (i, dir) in self.home.external_dirs.iter().enumerate() {
            roots.push(Root { path: dir.clone(), label: format!("external {i}"), source: None });
        }
        roots
    }

    /// [`Engine::skills_catalog`] that also runs `each` on every skill and
    /// its text (`None` when unreadable) on the walking threads, while the
    /// text is at hand: one read of each SKILL.md serves both. Its results
    /// come in catalog order. `each` sees the skill before linking (no
    /// status that depends on other skills), and may drop what its caller
    /// will not need (linking reads the name and the frontmatter `name`).
    /// With `notes`, each root's walk report is added to it, in the roots'
    /// order (their unreadable folders are the catalog's).
    pub(crate) fn walk_catalog<T: Send>(
        &self,
        each: &EachSkill<'_, T>,
        with_trees: bool,
        mut notes: Option<&mut Vec<discover::WalkReport>>,
    ) -> (Catalog, Vec<T>) {
        let roots = self.skill_roots();
        let mut problems = Vec::new();
        if let Some(p) = &self.home.config_problem {
            problems.push(p.clone());
        }
        let mut skills: Vec<CatalogSkill> = Vec::new();
        let mut results: Vec<T> = Vec::new();
        let mut unreadable = Vec::new();
        for (ri, root) in roots.iter().enumerate() {
            let map = |mut f: IndexedFile| {
                let tree = f.tree.take();
                let mut parsed = self.parse_for_catalog(f);
                let text = parsed.text.take();
                let mut skill = self.catalog_skill(ri, &root.path, parsed);
                let result = each(&mut skill, text.as_deref(), tree);
                // Boxed until it joins the catalog: sorting and merging the
                // walk's lists then move pointers, and each skill leaves its
                // box as the catalog's list grows, so it is held once.
                Walked(Box::new(skill), result)
            };
            let how = discover::Walk { read: true, note_md_names: notes.is_some(), tree: with_trees };
            let (items, mut report) = discover::walk_found(&root.path, "SKILL.md", how, &map);
            unreadable.extend(std::mem::take(&mut report.unreadable).into_iter().map(|d| UnreadableFolder {
                root: ri,
                path: d.path,
                error: d.error,
                cut: d.cut,
            }));
            if let Some(notes) = notes.as_deref_mut() {
                notes.push(report);
            }
            skills.reserve_exact(items.len());
            results.reserve_exact(items.len());
            for Walked(skill, result) in items {
                skills.push(*skill);
                results.push(result);
            }
        }
        let commands = self.link_catalog(&mut skills);
        let catalog = Catalog {
            roots,
            skills,
            bundles: Default::default(),
            commands,
            problems,
            unreadable,
            lean: false,
            overlay: None,
        };
        (catalog, results)
    }

    /// Re-reads the skills at `changed` (indexes into the catalog's skills)
    /// without walking the roots: for a reload after files changed inside
    /// existing skill folders. The statuses that depend on other skills are
    /// linked again only when what they depend on changed (a name).
    pub fn refresh_skills(&self, catalog: &mut Catalog, changed: &[usize]) {
        let mut relink = false;
        for &i in changed {
            let Some(old) = catalog.skills.get(i) else { continue };
            let Some(root) = catalog.roots.get(old.root).map(|r| r.path.clone()) else { continue };
            if old.db_row.is_some() {
                continue;
            }
            let file = IndexedFile { path: old.skill_md.clone(), regular: false, text: None, tree: None };
            let mut fresh = self.catalog_skill(old.root, &root, self.parse_for_catalog(file));
            if catalog.lean {
                drop_frontmatter(&mut fresh);
            }
            let old = std::mem::replace(&mut catalog.skills[i], fresh);
            if link_inputs(&old) != link_inputs(&catalog.skills[i]) {
                relink = true;
                continue;
            }
            let skill = &mut catalog.skills[i];
            let kept = &mut skill.status;
            kept.listed = old.status.listed;
            kept.shadowed_by = old.status.shadowed_by;
            kept.shadows = old.status.shadows;
            kept.disabled = old.status.disabled;
            kept.ambiguous_with = old.status.ambiguous_with;
            kept.command = old.status.command;
        }
        if relink {
            catalog.commands = self.link_catalog(&mut catalog.skills);
        }
    }

    /// A skill of the catalog read and parsed again, as the walk made it
    /// (statuses that depend on other skills not linked), and its text.
    pub(crate) fn reread_skill(&self, catalog: &Catalog, skill: &CatalogSkill) -> (CatalogSkill, Option<String>) {
        let root = catalog.roots.get(skill.root).map(|r| r.path.as_path()).unwrap_or(Path::new(""));
        let file = IndexedFile { path: skill.skill_md.clone(), regular: false, text: None, tree: None };
        let mut parsed = self.parse_for_catalog(file);
        let text = parsed.text.take();
        (self.catalog_skill(skill.root, root, parsed), text)
    }

    /// What one file says on its own: everything but the statuses that
    /// depend on the other skills (see [`Engine::link_catalog`]).
    fn catalog_skill(&self, root_index: usize, root: &Path, p: Parsed) -> CatalogSkill {
        let skill_dir = p.file.path.parent().map(Path::to_path_buf).unwrap_or_default();
        let dir_name = skill_dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let mut categories = skill_dir.strip_prefix(root).map(super::paths::parts).unwrap_or_default();
        categories.pop();
        let mut status = SkillStatus {
            platform_ok: gates::frontmatter_platform_matches(&p.fields, &self.env),
            environment_ok: gates::environment_matches(&p.fields, &self.home, &self.env),
            ..SkillStatus::default()
        };
        let (name, description, listing_kept) = match &p.listing {
            Listing::Keep { name, description } => (name.text(), description.py_str(), true),
            Listing::Skip => {
                status.unlistable = p.error.is_none() && status.platform_ok && status.environment_ok;
                let name = p.fields.get("name").map_or_else(|| dir_name.clone(), Value::py_str);
                let desc = p.fields.get("description").map(Value::py_str).unwrap_or_default();
                (name, desc, false)
            }
        };
        let excluded = p
            .file
            .path
            .components()
            .any(|c| matches!(c.as_os_str().to_str(), Some(".git" | ".github" | ".hub" | ".archive")));
        let name_field = NameField::of(&p.fields, &name);
        CatalogSkill {
            root: root_index,
            categories,
            skill_md: p.file.path,
            skill_dir,
            name,
            description,
            tags: skill::tag_list(&p.fields, "tags"),
            readiness: readiness::evaluate(&p.fields, &self.home, &self.env, self.options.backend.name()).boxed(),
            name_field,
            frontmatter: p.fields,
            frontmatter_kind: p.kind,
            body_line: p.body_line,
            read_error: p.error,
            status,
            db_row: None,
            listing_kept,
            command_candidate: if excluded { None } else { p.command },
        }
    }

    /// The statuses that depend on every skill (names taken first, disabled
    /// lists, ambiguous lookups, slash commands), in scan order.
    pub(crate) fn link_catalog(&self, skills: &mut [CatalogSkill]) -> IndexMap<String, usize> {
        let disabled = gates::disabled_names(&self.home, &self.env, None).unwrap_or_default();
        // Listing order is scan order: first name wins; a disabled skill
        // is passed over before it takes its name.
        let mut first_by_name: HashMap<&str, usize> = HashMap::with_capacity(skills.len());
        let mut linked: Vec<(bool, Option<usize>, bool)> = Vec::with_capacity(skills.len());
        for (i, skill) in skills.iter().enumerate() {
            linked.push(if skill.listing_kept {
                match first_by_name.get(skill.name.as_str()) {
                    Some(&first) => (false, Some(first), false),
                    None if disabled.contains(&skill.name) => (false, None, true),
                    None => {
                        first_by_name.insert(&skill.name, i);
                        (true, None, false)
                    }
                }
            } else {
                let dir_name = skill.skill_dir.file_name().map(|n| n.to_string_lossy());
                let disabled =
                    disabled.contains(&skill.name) || dir_name.is_some_and(|d| disabled.contains(d.as_ref()));
                (false, None, disabled)
            });
        }

        // skill_view(name) gathers every file whose folder or frontmatter
        // name equals the name, across all roots, and refuses several.
        let mut by_lookup: HashMap<&str, Vec<usize>> = HashMap::with_capacity(skills.len());
        let mut dir_names: Vec<std::borrow::Cow<str>> = Vec::with_capacity(skills.len());
        for skill in skills.iter() {
            dir_names.push(skill.skill_dir.file_name().map(|n| n.to_string_lossy()).unwrap_or_default());
        }
        for (i, skill) in skills.iter().enumerate() {
            let dir_name: &str = &dir_names[i];
            if let Some(n) = skill.frontmatter_name() {
                if n != dir_name {
                    by_lookup.entry(n).or_default().push(i);
                }
            }
            by_lookup.entry(dir_name).or_default().push(i);
        }
        let ambiguous: Vec<Vec<usize>> = skills
            .iter()
            .enumerate()
            .map(|(i, skill)| match by_lookup.get(skill.name.as_str()) {
                Some(all) if all.len() > 1 => all.iter().copied().filter(|&j| j != i).collect(),
                _ => Vec::new(),
            })
            .collect();
        drop(by_lookup);
        drop(dir_names);

        let commands = commands::command_slots(
            skills.iter().map(|s| s.command_candidate.as_ref().map(|(name, _)| name.as_str())),
            &disabled,
        );
        let mut command_of: Vec<Option<String>> = vec![None; skills.len()];
        for (key, &i) in &commands {
            command_of[i] = Some(key.clone());
        }
        for (i, ((skill, ambiguous_with), command)) in skills.iter_mut().zip(ambiguous).zip(command_of).enumerate() {
            let (listed, shadowed_by, disabled) = linked[i];
            let status = &mut skill.status;
            status.listed = listed;
            status.shadowed_by = shadowed_by;
            status.disabled = disabled;
            status.ambiguous_with = ambiguous_with;
            status.command = command;
        }
        link_shadows(skills);
        commands
    }
}

/// What the statuses linking skills to each other read of one skill (its
/// folder and file never change on a refresh).
fn link_inputs(skill: &CatalogSkill) -> (bool, &str, Option<&str>, Option<&str>) {
    (
        skill.listing_kept,
        &skill.name,
        skill.frontmatter_name(),
        skill.command_candidate.as_ref().map(|(name, _)| name.as_str()),
    )
}

fn bundle_problem(p: &super::bundles::BundleProblem) -> String {
    format!("{}: {}; Hermes skips this bundle", p.path.display(), p.reason)
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
