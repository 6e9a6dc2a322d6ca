//! The `hermes_skills` table in an SQLite file.

use super::{keep_edit, DbError, DbRead, DbSkill, WriteBack, COLUMNS, TABLE, WRONG_TABLE};
use crate::frontmatter;
use crate::value::Value;
use rusqlite::{types::ValueRef, Connection, OpenFlags, OptionalExtension};
use std::path::Path;
use std::time::Duration;

/// A column's value as text, or what keeps it from being text.
fn text_of(v: ValueRef<'_>) -> Result<String, &'static str> {
    match v {
        ValueRef::Null => Ok(String::new()),
        ValueRef::Integer(i) => Ok(i.to_string()),
        ValueRef::Real(f) => Ok(f.to_string()),
        ValueRef::Text(t) => String::from_utf8(t.to_vec()).map_err(|_| "is not UTF-8 text"),
        ValueRef::Blob(_) => Err("holds a blob, not text"),
    }
}

/// The driver's error, naming the file.
fn driver(path: &Path) -> impl Fn(rusqlite::Error) -> DbError + '_ {
    move |e| DbError::Driver { path: path.to_path_buf(), message: e.to_string() }
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

fn open(path: &Path, flags: OpenFlags) -> Result<Connection, DbError> {
    if !path.is_file() {
        return Err(DbError::NoFile(path.to_path_buf()));
    }
    let conn = Connection::open_with_flags(path, flags).map_err(driver(path))?;
    conn.busy_timeout(Duration::from_millis(500)).map_err(driver(path))?;
    Ok(conn)
}

/// Checks the table and its columns; the message names what is wrong.
fn check_schema(conn: &Connection, path: &Path) -> Result<(), DbError> {
    let has = |t: &str| -> Result<bool, DbError> {
        conn.query_row("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1", [t], |_| Ok(()))
            .optional()
            .map(|r| r.is_some())
            .map_err(driver(path))
    };
    if !has(TABLE)? {
        return Err(DbError::NoTable { path: path.to_path_buf(), wrong_table_found: has(WRONG_TABLE)? });
    }
    let mut stmt = conn.prepare(&format!("PRAGMA table_info({TABLE})")).map_err(driver(path))?;
    let cols: Vec<String> =
        stmt.query_map([], |r| r.get::<_, String>(1)).and_then(|rows| rows.collect()).map_err(driver(path))?;
    let missing: Vec<&'static str> = COLUMNS.iter().copied().filter(|c| !cols.iter().any(|x| x == c)).collect();
    if !missing.is_empty() {
        return Err(DbError::MissingColumns { path: path.to_path_buf(), columns: missing });
    }
    Ok(())
}

/// Reads the active skills of `user` (read only).
pub(super) fn read_db(path: &Path, user: &str) -> DbRead {
    match read_rows(path, user) {
        Ok(skills) => DbRead { skills, problem: None },
        Err(problem) => DbRead { skills: Vec::new(), problem: Some(problem) },
    }
}

fn read_rows(path: &Path, user: &str) -> Result<Vec<DbSkill>, DbError> {
    let conn = open(path, OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX)?;
    check_schema(&conn, path)?;
    // The keys a write-back compares are read as SQLite's own text of them,
    // so the comparison holds whatever their stored type (1.0 stays "1.0").
    let selected: Vec<String> = COLUMNS
        .iter()
        .map(|c| match *c {
            "id" | "user_id" | "updated_at" => format!("COALESCE(CAST({c} AS TEXT), '')"),
            other => other.to_owned(),
        })
        .collect();
    let sql = format!("SELECT {} FROM {TABLE} WHERE CAST(user_id AS TEXT) = ?1 ORDER BY name, id", selected.join(", "));
    let mut stmt = conn.prepare(&sql).map_err(driver(path))?;
    let mut rows = stmt.query([user]).map_err(driver(path))?;
    let mut out = Vec::new();
    while let Some(row) = rows.next().map_err(driver(path))? {
        let get = |i: usize| row.get_ref(i).map_err(driver(path));
        if !truthy(get(7)?) {
            continue;
        }
        let text = |i: usize| -> Result<String, DbError> {
            text_of(get(i)?).map_err(|problem| DbError::Column {
                path: path.to_path_buf(),
                column: COLUMNS[i],
                problem,
            })
        };
        let opt = |i: usize| -> Result<Option<String>, DbError> { text(i).map(|s| (!s.is_empty()).then_some(s)) };
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

/// Writes an edited database skill back: `content`, the frontmatter's
/// `description` and `version`, and a new `updated_at`, in one transaction
/// and only if `updated_at` is still what was read.
pub(super) fn write_back(path: &Path, skill: &DbSkill, edited: &str, now: &str) -> Result<WriteBack, DbError> {
    if edited == skill.content {
        return Ok(WriteBack::Unchanged);
    }
    let mut conn = open(path, OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX)?;
    check_schema(&conn, path)?;
    let fm = frontmatter::parse(edited).0.fields;
    let field = |k: &str, old: &str| fm.get(k).filter(|v| v.truthy()).map_or_else(|| old.to_owned(), Value::py_str);
    let description = field("description", &skill.description);
    let version = field("version", skill.version.as_deref().unwrap_or(""));
    let tx = conn.transaction().map_err(driver(path))?;
    let changed = tx
        .execute(
            &format!(
                "UPDATE {TABLE} SET content = ?1, description = ?2, version = ?3, updated_at = ?4 \
                 WHERE COALESCE(CAST(id AS TEXT), '') = ?5 AND COALESCE(CAST(user_id AS TEXT), '') = ?6 \
                 AND COALESCE(CAST(updated_at AS TEXT), '') = ?7"
            ),
            rusqlite::params![edited, description, version, now, skill.id, skill.user_id, skill.updated_at],
        )
        .map_err(driver(path))?;
    if changed != 1 {
        drop(tx);
        return keep_edit(skill, edited).map(|kept| WriteBack::Conflict { kept });
    }
    tx.commit().map_err(driver(path))?;
    Ok(WriteBack::Saved { updated_at: now.to_owned() })
}
