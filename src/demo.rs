//! The demo home, embedded in the binary so an installed skillscope can
//! show every feature without a Hermes home. It is written to a temporary
//! folder (the engine reads real files) that is removed on exit.

use include_dir::{include_dir, Dir};
use std::io;
use std::path::{Path, PathBuf};

static DEMO: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/assets/demo/home");
/// The demo database, built from SQL at start so the repository holds text.
const DEMO_DB_SQL: &str = include_str!("../assets/demo/skills-db.sql");
/// The demo browses as this user, with the demo database, to show the layers.
pub const USER: &str = "demo";

/// Shown at the top of the screen while the demo home is open.
/// Short enough for an 80-column terminal, where a newcomer reads it first.
pub const BANNER: &str = "Demo home (user demo). Open yours: --home PATH, or HERMES_HOME (~/.hermes).";

/// Room the demo home takes at most, in git with its database.
const DEMO_ROOM: u64 = 8 << 20;
const PREFIX: &str = "skillscope-demo-";

/// A demo home on disk, removed when dropped.
pub struct DemoHome {
    dir: crate::scratch::ScratchDir,
}

impl DemoHome {
    /// The demo home in the temporary folder.
    pub fn create() -> io::Result<DemoHome> {
        DemoHome::create_in(crate::scratch::ScratchDir::new(PREFIX)?)
    }

    fn create_in(dir: crate::scratch::ScratchDir) -> io::Result<DemoHome> {
        write_dir(&DEMO, &dir.path().join("home"))?;
        let db = rusqlite::Connection::open(dir.path().join("skills.db")).map_err(io::Error::other)?;
        db.execute_batch(DEMO_DB_SQL).map_err(io::Error::other)?;
        Ok(DemoHome { dir })
    }

    /// The demo home kept in git, its last commit the demo a change ago:
    /// `diff --demo` and `--demo --since HEAD` show what that change does
    /// (a description edited, a skill disabled, a skill added). Needs the
    /// `git` command; the user's git settings and hooks are left out.
    ///
    /// Written in memory where it can be: the browser removes it as it
    /// exits, and removing its files from a disk can hold the exit half a
    /// second (ext4 mounted with `discard`).
    pub fn create_in_git() -> io::Result<DemoHome> {
        let dir = match crate::scratch::in_memory(DEMO_ROOM) {
            Some(memory) => crate::scratch::ScratchDir::new_in(PREFIX, memory)?,
            None => crate::scratch::ScratchDir::new(PREFIX)?,
        };
        let demo = DemoHome::create_in(dir)?;
        let home = demo.home();
        let git = |args: &[&str]| -> io::Result<()> {
            let out = std::process::Command::new("git")
                .arg("-C")
                .arg(&home)
                .args(["-c", "user.name=skillscope demo", "-c", "user.email=demo@skillscope.invalid"])
                .args(["-c", "commit.gpgsign=false", "-c", "core.hooksPath=/dev/null"])
                .args(args)
                .env("GIT_CONFIG_NOSYSTEM", "1")
                .env("GIT_CONFIG_GLOBAL", "/dev/null")
                .output()?;
            match out.status.success() {
                true => Ok(()),
                false => Err(io::Error::other(format!(
                    "git {}: {}",
                    args.join(" "),
                    String::from_utf8_lossy(&out.stderr).trim()
                ))),
            }
        };
        git(&["init", "-q", "-b", "main"])?;
        let edit = |rel: &str, now: &str, before: &str| -> io::Result<()> {
            let path = home.join(rel);
            let text = std::fs::read_to_string(&path)?;
            match text.contains(now) {
                true => std::fs::write(&path, text.replacen(now, before, 1)),
                false => Err(io::Error::other(format!("the demo's {rel} no longer holds {now:?}"))),
            }
        };
        let described = "description: Summarise a research paper into a one-page brief";
        edit("skills/research/paper-summary/SKILL.md", described, "description: Summarise papers")?;
        edit("config.yaml", "  disabled:\n    - legacy-notes\n", "")?;
        std::fs::remove_dir_all(home.join("skills/devops/cloud"))?;
        git(&["add", "-A"])?;
        git(&["commit", "-q", "-m", "The demo home, a change ago"])?;
        write_dir(&DEMO, &home)?;
        Ok(demo)
    }

    pub fn home(&self) -> PathBuf {
        self.dir.path().join("home")
    }

    /// The SQLite file holding the demo's database skills.
    pub fn db(&self) -> PathBuf {
        self.dir.path().join("skills.db")
    }
}

/// Writes `dir` at `target`, whose parent exists: a scratch folder removed
/// meanwhile (the process ending on a signal) is not made again.
fn write_dir(dir: &Dir<'_>, target: &Path) -> io::Result<()> {
    match std::fs::create_dir(target) {
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists && target.is_dir() => {}
        made => made?,
    }
    for file in dir.files() {
        let name = file.path().file_name().unwrap_or_default();
        let path = target.join(name);
        std::fs::write(&path, file.contents())?;
        #[cfg(unix)]
        if path.extension().is_some_and(|e| e == "sh") {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))?;
        }
    }
    for sub in dir.dirs() {
        let name = sub.path().file_name().unwrap_or_default();
        write_dir(sub, &target.join(name))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn demo_home_is_complete() {
        let demo = DemoHome::create().expect("demo");
        let home = demo.home();
        assert!(home.join("config.yaml").is_file());
        assert!(home.join("skills/devops/deploy-service/SKILL.md").is_file());
        assert!(home.join("team-skills/review/code-review/SKILL.md").is_file());
        assert!(home.join("skill-bundles/ship.yaml").is_file());
        assert!(home.join("users/demo/skills/personal/standup/SKILL.md").is_file());
        let rows = crate::engine::layers::read_db(&demo.db().into(), USER);
        assert_eq!(rows.problem, None);
        let names: Vec<&str> = rows.skills.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["meeting-notes", "standup"]);
    }

    #[test]
    fn the_demo_in_git_differs_from_its_last_commit_as_a_change_would() {
        let demo = DemoHome::create_in_git().expect("demo in git");
        let home = demo.home();
        let git = |args: &[&str]| {
            let out = std::process::Command::new("git").arg("-C").arg(&home).args(args).output().unwrap();
            String::from_utf8(out.stdout).unwrap()
        };
        assert_eq!(git(&["rev-list", "--count", "HEAD"]).trim(), "1");
        let status = git(&["status", "--porcelain", "--untracked-files=all"]);
        let mut changed: Vec<&str> = status.lines().map(|l| &l[3..]).collect();
        changed.sort();
        let expected =
            ["config.yaml", "skills/devops/cloud/aws/s3-sync/SKILL.md", "skills/research/paper-summary/SKILL.md"];
        assert_eq!(changed, expected);
        // The working tree is the demo itself.
        let written = std::fs::read_to_string(home.join("config.yaml")).unwrap();
        assert_eq!(written.as_bytes(), DEMO.get_file("config.yaml").unwrap().contents());
    }
}
