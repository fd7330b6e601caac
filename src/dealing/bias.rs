//! Exact suit-length tables for constrained dealing: the uniform bias predeal of the ChaCha
//! generator, and the feasibility check of every bias predeal.
//!
//! A deal with card predeal and bias predeal is described, for the cards that are still free,
//! by a 4×4 table `T[hand][suit]` of how many free cards of each suit each hand receives. Row
//! sums are each hand's free slots, column sums each suit's free cards, and a biased cell is
//! pinned to `bias − predealt`. The number of deals with table `T` is
//! `Π_s c_s! / Π_{h,s} T[h][s]!`, so a uniformly random valid deal is obtained by drawing `T`
//! with probability proportional to `Π 1/T[h][s]!` and then splitting each suit's free cards
//! uniformly at random. The table is drawn hand by hand; `W(k, r)`, the total weight of the
//! completions for hands `k..4` given the remaining suit counts `r`, is computed once (a memo
//! over the reachable `r`), so each draw costs a few hundred multiplications and no rejection.

// Index loops mirror the algorithms as specified (hand × suit tables, slot ranges).
#![allow(clippy::needless_range_loop)]

/// States per level: remaining suit counts 0..=13 in each of 4 suits.
const STATES: usize = 14 * 14 * 14 * 14;

/// Weights of all completions, memoised per level and remaining-suit-count state.
#[derive(Clone, Debug)]
pub(crate) struct LengthSampler {
    /// Free slots per hand.
    slots: [u8; 4],
    /// Free cards per suit.
    cards: [u8; 4],
    /// Required free cards per (hand, suit); −1 when the cell is free.
    pinned: [[i8; 4]; 4],
    /// `W(k, r)` for k = 1, 2, 3 at `(k − 1) * STATES + index(r)`; negative = not computed.
    memo: Vec<f64>,
    /// `W(0, cards)`: the total weight; 0 means no valid deal exists.
    total: f64,
    /// 1/n! for n = 0..=13.
    inv_factorial: [f64; 14],
}

/// The memo index of a remaining-suit-count vector.
fn state_index(r: &[u8; 4]) -> usize {
    ((r[0] as usize * 14 + r[1] as usize) * 14 + r[2] as usize) * 14 + r[3] as usize
}

impl LengthSampler {
    /// Builds the sampler; `slots` and `cards` must have equal sums and `pinned` entries must fit.
    pub(crate) fn new(slots: [u8; 4], cards: [u8; 4], pinned: [[i8; 4]; 4]) -> LengthSampler {
        let mut inv_factorial = [1.0f64; 14];
        for n in 1..14 {
            inv_factorial[n] = inv_factorial[n - 1] / n as f64;
        }
        let mut sampler =
            LengthSampler { slots, cards, pinned, memo: vec![-1.0; 3 * STATES], total: 0.0, inv_factorial };
        let slot_sum: u32 = slots.iter().map(|&x| x as u32).sum();
        let card_sum: u32 = cards.iter().map(|&x| x as u32).sum();
        if slot_sum == card_sum {
            sampler.total = sampler.weight(0, cards);
        }
        sampler
    }

    /// Whether at least one deal satisfies the constraints.
    pub(crate) fn feasible(&self) -> bool {
        self.total > 0.0
    }

    /// Calls `visit(row, row_weight)` for every admissible row of hand `k` given the remaining
    /// suit counts `r` (row sum = the hand's free slots, pinned cells respected, `row <= r`).
    fn for_each_row(&self, k: usize, r: &[u8; 4], mut visit: impl FnMut([u8; 4], f64) -> bool) {
        let need = self.slots[k] as i32;
        let range = |s: usize| -> (i32, i32) {
            let p = self.pinned[k][s] as i32;
            if p >= 0 {
                (p, p)
            } else {
                (0, (r[s] as i32).min(need))
            }
        };
        let (lo0, hi0) = range(0);
        let (lo1, hi1) = range(1);
        let (lo2, hi2) = range(2);
        let (lo3, hi3) = range(3);
        if lo0 > r[0] as i32 || lo1 > r[1] as i32 || lo2 > r[2] as i32 || lo3 > r[3] as i32 {
            return;
        }
        for t0 in lo0..=hi0 {
            for t1 in lo1..=hi1.min(need - t0) {
                for t2 in lo2..=hi2.min(need - t0 - t1) {
                    let t3 = need - t0 - t1 - t2;
                    if t3 < lo3 || t3 > hi3 {
                        continue;
                    }
                    let w = self.inv_factorial[t0 as usize]
                        * self.inv_factorial[t1 as usize]
                        * self.inv_factorial[t2 as usize]
                        * self.inv_factorial[t3 as usize];
                    if !visit([t0 as u8, t1 as u8, t2 as u8, t3 as u8], w) {
                        return;
                    }
                }
            }
        }
    }

    /// `W(k, r)`, computing and memoising it when needed.
    fn weight(&mut self, k: usize, r: [u8; 4]) -> f64 {
        if k == 4 {
            return if r == [0; 4] { 1.0 } else { 0.0 };
        }
        if k > 0 {
            let cached = self.memo[(k - 1) * STATES + state_index(&r)];
            if cached >= 0.0 {
                return cached;
            }
        }
        let mut rows: Vec<([u8; 4], f64)> = Vec::new();
        self.for_each_row(k, &r, |t, w| {
            rows.push((t, w));
            true
        });
        let mut sum = 0.0;
        for (t, w) in rows {
            let rest = [r[0] - t[0], r[1] - t[1], r[2] - t[2], r[3] - t[3]];
            sum += w * self.weight(k + 1, rest);
        }
        if k > 0 {
            self.memo[(k - 1) * STATES + state_index(&r)] = sum;
        }
        sum
    }

    /// The memoised `W(k, r)` (every reachable state was computed by `new`).
    fn cached(&self, k: usize, r: &[u8; 4]) -> f64 {
        if k == 4 {
            return if *r == [0; 4] { 1.0 } else { 0.0 };
        }
        self.memo[(k - 1) * STATES + state_index(r)].max(0.0)
    }

    /// Draws a table `T[hand][suit]` of free cards; `uniform` yields numbers in [0, 1).
    /// Returns `None` when the constraints admit no deal.
    pub(crate) fn sample(&self, mut uniform: impl FnMut() -> f64) -> Option<[[u8; 4]; 4]> {
        if !self.feasible() {
            return None;
        }
        let mut table = [[0u8; 4]; 4];
        let mut r = self.cards;
        for k in 0..3 {
            let total = if k == 0 { self.total } else { self.cached(k, &r) };
            let target = uniform() * total;
            let mut acc = 0.0;
            let mut chosen: Option<[u8; 4]> = None;
            let mut last_positive: Option<[u8; 4]> = None;
            self.for_each_row(k, &r, |t, w| {
                let rest = [r[0] - t[0], r[1] - t[1], r[2] - t[2], r[3] - t[3]];
                let weight = w * self.cached(k + 1, &rest);
                if weight > 0.0 {
                    last_positive = Some(t);
                    acc += weight;
                    if acc > target {
                        chosen = Some(t);
                        return false;
                    }
                }
                true
            });
            let t = chosen.or(last_positive)?;
            table[k] = t;
            for s in 0..4 {
                r[s] -= t[s];
            }
        }
        table[3] = r;
        Some(table)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unconstrained_total_is_the_number_of_deals() {
        // Π_s 13! · W = 52! / (13!)^4 (the number of deals).
        let s = LengthSampler::new([13; 4], [13; 4], [[-1; 4]; 4]);
        let fact13: f64 = (1..=13).map(|x| x as f64).product();
        let deals = s.total * fact13.powi(4);
        assert!((deals / 5.364_473_776_548_879e28 - 1.0).abs() < 1e-9, "{deals}");
    }

    #[test]
    fn infeasible_constraints_are_detected() {
        // North must hold 13 spades and South 1 spade: 14 spades.
        let mut pinned = [[-1i8; 4]; 4];
        pinned[0][3] = 13;
        pinned[2][3] = 1;
        assert!(!LengthSampler::new([13; 4], [13; 4], pinned).feasible());
        // North void in three suits is fine (13 clubs).
        let mut pinned = [[-1i8; 4]; 4];
        pinned[0][1] = 0;
        pinned[0][2] = 0;
        pinned[0][3] = 0;
        assert!(LengthSampler::new([13; 4], [13; 4], pinned).feasible());
    }
}
