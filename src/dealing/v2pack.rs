//! DealerV2 4.3.3's pack: the empty-slot byte, the full pack in `newpack` order and `sortDeal`.
//!
//! Shared by DealerV2's dealer (`v2dealer`) and its bias predeal (`v2bias`); it knows nothing of
//! the random generator or of the dealing modes.

use crate::cards::Card;

/// DealerV2's empty-slot byte; larger than every card byte.
pub(crate) const NO_CARD: Card = Card(0x7F);

/// The full pack in DealerV2's `newpack` order: SA, SK, …, S2, HA, …, C2.
pub(crate) fn full_pack_descending() -> [Card; 52] {
    let mut pack = [Card(0); 52];
    for (i, c) in pack.iter_mut().enumerate() {
        *c = Card::from_ordinal(51 - i);
    }
    pack
}

/// `sortDeal`: sorts each 13-slot hand descending by byte value.
pub(crate) fn sort_hands(deck: &mut [Card; 52]) {
    for hand in deck.chunks_exact_mut(13) {
        sort_descending(hand);
    }
}

/// Sorts cards descending by byte value. A card's byte is its bit in a [`crate::cards::Hand`]
/// mask, so distinct cards are sorted by reading their mask from the top bit down; slots
/// holding [`NO_CARD`] (or repeated bytes) take the general sort.
pub(crate) fn sort_descending(cards: &mut [Card]) {
    let mut mask = 0u64;
    for card in cards.iter() {
        if card.0 >= 64 {
            cards.sort_unstable_by(|a, b| b.cmp(a));
            return;
        }
        mask |= 1u64 << card.0;
    }
    if mask.count_ones() as usize != cards.len() {
        cards.sort_unstable_by(|a, b| b.cmp(a));
        return;
    }
    for slot in cards.iter_mut() {
        let top = 63 - mask.leading_zeros();
        *slot = Card(top as u8);
        mask ^= 1u64 << top;
    }
}
