//! One libdealer session ([`Session`]): its options, the loaded program, the expressions compiled
//! on top of it, and the state of its current job. This is the whole engine behind the C API:
//! `capi` only converts arguments and results. It starts jobs through their setup
//! (src/job/job_setup.rs chooses the dealer, the double-dummy solver and the external metrics;
//! src/job/seed.rs the seed) and hands runs to the dealing loop (src/job/dealing_loop.rs); it
//! parses no option value itself (src/job/options.rs does) and writes no output itself
//! (src/job/sinks.rs does).
//!
//! Data flows one way: options + script → [`Program`] → [`Dealer`](crate::dealing::Dealer) →
//! evaluation → actions → [`Sink`]s. Output is buffered and handed to the sinks in large pieces;
//! whatever was written before an error stays written (the buffer is flushed before the error is
//! returned).

use crate::clock::Instant;
use std::collections::HashMap;
use std::sync::Arc;

use crate::actions::boards::BoardLabel;
use crate::cards::{Deal, SeatSet};
use crate::dd::{DdCache, DealResults, DoubleDummy, Need, SolverPool};
use crate::dealing::DealingSetup;
use crate::error::{Error, ErrorKind, Result};
use crate::interrupter::Interrupter;
use crate::job::dealing_loop::{run_job, Given, GivenDeal, GivenDeals, Job};
use crate::job::job_setup::{job_dd_use, limits, predeal_in_force, refuse_external_calls, JobSetup};
use crate::job::options::{MixScenario, Options, OutputFormat};
use crate::job::report::{Ceiling, RunReport, Statistics};
use crate::job::seed;
use crate::job::sinks::{Sink, Stream, STREAM_COUNT};
use crate::job::smart::{exact_count, ExactCount};
use crate::program::{CompiledAction, NodeId, Program};
use crate::script::{self, ast::Statement, ast::Vulnerability};

pub use crate::job::job_setup::MetricMaker;

/// How many distinct `eval` expressions a session keeps compiled before starting afresh.
pub(super) const MAX_CACHED_EXPRESSIONS: usize = 1024;

/// How many expressions `compile_expression` keeps for one script.
const MAX_COMPILED_EXPRESSIONS: usize = 65_536;

/// The refusal of a deal that is not 52 different cards, 13 in each hand.
const INCOMPLETE_DEAL: &str = "the deal must hold each of the 52 cards once, 13 in every hand";

/// The error for a text given as an expression (`dealer_eval`, `dealer_compile_expression`)
/// that is a statement or several.
const NOT_A_STATEMENT: &str =
    "expected a single expression, not a statement: write `hcp(north) > 10`, not `condition hcp(north) > 10`";

/// One libdealer session: options, a loaded program, and the state of its current job.
pub struct Session {
    options: Options,
    pub(super) program: Option<Program>,
    job: Option<Job>,
    current: Option<Deal>,
    sinks: [Option<Sink>; STREAM_COUNT],
    /// Expressions compiled for [`Session::eval`] and [`Session::compile_expression`].
    expressions: ExtraExpressions,
    /// A solver for deals the caller passes in (created on first use).
    own_dd: Option<DdCache>,
    /// Builds the caller's `usereval` metric for each job, when one is set.
    in_process_metric: Option<MetricMaker>,
    /// The DDS double-dummy results come from (see [`Session::set_double_dummy`]).
    double_dummy: DoubleDummy,
    /// Stops runs from outside (see [`Session::interrupter`]).
    interrupter: Interrupter,
    /// The seed of the last job, until an option or the script is set (see [`Session::seed`]).
    last_seed: Option<i64>,
    /// The JSON summary object of the last run (see [`Session::last_summary`]).
    last_summary: String,
    /// The loaded script's text, for the excerpt of errors found after loading.
    script_text: Vec<u8>,
    /// While the `format` option replaces the loaded script's actions: the script's own actions
    /// and whether they print deals, put back when `format` returns to `script`.
    script_actions: Option<(Vec<CompiledAction>, bool)>,
    /// The scenarios of a mixed board set, when some were added (see [`crate::practice`]).
    mix: Vec<MixScenario>,
}

/// The deals a practice run hands to the actions (see [`Session::run_given`]), in the order
/// they are printed.
pub struct GivenBoards {
    /// The deals.
    pub deals: Vec<Deal>,
    /// What each board says of itself (its hand type, its scenario); shorter or empty: nothing.
    pub labels: Vec<BoardLabel>,
    /// The hand types the script declares, in order: the JSON summary counts the boards of
    /// each (`hand_types`).
    pub hand_types: Vec<Arc<str>>,
    /// Each deal's double-dummy results, when known already (a merge of parts: solved by the
    /// parts); empty: none known.
    pub dd: Vec<DealResults>,
    /// The deals generated to find them.
    pub generated: i64,
    /// When the dealing began (the report's time counts from then).
    pub started: Instant,
    /// Seconds spent elsewhere on these deals (the parts of a merged job), counted into the
    /// report's time.
    pub seconds_before: f64,
}

impl Default for Session {
    fn default() -> Self {
        Session::new()
    }
}

/// Expressions compiled on top of the loaded script: the `eval` cache (by text, dropped
/// wholesale when it grows past a bound) and the expressions `compile_expression` pinned, which
/// stay until the next script is loaded.
#[derive(Default)]
struct ExtraExpressions {
    by_text: HashMap<String, NodeId>,
    /// Pinned expressions in id order, with their source (to compile them again after the cache
    /// is dropped) and their current node.
    pinned: Vec<(crate::script::ast::Expr, NodeId)>,
    /// The id of `pinned[0]`: ids count up over the session's life and are never reused.
    first_id: u32,
}

impl ExtraExpressions {
    /// Drops the `eval` cache's nodes and compiles the pinned expressions again.
    fn start_afresh(&mut self, program: &mut Program) -> Result<()> {
        program.forget_extra_expressions();
        self.by_text.clear();
        for (expr, node) in &mut self.pinned {
            *node = program.compile_extra_expression(expr)?;
        }
        Ok(())
    }

    /// A new script is loaded: every expression and id of the old one becomes invalid.
    fn forget_script(&mut self) {
        self.by_text.clear();
        let count = std::mem::take(&mut self.pinned).len() as u32;
        self.first_id = self.first_id.saturating_add(count);
    }
}

impl Session {
    /// A session with default options and no script.
    pub fn new() -> Session {
        Session {
            options: Options::default(),
            program: None,
            job: None,
            current: None,
            sinks: Default::default(),
            expressions: ExtraExpressions::default(),
            own_dd: None,
            in_process_metric: None,
            double_dummy: DoubleDummy::of_this_build(),
            interrupter: Interrupter::default(),
            last_seed: None,
            last_summary: String::new(),
            script_text: Vec::new(),
            script_actions: None,
            mix: Vec::new(),
        }
    }

    /// A handle that interrupts this session's runs (and `next_deal` loops) from another thread
    /// or a signal handler; see [`Interrupter`].
    pub fn interrupter(&self) -> Interrupter {
        self.interrupter.clone()
    }

    /// The options in force.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Sets an option by key and value. The keys are those of [`OPTION_KEYS`](crate::job::OPTION_KEYS); what each one
    /// takes is documented with `dealer_set_option` in src/ffi/ (the C header). A refused
    /// key or value leaves the options as they were. The run ceilings of scripts typed by users
    /// (`untrusted`, `max_seconds`, `max_generate`, `max_output_bytes`) are read through
    /// [`Options::ceilings`].
    pub fn set_option(&mut self, key: &str, value: &str) -> Result<()> {
        self.options.set(key, value)?;
        if key == "format" {
            self.apply_format();
        }
        if key == "dds_table_mb" {
            // The solver `dd_table` keeps between calls was made with the old table size. (Its
            // default vulnerability is never read: `dd_table` names the vulnerability of par.)
            self.own_dd = None;
        }
        self.job = None;
        self.current = None;
        self.last_seed = None;
        Ok(())
    }

    /// Makes `data` (board records: PBN, LIN, one-line, DL52, JSON Lines or ZRD bytes) the
    /// session's input, read by the next job in place of dealing (as the `input` option does
    /// with a file); `None` removes the input. The bytes are kept until then.
    pub fn set_input_data(&mut self, data: Option<&[u8]>) {
        self.options.input = data.map(|bytes| crate::records::InputSource::Memory(bytes.into()));
        self.job = None;
        self.current = None;
        self.last_seed = None;
    }

    /// Sets the seed (as the `seed` option does), or with `None` lets each job choose one.
    pub fn set_seed(&mut self, seed: Option<i64>) {
        self.options.seed = seed;
        self.job = None;
        self.current = None;
        self.last_seed = None;
    }

    /// Directs one output stream to a sink, or back to its default with `None` (output goes to
    /// stdout, diagnostics to stderr, and csv/export lines into the output stream unless a file
    /// option is set).
    pub fn set_sink(&mut self, stream: Stream, sink: Option<Sink>) {
        self.sinks[stream as usize] = sink;
    }

    /// Parses and compiles a script; replaces any previous one and resets the job. On an error
    /// the previous script, if any, stays loaded.
    pub fn load_script(&mut self, text: &[u8]) -> Result<()> {
        self.check_script_size(text.len() as u64)?;
        let dialect = self.options.dialect();
        let program = Program::from_source(text, dialect, &self.options.script_vars);
        let program = program.map_err(|e| e.with_source(text))?;
        if self.options.untrusted {
            // `opc` is never allowed; `usereval` is checked when the job starts, since the
            // embedder may set an in-process metric after loading.
            refuse_external_calls(&program, 0..program.nodes.len(), false, text)?;
        }
        self.program = Some(program);
        self.script_actions = None;
        self.apply_format();
        self.script_text = text.to_vec();
        self.job = None;
        self.current = None;
        self.last_seed = None;
        self.expressions.forget_script();
        Ok(())
    }

    /// Reads a script file and loads it; the file name becomes the PBN input name.
    pub fn load_script_file(&mut self, path: &str) -> Result<()> {
        use std::io::Read;
        let io = |e: std::io::Error| Error::new(ErrorKind::Io, format!("{path}: {e}"));
        let file = crate::dd::zrd::open_regular_file(std::path::Path::new(path)).map_err(io)?;
        // Only a regular file has a length to check first (/dev/zero and a FIFO do not end).
        if !file.metadata().map_err(io)?.is_file() {
            return Err(Error::new(ErrorKind::Io, format!("{path}: not a regular file")));
        }
        self.check_script_size(file.metadata().map_err(io)?.len())?;
        // Read at most one byte past the cap: a file that grows meanwhile is caught too.
        let mut text = Vec::new();
        file.take(self.options.max_script_bytes.saturating_add(1)).read_to_end(&mut text).map_err(io)?;
        self.check_script_size(text.len() as u64)?;
        if self.options.input_name.is_none() {
            self.options.input_name = Some(path.to_string());
        }
        self.load_script(&text)
    }

    /// Refuses a script of `len` bytes above the `max_script_bytes` option.
    pub fn check_script_size(&self, len: u64) -> Result<()> {
        let max = self.options.max_script_bytes;
        if len > max {
            return Err(Error::new(
                ErrorKind::Script,
                format!("the script is {len} bytes long, more than {max} (option max_script_bytes)"),
            ));
        }
        Ok(())
    }

    /// Puts the loaded script's own actions back, then, under `format` lin or jsonl, replaces
    /// them with `printlin` or a bare `printjson` (the script's other statements stay in force).
    fn apply_format(&mut self) {
        let Some(program) = self.program.as_mut() else { return };
        if let Some((actions, prints_deals)) = self.script_actions.take() {
            program.actions = actions;
            program.prints_deals = prints_deals;
        }
        let action = match self.options.format {
            OutputFormat::Script => return,
            OutputFormat::Lin => CompiledAction::PrintLin,
            OutputFormat::Jsonl => CompiledAction::PrintJson(Vec::new()),
            OutputFormat::Pbn => CompiledAction::PrintPbn,
        };
        let actions = std::mem::replace(&mut program.actions, vec![action]);
        self.script_actions = Some((actions, std::mem::replace(&mut program.prints_deals, true)));
    }

    fn program(&self) -> Result<&Program> {
        self.program.as_ref().ok_or_else(|| Error::new(ErrorKind::Usage, "no script loaded"))
    }

    /// What a job of the loaded program is set up from (see [`JobSetup`]).
    fn job_setup(&self) -> Result<JobSetup<'_>> {
        Ok(JobSetup {
            options: &self.options,
            program: self.program()?,
            script_text: &self.script_text,
            in_process_metric: self.in_process_metric.as_ref(),
            double_dummy: &self.double_dummy,
            interrupter: &self.interrupter,
        })
    }

    /// Builds the dealer and the limits of a new job from the options and the program, for a
    /// consumer of the produced deals that reads the hands of `produced_seats`; dealing
    /// threads add up `statistics` (empty) by chunk when given.
    pub(super) fn start_job(&self, produced_seats: SeatSet, statistics: Option<Statistics>) -> Result<Job> {
        self.start_job_over(produced_seats, statistics, None)
    }

    /// [`start_job`](Self::start_job) whose worker threads (when it has them) judge the deal
    /// numbers `deals` (a part of the job) instead of the whole job's.
    pub(super) fn start_job_over(
        &self,
        produced_seats: SeatSet,
        statistics: Option<Statistics>,
        deals: Option<std::ops::Range<u64>>,
    ) -> Result<Job> {
        // The deals stream shows every hand of every produced deal: all four hands are dealt (the
        // hands a script does not read are dealt from the same deal, so the deals stay the same),
        // and worker threads hand on each deal, not only the statistics of a chunk of them.
        let (produced_seats, statistics) = if self.sinks[Stream::Deals as usize].is_some() {
            (SeatSet::ALL, None)
        } else {
            (produced_seats, statistics)
        };
        self.job_setup()?.start(produced_seats, statistics, deals)
    }

    /// The seed a job started now deals with: the one the options or the script fix, else one
    /// chosen now as the generator's peer would (random; classic dealer's, the time). A seed
    /// the job chooses itself is one that, given back as the `seed` option, deals the same deals
    /// (never 0, which would ask for a random seed again).
    pub fn seed_for_next_job(&self) -> i64 {
        seed::seed_for_next_job(&self.options, self.program.as_ref())
    }

    /// The seed the next job will use when the options or the script fix it: the `seed` option,
    /// else the script's `seed` statement (DealerV2 dialect; in library mode either dialect);
    /// `None` when the job will choose its seed. Seed 0 asks for a chosen seed, except with the
    /// glibc generator, which takes 0 as classic dealer does, and in library mode, where the
    /// seed is a block offset into the file.
    pub fn fixed_seed(&self) -> Option<i64> {
        seed::fixed_seed(&self.options, self.program.as_ref())
    }

    /// The JSON summary object of the last run that ended (one line, what the `json_summary`
    /// option prints, whatever that option says): deals, seed, every statistic with its 95 %
    /// interval, the `leads` tables, the precision reached, the double-dummy solves. Empty
    /// before the first run ends, and after a run that failed.
    pub fn last_summary(&self) -> &str {
        &self.last_summary
    }

    /// Forgets the last run's summary: a run is starting (one that fails leaves none).
    pub(crate) fn forget_last_summary(&mut self) {
        self.last_summary.clear();
    }

    /// The seed of the last job (started by [`Session::run`] or the first
    /// [`Session::next_deal`]) while neither an option nor the script has been set since:
    /// given back as the `seed` option, it deals the same deals. Otherwise the seed the next
    /// job will use when the options or the script fix it, else 0 (the job will choose one).
    pub fn seed(&self) -> i64 {
        self.last_seed.or_else(|| self.fixed_seed()).unwrap_or(0)
    }

    /// Evaluates `usereval` with a metric of the caller's instead of a DealerServer: `make`
    /// builds one for each job (`None` goes back to the DealerServer).
    pub fn set_in_process_metric(&mut self, make: Option<MetricMaker>) {
        self.in_process_metric = make;
        self.job = None;
        self.current = None;
    }

    /// Solves double dummy with `dds` instead of this build's own DDS (the WebAssembly build,
    /// which has none linked in, is given its DDS module this way; [`DoubleDummy::none`] makes
    /// every solve answer "not available").
    pub fn set_double_dummy(&mut self, dds: DoubleDummy) {
        self.double_dummy = dds;
        self.own_dd = None;
        self.job = None;
        self.current = None;
    }

    /// Whether a job of the loaded script under the options solves double dummy: its condition
    /// or actions read double-dummy results, or its board records carry them (`pbn_dd`,
    /// `json_dd`, a ZRD file with tricks). `false` without a script. (The WebAssembly build loads
    /// its DDS module only for such a job.)
    pub fn needs_double_dummy(&self) -> bool {
        let Some(program) = &self.program else { return false };
        job_dd_use(program, &self.options).solves()
    }

    /// The generate and produce limits a run of the loaded script has (see [`Session::run`]).
    pub fn run_limits(&self) -> Result<(i64, i64)> {
        let (generate, produce, _) = limits(&self.options, self.program()?);
        Ok((generate, produce))
    }

    /// Returns the next deal that satisfies the condition (no actions run), or `None` when the
    /// generate limit (or an explicitly set produce limit) is reached; the deal returned becomes
    /// the current deal of [`Session::eval`]. The generate ceiling lowers the generate limit; the
    /// wall-time ceiling applies to each call, which fails with an [`ErrorKind::Run`] error when
    /// it passes before a deal is found (the next call goes on from there).
    pub fn next_deal(&mut self) -> Result<Option<Deal>> {
        self.start_deal_by_deal()?;
        let deadline = self.options.ceilings().time.and_then(|t| Instant::now().checked_add(t));
        self.deal_one(deadline)
    }

    /// The next deal of the job [`Session::start_deal_by_deal`] started, dealt before `deadline`.
    fn deal_one(&mut self, deadline: Option<Instant>) -> Result<Option<Deal>> {
        let program = self.program.as_ref().expect("job implies program");
        let job = self.job.as_mut().expect("just set");
        let time = self.options.ceilings().time;
        job.hard_deadline = deadline;
        job.ceiling = None;
        let deal = job.next_accepted(program, None)?;
        if job.ceiling == Some(Ceiling::Time) {
            job.ceiling = None;
            let seconds = time.map_or(0.0, |t| t.as_secs_f64());
            return Err(Error::new(
                ErrorKind::Run,
                format!("no deal found within the time ceiling of {seconds} s (option max_seconds)"),
            ));
        }
        if deal.is_some() {
            // After the last deal, the last one stays current for `eval`.
            self.current = deal;
        }
        Ok(deal)
    }

    /// Deals like `count` calls of [`Session::next_deal`], handing each deal to `store` with
    /// its index and writing the values of the compiled expressions `ids` on it to the next
    /// `ids.len()` slots of `values` (row by row; `values` holds `count * ids.len()` slots).
    /// Returns how many deals were stored — fewer than `count` when the generate or produce
    /// limit ends the dealing — and the error that stopped it, if any (the deals stored before
    /// it are in place and counted). The wall-time ceiling applies to the whole call.
    pub fn next_deals(
        &mut self,
        count: usize,
        ids: &[u32],
        values: &mut [i32],
        mut store: impl FnMut(usize, &Deal),
    ) -> (usize, Result<()>) {
        if values.len() != count.saturating_mul(ids.len()) {
            return (0, Err(Error::new(ErrorKind::Usage, "values must hold one slot per deal and expression")));
        }
        // Unknown ids fail before any deal is dealt.
        let nodes = match ids.iter().map(|id| self.compiled_node(*id)).collect::<Result<Vec<_>>>() {
            Ok(nodes) => nodes,
            Err(e) => return (0, Err(e)),
        };
        if let Err(e) = self.start_deal_by_deal() {
            return (0, Err(e));
        }
        let deadline = self.options.ceilings().time.and_then(|t| Instant::now().checked_add(t));
        let mut rows = values.chunks_exact_mut(nodes.len().max(1));
        for index in 0..count {
            let deal = match self.deal_one(deadline) {
                Ok(Some(deal)) => deal,
                Ok(None) => return (index, Ok(())),
                Err(e) => return (index, Err(e)),
            };
            if let Some(row) = rows.next().filter(|_| !nodes.is_empty()) {
                for (value, node) in row.iter_mut().zip(&nodes) {
                    match self.evaluate(&deal, *node) {
                        Ok(v) => *value = v,
                        Err(e) => return (index, Err(e)),
                    }
                }
            }
            store(index, &deal);
        }
        (count, Ok(()))
    }

    /// Makes `deal` the current deal of [`Session::eval`], [`Session::eval_compiled`] and
    /// [`Session::dd_table`] without dealing. Needs a loaded script and a complete deal.
    pub fn set_deal(&mut self, deal: Deal) -> Result<()> {
        if !deal.is_complete() {
            return Err(Error::new(ErrorKind::Usage, INCOMPLETE_DEAL));
        }
        self.start_deal_by_deal()?;
        self.current = Some(deal);
        Ok(())
    }

    /// Starts the job that [`Session::next_deal`] deals from, unless one is running: deals are
    /// returned one at a time, with no actions.
    fn start_deal_by_deal(&mut self) -> Result<()> {
        if self.job.is_none() {
            let mut job = self.start_job(SeatSet::ALL, None)?;
            let explicit = self.options.produce.is_some_and(|p| p != 0) || self.program()?.settings.produce.is_some();
            if !explicit {
                job.max_produce = i64::MAX;
            }
            if let Some(lookahead) = &mut job.lookahead {
                // No actions run on the deals `next_deal` returns.
                lookahead.action_need = Need::NONE;
                if lookahead.condition_need.is_empty() {
                    job.lookahead = None;
                }
            }
            self.last_seed = Some(job.seed);
            self.job = Some(job);
        }
        Ok(())
    }

    /// Evaluates an expression (script syntax, with the script's variables) on the current deal.
    /// Expressions are compiled once and kept (up to a bound) for later calls with the same text.
    pub fn eval(&mut self, expression: &str) -> Result<i32> {
        let deal = self.current_deal()?;
        let id = match self.expressions.by_text.get(expression) {
            Some(id) => *id,
            None => {
                let expr = self.parse_expression(expression)?;
                let program = self.program.as_mut().ok_or_else(|| Error::new(ErrorKind::Usage, "no script loaded"))?;
                if self.expressions.by_text.len() >= MAX_CACHED_EXPRESSIONS {
                    self.expressions.start_afresh(program)?;
                }
                let before = program.nodes.len();
                let id = program.compile_extra_expression(&expr).map_err(|e| e.with_source(expression.as_bytes()))?;
                self.refuse_external_expression(before, expression)?;
                self.expressions.by_text.insert(expression.to_string(), id);
                id
            }
        };
        self.evaluate(&deal, id)
    }

    /// Compiles an expression once for [`Session::eval_compiled`] and returns its id. Ids stay
    /// valid until the next script is loaded; they are never reused within a session.
    pub fn compile_expression(&mut self, expression: &str) -> Result<u32> {
        let expr = self.parse_expression(expression)?;
        let program = self.program.as_mut().ok_or_else(|| Error::new(ErrorKind::Usage, "no script loaded"))?;
        let pinned = &mut self.expressions.pinned;
        if pinned.len() >= MAX_COMPILED_EXPRESSIONS {
            return Err(Error::new(
                ErrorKind::Usage,
                format!("too many compiled expressions (at most {MAX_COMPILED_EXPRESSIONS} per script)"),
            ));
        }
        let id = self
            .expressions
            .first_id
            .checked_add(pinned.len() as u32)
            .ok_or_else(|| Error::new(ErrorKind::Usage, "expression ids are exhausted: create a new session"))?;
        let before = program.nodes.len();
        let node = program.compile_extra_expression(&expr).map_err(|e| e.with_source(expression.as_bytes()))?;
        self.refuse_external_expression(before, expression)?;
        self.expressions.pinned.push((expr, node));
        Ok(id)
    }

    /// Under `untrusted`, refuses an expression just compiled (nodes `from..`) that calls an
    /// external program, and drops the extra expressions' nodes (the pinned ones are compiled
    /// again) so that refused expressions take no memory.
    fn refuse_external_expression(&mut self, from: usize, expression: &str) -> Result<()> {
        let Some(program) = self.program.as_mut().filter(|_| self.options.untrusted) else { return Ok(()) };
        let usereval = self.in_process_metric.is_none();
        let refused = refuse_external_calls(program, from..program.nodes.len(), usereval, expression.as_bytes());
        if refused.is_err() {
            self.expressions.start_afresh(program)?;
        }
        refused
    }

    /// Evaluates an expression compiled by [`Session::compile_expression`] on the current deal.
    pub fn eval_compiled(&mut self, id: u32) -> Result<i32> {
        let node = self.compiled_node(id)?;
        let deal = self.current_deal()?;
        self.evaluate(&deal, node)
    }

    /// The program node of an expression id from [`Session::compile_expression`].
    pub(super) fn compiled_node(&self, id: u32) -> Result<NodeId> {
        id.checked_sub(self.expressions.first_id)
            .and_then(|index| self.expressions.pinned.get(index as usize))
            .map(|(_, node)| *node)
            .ok_or_else(|| {
                Error::new(
                    ErrorKind::Usage,
                    format!("unknown expression id {id} (ids are valid until the next script is loaded)"),
                )
            })
    }

    fn current_deal(&self) -> Result<Deal> {
        self.current.ok_or_else(|| Error::new(ErrorKind::Usage, "no current deal: call next_deal first"))
    }

    /// Parses one expression in the dialect and with the variables of the session.
    fn parse_expression(&self, expression: &str) -> Result<crate::script::ast::Expr> {
        // The loaded script's language, even if the dialect option changed since it was loaded.
        let dialect = self.program.as_ref().map_or_else(|| self.options.dialect(), |p| p.dialect);
        let parsed = script::parse(expression.as_bytes(), dialect, &self.options.script_vars)
            .map_err(|d| Error::from(d).with_source(expression.as_bytes()))?;
        // A bare expression parses as a condition statement; so does `condition EXPR`, which is
        // refused like every other statement.
        let first = script::lexer::Lexer::new(expression.as_bytes(), dialect, &self.options.script_vars).next();
        let keyword = match first {
            Some(Ok((pos, script::token::Token::Condition, _))) => Some(pos),
            _ => None,
        };
        match (parsed.statements.as_slice(), keyword) {
            ([Statement::Condition(e, _)], None) => Ok(e.clone()),
            (_, Some(pos)) => Err(Error::script(NOT_A_STATEMENT, pos.line, pos.col).with_source(expression.as_bytes())),
            _ => Err(Error::script(NOT_A_STATEMENT, 1, 1).with_source(expression.as_bytes())),
        }
    }

    fn evaluate(&mut self, deal: &Deal, node: NodeId) -> Result<i32> {
        let program = self.program.as_ref().expect("a current deal implies a program");
        let job = self.job.as_mut().expect("a current deal implies a job");
        job.evaluation(program, deal).value(node)
    }

    /// All 20 double-dummy results of `deal`, or of the current deal when `deal` is `None`, with
    /// the par result for a vulnerability when one is asked for. Results of the current deal are
    /// shared with `dds()`, `par()` and the other script functions.
    pub fn dd_table(
        &mut self,
        deal: Option<&Deal>,
        par: Option<Vulnerability>,
    ) -> Result<(crate::dd::DdTable, Option<crate::dd::Par>)> {
        let solve = |dd: &mut DdCache, deal: &Deal| -> std::result::Result<_, crate::dd::DdError> {
            let table = dd.table(deal)?;
            let par = par.map(|v| dd.par(deal, Some(v)).cloned()).transpose()?;
            Ok((table, par))
        };
        match deal {
            Some(deal) => {
                if !deal.is_complete() {
                    return Err(Error::new(ErrorKind::Usage, INCOMPLETE_DEAL));
                }
                let o = &self.options;
                let dds = &self.double_dummy;
                let dd = self.own_dd.get_or_insert_with(|| {
                    DdCache::new(SolverPool::new(1, o.dds_table_memory, dds.clone()), true, o.par_vulnerability)
                });
                Ok(solve(dd, deal)?)
            }
            None => {
                let deal = self
                    .current
                    .ok_or_else(|| Error::new(ErrorKind::Usage, "no current deal: call next_deal first"))?;
                let job = self.job.as_mut().expect("a current deal implies a job");
                Ok(solve(&mut job.dd, &deal)?)
            }
        }
    }

    /// A session with `options` and a program compiled already (`script_text` is its source,
    /// for the excerpts of errors), stopped by `interrupter`: the session a practice run deals
    /// one hand type or one scenario with.
    pub fn with_program(options: Options, program: Program, script_text: &[u8], interrupter: Interrupter) -> Session {
        let mut session = Session::new();
        session.interrupter = interrupter;
        session.options = options;
        session.program = Some(program);
        session.script_text = script_text.to_vec();
        session.apply_format();
        session
    }

    /// Adds a scenario to the board set a run mixes (see [`crate::practice`]): it is compiled
    /// now, under the session's dialect, so that its errors name it at once. Refuses a weight
    /// that is negative or not finite, and an empty name.
    pub fn add_mix_scenario(&mut self, scenario: MixScenario) -> Result<()> {
        let name = &scenario.name;
        if name.is_empty() {
            return Err(Error::new(ErrorKind::Usage, "a mixed scenario needs a name"));
        }
        if !scenario.weight.is_finite() || scenario.weight < 0.0 {
            return Err(Error::new(
                ErrorKind::Usage,
                format!("{name}: a weight of 0 or more, got {}", scenario.weight),
            ));
        }
        self.check_script_size(scenario.text.len() as u64)?;
        Program::from_source(&scenario.text, self.options.dialect(), &self.options.script_vars)
            .map_err(|e| e.with_source(&scenario.text).in_scenario(name))?;
        self.mix.push(scenario);
        Ok(())
    }

    /// The scenarios added for a mixed board set.
    pub fn mix_scenarios(&self) -> &[MixScenario] {
        &self.mix
    }

    /// Forgets the scenarios added for a mixed board set.
    pub fn clear_mix(&mut self) {
        self.mix.clear();
    }

    /// Runs the actions of `program` (a mixed set's records) on `boards` as
    /// [`Session::run_given`] does, the loaded script left as it is.
    pub fn run_given_with(&mut self, program: Program, boards: GivenBoards) -> Result<RunReport> {
        let loaded = self.program.replace(program);
        let script_actions = self.script_actions.take();
        self.apply_format();
        let result = self.run_given(boards);
        self.program = loaded;
        self.script_actions = script_actions;
        result
    }

    /// Writes `text` to the diagnostics stream (errors ignored, as for the run's own notices).
    pub fn write_diagnostics(&mut self, text: &[u8]) {
        let _ = self.sinks[Stream::Diagnostics as usize].get_or_insert(Sink::Stderr).write_all(text);
    }

    /// The loaded program, if any.
    pub fn loaded_program(&self) -> Option<&Program> {
        self.program.as_ref()
    }

    /// The loaded script's text.
    pub fn script_text(&self) -> &[u8] {
        &self.script_text
    }

    /// The deals generated and produced so far by the job [`Session::next_deal`] deals from
    /// (`(0, 0)` before it starts).
    pub fn dealt_so_far(&self) -> (i64, i64) {
        self.job.as_ref().map_or((0, 0), |job| (job.generated, job.produced))
    }

    /// The share of all deals among those the job [`Session::next_deal`] deals from generates:
    /// 1 unless smart dealing deals a seat from its table, whose share of the seat's hands it
    /// then is (`None` when that share is unknown, with spot cards). Produced over generated,
    /// times this, is the condition's share of all deals.
    pub fn generated_share(&self) -> Option<f64> {
        let Some(job) = &self.job else { return Some(1.0) };
        let spots = self
            .program
            .as_ref()
            .is_some_and(|p| predeal_in_force(&self.options, p).is_ok_and(|(_, spots)| !spots.is_empty()));
        match job.smart_counts.iter().find(|c| c.dealt_from_table) {
            None => Some(1.0),
            Some(count) if count.share_under_bias.is_some() => count.share_under_bias,
            Some(_) if spots => None,
            Some(count) => Some(count.accepted as f64 / count.possible as f64),
        }
    }

    /// The exact count of the hands that satisfy the condition, when it reads one seat's hand
    /// alone (see [`exact_count`]); `None` otherwise.
    pub fn exact_count(&self) -> Result<Option<ExactCount>> {
        let program = self.program()?;
        let (predeal, spots) = predeal_in_force(&self.options, program)?;
        let setup = DealingSetup {
            predeal,
            spots,
            bias: program.settings.bias,
            swap: self.options.swap,
            ..DealingSetup::default()
        };
        Ok(exact_count(program, &setup))
    }

    /// Runs the actions of the loaded script on `boards.deals`, in order, as a run that produced
    /// them (the condition is not judged again; see [`GivenBoards`]): boards numbered by
    /// position, the end-of-run report as usual.
    pub fn run_given(&mut self, boards: GivenBoards) -> Result<RunReport> {
        let GivenBoards { deals, labels, hand_types, dd, generated, started, seconds_before } = boards;
        // Nothing is dealt here: no seat table is worth counting.
        let smart = std::mem::replace(&mut self.options.smart, false);
        let job = self.start_job(SeatSet::ALL, None);
        self.options.smart = smart;
        let mut job = job?;
        job.parallel = None;
        job.lookahead = None;
        job.max_produce = deals.len() as i64;
        job.max_generate = i64::MAX;
        job.generated = generated;
        let mut dd = dd.into_iter();
        let given = deals.into_iter().enumerate().map(move |(index, deal)| {
            Ok(Given::Deal(GivenDeal { deal, label: labels.get(index).cloned(), number: None, dd: dd.next() }))
        });
        job.given = Some(GivenDeals::new(Box::new(given), hand_types, None));
        job.seconds_before = seconds_before;
        self.run_started_job(job, started)
    }

    /// Runs the whole job: deals, actions and the end-of-run report, writing to the sinks. A
    /// ceiling (see [`Options::ceilings`]) stops it early and cleanly: [`RunReport::ceiling`].
    pub fn run(&mut self) -> Result<RunReport> {
        let started = Instant::now();
        self.forget_last_summary();
        let program = self.program()?;
        // Records are written whole, deal by deal; the precision rule looks at the statistics
        // after every deal, in deal order (not added up by chunk); otherwise the actions say
        // what they read.
        let job = if self.options.zrd_output.is_some() || self.options.dl52_output.is_some() {
            self.start_job(SeatSet::ALL, None)
        } else if self.options.precision.is_some() {
            self.start_job(program.action_seats(), None)
        } else {
            self.start_job(program.action_seats(), Statistics::for_run(program))
        };
        self.run_started_job(job?, started)
    }

    /// Runs a job [`Session::start_job`] started (at `started`, which the wall-time ceiling
    /// counts from) to its end with the loaded program and the session's sinks.
    pub(super) fn run_started_job(&mut self, mut job: Job, started: Instant) -> Result<RunReport> {
        job.hard_deadline = self.options.ceilings().time.and_then(|t| started.checked_add(t));
        self.job = None;
        self.current = None;
        self.last_seed = Some(job.seed);
        let program = self.program.take().expect("start_job checked it");
        let mut sinks = std::mem::take(&mut self.sinks);
        let result = run_job(&program, &self.options, &mut job, &mut sinks, started);
        self.last_summary = String::from_utf8_lossy(&job.summary_json).trim_end().to_string();
        self.sinks = sinks;
        self.program = Some(program);
        result
    }
}
