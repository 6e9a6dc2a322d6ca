//! Rules on skill bundles.

use super::{relative, Finding, Sink};
use crate::engine::bundles::MemberStatus;
use crate::engine::catalog::{Catalog, CatalogSkill};
use crate::engine::view::LookupIndex;
use crate::engine::Engine;
use std::collections::HashMap;
use std::path::PathBuf;

/// The skills each name or folder name stands for, in catalog order.
fn names_and_folders(catalog: &Catalog) -> HashMap<String, Vec<usize>> {
    let mut out: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, s) in catalog.skills.iter().enumerate() {
        out.entry(s.name.clone()).or_default().push(i);
        if let Some(folder) = s.skill_dir.file_name().map(|n| n.to_string_lossy()) {
            if folder != s.name.as_str() {
                out.entry(folder.into_owned()).or_default().push(i);
            }
        }
    }
    out
}

/// `index` answers the members' name lookups (see [`Engine::lookup_index_for`];
/// needed when there are bundles).
pub(super) fn check(
    engine: &Engine,
    catalog: &Catalog,
    index: Option<&LookupIndex>,
    roots: &[PathBuf],
    findings: &mut Vec<Finding>,
) {
    let set = &catalog.bundles;
    for problem in &set.problems {
        let mut sink = Sink {
            findings,
            skill_md: None,
            skill_name: None,
            rel_path: relative(&problem.path, roots),
            path: problem.path.as_path().into(),
        };
        sink.add("bundle-unparseable", Some(1), format!("Hermes skips this bundle: {}", problem.reason));
    }
    // Built on the first missing member: skills by name and by folder name.
    let mut by_name: Option<HashMap<String, Vec<usize>>> = None;
    for (key, bundle) in &set.bundles {
        let text = crate::engine::source::read_text(&bundle.path).unwrap_or_default();
        let line_of = |id: &str| text.lines().position(|l| l.contains(id)).map(|i| i + 1);
        let mut sink = Sink {
            findings,
            skill_md: None,
            skill_name: None,
            rel_path: relative(&bundle.path, roots),
            path: bundle.path.as_path().into(),
        };
        if let Some(cmd) = catalog.command(key) {
            sink.add(
                "bundle-shadows-skill",
                Some(1),
                format!("{key} runs this bundle, never the skill `{}`", cmd.name),
            );
        }
        for (id, status) in engine.bundle_members_with(index, bundle) {
            match status {
                MemberStatus::Loaded(_) => {}
                MemberStatus::Disabled(name) => sink.add(
                    "bundle-member-disabled",
                    line_of(&id),
                    format!("`{id}` ({name}) is disabled: {key} skips it"),
                ),
                MemberStatus::Missing => {
                    let by_name = by_name.get_or_insert_with(|| names_and_folders(catalog));
                    let matching: Vec<&CatalogSkill> =
                        by_name.get(id.as_str()).into_iter().flatten().map(|&i| &catalog.skills[i]).collect();
                    if matching.len() > 1 {
                        let msg =
                            format!("`{id}` matches {} skills: skill_view refuses it, {key} skips it", matching.len());
                        sink.add("bundle-member-ambiguous", line_of(&id), msg);
                    } else if matching.iter().any(|s| s.status.disabled) {
                        let msg = format!("`{id}` is disabled: skill_view refuses it, {key} lists it as missing");
                        sink.add("bundle-member-disabled", line_of(&id), msg);
                    } else {
                        let why = match matching.first() {
                            Some(s) if !s.status.platform_ok => "it is for another platform",
                            Some(_) => "skill_view cannot load it",
                            None => "no skill has this name",
                        };
                        let msg = format!("`{id}` does not load ({why}): {key} skips it");
                        sink.add("bundle-member-missing", line_of(&id), msg);
                    }
                }
            }
        }
    }
}
