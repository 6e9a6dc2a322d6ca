//! Search over the catalog, ranked the way fuzzy finders rank.
//!
//! A skill matches when the query's characters appear in order in its
//! name, its category or its tags, or when every word of the query appears
//! in its description (smart case: an uppercase letter makes the query
//! case-sensitive). Results are ranked by where they match: the exact
//! name, then a name prefix, then the query inside the name, then a
//! scattered match in the name, then category or tags, then the
//! description; within a rank, tighter matches and shorter names first.
//! Extending a query re-checks only the skills the shorter query kept.

use crate::engine::catalog::{Catalog, CatalogSkill};
use fuzzy_matcher::skim::SkimMatcherV2;
use fuzzy_matcher::FuzzyMatcher;
use memchr::memmem::Finder;

/// The searchable fields of skills, in one string end to end (in catalog
/// order), so that a search reads memory in order instead of jumping
/// between small strings.
#[derive(Default)]
struct Texts {
    text: String,
    /// Where each field of each skill ends in `text`.
    ends: Vec<[usize; 4]>,
}

/// The bytes a skill's fields take in [`Texts`] (lower-casing rarely
/// changes a length).
fn field_bytes(s: &CatalogSkill) -> usize {
    let joined = |parts: &[String]| parts.iter().map(|p| p.len() + 1).sum::<usize>();
    s.name.len() + joined(&s.categories) + joined(&s.tags) + s.description.len()
}

impl Texts {
    /// Sized once: growing by doubling would copy and fault in the text
    /// again and again, and keep up to half of it as slack.
    fn with_capacity(bytes: usize, skills: usize) -> Texts {
        Texts { text: String::with_capacity(bytes), ends: Vec::with_capacity(skills) }
    }

    /// Every skill's fields as written.
    fn as_written(catalog: &Catalog) -> Texts {
        let bytes = catalog.skills.iter().map(field_bytes).sum();
        let mut texts = Texts::with_capacity(bytes, catalog.skills.len());
        for s in &catalog.skills {
            texts.push(s, false);
        }
        texts
    }

    /// Appends a skill's fields, lower-cased when `lower`, written straight
    /// into the text (no string per field).
    fn push(&mut self, s: &CatalogSkill, lower: bool) {
        let mut ends = [0; 4];
        let mut field = |i: usize, write: &dyn Fn(&mut String)| {
            let start = self.text.len();
            write(&mut self.text);
            if lower {
                let added = &mut self.text[start..];
                if added.is_ascii() {
                    added.make_ascii_lowercase();
                } else {
                    let lowered = added.to_lowercase();
                    self.text.truncate(start);
                    self.text.push_str(&lowered);
                }
            }
            ends[i] = self.text.len();
        };
        field(NAME, &|t| t.push_str(&s.name));
        field(CATEGORY, &|t| join_into(t, &s.categories, "/"));
        field(TAGS, &|t| join_into(t, &s.tags, " "));
        field(DESCRIPTION, &|t| t.push_str(&s.description));
        self.ends.push(ends);
    }

    fn of(&self, skill: usize) -> SkillText<'_> {
        let start = skill.checked_sub(1).map_or(0, |prev| self.ends[prev][3]);
        SkillText { text: &self.text, start, ends: &self.ends[skill] }
    }
}

/// One skill's four fields in [`Texts`].
#[derive(Clone, Copy)]
struct SkillText<'a> {
    text: &'a str,
    start: usize,
    ends: &'a [usize; 4],
}

impl<'a> SkillText<'a> {
    fn get(self, field: usize) -> &'a str {
        let start = if field == 0 { self.start } else { self.ends[field - 1] };
        &self.text[start..self.ends[field]]
    }
}

/// From this many skills on, scoring is spread over the cores.
const PARALLEL_FROM: usize = 4096;

const NAME: usize = 0;
const CATEGORY: usize = 1;
const TAGS: usize = 2;
const DESCRIPTION: usize = 3;

pub struct Search {
    /// Each skill's fields lower-cased.
    lower: Texts,
    /// As written, for case-sensitive queries: made on the first one.
    as_written: Option<Texts>,
    /// Each skill's place in (name length, name) order, for ties: sorting
    /// results compares integers, not strings.
    tie_order: Vec<u32>,
    /// The skill at each place of that order (its inverse).
    by_tie: Vec<u32>,
    /// The last query and the skills it kept with their ranks, for
    /// incremental narrowing.
    last: Option<(String, Vec<(u32, u8)>)>,
}

/// How many skills one [`Index::advance`] step takes at most by default:
/// a few milliseconds of work, so that a key pressed meanwhile waits no
/// longer than that.
pub const INDEX_STEP: usize = 8192;

/// A catalog's [`Search`], made a step at a time while the browser is
/// idle so that the first typed character finds it ready.
pub enum Index {
    Building(Box<Builder>),
    Ready(Search),
}

impl Index {
    /// An index not started yet.
    pub fn new() -> Index {
        Index::Building(Box::default())
    }

    pub fn is_ready(&self) -> bool {
        matches!(self, Index::Ready(_))
    }

    /// Takes up to `skills` more skills into the index (the catalog must
    /// be the one it was started on).
    pub fn advance(&mut self, catalog: &Catalog, skills: usize) {
        if let Index::Building(builder) = self {
            if let Some(search) = builder.step(catalog, skills) {
                *self = Index::Ready(search);
            }
        }
    }

    /// The search, finishing the index first when needed.
    pub fn ready(&mut self, catalog: &Catalog) -> &mut Search {
        if let Index::Building(builder) = self {
            *self = Index::Ready(builder.complete(catalog));
        }
        match self {
            Index::Ready(search) => search,
            Index::Building(_) => unreachable!("completed above"),
        }
    }
}

/// A [`Search`] under way: the size of its text is added up, then the
/// text written, a step of skills at a time; the tie order is sorted in a
/// last step.
#[derive(Default)]
pub struct Builder {
    /// The first skill the next step takes.
    next: usize,
    /// Whether the sizes are added up and the text is being written.
    writing: bool,
    /// The bytes of the text and of the names.
    bytes: (usize, usize),
    lower: Texts,
    /// Each skill's (name length, first 8 bytes of the name, index), packed
    /// so that the tie order sorts integers and compares names only where
    /// these are equal.
    name_keys: Vec<u128>,
    /// The names as written, end to end, and where each starts: those
    /// comparisons read them here, in order, not all over the catalog.
    names: String,
    name_starts: Vec<usize>,
}

/// `(name length, first 8 bytes of the name, index)` as one integer that
/// sorts as the tuple: for names of one length, the zero padding of short
/// ones is at the same place.
fn name_key(name: &str, index: usize) -> u128 {
    let mut prefix = [0u8; 8];
    let head = &name.as_bytes()[..name.len().min(8)];
    prefix[..head.len()].copy_from_slice(head);
    (u128::from(name.len() as u32) << 96) | (u128::from(u64::from_be_bytes(prefix)) << 32) | index as u128
}

/// Bytes `from..from + 8` of a name as an integer that sorts as they do
/// (zero-padded past the end).
fn chunk_at(name: &[u8], from: usize) -> u64 {
    let mut chunk = [0u8; 8];
    let rest = name.get(from..).unwrap_or_default();
    let rest = &rest[..rest.len().min(8)];
    chunk[..rest.len()].copy_from_slice(rest);
    u64::from_be_bytes(chunk)
}

/// Sorts name keys alike in length and in the name bytes before `from` by
/// the rest of their names, 8 bytes at a time (integers, not slices, are
/// compared); identical names keep their index order.
fn sort_by_name_from<'a>(
    run: &mut [u128],
    from: usize,
    name: &impl Fn(u128) -> &'a [u8],
    scratch: &mut Vec<(u64, u128)>,
) {
    let len = (run[0] >> 96) as usize;
    if from >= len {
        run.sort_unstable();
        return;
    }
    scratch.clear();
    scratch.extend(run.iter().map(|&k| (chunk_at(name(k), from), k)));
    scratch.sort_unstable();
    for (slot, &(_, k)) in run.iter_mut().zip(scratch.iter()) {
        *slot = k;
    }
    let chunks: Vec<u64> = scratch.iter().map(|&(c, _)| c).collect();
    let mut at = 0;
    for same in chunks.chunk_by(|a, b| a == b) {
        if same.len() > 1 {
            sort_by_name_from(&mut run[at..at + same.len()], from + 8, name, scratch);
        }
        at += same.len();
    }
}

impl Default for Index {
    fn default() -> Index {
        Index::new()
    }
}

impl Builder {
    /// One step of at most `skills` skills; the search once it is complete.
    fn step(&mut self, catalog: &Catalog, skills: usize) -> Option<Search> {
        let count = catalog.skills.len();
        let end = self.next.saturating_add(skills).min(count);
        let slice = catalog.skills.get(self.next..end).unwrap_or_default();
        self.next = end;
        if !self.writing {
            self.bytes.0 += slice.iter().map(field_bytes).sum::<usize>();
            self.bytes.1 += slice.iter().map(|s| s.name.len()).sum::<usize>();
            if end == count {
                self.lower = Texts::with_capacity(self.bytes.0, count);
                self.names = String::with_capacity(self.bytes.1);
                self.name_keys = Vec::with_capacity(count);
                self.name_starts = Vec::with_capacity(count + 1);
                (self.writing, self.next) = (true, 0);
            }
            return None;
        }
        if self.name_keys.len() == count {
            // The tie order is a step of its own.
            return Some(self.finish());
        }
        let first = end - slice.len();
        for (i, s) in slice.iter().enumerate() {
            self.lower.push(s, true);
            self.name_keys.push(name_key(&s.name, first + i));
            self.name_starts.push(self.names.len());
            self.names.push_str(&s.name);
        }
        None
    }

    /// The rest of the steps at once.
    fn complete(&mut self, catalog: &Catalog) -> Search {
        loop {
            if let Some(search) = self.step(catalog, usize::MAX) {
                return search;
            }
        }
    }

    fn finish(&mut self) -> Search {
        let mut keys = std::mem::take(&mut self.name_keys);
        keys.sort_unstable();
        // Names alike in length and first bytes are ordered by the rest.
        let (names, mut starts) = (std::mem::take(&mut self.names), std::mem::take(&mut self.name_starts));
        starts.push(names.len());
        let index = |k: u128| (k as u32) as usize;
        let name = |k: u128| &names.as_bytes()[starts[index(k)]..starts[index(k) + 1]];
        let mut scratch = Vec::new();
        for run in keys.chunk_by_mut(|a, b| a >> 32 == b >> 32).filter(|run| run.len() > 1) {
            sort_by_name_from(run, 8, &name, &mut scratch);
        }
        let mut tie_order = vec![0u32; keys.len()];
        for (place, &k) in keys.iter().enumerate() {
            tie_order[index(k)] = place as u32;
        }
        let by_tie = keys.iter().map(|&k| k as u32).collect();
        let lower = std::mem::take(&mut self.lower);
        Search { lower, as_written: None, tie_order, by_tie, last: None }
    }
}

/// A query prepared once for scoring every skill: its substring searches
/// are built once, not once per skill and field.
struct Query {
    /// An uppercase letter makes the query case-sensitive.
    case_sensitive: bool,
    /// The query without blanks, for names, categories and tags.
    compact: String,
    /// `compact` as a substring search.
    compact_finder: Finder<'static>,
    /// Its words, for descriptions.
    words: Vec<Finder<'static>>,
}

impl Query {
    fn new(query: &str) -> Query {
        let compact: String = query.chars().filter(|c| !c.is_whitespace()).collect();
        Query {
            case_sensitive: query.chars().any(char::is_uppercase),
            compact_finder: Finder::new(compact.as_bytes()).into_owned(),
            compact,
            words: query.split_whitespace().map(|w| Finder::new(w.as_bytes()).into_owned()).collect(),
        }
    }
}

/// How well a skill matches: higher is better.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Score {
    rank: u8,
    /// Within a rank: an earlier, tighter match is better (negated costs).
    quality: i64,
}

impl Search {
    /// The search of a catalog, made at once.
    pub fn new(catalog: &Catalog) -> Search {
        Builder::default().complete(catalog)
    }

    /// The skill's score for `q`, trying only the ranks up to `best`: a
    /// query that extends another cannot rank a skill higher than the
    /// shorter one did, except that a name prefix may become the name.
    fn score(texts: &Texts, skill: usize, q: &Query, best: u8) -> Option<Score> {
        let h = texts.of(skill);
        let compact = q.compact.as_str();
        let name = h.get(NAME);
        let rank = |rank, quality| Some(Score { rank, quality });
        if best >= 6 && name == compact {
            return rank(6, 0);
        }
        if best >= 5 && name.starts_with(compact) {
            return rank(5, -(name.len() as i64));
        }
        if best >= 4 {
            if let Some(at) = q.compact_finder.find(name.as_bytes()) {
                return rank(4, -(at as i64));
            }
        }
        if best >= 3 {
            if let Some(span) = subsequence_span(name, compact) {
                return rank(3, -(span as i64));
            }
        }
        if best >= 2 {
            let in_category = [CATEGORY, TAGS].iter().filter_map(|&f| subsequence_span(h.get(f), compact)).min();
            if let Some(span) = in_category {
                return rank(2, -(span as i64));
            }
        }
        // Every word somewhere in the description; the earliest one counts.
        let description = h.get(DESCRIPTION).as_bytes();
        let mut first: Option<usize> = None;
        for word in &q.words {
            let at = word.find(description)?;
            first = Some(first.map_or(at, |f| f.min(at)));
        }
        rank(1, -(first.unwrap_or(0) as i64))
    }

    /// The skills matching `query`, best first (ties: shorter name, then
    /// name, then catalog order). An empty query matches everything, in
    /// catalog order. `catalog` is the one the search was made of.
    pub fn rank(&mut self, catalog: &Catalog, query: &str) -> Vec<usize> {
        let query = query.trim();
        let count = self.lower.ends.len();
        if query.is_empty() {
            self.last = None;
            return (0..count).collect();
        }
        // Each candidate with the best rank it can still reach.
        let candidates: Vec<(u32, u8)> = match &self.last {
            // Case sensitivity must not change between the two queries.
            Some((prev, kept))
                if query.starts_with(prev.as_str())
                    && prev.chars().any(char::is_uppercase) == query.chars().any(char::is_uppercase) =>
            {
                kept.iter().map(|&(i, rank)| (i, if rank >= 5 { 6 } else { rank })).collect()
            }
            _ => (0..count as u32).map(|i| (i, 6)).collect(),
        };
        let q = Query::new(query);
        let texts = match q.case_sensitive {
            true => &*self.as_written.get_or_insert_with(|| Texts::as_written(catalog)),
            false => &self.lower,
        };
        let ties = &self.tie_order;
        // Each match as one integer (rank, then cost, then tie place), so
        // tens of thousands of matches sort several times faster than tuples.
        let mut keys = crate::engine::parallel_filter_map_min(&candidates, PARALLEL_FROM, |&(i, best)| {
            Search::score(texts, i as usize, &q, best).map(|score| sort_key(score, ties[i as usize]))
        });
        // `last` keeps catalog order (candidates were in it).
        let kept = keys.iter().map(|&k| (self.skill_of(k) as u32, key_rank(k))).collect();
        self.last = Some((query.to_owned(), kept));
        keys.sort_unstable();
        keys.into_iter().map(|k| self.skill_of(k)).collect()
    }

    /// The skill a sort key stands for.
    fn skill_of(&self, key: u64) -> usize {
        self.by_tie[(key & u64::from(u32::MAX)) as usize] as usize
    }
}

/// Bits of a sort key: 3 for the rank (best first), 29 for the cost (as
/// negated in `Score::quality`, capped: no text is that long), 32 for the
/// tie place.
const COST_BITS: u32 = 29;

fn sort_key(score: Score, tie: u32) -> u64 {
    let rank_first = u64::from(6 - score.rank.min(6));
    let cost = score.quality.unsigned_abs().min((1 << COST_BITS) - 1);
    (rank_first << (32 + COST_BITS)) | (cost << 32) | u64::from(tie)
}

fn key_rank(key: u64) -> u8 {
    6 - (key >> (32 + COST_BITS)) as u8
}

/// `parts.join(sep)`, written into `text`.
fn join_into(text: &mut String, parts: &[String], sep: &str) {
    for (i, part) in parts.iter().enumerate() {
        if i > 0 {
            text.push_str(sep);
        }
        text.push_str(part);
    }
}

/// The width of the greedy in-order match of `needle` in `haystack` (from
/// its first matched character to its last), or `None` when it does not
/// match.
fn subsequence_span(haystack: &str, needle: &str) -> Option<usize> {
    if needle.is_ascii() {
        // An ASCII byte matches only an ASCII character: the greedy match
        // can jump from byte to byte.
        let bytes = haystack.as_bytes();
        let (mut next, mut start) = (0, None);
        for &b in needle.as_bytes() {
            let at = next + bytes[next..].iter().position(|&c| c == b)?;
            start.get_or_insert(at);
            next = at + 1;
        }
        return Some(start.map_or(0, |s| haystack[s..next].chars().count()));
    }
    let mut wanted = needle.chars().peekable();
    let mut start = None;
    for (i, c) in haystack.chars().enumerate() {
        match wanted.peek() {
            Some(&w) if w == c => {
                start.get_or_insert(i);
                wanted.next();
                if wanted.peek().is_none() {
                    return Some(i + 1 - start.unwrap_or(i));
                }
            }
            Some(_) => {}
            None => break,
        }
    }
    wanted.peek().is_none().then_some(0)
}

/// Character positions of `query` in `text` (smart case), for highlighting
/// the rows on screen.
pub fn positions(text: &str, query: &str) -> Vec<usize> {
    let query = query.trim();
    if query.is_empty() {
        return Vec::new();
    }
    SkimMatcherV2::default().smart_case().fuzzy_indices(text, query).map(|(_, idx)| idx).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::catalog::CatalogSkill;

    fn catalog(names: &[(&str, &str, &str)]) -> Catalog {
        let mut c = Catalog::default();
        for (name, category, desc) in names {
            let mut skill = CatalogSkill::named(name, vec![(*category).into()], desc);
            skill.tags = vec!["ops".into()];
            c.skills.push(skill);
        }
        c
    }

    fn names(c: &Catalog, ranked: &[usize]) -> Vec<String> {
        ranked.iter().map(|&i| c.skills[i].name.clone()).collect()
    }

    #[test]
    fn fields_are_written_as_joined_and_lower_cased() {
        let mut c = catalog(&[("Deploy-Ops", "Infra", "Ships İt ΣΟΦΟΣ"), ("ünï", "dev", "plain")]);
        c.skills[0].categories.push("K8s".into());
        c.skills[1].tags = vec![];
        let fields = Texts::as_written(&c);
        let Search { lower, .. } = Search::new(&c);
        for (i, s) in c.skills.iter().enumerate() {
            let expected = [s.name.clone(), s.category_path(), s.tags.join(" "), s.description.clone()];
            for (f, text) in expected.iter().enumerate() {
                assert_eq!(fields.of(i).get(f), text);
                assert_eq!(lower.of(i).get(f), text.to_lowercase());
            }
        }
    }

    #[test]
    fn subsequence_agrees_with_skim() {
        let skim = SkimMatcherV2::default().smart_case();
        let hays = ["deploy-service", "Release Notes", "a-b_c", "日本語テキスト", "x"];
        let needles = ["dep", "dsv", "rn", "RN", "Rn", "abc", "b_", "本テ", "xx", "eploy", "zz"];
        for h in hays {
            for n in needles {
                let ours = if n.chars().any(char::is_uppercase) {
                    subsequence_span(h, n).is_some()
                } else {
                    subsequence_span(&h.to_lowercase(), n).is_some()
                };
                assert_eq!(ours, skim.fuzzy_match(h, n).is_some(), "{h:?} / {n:?}");
            }
        }
    }

    #[test]
    fn ascii_needles_measure_spans_in_characters() {
        assert_eq!(subsequence_span("ünï-dé-ploy", "dpl"), Some(5));
        assert_eq!(subsequence_span("aXbXc", "abc"), Some(5));
        assert_eq!(subsequence_span("abc", ""), Some(0));
        assert_eq!(subsequence_span("acb", "abc"), None);
        assert_eq!(subsequence_span("çéd", "é"), Some(1), "a non-ASCII needle takes the character path");
    }

    #[test]
    fn fields_and_narrowing() {
        let c = catalog(&[
            ("deploy", "devops", "ship to prod"),
            ("review", "code", "read it"),
            ("lint", "quality", "style"),
        ]);
        let mut s = Search::new(&c);
        assert_eq!(s.rank(&c, "dep"), [0]);
        assert_eq!(s.rank(&c, "depl"), [0]);
        assert_eq!(s.rank(&c, "code"), [1], "category");
        assert_eq!(s.rank(&c, "ops"), [2, 0, 1], "tags: ties go to the shorter name");
        assert_eq!(s.rank(&c, "style"), [2], "description");
        assert_eq!(s.rank(&c, ""), [0, 1, 2]);
        assert_eq!(s.rank(&c, "zzz"), Vec::<usize>::new());
        assert_eq!(positions("deploy", "dpy"), [0, 2, 5]);
    }

    #[test]
    fn ranking_puts_names_first() {
        let c = catalog(&[
            ("pytorch-fsdp-guide", "mlops", "more on fsdp"),
            ("notes", "writing", "how to deploy notes"),
            ("pytorch-fsdp", "mlops", "fully sharded data parallel"),
            ("redeploy", "ops", "again"),
            ("deploy-service", "devops", "ship"),
            ("d-e-p-l-o-y", "x", "scattered"),
            ("deploy", "devops", "ship it"),
            ("other", "deploy", "category only"),
        ]);
        let mut s = Search::new(&c);
        let ranked = s.rank(&c, "pytorch-fsdp");
        assert_eq!(names(&c, &ranked)[..2], ["pytorch-fsdp", "pytorch-fsdp-guide"]);
        let ranked = names(&c, &s.rank(&c, "deploy"));
        assert_eq!(ranked, ["deploy", "deploy-service", "redeploy", "d-e-p-l-o-y", "other", "notes"]);
        assert_eq!(names(&c, &s.rank(&c, "DEPLOY")), Vec::<String>::new(), "smart case");
    }

    #[test]
    fn narrowing_ranks_as_a_fresh_search_does() {
        let c = catalog(&[
            ("deploy", "devops", "ship to prod"),
            ("deployer", "ops", "deploy helper"),
            ("redeploy", "ops", "again"),
            ("d-e-p-l-o-y", "misc", "scattered"),
            ("notes", "deploy-docs", "how to deploy"),
            ("Deploy-Big", "ops", "Deploy with capitals"),
            ("other", "dev", "nothing here"),
            ("dep", "devops", "the prefix itself"),
        ]);
        for typed in ["deploy", "Deploy", "dev ops", "de plo", "notes x"] {
            let mut narrowing = Search::new(&c);
            for end in 1..=typed.len() {
                let query = &typed[..end];
                let fresh = Search::new(&c).rank(&c, query);
                assert_eq!(narrowing.rank(&c, query), fresh, "{query:?}");
            }
        }
    }

    /// The tie order is (name length, name, catalog order), also where
    /// names share their first 8 bytes, are shorter than that, or are not ASCII.
    #[test]
    fn tie_order_sorts_by_length_then_name() {
        let names =
            ["deploy-service-b", "deploy-service-a", "ab", "a", "b\u{0}", "deploy-service-a", "Zeta", "ünï", "zz"];
        let c = catalog(&names.iter().map(|n| (*n, "x", "y")).collect::<Vec<_>>());
        let s = Search::new(&c);
        let mut expected: Vec<usize> = (0..names.len()).collect();
        expected.sort_by(|&a, &b| (names[a].len(), names[a], a).cmp(&(names[b].len(), names[b], b)));
        let got: Vec<usize> = s.by_tie.iter().map(|&i| i as usize).collect();
        assert_eq!(got, expected);
        for (place, &i) in expected.iter().enumerate() {
            assert_eq!(s.tie_order[i] as usize, place);
        }
    }

    /// An index made a few skills per step ranks as one made at once,
    /// case-sensitive queries included.
    #[test]
    fn an_index_made_in_steps_ranks_as_one_made_at_once() {
        let c = catalog(&[
            ("deploy", "devops", "ship to prod"),
            ("Deploy-Big", "ops", "Deploy with capitals"),
            ("notes", "deploy-docs", "how to deploy"),
            ("ünï", "dev", "İt plain"),
            ("lint", "quality", "style"),
        ]);
        let mut index = Index::new();
        let mut steps = 0;
        while !index.is_ready() {
            index.advance(&c, 2);
            steps += 1;
        }
        assert_eq!(steps, 7, "3 steps to size the text, 3 to write it, 1 to sort the tie order");
        let stepped = index.ready(&c);
        for query in ["dep", "Dep", "DEPLOY", "ops", "ünï", "it", "İt", "zz"] {
            assert_eq!(stepped.rank(&c, query), Search::new(&c).rank(&c, query), "{query:?}");
        }
        assert_eq!(stepped.rank(&c, "Deploy"), [1], "case-sensitive: as written");
        let mut empty = Index::new();
        assert!(empty.ready(&Catalog::default()).rank(&Catalog::default(), "x").is_empty());
    }

    #[test]
    fn scattered_letters_in_a_description_do_not_match() {
        let c = catalog(&[("alpha", "a", "d is e and p l o y")]);
        assert!(Search::new(&c).rank(&c, "deploy").is_empty());
    }
}
