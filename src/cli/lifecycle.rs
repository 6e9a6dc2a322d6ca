//! `skillscope lifecycle`: where each skill came from, its usage, and what
//! the curator's next pass would do to it.

use super::output::Out;
use super::{EXIT_OK, EXIT_USAGE};
use crate::engine::isotime;
use crate::engine::words::count_s;
use crate::engine::Engine;
use crate::sanitize::clean_line;
use std::io;

/// `--now`: an ISO 8601 time (a time without a zone is UTC).
pub fn parse_now(s: &str) -> Result<isotime::Micros, String> {
    isotime::parse(s)
        .ok_or_else(|| format!("not an ISO 8601 time: '{s}' (e.g. 2027-01-31 or 2027-01-31T12:00:00+00:00)"))
}

pub fn run(
    engine: &Engine,
    name: Option<&str>,
    now: Option<isotime::Micros>,
    json: bool,
    out: &mut Out,
) -> io::Result<i32> {
    let mut life = engine.lifecycle(now.unwrap_or_else(isotime::now));
    for p in &life.problems {
        eprintln!("skillscope: {}", clean_line(p));
    }
    if let Some(name) = name {
        life.skills.retain(|s| s.name == name);
        life.archived.retain(|a| a.name == name || a.skill_name.as_deref() == Some(name));
        if life.skills.is_empty() && life.archived.is_empty() {
            eprintln!("skillscope: no skill named {name}");
            return Ok(EXIT_USAGE);
        }
    }
    if json {
        serde_json::to_writer_pretty(&mut *out, &life)?;
        writeln!(out)?;
        return Ok(EXIT_OK);
    }
    let c = &life.curator;
    let due = if c.due { "due now" } else { "not due" };
    writeln!(out, "Curator at {}: {due} ({})", life.now, c.why)?;
    writeln!(
        out,
        "  stale after {}, archived after {}, built-ins {}",
        count_s(c.config.stale_after_days, "day"),
        count_s(c.config.archive_after_days, "day"),
        if c.config.prune_builtins { "pruned too" } else { "left alone" }
    )?;
    for s in &life.skills {
        let pin = if s.pinned { ", pinned" } else { "" };
        let activity = s.last_activity.as_deref().unwrap_or("never");
        writeln!(out)?;
        let managed = match (s.eligible, s.curation_eligible) {
            (true, _) => ", curator-managed",
            (false, true) => ", eligible but not managed",
            (false, false) => ", not eligible",
        };
        writeln!(
            out,
            "{} ({}{pin}{}{managed})",
            clean_line(&s.name),
            clean_line(&s.state),
            if s.external { ", external" } else { "" },
        )?;
        // Hermes calls all that is neither bundled nor from a hub `agent`:
        // said, so that the finer reading beside it does not seem to
        // contradict it.
        let provenance = match s.provenance {
            "agent" => "agent (Hermes' provenance(): neither bundled nor from a hub)".to_owned(),
            other => format!("{other} (Hermes' provenance())"),
        };
        writeln!(out, "  provenance {provenance}; our reading: {}", clean_line(&s.origin()))?;
        writeln!(
            out,
            "  used {}, viewed {}, patched {}; last activity {}",
            s.use_count,
            s.view_count,
            s.patch_count,
            clean_line(activity)
        )?;
        let next = match (s.next, s.due.as_deref()) {
            ("none", Some(due)) => format!("nothing now; the next change is due {due}"),
            ("none", None) => "nothing".to_owned(),
            (next, Some(due)) => format!("{next}, due {due}"),
            (next, None) => next.to_owned(),
        };
        writeln!(out, "  next pass: {next}: {}", clean_line(&s.why))?;
    }
    if !life.archived.is_empty() {
        writeln!(out)?;
        writeln!(out, "Archived (skills/.archive/):")?;
        for a in &life.archived {
            let at = a.archived_at.as_deref().map(|t| format!(" (archived {})", clean_line(t))).unwrap_or_default();
            match &a.restore_refused {
                None => writeln!(out, "  {}{at}  restore: {}", clean_line(&a.name), clean_line(&a.restore))?,
                Some(why) => writeln!(out, "  {}{at}  restore refused: {}", clean_line(&a.name), clean_line(why))?,
            }
            if a.suppressed {
                writeln!(out, "    suppressed: `hermes update` does not re-seed it")?;
            }
        }
    }
    Ok(EXIT_OK)
}
