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

use crate::engine::catalog::Catalog;
use fuzzy_matcher::skim::SkimMatcherV2;
use fuzzy_matcher::FuzzyMatcher;
use memchr::memmem::Finder;

/// The searchable fields of every skill, in one string end to end (in
/// catalog order), so that a search reads memory in order instead of
/// jumping between small strings.
struct Texts {
    text: String,
    /// Where each field of each skill ends in `text`.
    ends: Vec<[usize; 4]>,
}

/// Appends one field to `fields` (as `write` puts it) and its lower-cased
/// form to `lower`; returns where each now ends.
fn push_field(fields: &mut String, lower: &mut String, write: impl FnOnce(&mut String)) -> (usize, usize) {
    let start = fields.len();
    write(fields);
    let added = &fields[start..];
    if added.is_ascii() {
        let at = lower.len();
        lower.push_str(added);
        lower[at..].make_ascii_lowercase();
    } else {
        lower.push_str(&added.to_lowercase());
    }
    (fields.len(), lower.len())
}

impl Texts {
    /// Every skill's fields as written, and lower-cased, written straight
    /// into the two strings (no string per field).
    fn of_catalog(catalog: &Catalog) -> (Texts, Texts) {
        let count = catalog.skills.len();
        // Sized once (lower-casing rarely changes a length): growing by
        // doubling would copy and fault in the text again and again.
        let bytes: usize = catalog
            .skills
            .iter()
            .map(|s| {
                let joined = |parts: &[String]| parts.iter().map(|p| p.len() + 1).sum::<usize>();
                s.name.len() + joined(&s.categories) + joined(&s.tags) + s.description.len()
            })
            .sum();
        let mut fields = Texts { text: String::with_capacity(bytes), ends: Vec::with_capacity(count) };
        let mut lower = Texts { text: String::with_capacity(bytes), ends: Vec::with_capacity(count) };
        for s in &catalog.skills {
            let (mut as_written, mut lowered) = ([0; 4], [0; 4]);
            let mut field = |i: usize, write: &dyn Fn(&mut String)| {
                (as_written[i], lowered[i]) = push_field(&mut fields.text, &mut lower.text, write);
            };
            field(NAME, &|t| t.push_str(&s.name));
            field(CATEGORY, &|t| join_into(t, &s.categories, "/"));
            field(TAGS, &|t| join_into(t, &s.tags, " "));
            field(DESCRIPTION, &|t| t.push_str(&s.description));
            fields.ends.push(as_written);
            lower.ends.push(lowered);
        }
        (fields, lower)
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
    /// Each skill's fields as written, and lower-cased.
    fields: Texts,
    lower: Texts,
    /// Each skill's place in (name length, name) order, for ties: sorting
    /// results compares integers, not strings.
    tie_order: Vec<u32>,
    /// The skill at each place of that order (its inverse).
    by_tie: Vec<u32>,
    /// The last query and the skills it kept with their ranks, for
    /// incremental narrowing.
    last: Option<(String, Vec<(usize, u8)>)>,
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
    pub fn new(catalog: &Catalog) -> Search {
        let count = catalog.skills.len();
        let (fields, lower) = Texts::of_catalog(catalog);
        let mut by_name: Vec<usize> = (0..count).collect();
        // A total order (the index breaks ties): unstable sorting is exact.
        by_name.sort_unstable_by(|&a, &b| {
            let (na, nb) = (fields.of(a).get(NAME), fields.of(b).get(NAME));
            na.len().cmp(&nb.len()).then(na.cmp(nb)).then(a.cmp(&b))
        });
        let mut tie_order = vec![0u32; count];
        for (place, &i) in by_name.iter().enumerate() {
            tie_order[i] = place as u32;
        }
        let by_tie = by_name.iter().map(|&i| i as u32).collect();
        Search { fields, lower, tie_order, by_tie, last: None }
    }

    /// The skill's score for `q`, trying only the ranks up to `best`: a
    /// query that extends another cannot rank a skill higher than the
    /// shorter one did, except that a name prefix may become the name.
    fn score(&self, skill: usize, q: &Query, best: u8) -> Option<Score> {
        let h = if q.case_sensitive { self.fields.of(skill) } else { self.lower.of(skill) };
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
    /// catalog order.
    pub fn rank(&mut self, query: &str) -> Vec<usize> {
        let query = query.trim();
        if query.is_empty() {
            self.last = None;
            return (0..self.fields.ends.len()).collect();
        }
        // Each candidate with the best rank it can still reach.
        let candidates: Vec<(usize, u8)> = match &self.last {
            // Case sensitivity must not change between the two queries.
            Some((prev, kept))
                if query.starts_with(prev.as_str())
                    && prev.chars().any(char::is_uppercase) == query.chars().any(char::is_uppercase) =>
            {
                kept.iter().map(|&(i, rank)| (i, if rank >= 5 { 6 } else { rank })).collect()
            }
            _ => (0..self.fields.ends.len()).map(|i| (i, 6)).collect(),
        };
        let q = Query::new(query);
        let ties = &self.tie_order;
        // Each match as one integer (rank, then cost, then tie place), so
        // tens of thousands of matches sort several times faster than tuples.
        let keys = crate::engine::parallel_map_min(&candidates, PARALLEL_FROM, |&(i, best)| {
            self.score(i, &q, best).map(|score| sort_key(score, ties[i]))
        });
        let mut keys: Vec<u64> = keys.into_iter().flatten().collect();
        // `last` keeps catalog order (candidates were in it).
        let kept = keys.iter().map(|&k| (self.skill_of(k), key_rank(k))).collect();
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
            c.skills.push(CatalogSkill {
                root: 0,
                categories: vec![(*category).into()],
                skill_md: Default::default(),
                skill_dir: Default::default(),
                name: (*name).into(),
                description: (*desc).into(),
                tags: vec!["ops".into()],
                frontmatter: Default::default(),
                name_field: crate::engine::catalog::NameField::NotAString,
                frontmatter_kind: crate::engine::frontmatter::FrontmatterKind::None,
                body_line: 1,
                read_error: None,
                readiness: Default::default(),
                status: Default::default(),
                listing_kept: false,
                command_candidate: None,
                db_row: None,
            });
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
        let (fields, lower) = Texts::of_catalog(&c);
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
        assert_eq!(s.rank("dep"), [0]);
        assert_eq!(s.rank("depl"), [0]);
        assert_eq!(s.rank("code"), [1], "category");
        assert_eq!(s.rank("ops"), [2, 0, 1], "tags: ties go to the shorter name");
        assert_eq!(s.rank("style"), [2], "description");
        assert_eq!(s.rank(""), [0, 1, 2]);
        assert_eq!(s.rank("zzz"), Vec::<usize>::new());
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
        let ranked = s.rank("pytorch-fsdp");
        assert_eq!(names(&c, &ranked)[..2], ["pytorch-fsdp", "pytorch-fsdp-guide"]);
        let ranked = names(&c, &s.rank("deploy"));
        assert_eq!(ranked, ["deploy", "deploy-service", "redeploy", "d-e-p-l-o-y", "other", "notes"]);
        assert_eq!(names(&c, &s.rank("DEPLOY")), Vec::<String>::new(), "smart case");
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
                let fresh = Search::new(&c).rank(query);
                assert_eq!(narrowing.rank(query), fresh, "{query:?}");
            }
        }
    }

    #[test]
    fn scattered_letters_in_a_description_do_not_match() {
        let c = catalog(&[("alpha", "a", "d is e and p l o y")]);
        assert!(Search::new(&c).rank("deploy").is_empty());
    }
}
