//! A reload after one save reads that one SKILL.md again, not the others,
//! and shows the change. (A test file of its own: the read counter is per
//! process.)

mod common;

use common::tui::{app_for, engine_for};
use skillscope::engine::source::skill_md_reads;

#[test]
fn a_reload_reads_only_what_changed() {
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
    // The jobs the browser starts with (the findings) fill the reuse cache.
    let jobs = app.wanted_jobs();
    app.run_jobs_inline(&jobs);
    assert_eq!(app.engine.reuse.as_ref().map(|c| c.len()), Some(40));

    // An editor's atomic save of one skill.
    let target = home.join("skills/cat-1/skill-5/SKILL.md");
    let temp = target.with_file_name(".SKILL.md.swp");
    std::fs::write(&temp, "---\nname: skill-5\ndescription: saved again\n---\nNew body.\n").unwrap();
    std::fs::rename(&temp, &target).unwrap();
    let before = skill_md_reads();
    app.rescan(engine_for(&home));
    assert_eq!(skill_md_reads() - before, 1, "only the saved skill is read again");
    let saved = app.catalog.skills.iter().find(|s| s.name == "skill-5").unwrap();
    assert_eq!(saved.description, "saved again");

    // A removed skill leaves the catalog (and the reuse cache).
    std::fs::remove_dir_all(home.join("skills/cat-2/skill-6")).unwrap();
    let before = skill_md_reads();
    app.rescan(engine_for(&home));
    assert_eq!(skill_md_reads() - before, 0);
    assert_eq!(app.catalog.skills.len(), 39);
    assert_eq!(app.engine.reuse.as_ref().map(|c| c.len()), Some(39));
}
