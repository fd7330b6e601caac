//! What is known of one deal's double-dummy results: which results a solve must produce
//! ([`Need`]), the threshold questions asked of them ([`Threshold`], together [`Questions`]),
//! and what is known so far ([`DealResults`]): exact results with their par scores, and for the
//! others the interval that the answers to threshold questions narrowed. Solved with a caller's
//! [`Solver`] (a whole table when that is cheaper).
//!
//! Builds on the solver and par modules; it must not use the batch or cache modules, nor own
//! solver contexts.

use super::double_dummy::DoubleDummy;
use super::entry_points::{DdsAnswer, DdsJob};
use super::par::{par, Par};
use super::solver::{
    at_least_job, at_least_of, table_job, table_of, tricks_job, tricks_of, DdError, DdTable, SolveCounts, Solver,
};
use super::sure_tricks::{declarers_sure_tricks, defenders_sure_tricks};
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

/// A threshold question: does `declarer` take at least `tricks` in `strain`? (Asked of DDS as a
/// target search, much cheaper than solving the result exactly.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Threshold {
    /// The declarer.
    pub declarer: Seat,
    /// The strain.
    pub strain: Strain,
    /// The tricks asked about, 1 to 13 (0 and 14 are answered without asking).
    pub tricks: u8,
}

/// What a deal's solves must answer: exact results ([`Need`]) and threshold questions.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Questions {
    /// Results wanted exactly.
    pub exact: Need,
    /// Threshold questions.
    pub thresholds: Vec<Threshold>,
}

impl Questions {
    /// Exact results only.
    pub fn exact(need: Need) -> Questions {
        Questions { exact: need, thresholds: Vec::new() }
    }

    /// Whether nothing is asked.
    pub fn is_empty(&self) -> bool {
        self.exact.is_empty() && self.thresholds.is_empty()
    }
}

/// What a solve job answers about a deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answers {
    /// The whole table.
    Table,
    /// One result exactly.
    Tricks(Seat, Strain),
    /// A threshold question.
    Threshold(Threshold),
}

/// From this many single results on, solving the whole table is cheaper than solving each.
/// Measured with this DDS (one thread, random deals): a whole table takes as long as its 20
/// results solved one by one in the same context (224 vs 233 ms a deal), 16 results 168 ms, 3
/// results 52 ms; so only a whole table is solved as one.
const CELLS_WORTH_A_TABLE: u32 = 20;

/// What is known of one deal's double-dummy results (DealerV2's per-deal cache): tricks per
/// (declarer, strain), and the par result per vulnerability once asked for. A result not known
/// exactly is known to lie between a least and a most number of tricks (0 and 13 at first),
/// which the answers to threshold questions narrow; it is known once they meet.
#[derive(Clone, Debug)]
pub struct DealResults {
    /// Results known exactly, as in [`Need`]'s cell numbering.
    known: Need,
    /// Per (declarer, strain): the exact result when known, otherwise the fewest tricks declarer
    /// is known to take.
    tricks: [[u8; 5]; 4],
    /// Per (declarer, strain): the most tricks declarer can take, as far as known.
    most: [[u8; 5]; 4],
    /// Par per vulnerability (none, NS, EW, both), computed from the table on demand.
    par: [Option<Par>; 4],
    /// The solves these results took.
    solves: SolveCounts,
}

impl Default for DealResults {
    /// Nothing known: every result between 0 and 13.
    fn default() -> Self {
        DealResults {
            known: Need::NONE,
            tricks: [[0; 5]; 4],
            most: [[13; 5]; 4],
            par: Default::default(),
            solves: SolveCounts::default(),
        }
    }
}

impl DealResults {
    /// Results from a complete table (e.g. read from a library file).
    pub fn from_table(table: &DdTable) -> DealResults {
        DealResults { known: Need::TABLE, tricks: table.0, most: table.0, ..Default::default() }
    }

    /// The solves these results took (a whole table read from a file took none).
    pub fn solves(&self) -> SolveCounts {
        self.solves
    }

    /// The same results, their solves no longer counted here (they are counted where the
    /// results came from).
    pub fn uncounted(mut self) -> DealResults {
        self.solves = SolveCounts::default();
        self
    }

    /// Results known as [`known_results`](Self::known_results) gives them: the cells known
    /// (bit `5 · declarer + strain`) and the 20 tricks in that order (those not known are 0).
    pub fn from_known(known: u32, tricks: [u8; 20]) -> DealResults {
        let known = Need(known & Need::TABLE.0);
        let mut results = DealResults::default();
        for (declarer, strain) in known.cells() {
            results.set_exact(declarer, strain, tricks[5 * declarer.index() + strain.index()]);
        }
        results
    }

    /// Learns `declarer`'s exact tricks in `strain`.
    fn set_exact(&mut self, declarer: Seat, strain: Strain, tricks: u8) {
        self.tricks[declarer.index()][strain.index()] = tricks;
        self.most[declarer.index()][strain.index()] = tricks;
        self.known = self.known.union(Need::cell(declarer, strain));
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

    /// The fewest and the most tricks `declarer` is known to take in `strain` (equal when the
    /// result is known).
    pub fn bounds(&self, declarer: Seat, strain: Strain) -> (u8, u8) {
        let (d, s) = (declarer.index(), strain.index());
        (self.tricks[d][s], self.most[d][s])
    }

    /// Whether `declarer` takes at least `tricks` in `strain`, when what is known decides it
    /// (any number: at least 0 always, at least 14 never).
    pub fn decides(&self, declarer: Seat, strain: Strain, tricks: i32) -> Option<bool> {
        let (least, most) = self.bounds(declarer, strain);
        if tricks <= least as i32 {
            Some(true)
        } else if tricks > most as i32 {
            Some(false)
        } else {
            None
        }
    }

    /// Learns what the cards alone tell of `declarer`'s tricks in `strain`: at least the tricks
    /// declarer cannot fail to take ([`declarers_sure_tricks`]), at most what the defenders'
    /// sure tricks leave ([`defenders_sure_tricks`]).
    pub fn bound_by_the_cards(&mut self, deal: &Deal, declarer: Seat, strain: Strain) {
        if self.known.0 & Need::cell(declarer, strain).0 != 0 {
            return;
        }
        let declarers = declarers_sure_tricks(deal, declarer, strain);
        if declarers > 0 {
            self.narrow(declarer, strain, declarers, true);
        }
        let defenders = defenders_sure_tricks(deal, declarer, strain);
        if defenders > 0 {
            self.narrow(declarer, strain, 14 - defenders, false);
        }
    }

    /// Learns that declarer takes at least `tricks` (`true`) or fewer (`false`).
    fn narrow(&mut self, declarer: Seat, strain: Strain, tricks: u8, at_least: bool) {
        let (d, s) = (declarer.index(), strain.index());
        if at_least {
            self.tricks[d][s] = self.tricks[d][s].max(tricks);
        } else {
            self.most[d][s] = self.most[d][s].min(tricks - 1);
        }
        debug_assert!(self.tricks[d][s] <= self.most[d][s], "contradictory answers");
        if self.tricks[d][s] == self.most[d][s] {
            self.known = self.known.union(Need::cell(declarer, strain));
        }
    }

    /// What of `need` is not known yet.
    pub fn missing(&self, need: Need) -> Need {
        Need(need.0 & !self.known.0)
    }

    /// What of `questions` is not answered yet.
    pub fn unanswered(&self, questions: &Questions) -> Questions {
        Questions {
            exact: self.missing(questions.exact),
            thresholds: questions
                .thresholds
                .iter()
                .filter(|t| self.decides(t.declarer, t.strain, t.tricks as i32).is_none())
                .copied()
                .collect(),
        }
    }

    /// Solves what of `need` is missing: the whole table when that is cheaper than the single
    /// results.
    pub fn solve(&mut self, solver: &mut Solver, deal: &Deal, need: Need) -> Result<(), DdError> {
        self.answer(solver, deal, &Questions::exact(need))
    }

    /// Answers what of `questions` is not answered yet, the threshold questions in turn (an
    /// answer may settle the next).
    pub fn answer(&mut self, solver: &mut Solver, deal: &Deal, questions: &Questions) -> Result<(), DdError> {
        loop {
            let jobs = self.jobs(deal, questions);
            let Some((asked, job)) = jobs.into_iter().next() else { return Ok(()) };
            let answer = solver.answer(deal, &job);
            self.take(deal, asked, &job, answer)?;
        }
    }

    /// The solves that answer what of `questions` is not answered yet, as jobs (for a DDS that
    /// solves many at once), each with what it answers: the exact results (one job for the
    /// whole table when that is cheaper; a single threshold question for a result known to be
    /// one of two numbers), then the threshold questions.
    pub fn jobs(&self, deal: &Deal, questions: &Questions) -> Vec<(Answers, DdsJob)> {
        let missing = self.missing(questions.exact);
        let whole_table = missing.len() >= CELLS_WORTH_A_TABLE;
        let mut jobs = Vec::new();
        if whole_table {
            jobs.push((Answers::Table, table_job(deal)));
        } else {
            for (declarer, strain) in missing.cells() {
                jobs.push(match self.bounds(declarer, strain) {
                    (least, most) if most == least + 1 => {
                        let threshold = Threshold { declarer, strain, tricks: most };
                        (Answers::Threshold(threshold), at_least_job(deal, declarer, strain, most))
                    }
                    _ => (Answers::Tricks(declarer, strain), tricks_job(deal, declarer, strain)),
                });
            }
        }
        // A result solved exactly answers every threshold question about it.
        let exact = if whole_table { Need::TABLE } else { missing };
        for (i, &t) in questions.thresholds.iter().enumerate() {
            let cell = Need::cell(t.declarer, t.strain);
            if exact.0 & cell.0 != 0
                || questions.thresholds[..i].contains(&t)
                || self.decides(t.declarer, t.strain, t.tricks as i32).is_some()
            {
                continue;
            }
            jobs.push((Answers::Threshold(t), at_least_job(deal, t.declarer, t.strain, t.tricks)));
        }
        jobs
    }

    /// Keeps the answer to one of [`jobs`](Self::jobs)'s jobs.
    pub fn take(
        &mut self,
        deal: &Deal,
        asked: Answers,
        job: &DdsJob,
        answer: Result<DdsAnswer, DdError>,
    ) -> Result<(), DdError> {
        self.solves.count(job);
        match asked {
            Answers::Table => {
                self.tricks = table_of(deal, answer)?.0;
                self.most = self.tricks;
                self.known = Need::TABLE;
            }
            Answers::Tricks(declarer, strain) => self.set_exact(declarer, strain, tricks_of(deal, answer)?),
            Answers::Threshold(t) => {
                let at_least = at_least_of(deal, job, answer)?;
                self.narrow(t.declarer, t.strain, t.tricks, at_least);
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
    fn known_results_read_back_exactly() {
        let tricks: [u8; 20] = std::array::from_fn(|cell| (cell % 14) as u8);
        let results = DealResults::from_known(0b1000_0000_0000_0000_0111, tricks);
        assert_eq!(results.tricks(Seat::North, Strain::Suit(crate::cards::Suit::Clubs)), Some(0));
        assert_eq!(results.tricks(Seat::North, Strain::Suit(crate::cards::Suit::Hearts)), Some(2));
        assert_eq!(results.tricks(Seat::West, Strain::Notrump), Some(5));
        assert_eq!(results.tricks(Seat::East, Strain::Notrump), None);
        assert_eq!(
            results.known_results(),
            (0b1000_0000_0000_0000_0111, {
                let mut want = [0; 20];
                for cell in [0, 1, 2, 19] {
                    want[cell] = tricks[cell];
                }
                want
            })
        );
        assert_eq!(DealResults::from_known(Need::TABLE.0, tricks).table().map(|t| t.0[3][4]), Some(5));
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
}
