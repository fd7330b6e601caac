//! A deal as C sees it: the `dealer_deal` struct (four hands as card bitmasks) and its text
//! forms, `dealer_deal_to_pbn` and `dealer_deal_to_oneline`, written into a caller's buffer,
//! and `dealer_deal_from_pbn`, read back from PBN.
//!
//! Only reading needs a session (for its error message). Getting a deal (`run`), solving it
//! (`dd`) and evaluating on it (`eval`) are not here.

use std::ffi::c_char;

use crate::cards::{Deal, Hand};
use crate::error::{Error, ErrorKind};

use super::boundary::{guarded, text_arg, with_session, Failure};
use super::session::dealer_session;
use super::status::*;

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

/// Parses a PBN deal such as `N:AKQ2.K32.A92.T98 JT9.AQ7.KQ3.AJ73 …` into `*deal`: the seat of
/// the first hand (`N`, `E`, `S` or `W`), a colon, then four hands clockwise from it separated
/// by spaces, each `S.H.D.C` with ranks `AKQJT98765432` in any case, or `-` for a hand left
/// empty. Returns `DEALER_OK`; `DEALER_ERROR_USAGE` for text that is not such a deal (a card
/// twice, a hand of more than 13 cards, …), with the column in `dealer_last_error_location`
/// (line 1); `DEALER_ERROR_NULL` or `DEALER_ERROR_UTF8`. The deal may be incomplete
/// (`dealer_set_deal` and `dealer_dds_table` want a complete one).
#[no_mangle]
pub extern "C" fn dealer_deal_from_pbn(
    session: *mut dealer_session,
    text: *const c_char,
    deal: *mut dealer_deal,
) -> i32 {
    with_session(session, |_| {
        let text = text_arg(text, "text")?;
        if deal.is_null() {
            return Err(Failure::null("deal"));
        }
        let parsed = Deal::from_pbn(text).map_err(|e| {
            let mut error = Error::new(ErrorKind::Usage, format!("bad PBN deal: {}", e.message));
            error.line = Some(1);
            error.col = Some(e.col as u32);
            error.with_source(text.as_bytes())
        })?;
        // SAFETY: non-NULL `deal` points to a writable dealer_deal.
        unsafe { *deal = dealer_deal { hands: parsed.0.map(|h| h.0) } };
        Ok(DEALER_OK)
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
