//! Evaluating compiled expressions on one deal: C `int` semantics (wrapping arithmetic, truncating
//! division), short-circuit `&&`, `||` and `?:`, left operand first, and `rnd()` drawing from the
//! dealing stream so that runs match the peers draw for draw. Double-dummy results come from the
//! job's [`DdCache`], which solves on demand and keeps the results of the deal being judged; a
//! result compared with a number is asked as the cheaper threshold question.

use crate::cards::Deal;
use crate::dd::DdCache;
use crate::dealing::Dealer;
use crate::dialect::Dialect;
use crate::error::{Error, ErrorKind, Result};
use crate::external::usereval::{ExternalMetrics, HandStats, QueryContext};
use crate::program::compiled_program::Program;
use crate::program::hand_stats;
use crate::program::nodes::{apply, Node, NodeId, TOO_DEEP};
use crate::program::scoring;
use crate::script::ast::BinOp;

/// Everything an evaluation reads or advances besides the program itself.
pub struct Evaluation<'a> {
    /// The compiled program.
    pub program: &'a Program,
    /// The deal being judged.
    pub deal: &'a Deal,
    /// The dealer, whose stream `rnd()` draws from.
    pub dealer: &'a mut Dealer,
    /// Number of deals produced so far (DealerV2's `rnd(0)` returns it).
    pub produced: i64,
    /// Double-dummy results of this deal, solved on demand.
    pub dd: &'a mut DdCache,
    /// The deal's number among the deals generated (keys the caches of external metrics).
    pub generated: i64,
    /// `usereval` and `opc`.
    pub external: &'a mut ExternalMetrics,
}

impl Evaluation<'_> {
    /// Evaluates node `id`. Only the nodes with operands are evaluated here; the others are
    /// leaves (`leaf`), kept out of line so that each level of recursion takes little
    /// stack (deep expressions then fit the stack watch of [`crate::stack`]).
    pub fn value(&mut self, id: NodeId) -> Result<i32> {
        if !crate::stack::enough() {
            return Err(Error::new(ErrorKind::Run, TOO_DEEP));
        }
        let program = self.program;
        let node = &program.nodes[id as usize];
        Ok(match node {
            Node::Not(a) => (self.value(*a)? == 0) as i32,
            Node::CompareConst(op, a, k) => match program.nodes[*a as usize] {
                // A double-dummy result compared with a number: asked as threshold questions.
                Node::Dds(seat, strain, pos) => {
                    self.dd
                        .compare(self.deal, seat, strain, *op, *k)
                        .map_err(|e| Error::from(e).at(pos.line, pos.col))? as i32
                }
                _ => apply(*op, self.value(*a)?, *k),
            },
            Node::Binary(BinOp::Or, a, b, _) => (self.value(*a)? != 0 || self.value(*b)? != 0) as i32,
            Node::Binary(BinOp::And, a, b, _) => (self.value(*a)? != 0 && self.value(*b)? != 0) as i32,
            Node::Binary(op, a, b, pos) => {
                let x = self.value(*a)?;
                let y = self.value(*b)?;
                arithmetic(*op, x, y, *pos)?
            }
            Node::Conditional(c, a, b) => {
                if self.value(*c)? != 0 {
                    self.value(*a)?
                } else {
                    self.value(*b)?
                }
            }
            Node::Score { vulnerable, contract, tricks } => {
                let t = self.value(*tricks)?;
                scoring::score(program.dialect, *vulnerable, contract, t)
            }
            Node::Imps(a) => scoring::imps(program.dialect, self.value(*a)?),
            Node::Rnd(a) => {
                let n = self.value(*a)?;
                if n == 0 && program.dialect == Dialect::V2 {
                    self.produced as i32
                } else {
                    self.dealer.rnd(n)
                }
            }
            Node::UserEval { tag, index, .. } => {
                let tag = self.value(*tag)?;
                let index = self.value(*index)?;
                self.user_eval(node, tag, index)?
            }
            _ => self.leaf(node)?,
        })
    }

    /// The value of a node without operands: a hand statistic, a shape, a card, or a result of
    /// double dummy or of DealerV2's `opc` program.
    #[inline(never)]
    fn leaf(&mut self, node: &Node) -> Result<i32> {
        let program = self.program;
        let deal = self.deal;
        Ok(match node {
            Node::Const(n) => *n,
            Node::Length(seat, suit) => deal.hand(*seat).len(*suit) as i32,
            Node::Count { table, seat, suit } => program.counts.count(*table as usize, deal.hand(*seat), *suit),
            Node::Controls(seat, suit) => hand_stats::controls(deal.hand(*seat), *suit),
            Node::Losers(seat, suit) => hand_stats::losers(deal.hand(*seat), *suit),
            Node::Ltc(seat, suit) => hand_stats::ltc(deal.hand(*seat), *suit),
            Node::Cccc(seat) => hand_stats::cccc(deal.hand(*seat), program.dialect),
            Node::Quality(seat, suit) => hand_stats::quality(deal.hand(*seat), *suit, program.dialect),
            Node::Shape(seat, set) => program.shapes[*set as usize].matches(deal.hand(*seat)) as i32,
            Node::HasCard(seat, card) => deal.hand(*seat).contains(*card) as i32,
            Node::Dds(seat, strain, pos) => {
                self.dd.tricks(deal, *seat, *strain).map_err(|e| Error::from(e).at(pos.line, pos.col))? as i32
            }
            Node::Par(side, vulnerability, pos) => {
                let par = self.dd.par(deal, *vulnerability).map_err(|e| Error::from(e).at(pos.line, pos.col))?;
                crate::dd::par_for_side(par, *side)
            }
            Node::Opc(side, strain, pos) => {
                let Some(opc) = self.external.opc.as_mut() else {
                    return Err(Error::new(ErrorKind::Usage, "opc(): no DOP program is set up for this job")
                        .at(pos.line, pos.col));
                };
                // DealerV2 sorts the side's hands in its deck when it runs the program, which moves
                // later drand48 deals.
                if !opc.is_cached(*side, self.generated) {
                    self.dealer.sort_seats(&side.seats());
                }
                // An interruption while the program runs is not an error of this call.
                opc.value(*side, *strain, deal, self.generated).map_err(|e| match e.kind {
                    ErrorKind::Interrupted => e,
                    _ => e.at(pos.line, pos.col),
                })?
            }
            _ => unreachable!("nodes with operands are evaluated by `value`"),
        })
    }

    /// `usereval(tag, …, index)` (node `node`) with its tag and index evaluated.
    #[inline(never)]
    fn user_eval(&mut self, node: &Node, tag: i32, index: i32) -> Result<i32> {
        let Node::UserEval { form, pos, .. } = node else { unreachable!("called for usereval nodes") };
        let (program, deal) = (self.program, self.deal);
        // An interruption while the metric works is not an error of this call.
        let located = |e: Error| if e.kind == ErrorKind::Interrupted { e } else { e.at(pos.line, pos.col) };
        let external = &mut *self.external;
        let Some(user) = external.usereval.as_mut() else {
            return Err(located(Error::new(
                ErrorKind::Usage,
                "usereval(): no metric runs for this job (the DealerServer starts when the script mentions usereval)",
            )));
        };
        Ok(match user.cached(*form, tag, index, self.generated).map_err(located)? {
            Some(v) => v,
            None => {
                let stats = HandStats::of_deal(deal, &program.counts);
                let context = QueryContext {
                    deal,
                    stats: &stats,
                    generated: self.generated,
                    produced: self.produced,
                    tricks: self.dd.known_table(deal).map(|t| t.0),
                };
                user.ask(*form, tag, index, &context).map_err(located)?
            }
        })
    }

    /// Evaluates node `id` as a condition.
    pub fn truth(&mut self, id: NodeId) -> Result<bool> {
        Ok(self.value(id)? != 0)
    }
}

/// `x op y` for the arithmetic and comparison operators, with C's rules; division and remainder
/// by zero and `INT_MIN / -1` are errors located at `pos`.
fn arithmetic(op: BinOp, x: i32, y: i32, pos: crate::script::ast::Pos) -> Result<i32> {
    match op {
        BinOp::Div | BinOp::Mod => {
            if y == 0 {
                return Err(Error::new(ErrorKind::Run, "division by zero").at(pos.line, pos.col));
            }
            if x == i32::MIN && y == -1 {
                return Err(Error::new(ErrorKind::Run, "integer overflow in division").at(pos.line, pos.col));
            }
            Ok(if op == BinOp::Div { x / y } else { x % y })
        }
        _ => Ok(apply(op, x, y)),
    }
}

/// The general evaluator's value of `node` on `deal` (no double dummy or external metric
/// asked), for the tests that compare a faster path with it.
#[cfg(test)]
pub(crate) fn reference_value(program: &Program, node: NodeId, deal: &Deal, dealer: &mut Dealer) -> i32 {
    let mut dd = DdCache::default();
    let mut external = ExternalMetrics::default();
    Evaluation { program, deal, dealer, produced: 0, dd: &mut dd, generated: 1, external: &mut external }
        .value(node)
        .unwrap()
}

#[cfg(test)]
mod tests {
    use crate::dealing::{Dealer, DealingSetup, GeneratorKind};
    use crate::dialect::Dialect;
    use crate::external::usereval::ExternalMetrics;
    use crate::program::compiled_program::Program;
    use crate::script;

    /// Compiles `condition EXPR` and evaluates it on the first ChaCha deal of seed 1.
    fn value(expr: &str, dialect: Dialect) -> crate::error::Result<i32> {
        let parsed = script::parse(format!("condition {expr}\n").as_bytes(), dialect, &Default::default())
            .expect("test expressions parse");
        let program = Program::compile(&parsed, dialect)?;
        let mut dealer =
            Dealer::new(&DealingSetup { generator: GeneratorKind::ChaCha, seed: 1, ..Default::default() }).unwrap();
        let deal = dealer.deal().unwrap();
        let mut dd = crate::dd::DdCache::default();
        let mut external = ExternalMetrics::default();
        let mut ev = super::Evaluation {
            program: &program,
            deal: &deal,
            dealer: &mut dealer,
            produced: 7,
            dd: &mut dd,
            generated: 9,
            external: &mut external,
        };
        ev.value(program.condition.unwrap())
    }

    #[test]
    fn c_integer_semantics() {
        assert_eq!(value("7 / 2", Dialect::V2).unwrap(), 3);
        assert_eq!(value("0 - 7 / 2", Dialect::V2).unwrap(), -3);
        assert_eq!(value("(0-7) % 3", Dialect::V2).unwrap(), -1);
        assert_eq!(value("2147483647 + 1", Dialect::V2).unwrap(), i32::MIN);
        assert_eq!(value("3 * 4 / 5", Dialect::V2).unwrap(), 0, "DealerV2: a*(b/c)");
        assert_eq!(value("3 * 4 / 5", Dialect::Classic).unwrap(), 2, "classic: (a*b)/c");
        assert_eq!(value("!0 * 2", Dialect::Classic).unwrap(), 2);
        assert_eq!(value("1 ? 0 : 1 || 1", Dialect::Classic).unwrap(), 0);
        assert_eq!(value("6.5 + .25", Dialect::V2).unwrap(), 675);
    }

    #[test]
    fn short_circuits_skip_errors_and_division_by_zero_is_reported() {
        assert_eq!(value("0 && 1 / 0", Dialect::V2).unwrap(), 0);
        assert_eq!(value("1 || 1 % 0", Dialect::V2).unwrap(), 1);
        assert_eq!(value("1 ? 5 : 1 / 0", Dialect::V2).unwrap(), 5);
        let e = value("hcp(north) / 0", Dialect::V2).unwrap_err();
        assert_eq!(e.to_string(), "line 1: division by zero");
        assert_eq!(e.kind, crate::error::ErrorKind::Run);
        let e = value("(0 - 2147483647 - 1) / (0 - 1)", Dialect::V2).unwrap_err();
        assert_eq!(e.message, "integer overflow in division");
    }

    #[test]
    fn rnd_zero_is_the_deal_number_in_dealerv2_only() {
        assert_eq!(value("rnd(0)", Dialect::V2).unwrap(), 7);
        assert_eq!(value("rnd(0)", Dialect::Classic).unwrap(), 0);
        let r = value("rnd(10)", Dialect::V2).unwrap();
        assert!((0..10).contains(&r));
    }

    #[test]
    fn hand_functions_agree_with_the_deal() {
        let total = value("hcp(north) + hcp(east) + hcp(south) + hcp(west)", Dialect::V2).unwrap();
        assert_eq!(total, 40);
        let cards = value("spades(north) + hearts(north) + diamonds(north) + clubs(north)", Dialect::V2).unwrap();
        assert_eq!(cards, 13);
        assert_eq!(value("controls(north)+controls(east)+controls(south)+controls(west)", Dialect::V2).unwrap(), 12);
        assert_eq!(value("shape(north, xxxx)", Dialect::V2).unwrap(), 1);
        let aces =
            value("hascard(north, AS) + hascard(east, AS) + hascard(south, AS) + hascard(west, AS)", Dialect::V2);
        assert_eq!(aces.unwrap(), 1);
    }

    #[test]
    fn double_dummy_results_come_from_the_solver() {
        let tricks = value("dds(north, spades)", Dialect::V2).unwrap();
        assert!((0..=13).contains(&tricks));
        assert_eq!(value("tricks(south, notrump) == dds(south, notrump)", Dialect::V2).unwrap(), 1);
        assert_eq!(value("tricks(south, notrump) + 0", Dialect::Classic), value("dds(south, notrump)", Dialect::V2));
        assert_eq!(value("par(NS, none) + par(EW, none)", Dialect::V2).unwrap(), 0);
    }

    #[test]
    fn external_metrics_without_a_source_stop_with_a_clear_error() {
        let e = value("opc(NS)", Dialect::V2).unwrap_err();
        assert_eq!((e.kind, e.line, e.col), (crate::error::ErrorKind::Usage, Some(1), Some(11)));
        assert!(e.message.contains("no DOP program"), "{}", e.message);
        let e = value("usereval(1, NS, 2) > 0", Dialect::V2).unwrap_err();
        assert!(e.message.contains("no metric runs for this job"), "{}", e.message);
    }
}
