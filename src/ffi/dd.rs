//! Double dummy on demand: the `dealer_dds_results` struct and `dealer_dds_table`, the 20
//! results and the par result of a deal or of the session's current deal.
//!
//! The solving (and sharing the current deal's results with the script's `dds()` and `par()`)
//! is the session's; this module checks the struct's `size` and the vulnerability and copies
//! the results out.

use std::ffi::c_char;

use crate::cards::{Deal, Hand};
use crate::error::{Error, ErrorKind};

use super::boundary::{with_session, Failure};
use super::deals::dealer_deal;
use super::session::dealer_session;
use super::status::*;

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
