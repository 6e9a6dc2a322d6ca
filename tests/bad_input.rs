//! Hostile homes: nothing panics or hangs, the bad skill is skipped or
//! reported as Hermes reports it, and the rest keeps working.

mod common;

use serde_json::Value as Json;
use skillscope::engine::context::Context;
use skillscope::engine::env::{Env, Os};
use skillscope::engine::prompt::IndexRequest;
use skillscope::engine::view::SkillRef;
use skillscope::engine::{Engine, Options};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn write(path: &Path, bytes: &[u8]) {
    fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    fs::write(path, bytes).expect("write");
}

fn skill(home: &Path, rel: &str, name: &str) {
    write(
        &home.join("skills").join(rel).join("SKILL.md"),
        format!("---\nname: {name}\ndescription: fine\n---\nbody\n").as_bytes(),
    );
}

fn engine(home: &Path) -> Engine {
    let env = Env::with_vars([("HOME", "/nonexistent-home")], Os::Linux);
    Engine::new(home.to_path_buf(), env, Options::default())
}

fn listed(engine: &Engine) -> Vec<String> {
    engine.skills_list(None)["skills"]
        .as_array()
        .map(|a| a.iter().map(|s| s["name"].as_str().unwrap_or_default().to_owned()).collect())
        .unwrap_or_default()
}

/// Every surface once, so a hang or panic anywhere shows up.
fn exercise(engine: &Engine, names: &[&str]) {
    let _ = engine.skills_list(None);
    for n in names {
        let _ = Context::new(engine).skill_view(SkillRef::Name(n), None, Some("s"), true);
    }
    let _ = engine.system_prompt(&IndexRequest::default());
    for key in engine.skill_commands().keys() {
        let _ = Context::new(engine).invocation_message(key, "x", Some("s"));
    }
    let _ = engine.bundles();
    let _ = engine.mounts();
}

fn home() -> (tempfile::TempDir, PathBuf) {
    let t = tempfile::tempdir().expect("tempdir");
    let h = t.path().canonicalize().expect("canon").join("home");
    fs::create_dir_all(h.join("skills")).expect("mkdir");
    (t, h)
}

/// [`run_with_deadline`] for output larger than a pipe holds: written to
/// files, read once the command ends.
fn run_into_files(args: &[&str], deadline: Duration) -> std::process::Output {
    let (stdout, stderr) = (tempfile::tempfile().expect("file"), tempfile::tempfile().expect("file"));
    let mut child = Command::new(env!("CARGO_BIN_EXE_skillscope"))
        .args(args)
        .stdout(stdout.try_clone().expect("clone"))
        .stderr(stderr.try_clone().expect("clone"))
        .spawn()
        .expect("spawn");
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if start.elapsed() > deadline {
            let _ = child.kill();
            panic!("skillscope {args:?} did not finish within {deadline:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let read = |mut file: fs::File| {
        use std::io::{Read, Seek};
        let mut bytes = Vec::new();
        file.rewind().expect("rewind");
        file.read_to_end(&mut bytes).expect("read");
        bytes
    };
    std::process::Output { status, stdout: read(stdout), stderr: read(stderr) }
}

/// Runs the CLI with a deadline; a hang fails the test instead of blocking it.
fn run_with_deadline(args: &[&str], deadline: Duration) -> std::process::Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_skillscope"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let start = Instant::now();
    loop {
        if child.try_wait().expect("wait").is_some() {
            return child.wait_with_output().expect("output");
        }
        if start.elapsed() > deadline {
            let _ = child.kill();
            panic!("skillscope {args:?} did not finish within {deadline:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn huge_skill_md_is_listed_quickly() {
    let (_t, h) = home();
    let mut text = b"---\nname: huge\ndescription: ten megabytes\n---\n".to_vec();
    text.extend(std::iter::repeat_n(b'x', 10 * 1024 * 1024));
    write(&h.join("skills/huge/SKILL.md"), &text);
    skill(&h, "ok", "ok");
    let e = engine(&h);
    let start = Instant::now();
    assert_eq!(listed(&e), ["huge", "ok"]);
    let view = Context::new(&e).skill_view(SkillRef::Name("huge"), None, None, true);
    assert_eq!(view["content"].as_str().map(str::len), Some(text.len()));
    assert!(start.elapsed() < Duration::from_secs(5));
}

#[test]
fn one_very_long_line() {
    let (_t, h) = home();
    let line = "y".repeat(200_000);
    write(&h.join("skills/long/SKILL.md"), format!("---\nname: long\ndescription: {line}\n---\n{line}\n").as_bytes());
    let e = engine(&h);
    let list = e.skills_list(None);
    // The listing parses the first 4000 characters only: no closing fence there.
    assert_eq!(list["skills"][0]["name"], "long");
    assert_eq!(list["skills"][0]["description"], "---");
    exercise(&e, &["long"]);
}

#[test]
fn invalid_utf8_and_binary_are_skipped_and_reported() {
    let (_t, h) = home();
    write(&h.join("skills/bin/SKILL.md"), &[0x89, b'P', b'N', b'G', 0, 0, 0xff]);
    skill(&h, "ok", "ok");
    let e = engine(&h);
    assert_eq!(listed(&e), ["ok"]);
    let view = Context::new(&e).skill_view(SkillRef::Name("bin"), None, None, true);
    assert_eq!(view["success"], Json::Bool(false));
    assert!(view["error"].as_str().unwrap().starts_with("Failed to read skill 'bin': 'utf-8' codec can't decode"));
}

/// A folder whose name is not UTF-8: Hermes names the skill with the
/// bytes escaped and its `/name` message reaches the folder through them;
/// skillscope shows U+FFFD for each and reaches the same folder.
#[cfg(unix)]
#[test]
fn a_folder_name_that_is_not_utf8_still_builds_the_message() {
    use std::os::unix::ffi::OsStrExt;
    let (_t, h) = home();
    let folder = h.join("skills/cat").join(std::ffi::OsStr::from_bytes(b"bad\xff"));
    write(&folder.join("SKILL.md"), b"---\ndescription: Bad folder.\n---\nbody\n");
    skill(&h, "cat/ok", "ok");
    let e = engine(&h);
    assert_eq!(listed(&e), ["bad\u{fffd}", "ok"]);
    let commands = e.skill_commands();
    assert!(commands.contains_key("/bad"), "{:?}", commands.keys().collect::<Vec<_>>());
    let message = Context::new(&e).invocation_message("/bad", "", Some("s")).expect("Hermes builds it");
    assert!(message.starts_with("[IMPORTANT: The user has invoked the \"bad\u{fffd}\" skill"), "{message}");
    assert!(message.contains("description: Bad folder.\n---\nbody\n"), "{message}");
    let view = Context::new(&e).skill_view(SkillRef::Name("cat/bad\u{fffd}"), None, None, true);
    assert_eq!(view["success"], Json::Bool(true), "{view}");
    // A name that only looks like it finds nothing.
    let view = Context::new(&e).skill_view(SkillRef::Name("cat/bad\u{fffd}x"), None, None, true);
    assert_eq!(view["success"], Json::Bool(false), "{view}");
}

#[cfg(unix)]
#[test]
fn fifo_never_blocks() {
    let (_t, h) = home();
    fs::create_dir_all(h.join("skills/pipe")).expect("mkdir");
    let fifo = h.join("skills/pipe/SKILL.md");
    let made = Command::new("mkfifo").arg(&fifo).status().map(|s| s.success()).unwrap_or(false);
    assert!(made, "mkfifo is available");
    skill(&h, "ok", "ok");
    write(&h.join("skills/ok/references/pipe.md"), b"");
    let home = h.display().to_string();
    for args in [
        vec!["--home", &home, "list", "--json"],
        vec!["--home", &home, "view", "pipe", "--json"],
        vec!["--home", &home, "prompt"],
        vec!["--home", &home, "commands"],
    ] {
        let out = run_with_deadline(&args, Duration::from_secs(20));
        assert!(out.status.code().is_some(), "{args:?}");
    }
    let e = engine(&h);
    assert_eq!(listed(&e), ["ok"]);
    let view = Context::new(&e).skill_view(SkillRef::Name("pipe"), None, None, true);
    assert!(view["error"].as_str().unwrap().contains("Not a regular file"), "{view}");
}

#[cfg(unix)]
#[test]
fn symlink_loops_terminate_and_skills_appear_once_per_path() {
    let (_t, h) = home();
    skill(&h, "cat/s", "s");
    std::os::unix::fs::symlink(h.join("skills/cat"), h.join("skills/cat/s/references")).expect("symlink");
    std::os::unix::fs::symlink(h.join("skills"), h.join("skills/cat/back")).expect("symlink");
    std::os::unix::fs::symlink("self", h.join("skills/self")).expect("symlink");
    let e = engine(&h);
    let home = h.display().to_string();
    let out = run_with_deadline(&["--home", &home, "list", "--json"], Duration::from_secs(20));
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(listed(&e), ["s"]);
    exercise(&e, &["s", "self", "back"]);
}

#[cfg(unix)]
#[test]
fn unreadable_directories_are_passed_over() {
    use std::os::unix::fs::PermissionsExt;
    let (_t, h) = home();
    skill(&h, "locked/inner", "inner");
    skill(&h, "ok", "ok");
    let locked = h.join("skills/locked");
    fs::set_permissions(&locked, fs::Permissions::from_mode(0o000)).expect("chmod");
    let e = engine(&h);
    let names = listed(&e);
    exercise(&e, &["inner", "ok"]);
    fs::set_permissions(&locked, fs::Permissions::from_mode(0o755)).expect("chmod back");
    assert!(names.contains(&"ok".to_owned()));
    // Root reads through mode 000; anyone else sees the folder passed over.
    let readable_anyway = fs::read_dir(&locked).is_ok();
    assert_eq!(names.contains(&"inner".to_owned()), readable_anyway || common::is_root());
}

#[cfg(unix)]
#[test]
fn folders_that_cannot_be_listed_are_named_in_the_tree_and_in_check() {
    use std::os::unix::fs::PermissionsExt;
    let (t, h) = home();
    // `nobody` must reach the home: the scratch folder is private by default.
    for dir in [t.path().to_path_buf(), h.clone(), h.join("skills")] {
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o755)).expect("chmod");
    }
    skill(&h, "locked/inner", "inner");
    skill(&h, "team/deploy", "deploy");
    skill(&h, "ok", "ok");
    let locked = [h.join("skills/locked"), h.join("skills/team/deploy")];
    for dir in &locked {
        fs::set_permissions(dir, fs::Permissions::from_mode(0o000)).expect("chmod");
    }
    let home = h.display().to_string();
    let run = |args: &[&str]| common::unprivileged(t.path(), t.path(), args);
    let check = run(&["--home", &home, "check", "--json"]);
    let frame = run(&["--home", &home, "--print-frame", "100x16"]);
    for dir in &locked {
        fs::set_permissions(dir, fs::Permissions::from_mode(0o755)).expect("chmod back");
    }
    assert_eq!(check.status.code(), Some(1), "{}", String::from_utf8_lossy(&check.stderr));
    let findings: Json = serde_json::from_slice(&check.stdout).expect("json");
    let unreadable: Vec<(&str, &str)> = findings
        .as_array()
        .expect("list")
        .iter()
        .filter(|f| f["rule"] == "hermes-unreadable-folder")
        .map(|f| (f["path"].as_str().unwrap_or_default(), f["message"].as_str().unwrap_or_default()))
        .collect();
    assert_eq!(unreadable.iter().map(|(p, _)| *p).collect::<Vec<_>>(), ["locked", "team/deploy"], "{findings}");
    assert!(unreadable.iter().all(|(_, m)| m.contains("Permission denied")), "{unreadable:?}");
    let frame = String::from_utf8_lossy(&frame.stdout);
    assert!(frame.contains("✗ locked") && frame.contains("✗ deploy"), "{frame}");
    assert!(frame.contains("1/1 listed, 2 folders unreadable"), "{frame}");
}

#[test]
fn malformed_config_and_bundles() {
    let (_t, h) = home();
    skill(&h, "ok", "ok");
    write(&h.join("config.yaml"), &[0xff, 0xfe, b':', b'\n']);
    write(&h.join("skill-bundles/deep.yaml"), "a: [".repeat(5000).as_bytes());
    write(&h.join("skill-bundles/good.yaml"), b"name: good\nskills: [ok]\n");
    let e = engine(&h);
    assert_eq!(listed(&e), ["ok"]);
    let set = e.bundles();
    assert_eq!(set.bundles.keys().collect::<Vec<_>>(), ["/good"]);
    assert_eq!(set.problems.len(), 1, "the deep one skipped");
    // A file that is not UTF-8, read last: Hermes' read raises through the
    // whole scan (UnicodeDecodeError), and no bundle is registered.
    write(&h.join("skill-bundles/z-bin.yaml"), &[0, 1, 2, 0xff]);
    let e = engine(&h);
    let set = e.bundles();
    assert!(set.bundles.is_empty(), "{:?}", set.bundles.keys());
    assert!(set.scan_error.as_deref().is_some_and(|m| m.starts_with("UnicodeDecodeError")), "{:?}", set.scan_error);
    assert_eq!(set.problems.len(), 2);
    assert!(e.home.config_problem.is_some());
    exercise(&e, &["ok"]);
}

#[test]
fn malformed_frontmatter_shapes() {
    let (_t, h) = home();
    let cases: [(&str, &[u8]); 8] = [
        ("tabs", b"---\nname: tabs\n\tdescription: tab indented\n---\nbody\n"),
        ("anchors", b"---\nname: &a anchors\ndescription: *a\n---\nbody\n"),
        ("deep", &[b"---\nname: deep\nx: ".as_slice(), "[".repeat(3000).as_bytes(), b"\n---\nbody\n"].concat()),
        ("nul", b"---\nname: nul\x00\ndescription: d\n---\n"),
        ("only-dashes", b"---\n---\n---\n"),
        ("multi-doc", b"---\nname: a\n---\nname: b\n...\n---\n"),
        ("huge-key", &[b"---\n".as_slice(), "k".repeat(100_000).as_bytes(), b": v\n---\n"].concat()),
        ("bidi", "---\nname: bidi\ndescription: \u{202e}reversed\n---\n".as_bytes()),
    ];
    for (dir, text) in cases {
        write(&h.join("skills").join(dir).join("SKILL.md"), text);
    }
    let e = engine(&h);
    let names = listed(&e);
    assert!(names.contains(&"tabs".to_owned()) && names.contains(&"bidi".to_owned()), "{names:?}");
    exercise(&e, &["tabs", "anchors", "deep", "nul", "only-dashes", "multi-doc", "huge-key", "bidi"]);
}

/// Symlinked folders that fan out (as `/sys`'s do) lead to the same folders
/// by ever more paths: 2^19 of them here. The walk stops entering such
/// folders after its budget, says where, and the other skills stay.
#[cfg(unix)]
#[test]
fn symlinks_that_fan_out_are_walked_in_part() {
    let (_t, h) = home();
    skill(&h, "ok", "ok");
    let fan = h.join("fan");
    for level in 0..19 {
        let dir = fan.join(format!("d{level}"));
        fs::create_dir_all(&dir).expect("mkdir");
        for link in ["a", "b"] {
            std::os::unix::fs::symlink(format!("../d{}", level + 1), dir.join(link)).expect("symlink");
        }
    }
    fs::create_dir_all(fan.join("d19")).expect("mkdir");
    fs::create_dir_all(h.join("skills/cat")).expect("mkdir");
    std::os::unix::fs::symlink(fan.join("d0"), h.join("skills/cat/linked")).expect("symlink");
    let home = h.display().to_string();
    let out = run_with_deadline(&["--home", &home, "check", "--json"], Duration::from_secs(60));
    let findings: Json = serde_json::from_slice(&out.stdout).expect("check's JSON");
    let cut: Vec<&Json> = findings
        .as_array()
        .expect("a list")
        .iter()
        .filter(|f| f["rule"] == "hermes-unreadable-folder" && f["path"] == "cat/linked")
        .collect();
    assert_eq!(cut.len(), 1, "{findings:#}");
    assert!(cut[0]["message"].as_str().expect("text").starts_with("walked in part (more than 100000 folders"));
    assert_eq!(listed(&engine(&h)), ["ok"]);
}

/// libyaml's scanner takes time growing with the square of the nesting: a
/// document nested 150,000 levels deep is refused at once all the same.
#[test]
fn nesting_without_end_is_refused_quickly() {
    let (_t, h) = home();
    for (name, tail) in [("open", String::new()), ("closed", "]".repeat(150_000))] {
        let text = format!("---\nname: {name}\ndescription: deep\nx: {}{tail}\n---\nbody\n", "[".repeat(150_000));
        write(&h.join("skills").join(name).join("SKILL.md"), text.as_bytes());
    }
    let home = h.display().to_string();
    let out = run_with_deadline(&["--home", &home, "check", "--json"], Duration::from_secs(10));
    let findings = String::from_utf8_lossy(&out.stdout);
    assert_eq!(findings.matches("nesting deeper than 1000 levels").count(), 2, "{findings}");
}

/// Text from files and from the command line reaches the terminal without
/// its escapes, in every command's text output; a name too long for a
/// column is cut, not a panic.
#[test]
fn outputs_carry_no_escape_sequences_and_long_names_fit() {
    let (_t, home) = home();
    let h = home.to_str().expect("utf-8 home");
    write(&home.join("skills/dev/x/SKILL.md"), b"---\nname: \"x\\e[31m\"\ndescription: d\n---\nbody\n");
    let long = format!("---\nname: {}\ndescription: d\n---\nbody\n", "n".repeat(70_000));
    write(&home.join("skills/dev/long/SKILL.md"), long.as_bytes());
    write(&home.join("skills/dev/s\x1b[2Jk/SKILL.md"), b"---\ndescription: d\n---\nRun ${SKILL_DIR}/x.sh\n");
    write(&home.join("skills/.usage.json"), br#"{"x": {"state": "\u001b[2J\u001b[31mpwned"}}"#);
    write(&home.join("skillscope.toml"), b"[check]\nselect = [\"\x1b[31mX\"]\n");
    let deadline = Duration::from_secs(60);
    let runs: [&[&str]; 6] = [
        &["--home", h, "cost"],
        &["--home", h, "cost", "--loaded"],
        &["--home", h, "lifecycle"],
        &["--home", h, "check", "--isolated", "--format", "github", "--min-severity", "info"],
        &["--home", h, "check", "--config", &format!("{h}/skillscope.toml")],
        &["--home", h, "invoke", "/x\x1b[31m"],
    ];
    for args in runs {
        let out = run_into_files(args, deadline);
        assert!(out.status.code().is_some_and(|c| c != 101), "{args:?}: {out:?}");
        for (stream, bytes) in [("stdout", &out.stdout), ("stderr", &out.stderr)] {
            assert!(!bytes.contains(&0x1b), "{args:?} {stream}: {}", String::from_utf8_lossy(bytes));
        }
    }
}

/// A path that is not UTF-8 is written as every answer writes it (U+FFFD),
/// not the end of a JSON document.
#[test]
fn lifecycle_json_holds_a_path_that_is_not_utf8() {
    use std::os::unix::ffi::OsStrExt;
    let (_t, home) = home();
    let folder = home.join("skills/dev").join(std::ffi::OsStr::from_bytes(b"a\xff"));
    write(&folder.join("SKILL.md"), b"---\nname: a\ndescription: d\n---\nbody\n");
    let out =
        run_with_deadline(&["--home", home.to_str().expect("utf-8"), "lifecycle", "--json"], Duration::from_secs(60));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON document");
    assert!(doc.to_string().contains("a\u{fffd}/SKILL.md"), "{doc}");
}

/// A megabyte of openings with no end (code fences, templates, links,
/// inline shell): `check` reads each once, not to the text's end from each
/// (each took 4 to 26 s).
#[test]
fn check_reads_a_megabyte_of_unclosed_openings_in_linear_time() {
    for (what, unit) in [
        ("fences", "```\n"),
        ("templates", "${"),
        ("links", "[x]("),
        ("shell", "!`"),
        ("paths", "${HERMES_SKILL_DIR}/a"),
    ] {
        let (_t, h) = home();
        let body = unit.repeat((1 << 20) / unit.len());
        write(&h.join("skills/c/big/SKILL.md"), format!("---\nname: big\ndescription: d\n---\n{body}").as_bytes());
        let home = h.to_str().expect("utf-8");
        let out = run_into_files(&["--home", home, "check", "--min-severity", "info"], Duration::from_secs(20));
        assert!(out.status.code().is_some_and(|c| c <= 1), "{what}: {}", String::from_utf8_lossy(&out.stderr));
    }
}
