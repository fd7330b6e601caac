//! The C ABI: opaque session handles and `dealer_*` functions over [`Session`](crate::job::Session).
//!
//! This layer only converts arguments, catches panics, stores the last error and maps it to a
//! status code; all behaviour lives in `session`. Every function that can fail returns an
//! `int32_t` status: [`DEALER_OK`] (0), [`DEALER_DONE`] (1, the end of a `dealer_next_deal` loop)
//! or one of the negative `DEALER_ERROR_*` codes. After an error, `dealer_last_error` returns its
//! message (`line N: …` for script errors). A session is used by one thread at a time; different
//! sessions are independent.
//!
//! The rules every export follows (the code that enforces them is in `boundary`):
//!
//! - Panic boundary: no panic crosses into C. A function on a session runs its body through
//!   `with_session`, the others through `guarded`; a panic becomes `DEALER_ERROR_INTERNAL`
//!   with its text as the last error, and the quiet panic hook keeps it off standard error.
//! - Null checks: a NULL session is `DEALER_ERROR_NULL` where a status is returned (the `free`
//!   functions and `dealer_interrupt` ignore NULL, the last-error accessors answer as their
//!   docs say); a NULL required pointer is `DEALER_ERROR_NULL` with the argument named in the
//!   message, a string that is not UTF-8 `DEALER_ERROR_UTF8` (`text_arg`).
//! - Status codes: a call either succeeds (`DEALER_OK` or another non-negative status its doc
//!   names) and clears the last error, or returns the negative code of the error it stored
//!   (`Failure`). A call from inside one of the session's own callbacks is refused with
//!   `DEALER_ERROR_USAGE` and changes nothing.
//! - Ownership: the caller frees what it creates (`dealer_free_session`,
//!   `dealer_free_interrupter`); strings the library returns belong to the library (the
//!   session's, valid until its next call, or static) and are never freed by the caller;
//!   callbacks and their `userdata` stay the caller's and must outlive their registration.
//!
//! One module per concern; every public item is re-exported here, so its path stays
//! `dealer::ffi::…`. build.rs hands this file to cbindgen, which follows the `mod`
//! declarations below in their order: that order is the order of the constants and functions
//! in include/dealer.h, so a new module goes where its functions belong in the header.

// C callers pass raw pointers to every function; each dereference is checked for NULL and
// documented with its safety contract, as is usual for an FFI layer.
#![allow(non_camel_case_types, clippy::not_unsafe_ptr_arg_deref)]

// In header order (see above); a comment between the declarations keeps rustfmt from sorting
// them.
// The numbers: status codes, ceilings, streams, generators, dialects, seats.
mod status;
// The panic boundary, the last error and the shared argument checks (no export).
mod boundary;
// The session and interrupter handles.
mod session;
// `dealer_set_option`, the typed option setters and the input of records from memory.
mod options;
// `usereval` metrics in the caller's process.
mod usereval;
// Loading a script.
mod scripts;
// Mixing scenarios into one board set.
mod mix;
// Merging the parts of a job dealt in parts.
mod merge;
// Checking a script for another dealer (BBO) without loading it.
mod check;
// Output streams to callbacks or file descriptors.
mod output;
// `dealer_run` and `dealer_next_deal`.
mod run;
// Double-dummy tables and par.
mod dd;
// Expressions on the current deal.
mod eval;
// The last error's accessors.
mod errors;
// `dealer_deal` and its text forms.
mod deals;
// The version.
mod version;

#[cfg(test)]
mod tests;

pub use check::*;
pub use dd::*;
pub use deals::*;
pub use errors::*;
pub use eval::*;
pub use merge::*;
pub use mix::*;
pub use options::*;
pub use output::*;
pub use run::*;
pub use scripts::*;
pub use session::*;
pub use status::*;
pub use usereval::*;
pub use version::*;
