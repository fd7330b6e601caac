//! Two seats' hands read as one: the sub-expressions of a condition that depend on a pair of
//! hands only through the cards the pair holds together, rewritten to read those 26 cards as
//! the first seat's hand.
//!
//! A value that adds up card by card (a point count such as `hcp` or `ptN` of the hand or a
//! suit, `control`, a suit's length, `hascard`) is, on two hands that share no card, the sum
//! of its values on each. So `hcp(north) + hcp(south)` is `hcp` of the pair's 26 cards, and
//! so is `2 * (hcp(north) + control(north)) + 2 * (hcp(south) + control(south)) - 1` a value
//! of them: an expression is read as an integer combination of such values of the two seats
//! plus a constant (`+`, `-`, `*` by a constant), and it depends on the union alone when every
//! value has the same coefficient for both seats. The arithmetic is the evaluator's, modulo
//! 2^32, where the rewriting is exact: `c·v(first) + c·v(second) = c·v(first ∪ second)`.
//! Comparisons, `&&`, `||`, `!`, `?:` and division or remainder by a constant other than 0
//! and −1 of such expressions are rewritten operand by operand; anything else (`hcp(north)`
//! alone, a shape, `losers`, another seat, `rnd()`, double dummy) is not a value of the union.
//! Smart dealing counts the union like a hand of 26 cards (see
//! [`crate::dealing::SeatTable`]) and splits it between the two seats uniformly.

use std::collections::HashMap;

use crate::cards::Seat;
use crate::pos::Pos;
use crate::program::nodes::{Node, NodeId};
use crate::script::ast::BinOp;

/// An integer combination of values that add up card by card, of the two seats, plus a
/// constant, in the evaluator's wrapping arithmetic.
#[derive(Clone, Debug, Default)]
struct Combination {
    constant: i32,
    /// Each value (its leaf node read on the first seat) with its coefficient on each seat.
    terms: Vec<(Node, [i32; 2])>,
}

impl Combination {
    /// The sum of `self` and `k` times `other`.
    fn add_scaled(mut self, other: &Combination, k: i32) -> Combination {
        self.constant = self.constant.wrapping_add(other.constant.wrapping_mul(k));
        for (leaf, coefficients) in &other.terms {
            let scaled = coefficients.map(|c| c.wrapping_mul(k));
            match self.terms.iter_mut().find(|(known, _)| known == leaf) {
                Some((_, known)) => {
                    known[0] = known[0].wrapping_add(scaled[0]);
                    known[1] = known[1].wrapping_add(scaled[1]);
                }
                None => self.terms.push((leaf.clone(), scaled)),
            }
        }
        self
    }

    /// `k` times `self`.
    fn scaled(&self, k: i32) -> Combination {
        Combination::default().add_scaled(self, k)
    }

    /// The constant, when no value is read (every coefficient 0).
    fn as_constant(&self) -> Option<i32> {
        self.terms.iter().all(|(_, c)| *c == [0, 0]).then_some(self.constant)
    }

    /// Whether it depends on the two hands only through their union.
    fn reads_union(&self) -> bool {
        self.terms.iter().all(|(_, [a, b])| a == b)
    }
}

/// The rewriting of a condition's sub-expressions into expressions of a pair's union, read as
/// the first seat's hand. New nodes are appended to the node array given; each node is
/// rewritten once.
pub(crate) struct PairUnion {
    seats: [Seat; 2],
    combinations: HashMap<NodeId, Option<Combination>>,
    rewritten: HashMap<NodeId, Option<NodeId>>,
}

impl PairUnion {
    /// The rewriting for the pair `first`, `second` (two different seats).
    pub(crate) fn new(first: Seat, second: Seat) -> PairUnion {
        PairUnion { seats: [first, second], combinations: HashMap::new(), rewritten: HashMap::new() }
    }

    /// Which of the pair a seat is.
    fn member(&self, seat: Seat) -> Option<usize> {
        self.seats.iter().position(|&s| s == seat)
    }

    /// A leaf that adds up card by card, read on one of the pair: which one, and the same
    /// leaf read on the first seat.
    fn additive_leaf(&self, node: &Node) -> Option<(usize, Node)> {
        let first = self.seats[0];
        let (seat, on_first) = match *node {
            Node::Length(seat, suit) => (seat, Node::Length(first, suit)),
            Node::Count { table, seat, suit } => (seat, Node::Count { table, seat: first, suit }),
            Node::Controls(seat, suit) => (seat, Node::Controls(first, suit)),
            Node::HasCard(seat, card) => (seat, Node::HasCard(first, card)),
            _ => return None,
        };
        Some((self.member(seat)?, on_first))
    }

    /// Node `id` as a combination of the pair's additive values, when it is one; `None` also
    /// when it is too deep to look at.
    fn combination(&mut self, nodes: &[Node], id: NodeId) -> Option<Combination> {
        if let Some(known) = self.combinations.get(&id) {
            return known.clone();
        }
        if !crate::stack::enough() {
            return None;
        }
        let node = &nodes[id as usize];
        let combination = match *node {
            Node::Const(k) => Some(Combination { constant: k, terms: Vec::new() }),
            Node::Binary(op @ (BinOp::Add | BinOp::Sub), a, b, _) => {
                match (self.combination(nodes, a), self.combination(nodes, b)) {
                    (Some(a), Some(b)) => Some(a.add_scaled(&b, if op == BinOp::Add { 1 } else { -1 })),
                    _ => None,
                }
            }
            Node::Binary(BinOp::Mul, a, b, _) => match (self.combination(nodes, a), self.combination(nodes, b)) {
                (Some(a), Some(b)) => match (a.as_constant(), b.as_constant()) {
                    (Some(k), _) => Some(b.scaled(k)),
                    (_, Some(k)) => Some(a.scaled(k)),
                    _ => None,
                },
                _ => None,
            },
            _ => self.additive_leaf(node).map(|(member, leaf)| {
                let mut coefficients = [0; 2];
                coefficients[member] = 1;
                Combination { constant: 0, terms: vec![(leaf, coefficients)] }
            }),
        };
        self.combinations.insert(id, combination.clone());
        combination
    }

    /// Node `id` rewritten as an expression of the pair's union read as the first seat's
    /// hand, when it is one (`Some(None)` when it is not); `None` when too deep to look at.
    pub(crate) fn rewrite(&mut self, nodes: &mut Vec<Node>, id: NodeId) -> Option<Option<NodeId>> {
        if let Some(&known) = self.rewritten.get(&id) {
            return Some(known);
        }
        if !crate::stack::enough() {
            return None;
        }
        let rewritten = match self.combination(nodes, id) {
            Some(combination) if combination.reads_union() => Some(match combination.as_constant() {
                Some(_) if matches!(nodes[id as usize], Node::Const(_)) => id,
                _ => build(nodes, &combination),
            }),
            _ => self.rewrite_operands(nodes, id)?,
        };
        self.rewritten.insert(id, rewritten);
        Some(rewritten)
    }

    /// Node `id` (not a combination of the union's values) with its operands rewritten, when
    /// it is an operator the union's expressions may go through and they all are.
    fn rewrite_operands(&mut self, nodes: &mut Vec<Node>, id: NodeId) -> Option<Option<NodeId>> {
        let node = nodes[id as usize].clone();
        let rewritten = match node {
            Node::CompareConst(op, a, k) => self.rewrite(nodes, a)?.map(|a| Node::CompareConst(op, a, k)),
            Node::Not(a) => self.rewrite(nodes, a)?.map(Node::Not),
            Node::Binary(op @ (BinOp::Div | BinOp::Mod), a, b, pos) => match nodes[b as usize] {
                Node::Const(k) if k != 0 && k != -1 => self.rewrite(nodes, a)?.map(|a| Node::Binary(op, a, b, pos)),
                _ => None,
            },
            Node::Binary(op, a, b, pos) => match (self.rewrite(nodes, a)?, self.rewrite(nodes, b)?) {
                (Some(a), Some(b)) => Some(Node::Binary(op, a, b, pos)),
                _ => None,
            },
            Node::Conditional(c, a, b) => {
                match (self.rewrite(nodes, c)?, self.rewrite(nodes, a)?, self.rewrite(nodes, b)?) {
                    (Some(c), Some(a), Some(b)) => Some(Node::Conditional(c, a, b)),
                    _ => None,
                }
            }
            _ => None,
        };
        Some(rewritten.map(|node| push(nodes, node)))
    }
}

/// Appends `node`; its id.
fn push(nodes: &mut Vec<Node>, node: Node) -> NodeId {
    nodes.push(node);
    (nodes.len() - 1) as NodeId
}

/// The nodes of a combination that reads the union (coefficients alike), its values read on
/// the first seat: a single value as its leaf, so that comparisons read it through their cuts.
fn build(nodes: &mut Vec<Node>, combination: &Combination) -> NodeId {
    let mut sum: Option<NodeId> = None;
    for (leaf, [k, _]) in combination.terms.iter().filter(|(_, [k, _])| *k != 0) {
        let mut term = push(nodes, leaf.clone());
        if *k != 1 {
            let factor = push(nodes, Node::Const(*k));
            term = push(nodes, Node::Binary(BinOp::Mul, term, factor, Pos::default()));
        }
        sum = Some(match sum {
            None => term,
            Some(before) => push(nodes, Node::Binary(BinOp::Add, before, term, Pos::default())),
        });
    }
    match (sum, combination.constant) {
        (Some(sum), 0) => sum,
        (sum, constant) => {
            let constant = push(nodes, Node::Const(constant));
            match sum {
                Some(sum) => push(nodes, Node::Binary(BinOp::Add, sum, constant, Pos::default())),
                None => constant,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{Deal, Hand};
    use crate::dialect::Dialect;
    use crate::program::eval::reference_value;
    use crate::program::Program;

    /// The condition of `script` rewritten for North and South, or `None`.
    fn rewritten(script: &str) -> Option<(Program, NodeId)> {
        let mut program = Program::from_source(script.as_bytes(), Dialect::V2, &Default::default()).unwrap();
        let condition = program.condition.unwrap();
        let root = PairUnion::new(Seat::North, Seat::South).rewrite(&mut program.nodes, condition).unwrap()?;
        Some((program, root))
    }

    #[test]
    fn values_of_the_union_are_read_on_the_first_seat() {
        let mut dealer = crate::dealing::Dealer::new(&crate::dealing::DealingSetup::default()).unwrap();
        let mut spare = dealer.clone();
        for script in [
            "condition hcp(north) + hcp(south) >= 26\n",
            "condition spades(south) + spades(north) >= 8 and hcp(north) + hcp(south) < 20\n",
            "x = 2 * (hcp(north) + control(north)) + 2 * (hcp(south) + control(south)) - 1\ncondition x / 3 == 14 or x % 5 == 1\n",
            "condition hascard(north, AS) + hascard(south, AS) + hascard(north, KS) + hascard(south, KS) == 2 ? pt1(north) + pt1(south) > 3 : 1\n",
            "condition hcp(north, hearts) - 3 + hcp(south, hearts) > hearts(north) + hearts(south)\n",
        ] {
            let (program, root) = rewritten(script).unwrap_or_else(|| panic!("{script}"));
            for _ in 0..2000 {
                let deal: Deal = dealer.deal().unwrap();
                let whole = reference_value(&program, program.condition.unwrap(), &deal, &mut spare);
                let mut union = Deal([Hand::EMPTY; 4]);
                union.0[Seat::North.index()] = Hand(deal.hand(Seat::North).0 | deal.hand(Seat::South).0);
                let read = reference_value(&program, root, &union, &mut spare);
                assert_eq!(whole != 0, read != 0, "{script}: {}", deal.pbn());
            }
        }
    }

    #[test]
    fn pair_factors_are_judged_on_the_pair_cards_as_the_evaluator_reads_them() {
        // The factor judges read a pair's 26 cards as one hand: nothing may be looked up by a
        // 13-card hand's pattern (a fit test once was).
        let mut dealer = crate::dealing::Dealer::new(&crate::dealing::DealingSetup::default()).unwrap();
        let mut spare = dealer.clone();
        for script in [
            "sFit = spades(south) + spades(north) > 7\nhFit = hearts(south) + hearts(north) > 7\ncondition not (sFit or hFit) and shape(north, any 4333)\n",
            "condition (clubs(east) + clubs(west) == 6 or diamonds(west) + diamonds(east) < 5) and hcp(east) + hcp(west) > 15\n",
        ] {
            let program = Program::from_source(script.as_bytes(), Dialect::V2, &Default::default()).unwrap();
            let (program, factors) = program.seat_factors(program.condition.unwrap());
            let pairs: Vec<usize> = (0..factors.len()).filter(|&k| factors[k].partner.is_some()).collect();
            assert_eq!(pairs.len(), 1, "{script}");
            let mut judges = crate::program::seat_factors::FactorJudges::new(&program, &factors);
            let (mut kept, mut dropped) = (0, 0);
            for _ in 0..4000 {
                let deal: Deal = dealer.deal().unwrap();
                for &k in &pairs {
                    let union = factors[k].hand_in(&deal);
                    let mut alone = Deal([Hand::EMPTY; 4]);
                    alone.0[factors[k].seat.index()] = union;
                    let expected = reference_value(&program, factors[k].root, &alone, &mut spare) != 0;
                    assert_eq!(judges.judge(k, union), Some(expected), "{script}: {}", deal.pbn());
                    (kept, dropped) = if expected { (kept + 1, dropped) } else { (kept, dropped + 1) };
                }
            }
            assert!(kept > 100 && dropped > 100, "{script}: {kept} {dropped}");
        }
    }

    #[test]
    fn values_of_one_seat_or_other_seats_are_not_values_of_the_union() {
        for script in [
            "condition hcp(north) >= 10\n",
            "condition hcp(north) + hcp(south) >= 26 and hcp(south) >= 10\n",
            "condition hcp(north) + 2 * hcp(south) >= 26\n",
            "condition hcp(north) + hcp(east) >= 26\n",
            "condition loser(north) + loser(south) <= 14\n",
            "condition hcp(north) * hcp(south) > 100\n",
            "condition (hcp(north) + hcp(south)) / 0 > 1\n",
        ] {
            assert!(rewritten(script).is_none(), "{script}");
        }
    }
}
