//! One deal per line: libdealer's and the peers' `printoneline` text (`n <hand> e <hand>
//! s <hand> w <hand>`, seats in any order, numbers after the hands allowed — the values
//! `printoneline(v)` adds), or a PBN deal (`N:<hand> <hand> <hand> <hand>`, first seat any).
//! Blank lines and lines starting with `#` or `%` are skipped.

use crate::cards::Hand;
use crate::records::hand_text::{complete_deal, parse_dotted_hand, parse_pbn_deal, seat_of};
use crate::records::line_reader::LineReader;
use crate::records::{DealRecord, RecordError};

/// Reads one-line deals.
pub struct OnelineReader {
    lines: LineReader,
}

impl OnelineReader {
    /// One-line deals from `lines`.
    pub fn new(lines: LineReader) -> OnelineReader {
        OnelineReader { lines }
    }

    /// The next deal, or `None` at the end.
    pub fn next_record(&mut self) -> Result<Option<DealRecord>, RecordError> {
        loop {
            let Some((number, text)) = self.lines.next_line()? else { return Ok(None) };
            let start = text.iter().position(|b| !b.is_ascii_whitespace());
            let Some(start) = start else { continue };
            if matches!(text[start], b'#' | b'%') {
                continue;
            }
            let fail = |(at, message): (usize, String)| RecordError::at_line(number, Some(at as u64 + 1), message);
            let deal = parse_oneline(text, start).map_err(fail)?;
            return Ok(Some(DealRecord::bare(deal, number)));
        }
    }
}

/// The words of `text` from `at` on: (offset, word), split at blanks.
fn words(text: &[u8], at: usize) -> impl Iterator<Item = (usize, &[u8])> {
    let mut at = at;
    std::iter::from_fn(move || {
        while text.get(at).is_some_and(u8::is_ascii_whitespace) {
            at += 1;
        }
        let start = at;
        while text.get(at).is_some_and(|b| !b.is_ascii_whitespace()) {
            at += 1;
        }
        (at > start).then(|| (start, &text[start..at]))
    })
}

/// One line's deal (`text[start]` is its first non-blank byte): the error's offset is in `text`.
fn parse_oneline(text: &[u8], start: usize) -> Result<crate::cards::Deal, (usize, String)> {
    let mut hands: [Option<Hand>; 4] = [None; 4];
    let mut words = words(text, start);
    let (first_at, first) = words.next().expect("a non-blank line has a word");
    let hand_at = |at: usize, word: &[u8]| parse_dotted_hand(word).map_err(|(offset, message)| (at + offset, message));
    if first.len() >= 2 && first[1] == b':' && seat_of(first[0]).is_some() {
        // A PBN deal: the first seat, ':', then four hands clockwise.
        return parse_pbn_deal(&text[first_at..]).map_err(|(offset, message)| (first_at + offset, message));
    } else {
        // `n <hand> e <hand> s <hand> w <hand>`, then possibly numbers.
        let mut seen = 0;
        let mut given = [false; 4];
        let mut pending = Some((first_at, first));
        while let Some((at, word)) = pending.take().or_else(|| words.next()) {
            let seat = match word {
                [letter] if seen < 4 => seat_of(*letter),
                _ => None,
            };
            let Some(seat) = seat else {
                if seen == 4 && is_number(word) {
                    continue;
                }
                let what = if seen < 4 {
                    "expected a seat letter (n, e, s or w) before a hand"
                } else {
                    "unexpected text after the four hands"
                };
                return Err((at, what.to_string()));
            };
            if std::mem::replace(&mut given[seat.index()], true) {
                return Err((at, format!("{} is given twice", seat.name())));
            }
            let Some((hand_start, hand)) = words.next() else {
                return Err((text.len(), format!("{} has no hand after its letter", seat.name())));
            };
            hands[seat.index()] = hand_at(hand_start, hand)?;
            seen += 1;
        }
        if seen < 3 {
            return Err((text.len(), format!("a one-line deal gives the four hands: found {seen}")));
        }
    }
    complete_deal(hands).map_err(|message| (start, message))
}

/// Whether `word` is a whole number (a value `printoneline(v)` printed).
fn is_number(word: &[u8]) -> bool {
    let digits = word.strip_prefix(b"-").unwrap_or(word);
    !digits.is_empty() && digits.iter().all(u8::is_ascii_digit)
}
