//! The numbers of the C ABI: the `DEALER_*` status codes every export returns, the ceilings
//! `dealer_run_report.ceiling` names, the output streams, generators, dialects and seats.
//!
//! Constants only: what they mean to a session is decided where they are used (`boundary`
//! maps errors to status codes, `options` and `output` map the others to the session's
//! settings). The values and doc comments are part of the C header; never renumber one.

/// Success.
pub const DEALER_OK: i32 = 0;
/// `dealer_next_deal`: no more deals (the generate or produce limit was reached).
pub const DEALER_DONE: i32 = 1;
/// `dealer_run`: the time limit stopped the run before any deal was produced (classic `-t`);
/// the output written is complete.
pub const DEALER_TIMED_OUT: i32 = 2;
/// The script has an error (syntax, unknown variable, bad shape …); see `dealer_last_error`.
pub const DEALER_ERROR_SCRIPT: i32 = -1;
/// An option key or value is not valid.
pub const DEALER_ERROR_OPTION: i32 = -2;
/// A file could not be read or written.
pub const DEALER_ERROR_IO: i32 = -3;
/// The script needs a feature this build does not provide yet.
pub const DEALER_ERROR_NOT_AVAILABLE: i32 = -4;
/// The run failed (for example a division by zero in the condition).
pub const DEALER_ERROR_RUN: i32 = -5;
/// Functions called in the wrong order (for example `dealer_eval` before any deal).
pub const DEALER_ERROR_USAGE: i32 = -6;
/// A required pointer argument was NULL.
pub const DEALER_ERROR_NULL: i32 = -7;
/// A string argument was not valid UTF-8.
pub const DEALER_ERROR_UTF8: i32 = -8;
/// An internal error was caught at the library boundary (a bug: please report it).
pub const DEALER_ERROR_INTERNAL: i32 = -9;
/// The run was stopped by `dealer_interrupt`; the output written before is complete.
pub const DEALER_INTERRUPTED: i32 = -10;
/// The script asks for something the session does not allow: with the `untrusted` option, a
/// call that would start an external program (`opc`, `usereval` without `dealer_set_usereval`).
/// `dealer_last_error_location` gives the call's line and column; nothing was dealt.
pub const DEALER_ERROR_NOT_ALLOWED: i32 = -11;
/// `dealer_run`: a ceiling (`max_seconds`, `max_generate`, `max_output_bytes`, or their
/// `untrusted` defaults) stopped the run early; `dealer_run_report.ceiling` says which. The output
/// written is whole: complete deals and lines, then the end-of-run report (ended after its last
/// whole line that fits, under the output ceiling).
pub const DEALER_CEILING_REACHED: i32 = 3;

/// `dealer_run_report.ceiling`: no ceiling stopped the run.
pub const DEALER_CEILING_NONE: i32 = 0;
/// `dealer_run_report.ceiling`: the wall-time ceiling (`max_seconds`) passed.
pub const DEALER_CEILING_TIME: i32 = 1;
/// `dealer_run_report.ceiling`: the run generated as many deals as `max_generate` allows, fewer
/// than its `generate` asked for.
pub const DEALER_CEILING_GENERATE: i32 = 2;
/// `dealer_run_report.ceiling`: the next deal's output would have passed `max_output_bytes`, so
/// it was not written (an end-of-run report that does not fit ends with its last whole line).
pub const DEALER_CEILING_OUTPUT: i32 = 3;

/// Output stream: deals, reports and statistics (standard output by default).
pub const DEALER_STREAM_OUTPUT: i32 = 0;
/// Output stream: messages and the progress meter (standard error by default).
pub const DEALER_STREAM_DIAGNOSTICS: i32 = 1;
/// Output stream: `csvrpt` records when no `csv_file` option is set.
pub const DEALER_STREAM_CSV: i32 = 2;
/// Output stream: `export` lines when no `export_file` option is set.
pub const DEALER_STREAM_EXPORT: i32 = 3;
/// Output stream: each produced deal as one line, its PBN deal `N:<N> <E> <S> <W>` and a newline
/// (not written unless a callback or descriptor is set): the deals as data beside the output.
pub const DEALER_STREAM_DEALS: i32 = 4;

/// `dealer_set_generator`: ChaCha8 (the default), libdealer's own fast generator.
pub const DEALER_GENERATOR_CHACHA: i32 = 0;
/// `dealer_set_generator`: DealerV2's drand48 stream (its deals for the same seed).
pub const DEALER_GENERATOR_DRAND48: i32 = 1;
/// `dealer_set_generator`: classic dealer's glibc `random()` stream (its deals for the same seed).
pub const DEALER_GENERATOR_GLIBC: i32 = 2;

/// `dealer_set_dialect`: the language of DealerV2 4.3.3 (the default).
pub const DEALER_DIALECT_V2: i32 = 0;
/// `dealer_set_dialect`: the language of classic dealer (Debian's `dealer`).
pub const DEALER_DIALECT_CLASSIC: i32 = 1;

/// `dealer_check_script`: check the script as Bridge Base Online's dealer (classic dealer) reads it.
pub const DEALER_CHECK_BBO: i32 = 1;

/// Seat index (in `dealer_deal.hands` and `dealer_set_predeal`): North.
pub const DEALER_NORTH: i32 = 0;
/// Seat index: East.
pub const DEALER_EAST: i32 = 1;
/// Seat index: South.
pub const DEALER_SOUTH: i32 = 2;
/// Seat index: West.
pub const DEALER_WEST: i32 = 3;
