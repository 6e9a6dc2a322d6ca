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
    let text = source::read_text(path).map_err(|e| BundleError::Skipped(format!("could not read: {e}")))?;
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

/// What happens to one bundle member when the bundle is invoked.
#[derive(Debug, Clone, PartialEq)]
pub enum MemberStatus {
    /// Loaded under this name.
    Loaded(String),
    /// skill_view does not load it, for this reason: the bundle skips it
    /// (and its message lists it as missing).
    Missing(MissingMember),
    /// Loaded but disabled: skipped.
    Disabled(String),
}

/// Why skill_view does not load a bundle member.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MissingMember {
    /// No skill has this name or folder name.
    NoSuchSkill,
    /// Several skills do: skill_view refuses the name as ambiguous.
    Ambiguous(usize),
    /// Its skill is disabled in config.yaml: skill_view refuses it.
    Disabled,
    /// Its skill is for another platform.
    OtherPlatform,
    /// Found, but skill_view fails on it (unreadable, a value it cannot return).
    Unloadable,
}

impl MissingMember {
    /// Why, as the Bundles view and `check` say it.
    pub fn reason(self) -> String {
        match self {
            MissingMember::NoSuchSkill => "no skill has this name".into(),
            MissingMember::Ambiguous(n) => format!("{n} skills have this name: skill_view refuses it"),
            MissingMember::Disabled => "disabled: skill_view refuses it".into(),
            MissingMember::OtherPlatform => "for another platform".into(),
            MissingMember::Unloadable => "skill_view cannot load it".into(),
        }
    }
}

impl Engine {
    /// Each distinct member of a bundle and what invoking it does with it.
    pub fn bundle_members(&self, bundle: &Bundle) -> Vec<(String, MemberStatus)> {
        self.bundle_members_with(None, bundle)
    }

    /// [`Engine::bundle_members`] answering lookups from `index` when given.
    pub fn bundle_members_with(
        &self,
        index: Option<&super::view::LookupIndex>,
        bundle: &Bundle,
    ) -> Vec<(String, MemberStatus)> {
        let disabled = super::gates::disabled_names(&self.home, &self.env, None).unwrap_or_default();
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::new();
        for id in &bundle.skills {
            let id = py_strip(id).to_owned();
            if id.is_empty() || !seen.insert(id.clone()) {
                continue;
            }
            let status = match self.load_skill_with(index, &id, None) {
                None => MemberStatus::Missing(self.why_not_loaded(index, &id)),
                Some(l) if disabled.contains(&l.name) || disabled.contains(&id) => MemberStatus::Disabled(l.name),
                Some(l) => MemberStatus::Loaded(l.name),
            };
            out.push((id, status));
        }
        out
    }

    /// Why skill_view does not load `id`: the skills its lookup finds, and
    /// the gate the one it found fails.
    fn why_not_loaded(&self, index: Option<&super::view::LookupIndex>, id: &str) -> MissingMember {
        let name = self.normalize_lookup_name(id);
        let built;
        let index = match index {
            Some(index) => index,
            None => {
                built = self.lookup_index();
                &built
            }
        };
        let found = self.lookup_candidates_in(index, &name, None);
        let [one] = found.as_slice() else {
            return if found.is_empty() { MissingMember::NoSuchSkill } else { MissingMember::Ambiguous(found.len()) };
        };
        let Ok(text) = super::source::read_text(&one.skill_md) else { return MissingMember::Unloadable };
        let fm = super::frontmatter::parse(&text).0.fields;
        if !super::gates::frontmatter_platform_matches(&fm, &self.env) {
            return MissingMember::OtherPlatform;
        }
        let folder = one.skill_md.parent().and_then(Path::file_name).map(|n| n.to_string_lossy().into_owned());
        let resolved = fm.get("name").cloned().unwrap_or(super::value::Value::Str(folder.unwrap_or_default()));
        if super::gates::view_disabled(&self.home, &self.env, &resolved) {
            return MissingMember::Disabled;
        }
        MissingMember::Unloadable
    }

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
