//! Code highlighting with syntect, loaded once and lazily (the syntax and
//! theme sets take tens of milliseconds to load, so the browser starts
//! loading them in the background and renders plain code until then).

use crate::tui::theme::ColorMode;
use ratatui::style::{Modifier, Style};
use ratatui::text::Span;
use std::sync::OnceLock;
use syntect::easy::HighlightLines;
use syntect::highlighting::{FontStyle, Theme, ThemeSet};
use syntect::parsing::{SyntaxReference, SyntaxSet};

/// Blocks larger than this are shown plain: highlighting them would stall.
const MAX_BYTES: usize = 256 * 1024;
const MAX_LINES: usize = 5_000;

pub struct Highlighter {
    syntaxes: SyntaxSet,
    theme: Theme,
}

static HIGHLIGHTER: OnceLock<Highlighter> = OnceLock::new();

impl Highlighter {
    fn load() -> Highlighter {
        let syntaxes = SyntaxSet::load_defaults_newlines();
        let mut themes = ThemeSet::load_defaults();
        let theme = themes.themes.remove("base16-ocean.dark").unwrap_or_default();
        Highlighter { syntaxes, theme }
    }

    /// The highlighter, loading it now if needed.
    pub fn get() -> &'static Highlighter {
        HIGHLIGHTER.get_or_init(Highlighter::load)
    }

    /// The highlighter if it is loaded already.
    pub fn ready() -> Option<&'static Highlighter> {
        HIGHLIGHTER.get()
    }

    /// Starts loading on another thread; `ready` runs once it is loaded.
    pub fn preload(ready: impl FnOnce() + Send + 'static) {
        std::thread::spawn(|| {
            Highlighter::get();
            ready();
        });
    }

    fn syntax(&self, lang: &str) -> Option<&SyntaxReference> {
        let lang = lang.trim().split([' ', ',', '{']).next().unwrap_or("").to_ascii_lowercase();
        let token = match lang.as_str() {
            "" => return None,
            "sh" | "shell" | "zsh" | "console" | "shell-session" => "bash",
            "py" | "python3" => "python",
            "yml" => "yaml",
            "golang" => "go",
            "js" | "jsx" | "ts" | "tsx" | "typescript" => "javascript",
            "rs" => "rust",
            "md" => "markdown",
            other => other,
        };
        self.syntaxes.find_syntax_by_token(token)
    }

    /// Highlighted lines of `code`, or `None` (unknown language, too big).
    pub fn highlight(&self, code: &str, lang: &str, mode: ColorMode) -> Option<Vec<Vec<Span<'static>>>> {
        if code.len() > MAX_BYTES || code.lines().count() > MAX_LINES {
            return None;
        }
        let syntax = self.syntax(lang)?;
        let mut h = HighlightLines::new(syntax, &self.theme);
        let mut out = Vec::new();
        for line in syntect::util::LinesWithEndings::from(code) {
            let regions = h.highlight_line(line, &self.syntaxes).ok()?;
            let spans = regions
                .into_iter()
                .filter_map(|(style, text)| {
                    let text = text.trim_end_matches(['\n', '\r']);
                    if text.is_empty() {
                        return None;
                    }
                    let fg = style.foreground;
                    let mut s = Style::default();
                    if let Some(c) = mode.color((fg.r, fg.g, fg.b)) {
                        s = s.fg(c);
                    }
                    if style.font_style.contains(FontStyle::BOLD) {
                        s = s.add_modifier(Modifier::BOLD);
                    }
                    Some(Span::styled(text.to_owned(), s))
                })
                .collect();
            out.push(spans);
        }
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_and_unknown_languages() {
        let h = Highlighter::get();
        let lines = h.highlight("fn main() {}\nlet x = 1;\n", "rust", ColorMode::TrueColor).expect("rust");
        assert_eq!(lines.len(), 2);
        let text: String = lines[0].iter().map(|s| s.content.as_ref()).collect();
        assert_eq!(text, "fn main() {}");
        assert!(h.highlight("x", "no-such-language", ColorMode::TrueColor).is_none());
        assert!(h.highlight("echo hi\n", "sh", ColorMode::Ansi256).is_some());
        let plain = h.highlight("x = 1\n", "python", ColorMode::NoColor).expect("python");
        assert!(plain[0].iter().all(|s| s.style.fg.is_none()));
    }
}
