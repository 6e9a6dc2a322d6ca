//! What a reload must redo after files changed: from the paths the watcher
//! reported and the catalog of the last scan, the least work that gives the
//! same answer as a full rescan.
//!
//! Files inside an existing skill folder re-read that skill only; bundle
//! files re-read the bundles; `config.yaml` and `.env` (which can change
//! every skill's status) and any change to the set of folders or SKILL.md
//! files mean a full rescan. Paths nothing reads are ignored, so an agent
//! writing its own state files next to the skills costs nothing.

use super::catalog::Catalog;
use super::env::Env;
use super::home::Home;
use std::collections::{BTreeSet, HashMap};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};

/// The work a set of changes needs, cheapest first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReloadPlan {
    /// Nothing shown depends on the changed paths.
    Nothing,
    /// Only answers computed from files outside the catalog (category
    /// descriptions): the catalog stays, the views' answers are redone;
    /// with `usage`, Hermes' bookkeeping changed too ([`ReloadPlan::Usage`]).
    Answers { usage: bool },
    /// Only Hermes' bookkeeping (usage records, hub lock, manifest, curator
    /// state, the archive): the catalog stays; markers, sort and the
    /// Lifecycle view follow.
    Usage,
    /// Re-read these skills (indexes into the catalog) and/or the bundles.
    Part { skills: BTreeSet<usize>, bundles: bool },
    /// Walk and evaluate the whole home again.
    Full,
}

/// Changes gathered since the last reload: the paths, or a lost queue.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Pending {
    pub paths: BTreeSet<PathBuf>,
    /// The watcher lost events: only a full rescan is safe.
    pub overflow: bool,
}

/// The plan for `pending` against the last scan's `catalog`.
pub fn plan(pending: &Pending, catalog: &Catalog, home: &Home, env: &Env) -> ReloadPlan {
    if pending.overflow {
        return ReloadPlan::Full;
    }
    // Keyed by the bytes: hashing a `Path` walks its components.
    let skill_dirs: HashMap<&OsStr, usize> =
        catalog.skills.iter().enumerate().map(|(i, s)| (s.skill_dir.as_os_str(), i)).collect();
    let bundles_dir = home.bundles_dir(env);
    let mut skills = BTreeSet::new();
    let mut bundles = false;
    let mut answers = false;
    let mut usage = false;
    for path in &pending.paths {
        match classify(path, catalog, &skill_dirs, home, &bundles_dir) {
            Change::Ignored => {}
            Change::Answers => answers = true,
            Change::Usage => usage = true,
            Change::Skill(i) => {
                skills.insert(i);
            }
            Change::Bundles => bundles = true,
            Change::Full => return ReloadPlan::Full,
        }
    }
    if !skills.is_empty() || bundles {
        ReloadPlan::Part { skills, bundles }
    } else if answers {
        ReloadPlan::Answers { usage }
    } else if usage {
        ReloadPlan::Usage
    } else {
        ReloadPlan::Nothing
    }
}

enum Change {
    Ignored,
    Answers,
    Usage,
    Skill(usize),
    Bundles,
    Full,
}

fn classify(
    path: &Path,
    catalog: &Catalog,
    skill_dirs: &HashMap<&OsStr, usize>,
    home: &Home,
    bundles_dir: &Path,
) -> Change {
    if path == bundles_dir || path.parent() == Some(bundles_dir) {
        return Change::Bundles;
    }
    if path == home.root {
        return Change::Full;
    }
    if path.parent() == Some(home.root.as_path()) && path != home.skills_dir {
        let name = path.file_name().and_then(|n| n.to_str());
        return match name {
            Some("config.yaml" | ".env") => Change::Full,
            _ => Change::Ignored,
        };
    }
    if path.strip_prefix(&home.skills_dir).is_ok_and(is_bookkeeping) {
        return Change::Usage;
    }
    let is_skill_md = path.file_name().is_some_and(|n| n == "SKILL.md");
    // The skill folder holding the path, nearest first.
    if let Some(&i) = path.ancestors().skip(1).find_map(|a| skill_dirs.get(a.as_os_str())) {
        let skill = &catalog.skills[i];
        if is_skill_md {
            // Its own SKILL.md rewritten is that skill; a new SKILL.md in a
            // subfolder, or the file gone, changes the set of skills.
            return if path == skill.skill_md && path.is_file() { Change::Skill(i) } else { Change::Full };
        }
        // A new subfolder may hold skills of its own (its files were not
        // watched yet); one that went away may have held some.
        if path.is_dir() || holds_known(path, catalog) {
            return Change::Full;
        }
        return Change::Skill(i);
    }
    if skill_dirs.contains_key(path.as_os_str()) || is_skill_md || path.is_dir() || holds_known(path, catalog) {
        return Change::Full;
    }
    if path.file_name().is_some_and(|n| n == "DESCRIPTION.md") {
        return Change::Answers;
    }
    Change::Ignored
}

/// Hermes' bookkeeping in the skills folder (`rel` below it): usage
/// records, the hub's lock, the bundled manifest, the curator's state, the
/// archive.
pub fn is_bookkeeping(rel: &Path) -> bool {
    let files = [".usage.json", ".curator_state", ".bundled_manifest", ".curator_suppressed", ".hub/lock.json"];
    files.iter().any(|b| rel == Path::new(b)) || rel.starts_with(".archive")
}

/// A skill folder or root lies at or below `path` (a path that is gone:
/// was it a folder that held skills?).
fn holds_known(path: &Path, catalog: &Catalog) -> bool {
    if path.exists() {
        return false;
    }
    let gone = path.as_os_str().as_encoded_bytes();
    let below = |d: &Path| {
        let d = d.as_os_str().as_encoded_bytes();
        d.starts_with(gone) && (d.len() == gone.len() || d[gone.len()] == b'/' || gone.ends_with(b"/"))
    };
    let dirs = catalog.skills.iter().map(|s| s.skill_dir.as_path());
    dirs.chain(catalog.roots.iter().map(|r| r.path.as_path())).any(below)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::env::Os;
    use crate::Engine;

    fn home() -> (tempfile::TempDir, Engine) {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path().join("home");
        for (rel, text) in [
            ("skills/ops/deploy/SKILL.md", "---\nname: deploy\ndescription: d\n---\nbody\n"),
            ("skills/ops/deploy/scripts/run.sh", "echo\n"),
            ("skills/notes/SKILL.md", "---\nname: notes\ndescription: n\n---\n"),
            ("skills/ops/DESCRIPTION.md", "ops\n"),
            ("skill-bundles/b.yaml", "name: b\nskills: [deploy]\n"),
            ("config.yaml", "skills: {}\n"),
        ] {
            let path = root.join(rel);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            std::fs::write(path, text).expect("write");
        }
        let env = Env::with_vars([("HOME", "/nonexistent")], Os::Linux);
        (dir, Engine::new(root, env, Default::default()))
    }

    fn plan_for(engine: &Engine, catalog: &Catalog, rels: &[&str]) -> ReloadPlan {
        let paths = rels.iter().map(|r| engine.home.root.join(r)).collect();
        plan(&Pending { paths, overflow: false }, catalog, &engine.home, &engine.env)
    }

    fn part(catalog: &Catalog, names: &[&str], bundles: bool) -> ReloadPlan {
        let skills = names.iter().map(|n| catalog.skills.iter().position(|s| s.name == *n).expect(n)).collect();
        ReloadPlan::Part { skills, bundles }
    }

    #[test]
    fn a_skill_file_rereads_that_skill() {
        let (_dir, engine) = home();
        let catalog = engine.catalog();
        let atomic_save = ["skills/ops/deploy/SKILL.md", "skills/ops/deploy/.SKILL.md.swp"];
        assert_eq!(plan_for(&engine, &catalog, &atomic_save), part(&catalog, &["deploy"], false));
        let support = ["skills/ops/deploy/scripts/run.sh", "skills/notes/SKILL.md"];
        assert_eq!(plan_for(&engine, &catalog, &support), part(&catalog, &["deploy", "notes"], false));
        assert_eq!(plan_for(&engine, &catalog, &["skill-bundles/b.yaml"]), part(&catalog, &[], true));
    }

    #[test]
    fn a_changed_set_of_skills_or_config_is_a_full_rescan() {
        let (_dir, engine) = home();
        let catalog = engine.catalog();
        let root = &engine.home.root;
        std::fs::create_dir_all(root.join("skills/ops/deploy/nested")).expect("mkdir");
        std::fs::create_dir_all(root.join("skills/new")).expect("mkdir");
        for rels in [
            &["config.yaml"][..],
            &[".env"],
            &["skills/ops/deploy/nested"],
            &["skills/ops/deploy/nested/SKILL.md"],
            &["skills/new"],
            &["skills/gone/SKILL.md"],
            &["skills/ops"],
            &["skills"],
            &[""],
        ] {
            assert_eq!(plan_for(&engine, &catalog, rels), ReloadPlan::Full, "{rels:?}");
        }
        std::fs::remove_file(root.join("skills/notes/SKILL.md")).expect("rm");
        assert_eq!(plan_for(&engine, &catalog, &["skills/notes/SKILL.md"]), ReloadPlan::Full, "a skill deleted");
        let overflow = Pending { paths: BTreeSet::new(), overflow: true };
        assert_eq!(plan(&overflow, &catalog, &engine.home, &engine.env), ReloadPlan::Full);
    }

    #[test]
    fn files_nothing_reads_are_ignored() {
        let (_dir, engine) = home();
        let catalog = engine.catalog();
        let state = ["state.db", "logs", "skills/.usage.json.tmp", "skills/.hub/audit.log", "skills/ops/notes.txt"];
        assert_eq!(plan_for(&engine, &catalog, &state), ReloadPlan::Nothing);
        for bookkeeping in ["skills/.usage.json", "skills/.hub/lock.json", "skills/.curator_state", "skills/.archive/x"]
        {
            assert_eq!(plan_for(&engine, &catalog, &[bookkeeping]), ReloadPlan::Usage, "{bookkeeping}");
        }
        assert_eq!(plan_for(&engine, &catalog, &["skills/ops/DESCRIPTION.md"]), ReloadPlan::Answers { usage: false });
        let both = ["skills/ops/DESCRIPTION.md", "skills/.usage.json"];
        assert_eq!(plan_for(&engine, &catalog, &both), ReloadPlan::Answers { usage: true });
    }
}
