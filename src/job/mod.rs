//! One session's work: its options, the dealing loop that judges deals and hands the produced
//! ones to the actions (dealing ahead for double dummy, parallel dealing on worker threads),
//! where output goes, and the end-of-run report. Owns the order of events in a run; what a deal
//! is worth is the program's business, how it is dealt the dealing stage's.

pub mod parallel;
pub mod session;

pub use session::{
    atol, Ceiling, Ceilings, Interrupter, MetricMaker, Options, RunReport, Session, Sink, Stream, OPTION_KEYS,
};
