//! Markdown to terminal lines at a given width: headings, emphasis, lists,
//! block quotes, tables, links, rules and highlighted code blocks. Wrapping
//! happens here, so list indents and quote bars repeat on wrapped lines.
//! Every piece of text is untrusted: tabs are expanded and control
//! characters shown as visible symbols.

pub mod highlight;

use crate::sanitize::clean_line;
use crate::tui::theme::Theme;
use highlight::Highlighter;
use pulldown_cmark::{Alignment, CodeBlockKind, Event, HeadingLevel, Options, Parser, Tag, TagEnd};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// Spaces per tab stop in prose and code.
const TAB: &str = "    ";

/// Renders `markdown` into lines no wider than `width` columns.
pub fn render(markdown: &str, width: u16, theme: &Theme) -> Vec<Line<'static>> {
    let width = usize::from(width.max(8));
    let markdown = markdown.replace('\t', TAB);
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS;
    let mut w = Writer::new(width, theme);
    for event in Parser::new_ext(&markdown, options) {
        w.event(event);
    }
    w.finish()
}

/// A prefix repeated on every line of a block (quote bar, list indent).
struct Indent {
    first: Vec<Span<'static>>,
    rest: Vec<Span<'static>>,
    first_used: bool,
}

struct Table {
    alignments: Vec<Alignment>,
    rows: Vec<Vec<String>>,
    header_rows: usize,
    cell: String,
}

struct Writer<'t> {
    width: usize,
    theme: &'t Theme,
    lines: Vec<Line<'static>>,
    line: Vec<Span<'static>>,
    line_width: usize,
    /// Whether the current line holds anything after its prefix.
    line_has_text: bool,
    pending_space: bool,
    indents: Vec<Indent>,
    styles: Vec<Style>,
    lists: Vec<Option<u64>>,
    code: Option<(String, String)>,
    link: Option<String>,
    table: Option<Table>,
    /// A blank line is owed before the next block.
    gap: bool,
}

impl<'t> Writer<'t> {
    fn new(width: usize, theme: &'t Theme) -> Writer<'t> {
        Writer {
            width,
            theme,
            lines: Vec::new(),
            line: Vec::new(),
            line_width: 0,
            line_has_text: false,
            pending_space: false,
            indents: Vec::new(),
            styles: vec![theme.text],
            lists: Vec::new(),
            code: None,
            link: None,
            table: None,
            gap: false,
        }
    }

    fn style(&self) -> Style {
        self.styles.last().copied().unwrap_or_default()
    }

    fn push_style(&mut self, patch: Style) {
        let s = self.style().patch(patch);
        self.styles.push(s);
    }

    fn pop_style(&mut self) {
        if self.styles.len() > 1 {
            self.styles.pop();
        }
    }

    /// Starts a line with the indents' prefixes.
    fn start_line(&mut self) {
        if !self.line.is_empty() {
            return;
        }
        let mut spans = Vec::new();
        for ind in &mut self.indents {
            if ind.first_used {
                spans.extend(ind.rest.iter().cloned());
            } else {
                spans.extend(ind.first.iter().cloned());
                ind.first_used = true;
            }
        }
        self.line_width = spans.iter().map(|s| s.content.width()).sum();
        self.line = spans;
        self.line_has_text = false;
        self.pending_space = false;
    }

    fn flush(&mut self) {
        if self.line.is_empty() && !self.line_has_text {
            return;
        }
        let spans = std::mem::take(&mut self.line);
        self.lines.push(Line::from(spans));
        self.line_width = 0;
        self.line_has_text = false;
        self.pending_space = false;
    }

    /// Ends the current block; the next one starts after a blank line.
    fn end_block(&mut self) {
        self.flush();
        self.gap = true;
    }

    fn begin_block(&mut self) {
        self.flush();
        if self.gap && !self.lines.is_empty() {
            let prefix: Vec<Span<'static>> =
                self.indents.iter().filter(|i| i.first_used).flat_map(|i| i.rest.iter().cloned()).collect();
            let blank: Vec<Span<'static>> =
                prefix.into_iter().map(|s| Span::styled(s.content.trim_end().to_owned(), s.style)).collect();
            self.lines.push(Line::from(blank));
        }
        self.gap = false;
    }

    fn prefix_width(&self) -> usize {
        self.indents.iter().flat_map(|i| if i.first_used { &i.rest } else { &i.first }).map(|s| s.content.width()).sum()
    }

    /// Adds prose, wrapping at word boundaries.
    fn text(&mut self, text: &str) {
        let style = self.style();
        let text = clean_line(text);
        let starts_with_space = text.starts_with(char::is_whitespace);
        let ends_with_space = text.ends_with(char::is_whitespace);
        if starts_with_space && self.line_has_text {
            self.pending_space = true;
        }
        let mut first = true;
        for word in text.split_whitespace() {
            if !first {
                self.pending_space = true;
            }
            first = false;
            self.word(word, style);
        }
        if ends_with_space && self.line_has_text {
            self.pending_space = true;
        }
    }

    fn word(&mut self, word: &str, style: Style) {
        self.start_line();
        let w = word.width();
        let space = usize::from(self.pending_space && self.line_has_text);
        if self.line_has_text && self.line_width + space + w > self.width {
            self.flush();
            self.start_line();
        } else if space == 1 {
            self.append(" ", style);
        }
        let avail = self.width.saturating_sub(self.prefix_width()).max(1);
        if w > self.width.saturating_sub(self.line_width) && w > avail / 2 {
            // A word longer than the line (a URL, a path, a giant token):
            // split it, after a `/` where one lies in the row's second half
            // (a path reads by its folders), else where the row ends.
            let mut chunk = String::new();
            for c in word.chars() {
                let cw = c.width().unwrap_or(0);
                if self.line_width + chunk.width() + cw > self.width && (self.line_has_text || !chunk.is_empty()) {
                    let cut = chunk
                        .rfind('/')
                        .map(|at| at + 1)
                        .filter(|&at| at < chunk.len() && at >= chunk.len() / 2)
                        .unwrap_or(chunk.len());
                    let rest = chunk.split_off(cut);
                    self.append(&chunk, style);
                    self.flush();
                    self.start_line();
                    chunk = rest;
                }
                chunk.push(c);
            }
            self.append(&chunk, style);
        } else {
            self.append(word, style);
        }
        self.pending_space = false;
    }

    fn append(&mut self, text: &str, style: Style) {
        if text.is_empty() {
            return;
        }
        self.line_width += text.width();
        self.line_has_text = true;
        self.line.push(Span::styled(text.to_owned(), style));
    }

    fn event(&mut self, event: Event<'_>) {
        if self.table.is_some() && self.table_event(&event) {
            return;
        }
        match event {
            Event::Start(tag) => self.start(tag),
            Event::End(tag) => self.end(tag),
            Event::Text(t) => {
                if let Some((_, code)) = &mut self.code {
                    code.push_str(&t);
                } else {
                    self.text(&t);
                }
            }
            Event::Code(t) => {
                let style = self.style().patch(self.theme.code);
                // One word for wrapping: it moves to the next line whole
                // (the space before it included) unless it is too long.
                self.word(&clean_line(&t), style);
            }
            Event::SoftBreak => self.pending_space = true,
            Event::HardBreak => {
                self.flush();
            }
            Event::Rule => {
                self.begin_block();
                self.start_line();
                let avail = self.width.saturating_sub(self.line_width);
                self.append(&"─".repeat(avail.max(1)), self.theme.dim);
                self.end_block();
            }
            // An HTML block's lines stay lines; prose in one (a custom
            // `<HARD-GATE>` section, a comment) wraps at its words.
            Event::Html(h) => {
                self.push_style(self.theme.dim);
                for (i, part) in h.split('\n').enumerate() {
                    if i > 0 {
                        self.flush();
                    }
                    if !part.trim().is_empty() {
                        self.start_line();
                        self.text(part.trim_start());
                    }
                }
                self.pop_style();
            }
            Event::InlineHtml(h) => self.word(&clean_line(&h), self.theme.dim),
            Event::FootnoteReference(r) => {
                let s = format!("[^{r}]");
                self.word(&s, self.theme.dim);
            }
            Event::TaskListMarker(done) => {
                let s = if done { "[x] " } else { "[ ] " };
                self.start_line();
                self.append(s, self.theme.accent);
            }
            Event::InlineMath(m) | Event::DisplayMath(m) => self.text(&m),
        }
    }

    fn start(&mut self, tag: Tag<'_>) {
        match tag {
            Tag::Paragraph => self.begin_block(),
            Tag::Heading { level, .. } => {
                self.begin_block();
                let n = match level {
                    HeadingLevel::H1 => 1,
                    HeadingLevel::H2 => 2,
                    HeadingLevel::H3 => 3,
                    HeadingLevel::H4 => 4,
                    HeadingLevel::H5 => 5,
                    HeadingLevel::H6 => 6,
                };
                let style = self.theme.heading;
                self.push_style(style);
                self.start_line();
                self.append(&format!("{} ", "#".repeat(n)), style);
            }
            Tag::BlockQuote(_) => {
                self.begin_block();
                let bar = vec![Span::styled("│ ".to_owned(), self.theme.quote)];
                self.indents.push(Indent { first: bar.clone(), rest: bar, first_used: false });
                self.push_style(self.theme.quote);
            }
            Tag::CodeBlock(kind) => {
                self.begin_block();
                let lang = match kind {
                    CodeBlockKind::Fenced(l) => l.to_string(),
                    CodeBlockKind::Indented => String::new(),
                };
                self.code = Some((lang, String::new()));
            }
            Tag::List(start) => {
                if self.lists.is_empty() {
                    self.begin_block();
                } else {
                    self.flush();
                }
                self.lists.push(start);
            }
            Tag::Item => {
                self.flush();
                let marker = match self.lists.last_mut() {
                    Some(Some(n)) => {
                        let m = format!("{n}. ");
                        *n += 1;
                        m
                    }
                    _ => "• ".to_owned(),
                };
                let pad = " ".repeat(marker.width());
                self.indents.push(Indent {
                    first: vec![Span::styled(marker, self.theme.accent)],
                    rest: vec![Span::raw(pad)],
                    first_used: false,
                });
                self.gap = false;
            }
            Tag::Emphasis => self.push_style(Style::default().add_modifier(Modifier::ITALIC)),
            Tag::Strong => self.push_style(Style::default().add_modifier(Modifier::BOLD)),
            Tag::Strikethrough => self.push_style(Style::default().add_modifier(Modifier::CROSSED_OUT)),
            Tag::Link { dest_url, .. } => {
                self.link = Some(dest_url.to_string());
                self.push_style(self.theme.link);
            }
            Tag::Image { dest_url, .. } => {
                self.link = Some(dest_url.to_string());
                self.word("[image:", self.theme.dim);
                self.push_style(self.theme.dim);
            }
            Tag::Table(alignments) => {
                self.begin_block();
                self.table = Some(Table { alignments, rows: Vec::new(), header_rows: 0, cell: String::new() });
            }
            _ => {}
        }
    }

    fn end(&mut self, tag: TagEnd) {
        match tag {
            TagEnd::Paragraph => self.end_block(),
            TagEnd::Heading(_) => {
                self.pop_style();
                self.end_block();
            }
            TagEnd::BlockQuote(_) => {
                self.flush();
                self.indents.pop();
                self.pop_style();
                self.gap = true;
            }
            TagEnd::CodeBlock => {
                if let Some((lang, code)) = self.code.take() {
                    self.code_block(&lang, &code);
                }
                self.end_block();
            }
            TagEnd::List(_) => {
                self.flush();
                self.lists.pop();
                if self.lists.is_empty() {
                    self.gap = true;
                }
            }
            TagEnd::Item => {
                self.flush();
                self.indents.pop();
            }
            TagEnd::Emphasis | TagEnd::Strong | TagEnd::Strikethrough => self.pop_style(),
            TagEnd::Link => {
                self.pop_style();
                if let Some(url) = self.link.take() {
                    if !url.is_empty() && !url.starts_with('#') {
                        let shown = format!("({url})");
                        self.pending_space = true;
                        self.word(&clean_line(&shown), self.theme.dim);
                    }
                }
            }
            TagEnd::Image => {
                self.pop_style();
                let url = self.link.take().unwrap_or_default();
                self.pending_space = true;
                self.word(&clean_line(&format!("{url}]")), self.theme.dim);
            }
            _ => {}
        }
    }

    fn code_block(&mut self, lang: &str, code: &str) {
        let code = code.strip_suffix('\n').unwrap_or(code);
        let highlighted = Highlighter::ready().and_then(|h| h.highlight(code, lang, self.theme.mode));
        let plain = self.theme.code;
        let lines: Vec<Vec<Span<'static>>> = match highlighted {
            Some(lines) => lines,
            None => code.split('\n').map(|l| vec![Span::styled(l.to_owned(), plain)]).collect(),
        };
        for spans in lines {
            self.start_line();
            self.append("  ", plain);
            // Code is never wrapped: a line wider than the view scrolls
            // sideways, so what is copied from it is the command as written.
            for span in spans {
                self.append(&clean_line(&span.content), span.style);
            }
            self.line_has_text = true;
            self.flush();
        }
    }

    /// Collects table cells; returns true when the event was consumed.
    fn table_event(&mut self, event: &Event<'_>) -> bool {
        let Some(table) = &mut self.table else { return false };
        match event {
            Event::Start(Tag::TableHead) => {
                table.rows.push(Vec::new());
                table.header_rows = 1;
            }
            Event::Start(Tag::TableRow) => table.rows.push(Vec::new()),
            Event::Start(Tag::TableCell) => table.cell.clear(),
            Event::End(TagEnd::TableCell) => {
                let cell = std::mem::take(&mut table.cell);
                if let Some(row) = table.rows.last_mut() {
                    row.push(cell.trim().to_owned());
                }
            }
            Event::Text(t) | Event::Code(t) => table.cell.push_str(&clean_line(t)),
            Event::SoftBreak | Event::HardBreak => table.cell.push(' '),
            Event::End(TagEnd::Table) => {
                if let Some(t) = self.table.take() {
                    self.draw_table(t);
                }
                self.end_block();
            }
            Event::Html(h) | Event::InlineHtml(h) => table.cell.push_str(&clean_line(h)),
            _ => {}
        }
        true
    }

    fn draw_table(&mut self, table: Table) {
        let cols = table.rows.iter().map(Vec::len).max().unwrap_or(0);
        if cols == 0 {
            return;
        }
        let mut widths = vec![1usize; cols];
        for row in &table.rows {
            for (i, cell) in row.iter().enumerate() {
                widths[i] = widths[i].max(cell.width());
            }
        }
        let avail = self.width.saturating_sub(self.prefix_width()).saturating_sub(3 * (cols - 1));
        while widths.iter().sum::<usize>() > avail && widths.iter().any(|w| *w > 3) {
            if let Some(max) = widths.iter_mut().max() {
                *max -= 1;
            }
        }
        let border = self.theme.dim;
        for (r, row) in table.rows.iter().enumerate() {
            // A cell wider than its column wraps inside it: the row grows.
            let cells: Vec<Vec<String>> = widths
                .iter()
                .enumerate()
                .map(|(i, width)| wrap_cell(row.get(i).map(String::as_str).unwrap_or(""), *width))
                .collect();
            let height = cells.iter().map(Vec::len).max().unwrap_or(1);
            for part in 0..height {
                self.start_line();
                for (i, width) in widths.iter().enumerate() {
                    if i > 0 {
                        self.append(" │ ", border);
                    }
                    let text = cells[i].get(part).map(String::as_str).unwrap_or("");
                    let pad = width.saturating_sub(text.width());
                    let (left, right) = match table.alignments.get(i) {
                        Some(Alignment::Right) => (pad, 0),
                        Some(Alignment::Center) => (pad / 2, pad - pad / 2),
                        _ => (0, pad),
                    };
                    let style = if r < table.header_rows {
                        self.theme.text.add_modifier(Modifier::BOLD)
                    } else {
                        self.theme.text
                    };
                    self.append(&format!("{}{}{}", " ".repeat(left), text, " ".repeat(right)), style);
                }
                self.flush();
            }
            if r + 1 == table.header_rows {
                self.start_line();
                let rule: Vec<String> = widths.iter().map(|w| "─".repeat(*w)).collect();
                self.append(&rule.join("─┼─"), border);
                self.flush();
            }
        }
    }

    fn finish(mut self) -> Vec<Line<'static>> {
        self.flush();
        self.lines
    }
}

/// A table cell's text in lines of at most `width` columns: broken at
/// spaces, a word longer than the column broken where it reaches the edge.
fn wrap_cell(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut lines: Vec<String> = Vec::new();
    let mut current = String::new();
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        let gap = usize::from(!current.is_empty());
        if current.width() + gap + word.width() <= width {
            if gap == 1 {
                current.push(' ');
            }
            current.push_str(word);
            continue;
        }
        if !current.is_empty() {
            lines.push(std::mem::take(&mut current));
        }
        for c in word.chars() {
            if current.width() + c.width().unwrap_or(0) > width && !current.is_empty() {
                lines.push(std::mem::take(&mut current));
            }
            current.push(c);
        }
    }
    if !current.is_empty() || lines.is_empty() {
        lines.push(current);
    }
    lines
}

/// Cuts `text` to `width` columns, marking a cut with `…`.
pub fn fit(text: &str, width: usize) -> String {
    if text.width() <= width {
        return text.to_owned();
    }
    let mut out = String::new();
    for c in text.chars() {
        if out.width() + c.width().unwrap_or(0) + 1 > width {
            break;
        }
        out.push(c);
    }
    out.push('…');
    out
}

/// Plain text of rendered lines (tests, snapshots).
pub fn plain(lines: &[Line<'_>]) -> String {
    lines.iter().map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect::<String>()).collect::<Vec<_>>().join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::theme::{ColorMode, Theme};

    fn md(text: &str, width: u16) -> String {
        plain(&render(text, width, &Theme::new(ColorMode::NoColor)))
    }

    #[test]
    fn a_path_longer_than_the_line_breaks_after_its_folders() {
        let out = md("Run /home/someone/.hermes/skills/devops/deploy/scripts/release.sh now", 24);
        assert_eq!(out, "Run\n/home/someone/.hermes/\nskills/devops/deploy/\nscripts/release.sh now");
        // No `/` in a row's second half: cut where the row ends.
        let out = md("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/b", 10);
        assert_eq!(out, "aaaaaaaaaa\naaaaaaaaaa\naaaaaaaaaa\na/b");
    }

    #[test]
    fn code_lines_are_kept_whole() {
        let out = md("```sh\nnpm run build --workspace packages/web --verbose\n```\n", 20);
        assert!(out.contains("  npm run build --workspace packages/web --verbose"), "{out}");
    }

    #[test]
    fn every_line_fits_the_width() {
        let text = "# Title\n\nA paragraph with quite a few words that must wrap nicely at the width.\n\n\
                    - item one is long enough to wrap around the edge\n  - nested item here too\n\n\
                    > quoted text that also wraps around and keeps its bar\n\n\
                    ```rust\nfn main() { println!(\"a very long line of code that goes on and on\"); }\n```\n\n\
                    | a | b |\n|---|---:|\n| one | two two two two two two two |\n\n---\n\n\
                    averyveryveryveryveryveryveryveryverylongwordwithoutanyspacesatall\n";
        for width in [20u16, 40, 80] {
            let out = md(text, width);
            for line in out.lines().filter(|l| !l.contains("println")) {
                assert!(line.width() <= usize::from(width), "width {width}: {line:?}");
            }
        }
    }

    #[test]
    fn prose_in_an_html_block_wraps_at_words() {
        let out =
            md("<HARD-GATE>\nDo NOT invoke any implementation skill until the user approved it.\n</HARD-GATE>\n", 24);
        assert_eq!(
            out,
            "<HARD-GATE>\nDo NOT invoke any\nimplementation skill\nuntil the user approved\nit.\n</HARD-GATE>"
        );
    }

    #[test]
    fn structure_is_kept() {
        let out =
            md("# Head\n\nSome *em* and **strong** with `code` and [a link](https://x.y).\n\n1. one\n2. two\n", 80);
        assert_eq!(out, "# Head\n\nSome em and strong with code and a link (https://x.y).\n\n1. one\n2. two");
    }

    #[test]
    fn list_indent_repeats_on_wrapped_lines() {
        let out = md("- alpha beta gamma delta epsilon zeta eta theta\n", 20);
        let lines: Vec<&str> = out.lines().collect();
        assert!(lines[0].starts_with("• "));
        assert!(lines[1].starts_with("  ") && !lines[1].starts_with("   "));
    }

    #[test]
    fn quote_bar_repeats() {
        let out = md("> one two three four five six seven eight nine ten\n", 16);
        assert!(out.lines().all(|l| l.starts_with("│ ")), "{out}");
    }

    #[test]
    fn control_bytes_and_tabs_are_made_harmless() {
        let out = md("evil \u{1b}[2J here\n\n```\n\tcode\u{7}\n```\n", 40);
        assert!(!out.contains('\u{1b}') && !out.contains('\t') && !out.contains('\u{7}'));
        assert!(out.contains("␛[2J") && out.contains("      code␇"));
    }

    #[test]
    fn tables_align_and_fit() {
        let out = md("| name | n |\n|:--|--:|\n| alpha | 1 |\n| b | 22 |\n", 40);
        assert_eq!(out, "name  │  n\n──────┼───\nalpha │  1\nb     │ 22");
    }

    /// A cell wider than its column wraps inside it, a long word too:
    /// nothing of it is cut.
    #[test]
    fn a_long_cell_wraps_in_its_column() {
        let out = md("| k | v |\n|---|---|\n| x | one two three four five six |\n", 20);
        let trimmed: Vec<&str> = out.lines().map(str::trim_end).collect();
        assert_eq!(trimmed, ["k │ v", "──┼─────────────────", "x │ one two three", "  │ four five six"]);
        let out = md(&format!("| k | v |\n|---|---|\n| x | {} |\n", "y".repeat(30)), 16);
        let rows: Vec<&str> = out.lines().skip(2).collect();
        assert_eq!(rows.iter().map(|r| r.matches('y').count()).sum::<usize>(), 30, "{out}");
        assert!(rows.iter().all(|r| r.width() <= 16), "{out}");
    }

    #[test]
    fn prose_and_inline_code_always_fit() {
        // Seeded mixes of words, inline code, emphasis, links and dashes,
        // wrapped at every width: no line of prose may pass the width.
        let pieces = [
            "retry",
            "—",
            "the",
            "single",
            "`c-review:c-review-worker`",
            "(",
            ")",
            "*em*",
            "**strong**",
            "`x`",
            "[link](https://example.com/a/b)",
            "named",
            "plugin",
            "subagents",
            "`--flag=value`,",
            "a—b",
            "`code with spaces`",
            "end.",
            "“quoted”",
            "`` `tick` ``",
            "_under_",
            "~~gone~~",
            "1.",
            "—`y`—",
        ];
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        for case in 0..400 {
            let mut text = String::new();
            for _ in 0..(5 + next(40)) {
                text.push_str(pieces[next(pieces.len())]);
                // Pieces glued together as often as spaced.
                if next(3) > 0 {
                    text.push(' ');
                }
            }
            let prefix = ["", "- ", "> ", "1. ", "- > "][case % 5];
            let text = format!("{prefix}{text}\n");
            for width in 8u16..60 {
                let theme = Theme::new(ColorMode::NoColor);
                for line in render(&text, width, &theme) {
                    let w = line.width();
                    assert!(w <= usize::from(width), "width {width}, {w} columns: {:?} from {text:?}", plain(&[line]));
                }
            }
        }
    }

    #[test]
    fn huge_single_line_paragraph() {
        let text = "word ".repeat(30_000);
        let start = std::time::Instant::now();
        let lines = render(&text, 80, &Theme::new(ColorMode::NoColor));
        assert!(lines.len() > 1000);
        assert!(start.elapsed() < std::time::Duration::from_secs(2));
    }
}
