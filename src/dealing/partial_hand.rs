//! What is known of a hand partway through counting (see [`crate::dealing::SeatTable`]):
//! bounds on its suit lengths and on every value the condition reads. Counting asks whether
//! such a partial hand can still satisfy the condition, and drops it when it cannot.

/// Bounds (least, greatest; both included) on a hand some of whose suits are known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PartialHand {
    /// Each suit's length, in suit index order (clubs first).
    pub lengths: [(i32, i32); 4],
    /// Each value of the [`HandReading`](crate::dealing::HandReading), in its order: a suit's
    /// own value or a total over the suits.
    pub values: Vec<(i64, i64)>,
}

/// Whether a partial hand can still satisfy a condition: `false` only when no hand within its
/// bounds does (the condition's value is then certain); `true` when unsure.
pub type CanSatisfy<'a> = dyn FnMut(&PartialHand) -> bool + 'a;
