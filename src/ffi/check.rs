//! `dealer_check_script`: reads a script as another dealer would (BBO's classic dealer,
//! `DEALER_CHECK_BBO`) and hands each finding to a callback as one `line:col: warning|error:
//! message\n` line, without loading the script or dealing. The check itself is
//! [`check_bbo`](crate::program::bbo_check::check_bbo).

use std::ffi::c_void;

use crate::error::{Error, ErrorKind};
use crate::program::bbo_check::{check_bbo, Severity};

use super::boundary::{with_session, Failure};
use super::output::dealer_write_fn;
use super::session::dealer_session;
use super::status::*;

/// Checks `len` bytes of script text at `text` as the dealer named by `flavour` reads it
/// (`DEALER_CHECK_BBO`: Bridge Base Online's dealer, i.e. classic dealer), without loading it
/// into the session or dealing. Each diagnostic is passed to `callback` (if not NULL) as one
/// line `line:col: warning|error: message\n` (not NUL-terminated), in the order of the text.
/// Returns the number of errors (0: BBO accepts the script; warnings are not counted), or
/// `DEALER_ERROR_USAGE` for an unknown flavour, `DEALER_ERROR_IO` when the callback returns
/// non-zero, `DEALER_ERROR_NULL` for a NULL session or NULL text with `len` > 0.
#[no_mangle]
pub extern "C" fn dealer_check_script(
    session: *mut dealer_session,
    text: *const u8,
    len: usize,
    flavour: i32,
    callback: dealer_write_fn,
    userdata: *mut c_void,
) -> i32 {
    with_session(session, |_| {
        if text.is_null() && len > 0 {
            return Err(Failure::null("script text"));
        }
        if flavour != DEALER_CHECK_BBO {
            return Err(Failure {
                status: DEALER_ERROR_USAGE,
                error: Error::new(ErrorKind::Usage, format!("unknown check flavour {flavour}")),
            });
        }
        let bytes: &[u8] = if len == 0 {
            &[]
        } else {
            // SAFETY: the caller passes `len` readable bytes at `text`.
            unsafe { std::slice::from_raw_parts(text, len) }
        };
        let diagnostics = check_bbo(bytes);
        if let Some(cb) = callback {
            for d in &diagnostics {
                let line = format!("{d}\n");
                // SAFETY: the caller's callback, called with bytes valid during the call.
                if unsafe { cb(line.as_ptr(), line.len(), userdata) } != 0 {
                    return Err(Failure {
                        status: DEALER_ERROR_IO,
                        error: Error::new(ErrorKind::Io, "the check's callback stopped the check"),
                    });
                }
            }
        }
        Ok(diagnostics.iter().filter(|d| d.severity == Severity::Error).count() as i32)
    })
}
