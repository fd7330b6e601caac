//! The parts of a condition that read one seat's hand alone, in terms smart dealing counts.
//!
//! A *seat factor* is the conjunction of the clauses of the condition's top-level `&&` that
//! read only one seat's hand, and read it only through values that are a suit's own or sums
//! over the suits (see [`crate::dealing::SeatTable`]): suit lengths and shapes, point counts
//! (`hcp`, `ptN` and their redefinitions) of a suit or the hand, `control`, `loser`, `ltc`,
//! suit `quality`, `cccc` (its suit shares and the lengths), `hascard`, and any arithmetic,
//! comparison, `?:`, `&&`, `||` and `!` of those. Division and remainder count only by a
//! non-zero constant other than −1, so that judging a class never meets an error a hand would
//! not. `rnd()`, double dummy and external metrics never belong to a factor. Variables are
//! single nodes of the program's graph, so a clause reads through them as written, and a
//! factor is judged through the DAG compiled from that graph (each shared node once).

use crate::cards::{Deal, Hand, Seat, Suit};
use crate::dealing::{HandReading, HoldingValue, ValueScope};
use crate::program::compiled_program::Program;
use crate::program::dag::DealDag;
use crate::program::dag_builder::DagBuilder;
use crate::program::hand_stats;
use crate::program::nodes::{children, Node, NodeId};
use crate::script::ast::BinOp;

/// A value a factor reads from one suit's holding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SuitValue {
    /// A point-count table.
    Count(u8),
    /// Controls.
    Controls,
    /// Losers.
    Losers,
    /// Modern LTC.
    Ltc,
    /// Kaplan–Rubens suit quality.
    Quality,
    /// The suit's share of `cccc`.
    CcccShare,
    /// Whether the suit holds the card of this rank.
    HasRank(u8),
}

/// The clauses of a condition's top-level `&&` that read one seat's hand alone, and what they
/// read of it.
#[derive(Clone, Debug)]
pub struct SeatFactor {
    /// The seat.
    pub seat: Seat,
    /// The clauses, in the condition's order.
    pub clauses: Vec<NodeId>,
    /// Whether the suit lengths are read.
    lengths: bool,
    /// The values read, with their scope, each once.
    values: Vec<(ValueScope, SuitValue)>,
}

/// What one clause reads, while it is being looked at.
#[derive(Default)]
struct Reads {
    seat: Option<Seat>,
    lengths: bool,
    values: Vec<(ValueScope, SuitValue)>,
}

impl Reads {
    /// Records a read of `seat`; false when the clause already read another seat.
    fn seat(&mut self, seat: Seat) -> bool {
        *self.seat.get_or_insert(seat) == seat
    }

    fn value(&mut self, scope: Option<Suit>, value: SuitValue) {
        let scope = scope.map_or(ValueScope::Total, ValueScope::Suit);
        if !self.values.contains(&(scope, value)) {
            self.values.push((scope, value));
        }
    }
}

impl Program {
    /// The seat factors of `condition`, one per seat that has one, in seat order.
    pub fn seat_factors(&self, condition: NodeId) -> Vec<SeatFactor> {
        let mut conjuncts = Vec::new();
        let mut stack = vec![condition];
        while let Some(id) = stack.pop() {
            match self.nodes[id as usize] {
                Node::Binary(BinOp::And, a, b, _) => stack.extend([b, a]),
                _ => conjuncts.push(id),
            }
        }
        let mut factors: Vec<SeatFactor> = Vec::new();
        for clause in conjuncts {
            let Some(reads) = self.clause_reads(clause) else { continue };
            let Some(seat) = reads.seat else { continue };
            let factor = match factors.iter_mut().position(|f| f.seat == seat) {
                Some(at) => &mut factors[at],
                None => {
                    factors.push(SeatFactor { seat, clauses: Vec::new(), lengths: false, values: Vec::new() });
                    factors.last_mut().expect("just pushed")
                }
            };
            factor.clauses.push(clause);
            factor.lengths |= reads.lengths;
            for v in reads.values {
                if !factor.values.contains(&v) {
                    factor.values.push(v);
                }
            }
        }
        factors.sort_by_key(|f| f.seat.index());
        factors
    }

    /// What `clause` reads when it reads one seat's hand alone through values that decompose
    /// by suit; `None` otherwise.
    fn clause_reads(&self, clause: NodeId) -> Option<Reads> {
        let mut reads = Reads::default();
        let mut seen = vec![false; self.nodes.len()];
        let mut stack = vec![clause];
        while let Some(id) = stack.pop() {
            if std::mem::replace(&mut seen[id as usize], true) {
                continue;
            }
            let node = &self.nodes[id as usize];
            let (seat, scope, value) = match *node {
                Node::Length(seat, _) | Node::Shape(seat, _) => {
                    reads.lengths = true;
                    (seat, None, None)
                }
                Node::Count { table, seat, suit } => (seat, suit, Some(SuitValue::Count(table))),
                Node::Controls(seat, suit) => (seat, suit, Some(SuitValue::Controls)),
                Node::Losers(seat, suit) => (seat, suit, Some(SuitValue::Losers)),
                Node::Ltc(seat, suit) => (seat, suit, Some(SuitValue::Ltc)),
                Node::Quality(seat, suit) => (seat, Some(suit), Some(SuitValue::Quality)),
                Node::Cccc(seat) => {
                    reads.lengths = true;
                    (seat, None, Some(SuitValue::CcccShare))
                }
                Node::HasCard(seat, card) => (seat, Some(card.suit()), Some(SuitValue::HasRank(card.rank()))),
                Node::Binary(BinOp::Div | BinOp::Mod, a, b, _) => {
                    match self.nodes[b as usize] {
                        Node::Const(k) if k != 0 && k != -1 => stack.extend([a, b]),
                        _ => return None,
                    }
                    continue;
                }
                Node::Const(_)
                | Node::Not(_)
                | Node::Binary(..)
                | Node::CompareConst(..)
                | Node::Conditional(..)
                | Node::Score { .. }
                | Node::Imps(_) => {
                    stack.extend(children(node));
                    continue;
                }
                Node::Rnd(_) | Node::Dds(..) | Node::Par(..) | Node::Opc(..) | Node::UserEval { .. } => return None,
            };
            if !reads.seat(seat) {
                return None;
            }
            if let Some(value) = value {
                reads.value(scope, value);
            }
        }
        Some(reads)
    }
}

impl SeatFactor {
    /// What the factor reads of a hand, as values of single suits, for counting.
    pub fn reading<'a>(&'a self, program: &'a Program) -> HandReading<'a> {
        let values = self
            .values
            .iter()
            .map(|&(scope, value)| {
                let dialect = program.dialect;
                let f: HoldingValue<'a> = match value {
                    SuitValue::Count(table) => Box::new(move |h| program.counts.count(table as usize, h, None)),
                    SuitValue::Controls => Box::new(|h| hand_stats::controls(h, None)),
                    SuitValue::Losers => Box::new(|h| hand_stats::losers(h, None)),
                    SuitValue::Ltc => Box::new(|h| hand_stats::ltc(h, None)),
                    SuitValue::Quality => {
                        Box::new(move |h| Suit::ALL.iter().map(|&s| hand_stats::quality(h, s, dialect)).sum())
                    }
                    SuitValue::CcccShare => {
                        Box::new(move |h| Suit::ALL.iter().map(|&s| hand_stats::cccc_suit(h, s, dialect)).sum())
                    }
                    SuitValue::HasRank(rank) => {
                        Box::new(move |h: Hand| (h.0 & 0x0001_0001_0001_0001 << rank != 0) as i32)
                    }
                };
                (scope, f)
            })
            .collect();
        HandReading { lengths: self.lengths, values }
    }
}

/// Judges of several seat factors on hands of their seats, through one DAG compiled from the
/// condition's own graph (nodes the factors share computed once).
pub struct FactorJudges<'a> {
    program: &'a Program,
    /// The DAG, when every factor's clauses compile (not nested too deeply).
    dag: Option<DealDag>,
    /// Each factor's seat and the range of its clauses among the DAG's roots.
    factors: Vec<(Seat, std::ops::Range<usize>)>,
}

impl<'a> FactorJudges<'a> {
    /// Judges of `factors`, factors of `program`'s condition.
    pub fn new(program: &'a Program, factors: &[SeatFactor]) -> FactorJudges<'a> {
        let mut builder = DagBuilder::new(program);
        let mut roots = Vec::new();
        let mut ranges = Vec::new();
        let mut compiled = true;
        for factor in factors {
            let start = roots.len();
            for &clause in &factor.clauses {
                match builder.compile(clause) {
                    Some(slot) => roots.push(slot),
                    None => compiled = false,
                }
            }
            ranges.push((factor.seat, start..roots.len()));
        }
        let dag = compiled.then(|| DealDag::new(builder, &roots));
        FactorJudges { program, dag, factors: ranges }
    }

    /// Whether factor `k` accepts `hand` (a hand of its seat; the other seats are empty);
    /// `None` when the factors did not compile, and then none may be counted.
    pub fn judge(&mut self, k: usize, hand: Hand) -> Option<bool> {
        let dag = self.dag.as_mut()?;
        let (seat, ref roots) = self.factors[k];
        let mut deal = Deal([Hand::EMPTY; 4]);
        deal.0[seat.index()] = hand;
        dag.next_deal();
        Some(roots.clone().all(|root| dag.value(root, self.program, &deal) != 0))
    }
}
