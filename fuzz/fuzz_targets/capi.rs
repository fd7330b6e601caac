//! Fuzz target `capi`: the input bytes as a program of C API calls, run by the harness in
//! `harness/capi.rs` (see there for the calls, the contracts checked and the bounds).

#![no_main]

#[path = "../harness/api_common.rs"]
mod api_common;
#[path = "../harness/capi.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::run(data));
