//! One DDS solver context ([`Solver`]) and what it answers with: the 20-result [`DdTable`], single
//! results, [`DdError`]; the context's [`TableMemory`]; and the conversions from the dealer
//! language's orders to DDS's own (suits S, H, D, C; vulnerability none, both, NS, EW), which
//! live here and nowhere else.
//!
//! This is the bottom layer of `dd`: it must not use the par, results, batch or cache modules,
//! which all build on it.
// Without DDS (the WebAssembly build) the conversions to its orders go unused.
#![cfg_attr(not(feature = "dds"), allow(dead_code, unused_imports))]

use std::fmt;

#[cfg(feature = "dds")]
use dds_bridge_sys as dds;

use crate::cards::{Deal, Seat, Strain, Suit};
use crate::script::ast::Vulnerability;

/// All 20 double-dummy results of a deal: tricks for each declarer (N, E, S, W) in each strain
/// (C, D, H, S, NT).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct DdTable(pub [[u8; 5]; 4]);

impl DdTable {
    /// Tricks taken by `declarer` playing in `strain`.
    pub fn tricks(&self, declarer: Seat, strain: Strain) -> u8 {
        self.0[declarer.index()][strain.index()]
    }
}

/// A DDS failure, with the deal that caused it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DdError {
    /// The DDS return code (negative).
    pub code: i32,
    /// The deal being solved.
    pub deal: Deal,
}

impl fmt::Display for DdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut hands = Vec::new();
        self.deal.write_oneline(&mut hands);
        write!(
            f,
            "double-dummy solver error {} ({}) on deal {}",
            self.code,
            error_text(self.code),
            String::from_utf8_lossy(&hands).trim_end()
        )
    }
}

impl std::error::Error for DdError {}

impl From<DdError> for crate::error::Error {
    /// A solver failure stops the run; a build without DDS reports that it is not available.
    fn from(e: DdError) -> Self {
        if e.code == DD_NOT_AVAILABLE {
            return crate::error::Error::new(crate::error::ErrorKind::NotAvailable, error_text(e.code));
        }
        crate::error::Error::new(crate::error::ErrorKind::Run, e.to_string())
    }
}

/// DDS's text for a return code.
pub fn error_text(code: i32) -> String {
    if code == SCORE_OUT_OF_RANGE {
        return "the solver answered a trick count outside 0..13".to_string();
    }
    if code == DD_NOT_AVAILABLE {
        return DD_NOT_AVAILABLE_TEXT.to_string();
    }
    dds_error_text(code)
}

/// DDS's own text for one of its return codes.
#[cfg(feature = "dds")]
fn dds_error_text(code: i32) -> String {
    let mut line = [0 as std::ffi::c_char; 80];
    // SAFETY: ErrorMessage writes a NUL-terminated text of at most 80 bytes into `line`; it
    // holds no state and may be called from any thread.
    unsafe { dds::ErrorMessage(code, line.as_mut_ptr()) };
    let bytes: Vec<u8> = line.iter().take_while(|&&c| c != 0).map(|&c| c as u8).collect();
    let text = String::from_utf8_lossy(&bytes).into_owned();
    if text.is_empty() {
        "unknown error".to_string()
    } else {
        text
    }
}

/// Without DDS there is no text for its codes.
#[cfg(not(feature = "dds"))]
fn dds_error_text(_code: i32) -> String {
    "unknown error".to_string()
}

/// Our own code, outside DDS's range, for a solve that reported success with an impossible
/// number of tricks.
pub const SCORE_OUT_OF_RANGE: i32 = -1000;

/// Our own code for a solve asked of a build without DDS (the `dds` feature off, as in the
/// WebAssembly build).
pub const DD_NOT_AVAILABLE: i32 = -1001;

/// What a script that needs double dummy is told by a build without DDS.
pub const DD_NOT_AVAILABLE_TEXT: &str =
    "double dummy (dd, par, score with dd results) is not available in this build (the browser has no DDS)";

/// DDS's suit index (S, H, D, C = 0..3) of a dealer suit (C, D, H, S = 0..3); also its strain
/// index, with NT = 4 in both orders.
pub(super) fn dds_strain(strain: Strain) -> i32 {
    match strain {
        Strain::Suit(s) => 3 - s.index() as i32,
        Strain::Notrump => 4,
    }
}

/// DDS's vulnerability code (0 none, 1 both, 2 NS, 3 EW).
pub(super) fn dds_vulnerability(v: Vulnerability) -> i32 {
    match v {
        Vulnerability::None => 0,
        Vulnerability::All => 1,
        Vulnerability::NS => 2,
        Vulnerability::EW => 3,
    }
}

/// The deal in DDS's card layout: `[hand N..W][DDS suit]`, rank r (0 = deuce) as bit `r + 2`.
#[cfg(feature = "dds")]
fn dds_cards(deal: &Deal) -> [[u32; 4]; 4] {
    let mut cards = [[0u32; 4]; 4];
    for seat in Seat::ALL {
        for suit in Suit::ALL {
            cards[seat.index()][3 - suit.index()] = (deal.hand(seat).suit_bits(suit) as u32) << 2;
        }
    }
    cards
}

/// Transposition-table memory of a solver context at start, in MB (DDS 2.9's per-thread default),
/// or the context's maximum when that is smaller.
const TT_START_MB: u32 = 95;

/// How much transposition-table memory each solver context may use: DDS allocates its table in
/// pages of about 6.2 MB beside 6.4 MB of fixed hash roots, starts at 95 MB (or the maximum if
/// smaller) and, on reaching the maximum, reuses its oldest entries instead of growing. A smaller
/// table gives the same results, only more slowly on hard deals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableMemory {
    maximum_mb: u32,
}

impl TableMemory {
    /// DDS 2.9's per-thread limit: 160 MB.
    pub const DEFAULT: TableMemory = TableMemory { maximum_mb: 160 };
    /// The smallest maximum accepted, in MB: below two pages DDS would stop bounding the table.
    pub const LEAST_MB: u32 = 16;
    /// The largest maximum accepted, in MB.
    pub const MOST_MB: u32 = 4096;

    /// A maximum of `maximum_mb` MB per solver context, if within
    /// [`LEAST_MB`](Self::LEAST_MB)..=[`MOST_MB`](Self::MOST_MB).
    pub fn new(maximum_mb: u32) -> Option<TableMemory> {
        (Self::LEAST_MB..=Self::MOST_MB).contains(&maximum_mb).then_some(TableMemory { maximum_mb })
    }

    /// The most table memory a context uses, in MB.
    pub fn maximum_mb(self) -> u32 {
        self.maximum_mb
    }
}

impl Default for TableMemory {
    fn default() -> Self {
        TableMemory::DEFAULT
    }
}

/// One DDS solver context (transposition table and search state), used by one thread at a time.
pub struct Solver {
    #[cfg(feature = "dds")]
    context: std::ptr::NonNull<dds::DdsSolverContext>,
    #[cfg(not(feature = "dds"))]
    _memory: TableMemory,
}

// SAFETY: a solver context is plain heap state with no thread affinity; `&mut self` on every
// solving method guarantees one thread uses it at a time.
#[cfg(feature = "dds")]
unsafe impl Send for Solver {}

#[cfg(not(feature = "dds"))]
impl Solver {
    /// A solver that answers every solve with [`DD_NOT_AVAILABLE`].
    pub fn new(memory: TableMemory) -> Solver {
        Solver { _memory: memory }
    }

    /// Fails: no DDS in this build.
    pub fn table(&mut self, deal: &Deal) -> Result<DdTable, DdError> {
        Err(DdError { code: DD_NOT_AVAILABLE, deal: *deal })
    }

    /// Fails: no DDS in this build.
    pub fn tricks(&mut self, deal: &Deal, _declarer: Seat, _strain: Strain) -> Result<u8, DdError> {
        Err(DdError { code: DD_NOT_AVAILABLE, deal: *deal })
    }
}

#[cfg(feature = "dds")]
impl Solver {
    /// A new context with the kind of transposition table DDS 2.9 gives each of its threads (the
    /// "large" kind) using at most `memory`. (With the crate's default, the smaller "pattern"
    /// table, whole tables take about 20 % longer on random deals.)
    pub fn new(memory: TableMemory) -> Solver {
        let config = dds::DdsSolverConfig {
            tt_kind: dds::DDS_TT_KIND_LARGE as i32,
            tt_mem_default_mb: TT_START_MB.min(memory.maximum_mb) as i32,
            tt_mem_maximum_mb: memory.maximum_mb as i32,
        };
        // SAFETY: the config is a valid, fully initialised struct; the context is freed in Drop.
        let raw = unsafe { dds::dds_solver_context_new(&config) };
        Solver { context: std::ptr::NonNull::new(raw).expect("DDS could not allocate a solver context") }
    }

    /// All 20 results of a complete deal.
    pub fn table(&mut self, deal: &Deal) -> Result<DdTable, DdError> {
        let input = dds::DdTableDeal { cards: dds_cards(deal) };
        let mut output = dds::DdTableResults::default();
        // SAFETY: the context is live and used by this thread only; input and output are valid.
        let code = unsafe { dds::dds_calc_dd_table(self.context.as_ptr(), &input, &mut output) };
        if code != dds::RETURN_NO_FAULT {
            return Err(DdError { code, deal: *deal });
        }
        let mut table = DdTable::default();
        for seat in 0..4 {
            for strain in 0..5 {
                table.0[seat][strain] = output.res_table[dds_strain(Strain::from_index(strain)) as usize][seat] as u8;
            }
        }
        Ok(table)
    }

    /// Tricks taken by `declarer` in `strain`, solving only that result (the opening lead is
    /// declarer's left-hand opponent's).
    pub fn tricks(&mut self, deal: &Deal, declarer: Seat, strain: Strain) -> Result<u8, DdError> {
        let input = dds::Deal {
            trump: dds_strain(strain),
            first: declarer.left().index() as i32,
            remainCards: dds_cards(deal),
            ..Default::default()
        };
        let mut result = dds::FutureTricks::default();
        // SAFETY: as in `table`. Target -1, one solution: the defenders' best score. Mode 1
        // (always search): in mode 0 DDS does not search when the leader has only one distinct
        // card to play (say all 13 cards of one suit) and answers with the score -2.
        let code = unsafe { dds::dds_solve_board(self.context.as_ptr(), &input, -1, 1, 1, &mut result) };
        if code != dds::RETURN_NO_FAULT {
            return Err(DdError { code, deal: *deal });
        }
        match u8::try_from(result.score[0]) {
            Ok(defenders) if defenders <= 13 => Ok(13 - defenders),
            _ => Err(DdError { code: SCORE_OUT_OF_RANGE, deal: *deal }),
        }
    }
}

impl Default for Solver {
    /// A context using at most [`TableMemory::DEFAULT`].
    fn default() -> Self {
        Solver::new(TableMemory::DEFAULT)
    }
}

#[cfg(feature = "dds")]
impl Drop for Solver {
    fn drop(&mut self) {
        // SAFETY: the context came from dds_solver_context_new and is freed once.
        unsafe { dds::dds_solver_context_free(self.context.as_ptr()) };
    }
}

#[cfg(all(test, feature = "dds"))]
mod tests {
    use super::*;
    use crate::dd::test_deals::{deal, flat, KNOWN};

    #[test]
    fn tables_match_known_results() {
        let mut solver = Solver::default();
        for (text, want) in KNOWN {
            assert_eq!(flat(&solver.table(&deal(text)).unwrap()), want, "{text}");
        }
    }

    #[test]
    fn the_smallest_table_gives_the_same_results() {
        assert_eq!(TableMemory::new(TableMemory::LEAST_MB - 1), None);
        assert_eq!(TableMemory::new(TableMemory::MOST_MB + 1), None);
        let least = TableMemory::new(TableMemory::LEAST_MB).unwrap();
        let mut solver = Solver::new(least);
        for (text, want) in KNOWN {
            let d = deal(text);
            assert_eq!(flat(&solver.table(&d).unwrap()), want, "{text}");
            for seat in Seat::ALL {
                let strain = Strain::Notrump;
                assert_eq!(solver.tricks(&d, seat, strain).unwrap(), want[seat.index() * 5 + 4], "{text}");
            }
        }
    }

    #[test]
    fn single_results_match_the_table() {
        let mut solver = Solver::default();
        let (text, want) = KNOWN[0];
        let d = deal(text);
        for seat in Seat::ALL {
            for strain in 0..5 {
                let got = solver.tricks(&d, seat, Strain::from_index(strain)).unwrap();
                assert_eq!(got, want[seat.index() * 5 + strain], "{seat:?} {strain}");
            }
        }
    }

    #[test]
    fn a_leader_with_one_distinct_card_is_still_solved() {
        // Fuzzer finding: East (North's opening leader) holds all 13 spades, so every lead is
        // the same card to DDS; a single result must still be the table's.
        let d = deal("n .AKQJ2.K65.A7432 e AKQJT98765432... s .T987.QJT9.KQJT9 w .6543.A87432.865");
        let want = Solver::default().table(&d).unwrap();
        let mut solver = Solver::default();
        for seat in Seat::ALL {
            for strain in 0..5 {
                let strain = Strain::from_index(strain);
                assert_eq!(solver.tricks(&d, seat, strain).unwrap(), want.tricks(seat, strain), "{seat:?} {strain:?}");
            }
        }
    }

    #[test]
    fn errors_name_the_code_and_the_deal() {
        let mut d = deal(KNOWN[0].0);
        d.0[0] = d.0[1]; // North holds East's cards too: duplicated cards.
        let e = Solver::default().table(&d).unwrap_err();
        assert!(e.code < 0);
        let text = e.to_string();
        assert!(text.contains("double-dummy solver error") && text.contains("n AT652"), "{text}");
    }
}
