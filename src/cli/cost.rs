//! `skillscope cost`: what the skills cost the agent's prompt.

use super::output::{fit, pad, print_serialized, Out};
use super::prompt::IndexArgs;
use super::{EXIT_ANSWER_ERROR, EXIT_OK};
use crate::engine::cost::{CostReport, CostRequest, Size, Tokenizer};
use crate::engine::posture::NON_CODING_CATEGORIES;
use crate::engine::words::thousands;
use crate::engine::Engine;
use crate::sanitize::clean_line;
use std::collections::BTreeSet;
use std::io;
use unicode_width::UnicodeWidthStr;

/// The widest a name column grows: a longer name is cut with `…`.
const NAME_WIDTH: usize = 48;

/// Skills and categories the text output lists.
const SHOWN: usize = 15;

pub fn parse_tokenizer(s: &str) -> Result<Tokenizer, String> {
    Tokenizer::parse(s).ok_or_else(|| {
        let names: Vec<&str> = Tokenizer::ALL.iter().map(|t| t.name()).collect();
        format!("unknown tokenizer `{s}` (one of {})", names.join(", "))
    })
}

pub fn run(
    engine: &Engine,
    index: &IndexArgs,
    tokenizer: Tokenizer,
    loaded: bool,
    json: bool,
    out: &mut Out,
) -> io::Result<i32> {
    let request = CostRequest { index: index.request(engine), tokenizer, loaded };
    let (built, report) = match engine.index_and_cost(&request) {
        Ok(both) => both,
        Err(e) => {
            eprintln!("skillscope: Hermes fails to build the skills index: {e}");
            return Ok(EXIT_ANSWER_ERROR);
        }
    };
    if json {
        print_serialized(out, &report)?;
        return Ok(EXIT_OK);
    }
    let focus: BTreeSet<String> = NON_CODING_CATEGORIES.iter().map(|c| (*c).to_owned()).collect();
    let focused = built.demoted(&focus).render();
    write_text(&report, Size::of(&focused, tokenizer), out)?;
    Ok(EXIT_OK)
}

fn size(s: &Size) -> String {
    format!("{} chars, {} tokens", thousands(s.chars), thousands(s.tokens))
}

fn write_text(report: &CostReport, focused: Size, out: &mut Out) -> io::Result<()> {
    let offered = report.skills.iter().filter(|s| s.offered).count();
    let tok = report.tokenizer.name();
    if report.index.chars == 0 {
        writeln!(out, "The skills index is empty: Hermes adds nothing to the prompt for skills.")?;
    } else {
        writeln!(
            out,
            "Skills index: {} ({} bytes; tokens by {tok}), {offered} skill{} offered",
            size(&report.index),
            thousands(report.index.bytes),
            if offered == 1 { "" } else { "s" }
        )?;
        writeln!(out, "  of which the instructions around the list: {}", size(&report.frame))?;
    }
    if !report.compact.is_empty() {
        // The categories of this index the posture shows names-only.
        let here = |c: &&String| {
            report.categories.iter().any(|k| k.category == **c || k.category.starts_with(&format!("{c}/")))
        };
        let shown: Vec<&str> = report.compact.iter().filter(here).map(String::as_str).collect();
        match shown.is_empty() {
            true => writeln!(out, "  names only: none of this index's categories")?,
            false => writeln!(out, "  names only: {}", shown.join(", "))?,
        }
    }
    if !report.categories.is_empty() {
        writeln!(out, "\nCategories, most tokens first:")?;
        let width = report
            .categories
            .iter()
            .take(SHOWN)
            .map(|c| clean_line(&c.category).width())
            .max()
            .unwrap_or(0)
            .min(NAME_WIDTH);
        let biggest = report.categories.first().map_or(1, |c| c.size.tokens.max(1));
        for c in report.categories.iter().take(SHOWN) {
            let bar = "█".repeat((c.size.tokens * 20).div_ceil(biggest).min(20));
            let names_only = if c.demoted { " (names only)" } else { "" };
            writeln!(
                out,
                "  {}  {:>4} skill{}  {:>8} chars  {:>7} tokens  {bar}{names_only}",
                pad(&fit(&clean_line(&c.category), width), width),
                c.skills,
                if c.skills == 1 { " " } else { "s" },
                thousands(c.size.chars),
                thousands(c.size.tokens),
            )?;
        }
        if report.categories.len() > SHOWN {
            writeln!(out, "  … {} more (--json lists them all)", report.categories.len() - SHOWN)?;
        }
    }
    let offered_skills: Vec<_> = report.skills.iter().filter(|s| s.offered).collect();
    if !offered_skills.is_empty() {
        writeln!(out, "\nSkills, most tokens in the index first:")?;
        let width =
            offered_skills.iter().take(SHOWN).map(|s| clean_line(&s.name).width()).max().unwrap_or(0).min(NAME_WIDTH);
        // With --loaded the category is a column too, its costs lined up after it.
        let category_width = match offered_skills.iter().any(|s| s.loaded.is_some()) {
            true => offered_skills.iter().take(SHOWN).map(|s| clean_line(&s.category).width()).max().unwrap_or(0),
            false => 0,
        };
        for s in offered_skills.iter().take(SHOWN) {
            let loaded = match &s.loaded {
                Some(l) if l.error.is_some() => "   loaded: skill_view fails".to_owned(),
                Some(l) => {
                    let message = l.message.map_or(String::new(), |m| {
                        format!(", /{}: {} tokens", clean_line(&s.name), thousands(m.tokens))
                    });
                    format!("   loaded: {} tokens{message}", thousands(l.view.tokens))
                }
                None => String::new(),
            };
            writeln!(
                out,
                "  {}  {:>6} chars  {:>5} tokens  {}{loaded}",
                pad(&fit(&clean_line(&s.name), width), width),
                thousands(s.index.chars),
                thousands(s.index.tokens),
                pad(&clean_line(&s.category), category_width),
            )?;
        }
        if offered_skills.len() > SHOWN {
            writeln!(out, "  … {} more (--json lists them all)", offered_skills.len() - SHOWN)?;
        }
    }
    let not_offered = report.skills.len() - offered;
    if not_offered > 0 {
        writeln!(
            out,
            "\n{not_offered} skill{} not in the index (`skillscope why NAME` says why).",
            if not_offered == 1 { " is" } else { "s are" }
        )?;
    }
    if focused.chars < report.index.chars {
        writeln!(
            out,
            "\nThe focus posture (agent.coding_context: focus, in a code workspace) shows non-coding categories names-only: the index would be {}: {} chars and {} tokens less.",
            size(&focused).replacen(", ", " and ", 1),
            thousands(report.index.chars - focused.chars),
            thousands(report.index.tokens.saturating_sub(focused.tokens)),
        )?;
    }
    Ok(())
}
