//! Why a skill is or is not offered: Hermes' pipeline for one skill, one
//! step a line (found, frontmatter, platform, environment, disabled, name,
//! description, index, command, readiness, bundles), each with the Hermes
//! function it models, its verdict, and the file and line that decided it.
//!
//! Every verdict is read from the answers the other surfaces give (the
//! catalog `list` and `commands` come from, the index `prompt` renders), so
//! `why` cannot disagree with them: a skill is offered if and only if the
//! index shows it.

mod steps;

use crate::catalog::Catalog;
use crate::context::Context;
use crate::paths;
use crate::prompt::PromptIndex;
use crate::Engine;
use serde_json::{json, Value as Json};
use std::path::{Path, PathBuf};

/// A step's verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The step lets the skill through.
    Pass,
    /// The step keeps something from the agent (the skill, its line, its
    /// command, its setup); the detail says what.
    Fail,
    /// Worth knowing, decides nothing (a cut description, a second file of
    /// the same name, the bundles that load it).
    Note,
}

impl Outcome {
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Pass => "pass",
            Outcome::Fail => "fail",
            Outcome::Note => "note",
        }
    }
}

/// One step of the pipeline for one skill.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// `found`, `frontmatter`, `platform`, ...: see [`STEPS`].
    pub step: &'static str,
    /// The Hermes function the step models (`module.function`).
    pub function: &'static str,
    pub outcome: Outcome,
    pub detail: String,
    /// The file that decided it (the SKILL.md, config.yaml, a bundle).
    pub file: Option<PathBuf>,
    /// 1-based, in `file`.
    pub line: Option<usize>,
}

/// The steps in pipeline order.
pub const STEPS: [&str; 11] = [
    "found",
    "frontmatter",
    "platform",
    "environment",
    "disabled",
    "name",
    "description",
    "index",
    "command",
    "readiness",
    "bundles",
];

/// The whole decision for one skill.
#[derive(Debug, Clone, PartialEq)]
pub struct Trace {
    pub name: String,
    pub skill_md: PathBuf,
    /// In the system-prompt index.
    pub offered: bool,
    pub steps: Vec<Step>,
}

impl Trace {
    /// `{"name", "path", "offered", "steps": [{"step", "function", "outcome",
    /// "detail", "file", "line"}]}`.
    pub fn to_json(&self) -> Json {
        let steps: Vec<Json> = self
            .steps
            .iter()
            .map(|s| {
                json!({
                    "step": s.step,
                    "function": s.function,
                    "outcome": s.outcome.name(),
                    "detail": s.detail,
                    "file": s.file.as_deref().map(paths::path_string),
                    "line": s.line,
                })
            })
            .collect();
        json!({
            "name": self.name,
            "path": paths::path_string(&self.skill_md),
            "offered": self.offered,
            "steps": steps,
        })
    }

    /// The first step that failed, if any.
    pub fn first_failure(&self) -> Option<&Step> {
        self.steps.iter().find(|s| s.outcome == Outcome::Fail)
    }
}

/// What `why` reads: the catalog (with frontmatter) and the index, built
/// for the same tools, toolsets and compact categories as `prompt`.
pub struct WhyInputs<'a> {
    pub engine: &'a Engine,
    pub catalog: &'a Catalog,
    pub index: &'a PromptIndex,
    /// The name lookups of this catalog, when made already (they are kept
    /// between traces); else the command step makes its own to load the
    /// skill as its slash command would.
    pub context: Option<&'a Context<'a>>,
}

/// The skills a query names.
#[derive(Debug, Clone, PartialEq)]
pub enum Lookup {
    /// Catalog indices, the one Hermes would pick first.
    Found(Vec<usize>),
    /// Nothing matched: the closest names, best first.
    Unknown { closest: Vec<String> },
}

/// The skills `query` names: by shown name, frontmatter name, folder name,
/// or path (a skill folder or its SKILL.md). The offered one comes first,
/// then scan order.
pub fn lookup(catalog: &Catalog, index: &PromptIndex, query: &str) -> Lookup {
    let query = query.trim();
    // Resolved once: a path names a skill folder or its SKILL.md.
    let as_path = (!query.is_empty()).then(|| paths::resolve(Path::new(query)));
    let wanted = |i: usize| {
        let s = &catalog.skills[i];
        s.name == query
            || s.frontmatter_name() == Some(query)
            || s.skill_dir.file_name().is_some_and(|n| n.to_string_lossy() == query)
            || as_path.as_ref().is_some_and(|p| *p == s.skill_dir || *p == s.skill_md)
    };
    let mut found: Vec<usize> = (0..catalog.skills.len()).filter(|&i| wanted(i)).collect();
    if found.is_empty() {
        return Lookup::Unknown { closest: closest_names(catalog, query) };
    }
    let offered = index.offered_paths();
    found.sort_by_key(|&i| !offered.contains(catalog.skills[i].skill_md.as_path()));
    Lookup::Found(found)
}

/// Skill and folder names near `query` (edit distance, or containing it).
fn closest_names(catalog: &Catalog, query: &str) -> Vec<String> {
    let query_lower = query.to_lowercase();
    let mut scored: Vec<(usize, String)> = Vec::new();
    for s in &catalog.skills {
        let folder = s.skill_dir.file_name().map(|n| n.to_string_lossy().into_owned());
        for name in std::iter::once(s.name.clone()).chain(folder) {
            let lower = name.to_lowercase();
            let distance = if lower.contains(&query_lower) || query_lower.contains(&lower) {
                lower.chars().count().abs_diff(query_lower.chars().count()).min(2)
            } else {
                crate::words::edit_distance(&query_lower, &lower)
            };
            if distance <= (name.chars().count().max(query.chars().count()) / 3).max(2) {
                scored.push((distance, name));
            }
        }
    }
    scored.sort();
    scored.dedup_by(|a, b| a.1 == b.1);
    scored.into_iter().take(5).map(|(_, n)| n).collect()
}

impl WhyInputs<'_> {
    /// The trace of the skill at catalog index `skill`; `same_name` are the
    /// other skills the query also named.
    pub fn trace(&self, skill: usize, same_name: &[usize]) -> Trace {
        steps::trace(self, skill, same_name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_are_named_once_in_pipeline_order() {
        let mut sorted = STEPS.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), STEPS.len());
        assert_eq!(STEPS[0], "found");
        assert_eq!(Outcome::Fail.name(), "fail");
    }
}
