//! libdealer through its C ABI (include/dealer.h), as any program embeds it: the few functions
//! the service calls, declared here, and a safe [`Session`] over them that owns its handle and
//! collects each output stream into memory. Nothing here decides what a request may do.

use std::ffi::{c_char, c_void, CStr, CString};
use std::sync::{Arc, Mutex};

/// `DEALER_OK`.
const OK: i32 = 0;
/// `DEALER_ERROR_SCRIPT`.
const ERROR_SCRIPT: i32 = -1;
/// `DEALER_INTERRUPTED`.
pub const INTERRUPTED: i32 = -10;
/// `DEALER_CEILING_REACHED`.
const CEILING_REACHED: i32 = 3;
/// `DEALER_CHECK_BBO`.
const CHECK_BBO: i32 = 1;
/// The output streams (`DEALER_STREAM_*`): output, diagnostics, deals.
const STREAM_OUTPUT: i32 = 0;
const STREAM_DIAGNOSTICS: i32 = 1;
const STREAM_DEALS: i32 = 4;

#[repr(C)]
struct RawSession {
    _private: [u8; 0],
}

#[repr(C)]
struct RawInterrupter {
    _private: [u8; 0],
}

/// `dealer_run_report`.
#[repr(C)]
#[derive(Default)]
struct RawReport {
    size: u32,
    generated: i64,
    produced: i64,
    seed: u64,
    ceiling: i32,
}

type WriteFn = Option<unsafe extern "C" fn(data: *const u8, len: usize, userdata: *mut c_void) -> i32>;

extern "C" {
    fn dealer_create_session(out: *mut *mut RawSession) -> i32;
    fn dealer_free_session(session: *mut RawSession);
    fn dealer_create_interrupter(session: *mut RawSession, out: *mut *mut RawInterrupter) -> i32;
    fn dealer_interrupt(interrupter: *const RawInterrupter);
    fn dealer_free_interrupter(interrupter: *mut RawInterrupter);
    fn dealer_set_option(session: *mut RawSession, key: *const c_char, value: *const c_char) -> i32;
    fn dealer_load_script(session: *mut RawSession, text: *const u8, len: usize) -> i32;
    fn dealer_needs_double_dummy(session: *mut RawSession) -> i32;
    fn dealer_check_script(
        session: *mut RawSession,
        text: *const u8,
        len: usize,
        flavour: i32,
        callback: WriteFn,
        userdata: *mut c_void,
    ) -> i32;
    fn dealer_set_output(session: *mut RawSession, stream: i32, callback: WriteFn, userdata: *mut c_void) -> i32;
    fn dealer_run(session: *mut RawSession, report: *mut RawReport) -> i32;
    fn dealer_last_summary(session: *const RawSession) -> *const c_char;
    fn dealer_last_error(session: *const RawSession) -> *const c_char;
    fn dealer_last_error_location(session: *const RawSession, line: *mut u32, col: *mut u32) -> i32;
    fn dealer_version() -> *const c_char;
}

/// The library's version (`dealer_version`).
pub fn version() -> String {
    // SAFETY: dealer_version returns a static NUL-terminated string.
    unsafe { CStr::from_ptr(dealer_version()) }.to_string_lossy().into_owned()
}

/// A failed call: the library's message and, for a script error, its place.
#[derive(Debug, Clone)]
pub struct Failure {
    /// The `DEALER_ERROR_*` status (or `DEALER_INTERRUPTED`).
    pub status: i32,
    /// `dealer_last_error`.
    pub message: String,
    /// Line and column in the script, when the error has a place.
    pub place: Option<(u32, u32)>,
}

impl Failure {
    /// Whether the script itself is at fault (a syntax or semantic error).
    pub fn is_script_error(&self) -> bool {
        self.status == ERROR_SCRIPT
    }
}

/// What one stream received, shared with the callback that fills it, with a cap on its size.
#[derive(Default)]
struct Collected {
    bytes: Vec<u8>,
    /// Past this many bytes the callback refuses (the run stops with an I/O error).
    cap: usize,
}

/// The write callback of every collected stream: appends to the `Mutex<Collected>` at `userdata`.
unsafe extern "C" fn collect(data: *const u8, len: usize, userdata: *mut c_void) -> i32 {
    // SAFETY: userdata is the Arc<Mutex<Collected>> pointer the session keeps alive while it is
    // set; data holds len bytes during the call.
    let collected = unsafe { &*(userdata as *const Mutex<Collected>) };
    let bytes = unsafe { std::slice::from_raw_parts(data, len) };
    match collected.lock() {
        Ok(mut c) if c.bytes.len() + len <= c.cap => {
            c.bytes.extend_from_slice(bytes);
            0
        }
        _ => 1,
    }
}

/// How a run ended.
pub struct RunOutcome {
    /// Deals generated.
    pub generated: i64,
    /// Deals produced.
    pub produced: i64,
    /// The seed, as the report prints it.
    pub seed: u64,
    /// The ceiling that stopped the run: "time", "generate" or "output".
    pub ceiling: Option<&'static str>,
    /// `Err` when the run failed or was interrupted (what it wrote stays in the streams).
    pub result: Result<(), Failure>,
}

/// One libdealer session with its output, diagnostics and deals collected in memory.
pub struct Session {
    raw: *mut RawSession,
    output: Arc<Mutex<Collected>>,
    diagnostics: Arc<Mutex<Collected>>,
    deals: Arc<Mutex<Collected>>,
}

// SAFETY: a session is used by one thread at a time (it moves to the run's thread); the
// collected streams are behind mutexes.
unsafe impl Send for Session {}

/// Stops a session's run from another thread (`dealer_interrupt`).
pub struct Interrupter(*mut RawInterrupter);

// SAFETY: dealer_interrupt may be called from any thread while the interrupter lives.
unsafe impl Send for Interrupter {}
unsafe impl Sync for Interrupter {}

impl Interrupter {
    /// Asks the run to stop at its next deal.
    pub fn interrupt(&self) {
        // SAFETY: the interrupter is alive until dropped.
        unsafe { dealer_interrupt(self.0) }
    }
}

impl Drop for Interrupter {
    fn drop(&mut self) {
        // SAFETY: created by dealer_create_interrupter, freed once.
        unsafe { dealer_free_interrupter(self.0) }
    }
}

impl Session {
    /// A new session whose output may grow to `output_cap` bytes (diagnostics to 64 KiB, the
    /// deals' lines to as many as the output can hold).
    pub fn new(output_cap: usize) -> Result<Session, String> {
        let mut raw = std::ptr::null_mut();
        // SAFETY: out-pointer to a local.
        if unsafe { dealer_create_session(&mut raw) } != OK || raw.is_null() {
            return Err("cannot create a libdealer session".to_string());
        }
        let stream = |cap: usize| Arc::new(Mutex::new(Collected { bytes: Vec::new(), cap }));
        let session = Session {
            raw,
            output: stream(output_cap),
            diagnostics: stream(1 << 16),
            deals: stream(output_cap.saturating_mul(2).max(1 << 16)),
        };
        for (number, collected) in [
            (STREAM_OUTPUT, &session.output),
            (STREAM_DIAGNOSTICS, &session.diagnostics),
            (STREAM_DEALS, &session.deals),
        ] {
            let userdata = Arc::as_ptr(collected) as *mut c_void;
            // SAFETY: the Arc outlives the session (dropped after dealer_free_session).
            if unsafe { dealer_set_output(raw, number, Some(collect), userdata) } != OK {
                return Err(session.last_failure(-6).message);
            }
        }
        Ok(session)
    }

    /// The failure of the last call, with status `status`.
    fn last_failure(&self, status: i32) -> Failure {
        // SAFETY: the session is alive; the strings are valid until the next call.
        let message = unsafe { CStr::from_ptr(dealer_last_error(self.raw)) }.to_string_lossy().into_owned();
        let (mut line, mut col) = (0u32, 0u32);
        // SAFETY: out-pointers to locals.
        let placed = unsafe { dealer_last_error_location(self.raw, &mut line, &mut col) } == OK && line > 0;
        Failure { status, message, place: placed.then_some((line, col)) }
    }

    /// Sets one option (`dealer_set_option`).
    pub fn set_option(&mut self, key: &str, value: &str) -> Result<(), Failure> {
        let to_c = |text: &str| {
            CString::new(text).map_err(|_| Failure {
                status: -7,
                message: format!("option {key}: the value holds a NUL character"),
                place: None,
            })
        };
        let (k, v) = (to_c(key)?, to_c(value)?);
        // SAFETY: NUL-terminated strings valid during the call.
        match unsafe { dealer_set_option(self.raw, k.as_ptr(), v.as_ptr()) } {
            OK => Ok(()),
            status => Err(self.last_failure(status)),
        }
    }

    /// Loads a script (`dealer_load_script`).
    pub fn load_script(&mut self, text: &[u8]) -> Result<(), Failure> {
        // SAFETY: text is valid for its length during the call.
        match unsafe { dealer_load_script(self.raw, text.as_ptr(), text.len()) } {
            OK => Ok(()),
            status => Err(self.last_failure(status)),
        }
    }

    /// Whether the loaded script's job solves double dummy.
    pub fn needs_double_dummy(&mut self) -> bool {
        // SAFETY: the session is alive.
        unsafe { dealer_needs_double_dummy(self.raw) == 1 }
    }

    /// A handle that stops this session's runs from another thread.
    pub fn interrupter(&mut self) -> Result<Interrupter, Failure> {
        let mut raw = std::ptr::null_mut();
        // SAFETY: out-pointer to a local.
        match unsafe { dealer_create_interrupter(self.raw, &mut raw) } {
            OK => Ok(Interrupter(raw)),
            status => Err(self.last_failure(status)),
        }
    }

    /// Runs the loaded script's whole job.
    pub fn run(&mut self) -> RunOutcome {
        let mut report = RawReport { size: std::mem::size_of::<RawReport>() as u32, ..RawReport::default() };
        // SAFETY: report is a writable dealer_run_report of the size it says.
        let status = unsafe { dealer_run(self.raw, &mut report) };
        let ceiling = match report.ceiling {
            1 => Some("time"),
            2 => Some("generate"),
            3 => Some("output"),
            _ => None,
        };
        let result = if status == OK || status == CEILING_REACHED { Ok(()) } else { Err(self.last_failure(status)) };
        RunOutcome { generated: report.generated, produced: report.produced, seed: report.seed, ceiling, result }
    }

    /// The last run's JSON summary object (empty when it failed).
    pub fn last_summary(&self) -> String {
        // SAFETY: the session is alive; the string is valid until the next call.
        unsafe { CStr::from_ptr(dealer_last_summary(self.raw)) }.to_string_lossy().into_owned()
    }

    /// Takes what the output stream received.
    pub fn take_output(&self) -> Vec<u8> {
        self.output.lock().map(|mut c| std::mem::take(&mut c.bytes)).unwrap_or_default()
    }

    /// Takes what the diagnostics stream received.
    pub fn take_diagnostics(&self) -> Vec<u8> {
        self.diagnostics.lock().map(|mut c| std::mem::take(&mut c.bytes)).unwrap_or_default()
    }

    /// Takes the produced deals' lines (PBN deals).
    pub fn take_deals(&self) -> Vec<u8> {
        self.deals.lock().map(|mut c| std::mem::take(&mut c.bytes)).unwrap_or_default()
    }

    /// The BBO check of a script (`dealer_check_script`): its findings, one per line
    /// (`line:col: warning|error: message`).
    pub fn check_bbo(&mut self, text: &[u8]) -> Result<String, Failure> {
        let found = Mutex::new(Collected { bytes: Vec::new(), cap: 1 << 20 });
        let userdata = &found as *const Mutex<Collected> as *mut c_void;
        // SAFETY: text valid for its length; `found` outlives the call.
        let status =
            unsafe { dealer_check_script(self.raw, text.as_ptr(), text.len(), CHECK_BBO, Some(collect), userdata) };
        if status < 0 {
            return Err(self.last_failure(status));
        }
        let bytes = found.into_inner().map(|c| c.bytes).unwrap_or_default();
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        // SAFETY: created by dealer_create_session, freed once; the streams' Arcs outlive it.
        unsafe { dealer_free_session(self.raw) }
    }
}
