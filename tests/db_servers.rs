//! The database layer against real MariaDB and PostgreSQL servers when they
//! fail: a wrong password, a missing database, nothing listening, a server
//! that never answers, a slow query, a dropped table, a server stopped
//! while the browser shows its rows; passwords from the client's own files;
//! and 10,000 rows for one user. Each test skips (or fails, with
//! `SKILLSCOPE_DB_SERVERS=required`) without the server programs.

mod common;

use common::servers::{self, Kind, Server, PASSWORD, USER};
use skillscope::engine::layers::{read_db, DbError, DbLocation, Layers};
use skillscope::tui::app::App;
use skillscope::tui::db_feed::DbLink;
use skillscope::tui::theme::{ColorMode, Theme};
use std::net::{Ipv4Addr, TcpListener};
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

const KINDS: [Kind; 2] = [Kind::Mariadb, Kind::Postgres];

fn location(url: &str) -> DbLocation {
    DbLocation::parse(url).expect("url")
}

/// A fresh database on the shared server of `kind`, with the table and
/// `rows` rows for alice.
fn seeded(kind: Kind, rows: usize) -> Option<(&'static Server, String)> {
    let (server, db) = match servers::shared_database(kind) {
        Ok(s) => s,
        Err(why) => {
            servers::skip(&why);
            return None;
        }
    };
    seed(server, &db, rows);
    Some((server, db))
}

fn seed(server: &Server, db: &str, rows: usize) {
    let (table, numbers) = match server.kind {
        Kind::Mariadb => (
            "CREATE TABLE hermes_skills (id INT AUTO_INCREMENT PRIMARY KEY, user_id VARCHAR(64) NOT NULL, \
             name VARCHAR(255) NOT NULL, description TEXT, content MEDIUMTEXT, category VARCHAR(255), \
             version VARCHAR(64), is_active TINYINT(1) DEFAULT 1, created_at DATETIME DEFAULT CURRENT_TIMESTAMP, \
             updated_at DATETIME DEFAULT CURRENT_TIMESTAMP) DEFAULT CHARSET=utf8mb4",
            format!("SELECT seq AS n FROM seq_1_to_{rows}"),
        ),
        Kind::Postgres => (
            "CREATE TABLE hermes_skills (id SERIAL PRIMARY KEY, user_id TEXT NOT NULL, name TEXT NOT NULL, \
             description TEXT, content TEXT, category TEXT, version TEXT, is_active BOOLEAN DEFAULT TRUE, \
             created_at TIMESTAMP DEFAULT now(), updated_at TIMESTAMP DEFAULT now())",
            format!("SELECT n FROM generate_series(1, {rows}) AS n"),
        ),
    };
    let pad = match server.kind {
        Kind::Mariadb => "LPAD(n, 5, '0')",
        Kind::Postgres => "LPAD(n::text, 5, '0')",
    };
    let insert = if rows == 0 {
        String::new()
    } else {
        format!(
            "INSERT INTO hermes_skills (user_id, name, description, content, category, version, updated_at) \
             SELECT 'alice', CONCAT('row-', {pad}), CONCAT('Row ', {pad}), \
             CONCAT('---\nname: row-', {pad}, '\ndescription: Row ', {pad}, '\n---\n\nBody.\n'), 'rows', '1', \
             '2026-01-01 00:00:00' FROM ({numbers}) AS numbers;"
        )
    };
    server.admin(&format!("{table}; {insert}"), Some(db)).expect("seed");
}

fn assert_names_the_server(e: &DbError, kind: Kind, port: u16, db: &str) {
    let text = e.to_string();
    let server = format!("{}://{USER}@127.0.0.1:{port}/{db}", kind.scheme());
    assert!(text.starts_with(&server), "{text}");
    assert!(!text.contains(PASSWORD), "{text}");
}

#[test]
fn a_wrong_password_is_refused_by_name_and_the_file_layers_keep_working() {
    for kind in KINDS {
        let Some((server, db)) = seeded(kind, 3) else { return };
        let wrong = server.url(&db, "").replace(PASSWORD, "not-the-password");
        let read = read_db(&location(&wrong), "alice");
        let problem = read.problem.expect("refused");
        assert!(matches!(problem, DbError::Login { .. }), "{problem:?}");
        assert_names_the_server(&problem, kind, server.port, &db);
        assert!(!problem.to_string().contains("not-the-password"), "{problem}");

        // The CLI says so once and lists the file skills.
        let home = tempfile::tempdir().expect("tempdir");
        let skill = home.path().join("skills/notes/journal/SKILL.md");
        std::fs::create_dir_all(skill.parent().expect("parent")).expect("mkdir");
        std::fs::write(&skill, "---\nname: journal\ndescription: Notes\n---\nBody\n").expect("write");
        let out = Command::new(env!("CARGO_BIN_EXE_skillscope"))
            .env_clear()
            .env("HOME", home.path())
            .args(["--home", &home.path().display().to_string(), "--user", "alice", "--db", &wrong, "list", "--json"])
            .output()
            .expect("runs");
        assert_eq!(out.status.code(), Some(0));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("refused the login") && !stderr.contains("not-the-password"), "{stderr}");
        assert!(String::from_utf8_lossy(&out.stdout).contains("\"journal\""));
    }
}

#[test]
fn a_missing_database_is_named() {
    for kind in KINDS {
        let server = match servers::shared(kind) {
            Ok(s) => s,
            Err(why) => return servers::skip(&why),
        };
        let problem = read_db(&location(&server.url("no_such_db", "")), "alice").problem.expect("problem");
        assert!(matches!(problem, DbError::NoDatabase { .. }), "{problem:?}");
        assert_names_the_server(&problem, kind, server.port, "no_such_db");
    }
}

#[test]
fn nothing_listening_fails_at_once() {
    for kind in KINDS {
        let port = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).and_then(|l| l.local_addr()).expect("port").port();
        let url = format!("{}://{USER}:{PASSWORD}@127.0.0.1:{port}/skills", kind.scheme());
        let started = Instant::now();
        let problem = read_db(&location(&url), "alice").problem.expect("problem");
        assert!(matches!(problem, DbError::Unreachable { .. }), "{problem:?}");
        assert_names_the_server(&problem, kind, port, "skills");
        assert!(started.elapsed() < Duration::from_secs(2), "{:?}", started.elapsed());
    }
}

#[test]
fn a_server_that_never_answers_hits_the_connect_timeout() {
    for kind in KINDS {
        // Connections are accepted by the kernel, and nothing is ever said.
        let silent = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).expect("bind");
        let port = silent.local_addr().expect("addr").port();
        let url = format!("{}://{USER}@127.0.0.1:{port}/skills?connect_timeout=1&sslmode=disable", kind.scheme());
        let started = Instant::now();
        let problem = read_db(&location(&url), "alice").problem.expect("problem");
        let took = started.elapsed();
        assert!(matches!(problem, DbError::Timeout { what: "connect", .. }), "{kind:?}: {problem:?}");
        assert!(problem.to_string().contains("no answer within 1 s (connect timeout"), "{problem}");
        assert!(took >= Duration::from_millis(900) && took < Duration::from_secs(4), "{kind:?}: {took:?}");
    }
}

#[test]
fn a_slow_query_hits_the_query_timeout() {
    for kind in KINDS {
        let Some((server, db)) = seeded(kind, 3) else { return };
        // Another client holds the table locked for longer than we wait.
        let hold = match kind {
            Kind::Mariadb => "LOCK TABLES hermes_skills WRITE; SELECT SLEEP(6); UNLOCK TABLES;",
            Kind::Postgres => "BEGIN; LOCK TABLE hermes_skills IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(6); COMMIT;",
        };
        let holder = std::thread::scope(|scope| {
            let holder = scope.spawn(|| server.admin(hold, Some(&db)));
            std::thread::sleep(Duration::from_millis(800));
            let started = Instant::now();
            let problem = read_db(&location(&server.url(&db, "query_timeout=1")), "alice").problem;
            let took = started.elapsed();
            let problem = problem.expect("timed out");
            assert!(matches!(problem, DbError::Timeout { what: "query", .. }), "{kind:?}: {problem:?}");
            assert_names_the_server(&problem, kind, server.port, &db);
            assert!(took < Duration::from_secs(4), "{kind:?}: {took:?}");
            holder.join().expect("holder")
        });
        holder.expect("the lock was held and released");
        assert_eq!(read_db(&location(&server.url(&db, "")), "alice").skills.len(), 3, "{kind:?} reads again");
    }
}

#[test]
fn a_dropped_table_is_said_and_leaves_no_rows() {
    for kind in KINDS {
        let Some((server, db)) = seeded(kind, 2) else { return };
        let at = location(&server.url(&db, ""));
        assert_eq!(read_db(&at, "alice").skills.len(), 2);
        server.admin("DROP TABLE hermes_skills;", Some(&db)).expect("drop");
        let read = read_db(&at, "alice");
        assert!(read.skills.is_empty());
        let problem = read.problem.expect("problem");
        assert!(matches!(problem, DbError::NoTable { .. }), "{problem:?}");
    }
}

#[test]
fn the_password_may_come_from_the_clients_own_files() {
    for kind in KINDS {
        let Some((server, db)) = seeded(kind, 1) else { return };
        let home = tempfile::tempdir().expect("tempdir");
        match kind {
            Kind::Mariadb => {
                std::fs::write(home.path().join(".my.cnf"), format!("[client]\npassword = \"{PASSWORD}\"\n"))
            }
            Kind::Postgres => {
                let pgpass = home.path().join(".pgpass");
                std::fs::write(&pgpass, format!("127.0.0.1:{}:{db}:{USER}:{PASSWORD}\n", server.port))
            }
        }
        .expect("write");
        let url = server.url(&db, "").replace(&format!(":{PASSWORD}@"), "@");
        let out = Command::new(env!("CARGO_BIN_EXE_skillscope"))
            .env_clear()
            .env("HOME", home.path())
            .args(["--home", &home.path().display().to_string(), "--user", "alice", "--db", &url, "list", "--json"])
            .output()
            .expect("runs");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(stdout.contains("\"row-00001\""), "{kind:?}: {stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    }
}

fn layered_app(home: &Path, db: &DbLocation) -> App {
    let layers = Layers { user: "alice".into(), db: Some(db.clone()), org_id: None };
    let engine = common::tui::engine_for(home);
    App::with_layers(engine, Theme::new(ColorMode::NoColor), Some(layers))
}

#[test]
fn a_server_stopped_while_browsing_leaves_its_rows_marked_stale() {
    for kind in KINDS {
        let mut server = match Server::start(kind) {
            Ok(s) => s,
            Err(why) => return servers::skip(&why),
        };
        seed(&server, "skills", 2);
        let home = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir_all(home.path().join("skills")).expect("mkdir");
        let db = location(&server.url("skills", "connect_timeout=2"));
        let mut app = layered_app(home.path(), &db);
        assert_eq!(app.db.link, DbLink::Live);
        let screen = common::tui::screen(&mut app, 100, 20);
        assert!(screen.contains("row-00001") && screen.contains("row-00002"), "{screen}");

        server.stop();
        assert!(app.db_polled(read_db(&db, "alice")), "{kind:?}: losing the server changes what is shown");
        assert!(matches!(app.db.link, DbLink::Stale { .. }), "{:?}", app.db.link);
        app.rescan_home();
        let screen = common::tui::screen(&mut app, 100, 20);
        assert!(screen.contains("row-00001"), "the rows stay: {screen}");
        assert!(screen.contains("db (stale since") && screen.contains("db stale"), "{screen}");
        assert!(!app.db_polled(read_db(&db, "alice")), "still away: nothing changes");

        server.run().expect("back");
        assert!(app.db_polled(read_db(&db, "alice")));
        assert_eq!(app.db.link, DbLink::Live);
        app.rescan_home();
        let screen = common::tui::screen(&mut app, 100, 20);
        assert!(screen.contains("row-00001") && !screen.contains("stale"), "{screen}");
    }
}

#[test]
fn ten_thousand_rows_for_one_user_are_all_listed_in_order() {
    for kind in KINDS {
        let Some((server, db)) = seeded(kind, 10_000) else { return };
        let read = read_db(&location(&server.url(&db, "")), "alice");
        assert_eq!(read.problem, None);
        assert_eq!(read.skills.len(), 10_000);
        assert!(read.skills.windows(2).all(|w| w[0].name < w[1].name));
        assert_eq!(read.skills[9_999].name, "row-10000");
    }
}

#[test]
fn a_server_that_requires_tls_is_reached_over_tls() {
    for kind in KINDS {
        let server = match Server::start_with(kind, true) {
            Ok(s) => s,
            Err(why) => return servers::skip(&why),
        };
        seed(&server, "skills", 1);
        let cert = server.certificate.clone().expect("a certificate");
        let read = |options: &str| read_db(&location(&server.url("skills", options)), "alice");
        // The default (prefer) and require encrypt without checking the certificate.
        for options in ["", "sslmode=require"] {
            let r = read(options);
            assert_eq!((r.problem.as_ref(), r.skills.len()), (None, 1), "{kind:?} {options}");
        }
        let verified = read(&format!("sslmode=verify-full&sslrootcert={}", cert.display()));
        assert_eq!((verified.problem.as_ref(), verified.skills.len()), (None, 1), "{kind:?} verify-full");
        // A certificate nobody vouches for is refused when it is checked.
        let unvouched = read("sslmode=verify-full").problem.expect("refused");
        assert_names_the_server(&unvouched, kind, server.port, "skills");
        // Without TLS the server refuses us, and says so.
        let plain = read("sslmode=disable").problem.expect("refused");
        assert_names_the_server(&plain, kind, server.port, "skills");
    }
}

/// The best of five runs of `list --json` for alice's rows at `db`.
fn best_list_time(home: &Path, db: &str) -> Duration {
    (0..5)
        .map(|_| {
            let started = Instant::now();
            let out = Command::new(env!("CARGO_BIN_EXE_skillscope"))
                .env_clear()
                .env("HOME", home)
                .args(["--home", &home.display().to_string(), "--user", "alice", "--db", db, "list", "--json"])
                .output()
                .expect("runs");
            let took = started.elapsed();
            assert!(String::from_utf8_lossy(&out.stdout).contains("\"row-10000\""), "{db}");
            took
        })
        .min()
        .expect("five runs")
}

/// A benchmark (`cargo test --release --test db_servers -- --ignored`):
/// listing 10,000 rows of one user from a server takes at most 1.5 times
/// as long as from an SQLite file.
#[test]
#[ignore = "a benchmark: run with --release -- --ignored"]
fn ten_thousand_rows_list_within_one_and_a_half_times_sqlite() {
    let home = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir_all(home.path().join("skills")).expect("mkdir");
    let sqlite = home.path().join("skills.db");
    let conn = rusqlite::Connection::open(&sqlite).expect("db");
    conn.execute_batch(
        "CREATE TABLE hermes_skills (id INTEGER PRIMARY KEY, user_id TEXT, name TEXT, description TEXT, content TEXT,
           category TEXT, version TEXT, is_active INTEGER DEFAULT 1, created_at TEXT, updated_at TEXT);
         WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10000)
         INSERT INTO hermes_skills (user_id, name, description, content, category, version, updated_at)
           SELECT 'alice', printf('row-%05d', i), printf('Row %05d', i),
                  printf(char(45,45,45,10) || 'name: row-%05d' || char(10) || 'description: Row %05d' || char(10)
                         || char(45,45,45,10,10) || 'Body.' || char(10), i, i),
                  'rows', '1', '2026-01-01 00:00:00' FROM n;",
    )
    .expect("seed");
    drop(conn);
    let base = best_list_time(home.path(), &sqlite.display().to_string());
    eprintln!("10,000 rows, list --json, best of 5: sqlite {:.3} s", base.as_secs_f64());
    for kind in KINDS {
        let Some((server, db)) = seeded(kind, 10_000) else { return };
        let took = best_list_time(home.path(), &server.url(&db, ""));
        let ratio = took.as_secs_f64() / base.as_secs_f64();
        eprintln!("10,000 rows, list --json, best of 5: {kind:?} {:.3} s ({ratio:.2}x sqlite)", took.as_secs_f64());
        assert!(ratio <= 1.5, "{kind:?}: {ratio:.2}x");
    }
}
