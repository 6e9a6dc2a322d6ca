//! `_check_structure` of Hermes' skills guard: symlinks leaving the skill
//! folder, files over 256 KB, binaries, unexpected executables, more than
//! 50 files, over 1 MB in all.

use super::ignore::Ignore;
use super::{relative, ScanFinding};
use crate::paths::{self, TreeFile};
use std::path::Path;

const MAX_FILE_COUNT: usize = 50;
const MAX_TOTAL_SIZE_KB: u64 = 1024;
const MAX_SINGLE_FILE_KB: u64 = 256;

const BINARY: [&str; 12] =
    [".exe", ".dll", ".so", ".dylib", ".bin", ".dat", ".com", ".msi", ".dmg", ".app", ".deb", ".rpm"];
const SCRIPTS: [&str; 5] = [".sh", ".bash", ".py", ".rb", ".pl"];

/// `_check_structure`: symlinks, sizes, binaries, executables, counts; the
/// error Hermes raises instead, if it does.
pub(crate) fn check_structure(
    dir: &Path,
    tree: &[TreeFile],
    ignore: &Ignore,
    findings: &mut Vec<ScanFinding>,
) -> Result<(), crate::py::PyError> {
    let structural =
        |id: &str, severity: &str, category: &str, file: &str, matched: String, description: String| ScanFinding {
            pattern_id: id.into(),
            severity: severity.into(),
            category: category.into(),
            file: file.into(),
            line: 0,
            matched,
            description,
        };
    // Resolved once a symlink needs it: most skill folders hold none.
    let root = std::cell::OnceCell::new();
    let (mut count, mut total) = (0usize, 0u64);
    for f in tree.iter().filter(|f| f.is_file || f.is_symlink) {
        let rel = relative(dir, &f.path);
        if ignore.ignores(&rel) {
            continue;
        }
        count += 1;
        if f.is_symlink {
            // Python 3.11 raises on a loop (RuntimeError, which the guard
            // does not catch), so the whole scan fails.
            match paths::try_resolve(&f.path) {
                Ok(resolved) if !resolved.starts_with(root.get_or_init(|| paths::resolve(dir))) => {
                    findings.push(structural(
                        "symlink_escape",
                        "critical",
                        "traversal",
                        &rel,
                        format!("symlink -> {}", resolved.display()),
                        "symlink points outside the skill directory".into(),
                    ))
                }
                Ok(_) => {}
                Err(e) => return Err(e),
            }
            continue;
        }
        let Ok(meta) = std::fs::metadata(&f.path) else { continue };
        let size = meta.len();
        total += size;
        if size > MAX_SINGLE_FILE_KB * 1024 {
            let kb = size / 1024;
            let description = format!("file is {kb}KB (limit: {MAX_SINGLE_FILE_KB}KB)");
            findings.push(structural("oversized_file", "medium", "structural", &rel, format!("{kb}KB"), description));
        }
        let name = f.path.file_name().map(|n| n.to_string_lossy().to_lowercase()).unwrap_or_default();
        let ext = paths::suffix(&name);
        if BINARY.contains(&ext) {
            let description = format!("binary/executable file ({ext}) should not be in a skill");
            findings.push(structural(
                "binary_file",
                "critical",
                "structural",
                &rel,
                format!("binary: {ext}"),
                description,
            ));
        }
        if !SCRIPTS.contains(&ext) && is_executable(&meta) {
            findings.push(structural(
                "unexpected_executable",
                "medium",
                "structural",
                &rel,
                "executable bit set".into(),
                "file has executable permission but is not a recognized script type".into(),
            ));
        }
    }
    if count > MAX_FILE_COUNT {
        let description = format!("skill has {count} files (limit: {MAX_FILE_COUNT})");
        findings.push(structural(
            "too_many_files",
            "medium",
            "structural",
            "(directory)",
            format!("{count} files"),
            description,
        ));
    }
    if total > MAX_TOTAL_SIZE_KB * 1024 {
        let kb = total / 1024;
        let description = format!("skill is {kb}KB total (limit: {MAX_TOTAL_SIZE_KB}KB)");
        findings.push(structural(
            "oversized_skill",
            "high",
            "structural",
            "(directory)",
            format!("{kb}KB total"),
            description,
        ));
    }
    Ok(())
}

#[cfg(unix)]
fn is_executable(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    meta.permissions().mode() & 0o111 != 0
}

#[cfg(not(unix))]
fn is_executable(_: &std::fs::Metadata) -> bool {
    false
}
