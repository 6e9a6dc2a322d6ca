//! SKILL.md preprocessing (spec §10): `${HERMES_SKILL_DIR}`,
//! `${HERMES_SESSION_ID}` and, only with the user's consent, inline shell.

use super::value::{Map, Value};
use crate::py::{py_str_repr, py_strip, PyError};
use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

pub const INLINE_SHELL_MAX_OUTPUT: usize = 4000;

/// The `skills:` settings preprocessing reads (merged config).
#[derive(Debug, Clone, PartialEq)]
pub struct PreprocessConfig {
    pub template_vars: bool,
    /// `skills.inline_shell` as configured.
    pub inline_shell: bool,
    /// `int(inline_shell_timeout or 10)`; `Err` when Hermes' `int()` raises.
    pub timeout: Result<i64, crate::py::PyError>,
}

impl PreprocessConfig {
    /// From the merged `skills:` value (`{}` when it is not a mapping).
    pub fn from_skills(skills: Option<&Value>) -> PreprocessConfig {
        let empty = Map::default();
        let cfg = skills.and_then(Value::as_map).unwrap_or(&empty);
        let template_vars = cfg.get("template_vars").map_or(true, Value::truthy);
        let inline_shell = cfg.get("inline_shell").is_some_and(Value::truthy);
        let timeout = match cfg.get("inline_shell_timeout").filter(|v| v.truthy()) {
            None => Ok(10),
            Some(value) => py_int(value),
        };
        PreprocessConfig { template_vars, inline_shell, timeout }
    }
}

/// Python's `int(value)`, an integer beyond `i64` held at its bound (a
/// timeout that large fails alike: [`py_timeout_failure`]).
fn py_int(value: &Value) -> Result<i64, PyError> {
    let not_a_number = |kind: &str| {
        PyError::type_error(format!(
            "int() argument must be a string, a bytes-like object or a real number, not '{kind}'"
        ))
    };
    let invalid = |repr: String| PyError::value_error(format!("invalid literal for int() with base 10: {repr}"));
    match value {
        Value::Int(i) => Ok(*i),
        Value::BigInt(digits) => Ok(if digits.starts_with('-') { i64::MIN } else { i64::MAX }),
        Value::Bool(b) => Ok(i64::from(*b)),
        Value::Float(f) if f.is_nan() => Err(PyError::value_error("cannot convert float NaN to integer")),
        Value::Float(f) if f.is_infinite() => {
            Err(PyError::new("OverflowError", "cannot convert float infinity to integer"))
        }
        // Saturating: past `i64` any timeout fails alike.
        Value::Float(f) => Ok(f.trunc() as i64),
        Value::Str(s) => crate::py::int_text_saturating(s).ok_or_else(|| invalid(py_str_repr(s))),
        Value::Bytes(b) => std::str::from_utf8(b)
            .ok()
            .and_then(crate::py::int_text_saturating)
            .ok_or_else(|| invalid(crate::py::py_bytes_repr(b))),
        Value::Null => Err(not_a_number("NoneType")),
        Value::Date(_) => Err(not_a_number("datetime.date")),
        Value::DateTime(_) => Err(not_a_number("datetime.datetime")),
        Value::Seq(_) => Err(not_a_number("list")),
        Value::Tuple(_) => Err(not_a_number("tuple")),
        Value::Set(_) => Err(not_a_number("set")),
        Value::Map(_) => Err(not_a_number("dict")),
    }
}

/// Why Python's `subprocess.run` fails with a timeout of `seconds`, once the
/// snippet is started (it is then killed): its wait polls with the time left
/// in milliseconds, which its clock holds as nanoseconds in 64 bits, and
/// `poll()` takes as a C `int`.
fn py_timeout_failure(seconds: i64) -> Option<&'static str> {
    const NANOSECONDS_HELD: i64 = i64::MAX / 1_000_000_000;
    const MILLISECONDS_POLLED: i64 = i32::MAX as i64 / 1000;
    match seconds {
        s if s > NANOSECONDS_HELD => Some("timestamp too large to convert to C _PyTime_t"),
        s if s > MILLISECONDS_POLLED => Some("timeout is too large"),
        _ => None,
    }
}

/// `substitute_template_vars`: only the two known tokens, only when a value
/// exists; everything else stays literal.
pub fn substitute_template_vars(content: &str, skill_dir: Option<&str>, session_id: Option<&str>) -> String {
    const DIR: &str = "${HERMES_SKILL_DIR}";
    const SESSION: &str = "${HERMES_SESSION_ID}";
    if content.is_empty() || !content.contains("${HERMES_") {
        return content.to_owned();
    }
    let mut out = String::with_capacity(content.len());
    let mut rest = content;
    while let Some(pos) = rest.find("${HERMES_") {
        out.push_str(&rest[..pos]);
        let tail = &rest[pos..];
        if tail.starts_with(DIR) && skill_dir.is_some_and(|d| !d.is_empty()) {
            out.push_str(skill_dir.unwrap_or_default());
            rest = &tail[DIR.len()..];
        } else if tail.starts_with(SESSION) && session_id.is_some_and(|s| !s.is_empty()) {
            out.push_str(session_id.unwrap_or_default());
            rest = &tail[SESSION.len()..];
        } else {
            out.push('$');
            rest = &tail[1..];
        }
    }
    out.push_str(rest);
    out
}

/// The `` !`cmd` `` snippets in `content`: (byte range, command).
pub fn inline_shell_snippets(content: &str) -> Vec<(std::ops::Range<usize>, &str)> {
    let mut out = Vec::new();
    let bytes = content.as_bytes();
    let finder = memchr::memmem::Finder::new("!`");
    let mut i = 0;
    while let Some(rel) = finder.find(&bytes[i..]) {
        let start = i + rel;
        let cmd_start = start + 2;
        let end = memchr::memchr2(b'`', b'\n', &bytes[cmd_start..]).map(|e| cmd_start + e);
        match end {
            Some(e) if bytes[e] == b'`' && e > cmd_start => {
                out.push((start..e + 1, &content[cmd_start..e]));
                i = e + 1;
            }
            _ => i = start + 1,
        }
    }
    out
}

/// `expand_inline_shell`: each snippet replaced by its output.
pub fn expand_inline_shell(content: &str, cwd: Option<&Path>, timeout: i64) -> String {
    if !content.contains("!`") {
        return content.to_owned();
    }
    let mut out = String::with_capacity(content.len());
    let mut last = 0;
    for (range, cmd) in inline_shell_snippets(content) {
        out.push_str(&content[last..range.start]);
        let cmd = py_strip(cmd);
        if !cmd.is_empty() {
            out.push_str(&run_inline_shell(cmd, cwd, timeout));
        }
        last = range.end;
    }
    out.push_str(&content[last..]);
    out
}

/// `run_inline_shell`: `bash -c`, stdin closed, stdout (else stderr) with
/// trailing newlines removed, capped at 4000 characters.
pub fn run_inline_shell(command: &str, cwd: Option<&Path>, timeout: i64) -> String {
    // Hermes starts the snippet and kills it at once: not run here.
    if let Some(why) = py_timeout_failure(timeout) {
        return format!("[inline-shell error: {why}]");
    }
    let mut cmd = Command::new("bash");
    cmd.arg("-c").arg(command).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    if let Some(dir) = cwd {
        cmd.current_dir(dir);
    }
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        // Hermes reports any FileNotFoundError (bash or the cwd) this way.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return "[inline-shell error: bash not found]".into(),
        Err(e) => return format!("[inline-shell error: {e}]"),
    };
    let stdout = child.stdout.take();
    let stderr = child.stderr.take();
    let read_all = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_end(&mut buf);
            }
            buf
        })
    };
    let out_reader = read_all(stdout.map(|p| Box::new(p) as Box<dyn Read + Send>));
    let err_reader = read_all(stderr.map(|p| Box::new(p) as Box<dyn Read + Send>));
    let deadline = Instant::now().checked_add(Duration::from_secs(timeout.max(1) as u64));
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if deadline.is_some_and(|d| Instant::now() >= d) => {
                let _ = child.kill();
                let _ = child.wait();
                return format!("[inline-shell timeout after {timeout}s: {command}]");
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(e) => return format!("[inline-shell error: {e}]"),
        }
    }
    // `text=True`: each stream decoded strictly, its line ends made `\n`.
    let decoded = |bytes: Vec<u8>| crate::source::decode(bytes).map(crate::source::universal_newlines);
    let (stdout, stderr) =
        match (decoded(out_reader.join().unwrap_or_default()), decoded(err_reader.join().unwrap_or_default())) {
            (Ok(stdout), Ok(stderr)) => (stdout, stderr),
            (Err(e), _) | (_, Err(e)) => return format!("[inline-shell error: {}]", e.message()),
        };
    let mut output = stdout.trim_end_matches('\n').to_owned();
    if output.is_empty() && !stderr.is_empty() {
        output = stderr.trim_end_matches('\n').to_owned();
    }
    if output.chars().count() > INLINE_SHELL_MAX_OUTPUT {
        output = format!("{}...[truncated]", crate::py::take_chars(&output, INLINE_SHELL_MAX_OUTPUT));
    }
    output
}

/// What preprocessing would do with a text, and whether it could.
pub struct Preprocessed {
    pub text: String,
    /// False when Hermes would fail (then the raw text is used).
    pub ok: bool,
}

/// A skill's folder as the host knows it and as the agent is shown it (the
/// sandbox path on a remote backend; the same path locally).
#[derive(Debug, Clone, Copy, Default)]
pub struct SkillDirs<'a> {
    pub host: Option<&'a str>,
    pub shown: Option<&'a str>,
}

impl<'a> SkillDirs<'a> {
    pub fn same(dir: Option<&'a str>) -> SkillDirs<'a> {
        SkillDirs { host: dir, shown: dir }
    }
}

/// `preprocess_skill_content`: templates, then inline shell, with
/// skillscope's consent rule (shell runs only when config enables it **and**
/// the user allowed it). Snippets run on the host, so inside them
/// `${HERMES_SKILL_DIR}` is the host folder; everywhere else it is the
/// folder the agent is shown.
pub fn preprocess(
    content: &str,
    dirs: SkillDirs<'_>,
    session_id: Option<&str>,
    cfg: &PreprocessConfig,
    allow_inline_shell: bool,
) -> Preprocessed {
    if content.is_empty() {
        return Preprocessed { text: String::new(), ok: true };
    }
    let templates = |text: &str, dir: Option<&str>| {
        if cfg.template_vars {
            substitute_template_vars(text, dir, session_id)
        } else {
            text.to_owned()
        }
    };
    if !cfg.inline_shell {
        return Preprocessed { text: templates(content, dirs.shown), ok: true };
    }
    let timeout = match &cfg.timeout {
        Ok(t) => *t,
        Err(_) => return Preprocessed { text: content.to_owned(), ok: false },
    };
    if !allow_inline_shell || !content.contains("!`") {
        return Preprocessed { text: templates(content, dirs.shown), ok: true };
    }
    let mut out = String::with_capacity(content.len());
    let mut last = 0;
    for (range, cmd) in inline_shell_snippets(content) {
        out.push_str(&templates(&content[last..range.start], dirs.shown));
        let cmd = templates(cmd, dirs.host);
        let cmd = py_strip(&cmd);
        if !cmd.is_empty() {
            out.push_str(&run_inline_shell(cmd, dirs.host.map(Path::new), timeout));
        }
        last = range.end;
    }
    out.push_str(&templates(&content[last..], dirs.shown));
    Preprocessed { text: out, ok: true }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates() {
        let s = "a ${HERMES_SKILL_DIR}/x ${HERMES_SESSION_ID} ${HERMES_OTHER} ${HERMES_SKILL_DIR}";
        assert_eq!(substitute_template_vars(s, Some("/d"), Some("s1")), "a /d/x s1 ${HERMES_OTHER} /d");
        assert_eq!(substitute_template_vars(s, None, None), s);
    }

    #[test]
    fn snippet_regex() {
        let s = "x !`echo a` y !`` z !`no\nnewline` !`b`";
        let cmds: Vec<_> = inline_shell_snippets(s).into_iter().map(|(_, c)| c).collect();
        assert_eq!(cmds, ["echo a", "b"]);
    }

    #[test]
    fn shell_runs_in_cwd_and_caps_output() {
        let t = tempfile::tempdir().unwrap();
        let out = expand_inline_shell("[!`pwd`] [!`   `]", Some(t.path()), 5);
        assert_eq!(out, format!("[{}] []", t.path().canonicalize().unwrap().display()));
        let long = run_inline_shell("head -c 5000 /dev/zero | tr '\\0' a", None, 5);
        assert!(long.ends_with("...[truncated]"));
        assert_eq!(long.chars().count(), 4000 + "...[truncated]".len());
        assert_eq!(run_inline_shell("echo err >&2", None, 5), "err");
    }

    #[test]
    fn shell_timeout_marker() {
        assert_eq!(run_inline_shell("sleep 5", None, 1), "[inline-shell timeout after 1s: sleep 5]");
    }

    /// `int(inline_shell_timeout)` as Python reads each kind of value.
    #[test]
    fn timeouts_are_read_as_python_int_reads_them() {
        let timeout = |yaml: &str| {
            let config = crate::yaml::load(&format!("inline_shell_timeout: {yaml}\n")).expect("yaml");
            PreprocessConfig::from_skills(Some(&config)).timeout.map_err(|e| (e.kind, e.message))
        };
        assert_eq!(timeout("5"), Ok(5));
        assert_eq!(timeout("' 1_0 '"), Ok(10));
        assert_eq!(timeout("2.9"), Ok(2));
        assert_eq!(timeout("0"), Ok(10), "falsy: `or 10`");
        assert_eq!(timeout("100000000000000000000000000000"), Ok(i64::MAX));
        assert_eq!(timeout("'-100000000000000000000000000000'"), Ok(i64::MIN));
        let err = |yaml: &str| timeout(yaml).unwrap_err();
        assert_eq!(err(".nan"), ("ValueError", "cannot convert float NaN to integer".into()));
        assert_eq!(err(".inf"), ("OverflowError", "cannot convert float infinity to integer".into()));
        assert_eq!(err("'2.5'"), ("ValueError", "invalid literal for int() with base 10: '2.5'".into()));
        let not_a_number =
            |kind: &str| format!("int() argument must be a string, a bytes-like object or a real number, not '{kind}'");
        assert_eq!(err("2024-01-01").1, not_a_number("datetime.date"));
        assert_eq!(err("[1]").1, not_a_number("list"));
        assert_eq!(err("{a: 1}").1, not_a_number("dict"));
    }

    /// A timeout Python's clock or `poll()` cannot hold fails as there,
    /// the snippet not run; none panics.
    #[test]
    fn timeouts_past_python_s_clock_fail_as_there() {
        assert_eq!(run_inline_shell("echo hi", None, 2_147_483), "hi");
        assert_eq!(run_inline_shell("echo hi", None, 2_147_484), "[inline-shell error: timeout is too large]");
        let too_large = "[inline-shell error: timestamp too large to convert to C _PyTime_t]";
        assert_eq!(run_inline_shell("echo hi", None, 9_223_372_037), too_large);
        assert_eq!(run_inline_shell("echo hi", None, i64::MAX), too_large);
        assert_eq!(run_inline_shell("echo hi", None, i64::MIN), "hi", "max(1, timeout)");
    }

    /// Output decoded as `text=True` decodes it: strictly, line ends made `\n`.
    #[test]
    fn output_is_decoded_as_python_text_mode() {
        assert_eq!(run_inline_shell("printf 'a\\r\\nb\\rc'", None, 5), "a\nb\nc");
        assert_eq!(
            run_inline_shell("printf '\\377x'", None, 5),
            "[inline-shell error: 'utf-8' codec can't decode byte 0xff in position 0: invalid start byte]"
        );
        assert_eq!(run_inline_shell("printf 'e\\r\\n' >&2", None, 5), "e");
    }

    #[test]
    fn shell_needs_consent() {
        let cfg = PreprocessConfig { template_vars: true, inline_shell: true, timeout: Ok(10) };
        let p = preprocess("!`echo hi`", SkillDirs::default(), None, &cfg, false);
        assert_eq!(p.text, "!`echo hi`");
        let p = preprocess("!`echo hi`", SkillDirs::default(), None, &cfg, true);
        assert_eq!(p.text, "hi");
    }

    #[test]
    fn snippets_see_the_host_dir_and_text_the_shown_dir() {
        let cfg = PreprocessConfig { template_vars: true, inline_shell: true, timeout: Ok(10) };
        let t = tempfile::tempdir().unwrap();
        let host = t.path().to_str().unwrap();
        let dirs = SkillDirs { host: Some(host), shown: Some("/root/.hermes/skills/s") };
        let p = preprocess("${HERMES_SKILL_DIR} !`echo ${HERMES_SKILL_DIR}`", dirs, None, &cfg, true);
        assert_eq!(p.text, format!("/root/.hermes/skills/s {host}"));
    }
}
