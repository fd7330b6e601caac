//! Mixing scenarios into one board set: `dealer_mix_add` adds a scenario (its name, its
//! script's text, a weight or an exact count) and `dealer_mix_clear` forgets them. While a
//! session holds scenarios, `dealer_run` deals the mixed set (see `dealer_run`); the session
//! compiles each scenario as it is added, so that its errors come at once, naming it.

use std::ffi::c_char;

use crate::job::options::MixScenario;

use super::boundary::{bytes_arg, text_arg, with_session};
use super::session::dealer_session;
use super::status::*;

/// Adds a scenario to the board set `dealer_run` mixes: `name` (NUL-terminated; what its boards
/// are labelled with: PBN `[Event]`, LIN `st|…|`, JSON `"scenario"`), its script (`len` bytes at
/// `text`), and its part of the set: `count` boards exactly when `count` is 0 or more, else
/// (`count` −1) a share of the boards the counts leave of the `produce` limit in proportion to
/// `weight` (0 or more). The scenario is compiled now, in the session's dialect: a script error
/// is `DEALER_ERROR_SCRIPT`, its message starting `in scenario NAME: `.
#[no_mangle]
pub extern "C" fn dealer_mix_add(
    session: *mut dealer_session,
    name: *const c_char,
    text: *const u8,
    len: usize,
    weight: f64,
    count: i64,
) -> i32 {
    with_session(session, |h| {
        let name = text_arg(name, "name")?.to_string();
        // The cap is checked before the bytes are looked at (a length of SIZE_MAX is no slice).
        h.session.check_script_size(len as u64)?;
        let bytes = bytes_arg(text, len, "script text")?;
        let count = u64::try_from(count).ok();
        h.session.add_mix_scenario(MixScenario { name, text: bytes.to_vec(), weight, count })?;
        Ok(DEALER_OK)
    })
}

/// Forgets the scenarios `dealer_mix_add` added: `dealer_run` runs the loaded script again.
#[no_mangle]
pub extern "C" fn dealer_mix_clear(session: *mut dealer_session) -> i32 {
    with_session(session, |h| {
        h.session.clear_mix();
        Ok(DEALER_OK)
    })
}
