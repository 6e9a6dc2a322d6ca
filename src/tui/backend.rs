//! The terminal backend: crossterm's, except that cells are drawn with
//! plain SGR codes. crossterm writes every named colour as a 256-colour
//! code (`38;5;12`), which a 16-colour terminal does not understand; here
//! the 16 standard colours are `30`–`37` and `90`–`97`, and only indexed
//! and RGB colours use the extended codes (the theme uses them only where
//! the terminal says it has them).

use crossterm::cursor::MoveTo;
use crossterm::queue;
use ratatui::backend::{Backend, ClearType, CrosstermBackend, WindowSize};
use ratatui::buffer::Cell;
use ratatui::layout::{Position, Size};
use ratatui::style::{Color, Modifier};
use std::io::{self, Write};

pub struct SgrBackend<W: Write> {
    inner: CrosstermBackend<W>,
}

impl<W: Write> SgrBackend<W> {
    pub fn new(writer: W) -> SgrBackend<W> {
        SgrBackend { inner: CrosstermBackend::new(writer) }
    }
}

/// The SGR parameters of a foreground (`base` 30) or background (40) colour.
fn color_code(color: Color, base: u8) -> String {
    let bright = base + 60;
    match color {
        Color::Reset => format!("{}", base + 9),
        Color::Black => format!("{base}"),
        Color::Red => format!("{}", base + 1),
        Color::Green => format!("{}", base + 2),
        Color::Yellow => format!("{}", base + 3),
        Color::Blue => format!("{}", base + 4),
        Color::Magenta => format!("{}", base + 5),
        Color::Cyan => format!("{}", base + 6),
        Color::Gray => format!("{}", base + 7),
        Color::DarkGray => format!("{bright}"),
        Color::LightRed => format!("{}", bright + 1),
        Color::LightGreen => format!("{}", bright + 2),
        Color::LightYellow => format!("{}", bright + 3),
        Color::LightBlue => format!("{}", bright + 4),
        Color::LightMagenta => format!("{}", bright + 5),
        Color::LightCyan => format!("{}", bright + 6),
        Color::White => format!("{}", bright + 7),
        Color::Indexed(i) => format!("{};5;{i}", base + 8),
        Color::Rgb(r, g, b) => format!("{};2;{r};{g};{b}", base + 8),
    }
}

/// One SGR sequence setting a cell's whole style from a reset.
pub fn sgr(fg: Color, bg: Color, modifier: Modifier) -> String {
    let mut params = vec!["0".to_owned()];
    for (m, code) in [
        (Modifier::BOLD, "1"),
        (Modifier::DIM, "2"),
        (Modifier::ITALIC, "3"),
        (Modifier::UNDERLINED, "4"),
        (Modifier::SLOW_BLINK, "5"),
        (Modifier::RAPID_BLINK, "6"),
        (Modifier::REVERSED, "7"),
        (Modifier::HIDDEN, "8"),
        (Modifier::CROSSED_OUT, "9"),
    ] {
        if modifier.contains(m) {
            params.push(code.to_owned());
        }
    }
    if fg != Color::Reset {
        params.push(color_code(fg, 30));
    }
    if bg != Color::Reset {
        params.push(color_code(bg, 40));
    }
    format!("\x1b[{}m", params.join(";"))
}

impl<W: Write> Backend for SgrBackend<W> {
    fn draw<'a, I>(&mut self, content: I) -> io::Result<()>
    where
        I: Iterator<Item = (u16, u16, &'a Cell)>,
    {
        let mut style: Option<(Color, Color, Modifier)> = None;
        let mut last: Option<(u16, u16)> = None;
        for (x, y, cell) in content {
            if !matches!(last, Some((lx, ly)) if x == lx + 1 && y == ly) {
                queue!(self.inner, MoveTo(x, y))?;
            }
            last = Some((x, y));
            let wanted = (cell.fg, cell.bg, cell.modifier);
            if style != Some(wanted) {
                self.inner.write_all(sgr(cell.fg, cell.bg, cell.modifier).as_bytes())?;
                style = Some(wanted);
            }
            self.inner.write_all(cell.symbol().as_bytes())?;
        }
        self.inner.write_all(b"\x1b[0m")
    }

    fn append_lines(&mut self, n: u16) -> io::Result<()> {
        self.inner.append_lines(n)
    }

    fn hide_cursor(&mut self) -> io::Result<()> {
        self.inner.hide_cursor()
    }

    fn show_cursor(&mut self) -> io::Result<()> {
        self.inner.show_cursor()
    }

    fn get_cursor_position(&mut self) -> io::Result<Position> {
        self.inner.get_cursor_position()
    }

    fn set_cursor_position<P: Into<Position>>(&mut self, position: P) -> io::Result<()> {
        self.inner.set_cursor_position(position)
    }

    fn clear(&mut self) -> io::Result<()> {
        self.inner.clear()
    }

    fn clear_region(&mut self, clear_type: ClearType) -> io::Result<()> {
        self.inner.clear_region(clear_type)
    }

    fn size(&self) -> io::Result<Size> {
        self.inner.size()
    }

    fn window_size(&mut self) -> io::Result<WindowSize> {
        self.inner.window_size()
    }

    fn flush(&mut self) -> io::Result<()> {
        Backend::flush(&mut self.inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::style::Style;
    use ratatui::text::Span;
    use ratatui::widgets::Paragraph;
    use ratatui::Terminal;

    #[test]
    fn named_colours_use_the_16_colour_codes() {
        assert_eq!(sgr(Color::LightBlue, Color::Reset, Modifier::BOLD), "\x1b[0;1;94m");
        assert_eq!(sgr(Color::Red, Color::Black, Modifier::empty()), "\x1b[0;31;40m");
        assert_eq!(sgr(Color::Indexed(12), Color::Rgb(1, 2, 3), Modifier::REVERSED), "\x1b[0;7;38;5;12;48;2;1;2;3m");
        assert_eq!(sgr(Color::Reset, Color::Reset, Modifier::empty()), "\x1b[0m");
    }

    #[test]
    fn a_frame_has_no_extended_colour_codes() {
        let mut out = Vec::new();
        {
            let backend = SgrBackend::new(&mut out);
            let mut terminal = Terminal::with_options(
                backend,
                ratatui::TerminalOptions {
                    viewport: ratatui::Viewport::Fixed(ratatui::layout::Rect::new(0, 0, 10, 2)),
                },
            )
            .unwrap();
            terminal
                .draw(|f| {
                    let text = Span::styled("hi", Style::default().fg(Color::LightBlue).bg(Color::DarkGray));
                    f.render_widget(Paragraph::new(text), f.area());
                })
                .unwrap();
        }
        let text = String::from_utf8_lossy(&out);
        assert!(text.contains("\x1b[0;94;100mhi"), "{text:?}");
        assert!(!text.contains("38;5") && !text.contains("48;5"), "{text:?}");
    }
}
