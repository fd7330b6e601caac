//! Records read from a file as a job's deals (`input`): each record's deal is checked against
//! the predeal in force (a deal that contradicts it is skipped and counted), its double-dummy
//! table is handed to the job's cache (checked by solving for the first `verify_dd` of them),
//! and its board data become the deal's board label. A malformed record stops the job with an
//! error naming the input, the line and what is wrong, or with `input_errors` `skip` is counted
//! and reported on the diagnostics stream.

use std::sync::Arc;

use crate::actions::boards::BoardLabel;
use crate::cards::{Deal, Hand, Seat, Suit};
use crate::dealing::{SpotCards, SPOT_RANKS};
use crate::error::{Error, ErrorKind, Result};
use crate::records::{DealRecord, InputFormat, RecordReader};

/// The most skipped-record notices kept for the diagnostics stream before the dealing loop
/// writes them (a caller that takes deals one at a time never does: the rest are only counted).
const MAX_PENDING_NOTICES: usize = 100;

/// What the predeal in force asks of a deal read from a file.
#[derive(Clone, Debug, Default)]
pub(crate) struct PredealCheck {
    /// The cards each seat must hold.
    cards: [Hand; 4],
    /// Every card the predeal names (of any seat).
    named: Hand,
    /// Bias suit lengths, `[seat][suit]`, −1 where free.
    lengths: [[i8; 4]; 4],
    /// Spot holdings: the seat's suit is its predealt cards and exactly `count` small cards
    /// that no predeal names.
    spots: Vec<SpotCards>,
}

impl PredealCheck {
    /// The check of card predeal `cards`, bias lengths `lengths` and spot holdings `spots`.
    pub(crate) fn new(
        cards: &[(Seat, crate::cards::Card)],
        lengths: [[i8; 4]; 4],
        spots: &[SpotCards],
    ) -> PredealCheck {
        let mut hands = [Hand::EMPTY; 4];
        for (seat, card) in cards {
            hands[seat.index()].insert(*card);
        }
        let named = Hand(hands.iter().fold(0u64, |all, hand| all | hand.0));
        PredealCheck { cards: hands, named, lengths, spots: spots.to_vec() }
    }

    /// Whether `deal` satisfies the predeal.
    pub(crate) fn admits(&self, deal: &Deal) -> bool {
        for seat in Seat::ALL {
            let hand = deal.hand(seat);
            let wanted = self.cards[seat.index()];
            if hand.0 & wanted.0 != wanted.0 {
                return false;
            }
            for suit in Suit::ALL {
                let length = self.lengths[seat.index()][suit.index()];
                if length >= 0 && hand.len(suit) != length as u32 {
                    return false;
                }
            }
        }
        self.spots.iter().all(|spot| {
            let held = deal.hand(spot.seat).suit_bits(spot.suit);
            let own = self.cards[spot.seat.index()].suit_bits(spot.suit);
            let others = self.named.suit_bits(spot.suit) & !own;
            let small = held & !own;
            small & !SPOT_RANKS == 0 && small & others == 0 && small.count_ones() == u32::from(spot.count)
        })
    }
}

/// What a job reading records has read (see [`crate::actions::InputCounts`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct InputTally {
    /// Malformed records skipped (`input_errors` `skip`).
    pub(crate) malformed: u64,
    /// Records whose deal the predeal contradicts.
    pub(crate) off_predeal: u64,
    /// Tables taken from the records as read.
    pub(crate) dd_read: u64,
    /// Tables checked by solving (`verify_dd`).
    pub(crate) dd_verified: u64,
}

/// A job's input of records.
pub(crate) struct RecordInput {
    reader: RecordReader,
    predeal: PredealCheck,
    /// `input_errors` `skip`.
    skip_malformed: bool,
    /// Tables still to check by solving (`verify_dd`).
    pub(crate) verify_left: u64,
    /// The board label of the record taken last (`None`: it carried no board data).
    pub(crate) label: Option<BoardLabel>,
    /// What was read so far.
    pub(crate) tally: InputTally,
    /// Notices of skipped records, for the diagnostics stream.
    pub(crate) notices: Vec<String>,
}

impl RecordInput {
    /// Reads `reader`'s records under `predeal`; `skip_malformed`: `input_errors` `skip`.
    pub(crate) fn new(
        reader: RecordReader,
        predeal: PredealCheck,
        skip_malformed: bool,
        verify_dd: u64,
    ) -> RecordInput {
        RecordInput {
            reader,
            predeal,
            skip_malformed,
            verify_left: verify_dd,
            label: None,
            tally: InputTally::default(),
            notices: Vec::new(),
        }
    }

    /// The input's name in messages.
    pub(crate) fn name(&self) -> &str {
        self.reader.name()
    }

    /// Its format.
    pub(crate) fn format(&self) -> InputFormat {
        self.reader.format()
    }

    /// Records read so far.
    pub(crate) fn records_read(&self) -> u64 {
        self.reader.records_read()
    }

    /// The error of the record starting at `line` (its first line, or its number in a binary
    /// file): `NAME:LINE: message` or `NAME: record N: message`.
    pub(crate) fn record_error(&self, line: u64, message: String) -> Error {
        let text = match self.format().is_binary() {
            true => format!("{}: record {line}: {message}", self.name()),
            false => format!("{}:{line}: {message}", self.name()),
        };
        Error::new(ErrorKind::Run, text)
    }

    /// The next record read (`None` at the end), and whether the predeal admits its deal; its
    /// board data become [`label`](Self::label). A malformed record is an error, or (skipping)
    /// counted with a notice and passed over.
    pub(crate) fn next(&mut self) -> Result<Option<(DealRecord, bool)>> {
        loop {
            match self.reader.next_record() {
                Ok(None) => return Ok(None),
                Ok(Some(mut record)) => {
                    let admitted = self.predeal.admits(&record.deal);
                    if !admitted {
                        self.tally.off_predeal += 1;
                    }
                    // The board data move into the label (the record keeps none).
                    let board = std::mem::take(&mut record.board);
                    self.label = (!board.is_empty())
                        .then(|| BoardLabel { record: Some(Arc::new(board)), ..BoardLabel::default() });
                    return Ok(Some((record, admitted)));
                }
                Err(e) if self.skip_malformed && !e.fatal => {
                    self.tally.malformed += 1;
                    if self.notices.len() < MAX_PENDING_NOTICES {
                        self.notices.push(format!("skipped a malformed record: {}\n", e.describe(self.reader.name())));
                    }
                }
                Err(e) => return Err(Error::new(ErrorKind::Io, e.describe(self.reader.name()))),
            }
        }
    }
}
