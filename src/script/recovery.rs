//! Recovery of what precedes a syntax error: the peers check the statements they parsed before
//! they meet a syntax error, so a semantic error there is the one they report. [`recover`]
//! re-parses the tokens before the failing one, completing a statement the error cuts short with
//! placeholder tokens (see [`ParseFailure::before`](super::parse::ParseFailure::before)).

use lalrpop_util::ParseError;

use crate::dialect::Dialect;
use crate::script::ast;
use crate::script::diagnostic::Diagnostic;
use crate::script::lexer::{Lexer, ScriptVars, Spanned};
use crate::script::parsers::grammar;
use crate::script::token::Token;

/// Most placeholder tokens [`recover`] appends to complete a statement cut short.
const MAX_PLACEHOLDERS: usize = 32;

/// Re-parses the first `tokens` tokens of a script that failed on the next one, completing the
/// last statement with placeholders (see [`ParseFailure::before`](super::parse::ParseFailure::before)). When the peers would not
/// have read the failing token, nothing may be reduced on it as a look-ahead: the end location
/// of the last real token then moves to line 0 too.
pub fn recover(
    source: &[u8],
    dialect: Dialect,
    vars: &ScriptVars,
    tokens: usize,
    lookahead_read: bool,
) -> Option<ast::ParsedScript> {
    let mut lexer = Lexer::new(source, dialect, vars);
    let mut prefix: Vec<Spanned> = lexer.by_ref().take(tokens).collect::<Result<_, _>>().ok()?;
    let calls = lexer.take_calls();
    if prefix.len() != tokens {
        return None;
    }
    if !lookahead_read {
        if let Some(last) = prefix.last_mut() {
            last.2 = ast::Pos::default();
        }
    }
    for _ in 0..=MAX_PLACEHOLDERS {
        let stream = prefix.iter().cloned().map(Ok::<_, Diagnostic>);
        let result = match dialect {
            Dialect::V2 => grammar::V2ScriptParser::new().parse(stream),
            Dialect::Classic => grammar::ClassicScriptParser::new().parse(stream),
        };
        match result {
            Ok(statements) => {
                return Some(ast::ParsedScript { statements, echo: String::new(), mentions_usereval: false, calls })
            }
            Err(ParseError::UnrecognizedEof { expected, .. }) => {
                let token = placeholder(&expected)?;
                prefix.push((ast::Pos::default(), token, ast::Pos::default()));
            }
            Err(_) => return None,
        }
    }
    None
}

/// A token the parser expects that brings a statement closer to its end without adding
/// anything the peers would check: closing parentheses first, then the simplest operands.
fn placeholder(expected: &[String]) -> Option<Token> {
    use crate::cards::{Card, Seat, Side, Suit};
    use crate::script::token::{DistrNumber, Holding};
    const BALANCED: ast::ShapePattern = [Some(4), Some(3), Some(3), Some(3)];
    let choices: [(&str, Token); 20] = [
        ("\")\"", Token::RParen),
        ("NUMBER", Token::Number(0)),
        ("\":\"", Token::Colon),
        ("\"==\"", Token::EqEq),
        ("COMPASS", Token::Compass(Seat::North)),
        ("SUIT", Token::Suit(Suit::Spades)),
        ("HOLDING", Token::Holding(Holding { suit: Suit::Spades, ranks: 0 })),
        ("DISTR", Token::Distr([None; 4])),
        ("DISTR_OR_NUMBER", Token::DistrOrNumber(DistrNumber { pattern: BALANCED, value: 0 })),
        ("CARD", Token::Card(Card::new(Suit::Spades, 12))),
        ("CONTRACT", Token::Contract(ast::Contract { level: 1, strain: crate::cards::Strain::Notrump, doubled: 0 })),
        ("VULN", Token::VulnFlag(false)),
        ("SIDE", Token::SideName(Side::NS)),
        ("VULNERABILITY", Token::VulWord(ast::Vulnerability::None)),
        ("\"deal\"", Token::Deal),
        ("\"notrump\"", Token::Notrump),
        ("STRING", Token::Str(String::new())),
        ("\"(\"", Token::LParen),
        ("\",\"", Token::Comma),
        ("\"=\"", Token::Assign),
    ];
    choices.into_iter().find(|(name, _)| expected.iter().any(|e| e == name)).map(|(_, token)| token)
}
