//! The browser's `--since` comparison (`compare::since`) as the browser
//! calls it: on the home its engine shows, with the revision typed.

mod common;

use common::git;
use skillscope::engine::diff::ChangeKind as Change;
use skillscope::engine::env::{Env, Os};
use skillscope::engine::Engine;
use std::path::Path;

fn skill(home: &Path, name: &str, description: &str) {
    let dir = home.join("skills/a").join(name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("SKILL.md"), format!("---\nname: {name}\ndescription: {description}\n---\nBody.\n"))
        .unwrap();
}

fn commit(home: &Path, message: &str) {
    git(home, &["add", "-A"]);
    git(home, &["commit", "-q", "--no-gpg-sign", "-m", message]);
}

/// An empty git repository `name` in `dir`.
fn new_repo(dir: &Path, name: &str) -> std::path::PathBuf {
    let repo = dir.join(name);
    std::fs::create_dir_all(&repo).unwrap();
    git(&repo, &["init", "-q", "-b", "main"]);
    repo
}

fn engine(home: &Path) -> Engine {
    Engine::new(home.to_path_buf(), Env::with_vars([("HOME", "/nonexistent")], Os::Linux), Default::default())
}

fn changes(answer: &skillscope::compare::SinceAnswer) -> Vec<(String, Change)> {
    answer.report.skills.iter().map(|s| (s.name.clone(), s.change)).collect()
}

/// A home reached through a symlink (`~/.hermes` into a dotfiles
/// repository) marks what changed, each skill under the path the browser
/// shows it at; the others are no move.
#[cfg(unix)]
#[test]
fn a_home_through_a_symlink_marks_only_what_changed() {
    let dir = tempfile::tempdir().unwrap();
    let repo = new_repo(dir.path(), "dotfiles");
    skill(&repo, "alpha", "Alpha skill.");
    skill(&repo, "beta", "Beta skill.");
    commit(&repo, "two skills");
    skill(&repo, "alpha", "Alpha, changed.");
    let link = dir.path().join("hermes");
    std::os::unix::fs::symlink(&repo, &link).unwrap();

    let answer = skillscope::compare::since(&engine(&link), &link, "HEAD").unwrap();
    assert_eq!(changes(&answer), [("alpha".to_owned(), Change::Modified)]);
    assert!(answer.change_of(&link.join("skills/a/alpha/SKILL.md")).is_some(), "the mark lands on the row shown");
    assert!(answer.change_of(&link.join("skills/a/beta/SKILL.md")).is_none());
    assert!(answer.skill_md_diff.contains_key(&link.join("skills/a/alpha/SKILL.md")));
}

/// `A...B` marks what changed since the merge base, as `diff` reads it: a
/// feature branch's own changes, not what its base gained since.
#[test]
fn a_merge_base_range_marks_the_branch_s_own_changes() {
    let dir = tempfile::tempdir().unwrap();
    let repo = new_repo(dir.path(), "repo");
    skill(&repo, "alpha", "Alpha skill.");
    commit(&repo, "base");
    git(&repo, &["checkout", "-q", "-b", "feature"]);
    skill(&repo, "feat", "A feature's skill.");
    commit(&repo, "feature");
    git(&repo, &["checkout", "-q", "main"]);
    skill(&repo, "later", "Landed on main later.");
    commit(&repo, "main moves on");
    git(&repo, &["checkout", "-q", "feature"]);

    let since = |rev: &str| skillscope::compare::since(&engine(&repo), &repo, rev).map(|a| changes(&a));
    assert_eq!(since("main...HEAD").unwrap(), [("feat".to_owned(), Change::Added)]);
    assert_eq!(since("main...").unwrap(), [("feat".to_owned(), Change::Added)]);
    let against_main = since("main").unwrap();
    assert!(against_main.contains(&("later".to_owned(), Change::Removed)), "{against_main:?}");
    let unrelated = since("main...nonexistent").unwrap_err();
    assert!(unrelated.contains("nonexistent"), "{unrelated}");
    let two_dots = since("main..HEAD").unwrap_err();
    assert!(two_dots.contains("give main, or A...B for their merge base"), "{two_dots}");
}
