//! Shared printing: JSON, tables that fit the terminal, exit statuses.

use super::{EXIT_ANSWER_ERROR, EXIT_OK};
use crate::sanitize::clean_line;
use serde_json::Value as Json;
use std::io::{self, Write};
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

pub type Out<'a> = dyn Write + 'a;

/// Pretty JSON with Hermes' key order.
/// `code`, the verdict an answer gives, once it is written: a reader that
/// stops early (`| head`) leaves the verdict as it is.
pub fn verdict(written: io::Result<()>, code: i32) -> io::Result<i32> {
    match written {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(code),
        written => written.map(|()| code),
    }
}

pub fn print_json(out: &mut Out, value: &Json) -> io::Result<()> {
    writeln!(out, "{}", crate::engine::py::json_text(value, true))
}

/// Prints a value that serializes itself, as [`print_json`] prints its
/// JSON tree, without building the tree. (Python's bare non-finite floats
/// are not among such values.)
pub fn print_serialized(out: &mut Out, value: &impl serde::Serialize) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, value)?;
    writeln!(out)
}

/// 1 when the answer is a Hermes error object (`"success": false`).
pub fn status_of(value: &Json) -> i32 {
    match value.get("success") {
        Some(Json::Bool(false)) => EXIT_ANSWER_ERROR,
        _ => EXIT_OK,
    }
}

/// Whether to colour what goes to stdout: a terminal that takes colour
/// (not `NO_COLOR`, not `TERM=dumb`).
pub fn colour_on_stdout() -> bool {
    use crate::tui::theme::ColorMode;
    use std::io::IsTerminal;
    io::stdout().is_terminal() && ColorMode::from_env() != ColorMode::NoColor
}

/// The width to fit tables into: the terminal's own (asked of the
/// terminal), else `$COLUMNS`, else 100; `None` when stdout is not a
/// terminal, so piped output is never cut.
pub fn terminal_width() -> Option<usize> {
    use std::io::IsTerminal;
    if !io::stdout().is_terminal() {
        return None;
    }
    let asked = stdout_columns();
    let from_env = || std::env::var("COLUMNS").ok().and_then(|c| c.parse().ok());
    Some(asked.or_else(from_env).filter(|w| *w >= 20).unwrap_or(100))
}

/// The column count of the terminal on stdout.
#[cfg(unix)]
fn stdout_columns() -> Option<usize> {
    // SAFETY: winsize is plain integers, for which all zeroes is valid.
    let mut size: libc::winsize = unsafe { std::mem::zeroed() };
    // SAFETY: TIOCGWINSZ fills a winsize struct we own; on failure nothing is read.
    let ok = unsafe { libc::ioctl(libc::STDOUT_FILENO, libc::TIOCGWINSZ, &mut size) } == 0;
    (ok && size.ws_col > 0).then_some(usize::from(size.ws_col))
}

#[cfg(not(unix))]
fn stdout_columns() -> Option<usize> {
    crossterm::terminal::size().ok().map(|(w, _)| usize::from(w))
}

/// Cuts `text` to at most `width` columns, marking the cut with `…`.
pub fn fit(text: &str, width: usize) -> String {
    if text.width() <= width {
        return text.to_owned();
    }
    let mut out = String::new();
    let mut used = 0;
    for c in text.chars() {
        let w = c.width().unwrap_or(0);
        if used + w + 1 > width {
            break;
        }
        used += w;
        out.push(c);
    }
    out.push('…');
    out
}

/// `text` padded with spaces to `width` columns.
pub fn pad(text: &str, width: usize) -> String {
    let w = text.width();
    format!("{text}{}", " ".repeat(width.saturating_sub(w)))
}

/// A plain table: the last column takes the remaining width of the
/// terminal (nothing is cut when stdout is not one). Every cell is untrusted
/// text and is cleaned first.
pub fn print_table(out: &mut Out, header: &[&str], rows: &[Vec<String>]) -> io::Result<()> {
    write_table(out, header, rows, terminal_width())
}

/// [`print_table`] at a given width, or uncut.
pub fn write_table(out: &mut Out, header: &[&str], rows: &[Vec<String>], width: Option<usize>) -> io::Result<()> {
    let cols = header.len();
    let cap = if width.is_some() { 48 } else { usize::MAX };
    let rows: Vec<Vec<String>> = rows.iter().map(|r| r.iter().map(|c| clean_line(c)).collect()).collect();
    let mut widths: Vec<usize> = header.iter().map(|h| h.width()).collect();
    for row in &rows {
        for (i, cell) in row.iter().enumerate().take(cols - 1) {
            widths[i] = widths[i].max(cell.width().min(cap));
        }
    }
    let used: usize = widths[..cols - 1].iter().map(|w| w + 2).sum();
    let last = width.map_or(usize::MAX, |w| w.saturating_sub(used).max(12));
    let line = |cells: Vec<String>| -> String {
        let mut s = String::new();
        for (i, cell) in cells.iter().enumerate() {
            if i + 1 == cols {
                s.push_str(&fit(cell, last));
            } else {
                s.push_str(&pad(&fit(cell, widths[i]), widths[i] + 2));
            }
        }
        s.trim_end().to_owned()
    };
    writeln!(out, "{}", line(header.iter().map(|h| h.to_string()).collect()))?;
    for row in rows {
        writeln!(out, "{}", line(row))?;
    }
    Ok(())
}

/// Python `str()` of a JSON value, for one-line display.
pub fn text(value: &Json) -> String {
    crate::engine::value::json_py_str(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(width: Option<usize>) -> String {
        let rows = vec![vec!["deploy".to_owned(), "a description that is long enough to be cut somewhere".to_owned()]];
        let mut out = Vec::new();
        write_table(&mut out, &["NAME", "DESCRIPTION"], &rows, width).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn tables_fit_a_terminal_and_stay_whole_in_a_pipe() {
        let narrow = table(Some(30));
        assert!(narrow.lines().all(|l| l.width() <= 30), "{narrow}");
        assert!(narrow.contains('…'));
        let piped = table(None);
        assert!(piped.contains("cut somewhere") && !piped.contains('…'), "{piped}");
    }
}
