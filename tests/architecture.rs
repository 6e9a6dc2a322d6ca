//! The shape of the code, kept by a test: the import graph of each crate's
//! top-level modules (and of the browser's modules) has no circle. The
//! graphs are drawn in Graphviz form to `target/module-graph-*.dot`
//! (`dot -Tsvg target/module-graph-engine.dot > engine.svg`).

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Module name -> the modules it imports, for the modules directly under
/// `root` (a module's files below it count as the module).
type Graph = BTreeMap<String, BTreeSet<String>>;

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The code of a file that is not a comment, nor its unit tests.
fn code_of(text: &str) -> String {
    let text = text.split("#[cfg(test)]").next().unwrap_or(text);
    text.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n")
}

/// Every `crate::a` (or `prefix::a` for the app's modules below a folder)
/// and `super::…::a` reaching `root`'s level, with `{a, b}` groups.
fn imports(code: &str, depth: usize, crate_prefix: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let word = |s: &str| -> String { s.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect() };
    let add_group = |rest: &str, out: &mut BTreeSet<String>| {
        if let Some(group) = rest.strip_prefix('{') {
            let inner = group.split('}').next().unwrap_or("");
            for item in inner.split(',') {
                let name = word(item.trim());
                if !name.is_empty() && name != "self" {
                    out.insert(name);
                }
            }
        } else {
            let name = word(rest);
            if !name.is_empty() {
                out.insert(name);
            }
        }
    };
    for (at, _) in code.match_indices(crate_prefix) {
        add_group(&code[at + crate_prefix.len()..], &mut out);
    }
    for (at, _) in code.match_indices("super::") {
        // Only the start of a `super::super::…` run counts.
        if code[..at].ends_with("super::") {
            continue;
        }
        let mut rest = &code[at..];
        let mut ups = 0;
        while let Some(r) = rest.strip_prefix("super::") {
            ups += 1;
            rest = r;
        }
        if ups >= depth {
            add_group(rest, &mut out);
        }
    }
    out
}

/// The import graph of the modules directly under `root`.
fn graph(root: &Path, crate_prefix: &str) -> Graph {
    let mut files = Vec::new();
    rust_files(root, &mut files);
    let names: BTreeSet<String> = std::fs::read_dir(root)
        .expect("root")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().trim_end_matches(".rs").to_owned())
        .filter(|n| !matches!(n.as_str(), "lib" | "main" | "mod"))
        .collect();
    let mut graph = Graph::new();
    for file in files {
        let rel = file.strip_prefix(root).expect("below root");
        let parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().trim_end_matches(".rs").to_owned()).collect();
        let module = parts[0].clone();
        if !names.contains(&module) {
            continue;
        }
        // How many `super::` lead from this file to `root`'s level.
        let depth = parts.len() - usize::from(parts.last().is_some_and(|p| p == "mod"));
        let text = std::fs::read_to_string(&file).expect("read");
        let deps = imports(&code_of(&text), depth, crate_prefix);
        let entry = graph.entry(module.clone()).or_default();
        entry.extend(deps.into_iter().filter(|d| names.contains(d) && *d != module));
    }
    graph
}

/// The circles of a graph (strongly connected parts of two or more).
fn circles(graph: &Graph) -> Vec<Vec<String>> {
    // Tarjan's algorithm, iterative enough for a few dozen modules.
    struct State<'g> {
        graph: &'g Graph,
        index: BTreeMap<&'g str, usize>,
        low: BTreeMap<&'g str, usize>,
        stack: Vec<&'g str>,
        on_stack: BTreeSet<&'g str>,
        out: Vec<Vec<String>>,
    }
    fn visit<'g>(s: &mut State<'g>, v: &'g str) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on_stack.insert(v);
        for w in s.graph.get(v).into_iter().flatten() {
            let w = w.as_str();
            if !s.index.contains_key(w) {
                visit(s, w);
                let low = s.low[v].min(s.low[w]);
                s.low.insert(v, low);
            } else if s.on_stack.contains(w) {
                let low = s.low[v].min(s.index[w]);
                s.low.insert(v, low);
            }
        }
        if s.low[v] == s.index[v] {
            let mut part = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                part.push(w.to_owned());
                if w == v {
                    break;
                }
            }
            if part.len() > 1 {
                part.sort();
                s.out.push(part);
            }
        }
    }
    let mut state = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in graph.keys() {
        if !state.index.contains_key(v.as_str()) {
            visit(&mut state, v);
        }
    }
    state.out
}

fn draw(name: &str, graph: &Graph) {
    let mut dot = format!("digraph {} {{\n  rankdir=BT;\n", name.replace('-', "_"));
    for (from, deps) in graph {
        dot.push_str(&format!("  \"{from}\";\n"));
        for to in deps {
            dot.push_str(&format!("  \"{from}\" -> \"{to}\";\n"));
        }
    }
    dot.push_str("}\n");
    let target = common::repo().join("target");
    let _ = std::fs::create_dir_all(&target);
    let _ = std::fs::write(target.join(format!("module-graph-{name}.dot")), dot);
}

fn assert_no_circles(name: &str, graph: &Graph) {
    draw(name, graph);
    let found = circles(graph);
    assert!(found.is_empty(), "import circles among the {name} modules: {found:?}");
}

#[test]
fn the_engines_modules_import_each_other_in_no_circle() {
    let graph = graph(&common::repo().join("crates/engine/src"), "crate::");
    assert!(graph.len() > 30, "{} modules", graph.len());
    assert!(graph["catalog"].contains("skill"), "the catalog is built from per-skill evaluation");
    assert_no_circles("engine", &graph);
}

#[test]
fn the_finder_finds_a_circle() {
    let mut graph = Graph::new();
    graph.entry("a".into()).or_default().insert("b".into());
    graph.entry("b".into()).or_default().insert("c".into());
    graph.entry("c".into()).or_default().insert("a".into());
    graph.entry("d".into()).or_default().insert("a".into());
    assert_eq!(circles(&graph), [vec!["a".to_owned(), "b".into(), "c".into()]]);
    let found = imports(&code_of("use super::super::{x, y as z};\nuse crate::w::Q;\n// use crate::v;\n"), 2, "crate::");
    assert_eq!(found.into_iter().collect::<Vec<_>>(), ["w", "x", "y"]);
}

#[test]
fn the_apps_modules_import_each_other_in_no_circle() {
    let graph = graph(&common::repo().join("src"), "crate::");
    assert!(graph.contains_key("tui") && graph.contains_key("cli"), "{graph:?}");
    assert_no_circles("app", &graph);
}

#[test]
fn the_browsers_modules_import_each_other_in_no_circle() {
    let graph = graph(&common::repo().join("src/tui"), "crate::tui::");
    assert!(graph.len() > 15, "{} modules", graph.len());
    assert_no_circles("browser", &graph);
}
