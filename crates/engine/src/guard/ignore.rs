//! A skill's `.skillignore` and `.clawhubignore`, as Hermes' guard reads
//! and matches them (`_load_skill_ignore`).

use crate::paths;
use crate::py::{py_splitlines, py_strip};
use std::path::Path;

/// `_load_skill_ignore`: a skill's `.skillignore` and `.clawhubignore`
/// (the default leaves nothing out).
#[derive(Debug, Default)]
pub struct Ignore {
    patterns: Vec<String>,
}

impl Ignore {
    pub fn load(dir: &Path) -> Ignore {
        let mut patterns = Vec::new();
        for name in [".skillignore", ".clawhubignore"] {
            let file = dir.join(name);
            if !paths::is_file(&file) {
                continue;
            }
            let Ok(bytes) = std::fs::read(&file) else { continue };
            let Ok(text) = String::from_utf8(bytes) else { continue };
            for raw in py_splitlines(&text) {
                let line = py_strip(raw);
                if !line.is_empty() && !line.starts_with('#') {
                    patterns.push(line.to_owned());
                }
            }
        }
        Ignore { patterns }
    }

    /// Whether the scan leaves out `rel` (a path relative to the skill).
    pub fn ignores(&self, rel: &str) -> bool {
        let base = rel.rsplit('/').next().unwrap_or(rel);
        if base == "SKILL.md" {
            return false;
        }
        if base == ".skillignore" || base == ".clawhubignore" {
            return true;
        }
        self.patterns.iter().any(|pat| pattern_ignores(pat, rel, base))
    }
}

fn pattern_ignores(pat: &str, rel: &str, base: &str) -> bool {
    let anchored = pat.starts_with('/');
    let p = pat.trim_start_matches('/');
    let is_dir = p.ends_with('/');
    let p = p.trim_end_matches('/');
    if p.is_empty() {
        return false;
    }
    let under = |p: &str| rel.strip_prefix(p).is_some_and(|rest| rest.starts_with('/'));
    if is_dir {
        return rel == p || under(p) || (!anchored && format!("/{rel}/").contains(&format!("/{p}/")));
    }
    if paths::fnmatch(rel, p) {
        return true;
    }
    !anchored
        && (paths::fnmatch(base, p)
            || (!p.contains('/') && rel.split('/').any(|seg| paths::fnmatch(seg, p)))
            || under(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ignore_patterns_as_hermes_reads_them() {
        let ig = Ignore { patterns: vec!["docs/".into(), "/notes.md".into(), "*.log".into(), "drafts".into()] };
        assert!(ig.ignores("docs/plan.md"));
        assert!(ig.ignores("a/docs/b.md"), "an unanchored folder anywhere");
        assert!(ig.ignores("notes.md"));
        assert!(!ig.ignores("sub/notes.md"), "anchored to the skill root");
        assert!(ig.ignores("x/y/debug.log"));
        assert!(ig.ignores("drafts/one.md"));
        assert!(!ig.ignores("SKILL.md"));
        assert!(ig.ignores(".skillignore"));
        assert!(!ig.ignores("references/api.md"));
    }
}
