//! Merging the parts of a job cut by deal numbers (see `dealer_set_option`'s `part`, `deals`
//! and `part_file`): `dealer_merge_add` names a part file and `dealer_merge_clear` forgets
//! them. While a session holds part files, `dealer_run` merges them: the job's script and
//! options are loaded from the files and its actions run on the parts' deals, writing exactly
//! what one run of the job writes.

use std::ffi::c_char;

use super::boundary::{text_arg, with_session};
use super::session::dealer_session;
use super::status::*;

/// Adds the part file `path` (NUL-terminated) to those `dealer_run` merges. The files are
/// read when `dealer_run` merges them: a file that cannot be read, is not a whole part file,
/// or does not belong with the others (another script, options or seed; its range of deal
/// numbers missing, overlapping or given twice) is `DEALER_ERROR_USAGE` or `DEALER_ERROR_IO`
/// then, naming the file, before anything is written. Returns `DEALER_OK`.
#[no_mangle]
pub extern "C" fn dealer_merge_add(session: *mut dealer_session, path: *const c_char) -> i32 {
    with_session(session, |h| {
        let path = text_arg(path, "path")?.to_string();
        h.parts.push(path);
        Ok(DEALER_OK)
    })
}

/// Forgets the part files `dealer_merge_add` named: `dealer_run` runs the loaded script again.
#[no_mangle]
pub extern "C" fn dealer_merge_clear(session: *mut dealer_session) -> i32 {
    with_session(session, |h| {
        h.parts.clear();
        Ok(DEALER_OK)
    })
}
