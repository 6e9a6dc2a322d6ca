//! PyYAML's `Resolver`: the YAML 1.1 implicit types of plain scalars, and
//! explicit tags.

use regex::Regex;
use std::sync::OnceLock;

/// A node's resolved tag.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Tag {
    Null,
    Bool,
    Int,
    Float,
    Str,
    Binary,
    Timestamp,
    Omap,
    Pairs,
    Set,
    Seq,
    Map,
    Merge,
    Value,
    /// A tag SafeLoader has no constructor for, spelled in full.
    Other(Box<str>),
}

const PREFIX: &str = "tag:yaml.org,2002:";

impl Tag {
    /// A tag as libyaml hands it over (`!!int` is already
    /// `tag:yaml.org,2002:int`).
    pub fn from_full(tag: &str) -> Tag {
        let Some(short) = tag.strip_prefix(PREFIX) else {
            return Tag::Other(tag.into());
        };
        match short {
            "null" => Tag::Null,
            "bool" => Tag::Bool,
            "int" => Tag::Int,
            "float" => Tag::Float,
            "str" => Tag::Str,
            "binary" => Tag::Binary,
            "timestamp" => Tag::Timestamp,
            "omap" => Tag::Omap,
            "pairs" => Tag::Pairs,
            "set" => Tag::Set,
            "seq" => Tag::Seq,
            "map" => Tag::Map,
            "merge" => Tag::Merge,
            "value" => Tag::Value,
            _ => Tag::Other(tag.into()),
        }
    }

    /// The tag as PyYAML spells it in messages.
    pub fn full(&self) -> String {
        let short = match self {
            Tag::Null => "null",
            Tag::Bool => "bool",
            Tag::Int => "int",
            Tag::Float => "float",
            Tag::Str => "str",
            Tag::Binary => "binary",
            Tag::Timestamp => "timestamp",
            Tag::Omap => "omap",
            Tag::Pairs => "pairs",
            Tag::Set => "set",
            Tag::Seq => "seq",
            Tag::Map => "map",
            Tag::Merge => "merge",
            Tag::Value => "value",
            Tag::Other(full) => return full.to_string(),
        };
        format!("{PREFIX}{short}")
    }
}

struct Resolvers {
    float: Regex,
    int: Regex,
    timestamp: Regex,
}

/// PyYAML's bool and null patterns are fixed word lists.
const BOOL_WORDS: [&str; 18] = [
    "yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE", "on", "On", "ON", "off",
    "Off", "OFF",
];
const NULL_WORDS: [&str; 4] = ["~", "null", "Null", "NULL"];

/// Whether `value` is one of `words`, allowing Python's `$` before a final newline.
fn is_word(value: &str, words: &[&str]) -> bool {
    let value = value.strip_suffix('\n').unwrap_or(value);
    words.contains(&value)
}

// PyYAML's patterns, with Python's `$` (end, or before a final newline).
fn resolvers() -> &'static Resolvers {
    static RESOLVERS: OnceLock<Resolvers> = OnceLock::new();
    RESOLVERS.get_or_init(|| {
        let re = |body: &str| Regex::new(&format!(r"\A(?:{body})\n?\z")).expect("resolver pattern");
        Resolvers {
            float: re(concat!(
                r"[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?",
                r"|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?",
                r"|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*",
                r"|[-+]?\.(?:inf|Inf|INF)",
                r"|\.(?:nan|NaN|NAN)"
            )),
            int: re(concat!(
                r"[-+]?0b[0-1_]+",
                r"|[-+]?0[0-7_]+",
                r"|[-+]?(?:0|[1-9][0-9_]*)",
                r"|[-+]?0x[0-9a-fA-F_]+",
                r"|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+"
            )),
            timestamp: re(concat!(
                r"[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]",
                r"|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?",
                r"(?:[Tt]|[ \t]+)[0-9][0-9]?",
                r":[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?",
                r"(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?"
            )),
        }
    })
}

/// The tag of a scalar with no explicit tag (or the non-specific `!`).
/// Only plain scalars get implicit types; the resolvers are tried in
/// PyYAML's order for the value's first character.
pub fn resolve_scalar(value: &str, plain_implicit: bool, _quoted_implicit: bool) -> Tag {
    if !plain_implicit {
        return Tag::Str;
    }
    let Some(first) = value.chars().next() else {
        return Tag::Null; // the resolver for '' is null's
    };
    let word = |words: &[&str], tag: Tag| if is_word(value, words) { tag } else { Tag::Str };
    match first {
        'y' | 'Y' | 't' | 'T' | 'f' | 'F' | 'o' | 'O' => return word(&BOOL_WORDS, Tag::Bool),
        'n' | 'N' if is_word(value, &BOOL_WORDS) => return Tag::Bool,
        'n' | 'N' | '~' => return word(&NULL_WORDS, Tag::Null),
        _ => {}
    }
    let r = resolvers();
    let tried: &[(&Regex, Tag)] = match first {
        '-' | '+' => &[(&r.float, Tag::Float), (&r.int, Tag::Int)],
        '.' => &[(&r.float, Tag::Float)],
        '0'..='9' => &[(&r.float, Tag::Float), (&r.int, Tag::Int), (&r.timestamp, Tag::Timestamp)],
        '<' => return if matches!(value, "<<" | "<<\n") { Tag::Merge } else { Tag::Str },
        '=' => return if matches!(value, "=" | "=\n") { Tag::Value } else { Tag::Str },
        _ => return Tag::Str,
    };
    for (re, tag) in tried {
        if re.is_match(value) {
            return tag.clone();
        }
    }
    Tag::Str
}

/// PyYAML's `timestamp_regexp`, matched against the scalar's text.
pub fn timestamp_fields(value: &str) -> Option<regex::Captures<'_>> {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(concat!(
            r"\A(?P<year>[0-9][0-9][0-9][0-9])",
            r"-(?P<month>[0-9][0-9]?)",
            r"-(?P<day>[0-9][0-9]?)",
            r"(?:(?:[Tt]|[ \t]+)",
            r"(?P<hour>[0-9][0-9]?)",
            r":(?P<minute>[0-9][0-9])",
            r":(?P<second>[0-9][0-9])",
            r"(?:\.(?P<fraction>[0-9]*))?",
            r"(?:[ \t]*(?P<tz>Z|(?P<tz_sign>[-+])(?P<tz_hour>[0-9][0-9]?)",
            r"(?::(?P<tz_minute>[0-9][0-9]))?))?)?\n?\z"
        ))
        .expect("timestamp pattern")
    })
    .captures(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(v: &str) -> Tag {
        resolve_scalar(v, true, false)
    }

    #[test]
    fn yaml_1_1_implicit_types() {
        for v in ["yes", "No", "ON", "off", "TRUE", "False"] {
            assert_eq!(plain(v), Tag::Bool, "{v}");
        }
        for v in ["y", "n", "yES", "Yes ", "1e3", "+.5", "0o17", "09", "1_000.x", "2024-1-1", "=="] {
            assert_eq!(plain(v), Tag::Str, "{v}");
        }
        for v in ["0", "-12", "0b101", "017", "0x_fF", "1:30", "1_000", "+0"] {
            assert_eq!(plain(v), Tag::Int, "{v}");
        }
        for v in ["1.0", "1.", ".5", "1.0e+3", "-.inf", ".NaN", "1:30.5", "1_0.0_1"] {
            assert_eq!(plain(v), Tag::Float, "{v}");
        }
        for v in ["", "~", "null", "NULL"] {
            assert_eq!(plain(v), Tag::Null, "{v:?}");
        }
        for v in ["2024-01-01", "2024-1-1 1:00:00", "2024-01-01t10:00:00.5Z", "2024-01-01 10:00:00 -05:30"] {
            assert_eq!(plain(v), Tag::Timestamp, "{v}");
        }
        assert_eq!(plain("<<"), Tag::Merge);
        assert_eq!(plain("="), Tag::Value);
        assert_eq!(resolve_scalar("yes", false, true), Tag::Str);
    }

    #[test]
    fn tags_round_trip() {
        assert_eq!(Tag::from_full("tag:yaml.org,2002:int"), Tag::Int);
        assert_eq!(Tag::from_full("!foo").full(), "!foo");
        assert_eq!(Tag::from_full("tag:yaml.org,2002:python/tuple").full(), "tag:yaml.org,2002:python/tuple");
    }
}
