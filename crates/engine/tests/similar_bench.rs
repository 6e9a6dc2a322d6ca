//! Evidence for `similar`: the ranking of the real corpus' index lines that
//! [`CONFUSABLE_THRESHOLD`] was chosen on, and the pair search timed on the
//! benchmark homes (`python3 benches/gen_skills.py target/bench-homes/N N`).
//!
//! ```text
//! cargo test -p skillscope-engine --test similar_bench similar_corpus -- --nocapture
//! cargo test --release -p skillscope-engine --test similar_bench similar_bench -- --ignored --nocapture
//! ```

use skillscope_engine::similar::{Document, Similar, SimilarityIndex, CONFUSABLE_THRESHOLD};
use skillscope_engine::{frontmatter, skill};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every `SKILL.md` under `root`, sorted, without following symlinked
/// folders (the corpus has some).
fn skill_files(root: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut folders = vec![root.to_path_buf()];
    while let Some(folder) = folders.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else { continue };
        for entry in entries.flatten() {
            let Ok(kind) = entry.file_type() else { continue };
            let path = entry.path();
            if kind.is_dir() {
                folders.push(path);
            } else if kind.is_file() && entry.file_name() == "SKILL.md" {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// One corpus skill as the index shows it, and with its whole description.
struct CorpusSkill {
    path: String,
    /// `name: description` with the description cut as Hermes' system
    /// prompt cuts it (60 characters).
    index_line: String,
    /// The name and the description `skills_list` gives (up to 1024).
    full_line: String,
}

fn corpus_skills() -> Vec<CorpusSkill> {
    let corpus = repo().join("tests/corpus");
    skill_files(&corpus)
        .into_iter()
        .filter_map(|path| {
            let text = std::fs::read_to_string(&path).ok()?;
            let (fm, body) = frontmatter::parse(&text);
            let folder = path.parent()?.file_name()?.to_string_lossy().into_owned();
            let name = fm.get("name").map_or(folder, |n| n.py_str());
            let index_description = skill::prompt_description(&fm.fields);
            let full_description = skill::listing_description(&fm.fields, body).map(|d| d.py_str()).unwrap_or_default();
            let relative = path.strip_prefix(&corpus).unwrap_or(&path).parent()?.to_string_lossy().into_owned();
            Some(CorpusSkill {
                path: relative,
                index_line: format!("{name}: {index_description}"),
                full_line: format!("{name}: {full_description}"),
            })
        })
        .collect()
}

fn print_pairs(title: &str, skills: &[CorpusSkill], pairs: &[Similar], line: impl Fn(&CorpusSkill) -> &str) {
    println!("\n== {title}");
    for (rank, pair) in pairs.iter().enumerate() {
        let (a, b) = (&skills[pair.a], &skills[pair.b]);
        println!("{:>2}. {:.3}  {}  <>  {}", rank + 1, pair.score, a.path, b.path);
        println!("            {}", line(a));
        println!("            {}", line(b));
    }
}

/// The corpus' most similar index lines, printed, with the pairs the
/// threshold keeps: the near-duplicates among them, few others.
#[test]
fn similar_corpus_top_pairs() {
    let skills = corpus_skills();
    assert_eq!(skills.len(), 223, "the corpus holds 223 skills");

    let index_docs: Vec<Document> = skills.iter().map(|s| Document { name: &s.path, text: &s.index_line }).collect();
    let index = SimilarityIndex::build(&index_docs);
    // SIMILAR_TOP=n shows more of the ranking.
    let shown = std::env::var("SIMILAR_TOP").ok().and_then(|n| n.parse().ok()).unwrap_or(30);
    let top: Vec<Similar> = index.pairs_above(0.0).into_iter().take(shown).collect();
    print_pairs(&format!("index lines (name + 60-character description): top {shown}"), &skills, &top, |s| {
        &s.index_line
    });
    let flagged = index.pairs_above(CONFUSABLE_THRESHOLD);
    println!("\n{} pairs at or above CONFUSABLE_THRESHOLD = {CONFUSABLE_THRESHOLD}", flagged.len());
    let is_flagged = |a: &str, b: &str| {
        flagged.iter().any(|p| {
            let (x, y) = (skills[p.a].path.as_str(), skills[p.b].path.as_str());
            (x, y) == (a, b) || (y, x) == (a, b)
        })
    };
    // Near-duplicates and real overlaps the agent may confuse ...
    for (a, b) in [
        ("anthropic/skill-creator", "superpowers/writing-skills"),
        (
            "hermes/optional-skills/software-development/subagent-driven-development",
            "superpowers/subagent-driven-development",
        ),
        ("superpowers/receiving-code-review", "superpowers/requesting-code-review"),
        ("hermes/skills/github/github-code-review", "openai/.curated/gh-address-comments"),
        ("hermes/skills/productivity/nano-pdf", "hermes/skills/productivity/ocr-and-documents"),
        ("vercel/deploy-to-vercel", "vercel/vercel-cli-with-tokens"),
        ("hermes/skills/apple/apple-notes", "hermes/skills/note-taking/obsidian"),
    ] {
        assert!(is_flagged(a, b), "{a} <> {b} should be flagged");
    }
    // ... but not pairs that share a product name and little else.
    assert!(!is_flagged("hermes/skills/autonomous-ai-agents/codex", "openai/.system/skill-installer"));
    // About one pair in a thousand.
    assert!((20..=30).contains(&flagged.len()), "{} pairs flagged", flagged.len());

    let full_docs: Vec<Document> = skills.iter().map(|s| Document { name: &s.path, text: &s.full_line }).collect();
    let full = SimilarityIndex::build(&full_docs);
    let top_full: Vec<Similar> = full.pairs_above(0.0).into_iter().take(shown).collect();
    print_pairs(&format!("whole descriptions (for comparison): top {shown}"), &skills, &top_full, |s| &s.full_line);
}

/// Name and description lines of a generated benchmark home, read from the
/// frontmatter lines `gen_skills.py` writes.
fn bench_home_texts(size: usize) -> Option<Vec<String>> {
    let home = repo().join(format!("target/bench-homes/{size}"));
    let files = skill_files(&home.join("skills"));
    if files.len() < size {
        return None;
    }
    let texts = files
        .iter()
        .filter_map(|path| {
            let text = std::fs::read_to_string(path).ok()?;
            let field = |key: &str| {
                text.lines().find_map(|line| line.strip_prefix(key)).map(|v| v.trim().trim_matches('"').to_owned())
            };
            Some(format!("{}: {}", field("name: ")?, field("description: ")?))
        })
        .collect();
    Some(texts)
}

/// `count` descriptions of 14 words drawn by Zipf's law (as words are in
/// real text) from 30,000, one in fifty a near copy of an earlier one: a set
/// with rare words and short lists, unlike the 37-word benchmark homes,
/// where every word is in a third of the descriptions.
fn zipf_texts(count: usize) -> Vec<String> {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let vocabulary = 30_000f64;
    let mut texts: Vec<String> = Vec::with_capacity(count);
    for i in 0..count {
        let mut words: Vec<String> = Vec::new();
        for _ in 0..14 {
            let u = (next() % 1_000_000) as f64 / 1_000_000.0;
            let rank = (u * vocabulary.ln()).exp() as u64;
            words.push(format!("word{rank}x"));
        }
        if i > 0 && next() % 50 == 0 {
            let original = (next() % i as u64) as usize;
            let mut copy: Vec<&str> = texts[original].split(' ').collect();
            copy.truncate(12);
            texts.push(format!("{} {} {}", copy.join(" "), words[0], words[1]));
        } else {
            texts.push(words.join(" "));
        }
    }
    texts
}

/// The best of three runs of build and `pairs_above(CONFUSABLE_THRESHOLD)`.
fn time_pair_search(label: &str, texts: &[String]) {
    let docs: Vec<Document> = texts.iter().map(|text| Document { name: "", text }).collect();
    let (mut best_build, mut best_pairs) = (Duration::MAX, Duration::MAX);
    let mut found = 0;
    for _ in 0..3 {
        let started = Instant::now();
        let index = SimilarityIndex::build(&docs);
        let built = Instant::now();
        let pairs = index.pairs_above(CONFUSABLE_THRESHOLD);
        let searched = Instant::now();
        best_build = best_build.min(built - started);
        best_pairs = best_pairs.min(searched - built);
        found = pairs.len();
    }
    println!(
        "{label:<34} {:>7} docs  build {:>7.1} ms  pairs_above {:>7.1} ms  total {:>7.1} ms  ({found} pairs)",
        texts.len(),
        best_build.as_secs_f64() * 1e3,
        best_pairs.as_secs_f64() * 1e3,
        (best_build + best_pairs).as_secs_f64() * 1e3,
    );
}

/// Build and pair search on the 10,000- and 100,000-skill benchmark homes
/// and on Zipf-distributed text of the same sizes; run in release.
#[test]
#[ignore = "a benchmark: run with --release --ignored --nocapture"]
fn similar_bench_pair_search() {
    for size in [10_000, 100_000] {
        match bench_home_texts(size) {
            Some(texts) => time_pair_search(&format!("bench home {size}"), &texts),
            None => println!(
                "target/bench-homes/{size} is missing: python3 benches/gen_skills.py target/bench-homes/{size} {size}"
            ),
        }
        time_pair_search(&format!("zipf text {size}"), &zipf_texts(size));
    }
}
