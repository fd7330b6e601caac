//! The monotonic clock the dealing loop measures with (time limits, "Time needed").
//!
//! With the `os` feature this is [`std::time::Instant`]. Without it, on `wasm32-unknown-unknown`
//! (the browser build, where `std::time::Instant::now` panics) it is the browser's monotonic
//! clock (`performance.now()`, through the `web-time` crate); elsewhere it is a clock that
//! never advances: time limits never expire, and the end-of-run report says 0 seconds.

#[cfg(feature = "os")]
pub use std::time::Instant;

#[cfg(all(not(feature = "os"), target_arch = "wasm32", target_os = "unknown"))]
pub use web_time::Instant;

#[cfg(all(not(feature = "os"), not(all(target_arch = "wasm32", target_os = "unknown"))))]
use std::time::Duration;

/// A point in time of a clock that never advances (no `os` feature: no clock to read).
#[cfg(all(not(feature = "os"), not(all(target_arch = "wasm32", target_os = "unknown"))))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Instant(Duration);

#[cfg(all(not(feature = "os"), not(all(target_arch = "wasm32", target_os = "unknown"))))]
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
