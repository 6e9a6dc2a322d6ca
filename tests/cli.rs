//! The `skillscope` binary: flags, subcommands, JSON equal to the goldens,
//! exit statuses, and terminal-safe human output.

mod common;

use common::Scenario;
use serde_json::Value as Json;
use std::process::{Command, Output};

fn golden(name: &str) -> Json {
    let path = common::repo().join("tests/golden").join(name);
    common::py_json(&std::fs::read_to_string(&path).expect("golden"))
}

/// Runs the binary the way the reference runs Hermes: a clean environment.
fn run(scenario: &Scenario, args: &[&str]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_skillscope"));
    cmd.env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", &scenario.fake_home)
        .env("TERMINAL_ENV", "local")
        .env("SKILLSCOPE_LISTING_ORDER", "fnv1a")
        .env("HERMES_MANAGED_DIR", "/nonexistent-managed-dir")
        .env("REF_EXT_DIR", scenario.ext.as_ref().map(|e| e.display().to_string()).unwrap_or_default())
        .args(args);
    for line in scenario.conf.all("env") {
        if let Some((k, v)) = line.split_once('=') {
            cmd.env(k, v);
        }
    }
    cmd.output().expect("binary runs")
}

/// `skillscope --demo ARGS`, run in `dir` (the current folder when none).
fn demo_in(dir: Option<&std::path::Path>, args: &[&str]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_skillscope"));
    cmd.arg("--demo").args(args);
    if let Some(dir) = dir {
        cmd.current_dir(dir);
    }
    cmd.output().expect("runs")
}

fn home_arg(s: &Scenario) -> String {
    s.home.display().to_string()
}

fn json_of(scenario: &Scenario, out: &Output) -> Json {
    let value: Json = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("stdout is JSON ({e}): {}", String::from_utf8_lossy(&out.stdout)));
    scenario.mask(value)
}

fn assert_same(ours: &Json, golden: &Json) {
    assert!(common::same(ours, golden), "ours:   {ours}\ngolden: {golden}");
}

#[test]
fn list_json_equals_hermes() {
    let s = Scenario::fixture("basic");
    let out = run(&s, &["--home", &home_arg(&s), "list", "--json"]);
    assert_eq!(out.status.code(), Some(0));
    assert_same(&json_of(&s, &out), &golden("basic.json")["skills_list"]);
}

#[test]
fn list_category_filter() {
    let s = Scenario::fixture("basic");
    let out = run(&s, &["list", "--category", "devops", "--json", "--home", &home_arg(&s)]);
    assert_same(&json_of(&s, &out), &golden("basic.json")["skills_list_by_category"]["devops"]);
}

#[test]
fn global_flags_work_after_the_subcommand() {
    let s = Scenario::fixture("basic");
    let out = run(&s, &["view", "deploy-tool", "--json", "--session-id", "sess-1", "--home", &home_arg(&s)]);
    assert_eq!(out.status.code(), Some(0));
    let view = common::without_runtime(json_of(&s, &out), true);
    assert_same(&view, &golden("basic.json")["skill_view"]["deploy-tool"]);
}

#[test]
fn view_file_path_and_errors_exit_1() {
    let s = Scenario::fixture("basic");
    let h = home_arg(&s);
    let out = run(&s, &["--home", &h, "--json", "view", "deploy-tool", "references/api.md"]);
    assert_eq!(out.status.code(), Some(0));
    assert_same(&json_of(&s, &out), &golden("basic.extra.json")["views"]["deploy-tool|references/api.md"]);
    let out = run(&s, &["--home", &h, "--json", "view", "ghost"]);
    assert_eq!(out.status.code(), Some(1));
    assert_same(&json_of(&s, &out), &golden("basic.json")["skill_view"]["ghost"]);
    let out = run(&s, &["--home", &h, "view", "ghost"]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("error: Skill 'ghost' not found."), "{text}");
}

#[test]
fn commands_bundles_mounts_prompt_json() {
    let s = Scenario::fixture("bundles");
    let h = home_arg(&s);
    let g = golden("bundles.json");
    assert_same(&json_of(&s, &run(&s, &["--home", &h, "commands", "--json"])), &g["slash_commands"]);
    assert_same(&json_of(&s, &run(&s, &["--home", &h, "bundles", "--json"])), &g["bundles"]);
    assert_same(&json_of(&s, &run(&s, &["--home", &h, "mounts", "--json"])), &g["mounts"]);
    assert_same(&json_of(&s, &run(&s, &["--home", &h, "prompt", "--json"])), &g["system_prompt"]);
}

#[test]
fn prompt_with_tools_and_cache_paths() {
    let s = Scenario::fixture("gates");
    let h = home_arg(&s);
    let out =
        run(&s, &["--home", &h, "prompt", "--json", "--tools", "web_search", "--toolsets", "web", "--cache", "cold"]);
    assert_same(&json_of(&s, &out), &golden("gates.extra.json")["prompts"]["web_search|web"]);
    let tools = "skills_list,skill_view,web_search";
    let out =
        run(&s, &["--home", &h, "prompt", "--json", "--tools", tools, "--toolsets", "skills,web", "--cache", "warm"]);
    assert_same(&json_of(&s, &out), &golden("gates.json")["system_prompt_tools"]);
}

#[test]
fn invoke_bundle_stacked_and_unknown() {
    let s = Scenario::fixture("bundles");
    let h = home_arg(&s);
    let extra = golden("bundles.extra.json");
    let out = run(&s, &["--home", &h, "--session-id", "sess-1", "--json", "invoke", "/backend-dev", "ship", "it"]);
    assert_eq!(out.status.code(), Some(0));
    assert_same(&json_of(&s, &out), &extra["invoke"]["/backend-dev ship it"]);
    let out = run(&s, &["--home", &h, "--session-id", "sess-1", "--json", "invoke", "/beta", "/alpha", "go"]);
    assert_same(&json_of(&s, &out), &extra["invoke"]["/beta /alpha go"]);
    let out = run(&s, &["--home", &h, "--json", "invoke", "/help"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "null");
}

/// A command no skill registers: the nearest commands, else where the
/// list is; a skill that has the name but no command: `why` traces it.
#[test]
fn invoke_of_an_unknown_command_says_where_to_look() {
    let stderr = |key: &str| {
        let out = demo_in(None, &["invoke", key]);
        assert_eq!(out.status.code(), Some(1), "{key}");
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    assert!(stderr("/deploy-servce").contains("(did you mean /deploy-service?)"));
    assert!(stderr("/nosuch").contains("(`skillscope commands` lists them)"));
    assert!(stderr("/screenshot").contains("(`skillscope why screenshot` traces it)"));
}

#[test]
fn preload_splits_comma_lists() {
    let s = Scenario::fixture("basic");
    let h = home_arg(&s);
    let out = run(
        &s,
        &["--home", &h, "--session-id", "sess-1", "--json", "preload", "deploy-tool,ghost-skill", "legacy-flat"],
    );
    assert_eq!(out.status.code(), Some(0));
    assert_same(
        &json_of(&s, &out),
        &golden("basic.extra.json")["preload"]["deploy-tool,ghost-skill,legacy-flat,deploy-tool"],
    );
}

#[test]
fn unreadable_home_is_a_usage_error_naming_the_path() {
    let s = Scenario::fixture("basic");
    let out = run(&s, &["--home", "/nonexistent/hermes-home", "list"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("/nonexistent/hermes-home: no such folder"), "{err}");
    let file = common::repo().join("Cargo.toml");
    let out = run(&s, &["--home", &file.display().to_string(), "list"]);
    assert_eq!(out.status.code(), Some(2));
}

/// What a user most likely meant is said: a subcommand's name mistyped
/// (taken for the browser's folder), a scan's path that is not there, the
/// current folder's skills when there is no home, the browser in a pipe.
#[test]
fn mistakes_get_the_way_out() {
    let s = Scenario::fixture("basic");
    let t = tempfile::tempdir().expect("tmp");
    let skillscope = |dir: &std::path::Path, args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_skillscope"))
            .current_dir(dir)
            .env("HOME", t.path().join("no-home"))
            .env_remove("HERMES_HOME")
            .args(args)
            .output()
            .expect("runs");
        (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
    };
    let (code, err) = skillscope(t.path(), &["chek"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("chek: no such folder; did you mean the subcommand `check`?"), "{err}");
    let (code, err) = skillscope(t.path(), &["scan", "/nonexistent/skill"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("/nonexistent/skill: no such file or folder"), "{err}");
    let repo = t.path().join("repo");
    std::fs::create_dir_all(repo.join("ops/deploy")).expect("mkdir");
    std::fs::write(repo.join("ops/deploy/SKILL.md"), "---\nname: deploy\ndescription: d\n---\n").expect("write");
    let (code, err) = skillscope(&repo, &["list"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("the current folder holds skills: pass --home . to read them"), "{err}");
    // The browser with its output in a pipe (as here).
    let (code, err) = skillscope(&repo, &["--home", &s.home.display().to_string()]);
    assert_eq!(code, Some(2));
    assert!(err.contains("the browser needs a terminal"), "{err}");
    // A missing --cwd is Hermes' no code workspace, and said.
    let home = s.home.display().to_string();
    let (code, err) = skillscope(t.path(), &["--home", &home, "prompt", "--cwd", "/nonexistent/ws"]);
    assert_eq!(code, Some(0));
    assert!(err.contains("--cwd /nonexistent/ws: no such folder (Hermes reads it as no code workspace)"), "{err}");
}

/// `list --category` with no skill there says so, and that the filter is
/// the top-level category (as skills_list's).
#[test]
fn list_of_an_empty_category_says_so() {
    let out = demo_in(None, &["list", "--category", "devops/cloud/aws"]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("0 skills in category `devops/cloud/aws`") && text.contains("(try `devops`)"), "{text}");
}

/// A category no skill has: the categories there are, so a typo shows.
#[test]
fn list_of_an_unknown_category_names_the_categories() {
    let out = demo_in(None, &["list", "--category", "devpos"]);
    assert_eq!(out.status.code(), Some(0), "skills_list answers an empty list");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("0 skills in category `devpos` (categories: devops, research, review, travel, writing)"),
        "{text}"
    );
}

/// `bundles` marks a member the bundle's message skips.
#[test]
fn bundles_mark_a_missing_member() {
    let out = demo_in(None, &["bundles"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("code-review, release-notes, changelog-bot (missing)"), "{text}");
}

/// The demo shows the focus posture: a non-coding category names-only
/// under `--posture focus`, whole as configured.
#[test]
fn the_demo_has_a_category_the_focus_posture_demotes() {
    let names_only = |posture: &str| -> Vec<String> {
        let out = demo_in(None, &["cost", "--json", "--posture", posture]);
        let json: Json = serde_json::from_slice(&out.stdout).expect("JSON");
        let categories = json["categories"].as_array().expect("categories");
        categories
            .iter()
            .filter(|c| c["names_only"] == Json::Bool(true))
            .map(|c| c["category"].as_str().unwrap_or_default().to_owned())
            .collect()
    };
    assert_eq!(names_only("focus"), ["travel"]);
    assert!(names_only("default").is_empty());
    // Outside a code workspace the focus posture demotes nothing, and says why.
    let elsewhere = tempfile::tempdir().expect("tmp");
    let out = demo_in(Some(elsewhere.path()), &["cost", "--posture", "focus"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--posture focus demotes nothing here") && err.contains("is no code workspace"), "{err}");
    assert!(!String::from_utf8_lossy(&out.stdout).contains("names only"));
    let project = elsewhere.path().join("project");
    std::fs::create_dir_all(&project).unwrap();
    std::fs::write(project.join("Cargo.toml"), "[package]\n").unwrap();
    let out = demo_in(Some(elsewhere.path()), &["cost", "--posture", "focus", "--cwd", &project.to_string_lossy()]);
    assert!(String::from_utf8_lossy(&out.stderr).is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("names only: travel"));
}

#[test]
fn usage_errors_exit_2() {
    let s = Scenario::fixture("basic");
    assert_eq!(run(&s, &["--platform", "beos", "list"]).status.code(), Some(2));
    assert_eq!(run(&s, &["frobnicate"]).status.code(), Some(2));
    assert_eq!(run(&s, &["view"]).status.code(), Some(2));
}

#[test]
fn every_subcommand_has_help() {
    let s = Scenario::fixture("basic");
    for sub in ["list", "view", "prompt", "commands", "invoke", "preload", "bundles", "mounts"] {
        let out = run(&s, &[sub, "--help"]);
        assert_eq!(out.status.code(), Some(0), "{sub}");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("Usage: skillscope"), "{sub}: {text}");
        assert!(text.contains("--home"), "{sub} lists the global flags");
    }
}

/// `--since` marks the browser's tree: a subcommand neither lists it nor
/// takes it (it would be ignored there).
#[test]
fn the_browsers_since_belongs_to_the_browser_alone() {
    let s = Scenario::fixture("basic");
    for sub in ["list", "diff", "check", "prompt"] {
        let help = run(&s, &[sub, "--help"]);
        assert!(!String::from_utf8_lossy(&help.stdout).contains("--since"), "{sub} --help names --since");
        let out = run(&s, &["--home", &home_arg(&s), sub, "--since", "HEAD"]);
        assert_eq!(out.status.code(), Some(2), "{sub} --since is a usage error");
        assert!(String::from_utf8_lossy(&out.stderr).contains("'--since'"), "{sub}: says which argument");
    }
    let top = run(&s, &["--help"]);
    assert!(String::from_utf8_lossy(&top.stdout).contains("--since <REV>"), "the browser's help names it");
}

/// `--since` outside any repository of skills, with no Hermes home: a
/// clear error, not the demo's own history.
#[test]
fn since_outside_a_repository_says_so() {
    let outside = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_skillscope"))
        .current_dir(outside.path())
        .args(["--since", "HEAD~5"])
        .env_remove("HERMES_HOME")
        .env("HOME", outside.path())
        .env("GIT_CEILING_DIRECTORIES", outside.path().parent().unwrap())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("is in no git repository of skills, and there is no Hermes home at"), "{said}");
}

#[test]
fn platform_flag_previews_another_os() {
    let s = Scenario::fixture("gates");
    let h = home_arg(&s);
    let names = |args: &[&str]| -> Vec<String> {
        let v = json_of(&s, &run(&s, args));
        v["skills"].as_array().unwrap().iter().map(|x| x["name"].as_str().unwrap().to_owned()).collect()
    };
    let linux = names(&["--home", &h, "list", "--json", "--platform", "linux"]);
    let mac = names(&["--home", &h, "list", "--json", "--platform", "macos"]);
    let win = names(&["--home", &h, "list", "--json", "--platform", "windows"]);
    assert!(!linux.contains(&"mac-only".to_owned()) && mac.contains(&"mac-only".to_owned()));
    assert!(win.contains(&"win-only".to_owned()) && !win.contains(&"linux-ok".to_owned()));
}

#[test]
fn inline_shell_needs_the_flag() {
    let s = Scenario::fixture("inline_shell");
    let h = home_arg(&s);
    let off = json_of(&s, &run(&s, &["--home", &h, "view", "shell", "--json", "--session-id", "sess-1"]));
    assert!(off["content"].as_str().unwrap().contains("hi: !`echo hi`"));
    let on =
        json_of(&s, &run(&s, &["--home", &h, "view", "shell", "--json", "--session-id", "sess-1", "--inline-shell"]));
    assert_same(&common::without_runtime(on, true), &golden("inline_shell.json")["skill_view"]["shell"]);
}

#[test]
fn human_output_never_carries_escape_sequences() {
    let s = Scenario::fixture("bad_files");
    let h = home_arg(&s);
    for args in [vec!["list"], vec!["view", "escape"], vec!["commands"], vec!["invoke", "/escape"], vec!["prompt"]] {
        let mut full = vec!["--home", h.as_str()];
        full.extend(args.iter().copied());
        let out = run(&s, &full);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(!text.contains('\u{1b}') && !text.contains('\u{7}'), "{args:?} printed a control byte: {text:?}");
        assert!(text.contains('␛'), "{args:?} shows the escape visibly: {text}");
    }
}

#[test]
fn human_list_is_a_table() {
    let s = Scenario::fixture("basic");
    let out = run(&s, &["--home", &home_arg(&s), "list"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("NAME"), "{text}");
    assert!(text.contains("deploy-tool") && text.contains("devops"));
    assert!(text.trim_end().ends_with("skills"));
}

#[test]
fn check_exit_statuses_json_and_filters() {
    let s = Scenario::fixture("collisions");
    let h = home_arg(&s);
    // Errors exist (name collisions): exit 1 at the default level.
    let out = run(&s, &["--home", &h, "check", "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let all: Json = serde_json::from_slice(&out.stdout).expect("json");
    let findings = all.as_array().expect("array");
    assert!(findings.iter().all(|f| f["severity"] == "error"));
    assert!(findings.iter().any(|f| f["rule"] == "hermes-name-collision" && f["path"] == "devops/deploy/SKILL.md"));
    // A clean skill passes.
    let out = run(&s, &["--home", &h, "check", "local-only"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stdout));
    // Lower levels show more and may fail.
    let info = run(&s, &["--home", &h, "check", "--json", "--min-severity", "info", "sketch"]);
    let info: Json = serde_json::from_slice(&info.stdout).expect("json");
    assert!(info.as_array().expect("array").iter().all(|f| f["skill"] == "sketch"));
    // Usage errors.
    assert_eq!(run(&s, &["--home", &h, "check", "no-such-skill"]).status.code(), Some(2));
    assert_eq!(run(&s, &["--home", &h, "check", "--min-severity", "loud"]).status.code(), Some(2));
}

/// The summary counts every finding, also those below `--min-severity`
/// (which a whole-home check drops as it goes), for the home or the names;
/// but `index-similar-descriptions`, which needs a walk of its own and runs
/// only when its findings are shown: the summary says it was not run.
#[test]
fn check_summary_counts_what_it_leaves_out() {
    let s = Scenario::fixture("basic");
    let h = home_arg(&s);
    for names in [&[][..], &["deploy-tool", "longdesc"][..]] {
        let all = run(&s, &[&["--home", &h, "check", "--json", "--min-severity", "info"][..], names].concat());
        let all: Json = serde_json::from_slice(&all.stdout).expect("json");
        let count = |sev: &str| {
            let all = all.as_array().expect("array").iter();
            all.filter(|f| f["severity"] == sev && f["rule"] != "index-similar-descriptions").count()
        };
        assert!(count("info") > 0, "the fixture has infos to leave out");
        let out = run(&s, &[&["--home", &h, "check", "--min-severity", "warning"][..], names].concat());
        let text = String::from_utf8_lossy(&out.stdout);
        let plural = |n: usize, noun: &str| format!("{n} {noun}{}", if n == 1 { "" } else { "s" });
        let expected = format!(
            "{}, {}; not shown, below warning: {} info; not run below warning: index-similar-descriptions (--min-severity info runs it)",
            plural(count("error"), "error"),
            plural(count("warning"), "warning"),
            count("info"),
        );
        assert!(text.trim_end().ends_with(&expected), "{names:?}: {text}");
        // Not selected: not said.
        let out =
            run(&s, &[&["--home", &h, "check", "--min-severity", "warning", "--ignore", "I001"][..], names].concat());
        assert!(!String::from_utf8_lossy(&out.stdout).contains("not run"), "{names:?}");
    }
}

#[test]
fn check_bundles_by_slug_and_human_output() {
    let s = Scenario::fixture("bundles");
    let h = home_arg(&s);
    let out = run(&s, &["--home", &h, "check", "/backend-dev", "--min-severity", "warning"]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("skill-bundles/backend-dev.yaml\n"), "{text}");
    assert!(text.contains("skill-bundles/backend-dev.yaml:5:5: error [B002 bundle-member-missing]"), "{text}");
    assert!(text.contains("bundle-member-disabled"), "{text}");
    assert!(text.contains("hint: "), "{text}");
    assert!(!text.contains("research"), "only the named bundle: {text}");
    assert!(!text.contains("no skill was found"), "the home has skills: {text}");
}

#[cfg(unix)]
#[test]
fn file_names_with_escapes_are_shown_visibly() {
    let t = tempfile::tempdir().expect("tmp");
    let home = t.path().join("home");
    let skill = home.join("skills/s");
    std::fs::create_dir_all(skill.join("references")).expect("mkdir");
    std::fs::write(skill.join("SKILL.md"), "---\nname: s\ndescription: d\n---\nbody\n").expect("write");
    std::fs::write(home.join("outside.md"), "x").expect("write");
    std::os::unix::fs::symlink(home.join("outside.md"), skill.join("references/\u{1b}[2Jlink.md")).expect("symlink");
    std::fs::create_dir_all(home.join("skill-bundles")).expect("mkdir");
    std::fs::write(home.join("skill-bundles/\u{1b}]0;title\u{7}.yaml"), "skills: [unclosed\n").expect("write");
    let home = home.display().to_string();
    for args in [vec!["bundles"], vec!["mounts", "--backend", "docker"]] {
        let mut full = vec!["--home", home.as_str()];
        full.extend(args.iter().copied());
        let out = Command::new(env!("CARGO_BIN_EXE_skillscope")).args(&full).output().expect("runs");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(!text.contains('\u{1b}') && !text.contains('\u{7}'), "{args:?} printed a control byte: {text:?}");
        assert!(text.contains('␛'), "{args:?} names the file visibly: {text}");
    }
}

/// Non-finite and big numbers leave the binary as Python's `json` writes
/// them (`NaN`, `-Infinity`, every digit), through every JSON subcommand.
#[test]
fn json_numbers_are_written_as_python_writes_them() {
    let s = Scenario::fixture("yaml_scalars");
    let h = home_arg(&s);
    let g = golden("yaml_scalars.json");
    let view = run(&s, &["--home", &h, "view", "floats", "--json"]);
    let text = String::from_utf8_lossy(&view.stdout).into_owned();
    assert!(text.contains("\"g\": -Infinity") && text.contains("\"i\": NaN"), "{text}");
    let parsed = common::py_json(&text);
    assert_same(&s.mask(parsed["metadata"].clone()), &g["skill_view"]["floats"]["metadata"]);
    let ints = run(&s, &["--home", &h, "view", "ints", "--json"]);
    assert!(String::from_utf8_lossy(&ints.stdout).contains("\"big\": 123456789012345678901234567890"));
    for args in [["list", "--json"], ["commands", "--json"], ["prompt", "--json"]] {
        let out = run(&s, &[&["--home", h.as_str()][..], &args[..]].concat());
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    }
}

/// A home given as a relative path works as an absolute one: slash
/// commands keep their message (their folders would otherwise be relative,
/// and skill_view would not find them).
#[test]
fn a_relative_home_invokes_its_commands() {
    let tmp = tempfile::tempdir().expect("tmp");
    let skill = tmp.path().join("home/skills/ops/deploy/SKILL.md");
    std::fs::create_dir_all(skill.parent().expect("parent")).expect("mkdir");
    std::fs::write(&skill, "---\nname: deploy\ndescription: Ship it\n---\nRun the deploy.\n").expect("write");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_skillscope"))
        .current_dir(tmp.path())
        .env("HOME", tmp.path().join("nohome"))
        .args(["--home", "home", "invoke", "/deploy"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("Run the deploy."));
}
