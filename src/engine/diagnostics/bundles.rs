//! Rules on skill bundles.

use super::{relative, Finding, Sink};
use crate::engine::bundles::MemberStatus;
use crate::engine::catalog::Catalog;
use crate::engine::Engine;
use std::path::PathBuf;

pub(super) fn check(engine: &Engine, catalog: &Catalog, roots: &[PathBuf], findings: &mut Vec<Finding>) {
    let set = &catalog.bundles;
    let index = (!set.bundles.is_empty()).then(|| engine.lookup_index_for(Some(catalog)));
    for problem in &set.problems {
        let mut sink = Sink {
            findings,
            skill: None,
            skill_name: None,
            rel_path: relative(&problem.path, roots),
            path: problem.path.clone(),
        };
        sink.add("bundle-unparseable", Some(1), format!("Hermes skips this bundle: {}", problem.reason));
    }
    for (key, bundle) in &set.bundles {
        let text = crate::engine::source::read_text(&bundle.path).unwrap_or_default();
        let line_of = |id: &str| text.lines().position(|l| l.contains(id)).map(|i| i + 1);
        let mut sink = Sink {
            findings,
            skill: None,
            skill_name: None,
            rel_path: relative(&bundle.path, roots),
            path: bundle.path.clone(),
        };
        if let Some(cmd) = catalog.commands.get(key) {
            sink.add(
                "bundle-shadows-skill",
                Some(1),
                format!("{key} runs this bundle, never the skill `{}`", cmd.name),
            );
        }
        for (id, status) in engine.bundle_members_with(index.as_ref(), bundle) {
            match status {
                MemberStatus::Loaded(_) => {}
                MemberStatus::Disabled(name) => sink.add(
                    "bundle-member-disabled",
                    line_of(&id),
                    format!("`{id}` ({name}) is disabled: {key} skips it"),
                ),
                MemberStatus::Missing => {
                    let matching: Vec<_> = catalog
                        .skills
                        .iter()
                        .filter(|s| s.name == id || s.skill_dir.file_name().is_some_and(|n| n.to_string_lossy() == id))
                        .collect();
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
