//! Reuse of the SKILL.md files read by an earlier scan, for full rescans: a
//! file whose size, times and inode are unchanged is neither read nor
//! parsed again, so a rescan after a config change reads no skill. The walk
//! itself (the folders, and one `stat` per SKILL.md) is still done, since
//! the set of skills may have changed. (Changes inside known skill folders
//! need no walk at all: see [`super::reload`].)

use super::frontmatter::{self, Frontmatter};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// What identifies a file's content without reading it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stamp {
    len: u64,
    modified: Option<std::time::SystemTime>,
    changed: i64,
    changed_ns: i64,
    inode: u64,
}

impl Stamp {
    pub fn of(path: &Path) -> Option<Stamp> {
        let meta = std::fs::metadata(path).ok()?;
        #[cfg(unix)]
        let (changed, changed_ns, inode) = {
            use std::os::unix::fs::MetadataExt;
            (meta.ctime(), meta.ctime_nsec(), meta.ino())
        };
        #[cfg(not(unix))]
        let (changed, changed_ns, inode) = (0, 0, 0);
        Some(Stamp { len: meta.len(), modified: meta.modified().ok(), changed, changed_ns, inode })
    }
}

/// A file's text and its frontmatter, as parsed.
#[derive(Debug, Clone)]
pub struct ParsedText {
    pub text: Arc<String>,
    pub frontmatter: Frontmatter,
}

/// The files of earlier scans, shared by the engines of one session.
#[derive(Debug, Default)]
pub struct ParseCache {
    entries: Mutex<HashMap<PathBuf, (Stamp, ParsedText)>>,
}

impl ParseCache {
    /// The parse of `path` if its stamp is unchanged.
    pub fn get(&self, path: &Path, stamp: Stamp) -> Option<ParsedText> {
        let entries = self.entries.lock().ok()?;
        entries.get(path).filter(|(s, _)| *s == stamp).map(|(_, p)| p.clone())
    }

    /// Parses `text` and keeps it under `path` and `stamp`.
    pub fn insert(&self, path: &Path, stamp: Option<Stamp>, text: String) -> ParsedText {
        let (frontmatter, _) = frontmatter::parse(&text);
        let parsed = ParsedText { text: Arc::new(text), frontmatter };
        if let (Some(stamp), Ok(mut entries)) = (stamp, self.entries.lock()) {
            entries.insert(path.to_path_buf(), (stamp, parsed.clone()));
        }
        parsed
    }

    /// Forgets one file: the next scan reads it again.
    pub fn forget(&self, path: &Path) {
        if let Ok(mut entries) = self.entries.lock() {
            entries.remove(path);
        }
    }

    /// Forgets files that are gone (keeps memory flat across reloads).
    pub fn retain(&self, keep: impl Fn(&Path) -> bool) {
        if let Ok(mut entries) = self.entries.lock() {
            entries.retain(|p, _| keep(p));
        }
    }

    pub fn len(&self) -> usize {
        self.entries.lock().map_or(0, |e| e.len())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
