//! The demo home, embedded in the binary so an installed skillscope can
//! show every feature without a Hermes home. It is written to a temporary
//! folder (the engine reads real files) that is removed on exit.

use include_dir::{include_dir, Dir};
use std::io;
use std::path::{Path, PathBuf};

static DEMO: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/assets/demo/home");

/// Shown at the top of the screen while the demo home is open.
pub const BANNER: &str =
    "Demo home: example skills. Open yours with --home PATH, or set HERMES_HOME (default ~/.hermes).";

/// A demo home on disk, removed when dropped.
pub struct DemoHome {
    dir: tempfile::TempDir,
}

impl DemoHome {
    pub fn create() -> io::Result<DemoHome> {
        let dir = tempfile::Builder::new().prefix("skillscope-demo-").tempdir()?;
        write_dir(&DEMO, &dir.path().join("home"))?;
        Ok(DemoHome { dir })
    }

    pub fn home(&self) -> PathBuf {
        self.dir.path().join("home")
    }
}

fn write_dir(dir: &Dir<'_>, target: &Path) -> io::Result<()> {
    std::fs::create_dir_all(target)?;
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
    }
}
