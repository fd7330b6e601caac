//! Smart dealing under bias predeal: the first seat's hands drawn from the exact table of
//! those that satisfy its part of the condition (a [`SeatTable`] whose keys hold the suit
//! lengths), each weighted by the number of ways the other seats can then be dealt under the
//! bias lengths, and the other seats' lengths drawn in proportion to their deals.
//!
//! A deal meeting the card predeal and the bias is the first seat's hand and a deal of the
//! rest. Every hand of a class of the table takes the same free cards of each suit, so its
//! completions are the class's [`Completions`] count `N(r)` of the cards it leaves (zero when
//! its lengths break the first seat's own pins). Drawing a hand with probability
//! `N(r) / Σ count × N` (a uniform 128-bit number below the weighted total: the class by a
//! binary search, then a uniform hand of the class), then the other seats' lengths in
//! proportion to their deals and each suit's cards left split uniformly, makes every deal
//! whose first hand satisfies the factor and that meets the predeal and the bias equally
//! likely: exactly what plain biased dealing, kept by the factor, gives. The same counts also
//! give the factor's exact share of those deals.
//!
//! Spot holdings (`SQTxx`) deal this way too. The seat's own spot suits are counted from its
//! free small cards of the suit only ([`BiasedTable::seat_cards`]), their length pinned to
//! the number of `x`s. The other seats' `x`s are drawn first, uniformly from each suit's free
//! small cards, and the hand drawn from the table is kept only when it holds none of them
//! (else the attempt deals nothing, and counts as generated like a rejected deal, so that a
//! hand no `x`s can avoid costs the generate limit, not a hang): a pair of `x`s and hand kept
//! is then drawn with probability proportional to the hand's weight, which counts the deals of
//! the rest (the `x`s leave their seats' slots and their suits' free cards, and a spot seat
//! takes no further card of its suit), so every deal is again equally likely. (The share of
//! the deals is then not computed: it would need the small cards each hand takes.)

use std::sync::Arc;

use super::completions::Completions;
use super::hand_sampler::binomial;
use super::spots::{spot_table, SPOT_RANKS};
use super::{dealing_order, pinned_cells, seat_cards, DealingSetup, SeatTable};
use crate::cards::{Seat, LANE_MASK};

/// The first seat's table weighted by the completions of each hand under the bias.
#[derive(Clone, Debug)]
pub struct BiasedTable {
    table: Arc<SeatTable>,
    /// The seat dealt from the table, then the others in the order their lengths are drawn.
    order: [Seat; 4],
    /// The free cards of each suit before the first seat takes its hand.
    suit_free: [u8; 4],
    /// The deals of the other seats, by the cards the first seat leaves.
    completions: Completions,
    /// Each accepted class's completions per hand.
    weights: Vec<u64>,
    /// The classes' hands times their weights, cumulative.
    cumulative: Vec<u128>,
    /// The deals meeting the predeal and the bias, whatever the first hand (not counted with
    /// spot holdings).
    all: Option<u128>,
}

impl BiasedTable {
    /// The cards `seat`'s table is counted from under `setup`: its free cards, its own
    /// predealt cards and its free slots, as [`seat_cards`] gives them, but in a suit the seat
    /// holds spot cards in, only the free small cards (ranks 2 to 9) of the suit.
    pub fn seat_cards(setup: &DealingSetup, seat: Seat) -> (u64, u64, u32) {
        let (mut free, own, slots) = seat_cards(&setup.predeal, seat);
        for spot in setup.spots.iter().filter(|spot| spot.seat == seat) {
            free &= !(u64::from(0x1FFF & !SPOT_RANKS) << (16 * spot.suit.index()));
        }
        (free, own, slots)
    }

    /// The table of `seat`'s hands (counted with the suit lengths read, from
    /// [`seat_cards`](Self::seat_cards)) weighted by the deals the other seats then have under
    /// `setup`'s bias and spot holdings. `None` when the table does not hold the lengths or no
    /// deal meets both the setup and the factor (plain dealing then decides what happens).
    pub fn new(table: Arc<SeatTable>, setup: &DealingSetup, seat: Seat) -> Option<BiasedTable> {
        // The `x`s per seat and suit (−1: none), and the free cards each seat must still take
        // of each suit besides its `x`s.
        let spots = spot_table(&setup.predeal, &setup.spots).ok()?;
        let pinned = pinned_cells(&setup.predeal, &setup.bias, &spots).ok()?;
        let x = |h: usize, s: usize| spots[h][s].max(0) as u8;
        let (f, first_row) = (seat.index(), spots[seat.index()]);
        // The other seats' `x`s are dealt before the table: they leave their slots and their
        // suits' free cards.
        let (free, _, _) = seat_cards(&setup.predeal, seat);
        let slots: [u8; 4] = std::array::from_fn(|h| {
            let (_, _, slots) = seat_cards(&setup.predeal, Seat::ALL[h]);
            slots as u8 - if h == f { 0 } else { (0..4).map(|s| x(h, s)).sum() }
        });
        let suit_free: [u8; 4] = std::array::from_fn(|s| {
            (free >> (16 * s) & LANE_MASK).count_ones() as u8 - (0..4).filter(|&h| h != f).map(|h| x(h, s)).sum::<u8>()
        });
        let order = dealing_order(Some(seat));
        let rest = [order[1], order[2], order[3]];
        let mut completions =
            Completions::new(rest.map(|other| slots[other.index()]), rest.map(|other| pinned[other.index()]));
        // The seat's own spot suits take exactly its `x`s.
        let own_pins: [i8; 4] = std::array::from_fn(|s| if first_row[s] >= 0 { first_row[s] } else { pinned[f][s] });
        let fits_pins = |lengths: [u8; 4]| (0..4).all(|s| own_pins[s] < 0 || own_pins[s] as u8 == lengths[s]);
        // The free cards a hand leaves of each suit (none when it takes more than the other
        // seats' `x`s leave).
        let left = |lengths: [u8; 4]| -> Option<[u8; 4]> {
            let left: [Option<u8>; 4] = std::array::from_fn(|s| suit_free[s].checked_sub(lengths[s]));
            left.iter().all(Option::is_some).then(|| left.map(|count| count.unwrap_or(0)))
        };

        let mut weights = Vec::with_capacity(table.classes());
        let mut cumulative = Vec::with_capacity(table.classes());
        let mut total = 0u128;
        for class in 0..table.classes() {
            let lengths = table.class_lengths(class)?;
            let weight = match left(lengths) {
                Some(left) if fits_pins(lengths) => completions.count(left),
                _ => 0,
            };
            total += u128::from(table.class_count(class)) * u128::from(weight);
            weights.push(weight);
            cumulative.push(total);
        }
        if total == 0 {
            return None;
        }
        if !setup.spots.is_empty() {
            return Some(BiasedTable { table, order, suit_free, completions, weights, cumulative, all: None });
        }
        // Every hand the seat may hold under its pins, by its free cards per suit.
        let mut all = 0u128;
        let need = slots[seat.index()];
        for c in 0..=suit_free[0].min(need) {
            for d in 0..=suit_free[1].min(need - c) {
                for h in 0..=suit_free[2].min(need - c - d) {
                    let lengths = [c, d, h, need - c - d - h];
                    let Some(rest) = left(lengths).filter(|_| fits_pins(lengths)) else { continue };
                    let hands: u64 =
                        (0..4).map(|s| binomial(usize::from(suit_free[s]), usize::from(lengths[s]))).product();
                    all += u128::from(hands) * u128::from(completions.count(rest));
                }
            }
        }
        Some(BiasedTable { table, order, suit_free, completions, weights, cumulative, all: Some(all) })
    }

    /// The seat dealt from the table, then the others in the order [`draw`](Self::draw) gives
    /// their lengths.
    pub fn order(&self) -> [Seat; 4] {
        self.order
    }

    /// The share of the deals meeting the predeal and the bias whose first hand satisfies the
    /// factor (exact up to the division); `None` with spot holdings.
    pub fn share(&self) -> Option<f64> {
        self.all.map(|all| self.satisfying() as f64 / all as f64)
    }

    /// The deals meeting the predeal and the bias whose first hand satisfies the factor.
    fn satisfying(&self) -> u128 {
        *self.cumulative.last().expect("at least one class")
    }

    /// The free cards of the first seat's hand, and the free cards of each suit each other
    /// seat (in [`order`](Self::order)) then takes besides its `x`s, drawn from the words of
    /// `next`, with probability proportional to the deals of the rest (when the other seats'
    /// `x`s are not among the hand's cards).
    pub(crate) fn draw(&self, next: &mut impl FnMut() -> u64) -> (u64, [[u8; 4]; 3]) {
        let total = self.satisfying();
        // A uniform number below the total: the leading bits of two words, until below it.
        let bits = 128 - (total - 1).leading_zeros();
        let x = loop {
            let word = u128::from(next()) << 64 | u128::from(next());
            let x = if bits == 0 { 0 } else { word >> (128 - bits) };
            if x < total {
                break x;
            }
        };
        let class = self.cumulative.partition_point(|&end| end <= x);
        let within = x - class.checked_sub(1).map_or(0, |before| self.cumulative[before]);
        let rank = (within / u128::from(self.weights[class])) as u64;
        let cards = self.table.unrank_in_class(class, rank);
        let lengths = self.table.class_lengths(class).expect("a table with the lengths");
        let left = std::array::from_fn(|s| self.suit_free[s] - lengths[s]);
        let rows = self.completions.draw(left, &mut |n| below(next, n));
        (cards, rows)
    }
}

/// A uniform integer in `0..n` (`n` ≥ 1) from the words of `next` (Lemire's method).
fn below(next: &mut impl FnMut() -> u64, n: u64) -> u64 {
    let threshold = n.wrapping_neg() % n;
    loop {
        let m = u128::from(next()) * u128::from(n);
        if m as u64 >= threshold {
            return (m >> 64) as u64;
        }
    }
}
