//! `printlin` and `--format=lin`: one BBO LIN record per board, the form Bridge Base Online
//! imports into "Hands and Results" and its handviewer reads:
//!
//! ```text
//! qx|o1|md|3SAK2HQ3DKJ43CAT98,S…,S…,S…|rh||ah|Board 1|sv|o|pg||
//! ```
//!
//! `qx|oN|` names the board (open room, board N); `md|` holds the dealer digit (1 South, 2 West,
//! 3 North, 4 East) and the four hands in LIN's order South, West, North, East, each written
//! `S…H…D…C…` with the ranks highest first (a void is the suit letter alone); `rh||` resets the
//! header; `ah|Board N|` is the board title (left out when titles are off); `sv|` the
//! vulnerability (`o` none, `n` North–South, `e` East–West, `b` both); `pg||` ends the record.

use std::io::Write;

use crate::actions::boards::Board;
use crate::cards::{Hand, Seat, Suit};
use crate::records::BoardData;
use crate::script::ast::Vulnerability;

/// LIN's seat order in `md|`: South, West, North, East.
pub const LIN_SEAT_ORDER: [Seat; 4] = [Seat::South, Seat::West, Seat::North, Seat::East];

/// LIN's digit for a dealer: 1 South, 2 West, 3 North, 4 East.
pub fn lin_dealer_digit(seat: Seat) -> u8 {
    match seat {
        Seat::South => b'1',
        Seat::West => b'2',
        Seat::North => b'3',
        Seat::East => b'4',
    }
}

/// LIN's letter for a vulnerability: `o` none, `n` North–South, `e` East–West, `b` both.
pub fn lin_vulnerability(v: Vulnerability) -> u8 {
    match v {
        Vulnerability::None => b'o',
        Vulnerability::NS => b'n',
        Vulnerability::EW => b'e',
        Vulnerability::All => b'b',
    }
}

/// Appends one hand in LIN syntax: `S`, the spades, `H`, the hearts, `D`, `C` (ranks highest
/// first; a void is the suit letter alone).
pub fn write_lin_hand(out: &mut Vec<u8>, hand: Hand) {
    for suit in Suit::PRINT_ORDER {
        out.push(suit.letter() as u8);
        hand.write_suit(suit, out);
    }
}

/// `printlin`: one LIN record of `board` and a newline; `title` adds `ah|Board N|`, a scenario
/// (a board of a mixed set) `st|NAME|`, BBO's small heading (`|` in the name becomes `!`); a
/// record read from a file that names players gives `pn|South,West,North,East|`.
pub fn print_lin(out: &mut Vec<u8>, board: &Board, title: bool, scenario: Option<&str>, record: Option<&BoardData>) {
    let _ = write!(out, "qx|o{}|", board.number);
    // A player PBN calls `-` (none) or `?` (unknown) is no name.
    let players = LIN_SEAT_ORDER
        .map(|seat| record.and_then(|r| r.tag(seat.name())).filter(|name| !matches!(*name, "-" | "?")).unwrap_or(""));
    if players.iter().any(|p| !p.is_empty()) {
        // The players a record read from a file names (PBN `[South]`…, LIN `pn|`).
        out.extend_from_slice(b"pn|");
        for (i, name) in players.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            let name: String =
                name.chars().map(|c| if c.is_control() || c == '|' || c == ',' { ' ' } else { c }).collect();
            out.extend_from_slice(name.as_bytes());
        }
        out.push(b'|');
    }
    if let Some(name) = scenario {
        let _ = write!(out, "st|{}|", name.replace('|', "!"));
    }
    out.extend_from_slice(b"md|");
    out.push(lin_dealer_digit(board.dealer));
    for (i, seat) in LIN_SEAT_ORDER.into_iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        write_lin_hand(out, board.deal.hand(seat));
    }
    out.extend_from_slice(b"|rh||");
    if title {
        let _ = write!(out, "ah|Board {}|", board.number);
    }
    out.extend_from_slice(b"sv|");
    out.push(lin_vulnerability(board.vulnerability));
    out.extend_from_slice(b"|pg||\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::actions::boards::BoardPlan;
    use crate::cards::Deal;

    fn deal() -> Deal {
        Deal::from_pbn("N:AK2.Q3.KJ43.AT98 QJT9.AKJ2.A5.732 876.T98.QT987.K5 543.7654.62.QJ64").unwrap()
    }

    #[test]
    fn a_record_as_bbo_writes_it() {
        let mut out = Vec::new();
        print_lin(&mut out, &BoardPlan::default().board(1, &deal()), true, None, None);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "qx|o1|md|3S876HT98DQT987CK5,S543H7654D62CQJ64,SAK2HQ3DKJ43CAT98,SQJT9HAKJ2DA5C732|rh||ah|Board 1|sv|o|pg||\n"
        );
    }

    #[test]
    fn dealer_digits_vulnerability_letters_voids_and_no_title() {
        let deal = Deal::from_pbn("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432").unwrap();
        let expected = [(1, b'3', b'o'), (2, b'4', b'n'), (3, b'1', b'e'), (4, b'2', b'b'), (5, b'3', b'n')];
        for (number, digit, vul) in expected {
            let mut out = Vec::new();
            print_lin(&mut out, &BoardPlan::default().board(number, &deal), false, None, None);
            let text = String::from_utf8(out).unwrap();
            assert_eq!(
                text,
                format!(
                    "qx|o{number}|md|{}SHDAKQJT98765432C,SHDCAKQJT98765432,SAKQJT98765432HDC,SHAKQJT98765432DC|rh||sv|{}|pg||\n",
                    digit as char, vul as char
                )
            );
        }
    }
}
