//! The library boundary every export goes through: the one place where panics are caught
//! (`guarded`, with the quiet panic hook), where a session's last error is stored and turned
//! into a status code (`Failure`, `with_session`), and where the shared argument checks live
//! (`text_arg` for strings, `stream_of` for stream numbers, `set_typed` and `option_error` for
//! the typed option setters).
//!
//! It exports no C function and owns no session state of its own beside the per-thread count
//! of calls in progress: it must not decide what a call does, only how it enters and leaves.

use std::cell::Cell;
use std::ffi::{c_char, CStr, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Once;

use crate::error::{Error, ErrorKind};
use crate::job::Stream;

use super::session::dealer_session;
use super::status::*;

/// Why a call failed: the status to return and the error to remember.
pub(super) struct Failure {
    pub(super) status: i32,
    pub(super) error: Error,
}

impl From<Error> for Failure {
    fn from(error: Error) -> Failure {
        let status = match error.kind {
            ErrorKind::Script => DEALER_ERROR_SCRIPT,
            ErrorKind::Option => DEALER_ERROR_OPTION,
            ErrorKind::Io => DEALER_ERROR_IO,
            ErrorKind::NotAvailable => DEALER_ERROR_NOT_AVAILABLE,
            ErrorKind::Run => DEALER_ERROR_RUN,
            ErrorKind::Usage => DEALER_ERROR_USAGE,
            ErrorKind::Interrupted => DEALER_INTERRUPTED,
            ErrorKind::NotAllowed => DEALER_ERROR_NOT_ALLOWED,
        };
        Failure { status, error }
    }
}

impl Failure {
    /// A required pointer argument was NULL.
    pub(super) fn null(name: &str) -> Failure {
        Failure { status: DEALER_ERROR_NULL, error: Error::new(ErrorKind::Usage, format!("{name} is NULL")) }
    }
}

impl dealer_session {
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

thread_local! {
    /// How many `dealer_*` calls are running on this thread (a panic inside one is reported
    /// through its status and message, not printed).
    static CALLS_IN_PROGRESS: Cell<u32> = const { Cell::new(0) };
}

/// Installs, once per process, a panic hook that stays silent for panics inside a `dealer_*`
/// call (they become `DEALER_ERROR_INTERNAL` with the panic's text in the last error) and hands
/// every other panic to the hook that was there before. This hook is the library's only
/// process-wide state besides what DDS keeps.
fn install_quiet_panic_hook() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if CALLS_IN_PROGRESS.with(Cell::get) == 0 {
                previous(info);
            }
        }));
    });
}

/// Runs `body` with panics caught; a panic comes back as its message.
pub(super) fn guarded<R>(body: impl FnOnce() -> R) -> Result<R, String> {
    install_quiet_panic_hook();
    CALLS_IN_PROGRESS.with(|c| c.set(c.get() + 1));
    let result = catch_unwind(AssertUnwindSafe(body));
    CALLS_IN_PROGRESS.with(|c| c.set(c.get() - 1));
    result.map_err(|payload| {
        payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".to_string())
    })
}

/// Runs `body` on a session, catching panics and recording errors.
pub(super) fn with_session(
    session: *mut dealer_session,
    body: impl FnOnce(&mut dealer_session) -> Result<i32, Failure>,
) -> i32 {
    if session.is_null() {
        return DEALER_ERROR_NULL;
    }
    // SAFETY: a non-NULL handle came from dealer_create_session and is used by one thread at a
    // time; `in_call` is read before any reference to the handle is made.
    if unsafe { (*session).in_call } {
        // A call from inside one of the session's own output callbacks: refused, since the
        // session is in the middle of the outer call (the outer call's error stays).
        return DEALER_ERROR_USAGE;
    }
    // SAFETY: as above; no other reference to the handle exists during this call.
    let handle = unsafe { &mut *session };
    handle.clear();
    handle.in_call = true;
    let result = guarded(|| body(&mut *handle));
    handle.in_call = false;
    match result {
        Ok(Ok(status)) => status,
        Ok(Err(failure)) => handle.record(failure),
        Err(panic) => handle.record(Failure {
            status: DEALER_ERROR_INTERNAL,
            error: Error::new(ErrorKind::Run, format!("internal error caught at the library boundary: {panic}")),
        }),
    }
}

/// Reads a NUL-terminated UTF-8 argument.
pub(super) fn text_arg<'a>(ptr: *const c_char, name: &str) -> Result<&'a str, Failure> {
    if ptr.is_null() {
        return Err(Failure::null(name));
    }
    // SAFETY: the caller passes a NUL-terminated string valid for the duration of the call.
    unsafe { CStr::from_ptr(ptr) }.to_str().map_err(|_| Failure {
        status: DEALER_ERROR_UTF8,
        error: Error::new(ErrorKind::Usage, format!("{name} is not valid UTF-8")),
    })
}

/// Sets an option from a typed setter's value.
pub(super) fn set_typed(session: *mut dealer_session, key: &str, value: String) -> i32 {
    with_session(session, |h| {
        h.session.set_option(key, &value)?;
        Ok(DEALER_OK)
    })
}

/// Records an option error found before the session's options were touched.
pub(super) fn option_error(session: *mut dealer_session, message: String) -> i32 {
    with_session(session, |_| Err(Error::new(ErrorKind::Option, message).into()))
}

/// The stream a `DEALER_STREAM_*` value names.
pub(super) fn stream_of(stream: i32) -> Result<Stream, Failure> {
    Ok(match stream {
        DEALER_STREAM_OUTPUT => Stream::Output,
        DEALER_STREAM_DIAGNOSTICS => Stream::Diagnostics,
        DEALER_STREAM_CSV => Stream::Csv,
        DEALER_STREAM_EXPORT => Stream::Export,
        _ => return Err(Error::new(ErrorKind::Usage, format!("unknown stream {stream}")).into()),
    })
}
