//! Dealing ahead for double dummy: deals are dealt and judged without solving anything
//! (`probe`), the ones that need double-dummy results are solved together across threads, and
//! the dealing loop then takes them in order (`Job::next_ahead`). Only chooses what to solve
//! early: which deals are produced, and in which order, stays the dealing loop's decision
//! (src/job/dealing_loop.rs), and nothing here writes output.

use crate::cards::Deal;
use crate::dd::{BatchItem, DealResults, Need};
use crate::dealing::Dealer;
use crate::job::dealing_loop::Job;
use crate::program::eval::Evaluation;
use crate::program::Program;

/// Deals needing double-dummy results per thread in one batch, when the condition needs them.
pub(crate) const DEALS_PER_THREAD_IN_A_BATCH: usize = 16;

/// The same when only actions need them (every deal in the batch is certain to be produced):
/// larger batches leave threads idle less often at the end of a batch.
pub(crate) const CERTAIN_DEALS_PER_THREAD_IN_A_BATCH: usize = 64;

impl Job {
    /// The next deal dealt ahead; deals a new batch when none is left.
    pub(crate) fn next_ahead(&mut self, program: &Program) -> Ahead {
        if self.lookahead.as_ref().is_some_and(|l| l.queue.is_empty()) {
            self.deal_ahead(program);
        }
        let lookahead = self.lookahead.as_mut().expect("called with a lookahead");
        lookahead.queue.pop_front().unwrap_or_else(|| Ahead::unknown(None))
    }

    /// Deals ahead until a batch of deals needs double-dummy results (or a limit is reached),
    /// judging each deal with the condition without solving anything, then solves the batch
    /// across threads. Which deals are produced, and in which order, is decided later by
    /// [`next_accepted`](Self::next_accepted) exactly as without a lookahead.
    fn deal_ahead(&mut self, program: &Program) {
        let Some(lookahead) = self.lookahead.as_mut() else { return };
        let mut items: Vec<(usize, BatchItem)> = Vec::new();
        let mut accepted = 0;
        let room = (self.max_generate - self.generated).clamp(0, MAX_DEALT_AHEAD as i64) as usize;
        while lookahead.queue.len() < room
            && items.len() < lookahead.batch
            && self.produced + accepted < self.max_produce
        {
            let Some(deal) = self.dealer.deal() else {
                lookahead.queue.push_back(Ahead::unknown(None));
                continue;
            };
            let mut ev = Evaluation {
                program,
                deal: &deal,
                dealer: &mut self.dealer,
                produced: self.produced + accepted,
                dd: &mut self.dd,
                // External metrics never run on deals dealt ahead (see `start_job`).
                generated: self.generated + 1 + lookahead.queue.len() as i64,
                external: &mut self.external,
            };
            let verdict = probe(&mut ev);
            let dealer_after = (matches!(verdict, Verdict::Pending | Verdict::Unknown)
                && self.dealer.sorts_on_produce())
            .then(|| Box::new(self.dealer.clone()));
            let need = match verdict {
                Verdict::Accepted => {
                    self.dealer.produced();
                    accepted += 1;
                    lookahead.action_need
                }
                // The actions' results only once the condition holds (below): most deals
                // waiting for the solver are rejected.
                Verdict::Pending => lookahead.condition_need,
                _ => Need::NONE,
            };
            let need = self.dd.effective(need);
            if !need.is_empty() {
                let item = BatchItem { deal, need, results: DealResults::default(), error: None };
                items.push((lookahead.queue.len(), item));
            }
            lookahead.queue.push_back(Ahead { deal: Some(deal), verdict, dealer_after, results: None });
            if verdict == Verdict::Unknown {
                // An evaluation error: it is met again, in order, by the loop.
                break;
            }
        }
        let (positions, mut batch): (Vec<usize>, Vec<BatchItem>) = items.into_iter().unzip();
        self.dd.pool().solve_batch(&mut batch);
        // A second batch: the actions' results of the deals the condition accepts once its
        // results are known. (The loop judges these deals again, in order; this only chooses
        // what to solve ahead.)
        let action_need = self.dd.effective(lookahead.action_need);
        let mut second: Vec<(usize, BatchItem)> = Vec::new();
        for (&position, item) in positions.iter().zip(&batch) {
            let ahead = &lookahead.queue[position];
            if ahead.verdict != Verdict::Pending || item.error.is_some() || item.results.missing(action_need).is_empty()
            {
                continue;
            }
            self.dd.insert(&item.deal, item.results.clone());
            let mut ev = Evaluation {
                program,
                deal: &item.deal,
                dealer: &mut self.dealer,
                produced: self.produced,
                dd: &mut self.dd,
                generated: self.generated + 1 + position as i64,
                external: &mut self.external,
            };
            if probe(&mut ev) == Verdict::Accepted {
                second.push((position, BatchItem { need: action_need, ..item.clone() }));
            }
        }
        keep_results(&mut lookahead.queue, positions, batch);
        let (positions, mut batch): (Vec<usize>, Vec<BatchItem>) = second.into_iter().unzip();
        self.dd.pool().solve_batch(&mut batch);
        keep_results(&mut lookahead.queue, positions, batch);
    }
}

/// Gives each solved item's results to the deal dealt ahead at its position in the queue. A
/// failed solve is repeated, and reported, when the loop needs the result.
fn keep_results(queue: &mut std::collections::VecDeque<Ahead>, positions: Vec<usize>, batch: Vec<BatchItem>) {
    for (position, item) in positions.into_iter().zip(batch) {
        if item.error.is_none() {
            queue[position].results = Some(item.results);
        }
    }
}

/// Judges a deal dealt ahead with the condition without solving anything: `Pending` when the
/// condition needs double-dummy results not yet known.
fn probe(ev: &mut Evaluation) -> Verdict {
    let Some(c) = ev.program.condition else { return Verdict::Accepted };
    ev.dd.begin_probe();
    let outcome = ev.truth(c);
    match (ev.dd.end_probe(), outcome) {
        (true, _) => Verdict::Pending,
        (false, Ok(true)) => Verdict::Accepted,
        (false, Ok(false)) => Verdict::Rejected,
        (false, Err(_)) => Verdict::Unknown,
    }
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
    /// Deals needing double-dummy results per batch.
    pub(crate) batch: usize,
    /// What the condition may read.
    pub(crate) condition_need: Need,
    /// What the actions may read on a produced deal.
    pub(crate) action_need: Need,
}

/// The most deals dealt ahead at once (bounds the memory of a lookahead).
const MAX_DEALT_AHEAD: usize = 1 << 16;
