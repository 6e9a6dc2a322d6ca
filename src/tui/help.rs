//! The help overlay's content: the marker legend first, then the keys by
//! where they apply, generated from the keymap; filterable and scrollable.

use super::keymap::Keymap;
use super::line_edit::LineEdit;
use super::lines::MARKERS;
use super::theme::Theme;
use ratatui::text::{Line, Span};

#[derive(Debug, Clone, Default)]
pub struct HelpState {
    pub open: bool,
    pub scroll: usize,
    /// The filter prompt has the keyboard.
    pub typing: bool,
    pub filter: LineEdit,
}

/// One entry of the help: a heading and its (keys, meaning) rows.
struct Section {
    title: &'static str,
    rows: Vec<(String, String)>,
}

fn sections(keymap: &Keymap, config_problems: &[String]) -> Vec<Section> {
    let mut legend: Vec<(String, String)> =
        MARKERS.iter().map(|(mark, desc)| ((*mark).to_owned(), (*desc).to_owned())).collect();
    legend.push(("✖ ▲ ℹ".into(), "after a name: its worst diagnostic (error, warning, info)".into()));
    legend.push(("◔ ⚑".into(), "after a name: the curator marked it stale; it is pinned (view 8 tells more)".into()));
    legend.push((
        crate::tui::lines::ARCHIVED_MARK.into(),
        "in the archive root: moved to skills/.archive/ by the curator, not loaded".into(),
    ));
    // The marks `--since` (or D) puts before a name.
    use crate::engine::diff::ChangeKind;
    let changes = [
        (ChangeKind::Added, "added"),
        (ChangeKind::Modified, "changed"),
        (ChangeKind::Moved, "moved or renamed"),
        (ChangeKind::Removed, "removed (dimmed)"),
    ];
    for (change, what) in changes {
        legend.push((change.mark().to_owned(), format!("before a name: {what} since the revision (--since, D)")));
    }
    let mut out = Vec::new();
    if !config_problems.is_empty() {
        let rows = config_problems.iter().map(|p| ("✗".to_owned(), crate::sanitize::clean_line(p))).collect();
        out.push(Section { title: "Config file problems (those entries are ignored)", rows });
    }
    out.push(Section { title: "Tree markers", rows: legend });
    for (title, entries) in keymap.help_entries() {
        out.push(Section { title, rows: entries.into_iter().map(|(k, d)| (k, d.to_owned())).collect() });
    }
    out
}

/// The help lines for a filter (case-insensitive, on keys and meanings; a
/// heading stays when one of its rows matches or the heading does).
pub fn lines(keymap: &Keymap, filter: &str, theme: &Theme, config_problems: &[String]) -> Vec<Line<'static>> {
    let needle = filter.trim().to_lowercase();
    let mut out = Vec::new();
    for section in sections(keymap, config_problems) {
        let title_hit = !needle.is_empty() && section.title.to_lowercase().contains(&needle);
        let rows: Vec<&(String, String)> = section
            .rows
            .iter()
            .filter(|(k, d)| {
                needle.is_empty()
                    || title_hit
                    || k.to_lowercase().contains(&needle)
                    || d.to_lowercase().contains(&needle)
            })
            .collect();
        if rows.is_empty() {
            continue;
        }
        out.push(Line::from(Span::styled(section.title, theme.heading)));
        for (keys, desc) in rows {
            out.push(Line::from(vec![Span::styled(format!("  {keys:<14}"), theme.accent), Span::raw(desc.clone())]));
        }
        out.push(Line::default());
    }
    if out.is_empty() {
        out.push(Line::from(Span::styled(format!("nothing in the help matches {filter:?}"), theme.dim)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::theme::ColorMode;
    use crate::tui::view_text::line_text;

    #[test]
    fn legend_first_then_keys_and_filtering() {
        let theme = Theme::new(ColorMode::NoColor);
        let all: Vec<String> = lines(&Keymap::default(), "", &theme, &[]).iter().map(line_text).collect();
        assert_eq!(all[0], "Tree markers");
        for mark in ["·", "⚠", "⊘", "⨯", "↧", "≈", "!", "✗", "↥", "✖ ▲ ℹ", "◔ ⚑", "⊟"] {
            assert!(all.iter().any(|l| l.trim_start().starts_with(mark)), "legend has {mark}");
        }
        assert!(all.iter().any(|l| l.starts_with("Browsing")));
        let copy: Vec<String> = lines(&Keymap::default(), "clipboard", &theme, &[]).iter().map(line_text).collect();
        let copy_all: Vec<String> = lines(&Keymap::default(), "copy", &theme, &[]).iter().map(line_text).collect();
        assert!(copy_all.iter().any(|l| l.trim_start().starts_with('y')), "{copy_all:?}");
        assert!(copy_all.len() < all.len());
        assert_eq!(copy.len(), 1, "no match says so: {copy:?}");
    }

    #[test]
    fn config_problems_come_first_every_one() {
        let theme = Theme::new(ColorMode::NoColor);
        let problems = ["config /c.toml:2: unknown action \"x\"".to_owned(), "config /c.toml:5: bad colour".to_owned()];
        let all: Vec<String> = lines(&Keymap::default(), "", &theme, &problems).iter().map(line_text).collect();
        assert!(all[0].starts_with("Config file problems"), "{all:?}");
        assert!(all[1].contains(":2: unknown action") && all[2].contains(":5: bad colour"), "{all:?}");
    }
}
