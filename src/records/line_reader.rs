//! Lines of a text input, one at a time, in bounded memory: a line longer than
//! [`MAX_LINE_BYTES`] is an error (its rest is skipped), not an unbounded buffer. A byte order
//! mark before the first line is dropped.

use std::io::BufRead;

use crate::records::RecordError;

/// The longest line a text input may hold: 1 MiB (a record line is at most a few hundred bytes).
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// Reads lines (without their `\n` or `\r\n`) and counts them.
pub struct LineReader {
    source: Box<dyn BufRead + Send>,
    line: Vec<u8>,
    number: u64,
}

impl LineReader {
    /// Lines of `source`.
    pub fn new(source: Box<dyn BufRead + Send>) -> LineReader {
        LineReader { source, line: Vec::with_capacity(256), number: 0 }
    }

    /// The next line and its number, or `None` at the end of the input. A line longer than [`MAX_LINE_BYTES`]
    /// is an error (the next call reads the line after it); a read failure is fatal.
    pub fn next_line(&mut self) -> Result<Option<(u64, &[u8])>, RecordError> {
        self.line.clear();
        let mut too_long = false;
        let mut any = false;
        loop {
            let available = match self.source.fill_buf() {
                Ok(bytes) => bytes,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    return Err(RecordError::at_line(self.number + 1, None, format!("cannot read: {e}")).fatal());
                }
            };
            if available.is_empty() {
                break;
            }
            any = true;
            let (taken, done) = match available.iter().position(|&b| b == b'\n') {
                Some(end) => (end + 1, true),
                None => (available.len(), false),
            };
            if !too_long {
                let room = MAX_LINE_BYTES + 1 - self.line.len();
                self.line.extend_from_slice(&available[..taken.min(room)]);
                too_long = self.line.len() > MAX_LINE_BYTES;
            }
            self.source.consume(taken);
            if done {
                break;
            }
        }
        if !any {
            return Ok(None);
        }
        self.number += 1;
        if too_long {
            return Err(RecordError::at_line(
                self.number,
                None,
                format!("the line is longer than {MAX_LINE_BYTES} bytes (no record is that long)"),
            ));
        }
        if self.number == 1 && self.line.starts_with(b"\xEF\xBB\xBF") {
            // A UTF-8 byte order mark (Windows editors write one) is no text.
            self.line.drain(..3);
        }
        if self.line.last() == Some(&b'\n') {
            self.line.pop();
        }
        if self.line.last() == Some(&b'\r') {
            self.line.pop();
        }
        Ok(Some((self.number, &self.line)))
    }
}
