//! `why` against the other surfaces: on every fixture home, each skill's
//! trace agrees with the index `prompt` renders (offered if and only if its
//! line is there), the slash commands `commands` lists and the readiness
//! `skill_view` reports; and every reason a step fails for is met on some
//! fixture home.

mod common;

use common::Scenario;
use skillscope::engine::context::Context;
use skillscope::engine::prompt::IndexRequest;
use skillscope::engine::why::{self, Lookup, Outcome, Trace, WhyInputs};
use std::collections::BTreeSet;

fn fixtures() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(common::repo().join("tests/fixtures"))
        .expect("fixtures")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .collect();
    names.sort();
    names
}

fn step<'a>(trace: &'a Trace, name: &str) -> &'a why::Step {
    trace.steps.iter().find(|s| s.step == name).unwrap_or_else(|| panic!("no step {name}"))
}

/// The traces of every skill of a fixture home, checked against the other
/// surfaces on the way.
fn traces_agreeing(fixture: &str) -> Vec<Trace> {
    let engine = Scenario::fixture(fixture).engine();
    let request = IndexRequest::default();
    // A home whose index Hermes fails to build has no `why` either (the
    // command says so): parity tests cover the error.
    let Ok(index) = engine.prompt_index(&request) else { return Vec::new() };
    let prompt = engine.system_prompt(&request).expect("prompt");
    let commands = engine.skill_commands();
    let catalog = engine.catalog();
    let inputs = WhyInputs { engine: &engine, catalog: &catalog, index: &index, context: None };
    // A golden file of `ref.py` gives each command's message, `null` when
    // Hermes builds none.
    let golden_messages: Option<BTreeSet<String>> =
        std::fs::read_to_string(common::repo().join(format!("tests/golden/{fixture}.json"))).ok().and_then(|text| {
            let golden = common::py_json(&text);
            let messages = golden.get("slash_messages")?.as_object()?;
            Some(messages.iter().filter(|(_, v)| v.is_string()).map(|(k, _)| k.clone()).collect())
        });
    let mut out = Vec::new();
    for (i, skill) in catalog.skills.iter().enumerate() {
        let trace = inputs.trace(i, &[i]);
        let steps: Vec<&str> = trace.steps.iter().map(|s| s.step).collect();
        assert_eq!(steps, why::STEPS, "{fixture}: steps of {}", skill.skill_md.display());
        let where_ = format!("{fixture}: {}", skill.skill_md.display());
        // Offered iff its line is in the rendered index.
        let in_prompt = index.entry_of(&skill.skill_md).is_some_and(|(category, entry)| {
            prompt.contains(entry.text.trim_end()) && prompt.contains(category.header.trim_end())
        });
        assert_eq!(trace.offered, in_prompt, "{where_}: offered");
        assert_eq!(step(&trace, "index").outcome == Outcome::Pass, trace.offered, "{where_}");
        // Offered though unreadable: by name alone, which the step says.
        if trace.offered && skill.read_error.is_some() {
            assert!(step(&trace, "index").detail.contains("skill_view cannot read the file"), "{where_}");
        }
        // A command that builds a message iff `commands` registers one for
        // this SKILL.md and the real Hermes built its message (the golden
        // file's `slash_messages`).
        let key = commands.iter().find(|(_, c)| c.skill_md_path == skill.skill_md).map(|(key, _)| key);
        let builds = key.is_some_and(|key| match &golden_messages {
            Some(messages) => messages.contains(key),
            None => Context::prepared(&engine, &catalog).invocation_message(key, "", None).is_some(),
        });
        assert_eq!(step(&trace, "command").outcome == Outcome::Pass, builds, "{where_}: command");
        // Readiness as skill_view reports it.
        let r = skill.readiness();
        assert_eq!(
            step(&trace, "readiness").outcome == Outcome::Fail,
            r.setup_needed || r.view_error.is_some(),
            "{where_}: readiness"
        );
        // A gate that fails hides the skill from the listing too.
        for gate in ["platform", "environment", "disabled"] {
            if step(&trace, gate).outcome == Outcome::Fail {
                assert!(!skill.status.listed, "{where_}: {gate} fails but it is listed");
                assert!(!trace.offered, "{where_}: {gate} fails but it is offered");
            }
        }
        out.push(trace);
    }
    out
}

#[test]
fn traces_agree_with_prompt_commands_and_readiness_on_every_fixture() {
    let mut reasons: BTreeSet<String> = BTreeSet::new();
    let mut traced = 0;
    for fixture in fixtures() {
        for trace in traces_agreeing(&fixture) {
            traced += 1;
            for s in trace.steps.iter().filter(|s| s.outcome == Outcome::Fail) {
                let detail = s.detail.to_lowercase();
                let reason = [
                    "does not include",
                    "none is active",
                    "is in `skills.disabled",
                    "taken by an earlier skill",
                    "ambiguous",
                    "the listing drops it",
                    "yaml error",
                    "another platform or environment",
                    "disabled in config.yaml",
                    "conditions are not met",
                    "an earlier skill of the index has its name",
                    "hermes' own commands",
                    "registered the name",
                    "took /",
                    "builds no message",
                    "setup needed",
                    "skill_view fails",
                    "skips it",
                    "cannot be read",
                ]
                .into_iter()
                .find(|r| detail.contains(r));
                if let Some(r) = reason {
                    reasons.insert(format!("{}: {r}", s.step));
                }
            }
        }
    }
    assert!(traced > 200, "only {traced} skills traced");
    for expected in [
        "platform: does not include",
        "environment: none is active",
        "disabled: is in `skills.disabled",
        "name: taken by an earlier skill",
        "name: ambiguous",
        "frontmatter: yaml error",
        "index: another platform or environment",
        "index: disabled in config.yaml",
        "index: an earlier skill of the index has its name",
        "command: hermes' own commands",
        "command: registered the name",
        "command: builds no message",
        "readiness: setup needed",
        "readiness: skill_view fails",
        "bundles: skips it",
    ] {
        assert!(reasons.contains(expected), "no fixture home fails `{expected}`; met: {reasons:#?}");
    }
}

/// A config.yaml Hermes cannot use disables nothing: the step says why,
/// rather than only that the skill is not listed there.
#[test]
fn an_unusable_config_yaml_is_named_in_the_disabled_step() {
    for trace in traces_agreeing("config_invalid") {
        let disabled = step(&trace, "disabled");
        assert_eq!(disabled.outcome, Outcome::Pass);
        assert!(disabled.detail.starts_with("config.yaml is not used ("), "{}", disabled.detail);
        assert!(disabled.detail.ends_with("): no skill is disabled"), "{}", disabled.detail);
    }
    assert!(!traces_agreeing("config_invalid").is_empty());
    // A usable one is not mentioned so.
    for trace in traces_agreeing("basic") {
        assert!(!step(&trace, "disabled").detail.contains("is not used"));
    }
}

#[test]
fn conditions_leave_a_skill_out_for_the_tools_given() {
    let engine = Scenario::fixture("gates").engine();
    let request = IndexRequest {
        avail: skillscope::engine::gates::ToolAvailability {
            tools: Some(["skills_list".to_owned()].into()),
            toolsets: Some(["skills".to_owned()].into()),
        },
        ..IndexRequest::default()
    };
    let index = engine.prompt_index(&request).expect("index");
    let catalog = engine.catalog();
    let Lookup::Found(found) = why::lookup(&catalog, &index, "cond-tools") else { panic!("cond-tools") };
    let trace = WhyInputs { engine: &engine, catalog: &catalog, index: &index, context: None }.trace(found[0], &found);
    let index_step = step(&trace, "index");
    assert_eq!(index_step.outcome, Outcome::Fail);
    assert!(index_step.detail.contains("requires_tools"), "{}", index_step.detail);
    assert!(!trace.offered);
}

#[test]
fn unknown_names_suggest_the_closest() {
    let engine = Scenario::fixture("gates").engine();
    let index = engine.prompt_index(&IndexRequest::default()).expect("index");
    let catalog = engine.catalog();
    match why::lookup(&catalog, &index, "cond-tool") {
        Lookup::Unknown { closest } => assert_eq!(closest.first().map(String::as_str), Some("cond-tools")),
        other => panic!("{other:?}"),
    }
}
