//! Hermes' install-time skills guard (`tools/skills_guard.py`) as data and
//! matching, below both `scan` (the guard as a hub install runs it) and
//! check's guard rules: the 121 patterns and their translation to Rust
//! regexes, the structural checks, and `.skillignore`.

pub mod ignore;
pub mod patterns;
pub mod structure;

use crate::paths;
use std::path::Path;

/// Files larger than this are not read for patterns: Hermes would, but a
/// file this size is no skill text, and reading it would stall the scan.
/// The scan says so in its notes.
pub(crate) const MAX_SCANNED_BYTES: u64 = 64 * 1024 * 1024;

/// One finding, with Hermes' field names and texts.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ScanFinding {
    pub pattern_id: String,
    /// `critical`, `high`, `medium` or `low`.
    pub severity: String,
    pub category: String,
    /// Relative to the skill folder.
    pub file: String,
    /// 1-based; 0 for findings about a file or the folder.
    pub line: usize,
    #[serde(rename = "match")]
    pub matched: String,
    pub description: String,
}

/// A path relative to the skill folder, as Hermes' findings name files.
pub(crate) fn relative(root: &Path, path: &Path) -> String {
    path.strip_prefix(root).map(paths::rel_string).unwrap_or_default()
}
