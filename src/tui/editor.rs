//! Opening a file in the user's editor at a line: the config file's
//! `editor`, else `$VISUAL`, else `$EDITOR`, else `vi`, split with
//! shell-word rules. Each known editor gets the line its own way (`+N FILE`,
//! `--goto FILE:N`, `FILE:N`, ...); a command with `{file}` and `{line}`
//! placeholders gets them filled in instead, so any other editor can be
//! taught. The editor is recognised by the file name of its program alone:
//! nothing is run or resolved to find out what it is.

use crate::engine::layers::{timestamp, write_back, DbLocation, DbSkill, WriteBack};
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

/// How an editor takes the line to open a file at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineSyntax {
    /// `+N FILE`: vi and its kin, nano, emacs, kak, micro, ...
    Plus,
    /// `FILE:N`: helix, zed, Sublime Text, Atom.
    Colon,
    /// `--goto FILE:N`: VS Code and its forks.
    Goto,
    /// `--line N FILE`: Kate, the JetBrains IDEs.
    LineOption,
    /// `-l N FILE`: TextMate's `mate`.
    MateLine,
    /// `-nN FILE`: Notepad++.
    NotepadPlusPlus,
    /// `FILE -g N`: jed applies an option to the file before it.
    JedGoto,
    /// `-line N FILE`: NEdit.
    NeditLine,
}

/// Editors by program name (lower case, without `.exe`), and how each takes
/// a line. After lazygit's editor presets, with more editors.
pub const PRESETS: &[(&str, LineSyntax)] = &[
    ("vi", LineSyntax::Plus),
    ("vim", LineSyntax::Plus),
    ("nvim", LineSyntax::Plus),
    ("gvim", LineSyntax::Plus),
    ("mvim", LineSyntax::Plus),
    ("lvim", LineSyntax::Plus),
    ("view", LineSyntax::Plus),
    ("nvi", LineSyntax::Plus),
    ("vis", LineSyntax::Plus),
    ("nano", LineSyntax::Plus),
    ("rnano", LineSyntax::Plus),
    ("pico", LineSyntax::Plus),
    ("emacs", LineSyntax::Plus),
    ("emacsclient", LineSyntax::Plus),
    ("zile", LineSyntax::Plus),
    ("mg", LineSyntax::Plus),
    ("kak", LineSyntax::Plus),
    ("micro", LineSyntax::Plus),
    ("joe", LineSyntax::Plus),
    ("jmacs", LineSyntax::Plus),
    ("jstar", LineSyntax::Plus),
    ("jpico", LineSyntax::Plus),
    ("rjoe", LineSyntax::Plus),
    ("jupp", LineSyntax::Plus),
    ("ne", LineSyntax::Plus),
    ("mcedit", LineSyntax::Plus),
    ("gedit", LineSyntax::Plus),
    ("pluma", LineSyntax::Plus),
    ("geany", LineSyntax::Plus),
    ("bbedit", LineSyntax::Plus),
    ("hx", LineSyntax::Colon),
    ("helix", LineSyntax::Colon),
    ("zed", LineSyntax::Colon),
    ("zeditor", LineSyntax::Colon),
    ("subl", LineSyntax::Colon),
    ("sublime_text", LineSyntax::Colon),
    ("sublime", LineSyntax::Colon),
    ("atom", LineSyntax::Colon),
    ("pulsar", LineSyntax::Colon),
    ("code", LineSyntax::Goto),
    ("code-insiders", LineSyntax::Goto),
    ("code-oss", LineSyntax::Goto),
    ("codium", LineSyntax::Goto),
    ("vscodium", LineSyntax::Goto),
    ("cursor", LineSyntax::Goto),
    ("windsurf", LineSyntax::Goto),
    ("kate", LineSyntax::LineOption),
    ("kwrite", LineSyntax::LineOption),
    ("idea", LineSyntax::LineOption),
    ("intellij-idea-community", LineSyntax::LineOption),
    ("intellij-idea-ultimate", LineSyntax::LineOption),
    ("pycharm", LineSyntax::LineOption),
    ("pycharm-community", LineSyntax::LineOption),
    ("pycharm-professional", LineSyntax::LineOption),
    ("charm", LineSyntax::LineOption),
    ("webstorm", LineSyntax::LineOption),
    ("phpstorm", LineSyntax::LineOption),
    ("goland", LineSyntax::LineOption),
    ("clion", LineSyntax::LineOption),
    ("rubymine", LineSyntax::LineOption),
    ("rider", LineSyntax::LineOption),
    ("datagrip", LineSyntax::LineOption),
    ("dataspell", LineSyntax::LineOption),
    ("rustrover", LineSyntax::LineOption),
    ("aqua", LineSyntax::LineOption),
    ("appcode", LineSyntax::LineOption),
    ("studio", LineSyntax::LineOption),
    ("mate", LineSyntax::MateLine),
    ("notepad++", LineSyntax::NotepadPlusPlus),
    ("jed", LineSyntax::JedGoto),
    ("xjed", LineSyntax::JedGoto),
    ("nedit", LineSyntax::NeditLine),
];

/// The placeholders an editor command may hold.
pub const FILE_PLACEHOLDER: &str = "{file}";
pub const LINE_PLACEHOLDER: &str = "{line}";

/// The editor to run, and whether it was told the line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EditorCommand {
    /// The program, then its arguments.
    pub words: Vec<OsString>,
    pub line: LineHandoff,
}

/// How the line reached the editor, or why it did not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LineHandoff {
    /// The editor was given the line.
    Passed,
    /// The editor is none skillscope knows and its command has no
    /// placeholders: it was given the file alone.
    UnknownEditor {
        /// The program's file name, as the user would recognise it.
        program: String,
    },
    /// The command has placeholders, but no `{line}`.
    NoLinePlaceholder {
        /// The command as written.
        spec: String,
    },
}

/// The command line that opens `file` at `line` in `editor` (a command as
/// the user wrote it, shell words; `None` is `vi`).
pub fn command(editor: Option<&str>, file: &Path, line: usize) -> Result<EditorCommand, SpecError> {
    let spec = editor.map(str::trim).filter(|e| !e.is_empty()).unwrap_or("vi");
    let mut split =
        shell_words::split(spec).map_err(|e| SpecError::Unparsable { spec: spec.to_owned(), reason: e.to_string() })?;
    if split.is_empty() {
        split.push("vi".into());
    }
    let file = file_argument(file);
    let line = line.max(1);
    let has = |placeholder: &str| split.iter().any(|w| w.contains(placeholder));
    if has(FILE_PLACEHOLDER) || has(LINE_PLACEHOLDER) {
        let handoff = if has(LINE_PLACEHOLDER) {
            LineHandoff::Passed
        } else {
            LineHandoff::NoLinePlaceholder { spec: spec.to_owned() }
        };
        let file_given = has(FILE_PLACEHOLDER);
        // Each shell word is filled in on its own, so a path with spaces
        // stays one argument.
        let mut words: Vec<OsString> = split.iter().map(|w| fill_placeholders(w, &file, line)).collect();
        if !file_given {
            words.push(file);
        }
        return Ok(EditorCommand { words, line: handoff });
    }
    let syntax = line_syntax(&split[0]);
    let shown = Path::new(&split[0]).file_name().map_or_else(|| split[0].clone(), |n| n.to_string_lossy().into());
    let mut words: Vec<OsString> = split.into_iter().map(OsString::from).collect();
    let Some(syntax) = syntax else {
        words.push(file);
        return Ok(EditorCommand { words, line: LineHandoff::UnknownEditor { program: shown } });
    };
    let n = line.to_string();
    let at_line = |file: &OsStr| {
        let mut joined = file.to_owned();
        joined.push(format!(":{n}"));
        joined
    };
    match syntax {
        LineSyntax::Plus => words.extend([format!("+{n}").into(), file]),
        LineSyntax::Colon => words.push(at_line(&file)),
        LineSyntax::Goto => words.extend(["--goto".into(), at_line(&file)]),
        LineSyntax::LineOption => words.extend(["--line".into(), n.into(), file]),
        LineSyntax::MateLine => words.extend(["-l".into(), n.into(), file]),
        LineSyntax::NotepadPlusPlus => words.extend([format!("-n{n}").into(), file]),
        LineSyntax::JedGoto => words.extend([file, "-g".into(), n.into()]),
        LineSyntax::NeditLine => words.extend(["-line".into(), n.into(), file]),
    }
    Ok(EditorCommand { words, line: LineHandoff::Passed })
}

/// How the editor run by `program` (a path or a name) takes a line, if
/// skillscope knows it. Names are compared in lower case without `.exe`;
/// a name not in [`PRESETS`] is tried without a suffix after its first dot
/// (`vim.basic`, `idea.sh`, `nvim.appimage`) and then without trailing
/// digits (`idea64`, `emacs-29.1`).
pub fn line_syntax(program: &str) -> Option<LineSyntax> {
    let name = program_name(OsStr::new(program));
    let lookup = |n: &str| PRESETS.iter().find(|(p, _)| *p == n).map(|(_, s)| *s);
    let stem = name.split('.').next().unwrap_or(&name);
    let unversioned = stem.trim_end_matches(|c: char| c.is_ascii_digit()).trim_end_matches('-');
    lookup(&name).or_else(|| lookup(stem)).or_else(|| lookup(unversioned))
}

/// The program's file name, lower case, without `.exe`.
fn program_name(program: &OsStr) -> String {
    let name = Path::new(program).file_name().unwrap_or(program).to_string_lossy().to_lowercase();
    match name.strip_suffix(".exe") {
        Some(stem) => stem.to_owned(),
        None => name,
    }
}

/// The file as an argument no editor reads as an option or a command: a
/// relative path starting with `-` or `+` gets a leading `./`.
fn file_argument(file: &Path) -> OsString {
    let text = file.as_os_str().to_string_lossy();
    if file.is_relative() && (text.starts_with('-') || text.starts_with('+')) {
        return Path::new(".").join(file).into_os_string();
    }
    file.as_os_str().to_owned()
}

/// One shell word with `{file}` and `{line}` filled in, in one pass: a path
/// that itself holds `{line}` is not filled in again.
fn fill_placeholders(word: &str, file: &OsStr, line: usize) -> OsString {
    let mut out = OsString::new();
    let mut rest = word;
    loop {
        let next =
            [FILE_PLACEHOLDER, LINE_PLACEHOLDER].into_iter().filter_map(|p| rest.find(p).map(|at| (at, p))).min();
        let Some((at, placeholder)) = next else { break };
        out.push(&rest[..at]);
        if placeholder == FILE_PLACEHOLDER {
            out.push(file);
        } else {
            out.push(line.to_string());
        }
        rest = &rest[at + placeholder.len()..];
    }
    out.push(rest);
    out
}

/// What is wrong with an editor command: as the config file gives it
/// (checked when the file is read), or as it is about to be run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    #[error("cannot parse the editor command {spec:?}: {reason}")]
    Unparsable { spec: String, reason: String },
    #[error("editor {spec:?} is not a command: {reason}")]
    NotACommand { spec: String, reason: String },
    #[error("editor has an unknown placeholder {{{0}}} (skillscope fills in {{file}} and {{line}})")]
    UnknownPlaceholder(String),
}

/// Checks an editor command from the config file: that it splits into
/// shell words, and that every `{name}` in it is a placeholder skillscope
/// fills in (a misspelt `{lines}` would otherwise reach the editor as is).
pub fn check_spec(spec: &str) -> Result<(), SpecError> {
    let words = shell_words::split(spec)
        .map_err(|e| SpecError::NotACommand { spec: spec.to_owned(), reason: e.to_string() })?;
    for word in &words {
        let mut rest = word.as_str();
        while let Some(open) = rest.find('{') {
            let after = &rest[open + 1..];
            let Some(close) = after.find('}') else { break };
            let name = &after[..close];
            let looks_like_placeholder =
                !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            if looks_like_placeholder && name != "file" && name != "line" {
                return Err(SpecError::UnknownPlaceholder(name.to_owned()));
            }
            rest = &after[close + 1..];
        }
    }
    Ok(())
}

impl EditorCommand {
    /// Whether the editor was given the line.
    pub fn line_passed(&self) -> bool {
        self.line == LineHandoff::Passed
    }

    /// What the status line says after the editor returns when the line
    /// could not be passed, and how to fix it; `None` when the line went
    /// through or nothing was lost (line 1). `config` is the config file
    /// the fix goes into.
    pub fn line_notice(&self, file: &Path, line: usize, config: Option<&Path>) -> Option<String> {
        if line <= 1 {
            return None;
        }
        let name = file.file_name().map_or_else(|| file.display().to_string(), |n| n.to_string_lossy().into_owned());
        let opened = format!("opened {name} at its top, not line {line}");
        let config = config.map_or_else(|| "skillscope's config.toml".to_owned(), shorten_home);
        match &self.line {
            LineHandoff::Passed => None,
            LineHandoff::UnknownEditor { program } => Some(format!(
                "{opened} (how {program} takes a line is not known): set editor = \"{program} … {{line}} {{file}}\" in {config}"
            )),
            LineHandoff::NoLinePlaceholder { spec } => {
                Some(format!("{opened}: the editor command {spec:?} has no {{line}}; add one in {config}"))
            }
        }
    }
}

/// A path with the user's home written `~`.
fn shorten_home(path: &Path) -> String {
    let home = std::env::var_os("HOME").filter(|h| !h.is_empty()).map(PathBuf::from);
    match home.as_deref().and_then(|h| path.strip_prefix(h).ok()) {
        Some(rest) => format!("~/{}", rest.display()),
        None => path.display().to_string(),
    }
}

/// Resolves the editor from the environment.
pub fn from_env() -> Option<String> {
    ["VISUAL", "EDITOR"].iter().find_map(|k| std::env::var(k).ok().filter(|v| !v.trim().is_empty()))
}

/// Edits a database skill: `edit` runs the editor on a temporary copy of the
/// row's content; a clean exit with changes writes the row back (see
/// [`write_back`]). Returns the notice to show.
pub fn edit_db_skill<E: std::fmt::Display>(
    row: &DbSkill,
    db: &DbLocation,
    edit: impl FnOnce(&Path) -> Result<(), E>,
) -> String {
    let file = tempfile::Builder::new().prefix(&format!("skillscope-db-{}-", row.id)).suffix(".md").tempfile();
    let file = match file.and_then(|f| std::fs::write(f.path(), &row.content).map(|_| f)) {
        Ok(f) => f,
        Err(e) => return format!("cannot write a temporary copy of {}: {e}", row.name),
    };
    if let Err(e) = edit(file.path()) {
        return format!("{e}; database skill {} left as it was", row.name);
    }
    let edited = match std::fs::read_to_string(file.path()) {
        Ok(t) => t,
        Err(e) => return format!("cannot read the edited copy of {}: {e}", row.name),
    };
    match write_back(db, row, &edited, &timestamp()) {
        Ok(WriteBack::Unchanged) => format!("{}: no changes", row.name),
        Ok(WriteBack::Saved { .. }) => format!("Saved {} to {db}", row.name),
        Ok(WriteBack::Conflict { kept }) => format!(
            "{} changed in the database meanwhile: nothing overwritten; your edit is in {}",
            row.name,
            kept.display()
        ),
        // The edit must survive a failed write: keep the copy.
        Err(e) => match file.keep() {
            Ok((_, kept)) => format!("{} not saved: {e}; your edit is in {}", row.name, kept.display()),
            Err(k) => format!("{} not saved: {e}; the edited copy is lost: {k}", row.name),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = "/s/SKILL.md";

    fn words(editor: Option<&str>, file: &str, line: usize) -> Vec<String> {
        let command = command(editor, Path::new(file), line).expect("command");
        command.words.iter().map(|w| w.to_string_lossy().into_owned()).collect()
    }

    fn cmd(editor: &str) -> Vec<String> {
        words(Some(editor), FILE, 7)
    }

    /// The arguments each kind of editor is given after its own words.
    fn expected(syntax: LineSyntax) -> Vec<&'static str> {
        match syntax {
            LineSyntax::Plus => vec!["+7", FILE],
            LineSyntax::Colon => vec!["/s/SKILL.md:7"],
            LineSyntax::Goto => vec!["--goto", "/s/SKILL.md:7"],
            LineSyntax::LineOption => vec!["--line", "7", FILE],
            LineSyntax::MateLine => vec!["-l", "7", FILE],
            LineSyntax::NotepadPlusPlus => vec!["-n7", FILE],
            LineSyntax::JedGoto => vec![FILE, "-g", "7"],
            LineSyntax::NeditLine => vec!["-line", "7", FILE],
        }
    }

    #[test]
    fn every_preset_gets_the_line_its_own_way() {
        for (name, syntax) in PRESETS {
            let command = command(Some(name), Path::new(FILE), 7).expect("command");
            assert!(command.line_passed(), "{name}");
            let got: Vec<String> = command.words.iter().map(|w| w.to_string_lossy().into_owned()).collect();
            let mut want = vec![name.to_string()];
            want.extend(expected(*syntax).into_iter().map(str::to_owned));
            assert_eq!(got, want, "{name}");
        }
    }

    #[test]
    fn the_common_editors() {
        assert_eq!(words(None, FILE, 7), ["vi", "+7", FILE]);
        assert_eq!(cmd("vim"), ["vim", "+7", FILE]);
        assert_eq!(cmd("nvim"), ["nvim", "+7", FILE]);
        assert_eq!(cmd("nano"), ["nano", "+7", FILE]);
        assert_eq!(cmd("emacs -nw"), ["emacs", "-nw", "+7", FILE]);
        assert_eq!(cmd("emacsclient -t"), ["emacsclient", "-t", "+7", FILE]);
        assert_eq!(cmd("emacsclient -nw -a ''"), ["emacsclient", "-nw", "-a", "", "+7", FILE]);
        assert_eq!(cmd("kak"), ["kak", "+7", FILE]);
        assert_eq!(cmd("micro"), ["micro", "+7", FILE]);
        assert_eq!(cmd("/usr/bin/hx"), ["/usr/bin/hx", "/s/SKILL.md:7"]);
        assert_eq!(cmd("helix"), ["helix", "/s/SKILL.md:7"]);
        assert_eq!(cmd("code --wait"), ["code", "--wait", "--goto", "/s/SKILL.md:7"]);
        assert_eq!(cmd("cursor -w"), ["cursor", "-w", "--goto", "/s/SKILL.md:7"]);
        assert_eq!(cmd("zed --wait"), ["zed", "--wait", "/s/SKILL.md:7"]);
        assert_eq!(cmd("subl -w"), ["subl", "-w", "/s/SKILL.md:7"]);
        assert_eq!(cmd("mate -w"), ["mate", "-w", "-l", "7", FILE]);
        assert_eq!(cmd("idea"), ["idea", "--line", "7", FILE]);
        assert_eq!(cmd("jed"), ["jed", FILE, "-g", "7"]);
        assert_eq!(
            cmd("'C:/Program Files/Notepad++/notepad++.exe'"),
            ["C:/Program Files/Notepad++/notepad++.exe", "-n7", FILE]
        );
    }

    #[test]
    fn program_names_are_matched_by_their_file_name() {
        assert_eq!(line_syntax("/usr/bin/vim.basic"), Some(LineSyntax::Plus), "Debian's alternatives");
        assert_eq!(line_syntax("vim.tiny"), Some(LineSyntax::Plus));
        assert_eq!(line_syntax("nvim.appimage"), Some(LineSyntax::Plus));
        assert_eq!(line_syntax("emacs-29.1"), Some(LineSyntax::Plus));
        assert_eq!(line_syntax("/opt/idea/bin/idea.sh"), Some(LineSyntax::LineOption));
        assert_eq!(line_syntax("idea64.exe"), Some(LineSyntax::LineOption));
        assert_eq!(line_syntax("pycharm.sh"), Some(LineSyntax::LineOption));
        assert_eq!(line_syntax("Code.exe"), Some(LineSyntax::Goto));
        assert_eq!(
            line_syntax("/Applications/Sublime Text.app/Contents/SharedSupport/bin/subl"),
            Some(LineSyntax::Colon)
        );
        assert_eq!(line_syntax("code-insiders"), Some(LineSyntax::Goto));
        assert_eq!(line_syntax("fake-editor"), None);
        assert_eq!(line_syntax("microsoft-edit"), None, "whole names only");
        assert_eq!(line_syntax(""), None);
    }

    #[test]
    fn an_unknown_editor_gets_the_file_and_says_so() {
        let command = command(Some("/opt/bin/fake-editor --flag"), Path::new(FILE), 286).expect("command");
        let got: Vec<String> = command.words.iter().map(|w| w.to_string_lossy().into_owned()).collect();
        assert_eq!(got, ["/opt/bin/fake-editor", "--flag", FILE]);
        assert_eq!(command.line, LineHandoff::UnknownEditor { program: "fake-editor".into() });
        let notice = command.line_notice(Path::new(FILE), 286, Some(Path::new("/c/skillscope/config.toml")));
        assert_eq!(
            notice.as_deref(),
            Some("opened SKILL.md at its top, not line 286 (how fake-editor takes a line is not known): set editor = \"fake-editor … {line} {file}\" in /c/skillscope/config.toml")
        );
        assert_eq!(command.line_notice(Path::new(FILE), 1, None), None, "line 1 loses nothing");
        let passed = super::command(Some("vim"), Path::new(FILE), 286).expect("command");
        assert_eq!(passed.line_notice(Path::new(FILE), 286, None), None);
    }

    #[test]
    fn placeholders_are_filled_in_per_shell_word() {
        let spaced = "/home/a b/skills/{line}/SKILL.md";
        assert_eq!(words(Some("myedit --line {line} {file}"), spaced, 12), ["myedit", "--line", "12", spaced]);
        assert_eq!(
            words(Some("myedit '{file}:{line}'"), spaced, 12),
            ["myedit", "/home/a b/skills/{line}/SKILL.md:12"]
        );
        assert_eq!(words(Some("myedit --at={line},{line} -- {file}"), FILE, 3), ["myedit", "--at=3,3", "--", FILE]);
        assert_eq!(words(Some("\"/opt/my editor/run\" {file}"), FILE, 3), ["/opt/my editor/run", FILE]);
        // Placeholders win over a preset: the user said how.
        assert_eq!(words(Some("vim -c {line} {file}"), FILE, 4), ["vim", "-c", "4", FILE]);
        // `{line}` alone: the file goes last.
        assert_eq!(words(Some("myedit -l {line}"), FILE, 4), ["myedit", "-l", "4", FILE]);
        let no_line = command(Some("myedit {file}"), Path::new(FILE), 9).expect("command");
        assert_eq!(no_line.line, LineHandoff::NoLinePlaceholder { spec: "myedit {file}".into() });
        let notice = no_line.line_notice(Path::new(FILE), 9, None).unwrap_or_default();
        assert!(notice.contains("has no {line}") && notice.contains("skillscope's config.toml"), "{notice}");
    }

    #[test]
    fn files_that_look_like_options_stay_files() {
        assert_eq!(words(Some("vim"), "-x/SKILL.md", 2), ["vim", "+2", "./-x/SKILL.md"]);
        assert_eq!(words(Some("nano"), "+5", 2), ["nano", "+2", "./+5"]);
        assert_eq!(words(Some("vim"), "/-x/SKILL.md", 2), ["vim", "+2", "/-x/SKILL.md"]);
    }

    #[test]
    fn bad_commands() {
        assert!(command(Some("vim 'unclosed"), Path::new("f"), 1).is_err());
        assert_eq!(words(Some("  "), FILE, 2), ["vi", "+2", FILE]);
        assert_eq!(words(Some("''"), FILE, 2), ["", FILE], "an empty program is left for the spawn to refuse");
        assert!(check_spec("myedit --line {line} {file}").is_ok());
        assert!(check_spec("vim -c 'set ft={}'").is_ok(), "braces that name nothing are the editor's");
        let typo = check_spec("myedit --line {lines} {file}").unwrap_err();
        assert_eq!(typo, SpecError::UnknownPlaceholder("lines".into()));
        assert!(typo.to_string().contains("{lines}"), "{typo}");
        assert!(check_spec("vim 'unclosed").is_err());
    }

    #[cfg(unix)]
    #[test]
    fn paths_that_are_not_utf8_reach_the_editor_intact() {
        use std::os::unix::ffi::OsStrExt;
        let file = Path::new(OsStr::from_bytes(b"/s/\xff/SKILL.md"));
        let command = command(Some("hx"), file, 3).expect("command");
        assert_eq!(command.words[1].as_bytes(), b"/s/\xff/SKILL.md:3");
        let filled = super::command(Some("ed {file}"), file, 3).expect("command");
        assert_eq!(filled.words[1].as_bytes(), b"/s/\xff/SKILL.md");
    }
}
