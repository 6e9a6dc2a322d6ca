//! `parse_frontmatter` (spec §5): fences, YAML, and the line-split fallback.

use super::value::{Key, Map, Value};
use super::yaml::LoadError;
use crate::py::{py_is_space, py_strip};

/// How the frontmatter block was read, for authors who need to know.
#[derive(Debug, Clone, PartialEq)]
pub enum FrontmatterKind {
    /// The file does not start with `---`, or no closing fence was found.
    None,
    /// YAML parsed to a mapping.
    Yaml,
    /// YAML parsed, but not to a mapping: Hermes uses `{}`.
    NotAMapping,
    /// YAML failed (PyYAML raised); `key: value` lines were split by hand.
    Fallback(Box<LoadError>),
}

#[derive(Debug, Clone)]
pub struct Frontmatter {
    pub fields: Map,
    /// Byte offset in the (BOM-stripped) text where the body starts.
    pub body_start: usize,
    pub kind: FrontmatterKind,
    /// The raw YAML block text (between the fences), when there is one.
    pub yaml_len: usize,
}

impl Frontmatter {
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.fields.get(key)
    }
}

/// Finds `\n---\s*\n` in `text` (Python `\s`, greedy): returns
/// (start of the `\n`, end of the match).
fn find_closing_fence(text: &str) -> Option<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(rel) = text[from..].find("\n---") {
        let start = from + rel;
        let after = start + 4;
        // Greedy `\s*` then backtrack to the last `\n` inside the whitespace run.
        let mut end = after;
        let mut last_newline = None;
        for (i, c) in text[after..].char_indices() {
            if !py_is_space(c) {
                break;
            }
            end = after + i + c.len_utf8();
            if c == '\n' {
                last_newline = Some(end);
            }
        }
        let _ = end;
        if let Some(m_end) = last_newline {
            return Some((start, m_end));
        }
        from = start + 1;
        if from >= bytes.len() {
            break;
        }
    }
    None
}

/// Parses `content` as Hermes does; returns the frontmatter and the body.
pub fn parse(content: &str) -> (Frontmatter, &str) {
    parse_with(content, crate::yaml::load)
}

/// [`parse`] keeping only the named top-level keys (fallback included).
pub fn parse_selected<'a>(content: &'a str, keys: &[&str]) -> (Frontmatter, &'a str) {
    let (mut fm, body) = parse_with(content, |yaml| super::yaml::load_selected(yaml, keys));
    if matches!(fm.kind, FrontmatterKind::Fallback(_)) {
        fm.fields.retain(|k, _| k.as_str().is_some_and(|k| keys.contains(&k)));
    }
    (fm, body)
}

/// The fences alone, without reading the YAML: the YAML block and the
/// body of the (BOM-stripped) text, or `None` when it has no frontmatter.
pub fn split(content: &str) -> Option<(&str, &str)> {
    let content = content.strip_prefix('\u{feff}').unwrap_or(content);
    if !content.starts_with("---") {
        return None;
    }
    let (fence_start, fence_end) = find_closing_fence(&content[3..])?;
    Some((&content[3..3 + fence_start], &content[3 + fence_end..]))
}

/// The body [`parse`] would return, without reading the YAML.
pub fn body(content: &str) -> &str {
    match split(content) {
        Some((_, body)) => body,
        None => content.strip_prefix('\u{feff}').unwrap_or(content),
    }
}

fn parse_with(content: &str, load: impl Fn(&str) -> Result<Value, LoadError>) -> (Frontmatter, &str) {
    let none =
        |body_start| Frontmatter { fields: Map::default(), body_start, kind: FrontmatterKind::None, yaml_len: 0 };
    let Some((yaml, body)) = split(content) else {
        return (none(0), content.strip_prefix('\u{feff}').unwrap_or(content));
    };
    let stripped = content.strip_prefix('\u{feff}').unwrap_or(content);
    let body_start = stripped.len() - body.len();
    let (fields, kind) = match load(yaml) {
        Ok(Value::Map(m)) => (m, FrontmatterKind::Yaml),
        Ok(_) => (Map::default(), FrontmatterKind::NotAMapping),
        Err(e) => (split_lines(yaml), FrontmatterKind::Fallback(Box::new(e))),
    };
    (Frontmatter { fields, body_start, kind, yaml_len: yaml.len() }, body)
}

/// The fallback: each line with a `:` becomes `key.strip(): value.strip()`.
fn split_lines(yaml: &str) -> Map {
    let mut map = Map::default();
    for line in py_strip(yaml).split('\n') {
        if let Some((key, value)) = line.split_once(':') {
            map.insert(Key::from(py_strip(key)), Value::Str(py_strip(value).to_owned()));
        }
    }
    map
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fm(text: &str) -> (Map, String, FrontmatterKind) {
        let (f, body) = parse(text);
        (f.fields, body.to_owned(), f.kind)
    }

    #[test]
    fn basic() {
        let (m, body, kind) = fm("---\nname: a\ndescription: b\n---\n# Body\n");
        assert_eq!(m["name"], Value::Str("a".into()));
        assert_eq!(body, "# Body\n");
        assert_eq!(kind, FrontmatterKind::Yaml);
    }

    #[test]
    fn closing_fence_needs_a_newline() {
        let (m, body, _) = fm("---\nname: a\n---");
        assert!(m.is_empty());
        assert_eq!(body, "---\nname: a\n---");
    }

    #[test]
    fn opening_fence_needs_no_newline_and_blank_lines_are_consumed() {
        let (m, body, _) = fm("---name: a\n---  \n\n\nbody");
        assert_eq!(m["name"], Value::Str("a".into()));
        assert_eq!(body, "body");
    }

    #[test]
    fn bom_and_crlf() {
        let (m, body, _) = fm("\u{feff}---\r\nname: a\r\n---\r\nbody\r\n");
        assert_eq!(m["name"], Value::Str("a".into()));
        assert_eq!(body, "body\r\n");
    }

    #[test]
    fn fallback_splits_lines() {
        let (m, _, kind) = fm("---\nname: x: y\n  bad: [unclosed\ndescription: d\n---\n");
        assert!(matches!(kind, FrontmatterKind::Fallback(_)));
        assert_eq!(m["name"], Value::Str("x: y".into()));
        assert_eq!(m["description"], Value::Str("d".into()));
        assert_eq!(m["bad"], Value::Str("[unclosed".into()));
    }

    #[test]
    fn non_mapping_is_empty() {
        let (m, _, kind) = fm("---\n- a\n---\nbody");
        assert!(m.is_empty());
        assert_eq!(kind, FrontmatterKind::NotAMapping);
    }
}
