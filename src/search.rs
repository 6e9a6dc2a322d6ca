//! Fuzzy search over the catalog: name, category, tags and description.
//!
//! A skill matches when the query's characters appear in order in one of
//! its fields (smart case: an uppercase letter makes the query
//! case-sensitive), which is exactly when fuzzy-matcher's skim algorithm
//! matches; its scoring is only needed for the highlighted positions, which
//! are computed for the rows on screen. Extending a query re-checks only the
//! skills the shorter query kept.

use crate::engine::catalog::Catalog;
use fuzzy_matcher::skim::SkimMatcherV2;
use fuzzy_matcher::FuzzyMatcher;

/// The searchable text of one skill, prepared once per catalog: each field
/// as written and lower-cased.
struct Entry {
    fields: [String; 4],
    lower: [String; 4],
}

pub struct Search {
    entries: Vec<Entry>,
    /// The last query and the skills it kept, for incremental narrowing.
    last: Option<(String, Vec<usize>)>,
}

impl Search {
    pub fn new(catalog: &Catalog) -> Search {
        let entries = catalog
            .skills
            .iter()
            .map(|s| {
                let fields = [s.name.clone(), s.category_path(), s.tags.join(" "), s.description.clone()];
                let lower = fields.clone().map(|f| f.to_lowercase());
                Entry { fields, lower }
            })
            .collect();
        Search { entries, last: None }
    }

    fn matches(&self, e: &Entry, query: &str) -> bool {
        let case_sensitive = query.chars().any(char::is_uppercase);
        let haystacks = if case_sensitive { &e.fields } else { &e.lower };
        haystacks.iter().any(|h| is_subsequence(h, query))
    }

    /// Indices of the skills matching `query`, in catalog order. An empty
    /// query matches everything.
    pub fn filter(&mut self, query: &str) -> Vec<usize> {
        let query = query.trim();
        if query.is_empty() {
            self.last = None;
            return (0..self.entries.len()).collect();
        }
        let candidates: Vec<usize> = match &self.last {
            Some((prev, kept)) if query.starts_with(prev.as_str()) => kept.clone(),
            _ => (0..self.entries.len()).collect(),
        };
        let kept: Vec<usize> = candidates.into_iter().filter(|&i| self.matches(&self.entries[i], query)).collect();
        self.last = Some((query.to_owned(), kept.clone()));
        kept
    }
}

/// True when the characters of `needle` appear in order in `haystack`.
fn is_subsequence(haystack: &str, needle: &str) -> bool {
    let mut wanted = needle.chars().filter(|c| !c.is_whitespace()).peekable();
    for c in haystack.chars() {
        match wanted.peek() {
            Some(&w) if w == c => {
                wanted.next();
            }
            Some(_) => {}
            None => return true,
        }
    }
    wanted.peek().is_none()
}

/// Character positions of `query` in `text` (smart case), for highlighting
/// the rows on screen.
pub fn positions(text: &str, query: &str) -> Vec<usize> {
    let query = query.trim();
    if query.is_empty() {
        return Vec::new();
    }
    SkimMatcherV2::default().smart_case().fuzzy_indices(text, query).map(|(_, idx)| idx).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::catalog::CatalogSkill;

    fn catalog(names: &[(&str, &str, &str)]) -> Catalog {
        let mut c = Catalog::default();
        for (name, category, desc) in names {
            c.skills.push(CatalogSkill {
                root: 0,
                categories: vec![(*category).into()],
                skill_md: Default::default(),
                skill_dir: Default::default(),
                name: (*name).into(),
                description: (*desc).into(),
                tags: vec!["ops".into()],
                frontmatter: Default::default(),
                frontmatter_kind: crate::engine::frontmatter::FrontmatterKind::None,
                body_line: 1,
                read_error: None,
                readiness: Default::default(),
                status: Default::default(),
                db_row: None,
            });
        }
        c
    }

    #[test]
    fn subsequence_agrees_with_skim() {
        let skim = SkimMatcherV2::default().smart_case();
        let hays = ["deploy-service", "Release Notes", "a-b_c", "日本語テキスト", "x"];
        let needles = ["dep", "dsv", "rn", "RN", "Rn", "abc", "b_", "本テ", "xx", "", "eploy", "zz"];
        for h in hays {
            for n in needles {
                let ours = if n.chars().any(char::is_uppercase) {
                    is_subsequence(h, n)
                } else {
                    is_subsequence(&h.to_lowercase(), n)
                };
                assert_eq!(ours, skim.fuzzy_match(h, n).is_some(), "{h:?} / {n:?}");
            }
        }
    }

    #[test]
    fn fields_and_narrowing() {
        let c = catalog(&[
            ("deploy", "devops", "ship to prod"),
            ("review", "code", "read it"),
            ("lint", "quality", "style"),
        ]);
        let mut s = Search::new(&c);
        assert_eq!(s.filter("dep"), [0]);
        assert_eq!(s.filter("depl"), [0]);
        assert_eq!(s.filter("code"), [1], "category");
        assert_eq!(s.filter("ops"), [0, 1, 2], "tags");
        assert_eq!(s.filter("style"), [2], "description");
        assert_eq!(s.filter(""), [0, 1, 2]);
        assert_eq!(s.filter("zzz"), Vec::<usize>::new());
        assert_eq!(positions("deploy", "dpy"), [0, 2, 5]);
    }
}
