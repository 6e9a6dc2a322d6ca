//! Skill bundles (spec §12): `skill-bundles/*.yaml` loading several skills
//! under one slash command.

use super::paths;
use super::skill::slugify;
use super::source;
use super::value::Value;
use super::yaml::{self, ErrorKind, Loader};
use super::Engine;
use crate::py::py_strip;
use indexmap::IndexMap;
use serde_json::{json, Value as Json};
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, PartialEq)]
pub struct Bundle {
    pub name: String,
    pub slug: String,
    pub description: String,
    pub skills: Vec<String>,
    pub instruction: String,
    pub path: PathBuf,
}

impl Bundle {
    pub fn to_json(&self) -> Json {
        json!({
            "name": self.name,
            "slug": self.slug,
            "description": self.description,
            "skills": self.skills,
            "instruction": self.instruction,
            "path": paths::path_string(&self.path),
        })
    }
}

/// A bundle file Hermes skips, and why (it only logs a warning).
#[derive(Debug, Clone, PartialEq)]
pub struct BundleProblem {
    pub path: PathBuf,
    pub reason: String,
}

/// The bundles Hermes registers, keyed `/slug`, plus the files it skipped.
#[derive(Debug, Clone, Default)]
pub struct BundleSet {
    pub bundles: IndexMap<String, Bundle>,
    pub problems: Vec<BundleProblem>,
    /// The exception that stopped Hermes' scan (`ValueError: ...`): then
    /// no bundle is registered at all.
    pub scan_error: Option<String>,
}

impl BundleSet {
    pub fn to_json(&self) -> Json {
        Json::Object(self.bundles.iter().map(|(k, b)| (k.clone(), b.to_json())).collect())
    }
}

/// Why `_load_bundle_file` gives no bundle.
#[derive(Debug, Clone, PartialEq)]
pub enum BundleError {
    /// Hermes logs a warning and skips the file.
    Skipped(String),
    /// Loading raised an exception `_load_bundle_file` does not catch (it
    /// catches only `yaml.YAMLError`), so the whole scan fails.
    Fatal(String),
}

impl From<&str> for BundleError {
    fn from(reason: &str) -> BundleError {
        BundleError::Skipped(reason.into())
    }
}

/// Parses one bundle file as `_load_bundle_file` does.
pub fn load_bundle_file(path: &Path) -> Result<Bundle, BundleError> {
    // `read_text` catches only OSError: a file that is not UTF-8 raises
    // UnicodeDecodeError through the whole scan.
    let text = source::read_text(path).map_err(|e| match e {
        source::ReadError::Decode(m) => BundleError::Fatal(format!("UnicodeDecodeError: {m}")),
        source::ReadError::Io(_) => BundleError::Skipped(format!("could not read: {e}")),
    })?;
    let data = match yaml::load_with(&text, Loader::Safe) {
        Ok(data) => data,
        Err(e) if e.is_yaml_error() => return Err(BundleError::Skipped(format!("invalid YAML: {e}"))),
        Err(e) if e.kind == ErrorKind::Limit => return Err(BundleError::Skipped(e.to_string())),
        Err(e) => return Err(BundleError::Fatal(e.to_string())),
    };
    let Value::Map(data) = data else {
        return Err("not a mapping".into());
    };
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let name = match data.get("name").filter(|v| v.truthy()) {
        Some(v) => py_strip(&v.py_str()).to_owned(),
        None => py_strip(&stem).to_owned(),
    };
    if name.is_empty() {
        return Err("no name".into());
    }
    let skills = match data.get("skills").filter(|v| v.truthy()) {
        Some(Value::Seq(items)) => items.clone(),
        _ => return Err("no skills list".into()),
    };
    let skills: Vec<String> =
        skills.iter().map(|s| py_strip(&s.py_str()).to_owned()).filter(|s| !s.is_empty()).collect();
    if skills.is_empty() {
        return Err("empty skills list".into());
    }
    let text_field = |key: &str| match data.get(key).filter(|v| v.truthy()) {
        Some(v) => py_strip(&v.py_str()).to_owned(),
        None => String::new(),
    };
    let description = text_field("description");
    let instruction = text_field("instruction");
    let slug = slugify(&name);
    if slug.is_empty() {
        return Err("name yields an empty slug".into());
    }
    let description =
        if description.is_empty() { format!("Load {} skills as a bundle", skills.len()) } else { description };
    Ok(Bundle { name, slug, description, skills, instruction, path: path.to_path_buf() })
}

impl Engine {
    /// `get_skill_bundles()`: `*.yaml` then `*.yml`, each sorted; first slug wins.
    pub fn bundles(&self) -> BundleSet {
        let dir = self.home.bundles_dir(&self.env);
        let mut set = BundleSet::default();
        if !paths::exists(&dir) {
            return set;
        }
        // `sorted(glob("*.yaml")) + sorted(glob("*.yml"))`.
        let files: Vec<PathBuf> = ["*.yaml", "*.yml"]
            .iter()
            .flat_map(|pat| {
                let mut found = paths::glob(&dir, pat);
                found.sort_by(|a, b| a.as_os_str().as_encoded_bytes().cmp(b.as_os_str().as_encoded_bytes()));
                found
            })
            .collect();
        for file in files {
            match load_bundle_file(&file) {
                Ok(bundle) => {
                    let key = format!("/{}", bundle.slug);
                    if let Some(first) = set.bundles.get(&key) {
                        set.problems.push(BundleProblem {
                            path: file.clone(),
                            reason: format!("duplicate slug {key}; {} is kept", first.path.display()),
                        });
                        continue;
                    }
                    set.bundles.insert(key, bundle);
                }
                Err(BundleError::Skipped(reason)) => set.problems.push(BundleProblem { path: file, reason }),
                Err(BundleError::Fatal(reason)) => {
                    set.bundles.clear();
                    set.scan_error = Some(reason.clone());
                    let reason = format!("{reason}: Hermes' bundle scan raises here, so no bundle is registered");
                    set.problems.push(BundleProblem { path: file, reason });
                    return set;
                }
            }
        }
        set
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn bundle_schema_rules() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("my_bundle.yaml");
        fs::write(&p, "skills: [a, ' ', b, a, 7]\ninstruction: '  go  '\n").unwrap();
        let b = load_bundle_file(&p).unwrap();
        assert_eq!(b.name, "my_bundle");
        assert_eq!(b.slug, "my-bundle");
        assert_eq!(b.skills, ["a", "b", "a", "7"]);
        assert_eq!(b.description, "Load 4 skills as a bundle");
        assert_eq!(b.instruction, "go");
        fs::write(&p, "name: x\nskills: []\n").unwrap();
        assert!(load_bundle_file(&p).is_err());
        fs::write(&p, "- a\n").unwrap();
        assert!(load_bundle_file(&p).is_err());
        fs::write(&p, "name: '!!!'\nskills: [a]\n").unwrap();
        assert!(load_bundle_file(&p).is_err());
    }
}
