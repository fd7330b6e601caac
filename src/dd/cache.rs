//! The per-deal double-dummy cache the evaluator asks ([`DdCache`]): the results of the deal being
//! judged, solved on demand with its [`SolverPool`] (exact results, or threshold questions when
//! the script compares a result with a number), and the probing mode that finds what deals need
//! of the solver before a batch solves them.
//!
//! The top layer of `dd`: it uses the other modules, and none of them uses it.

use super::batch::SolverPool;
use super::double_dummy::DoubleDummy;
use super::par::{board_par, Par};
use super::results::{DealResults, Need, Questions, Threshold};
use super::solver::{DdError, DdTable, LeadTricks, SolveCounts, TableMemory};
use crate::cards::{Deal, Seat, Strain};
use crate::script::ast::{BinOp, Vulnerability};

/// The double-dummy results of the deal being judged, with the solvers that fill them on demand
/// (DealerV2's per-deal cache, keyed here by the deal itself). In table mode (DealerV2's `-M 2`)
/// every solve produces all 20 results; otherwise only the result asked for.
///
/// While probing ([`begin_probe`](Self::begin_probe)), nothing is solved: a missing result reads
/// as 0 (an unanswered threshold question as "no"), and the first question that could not be
/// answered is noted, so that a caller can find what deals need of the solver, in the order the
/// script asks, before solving them together in a batch.
pub struct DdCache {
    pool: SolverPool,
    table_mode: bool,
    default_vulnerability: Vulnerability,
    deal: Option<Deal>,
    results: DealResults,
    probing: bool,
    /// The first question a probe could not answer.
    missed: Questions,
    /// Threshold questions the cards alone answered (outside probes).
    answered_by_the_cards: u64,
    /// The solves of the deals this cache has left (the current deal's are in its results).
    left_deals_solves: SolveCounts,
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
            missed: Questions::default(),
            answered_by_the_cards: 0,
            left_deals_solves: SolveCounts::default(),
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

    /// Makes `deal` the cached deal with results already known (from a batch or a library file),
    /// whose solves count as this run's.
    pub fn insert(&mut self, deal: &Deal, results: DealResults) {
        self.leave_deal();
        self.deal = Some(*deal);
        self.results = results;
    }

    /// The same for a deal judged ahead of its turn, whose solves are counted when it is
    /// judged in turn (with [`insert`](Self::insert)).
    pub fn insert_ahead(&mut self, deal: &Deal, results: DealResults) {
        self.insert(deal, results.uncounted());
    }

    /// The solves the results of the deals judged so far took (on any thread): solves made
    /// ahead for deals never judged are not counted, so the count is the same for any number of
    /// threads.
    pub fn counts(&self) -> SolveCounts {
        self.left_deals_solves.plus(self.results.solves())
    }

    /// Leaves the current deal: its solves are counted.
    fn leave_deal(&mut self) {
        self.left_deals_solves = self.left_deals_solves.plus(self.results.solves());
        self.results = DealResults::default();
    }

    /// How many threshold questions the cards alone answered, with no solve (probes aside).
    pub fn answered_by_the_cards(&self) -> u64 {
        self.answered_by_the_cards
    }

    /// Starts probing: from now on nothing is solved.
    pub fn begin_probe(&mut self) {
        self.probing = true;
        self.missed = Questions::default();
    }

    /// Ends probing; returns the first question the probe could not answer (empty when it
    /// answered everything).
    pub fn end_probe(&mut self) -> Questions {
        self.probing = false;
        std::mem::take(&mut self.missed)
    }

    /// Makes `deal` the cached deal (forgetting another deal's results).
    fn select(&mut self, deal: &Deal) {
        if self.deal != Some(*deal) {
            self.leave_deal();
            self.deal = Some(*deal);
        }
    }

    /// Makes sure `questions` are answered for `deal` (in table mode by the whole table);
    /// `false` when probing and they are not.
    fn ensure_answered(&mut self, deal: &Deal, questions: Questions) -> Result<bool, DdError> {
        self.select(deal);
        let questions = if self.table_mode { Questions::exact(Need::TABLE) } else { questions };
        if self.results.unanswered(&questions).is_empty() {
            return Ok(true);
        }
        if self.probing {
            if self.missed.is_empty() {
                self.missed = questions;
            }
            return Ok(false);
        }
        self.results.answer(self.pool.solver(), deal, &questions)?;
        Ok(true)
    }

    /// Makes sure `need` is known for `deal`; `false` when probing and it is not.
    fn ensure(&mut self, deal: &Deal, need: Need) -> Result<bool, DdError> {
        self.ensure_answered(deal, Questions::exact(need))
    }

    /// Whether `declarer` takes at least `tricks` in `strain` on `deal` (any number), asking
    /// the solver only what is not known yet; "no" while probing when it is not known.
    pub fn at_least(&mut self, deal: &Deal, declarer: Seat, strain: Strain, tricks: i32) -> Result<bool, DdError> {
        self.select(deal);
        if let Some(answer) = self.results.decides(declarer, strain, tricks) {
            return Ok(answer);
        }
        if !self.table_mode {
            self.results.bound_by_the_cards(deal, declarer, strain);
            if let Some(answer) = self.results.decides(declarer, strain, tricks) {
                self.answered_by_the_cards += u64::from(!self.probing);
                return Ok(answer);
            }
        }
        let threshold = Threshold { declarer, strain, tricks: tricks as u8 };
        if !self.ensure_answered(deal, Questions { exact: Need::NONE, thresholds: vec![threshold] })? {
            return Ok(false);
        }
        Ok(self.results.decides(declarer, strain, tricks).expect("answered"))
    }

    /// Whether declarer's tricks compare with `value` by `op` (`==`, `!=`, `<`, `<=`, `>`,
    /// `>=`): one or two threshold questions, each asked only when what is known does not
    /// decide it.
    pub fn compare(
        &mut self,
        deal: &Deal,
        declarer: Seat,
        strain: Strain,
        op: BinOp,
        value: i32,
    ) -> Result<bool, DdError> {
        let next = value.saturating_add(1);
        Ok(match op {
            BinOp::Ge => self.at_least(deal, declarer, strain, value)?,
            BinOp::Gt => self.at_least(deal, declarer, strain, next)?,
            BinOp::Le => !self.at_least(deal, declarer, strain, next)?,
            BinOp::Lt => !self.at_least(deal, declarer, strain, value)?,
            BinOp::Eq | BinOp::Ne => {
                let equal =
                    self.at_least(deal, declarer, strain, value)? && !self.at_least(deal, declarer, strain, next)?;
                equal == (op == BinOp::Eq)
            }
            _ => unreachable!("compare is called with comparison operators"),
        })
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

    /// The defenders' tricks after each card `leader` may lead to the first trick in `strain`
    /// on `deal`, in one search (not kept: each call solves; counted as this run's).
    pub fn leads(&mut self, deal: &Deal, leader: Seat, strain: Strain) -> Result<LeadTricks, DdError> {
        self.left_deals_solves.leads += 1;
        self.pool.solver().leads(deal, leader, strain)
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

#[cfg(all(test, feature = "dds"))]
mod tests {
    use super::*;
    use crate::dd::{declarers_sure_tricks, defenders_sure_tricks, Solver};
    use crate::dealing::{Dealer, DealingSetup, GeneratorKind};

    const OPERATORS: [BinOp; 6] = [BinOp::Eq, BinOp::Ne, BinOp::Lt, BinOp::Le, BinOp::Gt, BinOp::Ge];

    /// `count` random deals of seed `seed`, each with a declarer and strain of its own.
    fn random_questions(seed: i64, count: usize) -> Vec<(Deal, Seat, Strain)> {
        let mut dealer = Dealer::new(&DealingSetup { generator: GeneratorKind::ChaCha, seed, ..Default::default() })
            .expect("a dealer");
        (0..count)
            .map(|i| (dealer.deal().expect("a deal"), Seat::from_index(i % 4), Strain::from_index(i / 4 % 5)))
            .collect()
    }

    /// On each deal: the exact result (solved alone), then every operator against numbers around
    /// it and at the edges (-1, 0, 13, 14), asked of one cache in turn, so that each answer
    /// narrows what the next question starts from. Every answer must be the exact result's
    /// comparison, and the cards' bound must hold.
    fn check(questions: &[(Deal, Seat, Strain)]) -> SolveCounts {
        let mut exact = Solver::default();
        let mut cache = DdCache::default();
        for (i, &(deal, declarer, strain)) in questions.iter().enumerate() {
            let tricks = exact.tricks(&deal, declarer, strain).unwrap() as i32;
            assert!(tricks <= 13 - defenders_sure_tricks(&deal, declarer, strain) as i32, "{deal:?}");
            assert!(tricks >= declarers_sure_tricks(&deal, declarer, strain) as i32, "{deal:?}");
            let values = [tricks + (i % 3) as i32 - 1, tricks, -1, 0, 13, 14, tricks + 1, tricks - 1];
            for (j, &value) in values.iter().enumerate() {
                let op = OPERATORS[(i + j) % OPERATORS.len()];
                for op in [op, OPERATORS[(i + j + 3) % OPERATORS.len()]] {
                    let want = crate::program::nodes::apply(op, tricks, value) != 0;
                    let got = cache.compare(&deal, declarer, strain, op, value).unwrap();
                    assert_eq!(got, want, "{deal:?} {declarer:?} {strain:?}: {tricks} {op:?} {value}");
                }
            }
            assert_eq!(cache.tricks(&deal, declarer, strain).unwrap() as i32, tricks);
        }
        cache.counts()
    }

    #[test]
    fn threshold_answers_equal_the_exact_result_compared() {
        // 400 deals on two threads, 16 questions each.
        let counts: Vec<SolveCounts> = std::thread::scope(|scope| {
            let workers: Vec<_> =
                (0..2).map(|part| scope.spawn(move || check(&random_questions(70 + part, 200)))).collect();
            workers.into_iter().map(|w| w.join().unwrap()).collect()
        });
        let total = counts.into_iter().fold(SolveCounts::default(), SolveCounts::plus);
        assert_eq!(total.tables, 0);
        assert!(total.thresholds > 400, "{total:?}");
        // The exact results are known from the thresholds' answers: none is solved exactly
        // unless two answers leave it between three numbers or more.
        assert!(total.exact < 200, "{total:?}");
    }

    #[test]
    fn the_first_question_is_cheaper_than_an_exact_solve_and_noted_while_probing() {
        let (deal, declarer, strain) = random_questions(5, 1)[0];
        let mut cache = DdCache::default();
        cache.begin_probe();
        assert!(!cache.compare(&deal, declarer, strain, BinOp::Ge, 7).unwrap());
        assert!(!cache.compare(&deal, declarer, strain, BinOp::Ge, 9).unwrap());
        let missed = cache.end_probe();
        assert_eq!(missed.thresholds, vec![Threshold { declarer, strain, tricks: 7 }], "only the first miss");
        assert_eq!(cache.counts(), SolveCounts::default(), "a probe solves nothing");
        cache.compare(&deal, declarer, strain, BinOp::Ge, 7).unwrap();
        assert_eq!(cache.counts(), SolveCounts { thresholds: 1, ..Default::default() });
    }

    #[test]
    fn the_cards_answer_a_grand_slam_against_a_leader_with_an_ace() {
        let deal =
            crate::dd::test_deals::deal("n AKQJ.AKQ.AKQ.KQJ e 5432.5432.432.A2 s T98.JT9.JT9.T987 w 76.876.8765.6543");
        let mut cache = DdCache::default();
        // East leads the club ace against North's 7NT.
        assert!(!cache.compare(&deal, Seat::North, Strain::Notrump, BinOp::Ge, 13).unwrap());
        assert!(cache.compare(&deal, Seat::North, Strain::Notrump, BinOp::Le, 12).unwrap());
        assert_eq!(cache.counts(), SolveCounts::default());
        assert_eq!(cache.answered_by_the_cards(), 1);
    }
}
