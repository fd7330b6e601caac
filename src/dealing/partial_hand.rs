//! What is known of a hand partway through counting (see [`crate::dealing::SeatTable`]):
//! bounds on its suit lengths and on every value the condition reads. Counting asks whether
//! such a partial hand can still satisfy the condition, and drops it when it cannot; and
//! whether the condition reads a suit's value at all when the suit has a given length, and
//! reads it no more there when it does not.

/// Bounds (least, greatest; both included) on a hand some of whose suits are known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartialHand {
    /// Each suit's length, in suit index order (clubs first).
    pub lengths: [(i32, i32); 4],
    /// Each value of the [`HandReading`](crate::dealing::HandReading), in its order: a suit's
    /// own value or a total over the suits.
    pub values: Vec<(i64, i64)>,
}

/// What counting may ask of a condition about the hands within a partial hand's bounds.
pub trait PartialJudge {
    /// Whether a hand within `partial`'s bounds may satisfy the condition: `false` only when
    /// none does (the condition's value is then certain); `true` when unsure.
    fn can_satisfy(&mut self, partial: &PartialHand) -> bool;

    /// Whether the condition may tell apart two hands within `partial`'s bounds that differ
    /// only in value `value` of the reading (whose own bounds are then not looked at): `false`
    /// only when it never does; `true` when unsure.
    fn reads(&mut self, partial: &PartialHand, value: usize) -> bool;

    /// The work of the answers so far, in steps of the condition's expression evaluated (a
    /// measure of their cost that does not depend on the machine, so that counting can weigh
    /// them against its own steps the same way everywhere).
    fn work(&self) -> u64;
}
