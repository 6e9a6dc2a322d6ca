//! Author diagnostics: the agentskills.io specification, and what Hermes
//! 0.19.0 silently does with a skill (truncates, hides, skips, refuses,
//! ignores). Each finding names its rule, file and line, and says what to do.

mod bundles;
mod content;
mod frontmatter_rules;
pub mod guard;
mod home_rules;
mod rules;

pub use rules::{rule, RuleInfo, RULES};

use super::catalog::{Catalog, CatalogSkill};
use super::Engine;
use serde_json::{json, Value as Json};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Info,
    Warning,
    Error,
}

impl Severity {
    pub fn name(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }

    pub fn parse(s: &str) -> Option<Severity> {
        match s.trim().to_ascii_lowercase().as_str() {
            "info" => Some(Severity::Info),
            "warning" | "warn" => Some(Severity::Warning),
            "error" => Some(Severity::Error),
            _ => None,
        }
    }
}

/// One problem found.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    pub rule: String,
    pub severity: Severity,
    /// The skill it concerns (its catalog index), if any.
    pub skill: Option<usize>,
    pub skill_name: Option<String>,
    /// That skill's SKILL.md, which identifies it across catalogs.
    pub skill_md: Option<PathBuf>,
    /// The file, absolute.
    pub path: PathBuf,
    /// The file relative to its root (skills dir, external dir, or home).
    pub rel_path: String,
    /// 1-based.
    pub line: Option<usize>,
    pub message: String,
    pub hint: String,
}

impl Finding {
    pub fn to_json(&self) -> Json {
        json!({
            "rule": self.rule,
            "severity": self.severity.name(),
            "skill": self.skill_name,
            "path": self.rel_path,
            "line": self.line,
            "message": self.message,
            "hint": self.hint,
        })
    }
}

/// Collects findings for one file.
pub(crate) struct Sink<'a> {
    pub findings: &'a mut Vec<Finding>,
    pub skill: Option<(usize, PathBuf)>,
    pub skill_name: Option<String>,
    pub path: PathBuf,
    pub rel_path: String,
}

impl Sink<'_> {
    /// Adds a finding of a registered rule.
    pub fn add(&mut self, rule_id: &str, line: Option<usize>, message: impl Into<String>) {
        let info = rule(rule_id);
        self.add_with(
            rule_id,
            info.map_or(Severity::Warning, |r| r.severity),
            line,
            message,
            info.map_or("", |r| r.hint),
        );
    }

    pub fn add_with(
        &mut self,
        rule_id: &str,
        severity: Severity,
        line: Option<usize>,
        message: impl Into<String>,
        hint: &str,
    ) {
        self.findings.push(Finding {
            rule: rule_id.to_owned(),
            severity,
            skill: self.skill.as_ref().map(|s| s.0),
            skill_name: self.skill_name.clone(),
            skill_md: self.skill.as_ref().map(|s| s.1.clone()),
            path: self.path.clone(),
            rel_path: self.rel_path.clone(),
            line,
            message: message.into(),
            hint: hint.to_owned(),
        });
    }
}

/// A path relative to the first root containing it, else the home, else as is.
pub(crate) fn relative(path: &Path, roots: &[PathBuf]) -> String {
    for root in roots {
        if let Ok(rel) = path.strip_prefix(root) {
            return super::paths::rel_string(rel);
        }
    }
    super::paths::path_string(path)
}

impl Engine {
    fn diagnostic_roots(&self, catalog: &Catalog) -> Vec<PathBuf> {
        let mut roots: Vec<PathBuf> = catalog.roots.iter().map(|r| r.path.clone()).collect();
        roots.push(self.home.root.clone());
        roots
    }

    /// Every finding of one skill.
    pub fn check_skill(&self, catalog: &Catalog, index: usize) -> Vec<Finding> {
        let skill: &CatalogSkill = &catalog.skills[index];
        let mut findings = Vec::new();
        let roots = self.diagnostic_roots(catalog);
        let mut sink = Sink {
            findings: &mut findings,
            skill: Some((index, skill.skill_md.clone())),
            skill_name: Some(skill.name.clone()),
            path: skill.skill_md.clone(),
            rel_path: relative(&skill.skill_md, &roots),
        };
        // One walk of the skill folder serves every rule on its files.
        let files = if skill.db_row.is_some() { Vec::new() } else { super::paths::rglob_all(&skill.skill_dir) };
        let text = super::source::read_text(&skill.skill_md);
        match &text {
            Ok(text) => {
                frontmatter_rules::check(self, catalog, index, text, &mut sink);
                content::check(skill, text, &files, &mut sink);
            }
            Err(e) => sink.add(
                "hermes-unreadable",
                None,
                format!("Hermes cannot read this SKILL.md and skips the skill: {e}"),
            ),
        }
        content::check_files(skill, &files, &roots, &mut findings, index);
        guard::check_skill_dir(skill, text.as_deref().ok(), &files, index, &roots, &mut findings);
        findings
    }

    /// The findings of every skill of a catalog (no home-level rules).
    pub fn check_skills(&self, catalog: &Catalog, progress: &Progress) -> Vec<Finding> {
        let indices: Vec<usize> = (0..catalog.skills.len()).collect();
        progress.total.fetch_add(indices.len(), Ordering::Relaxed);
        let per_skill = super::parallel_map(&indices, |&i| {
            let found = self.check_skill(catalog, i);
            progress.done.fetch_add(1, Ordering::Relaxed);
            found
        });
        per_skill.into_iter().flatten().collect()
    }

    /// Every finding in the home: each skill, the config, the bundles.
    pub fn check_home(&self, catalog: &Catalog) -> Vec<Finding> {
        self.check_home_with(catalog, &Progress::default())
    }

    /// [`Engine::check_home`], counting checked skills in `progress`.
    pub fn check_home_with(&self, catalog: &Catalog, progress: &Progress) -> Vec<Finding> {
        let mut findings = self.check_skills(catalog, progress);
        home_rules::check(self, catalog, &self.diagnostic_roots(catalog), &mut findings);
        bundles::check(self, catalog, &self.diagnostic_roots(catalog), &mut findings);
        findings
    }
}

/// How far a check has got, readable from another thread while it runs.
#[derive(Debug, Default)]
pub struct Progress {
    done: AtomicUsize,
    total: AtomicUsize,
}

impl Progress {
    /// Skills checked so far.
    pub fn done(&self) -> usize {
        self.done.load(Ordering::Relaxed)
    }

    /// Skills to check (grows as each layer's skills are counted).
    pub fn total(&self) -> usize {
        self.total.load(Ordering::Relaxed)
    }
}

/// Findings for a skill stored as text only (a database row): the rules
/// that read the file itself, not its folder.
pub fn check_text_skill(name: &str, text: &str, rel_path: &str, findings: &mut Vec<Finding>) {
    let mut sink = Sink {
        findings,
        skill: None,
        skill_name: Some(name.to_owned()),
        path: PathBuf::from(rel_path),
        rel_path: rel_path.to_owned(),
    };
    let (fm, _) = super::frontmatter::parse(text);
    let stripped = text.strip_prefix('\u{feff}').unwrap_or(text);
    match &fm.kind {
        super::frontmatter::FrontmatterKind::None if stripped.starts_with("---") => {
            sink.add("hermes-fence-unclosed", Some(1), "no closing `---` line followed by a newline: no frontmatter")
        }
        super::frontmatter::FrontmatterKind::Fallback(err) => sink.add(
            "hermes-yaml-fallback",
            None,
            format!("YAML error ({err}); Hermes splits `key: value` lines instead"),
        ),
        super::frontmatter::FrontmatterKind::NotAMapping => {
            sink.add("hermes-frontmatter-not-mapping", Some(2), "the frontmatter is not a mapping")
        }
        _ => {}
    }
    match fm.get("name") {
        None => sink.add("spec-name-missing", Some(1), "no `name` in the stored SKILL.md"),
        Some(super::value::Value::Str(_)) => {}
        Some(other) => sink.add("hermes-name-not-string", None, format!("name is {}", super::gates::type_name(other))),
    }
    if !fm.get("description").is_some_and(super::value::Value::truthy) {
        sink.add("spec-description-missing", Some(1), "no description in the stored SKILL.md");
    }
    for (range, cmd) in super::preprocess::inline_shell_snippets(text) {
        let line = super::source::line_at(text, range.start);
        sink.add(
            "hermes-inline-shell",
            Some(line),
            format!("!`{cmd}` runs on the host only when skills.inline_shell is enabled"),
        );
    }
    for (id, severity, line, message, excerpt) in guard::scan_text(text) {
        let message = if excerpt.is_empty() { message } else { format!("{message}: \"{excerpt}\"") };
        let hint = "Hermes' skills guard flags this when the skill is installed from a hub; rephrase it, or make sure it is what you mean.";
        sink.add_with(&format!("{}{id}", rules::GUARD_FAMILY), severity, Some(line), message, hint);
    }
}

/// The worst severity among findings, if any.
pub fn worst(findings: &[Finding]) -> Option<Severity> {
    findings.iter().map(|f| f.severity).max()
}
