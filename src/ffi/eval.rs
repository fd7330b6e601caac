//! Expressions evaluated on the current deal: `dealer_eval` (by text, compiled on first use)
//! and `dealer_compile_expression` + `dealer_eval_compiled` (compiled once, by id), and
//! `dealer_set_deal`, which makes a caller's deal the current one.
//!
//! The session compiles, caches and evaluates; this module reads the arguments and writes the
//! value. Loading the script the expressions see is `scripts`'s.

use std::ffi::c_char;

use crate::cards::{Deal, Hand};

use super::boundary::{text_arg, with_session, Failure};
use super::deals::dealer_deal;
use super::session::dealer_session;
use super::status::*;

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

/// Makes a complete deal (from `dealer_deal_from_pbn`, another program, …) the session's current
/// deal for `dealer_eval`, `dealer_eval_compiled` and `dealer_dds_table(session, NULL, …)`,
/// without dealing: the next `dealer_next_deal` goes on where the dealing was. Returns
/// `DEALER_OK`, `DEALER_ERROR_USAGE` without a loaded script or for a deal that is not 52
/// different cards with 13 in each hand, or `DEALER_ERROR_NULL`.
#[no_mangle]
pub extern "C" fn dealer_set_deal(session: *mut dealer_session, deal: *const dealer_deal) -> i32 {
    with_session(session, |h| {
        if deal.is_null() {
            return Err(Failure::null("deal"));
        }
        // SAFETY: non-NULL `deal` points to a readable dealer_deal.
        let d = unsafe { *deal };
        h.session.set_deal(Deal(d.hands.map(Hand)))?;
        Ok(DEALER_OK)
    })
}
