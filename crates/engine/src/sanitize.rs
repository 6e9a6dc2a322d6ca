//! Making untrusted text from skill files safe to print to a terminal.
//!
//! Control characters are replaced by their visible Unicode "control
//! pictures" (`ESC` becomes `␛`), so an escape sequence in a description can
//! neither clear the screen nor set the clipboard, yet the author still sees
//! that it is there.

use std::borrow::Cow;

fn is_unsafe(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t') || c == '\u{2028}' || c == '\u{2029}' || is_bidi_control(c)
}

/// The explicit embeddings, overrides and isolates of bidirectional text:
/// invisible, they make a terminal show a line in another order than the
/// agent reads it (right-to-left text needs none of them).
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
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

/// Text for a markdown comment outside code, shown as written: one line,
/// no HTML, no table breaks, no escapes, and none of markdown's own markup
/// (an image, a link, emphasis) from a skill's text. An @mention is broken
/// by a zero-width space: posted by CI, it would notify whoever it names.
pub fn markdown_text(text: &str) -> String {
    let line = clean_line(text);
    let mut out = String::with_capacity(line.len());
    for c in line.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '@' => out.push_str("@&#8203;"),
            '\\' | '`' | '*' | '_' | '[' | ']' | '~' | '|' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

/// Text inside an HTML element of a markdown comment (`<summary>`), where
/// markdown is not read: one line, no escapes, no HTML.
pub fn html_text(text: &str) -> String {
    clean_line(text).replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
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
    fn skill_text_makes_no_markdown_of_its_own() {
        let evil = "@octocat ![ok](https://e.example/ok.png) [docs](u) *x* a_b ~~y~~ `c` \\[ <b>|";
        assert_eq!(
            markdown_text(evil),
            "@&#8203;octocat !\\[ok\\](https://e.example/ok.png) \\[docs\\](u) \\*x\\* a\\_b \\~\\~y\\~\\~ \\`c\\` \\\\\\[ &lt;b&gt;\\|"
        );
        assert_eq!(html_text("<code>a|b & @c</code>"), "&lt;code&gt;a|b &amp; @c&lt;/code&gt;");
    }

    #[test]
    fn bidi_controls_are_shown_not_obeyed() {
        let reordered = "ok \u{202e}txt.exe\u{202c} and \u{2067}x\u{2069}";
        assert_eq!(clean_line(reordered), "ok \u{fffd}txt.exe\u{fffd} and \u{fffd}x\u{fffd}");
        assert!(matches!(clean("שלום עולם مرحبا"), Cow::Borrowed(_)), "right-to-left text as it is");
    }

    #[test]
    fn plain_text_is_borrowed() {
        assert!(matches!(clean("a\tb\nc"), Cow::Borrowed(_)));
        assert_eq!(clean_line("a\tb\nc"), "a b c");
    }
}
