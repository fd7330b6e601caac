//! The holdings a seat may have in each suit, with what a condition on its hand reads of each
//! (see [`super::SeatTable`]): a suit's kept values and its shares of the totals, and the
//! ranges of those values over the suit's holdings, in all and by the suit's length.
//!
//! **Values not read.** A condition often reads a suit's value only at some of the suit's
//! lengths (`clubs(south) > 5 && hcp(south, clubs) == 9` reads the clubs' points only with six
//! clubs or more). Asked through [`PartialJudge::reads`] with the bounds of a hand whose suit
//! has a given length, a value the condition never reads there is given one class (the least
//! among those holdings) in all of them: hands that differ only in it are alike to the
//! condition, so counting them as one class changes no count, and makes fewer classes.

use super::hand_reading::{HandReading, ValueScope};
use super::partial_hand::{PartialHand, PartialJudge};
use crate::cards::{Hand, LANE_MASK};

/// Values a holding keeps at most: its suit's kept values and its shares of the totals.
pub const MOST_VALUES: usize = 16;

/// Lengths a suit may have (0 to 13).
const LENGTHS: usize = 14;

/// Every value of a C `int` (what a partial hand's value is when nothing bounds it).
const ANY_INT: (i64, i64) = (i32::MIN as i64, i32::MAX as i64);

/// One suit's holding before grouping: free cards taken, kept values, total shares.
pub struct Holding {
    /// The free cards it takes (in the suit's lane of a hand).
    pub cards: u64,
    /// How many.
    pub taken: u8,
    /// The kept values (`kept` of them), then the shares of the totals.
    pub values: [i32; MOST_VALUES],
    /// How many kept values (the suit's length first, when lengths are read).
    pub kept: u8,
}

impl Holding {
    /// The kept values: the suit's length (when lengths are read), then its own values.
    pub fn kept(&self) -> &[i32] {
        &self.values[..usize::from(self.kept)]
    }

    /// The shares of the totals.
    pub fn shares(&self) -> &[i32] {
        &self.values[usize::from(self.kept)..]
    }
}

/// What a condition reads, placed: the reading, and which of its values each suit keeps and
/// which are totals.
pub struct ReadValues<'a, 'r> {
    /// The reading.
    pub reading: &'a HandReading<'r>,
    /// By suit: the values of the reading that are the suit's own, in order.
    pub kept_scopes: &'a [Vec<usize>],
    /// The values of the reading that are totals, in order.
    pub totals: &'a [usize],
}

impl ReadValues<'_, '_> {
    /// Where value `v` of the reading sits in the `values` of a holding of suit `s` (`None`:
    /// another suit's own value).
    fn place(&self, s: usize, v: usize) -> Option<usize> {
        let offset = usize::from(self.reading.lengths);
        match self.reading.values[v].scope {
            ValueScope::Suit(suit) if suit.index() == s => {
                self.kept_scopes[s].iter().position(|&k| k == v).map(|k| offset + k)
            }
            ValueScope::Suit(_) => None,
            ValueScope::Total => {
                self.totals.iter().position(|&t| t == v).map(|t| offset + self.kept_scopes[s].len() + t)
            }
        }
    }
}

/// Every holding of every suit, and the ranges of what is read of them.
pub struct SuitHoldings {
    /// Each suit's holdings, in increasing order of their free cards.
    pub per_suit: [Vec<Holding>; 4],
    /// Each suit's least and greatest value of each value of the reading (a total's: its
    /// share), from every holding of the suit; empty (`(MAX, MIN)`) for another suit's own.
    pub ranges: [Vec<(i64, i64)>; 4],
    /// The least and greatest class of each of a holding's values, by suit.
    pub classes: [[(i32, i32); MOST_VALUES]; 4],
    /// The least and greatest value of each of a holding's values, by suit and length.
    by_length: [[[(i64, i64); MOST_VALUES]; LENGTHS]; 4],
    /// The least class of each of a holding's values, by suit and length.
    least_class: [[[i32; MOST_VALUES]; LENGTHS]; 4],
}

impl SuitHoldings {
    /// The holdings of a seat holding `own` and `slots` more cards from `free`, and what
    /// `values` reads of them.
    pub fn enumerate(free: u64, own: u64, slots: u32, values: &ReadValues) -> SuitHoldings {
        let reading = values.reading;
        let mut holdings = SuitHoldings {
            per_suit: Default::default(),
            ranges: Default::default(),
            classes: [[(i32::MAX, i32::MIN); MOST_VALUES]; 4],
            by_length: [[[(i64::MAX, i64::MIN); MOST_VALUES]; LENGTHS]; 4],
            least_class: [[[i32::MAX; MOST_VALUES]; LENGTHS]; 4],
        };
        for s in 0..4 {
            let range = &mut holdings.ranges[s];
            *range = vec![(i64::MAX, i64::MIN); reading.values.len()];
            let by_length = &mut holdings.by_length[s];
            let mut read = |v: usize, at: usize, holding: Hand| {
                let (value, class) = reading.values[v].class_of(holding);
                let value = i64::from(value);
                range[v] = (range[v].0.min(value), range[v].1.max(value));
                let length = &mut by_length[holding.0.count_ones() as usize][at];
                *length = (length.0.min(value), length.1.max(value));
                class
            };
            let lane_free = free >> (16 * s) & LANE_MASK;
            let lane_own = own >> (16 * s) & LANE_MASK;
            // Every subset of the suit's free cards, in increasing order (the next subset of
            // `lane_free` after `subset` is `(subset − lane_free) & lane_free`).
            let mut subset = 0u64;
            loop {
                let taken = subset.count_ones();
                if taken <= slots {
                    let cards = subset << (16 * s);
                    let holding = Hand(cards | lane_own << (16 * s));
                    let mut values_read = [0; MOST_VALUES];
                    let mut at = 0;
                    if reading.lengths {
                        values_read[0] = holding.0.count_ones() as i32;
                        at = 1;
                    }
                    for &v in &values.kept_scopes[s] {
                        values_read[at] = read(v, at, holding);
                        at += 1;
                    }
                    let kept = at as u8;
                    for &v in values.totals {
                        values_read[at] = read(v, at, holding);
                        at += 1;
                    }
                    for (range, &value) in holdings.classes[s].iter_mut().zip(&values_read[..at]) {
                        *range = (range.0.min(value), range.1.max(value));
                    }
                    let least = &mut holdings.least_class[s][holding.0.count_ones() as usize];
                    for (least, &value) in least.iter_mut().zip(&values_read[..at]) {
                        *least = (*least).min(value);
                    }
                    holdings.per_suit[s].push(Holding { cards, taken: taken as u8, values: values_read, kept });
                }
                subset = subset.wrapping_sub(lane_free) & lane_free;
                if subset == 0 {
                    break;
                }
            }
        }
        holdings
    }

    /// Gives each suit's value that `judge` finds not read at one of the suit's lengths one
    /// class in the suit's holdings of that length (see the module documentation).
    pub fn forget_unread(
        &mut self,
        free: u64,
        own: u64,
        slots: u32,
        values: &ReadValues,
        judge: &mut dyn PartialJudge,
    ) {
        let reading = values.reading;
        let offset = usize::from(reading.lengths);
        let lane = |cards: u64, s: usize| (cards >> (16 * s) & LANE_MASK).count_ones() as i32;
        for s in 0..4 {
            if values.kept_scopes[s].is_empty() {
                continue;
            }
            for length in 0..LENGTHS {
                let of_length = |h: &Holding| i32::from(h.taken) + lane(own, s) == length as i32;
                if !self.per_suit[s].iter().any(of_length) {
                    continue;
                }
                // The bounds on a hand whose suit `s` has this length: the other suits' lengths
                // within what is left, the suit's values over its holdings of this length, the
                // other suits' over all their holdings.
                let left = (slots as i32 - (length as i32 - lane(own, s))).max(0);
                let lengths = std::array::from_fn(|o| {
                    if o == s {
                        (length as i32, length as i32)
                    } else {
                        (lane(own, o), lane(own, o) + lane(free, o).min(left))
                    }
                });
                let bounds = (0..reading.values.len())
                    .map(|v| match (reading.values[v].scope, values.place(s, v)) {
                        (ValueScope::Suit(suit), None) => self.ranges[suit.index()][v],
                        (ValueScope::Suit(_), Some(at)) => self.by_length[s][length][at],
                        (ValueScope::Total, Some(at)) => {
                            let share = self.by_length[s][length][at];
                            (0..4)
                                .filter(|&o| o != s)
                                .map(|o| self.ranges[o][v])
                                .fold(share, |sum, range| (sum.0 + range.0, sum.1 + range.1))
                        }
                        (ValueScope::Total, None) => ANY_INT,
                    })
                    .collect();
                let partial = PartialHand { lengths, values: bounds };
                let unread: Vec<usize> = (0..values.kept_scopes[s].len())
                    .filter(|&k| !judge.reads(&partial, values.kept_scopes[s][k]))
                    .map(|k| offset + k)
                    .collect();
                if unread.is_empty() {
                    continue;
                }
                let least = self.least_class[s][length];
                for holding in self.per_suit[s].iter_mut().filter(|h| of_length(h)) {
                    for &at in &unread {
                        holding.values[at] = least[at];
                    }
                }
            }
        }
    }
}
