//! Dealing ahead for double dummy: deals are dealt and judged without solving anything
//! (`probe`), the ones that need double-dummy results are solved together across threads, and
//! the dealing loop then takes them in order (`Lookahead::next`). Only chooses what to solve
//! early: which deals are produced, and in which order, stays the dealing loop's decision
//! (src/job/dealing_loop.rs, which reads this file), and nothing here writes output.
//!
//! Batches start at one deal per solving thread and double up to their largest size, so a run
//! that produces a few deals solves few in vain, and a batch stops being solved as soon as the
//! run is interrupted or passes its time ceiling (the loop then reports it).
//!
//! Reads the program stage (evaluation), the dealer, the double-dummy solver, the external
//! metrics and the interrupter, which the dealing loop lends it for each call (`JobInHand`);
//! never the job's state.

use crate::cards::Deal;
use crate::clock::Instant;
use crate::dd::{BatchItem, DdCache, DealResults, Need, Questions};
use crate::dealing::Dealer;
use crate::external::usereval::ExternalMetrics;
use crate::interrupter::Interrupter;
use crate::job::clause_order::ClauseOrder;
use crate::program::eval::Evaluation;
use crate::program::Program;

/// Deals needing double-dummy results per thread in the largest batch, when the condition
/// needs them.
pub(crate) const DEALS_PER_THREAD_IN_A_BATCH: usize = 16;

/// The same when only actions need them (every deal in the batch is certain to be produced):
/// larger batches leave threads idle less often at the end of a batch.
pub(crate) const CERTAIN_DEALS_PER_THREAD_IN_A_BATCH: usize = 64;

/// What dealing ahead uses of the job: its dealer, double-dummy cache, external metrics,
/// counters and what stops it (the dealing loop lends them for one call).
pub(crate) struct JobInHand<'a> {
    pub(crate) dealer: &'a mut Dealer,
    pub(crate) dd: &'a mut DdCache,
    pub(crate) external: &'a mut ExternalMetrics,
    pub(crate) generated: i64,
    pub(crate) produced: i64,
    pub(crate) max_generate: i64,
    pub(crate) max_produce: i64,
    /// The run's interruption flag: solving stops when it is raised (and the loop reports it).
    pub(crate) interrupter: &'a Interrupter,
    /// The wall-time ceiling: solving stops when it passes (and the loop reports it).
    pub(crate) hard_deadline: Option<Instant>,
    /// The order the condition's clauses are judged in, when it is not the written one.
    pub(crate) clause_order: Option<&'a ClauseOrder>,
}

impl Lookahead {
    /// The next deal dealt ahead; deals a new batch when none is left.
    pub(crate) fn next(&mut self, program: &Program, job: JobInHand) -> Ahead {
        if self.queue.is_empty() {
            self.deal_ahead(program, job);
        }
        self.queue.pop_front().unwrap_or_else(|| Ahead::unknown(None))
    }

    /// Deals ahead until a batch of deals needs double-dummy results (or a limit is reached),
    /// judging each deal with the condition without solving anything, then solves the batch
    /// across threads. Which deals are produced, and in which order, is decided later by the
    /// dealing loop exactly as without a lookahead.
    fn deal_ahead(&mut self, program: &Program, job: JobInHand) {
        let JobInHand {
            dealer,
            dd,
            external,
            generated,
            produced,
            max_generate,
            max_produce,
            interrupter,
            hard_deadline,
            clause_order,
        } = job;
        let go_on = || !interrupter.is_pending() && hard_deadline.is_none_or(|d| Instant::now() < d);
        let mut items: Vec<(usize, BatchItem)> = Vec::new();
        let mut accepted = 0;
        let room = (max_generate - generated).clamp(0, MAX_DEALT_AHEAD as i64) as usize;
        while self.queue.len() < room && items.len() < self.batch && produced + accepted < max_produce {
            let Some(deal) = dealer.deal() else {
                self.queue.push_back(Ahead::unknown(None));
                continue;
            };
            let mut ev = Evaluation {
                program,
                deal: &deal,
                dealer: &mut *dealer,
                produced: produced + accepted,
                dd: &mut *dd,
                // External metrics never run on deals dealt ahead (see `start_job`).
                generated: generated + 1 + self.queue.len() as i64,
                external: &mut *external,
            };
            let (verdict, missed) = probe(&mut ev, clause_order);
            let dealer_after = (matches!(verdict, Verdict::Pending | Verdict::Unknown) && dealer.sorts_on_produce())
                .then(|| Box::new(dealer.clone()));
            let questions = match verdict {
                Verdict::Accepted => {
                    dealer.produced();
                    accepted += 1;
                    Questions::exact(dd.effective(self.action_need))
                }
                // What the condition asked first of the solver; the actions' results only once
                // the condition holds (below): most deals waiting for the solver are rejected.
                Verdict::Pending => missed,
                _ => Questions::default(),
            };
            if !questions.is_empty() {
                let item = BatchItem { deal, questions, results: DealResults::default(), error: None };
                items.push((self.queue.len(), item));
            }
            self.queue.push_back(Ahead { deal: Some(deal), verdict, dealer_after, results: None });
            if verdict == Verdict::Unknown {
                // An evaluation error: it is met again, in order, by the loop.
                break;
            }
        }
        self.batch = (self.batch * 2).min(self.largest_batch);
        // Rounds: after each batch, the deals still waiting are judged again with what is now
        // known, and what their condition asks next (or, once it holds, the actions' results)
        // goes into the next batch, until every deal is judged. So the solver answers just the
        // questions the script asks, in the order it asks them. (The loop judges these deals
        // again, in order; this only chooses what to solve ahead.)
        let action_need = dd.effective(self.action_need);
        let mut round = items;
        while !round.is_empty() {
            let (positions, mut batch): (Vec<usize>, Vec<BatchItem>) = round.into_iter().unzip();
            dd.pool().solve_batch(&mut batch, &go_on);
            let mut next = Vec::new();
            for (&position, item) in positions.iter().zip(&batch) {
                if self.queue[position].verdict != Verdict::Pending || !item.solved() {
                    continue;
                }
                dd.insert_ahead(&item.deal, item.results.clone());
                let mut ev = Evaluation {
                    program,
                    deal: &item.deal,
                    dealer: &mut *dealer,
                    produced,
                    dd: &mut *dd,
                    generated: generated + 1 + position as i64,
                    external: &mut *external,
                };
                let questions = match probe(&mut ev, clause_order) {
                    (Verdict::Pending, missed) => missed,
                    (Verdict::Accepted, _) => Questions::exact(action_need),
                    _ => continue,
                };
                if !item.results.unanswered(&questions).is_empty() {
                    next.push((position, BatchItem { questions, ..item.clone() }));
                }
            }
            keep_results(&mut self.queue, positions, batch);
            round = next;
        }
    }
}

/// Gives each solved item's results to the deal dealt ahead at its position in the queue. A
/// failed solve, or one a stopped batch left out, is made (and a failure reported) when the
/// loop needs the result.
fn keep_results(queue: &mut std::collections::VecDeque<Ahead>, positions: Vec<usize>, batch: Vec<BatchItem>) {
    for (position, item) in positions.into_iter().zip(batch) {
        if item.solved() {
            queue[position].results = Some(item.results);
        }
    }
}

/// Judges a deal dealt ahead with the condition (its clauses in `clause_order` when given)
/// without solving anything: `Pending` when the condition needs double-dummy results not yet
/// known, with the first question it could not have answered.
fn probe(ev: &mut Evaluation, clause_order: Option<&ClauseOrder>) -> (Verdict, Questions) {
    let Some(c) = ev.program.condition else { return (Verdict::Accepted, Questions::default()) };
    ev.dd.begin_probe();
    let outcome = match clause_order {
        Some(order) => order.truth(ev),
        None => ev.truth(c),
    };
    let missed = ev.dd.end_probe();
    let verdict = match outcome {
        _ if !missed.is_empty() => Verdict::Pending,
        Ok(true) => Verdict::Accepted,
        Ok(false) => Verdict::Rejected,
        Err(_) => Verdict::Unknown,
    };
    (verdict, missed)
}

/// How a deal dealt ahead fared with the condition, judged without solving anything.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// Accepted (the dealer has already been told).
    Accepted,
    /// Rejected.
    Rejected,
    /// The condition needs double-dummy results: judged again once they are solved.
    Pending,
    /// Not judged (no lookahead, or the evaluation failed and must fail again in order).
    Unknown,
}

/// A deal dealt ahead of the loop.
pub(crate) struct Ahead {
    /// The deal (`None`: the generator rejected the attempt).
    pub(crate) deal: Option<Deal>,
    pub(crate) verdict: Verdict,
    /// The dealer right after this deal, when producing this deal would change the deals after it.
    pub(crate) dealer_after: Option<Box<Dealer>>,
    /// Double-dummy results solved in the batch.
    pub(crate) results: Option<DealResults>,
}

impl Ahead {
    /// A deal (or a rejected attempt) not judged yet.
    pub(crate) fn unknown(deal: Option<Deal>) -> Ahead {
        Ahead { deal, verdict: Verdict::Unknown, dealer_after: None, results: None }
    }
}

/// Deals dealt ahead so that their double-dummy results are solved together across threads.
pub(crate) struct Lookahead {
    pub(crate) queue: std::collections::VecDeque<Ahead>,
    /// Deals needing double-dummy results in the next batch: one per solving thread at first,
    /// doubled after each batch up to `largest_batch`.
    pub(crate) batch: usize,
    /// The most deals needing double-dummy results in one batch.
    pub(crate) largest_batch: usize,
    /// What the condition may read.
    pub(crate) condition_need: Need,
    /// What the actions may read on a produced deal.
    pub(crate) action_need: Need,
}

/// The most deals dealt ahead at once (bounds the memory of a lookahead).
const MAX_DEALT_AHEAD: usize = 1 << 16;
