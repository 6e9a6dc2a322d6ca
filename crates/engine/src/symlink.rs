//! Where a symlink in a skill folder leads, said the same way everywhere
//! (check, the Files view, the Readiness view): to a file, to a folder, to
//! nothing, or round in a loop, with the hops it takes.

use std::path::{Path, PathBuf};

/// Linux gives up after 40 hops (`MAXSYMLINKS`); so does the description.
const MAX_HOPS: usize = 40;

/// What following a symlink ends at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkEnd {
    File,
    Folder,
    /// Its target (or a link on the way) does not exist.
    Nothing,
    /// The links lead back to one already followed.
    Loop,
}

/// A symlink and where it leads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    /// Its target as written in the link.
    pub target: PathBuf,
    pub end: LinkEnd,
    /// For a loop, the link's own name, then each target followed as
    /// written, ending with the one that leads back; else its target.
    pub hops: Vec<PathBuf>,
}

impl Link {
    /// How a person reads it: `points to ../x.md, which does not exist`.
    pub fn describe(&self) -> String {
        let target = self.target.display();
        match self.end {
            LinkEnd::File => format!("points to `{target}`"),
            LinkEnd::Folder => format!("points to the folder `{target}`"),
            LinkEnd::Nothing => format!("points to `{target}`, which does not exist"),
            LinkEnd::Loop => format!("is a symlink loop ({}): it leads to no file", self.chain()),
        }
    }

    /// `a.md → b.md → a.md`.
    fn chain(&self) -> String {
        self.hops.iter().map(|h| format!("`{}`", h.display())).collect::<Vec<_>>().join(" → ")
    }
}

/// The link at `path`, or `None` when `path` is no symlink.
pub fn follow(path: &Path) -> Option<Link> {
    let target = std::fs::read_link(path).ok()?;
    let end = match std::fs::metadata(path) {
        Ok(meta) if meta.is_dir() => LinkEnd::Folder,
        Ok(_) => LinkEnd::File,
        Err(e) if is_loop(&e) => LinkEnd::Loop,
        Err(_) => LinkEnd::Nothing,
    };
    let hops = match end {
        LinkEnd::Loop => path.file_name().map(PathBuf::from).into_iter().chain(loop_hops(path)).collect(),
        _ => vec![target.clone()],
    };
    Some(Link { target, end, hops })
}

#[cfg(unix)]
fn is_loop(e: &std::io::Error) -> bool {
    e.raw_os_error() == Some(libc::ELOOP)
}

#[cfg(not(unix))]
fn is_loop(_: &std::io::Error) -> bool {
    false
}

/// The targets a loop goes through, as written, until one comes back.
fn loop_hops(path: &Path) -> Vec<PathBuf> {
    let mut hops = Vec::new();
    let mut seen = vec![path.to_path_buf()];
    let mut at = path.to_path_buf();
    while hops.len() < MAX_HOPS {
        let Ok(target) = std::fs::read_link(&at) else { break };
        hops.push(target.clone());
        let next = at.parent().map_or_else(|| target.clone(), |dir| dir.join(&target));
        if seen.contains(&next) {
            break;
        }
        seen.push(next.clone());
        at = next;
    }
    hops
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    #[test]
    fn links_are_told_apart() {
        let t = tempfile::tempdir().expect("tmp");
        let d = t.path();
        std::fs::write(d.join("real.md"), "x").expect("write");
        std::fs::create_dir(d.join("folder")).expect("mkdir");
        symlink("real.md", d.join("file-link")).expect("link");
        symlink("folder", d.join("dir-link")).expect("link");
        symlink("/nonexistent/zz", d.join("dangling")).expect("link");
        symlink("b", d.join("a")).expect("link");
        symlink("a", d.join("b")).expect("link");
        assert!(follow(&d.join("real.md")).is_none());
        assert_eq!(follow(&d.join("file-link")).map(|l| l.end), Some(LinkEnd::File));
        assert_eq!(follow(&d.join("dir-link")).map(|l| l.end), Some(LinkEnd::Folder));
        let dangling = follow(&d.join("dangling")).expect("link");
        assert_eq!(dangling.describe(), "points to `/nonexistent/zz`, which does not exist");
        let looped = follow(&d.join("a")).expect("link");
        assert_eq!(looped.end, LinkEnd::Loop);
        assert_eq!(looped.describe(), "is a symlink loop (`a` → `b` → `a`): it leads to no file");
    }
}
