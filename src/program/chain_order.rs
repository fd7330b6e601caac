//! The operands of the `&&` and `||` chains inside a deal expression, arranged before the
//! expression becomes a DAG so that a chain is decided after as little work as possible.
//!
//! A deal expression reads nothing but the deal and cannot fail, so the operands of a chain
//! may be judged in any order: `a && b` is 1 exactly when both are not 0, whichever is judged
//! first. Two arrangements follow:
//!
//! - Operands that read nothing but the suit lengths of one hand (`spades(south) == 6`,
//!   `hearts(south) < 4`, `shape(south, …)`) are grouped into one chain of their own, which the
//!   DAG turns into one table look-up by the hand's pattern.
//! - Operands are ordered by what they cost against how often they decide the chain (fail in
//!   an `&&`, pass in an `||`), measured on a fixed sample of random deals: the order that
//!   minimises the expected work for independent operands (cost / decision rate, ascending).
//!
//! The sample is the same for every run (a fixed seed of the ChaCha generator), so a script is
//! always arranged alike; the arrangement changes how long a judgement takes, never its value.
//! The top-level clauses of a condition are also reordered as the run goes (see
//! [`crate::program::deal_expr::StagedCondition`]); this arranges what lies inside them.

use rand_chacha::rand_core::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::cards::{Card, Deal, Seat};
use crate::program::deal_expr::{DealExpr, Stat};
use crate::program::Program;

/// Deals in the sample the decision rates are measured on.
const SAMPLE_DEALS: usize = 128;

/// Seed of the sample (any fixed value: the sample must be the same for every run).
const SAMPLE_SEED: u64 = 0x5eed;

/// Most operand evaluations the measuring may cost, in expression nodes times sample deals: a
/// script with chains nested deeper than this allows keeps its remaining chains as written.
const MEASURING_BUDGET: u64 = 1 << 22;

/// Arranges the chains inside `expr`, an expression of `program`. A chain at the top (the
/// clauses of a condition) keeps its order, which the staged condition adapts as the run goes,
/// but its operands are arranged.
pub fn arrange(program: &Program, expr: DealExpr) -> DealExpr {
    let mut arranger = Arranger { program, sample: Vec::new(), budget: MEASURING_BUDGET };
    match expr {
        DealExpr::All(parts) => DealExpr::All(parts.into_iter().map(|part| arranger.arrange(part)).collect()),
        DealExpr::Any(parts) => DealExpr::Any(parts.into_iter().map(|part| arranger.arrange(part)).collect()),
        other => arranger.arrange(other),
    }
}

/// [`SAMPLE_DEALS`] random deals from [`SAMPLE_SEED`]: each a shuffle of the 52 cards.
fn sample_deals() -> Vec<Deal> {
    let mut rng = ChaCha8Rng::seed_from_u64(SAMPLE_SEED);
    (0..SAMPLE_DEALS)
        .map(|_| {
            let mut cards: [u8; 52] = std::array::from_fn(|i| i as u8);
            for i in (1..cards.len()).rev() {
                // A modulo's bias of at most 2^-58 is nothing to an ordering heuristic.
                let j = (rng.next_u64() % (i as u64 + 1)) as usize;
                cards.swap(i, j);
            }
            let mut deal = Deal::default();
            for (k, &card) in cards.iter().enumerate() {
                deal.0[k / 13].0 |= Card::from_ordinal(card as usize).bit();
            }
            deal
        })
        .collect()
}

/// The state of one arrangement: the sample (drawn when first needed) and what is left of the
/// budget.
struct Arranger<'p> {
    program: &'p Program,
    sample: Vec<Deal>,
    budget: u64,
}

impl Arranger<'_> {
    /// `expr` with its chains, and those of its operands, arranged.
    fn arrange(&mut self, expr: DealExpr) -> DealExpr {
        let arrange_box = |this: &mut Self, e: Box<DealExpr>| Box::new(this.arrange(*e));
        match expr {
            DealExpr::All(parts) => DealExpr::All(self.arrange_chain(parts, false)),
            DealExpr::Any(parts) => DealExpr::Any(self.arrange_chain(parts, true)),
            DealExpr::Not(a) => DealExpr::Not(arrange_box(self, a)),
            DealExpr::Binary(op, a, b) => {
                let a = arrange_box(self, a);
                DealExpr::Binary(op, a, arrange_box(self, b))
            }
            DealExpr::CompareConst(op, a, k) => DealExpr::CompareConst(op, arrange_box(self, a), k),
            DealExpr::DivideConst(op, a, k) => DealExpr::DivideConst(op, arrange_box(self, a), k),
            DealExpr::Conditional(c, a, b) => {
                let c = arrange_box(self, c);
                let a = arrange_box(self, a);
                DealExpr::Conditional(c, a, arrange_box(self, b))
            }
            DealExpr::Score(vulnerable, contract, a) => DealExpr::Score(vulnerable, contract, arrange_box(self, a)),
            DealExpr::Imps(a) => DealExpr::Imps(arrange_box(self, a)),
            leaf => leaf,
        }
    }

    /// The operands of an `&&` (`any` false) or `||` chain, arranged.
    fn arrange_chain(&mut self, parts: Vec<DealExpr>, any: bool) -> Vec<DealExpr> {
        let parts: Vec<DealExpr> = parts.into_iter().map(|part| self.arrange(part)).collect();
        let mut parts = group_by_hand_lengths(parts, any);
        if parts.len() < 2 {
            return parts;
        }
        let limit = self.budget / SAMPLE_DEALS as u64;
        let needed = parts.iter().map(|part| size_up_to(part, limit)).sum::<u64>() * SAMPLE_DEALS as u64;
        if needed > self.budget {
            return parts;
        }
        self.budget -= needed;
        if self.sample.is_empty() {
            self.sample = sample_deals();
        }
        // Per operand: its cost and the fraction of the sample on which it decides the chain
        // (with one decision and one non-decision added, so that none is 0 or 1).
        let mut keyed: Vec<(f64, DealExpr)> = parts
            .drain(..)
            .map(|part| {
                let decided = self.sample.iter().filter(|deal| part.truth(self.program, deal) == any).count();
                let rate = (decided as f64 + 1.0) / (self.sample.len() as f64 + 2.0);
                (cost(&part) / rate, part)
            })
            .collect();
        keyed.sort_by(|(a, _), (b, _)| a.total_cmp(b));
        keyed.into_iter().map(|(_, part)| part).collect()
    }
}

/// `parts` of a chain with the operands that read nothing but the suit lengths of one hand,
/// when there are two or more for that hand, joined into one chain of the same kind.
fn group_by_hand_lengths(parts: Vec<DealExpr>, any: bool) -> Vec<DealExpr> {
    let mut rest = parts;
    let mut grouped = Vec::new();
    for seat in Seat::ALL {
        let (mine, others): (Vec<DealExpr>, Vec<DealExpr>) =
            rest.into_iter().partition(|part| part.length_seat() == Some(seat));
        rest = others;
        match mine.len() {
            0 => {}
            1 => grouped.extend(mine),
            _ if rest.is_empty() && grouped.is_empty() => return mine,
            _ => grouped.push(if any { DealExpr::Any(mine) } else { DealExpr::All(mine) }),
        }
    }
    grouped.extend(rest);
    grouped
}

/// The number of nodes of `expr`, counted up to `limit` (a larger count is `limit + 1`).
fn size_up_to(expr: &DealExpr, limit: u64) -> u64 {
    let mut count = 0;
    let mut pending = vec![expr];
    while let Some(expr) = pending.pop() {
        count += 1;
        if count > limit {
            break;
        }
        match expr {
            DealExpr::Not(a)
            | DealExpr::CompareConst(_, a, _)
            | DealExpr::DivideConst(_, a, _)
            | DealExpr::Score(_, _, a)
            | DealExpr::Imps(a) => pending.push(a),
            DealExpr::Binary(_, a, b) => pending.extend([a.as_ref(), b.as_ref()]),
            DealExpr::Conditional(c, a, b) => pending.extend([c.as_ref(), a.as_ref(), b.as_ref()]),
            DealExpr::All(parts) | DealExpr::Any(parts) => pending.extend(parts.iter()),
            _ => {}
        }
    }
    count
}

/// Costs above this are not told apart: [`cost`] stops adding up there, so that arranging the
/// nested chains of a long script does not walk its large expressions again at every level.
const COST_CAP: f64 = 1000.0;

/// A rough cost of judging `expr` once, in units of reading one suit length: what orders a
/// chain's operands, not a measurement (at most a little over [`COST_CAP`]).
pub(crate) fn cost(expr: &DealExpr) -> f64 {
    cost_within(expr, COST_CAP)
}

/// [`cost`], adding up no further once the sum passes `cap`.
fn cost_within(expr: &DealExpr, cap: f64) -> f64 {
    if cap < 0.0 {
        return 0.0;
    }
    if expr.length_seat().is_some() && !matches!(expr, DealExpr::Const(_) | DealExpr::Stat(_)) {
        // The DAG makes it one look-up by the hand's pattern.
        return 3.0;
    }
    let stat = |stat: &Stat| match stat {
        Stat::Length(..) => 1.0,
        Stat::Count(..) => 3.0,
    };
    // The sum of the operands' costs, each within what is left of the cap.
    let sum = |base: f64, operands: &mut dyn Iterator<Item = &DealExpr>| {
        let mut total = base;
        for operand in operands {
            if total > cap {
                break;
            }
            total += cost_within(operand, cap - total);
        }
        total
    };
    match expr {
        DealExpr::Const(_) => 0.5,
        DealExpr::Stat(s) => stat(s),
        DealExpr::StatCompare(s, ..) | DealExpr::StatRange(s, ..) => stat(s) + 0.5,
        DealExpr::Shape(..) | DealExpr::ShapeIn(..) => 3.0,
        DealExpr::HasCard(..) => 1.0,
        DealExpr::HandMeasure(..) => 6.0,
        DealExpr::Cccc(_) => 30.0,
        DealExpr::Quality(..) => 10.0,
        DealExpr::Not(a) | DealExpr::CompareConst(_, a, _) | DealExpr::DivideConst(_, a, _) => {
            sum(0.5, &mut std::iter::once(a.as_ref()))
        }
        DealExpr::Score(_, _, a) | DealExpr::Imps(a) => sum(3.0, &mut std::iter::once(a.as_ref())),
        DealExpr::Binary(_, a, b) => sum(1.0, &mut [a.as_ref(), b.as_ref()].into_iter()),
        DealExpr::Conditional(c, a, b) => {
            let condition = sum(1.0, &mut std::iter::once(c.as_ref()));
            condition + cost_within(a, cap - condition).max(cost_within(b, cap - condition))
        }
        DealExpr::All(parts) | DealExpr::Any(parts) => sum(1.0, &mut parts.iter()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dealing::{Dealer, DealingSetup};
    use crate::dialect::Dialect;

    fn compiled(script: &str) -> (Program, DealExpr) {
        let parsed = crate::script::parse(script.as_bytes(), Dialect::V2, &Default::default()).unwrap();
        let program = Program::compile(&parsed, Dialect::V2).unwrap();
        let expr = DealExpr::compile(&program, program.condition.unwrap()).unwrap();
        (program, expr)
    }

    #[test]
    fn arranged_expressions_keep_their_values() {
        let (program, expr) = compiled(
            "o2S = top5(south,spades)>1 and spades(south)==6 and spades(north)>2\n\
             o2H = top5(south,hearts)>1 and hearts(south)==6 and hearts(north)>2\n\
             o3 = (top5(south,clubs)>1 and clubs(south)>6) or (hcp(south) > 4 and diamonds(south) > 6)\n\
             x = (o2S or o2H) and controls(north) > 8 or (o3 and hcp(north) + hcp(south) > 20 ? 1 : 0)\n\
             condition x or (hearts(west) < 3 and spades(west) > 4 and hcp(west) < 9) or not o3\n",
        );
        let arranged = arrange(&program, expr.clone());
        assert_ne!(arranged, expr, "something was rearranged");
        let mut dealer = Dealer::new(&DealingSetup { seed: 11, ..Default::default() }).unwrap();
        for _ in 0..20_000 {
            let deal = dealer.deal().unwrap();
            assert_eq!(arranged.value(&program, &deal), expr.value(&program, &deal));
        }
    }

    #[test]
    fn rare_cheap_operands_come_first_and_one_hands_lengths_are_joined() {
        let (program, expr) = compiled(
            "condition hcp(north) > 30 or (top5(south,spades) > 1 and hcp(south) > 3 and spades(south) == 6 \
             and hearts(south) < 4)\n",
        );
        // The top chain keeps its order (the staged condition adapts it); what it holds is
        // arranged.
        let DealExpr::Any(top) = arrange(&program, expr) else { panic!("an || chain") };
        assert!(matches!(top[0], DealExpr::StatRange(..)), "{top:?}");
        let DealExpr::All(parts) = &top[1] else { panic!("an && chain") };
        // South's two length tests are one chain (one look-up by pattern), judged first: it
        // fails most often.
        assert_eq!(parts.len(), 3, "{parts:?}");
        assert!(matches!(&parts[0], DealExpr::All(lengths) if lengths.len() == 2), "{parts:?}");
    }

    #[test]
    fn the_sample_is_52_cards_dealt_13_each() {
        let sample = sample_deals();
        assert_eq!(sample.len(), SAMPLE_DEALS);
        assert_eq!(sample, sample_deals(), "the same for every run");
        for deal in &sample {
            assert_eq!(deal.0.iter().fold(0, |all, hand| all | hand.0).count_ones(), 52);
            assert!(deal.0.iter().all(|hand| hand.0.count_ones() == 13));
        }
    }
}
