//! Deal expressions judged as one program over a DAG: the deal expressions of a job (the clauses
//! of its condition, or the values of its actions), merged node by node by
//! `DagBuilder`, so that an expression that several variables or clauses share — typically
//! an opening ladder every later variable reads — is one node, computed at most once per deal
//! and only when a path of the judgement reads it.
//!
//! The merged nodes are then laid out as a flat list of steps over one value slot per node,
//! run by a loop without a recursive call per node: `&&`, `||` and `?:` are jumps, and a node
//! that more than one place reads (and that costs more than reading the deal) is a subroutine
//! whose slot is stamped with the deal's number when computed, so that a later read of the same
//! deal takes the value from its slot. Nothing is allocated or cleared per deal: a new deal is
//! a new stamp. A clause of a chain that is a kept node, a statistic in a range or a shape is
//! tested in the chain's own step; a kept node not yet computed for the deal is computed by its
//! subroutine, which returns to the step that asked for it.
//!
//! A node computed from the suit lengths of one hand only (length points, shape points, a
//! ladder of shape tests) is a table of its values by the hand's pattern, made when the DAG is
//! built: one look-up per deal.
//!
//! Deal expressions read nothing but the deal (no `rnd()`, no external program: those keep the
//! general evaluator, which judges a variable again at each use as the peers do), so computing a
//! node once per deal gives the values of judging it at each use.

use crate::cards::{Card, Deal, Seat, Suit};
use crate::program::compiled_program::Program;
use crate::program::dag_builder::DagBuilder;
use crate::program::dag_node::{DagNode, HandMeasure, Slot, Stat};
use crate::program::hand_stats;
use crate::program::nodes::apply;
use crate::program::scoring;
use crate::program::shape::pattern_index;
use crate::script::ast::{BinOp, Contract};

/// One instruction of the flat program. `dst` and the operands are value slots; `target` and
/// `entry` are step indices.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Step {
    Const {
        dst: Slot,
        value: i32,
    },
    Stat {
        dst: Slot,
        stat: Stat,
    },
    StatCompare {
        dst: Slot,
        stat: Stat,
        op: BinOp,
        k: i32,
    },
    StatRange {
        dst: Slot,
        stat: Stat,
        lo: i32,
        hi: i32,
    },
    Shape {
        dst: Slot,
        seat: Seat,
        set: u32,
    },
    HasCard {
        dst: Slot,
        seat: Seat,
        card: Card,
    },
    ShapeValue {
        dst: Slot,
        seat: Seat,
        offset: u32,
    },
    HandMeasure {
        dst: Slot,
        measure: HandMeasure,
        seat: Seat,
        suit: Option<Suit>,
    },
    Cccc {
        dst: Slot,
        seat: Seat,
    },
    Quality {
        dst: Slot,
        seat: Seat,
        suit: Suit,
    },
    Not {
        dst: Slot,
        src: Slot,
    },
    Binary {
        dst: Slot,
        op: BinOp,
        a: Slot,
        b: Slot,
    },
    CompareConst {
        dst: Slot,
        op: BinOp,
        src: Slot,
        k: i32,
    },
    DivideConst {
        dst: Slot,
        op: BinOp,
        src: Slot,
        k: i32,
    },
    Score {
        dst: Slot,
        vulnerable: bool,
        contract: Contract,
        src: Slot,
    },
    Imps {
        dst: Slot,
        src: Slot,
    },
    /// A clause of an `&&` chain: when `src` is 0, the chain `dst` is 0 and ends (jump).
    AllClause {
        dst: Slot,
        src: Slot,
        target: u32,
    },
    /// An alternative of an `||` chain: when `src` is not 0, the chain `dst` is 1 and ends.
    AnyClause {
        dst: Slot,
        src: Slot,
        target: u32,
    },
    /// [`AllClause`](Step::AllClause) of a kept node: computes it first (the subroutine at
    /// `entry` returns to this step) unless this deal's value is in its slot.
    AllKept {
        dst: Slot,
        src: Slot,
        entry: u32,
        target: u32,
    },
    /// [`AnyClause`](Step::AnyClause) of a kept node, as [`AllKept`](Step::AllKept).
    AnyKept {
        dst: Slot,
        src: Slot,
        entry: u32,
        target: u32,
    },
    /// [`Truth`](Step::Truth) of a kept node, as [`AllKept`](Step::AllKept).
    TruthKept {
        dst: Slot,
        src: Slot,
        entry: u32,
    },
    /// A clause of an `&&` chain that is a statistic in a range, tested in the step.
    AllRange {
        dst: Slot,
        stat: Stat,
        lo: i32,
        hi: i32,
        target: u32,
    },
    /// An alternative of an `||` chain that is a statistic in a range, tested in the step.
    AnyRange {
        dst: Slot,
        stat: Stat,
        lo: i32,
        hi: i32,
        target: u32,
    },
    /// A clause of an `&&` chain that is a shape of the program, tested in the step.
    AllShape {
        dst: Slot,
        seat: Seat,
        set: u32,
        target: u32,
    },
    /// An alternative of an `||` chain that is a shape of the program, tested in the step.
    AnyShape {
        dst: Slot,
        seat: Seat,
        set: u32,
        target: u32,
    },
    /// The last operand of a chain decides it: `dst` is whether `src` is not 0.
    Truth {
        dst: Slot,
        src: Slot,
    },
    /// Jumps when `src` is 0 (`?:`).
    JumpIfZero {
        src: Slot,
        target: u32,
    },
    Jump {
        target: u32,
    },
    Move {
        dst: Slot,
        src: Slot,
    },
    /// Computes the kept node `slot` (the subroutine at `entry`) unless this deal's value is
    /// already in its slot.
    Call {
        slot: Slot,
        entry: u32,
    },
    /// Ends the subroutine of the kept node `slot`: stamps its slot with the deal.
    Return {
        slot: Slot,
    },
    /// Ends the judgement of a root.
    Halt,
}

/// Deal expressions merged into one DAG and laid out as a flat program, with the per-deal value
/// slots it runs on.
#[derive(Clone, Debug)]
pub struct DealDag {
    steps: Vec<Step>,
    /// Per root: the step its judgement starts at, and the slot that holds its value.
    roots: Vec<(u32, Slot)>,
    /// Tables of the values of expressions that read nothing but the suit lengths of one hand,
    /// [`crate::program::shape::PATTERNS`] entries each, by [`pattern_index`].
    shape_values: Vec<i32>,
    /// Per node: its value on the deal being judged (when computed).
    values: Vec<i32>,
    /// Per node: the deal its slot's value belongs to (kept nodes only).
    stamps: Vec<u32>,
    /// The number of the deal being judged, for the stamps.
    deal: u32,
    /// Return steps of the subroutines being run.
    returns: Vec<u32>,
}

/// Lays the merged nodes out as steps.
struct Layout<'a> {
    nodes: &'a [DagNode],
    /// Per node: whether it is kept (computed once per deal by a subroutine).
    kept: Vec<bool>,
    steps: Vec<Step>,
    /// Per kept node: the step its subroutine starts at, once laid out.
    entries: Vec<Option<u32>>,
    /// Kept nodes whose subroutines are still to lay out.
    pending: Vec<Slot>,
}

impl Layout<'_> {
    /// Steps that leave the value of `slot` in its slot: a call of its subroutine when it is
    /// kept, its own steps otherwise.
    fn read(&mut self, slot: Slot) {
        if self.kept[slot as usize] {
            self.request(slot);
            self.steps.push(Step::Call { slot, entry: u32::MAX });
        } else {
            self.compute(slot);
        }
    }

    /// Queues the subroutine of the kept node `slot` to be laid out (once).
    fn request(&mut self, slot: Slot) {
        if self.entries[slot as usize].is_none() {
            // Laid out later; marked so that it is queued once.
            self.entries[slot as usize] = Some(u32::MAX);
            self.pending.push(slot);
        }
    }

    /// The steps of operand `part` of the chain `dst` (`&&`, or `||` when `any`) other than the
    /// last: the operand's test fused with the chain's exit where it can be.
    fn chain_operand(&mut self, dst: Slot, part: Slot, any: bool) {
        const LATER: u32 = u32::MAX;
        let step = match self.nodes[part as usize] {
            _ if self.kept[part as usize] => {
                self.request(part);
                let (src, entry, target) = (part, LATER, LATER);
                if any {
                    Step::AnyKept { dst, src, entry, target }
                } else {
                    Step::AllKept { dst, src, entry, target }
                }
            }
            DagNode::StatRange(stat, lo, hi) => {
                let target = LATER;
                if any {
                    Step::AnyRange { dst, stat, lo, hi, target }
                } else {
                    Step::AllRange { dst, stat, lo, hi, target }
                }
            }
            DagNode::Shape(seat, set) => {
                let target = LATER;
                if any {
                    Step::AnyShape { dst, seat, set, target }
                } else {
                    Step::AllShape { dst, seat, set, target }
                }
            }
            _ => {
                self.read(part);
                if any {
                    Step::AnyClause { dst, src: part, target: LATER }
                } else {
                    Step::AllClause { dst, src: part, target: LATER }
                }
            }
        };
        self.steps.push(step);
    }

    /// The steps that compute node `dst` into its slot.
    fn compute(&mut self, dst: Slot) {
        let step = match &self.nodes[dst as usize] {
            DagNode::Const(value) => Step::Const { dst, value: *value },
            DagNode::Stat(stat) => Step::Stat { dst, stat: *stat },
            DagNode::StatCompare(stat, op, k) => Step::StatCompare { dst, stat: *stat, op: *op, k: *k },
            DagNode::StatRange(stat, lo, hi) => Step::StatRange { dst, stat: *stat, lo: *lo, hi: *hi },
            DagNode::Shape(seat, set) => Step::Shape { dst, seat: *seat, set: *set },
            DagNode::HasCard(seat, card) => Step::HasCard { dst, seat: *seat, card: *card },
            DagNode::ShapeValue(seat, offset) => Step::ShapeValue { dst, seat: *seat, offset: *offset },
            DagNode::HandMeasure(measure, seat, suit) => {
                Step::HandMeasure { dst, measure: *measure, seat: *seat, suit: *suit }
            }
            DagNode::Cccc(seat) => Step::Cccc { dst, seat: *seat },
            DagNode::Quality(seat, suit) => Step::Quality { dst, seat: *seat, suit: *suit },
            DagNode::Not(src) => {
                self.read(*src);
                Step::Not { dst, src: *src }
            }
            DagNode::Binary(op, a, b) => {
                self.read(*a);
                self.read(*b);
                Step::Binary { dst, op: *op, a: *a, b: *b }
            }
            DagNode::CompareConst(op, src, k) => {
                self.read(*src);
                Step::CompareConst { dst, op: *op, src: *src, k: *k }
            }
            DagNode::DivideConst(op, src, k) => {
                self.read(*src);
                Step::DivideConst { dst, op: *op, src: *src, k: *k }
            }
            DagNode::Score(vulnerable, contract, src) => {
                self.read(*src);
                Step::Score { dst, vulnerable: *vulnerable, contract: *contract, src: *src }
            }
            DagNode::Imps(src) => {
                self.read(*src);
                Step::Imps { dst, src: *src }
            }
            DagNode::All(parts) | DagNode::Any(parts) => {
                let any = matches!(self.nodes[dst as usize], DagNode::Any(_));
                let (last, rest) = parts.split_last().expect("chains have operands");
                let mut exits = Vec::new();
                for &part in rest {
                    self.chain_operand(dst, part, any);
                    exits.push(self.steps.len() - 1);
                }
                if self.kept[*last as usize] {
                    self.request(*last);
                    self.steps.push(Step::TruthKept { dst, src: *last, entry: u32::MAX });
                } else {
                    self.read(*last);
                    self.steps.push(Step::Truth { dst, src: *last });
                }
                let end = self.steps.len() as u32;
                for exit in exits {
                    if let Step::AllClause { target, .. }
                    | Step::AnyClause { target, .. }
                    | Step::AllKept { target, .. }
                    | Step::AnyKept { target, .. }
                    | Step::AllRange { target, .. }
                    | Step::AnyRange { target, .. }
                    | Step::AllShape { target, .. }
                    | Step::AnyShape { target, .. } = &mut self.steps[exit]
                    {
                        *target = end;
                    }
                }
                return;
            }
            DagNode::Conditional(c, a, b) => {
                self.read(*c);
                let branch = self.steps.len();
                self.steps.push(Step::JumpIfZero { src: *c, target: u32::MAX });
                self.read(*a);
                self.steps.push(Step::Move { dst, src: *a });
                let jump = self.steps.len();
                self.steps.push(Step::Jump { target: u32::MAX });
                let otherwise = self.steps.len() as u32;
                self.read(*b);
                self.steps.push(Step::Move { dst, src: *b });
                let end = self.steps.len() as u32;
                self.steps[branch] = Step::JumpIfZero { src: *c, target: otherwise };
                self.steps[jump] = Step::Jump { target: end };
                return;
            }
        };
        self.steps.push(step);
    }
}

impl DealDag {
    /// Lays the nodes of `builder` that `roots` reach out as a flat program; root `k` is judged
    /// by [`value`](Self::value)`(k, …)`.
    pub(crate) fn new(builder: DagBuilder, root_slots: &[Slot]) -> DealDag {
        let nodes = builder.nodes;
        // A node read from more than one place (a root counts as one) is kept, unless cheap.
        // Reads by the nodes the roots reach (not by those a table replaced).
        let mut reads = vec![0u32; nodes.len()];
        let mut reached = vec![false; nodes.len()];
        let mut pending = root_slots.to_vec();
        while let Some(slot) = pending.pop() {
            reads[slot as usize] += 1;
            if !std::mem::replace(&mut reached[slot as usize], true) {
                pending.extend(nodes[slot as usize].operands());
            }
        }
        let kept = nodes.iter().zip(&reads).map(|(node, &n)| n > 1 && !node.is_cheap()).collect();
        let mut layout =
            Layout { nodes: &nodes, kept, steps: Vec::new(), entries: vec![None; nodes.len()], pending: Vec::new() };
        let mut root_entries = Vec::with_capacity(root_slots.len());
        for &slot in root_slots {
            root_entries.push((layout.steps.len() as u32, slot));
            layout.read(slot);
            layout.steps.push(Step::Halt);
        }
        while let Some(slot) = layout.pending.pop() {
            layout.entries[slot as usize] = Some(layout.steps.len() as u32);
            layout.compute(slot);
            layout.steps.push(Step::Return { slot });
        }
        let mut steps = layout.steps;
        for step in &mut steps {
            if let Step::Call { slot, entry }
            | Step::AllKept { src: slot, entry, .. }
            | Step::AnyKept { src: slot, entry, .. }
            | Step::TruthKept { src: slot, entry, .. } = step
            {
                *entry = layout.entries[*slot as usize].expect("every called node is laid out");
            }
        }
        let kept_count = layout.kept.iter().filter(|&&k| k).count();
        DealDag {
            steps,
            roots: root_entries,
            shape_values: builder.shape_values,
            values: vec![0; nodes.len()],
            stamps: vec![0; nodes.len()],
            deal: 1,
            returns: Vec::with_capacity(kept_count + 1),
        }
    }

    /// Starts judging another deal: the values computed so far belong to the last one.
    #[inline]
    pub fn next_deal(&mut self) {
        self.deal = self.deal.wrapping_add(1);
        if self.deal == 0 {
            // Stamps of four billion deals ago could pass for this deal's.
            self.stamps.fill(0);
            self.deal = 1;
        }
    }

    /// The value of root `root` on `deal` (the deal of the last [`next_deal`](Self::next_deal));
    /// hands the root does not read may be partial. (Out of line: the staged condition that
    /// calls it stays small enough to be inlined into the dealing loops.)
    #[inline(never)]
    pub fn value(&mut self, root: usize, program: &Program, deal: &Deal) -> i32 {
        let (entry, slot) = self.roots[root];
        self.run(entry, program, deal);
        self.values[slot as usize]
    }

    /// Runs the steps from `pc` to the next [`Step::Halt`]. (Each step is matched in place, by
    /// reference: copying the whole step first costs a load of every field per step.)
    fn run(&mut self, mut pc: u32, program: &Program, deal: &Deal) {
        let values = &mut self.values;
        loop {
            let step = &self.steps[pc as usize];
            pc += 1;
            let (dst, value) = match *step {
                Step::Const { dst, value } => (dst, value),
                Step::Stat { dst, stat } => (dst, stat.value(program, deal)),
                Step::StatCompare { dst, stat, op, k } => (dst, apply(op, stat.value(program, deal), k)),
                Step::StatRange { dst, stat, lo, hi } => {
                    let x = stat.value(program, deal);
                    (dst, (lo <= x && x <= hi) as i32)
                }
                Step::Shape { dst, seat, set } => (dst, program.shapes[set as usize].matches(deal.hand(seat)) as i32),
                Step::HasCard { dst, seat, card } => (dst, deal.hand(seat).contains(card) as i32),
                Step::ShapeValue { dst, seat, offset } => {
                    (dst, self.shape_values[offset as usize + pattern_index(deal.hand(seat))])
                }
                Step::HandMeasure { dst, measure, seat, suit } => {
                    let hand = deal.hand(seat);
                    let value = match measure {
                        HandMeasure::Controls => hand_stats::controls(hand, suit),
                        HandMeasure::Losers => hand_stats::losers(hand, suit),
                        HandMeasure::Ltc => hand_stats::ltc(hand, suit),
                    };
                    (dst, value)
                }
                Step::Cccc { dst, seat } => (dst, hand_stats::cccc(deal.hand(seat), program.dialect)),
                Step::Quality { dst, seat, suit } => (dst, hand_stats::quality(deal.hand(seat), suit, program.dialect)),
                Step::Not { dst, src } => (dst, (values[src as usize] == 0) as i32),
                Step::Binary { dst, op, a, b } => (dst, apply(op, values[a as usize], values[b as usize])),
                Step::CompareConst { dst, op, src, k } => (dst, apply(op, values[src as usize], k)),
                Step::DivideConst { dst, op, src, k } => {
                    let x = values[src as usize];
                    (dst, if op == BinOp::Div { x / k } else { x % k })
                }
                Step::Score { dst, vulnerable, contract, src } => {
                    (dst, scoring::score(program.dialect, vulnerable, &contract, values[src as usize]))
                }
                Step::Imps { dst, src } => (dst, scoring::imps(program.dialect, values[src as usize])),
                Step::AllClause { dst, src, target } => {
                    if values[src as usize] != 0 {
                        continue;
                    }
                    pc = target;
                    (dst, 0)
                }
                Step::AnyClause { dst, src, target } => {
                    if values[src as usize] == 0 {
                        continue;
                    }
                    pc = target;
                    (dst, 1)
                }
                Step::AllKept { dst, src, entry, target } => {
                    if self.stamps[src as usize] != self.deal {
                        // Back to this step once computed.
                        self.returns.push(pc - 1);
                        pc = entry;
                        continue;
                    }
                    if values[src as usize] != 0 {
                        continue;
                    }
                    pc = target;
                    (dst, 0)
                }
                Step::AnyKept { dst, src, entry, target } => {
                    if self.stamps[src as usize] != self.deal {
                        self.returns.push(pc - 1);
                        pc = entry;
                        continue;
                    }
                    if values[src as usize] == 0 {
                        continue;
                    }
                    pc = target;
                    (dst, 1)
                }
                Step::TruthKept { dst, src, entry } => {
                    if self.stamps[src as usize] != self.deal {
                        self.returns.push(pc - 1);
                        pc = entry;
                        continue;
                    }
                    (dst, (values[src as usize] != 0) as i32)
                }
                Step::AllRange { dst, stat, lo, hi, target } => {
                    let x = stat.value(program, deal);
                    if lo <= x && x <= hi {
                        continue;
                    }
                    pc = target;
                    (dst, 0)
                }
                Step::AnyRange { dst, stat, lo, hi, target } => {
                    let x = stat.value(program, deal);
                    if !(lo <= x && x <= hi) {
                        continue;
                    }
                    pc = target;
                    (dst, 1)
                }
                Step::AllShape { dst, seat, set, target } => {
                    if program.shapes[set as usize].matches(deal.hand(seat)) {
                        continue;
                    }
                    pc = target;
                    (dst, 0)
                }
                Step::AnyShape { dst, seat, set, target } => {
                    if !program.shapes[set as usize].matches(deal.hand(seat)) {
                        continue;
                    }
                    pc = target;
                    (dst, 1)
                }
                Step::Truth { dst, src } => (dst, (values[src as usize] != 0) as i32),
                Step::JumpIfZero { src, target } => {
                    if values[src as usize] == 0 {
                        pc = target;
                    }
                    continue;
                }
                Step::Jump { target } => {
                    pc = target;
                    continue;
                }
                Step::Move { dst, src } => (dst, values[src as usize]),
                Step::Call { slot, entry } => {
                    if self.stamps[slot as usize] != self.deal {
                        self.returns.push(pc);
                        pc = entry;
                    }
                    continue;
                }
                Step::Return { slot } => {
                    self.stamps[slot as usize] = self.deal;
                    pc = self.returns.pop().expect("a return follows a call");
                    continue;
                }
                Step::Halt => return,
            };
            values[dst as usize] = value;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dealing::{Dealer, DealingSetup};
    use crate::dialect::Dialect;
    use crate::program::deal_expr::StagedCondition;
    use crate::program::eval::reference_value;

    /// A small xorshift generator: the random scripts are the same on every run.
    struct Random(u64);

    impl Random {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }

        fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
            items[self.below(items.len())]
        }
    }

    /// A random expression `depth` levels deep over hand statistics and the variables `vars`.
    fn expression(random: &mut Random, vars: &[String], depth: u32) -> String {
        let seat = random.pick(&["north", "east", "south", "west"]);
        let suit = random.pick(&["spades", "hearts", "diamonds", "clubs"]);
        if depth == 0 || random.below(5) == 0 {
            return match random.below(9) {
                0 | 1 if !vars.is_empty() => vars[random.below(vars.len())].clone(),
                0 => format!("hcp({seat})"),
                1 => format!("{suit}({seat})"),
                2 => format!("hcp({seat}, {suit})"),
                3 => random.below(25).to_string(),
                4 => format!("shape({seat}, any 4333 + any 5xxx - 6xxx)"),
                5 => {
                    format!("hascard({seat}, {}{})", random.pick(&["A", "K", "Q", "2"]), random.pick(&["S", "H", "C"]))
                }
                6 => format!("{}({seat})", random.pick(&["controls", "losers"])),
                7 => format!("{}({seat}, {suit})", random.pick(&["top3", "loser", "c13"])),
                _ => format!("{suit}({seat}) > {}", random.below(7)),
            };
        }
        let a = expression(random, vars, depth - 1);
        let b = expression(random, vars, depth - 1);
        match random.below(8) {
            0 => format!("({a} {} {b})", random.pick(&["and", "or", "&&", "||"])),
            1 => format!("({a} {} {b})", random.pick(&["==", "!=", "<", "<=", ">", ">="])),
            2 => format!("({a} {} {b})", random.pick(&["+", "-", "*"])),
            3 => format!("({a} {} {})", random.pick(&["/", "%"]), 2 + random.below(5)),
            4 => format!("not ({a})"),
            5 => format!("({} ? {a} : {b})", expression(random, vars, depth - 1)),
            6 => format!("({a} {} {})", random.pick(&["<", ">=", "=="]), random.below(15)),
            _ => format!("({a} and {b} and {})", expression(random, vars, depth - 1)),
        }
    }

    /// A random script: variables built from hand statistics and earlier variables, and a
    /// condition over them.
    fn script(random: &mut Random) -> String {
        let mut vars = Vec::new();
        let mut text = String::new();
        for k in 0..random.below(12) {
            let depth = 1 + random.below(3) as u32;
            text += &format!("v{k} = {}\n", expression(random, &vars, depth));
            vars.push(format!("v{k}"));
        }
        text + &format!("condition {}\n", expression(random, &vars, 3))
    }

    /// The DAG's values, and the staged condition's verdicts, are the general evaluator's on
    /// random expressions over random deals.
    #[test]
    fn random_expressions_judge_as_the_evaluator() {
        let mut random = Random(0x9E37_79B9_7F4A_7C15);
        let mut compared = 0;
        for case in 0..400 {
            let dialect = if case % 2 == 0 { Dialect::V2 } else { Dialect::Classic };
            let text = script(&mut random);
            let Ok(parsed) = crate::script::parse(text.as_bytes(), dialect, &Default::default()) else { continue };
            let Ok(program) = Program::compile(&parsed, dialect) else { continue };
            let condition = program.condition.unwrap();
            let mut builder = DagBuilder::new(&program);
            let Some(root) = builder.compile(condition) else { continue };
            // The condition twice: roots share their nodes.
            let mut dag = DealDag::new(builder, &[root, root]);
            let mut staged = StagedCondition::new(&program, condition, crate::dealing::LAZY_DEALING_ORDER)
                .expect("a deal expression");
            let mut dealer = Dealer::new(&DealingSetup { seed: case, ..Default::default() }).unwrap();
            let mut lazy = Dealer::new(&DealingSetup { seed: case, ..Default::default() }).unwrap();
            for _ in 0..300 {
                let deal = dealer.deal().unwrap();
                let expected = reference_value(&program, condition, &deal, &mut dealer);
                dag.next_deal();
                assert_eq!(dag.value(0, &program, &deal), expected, "{text}");
                assert_eq!(dag.value(1, &program, &deal), expected, "{text}");
                let mut partial = lazy.deal_seats(staged.first_seats()).unwrap();
                assert_eq!(staged.judge(&program, &mut lazy, &mut partial), expected != 0, "{text}");
                lazy.complete(&mut partial);
                assert_eq!(partial, deal);
            }
            compared += 1;
        }
        assert!(compared > 250, "{compared}");
    }

    /// Variables read several times are kept once per deal: the program has one subroutine
    /// per shared variable, and the values of one deal are not taken for the next.
    #[test]
    fn shared_variables_are_computed_once_per_deal() {
        let text = "ladder = hcp(south) > 11 && (spades(south) > 4 || losers(south) < 7)\n\
                    a = ladder && hcp(north) > 5\nb = ladder || hearts(north) > 3\nc = not ladder && b\n\
                    condition (a or b) and (c or hcp(east) > 3 and a)\n";
        let parsed = crate::script::parse(text.as_bytes(), Dialect::V2, &Default::default()).unwrap();
        let program = Program::compile(&parsed, Dialect::V2).unwrap();
        let mut builder = DagBuilder::new(&program);
        let root = builder.compile(program.condition.unwrap()).unwrap();
        let dag = DealDag::new(builder, &[root]);
        let calls: std::collections::HashSet<Slot> = dag
            .steps
            .iter()
            .filter_map(|step| match step {
                Step::Call { slot, .. }
                | Step::AllKept { src: slot, .. }
                | Step::AnyKept { src: slot, .. }
                | Step::TruthKept { src: slot, .. } => Some(*slot),
                _ => None,
            })
            .collect();
        let returns = dag.steps.iter().filter(|step| matches!(step, Step::Return { .. })).count();
        // `b`, and the alternatives of `ladder` (whose `&&` chain joins the chains that read
        // it), are each laid out once and called from each place that reads them.
        assert_eq!(calls.len(), returns);
        assert!(returns >= 2, "{returns}");
        assert!(dag.steps.len() < 60, "{}", dag.steps.len());
    }

    /// A variable that draws a random number is judged again at each use, as in the peers: it
    /// is no deal expression, so the general evaluator judges it.
    #[test]
    fn random_draws_are_drawn_at_each_use() {
        let text = "r = rnd(1000)\ncondition r != r\n";
        let parsed = crate::script::parse(text.as_bytes(), Dialect::V2, &Default::default()).unwrap();
        let program = Program::compile(&parsed, Dialect::V2).unwrap();
        let condition = program.condition.unwrap();
        assert_eq!(DagBuilder::new(&program).compile(condition), None);
        assert!(StagedCondition::new(&program, condition, crate::dealing::LAZY_DEALING_ORDER).is_none());
        let mut dealer = Dealer::new(&DealingSetup { seed: 5, ..Default::default() }).unwrap();
        let deal = dealer.deal().unwrap();
        let differ = (0..20).filter(|_| reference_value(&program, condition, &deal, &mut dealer) != 0).count();
        assert!(differ > 15, "{differ}");
    }
}
