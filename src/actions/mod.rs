//! Actions: everything a session prints, in both peers' exact byte formats. Per-deal printers
//! (`printall`, `printew`/`printns`/`printside`, `printcompact`, `printoneline`, `printpbn`,
//! `printes`, `printrpt`/`csvrpt`, `export`), the end-of-run `print(compass…)` pages, the
//! statistics accumulators (`average`, `frequency`, `bktfreq`), the end-of-run footer and the
//! `-m` progress meter, and the per-run state of a run's actions ([`state`]); and libdealer's
//! own board records: duplicate board numbering and rotation ([`boards`]), BBO's LIN
//! (`printlin`, [`lin`]) and JSON Lines (`printjson`, [`jsonl`]), PBN 2.1's double-dummy
//! tags ([`pbn_dd`]), and opening-lead tables (`leads`, [`leads`]); each statistic's accumulator
//! and report (`tally`) with how sure it is ([`precision`]).
//!
//! This module only formats and accumulates values that the session has already evaluated; it
//! knows nothing of dealing or expression evaluation, except [`state`], which evaluates each
//! action's values on a produced deal through the narrow interface of `context` (the deal's
//! evaluation and double-dummy results, the run's output buffers, the settings), which the job
//! implements: the actions read the program stage, the double-dummy results and the shared
//! vocabulary, never the job above them. Every writer appends bytes to a caller's `Vec<u8>`, so
//! the job decides which stream (stdout, stderr, `-C`/`-X` files, callbacks) receives them.

pub mod boards;
pub mod cformat;
pub(crate) mod context;
pub mod footer;
pub mod jsonl;
pub mod leads;
pub mod lin;
pub mod pbn_dd;
pub mod precision;
pub mod printers;
pub mod report;
pub mod state;
pub mod stats;
pub(crate) mod tally;

pub use boards::{board_dealer, board_vulnerability, Board, BoardPlan};
pub use footer::{
    write_footer, DdCount, InputCounts, LibraryCounts, PrecisionReached, ProgressMeter, RunSummary, SmartCount,
};
pub use jsonl::{print_json, write_json_summary};
pub use leads::{LeadReport, LeadRow, LeadTable};
pub use lin::print_lin;
pub use pbn_dd::{par_contracts_text, write_pbn_dd};
pub use precision::{wilson, CellLabel, Estimate, Z95};
pub use printers::{
    print_compact, print_es, print_hand_pages, print_oneline, print_pbn, EsItem, HandPagesLength, PbnInfo, PrintState,
};
pub use report::{export, report_cell, report_line, ReportCell};
pub use stats::{
    classic_frequency2d_allocation_fails, classic_frequency_allocation_fails, write_evalcontract, Average,
    BucketFrequency1D, BucketFrequency2D, EvalContractSummary, EvalContractTally, Frequency1D, Frequency2D, TableError,
};

#[cfg(test)]
mod test_fixtures;
#[cfg(test)]
mod tests;
