//! Token counts with OpenAI's encodings (`bpe-openai`, built in, no
//! network): `o200k_base` by default, `cl100k_base` on request.
//!
//! The text is split into pieces by the encoding's pre-tokenizer, and each
//! piece is encoded on its own, as tiktoken does. The pre-tokenizer's
//! patterns are those `bpe-openai` 0.3 compiles (MIT, github.com/github/rust-gems),
//! compiled here once more so that each thread searches with its own cache:
//! the crate's shared regex hands its cache out through a pool, which two
//! busy threads contend for. Pieces seen before on a thread are not encoded
//! again (the words of a home's skills repeat).

mod ascii;

use regex_automata::meta::{Cache, Regex};
use regex_automata::{Anchored, Input};
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::LazyLock;

/// A token encoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Tokenizer {
    /// GPT-4o and later.
    #[default]
    O200kBase,
    /// GPT-4 and GPT-3.5.
    Cl100kBase,
}

/// `[^\s]+\s` pieces end one character early (the look-ahead of tiktoken's
/// `\s+(?!\S)`), as `bpe-openai` emulates it.
const CL100K_PATTERNS: [(&str, bool); 3] = [
    (
        "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+$",
        false,
    ),
    ("\\s+\\s", true),
    ("\\s+", false),
];

const O200K_FIRST: [&str; 6] = [
    "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
    "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
    "\\p{N}{1,3}",
    " ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*",
    "\\s*[\\r\\n]+",
    "\\s+$",
];

struct Splitter {
    regex: Regex,
    /// Per pattern: whether its last character is a look-ahead to drop.
    lookahead: Vec<bool>,
    /// The same split for pieces of ASCII, by hand ([`ascii`]).
    ascii_piece: fn(&[u8], usize) -> Option<usize>,
}

impl Splitter {
    fn new(patterns: &[(&str, bool)], ascii_piece: fn(&[u8], usize) -> Option<usize>) -> Splitter {
        let (sources, lookahead): (Vec<&str>, Vec<bool>) = patterns.iter().copied().unzip();
        let regex = Regex::new_many(&sources).expect("the encodings' pre-tokenizer patterns compile");
        Splitter { regex, lookahead, ascii_piece }
    }

    /// Calls `piece` with each piece of `text`, in order.
    fn for_each_piece(&self, cache: &mut Cache, text: &str, mut piece: impl FnMut(&str)) {
        let mut start = 0;
        while start < text.len() {
            if let Some(end) = (self.ascii_piece)(text.as_bytes(), start) {
                piece(&text[start..end]);
                start = end;
                continue;
            }
            let Some(end) = self.regex_piece(cache, text, start) else { break };
            piece(&text[start..end]);
            start = end;
        }
    }

    /// Calls `piece` with each piece of `text` as the patterns alone split it.
    #[cfg(test)]
    fn for_each_piece_by_regex(&self, cache: &mut Cache, text: &str, mut piece: impl FnMut(&str)) {
        let mut start = 0;
        while let Some(end) = (start < text.len()).then(|| self.regex_piece(cache, text, start)).flatten() {
            piece(&text[start..end]);
            start = end;
        }
    }

    /// The end of the piece at `start`, by the patterns.
    fn regex_piece(&self, cache: &mut Cache, text: &str, start: usize) -> Option<usize> {
        let input = Input::new(&text[start..]).anchored(Anchored::Yes);
        let found = self.regex.search_with(cache, &input)?;
        let mut end = start + found.range().end;
        if self.lookahead[found.pattern().as_usize()] {
            let last = text[start..end].chars().next_back().map_or(0, char::len_utf8);
            end -= last;
        }
        // The patterns match every non-empty rest with at least one
        // character; a guard against looping all the same.
        (end > start).then_some(end)
    }
}

static CL100K_SPLITTER: LazyLock<Splitter> = LazyLock::new(|| Splitter::new(&CL100K_PATTERNS, ascii::cl100k_piece));
static O200K_SPLITTER: LazyLock<Splitter> = LazyLock::new(|| {
    let first = O200K_FIRST.join("|");
    Splitter::new(&[(&first, false), ("\\s+\\s", true), ("\\s+", false)], ascii::o200k_piece)
});

/// Pieces no longer than this are remembered with their counts.
const MEMO_PIECE_BYTES: usize = 48;
/// Remembered pieces per thread and encoding, before the memo starts over.
const MEMO_ENTRIES: usize = 200_000;

/// One thread's search cache and remembered pieces, per encoding.
struct ThreadState {
    cache: Cache,
    memo: HashMap<Box<[u8]>, u32, foldhash::fast::RandomState>,
}

thread_local! {
    static STATE: RefCell<[Option<ThreadState>; 2]> = const { RefCell::new([None, None]) };
}

impl Tokenizer {
    pub const ALL: [Tokenizer; 2] = [Tokenizer::O200kBase, Tokenizer::Cl100kBase];

    pub fn name(self) -> &'static str {
        match self {
            Tokenizer::O200kBase => "o200k_base",
            Tokenizer::Cl100kBase => "cl100k_base",
        }
    }

    pub fn parse(text: &str) -> Option<Tokenizer> {
        Tokenizer::ALL.into_iter().find(|t| t.name() == text.trim())
    }

    fn slot(self) -> usize {
        match self {
            Tokenizer::O200kBase => 0,
            Tokenizer::Cl100kBase => 1,
        }
    }

    fn encoding(self) -> &'static bpe_openai::Tokenizer {
        match self {
            Tokenizer::O200kBase => bpe_openai::o200k_base(),
            Tokenizer::Cl100kBase => bpe_openai::cl100k_base(),
        }
    }

    fn splitter(self) -> &'static Splitter {
        match self {
            Tokenizer::O200kBase => &O200K_SPLITTER,
            Tokenizer::Cl100kBase => &CL100K_SPLITTER,
        }
    }

    /// Tokens of `text`, special tokens read as plain text.
    pub fn count(self, text: &str) -> usize {
        if text.is_empty() {
            return 0;
        }
        let (splitter, bpe) = (self.splitter(), &self.encoding().bpe);
        STATE.with(|state| {
            let mut state = state.borrow_mut();
            let state = state[self.slot()]
                .get_or_insert_with(|| ThreadState { cache: splitter.regex.create_cache(), memo: HashMap::default() });
            let ThreadState { cache, memo } = state;
            let mut total = 0;
            splitter.for_each_piece(cache, text, |piece| {
                let bytes = piece.as_bytes();
                if bytes.len() > MEMO_PIECE_BYTES {
                    total += bpe.count(bytes);
                    return;
                }
                if let Some(&known) = memo.get(bytes) {
                    total += known as usize;
                    return;
                }
                let counted = bpe.count(bytes);
                if memo.len() >= MEMO_ENTRIES {
                    memo.clear();
                }
                memo.insert(bytes.into(), counted as u32);
                total += counted;
            });
            total
        })
    }

    /// Loads the encoding on another thread (some hundredths of a second): the
    /// first count then finds it ready.
    pub fn prepare_in_background(self) {
        std::thread::spawn(move || {
            self.encoding();
            self.splitter();
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Text with what the patterns treat apart: contractions, numbers,
    /// punctuation runs, CRLF, trailing spaces, marks, other scripts.
    const MIXED: &str = "Don't re-use it: we'll see 12345 items/sec, ok?\r\n\n  \tindented   \nCamelCaseWord HTTPServer's état naïve 日本語のテキスト ﷺ e\u{301}\n/path/to/file.md\n\n\n   ";

    #[test]
    fn counts_equal_bpe_openai_on_varied_text() {
        for tokenizer in Tokenizer::ALL {
            let mut text = String::new();
            for round in 0..40 {
                text.push_str(&MIXED[..MIXED.char_indices().nth(round * 3 % 60).map_or(0, |(i, _)| i)]);
                text.push_str(MIXED);
                assert_eq!(tokenizer.count(&text), tokenizer.encoding().count(text.as_str()), "{tokenizer:?} {text:?}");
            }
            for cut in MIXED.char_indices().map(|(i, _)| i) {
                let part = &MIXED[cut..];
                assert_eq!(tokenizer.count(part), tokenizer.encoding().count(part), "{tokenizer:?} {part:?}");
            }
        }
    }

    fn pieces(tokenizer: Tokenizer, text: &str, by_regex: bool) -> Vec<String> {
        let splitter = tokenizer.splitter();
        let mut cache = splitter.regex.create_cache();
        let mut out = Vec::new();
        let mut push = |p: &str| out.push(p.to_owned());
        if by_regex {
            splitter.for_each_piece_by_regex(&mut cache, text, &mut push);
        } else {
            splitter.for_each_piece(&mut cache, text, &mut push);
        }
        out
    }

    /// The split by hand of ASCII pieces equals the patterns' on random
    /// text of the characters the patterns treat apart, ASCII and not.
    #[test]
    fn ascii_pieces_split_as_the_patterns_do() {
        const ALPHABET: [&str; 34] = [
            "a", "z", "A", "Z", "s", "t", "re", "ll", "0", "9", "'", "\"", "/", ".", "-", "_", "$", "(", " ", " ",
            "\t", "\n", "\r", "\u{b}", "\u{c}", "é", "É", "\u{301}", "\u{a0}", "日", "٣", "ſ", "\u{2028}", "🙂",
        ];
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for round in 0..6000 {
            let len = 1 + (next() % 24) as usize;
            // Half the texts ASCII only, where the split by hand does all.
            let letters = if round % 2 == 0 { 25 } else { ALPHABET.len() };
            let text: String = (0..len).map(|_| ALPHABET[(next() % letters as u64) as usize]).collect();
            for tokenizer in Tokenizer::ALL {
                assert_eq!(pieces(tokenizer, &text, false), pieces(tokenizer, &text, true), "{tokenizer:?} {text:?}");
            }
        }
        for tokenizer in Tokenizer::ALL {
            assert_eq!(pieces(tokenizer, MIXED, false), pieces(tokenizer, MIXED, true), "{tokenizer:?}");
        }
    }

    #[test]
    fn remembered_pieces_count_the_same_the_second_time() {
        let text = "the same words, the same words, the same words\n".repeat(50);
        let first = Tokenizer::O200kBase.count(&text);
        assert_eq!(Tokenizer::O200kBase.count(&text), first);
        assert_eq!(first, Tokenizer::O200kBase.encoding().count(text.as_str()));
    }

    #[test]
    fn names_parse_and_plain_counts_hold() {
        assert_eq!(Tokenizer::O200kBase.count(""), 0);
        assert_eq!(Tokenizer::Cl100kBase.count("hello world"), 2);
        assert_eq!(Tokenizer::O200kBase.count("hello world"), 2);
        assert_eq!(Tokenizer::parse("cl100k_base"), Some(Tokenizer::Cl100kBase));
        assert_eq!(Tokenizer::parse("gpt2"), None);
    }
}
