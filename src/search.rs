//! Fuzzy search over the catalog: name, category, tags and description.
//!
//! Filtering scores every skill once per query; extending a query only
//! re-checks the skills the shorter query kept (a fuzzy match of `abc`
//! implies one of `ab`). Match positions are computed only for the rows on
//! screen.

use crate::engine::catalog::Catalog;
use fuzzy_matcher::skim::SkimMatcherV2;
use fuzzy_matcher::FuzzyMatcher;

/// The searchable text of one skill, prepared once per catalog.
struct Entry {
    name: String,
    category: String,
    tags: String,
    description: String,
}

pub struct Search {
    matcher: SkimMatcherV2,
    entries: Vec<Entry>,
    /// The last query and the skills it kept, for incremental narrowing.
    last: Option<(String, Vec<usize>)>,
}

impl Search {
    pub fn new(catalog: &Catalog) -> Search {
        let entries = catalog
            .skills
            .iter()
            .map(|s| Entry {
                name: s.name.clone(),
                category: s.category_path(),
                tags: s.tags.join(" "),
                description: s.description.clone(),
            })
            .collect();
        Search { matcher: SkimMatcherV2::default().smart_case(), entries, last: None }
    }

    fn matches(&self, e: &Entry, query: &str) -> bool {
        let m = &self.matcher;
        m.fuzzy_match(&e.name, query).is_some()
            || m.fuzzy_match(&e.category, query).is_some()
            || m.fuzzy_match(&e.tags, query).is_some()
            || m.fuzzy_match(&e.description, query).is_some()
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
            });
        }
        c
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
