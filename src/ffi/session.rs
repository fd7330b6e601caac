//! The handles: `dealer_session` (create, free) and `dealer_interrupter` (create, interrupt,
//! free).
//!
//! A session handle owns one [`Session`] and the session's last error; the caller frees it
//! with `dealer_free_session`, never while one of its calls is running. An interrupter owns
//! only the session's stop flag, so it may outlive the session. Nothing here sets options or
//! runs jobs: that is for the modules named after those concerns.
//!
//! Reads the panic boundary (src/ffi/boundary.rs: the session handle is `Guarded` there, and its
//! calls go through `with_session`), the status codes, the error type and the job's `Session`
//! and `Interrupter`.

use std::ffi::CString;

use crate::error::Error;
use crate::job::Session;

use super::boundary::{guarded, with_session, Failure, Guarded};
use super::status::*;

/// An opaque libdealer session. Create it with `dealer_create_session`, free it with
/// `dealer_free_session`.
pub struct dealer_session {
    pub(super) session: Session,
    pub(super) last_error: Option<Error>,
    /// [`Error::describe`] of the last error: location, offending text and a caret.
    pub(super) last_error_text: CString,
    /// The last error as the peers print it (`line N: message`).
    pub(super) last_error_summary: CString,
    /// Whether a `dealer_*` call on this session is running (re-entry from a callback is refused).
    pub(super) in_call: bool,
    /// The part files `dealer_run` merges (`dealer_merge_add`), in the order given.
    pub(super) parts: Vec<String>,
    /// The JSON summary object of the last `dealer_run` (see `dealer_last_summary`).
    pub(super) last_summary: CString,
}

impl Guarded for dealer_session {
    unsafe fn in_call(handle: *const dealer_session) -> bool {
        // SAFETY: the caller passes a handle from dealer_create_session; only the field is read.
        unsafe { (*handle).in_call }
    }

    fn set_in_call(&mut self, running: bool) {
        self.in_call = running;
    }

    fn record(&mut self, failure: Failure) -> i32 {
        let c_text = |text: String| CString::new(text.replace('\0', " ")).unwrap_or_default();
        self.last_error_text = c_text(failure.error.describe());
        self.last_error_summary = c_text(failure.error.to_string());
        self.last_error = Some(failure.error);
        failure.status
    }

    fn clear(&mut self) {
        self.last_error = None;
        self.last_error_text = CString::default();
        self.last_error_summary = CString::default();
    }
}

/// Creates a session with default options (ChaCha generator, DealerV2 dialect) and stores its
/// handle in `*out`. The session owns everything it allocates; free it with
/// `dealer_free_session`. Returns `DEALER_OK`, or `DEALER_ERROR_NULL` when `out` is NULL.
#[no_mangle]
pub extern "C" fn dealer_create_session(out: *mut *mut dealer_session) -> i32 {
    if out.is_null() {
        return DEALER_ERROR_NULL;
    }
    let result = guarded(|| {
        Box::into_raw(Box::new(dealer_session {
            session: Session::new(),
            last_error: None,
            last_error_text: CString::default(),
            last_error_summary: CString::default(),
            in_call: false,
            parts: Vec::new(),
            last_summary: CString::default(),
        }))
    });
    match result {
        Ok(handle) => {
            // SAFETY: `out` is non-NULL and points to writable storage for one pointer.
            unsafe { *out = handle };
            DEALER_OK
        }
        Err(_) => DEALER_ERROR_INTERNAL,
    }
}

/// Frees a session and everything it owns. NULL is ignored, and so is a call from inside one of
/// the session's own output callbacks (the session is still in use then).
#[no_mangle]
pub extern "C" fn dealer_free_session(session: *mut dealer_session) {
    // SAFETY: a non-NULL handle came from dealer_create_session; `in_call` is read first.
    if !session.is_null() && !unsafe { (*session).in_call } {
        // SAFETY: the handle came from dealer_create_session and is not used after this call.
        let _ = guarded(|| drop(unsafe { Box::from_raw(session) }));
    }
}

/// A handle that stops a session's runs from another thread or from a signal handler. Create it
/// with `dealer_create_interrupter`, free it with `dealer_free_interrupter` (before or after the
/// session: it stays valid on its own).
pub struct dealer_interrupter {
    interrupter: crate::interrupter::Interrupter,
}

/// Creates an interrupter for `session` and stores it in `*out`. Returns `DEALER_OK`, or
/// `DEALER_ERROR_NULL` when `session` or `out` is NULL.
#[no_mangle]
pub extern "C" fn dealer_create_interrupter(session: *mut dealer_session, out: *mut *mut dealer_interrupter) -> i32 {
    with_session(session, |h| {
        if out.is_null() {
            return Err(Failure::null("out"));
        }
        let handle = Box::into_raw(Box::new(dealer_interrupter { interrupter: h.session.interrupter() }));
        // SAFETY: `out` is non-NULL and points to writable storage for one pointer.
        unsafe { *out = handle };
        Ok(DEALER_OK)
    })
}

/// Stops the session's run in progress (`dealer_run` or a `dealer_next_deal` loop), or its next
/// one, at the next deal: the call returns `DEALER_INTERRUPTED` after writing out the output of
/// the deals before, so every line written is complete. Each call stops one run. Safe to call
/// from any thread and from a signal handler (it only stores to an atomic flag). NULL is
/// ignored.
#[no_mangle]
pub extern "C" fn dealer_interrupt(interrupter: *const dealer_interrupter) {
    // SAFETY: a non-NULL handle came from dealer_create_interrupter and has not been freed.
    if let Some(handle) = unsafe { interrupter.as_ref() } {
        handle.interrupter.interrupt();
    }
}

/// Frees an interrupter. NULL is ignored.
#[no_mangle]
pub extern "C" fn dealer_free_interrupter(interrupter: *mut dealer_interrupter) {
    if !interrupter.is_null() {
        // SAFETY: the handle came from dealer_create_interrupter and is not used after this call.
        drop(unsafe { Box::from_raw(interrupter) });
    }
}
