//! DDS linked into this library ([`LinkedDds`]): the `dds-bridge-sys` crate's build of DDS with
//! its solver contexts, the native build's [`DdsEntryPoints`].
//!
//! Builds on `entry_points` only.

use std::collections::HashMap;
use std::sync::Mutex;

use dds_bridge_sys as dds;

use super::entry_points::{
    ContextId, DdsCards, DdsEntryPoints, DdsLeadScores, DdsParContract, DdsParResult, DdsTable, UNKNOWN_CONTEXT,
};

/// The DDS of the `dds-bridge-sys` crate, compiled into this library. Its contexts are known by
/// number: a call with a number it did not give out, one already freed, or one in use by another
/// thread at that moment answers [`UNKNOWN_CONTEXT`] instead of reaching DDS.
#[derive(Default)]
pub struct LinkedDds {
    contexts: Mutex<Contexts>,
}

/// The live contexts by number, and the next number.
#[derive(Default)]
struct Contexts {
    idle: HashMap<usize, Context>,
    next: usize,
}

/// A DDS solver context.
struct Context(std::ptr::NonNull<dds::DdsSolverContext>);

// SAFETY: a solver context is plain heap state with no thread affinity; LinkedDds hands each to
// one call at a time (it is taken out of `idle` for the call).
unsafe impl Send for Context {}

impl LinkedDds {
    /// The contexts, whoever panicked while holding them (they stay consistent: every change is
    /// one map operation).
    fn contexts(&self) -> std::sync::MutexGuard<'_, Contexts> {
        self.contexts.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Runs `call` with the context numbered `id`, which no other call can use meanwhile.
    fn with_context<T>(
        &self,
        id: ContextId,
        call: impl FnOnce(*mut dds::DdsSolverContext) -> Result<T, i32>,
    ) -> Result<T, i32> {
        let context = self.contexts().idle.remove(&id.0).ok_or(UNKNOWN_CONTEXT)?;
        let result = call(context.0.as_ptr());
        self.contexts().idle.insert(id.0, context);
        result
    }
}

impl Drop for LinkedDds {
    fn drop(&mut self) {
        for (_, context) in self.contexts().idle.drain() {
            // SAFETY: the context came from dds_solver_context_new and leaves the map here.
            unsafe { dds::dds_solver_context_free(context.0.as_ptr()) };
        }
    }
}

/// Our copy of a DDS par result.
fn par_result(master: &dds::ParResultsMaster) -> DdsParResult {
    let mut result = DdsParResult { score: master.score, number: master.number, ..Default::default() };
    for (ours, theirs) in result.contracts.iter_mut().zip(&master.contracts) {
        *ours = DdsParContract {
            under_tricks: theirs.under_tricks,
            over_tricks: theirs.over_tricks,
            level: theirs.level,
            denom: theirs.denom,
            seats: theirs.seats,
        };
    }
    result
}

impl DdsEntryPoints for LinkedDds {
    fn context_new(&self, start_mb: u32, maximum_mb: u32) -> Option<ContextId> {
        let config = dds::DdsSolverConfig {
            tt_kind: dds::DDS_TT_KIND_LARGE as i32,
            tt_mem_default_mb: start_mb as i32,
            tt_mem_maximum_mb: maximum_mb as i32,
        };
        // SAFETY: the config is a valid, fully initialised struct; the context is freed by
        // context_free or with this LinkedDds.
        let context = Context(std::ptr::NonNull::new(unsafe { dds::dds_solver_context_new(&config) })?);
        let mut contexts = self.contexts();
        let id = contexts.next;
        contexts.next += 1;
        contexts.idle.insert(id, context);
        Some(ContextId(id))
    }

    fn context_free(&self, id: ContextId) {
        if let Some(context) = self.contexts().idle.remove(&id.0) {
            // SAFETY: the context came from dds_solver_context_new and leaves the map here.
            unsafe { dds::dds_solver_context_free(context.0.as_ptr()) };
        }
    }

    fn calc_dd_table(&self, id: ContextId, cards: &DdsCards) -> Result<DdsTable, i32> {
        self.with_context(id, |context| {
            let input = dds::DdTableDeal { cards: *cards };
            let mut output = dds::DdTableResults::default();
            // SAFETY: the context is live and this call has it to itself; input and output are
            // valid.
            let code = unsafe { dds::dds_calc_dd_table(context, &input, &mut output) };
            if code != dds::RETURN_NO_FAULT {
                return Err(code);
            }
            Ok(output.res_table)
        })
    }

    fn solve_board(&self, id: ContextId, trump: i32, first: i32, cards: &DdsCards, target: i32) -> Result<i32, i32> {
        self.with_context(id, |context| {
            let input = dds::Deal { trump, first, remainCards: *cards, ..Default::default() };
            let mut result = dds::FutureTricks::default();
            // SAFETY: as in calc_dd_table.
            let code = unsafe { dds::dds_solve_board(context, &input, target, 1, 1, &mut result) };
            if code != dds::RETURN_NO_FAULT {
                return Err(code);
            }
            Ok(result.score[0])
        })
    }

    fn solve_leads(&self, id: ContextId, trump: i32, first: i32, cards: &DdsCards) -> Result<DdsLeadScores, i32> {
        self.with_context(id, |context| {
            let input = dds::Deal { trump, first, remainCards: *cards, ..Default::default() };
            let mut result = dds::FutureTricks::default();
            // SAFETY: as in calc_dd_table.
            let code = unsafe { dds::dds_solve_board(context, &input, -1, 3, 1, &mut result) };
            if code != dds::RETURN_NO_FAULT {
                return Err(code);
            }
            Ok(DdsLeadScores {
                cards: result.cards,
                suit: result.suit,
                rank: result.rank,
                equals: result.equals,
                score: result.score,
            })
        })
    }

    fn sides_par(&self, table: &DdsTable, vulnerability: i32) -> Result<[DdsParResult; 2], i32> {
        let input = dds::DdTableResults { res_table: *table };
        let mut sides = [dds::ParResultsMaster::default(); 2];
        // SAFETY: SidesParBin reads the table and writes two results; it holds no state.
        let code = unsafe { dds::SidesParBin(&input, sides.as_mut_ptr(), vulnerability) };
        if code != dds::RETURN_NO_FAULT {
            return Err(code);
        }
        Ok([par_result(&sides[0]), par_result(&sides[1])])
    }

    fn dealer_par(&self, table: &DdsTable, dealer: i32, vulnerability: i32) -> Result<DdsParResult, i32> {
        let input = dds::DdTableResults { res_table: *table };
        let mut result = dds::ParResultsMaster::default();
        // SAFETY: DealerParBin reads the table and writes one result; it holds no state.
        let code = unsafe { dds::DealerParBin(&input, &mut result, dealer, vulnerability) };
        if code != dds::RETURN_NO_FAULT {
            return Err(code);
        }
        Ok(par_result(&result))
    }

    fn error_message(&self, code: i32) -> Option<String> {
        error_message(code)
    }
}

/// DDS's own text for one of its return codes, when it has one (DDS's `ErrorMessage`, which
/// holds no state).
pub(super) fn error_message(code: i32) -> Option<String> {
    let mut line = [0 as std::ffi::c_char; 80];
    // SAFETY: ErrorMessage writes a NUL-terminated text of at most 80 bytes into `line`; it holds
    // no state and may be called from any thread.
    unsafe { dds::ErrorMessage(code, line.as_mut_ptr()) };
    let bytes: Vec<u8> = line.iter().take_while(|&&c| c != 0).map(|&c| c as u8).collect();
    let text = String::from_utf8_lossy(&bytes).into_owned();
    (!text.is_empty()).then_some(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{Card, Seat, Strain, Suit};
    use crate::dd::test_deals::{deal, KNOWN};
    use crate::dd::{DoubleDummy, Solver, TableMemory};

    /// The defenders' tricks after `card` is led by `leader` in `strain`, solved from the
    /// position after the lead (DDS's single search with the lead in the current trick): the
    /// declarer's side is then to play, and the defenders take the rest.
    fn after_the_lead(
        context: *mut dds::DdsSolverContext,
        d: &crate::cards::Deal,
        leader: Seat,
        strain: Strain,
        card: Card,
    ) -> u8 {
        let dds_suit = |suit: Suit| 3 - suit.index() as i32;
        let mut input = dds::Deal {
            trump: match strain {
                Strain::Suit(s) => dds_suit(s),
                Strain::Notrump => 4,
            },
            first: leader.index() as i32,
            ..Default::default()
        };
        for seat in Seat::ALL {
            for suit in Suit::ALL {
                let mut bits = d.hand(seat).suit_bits(suit) as u32;
                if seat == leader && suit == card.suit() {
                    bits &= !(1 << card.rank());
                }
                input.remainCards[seat.index()][dds_suit(suit) as usize] = bits << 2;
            }
        }
        input.currentTrickSuit[0] = dds_suit(card.suit());
        input.currentTrickRank[0] = i32::from(card.rank()) + 2;
        let mut result = dds::FutureTricks::default();
        // SAFETY: the context is live and used by this thread alone; input and output are valid.
        let code = unsafe { dds::dds_solve_board(context, &input, -1, 1, 1, &mut result) };
        assert_eq!(code, dds::RETURN_NO_FAULT);
        13 - result.score[0] as u8
    }

    #[test]
    fn every_lead_scores_what_a_solve_after_that_lead_gives() {
        let config = dds::DdsSolverConfig {
            tt_kind: dds::DDS_TT_KIND_LARGE as i32,
            tt_mem_default_mb: 16,
            tt_mem_maximum_mb: 64,
        };
        // SAFETY: a valid config; the context is freed below.
        let context = unsafe { dds::dds_solver_context_new(&config) };
        assert!(!context.is_null());
        let mut solver = Solver::new(TableMemory::DEFAULT, &DoubleDummy::of_this_build());
        for ((text, _), (leader, strain)) in KNOWN.iter().zip([
            (Seat::West, Strain::Notrump),
            (Seat::North, Strain::Suit(Suit::Spades)),
            (Seat::East, Strain::Suit(Suit::Clubs)),
            (Seat::South, Strain::Suit(Suit::Hearts)),
        ]) {
            let d = deal(text);
            let leads = solver.leads(&d, leader, strain).unwrap();
            for card in d.hand(leader).cards_descending() {
                let want = after_the_lead(context, &d, leader, strain, card);
                assert_eq!(leads.after(card), Some(want), "{text}: {leader:?} leads {card:?} in {strain:?}");
            }
            let other = d.hand(leader.partner()).cards_descending().next().unwrap();
            assert_eq!(leads.after(other), None);
            // The best lead is the single result's.
            let best = d.hand(leader).cards_descending().filter_map(|c| leads.after(c)).max().unwrap();
            let declarer = Seat::ALL.into_iter().find(|s| s.left() == leader).unwrap();
            assert_eq!(13 - best, solver.tricks(&d, declarer, strain).unwrap());
        }
        // SAFETY: made above, freed once.
        unsafe { dds::dds_solver_context_free(context) };
    }
}
