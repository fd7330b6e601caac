//! Loading a script: `dealer_load_script` from bytes in memory and `dealer_load_script_file`
//! from a path; `dealer_needs_double_dummy` says whether its job solves double dummy.
//!
//! The session parses and compiles it and checks the `max_script_bytes` cap; this module only
//! checks the pointers and hands the bytes or the path on. Evaluating expressions against the
//! loaded script is `eval`'s.

use std::ffi::c_char;

use super::boundary::{bytes_arg, text_arg, with_session};
use super::session::dealer_session;
use super::status::*;

/// Loads (parses and compiles) a script from `len` bytes at `text`, replacing the session's
/// previous script (and its job, current deal and compiled expressions). On a script error
/// returns `DEALER_ERROR_SCRIPT` (`dealer_last_error_location` gives its line and column) and
/// the previous script, if any, stays loaded.
#[no_mangle]
pub extern "C" fn dealer_load_script(session: *mut dealer_session, text: *const u8, len: usize) -> i32 {
    with_session(session, |h| {
        // The cap is checked before the bytes are looked at (a length of SIZE_MAX is no slice).
        h.session.check_script_size(len as u64)?;
        let bytes = bytes_arg(text, len, "script text")?;
        h.session.load_script(bytes)?;
        Ok(DEALER_OK)
    })
}

/// Loads a script from a file (NUL-terminated path). The path also becomes the input name
/// shown by `printpbn` unless the `input_name` option is set.
#[no_mangle]
pub extern "C" fn dealer_load_script_file(session: *mut dealer_session, path: *const c_char) -> i32 {
    with_session(session, |h| {
        let path = text_arg(path, "path")?;
        h.session.load_script_file(path)?;
        Ok(DEALER_OK)
    })
}

/// Whether a job of the loaded script under the session's options solves double dummy: its
/// condition or actions read double-dummy results, or its board records carry them (`pbn_dd`,
/// `json_dd`, a ZRD file with tricks). Returns 1 if so, 0 if not (also without a loaded
/// script), or `DEALER_ERROR_NULL` for a NULL session. A server uses it to keep double-dummy
/// runs to their own limit (they cost seconds where dealing costs microseconds).
#[no_mangle]
pub extern "C" fn dealer_needs_double_dummy(session: *mut dealer_session) -> i32 {
    with_session(session, |h| Ok(i32::from(h.session.needs_double_dummy())))
}
