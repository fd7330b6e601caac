//! Deal expressions judged seat by seat: the staged condition, and the one-test clauses it
//! judges in line.
//!
//! The condition of most scripts reads nothing but the deal (hand statistics, shapes,
//! comparisons, `&&`/`||`, arithmetic). [`StagedCondition::new`] compiles it into a
//! [`DealDag`] (through the DAG builder) and splits its top-level chain into stages by the
//! hands each clause reads, so that the lazy dealer deals a hand only when a clause needs it.
//! The commonest clauses — one shape or one statistic against constants — are
//! [`DealExpr`]s judged in line; the others are roots of the DAG. The values are those of the
//! general evaluator ([`crate::program::eval`]), C semantics included.

use crate::cards::{Deal, Seat, SeatSet};
use crate::dealing::Dealer;
use crate::program::compiled_program::Program;
use crate::program::dag::DealDag;
use crate::program::dag_builder::DagBuilder;
use crate::program::dag_node::{DagNode, Slot, Stat};
use crate::program::nodes::{apply, NodeId};
use crate::program::shape::{all_patterns, ShapeSet};
use crate::script::ast::BinOp;

/// A one-test clause (or value) judged in line, without a call.
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
}

impl DealExpr {
    /// The in-line form of a merged node, when it is one test of a hand (`values`: also a
    /// constant or a bare statistic).
    fn of_node(node: &DagNode, values: bool) -> Option<DealExpr> {
        Some(match *node {
            DagNode::Const(n) if values => DealExpr::Const(n),
            DagNode::Stat(stat) if values => DealExpr::Stat(stat),
            DagNode::StatCompare(stat, op, k) => DealExpr::StatCompare(stat, op, k),
            DagNode::StatRange(stat, lo, hi) => DealExpr::StatRange(stat, lo, hi),
            DagNode::Shape(seat, set) => DealExpr::Shape(seat, set),
            _ => return None,
        })
    }

    /// The in-line form of a merged node that is one test of a hand.
    pub(crate) fn test_of_node(node: &DagNode) -> Option<DealExpr> {
        DealExpr::of_node(node, false)
    }

    /// The in-line form of a merged node that is a constant or a statistic.
    pub(crate) fn value_of_node(node: &DagNode) -> Option<DealExpr> {
        match node {
            DagNode::Const(_) | DagNode::Stat(_) => DealExpr::of_node(node, true),
            _ => None,
        }
    }

    /// Whether the expression is true (not 0) on `deal`.
    #[inline(always)]
    pub fn truth(&self, program: &Program, deal: &Deal) -> bool {
        match self {
            DealExpr::Shape(seat, set) => program.shapes[*set as usize].matches(deal.hand(*seat)),
            DealExpr::ShapeIn(seat, set) => set.matches(deal.hand(*seat)),
            DealExpr::StatRange(stat, lo, hi) => (*lo..=*hi).contains(&stat.value(program, deal)),
            DealExpr::StatCompare(stat, op, k) => apply(*op, stat.value(program, deal), *k) != 0,
            DealExpr::Const(n) => *n != 0,
            DealExpr::Stat(stat) => stat.value(program, deal) != 0,
        }
    }

    /// The expression's value on `deal` (hands the expression does not read may be partial).
    #[inline(always)]
    pub fn value(&self, program: &Program, deal: &Deal) -> i32 {
        match self {
            DealExpr::Const(n) => *n,
            DealExpr::Stat(stat) => stat.value(program, deal),
            _ => self.truth(program, deal) as i32,
        }
    }
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
    /// What judging it costs, roughly (the DAG builder's estimate, doubled, at least 1).
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

/// What dealing one more hand costs, in the units of the DAG builder's costs (about one
/// reading of a suit length each): a group of clauses that costs more is judged with the
/// next hand's.
const HAND_DEALING_COST: f64 = 24.0;

/// A clause of a stage while the condition is staged: a merged node, or a shape set joined
/// from several.
enum StagedClause {
    /// A merged node of the builder.
    Node(Slot),
    /// One hand's length tests joined into one look-up.
    Joined(Seat, Box<ShapeSet>),
}

impl StagedCondition {
    /// Stages the condition `condition` (a node of `program`) for a dealer that deals the
    /// seats lazily in `order` ([`Dealer::dealing_order`]); `None` when it is no deal
    /// expression (see `DagBuilder::compile`).
    pub fn new(program: &Program, condition: NodeId, order: [Seat; 4]) -> Option<StagedCondition> {
        let mut builder = DagBuilder::new(program);
        let (any, clauses) = builder.clauses(condition)?;
        // Group by the position of the last seat each clause reads in the dealing order.
        let mut groups: Vec<Vec<Slot>> = vec![Vec::new(); 5];
        for clause in clauses {
            let seats = builder.seats(clause);
            let rank = order.iter().rposition(|&seat| seats.contains(seat)).map_or(0, |k| k + 1);
            groups[rank].push(clause);
        }
        // A group that costs more to judge than dealing the next hand joins the next hand's
        // group (if it has one), where its clauses are judged in the best order among that
        // group's: North's long evaluation can wait until South's rare opening is found.
        // (Not over a hand no clause reads: dealing two hands more for it costs more than it
        // saves on the scripts measured.)
        for rank in 0..groups.len() - 1 {
            let cost: f64 = groups[rank].iter().map(|&clause| builder.costs[clause as usize]).sum();
            if !groups[rank + 1].is_empty() && cost > HAND_DEALING_COST {
                let moved = std::mem::take(&mut groups[rank]);
                groups[rank + 1].splice(0..0, moved);
            }
        }
        let mut stages: Vec<(SeatSet, bool, Vec<StagedClause>)> = Vec::new();
        let mut dealt = SeatSet::NONE;
        for (rank, mut group) in groups.into_iter().enumerate() {
            if rank > 0 {
                dealt = dealt.union(SeatSet::of(order[rank - 1]));
            }
            if group.is_empty() {
                continue;
            }
            // A lone chain of the other operator (an `||` among `&&` clauses, an `&&` among
            // alternatives) is a stage of the other kind.
            let stage_any = match group.as_slice() {
                [lone] => match &builder.nodes[*lone as usize] {
                    DagNode::Any(alternatives) if !any => Some((true, alternatives.clone())),
                    DagNode::All(clauses) if any => Some((false, clauses.clone())),
                    _ => None,
                },
                _ => None,
            }
            .map_or(any, |(stage_any, parts)| {
                group = parts;
                stage_any
            });
            stages.push((dealt, stage_any, join_shape_clauses(&mut builder, group, stage_any)));
        }
        // The clauses beyond one test of a hand, of every stage, make one program: what they
        // share is computed once per deal.
        let mut roots = Vec::new();
        let stages = stages
            .into_iter()
            .map(|(seats, any, group)| {
                let clauses = group
                    .into_iter()
                    .map(|clause| {
                        let (test, cost) = match clause {
                            StagedClause::Joined(seat, set) => (ClauseTest::InLine(DealExpr::ShapeIn(seat, set)), 3.0),
                            StagedClause::Node(slot) => {
                                let test = match DealExpr::test_of_node(&builder.nodes[slot as usize]) {
                                    Some(expr) => ClauseTest::InLine(expr),
                                    None => {
                                        roots.push(slot);
                                        ClauseTest::Root(roots.len() - 1)
                                    }
                                };
                                (test, builder.costs[slot as usize])
                            }
                        };
                        Clause { test, judged: 0, decided: 0, cost: (cost * 2.0).clamp(1.0, 1e6) as u64 }
                    })
                    .collect();
                Stage { seats, any, clauses, judged: 0 }
            })
            .collect();
        Some(StagedCondition { any, stages, dag: DealDag::new(builder, &roots) })
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

/// The clauses of a stage (alternatives when `any`) with those that read nothing but the suit
/// lengths of one hand joined into one shape look-up per hand, when that saves work (several
/// clauses, or one that is more than a single test). Such a clause is a function of the
/// hand's shape, so judging it on a hand of each shape gives the set.
fn join_shape_clauses(builder: &mut DagBuilder, clauses: Vec<Slot>, any: bool) -> Vec<StagedClause> {
    // The other clauses first, in their order, then each hand's.
    let mut hands = Vec::new();
    let mut rest = clauses;
    for seat in Seat::ALL {
        let (mine, others): (Vec<Slot>, Vec<Slot>) =
            rest.into_iter().partition(|&clause| builder.length_seat(clause) == Some(seat));
        rest = others;
        match mine.as_slice() {
            [] => {}
            [one] if DealExpr::test_of_node(&builder.nodes[*one as usize]).is_some() => {
                hands.push(StagedClause::Node(*one));
            }
            _ => {
                let joined = builder.intern(if any { DagNode::Any(mine) } else { DagNode::All(mine) });
                let mut set = ShapeSet::new();
                for (pattern, value) in all_patterns().into_iter().zip(builder.table_by_pattern(joined, seat)) {
                    set.set(pattern, value != 0);
                }
                hands.push(StagedClause::Joined(seat, Box::new(set)));
            }
        }
    }
    rest.into_iter().map(StagedClause::Node).chain(hands).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Suit;
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
        let mut builder = DagBuilder::new(&program);
        let root = builder.compile(condition).expect("a deal expression");
        let mut dag = DealDag::new(builder, &[root]);
        let mut dealer = Dealer::new(&DealingSetup { seed: 3, ..Default::default() }).unwrap();
        for _ in 0..3000 {
            let deal = dealer.deal().unwrap();
            let expected = reference_value(&program, condition, &deal, &mut dealer);
            dag.next_deal();
            assert_eq!(dag.value(0, &program, &deal), expected, "{expr}");
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
        let mut builder = DagBuilder::new(&program);
        let (any, clauses) = builder.clauses(program.condition.unwrap()).unwrap();
        assert!(!any, "an && chain");
        let hcp = Stat::Count(crate::program::hand_stats::HCP_TABLE as u8, Seat::North, None);
        assert_eq!(clauses.len(), 3);
        assert_eq!(builder.nodes[clauses[1] as usize], DagNode::StatRange(hcp, 15, 17));
        assert_eq!(
            builder.nodes[clauses[2] as usize],
            DagNode::StatRange(Stat::Length(Seat::South, Suit::Spades), 2, i32::MAX)
        );
    }

    /// Judges 100,000 deals (many reorderings) with the staged condition of `script` and checks
    /// every verdict against the evaluator and every completed deal against a whole deal;
    /// returns the stages' seats and the number of deals accepted.
    fn staged_agrees(script: &str) -> (Vec<SeatSet>, usize) {
        let parsed = crate::script::parse(script.as_bytes(), Dialect::V2, &Default::default()).unwrap();
        let program = Program::compile(&parsed, Dialect::V2).unwrap();
        let condition = program.condition.unwrap();
        let mut staged = StagedCondition::new(&program, condition, crate::dealing::LAZY_DEALING_ORDER).unwrap();
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
        let staged =
            StagedCondition::new(&program, program.condition.unwrap(), crate::dealing::LAZY_DEALING_ORDER).unwrap();
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
            let condition = program.condition.unwrap();
            assert_eq!(DagBuilder::new(&program).compile(condition), None, "{expr}");
            assert!(StagedCondition::new(&program, condition, crate::dealing::LAZY_DEALING_ORDER).is_none(), "{expr}");
        }
    }
}
