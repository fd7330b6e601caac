//! The merged nodes of deal expressions: `DagNode`, a deal expression whose operands are
//! other merged nodes (by `Slot`), and the hand statistics and measures it reads straight from
//! the deal ([`Stat`], [`HandMeasure`]). The DAG builder makes them, the DAG runs them.

use crate::cards::{Card, Deal, Seat, Suit};
use crate::program::compiled_program::Program;
use crate::script::ast::{BinOp, Contract};

/// Index of a merged node, which is also the index of its value slot.
pub(crate) type Slot = u32;

/// A node of the DAG: a deal expression whose operands are other nodes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum DagNode {
    /// A constant.
    Const(i32),
    /// A suit length or a count over a hand.
    Stat(Stat),
    /// A statistic compared with a constant by `!=`.
    StatCompare(Stat, BinOp, i32),
    /// Whether a statistic lies in `lo..=hi`.
    StatRange(Stat, i32, i32),
    /// Whether a hand's shape is in a shape set of the program.
    Shape(Seat, u32),
    /// Whether a hand holds a card.
    HasCard(Seat, Card),
    /// A value that depends on nothing but the suit lengths of a hand: an entry of a table
    /// (by pattern) at an offset of the DAG's tables (`DealDag::shape_values`).
    ShapeValue(Seat, u32),
    /// Controls, losers or LTC of a hand or one suit.
    HandMeasure(HandMeasure, Seat, Option<Suit>),
    /// Kaplan–Rubens CCCC.
    Cccc(Seat),
    /// Kaplan–Rubens suit quality.
    Quality(Seat, Suit),
    /// `!a`.
    Not(Slot),
    /// `a && b && …`, judged in order until one is 0.
    All(Vec<Slot>),
    /// `a || b || …`, judged in order until one is not 0.
    Any(Vec<Slot>),
    /// A comparison or arithmetic operator other than `/` and `%`.
    Binary(BinOp, Slot, Slot),
    /// A comparison with a constant.
    CompareConst(BinOp, Slot, i32),
    /// `a / k` or `a % k` for a constant `k` other than 0 and −1 (which cannot fail).
    DivideConst(BinOp, Slot, i32),
    /// `c ? a : b`.
    Conditional(Slot, Slot, Slot),
    /// Bridge score of a contract for a number of tricks.
    Score(bool, Contract, Slot),
    /// IMPs of a score difference.
    Imps(Slot),
}

impl DagNode {
    /// The nodes it reads.
    pub(crate) fn operands(&self) -> Vec<Slot> {
        match self {
            DagNode::Not(a)
            | DagNode::CompareConst(_, a, _)
            | DagNode::DivideConst(_, a, _)
            | DagNode::Score(_, _, a)
            | DagNode::Imps(a) => vec![*a],
            DagNode::All(parts) | DagNode::Any(parts) => parts.clone(),
            DagNode::Binary(_, a, b) => vec![*a, *b],
            DagNode::Conditional(c, a, b) => vec![*c, *a, *b],
            _ => Vec::new(),
        }
    }

    /// Whether computing it costs no more than taking a computed value from its slot: such a
    /// node is computed again where it is read, never kept.
    pub(crate) fn is_cheap(&self) -> bool {
        matches!(
            self,
            DagNode::Const(_)
                | DagNode::Stat(_)
                | DagNode::StatCompare(..)
                | DagNode::StatRange(..)
                | DagNode::Shape(..)
                | DagNode::ShapeValue(..)
                | DagNode::HasCard(..)
        )
    }
}

/// A hand statistic read straight from the deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stat {
    /// Length of a suit in a hand.
    Length(Seat, Suit),
    /// A count table (index into the program's tables) over a hand or one suit.
    Count(u8, Seat, Option<Suit>),
}

impl Stat {
    /// The statistic on `deal`.
    #[inline(always)]
    pub(crate) fn value(self, program: &Program, deal: &Deal) -> i32 {
        match self {
            Stat::Length(seat, suit) => deal.hand(seat).len(suit) as i32,
            Stat::Count(table, seat, suit) => program.counts.count(table as usize, deal.hand(seat), suit),
        }
    }
}

/// The hand measures that take a seat and an optional suit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HandMeasure {
    /// Controls (A=2, K=1).
    Controls,
    /// Losers.
    Losers,
    /// Modern LTC ×100.
    Ltc,
}

/// A statistic compared with a constant as the range of values that pass (empty when none
/// does: `lo > hi`); `None` for `!=`, which is no range.
pub(crate) fn compare_as_range(op: BinOp, k: i32) -> Option<(i32, i32)> {
    const EMPTY: (i32, i32) = (1, 0);
    Some(match op {
        BinOp::Eq => (k, k),
        BinOp::Le => (i32::MIN, k),
        BinOp::Lt => k.checked_sub(1).map_or(EMPTY, |hi| (i32::MIN, hi)),
        BinOp::Ge => (k, i32::MAX),
        BinOp::Gt => k.checked_add(1).map_or(EMPTY, |lo| (lo, i32::MAX)),
        _ => return None,
    })
}
