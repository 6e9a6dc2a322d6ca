//! `skillscope lifecycle` against the real Hermes: provenance, the names
//! the curator walks, whether a pass is due, and what a pass at a given
//! time does to each skill (`tests/golden/lifecycle.json`, from
//! `tests/golden/regen_lifecycle.py`). Nothing in the home is written.

use serde_json::Value;
use skillscope::engine::env::{Env, Os};
use skillscope::engine::{isotime, Engine, Options};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The homes in `tests/fixtures/lifecycle/`, as the golden has them.
const FIXTURES: [&str; 3] = ["home", "second", "bom"];

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/lifecycle")
}

fn fixture() -> PathBuf {
    fixtures().join("home")
}

fn golden() -> Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden/lifecycle.json");
    serde_json::from_str(&std::fs::read_to_string(path).expect("golden")).expect("json")
}

/// Every file below `dir` with its bytes: a home is unchanged when equal.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.insert(p.clone(), std::fs::read(&p).unwrap_or_default());
            }
        }
    }
    out
}

/// Hermes' answers for one fixture home of `tests/fixtures/lifecycle/`.
fn golden_for(fixture: &str) -> Value {
    golden()[fixture].clone()
}

fn engine_on(home: &Path) -> Engine {
    Engine::new(home.to_path_buf(), Env::with_vars([("HOME", "/nonexistent")], Os::Linux), Options::default())
}

/// Every fixture home: the names the pass walks, provenance, eligibility,
/// whether a pass is due, and what the pass does to each skill.
#[test]
fn the_forecast_is_what_hermes_pass_does() {
    for fixture in FIXTURES {
        let golden = golden_for(fixture);
        let home = fixtures().join(fixture);
        let before = snapshot(&home);
        let now = isotime::parse(golden["now"].as_str().expect("now")).expect("a time");
        let life = engine_on(&home).lifecycle(now);
        assert_eq!(snapshot(&home), before, "{fixture}: the home is byte-identical");

        let walked: Vec<&str> = life.skills.iter().filter(|s| s.eligible).map(|s| s.name.as_str()).collect();
        let names: Vec<&str> = golden["names"].as_array().expect("names").iter().filter_map(Value::as_str).collect();
        assert_eq!(walked, names, "{fixture}: list_agent_created_skill_names()");
        let ours = |name: &str| {
            life.skills.iter().find(|s| s.name == name).unwrap_or_else(|| panic!("{fixture}: {name} is listed"))
        };
        for (name, provenance) in golden["provenance"].as_object().expect("provenance") {
            assert_eq!(
                ours(name).provenance,
                provenance.as_str().unwrap_or_default(),
                "{fixture}: provenance of {name}"
            );
        }
        for (name, eligible) in golden["curation_eligible"].as_object().expect("curation_eligible") {
            let hermes = eligible.as_bool().expect("a bool");
            assert_eq!(ours(name).curation_eligible, hermes, "{fixture}: is_curation_eligible({name})");
        }
        // `agent_created_report()`: each walked skill's record as Hermes reads it.
        for (name, row) in golden["report"].as_object().expect("report") {
            let s = ours(name);
            assert_eq!(s.last_activity.as_deref(), row["last_activity_at"].as_str(), "{fixture}: {name} last activity");
            assert_eq!(Some(s.activity_count), row["activity_count"].as_i64(), "{fixture}: {name} activity_count");
            assert_eq!(Some(s.state.as_str()), row["state"].as_str(), "{fixture}: {name} state");
            assert_eq!(s.pinned, row["pinned"] == true, "{fixture}: {name} pinned");
            assert_eq!(Some(s.recorded), row["persisted"].as_bool(), "{fixture}: {name} has a record");
        }
        let mut differ = Vec::new();
        for (name, next) in golden["next"].as_object().expect("next") {
            let s = ours(name);
            if s.next != next.as_str().unwrap_or_default() {
                differ.push(format!("{fixture}: {name}: ours {} ({}), Hermes {next}", s.next, s.why));
            }
        }
        assert!(differ.is_empty(), "{}", differ.join("\n"));
        assert_eq!(life.curator.due, golden["due"].as_bool().expect("due"), "{fixture}: should_run_now");
    }
    let golden = golden_for("home");
    let life = engine_on(&fixture()).lifecycle(isotime::parse(golden["now"].as_str().expect("now")).expect("time"));
    assert!(golden["error"].as_str().is_some_and(|e| e.starts_with("ValueError")), "the fixture stops Hermes' pass");
    let stopped = life.skills.iter().find(|s| s.name == "zz-bad-count").expect("listed");
    assert!(stopped.why.contains("the pass stops at zz-bad-count"), "{}", stopped.why);
}

/// The archive as `list_archived_skill_names()` has it, and for each
/// archived folder the restore command that brings that very folder back
/// (the name without its stamp when Hermes picks this copy for it), or
/// Hermes' own words for why it refuses.
#[test]
fn archived_skills_and_their_restore_commands_are_hermes() {
    for fixture in FIXTURES {
        let golden = golden_for(fixture);
        let home = fixtures().join(fixture);
        let life = engine_on(&home).lifecycle(isotime::parse("2027-03-01").expect("a time"));
        let names: Vec<&str> = life.archived.iter().map(|a| a.name.as_str()).collect();
        let hermes: Vec<&str> =
            golden["archived"].as_array().expect("archived").iter().filter_map(Value::as_str).collect();
        assert_eq!(names, hermes, "{fixture}: list_archived_skill_names()");
        let suppressed: Vec<&str> =
            golden["suppressed"].as_array().expect("a list").iter().filter_map(Value::as_str).collect();
        for a in &life.archived {
            assert_eq!(a.suppressed, suppressed.contains(&a.name.as_str()), "{fixture}: {} suppressed", a.name);
            let asked = a.restore.strip_prefix("hermes curator restore ").expect("a restore command");
            let outcomes = &golden["restore"][&a.name];
            let outcome = &outcomes[asked];
            assert!(outcome.is_object(), "{fixture}: Hermes was asked to restore {asked} for {}", a.name);
            let masked = |text: &str| text.replace(&paths_string(&home), "<home>");
            match &a.restore_refused {
                None => {
                    assert_eq!(outcome["ok"], true, "{fixture}: restore {asked}: {}", outcome["message"]);
                    assert_eq!(
                        outcome["moved"][0],
                        a.name.as_str(),
                        "{fixture}: restore {asked} brings back {}",
                        a.name
                    );
                }
                Some(why) => {
                    assert_eq!(outcome["ok"], false, "{fixture}: restore {asked} works in Hermes");
                    assert_eq!(masked(why), outcome["message"].as_str().unwrap_or_default(), "{fixture}: {}", a.name);
                }
            }
            // The shorter name whenever Hermes would bring this folder back with it.
            for (name, other) in outcomes.as_object().expect("outcomes") {
                if other["ok"] == true && other["moved"][0] == a.name.as_str() && name.len() < asked.len() {
                    panic!("{fixture}: {} could be restored as {name}, not {asked}", a.name);
                }
            }
        }
    }
}

fn paths_string(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

/// The CLI: the JSON keys scripts use, one skill by name, `--now`.
#[test]
fn lifecycle_json_for_scripts() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_skillscope"))
        .env_clear()
        .env("HOME", "/nonexistent")
        .args(["--home"])
        .arg(fixture())
        .args(["lifecycle", "--json", "--now", "2027-03-01T12:00:00Z"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let doc: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(doc["now"], "2027-03-01T12:00:00+00:00");
    for key in ["enabled", "due"] {
        assert!(doc["curator"].get(key).is_some(), "curator.{key}");
    }
    let skill =
        doc["skills"].as_array().expect("skills").iter().find(|s| s["name"] == "agent-stale-due").expect("a skill");
    for key in ["name", "provenance", "external", "eligible", "state", "pinned", "last_activity", "next", "due", "why"]
    {
        assert!(skill.get(key).is_some(), "skills[].{key}");
    }
    assert_eq!(skill["next"], "stale");
    assert_eq!(skill["due"], "2027-02-19T12:00:00+00:00");
    let hub = doc["skills"].as_array().expect("skills").iter().find(|s| s["name"] == "hub-skill").expect("hub");
    assert_eq!(hub["hub"]["trust_level"], "community");
    let bad = std::process::Command::new(env!("CARGO_BIN_EXE_skillscope"))
        .args(["--home"])
        .arg(fixture())
        .args(["lifecycle", "--now", "soon"])
        .output()
        .expect("runs");
    assert_eq!(bad.status.code(), Some(2));
}

/// `lifecycle NAME` finds archived copies by their skill's name too, and
/// says which one `hermes curator restore NAME` brings back.
#[test]
fn lifecycle_of_an_archived_name() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_skillscope"))
        .env_clear()
        .env("HOME", "/nonexistent")
        .arg("--home")
        .arg(fixtures().join("second"))
        .args(["lifecycle", "tool", "--json", "--now", "2027-03-01"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let doc: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let archived: Vec<(&str, &str)> = doc["archived"]
        .as_array()
        .expect("archived")
        .iter()
        .map(|a| (a["name"].as_str().unwrap_or_default(), a["restore"].as_str().unwrap_or_default()))
        .collect();
    assert_eq!(
        archived,
        [
            ("tool-20260101120000", "hermes curator restore tool-20260101120000"),
            ("tool-20260301120000", "hermes curator restore tool")
        ]
    );
    assert!(doc["skills"].as_array().expect("skills").is_empty());
}

/// A corrupt usage file, a lock pointing out of the skills folder: a clear
/// message naming the file, and the rest still answers.
#[test]
fn bad_state_files_are_named_and_passed_over() {
    let t = tempfile::tempdir().expect("tmp");
    let home = t.path().join("home");
    let status = std::process::Command::new("cp").arg("-a").arg(fixture()).arg(&home).status().expect("cp");
    assert!(status.success());
    std::fs::write(home.join("skills/.usage.json"), "{\"agent-fresh\": {\"use_count\": 1,").expect("write");
    std::fs::write(home.join("skills/.curator_state"), [0xff, 0xfe, 0x00]).expect("write");
    let engine = Engine::new(home.clone(), Env::with_vars([("HOME", "/nonexistent")], Os::Linux), Options::default());
    let life = engine.lifecycle(isotime::parse("2027-03-01").expect("a time"));
    let problems = life.problems.join("\n");
    assert!(problems.contains(".usage.json: not valid JSON"), "{problems}");
    assert!(problems.contains(".curator_state"), "{problems}");
    assert!(problems.contains("lock.json: the install path of trusted-one leaves the skills folder"), "{problems}");
    assert!(life.skills.iter().all(|s| !s.recorded), "Hermes reads a corrupt usage file as empty");
    let walked: Vec<&str> = life.skills.iter().filter(|s| s.eligible).map(|s| s.name.as_str()).collect();
    assert_eq!(walked, ["bundled-old", "bundled-recorded"], "only built-ins are walked without records");
    assert!(life.skills.iter().filter(|s| s.eligible).all(|s| s.next == "seed"));
}

/// A usage file of 100,000 records is read whole, in moments, by the
/// lifecycle and by the tree's markers; one nested past any sense is named;
/// one over 64 MiB is named and not read. The skills are listed throughout.
#[test]
fn huge_usage_files_are_read_or_named() {
    let t = tempfile::tempdir().expect("tmp");
    let home = t.path().join("home");
    let status = std::process::Command::new("cp").arg("-a").arg(fixture()).arg(&home).status().expect("cp");
    assert!(status.success());
    let usage = home.join("skills/.usage.json");
    let mut text =
        String::from("{\"agent-fresh\": {\"created_by\": \"agent\", \"use_count\": 7, \"state\": \"stale\"}");
    for i in 0..100_000 {
        text.push_str(&format!(
            ",\n\"skill-{i}\": {{\"use_count\": {i}, \"view_count\": 2, \"last_used_at\": \"2026-11-01T00:00:00+00:00\", \"state\": \"active\"}}"
        ));
    }
    text.push('}');
    std::fs::write(&usage, &text).expect("write");
    let engine = engine_on(&home);
    let started = std::time::Instant::now();
    let life = engine.lifecycle(isotime::parse("2027-03-01").expect("a time"));
    let overview = engine.usage_overview();
    let took = started.elapsed();
    assert!(took < std::time::Duration::from_secs(20), "{took:?} for {} bytes", text.len());
    assert!(life.problems.iter().all(|p| !p.contains(".usage.json")), "{:?}", life.problems);
    assert_eq!(life.skills.iter().find(|s| s.name == "agent-fresh").map(|s| s.use_count), Some(7));
    assert_eq!(overview.marks.len(), 100_001);
    assert!(overview.marks["agent-fresh"].stale);

    std::fs::write(&usage, "[".repeat(200_000)).expect("write");
    let life = engine.lifecycle(isotime::parse("2027-03-01").expect("a time"));
    assert!(life.problems.iter().any(|p| p.contains(".usage.json: not valid JSON")), "{:?}", life.problems);
    assert!(!life.skills.is_empty());

    std::fs::File::create(&usage).and_then(|f| f.set_len(65 << 20)).expect("a sparse file");
    let life = engine.lifecycle(isotime::parse("2027-03-01").expect("a time"));
    assert!(
        life.problems.iter().any(|p| p.contains(".usage.json: larger than 64 MiB, not read")),
        "{:?}",
        life.problems
    );
    assert!(!life.skills.is_empty());
    assert!(engine.usage_overview().marks.is_empty());
}

/// skillscope never writes the home: not `.usage.json`, `.curator_state`,
/// the hub lock or the archive, nor anything else, whatever command runs,
/// and not in a browser session.
#[test]
fn no_command_writes_the_home() {
    let t = tempfile::tempdir().expect("tmp");
    let home = t.path().join("home");
    let status = std::process::Command::new("cp").arg("-a").arg(fixture()).arg(&home).status().expect("cp");
    assert!(status.success());
    let before = snapshot(&home);
    let commands: [&[&str]; 14] = [
        &["list", "--json"],
        &["view", "agent-fresh", "--json"],
        &["prompt"],
        &["prompt", "--cache", "cold"],
        &["commands"],
        &["invoke", "/agent-fresh", "go"],
        &["preload", "agent-fresh,hand-made"],
        &["bundles"],
        &["mounts"],
        &["check", "--min-severity", "info"],
        &["check", "--trust", "community"],
        &["scan", "hub-skill", "--json"],
        &["lifecycle", "--json"],
        &["--print-frame", "100x30"],
    ];
    for args in commands {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_skillscope"))
            .env_clear()
            .env("HOME", t.path().join("fakehome"))
            .arg("--home")
            .arg(&home)
            .args(args)
            .output()
            .expect("runs");
        assert!(out.status.code().is_some_and(|c| c <= 1), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(snapshot(&home), before, "{args:?} left the home as it was");
    }
    // A browser session: every view, each sort, the archive, a search, a
    // reload after Hermes' bookkeeping changed, a rescan.
    let engine = Engine::new(home.clone(), Env::with_vars([("HOME", "/nonexistent")], Os::Linux), Options::default());
    let theme = skillscope::tui::theme::Theme::new(skillscope::tui::theme::ColorMode::TrueColor);
    let mut app = skillscope::tui::app::App::new(engine, theme);
    use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
    let typed = "12345678sssG18yY".chars().map(KeyCode::Char);
    let keys = typed.chain([KeyCode::Esc, KeyCode::Esc, KeyCode::Char('g'), KeyCode::Char('/'), KeyCode::Char('a')]);
    for code in keys.chain([KeyCode::Esc]) {
        let effects = app.handle_event(&Event::Key(KeyEvent::new(code, KeyModifiers::NONE)));
        app.run_jobs_inline(&effects);
        let wanted = app.wanted_jobs();
        app.run_jobs_inline(&wanted);
    }
    while app.search_index_pending() {
        app.index_search();
    }
    let usage = home.join("skills/.usage.json");
    app.reload(&skillscope::engine::reload::Pending { paths: [usage].into_iter().collect(), overflow: false });
    app.rescan_home();
    assert_eq!(snapshot(&home), before, "a browser session left the home as it was");
}

/// Timestamps read as Python 3.11's `datetime.fromisoformat` reads them
/// (`tests/golden/isotimes.json`, naive ones as UTC).
#[test]
fn timestamps_parse_as_python_reads_them() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden/isotimes.json");
    let golden: BTreeMap<String, Option<i64>> =
        serde_json::from_str(&std::fs::read_to_string(path).expect("golden")).expect("json");
    assert!(golden.len() > 40);
    let differ: Vec<String> = golden
        .iter()
        .filter(|(s, expected)| isotime::parse(s) != **expected)
        .map(|(s, expected)| format!("{s:?}: ours {:?}, Python {expected:?}", isotime::parse(s)))
        .collect();
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}

/// `skills.guard_agent_created` as Hermes' `is_truthy_value` reads it: off
/// unless set to a true value or one of the strings 1, true, yes, on.
#[test]
fn the_guard_of_the_agents_own_edits() {
    let t = tempfile::tempdir().expect("tmp");
    for (value, on) in [
        (None, false),
        (Some("true"), true),
        (Some("' Yes '"), true),
        (Some("'no'"), false),
        (Some("1"), true),
        (Some("0"), false),
        (Some("'off'"), false),
    ] {
        let home = t.path().join(format!("home-{}", value.unwrap_or("none").replace(['\'', ' '], "")));
        std::fs::create_dir_all(home.join("skills")).expect("mkdir");
        let config = value.map(|v| format!("skills:\n  guard_agent_created: {v}\n")).unwrap_or_default();
        std::fs::write(home.join("config.yaml"), config).expect("write");
        assert_eq!(engine_on(&home).guard_agent_created(), on, "{value:?}");
    }
}

/// Seeded random homes (`tests/golden/lifecycle_fuzz.json`, from
/// `tests/golden/fuzz_lifecycle.py`): records, config values, timestamps,
/// manifests, locks and cron jobs drawn from pools of odd values, each
/// answered by the real Hermes. Every answer must match.
#[test]
fn random_homes_match_hermes() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden/lifecycle_fuzz.json");
    let golden: Value = serde_json::from_str(&std::fs::read_to_string(path).expect("golden")).expect("json");
    let t = tempfile::tempdir().expect("tmp");
    let mut differ = Vec::new();
    for case in golden["cases"].as_array().expect("cases") {
        let id = case["id"].as_str().expect("id");
        let home = t.path().join(id);
        for (rel, text) in case["files"].as_object().expect("files") {
            let file = home.join(rel);
            std::fs::create_dir_all(file.parent().expect("parent")).expect("mkdir");
            std::fs::write(&file, text.as_str().expect("text")).expect("write");
        }
        let hermes = &case["hermes"];
        let now = isotime::parse(case["now"].as_str().expect("now")).expect("a time");
        let life = engine_on(&home).lifecycle(now);
        let mut say = |what: String| differ.push(format!("{id}: {what}"));
        let walked: Vec<&str> = life.skills.iter().filter(|s| s.eligible).map(|s| s.name.as_str()).collect();
        let names: Vec<&str> =
            hermes["names"].as_array().map(|a| a.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
        if walked != names {
            say(format!("walked {walked:?}, Hermes {names:?}"));
        }
        let ours = |name: &str| life.skills.iter().find(|s| s.name == name);
        for (name, provenance) in hermes["provenance"].as_object().into_iter().flatten() {
            match ours(name) {
                None => say(format!("{name} is not listed")),
                Some(s) if s.provenance != provenance.as_str().unwrap_or_default() => {
                    say(format!("{name}: provenance {}, Hermes {provenance}", s.provenance))
                }
                Some(s) if Some(s.curation_eligible) != hermes["curation_eligible"][name].as_bool() => {
                    say(format!("{name}: curation_eligible {}", s.curation_eligible))
                }
                _ => {}
            }
        }
        for (name, row) in hermes["report"].as_object().into_iter().flatten() {
            let Some(s) = ours(name) else { continue };
            if s.last_activity.as_deref() != row["last_activity_at"].as_str() {
                say(format!("{name}: last activity {:?}, Hermes {}", s.last_activity, row["last_activity_at"]));
            }
            if Some(s.activity_count) != row["activity_count"].as_i64() {
                say(format!("{name}: activity_count {}, Hermes {}", s.activity_count, row["activity_count"]));
            }
            if Some(s.recorded) != row["persisted"].as_bool() {
                say(format!("{name}: recorded {}, Hermes {}", s.recorded, row["persisted"]));
            }
        }
        match hermes["due"].as_bool() {
            Some(due) if due != life.curator.due => {
                say(format!("due {}, Hermes {due} ({})", life.curator.due, life.curator.why))
            }
            None if !life.curator.why.contains("raises") => {
                say(format!("should_run_now raises ({}), ours: {}", hermes["errors"]["due"], life.curator.why))
            }
            _ => {}
        }
        for (name, next) in hermes["next"].as_object().into_iter().flatten() {
            let Some(s) = ours(name) else { continue };
            if s.next != next.as_str().unwrap_or_default() {
                let error = &hermes["errors"]["counts"];
                say(format!("{name}: next {} ({}), Hermes {next} (pass error {error})", s.next, s.why));
            }
        }
    }
    assert!(differ.is_empty(), "{} differences:\n{}", differ.len(), differ.join("\n"));
}

/// The CLI and the browser name provenance alike: Hermes' answer, and our
/// finer reading beside it, labelled as ours.
#[test]
fn provenance_is_said_one_way_everywhere() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_skillscope"))
        .env_clear()
        .env("HOME", "/nonexistent")
        .args(["--home"])
        .arg(fixture())
        .args(["lifecycle", "hub-skill", "--now", "2027-03-01T12:00:00Z"])
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("  provenance hub (Hermes' provenance()); our reading: from a hub: "), "{text}");
    let doc: Value = {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_skillscope"))
            .env_clear()
            .env("HOME", "/nonexistent")
            .args(["--home"])
            .arg(fixture())
            .args(["lifecycle", "--json", "--now", "2027-03-01T12:00:00Z"])
            .output()
            .expect("runs");
        serde_json::from_slice(&out.stdout).expect("JSON")
    };
    let local = doc["skills"]
        .as_array()
        .expect("skills")
        .iter()
        .find(|s| s["provenance"] == "agent" && s["agent_made"] == false)
        .expect("a local skill");
    let name = local["name"].as_str().expect("name");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_skillscope"))
        .env_clear()
        .env("HOME", "/nonexistent")
        .args(["--home"])
        .arg(fixture())
        .args(["lifecycle", name, "--now", "2027-03-01T12:00:00Z"])
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("provenance agent (Hermes' provenance(): neither bundled nor from a hub); our reading: local: no usage record says the agent made it"),
        "{text}"
    );
}
