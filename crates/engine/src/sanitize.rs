//! Making untrusted text from skill files safe to print to a terminal.
//!
//! Control characters are replaced by their visible Unicode "control
//! pictures" (`ESC` becomes `␛`), so an escape sequence in a description can
//! neither clear the screen nor set the clipboard, yet the author still sees
//! that it is there.

use std::borrow::Cow;

fn is_unsafe(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t') || c == '\u{2028}' || c == '\u{2029}'
}

fn picture(c: char) -> char {
    match c as u32 {
        n @ 0x00..=0x1f => char::from_u32(0x2400 + n).unwrap_or('\u{fffd}'),
        0x7f => '\u{2421}',
        _ => '\u{fffd}',
    }
}

/// Keeps newlines and tabs; every other control character becomes visible.
pub fn clean(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_unsafe) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(text.chars().map(|c| if is_unsafe(c) { picture(c) } else { c }).collect())
}

/// Like [`clean`], for one-line cells: newlines and tabs become spaces too.
pub fn clean_line(text: &str) -> String {
    clean(text).chars().map(|c| if c == '\n' || c == '\t' { ' ' } else { c }).collect()
}

/// Text for a markdown comment outside code: one line, no HTML, no table
/// breaks, no escapes.
pub fn markdown_text(text: &str) -> String {
    clean_line(text).replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('|', "\\|")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_sequences_are_neutralised() {
        let evil = "desc\u{1b}]52;c;ZXZpbA==\u{7}\u{1b}[2J\r\u{9b}x";
        let out = clean(evil);
        assert!(!out.chars().any(|c| c.is_control()));
        assert_eq!(out, "desc␛]52;c;ZXZpbA==␇␛[2J␍\u{fffd}x");
    }

    #[test]
    fn plain_text_is_borrowed() {
        assert!(matches!(clean("a\tb\nc"), Cow::Borrowed(_)));
        assert_eq!(clean_line("a\tb\nc"), "a b c");
    }
}
