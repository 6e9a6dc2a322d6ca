//! The System prompt view: the skills index as the agent gets it, what
//! it costs whole, by category (a bar each) and by skill line, and the
//! same for the focus posture, one key apart.

use super::app::App;
use super::jobs::{IndexAnswer, JobOutput, PostureIndex};
use super::lines::{line, wrap_text};
use super::markdown::fit;
use crate::engine::words::{count_s, thousands};
use crate::sanitize::clean_line;
use ratatui::text::{Line, Span};

/// Skill lines listed by cost before the index itself.
const BIGGEST_LINES: usize = 15;

pub fn prompt(app: &App, width: u16) -> Vec<Line<'static>> {
    let theme = &app.theme;
    let answer = match &app.jobs.prompt {
        Some(JobOutput::Prompt(Ok(answer))) => answer,
        Some(JobOutput::Prompt(Err(e))) => {
            return vec![line(format!("Hermes fails to build the index: {e}"), theme.error)];
        }
        _ => return vec![line("building and measuring the index…", theme.dim)],
    };
    let focus = app.view.focus_posture;
    let shown = answer.shown(focus);
    if shown.text.is_empty() {
        return vec![line("Hermes adds no skills index: no skill survives the filters.", theme.dim)];
    }
    // The summary is prose: wrapped under its own indentation.
    let mut out = super::lines::wrap_prose(summary(answer, focus, app), width);
    out.push(Line::default());
    out.extend(categories(shown, app, width));
    out.push(Line::default());
    out.extend(biggest_lines(shown, app, width));
    out.push(Line::default());
    out.push(line("The index as the agent gets it:", theme.heading));
    out.push(Line::default());
    out.extend(wrap_text(&shown.text, width, theme.text));
    out
}

fn summary(answer: &IndexAnswer, focus: bool, app: &App) -> Vec<Line<'static>> {
    let theme = &app.theme;
    let shown = answer.shown(focus);
    let other = answer.shown(!focus);
    let size = shown.cost.index;
    let offered = shown.cost.skills.iter().filter(|s| s.offered).count();
    let posture = if focus {
        "the focus posture (non-coding categories names-only, as in a code workspace)"
    } else {
        "as config.yaml sets it for this directory"
    };
    let mut out = vec![
        line(format!("The skills index, {posture}"), theme.heading),
        line(
            format!(
                "  {} characters, {} tokens ({}), {} offered",
                thousands(size.chars),
                thousands(size.tokens),
                shown.cost.tokenizer.name(),
                count_s(offered as u64, "skill")
            ),
            theme.text,
        ),
    ];
    let delta = other.cost.index.tokens as i64 - size.tokens as i64;
    let other_name = if focus { "as configured" } else { "in the focus posture" };
    out.push(line(
        format!(
            "  {other_name}: {} tokens ({}{}); c switches",
            thousands(other.cost.index.tokens),
            if delta >= 0 { "+" } else { "−" },
            thousands(delta.unsigned_abs() as usize)
        ),
        theme.dim,
    ));
    // With layers, Hermes builds an index per skills folder: this one is the
    // home's own; the user's skills are in their folder's.
    if let Some(layers) = &app.layers {
        let user = match &answer.user {
            Some(index) => format!(
                "{}'s skills are in their own folder's index ({}, {} tokens; each one's Preview shows its line)",
                clean_line(&layers.user),
                count_s(index.cost.skills.iter().filter(|s| s.offered).count() as u64, "skill"),
                thousands(index.cost.index.tokens)
            ),
            None => format!("{}'s skills are in their own folder's index", clean_line(&layers.user)),
        };
        out.push(line(format!("  The index of the home's own skill dirs; {user}."), theme.dim));
    }
    out
}

/// A bar per category, longest for the most tokens.
fn categories(shown: &PostureIndex, app: &App, width: u16) -> Vec<Line<'static>> {
    let theme = &app.theme;
    let mut out = vec![line("By category (tokens)", theme.heading)];
    let cats = &shown.cost.categories;
    let most = cats.iter().map(|c| c.size.tokens).max().unwrap_or(0).max(1);
    let total = shown.cost.index.tokens.max(1);
    let name_width = cats.iter().map(|c| c.category.chars().count()).max().unwrap_or(8).clamp(8, 28);
    let bar_width = usize::from(width).saturating_sub(name_width + 34).clamp(4, 40);
    for c in cats {
        let filled = (c.size.tokens * bar_width).div_ceil(most).min(bar_width);
        let mut spans = vec![
            Span::styled(format!("  {:<name_width$} ", fit(&clean_line(&c.category), name_width)), theme.text),
            Span::styled("█".repeat(filled), if c.demoted { theme.dim } else { theme.accent }),
            Span::styled("░".repeat(bar_width - filled), theme.dim),
            Span::styled(
                format!(
                    " {:>7} {:>4.1}%  {}",
                    thousands(c.size.tokens),
                    c.size.tokens as f64 * 100.0 / total as f64,
                    count_s(c.skills as u64, "skill")
                ),
                theme.text,
            ),
        ];
        if c.demoted {
            spans.push(Span::styled("  names only", theme.dim));
        }
        out.push(Line::from(spans));
    }
    out
}

fn biggest_lines(shown: &PostureIndex, app: &App, width: u16) -> Vec<Line<'static>> {
    let theme = &app.theme;
    let mut out = vec![line("Biggest skill lines", theme.heading)];
    let name_width = usize::from(width).saturating_sub(30).clamp(10, 40);
    for s in shown.cost.skills.iter().filter(|s| s.offered).take(BIGGEST_LINES) {
        out.push(Line::from(vec![
            Span::styled(format!("  {:<name_width$} ", fit(&clean_line(&s.name), name_width)), theme.text),
            Span::styled(format!("{:>5} tokens  ", s.index.tokens), theme.text),
            Span::styled(clean_line(&s.category), theme.dim),
        ]));
    }
    out
}
