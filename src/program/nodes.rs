//! The node array a compiled script is made of: [`Node`], the expression node every condition,
//! variable and action argument points into by [`NodeId`], the operands of a node, the
//! values of its operators in C; and the message for an expression nested too deeply.

use crate::cards::{Card, Seat, Side, Strain, Suit};
use crate::script::ast::{BinOp, Contract, Pos, Vulnerability};

/// Index of a node in [`Program::nodes`](crate::program::Program::nodes).
pub type NodeId = u32;

/// One compiled expression node. Children are indices into the same array.
#[derive(Clone, Debug, PartialEq)]
pub enum Node {
    /// A constant.
    Const(i32),
    /// Length of a suit in a seat's hand.
    Length(Seat, Suit),
    /// A count table (index into [`CountTables`](crate::program::hand_stats::CountTables)) over a hand or one suit.
    Count {
        /// The count table.
        table: u8,
        /// The seat whose hand is read.
        seat: Seat,
        /// One suit, or the whole hand when `None`.
        suit: Option<Suit>,
    },
    /// Controls (A=2, K=1).
    Controls(Seat, Option<Suit>),
    /// Losers.
    Losers(Seat, Option<Suit>),
    /// Modern LTC ×100.
    Ltc(Seat, Option<Suit>),
    /// Kaplan–Rubens CCCC ×100.
    Cccc(Seat),
    /// Kaplan–Rubens suit quality ×100.
    Quality(Seat, Suit),
    /// Whether a seat's shape is in shape set number `set`.
    Shape(Seat, u32),
    /// Whether a seat holds a card.
    HasCard(Seat, Card),
    /// Logical not.
    Not(NodeId),
    /// A binary operator; `pos` locates division by zero.
    Binary(BinOp, NodeId, NodeId, Pos),
    /// A comparison (`==`, `!=`, `<`, `<=`, `>`, `>=`) of a node with a constant: the commonest
    /// clause of a condition, judged in one step.
    CompareConst(BinOp, NodeId, i32),
    /// `c ? a : b`.
    Conditional(NodeId, NodeId, NodeId),
    /// Bridge score of a contract for a number of tricks.
    Score {
        /// Whether declarer is vulnerable.
        vulnerable: bool,
        /// The contract.
        contract: Contract,
        /// Tricks taken by declarer.
        tricks: NodeId,
    },
    /// IMPs of a score difference.
    Imps(NodeId),
    /// `rnd(n)`.
    Rnd(NodeId),
    /// Double-dummy tricks for a declarer in a strain (`dds()`, and `tricks()`, which DDS answers
    /// too); `pos` locates solver errors.
    Dds(Seat, Strain, Pos),
    /// `par(side[, vulnerability])`: the par score from the side's point of view; without a
    /// vulnerability the session's default (`-P`) applies.
    Par(Side, Option<Vulnerability>, Pos),
    /// `opc(side[, strain])`: DOP's value ×100 in the strain, or in the longest fit without one.
    Opc(Side, Option<Strain>, Pos),
    /// `usereval(tag, side|compass, [suit,] index)`: a slot of an external metric's results.
    UserEval {
        /// The metric tag.
        tag: NodeId,
        /// The index argument.
        index: NodeId,
        /// The form of the call (side, seat, suit), which picks the slot.
        form: crate::external::usereval::SlotForm,
        /// Where it stands in the script (for errors).
        pos: Pos,
    },
}

/// The operands of a node.
pub(crate) fn children(node: &Node) -> Vec<NodeId> {
    match node {
        Node::Not(a) | Node::Imps(a) | Node::Rnd(a) | Node::CompareConst(_, a, _) => vec![*a],
        Node::Score { tricks, .. } => vec![*tricks],
        Node::UserEval { tag, index, .. } => vec![*tag, *index],
        Node::Binary(_, a, b, _) => vec![*a, *b],
        Node::Conditional(c, a, b) => vec![*c, *a, *b],
        _ => Vec::new(),
    }
}

/// Whether dividing by (or taking the remainder of) the value of `divisor` can never fail: a
/// constant other than 0 (division by zero) and -1 (`INT_MIN / -1` overflows).
pub(crate) fn divides_safely(divisor: &Node) -> bool {
    matches!(divisor, Node::Const(k) if *k != 0 && *k != -1)
}

/// The message for an expression too deep for the stack of the thread compiling or
/// evaluating it (see [`crate::stack`]).
pub const TOO_DEEP: &str = "expression nested too deeply for this thread's stack";

/// A comparison or arithmetic operator (not `&&`, `||`, `/`, `%`) on two values, in C.
#[inline(always)]
pub fn apply(op: BinOp, x: i32, y: i32) -> i32 {
    match op {
        BinOp::Eq => (x == y) as i32,
        BinOp::Ne => (x != y) as i32,
        BinOp::Lt => (x < y) as i32,
        BinOp::Le => (x <= y) as i32,
        BinOp::Gt => (x > y) as i32,
        BinOp::Ge => (x >= y) as i32,
        BinOp::Add => x.wrapping_add(y),
        BinOp::Sub => x.wrapping_sub(y),
        BinOp::Mul => x.wrapping_mul(y),
        BinOp::And => (x != 0 && y != 0) as i32,
        BinOp::Or => (x != 0 || y != 0) as i32,
        BinOp::Div | BinOp::Mod => unreachable!("division is compiled to DivideConst or left to the evaluator"),
    }
}
