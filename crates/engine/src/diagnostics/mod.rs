//! Author diagnostics: the agentskills.io specification, and what Hermes
//! 0.19.0 silently does with a skill (truncates, hides, skips, refuses,
//! ignores). Each finding names its rule, file and line, and says what to do.

pub(crate) mod bundles;
mod content;
pub(crate) mod frontmatter_rules;
pub mod guard;
pub(crate) mod home_rules;
pub(crate) mod index_rules;
pub mod rules;

pub use rules::{rule, RuleInfo, RULES};

use super::catalog::{Catalog, CatalogSkill};
pub(crate) use super::discover::is_noted_md;
use super::paths::TreeFile;
use super::source::TextPositions;
use super::Engine;
use serde_json::{json, Value as Json};
use std::borrow::Cow;
use std::collections::HashMap;
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::sync::Arc;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum Severity {
    /// The lowest: a threshold at it keeps everything.
    #[default]
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

    /// 0 for info, 1 for warning, 2 for error.
    pub fn index(self) -> usize {
        self as usize
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

/// One problem found. A big home has hundreds of thousands: what many
/// share (the rule, the hint, the file, the skill) is shared, not copied.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    pub rule: Cow<'static, str>,
    pub severity: Severity,
    /// The skill it concerns (its catalog index), if any.
    pub skill: Option<usize>,
    pub skill_name: Option<Arc<str>>,
    /// That skill's SKILL.md, which identifies it across catalogs.
    pub skill_md: Option<Arc<Path>>,
    /// The file, absolute.
    pub path: Arc<Path>,
    /// The file relative to its root (skills dir, external dir, or home).
    pub rel_path: Arc<str>,
    /// 1-based.
    pub line: Option<usize>,
    /// 1-based, in characters, where the finding points into its line.
    pub column: Option<usize>,
    pub message: String,
    pub hint: Cow<'static, str>,
    /// Findings of its rule in its file made after it and not kept, counted
    /// here ([`PerRule`]): a file with millions holds one, not millions.
    pub left_out: usize,
}

impl Finding {
    pub fn to_json(&self) -> Json {
        json!({
            "rule": self.rule,
            "code": self.code(),
            "severity": self.severity.name(),
            "skill": self.skill_name.as_deref(),
            "path": &*self.rel_path,
            "line": self.line,
            "column": self.column,
            "message": self.message,
            "hint": self.hint,
        })
    }

    /// Its rule's short code (`H024`).
    pub fn code(&self) -> &'static str {
        rules::code_of(&self.rule).unwrap_or("")
    }
}

/// Collects findings for one file.
pub(crate) struct Sink<'a> {
    pub findings: &'a mut Vec<Finding>,
    /// The SKILL.md of the skill concerned (its catalog index is set by
    /// whoever knows it, see [`Engine::check_skill`]).
    pub skill_md: Option<Arc<Path>>,
    pub skill_name: Option<Arc<str>>,
    pub path: Arc<Path>,
    pub rel_path: Arc<str>,
    pub per_rule: PerRule,
}

impl Sink<'_> {
    /// Adds a finding of a registered rule.
    pub fn add(&mut self, rule_id: &'static str, line: Option<usize>, message: impl Into<String>) {
        let info = rule(rule_id);
        self.add_with(
            rule_id.into(),
            info.map_or(Severity::Warning, |r| r.severity),
            line,
            message,
            info.map_or("", |r| r.hint),
        );
    }

    pub fn add_with(
        &mut self,
        rule_id: Cow<'static, str>,
        severity: Severity,
        line: Option<usize>,
        message: impl Into<String>,
        hint: &'static str,
    ) {
        if self.per_rule.counted(self.findings, &rule_id, severity) {
            return;
        }
        self.per_rule.push(
            self.findings,
            Finding {
                rule: rule_id,
                severity,
                skill: None,
                skill_name: self.skill_name.clone(),
                skill_md: self.skill_md.clone(),
                path: self.path.clone(),
                rel_path: self.rel_path.clone(),
                line,
                column: None,
                message: message.into(),
                hint: hint.into(),
                left_out: 0,
            },
        );
    }

    /// Adds a finding of a registered rule pointing at `byte` of the
    /// file's text: its line and column.
    pub fn add_at(&mut self, rule_id: &'static str, text: &TextPositions, byte: usize, message: impl Into<String>) {
        self.add_pointing(rule_id, text.line_column_at(byte), message);
    }

    /// Adds a finding of a registered rule at a (line, column).
    pub fn add_pointing(&mut self, rule_id: &'static str, (line, column): (usize, usize), message: impl Into<String>) {
        let before = self.findings.len();
        self.add(rule_id, Some(line), message);
        if self.findings.len() > before {
            if let Some(f) = self.findings.last_mut() {
                f.column = Some(column);
            }
        }
    }
}

/// A path relative to the first root containing it, else the home, else as is.
pub(crate) fn relative(path: &Path, roots: &[PathBuf]) -> Arc<str> {
    for root in roots {
        if let Ok(rel) = path.strip_prefix(root) {
            return super::paths::rel_string(rel).into();
        }
    }
    super::paths::path_string(path).into()
}

impl Engine {
    pub fn diagnostic_roots(&self, catalog: &Catalog) -> Vec<PathBuf> {
        let mut roots: Vec<PathBuf> = catalog.roots.iter().map(|r| r.path.clone()).collect();
        // An overlaid catalog's skills that differ are in the roots' written copy.
        if let Some(overlay) = &catalog.overlay {
            let written: Vec<PathBuf> =
                roots.iter().filter(|r| r.starts_with(&overlay.real_top)).map(|r| overlay.actual_root(r)).collect();
            roots.extend(written);
        }
        roots.push(self.home.root.clone());
        roots
    }

    /// The findings of one skill that depend on nothing but the skill: its
    /// SKILL.md (`text`, or why it cannot be read) and its folder's files
    /// ([`skill_files`]). Their catalog index is left for the caller to set.
    pub(crate) fn own_findings(
        &self,
        skill: &CatalogSkill,
        text: Result<&str, String>,
        files: &[TreeFile],
        roots: &[PathBuf],
    ) -> Vec<Finding> {
        let mut findings = Vec::new();
        let mut sink = skill_sink(&mut findings, skill, roots);
        let mut scanned = None;
        match &text {
            Ok(text) => {
                let scan = crate::guard::patterns::scan_flagging(text);
                frontmatter_rules::check(self, skill, text, &mut sink);
                content::check(skill, text, &scan.flagged, files, &mut sink);
                fill_columns(sink.findings, text);
                scanned = Some((*text, scan.hits));
            }
            Err(e) => sink.add(
                "hermes-unreadable",
                None,
                format!(
                    "Hermes cannot read this SKILL.md: the index names the skill by its folder alone, skill_view fails, and skills_list and slash commands skip it: {e}"
                ),
            ),
        }
        content::check_files(skill, files, roots, &mut findings);
        guard::check_skill_dir(skill, scanned, files, roots, &mut findings);
        at_most_per_file_and_rule(&mut findings, FINDINGS_PER_FILE_AND_RULE_AT_MOST);
        findings
    }
}

/// The findings of each rule made for one file: past one more than
/// [`FINDINGS_PER_FILE_AND_RULE_AT_MOST`] (the first of those left out,
/// which [`at_most_per_file_and_rule`] turns into their count), a finding
/// is only counted, on that one.
#[derive(Debug, Default)]
pub(crate) struct PerRule {
    /// Per rule: how many are kept, and where the last one kept is.
    kept: HashMap<Cow<'static, str>, (usize, usize)>,
}

impl PerRule {
    /// Whether a finding of `rule` would be one too many: then it is
    /// counted on the last kept, and need not be made.
    pub(crate) fn counted(&self, findings: &mut [Finding], rule: &str, severity: Severity) -> bool {
        match self.kept.get(rule) {
            Some(&(kept, at)) if kept > FINDINGS_PER_FILE_AND_RULE_AT_MOST => match findings.get_mut(at) {
                Some(last) => {
                    last.left_out += 1;
                    last.severity = last.severity.max(severity);
                    true
                }
                None => false,
            },
            _ => false,
        }
    }

    /// Keeps `finding` (one [`PerRule::counted`] said to make).
    pub(crate) fn push(&mut self, findings: &mut Vec<Finding>, finding: Finding) {
        let at = findings.len();
        match self.kept.get_mut(&finding.rule) {
            Some((kept, last)) => {
                *kept += 1;
                *last = at;
            }
            None => {
                self.kept.insert(finding.rule.clone(), (1, at));
            }
        }
        findings.push(finding);
    }
}

/// How many findings of one rule one file lists: a file with one on every
/// line (a 50 MB SKILL.md of guard matches made two million) says it in
/// the first, and one more finding counts the rest.
pub const FINDINGS_PER_FILE_AND_RULE_AT_MOST: usize = 200;

/// Keeps the first `most` findings of each rule in each file (in the order
/// made) and, where more were made, adds one at the first left out that
/// counts them, at the highest severity among them.
fn at_most_per_file_and_rule(findings: &mut Vec<Finding>, most: usize) {
    if findings.len() <= most {
        return;
    }
    let mut counts: HashMap<(&Path, &str), usize> = HashMap::new();
    let keep: Vec<bool> = findings
        .iter()
        .map(|f| {
            let n = counts.entry((&*f.path, &*f.rule)).or_default();
            *n += 1;
            *n <= most
        })
        .collect();
    if keep.iter().all(|&k| k) {
        return;
    }
    let mut left_out: Vec<(Finding, usize)> = Vec::new();
    for (f, &kept) in findings.iter().zip(&keep) {
        if kept {
            continue;
        }
        match left_out.iter_mut().find(|(first, _)| first.path == f.path && first.rule == f.rule) {
            Some((first, n)) => {
                *n += 1 + f.left_out;
                first.severity = first.severity.max(f.severity);
            }
            None => left_out.push((f.clone(), 1 + f.left_out)),
        }
    }
    let mut marks = keep.iter();
    findings.retain(|_| marks.next().copied().unwrap_or(true));
    for (mut first, n) in left_out {
        first.left_out = 0;
        first.message = format!(
            "{} more {} finding{} in this file from here on, not listed (the first {most} are)",
            crate::words::thousands(n),
            first.rule,
            if n == 1 { "" } else { "s" }
        );
        findings.push(first);
    }
}

/// Points the findings on a line that do not say where in it at the
/// line's first character that is not blank (`text` is their file's).
pub(crate) fn fill_columns(findings: &mut [Finding], text: &str) {
    // The lines split once: a file of thousands of findings is not split
    // again for each.
    let mut lines: Option<Vec<&str>> = None;
    for f in findings.iter_mut().filter(|f| f.column.is_none()) {
        if let Some(line) = f.line {
            let lines = lines.get_or_insert_with(|| text.split('\n').collect());
            let column = lines.get(line.saturating_sub(1)).map_or(1, |l| super::source::first_column(l));
            f.column = Some(column);
        }
    }
}

/// Completes a skill's own findings once the catalog is linked: its name
/// collisions (from its `text`, when there is one) and its catalog index.
pub(crate) fn linked_findings(
    catalog: &Catalog,
    index: usize,
    text: Option<&str>,
    roots: &[PathBuf],
    found: &mut Vec<Finding>,
) {
    if let Some(text) = text {
        let mut sink = skill_sink(found, &catalog.skills[index], roots);
        frontmatter_rules::check_collisions(catalog, index, text, &mut sink);
        fill_columns(found, text);
    }
    for f in found {
        f.skill = Some(index);
    }
}

/// A skill folder's `rglob("*")`: one listing serves every rule on its files.
pub(crate) fn skill_files(skill: &CatalogSkill) -> Vec<TreeFile> {
    if skill.db_row.is_some() {
        Vec::new()
    } else {
        super::paths::rglob_all(&skill.skill_dir)
    }
}

pub(crate) fn md_file_names(files: &[TreeFile]) -> Vec<OsString> {
    files.iter().filter_map(|f| f.path.file_name()).filter(|n| is_noted_md(n)).map(OsStr::to_os_string).collect()
}

/// The sink for findings on a skill's SKILL.md.
fn skill_sink<'a>(findings: &'a mut Vec<Finding>, skill: &CatalogSkill, roots: &[PathBuf]) -> Sink<'a> {
    let skill_md: Arc<Path> = skill.skill_md.as_path().into();
    Sink {
        findings,
        skill_md: Some(skill_md.clone()),
        skill_name: Some(skill.name.as_str().into()),
        path: skill_md,
        rel_path: relative(&skill.skill_md, roots),
        per_rule: Default::default(),
    }
}

/// Why a SKILL.md the walk found has no text.
pub(crate) fn read_error(skill: &CatalogSkill) -> String {
    skill.read_error.clone().unwrap_or_else(|| "unreadable".to_owned())
}

/// Findings for a skill stored as text only (a database row): the rules
/// that read the file itself, not its folder.
pub fn check_text_skill(name: &str, text: &str, rel_path: &str, findings: &mut Vec<Finding>) {
    let mut sink = Sink {
        findings,
        skill_md: None,
        skill_name: Some(name.into()),
        path: Path::new(rel_path).into(),
        rel_path: rel_path.into(),
        per_rule: Default::default(),
    };
    let (fm, _) = super::frontmatter::parse(text);
    let stripped = text.strip_prefix('\u{feff}').unwrap_or(text);
    match &fm.kind {
        super::frontmatter::FrontmatterKind::None if stripped.starts_with("---") => {
            sink.add("hermes-fence-unclosed", Some(1), "no closing `---` line followed by a newline: no frontmatter")
        }
        super::frontmatter::FrontmatterKind::Fallback(err) => sink.add(
            "hermes-yaml-fallback",
            err.line,
            format!("PyYAML refuses the frontmatter ({}); Hermes splits `key: value` lines instead", err.reason()),
        ),
        super::frontmatter::FrontmatterKind::NotAMapping => {
            sink.add("hermes-frontmatter-not-mapping", Some(2), "the frontmatter is not a mapping")
        }
        _ => {}
    }
    match fm.get("name") {
        None => sink.add("spec-name-missing", Some(1), "no `name` in the stored SKILL.md"),
        Some(super::value::Value::Str(_)) => {}
        Some(other) => sink.add("hermes-name-not-string", None, format!("name is {}", other.type_name())),
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
    fill_columns(sink.findings, text);
    for crate::guard::patterns::Hit { id, line, column, message, excerpt } in crate::guard::patterns::scan_text(text) {
        let message = if excerpt.is_empty() { message } else { format!("{message}: \"{excerpt}\"") };
        sink.add_with(guard::rule_id(id), Severity::Info, Some(line), message, guard::HINT);
        if let Some(f) = sink.findings.last_mut() {
            f.column = Some(column);
        }
    }
}

/// The findings copied into memory of this thread's own, what several
/// shared still shared. Findings made on a walk's threads sit among the
/// strings of the catalog made with them; kept, they would hold its pages
/// after it is dropped (at 100,000 skills, about 40 MB).
pub fn compacted(findings: Vec<Finding>) -> Vec<Finding> {
    // Keyed by the address of what the originals share: they live until the end.
    let mut strs: HashMap<*const u8, Arc<str>> = HashMap::new();
    let mut paths: HashMap<*const u8, Arc<Path>> = HashMap::new();
    let mut copy_str = |s: &Arc<str>| strs.entry(s.as_ptr()).or_insert_with(|| Arc::from(&**s)).clone();
    let mut copy_path = |p: &Arc<Path>| {
        let at = p.as_os_str().as_encoded_bytes().as_ptr();
        paths.entry(at).or_insert_with(|| Arc::from(&**p)).clone()
    };
    let copy = |c: &Cow<'static, str>| match c {
        Cow::Borrowed(b) => Cow::Borrowed(*b),
        Cow::Owned(o) => Cow::Owned(o.as_str().to_owned()),
    };
    let copies = findings
        .iter()
        .map(|f| Finding {
            rule: copy(&f.rule),
            severity: f.severity,
            skill: f.skill,
            skill_name: f.skill_name.as_ref().map(&mut copy_str),
            skill_md: f.skill_md.as_ref().map(&mut copy_path),
            path: copy_path(&f.path),
            rel_path: copy_str(&f.rel_path),
            line: f.line,
            column: f.column,
            message: f.message.as_str().to_owned(),
            hint: copy(&f.hint),
            left_out: f.left_out,
        })
        .collect();
    drop(findings);
    copies
}

/// The worst severity among findings, if any.
pub fn worst(findings: &[Finding]) -> Option<Severity> {
    findings.iter().map(|f| f.severity).max()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A rule firing a thousand times in one file keeps 201 findings as
    /// they are made, the last counting those after it; the count finding
    /// then says all 800 left out. Another rule keeps its own.
    #[test]
    fn past_the_cap_findings_are_counted_not_made() {
        let mut findings = Vec::new();
        let mut sink = Sink {
            findings: &mut findings,
            skill_md: None,
            skill_name: None,
            path: Path::new("/h/skills/a/SKILL.md").into(),
            rel_path: "a/SKILL.md".into(),
            per_rule: PerRule::default(),
        };
        for line in 1..=1000 {
            sink.add("hermes-inline-shell", Some(line), format!("snippet {line}"));
            if line % 100 == 0 {
                sink.add("hermes-template-unknown", Some(line), "other");
            }
        }
        assert_eq!(findings.len(), FINDINGS_PER_FILE_AND_RULE_AT_MOST + 1 + 10);
        let last = findings.iter().rfind(|f| f.rule == "hermes-inline-shell").expect("kept");
        assert_eq!((last.line, last.left_out), (Some(201), 799));
        at_most_per_file_and_rule(&mut findings, FINDINGS_PER_FILE_AND_RULE_AT_MOST);
        let counted = findings.iter().find(|f| f.message.contains("more")).expect("a count");
        assert_eq!(
            counted.message,
            "800 more hermes-inline-shell findings in this file from here on, not listed (the first 200 are)"
        );
        assert_eq!((counted.line, counted.left_out), (Some(201), 0));
        assert_eq!(findings.iter().filter(|f| f.rule == "hermes-template-unknown").count(), 10);
    }

    #[test]
    fn compacted_findings_are_equal_copies_sharing_as_before() {
        let path: Arc<Path> = Path::new("/h/skills/a/SKILL.md").into();
        let rel: Arc<str> = "a/SKILL.md".into();
        let finding = |line, message: &str| Finding {
            rule: Cow::Owned(format!("guard-{line}")),
            severity: Severity::Warning,
            skill: Some(3),
            skill_name: Some("a".into()),
            skill_md: Some(path.clone()),
            path: path.clone(),
            rel_path: rel.clone(),
            line: Some(line),
            column: Some(1),
            message: message.into(),
            hint: "static hint".into(),
            left_out: 0,
        };
        let originals = vec![finding(1, "one"), finding(2, "two")];
        let copies = compacted(originals.clone());
        assert_eq!(copies, originals);
        assert!(!Arc::ptr_eq(&copies[0].path, &path), "a copy, not the original");
        assert!(Arc::ptr_eq(&copies[0].path, &copies[1].path), "the file is still shared");
        assert!(Arc::ptr_eq(&copies[0].rel_path, &copies[1].rel_path));
        let skill_md = copies[1].skill_md.as_ref().expect("kept");
        assert!(Arc::ptr_eq(&copies[0].path, skill_md), "path and SKILL.md: one copy");
    }
}
