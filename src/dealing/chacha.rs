//! The native generator: ChaCha8 (`rand_chacha`) with exactly uniform dealing.
//!
//! Without bias predeal the free (non-predealt) cards are put through an unbiased Fisher–Yates
//! shuffle and handed out to the free slots, building the four hand bitmasks directly. The
//! bounded draws are batched (Brackett-Rozinsky and Lemire's "batched ranged random integer
//! generation"): one 64-bit output yields several Fisher–Yates indices by successive 64×64→128
//! multiplications, with Lemire's rejection test applied to the product of the bounds, so each
//! deal costs about five ChaCha words and no division on the common path.
//!
//! With bias predeal, a suit-length table is drawn from its exact distribution (see `bias`)
//! and each suit's free cards are then split uniformly, which makes every deal that meets the
//! card predeal and the bias lengths equally likely.
//!
//! Swapping (`-x 2`/`-x 3`) works as in DealerV2: a fresh deal, then cumulative exchanges of
//! the E/S/W hands.

// Index loops mirror the algorithms as specified (hand × suit tables, slot ranges).
#![allow(clippy::needless_range_loop)]

use super::bias::LengthSampler;
use crate::cards::{Card, Deal, Hand, Seat};
use rand_chacha::rand_core::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Largest product of bounds batched into one 64-bit draw; keeps the chance of the slow
/// rejection path below 2^-8 per draw.
const BATCH_LIMIT: u128 = 1 << 56;

/// One batch of consecutive Fisher–Yates steps served by a single 64-bit draw.
#[derive(Clone, Copy, Debug, Default)]
struct Batch {
    /// Number of steps.
    steps: u8,
    /// Product of their bounds.
    product: u64,
}

/// Per-suit state of the uniform bias predeal.
#[derive(Clone, Debug)]
struct BiasState {
    sampler: LengthSampler,
    /// Bit positions of each suit's free cards.
    suit_cards: [[u8; 13]; 4],
    suit_count: [u8; 4],
}

/// The ChaCha dealer.
#[derive(Clone, Debug)]
pub(crate) struct ChaChaDealer {
    rng: ChaCha8Rng,
    /// Bit positions (`suit*16 + rank`) of the free cards; the first `free_count` are used.
    free_cards: [u8; 52],
    free_count: usize,
    /// Free slots per seat.
    slots: [u8; 4],
    /// The predealt cards per seat.
    base: [u64; 4],
    batches: [Batch; 52],
    batch_count: usize,
    bias: Option<Box<BiasState>>,
    swap: u8,
    swap_index: u8,
    current: Deal,
}

/// The bit position of a card in a [`Hand`] mask.
fn bit_position(card: Card) -> u8 {
    card.suit().index() as u8 * 16 + card.rank()
}

impl ChaChaDealer {
    /// Sets up from a validated predeal and, when `bias` is given, a validated and feasible
    /// bias table (`pinned[hand][suit]` = free cards of the suit the hand must receive).
    pub(crate) fn new(seed: i64, predeal: &[(Seat, Card)], pinned: Option<[[i8; 4]; 4]>, swap: u8) -> ChaChaDealer {
        let mut base = [0u64; 4];
        let mut taken = 0u64;
        for &(seat, card) in predeal {
            base[seat.index()] |= card.bit();
            taken |= card.bit();
        }
        let mut slots = [0u8; 4];
        for s in 0..4 {
            slots[s] = 13 - base[s].count_ones() as u8;
        }
        let mut free_cards = [0u8; 52];
        let mut free_count = 0;
        let mut suit_cards = [[0u8; 13]; 4];
        let mut suit_count = [0u8; 4];
        for o in 0..52 {
            let card = Card::from_ordinal(o);
            if taken & card.bit() == 0 {
                free_cards[free_count] = bit_position(card);
                free_count += 1;
                let s = card.suit().index();
                suit_cards[s][suit_count[s] as usize] = bit_position(card);
                suit_count[s] += 1;
            }
        }
        // Fisher–Yates from the top stops once only North's free slots are left: their order
        // does not matter, and the cards left for them are already a uniformly random set.
        let mut batches = [Batch::default(); 52];
        let mut batch_count = 0;
        let mut bound = free_count as u64;
        let last = (slots[0] as u64).max(1);
        while bound > last {
            let mut product: u128 = 1;
            let mut steps = 0u8;
            while bound > last && product * bound as u128 <= BATCH_LIMIT {
                product *= bound as u128;
                steps += 1;
                bound -= 1;
            }
            batches[batch_count] = Batch { steps, product: product as u64 };
            batch_count += 1;
        }
        let bias = pinned.map(|pinned| {
            Box::new(BiasState { sampler: LengthSampler::new(slots, suit_count, pinned), suit_cards, suit_count })
        });
        ChaChaDealer {
            rng: ChaCha8Rng::seed_from_u64(seed as u64),
            free_cards,
            free_count,
            slots,
            base,
            batches,
            batch_count,
            bias,
            swap,
            swap_index: 0,
            current: Deal::default(),
        }
    }

    /// Whether the bias (if any) admits at least one deal.
    pub(crate) fn bias_feasible(&self) -> bool {
        self.bias.as_ref().is_none_or(|b| b.sampler.feasible())
    }

    /// An unbiased integer in 0..n (n >= 1), Lemire's method on 32 bits.
    #[inline]
    fn below(&mut self, n: u32) -> u32 {
        let mut m = self.rng.next_u32() as u64 * n as u64;
        if (m as u32) < n {
            let threshold = n.wrapping_neg() % n;
            while (m as u32) < threshold {
                m = self.rng.next_u32() as u64 * n as u64;
            }
        }
        (m >> 32) as u32
    }

    /// A uniform f64 in [0, 1) with 53 random bits.
    fn uniform(rng: &mut ChaCha8Rng) -> f64 {
        (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Unbiased Fisher–Yates over the free cards, batched.
    #[inline]
    fn shuffle_free_cards(&mut self) {
        let mut top = self.free_count;
        for b in 0..self.batch_count {
            let Batch { steps, product } = self.batches[b];
            let steps = steps as usize;
            loop {
                let first = self.rng.next_u64();
                let mut r = first;
                let mut bound = top as u64;
                for k in 0..steps {
                    let m = r as u128 * bound as u128;
                    self.free_cards.swap(top - 1 - k, (m >> 64) as usize);
                    r = m as u64;
                    bound -= 1;
                }
                if r < product {
                    let threshold = product.wrapping_neg() % product;
                    if r < threshold {
                        // Rejected: undo this batch's swaps (in reverse) and draw again.
                        self.undo_batch(top, steps, first);
                        continue;
                    }
                }
                break;
            }
            top -= steps;
        }
    }

    /// Reverts the swaps one batch made from the 64-bit draw `first` (its rejected draw).
    #[cold]
    fn undo_batch(&mut self, top: usize, steps: usize, first: u64) {
        let mut digits = [0usize; 64];
        let mut r = first;
        let mut bound = top as u64;
        for d in digits.iter_mut().take(steps) {
            let m = r as u128 * bound as u128;
            *d = (m >> 64) as usize;
            r = m as u64;
            bound -= 1;
        }
        for k in (0..steps).rev() {
            self.free_cards.swap(top - 1 - k, digits[k]);
        }
    }

    /// A fresh uniformly random deal meeting the predeal (no bias).
    #[inline]
    fn fresh_deal(&mut self) -> Deal {
        self.shuffle_free_cards();
        let mut hands = self.base;
        let mut pos = 0;
        for (h, hand) in hands.iter_mut().enumerate() {
            let end = pos + self.slots[h] as usize;
            let mut mask = 0u64;
            for &b in &self.free_cards[pos..end] {
                mask |= 1u64 << b;
            }
            *hand |= mask;
            pos = end;
        }
        Deal([Hand(hands[0]), Hand(hands[1]), Hand(hands[2]), Hand(hands[3])])
    }

    /// A fresh uniformly random deal meeting the predeal and the bias lengths.
    fn fresh_biased_deal(&mut self, mut state: Box<BiasState>) -> (Box<BiasState>, Option<Deal>) {
        let rng = &mut self.rng;
        let table = state.sampler.sample(|| Self::uniform(rng));
        let Some(table) = table else {
            return (state, None);
        };
        let mut hands = self.base;
        for s in 0..4 {
            let n = state.suit_count[s] as usize;
            for i in (1..n).rev() {
                let j = self.below(i as u32 + 1) as usize;
                state.suit_cards[s].swap(i, j);
            }
            let mut pos = 0;
            for (h, hand) in hands.iter_mut().enumerate() {
                for _ in 0..table[h][s] {
                    *hand |= 1u64 << state.suit_cards[s][pos];
                    pos += 1;
                }
            }
        }
        (state, Some(Deal([Hand(hands[0]), Hand(hands[1]), Hand(hands[2]), Hand(hands[3])])))
    }

    /// The next generated deal.
    pub(crate) fn deal(&mut self) -> Option<Deal> {
        if self.swap == 0 {
            return self.next_fresh();
        }
        let h = &mut self.current.0;
        match self.swap_index {
            1 | 4 => h.swap(Seat::East.index(), Seat::West.index()),
            2 | 5 => h.swap(Seat::South.index(), Seat::West.index()),
            3 => h.swap(Seat::East.index(), Seat::South.index()),
            _ => {
                let fresh = self.next_fresh()?;
                self.current = fresh;
            }
        }
        self.swap_index += 1;
        if (self.swap == 2 && self.swap_index > 1) || (self.swap == 3 && self.swap_index > 5) {
            self.swap_index = 0;
        }
        Some(self.current)
    }

    /// A fresh deal, biased or not.
    #[inline]
    fn next_fresh(&mut self) -> Option<Deal> {
        match self.bias.take() {
            None => Some(self.fresh_deal()),
            Some(state) => {
                let (state, deal) = self.fresh_biased_deal(state);
                self.bias = Some(state);
                deal
            }
        }
    }

    /// `rnd(n)`: uniform in 0..n for n >= 1; 0 without a draw for n <= 0.
    pub(crate) fn rnd(&mut self, n: i32) -> i32 {
        if n <= 0 {
            0
        } else {
            self.below(n as u32) as i32
        }
    }
}
