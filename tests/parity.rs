//! Engine parity with the real Hermes Agent 0.19.0: every surface
//! `hermes-ref/ref.py` prints (and the extra calls of `ref_more.py`) is
//! compared, key order included, with golden JSON in tests/golden.
//! Regenerate the goldens with `python3 tests/golden/regen.py`.

mod common;

use common::copy_tree;
use common::{compare, RefConf, Scenario};
use serde_json::{json, Map, Value as Json};
use skillscope::engine::context::Context;
use skillscope::engine::discover;
use skillscope::engine::gates::{self, ToolAvailability};
use skillscope::engine::paths::path_string;
use skillscope::engine::prompt::{IndexRequest, PromptCache};
use skillscope::engine::value::Value;
use skillscope::engine::view::SkillRef;
use skillscope::engine::Engine;
use std::collections::HashSet;

fn set(items: &[&str]) -> Option<HashSet<String>> {
    Some(items.iter().map(|s| s.to_string()).collect())
}

/// The document `ref.py` prints, built from our engine. `list_before` is
/// skills_list as answered before Hermes' side effect (see `check_fixture`).
fn reference_document(engine: &Engine, extra_names: &[String], list_before: Option<Json>) -> Json {
    let mut doc = Map::new();
    let home = &engine.home;
    doc.insert("external_dirs".into(), json!(home.external_dirs.iter().map(|p| path_string(p)).collect::<Vec<_>>()));
    doc.insert(
        "index_files".into(),
        json!(discover::index_files(&home.skills_dir, "SKILL.md").iter().map(|p| path_string(p)).collect::<Vec<_>>()),
    );
    let disabled = gates::disabled_names(home, &engine.env, None).map(|names| {
        let mut names: Vec<String> = names.into_iter().collect();
        names.sort();
        json!(names)
    });
    doc.insert("disabled".into(), guarded(disabled));
    let all = engine.find_all_skills(true).map(|all| {
        let rows: Vec<Json> = all
            .iter()
            .map(|s| {
                let name = if s.bytes_name { json!({"$repr": s.name}) } else { json!(s.name) };
                json!({"name": name, "description": repr_json(&s.description), "category": s.category})
            })
            .collect();
        json!(rows)
    });
    doc.insert("all_skills_incl_disabled".into(), guarded(all));
    let list = list_before.unwrap_or_else(|| engine.skills_list(None));
    let mut by_cat = Map::new();
    for cat in list["categories"].as_array().cloned().unwrap_or_default() {
        let c = cat.as_str().unwrap_or_default();
        by_cat.insert(c.into(), engine.skills_list(Some(c)));
    }
    let mut names: Vec<String> = list["skills"]
        .as_array()
        .map(|a| a.iter().filter_map(|s| s["name"].as_str().map(String::from)).collect())
        .unwrap_or_default();
    doc.insert("skills_list".into(), list);
    doc.insert("skills_list_by_category".into(), Json::Object(by_cat));
    names.extend(extra_names.iter().cloned());
    let mut views = Map::new();
    for n in &names {
        let view = Context::new(engine).skill_view(SkillRef::Name(n), None, Some("sess-1"), true);
        views.insert(n.clone(), common::without_runtime(view, !engine.options.backend.is_remote()));
    }
    doc.insert("skill_view".into(), Json::Object(views));
    // ref.py deletes the snapshot before its first prompt; the first call
    // writes it again, so the second one takes the warm path.
    doc.insert(
        "system_prompt".into(),
        guarded(
            engine.system_prompt(&IndexRequest { cache: PromptCache::Cold, ..IndexRequest::default() }).map(Json::from),
        ),
    );
    let tools = ToolAvailability {
        tools: set(&["skills_list", "skill_view", "web_search"]),
        toolsets: set(&["skills", "web"]),
    };
    doc.insert(
        "system_prompt_tools".into(),
        guarded(
            engine
                .system_prompt(&IndexRequest {
                    avail: tools.clone(),
                    cache: PromptCache::Warm,
                    ..IndexRequest::default()
                })
                .map(Json::from),
        ),
    );
    let commands = engine.skill_commands();
    doc.insert(
        "slash_commands".into(),
        json!(commands
            .iter()
            .map(|(k, c)| {
                let mut row = c.to_json();
                row["description"] = repr_json(&c.description);
                json!([k, row])
            })
            .collect::<Vec<_>>()),
    );
    let mut messages = Map::new();
    for key in commands.keys() {
        messages.insert(key.clone(), json!(Context::new(engine).invocation_message(key, "do it", Some("sess-1"))));
    }
    doc.insert("slash_messages".into(), Json::Object(messages));
    let mut preload: Vec<String> = names.iter().take(2).cloned().collect();
    preload.push("ghost-skill".into());
    let (text, loaded, missing) = Context::new(engine).preloaded_prompt(&preload, Some("sess-1"));
    doc.insert("preloaded".into(), json!([text, loaded, missing]));
    let bundles = engine.bundles();
    if let Some(error) = &bundles.scan_error {
        doc.insert("bundles_error".into(), json!(error));
    }
    doc.insert("bundles".into(), bundles.to_json());
    let mut bundle_messages = Map::new();
    for key in bundles.bundles.keys() {
        let m = Context::new(engine).bundle_message(key, "ship it", Some("sess-1"));
        bundle_messages.insert(key.clone(), m.map_or(Json::Null, |(t, l, mi)| json!([t, l, mi])));
    }
    doc.insert("bundle_messages".into(), Json::Object(bundle_messages));
    // Hermes mounts a temporary copy of a tree that holds symlinks; the
    // golden names it $SAFE_COPY and skillscope reports the tree itself.
    let mounts: Vec<Json> = engine
        .mounts()
        .iter()
        .map(|m| {
            let mut j = m.to_json();
            if !m.symlinks.is_empty() {
                j["host_path"] = json!("$SAFE_COPY");
            }
            j
        })
        .collect();
    doc.insert("mounts".into(), json!(mounts));
    Json::Object(doc)
}

/// A surface's answer, or `{"$error": message}` where Hermes raises.
fn guarded(answer: Result<Json, skillscope::engine::py::PyError>) -> Json {
    answer.unwrap_or_else(|e| json!({"$error": e}))
}

/// A raw frontmatter value as `ref.py` writes it: JSON where `json.dumps`
/// can, else `{"$repr": repr(value)}` (its `default` hook).
fn repr_json(value: &Value) -> Json {
    match value {
        Value::Seq(items) | Value::Tuple(items) => Json::Array(items.iter().map(repr_json).collect()),
        Value::Map(m) => Json::Object(
            m.iter().map(|(k, v)| (k.json_key().expect("ref.py fails on this key"), repr_json(v))).collect(),
        ),
        other => other.try_to_json().unwrap_or_else(|_| json!({"$repr": other.py_repr()})),
    }
}

/// The document `ref_more.py` prints.
fn extra_document(engine: &Engine, conf: &RefConf) -> Json {
    let mut views = Map::new();
    for spec in conf.all("views") {
        let (name, file) = spec.split_once('|').unwrap_or((spec, ""));
        let file = (!file.is_empty()).then_some(file);
        let view = Context::new(engine).skill_view(SkillRef::Name(name), file, Some("sess-1"), true);
        views.insert(spec.clone(), common::without_runtime(view, !engine.options.backend.is_remote()));
    }
    let mut preload = Map::new();
    for spec in conf.all("preload") {
        let ids: Vec<String> = spec.split(',').map(String::from).collect();
        let (t, l, m) = Context::new(engine).preloaded_prompt(&ids, Some("sess-1"));
        preload.insert(spec.clone(), json!([t, l, m]));
    }
    let mut invoke = Map::new();
    for spec in conf.all("invoke") {
        invoke.insert(spec.clone(), json!(Context::new(engine).dispatch(spec, Some("sess-1"))));
    }
    let mut prompts = Map::new();
    for spec in conf.all("prompts") {
        let (tools, toolsets) = spec.split_once('|').unwrap_or((spec, ""));
        let parse = |s: &str| (s != "-").then(|| s.split(',').filter(|t| !t.is_empty()).map(String::from).collect());
        let avail = ToolAvailability { tools: parse(tools), toolsets: parse(toolsets) };
        prompts.insert(
            spec.clone(),
            json!(engine
                .system_prompt(&IndexRequest {
                    avail: avail.clone(),
                    cache: PromptCache::Cold,
                    ..IndexRequest::default()
                })
                .expect("prompt")),
        );
    }
    json!({"views": views, "preload": preload, "invoke": invoke, "prompts": prompts})
}

fn golden(name: &str) -> Option<Json> {
    let path = common::repo().join("tests/golden").join(name);
    let text = std::fs::read_to_string(&path).ok()?;
    Some(common::py_json(&text))
}

fn assert_parity(label: &str, ours: Json, golden: &Json) -> usize {
    let ours = common::py_json(&skillscope::engine::py::json_text(&ours, false));
    let (matched, diffs) = compare(&ours, golden);
    let total = golden.as_object().map_or(0, |o| o.len());
    eprintln!("{label}: {matched}/{total} surfaces match");
    assert!(diffs.is_empty(), "{label}: {} surface(s) differ:\n{}", diffs.len(), diffs.join("\n"));
    matched
}

/// `before`: what Hermes answered before its `skills_list` created a
/// missing `skills/` (that list, and the extra document, which ref_more.py
/// makes on a fresh copy without it).
fn check_scenario(name: &str, scenario: &Scenario, before: Option<(Json, Json)>) {
    let engine = scenario.engine();
    let (list_before, extra_before) = before.unzip();
    let doc = scenario.mask(reference_document(&engine, scenario.conf.all("names"), list_before));
    let golden_doc = golden(&format!("{name}.json")).unwrap_or_else(|| panic!("no golden for {name}"));
    assert_parity(name, doc, &golden_doc);
    if let Some(extra) = golden(&format!("{name}.extra.json")) {
        let doc = scenario.mask(extra_before.unwrap_or_else(|| extra_document(&engine, &scenario.conf)));
        assert_parity(&format!("{name} (extra)"), doc, &extra);
    }
}

fn check_fixture(name: &str) {
    let scenario = Scenario::fixture(name);
    if scenario.conf.one("hermes_creates_skills_dir") != Some("1") {
        return check_scenario(name, &scenario, None);
    }
    // Hermes' skills_list creates a missing `skills/`, and every later
    // surface sees it. skillscope never writes to a home, so the test replays
    // that side effect on a copy.
    // The fixture's folder, which holds the home (maybe nested) and its
    // external dir.
    let fixture_dir = common::repo().join("tests/fixtures").join(name);
    let tmp = tempfile::tempdir().expect("tempdir");
    let copy = tmp.path().canonicalize().expect("tmp").join(name);
    copy_tree(&fixture_dir, &copy);
    let inside = |path: &std::path::Path| copy.join(path.strip_prefix(&fixture_dir).expect("inside the fixture"));
    let home = inside(&scenario.home);
    let ext = scenario.ext.as_deref().map(inside);
    let copied = Scenario::new(home.clone(), ext, scenario.conf.clone());
    let engine = copied.engine();
    let before = (engine.skills_list(None), extra_document(&engine, &copied.conf));
    std::fs::create_dir_all(home.join("skills")).expect("mkdir");
    check_scenario(name, &copied, Some(before));
}

macro_rules! fixtures {
    ($($name:ident),* $(,)?) => {
        $(#[test] fn $name() { check_fixture(stringify!($name)); })*
    };
}

fixtures!(
    bad_files,
    basic,
    bundle_bom,
    bundle_not_utf8,
    bundles,
    collisions,
    commands,
    config_invalid,
    config_not_mapping,
    config_vars,
    disabled_string,
    empty,
    file_path_nul,
    env_folder,
    env_unreadable,
    excluded_ancestor,
    external_dirs,
    frontmatter,
    gates,
    gateway,
    glob_names,
    inline_shell,
    int_digits,
    mcp_tokens_link,
    name_too_long,
    inline_shell_output,
    inline_shell_timeout_100000000000,
    inline_shell_timeout_1_0,
    inline_shell_timeout_2147484,
    inline_shell_timeout_9223372037,
    no_skills_dir,
    oserror_repr,
    prerequisites,
    readiness,
    readiness_docker,
    repr_unicode,
    root_skill,
    skills_dangling_link,
    sandbox,
    symlinks,
    templates_off,
    views_without_skills_dir,
    yaml_bundle_raises,
    yaml_bundles,
    yaml_config,
    yaml_errors,
    yaml_keys,
    yaml_merge,
    yaml_scalars,
    yaml_sets,
    yaml_tags,
    yaml_timestamps,
);

/// Every seeded random home `tests/golden/gen_homes.py` wrote
/// (`tests/fixtures/gen_*`), against the goldens the real Hermes wrote.
#[test]
fn generated_homes() {
    let mut names: Vec<String> = std::fs::read_dir(common::repo().join("tests/fixtures"))
        .expect("fixtures")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.starts_with("gen_"))
        .collect();
    names.sort();
    assert!(!names.is_empty(), "no generated homes");
    let failed: Vec<String> =
        names.iter().filter(|name| std::panic::catch_unwind(|| check_fixture(name)).is_err()).cloned().collect();
    assert!(failed.is_empty(), "{} of {} generated homes differ: {failed:?}", failed.len(), names.len());
}

/// `corpus/hermes` as HERMES_HOME with `optional-skills` as an external dir.
#[test]
fn corpus_hermes() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let home = tmp.path().canonicalize().expect("tmp").join("corpus_hermes/home");
    copy_tree(&common::corpus().join("hermes"), &home);
    std::fs::write(home.join("config.yaml"), "skills:\n  external_dirs:\n    - ${REF_EXT_DIR}\n").expect("config");
    let scenario = Scenario::new(home.clone(), Some(home.join("optional-skills")), RefConf::default());
    check_scenario("corpus_hermes", &scenario, None);
}

/// The other collections of the corpus, each an external dir of one home.
#[test]
fn corpus_others() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let home = tmp.path().canonicalize().expect("tmp").join("corpus_others/home");
    std::fs::create_dir_all(home.join("skills")).expect("mkdir");
    let list: String = common::OTHER_COLLECTIONS.iter().map(|d| format!("    - ${{REF_EXT_DIR}}/{d}\n")).collect();
    std::fs::write(home.join("config.yaml"), format!("skills:\n  external_dirs:\n{list}")).expect("config");
    let scenario = Scenario::new(home, Some(common::corpus()), RefConf::default());
    check_scenario("corpus_others", &scenario, None);
}
