//! DealerV2 4.3.3's bias predeal dealing (`predeal hearts(west)==6` …), draw for draw.
//!
//! Per deal: each biased suit is shuffled and its biased lengths are handed out to the hands in
//! N..W order; the rest of the pack is shuffled; the hands with a bias ("TF" hands) are then
//! completed, most constrained first, from cards of their unbiased suits (with DealerV2's
//! peculiar "move the skipped card five places on" bookkeeping); finally the hands without a
//! bias take the remaining cards. When a biased hand cannot be completed the attempt is
//! rejected (DealerV2's `DL_ERR_BIAS`): it still counts as a generated deal.
//!
//! Builds on the `drand48` generator and the `v2pack` pack; it must not use `v2dealer`, which
//! holds a [`V2Bias`] for its bias mode.

// Index loops mirror the algorithms as specified (hand × suit tables, slot ranges).
#![allow(clippy::needless_range_loop)]

use super::drand48::Drand48;
use super::v2pack::NO_CARD;
use crate::cards::Card;

/// `xs` marker of a hand already filled.
const XS_DONE: i32 = 99;
/// `xs` marker of a hand without a bias.
const XS_NONE: i32 = 999;

/// Set-up and scratch state of DealerV2's bias predeal.
#[derive(Clone, Debug)]
pub(crate) struct V2Bias {
    /// `bias[hand][suit]`, −1 when unset.
    bias: [[i8; 4]; 4],
    /// Sum of the set lengths per suit.
    total: [i32; 4],
    /// Whether a hand has at least one set length.
    constrained: [bool; 4],
    /// Sum of the set lengths per hand.
    length: [i32; 4],
    /// Free slots per constrained hand after its biased suits: 13 − length.
    open_slots: [i32; 4],
    /// Per-deal scratch: unbiased cards left per suit.
    left: [i32; 4],
    /// Per-deal scratch: each hand's excess (DealerV2's `xs`).
    excess: [i32; 4],
    /// Per-deal scratch: the suit-ordered source pack.
    src: [Card; 52],
}

impl V2Bias {
    /// `init_bias_deal` for a validated bias table.
    pub(crate) fn new(bias: &[[i8; 4]; 4]) -> V2Bias {
        let mut total = [0i32; 4];
        let mut constrained = [false; 4];
        let mut length = [0i32; 4];
        let mut open_slots = [0i32; 4];
        for h in 0..4 {
            for s in 0..4 {
                let b = bias[h][s] as i32;
                total[s] += b.max(0);
                if b >= 0 {
                    constrained[h] = true;
                }
                length[h] += b.max(0);
            }
            open_slots[h] = 13 - length[h];
        }
        V2Bias {
            bias: *bias,
            total,
            constrained,
            length,
            open_slots,
            left: [0; 4],
            excess: [XS_NONE; 4],
            src: [NO_CARD; 52],
        }
    }

    /// DealerV2's `excess(h)`.
    fn excess_of(&self, h: usize) -> i32 {
        if !self.constrained[h] {
            return XS_NONE;
        }
        if self.excess[h] == XS_DONE {
            return XS_DONE;
        }
        let vpop: i32 = (0..4).filter(|&s| self.bias[h][s] == -1).map(|s| self.left[s]).sum();
        vpop - self.open_slots[h]
    }

    /// `make_bias_deal`: writes the deal into `deck`; false when the attempt is rejected.
    pub(crate) fn make_deal(&mut self, rng: &mut Drand48, deck: &mut [Card; 52]) -> bool {
        // 1. Reset.
        for (i, c) in self.src.iter_mut().enumerate() {
            *c = Card::from_ordinal(i);
        }
        deck.fill(NO_CARD);
        let mut sp = [NO_CARD; 52];
        for s in 0..4 {
            self.left[s] = 13 - self.total[s];
        }
        for h in 0..4 {
            if self.constrained[h] {
                self.excess[h] = 0;
                self.excess[h] = self.excess_of(h);
            } else {
                self.excess[h] = XS_NONE;
            }
        }
        // 2. Deal the biased lengths of each biased suit.
        let mut position = [0usize, 13, 26, 39];
        for s in 0..4 {
            if self.total[s] <= 0 {
                continue;
            }
            let suit = &mut self.src[13 * s..13 * s + 13];
            rng.shuffle(suit);
            let mut next = 0;
            for h in 0..4 {
                for _ in 0..self.bias[h][s].max(0) {
                    deck[position[h]] = suit[next];
                    suit[next] = NO_CARD;
                    position[h] += 1;
                    next += 1;
                }
            }
        }
        // 3. The rest of the pack, in index order, shuffled.
        let mut size = 0usize;
        for &c in self.src.iter() {
            if c != NO_CARD {
                sp[size] = c;
                size += 1;
            }
        }
        rng.shuffle(&mut sp[..size]);
        // 4./5. Complete the biased hands, most constrained first.
        let mut srcpos = 0usize;
        for i in 0..4 {
            if !self.constrained[i] {
                continue;
            }
            let mut min = XS_NONE;
            let mut h = usize::MAX;
            for (j, &x) in self.excess.iter().enumerate() {
                if x < min {
                    min = x;
                    h = j;
                }
            }
            if h == usize::MAX {
                return false;
            }
            let first = 13 * h + self.length[h] as usize;
            for slot in first..13 * h + 13 {
                let mut j = srcpos;
                loop {
                    if j >= size {
                        return false;
                    }
                    let c = sp[j];
                    if c != NO_CARD && self.bias[h][c.suit().index()] == -1 {
                        break;
                    }
                    j += 1;
                }
                let card = sp[j];
                if j != srcpos {
                    if (srcpos as isize) < size as isize - 5 {
                        sp[j] = sp[srcpos + 5];
                        sp[srcpos + 5] = sp[srcpos];
                    } else {
                        sp[j] = sp[srcpos];
                    }
                }
                sp[srcpos] = NO_CARD;
                self.left[card.suit().index()] -= 1;
                deck[slot] = card;
                srcpos += 1;
            }
            self.excess[h] = XS_DONE;
            for j in 0..4 {
                if self.excess[j] < 52 {
                    self.excess[j] = self.excess_of(j);
                }
            }
            if i < 2 {
                rng.shuffle(&mut sp[srcpos..size]);
            }
        }
        // 6. The hands without a bias take what is left, shuffled once more.
        let mut count = 0usize;
        for k in 0..size {
            let c = sp[k];
            if c != NO_CARD {
                sp[count] = c;
                count += 1;
            }
        }
        for c in sp[count..size].iter_mut() {
            *c = NO_CARD;
        }
        rng.shuffle(&mut sp[..count]);
        let mut next = 0usize;
        for h in 0..4 {
            if self.constrained[h] {
                continue;
            }
            for slot in 13 * h..13 * h + 13 {
                if next < count {
                    deck[slot] = sp[next];
                    next += 1;
                }
            }
        }
        true
    }
}
