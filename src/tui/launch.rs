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
    #[error("cannot start {role} {program}: {source} ({hint})")]
    Start { role: &'static str, program: String, source: std::io::Error, hint: String },
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
    let mut child = Command::new(program).args(args).stdin(Stdio::piped()).spawn().map_err(|source| {
        LaunchError::Start { role: ROLE, program: program.clone(), source, hint: pager_hint(configured) }
    })?;
    let _interrupts = InterruptsIgnored::while_a_child_runs();
    if let Some(mut stdin) = child.stdin.take() {
        // A pager quit early closes the pipe: not an error.
        let _ = stdin.write_all(text.as_bytes());
    }
    child.wait().map_err(|source| LaunchError::Wait { role: ROLE, program: program.clone(), source })?;
    Ok(())
}

/// Where the editor that failed to start was named, and what to change.
fn editor_hint(configured: Option<&str>) -> String {
    let set = |k: &str| std::env::var(k).ok().filter(|v| !v.trim().is_empty()).is_some();
    match (configured.is_some(), set("VISUAL"), set("EDITOR")) {
        (true, ..) => "`editor` in skillscope's config.toml names it: point it at an installed editor".to_owned(),
        (false, true, _) => "$VISUAL names it: point it at an installed editor".to_owned(),
        (false, false, true) => "$EDITOR names it: point it at an installed editor".to_owned(),
        (false, false, false) => "the default: set $VISUAL or $EDITOR".to_owned(),
    }
}

/// Where the pager that failed to start was named, and what to change.
fn pager_hint(configured: Option<&str>) -> String {
    let from_env = std::env::var("PAGER").ok().filter(|v| !v.trim().is_empty()).is_some();
    match (configured.is_some(), from_env) {
        (true, _) => "`pager` in skillscope's config.toml names it: point it at an installed pager".to_owned(),
        (false, true) => "$PAGER names it: point it at an installed pager".to_owned(),
        (false, false) => "the default: set $PAGER".to_owned(),
    }
}

/// Runs the editor in the foreground: the command it ran (which says
/// whether the line was passed), or why it failed.
pub fn open_editor(configured: Option<&str>, path: &Path, line: usize) -> Result<EditorCommand, LaunchError> {
    const ROLE: &str = "editor";
    let spec = configured.map(str::to_owned).or_else(editor::from_env);
    let command = editor::command(spec.as_deref(), path, line)?;
    let (program, args) = command.words.split_first().ok_or(LaunchError::Empty(ROLE))?;
    let shown = program.to_string_lossy().into_owned();
    let mut child = Command::new(program).args(args).spawn().map_err(|source| LaunchError::Start {
        role: ROLE,
        program: shown.clone(),
        source,
        hint: editor_hint(configured),
    })?;
    let _interrupts = InterruptsIgnored::while_a_child_runs();
    match child.wait() {
        Ok(status) if status.success() => Ok(command),
        Ok(status) => Err(LaunchError::Failed { role: ROLE, program: shown, status }),
        Err(source) => Err(LaunchError::Wait { role: ROLE, program: shown, source }),
    }
}

/// Ctrl-C and Ctrl-\ typed while the editor or the pager has the terminal
/// reach the whole foreground group: the browser waiting for it ignores
/// them, as `system(3)` does, and they stop only the program they were
/// meant for (else the browser died and left it running with the
/// terminal). Set once the program runs (it starts with the usual
/// handling), put back as they were when dropped.
struct InterruptsIgnored {
    #[cfg(unix)]
    saved: Vec<(libc::c_int, libc::sigaction)>,
}

impl InterruptsIgnored {
    fn while_a_child_runs() -> InterruptsIgnored {
        #[cfg(unix)]
        {
            let mut saved = Vec::new();
            for signal in [libc::SIGINT, libc::SIGQUIT] {
                // SAFETY: a zeroed `sigaction` is a valid value to fill;
                // `sigaction` only swaps this process's disposition.
                unsafe {
                    let mut ignore: libc::sigaction = std::mem::zeroed();
                    ignore.sa_sigaction = libc::SIG_IGN;
                    libc::sigemptyset(&mut ignore.sa_mask);
                    let mut old: libc::sigaction = std::mem::zeroed();
                    if libc::sigaction(signal, &ignore, &mut old) == 0 {
                        saved.push((signal, old));
                    }
                }
            }
            InterruptsIgnored { saved }
        }
        #[cfg(not(unix))]
        InterruptsIgnored {}
    }
}

impl Drop for InterruptsIgnored {
    fn drop(&mut self) {
        #[cfg(unix)]
        for (signal, old) in &self.saved {
            // SAFETY: puts back the disposition `sigaction` gave.
            unsafe {
                libc::sigaction(*signal, old, std::ptr::null_mut());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An editor that cannot start is said with where it was named.
    #[test]
    fn a_missing_editor_is_said_with_where_it_was_named() {
        let error = open_editor(Some("/nonexistent/skillscope-editor"), Path::new("/tmp/x.md"), 3).unwrap_err();
        let text = error.to_string();
        assert!(text.starts_with("cannot start editor /nonexistent/skillscope-editor: "), "{text}");
        assert!(
            text.ends_with("(`editor` in skillscope's config.toml names it: point it at an installed editor)"),
            "{text}"
        );
        let error = open_pager(Some("/nonexistent/skillscope-pager"), "text").unwrap_err();
        assert!(error.to_string().contains("`pager` in skillscope's config.toml names it"), "{error}");
    }
}
