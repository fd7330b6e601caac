//! Test support: complete deals from text, deals with known double-dummy tables, and a DDS of the
//! embedder's kind ([`CountingDds`]), shared by the tests of the `dd` modules and of the job
//! (which counts what dealing ahead solves). Test-only; it must not be used by library code.

use super::DdTable;
use crate::cards::{Deal, Hand, Suit};

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

pub(crate) fn flat(table: &DdTable) -> Vec<u8> {
    table.0.iter().flatten().copied().collect()
}

/// This build's DDS behind one provided as an embedder's would be, which counts the contexts it
/// makes and frees and the solves it is asked, and which solves `jobs_at_once` jobs at once
/// (in turn, in a context of its own) when that is more than 1, as the WebAssembly build's
/// solver workers do. `before_solve`, when set, is called with the solve's number (from 1)
/// before each solve.
#[cfg(feature = "dds")]
#[derive(Default)]
pub(crate) struct CountingDds {
    pub(crate) linked: super::linked_dds::LinkedDds,
    pub(crate) jobs_at_once: usize,
    pub(crate) contexts: std::sync::atomic::AtomicUsize,
    pub(crate) freed: std::sync::atomic::AtomicUsize,
    pub(crate) solves: std::sync::atomic::AtomicUsize,
    pub(crate) job_calls: std::sync::atomic::AtomicUsize,
    pub(crate) before_solve: Option<Box<dyn Fn(usize) + Send + Sync>>,
}

#[cfg(feature = "dds")]
mod counting_dds {
    use std::sync::atomic::Ordering;

    use super::CountingDds;
    use crate::dd::{ContextId, DdsAnswer, DdsCards, DdsEntryPoints, DdsJob, DdsParResult, DdsTable};

    impl CountingDds {
        fn count_solve(&self) {
            let number = self.solves.fetch_add(1, Ordering::Relaxed) + 1;
            if let Some(before_solve) = &self.before_solve {
                before_solve(number);
            }
        }
    }

    impl DdsEntryPoints for CountingDds {
        fn context_new(&self, start_mb: u32, maximum_mb: u32) -> Option<ContextId> {
            self.contexts.fetch_add(1, Ordering::Relaxed);
            self.linked.context_new(start_mb, maximum_mb)
        }
        fn context_free(&self, context: ContextId) {
            self.freed.fetch_add(1, Ordering::Relaxed);
            self.linked.context_free(context)
        }
        fn calc_dd_table(&self, context: ContextId, cards: &DdsCards) -> Result<DdsTable, i32> {
            self.count_solve();
            self.linked.calc_dd_table(context, cards)
        }
        fn solve_board(
            &self,
            context: ContextId,
            trump: i32,
            first: i32,
            cards: &DdsCards,
            target: i32,
        ) -> Result<i32, i32> {
            self.count_solve();
            self.linked.solve_board(context, trump, first, cards, target)
        }
        fn solve_leads(
            &self,
            context: ContextId,
            trump: i32,
            first: i32,
            cards: &DdsCards,
        ) -> Result<crate::dd::DdsLeadScores, i32> {
            self.count_solve();
            self.linked.solve_leads(context, trump, first, cards)
        }
        fn sides_par(&self, table: &DdsTable, vulnerability: i32) -> Result<[DdsParResult; 2], i32> {
            self.linked.sides_par(table, vulnerability)
        }
        fn dealer_par(&self, table: &DdsTable, dealer: i32, vulnerability: i32) -> Result<DdsParResult, i32> {
            self.linked.dealer_par(table, dealer, vulnerability)
        }
        fn error_message(&self, code: i32) -> Option<String> {
            self.linked.error_message(code)
        }
        fn parallel_jobs(&self) -> usize {
            self.jobs_at_once.max(1)
        }
        fn solve_jobs(&self, jobs: &[DdsJob]) -> Vec<Result<DdsAnswer, i32>> {
            self.job_calls.fetch_add(1, Ordering::Relaxed);
            let context = self.linked.context_new(16, 64).expect("a context");
            let answers = jobs
                .iter()
                .map(|job| match job {
                    DdsJob::Table { cards } => self.linked.calc_dd_table(context, cards).map(DdsAnswer::Table),
                    DdsJob::Board { trump, first, cards, target } => {
                        self.linked.solve_board(context, *trump, *first, cards, *target).map(DdsAnswer::Score)
                    }
                    DdsJob::Leads { trump, first, cards } => {
                        self.linked.solve_leads(context, *trump, *first, cards).map(DdsAnswer::Leads)
                    }
                })
                .collect();
            self.linked.context_free(context);
            answers
        }
    }
}
