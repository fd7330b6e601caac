//! What the two C API harnesses (`capi.rs`, one thread; `sessions.rs`, several) share: checking a
//! status against the API's contract, collecting an output stream in memory, answering
//! `usereval` in process, spotting double-dummy words, and interrupting a run that goes on too
//! long. The crate that includes a harness (its fuzz target, or `tests/integration/fuzz_regressions.rs`)
//! includes this file beside it as `crate::api_common`.

use std::ffi::{c_void, CStr};
use std::time::Duration;

use dealer::ffi::*;

/// Output kept per stream before the collector starts over (bounds a run's memory).
pub const MAX_COLLECTED: usize = 4 << 20;

/// How long a run (or a `dealer_next_deal` call) may take before it is interrupted.
pub const RUN_WATCHDOG: Duration = Duration::from_secs(2);

/// Words that make a script, option or expression solve double-dummy problems.
pub const DD_WORDS: &[&str] = &["dds", "par", "trix", "trick", "evalcontract"];

/// Whether `bytes` name a double-dummy feature (see [`DD_WORDS`]).
pub fn names_dd(bytes: &[u8]) -> bool {
    DD_WORDS.iter().any(|w| contains(bytes, w))
}

/// Whether `bytes` contain `word`.
pub fn contains(bytes: &[u8], word: &str) -> bool {
    bytes.windows(word.len()).any(|win| win == word.as_bytes())
}

/// An output callback collecting into the `Vec<u8>` its userdata points at (cleared when it
/// would pass [`MAX_COLLECTED`]).
pub unsafe extern "C" fn write_collect(data: *const u8, len: usize, userdata: *mut c_void) -> i32 {
    // SAFETY: userdata is one of the session's collector boxes, alive while the session is;
    // data has len bytes.
    let out = unsafe { &mut *userdata.cast::<Vec<u8>>() };
    if out.len() + len > MAX_COLLECTED {
        out.clear();
    }
    out.extend_from_slice(unsafe { std::slice::from_raw_parts(data, len) });
    0
}

/// A `usereval` answered in process: results made from the query's tag and the hands' points,
/// and the status its userdata (an `i32`) holds.
pub unsafe extern "C" fn usereval(
    query: *const dealer_usereval_query,
    _deal: *const dealer_deal,
    stats: *const dealer_hand_stats,
    results: *mut i32,
    userdata: *mut c_void,
) -> i32 {
    // SAFETY: the library passes valid pointers (4 stats, 128 results); userdata is the
    // session's `usereval_status` box.
    let (q, stats, results, status) = unsafe {
        (
            &*query,
            std::slice::from_raw_parts(stats, 4),
            std::slice::from_raw_parts_mut(results, 128),
            *userdata.cast::<i32>(),
        )
    };
    for (i, r) in results.iter_mut().enumerate() {
        *r = q.tag.wrapping_add(i as i32).wrapping_add(stats[i % 4].total_hcp);
    }
    status
}

/// The session's `dealer_last_error`.
pub fn last_error(handle: *const dealer_session) -> String {
    // SAFETY: the library returns a NUL-terminated string valid until the next call.
    unsafe { CStr::from_ptr(dealer_last_error(handle)) }.to_string_lossy().into_owned()
}

/// Checks a status against the API's contract (a documented code, never
/// `DEALER_ERROR_INTERNAL`; `dealer_last_error` and its summary non-empty after a failure and
/// empty after a success) and returns it.
pub fn check(handle: *mut dealer_session, status: i32, call: &str) -> i32 {
    assert!((-11..=3).contains(&status), "{call}: undocumented status {status}");
    if handle.is_null() {
        return status;
    }
    let message = last_error(handle);
    assert!(status != DEALER_ERROR_INTERNAL, "{call}: DEALER_ERROR_INTERNAL: {message}");
    if status < 0 {
        assert!(!message.is_empty(), "{call}: status {status} with an empty dealer_last_error");
    } else {
        assert!(message.is_empty(), "{call}: status {status} with dealer_last_error '{message}'");
    }
    // SAFETY: as for dealer_last_error.
    let summary = unsafe { CStr::from_ptr(dealer_last_error_summary(handle)) };
    assert_eq!(summary.is_empty(), message.is_empty(), "{call}: summary and message disagree");
    status
}

/// Runs `call` (dealing on session `h`) with a thread that interrupts it after
/// [`RUN_WATCHDOG`]; an interruption that comes too late stops the session's next run instead,
/// which is a documented outcome too.
pub fn watched<T>(h: *mut dealer_session, call: impl FnOnce() -> T) -> T {
    let mut interrupter = std::ptr::null_mut();
    if dealer_create_interrupter(h, &mut interrupter) != DEALER_OK {
        return call();
    }
    let handle = interrupter as usize;
    let (finished, done) = std::sync::mpsc::channel::<()>();
    let watchdog = std::thread::spawn(move || {
        if done.recv_timeout(RUN_WATCHDOG).is_err() {
            dealer_interrupt(handle as *const dealer_interrupter);
        }
    });
    let result = call();
    let _ = finished.send(());
    let _ = watchdog.join();
    dealer_free_interrupter(interrupter);
    result
}
