//! `check` from start to end: the settings file and the flags made one
//! policy, the walk, the install decision of `--trust`, the names asked
//! for, and the report every output format writes.

use super::select::{self, Selector, UnknownRule};
use super::settings::{self, Settings, SettingsError};
use super::Progress;
use super::{dedup, fold_noisy, Dropped, Policy, Report};
use crate::catalog::Catalog;
use crate::diagnostics::rules::GUARD_FAMILY;
use crate::diagnostics::{Finding, Severity};
use crate::layers::{DbRead, Layers};
use crate::Engine;
use std::path::{Path, PathBuf};

/// What the command line says over the settings file.
#[derive(Debug, Default, Clone)]
pub struct Overrides {
    pub min_severity: Option<Severity>,
    /// The distribution whose install decision makes guard findings count
    /// (`--trust`): a skill it would refuse has its guard findings raised to
    /// errors, with the refusal. Without it they are informational.
    pub trust: Option<&'static str>,
    /// Rules, codes or prefixes (`--select`, `--ignore`), as given.
    pub select: Vec<String>,
    pub ignore: Vec<String>,
    /// `--config PATH`: this settings file, not the one found.
    pub config: Option<PathBuf>,
    /// `--isolated`: no settings file at all.
    pub isolated: bool,
}

/// Why a check cannot start: each is a usage error.
#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    #[error("settings: {0}")]
    Settings(#[from] SettingsError),
    /// A `--select` or `--ignore` naming no rule.
    #[error("{flag}: {rule}")]
    Flag { flag: &'static str, rule: UnknownRule },
    #[error("no bundle {0}")]
    NoBundle(String),
    #[error("no skill named {0}")]
    NoSkill(String),
}

/// The settings the flags and the settings file make, or the usage error.
pub struct Resolved {
    pub policy: Policy,
    pub trust: Option<&'static str>,
    pub settings: Option<PathBuf>,
}

/// Reads the settings file (`--config`, else the one found above
/// `checked`, unless `--isolated`) and lays the flags over it.
pub fn resolve(args: &Overrides, checked: &Path) -> Result<Resolved, CheckError> {
    let settings = if args.isolated {
        Settings::default()
    } else {
        match args.config.clone().or_else(|| settings::discover(checked)) {
            Some(path) => settings::load(&path)?,
            None => Settings::default(),
        }
    };
    let flag = |flag: &'static str, given: &[String]| -> Result<Option<Vec<Selector>>, CheckError> {
        if given.is_empty() {
            return Ok(None);
        }
        select::parse_all(given).map(Some).map_err(|rule| CheckError::Flag { flag, rule })
    };
    let check = &settings.check;
    let select = flag("--select", &args.select)?.or_else(|| check.select.clone()).unwrap_or_default();
    let ignore = flag("--ignore", &args.ignore)?.or_else(|| check.ignore.clone()).unwrap_or_default();
    let policy = Policy {
        select,
        ignore,
        severity: check.severity.clone(),
        per_path_ignores: check.per_path_ignores.clone(),
        base: settings.base().map(Path::to_path_buf),
        min: args.min_severity.or(check.min_severity).unwrap_or(Severity::Error),
        budgets: settings.cost,
        only: None,
        written_as: Vec::new(),
    };
    Ok(Resolved { policy, trust: args.trust.or(check.trust), settings: settings.path })
}

/// The rule of the finding a refused install adds.
pub const INSTALL_BLOCKED: &str = "guard-install-blocked";

/// Raises the guard findings of every skill an install at `trust` would
/// refuse to errors, and adds the refusal with Hermes' reason. Each skill
/// folder is scanned as Hermes' guard does (`skillscope scan`).
fn apply_install_decision(engine: &Engine, catalog: &Catalog, trust: &'static str, all: &mut Vec<Finding>) {
    let skills: Vec<usize> = (0..catalog.skills.len()).filter(|&i| catalog.skills[i].db_row.is_none()).collect();
    let refused = crate::parallel_map(&skills, |&i| {
        let skill = &catalog.skills[i];
        let decision = crate::scan::scan_skill(&skill.skill_dir, &crate::scan::Origin::Trust(trust)).decision(false);
        (decision.allowed != Some(true)).then_some((i, decision.reason))
    });
    let refused: std::collections::HashMap<usize, String> = refused.into_iter().flatten().collect();
    if refused.is_empty() {
        return;
    }
    for f in all.iter_mut() {
        if f.rule.starts_with(GUARD_FAMILY) && f.skill.is_some_and(|i| refused.contains_key(&i)) {
            f.severity = Severity::Error;
        }
    }
    let roots = engine.diagnostic_roots(catalog);
    for (&i, reason) in &refused {
        let skill = &catalog.skills[i];
        let path: std::sync::Arc<std::path::Path> = skill.skill_md.as_path().into();
        all.push(Finding {
            rule: INSTALL_BLOCKED.into(),
            severity: Severity::Error,
            skill: Some(i),
            skill_name: Some(skill.name.as_str().into()),
            skill_md: Some(path.clone()),
            rel_path: crate::diagnostics::relative(&path, &roots),
            path,
            line: None,
            column: None,
            message: format!("a hub install as {trust} is refused: {reason}"),
            hint: "`skillscope scan` shows Hermes' report for this skill; rephrase or remove what it flags, or add it to the skill's .skillignore if it is not part of the installed skill.".into(),
            left_out: 0,
        });
    }
}

/// The report for the named skills (name, folder or categorized path) and
/// bundles (`/slug`), or for the whole home, as the policy says.
pub fn report(
    engine: &Engine,
    layered: Option<(&Layers, &DbRead)>,
    names: &[String],
    resolved: &Resolved,
    progress: &Progress,
) -> Result<Report, CheckError> {
    crate::guard::patterns::prepare_in_background();
    let policy = &resolved.policy;
    // A whole-home check drops what is below `min` as it goes; one for some
    // names keeps all until the other skills' findings are set aside, so
    // that what it leaves out is counted for those names alone. Guard
    // findings an install decision may raise are kept too.
    let walk_policy = match names.is_empty() && resolved.trust.is_none() {
        true => policy.clone(),
        false => Policy { min: Severity::Info, ..policy.clone() },
    };
    let (catalog, mut all) = match layered {
        Some((layers, db)) => engine.check_layered(layers, db, progress, &walk_policy),
        None => engine.check_home(progress, &walk_policy),
    };
    if let Some(trust) = resolved.trust {
        apply_install_decision(engine, &catalog, trust, &mut all);
        all.retain_mut(|f| walk_policy.judge(f).is_ok());
    }
    let found = catalog.skills.len();
    let mut skills = found;
    if !names.is_empty() {
        let mut keep_skills = Vec::new();
        let mut keep_bundles = Vec::new();
        for n in names {
            if n.starts_with('/') {
                let b = catalog.bundles.bundles.get(n).ok_or_else(|| CheckError::NoBundle(n.clone()))?;
                keep_bundles.push(b.path.clone());
                continue;
            }
            let matched: Vec<usize> = catalog
                .skills
                .iter()
                .enumerate()
                .filter(|(_, s)| {
                    // A database skill has no folder: only its name matches.
                    let Some(dir) = s.skill_dir.file_name().map(|d| d.to_string_lossy().into_owned()) else {
                        return s.name == *n;
                    };
                    let path = format!("{}/{dir}", s.category_path());
                    s.name == *n || dir == *n || path.trim_start_matches('/') == n.trim_matches('/')
                })
                .map(|(i, _)| i)
                .collect();
            if matched.is_empty() {
                return Err(CheckError::NoSkill(n.clone()));
            }
            keep_skills.extend(matched);
        }
        skills = keep_skills.len();
        all.retain(|f| {
            f.skill.is_some_and(|s| keep_skills.contains(&s))
                || keep_bundles.iter().any(|b: &std::path::PathBuf| b.as_path() == &*f.path)
        });
    }
    let tally = &progress.tally;
    let mut below_min = [Severity::Info, Severity::Warning, Severity::Error].map(|s| progress.dropped(s));
    if !names.is_empty() {
        // Counted for the named skills alone.
        below_min = [0; 3];
    }
    all.retain(|f| {
        let keep = f.severity >= policy.min;
        if !keep {
            below_min[f.severity.index()] += 1;
        }
        keep
    });
    dedup(&mut all);
    let folded = fold_noisy(&all, skills, &policy.named_exactly());
    all.sort_by(|a, b| (&a.rel_path, a.line, a.column, &a.rule).cmp(&(&b.rel_path, b.line, b.column, &b.rule)));
    Ok(Report {
        findings: all,
        folded,
        skills,
        found,
        min: policy.min,
        settings: resolved.settings.clone(),
        suppressed_inline: tally.get(Dropped::Inline),
        suppressed_by_path: tally.get(Dropped::PerPath),
        below_min,
        // Only the similarity of descriptions is left unrun for its cost
        // (`check::walk`); every other rule is run and its findings counted.
        not_run_below_min: ["index-similar-descriptions"].into_iter().filter(|id| policy.below_min(id)).collect(),
    })
}
