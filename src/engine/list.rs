//! `skills_list` (spec §8) and the scan behind it, `_find_all_skills`.

use super::discover;
use super::frontmatter;
use super::gates::{self, PyError};
use super::skill::{self, LISTING_READ_CHARS};
use super::value::{take_chars, Value};
use super::Engine;
use serde_json::{json, Value as Json};
use std::collections::HashSet;
use std::path::PathBuf;

/// One row of the listing.
#[derive(Debug, Clone, PartialEq)]
pub struct ListedSkill {
    pub name: String,
    pub description: Value,
    pub category: Option<String>,
    /// Where the SKILL.md is (not part of Hermes' JSON).
    pub skill_md: PathBuf,
}

impl ListedSkill {
    /// The row as JSON, or the error `json.dumps` raises for its description.
    pub fn try_to_json(&self) -> Result<Json, String> {
        Ok(json!({
            "name": self.name,
            "description": self.description.try_to_json()?,
            "category": self.category,
        }))
    }

    pub fn to_json(&self) -> Json {
        json!({
            "name": self.name,
            "description": self.description.to_json(),
            "category": self.category,
        })
    }
}

/// What the listing makes of one SKILL.md before the first-name-wins pass.
pub enum Candidate {
    /// Dropped: unreadable, gated, or a value Hermes cannot handle.
    Skip,
    Keep {
        name: String,
        description: Value,
    },
}

/// The frontmatter keys the listing reads.
const LISTING_KEYS: [&str; 4] = ["name", "description", "platforms", "environments"];

pub const LIST_HINT: &str = "Use skill_view(name) to see full content, tags, and linked files";

impl Engine {
    /// `_find_all_skills(skip_disabled)`: every listable skill, first name wins.
    pub fn find_all_skills(&self, skip_disabled: bool) -> Result<Vec<ListedSkill>, PyError> {
        let disabled: HashSet<String> =
            if skip_disabled { HashSet::new() } else { gates::disabled_names(&self.home, &self.env, None)? };
        let mut files = Vec::new();
        for dir in self.home.scan_dirs() {
            let (found, _) = discover::index_read_map(&dir, "SKILL.md", &|f| {
                let candidate =
                    if discover::has_excluded_component(&f.path) { None } else { Some(self.listing_candidate(&f)) };
                (f.path, candidate)
            });
            files.extend(found.into_iter().filter_map(|(path, c)| c.map(|c| (path, c))));
        }
        let mut seen = HashSet::new();
        let mut skills = Vec::new();
        for (path, candidate) in files {
            let Candidate::Keep { name, description } = candidate else {
                continue;
            };
            if seen.contains(&name) || disabled.contains(&name) {
                continue;
            }
            let category = self.listing_category(&path);
            seen.insert(name.clone());
            skills.push(ListedSkill { name, description, category, skill_md: path });
        }
        Ok(skills)
    }

    fn listing_candidate(&self, file: &discover::IndexedFile) -> Candidate {
        file.with_text(|text| self.listing_candidate_text(&file.path, text)).unwrap_or(Candidate::Skip)
    }

    /// The listing's view of one SKILL.md's text (its first 4000 characters).
    pub fn listing_candidate_text(&self, path: &std::path::Path, text: &str) -> Candidate {
        let head = take_chars(text, LISTING_READ_CHARS);
        let (fm, body) = frontmatter::parse_selected(head, &LISTING_KEYS);
        self.listing_candidate_parsed(path, &fm.fields, body)
    }

    /// The listing's view of a parsed SKILL.md (parsed from at most its
    /// first 4000 characters).
    pub fn listing_candidate_parsed(&self, path: &std::path::Path, fm: &super::value::Map, body: &str) -> Candidate {
        if !gates::frontmatter_platform_matches(fm, &self.env) || !gates::environment_matches(fm, &self.home, &self.env)
        {
            return Candidate::Skip;
        }
        let dir_name = path.parent().and_then(|p| p.file_name()).map(|n| n.to_string_lossy()).unwrap_or_default();
        let Some(name) = skill::listing_name(fm, &dir_name) else {
            return Candidate::Skip;
        };
        let Some(description) = skill::listing_description(fm, body) else {
            return Candidate::Skip;
        };
        Candidate::Keep { name, description }
    }

    /// [`Engine::find_all_skills`] (the names, paths and categories) from a
    /// catalog of this home, without reading a file: its skills of the
    /// listing's roots in scan order, through the same first-name-wins and
    /// disabled filters. `None` when the catalog lacks one of the roots.
    pub fn listed_in_catalog(&self, catalog: &super::catalog::Catalog) -> Option<Result<Vec<ListedSkill>, PyError>> {
        self.listed_in_catalog_as(catalog, |s| ListedSkill {
            name: s.name.clone(),
            description: Value::Str(s.description.clone()),
            category: self.listing_category(&s.skill_md),
            skill_md: s.skill_md.clone(),
        })
    }

    /// [`Engine::listed_in_catalog`], each listed skill made by `make`.
    pub fn listed_in_catalog_as<'c, T>(
        &self,
        catalog: &'c super::catalog::Catalog,
        make: impl Fn(&'c super::catalog::CatalogSkill) -> T,
    ) -> Option<Result<Vec<T>, PyError>> {
        let roots = self.home.scan_dirs();
        let indexes: Vec<usize> =
            roots.iter().map(|root| catalog.roots.iter().position(|r| r.path == *root)).collect::<Option<_>>()?;
        let disabled = match gates::disabled_names(&self.home, &self.env, None) {
            Ok(d) => d,
            Err(e) => return Some(Err(e)),
        };
        let mut seen: HashSet<&str> = HashSet::new();
        let mut skills = Vec::new();
        for ri in indexes {
            for s in catalog.skills.iter().filter(|s| s.root == ri && s.db_row.is_none() && s.listing_kept) {
                if disabled.contains(&s.name) || !seen.insert(s.name.as_str()) {
                    continue;
                }
                skills.push(make(s));
            }
        }
        Some(Ok(skills))
    }

    /// The listing in `skills_list` order: by (category or "", name).
    pub fn sorted_skills(&self) -> Result<Vec<ListedSkill>, PyError> {
        let mut skills = self.find_all_skills(false)?;
        sort_listing(&mut skills);
        Ok(skills)
    }

    /// `skills_list(category)` as Hermes' JSON.
    pub fn skills_list(&self, category: Option<&str>) -> Json {
        if !super::paths::exists(&self.home.skills_dir) {
            // Hermes creates the folder here; skillscope only reports it.
            return json!({
                "success": true,
                "skills": [],
                "categories": [],
                "message": format!(
                    "No skills found. Skills directory created at {}/skills/",
                    self.home.display(&self.env)
                ),
            });
        }
        let mut skills = match self.find_all_skills(false) {
            Ok(s) => s,
            Err(e) => return json!({"error": e, "success": false}),
        };
        if skills.is_empty() {
            return json!({
                "success": true,
                "skills": [],
                "categories": [],
                "message": "No skills found in skills/ directory.",
            });
        }
        if let Some(cat) = category.filter(|c| !c.is_empty()) {
            skills.retain(|s| s.category.as_deref() == Some(cat));
        }
        sort_listing(&mut skills);
        let mut categories: Vec<&str> =
            skills.iter().filter_map(|s| s.category.as_deref()).filter(|c| !c.is_empty()).collect();
        categories.sort_unstable();
        categories.dedup();
        // A description json.dumps cannot write fails the whole answer.
        let rows = match skills.iter().map(ListedSkill::try_to_json).collect::<Result<Vec<_>, _>>() {
            Ok(rows) => rows,
            Err(e) => return json!({"error": e, "success": false}),
        };
        json!({
            "success": true,
            "skills": rows,
            "categories": categories,
            "count": skills.len(),
            "hint": LIST_HINT,
        })
    }
}

pub fn sort_listing(skills: &mut [ListedSkill]) {
    skills.sort_by(|a, b| {
        (a.category.as_deref().unwrap_or(""), a.name.as_str())
            .cmp(&(b.category.as_deref().unwrap_or(""), b.name.as_str()))
    });
}
