//! The pieces every view is made of: styled lines, wrapping, numbered
//! files, the tree's markers and what they mean, and times for a person.

use super::theme::Theme;
use crate::engine::catalog::CatalogSkill;
use crate::engine::diagnostics::Severity;
use crate::engine::isotime;
use crate::engine::source;
use crate::engine::words::count_s;
use crate::sanitize::clean_line;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// The marker of an archived skill (the tree, the help).
pub const ARCHIVED_MARK: &str = "⊟";

pub fn line(text: impl Into<String>, style: Style) -> Line<'static> {
    Line::from(Span::styled(clean_line(&text.into()), style))
}

pub fn kv(key: &str, value: impl Into<String>, theme: &Theme) -> Line<'static> {
    let key = if key.width() >= 14 { format!("{key} ") } else { format!("{key:<14}") };
    Line::from(vec![Span::styled(key, theme.dim), Span::styled(clean_line(&value.into()), theme.text)])
}

/// Plain text wrapped at word boundaries to `width`, keeping its own line
/// breaks and each line's indentation; a word longer than a row is split.
pub fn wrap_text(text: &str, width: u16, style: Style) -> Vec<Line<'static>> {
    let width = usize::from(width.max(4));
    let mut out = Vec::new();
    for raw in text.replace('\t', "    ").split('\n') {
        let raw = clean_line(raw);
        let indent_len = raw.len() - raw.trim_start_matches(' ').len();
        let indent = " ".repeat(indent_len.min(width / 2));
        let mut row = indent.clone();
        let mut row_has_word = false;
        for word in raw.split(' ').filter(|w| !w.is_empty()) {
            let need = word.width() + usize::from(row_has_word);
            if row_has_word && row.width() + need > width {
                out.push(Line::from(Span::styled(std::mem::replace(&mut row, indent.clone()), style)));
                row_has_word = false;
            }
            if row_has_word {
                row.push(' ');
            }
            let mut rest = word;
            loop {
                let cut = word_cut(rest, width.saturating_sub(row.width()), row.trim().is_empty());
                row.push_str(&rest[..cut]);
                rest = &rest[cut..];
                if rest.is_empty() {
                    break;
                }
                out.push(Line::from(Span::styled(std::mem::replace(&mut row, indent.clone()), style)));
            }
            row_has_word = true;
        }
        out.push(Line::from(Span::styled(row, style)));
    }
    out
}

/// Where a word too long for a row breaks: after as much as fits in `room`
/// columns, or after its last `/` there (a path keeps its parts whole);
/// on a row holding nothing yet, after one character at least.
fn word_cut(word: &str, room: usize, row_empty: bool) -> usize {
    let mut cut = 0;
    let mut used = 0;
    for (at, c) in word.char_indices() {
        used += c.width().unwrap_or(0);
        if used > room {
            break;
        }
        cut = at + c.len_utf8();
    }
    if cut < word.len() {
        if let Some(slash) = word[..cut].rfind('/').filter(|&slash| slash > 0 && (slash + 1) * 3 >= cut) {
            cut = slash + 1;
        }
    }
    match (cut, word.chars().next()) {
        (0, Some(first)) if row_empty => first.len_utf8(),
        _ => cut,
    }
}

/// Plain text with code fences kept whole: prose is wrapped like
/// [`wrap_text`], lines inside ``` fences are never wrapped (the view
/// scrolls them sideways), so a copied command is the command.
pub fn wrap_fenced(text: &str, width: u16, style: Style) -> Vec<Line<'static>> {
    let mut out = Vec::new();
    let mut in_fence = false;
    let mut prose = String::new();
    let flush = |prose: &mut String, out: &mut Vec<Line<'static>>| {
        if !prose.is_empty() {
            out.extend(wrap_text(prose.strip_suffix('\n').unwrap_or(prose), width, style));
            prose.clear();
        }
    };
    for raw in text.split('\n') {
        let fence = raw.trim_start().starts_with("```") || raw.trim_start().starts_with("~~~");
        if in_fence || fence {
            flush(&mut prose, &mut out);
            out.push(Line::from(Span::styled(clean_line(&raw.replace('\t', "    ")), style)));
            if fence {
                in_fence = !in_fence;
            }
        } else {
            prose.push_str(raw);
            prose.push('\n');
        }
    }
    flush(&mut prose, &mut out);
    out
}

/// Columns of the line-number gutter of a raw file with `lines` lines.
pub fn gutter_width(lines: usize) -> usize {
    lines.max(1).to_string().len() + 3
}

/// A file as it is, one row per line with its number; long lines are not
/// wrapped (the view scrolls them sideways, the numbers stay).
pub fn numbered(text: &str, theme: &Theme) -> Vec<Line<'static>> {
    let text = source::universal_newlines(text.to_owned());
    let text = text.strip_suffix('\n').unwrap_or(&text);
    let count = text.split('\n').count();
    let digits = gutter_width(count) - 3;
    text.split('\n')
        .enumerate()
        .map(|(i, l)| {
            Line::from(vec![
                Span::styled(format!("{:>digits$} │ ", i + 1), theme.dim),
                Span::styled(clean_line(&l.replace('\t', "    ")), theme.text),
            ])
        })
        .collect()
}

/// The line a view shows while its lines are built.
pub fn placeholder(theme: &Theme) -> Vec<Line<'static>> {
    vec![line("rendering…", theme.dim)]
}

/// The Files view of a database skill.
pub fn no_folder(theme: &Theme) -> Vec<Line<'static>> {
    vec![line("A database skill has no folder: SKILL.md is its only file.", theme.dim)]
}

/// An unreadable SKILL.md, in every per-skill view: the reason wrapped
/// (it names the file, often a long path).
pub fn read_error(err: &str, width: u16, theme: &Theme) -> Vec<Line<'static>> {
    let mut out = wrap_text(
        "This SKILL.md cannot be read: the index names the skill by its folder alone, skill_view fails, and skills_list and slash commands skip it:",
        width,
        theme.error,
    );
    out.extend(wrap_text(err, width, theme.text));
    out
}

/// Lines of prose wrapped within the width: a `key  value` line under its
/// value, any other under its own indentation. Only code scrolls sideways.
pub fn wrap_prose(lines: Vec<Line<'static>>, width: u16) -> Vec<Line<'static>> {
    let width = usize::from(width);
    let mut out = Vec::with_capacity(lines.len());
    for l in lines {
        let first = l.spans.first().map_or(0, |s| s.content.width());
        let indent = if l.spans.len() >= 2 && first <= 30 {
            first
        } else {
            let text: String = l.spans.iter().map(|s| s.content.as_ref()).collect();
            text.len() - text.trim_start_matches(' ').len()
        };
        out.extend(super::view_text::wrap_line(&l, width, indent));
    }
    out
}

/// The tree marker of a skill: why the agent does not get it, or `·`.
pub fn marker(skill: &CatalogSkill, theme: &Theme) -> (&'static str, Style) {
    let s = &skill.status;
    if skill.read_error.is_some() || skill.readiness().view_error.is_some() {
        ("✗", theme.error)
    } else if !s.platform_ok {
        ("⊘", theme.dim)
    } else if s.disabled {
        ("⨯", theme.dim)
    } else if !s.environment_ok {
        ("⊘", theme.dim)
    } else if s.shadowed_by.is_some() {
        ("↧", theme.warn)
    } else if !s.ambiguous_with.is_empty() {
        ("≈", theme.warn)
    } else if s.unlistable {
        ("!", theme.warn)
    } else if skill.readiness().setup_needed {
        ("⚠", theme.warn)
    } else {
        ("·", theme.ok)
    }
}

/// What each marker means (help, status).
pub const MARKERS: &[(&str, &str)] = &[
    ("·", "offered to the agent and ready"),
    ("⚠", "needs setup (env vars, credential files)"),
    ("⊘", "hidden: another platform or environment"),
    ("⨯", "disabled in config.yaml"),
    ("↧", "shadowed: an earlier skill has its name"),
    ("↥", "(after the name) shadows a later skill of the same name"),
    ("≈", "ambiguous: skill_view refuses the name"),
    ("!", "dropped from the listing (bad name or description)"),
    ("✗", "unreadable (a SKILL.md or a folder), or skill_view fails on it"),
];

/// `then` against `now`, for a person: "today", "in 3 days", "12 days ago".
pub fn relative(now: isotime::Micros, then: isotime::Micros) -> String {
    let days = (then - now) / isotime::MICROS_PER_DAY;
    match days {
        0 => "today".into(),
        1 => "tomorrow".into(),
        -1 => "yesterday".into(),
        d if d > 0 => format!("in {}", count_s(d, "day")),
        d => format!("{} ago", count_s(-d, "day")),
    }
}

/// A time as the view shows it: the date and how far it is from now.
pub fn when(now: isotime::Micros, text: &str) -> String {
    match isotime::parse(text) {
        Some(t) => format!("{} ({})", &isotime::format(t)[..10], relative(now, t)),
        None => clean_line(text),
    }
}

/// The style and symbol of a severity.
pub fn severity_mark(severity: Severity, theme: &Theme) -> (&'static str, Style) {
    match severity {
        Severity::Error => ("✖", theme.error),
        Severity::Warning => ("▲", theme.warn),
        Severity::Info => ("ℹ", theme.dim),
    }
}

/// Highlights `positions` (character indices) of `text`.
pub fn highlighted(text: &str, positions: &[usize], base: Style, hit: Style) -> Vec<Span<'static>> {
    if positions.is_empty() {
        return vec![Span::styled(text.to_owned(), base)];
    }
    text.chars()
        .enumerate()
        .map(|(i, c)| Span::styled(c.to_string(), if positions.contains(&i) { base.patch(hit) } else { base }))
        .collect()
}

/// A bold variant of a style.
pub fn bold(style: Style) -> Style {
    style.add_modifier(Modifier::BOLD)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::theme::ColorMode;
    use crate::tui::view_text::line_text;

    #[test]
    fn raw_files_are_numbered_one_row_per_line() {
        let theme = Theme::new(ColorMode::NoColor);
        let lines = numbered("a\r\n\tb\n\n", &theme);
        let text: Vec<String> = lines.iter().map(line_text).collect();
        assert_eq!(text, ["1 │ a", "2 │     b", "3 │ "]);
        assert_eq!(gutter_width(3), 4);
        assert_eq!(gutter_width(120), 6);
    }

    #[test]
    fn fenced_code_is_never_wrapped() {
        let style = Style::default();
        let text =
            "Some prose that is long enough to wrap around.\n```sh\nnpm run build --workspace packages/web\n```\nafter";
        let lines: Vec<String> = wrap_fenced(text, 20, style).iter().map(line_text).collect();
        assert!(lines.contains(&"npm run build --workspace packages/web".to_owned()), "{lines:?}");
        assert!(lines.iter().filter(|l| !l.contains("npm")).all(|l| l.width() <= 20), "{lines:?}");
        assert_eq!(lines.last().map(String::as_str), Some("after"));
    }

    #[test]
    fn a_path_longer_than_a_row_breaks_after_a_slash() {
        let style = Style::default();
        let text = "also names /dev/shm/home/team-skills/ops/deploy-service/SKILL.md (refused)";
        let lines: Vec<String> = wrap_text(text, 30, style).iter().map(line_text).collect();
        assert_eq!(lines, ["also names", "/dev/shm/home/team-skills/ops/", "deploy-service/SKILL.md", "(refused)"]);
        // A word with no slash is split where the row ends; nothing is lost.
        let word = "x".repeat(25);
        let lines: Vec<String> = wrap_text(&format!("  {word}"), 10, style).iter().map(line_text).collect();
        assert_eq!(lines.concat().replace(' ', ""), word);
        assert!(lines.iter().all(|l| l.width() <= 10), "{lines:?}");
        // A row too narrow for a wide character still moves on.
        let lines = wrap_text("漢字漢字", 4, style);
        assert_eq!(lines.iter().map(line_text).collect::<String>(), "漢字漢字");
    }
}
