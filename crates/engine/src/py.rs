//! Python's semantics, in one place, where Hermes' answers depend on them:
//! `str()` and `repr()` of floats and strings, `str.strip()` and
//! `splitlines()`, `int()` and `float()` of values, truthiness and `str()`
//! of JSON values, and `json.dumps` of non-finite floats. ([`Value`](crate::value::Value)'s own
//! methods give truthiness, `str()` and `==` of YAML values.)

use serde_json::Value as Json;
use std::fmt::Write as _;

/// A Python exception Hermes would raise for an input: its class and its
/// `str()`. Hermes' JSON carries the `str()` alone, so that is what it
/// displays; [`PyError::traceback_line`] gives the class too.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PyError {
    pub kind: &'static str,
    pub message: String,
}

impl PyError {
    pub fn new(kind: &'static str, message: impl Into<String>) -> PyError {
        PyError { kind, message: message.into() }
    }

    pub fn type_error(message: impl Into<String>) -> PyError {
        PyError::new("TypeError", message)
    }

    pub fn value_error(message: impl Into<String>) -> PyError {
        PyError::new("ValueError", message)
    }

    /// `TypeError: '<type>' object is not iterable`.
    pub fn not_iterable(type_name: &str) -> PyError {
        PyError::type_error(format!("'{type_name}' object is not iterable"))
    }

    /// `ValueError: ...`, as the last line of a traceback prints it.
    pub fn traceback_line(&self) -> String {
        format!("{}: {}", self.kind, self.message)
    }
}

impl std::fmt::Display for PyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for PyError {}

/// Hermes' JSON answers carry `str(e)`: `{"error": str(e), "success": false}`.
impl serde::Serialize for PyError {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.message)
    }
}

/// A JSON number from text Python's `json` module would print.
pub(crate) fn json_number(text: &str) -> serde_json::Number {
    serde_json::Number::from_string_unchecked(text.to_owned())
}

/// `json.dumps` writes non-finite floats as bare `NaN`, `Infinity` and
/// `-Infinity`, which no JSON value can hold; they travel as these marked
/// strings and [`json_text`] writes them bare.
const NON_FINITE: [(&str, &str); 3] =
    [("\u{1}py-float:NaN", "NaN"), ("\u{1}py-float:Infinity", "Infinity"), ("\u{1}py-float:-Infinity", "-Infinity")];

/// `json.dumps` of a float: `repr()`, or a marked non-finite value.
pub(crate) fn py_json_float(f: f64) -> Json {
    let marked = |i: usize| Json::String(NON_FINITE[i].0.to_owned());
    if f.is_nan() {
        marked(0)
    } else if f.is_infinite() {
        marked(if f > 0.0 { 1 } else { 2 })
    } else {
        Json::Number(json_number(&py_float_repr(f)))
    }
}

/// The float a marked non-finite string stands for (see [`json_text`]).
pub fn marked_non_finite(s: &str) -> Option<f64> {
    match NON_FINITE.iter().position(|(marked, _)| *marked == s)? {
        0 => Some(f64::NAN),
        1 => Some(f64::INFINITY),
        _ => Some(f64::NEG_INFINITY),
    }
}

/// JSON text as Python's `json` module writes it: non-finite floats bare.
pub fn json_text(value: &Json, pretty: bool) -> String {
    let text = if pretty { serde_json::to_string_pretty(value) } else { serde_json::to_string(value) };
    let mut text = text.unwrap_or_default();
    if text.contains("\\u0001py-float:") {
        for (marked, bare) in NON_FINITE {
            text = text.replace(&format!("\"\\u0001{}\"", &marked[1..]), bare);
        }
    }
    text
}

/// Python's `repr(float)`: shortest round-trip digits, `1.0` for integral
/// values, exponent form with a sign and two digits at least.
pub fn py_float_repr(f: f64) -> String {
    if f.is_nan() {
        return "nan".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "inf".into() } else { "-inf".into() };
    }
    let s = format!("{f:?}");
    match s.split_once('e') {
        Some((mantissa, exp)) => {
            let (sign, digits) = match exp.strip_prefix('-') {
                Some(d) => ('-', d),
                None => ('+', exp),
            };
            let mantissa = mantissa.strip_suffix(".0").unwrap_or(mantissa);
            format!("{mantissa}e{sign}{digits:0>2}")
        }
        None => s,
    }
}

/// Python's `repr(str)`.
pub fn py_str_repr(s: &str) -> String {
    let quote = if s.contains('\'') && !s.contains('"') { '"' } else { '\'' };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c if !c.is_ascii() && !is_printable(c) => {
                let _ = match c as u32 {
                    n @ ..0x100 => write!(out, "\\x{n:02x}"),
                    n @ ..0x10000 => write!(out, "\\u{n:04x}"),
                    n => write!(out, "\\U{n:08x}"),
                };
            }
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

/// The most digits Python 3.11 reads or writes a decimal integer with
/// (`sys.get_int_max_str_digits()`).
pub const INT_MAX_STR_DIGITS: usize = 4300;

/// The ValueError Python raises writing an integer of more digits than
/// [`INT_MAX_STR_DIGITS`] as decimal text (`str()`, `json.dumps`).
pub fn int_too_long_to_write() -> PyError {
    PyError::new(
        "ValueError",
        format!(
            "Exceeds the limit ({INT_MAX_STR_DIGITS} digits) for integer string conversion; use sys.set_int_max_str_digits() to increase the limit"
        ),
    )
}

/// Python's `str.isprintable()` for one character past ASCII.
fn is_printable(c: char) -> bool {
    let n = c as u32;
    let table = &crate::py_printable::NON_PRINTABLE;
    let at = table.partition_point(|&(_, last)| last < n);
    !table.get(at).is_some_and(|&(first, _)| first <= n)
}

/// Python's `repr(bytes)`.
pub fn py_bytes_repr(b: &[u8]) -> String {
    let quote = if b.contains(&b'\'') && !b.contains(&b'"') { '"' } else { '\'' };
    let mut out = String::with_capacity(b.len() + 3);
    out.push('b');
    out.push(quote);
    for &c in b {
        match c {
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            c if c as char == quote => {
                out.push('\\');
                out.push(quote);
            }
            0x20..=0x7e => out.push(c as char),
            c => {
                let _ = write!(out, "\\x{c:02x}");
            }
        }
    }
    out.push(quote);
    out
}

/// Python's `str.isspace()` for one character.
pub fn py_is_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// Python's `str.strip()`.
pub fn py_strip(s: &str) -> &str {
    s.trim_matches(py_is_space)
}

/// Python's `str.splitlines()`: every line boundary Python knows, `\r\n` as one.
pub fn py_splitlines(s: &str) -> impl Iterator<Item = &str> {
    let is_break = |c: char| {
        matches!(c, '\n' | '\r' | '\u{b}' | '\u{c}' | '\u{1c}'..='\u{1e}' | '\u{85}' | '\u{2028}' | '\u{2029}')
    };
    let mut rest = s;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        match rest.find(is_break) {
            None => Some(std::mem::take(&mut rest)),
            Some(i) => {
                let line = &rest[..i];
                let brk = rest[i..].chars().next().map_or(1, char::len_utf8);
                let skip = if rest[i..].starts_with("\r\n") { 2 } else { brk };
                rest = &rest[i + skip..];
                Some(line)
            }
        }
    })
}

/// Python's `str.strip(chars)`.
pub fn py_strip_chars<'a>(s: &'a str, chars: &[char]) -> &'a str {
    s.trim_matches(|c| chars.contains(&c))
}

/// The first `n` characters (Python `s[:n]`).
pub fn take_chars(s: &str, n: usize) -> &str {
    if s.len() <= n {
        return s; // never more characters than bytes
    }
    match s.char_indices().nth(n) {
        Some((i, _)) => &s[..i],
        None => s,
    }
}

/// Python truthiness of a JSON value.
pub fn json_truthy(v: &Json) -> bool {
    match v {
        Json::Null => false,
        Json::Bool(b) => *b,
        Json::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
        Json::String(s) => !s.is_empty(),
        Json::Array(a) => !a.is_empty(),
        Json::Object(o) => !o.is_empty(),
    }
}

/// `int(value)` of a JSON value as Python gives it, `None` where it raises.
pub fn json_int(v: &Json) -> Option<i64> {
    match v {
        Json::Bool(b) => Some(i64::from(*b)),
        Json::Number(n) => n.as_i64().or_else(|| n.as_f64().filter(|f| f.is_finite()).map(|f| f.trunc() as i64)),
        Json::String(s) => int_text(s),
        _ => None,
    }
}

/// `int(text)`: blanks around, a sign, ASCII digits with single
/// underscores between them.
pub fn int_text(text: &str) -> Option<i64> {
    let t = int_literal(text)?;
    t.replace('_', "").parse().ok()
}

/// [`int_text`], an integer beyond `i64` held at its bound.
pub fn int_text_saturating(text: &str) -> Option<i64> {
    let t = int_literal(text)?;
    Some(t.replace('_', "").parse().unwrap_or(if t.starts_with('-') { i64::MIN } else { i64::MAX }))
}

/// `text` stripped, when it is an integer `int()` reads.
fn int_literal(text: &str) -> Option<&str> {
    let t = py_strip(text);
    let digits = t.strip_prefix(['+', '-']).unwrap_or(t);
    let well_formed = !digits.is_empty()
        && !digits.starts_with('_')
        && !digits.ends_with('_')
        && !digits.contains("__")
        && digits.bytes().all(|b| b.is_ascii_digit() || b == b'_');
    well_formed.then_some(t)
}

/// `float(value)` as Python gives it, `None` where it raises.
pub fn json_float(v: &Json) -> Option<f64> {
    match v {
        Json::Bool(b) => Some(f64::from(u8::from(*b))),
        Json::Number(n) => n.as_f64(),
        Json::String(s) => py_strip(s).parse().ok(),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_read_as_python_int_reads_them() {
        for (text, int) in [("3", Some(3)), (" -4 ", Some(-4)), ("+5", Some(5)), ("1_000", Some(1000))] {
            assert_eq!(int_text(text), int, "{text:?}");
        }
        for bad in ["_1", "1_", "1__0", "", "-", "1.5", "0x10", "many", "+_1"] {
            assert_eq!(int_text(bad), None, "{bad:?}");
        }
    }
}
