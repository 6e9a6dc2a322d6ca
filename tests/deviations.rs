//! One test per entry of docs/deviations.md: where skillscope knowingly
//! answers differently from Hermes Agent 0.19.0, and what it does instead.

mod common;

use skillscope::engine::check::Progress;
use skillscope::engine::context::Context;
use skillscope::engine::env::{Env, Os};
use skillscope::engine::prompt::IndexRequest;
use skillscope::engine::view::SkillRef;
use skillscope::engine::{Engine, Options};
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

fn write(path: &Path, text: &str) {
    fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    fs::write(path, text).expect("write");
}

fn home() -> (tempfile::TempDir, PathBuf) {
    let t = tempfile::tempdir().expect("tempdir");
    let h = t.path().canonicalize().expect("canon").join("home");
    fs::create_dir_all(&h).expect("mkdir");
    (t, h)
}

fn engine_with(home: &Path, options: Options) -> Engine {
    Engine::new(home.to_path_buf(), Env::with_vars([("HOME", "/nonexistent-home")], Os::Linux), options)
}

fn engine(home: &Path) -> Engine {
    engine_with(home, Options::default())
}

/// Symlink cycles: Hermes' walk follows them until the OS refuses (ELOOP),
/// listing the same SKILL.md under ever longer paths; skillscope enters each
/// directory once per path and stops at a cycle.
#[cfg(unix)]
#[test]
fn symlink_cycles_are_cut() {
    let (_t, h) = home();
    write(&h.join("skills/cat/s/SKILL.md"), "---\nname: s\n---\n");
    std::os::unix::fs::symlink(h.join("skills/cat"), h.join("skills/cat/s/loop")).expect("symlink");
    let e = engine(&h);
    let found = skillscope::engine::discover::index_files(&e.home.skills_dir, "SKILL.md");
    assert_eq!(found, [h.join("skills/cat/s/SKILL.md")]);
}

fn snapshot(dir: &Path) -> BTreeMap<PathBuf, (u64, Option<SystemTime>)> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in fs::read_dir(&d).into_iter().flatten().flatten() {
            let meta = entry.path().symlink_metadata().expect("meta");
            if meta.is_dir() {
                stack.push(entry.path());
            }
            out.insert(entry.path(), (meta.len(), meta.modified().ok()));
        }
    }
    out
}

/// Side effects: Hermes creates `skills/`, `SOUL.md`, `cron/`, ...,
/// `.skills_prompt_snapshot.json` and `skills/.usage.json`, and mounts a
/// temporary copy of a tree with symlinks. skillscope writes nothing.
#[test]
fn nothing_is_written_to_the_home() {
    let (_t, h) = home();
    write(&h.join("config.yaml"), "skills:\n  external_dirs: [ext]\n");
    write(&h.join("ext/e/SKILL.md"), "---\nname: e\ndescription: d\n---\nbody\n");
    write(&h.join("skill-bundles/b.yaml"), "name: b\nskills: [e]\n");
    let before = snapshot(&h);
    let e = engine(&h);
    let list = e.skills_list(None);
    assert_eq!(list["message"], format!("No skills found. Skills directory created at {}/skills/", h.display()));
    let _ = Context::new(&e).skill_view(SkillRef::Name("e"), None, None, true);
    let _ = e.system_prompt(&IndexRequest::default());
    let _ = Context::new(&e).invocation_message("/e", "", None);
    let _ = Context::new(&e).bundle_message("/b", "", None);
    let _ = Context::new(&e).preloaded_prompt(&["e".into()], None);
    let _ = e.mounts();
    assert!(!h.join("skills").exists(), "the skills dir is reported, not created");
    assert_eq!(before, snapshot(&h));
}

/// Mounts of a tree holding symlinks: Hermes answers with a fresh temp copy
/// (`/tmp/hermes-skills-safe-*`); skillscope names the tree and lists the
/// symlinks whose files the sandbox will not have.
#[cfg(unix)]
#[test]
fn mounts_report_symlinks_instead_of_copying() {
    let (_t, h) = home();
    write(&h.join("skills/s/SKILL.md"), "---\nname: s\n---\n");
    write(&h.join("shared.md"), "x");
    std::os::unix::fs::symlink(h.join("shared.md"), h.join("skills/s/linked.md")).expect("symlink");
    let mounts = engine(&h).mounts();
    assert_eq!(mounts[0].host_path, h.join("skills"));
    assert_eq!(mounts[0].symlinks, [h.join("skills/s/linked.md")]);
}

/// A FIFO named SKILL.md blocks Hermes forever; skillscope refuses to open
/// anything that is not a regular file.
#[cfg(unix)]
#[test]
fn non_regular_files_are_not_opened() {
    let (_t, h) = home();
    fs::create_dir_all(h.join("skills/p")).expect("mkdir");
    let ok = std::process::Command::new("mkfifo").arg(h.join("skills/p/SKILL.md")).status().expect("mkfifo").success();
    assert!(ok);
    let view = Context::new(&engine(&h)).skill_view(SkillRef::Name("p"), None, None, true);
    assert!(view["error"].as_str().expect("error").starts_with("Failed to read skill 'p': Not a regular file"));
}

/// Inline shell: Hermes runs `` !`cmd` `` whenever config enables it;
/// skillscope also needs the user's `--inline-shell`.
#[test]
fn inline_shell_needs_consent() {
    let (_t, h) = home();
    write(&h.join("config.yaml"), "skills:\n  inline_shell: true\n");
    write(&h.join("skills/s/SKILL.md"), "---\nname: s\n---\nout: !`echo ran`\n");
    let without = Context::new(&engine(&h)).skill_view(SkillRef::Name("s"), None, None, true);
    assert!(without["content"].as_str().expect("content").contains("out: !`echo ran`"));
    let with = Context::new(&engine_with(&h, Options { allow_inline_shell: true, ..Options::default() })).skill_view(
        SkillRef::Name("s"),
        None,
        None,
        true,
    );
    assert!(with["content"].as_str().expect("content").contains("out: ran"));
}

/// Plugin skills (`plugin:skill`) exist only after running a plugin's
/// Python `register()`; skillscope runs no plugin code, so a qualified name
/// resolves as Hermes resolves it when no plugin claims the namespace.
#[test]
fn qualified_names_fall_through_to_the_skills_dirs() {
    let (_t, h) = home();
    write(&h.join("skills/devops/deploy/SKILL.md"), "---\nname: deploy\n---\nbody\n");
    let e = engine(&h);
    assert_eq!(Context::new(&e).skill_view(SkillRef::Name("devops:deploy"), None, None, true)["name"], "deploy");
    assert_eq!(
        Context::new(&e).skill_view(SkillRef::Name("myplugin:thing"), None, None, true)["error"],
        "Skill 'myplugin:thing' not found."
    );
}

/// No secret prompt: the Hermes CLI asks for missing variables while it loads
/// a skill; skillscope answers like a non-interactive run (`setup_skipped`
/// stays false and the variables are reported missing).
#[test]
fn missing_variables_are_reported_not_prompted() {
    let (_t, h) = home();
    write(&h.join("skills/s/SKILL.md"), "---\nname: s\nrequired_environment_variables: [SKILLSCOPE_TEST_UNSET]\n---\n");
    let view = Context::new(&engine(&h)).skill_view(SkillRef::Name("s"), None, None, true);
    assert_eq!(view["setup_skipped"], false);
    assert_eq!(view["missing_required_environment_variables"][0], "SKILLSCOPE_TEST_UNSET");
}

/// Caches: Hermes' skills_list serves a 30-second cache and its prompt an
/// in-process cache with no expiry; skillscope reads the disk on every call.
#[test]
fn every_call_reads_the_disk() {
    let (_t, h) = home();
    write(&h.join("skills/a/SKILL.md"), "---\nname: a\ndescription: first\n---\n");
    let e = engine(&h);
    assert_eq!(e.skills_list(None)["skills"][0]["description"], "first");
    write(&h.join("skills/a/SKILL.md"), "---\nname: a\ndescription: second\n---\n");
    assert_eq!(e.skills_list(None)["skills"][0]["description"], "second");
}

/// YAML caps: PyYAML loads a billion-laughs frontmatter (sharing objects)
/// and any nesting depth; skillscope refuses both, names the cap, and reads
/// the file as Hermes reads a frontmatter PyYAML refuses.
#[test]
fn yaml_caps_refuse_bombs_and_depth() {
    let (_t, h) = home();
    let mut bomb = String::from(
        "---\nname: bomb\ndescription: laughs\nmetadata:\n  l0: &l0 [ha, ha, ha, ha, ha, ha, ha, ha, ha, ha]\n",
    );
    for i in 1..9 {
        bomb.push_str(&format!("  l{i}: &l{i} [{}]\n", vec![format!("*l{}", i - 1); 10].join(", ")));
    }
    bomb.push_str("---\nBody.\n");
    write(&h.join("skills/bomb/SKILL.md"), &bomb);
    let deep = format!(
        "---\nname: deep\ndescription: nested\nmetadata: {}{}\n---\nBody.\n",
        "[".repeat(1500),
        "]".repeat(1500)
    );
    write(&h.join("skills/deep/SKILL.md"), &deep);
    let e = engine(&h);
    let catalog = e.catalog();
    let findings = e.check_catalog(&catalog, &Progress::default());
    for (name, cap) in
        [("bomb", "aliases expand to more than 200000 values"), ("deep", "nesting deeper than 1000 levels")]
    {
        let found = findings
            .iter()
            .find(|f| f.rule == "hermes-yaml-fallback" && f.skill_name.as_deref() == Some(name))
            .unwrap_or_else(|| panic!("no fallback finding for {name}"));
        assert!(found.message.contains(cap), "{name}: {}", found.message);
        // The line-split fallback still gives the name and description.
        let view = Context::new(&e).skill_view(SkillRef::Name(name), None, None, true);
        assert_eq!(view["name"], name);
    }
}

/// The `skillscope` binary run on `home` with `args`: its exit code and
/// standard output.
fn skillscope(home: &Path, args: &[&str]) -> (Option<i32>, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_skillscope"))
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", "/nonexistent-home")
        .arg("--home")
        .arg(home)
        .args(args)
        .output()
        .expect("the binary runs");
    (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned())
}

/// A bundle named `help`: `build_bundle_invocation_message("/help")` builds
/// its message, but Hermes' CLI handles its core commands before bundles,
/// so typing `/help` shows Hermes' help. `invoke` answers as the CLI does.
#[test]
fn core_commands_come_before_a_bundle_of_the_same_name() {
    let (_t, h) = home();
    write(&h.join("skills/e/SKILL.md"), "---\nname: e\ndescription: d\n---\nbody\n");
    write(&h.join("skill-bundles/help.yaml"), "name: help\nskills: [e]\n");
    let e = engine(&h);
    assert!(e.bundles().bundles.contains_key("/help"));
    let (message, loaded, missing) =
        Context::new(&e).bundle_message("/help", "go", None).expect("the bundle's own message");
    assert!(message.starts_with("[IMPORTANT: The user has invoked the \"help\" skill bundle"), "{message}");
    assert_eq!((loaded, missing), (vec!["e".to_owned()], vec![]));
    assert_eq!(Context::new(&e).dispatch("/help go", None), None);
    assert_eq!(skillscope(&h, &["--json", "invoke", "/help", "go"]), (Some(1), "null\n".to_owned()));
}

/// A date as a skill's `description`: Hermes' command map keeps the
/// `datetime.date`, which JSON cannot hold; `skillscope commands` prints its
/// `str()`, as Hermes' own TUI gateway shows it.
#[test]
fn a_date_description_of_a_command_prints_as_python_str() {
    let (_t, h) = home();
    write(&h.join("skills/dated/SKILL.md"), "---\nname: dated\ndescription: 2024-01-31\n---\nbody\n");
    let e = engine(&h);
    let commands = e.skill_commands();
    let dated = &commands["/dated"];
    let date = skillscope::engine::value::Date::new(2024, 1, 31).expect("a date");
    assert_eq!(dated.description, skillscope::engine::value::Value::Date(date), "the engine keeps the date");
    assert_eq!(dated.to_json()["description"], "2024-01-31");
    let (code, out) = skillscope(&h, &["--json", "commands"]);
    assert_eq!(code, Some(0));
    let printed: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(printed[0][0], "/dated");
    assert_eq!(printed[0][1]["description"], "2024-01-31");
    let (_, table) = skillscope(&h, &["commands"]);
    assert!(table.lines().any(|l| l.starts_with("/dated") && l.trim_end().ends_with("2024-01-31")), "{table}");
}
