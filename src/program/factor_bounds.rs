//! Whether a seat factor can still hold on a partial hand: the factor's expression evaluated
//! on intervals (see [`PartialHand`]), so that counting drops the partial hands no completion
//! of which satisfies it (an opener's factor drops, after two suits, the hands already past its
//! point range or whose lengths no allowed shape extends).
//!
//! Each node's interval holds every value the node takes on the hands within the bounds:
//! arithmetic on interval ends (an interval leaving the range of a C `int` becomes unbounded,
//! so wrapping never hides a value), comparisons and `&&`, `||`, `!`, `?:` in three-valued
//! logic, a shape clause by the patterns the lengths still allow. Only a factor certainly
//! false drops a hand, so counting stays exact.

use crate::dealing::KeyMap;
use crate::dealing::{PartialHand, PartialJudge};
use crate::program::compiled_program::Program;
use crate::program::nodes::{children, Node, NodeId};
use crate::program::seat_factors::SeatFactor;
use crate::program::shape::ShapeSet;
use crate::script::ast::BinOp;

/// An interval of values (least, greatest).
type Span = (i64, i64);

/// Every value of a C `int`.
const UNBOUNDED: Span = (i32::MIN as i64, i32::MAX as i64);

/// One node of the factor's expression, its operands given by position in evaluation order.
#[derive(Clone, Debug)]
enum Step {
    Const(i64),
    /// A suit's length (suit index).
    Length(usize),
    /// A value of the reading (its position).
    Value(usize),
    /// Whether the lengths fall in a shape set (its number).
    Shape(u32),
    Not(usize),
    And(usize, usize),
    Or(usize, usize),
    Compare(BinOp, usize, usize),
    CompareConst(BinOp, usize, i64),
    Arithmetic(BinOp, usize, usize),
    Divide(usize, i64),
    Remainder(usize, i64),
    Conditional(usize, usize, usize),
    /// Anything else: any value (its number among the unknown steps, whose operands are kept
    /// apart).
    Unknown(u32),
}

/// The truth of an interval read as a condition: `Some(value)` when certain.
fn truth((lo, hi): Span) -> Option<bool> {
    if lo == 0 && hi == 0 {
        Some(false)
    } else if lo > 0 || hi < 0 {
        Some(true)
    } else {
        None
    }
}

/// The interval of a truth value.
fn of_truth(truth: Option<bool>) -> Span {
    match truth {
        Some(true) => (1, 1),
        Some(false) => (0, 0),
        None => (0, 1),
    }
}

/// `x op y` for every `x` in `a` and `y` in `b`, as a truth value.
fn compare(op: BinOp, a: Span, b: Span) -> Option<bool> {
    let always_less = a.1 < b.0;
    let never_less = a.0 >= b.1;
    let always_greater = a.0 > b.1;
    let never_greater = a.1 <= b.0;
    let certain = |always: bool, never: bool| match (always, never) {
        (true, _) => Some(true),
        (_, true) => Some(false),
        _ => None,
    };
    match op {
        BinOp::Lt => certain(always_less, never_less),
        BinOp::Ge => certain(never_less, always_less),
        BinOp::Gt => certain(always_greater, never_greater),
        BinOp::Le => certain(never_greater, always_greater),
        BinOp::Eq | BinOp::Ne => {
            let equal = if a.0 == a.1 && b.0 == b.1 && a.0 == b.0 {
                Some(true)
            } else if always_less || always_greater {
                Some(false)
            } else {
                None
            };
            if op == BinOp::Eq {
                equal
            } else {
                equal.map(|e| !e)
            }
        }
        _ => None,
    }
}

/// An interval as computed, or unbounded when it leaves a C `int`.
fn within_int((lo, hi): Span) -> Span {
    if lo < UNBOUNDED.0 || hi > UNBOUNDED.1 {
        UNBOUNDED
    } else {
        (lo, hi)
    }
}

/// `a op b` on intervals for `+`, `-`, `*`.
fn arithmetic(op: BinOp, a: Span, b: Span) -> Span {
    within_int(match op {
        BinOp::Add => (a.0 + b.0, a.1 + b.1),
        BinOp::Sub => (a.0 - b.1, a.1 - b.0),
        BinOp::Mul => {
            let products = [a.0 * b.0, a.0 * b.1, a.1 * b.0, a.1 * b.1];
            (*products.iter().min().unwrap_or(&0), *products.iter().max().unwrap_or(&0))
        }
        _ => UNBOUNDED,
    })
}

/// `a / k` in C (truncating) for a constant `k` other than 0 and −1: monotone in `a`.
fn divide(a: Span, k: i64) -> Span {
    let (x, y) = (a.0 / k, a.1 / k);
    (x.min(y), x.max(y))
}

/// `a % k` in C (the sign of `a`) for a constant `k` other than 0.
fn remainder(a: Span, k: i64) -> Span {
    let most = k.abs() - 1;
    if a.0 >= 0 {
        if a.1 <= most {
            a
        } else {
            (0, most)
        }
    } else if a.1 <= 0 {
        if a.0 >= -most {
            a
        } else {
            (-most, 0)
        }
    } else {
        (-most.min(-a.0), most.min(a.1))
    }
}

/// A seat factor's expression, ready to be evaluated on partial hands.
pub struct FactorBounds<'a> {
    program: &'a Program,
    /// The nodes under the factor's root, operands first (the root last).
    steps: Vec<Step>,
    /// The intervals of the steps in the current evaluation.
    spans: Vec<Span>,
    /// The operands of each [`Step::Unknown`].
    unknown_operands: Vec<Vec<usize>>,
    /// What is left to evaluate for each length bounds met so far (see [`Residual`]).
    residuals: KeyMap<u32, Residual>,
    /// Steps evaluated so far (see [`PartialJudge::work`]).
    work: u64,
}

/// Length bounds specialised at most (each costs a few hundred bytes; beyond them the whole
/// expression is evaluated).
const MOST_RESIDUALS: usize = 4096;

/// The factor's expression once the suit lengths' bounds are known: the steps whose interval
/// is then certain whatever the values (a shape clause, a length test, `&&` with a false
/// operand …) are evaluated once, and only the others on each partial hand with those bounds.
/// (Evaluation on intervals is monotone: narrower values never widen a step's interval, so a
/// single value found for every value stays that value.)
struct Residual {
    /// The certain intervals the remaining steps read.
    constants: Vec<(u32, Span)>,
    /// The remaining steps, operands first.
    steps: Vec<u32>,
    /// The factor's truth, when the bounds alone decide it.
    decided: Option<bool>,
}

impl<'a> FactorBounds<'a> {
    /// The expression of `factor`, a factor of the projected `program`.
    pub fn new(program: &'a Program, factor: &SeatFactor) -> FactorBounds<'a> {
        // Post-order of the nodes under the root, each once.
        let mut position = vec![usize::MAX; program.nodes.len()];
        let mut order: Vec<NodeId> = Vec::new();
        let mut stack = vec![(factor.root, false)];
        while let Some((id, expanded)) = stack.pop() {
            if position[id as usize] != usize::MAX {
                continue;
            }
            if expanded {
                position[id as usize] = order.len();
                order.push(id);
            } else {
                stack.push((id, true));
                for child in children(&program.nodes[id as usize]) {
                    if position[child as usize] == usize::MAX {
                        stack.push((child, false));
                    }
                }
            }
        }
        let at = |id: NodeId| position[id as usize];
        let constant = |id: NodeId| match program.nodes[id as usize] {
            Node::Const(k) => Some(i64::from(k)),
            _ => None,
        };
        // The operands of the steps not evaluated on intervals (what they read matters to
        // `reads`).
        let mut unknown_operands: Vec<Vec<usize>> = Vec::new();
        let mut unknown = |id: NodeId| {
            unknown_operands.push(children(&program.nodes[id as usize]).into_iter().map(at).collect());
            Step::Unknown(unknown_operands.len() as u32 - 1)
        };
        let steps = order
            .iter()
            .map(|&id| {
                let node = &program.nodes[id as usize];
                if let Some(value) = factor.value_position(node) {
                    return Step::Value(value);
                }
                match *node {
                    Node::Const(k) => Step::Const(i64::from(k)),
                    Node::Length(_, suit) => Step::Length(suit.index()),
                    Node::Shape(_, set) => Step::Shape(set),
                    Node::Not(a) => Step::Not(at(a)),
                    Node::Binary(BinOp::And, a, b, _) => Step::And(at(a), at(b)),
                    Node::Binary(BinOp::Or, a, b, _) => Step::Or(at(a), at(b)),
                    Node::Binary(
                        op @ (BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge),
                        a,
                        b,
                        _,
                    ) => Step::Compare(op, at(a), at(b)),
                    Node::Binary(op @ (BinOp::Add | BinOp::Sub | BinOp::Mul), a, b, _) => {
                        Step::Arithmetic(op, at(a), at(b))
                    }
                    Node::Binary(BinOp::Div, a, b, _) => match constant(b) {
                        Some(k) if k != 0 && k != -1 => Step::Divide(at(a), k),
                        _ => unknown(id),
                    },
                    Node::Binary(BinOp::Mod, a, b, _) => match constant(b) {
                        Some(k) if k != 0 && k != -1 => Step::Remainder(at(a), k),
                        _ => unknown(id),
                    },
                    Node::CompareConst(op, a, k) => Step::CompareConst(op, at(a), i64::from(k)),
                    Node::Conditional(c, a, b) => Step::Conditional(at(c), at(a), at(b)),
                    _ => unknown(id),
                }
            })
            .collect::<Vec<_>>();
        FactorBounds {
            program,
            spans: vec![UNBOUNDED; steps.len()],
            steps,
            unknown_operands,
            residuals: KeyMap::default(),
            work: 0,
        }
    }

    /// Whether `step` reads a step for which `of` holds.
    fn reads_any(&self, step: &Step, of: impl Fn(usize) -> bool) -> bool {
        match *step {
            Step::Unknown(k) => self.unknown_operands[k as usize].iter().any(|&operand| of(operand)),
            _ => {
                let (operands, count) = operands(step);
                operands[..count].iter().any(|&operand| of(operand))
            }
        }
    }

    /// Whether the factor may tell apart two hands within `partial`'s bounds that differ only
    /// in value `value`: evaluated with that value unbounded, the steps whose interval is then
    /// a single value are the same on both hands; the factor can differ only if a chain of
    /// steps not so decided leads from the value to it.
    pub fn reads(&mut self, partial: &PartialHand, value: usize) -> bool {
        if self.steps.is_empty() {
            return false;
        }
        let mut wide = partial.clone();
        wide.values[value] = UNBOUNDED;
        self.evaluate(&wide);
        // Whether each step's value may differ between the two hands (a second pass's work).
        self.work += self.steps.len() as u64;
        let mut differs = vec![false; self.steps.len()];
        for (i, step) in self.steps.iter().enumerate() {
            let (lo, hi) = self.spans[i];
            differs[i] = match *step {
                Step::Value(v) => v == value,
                _ => lo != hi && self.reads_any(step, |operand| differs[operand]),
            };
        }
        differs[self.steps.len() - 1]
    }

    /// Whether some hand within `partial`'s bounds may satisfy the factor (`false`: none does).
    ///
    /// Each step is evaluated once, operands first (a straight pass costs less than following
    /// only the operands that decide, which needs recursion and a record of the steps done,
    /// and needs no stack however deep the expression); only the steps the length bounds leave
    /// open are evaluated on each partial hand (see [`Residual`]).
    pub fn can_satisfy(&mut self, partial: &PartialHand) -> bool {
        if self.steps.is_empty() {
            return true;
        }
        // The length bounds, 4 bits each (bounds past them, and bounds met once the residuals
        // are full, are not specialised: the whole expression is evaluated).
        let nibbles = partial.lengths.iter().all(|&(lo, hi)| (0..16).contains(&lo) && (0..16).contains(&hi));
        let key = partial.lengths.iter().fold(0u32, |key, &(lo, hi)| key << 8 | (lo as u32 & 15) << 4 | hi as u32 & 15);
        let known = nibbles && self.residuals.contains_key(&key);
        if !known && (!nibbles || self.residuals.len() >= MOST_RESIDUALS) {
            self.evaluate(partial);
            return self.root_may_hold();
        }
        if !known {
            let residual = self.specialise(partial);
            self.residuals.insert(key, residual);
        }
        let residual = &self.residuals[&key];
        if let Some(decided) = residual.decided {
            return decided;
        }
        self.work += (residual.constants.len() + residual.steps.len()) as u64;
        for &(i, span) in &residual.constants {
            self.spans[i as usize] = span;
        }
        let no_patterns = ShapeSet::new();
        for &i in &residual.steps {
            self.spans[i as usize] =
                step_span(self.program, &self.steps[i as usize], &self.spans, partial, &no_patterns);
        }
        self.root_may_hold()
    }

    /// Evaluates every step on `partial`, operands first.
    fn evaluate(&mut self, partial: &PartialHand) {
        let fitting = fitting_patterns(partial);
        self.work += self.steps.len() as u64;
        for (i, step) in self.steps.iter().enumerate() {
            self.spans[i] = step_span(self.program, step, &self.spans, partial, &fitting);
        }
    }

    /// Whether the root's interval, as evaluated, leaves the factor possibly true.
    fn root_may_hold(&self) -> bool {
        truth(self.spans[self.steps.len() - 1]) != Some(false)
    }

    /// The steps left to evaluate on partial hands with `partial`'s length bounds.
    fn specialise(&mut self, partial: &PartialHand) -> Residual {
        let wide = PartialHand { lengths: partial.lengths, values: vec![UNBOUNDED; partial.values.len()] };
        self.evaluate(&wide);
        // (Sorting out the steps is a second pass's work.)
        self.work += self.steps.len() as u64;
        let certain: Vec<bool> = (self.steps.iter().zip(&self.spans))
            .map(|(step, &(lo, hi))| lo == hi && !matches!(step, Step::Value(_)))
            .collect();
        let steps: Vec<u32> = (0..self.steps.len()).filter(|&i| !certain[i]).map(|i| i as u32).collect();
        let root = self.steps.len() - 1;
        let decided = certain[root].then(|| self.root_may_hold());
        // The certain operands of the remaining steps.
        let mut read = vec![false; self.steps.len()];
        for &i in &steps {
            let (operands, count) = operands(&self.steps[i as usize]);
            for &operand in &operands[..count] {
                read[operand] = certain[operand];
            }
        }
        let constants = (0..self.steps.len()).filter(|&i| read[i]).map(|i| (i as u32, self.spans[i])).collect();
        Residual { constants, steps, decided }
    }
}

impl PartialJudge for FactorBounds<'_> {
    fn can_satisfy(&mut self, partial: &PartialHand) -> bool {
        FactorBounds::can_satisfy(self, partial)
    }

    fn reads(&mut self, partial: &PartialHand, value: usize) -> bool {
        FactorBounds::reads(self, partial, value)
    }

    fn work(&self) -> u64 {
        self.work
    }
}

/// The patterns (S, H, D, C order) `partial`'s length bounds allow.
fn fitting_patterns(partial: &PartialHand) -> ShapeSet {
    let lengths = partial.lengths;
    ShapeSet::within([lengths[3], lengths[2], lengths[1], lengths[0]])
}

/// The steps a step evaluated on intervals reads (the first `count` of the array; none for an
/// unknown step, whose operands are kept apart).
fn operands(step: &Step) -> ([usize; 3], usize) {
    match *step {
        Step::Not(a) | Step::CompareConst(_, a, _) | Step::Divide(a, _) | Step::Remainder(a, _) => ([a, 0, 0], 1),
        Step::And(a, b) | Step::Or(a, b) | Step::Compare(_, a, b) | Step::Arithmetic(_, a, b) => ([a, b, 0], 2),
        Step::Conditional(c, a, b) => ([c, a, b], 3),
        Step::Const(_) | Step::Length(_) | Step::Value(_) | Step::Shape(_) | Step::Unknown(_) => ([0; 3], 0),
    }
}

/// The interval of `step` on `partial`, its operands' intervals in `spans`; `fitting`: the
/// patterns the length bounds allow.
#[inline(always)]
fn step_span(program: &Program, step: &Step, spans: &[Span], partial: &PartialHand, fitting: &ShapeSet) -> Span {
    match *step {
        Step::Const(k) => (k, k),
        Step::Length(suit) => {
            let (lo, hi) = partial.lengths[suit];
            (i64::from(lo), i64::from(hi))
        }
        Step::Value(v) => partial.values[v],
        Step::Shape(set) => {
            // Certain when all the patterns the lengths allow are in the set, or none is.
            let (inside, all) = (program.shapes[set as usize].common(fitting), fitting.len());
            of_truth(match inside {
                0 if all > 0 => Some(false),
                n if n == all && n > 0 => Some(true),
                _ => None,
            })
        }
        Step::Not(a) => of_truth(truth(spans[a]).map(|t| !t)),
        Step::And(a, b) => of_truth(junction(truth(spans[a]), truth(spans[b]), false)),
        Step::Or(a, b) => of_truth(junction(truth(spans[a]), truth(spans[b]), true)),
        Step::Compare(op, a, b) => of_truth(compare(op, spans[a], spans[b])),
        Step::CompareConst(op, a, k) => of_truth(compare(op, spans[a], (k, k))),
        Step::Arithmetic(op, a, b) => arithmetic(op, spans[a], spans[b]),
        Step::Divide(a, k) => divide(spans[a], k),
        Step::Remainder(a, k) => remainder(spans[a], k),
        Step::Conditional(c, a, b) => match truth(spans[c]) {
            Some(true) => spans[a],
            Some(false) => spans[b],
            None => (spans[a].0.min(spans[b].0), spans[a].1.max(spans[b].1)),
        },
        Step::Unknown(_) => UNBOUNDED,
    }
}

/// `a && b` (`absorbing` false) or `a || b` (`absorbing` true) in three-valued logic.
fn junction(a: Option<bool>, b: Option<bool>, absorbing: bool) -> Option<bool> {
    match (a, b) {
        (Some(x), _) | (_, Some(x)) if x == absorbing => Some(absorbing),
        (Some(_), Some(_)) => Some(!absorbing),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{Deal, Hand, Suit, LANE_MASK};
    use crate::dealing::{Dealer, DealingSetup, ValueScope};
    use crate::program::seat_factors::FactorJudges;
    use crate::Dialect;

    /// Small intervals, for checking the operations on every value they hold.
    fn spans() -> Vec<Span> {
        let mut out = Vec::new();
        for lo in -4..=4 {
            for hi in lo..=4 {
                out.push((lo, hi));
            }
        }
        out
    }

    /// Every value of `a` and `b` combined by `f`: least and greatest.
    fn hull(a: Span, b: Span, f: impl Fn(i64, i64) -> i64) -> Span {
        let values: Vec<i64> =
            (a.0..=a.1).flat_map(|x| (b.0..=b.1).map(move |y| (x, y))).map(|(x, y)| f(x, y)).collect();
        (*values.iter().min().unwrap(), *values.iter().max().unwrap())
    }

    #[test]
    fn operations_hold_every_value_and_no_more_than_needed() {
        type Truth = fn(i64, i64) -> bool;
        let ops: [(BinOp, Truth); 6] = [
            (BinOp::Eq, |x, y| x == y),
            (BinOp::Ne, |x, y| x != y),
            (BinOp::Lt, |x, y| x < y),
            (BinOp::Le, |x, y| x <= y),
            (BinOp::Gt, |x, y| x > y),
            (BinOp::Ge, |x, y| x >= y),
        ];
        for a in spans() {
            for b in spans() {
                for (op, f) in ops {
                    let (lo, hi) = hull(a, b, |x, y| f(x, y) as i64);
                    let certain = if lo == hi { Some(lo == 1) } else { None };
                    assert_eq!(compare(op, a, b), certain, "{a:?} {op:?} {b:?}");
                }
                assert_eq!(arithmetic(BinOp::Add, a, b), hull(a, b, |x, y| x + y));
                assert_eq!(arithmetic(BinOp::Sub, a, b), hull(a, b, |x, y| x - y));
                assert_eq!(arithmetic(BinOp::Mul, a, b), hull(a, b, |x, y| x * y));
            }
            for k in [-3, -2, 1, 2, 3, 5] {
                assert_eq!(divide(a, k), hull(a, (k, k), |x, y| x / y), "{a:?} / {k}");
                let (lo, hi) = remainder(a, k);
                let (least, most) = hull(a, (k, k), |x, y| x % y);
                assert!(lo <= least && most <= hi, "{a:?} % {k}: ({lo}, {hi}) misses ({least}, {most})");
            }
        }
        // Leaving a C int: unbounded, so that a wrapped value is never missed.
        assert_eq!(arithmetic(BinOp::Add, (0, i64::from(i32::MAX)), (1, 1)), UNBOUNDED);
        assert_eq!(arithmetic(BinOp::Mul, (-70_000, 0), (0, 70_000)), UNBOUNDED);
    }

    #[test]
    fn a_hand_that_satisfies_its_factor_is_never_ruled_out() {
        // Random hands, each known in part as counting knows it (the lengths of the first suits
        // exactly, every value within bounds around its own): whenever the factor holds on the
        // hand, its bounds must say it can.
        let scripts = [
            "condition shape(north, any 5xxx + any 64xx) && hcp(north) >= 11 && hcp(north) <= 15\n",
            "tp = hcp(south) + (spades(south) < 3 ? 3 - spades(south) : 0) - (hearts(south) > 4 ? 0 : 1)\ncondition tp == 14 && hcp(south, spades) > 2 && control(south) < 5\n",
            "condition (hearts(east) >= 6 || diamonds(east) * 2 > 11) && loser(east) <= 7 && hascard(east, AH)\n",
            "x = (hcp(west) * 3 - 7) / 2\ncondition x % 4 != 1 && shape{west, 5+s4+hxx} || ltc(west) < 600 && !(quality(west, spades) > 500)\n",
        ];
        let mut dealer = Dealer::new(&DealingSetup { seed: 5, ..DealingSetup::default() }).unwrap();
        for script in scripts {
            let program = Program::from_source(script.as_bytes(), Dialect::V2, &Default::default()).unwrap();
            let (program, factors) = program.seat_factors(program.condition.unwrap());
            let mut judges = FactorJudges::new(&program, &factors);
            let mut satisfied = 0;
            for (k, factor) in factors.iter().enumerate() {
                let reading = factor.reading(&program);
                let mut bounds = FactorBounds::new(&program, factor);
                for n in 0..20_000u64 {
                    let deal: Deal = dealer.deal().unwrap();
                    let hand = deal.hand(factor.seat);
                    if !judges.judge(k, hand).unwrap() {
                        continue;
                    }
                    satisfied += 1;
                    let suit_of = |s: usize| Hand(hand.0 & (LANE_MASK << (16 * s)));
                    let known = (n % 5) as usize;
                    let widen = (n % 3) as i64;
                    let lengths = std::array::from_fn(|s| {
                        let length = suit_of(s).0.count_ones() as i32;
                        if s < known {
                            (length, length)
                        } else {
                            (length - (n % 2) as i32, 13)
                        }
                    });
                    let values = reading
                        .values
                        .iter()
                        .map(|value| {
                            let exact = i64::from(match value.scope {
                                ValueScope::Suit(suit) => (value.value)(suit_of(suit.index())),
                                ValueScope::Total => (0..4).map(|s| (value.value)(suit_of(s))).sum(),
                            });
                            (exact - widen, exact + 2 * widen)
                        })
                        .collect();
                    let partial = PartialHand { lengths, values };
                    assert!(bounds.can_satisfy(&partial), "{script}: {} ruled out by {partial:?}", hand.pbn());
                }
            }
            assert!(satisfied > 100, "{script}: {satisfied} hands satisfied a factor");
        }
    }

    #[test]
    fn a_suit_value_read_under_a_length_test_is_not_read_at_other_lengths() {
        // hcp(south, clubs) matters only with six clubs or more: compared with a constant, or
        // added to a total.
        // (With eight clubs or more no shape of the second is left: nothing is read.)
        let scripts = [
            ("condition clubs(south) > 5 && hcp(south, clubs) == 9 || hcp(south) > 20 && shape(south, any 4333)\n", 6..=13),
            ("pts = hcp(south) + (clubs(south) > 5 ? hcp(south, clubs) : 0)\ncondition pts >= 18 && shape(south, any 6xxx + any 4333)\n", 6..=7),
        ];
        for (script, read) in scripts {
            let program = Program::from_source(script.as_bytes(), Dialect::V2, &Default::default()).unwrap();
            let (program, factors) = program.seat_factors(program.condition.unwrap());
            let reading = factors[0].reading(&program);
            let clubs_points = reading
                .values
                .iter()
                .position(|value| value.scope == ValueScope::Suit(Suit::Clubs))
                .expect("hcp(south, clubs) is read");
            let mut bounds = FactorBounds::new(&program, &factors[0]);
            for length in 0..=13 {
                let mut lengths = [(0, 13); 4];
                lengths[Suit::Clubs.index()] = (length, length);
                let partial = PartialHand { lengths, values: vec![UNBOUNDED; reading.values.len()] };
                assert_eq!(bounds.reads(&partial, clubs_points), read.contains(&length), "{script}: {length} clubs");
            }
        }
    }

    #[test]
    fn partial_hands_no_completion_of_which_satisfies_are_ruled_out() {
        let script =
            "condition shape(north, any 5xxx + any 64xx) && hcp(north) >= 11 && hcp(north) + spades(north) <= 15\n";
        let program = Program::from_source(script.as_bytes(), Dialect::V2, &Default::default()).unwrap();
        let (program, factors) = program.seat_factors(program.condition.unwrap());
        let mut bounds = FactorBounds::new(&program, &factors[0]);
        let reading = factors[0].reading(&program);
        assert_eq!(reading.values.len(), 1, "hcp(north) alone is read besides the lengths");
        let partial = |lengths: [(i32, i32); 4], points: (i64, i64)| PartialHand { lengths, values: vec![points] };
        let any = (0, 13);
        // Clubs, diamonds and hearts 3-3-3: spades 4, no allowed shape.
        assert!(!bounds.can_satisfy(&partial([(3, 3), (3, 3), (3, 3), (4, 4)], (0, 37))));
        // Clubs 5: any points still possible.
        assert!(bounds.can_satisfy(&partial([(5, 5), any, any, any], (0, 37))));
        // Already past the points allowed (15 with spades at least 0), or short of them.
        assert!(!bounds.can_satisfy(&partial([(5, 5), any, any, any], (16, 30))));
        assert!(!bounds.can_satisfy(&partial([(5, 5), any, any, any], (0, 10))));
        // 13 points and five spades: 18 > 15.
        assert!(!bounds.can_satisfy(&partial([any, any, any, (5, 5)], (13, 13))));
        assert!(bounds.can_satisfy(&partial([(5, 5), (4, 4), (2, 2), (2, 2)], (13, 13))));
    }
}
