//! A revision compared with the working tree, read from the working tree's
//! walk with only the skill folders that differ written from git's objects,
//! answers exactly what the revision written and walked whole answers: for
//! every kind of change inside skill folders and beside them where nothing
//! is read, in a Hermes home kept in git and in a repository of skills.
//! Another change outside every skill folder reads the revision whole.

mod common;

use common::git;
use skillscope::compare::{against_worktree, since_reading, Reading, SinceAnswer};
use skillscope::engine::diagnostics::Severity;
use skillscope::engine::diff::git::Repo;
use skillscope::engine::env::{Env, Os};
use skillscope::engine::Engine;
use skillscope::open::{classify, FolderKind, StandInHome};
use std::path::Path;

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn skill(dir: &Path, name: &str, description: &str, extra: &str) {
    let text = format!(
        "---\nname: {name}\ndescription: {description}\n{extra}---\n# {name}\n\nRun scripts/run.sh from ${{HERMES_SKILL_DIR}}.\nSee references/notes.md.\n"
    );
    write(&dir.join("SKILL.md"), &text);
    write(&dir.join("references/notes.md"), &format!("Notes for {name}.\n"));
}

fn commit(repo: &Path) {
    git(repo, &["add", "-A"]);
    git(repo, &["commit", "-q", "--no-gpg-sign", "--allow-empty", "-m", "state"]);
}

/// A Hermes home kept in git: skills in categories, an external dir inside
/// the repository, bundles, settings with a per-path ignore, one commit.
fn home_repo(root: &Path) {
    std::fs::create_dir_all(root).unwrap();
    git(root, &["init", "-q", "-b", "main"]);
    let skills = root.join("skills");
    skill(&skills.join("devops/deploy"), "deploy", "Deploy the app to production.", "");
    skill(&skills.join("devops/rollback"), "rollback", "Roll a release back.", "");
    skill(&skills.join("devops/deploy/canary"), "canary", "Canary a release.", "");
    skill(&skills.join("tools/lint"), "lint", "Lint the code base.", "");
    skill(
        &skills.join("tools/keys"),
        "keys",
        "Rotate API keys.",
        "required_environment_variables:\n  - name: KEYS_TOKEN\nmetadata:\n  hermes:\n    config:\n      - key: keys.vault\n        description: Where keys live\n        default: local\n",
    );
    skill(&skills.join("notes/old"), "old", "Old notes nobody reads.", "");
    skill(&skills.join("quick"), "quick", "A skill outside every category.", "");
    skill(&skills.join("notes/mismatch"), "other-name", "Its name is not its folder's.", "");
    write(&skills.join("devops/DESCRIPTION.md"), "---\ndescription: Shipping things.\n---\n");
    skill(&root.join("shared/team/review"), "review", "Review a pull request.", "");
    write(&root.join("config.yaml"), "skills:\n  external_dirs:\n    - ./shared\n  disabled: []\n");
    write(
        &root.join("skill-bundles/release.yaml"),
        "name: release\nskills: [deploy, rollback, review, legacy, quick]\n",
    );
    write(&root.join("skillscope.toml"), "[check.per-path-ignores]\n\"skills/notes/**\" = [\"spec-name-folder\"]\n");
    write(&root.join(".gitignore"), "/.env\n/logs/\n*.pyc\n");
    write(&root.join("README.md"), "# The team's agent\n");
    commit(root);
    ignored_files(root);
}

/// What a home keeps beside git: the keys the agent has, its logs, a cache
/// in a skill's scripts (listed with its supporting files).
fn ignored_files(root: &Path) {
    write(&root.join(".env"), "KEYS_TOKEN=set\n");
    write(&root.join("logs/agent.log"), "started\n");
    write(&root.join("skills/tools/lint/scripts/cache.pyc"), "\0cache");
}

/// A checkout beside `home` given the files git ignores in it, as they are.
fn ignored_files_of(home: &Path, checkout: &Path) {
    for rel in git(home, &["ls-files", "--others", "--ignored", "--exclude-standard"]).lines() {
        write(&checkout.join(rel), &std::fs::read_to_string(home.join(rel)).unwrap());
    }
}

/// A change made to a repository's working tree, and what it is.
type Change = (&'static str, fn(&Path));

/// Changes inside skill folders, or where nothing reads them, each on a
/// fresh repository.
fn changes() -> Vec<Change> {
    vec![
        ("description edited", |r| skill(&r.join("skills/tools/lint"), "lint", "Lint and format the code base.", "")),
        ("name taken from an untouched skill", |r| {
            skill(&r.join("skills/tools/lint"), "deploy", "Lint the code base.", "")
        }),
        ("folder moved", |r| {
            std::fs::rename(r.join("skills/notes/old"), r.join("skills/tools/old")).unwrap();
        }),
        ("skill deleted", |r| std::fs::remove_dir_all(r.join("skills/devops/rollback")).unwrap()),
        ("skill added beside others", |r| skill(&r.join("skills/tools/format"), "format", "Format code.", "")),
        ("supporting file changed", |r| write(&r.join("skills/tools/keys/references/notes.md"), "Rotate weekly.\n")),
        ("platform narrowed", |r| {
            skill(&r.join("skills/devops/rollback"), "rollback", "Roll a release back.", "platforms: [windows]\n")
        }),
        ("nested skill's parent changed", |r| write(&r.join("skills/devops/deploy/references/notes.md"), "New.\n")),
        ("finding gained and ignored by path", |r| {
            skill(&r.join("skills/notes/old"), "renamed-old", "Old notes nobody reads.", "")
        }),
        ("skill with a finding ignored by path edited", |r| {
            skill(&r.join("skills/notes/mismatch"), "other-name", "Still not its folder's name.", "")
        }),
        ("a legacy flat file a bundle names added in a skill folder", |r| {
            write(&r.join("skills/tools/lint/legacy.md"), "---\nname: legacy\ndescription: Old style.\n---\nBody.\n")
        }),
        ("a skill outside every category deleted", |r| std::fs::remove_dir_all(r.join("skills/quick")).unwrap()),
        ("finding gained and suppressed inline", |r| {
            let text =
                "---\nname: linter\ndescription: Lint.\n---\n<!-- skillscope-ignore: spec-name-folder -->\n# linter\n";
            write(&r.join("skills/tools/lint/SKILL.md"), text);
        }),
        ("required env var added", |r| {
            skill(
                &r.join("skills/tools/lint"),
                "lint",
                "Lint.",
                "required_environment_variables:\n  - name: LINT_KEY\n",
            )
        }),
        ("external dir's skill edited", |r| {
            skill(&r.join("shared/team/review"), "review", "Review a pull request carefully.", "")
        }),
        ("bundle member renamed", |r| skill(&r.join("skills/devops/rollback"), "undo", "Roll a release back.", "")),
        ("category description inside a skill folder", |r| {
            write(&r.join("skills/tools/lint/DESCRIPTION.md"), "---\ndescription: Not a category.\n---\n")
        }),
        ("frontmatter broken", |r| write(&r.join("skills/tools/keys/SKILL.md"), "---\nname: [keys\n---\n")),
        // Beside the skill folders, where nothing is read.
        ("a stray file in a category folder", |r| write(&r.join("skills/devops/notes.txt"), "todo\n")),
        ("a folder's metadata file at the top of the skills", |r| write(&r.join("skills/.DS_Store"), "\0\0")),
        ("a virtual environment in a category", |r| write(&r.join("skills/tools/.venv/bin/python"), "#!\n")),
        ("a continuous-integration workflow", |r| write(&r.join(".github/workflows/check.yml"), "on: push\n")),
        ("a scratch folder among the categories", |r| write(&r.join("skills/scratch/todo.txt"), "later\n")),
        ("a new category holding a new skill", |r| skill(&r.join("skills/data/etl"), "etl", "Load data.", "")),
    ]
}

fn engine_of(home: &Path) -> Engine {
    // As `diff` lists folders: a revision's copy lies on another filesystem.
    skillscope::engine::listing::set_order(skillscope::engine::listing::Order::Fnv1a);
    Engine::new(home.to_path_buf(), Env::with_vars([("HOME", "/nonexistent")], Os::Linux), Default::default())
}

/// Both readings of HEAD against the working tree of `folder` (the home
/// `engine` shows), which must be the same; the overlaid one must have
/// been taken.
fn assert_readings_agree(engine: &Engine, folder: &Path, what: &str) {
    let repo = Repo::discover(folder).unwrap();
    let commit = repo.commit("HEAD").unwrap();
    let overlaid = against_worktree(engine, &repo, &commit, None, folder, Severity::Warning)
        .unwrap_or_else(|| panic!("{what}: the revision was not read from the working tree"))
        .unwrap();
    let whole = since_reading(engine, folder, "HEAD", Reading::Whole).unwrap();
    let json = |r: &skillscope::engine::diff::DiffReport| r.to_json(serde_json::json!(null), serde_json::json!(null));
    assert_eq!(json(&overlaid.report), json(&whole.report), "{what}");
    let since = since_reading(engine, folder, "HEAD", Reading::Overlaid).unwrap();
    assert_same_answer(&since, &whole, what);
}

/// The browser's answers agree but for where the revision's files were
/// written.
fn assert_same_answer(a: &SinceAnswer, b: &SinceAnswer, what: &str) {
    let json = |r: &skillscope::engine::diff::DiffReport| r.to_json(serde_json::json!(null), serde_json::json!(null));
    assert_eq!(json(&a.report), json(&b.report), "{what}");
    assert_eq!(a.skill_md_diff, b.skill_md_diff, "{what}");
    assert_eq!(a.removed, b.removed, "{what}");
    for (x, y) in a.report.skills.iter().zip(&b.report.skills) {
        assert_eq!(x.files.0.is_some(), y.files.0.is_some(), "{what}");
        assert_eq!(x.files.1, y.files.1, "{what}");
    }
}

/// A Hermes home kept in git ([`home_repo`]) in a folder of its own.
fn new_home(name: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().canonicalize().unwrap().join(name);
    home_repo(&home);
    (tmp, home)
}

/// The revision at HEAD cannot be read from the working tree of `folder`
/// (the home `engine` shows); the browser's answer, made from it read
/// whole, is the whole reading's.
fn assert_read_whole(engine: &Engine, folder: &Path, what: &str) -> SinceAnswer {
    let repo = Repo::discover(folder).unwrap();
    let head = repo.commit("HEAD").unwrap();
    assert!(against_worktree(engine, &repo, &head, None, folder, Severity::Warning).is_none(), "{what}");
    let since = since_reading(engine, folder, "HEAD", Reading::Overlaid).unwrap();
    let whole = since_reading(engine, folder, "HEAD", Reading::Whole).unwrap();
    assert_same_answer(&since, &whole, what);
    whole
}

#[test]
fn a_home_read_from_its_working_tree_answers_as_the_revision_written_whole() {
    for (what, change) in changes() {
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path().canonicalize().unwrap().join("home");
        home_repo(&home);
        change(&home);
        assert_readings_agree(&engine_of(&home), &home, what);
    }
}

#[test]
fn every_change_at_once_and_two_commits_back() {
    let (_tmp, home) = new_home("home");
    let all = changes();
    for (_, change) in &all[..5] {
        change(&home);
    }
    commit(&home);
    for (_, change) in &all[5..] {
        change(&home);
    }
    let engine = engine_of(&home);
    assert_readings_agree(&engine, &home, "every change");
    let repo = Repo::discover(&home).unwrap();
    let two_back = repo.commit("HEAD~1").unwrap();
    let overlaid = against_worktree(&engine, &repo, &two_back, None, &home, Severity::Warning).unwrap().unwrap();
    let whole = since_reading(&engine, &home, "HEAD~1", Reading::Whole).unwrap();
    let json = |r: &skillscope::engine::diff::DiffReport| r.to_json(serde_json::json!(null), serde_json::json!(null));
    assert_eq!(json(&overlaid.report), json(&whole.report), "two commits back");
}

#[test]
fn a_repository_of_skills_shown_through_a_stand_in_home() {
    for (what, change) in changes().into_iter().filter(|(w, _)| !w.contains("external")) {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().canonicalize().unwrap().join("repo");
        home_repo(&root);
        let folder = root.join("skills");
        change(&root);
        assert_eq!(classify(&folder), FolderKind::Skills);
        let stand_in = StandInHome::create(&folder, FolderKind::Skills).unwrap();
        assert_readings_agree(&engine_of(&stand_in.home()), &folder, what);
    }
}

#[test]
fn a_change_outside_every_skill_folder_reads_the_revision_whole() {
    let outside: [Change; 11] = [
        // A link may lead to the settings: read through it, they would be
        // the working tree's in both states.
        ("config.yaml beside a symlink", |r| {
            #[cfg(unix)]
            std::os::unix::fs::symlink("../../../../config.yaml", r.join("skills/tools/lint/settings.yaml")).unwrap();
            commit(r);
            write(&r.join("config.yaml"), "skills:\n  external_dirs: [./shared]\n  disabled: [lint]\n");
        }),
        // Settings that change what is walked or how: the external dirs,
        // the toolsets (skills gated on kanban), the backend (readiness),
        // whether they parse; and config.yaml turned into a link.
        ("config.yaml's external dirs", |r| write(&r.join("config.yaml"), "skills:\n  disabled: [lint]\n")),
        ("config.yaml's toolsets", |r| {
            write(&r.join("config.yaml"), "toolsets: [kanban]\nskills:\n  external_dirs:\n    - ./shared\n")
        }),
        ("config.yaml's backend", |r| {
            write(&r.join("config.yaml"), "terminal:\n  backend: docker\nskills:\n  external_dirs:\n    - ./shared\n")
        }),
        ("config.yaml broken", |r| write(&r.join("config.yaml"), "skills: [\n")),
        ("config.yaml a link", |r| {
            std::fs::rename(r.join("config.yaml"), r.join("settings.yaml")).unwrap();
            #[cfg(unix)]
            std::os::unix::fs::symlink("settings.yaml", r.join("config.yaml")).unwrap();
        }),
        ("a category's description", |r| {
            write(&r.join("skills/devops/DESCRIPTION.md"), "---\ndescription: Ops.\n---\n")
        }),
        // Read by name: a skill's credential file may lie there.
        ("a credential file a skill names added at the home's top", |r| {
            skill(&r.join("skills/tools/keys"), "keys", "Keys.", "required_credential_files: [token.json]\n");
            commit(r);
            write(&r.join("token.json"), "{}\n");
        }),
        // A legacy `{name}.md` a lookup finds: a bundle member's name, a
        // skill folder's name (the lookup of its slash command is then
        // ambiguous).
        ("a bundle member's flat file", |r| write(&r.join("skills/devops/legacy.md"), "Old.\n")),
        ("a new folder holding a skill's flat file", |r| write(&r.join("skills/scratch/lint.md"), "later\n")),
        ("a folder symlink among the categories", |r| {
            #[cfg(unix)]
            std::os::unix::fs::symlink("tools", r.join("skills/more-tools")).unwrap();
            #[cfg(not(unix))]
            write(&r.join("skills/devops/deploy-old.md"), "Old.\n");
        }),
    ];
    for (what, change) in outside {
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path().canonicalize().unwrap().join("home");
        home_repo(&home);
        change(&home);
        // The browser's answer is still made, from the revision read whole.
        assert_read_whole(&engine_of(&home), &home, what);
    }
}

/// A change to config.yaml that leaves what is walked and how as it is
/// (which skills are disabled, a skill's settings, quick commands, template
/// variables) is the working tree's walk under the revision's settings,
/// alone or beside a change in a skill folder.
#[test]
fn a_settings_change_reads_the_walk_under_the_revision_s_settings() {
    let settings: [Change; 8] = [
        ("a skill disabled", |r| {
            write(&r.join("config.yaml"), "skills:\n  external_dirs:\n    - ./shared\n  disabled: [lint, review]\n")
        }),
        // A finding on the revision's config.yaml names its line there.
        ("no skill of the name disabled, then none", |r| {
            write(&r.join("config.yaml"), "skills:\n  external_dirs: [./shared]\n  disabled: [lint, nobody]\n");
            commit(r);
            write(&r.join("config.yaml"), "skills:\n  external_dirs: [./shared]\n\n\n  disabled: [lint]\n")
        }),
        ("a skill disabled on a platform", |r| {
            let text = "skills:\n  external_dirs: [./shared]\n  platform_disabled:\n    cli: [deploy]\n";
            write(&r.join("config.yaml"), text)
        }),
        ("a skill's setting given", |r| {
            let text =
                "skills:\n  external_dirs: [./shared]\n  config:\n    keys:\n      vault: hsm\nkeys:\n  vault: hsm\n";
            write(&r.join("config.yaml"), text)
        }),
        ("a quick command named as a skill", |r| {
            let text = "skills:\n  external_dirs: [./shared]\nquick_commands:\n  lint:\n    type: exec\n    command: make lint\n";
            write(&r.join("config.yaml"), text)
        }),
        ("template variables off", |r| {
            write(&r.join("config.yaml"), "skills:\n  external_dirs: [./shared]\n  template_vars: false\n")
        }),
        ("a skill disabled and another edited", |r| {
            write(&r.join("config.yaml"), "skills:\n  external_dirs: [./shared]\n  disabled: [keys]\n");
            skill(&r.join("skills/tools/lint"), "keys", "Lint, under another name.", "");
        }),
        ("the settings written differently, the same", |r| {
            write(&r.join("config.yaml"), "# the team's settings\nskills: {external_dirs: [./shared], disabled: []}\n")
        }),
    ];
    for (what, change) in settings {
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path().canonicalize().unwrap().join("home");
        home_repo(&home);
        change(&home);
        assert_readings_agree(&engine_of(&home), &home, what);
    }
}

/// A `*.md` file beside the skill folders that no lookup of the answers
/// can find (no skill folder, bundle member or its stem names it) leaves
/// the working tree's walk standing: a pull request's README, notes among
/// the categories.
#[test]
fn markdown_no_lookup_finds_leaves_the_walk_standing() {
    let markdown: [Change; 5] = [
        ("a markdown file among the categories", |r| write(&r.join("skills/devops/deploy-old.md"), "Old.\n")),
        ("a new folder holding a markdown file", |r| write(&r.join("skills/scratch/todo.md"), "later\n")),
        ("a README in the skills folder", |r| write(&r.join("skills/README.md"), "# Skills\n")),
        ("notes in an external dir", |r| write(&r.join("shared/team/NOTES.md"), "notes\n")),
        // A new folder named like markdown is looked into: it holds a skill.
        ("a new folder named like markdown", |r| {
            skill(&r.join("skills/drafts.md/fresh"), "fresh", "A fresh skill.", "")
        }),
    ];
    for (what, change) in markdown {
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path().canonicalize().unwrap().join("home");
        home_repo(&home);
        change(&home);
        skill(&home.join("skills/tools/lint"), "lint", "Lint the code base, strictly.", "");
        assert_readings_agree(&engine_of(&home), &home, what);
    }
    // The same in a repository of skills, whose README lies in the root.
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap().join("repo");
    home_repo(&root);
    let folder = root.join("skills");
    write(&folder.join("README.md"), "# Our skills\n\nHow to add one.\n");
    commit(&root);
    write(&folder.join("README.md"), "# Our skills\n\nHow to add one, reviewed.\n");
    skill(&folder.join("tools/lint"), "lint", "Lint the code base, strictly.", "");
    let stand_in = StandInHome::create(&folder, FolderKind::Skills).unwrap();
    assert_readings_agree(&engine_of(&stand_in.home()), &folder, "a README beside the skills");
}

/// A home kept in git ([`new_home`]) whose files beside the skills are
/// committed: a README, a guide, and a credential file the keys skill
/// requires.
fn home_with_files_beside() -> (tempfile::TempDir, std::path::PathBuf) {
    let (tmp, home) = new_home("home");
    write(&home.join("README.md"), "# Our agent's home\n");
    write(&home.join("docs/guide.md"), "How we work.\n");
    write(&home.join("token.json"), "{\"token\": 1}\n");
    skill(&home.join("skills/tools/keys"), "keys", "Rotate API keys.", "required_credential_files: [token.json]\n");
    commit(&home);
    (tmp, home)
}

/// A file in the home (outside the skill folders) is read by no answer
/// unless by its name (config.yaml, .env) or as a credential file a skill
/// names (whether it is there): a README or a guide edited, added or
/// removed, even a skill's credential file whose content alone changed.
#[test]
fn a_file_in_the_home_read_only_by_its_name_leaves_the_walk_standing() {
    let rewritten: [Change; 6] = [
        ("the home's README", |r| write(&r.join("README.md"), "# Our agent's home, reviewed\n")),
        ("a guide in a folder of the home", |r| write(&r.join("docs/guide.md"), "How we work now.\n")),
        ("a credential file a skill requires", |r| write(&r.join("token.json"), "{\"token\": 2}\n")),
        ("the home's README removed", |r| std::fs::remove_file(r.join("README.md")).unwrap()),
        ("a file added at the home's top", |r| write(&r.join("CONTRIBUTING.md"), "Open a pull request.\n")),
        ("a folder of notes added to the home", |r| write(&r.join("notes/2026/december.txt"), "Shipped.\n")),
    ];
    for (what, change) in rewritten {
        let (_tmp, home) = home_with_files_beside();
        change(&home);
        skill(&home.join("skills/tools/lint"), "lint", "Lint the code base, strictly.", "");
        assert_readings_agree(&engine_of(&home), &home, what);
    }
    // A credential file a skill names gone or added (by the skill's edit,
    // or its own), or a file no longer a file.
    let otherwise: [Change; 5] = [
        ("a credential file removed", |r| std::fs::remove_file(r.join("token.json")).unwrap()),
        ("a credential file a skill now names added", |r| {
            write(&r.join("secrets/api.json"), "{}\n");
            skill(
                &r.join("skills/tools/lint"),
                "lint",
                "Lint.",
                "required_credential_files:\n  - path: secrets/api.json\n",
            );
        }),
        ("a credential file another skill names added", |r| {
            write(&r.join("secrets/api.json"), "{}\n");
            skill(&r.join("skills/tools/old"), "old", "Old.", "required_credential_files: [./secrets/api.json]\n");
            commit(r);
            std::fs::remove_file(r.join("secrets/api.json")).unwrap();
        }),
        ("a README replaced by a symlink", |r| {
            std::fs::remove_file(r.join("README.md")).unwrap();
            #[cfg(unix)]
            std::os::unix::fs::symlink("docs/guide.md", r.join("README.md")).unwrap();
        }),
        ("the home's .gitignore", |r| write(&r.join(".gitignore"), "/.env\n/logs/\n*.pyc\n/docs/\n")),
    ];
    for (what, change) in otherwise {
        let (_tmp, home) = home_with_files_beside();
        change(&home);
        let whole = assert_read_whole(&engine_of(&home), &home, what);
        if what == "a credential file removed" {
            let keys = whole.report.skills.iter().find(|s| s.name == "keys").expect("keys changed");
            assert!(keys.fields.iter().any(|f| f.field == "missing_files"), "{what}: {:?}", keys.fields);
        }
    }
}

/// Two revisions compared from the working tree's walk answer what the
/// later one checked out on its own answers against the earlier one, read
/// whole, whatever the working tree holds (uncommitted edits, untracked
/// skills).
#[test]
fn two_revisions_compared_from_the_working_tree() {
    let (tmp, home) = new_home("home");
    let first = git(&home, &["rev-parse", "HEAD"]);
    let all = changes();
    for (_, change) in &all[..6] {
        change(&home);
    }
    commit(&home);
    let second = git(&home, &["rev-parse", "HEAD"]);
    for (_, change) in &all[6..] {
        change(&home);
    }
    commit(&home);
    let third = git(&home, &["rev-parse", "HEAD"]);
    // Uncommitted work in the working tree is no revision's.
    skill(&home.join("skills/devops/deploy"), "deploy", "Deploy, uncommitted.", "");
    skill(&home.join("skills/tools/draft"), "draft", "An untracked skill.", "");
    // A SKILL.md the later commits changed, back in the working tree as the
    // first had it: there the working tree is the earlier revision.
    let changed = git(&home, &["diff", "--name-only", &first, &second]);
    let reverted = changed.lines().find(|p| p.ends_with("/SKILL.md")).expect("a SKILL.md changed");
    let first_text = std::process::Command::new("git")
        .arg("-C")
        .arg(&home)
        .args(["cat-file", "blob", &format!("{first}:{reverted}")])
        .output()
        .unwrap()
        .stdout;
    std::fs::write(home.join(reverted), first_text).unwrap();
    let engine = engine_of(&home);
    let repo = Repo::discover(&home).unwrap();
    for (i, (from, to)) in [(&first, &second), (&second, &third), (&first, &third)].into_iter().enumerate() {
        let overlaid = against_worktree(&engine, &repo, from, Some(to), &home, Severity::Warning)
            .expect("read from the working tree")
            .unwrap();
        // The later revision checked out beside it, the earlier read whole.
        let checkout = tmp.path().canonicalize().unwrap().join(format!("checkout-{i}"));
        git(&home, &["worktree", "add", "-q", "--detach", checkout.to_str().unwrap(), to]);
        ignored_files_of(&home, &checkout);
        let whole = since_reading(&engine_of(&checkout), &checkout, from, Reading::Whole).unwrap();
        let json =
            |r: &skillscope::engine::diff::DiffReport| r.to_json(serde_json::json!(null), serde_json::json!(null));
        let expected = json(&whole.report).to_string().replace(checkout.to_str().unwrap(), home.to_str().unwrap());
        assert_eq!(json(&overlaid.report).to_string(), expected, "{from}..{to}");
    }
}

/// A folder that differs holding a symlink in the revision reads the
/// revision whole: the link may point at what only the whole tree holds.
#[cfg(unix)]
#[test]
fn a_symlink_in_a_folder_that_differs_reads_the_revision_whole() {
    let (_tmp, home) = new_home("home");
    let link = home.join("skills/tools/lint/references/keys.md");
    std::os::unix::fs::symlink("../../keys/references/notes.md", &link).unwrap();
    commit(&home);
    skill(&home.join("skills/tools/lint"), "lint", "Lint, with the keys' notes.", "");
    assert_read_whole(&engine_of(&home), &home, "symlink");
}

/// A path nothing reads matters once a skill's symlink may lead to it: with
/// a symlink in the revision's tree, the revision is read whole.
#[cfg(unix)]
#[test]
fn a_path_nothing_reads_beside_a_symlink_reads_the_revision_whole() {
    let (_tmp, home) = new_home("home");
    write(&home.join("skills/devops/notes.txt"), "shared notes\n");
    let link = home.join("skills/tools/lint/references/shared.txt");
    std::os::unix::fs::symlink("../../../devops/notes.txt", &link).unwrap();
    commit(&home);
    std::fs::remove_file(home.join("skills/devops/notes.txt")).unwrap();
    let engine = engine_of(&home);
    let repo = Repo::discover(&home).unwrap();
    let head = repo.commit("HEAD").unwrap();
    assert!(against_worktree(&engine, &repo, &head, None, &home, Severity::Warning).is_none());
    let since = since_reading(&engine, &home, "HEAD", Reading::Overlaid).unwrap();
    let whole = since_reading(&engine, &home, "HEAD", Reading::Whole).unwrap();
    assert_same_answer(&since, &whole, "link to a stray file");
    let json = |r: &skillscope::engine::diff::DiffReport| r.to_json(serde_json::json!(null), serde_json::json!(null));
    assert!(json(&whole.report).to_string().contains("dangling"), "the link's target is gone: {}", json(&whole.report));
}

/// A small generator of repeatable choices (xorshift64*).
struct Dice(u64);

impl Dice {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
    }

    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[self.below(from.len())]
    }
}

/// Every file of the working tree but git's own, relative to `root`.
fn files_of(root: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if entry.file_name() == ".git" {
                continue;
            }
            match entry.file_type().unwrap() {
                t if t.is_dir() => stack.push(path),
                _ => out.push(path.strip_prefix(root).unwrap().to_string_lossy().into_owned()),
            }
        }
    }
    out.sort();
    out
}

/// One random change: a file written, edited or removed, inside skill
/// folders, beside them, in folders no walk enters, at the home's top,
/// where git ignores it or not.
fn random_change(root: &Path, dice: &mut Dice) {
    let folders = [
        "skills",
        "skills/devops",
        "skills/tools",
        "skills/tools/lint",
        "skills/tools/lint/references",
        "skills/devops/deploy/scripts",
        "skills/notes/old",
        "skills/scratch",
        "skills/data/etl",
        "skills/tools/.venv/lib",
        "skills/node_modules/pkg",
        "shared",
        "shared/team",
        ".github/workflows",
        "logs",
        "",
    ];
    let names = [
        "notes.txt",
        ".DS_Store",
        "todo.md",
        "README.md",
        "deploy.md",
        "legacy.md",
        "LICENSE",
        "run.py",
        "DESCRIPTION.md",
        "SKILL.md",
        "check.yml",
        "cache.pyc",
        ".env",
        "token.json",
    ];
    match dice.below(8) {
        0 | 1 => {
            let (folder, name) = (dice.pick(&folders), dice.pick(&names));
            let text = match name {
                "SKILL.md" => {
                    let n = dice.below(1000);
                    format!("---\nname: made-{n}\ndescription: Made at random.\n---\nSee [lint](../lint/SKILL.md), [x](../../gone-{n}.md).\n")
                }
                "DESCRIPTION.md" => "---\ndescription: A category.\n---\n".to_owned(),
                ".env" => format!("SOME_TOKEN=set-{}\n", dice.below(1000)),
                _ => format!("content {}\n", dice.below(1000)),
            };
            write(&root.join(folder).join(name), &text);
        }
        2 => {
            let files = files_of(root);
            let victim = &files[dice.below(files.len())];
            std::fs::remove_file(root.join(victim)).unwrap();
        }
        3 => {
            // A skill folder moved, removed, or given a nested skill.
            let folders = ["skills/tools/keys", "skills/notes/mismatch", "skills/devops/deploy", "shared/team/review"];
            let from = root.join(dice.pick(&folders));
            if !from.is_dir() {
                return;
            }
            match dice.below(3) {
                0 => {
                    let to = root.join(dice.pick(&["skills/moved", "skills/tools/moved", "shared/moved"]));
                    if !to.exists() {
                        std::fs::rename(&from, &to).unwrap();
                    }
                }
                1 => std::fs::remove_dir_all(&from).unwrap(),
                _ => skill(&from.join("inner"), "inner", "A nested skill.", ""),
            }
        }
        7 => {
            // The settings: which skills are disabled, a skill's setting,
            // where external skills are.
            let disabled = dice.pick(&["[]", "[lint]", "[deploy, review]", "[keys, made-1]", "[moved, inner]"]);
            let external = dice.pick(&["[./shared]", "[./shared]", "[./shared]", "[]"]);
            let vault = dice.pick(&["local", "hsm"]);
            let text =
                format!("skills:\n  external_dirs: {external}\n  disabled: {disabled}\nkeys:\n  vault: {vault}\n");
            write(&root.join("config.yaml"), &text);
        }
        6 => {
            // The home's README rewritten, or the credential file a skill
            // may require written anew or rewritten.
            let name = dice.pick(&["README.md", "token.json"]);
            write(&root.join(name), &format!("content {}\n", dice.below(1000)));
        }
        _ => {
            let names = ["lint", "deploy", "keys", "quick", "fresh", "moved"];
            let name = dice.pick(&names);
            let folder = dice.pick(&["skills/tools/lint", "skills/devops/rollback", "skills/data/new", "skills/quick"]);
            let extra = dice.pick(&[
                "",
                "",
                "platforms: [windows]\n",
                "required_environment_variables:\n  - name: SOME_TOKEN\n",
                "required_credential_files: [token.json]\n",
                "metadata:\n  hermes:\n    tags: [ops]\n",
                "metadata:\n  hermes:\n    config:\n      - key: lint.level\n        description: How strict\n        default: warn\n",
            ]);
            skill(&root.join(folder), name, &format!("Edited {}.", dice.below(1000)), extra);
            #[cfg(unix)]
            if dice.below(8) == 0 {
                let _ =
                    std::os::unix::fs::symlink("../../quick/SKILL.md", root.join(folder).join("references/quick.md"));
            }
        }
    }
}

/// Random changes, some committed, some left in the working tree: wherever
/// the working tree's walk stands for a revision, it answers what the
/// revision written whole answers.
#[test]
fn random_changes_read_from_the_working_tree_answer_as_the_revision_written_whole() {
    let json = |r: &skillscope::engine::diff::DiffReport| r.to_json(serde_json::json!(null), serde_json::json!(null));
    let mut overlaid_taken = 0;
    let seeds = seeds();
    for seed in seeds.clone() {
        let mut dice = Dice(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path().canonicalize().unwrap().join("home");
        home_repo(&home);
        for _ in 0..1 + dice.below(4) {
            random_change(&home, &mut dice);
        }
        commit(&home);
        for _ in 0..1 + dice.below(4) {
            random_change(&home, &mut dice);
        }
        let engine = engine_of(&home);
        let repo = Repo::discover(&home).unwrap();
        for rev in ["HEAD", "HEAD~1"] {
            let commit = repo.commit(rev).unwrap();
            let what = format!("seed {seed}, against {rev}: {:?}", git(&home, &["status", "--short"]));
            let Some(overlaid) = against_worktree(&engine, &repo, &commit, None, &home, Severity::Warning) else {
                continue;
            };
            overlaid_taken += 1;
            let whole = since_reading(&engine, &home, rev, Reading::Whole).unwrap();
            assert_eq!(json(&overlaid.unwrap().report), json(&whole.report), "{what}");
        }
        // The two revisions, from the working tree, against the later one
        // checked out beside it and the earlier read whole.
        let (first, second) = (repo.commit("HEAD~1").unwrap(), repo.commit("HEAD").unwrap());
        let what = format!("seed {seed}, HEAD~1 against HEAD: {:?}", git(&home, &["status", "--short"]));
        if let Some(overlaid) = against_worktree(&engine, &repo, &first, Some(&second), &home, Severity::Warning) {
            let checkout = tmp.path().canonicalize().unwrap().join("checkout");
            git(&home, &["worktree", "add", "-q", "--detach", checkout.to_str().unwrap(), &second]);
            ignored_files_of(&home, &checkout);
            let whole = since_reading(&engine_of(&checkout), &checkout, &first, Reading::Whole).unwrap();
            let expected = json(&whole.report).to_string().replace(checkout.to_str().unwrap(), home.to_str().unwrap());
            assert_eq!(json(&overlaid.unwrap().report).to_string(), expected, "{what}");
        }
    }
    // Many of the changes leave the working tree's walk standing (47 of 64
    // when written); the rest are read whole.
    let asked = 2 * seeds.count();
    assert!(overlaid_taken >= asked / 2, "read from the working tree {overlaid_taken} times of {asked}");
}

/// The random test's seeds: 1 to 32, or `SKILLSCOPE_OVERLAY_SEEDS=FIRST..=LAST`
/// to search further.
fn seeds() -> std::ops::RangeInclusive<u64> {
    let Ok(range) = std::env::var("SKILLSCOPE_OVERLAY_SEEDS") else { return 1..=32 };
    let parsed = range.split_once("..=").and_then(|(a, b)| Some((a.trim().parse().ok()?, b.trim().parse().ok()?)));
    let seeds = parsed.map(|(first, last)| first..=last).filter(|seeds| !seeds.is_empty());
    seeds.unwrap_or_else(|| panic!("SKILLSCOPE_OVERLAY_SEEDS={range:?}: expected FIRST..=LAST, FIRST at most LAST"))
}

/// What the working tree's reading answers for `home` against HEAD (the
/// revision read whole must answer the same).
fn report_against_head(home: &Path) -> serde_json::Value {
    let engine = engine_of(home);
    let repo = Repo::discover(home).unwrap();
    let head = repo.commit("HEAD").unwrap();
    let overlaid = against_worktree(&engine, &repo, &head, None, home, Severity::Warning)
        .expect("read from the working tree")
        .unwrap();
    let report = overlaid.report.to_json(serde_json::json!(null), serde_json::json!(null));
    let whole = since_reading(&engine, home, "HEAD", Reading::Whole).unwrap();
    assert_eq!(report, whole.report.to_json(serde_json::json!(null), serde_json::json!(null)));
    report
}

fn changed_skill<'r>(report: &'r serde_json::Value, folder: &str) -> Option<&'r serde_json::Value> {
    report["skills"].as_array().unwrap().iter().find(|s| s["folder"] == folder)
}

/// A skill whose files and answers stay the same still changes for the
/// agent when another skill's folder now lies at the same place below
/// another root: its `/name` message loads it by that path, which is now
/// ambiguous.
#[test]
fn a_message_another_skill_now_makes_ambiguous_is_shown() {
    let (_tmp, home) = new_home("home");
    skill(&home.join("shared/moved"), "shared-one", "Named otherwise than its folder.", "");
    commit(&home);
    std::fs::rename(home.join("skills/notes/old"), home.join("skills/moved")).unwrap();
    let report = report_against_head(&home);
    let shared_one = changed_skill(&report, "shared/moved").expect("shared-one is shown as changed");
    assert_eq!(shared_one["fields"].as_object().unwrap().keys().collect::<Vec<_>>(), ["message"], "{shared_one}");
    let message = &shared_one["fields"]["message"];
    assert!(message["before"].is_string() && message["after"].is_null(), "{shared_one}");
}

/// A bundle member without a slash command has no message of its own to
/// show a change in its folder: the bundle's message shows it.
#[test]
fn a_bundle_member_without_a_command_changes_its_bundle() {
    let (_tmp, home) = new_home("home");
    // `/rollback` is one of Hermes' own commands: the skill gets none.
    std::fs::remove_file(home.join("skills/devops/rollback/references/notes.md")).unwrap();
    let report = report_against_head(&home);
    assert!(changed_skill(&report, "skills/devops/rollback").is_none(), "{report}");
    let bundles = report["bundles"].as_array().unwrap();
    assert!(bundles.iter().any(|b| b["bundle"] == "/release"), "{report}");
}

/// Files git ignores (the keys in `.env`, logs, caches) are the same in
/// both states, as a checkout of the revision leaves them: written, they
/// change nothing, and a revision read whole has them too, so a change
/// elsewhere does not show a skill's keys as missing before.
#[test]
fn files_git_ignores_are_the_same_in_both_states() {
    let (_tmp, home) = new_home("home");
    write(&home.join("logs/second.log"), "more\n");
    write(&home.join("skills/tools/keys/scripts/rotate.pyc"), "\0");
    write(&home.join(".env"), "KEYS_TOKEN=set\nLINT_KEY=set\n");
    let report = report_against_head(&home);
    assert_eq!(report["skills"], serde_json::json!([]), "{report}");

    write(&home.join("config.yaml"), "skills:\n  external_dirs:\n    - ./shared\n  disabled: [lint]\n");
    let engine = engine_of(&home);
    let whole = since_reading(&engine, &home, "HEAD", Reading::Whole).unwrap();
    let changed: Vec<&str> = whole.report.skills.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(changed, ["lint"], "{:?}", whole.report.skills);
}

/// A legacy flat file a bundle names, in a skill folder that differs: the
/// revision's is found in its copy and loaded from the folder it stands for.
#[test]
fn a_legacy_flat_file_in_a_folder_that_differs() {
    let (_tmp, home) = new_home("home");
    write(&home.join("skills/tools/lint/legacy.md"), "---\nname: legacy\ndescription: Old style.\n---\nBody.\n");
    commit(&home);
    skill(&home.join("skills/tools/lint"), "lint", "Lint and format the code base.", "");
    // Listed with the legacy file's folder: the revision's copy has none.
    write(&home.join("skills/tools/lint/references/new.md"), "New.\n");
    // Another member changed: the bundle is rendered again in both states.
    skill(&home.join("skills/devops/deploy"), "deploy", "Deploy the app, carefully.", "");
    assert_readings_agree(&engine_of(&home), &home, "legacy flat file");
}

/// An ignored symlink in a folder that differs may point at what only the
/// whole tree holds (a relative link leads elsewhere from the copy): the
/// revision is read whole.
#[cfg(unix)]
#[test]
fn an_ignored_symlink_in_a_folder_that_differs_reads_the_revision_whole() {
    let (_tmp, home) = new_home("home");
    let link = home.join("skills/tools/lint/scripts/keys.pyc");
    std::os::unix::fs::symlink("../../keys/references/notes.md", &link).unwrap();
    skill(&home.join("skills/tools/lint"), "lint", "Lint, beside the keys' notes.", "");
    assert_read_whole(&engine_of(&home), &home, "ignored symlink");
}

/// A skill git tracked inside a folder it ignores, removed since: the
/// earlier revision's copy of its folder is given that folder's ignored
/// files, not the whole ignored folder's (git names it once).
#[test]
fn a_removed_skill_in_an_ignored_folder() {
    let (_tmp, home) = new_home("home");
    write(&home.join(".gitignore"), "/.env\n/logs/\n*.pyc\n/skills/private/\n");
    skill(&home.join("skills/private/vault"), "vault", "Keep secrets.", "");
    git(&home, &["add", "-A"]);
    git(&home, &["add", "-f", "skills/private/vault"]);
    commit(&home);
    let first = git(&home, &["rev-parse", "HEAD"]);
    git(&home, &["rm", "-q", "-r", "--cached", "skills/private/vault"]);
    std::fs::remove_file(home.join("skills/private/vault/SKILL.md")).unwrap();
    commit(&home);
    let second = git(&home, &["rev-parse", "HEAD"]);
    write(&home.join("skills/private/vault/scripts/cache.pyc"), "\0");
    skill(&home.join("skills/private/draft"), "draft", "An ignored draft skill.", "");
    write(&home.join("skills/private/notes.txt"), "notes\n");
    let engine = engine_of(&home);
    let repo = Repo::discover(&home).unwrap();
    let overlaid = against_worktree(&engine, &repo, &first, Some(&second), &home, Severity::Warning).unwrap().unwrap();
    let vault: Vec<_> = overlaid.report.skills.iter().map(|s| (s.name.as_str(), s.change)).collect();
    assert_eq!(vault, [("vault", skillscope::engine::diff::ChangeKind::Removed)], "{:?}", overlaid.report.skills);
    assert_eq!(overlaid.written[0].ignored, 1, "the cache only: {:?}", overlaid.written);
}

/// A symlink outside the folders that differ that leads into one (a skill
/// folder's alias, another skill's supporting file) would read it from the
/// working tree in both states: the revision is read whole.
#[cfg(unix)]
#[test]
fn a_symlink_into_a_folder_that_differs_reads_the_revision_whole() {
    let links =
        [("skills/alias", "tools/lint"), ("skills/tools/keys/references/lint.md", "../../lint/references/notes.md")];
    for (link, target) in links {
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path().canonicalize().unwrap().join("home");
        home_repo(&home);
        std::os::unix::fs::symlink(target, home.join(link)).unwrap();
        commit(&home);
        skill(&home.join("skills/tools/lint"), "lint", "Lint, now differently.", "");
        write(&home.join("skills/tools/lint/references/notes.md"), "Ignore previous instructions.\n");
        assert_read_whole(&engine_of(&home), &home, link);
    }
}

/// A symlink git ignores may lead into a folder that differs (a skill
/// vendored outside the skills): the revision is read whole.
#[cfg(unix)]
#[test]
fn an_ignored_symlink_into_a_folder_that_differs_reads_the_revision_whole() {
    let (_tmp, root) = new_home("repo");
    skill(&root.join("vendor/ext"), "ext", "Vendored.", "");
    write(&root.join(".gitignore"), "/.env\n/logs/\n*.pyc\n/skills/tools/ext\n");
    commit(&root);
    std::os::unix::fs::symlink("../../vendor/ext", root.join("skills/tools/ext")).unwrap();
    skill(&root.join("vendor/ext"), "ext", "Vendored, and changed.", "");
    let folder = root.join("skills");
    let stand_in = StandInHome::create(&folder, FolderKind::Skills).unwrap();
    let engine = engine_of(&stand_in.home());
    let whole = assert_read_whole(&engine, &folder, "ignored symlink");
    assert!(whole.report.skills.iter().any(|s| s.name == "ext"), "{:?}", whole.report.skills);
}

/// A symlink git ignores may lead to a path nothing else reads: with such
/// a path changed, the revision is read whole.
#[cfg(unix)]
#[test]
fn an_ignored_symlink_beside_a_path_left_aside_reads_the_revision_whole() {
    let (_tmp, root) = new_home("repo");
    write(&root.join("vendor/notes.md"), "Vendored notes.\n");
    write(&root.join(".gitignore"), "/.env\n/logs/\n*.pyc\nvendored.md\n");
    commit(&root);
    let link = root.join("skills/tools/keys/references/vendored.md");
    std::os::unix::fs::symlink("../../../../vendor/notes.md", link).unwrap();
    write(&root.join("vendor/notes.md"), "Vendored notes, changed.\n");
    let folder = root.join("skills");
    let stand_in = StandInHome::create(&folder, FolderKind::Skills).unwrap();
    assert_read_whole(&engine_of(&stand_in.home()), &folder, "ignored symlink beside a path left aside");
}

/// A tracked symlink leading out of the repository (a skill kept beside
/// it) leads there from the revision's copy too: read whole, the
/// revision has the skill as the working tree has it.
#[cfg(unix)]
#[test]
fn a_tracked_symlink_out_of_the_repository_leads_there_from_the_revision() {
    let (tmp, home) = new_home("home");
    skill(&tmp.path().canonicalize().unwrap().join("beside/ext"), "ext", "Kept beside the repository.", "");
    std::os::unix::fs::symlink("../../../beside/ext", home.join("skills/tools/ext")).unwrap();
    commit(&home);
    write(&home.join("config.yaml"), "skills:\n  disabled: [lint]\n");
    let whole = assert_read_whole(&engine_of(&home), &home, "a link out of the repository");
    let names: Vec<&str> = whole.report.skills.iter().map(|s| s.name.as_str()).collect();
    assert!(names.contains(&"lint") && !names.contains(&"ext"), "{names:?}");
}

/// A skill's references out of its folder (another skill's files, there
/// or not) are not its own files: the folder's copy, beside no other
/// folder, answers as the revision written whole.
#[test]
fn references_out_of_a_folder_that_differs() {
    let (_tmp, home) = new_home("home");
    let lint = |description: &str| {
        let body = "See [deploy](../../devops/deploy/SKILL.md), [keys](../keys/references/notes.md), [x](../gone.md).";
        write(
            &home.join("skills/tools/lint/SKILL.md"),
            &format!("---\nname: lint\ndescription: {description}\n---\n{body}\n"),
        );
    };
    lint("Lint.");
    commit(&home);
    lint("Lint, now differently.");
    assert_readings_agree(&engine_of(&home), &home, "references out of the folder");
}

/// A skill's message names the home's config.yaml; a home at the
/// repository's top read from a revision written whole names it as the
/// working tree does (not `{home}//config.yaml`), so a settings change
/// leaves that skill unchanged.
#[test]
fn a_home_at_the_top_read_whole_names_its_config_as_the_working_tree_does() {
    let (_tmp, home) = new_home("home");
    let settings = "metadata:\n  hermes:\n    config:\n      - key: lint.level\n        description: How strict\n        default: warn\n";
    skill(&home.join("skills/tools/lint"), "lint", "Lint the code base.", settings);
    commit(&home);
    write(&home.join("config.yaml"), "skills:\n  external_dirs:\n    - ./shared\n  disabled: [old]\n");
    let engine = engine_of(&home);
    let whole = since_reading(&engine, &home, "HEAD", Reading::Whole).unwrap();
    let changed: Vec<&str> = whole.report.skills.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(changed, ["old"], "{:?}", whole.report.skills.iter().map(|s| s.message_diff()).collect::<Vec<_>>());
}

/// Between two revisions, files neither has are looked for where the walk
/// reads and outside the skill roots only: the working tree's walk still
/// stands for the later one, and they are in neither state. (One read
/// beside the skill folders, a bundle or a category's description, has
/// the revisions read whole: `tests/diff.rs` holds that answer.)
#[test]
fn untracked_files_leave_two_revisions_read_from_the_working_tree() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().canonicalize().unwrap().join("home");
    home_repo(&home);
    commit(&home);
    skill(&home.join("skills/tools/lint"), "lint", "Lints, edited.", "");
    commit(&home);
    let json = |r: &skillscope::engine::diff::DiffReport| r.to_json(serde_json::json!(null), serde_json::json!(null));
    let repo = Repo::discover(&home).unwrap();
    let (first, second) = (repo.commit("HEAD~1").unwrap(), repo.commit("HEAD").unwrap());
    let read = || {
        let engine = engine_of(&home);
        let overlaid = against_worktree(&engine, &repo, &first, Some(&second), &home, Severity::Warning);
        json(&overlaid.expect("read from the working tree").unwrap().report)
    };
    let clean = read();
    skill(&home.join("skills/tools/fresh"), "fresh", "No revision has it.", "");
    skill(&home.join("skills/brand-new/one"), "lint", "Takes a name.", "");
    write(&home.join("skills/tools/lint/references/extra.md"), "# extra\n");
    write(&home.join("skills/notes/old/references/extra.md"), "# extra\n");
    assert_eq!(read(), clean);
}
