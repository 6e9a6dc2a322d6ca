//! The composer: events to a node graph, as PyYAML's `CParser` builds it
//! (anchors shared, tags resolved, exactly one document).

use super::events::{Event, Mark, Parser, SyntaxError};
use super::pure::{self, ScalarSpan};
use super::resolve::{resolve_scalar, Tag};
use super::{LoadError, MAX_DEPTH};

/// How deep the rest of a document too deeply nested is read to find a
/// syntax error Python would report first (libyaml takes time that grows
/// with the square of the depth: 10,000 levels take some 50 ms).
const DRAINED_DEPTH_AT_MOST: usize = 10 * MAX_DEPTH;
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
#[derive(Debug, Clone, Copy)]
struct Open {
    id: NodeId,
    /// Where it starts.
    start: Mark,
    /// A flow collection (`[...]`, `{...}`): whether a sequence.
    flow: Option<bool>,
    /// A mapping's key waiting for its value.
    pending_key: Option<NodeId>,
}

/// `get_single_node()`: the stream's only document, or the error PyYAML
/// raises for it. `pure`: the pure-Python parser's differences apply (see `pure`).
pub fn compose(text: &str, pure: bool) -> Result<Graph, LoadError> {
    if !pure {
        return compose_text(text, false);
    }
    let (text, stand_in) = pure::bom_as_content(text);
    let mut graph = compose_pure(&text)?;
    if let Some(stand_in) = stand_in {
        for node in &mut graph.nodes {
            if let NodeKind::Scalar { value } = &mut node.kind {
                if value.contains(stand_in) {
                    *value = value.replace(stand_in, "\u{feff}");
                }
            }
        }
    }
    Ok(graph)
}

/// [`compose`] by the pure-Python parser's rules.
fn compose_pure(text: &str) -> Result<Graph, LoadError> {
    let mut text = pure::absorb_flow_indicators_into_tags(text, DRAINED_DEPTH_AT_MOST);
    // Each pass gives one more block scalar the indentation the
    // pure-Python scanner reads where libyaml refuses a tab.
    for _ in 0..MAX_INDENTATIONS_GIVEN {
        let mut open_at_error = None;
        let result = compose_reporting(&text, true, &mut open_at_error);
        match result {
            Err(Refused { error, raw: Some(raw) }) => {
                match pure::indentation_given(&text, &raw, parent_indent(open_at_error)) {
                    Some(given) => text = given,
                    None => return Err(error),
                }
            }
            other => return other.map_err(|refused| refused.error),
        }
    }
    compose_text(&text, true)
}

/// The indentation of the block collection open at an error (`-1` at the
/// top); none in a flow collection, which holds no block scalar.
fn parent_indent(open: Option<Open>) -> Option<i64> {
    match open {
        None => Some(-1),
        Some(open) if open.flow.is_some() => None,
        Some(open) => Some(open.start.column as i64),
    }
}

/// How many block scalars of one text are given an indentation at most.
const MAX_INDENTATIONS_GIVEN: usize = 64;

fn compose_text(text: &str, pure: bool) -> Result<Graph, LoadError> {
    compose_reporting(text, pure, &mut None).map_err(|refused| refused.error)
}

/// An error, with libyaml's own where it raised one.
struct Refused {
    error: LoadError,
    raw: Option<Box<SyntaxError>>,
}

impl From<LoadError> for Refused {
    fn from(error: LoadError) -> Refused {
        Refused { error, raw: None }
    }
}

/// [`compose`] on `text` as it is; `open_at_error`: the collection open
/// when libyaml raised an error, if it did.
fn compose_reporting(text: &str, pure: bool, open_at_error: &mut Option<Open>) -> Result<Graph, Refused> {
    let mut parser = Parser::new(text);
    let mut nodes = Vec::new();
    let mut spans = Vec::new();
    let raw = std::cell::RefCell::new(None);
    let mut next = || {
        parser.next().map_err(|e| {
            *raw.borrow_mut() = Some(e.clone());
            LoadError::syntax(e)
        })
    };
    let refused = |error: LoadError| Refused { error, raw: raw.borrow_mut().take().map(Box::new) };
    let stream = (|| {
        next()?; // StreamStart
        let (event, _, _) = next()?;
        let root = match event {
            Event::StreamEnd => None,
            _ => Some(compose_document(&mut next, &mut nodes, &mut spans, pure, open_at_error)?),
        };
        let (event, start, _) = next()?;
        Ok((root, event, start))
    })();
    let (root, event, start) = stream.map_err(refused)?;
    if pure {
        if let Some(error) = pure::refusal(text, &spans) {
            return Err(error.into());
        }
    }
    if !matches!(event, Event::StreamEnd) {
        let first = root.map(|r| nodes[r].start).unwrap_or_default();
        return Err(LoadError::yaml(
            "ComposerError",
            Some(("expected a single document in the stream".into(), first)),
            "but found another document".into(),
            start,
        )
        .into());
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
    open_at_error: &mut Option<Open>,
) -> Result<NodeId, LoadError> {
    let mut anchors: HashMap<String, NodeId> = HashMap::new();
    let mut stack: Vec<Open> = Vec::new();
    let mut root = None;
    loop {
        let (event, start, end) = next().inspect_err(|_| *open_at_error = stack.last().copied())?;
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
                    flow: stack.last().and_then(|open| open.flow.map(|seq| (open.start, seq))),
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
            Event::SequenceStart { anchor, tag, flow } | Event::MappingStart { anchor, tag, flow } => {
                if stack.len() >= MAX_DEPTH {
                    // A syntax error further on is what Python reports. The
                    // scanner's work grows with the square of the nesting:
                    // past DRAINED_DEPTH_AT_MOST levels the rest goes unread.
                    let mut depth = stack.len() + 1;
                    while depth <= DRAINED_DEPTH_AT_MOST {
                        match next()?.0 {
                            Event::StreamEnd => break,
                            Event::SequenceStart { .. } | Event::MappingStart { .. } => depth += 1,
                            Event::SequenceEnd | Event::MappingEnd => depth -= 1,
                            _ => {}
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
                stack.push(Open { id, start, flow: flow.then_some(is_seq), pending_key: None });
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
