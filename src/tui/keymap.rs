//! Key bindings with their descriptions. The help overlay and the status
//! bar hints are generated from this table, so they cannot go stale. A
//! user's config file may rebind the browsing actions ([`Keymap`]).

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// What the user asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    Up,
    Down,
    Collapse,
    Expand,
    Top,
    Bottom,
    PageUp,
    PageDown,
    HalfPageUp,
    HalfPageDown,
    ScrollViewUp,
    ScrollViewDown,
    ScrollLeft,
    ScrollRight,
    Activate,
    SwitchFocus,
    StartSearch,
    SearchView,
    NextMatch,
    PrevMatch,
    NextBackend,
    PrevBackend,
    NextView,
    PrevView,
    View(usize),
    ToggleRaw,
    SystemPrompt,
    CycleSort,
    TogglePosture,
    ToggleSinceDiff,
    ToggleSince,
    NextPlatform,
    OpenEditor,
    Copy,
    CopyMenu,
    Pager,
    Rescan,
    DiagnosticsScope,
    DiagnosticsSeverity,
    Help,
    Back,
    Quit,
}

/// Where a binding applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Browsing: the tree or the view has the keyboard.
    Normal,
    /// Typing in a prompt (search the skills, search the view, filter help).
    Prompt,
    /// The help overlay is open.
    Help,
    /// The copy menu is open.
    CopyMenu,
}

/// A key as written in the keymap and the config file: `q`, `ctrl-c`,
/// `alt-b`, `enter`, `pgdn`, `f1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeySpec {
    pub code: KeyCode,
    pub ctrl: bool,
    pub alt: bool,
}

/// A key name in the config file that names no key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown key {0:?} (examples: q, G, ctrl-f, alt-b, enter, pgdn, f1)")]
pub struct UnknownKey(pub String);

impl KeySpec {
    pub fn parse(text: &str) -> Result<KeySpec, UnknownKey> {
        let mut ctrl = false;
        let mut alt = false;
        let mut rest = text.trim();
        loop {
            let lower = rest.to_ascii_lowercase();
            if let Some(r) = lower.strip_prefix("ctrl-").or_else(|| lower.strip_prefix("c-")) {
                ctrl = true;
                rest = &rest[rest.len() - r.len()..];
            } else if let Some(r) = lower.strip_prefix("alt-").or_else(|| lower.strip_prefix("m-")) {
                alt = true;
                rest = &rest[rest.len() - r.len()..];
            } else {
                break;
            }
        }
        let named = match rest.to_ascii_lowercase().as_str() {
            "enter" | "return" => Some(KeyCode::Enter),
            "esc" | "escape" => Some(KeyCode::Esc),
            "tab" => Some(KeyCode::Tab),
            "backtab" => Some(KeyCode::BackTab),
            "space" => Some(KeyCode::Char(' ')),
            "backspace" => Some(KeyCode::Backspace),
            "up" => Some(KeyCode::Up),
            "down" => Some(KeyCode::Down),
            "left" => Some(KeyCode::Left),
            "right" => Some(KeyCode::Right),
            "home" => Some(KeyCode::Home),
            "end" => Some(KeyCode::End),
            "pgup" | "pageup" => Some(KeyCode::PageUp),
            "pgdn" | "pagedown" => Some(KeyCode::PageDown),
            "delete" | "del" => Some(KeyCode::Delete),
            f if f.len() >= 2 && f.starts_with('f') && f[1..].parse::<u8>().is_ok_and(|n| (1..=12).contains(&n)) => {
                f[1..].parse().ok().map(KeyCode::F)
            }
            _ => None,
        };
        let code = match named {
            Some(code) => code,
            None => {
                let mut chars = rest.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) => KeyCode::Char(if ctrl { c.to_ascii_lowercase() } else { c }),
                    _ => return Err(UnknownKey(text.to_owned())),
                }
            }
        };
        Ok(KeySpec { code, ctrl, alt })
    }

    pub fn matches(&self, key: &KeyEvent) -> bool {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        let alt = key.modifiers.contains(KeyModifiers::ALT);
        key.code == self.code && ctrl == self.ctrl && alt == self.alt
    }

    /// As the help shows it.
    pub fn label(&self) -> String {
        let key = match self.code {
            KeyCode::Char(' ') => "Space".to_owned(),
            KeyCode::Char(c) => c.to_string(),
            KeyCode::F(n) => format!("F{n}"),
            KeyCode::PageUp => "PgUp".into(),
            KeyCode::PageDown => "PgDn".into(),
            other => format!("{other:?}"),
        };
        format!("{}{}{key}", if self.ctrl { "Ctrl-" } else { "" }, if self.alt { "Alt-" } else { "" })
    }
}

pub struct Binding {
    pub keys: &'static str,
    pub mode: Mode,
    pub action: Action,
    /// The name a config file rebinds it by (browsing actions only).
    pub name: &'static str,
    pub desc: &'static str,
    matcher: fn(&KeyEvent) -> bool,
}

fn plain(k: &KeyEvent, c: char) -> bool {
    k.code == KeyCode::Char(c) && !k.modifiers.intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
}

fn ctrl(k: &KeyEvent, c: char) -> bool {
    k.code == KeyCode::Char(c) && k.modifiers.contains(KeyModifiers::CONTROL)
}

macro_rules! bind {
    ($keys:expr, $mode:expr, $action:expr, $name:expr, $desc:expr, |$k:ident| $m:expr) => {
        Binding { keys: $keys, mode: $mode, action: $action, name: $name, desc: $desc, matcher: |$k: &KeyEvent| $m }
    };
}

use Mode::{CopyMenu as MenuMode, Help as HelpMode, Normal, Prompt};

/// The default keymap (arrows and vim keys both work).
pub static BINDINGS: &[Binding] = &[
    bind!("j ↓", Normal, Action::Down, "down", "move down (scroll the view when it has focus)", |k| plain(k, 'j')
        || k.code == KeyCode::Down),
    bind!("k ↑", Normal, Action::Up, "up", "move up (scroll the view when it has focus)", |k| plain(k, 'k')
        || k.code == KeyCode::Up),
    bind!(
        "h ←",
        Normal,
        Action::Collapse,
        "left",
        "collapse or go to the parent; in the view: scroll left, then back",
        |k| { plain(k, 'h') || k.code == KeyCode::Left }
    ),
    bind!("l →", Normal, Action::Expand, "right", "expand or enter; in the view: scroll long lines right", |k| plain(
        k, 'l'
    ) || k
        .code
        == KeyCode::Right),
    bind!("H L", Normal, Action::ScrollRight, "scroll-right", "scroll long lines (code) left / right", |k| k.code
        == KeyCode::Char('L')
        || k.code == KeyCode::Char('H')),
    bind!("g Home", Normal, Action::Top, "top", "go to the top", |k| plain(k, 'g') || k.code == KeyCode::Home),
    bind!("G End", Normal, Action::Bottom, "bottom", "go to the bottom", |k| k.code == KeyCode::Char('G')
        || k.code == KeyCode::End),
    bind!("PgUp", Normal, Action::PageUp, "page-up", "page up", |k| k.code == KeyCode::PageUp),
    bind!("PgDn", Normal, Action::PageDown, "page-down", "page down", |k| k.code == KeyCode::PageDown),
    bind!("Ctrl-u", Normal, Action::HalfPageUp, "half-page-up", "half a page up", |k| ctrl(k, 'u')),
    bind!("Ctrl-d", Normal, Action::HalfPageDown, "half-page-down", "half a page down", |k| ctrl(k, 'd')),
    bind!("K", Normal, Action::ScrollViewUp, "scroll-view-up", "scroll the view up from the tree", |k| k.code
        == KeyCode::Char('K')),
    bind!("J", Normal, Action::ScrollViewDown, "scroll-view-down", "scroll the view down from the tree", |k| k.code
        == KeyCode::Char('J')),
    bind!(
        "Enter",
        Normal,
        Action::Activate,
        "enter",
        "open a folder or focus the view; on a finding: jump to its line",
        |k| k.code == KeyCode::Enter
    ),
    bind!("Tab", Normal, Action::SwitchFocus, "switch-focus", "move focus between tree and view", |k| k.code
        == KeyCode::Tab
        || k.code == KeyCode::BackTab),
    bind!("/", Normal, Action::StartSearch, "search", "tree: search skills; view: search the text", |k| plain(k, '/')),
    bind!("Ctrl-f", Normal, Action::SearchView, "search-view", "search the text of the view", |k| ctrl(k, 'f')),
    bind!("n N", Normal, Action::NextMatch, "next-match", "next / previous match (skills or view text)", |k| plain(
        k, 'n'
    ) || k
        .code
        == KeyCode::Char('N')),
    bind!("b", Normal, Action::NextBackend, "next-backend", "next terminal backend", |k| plain(k, 'b')),
    bind!("B", Normal, Action::PrevBackend, "previous-backend", "previous terminal backend", |k| k.code
        == KeyCode::Char('B')),
    bind!("p", Normal, Action::NextPlatform, "platform", "preview another OS (linux, macos, windows)", |k| plain(
        k, 'p'
    )),
    bind!(
        "1-8",
        Normal,
        Action::View(0),
        "",
        "Preview Files Readiness Agent Bundles Prompt Diagnostics Lifecycle",
        |k| { matches!(k.code, KeyCode::Char('1'..='8')) }
    ),
    bind!(
        "a",
        Normal,
        Action::DiagnosticsScope,
        "diagnostics-scope",
        "diagnostics: this skill's findings / all findings in the home",
        |k| { plain(k, 'a') }
    ),
    bind!(
        "f",
        Normal,
        Action::DiagnosticsSeverity,
        "diagnostics-severity",
        "diagnostics: show info and up, warnings and up, errors only",
        |k| { plain(k, 'f') }
    ),
    bind!("] [", Normal, Action::NextView, "next-view", "next / previous view", |k| plain(k, ']') || plain(k, '[')),
    bind!("s", Normal, Action::CycleSort, "sort", "sort skills by name, last activity, use count, index cost", |k| {
        plain(k, 's')
    }),
    bind!("c", Normal, Action::TogglePosture, "posture", "system prompt: as configured / in the focus posture", |k| {
        plain(k, 'c')
    }),
    bind!(
        "d",
        Normal,
        Action::ToggleSinceDiff,
        "since-diff",
        "preview and agent views: the diff against --since",
        |k| { plain(k, 'd') }
    ),
    bind!(
        "D",
        Normal,
        Action::ToggleSince,
        "since",
        "mark changes (a diff) since a git revision (asks which) / marks off",
        |k| k.code == KeyCode::Char('D')
    ),
    bind!("S", Normal, Action::SystemPrompt, "system-prompt", "the whole system-prompt skills index (view 6)", |k| k
        .code
        == KeyCode::Char('S')),
    bind!("R", Normal, Action::ToggleRaw, "raw", "raw SKILL.md with line numbers / rendered", |k| k.code
        == KeyCode::Char('R')),
    bind!("e", Normal, Action::OpenEditor, "edit", "open the SKILL.md (or the selected file) in $EDITOR", |k| plain(
        k, 'e'
    )),
    bind!("y", Normal, Action::Copy, "copy", "copy the path (tree), message (view 4) or file (view 2)", |k| plain(
        k, 'y'
    )),
    bind!("Y", Normal, Action::CopyMenu, "copy-menu", "copy: choose path, folder, runtime path, message, name", |k| k
        .code
        == KeyCode::Char('Y')),
    bind!("o", Normal, Action::Pager, "pager", "open the view's text in $PAGER (less -R)", |k| plain(k, 'o')),
    bind!("r", Normal, Action::Rescan, "rescan", "rescan the home", |k| plain(k, 'r')),
    bind!("? F1", Normal, Action::Help, "help", "this help", |k| plain(k, '?') || k.code == KeyCode::F(1)),
    bind!("Esc", Normal, Action::Back, "back", "back one level: view to tree, clear the search", |k| k.code
        == KeyCode::Esc),
    bind!("q", Normal, Action::Quit, "quit", "quit", |k| plain(k, 'q')),
    bind!("Enter", Prompt, Action::Activate, "", "keep the search, leave the prompt", |k| k.code == KeyCode::Enter),
    bind!("Esc", Prompt, Action::Back, "", "clear the search", |k| k.code == KeyCode::Esc),
    bind!(
        "↑ ↓",
        Prompt,
        Action::Down,
        "",
        "skills: move through the results (↑ in an empty prompt: history)",
        |k| k.code == KeyCode::Down || k.code == KeyCode::Up
    ),
    bind!("Ctrl-a/e", Prompt, Action::Top, "", "start / end of the line (also Home, End)", |_k| false),
    bind!("Ctrl-b/f", Prompt, Action::Top, "", "a character left / right (also ←, →)", |_k| false),
    bind!("Alt-b/f", Prompt, Action::Top, "", "a word left / right (also Ctrl-←, Ctrl-→)", |_k| false),
    bind!("Ctrl-h Delete", Prompt, Action::Top, "", "delete the character before / at the cursor", |_k| false),
    bind!("Ctrl-w", Prompt, Action::Top, "", "delete the blank-separated word before", |_k| false),
    bind!("Alt-⌫ Alt-d", Prompt, Action::Top, "", "delete the word before / after", |_k| false),
    bind!("Ctrl-u/k", Prompt, Action::Top, "", "delete everything before / after the cursor", |_k| false),
    bind!("j k ↑ ↓", HelpMode, Action::Down, "", "scroll", |k| k.code == KeyCode::Down
        || k.code == KeyCode::Up
        || plain(k, 'j')
        || plain(k, 'k')),
    bind!("PgUp PgDn g G", HelpMode, Action::PageDown, "", "a page up / down, top, bottom", |k| k.code
        == KeyCode::PageUp
        || k.code == KeyCode::PageDown
        || plain(k, 'g')
        || k.code == KeyCode::Char('G')),
    bind!("/", HelpMode, Action::StartSearch, "", "filter the help", |k| plain(k, '/')),
    bind!("Esc ? q", HelpMode, Action::Back, "", "close the help", |k| k.code == KeyCode::Esc
        || plain(k, '?')
        || plain(k, 'q')),
    bind!("p d r m n", MenuMode, Action::Activate, "", "copy that item (or j/k and Enter)", |_k| false),
    bind!("Esc", MenuMode, Action::Back, "", "close the menu", |k| k.code == KeyCode::Esc || plain(k, 'q')),
    bind!("Ctrl-c", Normal, Action::Quit, "", "quit, from anywhere", |k| ctrl(k, 'c')),
    bind!("Ctrl-z", Normal, Action::Top, "", "stop, from anywhere (the shell's fg continues)", |_k| false),
];

/// The keymap in force: the defaults, with a config file's rebindings.
#[derive(Debug, Clone, Default)]
pub struct Keymap {
    /// (action, keys) from the user: these replace the action's defaults.
    overrides: Vec<(Action, Vec<KeySpec>)>,
}

/// The browsing action a config file names, if any.
pub fn action_named(name: &str) -> Option<Action> {
    BINDINGS.iter().find(|b| b.mode == Mode::Normal && !b.name.is_empty() && b.name == name).map(|b| b.action)
}

/// Every name a config file may rebind, for its error messages.
pub fn action_names() -> Vec<&'static str> {
    BINDINGS.iter().filter(|b| b.mode == Mode::Normal && !b.name.is_empty()).map(|b| b.name).collect()
}

impl Keymap {
    pub fn with_overrides(overrides: Vec<(Action, Vec<KeySpec>)>) -> Keymap {
        Keymap { overrides }
    }

    /// The action a key triggers in a mode.
    pub fn lookup(&self, mode: Mode, key: &KeyEvent) -> Option<Action> {
        if mode == Mode::Normal {
            if let Some((action, _)) = self.overrides.iter().find(|(_, keys)| keys.iter().any(|k| k.matches(key))) {
                return Some(*action);
            }
        }
        let b = BINDINGS.iter().find(|b| {
            b.mode == mode
                && (b.matcher)(key)
                && !(mode == Mode::Normal && self.overrides.iter().any(|(a, _)| *a == b.action))
        })?;
        Some(match (b.action, key.code) {
            (Action::View(_), KeyCode::Char(c)) => Action::View(c as usize - '1' as usize),
            (Action::NextView, KeyCode::Char('[')) => Action::PrevView,
            (Action::NextMatch, KeyCode::Char('N')) => Action::PrevMatch,
            (Action::ScrollRight, KeyCode::Char('H')) => Action::ScrollLeft,
            (Action::Down, KeyCode::Up) | (Action::Down, KeyCode::Char('k')) => Action::Up,
            (Action::PageDown, KeyCode::PageUp) => Action::PageUp,
            (Action::PageDown, KeyCode::Char('g')) if mode == Mode::Help => Action::Top,
            (Action::PageDown, KeyCode::Char('G')) if mode == Mode::Help => Action::Bottom,
            (a, _) => a,
        })
    }

    /// Whether a key may hand the terminal away: quit (to the shell), the
    /// editor, the pager. Keys typed after it are for whoever gets the
    /// terminal, so the input thread waits for it to be dealt with
    /// ([`super::input::Input::spawn`]). As bound while browsing: in
    /// another mode such a key only waits to be applied.
    pub fn hands_off(&self, key: &KeyEvent) -> bool {
        let ctrl_c = key.code == KeyCode::Char('c') && key.modifiers.contains(KeyModifiers::CONTROL);
        ctrl_c || matches!(self.lookup(Mode::Normal, key), Some(Action::Quit | Action::OpenEditor | Action::Pager))
    }

    /// Help entries: (keys, description) grouped by where they apply.
    pub fn help_entries(&self) -> Vec<(&'static str, Vec<(String, &'static str)>)> {
        [
            (Mode::Normal, "Browsing (tree and view)"),
            (Mode::Prompt, "In a prompt (search, view search, help filter)"),
            (Mode::Help, "Help"),
            (Mode::CopyMenu, "Copy menu (Y)"),
        ]
        .into_iter()
        .map(|(mode, title)| {
            let entries = BINDINGS
                .iter()
                .filter(|b| b.mode == mode)
                .map(|b| {
                    let keys = match self.overrides.iter().find(|(a, _)| mode == Mode::Normal && *a == b.action) {
                        Some((_, keys)) => keys.iter().map(KeySpec::label).collect::<Vec<_>>().join(" "),
                        None => b.keys.to_owned(),
                    };
                    (keys, b.desc)
                })
                .collect();
            (title, entries)
        })
        .collect()
    }
}

/// The hints a narrow status bar keeps: how to get help and out.
pub fn essential_hints(mode: Mode) -> &'static str {
    match mode {
        Mode::Normal => "? help  q quit",
        Mode::Prompt => "Enter keep  Esc clear",
        Mode::Help => "Esc close",
        Mode::CopyMenu => "Esc close",
    }
}

/// Short hints for the status bar in a mode.
pub fn hints(mode: Mode) -> &'static str {
    match mode {
        Mode::Normal => "↑↓ move  / search  1-8 views  b backend  e edit  y copy  ? help  q quit",
        Mode::Prompt => "type to search  Enter keep  Esc clear  Ctrl-w/u delete",
        Mode::Help => "/ filter  j/k scroll  Esc close",
        Mode::CopyMenu => "letter or Enter: copy  Esc close",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The help names the views of keys 1-8 in order, as their tabs do (a
    /// narrow screen's tabs show only the selected one's name).
    #[test]
    fn the_help_names_each_view_in_the_order_of_its_key() {
        let desc = BINDINGS.iter().find(|b| b.action == Action::View(0)).map(|b| b.desc).expect("the views' keys");
        let named: Vec<&str> = crate::tui::tab::ViewTab::ALL.iter().map(|t| t.title()).collect();
        assert_eq!(desc, named.join(" "));
    }

    #[test]
    fn the_readme_lists_every_action_a_config_may_rebind() {
        let readme = include_str!("../../README.md");
        let start = readme.find("Actions: `").expect("the README lists the actions");
        let listed: Vec<&str> = readme[start + 10..].split('`').next().unwrap_or("").split_whitespace().collect();
        assert_eq!(listed, action_names());
    }

    /// The README's tree section names every order `s` goes through, and
    /// says that the wheel over the tree moves its selection.
    #[test]
    fn the_readme_says_what_s_and_the_wheel_do() {
        use crate::tui::tree::TreeSort;
        let readme = include_str!("../../README.md");
        let paragraph = |from: &str| {
            let start = readme.find(from).unwrap_or_else(|| panic!("the README says {from:?}"));
            readme[start..].split("\n\n").next().unwrap_or_default().replace('\n', " ")
        };
        let orders = paragraph("`s` cycles the order");
        let mut sort = TreeSort::default();
        loop {
            assert!(orders.contains(&format!("by {}", sort.label())), "{:?} in {orders:?}", sort.label());
            sort = sort.next();
            if sort == TreeSort::default() {
                break;
            }
        }
        let wheel = paragraph("A click on a tab");
        assert!(wheel.contains("the wheel moves the tree's selection"), "{wheel:?}");
    }

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    #[test]
    fn arrows_and_vim_keys() {
        let map = Keymap::default();
        assert_eq!(map.lookup(Mode::Normal, &key(KeyCode::Char('j'))), Some(Action::Down));
        assert_eq!(map.lookup(Mode::Normal, &key(KeyCode::Down)), Some(Action::Down));
        assert_eq!(map.lookup(Mode::Normal, &key(KeyCode::Up)), Some(Action::Up));
        assert_eq!(map.lookup(Mode::Normal, &key(KeyCode::Char('3'))), Some(Action::View(2)));
        assert_eq!(map.lookup(Mode::Normal, &key(KeyCode::Char('['))), Some(Action::PrevView));
        assert_eq!(map.lookup(Mode::Normal, &key(KeyCode::Char('N'))), Some(Action::PrevMatch));
        assert_eq!(map.lookup(Mode::Normal, &key(KeyCode::Char('H'))), Some(Action::ScrollLeft));
        assert_eq!(map.lookup(Mode::Prompt, &key(KeyCode::Char('j'))), None, "letters go to the prompt");
        assert_eq!(map.lookup(Mode::Prompt, &key(KeyCode::Up)), Some(Action::Up));
        assert_eq!(map.lookup(Mode::Help, &key(KeyCode::Char('k'))), Some(Action::Up));
        assert_eq!(map.lookup(Mode::Help, &key(KeyCode::Char('G'))), Some(Action::Bottom));
        assert_eq!(map.lookup(Mode::Help, &key(KeyCode::PageUp)), Some(Action::PageUp));
        let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
        assert_eq!(map.lookup(Mode::Normal, &ctrl_c), Some(Action::Quit));
    }

    #[test]
    fn overrides_replace_the_defaults_of_their_action() {
        let quit = KeySpec::parse("ctrl-q").unwrap();
        let map = Keymap::with_overrides(vec![(Action::Quit, vec![quit])]);
        let ctrl_q = KeyEvent::new(KeyCode::Char('q'), KeyModifiers::CONTROL);
        assert_eq!(map.lookup(Mode::Normal, &ctrl_q), Some(Action::Quit));
        assert_eq!(map.lookup(Mode::Normal, &key(KeyCode::Char('q'))), None);
        let help = map.help_entries();
        assert!(help[0].1.iter().any(|(k, d)| k == "Ctrl-q" && *d == "quit"), "{help:?}");
    }

    #[test]
    fn keys_that_hand_the_terminal_away() {
        let map = Keymap::default();
        for code in [KeyCode::Char('q'), KeyCode::Char('e'), KeyCode::Char('o')] {
            assert!(map.hands_off(&key(code)), "{code:?}");
        }
        assert!(map.hands_off(&KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL)));
        for code in [KeyCode::Char('j'), KeyCode::Down, KeyCode::Char('y'), KeyCode::Enter] {
            assert!(!map.hands_off(&key(code)), "{code:?}");
        }
        let rebound = Keymap::with_overrides(vec![(Action::Quit, vec![KeySpec::parse("ctrl-q").unwrap()])]);
        assert!(rebound.hands_off(&KeyEvent::new(KeyCode::Char('q'), KeyModifiers::CONTROL)));
        assert!(!rebound.hands_off(&key(KeyCode::Char('q'))));
    }

    #[test]
    fn key_specs() {
        assert_eq!(KeySpec::parse("G").unwrap(), KeySpec { code: KeyCode::Char('G'), ctrl: false, alt: false });
        assert_eq!(KeySpec::parse("Ctrl-F").unwrap(), KeySpec { code: KeyCode::Char('f'), ctrl: true, alt: false });
        assert!(KeySpec::parse("alt-b").unwrap().alt);
        assert_eq!(KeySpec::parse("pgdn").unwrap().code, KeyCode::PageDown);
        assert_eq!(KeySpec::parse("f12").unwrap().code, KeyCode::F(12));
        assert!(KeySpec::parse("hyper-x").is_err());
        assert_eq!(action_named("quit"), Some(Action::Quit));
        assert_eq!(action_named("nope"), None);
    }

    #[test]
    fn every_binding_is_described() {
        assert!(BINDINGS.iter().all(|b| !b.desc.is_empty() && !b.keys.is_empty()));
        let help = Keymap::default().help_entries();
        assert!(help[0].1.iter().any(|(k, _)| k == "/"));
    }
}
