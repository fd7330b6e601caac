//! Fuzz target `script`: arbitrary bytes as a dealer script, loaded and run by the harness in
//! `harness/script.rs` (see there for what it does and bounds).

#![no_main]

#[path = "../harness/script.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::run(data));
