//! The one error type of the library: what went wrong, where in the script if anywhere, and the
//! exit status the peers use for the same failure (so the CLI can mirror them).

use std::fmt;

use crate::pos::Pos;

/// What kind of failure an [`Error`] is; the C API maps each kind to a fixed status code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The script text is wrong (syntax, unknown variable, bad shape, bad predeal …).
    Script,
    /// An option key or value is wrong.
    Option,
    /// A file could not be read or written.
    Io,
    /// The script uses a feature this build does not provide yet (double dummy, usereval, opc).
    NotAvailable,
    /// The run itself failed (division by zero, an external program's failure, …).
    Run,
    /// The caller used the API in the wrong order (e.g. `next_deal` before a script was loaded).
    Usage,
    /// The run was interrupted (an [`Interrupter`](crate::interrupter::Interrupter), the CLI's
    /// SIGINT); the output written before is complete.
    Interrupted,
    /// The script asks for something the session does not allow: under the `untrusted` option,
    /// anything that would start an external program (`opc`, `usereval` through a DealerServer).
    NotAllowed,
}

/// An error with its message, optional script location and peer-compatible exit status.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// The kind of failure.
    pub kind: ErrorKind,
    /// Human-readable message without location prefix, e.g. `syntax error`.
    pub message: String,
    /// What the full form ([`Error::describe`]) says instead of the message, when libdealer can
    /// say more than the peers' one line (e.g. `unknown seat 'nrth' (north, east, south, west)`
    /// where the peers say `syntax error`).
    pub explanation: Option<String>,
    /// 1-based script line, when the error belongs to a place in the script.
    pub line: Option<u32>,
    /// 1-based script column, when known.
    pub col: Option<u32>,
    /// The exit status the peers use for this failure (255 for script errors).
    pub exit_code: i32,
    /// The text of the script line the error points at (without its line end), when known.
    pub source_line: Option<String>,
}

impl Error {
    /// A script error at a line and column (exit status 255, like the peers' `yyerror`).
    pub fn script(message: impl Into<String>, line: u32, col: u32) -> Error {
        Error {
            kind: ErrorKind::Script,
            message: message.into(),
            explanation: None,
            line: Some(line),
            col: Some(col),
            exit_code: 255,
            source_line: None,
        }
    }

    /// The same error with `explanation` for the full form ([`Error::explanation`]).
    pub fn explained(self, explanation: impl Into<String>) -> Error {
        Error { explanation: Some(explanation.into()), ..self }
    }

    /// An error without a script location.
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Error {
        let exit_code = match kind {
            ErrorKind::Script | ErrorKind::Option | ErrorKind::Io => 255,
            ErrorKind::NotAvailable => 3,
            ErrorKind::Run => 4,
            ErrorKind::Usage => 2,
            // What a shell reports for a program ended by SIGINT.
            ErrorKind::Interrupted => 130,
            ErrorKind::NotAllowed => 5,
        };
        Error { kind, message: message.into(), explanation: None, line: None, col: None, exit_code, source_line: None }
    }

    /// The same error with the text of its line taken from `source` (the script or expression
    /// it was found in), for [`Error::describe`]. Errors without a line are returned unchanged.
    pub fn with_source(mut self, source: &[u8]) -> Error {
        if let Some(line) = self.line.filter(|&l| l > 0) {
            self.source_line = source
                .split(|&b| b == b'\n')
                .nth(line as usize - 1)
                .map(|text| String::from_utf8_lossy(text.strip_suffix(b"\r").unwrap_or(text)).into_owned());
        }
        self
    }

    /// The same error found in the scenario `name` of a mixed board set: its message (and
    /// explanation) start `in scenario NAME: `.
    pub fn in_scenario(mut self, name: &str) -> Error {
        self.message = format!("in scenario {name}: {}", self.message);
        self.explanation = self.explanation.map(|e| format!("in scenario {name}: {e}"));
        self
    }

    /// The full explanation: `line L, column C: message near 'text'`, then the offending line
    /// and a caret under column C; just the message when the error has no location. An
    /// [`explanation`](Self::explanation) replaces `message near 'text'`.
    pub fn describe(&self) -> String {
        let message = self.explanation.as_ref().unwrap_or(&self.message);
        let Some(line) = self.line else { return message.clone() };
        let mut text = match self.col.filter(|&c| c > 0) {
            Some(col) => format!("line {line}, column {col}: {message}"),
            None => format!("line {line}: {message}"),
        };
        if let Some(source) = &self.source_line {
            let col = self.col.unwrap_or(0) as usize;
            let start = col.saturating_sub(1).min(source.len());
            let token: String =
                source.get(start..).unwrap_or("").split_whitespace().next().unwrap_or("").chars().take(24).collect();
            if !token.is_empty() && self.explanation.is_none() {
                text.push_str(&format!(" near '{token}'"));
            }
            text.push_str(&format!("\n    {source}"));
            if col > 0 {
                // The caret goes under the column's character; tabs are kept so that it lines up.
                let pad: String =
                    source.get(..start).unwrap_or("").chars().map(|c| if c == '\t' { '\t' } else { ' ' }).collect();
                text.push_str(&format!("\n    {pad}^"));
            }
        }
        text
    }

    /// The same error, located at `pos` unless it has a location already.
    pub fn located_or(self, pos: Pos) -> Error {
        if self.line.is_some() {
            self
        } else {
            self.at(pos.line, pos.col)
        }
    }

    /// The same error located at a script position.
    pub fn at(mut self, line: u32, col: u32) -> Error {
        self.line = Some(line);
        self.col = Some(col);
        self
    }
}

impl fmt::Display for Error {
    /// The peers' format: `line N: message` when located, else the message alone.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "line {}: {}", line, self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for Error {}

/// Shorthand for results of this crate.
pub type Result<T> = std::result::Result<T, Error>;

/// Why a build without the `os` feature (the browser) opens no file (also
/// `job::sinks::NO_FILES`).
pub const NO_FILES: &str = "files are not available in this build (the browser)";
