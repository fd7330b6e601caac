//! Tricks a side takes whatever the other side does, read from the four hands without a solve
//! ([`defenders_sure_tricks`], [`declarers_sure_tricks`]): bounds on declarer's double-dummy
//! tricks that can answer a threshold question ("does 7NT make?") before DDS is asked.
//!
//! Uses only the cards; no other module of `dd`.

use crate::cards::{Deal, Hand, Seat, Strain, Suit};

/// How many of a suit's top cards (from the ace down, without a gap) `bits` holds.
fn top_run(bits: u16) -> u32 {
    (bits << 3).leading_ones()
}

/// How many of the cards of `hand` in `suit` belong to the side's unbroken run of top cards
/// (the side's two hands together, from the ace down): each of them beats every card of that
/// suit the other side holds.
fn top_cards_of_side(hand: Hand, partner: Hand, suit: Suit) -> u32 {
    let side = hand.suit_bits(suit) | partner.suit_bits(suit);
    let run = top_run(side);
    let tops = if run == 0 { 0 } else { (0x1fffu16 << (13 - run)) & 0x1fff };
    (hand.suit_bits(suit) & tops).count_ones()
}

/// The most of a side's top trumps held in one of its hands. Each is a trick for the side
/// however play goes: every card is played at some trick, and a trump of the side's top run
/// loses only to a higher one, which partner holds (a trump is never a discard: played to
/// another suit it ruffs).
fn sure_trump_tricks(deal: &Deal, seat: Seat, trumps: Suit) -> u32 {
    let (hand, partner) = (deal.hand(seat), deal.hand(seat.partner()));
    top_cards_of_side(hand, partner, trumps).max(top_cards_of_side(partner, hand, trumps))
}

/// Tricks the defenders take on `deal` against `declarer` in `strain` however declarer and
/// dummy play: the more of two counts.
///
/// - The opening leader (declarer's left-hand opponent) cashes, keeping the lead, the top cards
///   they hold without a gap from the ace, in every suit, trumps first. In notrump each wins,
///   and so do all the leader's cards of a suit when that run is at least as long as every
///   other hand's holding of it (the others are then out of the suit). In a suit contract the
///   leader's top trumps are the highest, and a side suit's top cards count only while both
///   declarer and dummy still hold cards of it, so neither can ruff (a player who has to discard
///   while trumps are cashed holds none), and only while the leader's partner still holds a
///   card other than a trump to play.
/// - In a suit contract, the defenders' top trumps held in one hand (see `sure_trump_tricks`).
pub fn defenders_sure_tricks(deal: &Deal, declarer: Seat, strain: Strain) -> u8 {
    let leader_seat = declarer.left();
    let leader = deal.hand(leader_seat);
    let (declarer_hand, dummy, third) =
        (deal.hand(declarer), deal.hand(declarer.partner()), deal.hand(leader_seat.partner()));
    let tricks: u32 = match strain {
        Strain::Notrump => Suit::ALL
            .iter()
            .map(|&suit| {
                let run = top_run(leader.suit_bits(suit));
                let others = declarer_hand.len(suit).max(dummy.len(suit)).max(third.len(suit));
                if run >= others {
                    leader.len(suit)
                } else {
                    run
                }
            })
            .sum(),
        Strain::Suit(trumps) => {
            let trump_run = top_run(leader.suit_bits(trumps));
            let side: u32 = Suit::ALL
                .iter()
                .filter(|&&suit| suit != trumps)
                .map(|&suit| top_run(leader.suit_bits(suit)).min(declarer_hand.len(suit)).min(dummy.len(suit)))
                .sum();
            // The leader's partner must never be left with trumps alone, or a winner of the
            // leader's would be ruffed by them and the lead lost: each cashed trick takes at
            // most one of their other cards.
            let partners_others = 13 - third.len(trumps);
            let cashed = trump_run + side.min(partners_others.saturating_sub(trump_run));
            cashed.max(sure_trump_tricks(deal, leader_seat, trumps))
        }
    };
    tricks.min(13) as u8
}

/// Tricks declarer takes on `deal` in `strain` however the defenders play: in a suit contract,
/// the top trumps of declarer's side held in one of its hands (see `sure_trump_tricks`); none
/// in notrump, where a top card can be squeezed out as a discard.
pub fn declarers_sure_tricks(deal: &Deal, declarer: Seat, strain: Strain) -> u8 {
    match strain {
        Strain::Suit(trumps) => sure_trump_tricks(deal, declarer, trumps) as u8,
        Strain::Notrump => 0,
    }
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
    fn a_long_run_takes_every_card_of_the_suit_and_top_trumps_count_for_either_side() {
        // West leads against South: A K Q J 2 of clubs, no other hand with more than four.
        let d = deal("n AK32.AK2.AK2.T98 e QJT.QJT.QJT.7654 s 987.9876.98763.3 w 654.543.54.AKQJ2");
        assert_eq!(defenders_sure_tricks(&d, Seat::South, Strain::Notrump), 5);
        // In spades the defenders' Q J T of trumps, in East's hand, sit under North's A K: no
        // top trump of theirs. North's A K are declarer's side's sure trump tricks.
        assert_eq!(declarers_sure_tricks(&d, Seat::South, Strain::Suit(Suit::Spades)), 2);
        assert_eq!(declarers_sure_tricks(&d, Seat::South, Strain::Notrump), 0);
        // East declares hearts (South leads): North's A K of hearts are two defensive tricks.
        assert_eq!(defenders_sure_tricks(&d, Seat::East, Strain::Suit(Suit::Hearts)), 2);
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
