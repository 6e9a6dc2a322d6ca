//! Rules on the body and the skill folder: inline shell, templates,
//! injection phrases, referenced files, support files, symlinks.

use super::{relative, Finding, Sink};
use crate::catalog::CatalogSkill;
use crate::frontmatter;
use crate::paths;
use crate::preprocess::inline_shell_snippets;
use crate::source::TextPositions;
use crate::view::linked_files_in;
use std::path::{Path, PathBuf};

/// Folder variables other agents substitute and Hermes does not.
const FOREIGN_TEMPLATES: [&str; 5] =
    ["SKILL_DIR", "SKILL_ROOT", "CLAUDE_SKILL_DIR", "CLAUDE_PLUGIN_ROOT", "SKILL_PATH"];

/// Rules on the text of a SKILL.md; `flagged` holds the lines the guard's
/// one pass flagged in it ([`super::guard::Scanned`]), `files` its
/// folder's `rglob("*")`.
pub(super) fn check(skill: &CatalogSkill, text: &str, flagged: &[usize], files: &[paths::TreeFile], sink: &mut Sink) {
    let body_offset = text.len() - frontmatter::body(text).len();
    let positions = TextPositions::new(text);
    for (range, cmd) in inline_shell_snippets(text) {
        let message = format!("!`{cmd}` runs on the host only when skills.inline_shell is enabled");
        sink.add_at("hermes-inline-shell", &positions, range.start, message);
    }
    check_templates(text, &positions, sink);
    check_injection_phrases(text, &positions, flagged, sink);
    check_references(skill, text, &positions, body_offset, files, sink);
    super::index_rules::check_body(text, sink);
}

/// The phrases skill_view warns about, looked for in the lowercased text,
/// on the lines the guard's pass flagged: its case-insensitive match of each
/// phrase finds every line whose lowercased form holds one (no character
/// lowercases into an ASCII letter it does not also fold to, but `İ`,
/// whose `i̇` no phrase can hold).
fn check_injection_phrases(text: &str, positions: &TextPositions, flagged: &[usize], sink: &mut Sink) {
    for &start in flagged {
        let line = text[start..].split('\n').next().unwrap_or_default();
        let lower = line.to_lowercase();
        if let Some(p) = crate::guard::patterns::INJECTION_PHRASES.iter().find(|p| lower.contains(*p)) {
            // Where the phrase is in the line (lowercasing may move bytes:
            // then the line's start).
            let at = if lower.len() == line.len() { lower.find(*p).unwrap_or(0) } else { 0 };
            sink.add_at("hermes-injection-phrase", positions, start + at, format!("contains `{p}`"));
        }
    }
}

fn check_templates(text: &str, positions: &TextPositions, sink: &mut Sink) {
    for start in memchr::memmem::find_iter(text.as_bytes(), "${") {
        let after = &text[start + 2..];
        // A name, then `}`: read no further (a text of `${` and no `}` was
        // read to its end from each).
        let end = after.bytes().take_while(|b| b.is_ascii_alphanumeric() || *b == b'_').count();
        if end == 0 || after.as_bytes().get(end) != Some(&b'}') {
            continue;
        }
        let name = &after[..end];
        let hermes_unknown = name.starts_with("HERMES_") && name != "HERMES_SKILL_DIR" && name != "HERMES_SESSION_ID";
        if hermes_unknown || FOREIGN_TEMPLATES.contains(&name) {
            let message = format!(
                "`${{{name}}}` stays literal; Hermes substitutes ${{HERMES_SKILL_DIR}} and ${{HERMES_SESSION_ID}} only"
            );
            sink.add_at("hermes-unknown-template", positions, start, message);
        }
    }
}

/// Characters no checkable path holds (besides `?` and a blank, which end
/// one where it is looked for).
const UNCHECKABLE: [char; 8] = ['<', '>', '{', '}', '*', '$', '|', '['];

/// A path-looking token is checked unless it holds placeholders or globs.
fn checkable(path: &str) -> bool {
    !path.is_empty()
        && !path.contains("://")
        && !path.starts_with('#')
        && !path.starts_with("mailto:")
        && !path.contains(UNCHECKABLE)
        && !path.contains(['?', ' '])
        && !path.starts_with('/')
        && !path.starts_with('~')
}

/// Whether the relative path `rel` leads out of the folder it is read
/// from (`../other/x.md`, `a/../../x`): such a reference is not one of the
/// skill's own files, as an absolute one is not, and this rule leaves it.
fn climbs_out(rel: &str) -> bool {
    paths::lexical_within(Path::new(rel)).is_none()
}

fn trim_path(p: &str) -> &str {
    let p = p.split(['#', '?']).next().unwrap_or(p);
    p.trim_end_matches(['.', ',', ';', ':', ')', '\'', '"', '`'])
}

/// Byte ranges of fenced code blocks.
fn fenced_ranges(body: &str) -> Vec<std::ops::Range<usize>> {
    let mut ranges = Vec::new();
    let mut open: Option<(usize, &str)> = None;
    let mut offset = 0;
    for line in body.split_inclusive('\n') {
        let t = line.trim_start();
        let fence = &t[..t.bytes().take_while(|b| matches!(b, b'`' | b'~')).count()];
        if fence.len() >= 3 {
            match open {
                None => open = Some((offset, fence)),
                Some((start, f)) if fence.starts_with(f) && t.trim() == fence => {
                    ranges.push(start..offset + line.len());
                    open = None;
                }
                _ => {}
            }
        }
        offset += line.len();
    }
    if let Some((start, _)) = open {
        ranges.push(start..body.len());
    }
    ranges
}

/// How far a path is looked for after where it starts: longer than any
/// path a system takes, so that a text of openings with no end is not read
/// to its end from each.
const PATH_LOOKED_AT_MOST: usize = 4096;

/// The start of `rest` a path may lie in ([`PATH_LOOKED_AT_MOST`]).
fn near(rest: &str) -> &str {
    &rest[..crate::source::floor_char_boundary(rest, PATH_LOOKED_AT_MOST)]
}

/// Files the body points at: markdown link targets and inline code naming a
/// file in an existing support folder (outside code blocks), and
/// `${HERMES_SKILL_DIR}/...` anywhere.
fn referenced_paths(body: &str, support_dirs: &[&str]) -> Vec<(usize, String)> {
    let code = fenced_ranges(body);
    // The ranges are in order and apart: found by halving, not one by one.
    let in_code = |at: usize| code.get(code.partition_point(|r| r.end <= at)).is_some_and(|r| r.contains(&at));
    let mut out = Vec::new();
    for at in memchr::memmem::find_iter(body.as_bytes(), "](").filter(|at| !in_code(*at)) {
        let rest = near(&body[at + 2..]);
        if let Some(end) = rest.find(')') {
            let target = rest[..end].split_whitespace().next().unwrap_or("");
            out.push((at, trim_path(target).to_owned()));
        }
    }
    for at in memchr::memmem::find_iter(body.as_bytes(), "${HERMES_SKILL_DIR}/") {
        let rest = near(&body[at + "${HERMES_SKILL_DIR}/".len()..]);
        // The token ends at a blank, quote or bracket; its path at `#` or
        // `?` ([`trim_path`]); a character no checkable path holds before
        // either leaves it unchecked, so the token is read no further.
        let stop = rest.find(|c: char| {
            c.is_whitespace() || matches!(c, '`' | '"' | '\'' | ')' | ']' | '#' | '?') || UNCHECKABLE.contains(&c)
        });
        if stop.and_then(|at| rest[at..].chars().next()).is_some_and(|c| UNCHECKABLE.contains(&c)) {
            continue;
        }
        out.push((at, trim_path(&rest[..stop.unwrap_or(rest.len())]).to_owned()));
    }
    for (at, _) in body.match_indices('`').filter(|(at, _)| !in_code(*at)) {
        let rest = &body[at + 1..];
        if let Some(end) = rest.find('`') {
            let code = &rest[..end];
            let in_support_dir = |d: &&str| code.strip_prefix(*d).is_some_and(|rest| rest.starts_with('/'));
            if support_dirs.iter().any(in_support_dir) {
                let token = code.split_whitespace().next().unwrap_or("");
                out.push((at, trim_path(token).to_owned()));
            }
        }
    }
    // A file reference has a folder or an extension (`url` is a placeholder).
    out.retain(|(_, p)| {
        checkable(p) && !p.ends_with('/') && !p.contains(['=', '"', '\'', '(']) && p.contains(['/', '.'])
    });
    out.sort();
    out.dedup_by(|a, b| a.1 == b.1);
    out
}

fn check_references(
    skill: &CatalogSkill,
    text: &str,
    positions: &TextPositions,
    body_offset: usize,
    files: &[paths::TreeFile],
    sink: &mut Sink,
) {
    let body = &text[body_offset..];
    let present: Vec<&str> = crate::discover::SUPPORT_DIRS
        .iter()
        .copied()
        .filter(|d| paths::is_dir_in(files, &skill.skill_dir, &skill.skill_dir.join(d)))
        .collect();
    for (at, rel) in referenced_paths(body, &present) {
        let path = paths::join(&skill.skill_dir, &rel);
        if climbs_out(&rel) || paths::exists_in(files, &skill.skill_dir, &path) {
            continue;
        }
        sink.add_at(
            "hermes-missing-file",
            positions,
            body_offset + at,
            format!("`{rel}` does not exist in the skill folder"),
        );
    }
}

/// Rules on the files of a skill folder.
/// `files` is the skill folder's `rglob("*")` ([`paths::rglob_all`]).
pub(super) fn check_files(
    skill: &CatalogSkill,
    files: &[paths::TreeFile],
    roots: &[PathBuf],
    findings: &mut Vec<Finding>,
) {
    let dir = &skill.skill_dir;
    let mut found: Vec<(PathBuf, &str, String)> = Vec::new();
    let linked = linked_files_in(dir, files).all();
    for sub in crate::discover::SUPPORT_DIRS {
        let root = dir.join(sub);
        if !paths::is_dir_in(files, dir, &root) {
            continue;
        }
        for file in files.iter().filter(|f| f.is_file && f.path.starts_with(&root)) {
            let rel = file.path.strip_prefix(dir).map(paths::rel_string).unwrap_or_default();
            if !linked.contains(&rel) {
                let msg = format!("`{rel}` is not in linked_files; the agent is not told about it");
                found.push((file.path.clone(), "hermes-unlinked-file", msg));
            }
        }
    }
    for link in files.iter().filter(|f| f.is_symlink).map(|f| f.path.clone()) {
        if !paths::exists(&link) {
            let said = crate::symlink::follow(&link).map(|l| l.describe()).unwrap_or_default();
            found.push((link, "hermes-dangling-symlink", said));
        } else {
            let msg = "reached through a symlink: missing inside docker, singularity, modal, ssh and daytona sandboxes";
            found.push((link, "hermes-symlink-sandbox", msg.to_owned()));
        }
    }
    for (path, rule, message) in found {
        let mut sink = Sink {
            findings,
            skill_md: Some(skill.skill_md.as_path().into()),
            skill_name: Some(skill.name.as_str().into()),
            rel_path: relative(&path, roots),
            path: path.into(),
            per_rule: Default::default(),
        };
        sink.add(rule, None, message);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lines holding a phrase, as skill_view finds them: in the whole text lowercased.
    fn phrase_lines(text: &str) -> Vec<usize> {
        let lower = text.to_lowercase();
        let hit = |(i, l): (usize, &str)| {
            crate::guard::patterns::INJECTION_PHRASES.iter().any(|p| l.contains(p)).then_some(i + 1)
        };
        lower.lines().enumerate().filter_map(hit).collect()
    }

    #[test]
    fn injection_phrases_are_found_on_every_line_lowercasing_finds_them() {
        let mut texts = vec![
            "plain\nIGNORE previous instructions\r\nyou are now\n".to_owned(),
            "x\nFor\u{212A}et your instructions\n\u{130}gnore all previous\nNEW INSTRUCTIONS: <SYSTEM>".to_owned(),
            "]]>".to_owned(),
            "ΣYSTEM PROMPT: you are\nnow".to_owned(),
        ];
        let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/corpus");
        texts.extend(
            paths::rglob_all(&corpus)
                .iter()
                .filter(|f| f.is_file)
                .filter_map(|f| std::fs::read_to_string(&f.path).ok()),
        );
        let mut found_lines = 0;
        for text in &texts {
            let flagged = crate::guard::patterns::scan_flagging(text).flagged;
            let mut findings = Vec::new();
            let mut sink = Sink {
                findings: &mut findings,
                skill_md: None,
                skill_name: None,
                rel_path: "".into(),
                path: std::path::Path::new("").into(),
                per_rule: Default::default(),
            };
            check_injection_phrases(text, &TextPositions::new(text), &flagged, &mut sink);
            let lines: Vec<usize> = findings.iter().filter_map(|f| f.line).collect();
            assert_eq!(lines, phrase_lines(text), "{text:.80?}");
            found_lines += lines.len();
        }
        assert!(found_lines >= 5, "{found_lines}");
    }

    #[test]
    fn a_reference_out_of_the_folder_is_not_the_folder_s_file() {
        for out in ["../b/x.md", "references/../../x.md", "./../x", ".."] {
            assert!(climbs_out(out), "{out}");
        }
        for inside in ["references/x.md", "references/../SKILL.md", "./a/./b", "a/b/../../c"] {
            assert!(!climbs_out(inside), "{inside}");
        }
    }

    #[test]
    fn references_found_and_filtered() {
        let body = "See [guide](references/guide.md#top) and [site](https://x.y).\nRun `scripts/run.sh --fast` and ${HERMES_SKILL_DIR}/templates/a.yaml.\n`scripts/*.py` and [x](<placeholder>) `references/` `assets/x.png`\n```py\nf(\"a\")(checkpoint=\"x.pth\") [y](in-code.md)\n```\n";
        let found: Vec<String> = referenced_paths(body, &["scripts"]).into_iter().map(|(_, p)| p).collect();
        assert_eq!(found, ["references/guide.md", "scripts/run.sh", "templates/a.yaml"]);
    }
}
