//! Skills the agent may confuse: the offered skills of an index compared by
//! their lines (`name: description`, as the agent reads them), with
//! [`crate::similar`]'s word similarity.

use crate::prompt::PromptIndex;
use crate::similar::{Document, SimilarityIndex, CONFUSABLE_THRESHOLD};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// One offered skill, as compared.
#[derive(Debug, Clone, PartialEq)]
pub struct Compared {
    pub name: String,
    pub category: String,
    pub path: Option<PathBuf>,
    /// What the agent reads of it: its line without the list marker, or
    /// its name alone in a names-only category.
    pub text: String,
}

/// Another skill close to one, and how close (0 to 1).
#[derive(Debug, Clone, PartialEq)]
pub struct Neighbour<'a> {
    pub skill: &'a Compared,
    pub score: f32,
}

/// The offered skills of one index, ready to compare.
#[derive(Debug)]
pub struct Confusable {
    pub skills: Vec<Compared>,
    index: SimilarityIndex,
    by_path: HashMap<PathBuf, usize>,
}

/// The same skills compare alike: the scores follow from them.
impl PartialEq for Confusable {
    fn eq(&self, other: &Confusable) -> bool {
        self.skills == other.skills
    }
}

impl Confusable {
    pub fn of(index: &PromptIndex) -> Confusable {
        let skills: Vec<Compared> = index
            .categories
            .iter()
            .flat_map(|c| {
                c.skills.iter().map(move |s| Compared {
                    name: s.name.clone(),
                    category: c.name.clone(),
                    path: s.path.clone(),
                    text: if c.demoted { s.name.clone() } else { s.text.trim().trim_start_matches("- ").to_owned() },
                })
            })
            .collect();
        let docs: Vec<Document> = skills.iter().map(|s| Document { name: &s.name, text: &s.text }).collect();
        let by_path = skills.iter().enumerate().filter_map(|(i, s)| Some((s.path.clone()?, i))).collect();
        Confusable { index: SimilarityIndex::build(&docs), skills, by_path }
    }

    /// The `k` skills closest to the one whose SKILL.md is `path`, closest first.
    pub fn most_similar(&self, path: &Path, k: usize) -> Vec<Neighbour<'_>> {
        let Some(&i) = self.by_path.get(path) else { return Vec::new() };
        self.index
            .most_similar(i, k)
            .into_iter()
            .map(|(j, score)| Neighbour { skill: &self.skills[j], score })
            .collect()
    }

    /// For every skill in a pair at or above [`CONFUSABLE_THRESHOLD`], its
    /// closest partner (ties to the first by name) and how many it has.
    pub fn closest_partners(&self) -> Vec<(&Compared, Neighbour<'_>, usize)> {
        let by_name = |a: usize, b: usize| self.skills[a].name.cmp(&self.skills[b].name);
        self.index
            .closest_above(CONFUSABLE_THRESHOLD, by_name)
            .into_iter()
            .zip(&self.skills)
            .filter_map(|(closest, skill)| {
                let closest = closest?;
                Some((skill, Neighbour { skill: &self.skills[closest.other], score: closest.score }, closest.partners))
            })
            .collect()
    }
}
