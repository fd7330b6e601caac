//! DealerV2's 52-byte deals (`-l`): each deal 52 bytes, the cards of North, East, South and
//! West, 13 each, every byte `(suit << 4) | rank` (suit 0 clubs … 3 spades, rank 0 deuce … 12
//! ace); no separator, no header.

use std::io::Read;

use crate::cards::{Card, Hand, Suit};
use crate::dd::zrd::DL52_LEN;
use crate::records::fixed_records::FixedRecords;
use crate::records::hand_text::complete_deal;
use crate::records::{DealRecord, RecordError};

/// Reads 52-byte deals.
pub struct Dl52Reader {
    records: FixedRecords<DL52_LEN>,
}

impl Dl52Reader {
    /// Deals from `source`.
    pub fn new(source: Box<dyn Read + Send>) -> Dl52Reader {
        Dl52Reader { records: FixedRecords::new(source) }
    }

    /// The next deal, or `None` at the end.
    pub fn next_record(&mut self) -> Result<Option<DealRecord>, RecordError> {
        let Some(record) = self.records.next("a deal")? else { return Ok(None) };
        decode_dl52(&record.bytes)
            .map(|deal| Some(DealRecord::bare(deal, record.number)))
            .map_err(|message| RecordError::at_record(record.number, record.offset, message))
    }
}

/// The deal of one 52-byte record.
pub fn decode_dl52(bytes: &[u8; DL52_LEN]) -> Result<crate::cards::Deal, String> {
    let mut hands = [Hand::EMPTY; 4];
    for (i, &byte) in bytes.iter().enumerate() {
        let (suit, rank) = (byte >> 4, byte & 0x0F);
        if suit > 3 || rank > 12 {
            return Err(format!("byte {} (0x{byte:02x}) is not a card (suit 0-3 << 4 | rank 0-12)", i + 1));
        }
        let card = Card::new(Suit::from_index(suit as usize), rank);
        let hand = &mut hands[i / 13];
        if hand.contains(card) {
            return Err(format!("the card {}{} appears twice", card.suit().letter(), card.rank_letter()));
        }
        hand.insert(card);
    }
    complete_deal(hands.map(Some))
}
