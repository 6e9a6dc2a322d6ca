//! Prerequisites and readiness (spec §9.10): required environment variables
//! (`required_environment_variables`, `setup.collect_secrets` and the legacy
//! `prerequisites.env_vars`, normalised as `_collect_prerequisite_values`
//! does, `TypeError` included), credential files, setup notes.

use super::env::Env;
use super::home::Home;
use super::paths;
use super::value::{Map, Value};
use crate::py::{py_strip, PyError};
use serde_json::{json, Map as JsonMap, Value as Json};
use std::path::Path;

/// The text Hermes shows on messaging surfaces, where it cannot prompt.
pub const GATEWAY_SETUP_HINT: &str = "Secure secret entry is not supported over messaging. Load this skill in the local CLI to be prompted, or add the key to ~/.hermes/.env manually.";

/// Backends whose sandboxes need requirements inside them too.
pub const REMOTE_BACKENDS: [&str; 5] = ["docker", "singularity", "modal", "ssh", "daytona"];

/// One normalised required environment variable.
#[derive(Debug, Clone, PartialEq)]
pub struct RequiredEnv {
    pub name: String,
    pub prompt: String,
    pub help: Option<String>,
    pub required_for: Option<String>,
    pub optional: bool,
}

impl RequiredEnv {
    pub fn to_json(&self) -> Json {
        let mut m = JsonMap::new();
        m.insert("name".into(), json!(self.name));
        m.insert("prompt".into(), json!(self.prompt));
        if let Some(h) = &self.help {
            m.insert("help".into(), json!(h));
        }
        if let Some(r) = &self.required_for {
            m.insert("required_for".into(), json!(r));
        }
        if self.optional {
            m.insert("optional".into(), json!(true));
        }
        Json::Object(m)
    }
}

fn is_env_name(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// `str(x or default).strip()` for a value that may be missing.
fn str_or(value: Option<&Value>, default: &str) -> String {
    match value.filter(|v| v.truthy()) {
        Some(v) => py_strip(&v.py_str()).to_owned(),
        None => py_strip(default).to_owned(),
    }
}

fn nonempty_str(value: Option<&Value>) -> Option<String> {
    match value {
        Some(Value::Str(s)) if !py_strip(s).is_empty() => Some(py_strip(s).to_owned()),
        _ => None,
    }
}

/// The first truthy of several keys (Python `a or b or c`).
fn first_truthy<'a>(entry: &'a Map, keys: &[&str]) -> Option<&'a Value> {
    keys.iter().find_map(|k| entry.get(*k).filter(|v| v.truthy()))
}

/// `_get_required_environment_variables(frontmatter, legacy_env_vars)`,
/// the legacy names coming from [`prerequisite_lists`].
pub fn required_env_vars(fm: &Map, legacy_env_vars: &[String]) -> Vec<RequiredEnv> {
    let setup = fm.get("setup").and_then(Value::as_map);
    let setup_help = setup.and_then(|s| nonempty_str(s.get("help")));
    let mut required: Vec<RequiredEnv> = Vec::new();
    // The names taken, looked up by hash: thousands of entries each
    // compared with all before took seconds.
    let mut taken: std::collections::HashSet<String> = std::collections::HashSet::new();
    let mut append = |name: Option<&Value>,
                      prompt: Option<&Value>,
                      help: Option<&Value>,
                      required_for: Option<&Value>,
                      optional: bool| {
        let name = str_or(name, "");
        if name.is_empty() || taken.contains(&name) || !is_env_name(&name) {
            return;
        }
        taken.insert(name.clone());
        let prompt = str_or(prompt, &format!("Enter value for {name}"));
        let help = match help {
            Some(v) => nonempty_str(Some(v)),
            None => setup_help.clone(),
        };
        let required_for = nonempty_str(required_for);
        required.push(RequiredEnv { name, prompt, help, required_for, optional });
    };

    let raw: Vec<Value> = match fm.get("required_environment_variables") {
        Some(Value::Map(m)) => vec![Value::Map(m.clone())],
        Some(Value::Seq(items)) => items.clone(),
        _ => Vec::new(),
    };
    for item in &raw {
        match item {
            Value::Str(s) => append(Some(&Value::Str(s.clone())), None, None, None, false),
            Value::Map(entry) => {
                let name = first_truthy(entry, &["name", "env_var"]);
                // `entry.get("help") or provider_url or url or setup.help`
                let help = first_truthy(entry, &["help", "provider_url", "url"]);
                let help_owned = help.cloned().or_else(|| setup_help.clone().map(Value::Str));
                let help_arg = Some(help_owned.unwrap_or(Value::Null));
                append(
                    name,
                    entry.get("prompt"),
                    help_arg.as_ref(),
                    entry.get("required_for"),
                    entry.get("optional").is_some_and(Value::truthy),
                );
            }
            _ => {}
        }
    }

    // setup.collect_secrets
    let secrets: Vec<Value> = match setup.and_then(|s| s.get("collect_secrets")) {
        Some(Value::Map(m)) => vec![Value::Map(m.clone())],
        Some(Value::Seq(items)) => items.clone(),
        _ => Vec::new(),
    };
    for item in &secrets {
        let Value::Map(entry) = item else { continue };
        let env_var = str_or(entry.get("env_var"), "");
        if env_var.is_empty() {
            continue;
        }
        let prompt = str_or(entry.get("prompt"), &format!("Enter value for {env_var}"));
        let provider_url = match first_truthy(entry, &["provider_url", "url"]) {
            Some(v) => py_strip(&v.py_str()).to_owned(),
            None => String::new(),
        };
        let help = if provider_url.is_empty() { setup_help.clone() } else { Some(provider_url) };
        let help = Value::Str(help.unwrap_or_default());
        append(Some(&Value::Str(env_var)), Some(&Value::Str(prompt)), Some(&help), None, false);
    }

    for name in legacy_env_vars {
        append(Some(&Value::Str(name.clone())), None, None, None, false);
    }
    required
}

/// `_normalize_prerequisite_values(value)`: nothing for a falsy value, a
/// string as the one item, anything else iterated as Python iterates it (a
/// mapping's keys, a string's characters) keeping each `str(item)` that is
/// not blank. Python's `TypeError` for a value it cannot iterate
/// (`'int' object is not iterable`).
pub fn prerequisite_values(value: Option<&Value>) -> Result<Vec<String>, PyError> {
    let items = match value.filter(|v| v.truthy()) {
        None => return Ok(Vec::new()),
        Some(Value::Str(s)) => vec![Value::Str(s.clone())],
        Some(other) => other.py_iter().ok_or_else(|| PyError::not_iterable(other.type_name()))?,
    };
    Ok(items.iter().map(Value::py_str).filter(|text| !py_strip(text).is_empty()).collect())
}

/// `_collect_prerequisite_values(frontmatter)`: `prerequisites.env_vars`
/// and `prerequisites.commands`, in that order, both normalised (commands
/// are never checked, but a value Python cannot iterate raises all the same).
pub fn prerequisite_lists(fm: &Map) -> Result<(Vec<String>, Vec<String>), PyError> {
    match fm.get("prerequisites").filter(|v| v.truthy()).and_then(Value::as_map) {
        None => Ok((Vec::new(), Vec::new())),
        Some(prereqs) => {
            Ok((prerequisite_values(prereqs.get("env_vars"))?, prerequisite_values(prereqs.get("commands"))?))
        }
    }
}

/// `_is_env_var_persisted`: `.env` decides when it names the variable.
pub fn env_var_present(name: &str, home: &Home, env: &Env) -> bool {
    match home.dotenv.get(name) {
        Some(v) => !v.is_empty(),
        None => env.non_empty(name).is_some(),
    }
}

/// True when Hermes is answering on a messaging surface (no prompting).
pub fn is_gateway_surface(env: &Env) -> bool {
    env.enabled("HERMES_GATEWAY_SESSION") || env.non_empty("HERMES_SESSION_PLATFORM").is_some()
}

/// The files `required_credential_files` names (relative to the home, as
/// written): whether each is there is what readiness reads of them.
pub fn credential_file_names(fm: &Map) -> Vec<String> {
    let Some(Value::Seq(entries)) = fm.get("required_credential_files") else {
        return Vec::new();
    };
    let name = |entry: &Value| match entry {
        Value::Str(s) => Some(py_strip(s).to_owned()),
        Value::Map(m) => first_truthy(m, &["path", "name"]).and_then(Value::as_str).map(|s| py_strip(s).to_owned()),
        _ => None,
    };
    entries.iter().filter_map(name).filter(|rel| !rel.is_empty()).collect()
}

/// `register_credential_files(entries)`: the entries that are missing, or
/// `None` when an entry makes Hermes raise (it then reports none missing).
pub fn missing_credential_files(fm: &Map, home: &Home) -> Option<Vec<String>> {
    let Some(Value::Seq(entries)) = fm.get("required_credential_files") else {
        return Some(Vec::new());
    };
    let mut missing = Vec::new();
    for entry in entries {
        let rel = match entry {
            Value::Str(s) => py_strip(s).to_owned(),
            Value::Map(m) => match first_truthy(m, &["path", "name"]) {
                None => String::new(),
                Some(Value::Str(s)) => py_strip(s).to_owned(),
                Some(_) => return None, // `.strip()` on a non-string raises
            },
            _ => continue,
        };
        if rel.is_empty() {
            continue;
        }
        match credential_file_mountable(&rel, &home.root) {
            Ok(true) => {}
            Ok(false) => missing.push(rel),
            Err(_) => return None,
        }
    }
    Some(missing)
}

/// `register_credential_file(rel)`: relative, inside HERMES_HOME, an existing
/// file, and not one of the credential stores the agent may not read; the
/// error of a symlink loop, which Hermes' containment check lets through.
pub fn credential_file_mountable(rel: &str, home_root: &Path) -> Result<bool, PyError> {
    if rel.starts_with('/') {
        return Ok(false);
    }
    let host = paths::join(home_root, rel);
    let resolved = paths::try_resolve(&host)?;
    let home_resolved = paths::try_resolve(home_root)?;
    if !resolved.starts_with(&home_resolved) {
        return Ok(false);
    }
    if !paths::is_file(&resolved) {
        return Ok(false);
    }
    Ok(!is_denied_credential_store(&resolved, &home_resolved))
}

/// `agent.file_safety.get_read_block_error` for paths under the home.
fn is_denied_credential_store(resolved: &Path, home: &Path) -> bool {
    // `mcp-tokens` is resolved first (a symlink is where it leads); the
    // `.hub` folder is not.
    if resolved.starts_with(home.join("skills/.hub")) || resolved.starts_with(paths::resolve(&home.join("mcp-tokens")))
    {
        return true;
    }
    let stores = [
        "auth.json",
        "auth.lock",
        ".anthropic_oauth.json",
        ".env",
        "webhook_subscriptions.json",
        "auth/google_oauth.json",
        "cache/bws_cache.json",
    ];
    if stores.iter().any(|s| paths::resolve(&home.join(s)) == resolved) {
        return true;
    }
    let base = resolved.file_name().map(|n| n.to_string_lossy().to_lowercase()).unwrap_or_default();
    matches!(
        base.as_str(),
        ".env" | ".env.local" | ".env.development" | ".env.production" | ".env.test" | ".env.staging" | ".envrc"
    )
}

/// The readiness part of a `skill_view` answer.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Readiness {
    pub required: Vec<RequiredEnv>,
    pub missing_env: Vec<String>,
    pub missing_files: Vec<String>,
    pub setup_needed: bool,
    pub setup_help: Option<String>,
    pub gateway_setup_hint: Option<String>,
    pub setup_note: Option<String>,
    /// The error `skill_view` fails with instead of reporting readiness (a
    /// `prerequisites` value Python cannot iterate): the skill cannot be
    /// viewed, invoked or preloaded.
    pub view_error: Option<PyError>,
    /// Every file `required_credential_files` names, there or not
    /// ([`credential_file_names`]): a lean catalog keeps no frontmatter,
    /// and whether such a file exists is what readiness depends on.
    pub credential_files: Vec<String>,
}

impl Readiness {
    /// Nothing required, nothing missing.
    pub const NOTHING_NEEDED: Readiness = Readiness {
        required: Vec::new(),
        missing_env: Vec::new(),
        missing_files: Vec::new(),
        setup_needed: false,
        setup_help: None,
        gateway_setup_hint: None,
        setup_note: None,
        view_error: None,
        credential_files: Vec::new(),
    };

    /// Boxed, or `None` when nothing is needed: see `CatalogSkill::readiness`.
    pub(crate) fn boxed(self) -> Option<Box<Readiness>> {
        (self != Readiness::NOTHING_NEEDED).then(|| Box::new(self))
    }

    pub fn status(&self) -> &'static str {
        if self.setup_needed {
            "setup_needed"
        } else {
            "available"
        }
    }
}

/// Evaluates a skill's prerequisites as `skill_view` does (no secret prompt
/// is registered, as in a script or a non-interactive run).
/// When the prerequisites make `skill_view` raise, the readiness holds
/// only that error ([`Readiness::view_error`]).
pub fn evaluate(fm: &Map, home: &Home, env: &Env, backend: &str) -> Readiness {
    let legacy_env_vars = match prerequisite_lists(fm) {
        Ok((env_vars, _commands)) => env_vars,
        Err(e) => return Readiness { view_error: Some(e), ..Readiness::NOTHING_NEEDED },
    };
    let required = required_env_vars(fm, &legacy_env_vars);
    let missing_env: Vec<String> = required
        .iter()
        .filter(|e| !e.optional && !env_var_present(&e.name, home, env))
        .map(|e| e.name.clone())
        .collect();
    let gateway_setup_hint = (!missing_env.is_empty() && is_gateway_surface(env) && !env.enabled("HERMES_INTERACTIVE"))
        .then(|| GATEWAY_SETUP_HINT.to_owned());
    let mut setup_needed = !missing_env.is_empty();
    let missing_files = missing_credential_files(fm, home).unwrap_or_default();
    if !missing_files.is_empty() {
        setup_needed = true;
    }
    let setup_help = required.iter().find_map(|e| e.help.clone());
    let setup_note = setup_needed.then(|| {
        let items: Vec<String> = missing_env
            .iter()
            .map(|n| format!("env ${n}"))
            .chain(missing_files.iter().map(|f| format!("file {f}")))
            .collect();
        let listed = if items.is_empty() { "required prerequisites".to_owned() } else { items.join(", ") };
        let mut note = format!("Setup needed before using this skill: missing {listed}.");
        if let Some(help) = &setup_help {
            note = format!("{note} {help}");
        }
        if REMOTE_BACKENDS.contains(&backend) {
            note = format!(
                "{note} {}-backed skills need these requirements available inside the remote environment as well.",
                backend.to_uppercase()
            );
        }
        note
    });
    Readiness {
        required,
        missing_env,
        missing_files,
        setup_needed,
        setup_help,
        gateway_setup_hint,
        setup_note,
        view_error: None,
        credential_files: credential_file_names(fm),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(yaml: &str) -> Map {
        crate::yaml::load(yaml).unwrap().as_map().unwrap().clone()
    }

    #[test]
    fn merges_all_three_sources_first_name_wins() {
        let fm = map(
            "required_environment_variables:\n  - name: A_KEY\n    prompt: ' give A '\n    help: https://a\n  - B_KEY\n  - name: bad-name\n\
             setup:\n  help: setup help\n  collect_secrets:\n    - env_var: C_KEY\n      provider_url: https://c\n    - env_var: A_KEY\n\
             prerequisites:\n  env_vars: [D_KEY, '']\n",
        );
        let (legacy, _) = prerequisite_lists(&fm).expect("iterable prerequisites");
        let all = required_env_vars(&fm, &legacy);
        let names: Vec<_> = all.iter().map(|e| e.name.clone()).collect();
        assert_eq!(names, ["A_KEY", "B_KEY", "C_KEY", "D_KEY"]);
        assert_eq!(all[0].prompt, "give A");
        assert_eq!(all[0].help.as_deref(), Some("https://a"));
        assert_eq!(all[1].help.as_deref(), Some("setup help"));
        assert_eq!(all[2].help.as_deref(), Some("https://c"));
        assert_eq!(all[3].prompt, "Enter value for D_KEY");
    }

    /// Every YAML type as `prerequisites.env_vars` and as `.commands`, with
    /// what Hermes' `_collect_prerequisite_values` answered for it.
    #[test]
    fn prerequisite_values_follow_python_for_every_type() {
        let ok = |items: &[&str]| Ok::<Vec<String>, PyError>(items.iter().map(|s| s.to_string()).collect());
        let not_iterable = |t: &str| Err::<Vec<String>, PyError>(PyError::not_iterable(t));
        let cases = [
            ("5", not_iterable("int")),
            ("123456789012345678901234567890", not_iterable("int")),
            ("3.5", not_iterable("float")),
            (".nan", not_iterable("float")),
            ("true", not_iterable("bool")),
            ("2024-01-31", not_iterable("datetime.date")),
            ("2024-01-31 10:00:00", not_iterable("datetime.datetime")),
            ("false", ok(&[])),
            ("0", ok(&[])),
            ("-0.0", ok(&[])),
            ("null", ok(&[])),
            ("''", ok(&[])),
            ("{}", ok(&[])),
            ("[]", ok(&[])),
            ("abc", ok(&["abc"])),
            ("' a b '", ok(&[" a b "])),
            ("{A: 1, B: 2}", ok(&["A", "B"])),
            ("!!binary aGVsbG8=", ok(&["104", "101", "108", "108", "111"])),
            ("!!omap [{a: 1}]", ok(&["('a', 1)"])),
            (
                "[A, 5, null, true, 2024-01-31, [x, y], {k: v}, '  ', 3.5, 1e3, .inf, 99999999999999999999999]",
                ok(&[
                    "A",
                    "5",
                    "None",
                    "True",
                    "2024-01-31",
                    "['x', 'y']",
                    "{'k': 'v'}",
                    "3.5",
                    "1e3",
                    "inf",
                    "99999999999999999999999",
                ]),
            ),
        ];
        for (yaml, expected) in cases {
            let fm = map(&format!("prerequisites:\n  env_vars: {yaml}\n"));
            assert_eq!(prerequisite_lists(&fm).map(|(env_vars, _)| env_vars), expected, "env_vars: {yaml}");
            let fm = map(&format!("prerequisites:\n  env_vars: [A]\n  commands: {yaml}\n"));
            let commands = prerequisite_lists(&fm).map(|(_, commands)| commands);
            assert_eq!(commands, expected, "commands: {yaml}");
        }
    }

    /// A value `skill_view` cannot iterate leaves the readiness with only
    /// its error; one it can iterate is read as Hermes reads it.
    #[test]
    fn an_uniterable_prerequisite_is_the_view_error() {
        let env = Env::with_vars([("HOME", "/nonexistent")], crate::env::Os::Linux);
        let home = Home::load(std::path::PathBuf::from("/nonexistent-home"), &env);
        let ready = evaluate(&map("prerequisites:\n  commands: 5\n"), &home, &env, "local");
        assert_eq!(ready.view_error, Some(PyError::not_iterable("int")));
        assert!(ready.required.is_empty() && !ready.setup_needed);
        let ready = evaluate(&map("prerequisites:\n  env_vars: {K_ONE: x}\n"), &home, &env, "local");
        assert_eq!(ready.view_error, None);
        assert_eq!(ready.missing_env, ["K_ONE"]);
    }

    #[test]
    fn env_names_are_validated() {
        assert!(is_env_name("_A1"));
        assert!(!is_env_name("1A"));
        assert!(!is_env_name("A-B"));
    }
}
