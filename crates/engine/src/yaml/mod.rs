//! YAML read exactly as Hermes reads it: PyYAML 6 with YAML 1.1 types.
//!
//! Hermes loads frontmatter and config.yaml with `yaml.CSafeLoader` (libyaml
//! 0.2.5's parser under PyYAML's composer, resolver and constructor), and
//! bundles and the managed config overlay with `yaml.safe_load` (the same
//! resolver and constructor over PyYAML's pure-Python parser, whose
//! differences `pure` applies). [`load`] follows that pipeline step by step:
//!
//! - `events`: libyaml's own parser (the `unsafe-libyaml` translation of
//!   libyaml 0.2.5, the release PyYAML's wheels bundle), so syntax is
//!   accepted and refused exactly as `CSafeLoader` does. The safe port
//!   `libyaml-safer` was not chosen: it restructures the code, and any
//!   behaviour it drifts into would be a difference from Hermes;
//! - `compose`: anchors, aliases and the single-document rule;
//! - `resolve`: implicit types of plain scalars and explicit tags;
//! - `construct`: `SafeConstructor`, in its order, with its exceptions
//!   (`ConstructorError` and the `ValueError`s of `int()`, `datetime`, ...).
//!
//! What Python would hold without limit is capped so bad input cannot
//! exhaust memory or the stack: nesting deeper than [`MAX_DEPTH`] and
//! aliases expanding past [`MAX_VALUES`] values fail the load ([`ErrorKind::Limit`]).

mod compose;
mod construct;
mod events;
mod number;
mod plain;
mod pure;
mod resolve;

use crate::py::PyError;
use crate::value::Value;
use events::{Mark, SyntaxError, SyntaxErrorKind};
use std::fmt;

/// Nesting deeper than this fails the load (Python's own recursion limit
/// stops `str()` and `json.dumps` of such a value at about the same depth).
pub const MAX_DEPTH: usize = 1000;

/// Aliases may not expand a document to more values than this.
pub const MAX_VALUES: usize = 200_000;

/// Why a document did not load.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadError {
    pub kind: ErrorKind,
    /// `str(exception)` as Python prints it.
    pub message: String,
    /// The line (from 1) of the YAML text the problem is on, when known.
    pub line: Option<usize>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// A `yaml.YAMLError` subclass (`ScannerError`, `ConstructorError`, ...).
    Yaml(&'static str),
    /// Another Python exception raised while constructing (`ValueError`, ...):
    /// callers that catch only `yaml.YAMLError` let it through.
    Python(&'static str),
    /// One of skillscope's caps on bad input; Hermes has none.
    Limit,
}

impl LoadError {
    fn syntax(e: SyntaxError) -> LoadError {
        let line = Some(e.problem_mark.line as usize + 1);
        match e.kind {
            SyntaxErrorKind::Reader => LoadError {
                kind: ErrorKind::Yaml("ReaderError"),
                message: format!(
                    "unacceptable character #x{:04x}: {}\n  in \"<unicode string>\", position {}",
                    e.problem_value, e.problem, e.problem_offset
                ),
                line,
            },
            SyntaxErrorKind::Memory => {
                LoadError { kind: ErrorKind::Python("MemoryError"), message: String::new(), line: None }
            }
            kind => {
                let name = if kind == SyntaxErrorKind::Scanner { "ScannerError" } else { "ParserError" };
                let context = e.context.map(|c| (c, e.context_mark));
                LoadError::yaml(name, context, e.problem, e.problem_mark)
            }
        }
    }

    /// A `MarkedYAMLError`, printed as PyYAML prints one.
    fn yaml(name: &'static str, context: Option<(String, Mark)>, problem: String, problem_mark: Mark) -> LoadError {
        let mut lines = Vec::new();
        if let Some((context, mark)) = &context {
            lines.push(context.clone());
            if (mark.line, mark.column) != (problem_mark.line, problem_mark.column) {
                lines.push(mark_text(*mark));
            }
        }
        lines.push(problem);
        lines.push(mark_text(problem_mark));
        LoadError { kind: ErrorKind::Yaml(name), message: lines.join("\n"), line: Some(problem_mark.line as usize + 1) }
    }

    fn python(e: PyError, at: Mark) -> LoadError {
        LoadError { kind: ErrorKind::Python(e.kind), message: e.message, line: Some(at.line as usize + 1) }
    }

    fn limit(message: String, at: Mark) -> LoadError {
        LoadError { kind: ErrorKind::Limit, message, line: Some(at.line as usize + 1) }
    }

    /// Whether Python would raise a `yaml.YAMLError` (what `except
    /// yaml.YAMLError` catches).
    pub fn is_yaml_error(&self) -> bool {
        matches!(self.kind, ErrorKind::Yaml(_))
    }

    /// One line for a report: the exception type and its text without marks.
    pub fn reason(&self) -> String {
        let text: Vec<&str> = self.message.lines().filter(|l| !l.starts_with("  in ")).collect();
        match self.kind {
            ErrorKind::Yaml(name) | ErrorKind::Python(name) => format!("{name}: {}", text.join("; ")),
            ErrorKind::Limit => format!("not loaded: {}", text.join("; ")),
        }
    }
}

fn mark_text(mark: Mark) -> String {
    format!("  in \"<unicode string>\", line {}, column {}", mark.line + 1, mark.column + 1)
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(&self.reason())
    }
}

/// The PyYAML loader Hermes reads a file with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Loader {
    /// `yaml.CSafeLoader` (frontmatter, config.yaml).
    CSafe,
    /// `yaml.safe_load`, the pure-Python `SafeLoader` (bundles, the
    /// managed config overlay). Its
    /// scanner refuses tabs libyaml accepts; otherwise the two agree on
    /// what Hermes' files hold.
    Safe,
}

/// `yaml.load(text, Loader=CSafeLoader)`: `Value::Null` for an empty
/// stream.
pub fn load(text: &str) -> Result<Value, LoadError> {
    load_with(text, Loader::CSafe)
}

/// [`load`] with the given loader's rules.
pub fn load_with(text: &str, loader: Loader) -> Result<Value, LoadError> {
    let pure = loader == Loader::Safe;
    let mut graph = compose::compose(text, pure)?;
    let Some(root) = graph.root else { return Ok(Value::Null) };
    if let Some(value) = plain::construct(&mut graph.nodes, root) {
        return Ok(value);
    }
    // The plain path may have emptied nodes: the faithful one parses again.
    let mut graph = compose::compose(text, pure)?;
    construct::construct(&mut graph.nodes, root)
}

#[cfg(test)]
mod tests;

/// Parses YAML like [`load`] but keeps only the top-level keys
/// named in `keys` (a non-mapping document gives an empty sequence). Errors
/// are exactly those of the full parse, so the caller's fallback matches.
pub fn load_selected(text: &str, keys: &[&str]) -> Result<Value, LoadError> {
    match load(text)? {
        Value::Map(mut m) => {
            m.retain(|k, _| k.as_str().is_some_and(|k| keys.contains(&k)));
            Ok(Value::Map(m))
        }
        Value::Null => Ok(Value::Null),
        _ => Ok(Value::Seq(Vec::new())),
    }
}
