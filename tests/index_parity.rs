//! The skills index with categories shown names-only, and the categories the
//! focus posture demotes, against the real Hermes Agent 0.19.0.
//!
//! `tests/golden/index/NAME.json` holds, for a fixture or corpus home, the
//! string `build_skills_system_prompt(compact_categories=...)` returns and
//! its `len()` for four sets of categories; `skillscope prompt --json
//! --compact ...` must print that string and `cost --json` count as many
//! characters. `tests/golden/index/posture.json` holds a folder layout and
//! cases (config.yaml, working directory, platform, `--posture`) with the
//! categories `coding_compact_skill_categories` gives; `cost --json --cwd`
//! must list the same. Regenerate with `python3 tests/golden/regen_index.py`.

mod common;

use common::{first_char_difference, run_skillscope, RefConf, Scenario};
use serde_json::Value as Json;
use std::path::{Path, PathBuf};

fn golden(name: &str) -> Json {
    let path = common::repo().join("tests/golden/index").join(format!("{name}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).expect("golden is JSON")
}

fn strings(value: &Json) -> Vec<String> {
    value.as_array().expect("a list").iter().map(|v| v.as_str().expect("a string").to_owned()).collect()
}

fn stdout_json(out: &std::process::Output, what: &str) -> Result<Json, String> {
    if out.status.code() != Some(0) {
        return Err(format!("{what}: exit {:?}: {}", out.status.code(), String::from_utf8_lossy(&out.stderr)));
    }
    serde_json::from_slice(&out.stdout).map_err(|e| format!("{what}: stdout is not JSON ({e})"))
}

/// Compares every case of one home's golden; returns the failures and the
/// number of cases.
fn check_home(name: &str, scenario: &Scenario) -> (Vec<String>, usize) {
    let doc = golden(name);
    let cases = doc.as_object().expect("cases");
    let mut failures = Vec::new();
    for (case, want) in cases {
        let compact = strings(&want["compact"]);
        let flag = format!("--compact={}", compact.join(","));
        let label = format!("{name} [{case}: {flag}]");
        let text = want["text"].as_str().expect("text");
        let len = want["len"].as_u64().expect("len") as usize;
        assert_eq!(text.chars().count(), len, "{label}: the golden's len() is its text's");
        let out = run_skillscope(scenario, &["prompt", "--json", "--cache", "cold", &flag], &[]);
        match stdout_json(&out, &label) {
            Ok(Json::String(ours)) if ours == text => {}
            Ok(Json::String(ours)) => failures.push(format!("{label}: prompt: {}", first_char_difference(&ours, text))),
            Ok(other) => failures.push(format!("{label}: prompt printed {other}")),
            Err(e) => failures.push(e),
        }
        let out = run_skillscope(scenario, &["cost", "--json", "--cache", "cold", &flag], &[]);
        match stdout_json(&out, &label) {
            Ok(cost) => {
                let (chars, bytes) = (cost["index"]["chars"].as_u64(), cost["index"]["bytes"].as_u64());
                if chars != Some(len as u64) || bytes != Some(text.len() as u64) {
                    failures.push(format!(
                        "{label}: cost index chars {chars:?}, bytes {bytes:?}; Hermes' len() {len}, bytes {}",
                        text.len()
                    ));
                }
                if strings(&cost["compact"]) != compact {
                    failures.push(format!("{label}: cost compact {} vs {compact:?}", cost["compact"]));
                }
            }
            Err(e) => failures.push(e),
        }
    }
    (failures, cases.len())
}

/// The homes with an index golden (fixtures and corpus), by name.
fn golden_homes() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(common::repo().join("tests/golden/index"))
        .expect("tests/golden/index")
        .filter_map(|e| e.ok()?.file_name().into_string().ok()?.strip_suffix(".json").map(String::from))
        .filter(|n| n != "posture")
        .collect();
    names.sort();
    names
}

#[test]
fn fixture_homes_render_as_hermes_does() {
    let names: Vec<String> = golden_homes().into_iter().filter(|n| !n.starts_with("corpus_")).collect();
    assert!(names.len() >= 40, "index goldens: {names:?}");
    // `cost` loads its encoding at each run: the homes are checked on a few threads.
    let next = std::sync::atomic::AtomicUsize::new(0);
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get().min(4));
    let results: Vec<(Vec<String>, usize)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    while let Some(name) = names.get(next.fetch_add(1, std::sync::atomic::Ordering::Relaxed)) {
                        done.push(check_home(name, &Scenario::fixture(name)));
                    }
                    done
                })
            })
            .collect();
        workers.into_iter().flat_map(|w| w.join().expect("worker")).collect()
    });
    let cases: usize = results.iter().map(|(_, n)| n).sum();
    let failures: Vec<String> = results.into_iter().flat_map(|(f, _)| f).collect();
    eprintln!("{} fixture homes, {cases} cases, {} failures", names.len(), failures.len());
    assert!(failures.is_empty(), "{} case(s) differ from Hermes:\n{}", failures.len(), failures.join("\n"));
}

fn check_corpus(name: &str) {
    let tmp = tempfile::tempdir().expect("tempdir");
    let scenario = common::corpus_scenario(name, &tmp.path().canonicalize().expect("tmp"));
    let (failures, cases) = check_home(name, &scenario);
    eprintln!("{name}: {cases} cases");
    assert!(failures.is_empty(), "{} case(s) differ from Hermes:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn corpus_hermes_renders_as_hermes_does() {
    check_corpus("corpus_hermes");
}

#[test]
fn corpus_others_renders_as_hermes_does() {
    check_corpus("corpus_others");
}

/// Writes the golden's layout under `base`: a path ending in `/` is a
/// folder, else a file with the given text.
fn build_layout(base: &Path, layout: &Json) {
    for (rel, text) in layout.as_object().expect("layout") {
        let path = base.join(rel);
        match text.as_str() {
            None => std::fs::create_dir_all(&path).expect("mkdir"),
            Some(text) => {
                std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
                std::fs::write(&path, text).expect("write");
            }
        }
    }
}

#[test]
fn posture_demotes_what_hermes_demotes() {
    let doc = golden("posture");
    let tmp = tempfile::tempdir().expect("tempdir");
    let base: PathBuf = tmp.path().canonicalize().expect("tmp").join(doc["base"].as_str().expect("base"));
    build_layout(&base, &doc["layout"]);
    let home = base.join("home");
    let scenario =
        Scenario { home: home.clone(), ext: None, fake_home: base.join("fakehome"), conf: RefConf::default() };
    let cases = doc["cases"].as_array().expect("cases");
    let mut failures = Vec::new();
    for case in cases {
        match case["config"].as_str() {
            Some(config) => std::fs::write(home.join("config.yaml"), config).expect("config"),
            None => std::fs::remove_file(home.join("config.yaml")).or_else(ignore_missing).expect("no config"),
        }
        let cwd = base.join(case["cwd"].as_str().expect("cwd")).display().to_string();
        let mut args = vec!["cost", "--json", "--cache", "cold", "--cwd", &cwd];
        if let Some(posture) = case["posture"].as_str() {
            args.extend(["--posture", posture]);
        }
        let platform: Vec<(&str, &str)> =
            case["platform"].as_str().map(|p| ("HERMES_PLATFORM", p)).into_iter().collect();
        let out = run_skillscope(&scenario, &args, &platform);
        match stdout_json(&out, &case.to_string()) {
            Ok(cost) if cost["compact"] == case["compact"] => {}
            Ok(cost) => failures.push(format!("{case}: ours {}", cost["compact"])),
            Err(e) => failures.push(e),
        }
    }
    let demoting = cases.iter().filter(|c| c["compact"].as_array().is_some_and(|a| !a.is_empty())).count();
    eprintln!("posture: {} cases ({demoting} demote), {} failures", cases.len(), failures.len());
    assert!(failures.is_empty(), "{} case(s) differ from Hermes:\n{}", failures.len(), failures.join("\n"));
}

fn ignore_missing(e: std::io::Error) -> std::io::Result<()> {
    if e.kind() == std::io::ErrorKind::NotFound {
        Ok(())
    } else {
        Err(e)
    }
}
