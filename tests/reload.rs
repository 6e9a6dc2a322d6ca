//! A reload after one save reads that one SKILL.md again, not the others,
//! and shows the change. (A test file of its own: the read counter is per
//! process, and the tests here take turns.)

mod common;

use common::tui::{app_for, engine_for};
use skillscope::engine::discover::folders_listed;
use skillscope::engine::reload::Pending;
use skillscope::engine::source::skill_md_reads;
use skillscope::tui::app::Effect;
use skillscope::tui::jobs::JobKind;

/// The counters are per process: the tests take turns.
static COUNTERS: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn one_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    COUNTERS.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

#[test]
fn a_full_rescan_reads_each_skill_once() {
    let _turn = one_at_a_time();
    let t = tempfile::tempdir().unwrap();
    let home = t.path().join("home");
    for i in 0..40 {
        let dir = home.join(format!("skills/cat-{}/skill-{i}", i % 4));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("SKILL.md"),
            format!("---\nname: skill-{i}\ndescription: number {i}\n---\nBody {i}.\n"),
        )
        .unwrap();
    }
    let before = skill_md_reads();
    let mut app = app_for(&home);
    assert_eq!(app.catalog.skills.len(), 40);
    assert_eq!(skill_md_reads() - before, 40, "the first scan reads every skill once");
    // The findings job walks and reads the home on its own, and so does
    // the index's job (it is Hermes' own walk).
    let (check, others): (Vec<Effect>, Vec<Effect>) = app
        .wanted_jobs()
        .into_iter()
        .partition(|e| matches!(e, Effect::Job(r) if matches!(r.kind, JobKind::Diagnostics(..))));
    let before = skill_md_reads();
    app.run_jobs_inline(&check);
    // Once: the index that index-similar-descriptions needs (the browser
    // shows infos) is made from the check's own walk.
    assert_eq!(skill_md_reads() - before, 40, "the check reads every skill once");
    let before = skill_md_reads();
    app.run_jobs_inline(&others);
    assert_eq!(skill_md_reads() - before, 40, "the index reads every skill once");

    // An editor's atomic save of one skill.
    let target = home.join("skills/cat-1/skill-5/SKILL.md");
    let temp = target.with_file_name(".SKILL.md.swp");
    std::fs::write(&temp, "---\nname: skill-5\ndescription: saved again\n---\nNew body.\n").unwrap();
    std::fs::rename(&temp, &target).unwrap();
    let before = skill_md_reads();
    app.rescan(engine_for(&home));
    assert_eq!(skill_md_reads() - before, 40, "a full rescan keeps no copy of the files");
    let saved = app.catalog.skills.iter().find(|s| s.name == "skill-5").unwrap();
    assert_eq!(saved.description, "saved again");

    // A removed skill leaves the catalog.
    std::fs::remove_dir_all(home.join("skills/cat-2/skill-6")).unwrap();
    let before = skill_md_reads();
    app.rescan(engine_for(&home));
    assert_eq!(skill_md_reads() - before, 39);
    assert_eq!(app.catalog.skills.len(), 39);
}

/// A home of `n` skills in four categories.
fn home_of(n: usize) -> (tempfile::TempDir, std::path::PathBuf) {
    let t = tempfile::tempdir().unwrap();
    let home = t.path().join("home");
    for i in 0..n {
        let dir = home.join(format!("skills/cat-{}/skill-{i}", i % 4));
        std::fs::create_dir_all(dir.join("references")).unwrap();
        std::fs::write(
            dir.join("SKILL.md"),
            format!("---\nname: skill-{i}\ndescription: number {i}\n---\nBody {i}.\n"),
        )
        .unwrap();
    }
    (t, home)
}

/// What a catalog says of each skill and command.
fn summary(catalog: &skillscope::engine::catalog::Catalog) -> Vec<String> {
    let skills =
        catalog.skills.iter().map(|s| format!("{} {} {:?} {}", s.name, s.description, s.status, s.skill_md.display()));
    skills.chain(catalog.skill_commands().iter().map(|(key, c)| format!("{key} {:?}", c.description))).collect()
}

fn changed(paths: &[std::path::PathBuf]) -> Pending {
    Pending { paths: paths.iter().cloned().collect(), overflow: false }
}

#[test]
fn watched_changes_reread_only_their_skill_without_a_walk() {
    let _turn = one_at_a_time();
    let (_t, home) = home_of(40);
    let mut app = app_for(&home);
    let target = home.join("skills/cat-1/skill-5/SKILL.md");
    let temp = target.with_file_name(".SKILL.md.swp");
    std::fs::write(&temp, "---\nname: skill-5\ndescription: saved again\n---\nNew body.\n").unwrap();
    std::fs::rename(&temp, &target).unwrap();
    let (reads, walks) = (skill_md_reads(), folders_listed());
    assert!(app.reload(&changed(&[temp, target.clone()])));
    assert_eq!(skill_md_reads() - reads, 1, "only the saved skill is read again");
    assert_eq!(folders_listed() - walks, 0, "no folder is listed");
    let saved = app.catalog.skills.iter().find(|s| s.skill_md == target).unwrap();
    assert_eq!(saved.description, "saved again");
    assert_eq!(summary(&app.catalog), summary(&app_for(&home).catalog), "the same as a full scan");
    let walks = folders_listed();

    // A rename that takes another skill's name: shadowing follows without a walk.
    std::fs::write(&target, "---\nname: skill-9\ndescription: taken\n---\n").unwrap();
    assert!(app.reload(&changed(std::slice::from_ref(&target))));
    let by_name: Vec<_> = app.catalog.skills.iter().filter(|s| s.name == "skill-9").collect();
    assert_eq!(by_name.len(), 2);
    assert_eq!(by_name.iter().filter(|s| s.status.listed).count(), 1, "the first in scan order keeps the name");
    assert_eq!(folders_listed() - walks, 0);
    assert_eq!(summary(&app.catalog), summary(&app_for(&home).catalog), "the same as a full scan");
    let walks = folders_listed();

    // A support file touches its skill only; the usage records only the
    // tree's markers and order; an agent's other state nothing.
    let reads = skill_md_reads();
    std::fs::write(home.join("skills/cat-2/skill-6/references/api.md"), "api\n").unwrap();
    assert!(app.reload(&changed(&[home.join("skills/cat-2/skill-6/references/api.md")])));
    assert_eq!(skill_md_reads() - reads, 1);
    let reads = skill_md_reads();
    assert!(app.usage.marks.is_empty());
    std::fs::write(home.join("skills/.usage.json"), r#"{"skill-7": {"state": "stale", "use_count": 3}}"#).unwrap();
    assert!(app.reload(&changed(&[home.join("skills/.usage.json")])), "the markers follow");
    assert!(app.usage.marks.get("skill-7").is_some_and(|m| m.stale && m.use_count == 3));
    assert_eq!(skill_md_reads() - reads, 0, "no skill is read again");
    std::fs::write(home.join("state.db"), "x").unwrap();
    assert!(!app.reload(&changed(&[home.join("state.db")])), "nothing to redo");
    assert_eq!(folders_listed() - walks, 0);
}

#[test]
fn a_lost_queue_or_a_new_skill_is_one_full_rescan() {
    let _turn = one_at_a_time();
    let (_t, home) = home_of(12);
    let mut app = app_for(&home);
    // A skill appears while the watcher's queue overflows: its events are lost.
    let dir = home.join("skills/cat-0/fresh");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("SKILL.md"), "---\nname: fresh\ndescription: new\n---\n").unwrap();
    let walks = folders_listed();
    assert!(app.reload(&Pending { paths: Default::default(), overflow: true }));
    let listed = folders_listed() - walks;
    assert!(listed >= 12, "one walk of the home: {listed} folders listed");
    assert!(listed < 2 * 17, "once");
    assert!(app.catalog.skills.iter().any(|s| s.name == "fresh"));

    // The new folder's own event is a full rescan too (the set of skills changed).
    let dir = home.join("skills/cat-1/another");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("SKILL.md"), "---\nname: another\ndescription: new\n---\n").unwrap();
    assert!(app.reload(&changed(&[dir.clone(), dir.join("SKILL.md")])));
    assert!(app.catalog.skills.iter().any(|s| s.name == "another"));
}
