//! The encodings' pre-tokenizer for pieces made of ASCII only, by hand:
//! skills are mostly ASCII, and a regex search per piece was most of the
//! time token counting took. Each function answers where the piece
//! starting at `start` ends, exactly as the patterns (and their look-ahead
//! emulation) in `tokens.rs` would, or `None` as soon as it would have to
//! classify a non-ASCII character (a letter? a mark? white space?): the
//! regex then splits that piece.

#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    Upper,
    Lower,
    Digit,
    /// `\r` or `\n`.
    Newline,
    /// Other white space: space, tab, vertical tab, form feed.
    Space,
    /// Neither letter, digit nor white space.
    Other,
    NonAscii,
    End,
}

fn class(bytes: &[u8], i: usize) -> Class {
    match bytes.get(i) {
        None => Class::End,
        Some(b'A'..=b'Z') => Class::Upper,
        Some(b'a'..=b'z') => Class::Lower,
        Some(b'0'..=b'9') => Class::Digit,
        Some(b'\r' | b'\n') => Class::Newline,
        Some(b' ' | b'\t' | 0x0B | 0x0C) => Class::Space,
        Some(b) if b.is_ascii() => Class::Other,
        Some(_) => Class::NonAscii,
    }
}

/// The end of the run of `classes` from `i`, or `None` when a non-ASCII
/// character follows it (it might belong to the run).
fn run(bytes: &[u8], mut i: usize, classes: &[Class]) -> Option<usize> {
    loop {
        match class(bytes, i) {
            c if classes.contains(&c) => i += 1,
            Class::NonAscii => return None,
            _ => return Some(i),
        }
    }
}

fn is_letter(c: Class) -> bool {
    matches!(c, Class::Upper | Class::Lower)
}

/// `[^\r\n\p{L}\p{N}]`: the optional character before a word.
fn is_prefix(c: Class) -> bool {
    matches!(c, Class::Space | Class::Other)
}

/// `(?i:'s|'t|'re|'ve|'m|'ll|'d)` at `i`: its end, `Some(None)` when there
/// is none, `None` when a non-ASCII character would decide (case folding
/// maps some to ASCII letters).
fn contraction(bytes: &[u8], i: usize) -> Option<Option<usize>> {
    if bytes.get(i) != Some(&b'\'') {
        return Some(None);
    }
    let lower = |k: usize| bytes.get(i + k).map(u8::to_ascii_lowercase);
    for k in 1..=2 {
        if bytes.get(i + k).is_some_and(|b| !b.is_ascii()) {
            return None;
        }
    }
    let end = match (lower(1), lower(2)) {
        (Some(b's' | b't' | b'm' | b'd'), _) => Some(i + 2),
        (Some(b'r' | b'v'), Some(b'e')) | (Some(b'l'), Some(b'l')) => Some(i + 3),
        _ => None,
    };
    Some(end)
}

/// Where the white space at `start` ends: `\s*[\r\n]+`, `\s+$`, then
/// `\s+(?!\S)` as `\s+\s` less its last character, then `\s+`.
fn white_space(bytes: &[u8], start: usize) -> Option<usize> {
    let end = run(bytes, start, &[Class::Space, Class::Newline])?;
    let last_newline = (start..end).rev().find(|&i| class(bytes, i) == Class::Newline);
    Some(match last_newline {
        Some(i) => i + 1,
        None if end == bytes.len() => end,
        None if end - start >= 2 => end - 1,
        None => start + 1,
    })
}

/// `[^\s\p{L}\p{N}]+[\r\n]*` (`[\r\n/]*` with `slash`) from `from`.
fn punctuation(bytes: &[u8], from: usize, slash: bool) -> Option<Option<usize>> {
    if class(bytes, from) != Class::Other {
        return Some(None);
    }
    let mut end = run(bytes, from, &[Class::Other])?;
    while matches!(bytes.get(end), Some(b'\r' | b'\n')) || slash && bytes.get(end) == Some(&b'/') {
        end += 1;
    }
    Some(Some(end))
}

/// Where the letters of a word at `start` begin (after the optional
/// `[^\r\n\p{L}\p{N}]` before them), `Some(None)` when no word starts here.
fn word_start(bytes: &[u8], start: usize) -> Option<Option<usize>> {
    Some(match (class(bytes, start), class(bytes, start + 1)) {
        (Class::NonAscii, _) => return None,
        (c, _) if is_letter(c) => Some(start),
        (c, Class::NonAscii) if is_prefix(c) => return None,
        (c, next) if is_prefix(c) && is_letter(next) => Some(start + 1),
        _ => None,
    })
}

/// The end of the cl100k_base piece at `start`.
pub(super) fn cl100k_piece(bytes: &[u8], start: usize) -> Option<usize> {
    let first = class(bytes, start);
    if let Some(end) = contraction(bytes, start)? {
        return Some(end);
    }
    // `[^\r\n\p{L}\p{N}]?\p{L}+`
    let letters_from = word_start(bytes, start)?;
    if let Some(from) = letters_from {
        return run(bytes, from, &[Class::Upper, Class::Lower]);
    }
    if first == Class::Digit {
        return digits(bytes, start);
    }
    if let Some(end) = space_then_punctuation(bytes, start, false)? {
        return Some(end);
    }
    white_space(bytes, start)
}

/// `\p{N}{1,3}`.
fn digits(bytes: &[u8], start: usize) -> Option<usize> {
    let mut end = start;
    while end < start + 3 && class(bytes, end) == Class::Digit {
        end += 1;
    }
    // A non-ASCII numeral could extend a short run.
    (end == start + 3 || class(bytes, end) != Class::NonAscii).then_some(end)
}

/// ` ?[^\s\p{L}\p{N}]+…`, with the space or without.
fn space_then_punctuation(bytes: &[u8], start: usize, slash: bool) -> Option<Option<usize>> {
    if bytes.get(start) == Some(&b' ') {
        if class(bytes, start + 1) == Class::NonAscii {
            return None;
        }
        return punctuation(bytes, start + 1, slash);
    }
    punctuation(bytes, start, slash)
}

/// The end of the o200k_base piece at `start`.
pub(super) fn o200k_piece(bytes: &[u8], start: usize) -> Option<usize> {
    let first = class(bytes, start);
    // The word patterns: `P?U*L+C?`, then `P?U+L*C?` (U upper, L lower, C a
    // contraction, P the optional character before).
    let word_from = word_start(bytes, start)?;
    if let Some(from) = word_from {
        let upper_end = run(bytes, from, &[Class::Upper])?;
        // Lower case after the capitals: `P?U*L+`; else the capitals: `P?U+`.
        let end = match class(bytes, upper_end) {
            Class::Lower => run(bytes, upper_end, &[Class::Lower])?,
            _ => upper_end,
        };
        return Some(contraction(bytes, end)?.unwrap_or(end));
    }
    if first == Class::Digit {
        return digits(bytes, start);
    }
    if let Some(end) = space_then_punctuation(bytes, start, true)? {
        return Some(end);
    }
    white_space(bytes, start)
}
