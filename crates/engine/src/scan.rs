//! Hermes' install-time skills guard as it runs on a hub install
//! (`tools/skills_guard.py`): `scan_skill` (structure checks, the 121
//! patterns, invisible characters, `.skillignore`), the verdict, and
//! `should_allow_install` for each trust level, with Hermes' own texts.

use crate::guard::ignore::Ignore;
use crate::guard::patterns as guard;
use crate::guard::structure::check_structure;
use crate::guard::{relative, MAX_SCANNED_BYTES};
use crate::paths;
use crate::py::py_strip;
use std::path::Path;

pub use crate::guard::ScanFinding;

/// Skill sources Hermes trusts, and everything inside them.
const TRUSTED_REPOS: [&str; 4] = ["openai/skills", "anthropics/skills", "huggingface/skills", "NVIDIA/skills"];

/// The trust levels, in the order `--trust` lists them.
pub const TRUST_LEVELS: [&str; 4] = ["builtin", "trusted", "community", "agent-created"];

/// Suffixes scanned for patterns (and any file named SKILL.md).
const SCANNABLE: [&str; 23] = [
    ".md", ".txt", ".py", ".sh", ".bash", ".js", ".ts", ".rb", ".yaml", ".yml", ".json", ".toml", ".cfg", ".ini",
    ".conf", ".html", ".css", ".xml", ".tex", ".r", ".jl", ".pl", ".php",
];
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

/// Where a scanned skill comes from: a source as the hub names it (its
/// trust level follows), or a trust level given directly (then shown as
/// the source).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    Source(String),
    Trust(&'static str),
}

/// `scan_skill(path, source)`: a skill folder, or a single file.
pub fn scan_skill(path: &Path, origin: &Origin) -> Scan {
    match origin {
        Origin::Trust(level) => scan_for(path, level),
        Origin::Source(source) => {
            let mut scan = scan_for(path, trust_level(source));
            scan.source = source.clone();
            scan
        }
    }
}

/// The scan at a trust level, its source shown as that level.
fn scan_for(path: &Path, trust_level: &'static str) -> Scan {
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
                error: Some(e.traceback_line()),
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

/// Whether the guard reads a file of this name for patterns.
pub(crate) fn is_scanned(name: &str) -> bool {
    name == "SKILL.md" || SCANNABLE.contains(&paths::suffix(&name.to_lowercase()))
}

/// `scan_file`: the patterns, then invisible characters, of one text file.
fn scan_file(path: &Path, rel: &str, findings: &mut Vec<ScanFinding>, notes: &mut Vec<String>) {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    if !is_scanned(&name) {
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
