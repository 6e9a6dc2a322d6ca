//! The composer: events to a node graph, as PyYAML's `CParser` builds it
//! (anchors shared, tags resolved, exactly one document).

use super::events::{Event, Mark, Parser};
use super::pure::{self, ScalarSpan};
use super::resolve::{resolve_scalar, Tag};
use super::{LoadError, MAX_DEPTH};
use std::collections::HashMap;

pub type NodeId = usize;

#[derive(Debug, Clone)]
pub enum NodeKind {
    Scalar { value: String },
    Seq(Vec<NodeId>),
    Map(Vec<(NodeId, NodeId)>),
}

#[derive(Debug, Clone)]
pub struct Node {
    pub kind: NodeKind,
    pub tag: Tag,
    pub start: Mark,
    /// An alias refers to it.
    pub aliased: bool,
}

impl Node {
    /// PyYAML's `node.id`.
    pub fn id(&self) -> &'static str {
        match self.kind {
            NodeKind::Scalar { .. } => "scalar",
            NodeKind::Seq(_) => "sequence",
            NodeKind::Map(_) => "mapping",
        }
    }
}

/// The nodes of one document; `root` is `None` for an empty stream.
pub struct Graph {
    pub nodes: Vec<Node>,
    pub root: Option<NodeId>,
}

/// An open collection while its children are composed.
struct Open {
    id: NodeId,
    /// A mapping's key waiting for its value.
    pending_key: Option<NodeId>,
}

/// `get_single_node()`: the stream's only document, or the error PyYAML
/// raises for it. `pure`: the pure-Python parser's differences apply (see `pure`).
pub fn compose(text: &str, pure: bool) -> Result<Graph, LoadError> {
    let absorbed;
    let text = if pure {
        absorbed = pure::absorb_flow_indicators_into_tags(text);
        absorbed.as_str()
    } else {
        text
    };
    let mut parser = Parser::new(text);
    let mut nodes = Vec::new();
    let mut spans = Vec::new();
    let mut next = || parser.next().map_err(LoadError::syntax);
    next()?; // StreamStart
    let (event, _, _) = next()?;
    let root = match event {
        Event::StreamEnd => None,
        _ => Some(compose_document(&mut next, &mut nodes, &mut spans, pure)?),
    };
    let (event, start, _) = next()?;
    if pure {
        if let Some(error) = pure::refusal(text, &spans) {
            return Err(error);
        }
    }
    if !matches!(event, Event::StreamEnd) {
        let first = root.map(|r| nodes[r].start).unwrap_or_default();
        return Err(LoadError::yaml(
            "ComposerError",
            Some(("expected a single document in the stream".into(), first)),
            "but found another document".into(),
            start,
        ));
    }
    Ok(Graph { nodes, root })
}

type Next<'a> = dyn FnMut() -> Result<(Event, Mark, Mark), LoadError> + 'a;

/// Composes the document whose `DocumentStart` was just read, through its
/// `DocumentEnd`. Iterative, so nesting costs no stack.
fn compose_document(
    next: &mut Next,
    nodes: &mut Vec<Node>,
    spans: &mut Vec<ScalarSpan>,
    pure: bool,
) -> Result<NodeId, LoadError> {
    let mut anchors: HashMap<String, NodeId> = HashMap::new();
    let mut stack: Vec<Open> = Vec::new();
    let mut root = None;
    loop {
        let (event, start, end) = next()?;
        let is_seq = matches!(event, Event::SequenceStart { .. });
        let (node, anchor) = match event {
            Event::Alias { anchor } => match anchors.get(&anchor) {
                Some(&id) => {
                    nodes[id].aliased = true;
                    (Some(id), None)
                }
                None => return Err(LoadError::yaml("ComposerError", None, "found undefined alias".into(), start)),
            },
            Event::Scalar { anchor, tag, value, plain_implicit, quoted_implicit, quoted_or_block } => {
                spans.push(ScalarSpan {
                    start: start.index as usize,
                    end: end.index as usize,
                    plain: !quoted_or_block,
                });
                // For `key: !` with no value the pure-Python parser marks the
                // empty scalar plain-implicit (so it is null); libyaml does not.
                let plain_implicit =
                    plain_implicit || (pure && !quoted_or_block && value.is_empty() && tag.as_deref() == Some("!"));
                let tag = match tag.as_deref() {
                    None | Some("!") => resolve_scalar(&value, plain_implicit, quoted_implicit),
                    Some(t) => Tag::from_full(t),
                };
                nodes.push(Node { kind: NodeKind::Scalar { value }, tag, start, aliased: false });
                (Some(nodes.len() - 1), anchor)
            }
            Event::SequenceStart { anchor, tag } | Event::MappingStart { anchor, tag } => {
                if stack.len() >= MAX_DEPTH {
                    // A syntax error further on is what Python reports.
                    loop {
                        if let (Event::StreamEnd, _, _) = next()? {
                            break;
                        }
                    }
                    return Err(LoadError::limit(format!("nesting deeper than {MAX_DEPTH} levels"), start));
                }
                let tag = match tag.as_deref() {
                    None | Some("!") if is_seq => Tag::Seq,
                    None | Some("!") => Tag::Map,
                    Some(t) => Tag::from_full(t),
                };
                let kind = if is_seq { NodeKind::Seq(Vec::new()) } else { NodeKind::Map(Vec::new()) };
                nodes.push(Node { kind, tag, start, aliased: false });
                let id = nodes.len() - 1;
                register(&mut anchors, anchor, id, nodes, start)?;
                stack.push(Open { id, pending_key: None });
                continue;
            }
            Event::SequenceEnd | Event::MappingEnd => (stack.pop().map(|open| open.id), None),
            Event::DocumentEnd | Event::StreamEnd | Event::StreamStart | Event::DocumentStart => {
                return root.ok_or_else(|| LoadError::limit("empty document".into(), start));
            }
        };
        let Some(node) = node else { continue };
        register(&mut anchors, anchor, node, nodes, start)?;
        match stack.last_mut() {
            None => root = Some(node),
            Some(open) => match &mut nodes[open.id].kind {
                NodeKind::Seq(items) => items.push(node),
                NodeKind::Map(pairs) => match open.pending_key.take() {
                    None => open.pending_key = Some(node),
                    Some(key) => pairs.push((key, node)),
                },
                NodeKind::Scalar { .. } => {}
            },
        }
    }
}

fn register(
    anchors: &mut HashMap<String, NodeId>,
    anchor: Option<String>,
    id: NodeId,
    nodes: &[Node],
    start: Mark,
) -> Result<(), LoadError> {
    let Some(anchor) = anchor else { return Ok(()) };
    if let Some(&first) = anchors.get(&anchor) {
        return Err(LoadError::yaml(
            "ComposerError",
            Some(("found duplicate anchor; first occurrence".into(), nodes[first].start)),
            "second occurrence".into(),
            start,
        ));
    }
    anchors.insert(anchor, id);
    Ok(())
}
