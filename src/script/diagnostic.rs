//! How the script stage reports an error: a [`Diagnostic`] carries the line the peers report,
//! the column of the offending token and the message as the peers word it, plus a fuller
//! explanation where libdealer can say more than the peers (shown only in the full form of the
//! error, see [`Error::describe`](crate::error::Error::describe)).

/// An error in script text, located where the peers locate it.
#[derive(Debug, Clone, PartialEq)]
pub struct Diagnostic {
    /// The line the peers report (`line N: …`).
    pub line: u32,
    /// 1-based byte column of the offending token (informational; the peers print no column).
    pub col: u32,
    /// The message text, as the peers word it (`syntax error`, `EOF found in comment`, …).
    pub message: String,
}

impl std::fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for Diagnostic {}

/// The message of a NUL byte in a script.
pub const NUL_MESSAGE: &str = "a NUL byte in the script (a script is text: nothing after a NUL byte would be read)";
