//! The browser's prompts and searches: the skills search (ranked, with
//! history), the view search, the help filter, pastes, the copy menu, and
//! backing out of each one level at a time.

use super::app::{App, Effect, Focus, ViewSearch};
use super::help::HelpState;
use super::keymap::Action;
use super::line_edit::LineEdit;
use crossterm::event::{KeyCode, KeyEvent};

impl App {
    /// A paste is text for the prompt it lands in, never keystrokes.
    pub(super) fn paste(&mut self, text: &str) -> Vec<Effect> {
        match self.active_prompt() {
            Some(prompt) => {
                prompt.insert(text);
                self.prompt_changed();
                self.wanted_jobs()
            }
            None => {
                self.notice = Some("Paste ignored: press / to search first".into());
                Vec::new()
            }
        }
    }

    /// The prompt that has the keyboard, if any.
    pub(super) fn active_prompt(&mut self) -> Option<&mut LineEdit> {
        if self.copy_menu.is_some() {
            None
        } else if let Some(revision) = &mut self.since_prompt {
            Some(revision)
        } else if self.help.open {
            self.help.typing.then_some(&mut self.help.filter)
        } else if self.view_search.typing {
            Some(&mut self.view_search.input)
        } else if self.search.typing {
            Some(&mut self.search.input)
        } else {
            None
        }
    }

    /// Applies the text of the active prompt.
    pub(super) fn prompt_changed(&mut self) {
        if self.since_prompt.is_some() {
            // A revision is read when Enter gives it.
        } else if self.help.open {
            self.help.scroll = 0;
        } else if self.view_search.typing {
            self.view_search.computed_for = None;
            self.view_search.current = 0;
            self.view_search.reveal = true;
        } else if self.search.typing {
            self.search.history_pos = None;
            self.apply_search();
        }
    }

    /// Keys while the help is open (its filter prompt aside).
    pub(super) fn help_action(&mut self, action: Action) {
        // A page as the view pages: what the overlay shows, less a line
        // kept in sight.
        let page = self.layout.help_height.max(2) - 1;
        let help = &mut self.help;
        match action {
            Action::Back if help.typing => {
                help.typing = false;
                help.filter.clear();
            }
            Action::Activate if help.typing => help.typing = false,
            Action::Back => self.help = HelpState::default(),
            Action::StartSearch => help.typing = true,
            Action::Down | Action::ScrollViewDown => help.scroll += 1,
            Action::Up | Action::ScrollViewUp => help.scroll = help.scroll.saturating_sub(1),
            Action::PageDown => help.scroll += page,
            Action::PageUp => help.scroll = help.scroll.saturating_sub(page),
            Action::HalfPageDown => help.scroll += page / 2,
            Action::HalfPageUp => help.scroll = help.scroll.saturating_sub(page / 2),
            Action::Top => help.scroll = 0,
            Action::Bottom => help.scroll = usize::MAX / 2,
            _ => {}
        }
    }

    /// Esc outside prompts: one level back.
    pub(super) fn back(&mut self) {
        if !self.view_search.input.is_empty() {
            self.view_search = ViewSearch::default();
        } else if self.focus == Focus::View {
            self.focus = Focus::Tree;
        } else if self.search.matches.is_some() {
            self.clear_search();
        }
    }

    /// Esc in a prompt: leave it and drop its query.
    pub(super) fn close_prompt(&mut self) {
        if self.view_search.typing {
            self.view_search = ViewSearch::default();
        } else {
            self.search.typing = false;
            self.clear_search();
        }
    }

    /// Enter in a prompt: keep the query, leave the prompt.
    pub(super) fn keep_prompt(&mut self) {
        if self.view_search.typing {
            self.view_search.typing = false;
            self.focus = Focus::View;
            return;
        }
        self.search.typing = false;
        self.search.history_pos = None;
        let query = self.search.query().trim().to_owned();
        if !query.is_empty() && self.search.history.last() != Some(&query) {
            self.search.history.push(query);
        }
        self.focus = Focus::Tree;
        if self.selected_skill().is_none() {
            self.select_first_skill();
        }
    }

    /// Drops the search, keeping the selected skill selected in the tree.
    pub(super) fn clear_search(&mut self) {
        let key = self.selected_key().or_else(|| self.search.selected_before.take());
        self.search.input.clear();
        self.search.matches = None;
        self.refresh_rows();
        if let Some(node) = key.as_ref().and_then(|k| self.nav.tree.find(k)) {
            self.nav.tree.reveal(node);
            self.refresh_rows();
        }
        if !self.restore_selection(key.as_ref()) {
            self.select_first_skill();
        }
    }

    /// ↑/↓ in the search prompt when it shows history.
    pub(super) fn history_step(&mut self, delta: isize) {
        let len = self.search.history.len();
        if len == 0 {
            return;
        }
        let at = match self.search.history_pos {
            None => len as isize - 1,
            Some(p) => p as isize + delta,
        };
        if at >= len as isize {
            self.search.history_pos = None;
            self.search.input.clear();
        } else {
            let at = at.max(0) as usize;
            self.search.history_pos = Some(at);
            let text = self.search.history[at].clone();
            self.search.input.set(&text);
        }
        self.apply_search();
    }

    /// `/` in the tree: a new, empty query. Results kept with Enter are
    /// dropped (their query is in the history, `↑` brings it back); the
    /// selected skill stays selected.
    pub(super) fn start_search(&mut self) {
        if !self.search.input.is_empty() || self.search.matches.is_some() {
            self.clear_search();
        }
        self.search.selected_before = self.selected_key();
        self.search.typing = true;
        self.search.history_pos = None;
        self.focus = Focus::Tree;
    }

    /// `/` in the view: a new, empty query over the view's text.
    pub(super) fn start_view_search(&mut self) {
        self.focus = Focus::View;
        self.view_search = ViewSearch { typing: true, ..ViewSearch::default() };
    }

    /// Moves to the next (or previous) hit of the view search, wrapping.
    pub(super) fn step_hit(&mut self, delta: isize) {
        let n = self.view_search.hits.len();
        if n == 0 {
            if !self.view_search.input.is_empty() {
                self.notice = Some(format!("No match for {:?} in this view", self.view_search.input.text()));
            }
            return;
        }
        let n = n as isize;
        self.view_search.current = ((self.view_search.current as isize + delta) % n + n) as usize % n as usize;
        self.reveal_hit();
    }

    /// Scrolls so the current hit is on screen, a third from the top.
    pub fn reveal_hit(&mut self) {
        let Some(hit) = self.view_search.hits.get(self.view_search.current).copied() else { return };
        let height = usize::from(self.layout.view_height.max(1));
        if hit.line < self.view.scroll || hit.line >= self.view.scroll + height {
            self.view.scroll = hit.line.saturating_sub(height / 3);
        }
        let width = usize::from(self.layout.view_width.max(1));
        if hit.end > self.view.h_scroll + width || hit.start < self.view.h_scroll {
            self.view.h_scroll = hit.start.saturating_sub(width / 3);
        }
    }

    pub(super) fn copy_menu_key(&mut self, key: &KeyEvent) -> Vec<Effect> {
        let Some(menu) = &mut self.copy_menu else { return Vec::new() };
        let pick = match key.code {
            KeyCode::Esc | KeyCode::Char('q') => {
                self.copy_menu = None;
                return Vec::new();
            }
            KeyCode::Down | KeyCode::Char('j') => {
                menu.cursor = (menu.cursor + 1).min(menu.items.len().saturating_sub(1));
                return Vec::new();
            }
            KeyCode::Up | KeyCode::Char('k') => {
                menu.cursor = menu.cursor.saturating_sub(1);
                return Vec::new();
            }
            KeyCode::Enter => menu.items.get(menu.cursor).cloned(),
            KeyCode::Char(c) => menu.items.iter().find(|i| i.key == c).cloned(),
            _ => None,
        };
        match pick {
            Some(item) => {
                self.copy_menu = None;
                vec![Effect::Copy { text: item.text, what: item.label.to_owned() }]
            }
            None => Vec::new(),
        }
    }

    /// Ranks the skills for the query and selects the best match.
    pub(super) fn apply_search(&mut self) {
        let query = self.search.query().trim().to_owned();
        self.search.matches = if query.is_empty() { None } else { Some(self.rank(&query)) };
        self.refresh_rows();
        self.nav.cursor = 0;
        self.nav.offset = 0;
        if self.search.matches.is_none() {
            self.select_first_skill();
        }
        self.view.scroll = 0;
        self.view.h_scroll = 0;
    }

    pub(super) fn rank(&mut self, query: &str) -> Vec<usize> {
        self.search_index.ready(&self.catalog).rank(&self.catalog, query)
    }

    /// Selects a skill's row, opening its folders (and leaving a search
    /// that hides it); false when the skill has no row.
    pub fn reveal_skill(&mut self, skill: usize) -> bool {
        let Some(node) = self.nav.tree.skill_node(skill) else { return false };
        if !self.nav.rows.iter().any(|r| r.node == node) {
            self.search.input.clear();
            self.search.matches = None;
            self.nav.tree.reveal(node);
            self.refresh_rows();
        }
        match self.nav.rows.iter().position(|r| r.node == node) {
            Some(i) => {
                self.select(i);
                true
            }
            None => false,
        }
    }
}
