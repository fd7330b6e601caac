//! What a condition on one seat's hand reads of it, as values of single suits (see
//! [`super::SeatTable`]): a suit's own values (its length, `hcp(north, spades)`,
//! `hascard(north, AS)`) and totals over the four suits (`hcp(north)`, `controls(north)`),
//! each read exactly or through the constants it is compared with.

use crate::cards::{Hand, Suit};

/// A value read from one suit's holding, given as a hand holding that suit's cards only.
pub type HoldingValue<'a> = Box<dyn Fn(Hand) -> i32 + 'a>;

/// Where a value read by the condition comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ValueScope {
    /// One suit's own value (`hcp(north, spades)`): the function is read on that suit only.
    Suit(Suit),
    /// A sum over the four suits (`hcp(north)`): the function gives each suit's share.
    Total,
}

/// A value a condition on one hand reads.
pub struct ReadValue<'a> {
    /// Where it comes from.
    pub scope: ValueScope,
    /// Its value on one suit's holding (the suit's share, for a total).
    pub value: HoldingValue<'a>,
    /// For a value that the condition only compares with constants: the *cuts*, the least
    /// values of each range the comparisons cannot tell apart (`x >= 5` cuts at 5, `x == 9` at
    /// 9 and 10). A suit's own value is then read as the number of cuts at or below it; a total
    /// whose shares are never negative, as its partial sums capped at the highest cut.
    /// `None`: the value is read exactly.
    pub cuts: Option<Vec<i32>>,
}

impl<'a> ReadValue<'a> {
    /// A value read exactly.
    pub fn exact(scope: ValueScope, value: HoldingValue<'a>) -> ReadValue<'a> {
        ReadValue { scope, value, cuts: None }
    }

    /// The value on `holding`, and what tells holdings apart: the value, or the number of
    /// cuts at or below it.
    pub fn class_of(&self, holding: Hand) -> (i32, i32) {
        let v = (self.value)(holding);
        let class = match (&self.cuts, self.scope) {
            (Some(cuts), ValueScope::Suit(_)) => cuts.iter().filter(|&&cut| cut <= v).count() as i32,
            _ => v,
        };
        (v, class)
    }
}

/// What a condition on one hand reads of it, as values of single suits.
pub struct HandReading<'a> {
    /// Whether the suit lengths themselves are read, all of them exactly (`shape`, `cccc`).
    pub lengths: bool,
    /// The values read.
    pub values: Vec<ReadValue<'a>>,
}
