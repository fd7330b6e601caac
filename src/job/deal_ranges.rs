//! The job stage's side of a job cut into parts (see [`crate::scale_out`]): dealing one range
//! of a job's deal numbers and handing over the deals it accepts with what their actions will
//! read ([`Session::deal_range`]), and running a job's actions on such deals, recorded
//! elsewhere, as the one run of the job would have ([`Session::run_recorded`]).

use crate::cards::{Deal, SeatSet};
use crate::clock::Instant;
use crate::dd::DealResults;
use crate::dealing::GeneratorKind;
use crate::error::{Error, ErrorKind, Result};
use crate::job::dealing_loop::{GivenDeal, GivenDeals};
use crate::job::report::{Ceiling, RunReport};
use crate::job::session::Session;

/// What [`Session::deal_range`] dealt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DealtRange {
    /// The first deal number not dealt: the range's end, or one past the deal that reached
    /// the produce limit (or where a ceiling stopped it).
    pub next: u64,
    /// The deals accepted.
    pub accepted: u64,
    /// The ceiling that stopped the range early, if one did.
    pub ceiling: Option<Ceiling>,
}

/// What [`Session::deal_range`] hands each accepted deal to: its number, the deal, the values
/// of the expressions asked for on it, and its double-dummy results.
pub type AcceptedDeal<'a> = dyn FnMut(u64, &Deal, &[i32], &DealResults) -> Result<()> + 'a;

/// One accepted deal of a part of a job, as the part recorded it.
#[derive(Clone, Debug)]
pub struct RecordedDeal {
    /// Its deal number in the job.
    pub number: u64,
    /// The deal.
    pub deal: Deal,
    /// The double-dummy results solved for it.
    pub dd: DealResults,
}

/// The error for a job that cannot be cut by deal numbers (see [`crate::scale_out`]).
pub fn not_in_parts(why: &str) -> Error {
    Error::new(ErrorKind::Usage, format!("this job cannot be dealt in parts: {why}"))
}

impl Session {
    /// Deals deal numbers `first..first + count` of the loaded script's job, as a run of the
    /// job deals them, and hands each deal the condition accepts to `accepted` with its
    /// number, the values of the compiled expressions `ids` (see
    /// [`compile_expression`](Self::compile_expression)) on it, as [`next_deals`](Self::next_deals)
    /// gives them, and the double-dummy results the job's actions read, solved now. Stops once
    /// the job's produce limit's worth is accepted (no part of a job needs more). The actions do
    /// not run. The native generator only (deal `i` depends on the seed and `i` alone), no
    /// library file, no external metric (`usereval`, `opc`).
    pub fn deal_range(
        &mut self,
        (first, count): (u64, u64),
        ids: &[u32],
        accepted: &mut AcceptedDeal<'_>,
    ) -> Result<DealtRange> {
        let options = self.options();
        if options.generator != GeneratorKind::ChaCha {
            return Err(not_in_parts(
                "the compatibility generators (drand48, glibc) deal in sequence; parts need chacha",
            ));
        }
        if options.library_file.is_some() {
            return Err(not_in_parts("library mode reads its file in sequence"));
        }
        let program = self.loaded_program().ok_or_else(|| Error::new(ErrorKind::Usage, "no script loaded"))?;
        if program.uses_external_metrics() {
            return Err(not_in_parts("external metrics (usereval, opc) are not available in parts"));
        }
        let nodes = ids.iter().map(|id| self.compiled_node(*id)).collect::<Result<Vec<_>>>()?;
        let mut values = vec![0i32; nodes.len()];
        let started = Instant::now();
        let end = first.saturating_add(count).min(i64::MAX as u64);
        // Worker threads, when the job has them, judge the part's deals.
        let mut job = self.start_job_over(SeatSet::ALL, None, Some(first..end))?;
        job.hard_deadline = self.options().ceilings().time.and_then(|t| started.checked_add(t));
        job.dealer.seek(first);
        job.generated = i64::try_from(first).unwrap_or(i64::MAX);
        job.max_generate = end as i64;
        let need = job.action_need;
        let program = self.loaded_program().expect("checked above");
        while let Some(deal) = job.next_accepted(program, None)? {
            let number = (job.generated - 1) as u64;
            for (value, node) in values.iter_mut().zip(&nodes) {
                *value = job.evaluation(program, &deal).value(*node)?;
            }
            job.dd.solve(&deal, need)?;
            match job.dd.results(&deal) {
                Some(results) => accepted(number, &deal, &values, results)?,
                None => accepted(number, &deal, &values, &DealResults::default())?,
            }
        }
        Ok(DealtRange { next: job.generated as u64, accepted: job.produced as u64, ceiling: job.ceiling })
    }

    /// Runs the loaded script's actions on deals its job's parts accepted (see
    /// [`deal_range`](Self::deal_range)), given in deal order, as the one run of the job would
    /// have run them: boards numbered from the first deal, the produce limit honoured (deals
    /// past it are not read), each deal's `rnd()` stream and double-dummy results those of
    /// its deal number, the generated count one past the deal that reached the produce limit
    /// (`generate` when the deals end first), and `seconds_before` (the parts' seconds) counted
    /// into the report's time.
    pub fn run_recorded(
        &mut self,
        deals: Box<dyn Iterator<Item = Result<RecordedDeal>> + Send>,
        generate: i64,
        seconds_before: f64,
    ) -> Result<RunReport> {
        let started = Instant::now();
        // (Nothing is dealt here: no deal numbers for worker threads.)
        let mut job = self.start_job_over(SeatSet::ALL, None, Some(0..0))?;
        job.parallel = None;
        job.lookahead = None;
        let given = deals.map(|recorded| {
            recorded.map(|r| GivenDeal { deal: r.deal, label: None, number: Some(r.number), dd: Some(r.dd) })
        });
        job.given = Some(GivenDeals::new(Box::new(given), Vec::new(), Some(generate)));
        job.seconds_before = seconds_before;
        self.run_started_job(job, started)
    }
}
