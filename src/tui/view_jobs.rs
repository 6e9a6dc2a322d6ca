//! The views that read files (Preview, raw, Files and its file previews,
//! Readiness, an archived skill's SKILL.md): built by a job from a
//! [`ViewRequest`], off the UI thread ([`run`]). A request holds what the
//! view needs of the app ([`SkillSnapshot`]); the job never sees the app.

use super::cache::ViewKey;
use super::lines::{kv, line, marker, numbered, placeholder, when, wrap_prose, wrap_text};
use super::markdown::{self, fit, highlight::Highlighter};
use super::theme::Theme;
use crate::engine::catalog::{Catalog, CatalogSkill};
use crate::engine::confusable::Confusable;
use crate::engine::context::Context;
use crate::engine::cost::{Size, Tokenizer};
use crate::engine::frontmatter;
use crate::engine::isotime;
use crate::engine::layers::{Source, TABLE};
use crate::engine::lifecycle::Archived;
use crate::engine::messages;
use crate::engine::paths;
use crate::engine::prompt::PromptIndex;
use crate::engine::readiness;
use crate::engine::similar::CONFUSABLE_THRESHOLD;
use crate::engine::source;
use crate::engine::symlink::{self, Link, LinkEnd};
use crate::engine::value::Value;
use crate::engine::view::linked_files_in;
use crate::engine::view::SkillRef;
use crate::engine::why::{Outcome, WhyInputs};
use crate::engine::words::thousands;
use crate::engine::Engine;
use crate::sanitize::clean_line;
use ratatui::text::{Line, Span};
use std::path::PathBuf;
use std::sync::Arc;
use unicode_width::UnicodeWidthStr;

/// Files bigger than this are named, not shown.
const MAX_PREVIEW_BYTES: u64 = 512 * 1024;

/// How much of a SKILL.md's body the Preview renders: a 60 MB one took
/// over a gigabyte as styled lines. The rest is counted, not shown.
const RENDERED_BODY_BYTES: usize = 1024 * 1024;

/// A SKILL.md body rendered as markdown, its first [`RENDERED_BODY_BYTES`]
/// (whole lines) when it is longer, and a line saying what is left out.
fn render_body(body: &str, width: u16, theme: &Theme) -> Vec<Line<'static>> {
    if body.len() <= RENDERED_BODY_BYTES {
        return markdown::render(body, width, theme);
    }
    let cut = source::floor_char_boundary(body, RENDERED_BODY_BYTES);
    let cut = body[..cut].rfind('\n').map_or(cut, |at| at + 1);
    let (shown, rest) = body.split_at(cut);
    let mut out = markdown::render(shown, width, theme);
    let lines = thousands(rest.lines().count());
    let bytes = thousands(rest.len());
    out.push(Line::default());
    let note = format!(
        "… {lines} more lines ({bytes} bytes) are not rendered here; the agent receives them all, and R shows the file raw."
    );
    out.extend(wrap_text(&note, width, theme.warn));
    out
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

/// A skill's part of the system-prompt index, as the header card says it.
#[derive(Debug, Clone, PartialEq)]
pub enum IndexShare {
    /// The index is being built and measured.
    Measuring,
    Offered {
        line: String,
        tokens: usize,
        chars: usize,
    },
    NotOffered,
}

/// What a skill's Why section reads: every skill, and the index.
#[derive(Debug, Clone)]
pub struct WhyBasis {
    pub catalog: Arc<Catalog>,
    pub index: Arc<PromptIndex>,
    pub confusable: Arc<Confusable>,
    /// The skill's place in the catalog.
    pub skill: usize,
    /// The user whose folder the skill is in (layers): traced in that layer.
    pub user: Option<String>,
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
    pub index: IndexShare,
    /// Absent until the index is built.
    pub why: Option<WhyBasis>,
}

impl SkillSnapshot {
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

/// Rows a value of the header card takes at most.
const CARD_ROWS_PER_VALUE: usize = 4;

/// Columns of the header card's keys at least (a longer key widens them).
const CARD_KEY_WIDTH: usize = 14;

/// The header card; `loaded` is what loading the skill costs, when known.
fn card(engine: &Engine, snap: &SkillSnapshot, loaded: Option<Size>, theme: &Theme, width: u16) -> Vec<Line<'static>> {
    let skill = &snap.skill;
    let w = usize::from(width).saturating_sub(4).max(10);
    let mut out = Vec::new();
    let top = format!("┌─ {} ", fit(&clean_line(&skill.name), w.saturating_sub(4)));
    out.push(Line::from(Span::styled(
        format!("{top}{}┐", "─".repeat(usize::from(width).saturating_sub(top.width() + 1))),
        theme.border,
    )));
    // The rows are gathered first: the keys' column is as wide as the
    // longest key, within a third of the pane.
    let mut rows: Vec<(String, String)> = Vec::new();
    let mut row = |key: &str, value: String| rows.push((clean_line(key), clean_line(&value)));
    // The frontmatter's description, as skill_view and the index read it:
    // skills_list's (the catalog's) comes from the first 4000 characters
    // only, and is `---` when the frontmatter runs past them.
    let frontmatter = snap.frontmatter(engine);
    let description = match frontmatter.get("description").filter(|d| d.truthy()) {
        Some(d) => d.py_str(),
        None => skill.description.clone(),
    };
    row("description", description);
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
    // skills_list's answer; whether the index offers it is the next row's.
    let state = if skill.status.listed { "listed by skills_list" } else { "not in skills_list" };
    row(
        "status",
        format!("{mark} {state}{}", skill.status.command.as_ref().map(|c| format!(", {c}")).unwrap_or_default()),
    );
    row(
        "index line",
        match &snap.index {
            IndexShare::Measuring => "measuring…".to_owned(),
            IndexShare::Offered { line, tokens, chars } => {
                format!("{} tokens, {} chars: {}", thousands(*tokens), thousands(*chars), line.trim())
            }
            IndexShare::NotOffered => "none: not in the index (the Readiness view says why)".to_owned(),
        },
    );
    if let Some(loaded) = loaded {
        row(
            "loading it",
            format!("{} tokens, {} chars (skill_view content)", thousands(loaded.tokens), thousands(loaded.chars)),
        );
    }
    for (k, v) in frontmatter.iter() {
        if *k == "name" || *k == "description" {
            continue;
        }
        row(&k.to_string(), v.yaml_flow());
    }
    let widest = rows.iter().map(|(k, _)| k.width()).max().unwrap_or(0);
    let key_width = widest.clamp(CARD_KEY_WIDTH, (usize::from(width) / 3).max(CARD_KEY_WIDTH));
    // A value wraps beside its key (a narrow pane cuts none of a short
    // one); a long one stops after a few rows, its cut marked.
    let room = usize::from(width).saturating_sub(key_width + 5).max(10);
    for (key, value) in rows {
        let value = Line::from(Span::styled(value, theme.text));
        let mut lines = super::view_text::wrap_line(&value, room, 0);
        if lines.len() > CARD_ROWS_PER_VALUE {
            lines.truncate(CARD_ROWS_PER_VALUE);
            let last: String = lines[CARD_ROWS_PER_VALUE - 1].spans.iter().map(|s| s.content.as_ref()).collect();
            lines[CARD_ROWS_PER_VALUE - 1] = Line::from(Span::styled(fit(&format!("{last} …"), room), theme.text));
        }
        let key = format!("{:<w$}", fit(&key, key_width), w = key_width + 1);
        for (i, value) in lines.into_iter().enumerate() {
            let key = if i == 0 { Span::styled(key.clone(), theme.dim) } else { Span::raw(" ".repeat(key_width + 1)) };
            // Padded to the right edge.
            let pad = room.saturating_sub(value.width());
            let mut spans = vec![Span::styled("│ ", theme.border), key];
            spans.extend(value.spans);
            spans.push(Span::styled(format!("{} │", " ".repeat(pad)), theme.border));
            out.push(Line::from(spans));
        }
    }
    out.push(Line::from(Span::styled(format!("└{}┘", "─".repeat(usize::from(width).saturating_sub(2))), theme.border)));
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
        let mut out = card(engine, snap, Some(Size::of(content, Tokenizer::default())), theme, width);
        out.extend(render_body(frontmatter::parse(content).1, width, theme));
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
    let content = view.get("content").and_then(serde_json::Value::as_str);
    let mut out = card(engine, snap, content.map(|c| Size::of(c, Tokenizer::default())), theme, width);
    if view.get("success").and_then(serde_json::Value::as_bool) != Some(true) {
        let err = view.get("error").and_then(serde_json::Value::as_str).unwrap_or("skill_view failed");
        out.extend(wrap_text(&format!("skill_view answers: {err}"), width, theme.error));
        // The file as written, set apart from the refusal.
        out.push(Line::default());
        out.push(line("The SKILL.md as written:", theme.dim));
        out.push(Line::default());
        let text = source::read_text(&skill.skill_md).unwrap_or_default();
        out.extend(render_body(frontmatter::parse(&text).1, width, theme));
        return out;
    }
    let content = view.get("content").and_then(serde_json::Value::as_str).unwrap_or_default();
    let (_, body) = frontmatter::parse(content);
    out.extend(render_body(body, width, theme));
    out
}

/// One entry of the Files view.
#[derive(Debug, Clone, PartialEq)]
pub struct FileEntry {
    pub group: &'static str,
    pub rel: String,
    /// Where it leads, when it is a symlink.
    pub link: Option<Link>,
    /// A symlink to a folder that holds it: a walk that follows links
    /// would go round it forever.
    pub encloses: bool,
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
        let encloses = link.as_ref().is_some_and(|l| l.end == LinkEnd::Folder) && leads_to_its_own_folder(&path);
        FileEntry { group, rel, link, encloses }
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

/// Whether the symlink at `path` leads to the folder holding it, or one
/// above that.
fn leads_to_its_own_folder(path: &std::path::Path) -> bool {
    let (Ok(target), Some(Ok(holder))) = (path.canonicalize(), path.parent().map(std::path::Path::canonicalize)) else {
        return false;
    };
    holder.starts_with(&target)
}

/// What a symlink means for the agent on this backend.
fn link_note(link: &Link, encloses: bool, backend: crate::engine::sandbox::Backend) -> String {
    let target = clean_line(&link.target.display().to_string());
    match link.end {
        LinkEnd::Loop => format!("  {}", clean_line(&link.describe())),
        LinkEnd::Nothing => format!("  → {target}: symlink to nothing"),
        _ if backend.is_remote() => format!("  → {target}: symlink, not in the {backend} sandbox"),
        LinkEnd::Folder if encloses => {
            format!("  → {target}: symlink to a folder holding it (a loop for a walk that follows links)")
        }
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
    let mut out = vec![line("Linked files (skill_view's), then the others:", theme.dim)];
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
            spans.push(Span::styled(link_note(link, e.encloses, backend), note_style));
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

    out.extend(why_section(engine, snap, theme));
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

/// Hermes' pipeline for the skill, one step a line (`skillscope why`).
fn why_section(engine: &Engine, snap: &SkillSnapshot, theme: &Theme) -> Vec<Line<'static>> {
    let mut out = vec![line("Why it is or is not offered", theme.heading)];
    if snap.skill.db_row.is_some() {
        out.push(line("  a database row: Hermes builds its index from skill folders", theme.dim));
        return out;
    }
    let Some(basis) = &snap.why else {
        out.push(line("  building the index…", theme.dim));
        return out;
    };
    if basis.catalog.skills.get(basis.skill).map(|s| &s.skill_md) != Some(&snap.skill.skill_md) {
        out.push(line("  the skills changed: rescanning…", theme.dim));
        return out;
    }
    let layer = basis.user.as_ref().map(|u| engine.user_engine(u));
    let inputs = WhyInputs {
        engine: layer.as_ref().unwrap_or(engine),
        catalog: &basis.catalog,
        index: &basis.index,
        context: None,
    };
    let trace = inputs.trace(basis.skill, &[basis.skill]);
    for step in &trace.steps {
        let (mark, style) = match step.outcome {
            Outcome::Pass => ("✓", theme.ok),
            Outcome::Fail => ("✗", theme.error),
            Outcome::Note => ("·", theme.dim),
        };
        let place = match (&step.file, step.line) {
            (Some(file), Some(l)) => {
                format!("  {}:{l}", file.file_name().map(|n| n.to_string_lossy()).unwrap_or_default())
            }
            _ => String::new(),
        };
        out.push(Line::from(vec![
            // One span: wrapped lines go on under the detail.
            Span::styled(format!("  {mark} {:<12}", step.step), style),
            Span::styled(clean_line(&step.detail), theme.text),
            Span::styled(clean_line(&place), theme.dim),
        ]));
    }
    out.push(Line::default());
    out.push(line("Skills with the most alike index lines", theme.heading));
    let neighbours = basis.confusable.most_similar(&snap.skill.skill_md, 5);
    if neighbours.is_empty() {
        out.push(line("  none shares a word with its line", theme.dim));
    }
    for n in neighbours {
        let (mark, style) =
            if n.score >= CONFUSABLE_THRESHOLD { ("the agent may confuse them", theme.warn) } else { ("", theme.dim) };
        out.push(Line::from(vec![
            Span::styled(format!("  {:.2}  ", n.score), style),
            Span::styled(clean_line(&n.skill.name), theme.text),
            Span::styled(format!("  {}  ", clean_line(&n.skill.category)), theme.dim),
            Span::styled(mark, style),
        ]));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::theme::ColorMode;

    #[test]
    fn a_huge_body_is_rendered_in_part_and_what_is_left_out_counted() {
        let theme = Theme::new(ColorMode::NoColor);
        let line = "Filler text for a huge skill, repeated over and over.\n";
        let body = line.repeat(3 * RENDERED_BODY_BYTES / line.len());
        let lines = render_body(&body, 80, &theme);
        let text = markdown::plain(&lines);
        let shown = text.matches("Filler text").count();
        assert!(shown > 0 && shown * line.len() <= RENDERED_BODY_BYTES, "{shown} lines shown");
        let left = body.lines().count() - shown;
        let said = format!("… {} more lines", thousands(left));
        assert!(text.contains(&said), "{said:?} in {:?}", &text[text.len().saturating_sub(300)..]);
        // A body within the limit is rendered whole.
        let small = line.repeat(10);
        assert_eq!(markdown::plain(&render_body(&small, 80, &theme)).matches("Filler text").count(), 10);
    }
}
