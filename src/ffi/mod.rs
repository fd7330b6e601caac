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

use std::cell::Cell;
use std::ffi::{c_char, c_void, CStr, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Once;

use crate::cards::{Deal, Hand};
use crate::error::{Error, ErrorKind};
use crate::external::usereval::{Metric, Query, QueryContext, SLOTS};
use crate::job::{Ceiling, MetricMaker, Session, Sink, Stream};

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
/// The run was stopped by `dealer_interrupt`; the output written before is complete.
pub const DEALER_INTERRUPTED: i32 = -10;
/// The script asks for something the session does not allow: with the `untrusted` option, a
/// call that would start an external program (`opc`, `usereval` without `dealer_set_usereval`).
/// `dealer_last_error_location` gives the call's line and column; nothing was dealt.
pub const DEALER_ERROR_NOT_ALLOWED: i32 = -11;
/// `dealer_run`: a ceiling (`max_seconds`, `max_generate`, `max_output_bytes`, or their
/// `untrusted` defaults) stopped the run early; `dealer_run_report.ceiling` says which. The output
/// written is whole: complete deals and lines, then the end-of-run report (ended after its last
/// whole line that fits, under the output ceiling).
pub const DEALER_CEILING_REACHED: i32 = 3;

/// `dealer_run_report.ceiling`: no ceiling stopped the run.
pub const DEALER_CEILING_NONE: i32 = 0;
/// `dealer_run_report.ceiling`: the wall-time ceiling (`max_seconds`) passed.
pub const DEALER_CEILING_TIME: i32 = 1;
/// `dealer_run_report.ceiling`: the run generated as many deals as `max_generate` allows, fewer
/// than its `generate` asked for.
pub const DEALER_CEILING_GENERATE: i32 = 2;
/// `dealer_run_report.ceiling`: the next deal's output would have passed `max_output_bytes`, so
/// it was not written (an end-of-run report that does not fit ends with its last whole line).
pub const DEALER_CEILING_OUTPUT: i32 = 3;

/// Output stream: deals, reports and statistics (standard output by default).
pub const DEALER_STREAM_OUTPUT: i32 = 0;
/// Output stream: messages and the progress meter (standard error by default).
pub const DEALER_STREAM_DIAGNOSTICS: i32 = 1;
/// Output stream: `csvrpt` records when no `csv_file` option is set.
pub const DEALER_STREAM_CSV: i32 = 2;
/// Output stream: `export` lines when no `export_file` option is set.
pub const DEALER_STREAM_EXPORT: i32 = 3;

/// `dealer_set_generator`: ChaCha8 (the default), libdealer's own fast generator.
pub const DEALER_GENERATOR_CHACHA: i32 = 0;
/// `dealer_set_generator`: DealerV2's drand48 stream (its deals for the same seed).
pub const DEALER_GENERATOR_DRAND48: i32 = 1;
/// `dealer_set_generator`: classic dealer's glibc `random()` stream (its deals for the same seed).
pub const DEALER_GENERATOR_GLIBC: i32 = 2;

/// `dealer_set_dialect`: the language of DealerV2 4.3.3 (the default).
pub const DEALER_DIALECT_V2: i32 = 0;
/// `dealer_set_dialect`: the language of classic dealer (Debian's `dealer`).
pub const DEALER_DIALECT_CLASSIC: i32 = 1;

/// Seat index (in `dealer_deal.hands` and `dealer_set_predeal`): North.
pub const DEALER_NORTH: i32 = 0;
/// Seat index: East.
pub const DEALER_EAST: i32 = 1;
/// Seat index: South.
pub const DEALER_SOUTH: i32 = 2;
/// Seat index: West.
pub const DEALER_WEST: i32 = 3;

/// A deal: four hands as card bitmasks, indexed North 0, East 1, South 2, West 3. In each mask
/// bit `16 * suit + rank` is set for a held card, with suit clubs 0, diamonds 1, hearts 2,
/// spades 3 and rank 0 for the deuce up to 12 for the ace. The layout is fixed (a deal is always
/// four hands), so this struct has no size field.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct dealer_deal {
    /// The hands of North, East, South and West.
    pub hands: [u64; 4],
}

/// Counters of a finished `dealer_run`. Set `size` to `sizeof(dealer_run_report)` before the
/// call.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct dealer_run_report {
    /// In: the size of this struct in bytes (`sizeof(dealer_run_report)`), so that later versions
    /// can add fields.
    pub size: u32,
    /// Deals generated.
    pub generated: i64,
    /// Deals produced (that satisfied the condition).
    pub produced: i64,
    /// The seed, as the end-of-run statistics print it.
    pub seed: u64,
    /// The ceiling that stopped the run early (`DEALER_CEILING_*`), `DEALER_CEILING_NONE` if
    /// none did. A caller built with an older header, whose struct ends before this field (its
    /// `size` says so), gets the fields before it.
    pub ceiling: i32,
}

/// The size of `dealer_run_report` before the `ceiling` field was added, which `dealer_run`
/// still accepts.
const RUN_REPORT_V1_SIZE: usize = std::mem::offset_of!(dealer_run_report, ceiling);

/// Receives a piece of output: `len` bytes at `data` (not NUL-terminated). Return 0 to go on,
/// anything else to stop the run with `DEALER_ERROR_IO`.
pub type dealer_write_fn = Option<unsafe extern "C" fn(data: *const u8, len: usize, userdata: *mut c_void) -> i32>;

/// An opaque libdealer session. Create it with `dealer_create_session`, free it with
/// `dealer_free_session`.
pub struct dealer_session {
    session: Session,
    last_error: Option<Error>,
    /// [`Error::describe`] of the last error: location, offending text and a caret.
    last_error_text: CString,
    /// The last error as the peers print it (`line N: message`).
    last_error_summary: CString,
    /// Whether a `dealer_*` call on this session is running (re-entry from a callback is refused).
    in_call: bool,
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
            ErrorKind::Interrupted => DEALER_INTERRUPTED,
            ErrorKind::NotAllowed => DEALER_ERROR_NOT_ALLOWED,
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
fn guarded<R>(body: impl FnOnce() -> R) -> Result<R, String> {
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
fn with_session(session: *mut dealer_session, body: impl FnOnce(&mut dealer_session) -> Result<i32, Failure>) -> i32 {
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
    interrupter: crate::job::Interrupter,
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

/// Sets an option by key and value (both NUL-terminated UTF-8). Returns `DEALER_OK`, or
/// `DEALER_ERROR_OPTION` for an unknown key or a value the key does not take (the message names
/// both, and the option keeps its value). Setting an option ends the job in progress and discards the
/// current deal: the next `dealer_run` or `dealer_next_deal` starts a new one. Whole numbers are an optional sign and
/// decimal digits, nothing else. The keys (the CLI's switch in parentheses):
///
/// - `rng`: the random generator and its dealing algorithm: `chacha` (the default), `drand48`
///   (DealerV2's deals) or `glibc` (classic dealer's deals); see `dealer_set_generator`. Set it
///   before loading the script.
/// - `generator`: the same as `rng`.
/// - `dialect`: the script language and output formats: `v2` (or `dealerv2`) or `classic`; by
///   default classic with the glibc generator, else DealerV2's. Set it before loading the
///   script.
/// - `seed`: a whole number (`-s`); 0 means a random seed: see `dealer_set_seed`, and
///   `dealer_get_seed` to read back the seed used.
/// - `generate`: a whole number, 0 or more, the most deals a run generates (`-g`); 0 restores
///   the script's `generate` (default 10,000,000); `nothing` generates no deal (what the peers
///   do with a negative `-g` or `-p`).
/// - `produce`: a whole number, 0 or more, the most deals a run produces (`-p`); 0 restores the
///   script's `produce`.
/// - `time_limit`: whole seconds, 0 (the default) for none: a `dealer_run` that has produced
///   nothing by then stops with `DEALER_TIMED_OUT`; one that has goes on (classic `-t`).
/// - `threads`: 0 (one per core up to 64, the default) to 64, the threads for dealing and double dummy
///   (`-R`); see `dealer_set_threads`.
/// - `title`: the title, instead of the script's `title` (`-T`).
/// - `input_name`: the input name `printpbn` shows (default: the path given to
///   `dealer_load_script_file`).
/// - `swap`: the swapping mode `0`, `2` or `3` (`-x`; classic `-2`, `-3`).
/// - `quiet`, `statistics`, `progress`: `true` or `false` (or `1`/`0`, `yes`/`no`, `on`/`off`):
///   no `printpbn` output (`-q`); the end-of-run statistics (default true; `-v`); a progress
///   meter on the diagnostics stream (`-m`).
/// - `csv_file`: `[w:]path` (file options take any path but the empty one), the file `csvrpt` appends to (`w:` empties it first; `-C`);
///   without it the records go to `DEALER_STREAM_CSV`.
/// - `export_file`: the file `export` writes to (`-X`); without it, `DEALER_STREAM_EXPORT`.
/// - `predeal_north`, `predeal_east`, `predeal_south`, `predeal_west`: cards for the seat such
///   as `SAK,HQ` (`-N`, `-E`, `-S`, `-W`); see `dealer_set_predeal`. Empty removes them.
///   Suit letters `S`, `H`, `D`, `C` and ranks `AKQJT98765432` (any case), separated by
///   nothing, commas, blanks or `-`; only the first 31 characters count (as in DealerV2). Any
///   other character, a rank before a suit letter, or a card given twice is refused.
/// - `var0`, `var1`, `var2`, `var3`, `var4`, `var5`, `var6`, `var7`, `var8`, `var9`: script
///   variables `$0` to `$9` (`-0` to `-9`); see `dealer_set_variable`. Set them before loading
///   the script.
/// - `dds_mode`: `1` (solve each result asked for, the default) or `2` (whole tables; `-M`).
/// - `dds_table_mb`: the most transposition-table memory each double-dummy thread's solver uses,
///   in MB, 16 to 4096 (default 160, as in DDS); a solver starts with 95 MB or this if smaller,
///   plus about 6 MB it always holds. Results do not depend on it; a small table slows hard
///   deals. Memory for double dummy is about `threads` × (`dds_table_mb` + 10) MB.
/// - `par_vulnerability`: the vulnerability for `par` and `parcontract` when the script names
///   none (`-P`): `0` or `none` (the default), `1` or `ns`, `2` or `ew`, `3`, `both` or `all`.
/// - `library_file`: a ZRD file to read the deals and their double-dummy results from
///   (DealerV2's library mode, `-L`); the seed is then a block offset into it.
/// - `zrd_file`: `[w][N]:path`, a ZRD file each produced deal is appended to with its 20
///   double-dummy results (`w` empties it first, `N` leaves the results out; `-Z`).
/// - `dl52_file`: `[w]:path`, a file each produced deal is appended to as 52 card bytes
///   (`w` empties it first; `-l`).
/// - `server`: the DealerServer program that answers `usereval` (`-U`; default DealerV2's
///   path), unless `dealer_set_usereval` set a callback.
/// - `external_timeout`: the seconds (above 0, at most 86400, fractions allowed; default 30) a
///   DealerServer answer or an `opc` run may take before the run fails.
/// - `opc_program`: the DOP program `opc` runs (default DealerV2's path).
/// - `opener`: the opener `opc` assumes, `N`, `E`, `S` or `W`, in either case (`-O`; default
///   West).
/// - `debug`: DealerV2's debug levels `n[.m]` (`-D`; `n:m` also), passed on to the
///   DealerServer: n from 0 to 99, m from 0 to 9999, digits only.
/// - `untrusted`: `true` or `false` (the default; `--untrusted`): a script typed by a user may
///   start no external program and runs within the ceilings below; see `dealer_set_untrusted`.
/// - `max_seconds`: the wall-time ceiling of a run, and of each `dealer_next_deal` call, in
///   seconds (fractions allowed); 0 for none, `default` for the default (10 under `untrusted`,
///   else none). A run it stops returns `DEALER_CEILING_REACHED`.
/// - `max_generate`: the ceiling on deals generated (the script's `generate` and `produce`
///   above it are capped); 0 for none, `default` for the default (10,000,000 under `untrusted`,
///   else none).
/// - `max_output_bytes`: the ceiling on bytes written to the output, csv and export streams and
///   ZRD/DL52 files (never half a deal or line); 0 for none, `default` for the default (1 MiB
///   under `untrusted`, else none).
/// - `max_script_bytes`: the longest script `dealer_load_script` and `dealer_load_script_file`
///   accept, in bytes, 1 or more (default 16777216, 16 MiB); checked before the script is read
///   or copied.
#[no_mangle]
pub extern "C" fn dealer_set_option(session: *mut dealer_session, key: *const c_char, value: *const c_char) -> i32 {
    with_session(session, |h| {
        let key = text_arg(key, "key")?;
        let value = text_arg(value, "value")?;
        h.session.set_option(key, value)?;
        Ok(DEALER_OK)
    })
}

/// Turns the `untrusted` option on (`enabled` non-zero) or off, for scripts typed by users (a
/// practice server). Under it a script cannot start any program: `opc` and `usereval` (unless
/// `dealer_set_usereval` set an in-process metric) fail with `DEALER_ERROR_NOT_ALLOWED` at the
/// call's line and column before anything is dealt (`opc` already when the script is loaded).
/// Files are opened only through the embedder's options (`csv_file`, `export_file`,
/// `zrd_file`, `dl52_file`, `library_file`): the script language names none. And the run
/// ceilings default to 10 seconds of wall time, 10,000,000 generated deals and 1 MiB of output
/// (options `max_seconds`, `max_generate`, `max_output_bytes` override them); `dealer_run`
/// returns `DEALER_CEILING_REACHED` when one stops a run. Returns `DEALER_OK`.
#[no_mangle]
pub extern "C" fn dealer_set_untrusted(session: *mut dealer_session, enabled: i32) -> i32 {
    set_typed(session, "untrusted", (if enabled != 0 { "true" } else { "false" }).to_string())
}

/// Sets the seed of the random generator (the `seed` option; `-s`). With the same seed,
/// generator, options and script, a session deals the same deals on every machine.
///
/// Seed 0, like no seed at all, means a random seed: each job (a `dealer_run`, or a loop of
/// `dealer_next_deal`) chooses its own, and `dealer_get_seed` reads it back. Seed 0 also
/// overrides the script's `seed` statement, as DealerV2's `-s 0` does. Two exceptions follow
/// the peers: the glibc generator takes 0 as a seed like any other, as classic dealer does
/// (without a seed it uses the current time); and in library mode (the `library_file` option)
/// the seed is the block offset into the file, 0 its start. Like every option, it ends the job
/// in progress and discards the current deal: call `dealer_next_deal` before `dealer_eval`
/// again. Returns `DEALER_OK`.
#[no_mangle]
pub extern "C" fn dealer_set_seed(session: *mut dealer_session, seed: i64) -> i32 {
    set_typed(session, "seed", seed.to_string())
}

/// Stores in `*seed` the seed of the session's last job (the last `dealer_run`, or the current
/// loop of `dealer_next_deal`) as long as no option has been set and no script loaded since:
/// given back to `dealer_set_seed` with the same generator, options and script, it deals the
/// same deals, also when the job chose a random seed. Otherwise it stores the seed the next job
/// will use: the `seed` option, else the script's `seed` statement (DealerV2 dialect), or 0
/// when the job will choose one (at random; from the clock for the glibc generator). In
/// library mode it is the block offset. Returns `DEALER_OK`, or `DEALER_ERROR_NULL` when
/// `session` or `seed` is NULL.
#[no_mangle]
pub extern "C" fn dealer_get_seed(session: *mut dealer_session, seed: *mut i64) -> i32 {
    with_session(session, |h| {
        if seed.is_null() {
            return Err(Failure::null("seed"));
        }
        // SAFETY: `seed` is non-NULL and points to writable storage for one int64_t.
        unsafe { *seed = h.session.seed() };
        Ok(DEALER_OK)
    })
}

/// Chooses the random generator: `DEALER_GENERATOR_CHACHA`, `DEALER_GENERATOR_DRAND48` or
/// `DEALER_GENERATOR_GLIBC`. Unless `dealer_set_dialect` says otherwise, the glibc generator also
/// selects the classic dialect (classic dealer's language and output), the others DealerV2's.
/// Call before loading the script. Returns `DEALER_OK` or `DEALER_ERROR_OPTION` for another
/// value.
#[no_mangle]
pub extern "C" fn dealer_set_generator(session: *mut dealer_session, generator: i32) -> i32 {
    let name = match generator {
        DEALER_GENERATOR_CHACHA => "chacha",
        DEALER_GENERATOR_DRAND48 => "drand48",
        DEALER_GENERATOR_GLIBC => "glibc",
        _ => return option_error(session, format!("unknown generator {generator}")),
    };
    set_typed(session, "rng", name.to_string())
}

/// Chooses the script language: `DEALER_DIALECT_V2` (default) or `DEALER_DIALECT_CLASSIC`.
/// Call before loading the script: a loaded script, and the expressions evaluated on its deals,
/// keep the dialect it was loaded with. Returns `DEALER_OK` or `DEALER_ERROR_OPTION`.
#[no_mangle]
pub extern "C" fn dealer_set_dialect(session: *mut dealer_session, dialect: i32) -> i32 {
    let name = match dialect {
        DEALER_DIALECT_V2 => "v2",
        DEALER_DIALECT_CLASSIC => "classic",
        _ => return option_error(session, format!("unknown dialect {dialect}")),
    };
    set_typed(session, "dialect", name.to_string())
}

/// Sets how many deals a run generates at most (classic `-g`); 0 restores the script's
/// `generate` (default 10,000,000). Returns `DEALER_OK`, or `DEALER_ERROR_OPTION` for a
/// negative limit.
#[no_mangle]
pub extern "C" fn dealer_set_generate(session: *mut dealer_session, limit: i64) -> i32 {
    set_typed(session, "generate", limit.to_string())
}

/// Sets how many deals a run produces at most (classic `-p`); 0 restores the script's
/// `produce` (default 40 when the script prints deals, else the generate limit). For
/// `dealer_next_deal`, a produce limit set here or in the script ends the loop with
/// `DEALER_DONE`. Returns `DEALER_OK`, or `DEALER_ERROR_OPTION` for a negative limit.
#[no_mangle]
pub extern "C" fn dealer_set_produce(session: *mut dealer_session, limit: i64) -> i32 {
    set_typed(session, "produce", limit.to_string())
}

/// Sets how many threads a run uses (the `threads` option, DealerV2 `-R`), both for dealing
/// (worker threads deal and judge deals when the script allows it) and for double dummy
/// (solved in batches across the threads): 0 (the default) one per core, at most 64. The
/// deals, output and statistics do not depend on it, only the speed. Memory: each
/// double-dummy thread has its own DDS solver, whose transposition table starts at about
/// 70–95 MB and grows to at most 160 MB (the `dds_table_mb` option sets that maximum), so
/// allow up to about 170 MB per thread when the script uses double dummy (64 threads: up to
/// about 11 GB). Like every option, it ends
/// the job in progress and discards the current deal: call `dealer_next_deal` before
/// `dealer_eval` again. Returns `DEALER_OK` or `DEALER_ERROR_OPTION`.
#[no_mangle]
pub extern "C" fn dealer_set_threads(session: *mut dealer_session, threads: u32) -> i32 {
    set_typed(session, "threads", threads.to_string())
}

/// Sets script variable `$index` (0 to 9; DealerV2's `-0` … `-9`) to `value` (NUL-terminated
/// UTF-8), substituted into the script text where `$index` appears (DealerV2 dialect; an unset
/// variable is empty). Call before loading the script. Returns `DEALER_OK`, `DEALER_ERROR_OPTION` for an index above 9, `DEALER_ERROR_NULL`
/// or `DEALER_ERROR_UTF8`.
#[no_mangle]
pub extern "C" fn dealer_set_variable(session: *mut dealer_session, index: u32, value: *const c_char) -> i32 {
    if index > 9 {
        return option_error(session, format!("script variable ${index} does not exist (0 to 9)"));
    }
    with_session(session, |h| {
        let value = text_arg(value, "value")?;
        h.session.set_option(&format!("var{index}"), value)?;
        Ok(DEALER_OK)
    })
}

/// Predeals cards to a seat (`DEALER_NORTH` … `DEALER_WEST`; classic `-N` … `-W`): `cards` is
/// NUL-terminated text such as `SAKQ,HJ` (suit letter then ranks, groups separated by commas).
/// As with classic dealer's switches, while any seat has a predeal set this way the script's
/// own `predeal` lines are replaced. NULL or an empty string removes the seat's predeal. Text
/// that is not such cards (see the `predeal_north` option) is refused at once, with the text
/// quoted; a card given to two seats is reported when the deals start. Returns `DEALER_OK`,
/// `DEALER_ERROR_OPTION` for a bad seat or bad text, or `DEALER_ERROR_UTF8`.
#[no_mangle]
pub extern "C" fn dealer_set_predeal(session: *mut dealer_session, seat: i32, cards: *const c_char) -> i32 {
    let key = match seat {
        DEALER_NORTH => "predeal_north",
        DEALER_EAST => "predeal_east",
        DEALER_SOUTH => "predeal_south",
        DEALER_WEST => "predeal_west",
        _ => return option_error(session, format!("unknown seat {seat} (0 North to 3 West)")),
    };
    with_session(session, |h| {
        let cards = if cards.is_null() { "" } else { text_arg(cards, "cards")? };
        h.session.set_option(key, cards)?;
        Ok(DEALER_OK)
    })
}

/// Sets an option from a typed setter's value.
fn set_typed(session: *mut dealer_session, key: &str, value: String) -> i32 {
    with_session(session, |h| {
        h.session.set_option(key, &value)?;
        Ok(DEALER_OK)
    })
}

/// Records an option error found before the session's options were touched.
fn option_error(session: *mut dealer_session, message: String) -> i32 {
    with_session(session, |_| Err(Error::new(ErrorKind::Option, message).into()))
}

/// One `usereval` query, as DealerV2 sends it to its DealerServer.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct dealer_usereval_query {
    /// The metric tag (the first argument of `usereval`).
    pub tag: i32,
    /// The side asked about: 0 North–South, 1 East–West. Fill `results` for this side.
    pub side: i32,
    /// 1 when the call names a seat (`usereval(tag, south, …)`), else 0.
    pub hand_flag: i32,
    /// The seat named (0 North … 3 West) when `hand_flag` is 1.
    pub hand: i32,
    /// 1 when the call names a suit, else 0.
    pub suit_flag: i32,
    /// The suit named (0 clubs … 3 spades) when `suit_flag` is 1.
    pub suit: i32,
    /// The index argument of the call.
    pub index: i32,
    /// The deal's number among the deals generated (1 for the first).
    pub generated: i64,
    /// Deals produced so far.
    pub produced: i64,
}

/// Hand statistics of one seat passed to a `usereval` metric (DealerV2's `HANDSTAT`); suit
/// arrays are indexed clubs 0 … spades 3, ranks deuce 0 … ace 12.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct dealer_hand_stats {
    /// The seat: 0 North … 3 West.
    pub seat: i32,
    /// Cards in each suit.
    pub lengths: [i32; 4],
    /// High-card points in each suit (A4 K3 Q2 J1, or the script's `pointcount`).
    pub hcp: [i32; 4],
    /// High-card points of the hand.
    pub total_hcp: i32,
    /// Losers in each suit (`loser()`).
    pub losers: [i32; 4],
    /// Losers of the hand.
    pub total_losers: i32,
    /// Controls in each suit (ace 2, king 1).
    pub controls: [i32; 4],
    /// Controls of the hand.
    pub total_controls: i32,
    /// `counts[t][suit]`: count table t (0..9 = `pt0`..`pt9`, 10 = `hcp`) for each suit.
    pub counts: [[i32; 4]; 11],
    /// Count table t for the whole hand.
    pub total_counts: [i32; 11],
    /// 1 when every suit has 3 or 4 cards.
    pub square_hand: i32,
    /// Losing-trick count ×100 in each suit (`ltc()`).
    pub ltc: [i32; 4],
    /// Losing-trick count ×100 of the hand.
    pub total_ltc: i32,
    /// Weights of the three highest cards of each suit, highest first (2–9 1, T 4, J 8, Q 16,
    /// K 32, A 64; 128 for a missing card).
    pub top_cards: [[i32; 3]; 4],
    /// `has_card[suit][rank]`: 1 when the seat holds the card.
    pub has_card: [[i32; 13]; 4],
}

/// A `usereval` metric in the caller's process: fills `results[0..127]` for `query->side` from
/// the deal and the four seats' statistics (`stats[0]` North … `stats[3]` West) and returns 0,
/// or returns anything else to stop the run with `DEALER_ERROR_RUN`. Results are cached per
/// side by deal and tag, as with a DealerServer, so fill every slot a tag can be asked for.
/// Called on the thread that runs the session; every pointer is valid only during the call.
pub type dealer_usereval_fn = Option<
    unsafe extern "C" fn(
        query: *const dealer_usereval_query,
        deal: *const dealer_deal,
        stats: *const dealer_hand_stats,
        results: *mut i32,
        userdata: *mut c_void,
    ) -> i32,
>;

/// Answers `usereval` queries with a callback of the caller's instead of a DealerServer process
/// (no server is started then). A NULL callback goes back to the DealerServer (`server` option,
/// DealerV2's `-U`). `callback` and `userdata` must stay valid while they are set. It ends the
/// job in progress and discards the current deal, as setting an option does. Returns
/// `DEALER_OK`.
#[no_mangle]
pub extern "C" fn dealer_set_usereval(
    session: *mut dealer_session,
    callback: dealer_usereval_fn,
    userdata: *mut c_void,
) -> i32 {
    with_session(session, |h| {
        let maker = callback.map(|callback| {
            let userdata = userdata as usize;
            Box::new(move || Box::new(CallbackMetric { callback, userdata }) as Box<dyn Metric>) as MetricMaker
        });
        h.session.set_in_process_metric(maker);
        Ok(DEALER_OK)
    })
}

// The statistics handed to callbacks are `HandStats` reinterpreted: same size and fields.
const _: () =
    assert!(std::mem::size_of::<dealer_hand_stats>() == std::mem::size_of::<crate::external::usereval::HandStats>());

/// A `usereval` metric that calls a C function.
struct CallbackMetric {
    callback: unsafe extern "C" fn(
        *const dealer_usereval_query,
        *const dealer_deal,
        *const dealer_hand_stats,
        *mut i32,
        *mut c_void,
    ) -> i32,
    userdata: usize,
}

impl Metric for CallbackMetric {
    fn evaluate(
        &mut self,
        query: &Query,
        context: &QueryContext,
        slots: &mut [i32; SLOTS],
    ) -> crate::error::Result<()> {
        let q = dealer_usereval_query {
            tag: query.tag,
            side: query.side as i32,
            hand_flag: query.hand_flag,
            hand: query.hand,
            suit_flag: query.suit_flag,
            suit: query.suit,
            index: query.index,
            generated: context.generated,
            produced: context.produced,
        };
        let deal = dealer_deal { hands: context.deal.0.map(|h| h.0) };
        // `dealer_hand_stats` is `HandStats` field for field (checked by a test), so the
        // statistics are passed as they are.
        let stats = context.stats.as_ptr().cast::<dealer_hand_stats>();
        // SAFETY: the caller promised the callback and userdata stay valid while set; every
        // pointer passed is valid for the duration of the call.
        let rc = unsafe { (self.callback)(&q, &deal, stats, slots.as_mut_ptr(), self.userdata as *mut c_void) };
        if rc == 0 {
            Ok(())
        } else {
            Err(Error::new(
                ErrorKind::Run,
                format!("usereval: the metric callback returned {rc} for tag {}", query.tag),
            ))
        }
    }
}

/// Loads (parses and compiles) a script from `len` bytes at `text`, replacing the session's
/// previous script (and its job, current deal and compiled expressions). On a script error
/// returns `DEALER_ERROR_SCRIPT` (`dealer_last_error_location` gives its line and column) and
/// the previous script, if any, stays loaded.
#[no_mangle]
pub extern "C" fn dealer_load_script(session: *mut dealer_session, text: *const u8, len: usize) -> i32 {
    with_session(session, |h| {
        if text.is_null() && len > 0 {
            return Err(Failure::null("script text"));
        }
        // The cap is checked before the bytes are looked at (a length of SIZE_MAX is no slice).
        h.session.check_script_size(len as u64)?;
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
#[no_mangle]
pub extern "C" fn dealer_set_output_fd(session: *mut dealer_session, stream: i32, fd: i32) -> i32 {
    with_session(session, |h| {
        let stream = stream_of(stream)?;
        let sink = if fd < 0 {
            None
        } else {
            // SAFETY: F_GETFD only asks whether `fd` is an open descriptor.
            if unsafe { libc::fcntl(fd, libc::F_GETFD) } == -1 {
                return Err(Error::new(ErrorKind::Io, format!("{fd} is not an open file descriptor")).into());
            }
            Some(Sink::Descriptor(fd))
        };
        h.session.set_sink(stream, sink);
        Ok(DEALER_OK)
    })
}

/// The stream a `DEALER_STREAM_*` value names.
fn stream_of(stream: i32) -> Result<Stream, Failure> {
    Ok(match stream {
        DEALER_STREAM_OUTPUT => Stream::Output,
        DEALER_STREAM_DIAGNOSTICS => Stream::Diagnostics,
        DEALER_STREAM_CSV => Stream::Csv,
        DEALER_STREAM_EXPORT => Stream::Export,
        _ => return Err(Error::new(ErrorKind::Usage, format!("unknown stream {stream}")).into()),
    })
}

/// Runs the whole job of the loaded script: deals, actions and end-of-run report, written to
/// the output streams. `report` may be NULL; otherwise set its `size` and it receives the
/// counters. Output written before an error stays written and is complete up to the deal that
/// failed. Returns
/// `DEALER_OK`, `DEALER_TIMED_OUT` when the `time_limit` option stopped a run that had
/// produced nothing, `DEALER_CEILING_REACHED` when a ceiling stopped it (`report->ceiling` says
/// which), or `DEALER_INTERRUPTED` when `dealer_interrupt` stopped it.
#[no_mangle]
pub extern "C" fn dealer_run(session: *mut dealer_session, report: *mut dealer_run_report) -> i32 {
    with_session(session, |h| {
        // SAFETY: a non-NULL `report` points to a dealer_run_report the caller owns, at least
        // as large as its `size` field says (an older caller's struct may end before `ceiling`).
        let size = if report.is_null() { 0 } else { unsafe { std::ptr::addr_of!((*report).size).read() as usize } };
        // The struct as this header declares it, or as headers before `ceiling` declared it.
        if !report.is_null() && size != RUN_REPORT_V1_SIZE && size < std::mem::size_of::<dealer_run_report>() {
            return Err(Error::new(ErrorKind::Usage, "report->size must be sizeof(dealer_run_report)").into());
        }
        let r = h.session.run()?;
        let ceiling = match r.ceiling {
            None => DEALER_CEILING_NONE,
            Some(Ceiling::Time) => DEALER_CEILING_TIME,
            Some(Ceiling::Generate) => DEALER_CEILING_GENERATE,
            Some(Ceiling::Output) => DEALER_CEILING_OUTPUT,
        };
        if !report.is_null() {
            // SAFETY: non-NULL `report` points to a writable struct of `size` bytes, which holds
            // the fields up to `seed` (checked above); `ceiling` only when `size` covers it.
            unsafe {
                std::ptr::addr_of_mut!((*report).generated).write(r.generated);
                std::ptr::addr_of_mut!((*report).produced).write(r.produced);
                std::ptr::addr_of_mut!((*report).seed).write(r.seed);
                if size >= std::mem::size_of::<dealer_run_report>() {
                    std::ptr::addr_of_mut!((*report).ceiling).write(ceiling);
                }
            }
        }
        Ok(if r.timed_out {
            DEALER_TIMED_OUT
        } else if r.ceiling.is_some() {
            DEALER_CEILING_REACHED
        } else {
            DEALER_OK
        })
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

/// All double-dummy results of a deal, filled in by `dealer_dds_table`. Set `size` to
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
/// script's `dds()` and `par()`. Returns `DEALER_OK`; `DEALER_ERROR_USAGE` without a current
/// deal, for a deal that is not a complete deal, or for a wrong `size`;
/// `DEALER_ERROR_OPTION` for a vulnerability outside -1..3; `DEALER_ERROR_RUN` when the
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
/// current deal and stores the value in `*value` (true is 1, false 0). It takes an expression
/// such as `hcp(north) > 10`, not a statement: `condition hcp(north) > 10`, `produce 5` and the
/// like are `DEALER_ERROR_SCRIPT` (`expected a single expression, not a statement`). Each distinct text is
/// compiled on first use and kept; for an expression evaluated on every deal,
/// `dealer_compile_expression` + `dealer_eval_compiled` skip the text lookup. Returns
/// `DEALER_OK`, `DEALER_ERROR_SCRIPT`, `DEALER_ERROR_USAGE` without a current deal,
/// `DEALER_ERROR_RUN`, `DEALER_ERROR_NULL` or `DEALER_ERROR_UTF8`.
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

/// Compiles an expression (script syntax, the script's variables visible) once and stores its
/// id in `*id`, for `dealer_eval_compiled` on every deal. Needs a loaded script; ids stay valid
/// until the next `dealer_load_script*` on the session and are never reused. Like `dealer_eval`,
/// it takes an expression, not a statement. Returns
/// `DEALER_OK`, `DEALER_ERROR_SCRIPT` (with line and column in the expression),
/// `DEALER_ERROR_USAGE` without a script, `DEALER_ERROR_NOT_AVAILABLE`, `DEALER_ERROR_NULL` or
/// `DEALER_ERROR_UTF8`.
#[no_mangle]
pub extern "C" fn dealer_compile_expression(
    session: *mut dealer_session,
    expression: *const c_char,
    id: *mut u32,
) -> i32 {
    with_session(session, |h| {
        let expression = text_arg(expression, "expression")?;
        if id.is_null() {
            return Err(Failure::null("id"));
        }
        let compiled = h.session.compile_expression(expression)?;
        // SAFETY: non-NULL `id` points to a writable uint32_t.
        unsafe { *id = compiled };
        Ok(DEALER_OK)
    })
}

/// Evaluates the expression `id` from `dealer_compile_expression` on the current deal and
/// stores the value in `*value` (true is 1, false 0). Returns `DEALER_OK`,
/// `DEALER_ERROR_USAGE` for an unknown or stale id or without a current deal,
/// `DEALER_ERROR_RUN` (e.g. a division by zero) or `DEALER_ERROR_NULL`.
#[no_mangle]
pub extern "C" fn dealer_eval_compiled(session: *mut dealer_session, id: u32, value: *mut i32) -> i32 {
    with_session(session, |h| {
        if value.is_null() {
            return Err(Failure::null("value"));
        }
        let v = h.session.eval_compiled(id)?;
        // SAFETY: non-NULL `value` points to a writable int32_t.
        unsafe { *value = v };
        Ok(DEALER_OK)
    })
}

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

/// Writes the deal as a PBN `[Deal]` value (`N:AKQ.… …`) into `buffer` of `size` bytes,
/// NUL-terminated. Returns the length of the text without the NUL; when that is `>= size` the
/// text was truncated (call again with a larger buffer). `buffer` may be NULL when `size` is 0.
/// Returns 0 when `deal` is NULL.
#[no_mangle]
pub extern "C" fn dealer_deal_to_pbn(deal: *const dealer_deal, buffer: *mut c_char, size: usize) -> usize {
    format_deal(deal, buffer, size, |d| d.pbn().into_bytes())
}

/// Writes the deal in the peers' one-line format, exactly as `printoneline` prints it without
/// the line end: `n <hand> e <hand> s <hand> w <hand> ` (PBN hands, each followed by a space).
/// Buffer rules and result as for `dealer_deal_to_pbn`.
#[no_mangle]
pub extern "C" fn dealer_deal_to_oneline(deal: *const dealer_deal, buffer: *mut c_char, size: usize) -> usize {
    format_deal(deal, buffer, size, |d| {
        let mut text = Vec::with_capacity(80);
        d.write_oneline(&mut text);
        text
    })
}

/// Formats a deal into a caller buffer (truncated, always NUL-terminated when `size > 0`) and
/// returns the full length.
fn format_deal(deal: *const dealer_deal, buffer: *mut c_char, size: usize, format: fn(&Deal) -> Vec<u8>) -> usize {
    if deal.is_null() {
        return 0;
    }
    // SAFETY: non-NULL `deal` points to a readable dealer_deal.
    let d = unsafe { *deal };
    let Ok(text) = guarded(|| format(&Deal(d.hands.map(Hand)))) else { return 0 };
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

/// The library version as one number, `major * 10000 + minor * 100 + patch` (e.g. 100 for
/// 0.1.0), to compare with `DEALER_VERSION_MAJOR * 10000 + DEALER_VERSION_MINOR * 100 +
/// DEALER_VERSION_PATCH` of the header a program was built with.
#[no_mangle]
pub extern "C" fn dealer_version_number() -> u32 {
    DEALER_VERSION_MAJOR as u32 * 10_000 + DEALER_VERSION_MINOR as u32 * 100 + DEALER_VERSION_PATCH as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::job::OPTION_KEYS;

    /// The generated header, as the build wrote it from the doc comments of this file.
    const HEADER: &str = include_str!("../../include/dealer.h");

    /// The `//` comment right above the declaration of `function` in the header, line by line
    /// without the `//`.
    fn header_comment(function: &str) -> Vec<&'static str> {
        let lines: Vec<&str> = HEADER.lines().collect();
        let declaration = format!(" {function}(");
        let at = lines
            .iter()
            .position(|l| !l.starts_with("//") && l.contains(&declaration))
            .unwrap_or_else(|| panic!("{function} is not declared in include/dealer.h"));
        let start = lines[..at].iter().rposition(|l| !l.starts_with("//")).map_or(0, |i| i + 1);
        lines[start..at].iter().map(|l| l.trim_start_matches("//").trim()).collect()
    }

    /// The keys a comment lists: in each line that starts a list item (`- `), every `key` before
    /// the first colon.
    fn listed_keys(comment: &[&str]) -> Vec<String> {
        let mut keys = Vec::new();
        for item in comment.iter().filter_map(|l| l.strip_prefix("- ")) {
            let named = item.split_once(':').map_or(item, |(named, _)| named);
            keys.extend(named.split('`').skip(1).step_by(2).map(str::to_string));
        }
        keys
    }

    #[test]
    fn header_lists_exactly_the_option_keys() {
        let listed = listed_keys(&header_comment("dealer_set_option"));
        for key in OPTION_KEYS {
            assert!(listed.iter().any(|k| k == key), "dealer_set_option's comment does not list `{key}`");
        }
        for (i, key) in listed.iter().enumerate() {
            assert!(OPTION_KEYS.contains(&key.as_str()), "dealer_set_option's comment lists `{key}`, not an option");
            assert!(!listed[..i].contains(key), "dealer_set_option's comment lists `{key}` twice");
            // And set_option takes it (a value may be refused, the key not).
            if let Err(e) = Session::new().set_option(key, "1") {
                assert!(!e.to_string().contains("unknown option"), "{key}: {e}");
            }
        }
    }

    #[test]
    fn readme_function_table_lists_the_option_keys() {
        let readme = include_str!("../../README.md");
        let row = readme
            .lines()
            .find(|l| l.starts_with("| `dealer_set_option("))
            .expect("the README's function table has a dealer_set_option row");
        for key in OPTION_KEYS {
            assert!(row.contains(&format!("`{key}`")), "the README's dealer_set_option row does not list `{key}`");
        }
    }

    #[test]
    fn header_has_no_rust_doc_markup() {
        // Intra-doc links ([`X`], [`X`](path)), link targets and code fences mean nothing in C.
        for (n, line) in HEADER.lines().enumerate() {
            for markup in ["[`", "`]", "](", "```", "[Self::", "[crate::"] {
                assert!(!line.contains(markup), "include/dealer.h:{}: Rust doc markup {markup:?}: {line}", n + 1);
            }
        }
    }

    #[test]
    fn hand_stats_are_laid_out_like_the_engine_s() {
        use crate::external::usereval::HandStats;
        use std::mem::offset_of;
        let ours = [
            offset_of!(dealer_hand_stats, seat),
            offset_of!(dealer_hand_stats, lengths),
            offset_of!(dealer_hand_stats, hcp),
            offset_of!(dealer_hand_stats, total_hcp),
            offset_of!(dealer_hand_stats, losers),
            offset_of!(dealer_hand_stats, total_losers),
            offset_of!(dealer_hand_stats, controls),
            offset_of!(dealer_hand_stats, total_controls),
            offset_of!(dealer_hand_stats, counts),
            offset_of!(dealer_hand_stats, total_counts),
            offset_of!(dealer_hand_stats, square_hand),
            offset_of!(dealer_hand_stats, ltc),
            offset_of!(dealer_hand_stats, total_ltc),
            offset_of!(dealer_hand_stats, top_cards),
            offset_of!(dealer_hand_stats, has_card),
        ];
        let engine = [
            offset_of!(HandStats, seat),
            offset_of!(HandStats, lengths),
            offset_of!(HandStats, hcp),
            offset_of!(HandStats, total_hcp),
            offset_of!(HandStats, losers),
            offset_of!(HandStats, total_losers),
            offset_of!(HandStats, controls),
            offset_of!(HandStats, total_controls),
            offset_of!(HandStats, counts),
            offset_of!(HandStats, total_counts),
            offset_of!(HandStats, square_hand),
            offset_of!(HandStats, ltc),
            offset_of!(HandStats, total_ltc),
            offset_of!(HandStats, top_cards),
            offset_of!(HandStats, has_card),
        ];
        assert_eq!(ours, engine);
        assert_eq!(std::mem::size_of::<dealer_hand_stats>(), std::mem::size_of::<HandStats>());
    }

    #[test]
    fn a_panic_becomes_an_internal_error_with_its_message() {
        let mut session = std::ptr::null_mut();
        assert_eq!(dealer_create_session(&mut session), DEALER_OK);
        let status = with_session(session, |_| panic!("deliberate test panic"));
        assert_eq!(status, DEALER_ERROR_INTERNAL);
        // SAFETY: the session is valid and the message is NUL-terminated.
        let message = unsafe { CStr::from_ptr(dealer_last_error(session)) }.to_str().unwrap();
        assert_eq!(message, "internal error caught at the library boundary: deliberate test panic");
        // The session stays usable.
        assert_eq!(dealer_set_seed(session, 3), DEALER_OK);
        dealer_free_session(session);
    }

    #[test]
    fn version_constants_follow_the_crate_version() {
        let parts: Vec<i32> = env!("CARGO_PKG_VERSION").split('.').map(|p| p.parse().unwrap()).collect();
        assert_eq!(parts, [super::DEALER_VERSION_MAJOR, super::DEALER_VERSION_MINOR, super::DEALER_VERSION_PATCH]);
    }
}
