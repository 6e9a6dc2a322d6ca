//! The `hermes_skills` table in an SQLite file.

use super::{Cell, DbError, Done, Session, Update, COLUMNS, TABLE, TEXT_KEYS};
use rusqlite::{types::ValueRef, Connection, OpenFlags, OptionalExtension, Transaction, TransactionBehavior};
use std::path::Path;
use std::time::Duration;

/// How long a locked database is waited for before saying so.
const BUSY_TIMEOUT: Duration = Duration::from_millis(500);

pub(super) fn in_transaction<T>(
    path: &Path,
    read_only: bool,
    work: impl FnOnce(&mut dyn Session) -> Result<Done<T>, DbError>,
) -> Result<T, DbError> {
    if !path.is_file() {
        return Err(DbError::NoFile(path.to_path_buf()));
    }
    let at = path.display().to_string();
    let driver = |e: rusqlite::Error| DbError::Driver { at: at.clone(), message: e.to_string() };
    let flags = if read_only { OpenFlags::SQLITE_OPEN_READ_ONLY } else { OpenFlags::SQLITE_OPEN_READ_WRITE };
    let mut conn = Connection::open_with_flags(path, flags | OpenFlags::SQLITE_OPEN_NO_MUTEX).map_err(driver)?;
    conn.busy_timeout(BUSY_TIMEOUT).map_err(driver)?;
    // A write takes the lock up front, so the check and the update see one state.
    let behavior = if read_only { TransactionBehavior::Deferred } else { TransactionBehavior::Immediate };
    let tx = conn.transaction_with_behavior(behavior).map_err(driver)?;
    let mut session = SqliteSession { tx, at: at.clone() };
    let done = work(&mut session)?;
    if done.commit {
        session.tx.commit().map_err(driver)?;
    }
    Ok(done.value)
}

struct SqliteSession<'c> {
    tx: Transaction<'c>,
    at: String,
}

impl SqliteSession<'_> {
    fn driver(&self) -> impl Fn(rusqlite::Error) -> DbError + '_ {
        move |e| DbError::Driver { at: self.at.clone(), message: e.to_string() }
    }
}

fn cell(v: ValueRef<'_>) -> Cell {
    match v {
        ValueRef::Null => Cell::Null,
        ValueRef::Integer(i) => Cell::Int(i),
        ValueRef::Real(f) => Cell::Real(f),
        ValueRef::Text(t) => Cell::Text(t.to_vec()),
        ValueRef::Blob(_) => Cell::Blob,
    }
}

/// A key compared as SQLite's own text of it (1.0 stays "1.0").
fn key(column: &str) -> String {
    format!("COALESCE(CAST({column} AS TEXT), '')")
}

impl Session for SqliteSession<'_> {
    fn table_exists(&mut self, table: &str) -> Result<bool, DbError> {
        self.tx
            .query_row("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1", [table], |_| Ok(()))
            .optional()
            .map(|r| r.is_some())
            .map_err(self.driver())
    }

    fn column_names(&mut self) -> Result<Vec<String>, DbError> {
        let mut stmt = self.tx.prepare(&format!("PRAGMA table_info({TABLE})")).map_err(self.driver())?;
        let names = stmt.query_map([], |r| r.get::<_, String>(1)).and_then(|rows| rows.collect());
        names.map_err(self.driver())
    }

    fn user_rows(&mut self, user: &str) -> Result<Vec<Vec<Cell>>, DbError> {
        let selected: Vec<String> =
            COLUMNS.iter().map(|c| if TEXT_KEYS.contains(c) { key(c) } else { (*c).to_owned() }).collect();
        let sql = format!("SELECT {} FROM {TABLE} WHERE CAST(user_id AS TEXT) = ?1", selected.join(", "));
        let mut stmt = self.tx.prepare(&sql).map_err(self.driver())?;
        let mut rows = stmt.query([user]).map_err(self.driver())?;
        let mut out = Vec::new();
        while let Some(row) = rows.next().map_err(self.driver())? {
            let cells: Result<Vec<Cell>, _> = (0..COLUMNS.len()).map(|i| row.get_ref(i).map(cell)).collect();
            out.push(cells.map_err(self.driver())?);
        }
        Ok(out)
    }

    fn update_if_unchanged(&mut self, u: &Update<'_>) -> Result<Option<String>, DbError> {
        let sql = format!(
            "UPDATE {TABLE} SET content = ?1, description = ?2, version = ?3, updated_at = ?4 \
             WHERE {} = ?5 AND {} = ?6 AND {} = ?7",
            key("id"),
            key("user_id"),
            key("updated_at")
        );
        let params = rusqlite::params![u.content, u.description, u.version, u.now, u.id, u.user_id, u.read_updated_at];
        let changed = self.tx.execute(&sql, params).map_err(self.driver())?;
        if changed != 1 {
            return Ok(None);
        }
        let read_back =
            format!("SELECT {} FROM {TABLE} WHERE {} = ?1 AND {} = ?2", key("updated_at"), key("id"), key("user_id"));
        self.tx.query_row(&read_back, [u.id, u.user_id], |r| r.get::<_, String>(0)).map(Some).map_err(self.driver())
    }
}
