//! Stopping: on SIGTERM or SIGINT the service stops taking requests (new runs are refused with
//! 503, `/v1/health` says `stopping`, idle connections close), lets the runs in flight finish
//! for the grace period, then interrupts those still going (their clients get 503 with the
//! output so far), and exits when every answer is sent — or, at the latest, a few seconds after
//! the grace period.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use crate::routes::AppState;

/// How long after the grace period the service waits for the last answers before it exits.
pub const LAST_ANSWERS: Duration = Duration::from_secs(5);

/// Waits for SIGTERM or SIGINT.
pub async fn signalled() {
    use tokio::signal::unix::{signal, SignalKind};
    let (Ok(mut term), Ok(mut int)) = (signal(SignalKind::terminate()), signal(SignalKind::interrupt())) else {
        // Without signal handling the service runs until killed.
        return std::future::pending().await;
    };
    tokio::select! {
        _ = term.recv() => tracing::info!(signal = "SIGTERM", "stopping"),
        _ = int.recv() => tracing::info!(signal = "SIGINT", "stopping"),
    }
}

/// After the signal: refuse new runs, and interrupt the runs still going after the grace
/// period. Returns at once (the timer runs on).
pub fn begin(state: &Arc<AppState>) {
    state.stopping.store(true, Ordering::Release);
    let state = Arc::clone(state);
    let grace = Duration::from_secs_f64(state.config.shutdown.grace_seconds.max(0.0));
    tracing::info!(runs_in_flight = state.in_flight.count(), grace_seconds = grace.as_secs_f64(), "no new runs");
    tokio::spawn(async move {
        tokio::time::sleep(grace).await;
        let interrupted = state.in_flight.interrupt_all();
        if interrupted > 0 {
            tracing::warn!(runs = interrupted, "grace period over: runs interrupted");
        }
    });
}
