//! Git LFS files in a written revision. Git stores an LFS file as a small
//! pointer (its object's sha256 and size); a checkout where git-lfs is set
//! up writes the object itself, from the local LFS store. A copy written
//! from git's objects holds the pointer, which the guard would size and
//! scan in place of the file: where git-lfs is set up and the path's
//! attributes name `filter=lfs`, the pointer is replaced as a checkout
//! would replace it, reading the local store only (nothing is fetched).

use super::git::{is_deciding, run, stood_in, GitError, Repo, Written};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// The first line of every pointer (the spec's version 1).
const VERSION: &str = "version https://git-lfs.github.com/spec/v1";

/// Pointers are smaller than this (the spec's limit).
const POINTER_BYTES_BELOW: usize = 1024;

/// The object a pointer stands for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Pointer {
    /// Lowercase hex sha256 of the object.
    pub(super) oid: String,
    pub(super) size: u64,
}

/// A pointer written into a copy: its path (relative to the repository's
/// top), mode and object.
pub(super) struct PointerFile {
    pub(super) path: String,
    pub(super) mode: String,
    pub(super) pointer: Pointer,
}

/// The object `content` points to, when it is an LFS pointer.
pub(super) fn pointer(content: &[u8]) -> Option<Pointer> {
    if content.len() >= POINTER_BYTES_BELOW || !content.starts_with(VERSION.as_bytes()) {
        return None;
    }
    let text = std::str::from_utf8(content).ok()?.strip_suffix('\n')?;
    let mut lines = text.split('\n');
    if lines.next()? != VERSION {
        return None;
    }
    let (mut oid, mut size) = (None, None);
    for line in lines {
        let (key, value) = line.split_once(' ')?;
        match key {
            "oid" => {
                let hex = value.strip_prefix("sha256:")?;
                let lower_hex = |b: u8| b.is_ascii_digit() || (b'a'..=b'f').contains(&b);
                oid = (hex.len() == 64 && hex.bytes().all(lower_hex)).then(|| hex.to_owned());
            }
            "size" => size = value.bytes().all(|b| b.is_ascii_digit()).then(|| value.parse().ok()).flatten(),
            _ => {}
        }
    }
    Some(Pointer { oid: oid?, size: size? })
}

/// Replaces the pointers written into `dest` as a checkout would where
/// git-lfs is set up: by the object from the local store, or, where the
/// store lacks it (diff fetches none) or it is large, by a file of its
/// size (said in `written`). A file that decides a skill whose object the
/// store lacks is an error. Nothing changes where git-lfs is not set up:
/// a checkout writes the pointer too.
pub(super) fn smudge(
    repo: &Repo,
    pointers: Vec<PointerFile>,
    dest: &Path,
    written: &mut Written,
) -> Result<(), GitError> {
    if pointers.is_empty() {
        return Ok(());
    }
    let Some(store) = store(repo)? else { return Ok(()) };
    let filtered = filtered_by_lfs(repo, pointers.iter().map(|p| p.path.as_str()))?;
    for PointerFile { path, mode, pointer } in pointers.into_iter().filter(|p| filtered.contains(&p.path)) {
        let target = dest.join(&path);
        let object = store.join(&pointer.oid[..2]).join(&pointer.oid[2..4]).join(&pointer.oid);
        let large = stood_in(&path, pointer.size);
        let stored = !large && std::fs::metadata(&object).is_ok_and(|m| m.is_file() && m.len() == pointer.size);
        if !stored && !large && is_deciding(&path) {
            return Err(GitError::LfsAbsent { path, oid: pointer.oid });
        }
        // The pointer goes first: a file of our own is written, never
        // through a link, and the object in the store is left as it is.
        std::fs::remove_file(&target)?;
        if stored {
            std::fs::write(&target, std::fs::read(&object)?)?;
        } else {
            std::fs::File::create(&target)?.set_len(pointer.size)?;
            match large {
                true => written.not_read.push(path),
                false => written.lfs_absent.push(path),
            }
        }
        #[cfg(unix)]
        if mode == "100755" {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o755))?;
        }
        #[cfg(not(unix))]
        let _ = mode;
    }
    Ok(())
}

/// The local LFS store's objects folder, when git-lfs is set up for the
/// repository (a smudge filter or process configured): `lfs.storage`
/// (relative to the common git folder) or `lfs` there.
fn store(repo: &Repo) -> Result<Option<PathBuf>, GitError> {
    let pattern = r"^(filter\.lfs\.(process|smudge)|lfs\.storage)$";
    // `git config` exits 1 when nothing matches.
    let Ok(listed) = run(&repo.root, &["config", "-z", "--get-regexp", pattern]) else { return Ok(None) };
    let mut storage = None;
    let mut filter = false;
    for pair in listed.split(|&b| b == 0).filter(|p| !p.is_empty()) {
        let pair = String::from_utf8_lossy(pair);
        let (key, value) = pair.split_once('\n').unwrap_or((&pair, ""));
        match key {
            "lfs.storage" => storage = Some(value.to_owned()),
            _ => filter |= !value.trim().is_empty(),
        }
    }
    if !filter {
        return Ok(None);
    }
    let common = String::from_utf8_lossy(&run(&repo.root, &["rev-parse", "--git-common-dir"])?).trim_end().to_owned();
    let common = repo.root.join(common);
    Ok(Some(common.join(storage.as_deref().unwrap_or("lfs")).join("objects")))
}

/// The paths whose `filter` attribute is `lfs` (`git check-attr`, the
/// paths on its input so that no command line grows with them).
fn filtered_by_lfs<'a>(repo: &Repo, paths: impl Iterator<Item = &'a str>) -> Result<HashSet<String>, GitError> {
    let input: Vec<u8> = paths.flat_map(|p| [p.as_bytes(), b"\0"]).flatten().copied().collect();
    let (child, feeder) = super::git::fed(&repo.root, &["check-attr", "-z", "--stdin", "filter"], input)?;
    let output = child.wait_with_output()?;
    let _ = feeder.join();
    if !output.status.success() {
        let message = String::from_utf8_lossy(&output.stderr).trim().to_owned();
        return Err(GitError::Failed { args: "check-attr -z --stdin filter".to_owned(), message });
    }
    // `path NUL attribute NUL value NUL` for each path.
    let fields: Vec<&[u8]> = output.stdout.split(|&b| b == 0).collect();
    Ok(fields.chunks_exact(3).filter(|f| f[2] == b"lfs").map(|f| String::from_utf8_lossy(f[0]).into_owned()).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    const OID: &str = "4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393";

    #[test]
    fn pointers_are_read_as_the_spec_writes_them() {
        let text = format!("{VERSION}\noid sha256:{OID}\nsize 12345\n");
        assert_eq!(pointer(text.as_bytes()), Some(Pointer { oid: OID.to_owned(), size: 12345 }));
        // Keys the spec may add later are passed over.
        let more = format!("{VERSION}\next-0-foo sha256:{OID}\noid sha256:{OID}\nsize 7\n");
        assert_eq!(pointer(more.as_bytes()).map(|p| p.size), Some(7));
    }

    #[test]
    fn other_files_are_no_pointers() {
        for text in [
            format!("{VERSION}\noid sha256:{OID}\n"),
            format!("{VERSION}\noid sha256:{}\nsize 1\n", OID.to_uppercase()),
            format!("{VERSION}\noid sha1:{}\nsize 1\n", &OID[..40]),
            format!("{VERSION}\noid sha256:{OID}\nsize -1\n"),
            format!("{VERSION}\noid sha256:{OID}\nsize 1"),
            format!("{VERSION}x\noid sha256:{OID}\nsize 1\n"),
            format!("# {VERSION}\noid sha256:{OID}\nsize 1\n"),
            format!("{VERSION}\noid sha256:{OID}\nsize 1\n{}\n", "x ".repeat(600)),
        ] {
            assert_eq!(pointer(text.as_bytes()), None, "{text:?}");
        }
    }
}
