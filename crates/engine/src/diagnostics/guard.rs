//! check's guard rules: Hermes' guard patterns and structural checks run
//! over a skill folder as lint findings (informational until `--trust`
//! makes an install decision count), and the files they cannot read.

use super::{relative, Finding, Severity};
use crate::catalog::CatalogSkill;
use crate::guard::patterns::{scan_text, Hit};
use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::sync::Arc;

const SCANNED: [&str; 24] = [
    ".md", ".txt", ".py", ".sh", ".bash", ".js", ".ts", ".rb", ".yaml", ".yml", ".json", ".toml", ".cfg", ".ini",
    ".conf", ".html", ".css", ".xml", ".tex", ".r", ".jl", ".pl", ".php", "",
];
/// Files larger than this are not read for the patterns (and said to be
/// not checked): Hermes reads any size; skillscope's scan stops here too.
const MAX_BYTES: u64 = crate::guard::MAX_SCANNED_BYTES;

pub const HINT: &str = "Hermes' skills guard flags this when the skill is installed from a hub; rephrase it, or make sure it is what you mean.";

/// The hint of a finding about the folder's files themselves (sizes,
/// binaries, executables, symlinks), which no rephrasing changes.
const STRUCTURE_HINT: &str = "Hermes' skills guard flags this when the skill is installed from a hub; remove or shrink the file, or list it in the skill's .skillignore if it is not part of the installed skill.";

/// The diagnostics rule of a guard pattern (or `invisible_unicode`).
pub fn rule_id(id: String) -> std::borrow::Cow<'static, str> {
    format!("{}{id}", super::rules::GUARD_FAMILY).into()
}

fn scanned(path: &Path) -> bool {
    scans_name(&path.file_name().map(|n| n.to_string_lossy()).unwrap_or_default())
}

/// Whether these rules read a file of this name (those Hermes' guard scans,
/// and files with no suffix, scripts most often): the widest reading of a
/// skill's text files.
pub(crate) fn scans_name(name: &str) -> bool {
    name == "SKILL.md" || SCANNED.contains(&crate::paths::suffix(&name.to_lowercase()))
}

/// Guard findings for every text file of a skill folder: `skill_md_text`
/// is its SKILL.md, already read and scanned, and `tree` the folder's
/// `rglob("*")` ([`crate::paths::rglob_all`]).
pub fn check_skill_dir(
    skill: &CatalogSkill,
    skill_md_text: Option<(&str, Vec<Hit>)>,
    tree: &[crate::paths::TreeFile],
    roots: &[PathBuf],
    findings: &mut Vec<Finding>,
) {
    // The skill's `.skillignore` (or `.clawhubignore`) leaves files out, as
    // Hermes' scan honours it.
    let has_ignore_file = tree.iter().any(|f| {
        f.path.parent() == Some(skill.skill_dir.as_path())
            && f.path.file_name().is_some_and(|n| n == ".skillignore" || n == ".clawhubignore")
    });
    let ignore = has_ignore_file.then(|| crate::guard::ignore::Ignore::load(&skill.skill_dir));
    let ignored = |path: &Path| {
        let rel = path.strip_prefix(&skill.skill_dir).map(crate::paths::rel_string).unwrap_or_default();
        ignore.as_ref().is_some_and(|ig| ig.ignores(&rel))
    };
    // Shared by the skill's findings (most skills have none).
    let mut skill_ref: Option<(Arc<str>, Arc<Path>)> = None;
    let mut file_finding = |file: &Path,
                            rule: Cow<'static, str>,
                            line: Option<usize>,
                            column: Option<usize>,
                            message: String,
                            hint: &'static str| {
        let (skill_name, skill_md) =
            skill_ref.get_or_insert_with(|| (skill.name.as_str().into(), skill.skill_md.as_path().into())).clone();
        Finding {
            rule,
            severity: Severity::Info,
            skill: None,
            skill_name: Some(skill_name),
            skill_md: Some(skill_md),
            path: file.into(),
            rel_path: relative(file, roots),
            line,
            column,
            message,
            hint: hint.into(),
            left_out: 0,
        }
    };
    // The structural checks of Hermes' scan: sizes, binaries, executables,
    // the file count, symlinks leaving the folder.
    let mut structural = Vec::new();
    let no_ignore;
    let structure_ignore = match &ignore {
        Some(ig) => ig,
        None => {
            no_ignore = crate::guard::ignore::Ignore::default();
            &no_ignore
        }
    };
    // A loop makes Hermes' scan raise; hermes-dangling-symlink names it.
    let _ = crate::guard::structure::check_structure(&skill.skill_dir, tree, structure_ignore, &mut structural);
    for s in structural {
        let file = match s.file.as_str() {
            "(directory)" => skill.skill_dir.clone(),
            rel => skill.skill_dir.join(rel),
        };
        // The description often holds what matched already (`file is 3167KB`).
        let message = match s.description.contains(s.matched.as_str()) {
            true => format!("{}: {}", s.severity, s.description),
            false => format!("{}: {} ({})", s.severity, s.description, s.matched),
        };
        findings.push(file_finding(&file, rule_id(s.pattern_id), None, None, message, STRUCTURE_HINT));
    }
    let others = tree.iter().filter(|f| f.is_file && f.path != skill.skill_md && scanned(&f.path) && !ignored(&f.path));
    let files = std::iter::once(&skill.skill_md).chain(others.map(|f| &f.path));
    let mut skill_md_text = skill_md_text;
    for file in files {
        let hits = match skill_md_text.take_if(|_| *file == skill.skill_md) {
            // The size limit is on the file: its text, with `\r\n` read as
            // `\n`, is at least half as long.
            Some((text, hits)) if text.len() as u64 * 2 <= MAX_BYTES => hits,
            _ => match crate::source::read_text_at_most(file, MAX_BYTES) {
                Ok(Some(text)) => scan_text(&text),
                Ok(None) => {
                    let why = format!("over {} MiB: the guard's patterns are not run on it", MAX_BYTES >> 20);
                    findings.push(not_checked(&mut file_finding, file, why));
                    continue;
                }
                // The SKILL.md's own reading is reported by hermes-unreadable.
                Err(_) if *file == skill.skill_md => continue,
                Err(e) => {
                    let why = format!("not read ({e}): the guard's patterns are not run on it");
                    findings.push(not_checked(&mut file_finding, file, why));
                    continue;
                }
            },
        };
        let mut per_rule = super::PerRule::default();
        for Hit { id, line, column, message, excerpt } in hits {
            let rule = rule_id(id);
            if per_rule.counted(findings, &rule, Severity::Info) {
                continue;
            }
            let message = if excerpt.is_empty() { message } else { format!("{message}: \"{excerpt}\"") };
            per_rule.push(findings, file_finding(file, rule, Some(line), Some(column), message, HINT));
        }
    }
}

/// A file the guard's patterns were not run on, and why.
fn not_checked(
    make: &mut impl FnMut(&Path, Cow<'static, str>, Option<usize>, Option<usize>, String, &'static str) -> Finding,
    file: &Path,
    why: String,
) -> Finding {
    let hint = super::rule("file-not-checked").map_or("", |r| r.hint);
    make(file, "file-not-checked".into(), None, None, why, hint)
}
