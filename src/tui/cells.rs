//! Cells terminals draw at another width than ratatui lays them out at.
//!
//! ratatui gives a grapheme its Unicode width and leaves the columns it
//! covers alone when it next writes the screen. Terminals draw some emoji
//! sequences by their own rules: tmux and xterm draw `⚠️` (U+26A0 with the
//! emoji selector U+FE0F) one column wide where ratatui counts two, and a
//! skin-tone or ZWJ sequence (`👍🏽`, `👩‍💻`) as its parts side by side.
//! The column ratatui leaves alone then shows the last frame's character,
//! or the line is pushed right. Skill text is full of them (`⚠️ Warning`),
//! so before each frame is written every such cell keeps what all terminals
//! draw alike, its first character and combining marks, and the columns it
//! no longer covers are blanked in its style.

use ratatui::buffer::Buffer;
use unicode_width::UnicodeWidthStr;

/// Settles every cell of `buf` whose grapheme terminals disagree on.
pub fn settle(buf: &mut Buffer) {
    let area = buf.area;
    for y in area.top()..area.bottom() {
        let mut x = area.left();
        while x < area.right() {
            let cell = &buf[(x, y)];
            if cell.symbol().is_ascii() {
                // Most cells: one column on every terminal.
                x += 1;
                continue;
            }
            let width = cell.symbol().width().max(1);
            // A plain character wider than the cell (`⌚︎` is one column
            // with its text selector, two without) stays as ratatui has it.
            let plain = plain_symbol(cell.symbol()).filter(|p| p.width().max(1) <= width);
            if let Some(plain) = plain {
                let style = cell.style();
                let covers = plain.width().max(1);
                buf[(x, y)].set_symbol(&plain);
                let end = (usize::from(x) + width).min(usize::from(area.right()));
                for freed in usize::from(x) + covers..end {
                    // `freed` < area.right(), a u16. Only the blank ratatui
                    // left behind the wide grapheme takes its style: a column
                    // drawn over since (a popup's border) keeps what it has.
                    let next = &mut buf[(freed as u16, y)];
                    if *next == ratatui::buffer::Cell::EMPTY {
                        next.set_style(style);
                    }
                }
            }
            x = x.saturating_add(width as u16);
        }
    }
}

/// The grapheme without what terminals draw differently: presentation
/// selectors, skin-tone modifiers, and all from a zero-width joiner on.
/// None when it holds none of them.
fn plain_symbol(symbol: &str) -> Option<String> {
    let mut kept = String::with_capacity(symbol.len());
    let mut changed = false;
    for c in symbol.chars() {
        match c {
            '\u{FE0E}' | '\u{FE0F}' | '\u{1F3FB}'..='\u{1F3FF}' => changed = true,
            '\u{200D}' => {
                changed = true;
                break;
            }
            _ => kept.push(c),
        }
    }
    (changed && !kept.is_empty()).then_some(kept)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::layout::Rect;
    use ratatui::style::{Color, Style};

    fn row(buf: &Buffer, y: u16) -> Vec<String> {
        (0..buf.area.width).map(|x| buf[(x, y)].symbol().to_owned()).collect()
    }

    #[test]
    fn an_emoji_selector_is_dropped_and_the_column_it_freed_blanked() {
        let mut buf = Buffer::empty(Rect::new(0, 0, 8, 1));
        let style = Style::default().bg(Color::Blue);
        buf.set_string(0, 0, "a⚠\u{fe0f}b", style);
        assert_eq!(row(&buf, 0)[..4], ["a", "⚠\u{fe0f}", " ", "b"]);
        settle(&mut buf);
        assert_eq!(row(&buf, 0)[..4], ["a", "⚠", " ", "b"]);
        assert_eq!(buf[(2, 0)].bg, Color::Blue, "blanked in the cell's style");
        // Each cell's width now agrees: ratatui writes the blank.
        assert!((0..4).all(|x| buf[(x, 0)].symbol().width() == 1));
    }

    #[test]
    fn sequences_keep_their_first_emoji() {
        let mut buf = Buffer::empty(Rect::new(0, 0, 12, 1));
        buf.set_string(0, 0, "👩\u{200d}💻x👍\u{1f3fd}y", Style::default());
        settle(&mut buf);
        assert_eq!(row(&buf, 0)[..6], ["👩", " ", "x", "👍", " ", "y"]);
    }

    #[test]
    fn plain_text_and_combining_marks_are_left_alone() {
        let mut buf = Buffer::empty(Rect::new(0, 0, 12, 1));
        buf.set_string(0, 0, "e\u{301}日本😀z", Style::default());
        let before = buf.clone();
        settle(&mut buf);
        assert_eq!(buf, before);
        assert_eq!(plain_symbol("1\u{fe0f}\u{20e3}").as_deref(), Some("1\u{20e3}"));
        assert_eq!(plain_symbol("\u{fe0f}"), None, "a lone selector stays as ratatui has it");
    }

    #[test]
    fn a_plain_character_wider_than_its_cell_is_left_alone() {
        let mut buf = Buffer::empty(Rect::new(0, 0, 6, 1));
        buf.set_string(0, 0, "⌚\u{fe0e}|ab", Style::default());
        let before = buf.clone();
        settle(&mut buf);
        assert_eq!(buf, before);
    }

    #[test]
    fn a_column_drawn_over_since_keeps_what_was_drawn() {
        let mut buf = Buffer::empty(Rect::new(0, 0, 6, 1));
        buf.set_string(0, 0, "⚠\u{fe0f}x", Style::default());
        // A popup's border over the emoji's second column.
        buf[(1, 0)].set_symbol("│");
        settle(&mut buf);
        assert_eq!(row(&buf, 0)[..3], ["⚠", "│", "x"]);
    }

    #[test]
    fn a_wide_cell_at_the_right_edge_stays_inside() {
        let mut buf = Buffer::empty(Rect::new(3, 2, 4, 1));
        buf.set_string(5, 2, "⚠\u{fe0f}", Style::default());
        settle(&mut buf);
        assert_eq!(buf[(5, 2)].symbol(), "⚠");
        assert_eq!(buf[(6, 2)].symbol(), " ");
    }
}
