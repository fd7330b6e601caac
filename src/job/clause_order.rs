//! The order in which the top-level clauses of a double-dummy condition are judged: the
//! clauses that ask no solver first, then those that do, each group in the written order.
//!
//! A condition `a && b && c` is true exactly when each clause is, whichever is judged first, as
//! long as no clause can fail or draw: so the clauses are rearranged only when every one is
//! pure (no `rnd()`, which draws from the dealing stream; no `opc()` or `usereval()`, which run
//! programs; no division or remainder by anything but a constant other than 0 and -1, which
//! may fail). Then `dds(south, notrump) >= 9 && hcp(north) + hcp(south) >= 24` solves only the
//! deals whose points qualify, as if it were written the other way round. The arrangement
//! changes what a judgement costs, never its verdict: the deals and the output are the same,
//! and it depends on the script alone, so the solves a job reports do not change with the
//! number of threads.
//!
//! Among several clauses that ask the solver the written order stays: ordering them by
//! rejections per second of solving was measured and did not pay (see the book's double-dummy
//! chapter).

use crate::error::Result;
use crate::program::eval::Evaluation;
use crate::program::nodes::{children, divides_safely, Node};
use crate::program::{NodeId, Program};
use crate::script::ast::BinOp;

/// The top-level clauses of a condition, in the order to judge them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ClauseOrder {
    clauses: Vec<NodeId>,
}

impl ClauseOrder {
    /// The order of `condition`'s clauses: those that ask no solver (`dds()`, `tricks()`,
    /// `par()`) first; `None` when the written order stands (a clause that may fail or draw,
    /// or no clause that asks no solver written after one that does).
    pub(crate) fn arrange(program: &Program, condition: NodeId) -> Option<ClauseOrder> {
        let traits = node_traits(program)?;
        let clauses = and_clauses(program, condition);
        if clauses.iter().any(|&c| traits[c as usize].may_fail_or_draw) {
            return None;
        }
        let (solver, cheap): (Vec<NodeId>, Vec<NodeId>) =
            clauses.iter().partition(|&&c| traits[c as usize].asks_the_solver);
        let ordered: Vec<NodeId> = cheap.into_iter().chain(solver).collect();
        (ordered != clauses).then_some(ClauseOrder { clauses: ordered })
    }

    /// The clauses, in the order they are judged.
    #[cfg(test)]
    pub(crate) fn clauses(&self) -> &[NodeId] {
        &self.clauses
    }

    /// Whether every clause holds for the deal `ev` judges, judged in this order, stopping at
    /// the first that does not.
    pub(crate) fn truth(&self, ev: &mut Evaluation) -> Result<bool> {
        for &clause in &self.clauses {
            if !ev.truth(clause)? {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

/// What judging a node may do, from what it reads.
#[derive(Clone, Copy, Default)]
struct NodeTraits {
    /// It reads a double-dummy result or a par score (directly or through an operand).
    asks_the_solver: bool,
    /// It may fail (division or remainder by anything but a constant other than 0 and -1) or
    /// draw from the dealing stream or run a program (`rnd()`, `opc()`, `usereval()`).
    may_fail_or_draw: bool,
}

/// Each node's traits, in one pass over the nodes (an operand comes before the nodes that use
/// it); `None` if one does not.
fn node_traits(program: &Program) -> Option<Vec<NodeTraits>> {
    let mut traits: Vec<NodeTraits> = Vec::with_capacity(program.nodes.len());
    for (id, node) in program.nodes.iter().enumerate() {
        let mut own = NodeTraits {
            asks_the_solver: matches!(node, Node::Dds(..) | Node::Par(..)),
            may_fail_or_draw: match node {
                Node::Rnd(_) | Node::Opc(..) | Node::UserEval { .. } => true,
                Node::Binary(BinOp::Div | BinOp::Mod, _, divisor, _) => {
                    !program.nodes.get(*divisor as usize).is_some_and(divides_safely)
                }
                _ => false,
            },
        };
        for child in children(node) {
            let operand = traits.get(child as usize).filter(|_| (child as usize) < id)?;
            own.asks_the_solver |= operand.asks_the_solver;
            own.may_fail_or_draw |= operand.may_fail_or_draw;
        }
        traits.push(own);
    }
    Some(traits)
}

/// The operands of the `&&` chain at `id`, left to right (`id` itself when it is no `&&`).
fn and_clauses(program: &Program, id: NodeId) -> Vec<NodeId> {
    let mut clauses = Vec::new();
    let mut pending = vec![id];
    while let Some(id) = pending.pop() {
        match program.nodes[id as usize] {
            Node::Binary(BinOp::And, a, b, _) => {
                pending.push(b);
                pending.push(a);
            }
            _ => clauses.push(id),
        }
    }
    clauses
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dialect::Dialect;

    /// The condition of `condition EXPR` compiled, and the arrangement of its clauses.
    fn arranged(expr: &str) -> (Program, Option<ClauseOrder>) {
        let parsed =
            crate::script::parse(format!("condition {expr}\n").as_bytes(), Dialect::V2, &Default::default()).unwrap();
        let program = Program::compile(&parsed, Dialect::V2).unwrap();
        let order = ClauseOrder::arrange(&program, program.condition.unwrap());
        (program, order)
    }

    /// Whether each clause in order reads the solver.
    fn solver_pattern(program: &Program, order: &ClauseOrder) -> Vec<bool> {
        let traits = node_traits(program).unwrap();
        order.clauses().iter().map(|&c| traits[c as usize].asks_the_solver).collect()
    }

    #[test]
    fn clauses_that_ask_no_solver_go_first() {
        let (program, order) =
            arranged("dds(south, notrump) >= 9 && hcp(north) >= 12 && par(NS) > 0 && shape(south, any 4333)");
        let order = order.expect("rearranged");
        assert_eq!(solver_pattern(&program, &order), [false, false, true, true]);
        // Each group keeps its written order: dds before par.
        let solver: Vec<bool> = order.clauses()[2..]
            .iter()
            .map(|&c| matches!(program.nodes[c as usize], Node::CompareConst(_, _, 9)))
            .collect();
        assert_eq!(solver, [true, false]);
    }

    #[test]
    fn the_written_order_stays_when_it_is_already_cheap_first_or_a_clause_may_fail_or_draw() {
        for expr in [
            "hcp(north) >= 12 && dds(south, notrump) >= 9",
            "dds(south, notrump) >= 9",
            "dds(south, notrump) >= 9 && rnd(4) == 1",
            "dds(south, notrump) >= 9 && hcp(north) / hcp(south) > 1",
            "dds(south, notrump) >= 9 && hcp(north) % (hcp(south) - 10) > 1",
            "dds(south, notrump) >= 9 && hcp(north) / (0 - 1) > 1",
            // An `||` is one clause.
            "dds(south, notrump) >= 9 || hcp(north) > 12",
        ] {
            assert_eq!(arranged(expr).1, None, "{expr}");
        }
        // A constant divisor other than 0 and -1 cannot fail.
        assert!(arranged("dds(south, notrump) >= 9 && hcp(north) / 2 > 5").1.is_some());
    }

    #[test]
    fn a_long_chain_is_arranged_in_linear_time_without_deep_recursion() {
        // As long a chain as the parser takes (compiled on a thread with a session's stack).
        let clauses: Vec<String> = (0..4_000).map(|i| format!("hcp(north) != {}", 40 + i)).collect();
        let expr = format!("dds(south, notrump) >= 9 && {}", clauses.join(" && "));
        let (program, _) =
            std::thread::Builder::new().stack_size(256 << 20).spawn(move || arranged(&expr)).unwrap().join().unwrap();
        let started = std::time::Instant::now();
        let order = ClauseOrder::arrange(&program, program.condition.unwrap()).expect("rearranged");
        assert_eq!(order.clauses().len(), 4_001);
        assert_eq!(solver_pattern(&program, &order).last(), Some(&true));
        assert!(started.elapsed().as_secs_f64() < 1.0, "{:?}", started.elapsed());
    }
}
