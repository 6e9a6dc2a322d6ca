//! Drawing: banner, tree, views with their tabs, search prompt, status bar
//! and help overlay. Reads the app state and changes nothing: what a frame
//! needs (the layout, the view's lines) is made ready before it by
//! [`App::prepare`], from the same layout functions as here.

use super::app::{App, Effect, Focus, ViewTab};
use super::keymap::{self, Mode};
use super::line_edit::LineEdit;
use super::lines::{self, ARCHIVED_MARK};
use super::theme::Theme;
use super::tree::{NodeKey, TreeSort};
use super::view_text;
use crate::engine::diff::ChangeKind;
use crate::engine::lifecycle::UsageMark;
use crate::engine::words::thousands;
use crate::sanitize::clean_line;
use crate::tui::markdown::fit;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Scrollbar, ScrollbarOrientation, ScrollbarState};
use ratatui::Frame;
use unicode_width::UnicodeWidthStr;

/// Narrower than this, only the focused pane is shown.
const TWO_PANE_MIN_WIDTH: u16 = 60;

/// Where each part of the screen goes, for a terminal of `area`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Areas {
    pub banner: Rect,
    pub tree: Rect,
    pub view: Rect,
    pub search: Rect,
    pub status: Rect,
}

/// The screen's parts for the app's state (the banner, a prompt or the
/// focused pane alone on a narrow terminal change them).
pub fn areas(app: &App, area: Rect) -> Areas {
    if area.width < 4 || area.height < 3 {
        return Areas::default();
    }
    let banner_h = match &app.banner {
        Some(text) if area.height > 8 => banner_rows(text, area.width).len() as u16,
        _ => 0,
    };
    let search_h = u16::from(
        app.search.typing
            || app.search.matches.is_some()
            || app.view_search.typing
            || !app.view_search.input.is_empty()
            || app.since_prompt.is_some(),
    );
    let [banner, main, search, status] = Layout::vertical([
        Constraint::Length(banner_h),
        Constraint::Min(1),
        Constraint::Length(search_h),
        Constraint::Length(status_height(app, area)),
    ])
    .areas(area);
    let (tree, view) = if main.width >= TWO_PANE_MIN_WIDTH {
        let tree_w = (main.width * 35 / 100).clamp(24, 48);
        let [t, v] = Layout::horizontal([Constraint::Length(tree_w), Constraint::Min(10)]).areas(main);
        (t, v)
    } else if app.focus == Focus::Tree {
        (main, Rect::default())
    } else {
        (Rect::default(), main)
    };
    Areas { banner, tree, view, search, status }
}

/// Rows the status line takes: one, and on a screen with room, up to two
/// more for a notice longer than the line or a lasting note too long to
/// share it (its end is often what to do).
fn status_height(app: &App, area: Rect) -> u16 {
    if area.height < 12 {
        return 1;
    }
    let rows = |text: &str| lines::wrap_text(&clean_line(text), area.width, Style::default()).len() as u16;
    match (&app.notice, lasting_note(app)) {
        (Some(notice), _) => rows(&format!(" {notice}")).clamp(1, 3),
        (None, Some(note)) if note.width() > usize::from(area.width) / 2 => 1 + rows(&note).min(2),
        _ => 1,
    }
}

/// What the status line keeps saying until it is mended: a settings file's
/// problem, the watcher's, else the home's first problem.
fn lasting_note(app: &App) -> Option<String> {
    let problem = app.catalog.problems.first().map(|first| match app.catalog.problems.len() {
        1 => first.clone(),
        n => format!("{n} problems, all listed when a folder is selected; first: {first}"),
    });
    app.prefs.config_note.clone().or_else(|| app.watch_note.clone()).or(problem)
}

/// The banner wrapped in at most [`BANNER_ROWS`] rows (its folder and what
/// it is shown as are read whole on most screens), the last cut if need be.
fn banner_rows(text: &str, width: u16) -> Vec<Line<'static>> {
    let mut rows = lines::wrap_text(text, width, Style::default());
    if rows.len() > BANNER_ROWS {
        let rest: Vec<String> = rows[BANNER_ROWS - 1..].iter().map(view_text::line_text).collect();
        rows.truncate(BANNER_ROWS - 1);
        rows.push(Line::from(fit(&rest.join(" "), usize::from(width))));
    }
    rows
}

/// Rows the banner takes at most.
const BANNER_ROWS: usize = 2;

/// Gets the frame ready ([`App::prepare`]) and draws it: the jobs it asks
/// for are the caller's to run.
pub fn render<B: ratatui::backend::Backend>(
    terminal: &mut ratatui::Terminal<B>,
    app: &mut App,
) -> std::io::Result<Vec<Effect>> {
    let size = terminal.size().map_err(|e| std::io::Error::other(e.to_string()))?;
    let effects = app.prepare(Rect::new(0, 0, size.width, size.height));
    terminal.draw(|f| draw(f, app)).map_err(|e| std::io::Error::other(e.to_string()))?;
    Ok(effects)
}

pub fn draw(frame: &mut Frame, app: &App) {
    let area = frame.area();
    if area.width < 4 || area.height < 3 {
        return;
    }
    let parts = areas(app, area);
    if let Some(text) = &app.banner {
        let banner = parts.banner;
        frame.render_widget(Paragraph::new(banner_rows(text, banner.width)).style(app.theme.banner), banner);
    }
    draw_tree(frame, app, parts.tree);
    draw_view(frame, app, parts.view);
    draw_search(frame, app, parts.search);
    draw_status(frame, app, parts.status);
    if app.help.open {
        draw_help(frame, app, area);
    }
    if app.copy_menu.is_some() {
        draw_copy_menu(frame, app, area);
    }
    super::cells::settle(frame.buffer_mut());
}

fn block<'a>(title: Line<'a>, focused: bool, app: &App) -> Block<'a> {
    Block::default()
        .borders(Borders::ALL)
        .border_style(if focused { app.theme.border_focused } else { app.theme.border })
        .title(title)
}

fn draw_tree(frame: &mut Frame, app: &App, area: Rect) {
    if area.width < 3 || area.height < 3 {
        return;
    }
    let theme = app.theme;
    let total = app.catalog.skills.len();
    let title = match (&app.search.matches, app.nav.sort) {
        (Some(m), _) => format!(" Skills {}/{} by relevance ", m.len(), total),
        (None, TreeSort::Name) => format!(" Skills {total} "),
        (None, sort) => format!(" Skills {total} by {} ", sort.label()),
    };
    let now = (app.clock)();
    // Cut with a sign where the pane is narrow (a border would cut it bare).
    let title = fit(&title, usize::from(area.width.saturating_sub(2)));
    let b = block(Line::from(title), app.focus == Focus::Tree, app);
    let inner = b.inner(area);
    frame.render_widget(b, area);
    if let Some(scan) = &app.scan {
        let text = format!("Reading skills… {}", thousands(scan.read()));
        frame.render_widget(Paragraph::new(fit(&text, usize::from(inner.width))).style(theme.dim), inner);
        return;
    }
    let height = usize::from(inner.height);
    let width = usize::from(inner.width);
    let query = app.search.query().to_owned();
    let ranked = app.search.matches.is_some();
    let several_roots = ranked && app.catalog.skills.iter().any(|s| s.root != app.catalog.skills[0].root);
    let marking = app.since_answer().is_some();
    let mut lines = Vec::new();
    for (i, row) in app.nav.rows.iter().enumerate().skip(app.nav.offset).take(height) {
        let node = &app.nav.tree.nodes[row.node];
        let indent = "  ".repeat(row.depth);
        let selected = i == app.nav.cursor;
        let mut spans = Vec::new();
        if marking {
            // The change marks take a column of their own, left of the
            // tree, so that indentation still shows what holds what.
            let mark = match (node.skill, &node.key) {
                (Some(s), _) => {
                    app.since_change(&app.catalog.skills[s].skill_md).map(|c| super::since::mark(c.change, &theme))
                }
                (None, NodeKey::RemovedSkill(_)) => Some(super::since::mark(ChangeKind::Removed, &theme)),
                _ => None,
            };
            spans.push(match mark {
                Some((mark, style)) => Span::styled(format!("{mark} "), style),
                None => Span::raw("  "),
            });
        }
        spans.push(Span::raw(indent));
        if row.has_children {
            let arrow = if row.expanded { "▾ " } else { "▸ " };
            spans.push(Span::styled(arrow, theme.accent));
            let label = clean_line(&node.label);
            let style = match (selected, matches!(node.key, NodeKey::Archive | NodeKey::Removed)) {
                (true, _) => theme.selected,
                (false, true) => theme.dim,
                (false, false) => lines::bold(theme.text),
            };
            spans.push(Span::styled(label, style));
            spans.push(Span::styled(format!(" ({})", row.count), theme.dim));
        } else if matches!(node.key, NodeKey::Root(_)) {
            // A root without skills (the database's, before or without rows).
            let style = if selected { theme.selected } else { lines::bold(theme.text) };
            spans.push(Span::styled(format!("  {}", clean_line(&node.label)), style));
            spans.push(Span::styled(" (0)", theme.dim));
        } else if let Some(s) = node.skill {
            let skill = &app.catalog.skills[s];
            let (mark, mstyle) = lines::marker(skill, &theme);
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
            // The marks after the name stay on a narrow row: the name is
            // cut (with `…`) to leave them room.
            let mut marks = Vec::new();
            if !skill.status.shadows.is_empty() {
                marks.push(Span::styled(" ↥", theme.warn));
            }
            let usage = app.usage.mark(skill);
            if let Some(mark) = usage {
                if mark.stale {
                    marks.push(Span::styled(" ◔", theme.warn));
                }
                if mark.pinned {
                    marks.push(Span::styled(" ⚑", theme.accent));
                }
            }
            // Markers from the Diagnostics view's threshold (warnings and up
            // until `f` asks for info), so that they stay worth a look.
            let worst = app.jobs.diagnostics.as_ref().and_then(|d| d.worst_by_skill.get(&s));
            if let Some(worst) = worst.filter(|w| **w >= app.view.diag.min) {
                let (mark, style) = lines::severity_mark(*worst, &theme);
                marks.push(Span::styled(format!(" {mark}"), style));
            }
            let used: usize = spans.iter().chain(&marks).map(Span::width).sum();
            // What the order is by follows, short where the row is narrow
            // (`15d` for `15 days ago`); a database skill has no usage
            // record to sort by.
            let tokens = app.index_tokens.get(&skill.skill_md).copied();
            let hint = (!ranked && skill.db_row.is_none())
                .then(|| sort_hint(app.nav.sort, usage, tokens, now))
                .flatten()
                .and_then(|(full, short)| {
                    let (full, short) = (format!("  {full}"), format!(" {short}"));
                    if used + name.width() + full.width() <= width {
                        Some(full)
                    } else if used + name.width().min(NAME_KEPT) + short.width() <= width {
                        Some(short)
                    } else {
                        None
                    }
                });
            let room = width.saturating_sub(used + hint.as_deref().map_or(0, UnicodeWidthStr::width));
            let name = if name.width() > room && room >= 2 { fit(&name, room) } else { name };
            spans.extend(lines::highlighted(&name, &positions, base, theme.matched));
            spans.extend(marks);
            if let Some(hint) = hint {
                spans.push(Span::styled(hint, theme.dim));
            }
            if ranked {
                // A flat list of results: say where each one lives, with its
                // root where there are several (the same name and category
                // may be in two).
                let mut place = skill.category_path();
                if several_roots {
                    let root = app.catalog.roots.get(skill.root).map_or("", |r| r.label.as_str());
                    place = if place.is_empty() { root.to_owned() } else { format!("{place} · {root}") };
                }
                if !place.is_empty() {
                    spans.push(Span::styled(format!("  {}", clean_line(&place)), theme.dim));
                }
            }
        } else if node.unreadable.is_some() {
            spans.push(Span::styled("✗ ", theme.error));
            spans.push(Span::styled(clean_line(&node.label), if selected { theme.selected } else { theme.dim }));
            spans.push(Span::styled("  cannot be read", theme.dim));
        } else if node.archived.is_some() {
            spans.push(Span::styled(format!("{ARCHIVED_MARK} "), theme.dim));
            spans.push(Span::styled(clean_line(&node.label), if selected { theme.selected } else { theme.dim }));
        } else if let NodeKey::RemovedSkill(folder) = &node.key {
            // The marker's slot left blank, so that its name lines up with
            // the other skills'.
            spans.push(Span::raw("  "));
            spans.push(Span::styled(clean_line(&node.label), if selected { theme.selected } else { theme.dim }));
            spans.push(Span::styled(format!("  {}", clean_line(folder)), theme.dim));
        }
        lines.push(clip(Line::from(spans), width));
    }
    if app.nav.rows.is_empty() {
        let text = if app.search.matches.is_some() { "no match" } else { "no skills" };
        lines.push(Line::from(Span::styled(text, theme.dim)));
    }
    frame.render_widget(Paragraph::new(lines), inner);
}

/// Columns of a skill's name a narrow tree row keeps before it drops what
/// the order is by.
const NAME_KEPT: usize = 8;

/// What the tree's order is by, after a skill's name, and its short form
/// for a narrow row: `3 days ago` / `3d`, `12 uses` / `12×`.
fn sort_hint(
    sort: TreeSort,
    usage: Option<&UsageMark>,
    index_tokens: Option<usize>,
    now: crate::engine::isotime::Micros,
) -> Option<(String, String)> {
    use crate::engine::words::count_s;
    match sort {
        TreeSort::Name => None,
        TreeSort::LastActivity => Some(match usage.and_then(|u| u.last_activity) {
            None => ("never".to_owned(), "never".to_owned()),
            Some(t) => {
                let days = (t - now) / crate::engine::isotime::MICROS_PER_DAY;
                let short = if days > 0 { format!("in {days}d") } else { format!("{}d", -days) };
                (lines::relative(now, t), short)
            }
        }),
        TreeSort::UseCount => {
            let uses = usage.map_or(0, |u| u.use_count);
            Some((count_s(uses, "use"), format!("{uses}×")))
        }
        TreeSort::IndexCost => Some(match index_tokens {
            Some(t) => (count_s(t as u64, "token"), format!("{t}t")),
            None => ("not in the index".to_owned(), "–".to_owned()),
        }),
    }
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

/// The tab titles, and where each is drawn: (first column, past the
/// last), in [`ViewTab::ALL`] order. Where the titles do not all fit, the
/// other tabs show their numbers only.
fn tabs_title(app: &App, x: u16, width: u16) -> (Line<'static>, [(u16, u16); ViewTab::ALL.len()]) {
    let mut spans = vec![Span::raw(" ")];
    let mut at = x + 2;
    let mut positions = [(0, 0); ViewTab::ALL.len()];
    let full: usize = ViewTab::ALL.iter().enumerate().map(|(i, t)| format!("{} {} ", i + 1, t.title()).width()).sum();
    let compact = full + 3 > usize::from(width);
    for (i, tab) in ViewTab::ALL.iter().enumerate() {
        let style = if *tab == app.view.tab { app.theme.tab_active } else { app.theme.dim };
        let text = match compact && *tab != app.view.tab {
            true => format!("{}", i + 1),
            false => format!("{} {}", i + 1, tab.title()),
        };
        let w = text.width() as u16;
        positions[i] = (at, at + w);
        at += w + 1;
        spans.push(Span::styled(text, style));
        spans.push(Span::raw(" "));
    }
    let diffing = app.view.since_diff && app.since_answer().is_some();
    if diffing && matches!(app.view.tab, ViewTab::Preview | ViewTab::Agent) {
        // `d` stays on from skill to skill: said where the view is.
        spans.push(Span::styled("[diff] ", app.theme.warn));
    } else if app.view.raw && app.view.tab == ViewTab::Preview {
        spans.push(Span::styled("[raw] ", app.theme.warn));
    }
    (Line::from(spans), positions)
}

/// Where each tab's title is drawn in a view pane at `x` of `width`.
pub fn tab_positions(app: &App, x: u16, width: u16) -> [(u16, u16); ViewTab::ALL.len()] {
    tabs_title(app, x, width).1
}

fn draw_view(frame: &mut Frame, app: &App, area: Rect) {
    if area.width < 3 || area.height < 3 {
        return;
    }
    let (title, _) = tabs_title(app, area.x, area.width);
    let b = block(title, app.focus == Focus::View, app);
    let inner = b.inner(area);
    frame.render_widget(b, area);
    let width = inner.width.saturating_sub(1).max(1);
    if let Some(scan) = &app.scan {
        let text = vec![
            Line::from(format!("Reading the home: {} SKILL.md files so far.", thousands(scan.read()))),
            Line::from(""),
            Line::from("The tree appears when every skill is read; q quits, ? shows the keys."),
        ];
        frame.render_widget(Paragraph::new(text).style(app.theme.dim), inner);
        return;
    }
    // Made ready by `App::prepare`; a frame drawn without it shows nothing.
    let Some(rendered) = app.shown() else { return };
    let lines = &rendered.lines;
    let height = usize::from(inner.height);
    let max_scroll = lines.len().saturating_sub(height);
    let scroll = app.view.scroll.min(max_scroll);
    // A raw file keeps its line numbers in place while long lines scroll.
    let keep = if app.view.raw && app.view.tab == ViewTab::Preview { lines::gutter_width(lines.len()) } else { 0 };
    let theme = app.theme;
    let hit_style = theme.matched;
    let current_style = theme.selected;
    // Only the visible window is handed to ratatui: scrolling never re-renders.
    let window: Vec<Line> = lines
        .iter()
        .enumerate()
        .skip(scroll)
        .take(height)
        .map(|(i, line)| {
            // Hits are in line order: this line's are one contiguous run.
            let hits = &app.view_search.hits;
            let first = hits.partition_point(|h| h.line < i);
            let ranges: Vec<(usize, usize, ratatui::style::Style)> = hits[first..]
                .iter()
                .take_while(|h| h.line == i)
                .enumerate()
                .map(|(n, h)| {
                    let style = if first + n == app.view_search.current { current_style } else { hit_style };
                    (h.start, h.end, style)
                })
                .collect();
            let line = view_text::highlight(line, &ranges);
            view_text::window(&line, keep, app.view.h_scroll, usize::from(width), theme.dim)
        })
        .collect();
    let text_area = Rect { width, ..inner };
    frame.render_widget(Paragraph::new(window), text_area);
    if lines.len() > height {
        let mut state = ScrollbarState::new(max_scroll).position(scroll);
        frame.render_stateful_widget(Scrollbar::new(ScrollbarOrientation::VerticalRight), inner, &mut state);
    }
}

fn draw_search(frame: &mut Frame, app: &App, area: Rect) {
    if area.height == 0 {
        return;
    }
    if let Some(revision) = &app.since_prompt {
        let mut spans = prompt_spans("since ", revision, true, &app.theme);
        spans.push(Span::styled(
            "  a git revision (a branch, a tag, HEAD~3, A...B): Enter marks changes since it, Esc cancels",
            app.theme.dim,
        ));
        frame.render_widget(Paragraph::new(clip(Line::from(spans), usize::from(area.width))), area);
        return;
    }
    let view_prompt = app.view_search.typing || (!app.view_search.input.is_empty() && !app.search.typing);
    let (input, typing, summary) = if view_prompt {
        let vs = &app.view_search;
        let summary = match vs.hits.len() {
            0 if vs.input.is_empty() => "  search the view".to_owned(),
            0 => "  no match in this view".to_owned(),
            n => format!("  match {}/{n}  n/N next/previous", vs.current + 1),
        };
        (&vs.input, vs.typing, summary)
    } else {
        // The rows listed: the skills found, and skills removed since the
        // marks' revision that match.
        let count = app.search.matches.as_ref().map_or(app.catalog.skills.len(), |_| app.nav.rows.len());
        let summary = if count == 0 && !app.search.query().trim().is_empty() {
            "  no skill matches".to_owned()
        } else {
            format!("  {count} matching")
        };
        (&app.search.input, app.search.typing, summary)
    };
    let label = if view_prompt { "view /" } else { "/" };
    let mut spans = prompt_spans(label, input, typing, &app.theme);
    spans.push(Span::styled(summary, app.theme.dim));
    frame.render_widget(Paragraph::new(clip(Line::from(spans), usize::from(area.width))), area);
}

/// A prompt's label and text, with the cursor shown while it is typed in.
fn prompt_spans(label: &'static str, input: &LineEdit, typing: bool, theme: &Theme) -> Vec<Span<'static>> {
    let mut spans = vec![Span::styled(label, theme.accent)];
    let text = input.text();
    if typing {
        let at = input.cursor_chars();
        let before: String = text.chars().take(at).collect();
        let under: String = text.chars().nth(at).map_or(" ".to_owned(), |c| c.to_string());
        let after: String = text.chars().skip(at + 1).collect();
        spans.push(Span::styled(clean_line(&before), theme.text));
        spans.push(Span::styled(clean_line(&under), theme.selected));
        spans.push(Span::styled(clean_line(&after), theme.text));
    } else {
        spans.push(Span::styled(clean_line(text), theme.text));
    }
    spans
}

fn draw_status(frame: &mut Frame, app: &App, area: Rect) {
    let e = &app.engine;
    let listed = app.catalog.listed_count();
    let total = app.catalog.skills.len();
    let place = match &app.folder {
        Some(folder) => format!("folder {}", crate::engine::paths::path_string(folder)),
        None => e.home.display(&e.env),
    };
    let counts = match (app.scan.is_some(), app.catalog.unreadable.len()) {
        (true, _) => "reading…".to_owned(),
        (false, 0) => format!("{listed}/{total} listed"),
        (false, n) => {
            format!("{listed}/{total} listed, {} unreadable", crate::engine::words::count_s(n as u64, "folder"))
        }
    };
    // The old catalog stays on screen while the new one is read.
    let counts = if app.rescanning() { format!("{counts}, rescanning…") } else { counts };
    let db_status = app.layers.as_ref().and_then(|l| l.db.as_ref()).and_then(|_| app.db.status());
    let counts = match db_status {
        Some(status) => format!("{counts}, {status}"),
        None => counts,
    };
    // What the index costs every conversation, once it is measured.
    let index = app.index_answer().map(|shown| format!("index {} tokens", thousands(shown.cost.index.tokens)));
    // Which revision the tree's marks are since, and how it stands.
    let since = app.since.as_ref().filter(|s| s.on).map(|since| {
        let state = match &since.answer {
            Some(Ok(answer)) => {
                let n = answer.report.skills.len() + answer.report.bundles.len();
                crate::engine::words::count_s(n as u64, "change")
            }
            Some(Err(_)) => "cannot compare".to_owned(),
            None => "comparing…".to_owned(),
        };
        format!("since {} ({state})", clean_line(&since.rev))
    });
    let hermes = app.hermes.as_ref().and_then(|h| h.short_label());
    // The facts after the folder, in order, each with how long it stays
    // on a narrow line: the higher, the longer (the counts and the marks'
    // revision last).
    let facts: Vec<(String, u8)> = [
        Some((e.options.backend.to_string(), 3)),
        Some((e.env.os.name().to_owned(), 2)),
        Some((counts, 6)),
        index.map(|i| (i, 4)),
        since.map(|s| (s, 5)),
        hermes.map(|h| (h, 1)),
    ]
    .into_iter()
    .flatten()
    .map(|(text, keep)| (clean_line(&text), keep))
    .collect();
    let place = clean_line(&place);
    // A notice answers what the user just did: it gets the whole line, or
    // the rows `status_height` gave it.
    if let Some(notice) = &app.notice {
        let mut rows = lines::wrap_text(&clean_line(&format!(" {notice}")), area.width, app.theme.warn);
        let whole = rows.len() <= usize::from(area.height);
        rows.truncate(usize::from(area.height));
        if !whole {
            let last = rows.pop().map(|l| view_text::line_text(&l)).unwrap_or_default();
            rows.push(Line::from(Span::styled(fit(&format!("{last} …"), usize::from(area.width)), app.theme.warn)));
        }
        frame.render_widget(Paragraph::new(rows), area);
        return;
    }
    let mut note = lasting_note(app);
    // A note too long to share the line has rows of its own above it.
    let area = if area.height > 1 {
        let [above, line] = Layout::vertical([Constraint::Min(1), Constraint::Length(1)]).areas(area);
        let text = format!(" {}", note.take().unwrap_or_default());
        let mut rows = lines::wrap_text(&clean_line(&text), area.width, app.theme.warn);
        rows.truncate(usize::from(above.height));
        frame.render_widget(Paragraph::new(rows), above);
        line
    } else {
        area
    };
    let position = (app.focus == Focus::View && app.mode() == Mode::Normal && app.layout.view_lines > 0).then(|| {
        let total = app.layout.view_lines;
        let height = usize::from(app.layout.view_height.max(1));
        // As drawn: a scroll past the end (`G` while the view was built)
        // shows the last page.
        let scroll = app.view.scroll.min(total.saturating_sub(height));
        let last = (scroll + height).min(total);
        let percent = if total <= height { 100 } else { last * 100 / total };
        let across = if app.view.h_scroll > 0 { format!(" col {}", app.view.h_scroll + 1) } else { String::new() };
        format!("line {}/{total} {percent}%{across}", scroll + 1)
    });
    // The hints' shortest form, kept on the narrowest line.
    let noted = note.is_some();
    let (right, shortest) = match (note, position) {
        // The position stays beside a lasting note (a config.yaml problem).
        (Some(note), Some(position)) => (format!("{position}  {note}"), None),
        (Some(note), None) => (note, None),
        (None, Some(position)) => {
            // Whole hints after the position, as many as fit.
            let room = usize::from(area.width) / 2;
            let mut text = position;
            for hint in ["/ search", "n/N", "←→ scroll code", "Esc back"] {
                if text.width() + 2 + hint.width() > room {
                    break;
                }
                text = format!("{text}  {hint}");
            }
            (text, None)
        }
        (None, None) if app.since_prompt.is_some() => {
            ("Enter mark changes  Esc cancel  Ctrl-w/u delete".to_owned(), Some("Enter mark changes  Esc cancel"))
        }
        (None, None) => (keymap::hints(app.mode()).to_owned(), Some(keymap::essential_hints(app.mode()))),
    };
    let right = clean_line(&right);
    let w = usize::from(area.width);
    // The right part keeps its shortest hints, or the view's position in
    // up to half the line: the left gives way first, its folder cut from
    // the start (the end names it). A note takes what the left leaves.
    let right_needs = match shortest {
        Some(short) => short.width().min(w / 2),
        None if noted => 0,
        None => right.width().min(w / 2),
    };
    let left_room = w.saturating_sub(right_needs + 1);
    let left = fit(&status_left(&place, facts, left_room), left_room.max(w.min(12)));
    let rest = w.saturating_sub(left.width() + 1);
    let right = match shortest {
        Some(short) if right.width() > rest => hints_within(&right, short, rest),
        _ => fit(&right, rest),
    };
    let line =
        Line::from(vec![Span::styled(left, app.theme.tab_active), Span::raw(" "), Span::styled(right, app.theme.dim)]);
    frame.render_widget(Paragraph::new(line), area);
}

/// The status line's left part within `room`: ` folder │ fact │ fact `.
/// Where it does not fit, the folder is cut from its start (its end names
/// it), to a dozen columns while facts that matter less are left out one
/// by one, to a few before those that outstay it (the counts, the marks'
/// revision), and left out last.
fn status_left(place: &str, mut facts: Vec<(String, u8)>, room: usize) -> String {
    // Facts kept this long outstay the folder.
    const OUTSTAY_THE_FOLDER: u8 = 5;
    let joined = |place: Option<&str>, facts: &[(String, u8)]| {
        let parts: Vec<&str> = place.into_iter().chain(facts.iter().map(|(fact, _)| fact.as_str())).collect();
        format!(" {} ", parts.join(" │ "))
    };
    loop {
        let place_room = room.saturating_sub(joined(Some(""), &facts).width());
        if place.width() <= place_room {
            return joined(Some(place), &facts);
        }
        let least = facts.iter().enumerate().min_by_key(|(_, (_, keep))| *keep).map(|(i, (_, keep))| (i, *keep));
        let Some((least, keep)) = least else {
            return joined(Some(&fit_start(place, place_room.max(12.min(place.width())))), &facts);
        };
        let place_at_least = if keep < OUTSTAY_THE_FOLDER { 12 } else { 6 };
        if place_room >= place_at_least.min(place.width()) {
            return joined(Some(&fit_start(place, place_room)), &facts);
        }
        if keep >= OUTSTAY_THE_FOLDER && joined(None, &facts).width() <= room {
            return joined(None, &facts);
        }
        facts.remove(least);
    }
}

/// The hints (`a b  c d  ...`, two spaces between) that fit in `width`
/// columns: the `essential` ones, after as many of the others, in their
/// order, as leave them room.
fn hints_within(all: &str, essential: &str, width: usize) -> String {
    let kept: Vec<&str> = essential.split("  ").collect();
    let mut shown: Vec<&str> = Vec::new();
    let mut used = essential.width();
    for hint in all.split("  ").filter(|h| !kept.contains(h)) {
        if used + hint.width() + 2 > width {
            break;
        }
        used += hint.width() + 2;
        shown.push(hint);
    }
    shown.extend(kept);
    fit(&shown.join("  "), width)
}

/// `text` in `width` columns, cut from the start (`…` and its end).
fn fit_start(text: &str, width: usize) -> String {
    if text.width() <= width {
        return text.to_owned();
    }
    let mut kept: Vec<char> = Vec::new();
    let mut used = 1;
    for c in text.chars().rev() {
        let cw = unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
        if used + cw > width {
            break;
        }
        used += cw;
        kept.push(c);
    }
    std::iter::once('…').chain(kept.into_iter().rev()).collect()
}

/// Columns of the help overlay where the screen is wider.
const HELP_WIDTH: u16 = 90;

/// Where the help overlay goes on a screen of `area`, if it fits.
fn help_rect(area: Rect) -> Option<Rect> {
    // Floating where the screen has room; else the whole width, leaving no
    // sliver of the panes beside it.
    let w = if area.width >= HELP_WIDTH + 4 { HELP_WIDTH } else { area.width };
    let h = area.height.saturating_sub(2);
    if w < 10 || h < 4 {
        return None;
    }
    Some(Rect { x: area.x + (area.width - w) / 2, y: area.y + 1, width: w, height: h })
}

/// The help's rows wrapped for its overlay on a screen of `area`, and how
/// many are shown at once.
pub fn help_rows(app: &App, area: Rect) -> Option<(Vec<Line<'static>>, usize)> {
    let rect = help_rect(area)?;
    let inner_w = usize::from(rect.width.saturating_sub(2));
    // A long meaning wraps under itself, beside the keys.
    let lines: Vec<Line> =
        super::help::lines(&app.prefs.keymap, app.help.filter.text(), &app.theme, &app.prefs.config_problems)
            .iter()
            .flat_map(|l| view_text::wrap_line(l, inner_w, 16))
            .collect();
    Some((lines, usize::from(rect.height.saturating_sub(3))))
}

fn draw_help(frame: &mut Frame, app: &App, area: Rect) {
    let (Some(rect), Some((lines, inner_h))) = (help_rect(area), help_rows(app, area)) else { return };
    let theme = app.theme;
    let inner_w = usize::from(rect.width.saturating_sub(2));
    let total = lines.len();
    let max_scroll = total.saturating_sub(inner_h);
    let scroll = app.help.scroll.min(max_scroll);
    let mut shown: Vec<Line> = lines.into_iter().skip(scroll).take(inner_h).map(|l| clip(l, inner_w)).collect();
    let prompt = if app.help.typing || !app.help.filter.is_empty() {
        Line::from(prompt_spans("/", &app.help.filter, app.help.typing, &theme))
    } else {
        Line::from(Span::styled("/ filter  j/k scroll  Esc close", theme.dim))
    };
    shown.push(prompt);
    frame.render_widget(Clear, rect);
    // The lines on screen, of all: a page down moves both by a page.
    let title = format!(" Help {}–{}/{total} ", (scroll + 1).min(total), (scroll + inner_h).min(total));
    let b = Block::default().borders(Borders::ALL).border_style(theme.border_focused).title(title);
    frame.render_widget(Paragraph::new(shown).block(b).style(Style::default()), rect);
}

fn draw_copy_menu(frame: &mut Frame, app: &App, area: Rect) {
    let Some(menu) = &app.copy_menu else { return };
    let theme = &app.theme;
    let w = area.width.saturating_sub(4).min(72);
    let h = (menu.items.len() as u16 + 2).min(area.height);
    if w < 20 || h < 3 {
        return;
    }
    let rect = Rect { x: area.x + (area.width - w) / 2, y: area.y + (area.height - h) / 2, width: w, height: h };
    let inner_w = usize::from(w.saturating_sub(2));
    // Each label padded to the longest, with a gap before what it copies.
    let label_w = menu.items.iter().map(|i| i.label.width()).max().unwrap_or(0) + 2;
    let lines: Vec<Line> = menu
        .items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let first = item.text.lines().next().unwrap_or_default();
            let style = if i == menu.cursor { theme.selected } else { theme.text };
            clip(
                Line::from(vec![
                    Span::styled(format!(" {} ", item.key), theme.accent),
                    Span::styled(format!("{:<label_w$}", item.label), style),
                    Span::styled(clean_line(first), theme.dim),
                ]),
                inner_w,
            )
        })
        .collect();
    frame.render_widget(Clear, rect);
    let b = Block::default().borders(Borders::ALL).border_style(theme.border_focused).title(" Copy (Esc closes) ");
    frame.render_widget(Paragraph::new(lines).block(b), rect);
}
