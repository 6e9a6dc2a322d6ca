//! The common case, built directly: a document without aliases or merge
//! keys, whose every node has a SafeConstructor type of its own kind.
//!
//! Without aliases or merges, construction order matters only for which
//! error PyYAML raises first, so a document that constructs without error
//! gives the same value built depth first as PyYAML builds it. On any error
//! this gives up, and the caller runs the faithful constructor
//! (`construct`) on a fresh parse, which reports the error PyYAML raises.

use super::compose::{Node, NodeId, NodeKind};
use super::construct::{a2b_base64, timestamp};
use super::number::{construct_float, construct_int};
use super::resolve::Tag;
use crate::value::{Key, Map, Value};

/// Deeper documents go through the iterative constructor.
const MAX_PLAIN_DEPTH: usize = 64;

/// The value of a plain document, or `None` when it is not plain or does
/// not construct (its nodes may then have been emptied).
pub fn construct(nodes: &mut [Node], root: NodeId) -> Option<Value> {
    if nodes.iter().any(|n| n.aliased || n.tag == Tag::Merge) {
        return None;
    }
    value(nodes, root, 0)
}

fn value(nodes: &mut [Node], id: NodeId, depth: usize) -> Option<Value> {
    if depth > MAX_PLAIN_DEPTH {
        return None;
    }
    let node = &mut nodes[id];
    match (&node.tag, &mut node.kind) {
        (Tag::Str, NodeKind::Scalar { value }) => Some(Value::Str(std::mem::take(value))),
        (Tag::Null, NodeKind::Scalar { .. }) => Some(Value::Null),
        (Tag::Bool, NodeKind::Scalar { value }) => match value.to_lowercase().as_str() {
            "yes" | "true" | "on" => Some(Value::Bool(true)),
            "no" | "false" | "off" => Some(Value::Bool(false)),
            _ => None,
        },
        (Tag::Int, NodeKind::Scalar { value }) => construct_int(value).ok(),
        (Tag::Float, NodeKind::Scalar { value }) => construct_float(value).ok(),
        (Tag::Timestamp, NodeKind::Scalar { value }) => timestamp(value).ok(),
        (Tag::Binary, NodeKind::Scalar { value }) if value.is_ascii() => {
            a2b_base64(value.as_bytes()).ok().map(Value::Bytes)
        }
        (Tag::Seq, NodeKind::Seq(items)) => {
            let items = std::mem::take(items);
            items.into_iter().map(|i| value(nodes, i, depth + 1)).collect::<Option<Vec<_>>>().map(Value::Seq)
        }
        (Tag::Map, NodeKind::Map(pairs)) => {
            let pairs = std::mem::take(pairs);
            let mut map = Map::with_capacity_and_hasher(pairs.len(), Default::default());
            for (k, v) in pairs {
                // `flatten_mapping` makes a `=` key a plain string.
                if nodes[k].tag == Tag::Value {
                    nodes[k].tag = Tag::Str;
                }
                let key = Key::new(value(nodes, k, depth + 1)?)?;
                let v = value(nodes, v, depth + 1)?;
                // `dict[key] = value`: an equal key keeps its place and the first key.
                match map.get_mut(&key) {
                    Some(slot) => *slot = v,
                    None => {
                        map.insert(key, v);
                    }
                }
            }
            Some(Value::Map(map))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::{compose, construct};
    use crate::value::Value;

    fn both(text: &str) -> (Option<Value>, Value) {
        let mut graph = compose::compose(text, false).expect("parses");
        let root = graph.root.expect("a document");
        let plain = super::construct(&mut graph.nodes, root);
        let mut graph = compose::compose(text, false).expect("parses");
        (plain, construct::construct(&mut graph.nodes, root).expect("constructs"))
    }

    #[test]
    fn plain_documents_build_as_the_faithful_constructor_builds_them() {
        for text in [
            "name: a\ndescription: b\nmetadata:\n  tags: [x, yes, 1.5, ~]\n  when: 2024-01-31\n",
            "1: a\ntrue: b\n1.0: c\n=: d\nbig: 123456789012345678901234567890\n",
            "- [a, {b: c}]\n- !!binary aGk=\n- !!str 12\n",
        ] {
            let (plain, faithful) = both(text);
            assert_eq!(plain.as_ref(), Some(&faithful), "{text}");
            assert_eq!(plain.map(|v| v.py_repr()), Some(faithful.py_repr()));
        }
    }

    #[test]
    fn shared_or_failing_documents_are_left_to_the_faithful_constructor() {
        for text in ["a: &x 1\nb: *x\n", "base: {k: 1}\nm:\n  <<: {k: 2}\n", "a: 0b_\n", "a: !!set {x}\n", "a: ="] {
            let mut graph = compose::compose(text, false).expect("parses");
            let root = graph.root.expect("a document");
            assert_eq!(super::construct(&mut graph.nodes, root), None, "{text}");
        }
    }
}
