//! The library version: the `DEALER_VERSION_*` constants of the header and `dealer_version`,
//! `dealer_version_number` of the library, so that a program can compare the two.
//!
//! The constants are kept equal to the crate version by a test; nothing else belongs here.

use std::ffi::c_char;

/// The library's major version (kept equal to the crate version by a test).
pub const DEALER_VERSION_MAJOR: i32 = 0;
/// The library's minor version.
pub const DEALER_VERSION_MINOR: i32 = 1;
/// The library's patch version.
pub const DEALER_VERSION_PATCH: i32 = 0;

/// The library version as a NUL-terminated string, e.g. `0.1.0`; equal to
/// `DEALER_VERSION_MAJOR.DEALER_VERSION_MINOR.DEALER_VERSION_PATCH` of the header it was built
/// with.
#[no_mangle]
pub extern "C" fn dealer_version() -> *const c_char {
    static VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), "\0");
    VERSION.as_ptr().cast()
}

/// The library version as one number, `major * 10000 + minor * 100 + patch` (e.g. 100 for
/// 0.1.0), to compare with `DEALER_VERSION_MAJOR * 10000 + DEALER_VERSION_MINOR * 100 +
/// DEALER_VERSION_PATCH` of the header a program was built with.
#[no_mangle]
pub extern "C" fn dealer_version_number() -> u32 {
    DEALER_VERSION_MAJOR as u32 * 10_000 + DEALER_VERSION_MINOR as u32 * 100 + DEALER_VERSION_PATCH as u32
}
