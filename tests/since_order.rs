//! The browser's `--since` in a process that lists folders in the
//! filesystem's order, as the browser does (no test helper here chooses
//! another): a change that makes the revision be read whole, whose copy
//! lies on another filesystem than the working tree, changes no skill's
//! message by the order its supporting files are listed in.

mod common;

use common::git;
use skillscope::engine::context::Context;
use skillscope::engine::env::{Env, Os};
use skillscope::engine::Engine;
use std::path::Path;

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

#[test]
fn a_settings_change_marks_no_skill_by_the_order_its_files_are_listed_in() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    git(&home, &["init", "-q", "-b", "main"]);
    let pack = home.join("skills/tools/pack");
    write(
        &pack.join("SKILL.md"),
        "---\nname: pack\ndescription: Pack a release.\n---\n# pack\n\nSee the references.\n",
    );
    // Written out of name order, so that no two filesystems are likely to
    // list them alike.
    for name in ["zeta", "alpha", "mu", "delta", "omega", "beta", "kappa", "gamma", "sigma", "eta"] {
        write(&pack.join(format!("references/{name}.md")), &format!("About {name}.\n"));
        write(&pack.join(format!("scripts/{name}.sh")), "#!/bin/sh\n");
    }
    write(&home.join("config.yaml"), "skills:\n  disabled: []\n");
    git(&home, &["add", "-A"]);
    git(&home, &["commit", "-q", "--no-gpg-sign", "-m", "state"]);
    // The toolsets decide what the walk finds: the revision is read whole.
    write(&home.join("config.yaml"), "toolsets: [hermes-cli, web]\nskills:\n  disabled: []\n");

    let engine = Engine::new(home.clone(), Env::with_vars([("HOME", "/nonexistent")], Os::Linux), Default::default());
    let message = || Context::new(&engine).invocation_message("/pack", "", None).expect("/pack loads");
    let shown_before = message();
    let answer = skillscope::compare::since(&engine, &home, "HEAD").unwrap();
    let changed: Vec<_> = answer.report.skills.iter().map(|s| (&s.name, &s.change)).collect();
    assert!(changed.is_empty(), "nothing the agent gets changed, yet: {changed:?}");
    assert_eq!(message(), shown_before, "the browser's own views keep the filesystem's order");
}
