//! The `hermes_skills` table on a PostgreSQL 13+ server.
//!
//! The client is asynchronous; each statement runs to completion on a
//! runtime of one thread owned by the transaction, bounded by the query
//! timeout on our side as well as by `statement_timeout` on the server's.

use super::tls::client_config;
use super::{Cell, DbError, Done, Failure, Session, Stage, TlsMode, Update, COLUMNS, TABLE, TEXT_KEYS};
use std::collections::HashMap;
use std::future::Future;
use std::io::ErrorKind;
use std::time::Duration;
use tokio::runtime::Runtime;
use tokio_postgres::config::SslMode;
use tokio_postgres::error::SqlState;
use tokio_postgres::types::{ToSql, Type};
use tokio_postgres::{Client, Row};

pub(super) fn in_transaction<T>(
    fail: Failure<'_>,
    read_only: bool,
    work: impl FnOnce(&mut dyn Session) -> Result<Done<T>, DbError>,
) -> Result<T, DbError> {
    let runtime =
        tokio::runtime::Builder::new_current_thread().enable_io().enable_time().build().map_err(|e| {
            DbError::Driver { at: fail.url.to_string(), message: format!("cannot start the client: {e}") }
        })?;
    let client = connect(&runtime, fail)?;
    let mut session = PgSession { client, runtime, fail, types: HashMap::new() };
    session.batch(if read_only { "BEGIN READ ONLY" } else { "BEGIN" })?;
    let done = work(&mut session)?;
    // Without a COMMIT the server rolls back when the connection closes.
    if done.commit {
        session.batch("COMMIT")?;
    }
    Ok(done.value)
}

fn connect(runtime: &Runtime, fail: Failure<'_>) -> Result<Client, DbError> {
    let url = fail.url;
    let mut config = tokio_postgres::Config::new();
    config
        .user(&url.user)
        .dbname(&url.database)
        .port(url.port)
        .application_name("skillscope")
        .connect_timeout(url.connect_timeout)
        .options(format!("-c statement_timeout={}", url.query_timeout.as_millis()))
        .ssl_mode(match url.tls {
            TlsMode::Disable => SslMode::Disable,
            TlsMode::Prefer => SslMode::Prefer,
            TlsMode::Require | TlsMode::VerifyFull => SslMode::Require,
        });
    match &url.socket {
        Some(dir) => config.host_path(dir),
        None => config.host(&url.host),
    };
    if let Some(p) = fail.password {
        config.password(p);
    }
    let tls = tokio_postgres_rustls::MakeRustlsConnect::new(client_config(
        url.tls,
        url.root_cert.as_deref(),
        &url.to_string(),
    )?);
    let connecting = bounded(url.connect_timeout, config.connect(tls));
    let (client, connection) = match runtime.block_on(connecting) {
        Some(Ok(pair)) => pair,
        Some(Err(e)) => return Err(fail.postgres_error(&e, Stage::Connect)),
        None => return Err(fail.timeout(Stage::Connect)),
    };
    // Runs while a statement is awaited on this one-thread runtime.
    runtime.spawn(connection);
    Ok(client)
}

async fn bounded<F: Future>(limit: Duration, work: F) -> Option<F::Output> {
    tokio::time::timeout(limit, work).await.ok()
}

impl Failure<'_> {
    fn postgres_error(&self, e: &tokio_postgres::Error, stage: Stage) -> DbError {
        let at = self.url.to_string();
        let text = |s: &str| self.text(s);
        if let Some(server) = e.as_db_error() {
            return match *server.code() {
                SqlState::INVALID_PASSWORD | SqlState::INVALID_AUTHORIZATION_SPECIFICATION => {
                    DbError::Login { at, message: text(server.message()) }
                }
                SqlState::INVALID_CATALOG_NAME => DbError::NoDatabase { at },
                SqlState::QUERY_CANCELED | SqlState::LOCK_NOT_AVAILABLE => self.timeout(Stage::Query),
                SqlState::ADMIN_SHUTDOWN | SqlState::CRASH_SHUTDOWN | SqlState::CANNOT_CONNECT_NOW => {
                    DbError::Unreachable { at, message: text(server.message()) }
                }
                _ => DbError::Driver { at, message: text(server.message()) },
            };
        }
        let io = std::error::Error::source(e).and_then(|s| s.downcast_ref::<std::io::Error>());
        match io.map(std::io::Error::kind) {
            Some(ErrorKind::TimedOut) => self.timeout(stage),
            Some(_) => DbError::Unreachable { at, message: text(&io.map_or_else(String::new, ToString::to_string)) },
            None if stage == Stage::Connect || e.is_closed() => {
                DbError::Unreachable { at, message: text(&e.to_string()) }
            }
            None => DbError::Driver { at, message: text(&e.to_string()) },
        }
    }
}

struct PgSession<'u> {
    client: Client,
    runtime: Runtime,
    fail: Failure<'u>,
    /// The declared type of each column of [`TABLE`], once asked.
    types: HashMap<String, String>,
}

impl PgSession<'_> {
    fn run<T>(&self, work: impl Future<Output = Result<T, tokio_postgres::Error>>) -> Result<T, DbError> {
        match self.runtime.block_on(bounded(self.fail.url.query_timeout, work)) {
            Some(Ok(v)) => Ok(v),
            Some(Err(e)) => Err(self.fail.postgres_error(&e, Stage::Query)),
            None => Err(self.fail.timeout(Stage::Query)),
        }
    }

    fn batch(&self, sql: &str) -> Result<(), DbError> {
        self.run(self.client.batch_execute(sql))
    }

    fn rows(&self, sql: &str, params: &[&(dyn ToSql + Sync)]) -> Result<Vec<Row>, DbError> {
        self.run(self.client.query(sql, params))
    }
}

/// The types read as they are; any other column is selected as its text.
fn read_raw(declared: &str) -> bool {
    matches!(
        declared,
        "boolean" | "smallint" | "integer" | "bigint" | "real" | "double precision" | "bytea" | "text" | "name"
    ) || declared.starts_with("character")
}

fn cell(row: &Row, i: usize) -> Cell {
    let ty = row.columns()[i].type_().clone();
    let got = |c: Option<Cell>| c.unwrap_or(Cell::Null);
    match ty {
        Type::BOOL => got(row.try_get::<_, Option<bool>>(i).ok().flatten().map(Cell::Bool)),
        Type::INT2 => got(row.try_get::<_, Option<i16>>(i).ok().flatten().map(|v| Cell::Int(v.into()))),
        Type::INT4 => got(row.try_get::<_, Option<i32>>(i).ok().flatten().map(|v| Cell::Int(v.into()))),
        Type::INT8 => got(row.try_get::<_, Option<i64>>(i).ok().flatten().map(Cell::Int)),
        Type::FLOAT4 => got(row.try_get::<_, Option<f32>>(i).ok().flatten().map(|v| Cell::Real(v.into()))),
        Type::FLOAT8 => got(row.try_get::<_, Option<f64>>(i).ok().flatten().map(Cell::Real)),
        Type::BYTEA => got(row.try_get::<_, Option<&[u8]>>(i).ok().flatten().map(|_| Cell::Blob)),
        _ => got(row.try_get::<_, Option<&str>>(i).ok().flatten().map(|s| Cell::Text(s.as_bytes().to_vec()))),
    }
}

impl Session for PgSession<'_> {
    fn table_exists(&mut self, table: &str) -> Result<bool, DbError> {
        let rows = self.rows("SELECT to_regclass($1::text) IS NOT NULL", &[&table])?;
        Ok(rows.first().and_then(|r| r.try_get::<_, bool>(0).ok()).unwrap_or(false))
    }

    fn column_names(&mut self) -> Result<Vec<String>, DbError> {
        let sql = "SELECT attname::text, format_type(atttypid, atttypmod) FROM pg_attribute \
                   WHERE attrelid = to_regclass($1::text) AND attnum > 0 AND NOT attisdropped";
        let rows = self.rows(sql, &[&TABLE])?;
        self.types = rows
            .iter()
            .filter_map(|r| Some((r.try_get::<_, String>(0).ok()?, r.try_get::<_, String>(1).ok()?)))
            .collect();
        Ok(self.types.keys().cloned().collect())
    }

    fn user_rows(&mut self, user: &str) -> Result<Vec<Vec<Cell>>, DbError> {
        let selected: Vec<String> = COLUMNS
            .iter()
            .map(|c| {
                let raw = !TEXT_KEYS.contains(c) && self.types.get(*c).is_some_and(|t| read_raw(t));
                if raw {
                    format!("\"{c}\"")
                } else {
                    format!("\"{c}\"::text")
                }
            })
            .collect();
        let sql = format!("SELECT {} FROM {TABLE} WHERE user_id::text = $1", selected.join(", "));
        let rows = self.rows(&sql, &[&user])?;
        Ok(rows.iter().map(|r| (0..COLUMNS.len()).map(|i| cell(r, i)).collect()).collect())
    }

    fn update_if_unchanged(&mut self, u: &Update<'_>) -> Result<Option<String>, DbError> {
        // Text is cast to each column's declared type (a timestamp takes no text as it is).
        let as_declared = |column: &str, n: usize| {
            let declared = self.types.get(column).map_or("text", String::as_str);
            format!("{column} = CAST(${n}::text AS {declared})")
        };
        let sql = format!(
            "UPDATE {TABLE} SET {}, {}, {}, {} \
             WHERE id::text = $5 AND user_id::text = $6 AND COALESCE(updated_at::text, '') = $7",
            as_declared("content", 1),
            as_declared("description", 2),
            as_declared("version", 3),
            as_declared("updated_at", 4)
        );
        let params: [&(dyn ToSql + Sync); 7] =
            [&u.content, &u.description, &u.version, &u.now, &u.id, &u.user_id, &u.read_updated_at];
        let changed = self.run(self.client.execute(&sql, &params))?;
        if changed != 1 {
            return Ok(None);
        }
        let read_back =
            format!("SELECT COALESCE(updated_at::text, '') FROM {TABLE} WHERE id::text = $1 AND user_id::text = $2");
        let rows = self.rows(&read_back, &[&u.id, &u.user_id])?;
        Ok(rows.first().and_then(|r| r.try_get::<_, String>(0).ok()))
    }
}
