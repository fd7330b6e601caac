//! Spot-card predeal (`predeal north SQTxx`): a seat's whole holding in a suit, given as its
//! named cards and a number of `x`s, each `x` a card of the suit below the ten (2 to 9) that no
//! predeal of any seat names. The holding fixes the suit: the seat holds exactly its named cards
//! and `count` such small cards, no other card of the suit (an unnamed ten or honour included).
//!
//! Exactness. Every constraint a setup can state (card predeal, bias lengths, spot holdings)
//! is unchanged when the free small cards of one suit are permuted among themselves: bias
//! lengths count whole suits, and a spot holding counts small cards. So every assignment of
//! the `x`s to free small cards has the same number of completions, and a uniform deal among
//! those meeting the setup is drawn as: a uniform assignment of the `x`s (each seat's `x`s a
//! uniform subset of the small cards still unassigned), then a uniform deal of the remaining
//! free cards with the spot holdings' seats taking no further card of their suits. The second
//! step is the exact bias dealing (`bias`): the `x`s count as predealt cards and each spot
//! holding pins its seat's free cards in the suit to 0.

use crate::cards::{Card, Seat, Suit};

/// The ranks an `x` stands for: 2 to 9 (rank bits 0 to 7).
pub const SPOT_RANKS: u16 = 0x00FF;

/// One spot holding: `seat` holds, in `suit`, its predealt cards of the suit and exactly
/// `count` more cards of ranks 2 to 9 that no predeal names, and nothing else.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpotCards {
    /// The seat whose holding it is.
    pub seat: Seat,
    /// The suit it fixes.
    pub suit: Suit,
    /// How many `x`s.
    pub count: u8,
}

/// Checks spot holdings against the card predeal (one holding per seat and suit, at most 13
/// cards per seat with the `x`s, enough free small cards in each suit) and returns the number
/// of `x`s per `[seat][suit]`, −1 where the suit is not fixed.
pub(crate) fn spot_table(predeal: &[(Seat, Card)], spots: &[SpotCards]) -> Result<[[i8; 4]; 4], String> {
    let mut table = [[-1i8; 4]; 4];
    let mut per_seat = [0u32; 4];
    let mut predealt_small = [0u32; 4];
    for &(seat, card) in predeal {
        per_seat[seat.index()] += 1;
        if SPOT_RANKS & (1 << card.rank()) != 0 {
            predealt_small[card.suit().index()] += 1;
        }
    }
    let mut wanted = [0u32; 4];
    for spot in spots {
        let cell = &mut table[spot.seat.index()][spot.suit.index()];
        if *cell >= 0 {
            return Err(format!(
                "{}'s {}s are given by two spot-card holdings (a holding with x names the whole suit)",
                spot.seat.name(),
                spot.suit.name()
            ));
        }
        if spot.count > 13 {
            return Err("More than 13 cards for one player".to_string());
        }
        *cell = spot.count as i8;
        per_seat[spot.seat.index()] += u32::from(spot.count);
        if per_seat[spot.seat.index()] > 13 {
            return Err("More than 13 cards for one player".to_string());
        }
        wanted[spot.suit.index()] += u32::from(spot.count);
    }
    for suit in Suit::ALL {
        let (want, free) = (wanted[suit.index()], 8 - predealt_small[suit.index()]);
        if want > free {
            return Err(too_many_spots(suit, want, free));
        }
    }
    Ok(table)
}

/// The error for more `x`s in `suit` than free small cards.
pub fn too_many_spots(suit: Suit, wanted: u32, free: u32) -> String {
    format!(
        "Too many spot cards (x) in {}s: {wanted} asked for, but only {free} of the {}s 2 to 9 are not predealt",
        suit.name(),
        suit.name()
    )
}

/// The per-deal draw of the `x`s (ChaCha): the free small cards of each suit and the seats
/// that take some of them, in a fixed order.
#[derive(Clone, Debug)]
pub(crate) struct SpotDraw {
    /// Bit positions (in a [`Hand`](crate::cards::Hand) mask) of each suit's free small cards.
    small: [[u8; 8]; 4],
    /// How many of them there are.
    small_count: [u8; 4],
    /// Per suit: (seat index, number of `x`s) for every spot holding of the suit.
    takers: [Vec<(usize, u8)>; 4],
}

impl SpotDraw {
    /// The draw for the `x`s of `table` (from [`spot_table`]), the free cards being `free`.
    pub(crate) fn new(table: &[[i8; 4]; 4], free: u64) -> SpotDraw {
        let mut small = [[0u8; 8]; 4];
        let mut small_count = [0u8; 4];
        for (s, (row, count)) in small.iter_mut().zip(&mut small_count).enumerate() {
            for rank in 0..8u8 {
                let bit = 16 * s as u8 + rank;
                if free >> bit & 1 != 0 {
                    row[usize::from(*count)] = bit;
                    *count += 1;
                }
            }
        }
        let takers = std::array::from_fn(|s| {
            (0..4).filter(|&h| table[h][s] > 0).map(|h| (h, table[h][s] as u8)).collect::<Vec<_>>()
        });
        SpotDraw { small, small_count, takers }
    }

    /// Whether some seat takes `x`s in suit `s`.
    #[inline]
    pub(crate) fn has(&self, s: usize) -> bool {
        !self.takers[s].is_empty()
    }

    /// Gives each spot holding of suit `s` its `x`s, uniformly among the free small cards not
    /// yet taken (`below(n)`: a uniform integer in `0..n`), adding them to `hands`; returns the
    /// cards taken.
    pub(crate) fn draw(&self, s: usize, hands: &mut [u64; 4], mut below: impl FnMut(u32) -> u32) -> u64 {
        let mut small = self.small[s];
        let n = usize::from(self.small_count[s]);
        let mut next = 0;
        let mut taken = 0u64;
        for &(seat, count) in &self.takers[s] {
            for _ in 0..count {
                // A partial Fisher–Yates shuffle: position `next` gets a uniform card of the rest.
                let j = next + below((n - next) as u32) as usize;
                small.swap(next, j);
                let card = 1u64 << small[next];
                hands[seat] |= card;
                taken |= card;
                next += 1;
            }
        }
        taken
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spot(seat: Seat, suit: Suit, count: u8) -> SpotCards {
        SpotCards { seat, suit, count }
    }

    #[test]
    fn the_table_counts_x_per_seat_and_suit() {
        let predeal = [(Seat::North, Card::new(Suit::Spades, 10)), (Seat::South, Card::new(Suit::Spades, 7))];
        let t = spot_table(&predeal, &[spot(Seat::North, Suit::Spades, 2), spot(Seat::East, Suit::Hearts, 1)]).unwrap();
        assert_eq!(t[0][3], 2);
        assert_eq!(t[1][2], 1);
        assert_eq!(t[2][3], -1);
        // The S9 is predealt: 7 small spades are left.
        assert!(spot_table(&predeal, &[spot(Seat::North, Suit::Spades, 7)]).is_ok());
        assert_eq!(
            spot_table(&predeal, &[spot(Seat::North, Suit::Spades, 5), spot(Seat::West, Suit::Spades, 3)]).unwrap_err(),
            "Too many spot cards (x) in Spades: 8 asked for, but only 7 of the Spades 2 to 9 are not predealt"
        );
        assert!(spot_table(&[], &[spot(Seat::North, Suit::Spades, 1), spot(Seat::North, Suit::Spades, 1)]).is_err());
        let many: Vec<SpotCards> = Suit::ALL.iter().map(|&s| spot(Seat::North, s, 4)).collect();
        assert_eq!(spot_table(&[], &many).unwrap_err(), "More than 13 cards for one player");
    }

    #[test]
    fn the_draw_takes_distinct_free_small_cards() {
        // Spades: the 9 (bit 48 + 7) and the 2 (bit 48) are not free.
        let free = 0x1FFF_1FFF_1FFF_1FFFu64 & !(1 << 55) & !(1 << 48);
        let mut table = [[-1i8; 4]; 4];
        table[0][3] = 2;
        table[2][3] = 3;
        let draw = SpotDraw::new(&table, free);
        assert!(draw.has(3) && !draw.has(0));
        let mut state = 12345u32;
        for _ in 0..1000 {
            let mut hands = [0u64; 4];
            let taken = draw.draw(3, &mut hands, |n| {
                state = state.wrapping_mul(1_103_515_245).wrapping_add(12345);
                (state >> 16) % n
            });
            assert_eq!(taken.count_ones(), 5);
            assert_eq!(taken & !free, 0);
            assert_eq!(taken & !(0xFFu64 << 48), 0);
            assert_eq!((hands[0].count_ones(), hands[2].count_ones()), (2, 3));
            assert_eq!(hands[0] & hands[2], 0);
        }
    }
}
