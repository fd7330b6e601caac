//! Why a record could not be read, and where it is.

/// Where a malformed record is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordPlace {
    /// A text format: the 1-based line and, when known, the 1-based byte column.
    Line {
        /// The line.
        line: u64,
        /// The column, when known.
        column: Option<u64>,
    },
    /// A binary format (DL52, ZRD): the 1-based record number and the byte offset it starts at.
    Record {
        /// The record's number.
        number: u64,
        /// The byte offset it starts at.
        offset: u64,
    },
}

/// A malformed record (or a failed read) in an input file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    /// Where.
    pub place: RecordPlace,
    /// What is wrong, e.g. `the card SA appears twice`.
    pub message: String,
    /// Whether reading cannot go on after it (a read failure, an unreadable encoding): a
    /// record error that is not fatal leaves the reader at the next record.
    pub fatal: bool,
}

impl RecordError {
    /// A malformed record at `line`, column `column` when known.
    pub fn at_line(line: u64, column: Option<u64>, message: impl Into<String>) -> RecordError {
        RecordError { place: RecordPlace::Line { line, column }, message: message.into(), fatal: false }
    }

    /// A malformed binary record, the `number`-th, starting at byte `offset`.
    pub fn at_record(number: u64, offset: u64, message: impl Into<String>) -> RecordError {
        RecordError { place: RecordPlace::Record { number, offset }, message: message.into(), fatal: false }
    }

    /// The same error, after which reading stops.
    pub fn fatal(mut self) -> RecordError {
        self.fatal = true;
        self
    }

    /// The error as printed for the input named `name`: `name:LINE:COLUMN: message`, or
    /// `name: record N (byte OFFSET): message`.
    pub fn describe(&self, name: &str) -> String {
        match self.place {
            RecordPlace::Line { line, column: Some(column) } => format!("{name}:{line}:{column}: {}", self.message),
            RecordPlace::Line { line, column: None } => format!("{name}:{line}: {}", self.message),
            RecordPlace::Record { number, offset } => {
                format!("{name}: record {number} (byte {offset}): {}", self.message)
            }
        }
    }
}
