//! The job stage's side of a job cut into parts (see [`crate::scale_out`]): dealing one range
//! of a job's deal numbers and handing over the deals it accepts with what their actions will
//! read ([`Session::deal_range`]), and running a job's actions on such deals, recorded
//! elsewhere, as the one run of the job would have ([`Session::run_recorded`]).

use crate::cards::{Deal, SeatSet};
use crate::clock::Instant;
use crate::dd::DealResults;
use crate::dealing::GeneratorKind;
use crate::error::{Error, ErrorKind, Result};
use crate::job::dealing_loop::{Given, GivenDeal, GivenDeals, Job, Produced};
use crate::job::parallel::Summary;
use crate::job::report::{Ceiling, RunReport, Statistics};
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

/// What a part of a job recorded, in deal order: an accepted deal, or — for a job whose
/// actions are all statistics (see [`Session::statistics_suffice`]) — the running state of
/// its statistics over the deals it accepted.
#[derive(Clone, Debug)]
// Deals are the common case: boxing them would allocate once a deal.
#[allow(clippy::large_enum_variant)]
pub enum Recorded {
    /// An accepted deal.
    Deal(RecordedDeal),
    /// The running state of each action's statistic (see [`Session::deal_range_statistics`])
    /// over `accepted` deals, dealt up to deal number `next`.
    Statistics {
        /// Each action's running state, as integers.
        counts: Vec<Vec<i64>>,
        /// The deals accepted.
        accepted: u64,
        /// The first deal number not dealt.
        next: u64,
    },
}

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
        self.check_cuttable()?;
        let nodes = ids.iter().map(|id| self.compiled_node(*id)).collect::<Result<Vec<_>>>()?;
        let mut values = vec![0i32; nodes.len()];
        let mut job = self.start_range_job(SeatSet::ALL, None, (first, count))?;
        let need = job.action_need;
        let none_solved = DealResults::default();
        let program = self.loaded_program().expect("checked above");
        while let Some(deal) = job.next_accepted(program, None)? {
            let number = (job.generated - 1) as u64;
            for (value, node) in values.iter_mut().zip(&nodes) {
                *value = job.evaluation(program, &deal).value(*node)?;
            }
            job.dd.solve(&deal, need)?;
            accepted(number, &deal, &values, job.dd.results(&deal).unwrap_or(&none_solved))?;
        }
        Ok(DealtRange { next: job.generated as u64, accepted: job.produced as u64, ceiling: job.ceiling })
    }

    /// Whether a part of the loaded script's job may record the running state of its
    /// statistics instead of its deals: every action is `average`, `frequency` or `bktfreq` of
    /// a value of the deal alone (the statistics dealing threads add up by chunk), no deal
    /// record file is written, the produce limit cannot fall inside the job (it is at least
    /// the generate count: no deal's place among the accepted ones matters), and no precision
    /// rule may stop it at a deal.
    pub fn statistics_suffice(&self) -> Result<bool> {
        let program = self.loaded_program().ok_or_else(|| Error::new(ErrorKind::Usage, "no script loaded"))?;
        let options = self.options();
        let records = options.zrd_output.is_some() || options.dl52_output.is_some();
        let (generate, produce) = self.run_limits()?;
        // The precision rule looks at the statistics deal by deal, in the merge: parts keep
        // their deals.
        let precision = options.precision.is_some();
        Ok(!records && produce >= generate && !precision && Statistics::for_run(program).is_some())
    }

    /// Deals deal numbers `first..first + count` of the loaded script's job as
    /// [`deal_range`](Self::deal_range) does, for a job whose statistics suffice (see
    /// [`statistics_suffice`](Self::statistics_suffice)), adding the accepted deals up into each
    /// action's statistic (worker threads by chunk); what it dealt, and each action's running
    /// state as integers.
    pub fn deal_range_statistics(&mut self, (first, count): (u64, u64)) -> Result<(DealtRange, Vec<Vec<i64>>)> {
        if !self.statistics_suffice()? {
            return Err(Error::new(ErrorKind::Usage, "this job's actions are not statistics of the deal alone"));
        }
        self.check_cuttable()?;
        let program = self.loaded_program().expect("checked above");
        let mut statistics = Statistics::for_run(program).expect("checked above");
        let mut job = self.start_range_job(program.action_seats(), Some(statistics.empty()), (first, count))?;
        let program = self.loaded_program().expect("checked above");
        while let Some(produced) = job.next_produced(program, None)? {
            match produced {
                Produced::Deal(deal) => statistics.add(program, &deal),
                Produced::Summary(summary) => {
                    for (tally, more) in statistics.tallies.iter_mut().zip(&summary.tallies) {
                        tally.merge(more);
                    }
                }
            }
        }
        let counts = statistics.tallies.iter().map(|t| t.counts().unwrap_or_default()).collect();
        let dealt = DealtRange { next: job.generated as u64, accepted: job.produced as u64, ceiling: job.ceiling };
        Ok((dealt, counts))
    }

    /// The loaded script's job over deal numbers `first..first + count` (worker threads, when
    /// it has them, judge those), its wall-time ceiling counted from now.
    fn start_range_job(
        &self,
        seats: SeatSet,
        statistics: Option<Statistics>,
        (first, count): (u64, u64),
    ) -> Result<Job> {
        let started = Instant::now();
        let end = first.saturating_add(count).min(i64::MAX as u64);
        let mut job = self.start_job_over(seats, statistics, Some(first..end))?;
        job.hard_deadline = self.options().ceilings().time.and_then(|t| started.checked_add(t));
        job.dealer.seek(first);
        job.generated = i64::try_from(first).unwrap_or(i64::MAX);
        job.max_generate = end as i64;
        Ok(job)
    }

    /// Refuses a job that cannot be cut by deal numbers: a compatibility generator, a library
    /// file, an external metric.
    fn check_cuttable(&self) -> Result<()> {
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
        Ok(())
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
        deals: Box<dyn Iterator<Item = Result<Recorded>> + Send>,
        generate: i64,
        seconds_before: f64,
    ) -> Result<RunReport> {
        let started = Instant::now();
        // (Nothing is dealt here: no deal numbers for worker threads.)
        let mut job = self.start_job_over(SeatSet::ALL, None, Some(0..0))?;
        job.parallel = None;
        job.lookahead = None;
        let empty = self.loaded_program().and_then(Statistics::for_run);
        let given = deals.map(move |recorded| match recorded? {
            Recorded::Deal(r) => {
                Ok(Given::Deal(GivenDeal { deal: r.deal, label: None, number: Some(r.number), dd: Some(r.dd) }))
            }
            Recorded::Statistics { counts, accepted, next } => {
                let bad = || Error::new(ErrorKind::Io, "a part's statistics are not those of this job's actions");
                let mut statistics = empty.as_ref().ok_or_else(bad)?.empty();
                let fits = counts.len() == statistics.tallies.len()
                    && statistics.tallies.iter_mut().zip(&counts).all(|(tally, c)| tally.add_counts(c));
                if !fits {
                    return Err(bad());
                }
                Ok(Given::Statistics { statistics: Box::new(statistics), accepted, next })
            }
        });
        job.given = Some(GivenDeals::new(Box::new(given), Vec::new(), Some(generate)));
        job.seconds_before = seconds_before;
        // The parts' solves are not carried in their files: no count rather than a wrong one.
        job.counts_dd = false;
        self.run_started_job(job, started)
    }
}
