//! The `hermes_skills` table of multi-user deployments (see [`crate::layers`]): reading a user's rows (read only) and the one
//! write, an edited row saved back only if nobody changed it meanwhile.
//! The rows are read from an SQLite file (`sqlite.rs`, the `db` feature);
//! a build without it says so where the rows would be.

#[cfg(feature = "db")]
mod sqlite;

use std::path::{Path, PathBuf};

pub const TABLE: &str = "hermes_skills";
/// A name deployments get wrong; pointed out when found instead of [`TABLE`].
pub const WRONG_TABLE: &str = "harnessed_skills";
#[cfg_attr(not(feature = "db"), allow(dead_code))]
pub(crate) const COLUMNS: [&str; 10] =
    ["id", "user_id", "name", "description", "content", "category", "version", "is_active", "created_at", "updated_at"];

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

/// Why the database could not be read or written; each names the file.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum DbError {
    #[error("{}: no such database file", .0.display())]
    NoFile(PathBuf),
    #[error("{}: no table `{TABLE}`{}", .path.display(), wrong_table_hint(*.wrong_table_found))]
    NoTable { path: PathBuf, wrong_table_found: bool },
    #[error("{}: table `{TABLE}` lacks column(s) {}", .path.display(), .columns.join(", "))]
    MissingColumns { path: PathBuf, columns: Vec<&'static str> },
    /// A column read holds what no skill field can be.
    #[error("{}: column {column} {problem}", .path.display())]
    Column { path: PathBuf, column: &'static str, problem: &'static str },
    /// What the database driver said, as it said it.
    #[error("{}: {message}", .path.display())]
    Driver { path: PathBuf, message: String },
    /// An edit that could not be written back could not be kept either.
    #[error("{}: {message}", .path.display())]
    KeepEdit { path: PathBuf, message: String },
    /// A build without the `db` feature.
    #[error("{}: this skillscope is built without database support (the `db` feature)", .0.display())]
    NotBuilt(PathBuf),
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

/// A user's active rows of the database at `path`.
pub fn read_db(path: &Path, user: &str) -> DbRead {
    #[cfg(feature = "db")]
    return sqlite::read_db(path, user);
    #[cfg(not(feature = "db"))]
    {
        let _ = user;
        DbRead { skills: Vec::new(), problem: Some(DbError::NotBuilt(path.to_path_buf())) }
    }
}

/// Writes an edited database skill back: `content`, the frontmatter's
/// `description` and `version`, and a new `updated_at`, in one transaction
/// and only if `updated_at` is still what was read.
pub fn write_back(path: &Path, skill: &DbSkill, edited: &str, now: &str) -> Result<WriteBack, DbError> {
    #[cfg(feature = "db")]
    return sqlite::write_back(path, skill, edited, now);
    #[cfg(not(feature = "db"))]
    {
        let _ = (skill, edited, now);
        Err(DbError::NotBuilt(path.to_path_buf()))
    }
}

/// Saves an edit that could not be written back, in a file of its own.
#[cfg_attr(not(feature = "db"), allow(dead_code))]
pub(crate) fn keep_edit(skill: &DbSkill, edited: &str) -> Result<PathBuf, DbError> {
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

/// The current time as SQLite's `CURRENT_TIMESTAMP` writes it (UTC).
pub fn timestamp() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (h, m, s) = ((secs % 86_400) / 3600, (secs % 3600) / 60, secs % 60);
    let (y, mth, d) = crate::isotime::civil_from_days((secs / 86_400) as i64);
    format!("{y:04}-{mth:02}-{d:02} {h:02}:{m:02}:{s:02}")
}
