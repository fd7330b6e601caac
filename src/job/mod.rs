//! One session's work: its options, the dealing loop that judges deals and hands the produced
//! ones to the actions (dealing ahead for double dummy, parallel dealing on worker threads),
//! where output goes, and the end-of-run report. Owns the order of events in a run; what a deal
//! is worth is the program's business, how it is dealt the dealing stage's.
//!
//! One concept per file: [`session`] (the [`Session`] API), `job_setup` (what a job is built
//! from when it starts: limits, predeal, dealer, double dummy, threads, external metrics),
//! `seed` (the seed a job deals with), [`options`] (option keys and values), `dealing_loop` (the
//! job's state and the run loop), `lookahead` (dealing ahead for double dummy), `clause_order`
//! (the order a double-dummy condition's clauses are judged in), [`parallel`]
//! (dealing on worker threads), [`sinks`] (where output goes), [`report`] (the end-of-run
//! report), [`smart`] (which seat is dealt first, and from its exact count), [`deal_ranges`] (one
//! range of a job's deal numbers dealt, and recorded deals run through the actions: the job's
//! side of [`crate::scale_out`]); [`interrupter`] (stopping a run from outside) is the crate's
//! shared vocabulary, re-exported here.

pub(crate) mod clause_order;
pub mod deal_ranges;
pub(crate) mod dealing_loop;
pub(crate) mod job_setup;
pub(crate) mod lookahead;
pub mod options;
pub mod parallel;
pub(crate) mod record_input;
pub mod report;
pub(crate) mod seed;
pub mod session;
pub mod sinks;
pub mod smart;

#[cfg(test)]
mod tests;

pub use crate::interrupter::{self, Interrupter};
pub use options::{atol, Ceilings, Options, OutputFormat, OPTION_KEYS};
pub use report::{Ceiling, RunReport};
pub use session::{MetricMaker, Session};
pub use sinks::{Sink, Stream};
