//! Operations on a view's rendered lines: searching them, highlighting the
//! hits, and showing lines wider than the pane (code is never wrapped, so a
//! copied command is the command) through a horizontal offset.

use ratatui::style::Style;
use ratatui::text::{Line, Span};
use unicode_width::UnicodeWidthChar;

/// One occurrence of the query: a line and a range of characters in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hit {
    pub line: usize,
    pub start: usize,
    pub end: usize,
}

/// The text of a line, without styles.
pub fn line_text(line: &Line<'_>) -> String {
    line.spans.iter().map(|s| s.content.as_ref()).collect()
}

/// Every occurrence of `query` (smart case: lower-case matches any case).
pub fn find(lines: &[Line<'_>], query: &str) -> Vec<Hit> {
    if query.is_empty() {
        return Vec::new();
    }
    let fold = !query.chars().any(char::is_uppercase);
    let needle: Vec<char> = if fold { query.to_lowercase().chars().collect() } else { query.chars().collect() };
    let mut hits = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let text = line_text(line);
        // Lower-casing char by char keeps character positions aligned.
        let hay: Vec<char> =
            text.chars().map(|c| if fold { c.to_lowercase().next().unwrap_or(c) } else { c }).collect();
        let mut at = 0;
        while at + needle.len() <= hay.len() {
            if hay[at..at + needle.len()] == needle[..] {
                hits.push(Hit { line: i, start: at, end: at + needle.len() });
                at += needle.len();
            } else {
                at += 1;
            }
        }
    }
    hits
}

/// Restyles the character ranges `[start, end)` of a line with `style`.
pub fn highlight(line: &Line<'static>, ranges: &[(usize, usize, Style)]) -> Line<'static> {
    if ranges.is_empty() {
        return line.clone();
    }
    let mut spans = Vec::new();
    let mut pos = 0;
    for span in &line.spans {
        let mut run = String::new();
        let mut run_style = None;
        for c in span.content.chars() {
            let style =
                ranges.iter().find(|(s, e, _)| pos >= *s && pos < *e).map_or(span.style, |r| span.style.patch(r.2));
            if run_style.is_some_and(|s| s != style) {
                spans.push(Span::styled(std::mem::take(&mut run), run_style.unwrap_or(span.style)));
            }
            run_style = Some(style);
            run.push(c);
            pos += 1;
        }
        if !run.is_empty() {
            spans.push(Span::styled(run, run_style.unwrap_or(span.style)));
        }
    }
    Line::from(spans).style(line.style)
}

/// The columns `[offset, offset + width)` of a line, keeping its first
/// `keep` columns in place (a line-number gutter). A cut is marked: `‹` at
/// the left when columns are scrolled away, `›` at the right when more
/// follows.
pub fn window(line: &Line<'static>, keep: usize, offset: usize, width: usize, marker: Style) -> Line<'static> {
    let total: usize = line.spans.iter().flat_map(|s| s.content.chars()).map(|c| c.width().unwrap_or(0)).sum();
    if total <= width && offset == 0 {
        return line.clone();
    }
    let offset = if total <= width { 0 } else { offset.min(total.saturating_sub(width)) };
    let mut out: Vec<Span<'static>> = Vec::new();
    let mut col = 0;
    let mut used = 0;
    let body_width = width.saturating_sub(keep);
    let mut cut_right = false;
    for span in &line.spans {
        let mut text = String::new();
        for c in span.content.chars() {
            let w = c.width().unwrap_or(0);
            let shown = col < keep || (col >= keep + offset && used < width);
            if shown {
                if used + w > width || (col >= keep && col + w > keep + offset + body_width) {
                    cut_right = true;
                } else {
                    text.push(c);
                    used += w;
                }
            } else if col >= keep + offset {
                cut_right = true;
            }
            col += w;
        }
        if !text.is_empty() {
            out.push(Span::styled(text, span.style));
        }
    }
    if offset > 0 && used > keep {
        replace_column(&mut out, keep, '‹', marker);
    }
    if cut_right && used > 0 {
        replace_column(&mut out, used - 1, '›', marker);
    }
    Line::from(out).style(line.style)
}

/// Puts `mark` over the character at display column `at`.
fn replace_column(spans: &mut Vec<Span<'static>>, at: usize, mark: char, style: Style) {
    let mut col = 0;
    let mut result = Vec::with_capacity(spans.len() + 2);
    for span in spans.drain(..) {
        let mut before = String::new();
        let mut after = String::new();
        let mut hit = false;
        for c in span.content.chars() {
            let w = c.width().unwrap_or(0);
            if !hit && col <= at && at < col + w.max(1) {
                hit = true;
            } else if hit {
                after.push(c);
            } else {
                before.push(c);
            }
            col += w;
        }
        if hit {
            if !before.is_empty() {
                result.push(Span::styled(before, span.style));
            }
            result.push(Span::styled(mark.to_string(), style));
            if !after.is_empty() {
                result.push(Span::styled(after, span.style));
            }
        } else {
            result.push(span);
        }
    }
    *spans = result;
}

/// The widest line, in columns.
pub fn max_width(lines: &[Line<'_>]) -> usize {
    lines.iter().map(Line::width).max().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(line: &Line<'_>) -> String {
        line_text(line)
    }

    #[test]
    fn find_is_smart_case_and_counts_every_hit() {
        let lines = vec![Line::from("Deploy the deploy"), Line::from(vec![Span::raw("de"), Span::raw("ploy")])];
        assert_eq!(find(&lines, "deploy").len(), 3);
        assert_eq!(find(&lines, "Deploy"), [Hit { line: 0, start: 0, end: 6 }]);
        assert!(find(&lines, "").is_empty());
    }

    #[test]
    fn highlight_splits_spans() {
        let line = Line::from(vec![Span::raw("abc"), Span::raw("def")]);
        let hit = Style::default().add_modifier(ratatui::style::Modifier::REVERSED);
        let out = highlight(&line, &[(2, 4, hit)]);
        assert_eq!(text(&out), "abcdef");
        assert_eq!(out.spans.iter().filter(|s| s.style == hit).map(|s| s.content.as_ref()).collect::<String>(), "cd");
    }

    #[test]
    fn wide_lines_are_windowed_with_markers() {
        let plain = Style::default();
        let line = Line::from("  npm run build --workspace packages/web");
        assert_eq!(text(&window(&line, 0, 0, 12, plain)), "  npm run b›");
        assert_eq!(text(&window(&line, 0, 8, 12, plain)), "‹ build --w›");
        let end = window(&line, 0, 1000, 12, plain);
        assert!(text(&end).ends_with("ages/web"), "{}", text(&end));
        let short = Line::from("fits");
        assert_eq!(text(&window(&short, 0, 8, 12, plain)), "fits", "short lines stay put");
        let numbered = Line::from(vec![Span::raw(" 7 │ "), Span::raw("0123456789abcdef")]);
        assert_eq!(text(&window(&numbered, 5, 4, 12, plain)), " 7 │ ‹56789›");
    }
}
