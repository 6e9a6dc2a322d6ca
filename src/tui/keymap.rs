//! Key bindings with their descriptions. The help overlay and the status
//! bar hints are generated from this table, so they cannot go stale.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// What the user asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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
    Activate,
    SwitchFocus,
    StartSearch,
    NextBackend,
    PrevBackend,
    NextView,
    PrevView,
    View(usize),
    ToggleRaw,
    SystemPrompt,
    NextPlatform,
    OpenEditor,
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
    /// Everywhere outside the search prompt and help.
    Normal,
    /// While typing a search.
    Search,
    /// While the help overlay is open.
    Help,
}

pub struct Binding {
    pub keys: &'static str,
    pub mode: Mode,
    pub action: Action,
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
    ($keys:expr, $mode:expr, $action:expr, $desc:expr, |$k:ident| $m:expr) => {
        Binding { keys: $keys, mode: $mode, action: $action, desc: $desc, matcher: |$k: &KeyEvent| $m }
    };
}

/// The default keymap (arrows and vim keys both work).
pub static BINDINGS: &[Binding] = &[
    bind!("j ↓", Mode::Normal, Action::Down, "move down (scroll the view when it has focus)", |k| plain(k, 'j')
        || k.code == KeyCode::Down),
    bind!("k ↑", Mode::Normal, Action::Up, "move up (scroll the view when it has focus)", |k| plain(k, 'k')
        || k.code == KeyCode::Up),
    bind!("h ←", Mode::Normal, Action::Collapse, "collapse, or go to the parent folder", |k| plain(k, 'h')
        || k.code == KeyCode::Left),
    bind!("l →", Mode::Normal, Action::Expand, "expand, or enter the first child", |k| plain(k, 'l')
        || k.code == KeyCode::Right),
    bind!("g Home", Mode::Normal, Action::Top, "go to the top", |k| plain(k, 'g') || k.code == KeyCode::Home),
    bind!("G End", Mode::Normal, Action::Bottom, "go to the bottom", |k| k.code == KeyCode::Char('G')
        || k.code == KeyCode::End),
    bind!("PgUp", Mode::Normal, Action::PageUp, "page up", |k| k.code == KeyCode::PageUp),
    bind!("PgDn", Mode::Normal, Action::PageDown, "page down", |k| k.code == KeyCode::PageDown),
    bind!("Ctrl-u", Mode::Normal, Action::HalfPageUp, "half a page up", |k| ctrl(k, 'u')),
    bind!("Ctrl-d", Mode::Normal, Action::HalfPageDown, "half a page down", |k| ctrl(k, 'd')),
    bind!("K", Mode::Normal, Action::ScrollViewUp, "scroll the view up from the tree", |k| k.code
        == KeyCode::Char('K')),
    bind!("J", Mode::Normal, Action::ScrollViewDown, "scroll the view down from the tree", |k| k.code
        == KeyCode::Char('J')),
    bind!("Enter", Mode::Normal, Action::Activate, "open a folder, or focus the view", |k| k.code == KeyCode::Enter),
    bind!("Tab", Mode::Normal, Action::SwitchFocus, "move focus between tree and view", |k| k.code == KeyCode::Tab
        || k.code == KeyCode::BackTab),
    bind!("/", Mode::Normal, Action::StartSearch, "search name, description, category, tags", |k| plain(k, '/')),
    bind!("b", Mode::Normal, Action::NextBackend, "next terminal backend", |k| plain(k, 'b')),
    bind!("B", Mode::Normal, Action::PrevBackend, "previous terminal backend", |k| k.code == KeyCode::Char('B')),
    bind!("p", Mode::Normal, Action::NextPlatform, "preview another OS (linux, macos, windows)", |k| plain(k, 'p')),
    bind!(
        "1-7",
        Mode::Normal,
        Action::View(0),
        "preview, files, readiness, agent, bundles, prompt, diagnostics",
        |k| { matches!(k.code, KeyCode::Char('1'..='7')) }
    ),
    bind!(
        "a",
        Mode::Normal,
        Action::DiagnosticsScope,
        "diagnostics: this skill's findings / all findings in the home",
        |k| { plain(k, 'a') }
    ),
    bind!(
        "f",
        Mode::Normal,
        Action::DiagnosticsSeverity,
        "diagnostics: show info and up, warnings and up, errors only",
        |k| { plain(k, 'f') }
    ),
    bind!("] [", Mode::Normal, Action::NextView, "next / previous view", |k| plain(k, ']') || plain(k, '[')),
    bind!("s", Mode::Normal, Action::SystemPrompt, "the whole system-prompt skills index", |k| plain(k, 's')),
    bind!("R", Mode::Normal, Action::ToggleRaw, "raw SKILL.md text / rendered", |k| k.code == KeyCode::Char('R')),
    bind!("e", Mode::Normal, Action::OpenEditor, "open the SKILL.md (or the selected file) in $EDITOR", |k| plain(
        k, 'e'
    )),
    bind!("r", Mode::Normal, Action::Rescan, "rescan the home", |k| plain(k, 'r')),
    bind!("?", Mode::Normal, Action::Help, "this help", |k| plain(k, '?') || k.code == KeyCode::F(1)),
    bind!("Esc", Mode::Normal, Action::Back, "clear the search filter / back to the tree", |k| k.code == KeyCode::Esc),
    bind!("q Ctrl-c", Mode::Normal, Action::Quit, "quit", |k| plain(k, 'q') || ctrl(k, 'c')),
    bind!("Enter", Mode::Search, Action::Activate, "keep the filter, focus the results", |k| k.code == KeyCode::Enter),
    bind!("Esc", Mode::Search, Action::Back, "clear the search", |k| k.code == KeyCode::Esc),
    bind!("↑ ↓", Mode::Search, Action::Down, "move through the results while typing", |k| k.code == KeyCode::Down
        || k.code == KeyCode::Up),
    bind!("Esc ? q", Mode::Help, Action::Back, "close the help", |k| k.code == KeyCode::Esc
        || plain(k, '?')
        || plain(k, 'q')),
];

/// The action a key triggers in a mode.
pub fn lookup(mode: Mode, key: &KeyEvent) -> Option<Action> {
    let b = BINDINGS.iter().find(|b| b.mode == mode && (b.matcher)(key))?;
    Some(match (b.action, key.code) {
        (Action::View(_), KeyCode::Char(c)) => Action::View(c as usize - '1' as usize),
        (Action::NextView, KeyCode::Char('[')) => Action::PrevView,
        (Action::Down, KeyCode::Up) if mode == Mode::Search => Action::Up,
        (a, _) => a,
    })
}

/// Help text lines: (keys, description) grouped by mode.
pub fn help_entries() -> Vec<(&'static str, Vec<(&'static str, &'static str)>)> {
    [(Mode::Normal, "Browsing"), (Mode::Search, "Searching (typing filters the tree)"), (Mode::Help, "Help")]
        .into_iter()
        .map(|(mode, title)| (title, BINDINGS.iter().filter(|b| b.mode == mode).map(|b| (b.keys, b.desc)).collect()))
        .collect()
}

/// Short hints for the status bar in a mode.
pub fn hints(mode: Mode) -> &'static str {
    match mode {
        Mode::Normal => "↑↓ move  ←→ fold  / search  1-7 views  b backend  e edit  ? help  q quit",
        Mode::Search => "type to filter  Enter keep  Esc clear",
        Mode::Help => "Esc close",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    #[test]
    fn arrows_and_vim_keys() {
        assert_eq!(lookup(Mode::Normal, &key(KeyCode::Char('j'))), Some(Action::Down));
        assert_eq!(lookup(Mode::Normal, &key(KeyCode::Down)), Some(Action::Down));
        assert_eq!(lookup(Mode::Normal, &key(KeyCode::Char('3'))), Some(Action::View(2)));
        assert_eq!(lookup(Mode::Normal, &key(KeyCode::Char('['))), Some(Action::PrevView));
        assert_eq!(lookup(Mode::Search, &key(KeyCode::Char('j'))), None, "letters go to the prompt");
        assert_eq!(lookup(Mode::Normal, &KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL)), Some(Action::Quit));
    }

    #[test]
    fn every_binding_is_described() {
        assert!(BINDINGS.iter().all(|b| !b.desc.is_empty() && !b.keys.is_empty()));
        let help = help_entries();
        assert!(help[0].1.iter().any(|(k, _)| *k == "/"));
    }
}
