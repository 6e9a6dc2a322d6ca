//! `--since REV` in the browser: the tree marks each skill added, changed
//! or moved since a git revision (removed ones stay visible under their own
//! folder, dimmed), and `d` shows the selected skill's diff against it in
//! the Preview (its SKILL.md) and Agent (its `/name` message) views. The
//! comparison is `skillscope diff`'s, made again off the UI thread after
//! every rescan or edit.

use super::app::App;
use super::jobs::{JobKind, JobOutput};
use super::line_edit::LineEdit;
use super::lines::{line, wrap_text};
use super::state::SinceState;
use super::theme::Theme;
use crate::compare::SinceAnswer;
use crate::engine::diff::{ChangeKind, SkillChange};
use crate::sanitize::clean_line;
use ratatui::style::Style;
use ratatui::text::Line;
use std::path::Path;

/// The mark a change gets in the tree, as gitui's status does.
pub fn mark(change: ChangeKind, theme: &Theme) -> (&'static str, Style) {
    let style = match change {
        ChangeKind::Added => theme.ok,
        ChangeKind::Removed => theme.error,
        ChangeKind::Moved | ChangeKind::Renamed => theme.accent,
        ChangeKind::Modified => theme.warn,
    };
    (change.mark(), style)
}

impl App {
    /// The comparison shown, when `--since` is on and one has arrived.
    pub fn since_answer(&self) -> Option<&SinceAnswer> {
        match &self.since {
            Some(SinceState { on: true, answer: Some(Ok(answer)), .. }) => Some(answer),
            _ => None,
        }
    }

    /// How the skill whose SKILL.md is `path` changed since the revision.
    pub fn since_change(&self, path: &Path) -> Option<&SkillChange> {
        self.since_answer()?.change_of(path)
    }

    /// The comparison's job, when the one shown is for an older catalog.
    pub(super) fn since_kind(&self) -> Option<JobKind> {
        let since = self.since.as_ref().filter(|s| s.on && s.asked_for != self.generation)?;
        let folder = self.folder.clone().unwrap_or_else(|| self.engine.home.root.clone());
        Some(JobKind::Since { rev: since.rev.clone(), folder, generation: self.generation })
    }

    pub(super) fn since_asked(&mut self, generation: u64) {
        if let Some(since) = &mut self.since {
            since.asked_for = generation;
        }
    }

    /// Stores a comparison; the tree shows its removed skills.
    pub(super) fn since_arrived(&mut self, output: JobOutput) {
        let JobOutput::Since(answer) = output else { return };
        if let Err(e) = &answer {
            self.notice = Some(format!("--since: {}", clean_line(e)));
        }
        if let Some(since) = &mut self.since {
            since.answer = Some(answer);
        }
        self.reshape_tree();
    }

    /// `D`: turns the marks off; when they are off, asks for the revision
    /// to mark changes since (the last one given, else HEAD).
    pub(super) fn toggle_since(&mut self) {
        if let Some(since) = self.since.as_mut().filter(|s| s.on) {
            since.on = false;
            self.notice = Some("change marks off".to_owned());
            self.reshape_tree();
            return;
        }
        let mut revision = LineEdit::default();
        revision.set(self.since.as_ref().map_or("HEAD", |s| s.rev.as_str()));
        self.since_prompt = Some(revision);
    }

    /// Enter in `D`'s prompt: changes are marked since the revision typed
    /// (the comparison is made again when it is another one).
    pub(super) fn apply_since_prompt(&mut self) {
        let Some(revision) = self.since_prompt.take() else { return };
        let rev = revision.text().trim();
        if rev.is_empty() {
            self.notice = Some("no revision given: change marks stay off".to_owned());
            return;
        }
        match &mut self.since {
            Some(since) if since.rev == rev => since.on = true,
            _ => self.since = Some(SinceState::new(rev.to_owned())),
        }
        self.notice = Some(format!("marking changes since {}", clean_line(rev)));
        self.reshape_tree();
    }

    /// Esc in `D`'s prompt: the marks stay off.
    pub(super) fn cancel_since_prompt(&mut self) {
        self.since_prompt = None;
        self.notice = Some("change marks stay off".to_owned());
    }

    /// The tree again (marks and removed skills), the selection kept.
    fn reshape_tree(&mut self) {
        let key = self.selected_key();
        self.rebuild_tree();
        self.refresh_rows();
        self.restore_selection(key.as_ref());
        self.render.clear();
    }

    /// `d`: the Preview and Agent views show the diff against the revision.
    pub(super) fn toggle_since_diff(&mut self) {
        if !self.since.as_ref().is_some_and(|s| s.on) {
            self.notice = Some("no revision to compare with: press D (HEAD) or start with --since REV".into());
            return;
        }
        if let Some(Some(Err(e))) = self.since.as_ref().map(|s| &s.answer) {
            let rev = self.since.as_ref().map_or("", |s| s.rev.as_str());
            self.notice = Some(format!("no diff: cannot compare with {}: {}", clean_line(rev), clean_line(e)));
            return;
        }
        // On a folder (or a removed skill, whose diff is always shown) it
        // would turn on or off with nothing on screen to say so.
        if self.selected_skill().is_none() {
            self.notice = Some(match self.selected_removed().is_some() {
                true => "a removed skill's diff is always shown".into(),
                false => "d shows a skill's diff against the revision: select a skill".into(),
            });
            return;
        }
        // Elsewhere it shows the Preview's diff, as R and c show their view.
        if matches!(self.view.tab, super::tab::ViewTab::Preview | super::tab::ViewTab::Agent) {
            self.view.since_diff = !self.view.since_diff;
        } else {
            self.show(super::tab::ViewTab::Preview);
            self.view.since_diff = true;
        }
        self.render.clear();
    }

    /// The tree's removed skills: name and folder.
    pub(super) fn since_removed(&self) -> Option<(String, Vec<(String, String)>)> {
        let answer = self.since_answer()?;
        let removed = answer.removed.iter().map(|(name, folder, _)| (name.clone(), folder.clone())).collect();
        Some((format!("removed since {}", clean_line(&answer.rev)), removed))
    }
}

/// What the diff views show for the skill whose SKILL.md is `path`: its
/// SKILL.md (`message` false) or its `/name` message against the revision.
/// What changed and why a side has no message wrap at `width`; the diff's
/// lines stay whole (scrolled sideways).
pub fn diff_lines(
    app: &App,
    path: Option<&Path>,
    removed: Option<&str>,
    message: bool,
    width: u16,
) -> Vec<Line<'static>> {
    let theme = &app.theme;
    let Some(since) = &app.since else { return Vec::new() };
    let answer = match &since.answer {
        Some(Ok(answer)) => answer,
        Some(Err(e)) => {
            return vec![line(
                format!("Cannot compare with {}: {}", clean_line(&since.rev), clean_line(e)),
                theme.error,
            )]
        }
        None => return vec![line(format!("Comparing with {}…", clean_line(&since.rev)), theme.dim)],
    };
    let rev = clean_line(&answer.rev);
    if let Some(folder) = removed {
        let diff = answer.removed.iter().find(|(_, f, _)| f == folder).map_or("", |(_, _, d)| d.as_str());
        let mut out = wrap_text(&format!("Removed since {rev}: the agent no longer gets it."), width, theme.warn);
        // What it was to the agent, as `skillscope diff` says it.
        let change = answer.report.skills.iter().find(|s| s.files.1.is_none() && s.folder == folder);
        for f in change.iter().flat_map(|c| &c.fields) {
            out.extend(wrap_text(&format!("  {}", crate::compare::change_line(f)), width, theme.text));
        }
        out.extend(change.map(|change| answer_lines(change, width, theme)).unwrap_or_default());
        out.push(Line::default());
        match message {
            true => {
                let command = change
                    .and_then(|c| c.fields.iter().find(|f| f.field == "command"))
                    .and_then(|f| f.before.as_str().map(str::to_owned));
                let said = match command {
                    Some(command) => format!("Its {} message goes with it", clean_line(&command)),
                    None => "It had no slash command".to_owned(),
                };
                out.extend(wrap_text(&format!("{said}; view 1 shows the SKILL.md it had."), width, theme.dim));
            }
            false => out.extend(unified_lines(diff, theme)),
        }
        return out;
    }
    let Some(path) = path else { return Vec::new() };
    let Some(change) = answer.change_of(path) else {
        // The file may have changed where nothing the agent gets did.
        let file_diff = answer.skill_md_diff.get(path).filter(|d| !message && !d.is_empty());
        let Some(diff) = file_diff else {
            return vec![line(format!("Unchanged since {rev}."), theme.dim)];
        };
        let said = format!("Nothing the agent gets changed since {rev}; its SKILL.md did:");
        let mut out = wrap_text(&said, width, theme.heading);
        out.push(Line::default());
        out.extend(unified_lines(diff, theme));
        return out;
    };
    let mut out = vec![line(format!("{} since {rev}", change.change.name()), theme.heading)];
    for f in &change.fields {
        out.extend(wrap_text(&format!("  {}", crate::compare::change_line(f)), width, theme.text));
    }
    out.extend(answer_lines(change, width, theme));
    out.push(Line::default());
    if message {
        match change.message_diff() {
            Some(diff) => {
                out.extend(change.message_absences().iter().flat_map(|why| wrap_text(why, width, theme.warn)));
                // Named as the Preview's SKILL.md diff names its sides.
                let named =
                    diff.replacen("--- before\n", &format!("--- {rev}\n"), 1).replacen("+++ after\n", "+++ now\n", 1);
                out.extend(unified_lines(&named, theme));
            }
            None => out.push(line(format!("The /name message is the same as at {rev}."), theme.dim)),
        }
        return out;
    }
    match answer.skill_md_diff.get(path).filter(|d| !d.is_empty()) {
        Some(diff) => out.extend(unified_lines(diff, theme)),
        None => out.push(line(format!("SKILL.md is the same as at {rev}."), theme.dim)),
    }
    out
}

/// Why a skill is not offered (where that changed) and the guard's
/// decisions that changed, wrapped at `width`.
fn answer_lines(change: &SkillChange, width: u16, theme: &Theme) -> Vec<Line<'static>> {
    let why = crate::compare::why_line(change).map(|why| format!("  {why}"));
    let decisions = change.decisions.iter().map(|d| format!("  {}", crate::compare::change_line(d)));
    why.into_iter().chain(decisions).flat_map(|text| wrap_text(&text, width, theme.text)).collect()
}

fn unified_lines(diff: &str, theme: &Theme) -> Vec<Line<'static>> {
    diff.lines()
        .map(|l| {
            let style = match l.as_bytes().first() {
                Some(b'+') if !l.starts_with("+++") => theme.ok,
                Some(b'-') if !l.starts_with("---") => theme.error,
                Some(b'@') => theme.accent,
                _ => theme.text,
            };
            line(clean_line(l), style)
        })
        .collect()
}
