//! The classic dealer's generator: glibc `srand`/`rand` (the `random_r` TYPE_3 additive lagged
//! Fibonacci generator) and the Debian `dealer` binary's dealing order.
//!
//! The deck is one persistent array of 52 cards in seat-slot order, set up once from the
//! predeal (predealt cards in their seat's lowest free slots, the rest in C2..SA order). Each
//! generated deal swaps every free position, in position order, with a free position chosen by
//! the low 16 bits of `rand()` through the "zero52" table (free positions repeated cyclically,
//! the incomplete last cycle rejected). Swapping modes `-2`/`-3` replace some shuffles by
//! exchanges of whole hands. Bias predeal has no effect in classic dealer and is not seen here.

use crate::cards::{Card, Seat};

/// Number of words in glibc's TYPE_3 state ring.
const RING: usize = 31;

/// Values computed at once: `r[i] = r[i − 31] + r[i − 3]` runs over a block of this many. At
/// least 52, so that one deal's draws can be read at once ([`GlibcRand::upcoming`]).
const BLOCK: usize = 512;

/// glibc `rand()` after `srand(seed)`, bit for bit.
#[derive(Clone, Debug)]
pub(crate) struct GlibcRand {
    /// The generator's words in the order they were made: at least the 31 before the next
    /// one, and the words not returned yet; `rand()` returns the next one shifted right by one.
    history: [u32; RING + BLOCK],
    /// The next word to return (at least `RING`: the recurrence's 31 words come before it).
    pos: usize,
}

impl GlibcRand {
    /// `srand(seed)` as the classic binary calls it: the seed is truncated to an unsigned 32-bit
    /// value and 0 becomes 1.
    pub(crate) fn new(seed: i64) -> GlibcRand {
        let mut s = seed as u64 as u32;
        if s == 0 {
            s = 1;
        }
        let mut ring = [0u32; RING];
        ring[0] = s;
        for i in 1..RING {
            // Park–Miller "minimal standard" step with Schrage's method on signed 32-bit values.
            let x = ring[i - 1] as i32;
            let hi = x / 127_773;
            let lo = x % 127_773;
            let mut w = 16_807i32.wrapping_mul(lo).wrapping_sub(2_836i32.wrapping_mul(hi));
            if w < 0 {
                w = w.wrapping_add(2_147_483_647);
            }
            ring[i] = w as u32;
        }
        // glibc starts with its front pointer at word 3 and the rear at word 0: the oldest word
        // is word 3, the newest word 2. They go at the end of the buffer, as if just returned,
        // and the first refill computes the words after them.
        let mut history = [0u32; RING + BLOCK];
        for (k, word) in history[BLOCK..].iter_mut().enumerate() {
            *word = ring[(3 + k) % RING];
        }
        let mut rng = GlibcRand { history, pos: RING + BLOCK };
        rng.refill();
        for _ in 0..310 {
            rng.next();
        }
        rng
    }

    /// Moves the words not returned yet (with the 31 before them) to the front and computes
    /// words after them to the end of the buffer.
    #[inline(never)]
    fn refill(&mut self) {
        let keep_from = (self.pos - RING).min(BLOCK);
        self.history.copy_within(keep_from.., 0);
        // r[i] = r[i − 31] + r[i − 3], three at a time: the last three stay in registers.
        let start = RING + BLOCK - keep_from;
        let h = &mut self.history;
        let (mut a, mut b, mut c) = (h[start - 3], h[start - 2], h[start - 1]);
        let mut i = start;
        while i + 3 <= RING + BLOCK {
            a = a.wrapping_add(h[i - RING]);
            b = b.wrapping_add(h[i + 1 - RING]);
            c = c.wrapping_add(h[i + 2 - RING]);
            h[i] = a;
            h[i + 1] = b;
            h[i + 2] = c;
            i += 3;
        }
        for j in i..RING + BLOCK {
            h[j] = h[j - RING].wrapping_add(h[j - 3]);
        }
        self.pos -= keep_from;
    }

    /// The next `rand()` value, 0 ..= 2^31 − 1.
    #[inline]
    pub(crate) fn next(&mut self) -> u32 {
        if self.pos == RING + BLOCK {
            self.refill();
        }
        let v = self.history[self.pos];
        self.pos += 1;
        v >> 1
    }

    /// The next `n` (at most [`BLOCK`]) words, without returning them: `rand()` values are the
    /// words shifted right by one. [`skip`](Self::skip) returns them.
    #[inline]
    fn upcoming(&mut self, n: usize) -> &[u32] {
        if self.pos + n > RING + BLOCK {
            self.refill();
        }
        &self.history[self.pos..self.pos + n]
    }

    /// Returns `n` values (as `n` calls of [`next`](Self::next) would) after
    /// [`upcoming`](Self::upcoming) showed at least that many.
    #[inline]
    fn skip(&mut self, n: usize) {
        self.pos += n;
    }

    /// Classic `rnd(n)`: `(int)((double)n * rand() / 2147483648.0)`.
    pub(crate) fn rnd(&mut self, n: i32) -> i32 {
        let r = self.next();
        ((n as f64) * (r as f64) / 2_147_483_648.0) as i32
    }
}

/// `x % d` for 16-bit `x` by multiplications (Lemire, Kaser and Kurz, "Faster remainder by
/// direct computation": a 32-bit fraction is exact for 16-bit numerators), for `1 ≤ d ≤ 52`.
#[derive(Clone, Copy, Debug)]
struct FastModulus {
    divisor: u64,
    magic: u32,
}

impl FastModulus {
    fn new(divisor: u32) -> FastModulus {
        FastModulus { divisor: u64::from(divisor), magic: (u32::MAX / divisor).wrapping_add(1) }
    }

    #[inline(always)]
    fn of(self, x: u16) -> u32 {
        let low = self.magic.wrapping_mul(u32::from(x));
        ((u64::from(low) * self.divisor) >> 32) as u32
    }
}

/// Slots of the deck array: 52 used, 64 so that positions masked with 63 need no bounds check.
const DECK_SLOTS: usize = 64;

/// The classic dealer's dealing state: persistent deck, free positions and swap cycle.
#[derive(Clone, Debug)]
pub(crate) struct ClassicDealer {
    rng: GlibcRand,
    deck: [Card; DECK_SLOTS],
    /// The free positions in ascending order (the first `free_count` entries; 64 of them, so
    /// that an index masked with 63 needs no bounds check).
    free_positions: [u8; 64],
    free_count: u32,
    /// `% free_count` without a division.
    modulus: FastModulus,
    /// `F * floor(65536 / F)`: table indices at or above it are rejected.
    limit: u32,
    swap: u8,
    swap_index: u8,
}

impl ClassicDealer {
    /// Sets up the deck from an already validated predeal (seat, card) list in textual order.
    pub(crate) fn new(seed: i64, predeal: &[(Seat, Card)], swap: u8) -> ClassicDealer {
        let mut stacked: [Option<Card>; 52] = [None; 52];
        let mut taken = [false; 52];
        for &(seat, card) in predeal {
            taken[card.ordinal()] = true;
            let base = seat.index() * 13;
            if let Some(slot) = (base..base + 13).find(|&j| stacked[j].is_none()) {
                stacked[slot] = Some(card);
            }
        }
        let mut rest = (0..52).filter(|&o| !taken[o]).map(Card::from_ordinal);
        let mut deck = [Card(0); DECK_SLOTS];
        let mut free_positions = [0u8; 64];
        let mut free_count = 0u32;
        for i in 0..52 {
            match stacked[i] {
                Some(c) => deck[i] = c,
                None => {
                    deck[i] = rest.next().unwrap_or(Card(0));
                    free_positions[free_count as usize] = i as u8;
                    free_count += 1;
                }
            }
        }
        let limit = if free_count > 0 { free_count * (65_536 / free_count) } else { 0 };
        ClassicDealer {
            rng: GlibcRand::new(seed),
            deck,
            free_positions,
            free_count,
            modulus: FastModulus::new(free_count.max(1)),
            limit,
            swap,
            swap_index: 0,
        }
    }

    /// The naive "swap each free position with a random free position" pass. The partners
    /// are drawn first, in position order as classic dealer draws them, and the swaps done
    /// after, so that the swaps' addresses are known before they run. The draws come from the
    /// next `n` values at once, with no branch (a loop the compiler vectorises); only when one
    /// of them is rejected (one deal in about 80) are they drawn one by one.
    fn shuffle(&mut self) {
        let n = self.free_count as usize;
        let (limit, modulus) = (self.limit, self.modulus);
        // partners[k]: the rank of free position k's partner among the free positions.
        let mut partners = [0u8; 52];
        let values = self.rng.upcoming(n);
        let mut rejected = false;
        for (partner, &word) in partners.iter_mut().zip(values) {
            let idx = (word >> 1) & 0xFFFF;
            rejected |= idx >= limit;
            *partner = modulus.of(idx as u16) as u8;
        }
        if rejected {
            for partner in &mut partners[..n] {
                *partner = loop {
                    let idx = self.rng.next() & 0xFFFF;
                    if idx < limit {
                        break modulus.of(idx as u16) as u8;
                    }
                };
            }
        } else {
            self.rng.skip(n);
        }
        if n == 52 {
            // No predeal: the free positions are the positions.
            for (i, &j) in partners.iter().enumerate() {
                self.deck.swap(i & 63, usize::from(j) & 63);
            }
        } else {
            let free = &self.free_positions;
            for (&i, &j) in free[..n].iter().zip(&partners) {
                self.deck.swap(usize::from(i) & 63, usize::from(free[usize::from(j) & 63]) & 63);
            }
        }
    }

    /// Exchanges the 13-card blocks of two seats.
    fn swap_hands(&mut self, a: Seat, b: Seat) {
        let (a, b) = (a.index() * 13, b.index() * 13);
        for k in 0..13 {
            self.deck.swap(a + k, b + k);
        }
    }

    /// Makes the next generated deal; [`slots`](Self::slots) then holds it.
    pub(crate) fn advance(&mut self) {
        match self.swap_index {
            1 | 4 => self.swap_hands(Seat::East, Seat::West),
            2 | 5 => self.swap_hands(Seat::South, Seat::West),
            3 => self.swap_hands(Seat::East, Seat::South),
            _ => self.shuffle(),
        }
        if self.swap != 0 {
            self.swap_index += 1;
            if (self.swap == 2 && self.swap_index > 1) || (self.swap == 3 && self.swap_index > 5) {
                self.swap_index = 0;
            }
        }
    }

    /// The deck in seat-slot order: the last deal made.
    pub(crate) fn slots(&self) -> &[Card; 52] {
        self.deck.first_chunk().expect("64 slots")
    }

    /// `rnd(n)` from the same stream.
    pub(crate) fn rnd(&mut self, n: i32) -> i32 {
        self.rng.rnd(n)
    }
}

#[cfg(test)]
mod tests {
    use super::FastModulus;

    #[test]
    fn fast_modulus_is_the_remainder() {
        for d in 1..=52u32 {
            let m = FastModulus::new(d);
            for x in 0..=u16::MAX {
                assert_eq!(m.of(x), u32::from(x) % d, "{x} % {d}");
            }
        }
    }

    use super::*;

    /// Classic dealer's shuffle as its source reads: each free position in turn swapped with
    /// the free position the next accepted `rand()` value names.
    fn reference_shuffle(rng: &mut GlibcRand, deck: &mut [Card; 52], free: &[u8]) {
        let n = free.len() as u32;
        let limit = n * (65_536 / n);
        for &i in free {
            let idx = loop {
                let idx = rng.next() & 0xFFFF;
                if idx < limit {
                    break idx;
                }
            };
            deck.swap(usize::from(i), usize::from(free[(idx % n) as usize]));
        }
    }

    #[test]
    fn shuffles_match_the_draw_by_draw_shuffle() {
        let predeal = [(Seat::South, Card::from_ordinal(51)), (Seat::West, Card::from_ordinal(7))];
        for (seed, predeal) in [(1i64, &predeal[..0]), (77, &predeal[..]), (123_456, &predeal[..1])] {
            let mut dealer = ClassicDealer::new(seed, predeal, 0);
            let mut rng = GlibcRand::new(seed);
            let mut deck = *dealer.slots();
            let free = dealer.free_positions[..dealer.free_count as usize].to_vec();
            // 20,000 deals include about 250 with a rejected draw.
            for deal in 0..20_000 {
                dealer.advance();
                reference_shuffle(&mut rng, &mut deck, &free);
                assert_eq!(dealer.slots(), &deck, "seed {seed}, deal {deal}");
            }
        }
    }

    #[test]
    fn glibc_rand_first_outputs_match_appendix_a1() {
        let expected = [1_804_289_383u32, 846_930_886, 1_681_692_777, 1_714_636_915, 1_957_747_793];
        for seed in [1i64, 0, 4_294_967_297] {
            let mut r = GlibcRand::new(seed);
            let got: Vec<u32> = (0..5).map(|_| r.next()).collect();
            assert_eq!(got, expected, "seed {seed}");
        }
    }
}
