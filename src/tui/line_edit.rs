//! A one-line text field with the editing keys of a shell prompt
//! (readline's emacs mode): used by every prompt of the browser.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LineEdit {
    text: String,
    /// Byte offset of the cursor, always on a character boundary.
    cursor: usize,
}

/// What a key did to the field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Edit {
    /// The key is not an editing key.
    Ignored,
    /// Only the cursor moved.
    Moved,
    /// The text changed.
    Changed,
}

impl LineEdit {
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The cursor as a character index (for drawing).
    pub fn cursor_chars(&self) -> usize {
        self.text[..self.cursor].chars().count()
    }

    pub fn is_empty(&self) -> bool {
        self.text.is_empty()
    }

    /// Replaces the text, cursor at the end.
    pub fn set(&mut self, text: &str) {
        self.text = text.to_owned();
        self.cursor = self.text.len();
    }

    pub fn clear(&mut self) {
        self.set("");
    }

    /// Inserts pasted or typed text at the cursor: line breaks and tabs
    /// become spaces and other control characters are dropped, so a paste
    /// is always plain text for this one line.
    pub fn insert(&mut self, text: &str) {
        let clean: String = text
            .chars()
            .filter_map(|c| match c {
                '\n' | '\r' | '\t' => Some(' '),
                c if c.is_control() => None,
                c => Some(c),
            })
            .collect();
        self.text.insert_str(self.cursor, &clean);
        self.cursor += clean.len();
    }

    /// Applies an editing key.
    pub fn handle(&mut self, key: &KeyEvent) -> Edit {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        let alt = key.modifiers.contains(KeyModifiers::ALT);
        let before = (self.text.len(), self.cursor);
        match key.code {
            KeyCode::Char('a') if ctrl => self.cursor = 0,
            KeyCode::Char('e') if ctrl => self.cursor = self.text.len(),
            KeyCode::Char('b') if ctrl => self.cursor = self.prev_char(),
            KeyCode::Char('f') if ctrl => self.cursor = self.next_char(),
            KeyCode::Char('b') if alt => self.cursor = self.word_start(),
            KeyCode::Char('f') if alt => self.cursor = self.word_end(),
            KeyCode::Left if ctrl || alt => self.cursor = self.word_start(),
            KeyCode::Right if ctrl || alt => self.cursor = self.word_end(),
            KeyCode::Left => self.cursor = self.prev_char(),
            KeyCode::Right => self.cursor = self.next_char(),
            KeyCode::Home => self.cursor = 0,
            KeyCode::End => self.cursor = self.text.len(),
            KeyCode::Char('w') if ctrl => return self.delete_back_to(self.blank_word_start()),
            KeyCode::Backspace if ctrl || alt => return self.delete_back_to(self.word_start()),
            KeyCode::Char('u') if ctrl => return self.delete_back_to(0),
            KeyCode::Char('k') if ctrl => {
                self.text.truncate(self.cursor);
            }
            KeyCode::Char('d') if alt => {
                let end = self.word_end();
                self.text.replace_range(self.cursor..end, "");
            }
            KeyCode::Char('h') if ctrl => return self.delete_back_to(self.prev_char()),
            KeyCode::Backspace => return self.delete_back_to(self.prev_char()),
            KeyCode::Delete => {
                let end = self.next_char();
                self.text.replace_range(self.cursor..end, "");
            }
            KeyCode::Char(c) if !ctrl && !alt => {
                self.text.insert(self.cursor, c);
                self.cursor += c.len_utf8();
                return Edit::Changed;
            }
            _ => return Edit::Ignored,
        }
        if self.text.len() != before.0 {
            Edit::Changed
        } else if self.cursor != before.1 {
            Edit::Moved
        } else {
            // A recognised key that had nothing to do (Home at the start).
            Edit::Moved
        }
    }

    fn delete_back_to(&mut self, start: usize) -> Edit {
        if start == self.cursor {
            return Edit::Moved;
        }
        self.text.replace_range(start..self.cursor, "");
        self.cursor = start;
        Edit::Changed
    }

    fn prev_char(&self) -> usize {
        self.text[..self.cursor].char_indices().next_back().map_or(0, |(i, _)| i)
    }

    fn next_char(&self) -> usize {
        self.text[self.cursor..].chars().next().map_or(self.cursor, |c| self.cursor + c.len_utf8())
    }

    /// Start of the word before the cursor (words are letters and digits).
    fn word_start(&self) -> usize {
        let before: Vec<(usize, char)> = self.text[..self.cursor].char_indices().collect();
        let mut i = before.len();
        while i > 0 && !before[i - 1].1.is_alphanumeric() {
            i -= 1;
        }
        while i > 0 && before[i - 1].1.is_alphanumeric() {
            i -= 1;
        }
        before.get(i).map_or(self.cursor, |(at, _)| *at).min(self.cursor)
    }

    /// End of the word after the cursor.
    fn word_end(&self) -> usize {
        let mut chars = self.text[self.cursor..].char_indices().peekable();
        let mut end = self.cursor;
        while let Some(&(i, c)) = chars.peek() {
            if c.is_alphanumeric() {
                break;
            }
            end = self.cursor + i + c.len_utf8();
            chars.next();
        }
        for (i, c) in chars {
            if !c.is_alphanumeric() {
                return self.cursor + i;
            }
            end = self.cursor + i + c.len_utf8();
        }
        end
    }

    /// Start of the blank-separated word before the cursor (Ctrl-w).
    fn blank_word_start(&self) -> usize {
        let head = &self.text[..self.cursor];
        let trimmed = head.trim_end_matches(char::is_whitespace);
        trimmed.rfind(char::is_whitespace).map_or(0, |i| i + trimmed[i..].chars().next().map_or(1, char::len_utf8))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn press(e: &mut LineEdit, code: KeyCode, m: KeyModifiers) -> Edit {
        e.handle(&KeyEvent::new(code, m))
    }

    fn typed(text: &str) -> LineEdit {
        let mut e = LineEdit::default();
        for c in text.chars() {
            press(&mut e, KeyCode::Char(c), KeyModifiers::NONE);
        }
        e
    }

    #[test]
    fn shell_editing_keys() {
        let ctrl = KeyModifiers::CONTROL;
        let alt = KeyModifiers::ALT;
        let mut e = typed("deploy to prod");
        assert_eq!(press(&mut e, KeyCode::Char('w'), ctrl), Edit::Changed);
        assert_eq!(e.text(), "deploy to ");
        press(&mut e, KeyCode::Char('w'), ctrl);
        assert_eq!(e.text(), "deploy ");
        press(&mut e, KeyCode::Char('a'), ctrl);
        assert_eq!(e.cursor_chars(), 0);
        press(&mut e, KeyCode::Char('x'), KeyModifiers::NONE);
        assert_eq!(e.text(), "xdeploy ");
        press(&mut e, KeyCode::Char('e'), ctrl);
        assert_eq!(e.cursor_chars(), 8);
        press(&mut e, KeyCode::Char('b'), alt);
        assert_eq!(e.cursor_chars(), 0, "alt-b: to the start of xdeploy");
        press(&mut e, KeyCode::Char('f'), alt);
        assert_eq!(e.cursor_chars(), 7, "alt-f: to the end of the word");
        press(&mut e, KeyCode::Char('u'), ctrl);
        assert_eq!(e.text(), " ");
        assert_eq!(press(&mut e, KeyCode::Char('u'), ctrl), Edit::Moved);
        assert_eq!(press(&mut e, KeyCode::F(5), KeyModifiers::NONE), Edit::Ignored);
    }

    #[test]
    fn multibyte_text_and_paste() {
        let mut e = typed("日本");
        press(&mut e, KeyCode::Left, KeyModifiers::NONE);
        press(&mut e, KeyCode::Backspace, KeyModifiers::NONE);
        assert_eq!(e.text(), "本");
        e.insert("a\nb\u{1b}[2Jc\td");
        assert_eq!(e.text(), "a b[2Jc d本");
        press(&mut e, KeyCode::Delete, KeyModifiers::NONE);
        assert_eq!(e.text(), "a b[2Jc d");
    }
}
