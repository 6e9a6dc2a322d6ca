//! Multi-user skill layers, for deployments that serve many users from one
//! home (not part of Hermes Agent 0.19.0 itself):
//!
//! 1. per-user file skills, `HERMES_HOME/users/<id>/skills/` (source `user`);
//! 2. shared file skills, the home's skill dirs (source `shared`);
//! 3. database skills, table `hermes_skills` filtered by user (source `db`).
//!
//! Viewing a name tries the layers in that order; listing concatenates them,
//! a name taken by an earlier layer hiding later ones.

use super::catalog::{Catalog, CatalogSkill, Root, SkillStatus};
use super::diagnostics::{self, Finding};
use super::frontmatter;
use super::gates;
use super::list::{sort_listing, ListedSkill, LIST_HINT};
use super::readiness;
use super::skill;
use super::value::Value;
use super::Engine;
use rusqlite::{types::ValueRef, Connection, OpenFlags, OptionalExtension};
use serde_json::{json, Map as JsonMap, Value as Json};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The organisation that owns (and alone may write) shared skills.
pub const OWNER_ORG: &str = "0";
pub const TABLE: &str = "hermes_skills";
/// A name deployments get wrong; pointed out when found instead of [`TABLE`].
pub const WRONG_TABLE: &str = "harnessed_skills";
const COLUMNS: [&str; 10] =
    ["id", "user_id", "name", "description", "content", "category", "version", "is_active", "created_at", "updated_at"];

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

/// The layer settings of a session.
#[derive(Debug, Clone, PartialEq)]
pub struct Layers {
    pub user: String,
    pub db: Option<PathBuf>,
    pub org_id: Option<String>,
}

/// A user id becomes a folder name: it must be one plain path component.
pub fn valid_user_id(id: &str) -> Result<(), String> {
    let ok = !id.is_empty() && id != "." && id != ".." && !id.contains(['/', '\\', '\0']);
    if ok {
        Ok(())
    } else {
        Err(format!("invalid user id {id:?}: use a single folder name"))
    }
}

/// One active row of `hermes_skills`.
#[derive(Debug, Clone, PartialEq)]
pub struct DbSkill {
    pub id: String,
    pub user_id: String,
    pub name: String,
    pub description: String,
    pub content: String,
    pub category: Option<String>,
    pub version: Option<String>,
    /// As stored, compared before any write-back.
    pub updated_at: String,
}

/// The rows of one user, or why the database could not be read.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DbRead {
    pub skills: Vec<DbSkill>,
    pub problem: Option<String>,
}

fn text_of(v: ValueRef<'_>, column: &str) -> Result<String, String> {
    match v {
        ValueRef::Null => Ok(String::new()),
        ValueRef::Integer(i) => Ok(i.to_string()),
        ValueRef::Real(f) => Ok(f.to_string()),
        ValueRef::Text(t) => String::from_utf8(t.to_vec()).map_err(|_| format!("column {column} is not UTF-8 text")),
        ValueRef::Blob(_) => Err(format!("column {column} holds a blob, not text")),
    }
}

fn truthy(v: ValueRef<'_>) -> bool {
    match v {
        ValueRef::Null => false,
        ValueRef::Integer(i) => i != 0,
        ValueRef::Real(f) => f != 0.0,
        ValueRef::Text(t) => matches!(t.to_ascii_lowercase().as_slice(), b"1" | b"true" | b"t" | b"yes"),
        ValueRef::Blob(_) => false,
    }
}

fn open(path: &Path, flags: OpenFlags) -> Result<Connection, String> {
    if !path.is_file() {
        return Err(format!("{}: no such database file", path.display()));
    }
    let conn = Connection::open_with_flags(path, flags).map_err(|e| format!("{}: {e}", path.display()))?;
    conn.busy_timeout(Duration::from_millis(500)).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(conn)
}

/// Checks the table and its columns; the message names what is wrong.
fn check_schema(conn: &Connection, path: &Path) -> Result<(), String> {
    let has = |t: &str| -> Result<bool, String> {
        conn.query_row("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1", [t], |_| Ok(()))
            .optional()
            .map(|r| r.is_some())
            .map_err(|e| format!("{}: {e}", path.display()))
    };
    if !has(TABLE)? {
        let hint = if has(WRONG_TABLE)? {
            format!(" (it has `{WRONG_TABLE}`: the table is named `{TABLE}`)")
        } else {
            String::new()
        };
        return Err(format!("{}: no table `{TABLE}`{hint}", path.display()));
    }
    let mut stmt =
        conn.prepare(&format!("PRAGMA table_info({TABLE})")).map_err(|e| format!("{}: {e}", path.display()))?;
    let cols: Vec<String> = stmt
        .query_map([], |r| r.get::<_, String>(1))
        .and_then(|rows| rows.collect())
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let missing: Vec<&str> = COLUMNS.iter().copied().filter(|c| !cols.iter().any(|x| x == c)).collect();
    if !missing.is_empty() {
        return Err(format!("{}: table `{TABLE}` lacks column(s) {}", path.display(), missing.join(", ")));
    }
    Ok(())
}

/// Reads the active skills of `user` (read only).
pub fn read_db(path: &Path, user: &str) -> DbRead {
    match read_rows(path, user) {
        Ok(skills) => DbRead { skills, problem: None },
        Err(problem) => DbRead { skills: Vec::new(), problem: Some(problem) },
    }
}

fn read_rows(path: &Path, user: &str) -> Result<Vec<DbSkill>, String> {
    let conn = open(path, OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX)?;
    check_schema(&conn, path)?;
    let sql = format!("SELECT {} FROM {TABLE} WHERE CAST(user_id AS TEXT) = ?1 ORDER BY name, id", COLUMNS.join(", "));
    let mut stmt = conn.prepare(&sql).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut rows = stmt.query([user]).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = Vec::new();
    while let Some(row) = rows.next().map_err(|e| format!("{}: {e}", path.display()))? {
        let get = |i: usize| row.get_ref(i).map_err(|e| e.to_string());
        if !truthy(get(7)?) {
            continue;
        }
        let text = |i: usize| -> Result<String, String> {
            text_of(get(i)?, COLUMNS[i]).map_err(|e| format!("{}: {e}", path.display()))
        };
        let opt = |i: usize| -> Result<Option<String>, String> { text(i).map(|s| (!s.is_empty()).then_some(s)) };
        out.push(DbSkill {
            id: text(0)?,
            user_id: text(1)?,
            name: text(2)?,
            description: text(3)?,
            content: text(4)?,
            category: opt(5)?,
            version: opt(6)?,
            updated_at: text(9)?,
        });
    }
    Ok(out)
}

/// Who may edit a skill of a source.
pub fn can_edit(source: Source, org_id: Option<&str>) -> Result<(), String> {
    match source {
        Source::Shared if org_id != Some(OWNER_ORG) => Err(format!(
            "shared skills are written only by the owner organisation, org_id {OWNER_ORG} ({})",
            org_id.map_or("this session has no --org-id".to_owned(), |o| format!("this session is org_id {o}"))
        )),
        _ => Ok(()),
    }
}

/// What happened to an edited database skill.
#[derive(Debug, Clone, PartialEq)]
pub enum WriteBack {
    Unchanged,
    Saved {
        updated_at: String,
    },
    /// The row changed meanwhile: nothing was written; the edit is kept here.
    Conflict {
        kept: PathBuf,
    },
}

/// Writes an edited database skill back: `content`, the frontmatter's
/// `description` and `version`, and a new `updated_at`, in one transaction
/// and only if `updated_at` is still what was read.
pub fn write_back(path: &Path, skill: &DbSkill, edited: &str, now: &str) -> Result<WriteBack, String> {
    if edited == skill.content {
        return Ok(WriteBack::Unchanged);
    }
    let mut conn = open(path, OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX)?;
    check_schema(&conn, path)?;
    let fm = frontmatter::parse(edited).0.fields;
    let field = |k: &str, old: &str| fm.get(k).filter(|v| v.truthy()).map_or_else(|| old.to_owned(), Value::py_str);
    let description = field("description", &skill.description);
    let version = field("version", skill.version.as_deref().unwrap_or(""));
    let tx = conn.transaction().map_err(|e| format!("{}: {e}", path.display()))?;
    let changed = tx
        .execute(
            &format!(
                "UPDATE {TABLE} SET content = ?1, description = ?2, version = ?3, updated_at = ?4 \
                 WHERE CAST(id AS TEXT) = ?5 AND CAST(user_id AS TEXT) = ?6 AND COALESCE(CAST(updated_at AS TEXT), '') = ?7"
            ),
            rusqlite::params![edited, description, version, now, skill.id, skill.user_id, skill.updated_at],
        )
        .map_err(|e| format!("{}: {e}", path.display()))?;
    if changed != 1 {
        drop(tx);
        return keep_edit(skill, edited).map(|kept| WriteBack::Conflict { kept });
    }
    tx.commit().map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(WriteBack::Saved { updated_at: now.to_owned() })
}

/// Saves an edit that could not be written back, in a file of its own.
fn keep_edit(skill: &DbSkill, edited: &str) -> Result<PathBuf, String> {
    let prefix = format!("skillscope-{}-", skill.name.replace(|c: char| !c.is_ascii_alphanumeric() && c != '-', "_"));
    let file = tempfile::Builder::new().prefix(&prefix).suffix(".md").tempfile().map_err(|e| e.to_string())?;
    std::fs::write(file.path(), edited).map_err(|e| format!("{}: {e}", file.path().display()))?;
    let (_, path) = file.keep().map_err(|e| e.to_string())?;
    Ok(path)
}

/// The current time as SQLite's `CURRENT_TIMESTAMP` writes it (UTC).
pub fn timestamp() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let days = secs / 86_400;
    let (h, m, s) = ((secs % 86_400) / 3600, (secs % 3600) / 60, secs % 60);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let mth = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(mth <= 2);
    format!("{y:04}-{mth:02}-{d:02} {h:02}:{m:02}:{s:02}")
}

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
            sort_listing(&mut skills);
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
                description: Value::Str(r.description.clone()),
                category: r.category.clone(),
                skill_md: PathBuf::from(format!("db:{TABLE}/{}", r.id)),
            })
            .collect();
        sort_listing(&mut db_skills);
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
            let index = engine.lookup_index();
            let plain = !name.contains(':') && super::view::lookup_path_error(name).is_none();
            if plain && engine.lookup_candidates_in(&index, name, None).is_empty() {
                continue;
            }
            let answer = engine.skill_view_with(Some(&index), name, file_path, task_id, true);
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
        let cfg = super::preprocess::PreprocessConfig::from_skills(self.home.merged_skills());
        let content = super::preprocess::preprocess(&row.content, Default::default(), task_id, &cfg, false).text;
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
        let mut user = self.user_engine(&layers.user).catalog();
        let mut shared = self.catalog();
        let mut roots: Vec<Root> = Vec::new();
        let user_root = self.home.root.join("users").join(&layers.user).join("skills");
        // The user's root is shown even when the folder does not exist yet.
        roots.push(Root { path: user_root, label: format!("user {}", layers.user), source: Some(Source::User) });
        for s in &mut user.skills {
            s.root = 0;
        }
        let offset = roots.len();
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
        // Both catalogs read the same config and bundles: report each once.
        let mut problems = shared.problems;
        for p in user.problems {
            if !problems.contains(&p) {
                problems.push(p);
            }
        }
        if let Some(path) = &layers.db {
            let db_root = roots.len();
            roots.push(Root { path: path.clone(), label: "db".into(), source: Some(Source::Db) });
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
        super::catalog::link_shadows(&mut skills);
        Catalog { roots, skills, bundles: shared.bundles, commands: shared.commands, problems }
    }

    /// Findings for the user's folder (paths under `users/<id>/skills/`) and
    /// for the database rows; the shared home's come from `check_home`.
    pub fn layer_findings(&self, layers: &Layers, db: &DbRead) -> (Vec<Finding>, Vec<Finding>) {
        let user = self.user_engine(&layers.user);
        let mut user_findings = user.check_skills(&user.catalog());
        for f in &mut user_findings {
            f.skill = None;
            f.rel_path = format!("users/{}/skills/{}", layers.user, f.rel_path);
        }
        let mut db_findings = Vec::new();
        for row in &db.skills {
            diagnostics::check_text_skill(&row.name, &row.content, &format!("db:{TABLE}/{}", row.id), &mut db_findings);
        }
        // Which layer hides which: only the layered catalog knows.
        let catalog = self.layered_catalog(layers, db);
        let source = |s: &CatalogSkill| catalog.roots.get(s.root).and_then(|r| r.source);
        let user_root = &catalog.roots[0].path;
        let shown = |s: &CatalogSkill| match (&s.db_row, source(s)) {
            (Some(r), _) => format!("db:{TABLE}/{}", r.id),
            (None, Some(Source::User)) => {
                format!(
                    "users/{}/skills/{}",
                    layers.user,
                    diagnostics::relative(&s.skill_md, std::slice::from_ref(user_root))
                )
            }
            (None, _) => s.skill_md.display().to_string(),
        };
        for hidden in &catalog.skills {
            let Some(first) = hidden.status.shadowed_by.map(|i| &catalog.skills[i]) else { continue };
            let (rule, on, message) = match (source(first), source(hidden)) {
                (Some(Source::User), Some(Source::Shared)) => (
                    "layer-shadows-shared",
                    first,
                    format!("`{}` hides the shared skill {}", first.name, hidden.skill_md.display()),
                ),
                (_, Some(Source::Db)) => (
                    "layer-row-unused",
                    hidden,
                    format!(
                        "row `{}` is never used: {} ({}) has its name",
                        hidden.name,
                        shown(first),
                        source(first).map_or("", Source::name)
                    ),
                ),
                _ => continue,
            };
            let info = diagnostics::rule(rule);
            let rel_path = shown(on);
            let out = if on.db_row.is_some() { &mut db_findings } else { &mut user_findings };
            out.push(Finding {
                rule: rule.to_owned(),
                severity: info.map_or(diagnostics::Severity::Warning, |r| r.severity),
                skill: None,
                skill_name: Some(on.name.clone()),
                skill_md: Some(on.skill_md.clone()),
                path: on.skill_md.clone(),
                rel_path,
                line: None,
                message,
                hint: info.map_or("", |r| r.hint).to_owned(),
            });
        }
        for f in &mut db_findings {
            f.skill_md.get_or_insert_with(|| f.path.clone());
        }
        (user_findings, db_findings)
    }

    fn db_catalog_skill(&self, row: &DbSkill, root: usize) -> CatalogSkill {
        let (fm, body) = frontmatter::parse(&row.content);
        let body_line = row.content[..row.content.len() - body.len()].matches('\n').count() + 1;
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
            readiness: readiness::evaluate(&fm.fields, &self.home, &self.env, self.options.backend.name()),
            frontmatter: fm.fields,
            frontmatter_kind: fm.kind,
            body_line,
            read_error: None,
            status,
            db_row: Some(row.clone()),
        }
    }
}

fn with_source(mut answer: Json, source: Source) -> Json {
    if answer.get("success").and_then(Json::as_bool) == Some(true) {
        answer["source"] = json!(source.name());
    }
    answer
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_ids_are_folder_names() {
        assert!(valid_user_id("42").is_ok());
        assert!(valid_user_id("alice").is_ok());
        assert!(valid_user_id("../bob").is_err());
        assert!(valid_user_id("").is_err());
    }

    #[test]
    fn edit_permissions() {
        assert!(can_edit(Source::Shared, Some("0")).is_ok());
        assert!(can_edit(Source::Shared, Some("7")).unwrap_err().contains("org_id 0"));
        assert!(can_edit(Source::Shared, None).is_err());
        assert!(can_edit(Source::User, Some("7")).is_ok());
        assert!(can_edit(Source::Db, None).is_ok());
    }

    #[test]
    fn timestamps_look_like_sqlite() {
        let t = timestamp();
        assert_eq!(t.len(), 19);
        assert_eq!(&t[4..5], "-");
        assert_eq!(&t[10..11], " ");
    }
}
