//! Rules on the frontmatter: the agentskills.io fields, and the Hermes
//! behaviour each value triggers.

use super::Sink;
use crate::catalog::{Catalog, CatalogSkill};
use crate::commands::is_core_command;
use crate::frontmatter::{self, FrontmatterKind};
use crate::py::take_chars;
use crate::readiness;
use crate::skill::{self, slugify, LISTING_READ_CHARS, MAX_DESCRIPTION_LENGTH, MAX_NAME_LENGTH};
use crate::value::{Map, Value};
use crate::Engine;

/// Keys of the agentskills.io specification.
const SPEC_KEYS: [&str; 6] = ["name", "description", "license", "compatibility", "metadata", "allowed-tools"];
/// Other top-level keys Hermes 0.19.0 reads.
const HERMES_KEYS: [&str; 8] = [
    "platforms",
    "environments",
    "required_environment_variables",
    "required_credential_files",
    "setup",
    "prerequisites",
    "tags",
    "related_skills",
];
/// Keys Hermes reads only under `metadata.hermes`.
const HERMES_META_KEYS: [&str; 7] = [
    "tags",
    "related_skills",
    "config",
    "requires_toolsets",
    "fallback_for_toolsets",
    "requires_tools",
    "fallback_for_tools",
];
/// Keys Hermes reads only at the top level.
const TOP_ONLY: [&str; 6] = [
    "platforms",
    "environments",
    "required_environment_variables",
    "required_credential_files",
    "setup",
    "prerequisites",
];

/// The 1-based line of a top-level key in the frontmatter.
pub(crate) fn key_line(text: &str, key: &str) -> Option<usize> {
    text.lines().take_while_inclusive_fence().position(|l| l.starts_with(&format!("{key}:"))).map(|i| i + 1)
}

/// [`key_line`] of every key at once: a frontmatter of thousands of keys
/// is looked up in one pass, not one pass a key.
fn key_lines(text: &str) -> std::collections::HashMap<&str, usize> {
    let mut lines = std::collections::HashMap::new();
    for (i, l) in text.lines().take_while_inclusive_fence().enumerate() {
        for (at, _) in l.match_indices(':') {
            lines.entry(&l[..at]).or_insert(i + 1);
        }
    }
    lines
}

/// The 1-based line of `child` nested under the top-level `parent`.
fn nested_line(text: &str, parent: &str, child: &str) -> Option<usize> {
    let start = key_line(text, parent)?;
    text.lines()
        .enumerate()
        .skip(start)
        .take_while(|(_, l)| l.starts_with(' ') || l.is_empty())
        .find(|(_, l)| l.trim_start().starts_with(&format!("{child}:")))
        .map(|(i, _)| i + 1)
}

trait FenceLines<'a>: Iterator<Item = &'a str> + Sized {
    /// The frontmatter's lines: up to and including the closing fence.
    fn take_while_inclusive_fence(self) -> std::vec::IntoIter<&'a str> {
        let mut out = Vec::new();
        for (i, l) in self.enumerate() {
            out.push(l);
            if i > 0 && l.trim_end() == "---" {
                break;
            }
        }
        out.into_iter()
    }
}

impl<'a, I: Iterator<Item = &'a str>> FenceLines<'a> for I {}

/// What keeps `name` from the spec's form (1-64 lowercase letters, digits
/// and single hyphens, no hyphen at either end), said for a person.
fn spec_name_problem(name: &str) -> Option<String> {
    let allowed = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-';
    let count = name.chars().count();
    Some(if name.is_empty() {
        "the name is empty".to_owned()
    } else if let Some(c) = name.chars().find(|&c| !allowed(c)) {
        format!("`{name}` holds {}: the spec allows lowercase letters, digits and single hyphens", shown_char(c))
    } else if name.starts_with('-') || name.ends_with('-') {
        format!("`{name}` starts or ends with a hyphen")
    } else if name.contains("--") {
        format!("`{name}` holds two hyphens in a row")
    } else if count > MAX_NAME_LENGTH {
        format!("`{name}` is {count} characters: the spec allows {MAX_NAME_LENGTH} at most")
    } else {
        return None;
    })
}

/// A character as a finding names it: itself in quotes, or its code point
/// where it would not show (a space, a control character).
fn shown_char(c: char) -> String {
    if c.is_whitespace() || c.is_control() {
        format!("U+{:04X}", c as u32)
    } else {
        format!("`{c}`")
    }
}

fn hermes_meta(fm: &Map) -> Option<&Map> {
    fm.get("metadata").and_then(Value::as_map).and_then(|m| m.get("hermes")).and_then(Value::as_map)
}

/// The rules on a SKILL.md's frontmatter that need no other skill.
pub(super) fn check(engine: &Engine, skill: &CatalogSkill, text: &str, sink: &mut Sink) {
    let fm = &skill.frontmatter;
    let stripped = text.strip_prefix('\u{feff}').unwrap_or(text);
    match &skill.frontmatter_kind {
        FrontmatterKind::None if stripped.starts_with("---") => sink.add(
            "hermes-fence-unclosed",
            Some(1),
            "the file starts with `---` but Hermes finds no closing `---` line followed by a newline, so it reads no frontmatter",
        ),
        FrontmatterKind::None => {}
        FrontmatterKind::Fallback(err) => sink.add(
            "hermes-yaml-fallback",
            err.line,
            format!("PyYAML refuses the frontmatter ({}); Hermes splits `key: value` lines instead", err.reason()),
        ),
        FrontmatterKind::NotAMapping => {
            sink.add("hermes-frontmatter-not-mapping", Some(2), "the frontmatter is not a mapping; Hermes ignores it")
        }
        FrontmatterKind::Yaml => {}
    }
    // Whether there is frontmatter depends on the fences alone.
    if skill.frontmatter_kind != FrontmatterKind::None
        && frontmatter::split(take_chars(text, LISTING_READ_CHARS)).is_none()
    {
        sink.add(
            "hermes-frontmatter-too-long",
            Some(1),
            "the closing `---` lies beyond the first 4000 characters: skills_list shows the folder name and the description `---`",
        );
    }
    check_dates(text, fm, sink);
    check_name(skill, text, sink);
    check_description(text, fm, sink);
    check_control_characters(text, fm, sink);
    let chars = text.chars().count();
    if chars > MAX_SKILL_CONTENT_CHARS {
        let message = format!(
            "{chars} characters: the agent's skill_manage refuses to write a SKILL.md over {MAX_SKILL_CONTENT_CHARS}"
        );
        sink.add("hermes-skill-too-long", Some(1), message);
    }
    check_keys(text, fm, sink);
    check_prerequisites(engine, text, fm, sink);
    check_gates(text, fm, sink);
}

/// `MAX_SKILL_CONTENT_CHARS` of Hermes' skill_manage: the longest SKILL.md
/// the agent may write.
const MAX_SKILL_CONTENT_CHARS: usize = 100_000;

/// The control and escape characters (C0, DEL, C1; line breaks and tabs
/// aside) `text` holds, each once, in order, as a finding names them:
/// `the control character U+001B` or `the control characters U+001B, U+0007`.
pub(super) fn control_characters(text: &str) -> Option<String> {
    let mut found: Vec<char> = Vec::new();
    for c in text.chars().filter(|&c| c.is_control() && !matches!(c, '\n' | '\t' | '\r')) {
        if !found.contains(&c) {
            found.push(c);
        }
    }
    let codes: Vec<String> = found.iter().map(|&c| format!("U+{:04X}", c as u32)).collect();
    match codes.len() {
        0 => None,
        1 => Some(format!("the control character {}", codes[0])),
        _ => Some(format!("the control characters {}", codes.join(", "))),
    }
}

/// Control characters in the name and description: they reach the agent's
/// prompt and every terminal that lists skills as they are.
fn check_control_characters(text: &str, fm: &Map, sink: &mut Sink) {
    for key in ["name", "description"] {
        let Some(Value::Str(value)) = fm.get(key) else { continue };
        if let Some(held) = control_characters(value) {
            sink.add("hermes-control-character", key_line(text, key), format!("`{key}` holds {held}"));
        }
    }
}

fn check_name(skill: &CatalogSkill, text: &str, sink: &mut Sink) {
    let fm = &skill.frontmatter;
    let folder = skill.skill_dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let line = key_line(text, "name");
    match fm.get("name") {
        None => {
            if skill.frontmatter_kind == FrontmatterKind::Yaml || skill.frontmatter_kind == FrontmatterKind::None {
                sink.add("spec-name-missing", Some(1), format!("no `name`; Hermes uses the folder name `{folder}`"));
            }
        }
        Some(Value::Str(name)) => {
            if name.chars().count() > MAX_NAME_LENGTH {
                sink.add(
                    "hermes-name-too-long",
                    line,
                    format!(
                        "{} characters; skills_list shows `{}`",
                        name.chars().count(),
                        take_chars(name, MAX_NAME_LENGTH)
                    ),
                );
            }
            if let Some(problem) = spec_name_problem(name) {
                sink.add("spec-name-format", line, problem);
            }
            if *name != folder {
                sink.add("spec-name-folder", line, format!("name `{name}`, folder `{folder}`"));
            }
            let slug = slugify(name);
            if slug.is_empty() {
                sink.add("hermes-no-slash-command", line, format!("`{name}` makes an empty slug: no slash command"));
            } else if is_core_command(&slug) {
                sink.add(
                    "hermes-no-slash-command",
                    line,
                    format!("`/{slug}` is a core Hermes command: the skill gets none"),
                );
            }
        }
        Some(other) => sink.add(
            "hermes-name-not-string",
            line,
            format!("name is {} (`{}`): skills_list drops the skill", other.type_name(), other.py_str()),
        ),
    }
}

/// Other skills of the same name: known once the catalog is linked.
pub(super) fn check_collisions(catalog: &Catalog, index: usize, text: &str, sink: &mut Sink) {
    let skill = &catalog.skills[index];
    let line = key_line(text, "name");
    // Named up to a few: a name thousands of skills share would make each
    // finding list them all (and sorting all of them for each was seconds).
    const NAMED: usize = 5;
    let status = &skill.status;
    let shadower = status.shadowed_by.filter(|j| !status.ambiguous_with.contains(j));
    let mut all: Vec<usize> = status.ambiguous_with.iter().copied().chain(shadower).collect();
    // An overlaid catalog names a skill that differs by its copy: the
    // others are sorted as the user knows them.
    let shown = |j: usize| {
        let skill_md = &catalog.skills[j].skill_md;
        catalog
            .overlay
            .as_ref()
            .map_or_else(|| std::borrow::Cow::Borrowed(skill_md.as_path()), |o| o.shown(skill_md).into())
    };
    if all.len() > NAMED && catalog.overlay.is_none() {
        all.select_nth_unstable_by(NAMED, |&a, &b| {
            catalog.skills[a].skill_md.as_os_str().cmp(catalog.skills[b].skill_md.as_os_str())
        });
    }
    let count = all.len();
    let picked = if catalog.overlay.is_none() { NAMED } else { count };
    let mut others: Vec<String> = all.iter().take(picked).map(|&j| shown(j).display().to_string()).collect();
    others.sort();
    others.dedup();
    others.truncate(NAMED);
    if count > 0 {
        let how = if skill.status.shadowed_by.is_some() {
            "the listing keeps an earlier one"
        } else {
            "skill_view refuses the name"
        };
        let named = match count {
            n if n <= NAMED => others.join(", "),
            n => format!("{} and {} more", others.join(", "), crate::words::thousands(n - others.len())),
        };
        sink.add("hermes-name-collision", line, format!("`{}` also names {named} ({how})", skill.name));
    }
}

fn check_description(text: &str, fm: &Map, sink: &mut Sink) {
    let line = key_line(text, "description");
    let desc = fm.get("description");
    if !desc.is_some_and(Value::truthy) {
        sink.add(
            "spec-description-missing",
            line.or(Some(1)),
            "no description; the listing shows the first body line instead and the prompt index none",
        );
    }
    let body = frontmatter::body(take_chars(text, LISTING_READ_CHARS));
    let named = !matches!(fm.get("name"), Some(v) if v.as_str().is_none());
    match skill::listing_description(fm, body) {
        None if named => {
            let kind = desc.map_or("missing".to_owned(), |d| d.type_name().to_owned());
            sink.add(
                "hermes-description-dropped",
                line,
                format!("the description ({kind}) makes skills_list drop the skill"),
            );
        }
        // Listed, it is written as JSON with every other skill's row: one
        // row that cannot be fails the whole listing.
        Some(listed) if named => {
            if let Err(e) = listed.try_to_json() {
                let kind = listed.type_name();
                sink.add(
                    "hermes-description-unwritable",
                    line,
                    format!("the description ({kind}) makes skills_list fail for every skill while it is listed: {e}"),
                );
            }
        }
        _ => {}
    }
    if let Some(Value::Str(d)) = desc {
        let n = d.chars().count();
        if n > MAX_DESCRIPTION_LENGTH {
            sink.add(
                "spec-description-length",
                line,
                format!("{n} characters; skills_list shows the first 1021 + `...`"),
            );
        }
        if skill::prompt_description(fm).ends_with("...") && n > 60 {
            sink.add("hermes-description-prompt-cut", line, {
                let shown = skill::prompt_description(fm);
                let kept = shown.chars().count().saturating_sub(3);
                format!("the prompt index shows {kept} of its {n} characters: `{shown}`")
            });
        }
    }
    if let Some(Value::Str(c)) = fm.get("compatibility") {
        if c.chars().count() > 500 {
            sink.add(
                "spec-compatibility-length",
                key_line(text, "compatibility"),
                format!("{} characters", c.chars().count()),
            );
        }
    }
}

fn check_keys(text: &str, fm: &Map, sink: &mut Sink) {
    let lines = key_lines(text);
    for key in fm.keys() {
        let key = key.to_string();
        let key = key.as_str();
        if SPEC_KEYS.contains(&key) {
            continue;
        }
        let line = lines.get(key).copied();
        if HERMES_KEYS.contains(&key) {
            sink.add("spec-extension-key", line, format!("`{key}` is a Hermes extension of the agentskills.io fields"));
        } else if HERMES_META_KEYS.contains(&key) {
            sink.add(
                "hermes-ignored-key",
                line,
                format!("Hermes reads `{key}` under `metadata.hermes`, not at the top level"),
            );
        } else {
            sink.add("spec-unknown-key", line, format!("`{key}` is read by neither agentskills.io nor Hermes"));
        }
    }
    if let Some(meta) = fm.get("metadata").and_then(Value::as_map) {
        let keys: Vec<String> =
            meta.iter().filter(|(k, v)| *k != "hermes" && v.as_str().is_none()).map(|(k, _)| k.to_string()).collect();
        if !keys.is_empty() {
            sink.add(
                "spec-metadata-strings",
                key_line(text, "metadata"),
                format!("non-string values: {}", keys.join(", ")),
            );
        }
        for k in ["tags", "related_skills", "config"] {
            if meta.contains_key(k) {
                sink.add(
                    "hermes-ignored-key",
                    nested_line(text, "metadata", k),
                    format!("`metadata.{k}` is ignored: Hermes reads `metadata.hermes.{k}`"),
                );
            }
        }
    }
    if let Some(hermes) = hermes_meta(fm) {
        for k in TOP_ONLY {
            if hermes.contains_key(k) {
                sink.add(
                    "hermes-ignored-key",
                    nested_line(text, "metadata", k),
                    format!("`metadata.hermes.{k}` is ignored: Hermes reads `{k}` at the top level"),
                );
            }
        }
        for k in ["tags", "related_skills"] {
            if fm.contains_key(k) && hermes.get(k).is_some_and(Value::truthy) {
                sink.add(
                    "hermes-ignored-key",
                    key_line(text, k),
                    format!("top-level `{k}` is ignored: `metadata.hermes.{k}` wins"),
                );
            }
        }
    }
}

fn check_prerequisites(engine: &Engine, text: &str, fm: &Map, sink: &mut Sink) {
    if let Some(prereq) = fm.get("prerequisites").and_then(Value::as_map) {
        let line = key_line(text, "prerequisites");
        if prereq.contains_key("env") {
            sink.add(
                "hermes-ignored-key",
                nested_line(text, "prerequisites", "env").or(line),
                "`prerequisites.env` is ignored: use `required_environment_variables` (or `prerequisites.env_vars`)",
            );
        }
        if prereq.contains_key("credential_files") {
            sink.add(
                "hermes-ignored-key",
                nested_line(text, "prerequisites", "credential_files").or(line),
                "`prerequisites.credential_files` is ignored: use top-level `required_credential_files`",
            );
        }
        if prereq.contains_key("commands") {
            sink.add(
                "hermes-ignored-key",
                nested_line(text, "prerequisites", "commands").or(line),
                "`prerequisites.commands` is not checked by Hermes 0.19.0 (required_commands is always empty), nor is any other key: say in the body what must be installed",
            );
        }
        for key in ["env_vars", "commands"] {
            if let Err(e) = readiness::prerequisite_values(prereq.get(key)) {
                let value = prereq.get(key).map(Value::py_str).unwrap_or_default();
                sink.add(
                    "hermes-prerequisites-not-list",
                    nested_line(text, "prerequisites", key).or(line),
                    format!("`prerequisites.{key}: {value}` is not a list: skill_view fails ({e})"),
                );
            }
        }
    }
    // Names Hermes drops.
    let mut declared: Vec<String> = Vec::new();
    let entries = match fm.get("required_environment_variables") {
        Some(Value::Seq(items)) => items.clone(),
        Some(v @ Value::Map(_)) => vec![v.clone()],
        _ => Vec::new(),
    };
    for e in entries {
        match &e {
            Value::Str(s) => declared.push(s.trim().to_owned()),
            Value::Map(m) => {
                declared.extend(m.get("name").or_else(|| m.get("env_var")).map(|v| v.py_str().trim().to_owned()))
            }
            _ => {}
        }
    }
    if let Some(Value::Map(setup)) = fm.get("setup") {
        let secrets = match setup.get("collect_secrets") {
            Some(Value::Seq(items)) => items.clone(),
            Some(v @ Value::Map(_)) => vec![v.clone()],
            _ => Vec::new(),
        };
        declared.extend(secrets.iter().filter_map(|s| s.get("env_var").map(|v| v.py_str().trim().to_owned())));
    }
    if let Some(Value::Map(p)) = fm.get("prerequisites") {
        let legacy = readiness::prerequisite_values(p.get("env_vars")).unwrap_or_default();
        declared.extend(legacy.iter().map(|v| v.trim().to_owned()));
    }
    let valid = |n: &str| {
        let mut c = n.chars();
        matches!(c.next(), Some(f) if f.is_ascii_alphabetic() || f == '_')
            && c.all(|x| x.is_ascii_alphanumeric() || x == '_')
    };
    for name in declared.iter().filter(|n| !n.is_empty() && !valid(n)) {
        sink.add(
            "hermes-env-name",
            key_line(text, "required_environment_variables").or(key_line(text, "setup")),
            format!("`{name}` is not a valid variable name; Hermes ignores it"),
        );
    }
    // Credential files Hermes can never mount.
    match fm.get("required_credential_files") {
        None => {}
        Some(Value::Seq(items)) => {
            for item in items {
                let rel = match item {
                    Value::Str(s) => s.trim().to_owned(),
                    Value::Map(m) => m
                        .get("path")
                        .or_else(|| m.get("name"))
                        .map(|v| v.py_str().trim().to_owned())
                        .unwrap_or_default(),
                    _ => continue,
                };
                if rel.is_empty() {
                    continue;
                }
                let why = if rel.starts_with('/') {
                    Some("an absolute path")
                } else if rel.starts_with('~') {
                    Some("a `~` path (not expanded)")
                } else if !crate::paths::resolve(&engine.home.root.join(&rel))
                    .starts_with(crate::paths::resolve(&engine.home.root))
                {
                    Some("outside HERMES_HOME")
                } else if is_secret_store(&rel) {
                    Some("one of Hermes' own secret stores")
                } else {
                    None
                };
                if let Some(why) = why {
                    sink.add(
                        "hermes-credential-path",
                        key_line(text, "required_credential_files"),
                        format!("`{rel}` is {why}: always reported missing"),
                    );
                }
            }
        }
        Some(_) => sink.add(
            "hermes-ignored-key",
            key_line(text, "required_credential_files"),
            "`required_credential_files` must be a list; Hermes ignores anything else",
        ),
    }
}

fn is_secret_store(rel: &str) -> bool {
    let base = rel.rsplit('/').next().unwrap_or(rel).to_lowercase();
    matches!(
        rel,
        "auth.json"
            | "auth.lock"
            | ".anthropic_oauth.json"
            | "webhook_subscriptions.json"
            | "auth/google_oauth.json"
            | "cache/bws_cache.json"
    ) || rel.starts_with("mcp-tokens")
        || rel.starts_with("skills/.hub")
        || matches!(
            base.as_str(),
            ".env" | ".env.local" | ".env.development" | ".env.production" | ".env.test" | ".env.staging" | ".envrc"
        )
}

fn as_list(v: &Value) -> Vec<Value> {
    match v {
        Value::Seq(items) => items.clone(),
        other => vec![other.clone()],
    }
}

fn check_gates(text: &str, fm: &Map, sink: &mut Sink) {
    if let Some(platforms) = fm.get("platforms").filter(|v| v.truthy()) {
        let values = as_list(platforms);
        let unknown: Vec<String> =
            values.iter().filter(|v| !crate::gates::platform_value_known(v)).map(Value::py_str).collect();
        if !unknown.is_empty() {
            let all = unknown.len() == values.len();
            // The index iterates the value itself, and raises on a scalar.
            let unindexable = match platforms {
                Value::Str(_) => None,
                other => other.py_iter().is_none().then(|| crate::py::PyError::not_iterable(other.type_name())),
            };
            let effect_unindexable;
            let (severity, effect) = match unindexable {
                Some(e) => {
                    effect_unindexable = format!(
                        "not a list: skills_list hides the skill, and building the skills index fails ({e}), so the agent is offered no skill"
                    );
                    (super::Severity::Error, effect_unindexable.as_str())
                }
                None if all => (super::Severity::Error, "no value matches an OS: the skill is hidden everywhere"),
                None => (super::Severity::Warning, "these values match no OS"),
            };
            let hint = super::rule("hermes-platform-unknown").map_or("", |r| r.hint);
            sink.add_with(
                "hermes-platform-unknown".into(),
                severity,
                key_line(text, "platforms"),
                format!("{}: {effect}", unknown.join(", ")),
                hint,
            );
        }
    }
    if let Some(envs) = fm.get("environments").filter(|v| v.truthy()) {
        for v in as_list(envs) {
            let tag = v.py_str().trim().to_lowercase();
            if !tag.is_empty() && !["kanban", "docker", "s6"].contains(&tag.as_str()) {
                sink.add(
                    "hermes-environment-unknown",
                    key_line(text, "environments"),
                    format!("`{tag}` is unknown: Hermes shows the skill everywhere"),
                );
            }
        }
    }
    if let Some(hermes) = hermes_meta(fm) {
        for k in ["requires_toolsets", "fallback_for_toolsets", "requires_tools", "fallback_for_tools"] {
            if let Some(Value::Str(s)) = hermes.get(k) {
                let chars: Vec<String> = s.chars().take(6).map(String::from).collect();
                sink.add(
                    "hermes-condition-string",
                    nested_line(text, "metadata", k),
                    format!("`{k}: {s}` is iterated per character ({}, ...)", chars.join(", ")),
                );
            }
        }
    }
}

/// Unquoted dates in fields skill_view echoes (name, description, metadata,
/// compatibility): PyYAML makes them dates and JSON serialisation fails.
/// Each date on a line of its own is named there; one in a flow collection
/// (`tags: [2024-01-01]`) or a value the lines do not show, at its field.
fn check_dates(text: &str, fm: &Map, sink: &mut Sink) {
    let before = sink.findings.len();
    dates_by_line(text, sink);
    if sink.findings[before..].iter().any(|f| f.rule == "hermes-yaml-date") {
        return;
    }
    // What skill_view writes, in its order: json.dumps stops at the first.
    let echoed = [
        ("name", fm.get("name")),
        ("description", fm.get("description")),
        ("compatibility", fm.get("compatibility").filter(|v| v.truthy())),
        ("metadata", fm.get("metadata").filter(|m| m.as_map().is_some())),
    ];
    for (key, value) in echoed {
        let Some(Err(e)) = value.map(Value::try_to_json) else { continue };
        let message = e.to_string();
        // A description skills_list cannot write is hermes-description-unwritable's.
        if key != "description" && (message.contains("type date") || message.contains("type datetime")) {
            let message = format!("`{key}` holds a value PyYAML reads as a date: skill_view fails ({message})");
            sink.add("hermes-yaml-date", key_line(text, key), message);
        }
        return;
    }
}

fn dates_by_line(text: &str, sink: &mut Sink) {
    let lines: Vec<&str> = text.lines().take_while_inclusive_fence().collect();
    let mut top = String::new();
    for (i, line) in lines.iter().enumerate().skip(1) {
        if line.trim_end() == "---" {
            break;
        }
        if !line.starts_with(' ') && !line.starts_with('-') {
            if let Some((k, _)) = line.split_once(':') {
                top = k.trim().to_owned();
            }
        }
        if !["name", "description", "metadata", "compatibility"].contains(&top.as_str()) {
            continue;
        }
        let value = match line.split_once(": ") {
            Some((_, v)) => v.trim(),
            None => line.trim().strip_prefix("- ").unwrap_or(""),
        };
        if is_plain_date(value) {
            sink.add("hermes-yaml-date", Some(i + 1), format!("`{value}` is read as a date: skill_view fails"));
        }
    }
}

fn is_plain_date(v: &str) -> bool {
    let v = v.split(" #").next().unwrap_or(v).trim();
    let parts: Vec<&str> = v.splitn(3, '-').collect();
    parts.len() == 3
        && parts[0].len() == 4
        && parts[0].chars().all(|c| c.is_ascii_digit())
        && (1..=2).contains(&parts[1].len())
        && parts[1].chars().all(|c| c.is_ascii_digit())
        && {
            let day: String = parts[2].chars().take_while(char::is_ascii_digit).collect();
            (1..=2).contains(&day.len())
                && (day.len() == parts[2].len() || parts[2][day.len()..].starts_with(['T', 't', ' ']))
        }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert!(is_plain_date("2024-01-01"));
        assert!(is_plain_date("2024-1-5"));
        assert!(is_plain_date("2024-01-01T10:00:00"));
        assert!(!is_plain_date("'2024-01-01'"));
        assert!(!is_plain_date("v2024-01-01"));
        assert!(!is_plain_date("2024-01"));
    }

    /// Every key's line, found at once, is the line `key_line` finds.
    #[test]
    fn key_lines_agree_with_key_line() {
        let text = "---\nname: a\ndescription: d\n  nested: x\na:b: odd\nname: again\nx:\n---\nafter: body\n";
        let lines = key_lines(text);
        for key in ["name", "description", "nested", "a", "a:b", "x", "after", "missing"] {
            assert_eq!(lines.get(key).copied(), key_line(text, key), "{key}");
        }
    }

    /// Each way a name misses the spec's form is said as such.
    #[test]
    fn spec_names() {
        assert_eq!(spec_name_problem("deploy-tool2"), None);
        assert_eq!(spec_name_problem(&"a".repeat(64)), None);
        let problem = |name: &str| spec_name_problem(name).unwrap_or_default();
        assert!(problem("Deploy").contains("holds `D`"), "{}", problem("Deploy"));
        assert!(problem("my skill").contains("holds U+0020"), "{}", problem("my skill"));
        assert!(problem("a--b").contains("two hyphens"));
        assert!(problem("-a").contains("hyphen"));
        assert_eq!(problem(""), "the name is empty");
        let long = "a".repeat(74);
        assert_eq!(problem(&long), format!("`{long}` is 74 characters: the spec allows 64 at most"));
    }

    /// Every control character is named, each once.
    #[test]
    fn control_characters_are_all_named() {
        assert_eq!(control_characters("plain\ttext\n"), None);
        assert_eq!(control_characters("a\u{1b}b").as_deref(), Some("the control character U+001B"));
        let held = control_characters("\u{1b}[31m red \u{1b}[0m \u{7}");
        assert_eq!(held.as_deref(), Some("the control characters U+001B, U+0007"));
    }
}
