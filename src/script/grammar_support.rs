//! Small helpers for the grammar's actions: numeric literals as the peers read them, and
//! expression nodes built with the depth of their tree (refused beyond Bison's stack depth, as
//! `memory exhausted`).

use lalrpop_util::ParseError;

use crate::script::ast::{BinOp, Expr, Pos};
use crate::script::diagnostic::Diagnostic;
use crate::script::token::Token;

/// A numeric literal as written: optional `-`, then a `strtol`-saturated magnitude.
#[derive(Clone, Copy, Debug)]
pub struct Lit {
    /// Written with a leading `-`.
    pub negative: bool,
    /// The digits' value, saturated at `i64::MAX` (dotnums already ×100).
    pub magnitude: i64,
    /// Where the literal (its `-`, if any) starts.
    pub pos: Pos,
}

impl Lit {
    /// The value as C `int` (`atoi`: the saturated `long` truncated to 32 bits, then negated).
    pub fn int(self) -> i32 {
        let v = self.magnitude as i32;
        if self.negative {
            v.wrapping_neg()
        } else {
            v
        }
    }

    /// The value as a 64-bit number (statement arguments).
    pub fn long(self) -> i64 {
        if self.negative {
            -self.magnitude
        } else {
            self.magnitude
        }
    }

    /// The literal as an expression.
    pub fn expr(self) -> Expr {
        Expr::Number(self.int(), self.pos)
    }
}

/// Deepest expression tree the parser builds. Bison's parser stack (`YYMAXDEPTH` 10000)
/// gives the peers a similar limit on nesting; deeper trees would make every recursive walk
/// of the tree (evaluation, even dropping it) risk a stack overflow.
pub const MAX_EXPR_DEPTH: u32 = 10_000;

/// An expression with the depth of its tree and, when its first token is an identifier,
/// the line of the token after that identifier (see [`statement_start`]).
pub struct Deep(pub Expr, pub u32, pub Option<u32>);

impl From<Expr> for Deep {
    fn from(e: Expr) -> Deep {
        Deep(e, 1, None)
    }
}

impl Deep {
    /// The expression in parentheses: its first token is now `(`.
    pub fn parenthesized(self) -> Deep {
        Deep(self.0, self.1, None)
    }
}

/// The expression of a bare expression statement. When the statement starts with an
/// identifier, the peers' parser can only reduce it to a variable reference once it has read
/// the next token (it could have been `IDENT = …`), so `unknown variable` is reported on the
/// line of that token: the variable's position gets that line.
pub fn statement_start(e: Deep) -> Expr {
    let Deep(mut expr, _, lead) = e;
    if let Some(line) = lead {
        // The first token is the leftmost leaf; walk down to it without recursion.
        let mut node = &mut expr;
        loop {
            match node {
                Expr::Binary(_, left, _, _) | Expr::Conditional(left, _, _) => node = &mut **left,
                Expr::Variable(_, pos) => {
                    pos.line = line;
                    break;
                }
                _ => break,
            }
        }
    }
    expr
}

type Parse<T> = Result<T, ParseError<Pos, Token, Diagnostic>>;

/// The depth of a node over children of depth `depth`, or Bison's overflow message.
fn deeper(depth: u32, pos: Pos) -> Parse<u32> {
    if depth >= MAX_EXPR_DEPTH {
        return Err(ParseError::User { error: Diagnostic::new(pos.line, pos.col, "memory exhausted") });
    }
    Ok(depth + 1)
}

/// `l OP r` (`pos`: the operator).
pub fn bin(op: BinOp, l: Deep, r: Deep, pos: Pos) -> Parse<Deep> {
    let depth = deeper(l.1.max(r.1), pos)?;
    Ok(Deep(Expr::Binary(op, Box::new(l.0), Box::new(r.0), pos), depth, l.2))
}

/// `c ? a : b` (`pos`: the `?`).
pub fn conditional(c: Deep, a: Deep, b: Deep, pos: Pos) -> Parse<Deep> {
    let depth = deeper(c.1.max(a.1).max(b.1), pos)?;
    Ok(Deep(Expr::Conditional(Box::new(c.0), Box::new(a.0), Box::new(b.0)), depth, c.2))
}

/// A node over one expression, starting with its own token (`!`, a function name).
pub fn wrap(e: Deep, pos: Pos, make: impl FnOnce(Expr) -> Expr) -> Parse<Deep> {
    let depth = deeper(e.1, pos)?;
    Ok(Deep(make(e.0), depth, None))
}

/// A node over two expressions, starting with its own token.
pub fn wrap2(a: Deep, b: Deep, pos: Pos, make: impl FnOnce(Expr, Expr) -> Expr) -> Parse<Deep> {
    let depth = deeper(a.1.max(b.1), pos)?;
    Ok(Deep(make(a.0, b.0), depth, None))
}
