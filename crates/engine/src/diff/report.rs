//! A diff's findings: what changed for each skill and bundle, and the JSON
//! `diff --json` prints.

use super::{Answer, State};
use crate::context::Context;
use crate::cost::Size;
use serde_json::{json, Value as Json};
use std::collections::HashMap;
use std::path::Path;

/// How a skill changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChangeKind {
    Added,
    Removed,
    /// Its folder moved (and maybe more).
    Moved,
    /// Same folder, another name.
    Renamed,
    Modified,
}

impl ChangeKind {
    pub fn name(self) -> &'static str {
        match self {
            ChangeKind::Added => "added",
            ChangeKind::Removed => "removed",
            ChangeKind::Moved => "moved",
            ChangeKind::Renamed => "renamed",
            ChangeKind::Modified => "modified",
        }
    }

    /// `+`, `-`, `→`, `~` as a status column shows them.
    pub fn mark(self) -> &'static str {
        match self {
            ChangeKind::Added => "+",
            ChangeKind::Removed => "-",
            ChangeKind::Moved | ChangeKind::Renamed => "→",
            ChangeKind::Modified => "~",
        }
    }
}

/// One answer that differs.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldChange {
    pub field: &'static str,
    pub before: Json,
    pub after: Json,
}

impl FieldChange {
    pub fn new(field: &'static str, before: Json, after: Json) -> FieldChange {
        FieldChange { field, before, after }
    }
}

/// A finding, as compared across states (its line may move).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FindingRef {
    pub rule: String,
    pub severity: &'static str,
    pub file: String,
    pub line: Option<usize>,
    pub message: String,
}

impl FindingRef {
    fn key(&self) -> (&str, &str, &str) {
        (&self.rule, &self.file, &self.message)
    }

    pub fn to_json(&self) -> Json {
        json!({"rule": self.rule, "severity": self.severity, "file": self.file, "line": self.line, "message": self.message})
    }
}

/// Findings new and fixed.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FindingChanges {
    pub new: Vec<FindingRef>,
    pub fixed: Vec<FindingRef>,
}

impl FindingChanges {
    pub fn is_empty(&self) -> bool {
        self.new.is_empty() && self.fixed.is_empty()
    }
}

/// The findings in `after` not in `before` (new) and the reverse (fixed),
/// each counted as often as it occurs.
pub fn finding_changes(before: &[FindingRef], after: &[FindingRef]) -> FindingChanges {
    finding_changes_as(before, before, after)
}

/// [`finding_changes`], each of `before` compared as the same place of
/// `seen_as` says it (a moved skill's findings as they read in its new
/// folder); those fixed are given as `before` has them.
fn finding_changes_as(before: &[FindingRef], seen_as: &[FindingRef], after: &[FindingRef]) -> FindingChanges {
    let mut counts: HashMap<(&str, &str, &str), isize> = HashMap::new();
    for f in seen_as {
        *counts.entry(f.key()).or_default() += 1;
    }
    let mut new = Vec::new();
    for f in after {
        let c = counts.entry(f.key()).or_default();
        if *c > 0 {
            *c -= 1;
        } else {
            new.push(f.clone());
        }
    }
    let mut fixed = Vec::new();
    for (f, seen) in before.iter().zip(seen_as).rev() {
        let c = counts.entry(seen.key()).or_default();
        if *c > 0 {
            *c -= 1;
            fixed.push(f.clone());
        }
    }
    fixed.reverse();
    FindingChanges { new, fixed }
}

/// A moved skill's findings as they would read in its new folder: the
/// same finding there is no change.
fn relocated(findings: &[FindingRef], from: &str, to: &str) -> Vec<FindingRef> {
    let (from_inside, to_inside) = (format!("{from}/"), format!("{to}/"));
    findings
        .iter()
        .map(|f| {
            let file = match f.file.strip_prefix(&from_inside) {
                Some(rest) => format!("{to_inside}{rest}"),
                None if f.file == from => to.to_owned(),
                None => f.file.clone(),
            };
            FindingRef { file, message: f.message.replace(&from_inside, &to_inside), ..f.clone() }
        })
        .collect()
}

/// What changed for one skill.
#[derive(Debug, Clone, PartialEq)]
pub struct SkillChange {
    pub change: ChangeKind,
    pub name: String,
    /// Its folder (after; before for a removed skill).
    pub folder: String,
    pub fields: Vec<FieldChange>,
    /// Why it is not offered, before and after, when that changed.
    pub why: Option<(Option<String>, Option<String>)>,
    /// Its `/name` message before and after, when that changed.
    pub message: MessageChange,
    /// Why a side of a changed message has none though the skill has a
    /// slash command there (`skill_view`'s error: an ambiguous name, ...).
    pub message_refused: (Option<String>, Option<String>),
    /// The guard's install decisions that changed, per trust level.
    pub decisions: Vec<FieldChange>,
    pub findings: FindingChanges,
    /// Its index cost before and after.
    pub index: (Size, Size),
    /// Its SKILL.md as read in each state (none where it does not exist);
    /// a revision's are in the folder its tree was written to.
    pub files: (Option<std::path::PathBuf>, Option<std::path::PathBuf>),
}

fn offered_fields(a: &Answer) -> Vec<(&'static str, Json)> {
    vec![
        ("offered", json!(a.offered)),
        ("index_line", json!(a.line)),
        ("command", json!(a.command)),
        ("required_env", json!(a.required_env)),
        ("credential_files", json!(a.credential_files)),
        ("missing_env", json!(a.missing_env)),
        ("missing_files", json!(a.missing_files)),
    ]
}

/// The answers a skill that exists in one state only has: `offered`
/// always, the rest when it has them.
fn present_fields(a: &Answer) -> impl Iterator<Item = (&'static str, Json)> {
    offered_fields(a)
        .into_iter()
        .filter(|(field, v)| *field == "offered" || !(v.is_null() || v.as_array().is_some_and(Vec::is_empty)))
}

impl SkillChange {
    fn blank(change: ChangeKind, a: &Answer) -> SkillChange {
        SkillChange {
            change,
            name: a.name.clone(),
            folder: a.folder.clone(),
            fields: Vec::new(),
            why: None,
            message: None,
            message_refused: (None, None),
            decisions: Vec::new(),
            findings: FindingChanges::default(),
            index: (Size::default(), Size::default()),
            files: (None, None),
        }
    }

    pub(super) fn gone(a: &Answer) -> SkillChange {
        let mut c = SkillChange::blank(ChangeKind::Removed, a);
        c.fields = present_fields(a).map(|(f, v)| FieldChange::new(f, v, Json::Null)).collect();
        c.findings.fixed = a.findings.clone();
        c.index = (a.size, Size::default());
        c.files = (Some(a.skill_md.clone()), None);
        c
    }

    pub(super) fn arrived(a: &Answer) -> SkillChange {
        let mut c = SkillChange::blank(ChangeKind::Added, a);
        c.fields = present_fields(a).map(|(f, v)| FieldChange::new(f, Json::Null, v)).collect();
        c.findings.new = a.findings.clone();
        c.index = (Size::default(), a.size);
        c.files = (None, Some(a.skill_md.clone()));
        c
    }

    pub(super) fn between(o: &Answer, n: &Answer) -> SkillChange {
        let change = if o.folder != n.folder {
            ChangeKind::Moved
        } else if o.name != n.name {
            ChangeKind::Renamed
        } else {
            ChangeKind::Modified
        };
        let mut c = SkillChange::blank(change, n);
        let mut push = |field: &'static str, before: Json, after: Json| {
            if before != after {
                c.fields.push(FieldChange::new(field, before, after));
            }
        };
        push("folder", json!(o.folder), json!(n.folder));
        push("name", json!(o.name), json!(n.name));
        push("category", json!(o.category), json!(n.category));
        for ((field, before), (_, after)) in offered_fields(o).into_iter().zip(offered_fields(n)) {
            push(field, before, after);
        }
        c.findings = match o.folder == n.folder {
            true => finding_changes(&o.findings, &n.findings),
            false => finding_changes_as(&o.findings, &relocated(&o.findings, &o.folder, &n.folder), &n.findings),
        };
        c.index = (o.size, n.size);
        c.files = (Some(o.skill_md.clone()), Some(n.skill_md.clone()));
        c
    }

    /// Nothing the agent gets changed, nor any finding.
    pub fn is_empty(&self) -> bool {
        self.change == ChangeKind::Modified && !self.changes_agent() && self.findings.is_empty()
    }

    /// What the agent gets changed (not only findings).
    pub fn changes_agent(&self) -> bool {
        self.change != ChangeKind::Modified
            || !self.fields.is_empty()
            || self.message.is_some()
            || !self.decisions.is_empty()
    }

    /// The unified diff of its message, paths as on the chosen backend.
    pub fn message_diff(&self) -> Option<String> {
        message_diff(&self.message)
    }

    /// The message diff where both sides have a message. Where one has
    /// none, its diff is the other's whole text, added or removed, which
    /// tells a reader less than why and how long it was
    /// ([`SkillChange::message_absences`]).
    pub fn message_diff_of_both(&self) -> Option<String> {
        match &self.message {
            Some((Some(_), Some(_))) => self.message_diff(),
            _ => None,
        }
    }

    /// A line for each side of its changed message that has none: why
    /// (when the lookup refused the name), and the other side's length:
    /// "no message after: Ambiguous skill name ... (before: 288 lines)".
    pub fn message_absences(&self) -> Vec<String> {
        let Some((before, after)) = &self.message else { return Vec::new() };
        let (why_before, why_after) = &self.message_refused;
        let lines = |text: &str| match text.lines().count() {
            1 => "1 line".to_owned(),
            n => format!("{n} lines"),
        };
        let mut out = Vec::new();
        for (side, text, why, other_side, other) in
            [("before", before, why_before, "after", after), ("after", after, why_after, "before", before)]
        {
            if text.is_some() {
                continue;
            }
            let why = why.as_ref().map(|why| format!(": {why}")).unwrap_or_default();
            let other = other.as_deref().map(|o| format!(" ({other_side}: {})", lines(o))).unwrap_or_default();
            out.push(format!("no message {side}{why}{other}"));
        }
        out
    }

    pub fn to_json(&self) -> Json {
        let mut fields = serde_json::Map::new();
        for f in self.fields.iter().chain(&self.decisions) {
            fields.insert(f.field.into(), json!({"before": f.before, "after": f.after}));
        }
        if let Some((before, after)) = &self.why {
            fields.insert("why_not_offered".into(), json!({"before": before, "after": after}));
        }
        if self.index.0 != self.index.1 {
            fields.insert(
                "index_cost".into(),
                json!({"before": size_json(&self.index.0), "after": size_json(&self.index.1)}),
            );
        }
        insert_message(&mut fields, &self.message);
        if let (Some(message), (before, after)) = (fields.get_mut("message"), &self.message_refused) {
            if before.is_some() || after.is_some() {
                message["refused"] = json!({"before": before, "after": after});
            }
        }
        let mut out = json!({
            "change": self.change.name(),
            "name": self.name,
            "folder": self.folder,
            "fields": fields,
        });
        if !self.findings.is_empty() {
            out["findings"] = findings_json(&self.findings);
        }
        out
    }
}

/// A message before and after: absent on a side where it cannot be made.
pub type MessageChange = Option<(Option<String>, Option<String>)>;

fn message_diff(message: &MessageChange) -> Option<String> {
    let (before, after) = message.as_ref()?;
    Some(unified(before.as_deref().unwrap_or(""), after.as_deref().unwrap_or(""), "before", "after"))
}

fn insert_message(fields: &mut serde_json::Map<String, Json>, message: &MessageChange) {
    if let Some((before, after)) = message {
        fields.insert("message".into(), json!({"before": before, "after": after, "diff": message_diff(message)}));
    }
}

fn size_json(size: &Size) -> Json {
    json!({"chars": size.chars, "tokens": size.tokens})
}

fn findings_json(f: &FindingChanges) -> Json {
    json!({
        "new": f.new.iter().map(FindingRef::to_json).collect::<Vec<_>>(),
        "fixed": f.fixed.iter().map(FindingRef::to_json).collect::<Vec<_>>(),
    })
}

/// `git diff`-style unified text of two versions.
pub fn unified(before: &str, after: &str, old_name: &str, new_name: &str) -> String {
    similar::TextDiff::from_lines(before, after).unified_diff().context_radius(3).header(old_name, new_name).to_string()
}

/// What changed for one bundle.
#[derive(Debug, Clone, PartialEq)]
pub struct BundleChange {
    pub slug: String,
    pub change: ChangeKind,
    pub fields: Vec<FieldChange>,
    pub message: MessageChange,
}

impl BundleChange {
    pub fn message_diff(&self) -> Option<String> {
        message_diff(&self.message)
    }

    pub fn to_json(&self) -> Json {
        let mut fields = serde_json::Map::new();
        for f in &self.fields {
            fields.insert(f.field.into(), json!({"before": f.before, "after": f.after}));
        }
        insert_message(&mut fields, &self.message);
        json!({"change": self.change.name(), "bundle": self.slug, "fields": fields})
    }
}

/// A category whose own line of the index changed (its `DESCRIPTION.md`,
/// or shown names-only), or that one state's index lacks.
#[derive(Debug, Clone, PartialEq)]
pub struct CategoryChange {
    pub name: String,
    pub change: ChangeKind,
    /// Its line (`  name: description`), before and after.
    pub line: FieldChange,
}

impl CategoryChange {
    pub fn to_json(&self) -> Json {
        let line = json!({"before": self.line.before, "after": self.line.after});
        json!({"change": self.change.name(), "category": self.name, "fields": {self.line.field: line}})
    }
}

/// The categories whose line in the index differs between the states, in
/// the later index's order, then those only the earlier has.
pub(super) fn category_changes(
    before: &crate::prompt::PromptIndex,
    after: &crate::prompt::PromptIndex,
) -> Vec<CategoryChange> {
    // A big home has thousands of categories: looked up by name.
    fn headers(index: &crate::prompt::PromptIndex) -> Vec<(&str, &str)> {
        index.categories.iter().map(|c| (c.name.as_str(), c.header.trim_end())).collect()
    }
    let (old, new) = (headers(before), headers(after));
    let (old_by_name, new_by_name): (HashMap<&str, &str>, HashMap<&str, &str>) =
        (old.iter().copied().collect(), new.iter().copied().collect());
    let mut changes = Vec::new();
    for &(name, header) in &new {
        let (change, was) = match old_by_name.get(name) {
            Some(&was) if was == header => continue,
            Some(&was) => (ChangeKind::Modified, Json::from(was)),
            None => (ChangeKind::Added, Json::Null),
        };
        let line = FieldChange::new("index_line", was, Json::from(header));
        changes.push(CategoryChange { name: name.to_owned(), change, line });
    }
    for &(name, header) in old.iter().filter(|(name, _)| !new_by_name.contains_key(name)) {
        let line = FieldChange::new("index_line", Json::from(header), Json::Null);
        changes.push(CategoryChange { name: name.to_owned(), change: ChangeKind::Removed, line });
    }
    changes
}

/// Bundles added, removed, or whose composition or message changed.
/// Messages are rendered for the bundles whose composition changed and those
/// `renders` picks (a member's message changed).
pub(super) fn bundle_changes(
    before_ctx: &Context,
    after_ctx: &Context,
    before: &State,
    after: &State,
    renders: &(dyn Fn(&crate::bundles::Bundle) -> bool + Sync),
) -> Vec<BundleChange> {
    let (old, new) = (&before.catalog.bundles.bundles, &after.catalog.bundles.bundles);
    let session = |s: &State| Some(s.engine.options.session_id.clone());
    let message = |ctx: &Context, state: &State, slug: &str| {
        ctx.bundle_message(slug, "", session(state).as_deref()).map(|(text, _, _)| state.shown_text(&text))
    };
    // The members as the state's bundle rules looked them up (looked up
    // here only for a bundle they did not see).
    let describe = |ctx: &Context, state: &State, slug: &str| -> Option<Json> {
        let b = ctx.bundles().bundles.get(slug)?;
        let looked_up;
        let members = match state.bundle_members.get(slug) {
            Some(members) => members,
            None => {
                looked_up = ctx.bundle_members(b);
                &looked_up
            }
        };
        let members: Vec<Json> =
            members.iter().map(|(name, status)| json!({"skill": name, "status": member_status(status)})).collect();
        Some(json!({"name": b.name, "description": b.description, "instruction": b.instruction, "skills": members}))
    };
    let mut slugs: Vec<&String> = old.keys().chain(new.keys()).collect();
    slugs.sort();
    slugs.dedup();
    // Each bundle's members are loaded in both states: on all cores.
    let changes = crate::parallel_map_min(&slugs, 8, |&slug| {
        let (b, a) = (describe(before_ctx, before, slug), describe(after_ctx, after, slug));
        let change = match (&b, &a) {
            (None, Some(_)) => ChangeKind::Added,
            (Some(_), None) => ChangeKind::Removed,
            _ => ChangeKind::Modified,
        };
        let mut fields = Vec::new();
        if b != a {
            fields.push(FieldChange::new("composition", b.unwrap_or(Json::Null), a.unwrap_or(Json::Null)));
        }
        let picked = |ctx: &Context| ctx.bundles().bundles.get(slug).is_some_and(renders);
        let message = if !fields.is_empty() || picked(before_ctx) || picked(after_ctx) {
            let (mb, ma) = (message(before_ctx, before, slug), message(after_ctx, after, slug));
            (mb != ma).then_some((mb, ma))
        } else {
            None
        };
        (!fields.is_empty() || message.is_some()).then(|| BundleChange { slug: slug.clone(), change, fields, message })
    });
    changes.into_iter().flatten().collect()
}

fn member_status(status: &crate::messages::MemberStatus) -> String {
    use crate::messages::MemberStatus;
    match status {
        MemberStatus::Loaded(name) => format!("loaded as {name}"),
        MemberStatus::Missing(why) => format!("missing: {}", why.reason()),
        MemberStatus::Disabled(name) => format!("{name} is disabled: skipped"),
    }
}

/// What a change does to the agent.
#[derive(Debug, Clone, PartialEq)]
pub struct DiffReport {
    /// Changed skills, in the order the states list them.
    pub skills: Vec<SkillChange>,
    pub bundles: Vec<BundleChange>,
    /// Categories whose own line of the index changed.
    pub categories: Vec<CategoryChange>,
    /// Findings of no one skill (config, bundles, the home).
    pub home_findings: FindingChanges,
    pub index_before: Size,
    pub index_after: Size,
    /// The index's text differs.
    pub index_changed: bool,
    /// What was left aside or taken as it is (submodules, large files,
    /// external dirs).
    pub notes: Vec<String>,
}

impl DiffReport {
    /// What the agent gets changed: a skill, a bundle, the index.
    pub fn changes_agent(&self) -> bool {
        self.index_changed || !self.bundles.is_empty() || self.skills.iter().any(SkillChange::changes_agent)
    }

    /// How many skills changed each way.
    pub fn counts(&self) -> [(ChangeKind, usize); 5] {
        let count = |k: ChangeKind| self.skills.iter().filter(|s| s.change == k).count();
        [ChangeKind::Added, ChangeKind::Removed, ChangeKind::Moved, ChangeKind::Renamed, ChangeKind::Modified]
            .map(|k| (k, count(k)))
    }

    /// The report as a person reads it: a folder or file shown by its
    /// absolute path (a skill of an external dir) that lies in `top` (the
    /// repository) is shown from `home` instead (`../ext/tools/deploy`), as
    /// config.yaml names the dir, not by where this checkout happens to be
    /// (a CI runner's folders in a pull-request comment). JSON keeps the
    /// absolute paths.
    pub fn shown_from(mut self, home: &Path, top: &Path) -> DiffReport {
        let climb = |text: &mut String| {
            let path = Path::new(text.as_str());
            if path.is_absolute() && crate::paths::strip_prefix(path, top).is_some() {
                if let Some(climbed) = crate::paths::climbed_to(path, home) {
                    *text = climbed;
                }
            }
        };
        let climb_findings = |changes: &mut FindingChanges| {
            changes.new.iter_mut().chain(&mut changes.fixed).for_each(|f| climb(&mut f.file));
        };
        for skill in &mut self.skills {
            climb(&mut skill.folder);
            climb_findings(&mut skill.findings);
            for field in skill.fields.iter_mut().filter(|f| f.field == "folder") {
                for side in [&mut field.before, &mut field.after] {
                    if let Json::String(text) = side {
                        climb(text);
                    }
                }
            }
        }
        climb_findings(&mut self.home_findings);
        self
    }

    pub fn to_json(&self, from: Json, to: Json) -> Json {
        let mut summary = serde_json::Map::new();
        for (kind, n) in self.counts() {
            summary.insert(kind.name().into(), json!(n));
        }
        summary.insert("bundles".into(), json!(self.bundles.len()));
        summary.insert("categories".into(), json!(self.categories.len()));
        summary.insert(
            "index".into(),
            json!({
                "before": size_json(&self.index_before),
                "after": size_json(&self.index_after),
                "changed": self.index_changed,
            }),
        );
        summary.insert("agent_changed".into(), json!(self.changes_agent()));
        json!({
            "from": from,
            "to": to,
            "summary": summary,
            "skills": self.skills.iter().map(SkillChange::to_json).collect::<Vec<_>>(),
            "bundles": self.bundles.iter().map(BundleChange::to_json).collect::<Vec<_>>(),
            "categories": self.categories.iter().map(CategoryChange::to_json).collect::<Vec<_>>(),
            "home_findings": findings_json(&self.home_findings),
            "notes": self.notes,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finding(rule: &str, line: usize) -> FindingRef {
        FindingRef {
            rule: rule.into(),
            severity: "warning",
            file: "a/SKILL.md".into(),
            line: Some(line),
            message: "m".into(),
        }
    }

    #[test]
    fn findings_are_new_or_fixed_by_rule_file_and_message_not_line() {
        let before = vec![finding("x", 3), finding("y", 4), finding("y", 9)];
        let after = vec![finding("x", 5), finding("y", 4), finding("z", 1)];
        let changes = finding_changes(&before, &after);
        assert_eq!(changes.new, vec![finding("z", 1)]);
        assert_eq!(changes.fixed, vec![finding("y", 9)]);
    }

    #[test]
    fn unified_diffs_name_both_sides() {
        let text = unified("a\nb\n", "a\nc\n", "before", "after");
        assert!(text.contains("--- before") && text.contains("+++ after"), "{text}");
        assert!(text.contains("-b\n") && text.contains("+c\n"), "{text}");
        assert_eq!(unified("same\n", "same\n", "before", "after"), "", "no change, no text");
    }
}
