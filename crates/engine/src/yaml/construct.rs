//! PyYAML's `SafeConstructor`, in its order.
//!
//! Python builds containers in two steps: an empty object first, filled
//! later by a generator that runs after every container of the level above.
//! Which error a document raises first (and so whether Hermes catches it)
//! depends on that order, so it is kept here: containers are filled from a
//! FIFO queue. Objects live in an arena while they are built, so aliases
//! share them as Python's do; the result is expanded into a [`Value`] tree
//! at the end, within [`MAX_VALUES`] and [`MAX_DEPTH`].

use super::compose::{Node, NodeId, NodeKind};
use super::events::Mark;
use super::number::{construct_float, construct_int};
use super::resolve::{timestamp_fields, Tag};
use super::{LoadError, PyError, MAX_DEPTH, MAX_VALUES};
use crate::py::py_str_repr;
use crate::value::{Date, DateTime, Key, Value};
use indexmap::IndexMap;
use std::collections::VecDeque;

type ObjId = usize;

enum Obj {
    Scalar(Value),
    List(Vec<ObjId>),
    /// A `(key, value)` tuple of `!!omap` / `!!pairs`.
    Pair(ObjId, ObjId),
    /// Entries with distinct keys, in first-insertion order.
    Dict(Vec<(Key, ObjId)>),
    Set(Vec<Key>),
}

#[derive(Clone, Copy)]
enum Fill {
    Seq,
    Map,
    Set,
    Pairs { omap: bool },
}

struct Constructor<'n> {
    nodes: &'n mut [Node],
    objs: Vec<Obj>,
    built: Vec<Option<ObjId>>,
    /// Objects an alias refers to again: copied out, not moved.
    shared: Vec<bool>,
    /// The document has aliases or merge keys.
    shares: bool,
    queue: VecDeque<(Fill, NodeId, ObjId)>,
}

/// `construct_document(root)`.
pub fn construct(nodes: &mut [Node], root: NodeId) -> Result<Value, LoadError> {
    let count = nodes.len();
    // Aliases and merge keys let one node stand in several places.
    let shares = nodes.iter().any(|n| n.aliased || n.tag == Tag::Merge);
    let mut c = Constructor {
        nodes,
        objs: Vec::new(),
        built: vec![None; count],
        shared: Vec::new(),
        shares,
        queue: VecDeque::new(),
    };
    let top = c.object(root)?;
    while let Some((fill, node, obj)) = c.queue.pop_front() {
        c.fill(fill, node, obj)?;
    }
    let mut budget = MAX_VALUES;
    let mut open = vec![false; c.objs.len()];
    c.shared.resize(c.objs.len(), false);
    let at = c.nodes[root].start;
    let mut out = Out { objs: &mut c.objs, shared: &c.shared, open: &mut open, budget: &mut budget, at };
    out.value(top)
}

fn constructor_error(context: Option<(&str, Mark)>, problem: String, at: Mark) -> LoadError {
    LoadError::yaml("ConstructorError", context.map(|(c, m)| (c.to_owned(), m)), problem, at)
}

impl Constructor<'_> {
    fn new_obj(&mut self, node: NodeId, obj: Obj) -> ObjId {
        self.objs.push(obj);
        let id = self.objs.len() - 1;
        self.built[node] = Some(id);
        id
    }

    /// `construct_object(node)`.
    fn object(&mut self, node: NodeId) -> Result<ObjId, LoadError> {
        if let Some(id) = self.built[node] {
            if self.shared.len() <= id {
                self.shared.resize(id + 1, false);
            }
            self.shared[id] = true;
            return Ok(id);
        }
        let start = self.nodes[node].start;
        let py = |e: PyError| LoadError::python(e, start);
        let container = |fill| Some(fill);
        let (value, fill) = match &self.nodes[node].tag {
            Tag::Null => {
                self.scalar(node)?;
                (Value::Null, None)
            }
            Tag::Str => (Value::Str(self.owned_scalar(node)?), None),
            Tag::Bool => {
                let text = self.scalar(node)?.to_lowercase();
                let b = match text.as_str() {
                    "yes" | "true" | "on" => true,
                    "no" | "false" | "off" => false,
                    _ => return Err(py(PyError::new("KeyError", py_str_repr(&text)))),
                };
                (Value::Bool(b), None)
            }
            Tag::Int => (construct_int(self.scalar(node)?).map_err(py)?, None),
            Tag::Float => (construct_float(self.scalar(node)?).map_err(py)?, None),
            Tag::Binary => (self.binary(node)?, None),
            Tag::Timestamp => {
                self.scalar(node)?;
                let NodeKind::Scalar { value, .. } = &self.nodes[node].kind else { unreachable!() };
                (timestamp(value).map_err(py)?, None)
            }
            Tag::Seq => (Value::Null, container(Fill::Seq)),
            Tag::Map => (Value::Null, container(Fill::Map)),
            Tag::Set => (Value::Null, container(Fill::Set)),
            Tag::Omap => (Value::Null, container(Fill::Pairs { omap: true })),
            Tag::Pairs => (Value::Null, container(Fill::Pairs { omap: false })),
            tag @ (Tag::Merge | Tag::Value | Tag::Other(_)) => {
                let message = format!("could not determine a constructor for the tag {}", py_str_repr(&tag.full()));
                return Err(constructor_error(None, message, start));
            }
        };
        let Some(fill) = fill else {
            return Ok(self.new_obj(node, Obj::Scalar(value)));
        };
        let empty = match fill {
            Fill::Seq | Fill::Pairs { .. } => Obj::List(Vec::new()),
            Fill::Map => Obj::Dict(Vec::new()),
            Fill::Set => Obj::Set(Vec::new()),
        };
        let id = self.new_obj(node, empty);
        self.queue.push_back((fill, node, id));
        Ok(id)
    }

    /// SafeConstructor's `construct_scalar`: a mapping with a `=` key
    /// stands for that key's value.
    fn scalar(&self, node: NodeId) -> Result<&str, LoadError> {
        let n = &self.nodes[node];
        if let NodeKind::Map(pairs) = &n.kind {
            if let Some(&(_, value)) = pairs.iter().find(|(k, _)| self.nodes[*k].tag == Tag::Value) {
                return self.scalar(value);
            }
        }
        match &n.kind {
            NodeKind::Scalar { value, .. } => Ok(value),
            _ => Err(constructor_error(None, format!("expected a scalar node, but found {}", n.id()), n.start)),
        }
    }

    /// [`Constructor::scalar`] as an owned string: moved out of a node
    /// nothing else refers to (no alias), so a document's text is copied
    /// once, not twice.
    fn owned_scalar(&mut self, node: NodeId) -> Result<String, LoadError> {
        match &mut self.nodes[node] {
            Node { kind: NodeKind::Scalar { value }, aliased: false, .. } => Ok(std::mem::take(value)),
            _ => self.scalar(node).map(str::to_owned),
        }
    }

    fn binary(&self, node: NodeId) -> Result<Value, LoadError> {
        let text = self.scalar(node)?;
        let start = self.nodes[node].start;
        if let Some((pos, c)) = text.chars().enumerate().find(|(_, c)| !c.is_ascii()) {
            return Err(constructor_error(
                None,
                format!(
                    "failed to convert base64 data into ascii: 'ascii' codec can't encode character {} in position {pos}: ordinal not in range(128)",
                    py_char_repr(c)
                ),
                start,
            ));
        }
        a2b_base64(text.as_bytes())
            .map(Value::Bytes)
            .map_err(|e| constructor_error(None, format!("failed to decode base64 data: {e}"), start))
    }

    /// Runs one container's generator to its end.
    fn fill(&mut self, fill: Fill, node: NodeId, obj: ObjId) -> Result<(), LoadError> {
        match fill {
            Fill::Seq => {
                let n = &self.nodes[node];
                let NodeKind::Seq(children) = &n.kind else {
                    return Err(constructor_error(
                        None,
                        format!("expected a sequence node, but found {}", n.id()),
                        n.start,
                    ));
                };
                let mut items = Vec::with_capacity(children.len());
                for child in children.clone() {
                    items.push(self.object(child)?);
                }
                self.objs[obj] = Obj::List(items);
            }
            Fill::Map => {
                let entries = self.mapping(node)?;
                self.objs[obj] = Obj::Dict(entries);
            }
            Fill::Set => {
                let entries = self.mapping(node)?;
                self.objs[obj] = Obj::Set(entries.into_iter().map(|(k, _)| k).collect());
            }
            Fill::Pairs { omap } => {
                let what = if omap { "while constructing an ordered map" } else { "while constructing pairs" };
                let n = &self.nodes[node];
                let NodeKind::Seq(children) = &n.kind else {
                    return Err(constructor_error(
                        Some((what, n.start)),
                        format!("expected a sequence, but found {}", n.id()),
                        n.start,
                    ));
                };
                let (children, start) = (children.clone(), n.start);
                let mut pairs = Vec::with_capacity(children.len());
                for child in children {
                    let sub = &self.nodes[child];
                    let NodeKind::Map(entries) = &sub.kind else {
                        return Err(constructor_error(
                            Some((what, start)),
                            format!("expected a mapping of length 1, but found {}", sub.id()),
                            sub.start,
                        ));
                    };
                    if entries.len() != 1 {
                        return Err(constructor_error(
                            Some((what, start)),
                            format!("expected a single mapping item, but found {} items", entries.len()),
                            sub.start,
                        ));
                    }
                    let (k, v) = entries[0];
                    let key = self.object(k)?;
                    let value = self.object(v)?;
                    self.objs.push(Obj::Pair(key, value));
                    pairs.push(self.objs.len() - 1);
                }
                self.objs[obj] = Obj::List(pairs);
            }
        }
        Ok(())
    }

    /// SafeConstructor's `construct_mapping`: merge keys first, then each
    /// key (which must be hashable) and value in order; a later equal key
    /// replaces the value and keeps the first key.
    fn mapping(&mut self, node: NodeId) -> Result<Vec<(Key, ObjId)>, LoadError> {
        if matches!(self.nodes[node].kind, NodeKind::Map(_)) {
            self.flatten(node, 0)?;
        }
        let n = &self.nodes[node];
        let NodeKind::Map(pairs) = &n.kind else {
            return Err(constructor_error(None, format!("expected a mapping node, but found {}", n.id()), n.start));
        };
        let (pairs, start) = (pairs.clone(), n.start);
        let mut out = Entries::with_capacity(pairs.len());
        for (k, v) in pairs {
            let key_obj = self.object(k)?;
            // Without aliases or merges a key is read once: its value moves into the key.
            let only_here = !self.shares;
            let key = match &mut self.objs[key_obj] {
                Obj::Scalar(value) if only_here => Key::new(std::mem::take(value)),
                Obj::Scalar(value) => Key::new(value.clone()),
                _ => None,
            };
            let Some(key) = key else {
                return Err(constructor_error(
                    Some(("while constructing a mapping", start)),
                    "found unhashable key".into(),
                    self.nodes[k].start,
                ));
            };
            let value = self.object(v)?;
            out.insert(key, value);
        }
        Ok(out.entries)
    }

    /// `flatten_mapping`: splices `<<` merges into the node (earlier
    /// mappings of a merge list win), and makes `=` keys plain strings.
    /// Like PyYAML it edits the node in place and re-reads it after each
    /// step, so a mapping that merges itself ends.
    fn flatten(&mut self, node: NodeId, depth: usize) -> Result<(), LoadError> {
        let start = self.nodes[node].start;
        if depth > MAX_DEPTH {
            return Err(LoadError::python(PyError::new("RecursionError", "maximum recursion depth exceeded"), start));
        }
        let mut merge = Vec::new();
        let mut index = 0;
        loop {
            let pairs = self.map_pairs(node);
            let Some(&(key, value)) = pairs.get(index) else { break };
            match self.nodes[key].tag {
                Tag::Merge => {
                    if let NodeKind::Map(pairs) = &mut self.nodes[node].kind {
                        pairs.remove(index);
                    }
                    match self.nodes[value].kind.clone() {
                        NodeKind::Map(_) => {
                            self.flatten(value, depth + 1)?;
                            merge.extend(self.map_pairs(value));
                        }
                        NodeKind::Seq(subnodes) => {
                            let mut submerge = Vec::new();
                            for sub in subnodes {
                                if !matches!(self.nodes[sub].kind, NodeKind::Map(_)) {
                                    return Err(constructor_error(
                                        Some(("while constructing a mapping", start)),
                                        format!("expected a mapping for merging, but found {}", self.nodes[sub].id()),
                                        self.nodes[sub].start,
                                    ));
                                }
                                self.flatten(sub, depth + 1)?;
                                submerge.push(self.map_pairs(sub));
                            }
                            for entries in submerge.into_iter().rev() {
                                merge.extend(entries);
                            }
                        }
                        NodeKind::Scalar { .. } => {
                            return Err(constructor_error(
                                Some(("while constructing a mapping", start)),
                                format!(
                                    "expected a mapping or list of mappings for merging, but found {}",
                                    self.nodes[value].id()
                                ),
                                self.nodes[value].start,
                            ))
                        }
                    }
                }
                Tag::Value => {
                    self.nodes[key].tag = Tag::Str;
                    index += 1;
                }
                _ => index += 1,
            }
        }
        if !merge.is_empty() {
            merge.extend(self.map_pairs(node));
            self.nodes[node].kind = NodeKind::Map(merge);
        }
        Ok(())
    }

    fn map_pairs(&self, node: NodeId) -> Vec<(NodeId, NodeId)> {
        match &self.nodes[node].kind {
            NodeKind::Map(pairs) => pairs.clone(),
            _ => Vec::new(),
        }
    }
}

/// A mapping being built: a short one finds equal keys by comparing them
/// (most frontmatter has a dozen keys), a long one through an index, so
/// each key is hashed once at most, when the value tree is built.
struct Entries {
    entries: Vec<(Key, ObjId)>,
    index: Option<IndexMap<Key, usize>>,
}

impl Entries {
    const SCAN_UP_TO: usize = 16;

    fn with_capacity(n: usize) -> Entries {
        Entries { entries: Vec::with_capacity(n), index: None }
    }

    /// `dict[key] = value`: an equal key keeps its place and the first key.
    fn insert(&mut self, key: Key, value: ObjId) {
        if self.index.is_none() && self.entries.len() >= Self::SCAN_UP_TO {
            self.index = Some(self.entries.iter().enumerate().map(|(i, (k, _))| (k.clone(), i)).collect());
        }
        let found = match &self.index {
            Some(index) => index.get(&key).copied(),
            None => self.entries.iter().position(|(k, _)| *k == key),
        };
        match found {
            Some(i) => self.entries[i].1 = value,
            None => {
                if let Some(index) = &mut self.index {
                    index.insert(key.clone(), self.entries.len());
                }
                self.entries.push((key, value));
            }
        }
    }
}

/// `construct_yaml_timestamp` on a scalar's text.
pub(super) fn timestamp(text: &str) -> Result<Value, PyError> {
    let caps = timestamp_fields(text)
        .ok_or_else(|| PyError::new("AttributeError", "'NoneType' object has no attribute 'groupdict'"))?;
    let num = |name: &str| caps.name(name).map(|m| m.as_str().parse::<u32>().unwrap_or(0));
    let (year, month, day) = (num("year").unwrap_or(0), num("month").unwrap_or(0), num("day").unwrap_or(0));
    let Some(hour) = num("hour") else {
        return Date::new(year, month, day).map(Value::Date);
    };
    let fraction = match caps.name("fraction").map(|m| m.as_str()).filter(|f| !f.is_empty()) {
        Some(f) => {
            let six: String = f.chars().take(6).collect();
            format!("{six:0<6}").parse::<u32>().unwrap_or(0)
        }
        None => 0,
    };
    let offset = if let Some(sign) = caps.name("tz_sign") {
        let secs = (num("tz_hour").unwrap_or(0) * 3600 + num("tz_minute").unwrap_or(0) * 60) as i32;
        Some(if sign.as_str() == "-" { -secs } else { secs })
    } else {
        caps.name("tz").map(|_| 0)
    };
    let fields = [year, month, day, hour, num("minute").unwrap_or(0), num("second").unwrap_or(0), fraction];
    DateTime::new(fields, offset).map(Value::DateTime)
}

/// Python's `repr()` of one character, as `UnicodeEncodeError` prints it.
fn py_char_repr(c: char) -> String {
    match c as u32 {
        n if n <= 0xff => format!("'\\x{n:02x}'"),
        n if n <= 0xffff => format!("'\\u{n:04x}'"),
        n => format!("'\\U{n:08x}'"),
    }
}

/// `binascii.a2b_base64` in its default, non-strict mode.
pub(super) fn a2b_base64(data: &[u8]) -> Result<Vec<u8>, String> {
    fn sextet(c: u8) -> Option<u8> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        })
    }
    let mut out = Vec::with_capacity(data.len() / 4 * 3);
    let (mut quad_pos, mut pads, mut left) = (0u8, 0u8, 0u8);
    for &c in data {
        if c == b'=' {
            if quad_pos >= 2 {
                pads += 1;
                if quad_pos + pads >= 4 {
                    return Ok(out);
                }
            }
            continue;
        }
        let Some(v) = sextet(c) else { continue };
        pads = 0;
        match quad_pos {
            0 => {
                quad_pos = 1;
                left = v;
            }
            1 => {
                quad_pos = 2;
                out.push((left << 2) | (v >> 4));
                left = v & 0x0f;
            }
            2 => {
                quad_pos = 3;
                out.push((left << 4) | (v >> 2));
                left = v & 0x03;
            }
            _ => {
                quad_pos = 0;
                out.push((left << 6) | v);
                left = 0;
            }
        }
    }
    match quad_pos {
        0 => Ok(out),
        1 => Err(format!(
            "Invalid base64-encoded string: number of data characters ({}) cannot be 1 more than a multiple of 4",
            out.len() / 3 * 4 + 1
        )),
        _ => Err("Incorrect padding".into()),
    }
}

/// Expands the object graph into a value tree: shared objects are copied,
/// the others moved.
struct Out<'a> {
    objs: &'a mut [Obj],
    shared: &'a [bool],
    open: &'a mut [bool],
    budget: &'a mut usize,
    at: Mark,
}

/// A container being expanded: its children so far.
struct Frame {
    id: ObjId,
    copy: bool,
    children: Vec<ObjId>,
    keys: Option<Vec<Key>>,
    done: Vec<Value>,
}

enum Entered {
    Leaf(Value),
    Open(Frame),
}

impl Out<'_> {
    /// Iterative, so a deep document costs heap rather than stack.
    fn value(&mut self, top: ObjId) -> Result<Value, LoadError> {
        let mut stack: Vec<Frame> = Vec::new();
        let mut entered = self.enter(top, false, 0)?;
        loop {
            match entered {
                Entered::Open(frame) => stack.push(frame),
                Entered::Leaf(value) => match stack.last_mut() {
                    None => return Ok(value),
                    Some(parent) => parent.done.push(value),
                },
            }
            let Some(frame) = stack.last_mut() else { unreachable!("a leaf returns above") };
            if frame.done.len() < frame.children.len() {
                let (child, copy) = (frame.children[frame.done.len()], frame.copy);
                entered = self.enter(child, copy, stack.len())?;
                continue;
            }
            let frame = stack.pop().expect("checked above");
            self.open[frame.id] = false;
            let value = match (&self.objs[frame.id], frame.keys) {
                (Obj::Dict(_), Some(keys)) => Value::Map(keys.into_iter().zip(frame.done).collect()),
                (Obj::Pair(..), _) => Value::Tuple(frame.done),
                _ => Value::Seq(frame.done),
            };
            entered = Entered::Leaf(value);
        }
    }

    /// `copy`: the object is reached more than once (itself or through a
    /// shared ancestor), so it is copied rather than moved.
    fn enter(&mut self, id: ObjId, copy: bool, depth: usize) -> Result<Entered, LoadError> {
        if *self.budget == 0 {
            return Err(LoadError::limit(format!("aliases expand to more than {MAX_VALUES} values"), self.at));
        }
        *self.budget -= 1;
        if self.open[id] {
            return Err(LoadError::limit("a recursive alias (a collection that contains itself)".into(), self.at));
        }
        if depth > MAX_DEPTH {
            return Err(LoadError::limit(format!("nesting deeper than {MAX_DEPTH} levels"), self.at));
        }
        let copy = copy || self.shared[id];
        let frame =
            |children: Vec<ObjId>, keys| Frame { id, copy, done: Vec::with_capacity(children.len()), children, keys };
        let entered = match &mut self.objs[id] {
            Obj::Scalar(v) if copy => Entered::Leaf(v.clone()),
            Obj::Scalar(v) => Entered::Leaf(std::mem::take(v)),
            Obj::Set(keys) => Entered::Leaf(Value::Set(keys.clone())),
            Obj::List(items) => Entered::Open(frame(items.clone(), None)),
            Obj::Pair(k, v) => Entered::Open(frame(vec![*k, *v], None)),
            Obj::Dict(entries) if copy => {
                let (keys, children) = entries.iter().map(|(k, v)| (k.clone(), *v)).unzip();
                Entered::Open(frame(children, Some(keys)))
            }
            Obj::Dict(entries) => {
                let (keys, children) = std::mem::take(entries).into_iter().unzip();
                Entered::Open(frame(children, Some(keys)))
            }
        };
        if matches!(entered, Entered::Open(_)) {
            self.open[id] = true;
        }
        Ok(entered)
    }
}
