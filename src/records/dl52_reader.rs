//! DealerV2's 52-byte deals (`-l`): each deal 52 bytes, the cards of North, East, South and
//! West, 13 each, every byte `(suit << 4) | rank` (suit 0 clubs … 3 spades, rank 0 deuce … 12
//! ace); no separator, no header.

use std::io::Read;

use crate::cards::{Card, Hand, Suit};
use crate::dd::zrd::DL52_LEN;
use crate::records::hand_text::complete_deal;
use crate::records::{DealRecord, RecordError};

/// Reads 52-byte deals.
pub struct Dl52Reader {
    source: Box<dyn Read + Send>,
    read: u64,
}

impl Dl52Reader {
    /// Deals from `source`.
    pub fn new(source: Box<dyn Read + Send>) -> Dl52Reader {
        Dl52Reader { source, read: 0 }
    }

    /// The next deal, or `None` at the end.
    pub fn next_record(&mut self) -> Result<Option<DealRecord>, RecordError> {
        let mut bytes = [0u8; DL52_LEN];
        let number = self.read + 1;
        let offset = self.read * DL52_LEN as u64;
        let got = read_record(&mut *self.source, &mut bytes)
            .map_err(|e| RecordError::at_record(number, offset, format!("cannot read: {e}")).fatal())?;
        match got {
            0 => return Ok(None),
            DL52_LEN => {}
            n => {
                return Err(RecordError::at_record(
                    number,
                    offset,
                    format!("the input ends inside a deal: {n} of its {DL52_LEN} bytes"),
                )
                .fatal())
            }
        }
        self.read += 1;
        decode_dl52(&bytes)
            .map(|deal| Some(DealRecord::bare(deal, number)))
            .map_err(|message| RecordError::at_record(number, offset, message))
    }
}

/// Reads up to `bytes.len()` bytes (fewer only at the end of the input); the count read.
pub fn read_record(source: &mut dyn Read, bytes: &mut [u8]) -> std::io::Result<usize> {
    let mut got = 0;
    while got < bytes.len() {
        match source.read(&mut bytes[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
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
