//! Copying to the system clipboard with OSC 52, the escape sequence
//! terminals (and tmux, ssh sessions, mosh) understand without a helper
//! program. The text is base64-encoded, so nothing from a skill file can
//! act as a terminal escape: this deliberate copy is the only place skill
//! text is sent to the terminal outside the drawn screen.

/// Terminals cap OSC 52 payloads; beyond this the copy is refused rather
/// than silently cut.
pub const MAX_COPY_BYTES: usize = 100_000;

/// Standard base64 with padding.
pub fn base64(bytes: &[u8]) -> String {
    const TABLE: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(TABLE[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// The bytes to write for a copy: the OSC 52 sequence, and inside tmux the
/// same sequence wrapped for passthrough to the outer terminal (tmux itself
/// takes the plain one when `set-clipboard` is on).
pub fn osc52(text: &str, in_tmux: bool) -> String {
    let plain = format!("\x1b]52;c;{}\x07", base64(text.as_bytes()));
    if !in_tmux {
        return plain;
    }
    // tmux passthrough: DCS tmux; <sequence with each ESC doubled> ST.
    let wrapped = format!("\x1bPtmux;{}\x1b\\", plain.replace('\x1b', "\x1b\x1b"));
    format!("{plain}{wrapped}")
}

/// Where a copy went besides the terminal's OSC 52.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reach {
    /// Not inside tmux: OSC 52 is all there is.
    Terminal,
    /// Inside tmux, also loaded into tmux's paste buffer (and, where tmux
    /// can, its clipboard): tmux's default `set-clipboard external` drops
    /// OSC 52 from programs.
    TmuxBuffer,
    /// Inside tmux, and `tmux load-buffer` failed: only OSC 52 was sent.
    TmuxRefused,
}

/// Writes a copy to the terminal on stdout, and inside tmux into tmux's
/// paste buffer too; text over [`MAX_COPY_BYTES`] is refused
/// (`InvalidInput`) before anything is written.
pub fn copy(text: &str) -> std::io::Result<Reach> {
    use std::io::Write;
    if text.len() > MAX_COPY_BYTES {
        let why = format!("is {} bytes, more than terminals accept", text.len());
        return Err(std::io::Error::new(std::io::ErrorKind::InvalidInput, why));
    }
    let in_tmux = std::env::var_os("TMUX").is_some_and(|v| !v.is_empty());
    let mut out = std::io::stdout().lock();
    out.write_all(osc52(text, in_tmux).as_bytes())?;
    out.flush()?;
    if !in_tmux {
        return Ok(Reach::Terminal);
    }
    // `-w` (tmux 3.2 and later) also sets the clipboard as tmux's own copy
    // mode would; older tmux knows only the buffer.
    let loaded = load_tmux_buffer(&["load-buffer", "-w", "-"], text) || load_tmux_buffer(&["load-buffer", "-"], text);
    Ok(if loaded { Reach::TmuxBuffer } else { Reach::TmuxRefused })
}

/// Runs `tmux ARGS` with `text` on its standard input; true on success.
fn load_tmux_buffer(args: &[&str], text: &str) -> bool {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let child =
        Command::new("tmux").args(args).stdin(Stdio::piped()).stdout(Stdio::null()).stderr(Stdio::null()).spawn();
    let Ok(mut child) = child else { return false };
    if let Some(mut stdin) = child.stdin.take() {
        if stdin.write_all(text.as_bytes()).is_err() {
            let _ = child.kill();
            let _ = child.wait();
            return false;
        }
    }
    child.wait().is_ok_and(|s| s.success())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_vectors() {
        for (plain, encoded) in
            [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE=")]
        {
            assert_eq!(base64(plain.as_bytes()), encoded);
        }
        assert_eq!(base64("/ß\u{1b}".as_bytes()), "L8OfGw==");
    }

    #[test]
    fn oversized_copies_are_refused_before_writing() {
        let err = copy(&"x".repeat(MAX_COPY_BYTES + 1)).unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::InvalidInput);
    }

    #[test]
    fn escapes_in_the_text_never_reach_the_terminal_raw() {
        let seq = osc52("evil \u{1b}[2J", false);
        assert_eq!(seq.matches('\x1b').count(), 1, "only the sequence's own ESC");
        let tmux = osc52("x", true);
        assert!(tmux.starts_with("\x1b]52;c;eA==\x07\x1bPtmux;\x1b\x1b]52;c;eA==\x07\x1b\\"), "{tmux:?}");
    }
}
