//! Opening a file in the user's editor at a line: `$VISUAL`, else
//! `$EDITOR`, else `vi`, split with shell-word rules, with each editor's
//! own way of taking a line number.

use crate::engine::layers::{timestamp, write_back, DbSkill, WriteBack};
use std::path::Path;

/// The command line to run: program and arguments.
pub fn command(editor: Option<&str>, file: &Path, line: usize) -> Result<Vec<String>, String> {
    let spec = editor.map(str::trim).filter(|e| !e.is_empty()).unwrap_or("vi");
    let mut words = shell_words::split(spec).map_err(|e| format!("cannot parse the editor command {spec:?}: {e}"))?;
    if words.is_empty() {
        words.push("vi".into());
    }
    let program = Path::new(&words[0]).file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let file = file.display().to_string();
    let line = line.max(1);
    match program.as_str() {
        "vi" | "vim" | "nvim" | "gvim" | "nano" | "emacs" | "emacsclient" | "kak" | "micro" | "lvim" | "mg" | "joe" => {
            words.push(format!("+{line}"));
            words.push(file);
        }
        "hx" | "helix" | "subl" | "sublime_text" | "zed" => words.push(format!("{file}:{line}")),
        "code" | "code-insiders" | "codium" | "cursor" => {
            words.push("--goto".into());
            words.push(format!("{file}:{line}"));
        }
        _ => words.push(file),
    }
    Ok(words)
}

/// Resolves the editor from the environment.
pub fn from_env() -> Option<String> {
    ["VISUAL", "EDITOR"].iter().find_map(|k| std::env::var(k).ok().filter(|v| !v.trim().is_empty()))
}

/// Edits a database skill: `edit` runs the editor on a temporary copy of the
/// row's content; a clean exit with changes writes the row back (see
/// [`write_back`]). Returns the notice to show.
pub fn edit_db_skill(row: &DbSkill, db: &Path, edit: impl FnOnce(&Path) -> Result<(), String>) -> String {
    let file = tempfile::Builder::new().prefix(&format!("skillscope-db-{}-", row.id)).suffix(".md").tempfile();
    let file = match file.and_then(|f| std::fs::write(f.path(), &row.content).map(|_| f)) {
        Ok(f) => f,
        Err(e) => return format!("cannot write a temporary copy of {}: {e}", row.name),
    };
    if let Err(e) = edit(file.path()) {
        return format!("{e}; database skill {} left as it was", row.name);
    }
    let edited = match std::fs::read_to_string(file.path()) {
        Ok(t) => t,
        Err(e) => return format!("cannot read the edited copy of {}: {e}", row.name),
    };
    match write_back(db, row, &edited, &timestamp()) {
        Ok(WriteBack::Unchanged) => format!("{}: no changes", row.name),
        Ok(WriteBack::Saved { .. }) => format!("Saved {} to {}", row.name, db.display()),
        Ok(WriteBack::Conflict { kept }) => format!(
            "{} changed in the database meanwhile: nothing overwritten; your edit is in {}",
            row.name,
            kept.display()
        ),
        // The edit must survive a failed write: keep the copy.
        Err(e) => match file.keep() {
            Ok((_, kept)) => format!("{} not saved: {e}; your edit is in {}", row.name, kept.display()),
            Err(k) => format!("{} not saved: {e}; the edited copy is lost: {k}", row.name),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmd(editor: Option<&str>) -> Vec<String> {
        command(editor, Path::new("/s/SKILL.md"), 7).expect("command")
    }

    #[test]
    fn presets() {
        assert_eq!(cmd(None), ["vi", "+7", "/s/SKILL.md"]);
        assert_eq!(cmd(Some("nvim")), ["nvim", "+7", "/s/SKILL.md"]);
        assert_eq!(cmd(Some("/usr/bin/hx")), ["/usr/bin/hx", "/s/SKILL.md:7"]);
        assert_eq!(cmd(Some("code --wait")), ["code", "--wait", "--goto", "/s/SKILL.md:7"]);
        assert_eq!(cmd(Some("'my editor' -x")), ["my editor", "-x", "/s/SKILL.md"]);
        assert_eq!(cmd(Some("emacs -nw")), ["emacs", "-nw", "+7", "/s/SKILL.md"]);
        assert!(command(Some("vim 'unclosed"), Path::new("f"), 1).is_err());
    }
}
