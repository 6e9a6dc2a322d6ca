//! The browser's catalog agrees with the Hermes surfaces it summarises.

mod common;

use common::Scenario;
use std::collections::BTreeSet;

fn names(list: &serde_json::Value) -> BTreeSet<String> {
    list["skills"]
        .as_array()
        .map(|a| a.iter().map(|s| s["name"].as_str().unwrap_or("").to_owned()).collect())
        .unwrap_or_default()
}

#[test]
fn listed_flags_and_commands_match_the_surfaces() {
    for fixture in ["basic", "gates", "collisions", "frontmatter", "bundles", "commands", "disabled_string", "sandbox"]
    {
        let s = Scenario::fixture(fixture);
        let engine = s.engine();
        let catalog = engine.catalog();
        let listed: BTreeSet<String> =
            catalog.skills.iter().filter(|k| k.status.listed).map(|k| k.name.clone()).collect();
        assert_eq!(listed, names(&engine.skills_list(None)), "{fixture}: listed skills");
        assert_eq!(catalog.skill_commands(), engine.skill_commands(), "{fixture}: commands");
    }
}

#[test]
fn hidden_skills_say_why() {
    let s = Scenario::fixture("gates");
    let catalog = s.engine().catalog();
    let by_name = |n: &str| catalog.skills.iter().find(|k| k.name == n).unwrap_or_else(|| panic!("{n}"));
    assert!(!by_name("mac-only").status.platform_ok);
    assert!(!by_name("kanban-only").status.environment_ok);
    assert!(by_name("off-skill").status.disabled);
    assert!(by_name("tg-off").status.disabled, "platform_disabled for HERMES_PLATFORM=telegram");
    assert!(by_name("unknown-env").status.listed);
    assert!(catalog.skills.iter().filter(|k| k.status.listed).all(|k| !k.hidden()));
}

#[test]
fn collisions_are_shadowed_or_ambiguous() {
    let s = Scenario::fixture("collisions");
    let catalog = s.engine().catalog();
    let deploys: Vec<_> = catalog.skills.iter().filter(|k| k.name == "deploy").collect();
    assert_eq!(deploys.len(), 2);
    assert!(deploys.iter().all(|k| !k.status.ambiguous_with.is_empty()));
    assert!(deploys[1].status.shadowed_by.is_some());
    let ext_only: Vec<_> = catalog.skills.iter().filter(|k| k.name == "ext-only").collect();
    assert_eq!(ext_only.len(), 2);
    assert_eq!(catalog.roots.len(), 2);
}

#[test]
fn readiness_and_categories() {
    let s = Scenario::fixture("basic");
    let catalog = s.engine().catalog();
    let deep = catalog.skills.iter().find(|k| k.name == "deep").expect("deep");
    assert_eq!(deep.categories, ["devops", "nested"]);
    assert_eq!(deep.status.command.as_deref(), Some("/deep"));
    let r = Scenario::fixture("readiness");
    let cat = r.engine().catalog();
    let creds = cat.skills.iter().find(|k| k.name == "creds").expect("creds");
    assert!(creds.readiness().setup_needed);
    assert!(creds.readiness().missing_files.contains(&"missing.json".to_owned()));
}

/// `find_all_skills` from a catalog (the lookups of `check` use it) is the
/// scan's own, in order, on every fixture and on a disabled name used twice
/// (both are disabled: the first does not shadow the second).
#[test]
fn the_listing_from_a_catalog_is_the_scans() {
    let summary = |skills: Vec<skillscope::engine::list::ListedSkill>| -> Vec<String> {
        skills.into_iter().map(|s| format!("{} {:?} {}", s.name, s.category, s.skill_md.display())).collect()
    };
    let summary_of = |skills: Vec<(String, Option<String>, std::path::PathBuf)>| -> Vec<String> {
        skills.iter().map(|(name, category, md)| format!("{name} {category:?} {}", md.display())).collect()
    };
    let t = tempfile::tempdir().unwrap();
    let home = t.path().join("home");
    for (rel, text) in [
        ("skills/a/first/SKILL.md", "---\nname: twin\ndescription: disabled\n---\n"),
        ("skills/b/second/SKILL.md", "---\nname: twin\ndescription: disabled too\n---\n"),
        ("skills/b/third/SKILL.md", "---\nname: single\ndescription: listed\n---\n"),
        ("skills/.hub/hidden/SKILL.md", "---\nname: hidden\ndescription: excluded\n---\n"),
        ("config.yaml", "skills:\n  disabled: [twin]\n"),
    ] {
        let path = home.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let mut engines: Vec<skillscope::engine::Engine> = [
        "basic",
        "gates",
        "collisions",
        "frontmatter",
        "bundles",
        "commands",
        "disabled_string",
        "external_dirs",
        "excluded_ancestor",
        "root_skill",
        "bad_files",
    ]
    .iter()
    .map(|f| Scenario::fixture(f).engine())
    .collect();
    let twins = common::tui::engine_for(&home);
    let catalog = twins.catalog();
    let second = catalog.skills.iter().find(|s| s.description == "disabled too").unwrap();
    assert!(second.status.disabled && second.status.shadowed_by.is_none(), "{:?}", second.status);
    engines.push(twins);
    for engine in engines {
        let catalog = engine.catalog();
        let from_catalog = engine
            .listed_in_catalog(&catalog, |s| (s.name.clone(), engine.listing_category(&s.skill_md), s.skill_md.clone()))
            .expect("every root scanned")
            .expect("config readable");
        let scanned = engine.find_all_skills(false).expect("config readable");
        let flagged: Vec<String> = catalog.skills.iter().filter(|s| s.status.listed).map(|s| s.name.clone()).collect();
        let listed: Vec<String> = scanned.iter().map(|s| s.name.clone()).collect();
        assert_eq!(flagged, listed, "the catalog's listed flags: {}", engine.home.root.display());
        assert_eq!(summary_of(from_catalog), summary(scanned), "{}", engine.home.root.display());
    }
}

/// A browser's lean catalog holds the same skills with the same statuses;
/// it drops the frontmatter (keeping its string `name` apart), and gives
/// back the whole of it (read again) on demand, also after a skill is
/// re-read.
#[test]
fn a_lean_catalog_reads_a_frontmatter_again_when_asked() {
    let mut seen = std::collections::BTreeSet::new();
    for fixture in ["basic", "gates", "collisions", "frontmatter", "commands"] {
        let s = Scenario::fixture(fixture);
        let engine = s.engine();
        let full = engine.catalog();
        let mut lean = engine.lean_catalog();
        assert!(lean.lean && !full.lean);
        assert_eq!(lean.skill_commands(), full.skill_commands(), "{fixture}");
        assert_eq!(lean.skills.len(), full.skills.len(), "{fixture}");
        for (l, f) in lean.skills.iter().zip(&full.skills) {
            assert_eq!((&l.name, &l.status, &l.skill_md), (&f.name, &f.status, &f.skill_md), "{fixture}");
            assert!(l.frontmatter.is_empty(), "{fixture}: {:?}", l.frontmatter);
            let string_name = f.frontmatter.get("name").and_then(|v| v.as_str());
            assert_eq!(l.frontmatter_name(), string_name, "{fixture}: {}", l.name);
            assert_eq!(f.frontmatter_name(), string_name, "{fixture}: {}", l.name);
            assert_eq!(*engine.frontmatter_of(&lean, l), f.frontmatter, "{fixture}: {}", l.name);
        }
        for l in &lean.skills {
            seen.insert(match l.frontmatter_name() {
                None => "no string name",
                Some(n) if n == l.name => "the listed name",
                Some(_) => "another name",
            });
        }
        let all: Vec<usize> = (0..lean.skills.len()).collect();
        engine.refresh_skills(&mut lean, &all);
        for (l, f) in lean.skills.iter().zip(&full.skills) {
            assert!(l.frontmatter.is_empty(), "{fixture}: refreshed {}", l.name);
            assert_eq!(l.frontmatter_name(), f.frontmatter_name(), "{fixture}: refreshed {}", l.name);
            assert_eq!(*engine.frontmatter_of(&lean, l), f.frontmatter, "{fixture}: refreshed {}", l.name);
        }
    }
    // Each way a lean catalog holds a frontmatter name is covered.
    assert_eq!(seen.len(), 3, "{seen:?}");
}
