//! DealerV2 4.3.3's dealer: its dealing modes over the `drand48` stream and its deck.
//!
//! Three of DealerV2's modes are dealt here; the fourth, bias predeal, is dealt by `v2bias`:
//! - default: one persistent deck (initially SA..C2) shuffled in place by Fisher–Yates
//!   (i = 51..1, j = `(int)(drand48() * (i+1))`); a produced deal has each hand sorted
//!   descending by its `(suit<<4)|rank` byte, which is where the next shuffle starts;
//! - predeal: a fixed stacked deck whose empty slots come first in each hand, filled in slot
//!   order from a persistent `small_pack` of the remaining cards that is reshuffled every deal;
//! - swapping (`-x 2`/`-x 3`): a real shuffle followed by cumulative exchanges of whole hands.
//!
//! This module sits on top: it uses `drand48` (the generator), `v2bias` and `v2pack`, and none
//! of them uses it.

use super::drand48::Drand48;
use super::v2bias::V2Bias;
use super::v2pack::{full_pack_descending, sort_descending, sort_hands, NO_CARD};
use crate::cards::{Card, Seat};

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

#[cfg(test)]
mod tests {
    use super::*;

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
}
