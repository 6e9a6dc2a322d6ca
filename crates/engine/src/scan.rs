//! Hermes' install-time skills guard as it runs on a hub install
//! (`tools/skills_guard.py`): `scan_skill` (structure checks, the 121
//! patterns, invisible characters, `.skillignore`), the verdict, and
//! `should_allow_install` for each trust level, with Hermes' own texts.

use super::diagnostics::guard;
use super::paths::{self, TreeFile};
use crate::py::{py_splitlines, py_strip};
use std::path::Path;

/// Skill sources Hermes trusts, and everything inside them.
const TRUSTED_REPOS: [&str; 4] = ["openai/skills", "anthropics/skills", "huggingface/skills", "NVIDIA/skills"];

/// The trust levels, in the order `--trust` lists them.
pub const TRUST_LEVELS: [&str; 4] = ["builtin", "trusted", "community", "agent-created"];

const MAX_FILE_COUNT: usize = 50;
const MAX_TOTAL_SIZE_KB: u64 = 1024;
const MAX_SINGLE_FILE_KB: u64 = 256;

/// Suffixes scanned for patterns (and any file named SKILL.md).
const SCANNABLE: [&str; 23] = [
    ".md", ".txt", ".py", ".sh", ".bash", ".js", ".ts", ".rb", ".yaml", ".yml", ".json", ".toml", ".cfg", ".ini",
    ".conf", ".html", ".css", ".xml", ".tex", ".r", ".jl", ".pl", ".php",
];
const BINARY: [&str; 12] =
    [".exe", ".dll", ".so", ".dylib", ".bin", ".dat", ".com", ".msi", ".dmg", ".app", ".deb", ".rpm"];
const SCRIPTS: [&str; 5] = [".sh", ".bash", ".py", ".rb", ".pl"];

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

/// What `scan_skill` returns.
#[derive(Debug, Clone, PartialEq)]
pub struct Scan {
    /// The folder's name, as Hermes names the skill it scans.
    pub skill: String,
    pub source: String,
    pub trust_level: &'static str,
    /// `safe`, `caution` or `dangerous`.
    pub verdict: &'static str,
    pub findings: Vec<ScanFinding>,
    /// What skillscope did not do as Hermes would (a file too large to read).
    pub notes: Vec<String>,
    /// Hermes' scan raises instead of answering (Python 3.11 `resolve()` on a
    /// symlink loop): the install fails with this error.
    pub error: Option<String>,
}

/// `should_allow_install`: allowed, blocked, or needs confirmation (`None`).
#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    pub allowed: Option<bool>,
    pub reason: String,
}

/// `_resolve_trust_level(source)`.
pub fn trust_level(source: &str) -> &'static str {
    let normalized = ["skills-sh/", "skills.sh/", "skils-sh/", "skils.sh/"]
        .iter()
        .find_map(|p| source.strip_prefix(p))
        .unwrap_or(source);
    if normalized == "agent-created" {
        return "agent-created";
    }
    if normalized == "official" {
        return "builtin";
    }
    let trusted =
        |repo: &&str| normalized == *repo || normalized.strip_prefix(repo).is_some_and(|r| r.starts_with('/'));
    if TRUSTED_REPOS.iter().any(trusted) {
        return "trusted";
    }
    "community"
}

/// A trust level as `--trust` names it, if it is one.
pub fn parse_trust_level(level: &str) -> Option<&'static str> {
    TRUST_LEVELS.iter().copied().find(|l| *l == level)
}

/// `scan_skill(path, source)`: a skill folder, or a single file.
pub fn scan_skill(path: &Path, source: &str) -> Scan {
    let mut scan = scan_at(path, trust_level(source));
    scan.source = source.to_owned();
    scan
}

/// [`scan_skill`] for a trust level given directly (the source is shown as it).
pub fn scan_at(path: &Path, trust_level: &'static str) -> Scan {
    let skill = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let mut findings = Vec::new();
    let mut notes = Vec::new();
    let error = None;
    if paths::is_dir(path) {
        let ignore = Ignore::load(path);
        let tree = paths::rglob_all(path);
        if let Err(e) = check_structure(path, &tree, &ignore, &mut findings) {
            let verdict = "dangerous";
            return Scan {
                skill,
                source: trust_level.into(),
                trust_level,
                verdict,
                findings: Vec::new(),
                notes,
                error: Some(e),
            };
        }
        for f in tree.iter().filter(|f| f.is_file) {
            let rel = relative(path, &f.path);
            if !ignore.ignores(&rel) {
                scan_file(&f.path, &rel, &mut findings, &mut notes);
            }
        }
    } else if paths::is_file(path) {
        scan_file(path, &skill, &mut findings, &mut notes);
    }
    let verdict = verdict(&findings);
    Scan { skill, source: trust_level.to_owned(), trust_level, verdict, findings, notes, error }
}

fn relative(root: &Path, path: &Path) -> String {
    path.strip_prefix(root).map(paths::rel_string).unwrap_or_default()
}

/// `_determine_verdict`.
fn verdict(findings: &[ScanFinding]) -> &'static str {
    if findings.iter().any(|f| f.severity == "critical") {
        "dangerous"
    } else if findings.iter().any(|f| f.severity == "high") {
        "caution"
    } else {
        "safe"
    }
}

impl Scan {
    /// `should_allow_install(result, force)`.
    pub fn decision(&self, force: bool) -> Decision {
        if let Some(e) = &self.error {
            return Decision { allowed: Some(false), reason: format!("Hermes' scan fails, so the install does: {e}") };
        }
        let index = match self.verdict {
            "safe" => 0,
            "caution" => 1,
            _ => 2,
        };
        let policy = match self.trust_level {
            "builtin" => ["allow", "allow", "allow"],
            "trusted" => ["allow", "allow", "block"],
            "agent-created" => ["allow", "allow", "ask"],
            _ => ["allow", "block", "block"],
        };
        let (trust, verdict, n) = (self.trust_level, self.verdict, self.findings.len());
        let decided = |allowed, reason| Decision { allowed, reason };
        if policy[index] == "allow" {
            return decided(Some(true), format!("Allowed ({trust} source, {verdict} verdict)"));
        }
        let unforceable = verdict == "dangerous" && matches!(trust, "community" | "trusted");
        if force && !unforceable {
            return decided(Some(true), format!("Force-installed despite {verdict} verdict ({n} findings)"));
        }
        if policy[index] == "ask" {
            return decided(None, format!("Requires confirmation ({trust} source + {verdict} verdict, {n} findings)"));
        }
        if unforceable {
            return decided(
                Some(false),
                format!("Blocked ({trust} source + dangerous verdict, {n} findings). --force does not override a dangerous verdict."),
            );
        }
        decided(
            Some(false),
            format!("Blocked ({trust} source + {verdict} verdict, {n} findings). Use --force to override."),
        )
    }

    /// `_build_summary`.
    pub fn summary(&self) -> String {
        if self.findings.is_empty() {
            return format!("{}: clean scan, no threats detected", self.skill);
        }
        let mut categories: Vec<&str> = self.findings.iter().map(|f| f.category.as_str()).collect();
        categories.sort_unstable();
        categories.dedup();
        format!("{}: {} — {} finding(s) in {}", self.skill, self.verdict, self.findings.len(), categories.join(", "))
    }

    /// `format_scan_report`: the report `hermes skills install` prints,
    /// its findings in columns as wide as their longest entry (Hermes pads
    /// to fixed widths, which long categories and paths overrun), and only
    /// the first `limit` of them, with how many more there are.
    pub fn report(&self, limit: Option<usize>) -> String {
        let mut lines = vec![format!(
            "Scan: {} ({}/{})  Verdict: {}",
            self.skill,
            self.source,
            self.trust_level,
            self.verdict.to_uppercase()
        )];
        if !self.findings.is_empty() {
            let order = |s: &str| ["critical", "high", "medium", "low"].iter().position(|l| *l == s).unwrap_or(4);
            let mut sorted: Vec<&ScanFinding> = self.findings.iter().collect();
            sorted.sort_by_key(|f| order(&f.severity));
            let shown = &sorted[..limit.unwrap_or(sorted.len()).min(sorted.len())];
            let at = |f: &ScanFinding| format!("{}:{}", f.file, f.line);
            let width = |cells: Vec<usize>, least: usize| cells.into_iter().max().unwrap_or(0).max(least);
            let category_w = width(shown.iter().map(|f| f.category.chars().count()).collect(), 14);
            let at_w = width(shown.iter().map(|f| at(f).chars().count()).collect(), 30);
            for f in shown {
                let matched: String = f.matched.chars().take(60).collect();
                let (severity, category, at) = (f.severity.to_uppercase(), &f.category, at(f));
                lines.push(format!("  {severity:<8} {category:<category_w$} {at:<at_w$} \"{matched}\""));
            }
            if shown.len() < sorted.len() {
                let more = sorted.len() - shown.len();
                lines.push(format!("  … and {more} more (--all lists every finding; --json gives them all)"));
            }
            lines.push(String::new());
        }
        let decision = self.decision(false);
        let status = match decision.allowed {
            Some(true) => "ALLOWED",
            None => "NEEDS CONFIRMATION",
            Some(false) => "BLOCKED",
        };
        lines.push(format!("Decision: {status} — {}", decision.reason));
        lines.join("\n")
    }
}

/// `scan_file`: the patterns, then invisible characters, of one text file.
fn scan_file(path: &Path, rel: &str, findings: &mut Vec<ScanFinding>, notes: &mut Vec<String>) {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    if name != "SKILL.md" && !SCANNABLE.contains(&paths::suffix(&name.to_lowercase())) {
        return;
    }
    // UTF-8 only (Hermes skips other files), with Python's universal newlines.
    let text = match super::source::read_text_at_most(path, MAX_SCANNED_BYTES) {
        Ok(Some(text)) => text,
        Ok(None) => {
            notes.push(format!("{rel}: larger than {} MiB, not read for patterns", MAX_SCANNED_BYTES >> 20));
            return;
        }
        Err(_) => return,
    };
    let lines: Vec<&str> = text.split('\n').collect();
    let patterns = guard::patterns();
    // Pattern by pattern, each over every line (Hermes' order).
    let mut hits: Vec<(usize, usize)> = guard::matching_lines(&text)
        .into_iter()
        .flat_map(|(line, ks)| ks.into_iter().map(move |k| (k, line)))
        .collect();
    hits.sort_unstable();
    for (k, line) in hits {
        let p = &patterns[k];
        findings.push(ScanFinding {
            pattern_id: p.id.clone(),
            severity: p.level.clone(),
            category: p.category.clone(),
            file: rel.to_owned(),
            line: line + 1,
            matched: excerpt(lines[line]),
            description: p.description.clone(),
        });
    }
    for (i, line) in lines.iter().enumerate() {
        if let Some((c, name)) = line.chars().find_map(|c| guard::invisible_name(c).map(|n| (c, n))) {
            findings.push(ScanFinding {
                pattern_id: "invisible_unicode".into(),
                severity: "high".into(),
                category: "injection".into(),
                file: rel.to_owned(),
                line: i + 1,
                matched: format!("U+{:04X} ({name})", c as u32),
                description: format!("invisible unicode character {name} (possible text hiding/injection)"),
            });
        }
    }
}

/// The stripped line, cut to 117 characters and `...` when over 120.
fn excerpt(line: &str) -> String {
    let stripped = py_strip(line);
    if stripped.chars().count() > 120 {
        format!("{}...", stripped.chars().take(117).collect::<String>())
    } else {
        stripped.to_owned()
    }
}

/// `_check_structure`: symlinks, sizes, binaries, executables, counts; the
/// error Hermes raises instead, if it does.
pub(crate) fn check_structure(
    dir: &Path,
    tree: &[TreeFile],
    ignore: &Ignore,
    findings: &mut Vec<ScanFinding>,
) -> Result<(), String> {
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
                Err(e) => return Err(format!("RuntimeError: {e}")),
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

/// `_load_skill_ignore`: a skill's `.skillignore` and `.clawhubignore`
/// (the default leaves nothing out).
#[derive(Debug, Default)]
pub struct Ignore {
    patterns: Vec<String>,
}

impl Ignore {
    pub fn load(dir: &Path) -> Ignore {
        let mut patterns = Vec::new();
        for name in [".skillignore", ".clawhubignore"] {
            let file = dir.join(name);
            if !paths::is_file(&file) {
                continue;
            }
            let Ok(bytes) = std::fs::read(&file) else { continue };
            let Ok(text) = String::from_utf8(bytes) else { continue };
            for raw in py_splitlines(&text) {
                let line = py_strip(raw);
                if !line.is_empty() && !line.starts_with('#') {
                    patterns.push(line.to_owned());
                }
            }
        }
        Ignore { patterns }
    }

    /// Whether the scan leaves out `rel` (a path relative to the skill).
    pub fn ignores(&self, rel: &str) -> bool {
        let base = rel.rsplit('/').next().unwrap_or(rel);
        if base == "SKILL.md" {
            return false;
        }
        if base == ".skillignore" || base == ".clawhubignore" {
            return true;
        }
        self.patterns.iter().any(|pat| pattern_ignores(pat, rel, base))
    }
}

fn pattern_ignores(pat: &str, rel: &str, base: &str) -> bool {
    let anchored = pat.starts_with('/');
    let p = pat.trim_start_matches('/');
    let is_dir = p.ends_with('/');
    let p = p.trim_end_matches('/');
    if p.is_empty() {
        return false;
    }
    let under = |p: &str| rel.strip_prefix(p).is_some_and(|rest| rest.starts_with('/'));
    if is_dir {
        return rel == p || under(p) || (!anchored && format!("/{rel}/").contains(&format!("/{p}/")));
    }
    if paths::fnmatch(rel, p) {
        return true;
    }
    !anchored
        && (paths::fnmatch(base, p)
            || (!p.contains('/') && rel.split('/').any(|seg| paths::fnmatch(seg, p)))
            || under(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trust_levels_from_sources() {
        assert_eq!(trust_level("official"), "builtin");
        assert_eq!(trust_level("skills-sh/official"), "builtin");
        assert_eq!(trust_level("openai/skills"), "trusted");
        assert_eq!(trust_level("openai/skills/pdf"), "trusted");
        assert_eq!(trust_level("openai/skills-extra"), "community", "a sibling repository is not trusted");
        assert_eq!(trust_level("official/x"), "community");
        assert_eq!(trust_level("agent-created"), "agent-created");
        assert_eq!(trust_level("someone/repo"), "community");
    }

    #[test]
    fn ignore_patterns_as_hermes_reads_them() {
        let ig = Ignore { patterns: vec!["docs/".into(), "/notes.md".into(), "*.log".into(), "drafts".into()] };
        assert!(ig.ignores("docs/plan.md"));
        assert!(ig.ignores("a/docs/b.md"), "an unanchored folder anywhere");
        assert!(ig.ignores("notes.md"));
        assert!(!ig.ignores("sub/notes.md"), "anchored to the skill root");
        assert!(ig.ignores("x/y/debug.log"));
        assert!(ig.ignores("drafts/one.md"));
        assert!(!ig.ignores("SKILL.md"));
        assert!(ig.ignores(".skillignore"));
        assert!(!ig.ignores("references/api.md"));
    }

    #[test]
    fn decisions_per_trust_level() {
        let scan = |trust, verdict| Scan {
            skill: "s".into(),
            source: "x".into(),
            trust_level: trust,
            verdict,
            findings: Vec::new(),
            notes: Vec::new(),
            error: None,
        };
        assert_eq!(scan("community", "caution").decision(false).allowed, Some(false));
        assert_eq!(scan("community", "caution").decision(true).allowed, Some(true));
        assert_eq!(scan("trusted", "dangerous").decision(true).allowed, Some(false));
        assert_eq!(scan("agent-created", "dangerous").decision(false).allowed, None);
        assert_eq!(scan("builtin", "dangerous").decision(false).reason, "Allowed (builtin source, dangerous verdict)");
        assert_eq!(
            scan("community", "dangerous").decision(false).reason,
            "Blocked (community source + dangerous verdict, 0 findings). --force does not override a dangerous verdict."
        );
    }
}
