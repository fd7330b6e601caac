//! Tricks the defenders take whatever declarer does, read from the four hands without a solve
//! ([`defenders_sure_tricks`]): an upper bound on declarer's double-dummy tricks that can answer
//! a threshold question ("does 7NT make?") before DDS is asked.
//!
//! Uses only the cards; no other module of `dd`.

use crate::cards::{Deal, Seat, Strain, Suit};

/// How many of a suit's top cards (from the ace down, without a gap) `bits` holds.
fn top_run(bits: u16) -> u32 {
    (bits << 3).leading_ones()
}

/// Tricks the defenders take on `deal` against `declarer` in `strain` however declarer and
/// dummy play: the opening leader (declarer's left-hand opponent) cashes the top cards they
/// hold, without a gap from the ace, in every suit, trumps first.
///
/// Each of those cards wins its trick: in notrump nothing beats it; in a suit contract the
/// leader's top trumps are the highest, and a side suit's top cards are counted only while both
/// declarer and dummy still hold cards of that suit, so neither can ruff (a player who has to
/// discard while the trumps are cashed holds no trump). The leader keeps the lead throughout.
pub fn defenders_sure_tricks(deal: &Deal, declarer: Seat, strain: Strain) -> u8 {
    let leader = deal.hand(declarer.left());
    let (declarer_hand, dummy) = (deal.hand(declarer), deal.hand(declarer.partner()));
    let tricks: u32 = Suit::ALL
        .iter()
        .map(|&suit| {
            let run = top_run(leader.suit_bits(suit));
            match strain {
                Strain::Suit(trumps) if trumps != suit => run.min(declarer_hand.len(suit)).min(dummy.len(suit)),
                _ => run,
            }
        })
        .sum();
    tricks.min(13) as u8
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dd::test_deals::deal;

    #[test]
    fn the_leaders_top_cards_are_counted_in_notrump_and_capped_by_ruffs_in_a_suit() {
        // East leads against North: A K Q of spades and the ace of hearts.
        let d = deal("n 5432.5432.432.32 e AKQ.A76.8765.654 s JT9.KQJ.KQJ.KQJT w 876.T98.AT9.A987");
        assert_eq!(defenders_sure_tricks(&d, Seat::North, Strain::Notrump), 4);
        // In clubs the three spades stand (North holds four, South three: both follow), and
        // the heart ace.
        assert_eq!(defenders_sure_tricks(&d, Seat::North, Strain::Suit(Suit::Clubs)), 4);
        // South declares: West leads, holding the aces of diamonds and clubs.
        assert_eq!(defenders_sure_tricks(&d, Seat::South, Strain::Notrump), 2);
        // In diamonds, West's ace of clubs stands (North and South hold clubs), as does the
        // trump ace.
        assert_eq!(defenders_sure_tricks(&d, Seat::South, Strain::Suit(Suit::Diamonds)), 2);
    }

    #[test]
    fn a_void_beside_declarer_cancels_a_side_suit_winner() {
        let d = deal("n AKQJT98765432... e .AKQJT98765432.. s ..AKQJT98765432. w ...AKQJT98765432");
        // East leads against North in spades: hearts are ruffed at once (North and South hold none).
        assert_eq!(defenders_sure_tricks(&d, Seat::North, Strain::Suit(Suit::Spades)), 0);
        // In notrump East runs thirteen hearts.
        assert_eq!(defenders_sure_tricks(&d, Seat::North, Strain::Notrump), 13);
    }
}
