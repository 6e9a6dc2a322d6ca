//! Shared helpers for integration tests: fixture homes, the isolated
//! environment Hermes' reference runs use, and masking of machine paths.
#![allow(dead_code)]

#[cfg(unix)]
pub mod servers;
pub mod tui;

use serde_json::Value as Json;
use skillscope::engine::env::{Env, Os};
use skillscope::engine::sandbox::default_backend;
use skillscope::engine::{Engine, Options};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The real-skills corpus kept in the repository (`tests/corpus`, sources
/// and licences in its `SOURCES.md`).
pub fn corpus() -> PathBuf {
    repo().join("tests/corpus").canonicalize().expect("tests/corpus exists")
}

/// The corpus collections written by others than Hermes' authors, under
/// `corpus/` (Hermes' own are `hermes/skills` and `hermes/optional-skills`).
pub const OTHER_COLLECTIONS: [&str; 7] = [
    "anthropic",
    "openai/.curated",
    "openai/.experimental",
    "openai/.system",
    "superpowers",
    "vercel",
    "awesome-hermes-skills",
];

/// A fixture's `ref.conf`: repeated `key=value` lines.
#[derive(Debug, Default, Clone)]
pub struct RefConf(pub BTreeMap<String, Vec<String>>);

impl RefConf {
    pub fn read(path: &Path) -> RefConf {
        let mut map: BTreeMap<String, Vec<String>> = BTreeMap::new();
        if let Ok(text) = std::fs::read_to_string(path) {
            for line in text.lines() {
                if let Some((k, v)) = line.split_once('=') {
                    map.entry(k.to_owned()).or_default().push(v.to_owned());
                }
            }
        }
        RefConf(map)
    }

    pub fn all(&self, key: &str) -> &[String] {
        self.0.get(key).map(Vec::as_slice).unwrap_or(&[])
    }

    pub fn one(&self, key: &str) -> Option<&str> {
        self.all(key).first().map(String::as_str)
    }
}

/// A home as `ref_env.sh` isolates it.
pub struct Scenario {
    pub home: PathBuf,
    pub ext: Option<PathBuf>,
    pub fake_home: PathBuf,
    pub conf: RefConf,
}

impl Scenario {
    pub fn fixture(name: &str) -> Scenario {
        let dir = repo().join("tests/fixtures").join(name).canonicalize().expect("fixture exists");
        let conf = RefConf::read(&dir.join("ref.conf"));
        let home = dir.join(conf.one("home").unwrap_or("home"));
        let ext = conf.one("ext").map(|e| dir.join(e));
        Scenario::new(home, ext, conf)
    }

    pub fn new(home: PathBuf, ext: Option<PathBuf>, conf: RefConf) -> Scenario {
        let fake_home = home.parent().expect("home has a parent").join("fakehome");
        Scenario { home, ext, fake_home, conf }
    }

    pub fn env(&self) -> Env {
        let mut vars: Vec<(String, String)> = vec![
            ("HERMES_HOME".into(), self.home.display().to_string()),
            ("HOME".into(), self.fake_home.display().to_string()),
            ("REF_EXT_DIR".into(), self.ext.as_ref().map(|e| e.display().to_string()).unwrap_or_default()),
            ("TERMINAL_ENV".into(), "local".into()),
            ("HERMES_MANAGED_DIR".into(), "/nonexistent-managed-dir".into()),
        ];
        for line in self.conf.all("env") {
            if let Some((k, v)) = line.split_once('=') {
                vars.push((k.into(), v.into()));
            }
        }
        Env::with_vars(vars, Os::Linux)
    }

    /// The engine answering as Hermes 0.19.0 does: the backend from
    /// TERMINAL_ENV, and the host paths Hermes hands the agent.
    pub fn engine(&self) -> Engine {
        // The goldens list folders in this order (tests/golden/hermes-ref/listing_order.py).
        skillscope::engine::listing::set_order(skillscope::engine::listing::Order::Fnv1a);
        let options = Options {
            session_id: "sess-1".into(),
            allow_inline_shell: self.conf.one("inline_shell") == Some("1"),
            hermes_paths: true,
            ..Options::default()
        };
        let mut engine = Engine::new(self.home.clone(), self.env(), options);
        engine.options.backend = default_backend(&engine.home, &engine.env).expect("backend");
        engine
    }

    /// Replaces this machine's paths as the reference script does.
    pub fn mask(&self, value: Json) -> Json {
        let home = self.home.display().to_string();
        let ext = self.ext.as_ref().map(|e| e.canonicalize().unwrap_or(e.clone()).display().to_string());
        let fake = self.fake_home.display().to_string();
        mask_with(value, &|s: &str| {
            let mut s = s.replace(&home, "$HERMES_HOME");
            if let Some(ext) = &ext {
                s = s.replace(ext.as_str(), "$EXT");
            }
            s.replace(&fake, "$HOME")
        })
    }
}

pub fn map_strings(value: Json, f: &dyn Fn(&str) -> String) -> Json {
    mask_with(value, f)
}

pub fn mask_with(value: Json, f: &dyn Fn(&str) -> String) -> Json {
    match value {
        Json::String(s) => Json::String(f(&s)),
        Json::Array(a) => Json::Array(a.into_iter().map(|v| mask_with(v, f)).collect()),
        Json::Object(o) => Json::Object(o.into_iter().map(|(k, v)| (k, mask_with(v, f))).collect()),
        other => other,
    }
}

/// Removes skillscope's `runtime_skill_dir` from a skill_view answer, after
/// checking that it follows `skill_dir` (and equals it on the local backend).
pub fn without_runtime(mut view: Json, local: bool) -> Json {
    if let Json::Object(map) = &mut view {
        if let Some(runtime) = map.get("runtime_skill_dir").cloned() {
            let keys: Vec<&String> = map.keys().collect();
            let at = keys.iter().position(|k| *k == "runtime_skill_dir").expect("key");
            assert_eq!(keys[at - 1], "skill_dir", "runtime_skill_dir follows skill_dir");
            if local {
                assert_eq!(map["skill_dir"], runtime, "local backend: runtime_skill_dir == skill_dir");
            }
            map.shift_remove("runtime_skill_dir");
        }
    }
    view
}

/// Compares two JSON documents key by key, key order included. Returns the
/// keys that differ, with the first differing spot of each.
pub fn compare(ours: &Json, golden: &Json) -> (usize, Vec<String>) {
    let (Json::Object(o), Json::Object(g)) = (ours, golden) else {
        return (0, vec!["not objects".into()]);
    };
    let mut matched = 0;
    let mut diffs = Vec::new();
    let gkeys: Vec<&String> = g.keys().collect();
    let okeys: Vec<&String> = o.keys().collect();
    if gkeys != okeys {
        diffs.push(format!("top-level keys differ: ours {okeys:?} vs golden {gkeys:?}"));
    }
    for (key, gval) in g {
        match o.get(key) {
            Some(oval) if same(oval, gval) => matched += 1,
            Some(oval) => diffs.push(format!("{key}: {}", first_difference(oval, gval, key))),
            None => diffs.push(format!("{key}: missing in ours")),
        }
    }
    (matched, diffs)
}

/// Equality that also requires the same key order in every object.
pub fn same(a: &Json, b: &Json) -> bool {
    serde_json::to_string(a).ok() == serde_json::to_string(b).ok()
}

fn short(v: &Json) -> String {
    let s = serde_json::to_string(v).unwrap_or_default();
    if s.chars().count() > 400 {
        format!("{}…", s.chars().take(400).collect::<String>())
    } else {
        s
    }
}

fn first_difference(a: &Json, b: &Json, path: &str) -> String {
    match (a, b) {
        (Json::Object(x), Json::Object(y)) => {
            let xk: Vec<&String> = x.keys().collect();
            let yk: Vec<&String> = y.keys().collect();
            if xk != yk {
                return format!("{path}: keys ours {xk:?} vs golden {yk:?}");
            }
            for (k, yv) in y {
                if !same(&x[k], yv) {
                    return first_difference(&x[k], yv, &format!("{path}.{k}"));
                }
            }
            format!("{path}: ?")
        }
        (Json::Array(x), Json::Array(y)) if x.len() == y.len() => {
            for (i, (xv, yv)) in x.iter().zip(y).enumerate() {
                if !same(xv, yv) {
                    return first_difference(xv, yv, &format!("{path}[{i}]"));
                }
            }
            format!("{path}: ?")
        }
        (Json::String(x), Json::String(y)) => {
            let common = x.chars().zip(y.chars()).take_while(|(p, q)| p == q).count();
            let ctx = |s: &str| s.chars().skip(common.saturating_sub(40)).take(120).collect::<String>();
            format!("{path}: strings differ at char {common}:\n    ours:   {:?}\n    golden: {:?}", ctx(x), ctx(y))
        }
        _ => format!("{path}:\n    ours:   {}\n    golden: {}", short(a), short(b)),
    }
}

/// Parses JSON as Python's `json` module writes it: the bare `NaN`,
/// `Infinity` and `-Infinity` it allows become the strings `"$NaN"`, ...
pub fn py_json(text: &str) -> Json {
    let mut out = String::with_capacity(text.len());
    let (mut in_string, mut escaped) = (false, false);
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if in_string {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
        } else if c == '"' {
            in_string = true;
        } else if let Some(token) = ["NaN", "-Infinity", "Infinity"].into_iter().find(|t| rest.starts_with(t)) {
            out.push_str(&format!("\"${token}\""));
            rest = &rest[token.len()..];
            continue;
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("not JSON ({e}): {}", &text[..text.len().min(200)]))
}

/// Runs the `skillscope` binary on a scenario's home as `tests/cli.rs` does
/// and as `hermes-ref/ref_env.sh` isolates Hermes: a clean environment, the
/// fixture's `env=` lines, then `extra`; `--home` comes first.
pub fn run_skillscope(scenario: &Scenario, args: &[&str], extra: &[(&str, &str)]) -> std::process::Output {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_skillscope"));
    cmd.env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", &scenario.fake_home)
        .env("HERMES_HOME", &scenario.home)
        .env("TERMINAL_ENV", "local")
        .env("SKILLSCOPE_LISTING_ORDER", "fnv1a")
        .env("HERMES_MANAGED_DIR", "/nonexistent-managed-dir")
        .env("REF_EXT_DIR", scenario.ext.as_ref().map(|e| e.display().to_string()).unwrap_or_default())
        .arg("--home")
        .arg(&scenario.home)
        .args(args);
    for line in scenario.conf.all("env") {
        if let Some((k, v)) = line.split_once('=') {
            cmd.env(k, v);
        }
    }
    for (k, v) in extra {
        cmd.env(k, v);
    }
    cmd.output().expect("the skillscope binary runs")
}

/// Copies a folder tree, symlinks as symlinks.
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read_dir") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        let ty = entry.file_type().expect("file type");
        if ty.is_dir() {
            copy_tree(&entry.path(), &target);
        } else if ty.is_symlink() {
            #[cfg(unix)]
            std::os::unix::fs::symlink(std::fs::read_link(entry.path()).expect("link"), &target).expect("symlink");
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

/// The corpus homes `tests/golden/regen.py` builds, under `tmp` (a
/// canonical folder): `corpus_hermes` (corpus/hermes, its optional-skills an
/// external dir) and `corpus_others` (the other collections as external dirs).
pub fn corpus_scenario(name: &str, tmp: &Path) -> Scenario {
    let home = tmp.join(name).join("home");
    match name {
        "corpus_hermes" => {
            copy_tree(&corpus().join("hermes"), &home);
            std::fs::write(home.join("config.yaml"), "skills:\n  external_dirs:\n    - ${REF_EXT_DIR}\n")
                .expect("config");
            let ext = home.join("optional-skills");
            Scenario::new(home, Some(ext), RefConf::default())
        }
        "corpus_others" => {
            std::fs::create_dir_all(home.join("skills")).expect("mkdir");
            let list: String = OTHER_COLLECTIONS.iter().map(|d| format!("    - ${{REF_EXT_DIR}}/{d}\n")).collect();
            std::fs::write(home.join("config.yaml"), format!("skills:\n  external_dirs:\n{list}")).expect("config");
            Scenario::new(home, Some(corpus()), RefConf::default())
        }
        other => panic!("no corpus home {other}"),
    }
}

/// Where two strings first differ, in characters (Python's indices), with
/// some text of each around it.
pub fn first_char_difference(ours: &str, theirs: &str) -> String {
    let at = ours.chars().zip(theirs.chars()).take_while(|(a, b)| a == b).count();
    let around = |s: &str| s.chars().skip(at.saturating_sub(60)).take(160).collect::<String>();
    format!(
        "first difference at char {at} (ours {} chars, Hermes {}):\n    ours:   {:?}\n    hermes: {:?}",
        ours.chars().count(),
        theirs.chars().count(),
        around(ours),
        around(theirs)
    )
}

/// Runs `git ARGS` in `dir` with a fixed author and no user or system
/// configuration; its output, trimmed.
pub fn git(dir: &Path, args: &[&str]) -> String {
    let out = std::process::Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.com")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.com")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", dir)
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

/// Makes `folder` a git repository (branch `main`) whose one commit holds
/// everything in it.
pub fn commit_all(folder: &Path) {
    git(folder, &["init", "-q", "-b", "main"]);
    git(folder, &["add", "-A"]);
    git(folder, &["commit", "-q", "--no-gpg-sign", "-m", "one"]);
}

/// Whether the tests run as root (who reads through any mode).
pub fn is_root() -> bool {
    std::process::Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false)
}

/// skillscope run in `dir` as a user that mode 000 keeps out: this user,
/// or when the tests run as root, `nobody` through `setpriv`, from a copy
/// of the binary in `scratch` (which `nobody` may run), `HOME` there.
#[cfg(unix)]
pub fn unprivileged(scratch: &Path, dir: &Path, args: &[&str]) -> std::process::Output {
    use std::os::unix::fs::PermissionsExt;
    let mut command = if is_root() {
        let bin = scratch.join("skillscope");
        if !bin.exists() {
            std::fs::copy(env!("CARGO_BIN_EXE_skillscope"), &bin).expect("copy the binary");
            std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        }
        let mut c = std::process::Command::new("setpriv");
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"]).arg(bin);
        c
    } else {
        std::process::Command::new(env!("CARGO_BIN_EXE_skillscope"))
    };
    let out = command
        .args(args)
        .current_dir(dir)
        .env("HOME", scratch)
        .env_remove("HERMES_HOME")
        .output()
        .expect("run skillscope");
    assert!(
        !String::from_utf8_lossy(&out.stderr).contains("setpriv:"),
        "setpriv is needed to test as another user: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// The exit status of `command` whose reader stops at once (`| head -0`):
/// its output meets a closed pipe.
pub fn status_with_output_closed(command: &mut std::process::Command) -> std::process::ExitStatus {
    let mut child =
        command.stdout(std::process::Stdio::piped()).stderr(std::process::Stdio::null()).spawn().expect("runs");
    drop(child.stdout.take());
    child.wait().expect("waits")
}

/// Writes a `git` into `bin` (put first in PATH) that, asked for a
/// revision's blobs (`cat-file --batch`, once the caller's scratch folders
/// exist), makes `held` and waits until `release` exists, then runs the
/// real git.
#[cfg(unix)]
pub fn git_held_at_blobs(bin: &Path, held: &Path, release: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let real = std::process::Command::new("sh").args(["-c", "command -v git"]).output().expect("sh").stdout;
    let script = format!(
        "#!/bin/sh\ncase \" $* \" in *\" cat-file --batch \"*) : > '{}'; \
         while [ ! -e '{}' ]; do sleep 0.05; done;; esac\nexec {} \"$@\"\n",
        held.display(),
        release.display(),
        String::from_utf8_lossy(&real).trim()
    );
    std::fs::create_dir_all(bin).expect("mkdir");
    std::fs::write(bin.join("git"), script).expect("write");
    std::fs::set_permissions(bin.join("git"), std::fs::Permissions::from_mode(0o755)).expect("chmod");
}

/// Waits (up to 30 s) until `path` exists.
pub fn wait_for_file(path: &Path) {
    let start = std::time::Instant::now();
    while !path.exists() {
        assert!(start.elapsed() < std::time::Duration::from_secs(30), "{} never came", path.display());
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// The names in a folder.
pub fn names_in(dir: &Path) -> Vec<String> {
    let entries = std::fs::read_dir(dir).expect("read_dir");
    entries.map(|e| e.expect("entry").file_name().to_string_lossy().into_owned()).collect()
}

/// Whether a screen's tree shows `row` (its marker and name, e.g.
/// `· s3-sync`) with the change mark `mark` (`+`, `~`, `-`; ` ` for none)
/// in the column left of the tree.
pub fn tree_row_marked(screen: &str, mark: char, row: &str) -> bool {
    screen.lines().any(|line| {
        let Some(inside) = line.strip_prefix('│') else { return false };
        let mut chars = inside.chars();
        chars.next() == Some(mark) && chars.as_str().trim_start().starts_with(row)
    })
}
