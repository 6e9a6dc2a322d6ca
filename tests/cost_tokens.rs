//! `skillscope cost` counts tokens as an independent tokenizer does.
//!
//! `tests/golden/tokens/NAME.json` holds, for a few fixture homes and the
//! corpus homes, the token counts (o200k_base and cl100k_base) of the index
//! the real Hermes Agent 0.19.0 renders, of its frame, its categories and
//! each skill's line, and of each skill's `skill_view` content, all counted
//! by Hugging Face `tokenizers` built from the BPE ranks (not by bpe-openai,
//! which skillscope uses). `cost --json` must give the same numbers.
//! Regenerate with `python3 tests/golden/regen_tokens.py`.

mod common;

use common::{run_skillscope, Scenario};
use serde_json::Value as Json;
use std::collections::HashMap;

const ENCODINGS: [&str; 2] = ["o200k_base", "cl100k_base"];

fn golden(name: &str) -> Json {
    let path = common::repo().join("tests/golden/tokens").join(format!("{name}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).expect("golden is JSON")
}

fn cost(scenario: &Scenario, encoding: &str, loaded: bool) -> Json {
    let mut args = vec!["cost", "--json", "--cache", "cold", "--posture", "default", "--session-id", "sess-1"];
    args.extend(["--tokenizer", encoding]);
    if loaded {
        args.push("--loaded");
    }
    let out = run_skillscope(scenario, &args, &[]);
    assert_eq!(out.status.code(), Some(0), "cost {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    scenario.mask(serde_json::from_slice(&out.stdout).expect("cost --json prints JSON"))
}

/// What was compared.
#[derive(Default)]
struct Tally {
    lines: usize,
    loaded: usize,
}

/// Compares one report (one encoding) with the golden; returns the
/// differences.
fn compare(name: &str, golden: &Json, ours: &Json, encoding: &str, tally: &mut Tally) -> Vec<String> {
    let mut diffs = Vec::new();
    let mut expect = |what: String, ours: &Json, want: &Json| {
        if ours != want {
            diffs.push(format!("{name} {encoding}: {what}: ours {ours}, oracle {want}"));
        }
    };
    expect("tokenizer".into(), &ours["tokenizer"], &Json::from(encoding));
    expect("index tokens".into(), &ours["index"]["tokens"], &golden["index"][encoding]);
    expect("index chars".into(), &ours["index"]["chars"], &golden["index"]["chars"]);
    expect("frame tokens".into(), &ours["frame"]["tokens"], &golden["frame"][encoding]);
    let categories: HashMap<&str, &Json> = ours["categories"]
        .as_array()
        .expect("categories")
        .iter()
        .map(|c| (c["category"].as_str().expect("category"), &c["tokens"]))
        .collect();
    let want_categories = golden["categories"].as_array().expect("categories");
    expect("categories".into(), &categories.len().into(), &want_categories.len().into());
    for c in want_categories {
        let category = c["category"].as_str().expect("category");
        let tokens = categories.get(category).copied().unwrap_or(&Json::Null);
        expect(format!("category {category:?} tokens"), tokens, &c[encoding]);
    }
    let offered: Vec<&Json> =
        ours["skills"].as_array().expect("skills").iter().filter(|s| s["offered"] == true).collect();
    let want_skills = golden["skills"].as_array().expect("skills");
    expect("skills in the index".into(), &offered.len().into(), &want_skills.len().into());
    for want in want_skills {
        let key = format!("{}/{}", want["category"], want["name"]);
        let found: Vec<&&Json> =
            offered.iter().filter(|s| s["category"] == want["category"] && s["name"] == want["name"]).collect();
        let [skill] = found.as_slice() else {
            expect(format!("skills {key} in the index"), &found.len().into(), &1.into());
            continue;
        };
        expect(format!("skill {key} line tokens"), &skill["index"]["tokens"], &want["line"][encoding]);
        tally.lines += 1;
        if want["loaded"].is_null() || skill.get("loaded").is_none() {
            continue;
        }
        let file = Json::from(format!("{}/SKILL.md", want["skill_dir"].as_str().expect("skill_dir")));
        expect(format!("skill {key} file"), &skill["path"], &file);
        expect(format!("skill {key} loaded tokens"), &skill["loaded"]["tokens"], &want["loaded"][encoding]);
        tally.loaded += 1;
    }
    diffs
}

fn check(name: &str, scenario: &Scenario) {
    let golden = golden(name);
    let mut diffs = Vec::new();
    let mut tally = Tally::default();
    for encoding in ENCODINGS {
        let ours = cost(scenario, encoding, true);
        diffs.extend(compare(name, &golden, &ours, encoding, &mut tally));
    }
    // Without --loaded, the same index numbers and no loading costs.
    let plain = cost(scenario, "o200k_base", false);
    assert!(plain["skills"].as_array().expect("skills").iter().all(|s| s.get("loaded").is_none()));
    diffs.extend(compare(name, &golden, &plain, "o200k_base", &mut Tally::default()));
    eprintln!("{name}: {} skill lines and {} loaded contents match over both encodings", tally.lines, tally.loaded);
    assert!(diffs.is_empty(), "{} difference(s) from the oracle:\n{}", diffs.len(), diffs.join("\n"));
}

macro_rules! fixtures {
    ($($name:ident),* $(,)?) => {
        $(#[test] fn $name() { check(stringify!($name), &Scenario::fixture(stringify!($name))); })*
    };
}

fixtures!(basic, collisions, frontmatter, gates, prerequisites, yaml_scalars, yaml_timestamps);

#[test]
fn corpus_hermes() {
    let tmp = tempfile::tempdir().expect("tempdir");
    check("corpus_hermes", &common::corpus_scenario("corpus_hermes", &tmp.path().canonicalize().expect("tmp")));
}

#[test]
fn corpus_others() {
    let tmp = tempfile::tempdir().expect("tempdir");
    check("corpus_others", &common::corpus_scenario("corpus_others", &tmp.path().canonicalize().expect("tmp")));
}

/// Every golden has its test above.
#[test]
fn every_golden_is_checked() {
    let mut names: Vec<String> = std::fs::read_dir(common::repo().join("tests/golden/tokens"))
        .expect("tests/golden/tokens")
        .filter_map(|e| e.ok()?.file_name().into_string().ok()?.strip_suffix(".json").map(String::from))
        .collect();
    names.sort();
    let tested = [
        "basic",
        "collisions",
        "corpus_hermes",
        "corpus_others",
        "frontmatter",
        "gates",
        "prerequisites",
        "yaml_scalars",
        "yaml_timestamps",
    ];
    assert_eq!(names, tested);
}

/// Where Hermes' `skill_view` fails on a skill, loading it costs nothing
/// measurable: `cost --loaded` gives skill_view's error, not zero tokens.
#[test]
fn a_skill_view_that_fails_is_an_error_not_zero() {
    let scenario = Scenario::fixture("prerequisites");
    let report = cost(&scenario, "o200k_base", true);
    let skills = report["skills"].as_array().expect("skills");
    let failing: Vec<&Json> = skills.iter().filter(|s| s["loaded"].get("error").is_some()).collect();
    assert!(!failing.is_empty(), "some skill_view fails in this home: {report:#}");
    for s in &failing {
        assert!(s["loaded"].get("tokens").is_none(), "{s}");
        assert!(s["loaded"]["error"].as_str().is_some_and(|e| !e.is_empty()), "{s}");
    }
    assert!(skills.iter().any(|s| s["loaded"]["tokens"].as_u64().is_some_and(|t| t > 0)));
}
