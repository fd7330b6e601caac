//! BBO's LIN: `key|value|` pairs, one board per line (hand records, libdealer's `printlin`) or
//! spread over several lines (vugraph and tournament files, where `qx|` starts each board).
//!
//! A board is the `md|` deal (the dealer digit 1 South, 2 West, 3 North, 4 East, then the hands
//! of South, West, North and East, suit letters each followed by its ranks; the last hand may be
//! left out) with the board data around it: the number from `qx|o12|` (or `c12`) or
//! `ah|Board 12|`, the vulnerability from `sv|` (`o` none, `n`, `e`, `b` both), the players
//! from `pn|` (kept as the PBN tags `South`, `West`, `North`, `East`, and for the boards that
//! follow until the next `pn|`). A board ends where the next `qx|`, `pn|` or `md|` starts, or
//! at the end of the input. Bids, plays and other keys are passed over.

use std::collections::VecDeque;

use crate::cards::{Hand, Seat};
use crate::records::hand_text::{complete_deal, parse_lettered_hand};
use crate::records::line_reader::LineReader;
use crate::records::{BoardData, DealRecord, RecordError};
use crate::script::ast::Vulnerability;

/// The board being read.
#[derive(Default)]
struct Board {
    record: Option<DealRecord>,
    number: Option<i64>,
    vulnerability: Option<Vulnerability>,
}

/// Reads LIN boards.
pub struct LinReader {
    lines: LineReader,
    board: Board,
    /// The players of the latest `pn|`.
    players: Vec<(String, String)>,
    ready: VecDeque<Result<DealRecord, RecordError>>,
    ended: bool,
}

/// The seats of LIN's hand order in `md|` and `pn|`.
const LIN_SEATS: [Seat; 4] = [Seat::South, Seat::West, Seat::North, Seat::East];

impl LinReader {
    /// LIN boards from `lines`.
    pub fn new(lines: LineReader) -> LinReader {
        LinReader { lines, board: Board::default(), players: Vec::new(), ready: VecDeque::new(), ended: false }
    }

    /// The next board, or `None` at the end.
    pub fn next_record(&mut self) -> Result<Option<DealRecord>, RecordError> {
        loop {
            if let Some(ready) = self.ready.pop_front() {
                return ready.map(Some);
            }
            if self.ended {
                return Ok(None);
            }
            let (number, line) = match self.lines.next_line()? {
                Some((number, line)) => (number, line.to_vec()),
                None => {
                    self.end_board();
                    self.ended = true;
                    continue;
                }
            };
            self.read_line(number, &line);
        }
    }

    /// Queues the board read so far, when it has a deal.
    fn end_board(&mut self) {
        let board = std::mem::take(&mut self.board);
        if let Some(mut record) = board.record {
            record.board.number = board.number;
            record.board.vulnerability = board.vulnerability;
            self.ready.push_back(Ok(record));
        }
    }

    /// Reads one line's pairs.
    fn read_line(&mut self, number: u64, line: &[u8]) {
        let mut at = 0;
        while at < line.len() {
            let Some(bar) = line[at..].iter().position(|&b| b == b'|') else {
                if !line[at..].iter().all(u8::is_ascii_whitespace) {
                    let message = "a LIN key needs '|' and a value (key|value|)";
                    self.ready.push_back(Err(RecordError::at_line(number, Some(at as u64 + 1), message)));
                }
                return;
            };
            let key_at = at;
            let key = String::from_utf8_lossy(&line[at..at + bar]).trim().to_ascii_lowercase();
            at += bar + 1;
            let value_at = at;
            let end = line[at..].iter().position(|&b| b == b'|').map_or(line.len(), |e| at + e);
            let value = &line[value_at..end];
            at = end + 1;
            let column = |offset: usize| Some((value_at + offset) as u64 + 1);
            match key.as_str() {
                "qx" => {
                    self.end_board();
                    // `o12` (open room) or `c12` (closed room), possibly `,BOARD 12` after it.
                    let digits = match value.first() {
                        Some(b'o' | b'c' | b'O' | b'C') => &value[1..],
                        _ => value,
                    };
                    self.board.number = board_number(digits);
                }
                "md" => {
                    if self.board.record.is_some() {
                        self.end_board();
                    }
                    match parse_md(value) {
                        Ok((dealer, deal)) => {
                            let mut record = DealRecord::bare(deal, number);
                            record.board = BoardData { dealer, tags: self.players.clone(), ..BoardData::default() };
                            self.board.record = Some(record);
                        }
                        Err((offset, message)) => {
                            self.ready.push_back(Err(RecordError::at_line(
                                number,
                                column(offset),
                                format!("md: {message}"),
                            )));
                        }
                    }
                }
                "ah" => {
                    let text = String::from_utf8_lossy(value);
                    let lower = text.trim().to_ascii_lowercase();
                    if let Some(rest) = lower.strip_prefix("board") {
                        if let Some(n) = board_number(rest.trim().as_bytes()) {
                            self.board.number = Some(n);
                        }
                    }
                }
                "sv" => match vulnerability(value) {
                    Some(v) => self.board.vulnerability = Some(v),
                    None => {
                        let message =
                            format!("unknown vulnerability sv|{}| (o, n, e or b)", String::from_utf8_lossy(value));
                        self.ready.push_back(Err(RecordError::at_line(number, column(0), message)));
                    }
                },
                "pn" => {
                    if self.board.record.is_some() {
                        // Players before a deal (BBO's `pn|…|st||md|…` lines) start a new board.
                        self.end_board();
                    }
                    let names = String::from_utf8_lossy(value);
                    self.players = LIN_SEATS
                        .iter()
                        .zip(names.split(','))
                        .filter(|(_, name)| !name.trim().is_empty())
                        .map(|(seat, name)| (seat_tag(*seat).to_string(), name.trim().to_string()))
                        .collect();
                    if let Some(record) = &mut self.board.record {
                        record.board.tags = self.players.clone();
                    }
                }
                "" => {
                    let message = "a LIN pair needs a key before '|'";
                    self.ready.push_back(Err(RecordError::at_line(number, Some(key_at as u64 + 1), message)));
                    return;
                }
                _ => {}
            }
        }
    }
}

/// The PBN tag naming the player of `seat`.
fn seat_tag(seat: Seat) -> &'static str {
    match seat {
        Seat::North => "North",
        Seat::East => "East",
        Seat::South => "South",
        Seat::West => "West",
    }
}

/// The number at the start of `text` (`12`, `12,BOARD 12`), if any.
fn board_number(text: &[u8]) -> Option<i64> {
    let digits = text.iter().take_while(|b| b.is_ascii_digit()).count();
    std::str::from_utf8(&text[..digits]).ok()?.parse::<i64>().ok().filter(|&n| n <= 1_000_000_000)
}

/// `sv|`'s vulnerability.
fn vulnerability(value: &[u8]) -> Option<Vulnerability> {
    match value {
        [] => Some(Vulnerability::None),
        [letter] => match letter.to_ascii_lowercase() {
            b'o' | b'0' | b'-' => Some(Vulnerability::None),
            b'n' => Some(Vulnerability::NS),
            b'e' => Some(Vulnerability::EW),
            b'b' => Some(Vulnerability::All),
            _ => None,
        },
        _ => None,
    }
}

/// `md|`'s dealer (when its digit is there) and deal; the error's offset is in `value`.
fn parse_md(value: &[u8]) -> Result<(Option<Seat>, crate::cards::Deal), (usize, String)> {
    let (dealer, mut at) = match value.first() {
        Some(digit @ b'1'..=b'4') => (Some(LIN_SEATS[(digit - b'1') as usize]), 1),
        Some(b'0') => return Err((0, "the dealer digit is 1 (South), 2 (West), 3 (North) or 4 (East)".to_string())),
        _ => (None, 0),
    };
    let mut hands: [Option<Hand>; 4] = [None; 4];
    for (k, seat) in LIN_SEATS.into_iter().enumerate() {
        if at > value.len() {
            break;
        }
        let end = value[at..].iter().position(|&b| b == b',').map_or(value.len(), |e| at + e);
        let text = &value[at..end];
        if k == 3 && end < value.len() {
            return Err((end, "a deal has four hands: a fifth ','".to_string()));
        }
        if !text.is_empty() {
            hands[seat.index()] = Some(parse_lettered_hand(text).map_err(|(offset, message)| (at + offset, message))?);
        }
        at = end + 1;
    }
    let deal = complete_deal(hands).map_err(|message| (0, message))?;
    Ok((dealer, deal))
}
