//! Directory listing and reading relative to open directory handles.
//!
//! The skill walk is bound by syscalls on large homes. On Unix, entries are
//! read with `getdents64` on a descriptor opened relative to its parent (no
//! path lookup, no extra `fstat`), and a directory's SKILL.md is opened
//! relative to it too. Elsewhere the same interface uses `std::fs`.

use super::source::{self, ReadError};
use std::ffi::{OsStr, OsString};
use std::io;
use std::path::Path;

/// A directory's identity: (device, inode).
pub type DirKey = (u64, u64);

/// One entry of a listing, with symlinks already resolved.
#[derive(Debug, Clone)]
pub struct Entry {
    pub name: OsString,
    pub kind: EntryKind,
    /// The entry itself is a symlink (`kind` says what it leads to).
    pub symlink: bool,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum EntryKind {
    /// A directory (or a symlink to one), with its identity when known cheaply.
    Dir(Option<DirKey>),
    /// Anything else; `regular` when the listing shows a plain regular file.
    File { regular: bool },
}

#[cfg(unix)]
mod imp {
    use super::*;
    use rustix::fd::OwnedFd;
    use rustix::fs::{self as rfs, AtFlags, Dir, FileType, Mode, OFlags};
    use std::os::unix::ffi::OsStrExt;

    pub struct DirReader {
        dir: Dir,
    }

    // `st_dev` and `st_ino` are not `u64` on every Unix.
    #[allow(clippy::unnecessary_cast)]
    fn key(stat: &rfs::Stat) -> DirKey {
        (stat.st_dev as u64, stat.st_ino as u64)
    }

    fn dir_flags() -> OFlags {
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC
    }

    impl DirReader {
        fn from_fd(fd: OwnedFd) -> io::Result<DirReader> {
            Ok(DirReader { dir: Dir::new(fd)? })
        }

        pub fn open(path: &Path) -> io::Result<(DirReader, DirKey)> {
            let fd = rfs::open(path, dir_flags(), Mode::empty())?;
            let k = key(&rfs::fstat(&fd)?);
            Ok((DirReader::from_fd(fd)?, k))
        }

        pub fn open_child(&self, name: &OsStr) -> io::Result<DirReader> {
            let fd = rfs::openat(self.dir.fd()?, name, dir_flags(), Mode::empty())?;
            DirReader::from_fd(fd)
        }

        /// The identity of a child, following symlinks.
        pub fn child_key(&self, name: &OsStr) -> io::Result<DirKey> {
            Ok(key(&rfs::statat(self.dir.fd()?, name, AtFlags::empty())?))
        }

        pub fn entries(&mut self, parent: DirKey) -> io::Result<Vec<Entry>> {
            let mut out = Vec::new();
            while let Some(entry) = self.dir.read() {
                let entry = entry?;
                let bytes = entry.file_name().to_bytes();
                if bytes == b"." || bytes == b".." {
                    continue;
                }
                let name = OsStr::from_bytes(bytes).to_os_string();
                let mut file_type = entry.file_type();
                if file_type == FileType::Unknown {
                    file_type = rfs::statat(self.dir.fd()?, &*name, AtFlags::SYMLINK_NOFOLLOW)
                        .map(|s| FileType::from_raw_mode(s.st_mode))
                        .unwrap_or(FileType::Unknown);
                }
                let kind = match file_type {
                    FileType::Directory => EntryKind::Dir(Some((parent.0, entry.ino()))),
                    FileType::Symlink => match rfs::statat(self.dir.fd()?, &*name, AtFlags::empty()) {
                        Ok(s) if FileType::from_raw_mode(s.st_mode) == FileType::Directory => {
                            EntryKind::Dir(Some(key(&s)))
                        }
                        _ => EntryKind::File { regular: false },
                    },
                    FileType::RegularFile => EntryKind::File { regular: true },
                    _ => EntryKind::File { regular: false },
                };
                out.push(Entry { name, kind, symlink: file_type == FileType::Symlink });
            }
            crate::listing::arrange(&mut out, |e| e.name.clone());
            Ok(out)
        }

        /// Reads a file of this directory as `read_text` would; `shown_path`
        /// is the path error messages name.
        pub fn read_text(&self, name: &OsStr, regular: bool, shown_path: &Path) -> Result<String, ReadError> {
            let io_err = |e: io::Error| ReadError::Io(source::os_error_message(&e, shown_path));
            let flags = OFlags::RDONLY | OFlags::NONBLOCK | OFlags::CLOEXEC;
            let fd = rfs::openat(self.dir.fd().map_err(|e| io_err(e.into()))?, name, flags, Mode::empty())
                .map_err(|e| io_err(e.into()))?;
            let file = std::fs::File::from(fd);
            source::read_open_file(file, regular, shown_path)
        }
    }
}

#[cfg(not(unix))]
mod imp {
    use super::*;
    use std::fs;
    use std::path::PathBuf;

    pub struct DirReader {
        path: PathBuf,
    }

    impl DirReader {
        pub fn open(path: &Path) -> io::Result<(DirReader, DirKey)> {
            fs::read_dir(path)?;
            Ok((DirReader { path: path.to_path_buf() }, (0, 0)))
        }

        pub fn open_child(&self, name: &OsStr) -> io::Result<DirReader> {
            let path = self.path.join(name);
            fs::read_dir(&path)?;
            Ok(DirReader { path })
        }

        pub fn child_key(&self, _name: &OsStr) -> io::Result<DirKey> {
            Ok((0, 0))
        }

        pub fn entries(&mut self, _parent: DirKey) -> io::Result<Vec<Entry>> {
            let mut out = Vec::new();
            for entry in fs::read_dir(&self.path)?.flatten() {
                let kind = match fs::metadata(entry.path()) {
                    Ok(m) if m.is_dir() => EntryKind::Dir(None),
                    _ => EntryKind::File { regular: entry.file_type().is_ok_and(|t| t.is_file()) },
                };
                let symlink = entry.file_type().is_ok_and(|t| t.is_symlink());
                out.push(Entry { name: entry.file_name(), kind, symlink });
            }
            crate::listing::arrange(&mut out, |e| e.name.clone());
            Ok(out)
        }

        pub fn read_text(&self, name: &OsStr, _regular: bool, _shown_path: &Path) -> Result<String, ReadError> {
            source::read_text(&self.path.join(name))
        }
    }
}

pub use imp::DirReader;
