//! What a condition asks of one seat's hand alone, in terms smart dealing counts.
//!
//! A *seat factor* is the condition's upper projection on a seat: a condition on that hand
//! alone that every deal satisfying the whole condition satisfies. It is built from the
//! condition's graph (variables are single nodes of it, so each is projected once): a
//! sub-expression that reads the seat's hand alone, through values that are a suit's own or
//! sums over the suits (see [`crate::dealing::SeatTable`]: suit lengths and shapes, point
//! counts (`hcp`, `ptN` and their redefinitions) of a suit or the hand, `control`, `loser`,
//! `ltc`, suit `quality`, `cccc`, `hascard`, and any arithmetic, comparison, `?:`, `&&`, `||`
//! and `!` of those) is kept as it is; `&&`, `||`, `!` and `?:` project through their operands;
//! anything else (another seat's hand, `rnd()`, double dummy, external metrics, a division by
//! other than a constant) is unknown: true in the upper projection, false in the lower one
//! that a `!` turns it into. So `south_opens and (north_responds or keep_a_few)`
//! projects on South as `south_opens`, and `twoC or twoD and levelling_by_west_cards` as
//! `twoC or twoD`. Division and remainder count only by a non-zero constant other than −1,
//! so that judging a class never meets an error a hand would not. A factor is judged through
//! the DAG compiled from the projected graph (each shared node once).
//!
//! A *pair factor* is the same projection on two seats' hands taken together: the
//! sub-expressions that read the 26 cards the pair holds only as a whole (`hcp(north) +
//! hcp(south) >= 31`, `spades(east) + spades(west) >= 8`; see [`super::pair_union`]) are kept,
//! rewritten to read those cards as the first seat's hand, and everything else projects as
//! above (`hcp(north) >= 10` is unknown to it). Smart dealing counts a pair factor like a hand
//! of 26 cards.

use std::collections::HashMap;

use crate::cards::{Deal, Hand, Seat, Suit};
use crate::dealing::{HandReading, HoldingValue, ReadValue, ValueScope};
use crate::pos::Pos;
use crate::program::compiled_program::Program;
use crate::program::dag::DealDag;
use crate::program::dag_builder::DagBuilder;
use crate::program::hand_stats;
use crate::program::nodes::{children, divides_safely, Node, NodeId};
use crate::program::pair_union::PairUnion;
use crate::script::ast::BinOp;

/// A value a factor reads from one suit's holding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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
    /// The suit's length (when no shape reads all of them).
    Length,
}

/// A condition's upper projection on one seat's hand (or on a pair's cards together), and what
/// it reads of that hand.
#[derive(Clone, Debug)]
pub struct SeatFactor {
    /// The seat (for a pair factor, the first of the pair: the pair's cards are read as its
    /// hand).
    pub seat: Seat,
    /// For a pair factor, the other seat of the pair.
    pub partner: Option<Seat>,
    /// The projection (a node of the projected program; the condition itself when it reads
    /// this seat's hand alone).
    pub root: NodeId,
    /// Whether the factor is the whole condition: a deal satisfies the condition exactly when
    /// the factor's hand (the seat's, or the pair's cards together) satisfies the factor.
    pub whole: bool,
    /// Whether all suit lengths are read exactly (a shape or `cccc` reads them).
    lengths: bool,
    /// The values read, with their scope and, for a value only compared with constants, the
    /// cuts (see [`crate::dealing::ReadValue`]), each once.
    values: Vec<(ValueScope, SuitValue, Option<Vec<i32>>)>,
}

/// What a projection reads of its seat's hand: the seat, whether a shape reads every length,
/// and each value with how it is used (see [`SeatFactor::values`]).
#[derive(Default)]
struct Reads {
    seat: Option<Seat>,
    lengths: bool,
    values: Vec<(ValueScope, SuitValue, Option<Vec<i32>>)>,
}

impl Reads {
    /// Records a use of the value `value` of `scope`: compared with the cuts `by`, or read
    /// exactly (`None`, which stays so whatever other uses compare it with).
    fn used(&mut self, scope: Option<Suit>, value: SuitValue, by: Option<Vec<i32>>) {
        let scope = scope.map_or(ValueScope::Total, ValueScope::Suit);
        // `cccc` is its suits' shares adjusted by the shape: what it is compared with is not
        // their sum, which is read exactly.
        let by = by.filter(|_| value != SuitValue::CcccShare);
        let at = match self.values.iter().position(|&(sc, v, _)| (sc, v) == (scope, value)) {
            Some(at) => at,
            None => {
                self.values.push((scope, value, Some(Vec::new())));
                self.values.len() - 1
            }
        };
        let cuts = &mut self.values[at].2;
        match (cuts.as_mut(), by) {
            (Some(all), Some(by)) => {
                all.extend(by);
                all.sort_unstable();
                all.dedup();
            }
            _ => *cuts = None,
        }
    }
}

impl Program {
    /// The seat factors of `condition`, one per seat whose projection constrains its hand, in
    /// seat order, then the pair factors, one per pair of seats (in seat order) whose cards
    /// together the condition constrains as a whole; with the program whose nodes they are: a
    /// copy of this one with the projections' nodes appended (judge and read the factors
    /// through it).
    pub fn seat_factors(&self, condition: NodeId) -> (Program, Vec<SeatFactor>) {
        let mut projected = self.clone();
        let mut factors = Vec::new();
        let seats = Seat::ALL.map(|seat| (seat, None));
        let pairs = (0..4).flat_map(|a| (a + 1..4).map(move |b| (Seat::ALL[a], Some(Seat::ALL[b]))));
        for (seat, partner) in seats.into_iter().chain(pairs) {
            let mut projection = Projection {
                nodes: &mut projected.nodes,
                seat,
                pair: partner.map(|partner| PairUnion::new(seat, partner)),
                pure: vec![None; self.nodes.len()],
                memo: HashMap::new(),
            };
            let Some(Proj::Node(root)) = projection.bound(condition, true) else { continue };
            let whole = projection.own(condition) == Some(Some(root));
            let reads = projected.reads(root);
            if reads.seat == Some(seat) {
                let mut values = reads.values;
                // Every length is in the key when a shape reads them all.
                values.retain(|&(_, value, _)| !(reads.lengths && value == SuitValue::Length));
                factors.push(SeatFactor { seat, partner, root, whole, lengths: reads.lengths, values });
            }
        }
        (projected, factors)
    }

    /// What the graph under `root` (a projection: it reads one seat's hand alone, through
    /// values that decompose by suit) reads, and how each value is used: the cuts of the
    /// comparisons with constants it meets (`x >= 5`, `5 <= x`, `x == 9`, a truth test), or
    /// exactly when any use reads it otherwise (arithmetic, a `?:` branch).
    fn reads(&self, root: NodeId) -> Reads {
        let mut reads = Reads::default();
        let used = |reads: &mut Reads, node: NodeId, by: Option<Vec<i32>>| {
            if let Some((_, scope, Some(value))) = leaf_value(&self.nodes[node as usize]) {
                reads.used(scope, value, by);
            }
        };
        let truth = || comparison_cuts(BinOp::Ne, 0);
        used(&mut reads, root, truth());
        let mut seen = vec![false; self.nodes.len()];
        let mut stack = vec![root];
        while let Some(id) = stack.pop() {
            if std::mem::replace(&mut seen[id as usize], true) {
                continue;
            }
            let node = &self.nodes[id as usize];
            if let Some((seat, _, _)) = leaf_value(node) {
                debug_assert!(reads.seat.is_none_or(|s| s == seat), "a projection reads one seat");
                reads.seat = Some(seat);
                reads.lengths |= matches!(node, Node::Shape(..) | Node::Cccc(_));
                continue;
            }
            match *node {
                Node::CompareConst(op, a, k) => used(&mut reads, a, comparison_cuts(op, k)),
                Node::Binary(op @ (BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge), a, b, _) => {
                    match (&self.nodes[a as usize], &self.nodes[b as usize]) {
                        (_, &Node::Const(k)) => used(&mut reads, a, comparison_cuts(op, k)),
                        (&Node::Const(k), _) => used(&mut reads, b, comparison_cuts(mirrored(op), k)),
                        _ => {
                            used(&mut reads, a, None);
                            used(&mut reads, b, None);
                        }
                    }
                }
                Node::Binary(BinOp::And | BinOp::Or, a, b, _) => {
                    used(&mut reads, a, truth());
                    used(&mut reads, b, truth());
                }
                Node::Not(a) => used(&mut reads, a, truth()),
                Node::Conditional(c, a, b) => {
                    used(&mut reads, c, truth());
                    used(&mut reads, a, None);
                    used(&mut reads, b, None);
                }
                _ => children(node).into_iter().for_each(|child| used(&mut reads, child, None)),
            }
            stack.extend(children(node));
        }
        reads
    }
}

/// The cuts of `x op k`: the least values of the ranges of `x` it cannot tell apart.
fn comparison_cuts(op: BinOp, k: i32) -> Option<Vec<i32>> {
    Some(match op {
        BinOp::Lt | BinOp::Ge => vec![k],
        BinOp::Le | BinOp::Gt => k.checked_add(1).into_iter().collect(),
        _ => std::iter::once(k).chain(k.checked_add(1)).collect(),
    })
}

/// The operator of `k op x` written as `x op' k`.
fn mirrored(op: BinOp) -> BinOp {
    match op {
        BinOp::Lt => BinOp::Gt,
        BinOp::Le => BinOp::Ge,
        BinOp::Gt => BinOp::Lt,
        BinOp::Ge => BinOp::Le,
        other => other,
    }
}

/// The seat a leaf reads, and the value it reads: of one suit or the whole hand (`None`), or
/// no value for a shape (which reads the lengths); `None` for any other node.
fn leaf_value(node: &Node) -> Option<(Seat, Option<Suit>, Option<SuitValue>)> {
    Some(match *node {
        Node::Length(seat, suit) => (seat, Some(suit), Some(SuitValue::Length)),
        Node::Shape(seat, _) => (seat, None, None),
        Node::Count { table, seat, suit } => (seat, suit, Some(SuitValue::Count(table))),
        Node::Controls(seat, suit) => (seat, suit, Some(SuitValue::Controls)),
        Node::Losers(seat, suit) => (seat, suit, Some(SuitValue::Losers)),
        Node::Ltc(seat, suit) => (seat, suit, Some(SuitValue::Ltc)),
        Node::Quality(seat, suit) => (seat, Some(suit), Some(SuitValue::Quality)),
        Node::Cccc(seat) => (seat, None, Some(SuitValue::CcccShare)),
        Node::HasCard(seat, card) => (seat, Some(card.suit()), Some(SuitValue::HasRank(card.rank()))),
        _ => return None,
    })
}

/// A projection of a condition on one seat, while it is being built: `True`, `False`, or a
/// node that reads that seat's hand alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Proj {
    True,
    False,
    Node(NodeId),
}

/// Builds the projections of a condition's nodes on one seat's hand: the *upper* projection of
/// a node is implied by it (true on every deal where the node is), the *lower* one implies it.
/// A node that reads the seat alone (through values that decompose by suit) is its own
/// projection both ways; `&&`, `||`, `!` and `?:` project through their operands; any other
/// node (one that reads another seat, `rnd()`, double dummy, an unsafe division) projects to
/// `True` upward and `False` downward. New nodes are appended to `nodes`; each node is
/// projected once each way, so the projections share what the condition shares.
struct Projection<'a> {
    nodes: &'a mut Vec<Node>,
    seat: Seat,
    /// For a pair factor: the rewriting of the pair's expressions as the first seat's (the
    /// nodes kept are those it rewrites, not those that read the seat alone).
    pair: Option<PairUnion>,
    /// Whether each original node reads the seat alone (computed on demand).
    pure: Vec<Option<bool>>,
    memo: HashMap<(NodeId, bool), Proj>,
}

impl Projection<'_> {
    /// Whether node `id` reads only the seat's hand and constants, through values that
    /// decompose by suit, and can meet no error a hand would not (division only by a constant
    /// other than 0 and −1). `None` when the expression is too deep to look at.
    fn pure(&mut self, id: NodeId) -> Option<bool> {
        if let Some(known) = self.pure[id as usize] {
            return Some(known);
        }
        if !crate::stack::enough() {
            return None;
        }
        let node = self.nodes[id as usize].clone();
        let pure = match node {
            Node::Const(_) => true,
            Node::Length(seat, _)
            | Node::Shape(seat, _)
            | Node::Count { seat, .. }
            | Node::Controls(seat, _)
            | Node::Losers(seat, _)
            | Node::Ltc(seat, _)
            | Node::Quality(seat, _)
            | Node::Cccc(seat)
            | Node::HasCard(seat, _) => seat == self.seat,
            Node::Rnd(_) | Node::Dds(..) | Node::Par(..) | Node::Opc(..) | Node::UserEval { .. } => false,
            Node::Binary(BinOp::Div | BinOp::Mod, a, b, _) => {
                divides_safely(&self.nodes[b as usize]) && self.pure(a)?
            }
            _ => {
                let mut all = true;
                for child in children(&node) {
                    all &= self.pure(child)?;
                }
                all
            }
        };
        self.pure[id as usize] = Some(pure);
        Some(pure)
    }

    /// Node `id` as its own projection both ways, when it reads the seat alone (itself) or is
    /// an expression of the pair's cards together (rewritten); `Some(None)` otherwise, `None`
    /// when too deep to look at.
    fn own(&mut self, id: NodeId) -> Option<Option<NodeId>> {
        match self.pair.as_mut() {
            None => Some(self.pure(id)?.then_some(id)),
            Some(pair) => pair.rewrite(self.nodes, id),
        }
    }

    /// The upper (`upper = true`) or lower projection of node `id`, read as a truth value;
    /// `None` when the expression is too deep to project.
    fn bound(&mut self, id: NodeId, upper: bool) -> Option<Proj> {
        if let Some(&known) = self.memo.get(&(id, upper)) {
            return Some(known);
        }
        if !crate::stack::enough() {
            return None;
        }
        let projected = if let Some(own) = self.own(id)? {
            Proj::Node(own)
        } else {
            match self.nodes[id as usize] {
                Node::Binary(BinOp::And, a, b, _) => {
                    let (a, b) = (self.bound(a, upper)?, self.bound(b, upper)?);
                    self.and(a, b)
                }
                Node::Binary(BinOp::Or, a, b, _) => {
                    let (a, b) = (self.bound(a, upper)?, self.bound(b, upper)?);
                    self.or(a, b)
                }
                Node::Not(a) => {
                    let a = self.bound(a, !upper)?;
                    self.not(a)
                }
                // `c ? a : b` is `(c && a) || (!c && b)`; `!c` is bounded by the opposite bound
                // of `c`.
                Node::Conditional(c, a, b) => {
                    let (c_same, c_other) = (self.bound(c, upper)?, self.bound(c, !upper)?);
                    let (a, b) = (self.bound(a, upper)?, self.bound(b, upper)?);
                    let first = self.and(c_same, a);
                    let not_c = self.not(c_other);
                    let second = self.and(not_c, b);
                    self.or(first, second)
                }
                _ if upper => Proj::True,
                _ => Proj::False,
            }
        };
        self.memo.insert((id, upper), projected);
        Some(projected)
    }

    fn push(&mut self, node: Node) -> Proj {
        self.nodes.push(node);
        Proj::Node((self.nodes.len() - 1) as NodeId)
    }

    fn and(&mut self, a: Proj, b: Proj) -> Proj {
        match (a, b) {
            (Proj::False, _) | (_, Proj::False) => Proj::False,
            (Proj::True, x) | (x, Proj::True) => x,
            (Proj::Node(a), Proj::Node(b)) => self.push(Node::Binary(BinOp::And, a, b, Pos::default())),
        }
    }

    fn or(&mut self, a: Proj, b: Proj) -> Proj {
        match (a, b) {
            (Proj::True, _) | (_, Proj::True) => Proj::True,
            (Proj::False, x) | (x, Proj::False) => x,
            (Proj::Node(a), Proj::Node(b)) => self.push(Node::Binary(BinOp::Or, a, b, Pos::default())),
        }
    }

    fn not(&mut self, a: Proj) -> Proj {
        match a {
            Proj::True => Proj::False,
            Proj::False => Proj::True,
            Proj::Node(a) => self.push(Node::Not(a)),
        }
    }
}

impl SeatFactor {
    /// The hand the factor reads in `deal`: its seat's, or the pair's cards together.
    pub fn hand_in(&self, deal: &Deal) -> Hand {
        let partner = self.partner.map_or(Hand::EMPTY, |partner| deal.hand(partner));
        Hand(deal.hand(self.seat).0 | partner.0)
    }

    /// The cards the factor's hand is made of under the card predeal `predeal`, as
    /// [`crate::dealing::seat_cards`] gives them for a seat: the free cards, the predealt
    /// cards of the seat (or of the pair) and the number of free cards it takes.
    pub fn cards(&self, predeal: &[(Seat, crate::cards::Card)]) -> (u64, u64, u32) {
        let (free, own, slots) = crate::dealing::seat_cards(predeal, self.seat);
        match self.partner {
            None => (free, own, slots),
            Some(partner) => {
                let (_, partner_own, partner_slots) = crate::dealing::seat_cards(predeal, partner);
                (free, own | partner_own, slots + partner_slots)
            }
        }
    }

    /// The position among the values read (those of [`reading`](Self::reading)) of the value
    /// a leaf node reads; `None` for any other node, a length (bounded as such) and `cccc`
    /// (which is not the sum it is read through).
    pub fn value_position(&self, node: &Node) -> Option<usize> {
        let (_, scope, value) = leaf_value(node)?;
        let value = value.filter(|&v| v != SuitValue::Length && v != SuitValue::CcccShare)?;
        let scope = scope.map_or(ValueScope::Total, ValueScope::Suit);
        self.values.iter().position(|&(sc, v, _)| (sc, v) == (scope, value))
    }

    /// The same factor read with every suit length exact (its lengths compared with
    /// constants then no longer read apart): what counting needs where a hand's suit lengths
    /// matter beyond the factor (bias predeal weighs hands by them).
    pub fn with_lengths(&self) -> SeatFactor {
        let mut values = self.values.clone();
        values.retain(|&(_, value, _)| value != SuitValue::Length);
        SeatFactor { lengths: true, values, ..self.clone() }
    }

    /// What the factor reads of a hand, as values of single suits, for counting.
    pub fn reading<'a>(&'a self, program: &'a Program) -> HandReading<'a> {
        let values = self
            .values
            .iter()
            .map(|(scope, value, cuts)| {
                let (scope, value) = (*scope, *value);
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
                    SuitValue::Length => Box::new(|h: Hand| h.0.count_ones() as i32),
                };
                ReadValue { scope, value: f, cuts: cuts.clone() }
            })
            .collect();
        HandReading { lengths: self.lengths, values }
    }
}

/// Judges of several seat factors on hands of their seats, through one DAG compiled from the
/// condition's own graph (nodes the factors share computed once).
pub struct FactorJudges<'a> {
    program: &'a Program,
    /// The DAG, when every factor compiles (not nested too deeply).
    dag: Option<DealDag>,
    /// Each factor's seat (its root is the DAG's root of the same position).
    seats: Vec<Seat>,
}

impl<'a> FactorJudges<'a> {
    /// Judges of `factors`, factors of `program`'s condition (on hands of 26 cards too when
    /// a pair factor is among them).
    pub fn new(program: &'a Program, factors: &[SeatFactor]) -> FactorJudges<'a> {
        let mut builder = match factors.iter().any(|factor| factor.partner.is_some()) {
            true => DagBuilder::for_any_hand(program),
            false => DagBuilder::new(program),
        };
        let roots: Option<Vec<_>> = factors.iter().map(|factor| builder.compile(factor.root)).collect();
        let dag = roots.map(|roots| DealDag::new(builder, &roots));
        FactorJudges { program, dag, seats: factors.iter().map(|factor| factor.seat).collect() }
    }

    /// Whether factor `k` accepts `hand` (a hand of its seat, or a pair factor's cards
    /// together; the other seats are empty); `None` when the factors did not compile, and
    /// then none may be counted.
    pub fn judge(&mut self, k: usize, hand: Hand) -> Option<bool> {
        let dag = self.dag.as_mut()?;
        let mut deal = Deal([Hand::EMPTY; 4]);
        deal.0[self.seats[k].index()] = hand;
        dag.next_deal();
        Some(dag.value(k, self.program, &deal) != 0)
    }
}
