//! Loading a script: `dealer_load_script` from bytes in memory and `dealer_load_script_file`
//! from a path.
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
