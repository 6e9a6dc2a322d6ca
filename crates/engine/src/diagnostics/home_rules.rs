//! Rules on the home: where it lives and its disabled lists.

use super::{relative, Finding, Sink};
use crate::catalog::Catalog;
use crate::discover;
use crate::value::Value;
use crate::Engine;
use std::collections::HashSet;
use std::path::PathBuf;

fn config_line(text: &str, needle: &str) -> Option<usize> {
    text.lines().position(|l| l.contains(needle)).map(|i| i + 1)
}

pub(crate) fn check(engine: &Engine, catalog: &Catalog, roots: &[PathBuf], findings: &mut Vec<Finding>) {
    let root = crate::paths::resolve(&engine.home.skills_dir);
    if discover::has_excluded_component(&root) && !catalog.skills.is_empty() {
        let mut home = Sink {
            findings: &mut *findings,
            skill_md: None,
            skill_name: None,
            path: engine.home.root.as_path().into(),
            rel_path: engine.home.root.display().to_string().into(),
            per_rule: Default::default(),
        };
        let msg = format!("{} contains a folder name skills_list excludes: it lists no skill", root.display());
        home.add("hermes-home-excluded", None, msg);
    }
    for folder in &catalog.unreadable {
        let mut sink = Sink {
            findings: &mut *findings,
            skill_md: None,
            skill_name: None,
            path: folder.path.as_path().into(),
            rel_path: relative(&folder.path, roots),
            per_rule: Default::default(),
        };
        let msg = match folder.cut {
            // Hermes would go on walking; skillscope stops (docs/deviations.md).
            true => format!(
                "walked in part ({}): skills below it may be missing here, and Hermes, which follows symlinks \
                 with no bound, would take as long as the machine has folders",
                folder.error
            ),
            false => format!("cannot be listed ({}): Hermes passes over it and every skill in it", folder.error),
        };
        sink.add("hermes-unreadable-folder", None, msg);
    }
    if let Some(problem) = &engine.home.dotenv_problem {
        let dotenv = engine.home.root.join(".env");
        let mut sink = Sink {
            findings: &mut *findings,
            skill_md: None,
            skill_name: None,
            rel_path: relative(&dotenv, roots),
            path: dotenv.as_path().into(),
            per_rule: Default::default(),
        };
        sink.add("hermes-env-unreadable", None, format!("{problem}: every skill_view fails with this"));
    }
    let config = engine.home.config_path();
    let first = findings.len();
    let mut sink = Sink {
        findings,
        skill_md: None,
        skill_name: None,
        rel_path: relative(&config, roots),
        path: config.as_path().into(),
        per_rule: Default::default(),
    };
    let text = engine.home.config_text.clone().unwrap_or_default();
    if let Some(problem) = &engine.home.config_problem {
        // The problem names the file, which the finding's path already does.
        let shown = crate::paths::path_string(&config);
        let why =
            problem.strip_prefix(&format!("{shown}: ")).unwrap_or(problem).trim_end_matches("; Hermes ignores it");
        sink.add("hermes-config-ignored", None, format!("{why}: Hermes uses none of its settings"));
    }

    let shell = crate::preprocess::PreprocessConfig::from_skills(engine.home.merged_skills());
    if let (true, Err(e)) = (shell.inline_shell, &shell.timeout) {
        sink.add(
            "hermes-shell-timeout-invalid",
            config_line(&text, "inline_shell_timeout"),
            format!("inline_shell_timeout: {}: every skill's message fails to build", e.message),
        );
    }
    if let Err(e) = crate::gates::disabled_names(&engine.home, &engine.env, None) {
        let key = if engine.env.platform_scope().is_some() { "platform_disabled" } else { "disabled" };
        sink.add(
            "hermes-disabled-unusable",
            config_line(&text, key).or_else(|| config_line(&text, "disabled")),
            format!("the disabled skills cannot be read ({}): Hermes lists no skill and builds no index", e.message),
        );
    }
    let Some(skills) = engine.home.raw_skills() else { return };
    let names: HashSet<String> = catalog
        .skills
        .iter()
        .flat_map(|s| {
            let dir = s.skill_dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            [s.name.clone(), dir]
        })
        .collect();
    let mut lists: Vec<(String, &Value)> = Vec::new();
    if let Some(d) = skills.get("disabled") {
        lists.push(("skills.disabled".into(), d));
    }
    if let Some(Value::Map(per)) = skills.get("platform_disabled") {
        for (platform, list) in per {
            lists.push((format!("skills.platform_disabled.{platform}"), list));
        }
    }
    for (key, list) in lists {
        match list {
            Value::Str(s) => {
                sink.add(
                    "hermes-disabled-string",
                    config_line(&text, s),
                    format!("`{key}: {s}` is a string: skill_view disables every skill whose name is part of it"),
                );
                if !names.contains(s.trim()) {
                    sink.add(
                        "hermes-disabled-unknown",
                        config_line(&text, s),
                        format!("`{s}` in {key} names no skill"),
                    );
                }
            }
            Value::Seq(items) => {
                // A list's items are looked for from the line of the last
                // one found on: each line is read once, not once an item
                // (100,000 entries took over a minute).
                let lines: Vec<&str> = text.lines().collect();
                let mut from = 0;
                for item in items {
                    let name = item.py_str();
                    let name = name.trim();
                    if !name.is_empty() && !names.contains(name) {
                        let holds = |l: &&str| l.contains(name);
                        let found = (lines[from..].iter().position(holds).map(|i| from + i))
                            .or_else(|| lines[..from].iter().position(holds));
                        from = found.unwrap_or(from);
                        sink.add(
                            "hermes-disabled-unknown",
                            found.map(|i| i + 1),
                            format!("`{name}` in {key} names no skill"),
                        );
                    }
                }
            }
            _ => {}
        }
    }
    let text_findings = &mut findings[first..];
    super::fill_columns(text_findings, &text);
}

/// Category descriptions (`DESCRIPTION.md`) whose text holds a control or
/// escape character: it reaches the prompt index as is.
pub(crate) fn check_category_descriptions(files: &[PathBuf], roots: &[PathBuf], findings: &mut Vec<Finding>) {
    for file in files {
        let Ok(text) = crate::source::read_text(file) else { continue };
        let fields = crate::frontmatter::parse(&text).0.fields;
        let Some(Value::Str(description)) = fields.get("description") else { continue };
        let Some(held) = super::frontmatter_rules::control_characters(description) else { continue };
        let mut sink = Sink {
            findings,
            skill_md: None,
            skill_name: None,
            path: file.as_path().into(),
            rel_path: relative(file, roots),
            per_rule: Default::default(),
        };
        let line = config_line(&text, "description:");
        let message = format!("the category description holds {held}");
        sink.add("hermes-control-character", line, message);
        let first = sink.findings.len() - 1;
        super::fill_columns(&mut findings[first..], &text);
    }
}
