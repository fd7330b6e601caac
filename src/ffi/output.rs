//! Where a session's output goes: the `dealer_write_fn` callback type, `dealer_set_output`
//! (a callback per stream) and `dealer_set_output_fd` (a file descriptor per stream).
//!
//! The session owns the sinks and does the writing (and the SIGPIPE handling); this module only
//! builds a `Sink` from the caller's callback or descriptor. The stream numbers are checked by
//! `boundary::stream_of`.

use std::ffi::c_void;

use crate::error::{Error, ErrorKind};
use crate::job::Sink;

use super::boundary::{stream_of, with_session};
use super::session::dealer_session;
use super::status::*;

/// Receives a piece of output: `len` bytes at `data` (not NUL-terminated). Return 0 to go on,
/// anything else to stop the run with `DEALER_ERROR_IO`.
pub type dealer_write_fn = Option<unsafe extern "C" fn(data: *const u8, len: usize, userdata: *mut c_void) -> i32>;

/// Directs one output stream (`DEALER_STREAM_*`) to a callback; a NULL callback restores the
/// default (output to standard output, diagnostics to standard error, csv and export lines into
/// the output stream). The callback is called on the thread that runs the session, with bytes
/// valid only during the call; `callback` and `userdata` must stay valid while they are set.
/// A callback must not call functions on the same session (they return `DEALER_ERROR_USAGE`).
/// Returns `DEALER_OK` or `DEALER_ERROR_USAGE` for an unknown stream.
#[no_mangle]
pub extern "C" fn dealer_set_output(
    session: *mut dealer_session,
    stream: i32,
    callback: dealer_write_fn,
    userdata: *mut c_void,
) -> i32 {
    with_session(session, |h| {
        let stream = stream_of(stream)?;
        let sink = match callback {
            None => None,
            Some(cb) => {
                let userdata = userdata as usize;
                Some(Sink::Callback(Box::new(move |bytes: &[u8]| {
                    // SAFETY: the caller promised the callback and userdata stay valid while set.
                    let rc = unsafe { cb(bytes.as_ptr(), bytes.len(), userdata as *mut c_void) };
                    if rc == 0 {
                        Ok(())
                    } else {
                        Err(std::io::Error::other(format!("output callback returned {rc}")))
                    }
                })))
            }
        };
        h.session.set_sink(stream, sink);
        Ok(DEALER_OK)
    })
}

/// Directs one output stream (`DEALER_STREAM_*`) to an open file descriptor of the caller's,
/// e.g. a file, pipe or socket; the session writes to it with `write(2)` and never closes it,
/// so keep it open while it is set (or set another output). A negative `fd` restores the
/// default, as a NULL callback does for `dealer_set_output`. A pipe or socket whose reader has
/// gone stops the run with `DEALER_ERROR_IO` (`cannot write output: Broken pipe …`), never with
/// SIGPIPE: the session blocks SIGPIPE in the writing thread around each write and consumes one
/// its write raised, leaving the program's signal dispositions, mask and pending signals as they
/// were. Returns `DEALER_OK`, `DEALER_ERROR_USAGE` for an unknown stream, or `DEALER_ERROR_IO`
/// when `fd` is not an open descriptor.
///
/// POSIX only. On Windows a descriptor belongs to one C runtime (msvcrt.dll, each UCRT or MSVC
/// runtime has a table of its own), so a descriptor of the caller's cannot be trusted to mean
/// the same file here: a descriptor (`fd` >= 0) is refused with `DEALER_ERROR_NOT_AVAILABLE`.
/// Use `dealer_set_output` with a callback that writes where the program wants instead (a
/// negative `fd` still restores the default).
#[no_mangle]
pub extern "C" fn dealer_set_output_fd(session: *mut dealer_session, stream: i32, fd: i32) -> i32 {
    with_session(session, |h| {
        let stream = stream_of(stream)?;
        let sink = if fd < 0 { None } else { Some(descriptor_sink(fd)?) };
        h.session.set_sink(stream, sink);
        Ok(DEALER_OK)
    })
}

/// The sink writing to the caller's open descriptor `fd`; `DEALER_ERROR_IO` when it is not open.
#[cfg(unix)]
fn descriptor_sink(fd: i32) -> Result<Sink, Error> {
    // SAFETY: F_GETFD only asks whether `fd` is an open descriptor.
    if unsafe { libc::fcntl(fd, libc::F_GETFD) } == -1 {
        return Err(Error::new(ErrorKind::Io, format!("{fd} is not an open file descriptor")));
    }
    Ok(Sink::Descriptor(fd))
}

/// Where descriptors belong to a C runtime of the caller's (Windows): not available.
#[cfg(not(unix))]
fn descriptor_sink(fd: i32) -> Result<Sink, Error> {
    Err(Error::new(
        ErrorKind::NotAvailable,
        format!(
            "output to file descriptor {fd}: file descriptors are not available on Windows (each C runtime has its \
             own); use dealer_set_output with a callback"
        ),
    ))
}
