//! Skills whose index descriptions the agent may confuse.
//!
//! Hermes' agent picks the skill to load from the system-prompt index
//! (`build_skills_system_prompt`: one `name: description` line per skill,
//! the description cut to 60 characters) by what the line says. Two skills
//! whose lines say much the same thing are a coin toss: the agent may load
//! the one its author did not mean. This module scores how far two texts
//! overlap, for every pair of a home's skills at once, so the pairs worth a
//! look can be shown. It reads nothing: the caller hands it the texts
//! (with the names in them, if it wants the names to count).
//!
//! **The score** is the cosine of TF-IDF vectors over the words of each
//! text: lowercase words split on anything that is not a letter or a digit;
//! English stop words, one-letter words and bare numbers left out; a light
//! suffix stemming, so "reviews", "reviewing" and "reviewed" meet "review";
//! sublinear term frequency (`1 + ln tf`) and smoothed inverse document
//! frequency (`ln((1 + n) / (1 + df)) + 1`). Among at least
//! [`MIN_DOCS_TO_DROP_COMMON`] documents, a word found in more than half of
//! them is dropped: it tells no skill from another (as "use" would in a
//! home whose descriptions all say "Use when …"). Scores lie in [0, 1]: 1
//! for the same words in the same proportions, 0 for no word in common.
//!
//! **No pass looks at all n² pairs**, since homes hold up to 100,000
//! skills. [`SimilarityIndex::pairs_above`] filters by prefix, as the
//! all-pairs similarity searches do (Bayardo, Ma and Srikant, "Scaling up
//! all pairs similarity search", 2007): terms are numbered rarest first, and
//! a document's *signature* is its rarest shared terms up to where the rest
//! of its vector is shorter than the threshold. Two documents that share no
//! term of both signatures score below the threshold, so pairs are only met
//! in the lists of signature terms, which hold the rare terms and are short.
//! A pair is let go as soon as a bound on its score falls below the
//! threshold (when first met: the lengths of both vectors from the shared
//! term on; at the end: what the later document's rest can add), and the
//! pairs left are scored exactly. The answer is exact.
//!
//! Where the words are too few for that (every word in a third of the
//! documents, as in the generated benchmark homes' 37 words), a work budget
//! keeps the search linear: lists are searched cheapest first while their
//! cost (every holder of the term scanning the list) stays within
//! [`PAIR_VISITS_PER_POSTING`] per entry of the index, and pairs met only in
//! the lists left out are missed. In the real corpus every list fits.
//! [`SimilarityIndex::most_similar`] scores every document that shares a
//! word with the one asked about, and is exact.
//!
//! Answers do not depend on the number of threads: each pair's score is
//! summed in the same order whoever computes it, and pairs are sorted at
//! the end.

use std::cmp::Ordering;
use std::collections::HashMap;
use std::ops::Range;

/// One text to compare: a skill's index description (and name, if the
/// caller put it in `text`). `name` is the caller's, for showing pairs; the
/// score reads only `text`.
#[derive(Debug, Clone, Copy)]
pub struct Document<'a> {
    pub name: &'a str,
    pub text: &'a str,
}

/// Two documents and how similar they are: indices into the documents the
/// index was built from, `a < b`, and a score in [0, 1].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Similar {
    pub a: usize,
    pub b: usize,
    pub score: f32,
}

/// A document's closest partner at a threshold, and how many partners it
/// has there.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Closest {
    /// The partner's index.
    pub other: usize,
    pub score: f32,
    pub partners: usize,
}

/// The score from which two skills' index lines are worth a look: the
/// agent may load one for the other.
///
/// Chosen on the 223 real skills of `tests/corpus`, scored as Hermes' index
/// shows them (`name: description`, the description cut to 60 characters;
/// `cargo test -p skillscope-engine --test similar_bench similar_corpus --
/// --nocapture` prints the ranking). It flags 26 of the 24,753 pairs:
/// - 5 near-duplicates: `skill-creator` (Anthropic's, OpenAI's) and
///   `writing-skills`, 0.48–0.68; one skill in two collections
///   (`subagent-driven-development` 0.63, `systematic-debugging` 0.38);
/// - 16 real overlaps, among them `executing-plans`/
///   `subagent-driven-development` 0.58, `deploy-to-vercel`/
///   `vercel-cli-with-tokens` 0.46, the code-review pairs
///   (`github-code-review`/`gh-address-comments` 0.41, `receiving-`/
///   `requesting-code-review` 0.40), two diagram skills 0.39,
///   `apple-notes`/`obsidian` 0.37, vector databases, GPU clouds and
///   fine-tuning tools 0.35–0.41, and the two PDF skills
///   (`nano-pdf`/`ocr-and-documents`) at 0.342;
/// - 4 pairs of one template with the product changed (`claude-code`,
///   `codex`, `grok`, `opencode`: "Delegate coding to … CLI (features,
///   PRs)"), 0.38–0.52;
/// - 1 weak pair: `saelens`/`slime`, 0.346 ("Provides guidance for …
///   training").
///
/// Just below, pairs that share a product name and little else begin
/// (`react-native-skills`/`react-view-transitions` 0.338,
/// `codex`/`skill-installer` 0.335, which share "Codex"), mixed with
/// overlaps as real as those above, so no threshold parts them cleanly:
/// 0.34 keeps the PDF pair and leaves those two out. The whole descriptions
/// rank alike (their top pairs score 0.32–0.62).
pub const CONFUSABLE_THRESHOLD: f32 = 0.34;

/// From this many documents on, a word found in more than half of them is
/// dropped. In a smaller home half may be two skills of three, and the word
/// they share is exactly what confuses them.
pub const MIN_DOCS_TO_DROP_COMMON: usize = 20;

/// How many list entries [`SimilarityIndex::pairs_above`] may visit per
/// entry of the index (one word of one document): the bound on its work.
/// Of descriptions whose words are drawn by Zipf's law from 30,000, 10,000
/// fit whole; of 100,000 it keeps 2,852 of the 2,901 pairs an unbounded
/// search finds at [`CONFUSABLE_THRESHOLD`]. On a generated benchmark home
/// of 10,000 skills (37 words) an unbounded search lists 20 million pairs
/// there, in 3.5 s; this one keeps to 0.4 million, in 0.06 s.
pub const PAIR_VISITS_PER_POSTING: u64 = 32;

/// Words shorter than this (in characters) say too little to compare.
const MIN_WORD_CHARS: usize = 2;

/// Below this many documents all pairs are found on the calling thread.
const PARALLEL_MIN_DOCS: usize = 2048;

/// How many blocks of documents the pair search is split into: enough to
/// keep every thread busy, few enough that each block's scratch array
/// (eight bytes per document) costs little.
const PAIR_SEARCH_BLOCKS: usize = 32;

/// Room for rounding in the bounds that leave words and pairs out.
const BOUND_SLACK: f32 = 1e-4;

/// The TF-IDF vectors of a set of documents and the inverted index over
/// them. Built once; the queries only read it.
#[derive(Debug, Clone, Default)]
pub struct SimilarityIndex {
    /// Where each document's entries start in `entry_terms` and
    /// `entry_weights` (one more offset than documents).
    doc_starts: Vec<usize>,
    /// Each document's words, ascending. Terms are numbered rarest first, so
    /// a document's entries run from its rarest word to its commonest ...
    entry_terms: Vec<u32>,
    /// ... and their weights: the document's vector, of length 1.
    entry_weights: Vec<f32>,
    /// The first term found in two documents or more: the terms before it
    /// are each in one document and pair nothing.
    first_shared_term: u32,
    /// Where each shared term's postings start in `posting_docs`, from
    /// `first_shared_term` on (one more offset than shared terms).
    posting_starts: Vec<usize>,
    /// Per shared term, the documents that hold it, ascending.
    posting_docs: Vec<u32>,
}

impl SimilarityIndex {
    /// Indexes `docs`; answers refer to documents by their place in it.
    pub fn build(docs: &[Document]) -> SimilarityIndex {
        // Document numbers are kept as u32 (half the index of usize); more
        // documents than that would not fit in memory anyway.
        let docs = &docs[..docs.len().min(u32::MAX as usize - 1)];
        let doc_count = docs.len();
        let words: Vec<Vec<String>> = crate::parallel_map_min(docs, 512, |doc| words_of(doc.text));

        // Words numbered in order of first use, and counted per document.
        let mut word_numbers: HashMap<String, u32> = HashMap::new();
        let mut word_counts: Vec<Vec<(u32, u32)>> = Vec::with_capacity(doc_count);
        for doc_words in words {
            let numbers = doc_words.into_iter().map(|word| {
                let next = word_numbers.len() as u32;
                *word_numbers.entry(word).or_insert(next)
            });
            word_counts.push(counted(numbers.collect()));
        }
        let word_total = word_numbers.len();
        drop(word_numbers);
        let mut doc_frequency = vec![0usize; word_total];
        for counts in &word_counts {
            for &(word, _) in counts {
                doc_frequency[word as usize] += 1;
            }
        }

        // Terms: the words kept, numbered rarest first (ties in order of
        // first use, so the same documents give the same index).
        let drop_common = doc_count >= MIN_DOCS_TO_DROP_COMMON;
        let mut kept: Vec<u32> = (0..word_total as u32)
            .filter(|&word| !(drop_common && 2 * doc_frequency[word as usize] > doc_count))
            .collect();
        kept.sort_by_key(|&word| doc_frequency[word as usize]);
        let mut term_of_word = vec![u32::MAX; word_total];
        for (term, &word) in kept.iter().enumerate() {
            term_of_word[word as usize] = term as u32;
        }
        let first_shared_term = kept.partition_point(|&word| doc_frequency[word as usize] < 2) as u32;
        let idf = |word: u32| ((1 + doc_count) as f64 / (1 + doc_frequency[word as usize]) as f64).ln() + 1.0;

        // Each document's vector, scaled to length 1.
        let mut doc_starts = Vec::with_capacity(doc_count + 1);
        let mut entry_terms = Vec::new();
        let mut entry_weights = Vec::new();
        let mut vector: Vec<(u32, f64)> = Vec::new();
        doc_starts.push(0);
        for counts in &word_counts {
            vector.clear();
            for &(word, count) in counts {
                let term = term_of_word[word as usize];
                if term != u32::MAX {
                    vector.push((term, (1.0 + (count as f64).ln()) * idf(word)));
                }
            }
            vector.sort_unstable_by_key(|&(term, _)| term);
            let norm = vector.iter().map(|(_, w)| w * w).sum::<f64>().sqrt();
            entry_terms.extend(vector.iter().map(|&(term, _)| term));
            entry_weights.extend(vector.iter().map(|&(_, w)| (w / norm) as f32));
            doc_starts.push(entry_terms.len());
        }
        drop(word_counts);

        let shared_terms = kept.len() - first_shared_term as usize;
        let (posting_starts, posting_docs) = inverted(&doc_starts, &entry_terms, first_shared_term, shared_terms);
        SimilarityIndex { doc_starts, entry_terms, entry_weights, first_shared_term, posting_starts, posting_docs }
    }

    /// How many documents the index holds.
    pub fn len(&self) -> usize {
        self.doc_starts.len().saturating_sub(1)
    }

    /// Whether the index holds no document.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The score of documents `a` and `b` (0 when either is not in the
    /// index).
    pub fn score(&self, a: usize, b: usize) -> f32 {
        if a >= self.len() || b >= self.len() {
            return 0.0;
        }
        dot_in_term_order(0.0, self.vector(a), self.vector(b))
    }

    /// Pairs scoring at least `threshold`, highest first (ties by a, b).
    /// Only pairs that share a word are found (never a score of 0); the
    /// search is exact unless the work budget cuts it (see the module's doc).
    pub fn pairs_above(&self, threshold: f32) -> Vec<Similar> {
        self.pairs_within_budget(threshold, PAIR_VISITS_PER_POSTING)
    }

    /// For each document, its closest partner among those
    /// [`Self::pairs_above`] pairs it with at `threshold`, and how many
    /// those are: the highest score, ties to the partner `first` orders
    /// first, then to the lower index. No pair is kept: a home whose skills
    /// all read alike pairs millions, and a check needs only these.
    pub fn closest_above(
        &self,
        threshold: f32,
        first: impl Fn(usize, usize) -> Ordering + Sync,
    ) -> Vec<Option<Closest>> {
        let doc_count = self.len();
        if doc_count < 2 || threshold.is_nan() || threshold > 1.0 {
            return vec![None; doc_count];
        }
        let signatures = Signatures::new(self, threshold, PAIR_VISITS_PER_POSTING);
        let blocks = balanced_blocks(doc_count);
        let closer = |candidate: &Closest, current: &Closest| {
            candidate
                .score
                .total_cmp(&current.score)
                .reverse()
                .then_with(|| first(candidate.other, current.other))
                .then(candidate.other.cmp(&current.other))
                == Ordering::Less
        };
        // One table per thread (the blocks run in one chunk per thread).
        let tables = crate::in_chunks(&blocks, 2, |part| {
            let mut table: Vec<Option<Closest>> = vec![None; doc_count];
            let mut note = |doc: usize, other: usize, score: f32| {
                let candidate = Closest { other, score, partners: 1 };
                match &mut table[doc] {
                    Some(current) => {
                        let partners = current.partners + 1;
                        if closer(&candidate, current) {
                            *current = candidate;
                        }
                        current.partners = partners;
                    }
                    empty => *empty = Some(candidate),
                }
            };
            for block in part {
                signatures.pairs_from(block.clone(), &mut |pair| {
                    note(pair.a, pair.b, pair.score);
                    note(pair.b, pair.a, pair.score);
                });
            }
            vec![table]
        });
        let mut tables = tables.into_iter();
        let mut closest = tables.next().unwrap_or_default();
        for table in tables {
            for (mine, theirs) in closest.iter_mut().zip(table) {
                let Some(theirs) = theirs else { continue };
                *mine = Some(match mine.take() {
                    None => theirs,
                    Some(current) => {
                        let partners = current.partners + theirs.partners;
                        let best = if closer(&theirs, &current) { theirs } else { current };
                        Closest { partners, ..best }
                    }
                });
            }
        }
        closest
    }

    /// The `k` documents most similar to document `i` (score > 0), highest
    /// first (ties by index); never `i` itself. Exact: every document that
    /// shares a word with `i` is scored.
    pub fn most_similar(&self, i: usize, k: usize) -> Vec<(usize, f32)> {
        if i >= self.len() || k == 0 {
            return Vec::new();
        }
        let (terms, _) = self.vector(i);
        let mut candidates: Vec<u32> = terms.iter().flat_map(|&term| self.postings(term).iter().copied()).collect();
        candidates.sort_unstable();
        candidates.dedup();
        let mut scored: Vec<(usize, f32)> = candidates
            .into_iter()
            .map(|doc| doc as usize)
            .filter(|&doc| doc != i)
            .map(|doc| (doc, self.score(i, doc)))
            .filter(|&(_, score)| score > 0.0)
            .collect();
        scored.sort_unstable_by(|p, q| q.1.total_cmp(&p.1).then(p.0.cmp(&q.0)));
        scored.truncate(k);
        scored
    }

    /// [`Self::pairs_above`] with `visits_per_posting` as the budget.
    fn pairs_within_budget(&self, threshold: f32, visits_per_posting: u64) -> Vec<Similar> {
        let doc_count = self.len();
        if doc_count < 2 || threshold.is_nan() || threshold > 1.0 {
            return Vec::new();
        }
        let signatures = Signatures::new(self, threshold, visits_per_posting);
        let blocks = balanced_blocks(doc_count);
        let found = crate::parallel_map_min(&blocks, 2, |block| {
            let mut pairs = Vec::new();
            signatures.pairs_from(block.clone(), &mut |pair| pairs.push(pair));
            pairs
        });
        let mut pairs: Vec<Similar> = found.into_iter().flatten().collect();
        pairs.sort_unstable_by(|p, q| q.score.total_cmp(&p.score).then(p.a.cmp(&q.a)).then(p.b.cmp(&q.b)));
        pairs
    }

    /// Document `doc`'s terms and weights.
    fn vector(&self, doc: usize) -> (&[u32], &[f32]) {
        let entries = self.doc_starts[doc]..self.doc_starts[doc + 1];
        (&self.entry_terms[entries.clone()], &self.entry_weights[entries])
    }

    /// Where document `doc`'s shared terms start among its entries.
    fn first_shared_entry(&self, doc: usize) -> usize {
        let (terms, _) = self.vector(doc);
        self.doc_starts[doc] + terms.partition_point(|&term| term < self.first_shared_term)
    }

    /// The documents holding `term` (none for a term of one document).
    fn postings(&self, term: u32) -> &[u32] {
        let Some(shared) = term.checked_sub(self.first_shared_term) else {
            return &[];
        };
        let shared = shared as usize;
        &self.posting_docs[self.posting_starts[shared]..self.posting_starts[shared + 1]]
    }
}

/// `start` plus the dot product of two sparse vectors (terms ascending),
/// added in term order: the same sum, in the same order, for (a, b) and
/// (b, a) and on any thread. Clamped to [0, 1] against rounding.
fn dot_in_term_order(
    start: f32,
    (terms_a, weights_a): (&[u32], &[f32]),
    (terms_b, weights_b): (&[u32], &[f32]),
) -> f32 {
    let (mut i, mut j, mut dot) = (0, 0, start);
    while i < terms_a.len() && j < terms_b.len() {
        match terms_a[i].cmp(&terms_b[j]) {
            Ordering::Less => i += 1,
            Ordering::Greater => j += 1,
            Ordering::Equal => {
                dot += weights_a[i] * weights_b[j];
                i += 1;
                j += 1;
            }
        }
    }
    dot.clamp(0.0, 1.0)
}

/// `(item, count)` for each distinct item of `items`, ascending.
fn counted(mut items: Vec<u32>) -> Vec<(u32, u32)> {
    items.sort_unstable();
    let mut counts: Vec<(u32, u32)> = Vec::with_capacity(items.len());
    for item in items {
        match counts.last_mut() {
            Some((last, count)) if *last == item => *count += 1,
            _ => counts.push((item, 1)),
        }
    }
    counts
}

/// The postings of the terms from `first_term` on (`terms` of them): where
/// each term's list starts (one more offset than terms) and the lists, each
/// in document order.
fn inverted(doc_starts: &[usize], entry_terms: &[u32], first_term: u32, terms: usize) -> (Vec<usize>, Vec<u32>) {
    let mut starts = vec![0usize; terms + 1];
    for &term in entry_terms {
        if let Some(slot) = term.checked_sub(first_term) {
            starts[slot as usize + 1] += 1;
        }
    }
    for i in 1..starts.len() {
        starts[i] += starts[i - 1];
    }
    let mut docs = vec![0u32; starts[terms]];
    let mut filled = starts[..terms].to_vec();
    for doc in 0..doc_starts.len().saturating_sub(1) {
        for &term in &entry_terms[doc_starts[doc]..doc_starts[doc + 1]] {
            if let Some(slot) = term.checked_sub(first_term) {
                docs[filled[slot as usize]] = doc as u32;
                filled[slot as usize] += 1;
            }
        }
    }
    (starts, docs)
}

/// What a pair search at one threshold looks at: each document's signature
/// and, per term, the documents whose signature holds it.
struct Signatures<'i> {
    index: &'i SimilarityIndex,
    threshold: f32,
    /// Per document, where its signature ends among its entries: the
    /// signature is its shared terms, rarest first, up to where the rest of
    /// its vector is shorter than the threshold.
    signature_ends: Vec<usize>,
    /// Per document, what bounds its score as the later of a pair.
    reach: Vec<Reach>,
    /// Per shared term (from `first_shared_term`), whether its list fits the
    /// work budget and is searched ...
    searched: Vec<bool>,
    /// ... where its list starts (one more offset than shared terms) ...
    list_starts: Vec<usize>,
    /// ... and the list: the documents whose signature holds it, ascending.
    lists: Vec<Listed>,
}

/// A document in a term's list: what a pair search needs of it there, read
/// in list order.
#[derive(Debug, Clone, Copy, Default)]
struct Listed {
    doc: u32,
    /// The term's weight in the document.
    weight: f32,
    /// The length of the document's vector from the term on.
    tail_norm: f32,
    /// The length of its signature before the term, on the terms whose
    /// lists are not searched.
    unsearched_before: f32,
}

/// What bounds a pair's score from its later document, and where the rest
/// of that document is, kept together so that one memory read fetches it.
#[derive(Debug, Clone, Copy, Default)]
struct Reach {
    /// Its entries after the signature.
    rest: (usize, usize),
    /// The commonest term of its signature.
    last_signature_term: u32,
    /// The length of its vector after the signature (below the threshold).
    rest_norm: f32,
    /// The length of its signature on the terms whose lists are not searched.
    unsearched_signature_norm: f32,
}

impl<'i> Signatures<'i> {
    fn new(index: &'i SimilarityIndex, threshold: f32, visits_per_posting: u64) -> Signatures<'i> {
        let doc_count = index.len();
        let first_term = index.first_shared_term;
        // A term stays out of the signature only while the rest stays
        // shorter than the threshold, with room for rounding.
        let rest_limit = (threshold - BOUND_SLACK).max(0.0);
        let rest_limit_sq = rest_limit * rest_limit;
        let mut signature_ends = Vec::with_capacity(doc_count);
        let mut reach = vec![Reach::default(); doc_count];
        for (doc, doc_reach) in reach.iter_mut().enumerate() {
            let first = index.first_shared_entry(doc);
            let mut end = index.doc_starts[doc + 1];
            let mut rest_sq = 0f32;
            while end > first {
                let weight = index.entry_weights[end - 1];
                if rest_sq + weight * weight >= rest_limit_sq {
                    break;
                }
                rest_sq += weight * weight;
                end -= 1;
            }
            signature_ends.push(end);
            doc_reach.rest = (end, index.doc_starts[doc + 1]);
            doc_reach.rest_norm = rest_sq.sqrt();
            if end > first {
                doc_reach.last_signature_term = index.entry_terms[end - 1];
            }
        }

        let shared_terms = index.posting_starts.len().saturating_sub(1);
        let signature = |doc: usize| index.first_shared_entry(doc)..signature_ends[doc];
        let mut list_starts = vec![0usize; shared_terms + 1];
        for doc in 0..doc_count {
            for &term in &index.entry_terms[signature(doc)] {
                list_starts[(term - first_term) as usize + 1] += 1;
            }
        }
        for i in 1..list_starts.len() {
            list_starts[i] += list_starts[i - 1];
        }
        // Every document holding a term searches the later half of its list.
        let list_costs: Vec<u64> = (0..shared_terms)
            .map(|slot| {
                let holders = (index.posting_starts[slot + 1] - index.posting_starts[slot]) as u64;
                let listed = (list_starts[slot + 1] - list_starts[slot]) as u64;
                holders * listed / 2
            })
            .collect();
        let budget = visits_per_posting.saturating_mul(index.posting_docs.len() as u64);
        let cut = budget_cut(&list_costs, budget);
        let searched: Vec<bool> = list_costs.iter().map(|&cost| cost < cut).collect();
        let unsearched = |term: u32| term >= first_term && !searched[(term - first_term) as usize];

        let mut lists = vec![Listed::default(); list_starts[shared_terms]];
        let mut filled = list_starts[..shared_terms].to_vec();
        let mut tails_sq: Vec<f32> = Vec::new();
        for (doc, doc_reach) in reach.iter_mut().enumerate() {
            let (terms, weights) = index.vector(doc);
            tail_norms_sq(weights, &mut tails_sq);
            let start = index.doc_starts[doc];
            let mut unsearched_sq = 0f32;
            for entry in signature(doc) {
                let (term, weight) = (terms[entry - start], weights[entry - start]);
                let slot = (term - first_term) as usize;
                lists[filled[slot]] = Listed {
                    doc: doc as u32,
                    weight,
                    tail_norm: tails_sq[entry - start].sqrt(),
                    unsearched_before: unsearched_sq.sqrt(),
                };
                filled[slot] += 1;
                if unsearched(term) {
                    unsearched_sq += weight * weight;
                }
            }
            doc_reach.unsearched_signature_norm = unsearched_sq.sqrt();
        }
        Signatures { index, threshold, signature_ends, reach, searched, list_starts, lists }
    }

    /// The squared lengths of a vector on the terms whose lists are not
    /// searched, before each of its entries (one more than entries).
    fn unsearched_norms_sq_before(&self, terms: &[u32], weights: &[f32], norms_sq: &mut Vec<f32>) {
        norms_sq.clear();
        norms_sq.push(0.0);
        let mut sum = 0f32;
        for (&term, &weight) in terms.iter().zip(weights) {
            if self.unsearched(term) {
                sum += weight * weight;
            }
            norms_sq.push(sum);
        }
    }

    /// Whether `term` is shared but its list is not searched.
    fn unsearched(&self, term: u32) -> bool {
        term.checked_sub(self.index.first_shared_term).is_some_and(|slot| !self.searched[slot as usize])
    }

    /// The pairs `(a, b)` with `a` in `block`, `b > a`, scoring at least the
    /// threshold. A pair is met when `b`'s list holds a term of `a`'s
    /// signature (a pair sharing no term of both signatures scores below
    /// the threshold); `a`'s later terms then add what they share with
    /// `b`'s signature. What `b`'s rest and the unsearched lists could still
    /// add is bounded, and only the pairs the bound lets reach the threshold
    /// are scored exactly.
    fn pairs_from(&self, block: Range<usize>, found: &mut impl FnMut(Similar)) {
        let index = self.index;
        let first_term = index.first_shared_term;
        // Per document, the last document that met it and the dot product so
        // far (no document is numbered u32::MAX); minus infinity once the pair
        // is known to score below the threshold.
        let mut met = vec![(u32::MAX, 0f32); index.len()];
        let mut met_now: Vec<u32> = Vec::new();
        // The squared length of the current document's vector from each
        // entry on.
        let mut tails_sq: Vec<f32> = Vec::new();
        // The squared length of its terms on unsearched lists before each
        // entry.
        let mut unsearched_before_sq: Vec<f32> = Vec::new();
        for a in block {
            let shared = index.first_shared_entry(a)..index.doc_starts[a + 1];
            let signature_end = self.signature_ends[a];
            if signature_end == shared.start {
                // Its shared terms are too light to reach the threshold.
                continue;
            }
            let a_number = a as u32;
            let (terms, weights) = index.vector(a);
            tail_norms_sq(weights, &mut tails_sq);
            self.unsearched_norms_sq_before(terms, weights, &mut unsearched_before_sq);
            let a_start = index.doc_starts[a];
            for entry in shared {
                let slot = (terms[entry - a_start] - first_term) as usize;
                if !self.searched[slot] {
                    continue;
                }
                let admits = entry < signature_end;
                let weight = weights[entry - a_start];
                let a_tail = tails_sq[entry - a_start].sqrt();
                let list = &self.lists[self.list_starts[slot]..self.list_starts[slot + 1]];
                let later = list.partition_point(|listed| listed.doc <= a_number);
                for listed in &list[later..] {
                    let seen = &mut met[listed.doc as usize];
                    if seen.0 != a_number {
                        if !admits {
                            continue;
                        }
                        // First met here, so every term both share before
                        // this one lies in both signatures on a list not
                        // searched: the pair scores at most this.
                        let a_unsearched = unsearched_before_sq[entry - a_start].sqrt();
                        let at_most = a_tail * listed.tail_norm + a_unsearched * listed.unsearched_before;
                        if at_most + BOUND_SLACK < self.threshold {
                            *seen = (a_number, f32::NEG_INFINITY);
                            continue;
                        }
                        *seen = (a_number, 0.0);
                        met_now.push(listed.doc);
                    }
                    seen.1 += weight * listed.weight;
                }
            }
            for b in met_now.drain(..) {
                let b = b as usize;
                let reach = self.reach[b];
                // `b`'s rest holds only terms commoner than its signature's.
                let a_after = terms.partition_point(|&term| term <= reach.last_signature_term);
                let unsearched_at_most = unsearched_before_sq[a_after].sqrt() * reach.unsearched_signature_norm;
                let at_most = met[b].1 + unsearched_at_most + tails_sq[a_after].sqrt() * reach.rest_norm;
                if at_most + BOUND_SLACK < self.threshold {
                    continue;
                }
                let score = if unsearched_at_most == 0.0 {
                    // The dot product so far covers every shared term up to
                    // `b`'s signature's end, added in term order: going on in
                    // term order over `b`'s rest gives `score(a, b)` to the bit
                    // without reading all of `b`.
                    let (rest_terms, rest_weights) = (
                        &index.entry_terms[reach.rest.0..reach.rest.1],
                        &index.entry_weights[reach.rest.0..reach.rest.1],
                    );
                    dot_in_term_order(met[b].1, (&terms[a_after..], &weights[a_after..]), (rest_terms, rest_weights))
                } else {
                    index.score(a, b)
                };
                if score > 0.0 && score >= self.threshold {
                    found(Similar { a, b, score });
                }
            }
        }
    }
}

/// The squared lengths of a vector from each of its entries on (one more
/// than entries, the last 0), into `tails_sq`.
fn tail_norms_sq(weights: &[f32], tails_sq: &mut Vec<f32>) {
    tails_sq.clear();
    tails_sq.resize(weights.len() + 1, 0.0);
    for i in (0..weights.len()).rev() {
        tails_sq[i] = tails_sq[i + 1] + weights[i] * weights[i];
    }
}

/// The cost from which lists are not searched: lists are taken cheapest
/// first while their costs (the pairs they make) fit `budget`; the first
/// that does not fit, and all as costly, are left out.
fn budget_cut(list_costs: &[u64], budget: u64) -> u64 {
    let mut costs = list_costs.to_vec();
    costs.sort_unstable();
    let mut spent = 0u64;
    for cost in costs {
        spent = spent.saturating_add(cost);
        if spent > budget {
            return cost;
        }
    }
    u64::MAX
}

/// The documents split into blocks for the pair search, ordered first,
/// last, second, second to last …: a document pairs only with later ones,
/// so early blocks carry more work, and each thread's run of blocks gets
/// about the same share.
fn balanced_blocks(doc_count: usize) -> Vec<Range<usize>> {
    let blocks = if doc_count < PARALLEL_MIN_DOCS { 1 } else { PAIR_SEARCH_BLOCKS };
    let size = doc_count.div_ceil(blocks).max(1);
    let in_order: Vec<Range<usize>> = (0..doc_count).step_by(size).map(|s| s..(s + size).min(doc_count)).collect();
    let mut balanced = Vec::with_capacity(in_order.len());
    let (mut low, mut high) = (0, in_order.len());
    while low < high {
        balanced.push(in_order[low].clone());
        low += 1;
        if low < high {
            high -= 1;
            balanced.push(in_order[high].clone());
        }
    }
    balanced
}

/// The compared words of `text`: lowercase, stemmed, without stop words,
/// one-letter words or bare numbers.
fn words_of(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut lower = String::new();
    for raw in text.split(|c: char| !c.is_alphanumeric()) {
        if raw.is_empty() {
            continue;
        }
        lower.clear();
        lower.extend(raw.chars().flat_map(char::to_lowercase));
        if lower.chars().count() < MIN_WORD_CHARS || lower.chars().all(char::is_numeric) || is_stop_word(&lower) {
            continue;
        }
        let stem = stem(&lower);
        if stem.chars().count() >= MIN_WORD_CHARS {
            words.push(stem);
        }
    }
    words
}

/// A light suffix stemmer (a few of Porter's first steps): plurals, `-ing`
/// and `-ed` (with a doubled consonant undone: "mapping" → "map"), a final
/// `-e` and `-y` → `-i`, so that "reviews", "reviewing", "reviewed" and
/// "review", or "creates", "creating" and "create", give one stem. Stems
/// need not be words; only equal stems matter.
fn stem(word: &str) -> String {
    let mut stem = word.to_owned();
    // Plurals: "processes" → "process", "libraries" → "librari", "docs" →
    // "doc"; "class", "status", "analysis" stay.
    if stem.ends_with("sses") || (stem.ends_with("ies") && stem.len() > 4) {
        stem.truncate(stem.len() - 2);
    } else if stem.len() > 3
        && stem.ends_with('s')
        && !(stem.ends_with("ss") || stem.ends_with("us") || stem.ends_with("is"))
    {
        stem.truncate(stem.len() - 1);
    }
    if let Some(base) = verb_base_len(&stem) {
        stem.truncate(base);
        let bytes = stem.as_bytes();
        let last = bytes.len();
        // "running" → "runn" → "run"; "adding" keeps "add" (three letters
        // at least), "calling" keeps "call".
        if last >= 4
            && bytes[last - 1] == bytes[last - 2]
            && bytes[last - 1].is_ascii_alphabetic()
            && !b"aeioulsz".contains(&bytes[last - 1])
        {
            stem.truncate(last - 1);
        }
    }
    // "create"/"creating", "use"/"using" meet without their "e".
    if stem.len() > 2 && stem.ends_with('e') {
        stem.pop();
    }
    // "library"/"librari(es)", "deploy"/"deploying" meet as "-i".
    if stem.len() > 2 && stem.ends_with('y') {
        stem.pop();
        stem.push('i');
    }
    stem
}

/// Where `word` ends without its `-ing` or `-ed`, when what is left looks
/// like a stem (two letters at least, one a vowel): "thing", "string",
/// "need" and "speed" keep theirs.
fn verb_base_len(word: &str) -> Option<usize> {
    let base = if word.ends_with("ing") {
        word.len() - 3
    } else if word.ends_with("ed") && !word.ends_with("eed") {
        word.len() - 2
    } else {
        return None;
    };
    let rest = &word.as_bytes()[..base];
    (rest.len() >= 2 && rest.iter().any(|b| b"aeiouy".contains(b))).then_some(base)
}

/// English function words, sorted (for the binary search; a test keeps
/// them so).
const STOP_WORDS: &[&str] = &[
    "about", "above", "after", "again", "against", "all", "also", "am", "an", "and", "any", "are", "as", "at", "be",
    "because", "been", "before", "being", "below", "between", "both", "but", "by", "can", "cannot", "could", "did",
    "do", "does", "doing", "don", "down", "during", "each", "eg", "either", "etc", "even", "ever", "every", "for",
    "from", "further", "had", "has", "have", "having", "he", "her", "here", "hers", "him", "his", "how", "however",
    "ie", "if", "in", "into", "is", "it", "its", "itself", "just", "may", "me", "might", "more", "most", "much",
    "must", "my", "no", "nor", "not", "of", "off", "on", "once", "only", "or", "other", "our", "ours", "out", "over",
    "own", "same", "shall", "she", "should", "so", "some", "such", "than", "that", "the", "their", "theirs", "them",
    "then", "there", "these", "they", "this", "those", "through", "to", "too", "under", "until", "up", "upon", "us",
    "very", "via", "was", "we", "were", "what", "when", "where", "whether", "which", "while", "who", "whom", "whose",
    "why", "will", "with", "within", "without", "would", "yet", "you", "your", "yours",
];

fn is_stop_word(word: &str) -> bool {
    STOP_WORDS.binary_search(&word).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index_of(texts: &[&str]) -> SimilarityIndex {
        let docs: Vec<Document> = texts.iter().map(|text| Document { name: "", text }).collect();
        SimilarityIndex::build(&docs)
    }

    #[test]
    fn stop_words_are_sorted_and_unique() {
        assert!(STOP_WORDS.windows(2).all(|w| w[0] < w[1]), "STOP_WORDS must stay sorted for binary_search");
    }

    #[test]
    fn identical_descriptions_score_one() {
        let text = "Extract text and tables from PDF files, fill PDF forms";
        let index = index_of(&[text, text, "Deploy containers to a Kubernetes cluster"]);
        assert!((index.score(0, 1) - 1.0).abs() < 1e-5, "{}", index.score(0, 1));
        let pairs = index.pairs_above(0.99);
        assert_eq!(pairs.len(), 1);
        assert_eq!((pairs[0].a, pairs[0].b), (0, 1));
    }

    #[test]
    fn disjoint_descriptions_score_zero() {
        let index = index_of(&["Extract tables from PDF files", "Deploy containers to Kubernetes clusters"]);
        assert_eq!(index.score(0, 1), 0.0);
        assert!(index.pairs_above(0.0).is_empty(), "pairs sharing no word are never listed");
        assert!(index.most_similar(0, 5).is_empty());
    }

    #[test]
    fn stemming_joins_word_forms() {
        for (a, b) in [
            ("reviews", "review"),
            ("reviewing", "review"),
            ("reviewed", "review"),
            ("creating", "create"),
            ("creates", "created"),
            ("libraries", "library"),
            ("processes", "process"),
            ("mapping", "map"),
            ("debugging", "debug"),
            ("settings", "setting"),
            ("using", "use"),
            ("deploying", "deploy"),
        ] {
            assert_eq!(stem(a), stem(b), "{a} / {b}");
        }
        for (a, b) in [("class", "clas"), ("thing", "th"), ("speed", "spe"), ("status", "statu")] {
            assert_ne!(stem(a), stem(b), "{a} must not shrink to {b}");
        }
        let index = index_of(&["Reviewing pull requests", "Review a pull request", "Bake bread"]);
        assert!((index.score(0, 1) - 1.0).abs() < 1e-5, "{}", index.score(0, 1));
    }

    #[test]
    fn stop_words_and_short_tokens_are_ignored() {
        assert_eq!(words_of("The PDF and a form, to x 42 of the"), ["pdf", "form"]);
        let index = index_of(&["the PDF of a form", "PDF form", "this is what it was for"]);
        assert!((index.score(0, 1) - 1.0).abs() < 1e-5);
        assert!(index.vector(2).0.is_empty(), "nothing but stop words");
    }

    #[test]
    fn rare_shared_words_outweigh_common_ones() {
        // "data" is everywhere; "parquet" only in two.
        let index = index_of(&[
            "parquet data files",
            "parquet data tables",
            "data charts",
            "data dashboards",
            "data pipelines",
            "data warehouse",
        ]);
        let top = index.most_similar(0, 1);
        assert_eq!(top[0].0, 1);
        assert!(index.score(0, 1) > index.score(0, 2));
    }

    #[test]
    fn words_in_most_documents_are_dropped_in_large_sets() {
        let mut texts: Vec<String> = (0..30).map(|i| format!("use topic{i} widgets")).collect();
        texts[1] = "use topic0 gadgets".into();
        let docs: Vec<Document> = texts.iter().map(|text| Document { name: "", text }).collect();
        let index = SimilarityIndex::build(&docs);
        // "use" (30 of 30) and "widgets" (29 of 30) are dropped: only the
        // shared "topic0" is left in the two first documents.
        assert!(index.score(0, 1) > 0.5, "{}", index.score(0, 1));
        assert_eq!(index.score(2, 3), 0.0);
    }

    #[test]
    fn odd_texts_do_not_panic() {
        let texts = [
            "",
            "   \t\n  ",
            "🦀🦀🚀 ✨",
            "日本語のスキル説明",
            "Ünïcödé façade naïve café",
            "İstanbul ǅ ß ﬁ",
            "---",
            "a b c d e",
            "🦀 pdf 🦀",
            "PDF",
            "1234 5678",
            "s es ies ing ed eed",
            "\u{0}\u{7f}\u{200b}",
        ];
        let index = index_of(&texts);
        assert_eq!(index.len(), texts.len());
        let pairs = index.pairs_above(0.0);
        assert!(pairs.iter().all(|p| p.a < p.b && (0.0..=1.0).contains(&p.score)));
        assert!(pairs.iter().any(|p| (p.a, p.b) == (8, 9)));
        for i in 0..texts.len() + 2 {
            let _ = index.most_similar(i, 3);
        }
        assert!(index_of(&[]).pairs_above(0.5).is_empty());
        assert!(index_of(&[""]).most_similar(0, 1).is_empty());
        assert!(index.pairs_above(f32::NAN).is_empty());
        assert!(index.pairs_above(1.5).is_empty());
    }

    #[test]
    fn pairs_are_highest_first_then_by_index() {
        let index = index_of(&[
            "pdf forms",
            "pdf forms",
            "pdf forms fill",
            "spreadsheet formulas charts",
            "spreadsheet formulas",
            "pdf forms",
        ]);
        let pairs = index.pairs_above(0.1);
        assert!(!pairs.is_empty());
        for pair in &pairs {
            assert!(pair.a < pair.b);
            assert!(pair.score >= 0.1);
        }
        for w in pairs.windows(2) {
            let (p, q) = (w[0], w[1]);
            assert!(p.score > q.score || (p.score == q.score && (p.a, p.b) < (q.a, q.b)), "{p:?} before {q:?}");
        }
        // The three identical texts come first, by index.
        let first: Vec<(usize, usize)> = pairs.iter().take(3).map(|p| (p.a, p.b)).collect();
        assert_eq!(first, [(0, 1), (0, 5), (1, 5)]);
    }

    #[test]
    fn most_similar_excludes_self_and_ranks() {
        let index = index_of(&["pdf forms fill", "pdf forms", "pdf", "pdf forms fill", "bread baking"]);
        let top = index.most_similar(0, 10);
        assert!(top.iter().all(|&(doc, score)| doc != 0 && score > 0.0));
        let order: Vec<usize> = top.iter().map(|&(doc, _)| doc).collect();
        assert_eq!(order, [3, 1, 2]);
        assert_eq!(index.most_similar(0, 1).len(), 1);
        assert!(index.most_similar(0, 0).is_empty());
        // The same score as the pair search.
        let pair = index.pairs_above(0.0).into_iter().find(|p| (p.a, p.b) == (0, 1));
        assert_eq!(pair.map(|p| p.score), Some(top[1].1));
    }

    /// `count` texts of eight words drawn by Zipf's law from `vocabulary`
    /// words: a few common, many rare.
    fn zipf_texts(count: usize, vocabulary: f64) -> Vec<String> {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        (0..count)
            .map(|_| {
                let words: Vec<String> = (0..8)
                    .map(|_| {
                        let u = (next() % 1_000_000) as f64 / 1_000_000.0;
                        format!("w{}x", (u * vocabulary.ln()).exp() as u64)
                    })
                    .collect();
                words.join(" ")
            })
            .collect()
    }

    /// Every pair scoring above 0, by brute force.
    fn all_scores(index: &SimilarityIndex) -> Vec<(usize, usize, f32)> {
        let mut pairs = Vec::new();
        for a in 0..index.len() {
            for b in a + 1..index.len() {
                let score = index.score(a, b);
                if score > 0.0 {
                    pairs.push((a, b, score));
                }
            }
        }
        pairs
    }

    /// The pairs of `scores` at or above `threshold` that `keep` keeps.
    fn at_least(
        scores: &[(usize, usize, f32)],
        threshold: f32,
        keep: impl Fn(usize, usize) -> bool,
    ) -> Vec<(usize, usize)> {
        scores.iter().filter(|&&(a, b, score)| score >= threshold && keep(a, b)).map(|&(a, b, _)| (a, b)).collect()
    }

    fn sorted_pairs(pairs: &[Similar]) -> Vec<(usize, usize)> {
        let mut found: Vec<(usize, usize)> = pairs.iter().map(|p| (p.a, p.b)).collect();
        found.sort_unstable();
        found
    }

    /// Without a budget cut the signature search finds exactly the pairs a
    /// look at every pair finds, at any threshold.
    #[test]
    fn pair_search_matches_brute_force() {
        let texts = zipf_texts(1500, 300.0);
        let docs: Vec<Document> = texts.iter().map(|text| Document { name: "", text }).collect();
        let index = SimilarityIndex::build(&docs);
        let scores = all_scores(&index);
        for threshold in [0.0, 0.2, 0.34, 0.5, 0.8] {
            let found = index.pairs_within_budget(threshold, u64::MAX);
            assert_eq!(sorted_pairs(&found), at_least(&scores, threshold, |_, _| true), "threshold {threshold}");
            // Scores are `score`'s to the bit, whichever way they were summed.
            assert!(found.iter().all(|p| p.score.to_bits() == index.score(p.a, p.b).to_bits()));
            assert!(threshold > 0.5 || !found.is_empty(), "threshold {threshold} finds pairs");
        }
    }

    /// Each document's closest partner is the first of its pairs in the
    /// order `closest_above` promises, and its count of partners theirs: on
    /// a set large enough for the threaded search, with many equal scores
    /// (repeated texts) for the tie order to decide.
    #[test]
    fn closest_partners_are_those_of_the_pairs() {
        let mut texts = zipf_texts(2600, 200.0);
        for i in (0..texts.len()).step_by(7) {
            texts[i] = texts[i / 3].clone();
        }
        let docs: Vec<Document> = texts.iter().map(|text| Document { name: "", text }).collect();
        let index = SimilarityIndex::build(&docs);
        // A tie order that is not the index order: odd documents first.
        let odd_first = |a: usize, b: usize| (b % 2).cmp(&(a % 2));
        for threshold in [0.3, 0.6] {
            let pairs = index.pairs_above(threshold);
            let mut expected: Vec<Vec<(usize, f32)>> = vec![Vec::new(); index.len()];
            for pair in &pairs {
                expected[pair.a].push((pair.b, pair.score));
                expected[pair.b].push((pair.a, pair.score));
            }
            let expected: Vec<Option<Closest>> = expected
                .into_iter()
                .map(|mut partners| {
                    partners.sort_by(|x, y| y.1.total_cmp(&x.1).then(odd_first(x.0, y.0)).then(x.0.cmp(&y.0)));
                    let &(other, score) = partners.first()?;
                    Some(Closest { other, score, partners: partners.len() })
                })
                .collect();
            let ties = expected.iter().flatten().filter(|c| c.partners > 1 && c.score >= 0.999).count();
            assert!(ties > 10, "threshold {threshold}: the texts make ties ({ties})");
            assert_eq!(index.closest_above(threshold, odd_first), expected, "threshold {threshold}");
        }
        assert_eq!(index_of(&["one text"]).closest_above(0.3, |_, _| Ordering::Equal), vec![None]);
    }

    /// A set large enough for the threaded search, with a budget that cuts
    /// lists: the answer is that of a single block and of another build, and
    /// it is every pair at the threshold that shares a term of both
    /// signatures whose list is searched.
    #[test]
    fn pair_search_is_deterministic_under_a_budget() {
        let texts = zipf_texts(3000, 1000.0);
        let docs: Vec<Document> = texts.iter().map(|text| Document { name: "", text }).collect();
        let index = SimilarityIndex::build(&docs);
        let (threshold, budget) = (0.3, 2);
        let signatures = Signatures::new(&index, threshold, budget);
        assert!(signatures.searched.iter().any(|searched| !searched), "the budget cuts some lists");
        let threaded = index.pairs_within_budget(threshold, budget);
        let mut single = Vec::new();
        signatures.pairs_from(0..index.len(), &mut |pair| single.push(pair));
        single.sort_unstable_by(|p, q| q.score.total_cmp(&p.score).then(p.a.cmp(&q.a)).then(p.b.cmp(&q.b)));
        assert_eq!(threaded, single);
        assert_eq!(threaded, SimilarityIndex::build(&docs).pairs_within_budget(threshold, budget));
        assert!(threaded.iter().all(|p| p.score.to_bits() == index.score(p.a, p.b).to_bits()));

        let searched_signature = |doc: usize| -> Vec<u32> {
            let entries = index.first_shared_entry(doc)..signatures.signature_ends[doc];
            index.entry_terms[entries].iter().copied().filter(|&term| !signatures.unsearched(term)).collect()
        };
        let scores = all_scores(&index);
        let expected = at_least(&scores, threshold, |a, b| {
            let of_b = searched_signature(b);
            searched_signature(a).iter().any(|term| of_b.contains(term))
        });
        assert_eq!(sorted_pairs(&threaded), expected);
        let all = at_least(&scores, threshold, |_, _| true);
        assert!(expected.len() < all.len(), "the cut lists' pairs are missed: {} of {}", expected.len(), all.len());
    }
}
