//! Driving the browser without a terminal: keys in, screens out.

use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use ratatui::backend::TestBackend;
use ratatui::Terminal;
use skillscope::engine::env::{Env, Os};
use skillscope::engine::{Engine, Options};
use skillscope::tui::app::{App, Effect};
use skillscope::tui::theme::{ColorMode, Theme};
use skillscope::tui::ui;
use std::path::Path;

/// The engine the browser tests use: a fixed HOME and PATH.
pub fn engine_for(home: &Path) -> Engine {
    let env = Env::with_vars([("HOME", "/home/author"), ("PATH", "/usr/bin:/bin")], Os::Linux);
    Engine::new(home.to_path_buf(), env, Options { session_id: "preview".into(), ..Options::default() })
}

pub fn app_for(home: &Path) -> App {
    // Screens list files in Hermes' (the filesystem's) order: fixed for snapshots.
    skillscope::engine::listing::set_order(skillscope::engine::listing::Order::Fnv1a);
    let mut app = App::new(engine_for(home), Theme::new(ColorMode::NoColor));
    // The Lifecycle view's forecast, at a fixed time.
    app.clock = || skillscope::engine::isotime::parse("2026-12-10T12:00:00Z").unwrap_or_default();
    app
}

/// A key with modifiers; the jobs it asks for run at once.
pub fn press(app: &mut App, code: KeyCode, modifiers: KeyModifiers) -> Vec<Effect> {
    let effects = app.handle_event(&Event::Key(KeyEvent::new(code, modifiers)));
    app.run_jobs_inline(&effects);
    effects
}

pub fn key(app: &mut App, code: KeyCode) -> Vec<Effect> {
    press(app, code, KeyModifiers::NONE)
}

pub fn keys(app: &mut App, text: &str) {
    for c in text.chars() {
        key(app, KeyCode::Char(c));
    }
}

/// Gets a frame of `w` x `h` ready, running the jobs it asks for (its
/// views' lines included) here until none is left.
pub fn settle(app: &mut App, w: u16, h: u16) {
    let area = ratatui::layout::Rect::new(0, 0, w, h);
    for _ in 0..8 {
        let mut effects = app.wanted_jobs();
        effects.extend(app.prepare(area));
        if !effects.iter().any(|e| matches!(e, Effect::Job(_))) {
            return;
        }
        app.run_jobs_inline(&effects);
    }
}

/// The screen at a size, after the jobs the frame asks for.
pub fn screen(app: &mut App, w: u16, h: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(w, h)).expect("terminal");
    settle(app, w, h);
    terminal.draw(|f| ui::draw(f, app)).expect("draw");
    let buffer = terminal.backend().buffer();
    (0..h)
        .map(|y| (0..w).map(|x| buffer[(x, y)].symbol().to_owned()).collect::<String>().trim_end().to_owned())
        .collect::<Vec<_>>()
        .join("\n")
}
