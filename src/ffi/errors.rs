//! Reading the session's last error: `dealer_last_error` (the full message),
//! `dealer_last_error_summary` (one line, as the peers print it),
//! `dealer_last_error_location` (line and column) and `dealer_last_error_exit_code` (the peers'
//! exit status).
//!
//! These only read what `boundary` stored and never go through `with_session`, which would
//! clear the error they are asked about. The strings stay owned by the session.

use std::ffi::c_char;

use super::session::dealer_session;
use super::status::*;

/// The full message of the session's last error, or an empty string when the last call
/// succeeded. Script errors read `line L, column C: message near 'text'`, then the script line
/// and a caret under the column, e.g.
/// `line 2, column 17: syntax error near '&&'\n    condition hcp(north) &&& 3\n                    ^`.
/// The pointer stays valid until the next call on the same session; never free it.
#[no_mangle]
pub extern "C" fn dealer_last_error(session: *const dealer_session) -> *const c_char {
    if session.is_null() {
        return c"session is NULL".as_ptr();
    }
    // SAFETY: a non-NULL handle came from dealer_create_session.
    unsafe { (*session).last_error_text.as_ptr() }
}

/// The session's last error in one line as the peers print it (`line N: message` for script
/// errors, without column or excerpt), or an empty string. The CLI uses it to print the same
/// bytes as the peers. The pointer stays valid until the next call on the same session.
#[no_mangle]
pub extern "C" fn dealer_last_error_summary(session: *const dealer_session) -> *const c_char {
    if session.is_null() {
        return c"session is NULL".as_ptr();
    }
    // SAFETY: a non-NULL handle came from dealer_create_session.
    unsafe { (*session).last_error_summary.as_ptr() }
}

/// Stores the script line and column of the last error (0 when it has none). Returns
/// `DEALER_OK`, or `DEALER_ERROR_NULL` when `session` is NULL. `line`/`col` may be NULL.
#[no_mangle]
pub extern "C" fn dealer_last_error_location(session: *const dealer_session, line: *mut u32, col: *mut u32) -> i32 {
    if session.is_null() {
        return DEALER_ERROR_NULL;
    }
    // SAFETY: a non-NULL handle came from dealer_create_session.
    let error = unsafe { (*session).last_error.as_ref() };
    let (l, c) = error.map(|e| (e.line.unwrap_or(0), e.col.unwrap_or(0))).unwrap_or((0, 0));
    // SAFETY: non-NULL out-pointers point to writable uint32_t.
    unsafe {
        if !line.is_null() {
            *line = l;
        }
        if !col.is_null() {
            *col = c;
        }
    }
    DEALER_OK
}

/// The process exit status the peers use for the session's last error: 0 when there is none;
/// otherwise the status of the peer's own exit for that error where it has one (255 for script,
/// option and I/O errors: the peers' `exit(-1)`), else 3 for a feature not available, 4 for a
/// failed run, 5 for a call not allowed (`untrusted`), 2 for wrong use (and for a NULL session). Used by the CLI to
/// mirror the peers.
#[no_mangle]
pub extern "C" fn dealer_last_error_exit_code(session: *const dealer_session) -> i32 {
    if session.is_null() {
        return 2;
    }
    // SAFETY: a non-NULL handle came from dealer_create_session.
    unsafe { (*session).last_error.as_ref().map(|e| e.exit_code).unwrap_or(0) }
}
