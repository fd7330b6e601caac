//! Batches of deals solved across threads: a [`BatchItem`] per deal and the [`SolverPool`] of
//! solver contexts (one per worker thread) whose scoped threads pull items from a shared counter,
//! so that results do not depend on the number of threads.
//!
//! Builds on the solver and results modules; it must not use the cache module, and it never uses
//! DDS's legacy entry points with their global scheduler.

use std::sync::atomic::{AtomicUsize, Ordering};

use super::double_dummy::DoubleDummy;
use super::entry_points::DdsEntryPoints;
use super::results::{DealResults, Questions};
use super::solver::{DdError, Solver, TableMemory, NO_ANSWER};
use crate::cards::Deal;

/// One deal of a batch: what to solve, and what is known of it (filled in by the batch).
#[derive(Clone, Debug)]
pub struct BatchItem {
    /// The deal.
    pub deal: Deal,
    /// What the batch must answer.
    pub questions: Questions,
    /// What is known; on return it answers `questions`, unless `error` is set.
    pub results: DealResults,
    /// The failure of this deal's solve, if any.
    pub error: Option<DdError>,
}

impl BatchItem {
    /// Whether the batch answered this item's questions (no error, and not left out by a stop).
    pub fn solved(&self) -> bool {
        self.error.is_none() && self.results.unanswered(&self.questions).is_empty()
    }
}

/// Solver contexts for up to a number of threads, created when first needed.
pub struct SolverPool {
    solvers: Vec<Solver>,
    threads: usize,
    memory: TableMemory,
    dds: DoubleDummy,
}

impl SolverPool {
    /// A pool of `dds`'s solvers that solves batches on `threads` threads (at least 1), each
    /// context using at most `memory`; no context is allocated yet. A DDS that solves many jobs
    /// at once itself ([`DdsEntryPoints::parallel_jobs`]) solves the batches instead.
    pub fn new(threads: usize, memory: TableMemory, dds: DoubleDummy) -> SolverPool {
        SolverPool { solvers: Vec::new(), threads: threads.max(1), memory, dds }
    }

    /// The DDS the pool solves with (for par, which needs no context).
    pub fn dds(&self) -> &DoubleDummy {
        &self.dds
    }

    /// The first solver, for solving on the caller's thread.
    pub fn solver(&mut self) -> &mut Solver {
        if self.solvers.is_empty() {
            self.solvers.push(Solver::new(self.memory, &self.dds));
        }
        &mut self.solvers[0]
    }

    /// Solves every item's need, spreading items over the pool's threads (each with its own
    /// context). The results are those of solving the items one at a time.
    ///
    /// `go_on` is asked before each item is solved (from the solving threads): once it answers
    /// `false` (the run was interrupted or its time ceiling passed), the items not started yet
    /// are left unsolved, their `results` lacking their `need` and no `error` set. A solve in
    /// progress is not cut short, so a batch stops within about one solve.
    pub fn solve_batch(&mut self, items: &mut [BatchItem], go_on: &(dyn Fn() -> bool + Sync)) {
        if items.is_empty() || !go_on() {
            return;
        }
        let threads = self.threads.min(items.len());
        if let Some(dds) = self.dds.entry_points().filter(|dds| threads > 1 && dds.parallel_jobs() > 1) {
            solve_as_jobs(dds.as_ref(), items);
            return;
        }
        while self.solvers.len() < threads {
            self.solvers.push(Solver::new(self.memory, &self.dds));
        }
        if threads == 1 {
            let solver = &mut self.solvers[0];
            for item in items.iter_mut() {
                if !go_on() {
                    break;
                }
                item.error = item.results.answer(solver, &item.deal, &item.questions).err();
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
                        while go_on() {
                            let i = next.fetch_add(1, Ordering::Relaxed);
                            let Some(item) = work.get(i) else { break };
                            let mut results = item.results.clone();
                            let error = results.answer(solver, &item.deal, &item.questions).err();
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

/// Solves a batch through a DDS that solves many jobs at once (the WebAssembly build's solver
/// workers): every item's jobs in one call, each answer kept by its item.
/// (Threshold questions about one result are all asked at once, though one answer might settle
/// the next: one call is worth more than the solve it might save.)
fn solve_as_jobs(dds: &dyn DdsEntryPoints, items: &mut [BatchItem]) {
    let mut owners = Vec::new();
    let mut jobs = Vec::new();
    for (index, item) in items.iter().enumerate() {
        for (asked, job) in item.results.jobs(&item.deal, &item.questions) {
            owners.push((index, asked));
            jobs.push(job);
        }
    }
    let mut answers = dds.solve_jobs(&jobs).into_iter();
    for ((index, asked), job) in owners.into_iter().zip(&jobs) {
        let item = &mut items[index];
        let answer = answers.next().unwrap_or(Err(NO_ANSWER)).map_err(|code| DdError { code, deal: item.deal });
        if item.error.is_none() {
            item.error = item.results.take(&item.deal, asked, job, answer).err();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dd::results::Need;
    use crate::dd::test_deals::{deal, flat, KNOWN};

    /// The deals of known tables, each wanting its whole table.
    fn known_tables() -> Vec<BatchItem> {
        KNOWN
            .iter()
            .map(|(text, _)| BatchItem {
                deal: deal(text),
                questions: Questions::exact(Need::TABLE),
                results: DealResults::default(),
                error: None,
            })
            .collect()
    }

    #[test]
    fn batches_give_the_results_of_single_solves() {
        let items = known_tables();
        for threads in [1, 2, 3] {
            let mut batch = items.clone();
            SolverPool::new(threads, TableMemory::DEFAULT, DoubleDummy::of_this_build())
                .solve_batch(&mut batch, &|| true);
            for (item, (_, want)) in batch.iter().zip(KNOWN) {
                assert!(item.error.is_none());
                assert_eq!(flat(&item.results.table().unwrap()), want);
            }
        }
    }

    #[test]
    fn a_batch_told_to_stop_leaves_the_rest_unsolved() {
        for threads in [1, 2] {
            let mut batch = known_tables();
            // Told to stop after two solves have started.
            let asked = AtomicUsize::new(0);
            let go_on = || asked.fetch_add(1, Ordering::Relaxed) < 3;
            SolverPool::new(threads, TableMemory::DEFAULT, DoubleDummy::of_this_build())
                .solve_batch(&mut batch, &go_on);
            let solved: Vec<bool> = batch.iter().map(BatchItem::solved).collect();
            assert!(batch.iter().all(|item| item.error.is_none()));
            assert_eq!(solved.iter().filter(|&&s| s).count(), 2, "{threads} threads: {solved:?}");
            for (item, (_, want)) in batch.iter().zip(KNOWN) {
                if let Some(table) = item.results.table() {
                    assert_eq!(flat(&table), want);
                }
            }
        }
    }

    #[cfg(feature = "dds")]
    #[test]
    fn a_dds_solving_jobs_at_once_gives_the_results_of_single_solves() {
        let jobs = std::sync::Arc::new(crate::dd::test_deals::CountingDds { jobs_at_once: 3, ..Default::default() });
        let mut pool = SolverPool::new(3, TableMemory::DEFAULT, DoubleDummy::provided(jobs.clone()));
        let mut batch: Vec<BatchItem> = KNOWN
            .iter()
            .enumerate()
            .map(|(i, (text, _))| BatchItem {
                deal: deal(text),
                // Whole tables and single results (from the second deal on: North in notrump).
                questions: Questions::exact(if i == 0 {
                    Need::TABLE
                } else {
                    Need::cell(crate::cards::Seat::North, crate::cards::Strain::Notrump)
                }),
                results: DealResults::default(),
                error: None,
            })
            .collect();
        pool.solve_batch(&mut batch, &|| true);
        assert_eq!(jobs.job_calls.load(std::sync::atomic::Ordering::Relaxed), 1, "one call for the batch");
        assert_eq!(jobs.solves.load(std::sync::atomic::Ordering::Relaxed), 0, "no solve outside it");
        assert_eq!(flat(&batch[0].results.table().unwrap()), KNOWN[0].1);
        for (item, (_, want)) in batch.iter().zip(KNOWN).skip(1) {
            assert!(item.error.is_none());
            assert_eq!(item.results.tricks(crate::cards::Seat::North, crate::cards::Strain::Notrump), Some(want[4]));
        }
    }
}
