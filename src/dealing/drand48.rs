//! glibc's `drand48` generator, as DealerV2 4.3.3 draws from it: `srand48`/`seed48` seeding,
//! `(int)(drand48() * top)` slots and DealerV2's in-place Fisher–Yates `Shuffle`.
//!
//! Only the random stream lives here; what DealerV2 deals with it (its modes and its deck) is in
//! `v2dealer` and `v2bias`, which build on this module and never the other way round.

use crate::cards::Card;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dealing::v2pack::full_pack_descending;

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
