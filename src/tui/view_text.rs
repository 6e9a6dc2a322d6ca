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

/// A line of prose cut into rows of at most `width` columns at spaces
/// (a word longer than a row is split), styles kept; rows after the
/// first start with `indent` spaces. A line that fits is returned as is.
pub fn wrap_line(line: &Line<'static>, width: usize, indent: usize) -> Vec<Line<'static>> {
    if line.width() <= width || width == 0 {
        return vec![line.clone()];
    }
    let indent = indent.min(width / 2);
    let chars: Vec<(char, Style)> =
        line.spans.iter().flat_map(|s| s.content.chars().map(move |c| (c, s.style))).collect();
    let mut rows = Vec::new();
    let mut start = 0;
    while start < chars.len() {
        let lead = if rows.is_empty() { 0 } else { indent };
        // The longest run from `start` that fits beside the lead.
        let mut used = lead;
        let mut end = start;
        while end < chars.len() {
            let w = chars[end].0.width().unwrap_or(0);
            if used + w > width {
                break;
            }
            used += w;
            end += 1;
        }
        if end == start {
            end = start + 1;
        }
        // Break at the last space of the run, unless the run ends the line
        // (not after a lone `-`, which leads what follows it); else, within
        // a word too long for any row (a path), after its last `/`; else
        // where the row ends.
        if end < chars.len() && chars[end].0 != ' ' {
            let room = width - indent;
            let word_after = |at: usize| chars[at..].iter().take_while(|(c, _)| *c != ' ').count();
            let fits_next_row = |at: usize| word_after(at) <= room;
            let lone_dash = |i: usize| i >= 1 && chars[i - 1].0 == '-' && (i < 2 || chars[i - 2].0 == ' ');
            let at_space = (start + 1..end).rev().find(|&i| chars[i].0 == ' ' && fits_next_row(i + 1) && !lone_dash(i));
            let after_slash = || (start + 1..end).rev().find(|&i| chars[i - 1].0 == '/' && chars[i].0 != ' ');
            if let Some(at) = at_space.or_else(after_slash) {
                end = at;
            }
        }
        let mut spans: Vec<Span<'static>> = Vec::new();
        for &(c, style) in &chars[start..end] {
            match spans.last_mut() {
                Some(last) if last.style == style => last.content.to_mut().push(c),
                _ => spans.push(Span::styled(c.to_string(), style)),
            }
        }
        if lead > 0 {
            spans.insert(0, Span::raw(" ".repeat(lead)));
        }
        rows.push(Line::from(spans).style(line.style));
        start = end;
        while start < chars.len() && chars[start].0 == ' ' {
            start += 1;
        }
    }
    rows
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
    fn wide_prose_wraps_at_spaces_under_its_value() {
        let bold = Style::default().add_modifier(ratatui::style::Modifier::BOLD);
        let line =
            Line::from(vec![Span::raw("our reading   "), Span::styled("local: neither bundled, from a hub", bold)]);
        let rows: Vec<String> = wrap_line(&line, 30, 14).iter().map(text).collect();
        assert_eq!(rows, ["our reading   local: neither", "              bundled, from a", "              hub"]);
        assert!(wrap_line(&line, 30, 14).iter().all(|l| l.width() <= 30));
        let long = Line::from("x".repeat(25));
        assert_eq!(
            wrap_line(&long, 10, 2).iter().map(text).collect::<Vec<_>>(),
            ["xxxxxxxxxx", "  xxxxxxxx", "  xxxxxxx"]
        );
        let fits = Line::from("short");
        assert_eq!(wrap_line(&fits, 10, 2), [fits]);
    }

    /// A slash command or a `- name:` line moves whole to the next row;
    /// only a path too long for any row breaks after a `/`.
    #[test]
    fn commands_and_list_dashes_stay_whole_and_long_paths_break_after_a_slash() {
        let rows = |text: &str, width: usize| {
            wrap_line(&Line::from(text.to_owned()), width, 4).iter().map(text_of).collect::<Vec<_>>()
        };
        fn text_of(l: &Line<'_>) -> String {
            super::line_text(l)
        }
        assert_eq!(rows("status listed, /deploy-service", 24), ["status listed,", "    /deploy-service"]);
        assert_eq!(rows("index line 83 chars: - deploy: Deploy", 24), ["index line 83 chars:", "    - deploy: Deploy"]);
        assert_eq!(
            rows("in /home/me/skills/devops/deploy-service", 24),
            ["in /home/me/skills/", "    devops/", "    deploy-service"]
        );
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
