//! Double-dummy analysis over DDS (Bo Haglund and Soren Hein's solver, bundled by the crate
//! `dds-bridge-sys`): single results, full tables of 20 results, par scores with DealerV2's
//! par-contract text, and batches of deals solved across threads.
//!
//! Every solve goes through a [`Solver`], which owns one DDS solver context (its transposition
//! table and search state). A context serves one thread at a time; a [`SolverPool`] keeps one per
//! worker thread and solves a batch of deals with scoped threads pulling work from a shared
//! counter, so results do not depend on the number of threads. The legacy DDS entry points with a
//! global scheduler are never used, and the contexts are freed with the pool (the par functions
//! hold no state).
//!
//! Indexing follows the dealer language: seats N, E, S, W and strains C, D, H, S, NT; the
//! conversions to DDS's own orders (suits S, H, D, C; vulnerability none, both, NS, EW) live here
//! and nowhere else.

pub mod zrd;

use std::fmt;
use std::sync::atomic::{AtomicUsize, Ordering};

use dds_bridge_sys as dds;

use crate::cards::{Deal, Seat, Side, Strain, Suit};
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

/// The par result of a deal for one vulnerability, as DealerV2 reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Par {
    /// The par score from North–South's point of view.
    pub score_ns: i32,
    /// DealerV2's par-contract text, e.g. `" 4H  by NS both"` or `" 7D* by EW ns"`.
    pub contract: String,
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
    /// A solver failure stops the run.
    fn from(e: DdError) -> Self {
        crate::error::Error::new(crate::error::ErrorKind::Run, e.to_string())
    }
}

/// DDS's text for a return code.
pub fn error_text(code: i32) -> String {
    if code == SCORE_OUT_OF_RANGE {
        return "the solver answered a trick count outside 0..13".to_string();
    }
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

/// Our own code, outside DDS's range, for a solve that reported success with an impossible
/// number of tricks.
pub const SCORE_OUT_OF_RANGE: i32 = -1000;

/// DDS's suit index (S, H, D, C = 0..3) of a dealer suit (C, D, H, S = 0..3); also its strain
/// index, with NT = 4 in both orders.
fn dds_strain(strain: Strain) -> i32 {
    match strain {
        Strain::Suit(s) => 3 - s.index() as i32,
        Strain::Notrump => 4,
    }
}

/// DDS's vulnerability code (0 none, 1 both, 2 NS, 3 EW).
fn dds_vulnerability(v: Vulnerability) -> i32 {
    match v {
        Vulnerability::None => 0,
        Vulnerability::All => 1,
        Vulnerability::NS => 2,
        Vulnerability::EW => 3,
    }
}

/// The deal in DDS's card layout: `[hand N..W][DDS suit]`, rank r (0 = deuce) as bit `r + 2`.
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
    context: std::ptr::NonNull<dds::DdsSolverContext>,
}

// SAFETY: a solver context is plain heap state with no thread affinity; `&mut self` on every
// solving method guarantees one thread uses it at a time.
unsafe impl Send for Solver {}

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

impl Drop for Solver {
    fn drop(&mut self) {
        // SAFETY: the context came from dds_solver_context_new and is freed once.
        unsafe { dds::dds_solver_context_free(self.context.as_ptr()) };
    }
}

/// The par score and contract of a deal from its table, for one vulnerability.
pub fn par(table: &DdTable, vulnerability: Vulnerability) -> Result<Par, DdError> {
    let mut input = dds::DdTableResults::default();
    for seat in 0..4 {
        for strain in 0..5 {
            input.res_table[dds_strain(Strain::from_index(strain)) as usize][seat] = table.0[seat][strain] as i32;
        }
    }
    let mut sides = [dds::ParResultsMaster::default(); 2];
    // SAFETY: SidesParBin reads the table and writes two results; it holds no state.
    let code = unsafe { dds::SidesParBin(&input, sides.as_mut_ptr(), dds_vulnerability(vulnerability)) };
    if code != dds::RETURN_NO_FAULT {
        return Err(DdError { code, deal: Deal::default() });
    }
    let ns = &sides[0];
    let c = &ns.contracts[0];
    let denomination = b"NSHDC".get(c.denom as usize).copied().unwrap_or(b'?') as char;
    let seats = ["N", "E", "S", "W", "NS", "EW"].get(c.seats as usize).copied().unwrap_or("?");
    let vul = match vulnerability {
        Vulnerability::None => "none",
        Vulnerability::NS => "ns",
        Vulnerability::EW => "ew",
        Vulnerability::All => "both",
    };
    let sacrifice = if c.under_tricks > 0 { '*' } else { ' ' };
    Ok(Par { score_ns: ns.score, contract: format!("{:2}{}{} by {} {}", c.level, denomination, sacrifice, seats, vul) })
}

/// The score of `par` from one side's point of view.
pub fn par_for_side(par: &Par, side: Side) -> i32 {
    match side {
        Side::NS => par.score_ns,
        Side::EW => -par.score_ns,
    }
}

/// Which results of a deal a solve must produce: a set of (declarer, strain) cells, or the whole
/// table. Cell `declarer * 5 + strain` is bit `1 << cell`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Need(u32);

impl Need {
    /// Nothing.
    pub const NONE: Need = Need(0);
    /// All 20 results.
    pub const TABLE: Need = Need((1 << 20) - 1);

    /// One result.
    pub fn cell(declarer: Seat, strain: Strain) -> Need {
        Need(1 << (declarer.index() * 5 + strain.index()))
    }

    /// Both sets.
    pub fn union(self, other: Need) -> Need {
        Need(self.0 | other.0)
    }

    /// Whether nothing is needed.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether every result is needed.
    pub fn is_table(self) -> bool {
        self == Need::TABLE
    }

    /// The cells, as (declarer, strain).
    pub fn cells(self) -> impl Iterator<Item = (Seat, Strain)> {
        (0..20).filter(move |i| self.0 & (1 << i) != 0).map(|i| (Seat::from_index(i / 5), Strain::from_index(i % 5)))
    }

    /// How many results are needed.
    pub fn len(self) -> u32 {
        self.0.count_ones()
    }
}

/// From this many single results on, solving the whole table is cheaper than solving each.
/// Measured with this DDS (one thread, random deals): a whole table takes as long as its 20
/// results solved one by one in the same context (224 vs 233 ms a deal), 16 results 168 ms, 3
/// results 52 ms; so only a whole table is solved as one.
const CELLS_WORTH_A_TABLE: u32 = 20;

/// What is known of one deal's double-dummy results (DealerV2's per-deal cache): tricks per
/// (declarer, strain), and the par result per vulnerability once asked for.
#[derive(Clone, Debug, Default)]
pub struct DealResults {
    /// Known results, as in [`Need`]'s cell numbering.
    known: Need,
    tricks: [[u8; 5]; 4],
    /// Par per vulnerability (none, NS, EW, both), computed from the table on demand.
    par: [Option<Par>; 4],
}

impl DealResults {
    /// Results from a complete table (e.g. read from a library file).
    pub fn from_table(table: &DdTable) -> DealResults {
        DealResults { known: Need::TABLE, tricks: table.0, par: Default::default() }
    }

    /// A known result.
    pub fn tricks(&self, declarer: Seat, strain: Strain) -> Option<u8> {
        (self.known.0 & Need::cell(declarer, strain).0 != 0).then(|| self.tricks[declarer.index()][strain.index()])
    }

    /// The table, when all 20 results are known.
    pub fn table(&self) -> Option<DdTable> {
        self.known.is_table().then_some(DdTable(self.tricks))
    }

    /// What of `need` is not known yet.
    pub fn missing(&self, need: Need) -> Need {
        Need(need.0 & !self.known.0)
    }

    /// Solves what of `need` is missing: the whole table when that is cheaper than the single
    /// results.
    pub fn solve(&mut self, solver: &mut Solver, deal: &Deal, need: Need) -> Result<(), DdError> {
        let missing = self.missing(need);
        if missing.is_empty() {
            return Ok(());
        }
        if missing.len() >= CELLS_WORTH_A_TABLE {
            let table = solver.table(deal)?;
            self.tricks = table.0;
            self.known = Need::TABLE;
        } else {
            for (declarer, strain) in missing.cells() {
                self.tricks[declarer.index()][strain.index()] = solver.tricks(deal, declarer, strain)?;
                self.known = self.known.union(Need::cell(declarer, strain));
            }
        }
        Ok(())
    }

    /// The par result for a vulnerability; the table must be known.
    pub fn par(&mut self, vulnerability: Vulnerability) -> Result<&Par, DdError> {
        let index = match vulnerability {
            Vulnerability::None => 0,
            Vulnerability::NS => 1,
            Vulnerability::EW => 2,
            Vulnerability::All => 3,
        };
        if self.par[index].is_none() {
            let table = self.table().expect("par needs the whole table");
            self.par[index] = Some(par(&table, vulnerability)?);
        }
        Ok(self.par[index].as_ref().expect("just computed"))
    }
}

/// One deal of a batch: what to solve, and what is known of it (filled in by the batch).
#[derive(Clone, Debug)]
pub struct BatchItem {
    /// The deal.
    pub deal: Deal,
    /// The results wanted.
    pub need: Need,
    /// Known results; on return they include `need`, unless `error` is set.
    pub results: DealResults,
    /// The failure of this deal's solve, if any.
    pub error: Option<DdError>,
}

/// Solver contexts for up to a number of threads, created when first needed.
pub struct SolverPool {
    solvers: Vec<Solver>,
    threads: usize,
    memory: TableMemory,
}

impl SolverPool {
    /// A pool that solves batches on `threads` threads (at least 1), each context using at most
    /// `memory`; no context is allocated yet.
    pub fn new(threads: usize, memory: TableMemory) -> SolverPool {
        SolverPool { solvers: Vec::new(), threads: threads.max(1), memory }
    }

    /// The first solver, for solving on the caller's thread.
    pub fn solver(&mut self) -> &mut Solver {
        if self.solvers.is_empty() {
            self.solvers.push(Solver::new(self.memory));
        }
        &mut self.solvers[0]
    }

    /// Solves every item's need, spreading items over the pool's threads (each with its own
    /// context). The results are those of solving the items one at a time.
    pub fn solve_batch(&mut self, items: &mut [BatchItem]) {
        if items.is_empty() {
            return;
        }
        let threads = self.threads.min(items.len());
        while self.solvers.len() < threads {
            self.solvers.push(Solver::new(self.memory));
        }
        if threads == 1 {
            let solver = &mut self.solvers[0];
            for item in items.iter_mut() {
                item.error = item.results.solve(solver, &item.deal, item.need).err();
            }
            return;
        }
        let next = AtomicUsize::new(0);
        let work: &[BatchItem] = items;
        let solved: Vec<Vec<(usize, DealResults, Option<DdError>)>> = std::thread::scope(|scope| {
            let handles: Vec<_> = self.solvers[..threads]
                .iter_mut()
                .map(|solver| {
                    let next = &next;
                    scope.spawn(move || {
                        let mut done = Vec::new();
                        loop {
                            let i = next.fetch_add(1, Ordering::Relaxed);
                            let Some(item) = work.get(i) else { break };
                            let mut results = item.results.clone();
                            let error = results.solve(solver, &item.deal, item.need).err();
                            done.push((i, results, error));
                        }
                        done
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap_or_default()).collect()
        });
        for (i, results, error) in solved.into_iter().flatten() {
            items[i].results = results;
            items[i].error = error;
        }
    }
}

/// The double-dummy results of the deal being judged, with the solvers that fill them on demand
/// (DealerV2's per-deal cache, keyed here by the deal itself). In table mode (DealerV2's `-M 2`)
/// every solve produces all 20 results; otherwise only the result asked for.
///
/// While probing ([`begin_probe`](Self::begin_probe)), nothing is solved: a missing result reads
/// as 0 and is noted, so that a caller can find which deals need the solver before solving them
/// together in a batch.
pub struct DdCache {
    pool: SolverPool,
    table_mode: bool,
    default_vulnerability: Vulnerability,
    deal: Option<Deal>,
    results: DealResults,
    probing: bool,
    missed: bool,
    placeholder: Par,
}

impl Default for DdCache {
    /// A cache solving on the caller's thread with the default table memory, one result at a
    /// time, without a default vulnerability for `par()`.
    fn default() -> Self {
        DdCache::new(SolverPool::new(1, TableMemory::DEFAULT), false, Vulnerability::None)
    }
}

impl DdCache {
    /// A cache whose solves use `pool`, in table mode or not, with the vulnerability `par()`
    /// uses when the script gives none.
    pub fn new(pool: SolverPool, table_mode: bool, default_vulnerability: Vulnerability) -> DdCache {
        DdCache {
            pool,
            table_mode,
            default_vulnerability,
            deal: None,
            results: DealResults::default(),
            probing: false,
            missed: false,
            placeholder: Par { score_ns: 0, contract: String::new() },
        }
    }

    /// The solvers, for batches.
    pub fn pool(&mut self) -> &mut SolverPool {
        &mut self.pool
    }

    /// What a solve for `need` produces in this cache's mode.
    pub fn effective(&self, need: Need) -> Need {
        if self.table_mode && !need.is_empty() {
            Need::TABLE
        } else {
            need
        }
    }

    /// Makes `deal` the cached deal with results already known (from a batch or a library file).
    pub fn insert(&mut self, deal: &Deal, results: DealResults) {
        self.deal = Some(*deal);
        self.results = results;
    }

    /// Starts probing: from now on nothing is solved.
    pub fn begin_probe(&mut self) {
        self.probing = true;
        self.missed = false;
    }

    /// Ends probing; returns whether a result was missing.
    pub fn end_probe(&mut self) -> bool {
        self.probing = false;
        std::mem::take(&mut self.missed)
    }

    /// Makes sure `need` is known for `deal`; `false` when probing and it is not.
    fn ensure(&mut self, deal: &Deal, need: Need) -> Result<bool, DdError> {
        if self.deal != Some(*deal) {
            self.deal = Some(*deal);
            self.results = DealResults::default();
        }
        let need = self.effective(need);
        if self.results.missing(need).is_empty() {
            return Ok(true);
        }
        if self.probing {
            self.missed = true;
            return Ok(false);
        }
        self.results.solve(self.pool.solver(), deal, need)?;
        Ok(true)
    }

    /// All 20 results of `deal` if they are already known (nothing is solved).
    pub fn known_table(&self, deal: &Deal) -> Option<DdTable> {
        if self.deal == Some(*deal) {
            self.results.table()
        } else {
            None
        }
    }

    /// Tricks taken by `declarer` in `strain` on `deal`.
    pub fn tricks(&mut self, deal: &Deal, declarer: Seat, strain: Strain) -> Result<u8, DdError> {
        if !self.ensure(deal, Need::cell(declarer, strain))? {
            return Ok(0);
        }
        Ok(self.results.tricks(declarer, strain).expect("ensured"))
    }

    /// All 20 results of `deal`.
    pub fn table(&mut self, deal: &Deal) -> Result<DdTable, DdError> {
        if !self.ensure(deal, Need::TABLE)? {
            return Ok(DdTable::default());
        }
        Ok(self.results.table().expect("ensured"))
    }

    /// The par result of `deal` for a vulnerability (`None`: the default one).
    pub fn par(&mut self, deal: &Deal, vulnerability: Option<Vulnerability>) -> Result<&Par, DdError> {
        if !self.ensure(deal, Need::TABLE)? {
            return Ok(&self.placeholder);
        }
        let vulnerability = vulnerability.unwrap_or(self.default_vulnerability);
        self.results.par(vulnerability).map_err(|e| DdError { code: e.code, deal: *deal })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::Hand;

    /// A deal from `n <hand> e <hand> s <hand> w <hand>` text (PBN dot hands).
    pub(crate) fn deal(text: &str) -> Deal {
        let words: Vec<&str> = text.split_whitespace().collect();
        let mut hands = [Hand::EMPTY; 4];
        for pair in words.chunks(2) {
            let seat = "nesw".find(pair[0]).expect("seat letter");
            for (i, holding) in pair[1].split('.').enumerate() {
                let suit = Suit::from_index(3 - i);
                for ch in holding.chars() {
                    let rank = crate::cards::RANK_LETTERS.iter().position(|&r| r as char == ch).expect("rank");
                    hands[seat].insert(crate::cards::Card::new(suit, rank as u8));
                }
            }
        }
        let deal = Deal(hands);
        assert!(deal.is_complete(), "{text}");
        deal
    }

    /// Deals with their tables from DealerV2's library sample (rpdd_10First.pbn): declarer N, E,
    /// S, W in turn, each C, D, H, S, NT.
    pub(crate) const KNOWN: [(&str, [u8; 20]); 4] = [
        (
            "n J873.J42.Q65.KT2 e AT652.A976.AJ82. s Q4.85.KT9.A87643 w K9.KQT3.743.QJ95",
            [6, 3, 2, 4, 4, 7, 9, 10, 9, 9, 6, 3, 2, 4, 4, 7, 9, 11, 9, 9],
        ),
        (
            "n 543.J86532.K.AKT e QJT6.KT94.96.752 s AK9872.7.J2.QJ43 w .AQ.AQT87543.986",
            [8, 3, 7, 10, 3, 5, 9, 5, 3, 7, 8, 3, 7, 10, 3, 5, 9, 5, 3, 7],
        ),
        (
            "n J84.AT87.KJ6.QT7 e K6.K65432.AQ92.2 s AT3..53.AKJ98543 w Q9752.QJ9.T874.6",
            [11, 4, 4, 5, 10, 2, 9, 9, 8, 3, 10, 4, 4, 5, 10, 2, 8, 9, 8, 3],
        ),
        // csvTrixDeal_s43.ref, first record.
        (
            "n J.AK97.J83.KJ863 e 953.QJT.T97542.2 s AKQT84.3.A6.AQ75 w 762.86542.KQ.T94",
            [13, 9, 10, 13, 13, 0, 4, 3, 0, 0, 13, 9, 10, 13, 13, 0, 4, 3, 0, 0],
        ),
    ];

    fn flat(table: &DdTable) -> Vec<u8> {
        table.0.iter().flatten().copied().collect()
    }

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
    fn par_contract_text_matches_dealerv2() {
        // KNOWN[3]: North–South take all 13 tricks in notrump and East–West have no sacrifice.
        let mut solver = Solver::default();
        let table = solver.table(&deal(KNOWN[3].0)).unwrap();
        let p = par(&table, Vulnerability::All).unwrap();
        assert_eq!(p.contract.len(), " 7N  by NS both".len());
        assert!(p.contract.ends_with(" by NS both"), "{p:?}");
        assert_eq!(p.score_ns, 2220, "7NT vulnerable by NS: {p:?}");
        let p = par(&table, Vulnerability::None).unwrap();
        assert_eq!((p.score_ns, p.contract.as_str()), (1520, " 7N  by NS none"));
    }

    #[test]
    fn batches_give_the_results_of_single_solves() {
        let items: Vec<BatchItem> = KNOWN
            .iter()
            .map(|(text, _)| BatchItem {
                deal: deal(text),
                need: Need::TABLE,
                results: DealResults::default(),
                error: None,
            })
            .collect();
        for threads in [1, 2, 3] {
            let mut batch = items.clone();
            SolverPool::new(threads, TableMemory::DEFAULT).solve_batch(&mut batch);
            for (item, (_, want)) in batch.iter().zip(KNOWN) {
                assert!(item.error.is_none());
                assert_eq!(flat(&item.results.table().unwrap()), want);
            }
        }
    }

    #[test]
    fn partial_needs_solve_only_their_cells() {
        let d = deal(KNOWN[1].0);
        let mut results = DealResults::default();
        let need = Need::cell(Seat::South, Strain::Notrump);
        results.solve(&mut Solver::default(), &d, need).unwrap();
        assert_eq!(results.tricks(Seat::South, Strain::Notrump), Some(KNOWN[1].1[14]));
        assert_eq!(results.tricks(Seat::North, Strain::Notrump), None);
        assert!(results.table().is_none());
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
