//! The dealing loop (this is the `job.rs` of the job stage, named for what it holds): the state
//! of one job (`Job`), how it gets its next produced deal (on this thread, from the deals dealt
//! ahead, from a library file or from worker threads), and the run loop (`run_job`,
//! `deal_loop`) that hands each produced deal to the actions and ends with the report. Reads
//! top to bottom in the order of a run. What a deal is worth is the program's business, how it
//! is dealt the dealing stage's and what is printed the actions'; this file only orders events.

use crate::clock::Instant;

use crate::actions::boards::BoardLabel;
use crate::actions::context::{ActionSettings, DealValues};
use crate::actions::state::ActionState;
use crate::actions::{self, ProgressMeter, RunSummary, SmartCount};
use crate::cards::{Deal, Seat, SeatSet, Strain};
use crate::dd::zrd::{LibraryReader, OutputSpec};
use crate::dd::{DdCache, DdTable, DealResults, Need};
use crate::dealing::{Dealer, GeneratorKind};
use crate::dialect::Dialect;
use crate::error::{Error, ErrorKind, Result};
use crate::external::usereval::ExternalMetrics;
use crate::interrupter::Interrupter;
use crate::job::clause_order::ClauseOrder;
use crate::job::lookahead::{Ahead, JobInHand, Lookahead, Verdict};
use crate::job::options::{Options, OutputFormat};
use crate::job::parallel::{Event, ParallelDealing};
use crate::job::record_input::RecordInput;
use crate::job::report::{Ceiling, RunReport, Statistics};
use crate::job::sinks::{open_file, Outputs, Sink, FLUSH_AT, STREAM_COUNT};
use crate::program::deal_expr::StagedCondition;
use crate::program::eval::Evaluation;
use crate::program::{NodeId, Program};

/// The dealing loop's state: dealer, double-dummy cache and counters.
pub(crate) struct Job {
    /// The session's interruption flag, looked at every produced deal and every generated one
    /// (every 4096th when a deal expression judges them).
    pub(crate) interrupter: Interrupter,
    pub(crate) dealer: Dealer,
    pub(crate) dd: DdCache,
    /// Deals dealt ahead, when double-dummy results are solved in batches across threads.
    pub(crate) lookahead: Option<Lookahead>,
    /// Library mode: the file deals come from instead of the dealer.
    pub(crate) library: Option<LibraryReader>,
    /// Records read from a file in place of dealt deals (`input`).
    pub(crate) input: Option<RecordInput>,
    /// Setup features library mode discards, for DealerV2's `ERR**` notices.
    pub(crate) library_discards: Vec<&'static str>,
    /// The feature that switched DealerV2's DDS mode 1 to table mode, for the notice.
    pub(crate) table_mode_notice: Option<&'static str>,
    /// `usereval` and `opc`, set up when the job starts.
    pub(crate) external: ExternalMetrics,
    /// The seats the condition reads: the only ones dealt before it is judged.
    pub(crate) condition_seats: SeatSet,
    /// The seats whoever takes the produced deals reads (all four for `next_deal`; a run's
    /// actions may read fewer): an accepted deal is completed only that far.
    pub(crate) produced_seats: SeatSet,
    /// Worker threads dealing and judging the deals, when the run allows it.
    pub(crate) parallel: Option<ParallelDealing<Statistics>>,
    /// The condition compiled as a deal expression judged seat by seat, when it is one.
    pub(crate) fast_condition: Option<StagedCondition>,
    pub(crate) generated: i64,
    pub(crate) produced: i64,
    pub(crate) max_generate: i64,
    pub(crate) max_produce: i64,
    /// The seed the job deals with (its block offset in library mode).
    pub(crate) seed: i64,
    pub(crate) seed_printed: u64,
    pub(crate) timed_out: bool,
    /// The wall-time ceiling: past it the job stops at the next deal (see [`Ceiling::Time`]).
    pub(crate) hard_deadline: Option<Instant>,
    /// Whether the generate ceiling lowered `max_generate`.
    pub(crate) generate_capped: bool,
    /// The ceiling that stopped the job, once one has.
    pub(crate) ceiling: Option<Ceiling>,
    /// The seat factors smart dealing counted, for the end-of-run report.
    pub(crate) smart_counts: Vec<SmartCount>,
    /// Whether the end-of-run report counts double dummy's solves (the job can ask it).
    /// The run's JSON summary object (what `json_summary` prints), set when the run ends.
    pub(crate) summary_json: Vec<u8>,
    pub(crate) counts_dd: bool,
    /// The order the condition's clauses are judged in when it is not the written one (see
    /// [`ClauseOrder`]).
    pub(crate) clause_order: Option<ClauseOrder>,
    /// Whether the text statistics end with the double-dummy counts too (`-D2` or more, the
    /// level at which DealerV2 adds its call counters).
    pub(crate) dd_counts_line: bool,
    /// Deals given to the job (a practice run's, or the parts' of a merged job), taken in
    /// place of dealing.
    pub(crate) given: Option<GivenDeals>,
    /// The double-dummy results the actions read (solved ahead for every produced deal).
    pub(crate) action_need: Need,
    /// Seconds spent on the job before this run (a merged job's parts), counted into the
    /// report's.
    pub(crate) seconds_before: f64,
}

/// One deal given to a job: the deal, its label (hand type or scenario) for the board
/// records, and for a deal a part of the job accepted its number and the double-dummy results
/// solved for it.
pub(crate) struct GivenDeal {
    pub(crate) deal: Deal,
    pub(crate) label: Option<BoardLabel>,
    pub(crate) number: Option<u64>,
    pub(crate) dd: Option<DealResults>,
}

/// What is given to a job to run the actions on: a deal, or the statistics of deals counted
/// elsewhere (a part of a merged job whose actions are all statistics).
// Deals are the common case: boxing them would allocate once a deal.
#[allow(clippy::large_enum_variant)]
pub(crate) enum Given {
    /// A deal.
    Deal(GivenDeal),
    /// The statistics of `accepted` deals, dealt up to deal number `next`.
    Statistics { statistics: Box<Statistics>, accepted: u64, next: u64 },
}

/// The deals given to a job to run the actions on, in order, read one at a time.
pub(crate) struct GivenDeals {
    /// The deals still to come.
    deals: Box<dyn Iterator<Item = Result<Given>> + Send>,
    /// The label of the deal taken last.
    pub(crate) label: Option<BoardLabel>,
    /// The boards taken so far of each declared hand type.
    pub(crate) hand_type_counts: Vec<(std::sync::Arc<str>, i64)>,
    /// The generated count when the deals end before the produce limit (a merged job's:
    /// every deal number was dealt); `None`: the count stays as it is.
    generated_at_end: Option<i64>,
}

impl GivenDeals {
    /// The deals to give and the declared hand types to count.
    pub(crate) fn new(
        deals: Box<dyn Iterator<Item = Result<Given>> + Send>,
        hand_types: Vec<std::sync::Arc<str>>,
        generated_at_end: Option<i64>,
    ) -> GivenDeals {
        let hand_type_counts = hand_types.into_iter().map(|t| (t, 0)).collect();
        GivenDeals { deals, label: None, hand_type_counts, generated_at_end }
    }

    /// The next deal or statistics.
    fn take(&mut self) -> Result<Option<Given>> {
        let Some(given) = self.deals.next().transpose()? else { return Ok(None) };
        let Given::Deal(given) = given else { return Ok(Some(given)) };
        self.label = given.label.clone();
        let hand_type = self.label.as_ref().and_then(|l| l.hand_type.as_ref());
        if let Some((_, n)) = self.hand_type_counts.iter_mut().find(|(t, _)| Some(t) == hand_type) {
            *n += 1;
        }
        Ok(Some(Given::Deal(given)))
    }
}

/// What the dealing loop gets next.
pub(crate) enum Produced {
    /// A produced deal.
    Deal(Deal),
    /// The statistics of several produced deals, added up by the dealing threads (boxed: a
    /// produced deal, the common case, then moves as a small value).
    Summary(Box<Statistics>),
}

impl Job {
    /// Whether the wall-time ceiling has passed; records it as the reason the job stops.
    fn past_hard_deadline(&mut self) -> bool {
        let past = self.hard_deadline.is_some_and(|d| Instant::now() >= d);
        if past {
            self.ceiling = Some(Ceiling::Time);
        }
        past
    }

    /// [`next_accepted`](Self::next_accepted), or the statistics of several produced deals
    /// when the dealing threads add them up (a job started with statistics to add up).
    pub(crate) fn next_produced(&mut self, program: &Program, deadline: Option<Instant>) -> Result<Option<Produced>> {
        if self.given.is_some() {
            return self.next_given();
        }
        if self.parallel.is_some() {
            return self.next_from_workers(deadline);
        }
        Ok(self.next_accepted(program, deadline)?.map(Produced::Deal))
    }

    /// Deals until a deal satisfies the condition and counts it as produced. `None` when the
    /// generate or produce limit is reached, or when `deadline` passed before anything was
    /// produced (then `timed_out` is set).
    pub(crate) fn next_accepted(&mut self, program: &Program, deadline: Option<Instant>) -> Result<Option<Deal>> {
        if self.given.is_some() {
            return match self.next_given()? {
                Some(Produced::Deal(deal)) => Ok(Some(deal)),
                Some(Produced::Summary(_)) => {
                    Err(Error::new(ErrorKind::Run, "internal error: statistics where deals were asked for"))
                }
                None => Ok(None),
            };
        }
        if self.parallel.is_some() {
            return match self.next_from_workers(deadline)? {
                Some(Produced::Deal(deal)) => Ok(Some(deal)),
                Some(Produced::Summary(_)) => {
                    Err(Error::new(ErrorKind::Run, "internal error: statistics where deals were asked for"))
                }
                None => Ok(None),
            };
        }
        if self.input.is_some() {
            return self.next_from_input(program, deadline);
        }
        if self.library.is_none() && self.lookahead.is_none() {
            return self.next_dealt(program, deadline);
        }
        while self.generated < self.max_generate && self.produced < self.max_produce {
            // Deals here may wait for double dummy: an interruption is looked at every deal.
            self.interrupter.check()?;
            if self.past_hard_deadline() {
                return Ok(None);
            }
            if self.generated % 4096 == 0 && deadline.is_some_and(|d| self.produced == 0 && Instant::now() >= d) {
                self.timed_out = true;
                return Ok(None);
            }
            let ahead = if let Some(library) = &mut self.library {
                let Some((deal, tricks)) = library.next_deal().map_err(|m| Error::new(ErrorKind::Run, m))? else {
                    return Ok(None);
                };
                let results = DealResults::from_table(&DdTable(tricks));
                Ahead { results: Some(results), ..Ahead::unknown(Some(deal)) }
            } else {
                let lookahead = self.lookahead.as_mut().expect("library or lookahead");
                let job = JobInHand {
                    dealer: &mut self.dealer,
                    dd: &mut self.dd,
                    external: &mut self.external,
                    generated: self.generated,
                    produced: self.produced,
                    max_generate: self.max_generate,
                    max_produce: self.max_produce,
                    interrupter: &self.interrupter,
                    hard_deadline: self.hard_deadline,
                    clause_order: self.clause_order.as_ref(),
                };
                lookahead.next(program, job)
            };
            self.generated += 1;
            let Some(deal) = ahead.deal else { continue };
            if let Some(results) = ahead.results {
                self.dd.insert(&deal, results);
            }
            let accepted = match (ahead.verdict, program.condition) {
                (Verdict::Accepted, _) | (_, None) => true,
                (Verdict::Rejected, _) => false,
                (Verdict::Pending | Verdict::Unknown, Some(c)) => self.judge(program, c, &deal)?,
            };
            if accepted {
                self.produced += 1;
                if ahead.verdict != Verdict::Accepted {
                    if let Some(after) = ahead.dealer_after {
                        // The deals dealt after this one assumed it would be rejected.
                        self.dealer = *after;
                        if let Some(lookahead) = &mut self.lookahead {
                            lookahead.queue.clear();
                        }
                    }
                    self.dealer.produced();
                }
                return Ok(Some(deal));
            }
        }
        Ok(None)
    }

    /// [`next_accepted`](Self::next_accepted) dealing on this thread, one deal at a time: only
    /// the seats the condition reads are dealt before it is judged, and an accepted deal is
    /// completed from the same random words.
    fn next_dealt(&mut self, program: &Program, deadline: Option<Instant>) -> Result<Option<Deal>> {
        while self.generated < self.max_generate && self.produced < self.max_produce {
            // A deal expression judges a deal in nanoseconds; the evaluator may solve double
            // dummy or ask an external program, so an interruption is then looked at every deal.
            let checkpoint = self.generated % 4096 == 0;
            if checkpoint || self.fast_condition.is_none() {
                self.interrupter.check()?;
                if self.past_hard_deadline() {
                    return Ok(None);
                }
            }
            if checkpoint && deadline.is_some_and(|d| self.produced == 0 && Instant::now() >= d) {
                self.timed_out = true;
                return Ok(None);
            }
            let dealt = self.dealer.deal_seats(self.condition_seats);
            self.generated += 1;
            let Some(mut deal) = dealt else { continue };
            let accepted = match (&mut self.fast_condition, program.condition) {
                (Some(fast), _) => fast.judge(program, &mut self.dealer, &mut deal),
                (None, None) => true,
                (None, Some(c)) => self.judge(program, c, &deal)?,
            };
            if accepted {
                self.produced += 1;
                self.dealer.produced();
                self.dealer.extend(&mut deal, self.produced_seats);
                return Ok(Some(deal));
            }
        }
        Ok(None)
    }

    /// [`next_accepted`](Self::next_accepted) reading records from a file: each record read
    /// counts as generated; a deal the predeal contradicts is passed over; a record's
    /// double-dummy table answers the solver's questions (the first `verify_dd` are checked by
    /// solving); the condition judges the rest.
    fn next_from_input(&mut self, program: &Program, deadline: Option<Instant>) -> Result<Option<Deal>> {
        while self.generated < self.max_generate && self.produced < self.max_produce {
            self.interrupter.check()?;
            if self.generated % 4096 == 0 {
                if self.past_hard_deadline() {
                    return Ok(None);
                }
                if deadline.is_some_and(|d| self.produced == 0 && Instant::now() >= d) {
                    self.timed_out = true;
                    return Ok(None);
                }
            }
            let input = self.input.as_mut().expect("called with an input");
            let before = input.records_read();
            let next = input.next();
            // Malformed records skipped count as read too.
            self.generated += (input.records_read() - before) as i64;
            let Some((record, admitted)) = next? else { return Ok(None) };
            if !admitted {
                continue;
            }
            if let Some(table) = record.dd {
                let input = self.input.as_mut().expect("called with an input");
                if input.verify_left > 0 {
                    input.verify_left -= 1;
                    input.tally.dd_verified += 1;
                    self.dd.insert(&record.deal, DealResults::default());
                    let solved = self.dd.table(&record.deal)?;
                    if let Some(message) = first_difference(&table, &solved) {
                        let input = self.input.as_ref().expect("called with an input");
                        return Err(input.record_error(record.line, format!("verify_dd: {message}")));
                    }
                } else {
                    input.tally.dd_read += 1;
                    self.dd.insert(&record.deal, DealResults::from_table(&table));
                }
            }
            let accepted = match program.condition {
                None => true,
                Some(c) => self.judge(program, c, &record.deal)?,
            };
            if accepted {
                self.produced += 1;
                return Ok(Some(record.deal));
            }
        }
        Ok(None)
    }

    /// An evaluation of `deal` with this job's dealer, counters, solver and external metrics.
    pub(crate) fn evaluation<'a>(&'a mut self, program: &'a Program, deal: &'a Deal) -> Evaluation<'a> {
        Evaluation {
            program,
            deal,
            dealer: &mut self.dealer,
            produced: self.produced,
            dd: &mut self.dd,
            generated: self.generated,
            external: &mut self.external,
        }
    }

    /// The next deal given to the job, or the statistics of deals counted elsewhere.
    fn next_given(&mut self) -> Result<Option<Produced>> {
        let given = self.given.as_mut().expect("called with given deals");
        if self.produced >= self.max_produce {
            return Ok(None);
        }
        let item = match given.take()? {
            None => {
                if let Some(generated) = given.generated_at_end {
                    self.generated = generated;
                }
                return Ok(None);
            }
            Some(Given::Statistics { statistics, accepted, next }) => {
                self.generated = next as i64;
                self.produced += accepted as i64;
                return Ok(Some(Produced::Summary(statistics)));
            }
            Some(Given::Deal(item)) => item,
        };
        if let Some(number) = item.number {
            self.generated = number as i64 + 1;
            // `rnd()` in the actions reads this deal's own stream, as where it was dealt.
            self.dealer.seek(number + 1);
        }
        if let Some(results) = item.dd {
            self.dd.insert(&item.deal, results);
        }
        self.produced += 1;
        Ok(Some(Produced::Deal(item.deal)))
    }

    /// Judges `deal`, the deal just generated, with the condition `c` through the evaluator.
    pub(crate) fn judge(&mut self, program: &Program, c: NodeId, deal: &Deal) -> Result<bool> {
        // The order is lent out while the evaluation borrows the job (a move, no copy).
        let order = self.clause_order.take();
        let verdict = match &order {
            Some(order) => order.truth(&mut self.evaluation(program, deal)),
            None => self.evaluation(program, deal).truth(c),
        };
        self.clause_order = order;
        verdict
    }

    /// [`next_accepted`](Self::next_accepted) when worker threads deal and judge.
    fn next_from_workers(&mut self, deadline: Option<Instant>) -> Result<Option<Produced>> {
        let parallel = self.parallel.as_mut().expect("called with workers");
        while self.generated < self.max_generate && self.produced < self.max_produce {
            self.interrupter.check()?;
            if self.hard_deadline.is_some_and(|d| Instant::now() >= d) {
                self.ceiling = Some(Ceiling::Time);
                return Ok(None);
            }
            match parallel.next_event((self.max_produce - self.produced) as u64) {
                Event::Accepted(index, deal) => {
                    self.generated = index as i64 + 1;
                    self.produced += 1;
                    // `rnd()` in the actions reads this deal's stream, as without workers.
                    self.dealer.seek(index + 1);
                    return Ok(Some(Produced::Deal(deal)));
                }
                Event::Summarized { end, accepted, summary } => {
                    self.generated = end as i64;
                    self.produced += accepted as i64;
                    return Ok(Some(Produced::Summary(Box::new(summary))));
                }
                Event::Failed(index, e) => {
                    self.generated = index as i64 + 1;
                    return Err(e);
                }
                Event::Judged(end) => {
                    self.generated = end as i64;
                    if deadline.is_some_and(|d| self.produced == 0 && Instant::now() >= d) {
                        self.timed_out = true;
                        return Ok(None);
                    }
                }
            }
        }
        Ok(None)
    }
}

impl DealValues for Job {
    #[inline]
    fn produced(&self) -> i64 {
        self.produced
    }

    #[inline]
    fn evaluation<'a>(&'a mut self, program: &'a Program, deal: &'a Deal) -> Evaluation<'a> {
        Job::evaluation(self, program, deal)
    }

    #[inline]
    fn dd(&mut self) -> &mut DdCache {
        &mut self.dd
    }

    fn board_label(&self) -> Option<&BoardLabel> {
        match &self.input {
            Some(input) => input.label.as_ref(),
            None => self.given.as_ref().and_then(|given| given.label.as_ref()),
        }
    }
}

/// The settings the actions print with: the session's options for them, and the seed the job
/// prints.
fn action_settings<'o>(options: &'o Options, job: &Job) -> ActionSettings<'o> {
    ActionSettings {
        title: options.title.as_deref(),
        start_board: options.start_board,
        output_ceiling: options.ceilings().output_bytes.is_some(),
        statistics: options.statistics,
        records_format: options.format != OutputFormat::Script,
        rotate: options.rotate,
        quiet: options.quiet,
        input_name: options.input_name.as_deref(),
        pbn_date: options.pbn_date.as_deref(),
        names_libdealer: options.generator == GeneratorKind::ChaCha,
        pbn_dd: options.pbn_dd,
        board_title: options.board_title,
        json_dd: options.json_dd,
        json_summary: options.json_summary,
        intervals: options.intervals,
        seed_printed: job.seed_printed,
    }
}

/// Runs a started job to its end: opens the output files, runs the dealing loop, and flushes
/// what was written even when the loop fails.
pub(crate) fn run_job(
    program: &Program,
    options: &Options,
    job: &mut Job,
    sinks: &mut [Option<Sink>; STREAM_COUNT],
    started: Instant,
) -> Result<RunReport> {
    let csv_file = match &options.csv_file {
        Some((path, truncate)) => Some(Sink::File(open_file(path, *truncate)?)),
        None => None,
    };
    let export_file = match &options.export_file {
        Some(path) => Some(Sink::File(open_file(path, true)?)),
        None => None,
    };
    let record_file = |spec: &Option<OutputSpec>| -> Result<Option<std::io::BufWriter<std::fs::File>>> {
        spec.as_ref().map(|spec| Ok(std::io::BufWriter::new(open_file(&spec.path, spec.truncate)?))).transpose()
    };
    let zrd = record_file(&options.zrd_output)?.map(|f| (f, options.zrd_output.as_ref().is_some_and(|z| z.no_tricks)));
    let dl52 = record_file(&options.dl52_output)?;
    let mut outputs = Outputs {
        sinks,
        out: Vec::with_capacity(FLUSH_AT * 2),
        deals: Vec::new(),
        csv: Vec::new(),
        export: Vec::new(),
        csv_file,
        export_file,
        zrd,
        dl52,
        written: 0,
        max_bytes: options.ceilings().output_bytes,
    };
    let result = deal_loop(program, options, job, &mut outputs, started);
    let flushed = outputs.flush();
    let report = result?;
    flushed?;
    Ok(report)
}

impl Job {
    /// The number of generated deals as the peer prints it: DealerV2's loop leaves its counter
    /// one past the last deal, then corrects it (off by one when the last deal was the
    /// `generate - 1`-th). A job reading records counts the records read.
    fn generated_as_printed(&self, dialect: Dialect) -> i64 {
        if self.input.is_some() {
            // Records read: no peer counts them.
            return self.generated;
        }
        match dialect {
            Dialect::V2 => {
                let counter = self.generated + 1;
                if counter >= self.max_generate {
                    self.max_generate
                } else if counter >= 2 {
                    counter - 1
                } else {
                    counter
                }
            }
            Dialect::Classic => self.generated,
        }
    }
}

/// The dealing loop of a run: the notices, then each produced deal through the actions (within
/// the output ceiling), then the end-of-run actions and the report.
fn deal_loop(
    program: &Program,
    options: &Options,
    job: &mut Job,
    outputs: &mut Outputs,
    started: Instant,
) -> Result<RunReport> {
    let settings = action_settings(options, job);
    let mut state = ActionState::new(program, settings, job.library.as_ref().map(|l| l.title()));
    if options.precision.is_some() && state.widest_interval().is_none() {
        return Err(Error::new(
            ErrorKind::Option,
            "option precision: the script has no statistic to be sure of (average, frequency, bktfreq, leads)",
        ));
    }
    if let (true, Some(title)) = (outputs.zrd.is_some(), &state.title) {
        for record in crate::dd::zrd::title_records(title) {
            outputs.write_record(true, &record)?;
        }
    }
    let mut meter = options.progress.then(ProgressMeter::new);
    let mut meter_text = Vec::new();
    if let Some(m) = &mut meter {
        m.start(&mut meter_text);
        outputs.diagnostics(&std::mem::take(&mut meter_text));
    }
    if program.dialect == Dialect::V2 {
        // DealerV2 reports the features its mode precedence discards on stderr.
        for warning in job.dealer.warnings() {
            outputs.diagnostics(format!("ERR**: {warning}\n").as_bytes());
        }
        for feature in &job.library_discards {
            outputs.diagnostics(format!("ERR**: Library mode is in force: the {feature} is discarded\n").as_bytes());
        }
        if let Some(feature) = job.table_mode_notice {
            outputs.diagnostics(table_mode_notice(feature).as_bytes());
        }
    }
    // The text the peers echo from the script would break LIN and JSON Lines records.
    if options.format == OutputFormat::Script {
        outputs.out.extend_from_slice(program.echo.as_bytes());
    }

    // A limit too far away to be a point in time is no limit.
    let deadline = (options.time_limit > 0)
        .then(|| started.checked_add(std::time::Duration::from_secs(options.time_limit)))
        .flatten();
    while let Some(produced) = next_produced_noted(job, program, deadline, outputs)? {
        job.interrupter.check()?;
        match produced {
            Produced::Deal(deal) => {
                let mark = outputs.mark();
                let statistics = state.statistics;
                if let Err(e) = state.on_deal(&deal, job, outputs) {
                    // What the failed deal printed stays (whole lines), unless it passes the
                    // output ceiling.
                    if outputs.max_bytes.is_some_and(|max| outputs.total() > max) {
                        outputs.rewind(mark);
                    }
                    return Err(e);
                }
                if let Some(max) = outputs.max_bytes {
                    if outputs.total() + state.bytes_to_come(&deal, outputs) > max {
                        // The deal would go past the output ceiling: none of it is written.
                        outputs.rewind(mark);
                        state.statistics = statistics;
                        job.produced -= 1;
                        job.ceiling = Some(Ceiling::Output);
                        break;
                    }
                }
                state.commit(&deal, job, outputs)?;
                outputs.deal_produced(&deal);
                if let Some(wanted) = options.precision {
                    if precision_reached(&state, job.produced, wanted) {
                        break;
                    }
                }
            }
            Produced::Summary(statistics) => state.merge(&statistics.tallies),
        }
        if let Some(m) = &mut meter {
            if m.update(&mut meter_text, job.produced, job.max_produce) {
                outputs.diagnostics(&std::mem::take(&mut meter_text));
            }
        }
        if outputs.out.len() >= FLUSH_AT
            || outputs.csv.len() >= FLUSH_AT
            || outputs.export.len() >= FLUSH_AT
            || outputs.deals.len() >= FLUSH_AT
        {
            outputs.flush()?;
        }
        if job.past_hard_deadline() {
            break;
        }
    }
    if job.generate_capped && job.ceiling.is_none() && job.generated >= job.max_generate {
        job.ceiling = Some(Ceiling::Generate);
    }
    if let Some(m) = &meter {
        m.finish(&mut meter_text);
        outputs.diagnostics(&meter_text);
    }

    let generated = job.generated_as_printed(program.dialect);
    let precision = options
        .precision
        .map(|wanted| actions::PrecisionReached { wanted, widest: state.widest_interval().unwrap_or(f64::INFINITY) });
    let summary = RunSummary {
        precision,
        title: None,
        generated,
        produced: job.produced,
        seed_printed: job.seed_printed,
        seconds: job.seconds_before + started.elapsed().as_secs_f64(),
        library: job.library.as_ref().map(|l| actions::LibraryCounts {
            records_read: l.records_read() as i64,
            wrap_arounds: i64::from(l.wrap_arounds()),
        }),
        smart: &job.smart_counts,
        input: job.input.as_ref().map(|input| actions::InputCounts {
            name: input.name(),
            format: input.format().name(),
            records_read: input.records_read(),
            malformed: input.tally.malformed,
            off_predeal: input.tally.off_predeal,
            dd_read: input.tally.dd_read,
            dd_verified: input.tally.dd_verified,
        }),
        hand_types: job.given.as_ref().map_or(&[], |given| &given.hand_type_counts),
        dd_line: job.dd_counts_line,
        dd: job.counts_dd.then(|| {
            let solves = job.dd.counts();
            actions::DdCount {
                thresholds: solves.thresholds,
                exact: solves.exact,
                tables: solves.tables,
                by_the_cards: job.dd.answered_by_the_cards(),
                leads: solves.leads,
            }
        }),
        leads: &[],
        statistics: "",
    };
    let room = outputs.max_bytes.map(|max| max.saturating_sub(outputs.total()));
    let end = outputs.out.len();
    job.summary_json = state.summary_json(summary);
    state.finish(&mut outputs.out, summary, &job.summary_json, room);
    if let Some(room) = room {
        if (outputs.out.len() - end) as u64 > room {
            // The end-of-run report does not fit: it ends with its last whole line that does.
            let fits = &outputs.out[..end + room as usize];
            let cut = fits.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1).max(end);
            outputs.out.truncate(cut);
            job.ceiling = Some(Ceiling::Output);
        }
    }
    Ok(RunReport {
        generated,
        produced: job.produced,
        seed: job.seed_printed,
        timed_out: job.timed_out,
        ceiling: job.ceiling,
    })
}

/// [`Job::next_produced`], then the notices of the input records it skipped written to the
/// diagnostics stream.
fn next_produced_noted(
    job: &mut Job,
    program: &Program,
    deadline: Option<Instant>,
    outputs: &mut Outputs,
) -> Result<Option<Produced>> {
    let produced = job.next_produced(program, deadline);
    if let Some(input) = &mut job.input {
        for notice in input.notices.drain(..) {
            outputs.diagnostics(notice.as_bytes());
        }
    }
    produced
}

/// The fewest produced deals the precision rule stops after: fewer cannot tell a spread.
pub(crate) const PRECISION_LEAST_DEALS: i64 = 100;

/// Whether the precision rule stops the run after its `produced`-th deal: at least
/// [`PRECISION_LEAST_DEALS`] and every statistic's 95 % interval at most `wanted` wide. Looked at
/// after every deal up to 1,024, then every `produced / 1024` deals (deal-number order, so the
/// run stops at the same deal for any thread count), so that large tables cost little per deal.
fn precision_reached(state: &ActionState, produced: i64, wanted: f64) -> bool {
    let step = (produced / 1024).max(1);
    produced >= PRECISION_LEAST_DEALS && produced % step == 0 && state.widest_interval().is_some_and(|w| w <= wanted)
}

/// Where a table read from a record differs from the one solved: the first result that
/// differs, as `North in hearts: 9 in the input, 10 solved`.
fn first_difference(read: &DdTable, solved: &DdTable) -> Option<String> {
    for seat in Seat::ALL {
        for strain in 0..5 {
            let (r, s) = (read.0[seat.index()][strain], solved.0[seat.index()][strain]);
            if r != s {
                let strain = match Strain::from_index(strain) {
                    Strain::Notrump => "notrump".to_string(),
                    Strain::Suit(suit) => format!("{}s", suit.name().to_ascii_lowercase()),
                };
                return Some(format!(
                    "the double-dummy table disagrees with the solver: {} in {strain}: {r} in the input, {s} solved",
                    seat.name()
                ));
            }
        }
    }
    None
}

/// DealerV2's notice when a feature switches its DDS mode 1 to table mode.
pub(crate) fn table_mode_notice(feature: &str) -> String {
    let (place, name) = match feature {
        "par" => ("ParScore", "Parscore"),
        "trix" => ("Trix", "Trix"),
        "parcontract" => ("ParContract", "ParContract"),
        other => (other, other),
    };
    format!("In {place}:: Using {name} requires TableMode. Setting Mode and continuing..\n")
}
