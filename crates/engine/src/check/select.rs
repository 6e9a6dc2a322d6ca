//! Naming rules as ruff does: a rule's name or code, a prefix of either
//! (`guard-`, `hermes-*`, `H0`, `G`), or `ALL`. A name that matches no rule
//! is refused with the closest ones, so a typo never turns CI green.

use crate::diagnostics::rules::{self, RuleRef};
use std::fmt;

/// What a name in `--select`, `--ignore`, a settings file or a suppression
/// comment stands for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Selector {
    All,
    /// One rule, by its name or its code.
    Rule(&'static RuleRef),
    /// Rules whose names start with this (`guard-`).
    NamePrefix(String),
    /// Rules whose codes start with this (`H0`).
    CodePrefix(String),
}

/// A name that stands for no rule, and the closest ones.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownRule {
    pub given: String,
    pub closest: Vec<String>,
}

impl fmt::Display for UnknownRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown rule `{}`", crate::sanitize::clean_line(&self.given))?;
        match self.closest.as_slice() {
            [] => write!(f, " (`skillscope check --list-rules` shows them all)"),
            names => {
                write!(f, "; did you mean {}?", names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", "))
            }
        }
    }
}

impl std::error::Error for UnknownRule {}

impl Selector {
    pub fn parse(text: &str) -> Result<Selector, UnknownRule> {
        let text = text.trim();
        if text == "ALL" {
            return Ok(Selector::All);
        }
        if let Some(rule) = rules::lookup(text).or_else(|| rules::lookup(&text.to_ascii_uppercase())) {
            return Ok(Selector::Rule(rule));
        }
        let all = rules::all();
        let stem = text.strip_suffix('*').unwrap_or(text);
        let looks_like_code = !stem.is_empty()
            && stem.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
            && stem.chars().all(|c| c.is_ascii_alphanumeric())
            && !stem.contains('-');
        if looks_like_code {
            let code = stem.to_ascii_uppercase();
            if all.iter().any(|r| r.code.starts_with(&code)) {
                return Ok(Selector::CodePrefix(code));
            }
        }
        let is_prefix = text.ends_with('*') || text.ends_with('-');
        if is_prefix && !stem.is_empty() && all.iter().any(|r| r.name.starts_with(stem)) {
            return Ok(Selector::NamePrefix(stem.to_owned()));
        }
        Err(UnknownRule { given: text.to_owned(), closest: closest(text) })
    }

    pub fn matches(&self, rule: &RuleRef) -> bool {
        match self {
            Selector::All => true,
            Selector::Rule(r) => r.name == rule.name,
            Selector::NamePrefix(p) => rule.name.starts_with(p.as_str()),
            Selector::CodePrefix(p) => rule.code.starts_with(p.as_str()),
        }
    }

    /// How specific it is: a rule beats a longer prefix, which beats a
    /// shorter one, which beats `ALL` (a settings file's severity table).
    pub fn specificity(&self) -> usize {
        match self {
            Selector::All => 0,
            Selector::NamePrefix(p) | Selector::CodePrefix(p) => p.len(),
            Selector::Rule(_) => usize::MAX,
        }
    }

    /// The one rule it names exactly, if it does.
    pub fn exact(&self) -> Option<&'static RuleRef> {
        match self {
            Selector::Rule(r) => Some(r),
            _ => None,
        }
    }
}

impl fmt::Display for Selector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Selector::All => write!(f, "ALL"),
            Selector::Rule(r) => write!(f, "{}", r.name),
            Selector::NamePrefix(p) => write!(f, "{p}*"),
            Selector::CodePrefix(p) => write!(f, "{p}"),
        }
    }
}

/// Parses every name; the first unknown one is the error.
pub fn parse_all<S: AsRef<str>>(names: &[S]) -> Result<Vec<Selector>, UnknownRule> {
    names.iter().flat_map(|n| split_list(n.as_ref())).map(|n| Selector::parse(&n)).collect()
}

/// `a,b c` as ruff reads a list given in one argument.
pub fn split_list(text: &str) -> Vec<String> {
    text.split([',', ' ']).map(str::trim).filter(|s| !s.is_empty()).map(str::to_owned).collect()
}

/// The rule names (and family prefixes) closest to `given`, best first.
fn closest(given: &str) -> Vec<String> {
    let given_lower = given.to_ascii_lowercase();
    let mut candidates: Vec<String> = rules::all().iter().flat_map(|r| [r.name.clone(), r.code.clone()]).collect();
    for family in ["spec-", "hermes-", "bundle-", "layer-", "guard-", "cost-", "index-"] {
        candidates.push(family.to_owned());
    }
    let mut scored: Vec<(usize, String)> = candidates
        .into_iter()
        .map(|c| (crate::words::edit_distance(&given_lower, &c.to_ascii_lowercase()), c))
        .filter(|(d, c)| *d <= (c.len().max(given.len()) / 3).max(2))
        .collect();
    scored.sort();
    scored.dedup_by(|a, b| a.1 == b.1);
    scored.into_iter().take(3).map(|(_, c)| c).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_codes_and_prefixes() {
        let rule = |s: &str| Selector::parse(s).ok().and_then(|s| s.exact()).map(|r| r.name.clone());
        assert_eq!(rule("hermes-missing-file").as_deref(), Some("hermes-missing-file"));
        let code = rules::code_of("hermes-missing-file").expect("code");
        assert_eq!(rule(code).as_deref(), Some("hermes-missing-file"));
        assert_eq!(rule(&code.to_lowercase()).as_deref(), Some("hermes-missing-file"));
        assert_eq!(Selector::parse("guard-"), Ok(Selector::NamePrefix("guard-".into())));
        assert_eq!(Selector::parse("hermes-*"), Ok(Selector::NamePrefix("hermes-".into())));
        assert_eq!(Selector::parse("H0"), Ok(Selector::CodePrefix("H0".into())));
        assert_eq!(Selector::parse("g"), Ok(Selector::CodePrefix("G".into())));
        assert_eq!(Selector::parse("ALL"), Ok(Selector::All));
    }

    #[test]
    fn unknown_names_are_refused_with_the_closest() {
        let e = Selector::parse("hermes-missing-files").unwrap_err();
        assert_eq!(e.closest.first().map(String::as_str), Some("hermes-missing-file"));
        assert!(e.to_string().starts_with("unknown rule `hermes-missing-files`; did you mean `hermes-missing-file`"));
        assert!(Selector::parse("nosuch-rule").is_err());
        assert!(Selector::parse("hermes").is_err(), "a family needs its dash or a star");
        assert_eq!(Selector::parse("gaurd-").unwrap_err().closest.first().map(String::as_str), Some("guard-"));
        assert!(Selector::parse("Z9").is_err());
        assert!(Selector::parse("guard-nosuch*").is_err());
    }

    #[test]
    fn specificity_orders_rule_prefix_all() {
        let rule = Selector::parse("hermes-missing-file").expect("rule");
        let long = Selector::parse("hermes-").expect("prefix");
        let short = Selector::parse("H").expect("prefix");
        assert!(rule.specificity() > long.specificity() && long.specificity() > short.specificity());
        assert!(short.specificity() > Selector::All.specificity());
        assert_eq!(parse_all(&["H024,S001", "guard-"]).map(|s| s.len()), Ok(3));
    }
}
