//! libyaml's event parser behind a safe interface.
//!
//! PyYAML's `CSafeLoader` is libyaml 0.2.5's parser with PyYAML's composer,
//! resolver and constructor on top. `unsafe-libyaml` is a line-by-line
//! translation of that same libyaml release, so the events (and the syntax
//! errors, with their marks) are the ones Hermes gets. All `unsafe` of the
//! YAML loader lives in this file.

use std::ffi::CStr;
use std::mem::MaybeUninit;
use unsafe_libyaml as unsafe_sys;

/// A position in the text: character index, line and column (all from 0).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Mark {
    pub index: u64,
    pub line: u64,
    pub column: u64,
}

impl Mark {
    fn from_sys(m: unsafe_sys::yaml_mark_t) -> Mark {
        Mark { index: m.index, line: m.line, column: m.column }
    }
}

#[derive(Debug)]
pub enum Event {
    StreamStart,
    StreamEnd,
    DocumentStart,
    DocumentEnd,
    Alias {
        anchor: String,
    },
    Scalar {
        anchor: Option<String>,
        tag: Option<String>,
        value: String,
        plain_implicit: bool,
        quoted_implicit: bool,
        /// Quoted or block scalar (not plain).
        quoted_or_block: bool,
    },
    SequenceStart {
        anchor: Option<String>,
        tag: Option<String>,
        /// Written in flow style (`[a, b]`).
        flow: bool,
    },
    SequenceEnd,
    MappingStart {
        anchor: Option<String>,
        tag: Option<String>,
        /// Written in flow style (`{a: b}`).
        flow: bool,
    },
    MappingEnd,
}

/// libyaml's error, as PyYAML's `CParser` raises it.
#[derive(Debug, Clone)]
pub struct SyntaxError {
    pub kind: SyntaxErrorKind,
    pub problem: String,
    pub problem_mark: Mark,
    pub context: Option<String>,
    pub context_mark: Mark,
    /// The offending character of a reader error.
    pub problem_value: i32,
    pub problem_offset: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SyntaxErrorKind {
    Reader,
    Scanner,
    Parser,
    Memory,
}

pub struct Parser<'input> {
    // Boxed: libyaml keeps pointers into the parser struct itself.
    sys: Box<MaybeUninit<unsafe_sys::yaml_parser_t>>,
    _input: &'input [u8],
    done: bool,
}

impl<'input> Parser<'input> {
    pub fn new(input: &'input str) -> Parser<'input> {
        let mut sys = Box::new(MaybeUninit::<unsafe_sys::yaml_parser_t>::uninit());
        let bytes = input.as_bytes();
        // SAFETY: `sys` is a valid allocation for the parser; initialize only
        // fails on allocation failure, which aborts elsewhere in Rust anyway.
        // The input slice outlives the parser (`'input`).
        unsafe {
            let parser = sys.as_mut_ptr();
            if unsafe_sys::yaml_parser_initialize(parser).fail {
                std::alloc::handle_alloc_error(std::alloc::Layout::new::<unsafe_sys::yaml_parser_t>());
            }
            unsafe_sys::yaml_parser_set_encoding(parser, unsafe_sys::YAML_UTF8_ENCODING);
            unsafe_sys::yaml_parser_set_input_string(parser, bytes.as_ptr(), bytes.len() as u64);
        }
        Parser { sys, _input: bytes, done: false }
    }

    /// The next event with its start and end marks.
    pub fn next(&mut self) -> Result<(Event, Mark, Mark), SyntaxError> {
        let mut event = MaybeUninit::<unsafe_sys::yaml_event_t>::uninit();
        // SAFETY: the parser was initialized in `new`; libyaml fills `event`
        // when it succeeds, and it is deleted right after it is copied out.
        unsafe {
            let parser = self.sys.as_mut_ptr();
            if self.done
                || (&*parser).error != unsafe_sys::YAML_NO_ERROR
                || unsafe_sys::yaml_parser_parse(parser, event.as_mut_ptr()).fail
            {
                self.done = true;
                return Err(error_of(&*parser));
            }
            let raw = &*event.as_ptr();
            let converted = convert(raw);
            let (start, end) = (Mark::from_sys(raw.start_mark), Mark::from_sys(raw.end_mark));
            unsafe_sys::yaml_event_delete(event.as_mut_ptr());
            Ok((converted, start, end))
        }
    }
}

impl Parser<'_> {
    /// Where each tag token ends (byte offsets), read with libyaml's
    /// scanner until the end, the first error, or brackets nested deeper
    /// than `max_flow_depth` (the scanner's work grows with the square of
    /// their depth, and no reader goes on past such a depth).
    pub fn tag_ends(text: &str, max_flow_depth: usize) -> Vec<usize> {
        let mut parser = Parser::new(text);
        let mut ends = Vec::new();
        let mut flow_depth = 0usize;
        // SAFETY: as in `next`; each token is deleted after it is read.
        unsafe {
            let sys = parser.sys.as_mut_ptr();
            loop {
                let mut token = MaybeUninit::<unsafe_sys::yaml_token_t>::uninit();
                if unsafe_sys::yaml_parser_scan(sys, token.as_mut_ptr()).fail {
                    break;
                }
                let raw = &*token.as_ptr();
                let (kind, end) = (raw.type_, raw.end_mark.index as usize);
                unsafe_sys::yaml_token_delete(token.as_mut_ptr());
                match kind {
                    unsafe_sys::YAML_TAG_TOKEN => ends.push(end),
                    unsafe_sys::YAML_STREAM_END_TOKEN | unsafe_sys::YAML_NO_TOKEN => break,
                    unsafe_sys::YAML_FLOW_SEQUENCE_START_TOKEN | unsafe_sys::YAML_FLOW_MAPPING_START_TOKEN => {
                        flow_depth += 1;
                        if flow_depth > max_flow_depth {
                            break;
                        }
                    }
                    unsafe_sys::YAML_FLOW_SEQUENCE_END_TOKEN | unsafe_sys::YAML_FLOW_MAPPING_END_TOKEN => {
                        flow_depth = flow_depth.saturating_sub(1);
                    }
                    _ => {}
                }
            }
        }
        ends
    }
}

impl Drop for Parser<'_> {
    fn drop(&mut self) {
        // SAFETY: initialized in `new`, deleted exactly once.
        unsafe { unsafe_sys::yaml_parser_delete(self.sys.as_mut_ptr()) }
    }
}

/// SAFETY: `ptr` is null or a NUL-terminated string owned by libyaml.
unsafe fn text(ptr: *const u8) -> Option<String> {
    if ptr.is_null() {
        return None;
    }
    Some(String::from_utf8_lossy(CStr::from_ptr(ptr.cast()).to_bytes()).into_owned())
}

/// SAFETY: `raw` is an event libyaml just produced.
unsafe fn convert(raw: &unsafe_sys::yaml_event_t) -> Event {
    match raw.type_ {
        unsafe_sys::YAML_STREAM_START_EVENT => Event::StreamStart,
        unsafe_sys::YAML_STREAM_END_EVENT => Event::StreamEnd,
        unsafe_sys::YAML_DOCUMENT_START_EVENT => Event::DocumentStart,
        unsafe_sys::YAML_DOCUMENT_END_EVENT => Event::DocumentEnd,
        unsafe_sys::YAML_ALIAS_EVENT => Event::Alias { anchor: text(raw.data.alias.anchor).unwrap_or_default() },
        unsafe_sys::YAML_SCALAR_EVENT => {
            let s = &raw.data.scalar;
            let bytes =
                if s.value.is_null() { &[][..] } else { std::slice::from_raw_parts(s.value, s.length as usize) };
            Event::Scalar {
                anchor: text(s.anchor),
                tag: text(s.tag),
                // libyaml hands back UTF-8 for UTF-8 input; checking is cheaper than the lossy path.
                value: match std::str::from_utf8(bytes) {
                    Ok(s) => s.to_owned(),
                    Err(_) => String::from_utf8_lossy(bytes).into_owned(),
                },
                plain_implicit: s.plain_implicit,
                quoted_implicit: s.quoted_implicit,
                quoted_or_block: s.style != unsafe_sys::YAML_PLAIN_SCALAR_STYLE,
            }
        }
        unsafe_sys::YAML_SEQUENCE_START_EVENT => Event::SequenceStart {
            anchor: text(raw.data.sequence_start.anchor),
            tag: text(raw.data.sequence_start.tag),
            flow: raw.data.sequence_start.style == unsafe_sys::YAML_FLOW_SEQUENCE_STYLE,
        },
        unsafe_sys::YAML_SEQUENCE_END_EVENT => Event::SequenceEnd,
        unsafe_sys::YAML_MAPPING_START_EVENT => {
            let data = raw.data.mapping_start;
            Event::MappingStart {
                anchor: text(data.anchor),
                tag: text(data.tag),
                flow: data.style == unsafe_sys::YAML_FLOW_MAPPING_STYLE,
            }
        }
        unsafe_sys::YAML_MAPPING_END_EVENT => Event::MappingEnd,
        // libyaml never answers "no event" on success.
        _ => Event::StreamEnd,
    }
}

/// SAFETY: `parser` is an initialized parser whose last call failed.
unsafe fn error_of(parser: &unsafe_sys::yaml_parser_t) -> SyntaxError {
    let kind = match parser.error {
        unsafe_sys::YAML_READER_ERROR => SyntaxErrorKind::Reader,
        unsafe_sys::YAML_SCANNER_ERROR => SyntaxErrorKind::Scanner,
        unsafe_sys::YAML_MEMORY_ERROR => SyntaxErrorKind::Memory,
        _ => SyntaxErrorKind::Parser,
    };
    SyntaxError {
        kind,
        problem: text(parser.problem.cast()).unwrap_or_else(|| "no further input".into()),
        problem_mark: Mark::from_sys(parser.problem_mark),
        context: text(parser.context.cast()),
        context_mark: Mark::from_sys(parser.context_mark),
        problem_value: parser.problem_value,
        problem_offset: parser.problem_offset,
    }
}
