//! The `hermes_skills` table of multi-user deployments (see [`crate::layers`]): reading a user's rows (read only) and the one
//! write, an edited row saved back only if nobody changed it meanwhile.
//!
//! The table may live in an SQLite file (`sqlite.rs`), a MySQL/MariaDB server
//! (`mysql.rs`) or a PostgreSQL server (`postgres.rs`). Each backend only
//! connects and runs its dialect's statements in a transaction
//! ([`Session`]); what the rows mean (which are active, the order, the
//! messages for a bad table or value, the conflict check) is decided here,
//! once, for all of them. A build without the `db` feature says so where the
//! rows would be.

mod location;
#[cfg_attr(not(feature = "db"), allow(dead_code))]
mod password;

#[cfg(feature = "db")]
mod mysql;
#[cfg(feature = "db")]
mod postgres;
#[cfg(feature = "db")]
mod sqlite;
#[cfg(feature = "db")]
mod tls;

pub use location::{
    DbLocation, LocationError, ServerKind, ServerUrl, TlsMode, DEFAULT_CONNECT_TIMEOUT, DEFAULT_QUERY_TIMEOUT,
};
pub use password::PASSWORD_ENV;
use std::path::{Path, PathBuf};
use std::time::Duration;

pub const TABLE: &str = "hermes_skills";
/// A name deployments get wrong; pointed out when found instead of [`TABLE`].
pub const WRONG_TABLE: &str = "harnessed_skills";
/// The columns read, in the order every backend selects them.
#[cfg_attr(not(feature = "db"), allow(dead_code))]
pub(crate) const COLUMNS: [&str; 10] =
    ["id", "user_id", "name", "description", "content", "category", "version", "is_active", "created_at", "updated_at"];
/// Columns every backend selects as their text, so that a write-back compares
/// them as read whatever their declared type.
#[cfg_attr(not(feature = "db"), allow(dead_code))]
pub(crate) const TEXT_KEYS: [&str; 4] = ["id", "user_id", "created_at", "updated_at"];

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
    pub problem: Option<DbError>,
}

/// Why the database could not be read or written. Each names the file, or
/// the server's host, port, database and user (never the password).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum DbError {
    #[error("{}: no such database file", .0.display())]
    NoFile(PathBuf),
    #[error("{at}: no table `{TABLE}`{}", wrong_table_hint(*.wrong_table_found))]
    NoTable { at: String, wrong_table_found: bool },
    #[error("{at}: table `{TABLE}` lacks column(s) {}", .columns.join(", "))]
    MissingColumns { at: String, columns: Vec<&'static str> },
    /// A column read holds what no skill field can be.
    #[error("{at}: {}column {column} {problem}", row_named(.row))]
    Column { at: String, row: Option<String>, column: &'static str, problem: &'static str },
    #[error("{at}: cannot reach the server: {message}")]
    Unreachable { at: String, message: String },
    #[error("{at}: the server refused the login: {message}")]
    Login { at: String, message: String },
    #[error("{at}: the server has no such database")]
    NoDatabase { at: String },
    /// The server did not answer in time; `what` is `connect` or `query`.
    #[error("{at}: no answer within {} s ({what} timeout; set ?{what}_timeout=SECONDS)", fmt_secs(*.after))]
    Timeout { at: String, what: &'static str, after: Duration },
    /// What the database driver said, as it said it.
    #[error("{at}: {message}")]
    Driver { at: String, message: String },
    /// An edit that could not be written back could not be kept either.
    #[error("{}: {message}", .path.display())]
    KeepEdit { path: PathBuf, message: String },
    /// A build without the `db` feature.
    #[error("{0}: this skillscope is built without database support (the `db` feature)")]
    NotBuilt(String),
}

impl DbError {
    /// The connection itself failed (the server is away or refuses us), as
    /// opposed to a table or value the server answered about.
    pub fn is_connection(&self) -> bool {
        matches!(self, DbError::Unreachable { .. } | DbError::Timeout { .. } | DbError::Login { .. })
    }
}

fn fmt_secs(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s.fract() == 0.0 {
        format!("{s:.0}")
    } else {
        format!("{s}")
    }
}

fn wrong_table_hint(found: bool) -> String {
    if found {
        format!(" (it has `{WRONG_TABLE}`: the table is named `{TABLE}`)")
    } else {
        String::new()
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

/// A column's value as a backend hands it over.
#[cfg_attr(not(feature = "db"), allow(dead_code))]
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Cell {
    Null,
    Int(i64),
    Real(f64),
    Bool(bool),
    Text(Vec<u8>),
    Blob,
}

#[cfg_attr(not(feature = "db"), allow(dead_code))]
impl Cell {
    /// The value as text, or what keeps it from being text.
    fn into_text(self) -> Result<String, &'static str> {
        match self {
            Cell::Null => Ok(String::new()),
            Cell::Int(i) => Ok(i.to_string()),
            Cell::Real(f) => Ok(f.to_string()),
            Cell::Bool(b) => Ok(if b { "true" } else { "false" }.to_owned()),
            Cell::Text(t) => String::from_utf8(t).map_err(|_| "is not UTF-8 text"),
            Cell::Blob => Err("holds a blob, not text"),
        }
    }

    /// `is_active` as the deployment's Python reads it.
    fn truthy(&self) -> bool {
        match self {
            Cell::Null | Cell::Blob => false,
            Cell::Int(i) => *i != 0,
            Cell::Real(f) => *f != 0.0,
            Cell::Bool(b) => *b,
            Cell::Text(t) => matches!(t.to_ascii_lowercase().as_slice(), b"1" | b"true" | b"t" | b"yes"),
        }
    }
}

/// The new values of an edited row, and the keys that must still match.
#[cfg_attr(not(feature = "db"), allow(dead_code))]
pub(crate) struct Update<'a> {
    pub content: &'a str,
    pub description: String,
    pub version: String,
    pub now: &'a str,
    pub id: &'a str,
    pub user_id: &'a str,
    pub read_updated_at: &'a str,
}

/// One transaction on a backend, in its dialect.
#[cfg_attr(not(feature = "db"), allow(dead_code))]
pub(crate) trait Session {
    fn table_exists(&mut self, table: &str) -> Result<bool, DbError>;
    /// The names of [`TABLE`]'s columns.
    fn column_names(&mut self) -> Result<Vec<String>, DbError>;
    /// The [`COLUMNS`] of the rows whose user_id, as text, is `user` (the
    /// [`TEXT_KEYS`] as their text).
    fn user_rows(&mut self, user: &str) -> Result<Vec<Vec<Cell>>, DbError>;
    /// Updates the row if its keys still match; the new `updated_at` as
    /// stored when exactly one row changed, else `None` (and the caller
    /// rolls back).
    fn update_if_unchanged(&mut self, update: &Update<'_>) -> Result<Option<String>, DbError>;
}

/// What a transaction's work gives back, and whether to commit it.
#[cfg_attr(not(feature = "db"), allow(dead_code))]
pub(crate) struct Done<T> {
    pub value: T,
    pub commit: bool,
}

/// Runs `work` in one transaction on the database at `location` (read
/// only when asked): committed when it says so, else rolled back.
#[cfg(feature = "db")]
fn in_transaction<T>(
    location: &DbLocation,
    read_only: bool,
    work: impl FnOnce(&mut dyn Session) -> Result<Done<T>, DbError>,
) -> Result<T, DbError> {
    match location {
        DbLocation::Sqlite(path) => sqlite::in_transaction(path, read_only, work),
        DbLocation::Server(url) => {
            let password = password::password_for(url);
            let fail = Failure { url, password: password.as_deref() };
            match url.kind {
                ServerKind::Mysql => mysql::in_transaction(fail, read_only, work),
                ServerKind::Postgres => postgres::in_transaction(fail, read_only, work),
            }
        }
    }
}

/// Checks the table and its columns; the message names what is wrong.
#[cfg(feature = "db")]
fn check_schema(session: &mut dyn Session, at: &str) -> Result<(), DbError> {
    if !session.table_exists(TABLE)? {
        return Err(DbError::NoTable { at: at.to_owned(), wrong_table_found: session.table_exists(WRONG_TABLE)? });
    }
    let cols = session.column_names()?;
    let missing: Vec<&'static str> = COLUMNS.iter().copied().filter(|c| !cols.iter().any(|x| x == c)).collect();
    if !missing.is_empty() {
        return Err(DbError::MissingColumns { at: at.to_owned(), columns: missing });
    }
    Ok(())
}

/// A user's active rows of the database at `location` (read only).
pub fn read_db(location: &DbLocation, user: &str) -> DbRead {
    match read_rows(location, user) {
        Ok(skills) => DbRead { skills, problem: None },
        Err(problem) => DbRead { skills: Vec::new(), problem: Some(problem) },
    }
}

#[cfg(not(feature = "db"))]
fn read_rows(location: &DbLocation, _user: &str) -> Result<Vec<DbSkill>, DbError> {
    Err(DbError::NotBuilt(location.to_string()))
}

#[cfg(feature = "db")]
fn read_rows(location: &DbLocation, user: &str) -> Result<Vec<DbSkill>, DbError> {
    let at = location.to_string();
    let rows = in_transaction(location, true, |session| {
        check_schema(session, &at)?;
        Ok(Done { value: session.user_rows(user)?, commit: true })
    })?;
    skills_of(rows, &at, user)
}

/// The active rows of `user`, in one order on every backend: by name (as
/// bytes, whatever the server's collation), then by id (as numbers when both
/// are).
#[cfg(feature = "db")]
fn skills_of(rows: Vec<Vec<Cell>>, at: &str, user: &str) -> Result<Vec<DbSkill>, DbError> {
    let mut out = Vec::new();
    for row in rows {
        let Ok([id, user_id, name, description, content, category, version, is_active, _created, updated_at]) =
            <[Cell; 10]>::try_from(row)
        else {
            return Err(DbError::Driver { at: at.to_owned(), message: "a row without the columns asked for".into() });
        };
        // The row a bad value is in, by its id (when that is text).
        let row = match &id {
            Cell::Int(i) => Some(i.to_string()),
            Cell::Text(t) => std::str::from_utf8(t).ok().map(str::to_owned),
            _ => None,
        };
        let text = |i: usize, cell: Cell| {
            cell.into_text().map_err(|problem| DbError::Column {
                at: at.to_owned(),
                row: row.clone(),
                column: COLUMNS[i],
                problem,
            })
        };
        let optional = |i: usize, cell: Cell| text(i, cell).map(|s| (!s.is_empty()).then_some(s));
        // A server may compare user ids loosely (case, trailing spaces).
        if !is_active.truthy() {
            continue;
        }
        let user_id = text(1, user_id)?;
        if user_id != user {
            continue;
        }
        out.push(DbSkill {
            id: text(0, id)?,
            user_id,
            name: text(2, name)?,
            description: text(3, description)?,
            content: text(4, content)?,
            category: optional(5, category)?,
            version: optional(6, version)?,
            updated_at: text(9, updated_at)?,
        });
    }
    out.sort_by(|a, b| a.name.as_bytes().cmp(b.name.as_bytes()).then_with(|| compare_ids(&a.id, &b.id)));
    Ok(out)
}

/// `the row with id 7: `, for a message naming a bad value's row.
fn row_named(row: &Option<String>) -> String {
    match row {
        Some(id) => format!("the row with id {}: ", crate::sanitize::clean_line(id)),
        None => String::new(),
    }
}

#[cfg_attr(not(feature = "db"), allow(dead_code))]
fn compare_ids(a: &str, b: &str) -> std::cmp::Ordering {
    match (a.parse::<i64>(), b.parse::<i64>()) {
        (Ok(x), Ok(y)) => x.cmp(&y),
        _ => a.as_bytes().cmp(b.as_bytes()),
    }
}

/// Writes an edited database skill back: `content`, the frontmatter's
/// `description` and `version`, and a new `updated_at`, in one transaction
/// and only if `updated_at` is still what was read. On a conflict nothing
/// is written and the edit is kept in a file of its own.
pub fn write_back(location: &DbLocation, skill: &DbSkill, edited: &str, now: &str) -> Result<WriteBack, DbError> {
    if edited == skill.content {
        return Ok(WriteBack::Unchanged);
    }
    write_changed(location, skill, edited, now)
}

#[cfg(not(feature = "db"))]
fn write_changed(location: &DbLocation, _: &DbSkill, _: &str, _: &str) -> Result<WriteBack, DbError> {
    Err(DbError::NotBuilt(location.to_string()))
}

#[cfg(feature = "db")]
fn write_changed(location: &DbLocation, skill: &DbSkill, edited: &str, now: &str) -> Result<WriteBack, DbError> {
    use crate::value::Value;
    let fm = crate::frontmatter::parse(edited).0.fields;
    let field = |k: &str, old: &str| fm.get(k).filter(|v| v.truthy()).map_or_else(|| old.to_owned(), Value::py_str);
    let update = Update {
        content: edited,
        description: field("description", &skill.description),
        version: field("version", skill.version.as_deref().unwrap_or("")),
        now,
        id: &skill.id,
        user_id: &skill.user_id,
        read_updated_at: &skill.updated_at,
    };
    let at = location.to_string();
    let saved = in_transaction(location, false, |session| {
        check_schema(session, &at)?;
        let saved = session.update_if_unchanged(&update)?;
        Ok(Done { commit: saved.is_some(), value: saved })
    })?;
    match saved {
        Some(updated_at) => Ok(WriteBack::Saved { updated_at }),
        None => keep_edit(skill, edited).map(|kept| WriteBack::Conflict { kept }),
    }
}

/// Saves an edit that could not be written back, in a file of its own.
pub fn keep_edit(skill: &DbSkill, edited: &str) -> Result<PathBuf, DbError> {
    let prefix = format!("skillscope-{}-", skill.name.replace(|c: char| !c.is_ascii_alphanumeric() && c != '-', "_"));
    let failed =
        |path: &Path, e: &dyn std::fmt::Display| DbError::KeepEdit { path: path.to_path_buf(), message: e.to_string() };
    let file = tempfile::Builder::new()
        .prefix(&prefix)
        .suffix(".md")
        .tempfile()
        .map_err(|e| failed(&std::env::temp_dir(), &e))?;
    std::fs::write(file.path(), edited).map_err(|e| failed(file.path(), &e))?;
    let (_, path) = file.keep().map_err(|e| failed(e.file.path(), &e.error))?;
    Ok(path)
}

/// Where a server's error arose.
#[cfg(feature = "db")]
#[derive(Clone, Copy, PartialEq)]
pub(crate) enum Stage {
    Connect,
    Query,
}

/// Turns a server driver's errors into ours (each backend adds its
/// `<driver>_error`), naming the server, never the password.
#[cfg(feature = "db")]
#[derive(Clone, Copy)]
pub(crate) struct Failure<'a> {
    pub url: &'a ServerUrl,
    pub password: Option<&'a str>,
}

#[cfg(feature = "db")]
impl Failure<'_> {
    pub fn timeout(&self, stage: Stage) -> DbError {
        let (what, after) = match stage {
            Stage::Connect => ("connect", self.url.connect_timeout),
            Stage::Query => ("query", self.url.query_timeout),
        };
        DbError::Timeout { at: self.url.to_string(), what, after }
    }

    /// A driver's message with the password taken out, in case it repeats it.
    pub fn text(&self, message: &str) -> String {
        scrub(message, self.password)
    }
}

/// A driver's message with the password taken out, in case it repeats it.
#[cfg_attr(not(feature = "db"), allow(dead_code))]
pub(crate) fn scrub(message: &str, password: Option<&str>) -> String {
    match password.filter(|p| p.len() >= 3) {
        Some(p) => message.replace(p, "***"),
        None => message.to_owned(),
    }
}

/// The current time as SQLite's `CURRENT_TIMESTAMP` writes it (UTC).
pub fn timestamp() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (h, m, s) = ((secs % 86_400) / 3600, (secs % 3600) / 60, secs % 60);
    let (y, mth, d) = crate::isotime::civil_from_days((secs / 86_400) as i64);
    format!("{y:04}-{mth:02}-{d:02} {h:02}:{m:02}:{s:02}")
}

#[cfg(all(test, feature = "db"))]
mod tests {
    use super::*;

    fn row(id: Cell, user: &str, name: &str, active: Cell) -> Vec<Cell> {
        let t = |s: &str| Cell::Text(s.as_bytes().to_vec());
        vec![id, t(user), t(name), t("d"), t("c"), Cell::Null, Cell::Null, active, Cell::Null, t("2026-01-01 00:00:00")]
    }

    #[test]
    fn rows_are_filtered_and_ordered_the_same_for_every_backend() {
        let rows = vec![
            row(Cell::Int(10), "alice", "b", Cell::Int(1)),
            row(Cell::Int(9), "alice", "b", Cell::Bool(true)),
            row(Cell::Int(1), "alice", "B", Cell::Text(b"yes".to_vec())),
            row(Cell::Int(2), "alice", "a", Cell::Bool(false)),
            row(Cell::Int(3), "Alice", "a", Cell::Int(1)),
            row(Cell::Int(4), "alice ", "a", Cell::Int(1)),
        ];
        let skills = skills_of(rows, "db", "alice").unwrap();
        let order: Vec<(&str, &str)> = skills.iter().map(|s| (s.name.as_str(), s.id.as_str())).collect();
        assert_eq!(order, [("B", "1"), ("b", "9"), ("b", "10")]);
    }

    #[test]
    fn a_value_that_is_no_text_names_its_column() {
        let mut r = row(Cell::Int(1), "alice", "a", Cell::Int(1));
        r[4] = Cell::Blob;
        let err = skills_of(vec![r], "mysql://u@h:3306/db", "alice").unwrap_err();
        assert_eq!(err.to_string(), "mysql://u@h:3306/db: the row with id 1: column content holds a blob, not text");
    }

    #[test]
    fn passwords_are_scrubbed_from_driver_messages() {
        assert_eq!(scrub("bad secret123 here", Some("secret123")), "bad *** here");
        assert_eq!(scrub("x", None), "x");
    }
}
