//! The steps of [`super::Trace`], each read from the catalog or the index.

use super::{Outcome, Step, Trace, WhyInputs};
use crate::catalog::{CatalogSkill, Root};
use crate::commands::is_core_command;
use crate::context::Context;
use crate::diagnostics::frontmatter_rules::key_line;
use crate::frontmatter::FrontmatterKind;
use crate::gates;
use crate::prompt::LeftOutWhy;
use crate::skill::{self, slugify};
use crate::value::{Map, Value};
use crate::words::count_s;
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// The listing cuts names here (`name[:64]`).
const LISTING_NAME_CHARS: usize = 64;

fn step(step: &'static str, function: &'static str, outcome: Outcome, detail: impl Into<String>) -> Step {
    Step { step, function, outcome, detail: detail.into(), file: None, line: None }
}

impl Step {
    fn at(mut self, file: &Path, line: Option<usize>) -> Step {
        self.file = Some(file.to_path_buf());
        self.line = line;
        self
    }
}

/// What the steps share about the skill.
struct Subject<'a> {
    inputs: &'a WhyInputs<'a>,
    skill: &'a CatalogSkill,
    index: usize,
    fm: std::borrow::Cow<'a, Map>,
    /// The SKILL.md's text, for the lines of its keys.
    text: Option<String>,
}

impl Subject<'_> {
    fn key_line(&self, key: &str) -> Option<usize> {
        self.text.as_deref().and_then(|t| key_line(t, key))
    }

    fn md(&self) -> &Path {
        &self.skill.skill_md
    }

    fn other(&self, i: usize) -> &CatalogSkill {
        &self.inputs.catalog.skills[i]
    }
}

pub(super) fn trace(inputs: &WhyInputs, index: usize, same_name: &[usize]) -> Trace {
    let skill = &inputs.catalog.skills[index];
    let fm = inputs.engine.frontmatter_of(inputs.catalog, skill);
    let text = crate::source::read_text(&skill.skill_md).ok();
    let subject = Subject { inputs, skill, index, fm, text };
    let (index_step, offered) = index_step(&subject);
    let steps = vec![
        found(&subject, same_name),
        frontmatter(&subject),
        platform(&subject),
        environment(&subject),
        disabled(&subject),
        name(&subject),
        description(&subject),
        index_step,
        command(&subject),
        readiness(&subject),
        bundles(&subject),
    ];
    Trace { name: skill.name.clone(), skill_md: skill.skill_md.clone(), offered, steps }
}

fn root_label(root: Option<&Root>) -> String {
    match root {
        Some(r) if r.label == "local" => format!("the skills folder {}", r.path.display()),
        Some(r) => format!("{} ({})", r.label, r.path.display()),
        None => "a skills root".to_owned(),
    }
}

fn found(s: &Subject, same_name: &[usize]) -> Step {
    let root = s.inputs.catalog.roots.get(s.skill.root);
    let folder = root
        .and_then(|r| s.skill.skill_dir.strip_prefix(&r.path).ok())
        .map(|rel| rel.display().to_string())
        .filter(|rel| !rel.is_empty())
        .unwrap_or_else(|| ".".to_owned());
    let mut detail = format!("in {}, folder {folder}", root_label(root));
    let others: Vec<String> =
        same_name.iter().filter(|&&i| i != s.index).map(|&i| s.other(i).skill_md.display().to_string()).collect();
    let outcome = if others.is_empty() {
        Outcome::Pass
    } else {
        detail.push_str(&format!("; also answering to this name: {}", others.join(", ")));
        Outcome::Note
    };
    step("found", "skill_utils.iter_skill_index_files", outcome, detail).at(s.md(), None)
}

fn frontmatter(s: &Subject) -> Step {
    const F: &str = "skill_utils.parse_frontmatter";
    if let Some(error) = &s.skill.read_error {
        return step("frontmatter", F, Outcome::Fail, format!("cannot be read: {error}")).at(s.md(), None);
    }
    let keys = s.fm.len();
    match &s.skill.frontmatter_kind {
        FrontmatterKind::Yaml => {
            step("frontmatter", F, Outcome::Pass, format!("YAML, {}", count_s(keys as i128, "key"))).at(s.md(), Some(1))
        }
        FrontmatterKind::None => step(
            "frontmatter",
            F,
            Outcome::Note,
            "none (no `---` fence at the top, or no closing `---` line): the name is the folder's, the index shows no description",
        )
        .at(s.md(), Some(1)),
        FrontmatterKind::NotAMapping => {
            step("frontmatter", F, Outcome::Fail, "the YAML is not a mapping: Hermes reads it as empty").at(s.md(), Some(1))
        }
        FrontmatterKind::Fallback(error) => step(
            "frontmatter",
            F,
            Outcome::Fail,
            format!(
                "YAML error ({}): Hermes falls back to splitting `key: value` lines and reads {} as strings",
                error.message.lines().next().unwrap_or_default(),
                count_s(keys as i128, "key")
            ),
        )
        .at(s.md(), error.line.map(|l| l + 1)),
    }
}

fn values_of(value: &Value) -> Vec<String> {
    match value {
        Value::Seq(items) => items.iter().map(Value::py_str).collect(),
        other => vec![other.py_str()],
    }
}

fn platform(s: &Subject) -> Step {
    const F: &str = "skill_utils.skill_matches_platform";
    let os = s.inputs.engine.env.os.name();
    let line = s.key_line("platforms");
    let Some(value) = s.fm.get("platforms").filter(|v| v.truthy()) else {
        return step("platform", F, Outcome::Pass, format!("no `platforms`: every OS (here {os})")).at(s.md(), line);
    };
    let shown = values_of(value).join(", ");
    let unknown: Vec<String> = match value {
        Value::Seq(items) => items.iter().filter(|v| !gates::platform_value_known(v)).map(Value::py_str).collect(),
        other if !gates::platform_value_known(other) => vec![other.py_str()],
        _ => Vec::new(),
    };
    let values = match value {
        Value::Seq(items) => items.len(),
        _ => 1,
    };
    if unknown.len() == values && !s.skill.status.platform_ok {
        return step(
            "platform",
            F,
            Outcome::Fail,
            format!("`platforms: {shown}` names no OS Hermes knows (macos, linux, windows): hidden everywhere"),
        )
        .at(s.md(), line);
    }
    let (outcome, mut detail) = if s.skill.status.platform_ok {
        (Outcome::Pass, format!("`platforms: {shown}` includes {os}"))
    } else {
        (
            Outcome::Fail,
            format!("`platforms: {shown}` does not include {os}: hidden from the listing, the index and slash commands, and skill_view refuses it"),
        )
    };
    if !unknown.is_empty() {
        detail.push_str(&format!(" ({} names no OS Hermes knows)", unknown.join(", ")));
    }
    step("platform", F, outcome, detail).at(s.md(), line)
}

fn environment(s: &Subject) -> Step {
    const F: &str = "skill_utils.skill_matches_environment";
    let line = s.key_line("environments");
    let Some(value) = s.fm.get("environments").filter(|v| v.truthy()) else {
        return step("environment", F, Outcome::Pass, "no `environments`: every environment").at(s.md(), line);
    };
    let shown = values_of(value).join(", ");
    if s.skill.status.environment_ok {
        step(
            "environment",
            F,
            Outcome::Pass,
            format!("`environments: {shown}`: one is active here (or names no known environment)"),
        )
        .at(s.md(), line)
    } else {
        step(
            "environment",
            F,
            Outcome::Fail,
            format!("`environments: {shown}`: none is active here (kanban, docker or s6): hidden from the listing, the index and slash commands"),
        )
        .at(s.md(), line)
    }
}

fn disabled(s: &Subject) -> Step {
    const F: &str = "skill_utils.get_disabled_skill_names";
    let engine = s.inputs.engine;
    let config = engine.home.config_path();
    let names: Vec<&str> = [Some(s.skill.name.as_str()), s.skill.skill_dir.file_name().and_then(|n| n.to_str())]
        .into_iter()
        .flatten()
        .collect();
    let config_text = engine.home.config_text.as_deref();
    let line = |name: &str| {
        config_text.and_then(|t| t.lines().position(|l| l.contains(name) && !l.trim_start().starts_with('#')))
    };
    if s.skill.status.disabled || s.inputs.index.left_out_of(s.md()).is_some_and(|l| l.why == LeftOutWhy::Disabled) {
        let hit = names.iter().find(|n| line(n).is_some()).copied().unwrap_or(&s.skill.name);
        let scope = match engine.env.platform_scope() {
            Some(p) => format!("`skills.disabled` or `skills.platform_disabled.{p}`"),
            None => "`skills.disabled`".to_owned(),
        };
        return step(
            "disabled",
            F,
            Outcome::Fail,
            format!("`{hit}` is in {scope}: hidden from the listing, the index and slash commands"),
        )
        .at(&config, line(hit).map(|l| l + 1));
    }
    let scope = match engine.env.platform_scope() {
        Some(p) => format!("not in `skills.disabled` nor `skills.platform_disabled.{p}`"),
        None => "not in `skills.disabled` (no platform set: per-platform lists do not apply)".to_owned(),
    };
    // A config.yaml Hermes cannot use disables nothing, whatever it lists.
    if let Some(problem) = &engine.home.config_problem {
        let said = format!("config.yaml is not used ({problem}): no skill is disabled");
        return step("disabled", F, Outcome::Pass, said).at(&config, None);
    }
    step("disabled", F, Outcome::Pass, scope)
}

fn name(s: &Subject) -> Step {
    const F: &str = "skills_tool._find_all_skills";
    let line = s.key_line("name");
    let st = &s.skill.status;
    if let Some(first) = st.shadowed_by {
        let other = s.other(first);
        return step(
            "name",
            F,
            Outcome::Fail,
            format!(
                "`{}` is taken by an earlier skill, {}: the listing shows that one",
                s.skill.name,
                other.skill_md.display()
            ),
        )
        .at(s.md(), line);
    }
    if !st.ambiguous_with.is_empty() {
        let others: Vec<String> =
            st.ambiguous_with.iter().map(|&i| s.other(i).skill_md.display().to_string()).collect();
        return step(
            "name",
            F,
            Outcome::Fail,
            format!(
                "skill_view refuses `{}` as ambiguous: {} also {} to it (a slash command loads its skill by folder, so the name does not stop it)",
                s.skill.name,
                others.join(", "),
                if others.len() == 1 { "answers" } else { "answer" }
            ),
        )
        .at(s.md(), line);
    }
    if st.unlistable {
        return step(
            "name",
            F,
            Outcome::Fail,
            "the listing drops it: its `name` is not a string, or its description cannot be measured",
        )
        .at(s.md(), line);
    }
    let mut detail = match s.fm.get("name") {
        Some(Value::Str(n)) if n.chars().count() > LISTING_NAME_CHARS => {
            format!("`{}` (the listing cuts the name to {LISTING_NAME_CHARS} characters)", s.skill.name)
        }
        Some(_) => format!("`{}`", s.skill.name),
        None => format!("`{}`, the folder's name (no `name` key)", s.skill.name),
    };
    if !st.shadows.is_empty() {
        let later: Vec<String> = st.shadows.iter().map(|&i| s.other(i).skill_md.display().to_string()).collect();
        detail.push_str(&format!("; it hides later skills of the same name: {}", later.join(", ")));
        return step("name", F, Outcome::Note, detail).at(s.md(), line);
    }
    step("name", F, Outcome::Pass, detail).at(s.md(), line)
}

fn description(s: &Subject) -> Step {
    const F: &str = "skill_utils.extract_skill_description";
    let line = s.key_line("description");
    let shown = skill::prompt_description(&s.fm);
    let Some(raw) = s.fm.get("description").filter(|v| v.truthy()) else {
        let listing = if s.skill.description.is_empty() {
            String::new()
        } else {
            format!(" (skills_list shows its first body line: {})", s.skill.description)
        };
        return step(
            "description",
            F,
            Outcome::Note,
            format!("no `description`: the index shows the name alone{listing}"),
        )
        .at(s.md(), line);
    };
    let full = raw.py_str();
    let full_chars = full.trim().chars().count();
    if shown.ends_with("...") && full_chars > 60 {
        step(
            "description",
            F,
            Outcome::Note,
            format!("cut in the index to 57 characters and `...` (it has {full_chars}): `{shown}`"),
        )
        .at(s.md(), line)
    } else {
        step("description", F, Outcome::Pass, format!("shown whole in the index: `{shown}`")).at(s.md(), line)
    }
}

fn index_step(s: &Subject) -> (Step, bool) {
    const F: &str = "prompt_builder.build_skills_system_prompt";
    let index = s.inputs.index;
    if let Some((category, entry)) = index.entry_of(s.md()) {
        let detail = if category.demoted {
            format!("names-only in `{}` (a category the focus posture demotes): `{}`", category.name, entry.name)
        } else {
            format!("under `{}`: {}", category.name, entry.text.trim())
        };
        // The index reads what it can and keeps the folder's name; the
        // agent's skill_view then fails.
        let detail = match s.skill.read_error {
            Some(_) => format!("{detail} (its name alone: the agent sees it, but skill_view cannot read the file)"),
            None => detail,
        };
        return (step("index", F, Outcome::Pass, detail), true);
    }
    let detail = match index.left_out_of(s.md()) {
        Some(left) if left.why == LeftOutWhy::Conditions => {
            let cond = gates::Conditions::from_frontmatter(&s.fm);
            let mut parts = Vec::new();
            for (key, value) in [
                ("requires_toolsets", &cond.requires_toolsets),
                ("fallback_for_toolsets", &cond.fallback_for_toolsets),
                ("requires_tools", &cond.requires_tools),
                ("fallback_for_tools", &cond.fallback_for_tools),
            ] {
                if value.truthy() {
                    parts.push(format!("{key}: {}", value.py_str()));
                }
            }
            format!("left out: {} ({})", left.why.describe(), parts.join("; "))
        }
        Some(left) => format!("left out: {}", left.why.describe()),
        None => "not in the index's walk (excluded folder, or an index built from a snapshot that does not name it)"
            .to_owned(),
    };
    (step("index", F, Outcome::Fail, detail), false)
}

/// Why `scan_skill_commands` registers no command for the skill, replaying
/// its first-name-wins and first-slug-wins passes over the skills before it.
fn command(s: &Subject) -> Step {
    const F: &str = "skill_commands.scan_skill_commands";
    let catalog = s.inputs.catalog;
    if let Some((key, _)) = catalog.commands.iter().find(|(_, &i)| i == s.index) {
        // The command loads its skill by folder, through the same lookup
        // as skill_view: an ambiguous or failing load builds no message.
        let own;
        let ctx = match s.inputs.context {
            Some(ctx) => ctx,
            None => {
                own = Context::prepared(s.inputs.engine, catalog);
                &own
            }
        };
        let session = Some(s.inputs.engine.options.session_id.as_str());
        return match ctx.invocation_failure(key, session) {
            None => step("command", F, Outcome::Pass, format!("registers {key}")),
            Some(why) => step(
                "command",
                "skill_commands.build_skill_invocation_message",
                Outcome::Fail,
                format!("registers {key}, but it builds no message: {why}"),
            ),
        };
    }
    let fail = |detail: String| step("command", F, Outcome::Fail, detail);
    let Some((name, _)) = &s.skill.command_candidate else {
        let why = if !s.skill.status.platform_ok || !s.skill.status.environment_ok {
            "no slash command: the platform or environment gate hides it".to_owned()
        } else if s.skill.read_error.is_some() {
            "no slash command: the file cannot be read".to_owned()
        } else if matches!(s.fm.get("name"), Some(v) if !matches!(v, Value::Str(_))) {
            "no slash command: its `name` is not a string".to_owned()
        } else {
            "no slash command: the command scan skips its folder (.git, .github, .hub or .archive)".to_owned()
        };
        return fail(why);
    };
    let disabled = gates::disabled_names(&s.inputs.engine.home, &s.inputs.engine.env, None).unwrap_or_default();
    if disabled.contains(name) {
        return fail(format!("no slash command: `{name}` is disabled"));
    }
    let slug = slugify(name);
    if slug.is_empty() {
        return fail(format!("no slash command: `{name}` leaves no letters or digits for one"));
    }
    if is_core_command(&slug) {
        return fail(format!("no slash command: /{slug} is one of Hermes' own commands"));
    }
    let mut seen: HashSet<&str> = HashSet::new();
    for (i, other) in catalog.skills.iter().enumerate().take(s.index) {
        let Some((other_name, _)) = &other.command_candidate else { continue };
        if disabled.contains(other_name) || !seen.insert(other_name) {
            continue;
        }
        if other_name == name {
            return fail(format!("no slash command: {} registered the name `{name}` first", other.skill_md.display()));
        }
        if slugify(other_name) == slug && catalog.commands.get(&format!("/{slug}")) == Some(&i) {
            return fail(format!("no slash command: {} took /{slug} first", other.skill_md.display()));
        }
    }
    fail("no slash command".to_owned())
}

fn readiness(s: &Subject) -> Step {
    const F: &str = "skills_tool.skill_view";
    let r = s.skill.readiness();
    if let Some(error) = &r.view_error {
        return step("readiness", F, Outcome::Fail, format!("skill_view fails: {error}"))
            .at(s.md(), s.key_line("prerequisites"));
    }
    if r.setup_needed {
        let mut missing = Vec::new();
        if !r.missing_env.is_empty() {
            missing.push(format!("environment variables {}", r.missing_env.join(", ")));
        }
        if !r.missing_files.is_empty() {
            missing.push(format!("credential files {}", r.missing_files.join(", ")));
        }
        let line = s.key_line("required_environment_variables").or_else(|| s.key_line("required_credential_files"));
        return step(
            "readiness",
            F,
            Outcome::Fail,
            format!("setup needed, missing {}: the agent is told to ask for it", missing.join(" and ")),
        )
        .at(s.md(), line);
    }
    let detail = if r.required.is_empty() { "nothing required" } else { "everything required is set" };
    step("readiness", F, Outcome::Pass, detail)
}

fn bundles(s: &Subject) -> Step {
    const F: &str = "skill_bundles.get_skill_bundles";
    let ctx = crate::context::Context::prepared(s.inputs.engine, s.inputs.catalog);
    let mut loading = Vec::new();
    let mut skipping: Vec<(String, PathBuf)> = Vec::new();
    for (key, bundle) in &s.inputs.catalog.bundles.bundles {
        for id in &bundle.skills {
            // As bundle_members reads an entry: Python's strip().
            let id = crate::py::py_strip(id);
            let lookup = s.inputs.engine.normalize_lookup_name(id);
            if !ctx.candidates(&lookup, None).iter().any(|f| f.skill_md == s.skill.skill_md) {
                continue;
            }
            let members = ctx.bundle_members(bundle);
            match members.iter().find(|(member, _)| member == id).map(|(_, status)| status) {
                Some(crate::messages::MemberStatus::Loaded(_)) => loading.push(key.clone()),
                Some(crate::messages::MemberStatus::Missing(why)) => {
                    skipping.push((format!("{key} skips it: {}", why.reason()), bundle.path.clone()))
                }
                Some(crate::messages::MemberStatus::Disabled(_)) => {
                    skipping.push((format!("{key} skips it: disabled"), bundle.path.clone()))
                }
                None => {}
            }
            break;
        }
    }
    if let Some((detail, path)) = skipping.first() {
        let mut detail = detail.clone();
        if !loading.is_empty() {
            detail.push_str(&format!("; loaded by {}", loading.join(", ")));
        }
        return step("bundles", F, Outcome::Fail, detail).at(path, None);
    }
    if loading.is_empty() {
        step("bundles", F, Outcome::Note, "in no bundle")
    } else {
        step("bundles", F, Outcome::Note, format!("loaded by {}", loading.join(", ")))
    }
}
