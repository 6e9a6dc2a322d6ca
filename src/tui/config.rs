//! The user's config file, `$XDG_CONFIG_HOME/skillscope/config.toml`
//! (else `~/.config/skillscope/config.toml`): editor, pager, colours and
//! key bindings. A file that cannot be used is named with the line at
//! fault in the status line, and the defaults stay in force.
//!
//! ```toml
//! editor = "nvim"            # over $VISUAL / $EDITOR; or "myedit --line {line} {file}"
//! pager = "less -R"          # over $PAGER
//!
//! [theme]
//! colors = "auto"            # auto, truecolor, 256, 16 or none
//! accent = "#61afef"         # or a name: blue, light-cyan, ...
//!
//! [keys]                     # action = key or [keys]; see `?` for actions
//! quit = ["q", "ctrl-q"]
//! search = "/"
//! ```

use super::app::App;
use super::keymap::{action_named, action_names, Action, KeySpec, Keymap};
use super::theme::{ColorMode, Theme};
use ratatui::style::Color;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use toml::Spanned;

/// The entries of the file, each read where it is known; an unknown one is
/// found by its [`EntryNames`] and skipped, the rest kept.
#[derive(Debug, Default, Deserialize)]
struct FileConfig {
    editor: Option<Spanned<String>>,
    pager: Option<String>,
    #[serde(default)]
    theme: ThemeConfig,
    #[serde(default)]
    keys: BTreeMap<String, Spanned<KeyList>>,
}

#[derive(Debug, Default, Deserialize)]
struct ThemeConfig {
    colors: Option<Spanned<String>>,
    accent: Option<Spanned<String>>,
    heading: Option<Spanned<String>>,
    dim: Option<Spanned<String>>,
    ok: Option<Spanned<String>>,
    warn: Option<Spanned<String>>,
    error: Option<Spanned<String>>,
    code: Option<Spanned<String>>,
    link: Option<Spanned<String>>,
    matched: Option<Spanned<String>>,
}

/// The names a table of the file gives, where they are: what
/// [`FileConfig`] does not know is said.
type EntryNames = BTreeMap<Spanned<String>, serde::de::IgnoredAny>;

/// The names `[theme]` gives.
#[derive(Debug, Default, Deserialize)]
struct ThemeNames {
    #[serde(default)]
    theme: EntryNames,
}

const ENTRIES: [&str; 4] = ["editor", "pager", "theme", "keys"];
const THEME_ENTRIES: [&str; 10] =
    ["colors", "accent", "heading", "dim", "ok", "warn", "error", "code", "link", "matched"];

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum KeyList {
    One(String),
    Many(Vec<String>),
}

/// Colour slots a config file may set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    Accent,
    Heading,
    Dim,
    Ok,
    Warn,
    Error,
    Code,
    Link,
    Matched,
}

/// A colour as written: `#rrggbb`, or a terminal colour's name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColorSpec {
    Rgb(u8, u8, u8),
    Named(Color),
}

/// The config in force.
#[derive(Debug, Default)]
pub struct UserConfig {
    pub path: Option<PathBuf>,
    pub editor: Option<String>,
    pub pager: Option<String>,
    pub color_mode: Option<ColorMode>,
    pub colors: Vec<(Slot, ColorSpec)>,
    pub keys: Vec<(Action, Vec<KeySpec>)>,
    /// What was wrong with the file, naming it and the line: the first
    /// problem, for the status line.
    pub problem: Option<String>,
    /// Every problem, each naming the file and line (the help lists them).
    pub problems: Vec<String>,
}

/// Where the config file is looked for.
pub fn config_path() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CONFIG_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").filter(|v| !v.is_empty()).map(|h| PathBuf::from(h).join(".config")))?;
    Some(base.join("skillscope/config.toml"))
}

/// Reads the user's config file; a missing file is the defaults.
pub fn load_user_config() -> UserConfig {
    let Some(path) = config_path() else { return UserConfig::default() };
    match std::fs::read(&path) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(text) => parse(&path, &text),
            Err(_) => problem(&path, None, "not UTF-8 text"),
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => UserConfig::default(),
        Err(e) => problem(&path, None, &e.to_string()),
    }
}

fn problem(path: &Path, line: Option<usize>, message: &str) -> UserConfig {
    let at = line.map_or(String::new(), |l| format!(":{l}"));
    let said = format!("config {}{at}: {message}; defaults used", path.display());
    UserConfig {
        path: Some(path.to_path_buf()),
        problem: Some(said.clone()),
        problems: vec![said],
        ..UserConfig::default()
    }
}

fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

/// Parses a config file's text.
pub fn parse(path: &Path, text: &str) -> UserConfig {
    let file: FileConfig = match toml::from_str(text) {
        Ok(f) => f,
        Err(e) => {
            let line = e.span().map(|s| line_of(text, s.start));
            return problem(path, line, e.message().trim());
        }
    };
    let mut config = UserConfig { path: Some(path.to_path_buf()), pager: file.pager, ..UserConfig::default() };
    let mut errors: Vec<(usize, String)> = Vec::new();
    // Entries this version does not know (a newer one's, a typo) are
    // skipped, each said with its line.
    let top = toml::from_str::<EntryNames>(text).unwrap_or_default();
    let theme = toml::from_str::<ThemeNames>(text).map(|n| n.theme).unwrap_or_default();
    let unknown = |names: EntryNames, known: &[&str], within: &str| {
        let list = known.join(", ");
        names
            .into_keys()
            .filter(|name| !known.contains(&name.get_ref().as_str()))
            .map(|name| {
                (line_of(text, name.span().start), format!("unknown entry {:?}{within} ({list})", name.get_ref()))
            })
            .collect::<Vec<_>>()
    };
    errors.extend(unknown(top, &ENTRIES, ""));
    errors.extend(unknown(theme, &THEME_ENTRIES, " in [theme]"));
    if let Some(editor) = file.editor {
        // Checked now rather than when `e` is pressed, so the line at fault
        // can be named; $VISUAL / $EDITOR stay in force meanwhile.
        match super::editor::check_spec(editor.get_ref()) {
            Ok(()) => config.editor = Some(editor.into_inner()),
            Err(e) => errors.push((line_of(text, editor.span().start), e.to_string())),
        }
    }
    let t = &file.theme;
    if let Some(colors) = &t.colors {
        match colors.get_ref().as_str() {
            "auto" => {}
            "truecolor" | "24bit" => config.color_mode = Some(ColorMode::TrueColor),
            "256" => config.color_mode = Some(ColorMode::Ansi256),
            "16" => config.color_mode = Some(ColorMode::Ansi16),
            "none" => config.color_mode = Some(ColorMode::NoColor),
            other => errors.push((
                line_of(text, colors.span().start),
                format!("theme.colors {other:?} is not auto, truecolor, 256, 16 or none"),
            )),
        }
    }
    let slots = [
        (Slot::Accent, &t.accent, "accent"),
        (Slot::Heading, &t.heading, "heading"),
        (Slot::Dim, &t.dim, "dim"),
        (Slot::Ok, &t.ok, "ok"),
        (Slot::Warn, &t.warn, "warn"),
        (Slot::Error, &t.error, "error"),
        (Slot::Code, &t.code, "code"),
        (Slot::Link, &t.link, "link"),
        (Slot::Matched, &t.matched, "matched"),
    ];
    for (slot, value, name) in slots {
        let Some(value) = value else { continue };
        match parse_color(value.get_ref()) {
            Some(c) => config.colors.push((slot, c)),
            None => errors.push((
                line_of(text, value.span().start),
                format!("theme.{name} {:?} is not a colour (#rrggbb or a name such as blue)", value.get_ref()),
            )),
        }
    }
    for (name, keys) in &file.keys {
        let line = line_of(text, keys.span().start);
        let Some(action) = action_named(name) else {
            errors.push((line, format!("unknown action {name:?} in [keys] (actions: {})", action_names().join(", "))));
            continue;
        };
        let specs: Vec<&String> = match keys.get_ref() {
            KeyList::One(k) => vec![k],
            KeyList::Many(ks) => ks.iter().collect(),
        };
        match specs.into_iter().map(|k| KeySpec::parse(k)).collect::<Result<Vec<_>, _>>() {
            Ok(parsed) if !parsed.is_empty() => config.keys.push((action, parsed)),
            Ok(_) => errors.push((line, format!("no key given for {name:?}"))),
            Err(e) => errors.push((line, e.to_string())),
        }
    }
    errors.sort_by_key(|(line, _)| *line);
    config.problems =
        errors.iter().map(|(line, e)| format!("config {}:{line}: {e}; that entry ignored", path.display())).collect();
    if let Some((line, first)) = errors.first() {
        let more = match errors.len() {
            1 => String::new(),
            n => format!(" ({} more: ? lists them)", n - 1),
        };
        config.problem = Some(format!("config {}:{line}: {first}; that entry ignored{more}", path.display()));
    }
    config
}

fn parse_color(text: &str) -> Option<ColorSpec> {
    let t = text.trim().to_ascii_lowercase();
    if let Some(hex) = t.strip_prefix('#') {
        if hex.len() == 6 && hex.chars().all(|c| c.is_ascii_hexdigit()) {
            let n = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok();
            return Some(ColorSpec::Rgb(n(0)?, n(2)?, n(4)?));
        }
        return None;
    }
    let named = match t.replace('_', "-").as_str() {
        "black" => Color::Black,
        "red" => Color::Red,
        "green" => Color::Green,
        "yellow" => Color::Yellow,
        "blue" => Color::Blue,
        "magenta" => Color::Magenta,
        "cyan" => Color::Cyan,
        "gray" | "grey" => Color::Gray,
        "dark-gray" | "dark-grey" => Color::DarkGray,
        "light-red" => Color::LightRed,
        "light-green" => Color::LightGreen,
        "light-yellow" => Color::LightYellow,
        "light-blue" => Color::LightBlue,
        "light-magenta" => Color::LightMagenta,
        "light-cyan" => Color::LightCyan,
        "white" => Color::White,
        _ => return None,
    };
    Some(ColorSpec::Named(named))
}

impl UserConfig {
    /// The theme: the configured colour depth (else `detected`) and colours.
    pub fn theme(&self, detected: ColorMode) -> Theme {
        let mode = if detected == ColorMode::NoColor { detected } else { self.color_mode.unwrap_or(detected) };
        let mut theme = Theme::new(mode);
        for (slot, spec) in &self.colors {
            let color = match *spec {
                ColorSpec::Rgb(r, g, b) => mode.color((r, g, b)),
                ColorSpec::Named(c) if mode != ColorMode::NoColor => Some(c),
                ColorSpec::Named(_) => None,
            };
            let Some(color) = color else { continue };
            let style = match slot {
                Slot::Accent => &mut theme.accent,
                Slot::Heading => &mut theme.heading,
                Slot::Dim => &mut theme.dim,
                Slot::Ok => &mut theme.ok,
                Slot::Warn => &mut theme.warn,
                Slot::Error => &mut theme.error,
                Slot::Code => &mut theme.code,
                Slot::Link => &mut theme.link,
                Slot::Matched => &mut theme.matched,
            };
            *style = style.fg(color);
        }
        theme
    }

    /// Hands the editor, pager, keys and any problem to the browser.
    pub fn apply(&self, app: &mut App) {
        app.prefs.editor.clone_from(&self.editor);
        app.prefs.pager.clone_from(&self.pager);
        app.prefs.keymap = Keymap::with_overrides(self.keys.clone());
        app.prefs.config_note.clone_from(&self.problem);
        app.prefs.config_problems.clone_from(&self.problems);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(text: &str) -> UserConfig {
        parse(Path::new("/c/config.toml"), text)
    }

    #[test]
    fn a_full_config() {
        let c = cfg("editor = \"hx\"\npager = \"bat\"\n[theme]\ncolors = \"16\"\naccent = \"#ff0000\"\nok = \"light-green\"\n[keys]\nquit = [\"q\", \"ctrl-q\"]\nsearch = \"s\"\n");
        assert_eq!(c.problem, None);
        assert_eq!(c.editor.as_deref(), Some("hx"));
        let template = cfg("editor = \"myedit --line {line} '{file}'\"\n");
        assert_eq!((template.problem, template.editor.as_deref()), (None, Some("myedit --line {line} '{file}'")));
        assert_eq!(c.pager.as_deref(), Some("bat"));
        assert_eq!(c.color_mode, Some(ColorMode::Ansi16));
        assert_eq!(c.colors.len(), 2);
        assert_eq!(c.keys.len(), 2);
        let theme = c.theme(ColorMode::TrueColor);
        assert_eq!(theme.ok.fg, Some(Color::LightGreen));
        assert_eq!(theme.accent.fg, Some(Color::LightRed), "16 colours: the nearest named one");
        assert_eq!(c.theme(ColorMode::NoColor).accent.fg, None, "NO_COLOR wins");
    }

    #[test]
    fn errors_name_the_file_and_line() {
        let syntax = cfg("editor = \"vim\"\n[keys\nquit = \"q\"\n");
        assert!(syntax.problem.as_deref().is_some_and(|p| p.starts_with("config /c/config.toml:2: ")), "{syntax:?}");
        assert_eq!(syntax.editor, None, "a file that does not parse is not used");
        let unknown = cfg("[keys]\nquit = \"q\"\nfly = \"f\"\n");
        let p = unknown.problem.clone().unwrap_or_default();
        assert!(p.starts_with("config /c/config.toml:3: unknown action \"fly\""), "{p}");
        assert_eq!(unknown.keys.len(), 1, "the good entry is kept");
        let field = cfg("\n\nfont = \"x\"\n[theme]\nbold = \"red\"\nok = \"green\"\n[keys]\nquit = \"ctrl-q\"\n");
        assert_eq!(
            field.problems,
            [
                "config /c/config.toml:3: unknown entry \"font\" (editor, pager, theme, keys); that entry ignored",
                "config /c/config.toml:5: unknown entry \"bold\" in [theme] (colors, accent, heading, dim, ok, warn, error, code, link, matched); that entry ignored",
            ],
        );
        assert_eq!((field.keys.len(), field.colors.len()), (1, 1), "the known entries are kept");
        let editor = cfg("pager = \"less\"\neditor = \"myedit --line {lines} {file}\"\n");
        assert!(
            editor.problem.as_deref().is_some_and(|p| p.contains(":2: editor has an unknown placeholder {lines}")),
            "{editor:?}"
        );
        assert_eq!((editor.editor, editor.pager.as_deref()), (None, Some("less")), "the rest is kept");
        let color = cfg("[theme]\naccent = \"#12\"\n");
        assert!(color.problem.as_deref().is_some_and(|p| p.contains(":2: theme.accent")), "{color:?}");
        let key = cfg("[keys]\nquit = \"hyper-q\"\n");
        assert!(key.problem.as_deref().is_some_and(|p| p.contains(":2: unknown key")), "{key:?}");
        let two = cfg("[theme]\naccent = \"#12\"\n[keys]\nfly = \"f\"\n");
        assert!(two.problem.as_deref().is_some_and(|p| p.ends_with("(1 more: ? lists them)")), "{two:?}");
        assert_eq!(two.problems.len(), 2, "every problem is kept for the help");
        assert!(two.problems[1].starts_with("config /c/config.toml:4: unknown action \"fly\""), "{two:?}");
    }
}
