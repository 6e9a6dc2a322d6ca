//! Rules on the system-prompt index and what skills cost in it: the
//! agentskills.io size guidance for a body, the token budgets a repository
//! sets in `skillscope.toml` (`[cost]`; tokens are o200k_base's), and lines
//! alike enough for the agent to confuse their skills.

use super::{relative, skill_sink, Finding, Sink};
use crate::catalog::{Catalog, CatalogSkill};
use crate::confusable::Confusable;
use crate::cost::{CostBudgets, CostReport, Tokenizer};
use crate::words::thousands;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// agentskills.io: keep the body under this many tokens...
const BODY_TOKENS: usize = 5000;
/// ...and this many lines.
const BODY_LINES: usize = 500;

/// `spec-body-size`: the body over 5,000 tokens or 500 lines.
pub(super) fn check_body(text: &str, sink: &mut Sink) {
    let body = crate::frontmatter::body(text);
    let lines = body.lines().count();
    // A token holds at least one byte: a short body needs no count.
    let tokens = if body.len() > BODY_TOKENS { Tokenizer::default().count(body) } else { 0 };
    if tokens <= BODY_TOKENS && lines <= BODY_LINES {
        return;
    }
    let body_line = crate::source::line_at(text, text.len() - body.len());
    let message = format!(
        "the body is {} tokens and {} lines (agentskills.io: under {} tokens and {BODY_LINES} lines)",
        thousands(if tokens > 0 { tokens } else { Tokenizer::default().count(body) }),
        thousands(lines),
        thousands(BODY_TOKENS)
    );
    sink.add("spec-body-size", Some(body_line), message);
}

/// `cost-skill-budget`: the SKILL.md over `[cost] max-skill-tokens`.
pub(crate) fn check_skill_budget(
    skill: &CatalogSkill,
    text: &str,
    budgets: &CostBudgets,
    roots: &[PathBuf],
    findings: &mut Vec<Finding>,
) {
    let Some(max) = budgets.max_skill_tokens else { return };
    if text.len() <= max {
        return;
    }
    let tokens = Tokenizer::default().count(text);
    if tokens > max {
        let message = format!(
            "{} tokens ({} characters) go into the conversation when the agent loads this skill: over the budget of {}",
            thousands(tokens),
            thousands(text.chars().count()),
            thousands(max)
        );
        skill_sink(findings, skill, roots).add("cost-skill-budget", Some(1), message);
    }
}

/// `cost-index-budget`: the whole index over `[cost] max-index-tokens`,
/// with the categories that cost most.
pub(crate) fn check_index_budget(
    report: &CostReport,
    budgets: &CostBudgets,
    at: &Path,
    roots: &[PathBuf],
) -> Option<Finding> {
    let max = budgets.max_index_tokens?;
    if report.index.tokens <= max {
        return None;
    }
    let biggest: Vec<String> =
        report.categories.iter().take(3).map(|c| format!("{} {}", c.category, thousands(c.size.tokens))).collect();
    let message = format!(
        "the skills index is {} tokens ({} characters), over the budget of {}; most in {}",
        thousands(report.index.tokens),
        thousands(report.index.chars),
        thousands(max),
        biggest.join(", ")
    );
    let mut findings = Vec::new();
    let path: Arc<Path> = at.into();
    let mut sink = Sink {
        findings: &mut findings,
        skill_md: None,
        skill_name: None,
        path,
        rel_path: relative(at, roots),
        per_rule: Default::default(),
    };
    sink.add("cost-index-budget", None, message);
    findings.pop()
}

/// `index-similar-descriptions`: each offered skill whose index line is
/// close to another's ([`crate::similar::CONFUSABLE_THRESHOLD`]), with its
/// closest partner.
pub(crate) fn check_similar(
    confusable: &Confusable,
    catalog: &Catalog,
    roots: &[PathBuf],
    findings: &mut Vec<Finding>,
) {
    let by_path: std::collections::HashMap<&Path, usize> =
        catalog.skills.iter().enumerate().map(|(i, s)| (s.skill_md.as_path(), i)).collect();
    let flagged = confusable.closest_partners();
    // Each finding reads its SKILL.md again for the line of `description`:
    // a home of look-alikes flags most of its skills.
    let per_skill = crate::parallel_map_min(&flagged, 256, |(skill, closest, partners)| {
        let index = skill.path.as_deref().and_then(|p| by_path.get(p).copied())?;
        let others = match partners {
            1 => String::new(),
            n => format!(" (and {} more)", n - 1),
        };
        let message = format!(
            "the agent may confuse `{}` with `{}`{others}: their index lines are alike (similarity {:.2}): `{}` / `{}`",
            skill.name, closest.skill.name, closest.score, skill.text, closest.skill.text
        );
        let catalog_skill = &catalog.skills[index];
        let line = crate::source::read_text(&catalog_skill.skill_md)
            .ok()
            .and_then(|t| super::frontmatter_rules::key_line(&t, "description"));
        let mut found = Vec::new();
        skill_sink(&mut found, catalog_skill, roots).add("index-similar-descriptions", line, message);
        for f in &mut found {
            f.skill = Some(index);
        }
        Some(found)
    });
    findings.extend(per_skill.into_iter().flatten().flatten());
}
