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

use crate::cards::Suit;
use crate::dealing::PartialHand;
use crate::program::compiled_program::Program;
use crate::program::nodes::{children, Node, NodeId};
use crate::program::seat_factors::SeatFactor;
use crate::program::shape::all_patterns;
use crate::script::ast::BinOp;

/// An interval of values (least, greatest).
type Span = (i64, i64);

/// Bounds on the four suit lengths (see [`PartialHand::lengths`]).
type LengthBounds = [(i32, i32); 4];

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
    /// Anything else: any value.
    Unknown,
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
    /// Every suit-length pattern `[spades, hearts, diamonds, clubs]`.
    patterns: Vec<[u8; 4]>,
    /// The intervals of the steps in the current evaluation (those stamped with it).
    spans: Vec<Span>,
    /// The evaluation each step's interval belongs to.
    stamps: Vec<u32>,
    /// The current evaluation.
    generation: u32,
    /// The patterns within the length bounds `fitting_for`.
    fitting: Vec<[u8; 4]>,
    fitting_for: Option<LengthBounds>,
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
                        _ => Step::Unknown,
                    },
                    Node::Binary(BinOp::Mod, a, b, _) => match constant(b) {
                        Some(k) if k != 0 && k != -1 => Step::Remainder(at(a), k),
                        _ => Step::Unknown,
                    },
                    Node::CompareConst(op, a, k) => Step::CompareConst(op, at(a), i64::from(k)),
                    Node::Conditional(c, a, b) => Step::Conditional(at(c), at(a), at(b)),
                    _ => Step::Unknown,
                }
            })
            .collect::<Vec<_>>();
        let (spans, stamps) = (vec![UNBOUNDED; steps.len()], vec![0; steps.len()]);
        let patterns = all_patterns();
        FactorBounds { program, steps, patterns, spans, stamps, generation: 0, fitting: Vec::new(), fitting_for: None }
    }

    /// Whether some hand within `partial`'s bounds may satisfy the factor (`false`: none does).
    pub fn can_satisfy(&mut self, partial: &PartialHand) -> bool {
        let Some(root) = self.steps.len().checked_sub(1) else { return true };
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamps.iter_mut().for_each(|stamp| *stamp = 0);
            self.generation = 1;
        }
        truth(self.span(root, partial, 0)) != Some(false)
    }

    /// The interval of step `i` on `partial`, each step once per evaluation; `&&`, `||` and
    /// `?:` look at an operand only when the others leave the result open.
    fn span(&mut self, i: usize, partial: &PartialHand, depth: usize) -> Span {
        if self.stamps[i] == self.generation {
            return self.spans[i];
        }
        // (The stack is looked at every 16 levels.)
        if depth % 16 == 15 && !crate::stack::enough() {
            return UNBOUNDED;
        }
        let depth = depth + 1;
        let span = match self.steps[i] {
            Step::Const(k) => (k, k),
            Step::Length(suit) => {
                let (lo, hi) = partial.lengths[suit];
                (i64::from(lo), i64::from(hi))
            }
            Step::Value(v) => partial.values[v],
            Step::Shape(set) => of_truth(self.shape_truth(set, partial)),
            Step::Not(a) => of_truth(truth(self.span(a, partial, depth)).map(|t| !t)),
            Step::And(a, b) => of_truth(self.junction(a, b, false, partial, depth)),
            Step::Or(a, b) => of_truth(self.junction(a, b, true, partial, depth)),
            Step::Compare(op, a, b) => {
                let (x, y) = (self.span(a, partial, depth), self.span(b, partial, depth));
                of_truth(compare(op, x, y))
            }
            Step::CompareConst(op, a, k) => of_truth(compare(op, self.span(a, partial, depth), (k, k))),
            Step::Arithmetic(op, a, b) => {
                let (x, y) = (self.span(a, partial, depth), self.span(b, partial, depth));
                arithmetic(op, x, y)
            }
            Step::Divide(a, k) => divide(self.span(a, partial, depth), k),
            Step::Remainder(a, k) => remainder(self.span(a, partial, depth), k),
            Step::Conditional(c, a, b) => match truth(self.span(c, partial, depth)) {
                Some(true) => self.span(a, partial, depth),
                Some(false) => self.span(b, partial, depth),
                None => {
                    let (x, y) = (self.span(a, partial, depth), self.span(b, partial, depth));
                    (x.0.min(y.0), x.1.max(y.1))
                }
            },
            Step::Unknown => UNBOUNDED,
        };
        self.spans[i] = span;
        self.stamps[i] = self.generation;
        span
    }

    /// `a && b` (`absorbing` false) or `a || b` (`absorbing` true) in three-valued logic: `b`
    /// is looked at only when `a` does not decide.
    fn junction(&mut self, a: usize, b: usize, absorbing: bool, partial: &PartialHand, depth: usize) -> Option<bool> {
        let first = truth(self.span(a, partial, depth));
        if first == Some(absorbing) {
            return first;
        }
        match (first, truth(self.span(b, partial, depth))) {
            (_, Some(second)) if second == absorbing => Some(absorbing),
            (Some(_), second) => second,
            _ => None,
        }
    }

    /// Whether the lengths within the bounds fall in shape set `set`: certain when all the
    /// patterns they allow are in it, or none is.
    fn shape_truth(&mut self, set: u32, partial: &PartialHand) -> Option<bool> {
        if self.fitting_for.as_ref() != Some(&partial.lengths) {
            self.fitting.clear();
            self.fitting.extend(self.patterns.iter().copied().filter(|pattern| {
                Suit::ALL.iter().all(|&suit| {
                    let length = i32::from(pattern[3 - suit.index()]);
                    let (lo, hi) = partial.lengths[suit.index()];
                    lo <= length && length <= hi
                })
            }));
            self.fitting_for = Some(partial.lengths);
        }
        let set = &self.program.shapes[set as usize];
        let inside = self.fitting.iter().filter(|&&pattern| set.contains_pattern(pattern)).count();
        match inside {
            0 if !self.fitting.is_empty() => Some(false),
            n if n == self.fitting.len() && n > 0 => Some(true),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{Deal, Hand, LANE_MASK};
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
