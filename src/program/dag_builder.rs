//! Compiling a program's deal expressions straight into the merged nodes of a [`DealDag`].
//!
//! The program already shares its sub-expressions: a variable is one node, however many
//! expressions read it. The builder follows that graph once per program node (memoized by
//! node), so a long script whose variables read each other — an opening ladder read by every
//! later variable — costs its number of distinct nodes to compile, not the size of its
//! expressions written out in full. Equal sub-expressions reached by different paths become
//! one merged node too (each node is interned by content).
//!
//! On the way, each `&&`/`||` chain is flattened (through the variables it reads), the ranges
//! of one statistic in an `&&` chain are intersected, and its operands are arranged
//! ([`crate::program::chain_order`]); a node computed from the suit lengths of one hand only is
//! replaced by a table of its values by the hand's pattern.
//!
//! Nodes that draw random numbers, solve double dummy, ask external programs or may fail
//! (division by a non-constant) are no deal expressions: `DagBuilder::compile` answers `None`
//! for any expression that reads one, and the general evaluator judges it.
//!
//! [`DealDag`]: crate::program::dag::DealDag

use std::collections::HashMap;

use crate::cards::{Deal, Seat, SeatSet, Suit};
use crate::program::chain_order::{by_expected_work, node_cost, sample_deals};
use crate::program::compiled_program::Program;
use crate::program::dag_node::{compare_as_range, DagNode, HandMeasure, Slot, Stat};
use crate::program::hand_stats;
use crate::program::nodes::{apply, divides_safely, Node, NodeId};
use crate::program::scoring;
use crate::program::shape::{all_patterns, pattern_index};
use crate::script::ast::BinOp;

/// Deepest expression compiled, in merged nodes from a root to a leaf (a chain of any length
/// is one level): it keeps the recursive walks over the DAG far from the end of any thread's
/// stack; a deeper expression is the general evaluator's, which watches its stack.
pub const MAX_DEPTH: u32 = 64;

/// Merges deal expressions node by node (equal sub-expressions become one node), with what the
/// later stages ask of each node: what it reads, its height, a rough cost, its values on the
/// sample of [`crate::program::chain_order`].
pub(crate) struct DagBuilder<'a> {
    pub(crate) program: &'a Program,
    pub(crate) nodes: Vec<DagNode>,
    /// Per node: what it reads of the deal.
    reads: Vec<Reads>,
    /// Per node: the hands it reads.
    seats: Vec<SeatSet>,
    /// Per node: its height (1 for a leaf).
    heights: Vec<u32>,
    /// Per node: its cost ([`crate::program::chain_order`]'s estimate).
    pub(crate) costs: Vec<f64>,
    /// Per node: its values on the sample deals, once asked for.
    sample_values: Vec<Option<Box<[i32]>>>,
    /// The sample deals (drawn when first needed).
    sample: Vec<Deal>,
    index: HashMap<DagNode, Slot, NodeHashing>,
    /// Per node built: the node that stands for it (its table, when it has one).
    tabled: HashMap<Slot, Slot, NodeHashing>,
    /// Per program node compiled: its merged node (`None`: not a deal expression).
    compiled: HashMap<NodeId, Option<Slot>, NodeHashing>,
    /// Tables of values by pattern ([`DagNode::ShapeValue`]).
    pub(crate) shape_values: Vec<i32>,
    /// The tables in `shape_values`, by content: their offsets.
    tables: HashMap<Vec<i32>, u32>,
    /// Whether expressions of one hand's suit lengths are looked up by its pattern (hands of
    /// 13 cards); not for a pair's cards read as one hand.
    by_pattern: bool,
}

/// The hashing of the builder's maps: their keys are small nodes made by the program itself, so
/// a fast multiplicative hash serves (the standard one, built against crafted keys, takes a
/// quarter of the time of building the DAG of a long script).
type NodeHashing = std::hash::BuildHasherDefault<NodeHasher>;

/// A multiplicative hash, word by word.
#[derive(Default)]
struct NodeHasher(u64);

impl NodeHasher {
    /// Mixes one word in.
    #[inline]
    fn mix(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

impl std::hash::Hasher for NodeHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.mix(u64::from_le_bytes(word));
        }
    }

    fn write_u8(&mut self, n: u8) {
        self.mix(u64::from(n));
    }

    fn write_u32(&mut self, n: u32) {
        self.mix(u64::from(n));
    }

    fn write_u64(&mut self, n: u64) {
        self.mix(n);
    }

    fn write_usize(&mut self, n: usize) {
        self.mix(n as u64);
    }

    fn write_i32(&mut self, n: i32) {
        self.mix(n as u32 as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// What a node reads of the deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reads {
    /// Nothing (a constant).
    Nothing,
    /// The suit lengths of one hand and nothing else: a function of its pattern.
    LengthsOf(Seat),
    /// More.
    More,
}

impl Reads {
    /// What a node with operands reading `self` and `other` reads.
    fn and(self, other: Reads) -> Reads {
        match (self, other) {
            (Reads::Nothing, reads) | (reads, Reads::Nothing) => reads,
            (Reads::LengthsOf(a), Reads::LengthsOf(b)) if a == b => Reads::LengthsOf(a),
            _ => Reads::More,
        }
    }
}

impl<'a> DagBuilder<'a> {
    /// An empty builder for deal expressions of `program`.
    pub fn new(program: &'a Program) -> DagBuilder<'a> {
        DagBuilder {
            program,
            nodes: Vec::new(),
            reads: Vec::new(),
            seats: Vec::new(),
            heights: Vec::new(),
            costs: Vec::new(),
            sample_values: Vec::new(),
            sample: Vec::new(),
            index: HashMap::default(),
            tabled: HashMap::default(),
            compiled: HashMap::default(),
            shape_values: Vec::new(),
            tables: HashMap::new(),
            by_pattern: true,
        }
    }

    /// An empty builder whose expressions may be judged on hands of any number of cards (a
    /// pair's 26 read as one hand): nothing is looked up by a hand's pattern.
    pub fn for_any_hand(program: &'a Program) -> DagBuilder<'a> {
        DagBuilder { by_pattern: false, ..DagBuilder::new(program) }
    }

    /// The merged node of program node `id`; `None` when anything below it is not a deal
    /// expression or it nests deeper than [`MAX_DEPTH`].
    pub fn compile(&mut self, id: NodeId) -> Option<Slot> {
        let slot = self.node(id)?;
        (self.heights[slot as usize] <= MAX_DEPTH).then_some(slot)
    }

    /// The clauses of a condition: the operands of its top-level chain (`||` when the bool is
    /// true), in the order written, each with its own chains arranged, or the condition as one
    /// clause of an `&&` chain; `None` as for [`compile`](Self::compile).
    pub fn clauses(&mut self, id: NodeId) -> Option<(bool, Vec<Slot>)> {
        let (any, parts) = match &self.program.nodes[id as usize] {
            Node::Binary(op @ (BinOp::And | BinOp::Or), ..) => {
                let any = *op == BinOp::Or;
                (any, self.operands(id, any)?)
            }
            _ => (false, vec![self.node(id)?]),
        };
        parts.iter().all(|&slot| self.heights[slot as usize] <= MAX_DEPTH).then_some((any, parts))
    }

    /// [`compile`](Self::compile) without the depth check, memoized by program node.
    fn node(&mut self, id: NodeId) -> Option<Slot> {
        if let Some(&done) = self.compiled.get(&id) {
            return done;
        }
        let slot = if crate::stack::enough() { self.build(id) } else { None };
        self.compiled.insert(id, slot);
        slot
    }

    /// The merged node of program node `id`, its operands compiled first.
    fn build(&mut self, id: NodeId) -> Option<Slot> {
        let program = self.program;
        let node = match &program.nodes[id as usize] {
            Node::Const(n) => DagNode::Const(*n),
            Node::Length(seat, suit) => DagNode::Stat(Stat::Length(*seat, *suit)),
            Node::Count { table, seat, suit } => DagNode::Stat(Stat::Count(*table, *seat, *suit)),
            Node::Shape(seat, set) => DagNode::Shape(*seat, *set),
            Node::HasCard(seat, card) => DagNode::HasCard(*seat, *card),
            Node::Controls(seat, suit) => DagNode::HandMeasure(HandMeasure::Controls, *seat, *suit),
            Node::Losers(seat, suit) => DagNode::HandMeasure(HandMeasure::Losers, *seat, *suit),
            Node::Ltc(seat, suit) => DagNode::HandMeasure(HandMeasure::Ltc, *seat, *suit),
            Node::Cccc(seat) => DagNode::Cccc(*seat),
            Node::Quality(seat, suit) => DagNode::Quality(*seat, *suit),
            Node::Not(a) => DagNode::Not(self.node(*a)?),
            Node::CompareConst(op, a, k) => {
                let a = self.node(*a)?;
                match self.nodes[a as usize] {
                    DagNode::Stat(stat) => match compare_as_range(*op, *k) {
                        Some((lo, hi)) => DagNode::StatRange(stat, lo, hi),
                        None => DagNode::StatCompare(stat, *op, *k),
                    },
                    _ => DagNode::CompareConst(*op, a, *k),
                }
            }
            Node::Binary(op, a, b, _) => match (op, &program.nodes[*b as usize]) {
                (BinOp::And | BinOp::Or, _) => {
                    let any = *op == BinOp::Or;
                    let parts = self.operands(id, any)?;
                    let parts = self.arrange(parts, any);
                    if any {
                        DagNode::Any(parts)
                    } else {
                        DagNode::All(parts)
                    }
                }
                (BinOp::Div | BinOp::Mod, divisor @ Node::Const(k)) if divides_safely(divisor) => {
                    DagNode::DivideConst(*op, self.node(*a)?, *k)
                }
                (BinOp::Div | BinOp::Mod, _) => return None,
                _ => {
                    let a = self.node(*a)?;
                    DagNode::Binary(*op, a, self.node(*b)?)
                }
            },
            Node::Conditional(c, a, b) => {
                let c = self.node(*c)?;
                let a = self.node(*a)?;
                DagNode::Conditional(c, a, self.node(*b)?)
            }
            Node::Score { vulnerable, contract, tricks } => DagNode::Score(*vulnerable, *contract, self.node(*tricks)?),
            Node::Imps(a) => DagNode::Imps(self.node(*a)?),
            Node::Rnd(_) | Node::Dds(..) | Node::Par(..) | Node::Opc(..) | Node::UserEval { .. } => return None,
        };
        let slot = self.intern(node);
        Some(self.tabled(slot))
    }

    /// The operands of the chain of `&&` (`||` when `any`) at program node `id`, left to right
    /// through the chains of the same operator it holds (its variables' too), each compiled
    /// once; repeated operands once, and in an `&&` chain the ranges of one statistic
    /// intersected (the operands read only the deal, so neither changes the chain's value).
    fn operands(&mut self, id: NodeId, any: bool) -> Option<Vec<Slot>> {
        let op = if any { BinOp::Or } else { BinOp::And };
        let mut parts: Vec<Slot> = Vec::new();
        let mut pending = vec![id];
        while let Some(id) = pending.pop() {
            match &self.program.nodes[id as usize] {
                Node::Binary(inner, a, b, _) if *inner == op => pending.extend([*b, *a]),
                _ => {
                    let slot = self.node(id)?;
                    if !parts.contains(&slot) {
                        parts.push(slot);
                    }
                }
            }
        }
        if !any {
            self.merge_ranges(&mut parts);
        }
        Some(parts)
    }

    /// Joins the ranges of the same statistic among the operands of an `&&` chain into one,
    /// their intersection, where the first of them stood.
    fn merge_ranges(&mut self, parts: &mut Vec<Slot>) {
        let mut i = 0;
        while i < parts.len() {
            if let DagNode::StatRange(stat, lo, hi) = self.nodes[parts[i] as usize] {
                let same = (i + 1..parts.len())
                    .find(|&j| matches!(self.nodes[parts[j] as usize], DagNode::StatRange(s, ..) if s == stat));
                if let Some(j) = same {
                    let DagNode::StatRange(_, other_lo, other_hi) = self.nodes[parts.remove(j) as usize] else {
                        unreachable!("found as a range")
                    };
                    parts[i] = self.intern(DagNode::StatRange(stat, lo.max(other_lo), hi.min(other_hi)));
                    // Look for another range of the statistic.
                    continue;
                }
            }
            i += 1;
        }
    }

    /// The operands of an `&&` (`any` false) or `||` chain, arranged
    /// ([`crate::program::chain_order`]): one hand's length tests joined, then the cheapest for
    /// how often it decides first.
    fn arrange(&mut self, parts: Vec<Slot>, any: bool) -> Vec<Slot> {
        let parts = self.group_by_hand_lengths(parts, any);
        if parts.len() < 2 {
            return parts;
        }
        let keyed = parts
            .into_iter()
            .map(|part| {
                let decided = self.values_on_sample(part).iter().filter(|&&value| (value != 0) == any).count();
                (part, self.costs[part as usize], decided)
            })
            .collect();
        by_expected_work(keyed)
    }

    /// `parts` of a chain with the operands that read nothing but the suit lengths of one hand,
    /// when there are two or more for that hand, joined into one chain of the same kind (a
    /// table by the hand's pattern).
    fn group_by_hand_lengths(&mut self, parts: Vec<Slot>, any: bool) -> Vec<Slot> {
        let mut rest = parts;
        let mut grouped = Vec::new();
        for seat in Seat::ALL {
            let (mine, others): (Vec<Slot>, Vec<Slot>) =
                rest.into_iter().partition(|&part| self.length_seat(part) == Some(seat));
            rest = others;
            match mine.len() {
                0 => {}
                1 => grouped.extend(mine),
                _ if rest.is_empty() && grouped.is_empty() => return mine,
                _ => {
                    let chain = self.intern(if any { DagNode::Any(mine) } else { DagNode::All(mine) });
                    grouped.push(self.tabled(chain));
                }
            }
        }
        grouped.extend(rest);
        grouped
    }

    /// The values of node `slot` on the sample deals, computed once from its operands'.
    fn values_on_sample(&mut self, slot: Slot) -> &[i32] {
        if self.sample_values[slot as usize].is_none() {
            if self.sample.is_empty() {
                self.sample = sample_deals();
            }
            let operands = self.nodes[slot as usize].operands();
            for &operand in &operands {
                self.values_on_sample(operand);
            }
            let values = (0..self.sample.len())
                .map(|k| {
                    self.node_value(slot, &self.sample[k], |operand| {
                        self.sample_values[operand as usize].as_ref().expect("operands first")[k]
                    })
                })
                .collect();
            self.sample_values[slot as usize] = Some(values);
        }
        self.sample_values[slot as usize].as_deref().expect("computed")
    }

    /// The node of `node`, added unless an equal one exists.
    pub(crate) fn intern(&mut self, node: DagNode) -> Slot {
        if let Some(&slot) = self.index.get(&node) {
            return slot;
        }
        let slot = self.nodes.len() as Slot;
        let operands = node.operands();
        let (reads, seats) = match &node {
            DagNode::Const(_) => (Reads::Nothing, SeatSet::NONE),
            DagNode::Stat(Stat::Length(seat, _))
            | DagNode::StatCompare(Stat::Length(seat, _), ..)
            | DagNode::StatRange(Stat::Length(seat, _), ..)
            | DagNode::Shape(seat, _)
            | DagNode::ShapeValue(seat, _) => (Reads::LengthsOf(*seat), SeatSet::of(*seat)),
            DagNode::Stat(Stat::Count(_, seat, _))
            | DagNode::StatCompare(Stat::Count(_, seat, _), ..)
            | DagNode::StatRange(Stat::Count(_, seat, _), ..)
            | DagNode::HasCard(seat, _)
            | DagNode::HandMeasure(_, seat, _)
            | DagNode::Cccc(seat)
            | DagNode::Quality(seat, _) => (Reads::More, SeatSet::of(*seat)),
            _ => operands.iter().fold((Reads::Nothing, SeatSet::NONE), |(reads, seats), &operand| {
                (reads.and(self.reads[operand as usize]), seats.union(self.seats[operand as usize]))
            }),
        };
        let height = 1 + operands.iter().map(|&operand| self.heights[operand as usize]).max().unwrap_or(0);
        let cost = node_cost(&node, matches!(reads, Reads::LengthsOf(_)), &self.costs);
        self.reads.push(reads);
        self.seats.push(seats);
        self.heights.push(height);
        self.costs.push(cost);
        self.sample_values.push(None);
        self.nodes.push(node.clone());
        self.index.insert(node, slot);
        slot
    }

    /// `slot`, or a node that looks its value up by pattern when it computes something from the
    /// suit lengths of one hand only.
    pub(crate) fn tabled(&mut self, slot: Slot) -> Slot {
        if let Some(&tabled) = self.tabled.get(&slot) {
            return tabled;
        }
        let node = &self.nodes[slot as usize];
        let tabled = match self.reads[slot as usize] {
            Reads::LengthsOf(seat) if self.by_pattern && !node.operands().is_empty() => {
                let table = self.table_by_pattern(slot, seat);
                let next = self.shape_values.len() as u32;
                let offset = *self.tables.entry(table.clone()).or_insert(next);
                if offset == next {
                    self.shape_values.extend(table);
                }
                self.intern(DagNode::ShapeValue(seat, offset))
            }
            _ => slot,
        };
        self.tabled.insert(slot, tabled);
        tabled
    }

    /// The values of node `slot`, which reads nothing but the suit lengths of `seat`'s hand, on
    /// a hand of each pattern (in [`all_patterns`]'s order).
    pub(crate) fn table_by_pattern(&self, slot: Slot, seat: Seat) -> Vec<i32> {
        all_patterns()
            .into_iter()
            .map(|pattern| {
                let mut deal = Deal::default();
                deal.0[seat.index()] = hand_of_shape(pattern);
                self.value_on(slot, &deal)
            })
            .collect()
    }

    /// The hand whose suit lengths are all node `slot` reads, if it reads nothing else.
    pub(crate) fn length_seat(&self, slot: Slot) -> Option<Seat> {
        match self.reads[slot as usize] {
            Reads::LengthsOf(seat) => Some(seat),
            _ => None,
        }
    }

    /// The hands node `slot` reads.
    pub(crate) fn seats(&self, slot: Slot) -> SeatSet {
        self.seats[slot as usize]
    }

    /// The value of node `slot` on `deal`, its operands judged again wherever they are read
    /// (for small expressions: the tables by pattern).
    fn value_on(&self, slot: Slot, deal: &Deal) -> i32 {
        self.node_value(slot, deal, |operand| self.value_on(operand, deal))
    }

    /// The value of node `slot` on `deal`, given its operands' values by `operand`.
    pub(crate) fn node_value(&self, slot: Slot, deal: &Deal, operand: impl Fn(Slot) -> i32) -> i32 {
        let program = self.program;
        match &self.nodes[slot as usize] {
            DagNode::Const(n) => *n,
            DagNode::Stat(stat) => stat.value(program, deal),
            DagNode::StatCompare(stat, op, k) => apply(*op, stat.value(program, deal), *k),
            DagNode::StatRange(stat, lo, hi) => (*lo..=*hi).contains(&stat.value(program, deal)) as i32,
            DagNode::Shape(seat, set) => program.shapes[*set as usize].matches(deal.hand(*seat)) as i32,
            DagNode::ShapeValue(seat, offset) => self.shape_values[*offset as usize + pattern_index(deal.hand(*seat))],
            DagNode::HasCard(seat, card) => deal.hand(*seat).contains(*card) as i32,
            DagNode::HandMeasure(measure, seat, suit) => {
                let hand = deal.hand(*seat);
                match measure {
                    HandMeasure::Controls => hand_stats::controls(hand, *suit),
                    HandMeasure::Losers => hand_stats::losers(hand, *suit),
                    HandMeasure::Ltc => hand_stats::ltc(hand, *suit),
                }
            }
            DagNode::Cccc(seat) => hand_stats::cccc(deal.hand(*seat), program.dialect),
            DagNode::Quality(seat, suit) => hand_stats::quality(deal.hand(*seat), *suit, program.dialect),
            DagNode::Not(a) => (operand(*a) == 0) as i32,
            DagNode::All(parts) => parts.iter().all(|&part| operand(part) != 0) as i32,
            DagNode::Any(parts) => parts.iter().any(|&part| operand(part) != 0) as i32,
            DagNode::Binary(op, a, b) => apply(*op, operand(*a), operand(*b)),
            DagNode::CompareConst(op, a, k) => apply(*op, operand(*a), *k),
            DagNode::DivideConst(op, a, k) => {
                if *op == BinOp::Div {
                    operand(*a) / k
                } else {
                    operand(*a) % k
                }
            }
            DagNode::Conditional(c, a, b) => {
                if operand(*c) != 0 {
                    operand(*a)
                } else {
                    operand(*b)
                }
            }
            DagNode::Score(vulnerable, contract, a) => {
                scoring::score(program.dialect, *vulnerable, contract, operand(*a))
            }
            DagNode::Imps(a) => scoring::imps(program.dialect, operand(*a)),
        }
    }
}

/// A hand with the suit lengths `pattern` (spades, hearts, diamonds, clubs): the lowest cards.
pub(crate) fn hand_of_shape(pattern: [u8; 4]) -> crate::cards::Hand {
    let suits = [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs];
    crate::cards::Hand(
        suits.iter().zip(pattern).fold(0, |bits, (suit, l)| bits | ((1u64 << l) - 1) << (16 * suit.index())),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dealing::{Dealer, DealingSetup};
    use crate::dialect::Dialect;
    use crate::program::dag::DealDag;
    use crate::program::eval::reference_value;

    /// Variables built from variables are compiled once each: a condition that expands to
    /// millions of nodes through them is a DAG of a few dozen, with the evaluator's values.
    #[test]
    fn each_program_node_is_compiled_once() {
        let mut text = String::from("a0 = hcp(north) > 10 && spades(south) >= 4 || losers(east) < 7\n");
        for k in 1..=18 {
            let p = k - 1;
            text += &format!("a{k} = (a{p} && hcp(west) > {k}) || (a{p} && controls(north) > {}) \n", k % 5);
        }
        text += "condition a18 || hearts(north) == 5\n";
        let program = Program::from_source(text.as_bytes(), Dialect::V2, &Default::default()).unwrap();
        let condition = program.condition.unwrap();
        assert!(program.expanded_size(condition) > 2_000_000, "{}", program.expanded_size(condition));
        let mut builder = DagBuilder::new(&program);
        let root = builder.compile(condition).expect("a deal expression");
        assert!(builder.nodes.len() < 200, "{} merged nodes", builder.nodes.len());
        let mut dag = DealDag::new(builder, &[root]);
        let mut dealer = Dealer::new(&DealingSetup { seed: 2, ..Default::default() }).unwrap();
        for _ in 0..200 {
            let deal = dealer.deal().unwrap();
            dag.next_deal();
            assert_eq!(dag.value(0, &program, &deal), reference_value(&program, condition, &deal, &mut dealer));
        }
    }

    /// A chain nested deeper than the DAG's walks allow is left to the evaluator.
    #[test]
    fn too_deep_expressions_stay_with_the_evaluator() {
        let deep = (0..70).fold(String::from("hcp(north)"), |e, k| format!("({e} + {k}) * 2"));
        let text = format!("condition {deep} > 5\n");
        let program = Program::from_source(text.as_bytes(), Dialect::V2, &Default::default()).unwrap();
        assert_eq!(DagBuilder::new(&program).compile(program.condition.unwrap()), None);
        let shallow = "condition ((hcp(north) + 1) * 2 + 3) * 2 > 5\n";
        let program = Program::from_source(shallow.as_bytes(), Dialect::V2, &Default::default()).unwrap();
        assert!(DagBuilder::new(&program).compile(program.condition.unwrap()).is_some());
    }
}
