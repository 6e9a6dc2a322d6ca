//! The external programs the browser hands the terminal to: the editor
//! and the pager. Each runs in the foreground while the browser is
//! suspended; what went wrong becomes the status line's notice.

use super::editor::{self, EditorCommand};
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};

/// Why the editor or the pager did not run to a clean exit.
#[derive(Debug, thiserror::Error)]
pub enum LaunchError {
    #[error(transparent)]
    Editor(#[from] editor::SpecError),
    #[error("cannot parse the {role} command {spec:?}: {reason}")]
    Unparsable { role: &'static str, spec: String, reason: String },
    #[error("no {0} command")]
    Empty(&'static str),
    #[error("cannot start {role} {program}: {source} (set {hint})")]
    Start { role: &'static str, program: String, source: std::io::Error, hint: &'static str },
    #[error("{role} {program} exited with {status}")]
    Failed { role: &'static str, program: String, status: ExitStatus },
    #[error("{role} {program}: {source}")]
    Wait { role: &'static str, program: String, source: std::io::Error },
}

/// Shows text in `$PAGER` (default `less -R`), fed on its standard input.
pub fn open_pager(configured: Option<&str>, text: &str) -> Result<(), LaunchError> {
    use std::io::Write;
    const ROLE: &str = "pager";
    let spec = configured
        .map(str::to_owned)
        .or_else(|| std::env::var("PAGER").ok())
        .filter(|p| !p.trim().is_empty())
        .unwrap_or_else(|| "less -R".into());
    let words = shell_words::split(&spec).map_err(|e| LaunchError::Unparsable {
        role: ROLE,
        spec: spec.clone(),
        reason: e.to_string(),
    })?;
    let (program, args) = words.split_first().ok_or(LaunchError::Empty(ROLE))?;
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .spawn()
        .map_err(|source| LaunchError::Start { role: ROLE, program: program.clone(), source, hint: "$PAGER" })?;
    if let Some(mut stdin) = child.stdin.take() {
        // A pager quit early closes the pipe: not an error.
        let _ = stdin.write_all(text.as_bytes());
    }
    child.wait().map_err(|source| LaunchError::Wait { role: ROLE, program: program.clone(), source })?;
    Ok(())
}

/// Runs the editor in the foreground: the command it ran (which says
/// whether the line was passed), or why it failed.
pub fn open_editor(configured: Option<&str>, path: &Path, line: usize) -> Result<EditorCommand, LaunchError> {
    const ROLE: &str = "editor";
    let spec = configured.map(str::to_owned).or_else(editor::from_env);
    let command = editor::command(spec.as_deref(), path, line)?;
    let (program, args) = command.words.split_first().ok_or(LaunchError::Empty(ROLE))?;
    let shown = program.to_string_lossy().into_owned();
    match Command::new(program).args(args).status() {
        Ok(status) if status.success() => Ok(command),
        Ok(status) => Err(LaunchError::Failed { role: ROLE, program: shown, status }),
        Err(source) => Err(LaunchError::Start { role: ROLE, program: shown, source, hint: "$VISUAL or $EDITOR" }),
    }
}
