//! Visibility gates (spec §7): platform, environment tags, disabled names,
//! and the toolset/tool conditions of the system prompt.

use super::env::Env;
use super::home::Home;
use super::value::{is_hashable, Key, Map, Value};
use crate::py::py_strip;
use std::collections::HashSet;

use crate::py::PyError;

/// `skill_matches_platform_list(platforms)`.
pub fn platform_matches(platforms: Option<&Value>, env: &Env) -> bool {
    let Some(platforms) = platforms.filter(|p| p.truthy()) else {
        return true;
    };
    let list = match platforms {
        Value::Seq(items) => items.clone(),
        other => vec![other.clone()],
    };
    let current = env.os.sys_platform();
    let termux = env.is_termux();
    list.iter().any(|p| {
        let normalized = py_strip(&p.py_str().to_lowercase()).to_owned();
        let mapped = match normalized.as_str() {
            "macos" => "darwin",
            "linux" => "linux",
            "windows" => "win32",
            other => other,
        };
        current.starts_with(mapped) || (termux && matches!(mapped, "linux" | "termux" | "android"))
    })
}

/// Whether a `platforms` value can match some OS Hermes runs on (`mac`,
/// `osx` or a typo never does).
pub fn platform_value_known(value: &Value) -> bool {
    let n = value.py_str().trim().to_lowercase();
    let mapped = match n.as_str() {
        "macos" => "darwin",
        "windows" => "win32",
        other => other,
    };
    !mapped.is_empty()
        && (["linux", "darwin", "win32", "android"].iter().any(|p| p.starts_with(mapped)) || mapped == "termux")
}

pub fn frontmatter_platform_matches(fm: &Map, env: &Env) -> bool {
    platform_matches(fm.get("platforms"), env)
}

/// `skill_matches_environment(frontmatter)`: offer-time gate on `environments`.
pub fn environment_matches(fm: &Map, home: &Home, env: &Env) -> bool {
    let Some(envs) = fm.get("environments").filter(|v| v.truthy()) else {
        return true;
    };
    let list = match envs {
        Value::Seq(items) => items.clone(),
        other => vec![other.clone()],
    };
    for tag in &list {
        let normalized = py_strip(&tag.py_str().to_lowercase()).to_owned();
        if normalized.is_empty() {
            continue;
        }
        let active = match normalized.as_str() {
            "kanban" => kanban_active(home, env),
            "docker" => env.container,
            "s6" => env.s6,
            _ => return true, // unknown tags fail open
        };
        if active {
            return true;
        }
    }
    false
}

fn kanban_active(home: &Home, env: &Env) -> bool {
    if env.non_empty("HERMES_KANBAN_TASK").is_some() || env.non_empty("HERMES_KANBAN_BOARD").is_some() {
        return true;
    }
    home.merged_config.get("toolsets").and_then(|t| py_contains(t, &Value::Str("kanban".into()))).unwrap_or(false)
}

/// Python `item in container`; `None` where Python raises `TypeError`.
pub fn py_contains(container: &Value, item: &Value) -> Option<bool> {
    match container {
        Value::Str(s) => item.as_str().map(|i| s.contains(i)),
        Value::Seq(items) | Value::Tuple(items) => Some(items.iter().any(|x| x.py_eq(item))),
        Value::Map(m) => Key::new(item.clone()).map(|k| m.contains_key(&k)),
        // A YAML `!!set`: membership as for a dict's keys.
        Value::Set(keys) => Key::new(item.clone()).map(|k| keys.contains(&k)),
        _ => None,
    }
}

/// `_normalize_string_set`.
fn normalize_string_set(value: Option<&Value>) -> Result<HashSet<String>, PyError> {
    let items = match value {
        None | Some(Value::Null) => return Ok(HashSet::new()),
        Some(Value::Str(s)) => vec![Value::Str(s.clone())],
        Some(v) => v.py_iter().ok_or_else(|| not_iterable(v))?,
    };
    Ok(items.iter().map(|v| py_strip(&v.py_str()).to_owned()).filter(|s| !s.is_empty()).collect())
}

fn not_iterable(v: &Value) -> PyError {
    PyError::not_iterable(v.type_name())
}

/// `get_disabled_skill_names(platform)` (raw config): the global list plus
/// the resolved platform's list.
pub fn disabled_names(home: &Home, env: &Env, platform: Option<&str>) -> Result<HashSet<String>, PyError> {
    if home.raw_config.is_empty() {
        return Ok(HashSet::new());
    }
    let Some(skills) = home.raw_skills() else {
        return Ok(HashSet::new());
    };
    let platform = platform.filter(|p| !p.is_empty()).or_else(|| env.platform_scope());
    let global = normalize_string_set(skills.get("disabled"))?;
    if let Some(platform) = platform {
        let per_platform = match skills.get("platform_disabled") {
            Some(v) if v.truthy() => match v {
                Value::Map(m) => m.get(platform),
                other => {
                    return Err(PyError::new(
                        "AttributeError",
                        format!("'{}' object has no attribute 'get'", other.type_name()),
                    ))
                }
            },
            _ => None,
        };
        if let Some(list) = per_platform.filter(|v| !matches!(v, Value::Null)) {
            let mut all = global;
            all.extend(normalize_string_set(Some(list))?);
            return Ok(all);
        }
    }
    Ok(global)
}

/// `_is_skill_disabled(name)` as skill_view checks it (merged config, Python
/// `in`: a single-string list is a substring test).
pub fn view_disabled(home: &Home, env: &Env, name: &Value) -> bool {
    let Some(skills) = home.merged_skills() else {
        return false;
    };
    let Value::Map(skills) = skills else {
        return false; // `.get` on a non-dict raises; Hermes answers "not disabled"
    };
    let global = skills.get("disabled").cloned().unwrap_or(Value::Seq(vec![]));
    if let Some(platform) = env.platform_scope() {
        let per_platform = skills.get("platform_disabled").and_then(|v| v.get(platform));
        if let Some(list) = per_platform.filter(|v| !matches!(v, Value::Null)) {
            return match py_contains(list, name) {
                Some(true) => true,
                Some(false) => py_contains(&global, name).unwrap_or(false),
                None => false,
            };
        }
    }
    py_contains(&global, name).unwrap_or(false)
}

/// `extract_skill_conditions(frontmatter)`: the raw values, `[]` when absent.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Conditions {
    pub fallback_for_toolsets: Value,
    pub requires_toolsets: Value,
    pub fallback_for_tools: Value,
    pub requires_tools: Value,
}

impl Conditions {
    pub fn from_frontmatter(fm: &Map) -> Conditions {
        let hermes = fm
            .get("metadata")
            .and_then(Value::as_map)
            .and_then(|m| m.get("hermes"))
            .filter(|h| h.truthy())
            .and_then(Value::as_map);
        let get = |key: &str| hermes.and_then(|h| h.get(key)).cloned().unwrap_or(Value::Seq(vec![]));
        Conditions {
            fallback_for_toolsets: get("fallback_for_toolsets"),
            requires_toolsets: get("requires_toolsets"),
            fallback_for_tools: get("fallback_for_tools"),
            requires_tools: get("requires_tools"),
        }
    }

    /// The conditions as the prompt snapshot (JSON) holds them once read
    /// back: tuples become lists, keys strings. `Err` when `json.dump`
    /// cannot write one (a date, a set, bytes), and so writes no snapshot.
    pub fn through_json(&self) -> Result<Conditions, PyError> {
        let back = |v: &Value| v.try_to_json().map(|json| Value::from_json(&json));
        Ok(Conditions {
            fallback_for_toolsets: back(&self.fallback_for_toolsets)?,
            requires_toolsets: back(&self.requires_toolsets)?,
            fallback_for_tools: back(&self.fallback_for_tools)?,
            requires_tools: back(&self.requires_tools)?,
        })
    }

    pub fn is_empty(&self) -> bool {
        [&self.fallback_for_toolsets, &self.requires_toolsets, &self.fallback_for_tools, &self.requires_tools]
            .iter()
            .all(|v| !v.truthy())
    }
}

/// What the agent has enabled, for the system-prompt conditions.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ToolAvailability {
    pub tools: Option<HashSet<String>>,
    pub toolsets: Option<HashSet<String>>,
}

/// `_skill_should_show(conditions, tools, toolsets)`.
pub fn should_show(cond: &Conditions, avail: &ToolAvailability) -> Result<bool, PyError> {
    if avail.tools.is_none() && avail.toolsets.is_none() {
        return Ok(true);
    }
    let empty = HashSet::new();
    let tools = avail.tools.as_ref().unwrap_or(&empty);
    let toolsets = avail.toolsets.as_ref().unwrap_or(&empty);
    let member = |set: &HashSet<String>, item: &Value| -> Result<bool, PyError> {
        match item {
            Value::Str(s) => Ok(set.contains(s)),
            // `set.__contains__` retries a set as a frozenset, which equals no string.
            Value::Set(_) => Ok(false),
            other if !is_hashable(other) => {
                Err(PyError::type_error(format!("unhashable type: '{}'", other.type_name())))
            }
            _ => Ok(false),
        }
    };
    let iter = |v: &Value| v.py_iter().ok_or_else(|| not_iterable(v));
    for ts in iter(&cond.fallback_for_toolsets)? {
        if member(toolsets, &ts)? {
            return Ok(false);
        }
    }
    for t in iter(&cond.fallback_for_tools)? {
        if member(tools, &t)? {
            return Ok(false);
        }
    }
    for ts in iter(&cond.requires_toolsets)? {
        if !member(toolsets, &ts)? {
            return Ok(false);
        }
    }
    for t in iter(&cond.requires_tools)? {
        if !member(tools, &t)? {
            return Ok(false);
        }
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::env::Os;

    fn v(yaml: &str) -> Value {
        crate::yaml::load(yaml).unwrap()
    }

    #[test]
    fn platform_prefix_rules() {
        let linux = Env::with_vars([("X", "")], Os::Linux);
        let mac = Env::with_vars([("X", "")], Os::Macos);
        assert!(platform_matches(None, &linux));
        assert!(platform_matches(Some(&v("[]")), &linux));
        assert!(platform_matches(Some(&v("[macos, linux]")), &linux));
        assert!(!platform_matches(Some(&v("[macos]")), &linux));
        assert!(platform_matches(Some(&v("MacOS")), &mac));
        assert!(!platform_matches(Some(&v("[freebsd]")), &linux));
        let win = Env::with_vars([("X", "")], Os::Windows);
        assert!(platform_matches(Some(&v("[win]")), &win));
        let termux = Env::with_vars([("TERMUX_VERSION", "1")], Os::Linux);
        assert!(platform_matches(Some(&v("[android]")), &termux));
    }

    #[test]
    fn contains_is_python_in() {
        assert_eq!(py_contains(&v("disabled-one"), &v("disabled")), Some(true));
        assert_eq!(py_contains(&v("[a, b]"), &v("a")), Some(true));
        assert_eq!(py_contains(&v("5"), &v("a")), None);
    }

    #[test]
    fn conditions_iterate_strings_per_character() {
        let fm = v("metadata:\n  hermes:\n    requires_toolsets: web\n");
        let cond = Conditions::from_frontmatter(fm.as_map().unwrap());
        let avail = ToolAvailability {
            tools: Some(HashSet::new()),
            toolsets: Some(["w", "e", "b"].iter().map(|s| s.to_string()).collect()),
        };
        assert_eq!(should_show(&cond, &avail), Ok(true));
        let avail = ToolAvailability { tools: None, toolsets: Some(["web".to_string()].into()) };
        assert_eq!(should_show(&cond, &avail), Ok(false));
    }
}
