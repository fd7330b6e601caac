//! Fuzz target `sessions`: the input bytes as concurrent C API call lists on several threads
//! and sessions, run by the harness in `harness/sessions.rs` (see there for the calls, the
//! contracts checked and the bounds).

#![no_main]

#[path = "../harness/api_common.rs"]
mod api_common;
#[path = "../harness/sessions.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::run(data));
