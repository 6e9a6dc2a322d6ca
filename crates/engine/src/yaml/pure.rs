//! Where PyYAML's pure-Python parser (`yaml.safe_load`, which Hermes uses
//! for bundles) reads a text differently from libyaml's: its scanner skips
//! only spaces between tokens, takes `,` `[` `]` into tags, and wants a
//! space after a block scalar's indicators. Over 480,000 generated
//! documents (`tests/golden/gen_yaml_cases.py`, seeds 1-12) the two then
//! differ only on three pieces of token soup no bundle file holds: `[=:]`,
//! `{...&a ? x}`, and a tab after a comment that follows a bare tag.

use super::events::{Mark, Parser};
use super::LoadError;

/// Where a scalar's token lies (byte offsets, properties included).
#[derive(Debug, Clone, Copy)]
pub struct ScalarSpan {
    pub start: usize,
    pub end: usize,
    pub plain: bool,
}

/// libyaml ends a tag at `,` `[` `]`; the pure-Python scanner takes them
/// into the tag (`[!!str, a]` is one item tagged `!!str,`). Replacing each
/// such character with `~`, which both take into a tag, makes libyaml parse
/// what the pure-Python parser parses (a tag SafeLoader cannot construct).
/// Offsets are kept, so marks stay right.
pub fn absorb_flow_indicators_into_tags(text: &str) -> String {
    let mut bytes = text.as_bytes().to_vec();
    loop {
        let current = String::from_utf8_lossy(&bytes).into_owned();
        let hits: Vec<usize> = Parser::tag_ends(&current)
            .into_iter()
            .filter(|&e| matches!(bytes.get(e), Some(b',' | b'[' | b']')))
            .collect();
        if hits.is_empty() {
            return current;
        }
        for at in hits {
            bytes[at] = b'~';
        }
    }
}

/// The scanner error the pure-Python parser raises on a text libyaml
/// parsed, if any (the earlier of a misplaced tab or block header).
pub fn refusal(text: &str, scalars: &[ScalarSpan]) -> Option<LoadError> {
    let tab = stray_tab(text, scalars).map(|at| {
        let problem = "found character '\\t' that cannot start any token".to_owned();
        (at, LoadError::yaml("ScannerError", Some(("while scanning for the next token".into(), at)), problem, at))
    });
    let header = bad_block_header(text, scalars).map(|(start, at, found)| {
        let problem = format!("expected chomping or indentation indicators, but found {found}");
        (at, LoadError::yaml("ScannerError", Some(("while scanning a block scalar".into(), start)), problem, at))
    });
    [tab, header].into_iter().flatten().min_by_key(|(at, _)| at.index).map(|(_, e)| e)
}

/// Where a block scalar's body begins: after its header line.
fn block_indicator(bytes: &[u8], span: &ScalarSpan) -> Option<usize> {
    let rel = bytes[span.start..span.end].iter().position(|b| matches!(b, b'|' | b'>' | b'\'' | b'"'))?;
    let at = span.start + rel;
    matches!(bytes[at], b'|' | b'>').then_some(at)
}

/// A tab is accepted only inside a quoted scalar, in a block scalar's
/// content, or in a comment; a plain scalar ends at one.
fn stray_tab(text: &str, scalars: &[ScalarSpan]) -> Option<Mark> {
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(rel) = memchr::memchr(b'\t', &bytes[from..]) {
        let at = from + rel;
        from = at + 1;
        let accepted = scalars.iter().filter(|s| !s.plain).any(|s| {
            let body = match block_indicator(bytes, s) {
                Some(i) => memchr::memchr(b'\n', &bytes[i..s.end]).map_or(s.end, |n| i + n),
                None => s.start,
            };
            (body..s.end).contains(&at)
        });
        if !accepted && !in_comment(bytes, at, scalars) {
            return Some(mark_at(text, at));
        }
    }
    None
}

/// Whether a comment starts earlier on the tab's line: a `#` outside every
/// scalar (tokens other than scalars hold no `#`).
fn in_comment(bytes: &[u8], at: usize, scalars: &[ScalarSpan]) -> bool {
    let line_start = bytes[..at].iter().rposition(|&b| b == b'\n').map_or(0, |n| n + 1);
    (line_start..at).any(|i| bytes[i] == b'#' && !scalars.iter().any(|s| (s.start..s.end).contains(&i)))
}

/// A block scalar whose indicators are not followed by a space or a line
/// break (`|#comment`): (start, problem mark, found character's repr).
fn bad_block_header(text: &str, scalars: &[ScalarSpan]) -> Option<(Mark, Mark, String)> {
    let bytes = text.as_bytes();
    scalars.iter().filter(|s| !s.plain).find_map(|s| {
        let start = block_indicator(bytes, s)?;
        let mut i = start + 1;
        while i < bytes.len() && (bytes[i] == b'+' || bytes[i] == b'-' || bytes[i].is_ascii_digit()) {
            i += 1;
        }
        match bytes.get(i) {
            None | Some(b' ' | b'\r' | b'\n') => None,
            Some(_) => {
                let c = text[i..].chars().next()?;
                Some((mark_at(text, start), mark_at(text, i), crate::py::py_str_repr(&c.to_string())))
            }
        }
    })
}

/// The mark of a byte offset.
fn mark_at(text: &str, at: usize) -> Mark {
    let bytes = text.as_bytes();
    let line_start = bytes[..at].iter().rposition(|&b| b == b'\n').map_or(0, |n| n + 1);
    let line = bytes[..at].iter().filter(|&&b| b == b'\n').count();
    let column = text[line_start..at].chars().count();
    Mark { index: at as u64, line: line as u64, column: column as u64 }
}
