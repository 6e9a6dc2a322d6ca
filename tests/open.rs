//! Opening what an author has: a Hermes home, a folder of skills, one skill
//! folder, or the built-in demo; and text output that fits where it goes.

mod common;

use serde_json::Value as Json;
use std::path::Path;
use std::process::{Command, Output};

fn skillscope(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_skillscope"))
        .env_remove("HERMES_HOME")
        .env("HOME", "/nonexistent-home")
        .env("TERMINAL_ENV", "local")
        .env("HERMES_MANAGED_DIR", "/nonexistent-managed-dir")
        .args(args)
        .output()
        .expect("binary runs")
}

fn json(out: &Output) -> Json {
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("JSON ({e}): {}", String::from_utf8_lossy(&out.stdout)))
}

fn write_skill(dir: &Path, name: &str, extra: &str) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("SKILL.md"), format!("---\nname: {name}\ndescription: does {name}\n{extra}---\n\nBody.\n"))
        .unwrap();
}

/// A repository of skills: two categories and a README, no `skills/`.
fn repo(t: &Path) -> std::path::PathBuf {
    let repo = t.join("my-skills");
    write_skill(&repo.join("devops/deploy"), "deploy", "");
    write_skill(&repo.join("writing/notes"), "notes", "");
    std::fs::write(repo.join("README.md"), "# my skills\n").unwrap();
    repo
}

#[test]
fn a_folder_of_skills_answers_as_an_external_dir_of_an_empty_home() {
    let t = tempfile::tempdir().unwrap();
    let repo = repo(t.path());
    let repo_s = repo.to_str().unwrap();
    // The same folder, listed by hand in an otherwise empty home.
    let home = t.path().join("home");
    std::fs::create_dir_all(home.join("skills")).unwrap();
    std::fs::write(home.join("config.yaml"), format!("skills:\n  external_dirs: ['{repo_s}']\n")).unwrap();
    for args in [&["list", "--json"][..], &["view", "deploy", "--json"], &["commands", "--json"]] {
        let through_folder = skillscope(&[&["--home", repo_s], args].concat());
        let by_hand = skillscope(&[&["--home", home.to_str().unwrap()], args].concat());
        assert_eq!(through_folder.status.code(), Some(0), "{args:?}");
        assert_eq!(json(&through_folder), json(&by_hand), "{args:?}");
        let note = String::from_utf8_lossy(&through_folder.stderr);
        assert!(note.contains("is a folder of skills, not a Hermes home"), "{note}");
        assert_eq!(note.lines().count(), 1, "one line says so: {note}");
    }
    let listed = json(&skillscope(&["--home", repo_s, "list", "--json"]));
    let names: Vec<&str> = listed["skills"].as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["deploy", "notes"]);
    assert!(repo.join("README.md").exists() && std::fs::read_dir(&repo).unwrap().count() == 3, "nothing written");
}

#[test]
fn check_in_a_skills_repository_names_files_relative_to_it() {
    let t = tempfile::tempdir().unwrap();
    let repo = repo(t.path());
    write_skill(&repo.join("devops/broken"), "Broken_Name", "");
    let out = Command::new(env!("CARGO_BIN_EXE_skillscope"))
        .current_dir(&repo)
        .env("HOME", "/nonexistent-home")
        .args(["--home", ".", "check", "--min-severity", "warning", "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let findings = json(&out);
    let format = findings.as_array().unwrap().iter().find(|f| f["rule"] == "spec-name-format").expect("finding");
    assert_eq!(format["path"], "devops/broken/SKILL.md");
}

#[test]
fn one_skill_folder_and_the_browser_path_argument() {
    let t = tempfile::tempdir().unwrap();
    let repo = repo(t.path());
    let skill = repo.join("devops/deploy");
    let out = skillscope(&["--home", skill.to_str().unwrap(), "list", "--json"]);
    let names: Vec<Json> = json(&out)["skills"].as_array().unwrap().iter().map(|s| s["name"].clone()).collect();
    assert_eq!(names, [Json::from("deploy")]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("is a skill folder"));
    // `skillscope PATH` opens the browser on it; its first frame says how.
    let frame = skillscope(&[repo.to_str().unwrap(), "--print-frame", "120x20"]);
    let text = String::from_utf8_lossy(&frame.stdout);
    assert!(text.contains("not a Hermes home"), "{text}");
    assert!(text.contains("deploy") && text.contains("notes"), "{text}");
    assert!(text.contains("folder "), "the status line names the folder: {text}");
    let twice = skillscope(&[repo.to_str().unwrap(), "--home", repo.to_str().unwrap(), "list"]);
    assert_eq!(twice.status.code(), Some(2));
}

fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .current_dir(dir)
        .args(["-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"])
        .args(args)
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

fn browser_in(dir: &Path, args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_skillscope"))
        .current_dir(dir)
        .env_remove("HERMES_HOME")
        .env("HOME", "/nonexistent-home")
        .env("TERMINAL_ENV", "local")
        .args(args)
        .args(["--print-frame", "120x20"])
        .output()
        .expect("binary runs");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `--since` is about the repository you are in: without a home given, the
/// browser opens the folder `diff` would read there (from any folder below
/// its top); elsewhere, or in a repository without skills, the Hermes home,
/// and with none, it says so (the demo is no repository of the user's).
#[test]
fn the_browser_s_since_opens_the_repository_it_is_run_in() {
    let t = tempfile::tempdir().unwrap();
    let repo = repo(t.path());
    git(&repo, &["init", "-q"]);
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-q", "-m", "skills"]);
    let frame = browser_in(&repo.join("devops"), &["--since", "HEAD"]);
    assert!(frame.contains("my-skills is a folder of skills"), "{frame}");
    assert!(frame.contains("deploy") && frame.contains("notes"), "{frame}");
    // Without --since, no home: the demo, as always.
    assert!(browser_in(&repo, &[]).contains("Demo home"));
    let project = t.path().join("project");
    std::fs::create_dir_all(project.join("src")).unwrap();
    std::fs::write(project.join("src/main.rs"), "fn main() {}\n").unwrap();
    git(&project, &["init", "-q"]);
    let out = Command::new(env!("CARGO_BIN_EXE_skillscope"))
        .current_dir(&project)
        .env_remove("HERMES_HOME")
        .env("HOME", "/nonexistent-home")
        .args(["--since", "HEAD", "--print-frame", "120x20"])
        .output()
        .expect("binary runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is in no git repository of skills"));
}

#[test]
fn a_home_without_skills_folder_says_what_is_true() {
    let t = tempfile::tempdir().unwrap();
    let home = t.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let out = skillscope(&["--home", home.to_str().unwrap(), "list"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("No skills folder: Hermes would create"), "{text}");
    assert!(!text.contains("created"), "{text}");
    assert!(!home.join("skills").exists());
    let json = json(&skillscope(&["--home", home.to_str().unwrap(), "list", "--json"]));
    assert!(json["message"].as_str().unwrap().starts_with("No skills found. Skills directory created at"));
}

#[test]
fn demo_serves_every_command() {
    let out = skillscope(&["--demo", "list", "--json"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(json(&out)["skills"].as_array().unwrap().iter().any(|s| s["name"] == "deploy-service"));
    let view = skillscope(&["view", "release-notes", "--demo"]);
    assert_eq!(view.status.code(), Some(0));
    assert_eq!(skillscope(&["--demo", "bundles", "--json"]).status.code(), Some(0));
    assert_eq!(skillscope(&["--demo", "--home", "/tmp", "list"]).status.code(), Some(2));
}

#[test]
fn piped_tables_are_not_cut() {
    let t = tempfile::tempdir().unwrap();
    let repo = t.path().join("r");
    let long = "word ".repeat(60);
    std::fs::create_dir_all(repo.join("s")).unwrap();
    std::fs::write(repo.join("s/SKILL.md"), format!("---\nname: s\ndescription: {long}end\n---\n")).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_skillscope"))
        .env("COLUMNS", "40")
        .args(["--home"])
        .arg(&repo)
        .arg("list")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("word end") && !text.contains('…'), "{text}");
}
