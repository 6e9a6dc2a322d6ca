//! YAML values with the Python semantics Hermes applies to them.
//!
//! Hermes reads frontmatter and config with PyYAML and then treats the result
//! as Python objects: truthiness, `str()`, `len()`, `in`. This module keeps the
//! parsed YAML in that shape so the engine can reproduce each surface exactly.

use indexmap::IndexMap;
use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value as Json;
use std::fmt::{self, Write as _};

/// A parsed YAML value. Mapping keys are kept as the strings JSON would print
/// (`1` -> `"1"`, `true` -> `"true"`), which is how they reach every output.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Value {
    #[default]
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    Seq(Vec<Value>),
    Map(Map),
}

pub type Map = IndexMap<String, Value>;

impl Value {
    /// Python truthiness.
    pub fn truthy(&self) -> bool {
        match self {
            Value::Null => false,
            Value::Bool(b) => *b,
            Value::Int(i) => *i != 0,
            Value::Float(f) => *f != 0.0,
            Value::Str(s) => !s.is_empty(),
            Value::Seq(v) => !v.is_empty(),
            Value::Map(m) => !m.is_empty(),
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_map(&self) -> Option<&Map> {
        match self {
            Value::Map(m) => Some(m),
            _ => None,
        }
    }

    pub fn as_seq(&self) -> Option<&[Value]> {
        match self {
            Value::Seq(v) => Some(v),
            _ => None,
        }
    }

    /// `dict.get(key)` on a mapping; `None` for anything else.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.as_map().and_then(|m| m.get(key))
    }

    /// Python `len()`, or `None` where Python raises `TypeError`.
    pub fn py_len(&self) -> Option<usize> {
        match self {
            Value::Str(s) => Some(s.chars().count()),
            Value::Seq(v) => Some(v.len()),
            Value::Map(m) => Some(m.len()),
            _ => None,
        }
    }

    /// Python `str(value)`.
    pub fn py_str(&self) -> String {
        match self {
            Value::Str(s) => s.clone(),
            other => other.py_repr(),
        }
    }

    /// Python `repr(value)`.
    pub fn py_repr(&self) -> String {
        match self {
            Value::Null => "None".into(),
            Value::Bool(true) => "True".into(),
            Value::Bool(false) => "False".into(),
            Value::Int(i) => i.to_string(),
            Value::Float(f) => py_float_repr(*f),
            Value::Str(s) => py_str_repr(s),
            Value::Seq(items) => {
                let inner: Vec<String> = items.iter().map(Value::py_repr).collect();
                format!("[{}]", inner.join(", "))
            }
            Value::Map(m) => {
                let inner: Vec<String> =
                    m.iter().map(|(k, v)| format!("{}: {}", py_str_repr(k), v.py_repr())).collect();
                format!("{{{}}}", inner.join(", "))
            }
        }
    }

    /// Python iteration (`for x in value`): lists yield items, strings yield
    /// characters, mappings yield keys; anything else raises (`None`).
    pub fn py_iter(&self) -> Option<Vec<Value>> {
        match self {
            Value::Seq(v) => Some(v.clone()),
            Value::Str(s) => Some(s.chars().map(|c| Value::Str(c.to_string())).collect()),
            Value::Map(m) => Some(m.keys().map(|k| Value::Str(k.clone())).collect()),
            _ => None,
        }
    }

    /// The JSON `json.dumps` would emit for this value.
    pub fn to_json(&self) -> Json {
        match self {
            Value::Null => Json::Null,
            Value::Bool(b) => Json::Bool(*b),
            Value::Int(i) => Json::from(*i),
            Value::Float(f) => serde_json::Number::from_f64(*f).map(Json::Number).unwrap_or(Json::Null),
            Value::Str(s) => Json::String(s.clone()),
            Value::Seq(v) => Json::Array(v.iter().map(Value::to_json).collect()),
            Value::Map(m) => Json::Object(m.iter().map(|(k, v)| (k.clone(), v.to_json())).collect()),
        }
    }

    /// The value a JSON document holds (snapshot files, payloads).
    pub fn from_json(v: &Json) -> Value {
        match v {
            Json::Null => Value::Null,
            Json::Bool(b) => Value::Bool(*b),
            Json::Number(n) => n.as_i64().map(Value::Int).unwrap_or_else(|| Value::Float(n.as_f64().unwrap_or(0.0))),
            Json::String(s) => Value::Str(s.clone()),
            Json::Array(a) => Value::Seq(a.iter().map(Value::from_json).collect()),
            Json::Object(o) => Value::Map(o.iter().map(|(k, v)| (k.clone(), Value::from_json(v))).collect()),
        }
    }

    /// Parse YAML the way Hermes' loaders do: `Ok(None)` for an empty document.
    pub fn from_yaml(text: &str) -> Result<Value, String> {
        match serde_yaml::from_str::<Value>(text) {
            Ok(v) => Ok(v),
            Err(e) => {
                // serde_yaml reports an empty document as an error; PyYAML returns None.
                if text.trim().is_empty() || is_only_comments(text) {
                    Ok(Value::Null)
                } else {
                    Err(e.to_string())
                }
            }
        }
    }
}

/// Visitor methods that accept every scalar as `$scalar` and null as `$null`.
macro_rules! accept_scalars {
    ($scalar:expr, $null:expr) => {
        fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
            Ok($scalar)
        }
        fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
            Ok($scalar)
        }
        fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
            Ok($scalar)
        }
        fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
            Ok($scalar)
        }
        fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
            Ok($scalar)
        }
        fn visit_unit<E>(self) -> Result<Self::Value, E> {
            Ok($null)
        }
        fn visit_none<E>(self) -> Result<Self::Value, E> {
            Ok($null)
        }
    };
}

/// Parses YAML like [`Value::from_yaml`] but keeps only the top-level keys
/// named in `keys` (a non-mapping document gives an empty sequence). Errors
/// are exactly those of the full parse, so the caller's fallback matches.
pub fn from_yaml_selected(text: &str, keys: &[&str]) -> Result<Value, String> {
    let de = serde_yaml::Deserializer::from_str(text);
    match de.deserialize_any(SelectVisitor { keys }) {
        Ok(v) => Ok(v),
        Err(e) => {
            if text.trim().is_empty() || is_only_comments(text) {
                Ok(Value::Null)
            } else {
                Err(e.to_string())
            }
        }
    }
}

struct SelectVisitor<'k> {
    keys: &'k [&'k str],
}

impl<'de> Visitor<'de> for SelectVisitor<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any YAML value")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Value, A::Error> {
        let mut map = Map::new();
        while let Some(key) = access.next_key::<Value>()? {
            let key = map_key::<A::Error>(key)?;
            if self.keys.contains(&key.as_str()) {
                let value = access.next_value::<Value>()?;
                map.insert(key, value);
            } else {
                access.next_value::<Skip>()?;
            }
        }
        Ok(Value::Map(map))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        while seq.next_element::<Skip>()?.is_some() {}
        Ok(Value::Seq(Vec::new()))
    }
    fn visit_enum<A: de::EnumAccess<'de>>(self, _data: A) -> Result<Value, A::Error> {
        Err(de::Error::custom("could not determine a constructor for a tagged value"))
    }
    accept_scalars!(Value::Seq(Vec::new()), Value::Null);
}

/// A value parsed only to be checked and dropped: it fails where
/// [`Value`] fails (tags, unhashable keys), without keeping anything.
struct Skip;

impl<'de> Deserialize<'de> for Skip {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(SkipVisitor)
    }
}

struct SkipVisitor;

impl<'de> Visitor<'de> for SkipVisitor {
    type Value = Skip;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any YAML value")
    }
    accept_scalars!(Skip, Skip);
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Skip, D::Error> {
        Skip::deserialize(d)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Skip, A::Error> {
        while seq.next_element::<Skip>()?.is_some() {}
        Ok(Skip)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Skip, A::Error> {
        while let Some(key) = access.next_key::<Value>()? {
            map_key::<A::Error>(key)?;
            access.next_value::<Skip>()?;
        }
        Ok(Skip)
    }
    fn visit_enum<A: de::EnumAccess<'de>>(self, _data: A) -> Result<Skip, A::Error> {
        Err(de::Error::custom("could not determine a constructor for a tagged value"))
    }
}

/// A mapping key as the string JSON prints; complex keys are unhashable.
fn map_key<E: de::Error>(key: Value) -> Result<String, E> {
    Ok(match key {
        Value::Str(s) => s,
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Float(f) => py_float_repr(f),
        Value::Seq(_) | Value::Map(_) => return Err(de::Error::custom("unhashable mapping key")),
    })
}

fn is_only_comments(text: &str) -> bool {
    text.lines().all(|l| {
        let t = l.trim();
        t.is_empty() || t.starts_with('#') || t == "---" || t == "..."
    })
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
            c if (0x80..0xa0).contains(&(c as u32)) => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c => out.push(c),
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

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ValueVisitor)
    }
}

struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any YAML value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Int(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(i64::try_from(v).map(Value::Int).unwrap_or(Value::Float(v as f64)))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Value::Float(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::Str(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::Str(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        Value::deserialize(d)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<Value>()? {
            items.push(item);
        }
        Ok(Value::Seq(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Value, A::Error> {
        let mut map = Map::new();
        // PyYAML keeps the last of duplicate keys at the first one's position.
        while let Some(key) = access.next_key::<Value>()? {
            let value = access.next_value::<Value>()?;
            map.insert(map_key::<A::Error>(key)?, value);
        }
        Ok(Value::Map(map))
    }
    fn visit_enum<A: de::EnumAccess<'de>>(self, _data: A) -> Result<Value, A::Error> {
        // A local tag such as `!foo`: PyYAML's SafeLoader refuses it too.
        Err(de::Error::custom("could not determine a constructor for a tagged value"))
    }
}

impl Value {
    /// A frontmatter value as YAML flow text: `[macos, linux]`, `{a: 1}`.
    pub fn yaml_flow(&self) -> String {
        match self {
            Value::Null => "null".into(),
            Value::Bool(b) => b.to_string(),
            Value::Int(i) => i.to_string(),
            Value::Float(_) => self.py_str(),
            Value::Str(s) => yaml_scalar(s),
            Value::Seq(items) => format!("[{}]", items.iter().map(Value::yaml_flow).collect::<Vec<_>>().join(", ")),
            Value::Map(m) => {
                let entries: Vec<String> =
                    m.iter().map(|(k, v)| format!("{}: {}", yaml_scalar(k), v.yaml_flow())).collect();
                format!("{{{}}}", entries.join(", "))
            }
        }
    }
}

/// A string as a YAML scalar: plain when it reads back as the same
/// string, else double-quoted.
fn yaml_scalar(s: &str) -> String {
    let reserved =
        matches!(s.to_ascii_lowercase().as_str(), "" | "null" | "~" | "true" | "false" | "yes" | "no" | "on" | "off");
    let numeric = s.parse::<f64>().is_ok() || s.starts_with("0x") || s.starts_with("0o");
    let special = s.starts_with(|c: char| "-?:,[]{}#&*!|>'\"%@` ".contains(c))
        || s.ends_with(' ')
        || s.contains(": ")
        || s.contains(" #")
        || s.contains(|c: char| c.is_control() || "[]{},".contains(c));
    if reserved || numeric || special {
        serde_json::to_string(s).unwrap_or_default()
    } else {
        s.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaml_flow_reads_as_yaml() {
        let v = |y: &str| Value::from_yaml(y).unwrap().yaml_flow();
        assert_eq!(v("[macos]"), "[macos]");
        assert_eq!(v("[macos, linux]"), "[macos, linux]");
        assert_eq!(
            v("{hermes: {tags: [a, b]}, n: 3, ok: true, none: null}"),
            "{hermes: {tags: [a, b]}, n: 3, ok: true, none: null}"
        );
        assert_eq!(v("['yes', '1.5', 'a: b', '']"), r#"["yes", "1.5", "a: b", ""]"#);
        assert_eq!(v("x"), "x");
    }

    #[test]
    fn float_repr_matches_python() {
        assert_eq!(py_float_repr(1.0), "1.0");
        assert_eq!(py_float_repr(0.5), "0.5");
        assert_eq!(py_float_repr(1e20), "1e+20");
        assert_eq!(py_float_repr(1e-5), "1e-05");
        assert_eq!(py_float_repr(1.5e-7), "1.5e-07");
    }

    #[test]
    fn repr_and_str_follow_python() {
        let v = Value::from_yaml("[a, 1, null, true, {k: 'it''s'}]").unwrap();
        assert_eq!(v.py_str(), "['a', 1, None, True, {'k': \"it's\"}]");
        assert_eq!(Value::Int(123).py_str(), "123");
    }

    #[test]
    fn duplicate_keys_keep_last_value_at_first_position() {
        let v = Value::from_yaml("a: 1\nb: 2\na: 3\n").unwrap();
        let m = v.as_map().unwrap();
        assert_eq!(m.keys().collect::<Vec<_>>(), ["a", "b"]);
        assert_eq!(m["a"], Value::Int(3));
    }

    #[test]
    fn selected_parse_fails_where_the_full_parse_fails() {
        let docs = [
            "name: a\ndescription: b\nmetadata:\n  x: [1, 2]\n",
            "name: a\nother: !tag v\n",
            "name: a\nother:\n  ? [k]\n  : v\n",
            "name: a\nbad: [\n",
            "- a\n- b\n",
            "",
            "name: a\nname: b\n",
        ];
        for doc in docs {
            let full = Value::from_yaml(doc);
            let some = from_yaml_selected(doc, &["name"]);
            assert_eq!(full.is_ok(), some.is_ok(), "{doc:?}");
            if let (Ok(Value::Map(f)), Ok(Value::Map(s))) = (&full, &some) {
                assert_eq!(f.get("name"), s.get("name"));
                assert!(s.get("metadata").is_none());
            }
        }
    }

    #[test]
    fn empty_document_is_null() {
        assert_eq!(Value::from_yaml("").unwrap(), Value::Null);
        assert_eq!(Value::from_yaml("# only a comment\n").unwrap(), Value::Null);
    }

    #[test]
    fn truthiness() {
        assert!(!Value::Str(String::new()).truthy());
        assert!(!Value::Seq(vec![]).truthy());
        assert!(Value::Int(2).truthy());
        assert!(!Value::Null.truthy());
    }

    #[test]
    fn strip_uses_python_whitespace() {
        assert_eq!(py_strip("\u{1f} a \u{a0}"), "a");
        assert_eq!(take_chars("héllo", 2), "hé");
    }
}
