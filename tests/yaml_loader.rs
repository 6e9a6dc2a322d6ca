//! skillscope's YAML loader against PyYAML on seeded random documents:
//! `tests/golden/yaml_loader.json`, written by `gen_yaml_cases.py` with the
//! real PyYAML (CSafeLoader for frontmatter and config, SafeLoader for
//! bundles). Every document must load to the same value, or fail with the
//! same exception.

use serde_json::Value as Json;
use skillscope::engine::py::py_str_repr;
use skillscope::engine::value::Value;
use skillscope::engine::yaml::{load_with, ErrorKind, Loader};

/// `repr()` with sets sorted, as the generator writes it.
fn canonical(v: &Value) -> String {
    let join = |items: &mut dyn Iterator<Item = String>| items.collect::<Vec<_>>().join(", ");
    match v {
        Value::Set(keys) if keys.is_empty() => "set()".into(),
        Value::Set(keys) => {
            let mut members: Vec<String> = keys.iter().map(|k| canonical(k.value())).collect();
            members.sort();
            format!("{{{}}}", members.join(", "))
        }
        Value::Seq(items) => format!("[{}]", join(&mut items.iter().map(canonical))),
        Value::Tuple(items) if items.len() == 1 => format!("({},)", canonical(&items[0])),
        Value::Tuple(items) => format!("({})", join(&mut items.iter().map(canonical))),
        Value::Map(m) => {
            format!("{{{}}}", join(&mut m.iter().map(|(k, v)| format!("{}: {}", canonical(k.value()), canonical(v)))))
        }
        Value::Str(s) => py_str_repr(s),
        other => other.py_repr(),
    }
}

fn outcome(text: &str, loader: Loader) -> Json {
    match load_with(text, loader) {
        Ok(v) => serde_json::json!({"ok": canonical(&v)}),
        Err(e) => match e.kind {
            ErrorKind::Yaml(name) => serde_json::json!({"yaml_error": name}),
            ErrorKind::Python(name) => serde_json::json!({"error": name}),
            ErrorKind::Limit => serde_json::json!({"limit": e.message}),
        },
    }
}

/// Every load of the cases in `golden` (`tests/golden/NAME`) differing from PyYAML's.
fn differing(golden: &str) -> (Vec<String>, usize) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden").join(golden);
    let doc: Json = serde_json::from_str(&std::fs::read_to_string(&path).expect("golden")).expect("JSON");
    let cases = doc["cases"].as_array().expect("cases");
    let mut failures = Vec::new();
    for case in cases {
        let text = case["text"].as_str().expect("text");
        for (key, loader) in [("csafe", Loader::CSafe), ("safe", Loader::Safe)] {
            let ours = outcome(text, loader);
            let theirs = &case[key];
            // The pure-Python parser names some syntax errors differently.
            let same = if loader == Loader::Safe && theirs.get("yaml_error").is_some() {
                ours.get("yaml_error").is_some()
            } else if theirs.get("limit").is_some() {
                ours.get("limit").is_some()
            } else {
                &ours == theirs
            };
            if !same {
                failures.push(format!("{key} {text:?}\n    ours:   {ours}\n    PyYAML: {theirs}"));
            }
        }
    }
    (failures, cases.len() * 2)
}

fn assert_none_differ(golden: &str) {
    let (failures, loads) = differing(golden);
    assert!(
        failures.is_empty(),
        "{} of {loads} loads differ; first ones:\n{}",
        failures.len(),
        failures.iter().take(12).cloned().collect::<Vec<_>>().join("\n")
    );
}

#[test]
fn random_documents_load_as_pyyaml_loads_them() {
    assert_none_differ("yaml_loader.json");
}

/// Where the pure-Python parser (bundles) and libyaml part ways: tabs
/// around block scalars' indentation and properties, `?` in brackets.
#[test]
fn texts_where_the_pure_python_parser_differs_load_as_it_loads_them() {
    assert_none_differ("yaml_pure_cases.json");
}
