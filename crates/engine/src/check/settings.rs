//! `skillscope.toml` (or `.skillscope.toml`): a repository's settings for
//! `check`, found as ruff finds its own, by walking up from the checked
//! folder. A file that cannot be used is a usage error naming its line.
//!
//! ```toml
//! [check]
//! select = ["hermes-", "S"]        # names, codes, prefixes or ALL
//! ignore = ["hermes-unlinked-file"]
//! min-severity = "warning"
//! trust = "community"
//!
//! [check.severity]                 # a rule or prefix: error, warning, info or off
//! spec-name-folder = "off"
//! "G" = "warning"
//!
//! [check.per-path-ignores]         # globs relative to this file
//! "vendor/**" = ["spec-"]
//! "SKILL.md" = ["H013"]            # without a `/`: any file of that name
//!
//! [cost]                           # token budgets (o200k_base)
//! max-index-tokens = 8000          # the whole skills index: cost-index-budget
//! max-skill-tokens = 4000          # one SKILL.md as the agent loads it: cost-skill-budget
//! ```

use super::select::{Selector, UnknownRule};
use crate::diagnostics::Severity;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use toml::Spanned;

/// The names looked for in each folder, in order.
pub const FILE_NAMES: [&str; 2] = ["skillscope.toml", ".skillscope.toml"];

/// What a severity table entry makes of a rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Off,
    At(Severity),
}

/// A `per-path-ignores` key that is no glob.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bad glob {glob:?}: {reason}")]
pub struct BadGlob {
    pub glob: String,
    pub reason: String,
}

/// Files matching a glob, and the rules never reported in them.
#[derive(Debug, Clone)]
pub struct PathIgnore {
    pub glob: String,
    matcher: globset::GlobMatcher,
    /// Without a `/`, the glob is matched against a file's name.
    by_name: bool,
    pub rules: Vec<Selector>,
}

impl PathIgnore {
    pub fn new(glob: &str, rules: Vec<Selector>) -> Result<PathIgnore, BadGlob> {
        let matcher = globset::GlobBuilder::new(glob)
            .literal_separator(true)
            .build()
            .map_err(|e| BadGlob { glob: glob.to_owned(), reason: e.kind().to_string() })?
            .compile_matcher();
        Ok(PathIgnore { glob: glob.to_owned(), matcher, by_name: !glob.contains('/'), rules })
    }

    /// Whether it covers `rel` (a path relative to the settings file).
    pub fn covers(&self, rel: &Path) -> bool {
        self.matcher.is_match(rel) || (self.by_name && rel.file_name().is_some_and(|n| self.matcher.is_match(n)))
    }
}

/// The `[check]` table of a settings file, its names resolved.
#[derive(Debug, Clone, Default)]
pub struct CheckSettings {
    pub select: Option<Vec<Selector>>,
    pub ignore: Option<Vec<Selector>>,
    pub min_severity: Option<Severity>,
    pub trust: Option<&'static str>,
    pub severity: Vec<(Selector, Level)>,
    pub per_path_ignores: Vec<PathIgnore>,
}

pub use crate::cost::CostBudgets;

/// A settings file, read.
#[derive(Debug, Clone, Default)]
pub struct Settings {
    /// The file read; `None` for no file (defaults).
    pub path: Option<PathBuf>,
    pub check: CheckSettings,
    pub cost: CostBudgets,
}

impl Settings {
    /// The folder its globs are relative to.
    pub fn base(&self) -> Option<&Path> {
        self.path.as_deref().and_then(Path::parent)
    }
}

/// Why a settings file cannot be used: its path, the line, what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettingsError {
    pub path: PathBuf,
    pub line: Option<usize>,
    pub message: String,
}

impl std::fmt::Display for SettingsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{line}: {}", self.path.display(), self.message),
            None => write!(f, "{}: {}", self.path.display(), self.message),
        }
    }
}

impl std::error::Error for SettingsError {}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileTables {
    check: Option<CheckTable>,
    cost: Option<CostTable>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct CostTable {
    max_index_tokens: Option<Spanned<i64>>,
    max_skill_tokens: Option<Spanned<i64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct CheckTable {
    select: Option<Spanned<Vec<Spanned<String>>>>,
    ignore: Option<Spanned<Vec<Spanned<String>>>>,
    min_severity: Option<Spanned<String>>,
    trust: Option<Spanned<String>>,
    #[serde(default)]
    severity: BTreeMap<String, Spanned<String>>,
    #[serde(default)]
    per_path_ignores: BTreeMap<String, Spanned<Vec<Spanned<String>>>>,
}

/// The settings file for `start`: in it or the nearest folder above that
/// holds one.
pub fn discover(start: &Path) -> Option<PathBuf> {
    let start = crate::paths::resolve(start);
    start.ancestors().flat_map(|dir| FILE_NAMES.iter().map(move |n| dir.join(n))).find(|p| p.is_file())
}

/// Reads a settings file.
pub fn load(path: &Path) -> Result<Settings, SettingsError> {
    let fail = |line: Option<usize>, message: String| SettingsError { path: path.to_path_buf(), line, message };
    let bytes = std::fs::read(path).map_err(|e| fail(None, e.to_string()))?;
    let text = String::from_utf8(bytes).map_err(|_| fail(None, "not UTF-8 text".into()))?;
    parse(path, &text)
}

/// Parses a settings file's text (`path` names it in errors).
pub fn parse(path: &Path, text: &str) -> Result<Settings, SettingsError> {
    let line_of = |offset: usize| text[..offset.min(text.len())].matches('\n').count() + 1;
    let fail = |offset: usize, message: String| SettingsError {
        path: path.to_path_buf(),
        line: Some(line_of(offset)),
        message,
    };
    let tables: FileTables = toml::from_str(text).map_err(|e| SettingsError {
        path: path.to_path_buf(),
        line: e.span().map(|s| line_of(s.start)),
        // toml says nothing of some ends (`x = ` and no value): not a blank.
        message: Some(e.message().trim()).filter(|m| !m.is_empty()).unwrap_or("not valid TOML here").to_owned(),
    })?;
    let mut settings = Settings { path: Some(path.to_path_buf()), ..Settings::default() };
    if let Some(cost) = &tables.cost {
        let budget = |key: &str, value: &Option<Spanned<i64>>| -> Result<Option<usize>, SettingsError> {
            let Some(value) = value else { return Ok(None) };
            match usize::try_from(*value.get_ref()) {
                Ok(n) if n > 0 => Ok(Some(n)),
                _ => {
                    Err(fail(value.span().start, format!("{key} {}: use a number of tokens above 0", value.get_ref())))
                }
            }
        };
        settings.cost = CostBudgets {
            max_index_tokens: budget("max-index-tokens", &cost.max_index_tokens)?,
            max_skill_tokens: budget("max-skill-tokens", &cost.max_skill_tokens)?,
        };
    }
    let Some(table) = tables.check else { return Ok(settings) };
    let selectors = |list: &[Spanned<String>]| -> Result<Vec<Selector>, SettingsError> {
        list.iter()
            .map(|name| {
                Selector::parse(name.get_ref()).map_err(|e: UnknownRule| fail(name.span().start, e.to_string()))
            })
            .collect()
    };
    let check = &mut settings.check;
    if let Some(list) = &table.select {
        check.select = Some(selectors(list.get_ref())?);
    }
    if let Some(list) = &table.ignore {
        check.ignore = Some(selectors(list.get_ref())?);
    }
    if let Some(level) = &table.min_severity {
        let severity = Severity::parse(level.get_ref());
        let message = format!("min-severity {:?}: use error, warning or info", level.get_ref());
        check.min_severity = Some(severity.ok_or_else(|| fail(level.span().start, message))?);
    }
    if let Some(trust) = &table.trust {
        let level = crate::scan::parse_trust_level(trust.get_ref());
        let message = format!("trust {:?}: use {}", trust.get_ref(), crate::scan::TRUST_LEVELS.join(", "));
        check.trust = Some(level.ok_or_else(|| fail(trust.span().start, message))?);
    }
    for (rule, level) in &table.severity {
        let at = level.span().start;
        let selector = Selector::parse(rule).map_err(|e| fail(at, e.to_string()))?;
        let level = match level.get_ref().trim().to_ascii_lowercase().as_str() {
            "off" => Level::Off,
            other => match Severity::parse(other) {
                Some(s) => Level::At(s),
                None => return Err(fail(at, format!("severity of {rule} {other:?}: use error, warning, info or off"))),
            },
        };
        check.severity.push((selector, level));
    }
    for (glob, rules) in &table.per_path_ignores {
        let at = rules.span().start;
        let ignore = PathIgnore::new(glob, selectors(rules.get_ref())?).map_err(|e| fail(at, e.to_string()))?;
        check.per_path_ignores.push(ignore);
    }
    Ok(settings)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(text: &str) -> Result<Settings, SettingsError> {
        parse(Path::new("/repo/skillscope.toml"), text)
    }

    /// A file that ends where a value should be says so, not a blank.
    #[test]
    fn a_file_cut_off_says_why() {
        for text in ["x = ", "[check]\nselect = "] {
            let e = parsed(text).expect_err(text);
            assert!(!e.message.is_empty(), "{text:?}: {e:?}");
        }
    }

    #[test]
    fn every_key() {
        let s = parsed(
            "[check]\nselect = [\"hermes-\", \"S\"]\nignore = [\"hermes-unlinked-file\"]\nmin-severity = \"warning\"\n\
             trust = \"community\"\n[check.severity]\nspec-name-folder = \"off\"\nG = \"warning\"\n\
             [check.per-path-ignores]\n\"vendor/**\" = [\"spec-\"]\n\"SKILL.md\" = [\"H013\"]\n",
        )
        .expect("parses");
        let c = &s.check;
        assert_eq!(c.select.as_ref().map(Vec::len), Some(2));
        assert_eq!(c.min_severity, Some(Severity::Warning));
        assert_eq!(c.trust, Some("community"));
        assert!(c.severity.iter().any(|(_, l)| *l == Level::Off));
        let vendor = c.per_path_ignores.iter().find(|p| p.glob == "vendor/**").expect("glob");
        assert!(vendor.covers(Path::new("vendor/a/b/SKILL.md")) && !vendor.covers(Path::new("skills/vendor.md")));
        let by_name = c.per_path_ignores.iter().find(|p| p.glob == "SKILL.md").expect("glob");
        assert!(by_name.covers(Path::new("skills/deploy/SKILL.md")));
        assert_eq!(s.base(), Some(Path::new("/repo")));
    }

    #[test]
    fn cost_budgets() {
        let s = parsed("[cost]\nmax-index-tokens = 8000\nmax-skill-tokens = 4000\n").expect("parses");
        assert_eq!(s.cost, CostBudgets { max_index_tokens: Some(8000), max_skill_tokens: Some(4000) });
        let e = parsed("[cost]\nmax-index-tokens = 0\n").unwrap_err();
        assert_eq!(e.line, Some(2));
        assert!(e.message.contains("max-index-tokens"), "{e}");
        let e = parsed("[cost]\nmax-tokens = 5\n").unwrap_err();
        assert!(e.message.contains("unknown field"), "{e}");
    }

    #[test]
    fn errors_name_the_line() {
        let e = parsed("[check]\nselect = [\n  \"hermes-missing-files\",\n]\n").unwrap_err();
        assert_eq!(e.line, Some(3), "{e}");
        assert!(e.to_string().contains("did you mean `hermes-missing-file`"), "{e}");
        let e = parsed("[check]\nfont = 1\n").unwrap_err();
        assert_eq!(e.line, Some(2), "{e}");
        let e = parsed("[check]\nmin-severity = \"loud\"\n").unwrap_err();
        assert!(e.to_string().starts_with("/repo/skillscope.toml:2: min-severity"), "{e}");
        let e = parsed("[check.severity]\nspec-name-folder = \"quiet\"\n").unwrap_err();
        assert_eq!(e.line, Some(2), "{e}");
        let e = parsed("[check.per-path-ignores]\n\"[a\" = [\"S001\"]\n").unwrap_err();
        assert!(e.message.starts_with("bad glob"), "{e}");
        assert!(parsed("[lint]\n").is_err(), "unknown tables are refused");
        assert!(parsed("").is_ok_and(|s| s.check.select.is_none()));
    }

    #[test]
    fn found_by_walking_up() {
        let t = tempfile::tempdir().expect("tmp");
        let deep = t.path().join("a/b/c");
        std::fs::create_dir_all(&deep).expect("mkdir");
        assert_eq!(discover(&deep), None);
        std::fs::write(t.path().join("a/.skillscope.toml"), "").expect("write");
        let found = discover(&deep).expect("found");
        assert!(found.ends_with("a/.skillscope.toml"), "{found:?}");
        std::fs::write(t.path().join("a/b/skillscope.toml"), "").expect("write");
        assert!(discover(&deep).expect("found").ends_with("a/b/skillscope.toml"));
    }
}
