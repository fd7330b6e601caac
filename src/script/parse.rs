//! Parsing a whole script: runs the dialect's LALRPOP parser over the [`Lexer`]'s tokens and turns
//! its failures into the [`Diagnostic`] the peers report, located where they locate it; on failure
//! [`parse_script`] also recovers what precedes the error (see [`ParseFailure::before`]).

use lalrpop_util::ParseError;

use crate::dialect::Dialect;
use crate::script::ast;
use crate::script::diagnostic::{unknown_seat, unknown_seat_or_side, Diagnostic, NUL_MESSAGE};
use crate::script::lexer::{Lexer, ScriptVars};
use crate::script::parsers::grammar;
use crate::script::recovery::recover;

/// Parses a whole script in `dialect`. `vars` supplies `$0`..`$9` (DealerV2 only; classic
/// dealer has no script variables and treats `$` as a stray character).
///
/// Errors are the peers' parse-time errors: `syntax error` (at the line of the offending
/// look-ahead token, or the line count at end of input), `EOF found in comment`,
/// `too many pointcount values`, `memory exhausted`. Name resolution (unknown or redefined
/// variables) is not done here; see [`parse_script`] for what comes before a syntax error.
pub fn parse(source: &[u8], dialect: Dialect, vars: &ScriptVars) -> Result<ast::ParsedScript, Diagnostic> {
    run_parser(source, dialect, vars).map_err(|(error, _)| error)
}

/// A script that does not parse.
#[derive(Debug, Clone, PartialEq)]
pub struct ParseFailure {
    /// The error the parser met.
    pub error: Diagnostic,
    /// What the peers' parsers have built before they meet the error, when it can be recovered.
    ///
    /// The peers check constructs while they parse, so a semantic error (an unknown variable, a
    /// card predealt twice …) in front of a syntax error is the error they report. These are the
    /// statements before the error; a statement the error cuts short is completed with
    /// placeholder tokens at line 0, and whatever those placeholders complete (and only that)
    /// is located at line 0. So a check failing at a line above 0 is an error the peers report
    /// before [`error`](Self::error). Boxed, so that the failure stays small.
    pub before: Option<Box<ast::ParsedScript>>,
}

/// Parses a whole script like [`parse`]; on failure also recovers what precedes the error (see
/// [`ParseFailure::before`]).
pub fn parse_script(source: &[u8], dialect: Dialect, vars: &ScriptVars) -> Result<ast::ParsedScript, ParseFailure> {
    run_parser(source, dialect, vars).map_err(|(error, site)| {
        let before = site
            .and_then(|(tokens, lookahead_read)| recover(source, dialect, vars, tokens, lookahead_read))
            .map(Box::new);
        ParseFailure { error, before }
    })
}

/// Where a parse failed: the number of tokens before the failing one, and whether the peers
/// would have read that token (a syntax error) or not (the lexer failed while reading it, as for
/// `EOF found in comment`). `None` when the error does not belong to one token.
type FailureSite = Option<(usize, bool)>;

/// Runs the dialect's parser over the whole script; on failure also says where it failed.
fn run_parser(
    source: &[u8],
    dialect: Dialect,
    vars: &ScriptVars,
) -> Result<ast::ParsedScript, (Diagnostic, FailureSite)> {
    if let Some((at, error)) = nul_byte(source) {
        // What the peers read, the text before the NUL byte, reports its own errors first.
        run_parser(&source[..at], dialect, vars)?;
        return Err((error, None));
    }
    let mut lexer = Lexer::new(source, dialect, vars);
    let result = match dialect {
        Dialect::V2 => grammar::V2ScriptParser::new().parse(&mut lexer),
        Dialect::Classic => grammar::ClassicScriptParser::new().parse(&mut lexer),
    };
    let syntax = |pos: ast::Pos| Diagnostic::new(pos.line, pos.col, "syntax error");
    let yielded = lexer.tokens_yielded();
    match result {
        Ok(statements) => Ok(ast::ParsedScript {
            statements,
            echo: lexer.take_echo(),
            mentions_usereval: lexer.mentions_usereval(),
            calls: lexer.take_calls(),
        }),
        Err(ParseError::User { error }) => {
            // The lexer fails on the token after the last one it handed out; an error from the
            // grammar's actions (an expression nested too deeply) belongs to no single token.
            let site = lexer.failed().then(|| (yielded, error.message != "EOF found in comment"));
            Err((error, site))
        }
        // The offending token is the last one handed out.
        Err(ParseError::UnrecognizedToken { token: (pos, _, _), expected }) => {
            let error = match lexer.last_word().and_then(|word| unexpected_word(&word, &expected)) {
                Some(explanation) => syntax(pos).explained(explanation),
                None => syntax(pos),
            };
            Err((error, Some((yielded.saturating_sub(1), true))))
        }
        Err(ParseError::ExtraToken { token: (pos, _, _) }) => {
            Err((syntax(pos), Some((yielded.saturating_sub(1), true))))
        }
        Err(ParseError::InvalidToken { location }) => Err((syntax(location), None)),
        Err(ParseError::UnrecognizedEof { location, .. }) => {
            Err((syntax(ast::Pos { line: lexer.line(), col: location.col }), Some((yielded, true))))
        }
    }
}

/// What to say of `word` standing where the grammar expected one of `expected` (LALRPOP's
/// terminal names), when more can be said than `syntax error`: where only a seat (or a seat or a
/// side, or a seat or a suit as a `predeal` item starts) may stand, the word is an unknown seat.
fn unexpected_word(word: &str, expected: &[String]) -> Option<String> {
    let is_word = |name: &str| !name.starts_with('"') || name.bytes().any(|b| b.is_ascii_alphabetic());
    let mut words = expected.iter().map(String::as_str).filter(|name| is_word(name));
    if !expected.iter().any(|name| name == "COMPASS") || !words.all(|name| ["COMPASS", "SUIT", "SIDE"].contains(&name))
    {
        return None;
    }
    Some(if expected.iter().any(|name| name == "SIDE") { unknown_seat_or_side(word) } else { unknown_seat(word) })
}

/// The offset of the first NUL byte of `source`, and the error at its line and column (byte
/// columns from 1). The peers stop reading at a NUL byte and run what came before it, which
/// would hide the rest of a script passed with its length (the manual's "Dialects and
/// deliberate deviations").
fn nul_byte(source: &[u8]) -> Option<(usize, Diagnostic)> {
    let at = source.iter().position(|&b| b == 0)?;
    let before = &source[..at];
    let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
    let line_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    Some((at, Diagnostic::new(line as u32, (at - line_start + 1) as u32, NUL_MESSAGE)))
}
