//! Mapping keys with Python's dict semantics.
//!
//! `{1: a, true: b, 1.0: c}` is one entry in Python (`1 == True == 1.0`),
//! holding the first key and the last value. A string never equals a number,
//! a date never equals a datetime, and aware datetimes compare by instant.

use super::Value;
use crate::py::py_float_repr;
use std::hash::{Hash, Hasher};

/// A hashable value used as a mapping key. Only scalars are hashable in
/// what PyYAML's SafeLoader builds (lists, dicts and sets are not).
#[derive(Debug, Clone)]
pub struct Key(Value);

impl Key {
    /// A key from a value Python can hash; `None` for lists, dicts, sets.
    pub fn new(value: Value) -> Option<Key> {
        is_hashable(&value).then_some(Key(value))
    }

    pub fn value(&self) -> &Value {
        &self.0
    }

    pub fn into_value(self) -> Value {
        self.0
    }

    pub fn as_str(&self) -> Option<&str> {
        self.0.as_str()
    }

    /// The key as `json.dumps` writes it (`true`, `1.0`, `null`), or the
    /// `TypeError` message for a key JSON cannot hold.
    pub fn json_key(&self) -> Result<String, crate::py::PyError> {
        match &self.0 {
            Value::Str(s) => Ok(s.clone()),
            Value::Null => Ok("null".into()),
            Value::Bool(b) => Ok(b.to_string()),
            Value::Int(i) => Ok(i.to_string()),
            Value::BigInt(d) => Ok(d.to_string()),
            Value::Float(f) if f.is_nan() => Ok("NaN".into()),
            Value::Float(f) if f.is_infinite() => Ok(if *f > 0.0 { "Infinity" } else { "-Infinity" }.into()),
            Value::Float(f) => Ok(py_float_repr(*f)),
            // The C encoder names the type by `tp_name`, module included.
            other => Err(crate::py::PyError::type_error(format!(
                "keys must be str, int, float, bool or None, not {}",
                other.type_name()
            ))),
        }
    }
}

/// `str(key)`.
impl std::fmt::Display for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(&self.0.py_str())
    }
}

impl PartialEq<str> for Key {
    fn eq(&self, other: &str) -> bool {
        self.0.as_str() == Some(other)
    }
}

impl PartialEq<&str> for Key {
    fn eq(&self, other: &&str) -> bool {
        self.0.as_str() == Some(*other)
    }
}

impl From<&str> for Key {
    fn from(s: &str) -> Key {
        Key(Value::Str(s.to_owned()))
    }
}

impl From<String> for Key {
    fn from(s: String) -> Key {
        Key(Value::Str(s))
    }
}

/// A number's identity for equality: integral values (bools included) by
/// their integer value, others by bits.
#[derive(PartialEq, Eq, Hash)]
enum Number {
    Small(i64),
    /// Decimal digits of an integer beyond `i64`.
    Big(String),
    Fraction(u64),
}

fn number(v: &Value) -> Option<Number> {
    Some(match v {
        Value::Bool(b) => Number::Small(i64::from(*b)),
        Value::Int(i) => Number::Small(*i),
        Value::BigInt(d) => Number::Big(d.to_string()),
        Value::Float(f) if f.fract() == 0.0 && f.is_finite() => {
            if *f >= -9.223_372_036_854_776e18 && *f < 9.223_372_036_854_776e18 {
                Number::Small(*f as i64)
            } else {
                Number::Big(format!("{f:.0}"))
            }
        }
        Value::Float(f) => Number::Fraction(f.to_bits()),
        _ => return None,
    })
}

/// Whether Python can hash the value: lists, dicts and sets it cannot,
/// nor a tuple holding one.
pub fn is_hashable(value: &Value) -> bool {
    match value {
        Value::Seq(_) | Value::Map(_) | Value::Set(_) => false,
        Value::Tuple(items) => items.iter().all(is_hashable),
        _ => true,
    }
}

/// Python `==` between hashable values (see [`Key`]).
pub fn hashable_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Str(a), Value::Str(b)) => a == b,
        (Value::Null, Value::Null) => true,
        (Value::Bytes(a), Value::Bytes(b)) => a == b,
        (Value::Date(a), Value::Date(b)) => a == b,
        (Value::DateTime(a), Value::DateTime(b)) => a == b,
        (Value::Tuple(a), Value::Tuple(b)) => a.len() == b.len() && a.iter().zip(b).all(|(x, y)| hashable_eq(x, y)),
        // NaN is never equal to itself as a fresh value.
        (Value::Float(f), _) | (_, Value::Float(f)) if f.is_nan() => false,
        (a, b) => match (number(a), number(b)) {
            (Some(x), Some(y)) => x == y,
            _ => false,
        },
    }
}

impl PartialEq for Key {
    fn eq(&self, other: &Key) -> bool {
        hashable_eq(&self.0, &other.0)
    }
}

impl Eq for Key {}

impl Hash for Key {
    fn hash<H: Hasher>(&self, state: &mut H) {
        match &self.0 {
            // Must hash exactly as `str` does, so `map.get("name")` finds it.
            Value::Str(s) => s.hash(state),
            other => hash_value(other, state),
        }
    }
}

fn hash_value<H: Hasher>(v: &Value, state: &mut H) {
    if let Some(n) = number(v) {
        return n.hash(state);
    }
    match v {
        Value::Str(s) => s.hash(state),
        Value::Bytes(b) => b.hash(state),
        Value::Date(d) => d.hash(state),
        Value::DateTime(d) => d.hash(state),
        Value::Tuple(items) => items.iter().for_each(|x| hash_value(x, state)),
        _ => 0u8.hash(state),
    }
}

impl indexmap::Equivalent<Key> for str {
    fn equivalent(&self, key: &Key) -> bool {
        key.0.as_str() == Some(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::Map;

    #[test]
    fn python_equal_keys_collide() {
        let k = |v| Key::new(v).unwrap();
        assert_eq!(k(Value::Int(1)), k(Value::Bool(true)));
        assert_eq!(k(Value::Int(1)), k(Value::Float(1.0)));
        assert_eq!(k(Value::Int(0)), k(Value::Float(-0.0)));
        assert_ne!(k(Value::Int(1)), k(Value::Str("1".into())));
        assert_ne!(k(Value::Float(f64::NAN)), k(Value::Float(f64::NAN)));
        assert_eq!(k(Value::BigInt("10000000000000000000".into())), k(Value::Float(1e19)));
    }

    #[test]
    fn string_lookups_find_string_keys() {
        let mut m = Map::default();
        m.insert(Key::from("name"), Value::Int(1));
        m.insert(Key::new(Value::Int(7)).unwrap(), Value::Int(2));
        assert_eq!(m.get("name"), Some(&Value::Int(1)));
        assert_eq!(m.get("7"), None);
    }

    #[test]
    fn json_keys_follow_json_dumps() {
        assert_eq!(Key::new(Value::Bool(true)).unwrap().json_key().unwrap(), "true");
        assert_eq!(Key::new(Value::Float(1.0)).unwrap().json_key().unwrap(), "1.0");
        assert_eq!(Key::new(Value::Null).unwrap().json_key().unwrap(), "null");
        let date = Value::Date(crate::value::Date::new(2024, 1, 1).unwrap());
        assert_eq!(
            Key::new(date).unwrap().json_key().unwrap_err().traceback_line(),
            "TypeError: keys must be str, int, float, bool or None, not datetime.date"
        );
    }
}
