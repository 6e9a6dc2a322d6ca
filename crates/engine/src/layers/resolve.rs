//! The layers as the engine answers them: listing, viewing, the browser's
//! catalog and the findings only layers can have.

use super::{DbRead, DbSkill, Layers, Source, TABLE};
use crate::catalog::{Catalog, CatalogSkill, NameField, Root, SkillStatus, UnreadableFolder};
use crate::context::Context;
use crate::frontmatter;
use crate::gates;
use crate::list::{sort_listing, ListedSkill, LIST_HINT};
use crate::readiness;
use crate::skill;
use crate::value::Value;
use crate::view::SkillRef;
use crate::Engine;
use serde_json::{json, Map as JsonMap, Value as Json};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

impl Engine {
    /// The same engine over a user's own skill folder (no external dirs).
    pub fn user_engine(&self, user: &str) -> Engine {
        let mut e = self.clone();
        e.home.skills_dir = self.home.root.join("users").join(user).join("skills");
        e.home.external_dirs.clear();
        e
    }

    /// `skills_list` over the layers, each skill with its `source`.
    pub fn layered_list(&self, layers: &Layers, db: &DbRead, category: Option<&str>) -> Json {
        let mut entries: Vec<(Source, ListedSkill)> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let user = self.user_engine(&layers.user);
        for (source, engine) in [(Source::User, &user), (Source::Shared, self)] {
            let mut skills = match engine.find_all_skills(false) {
                Ok(s) => s,
                Err(e) => return json!({"error": e, "success": false}),
            };
            if let Err(e) = sort_listing(&mut skills) {
                return json!({"error": e, "success": false});
            }
            for s in skills {
                if seen.insert(s.name.clone()) {
                    entries.push((source, s));
                }
            }
        }
        let mut db_skills: Vec<ListedSkill> = db
            .skills
            .iter()
            .map(|r| ListedSkill {
                name: r.name.clone(),
                bytes_name: false,
                description: Value::Str(r.description.clone()),
                category: r.category.clone(),
                skill_md: PathBuf::from(format!("db:{TABLE}/{}", r.id)),
            })
            .collect();
        // Database names are strings: sorting them cannot fail.
        let _ = sort_listing(&mut db_skills);
        for s in db_skills {
            if seen.insert(s.name.clone()) {
                entries.push((Source::Db, s));
            }
        }
        if let Some(cat) = category.filter(|c| !c.is_empty()) {
            entries.retain(|(_, s)| s.category.as_deref() == Some(cat));
        }
        let mut categories: Vec<String> = entries.iter().filter_map(|(_, s)| s.category.clone()).collect();
        categories.sort();
        categories.dedup();
        let skills: Vec<Json> = entries
            .iter()
            .map(|(src, s)| {
                let mut j = s.to_json();
                j["source"] = json!(src.name());
                j
            })
            .collect();
        json!({"success": true, "skills": skills, "categories": categories, "count": skills.len(), "hint": LIST_HINT})
    }

    /// `skill_view` over the layers: the user's folder, then the shared
    /// dirs, then the database; the answer says its `source`.
    pub fn layered_view(
        &self,
        layers: &Layers,
        db: &DbRead,
        only: Option<Source>,
        name: &str,
        file_path: Option<&str>,
        task_id: Option<&str>,
    ) -> Json {
        let wanted = |s: Source| only.map_or(true, |o| o == s);
        let user = self.user_engine(&layers.user);
        for (source, engine) in [(Source::User, &user), (Source::Shared, self)] {
            if !wanted(source) || engine.home.scan_dirs().is_empty() {
                continue;
            }
            // A plain name missing from a layer needs no full answer (whose
            // not-found listing walks the layer again).
            let ctx = Context::new(engine);
            let plain = !name.contains(':') && crate::view::lookup_path_error(name).is_none();
            if plain && ctx.candidates(name, None).is_empty() {
                continue;
            }
            let answer = ctx.skill_view(SkillRef::Name(name), file_path, task_id, true);
            let not_found = answer.get("error").and_then(Json::as_str).is_some_and(|e| e.ends_with("not found."));
            if !not_found {
                return with_source(answer, source);
            }
        }
        if let Some(row) = db.skills.iter().find(|r| r.name == name).filter(|_| wanted(Source::Db)) {
            if let Some(file) = file_path {
                return json!({
                    "success": false,
                    "error": format!("Skill '{name}' is stored in the database and has no file '{file}'."),
                });
            }
            return with_source(self.db_view(row, task_id), Source::Db);
        }
        let listed = self.layered_list(layers, db, None);
        let available: Vec<Json> = listed["skills"]
            .as_array()
            .map(|a| a.iter().take(20).map(|s| s["name"].clone()).collect())
            .unwrap_or_default();
        json!({
            "success": false,
            "error": format!("Skill '{name}' not found."),
            "available_skills": available,
            "hint": "Use skills_list to see all available skills",
        })
    }

    /// A database skill as skill_view would answer for a skill without a folder.
    pub fn db_view(&self, row: &DbSkill, task_id: Option<&str>) -> Json {
        let fm = frontmatter::parse(&row.content).0.fields;
        let ready = readiness::evaluate(&fm, &self.home, &self.env, self.options.backend.name());
        if let Some(e) = ready.view_error {
            return json!({"error": e, "success": false});
        }
        let cfg = crate::preprocess::PreprocessConfig::from_skills(self.home.merged_skills());
        let content = crate::preprocess::preprocess(&row.content, Default::default(), task_id, &cfg, false).text;
        let mut out = JsonMap::new();
        out.insert("success".into(), json!(true));
        out.insert("name".into(), fm.get("name").map_or_else(|| json!(row.name), Value::to_json));
        out.insert("description".into(), json!(row.description));
        out.insert("tags".into(), json!(skill::tag_list(&fm, "tags")));
        out.insert("related_skills".into(), json!(skill::tag_list(&fm, "related_skills")));
        out.insert("content".into(), json!(content));
        out.insert("path".into(), json!(format!("db:{TABLE}/{}", row.id)));
        out.insert("skill_dir".into(), Json::Null);
        out.insert("runtime_skill_dir".into(), Json::Null);
        out.insert("linked_files".into(), Json::Null);
        out.insert("usage_hint".into(), Json::Null);
        out.insert(
            "required_environment_variables".into(),
            Json::Array(ready.required.iter().map(|r| r.to_json()).collect()),
        );
        out.insert("missing_required_environment_variables".into(), json!(ready.missing_env));
        out.insert("missing_credential_files".into(), json!(ready.missing_files));
        out.insert("setup_needed".into(), json!(ready.setup_needed));
        out.insert("readiness_status".into(), json!(ready.status()));
        if let Some(note) = &ready.setup_note {
            out.insert("setup_note".into(), json!(note));
        }
        Json::Object(out)
    }
}

impl Engine {
    /// The browser's catalog over the layers: the user's folder, the shared
    /// roots, then the database rows. A shared skill whose name a user skill
    /// took is kept, marked as shadowed by it; so is a database row.
    pub fn layered_catalog(&self, layers: &Layers, db: &DbRead) -> Catalog {
        self.merge_layers(layers, db, self.user_engine(&layers.user).skills_catalog(), self.catalog())
    }

    /// [`Engine::layered_catalog`] holding no skill's frontmatter (see
    /// [`Catalog::lean`]): the browser's.
    pub fn lean_layered_catalog(&self, layers: &Layers, db: &DbRead) -> Catalog {
        let mut catalog = self.layered_catalog(layers, db);
        catalog.skills.iter_mut().for_each(crate::catalog::drop_frontmatter);
        catalog.lean = true;
        catalog
    }

    pub(crate) fn merge_layers(&self, layers: &Layers, db: &DbRead, mut user: Catalog, mut shared: Catalog) -> Catalog {
        let mut roots: Vec<Root> = Vec::new();
        // The user's root is shown even when the folder does not exist yet.
        roots.push(Root {
            path: layers.user_dir(&self.home.root),
            label: format!("user {}", layers.user),
            source: Some(Source::User),
        });
        for s in &mut user.skills {
            s.root = 0;
        }
        let mut unreadable: Vec<_> = user.unreadable.drain(..).map(|u| UnreadableFolder { root: 0, ..u }).collect();
        let offset = roots.len();
        unreadable.extend(shared.unreadable.drain(..).map(|u| UnreadableFolder { root: u.root + offset, ..u }));
        roots.extend(shared.roots.drain(..).map(|r| Root {
            label: format!("shared {}", r.label),
            source: Some(Source::Shared),
            ..r
        }));
        let mut skills = user.skills;
        let taken: HashMap<String, usize> =
            skills.iter().enumerate().filter(|(_, s)| s.status.listed).map(|(i, s)| (s.name.clone(), i)).collect();
        let shift = skills.len();
        let remap = |v: usize| v + shift;
        for mut s in shared.skills {
            s.root += offset;
            s.status.shadowed_by = s.status.shadowed_by.map(remap);
            s.status.ambiguous_with = s.status.ambiguous_with.iter().copied().map(remap).collect();
            if let Some(&first) = taken.get(&s.name).filter(|_| s.status.listed) {
                s.status.listed = false;
                s.status.shadowed_by = Some(first);
            }
            skills.push(s);
        }
        // Both catalogs read the same config: report its problem once.
        let mut problems = shared.problems;
        for p in user.problems {
            if !problems.contains(&p) {
                problems.push(p);
            }
        }
        problems.extend(layers.missing_user_dir(&self.home.root));
        if let Some(location) = &layers.db {
            let db_root = roots.len();
            let path = location.sqlite_path().map_or_else(|| PathBuf::from(location.short_name()), Path::to_path_buf);
            roots.push(Root { path, label: "db".into(), source: Some(Source::Db) });
            if let Some(p) = &db.problem {
                problems.push(format!("database skills unavailable: {p}"));
            }
            let mut first_by_name: HashMap<String, usize> =
                skills.iter().enumerate().filter(|(_, s)| s.status.listed).map(|(i, s)| (s.name.clone(), i)).collect();
            for row in &db.skills {
                let i = skills.len();
                let mut s = self.db_catalog_skill(row, db_root);
                match first_by_name.get(&row.name) {
                    Some(&first) => {
                        s.status.shadowed_by = Some(first);
                        s.status.listed = false;
                    }
                    None => {
                        first_by_name.insert(row.name.clone(), i);
                    }
                }
                skills.push(s);
            }
        }
        crate::catalog::link_shadows(&mut skills);
        let commands = shared.commands.into_iter().map(|(key, i)| (key, remap(i))).collect();
        Catalog { roots, skills, bundles: shared.bundles, commands, problems, unreadable, lean: false, overlay: None }
    }

    pub(crate) fn db_catalog_skill(&self, row: &DbSkill, root: usize) -> CatalogSkill {
        let (fm, body) = frontmatter::parse(&row.content);
        let body_line = crate::source::line_at(&row.content, row.content.len() - body.len());
        let status = SkillStatus {
            listed: true,
            platform_ok: gates::frontmatter_platform_matches(&fm.fields, &self.env),
            environment_ok: gates::environment_matches(&fm.fields, &self.home, &self.env),
            ..SkillStatus::default()
        };
        CatalogSkill {
            root,
            categories: row.category.iter().cloned().collect(),
            skill_md: PathBuf::from(format!("db:{TABLE}/{}", row.id)),
            skill_dir: PathBuf::new(),
            name: row.name.clone(),
            description: row.description.clone(),
            tags: skill::tag_list(&fm.fields, "tags"),
            readiness: readiness::evaluate(&fm.fields, &self.home, &self.env, self.options.backend.name()).boxed(),
            name_field: NameField::of(&fm.fields, &row.name),
            frontmatter: fm.fields,
            frontmatter_kind: fm.kind,
            body_line,
            read_error: None,
            status,
            listing_kept: false,
            command_candidate: None,
            db_row: Some(Box::new(row.clone())),
        }
    }
}

fn with_source(mut answer: Json, source: Source) -> Json {
    if answer.get("success").and_then(Json::as_bool) == Some(true) {
        answer["source"] = json!(source.name());
    }
    answer
}
