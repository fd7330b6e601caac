//! Double-dummy analysis over DDS (Bo Haglund and Soren Hein's solver): single results, full
//! tables of 20 results, par scores with DealerV2's par-contract text, and batches of deals
//! solved across threads.
//!
//! DDS is reached through its entry points ([`DdsEntryPoints`]): the native build links the
//! crate `dds-bridge-sys`'s DDS (`linked_dds`); the WebAssembly build's embedder provides DDS
//! compiled to a module of its own. A session solves with a [`DoubleDummy`], one of those or
//! none ("not available").
//!
//! Every solve goes through a [`Solver`], which owns one DDS solver context (its transposition
//! table and search state). A context serves one thread at a time; a [`SolverPool`] keeps one per
//! worker thread and solves a batch of deals with scoped threads pulling work from a shared
//! counter, so results do not depend on the number of threads. The legacy DDS entry points with a
//! global scheduler are never used, and the contexts are freed with the pool (the par functions
//! hold no state).
//!
//! Indexing follows the dealer language: seats N, E, S, W and strains C, D, H, S, NT; the
//! conversions to DDS's own orders (suits S, H, D, C; vulnerability none, both, NS, EW) live in
//! `solver` and nowhere else.
//!
//! The modules, each building only on those before it: `entry_points` ([`DdsEntryPoints`] and
//! DDS's layouts), `linked_dds` (the native build's DDS), `double_dummy` ([`DoubleDummy`]),
//! `solver` (DDS conversions, [`Solver`], [`DdTable`], [`DdError`], [`TableMemory`]),
//! `sure_tricks` ([`defenders_sure_tricks`], [`declarers_sure_tricks`]: bounds read from the cards), `par`
//! ([`Par`], [`par()`]), `results` ([`Need`], [`Threshold`], [`Questions`], [`DealResults`]), `batch` ([`BatchItem`],
//! [`SolverPool`]) and `cache` ([`DdCache`]); `zrd` reads and writes DealerV2's double-dummy
//! library files.

mod batch;
mod cache;
mod double_dummy;
mod entry_points;
#[cfg(feature = "dds")]
mod linked_dds;
mod par;
mod results;
mod solver;
mod sure_tricks;
pub mod zrd;

#[cfg(test)]
pub(crate) mod test_deals;

pub use batch::{BatchItem, SolverPool};
pub use cache::DdCache;
pub use double_dummy::DoubleDummy;
pub use entry_points::{
    ContextId, DdsAnswer, DdsCards, DdsEntryPoints, DdsJob, DdsLeadScores, DdsParContract, DdsParResult, DdsTable,
    LEADS_NOT_AVAILABLE,
};
pub use par::{board_par, par, par_for_side, Par, ParContract, ParDeclarer};
pub use results::{Answers, DealResults, Need, Questions, Threshold};
pub use solver::{
    error_text, DdError, DdTable, LeadTricks, SolveCounts, Solver, TableMemory, NO_ANSWER, SCORE_OUT_OF_RANGE,
};
pub use sure_tricks::{declarers_sure_tricks, defenders_sure_tricks};
