//! A check's report in the forms people and CI read: text, JSON, GitHub
//! workflow commands (annotations), SARIF 2.1.0 (code scanning) and
//! markdown (a pull-request comment).

use super::Report;
use crate::diagnostics::rules;
use crate::diagnostics::{Finding, Severity};
use crate::sanitize::{clean_line, html_text, markdown_text as md};
use serde_json::{json, Value as Json};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// `--format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
    Github,
    Sarif,
    Markdown,
}

impl Format {
    pub const NAMES: [&'static str; 5] = ["text", "json", "github", "sarif", "markdown"];

    pub fn parse(name: &str) -> Option<Format> {
        match name {
            "text" => Some(Format::Text),
            "json" => Some(Format::Json),
            "github" => Some(Format::Github),
            "sarif" => Some(Format::Sarif),
            "markdown" | "md" => Some(Format::Markdown),
            _ => None,
        }
    }
}

/// Where paths are relative to: in CI formats, the repository's root when
/// the checked folder is in a git repository (as GitHub wants them); in
/// the text a person reads, the current folder, so each `path:line:col`
/// opens from where the check ran.
#[derive(Debug, Clone, Default)]
pub struct Paths {
    pub repo_root: Option<PathBuf>,
    /// The current folder, resolved; none names files as their roots do.
    pub cwd: Option<PathBuf>,
}

impl Paths {
    /// The git repository `start` is in: the nearest folder above holding
    /// `.git` (a folder, or a file in a worktree); and the current folder.
    pub fn for_checked(start: &Path) -> Paths {
        let start = crate::paths::resolve(start);
        Paths {
            repo_root: start.ancestors().find(|d| d.join(".git").exists()).map(Path::to_path_buf),
            cwd: std::env::current_dir().ok().map(|cwd| crate::paths::resolve(&cwd)),
        }
    }

    /// A finding's file for a person: relative to the current folder when
    /// it lies below it, else by its absolute path; a file with no path on
    /// disk (a database row) as its root names it.
    pub fn for_person(&self, f: &Finding) -> String {
        let Some(cwd) = self.cwd.as_deref().filter(|_| f.path.is_absolute()) else {
            return f.rel_path.to_string();
        };
        // A home given as `../..` reaches its files through `..`: shown as
        // the folders they are in.
        let path = without_parent_steps(&f.path);
        let below =
            |path: &Path| path.strip_prefix(cwd).ok().filter(|rel| !rel.as_os_str().is_empty()).map(Path::to_path_buf);
        match below(&path).or_else(|| below(&crate::paths::resolve(&path))) {
            Some(rel) => crate::paths::path_string(&rel),
            None => crate::paths::path_string(&path),
        }
    }

    /// A finding's file for CI: relative to the repository root with `/`;
    /// a file outside the repository (an external dir elsewhere) by its
    /// absolute path, which no file of the repository can be mistaken
    /// for; outside any repository, as the text output names it.
    pub fn of(&self, f: &Finding) -> String {
        crate::paths::path_string(&self.of_path(f))
    }

    /// [`Paths::of`] with the file name's bytes as they are (SARIF's URIs
    /// encode them; a name that is not UTF-8 is not replaced).
    fn of_path(&self, f: &Finding) -> PathBuf {
        let joined = |parts: &mut dyn Iterator<Item = std::path::Component>| {
            parts.filter(|c| !matches!(c, std::path::Component::CurDir)).collect::<PathBuf>()
        };
        if let Some(root) = self.repo_root.as_deref() {
            let path = if f.path.is_absolute() { crate::paths::resolve(&f.path) } else { f.path.to_path_buf() };
            match path.strip_prefix(root) {
                Ok(rel) => return joined(&mut rel.components()),
                Err(_) if path.is_absolute() => return path,
                Err(_) => {}
            }
        }
        // The finding's own relative path is its file's last parts.
        let rel = Path::new(&*f.rel_path);
        if rel.is_absolute() {
            return f.path.to_path_buf();
        }
        let parts: Vec<std::path::Component> = f.path.components().collect();
        let wanted = rel.components().filter(|c| !matches!(c, std::path::Component::CurDir)).count();
        match parts.len().checked_sub(wanted) {
            Some(from) if wanted > 0 => joined(&mut parts[from..].iter().copied()),
            _ => rel.to_path_buf(),
        }
    }
}

/// `path` with each `..` taking the folder before it away, as
/// `os.path.normpath` does (for showing a path, not for reaching it).
fn without_parent_steps(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::ParentDir if matches!(out.components().next_back(), Some(Component::Normal(_))) => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// Writes the report; `comment_limit` holds a markdown comment under that
/// many characters ([`crate::comment`]).
pub fn write(
    report: &Report,
    format: Format,
    paths: &Paths,
    comment_limit: Option<usize>,
    out: &mut dyn Write,
) -> io::Result<()> {
    match format {
        Format::Text => text(report, paths, out),
        Format::Json => json_list(report, out),
        Format::Github => github(report, paths, out),
        Format::Sarif => {
            serde_json::to_writer_pretty(&mut *out, &sarif(report, paths))?;
            writeln!(out)
        }
        Format::Markdown => out.write_all(markdown(report, paths, comment_limit).as_bytes()),
    }
}

fn text(report: &Report, paths: &Paths, out: &mut dyn Write) -> io::Result<()> {
    let mut last_path = String::new();
    let mut any = false;
    for f in report.shown() {
        any = true;
        let path = paths.for_person(f);
        if path != last_path {
            if !last_path.is_empty() {
                writeln!(out)?;
            }
            writeln!(out, "{}", clean_line(&path))?;
            last_path = path;
        }
        // `path:line:column:` as compilers write it; a finding about the
        // whole file names the file alone.
        let at = match (f.line, f.column) {
            (Some(l), Some(c)) => format!(":{l}:{c}"),
            (Some(l), None) => format!(":{l}"),
            _ => String::new(),
        };
        writeln!(
            out,
            "  {}{at}: {} [{} {}] {}",
            clean_line(&last_path),
            f.severity.name(),
            f.code(),
            f.rule,
            clean_line(&f.message)
        )?;
        writeln!(out, "      hint: {}", clean_line(&f.hint))?;
    }
    if any {
        writeln!(out)?;
    }
    for note in report.notes() {
        writeln!(out, "note: {note}")?;
    }
    writeln!(out, "{}", report.summary())?;
    if let Some(path) = &report.settings {
        writeln!(out, "settings: {}", clean_line(&path.display().to_string()))?;
    }
    Ok(())
}

/// Findings as a JSON array, each built when it is written (a big home has
/// tens of thousands).
fn json_list(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    struct List<'a>(&'a [Finding]);
    impl serde::Serialize for List<'_> {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            serializer.collect_seq(self.0.iter().map(Finding::to_json))
        }
    }
    serde_json::to_writer_pretty(&mut *out, &List(&report.findings))?;
    writeln!(out)
}

/// A workflow command's message: `%`, CR and LF escaped.
fn escape_data(text: &str) -> String {
    text.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

/// A workflow command's property value: also `:` and `,`.
fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

/// GitHub Actions workflow commands: one annotation per finding
/// (`::error file=...,line=...,col=...,title=...::message`).
fn github(report: &Report, paths: &Paths, out: &mut dyn Write) -> io::Result<()> {
    for f in report.shown() {
        let command = match f.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "notice",
        };
        // A control character in a file name reaches no terminal raw.
        let mut props = vec![format!("file={}", escape_property(&crate::sanitize::clean(&paths.of(f))))];
        if let Some(line) = f.line {
            props.push(format!("line={line}"));
            if let Some(col) = f.column {
                props.push(format!("col={col}"));
            }
        }
        props.push(format!("title={}", escape_property(&format!("{} {}", f.code(), f.rule))));
        let message = format!("{} (hint: {})", f.message, f.hint);
        // Line ends are escaped (`%0A`), as GitHub reads them; other controls shown.
        writeln!(out, "::{command} {}::{}", props.join(","), escape_data(&crate::sanitize::clean(&message)))?;
    }
    for note in report.notes() {
        writeln!(out, "::notice title=skillscope::{}", escape_data(&note))?;
    }
    Ok(())
}

fn sarif_level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// SARIF 2.1.0: every rule in the driver, one result per finding.
pub fn sarif(report: &Report, paths: &Paths) -> Json {
    let all = rules::all();
    let driver_rules: Vec<Json> = all
        .iter()
        .map(|r| {
            json!({
                "id": r.code,
                "name": r.name,
                "shortDescription": {"text": r.title},
                "fullDescription": {"text": r.title},
                "help": {"text": r.hint},
                "defaultConfiguration": {"level": sarif_level(r.severity)},
            })
        })
        .collect();
    let results: Vec<Json> = report
        .findings
        .iter()
        .map(|f| {
            let mut location =
                json!({"physicalLocation": {"artifactLocation": artifact_location(&paths.of_path(f), paths)}});
            // A finding about a whole file points at its start: code
            // scanning places a result by its region's line.
            let mut region = json!({"startLine": f.line.unwrap_or(1)});
            if let (Some(_), Some(col)) = (f.line, f.column) {
                region["startColumn"] = json!(col);
            }
            location["physicalLocation"]["region"] = region;
            let mut result = json!({
                "ruleId": f.code(),
                "level": sarif_level(f.severity),
                "message": {"text": f.message},
                "locations": [location],
            });
            if let Some(index) = all.iter().position(|r| r.name == *f.rule) {
                result["ruleIndex"] = json!(index);
            }
            result
        })
        .collect();
    let mut run = json!({
        "tool": {"driver": {
            "name": "skillscope",
            "version": env!("CARGO_PKG_VERSION"),
            "rules": driver_rules,
        }},
        "results": results,
    });
    if let Some(root) = &paths.repo_root {
        let root = format!("{}/", file_uri(root).trim_end_matches('/'));
        run["originalUriBaseIds"] = json!({SOURCE_ROOT: {"uri": root}});
    }
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [run],
    })
}

/// The base id of paths relative to the repository's root.
const SOURCE_ROOT: &str = "%SRCROOT%";

/// A SARIF `artifactLocation`: relative to the repository's root (its
/// base id named), an absolute path as a `file:` URI.
fn artifact_location(path: &Path, paths: &Paths) -> Json {
    match (path.is_absolute(), paths.repo_root.is_some()) {
        (true, _) => json!({"uri": file_uri(path)}),
        (false, true) => json!({"uri": uri_path(path), "uriBaseId": SOURCE_ROOT}),
        (false, false) => json!({"uri": uri_path(path)}),
    }
}

/// An absolute path as a `file:` URI.
fn file_uri(path: &Path) -> String {
    format!("file://{}", uri_path(path))
}

/// A path as a URI reference: each byte outside the unreserved characters
/// percent-encoded, the bytes of a name that is not UTF-8 too.
fn uri_path(path: &Path) -> String {
    use std::os::unix::ffi::OsStrExt;
    let bytes = path.as_os_str().as_bytes();
    let mut out = String::with_capacity(bytes.len());
    for &b in bytes {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => out.push(b as char),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// A pull-request comment: the counts, the rules found most, then each
/// file's findings folded away, as many files as `limit` leaves room for.
fn markdown(report: &Report, paths: &Paths, limit: Option<usize>) -> String {
    use std::fmt::Write as _;
    let mut head = String::from("### skillscope check\n\n| | findings |\n|---|---:|\n");
    for (mark, severity) in [("✖ error", Severity::Error), ("▲ warning", Severity::Warning), ("ℹ info", Severity::Info)]
    {
        let _ = writeln!(head, "| {mark} | {} |", report.count(severity));
    }
    let _ = writeln!(head, "\n{}\n", md(&report.summary()));
    for note in report.notes() {
        let _ = writeln!(head, "> {}\n", md(&note));
    }
    if report.findings.is_empty() {
        return head + "Nothing to report.\n";
    }
    let mut by_rule: Vec<(&str, &str, usize)> = Vec::new();
    for f in &report.findings {
        match by_rule.iter_mut().find(|(name, _, _)| *name == &*f.rule) {
            Some(entry) => entry.2 += 1,
            None => by_rule.push((&f.rule, f.code(), 1)),
        }
    }
    by_rule.sort_by(|a, b| b.2.cmp(&a.2).then(a.0.cmp(b.0)));
    head.push_str("| rule | findings |\n|---|---:|\n");
    for (name, code, n) in &by_rule {
        let _ = writeln!(head, "| `{code}` {} | {n} |", md(name));
    }
    head.push('\n');
    let mut comment = crate::comment::Comment::default();
    comment.keep(head);
    let shown: Vec<&Finding> = report.shown().collect();
    // Each file's findings, the files with the worst first (in their order
    // otherwise): a comment cut to fit keeps the errors.
    let mut files: Vec<(String, Vec<&Finding>)> = Vec::new();
    let mut i = 0;
    while i < shown.len() {
        let file = paths.of(shown[i]);
        let same: Vec<&Finding> = shown[i..].iter().copied().take_while(|f| paths.of(f) == file).collect();
        i += same.len();
        files.push((file, same));
    }
    files.sort_by_key(|(_, same)| std::cmp::Reverse(same.iter().map(|f| f.severity).max()));
    for (file, same) in files {
        let mut folded = format!("<details><summary><code>{}</code> ({})</summary>\n\n", html_text(&file), same.len());
        for f in &same {
            let at = f.line.map(|l| format!(" line {l}")).unwrap_or_default();
            let _ =
                writeln!(folded, "- **{}** `{}` {}{at}: {}", f.severity.name(), f.code(), md(&f.rule), md(&f.message));
        }
        folded.push_str("\n</details>\n\n");
        comment.fold("file", folded, None);
    }
    comment.fit(limit, |cut| {
        let left_out = crate::comment::counted(cut.left_out_of("file"), "file's findings", "files' findings");
        let why = match cut.over {
            true => format!("the summary alone is longer than the {} characters `--max-chars` allows", cut.limit),
            false => format!("to keep this comment under {} characters (`--max-chars`)", cut.limit),
        };
        format!("> {left_out} left out, {why}: `skillscope check` lists them all.\n")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workflow_commands_escape_their_parts() {
        assert_eq!(escape_data("50% done\nnext"), "50%25 done%0Anext");
        assert_eq!(escape_property("a:b,c"), "a%3Ab%2Cc");
        assert_eq!(uri_path(Path::new("skills/my skill/SKILL.md")), "skills/my%20skill/SKILL.md");
        use std::os::unix::ffi::OsStrExt;
        let latin1 = Path::new(std::ffi::OsStr::from_bytes(b"skills/caf\xe9/SKILL.md"));
        assert_eq!(uri_path(latin1), "skills/caf%E9/SKILL.md");
        assert_eq!(md("<b>|x"), "&lt;b&gt;\\|x");
    }
}
