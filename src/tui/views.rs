//! The content of each view as lines for a given width. Views that read
//! files (Preview, raw, Files and its file previews, Readiness, an archived
//! skill) are built by a job from a [`ViewRequest`] taken from the app, off
//! the UI thread ([`run`]); the others are formatted from what the app holds
//! (the jobs' answers). The app caches both ([`super::render`]).

use super::app::App;
use super::jobs::{JobKind, JobOutput, LifecycleAnswer};
use super::render::ViewKey;
use super::theme::Theme;
use crate::engine::catalog::CatalogSkill;
use crate::engine::context::Context;
use crate::engine::diagnostics::Severity;
use crate::engine::frontmatter;
use crate::engine::isotime;
use crate::engine::layers::{Source, TABLE};
use crate::engine::lifecycle::Archived;
use crate::engine::messages;
use crate::engine::messages::{MemberStatus, MissingMember};
use crate::engine::paths;
use crate::engine::readiness;
use crate::engine::source;
use crate::engine::symlink::{self, Link, LinkEnd};
use crate::engine::value::Value;
use crate::engine::view::linked_files_in;
use crate::engine::view::SkillRef;
use crate::engine::words::count_s;
use crate::engine::Engine;
use crate::markdown::{self, fit, highlight::Highlighter};
use crate::sanitize::clean_line;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use std::path::PathBuf;
use std::sync::Arc;
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// Files bigger than this are named, not shown.
const MAX_PREVIEW_BYTES: u64 = 512 * 1024;

fn line(text: impl Into<String>, style: Style) -> Line<'static> {
    Line::from(Span::styled(clean_line(&text.into()), style))
}

fn kv(key: &str, value: impl Into<String>, theme: &Theme) -> Line<'static> {
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
            for c in word.chars() {
                if row.width() + c.width().unwrap_or(0) > width {
                    out.push(Line::from(Span::styled(std::mem::replace(&mut row, indent.clone()), style)));
                }
                row.push(c);
            }
            row_has_word = true;
        }
        out.push(Line::from(Span::styled(row, style)));
    }
    out
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

/// What a view that reads files needs of the app, taken on the UI thread
/// when the view is asked for (the job never sees the app).
#[derive(Debug, Clone)]
pub enum ViewRequest {
    /// SKILL.md as `skill_view` returns it, under its header card; or the
    /// raw file, numbered.
    Preview {
        skill: Box<SkillSnapshot>,
        raw: bool,
    },
    Readiness {
        skill: Box<SkillSnapshot>,
    },
    /// The skill folder's files (walked once per selection), and the preview
    /// of the one at `select` (a relative path), else the first.
    Files {
        skill: Box<SkillSnapshot>,
        select: Option<String>,
    },
    /// One file's preview, once the folder's files are known.
    File {
        dir: PathBuf,
        entry: FileEntry,
    },
    Archived {
        archived: Box<Archived>,
        now: isotime::Micros,
    },
}

/// A request with what it is for: the key its lines are kept under, and
/// the theme and width they are built for.
#[derive(Debug, Clone)]
pub struct ViewJob {
    pub key: ViewKey,
    pub request: ViewRequest,
    pub theme: Theme,
    pub width: u16,
}

impl PartialEq for ViewJob {
    /// Requests are the same when their lines would show the same.
    fn eq(&self, other: &ViewJob) -> bool {
        self.key == other.key
    }
}

/// A view job's answer.
#[derive(Debug, Clone, PartialEq)]
pub struct ViewAnswer {
    pub lines: Vec<Line<'static>>,
    /// For [`ViewRequest::Files`]: the folder's files and which one the
    /// lines preview.
    pub files: Option<(Arc<Vec<FileEntry>>, usize)>,
}

/// One skill as its views need it, with what they say of the skills it
/// shadows or is confused with.
#[derive(Debug, Clone)]
pub struct SkillSnapshot {
    pub skill: CatalogSkill,
    /// The catalog holds no frontmatter: read it again ([`Engine::frontmatter_of`]).
    pub lean: bool,
    pub source: Option<Source>,
    /// Where each skill it shadows lives, for a person.
    pub shadows: Vec<String>,
    pub shadows_md: Vec<PathBuf>,
    pub shadowed_by_md: Option<PathBuf>,
    pub ambiguous_md: Vec<PathBuf>,
}

impl SkillSnapshot {
    pub fn of(app: &App, i: usize) -> SkillSnapshot {
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
        }
    }

    fn frontmatter(&self, engine: &Engine) -> crate::engine::value::Map {
        let lean = crate::engine::catalog::Catalog { lean: self.lean, ..Default::default() };
        engine.frontmatter_of(&lean, &self.skill).into_owned()
    }
}

/// Builds a view's lines (on a job's thread: this reads files, and a
/// preview may run inline shell when the user allowed it).
pub fn run(engine: &Engine, job: &ViewJob) -> ViewAnswer {
    let (theme, width) = (&job.theme, job.width);
    let lines = |lines| ViewAnswer { lines, files: None };
    match &job.request {
        ViewRequest::Preview { skill, raw } => lines(preview(engine, skill, *raw, theme, width)),
        ViewRequest::Readiness { skill } => lines(wrap_prose(readiness(engine, skill, theme), width)),
        ViewRequest::Archived { archived: a, now } => lines(archived(a, *now, theme, width)),
        ViewRequest::File { dir, entry } => lines(file_section(dir, entry, width, theme)),
        ViewRequest::Files { skill, select } => {
            let entries = file_entries(&skill.skill);
            let at = select.as_ref().and_then(|rel| entries.iter().position(|e| e.rel == *rel)).unwrap_or(0);
            let preview = match entries.get(at) {
                Some(entry) => file_section(&skill.skill.skill_dir, entry, width, theme),
                None => Vec::new(),
            };
            ViewAnswer { lines: preview, files: Some((Arc::new(entries), at)) }
        }
    }
}

/// The line a view shows while its lines are built.
pub fn placeholder(theme: &Theme) -> Vec<Line<'static>> {
    vec![line("rendering…", theme.dim)]
}

/// The Files view of a database skill.
pub fn no_folder(theme: &Theme) -> Vec<Line<'static>> {
    vec![line("A database skill has no folder: SKILL.md is its only file.", theme.dim)]
}

/// An unreadable SKILL.md, in every per-skill view.
pub fn read_error(err: &str, theme: &Theme) -> Vec<Line<'static>> {
    vec![line("This SKILL.md cannot be read, so Hermes skips it:", theme.error), line(err.to_owned(), theme.text)]
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
    out.push(line(format!("{}, {hidden} not offered to the agent", count_s(skills.len() as u64, "skill")), theme.dim));
    out.push(Line::default());
    let w = usize::from(width);
    for s in skills {
        let k = app.skill(s);
        let (mark, style) = marker(k, theme);
        let text = format!("{mark} {} — {}", k.name, k.description);
        out.push(Line::from(vec![Span::styled(fit(&clean_line(&text), w), style)]));
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

fn card(engine: &Engine, snap: &SkillSnapshot, theme: &Theme, width: u16) -> Vec<Line<'static>> {
    let skill = &snap.skill;
    let w = usize::from(width).saturating_sub(4).max(10);
    let mut out = Vec::new();
    let top = format!("┌─ {} ", fit(&clean_line(&skill.name), w.saturating_sub(4)));
    out.push(Line::from(Span::styled(
        format!("{top}{}", "─".repeat(usize::from(width).saturating_sub(top.width()))),
        theme.border,
    )));
    let mut row = |key: &str, value: String| {
        let text = fit(&clean_line(&value), w.saturating_sub(17));
        out.push(Line::from(vec![
            Span::styled("│ ", theme.border),
            Span::styled(format!("{:<15}", fit(&clean_line(key), 14)), theme.dim),
            Span::styled(text, theme.text),
        ]));
    };
    row("description", skill.description.clone());
    if let Some(source) = snap.source {
        let origin = match &skill.db_row {
            Some(r) => format!("{} (row {} of {}, updated {})", source.name(), r.id, TABLE, r.updated_at),
            None => {
                let md = &skill.skill_md;
                format!("{} ({})", source.name(), md.strip_prefix(&engine.home.root).unwrap_or(md).display())
            }
        };
        row("source", origin);
    }
    if !snap.shadows.is_empty() {
        row("shadows", snap.shadows.join(", "));
    }
    let (mark, _) = marker(skill, theme);
    let state = if skill.status.listed { "offered to the agent" } else { "not offered to the agent" };
    row(
        "status",
        format!("{mark} {state}{}", skill.status.command.as_ref().map(|c| format!(", {c}")).unwrap_or_default()),
    );
    for (k, v) in snap.frontmatter(engine).iter() {
        if *k == "name" || *k == "description" {
            continue;
        }
        row(&k.to_string(), v.yaml_flow());
    }
    out.push(Line::from(Span::styled(
        "└".to_owned() + &"─".repeat(usize::from(width).saturating_sub(1)),
        theme.border,
    )));
    out.push(Line::default());
    out
}

fn preview(engine: &Engine, snap: &SkillSnapshot, raw: bool, theme: &Theme, width: u16) -> Vec<Line<'static>> {
    let skill = &snap.skill;
    if let Some(row) = &skill.db_row {
        if raw {
            return numbered(&row.content, theme);
        }
        let view = engine.db_view(row, Some(&engine.options.session_id));
        let content = view.get("content").and_then(serde_json::Value::as_str).unwrap_or_default();
        let mut out = card(engine, snap, theme, width);
        out.extend(markdown::render(frontmatter::parse(content).1, width, theme));
        return out;
    }
    if raw {
        return match source::read_text(&skill.skill_md) {
            Ok(text) => numbered(&text, theme),
            Err(e) => vec![line(e.to_string(), theme.error)],
        };
    }
    let view =
        Context::new(engine).skill_view(SkillRef::File(&skill.skill_md), None, Some(&engine.options.session_id), true);
    let mut out = card(engine, snap, theme, width);
    if view.get("success").and_then(serde_json::Value::as_bool) != Some(true) {
        let err = view.get("error").and_then(serde_json::Value::as_str).unwrap_or("skill_view failed");
        out.push(line(format!("skill_view answers: {err}"), theme.error));
        let text = source::read_text(&skill.skill_md).unwrap_or_default();
        out.extend(markdown::render(frontmatter::parse(&text).1, width, theme));
        return out;
    }
    let content = view.get("content").and_then(serde_json::Value::as_str).unwrap_or_default();
    let (_, body) = frontmatter::parse(content);
    out.extend(markdown::render(body, width, theme));
    out
}

/// One entry of the Files view.
#[derive(Debug, Clone, PartialEq)]
pub struct FileEntry {
    pub group: &'static str,
    pub rel: String,
    /// Where it leads, when it is a symlink.
    pub link: Option<Link>,
}

/// Linked files by group, then every other file of the skill folder, and
/// the symlinks that lead to no file (a folder, nothing, a loop).
pub fn file_entries(skill: &CatalogSkill) -> Vec<FileEntry> {
    if skill.db_row.is_some() {
        return Vec::new();
    }
    let dir = &skill.skill_dir;
    let tree = paths::rglob_all(dir);
    let linked = linked_files_in(dir, &tree);
    let entry = |group, rel: String| {
        let path = dir.join(&rel);
        let link = paths::tree_entry(&tree, &path).filter(|f| f.is_symlink).and_then(|_| symlink::follow(&path));
        FileEntry { group, rel, link }
    };
    let mut out: Vec<FileEntry> = Vec::new();
    for (group, files) in linked.groups() {
        out.extend(files.iter().map(|f| entry(group, f.clone())));
    }
    let mut others: Vec<String> = tree
        .iter()
        .filter(|f| f.is_file || f.is_symlink)
        .filter_map(|f| f.path.strip_prefix(dir).ok().map(paths::rel_string))
        .filter(|rel| rel != "SKILL.md" && !out.iter().any(|e| &e.rel == rel))
        .collect();
    others.sort();
    out.extend(others.into_iter().map(|rel| entry("other", rel)));
    out
}

/// What a symlink means for the agent on this backend.
fn link_note(link: &Link, backend: crate::engine::sandbox::Backend) -> String {
    let target = clean_line(&link.target.display().to_string());
    match link.end {
        LinkEnd::Loop => format!("  symlink loop: {}", clean_line(&link.describe())),
        LinkEnd::Nothing => format!("  → {target}: symlink to nothing"),
        _ if backend.is_remote() => format!("  → {target}: symlink, not in the {backend} sandbox"),
        LinkEnd::Folder => format!("  → {target}: symlink to a folder, read on the host"),
        LinkEnd::File => format!("  → {target}: symlink, read on the host"),
    }
}

/// The Files view's list of files with the cursor's one marked, then the
/// selected file's `preview` (built by a job; `None` while it is).
pub fn files(
    entries: &[FileEntry],
    cursor: usize,
    preview: Option<&[Line<'static>]>,
    backend: crate::engine::sandbox::Backend,
    theme: &Theme,
) -> Vec<Line<'static>> {
    if entries.is_empty() {
        return vec![line("No files besides SKILL.md.", theme.dim)];
    }
    let mut out = vec![line("Linked files (what linked_files lists), then other files:", theme.dim)];
    let mut last_group = "";
    for (i, e) in entries.iter().enumerate() {
        if e.group != last_group {
            out.push(line(format!("{}:", e.group), theme.heading));
            last_group = e.group;
        }
        let selected = i == cursor;
        let style = if selected { theme.selected } else { theme.text };
        let mut spans = vec![
            Span::styled(if selected { "▶ " } else { "  " }, theme.accent),
            Span::styled(clean_line(&e.rel), style),
        ];
        if let Some(link) = &e.link {
            let note_style =
                if matches!(link.end, LinkEnd::Loop | LinkEnd::Nothing) { theme.error } else { theme.warn };
            spans.push(Span::styled(link_note(link, backend), note_style));
        }
        out.push(Line::from(spans));
    }
    out.push(Line::default());
    if let Some(e) = entries.get(cursor) {
        out.push(Line::from(Span::styled(format!("── {} ", clean_line(&e.rel)), theme.border)));
        match preview {
            Some(lines) => out.extend(lines.iter().cloned()),
            None => out.extend(placeholder(theme)),
        }
    }
    out
}

/// What the Files view shows below the list for one of its files.
fn file_section(dir: &std::path::Path, e: &FileEntry, width: u16, theme: &Theme) -> Vec<Line<'static>> {
    match &e.link {
        Some(link) if matches!(link.end, LinkEnd::Loop | LinkEnd::Nothing | LinkEnd::Folder) => {
            wrap_text(&format!("{} {}.", clean_line(&e.rel), link.describe()), width, theme.dim)
        }
        _ => file_preview(&dir.join(&e.rel), width, theme),
    }
}

/// A file's content: highlighted text, or its name and size when binary.
pub fn file_preview(path: &std::path::Path, width: u16, theme: &Theme) -> Vec<Line<'static>> {
    let text = match preview_text(path, theme) {
        Ok(text) => text,
        Err(why) => return vec![why],
    };
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let ext = paths::suffix(&name).trim_start_matches('.').to_owned();
    if ext == "md" {
        return markdown::render(&text, width, theme);
    }
    let lang = if ext.is_empty() { "sh".to_owned() } else { ext };
    match Highlighter::ready().and_then(|h| h.highlight(&text.replace('\t', "    "), &lang, theme.mode)) {
        Some(lines) => lines
            .into_iter()
            .map(|spans| {
                Line::from(spans.into_iter().map(|s| Span::styled(clean_line(&s.content), s.style)).collect::<Vec<_>>())
            })
            .collect(),
        None => wrap_text(&text, width, theme.code),
    }
}

/// A file's text for a preview, or the line saying why there is none
/// (too large, unreadable, binary).
fn preview_text(path: &std::path::Path, theme: &Theme) -> Result<String, Line<'static>> {
    let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    if size > MAX_PREVIEW_BYTES {
        return Err(line(format!("{name}: {size} bytes, too large to preview"), theme.dim));
    }
    let bytes = source::read_bytes(path).map_err(|e| line(e.to_string(), theme.error))?;
    if bytes.contains(&0) {
        return Err(line(format!("{name}: binary, {size} bytes"), theme.dim));
    }
    match String::from_utf8(bytes) {
        Ok(t) => Ok(source::universal_newlines(t)),
        Err(_) => Err(line(format!("{name}: binary, {size} bytes"), theme.dim)),
    }
}

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
fn when(now: isotime::Micros, text: &str) -> String {
    match isotime::parse(text) {
        Some(t) => format!("{} ({})", &isotime::format(t)[..10], relative(now, t)),
        None => clean_line(text),
    }
}

/// View 8: where the skill came from, its usage, what the curator's next
/// pass does to it, and whether a hub install at each trust level takes it.
pub fn lifecycle(app: &App, skill: &CatalogSkill, width: u16) -> Vec<Line<'static>> {
    let theme = &app.theme;
    if skill.db_row.is_some() {
        return vec![line("A database skill: Hermes keeps no usage record, provenance or archive for it.", theme.dim)];
    }
    let answer = match &app.jobs.lifecycle {
        Some((JobKind::Lifecycle { skill_md, .. }, JobOutput::Lifecycle(answer))) if *skill_md == skill.skill_md => {
            answer
        }
        _ => return pending(theme),
    };
    let LifecycleAnswer { life, curator, problems, scan: scanned, guard_agent_created } = &**answer;
    let now = (app.clock)();
    let mut out = vec![line("Where it came from", theme.heading)];
    out.push(kv("provenance", format!("{} (Hermes' provenance())", life.provenance), theme));
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
    out
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
        let text = format!("{} {} — archived {at}; {restore}", crate::tui::ui::ARCHIVED_MARK, a.name);
        out.extend(wrap_text(&clean_line(&text), width, theme.dim));
    }
    out
}

/// An archived skill, in every per-skill view: when the curator moved it,
/// how it comes back, and its SKILL.md as it lies in the archive.
fn archived(a: &Archived, now: isotime::Micros, theme: &Theme, width: u16) -> Vec<Line<'static>> {
    let mut out = vec![
        line(clean_line(&a.name), theme.heading),
        Line::default(),
        line("Archived by the curator: the agent does not receive it.", theme.warn),
        Line::default(),
    ];
    if let Some(name) = a.skill_name.as_ref().filter(|n| **n != a.name) {
        out.push(kv("name", clean_line(name), theme));
    }
    let at = a.archived_at.as_deref().map_or_else(|| "not recorded".to_owned(), |t| when(now, t));
    out.push(kv("archived", at, theme));
    let activity = a.last_activity.as_deref().map_or_else(|| "never".to_owned(), |t| when(now, t));
    out.push(kv("last activity", activity, theme));
    out.push(kv("folder", clean_line(&paths::path_string(&a.path)), theme));
    match &a.restore_refused {
        None => out.push(kv("restore", clean_line(&a.restore), theme)),
        Some(why) => {
            out.push(Line::from(vec![
                Span::styled(format!("{:<14}", "restore"), theme.dim),
                Span::styled(clean_line(&a.restore), theme.text),
                Span::styled("  refused now", theme.error),
            ]));
            out.extend(wrap_text(&format!("  {}", clean_line(why)), width, theme.dim));
        }
    }
    if a.suppressed {
        out.push(kv("suppressed", "in .curator_suppressed: `hermes update` does not re-seed it", theme));
    }
    out.push(Line::default());
    let mut out = wrap_prose(out, width);
    let skill_md = a.path.join("SKILL.md");
    if paths::is_file(&skill_md) {
        out.push(line("SKILL.md", theme.heading));
        match preview_text(&skill_md, theme) {
            Ok(text) => out.extend(numbered(&text, theme)),
            Err(why) => out.push(why),
        }
    } else {
        out.push(line("No SKILL.md in this folder.", theme.dim));
    }
    out
}

fn readiness(engine: &Engine, snap: &SkillSnapshot, theme: &Theme) -> Vec<Line<'static>> {
    let skill = &snap.skill;
    let fm = &snap.frontmatter(engine);
    let backend = engine.options.backend;
    let r = readiness::evaluate(fm, &engine.home, &engine.env, backend.name());
    let mut out = Vec::new();
    let (status_style, status) = match (&r.view_error, r.setup_needed) {
        (Some(e), _) => (theme.error, format!("skill_view fails: {}", clean_line(&e.message))),
        (None, true) => (theme.warn, "setup_needed".to_owned()),
        (None, false) => (theme.ok, "available".to_owned()),
    };
    out.push(Line::from(vec![
        Span::styled(format!("{:<14}", "readiness"), theme.dim),
        Span::styled(status, status_style),
    ]));
    out.push(kv("backend", backend.name(), theme));
    if skill.db_row.is_some() {
        out.push(kv("skill folder", "none (stored in the database)", theme));
    } else {
        let runtime = engine.runtime_path(&skill.skill_dir);
        out.push(kv("skill folder", runtime.path.clone(), theme));
        if let Some(reason) = runtime.unmapped {
            out.push(line(format!("  {reason}"), theme.warn));
        }
    }
    out.push(Line::default());

    let s = &skill.status;
    out.push(line("Offered to the agent", theme.heading));
    let yes_no = |b: bool| if b { "yes" } else { "no" };
    out.push(kv("listed", yes_no(s.listed), theme));
    out.push(kv("platforms", platforms_line(fm.get("platforms"), s.platform_ok, engine.env.os.name()), theme));
    let envs = match fm.get("environments").filter(|v| v.truthy()) {
        Some(Value::Seq(items)) => items.iter().map(Value::py_str).collect::<Vec<_>>().join(", "),
        Some(other) => other.py_str(),
        None => "any".to_owned(),
    };
    out.push(kv(
        "environments",
        format!("{envs} ({})", if s.environment_ok { "ok" } else { "hidden: not active here" }),
        theme,
    ));
    out.push(kv("disabled", yes_no(s.disabled), theme));
    for other in &snap.shadows_md {
        out.push(kv("shadows", other.display().to_string(), theme));
    }
    if let Some(first) = &snap.shadowed_by_md {
        out.push(kv("shadowed by", first.display().to_string(), theme));
    }
    for other in &snap.ambiguous_md {
        out.push(kv("same name as", other.display().to_string(), theme));
    }
    if s.unlistable {
        out.push(line("  skills_list drops it: its name is not a string or its description is unusable", theme.warn));
    }
    out.push(kv("slash command", s.command.clone().unwrap_or_else(|| "none".into()), theme));
    let cond = crate::engine::gates::Conditions::from_frontmatter(fm);
    if !cond.is_empty() {
        for (k, v) in [
            ("requires_toolsets", &cond.requires_toolsets),
            ("fallback_for_toolsets", &cond.fallback_for_toolsets),
            ("requires_tools", &cond.requires_tools),
            ("fallback_for_tools", &cond.fallback_for_tools),
        ] {
            if v.truthy() {
                out.push(kv(k, v.py_str(), theme));
            }
        }
    }
    out.push(Line::default());

    out.push(line("Environment variables", theme.heading));
    if r.required.is_empty() {
        out.push(line("  none required", theme.dim));
    }
    for e in &r.required {
        let present = readiness::env_var_present(&e.name, &engine.home, &engine.env);
        let (mark, style) = if present {
            ("set", theme.ok)
        } else if e.optional {
            ("unset (optional)", theme.dim)
        } else {
            ("missing", theme.error)
        };
        out.push(Line::from(vec![
            Span::styled(format!("  {:<28}", clean_line(&e.name)), theme.text),
            Span::styled(mark, style),
            Span::styled(e.help.as_ref().map(|h| format!("  {}", clean_line(h))).unwrap_or_default(), theme.dim),
        ]));
    }
    out.push(line("Credential files", theme.heading));
    let declared: Vec<String> = fm
        .get("required_credential_files")
        .and_then(Value::as_seq)
        .map(|items| {
            items
                .iter()
                .filter_map(|i| match i {
                    Value::Str(s) => Some(s.trim().to_owned()),
                    Value::Map(m) => m.get("path").or_else(|| m.get("name")).map(Value::py_str),
                    _ => None,
                })
                .collect()
        })
        .unwrap_or_default();
    if declared.is_empty() {
        out.push(line("  none required", theme.dim));
    }
    for f in declared {
        let missing = r.missing_files.contains(&f);
        out.push(Line::from(vec![
            Span::styled(format!("  {:<28}", clean_line(&f)), theme.text),
            if missing { Span::styled("missing", theme.error) } else { Span::styled("present", theme.ok) },
        ]));
    }
    let vars = messages::config_vars(fm);
    if !vars.is_empty() {
        out.push(line("Config values (skills.config in config.yaml)", theme.heading));
        for v in vars {
            let value = engine.config_value(&v);
            let shown = if value.truthy() { value.py_str() } else { "(not set)".into() };
            out.push(kv(&format!("  {}", v.key), shown, theme));
        }
    }
    let missing = if skill.db_row.is_some() { Vec::new() } else { engine.files_missing_in_sandbox(&skill.skill_dir) };
    if !missing.is_empty() {
        out.push(line(format!("Not in the {backend} sandbox (reached through symlinks)"), theme.heading));
        for m in missing {
            out.push(line(format!("  {}", m.display()), theme.warn));
        }
    }
    if let Some(note) = r.setup_note {
        out.push(Line::default());
        out.push(line("Setup note the agent gets", theme.heading));
        out.push(line(note, theme.text));
    }
    out
}

/// The `platforms` gate for a person: the values as written, and whether
/// they hide the skill here, or everywhere when no value names an OS.
fn platforms_line(platforms: Option<&Value>, ok_here: bool, os: &str) -> String {
    let Some(platforms) = platforms.filter(|v| v.truthy()) else { return format!("all (ok on {os})") };
    let values = match platforms {
        Value::Seq(items) => items.clone(),
        other => vec![other.clone()],
    };
    let shown = values.iter().map(Value::py_str).collect::<Vec<_>>().join(", ");
    let unknown: Vec<String> =
        values.iter().filter(|v| !crate::engine::gates::platform_value_known(v)).map(Value::py_str).collect();
    if unknown.len() == values.len() {
        return format!("{shown} (hidden everywhere: no value names an OS Hermes knows)");
    }
    let verdict = if ok_here { format!("ok on {os}") } else { format!("hidden on {os}") };
    match unknown.as_slice() {
        [] => format!("{shown} ({verdict})"),
        names => format!("{shown} ({verdict}; {} names no OS)", names.join(", ")),
    }
}

fn pending(theme: &Theme) -> Vec<Line<'static>> {
    vec![line("computing…", theme.dim)]
}

pub fn agent(app: &App, skill: &CatalogSkill, width: u16) -> Vec<Line<'static>> {
    let theme = &app.theme;
    let Some((_, JobOutput::Agent { message, prompt_lines })) = &app.jobs.agent else {
        return pending(theme);
    };
    let backend = app.engine.options.backend;
    let mut out = Vec::new();
    match &skill.status.command {
        Some(cmd) => {
            out.push(line(format!("What the agent receives for {cmd} on {backend}:"), theme.heading));
            out.push(Line::default());
            match message {
                Some(m) => out.extend(wrap_fenced(m, width, theme.text)),
                None => {
                    out.push(line("Hermes builds no message: the skill does not load (see Readiness).", theme.error))
                }
            }
        }
        None => out
            .push(line("This skill registers no slash command (hidden, disabled, or its slug is taken).", theme.warn)),
    }
    out.push(Line::default());
    out.push(line("Its line in the system-prompt skills index:", theme.heading));
    if prompt_lines.is_empty() {
        out.push(line("  (not in the index)", theme.dim));
    }
    for l in prompt_lines {
        out.extend(wrap_text(l, width, theme.text));
    }
    out
}

pub fn bundles(app: &App, width: u16) -> Vec<Line<'static>> {
    let theme = &app.theme;
    let Some(JobOutput::Bundles(reports)) = &app.jobs.bundles else {
        return pending(theme);
    };
    if reports.is_empty() {
        return vec![line("No bundles in skill-bundles/.", theme.dim)];
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
    out
}

pub fn prompt(app: &App, width: u16) -> Vec<Line<'static>> {
    let theme = &app.theme;
    match &app.jobs.prompt {
        Some(JobOutput::Prompt(Ok(text))) if text.is_empty() => {
            vec![line("Hermes adds no skills index: no skill survives the filters.", theme.dim)]
        }
        Some(JobOutput::Prompt(Ok(text))) => {
            let mut out = vec![line("The skills index in the agent's system prompt:", theme.heading), Line::default()];
            out.extend(wrap_text(text, width, theme.text));
            out
        }
        Some(JobOutput::Prompt(Err(e))) => vec![line(format!("Hermes fails to build the index: {e}"), theme.error)],
        _ => pending(theme),
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
        line(format!("{scope}: {} shown ({} and above)", findings.len(), app.view.diag.min.name()), theme.heading),
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
}
