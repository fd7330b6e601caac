//! libdealer: a bridge deal generator for the "dealer" script language of classic dealer and
//! DealerV2, as a Rust library with a C ABI.
//!
//! Data flows one way: script text → [`script`] (lex, parse) → [`program`] (check, compile) →
//! [`dealing`] (a deal per generator and peer algorithm, or a [`zrd`] library file; spread over
//! threads by [`parallel`]) → [`eval`] (and [`deal_expr`] for conditions that read only the deal) over [`analysis`], [`shape`] and [`dd`] (double dummy
//! through DDS) → [`actions`] (printers and statistics) → sinks. [`session`] ties one job together and [`capi`] exposes it to C.

#![warn(missing_docs)]

pub mod actions;
pub mod analysis;
pub mod capi;
pub mod cards;
pub mod dd;
pub mod deal_expr;
pub mod dealer_server;
pub mod dealing;
pub mod dialect;
pub mod error;
pub mod eval;
pub mod opc;
pub mod parallel;
pub mod program;
pub mod scoring;
pub mod script;
pub mod session;
pub mod shape;
pub mod stack;
pub mod usereval;
pub mod zrd;

pub use dialect::Dialect;
pub use error::{Error, ErrorKind};
pub use session::{Interrupter, Options, RunReport, Session, Sink, Stream};
