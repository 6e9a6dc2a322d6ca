//! Sandbox-aware skill paths: `--backend`, `runtime_skill_dir`, the paths in
//! content and messages, the mount table per backend, and files a sandbox
//! will not have.

mod common;

use common::Scenario;
use serde_json::Value as Json;
use skillscope::engine::sandbox::Backend;
use std::process::{Command, Output};

fn fixture() -> Scenario {
    Scenario::fixture("sandbox")
}

fn run_env(s: &Scenario, envs: &[(&str, &str)], args: &[&str]) -> Output {
    run_in(&s.home, s, envs, args)
}

fn run_in(home: &std::path::Path, s: &Scenario, envs: &[(&str, &str)], args: &[&str]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_skillscope"));
    cmd.env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", &s.fake_home)
        .args(["--home", &home.display().to_string(), "--session-id", "sess-1"])
        .args(args);
    for (k, v) in envs {
        cmd.env(k, v);
    }
    cmd.output().expect("binary runs")
}

fn run(s: &Scenario, args: &[&str]) -> Output {
    run_env(s, &[], args)
}

fn json(out: &Output) -> Json {
    assert!(out.status.code().is_some_and(|c| c <= 1), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)))
}

fn view(s: &Scenario, backend: &str, name: &str) -> Json {
    json(&run(s, &["view", name, "--json", "--backend", backend]))
}

fn host(s: &Scenario, rel: &str) -> String {
    s.home.join("skills").join(rel).display().to_string()
}

#[test]
fn local_runtime_dir_is_the_host_dir_and_content_matches_hermes() {
    let s = fixture();
    let v = view(&s, "local", "deploy");
    assert_eq!(v["skill_dir"], host(&s, "devops/deploy"));
    assert_eq!(v["runtime_skill_dir"], v["skill_dir"]);
    let golden: Json = serde_json::from_str(
        &std::fs::read_to_string(common::repo().join("tests/golden/sandbox.json")).expect("golden"),
    )
    .expect("json");
    assert_eq!(s.mask(v["content"].clone()), golden["skill_view"]["deploy"]["content"]);
}

#[test]
fn docker_maps_the_local_skills_dir() {
    let s = fixture();
    let v = view(&s, "docker", "deploy");
    assert_eq!(v["skill_dir"], host(&s, "devops/deploy"));
    assert_eq!(v["runtime_skill_dir"], "/root/.hermes/skills/devops/deploy");
    let keys: Vec<&String> = v.as_object().expect("object").keys().collect();
    let at = keys.iter().position(|k| *k == "skill_dir").expect("skill_dir");
    assert_eq!(keys[at + 1], "runtime_skill_dir");
}

#[test]
fn skill_dir_template_renders_the_sandbox_path() {
    let s = fixture();
    let v = view(&s, "docker", "deploy");
    let content = v["content"].as_str().expect("content");
    assert!(content.contains("bash /root/.hermes/skills/devops/deploy/scripts/run.sh"), "{content}");
    assert!(content.contains("(session sess-1)"));
    assert!(!content.contains(&s.home.display().to_string()), "no host path in content: {content}");
}

#[test]
fn nested_categories_keep_their_relative_path() {
    let s = fixture();
    let v = view(&s, "docker", "deep");
    assert_eq!(v["runtime_skill_dir"], "/root/.hermes/skills/a/b/c/deep");
    assert!(v["content"].as_str().expect("content").contains("/root/.hermes/skills/a/b/c/deep/scripts/x.py"));
}

#[test]
fn external_dirs_map_by_their_index() {
    let s = fixture();
    assert_eq!(view(&s, "docker", "fmt")["runtime_skill_dir"], "/root/.hermes/external_skills/0/tools/fmt");
    let lint = view(&s, "docker", "lint");
    assert_eq!(lint["runtime_skill_dir"], "/root/.hermes/external_skills/1/cat/lint");
    assert!(lint["content"]
        .as_str()
        .expect("content")
        .contains("/root/.hermes/external_skills/1/cat/lint/scripts/lint.sh"));
}

#[test]
fn a_folder_outside_every_root_keeps_its_host_path() {
    let s = fixture();
    let mut engine = s.engine();
    engine.options.backend = Backend::Docker;
    let outside = common::repo().join("tests/fixtures/sandbox/shared");
    let p = engine.runtime_path(&outside);
    assert_eq!(p.path, outside.display().to_string());
    assert!(p.unmapped.expect("reason").contains("not under a skill root"));
    // Legacy flat skills have no folder: both fields are null.
    let flat = tempfile::tempdir().expect("tmp");
    let home = flat.path().join("home");
    std::fs::create_dir_all(home.join("skills/notes")).expect("mkdir");
    std::fs::write(home.join("skills/notes/flat.md"), "---\nname: flat\n---\nbody\n").expect("write");
    let out = run_in(&home, &s, &[], &["view", "flat", "--json", "--backend", "docker"]);
    let v = json(&out);
    assert_eq!(v["skill_dir"], Json::Null);
    assert_eq!(v["runtime_skill_dir"], Json::Null);
}

/// The path each backend shows for the `deploy` skill folder.
fn expected_dir(backend: &str, remote_home: Option<&str>) -> String {
    match (backend, remote_home) {
        ("ssh", None) => "~/.hermes/skills/devops/deploy".into(),
        ("ssh" | "daytona", Some(h)) => format!("{h}/.hermes/skills/devops/deploy"),
        _ => "/root/.hermes/skills/devops/deploy".into(),
    }
}

#[test]
fn every_remote_backend_on_view_invoke_and_preload() {
    let s = fixture();
    let cases: [(&str, Option<&str>); 6] = [
        ("singularity", None),
        ("modal", None),
        ("ssh", None),
        ("ssh", Some("/home/agent")),
        ("daytona", None),
        ("daytona", Some("/workspace/user")),
    ];
    for (backend, remote_home) in cases {
        let dir = expected_dir(backend, remote_home);
        let mut args = vec!["--backend", backend];
        if let Some(h) = remote_home {
            args.extend(["--remote-home", h]);
        }
        let with = |extra: &[&str]| {
            let mut a = args.clone();
            a.extend_from_slice(extra);
            json(&run(&s, &a))
        };
        let v = with(&["view", "deploy", "--json"]);
        assert_eq!(v["runtime_skill_dir"], dir, "{backend} {remote_home:?}");
        assert!(v["content"].as_str().expect("content").contains(&format!("bash {dir}/scripts/run.sh")));
        let upper = backend.to_uppercase();
        assert!(v["setup_note"].as_str().expect("note").ends_with(&format!(
            "{upper}-backed skills need these requirements available inside the remote environment as well."
        )));

        let msg = with(&["invoke", "/deploy", "go", "--json"]);
        let msg = msg.as_str().expect("message");
        assert!(msg.contains(&format!("[Skill directory: {dir}]")), "{backend}: {msg}");
        assert!(msg.contains(&format!("- scripts/run.sh  ->  {dir}/scripts/run.sh")), "{backend}: {msg}");
        assert!(msg.contains(&format!("(e.g. `node {dir}/scripts/foo.js`)")));
        assert!(msg.contains("skill_view(name=\"devops/deploy\""), "the skill name stays a name");
        assert!(!msg.contains(&s.home.display().to_string()), "{backend}: host path leaked: {msg}");

        let pre = with(&["preload", "deploy", "--json"]);
        let text = pre[0].as_str().expect("text");
        assert!(
            text.contains(&format!("[Skill directory: {dir}]")) && text.contains(&format!("bash {dir}/scripts/run.sh"))
        );
    }
}

#[test]
fn hermes_paths_shows_what_hermes_hands_the_agent() {
    let s = fixture();
    let v = json(&run(&s, &["view", "deploy", "--json", "--backend", "docker", "--hermes-paths"]));
    assert_eq!(v["runtime_skill_dir"], "/root/.hermes/skills/devops/deploy");
    assert!(v["content"]
        .as_str()
        .expect("content")
        .contains(&format!("bash {}/scripts/run.sh", host(&s, "devops/deploy"))));
}

#[test]
fn symlinked_files_are_missing_in_the_sandbox() {
    let s = fixture();
    let mut engine = s.engine();
    engine.options.backend = Backend::Docker;
    let dir = s.home.join("skills/devops/deploy");
    assert_eq!(engine.files_missing_in_sandbox(&dir), [dir.join("references/notes.md")]);
    engine.options.backend = Backend::Local;
    assert!(engine.files_missing_in_sandbox(&dir).is_empty());
    let out = run(&s, &["mounts", "--backend", "docker"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("references/notes.md"), "{text}");
}

#[test]
fn mounts_follow_the_backend() {
    let s = fixture();
    let docker = json(&run(&s, &["mounts", "--json", "--backend", "docker"]));
    assert_eq!(docker[0]["container_path"], "/root/.hermes/skills");
    assert_eq!(docker[2]["container_path"], "/root/.hermes/external_skills/1");
    let ssh = json(&run(&s, &["mounts", "--json", "--backend", "ssh"]));
    assert_eq!(ssh[0]["container_path"], "~/.hermes/skills");
    assert_eq!(ssh[1]["container_path"], "~/.hermes/external_skills/0");
    let daytona = json(&run(&s, &["mounts", "--json", "--backend", "daytona", "--remote-home", "/home/u"]));
    assert_eq!(daytona[0]["container_path"], "/home/u/.hermes/skills");
}

#[test]
fn backend_defaults_and_errors() {
    let s = fixture();
    let v = json(&run_env(&s, &[("TERMINAL_ENV", " Modal ")], &["view", "deploy", "--json"]));
    assert!(v["setup_note"].as_str().expect("note").contains("MODAL-backed"));
    assert_eq!(v["runtime_skill_dir"], "/root/.hermes/skills/devops/deploy");
    // The flag wins over the environment.
    let v = json(&run_env(&s, &[("TERMINAL_ENV", "modal")], &["view", "deploy", "--json", "--backend", "local"]));
    assert_eq!(v["runtime_skill_dir"], v["skill_dir"]);
    let bad = run(&s, &["list", "--backend", "vercel_sandbox"]);
    assert_eq!(bad.status.code(), Some(2));
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.contains("local, docker, singularity, modal, ssh, daytona"), "{err}");
    let bad = run_env(&s, &[("TERMINAL_ENV", "nope")], &["list"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("TERMINAL_ENV"));
}

#[test]
fn backend_from_config() {
    let t = tempfile::tempdir().expect("tmp");
    let home = t.path().join("home");
    std::fs::create_dir_all(home.join("skills/s")).expect("mkdir");
    std::fs::write(home.join("skills/s/SKILL.md"), "---\nname: s\n---\n${HERMES_SKILL_DIR}\n").expect("write");
    for (config, expected) in [
        ("terminal:\n  backend: singularity\n", "/root/.hermes/skills/s"),
        ("terminal:\n  env_type: ssh\n", "~/.hermes/skills/s"),
    ] {
        std::fs::write(home.join("config.yaml"), config).expect("write");
        let s = fixture();
        let v = json(&run_in(&home, &s, &[], &["view", "s", "--json"]));
        assert_eq!(v["runtime_skill_dir"], expected, "{config}");
    }
}
