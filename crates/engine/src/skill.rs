//! Per-surface field rules (spec §6): names, descriptions, tags; and what
//! the listing makes of one SKILL.md, before any other skill is known.

use super::value::{Map, Value};
use crate::py::{py_strip, py_strip_chars, take_chars};
use crate::{frontmatter, gates, Engine};

pub const MAX_NAME_LENGTH: usize = 64;
pub const MAX_DESCRIPTION_LENGTH: usize = 1024;
/// `_find_all_skills` parses only this many characters of SKILL.md.
pub const LISTING_READ_CHARS: usize = 4000;

/// The first non-empty body line that is not a heading (stripped).
pub fn first_body_line(body: &str) -> Option<&str> {
    py_strip(body).split('\n').map(py_strip).find(|l| !l.is_empty() && !l.starts_with('#'))
}

/// The listing name (NAME-1): `name[:64]` of the frontmatter name (or the
/// folder name); `None` where that raises and the skill is dropped. Only a
/// string or a `!!binary` bytes name survives (a list slices, but then
/// cannot be hashed).
pub fn listing_name(fm: &Map, dir_name: &str) -> Option<ListingName> {
    match fm.get("name") {
        None => Some(ListingName::Str(take_chars(dir_name, MAX_NAME_LENGTH).to_owned())),
        Some(Value::Str(s)) => Some(ListingName::Str(take_chars(s, MAX_NAME_LENGTH).to_owned())),
        Some(Value::Bytes(b)) => Some(ListingName::Bytes(b[..b.len().min(MAX_NAME_LENGTH)].to_vec())),
        Some(_) => None,
    }
}

/// A listed skill's name: a string, or the bytes a `!!binary` name holds.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ListingName {
    Str(String),
    Bytes(Vec<u8>),
}

impl ListingName {
    /// The name as text: a string itself, bytes as Python prints them.
    pub fn text(&self) -> String {
        match self {
            ListingName::Str(s) => s.clone(),
            ListingName::Bytes(b) => crate::py::py_bytes_repr(b),
        }
    }
}

/// The listing description (DESC-1); `None` where Hermes' `len()` or slice
/// raises and the skill is dropped from the listing.
pub fn listing_description(fm: &Map, body: &str) -> Option<Value> {
    let mut desc = fm.get("description").cloned().unwrap_or(Value::Str(String::new()));
    if !desc.truthy() {
        if let Some(line) = first_body_line(body) {
            desc = Value::Str(line.to_owned());
        }
    }
    let len = desc.py_len()?;
    if len > MAX_DESCRIPTION_LENGTH {
        match &desc {
            Value::Str(s) => {
                desc = Value::Str(format!("{}...", take_chars(s, MAX_DESCRIPTION_LENGTH - 3)));
            }
            _ => return None,
        }
    }
    Some(desc)
}

/// The system-prompt description (DESC-4): stripped of spaces and quotes,
/// cut to 60 characters.
pub fn prompt_description(fm: &Map) -> String {
    let Some(raw) = fm.get("description").filter(|v| v.truthy()) else {
        return String::new();
    };
    let text = raw.py_str();
    let desc = py_strip_chars(py_strip(&text), &['\'', '"']);
    if desc.chars().count() > 60 {
        format!("{}...", take_chars(desc, 57))
    } else {
        desc.to_owned()
    }
}

/// `_parse_tags`: a list's truthy items, or a comma string (brackets removed).
pub fn parse_tags(value: Option<&Value>) -> Vec<String> {
    let Some(value) = value.filter(|v| v.truthy()) else {
        return Vec::new();
    };
    if let Value::Seq(items) = value {
        return items.iter().filter(|t| t.truthy()).map(|t| py_strip(&t.py_str()).to_owned()).collect();
    }
    let text = value.py_str();
    let mut text = py_strip(&text);
    if text.starts_with('[') && text.ends_with(']') && text.len() >= 2 {
        text = &text[1..text.len() - 1];
    }
    text.split(',')
        .filter(|t| !py_strip(t).is_empty())
        .map(|t| py_strip_chars(py_strip(t), &['"', '\'']).to_owned())
        .collect()
}

/// Tags or related skills: `metadata.hermes.<key>` when truthy, else the
/// top-level key.
pub fn tag_list(fm: &Map, key: &str) -> Vec<String> {
    let hermes = fm.get("metadata").and_then(Value::as_map).and_then(|m| m.get("hermes")).filter(|h| h.truthy());
    let from_meta = hermes.and_then(|h| h.get(key)).filter(|v| v.truthy());
    parse_tags(from_meta.or_else(|| fm.get(key)))
}

/// The slug Hermes derives for slash commands and bundles.
pub fn slugify(name: &str) -> String {
    // Most names are ASCII: one pass, one allocation (a non-ASCII letter
    // may lowercase to an ASCII one, the Kelvin sign to `k`).
    if name.is_ascii() {
        let mut out = String::with_capacity(name.len());
        for b in name.bytes() {
            let c = match b.to_ascii_lowercase() {
                b' ' | b'_' | b'-' => b'-',
                c @ (b'a'..=b'z' | b'0'..=b'9') => c,
                _ => continue,
            };
            if c == b'-' && (out.is_empty() || out.ends_with('-')) {
                continue;
            }
            out.push(char::from(c));
        }
        if out.ends_with('-') {
            out.pop();
        }
        return out;
    }
    let lowered = name.to_lowercase().replace([' ', '_'], "-");
    let kept: String = lowered.chars().filter(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '-').collect();
    let mut out = String::with_capacity(kept.len());
    for c in kept.chars() {
        if c == '-' && out.ends_with('-') {
            continue;
        }
        out.push(c);
    }
    out.trim_matches('-').to_owned()
}

/// What the listing makes of one SKILL.md before the first-name-wins pass.
pub enum Listing {
    /// Dropped: unreadable, gated, or a value Hermes cannot handle.
    Skip,
    Keep {
        name: ListingName,
        description: Value,
    },
}

/// The frontmatter keys the listing reads.
const LISTING_KEYS: [&str; 4] = ["name", "description", "platforms", "environments"];

impl Engine {
    /// The listing's view of one SKILL.md's text (its first 4000 characters).
    pub fn listing_candidate_text(&self, path: &std::path::Path, text: &str) -> Listing {
        let head = take_chars(text, LISTING_READ_CHARS);
        let (fm, body) = frontmatter::parse_selected(head, &LISTING_KEYS);
        self.listing_candidate_parsed(path, &fm.fields, body)
    }

    /// The listing's view of a parsed SKILL.md (parsed from at most its
    /// first 4000 characters).
    pub fn listing_candidate_parsed(&self, path: &std::path::Path, fm: &Map, body: &str) -> Listing {
        if !gates::frontmatter_platform_matches(fm, &self.env) || !gates::environment_matches(fm, &self.home, &self.env)
        {
            return Listing::Skip;
        }
        let dir_name = path.parent().and_then(|p| p.file_name()).map(|n| n.to_string_lossy()).unwrap_or_default();
        let Some(name) = listing_name(fm, &dir_name) else {
            return Listing::Skip;
        };
        let Some(description) = listing_description(fm, body) else {
            return Listing::Skip;
        };
        Listing::Keep { name, description }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(yaml: &str) -> Map {
        crate::yaml::load(yaml).unwrap().as_map().unwrap().clone()
    }

    #[test]
    fn tags_forms() {
        assert_eq!(parse_tags(Some(&crate::yaml::load("[a, '', b, false]").unwrap())), ["a", "b"]);
        assert_eq!(parse_tags(Some(&Value::Str("[a, 'b' , \"c\"]".into()))), ["a", "b", "c"]);
        assert_eq!(parse_tags(Some(&Value::Str("x,,y".into()))), ["x", "y"]);
        assert!(parse_tags(None).is_empty());
    }

    #[test]
    fn tags_prefer_metadata_hermes() {
        let fm = map("tags: [top]\nmetadata:\n  hermes:\n    tags: [meta]\n");
        assert_eq!(tag_list(&fm, "tags"), ["meta"]);
        let fm = map("tags: [top]\nmetadata:\n  hermes:\n    tags: []\n");
        assert_eq!(tag_list(&fm, "tags"), ["top"]);
    }

    #[test]
    fn slug_rules() {
        assert_eq!(slugify("Backend Dev"), "backend-dev");
        assert_eq!(slugify("git_helper--x!"), "git-helper-x");
        assert_eq!(slugify("!!!"), "");
        assert_eq!(slugify("小说"), "");
        assert_eq!(slugify("\u{212a}elvin Tools"), "kelvin-tools");
    }

    /// An ASCII name's slug (one pass) is what Hermes' steps make of it.
    #[test]
    fn ascii_slugs_follow_the_steps() {
        let steps = |name: &str| {
            let lowered = name.to_lowercase().replace([' ', '_'], "-");
            let kept: String =
                lowered.chars().filter(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '-').collect();
            let mut out = String::new();
            for c in kept.chars() {
                if !(c == '-' && out.ends_with('-')) {
                    out.push(c);
                }
            }
            out.trim_matches('-').to_owned()
        };
        let pieces = ["", " ", "_", "-", "!", "a", "Z", "9", "--", " _-", "Ab", "x.y", "\t", "~"];
        for a in pieces {
            for b in pieces {
                for c in pieces {
                    let name = format!("{a}{b}{c}{b}{a}");
                    assert_eq!(slugify(&name), steps(&name), "{name:?}");
                }
            }
        }
    }

    #[test]
    fn descriptions() {
        let fm = map("description: \"  'quoted text that is long enough to be cut somewhere after sixty chars'  \"\n");
        let d = prompt_description(&fm);
        assert_eq!(d.chars().count(), 60);
        assert!(d.ends_with("..."));
        let fm = map("name: x\n");
        assert_eq!(listing_description(&fm, "\n# H\n\n  first line \n"), Some(Value::Str("first line".into())));
        let fm = map("description: null\n");
        assert_eq!(listing_description(&fm, "# only heading"), None);
    }
}
