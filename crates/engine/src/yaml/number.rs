//! PyYAML's `construct_yaml_int` and `construct_yaml_float`, with Python's
//! `int()` and `float()` underneath: arbitrary-size integers, the same
//! accepted spellings, the same exceptions.

use super::PyError;
use crate::py::{py_is_space, py_str_repr};
use crate::value::Value;

/// `construct_yaml_int` on a scalar's text.
pub fn construct_int(text: &str) -> Result<Value, PyError> {
    let value = text.replace('_', "");
    let first = value.chars().next().ok_or_else(index_error)?;
    let negative = first == '-';
    let value = if matches!(first, '+' | '-') { &value[1..] } else { &value[..] };
    if value == "0" {
        return Ok(Value::Int(0));
    }
    let magnitude = if let Some(digits) = value.strip_prefix("0b") {
        py_int(digits, 2)?
    } else if let Some(digits) = value.strip_prefix("0x") {
        py_int(digits, 16)?
    } else if value.chars().next().ok_or_else(index_error)? == '0' {
        py_int(value, 8)?
    } else if value.contains(':') {
        // Base 60: the sum of digit * 60^k, whatever size the digits are.
        let mut total = BigUint::zero();
        for part in value.split(':') {
            total = total.mul_small(60).add(&py_int(part, 10)?);
        }
        total
    } else {
        py_int(value, 10)?
    };
    Ok(magnitude.into_value(negative))
}

/// `construct_yaml_float` on a scalar's text.
pub fn construct_float(text: &str) -> Result<Value, PyError> {
    let value = text.replace('_', "").to_lowercase();
    let first = value.chars().next().ok_or_else(index_error)?;
    let sign = if first == '-' { -1.0 } else { 1.0 };
    let value = if matches!(first, '+' | '-') { &value[1..] } else { &value[..] };
    if value == ".inf" {
        return Ok(Value::Float(sign * f64::INFINITY));
    }
    if value == ".nan" {
        return Ok(Value::Float(f64::NAN));
    }
    if value.contains(':') {
        let digits = value.split(':').map(py_float).collect::<Result<Vec<f64>, _>>()?;
        let (mut total, mut base) = (0.0f64, 1.0f64);
        for digit in digits.iter().rev() {
            total += digit * base;
            base *= 60.0;
        }
        return Ok(Value::Float(sign * total));
    }
    Ok(Value::Float(sign * py_float(value)?))
}

fn index_error() -> PyError {
    PyError::new("IndexError", "string index out of range")
}

/// Python's `float(text)`.
fn py_float(text: &str) -> Result<f64, PyError> {
    let trimmed = text.trim_matches(py_is_space);
    let ok = !trimmed.is_empty()
        && trimmed.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'+' | b'-'))
        && !trimmed.contains(['x', 'X']);
    match trimmed.parse::<f64>() {
        Ok(f) if ok => Ok(f),
        _ => Err(PyError::new("ValueError", format!("could not convert string to float: {}", py_str_repr(text)))),
    }
}

/// Python's `int(text, base)` (after PyYAML removed the underscores):
/// surrounding whitespace, a sign and a matching `0b`/`0o`/`0x` prefix
/// are allowed.
fn py_int(text: &str, base: u32) -> Result<BigUint, PyError> {
    let invalid =
        || PyError::new("ValueError", format!("invalid literal for int() with base {base}: {}", py_str_repr(text)));
    let trimmed = text.trim_matches(py_is_space);
    let (negative, digits) = match trimmed.as_bytes().first() {
        Some(b'-') => (true, &trimmed[1..]),
        Some(b'+') => (false, &trimmed[1..]),
        _ => (false, trimmed),
    };
    let prefix = match base {
        2 => Some(["0b", "0B"]),
        8 => Some(["0o", "0O"]),
        16 => Some(["0x", "0X"]),
        _ => None,
    };
    let digits = prefix.and_then(|p| p.iter().find_map(|p| digits.strip_prefix(p))).unwrap_or(digits);
    if digits.is_empty() {
        return Err(invalid());
    }
    // Python 3.11 refuses to read a decimal integer of more than 4,300
    // digits (a base that is a power of two has no limit).
    if base == 10 && digits.len() > crate::py::INT_MAX_STR_DIGITS && digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(PyError::new(
            "ValueError",
            format!(
                "Exceeds the limit ({} digits) for integer string conversion: value has {} digits; use sys.set_int_max_str_digits() to increase the limit",
                crate::py::INT_MAX_STR_DIGITS,
                digits.len()
            ),
        ));
    }
    let mut n = BigUint::zero();
    for c in digits.chars() {
        let d = c.to_digit(base).ok_or_else(invalid)?;
        n = n.mul_small(base).add(&BigUint::from(d));
    }
    // Only an explicitly tagged base-60 text (`!!int 1:-5`) can hand a
    // negative part over; it is reported invalid rather than subtracted.
    if negative && !n.is_zero() {
        return Err(invalid());
    }
    Ok(n)
}

/// Just enough of an unsigned big integer: base 10^9 limbs, little-endian.
#[derive(Debug, Clone)]
struct BigUint(Vec<u32>);

const LIMB: u64 = 1_000_000_000;

impl BigUint {
    fn zero() -> BigUint {
        BigUint(Vec::new())
    }

    fn is_zero(&self) -> bool {
        self.0.iter().all(|&l| l == 0)
    }

    fn mul_small(mut self, m: u32) -> BigUint {
        let mut carry = 0u64;
        for limb in &mut self.0 {
            let v = u64::from(*limb) * u64::from(m) + carry;
            *limb = (v % LIMB) as u32;
            carry = v / LIMB;
        }
        while carry > 0 {
            self.0.push((carry % LIMB) as u32);
            carry /= LIMB;
        }
        self
    }

    fn add(mut self, other: &BigUint) -> BigUint {
        let mut carry = 0u64;
        for i in 0..self.0.len().max(other.0.len()) {
            if i == self.0.len() {
                self.0.push(0);
            }
            let v = u64::from(self.0[i]) + u64::from(other.0.get(i).copied().unwrap_or(0)) + carry;
            self.0[i] = (v % LIMB) as u32;
            carry = v / LIMB;
        }
        if carry > 0 {
            self.0.push(carry as u32);
        }
        self
    }

    fn digits(&self) -> String {
        let mut limbs = self.0.iter().rev().skip_while(|&&l| l == 0);
        let Some(first) = limbs.next() else { return "0".into() };
        let mut s = first.to_string();
        for limb in limbs {
            s.push_str(&format!("{limb:09}"));
        }
        s
    }

    fn into_value(self, negative: bool) -> Value {
        let digits = self.digits();
        let signed = if negative && digits != "0" { format!("-{digits}") } else { digits };
        match signed.parse::<i64>() {
            Ok(i) => Value::Int(i),
            Err(_) => Value::BigInt(signed.into()),
        }
    }
}

impl From<u32> for BigUint {
    fn from(v: u32) -> BigUint {
        BigUint::zero().add(&BigUint(vec![v % LIMB as u32, v / LIMB as u32]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(s: &str) -> Value {
        construct_int(s).unwrap()
    }

    #[test]
    fn ints_as_pyyaml_builds_them() {
        assert_eq!(int("0b101"), Value::Int(5));
        assert_eq!(int("-0x_fF"), Value::Int(-255));
        assert_eq!(int("017"), Value::Int(15));
        assert_eq!(int("1:30"), Value::Int(90));
        assert_eq!(int("-1:00:00"), Value::Int(-3600));
        assert_eq!(int("1_000"), Value::Int(1000));
        assert_eq!(int("-0"), Value::Int(0));
        assert_eq!(int("0_"), Value::Int(0));
        assert_eq!(int("12345678901234567890123"), Value::BigInt("12345678901234567890123".into()));
        assert_eq!(int("-0xffffffffffffffffff"), Value::BigInt("-4722366482869645213695".into()));
        assert_eq!(int("9223372036854775807"), Value::Int(i64::MAX));
        assert_eq!(int(" 12 "), Value::Int(12), "explicit !!int keeps Python's whitespace rule");
        assert_eq!(int("0o17"), Value::Int(15), "int('0o17', 8)");
        assert_eq!(int("0b0b1"), Value::Int(1), "int('0b1', 2)");
    }

    #[test]
    fn int_errors_are_pythons() {
        let err = |s: &str| construct_int(s).unwrap_err();
        assert_eq!(err("0b_").message, "invalid literal for int() with base 2: ''");
        assert_eq!(err("").kind, "IndexError");
        assert_eq!(err("-").kind, "IndexError");
        assert_eq!(err("08").message, "invalid literal for int() with base 8: '08'");
        assert_eq!(err("abc").message, "invalid literal for int() with base 10: 'abc'");
    }

    #[test]
    fn floats_as_pyyaml_builds_them() {
        let f = |s: &str| match construct_float(s).unwrap() {
            Value::Float(f) => f,
            other => panic!("{other:?}"),
        };
        assert_eq!(f("1.0e+3"), 1000.0);
        assert_eq!(f("-.INF"), f64::NEG_INFINITY);
        assert!(f(".nan").is_nan());
        assert_eq!(f("190:20:30.15"), 685230.15);
        assert_eq!(f("1_0.5"), 10.5);
        assert_eq!(f("1e5"), 100000.0);
        assert_eq!(construct_float("abc").unwrap_err().message, "could not convert string to float: 'abc'");
        assert_eq!(construct_float("0x10").unwrap_err().kind, "ValueError");
    }
}
