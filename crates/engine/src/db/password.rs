//! A server password that is not in the URL, so not in the shell history:
//! `SKILLSCOPE_DB_PASSWORD`, then the client's own places (`PGPASSWORD` and
//! `~/.pgpass` for PostgreSQL, `~/.my.cnf`'s `[client]` group for MySQL).

use super::location::{ServerKind, ServerUrl};
use std::path::{Path, PathBuf};

pub const PASSWORD_ENV: &str = "SKILLSCOPE_DB_PASSWORD";

/// The password to log in with, if any is to be had.
pub fn password_for(url: &ServerUrl) -> Option<String> {
    if let Some(p) = &url.password {
        return Some(p.clone());
    }
    if let Some(p) = std::env::var_os(PASSWORD_ENV) {
        return Some(p.to_string_lossy().into_owned());
    }
    let home = std::env::var_os("HOME").map(PathBuf::from);
    match url.kind {
        ServerKind::Postgres => std::env::var("PGPASSWORD").ok().or_else(|| {
            let file = std::env::var_os("PGPASSFILE").map(PathBuf::from).or_else(|| home.map(|h| h.join(".pgpass")))?;
            let host = if url.socket.is_some() { "localhost" } else { &url.host };
            from_pgpass(&read_small(&file)?, host, url.port, &url.database, &url.user)
        }),
        ServerKind::Mysql => from_my_cnf(&read_small(&home?.join(".my.cnf"))?),
    }
}

fn read_small(path: &Path) -> Option<String> {
    let meta = std::fs::metadata(path).ok()?;
    (meta.is_file() && meta.len() < 1 << 20).then(|| std::fs::read_to_string(path).ok()).flatten()
}

/// The first `host:port:database:user:password` line of a `.pgpass` that
/// matches (`*` matches anything; `\:` and `\\` are escapes), as libpq reads it.
fn from_pgpass(text: &str, host: &str, port: u16, database: &str, user: &str) -> Option<String> {
    let port = port.to_string();
    let wanted = [host, port.as_str(), database, user];
    text.lines().filter(|l| !l.trim_start().starts_with('#')).find_map(|line| {
        let fields = split_pgpass(line);
        let [h, p, d, u, pass] = <[String; 5]>::try_from(fields).ok()?;
        let matches = [h, p, d, u].iter().zip(wanted).all(|(field, want)| field == "*" || field == want);
        matches.then_some(pass)
    })
}

fn split_pgpass(line: &str) -> Vec<String> {
    let mut fields = vec![String::new()];
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => fields.last_mut().expect("one field").extend(chars.next()),
            ':' if fields.len() < 5 => fields.push(String::new()),
            c => fields.last_mut().expect("one field").push(c),
        }
    }
    fields
}

/// `password` in the `[client]` group of a `.my.cnf` (quotes removed).
fn from_my_cnf(text: &str) -> Option<String> {
    let mut in_client = false;
    let mut found = None;
    for line in text.lines().map(str::trim) {
        if let Some(group) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            in_client = group.trim() == "client";
        } else if in_client {
            if let Some((key, value)) = line.split_once('=') {
                if key.trim() == "password" {
                    let v = value.trim();
                    let unquoted = [('"', '"'), ('\'', '\'')]
                        .iter()
                        .find_map(|(a, b)| v.strip_prefix(*a).and_then(|v| v.strip_suffix(*b)))
                        .unwrap_or(v);
                    found = Some(unquoted.to_owned());
                }
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pgpass_lines_match_as_libpq_does() {
        let text = "# comment\nother:5432:*:ops:wrong\n*:5433:skills:ops:right\\:one\n*:*:*:*:fallback\n";
        assert_eq!(from_pgpass(text, "db", 5433, "skills", "ops").as_deref(), Some("right:one"));
        assert_eq!(from_pgpass(text, "db", 5432, "skills", "ops").as_deref(), Some("fallback"));
        assert_eq!(from_pgpass("h:1:d:u\n", "h", 1, "d", "u"), None);
    }

    #[test]
    fn my_cnf_client_group_gives_the_password() {
        let text = "[mysqld]\npassword=server\n[client]\nuser = ops\npassword = \"s3cret\"\n[mysql]\npassword=x\n";
        assert_eq!(from_my_cnf(text).as_deref(), Some("s3cret"));
        assert_eq!(from_my_cnf("[mysqld]\npassword=server\n"), None);
    }
}
