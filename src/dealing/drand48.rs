//! DealerV2 4.3.3's generator: glibc `drand48` and DealerV2's dealing order.
//!
//! Three of DealerV2's modes live here (the fourth, bias predeal, is in `v2bias`):
//! - default: one persistent deck (initially SA..C2) shuffled in place by Fisher–Yates
//!   (i = 51..1, j = `(int)(drand48() * (i+1))`); a produced deal has each hand sorted
//!   descending by its `(suit<<4)|rank` byte, which is where the next shuffle starts;
//! - predeal: a fixed stacked deck whose empty slots come first in each hand, filled in slot
//!   order from a persistent `small_pack` of the remaining cards that is reshuffled every deal;
//! - swapping (`-x 2`/`-x 3`): a real shuffle followed by cumulative exchanges of whole hands.

use super::v2bias::V2Bias;
use crate::cards::{Card, Seat};

/// 2^48 − 1.
const MASK48: u64 = (1 << 48) - 1;
/// The LCG's multiplier and increment: `state' = (MULTIPLIER · state + INCREMENT) mod 2^48`.
const MULTIPLIER: u64 = 0x5_DEEC_E66D;
const INCREMENT: u64 = 0xB;

/// `JUMPS[k]`: the multiplier and increment of `k + 1` steps at once, so that the states of a
/// whole shuffle follow from its first state independently of one another (no chain of
/// dependent multiplications).
const JUMPS: [(u64, u64); 52] = jumps();

/// Builds [`JUMPS`].
const fn jumps() -> [(u64, u64); 52] {
    let mut table = [(0u64, 0u64); 52];
    let (mut multiplier, mut increment) = (1u64, 0u64);
    let mut k = 0;
    while k < 52 {
        multiplier = multiplier.wrapping_mul(MULTIPLIER) & MASK48;
        increment = increment.wrapping_mul(MULTIPLIER).wrapping_add(INCREMENT) & MASK48;
        table[k] = (multiplier, increment);
        k += 1;
    }
    table
}
/// DealerV2's empty-slot byte; larger than every card byte.
pub(crate) const NO_CARD: Card = Card(0x7F);

/// glibc `drand48`: a 48-bit LCG whose output is the new state divided by 2^48.
#[derive(Clone, Debug)]
pub(crate) struct Drand48 {
    state: u64,
}

impl Drand48 {
    /// `srand48(seed)`: only the low 32 bits of the seed count.
    pub(crate) fn from_seed(seed: i64) -> Drand48 {
        Drand48 { state: (((seed as u64) & 0xFFFF_FFFF) << 16) | 0x330E }
    }

    /// `seed48` of a raw 48-bit state (higher bits are dropped).
    pub(crate) fn from_state(state: u64) -> Drand48 {
        Drand48 { state: state & MASK48 }
    }

    /// The next `drand48()` value in [0, 1).
    #[inline]
    pub(crate) fn next_f64(&mut self) -> f64 {
        self.state = (self.state.wrapping_mul(MULTIPLIER).wrapping_add(INCREMENT)) & MASK48;
        Self::fraction(self.state)
    }

    /// `(int)(drand48() * top)` for the state `state` and `1 ≤ top ≤ 52`, in integers: the
    /// double product is `state · top / 2^48` rounded to 53 significant bits. Below 2^53 the
    /// integer product is exact; from 2^53 on (54 bits) an odd product lies half-way between two
    /// doubles and rounds to the one with an even mantissa: up when it ends in binary 11, down
    /// when it ends in 01 (which never changes the truncated quotient).
    #[inline(always)]
    fn scaled(state: u64, top: u64) -> u64 {
        let product = state * top;
        let rounds_up = product >> 53 != 0 && product & 3 == 3;
        (product + u64::from(rounds_up)) >> 48
    }

    /// The `drand48()` value of a state.
    #[inline(always)]
    fn fraction(state: u64) -> f64 {
        state as f64 / (1u64 << 48) as f64
    }

    /// `gen_rand_slot(top)` and `rnd(top)`: `(int)(drand48() * (double)top)`.
    #[inline]
    pub(crate) fn slot(&mut self, top: i32) -> i32 {
        (self.next_f64() * top as f64) as i32
    }

    /// DealerV2's `Shuffle`: in-place Fisher–Yates from the last element down to index 1
    /// (at most 52 elements), draw `k` from the state `k + 1` steps on ([`JUMPS`]).
    pub(crate) fn shuffle(&mut self, cards: &mut [Card]) {
        debug_assert!(cards.len() <= 52);
        let first = self.state;
        let mut state = first;
        // Below 32 cards a product stays under 2^53: it is exact and needs no rounding.
        let exact_from = cards.len().min(32);
        let mut jumps = JUMPS.iter();
        for (i, &(multiplier, increment)) in (exact_from..cards.len()).rev().zip(&mut jumps) {
            state = multiplier.wrapping_mul(first).wrapping_add(increment) & MASK48;
            cards.swap(i, Self::scaled(state, i as u64 + 1) as usize);
        }
        for (i, &(multiplier, increment)) in (1..exact_from).rev().zip(jumps) {
            state = multiplier.wrapping_mul(first).wrapping_add(increment) & MASK48;
            cards.swap(i, ((state * (i as u64 + 1)) >> 48) as usize);
        }
        self.state = state;
    }
}

/// Which of DealerV2's dealing modes is in force (after the mode precedence rules).
#[derive(Clone, Debug)]
enum V2Mode {
    /// Persistent deck, shuffled in place (also used, with `swap`, for swapping mode).
    Default,
    /// Card predeal: a fixed stacked deck filled from the persistent small pack.
    Predeal { stacked: [Card; 52], small_pack: [Card; 52], small_size: usize },
    /// Bias predeal.
    Bias(Box<V2Bias>),
}

/// DealerV2's dealing state.
#[derive(Clone, Debug)]
pub(crate) struct V2Dealer {
    rng: Drand48,
    curdeal: [Card; 52],
    mode: V2Mode,
    swap: u8,
    swap_index: u8,
}

/// The full pack in DealerV2's `newpack` order: SA, SK, …, S2, HA, …, C2.
pub(crate) fn full_pack_descending() -> [Card; 52] {
    let mut pack = [Card(0); 52];
    for (i, c) in pack.iter_mut().enumerate() {
        *c = Card::from_ordinal(51 - i);
    }
    pack
}

impl V2Dealer {
    /// A dealer for default or swapping mode (`swap` 0, 2 or 3).
    pub(crate) fn new_default(rng: Drand48, swap: u8) -> V2Dealer {
        V2Dealer { rng, curdeal: full_pack_descending(), mode: V2Mode::Default, swap, swap_index: 0 }
    }

    /// A dealer for card predeal mode; `predeal` is validated and in textual order.
    pub(crate) fn new_predeal(rng: Drand48, predeal: &[(Seat, Card)]) -> V2Dealer {
        let mut stacked = [NO_CARD; 52];
        let mut taken = [false; 52];
        for &(seat, card) in predeal {
            taken[card.ordinal()] = true;
            let base = seat.index() * 13;
            if let Some(slot) = (base..base + 13).find(|&j| stacked[j] == NO_CARD) {
                stacked[slot] = card;
            }
        }
        sort_hands(&mut stacked);
        let mut small_pack = [NO_CARD; 52];
        let mut small_size = 0;
        for card in full_pack_descending() {
            if !taken[card.ordinal()] {
                small_pack[small_size] = card;
                small_size += 1;
            }
        }
        V2Dealer {
            rng,
            curdeal: stacked,
            mode: V2Mode::Predeal { stacked, small_pack, small_size },
            swap: 0,
            swap_index: 0,
        }
    }

    /// A dealer for bias predeal mode.
    pub(crate) fn new_bias(rng: Drand48, bias: &[[i8; 4]; 4]) -> V2Dealer {
        V2Dealer {
            rng,
            curdeal: full_pack_descending(),
            mode: V2Mode::Bias(Box::new(V2Bias::new(bias))),
            swap: 0,
            swap_index: 0,
        }
    }

    /// Exchanges the 13-card blocks of two seats in `curdeal`.
    fn swap_hands(&mut self, a: Seat, b: Seat) {
        let (a, b) = (a.index() * 13, b.index() * 13);
        for k in 0..13 {
            self.curdeal.swap(a + k, b + k);
        }
    }

    /// Makes the next generated deal, which [`slots`](Self::slots) then holds; `false` when
    /// bias predeal rejected the attempt.
    pub(crate) fn advance(&mut self) -> bool {
        match &mut self.mode {
            V2Mode::Default => {
                match self.swap_index {
                    1 | 4 => self.swap_hands(Seat::East, Seat::West),
                    2 | 5 => self.swap_hands(Seat::South, Seat::West),
                    3 => self.swap_hands(Seat::East, Seat::South),
                    _ => self.rng.shuffle(&mut self.curdeal),
                }
                if self.swap != 0 {
                    self.swap_index += 1;
                    if (self.swap == 2 && self.swap_index > 1) || (self.swap == 3 && self.swap_index > 5) {
                        self.swap_index = 0;
                    }
                }
            }
            V2Mode::Predeal { stacked, small_pack, small_size } => {
                self.curdeal = *stacked;
                self.rng.shuffle(&mut small_pack[..*small_size]);
                let mut next = 0;
                for slot in self.curdeal.iter_mut() {
                    if *slot == NO_CARD && next < *small_size {
                        *slot = small_pack[next];
                        next += 1;
                    }
                }
            }
            V2Mode::Bias(bias) => {
                if !bias.make_deal(&mut self.rng, &mut self.curdeal) {
                    return false;
                }
            }
        }
        true
    }

    /// The deck in seat-slot order: the last deal made (sorting within hands, as
    /// [`produced`](Self::produced) does, keeps each hand's cards).
    pub(crate) fn slots(&self) -> &[Card; 52] {
        &self.curdeal
    }

    /// The last deal was produced: sort every hand descending (`sortDeal`).
    pub(crate) fn produced(&mut self) {
        sort_hands(&mut self.curdeal);
    }

    /// Sorts the given seats' hands descending in place (what `opc()` does to its side).
    pub(crate) fn sort_seats(&mut self, seats: &[Seat]) {
        for seat in seats {
            let base = seat.index() * 13;
            sort_descending(&mut self.curdeal[base..base + 13]);
        }
    }

    /// `rnd(n)` from the same stream.
    pub(crate) fn rnd(&mut self, n: i32) -> i32 {
        self.rng.slot(n)
    }
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
fn sort_descending(cards: &mut [Card]) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_scaling_equals_the_double_product() {
        let by_doubles = |state: u64, top: u64| (Drand48::fraction(state) * top as f64) as i32 as u64;
        let mut lcg = Drand48::from_seed(5);
        let mut rounded_up = 0;
        for top in 1..=52u64 {
            // Products just below, at and above each multiple of 2^48, and random states.
            for k in 0..top {
                for delta in 0..8u64 {
                    for target in [(k << 48).wrapping_sub(delta), (k << 48) + delta] {
                        let state = (target / top).min(MASK48);
                        for s in [state.saturating_sub(1), state, (state + 1).min(MASK48)] {
                            assert_eq!(Drand48::scaled(s, top), by_doubles(s, top), "state {s:#x}, top {top}");
                            rounded_up += usize::from(Drand48::scaled(s, top) != (s * top) >> 48);
                        }
                    }
                }
            }
            for _ in 0..20_000 {
                lcg.next_f64();
                assert_eq!(Drand48::scaled(lcg.state, top), by_doubles(lcg.state, top));
            }
        }
        // Some of those products rounded up across a multiple of 2^48.
        assert!(rounded_up > 0);
    }

    #[test]
    fn shuffles_by_jumps_equal_draw_by_draw_shuffles() {
        for (seed, len) in [(1i64, 52usize), (42, 52), (7, 37), (9, 2), (11, 1), (13, 0)] {
            let mut jumping = Drand48::from_seed(seed);
            let mut stepping = Drand48::from_seed(seed);
            let mut a = full_pack_descending();
            let mut b = a;
            for round in 0..2000 {
                jumping.shuffle(&mut a[..len]);
                for i in (1..len).rev() {
                    let j = stepping.slot(i as i32 + 1) as usize;
                    b.swap(i, j);
                }
                assert_eq!(a, b, "seed {seed}, {len} cards, round {round}");
                assert_eq!(jumping.state, stepping.state);
            }
        }
    }

    #[test]
    fn hands_sort_descending_like_a_general_sort() {
        let mut deck = full_pack_descending();
        Drand48::from_seed(9).shuffle(&mut deck);
        deck[5] = NO_CARD;
        let mut expected = deck;
        for hand in expected.chunks_exact_mut(13) {
            hand.sort_unstable_by(|a, b| b.cmp(a));
        }
        sort_hands(&mut deck);
        assert_eq!(deck, expected);
    }

    #[test]
    fn srand48_seeding_keeps_low_32_bits() {
        let a = Drand48::from_seed(-5);
        let b = Drand48::from_seed(4_294_967_291);
        assert_eq!(a.state, b.state);
        assert_eq!(Drand48::from_seed(1).state, 0x1_330E);
    }

    #[test]
    fn drand48_matches_glibc() {
        // Values printed by glibc's own srand48/seed48/drand48 (through Python ctypes).
        let mut r = Drand48::from_seed(1);
        assert_eq!(r.next_f64(), 0.041630344771878214);
        assert_eq!(r.next_f64(), 0.45449244472862915);
        assert_eq!(r.next_f64(), 0.8348172181669149);
        let mut r = Drand48::from_seed(-5);
        assert_eq!(r.next_f64(), 0.8168164927783472);
        assert_eq!(r.next_f64(), 0.22694965926663713);
        // seed48({0x1234, 0x5678, 0x9abc}): the words are the state, least significant first.
        let mut r = Drand48::from_state(0x9abc_5678_1234);
        assert_eq!(r.next_f64(), 0.286599243634722);
        assert_eq!(r.next_f64(), 0.9343890928194512);
    }
}
