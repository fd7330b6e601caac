//! A place in a script's text: the line and column an error or a syntax-tree node points at.
//! Shared vocabulary of the script stage (which locates what it parses) and [`crate::error`]
//! (which locates what went wrong).

/// A position in the script text: 1-based line and column (column counted in bytes). Line 0
/// marks a placeholder that the parser added itself (see `script::ParseFailure`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pos {
    /// 1-based line number, counted as the peers count it.
    pub line: u32,
    /// 1-based column (bytes).
    pub col: u32,
}
