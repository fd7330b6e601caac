//! How the operands of the `&&` and `||` chains inside a deal expression are arranged as the
//! DAG builder compiles it, so that a chain is decided after as little work as possible: the
//! fixed sample of deals the decision rates are measured on, the cost model, and the order
//! they give. The builder does the arranging (it computes the nodes' values on the sample).
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
//! Each merged node's values on the sample are computed once, from its operands' values, so
//! measuring costs the number of distinct nodes, not the size of the expressions written out.
//! The top-level clauses of a condition are also reordered as the run goes (see
//! [`crate::program::deal_expr::StagedCondition`]); this arranges what lies inside them.

use rand_chacha::rand_core::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::cards::{Card, Deal};
use crate::program::dag_node::{DagNode, Slot, Stat};

/// Deals in the sample the decision rates are measured on.
pub(crate) const SAMPLE_DEALS: usize = 128;

/// Seed of the sample (any fixed value: the sample must be the same for every run).
const SAMPLE_SEED: u64 = 0x5eed;

/// [`SAMPLE_DEALS`] random deals from [`SAMPLE_SEED`]: each a shuffle of the 52 cards.
pub(crate) fn sample_deals() -> Vec<Deal> {
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

/// Costs above this are not told apart, so that the sums of long scripts' large expressions
/// stay finite and comparable.
const COST_CAP: f64 = 1000.0;

/// The operands of a chain, each with its cost and the number of sample deals on which it
/// decides the chain (fails in an `&&`, passes in an `||`), in the order that minimises the
/// expected work: cost over decision rate, ascending (with one decision and one non-decision
/// added to the rate, so that none is 0 or 1).
pub(crate) fn by_expected_work(parts: Vec<(Slot, f64, usize)>) -> Vec<Slot> {
    let mut keyed: Vec<(f64, Slot)> = parts
        .into_iter()
        .map(|(part, cost, decided)| {
            let rate = (decided as f64 + 1.0) / (SAMPLE_DEALS as f64 + 2.0);
            (cost / rate, part)
        })
        .collect();
    keyed.sort_by(|(a, _), (b, _)| a.total_cmp(b));
    keyed.into_iter().map(|(_, part)| part).collect()
}

/// A rough cost of judging `node` once, in units of reading one suit length, from its
/// operands' costs (`costs`, by slot): what orders a chain's operands, not a measurement (at
/// most [`COST_CAP`]). A node that reads nothing but one hand's suit lengths (`lengths_only`)
/// is one look-up.
pub(crate) fn node_cost(node: &DagNode, lengths_only: bool, costs: &[f64]) -> f64 {
    if lengths_only && !matches!(node, DagNode::Const(_) | DagNode::Stat(_)) {
        return 3.0;
    }
    let stat = |stat: &Stat| match stat {
        Stat::Length(..) => 1.0,
        Stat::Count(..) => 3.0,
    };
    let cost = |slot: &Slot| costs[*slot as usize];
    let sum = |base: f64, operands: &[Slot]| operands.iter().map(cost).sum::<f64>() + base;
    let total = match node {
        DagNode::Const(_) => 0.5,
        DagNode::Stat(s) => stat(s),
        DagNode::StatCompare(s, ..) | DagNode::StatRange(s, ..) => stat(s) + 0.5,
        DagNode::Shape(..) | DagNode::ShapeValue(..) => 3.0,
        DagNode::HasCard(..) => 1.0,
        DagNode::HandMeasure(..) => 6.0,
        DagNode::Cccc(_) => 30.0,
        DagNode::Quality(..) => 10.0,
        DagNode::Not(a) | DagNode::CompareConst(_, a, _) | DagNode::DivideConst(_, a, _) => sum(0.5, &[*a]),
        DagNode::Score(_, _, a) | DagNode::Imps(a) => sum(3.0, &[*a]),
        DagNode::Binary(_, a, b) => sum(1.0, &[*a, *b]),
        DagNode::Conditional(c, a, b) => 1.0 + cost(c) + cost(a).max(cost(b)),
        DagNode::All(parts) | DagNode::Any(parts) => sum(1.0, parts),
    };
    total.min(COST_CAP)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Seat;
    use crate::dealing::{Dealer, DealingSetup};
    use crate::dialect::Dialect;
    use crate::program::compiled_program::Program;
    use crate::program::dag::DealDag;
    use crate::program::dag_builder::DagBuilder;
    use crate::program::eval::reference_value;

    fn compiled(script: &str) -> Program {
        Program::from_source(script.as_bytes(), Dialect::V2, &Default::default()).unwrap()
    }

    #[test]
    fn arranged_expressions_keep_their_values() {
        let program = compiled(
            "o2S = top5(south,spades)>1 and spades(south)==6 and spades(north)>2\n\
             o2H = top5(south,hearts)>1 and hearts(south)==6 and hearts(north)>2\n\
             o3 = (top5(south,clubs)>1 and clubs(south)>6) or (hcp(south) > 4 and diamonds(south) > 6)\n\
             x = (o2S or o2H) and controls(north) > 8 or (o3 and hcp(north) + hcp(south) > 20 ? 1 : 0)\n\
             condition x or (hearts(west) < 3 and spades(west) > 4 and hcp(west) < 9) or not o3\n",
        );
        let condition = program.condition.unwrap();
        let mut builder = DagBuilder::new(&program);
        let root = builder.compile(condition).unwrap();
        // Operands are compiled left to right, so a chain whose operands are not in the order
        // of their nodes was rearranged.
        let rearranged = builder.nodes.iter().any(|node| match node {
            DagNode::All(parts) | DagNode::Any(parts) => parts.windows(2).any(|pair| pair[0] > pair[1]),
            _ => false,
        });
        assert!(rearranged, "something was rearranged");
        let mut dag = DealDag::new(builder, &[root]);
        let mut dealer = Dealer::new(&DealingSetup { seed: 11, ..Default::default() }).unwrap();
        for _ in 0..20_000 {
            let deal = dealer.deal().unwrap();
            dag.next_deal();
            let expected = reference_value(&program, condition, &deal, &mut dealer);
            assert_eq!(dag.value(0, &program, &deal), expected);
        }
    }

    #[test]
    fn rare_cheap_operands_come_first_and_one_hands_lengths_are_joined() {
        let program = compiled(
            "condition hcp(north) > 30 or (top5(south,spades) > 1 and hcp(south) > 3 and spades(south) == 6 \
             and hearts(south) < 4)\n",
        );
        // The top chain keeps its order (the staged condition adapts it); what it holds is
        // arranged.
        let mut builder = DagBuilder::new(&program);
        let (any, top) = builder.clauses(program.condition.unwrap()).unwrap();
        assert!(any, "an || chain");
        assert!(matches!(builder.nodes[top[0] as usize], DagNode::StatRange(..)), "{:?}", builder.nodes);
        let DagNode::All(parts) = &builder.nodes[top[1] as usize] else { panic!("an && chain") };
        // South's two length tests are one table by pattern, judged first: it fails most
        // often.
        assert_eq!(parts.len(), 3, "{parts:?}");
        assert!(matches!(builder.nodes[parts[0] as usize], DagNode::ShapeValue(Seat::South, _)), "{:?}", builder.nodes);
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
