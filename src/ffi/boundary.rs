//! The library boundary every export goes through: the one place where panics are caught
//! (`guarded`, with the quiet panic hook), where a handle's last error is stored and turned
//! into a status code (`Failure`, `with_session`), and where the shared argument checks live
//! (`text_arg` for strings, `stream_of` for stream numbers).
//!
//! It guards any handle that keeps a last error and knows whether one of its calls is running
//! (`Guarded`, which the session handle implements in src/ffi/session.rs): it does not name the
//! session type it guards. It reads the status codes, the error type and the job's stream names,
//! exports no C function and owns no session state of its own beside the per-thread count of
//! calls in progress: it must not decide what a call does, only how it enters and leaves.

use std::cell::Cell;
use std::ffi::{c_char, CStr};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Once;

use crate::error::{Error, ErrorKind};
use crate::job::Stream;

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

/// A handle whose calls go through [`with_session`]: it remembers the last error and whether
/// one of its calls is running.
pub(super) trait Guarded {
    /// Whether one of the handle's calls is running (a call from inside its own callback is
    /// then refused), read through the pointer without making a reference to the handle (the
    /// running call holds one).
    ///
    /// # Safety
    ///
    /// `handle` is non-NULL and came from the handle's create function.
    unsafe fn in_call(handle: *const Self) -> bool;

    /// Marks a call of the handle as running or ended.
    fn set_in_call(&mut self, running: bool);

    /// Remembers the error of a failed call; returns its status.
    fn record(&mut self, failure: Failure) -> i32;

    /// Forgets the last error (a call is starting).
    fn clear(&mut self);
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

/// Runs `body` on a session (or another guarded handle), catching panics and recording errors.
pub(super) fn with_session<H: Guarded>(session: *mut H, body: impl FnOnce(&mut H) -> Result<i32, Failure>) -> i32 {
    if session.is_null() {
        return DEALER_ERROR_NULL;
    }
    // SAFETY: a non-NULL handle came from its create function and is used by one thread at a
    // time; `in_call` is read before any reference to the handle is made.
    if unsafe { H::in_call(session) } {
        // A call from inside one of the session's own output callbacks: refused, since the
        // session is in the middle of the outer call (the outer call's error stays).
        return DEALER_ERROR_USAGE;
    }
    // SAFETY: as above; no other reference to the handle exists during this call.
    let handle = unsafe { &mut *session };
    handle.clear();
    handle.set_in_call(true);
    let result = guarded(|| body(&mut *handle));
    handle.set_in_call(false);
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
/// The `len` bytes at `ptr` (a caller's script text): empty for a length of 0 (any pointer,
/// NULL included), refused when `ptr` is NULL with a length.
pub(super) fn bytes_arg<'a>(ptr: *const u8, len: usize, name: &str) -> Result<&'a [u8], Failure> {
    if len == 0 {
        return Ok(&[]);
    }
    if ptr.is_null() {
        return Err(Failure::null(name));
    }
    // SAFETY: the caller passes `len` readable bytes at `ptr`, which stay valid for the call.
    Ok(unsafe { std::slice::from_raw_parts(ptr, len) })
}

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

/// The stream a `DEALER_STREAM_*` value names.
pub(super) fn stream_of(stream: i32) -> Result<Stream, Failure> {
    Ok(match stream {
        DEALER_STREAM_OUTPUT => Stream::Output,
        DEALER_STREAM_DIAGNOSTICS => Stream::Diagnostics,
        DEALER_STREAM_CSV => Stream::Csv,
        DEALER_STREAM_EXPORT => Stream::Export,
        DEALER_STREAM_DEALS => Stream::Deals,
        _ => return Err(Error::new(ErrorKind::Usage, format!("unknown stream {stream}")).into()),
    })
}
