//! How the script stage reports an error: a [`Diagnostic`] carries the line the peers report,
//! the column of the offending token and the message as the peers word it, plus a fuller
//! explanation where libdealer can say more than the peers (shown only in the full form of the
//! error, see [`Error::describe`]).

use crate::error::Error;

/// An error in script text, located where the peers locate it.
#[derive(Debug, Clone, PartialEq)]
pub struct Diagnostic {
    /// The line the peers report (`line N: …`).
    pub line: u32,
    /// 1-based byte column of the offending token (informational; the peers print no column).
    pub col: u32,
    /// The message text, as the peers word it (`syntax error`, `EOF found in comment`, …).
    pub message: String,
    /// What the full form of the error says instead of [`message`](Self::message), when
    /// libdealer can say more than the peers' one line (`unknown seat 'nrth' (north, east,
    /// south, west)` for the peers' `syntax error`).
    pub explanation: Option<String>,
}

impl Diagnostic {
    /// An error at `line` and `col` with the peers' message and no fuller explanation.
    pub fn new(line: u32, col: u32, message: impl Into<String>) -> Diagnostic {
        Diagnostic { line, col, message: message.into(), explanation: None }
    }

    /// The same error with `explanation` for the full form.
    pub fn explained(self, explanation: impl Into<String>) -> Diagnostic {
        Diagnostic { explanation: Some(explanation.into()), ..self }
    }
}

/// The explanation of a word that stands where the grammar wants a seat (`hcp(nrth)`).
pub fn unknown_seat(word: &str) -> String {
    format!("unknown seat '{word}' (north, east, south, west)")
}

/// The explanation of a word that stands where the grammar wants a seat or a side
/// (`usereval(1, nrth, 2)`).
pub fn unknown_seat_or_side(word: &str) -> String {
    format!("unknown seat or side '{word}' (north, east, south, west, NS, EW)")
}

impl From<Diagnostic> for Error {
    /// A script error with the peers' message, and the explanation for the full form.
    fn from(d: Diagnostic) -> Error {
        Error { explanation: d.explanation, ..Error::script(d.message, d.line, d.col) }
    }
}

impl std::fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for Diagnostic {}

/// The message of a NUL byte in a script.
pub const NUL_MESSAGE: &str = "a NUL byte in the script (a script is text: nothing after a NUL byte would be read)";
