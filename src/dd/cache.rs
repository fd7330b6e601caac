//! The per-deal double-dummy cache the evaluator asks ([`DdCache`]): the results of the deal being
//! judged, solved on demand with its [`SolverPool`], and the probing mode that
//! finds which deals need the solver before a batch solves them.
//!
//! The top layer of `dd`: it uses the other modules, and none of them uses it.

use super::batch::SolverPool;
use super::double_dummy::DoubleDummy;
use super::par::{board_par, Par};
use super::results::{DealResults, Need};
use super::solver::{DdError, DdTable, TableMemory};
use crate::cards::{Deal, Seat, Strain};
use crate::script::ast::Vulnerability;

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
    /// A cache solving with this build's DDS on the caller's thread with the default table
    /// memory, one result at a time, without a default vulnerability for `par()`.
    fn default() -> Self {
        DdCache::new(SolverPool::new(1, TableMemory::DEFAULT, DoubleDummy::of_this_build()), false, Vulnerability::None)
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
            placeholder: Par { score_ns: 0, contract: String::new(), contracts: Vec::new() },
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

    /// Solves what of `need` is not known yet for `deal` (nothing while probing).
    pub fn solve(&mut self, deal: &Deal, need: Need) -> Result<(), DdError> {
        self.ensure(deal, need).map(|_| ())
    }

    /// The results known for `deal` (none when another deal is cached).
    pub fn results(&self, deal: &Deal) -> Option<&DealResults> {
        (self.deal == Some(*deal)).then_some(&self.results)
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
        self.results.par(self.pool.dds(), vulnerability).map_err(|e| DdError { code: e.code, deal: *deal })
    }

    /// The par result of a board from its table, for the board's dealer and vulnerability
    /// (see [`board_par`]).
    pub fn board_par(&self, table: &DdTable, vulnerability: Vulnerability, dealer: Seat) -> Result<Par, DdError> {
        board_par(self.pool.dds(), table, vulnerability, dealer)
    }
}
