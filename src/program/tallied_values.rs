//! The values the statistics actions (`average`, `frequency`, `bktfreq`) tally on a
//! produced deal, judged as one program over a [`DealDag`]: a sub-expression that several of
//! them read (a variable, an opening ladder) is computed once per deal, and each value is run
//! as flat steps rather than walked node by node. A value that is one statistic or a constant
//! is read in line.
//!
//! The condition has a DAG of its own ([`crate::program::deal_expr::StagedCondition`]): it is
//! judged on every generated deal, the actions' values only on the produced ones, so what the
//! two share is computed again at most once per produced deal.
//!
//! A value that is not a deal expression (it draws random numbers, solves double dummy, asks an
//! external program or may fail) has no root: the general evaluator computes it, as the peers
//! do, at each use.

use crate::cards::Deal;
use crate::program::compiled_program::Program;
use crate::program::dag::DealDag;
use crate::program::dag_builder::DagBuilder;
use crate::program::deal_expr::DealExpr;

/// The tallied values of a program's actions: those that are one statistic or a constant read
/// in line, the other deal expressions as roots of one [`DealDag`].
#[derive(Clone, Debug)]
pub struct TalliedValues {
    /// Per action: how its tallied value is computed.
    values: Vec<TalliedValue>,
    /// Whether some value is a root of `dag`.
    any_root: bool,
    dag: DealDag,
}

/// How one action's tallied value is computed.
#[derive(Clone, Debug)]
enum TalliedValue {
    /// A statistic or a constant, read in line (cheaper than a run of the DAG's steps).
    InLine(DealExpr),
    /// A root of the DAG.
    Root(usize),
    /// Not a deal expression (or not a statistics action): the general evaluator's.
    General,
}

impl TalliedValues {
    /// The tallied values of `program`'s actions.
    pub fn new(program: &Program) -> TalliedValues {
        let mut builder = DagBuilder::new(program);
        let mut roots = Vec::new();
        let values = program
            .actions
            .iter()
            .map(|action| match action.tallied_value().and_then(|value| builder.compile(value)) {
                Some(slot) => match DealExpr::value_of_node(&builder.nodes[slot as usize]) {
                    Some(expr) => TalliedValue::InLine(expr),
                    None => {
                        roots.push(slot);
                        TalliedValue::Root(roots.len() - 1)
                    }
                },
                None => TalliedValue::General,
            })
            .collect();
        TalliedValues { values, any_root: !roots.is_empty(), dag: DealDag::new(builder, &roots) }
    }

    /// Whether every action is a statistic whose value is a deal expression (and there is at
    /// least one action).
    pub fn all_actions_tallied(&self) -> bool {
        !self.values.is_empty() && self.values.iter().all(|value| !matches!(value, TalliedValue::General))
    }

    /// Starts on another deal: values computed so far belong to the last one.
    #[inline]
    pub fn next_deal(&mut self) {
        if self.any_root {
            self.dag.next_deal();
        }
    }

    /// Starts on `deal` and adds every action's value on it to the action's accumulator, one
    /// per action in `tallies` (those of the actions that are not tallied deal expressions are
    /// left alone).
    #[inline(always)]
    pub fn tally_each<T>(&mut self, program: &Program, deal: &Deal, tallies: &mut [T], add: impl Fn(&mut T, i32)) {
        self.next_deal();
        for (value, tally) in self.values.iter().zip(tallies) {
            match value {
                TalliedValue::InLine(expr) => add(tally, expr.value(program, deal)),
                TalliedValue::Root(root) => add(tally, self.dag.value(*root, program, deal)),
                TalliedValue::General => {}
            }
        }
    }

    /// The value action `action` tallies on `deal` (the deal of the last
    /// [`next_deal`](Self::next_deal)), when it is a deal expression.
    #[inline(always)]
    pub fn value(&mut self, action: usize, program: &Program, deal: &Deal) -> Option<i32> {
        match self.values.get(action)? {
            TalliedValue::InLine(expr) => Some(expr.value(program, deal)),
            TalliedValue::Root(root) => Some(self.dag.value(*root, program, deal)),
            TalliedValue::General => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dealing::{Dealer, DealingSetup};
    use crate::dialect::Dialect;
    use crate::program::eval::reference_value;

    fn program(script: &str) -> Program {
        Program::from_source(script.as_bytes(), Dialect::V2, &Default::default()).unwrap()
    }

    #[test]
    fn values_are_the_general_evaluators() {
        let program = program(
            "opening = hcp(north) > 11 ? (spades(north) > 4 ? 1 : (hearts(north) > 4 ? 2 : 3)) : 0\n\
             answer = opening == 1 && spades(south) > 2\n\
             action average opening, frequency(opening * 10 + answer, 0, 40), \
             bktfreq(hcp(north) + hcp(south), 0, 40, 5), printoneline, \
             average rnd(3)\n",
        );
        let mut values = TalliedValues::new(&program);
        assert!(!values.all_actions_tallied(), "printoneline and rnd() are not tallied deal expressions");
        let mut dealer = Dealer::new(&DealingSetup { seed: 5, ..Default::default() }).unwrap();
        for _ in 0..2_000 {
            let deal = dealer.deal().unwrap();
            values.next_deal();
            for (index, action) in program.actions.iter().enumerate() {
                let got = values.value(index, &program, &deal);
                match (index, action.tallied_value()) {
                    (3 | 4, _) => assert_eq!(got, None, "action {index}"),
                    (_, Some(value)) => {
                        assert_eq!(got, Some(reference_value(&program, value, &deal, &mut dealer)), "action {index}")
                    }
                    (_, None) => unreachable!(),
                }
            }
        }
    }

    #[test]
    fn statistics_only_programs_are_all_tallied() {
        assert!(TalliedValues::new(&program("action average hcp(north), frequency(spades(south), 0, 13)\n"))
            .all_actions_tallied());
        assert!(!TalliedValues::new(&program("action printall\n")).all_actions_tallied());
    }
}
