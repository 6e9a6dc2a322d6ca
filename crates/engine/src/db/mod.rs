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
    pub problem: Option<String>,
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
        DbRead { skills: Vec::new(), problem: Some(format!("{}: {NO_DB}", path.display())) }
    }
}

/// Writes an edited database skill back: `content`, the frontmatter's
/// `description` and `version`, and a new `updated_at`, in one transaction
/// and only if `updated_at` is still what was read.
pub fn write_back(path: &Path, skill: &DbSkill, edited: &str, now: &str) -> Result<WriteBack, String> {
    #[cfg(feature = "db")]
    return sqlite::write_back(path, skill, edited, now);
    #[cfg(not(feature = "db"))]
    {
        let _ = (skill, edited, now);
        Err(format!("{}: {NO_DB}", path.display()))
    }
}

/// What a build without the `db` feature says of a database.
#[cfg(not(feature = "db"))]
const NO_DB: &str = "this skillscope is built without database support (the `db` feature)";

/// Saves an edit that could not be written back, in a file of its own.
#[cfg_attr(not(feature = "db"), allow(dead_code))]
pub(crate) fn keep_edit(skill: &DbSkill, edited: &str) -> Result<PathBuf, String> {
    let prefix = format!("skillscope-{}-", skill.name.replace(|c: char| !c.is_ascii_alphanumeric() && c != '-', "_"));
    let file = tempfile::Builder::new().prefix(&prefix).suffix(".md").tempfile().map_err(|e| e.to_string())?;
    std::fs::write(file.path(), edited).map_err(|e| format!("{}: {e}", file.path().display()))?;
    let (_, path) = file.keep().map_err(|e| e.to_string())?;
    Ok(path)
}

/// The current time as SQLite's `CURRENT_TIMESTAMP` writes it (UTC).
pub fn timestamp() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (h, m, s) = ((secs % 86_400) / 3600, (secs % 3600) / 60, secs % 60);
    let (y, mth, d) = crate::isotime::civil_from_days((secs / 86_400) as i64);
    format!("{y:04}-{mth:02}-{d:02} {h:02}:{m:02}:{s:02}")
}
