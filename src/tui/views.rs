//! The views formatted from what the app holds (the jobs' answers, the
//! catalog, the findings): Agent, Bundles, Prompt, Diagnostics, Lifecycle
//! and the folder summaries. Views that read files are built off the UI
//! thread ([`super::view_jobs`]); the app caches both ([`super::render`]).

use super::app::App;
use super::jobs::{JobKind, JobOutput, LifecycleAnswer};
use super::lines::{bold, kv, line, marker, severity_mark, when, wrap_fenced, wrap_prose, wrap_text, ARCHIVED_MARK};
use super::markdown::fit;
use super::theme::Theme;
use super::view_jobs::{IndexShare, SkillSnapshot, WhyBasis};
use crate::engine::catalog::{CatalogSkill, Source};
use crate::engine::diagnostics::Severity;
use crate::engine::messages::{MemberStatus, MissingMember};
use crate::engine::paths;
use crate::engine::words::count_s;
use crate::sanitize::clean_line;
use ratatui::text::{Line, Span};
use unicode_width::UnicodeWidthStr;

/// What the views that read files need of skill `i`, taken from the app.
pub fn snapshot(app: &App, i: usize) -> SkillSnapshot {
    let skill = app.skill(i);
    let md = |o: usize| app.skill(o).skill_md.clone();
    SkillSnapshot {
        skill: skill.clone(),
        lean: app.catalog.lean,
        source: app.source_of(skill),
        shadows: skill.status.shadows.iter().map(|&o| app.source_label(app.skill(o))).collect(),
        shadows_md: skill.status.shadows.iter().map(|&o| md(o)).collect(),
        shadowed_by_md: skill.status.shadowed_by.map(md),
        ambiguous_md: skill.status.ambiguous_with.iter().map(|&o| md(o)).collect(),
        index: match app.index_of_skill(skill) {
            None => IndexShare::Measuring,
            Some(shown) => match shown.skill(&skill.skill_md).filter(|s| s.offered) {
                Some(cost) => IndexShare::Offered {
                    line: cost.line.clone().unwrap_or_default(),
                    tokens: cost.index.tokens,
                    chars: cost.index.chars,
                },
                None => IndexShare::NotOffered,
            },
        },
        why: app.index_of_skill(skill).map(|shown| WhyBasis {
            catalog: app.catalog.clone(),
            index: shown.index.clone(),
            confusable: shown.confusable.clone(),
            skill: i,
            user: match (app.source_of(skill), &app.layers) {
                (Some(Source::User), Some(l)) => Some(l.user.clone()),
                _ => None,
            },
        }),
    }
}

/// What could not be read (config, folders, bundles, the database).
fn problem_lines(app: &App, width: u16) -> Vec<Line<'static>> {
    let theme = &app.theme;
    if app.catalog.problems.is_empty() {
        return Vec::new();
    }
    let mut out = vec![line("Problems reading the home", theme.heading)];
    for p in &app.catalog.problems {
        out.extend(wrap_text(&clean_line(&format!("• {p}")), width, theme.warn));
    }
    out.push(Line::default());
    out
}

/// A folder the walk could not list: what the system said, and what Hermes
/// makes of it.
pub fn unreadable_folder(app: &App, index: usize, width: u16) -> Vec<Line<'static>> {
    let theme = &app.theme;
    let Some(folder) = app.catalog.unreadable.get(index) else { return Vec::new() };
    let mut out = vec![line(paths::path_string(&folder.path), theme.heading), Line::default()];
    if folder.cut {
        let text = format!("This symlinked folder was walked in part: {}.", folder.error);
        out.extend(wrap_text(&text, width, theme.error));
        out.push(Line::default());
        let text = "Hermes follows symlinks with no bound: a link to / or /sys has its walk go through the \
                    whole machine, by ever more paths. skillscope stops entering symlinked folders there, so \
                    skills below this one may be missing. Point the link at the skills alone, or name the \
                    folder in skills.external_dirs.";
        out.extend(wrap_text(text, width, theme.text));
        return out;
    }
    out.extend(wrap_text(&format!("This folder cannot be read: {}.", folder.error), width, theme.error));
    out.push(Line::default());
    let text = "Hermes' walk passes over a folder it cannot list without a word: no skill inside it is \
                offered to the agent, and nothing says so. Make it readable (chmod a+rx) or move it out \
                of the skill dirs. `skillscope check` reports it as hermes-unreadable-folder.";
    out.extend(wrap_text(text, width, theme.text));
    out
}

pub fn folder_summary(app: &App, width: u16) -> Vec<Line<'static>> {
    let theme = &app.theme;
    let Some(row) = app.selected_row() else {
        let query = app.search.query().trim();
        let text = if app.search.matches.is_some() {
            format!("No skill matches {query:?}: its letters are in no name, category or tag, nor its words in a description. Esc clears the search.")
        } else {
            "No skills in this home.".to_owned()
        };
        let mut out = wrap_text(&text, width, theme.dim);
        out.extend(problem_lines(app, width));
        return out;
    };
    let tree = app.tree();
    let node = &tree.nodes[row.node];
    let mut out = problem_lines(app, width);
    out.extend([line(node.label.clone(), theme.heading), Line::default()]);
    let mut stack = vec![row.node];
    let mut skills = Vec::new();
    while let Some(n) = stack.pop() {
        match tree.nodes[n].skill {
            Some(s) => skills.push(s),
            None => stack.extend(tree.nodes[n].children.iter().copied()),
        }
    }
    skills.sort_by(|a, b| app.skill(*a).name.cmp(&app.skill(*b).name));
    let hidden = skills.iter().filter(|s| !app.skill(**s).status.listed).count();
    out.push(line(format!("{}, {hidden} not in skills_list", count_s(skills.len() as u64, "skill")), theme.dim));
    out.push(Line::default());
    let w = usize::from(width);
    for s in skills {
        let k = app.skill(s);
        let (mark, style) = marker(k, theme);
        let text = match k.description.is_empty() {
            true => format!("{mark} {}", k.name),
            false => format!("{mark} {} — {}", k.name, k.description),
        };
        out.push(Line::from(vec![Span::styled(fit(&clean_line(&text), w), style)]));
    }
    out
}

/// View 8: where the skill came from, its usage, what the curator's next
/// pass does to it, and whether a hub install at each trust level takes it;
/// none while its job computes.
pub fn lifecycle(app: &App, skill: &CatalogSkill, width: u16) -> Option<Vec<Line<'static>>> {
    let theme = &app.theme;
    if skill.db_row.is_some() {
        let text = "A database skill: Hermes keeps no usage record, provenance or archive for it.";
        return Some(vec![line(text, theme.dim)]);
    }
    let answer = match &app.jobs.lifecycle {
        Some((JobKind::Lifecycle { skill_md, .. }, JobOutput::Lifecycle(answer))) if *skill_md == skill.skill_md => {
            answer
        }
        _ => return None,
    };
    let LifecycleAnswer { life, curator, problems, scan: scanned, guard_agent_created } = &**answer;
    let now = (app.clock)();
    let mut out = vec![line("Where it came from", theme.heading)];
    // Hermes calls all that is neither bundled nor from a hub `agent`: said,
    // so that our finer reading below does not seem to contradict it.
    let provenance = match life.provenance {
        "agent" => "agent (Hermes' provenance(): neither bundled nor from a hub)".to_owned(),
        other => format!("{other} (Hermes' provenance())"),
    };
    out.push(kv("provenance", provenance, theme));
    out.push(kv("our reading", life.origin(), theme));
    if life.external {
        out.push(kv("external", "in skills.external_dirs: read-only to the curator", theme));
    }
    if life.protected {
        out.push(kv("protected", "a load-bearing built-in the curator never touches", theme));
    }
    out.push(Line::default());
    out.push(line("Usage", theme.heading));
    if !life.recorded {
        out.push(line("No usage record in skills/.usage.json.", theme.dim));
    }
    out.push(kv("used", life.use_count.to_string(), theme));
    out.push(kv("viewed", life.view_count.to_string(), theme));
    out.push(kv("patched", life.patch_count.to_string(), theme));
    let activity = life.last_activity.as_deref().map_or_else(|| "never".to_owned(), |t| when(now, t));
    out.push(kv("last activity", activity, theme));
    out.push(Line::default());
    out.push(line("Curator", theme.heading));
    out.push(kv("state", format!("{}{}", clean_line(&life.state), if life.pinned { ", pinned" } else { "" }), theme));
    let managed = match (life.eligible, life.curation_eligible) {
        (true, _) => "yes: its automatic pass walks this skill",
        (false, true) => "no, though eligible: a usage record with created_by: agent would bring it in",
        (false, false) => "no, and not eligible",
    };
    out.push(kv("managed", managed, theme));
    let due = life.due.as_deref().map(|d| when(now, d));
    let (style, next) = match (life.next, due) {
        ("none", Some(due)) => (theme.text, format!("nothing now; the next change is due {due}")),
        ("none", None) => (theme.text, "nothing".to_owned()),
        (next, Some(due)) => (theme.warn, format!("{next}, due {due}")),
        (next, None) => (theme.warn, next.to_owned()),
    };
    out.push(Line::from(vec![Span::styled(format!("{:<14}", "next pass"), theme.dim), Span::styled(next, style)]));
    out.extend(wrap_text(&format!("  {}", clean_line(&life.why)), width, theme.dim));
    let schedule = if curator.due { "due now".to_owned() } else { curator.why.clone() };
    out.push(kv("schedule", clean_line(&schedule), theme));
    out.push(Line::default());
    out.push(line("A hub install (Hermes' skills guard)", theme.heading));
    match &scanned.error {
        Some(e) => out.push(kv("scan", format!("fails: {}", clean_line(e)), theme)),
        None => out.push(kv("verdict", clean_line(&format!("{} ({})", scanned.verdict, scanned.summary())), theme)),
    }
    for level in crate::engine::scan::TRUST_LEVELS {
        let mut at = scanned.clone();
        at.trust_level = level;
        let decision = at.decision(false);
        let (style, word) = match decision.allowed {
            Some(true) => (theme.ok, "allowed"),
            None => (theme.warn, "asks"),
            Some(false) => (theme.error, "blocked"),
        };
        out.push(Line::from(vec![
            Span::styled(format!("{level:<14}"), theme.dim),
            Span::styled(word, style),
            Span::styled(format!("  {}", clean_line(&decision.reason)), theme.dim),
        ]));
    }
    let edits = if *guard_agent_created {
        "The agent's own edits (skill_manage) are scanned as agent-created: skills.guard_agent_created is on."
    } else {
        "The agent's own edits (skill_manage) are not scanned: skills.guard_agent_created is off."
    };
    out.extend(wrap_text(edits, width, theme.dim));
    for p in problems {
        out.extend(wrap_text(&clean_line(&format!("• {p}")), width, theme.warn));
    }
    Some(out)
}

/// The archive root: every archived skill, when it was archived, and how it
/// comes back.
pub fn archive_summary(app: &App, width: u16) -> Vec<Line<'static>> {
    let theme = &app.theme;
    let now = (app.clock)();
    let mut out = vec![line("skills/.archive/", theme.heading), Line::default()];
    let count = count_s(app.usage.archived.len() as u64, "skill");
    let text = format!("{count} in the archive: the agent receives none. Each comes back with its restore command.");
    out.extend(wrap_text(&text, width, theme.dim));
    out.push(Line::default());
    for a in &app.usage.archived {
        let at = a.archived_at.as_deref().map_or_else(|| "date not recorded".to_owned(), |t| when(now, t));
        let restore = match &a.restore_refused {
            None => a.restore.clone(),
            Some(why) => format!("restore refused: {why}"),
        };
        let text = format!("{} {} — archived {at}; {restore}", ARCHIVED_MARK, a.name);
        out.extend(wrap_text(&clean_line(&text), width, theme.dim));
    }
    out
}

/// What a view shows while the job that answers it computes: not kept, so
/// the answer takes its place (and a `G` pressed meanwhile lands at its end).
pub fn computing(theme: &Theme) -> Vec<Line<'static>> {
    vec![line("computing…", theme.dim)]
}

/// What the agent receives for the skill; none while its job computes.
pub fn agent(app: &App, skill: &CatalogSkill, width: u16) -> Option<Vec<Line<'static>>> {
    let theme = &app.theme;
    // An answer for the skill selected before is not this one's.
    let (message, prompt_lines) = match &app.jobs.agent {
        Some((JobKind::Agent { skill_md, .. }, JobOutput::Agent { message, prompt_lines }))
            if *skill_md == skill.skill_md =>
        {
            (message, prompt_lines)
        }
        _ => return None,
    };
    let backend = app.engine.options.backend;
    let mut out = Vec::new();
    match &skill.status.command {
        Some(cmd) => {
            // The backend first: `b` changes it, and a narrow view cuts the end.
            out.push(line(format!("On {backend}, what the agent receives for {cmd}:"), theme.heading));
            out.push(Line::default());
            match message {
                Some(m) => out.extend(wrap_fenced(m, width, theme.text)),
                None => {
                    out.push(line("Hermes builds no message: the skill does not load (see Readiness).", theme.error))
                }
            }
        }
        None => {
            let why = if !skill.status.platform_ok {
                format!("its platforms leave out {}", app.engine.env.os.name())
            } else if !skill.status.environment_ok {
                "its environment gate hides it".to_owned()
            } else if skill.status.disabled {
                "config.yaml disables it".to_owned()
            } else {
                "its command's slug is empty, a core command or another skill's".to_owned()
            };
            let text = format!("This skill registers no slash command: {why} (the Readiness view traces it).");
            out.extend(wrap_text(&text, width, theme.warn));
        }
    }
    out.push(Line::default());
    out.push(line("Its line in the system-prompt skills index:", theme.heading));
    if prompt_lines.is_empty() {
        out.push(line("  (not in the index)", theme.dim));
    }
    for l in prompt_lines {
        out.extend(wrap_text(l, width, theme.text));
    }
    Some(out)
}

/// Every bundle and what it loads; none while its job computes.
pub fn bundles(app: &App, width: u16) -> Option<Vec<Line<'static>>> {
    let theme = &app.theme;
    let Some(JobOutput::Bundles(reports)) = &app.jobs.bundles else {
        return None;
    };
    if reports.is_empty() {
        return Some(vec![line("No bundles in skill-bundles/.", theme.dim)]);
    }
    let selected = app.selected_skill().map(|i| app.skill(i).name.clone());
    let mut out = Vec::new();
    let containing: Vec<&str> = reports
        .iter()
        .filter(|r| {
            r.members.iter().any(|(id, st)| {
                Some(id) == selected.as_ref() || matches!(st, MemberStatus::Loaded(n) if Some(n) == selected.as_ref())
            })
        })
        .map(|r| r.key.as_str())
        .collect();
    if let Some(name) = &selected {
        let text = if containing.is_empty() {
            format!("{name} is in no bundle.")
        } else {
            format!("{name} is in {}.", containing.join(", "))
        };
        out.push(line(text, theme.accent));
        out.push(Line::default());
    }
    for r in reports {
        out.push(Line::from(vec![
            Span::styled(clean_line(&r.key), theme.heading),
            Span::styled(format!("  {} — {}", clean_line(&r.name), clean_line(&r.description)), theme.dim),
        ]));
        for (id, status) in &r.members {
            let (text, style) = match status {
                MemberStatus::Loaded(n) if n == id => ("loaded".to_owned(), theme.ok),
                MemberStatus::Loaded(n) => (format!("loaded as {n}"), theme.ok),
                MemberStatus::Missing(MissingMember::Disabled) => {
                    ("disabled (skipped): skill_view refuses it".to_owned(), theme.warn)
                }
                MemberStatus::Missing(why) => (format!("missing (skipped): {}", why.reason()), theme.error),
                MemberStatus::Disabled(_) => ("disabled (skipped)".to_owned(), theme.warn),
            };
            let mark = if Some(id) == selected.as_ref() { "▶" } else { " " };
            let lead = format!(" {mark} {:<25} ", clean_line(id));
            // The reason wraps under itself, beside the names.
            let room = width.saturating_sub(lead.width() as u16);
            for (i, part) in wrap_text(&text, room, style).into_iter().enumerate() {
                let lead = if i == 0 { lead.clone() } else { " ".repeat(lead.width()) };
                let mut spans = vec![Span::styled(lead, theme.text)];
                spans.extend(part.spans);
                out.push(Line::from(spans));
            }
        }
        out.push(Line::default());
    }
    if let Some(first) = reports.iter().find(|r| containing.contains(&r.key.as_str())).or(reports.first()) {
        out.push(line(format!("Message for {}:", first.key), theme.heading));
        match &first.message {
            Some(m) => out.extend(wrap_fenced(m, width, theme.text)),
            None => out.push(line("Hermes builds none: no member loads.", theme.error)),
        }
    }
    Some(out)
}

/// The severities `f` shows, from the lowest: `warning and above`.
fn severities_from(min: Severity) -> &'static str {
    match min {
        Severity::Info => "every severity",
        Severity::Warning => "warning and above",
        Severity::Error => "errors only",
    }
}

pub fn diagnostics(app: &App, width: u16) -> Vec<Line<'static>> {
    let theme = &app.theme;
    let Some(d) = &app.jobs.diagnostics else {
        let (done, total) = app.jobs.diagnostics_progress.as_ref().map_or((0, 0), |p| (p.done(), p.total()));
        let mut out = vec![line("Checking the home…", theme.heading), Line::default()];
        let bar_width = usize::from(width).saturating_sub(2).clamp(10, 50);
        if let Some(filled) = (done.min(total) * bar_width).checked_div(total) {
            out.push(Line::from(vec![
                Span::styled("█".repeat(filled), theme.accent),
                Span::styled("░".repeat(bar_width - filled), theme.dim),
            ]));
            out.push(line(format!("{done} of {} checked", count_s(total as u64, "skill")), theme.dim));
        }
        return out;
    };
    let findings = app.visible_findings();
    let scope = if app.view.diag.all {
        "all findings in the home".to_owned()
    } else {
        match app.selected_skill() {
            Some(i) => format!("findings for {}", app.skill(i).name),
            None => "select a skill, or press a for all findings".to_owned(),
        }
    };
    let count = |s: Severity| d.all.iter().filter(|f| f.severity == s).count();
    let settings = match &app.prefs.check_settings {
        Ok(Some(path)) => line(format!("settings: {}", paths::path_string(path)), theme.dim),
        Ok(None) => line("settings: none found (skillscope.toml), defaults", theme.dim),
        Err(e) => line(format!("settings not used, defaults instead: {e}"), theme.error),
    };
    let out = vec![
        settings,
        line(format!("{scope}: {} shown ({})", findings.len(), severities_from(app.view.diag.min)), theme.heading),
        line(
            format!(
                "home: {}, {}, {} info",
                count_s(count(Severity::Error) as u64, "error"),
                count_s(count(Severity::Warning) as u64, "warning"),
                count(Severity::Info)
            ),
            theme.dim,
        ),
        line("a: this skill / all   f: severity   e: open at the line", theme.dim),
        Line::default(),
    ];
    let mut out = wrap_prose(out, width);
    if findings.is_empty() {
        out.push(line("Nothing to report.", theme.ok));
    }
    for (i, f) in findings.iter().enumerate() {
        let (mark, style) = severity_mark(f.severity, theme);
        let selected = i == app.view.diag.cursor;
        let at = match f.line {
            Some(l) => format!("{}:{l}", f.rel_path),
            None => f.rel_path.to_string(),
        };
        out.push(Line::from(vec![
            Span::styled(if selected { "▶ " } else { "  " }, theme.accent),
            Span::styled(format!("{mark} "), style),
            Span::styled(format!("{} ", f.code()), theme.dim),
            Span::styled(clean_line(&f.rule), if selected { theme.selected } else { bold(theme.text) }),
            Span::styled(format!("  {}", clean_line(&at)), theme.dim),
        ]));
        for l in wrap_text(&f.message, width.saturating_sub(4), theme.text) {
            let mut spans = vec![Span::raw("    ")];
            spans.extend(l.spans);
            out.push(Line::from(spans));
        }
        if selected {
            for l in wrap_text(&format!("hint: {}", f.hint), width.saturating_sub(4), theme.ok) {
                let mut spans = vec![Span::raw("    ")];
                spans.extend(l.spans);
                out.push(Line::from(spans));
            }
        }
    }
    out
}
