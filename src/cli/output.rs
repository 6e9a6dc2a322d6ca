//! Shared printing: JSON, tables that fit the terminal, exit statuses.

use super::{EXIT_ANSWER_ERROR, EXIT_OK};
use crate::sanitize::clean_line;
use serde_json::Value as Json;
use std::io::{self, Write};
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

pub type Out<'a> = dyn Write + 'a;

/// Pretty JSON with Hermes' key order.
pub fn print_json(out: &mut Out, value: &Json) -> io::Result<()> {
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

/// The width to fit tables into: `$COLUMNS`, else 100.
pub fn terminal_width() -> usize {
    std::env::var("COLUMNS").ok().and_then(|c| c.parse().ok()).filter(|w| *w >= 20).unwrap_or(100)
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

fn pad(text: &str, width: usize) -> String {
    let w = text.width();
    format!("{text}{}", " ".repeat(width.saturating_sub(w)))
}

/// A plain table: the last column takes the remaining width. Every cell is
/// untrusted text and is cleaned first.
pub fn print_table(out: &mut Out, header: &[&str], rows: &[Vec<String>]) -> io::Result<()> {
    let cols = header.len();
    let rows: Vec<Vec<String>> = rows.iter().map(|r| r.iter().map(|c| clean_line(c)).collect()).collect();
    let mut widths: Vec<usize> = header.iter().map(|h| h.width()).collect();
    for row in &rows {
        for (i, cell) in row.iter().enumerate().take(cols - 1) {
            widths[i] = widths[i].max(cell.width().min(48));
        }
    }
    let used: usize = widths[..cols - 1].iter().map(|w| w + 2).sum();
    let last = terminal_width().saturating_sub(used).max(12);
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
    crate::engine::messages::json_py_str(value)
}
