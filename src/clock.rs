//! The monotonic clock the dealing loop measures with (time limits, "Time needed").
//!
//! With the `os` feature this is [`std::time::Instant`]. Without it (the WebAssembly build,
//! where `std::time::Instant::now` panics on `wasm32-unknown-unknown`) it is a clock that never
//! advances: time limits never expire, and the end-of-run report says 0 seconds; the host
//! (the browser worker) measures time itself.

#[cfg(feature = "os")]
pub use std::time::Instant;

#[cfg(not(feature = "os"))]
use std::time::Duration;

/// A point in time of a clock that never advances (no `os` feature: no clock to read).
#[cfg(not(feature = "os"))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Instant(Duration);

#[cfg(not(feature = "os"))]
impl Instant {
    /// The clock's only reading.
    pub fn now() -> Instant {
        Instant(Duration::ZERO)
    }

    /// `self` plus `d`, `None` on overflow.
    pub fn checked_add(&self, d: Duration) -> Option<Instant> {
        self.0.checked_add(d).map(Instant)
    }

    /// The time since `self`: always zero.
    pub fn elapsed(&self) -> Duration {
        Duration::ZERO
    }

    /// The time from `earlier` to `self`, zero if `earlier` is later.
    pub fn duration_since(&self, earlier: Instant) -> Duration {
        self.0.saturating_sub(earlier.0)
    }

    /// The time from `earlier` to `self`, zero if `earlier` is later.
    pub fn saturating_duration_since(&self, earlier: Instant) -> Duration {
        self.0.saturating_sub(earlier.0)
    }
}
