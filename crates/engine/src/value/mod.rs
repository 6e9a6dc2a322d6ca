//! YAML values with the Python semantics Hermes applies to them.
//!
//! Hermes reads frontmatter and config with PyYAML and then treats the result
//! as Python objects: truthiness, `str()`, `len()`, `in`. This module keeps the
//! parsed YAML in that shape so the engine can reproduce each surface exactly.

use crate::py::{json_number, marked_non_finite, py_bytes_repr, py_float_repr, py_json_float, py_str_repr};
use indexmap::IndexMap;
use serde_json::Value as Json;

mod key;
pub mod time;

pub use key::{is_hashable, Key};
pub use time::{Date, DateTime};

/// A value as Python holds what PyYAML's `SafeLoader` built: the YAML 1.1
/// types, arbitrary-size integers, dates and datetimes, `!!binary` bytes,
/// `!!set` sets and the tuples of `!!omap`/`!!pairs`.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Value {
    #[default]
    Null,
    Bool(bool),
    Int(i64),
    /// An integer beyond `i64`, as decimal digits with an optional `-`.
    BigInt(Box<str>),
    Float(f64),
    Str(String),
    Bytes(Vec<u8>),
    Date(Date),
    DateTime(DateTime),
    Seq(Vec<Value>),
    Tuple(Vec<Value>),
    /// A set, in the order its members were written (Python's own order
    /// depends on string hashing, which differs per process).
    Set(Vec<Key>),
    Map(Map),
}

/// A mapping with Python's dict semantics: keys compare as Python compares
/// them (`1 == 1.0 == True`), so a later equal key replaces the value and
/// keeps the first key.
pub type Map = IndexMap<Key, Value, foldhash::fast::RandomState>;

impl Value {
    /// Python `==`: numbers across types (`1 == 1.0 == True`), containers
    /// item by item, a set as a set.
    pub fn py_eq(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Seq(a), Value::Seq(b)) | (Value::Tuple(a), Value::Tuple(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.py_eq(y))
            }
            (Value::Set(a), Value::Set(b)) => a.len() == b.len() && a.iter().all(|k| b.contains(k)),
            (Value::Map(a), Value::Map(b)) => {
                a.len() == b.len() && a.iter().all(|(k, v)| b.get(k).is_some_and(|w| v.py_eq(w)))
            }
            (Value::Seq(_) | Value::Tuple(_) | Value::Set(_) | Value::Map(_), _)
            | (_, Value::Seq(_) | Value::Tuple(_) | Value::Set(_) | Value::Map(_)) => false,
            (a, b) => key::hashable_eq(a, b),
        }
    }

    /// Python truthiness.
    pub fn truthy(&self) -> bool {
        match self {
            Value::Null => false,
            Value::Bool(b) => *b,
            Value::Int(i) => *i != 0,
            Value::BigInt(_) | Value::Date(_) | Value::DateTime(_) => true,
            Value::Float(f) => *f != 0.0,
            Value::Str(s) => !s.is_empty(),
            Value::Bytes(b) => !b.is_empty(),
            Value::Seq(v) | Value::Tuple(v) => !v.is_empty(),
            Value::Set(v) => !v.is_empty(),
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

    /// The type's `tp_name`, as Python's `TypeError`s and `AttributeError`s
    /// print it (`'datetime.date' object is not iterable`).
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Date(_) => "datetime.date",
            Value::DateTime(_) => "datetime.datetime",
            other => other.class_name(),
        }
    }

    /// The class's `__name__` (`date`), as `json.dumps` names what it
    /// cannot serialise.
    pub fn class_name(&self) -> &'static str {
        match self {
            Value::Null => "NoneType",
            Value::Bool(_) => "bool",
            Value::Int(_) | Value::BigInt(_) => "int",
            Value::Float(_) => "float",
            Value::Str(_) => "str",
            Value::Bytes(_) => "bytes",
            Value::Date(_) => "date",
            Value::DateTime(_) => "datetime",
            Value::Seq(_) => "list",
            Value::Tuple(_) => "tuple",
            Value::Set(_) => "set",
            Value::Map(_) => "dict",
        }
    }

    /// Python `len()`, or `None` where Python raises `TypeError`.
    pub fn py_len(&self) -> Option<usize> {
        match self {
            Value::Str(s) => Some(s.chars().count()),
            Value::Bytes(b) => Some(b.len()),
            Value::Seq(v) | Value::Tuple(v) => Some(v.len()),
            Value::Set(v) => Some(v.len()),
            Value::Map(m) => Some(m.len()),
            _ => None,
        }
    }

    /// Python `str(value)`.
    pub fn py_str(&self) -> String {
        match self {
            Value::Str(s) => s.clone(),
            Value::Date(d) => d.iso(),
            Value::DateTime(d) => d.iso(),
            other => other.py_repr(),
        }
    }

    /// Python `repr(value)`.
    pub fn py_repr(&self) -> String {
        fn join<'a>(items: impl Iterator<Item = &'a Value>) -> String {
            items.map(Value::py_repr).collect::<Vec<_>>().join(", ")
        }
        match self {
            Value::Null => "None".into(),
            Value::Bool(true) => "True".into(),
            Value::Bool(false) => "False".into(),
            Value::Int(i) => i.to_string(),
            Value::BigInt(digits) => digits.to_string(),
            Value::Float(f) => py_float_repr(*f),
            Value::Str(s) => py_str_repr(s),
            Value::Bytes(b) => py_bytes_repr(b),
            Value::Date(d) => d.repr(),
            Value::DateTime(d) => d.repr(),
            Value::Seq(items) => format!("[{}]", join(items.iter())),
            Value::Tuple(items) if items.len() == 1 => format!("({},)", items[0].py_repr()),
            Value::Tuple(items) => format!("({})", join(items.iter())),
            Value::Set(items) if items.is_empty() => "set()".into(),
            Value::Set(items) => format!("{{{}}}", join(items.iter().map(Key::value))),
            Value::Map(m) => {
                let inner: Vec<String> =
                    m.iter().map(|(k, v)| format!("{}: {}", k.value().py_repr(), v.py_repr())).collect();
                format!("{{{}}}", inner.join(", "))
            }
        }
    }

    /// Python iteration (`for x in value`): lists and tuples yield items,
    /// strings characters, bytes integers, sets and mappings their keys;
    /// anything else raises (`None`).
    pub fn py_iter(&self) -> Option<Vec<Value>> {
        match self {
            Value::Seq(v) | Value::Tuple(v) => Some(v.clone()),
            Value::Str(s) => Some(s.chars().map(|c| Value::Str(c.to_string())).collect()),
            Value::Bytes(b) => Some(b.iter().map(|&x| Value::Int(i64::from(x))).collect()),
            Value::Set(keys) => Some(keys.iter().map(|k| k.value().clone()).collect()),
            Value::Map(m) => Some(m.keys().map(|k| k.value().clone()).collect()),
            _ => None,
        }
    }

    /// What `json.dumps` emits for this value, or the `TypeError` (or
    /// `ValueError`) message it raises instead, for the first value it
    /// cannot serialise in document order.
    pub fn try_to_json(&self) -> Result<Json, crate::py::PyError> {
        Ok(match self {
            Value::Null => Json::Null,
            Value::Bool(b) => Json::Bool(*b),
            Value::Int(i) => Json::from(*i),
            Value::BigInt(digits) if digits.trim_start_matches('-').len() > crate::py::INT_MAX_STR_DIGITS => {
                return Err(crate::py::int_too_long_to_write())
            }
            Value::BigInt(digits) => Json::Number(json_number(digits)),
            Value::Float(f) => py_json_float(*f),
            Value::Str(s) => Json::String(s.clone()),
            Value::Seq(v) | Value::Tuple(v) => Json::Array(v.iter().map(Value::try_to_json).collect::<Result<_, _>>()?),
            Value::Map(m) => {
                let mut out = serde_json::Map::new();
                for (k, v) in m {
                    let key = k.json_key()?;
                    let value = v.try_to_json()?;
                    out.insert(key, value);
                }
                Json::Object(out)
            }
            other => {
                return Err(crate::py::PyError::type_error(format!(
                    "Object of type {} is not JSON serializable",
                    other.class_name()
                )))
            }
        })
    }

    /// [`Value::try_to_json`] where a failure cannot happen or does not
    /// matter: what cannot be serialised becomes its `str()`.
    pub fn to_json(&self) -> Json {
        match self {
            Value::Seq(v) | Value::Tuple(v) => Json::Array(v.iter().map(Value::to_json).collect()),
            Value::Map(m) => Json::Object(
                m.iter().map(|(k, v)| (k.json_key().unwrap_or_else(|_| k.value().py_str()), v.to_json())).collect(),
            ),
            other => other.try_to_json().unwrap_or_else(|_| Json::String(other.py_str())),
        }
    }

    /// The value a JSON document holds (snapshot files, payloads).
    pub fn from_json(v: &Json) -> Value {
        match v {
            Json::Null => Value::Null,
            Json::Bool(b) => Value::Bool(*b),
            Json::Number(n) => match n.as_i64() {
                Some(i) => Value::Int(i),
                None => {
                    let text = n.to_string();
                    if text.trim_start_matches('-').bytes().all(|b| b.is_ascii_digit()) {
                        Value::BigInt(text.into())
                    } else {
                        Value::Float(n.as_f64().unwrap_or(0.0))
                    }
                }
            },
            Json::String(s) => marked_non_finite(s).map_or_else(|| Value::Str(s.clone()), Value::Float),
            Json::Array(a) => Value::Seq(a.iter().map(Value::from_json).collect()),
            Json::Object(o) => {
                Value::Map(o.iter().map(|(k, v)| (Key::from(k.as_str()), Value::from_json(v))).collect())
            }
        }
    }
}

impl Value {
    /// A frontmatter value as YAML flow text: `[macos, linux]`, `{a: 1}`.
    pub fn yaml_flow(&self) -> String {
        fn flow<'a>(items: impl Iterator<Item = &'a Value>) -> String {
            items.map(Value::yaml_flow).collect::<Vec<_>>().join(", ")
        }
        match self {
            Value::Null => "null".into(),
            Value::Bool(b) => b.to_string(),
            Value::Int(i) => i.to_string(),
            Value::Str(s) => yaml_scalar(s),
            Value::Seq(items) | Value::Tuple(items) => format!("[{}]", flow(items.iter())),
            Value::Set(keys) => format!("!!set {{{}}}", flow(keys.iter().map(Key::value))),
            Value::Map(m) => {
                let entries: Vec<String> =
                    m.iter().map(|(k, v)| format!("{}: {}", k.value().yaml_flow(), v.yaml_flow())).collect();
                format!("{{{}}}", entries.join(", "))
            }
            // Numbers, dates and datetimes read back as themselves; bytes as text.
            other => other.py_str(),
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

/// Python `str()` of a JSON value that came from YAML.
pub fn json_py_str(v: &Json) -> String {
    match v {
        Json::String(s) if crate::py::marked_non_finite(s).is_none() => s.clone(),
        other => Value::from_json(other).py_str(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::py::{json_text, py_splitlines, py_strip, take_chars};

    #[test]
    fn splitlines_splits_where_python_does() {
        fn lines(s: &str) -> Vec<&str> {
            py_splitlines(s).collect()
        }
        // 'a\r\nb\rc\x0cd\u2028e\n\nf\n'.splitlines()
        assert_eq!(lines("a\r\nb\rc\u{c}d\u{2028}e\n\nf\n"), ["a", "b", "c", "d", "e", "", "f"]);
        assert_eq!(lines(""), Vec::<&str>::new());
        assert_eq!(lines("\n"), [""]);
        assert_eq!(lines("x\r"), ["x"]);
        assert_eq!(lines("\n\nx"), ["", "", "x"]);
    }

    #[test]
    fn yaml_flow_reads_as_yaml() {
        let v = |y: &str| crate::yaml::load(y).unwrap().yaml_flow();
        assert_eq!(v("[macos]"), "[macos]");
        assert_eq!(v("[macos, linux]"), "[macos, linux]");
        assert_eq!(
            v("{hermes: {tags: [a, b]}, n: 3, ok: true, none: null}"),
            "{hermes: {tags: [a, b]}, n: 3, ok: true, none: null}"
        );
        assert_eq!(v("['yes', '1.5', 'a: b', '']"), r#"["yes", "1.5", "a: b", ""]"#);
        assert_eq!(v("x"), "x");
    }

    /// Non-finite floats survive a trip through `serde_json` values and
    /// come back as floats; written out, they are bare as Python writes them.
    #[test]
    fn non_finite_floats_round_trip() {
        for f in [f64::INFINITY, f64::NEG_INFINITY] {
            let json = Value::Float(f).to_json();
            assert_eq!(Value::from_json(&json), Value::Float(f));
            let doc = serde_json::json!({"x": json});
            assert_eq!(json_text(&doc, false), format!("{{\"x\":{}}}", py_float_repr(f).replace("inf", "Infinity")));
        }
        assert!(matches!(Value::from_json(&Value::Float(f64::NAN).to_json()), Value::Float(f) if f.is_nan()));
        assert_eq!(json_py_str(&Value::Float(f64::NAN).to_json()), "nan");
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
        let v = crate::yaml::load("[a, 1, null, true, {k: 'it''s'}]").unwrap();
        assert_eq!(v.py_str(), "['a', 1, None, True, {'k': \"it's\"}]");
        assert_eq!(Value::Int(123).py_str(), "123");
    }

    #[test]
    fn duplicate_keys_keep_last_value_at_first_position() {
        let v = crate::yaml::load("a: 1\nb: 2\na: 3\n").unwrap();
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
            let full = crate::yaml::load(doc);
            let some = crate::yaml::load_selected(doc, &["name"]);
            assert_eq!(full.is_ok(), some.is_ok(), "{doc:?}");
            if let (Ok(Value::Map(f)), Ok(Value::Map(s))) = (&full, &some) {
                assert_eq!(f.get("name"), s.get("name"));
                assert!(s.get("metadata").is_none());
            }
        }
    }

    #[test]
    fn empty_document_is_null() {
        assert_eq!(crate::yaml::load("").unwrap(), Value::Null);
        assert_eq!(crate::yaml::load("# only a comment\n").unwrap(), Value::Null);
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
