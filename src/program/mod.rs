//! The program stage: a parsed script checked and compiled into what runs, and the ways of
//! running it on a deal.
//!
//! The files, each reading only those above it in this list:
//! - [`nodes`], [`compiled_action`], [`settings`], [`shape`], [`hand_stats`], [`scoring`],
//!   [`table_limits`]: the vocabulary (expression nodes, compiled actions, environment
//!   settings, shape sets, hand statistics, bridge scores, the limits of statistics' tables);
//! - [`compiled_program`]: the compiled [`Program`] and what it reads;
//! - [`shape_fd`]: DealerV2's `shape{}` specifications expanded into shape patterns;
//! - [`compile`]: checking and compiling a parsed script into a [`Program`];
//! - [`bbo_check`]: what BBO's dealer (classic) would reject or read differently in a script;
//! - [`eval`]: the general evaluator of expression nodes;
//! - [`pair_union`]: the expressions of a pair of hands that read only the cards the two hold
//!   together; [`seat_factors`]: the parts of a condition that read one seat's hand alone (or
//!   a pair's cards together), for smart dealing's counts;
//! - [`dag_node`]: the merged nodes of deal expressions (no `rnd()`, double dummy or external
//!   programs); [`chain_order`]: the cost model that arranges their `&&`/`||` chains;
//!   [`dag_builder`]: compiles program nodes into merged nodes; [`dag`]: runs them as a flat
//!   program;
//! - [`deal_expr`]: the condition judged seat by seat, with its one-test clauses in line;
//!   [`tallied_values`]: the statistics' values judged over one DAG.

pub mod bbo_check;
pub mod chain_order;
pub mod compile;
pub mod compiled_action;
pub mod compiled_program;
pub mod dag;
pub mod dag_builder;
pub mod dag_node;
pub mod deal_expr;
pub mod eval;
pub mod factor_bounds;
pub mod hand_stats;
pub mod nodes;
pub mod pair_union;
pub mod scoring;
pub mod seat_factors;
pub mod settings;
pub mod shape;
pub mod shape_fd;
pub mod table_limits;
pub mod tallied_values;

pub use compile::MAX_EXPANDED_NODES;
pub use compiled_action::{evalcontract_declarer, CompiledAction, EsPart, LeadStudy, ReportPart};
pub use compiled_program::{DdUse, ExternalCall, Program};
pub use nodes::{Node, NodeId, TOO_DEEP};
pub use settings::ScriptSettings;

#[cfg(test)]
mod tests;
