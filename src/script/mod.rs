//! The dealer script language, the first stage of the data path: script text → syntax tree
//! ([`ast`]), in either dialect, or a [`Diagnostic`] located where the peers locate their errors.
//!
//! * [`token`]: the tokens and how `logos` reads them;
//! * [`lexer`]: the token stream with everything that depends on dialect and context;
//! * the grammar (LALRPOP, `grammar.lalrpop`, with [`grammar_support`] for its actions), whose
//!   generated [`parsers`] run over the lexer's tokens;
//! * [`parse`](mod@parse): the parser entry points and how their failures are reported
//!   ([`diagnostic`]), with [`recovery`] of what precedes a syntax error;
//! * [`suggestion`]: the nearest known name to a misspelled one, for the full form of an error.

pub mod ast;
pub mod diagnostic;
pub mod grammar_support;
pub mod lexer;
pub mod parse;
pub mod parsers;
pub mod recovery;
pub mod suggestion;
pub mod token;

pub use diagnostic::{Diagnostic, NUL_MESSAGE};
pub use lexer::ScriptVars;
pub use parse::{parse, parse_script, ParseFailure};

#[cfg(test)]
mod tests;
