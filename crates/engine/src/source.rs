//! Reading skill files as Python's `Path.read_text(encoding="utf-8")` would,
//! with its error texts, but never blocking on a FIFO or device.

use std::fs;
use std::io;
#[cfg(not(unix))]
use std::io::Read;
use std::path::Path;

/// Why a file could not be read as text. The message is Python's wording.
#[derive(Debug, Clone, PartialEq)]
pub enum ReadError {
    /// Not valid UTF-8 (`UnicodeDecodeError`).
    Decode(String),
    /// Any OS-level failure (`OSError`), including "not a regular file".
    Io(String),
}

impl ReadError {
    pub fn message(&self) -> &str {
        match self {
            ReadError::Decode(m) | ReadError::Io(m) => m,
        }
    }
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.message())
    }
}

/// `[Errno N] strerror: 'path'`, as Python formats an `OSError`.
pub fn os_error_message(err: &io::Error, path: &Path) -> String {
    // `OSError.__str__` shows the file name as `repr()` does: in double
    // quotes when it holds a `'`, escapes for tabs, backslashes and the like.
    let py_repr_path = |path: &Path| crate::py::py_str_repr(&path.to_string_lossy());
    match err.raw_os_error() {
        Some(code) => {
            let text = io::Error::from_raw_os_error(code).to_string();
            let text = text.split(" (os error").next().unwrap_or(&text).to_owned();
            format!("[Errno {code}] {text}: {}", py_repr_path(path))
        }
        None => format!("{err}: {}", py_repr_path(path)),
    }
}

/// How many times a SKILL.md was read by this process (reload tests and
/// benchmarks check that a reload reads only what changed).
static SKILL_MD_READS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// The number of SKILL.md reads so far in this process.
pub fn skill_md_reads() -> usize {
    SKILL_MD_READS.load(std::sync::atomic::Ordering::Relaxed)
}

/// The 1-based line holding byte `byte` of `text`.
pub fn line_at(text: &str, byte: usize) -> usize {
    text[..byte.min(text.len())].matches('\n').count() + 1
}

/// Line and column lookups in one text: its line starts are found on the
/// first and kept, so each lookup after costs a search, not a pass over
/// the text (a large file may hold a finding on every line).
pub struct TextPositions<'t> {
    text: &'t str,
    starts: std::cell::OnceCell<LineStarts>,
    /// The last place found (its byte, line and column): a later place on
    /// the same line counts its column on from there, so that the places
    /// of one long line are not each counted from the line's start.
    last: std::cell::Cell<Option<(usize, usize, usize)>>,
}

impl<'t> TextPositions<'t> {
    pub fn new(text: &'t str) -> TextPositions<'t> {
        TextPositions { text, starts: std::cell::OnceCell::new(), last: std::cell::Cell::new(None) }
    }

    /// The 1-based line and column (in characters) of byte `byte`.
    pub fn line_column_at(&self, byte: usize) -> (usize, usize) {
        let starts = self.starts.get_or_init(|| LineStarts::of(self.text));
        let byte = floor_char_boundary(self.text, byte);
        let (line, start) = starts.line_of(byte);
        let column = match self.last.get() {
            Some((at, on, column)) if on == line && at <= byte => column + self.text[at..byte].chars().count(),
            _ => self.text[start..byte].chars().count() + 1,
        };
        self.last.set(Some((byte, line, column)));
        (line, column)
    }
}

/// The largest char boundary of `text` at or before `byte`.
pub fn floor_char_boundary(text: &str, byte: usize) -> usize {
    let mut byte = byte.min(text.len());
    while !text.is_char_boundary(byte) {
        byte -= 1;
    }
    byte
}

/// Where each line of a text starts: the line and column of many places
/// in one text, each found without counting the lines before it again.
pub struct LineStarts(Vec<usize>);

impl LineStarts {
    pub fn of(text: &str) -> LineStarts {
        LineStarts(std::iter::once(0).chain(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1)).collect())
    }

    /// The 1-based line and column (in characters) of byte `byte` of
    /// `text` (the text indexed).
    pub fn line_column_at(&self, text: &str, byte: usize) -> (usize, usize) {
        let byte = floor_char_boundary(text, byte);
        let (line, start) = self.line_of(byte);
        (line, text[start..byte].chars().count() + 1)
    }

    /// The 1-based line holding `byte` (a char boundary), and where it starts.
    fn line_of(&self, byte: usize) -> (usize, usize) {
        let line = self.0.partition_point(|&start| start <= byte);
        (line, self.0[line - 1])
    }
}

/// The 1-based column of a line's first character that is not blank.
pub fn first_column(line: &str) -> usize {
    line.chars().take_while(|c| c.is_whitespace()).count() + 1
}

/// Reads `path` fully, decodes it as UTF-8 and translates newlines as
/// Python's text mode does (`\r\n` and a lone `\r` become `\n`).
pub fn read_text(path: &Path) -> Result<String, ReadError> {
    decode(read_bytes(path)?).map(universal_newlines)
}

/// [`read_text`] for a file of at most `max` bytes: `Ok(None)`, with nothing
/// read, when it is longer.
pub fn read_text_at_most(path: &Path, max: u64) -> Result<Option<String>, ReadError> {
    let file = open_nonblocking(path).map_err(|e| ReadError::Io(os_error_message(&e, path)))?;
    let meta = file.metadata().map_err(|e| ReadError::Io(os_error_message(&e, path)))?;
    if meta.is_file() && meta.len() > max {
        return Ok(None);
    }
    let bytes = read_open_bytes(file, meta.is_file(), path)?;
    decode(bytes).map(universal_newlines).map(Some)
}

/// Python's universal-newlines translation.
pub fn universal_newlines(text: String) -> String {
    if !text.contains('\r') {
        return text;
    }
    text.replace("\r\n", "\n").replace('\r', "\n")
}

/// Opens `path` for reading without ever blocking: on Unix a FIFO opens at
/// once with `O_NONBLOCK` and is then refused by the type check.
fn open_nonblocking(path: &Path) -> io::Result<fs::File> {
    let mut options = fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    options.open(path)
}

/// Reads a regular file's bytes; anything else (FIFO, socket, device,
/// directory) is refused before a byte is read, so nothing can block.
pub fn read_bytes(path: &Path) -> Result<Vec<u8>, ReadError> {
    let file = open_nonblocking(path).map_err(|e| ReadError::Io(os_error_message(&e, path)))?;
    read_open_bytes(file, false, path)
}

/// The bytes of a file opened non-blocking. `listed_regular` says a
/// directory listing already showed a regular file, which saves the `fstat`.
fn read_open_bytes(file: fs::File, listed_regular: bool, path: &Path) -> Result<Vec<u8>, ReadError> {
    if path.file_name().is_some_and(|n| n == "SKILL.md") {
        SKILL_MD_READS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }
    let io_err = |e: io::Error| ReadError::Io(os_error_message(&e, path));
    if listed_regular {
        return read_to_eof(&file, 8 * 1024).map_err(io_err);
    }
    let meta = file.metadata().map_err(io_err)?;
    if meta.is_dir() {
        return Err(io_err(io::Error::from_raw_os_error(21)));
    }
    if !meta.is_file() {
        return Err(ReadError::Io(format!("Not a regular file (FIFO, socket or device): '{}'", path.display())));
    }
    read_to_eof(&file, meta.len() as usize + 1).map_err(io_err)
}

/// [`read_text`] for a file already opened non-blocking.
pub fn read_open_file(file: fs::File, listed_regular: bool, path: &Path) -> Result<String, ReadError> {
    decode(read_open_bytes(file, listed_regular, path)?).map(universal_newlines)
}

/// Like [`read_text`] for a file a directory listing already showed to be a
/// regular file: one `open`, one `read`, one `close` for a small file.
pub fn read_listed_regular_text(path: &Path) -> Result<String, ReadError> {
    let file = open_nonblocking(path).map_err(|e| ReadError::Io(os_error_message(&e, path)))?;
    read_open_file(file, true, path)
}

/// Reads until end of file. A short read ends it: a regular file returns
/// fewer bytes than asked only at its end (and a FIFO opened non-blocking
/// has nothing to give).
fn read_to_eof(file: &fs::File, capacity: usize) -> io::Result<Vec<u8>> {
    let mut buf: Vec<u8> = Vec::with_capacity(capacity.max(64));
    loop {
        if buf.len() == buf.capacity() {
            buf.reserve(buf.capacity());
        }
        let want = buf.capacity() - buf.len();
        let got = read_into_spare(file, &mut buf)?;
        if got == 0 || got < want {
            return Ok(buf);
        }
    }
}

/// One `read(2)` into the vector's spare capacity.
#[cfg(unix)]
fn read_into_spare(file: &fs::File, buf: &mut Vec<u8>) -> io::Result<usize> {
    use std::os::fd::AsRawFd;
    let spare = buf.capacity() - buf.len();
    loop {
        // SAFETY: the pointer and length describe the vector's allocated,
        // unused tail; `read` writes at most `spare` bytes there, and only the
        // bytes it reports are added to the length.
        let n = unsafe { libc::read(file.as_raw_fd(), buf.as_mut_ptr().add(buf.len()).cast(), spare) };
        if n >= 0 {
            let n = n as usize;
            // SAFETY: `read` initialised exactly `n <= spare` bytes past the length.
            unsafe { buf.set_len(buf.len() + n) };
            return Ok(n);
        }
        let err = io::Error::last_os_error();
        match err.kind() {
            io::ErrorKind::Interrupted => continue,
            io::ErrorKind::WouldBlock => return Ok(0),
            _ => return Err(err),
        }
    }
}

#[cfg(not(unix))]
fn read_into_spare(mut file: &fs::File, buf: &mut Vec<u8>) -> io::Result<usize> {
    let mut chunk = vec![0u8; buf.capacity() - buf.len()];
    let n = file.read(&mut chunk)?;
    buf.extend_from_slice(&chunk[..n]);
    Ok(n)
}

/// UTF-8 decoding with Python's `UnicodeDecodeError` message.
pub fn decode(bytes: Vec<u8>) -> Result<String, ReadError> {
    String::from_utf8(bytes).map_err(|e| {
        let bytes = e.as_bytes();
        let err = e.utf8_error();
        let pos = err.valid_up_to();
        let msg = match err.error_len() {
            None => {
                let end = bytes.len() - 1;
                if end == pos {
                    format!(
                        "'utf-8' codec can't decode byte 0x{:02x} in position {pos}: unexpected end of data",
                        bytes[pos]
                    )
                } else {
                    format!("'utf-8' codec can't decode bytes in position {pos}-{end}: unexpected end of data")
                }
            }
            Some(_) => {
                let b = bytes[pos];
                let reason =
                    if (0xc2..=0xf4).contains(&b) { "invalid continuation byte" } else { "invalid start byte" };
                format!("'utf-8' codec can't decode byte 0x{b:02x} in position {pos}: {reason}")
            }
        };
        ReadError::Decode(msg)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lines and columns in characters, a byte inside a character taken
    /// as that character's start, one past the end as the end.
    #[test]
    fn line_starts_place_each_byte() {
        let text = "ab\n\nçé\nlast";
        let lines = LineStarts::of(text);
        let at = |byte| lines.line_column_at(text, byte);
        assert_eq!([at(0), at(2), at(3), at(4)], [(1, 1), (1, 3), (2, 1), (3, 1)]);
        assert_eq!([at(6), at(7), at(8), at(9)], [(3, 2), (3, 2), (3, 3), (4, 1)]);
        assert_eq!([at(13), at(40)], [(4, 5), (4, 5)]);
    }

    /// Asked in any order, a text's positions answer as the line starts do
    /// (a later place on a line counted on from the last).
    #[test]
    fn text_positions_agree_with_line_starts_in_any_order() {
        let text = "ab\n\nçé x\nlast line, long: ééé ë\n";
        let lines = LineStarts::of(text);
        let positions = TextPositions::new(text);
        let order: Vec<usize> = (0..=text.len() + 2).chain((0..=text.len()).rev()).chain([7, 3, 20, 20, 9]).collect();
        for byte in order {
            assert_eq!(positions.line_column_at(byte), lines.line_column_at(text, byte), "byte {byte}");
        }
    }

    #[test]
    fn decode_messages_match_python() {
        assert_eq!(
            decode(vec![0xff, b'a']).unwrap_err().message(),
            "'utf-8' codec can't decode byte 0xff in position 0: invalid start byte"
        );
        assert_eq!(
            decode(vec![b'a', 0xe2, 0x28]).unwrap_err().message(),
            "'utf-8' codec can't decode byte 0xe2 in position 1: invalid continuation byte"
        );
        assert_eq!(
            decode(vec![b'a', 0xe2, 0x82]).unwrap_err().message(),
            "'utf-8' codec can't decode bytes in position 1-2: unexpected end of data"
        );
    }

    #[test]
    fn newlines_are_translated() {
        assert_eq!(universal_newlines("a\r\nb\rc\n".into()), "a\nb\nc\n");
    }

    #[test]
    fn missing_file_message() {
        let err = read_text(Path::new("/nonexistent/x")).unwrap_err();
        assert_eq!(err.message(), "[Errno 2] No such file or directory: '/nonexistent/x'");
    }

    #[cfg(unix)]
    #[test]
    fn fifo_is_refused_not_read() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("fifo");
        let status = std::process::Command::new("mkfifo").arg(&p).status();
        if status.map(|s| s.success()).unwrap_or(false) {
            assert!(matches!(read_text(&p), Err(ReadError::Io(_))));
        }
    }
}
