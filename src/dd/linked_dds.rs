//! DDS linked into this library ([`LinkedDds`]): the `dds-bridge-sys` crate's build of DDS with
//! its solver contexts, the native build's [`DdsEntryPoints`].
//!
//! Builds on `entry_points` only.

use dds_bridge_sys as dds;

use super::entry_points::{ContextId, DdsCards, DdsEntryPoints, DdsParContract, DdsParResult, DdsTable};

/// The DDS of the `dds-bridge-sys` crate, compiled into this library.
pub struct LinkedDds;

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

/// The context a [`ContextId`] of ours names.
fn context(id: ContextId) -> *mut dds::DdsSolverContext {
    id.0 as *mut dds::DdsSolverContext
}

impl DdsEntryPoints for LinkedDds {
    fn context_new(&self, start_mb: u32, maximum_mb: u32) -> Option<ContextId> {
        let config = dds::DdsSolverConfig {
            tt_kind: dds::DDS_TT_KIND_LARGE as i32,
            tt_mem_default_mb: start_mb as i32,
            tt_mem_maximum_mb: maximum_mb as i32,
        };
        // SAFETY: the config is a valid, fully initialised struct; the caller frees the context
        // with context_free.
        let raw = unsafe { dds::dds_solver_context_new(&config) };
        (!raw.is_null()).then_some(ContextId(raw as usize))
    }

    fn context_free(&self, id: ContextId) {
        // SAFETY: the context came from dds_solver_context_new and is freed once (the caller's
        // promise).
        unsafe { dds::dds_solver_context_free(context(id)) };
    }

    fn calc_dd_table(&self, id: ContextId, cards: &DdsCards) -> Result<DdsTable, i32> {
        let input = dds::DdTableDeal { cards: *cards };
        let mut output = dds::DdTableResults::default();
        // SAFETY: the context is live and used by one thread at a time (the caller's promise);
        // input and output are valid.
        let code = unsafe { dds::dds_calc_dd_table(context(id), &input, &mut output) };
        if code != dds::RETURN_NO_FAULT {
            return Err(code);
        }
        Ok(output.res_table)
    }

    fn solve_board(&self, id: ContextId, trump: i32, first: i32, cards: &DdsCards) -> Result<i32, i32> {
        let input = dds::Deal { trump, first, remainCards: *cards, ..Default::default() };
        let mut result = dds::FutureTricks::default();
        // SAFETY: as in calc_dd_table.
        let code = unsafe { dds::dds_solve_board(context(id), &input, -1, 1, 1, &mut result) };
        if code != dds::RETURN_NO_FAULT {
            return Err(code);
        }
        Ok(result.score[0])
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
        let mut line = [0 as std::ffi::c_char; 80];
        // SAFETY: ErrorMessage writes a NUL-terminated text of at most 80 bytes into `line`; it
        // holds no state and may be called from any thread.
        unsafe { dds::ErrorMessage(code, line.as_mut_ptr()) };
        let bytes: Vec<u8> = line.iter().take_while(|&&c| c != 0).map(|&c| c as u8).collect();
        let text = String::from_utf8_lossy(&bytes).into_owned();
        (!text.is_empty()).then_some(text)
    }
}
