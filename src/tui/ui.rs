//! Drawing: banner, tree, views with their tabs, search prompt, status bar
//! and help overlay. Reads the app state; only caches and layout change.

use super::app::{App, Focus, ViewTab};
use super::keymap;
use super::views;
use crate::markdown::fit;
use crate::sanitize::clean_line;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Scrollbar, ScrollbarOrientation, ScrollbarState};
use ratatui::Frame;
use std::sync::Arc;
use unicode_width::UnicodeWidthStr;

/// Narrower than this, only the focused pane is shown.
const TWO_PANE_MIN_WIDTH: u16 = 60;

pub fn draw(frame: &mut Frame, app: &mut App) {
    let area = frame.area();
    if area.width < 4 || area.height < 3 {
        return;
    }
    let banner_h = u16::from(app.banner.is_some() && area.height > 8);
    let search_h = u16::from(app.search.typing || app.search.matches.is_some());
    let [banner, main, search, status] = Layout::vertical([
        Constraint::Length(banner_h),
        Constraint::Min(1),
        Constraint::Length(search_h),
        Constraint::Length(1),
    ])
    .areas(area);
    if let Some(text) = &app.banner {
        frame.render_widget(Paragraph::new(fit(text, usize::from(banner.width))).style(app.theme.banner), banner);
    }
    let (tree_area, view_area) = if main.width >= TWO_PANE_MIN_WIDTH {
        let tree_w = (main.width * 35 / 100).clamp(24, 48);
        let [t, v] = Layout::horizontal([Constraint::Length(tree_w), Constraint::Min(10)]).areas(main);
        (t, v)
    } else if app.focus == Focus::Tree {
        (main, Rect::default())
    } else {
        (Rect::default(), main)
    };
    app.layout.tree = tree_area;
    app.layout.view = view_area;
    draw_tree(frame, app, tree_area);
    draw_view(frame, app, view_area);
    draw_search(frame, app, search);
    draw_status(frame, app, status);
    if app.help {
        draw_help(frame, app, area);
    }
}

fn block<'a>(title: Line<'a>, focused: bool, app: &App) -> Block<'a> {
    Block::default()
        .borders(Borders::ALL)
        .border_style(if focused { app.theme.border_focused } else { app.theme.border })
        .title(title)
}

fn draw_tree(frame: &mut Frame, app: &mut App, area: Rect) {
    if area.width < 3 || area.height < 3 {
        return;
    }
    let theme = app.theme;
    let total = app.catalog.skills.len();
    let title = match &app.search.matches {
        Some(m) => format!(" Skills {}/{} ", m.len(), total),
        None => format!(" Skills {total} "),
    };
    let b = block(Line::from(title), app.focus == Focus::Tree, app);
    let inner = b.inner(area);
    frame.render_widget(b, area);
    let height = usize::from(inner.height);
    if app.cursor < app.tree_offset {
        app.tree_offset = app.cursor;
    } else if height > 0 && app.cursor >= app.tree_offset + height {
        app.tree_offset = app.cursor + 1 - height;
    }
    let width = usize::from(inner.width);
    let query = app.search.query.clone();
    let mut lines = Vec::new();
    for (i, row) in app.rows.iter().enumerate().skip(app.tree_offset).take(height) {
        let node = &app.tree.nodes[row.node];
        let indent = "  ".repeat(row.depth);
        let selected = i == app.cursor;
        let mut spans = vec![Span::raw(indent)];
        if row.has_children {
            let arrow = if row.expanded { "▾ " } else { "▸ " };
            spans.push(Span::styled(arrow, theme.accent));
            let label = clean_line(&node.label);
            let style = if selected { theme.selected } else { views::bold(theme.text) };
            spans.push(Span::styled(label, style));
            spans.push(Span::styled(format!(" ({})", row.count), theme.dim));
        } else if let Some(s) = node.skill {
            let skill = &app.catalog.skills[s];
            let (mark, mstyle) = views::marker(skill, &theme);
            spans.push(Span::styled(format!("{mark} "), mstyle));
            let name = clean_line(&skill.name);
            let base = if selected {
                theme.selected
            } else if skill.hidden() {
                theme.dim
            } else {
                theme.text
            };
            let positions = crate::search::positions(&name, &query);
            spans.extend(views::highlighted(&name, &positions, base, theme.matched));
            if !skill.status.shadows.is_empty() {
                spans.push(Span::styled(" ↥", theme.warn));
            }
            if let Some(worst) = app.jobs.diagnostics.as_ref().and_then(|d| d.worst_by_skill.get(&s)) {
                let (mark, style) = views::severity_mark(*worst, &theme);
                spans.push(Span::styled(format!(" {mark}"), style));
            }
        }
        lines.push(clip(Line::from(spans), width));
    }
    if app.rows.is_empty() {
        let text = if app.search.matches.is_some() { "no match" } else { "no skills" };
        lines.push(Line::from(Span::styled(text, theme.dim)));
    }
    frame.render_widget(Paragraph::new(lines), inner);
}

/// Cuts a line to `width` columns.
fn clip(line: Line<'static>, width: usize) -> Line<'static> {
    let mut used = 0;
    let mut spans = Vec::new();
    for span in line.spans {
        let w = span.content.width();
        if used + w <= width {
            used += w;
            spans.push(span);
        } else {
            let rest = width.saturating_sub(used);
            if rest > 0 {
                spans.push(Span::styled(fit(&span.content, rest), span.style));
            }
            break;
        }
    }
    Line::from(spans)
}

fn tabs_title(app: &App) -> Line<'static> {
    let mut spans = vec![Span::raw(" ")];
    for (i, tab) in ViewTab::ALL.iter().enumerate() {
        let style = if *tab == app.view { app.theme.tab_active } else { app.theme.dim };
        spans.push(Span::styled(format!("{} {}", i + 1, tab.title()), style));
        spans.push(Span::raw(" "));
    }
    if app.raw && app.view == ViewTab::Preview {
        spans.push(Span::styled("[raw] ", app.theme.warn));
    }
    Line::from(spans)
}

fn draw_view(frame: &mut Frame, app: &mut App, area: Rect) {
    if area.width < 3 || area.height < 3 {
        return;
    }
    let b = block(tabs_title(app), app.focus == Focus::View, app);
    let inner = b.inner(area);
    frame.render_widget(b, area);
    app.layout.view_height = inner.height;
    let width = inner.width.saturating_sub(1).max(1);
    let key = app.cache_key(width);
    let lines = match app.cache.get(&key) {
        Some(l) => l.clone(),
        None => {
            let l = Arc::new(views::build(app, width));
            app.cache.insert(key, l.clone());
            l
        }
    };
    let height = usize::from(inner.height);
    let max_scroll = lines.len().saturating_sub(height);
    app.view_scroll = app.view_scroll.min(max_scroll);
    // Only the visible window is handed to ratatui: scrolling never re-renders.
    let window: Vec<Line> = lines.iter().skip(app.view_scroll).take(height).cloned().collect();
    let text_area = Rect { width: inner.width.saturating_sub(1), ..inner };
    frame.render_widget(Paragraph::new(window), text_area);
    if lines.len() > height {
        let mut state = ScrollbarState::new(max_scroll).position(app.view_scroll);
        frame.render_stateful_widget(Scrollbar::new(ScrollbarOrientation::VerticalRight), inner, &mut state);
    }
}

fn draw_search(frame: &mut Frame, app: &App, area: Rect) {
    if area.height == 0 {
        return;
    }
    let count = app.search.matches.as_ref().map_or(app.catalog.skills.len(), |m| m.len());
    let cursor = if app.search.typing { "█" } else { "" };
    let line = Line::from(vec![
        Span::styled("/", app.theme.accent),
        Span::styled(clean_line(&app.search.query), app.theme.text),
        Span::styled(cursor, app.theme.accent),
        Span::styled(format!("  {count} matching"), app.theme.dim),
    ]);
    frame.render_widget(Paragraph::new(clip(line, usize::from(area.width))), area);
}

fn draw_status(frame: &mut Frame, app: &App, area: Rect) {
    let e = &app.engine;
    let listed = app.catalog.listed_count();
    let total = app.catalog.skills.len();
    let place = match &app.folder {
        Some(folder) => format!("folder {}", crate::engine::paths::path_string(folder)),
        None => e.home.display(&e.env),
    };
    let left = format!(" {place} │ {} │ {} │ {listed}/{total} offered ", e.options.backend, e.env.os.name());
    // A notice answers what the user just did: it gets the whole line.
    if let Some(notice) = &app.notice {
        let text = fit(&clean_line(&format!(" {notice}")), usize::from(area.width));
        frame.render_widget(Paragraph::new(Line::from(Span::styled(text, app.theme.warn))), area);
        return;
    }
    let problem = app.catalog.problems.first().map(|first| match app.catalog.problems.len() {
        1 => first.clone(),
        n => format!("{n} problems, all listed when a folder is selected; first: {first}"),
    });
    let note = app.watch_note.clone().or(problem);
    let right = note.unwrap_or_else(|| keymap::hints(app.mode()).to_owned());
    let w = usize::from(area.width);
    let left = fit(&clean_line(&left), w);
    let rest = w.saturating_sub(left.width() + 1);
    let line = Line::from(vec![
        Span::styled(left, app.theme.tab_active),
        Span::raw(" "),
        Span::styled(fit(&clean_line(&right), rest), app.theme.dim),
    ]);
    frame.render_widget(Paragraph::new(line), area);
}

fn draw_help(frame: &mut Frame, app: &App, area: Rect) {
    let w = area.width.saturating_sub(4).min(86);
    let h = area.height.saturating_sub(2);
    if w < 10 || h < 3 {
        return;
    }
    let rect = Rect { x: area.x + (area.width - w) / 2, y: area.y + 1, width: w, height: h };
    let theme = &app.theme;
    let mut lines = Vec::new();
    for (title, entries) in keymap::help_entries() {
        lines.push(Line::from(Span::styled(title, theme.heading)));
        for (keys, desc) in entries {
            lines.push(Line::from(vec![Span::styled(format!("  {keys:<12}"), theme.accent), Span::raw(desc)]));
        }
        lines.push(Line::default());
    }
    lines.push(Line::from(Span::styled("Tree markers", theme.heading)));
    for (mark, desc) in views::MARKERS {
        lines.push(Line::from(vec![Span::styled(format!("  {mark:<12}"), theme.accent), Span::raw(*desc)]));
    }
    lines.push(Line::from(vec![
        Span::styled(format!("  {:<12}", "✖ ▲ ℹ"), theme.accent),
        Span::raw("after a name: its worst diagnostic (error, warning, info)"),
    ]));
    let inner_w = usize::from(w.saturating_sub(2));
    let lines: Vec<Line> = lines.into_iter().map(|l| clip(l, inner_w)).collect();
    frame.render_widget(Clear, rect);
    let b = Block::default().borders(Borders::ALL).border_style(theme.border_focused).title(" Help (Esc closes) ");
    frame.render_widget(Paragraph::new(lines).block(b).style(Style::default()), rect);
}
