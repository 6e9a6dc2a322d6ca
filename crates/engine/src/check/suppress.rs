//! Suppressions where a finding stands, as markdownlint writes them in
//! markdown and as YAML comments elsewhere:
//!
//! ```text
//! <!-- skillscope-disable-next-line H024 S003 -->
//! <!-- skillscope-disable H026 -->  …  <!-- skillscope-enable H026 -->
//! # skillscope-disable-next-line H014      (frontmatter, YAML and TOML files)
//! ```
//!
//! A disable without its enable runs to the end of the file, and then also
//! covers the file's findings that have no line. Rules are named by code or
//! name; codes are the safe choice in HTML comments, where Hermes' guard
//! flags words such as "ignore", "override", "secret" and "hidden"
//! (`html_comment_injection`), which some rule names hold.

use super::select::Selector;
use crate::diagnostics::rules::RuleRef;
use std::path::Path;

const NEXT_LINE: &str = "skillscope-disable-next-line";
const DISABLE: &str = "skillscope-disable";
const ENABLE: &str = "skillscope-enable";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    NextLine,
    Disable,
    Enable,
}

/// One name in a directive: what it stands for (`None`: no rule), and
/// whether it suppressed something.
#[derive(Debug, Clone)]
struct Name {
    text: String,
    selector: Option<Selector>,
    used: bool,
}

#[derive(Debug, Clone)]
struct Directive {
    kind: Kind,
    line: usize,
    column: usize,
    /// No names: every rule.
    names: Vec<Name>,
    any_used: bool,
}

/// A directive, or one of its names, that suppressed nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unused {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

/// The suppression directives of one file.
#[derive(Debug, Clone, Default)]
pub struct Suppressions {
    directives: Vec<Directive>,
}

/// How a file may hold directives, by its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Syntax {
    /// HTML comments, and `#` comments inside the frontmatter.
    Markdown,
    /// `#` comments.
    Hash,
}

impl Syntax {
    pub fn of(path: &Path) -> Option<Syntax> {
        let name = path.file_name()?.to_string_lossy().to_ascii_lowercase();
        if name.ends_with(".md") {
            Some(Syntax::Markdown)
        } else if [".yaml", ".yml", ".toml"].iter().any(|e| name.ends_with(e)) {
            Some(Syntax::Hash)
        } else {
            None
        }
    }
}

impl Suppressions {
    pub fn parse(text: &str, syntax: Syntax) -> Suppressions {
        let mut directives = Vec::new();
        if !text.contains("skillscope-") {
            return Suppressions { directives };
        }
        let frontmatter_end = match syntax {
            Syntax::Markdown => crate::frontmatter::split(text)
                .map(|_| text.split('\n').skip(1).position(|l| l.trim_end() == "---").map_or(0, |i| i + 2)),
            Syntax::Hash => None,
        };
        for (i, line) in text.split('\n').enumerate() {
            let number = i + 1;
            let hash_allowed = match syntax {
                Syntax::Hash => true,
                Syntax::Markdown => frontmatter_end.is_some_and(|end| number > 1 && number < end),
            };
            let mut at = 0;
            while let Some(found) = line[at..].find("skillscope-") {
                let start = at + found;
                at = start + 1;
                let before = line[..start].trim_end();
                let (comment_open, rest) = if before.ends_with("<!--") {
                    (true, &line[start..])
                } else if hash_allowed && before.ends_with('#') {
                    (false, &line[start..])
                } else {
                    continue;
                };
                let body = if comment_open { rest.split("-->").next().unwrap_or(rest) } else { rest };
                let mut words = body.split_whitespace();
                let kind = match words.next() {
                    Some(NEXT_LINE) => Kind::NextLine,
                    Some(DISABLE) => Kind::Disable,
                    Some(ENABLE) => Kind::Enable,
                    _ => continue,
                };
                let names = words
                    .flat_map(|w| w.split(','))
                    .filter(|w| !w.is_empty())
                    .map(|w| Name { text: w.to_owned(), selector: Selector::parse(w).ok(), used: false })
                    .collect();
                let column = line[..before.len()].trim_end_matches(['<', '!', '-', '#']).chars().count() + 1;
                directives.push(Directive { kind, line: number, column, names, any_used: false });
            }
        }
        Suppressions { directives }
    }

    pub fn is_empty(&self) -> bool {
        self.directives.is_empty()
    }

    /// Whether a finding of `rule` on `line` (none: the whole file) is
    /// suppressed; the directive that does it counts as used.
    pub fn suppresses(&mut self, rule: &RuleRef, line: Option<usize>) -> bool {
        // The directive in force for this rule: the last disable or enable
        // before the line (or anywhere, for a finding without one).
        let mut block: Option<(usize, usize)> = None;
        for (d, directive) in self.directives.iter().enumerate() {
            if line.is_some_and(|l| directive.line >= l) {
                break;
            }
            if directive.kind == Kind::NextLine {
                continue;
            }
            if let Some(n) = name_for(directive, rule) {
                block = (directive.kind == Kind::Disable).then_some((d, n));
            }
        }
        let next_line = line.and_then(|l| {
            self.directives
                .iter()
                .enumerate()
                .filter(|(_, d)| d.kind == Kind::NextLine && d.line + 1 == l)
                .find_map(|(i, d)| name_for(d, rule).map(|n| (i, n)))
        });
        let Some((d, n)) = next_line.or(block) else { return false };
        let directive = &mut self.directives[d];
        directive.any_used = true;
        if n < directive.names.len() {
            directive.names[n].used = true;
        }
        true
    }

    /// Directives and names that suppressed nothing (an enable counts
    /// when it closes a disable of its rule).
    pub fn unused(&self) -> Vec<Unused> {
        let mut out = Vec::new();
        for d in self.directives.iter().filter(|d| d.kind != Kind::Enable) {
            let form = match d.kind {
                Kind::NextLine => NEXT_LINE,
                _ => DISABLE,
            };
            if d.names.is_empty() {
                if !d.any_used {
                    let message = format!("`{form}` suppresses nothing: no finding where it applies");
                    out.push(Unused { line: d.line, column: d.column, message });
                }
                continue;
            }
            for name in d.names.iter().filter(|n| !n.used) {
                let message = match &name.selector {
                    None => format!("`{form} {}` names no rule", name.text),
                    Some(_) => format!("`{form} {}` suppresses nothing: no such finding where it applies", name.text),
                };
                out.push(Unused { line: d.line, column: d.column, message });
            }
        }
        out
    }
}

/// The index of the name in `directive` that covers `rule` (its length
/// when the directive names no rule, and so covers every one).
fn name_for(directive: &Directive, rule: &RuleRef) -> Option<usize> {
    if directive.names.is_empty() {
        return Some(0);
    }
    directive.names.iter().position(|n| n.selector.as_ref().is_some_and(|s| s.matches(rule)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostics::rules;

    fn rule(name: &str) -> &'static RuleRef {
        rules::lookup(name).expect("rule")
    }

    #[test]
    fn next_line_blocks_and_unused() {
        let template = rules::code_of("hermes-unknown-template").expect("code");
        let text = format!(
            "---\nname: x\n# skillscope-disable-next-line S003\ndescription: d\n---\n\
             <!-- skillscope-disable-next-line {template} -->\nuse ${{SKILL_DIR}}\n\
             <!-- skillscope-disable hermes-missing-file -->\n`a.md`\n`b.md`\n<!-- skillscope-enable hermes-missing-file -->\n\
             `c.md`\n<!-- skillscope-disable-next-line nosuch S001 -->\nplain\n"
        );
        let mut s = Suppressions::parse(&text, Syntax::Markdown);
        assert!(s.suppresses(rule("spec-name-folder"), Some(4)), "a frontmatter comment");
        assert!(s.suppresses(rule("hermes-unknown-template"), Some(7)));
        assert!(!s.suppresses(rule("hermes-unknown-template"), Some(9)), "only the next line");
        assert!(
            s.suppresses(rule("hermes-missing-file"), Some(9)) && s.suppresses(rule("hermes-missing-file"), Some(10))
        );
        assert!(!s.suppresses(rule("hermes-missing-file"), Some(12)), "after the enable");
        let unused = s.unused();
        assert_eq!(unused.len(), 2, "{unused:?}");
        assert!(
            unused[0].message.contains("`nosuch` names no rule") || unused[0].message.contains("nosuch"),
            "{unused:?}"
        );
        assert!(unused.iter().all(|u| u.line == 13), "{unused:?}");
    }

    #[test]
    fn an_open_disable_covers_the_rest_and_lineless_findings() {
        let text = "# a\n<!-- skillscope-disable H026 -->\nx\n";
        let mut s = Suppressions::parse(text, Syntax::Markdown);
        assert!(s.suppresses(rule("hermes-unlinked-file"), None));
        assert!(s.suppresses(rule("hermes-unlinked-file"), Some(300)));
        assert!(!s.suppresses(rule("hermes-unlinked-file"), Some(1)), "not before it");
        let none = "# skillscope-disable-next-line H026\nx\n";
        assert!(Suppressions::parse(none, Syntax::Markdown).is_empty(), "a heading in the body is no comment");
        assert!(!Suppressions::parse(none, Syntax::Hash).is_empty());
    }
}
