//! Where PyYAML's pure-Python parser (`yaml.safe_load`, which Hermes uses
//! for bundles) reads a text differently from libyaml's: its scanner skips
//! only spaces between tokens (a tab between a tag or anchor and its
//! scalar is refused), takes `,` `[` `]` into tags, wants a space after a
//! block scalar's indicators, ends a plain scalar at `?` inside brackets,
//! and takes a tab after the spaces that set a block scalar's indentation
//! as content (libyaml refuses it: the indentation is written into the
//! header, [`indentation_given`]). Over the generated documents of
//! `tests/golden/gen_yaml_cases.py` (seeds 1-12 and 424242-425100, 4,000
//! each) the two then differ only on token soup no bundle file holds, all
//! of it refused by libyaml: a `:` right before a closing bracket (`[=:]`,
//! `{x:y>:}`), `{...&a ? x}`, and an explicit key left empty in brackets
//! (`[? ]`). `tests/golden/yaml_pure_cases.py` holds each rule's cases.

use super::events::{Mark, Parser, SyntaxError, SyntaxErrorKind};
use super::LoadError;

/// The text as the pure-Python scanner reads a byte order mark: skipped at
/// the stream's start only, an ordinary character anywhere else (libyaml
/// skips one at any line's start). Each later U+FEFF is written as a
/// private-use character the text does not hold (as wide in UTF-8), to be
/// written back into the scalars it ends up in.
pub fn bom_as_content(text: &str) -> (std::borrow::Cow<'_, str>, Option<char>) {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if !text.contains('\u{feff}') {
        return (text.into(), None);
    }
    let Some(stand_in) = ('\u{e000}'..='\u{f8ff}').find(|c| !text.contains(*c)) else {
        return (text.into(), None);
    };
    (text.replace('\u{feff}', stand_in.encode_utf8(&mut [0; 4])).into(), Some(stand_in))
}

/// Where a scalar's token lies (byte offsets, properties included).
#[derive(Debug, Clone, Copy)]
pub struct ScalarSpan {
    pub start: usize,
    pub end: usize,
    pub plain: bool,
    /// The flow collection it is in, if any: where that starts, and
    /// whether a sequence.
    pub flow: Option<(Mark, bool)>,
}

impl ScalarSpan {
    /// Where the scalar itself begins: after its properties (a tag, an
    /// anchor) and the blanks, line breaks and comments after them.
    fn token_start(&self, bytes: &[u8]) -> usize {
        let mut i = self.start;
        while i < self.end {
            match bytes[i] {
                b'!' | b'&' => {
                    while i < self.end && !matches!(bytes[i], b' ' | b'\t' | b'\r' | b'\n') {
                        i += 1;
                    }
                }
                b' ' | b'\t' | b'\r' | b'\n' => i += 1,
                b'#' => {
                    while i < self.end && bytes[i] != b'\n' {
                        i += 1;
                    }
                }
                _ => break,
            }
        }
        i
    }

    /// Where its text begins: a block scalar's after its header line
    /// (which may end in a comment), another's at its token.
    fn content_start(&self, bytes: &[u8]) -> usize {
        let at = self.token_start(bytes);
        match bytes.get(at) {
            Some(b'|' | b'>') => memchr::memchr(b'\n', &bytes[at..self.end]).map_or(self.end, |n| at + n),
            _ => at,
        }
    }
}

/// libyaml ends a tag at `,` `[` `]`; the pure-Python scanner takes them
/// into the tag (`[!!str, a]` is one item tagged `!!str,`). Replacing each
/// such character with `~`, which both take into a tag, makes libyaml parse
/// what the pure-Python parser parses (a tag SafeLoader cannot construct).
/// Offsets are kept, so marks stay right.
///
/// `max_depth`: how deep the composer reads (brackets nested deeper are
/// never composed, so their tags need not be looked for).
pub fn absorb_flow_indicators_into_tags(text: &str, max_depth: usize) -> String {
    // A tag begins with `!`.
    if memchr::memchr(b'!', text.as_bytes()).is_none() {
        return text.to_owned();
    }
    let mut bytes = text.as_bytes().to_vec();
    loop {
        let current = String::from_utf8_lossy(&bytes).into_owned();
        let hits: Vec<usize> = Parser::tag_ends(&current, max_depth)
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

/// The error the pure-Python parser raises on a text libyaml parsed, if
/// any (the earliest of a misplaced tab, a block header, or a `?` in a
/// plain scalar inside brackets).
pub fn refusal(text: &str, scalars: &[ScalarSpan]) -> Option<LoadError> {
    let tab = stray_tab(text, scalars).map(|at| {
        let problem = "found character '\\t' that cannot start any token".to_owned();
        (at, LoadError::yaml("ScannerError", Some(("while scanning for the next token".into(), at)), problem, at))
    });
    let header = bad_block_header(text, scalars).map(|(start, at, found)| {
        let problem = format!("expected chomping or indentation indicators, but found {found}");
        (at, LoadError::yaml("ScannerError", Some(("while scanning a block scalar".into(), start)), problem, at))
    });
    let key = key_in_flow_plain(text, scalars).map(|(at, (start, seq))| {
        let (what, close) = if seq { ("sequence", ']') } else { ("mapping", '}') };
        let context = format!("while parsing a flow {what}");
        let problem = format!("expected ',' or '{close}', but got '?'");
        (at, LoadError::yaml("ParserError", Some((context, start)), problem, at))
    });
    [tab, header, key].into_iter().flatten().min_by_key(|(at, _)| at.index).map(|(_, e)| e)
}

/// Where a block scalar's indicator is (`|`, `>`), if it is one.
fn block_indicator(bytes: &[u8], span: &ScalarSpan) -> Option<usize> {
    let at = span.token_start(bytes);
    matches!(bytes.get(at), Some(b'|' | b'>')).then_some(at)
}

/// A `?` inside a plain scalar in a flow collection: the pure-Python
/// scanner ends the scalar there (libyaml does not) and reads a key
/// indicator, which no flow collection takes after an entry. The `?`'s
/// mark and the collection's.
fn key_in_flow_plain(text: &str, scalars: &[ScalarSpan]) -> Option<(Mark, (Mark, bool))> {
    let bytes = text.as_bytes();
    scalars.iter().filter(|s| s.plain).find_map(|s| {
        let flow = s.flow?;
        let body = s.token_start(bytes);
        let rel = memchr::memchr(b'?', bytes.get(body + 1..s.end)?)?;
        Some((mark_at(text, body + 1 + rel), flow))
    })
}

/// A tab is accepted only inside a quoted scalar, in a block scalar's
/// content, or in a comment; a plain scalar ends at one.
fn stray_tab(text: &str, scalars: &[ScalarSpan]) -> Option<Mark> {
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(rel) = memchr::memchr(b'\t', &bytes[from..]) {
        let at = from + rel;
        from = at + 1;
        let accepted = scalars.iter().filter(|s| !s.plain).any(|s| (s.content_start(bytes)..s.end).contains(&at));
        if !accepted && !in_comment(bytes, at, scalars) {
            return Some(mark_at(text, at));
        }
    }
    None
}

/// Whether a comment starts earlier on the tab's line: a `#` outside every
/// scalar's text (its properties and a block scalar's header aside: a
/// comment may follow them). Between tokens the pure-Python scanner takes
/// any `#` for a comment (`[a]#c` too), and tags and anchors hold none.
fn in_comment(bytes: &[u8], at: usize, scalars: &[ScalarSpan]) -> bool {
    let line_start = bytes[..at].iter().rposition(|&b| b == b'\n').map_or(0, |n| n + 1);
    (line_start..at).any(|i| bytes[i] == b'#' && !scalars.iter().any(|s| (s.content_start(bytes)..s.end).contains(&i)))
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

/// libyaml refuses a tab after the spaces that begin the first line of a
/// block scalar without an indentation indicator; the pure-Python scanner
/// takes those spaces as the indentation and the tab as content. The text
/// with that indentation written into the scalar's header (`|` → `|2`),
/// which libyaml then reads as the pure-Python scanner does; none when
/// `raw` is another error, or the pure-Python scanner refuses the text too.
/// `parent`: the indentation of the collection the scalar is in (`-1` at
/// the top).
pub fn indentation_given(text: &str, raw: &SyntaxError, parent: Option<i64>) -> Option<String> {
    if raw.kind != SyntaxErrorKind::Scanner
        || raw.problem != "found a tab character where an indentation space is expected"
    {
        return None;
    }
    let parent = parent?;
    let bytes = text.as_bytes();
    let (indicator, tab) = (raw.context_mark.index as usize, raw.problem_mark.index as usize);
    if !matches!(bytes.get(indicator), Some(b'|' | b'>')) || bytes.get(tab) != Some(&b'\t') || tab < indicator {
        return None;
    }
    // A header that gives the indentation already, or a lone `\r` break
    // (lines are told apart by `\n` below): left as they are.
    let header_end = indicator + 1 + bytes[indicator + 1..].iter().take_while(|b| matches!(b, b'+' | b'-')).count();
    let region = &bytes[indicator..tab];
    if bytes.get(header_end).is_some_and(u8::is_ascii_digit)
        || region.windows(2).any(|w| w[0] == b'\r' && w[1] != b'\n')
    {
        return None;
    }
    // The lines before the tab's are blank (spaces alone), none longer
    // than the spaces before the tab: they set the indentation with it.
    let body = indicator + memchr::memchr(b'\n', region)? + 1;
    let tab_line = bytes[..tab].iter().rposition(|&b| b == b'\n').map_or(0, |n| n + 1);
    let column = tab - tab_line;
    let blank_and_shorter = |line: &[u8]| {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        line.iter().all(|&b| b == b' ') && line.len() <= column
    };
    let before = &bytes[body..tab_line.max(body)];
    if !bytes[tab_line..tab].iter().all(|&b| b == b' ')
        || !before.split(|&b| b == b'\n').all(blank_and_shorter)
        || (column as i64) < (parent + 1).max(1)
    {
        return None;
    }
    let increment = u8::try_from(column as i64 - parent.max(0)).ok().filter(|i| (1..=9).contains(i))?;
    let mut given = String::with_capacity(text.len() + 1);
    given.push_str(&text[..header_end]);
    given.push(char::from(b'0' + increment));
    given.push_str(&text[header_end..]);
    Some(given)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// libyaml's refusal of the tab in `text` at its first `\t`, in the
    /// block scalar whose indicator is the first `|` or `>`.
    fn tab_refusal(text: &str) -> SyntaxError {
        let indicator = text.find(['|', '>']).expect("an indicator");
        let tab = text.find('\t').expect("a tab");
        SyntaxError {
            kind: SyntaxErrorKind::Scanner,
            problem: "found a tab character where an indentation space is expected".into(),
            problem_mark: mark_at(text, tab),
            context: Some("while scanning a block scalar".into()),
            context_mark: mark_at(text, indicator),
            problem_value: 0,
            problem_offset: 0,
        }
    }

    fn given(text: &str, parent: Option<i64>) -> Option<String> {
        indentation_given(text, &tab_refusal(text), parent)
    }

    #[test]
    fn the_spaces_before_the_tab_become_the_header_s_indentation() {
        assert_eq!(given("d: |\n  \tx\n", Some(0)).as_deref(), Some("d: |2\n  \tx\n"));
        assert_eq!(given("d: |-\n\n  \tx\n", Some(0)).as_deref(), Some("d: |-2\n\n  \tx\n"));
        assert_eq!(given("a:\n  b: >\n    \tx\n", Some(2)).as_deref(), Some("a:\n  b: >2\n    \tx\n"));
        assert_eq!(given("|\n  \tx", Some(-1)).as_deref(), Some("|2\n  \tx"));
    }

    #[test]
    fn texts_the_pure_python_scanner_refuses_too_are_left_alone() {
        // Indentation given already; a longer blank line first; too few
        // spaces for the collection; more than one digit's worth; in brackets.
        assert_eq!(given("d: |2\n  \tx\n", Some(0)), None);
        assert_eq!(given("d: |\n    \n  \tx\n", Some(0)), None);
        assert_eq!(given("a:\n  b: |\n  \tx\n", Some(2)), None);
        assert_eq!(given("d: |\n            \tx\n", Some(0)), None);
        assert_eq!(given("d: |\n  \tx\n", None), None);
        let mut other = tab_refusal("d: |\n  \tx\n");
        other.problem = "found character that cannot start any token".into();
        assert_eq!(indentation_given("d: |\n  \tx\n", &other, Some(0)), None);
    }
}
