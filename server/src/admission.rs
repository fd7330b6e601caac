//! Who runs when: at most `max_runs` runs at once (double-dummy runs also at most their own
//! number), a bounded queue of requests waiting for a slot, each for a bounded time, and the
//! register of runs in flight, which interrupts a run whose client has gone and, on shutdown,
//! every run still going. Nothing waits without bound: a full queue is refused at once.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::libdealer::Interrupter;

/// Why a request got no slot.
#[derive(Debug, PartialEq, Eq)]
pub enum Busy {
    /// The queue holds its maximum already.
    QueueFull,
    /// No slot came free within the queue's wait.
    TimedOut,
}

/// The run slots and the queue in front of them.
pub struct Admission {
    runs: Arc<Semaphore>,
    double_dummy: Arc<Semaphore>,
    waiting: AtomicUsize,
    max_queue: usize,
    wait: Duration,
}

/// A slot held until dropped.
pub struct Slot(#[allow(dead_code)] OwnedSemaphorePermit);

impl Admission {
    /// `max_runs` slots (`max_double_dummy` of them for double dummy), `max_queue` waiting for
    /// at most `wait` each.
    pub fn new(max_runs: usize, max_double_dummy: usize, max_queue: usize, wait: Duration) -> Admission {
        Admission {
            runs: Arc::new(Semaphore::new(max_runs)),
            double_dummy: Arc::new(Semaphore::new(max_double_dummy)),
            waiting: AtomicUsize::new(0),
            max_queue,
            wait,
        }
    }

    /// A run slot.
    pub async fn run_slot(&self) -> Result<Slot, Busy> {
        self.enter(&self.runs).await
    }

    /// A double-dummy slot (besides the run slot).
    pub async fn double_dummy_slot(&self) -> Result<Slot, Busy> {
        self.enter(&self.double_dummy).await
    }

    /// Requests waiting now.
    pub fn queue_length(&self) -> usize {
        self.waiting.load(Ordering::Relaxed)
    }

    async fn enter(&self, slots: &Arc<Semaphore>) -> Result<Slot, Busy> {
        if let Ok(permit) = Arc::clone(slots).try_acquire_owned() {
            return Ok(Slot(permit));
        }
        // Join the queue unless it is full (counted before waiting, given back after).
        let joined = self
            .waiting
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| (n < self.max_queue).then_some(n + 1))
            .is_ok();
        if !joined {
            return Err(Busy::QueueFull);
        }
        struct Leave<'a>(&'a AtomicUsize);
        impl Drop for Leave<'_> {
            fn drop(&mut self) {
                self.0.fetch_sub(1, Ordering::AcqRel);
            }
        }
        let _leave = Leave(&self.waiting);
        match tokio::time::timeout(self.wait, Arc::clone(slots).acquire_owned()).await {
            Ok(Ok(permit)) => Ok(Slot(permit)),
            _ => Err(Busy::TimedOut),
        }
    }
}

/// The runs in flight, each with its interrupter.
#[derive(Default)]
pub struct InFlight {
    next: AtomicU64,
    runs: Mutex<HashMap<u64, Arc<Interrupter>>>,
}

/// A run's place in [`InFlight`]: dropped before [`Registered::finish`] (the request's future
/// dropped because its client went away), it interrupts the run.
pub struct Registered {
    in_flight: Arc<InFlight>,
    id: u64,
    finished: bool,
    on_abandon: Option<Box<dyn FnOnce() + Send>>,
}

impl InFlight {
    /// Registers a run; `on_abandon` is called if its request is dropped before it finishes.
    pub fn register(
        self: &Arc<Self>,
        interrupter: Arc<Interrupter>,
        on_abandon: Box<dyn FnOnce() + Send>,
    ) -> Registered {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        if let Ok(mut runs) = self.runs.lock() {
            runs.insert(id, interrupter);
        }
        Registered { in_flight: Arc::clone(self), id, finished: false, on_abandon: Some(on_abandon) }
    }

    /// Interrupts every run in flight; returns how many there were.
    pub fn interrupt_all(&self) -> usize {
        let runs = self.runs.lock().map(|r| r.values().cloned().collect::<Vec<_>>()).unwrap_or_default();
        for run in &runs {
            run.interrupt();
        }
        runs.len()
    }

    /// Runs in flight now.
    pub fn count(&self) -> usize {
        self.runs.lock().map_or(0, |r| r.len())
    }

    fn remove(&self, id: u64) -> Option<Arc<Interrupter>> {
        self.runs.lock().ok().and_then(|mut r| r.remove(&id))
    }
}

impl Registered {
    /// The run ended and its answer is on its way.
    pub fn finish(mut self) {
        self.finished = true;
        self.in_flight.remove(self.id);
    }
}

impl Drop for Registered {
    fn drop(&mut self) {
        if !self.finished {
            if let Some(interrupter) = self.in_flight.remove(self.id) {
                interrupter.interrupt();
            }
            if let Some(callback) = self.on_abandon.take() {
                callback();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_full_queue_is_refused_at_once_and_a_wait_is_bounded() {
        let admission = Arc::new(Admission::new(1, 1, 1, Duration::from_millis(200)));
        let held = admission.run_slot().await.unwrap();
        let waiter = {
            let admission = Arc::clone(&admission);
            tokio::spawn(async move { admission.run_slot().await.err() })
        };
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert_eq!(admission.queue_length(), 1);
        assert_eq!(admission.run_slot().await.err(), Some(Busy::QueueFull));
        assert_eq!(waiter.await.unwrap(), Some(Busy::TimedOut));
        assert_eq!(admission.queue_length(), 0);
        drop(held);
        assert!(admission.run_slot().await.is_ok());
    }
}
