//! The loader against what PyYAML 6.0.3 (`CSafeLoader`) answers; each
//! expectation was read off the real library.

use super::*;
use crate::value::{Date, DateTime, Key};

fn load_ok(text: &str) -> Value {
    load(text).unwrap_or_else(|e| panic!("{text:?}: {e}"))
}

fn get(text: &str, key: &str) -> Value {
    load_ok(text).get(key).cloned().unwrap_or_else(|| panic!("{text:?} has no {key}"))
}

fn err(text: &str) -> LoadError {
    load(text).expect_err(text)
}

#[test]
fn scalars_take_yaml_1_1_types() {
    assert_eq!(get("a: yes", "a"), Value::Bool(true));
    assert_eq!(get("a: Off", "a"), Value::Bool(false));
    assert_eq!(get("a: y", "a"), Value::Str("y".into()));
    assert_eq!(get("a: 'yes'", "a"), Value::Str("yes".into()));
    assert_eq!(get("a: 1e3", "a"), Value::Str("1e3".into()));
    assert_eq!(get("a: 1.0e+3", "a"), Value::Float(1000.0));
    assert_eq!(get("a: 017", "a"), Value::Int(15));
    assert_eq!(get("a: 1:30", "a"), Value::Int(90));
    assert_eq!(get("a: ~", "a"), Value::Null);
    assert_eq!(get("a:", "a"), Value::Null);
    assert_eq!(get("a: ! 123", "a"), Value::Int(123));
    assert_eq!(get("a: 2024-01-31", "a"), Value::Date(Date::new(2024, 1, 31).unwrap()));
    assert_eq!(
        get("a: 2024-01-01 10:00:00 +01", "a"),
        Value::DateTime(DateTime::new([2024, 1, 1, 10, 0, 0, 0], Some(3600)).unwrap())
    );
    assert_eq!(get("a: !!binary aGk=", "a"), Value::Bytes(b"hi".to_vec()));
    assert_eq!(get("a: !!str 12", "a"), Value::Str("12".into()));
    assert_eq!(get("a: !!null x", "a"), Value::Null);
}

#[test]
fn keys_follow_python_dict_rules() {
    let v = load_ok("1: a\ntrue: b\n1.0: c\n");
    let m = v.as_map().unwrap();
    assert_eq!(m.len(), 1);
    let (k, val) = m.get_index(0).unwrap();
    assert_eq!(k.value(), &Value::Int(1));
    assert_eq!(val, &Value::Str("c".into()));
    let e = err("[1]: 2");
    assert_eq!(e.kind, ErrorKind::Yaml("ConstructorError"));
    // The context's mark equals the problem's, so PyYAML prints it once.
    assert_eq!(
        e.message,
        "while constructing a mapping\nfound unhashable key\n  in \"<unicode string>\", line 1, column 1"
    );
}

#[test]
fn merge_keys_let_earlier_mappings_win() {
    let v = load_ok("a:\n  <<: [{x: 1}, {x: 2, y: 3}]\n  y: 4\n");
    assert_eq!(v.get("a").unwrap().py_str(), "{'x': 1, 'y': 4}");
    let v = load_ok("base: &b {k: 1, j: 2}\nuse:\n  j: 9\n  <<: *b\n");
    assert_eq!(v.get("use").unwrap().py_str(), "{'k': 1, 'j': 9}");
    assert_eq!(err("<<: 1").kind, ErrorKind::Yaml("ConstructorError"));
}

#[test]
fn collections_by_tag() {
    assert_eq!(get("a: !!set {x, y}", "a").py_str(), "{'x', 'y'}");
    assert_eq!(get("a: !!omap [x: 1, y: 2]", "a").py_str(), "[('x', 1), ('y', 2)]");
    assert_eq!(get("a: !!pairs [x: 1, x: 2]", "a").py_str(), "[('x', 1), ('x', 2)]");
    assert_eq!(get("=: 1", "="), Value::Int(1));
    assert_eq!(
        err("a: =").message,
        "could not determine a constructor for the tag 'tag:yaml.org,2002:value'\n  in \"<unicode string>\", line 1, column 4"
    );
}

#[test]
fn python_exceptions_are_not_yaml_errors() {
    for (text, kind, message) in [
        ("a: 2024-02-30", "ValueError", "day is out of range for month"),
        ("a: 0b_", "ValueError", "invalid literal for int() with base 2: ''"),
        ("a: !!int ''", "IndexError", "string index out of range"),
        ("a: !!bool maybe", "KeyError", "'maybe'"),
        ("a: !!timestamp x", "AttributeError", "'NoneType' object has no attribute 'groupdict'"),
        ("a: !!float abc", "ValueError", "could not convert string to float: 'abc'"),
    ] {
        let e = err(text);
        assert_eq!((e.kind, e.message.as_str()), (ErrorKind::Python(kind), message), "{text}");
        assert!(!e.is_yaml_error());
    }
}

#[test]
fn syntax_errors_are_libyamls() {
    let e = err("a: [1,2]: 3");
    assert_eq!(e.kind, ErrorKind::Yaml("ScannerError"));
    assert_eq!(
        e.message,
        "mapping values are not allowed in this context\n  in \"<unicode string>\", line 1, column 9"
    );
    assert_eq!(e.line, Some(1));
    let e = err("- a\n---\n- b");
    assert_eq!(
        e.message,
        "expected a single document in the stream\n  in \"<unicode string>\", line 1, column 1\nbut found another document\n  in \"<unicode string>\", line 2, column 1"
    );
    let e = err("&a x: 1\n&a y: 2");
    assert_eq!(e.kind, ErrorKind::Yaml("ComposerError"));
    assert_eq!(e.line, Some(2));
}

#[test]
fn empty_streams_are_none() {
    assert_eq!(load_ok(""), Value::Null);
    assert_eq!(load_ok("# only a comment\n"), Value::Null);
    assert_eq!(load_ok("a: 'x'\n...\n").get("a"), Some(&Value::Str("x".into())));
}

#[test]
fn aliases_share_and_are_capped() {
    let v = load_ok("a: &x [1, {b: 2}]\nc: *x\n");
    assert_eq!(v.get("a"), v.get("c"));
    let mut bomb = String::from("a: &a [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 1..9 {
        let refs = vec![format!("*{}", (b'a' + i - 1) as char); 10].join(", ");
        bomb.push_str(&format!("{}: &{} [{refs}]\n", (b'a' + i) as char, (b'a' + i) as char));
    }
    let e = err(&bomb);
    assert_eq!(e.kind, ErrorKind::Limit);
    assert!(e.reason().contains("aliases expand"), "{}", e.reason());
    assert_eq!(err("a: &a [*a]").kind, ErrorKind::Limit);
}

#[test]
fn deep_nesting_fails_without_exhausting_the_stack() {
    let deep = format!("a: {}{}", "[".repeat(5000), "]".repeat(5000));
    let e = err(&deep);
    assert_eq!(e.kind, ErrorKind::Limit);
    let ok = format!("a: {}{}", "[".repeat(200), "]".repeat(200));
    assert!(load(&ok).is_ok());
}

#[test]
fn deep_brackets_with_a_tag_fail_soon_under_the_pure_python_loader() {
    // The tag search stops where the composer stops reading: reading all
    // 100,000 levels took libyaml's scanner some 20 s.
    let deep = format!("name: !x\nskills: {}{}\n", "[".repeat(100_000), "]".repeat(100_000));
    let e = load_with(&deep, Loader::Safe).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Limit);
}

#[test]
fn tags_are_looked_for_only_as_deep_as_asked() {
    let text = format!("{}!t x{}", "[".repeat(6), "]".repeat(6));
    assert_eq!(events::Parser::tag_ends(&text, 6), vec![8]);
    assert_eq!(events::Parser::tag_ends(&text, 5), Vec::<usize>::new());
}

#[test]
fn huge_scalars_load() {
    let text = format!("a: {}\n", "x".repeat(10 << 20));
    assert_eq!(get(&text, "a").py_len(), Some(10 << 20));
}

#[test]
fn set_members_keep_their_order() {
    let v = get("a: !!set {b, a, b}", "a");
    let Value::Set(keys) = v else { panic!() };
    assert_eq!(keys, vec![Key::from("b"), Key::from("a")]);
}

#[test]
fn long_mappings_keep_python_key_rules() {
    let mut text: String = (0..20).map(|i| format!("k{i}: {i}\n")).collect();
    text.push_str("1: one\nk3: again\n1.0: float-one\ntrue: bool-one\n");
    let v = load_ok(&text);
    let m = v.as_map().unwrap();
    assert_eq!(m.len(), 21);
    assert_eq!(m.get("k3"), Some(&Value::Str("again".into())));
    let (k, val) = m.get_index(20).unwrap();
    assert_eq!((k.value(), val), (&Value::Int(1), &Value::Str("bool-one".into())));
    assert_eq!(m.get_index(3).unwrap().0.as_str(), Some("k3"));
}
