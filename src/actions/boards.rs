//! Duplicate boards: the dealer and vulnerability of a board number (the standard 16-board
//! cycle), and the board a produced deal becomes under the session's numbering and rotation
//! options ([`BoardPlan`]): its number, its dealer and vulnerability, and its hands, turned so
//! that the script's constrained hand sits in the board's dealer seat when `rotate` is on.
//!
//! Used by the board-record writers (`printpbn`, `printlin`, `printjson`); knows nothing of
//! output formats.

use crate::cards::{Deal, Hand, Seat};
use crate::dd::DdTable;
use crate::records::BoardData;
use crate::script::ast::Vulnerability;

/// The standard 16-board vulnerability cycle, indexed by `(board − 1) mod 16`.
const VULNERABILITY_CYCLE: [Vulnerability; 16] = {
    use Vulnerability::*;
    [None, NS, EW, All, NS, EW, All, None, EW, All, None, NS, All, None, NS, EW]
};

/// The dealer of a board when no `dealer` statement is given: N, E, S, W by `(board − 1) mod 4`.
pub fn board_dealer(board: i64) -> Seat {
    Seat::from_index((board - 1).rem_euclid(4) as usize)
}

/// The vulnerability of a board when no `vulnerable` statement is given.
pub fn board_vulnerability(board: i64) -> Vulnerability {
    VULNERABILITY_CYCLE[(board - 1).rem_euclid(16) as usize]
}

/// The deal turned clockwise by `steps` seats: the hand of seat `s` goes to the seat `steps`
/// places to its left (N → E → S → W).
pub fn rotate_deal(deal: &Deal, steps: usize) -> Deal {
    let mut hands = [Hand::EMPTY; 4];
    for seat in Seat::ALL {
        hands[(seat.index() + steps) % 4] = deal.hand(seat);
    }
    Deal(hands)
}

/// A double-dummy table seen after the deal is turned by `steps` seats (as [`rotate_deal`]): the
/// results of seat `s` become those of the seat `steps` places to its left.
pub fn rotate_table(table: &DdTable, steps: usize) -> DdTable {
    let mut rotated = DdTable::default();
    for seat in 0..4 {
        rotated.0[(seat + steps) % 4] = table.0[seat];
    }
    rotated
}

/// A vulnerability seen after the deal is turned by `steps` seats: an odd turn swaps the sides.
pub fn rotate_vulnerability(v: Vulnerability, steps: usize) -> Vulnerability {
    match (v, steps % 2) {
        (Vulnerability::NS, 1) => Vulnerability::EW,
        (Vulnerability::EW, 1) => Vulnerability::NS,
        (v, _) => v,
    }
}

/// What a practice run says of a board (see [`crate::practice`]): the hand type it was dealt
/// as, and the scenario it comes from. Printed in the board records: PBN `[HandType]` and
/// `[Event]`, JSON Lines `"hand_type"` and `"scenario"`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BoardLabel {
    /// The hand type's label (`12_14`).
    pub hand_type: Option<std::sync::Arc<str>>,
    /// The scenario's name.
    pub scenario: Option<std::sync::Arc<str>>,
    /// The scenario's own board plan (its `dealer` and `vulnerable` statements), in a board
    /// set mixed from several scenarios.
    pub plan: Option<BoardPlan>,
    /// The board data of a record read from a file (`input`): its number, dealer,
    /// vulnerability and tags replace those the board plan computes.
    pub record: Option<std::sync::Arc<BoardData>>,
}

/// One produced deal as a board: its number, dealer, vulnerability and (possibly rotated) hands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    /// The board number.
    pub number: i64,
    /// The dealer.
    pub dealer: Seat,
    /// The vulnerability.
    pub vulnerability: Vulnerability,
    /// The hands as the board holds them.
    pub deal: Deal,
    /// Whether the hands were turned (then dealer and vulnerability are the board's own, not the
    /// script's statements).
    pub rotated: bool,
}

/// How produced deals become boards: what the script says (`dealer`, `vulnerable`) and what the
/// options ask (`rotate`). The board number itself is the caller's (produced count plus offset).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BoardPlan {
    /// The script's `dealer` statement: the seat of the constrained hand.
    pub script_dealer: Option<Seat>,
    /// The script's `vulnerable` statement.
    pub script_vulnerability: Option<Vulnerability>,
    /// The `rotate` option: turn each deal so that the script's dealer hand sits in the board's
    /// dealer seat (no effect without a `dealer` statement: nothing says which hand is
    /// constrained).
    pub rotate: bool,
}

impl BoardPlan {
    /// The board `number` made of `deal`.
    ///
    /// Without rotation the script's statements win (as the peers' `printpbn` does) and the board
    /// cycle fills in what they leave open. With rotation the dealer is the board's, the hands are
    /// turned by as many seats as the board's dealer lies left of the script's, and the
    /// vulnerability is the script's turned with the hands (the constrained hand keeps it), else
    /// the board's.
    pub fn board(&self, number: i64, deal: &Deal) -> Board {
        match (self.rotate, self.script_dealer) {
            (true, Some(_)) => {
                let dealer = board_dealer(number);
                let steps = self.turn(number);
                Board {
                    number,
                    dealer,
                    vulnerability: self
                        .script_vulnerability
                        .map(|v| rotate_vulnerability(v, steps))
                        .unwrap_or_else(|| board_vulnerability(number)),
                    deal: rotate_deal(deal, steps),
                    rotated: true,
                }
            }
            _ => Board {
                number,
                dealer: self.script_dealer.unwrap_or_else(|| board_dealer(number)),
                vulnerability: self.script_vulnerability.unwrap_or_else(|| board_vulnerability(number)),
                deal: *deal,
                rotated: false,
            },
        }
    }
}

impl BoardPlan {
    /// The board a produced deal becomes: [`board`](Self::board) numbered `number`, unless the
    /// deal was read from a record whose board data say otherwise (its number, dealer and
    /// vulnerability win; its hands are never turned).
    pub fn recorded_board(&self, number: i64, deal: &Deal, record: Option<&BoardData>) -> Board {
        let Some(record) = record else { return self.board(number, deal) };
        let number = record.number.unwrap_or(number);
        let planned = BoardPlan { rotate: false, ..*self }.board(number, deal);
        Board {
            dealer: record.dealer.unwrap_or(planned.dealer),
            vulnerability: record.vulnerability.unwrap_or(planned.vulnerability),
            ..planned
        }
    }

    /// How many seats clockwise board `number` turns its deal (0 without rotation).
    pub fn turn(&self, number: i64) -> usize {
        match (self.rotate, self.script_dealer) {
            (true, Some(constrained)) => (board_dealer(number).index() + 4 - constrained.index()) % 4,
            _ => 0,
        }
    }
}

/// The PBN tag text of a vulnerability (`None`, `NS`, `EW`, `All`).
pub fn vulnerability_name(v: Vulnerability) -> &'static str {
    match v {
        Vulnerability::None => "None",
        Vulnerability::NS => "NS",
        Vulnerability::EW => "EW",
        Vulnerability::All => "All",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Seat::*;
    use Vulnerability as V;

    /// Boards 1..32 against the duplicate table written out by hand (dealer N E S W repeating;
    /// vulnerability None NS EW All / NS EW All None / EW All None NS / All None NS EW).
    #[test]
    fn boards_1_to_32_follow_the_duplicate_table() {
        let table = [
            (N, V::None),
            (E, V::NS),
            (S, V::EW),
            (W, V::All),
            (N, V::NS),
            (E, V::EW),
            (S, V::All),
            (W, V::None),
            (N, V::EW),
            (E, V::All),
            (S, V::None),
            (W, V::NS),
            (N, V::All),
            (E, V::None),
            (S, V::NS),
            (W, V::EW),
        ];
        for board in 1..=32i64 {
            let (dealer, vul) = table[((board - 1) % 16) as usize];
            assert_eq!(board_dealer(board), dealer, "board {board}");
            assert_eq!(board_vulnerability(board), vul, "board {board}");
        }
        // Board 0 and negative numbers wrap like the cycle (board 0 is board 16).
        assert_eq!((board_dealer(0), board_vulnerability(0)), (W, V::EW));
    }

    const N: Seat = North;
    const E: Seat = East;
    const S: Seat = South;
    const W: Seat = West;

    fn sample() -> Deal {
        Deal::from_pbn("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432").unwrap()
    }

    #[test]
    fn rotation_puts_the_constrained_hand_in_the_dealer_seat() {
        let deal = sample();
        let plan = BoardPlan { script_dealer: Some(South), script_vulnerability: None, rotate: true };
        for number in 1..=32 {
            let board = plan.board(number, &deal);
            assert_eq!(board.dealer, board_dealer(number));
            assert_eq!(board.vulnerability, board_vulnerability(number));
            // South held the spades: now the board's dealer does, and the hands keep their order.
            assert_eq!(board.deal.hand(board.dealer), deal.hand(South));
            assert_eq!(board.deal.hand(board.dealer.left()), deal.hand(West));
            assert_eq!(board.deal.hand(board.dealer.partner()), deal.hand(North));
            assert!(board.rotated);
        }
        // Board 3 is dealt by South: nothing moves.
        assert_eq!(plan.board(3, &deal).deal, deal);
    }

    #[test]
    fn rotation_turns_the_scripts_vulnerability_with_the_hands() {
        let deal = sample();
        let plan = BoardPlan { script_dealer: Some(South), script_vulnerability: Some(V::NS), rotate: true };
        assert_eq!(plan.board(1, &deal).vulnerability, V::NS); // two seats: N/S stay N/S
        assert_eq!(plan.board(2, &deal).vulnerability, V::EW); // South's hand now East's
        assert_eq!(plan.board(3, &deal).vulnerability, V::NS);
        assert_eq!(plan.board(4, &deal).vulnerability, V::EW);
    }

    #[test]
    fn without_rotation_the_scripts_statements_win() {
        let deal = sample();
        let plan = BoardPlan { script_dealer: Some(East), script_vulnerability: None, rotate: false };
        let board = plan.board(5, &deal);
        assert_eq!((board.dealer, board.vulnerability, board.deal, board.rotated), (East, V::NS, deal, false));
        // `rotate` without a `dealer` statement turns nothing.
        let plan = BoardPlan { rotate: true, ..BoardPlan::default() };
        let board = plan.board(2, &deal);
        assert_eq!((board.dealer, board.deal, board.rotated), (East, deal, false));
    }

    #[test]
    fn every_turn_is_undone_by_the_opposite_turn() {
        let deal = sample();
        for steps in 0..4 {
            assert_eq!(rotate_deal(&rotate_deal(&deal, steps), 4 - steps), deal);
        }
        assert_eq!(rotate_deal(&deal, 1).hand(East), deal.hand(North));
    }

    #[test]
    fn tables_turn_with_the_hands() {
        let table = DdTable([[1; 5], [2; 5], [3; 5], [4; 5]]);
        assert_eq!(rotate_table(&table, 0), table);
        // One seat clockwise: North's results become East's.
        assert_eq!(rotate_table(&table, 1), DdTable([[4; 5], [1; 5], [2; 5], [3; 5]]));
        for steps in 0..4 {
            assert_eq!(rotate_table(&rotate_table(&table, steps), 4 - steps), table);
        }
        let plan = BoardPlan { script_dealer: Some(South), script_vulnerability: None, rotate: true };
        assert_eq!((plan.turn(1), plan.turn(2), plan.turn(3), plan.turn(4)), (2, 3, 0, 1));
        assert_eq!(BoardPlan { rotate: false, ..plan }.turn(2), 0);
    }
}
