//! `skills_list` (spec §8) and the scan behind it, `_find_all_skills`.

use super::discover;
use super::gates;
use super::skill::{self, Listing};
use super::value::Value;
use super::Engine;
use crate::py::PyError;
use serde_json::{json, Value as Json};
use std::collections::HashSet;
use std::path::PathBuf;

/// One row of the listing.
#[derive(Debug, Clone, PartialEq)]
pub struct ListedSkill {
    /// The name; for a bytes name, its `repr()` (see `bytes_name`).
    pub name: String,
    /// A `!!binary` name: Hermes lists it, then cannot sort or dump it.
    pub bytes_name: bool,
    pub description: Value,
    pub category: Option<String>,
    /// Where the SKILL.md is (not part of Hermes' JSON).
    pub skill_md: PathBuf,
}

impl ListedSkill {
    /// The row as JSON, or the error `json.dumps` raises for its description.
    pub fn try_to_json(&self) -> Result<Json, PyError> {
        if self.bytes_name {
            return Err(PyError::type_error("Object of type bytes is not JSON serializable"));
        }
        Ok(json!({
            "name": self.name,
            "description": self.description.try_to_json()?,
            "category": self.category,
        }))
    }

    pub fn to_json(&self) -> Json {
        json!({
            "name": self.name,
            "description": self.description.to_json(),
            "category": self.category,
        })
    }
}

pub const LIST_HINT: &str = "Use skill_view(name) to see full content, tags, and linked files";

impl Engine {
    /// `_find_all_skills(skip_disabled)`: every listable skill, first name wins.
    pub fn find_all_skills(&self, skip_disabled: bool) -> Result<Vec<ListedSkill>, PyError> {
        let disabled: HashSet<String> =
            if skip_disabled { HashSet::new() } else { gates::disabled_names(&self.home, &self.env, None)? };
        let mut files = Vec::new();
        for dir in self.home.scan_dirs() {
            let (found, _) = discover::index_read_map(&dir, "SKILL.md", &|f| {
                let candidate =
                    if discover::has_excluded_component(&f.path) { None } else { Some(self.listing_candidate(&f)) };
                (f.path, candidate)
            });
            files.extend(found.into_iter().filter_map(|(path, c)| c.map(|c| (path, c))));
        }
        let mut seen = HashSet::new();
        let mut skills = Vec::new();
        for (path, candidate) in files {
            let Listing::Keep { name, description } = candidate else {
                continue;
            };
            let in_disabled = matches!(&name, skill::ListingName::Str(s) if disabled.contains(s));
            if seen.contains(&name) || in_disabled {
                continue;
            }
            let category = self.listing_category(&path);
            let bytes_name = matches!(name, skill::ListingName::Bytes(_));
            let text = name.text();
            seen.insert(name);
            skills.push(ListedSkill { name: text, bytes_name, description, category, skill_md: path });
        }
        Ok(skills)
    }

    fn listing_candidate(&self, file: &discover::IndexedFile) -> Listing {
        file.with_text(|text| self.listing_candidate_text(&file.path, text)).unwrap_or(Listing::Skip)
    }

    /// [`Engine::find_all_skills`] (the names, paths and categories) from a
    /// catalog of this home, without reading a file: its skills of the
    /// listing's roots in scan order, through the same first-name-wins and
    /// disabled filters, each listed skill made by `make`. `None` when the
    /// catalog lacks one of the roots.
    pub fn listed_in_catalog<'c, T>(
        &self,
        catalog: &'c super::catalog::Catalog,
        make: impl Fn(&'c super::catalog::CatalogSkill) -> T,
    ) -> Option<Result<Vec<T>, PyError>> {
        let roots = self.home.scan_dirs();
        let indexes: Vec<usize> =
            roots.iter().map(|root| catalog.roots.iter().position(|r| r.path == *root)).collect::<Option<_>>()?;
        let disabled = match gates::disabled_names(&self.home, &self.env, None) {
            Ok(d) => d,
            Err(e) => return Some(Err(e)),
        };
        let mut seen: HashSet<&str> = HashSet::new();
        let mut skills = Vec::new();
        for ri in indexes {
            for s in catalog.skills.iter().filter(|s| s.root == ri && s.db_row.is_none() && s.listing_kept) {
                if disabled.contains(&s.name) || !seen.insert(s.name.as_str()) {
                    continue;
                }
                skills.push(make(s));
            }
        }
        Some(Ok(skills))
    }

    /// The listing in `skills_list` order: by (category or "", name).
    pub fn sorted_skills(&self) -> Result<Vec<ListedSkill>, PyError> {
        let mut skills = self.find_all_skills(false)?;
        sort_listing(&mut skills)?;
        Ok(skills)
    }

    /// `skills_list(category)` as Hermes' JSON.
    pub fn skills_list(&self, category: Option<&str>) -> Json {
        if !super::paths::exists(&self.home.skills_dir) {
            // A dangling symlink is there for `mkdir(exist_ok=True)`, not a
            // folder: Hermes' mkdir raises.
            if std::fs::symlink_metadata(&self.home.skills_dir).is_ok() {
                let exists = std::io::Error::from_raw_os_error(EEXIST);
                let error = super::source::os_error_message(&exists, &self.home.skills_dir);
                return json!({"error": error, "success": false});
            }
            // Hermes creates the folder here; skillscope only reports it.
            return json!({
                "success": true,
                "skills": [],
                "categories": [],
                "message": format!(
                    "No skills found. Skills directory created at {}/skills/",
                    self.home.display(&self.env)
                ),
            });
        }
        let mut skills = match self.find_all_skills(false) {
            Ok(s) => s,
            Err(e) => return json!({"error": e, "success": false}),
        };
        if skills.is_empty() {
            return json!({
                "success": true,
                "skills": [],
                "categories": [],
                "message": "No skills found in skills/ directory.",
            });
        }
        if let Some(cat) = category.filter(|c| !c.is_empty()) {
            skills.retain(|s| s.category.as_deref() == Some(cat));
        }
        if let Err(e) = sort_listing(&mut skills) {
            return json!({"error": e, "success": false});
        }
        let mut categories: Vec<&str> =
            skills.iter().filter_map(|s| s.category.as_deref()).filter(|c| !c.is_empty()).collect();
        categories.sort_unstable();
        categories.dedup();
        // A description json.dumps cannot write fails the whole answer.
        let rows = match skills.iter().map(ListedSkill::try_to_json).collect::<Result<Vec<_>, _>>() {
            Ok(rows) => rows,
            Err(e) => return json!({"error": e, "success": false}),
        };
        json!({
            "success": true,
            "skills": rows,
            "categories": categories,
            "count": skills.len(),
            "hint": LIST_HINT,
        })
    }
}

/// `sorted(skills, key=lambda s: (s.get("category") or "", s["name"]))`:
/// a bytes name and a string name in one category cannot be compared, and
/// Python raises at the first such comparison its sort makes.
pub fn sort_listing(skills: &mut [ListedSkill]) -> Result<(), PyError> {
    let key = |s: &ListedSkill| (s.category.clone().unwrap_or_default(), s.name.clone());
    if skills.iter().any(|s| s.bytes_name) {
        let keys: Vec<(String, bool)> =
            skills.iter().map(|s| (s.category.clone().unwrap_or_default(), s.bytes_name)).collect();
        first_failed_comparison(&keys)?;
    }
    skills.sort_by_cached_key(key);
    Ok(())
}

/// Replays the comparisons CPython's `list.sort` makes on a short list
/// (`count_run`, then binary insertion) and returns the `TypeError` of the
/// first that compares a bytes name with a string name in one category.
fn first_failed_comparison(keys: &[(String, bool)]) -> Result<(), PyError> {
    let type_name = |bytes: bool| if bytes { "bytes" } else { "str" };
    // `later < earlier` fails only within a category, across name types.
    let check = |later: usize, earlier: usize, order: &[usize]| -> Result<(), PyError> {
        let (a, b) = (&keys[order[later]], &keys[order[earlier]]);
        if a.0 == b.0 && a.1 != b.1 {
            return Err(PyError::type_error(format!(
                "'<' not supported between instances of '{}' and '{}'",
                type_name(a.1),
                type_name(b.1)
            )));
        }
        Ok(())
    };
    let lt = |x: usize, y: usize, order: &[usize]| keys[order[x]].0 < keys[order[y]].0;
    let mut order: Vec<usize> = (0..keys.len()).collect();
    if order.len() < 2 {
        return Ok(());
    }
    // count_run: the first run, ascending or strictly descending.
    check(1, 0, &order)?;
    let mut run = 2;
    let descending = lt(1, 0, &order);
    while run < order.len() {
        check(run, run - 1, &order)?;
        if lt(run, run - 1, &order) != descending {
            break;
        }
        run += 1;
    }
    if descending {
        order[..run].reverse();
    }
    // binarysort of the rest into the run.
    for start in run..order.len() {
        let (mut l, mut r) = (0, start);
        while l < r {
            let p = l + (r - l) / 2;
            check(start, p, &order)?;
            if lt(start, p, &order) {
                r = p;
            } else {
                l = p + 1;
            }
        }
        let pivot = order.remove(start);
        order.insert(l, pivot);
    }
    Ok(())
}

/// The error `mkdir` gives where something is already there.
#[cfg(unix)]
const EEXIST: i32 = libc::EEXIST;
#[cfg(not(unix))]
const EEXIST: i32 = 183;

#[cfg(test)]
mod tests {
    use super::*;

    fn row(category: &str, name: &str, bytes_name: bool) -> ListedSkill {
        ListedSkill {
            name: name.into(),
            bytes_name,
            description: Value::Str(String::new()),
            category: Some(category.into()),
            skill_md: PathBuf::new(),
        }
    }

    /// Each expectation is what `sorted()` says for the same keys.
    #[test]
    fn bytes_names_fail_the_sort_as_python_does() {
        let err = |rows: &mut [ListedSkill]| sort_listing(rows).unwrap_err().traceback_line();
        assert_eq!(
            err(&mut [row("c", "a", false), row("c", "b'x'", true)]),
            "TypeError: '<' not supported between instances of 'bytes' and 'str'"
        );
        assert_eq!(
            err(&mut [row("c", "b'x'", true), row("c", "a", false)]),
            "TypeError: '<' not supported between instances of 'str' and 'bytes'"
        );
        assert_eq!(
            err(&mut [row("b", "x", false), row("a", "q", false), row("b", "b'y'", true), row("a", "z", false)]),
            "TypeError: '<' not supported between instances of 'bytes' and 'str'"
        );
        let mut apart = [row("a", "x", false), row("b", "b'y'", true), row("a", "z", false)];
        assert!(sort_listing(&mut apart).is_ok());
        assert_eq!(apart.iter().map(|r| r.name.as_str()).collect::<Vec<_>>(), ["x", "z", "b'y'"]);
    }
}
