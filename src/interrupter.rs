//! The [`Interrupter`]: one atomic flag that stops a session's runs from another thread or a
//! signal handler. It must stay async-signal-safe: no allocation, no lock, nothing but atomics.
//!
//! Shared vocabulary, like [`error`](crate::error): the job looks at it every deal, and the
//! external programs' waits (src/external/) look at it while they wait, so it lives below both.
//! Reads only the error type. (Also reachable as `job::interrupter`, its former path.)

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crate::error::{Error, ErrorKind, Result};

/// Stops a session's runs from another thread or from a signal handler (it only stores to an
/// atomic flag). An interruption stops the run in progress, or the next one, at the next deal
/// (or at once while the run waits for the DealerServer or the DOP program):
/// the run ends with an [`ErrorKind::Interrupted`] error after writing out the output of the
/// deals before, so every line written is complete. Each interruption stops one run.
#[derive(Clone, Debug, Default)]
pub struct Interrupter(Arc<AtomicBool>);

impl Interrupter {
    /// Asks the session to stop (async-signal-safe: one atomic store).
    pub fn interrupt(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether an interruption is pending, without consuming it (for work that stops early and
    /// leaves the job's next [`check`](Self::check) to report it).
    pub(crate) fn is_pending(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// An error if an interruption is pending, which it consumes.
    pub(crate) fn check(&self) -> Result<()> {
        if self.0.load(Ordering::Relaxed) && self.0.swap(false, Ordering::Relaxed) {
            return Err(Error::new(ErrorKind::Interrupted, "interrupted"));
        }
        Ok(())
    }
}
