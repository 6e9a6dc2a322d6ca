//! Multi-user skill layers, for deployments that serve many users from one
//! home (not part of Hermes Agent 0.19.0 itself):
//!
//! 1. per-user file skills, `HERMES_HOME/users/<id>/skills/` (source `user`);
//! 2. shared file skills, the home's skill dirs (source `shared`);
//! 3. database skills, table `hermes_skills` filtered by user (source `db`).
//!
//! Viewing a name tries the layers in that order; listing concatenates them,
//! a name taken by an earlier layer hiding later ones.

mod resolve;

pub use crate::catalog::Source;
pub use crate::db::{
    read_db, timestamp, write_back, DbError, DbLocation, DbRead, DbSkill, WriteBack, TABLE, WRONG_TABLE,
};
use std::path::PathBuf;

/// The organisation that owns (and alone may write) shared skills.
pub const OWNER_ORG: &str = "0";

/// The layer settings of a session.
#[derive(Debug, Clone, PartialEq)]
pub struct Layers {
    pub user: String,
    pub db: Option<DbLocation>,
    pub org_id: Option<String>,
}

/// What the layers refuse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LayerError {
    #[error("invalid user id {0:?}: use a single folder name")]
    InvalidUserId(String),
    /// Shared skills are written by the owner organisation alone.
    #[error(
        "shared skills are written only by the owner organisation, org_id {OWNER_ORG} ({})",
        .org_id.as_ref().map_or("this session has no --org-id".to_owned(), |o| format!("this session is org_id {o}"))
    )]
    SharedNotOwner { org_id: Option<String> },
}

/// A user id becomes a folder name: it must be one plain path component.
pub fn valid_user_id(id: &str) -> Result<(), LayerError> {
    let ok = !id.is_empty() && id != "." && id != ".." && !id.contains(['/', '\\', '\0']);
    if ok {
        Ok(())
    } else {
        Err(LayerError::InvalidUserId(id.to_owned()))
    }
}

impl Layers {
    /// The user's own skill folder, `HERMES_HOME/users/<id>/skills`.
    pub fn user_dir(&self, home: &std::path::Path) -> PathBuf {
        home.join("users").join(&self.user).join("skills")
    }

    /// A note when the user has no folder: harmless, but a mistyped id
    /// looks exactly like it.
    pub fn missing_user_dir(&self, home: &std::path::Path) -> Option<String> {
        let dir = self.user_dir(home);
        (!dir.is_dir()).then(|| format!("{}: no such folder, so user {} has no file skills", dir.display(), self.user))
    }
}

/// Who may edit a skill of a source.
pub fn can_edit(source: Source, org_id: Option<&str>) -> Result<(), LayerError> {
    match source {
        Source::Shared if org_id != Some(OWNER_ORG) => {
            Err(LayerError::SharedNotOwner { org_id: org_id.map(str::to_owned) })
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_ids_are_folder_names() {
        assert!(valid_user_id("42").is_ok());
        assert!(valid_user_id("alice").is_ok());
        assert!(valid_user_id("../bob").is_err());
        assert!(valid_user_id("").is_err());
    }

    #[test]
    fn edit_permissions() {
        assert!(can_edit(Source::Shared, Some("0")).is_ok());
        assert_eq!(
            can_edit(Source::Shared, Some("7")).unwrap_err().to_string(),
            "shared skills are written only by the owner organisation, org_id 0 (this session is org_id 7)"
        );
        assert!(can_edit(Source::Shared, None).is_err());
        assert!(can_edit(Source::User, Some("7")).is_ok());
        assert!(can_edit(Source::Db, None).is_ok());
    }

    #[test]
    fn timestamps_look_like_sqlite() {
        let t = timestamp();
        assert_eq!(t.len(), 19);
        assert_eq!(&t[4..5], "-");
        assert_eq!(&t[10..11], " ");
    }
}
