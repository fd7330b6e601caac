//! What is known of one deal's double-dummy results: which results a solve must produce
//! ([`Need`]) and the results known so far with their par scores ([`DealResults`]), solved with a
//! caller's [`Solver`] (a whole table when that is cheaper).
//!
//! Builds on the solver and par modules; it must not use the batch or cache modules, nor own
//! solver contexts.

use super::double_dummy::DoubleDummy;
use super::entry_points::{DdsAnswer, DdsJob};
use super::par::{par, Par};
use super::solver::{table_job, table_of, tricks_job, tricks_of, DdError, DdTable, Solver};
use crate::cards::{Deal, Seat, Strain};
use crate::script::ast::Vulnerability;

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

    /// Results known as [`known_results`](Self::known_results) gives them: the cells known
    /// (bit `5 · declarer + strain`) and the 20 tricks in that order (those not known are 0).
    pub fn from_known(known: u32, tricks: [u8; 20]) -> DealResults {
        DealResults {
            known: Need(known & Need::TABLE.0),
            tricks: std::array::from_fn(|d| std::array::from_fn(|s| tricks[5 * d + s])),
            par: Default::default(),
        }
    }

    /// The results known: the cells (bit `5 · declarer + strain`) and the 20 tricks in that
    /// order (0 where not known).
    pub fn known_results(&self) -> (u32, [u8; 20]) {
        let tricks = std::array::from_fn(|cell| match self.known.0 >> cell & 1 {
            1 => self.tricks[cell / 5][cell % 5],
            _ => 0,
        });
        (self.known.0, tricks)
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
        for (cell, job) in self.jobs(deal, need) {
            let answer = solver.answer(deal, &job);
            self.take(deal, cell, answer)?;
        }
        Ok(())
    }

    /// The solves [`solve`](Self::solve) makes for `need`, as jobs (for a DDS that solves many at
    /// once), each with the result it answers: one cell, or `None` for the whole table.
    pub fn jobs(&self, deal: &Deal, need: Need) -> Vec<(Option<(Seat, Strain)>, DdsJob)> {
        let missing = self.missing(need);
        if missing.is_empty() {
            Vec::new()
        } else if missing.len() >= CELLS_WORTH_A_TABLE {
            vec![(None, table_job(deal))]
        } else {
            missing
                .cells()
                .map(|(declarer, strain)| (Some((declarer, strain)), tricks_job(deal, declarer, strain)))
                .collect()
        }
    }

    /// Keeps the answer to one of [`jobs`](Self::jobs)'s jobs.
    pub fn take(
        &mut self,
        deal: &Deal,
        cell: Option<(Seat, Strain)>,
        answer: Result<DdsAnswer, DdError>,
    ) -> Result<(), DdError> {
        match cell {
            None => {
                self.tricks = table_of(deal, answer)?.0;
                self.known = Need::TABLE;
            }
            Some((declarer, strain)) => {
                self.tricks[declarer.index()][strain.index()] = tricks_of(deal, answer)?;
                self.known = self.known.union(Need::cell(declarer, strain));
            }
        }
        Ok(())
    }

    /// The par result for a vulnerability, by `dds`'s par; the table must be known.
    pub fn par(&mut self, dds: &DoubleDummy, vulnerability: Vulnerability) -> Result<&Par, DdError> {
        let index = match vulnerability {
            Vulnerability::None => 0,
            Vulnerability::NS => 1,
            Vulnerability::EW => 2,
            Vulnerability::All => 3,
        };
        if self.par[index].is_none() {
            let table = self.table().expect("par needs the whole table");
            self.par[index] = Some(par(dds, &table, vulnerability)?);
        }
        Ok(self.par[index].as_ref().expect("just computed"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dd::test_deals::{deal, KNOWN};

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
}
