//! Deal expressions: the part of a compiled program that reads nothing but the deal, compiled
//! once more into a compact tree that is judged without errors, side effects or the general
//! evaluator's bookkeeping.
//!
//! The condition of most scripts is such an expression (hand statistics, shapes, comparisons,
//! `&&`/`||`, arithmetic). Nodes that draw random numbers, solve double dummy, ask external
//! metrics or may fail (division by a non-constant, which may be zero) keep the general
//! evaluator ([`crate::program::eval`]); [`DealExpr::compile`] returns `None` for them. The values are
//! those of the general evaluator, C semantics included (wrapping arithmetic, truncating
//! division, `&&`/`||`/`!`/comparisons giving 0 or 1, short circuits).

use crate::cards::{Card, Deal, Seat, SeatSet, Suit};
use crate::dealing::{Dealer, LAZY_DEALING_ORDER};
use crate::program::chain_order;
use crate::program::dag::DealDag;
use crate::program::hand_stats;
use crate::program::scoring;
use crate::program::shape::{all_patterns, ShapeSet};
use crate::program::{Node, NodeId, Program};
use crate::script::ast::{BinOp, Contract};

/// A compiled deal expression.
#[derive(Clone, Debug, PartialEq)]
pub enum DealExpr {
    /// A constant.
    Const(i32),
    /// A suit length or a count over a hand.
    Stat(Stat),
    /// A hand statistic compared with a constant by `!=` (the other comparisons are ranges).
    StatCompare(Stat, BinOp, i32),
    /// Whether a hand statistic lies in `lo..=hi`: a comparison with a constant, or several
    /// of one `&&` chain.
    StatRange(Stat, i32, i32),
    /// Whether a hand's shape is in a shape set of the program.
    Shape(Seat, u32),
    /// Whether a hand's shape is in a set made when the condition was staged: the clauses of a
    /// stage that read nothing but the suit lengths of one hand, joined into one look-up.
    ShapeIn(Seat, Box<ShapeSet>),
    /// Whether a hand holds a card.
    HasCard(Seat, Card),
    /// Controls, losers or LTC of a hand or one suit.
    HandMeasure(HandMeasure, Seat, Option<Suit>),
    /// Kaplan–Rubens CCCC.
    Cccc(Seat),
    /// Kaplan–Rubens suit quality.
    Quality(Seat, Suit),
    /// `!a`.
    Not(Box<DealExpr>),
    /// `a && b && …`, judged in order until one is 0.
    All(Vec<DealExpr>),
    /// `a || b || …`, judged in order until one is not 0.
    Any(Vec<DealExpr>),
    /// A comparison or arithmetic operator other than `/` and `%`.
    Binary(BinOp, Box<DealExpr>, Box<DealExpr>),
    /// A comparison with a constant.
    CompareConst(BinOp, Box<DealExpr>, i32),
    /// `a / k` or `a % k` for a constant `k` other than 0 and −1 (which cannot fail).
    DivideConst(BinOp, Box<DealExpr>, i32),
    /// `c ? a : b`.
    Conditional(Box<DealExpr>, Box<DealExpr>, Box<DealExpr>),
    /// Bridge score of a contract for a number of tricks.
    Score(bool, Contract, Box<DealExpr>),
    /// IMPs of a score difference.
    Imps(Box<DealExpr>),
}

/// A condition judged seat by seat: the clauses of its top-level `&&` chain are grouped by the
/// hands they read, in the order the lazy dealer deals them (North, South, East, West), so a
/// deal that fails on North's clauses is rejected before the other hands are dealt. A
/// top-level `||` chain is staged alike: a deal that passes on North's alternatives is
/// accepted before the other hands are dealt.
///
/// Within a stage the clauses are reordered as the run goes: those that most often decide a
/// deal when judged (fail in an `&&` chain, pass in an `||` chain), for what they cost, are
/// judged first. The clauses read only the deal, so judging them in another order changes no
/// verdict, only the time it takes. A group of clauses that costs more than dealing the next
/// hand is judged with the next hand's group.
#[derive(Clone, Debug)]
pub struct StagedCondition {
    /// Whether the stages are alternatives (the condition is an `||` chain): the first stage
    /// that passes decides; otherwise the first that fails does.
    any: bool,
    stages: Vec<Stage>,
    /// The clauses that are more than one test of a hand, merged into one program.
    dag: DealDag,
}

/// The clauses of a condition judged once some seats are dealt.
#[derive(Clone, Debug, PartialEq)]
struct Stage {
    /// The seats dealt so far (cumulative).
    seats: SeatSet,
    /// Whether the stage needs one clause to pass (`||`) rather than all of them (`&&`).
    any: bool,
    clauses: Vec<Clause>,
    /// Judgements since the clauses were last reordered.
    judged: u32,
}

/// A clause with the number of times it was judged and decided the stage since the last
/// reordering.
#[derive(Clone, Debug, PartialEq)]
struct Clause {
    test: ClauseTest,
    judged: u32,
    decided: u32,
    /// What judging it costs, roughly ([`chain_order::cost`], doubled, at least 1).
    cost: u64,
}

/// How a clause is judged.
#[derive(Clone, Debug, PartialEq)]
enum ClauseTest {
    /// One test of a hand (a shape, a statistic in a range), judged in line.
    InLine(DealExpr),
    /// A root of the condition's [`DealDag`].
    Root(usize),
}

impl Clause {
    /// How often the clause decides when judged, as a fraction with one decision and one
    /// non-decision added (so a clause not judged yet counts as deciding half the time).
    fn decision_rate(&self) -> (u64, u64) {
        (u64::from(self.decided) + 1, u64::from(self.judged) + 2)
    }
}

/// Judgements of a stage between two reorderings of its clauses.
const REORDER_INTERVAL: u32 = 1 << 12;

/// What dealing one more hand costs, in the units of [`chain_order::cost`] (about one
/// reading of a suit length each): a group of clauses that costs more is judged with the
/// next hand's.
const HAND_DEALING_COST: f64 = 24.0;

impl StagedCondition {
    /// Stages a deal expression of `program`.
    pub fn new(program: &Program, condition: DealExpr) -> StagedCondition {
        let (any, clauses) = match chain_order::arrange(program, condition) {
            DealExpr::All(clauses) => (false, clauses),
            DealExpr::Any(alternatives) => (true, alternatives),
            other => (false, vec![other]),
        };
        // Group by the position of the last seat each clause reads in the dealing order.
        let mut groups: Vec<Vec<DealExpr>> = vec![Vec::new(); 5];
        for clause in clauses {
            let seats = clause.seats();
            let rank = LAZY_DEALING_ORDER.iter().rposition(|&seat| seats.contains(seat)).map_or(0, |k| k + 1);
            groups[rank].push(clause);
        }
        // A group that costs more to judge than dealing the next hand joins the next hand's
        // group (if it has one), where its clauses are judged in the best order among that
        // group's: North's long evaluation can wait until South's rare opening is found.
        // (Not over a hand no clause reads: a group's cost is estimated before the DAG shares
        // what its clauses have in common, which overstates long scripts' costs, and dealing
        // two hands more for it costs more than it saves on the scripts measured.)
        for rank in 0..groups.len() - 1 {
            let cost: f64 = groups[rank].iter().map(chain_order::cost).sum();
            if !groups[rank + 1].is_empty() && cost > HAND_DEALING_COST {
                let moved = std::mem::take(&mut groups[rank]);
                groups[rank + 1].splice(0..0, moved);
            }
        }
        let mut stages: Vec<(SeatSet, bool, Vec<DealExpr>)> = Vec::new();
        let mut dealt = SeatSet::NONE;
        for (rank, mut group) in groups.into_iter().enumerate() {
            if rank > 0 {
                dealt = dealt.union(SeatSet::of(LAZY_DEALING_ORDER[rank - 1]));
            }
            if group.is_empty() {
                continue;
            }
            // A lone chain of the other operator (an `||` among `&&` clauses, an `&&` among
            // alternatives) is a stage of the other kind.
            let stage_any = match group.as_mut_slice() {
                [DealExpr::Any(alternatives)] if !any => Some((true, std::mem::take(alternatives))),
                [DealExpr::All(clauses)] if any => Some((false, std::mem::take(clauses))),
                _ => None,
            }
            .map_or(any, |(stage_any, parts)| {
                group = parts;
                stage_any
            });
            stages.push((dealt, stage_any, join_shape_clauses(program, group, stage_any)));
        }
        // The clauses beyond one test of a hand, of every stage, make one program: what they
        // share is computed once per deal.
        let in_line = |expr: &DealExpr| {
            matches!(
                expr,
                DealExpr::Shape(..) | DealExpr::ShapeIn(..) | DealExpr::StatRange(..) | DealExpr::StatCompare(..)
            )
        };
        let roots: Vec<&DealExpr> =
            stages.iter().flat_map(|(_, _, group)| group.iter()).filter(|expr| !in_line(expr)).collect();
        let dag = DealDag::new(program, &roots);
        let mut next_root = 0;
        let stages = stages
            .into_iter()
            .map(|(seats, any, group)| {
                let clauses = group
                    .into_iter()
                    .map(|expr| {
                        let cost = (chain_order::cost(&expr) * 2.0).clamp(1.0, 1e6) as u64;
                        let test = if in_line(&expr) {
                            ClauseTest::InLine(expr)
                        } else {
                            next_root += 1;
                            ClauseTest::Root(next_root - 1)
                        };
                        Clause { test, judged: 0, decided: 0, cost }
                    })
                    .collect();
                Stage { seats, any, clauses, judged: 0 }
            })
            .collect();
        StagedCondition { any, stages, dag }
    }

    /// The seats to deal before the first stage.
    pub fn first_seats(&self) -> SeatSet {
        self.stages.first().map_or(SeatSet::NONE, |stage| stage.seats)
    }

    /// Whether `deal` (dealt for [`first_seats`](Self::first_seats) by `dealer`, its last deal)
    /// satisfies the condition; the dealer deals the hands each later stage reads as it is
    /// reached.
    #[inline(always)]
    pub fn judge(&mut self, program: &Program, dealer: &mut Dealer, deal: &mut Deal) -> bool {
        self.dag.next_deal();
        for (k, stage) in self.stages.iter_mut().enumerate() {
            if k > 0 {
                dealer.extend(deal, stage.seats);
            }
            if stage.judge(program, deal, &mut self.dag) == self.any {
                return self.any;
            }
        }
        !self.any
    }
}

impl Stage {
    /// Judges the stage's clauses in their current order and counts which one decided.
    #[inline(always)]
    fn judge(&mut self, program: &Program, deal: &Deal, dag: &mut DealDag) -> bool {
        self.judged += 1;
        if self.judged == REORDER_INTERVAL {
            self.reorder();
        }
        // `&&`: the first failing clause decides; `||`: the first passing one.
        for clause in &mut self.clauses {
            clause.judged += 1;
            let truth = match &clause.test {
                ClauseTest::InLine(expr) => expr.truth(program, deal),
                ClauseTest::Root(root) => dag.value(*root, program, deal) != 0,
            };
            if truth == self.any {
                clause.decided += 1;
                return self.any;
            }
        }
        !self.any
    }

    /// Puts the clauses that decide most often for what they cost when judged first. (The
    /// count of decisions alone would favour the clauses already in front, which are judged on
    /// every deal.)
    #[cold]
    fn reorder(&mut self) {
        self.clauses.sort_by(|a, b| {
            let ((a_decided, a_judged), (b_decided, b_judged)) = (a.decision_rate(), b.decision_rate());
            (b_decided * a_judged * a.cost).cmp(&(a_decided * b_judged * b.cost))
        });
        for clause in &mut self.clauses {
            clause.decided = 0;
            clause.judged = 0;
        }
        self.judged = 0;
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
    /// The seat whose hand it reads.
    fn seat(self) -> Seat {
        match self {
            Stat::Length(seat, _) | Stat::Count(_, seat, _) => seat,
        }
    }

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

/// Largest deal expression compiled, in nodes: a deal expression copies a variable's expression
/// at each use, which variables built from variables can make exponentially large (the
/// evaluator shares them instead).
pub const MAX_NODES: u32 = 1 << 20;

/// Deepest deal expression compiled (levels of operators over statistics, a `&&`/`||` chain
/// counting as one): it keeps their recursive walks far from the end of any thread's stack.
pub const MAX_DEPTH: u32 = 64;

impl DealExpr {
    /// Compiles node `id` of `program`; `None` when anything below it is not a deal expression
    /// (or when it has more than [`MAX_NODES`] nodes or nests deeper than [`MAX_DEPTH`]: the
    /// evaluator, which shares variables and watches its stack, takes those).
    pub fn compile(program: &Program, id: NodeId) -> Option<DealExpr> {
        if program.expanded_size(id) > MAX_NODES {
            return None;
        }
        DealExpr::compile_at(program, id, 0)
    }

    /// [`compile`](Self::compile) of a node `depth` levels down.
    fn compile_at(program: &Program, id: NodeId, depth: u32) -> Option<DealExpr> {
        if depth > MAX_DEPTH {
            return None;
        }
        let sub = |id: NodeId| DealExpr::compile_at(program, id, depth + 1).map(Box::new);
        Some(match &program.nodes[id as usize] {
            Node::Const(n) => DealExpr::Const(*n),
            Node::Length(seat, suit) => DealExpr::Stat(Stat::Length(*seat, *suit)),
            Node::Count { table, seat, suit } => DealExpr::Stat(Stat::Count(*table, *seat, *suit)),
            Node::Shape(seat, set) => DealExpr::Shape(*seat, *set),
            Node::HasCard(seat, card) => DealExpr::HasCard(*seat, *card),
            Node::Controls(seat, suit) => DealExpr::HandMeasure(HandMeasure::Controls, *seat, *suit),
            Node::Losers(seat, suit) => DealExpr::HandMeasure(HandMeasure::Losers, *seat, *suit),
            Node::Ltc(seat, suit) => DealExpr::HandMeasure(HandMeasure::Ltc, *seat, *suit),
            Node::Cccc(seat) => DealExpr::Cccc(*seat),
            Node::Quality(seat, suit) => DealExpr::Quality(*seat, *suit),
            Node::Not(a) => DealExpr::Not(sub(*a)?),
            Node::CompareConst(op, a, k) => match DealExpr::compile_at(program, *a, depth + 1)? {
                DealExpr::Stat(stat) => match compare_as_range(*op, *k) {
                    Some((lo, hi)) => DealExpr::StatRange(stat, lo, hi),
                    None => DealExpr::StatCompare(stat, *op, *k),
                },
                a => DealExpr::CompareConst(*op, Box::new(a), *k),
            },
            Node::Binary(op, a, b, _) => match (op, &program.nodes[*b as usize]) {
                (BinOp::And, _) => DealExpr::All(merge_ranges(chain(program, [*a, *b], BinOp::And, depth)?)),
                (BinOp::Or, _) => DealExpr::Any(chain(program, [*a, *b], BinOp::Or, depth)?),
                (BinOp::Div | BinOp::Mod, Node::Const(k)) if *k != 0 && *k != -1 => {
                    DealExpr::DivideConst(*op, sub(*a)?, *k)
                }
                (BinOp::Div | BinOp::Mod, _) => return None,
                _ => DealExpr::Binary(*op, sub(*a)?, sub(*b)?),
            },
            Node::Conditional(c, a, b) => DealExpr::Conditional(sub(*c)?, sub(*a)?, sub(*b)?),
            Node::Score { vulnerable, contract, tricks } => DealExpr::Score(*vulnerable, *contract, sub(*tricks)?),
            Node::Imps(a) => DealExpr::Imps(sub(*a)?),
            Node::Rnd(_) | Node::Dds(..) | Node::Par(..) | Node::Opc(..) | Node::UserEval { .. } => return None,
        })
    }

    /// The seats whose hands the expression reads.
    pub fn seats(&self) -> SeatSet {
        match self {
            DealExpr::Const(_) => SeatSet::NONE,
            DealExpr::Stat(stat) | DealExpr::StatCompare(stat, ..) | DealExpr::StatRange(stat, ..) => {
                SeatSet::of(stat.seat())
            }
            DealExpr::Shape(seat, _)
            | DealExpr::ShapeIn(seat, _)
            | DealExpr::HasCard(seat, _)
            | DealExpr::HandMeasure(_, seat, _)
            | DealExpr::Cccc(seat)
            | DealExpr::Quality(seat, _) => SeatSet::of(*seat),
            DealExpr::Not(a) | DealExpr::CompareConst(_, a, _) | DealExpr::DivideConst(_, a, _) => a.seats(),
            DealExpr::Score(_, _, a) | DealExpr::Imps(a) => a.seats(),
            DealExpr::All(clauses) | DealExpr::Any(clauses) => {
                clauses.iter().fold(SeatSet::NONE, |seats, c| seats.union(c.seats()))
            }
            DealExpr::Binary(_, a, b) => a.seats().union(b.seats()),
            DealExpr::Conditional(c, a, b) => c.seats().union(a.seats()).union(b.seats()),
        }
    }

    /// The hand whose suit lengths (or shape) are all the expression reads, if it reads
    /// nothing else and one hand only.
    pub(crate) fn length_seat(&self) -> Option<Seat> {
        let mut seat = None;
        self.reads_only_lengths(&mut seat).then_some(seat).flatten()
    }

    /// Whether the expression reads nothing but suit lengths (or shapes) of one hand, `seat`
    /// (set as found).
    fn reads_only_lengths(&self, seat: &mut Option<Seat>) -> bool {
        match self {
            DealExpr::Const(_) => true,
            DealExpr::Stat(Stat::Length(s, _))
            | DealExpr::StatRange(Stat::Length(s, _), ..)
            | DealExpr::StatCompare(Stat::Length(s, _), ..)
            | DealExpr::Shape(s, _)
            | DealExpr::ShapeIn(s, _) => *seat.get_or_insert(*s) == *s,
            DealExpr::Not(a) | DealExpr::CompareConst(_, a, _) | DealExpr::DivideConst(_, a, _) => {
                a.reads_only_lengths(seat)
            }
            DealExpr::All(parts) | DealExpr::Any(parts) => parts.iter().all(|part| part.reads_only_lengths(seat)),
            DealExpr::Binary(_, a, b) => a.reads_only_lengths(seat) && b.reads_only_lengths(seat),
            DealExpr::Conditional(c, a, b) => {
                c.reads_only_lengths(seat) && a.reads_only_lengths(seat) && b.reads_only_lengths(seat)
            }
            _ => false,
        }
    }

    /// Whether the expression is true (not 0) on `deal`; the commonest clauses of a condition
    /// (shapes, statistics against constants) are judged here without a call.
    #[inline(always)]
    pub fn truth(&self, program: &Program, deal: &Deal) -> bool {
        match self {
            DealExpr::Shape(seat, set) => program.shapes[*set as usize].matches(deal.hand(*seat)),
            DealExpr::ShapeIn(seat, set) => set.matches(deal.hand(*seat)),
            DealExpr::StatRange(stat, lo, hi) => (*lo..=*hi).contains(&stat.value(program, deal)),
            DealExpr::StatCompare(stat, op, k) => apply(*op, stat.value(program, deal), *k) != 0,
            _ => self.value(program, deal) != 0,
        }
    }

    /// The expression's value on `deal` (hands the expression does not read may be partial).
    /// Statistics and constants are read in line; operators go through
    /// `operator_value`.
    #[inline(always)]
    pub fn value(&self, program: &Program, deal: &Deal) -> i32 {
        match self {
            DealExpr::Const(n) => *n,
            DealExpr::Stat(stat) => stat.value(program, deal),
            _ => self.operator_value(program, deal),
        }
    }

    /// [`value`](Self::value) of the expressions other than statistics and constants.
    #[inline(never)]
    fn operator_value(&self, program: &Program, deal: &Deal) -> i32 {
        match self {
            DealExpr::Const(n) => *n,
            DealExpr::Stat(stat) => stat.value(program, deal),
            DealExpr::StatCompare(stat, op, k) => apply(*op, stat.value(program, deal), *k),
            DealExpr::StatRange(stat, lo, hi) => {
                let x = stat.value(program, deal);
                (*lo <= x && x <= *hi) as i32
            }
            DealExpr::Shape(seat, set) => program.shapes[*set as usize].matches(deal.hand(*seat)) as i32,
            DealExpr::ShapeIn(seat, set) => set.matches(deal.hand(*seat)) as i32,
            DealExpr::HasCard(seat, card) => deal.hand(*seat).contains(*card) as i32,
            DealExpr::HandMeasure(measure, seat, suit) => {
                let hand = deal.hand(*seat);
                match measure {
                    HandMeasure::Controls => hand_stats::controls(hand, *suit),
                    HandMeasure::Losers => hand_stats::losers(hand, *suit),
                    HandMeasure::Ltc => hand_stats::ltc(hand, *suit),
                }
            }
            DealExpr::Cccc(seat) => hand_stats::cccc(deal.hand(*seat), program.dialect),
            DealExpr::Quality(seat, suit) => hand_stats::quality(deal.hand(*seat), *suit, program.dialect),
            DealExpr::Not(a) => (a.value(program, deal) == 0) as i32,
            DealExpr::All(clauses) => clauses.iter().all(|c| c.truth(program, deal)) as i32,
            DealExpr::Any(clauses) => clauses.iter().any(|c| c.truth(program, deal)) as i32,
            DealExpr::CompareConst(op, a, k) => apply(*op, a.value(program, deal), *k),
            DealExpr::Binary(op, a, b) => {
                let x = a.value(program, deal);
                apply(*op, x, b.value(program, deal))
            }
            DealExpr::DivideConst(op, a, k) => {
                let x = a.value(program, deal);
                if *op == BinOp::Div {
                    x / k
                } else {
                    x % k
                }
            }
            DealExpr::Conditional(c, a, b) => {
                if c.value(program, deal) != 0 {
                    a.value(program, deal)
                } else {
                    b.value(program, deal)
                }
            }
            DealExpr::Score(vulnerable, contract, tricks) => {
                scoring::score(program.dialect, *vulnerable, contract, tricks.value(program, deal))
            }
            DealExpr::Imps(a) => scoring::imps(program.dialect, a.value(program, deal)),
        }
    }
}

/// The operands of a chain of `op` (`&&` or `||`) whose top node has operands `sides`, left to
/// right, each compiled one level below the chain (a chain of any length is one level: it is
/// followed with a list, not by recursion).
fn chain(program: &Program, sides: [NodeId; 2], op: BinOp, depth: u32) -> Option<Vec<DealExpr>> {
    let mut clauses = Vec::new();
    let mut pending = vec![sides[1], sides[0]];
    while let Some(id) = pending.pop() {
        match &program.nodes[id as usize] {
            Node::Binary(inner, a, b, _) if *inner == op => pending.extend([*b, *a]),
            _ => clauses.push(DealExpr::compile_at(program, id, depth + 1)?),
        }
    }
    Some(clauses)
}

/// Joins the ranges of the same statistic in one `&&` chain into one, their intersection (the
/// clauses read only the deal, so judging them in another order changes nothing).
fn merge_ranges(mut clauses: Vec<DealExpr>) -> Vec<DealExpr> {
    let mut i = 0;
    while i < clauses.len() {
        if let DealExpr::StatRange(stat, lo, hi) = clauses[i] {
            let same = (i + 1..clauses.len()).find(|&j| matches!(clauses[j], DealExpr::StatRange(s, ..) if s == stat));
            if let Some(j) = same {
                if let DealExpr::StatRange(_, other_lo, other_hi) = clauses.remove(j) {
                    clauses[i] = DealExpr::StatRange(stat, lo.max(other_lo), hi.min(other_hi));
                }
                // Look for another range of the statistic.
                continue;
            }
        }
        i += 1;
    }
    clauses
}

/// The clauses of a stage (alternatives when `any`) with those that read nothing but the suit
/// lengths of one hand joined into one shape look-up per hand, when that saves work (several
/// clauses, or one that is more than a single test). Such a clause is a function of the
/// hand's shape, so judging it on a hand of each shape gives the set.
fn join_shape_clauses(program: &Program, mut clauses: Vec<DealExpr>, any: bool) -> Vec<DealExpr> {
    for seat in Seat::ALL {
        let (mine, rest): (Vec<DealExpr>, Vec<DealExpr>) =
            clauses.into_iter().partition(|c| c.length_seat() == Some(seat));
        clauses = rest;
        let simple =
            |c: &DealExpr| matches!(c, DealExpr::Shape(..) | DealExpr::StatRange(..) | DealExpr::StatCompare(..));
        match mine.as_slice() {
            [] => continue,
            [one] if simple(one) => clauses.extend(mine),
            _ => {
                let joined = if any { DealExpr::Any(mine) } else { DealExpr::All(mine) };
                let mut set = ShapeSet::new();
                for pattern in all_patterns() {
                    let mut deal = Deal::default();
                    deal.0[seat.index()] = hand_of_shape(pattern);
                    set.set(pattern, joined.truth(program, &deal));
                }
                clauses.push(DealExpr::ShapeIn(seat, Box::new(set)));
            }
        }
    }
    clauses
}

/// A hand with the suit lengths `pattern` (spades, hearts, diamonds, clubs): the lowest cards.
pub(crate) fn hand_of_shape(pattern: [u8; 4]) -> crate::cards::Hand {
    let suits = [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs];
    crate::cards::Hand(
        suits.iter().zip(pattern).fold(0, |bits, (suit, l)| bits | ((1u64 << l) - 1) << (16 * suit.index())),
    )
}

/// A statistic compared with a constant as the range of values that pass (empty when none
/// does: `lo > hi`); `None` for `!=`, which is no range.
fn compare_as_range(op: BinOp, k: i32) -> Option<(i32, i32)> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dealing::{Dealer, DealingSetup};
    use crate::dialect::Dialect;
    use crate::program::eval::reference_value;

    /// Compares the compiled value with the general evaluator's on many deals.
    fn agrees(expr: &str, dialect: Dialect) {
        let parsed = match crate::script::parse(format!("condition {expr}\n").as_bytes(), dialect, &Default::default())
        {
            Ok(parsed) => parsed,
            // Classic dealer lacks DealerV2's newer functions.
            Err(_) if dialect == Dialect::Classic => return,
            Err(e) => panic!("{expr}: {e:?}"),
        };
        let program = Program::compile(&parsed, dialect).unwrap();
        let condition = program.condition.unwrap();
        let compiled = DealExpr::compile(&program, condition).expect("a deal expression");
        let mut dealer = Dealer::new(&DealingSetup { seed: 3, ..Default::default() }).unwrap();
        for _ in 0..3000 {
            let deal = dealer.deal().unwrap();
            let expected = reference_value(&program, condition, &deal, &mut dealer);
            assert_eq!(compiled.value(&program, &deal), expected, "{expr}");
        }
    }

    #[test]
    fn values_are_the_evaluator_s() {
        for dialect in [Dialect::V2, Dialect::Classic] {
            for expr in [
                "hcp(north) >= 15 && hcp(north) <= 17 && shape(north, any 4333 + any 4432 + any 5332)",
                "spades(south) * 3 - hearts(east) + 7 / 2 - hcp(west) % 3",
                "(hcp(north) + hcp(south)) / 4 == 6 || !shape(east, 5xxx)",
                "controls(north) + losers(south) + ltc(east, hearts) + cccc(west) + quality(north, spades)",
                "hascard(north, AS) ? top4(south, clubs) : pt3(east) - 2147483647 - 5",
                "score(vul, z4H, hearts(north) + 6) + imps(hcp(north) * 50 - 500)",
                "clubs(north) > 3 and not diamonds(south) < 2 or hcp(east) != 10",
                "0 - hcp(north) / 3 + hcp(south) % 4 - (0 - hcp(west)) % 3",
                "hcp(north) > 10 && spades(north) >= 4 && hcp(north) < 13 && hearts(south) <= 3",
                "spades(east) <= 5 && (spades(east) > 2 || hcp(west) >= 2147483647) && spades(east) != 4",
                "hcp(south) > 2147483647 && hcp(south) < 5 || hcp(south) >= 0 - 2147483647 - 1 && hcp(south) < 0 - 2147483647 - 1",
            ] {
                agrees(expr, dialect);
            }
        }
    }

    #[test]
    fn bounds_of_one_statistic_become_a_range() {
        let parsed = crate::script::parse(
            b"condition shape(north, any 4333) && hcp(north) >= 15 && spades(south) > 1 && hcp(north) <= 17\n",
            Dialect::V2,
            &Default::default(),
        )
        .unwrap();
        let program = Program::compile(&parsed, Dialect::V2).unwrap();
        let DealExpr::All(clauses) = DealExpr::compile(&program, program.condition.unwrap()).unwrap() else {
            panic!("an && chain")
        };
        let hcp = Stat::Count(crate::program::hand_stats::HCP_TABLE as u8, Seat::North, None);
        assert_eq!(clauses.len(), 3);
        assert_eq!(clauses[1], DealExpr::StatRange(hcp, 15, 17));
        assert_eq!(clauses[2], DealExpr::StatRange(Stat::Length(Seat::South, Suit::Spades), 2, i32::MAX));
    }

    /// Judges 100,000 deals (many reorderings) with the staged condition of `script` and checks
    /// every verdict against the evaluator and every completed deal against a whole deal;
    /// returns the stages' seats and the number of deals accepted.
    fn staged_agrees(script: &str) -> (Vec<SeatSet>, usize) {
        let parsed = crate::script::parse(script.as_bytes(), Dialect::V2, &Default::default()).unwrap();
        let program = Program::compile(&parsed, Dialect::V2).unwrap();
        let condition = program.condition.unwrap();
        let mut staged = StagedCondition::new(&program, DealExpr::compile(&program, condition).unwrap());
        let stage_seats = staged.stages.iter().map(|stage| stage.seats).collect();
        let setup = DealingSetup { seed: 8, ..Default::default() };
        let (mut lazy, mut full) = (Dealer::new(&setup).unwrap(), Dealer::new(&setup).unwrap());
        let mut accepted = 0;
        for _ in 0..100_000 {
            let whole = full.deal().unwrap();
            let mut deal = lazy.deal_seats(staged.first_seats()).unwrap();
            let verdict = staged.judge(&program, &mut lazy, &mut deal);
            let expected = reference_value(&program, condition, &whole, &mut full) != 0;
            assert_eq!(verdict, expected, "{script}");
            lazy.complete(&mut deal);
            assert_eq!(deal, whole);
            accepted += usize::from(verdict);
        }
        (stage_seats, accepted)
    }

    #[test]
    fn staged_conditions_deal_seat_by_seat_and_judge_as_the_evaluator() {
        let (stages, accepted) = staged_agrees(
            "nt = shape(south, any 4333 + any 4432) && hcp(south) >= 15\n\
             condition nt && hcp(north) >= 8 && (hearts(north) == 4 || 1 > 2) && clubs(west) < 5 && 3 > 1\n",
        );
        // Constants first, then North's clauses, South's, and West's (after East is dealt).
        assert_eq!(stages, [SeatSet::NONE, SeatSet(0b0001), SeatSet(0b0101), SeatSet::ALL]);
        assert!(accepted > 100, "{accepted}");
        // An `||` chain: alternatives staged seat by seat too.
        let (stages, accepted) =
            staged_agrees("condition shape(east, 4333) || hcp(south) > 30 || spades(north) <= 5 || hcp(west) == 3\n");
        assert_eq!(stages, [SeatSet(0b0001), SeatSet(0b0101), SeatSet(0b0111), SeatSet::ALL]);
        assert!(accepted > 80_000, "{accepted}");
        // Alternatives that are `&&` chains (the shape-heavy benchmark's form), and an `||`
        // among `&&` clauses, within one stage; the alternative of the stage that passes most
        // often is soon judged first.
        let (stages, accepted) = staged_agrees(
            "condition (shape(north, any 4333) && hcp(south) > 12) || (hcp(east) > 15 && shape(west, 5xxx)) \
             || shape(north, any 7xxx) || (hearts(south) > 6 || spades(south) > 6)\n",
        );
        assert_eq!(stages, [SeatSet(0b0001), SeatSet(0b0101), SeatSet::ALL]);
        assert!(accepted > 5_000, "{accepted}");
    }

    #[test]
    fn clauses_about_one_hand_s_suit_lengths_become_one_shape_look_up() {
        // Stayman's North clauses: the two about suit lengths join; `hcp` stays apart. The
        // verdicts are the evaluator's (`staged_agrees`).
        let script = "condition hcp(north) >= 8 && (hearts(north) == 4 || spades(north) == 4) \
                      && shape(north, xxxx - any 5xxx) && clubs(south) * 2 > diamonds(south) + 3\n";
        let (stages, accepted) = staged_agrees(script);
        assert_eq!(stages, [SeatSet(0b0001), SeatSet(0b0101)]);
        assert!(accepted > 1_000, "{accepted}");
        let parsed = crate::script::parse(script.as_bytes(), Dialect::V2, &Default::default()).unwrap();
        let program = Program::compile(&parsed, Dialect::V2).unwrap();
        let staged = StagedCondition::new(&program, DealExpr::compile(&program, program.condition.unwrap()).unwrap());
        let kinds: Vec<Vec<&str>> = staged
            .stages
            .iter()
            .map(|stage| {
                stage
                    .clauses
                    .iter()
                    .map(|c| match c.test {
                        ClauseTest::InLine(DealExpr::ShapeIn(..)) => "shape",
                        ClauseTest::InLine(DealExpr::StatRange(..)) => "range",
                        _ => "other",
                    })
                    .collect()
            })
            .collect();
        assert_eq!(kinds, [vec!["range", "shape"], vec!["shape"]]);
        // The set holds exactly the shapes that pass: 4 hearts or 4 spades, no five-card suit.
        let ClauseTest::InLine(DealExpr::ShapeIn(Seat::North, set)) = &staged.stages[0].clauses[1].test else {
            panic!("a shape set")
        };
        for pattern in all_patterns() {
            let want = (pattern[0] == 4 || pattern[1] == 4) && !pattern.contains(&5);
            assert_eq!(set.contains_pattern(pattern), want, "{pattern:?}");
        }
    }

    #[test]
    fn what_may_fail_or_draw_stays_with_the_evaluator() {
        for expr in [
            "hcp(north) / hcp(south)",
            "rnd(5) > 2",
            "dds(north, spades) > 8",
            "hcp(north) % 0",
            "hcp(north) / (0 - 1)",
        ] {
            let parsed =
                crate::script::parse(format!("condition {expr}\n").as_bytes(), Dialect::V2, &Default::default())
                    .unwrap();
            let program = Program::compile(&parsed, Dialect::V2).unwrap();
            assert_eq!(DealExpr::compile(&program, program.condition.unwrap()), None, "{expr}");
        }
    }
}
