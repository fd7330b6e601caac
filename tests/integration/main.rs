//! The library's integration tests, one module per subject, in one test binary: each test
//! binary links the whole library again (with the release profile's link-time optimisation,
//! about half a minute of CPU each), so one binary instead of six saves minutes of `make test`.
//!
//! `cargo test --release --test integration MODULE::` runs one subject's tests (e.g.
//! `thread_count_property::`).

// The fuzzers' harnesses (fuzz/harness), which the fuzz regression tests replay inputs through;
// they name each other from the crate root (`crate::api_common`), as in the fuzz targets.
#[path = "../../fuzz/harness/api_common.rs"]
mod api_common;
#[path = "../../fuzz/harness/capi.rs"]
mod capi;
#[path = "../../fuzz/harness/records.rs"]
mod records;
#[path = "../../fuzz/harness/script.rs"]
mod script;
#[path = "../../fuzz/harness/sessions.rs"]
mod sessions;

mod fuzz_regressions;
mod linear_bad_input;
mod practice_exactness;
mod smart_dealing;
mod statistics;
mod thread_count_property;
