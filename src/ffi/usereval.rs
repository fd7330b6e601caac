//! `usereval` metrics answered in the caller's process: the `dealer_usereval_query` and
//! `dealer_hand_stats` a callback receives, the `dealer_usereval_fn` type,
//! `dealer_set_usereval`, and `CallbackMetric`, the engine's `Metric` that calls it.
//!
//! The statistics are the engine's `HandStats` passed as they are, so `dealer_hand_stats` must
//! keep its layout (checked at compile time and by a test). The DealerServer process and the
//! `server` option belong to the engine and `options`, not here.

use std::ffi::c_void;

use crate::error::{Error, ErrorKind};
use crate::external::usereval::{Metric, Query, QueryContext, SLOTS};
use crate::job::MetricMaker;

use super::boundary::with_session;
use super::deals::dealer_deal;
use super::session::dealer_session;
use super::status::*;

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
