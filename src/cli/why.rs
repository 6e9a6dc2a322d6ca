//! `skillscope why NAME`: Hermes' pipeline for one skill, step by step.

use super::output::{print_json, Out};
use super::prompt::IndexArgs;
use super::{EXIT_ANSWER_ERROR, EXIT_OK};
use crate::engine::why::{self, Lookup, Outcome, Trace, WhyInputs};
use crate::engine::Engine;
use crate::sanitize::clean_line;
use std::io;

pub fn run(engine: &Engine, query: &str, index: &IndexArgs, json: bool, out: &mut Out) -> io::Result<i32> {
    let request = index.request(engine);
    let built = match engine.prompt_index(&request) {
        Ok(built) => built,
        Err(e) => {
            eprintln!("skillscope: Hermes fails to build the skills index: {e}");
            return Ok(EXIT_ANSWER_ERROR);
        }
    };
    let catalog = engine.catalog();
    let found = match why::lookup(&catalog, &built, query) {
        Lookup::Found(found) => found,
        Lookup::Unknown { closest } => {
            let hint = if closest.is_empty() {
                String::new()
            } else {
                format!(" (closest: {})", closest.iter().map(|n| clean_line(n)).collect::<Vec<_>>().join(", "))
            };
            eprintln!("skillscope: no skill is named `{}`{hint}", clean_line(query));
            return Ok(EXIT_ANSWER_ERROR);
        }
    };
    let inputs = WhyInputs { engine, catalog: &catalog, index: &built, context: None };
    let trace = inputs.trace(found[0], &found);
    if json {
        print_json(out, &trace.to_json())?;
    } else {
        write_text(&trace, out)?;
    }
    Ok(EXIT_OK)
}

fn mark(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Pass => "✓",
        Outcome::Fail => "✗",
        Outcome::Note => "·",
    }
}

fn write_text(trace: &Trace, out: &mut Out) -> io::Result<()> {
    let verdict = if trace.offered {
        "offered to the agent".to_owned()
    } else {
        match trace.steps.iter().find(|s| s.step == "index") {
            Some(s) => format!("not offered ({})", s.detail),
            None => "not offered".to_owned(),
        }
    };
    writeln!(out, "{}: {}", clean_line(&trace.name), clean_line(&verdict))?;
    writeln!(out, "  {}", clean_line(&trace.skill_md.display().to_string()))?;
    for step in &trace.steps {
        let place = match (&step.file, step.line) {
            (Some(file), Some(line)) => format!(", {}:{line}", file.display()),
            (Some(file), None) if file != &trace.skill_md => format!(", {}", file.display()),
            _ => String::new(),
        };
        writeln!(
            out,
            "  {} {:<12} {}  [{}{}]",
            mark(step.outcome),
            step.step,
            clean_line(&step.detail),
            step.function,
            clean_line(&place)
        )?;
    }
    Ok(())
}
