//! HERMES_HOME, config.yaml (both readers), external skill dirs and `.env`
//! (spec §1–§3).

use super::env::Env;
use super::paths;
use super::value::{Map, Value};
use super::yaml::{self, Loader};
use indexmap::IndexMap;
use std::fs;
use std::path::{Path, PathBuf};

/// Everything about a home that the skill surfaces read, loaded once.
#[derive(Debug, Clone)]
pub struct Home {
    /// HERMES_HOME as Hermes uses it: verbatim, not resolved.
    pub root: PathBuf,
    /// `HERMES_HOME/skills` (may not exist).
    pub skills_dir: PathBuf,
    /// config.yaml through the raw reader: a mapping, or empty.
    pub raw_config: Map,
    /// config.yaml merged with the defaults, `${VAR}` expanded.
    pub merged_config: Map,
    /// The validated `skills.external_dirs`, resolved, in config order.
    pub external_dirs: Vec<PathBuf>,
    /// `HERMES_HOME/.env`, parsed.
    pub dotenv: IndexMap<String, String>,
    /// Why `.env`, which is there, cannot be read (`str(e)` of Hermes'
    /// `load_env`: not UTF-8, a folder, unreadable): every `skill_view`
    /// then fails with it, and every message built from one.
    pub dotenv_problem: Option<String>,
    /// Why config.yaml could not be used, if it could not.
    pub config_problem: Option<String>,
    /// config.yaml's text, where there is one to read: the lines findings
    /// and `why` name.
    pub config_text: Option<String>,
}

/// Where HERMES_HOME is: an explicit path, else env `HERMES_HOME`, else `~/.hermes`.
pub fn resolve_home_path(explicit: Option<&Path>, env: &Env) -> PathBuf {
    if let Some(p) = explicit {
        // Absolute, as an installed Hermes' home is: a relative one would
        // make every slash command's folder relative, and its message fail.
        let absolute =
            if p.is_absolute() { p.to_path_buf() } else { std::env::current_dir().unwrap_or_default().join(p) };
        return paths::normalize(&absolute);
    }
    if let Some(v) = env.var("HERMES_HOME") {
        // Python's `str.strip()`: its whitespace is not Rust's (`\x1c`-`\x1f` too).
        let v = crate::py::py_strip(v);
        if !v.is_empty() {
            return paths::normalize(Path::new(v));
        }
    }
    env.home_dir().unwrap_or_else(|| PathBuf::from("/")).join(".hermes")
}

impl Home {
    pub fn load(root: PathBuf, env: &Env) -> Home {
        let skills_dir = root.join("skills");
        let config_path = root.join("config.yaml");
        let text = fs::symlink_metadata(&config_path).is_ok().then(|| super::source::read_text(&config_path));
        let config_text = text.as_ref().and_then(|t| t.as_ref().ok().cloned());
        let (raw_config, config_problem) = match text {
            Some(text) => raw_config_of(&config_path, text, Loader::CSafe),
            None => (Map::default(), None),
        };
        let merged_config = merged_config(&config_path, &raw_config, config_problem.is_some(), env);
        let external_dirs = external_dirs(&root, &skills_dir, &raw_config, env);
        let (dotenv, dotenv_problem) = read_dotenv(&root.join(".env"));
        Home {
            root,
            skills_dir,
            raw_config,
            merged_config,
            external_dirs,
            dotenv,
            dotenv_problem,
            config_problem,
            config_text,
        }
    }

    /// This home as it is but for its config.yaml, which holds `config`
    /// (none: there is none), as a revision of it has: the same skills dir
    /// and `.env`, the settings and external dirs `config` gives.
    pub fn with_config(&self, config: Option<Vec<u8>>, env: &Env) -> Home {
        let config_path = self.config_path();
        let text = config.map(|bytes| super::source::decode(bytes).map(super::source::universal_newlines));
        let config_text = text.as_ref().and_then(|t| t.as_ref().ok().cloned());
        let (raw_config, config_problem) = match text {
            Some(text) => raw_config_of(&config_path, text, Loader::CSafe),
            None => (Map::default(), None),
        };
        let merged_config = merged_config(&config_path, &raw_config, config_problem.is_some(), env);
        let external_dirs = external_dirs(&self.root, &self.skills_dir, &raw_config, env);
        Home {
            root: self.root.clone(),
            skills_dir: self.skills_dir.clone(),
            raw_config,
            merged_config,
            external_dirs,
            dotenv: self.dotenv.clone(),
            dotenv_problem: self.dotenv_problem.clone(),
            config_problem,
            config_text,
        }
    }

    pub fn config_path(&self) -> PathBuf {
        self.root.join("config.yaml")
    }

    /// `[local skills dir] + externals` (`get_all_skills_dirs`).
    pub fn all_skills_dirs(&self) -> Vec<PathBuf> {
        let mut dirs = vec![self.skills_dir.clone()];
        dirs.extend(self.external_dirs.iter().cloned());
        dirs
    }

    /// The dirs scanners walk: local only if it exists, then externals.
    pub fn scan_dirs(&self) -> Vec<PathBuf> {
        let mut dirs = Vec::new();
        if paths::exists(&self.skills_dir) {
            dirs.push(self.skills_dir.clone());
        }
        dirs.extend(self.external_dirs.iter().cloned());
        dirs
    }

    /// The raw `skills:` section when it is a mapping.
    pub fn raw_skills(&self) -> Option<&Map> {
        self.raw_config.get("skills").and_then(Value::as_map)
    }

    /// The merged `skills:` value (may be a non-mapping if the user wrote one).
    pub fn merged_skills(&self) -> Option<&Value> {
        self.merged_config.get("skills")
    }

    /// `display_hermes_home()`: `~/rel` under the user's home, else the path.
    pub fn display(&self, env: &Env) -> String {
        if let Some(home) = env.home_dir() {
            if let Ok(rel) = self.root.strip_prefix(paths::normalize(&home)) {
                return format!("~/{}", paths::rel_string(rel));
            }
        }
        paths::path_string(&self.root)
    }

    /// The bundles directory (`HERMES_BUNDLES_DIR` overrides).
    pub fn bundles_dir(&self, env: &Env) -> PathBuf {
        match env.non_empty("HERMES_BUNDLES_DIR") {
            Some(dir) => PathBuf::from(env.expand_user(dir)),
            None => self.root.join("skill-bundles"),
        }
    }
}

/// A config file read with the loader Hermes uses for it: `CSafeLoader` for
/// the home's config.yaml, `yaml.safe_load` for the managed overlay.
fn read_raw_config(path: &Path, loader: Loader) -> (Map, Option<String>) {
    if fs::symlink_metadata(path).is_err() {
        return (Map::default(), None);
    }
    raw_config_of(path, super::source::read_text(path), loader)
}

/// The raw config the text read from `path` holds.
fn raw_config_of(path: &Path, text: Result<String, super::source::ReadError>, loader: Loader) -> (Map, Option<String>) {
    let text = match text {
        Ok(t) => t,
        Err(e) => return (Map::default(), Some(format!("{}: {e}", path.display()))),
    };
    match yaml::load_with(&text, loader) {
        Ok(Value::Map(m)) => (m, None),
        Ok(Value::Null) => (Map::default(), None),
        Ok(_) => (Map::default(), Some(format!("{}: not a mapping; Hermes ignores it", path.display()))),
        Err(e) => (Map::default(), Some(format!("{}: invalid YAML: {e}", path.display()))),
    }
}

/// The parts of Hermes' `DEFAULT_CONFIG` that skill surfaces read.
fn default_config() -> Map {
    let yaml = "toolsets: [hermes-cli]\n\
                terminal:\n  backend: local\n\
                skills:\n  external_dirs: []\n  template_vars: true\n  inline_shell: false\n  \
                inline_shell_timeout: 10\n  guard_agent_created: false\n  write_approval: false\n";
    match crate::yaml::load(yaml) {
        Ok(Value::Map(m)) => m,
        _ => Map::default(),
    }
}

fn deep_merge(base: &mut Map, over: &Map) {
    for (key, value) in over {
        match (base.get_mut(key), value) {
            (Some(Value::Map(b)), Value::Map(o)) => deep_merge(b, o),
            (Some(Value::Map(_)), Value::Null) => {}
            _ => {
                base.insert(key.clone(), value.clone());
            }
        }
    }
}

fn expand_config_vars(value: &mut Value, env: &Env) {
    match value {
        Value::Str(s) if s.contains("${") => *s = expand_braced(s, env),
        Value::Seq(items) => items.iter_mut().for_each(|v| expand_config_vars(v, env)),
        Value::Map(m) => m.values_mut().for_each(|v| expand_config_vars(v, env)),
        _ => {}
    }
}

/// `re.sub(r"\${([^}]+)}", env lookup or the match, s)`.
fn expand_braced(s: &str, env: &Env) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(pos) = rest.find("${") {
        out.push_str(&rest[..pos]);
        let after = &rest[pos + 2..];
        match after.find('}') {
            Some(end) if end > 0 => {
                let name = &after[..end];
                match env.var(name) {
                    Some(v) => out.push_str(v),
                    None => {
                        out.push_str("${");
                        out.push_str(name);
                        out.push('}');
                    }
                }
                rest = &after[end + 1..];
            }
            _ => {
                out.push_str("${");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

fn merged_config(config_path: &Path, raw: &Map, raw_failed: bool, env: &Env) -> Map {
    let mut config = default_config();
    if !raw_failed {
        deep_merge(&mut config, raw);
    }
    let managed = match env.non_empty("HERMES_MANAGED_DIR") {
        Some(dir) => Some(PathBuf::from(dir).join("config.yaml")),
        None if paths::is_dir(Path::new("/etc/hermes")) => Some(PathBuf::from("/etc/hermes/config.yaml")),
        None => None,
    };
    let mut value = Value::Map(config);
    expand_config_vars(&mut value, env);
    let Value::Map(mut config) = value else { unreachable!("a mapping stays a mapping") };
    if let Some(managed) = managed.filter(|m| m != config_path) {
        if let (overlay, None) = read_raw_config(&managed, Loader::Safe) {
            deep_merge(&mut config, &overlay);
        }
    }
    config
}

/// `get_external_skills_dirs()` (EXT-1..3).
fn external_dirs(root: &Path, skills_dir: &Path, raw: &Map, env: &Env) -> Vec<PathBuf> {
    let Some(skills) = raw.get("skills").and_then(Value::as_map) else {
        return Vec::new();
    };
    let entries: Vec<Value> = match skills.get("external_dirs") {
        Some(v) if !v.truthy() => return Vec::new(),
        Some(Value::Str(s)) => vec![Value::Str(s.clone())],
        Some(Value::Seq(items)) => items.clone(),
        _ => return Vec::new(),
    };
    let local = paths::resolve(skills_dir);
    let mut result: Vec<PathBuf> = Vec::new();
    for entry in entries {
        let text = entry.py_str();
        let text = crate::py::py_strip(&text);
        if text.is_empty() {
            continue;
        }
        let expanded = env.expand_user(&env.expand_vars(text));
        let p = Path::new(&expanded);
        let p = if p.is_absolute() { paths::resolve(p) } else { paths::resolve(&root.join(p)) };
        if p == local || result.contains(&p) {
            continue;
        }
        if paths::is_dir(&p) {
            result.push(p);
        }
    }
    result
}

/// `load_env()`: `KEY=value` lines, `export ` allowed, quotes stripped.
/// `load_env()`: the variables of `.env`, or, where it is there (`exists()`
/// follows links) but cannot be read as UTF-8 text, why not.
fn read_dotenv(path: &Path) -> (IndexMap<String, String>, Option<String>) {
    let mut vars = IndexMap::new();
    if fs::metadata(path).is_err() {
        return (vars, None);
    }
    let text = match super::source::read_text(path) {
        Ok(text) => text,
        Err(e) => return (vars, Some(e.message().to_owned())),
    };
    for line in text.split('\n') {
        let line = crate::py::py_strip(line);
        if line.is_empty() || line.starts_with('#') || !line.contains('=') {
            continue;
        }
        let line = line.strip_prefix("export ").unwrap_or(line);
        let (key, value) = line.split_once('=').unwrap_or((line, ""));
        let value = crate::py::py_strip_chars(crate::py::py_strip(value), &['"', '\'']);
        vars.insert(crate::py::py_strip(key).to_owned(), value.to_owned());
    }
    (vars, None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::env::Os;

    #[test]
    fn hermes_home_is_stripped_as_python_strips() {
        let env = Env::with_vars([("HERMES_HOME", "\u{1f} /srv/hermes\u{1c}\u{85}\n")], Os::Linux);
        assert_eq!(resolve_home_path(None, &env), PathBuf::from("/srv/hermes"));
    }

    /// A home given another config.yaml's bytes is the home loaded with
    /// that file in place: settings, external dirs and problems alike.
    #[test]
    fn a_home_with_another_config_is_the_home_loaded_with_it() {
        let t = tempfile::tempdir().unwrap();
        let root = t.path().join("home");
        fs::create_dir_all(root.join("skills")).unwrap();
        fs::create_dir_all(t.path().join("shared")).unwrap();
        fs::write(root.join(".env"), "TOKEN=set\n").unwrap();
        let env = Env::with_vars([("HOME", "/nonexistent")], Os::Linux);
        let configs: [Option<&[u8]>; 6] = [
            None,
            Some(b"skills:\n  disabled: [a]\n"),
            Some(b"skills:\r\n  external_dirs: [../shared]\r\n"),
            Some(b"toolsets: [kanban]\n"),
            Some(b"- not a mapping\n"),
            Some(b"skills: {disabled: [\xff]}\n"),
        ];
        let base = Home::load(root.clone(), &env);
        for config in configs {
            let _ = fs::remove_file(root.join("config.yaml"));
            if let Some(bytes) = config {
                fs::write(root.join("config.yaml"), bytes).unwrap();
            }
            let loaded = Home::load(root.clone(), &env);
            let given = base.with_config(config.map(<[u8]>::to_vec), &env);
            let what = config.map(String::from_utf8_lossy);
            assert_eq!(given.raw_config, loaded.raw_config, "{what:?}");
            assert_eq!(given.merged_config, loaded.merged_config, "{what:?}");
            assert_eq!(given.external_dirs, loaded.external_dirs, "{what:?}");
            assert_eq!(given.config_problem, loaded.config_problem, "{what:?}");
            assert_eq!(given.dotenv, loaded.dotenv, "{what:?}");
            assert_eq!(given.config_text, loaded.config_text, "{what:?}");
        }
    }

    #[test]
    fn merge_ignores_null_over_mapping_and_expands_vars() {
        let env = Env::with_vars([("X", "on")], Os::Linux);
        let raw = match crate::yaml::load("skills: null\nfoo: ${X}-${Y}\n").unwrap() {
            Value::Map(m) => m,
            _ => unreachable!(),
        };
        let merged = merged_config(Path::new("/nonexistent/config.yaml"), &raw, false, &env);
        assert!(merged["skills"].get("template_vars").is_some());
        assert_eq!(merged["foo"], Value::Str("on-${Y}".into()));
    }

    /// The managed overlay is read with `yaml.safe_load`, whose scanner
    /// refuses a tab after a value (libyaml accepts it): Hermes ignores
    /// that overlay, so its setting does not apply.
    #[test]
    fn managed_overlay_takes_the_pure_python_loader() {
        let t = tempfile::tempdir().unwrap();
        let managed = t.path().join("managed");
        fs::create_dir_all(&managed).unwrap();
        let env = Env::with_vars([("HERMES_MANAGED_DIR", managed.to_str().unwrap())], Os::Linux);
        let config = Path::new("/nonexistent/config.yaml");
        fs::write(managed.join("config.yaml"), "skills:\n  template_vars: false\t# off\n").unwrap();
        assert_eq!(
            merged_config(config, &Map::default(), false, &env)["skills"].get("template_vars").cloned().unwrap(),
            Value::Bool(true)
        );
        fs::write(managed.join("config.yaml"), "skills:\n  template_vars: false  # off\n").unwrap();
        assert_eq!(
            merged_config(config, &Map::default(), false, &env)["skills"].get("template_vars").cloned().unwrap(),
            Value::Bool(false)
        );
    }

    #[test]
    fn dotenv_parsing() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join(".env");
        fs::write(&p, "# c\nexport A=\"1\"\nB = two \nEMPTY=\nnoeq\n").unwrap();
        let (vars, problem) = read_dotenv(&p);
        assert_eq!(problem, None);
        assert_eq!(vars["A"], "1");
        assert_eq!(vars["B"], "two");
        assert_eq!(vars["EMPTY"], "");
        assert!(!vars.contains_key("noeq"));
    }

    /// A `.env` Hermes cannot read is a problem it raises, not variables
    /// read in part; one that is not there is none.
    #[test]
    fn an_unreadable_dotenv_is_a_problem() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join(".env");
        fs::write(&p, b"GOOD=1\n\xff\xfe=2\n").unwrap();
        let (vars, problem) = read_dotenv(&p);
        assert!(vars.is_empty());
        assert_eq!(problem.as_deref(), Some("'utf-8' codec can't decode byte 0xff in position 7: invalid start byte"));
        fs::remove_file(&p).unwrap();
        fs::create_dir(&p).unwrap();
        let (_, problem) = read_dotenv(&p);
        assert_eq!(problem, Some(format!("[Errno 21] Is a directory: '{}'", p.display())));
        assert_eq!(read_dotenv(&t.path().join("none")), (IndexMap::new(), None));
        std::os::unix::fs::symlink(t.path().join("gone"), t.path().join("dangling")).unwrap();
        assert_eq!(read_dotenv(&t.path().join("dangling")), (IndexMap::new(), None), "exists() is false");
    }
}
