//! libdealer: a bridge deal generator for the "dealer" script language of classic dealer and
//! DealerV2, as a Rust library with a C ABI.
//!
//! Data flows one way, one folder per stage:
//!
//! 1. [`script`]: script text → syntax tree (tokens, lexer, parser, error reports).
//! 2. [`program`]: syntax tree → compiled program (checking, shape sets and DealerV2's
//!    `shape{}` expander, hand statistics, scoring, the general evaluator and the compact deal
//!    expressions), and the BBO check, which reads a script through both.
//! 3. [`dealing`]: the generators, each dealing as its peer does.
//! 4. [`job`]: a session's options and the dealing loop (dealing ahead for double dummy,
//!    parallel dealing), output routing and the end-of-run report.
//! 5. [`actions`]: what runs on produced deals (printers, statistics, reports).
//!
//! Over the job stage, [`practice`] composes jobs into practice sets: levelling hand types,
//! exact quotas, interleaving and mixing scenarios; [`scale_out`] cuts a job into parts by
//! deal numbers, dealt anywhere, and merges them into exactly one run's output.
//!
//! Beside the path: [`dd`] (double dummy through DDS, ZRD library files) and [`external`]
//! (`usereval` metrics, the DealerServer, `opc`) answer the evaluator; [`ffi`] is the C ABI over
//! [`job::Session`]. [`cards`], [`error`], [`pos`], [`dialect`], [`interrupter`] and [`stack`]
//! are the shared vocabulary.

#![warn(missing_docs)]

pub mod actions;
pub mod cards;
pub mod clock;
pub mod dd;
pub mod dealing;
pub mod dialect;
pub mod error;
pub mod external;
pub mod ffi;
pub mod interrupter;
pub mod job;
pub mod pos;
pub mod practice;
pub mod program;
pub mod records;
pub mod scale_out;
pub mod script;
pub mod stack;

pub use dialect::Dialect;
pub use error::{Error, ErrorKind};
pub use job::{Interrupter, Options, RunReport, Session, Sink, Stream};
