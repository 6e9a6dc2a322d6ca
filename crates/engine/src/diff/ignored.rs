//! Files git ignores are the agent's surroundings, not the change: a
//! Hermes home kept in git ignores its `.env`, `auth.json`, `logs/`, and a
//! checkout of another revision leaves them where they are. So a
//! revision's copy is given the working tree's ignored files wherever the
//! revision has nothing at their path, and `diff` never reports that a
//! revision lacks the keys the agent has.

use super::git::{stood_in, GitError, Repo, Written};
use crate::discover::is_excluded_name;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// How many ignored files and folders are taken into a copy at most (a
/// home's `sessions/` may hold many); the rest are said to be left out.
pub const CARRIED_AT_MOST: usize = 10_000;

impl Repo {
    /// The files git ignores in the work tree (a wholly ignored folder named
    /// once), below the repository's `within` paths, or anywhere when none
    /// are given.
    pub fn ignored(&self, within: &[&str]) -> Result<BTreeSet<String>, GitError> {
        let mut args = vec!["ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory"];
        let literal: Vec<String> = within.iter().map(|p| format!(":(literal){p}")).collect();
        if !within.is_empty() {
            args.push("--");
            args.extend(literal.iter().map(String::as_str));
        }
        super::git::run(&self.root, &args).map(|out| super::git::names(&out))
    }

    /// Copies the work tree's ignored `paths` ([`Repo::ignored`]) into
    /// `dest`, a revision's copy, where it has nothing at the same path (a
    /// checkout would put the revision's file there). Folders no walk
    /// enters (`.venv`, `node_modules`, ...) are left out, large files
    /// stand in as [`Repo::write_entries`] has them, symlinks are copied
    /// as links; what cannot be copied is left out.
    ///
    /// Those at or below the folders `first` (absolute, in the work tree:
    /// where skills are walked) and the files at the top are taken before
    /// the rest, and each part
    /// breadth first (the files git names, a home's `.env`, before what deep
    /// folders hold): past [`CARRIED_AT_MOST`], what is left out is what is
    /// least likely read (a home's `sessions/`, `logs/`).
    pub fn carry_ignored(&self, paths: &BTreeSet<String>, first: &[PathBuf], dest: &Path, written: &mut Written) {
        // The top's own files (a home's `.env`, `auth.json`) come first too.
        let near = |rel: &String| {
            let path = self.root.join(rel);
            let top_file = !rel.contains('/') && std::fs::symlink_metadata(&path).is_ok_and(|m| !m.is_dir());
            top_file || first.iter().any(|f| path.starts_with(f) || f.starts_with(&path))
        };
        let (near, far): (Vec<&String>, Vec<&String>) = paths.iter().partition(|p| near(p));
        let mut taken = 0usize;
        for part in [near, far] {
            if !self.carry_breadth_first(part.into_iter().cloned().collect(), dest, written, &mut taken) {
                return;
            }
        }
    }

    /// [`Repo::carry_ignored`] for one part; false once the most were taken.
    fn carry_breadth_first(
        &self,
        mut pending: std::collections::VecDeque<String>,
        dest: &Path,
        written: &mut Written,
        taken: &mut usize,
    ) -> bool {
        while let Some(rel) = pending.pop_front() {
            if !super::git::stays_inside(&rel) || rel.split('/').any(is_excluded_name) {
                continue;
            }
            // A folder on the way that the revision has as a symlink would
            // lead the copy out of `dest`.
            if !through_folders_only(dest, &rel) {
                continue;
            }
            let (from, to) = (self.root.join(&rel), dest.join(&rel));
            let Ok(meta) = std::fs::symlink_metadata(&from) else { continue };
            let into_folder = match std::fs::symlink_metadata(&to) {
                Ok(there) if there.is_dir() && meta.is_dir() => true,
                Ok(_) => continue,
                Err(_) => false,
            };
            *taken += 1;
            if *taken > CARRIED_AT_MOST {
                written.ignored_left_out = true;
                return false;
            }
            if meta.is_dir() {
                if !into_folder && crate::paths::create_dirs_below(dest, &to).is_err() {
                    continue;
                }
                let Ok(entries) = std::fs::read_dir(&from) else { continue };
                let mut names: Vec<String> = entries
                    .filter_map(|e| e.ok()?.file_name().into_string().ok())
                    .map(|name| format!("{rel}/{name}"))
                    .collect();
                names.sort_unstable();
                pending.extend(names);
                continue;
            }
            if to.parent().is_some_and(|parent| crate::paths::create_dirs_below(dest, parent).is_err()) {
                continue;
            }
            let copied = if meta.is_symlink() {
                std::fs::read_link(&from).and_then(|target| {
                    super::git::symlink(&super::git::target_from_copy(&self.root, &rel, &target), &to)
                })
            } else if meta.is_file() && stood_in(&rel, meta.len()) {
                written.not_read.push(rel.clone());
                std::fs::File::create(&to).and_then(|f| f.set_len(meta.len()))
            } else if meta.is_file() {
                std::fs::copy(&from, &to).map(|_| ())
            } else {
                continue;
            };
            if copied.is_ok() {
                written.ignored += 1;
                written.ignored_links += usize::from(meta.is_symlink());
                if rel == "SKILL.md" || rel.ends_with("/SKILL.md") {
                    written.ignored_skills.push(rel);
                }
            }
        }
        true
    }
}

/// Whether every folder on the way from `dest` to `rel` (below it) is a
/// real folder or not there yet: none is a symlink.
fn through_folders_only(dest: &Path, rel: &str) -> bool {
    let mut at = dest.to_path_buf();
    let parts: Vec<&str> = rel.split('/').collect();
    for part in &parts[..parts.len().saturating_sub(1)] {
        at.push(part);
        match std::fs::symlink_metadata(&at) {
            Ok(meta) if meta.file_type().is_symlink() => return false,
            Ok(_) => {}
            Err(_) => return true,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::git::LARGE_BLOB_BYTES;

    fn write(path: &Path, bytes: &[u8]) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }

    #[test]
    fn ignored_files_are_copied_where_the_revision_has_none() {
        let work = tempfile::tempdir().unwrap();
        let top = work.path().canonicalize().unwrap();
        let init = std::process::Command::new("git").arg("-C").arg(&top).args(["init", "-q"]).status().unwrap();
        assert!(init.success());
        write(&top.join(".gitignore"), b"*.log\n/cache/\n/.venv/\nbig.bin\n");
        write(&top.join("run.log"), b"run");
        write(&top.join("kept.log"), b"working tree");
        write(&top.join("cache/a/b.txt"), b"cached");
        write(&top.join(".venv/lib.py"), b"left out");
        write(&top.join("big.bin"), &vec![1u8; (LARGE_BLOB_BYTES + 1) as usize]);
        write(&top.join("tracked.txt"), b"not ignored");
        #[cfg(unix)]
        std::os::unix::fs::symlink("run.log", top.join("link.log")).unwrap();
        let repo = Repo { root: top.clone(), shallow: false };

        let ignored = repo.ignored(&[]).unwrap();
        assert!(ignored.contains("run.log") && ignored.contains("cache") && !ignored.contains("tracked.txt"));
        let dest = tempfile::tempdir().unwrap();
        write(&dest.path().join("kept.log"), b"revision");
        let mut written = Written::default();
        repo.carry_ignored(&ignored, &[], dest.path(), &mut written);

        let read = |rel: &str| std::fs::read(dest.path().join(rel)).ok();
        assert_eq!(read("run.log").as_deref(), Some(&b"run"[..]));
        assert_eq!(read("cache/a/b.txt").as_deref(), Some(&b"cached"[..]));
        assert_eq!(read("kept.log").as_deref(), Some(&b"revision"[..]), "the revision's file stays");
        assert_eq!(read(".venv/lib.py"), None, "no walk enters .venv");
        assert_eq!(read("tracked.txt"), None, "not ignored: part of the change");
        let big = std::fs::metadata(dest.path().join("big.bin")).unwrap();
        assert_eq!(big.len(), LARGE_BLOB_BYTES + 1);
        assert_eq!(written.not_read, ["big.bin"]);
        #[cfg(unix)]
        {
            let link = dest.path().join("link.log");
            assert_eq!(std::fs::read_link(link).unwrap(), Path::new("run.log"), "copied as a link");
            assert_eq!((written.ignored, written.ignored_links, written.ignored_left_out), (4, 1, false));
        }

        // A folder the copy has as a symlink is not followed out of it.
        #[cfg(unix)]
        {
            let outside = tempfile::tempdir().unwrap();
            let copy = tempfile::tempdir().unwrap();
            write(&top.join("sub/deep.log"), b"deep");
            std::os::unix::fs::symlink(outside.path(), copy.path().join("sub")).unwrap();
            let ignored = repo.ignored(&[]).unwrap();
            assert!(ignored.contains("sub/deep.log"), "{ignored:?}");
            repo.carry_ignored(&ignored, &[], copy.path(), &mut Written::default());
            assert_eq!(std::fs::read_dir(outside.path()).unwrap().count(), 0, "nothing written through the link");
            assert!(copy.path().join("run.log").exists());
        }

        // Beyond the most taken, what lies nearest the top is taken first.
        let mut few = Written::default();
        let deep = (0..CARRIED_AT_MOST).map(|i| format!("cache/deep/{i}.txt"));
        for rel in deep {
            write(&top.join(&rel), b"");
        }
        let other = tempfile::tempdir().unwrap();
        write(&top.join("skills/x/cache.log"), b"in a skill");
        let first = [top.join("skills")];
        repo.carry_ignored(&repo.ignored(&[]).unwrap(), &first, other.path(), &mut few);
        assert!(few.ignored_left_out);
        assert!(other.path().join("run.log").exists() && other.path().join("kept.log").exists());
        assert!(other.path().join("skills/x/cache.log").exists(), "where skills are walked comes first");

        let within = repo.ignored(&["cache"]).unwrap();
        assert_eq!(within.into_iter().collect::<Vec<_>>(), ["cache"]);
    }
}
