//! Rules on skill bundles.

use super::{relative, Finding, Sink};
use crate::context::Context;
use crate::messages::{MemberStatus, MissingMember};
use std::collections::HashMap;
use std::path::PathBuf;

/// Each bundle's members as its invocation finds them (name as the bundle
/// gives it, status), by the bundle's key.
pub type MembersByBundle = HashMap<String, Vec<(String, MemberStatus)>>;

/// `index` answers the members' name lookups (see [`Engine::lookup_index_for`];
/// needed when there are bundles). Gives back each bundle's members, which
/// the rules looked up.
pub(crate) fn check(ctx: &Context, roots: &[PathBuf], findings: &mut Vec<Finding>) -> MembersByBundle {
    let Some(catalog) = ctx.catalog else { return MembersByBundle::default() };
    let set = &catalog.bundles;
    for problem in &set.problems {
        let mut sink = Sink {
            findings,
            skill_md: None,
            skill_name: None,
            rel_path: relative(&problem.path, roots),
            path: problem.path.as_path().into(),
            per_rule: Default::default(),
        };
        sink.add("bundle-unparseable", Some(1), format!("Hermes skips this bundle: {}", problem.reason));
    }
    let bundles: Vec<(&String, &crate::bundles::Bundle)> = set.bundles.iter().collect();
    // Each member is loaded as skill_view loads it: on all cores.
    let members = crate::parallel_map_min(&bundles, 8, |(_, bundle)| ctx.bundle_members(bundle));
    for ((key, bundle), members) in bundles.iter().zip(&members) {
        let text = crate::source::read_text(&bundle.path).unwrap_or_default();
        // A member's finding points at its name, where the file first has it.
        let lines = crate::source::LineStarts::of(&text);
        let at = |id: &str| match memchr::memmem::find(text.as_bytes(), id.as_bytes()) {
            Some(byte) => lines.line_column_at(&text, byte),
            None => (1, 1),
        };
        let first = findings.len();
        let mut sink = Sink {
            findings,
            skill_md: None,
            skill_name: None,
            rel_path: relative(&bundle.path, roots),
            path: bundle.path.as_path().into(),
            per_rule: Default::default(),
        };
        if let Some(cmd) = catalog.command(key) {
            sink.add(
                "bundle-shadows-skill",
                Some(1),
                format!("{key} runs this bundle, never the skill `{}`", cmd.name),
            );
        }
        for (id, status) in members {
            match status {
                MemberStatus::Loaded(_) => {}
                MemberStatus::Disabled(name) => sink.add_pointing(
                    "bundle-member-disabled",
                    at(id),
                    format!("`{id}` ({name}) is disabled: {key} skips it"),
                ),
                MemberStatus::Missing(why) => {
                    let rule = match *why {
                        MissingMember::Ambiguous(_) => "bundle-member-ambiguous",
                        MissingMember::Disabled => "bundle-member-disabled",
                        _ => "bundle-member-missing",
                    };
                    let msg = format!("`{id}` does not load ({}): {key} skips it", why.reason());
                    sink.add_pointing(rule, at(id), msg);
                }
            }
        }
        super::fill_columns(&mut findings[first..], &text);
    }
    bundles.into_iter().map(|(key, _)| key.clone()).zip(members).collect()
}
