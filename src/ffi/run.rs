//! Running the loaded script's job: `dealer_run` (the whole job, with the
//! `dealer_run_report` it fills, and the JSON summary `dealer_last_summary` reads), `dealer_next_deal` (one produced deal at a time, no
//! actions) and `dealer_next_deals` (many at a time, with the values of compiled expressions).
//!
//! `dealer_run_report` is versioned by its `size` field: `dealer_run` still accepts the struct
//! as it was before `ceiling` (`RUN_REPORT_V1_SIZE`) and writes no field beyond the size the
//! caller gave. What a deal looks like to C is `deals`'s.

use std::ffi::{c_char, CString};

use crate::error::{Error, ErrorKind};
use crate::job::Ceiling;

use super::boundary::{with_session, Failure};
use super::deals::dealer_deal;
use super::session::dealer_session;
use super::status::*;

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

/// Runs the whole job of the loaded script: deals, actions and end-of-run report, written to
/// the output streams. The options `write_leveled`, `level` and `interleave` make it a practice
/// run (the levelled script written, each hand type dealt in its quota, the boards interleaved);
/// scenarios added with `dealer_mix_add` make it their mixed board set. The options `part` or
/// `deals` make it one part of the job, written to the `part_file` (nothing is printed); part
/// files added with `dealer_merge_add` make it their merge (the job's script and options are
/// taken from the files: see `dealer_merge_add`). `report` may be NULL; otherwise set its `size` and it receives the
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
        h.session.forget_last_summary();
        let r = match h.parts.is_empty() {
            true => crate::scale_out::run(&mut h.session),
            false => crate::scale_out::merge::merge(&mut h.session, &h.parts),
        };
        // JSON holds no NUL byte (a control character in a string is escaped).
        h.last_summary = CString::new(h.session.last_summary()).unwrap_or_default();
        let r = r?;
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

/// The JSON summary object of the session's last `dealer_run`, one line, whatever the
/// `json_summary` option says (what that option prints): `generated`, `produced`, `seed`,
/// `seconds`; every statistic with its standard error and 95 % interval (`statistics`); the
/// opening-lead tables of `leads` actions (`leads`); what the `precision` option reached
/// (`precision`); the double-dummy solves by kind (`dd`). An empty string before the first run
/// and after a run that failed. The pointer stays valid until the next `dealer_run` on the same
/// session or its `dealer_free_session`; never free it.
#[no_mangle]
pub extern "C" fn dealer_last_summary(session: *const dealer_session) -> *const c_char {
    if session.is_null() {
        return c"".as_ptr();
    }
    // SAFETY: a non-NULL handle came from dealer_create_session; only the field is read.
    unsafe { (*session).last_summary.as_ptr() }
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

/// Deals up to `count` deals that satisfy the condition, as `count` calls of
/// `dealer_next_deal` would, in one call: deal `i` goes to `deals[i]` (`deals` may be NULL) and
/// the values of the `id_count` expressions `ids` (from `dealer_compile_expression`) on it to
/// `values[i * id_count + j]` (true is 1, false 0; `ids` and `values` may be NULL when
/// `id_count` is 0). `*produced` receives the number of deals stored, also when the call fails.
/// The last deal stored becomes the current deal; the `max_seconds` ceiling applies to the
/// whole call. Returns `DEALER_OK` when all `count` deals were stored, `DEALER_DONE` when the
/// generate limit (or an explicitly set produce limit) ended the dealing first, or an error
/// (`DEALER_ERROR_USAGE` for an unknown id, `DEALER_ERROR_RUN`, …) with the deals before the
/// failing one stored and counted.
#[no_mangle]
pub extern "C" fn dealer_next_deals(
    session: *mut dealer_session,
    count: usize,
    deals: *mut dealer_deal,
    ids: *const u32,
    id_count: u32,
    values: *mut i32,
    produced: *mut usize,
) -> i32 {
    with_session(session, |h| {
        if produced.is_null() {
            return Err(Failure::null("produced"));
        }
        // SAFETY: non-NULL `produced` points to a writable size_t.
        unsafe { *produced = 0 };
        if id_count > 0 && ids.is_null() {
            return Err(Failure::null("ids"));
        }
        if id_count > 0 && values.is_null() {
            return Err(Failure::null("values"));
        }
        let slots = count
            .checked_mul(id_count as usize)
            .filter(|n| n.checked_mul(4).is_some())
            .ok_or_else(|| Error::new(ErrorKind::Usage, "count * id_count values do not fit in memory"))?;
        // SAFETY: with id_count > 0, `ids` points to id_count readable ids and `values` to
        // count * id_count writable int32_t (checked non-NULL above); otherwise both are empty.
        let (ids, values) = if id_count == 0 {
            (&[][..], &mut [][..])
        } else {
            unsafe {
                (std::slice::from_raw_parts(ids, id_count as usize), std::slice::from_raw_parts_mut(values, slots))
            }
        };
        let (stored, result) = h.session.next_deals(count, ids, values, |i, d| {
            if !deals.is_null() {
                // SAFETY: non-NULL `deals` points to `count` writable dealer_deal; i < count.
                unsafe { *deals.add(i) = dealer_deal { hands: d.0.map(|h| h.0) } };
            }
        });
        // SAFETY: non-NULL `produced` points to a writable size_t.
        unsafe { *produced = stored };
        result?;
        Ok(if stored < count { DEALER_DONE } else { DEALER_OK })
    })
}
