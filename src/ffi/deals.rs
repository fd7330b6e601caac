//! A deal as C sees it: the `dealer_deal` struct (four hands as card bitmasks) and its text
//! forms, `dealer_deal_to_pbn` and `dealer_deal_to_oneline`, written into a caller's buffer.
//!
//! These functions need no session. Getting a deal (`run`), solving it (`dd`) and evaluating
//! on it (`eval`) are not here.

use std::ffi::c_char;

use crate::cards::{Deal, Hand};

use super::boundary::guarded;

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
