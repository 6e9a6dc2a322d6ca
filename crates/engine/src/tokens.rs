//! Token counts with OpenAI's encodings (the dictionaries of `bpe-openai`,
//! built in as tables, no network): `o200k_base` by default, `cl100k_base`
//! on request.
//!
//! The text is split into pieces by the encoding's pre-tokenizer, and each
//! piece is encoded on its own, as tiktoken does ([`ranks`]). The pre-tokenizer's
//! patterns are those `bpe-openai` 0.3 compiles (MIT, github.com/github/rust-gems),
//! compiled here once more so that each thread searches with its own cache:
//! the crate's shared regex hands its cache out through a pool, which two
//! busy threads contend for. Pieces seen before on a thread are not encoded
//! again (the words of a home's skills repeat).

mod ascii;
mod ranks;

use regex_automata::meta::{Cache, Regex};
use regex_automata::{Anchored, Input};
use std::cell::RefCell;
use std::collections::HashMap;
use std::ops::Range;
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

/// Whether `text` can be cut at `at` with its tokens adding up (the
/// tokens of the two parts are the text's): after a line feed, before a
/// character that is neither whitespace nor `/`. No piece of either encoding
/// holds both: their patterns hold a line feed only in runs of whitespace
/// and in the run of `[\r\n/]` that may end a run of punctuation. Each
/// piece is searched for from its start on, so what follows the cut splits
/// as it would alone; and what precedes it too, as no piece before it
/// ended with a look at what follows (a look-ahead piece of whitespace
/// would need whitespace after the line feed; `\s+$` comes after
/// `\s*[\r\n]+` in the patterns' order). `at` is within `1..text.len()`.
fn is_cut(text: &str, at: usize) -> bool {
    text.as_bytes()[at - 1] == b'\n' && text[at..].chars().next().is_some_and(|c| c != '/' && !c.is_whitespace())
}

/// The first [cut](is_cut) of `text`.
fn first_cut(text: &str) -> Option<usize> {
    memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1).find(|&at| at < text.len() && is_cut(text, at))
}

/// The last [cut](is_cut) of `text`.
fn last_cut(text: &str) -> Option<usize> {
    memchr::memrchr_iter(b'\n', text.as_bytes()).map(|i| i + 1).find(|&at| at < text.len() && is_cut(text, at))
}

/// Pieces no longer than this are remembered with their counts.
const MEMO_PIECE_BYTES: usize = 48;
/// Remembered pieces per thread and encoding, before the memo starts over.
const MEMO_ENTRIES: usize = 200_000;

/// One thread's search cache and remembered pieces, per encoding.
struct ThreadState {
    cache: Cache,
    /// Pieces of up to [`SHORT_PIECE_BYTES`] (most of a text's), keyed by
    /// their bytes packed in one number: no allocation, one compare.
    short: ShortMemo,
    long: LongMemo,
}

/// The longest piece [`short_key`] packs: the key's last byte holds the length.
const SHORT_PIECE_BYTES: usize = 15;

fn short_key(bytes: &[u8]) -> Option<u128> {
    if bytes.len() > SHORT_PIECE_BYTES {
        return None;
    }
    let mut packed = [0u8; 16];
    packed[..bytes.len()].copy_from_slice(bytes);
    packed[15] = bytes.len() as u8;
    Some(u128::from_le_bytes(packed))
}

impl ThreadState {
    fn new(splitter: &Splitter) -> ThreadState {
        ThreadState { cache: splitter.regex.create_cache(), short: HashMap::default(), long: HashMap::default() }
    }
}

/// The tokens `count` gives `piece`, remembered when the piece is short
/// enough (a full memo starts over).
fn remembered_count(short: &mut ShortMemo, long: &mut LongMemo, piece: &[u8], count: impl Fn(&[u8]) -> usize) -> usize {
    if piece.len() > MEMO_PIECE_BYTES {
        return count(piece);
    }
    if let Some(key) = short_key(piece) {
        if let Some(&known) = short.get(&key) {
            return known as usize;
        }
        if short.len() >= MEMO_ENTRIES {
            short.clear();
        }
        let counted = count(piece);
        short.insert(key, counted as u32);
        return counted;
    }
    if let Some(&known) = long.get(piece) {
        return known as usize;
    }
    if long.len() >= MEMO_ENTRIES {
        long.clear();
    }
    let counted = count(piece);
    long.insert(piece.into(), counted as u32);
    counted
}

type ShortMemo = HashMap<u128, u32, foldhash::fast::RandomState>;
type LongMemo = HashMap<Box<[u8]>, u32, foldhash::fast::RandomState>;

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

    fn ranks(self) -> &'static ranks::Ranks {
        match self {
            Tokenizer::O200kBase => &ranks::O200K_BASE,
            Tokenizer::Cl100kBase => &ranks::CL100K_BASE,
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
        let (splitter, ranks) = (self.splitter(), self.ranks());
        STATE.with(|state| {
            let mut state = state.borrow_mut();
            let ThreadState { cache, short, long } =
                state[self.slot()].get_or_insert_with(|| ThreadState::new(splitter));
            let mut total = 0;
            splitter.for_each_piece(cache, text, |piece| {
                total += remembered_count(short, long, piece.as_bytes(), |p| ranks.count(p));
            });
            total
        })
    }

    /// The tokens of `a` and of `b`, where `a[in_a]` and `b[in_b]` are the
    /// same text (a skill's content and the message that quotes it): that
    /// text between its first and last [cut](is_cut) is counted once.
    pub fn count_two(self, a: &str, in_a: Range<usize>, b: &str, in_b: Range<usize>) -> (usize, usize) {
        let shared = &a[in_a.clone()];
        let (first, last) = match (first_cut(shared), last_cut(shared)) {
            (Some(first), Some(last)) if first < last && shared == &b[in_b.clone()] => (first, last),
            _ => return (self.count(a), self.count(b)),
        };
        let middle = self.count(&shared[first..last]);
        let around = |text: &str, at: &Range<usize>| {
            self.count(&text[..at.start + first]) + middle + self.count(&text[at.start + last..])
        };
        (around(a, &in_a), around(b, &in_b))
    }

    /// Compiles the pre-tokenizer on another thread (some thousandths of a
    /// second): the first count then finds it ready.
    pub fn prepare_in_background(self) {
        std::thread::spawn(move || {
            self.splitter();
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    impl Tokenizer {
        /// The same encoding as `bpe-openai` counts it, whole texts at once.
        fn oracle(self) -> &'static bpe_openai::Tokenizer {
            match self {
                Tokenizer::O200kBase => bpe_openai::o200k_base(),
                Tokenizer::Cl100kBase => bpe_openai::cl100k_base(),
            }
        }
    }

    /// Text with what the patterns treat apart: contractions, numbers,
    /// punctuation runs, CRLF, trailing spaces, marks, other scripts.
    const MIXED: &str = "Don't re-use it: we'll see 12345 items/sec, ok?\r\n\n  \tindented   \nCamelCaseWord HTTPServer's état naïve 日本語のテキスト ﷺ e\u{301}\n/path/to/file.md\n\n\n   ";

    /// Every text file of the corpus (real skills, scripts, references in
    /// many languages) counts as `bpe-openai` counts it.
    #[test]
    fn counts_equal_bpe_openai_on_the_corpus() {
        let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/corpus");
        let mut stack = vec![corpus];
        let mut files = 0;
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).expect("tests/corpus").flatten() {
                let path = entry.path();
                if path.is_dir() {
                    stack.push(path);
                    continue;
                }
                let Ok(text) = std::fs::read_to_string(&path) else { continue };
                files += 1;
                for tokenizer in Tokenizer::ALL {
                    assert_eq!(
                        tokenizer.count(&text),
                        tokenizer.oracle().count(text.as_str()),
                        "{tokenizer:?} {path:?}"
                    );
                }
            }
        }
        assert!(files > 1000, "{files} files");
    }

    #[test]
    fn counts_equal_bpe_openai_on_varied_text() {
        for tokenizer in Tokenizer::ALL {
            let mut text = String::new();
            for round in 0..40 {
                text.push_str(&MIXED[..MIXED.char_indices().nth(round * 3 % 60).map_or(0, |(i, _)| i)]);
                text.push_str(MIXED);
                assert_eq!(tokenizer.count(&text), tokenizer.oracle().count(text.as_str()), "{tokenizer:?} {text:?}");
            }
            for cut in MIXED.char_indices().map(|(i, _)| i) {
                let part = &MIXED[cut..];
                assert_eq!(tokenizer.count(part), tokenizer.oracle().count(part), "{tokenizer:?} {part:?}");
            }
        }
    }

    /// Packed keys tell apart pieces that differ only by trailing zero
    /// bytes, and the memo's counts stay the encoding's.
    #[test]
    fn short_pieces_are_remembered_apart() {
        let keys: Vec<_> = ["", "a", "a\0", "a\0\0", "\0a"].iter().map(|p| short_key(p.as_bytes())).collect();
        let distinct: HashSet<_> = keys.iter().collect();
        assert_eq!(distinct.len(), keys.len());
        assert_eq!(short_key(&[b'x'; SHORT_PIECE_BYTES + 1]), None);
        for tokenizer in Tokenizer::ALL {
            for text in ["a\0 a\0\0 a a\0", "fifteen_bytes__ sixteen_bytes___ x", "a a a a"] {
                assert_eq!(tokenizer.count(text), tokenizer.oracle().count(text), "{tokenizer:?} {text:?}");
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

    /// Random text of the characters around line feeds that the patterns
    /// treat apart.
    fn random_text(next: &mut impl FnMut() -> u64, len: usize) -> String {
        const ALPHABET: [&str; 24] = [
            "\n", "\n", "\r", " ", "\t", "\u{a0}", "\u{2028}", "/", "-", ".", "'", "s", "a", "Z", "é", "0", "9", "日",
            "\u{301}", "#", ":", "\n\n", " \n", "/\n",
        ];
        (0..len).map(|_| ALPHABET[(next() % ALPHABET.len() as u64) as usize]).collect()
    }

    fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        }
    }

    /// The claim [`count_two`] rests on: at every cut the counts add up.
    #[test]
    fn counts_add_up_at_every_cut() {
        let mut next = xorshift(0x2545_f491_4f6c_dd1d);
        let mut cuts = 0;
        for _ in 0..1500 {
            let len = 2 + (next() % 30) as usize;
            let text = random_text(&mut next, len);
            for at in (1..text.len()).filter(|&at| text.is_char_boundary(at) && is_cut(&text, at)) {
                cuts += 1;
                for tokenizer in Tokenizer::ALL {
                    let whole = tokenizer.oracle().count(text.as_str());
                    let parts = tokenizer.oracle().count(&text[..at]) + tokenizer.oracle().count(&text[at..]);
                    assert_eq!(whole, parts, "{tokenizer:?} {text:?} cut at {at}");
                }
            }
        }
        assert!(cuts > 1000, "{cuts} cuts tried");
        // Not cuts: a piece of punctuation takes the `/` after a line feed,
        // whitespace joins whitespace.
        assert!(!is_cut(".\n/x", 2) && !is_cut("a\n b", 2) && is_cut("a\nb", 2));
        assert_eq!(pieces(Tokenizer::O200kBase, ".\n/x", true), [".\n/", "x"]);
    }

    #[test]
    fn two_texts_sharing_one_count_as_each_alone() {
        let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
        for _ in 0..800 {
            let len = (next() % 40) as usize;
            let shared = random_text(&mut next, len);
            let (before_a, after_a) = (random_text(&mut next, 3), random_text(&mut next, 3));
            let (before_b, after_b) = ("[IMPORTANT: loaded below.]\n\n", random_text(&mut next, 4));
            let a = format!("{before_a}{shared}{after_a}");
            let b = format!("{before_b}{shared}{after_b}");
            let in_a = before_a.len()..before_a.len() + shared.len();
            let in_b = before_b.len()..before_b.len() + shared.len();
            for tokenizer in Tokenizer::ALL {
                let expected = (tokenizer.oracle().count(a.as_str()), tokenizer.oracle().count(b.as_str()));
                assert_eq!(tokenizer.count_two(&a, in_a.clone(), &b, in_b.clone()), expected, "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn remembered_pieces_count_the_same_the_second_time() {
        let text = "the same words, the same words, the same words\n".repeat(50);
        let first = Tokenizer::O200kBase.count(&text);
        assert_eq!(Tokenizer::O200kBase.count(&text), first);
        assert_eq!(first, Tokenizer::O200kBase.oracle().count(text.as_str()));
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
