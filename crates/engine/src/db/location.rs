//! Where the `hermes_skills` table lives: an SQLite file, or a MySQL/MariaDB
//! or PostgreSQL server named by a URL. A location displays without its
//! password, so every message may name it.

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
pub const DEFAULT_QUERY_TIMEOUT: Duration = Duration::from_secs(10);

/// The database `--db` names.
#[derive(Clone, PartialEq, Eq)]
pub enum DbLocation {
    Sqlite(PathBuf),
    Server(Box<ServerUrl>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ServerKind {
    /// MySQL 8 and MariaDB 10.11+.
    Mysql,
    /// PostgreSQL 13+.
    Postgres,
}

impl ServerKind {
    pub fn scheme(self) -> &'static str {
        match self {
            ServerKind::Mysql => "mysql",
            ServerKind::Postgres => "postgres",
        }
    }

    pub fn default_port(self) -> u16 {
        match self {
            ServerKind::Mysql => 3306,
            ServerKind::Postgres => 5432,
        }
    }
}

/// When the connection is encrypted, as libpq's `sslmode` says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TlsMode {
    Disable,
    /// TLS when the server offers it, else plain (the server's certificate is
    /// not verified, as libpq's `prefer`).
    #[default]
    Prefer,
    /// TLS or no connection; the certificate is not verified.
    Require,
    /// TLS with the certificate verified against `sslrootcert` or the
    /// bundled web roots, and the host name checked.
    VerifyFull,
}

/// A database server and how to reach it.
#[derive(Clone, PartialEq, Eq)]
pub struct ServerUrl {
    pub kind: ServerKind,
    pub user: String,
    /// From the URL; else looked up when connecting ([`super::password`]).
    pub password: Option<String>,
    pub host: String,
    pub port: u16,
    pub database: String,
    /// A Unix socket to connect through instead of TCP (`?socket=PATH`).
    pub socket: Option<PathBuf>,
    pub tls: TlsMode,
    /// A PEM file of the certificate authorities to trust (`?sslrootcert=`).
    pub root_cert: Option<PathBuf>,
    pub connect_timeout: Duration,
    pub query_timeout: Duration,
}

/// Why a `--db` value is not a database location.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("--db {shown}: {problem}")]
pub struct LocationError {
    /// The value with any password blanked.
    shown: String,
    problem: String,
}

impl DbLocation {
    /// Parses `sqlite:PATH`, a plain path, `mysql://USER[:PASS]@HOST[:PORT]/DB`
    /// or `postgres://USER[:PASS]@HOST[:PORT]/DB`, each with `?key=value` options.
    pub fn parse(value: &str) -> Result<DbLocation, LocationError> {
        let Some((scheme, rest)) = value.split_once("://") else {
            let path = value.strip_prefix("sqlite:").unwrap_or(value);
            return Ok(DbLocation::Sqlite(PathBuf::from(path)));
        };
        let kind = match scheme.to_ascii_lowercase().as_str() {
            "mysql" | "mariadb" => ServerKind::Mysql,
            "postgres" | "postgresql" => ServerKind::Postgres,
            "sqlite" => return Ok(DbLocation::Sqlite(PathBuf::from(rest))),
            _ => {
                return Err(LocationError {
                    shown: blank_password(value),
                    problem: format!("unknown scheme `{scheme}`: use sqlite:PATH, mysql://… or postgres://…"),
                })
            }
        };
        parse_server(kind, rest)
            .map(|s| DbLocation::Server(Box::new(s)))
            .map_err(|problem| LocationError { shown: blank_password(value), problem })
    }

    /// The file an SQLite location names.
    pub fn sqlite_path(&self) -> Option<&Path> {
        match self {
            DbLocation::Sqlite(p) => Some(p),
            DbLocation::Server(_) => None,
        }
    }

    /// A short name for a tree root: the file's name, or `host/database`.
    pub fn short_name(&self) -> String {
        match self {
            DbLocation::Sqlite(p) => {
                p.file_name().map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into())
            }
            DbLocation::Server(s) => format!("{}://{}/{}", s.kind.scheme(), s.host, s.database),
        }
    }
}

impl From<PathBuf> for DbLocation {
    fn from(path: PathBuf) -> DbLocation {
        DbLocation::Sqlite(path)
    }
}

impl fmt::Display for DbLocation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DbLocation::Sqlite(p) => write!(f, "{}", p.display()),
            DbLocation::Server(s) => write!(f, "{s}"),
        }
    }
}

impl fmt::Debug for DbLocation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "DbLocation({self})")
    }
}

/// Host, port, database and user; never the password.
impl fmt::Display for ServerUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}://{}@{}:{}/{}", self.kind.scheme(), self.user, self.host, self.port, self.database)?;
        if let Some(socket) = &self.socket {
            write!(f, " (socket {})", socket.display())?;
        }
        Ok(())
    }
}

impl fmt::Debug for ServerUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ServerUrl({self})")
    }
}

fn parse_server(kind: ServerKind, rest: &str) -> Result<ServerUrl, String> {
    let (main, query) = rest.split_once('?').unwrap_or((rest, ""));
    let (authority, database) = main.split_once('/').ok_or("no database: end the URL with /DATABASE")?;
    let database = percent_decode(database)?;
    if database.is_empty() {
        return Err("no database: end the URL with /DATABASE".into());
    }
    let (userinfo, hostport) = authority.rsplit_once('@').ok_or("no user: write USER@HOST")?;
    let (user, password) = match userinfo.split_once(':') {
        Some((u, p)) => (percent_decode(u)?, Some(percent_decode(p)?)),
        None => (percent_decode(userinfo)?, None),
    };
    if user.is_empty() {
        return Err("no user: write USER@HOST".into());
    }
    let (host, port) = split_host_port(hostport)?;
    let mut url = ServerUrl {
        kind,
        user,
        password,
        host: if host.is_empty() { "localhost".into() } else { host },
        port: port.unwrap_or(kind.default_port()),
        database,
        socket: None,
        tls: TlsMode::default(),
        root_cert: None,
        connect_timeout: DEFAULT_CONNECT_TIMEOUT,
        query_timeout: DEFAULT_QUERY_TIMEOUT,
    };
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        let value = percent_decode(value)?;
        match key {
            "connect_timeout" => url.connect_timeout = seconds(key, &value)?,
            "query_timeout" => url.query_timeout = seconds(key, &value)?,
            "socket" => url.socket = Some(PathBuf::from(value)),
            "sslrootcert" => url.root_cert = Some(PathBuf::from(value)),
            "sslmode" | "ssl-mode" => {
                url.tls = match value.to_ascii_lowercase().as_str() {
                    "disable" | "disabled" => TlsMode::Disable,
                    "prefer" | "preferred" => TlsMode::Prefer,
                    "require" | "required" => TlsMode::Require,
                    "verify-full" | "verify_identity" => TlsMode::VerifyFull,
                    other => return Err(format!("sslmode `{other}`: use disable, prefer, require or verify-full")),
                }
            }
            other => {
                return Err(format!(
                    "unknown option `{other}`: known are connect_timeout, query_timeout (seconds), socket, sslmode, sslrootcert"
                ))
            }
        }
    }
    Ok(url)
}

fn split_host_port(hostport: &str) -> Result<(String, Option<u16>), String> {
    let port_of = |p: &str| p.parse::<u16>().map_err(|_| format!("port `{p}` is not a number from 1 to 65535"));
    if let Some(v6) = hostport.strip_prefix('[') {
        let (host, after) = v6.split_once(']').ok_or("an IPv6 host needs its closing ]")?;
        let port = after.strip_prefix(':').map(port_of).transpose()?;
        return Ok((host.to_owned(), port));
    }
    match hostport.rsplit_once(':') {
        Some((host, port)) => Ok((percent_decode(host)?, Some(port_of(port)?))),
        None => Ok((percent_decode(hostport)?, None)),
    }
}

fn seconds(key: &str, value: &str) -> Result<Duration, String> {
    value
        .parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s > 0.0 && *s < 86_400.0)
        .map(Duration::from_secs_f64)
        .ok_or_else(|| format!("{key} `{value}`: give seconds, more than 0"))
}

fn percent_decode(s: &str) -> Result<String, String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes.get(i + 1..i + 3).and_then(|h| std::str::from_utf8(h).ok());
            let byte = hex.and_then(|h| u8::from_str_radix(h, 16).ok()).ok_or("a % not followed by two hex digits")?;
            out.push(byte);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).map_err(|_| "percent-escapes that are not UTF-8".into())
}

/// The URL as typed, its password replaced by `***`.
fn blank_password(value: &str) -> String {
    let Some((scheme, rest)) = value.split_once("://") else { return value.to_owned() };
    let end = rest.find(['/', '?']).unwrap_or(rest.len());
    match rest[..end].rsplit_once('@') {
        Some((userinfo, _)) if userinfo.contains(':') => {
            let user = userinfo.split_once(':').map_or(userinfo, |(u, _)| u);
            format!("{scheme}://{user}:***{}", &rest[userinfo.len()..])
        }
        _ => value.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn server(value: &str) -> ServerUrl {
        match DbLocation::parse(value).expect(value) {
            DbLocation::Server(s) => *s,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn paths_and_sqlite_urls_are_files() {
        assert_eq!(DbLocation::parse("skills.db").unwrap(), DbLocation::Sqlite("skills.db".into()));
        assert_eq!(DbLocation::parse("sqlite:/srv/s.db").unwrap(), DbLocation::Sqlite("/srv/s.db".into()));
        assert_eq!(DbLocation::parse("sqlite:///srv/s.db").unwrap(), DbLocation::Sqlite("/srv/s.db".into()));
    }

    #[test]
    fn server_urls_keep_every_part() {
        let s = server("mysql://hermes:s%40cret@db.internal:3307/skills?query_timeout=2.5&sslmode=require");
        assert_eq!((s.kind, s.user.as_str(), s.password.as_deref()), (ServerKind::Mysql, "hermes", Some("s@cret")));
        assert_eq!((s.host.as_str(), s.port, s.database.as_str()), ("db.internal", 3307, "skills"));
        assert_eq!(
            (s.tls, s.query_timeout, s.connect_timeout),
            (TlsMode::Require, Duration::from_millis(2500), DEFAULT_CONNECT_TIMEOUT)
        );
        let p = server("postgresql://ops@[::1]/skills?socket=/run/postgresql");
        assert_eq!((p.kind, p.host.as_str(), p.port), (ServerKind::Postgres, "::1", 5432));
        assert_eq!(p.socket.as_deref(), Some(Path::new("/run/postgresql")));
        assert_eq!(p.password, None);
    }

    #[test]
    fn a_location_never_shows_its_password() {
        let loc = DbLocation::parse("postgres://ops:hunter2@h:5433/skills").unwrap();
        assert_eq!(loc.to_string(), "postgres://ops@h:5433/skills");
        assert!(!format!("{loc:?}").contains("hunter2"));
        let err = DbLocation::parse("postgres://ops:hunter2@h:port/skills").unwrap_err().to_string();
        assert!(!err.contains("hunter2") && err.contains("ops:***@h:port/skills"), "{err}");
    }

    #[test]
    fn bad_urls_say_what_is_missing() {
        let problem = |v: &str| DbLocation::parse(v).unwrap_err().to_string();
        assert!(problem("mysql://h/skills").contains("no user"));
        assert!(problem("mysql://u@h").contains("no database"));
        assert!(problem("redis://u@h/0").contains("unknown scheme"));
        assert!(problem("mysql://u@h/db?table=x").contains("unknown option `table`"));
        assert!(problem("mysql://u@h/db?connect_timeout=0").contains("more than 0"));
    }
}
