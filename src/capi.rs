//! The C ABI: opaque session handles and `dealer_*` functions over [`Session`].
//!
//! This layer only converts arguments, catches panics, stores the last error and maps it to a
//! status code; all behaviour lives in `session`. Every function that can fail returns an
//! `int32_t` status: [`DEALER_OK`] (0), [`DEALER_DONE`] (1, the end of a `dealer_next_deal` loop)
//! or one of the negative `DEALER_ERROR_*` codes. After an error, `dealer_last_error` returns its
//! message (`line N: …` for script errors). A session is used by one thread at a time; different
//! sessions are independent.

// C callers pass raw pointers to every function; each dereference is checked for NULL and
// documented with its safety contract, as is usual for an FFI layer.
#![allow(non_camel_case_types, clippy::not_unsafe_ptr_arg_deref)]

use std::ffi::{c_char, c_void, CStr, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::cards::{Deal, Hand};
use crate::error::{Error, ErrorKind};
use crate::session::{Session, Sink, Stream};

/// Success.
pub const DEALER_OK: i32 = 0;
/// `dealer_next_deal`: no more deals (the generate or produce limit was reached).
pub const DEALER_DONE: i32 = 1;
/// `dealer_run`: the time limit stopped the run before any deal was produced (classic `-t`);
/// the output written is complete.
pub const DEALER_TIMED_OUT: i32 = 2;
/// The script has an error (syntax, unknown variable, bad shape …); see `dealer_last_error`.
pub const DEALER_ERROR_SCRIPT: i32 = -1;
/// An option key or value is not valid.
pub const DEALER_ERROR_OPTION: i32 = -2;
/// A file could not be read or written.
pub const DEALER_ERROR_IO: i32 = -3;
/// The script needs a feature this build does not provide yet.
pub const DEALER_ERROR_NOT_AVAILABLE: i32 = -4;
/// The run failed (for example a division by zero in the condition).
pub const DEALER_ERROR_RUN: i32 = -5;
/// Functions called in the wrong order (for example `dealer_eval` before any deal).
pub const DEALER_ERROR_USAGE: i32 = -6;
/// A required pointer argument was NULL.
pub const DEALER_ERROR_NULL: i32 = -7;
/// A string argument was not valid UTF-8.
pub const DEALER_ERROR_UTF8: i32 = -8;
/// An internal error was caught at the library boundary (a bug: please report it).
pub const DEALER_ERROR_INTERNAL: i32 = -9;

/// Output stream: deals, reports and statistics (standard output by default).
pub const DEALER_STREAM_OUTPUT: i32 = 0;
/// Output stream: messages and the progress meter (standard error by default).
pub const DEALER_STREAM_DIAGNOSTICS: i32 = 1;
/// Output stream: `csvrpt` records when no `csv_file` option is set.
pub const DEALER_STREAM_CSV: i32 = 2;
/// Output stream: `export` lines when no `export_file` option is set.
pub const DEALER_STREAM_EXPORT: i32 = 3;

/// A deal: four hands as card bitmasks, indexed North 0, East 1, South 2, West 3. In each mask
/// bit `16 * suit + rank` is set for a held card, with suit clubs 0, diamonds 1, hearts 2,
/// spades 3 and rank 0 for the deuce up to 12 for the ace.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct dealer_deal {
    /// The hands of North, East, South and West.
    pub hands: [u64; 4],
}

/// Counters of a finished `dealer_run`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct dealer_run_report {
    /// Deals generated.
    pub generated: i64,
    /// Deals produced (that satisfied the condition).
    pub produced: i64,
    /// The seed, as the end-of-run statistics print it.
    pub seed: u64,
}

/// Receives a piece of output: `len` bytes at `data` (not NUL-terminated). Return 0 to go on,
/// anything else to stop the run with `DEALER_ERROR_IO`.
pub type dealer_write_fn = Option<unsafe extern "C" fn(data: *const u8, len: usize, userdata: *mut c_void) -> i32>;

/// An opaque libdealer session. Create it with `dealer_create_session`, free it with
/// `dealer_free_session`.
pub struct dealer_session {
    session: Session,
    last_error: Option<Error>,
    last_error_text: CString,
}

/// Why a call failed: the status to return and the error to remember.
struct Failure {
    status: i32,
    error: Error,
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
        };
        Failure { status, error }
    }
}

impl Failure {
    /// A required pointer argument was NULL.
    fn null(name: &str) -> Failure {
        Failure { status: DEALER_ERROR_NULL, error: Error::new(ErrorKind::Usage, format!("{name} is NULL")) }
    }
}

impl dealer_session {
    fn record(&mut self, failure: Failure) -> i32 {
        self.last_error_text = CString::new(failure.error.to_string().replace('\0', " ")).unwrap_or_default();
        self.last_error = Some(failure.error);
        failure.status
    }

    fn clear(&mut self) {
        self.last_error = None;
        self.last_error_text = CString::default();
    }
}

/// Runs `body` on a session, catching panics and recording errors.
fn with_session(session: *mut dealer_session, body: impl FnOnce(&mut dealer_session) -> Result<i32, Failure>) -> i32 {
    if session.is_null() {
        return DEALER_ERROR_NULL;
    }
    // SAFETY: a non-NULL handle came from dealer_create_session and is used by one thread at a time.
    let handle = unsafe { &mut *session };
    handle.clear();
    match catch_unwind(AssertUnwindSafe(|| body(handle))) {
        Ok(Ok(status)) => status,
        Ok(Err(failure)) => handle.record(failure),
        Err(_) => handle.record(Failure {
            status: DEALER_ERROR_INTERNAL,
            error: Error::new(ErrorKind::Run, "internal error (panic caught at the library boundary)"),
        }),
    }
}

/// Reads a NUL-terminated UTF-8 argument.
fn text_arg<'a>(ptr: *const c_char, name: &str) -> Result<&'a str, Failure> {
    if ptr.is_null() {
        return Err(Failure::null(name));
    }
    // SAFETY: the caller passes a NUL-terminated string valid for the duration of the call.
    unsafe { CStr::from_ptr(ptr) }.to_str().map_err(|_| Failure {
        status: DEALER_ERROR_UTF8,
        error: Error::new(ErrorKind::Usage, format!("{name} is not valid UTF-8")),
    })
}

/// Creates a session with default options (ChaCha generator, DealerV2 dialect) and stores its
/// handle in `*out`. Returns `DEALER_OK`, or `DEALER_ERROR_NULL` when `out` is NULL.
#[no_mangle]
pub extern "C" fn dealer_create_session(out: *mut *mut dealer_session) -> i32 {
    if out.is_null() {
        return DEALER_ERROR_NULL;
    }
    let result = catch_unwind(|| {
        Box::into_raw(Box::new(dealer_session {
            session: Session::new(),
            last_error: None,
            last_error_text: CString::default(),
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

/// Frees a session and everything it owns. NULL is ignored.
#[no_mangle]
pub extern "C" fn dealer_free_session(session: *mut dealer_session) {
    if !session.is_null() {
        // SAFETY: the handle came from dealer_create_session and is not used after this call.
        let _ = catch_unwind(AssertUnwindSafe(|| drop(unsafe { Box::from_raw(session) })));
    }
}

/// Sets an option by key and value (both NUL-terminated UTF-8). Keys: `rng` (`chacha`,
/// `drand48`, `glibc`), `dialect` (`classic`, `v2`), `seed`, `generate`, `produce`, `title`,
/// `swap` (0, 2, 3), `quiet`, `statistics`, `progress` (`true`/`false`), `csv_file`
/// (`[w:]path`), `export_file`, `predeal_north` … `predeal_west` (e.g. `SAK,HQ`), `var0` …
/// `var9` (script variables `$0`..`$9`), `input_name`. Set `rng`, `dialect` and `var*` before
/// loading the script.
#[no_mangle]
pub extern "C" fn dealer_set_option(session: *mut dealer_session, key: *const c_char, value: *const c_char) -> i32 {
    with_session(session, |h| {
        let key = text_arg(key, "key")?;
        let value = text_arg(value, "value")?;
        h.session.set_option(key, value)?;
        Ok(DEALER_OK)
    })
}

/// Loads (parses and compiles) a script from `len` bytes at `text`. On a script error returns
/// `DEALER_ERROR_SCRIPT`; `dealer_last_error_location` gives its line and column.
#[no_mangle]
pub extern "C" fn dealer_load_script(session: *mut dealer_session, text: *const u8, len: usize) -> i32 {
    with_session(session, |h| {
        if text.is_null() && len > 0 {
            return Err(Failure::null("script text"));
        }
        let bytes: &[u8] = if len == 0 {
            &[]
        } else {
            // SAFETY: the caller passes `len` readable bytes at `text`.
            unsafe { std::slice::from_raw_parts(text, len) }
        };
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

/// Directs one output stream (`DEALER_STREAM_*`) to a callback; a NULL callback restores the
/// default. The callback is called on the thread that runs the session.
#[no_mangle]
pub extern "C" fn dealer_set_output(
    session: *mut dealer_session,
    stream: i32,
    callback: dealer_write_fn,
    userdata: *mut c_void,
) -> i32 {
    with_session(session, |h| {
        let stream = match stream {
            DEALER_STREAM_OUTPUT => Stream::Output,
            DEALER_STREAM_DIAGNOSTICS => Stream::Diagnostics,
            DEALER_STREAM_CSV => Stream::Csv,
            DEALER_STREAM_EXPORT => Stream::Export,
            _ => return Err(Error::new(ErrorKind::Usage, format!("unknown stream {stream}")).into()),
        };
        let sink = match callback {
            None => match stream {
                Stream::Diagnostics => Sink::Stderr,
                _ => Sink::Stdout,
            },
            Some(cb) => {
                let userdata = userdata as usize;
                Sink::Callback(Box::new(move |bytes: &[u8]| {
                    // SAFETY: the caller promised the callback and userdata stay valid while set.
                    let rc = unsafe { cb(bytes.as_ptr(), bytes.len(), userdata as *mut c_void) };
                    if rc == 0 {
                        Ok(())
                    } else {
                        Err(std::io::Error::other(format!("output callback returned {rc}")))
                    }
                }))
            }
        };
        h.session.set_sink(stream, sink);
        Ok(DEALER_OK)
    })
}

/// Runs the whole job of the loaded script: deals, actions and end-of-run report, written to
/// the output streams. `report` may be NULL; otherwise it receives the counters. Returns
/// `DEALER_OK`, or `DEALER_TIMED_OUT` when the `time_limit` option stopped a run that had
/// produced nothing.
#[no_mangle]
pub extern "C" fn dealer_run(session: *mut dealer_session, report: *mut dealer_run_report) -> i32 {
    with_session(session, |h| {
        let r = h.session.run()?;
        if !report.is_null() {
            // SAFETY: non-NULL `report` points to a writable dealer_run_report.
            unsafe { *report = dealer_run_report { generated: r.generated, produced: r.produced, seed: r.seed } };
        }
        Ok(if r.timed_out { DEALER_TIMED_OUT } else { DEALER_OK })
    })
}

/// Deals until a deal satisfies the condition and stores it in `*deal`: returns `DEALER_OK`,
/// or `DEALER_DONE` when the generate limit (or an explicitly set produce limit) is reached.
/// No actions run. The deal becomes the current deal for `dealer_eval`.
#[no_mangle]
pub extern "C" fn dealer_next_deal(session: *mut dealer_session, deal: *mut dealer_deal) -> i32 {
    with_session(session, |h| {
        if deal.is_null() {
            return Err(Failure::null("deal"));
        }
        match h.session.next_deal()? {
            Some(d) => {
                // SAFETY: non-NULL `deal` points to a writable dealer_deal.
                unsafe { *deal = dealer_deal { hands: d.0.map(|h| h.0) } };
                Ok(DEALER_OK)
            }
            None => Ok(DEALER_DONE),
        }
    })
}

/// All double-dummy results of a deal, filled in by [`dealer_dds_table`]. Set `size` to
/// `sizeof(dealer_dds_results)` and `par_vulnerability` before the call.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct dealer_dds_results {
    /// In: the size of this struct in bytes (`sizeof(dealer_dds_results)`), so that later versions
    /// can add fields.
    pub size: u32,
    /// In: the vulnerability of the par result wanted: 0 none, 1 North–South, 2 East–West,
    /// 3 both, or -1 for no par result.
    pub par_vulnerability: i32,
    /// Out: `tricks[declarer][strain]` is the number of tricks the declarer takes, with the
    /// opening lead from the declarer's left. Declarer: 0 North, 1 East, 2 South, 3 West.
    /// Strain: 0 clubs, 1 diamonds, 2 hearts, 3 spades, 4 notrump.
    pub tricks: [[i32; 5]; 4],
    /// Out: the par score from North–South's point of view (0 when no par was asked for).
    pub par_score_ns: i32,
    /// Out: DealerV2's par-contract text, NUL-terminated, e.g. `" 4H  by NS both"` or
    /// `" 7D* by EW ns"` (`*`: a sacrifice); empty when no par was asked for.
    pub par_contract: [c_char; 32],
}

/// Fills `table` with the 20 double-dummy results of `deal`, or of the session's current deal
/// (the last one `dealer_next_deal` returned) when `deal` is NULL, and with the par result for
/// `table->par_vulnerability` unless it is -1. Results of the current deal are shared with the
/// script's `dds()` and `par()`. Returns [`DEALER_OK`]; [`DEALER_ERROR_USAGE`] without a current
/// deal, for a deal that is not a complete deal, or for a wrong `size`;
/// [`DEALER_ERROR_OPTION`] for a vulnerability outside -1..3; [`DEALER_ERROR_RUN`] when the
/// solver fails (the message names the deal).
#[no_mangle]
pub extern "C" fn dealer_dds_table(
    session: *mut dealer_session,
    deal: *const dealer_deal,
    table: *mut dealer_dds_results,
) -> i32 {
    with_session(session, |h| {
        if table.is_null() {
            return Err(Failure::null("table"));
        }
        // SAFETY: non-NULL `table` points to a dealer_dds_results the caller owns.
        let out = unsafe { &mut *table };
        if (out.size as usize) < std::mem::size_of::<dealer_dds_results>() {
            return Err(Error::new(ErrorKind::Usage, "table->size must be sizeof(dealer_dds_results)").into());
        }
        use crate::script::ast::Vulnerability;
        let par = match out.par_vulnerability {
            -1 => None,
            0 => Some(Vulnerability::None),
            1 => Some(Vulnerability::NS),
            2 => Some(Vulnerability::EW),
            3 => Some(Vulnerability::All),
            v => return Err(Error::new(ErrorKind::Option, format!("par_vulnerability must be -1..3, not {v}")).into()),
        };
        // SAFETY: a non-NULL `deal` points to a readable dealer_deal.
        let deal = (!deal.is_null()).then(|| Deal(unsafe { *deal }.hands.map(Hand)));
        let (tricks, par) = h.session.dd_table(deal.as_ref(), par)?;
        out.tricks = tricks.0.map(|row| row.map(i32::from));
        out.par_score_ns = par.as_ref().map_or(0, |p| p.score_ns);
        out.par_contract = [0; 32];
        if let Some(p) = &par {
            for (dst, src) in out.par_contract.iter_mut().zip(p.contract.bytes().take(31)) {
                *dst = src as c_char;
            }
        }
        Ok(DEALER_OK)
    })
}

/// Evaluates an expression in script syntax (the script's variables are visible) on the
/// current deal and stores the value in `*value`.
#[no_mangle]
pub extern "C" fn dealer_eval(session: *mut dealer_session, expression: *const c_char, value: *mut i32) -> i32 {
    with_session(session, |h| {
        let expression = text_arg(expression, "expression")?;
        if value.is_null() {
            return Err(Failure::null("value"));
        }
        let v = h.session.eval(expression)?;
        // SAFETY: non-NULL `value` points to a writable int32_t.
        unsafe { *value = v };
        Ok(DEALER_OK)
    })
}

/// The message of the session's last error (`line N: message` for script errors), or an empty
/// string. The pointer stays valid until the next call on the same session.
#[no_mangle]
pub extern "C" fn dealer_last_error(session: *const dealer_session) -> *const c_char {
    if session.is_null() {
        return c"session is NULL".as_ptr();
    }
    // SAFETY: a non-NULL handle came from dealer_create_session.
    unsafe { (*session).last_error_text.as_ptr() }
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

/// The process exit status the peers use for the session's last error (255 for script errors,
/// 0 when there is none). Used by the CLI to mirror the peers.
#[no_mangle]
pub extern "C" fn dealer_last_error_exit_code(session: *const dealer_session) -> i32 {
    if session.is_null() {
        return 2;
    }
    // SAFETY: a non-NULL handle came from dealer_create_session.
    unsafe { (*session).last_error.as_ref().map(|e| e.exit_code).unwrap_or(0) }
}

/// Writes the deal as a PBN `[Deal]` value (`N:AKQ.… …`) into `buffer` of `size` bytes,
/// NUL-terminated. Returns the length of the text without the NUL; when that is `>= size` the
/// text was truncated (call again with a larger buffer). `buffer` may be NULL when `size` is 0.
#[no_mangle]
pub extern "C" fn dealer_deal_to_pbn(deal: *const dealer_deal, buffer: *mut c_char, size: usize) -> usize {
    if deal.is_null() {
        return 0;
    }
    // SAFETY: non-NULL `deal` points to a readable dealer_deal.
    let d = unsafe { *deal };
    let text = Deal(d.hands.map(Hand)).pbn();
    if !buffer.is_null() && size > 0 {
        let n = text.len().min(size - 1);
        // SAFETY: `buffer` has room for `size` bytes; we write n + 1 <= size.
        unsafe {
            std::ptr::copy_nonoverlapping(text.as_ptr(), buffer.cast::<u8>(), n);
            *buffer.add(n) = 0;
        }
    }
    text.len()
}

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

#[cfg(test)]
mod tests {
    #[test]
    fn version_constants_follow_the_crate_version() {
        let parts: Vec<i32> = env!("CARGO_PKG_VERSION").split('.').map(|p| p.parse().unwrap()).collect();
        assert_eq!(parts, [super::DEALER_VERSION_MAJOR, super::DEALER_VERSION_MINOR, super::DEALER_VERSION_PATCH]);
    }
}
