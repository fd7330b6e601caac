//! What counting knows of the hands of one key partway through the suits, so that it can ask
//! the condition whether they can still satisfy it (see [`PartialHand`]) and drop them when
//! they cannot.
//!
//! A key's *summary* packs, in a `u128`, the free cards its hands took, the lengths of the
//! suits counted so far (when the key holds them) and the partial sums of up to
//! [`MOST_SUMMED`] totals (as the key holds them: offset by each suit's least share, or capped).
//! Keys with one summary get one answer, asked once.

use super::key_map::KeyMap;
use super::partial_hand::{PartialHand, PartialJudge};

/// Totals a summary holds at most.
pub const MOST_SUMMED: usize = 4;
/// Bits of a summed total's digit.
const DIGIT_BITS: u32 = 16;
/// Bits of the free cards taken (up to 26: a partnership's hands are counted as one).
const TAKEN_BITS: usize = 5;
/// Where the digits start (after the cards taken and 4 × 4 bits of lengths).
const DIGITS_AT: u32 = TAKEN_BITS as u32 + 16;

/// One total a summary holds.
#[derive(Clone, Debug)]
pub struct SummedTotal {
    /// Its position among the values read.
    pub value: usize,
    /// Its cap, when the key holds its partial sum capped; otherwise the key holds the sum of
    /// `share − least[suit]`.
    pub cap: Option<u32>,
    /// Each suit's least share (the offset of an uncapped digit).
    pub least: [i64; 4],
}

/// What bounds a partial hand: everything but the summary itself (`answers` starts empty).
pub struct KeySummaries {
    /// Whether keys hold each counted suit's length.
    pub lengths_known: bool,
    /// The seat's own (predealt) cards in each suit.
    pub own: [u32; 4],
    /// The free cards of each suit.
    pub free: [u32; 4],
    /// Free cards the seat takes.
    pub slots: u32,
    /// The totals summed.
    pub totals: Vec<SummedTotal>,
    /// Each suit's least and greatest value of each value read (a total's: its share), from
    /// every holding of the suit.
    pub ranges: [Vec<(i64, i64)>; 4],
    /// Whether each value read is a total.
    pub is_total: Vec<bool>,
    /// The answers so far, by suits counted and summary.
    pub answers: KeyMap<(usize, u128), bool>,
}

impl KeySummaries {
    /// What a group of suit `suit`'s holdings adds to a summary: it takes `taken` free cards and
    /// adds `digits` to the summed totals' digits (capped shares for capped totals).
    pub fn group_delta(&self, suit: usize, taken: u32, digits: &[u32]) -> u128 {
        let mut delta = u128::from(taken);
        if self.lengths_known {
            delta |= u128::from(self.own[suit] + taken) << (TAKEN_BITS + 4 * suit);
        }
        for (t, &digit) in digits.iter().enumerate() {
            delta |= u128::from(digit) << (DIGITS_AT + DIGIT_BITS * t as u32);
        }
        delta
    }

    /// The summary after a group adds `delta` to `summary`.
    pub fn advance(&self, summary: u128, delta: u128) -> u128 {
        // Cards taken and lengths never carry (at most 26 and 13; a suit's length is set once).
        let mut next = (summary & ((1 << DIGITS_AT) - 1)) + (delta & ((1 << DIGITS_AT) - 1));
        for (t, total) in self.totals.iter().enumerate() {
            let at = DIGITS_AT + DIGIT_BITS * t as u32;
            let mut digit = ((summary >> at) & 0xFFFF) as u32 + ((delta >> at) & 0xFFFF) as u32;
            if let Some(cap) = total.cap {
                digit = digit.min(cap);
            }
            next |= u128::from(digit) << at;
        }
        next
    }

    /// Whether the hands of a key whose summary is `summary`, after `done` suits, can still
    /// satisfy the condition, as `judge` answers for their bounds (asked once per summary).
    pub fn can_satisfy(&mut self, done: usize, summary: u128, judge: &mut dyn PartialJudge) -> bool {
        if let Some(&answer) = self.answers.get(&(done, summary)) {
            return answer;
        }
        let answer = judge.can_satisfy(&self.partial(done, summary));
        self.answers.insert((done, summary), answer);
        answer
    }

    /// The bounds on the hands of a key whose summary is `summary`, after `done` suits.
    pub fn partial(&self, done: usize, summary: u128) -> PartialHand {
        let taken = (summary & ((1 << TAKEN_BITS) - 1)) as u32;
        let remaining = self.slots - taken;
        let mut lengths = [(0, 0); 4];
        for (s, length) in lengths.iter_mut().enumerate() {
            let (own, free) = (self.own[s], self.free[s]);
            *length = if s < done && self.lengths_known {
                let known = ((summary >> (TAKEN_BITS + 4 * s)) & 0xF) as u32;
                (known, known)
            } else if s < done {
                (own, own + free.min(taken))
            } else {
                let others: u32 = (done..4).filter(|&o| o != s).map(|o| self.free[o]).sum();
                (own + remaining.saturating_sub(others), own + free.min(remaining))
            };
        }
        let lengths = lengths.map(|(lo, hi)| (lo as i32, hi as i32));
        let sum = |v: usize, suits: std::ops::Range<usize>, end: fn((i64, i64)) -> i64| -> i64 {
            suits.map(|s| end(self.ranges[s][v])).sum()
        };
        let values = (0..self.is_total.len())
            .map(|v| {
                if !self.is_total[v] {
                    // A suit's own value: its range on its suit (the other suits' ranges are
                    // empty).
                    return (0..4).map(|s| self.ranges[s][v]).fold((i64::MAX, i64::MIN), |a, r| {
                        if r.0 > r.1 {
                            a
                        } else {
                            (a.0.min(r.0), a.1.max(r.1))
                        }
                    });
                }
                let least = sum(v, 0..4, |r| r.0);
                let most = sum(v, 0..4, |r| r.1);
                let Some(t) = self.totals.iter().position(|total| total.value == v) else { return (least, most) };
                let total = &self.totals[t];
                let digit = ((summary >> (DIGITS_AT + DIGIT_BITS * t as u32)) & 0xFFFF) as i64;
                let (so_far, exact) = match total.cap {
                    Some(cap) => (digit, digit < i64::from(cap)),
                    None => (digit + total.least[..done].iter().sum::<i64>(), true),
                };
                let lo = so_far + sum(v, done..4, |r| r.0);
                let hi = if exact { so_far + sum(v, done..4, |r| r.1) } else { most };
                (lo.max(least), hi.min(most))
            })
            .collect();
        PartialHand { lengths, values }
    }
}
