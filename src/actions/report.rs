//! DealerV2's record-style outputs: one `printrpt`/`csvrpt` line per deal, and `export`'s
//! predeal-compatible hand text. The caller chooses the stream (stdout, or the `-C`/`-X` file).

use std::io::Write;

use crate::cards::{Deal, Hand, Seat, Suit, RANK_LETTERS};
use crate::script::ast::ExportTarget;

/// One evaluated term of a `printrpt`/`csvrpt` list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReportCell<'a> {
    /// An expression's value, printed with `%d`.
    Number(i32),
    /// A string, printed in single quotes with no escaping.
    Text(&'a str),
    /// Hands of these seats (a compass, a side or `deal`), printed in N, E, S, W order, each as
    /// `x <hand> `.
    Hands(&'a [Seat]),
    /// `trix(…)`: double-dummy trick counts (5 per hand: C, D, H, S, NT), comma separated.
    Tricks(&'a [i32]),
    /// `parcontract[(vul)]`: the par contract text, printed in single quotes.
    ParContract(&'a str),
}

/// Appends one `printrpt`/`csvrpt` record: a space before the first term, `,` before the others,
/// and `\n` at the end.
pub fn report_line(out: &mut Vec<u8>, deal: &Deal, cells: &[ReportCell]) {
    for (i, cell) in cells.iter().enumerate() {
        report_cell(out, deal, i == 0, cell);
    }
    out.push(b'\n');
}

/// Appends one term of a `printrpt`/`csvrpt` record with the separator before it (a space for
/// the first term, `,` otherwise); the caller ends the record with `\n`.
pub fn report_cell(out: &mut Vec<u8>, deal: &Deal, first: bool, cell: &ReportCell) {
    out.push(if first { b' ' } else { b',' });
    match cell {
        ReportCell::Number(n) => {
            let _ = write!(out, "{}", n);
        }
        ReportCell::Text(t) | ReportCell::ParContract(t) => {
            out.push(b'\'');
            out.extend_from_slice(t.as_bytes());
            out.push(b'\'');
        }
        ReportCell::Hands(seats) => {
            for seat in Seat::ALL.into_iter().filter(|s| seats.contains(s)) {
                out.push(seat.lower_letter() as u8);
                out.push(b' ');
                deal.hand(seat).write_pbn(out);
                out.push(b' ');
            }
        }
        ReportCell::Tricks(tricks) => {
            for (j, t) in tricks.iter().enumerate() {
                if j > 0 {
                    out.push(b',');
                }
                let _ = write!(out, "{}", t);
            }
        }
    }
}

/// Appends one hand as predeal text: `-E SQT,HK765,DAQT74,C97 ` (voids omitted, the final comma
/// turned into a space).
fn write_export_hand(out: &mut Vec<u8>, seat: Seat, hand: Hand) {
    out.push(b'-');
    out.push(seat.upper_letter() as u8);
    out.push(b' ');
    for suit in Suit::PRINT_ORDER {
        let bits = hand.suit_bits(suit);
        if bits == 0 {
            continue;
        }
        out.push(suit.letter() as u8);
        for rank in (0..13).rev() {
            if bits & (1 << rank) != 0 {
                out.push(RANK_LETTERS[rank]);
            }
        }
        out.push(b',');
    }
    match out.last_mut() {
        Some(last) if *last == b',' => *last = b' ',
        _ => out.push(b' '),
    }
}

/// `export(compass)` / `export(side)`: the hand(s) as predeal text on one line. A side's two
/// hands (N then S, or E then W) are separated by one extra space.
pub fn export(out: &mut Vec<u8>, deal: &Deal, target: ExportTarget) {
    match target {
        ExportTarget::Seat(seat) => write_export_hand(out, seat, deal.hand(seat)),
        ExportTarget::Side(side) => {
            let [a, b] = side.seats();
            write_export_hand(out, a, deal.hand(a));
            out.push(b' ');
            write_export_hand(out, b, deal.hand(b));
        }
    }
    out.push(b'\n');
}
