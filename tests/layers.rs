//! Multi-user layers: per-user folders, shared skills, database rows. The
//! database suite runs on SQLite, MariaDB and PostgreSQL (`on_*` modules),
//! the servers started by `common::servers`.

mod common;

use common::servers::{self, Kind, Server};
use common::{RefConf, Scenario};
use rusqlite::Connection;
use serde_json::Value as Json;
use skillscope::engine::check::{Policy, Progress};
use skillscope::engine::diagnostics::Finding;
use skillscope::engine::layers::{
    can_edit, read_db, write_back, DbError, DbLocation, DbRead, LayerError, Layers, Source, WriteBack,
};
use skillscope::engine::Engine;
use std::path::{Path, PathBuf};
use std::process::Command;

const SCHEMA: &str = "CREATE TABLE hermes_skills (
    id INTEGER PRIMARY KEY, user_id TEXT NOT NULL, name TEXT NOT NULL, description TEXT,
    content TEXT, category TEXT, version TEXT, is_active INTEGER DEFAULT 1,
    created_at TEXT DEFAULT CURRENT_TIMESTAMP, updated_at TEXT DEFAULT CURRENT_TIMESTAMP)";

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

fn skill_md(name: &str, description: &str) -> String {
    format!("---\nname: {name}\ndescription: {description}\nversion: 1.0.0\n---\n\n# {name}\n\nBody of {name}.\n")
}

/// Where a test's `hermes_skills` table lives: the same suite runs on each.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Backend {
    Sqlite,
    Mariadb,
    Postgres,
}

/// A database of one test's own, on one backend.
enum Store {
    Sqlite { _dir: tempfile::TempDir, path: PathBuf },
    Server { server: &'static Server, database: String },
}

/// An SQL string literal (standard quoting; MariaDB's sessions here treat
/// backslashes as plain characters).
fn lit(s: &str) -> String {
    format!("'{}'", s.replace('\'', "''"))
}

impl Store {
    /// An empty database, or `None` (the test then says it was skipped).
    fn new(backend: Backend) -> Option<Store> {
        let kind = match backend {
            Backend::Sqlite => {
                let dir = tempfile::tempdir().expect("tempdir");
                let path = dir.path().join("skills.db");
                Connection::open(&path).expect("db");
                return Some(Store::Sqlite { _dir: dir, path });
            }
            Backend::Mariadb => Kind::Mariadb,
            Backend::Postgres => Kind::Postgres,
        };
        match servers::shared_database(kind) {
            Ok((server, database)) => Some(Store::Server { server, database }),
            Err(why) => {
                servers::skip(&why);
                None
            }
        }
    }

    fn backend(&self) -> Backend {
        match self {
            Store::Sqlite { .. } => Backend::Sqlite,
            Store::Server { server, .. } if server.kind == Kind::Mariadb => Backend::Mariadb,
            Store::Server { .. } => Backend::Postgres,
        }
    }

    /// The `--db` value, its password left to `SKILLSCOPE_DB_PASSWORD`.
    fn url(&self) -> String {
        match self {
            Store::Sqlite { path, .. } => path.display().to_string(),
            Store::Server { server, database } => {
                server.url(database, "").replace(&format!(":{}@", servers::PASSWORD), "@")
            }
        }
    }

    /// The location, password included.
    fn location(&self) -> DbLocation {
        match self {
            Store::Sqlite { path, .. } => DbLocation::Sqlite(path.clone()),
            Store::Server { server, database } => DbLocation::parse(&server.url(database, "")).expect("url"),
        }
    }

    fn exec(&self, sql: &str) -> String {
        match self {
            Store::Sqlite { path, .. } => {
                Connection::open(path).expect("db").execute_batch(sql).expect("sql");
                String::new()
            }
            Store::Server { server, database } => server.admin(sql, Some(database)).expect("sql"),
        }
    }

    /// `CREATE TABLE` in this backend's types, for `table`, with `content`
    /// of type `content` (`None`: text).
    fn create_table(&self, table: &str, content: Option<&str>) {
        let sql = match self.backend() {
            Backend::Sqlite => SCHEMA
                .replace("hermes_skills", table)
                .replace("content TEXT", &format!("content {}", content.unwrap_or("TEXT"))),
            Backend::Mariadb => format!(
                "CREATE TABLE {table} (id INT AUTO_INCREMENT PRIMARY KEY, user_id VARCHAR(64) NOT NULL, \
                 name VARCHAR(255) NOT NULL, description TEXT, content {}, category VARCHAR(255), \
                 version VARCHAR(64), is_active TINYINT(1) DEFAULT 1, created_at DATETIME DEFAULT CURRENT_TIMESTAMP, \
                 updated_at DATETIME DEFAULT CURRENT_TIMESTAMP) DEFAULT CHARSET=utf8mb4",
                content.unwrap_or("MEDIUMTEXT")
            ),
            Backend::Postgres => format!(
                "CREATE TABLE {table} (id SERIAL PRIMARY KEY, user_id TEXT NOT NULL, name TEXT NOT NULL, \
                 description TEXT, content {}, category TEXT, version TEXT, is_active BOOLEAN DEFAULT TRUE, \
                 created_at TIMESTAMP DEFAULT now(), updated_at TIMESTAMP DEFAULT now())",
                content.unwrap_or("TEXT")
            ),
        };
        self.exec(&sql);
    }

    fn insert(&self, user: &str, name: &str, description: &str, content: &str, category: &str, active: bool) {
        self.exec(&format!(
            "INSERT INTO hermes_skills (user_id, name, description, content, category, version, is_active, updated_at) \
             VALUES ({}, {}, {}, {}, {}, '1', {}, '2026-01-01 00:00:00')",
            lit(user),
            lit(name),
            lit(description),
            lit(content),
            lit(category),
            if active { "TRUE" } else { "FALSE" }
        ));
    }

    /// content, description, version, updated_at of the row named `name`,
    /// read by the backend's own client.
    fn row_of(&self, name: &str) -> (String, String, String, String) {
        let hex = |s: &str| -> String {
            let bytes: Vec<u8> =
                (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex")).collect();
            String::from_utf8(bytes).expect("utf8")
        };
        let sql = match self.backend() {
            Backend::Sqlite => {
                let Store::Sqlite { path, .. } = self else { unreachable!() };
                let conn = Connection::open(path).expect("db");
                return conn
                    .query_row(
                        "SELECT content, description, version, updated_at FROM hermes_skills WHERE name = ?1",
                        [name],
                        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
                    )
                    .expect("row");
            }
            Backend::Mariadb => format!(
                "SELECT HEX(content), HEX(description), HEX(version), COALESCE(CAST(updated_at AS CHAR), '') \
                 FROM hermes_skills WHERE name = {}",
                lit(name)
            ),
            Backend::Postgres => format!(
                "SELECT encode(convert_to(content, 'UTF8'), 'hex'), encode(convert_to(description, 'UTF8'), 'hex'), \
                 encode(convert_to(version, 'UTF8'), 'hex'), COALESCE(updated_at::text, '') FROM hermes_skills WHERE name = {}",
                lit(name)
            ),
        };
        let out = self.exec(&sql);
        let fields: Vec<&str> = out.trim_end_matches('\n').split('\t').collect();
        assert_eq!(fields.len(), 4, "one row for {name}: {out:?}");
        (hex(fields[0]), hex(fields[1]), hex(fields[2]), fields[3].to_owned())
    }
}

/// A home with shared skills, folders for alice and bob, and a database.
struct LayeredHome {
    _dir: tempfile::TempDir,
    scenario: Scenario,
    store: Store,
}

impl LayeredHome {
    fn new(backend: Backend) -> Option<LayeredHome> {
        let store = Store::new(backend)?;
        let dir = tempfile::tempdir().expect("tempdir");
        let home = dir.path().join("home");
        let skills = home.join("skills");
        write(&skills.join("devops/deploy/SKILL.md"), &skill_md("deploy", "Shared deploy"));
        write(&skills.join("devops/rollback/SKILL.md"), &skill_md("rollback", "Shared rollback"));
        write(&skills.join("notes/journal/SKILL.md"), &skill_md("journal", "Shared journal"));
        let users = home.join("users");
        write(&users.join("alice/skills/devops/deploy/SKILL.md"), &skill_md("deploy", "Alice's deploy"));
        write(&users.join("alice/skills/mine/alice-only/SKILL.md"), &skill_md("alice-only", "Alice only"));
        write(&users.join("bob/skills/bob-only/SKILL.md"), &skill_md("bob-only", "Bob only"));
        std::fs::create_dir_all(dir.path().join("fakehome")).expect("fake home");
        store.create_table("hermes_skills", None);
        let rows = [
            ("alice", "db-recipe", "Alice's recipe", "cooking", true),
            ("alice", "journal", "Alice's journal row", "notes", true),
            ("alice", "retired", "An inactive row", "old", false),
            ("bob", "bob-row", "Bob's row", "misc", true),
        ];
        for (user, name, desc, cat, active) in rows {
            store.insert(user, name, desc, &skill_md(name, desc), cat, active);
        }
        let scenario = Scenario::new(home, None, RefConf::default());
        Some(LayeredHome { _dir: dir, scenario, store })
    }

    fn engine(&self) -> Engine {
        self.scenario.engine()
    }

    fn db(&self) -> DbLocation {
        self.store.location()
    }

    fn sqlite_path(&self) -> PathBuf {
        match &self.store {
            Store::Sqlite { path, .. } => path.clone(),
            Store::Server { .. } => panic!("an SQLite test"),
        }
    }

    fn layers(&self, user: &str) -> (Layers, DbRead) {
        let layers = Layers { user: user.into(), db: Some(self.db()), org_id: None };
        let db = read_db(&self.db(), user);
        assert_eq!(db.problem, None);
        (layers, db)
    }

    fn cli(&self, args: &[&str]) -> std::process::Output {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_skillscope"));
        cmd.env_clear()
            .env("HOME", &self.scenario.fake_home)
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("SKILLSCOPE_DB_PASSWORD", servers::PASSWORD)
            .arg("--home")
            .arg(&self.scenario.home)
            .args(args);
        cmd.output().expect("runs")
    }
}

/// Each test of the suite, once per backend: `on_sqlite::NAME`,
/// `on_mariadb::NAME`, `on_postgres::NAME`.
macro_rules! on_every_backend {
    ($($test:ident),* $(,)?) => {
        mod on_sqlite { $( #[test] fn $test() { super::$test(super::Backend::Sqlite) } )* }
        mod on_mariadb { $( #[test] fn $test() { super::$test(super::Backend::Mariadb) } )* }
        mod on_postgres { $( #[test] fn $test() { super::$test(super::Backend::Postgres) } )* }
    };
}

on_every_backend!(
    listing_puts_user_then_shared_then_db_and_skips_taken_names,
    viewing_tries_the_user_folder_then_shared_then_db,
    users_never_see_each_other,
    the_catalog_marks_shadowed_skills_and_keeps_them,
    write_back_saves_content_description_and_version,
    a_concurrent_change_is_never_overwritten,
    bad_tables_give_one_clear_message,
    a_bad_database_leaves_the_file_layers_working,
    cli_adds_source_only_with_layers,
    editing_a_database_skill_goes_through_a_temporary_file,
    a_row_without_updated_at_can_be_saved,
    layer_rules_name_what_hides_what,
    every_backend_reads_the_same_rows_in_the_same_order,
);

fn listed(list: &Json) -> Vec<(String, String, String)> {
    list["skills"]
        .as_array()
        .expect("skills")
        .iter()
        .map(|s| {
            let field = |k: &str| s[k].as_str().unwrap_or_default().to_owned();
            (field("source"), field("name"), field("description"))
        })
        .collect()
}

fn listing_puts_user_then_shared_then_db_and_skips_taken_names(backend: Backend) {
    let Some(h) = LayeredHome::new(backend) else { return };
    let (layers, db) = h.layers("alice");
    let list = h.engine().layered_list(&layers, &db, None);
    let got = listed(&list);
    let expect = [
        ("user", "deploy", "Alice's deploy"),
        ("user", "alice-only", "Alice only"),
        ("shared", "rollback", "Shared rollback"),
        ("shared", "journal", "Shared journal"),
        ("db", "db-recipe", "Alice's recipe"),
    ];
    let expect: Vec<(String, String, String)> =
        expect.iter().map(|(a, b, c)| ((*a).into(), (*b).into(), (*c).into())).collect();
    assert_eq!(got, expect);
    assert_eq!(list["count"], 5);
    assert_eq!(list["categories"], serde_json::json!(["cooking", "devops", "mine", "notes"]));
}

fn viewing_tries_the_user_folder_then_shared_then_db(backend: Backend) {
    let Some(h) = LayeredHome::new(backend) else { return };
    let (layers, db) = h.layers("alice");
    let engine = h.engine();
    let view = |name: &str, only: Option<Source>| engine.layered_view(&layers, &db, only, name, None, None);
    let deploy = view("deploy", None);
    assert_eq!(deploy["source"], "user");
    assert_eq!(deploy["description"], "Alice's deploy");
    assert_eq!(view("rollback", None)["source"], "shared");
    let recipe = view("db-recipe", None);
    assert_eq!(recipe["source"], "db");
    assert!(recipe["content"].as_str().unwrap_or_default().contains("Body of db-recipe"));
    // The shadowed shared skill stays reachable by naming its layer.
    let shadowed = view("deploy", Some(Source::Shared));
    assert_eq!(shadowed["description"], "Shared deploy");
    assert_eq!(shadowed["source"], "shared");
    let journal_row = view("journal", Some(Source::Db));
    assert_eq!(journal_row["description"], "Alice's journal row");
    assert_eq!(view("retired", None)["success"], false, "inactive rows are not skills");
    let missing = view("nope", None);
    assert_eq!(missing["error"], "Skill 'nope' not found.");
    let file = engine.layered_view(&layers, &db, None, "db-recipe", Some("references/x.md"), None);
    assert_eq!(file["success"], false);
}

fn users_never_see_each_other(backend: Backend) {
    let Some(h) = LayeredHome::new(backend) else { return };
    let engine = h.engine();
    let names = |user: &str| -> Vec<String> {
        let (layers, db) = h.layers(user);
        listed(&engine.layered_list(&layers, &db, None)).into_iter().map(|(_, n, _)| n).collect()
    };
    let alice = names("alice");
    let bob = names("bob");
    assert!(alice.contains(&"alice-only".into()) && alice.contains(&"db-recipe".into()));
    assert!(!alice.iter().any(|n| n.starts_with("bob")), "{alice:?}");
    assert!(bob.contains(&"bob-only".into()) && bob.contains(&"bob-row".into()));
    assert!(!bob.iter().any(|n| n.starts_with("alice") || n == "db-recipe"), "{bob:?}");
    let (layers, db) = h.layers("bob");
    assert_eq!(engine.layered_view(&layers, &db, None, "alice-only", None, None)["success"], false);
    assert_eq!(engine.layered_view(&layers, &db, None, "db-recipe", None, None)["success"], false);
    // bob sees the shared deploy, not alice's.
    assert_eq!(engine.layered_view(&layers, &db, None, "deploy", None, None)["description"], "Shared deploy");
    // A user without a folder or rows gets the shared layer.
    let carol = names("carol");
    assert_eq!(carol, ["deploy", "rollback", "journal"]);
}

fn the_catalog_marks_shadowed_skills_and_keeps_them(backend: Backend) {
    let Some(h) = LayeredHome::new(backend) else { return };
    let (layers, db) = h.layers("alice");
    let catalog = h.engine().layered_catalog(&layers, &db);
    let sources: Vec<Option<Source>> = catalog.roots.iter().map(|r| r.source).collect();
    assert_eq!(sources, [Some(Source::User), Some(Source::Shared), Some(Source::Db)]);
    let find = |name: &str, source: Source| {
        catalog
            .skills
            .iter()
            .position(|s| s.name == name && catalog.roots[s.root].source == Some(source))
            .unwrap_or_else(|| panic!("{name} in {source:?}"))
    };
    let user_deploy = find("deploy", Source::User);
    let shared_deploy = find("deploy", Source::Shared);
    assert!(catalog.skills[user_deploy].status.listed);
    assert!(!catalog.skills[shared_deploy].status.listed);
    assert_eq!(catalog.skills[shared_deploy].status.shadowed_by, Some(user_deploy));
    assert_eq!(catalog.skills[user_deploy].status.shadows, [shared_deploy], "the shadowing skill is marked too");
    let row = find("journal", Source::Db);
    assert_eq!(catalog.skills[row].status.shadowed_by, Some(find("journal", Source::Shared)));
    let recipe = &catalog.skills[find("db-recipe", Source::Db)];
    assert!(recipe.status.listed);
    assert_eq!(recipe.categories, ["cooking"]);
    assert!(recipe.db_row.as_ref().is_some_and(|r| r.content.contains("Body of db-recipe")));
    let listed: Vec<&str> = catalog.skills.iter().filter(|s| s.status.listed).map(|s| s.name.as_str()).collect();
    assert_eq!(listed.len(), 5, "{listed:?}");
}

#[test]
fn who_may_edit_what() {
    // (source, org) -> allowed
    let matrix = [
        (Source::Shared, None, false),
        (Source::Shared, Some("7"), false),
        (Source::Shared, Some("0"), true),
        (Source::User, None, true),
        (Source::User, Some("7"), true),
        (Source::User, Some("0"), true),
        (Source::Db, None, true),
        (Source::Db, Some("7"), true),
        (Source::Db, Some("0"), true),
    ];
    for (source, org, allowed) in matrix {
        let answer = can_edit(source, org);
        assert_eq!(answer.is_ok(), allowed, "{source:?} by {org:?}");
        if let Err(e) = answer {
            assert_eq!(e, LayerError::SharedNotOwner { org_id: org.map(str::to_owned) });
            assert!(e.to_string().contains("org_id 0"), "the refusal says who may write: {e}");
        }
    }
}

fn write_back_saves_content_description_and_version(backend: Backend) {
    let Some(h) = LayeredHome::new(backend) else { return };
    let (_, db) = h.layers("alice");
    let row = db.skills.iter().find(|r| r.name == "db-recipe").expect("row").clone();
    assert_eq!(write_back(&h.db(), &row, &row.content, "2026-02-02 00:00:00"), Ok(WriteBack::Unchanged));
    let edited = "---\nname: db-recipe\ndescription: Better recipe\nversion: 2.0.0\n---\n\nNew body.\n";
    let saved = write_back(&h.db(), &row, edited, "2026-02-02 00:00:00").expect("writes");
    assert_eq!(saved, WriteBack::Saved { updated_at: "2026-02-02 00:00:00".into() });
    let (content, description, version, updated) = h.store.row_of("db-recipe");
    assert_eq!(content, edited);
    assert_eq!(
        (description.as_str(), version.as_str(), updated.as_str()),
        ("Better recipe", "2.0.0", "2026-02-02 00:00:00")
    );
    // Other rows are untouched.
    assert_eq!(h.store.row_of("bob-row").3, "2026-01-01 00:00:00");
}

fn a_concurrent_change_is_never_overwritten(backend: Backend) {
    let Some(h) = LayeredHome::new(backend) else { return };
    let (_, db) = h.layers("alice");
    let row = db.skills.iter().find(|r| r.name == "db-recipe").expect("row").clone();
    // Another client saves the row after we read it.
    let theirs = "---\nname: db-recipe\ndescription: Their edit\n---\nTheirs.\n";
    h.store.exec(&format!(
        "UPDATE hermes_skills SET content = {}, updated_at = '2026-01-05 10:00:00' WHERE name = 'db-recipe'",
        lit(theirs)
    ));
    let mine = "---\nname: db-recipe\ndescription: My edit\n---\nMine.\n";
    let answer = write_back(&h.db(), &row, mine, "2026-01-06 00:00:00").expect("no error");
    let WriteBack::Conflict { kept } = answer else { panic!("expected a conflict, got {answer:?}") };
    assert_eq!(std::fs::read_to_string(&kept).expect("kept"), mine, "the edit is kept");
    let _ = std::fs::remove_file(&kept);
    let (content, _, _, updated) = h.store.row_of("db-recipe");
    assert_eq!((content.as_str(), updated.as_str()), (theirs, "2026-01-05 10:00:00"), "their change stays");
}

fn every_backend_reads_the_same_rows_in_the_same_order(backend: Backend) {
    let Some(store) = Store::new(backend) else { return };
    store.create_table("hermes_skills", None);
    // Names a collation would sort otherwise, a user id differing in case
    // and trailing space, inactive rows, and text that needs quoting.
    let rows = [
        ("alice", "beta", true),
        ("alice", "Beta", true),
        ("alice", "alpha", true),
        ("alice", "zeta", false),
        ("Alice", "gamma", true),
        ("alice ", "delta", true),
        ("alice", "\u{e9}clair 'quoted' \\n", true),
    ];
    for (user, name, active) in rows {
        store.insert(user, name, &format!("about {name}"), &skill_md(name, "d"), "c", active);
    }
    let read = read_db(&store.location(), "alice");
    assert_eq!(read.problem, None);
    let names: Vec<&str> = read.skills.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, ["Beta", "alpha", "beta", "\u{e9}clair 'quoted' \\n"]);
    let first = &read.skills[0];
    assert_eq!((first.user_id.as_str(), first.description.as_str()), ("alice", "about Beta"));
    assert_eq!((first.category.as_deref(), first.version.as_deref()), (Some("c"), Some("1")));
    assert_eq!(first.updated_at, "2026-01-01 00:00:00");
}

fn db_with(sql: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("x.db");
    Connection::open(&path).expect("db").execute_batch(sql).expect("sql");
    (dir, path)
}

#[test]
fn bad_sqlite_files_give_one_clear_message() {
    let missing = read_db(&DbLocation::Sqlite("/nonexistent/skills.db".into()), "alice").problem.expect("problem");
    assert!(matches!(missing, DbError::NoFile(_)), "{missing:?}");
    assert_eq!(missing.to_string(), "/nonexistent/skills.db: no such database file");

    let dir = tempfile::tempdir().expect("tempdir");
    let text = dir.path().join("notes.db");
    std::fs::write(&text, "this is not a database, just text that is long enough to have a header....").expect("w");
    let not_sqlite = read_db(&DbLocation::Sqlite(text.clone()), "alice").problem.expect("problem");
    assert!(matches!(&not_sqlite, DbError::Driver { at, .. } if Path::new(at) == text), "{not_sqlite:?}");
    assert!(not_sqlite.to_string().contains("notes.db"), "{not_sqlite}");
}

/// A database of `backend` holding what `setup` makes of it, and the
/// problem reading it gives.
fn problem_with(backend: Backend, setup: impl FnOnce(&Store)) -> Option<(Store, DbError)> {
    let store = Store::new(backend)?;
    setup(&store);
    let problem = read_db(&store.location(), "alice").problem.expect("a problem");
    Some((store, problem))
}

fn bad_tables_give_one_clear_message(backend: Backend) {
    let Some((store, p)) = problem_with(backend, |s| {
        s.exec("CREATE TABLE other (x INT)");
    }) else {
        return;
    };
    assert!(matches!(p, DbError::NoTable { wrong_table_found: false, .. }), "{p:?}");
    assert_eq!(p.to_string(), format!("{}: no table `hermes_skills`", store.location()));

    let Some((_, p)) = problem_with(backend, |s| s.create_table("harnessed_skills", None)) else { return };
    assert!(matches!(p, DbError::NoTable { wrong_table_found: true, .. }), "{p:?}");
    assert!(p.to_string().contains("it has `harnessed_skills`"), "{p}");

    let Some((_, p)) = problem_with(backend, |s| {
        s.exec("CREATE TABLE hermes_skills (id INT, user_id TEXT, name TEXT, description TEXT, content TEXT)");
    }) else {
        return;
    };
    assert!(
        matches!(&p, DbError::MissingColumns { columns, .. }
            if columns == &["category", "version", "is_active", "created_at", "updated_at"]),
        "{p:?}"
    );
    assert!(p.to_string().contains("lacks column(s) category, version, is_active, created_at, updated_at"), "{p}");

    let (blob_type, blob) = match backend {
        Backend::Sqlite => ("BLOB", "x'00ff'"),
        Backend::Mariadb => ("MEDIUMBLOB", "X'00FF'"),
        Backend::Postgres => ("BYTEA", "'\\x00ff'::bytea"),
    };
    let Some((_, p)) = problem_with(backend, |s| {
        s.create_table("hermes_skills", Some(blob_type));
        s.exec(&format!(
            "INSERT INTO hermes_skills (user_id, name, description, content) VALUES ('alice', 'b', 'd', {blob})"
        ));
    }) else {
        return;
    };
    assert!(matches!(p, DbError::Column { column: "content", .. }), "{p:?}");
    assert!(p.to_string().contains("the row with id 1: column content holds a blob"), "{p}");
}

fn a_bad_database_leaves_the_file_layers_working(backend: Backend) {
    let Some(h) = LayeredHome::new(backend) else { return };
    let Some(no_table) = Store::new(backend) else { return };
    no_table.exec("CREATE TABLE other (x INT)");
    let layers = Layers { user: "alice".into(), db: Some(no_table.location()), org_id: None };
    let db = read_db(&no_table.location(), "alice");
    let got = listed(&h.engine().layered_list(&layers, &db, None));
    assert_eq!(got.len(), 4, "user and shared skills still listed: {got:?}");
    let catalog = h.engine().layered_catalog(&layers, &db);
    assert!(catalog.problems.iter().any(|p| p.contains("database skills unavailable")), "{:?}", catalog.problems);

    let out = h.cli(&["--user", "alice", "--db", &no_table.url(), "list", "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.matches("no table `hermes_skills`").count(), 1, "{stderr}");
}

fn cli_adds_source_only_with_layers(backend: Backend) {
    let Some(h) = LayeredHome::new(backend) else { return };
    let plain: Json = serde_json::from_slice(&h.cli(&["list", "--json"]).stdout).expect("json");
    assert!(plain["skills"].as_array().expect("skills").iter().all(|s| s.get("source").is_none()));
    assert_eq!(plain["count"], 3);

    let db = &h.store.url();
    let out = h.cli(&["--user", "alice", "--db", db, "list", "--json"]);
    let layered: Json = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(layered["count"], 5);
    assert_eq!(layered["skills"][0]["source"], "user");

    let out = h.cli(&["--user", "alice", "--db", db, "view", "deploy", "--source", "shared", "--json"]);
    let view: Json = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(view["description"], "Shared deploy");

    let out = h.cli(&["--user", "alice", "--db", db, "check", "--json"]);
    assert!(out.status.code().is_some_and(|c| c <= 1), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(!String::from_utf8_lossy(&out.stderr).contains("answers for the home's own"));

    // A command that does not take the layers says so rather than answer
    // as if it did.
    let out = h.cli(&["--user", "alice", "--db", db, "prompt"]);
    assert_eq!(out.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("`prompt` answers for the home's own skill dirs"), "{stderr}");

    for args in [&["--db", db, "list"][..], &["view", "deploy", "--source", "user"], &["--user", "../x", "list"]] {
        let out = h.cli(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!out.stderr.is_empty());
    }
}

#[test]
fn a_locked_database_is_reported_not_waited_on_forever() {
    let h = LayeredHome::new(Backend::Sqlite).expect("sqlite");
    let holder = Connection::open(h.sqlite_path()).expect("db");
    holder.execute_batch("PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE;").expect("lock");
    let started = std::time::Instant::now();
    let read = read_db(&h.db(), "alice");
    assert!(read.problem.as_ref().is_some_and(|p| p.to_string().contains("locked")), "{read:?}");
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
    drop(holder);
    assert!(read_db(&h.db(), "alice").problem.is_none());
}

fn editing_a_database_skill_goes_through_a_temporary_file(backend: Backend) {
    use skillscope::tui::editor::edit_db_skill;
    let Some(h) = LayeredHome::new(backend) else { return };
    let row = h.layers("alice").1.skills.into_iter().find(|r| r.name == "db-recipe").expect("row");

    // The editor fails: nothing is written.
    let notice = edit_db_skill(&row, &h.db(), |path| {
        std::fs::write(path, "half-edited").expect("write");
        Err("editor vi exited with exit status: 1")
    });
    assert!(notice.contains("left as it was"), "{notice}");
    assert_eq!(h.store.row_of("db-recipe").0, row.content);

    // The editor exits without changes.
    assert_eq!(edit_db_skill(&row, &h.db(), |_| Ok::<(), String>(())), "db-recipe: no changes");

    // The editor sees the content and saves a change.
    let notice = edit_db_skill(&row, &h.db(), |path| {
        let text = std::fs::read_to_string(path).expect("read");
        assert_eq!(text, row.content);
        std::fs::write(path, text.replace("Body of db-recipe.", "Edited body.")).expect("write");
        Ok::<(), String>(())
    });
    assert!(notice.starts_with("Saved db-recipe"), "{notice}");
    assert!(h.store.row_of("db-recipe").0.contains("Edited body."));

    // Editing the stale row again is a conflict: the saved text stays.
    let notice = edit_db_skill(&row, &h.db(), |path| std::fs::write(path, "stale edit").map_err(|e| e.to_string()));
    assert!(notice.contains("nothing overwritten"), "{notice}");
    assert!(h.store.row_of("db-recipe").0.contains("Edited body."));
    let kept = notice.rsplit("your edit is in ").next().expect("path");
    assert_eq!(std::fs::read_to_string(kept).expect("kept"), "stale edit");
    let _ = std::fs::remove_file(kept);
}

#[test]
fn a_failed_write_keeps_the_edit() {
    use skillscope::tui::editor::edit_db_skill;
    let h = LayeredHome::new(Backend::Sqlite).expect("sqlite");
    let row = h.layers("alice").1.skills.into_iter().find(|r| r.name == "db-recipe").expect("row");
    let gone = DbLocation::Sqlite(h.sqlite_path().with_file_name("moved.db"));
    let notice = edit_db_skill(&row, &gone, |path| std::fs::write(path, "my edit").map_err(|e| e.to_string()));
    assert!(notice.contains("not saved") && notice.contains("no such database file"), "{notice}");
    let kept = notice.rsplit("your edit is in ").next().expect("path");
    assert_eq!(std::fs::read_to_string(kept).expect("kept"), "my edit");
    let _ = std::fs::remove_file(kept);
}

fn a_row_without_updated_at_can_be_saved(backend: Backend) {
    let Some(h) = LayeredHome::new(backend) else { return };
    h.store.exec("UPDATE hermes_skills SET updated_at = NULL WHERE name = 'db-recipe'");
    let row = h.layers("alice").1.skills.into_iter().find(|r| r.name == "db-recipe").expect("row");
    assert_eq!(row.updated_at, "");
    let saved = write_back(&h.db(), &row, "---\nname: db-recipe\n---\nnew\n", "2026-03-03 00:00:00");
    assert_eq!(saved, Ok(WriteBack::Saved { updated_at: "2026-03-03 00:00:00".into() }));
}

#[test]
fn numeric_ids_in_an_untyped_table_work() {
    let (_d, path) = db_with(
        "CREATE TABLE hermes_skills (id, user_id, name, description, content, category, version, is_active, created_at, updated_at);
         INSERT INTO hermes_skills VALUES (7, 42, 'n', 'd', '---\nname: n\n---\nold\n', NULL, NULL, 'true', 1, 1);",
    );
    let path = DbLocation::Sqlite(path);
    let read = read_db(&path, "42");
    assert_eq!(read.problem, None);
    let row = read.skills.first().expect("row of user 42").clone();
    assert_eq!((row.id.as_str(), row.updated_at.as_str()), ("7", "1"));
    let saved = write_back(&path, &row, "---\nname: n\n---\nnew\n", "2026-03-03 00:00:00");
    assert!(matches!(saved, Ok(WriteBack::Saved { .. })), "{saved:?}");
}

/// The findings in the user's folder and in the database rows.
fn layer_findings(h: &LayeredHome, layers: &Layers, db: &DbRead) -> (Vec<Finding>, Vec<Finding>) {
    let (catalog, findings) = h.engine().check_layered(layers, db, &Progress::default(), &Policy::everything());
    for f in &findings {
        if let Some(i) = f.skill {
            assert_eq!(
                f.skill_md.as_deref(),
                Some(catalog.skills[i].skill_md.as_path()),
                "indices point into the layered catalog"
            );
        }
    }
    let user = findings.iter().filter(|f| f.rel_path.starts_with("users/")).cloned().collect();
    let rows = findings.iter().filter(|f| f.rel_path.starts_with("db:")).cloned().collect();
    (user, rows)
}

fn layer_rules_name_what_hides_what(backend: Backend) {
    let Some(h) = LayeredHome::new(backend) else { return };
    let (layers, db) = h.layers("alice");
    let (user, rows) = layer_findings(&h, &layers, &db);
    let shadow: Vec<&str> = user.iter().filter(|f| f.rule == "layer-shadows-shared").map(|f| &*f.rel_path).collect();
    assert_eq!(shadow, ["users/alice/skills/devops/deploy/SKILL.md"]);
    let unused: Vec<(&str, &str)> = rows
        .iter()
        .filter(|f| f.rule == "layer-row-unused")
        .map(|f| (f.skill_name.as_deref().unwrap_or(""), f.message.as_str()))
        .collect();
    assert_eq!(unused.len(), 1, "{unused:?}");
    assert_eq!(unused[0].0, "journal");
    assert!(unused[0].1.contains("(shared) has its name"), "{}", unused[0].1);
    assert!(rows.iter().all(|f| f.skill_md.is_some()), "database findings point at their row");

    // bob has nothing hidden.
    let (layers, db) = h.layers("bob");
    let (user, rows) = layer_findings(&h, &layers, &db);
    assert!(!user.iter().chain(&rows).any(|f| f.rule.starts_with("layer-")));

    let db = &h.store.url();
    let out = h.cli(&["--user", "alice", "--db", db, "check", "--json", "--min-severity", "info"]);
    let found: Json = serde_json::from_slice(&out.stdout).expect("json");
    let rules: Vec<&str> = found.as_array().expect("array").iter().filter_map(|f| f["rule"].as_str()).collect();
    assert!(rules.contains(&"layer-shadows-shared") && rules.contains(&"layer-row-unused"), "{rules:?}");

    // Naming skills keeps their findings in every layer, and only theirs.
    let out = h.cli(&["--user", "alice", "--db", db, "check", "journal", "--json", "--min-severity", "info"]);
    let found: Json = serde_json::from_slice(&out.stdout).expect("json");
    let found = found.as_array().expect("array");
    assert!(found.iter().all(|f| f["skill"] == "journal"), "{found:?}");
    assert!(found.iter().any(|f| f["rule"] == "layer-row-unused"), "{found:?}");
    let out = h.cli(&["--user", "alice", "--db", db, "check", "no-such-skill"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_user_without_a_folder_is_noted() {
    let h = LayeredHome::new(Backend::Sqlite).expect("sqlite");
    let out = h.cli(&["--user", "carol", "list", "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("users/carol/skills: no such folder"), "{stderr}");
    let (layers, db) = h.layers("carol");
    let catalog = h.engine().layered_catalog(&layers, &db);
    assert!(catalog.problems.iter().any(|p| p.contains("user carol has no file skills")), "{:?}", catalog.problems);
    let out = h.cli(&["--user", "alice", "list", "--json"]);
    assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn a_real_updated_at_compares_as_sqlite_writes_it() {
    // Untyped columns keep 1.0 a REAL, whose text SQLite writes as "1.0".
    let (_d, path) = db_with(
        "CREATE TABLE hermes_skills (id, user_id, name, description, content, category, version, is_active, created_at, updated_at);
         INSERT INTO hermes_skills VALUES (3, 'alice', 'r', 'd', '---\nname: r\n---\nold\n', NULL, NULL, 1, 0, 1.0);",
    );
    let path = DbLocation::Sqlite(path);
    let row = read_db(&path, "alice").skills.into_iter().next().expect("row");
    let saved = write_back(&path, &row, "---\nname: r\n---\nnew\n", "2026-03-03 00:00:00");
    assert!(matches!(saved, Ok(WriteBack::Saved { .. })), "{saved:?}");
}
