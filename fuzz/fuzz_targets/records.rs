//! Fuzz target `records`: arbitrary bytes as board records, read in every format (and the
//! format found from them) and, for some inputs, through a session's input, by the harness in
//! `harness/records.rs` (see there for the checks).

#![no_main]

#[path = "../harness/records.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::run(data));
