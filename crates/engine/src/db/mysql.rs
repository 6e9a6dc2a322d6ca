//! The `hermes_skills` table on a MySQL 8 or MariaDB 10.11+ server.

use super::{Cell, DbError, Done, Failure, ServerUrl, Session, Stage, TlsMode, Update, COLUMNS, TABLE, TEXT_KEYS};
use mysql::consts::{CapabilityFlags, ColumnType};
use mysql::prelude::Queryable;
use mysql::{AccessMode, Conn, DriverError, OptsBuilder, Row, SslOpts, Transaction, TxOpts, Value};
use std::io::ErrorKind;

/// MySQL's character set number for binary strings (blobs).
const BINARY_CHARSET: u16 = 63;

pub(super) fn in_transaction<T>(
    fail: Failure<'_>,
    read_only: bool,
    work: impl FnOnce(&mut dyn Session) -> Result<Done<T>, DbError>,
) -> Result<T, DbError> {
    let mut conn = connect_within(fail)?;
    let access = if read_only { AccessMode::ReadOnly } else { AccessMode::ReadWrite };
    let tx = conn.start_transaction(TxOpts::default().set_access_mode(Some(access)));
    let tx = tx.map_err(|e| fail.mysql_error(e, Stage::Query))?;
    let mut session = MysqlSession { tx, fail };
    let done = work(&mut session)?;
    if done.commit {
        session.tx.commit().map_err(|e| fail.mysql_error(e, Stage::Query))?;
    }
    Ok(done.value)
}

/// Connects on a helper thread, so that a server that accepts and then says
/// nothing is given up on after the connect timeout (the driver's own read
/// timeout, the query timeout, would be waited out otherwise).
fn connect_within(fail: Failure<'_>) -> Result<Conn, DbError> {
    let url = fail.url;
    let (tx, rx) = std::sync::mpsc::channel();
    let (url_copy, password_copy) = (url.clone(), fail.password.map(str::to_owned));
    std::thread::spawn(move || {
        let _ = tx.send(connect(&url_copy, password_copy.as_deref()));
    });
    match rx.recv_timeout(url.connect_timeout) {
        Ok(connected) => connected.map_err(|e| fail.mysql_error(e, Stage::Connect)),
        Err(_) => Err(fail.timeout(Stage::Connect)),
    }
}

fn connect(url: &ServerUrl, password: Option<&str>) -> Result<Conn, mysql::Error> {
    let opts = |tls: Option<SslOpts>| {
        OptsBuilder::new()
            .ip_or_hostname(Some(url.host.clone()))
            .tcp_port(url.port)
            .socket(url.socket.as_ref().map(|s| s.to_string_lossy().into_owned()))
            .prefer_socket(false)
            .user(Some(url.user.clone()))
            .pass(password.map(str::to_owned))
            .db_name(Some(url.database.clone()))
            .tcp_connect_timeout(Some(url.connect_timeout))
            .read_timeout(Some(url.query_timeout))
            .write_timeout(Some(url.query_timeout))
            // An UPDATE then counts the rows it matched, not only those it changed.
            .additional_capabilities(CapabilityFlags::CLIENT_FOUND_ROWS)
            .ssl_opts(tls)
    };
    let unverified =
        || SslOpts::default().with_danger_accept_invalid_certs(true).with_danger_skip_domain_validation(true);
    match url.tls {
        TlsMode::Disable => Conn::new(opts(None)),
        TlsMode::Require => Conn::new(opts(Some(unverified()))),
        TlsMode::VerifyFull => {
            let verified = SslOpts::default();
            Conn::new(opts(Some(match &url.root_cert {
                Some(path) => verified.with_root_cert_path(Some(path.clone())),
                None => verified,
            })))
        }
        // Asking first is cheaper than a refused TLS connection and another.
        TlsMode::Prefer => match offers_tls(url) {
            Some(false) => Conn::new(opts(None)),
            _ => match Conn::new(opts(Some(unverified()))) {
                Err(mysql::Error::DriverError(DriverError::TlsNotSupported)) => Conn::new(opts(None)),
                other => other,
            },
        },
    }
}

/// Whether the server's greeting offers TLS (`CLIENT_SSL`), read from a
/// connection of its own; `None` when it cannot be told (a Unix socket, where
/// TLS is not used, or no greeting).
fn offers_tls(url: &ServerUrl) -> Option<bool> {
    use std::io::Read;
    use std::net::{TcpStream, ToSocketAddrs};
    const CLIENT_SSL: u16 = 0x0800;
    if url.socket.is_some() {
        return None;
    }
    let address = (url.host.as_str(), url.port).to_socket_addrs().ok()?.next()?;
    let mut stream = TcpStream::connect_timeout(&address, url.connect_timeout).ok()?;
    stream.set_read_timeout(Some(url.connect_timeout)).ok()?;
    let mut header = [0u8; 4];
    stream.read_exact(&mut header).ok()?;
    let length = usize::from(header[0]) | usize::from(header[1]) << 8 | usize::from(header[2]) << 16;
    let mut greeting = vec![0u8; length.min(1 << 16)];
    stream.read_exact(&mut greeting).ok()?;
    // Protocol 10: version, server version up to NUL, thread id (4),
    // scramble (8), filler (1), then the low capability flags.
    if greeting.first() != Some(&10) {
        return None;
    }
    let after_version = 1 + greeting[1..].iter().position(|&b| b == 0)? + 1;
    let flags = greeting.get(after_version + 13..after_version + 15)?;
    Some(u16::from_le_bytes([flags[0], flags[1]]) & CLIENT_SSL != 0)
}

impl Failure<'_> {
    fn mysql_error(&self, e: mysql::Error, stage: Stage) -> DbError {
        let at = self.url.to_string();
        let message = self.text(&e.to_string());
        match &e {
            mysql::Error::MySqlError(server) => match server.code {
                // Access denied (for the user; to the database; without a password).
                1045 | 1044 | 1698 => DbError::Login { at, message: self.text(&server.message) },
                1049 => DbError::NoDatabase { at },
                // Lock wait; MySQL's max_execution_time; MariaDB's max_statement_time.
                1205 | 3024 | 1969 => self.timeout(Stage::Query),
                _ => DbError::Driver { at, message },
            },
            _ if io_kind(&e).is_some_and(|k| matches!(k, ErrorKind::TimedOut | ErrorKind::WouldBlock)) => {
                self.timeout(stage)
            }
            mysql::Error::DriverError(DriverError::ConnectTimeout) => self.timeout(Stage::Connect),
            mysql::Error::DriverError(DriverError::CouldNotConnect(_)) => DbError::Unreachable { at, message },
            mysql::Error::IoError(_) | mysql::Error::CodecError(_) => DbError::Unreachable { at, message },
            _ if stage == Stage::Connect => DbError::Unreachable { at, message },
            _ => DbError::Driver { at, message },
        }
    }
}

/// The kind of the I/O error under a driver error, read or sent.
fn io_kind(e: &mysql::Error) -> Option<ErrorKind> {
    match e {
        mysql::Error::IoError(io) => Some(io.kind()),
        mysql::Error::CodecError(codec) => {
            std::error::Error::source(codec).and_then(|s| s.downcast_ref::<std::io::Error>()).map(std::io::Error::kind)
        }
        _ => None,
    }
}

struct MysqlSession<'c, 'u> {
    tx: Transaction<'c>,
    fail: Failure<'u>,
}

/// A key compared as its text, byte for byte (not by the column's collation).
fn key(column: &str) -> String {
    format!("CAST(COALESCE(CAST({column} AS CHAR), '') AS BINARY)")
}

/// Takes a column's value out of the row (its bytes are not copied).
fn cell(row: &mut Row, i: usize) -> Cell {
    let column = &row.columns_ref()[i];
    let binary = column.character_set() == BINARY_CHARSET
        && matches!(
            column.column_type(),
            ColumnType::MYSQL_TYPE_BLOB
                | ColumnType::MYSQL_TYPE_TINY_BLOB
                | ColumnType::MYSQL_TYPE_MEDIUM_BLOB
                | ColumnType::MYSQL_TYPE_LONG_BLOB
                | ColumnType::MYSQL_TYPE_VAR_STRING
                | ColumnType::MYSQL_TYPE_STRING
        );
    match row.take::<Value, _>(i) {
        None | Some(Value::NULL) => Cell::Null,
        Some(Value::Bytes(_)) if binary => Cell::Blob,
        Some(Value::Bytes(b)) => Cell::Text(b),
        Some(Value::Int(i)) => Cell::Int(i),
        Some(Value::UInt(u)) => i64::try_from(u).map_or(Cell::Real(u as f64), Cell::Int),
        Some(Value::Float(f)) => Cell::Real(f64::from(f)),
        Some(Value::Double(f)) => Cell::Real(f),
        Some(v @ (Value::Date(..) | Value::Time(..))) => {
            Cell::Text(v.as_sql(true).trim_matches('\'').as_bytes().to_vec())
        }
    }
}

impl MysqlSession<'_, '_> {
    fn rows(&mut self, sql: &str, params: Vec<Value>) -> Result<Vec<Row>, DbError> {
        self.tx.exec(sql, params).map_err(|e| self.fail.mysql_error(e, Stage::Query))
    }
}

impl Session for MysqlSession<'_, '_> {
    fn table_exists(&mut self, table: &str) -> Result<bool, DbError> {
        let sql = "SELECT 1 FROM information_schema.tables \
                   WHERE table_schema = DATABASE() AND CAST(table_name AS BINARY) = CAST(? AS BINARY)";
        Ok(!self.rows(sql, vec![table.into()])?.is_empty())
    }

    fn column_names(&mut self) -> Result<Vec<String>, DbError> {
        let sql = "SELECT column_name FROM information_schema.columns \
                   WHERE table_schema = DATABASE() AND CAST(table_name AS BINARY) = CAST(? AS BINARY)";
        let rows = self.rows(sql, vec![TABLE.into()])?;
        Ok(rows.into_iter().filter_map(|mut r| cell(&mut r, 0).into_text().ok()).collect())
    }

    fn user_rows(&mut self, user: &str) -> Result<Vec<Vec<Cell>>, DbError> {
        let selected: Vec<String> = COLUMNS
            .iter()
            .map(|c| if TEXT_KEYS.contains(c) { format!("CAST({c} AS CHAR)") } else { format!("`{c}`") })
            .collect();
        let sql = format!("SELECT {} FROM {TABLE} WHERE {} = CAST(? AS BINARY)", selected.join(", "), key("user_id"));
        let rows = self.rows(&sql, vec![user.into()])?;
        Ok(rows.into_iter().map(|mut r| (0..COLUMNS.len()).map(|i| cell(&mut r, i)).collect()).collect())
    }

    fn update_if_unchanged(&mut self, u: &Update<'_>) -> Result<Option<String>, DbError> {
        let sql = format!(
            "UPDATE {TABLE} SET content = ?, description = ?, version = ?, updated_at = ? \
             WHERE {} = CAST(? AS BINARY) AND {} = CAST(? AS BINARY) AND {} = CAST(? AS BINARY)",
            key("id"),
            key("user_id"),
            key("updated_at")
        );
        let params: Vec<Value> = vec![
            u.content.into(),
            u.description.as_str().into(),
            u.version.as_str().into(),
            u.now.into(),
            u.id.into(),
            u.user_id.into(),
            u.read_updated_at.into(),
        ];
        self.tx.exec_drop(&sql, params).map_err(|e| self.fail.mysql_error(e, Stage::Query))?;
        if self.tx.affected_rows() != 1 {
            return Ok(None);
        }
        let read_back = format!(
            "SELECT COALESCE(CAST(updated_at AS CHAR), '') FROM {TABLE} WHERE {} = CAST(? AS BINARY) AND {} = CAST(? AS BINARY)",
            key("id"),
            key("user_id")
        );
        let rows = self.rows(&read_back, vec![u.id.into(), u.user_id.into()])?;
        Ok(rows.into_iter().next().and_then(|mut r| cell(&mut r, 0).into_text().ok()))
    }
}
