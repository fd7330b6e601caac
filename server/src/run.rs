//! One run of a [`RunPlan`] on a libdealer session, on a thread of its own (the caller's
//! blocking pool): [`prepare`] sets the options and loads the script (and says whether the run
//! will solve double dummy), [`Prepared::run`] deals and answers with what the CLI would print
//! for the same script, seed and options, the produced deals as data, and the counters.

use std::sync::Arc;
use std::time::Instant;

use serde::Serialize;

use crate::libdealer::{Failure, Interrupter, Session, INTERRUPTED};
use crate::request::RunPlan;

/// A session ready to run.
pub struct Prepared {
    session: Session,
    /// Stops the run from another thread (a client gone, the service stopping).
    pub interrupter: Arc<Interrupter>,
    /// Whether the run solves double dummy.
    pub needs_double_dummy: bool,
    plan: RunPlan,
}

/// Why a run could not start or did not finish.
pub enum RunFailure {
    /// The request's script or an option value is wrong (the library's message and place).
    Refused(Failure),
    /// The library could not make a session.
    Internal(String),
}

/// Sets the plan's options on a new session and loads its script.
pub fn prepare(plan: RunPlan) -> Result<Prepared, RunFailure> {
    // Room past the output ceiling for the last whole line of the report the library keeps.
    let cap = usize::try_from(plan.max_output_bytes).unwrap_or(usize::MAX).saturating_add(1 << 16);
    let mut session = Session::new(cap).map_err(RunFailure::Internal)?;
    for (key, value) in &plan.options {
        session.set_option(key, value).map_err(RunFailure::Refused)?;
    }
    session.load_script(plan.script.as_bytes()).map_err(RunFailure::Refused)?;
    let needs_double_dummy = session.needs_double_dummy();
    let interrupter = Arc::new(session.interrupter().map_err(RunFailure::Refused)?);
    Ok(Prepared { session, interrupter, needs_double_dummy, plan })
}

/// One produced deal: the four hands (`AKQ.T98.x.x`, spades first) and the PBN deal.
#[derive(Debug, Serialize, PartialEq, Eq)]
pub struct DealHands {
    /// North's hand.
    pub north: String,
    /// East's hand.
    pub east: String,
    /// South's hand.
    pub south: String,
    /// West's hand.
    pub west: String,
    /// `N:<N> <E> <S> <W>`.
    pub pbn: String,
}

/// The answer of a run (the body of `POST /v1/deal`'s 200, and of its 422 after a run error,
/// which keeps what was written before the error).
#[derive(Debug, Serialize)]
pub struct RunAnswer {
    /// What the CLI prints on standard output.
    pub output: String,
    /// What it prints on standard error (notices, warnings).
    pub diagnostics: String,
    /// The produced deals, in order (at most the request's `deals`).
    pub deals: Vec<DealHands>,
    /// Deals generated, as the report prints it.
    pub generated: i64,
    /// Deals produced.
    pub produced: i64,
    /// The seed: the same request with it deals the same deals.
    pub seed: u64,
    /// The ceiling that ended the run early: `time`, `generate`, `output`, or null.
    pub ceiling: Option<&'static str>,
    /// The run's JSON summary object (statistics, counts), as `json_summary` prints it.
    pub summary: Option<serde_json::Value>,
    /// Milliseconds the run took.
    pub elapsed_ms: f64,
}

impl Prepared {
    /// Runs the job; `Err` carries the failure and the answer as far as it got.
    pub fn run(mut self) -> (RunAnswer, Result<(), Failure>) {
        let started = Instant::now();
        let outcome = self.session.run();
        let elapsed_ms = started.elapsed().as_secs_f64() * 1000.0;
        let text = |bytes: Vec<u8>| String::from_utf8_lossy(&bytes).into_owned();
        let deals = text(self.session.take_deals()).lines().take(self.plan.deals).filter_map(hands_of).collect();
        let summary = serde_json::from_str(&self.session.last_summary()).ok();
        let answer = RunAnswer {
            output: text(self.session.take_output()),
            diagnostics: text(self.session.take_diagnostics()),
            deals,
            generated: outcome.generated,
            produced: outcome.produced,
            seed: outcome.seed,
            ceiling: outcome.ceiling,
            summary,
            elapsed_ms: (elapsed_ms * 1000.0).round() / 1000.0,
        };
        (answer, outcome.result)
    }
}

/// Whether a failure is an interruption (`dealer_interrupt`).
pub fn interrupted(failure: &Failure) -> bool {
    failure.status == INTERRUPTED
}

/// The hands of a PBN deal line `N:<N> <E> <S> <W>`.
fn hands_of(line: &str) -> Option<DealHands> {
    let mut hands = line.strip_prefix("N:")?.split(' ').map(str::to_string);
    Some(DealHands {
        north: hands.next()?,
        east: hands.next()?,
        south: hands.next()?,
        west: hands.next()?,
        pbn: line.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pbn_lines_become_hands() {
        let h = hands_of("N:AKQ.J.T98.7654 2.3.4.5 x.x.x.x y.y.y.y").unwrap();
        assert_eq!((h.north.as_str(), h.west.as_str()), ("AKQ.J.T98.7654", "y.y.y.y"));
        assert!(hands_of("W:a b c d").is_none());
    }
}
