//! One job: options, the loaded program, the dealing loop with its counters, the per-run action
//! state and the end-of-run report. This is the whole engine behind the C API: `capi` only
//! converts arguments and results.
//!
//! Data flows one way: options + script → [`Program`] → [`Dealer`] → evaluation → actions →
//! [`Sink`]s. Output is buffered and handed to the sinks in large pieces; whatever was written
//! before an error stays written (the buffer is flushed before the error is returned).

use std::collections::HashMap;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use crate::actions::{
    self, Average, BucketFrequency1D, BucketFrequency2D, EsItem, EvalContractTally, Frequency1D, Frequency2D, PbnInfo,
    PrintState, ProgressMeter, ReportCell, RunSummary,
};
use crate::cards::{Card, Deal, Seat, SeatSet, Suit};
use crate::dd::zrd::{LibraryReader, OutputSpec};
use crate::dd::{BatchItem, DdCache, DdTable, DealResults, Need, SolverPool, TableMemory};
use crate::dealing::{Dealer, DealingSetup, GeneratorKind};
use crate::dialect::Dialect;
use crate::error::{Error, ErrorKind, Result};
use crate::external::dealer_server::{DealerServer, ServerConfig};
use crate::external::opc::{Opc, OpcConfig};
use crate::external::usereval::{ExternalMetrics, Metric, UserEval};
use crate::job::parallel::{Event, ParallelDealing, Summary};
use crate::program::deal_expr::{DealExpr, StagedCondition};
use crate::program::eval::Evaluation;
use crate::program::{CompiledAction, EsPart, ExternalCall, NodeId, Program, ReportPart};
use crate::script::{self, ast::Statement, ast::Vulnerability, ScriptVars};

/// A caller-supplied writer of output bytes; an `Err` stops the run.
pub type WriteFn = Box<dyn FnMut(&[u8]) -> std::io::Result<()> + Send>;

/// Where one stream of output goes.
pub enum Sink {
    /// The process's standard output.
    Stdout,
    /// The process's standard error.
    Stderr,
    /// A file opened by the session (`-C`, `-X`).
    File(std::fs::File),
    /// A caller-supplied writer, e.g. a C callback; an `Err` stops the run.
    Callback(WriteFn),
    /// An open file descriptor of the caller's (the session writes to it but never closes it).
    Descriptor(std::os::fd::RawFd),
}

impl Sink {
    fn write_all(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        if bytes.is_empty() {
            return Ok(());
        }
        match self {
            Sink::Stdout => {
                let mut out = std::io::stdout().lock();
                out.write_all(bytes)?;
                out.flush()
            }
            Sink::Stderr => std::io::stderr().lock().write_all(bytes),
            Sink::File(f) => f.write_all(bytes),
            Sink::Callback(cb) => cb(bytes),
            Sink::Descriptor(fd) => write_fd_without_sigpipe(*fd, bytes),
        }
    }
}

/// Writes all of `bytes` to the caller's descriptor `fd` (a file, pipe or socket) such that a
/// pipe or socket whose reading end is closed gives an `EPIPE` error instead of killing the
/// host with SIGPIPE, leaving the host's signal dispositions and mask as they were: SIGPIPE is
/// blocked in this thread around the write, and one raised by the write (not pending before)
/// is consumed before the mask is restored.
fn write_fd_without_sigpipe(fd: std::os::fd::RawFd, bytes: &[u8]) -> std::io::Result<()> {
    // SAFETY: the sigset_t values are initialised by sigemptyset/pthread_sigmask/sigpending
    // before they are read; the caller keeps `fd` open while it is set (checked open when set)
    // and `bytes` is a valid slice for the writes.
    unsafe {
        let mut pipe_only: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut pipe_only);
        libc::sigaddset(&mut pipe_only, libc::SIGPIPE);
        let mut old_mask: libc::sigset_t = std::mem::zeroed();
        let blocked = libc::pthread_sigmask(libc::SIG_BLOCK, &pipe_only, &mut old_mask) == 0;
        let pending_before = blocked && sigpipe_pending();
        let mut rest = bytes;
        let mut result = Ok(());
        while !rest.is_empty() {
            let n = libc::write(fd, rest.as_ptr().cast(), rest.len());
            if n < 0 {
                let e = std::io::Error::last_os_error();
                if e.kind() == std::io::ErrorKind::Interrupted {
                    continue;
                }
                result = Err(e);
                break;
            }
            if n == 0 {
                result = Err(std::io::Error::from(std::io::ErrorKind::WriteZero));
                break;
            }
            rest = &rest[n as usize..];
        }
        if blocked {
            if !pending_before && sigpipe_pending() {
                let no_wait = libc::timespec { tv_sec: 0, tv_nsec: 0 };
                libc::sigtimedwait(&pipe_only, std::ptr::null_mut(), &no_wait);
            }
            libc::pthread_sigmask(libc::SIG_SETMASK, &old_mask, std::ptr::null_mut());
        }
        result
    }
}

/// Whether a SIGPIPE is pending for this thread or the process.
fn sigpipe_pending() -> bool {
    // SAFETY: sigpending fills the set before sigismember reads it.
    unsafe {
        let mut pending: libc::sigset_t = std::mem::zeroed();
        libc::sigpending(&mut pending) == 0 && libc::sigismember(&pending, libc::SIGPIPE) == 1
    }
}

/// The output streams of a session.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    /// Deals, reports and statistics (stdout).
    Output,
    /// Messages and the progress meter (stderr).
    Diagnostics,
    /// `csvrpt` records when no `-C` file is set (default: the output stream).
    Csv,
    /// `export` lines when no `-X` file is set (default: the output stream).
    Export,
}

/// Session options, settable by key and value (see [`Session::set_option`]).
#[derive(Clone, Debug)]
pub struct Options {
    /// Random generator (and dealing algorithm).
    pub generator: GeneratorKind,
    /// Dialect; `None` follows the generator (glibc → classic, others → DealerV2).
    pub dialect: Option<Dialect>,
    /// Seed (`-s`).
    pub seed: Option<i64>,
    /// Maximum deals generated (`-g`); 0 is the default, [`GENERATE_NOTHING`] no deal at all.
    pub generate: Option<i64>,
    /// Maximum deals produced (`-p`).
    pub produce: Option<i64>,
    /// Title (`-T`).
    pub title: Option<String>,
    /// Swapping mode 0, 2 or 3 (`-x`, classic `-2`/`-3`).
    pub swap: u8,
    /// Suppress `printpbn` (`-q`).
    pub quiet: bool,
    /// Print the end-of-run statistics (`-v` toggles it off).
    pub statistics: bool,
    /// Progress meter on the diagnostics stream (`-m`).
    pub progress: bool,
    /// `csvrpt` file and whether to truncate it (`-C [w:]file`).
    pub csv_file: Option<(String, bool)>,
    /// `export` file (`-X`).
    pub export_file: Option<String>,
    /// Command-line predeal per seat (`-N -E -S -W`).
    pub predeal: [Option<String>; 4],
    /// Script variables `$0`..`$9`.
    pub script_vars: ScriptVars,
    /// Input file name as shown in PBN `[Event]` (`None`: standard input).
    pub input_name: Option<String>,
    /// Classic `-t`: seconds after which a run that has produced nothing stops (0: no limit).
    pub time_limit: u64,
    /// DealerV2's DDS mode (`-M`): 1 solves each result asked for, 2 whole tables. Features that
    /// need tables (`par`, `trix`, `parcontract`, ZRD files) use mode 2 whatever is set.
    pub dds_mode: u8,
    /// Threads for double-dummy batches (`-R`); 0 = one per available core, at most 64.
    pub threads: usize,
    /// The most transposition-table memory each double-dummy solver thread uses (`dds_table_mb`).
    pub dds_table_memory: TableMemory,
    /// The vulnerability `par(side)` and `parcontract` use when the script names none (`-P`).
    pub par_vulnerability: Vulnerability,
    /// DealerV2's library mode (`-L`): deals and their double-dummy results come from this ZRD file.
    pub library_file: Option<String>,
    /// Each produced deal is written to this ZRD file with its 20 results (`-Z [w][N]:file`).
    pub zrd_output: Option<OutputSpec>,
    /// Each produced deal is written to this file as 52 card bytes (`-l [w]:file`).
    pub dl52_output: Option<OutputSpec>,
    /// Other peer options, kept by name: `server` (the DealerServer program, `-U`), `opener`
    /// (`-O`), `opc_program` (DealerV2's `dop`), `debug` (`-D`).
    pub extra: HashMap<String, String>,
    /// How long a DealerServer query or an `opc` run may take before the run stops.
    pub external_timeout: std::time::Duration,
    /// Untrusted scripts (`untrusted`): the script may not start external programs (`opc`,
    /// `usereval` through a DealerServer; an in-process metric is fine), and the ceilings below
    /// default to [`UNTRUSTED_MAX_SECONDS`], [`UNTRUSTED_MAX_GENERATE`] and
    /// [`UNTRUSTED_MAX_OUTPUT_BYTES`]. See [`Options::ceilings`].
    pub untrusted: bool,
    /// Wall-time ceiling of a run, and of each `next_deal` call (`max_seconds`): `None` follows
    /// `untrusted`, zero is no ceiling.
    pub max_seconds: Option<std::time::Duration>,
    /// Ceiling on the deals a run generates, over the script's `generate` and the `generate`
    /// option (`max_generate`): `None` follows `untrusted`, 0 is no ceiling.
    pub max_generate: Option<i64>,
    /// Ceiling on the bytes a run writes, diagnostics aside (`max_output_bytes`): `None` follows
    /// `untrusted`, 0 is no ceiling.
    pub max_output_bytes: Option<u64>,
    /// The longest script accepted, in bytes (`max_script_bytes`; default
    /// [`DEFAULT_MAX_SCRIPT_BYTES`]), checked before a script is read or copied.
    pub max_script_bytes: u64,
}

/// The default of the `max_script_bytes` option: 16 MiB (real scripts are a few KB).
pub const DEFAULT_MAX_SCRIPT_BYTES: u64 = 16 << 20;

impl Default for Options {
    fn default() -> Self {
        Options {
            generator: GeneratorKind::ChaCha,
            dialect: None,
            seed: None,
            generate: None,
            produce: None,
            title: None,
            swap: 0,
            quiet: false,
            statistics: true,
            progress: false,
            csv_file: None,
            export_file: None,
            predeal: Default::default(),
            script_vars: Default::default(),
            input_name: None,
            time_limit: 0,
            dds_mode: 1,
            threads: 0,
            dds_table_memory: TableMemory::DEFAULT,
            par_vulnerability: Vulnerability::None,
            library_file: None,
            zrd_output: None,
            dl52_output: None,
            extra: HashMap::new(),
            external_timeout: std::time::Duration::from_secs(30),
            untrusted: false,
            max_seconds: None,
            max_generate: None,
            max_output_bytes: None,
            max_script_bytes: DEFAULT_MAX_SCRIPT_BYTES,
        }
    }
}

impl Options {
    /// The number of threads double-dummy batches use: with `threads` 0, one per available core
    /// up to the most a session may use (64).
    pub fn dd_threads(&self) -> usize {
        match self.threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get().min(MAX_THREADS)),
            n => n,
        }
    }

    /// The dialect in force.
    pub fn dialect(&self) -> Dialect {
        self.dialect.unwrap_or(match self.generator {
            GeneratorKind::Glibc => Dialect::Classic,
            _ => Dialect::V2,
        })
    }

    /// The ceilings in force: each one set by its option, else the untrusted default when
    /// `untrusted` is on, else none.
    pub fn ceilings(&self) -> Ceilings {
        let untrusted = self.untrusted;
        Ceilings {
            time: match self.max_seconds {
                Some(t) => Some(t).filter(|t| !t.is_zero()),
                None => untrusted.then_some(UNTRUSTED_MAX_SECONDS),
            },
            generate: match self.max_generate {
                Some(n) => Some(n).filter(|&n| n > 0),
                None => untrusted.then_some(UNTRUSTED_MAX_GENERATE),
            },
            output_bytes: match self.max_output_bytes {
                Some(n) => Some(n).filter(|&n| n > 0),
                None => untrusted.then_some(UNTRUSTED_MAX_OUTPUT_BYTES),
            },
        }
    }
}

/// The wall-time ceiling of a run under `untrusted` unless `max_seconds` says otherwise: ten
/// seconds are far more than a practice script needs (a typical script finds its deals in well
/// under a second) and short enough that a server stays responsive.
pub const UNTRUSTED_MAX_SECONDS: std::time::Duration = std::time::Duration::from_secs(10);

/// The ceiling on generated deals under `untrusted` unless `max_generate` says otherwise: the
/// peers' own default `generate`, so a script can ask for no more than a default run deals.
pub const UNTRUSTED_MAX_GENERATE: i64 = 10_000_000;

/// The ceiling on output bytes under `untrusted` unless `max_output_bytes` says otherwise: 1 MiB
/// holds about 13,000 `printoneline` deals or 3,000 `printall` deals, more than anyone reads,
/// and stays small for a server to hold and send.
pub const UNTRUSTED_MAX_OUTPUT_BYTES: u64 = 1 << 20;

/// The ceilings of a run (see [`Options::ceilings`]); `None` is no ceiling.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ceilings {
    /// Wall time of a run (of each `next_deal` call).
    pub time: Option<std::time::Duration>,
    /// Deals generated; the script's `generate` and `produce` above it are capped.
    pub generate: Option<i64>,
    /// Bytes written to the output, csv and export streams and the ZRD/DL52 record files.
    pub output_bytes: Option<u64>,
}

/// The ceiling that stopped a run early (see [`RunReport::ceiling`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ceiling {
    /// The wall-time ceiling (`max_seconds`) passed.
    Time,
    /// The run generated as many deals as the ceiling (`max_generate`) allows, fewer than its
    /// `generate` asked for.
    Generate,
    /// The next output would have gone past the ceiling (`max_output_bytes`): the deal was not
    /// written (the end-of-run report is cut after its last whole line that fits).
    Output,
}

/// What a finished run reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunReport {
    /// Deals generated.
    pub generated: i64,
    /// Deals produced (accepted by the condition).
    pub produced: i64,
    /// The seed as the peers print it.
    pub seed: u64,
    /// Whether the time limit stopped the run before any deal was produced (classic `-t`).
    pub timed_out: bool,
    /// The ceiling that stopped the run early, if one did; the output written is whole (see
    /// [`Ceiling`]).
    pub ceiling: Option<Ceiling>,
}

/// glibc's drand48 state before any seeding (`rnd()` in DealerV2's library mode).
const UNSEEDED_DRAND48: u64 = 0x1234_ABCD_330E;

/// Deals needing double-dummy results per thread in one batch, when the condition needs them.
const DEALS_PER_THREAD_IN_A_BATCH: usize = 16;

/// The same when only actions need them (every deal in the batch is certain to be produced):
/// larger batches leave threads idle less often at the end of a batch.
const CERTAIN_DEALS_PER_THREAD_IN_A_BATCH: usize = 64;

/// The most threads a session's double-dummy batches may use.
const MAX_THREADS: usize = 64;

/// How many distinct `eval` expressions a session keeps compiled before starting afresh.
const MAX_CACHED_EXPRESSIONS: usize = 1024;

/// How many expressions `compile_expression` keeps for one script.
const MAX_COMPILED_EXPRESSIONS: usize = 65_536;

/// Most deals a run may keep for `print(compass…)`, which prints them all at the end (32 MB).
const MAX_KEPT_DEALS: i64 = 1_000_000;

/// Stops a session's runs from another thread or from a signal handler (it only stores to an
/// atomic flag). An interruption stops the run in progress, or the next one, at the next deal
/// (or at once while the run waits for the DealerServer or the DOP program):
/// the run ends with an [`ErrorKind::Interrupted`] error after writing out the output of the
/// deals before, so every line written is complete. Each interruption stops one run.
#[derive(Clone, Debug, Default)]
pub struct Interrupter(Arc<AtomicBool>);

impl Interrupter {
    /// Asks the session to stop (async-signal-safe: one atomic store).
    pub fn interrupt(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// An error if an interruption is pending, which it consumes.
    pub(crate) fn check(&self) -> Result<()> {
        if self.0.load(Ordering::Relaxed) && self.0.swap(false, Ordering::Relaxed) {
            return Err(Error::new(ErrorKind::Interrupted, "interrupted"));
        }
        Ok(())
    }
}

/// The dealing loop's state: dealer, double-dummy cache and counters.
struct Job {
    /// The session's interruption flag, looked at every produced deal and every generated one
    /// (every 4096th when a deal expression judges them).
    interrupter: Interrupter,
    dealer: Dealer,
    dd: DdCache,
    /// Deals dealt ahead, when double-dummy results are solved in batches across threads.
    lookahead: Option<Lookahead>,
    /// Library mode: the file deals come from instead of the dealer.
    library: Option<LibraryReader>,
    /// Setup features library mode discards, for DealerV2's `ERR**` notices.
    library_discards: Vec<&'static str>,
    /// The feature that switched DealerV2's DDS mode 1 to table mode, for the notice.
    table_mode_notice: Option<&'static str>,
    /// `usereval` and `opc`, set up when the job starts.
    external: ExternalMetrics,
    /// The seats the condition reads: the only ones dealt before it is judged.
    condition_seats: SeatSet,
    /// The seats whoever takes the produced deals reads (all four for `next_deal`; a run's
    /// actions may read fewer): an accepted deal is completed only that far.
    produced_seats: SeatSet,
    /// Worker threads dealing and judging the deals, when the run allows it.
    parallel: Option<ParallelDealing<Statistics>>,
    /// The condition compiled as a deal expression judged seat by seat, when it is one.
    fast_condition: Option<StagedCondition>,
    generated: i64,
    produced: i64,
    max_generate: i64,
    max_produce: i64,
    /// The seed the job deals with (its block offset in library mode).
    seed: i64,
    seed_printed: u64,
    timed_out: bool,
    /// The wall-time ceiling: past it the job stops at the next deal (see [`Ceiling::Time`]).
    hard_deadline: Option<Instant>,
    /// Whether the generate ceiling lowered `max_generate`.
    generate_capped: bool,
    /// The ceiling that stopped the job, once one has.
    ceiling: Option<Ceiling>,
}

/// What the dealing loop gets next.
enum Produced {
    /// A produced deal.
    Deal(Deal),
    /// The statistics of several produced deals, added up by the dealing threads.
    Summary(Statistics),
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
    fn next_produced(&mut self, program: &Program, deadline: Option<Instant>) -> Result<Option<Produced>> {
        if self.parallel.is_some() {
            return self.next_from_workers(deadline);
        }
        Ok(self.next_accepted(program, deadline)?.map(Produced::Deal))
    }

    /// Deals until a deal satisfies the condition and counts it as produced. `None` when the
    /// generate or produce limit is reached, or when `deadline` passed before anything was
    /// produced (then `timed_out` is set).
    fn next_accepted(&mut self, program: &Program, deadline: Option<Instant>) -> Result<Option<Deal>> {
        if self.parallel.is_some() {
            return match self.next_from_workers(deadline)? {
                Some(Produced::Deal(deal)) => Ok(Some(deal)),
                Some(Produced::Summary(_)) => {
                    Err(Error::new(ErrorKind::Run, "internal error: statistics where deals were asked for"))
                }
                None => Ok(None),
            };
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
                self.next_ahead(program)
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

    /// An evaluation of `deal` with this job's dealer, counters, solver and external metrics.
    fn evaluation<'a>(&'a mut self, program: &'a Program, deal: &'a Deal) -> Evaluation<'a> {
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

    /// Judges `deal`, the deal just generated, with the condition `c` through the evaluator.
    fn judge(&mut self, program: &Program, c: NodeId, deal: &Deal) -> Result<bool> {
        self.evaluation(program, deal).truth(c)
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
                    return Ok(Some(Produced::Summary(summary)));
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

    /// The next deal dealt ahead; deals a new batch when none is left.
    fn next_ahead(&mut self, program: &Program) -> Ahead {
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
        for (position, item) in positions.into_iter().zip(batch) {
            // A failed solve is repeated, and reported, when the loop needs the result.
            if item.error.is_none() {
                lookahead.queue[position].results = Some(item.results);
            }
        }
        let (positions, mut batch): (Vec<usize>, Vec<BatchItem>) = second.into_iter().unzip();
        self.dd.pool().solve_batch(&mut batch);
        for (position, item) in positions.into_iter().zip(batch) {
            if item.error.is_none() {
                lookahead.queue[position].results = Some(item.results);
            }
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
enum Verdict {
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
struct Ahead {
    /// The deal (`None`: the generator rejected the attempt).
    deal: Option<Deal>,
    verdict: Verdict,
    /// The dealer right after this deal, when producing this deal would change the deals after it.
    dealer_after: Option<Box<Dealer>>,
    /// Double-dummy results solved in the batch.
    results: Option<DealResults>,
}

impl Ahead {
    fn unknown(deal: Option<Deal>) -> Ahead {
        Ahead { deal, verdict: Verdict::Unknown, dealer_after: None, results: None }
    }
}

/// Deals dealt ahead so that their double-dummy results are solved together across threads.
struct Lookahead {
    queue: std::collections::VecDeque<Ahead>,
    /// Deals needing double-dummy results per batch.
    batch: usize,
    /// What the condition may read.
    condition_need: Need,
    /// What the actions may read on a produced deal.
    action_need: Need,
}

/// The most deals dealt ahead at once (bounds the memory of a lookahead).
const MAX_DEALT_AHEAD: usize = 1 << 16;

/// The error for a text given as an expression (`dealer_eval`, `dealer_compile_expression`)
/// that is a statement or several.
const NOT_A_STATEMENT: &str =
    "expected a single expression, not a statement: write `hcp(north) > 10`, not `condition hcp(north) > 10`";

/// One libdealer session: options, a loaded program, and the state of its current job.
pub struct Session {
    options: Options,
    program: Option<Program>,
    job: Option<Job>,
    current: Option<Deal>,
    sinks: [Option<Sink>; 4],
    /// Expressions compiled for [`Session::eval`] and [`Session::compile_expression`].
    expressions: ExtraExpressions,
    /// A solver for deals the caller passes in (created on first use).
    own_dd: Option<DdCache>,
    /// Builds the caller's `usereval` metric for each job, when one is set.
    in_process_metric: Option<MetricMaker>,
    /// Stops runs from outside (see [`Session::interrupter`]).
    interrupter: Interrupter,
    /// The seed of the last job, until an option or the script is set (see [`Session::seed`]).
    last_seed: Option<i64>,
    /// The loaded script's text, for the excerpt of errors found after loading.
    script_text: Vec<u8>,
}

/// Builds a `usereval` metric for a job.
pub type MetricMaker = Box<dyn Fn() -> Box<dyn Metric> + Send>;

/// DealerV2's DealerServer program, used when no `server` option is set.
const DEFAULT_SERVER: &str = "/usr/local/games/DealerV2_4/bin/DealerServer";

/// DealerV2's DOP program, used by `opc()` when no `opc_program` option is set.
const DEFAULT_OPC_PROGRAM: &str = "/usr/local/games/DealerV2_4/bin/dop";

impl Default for Session {
    fn default() -> Self {
        Session::new()
    }
}

/// Every key [`Session::set_option`] accepts, and nothing else. The `dealer_set_option` comment
/// in src/ffi/ (and so include/dealer.h) and the README's function table list the same keys:
/// tests compare them, so a new key needs an arm in `set_option`, an entry here and a line in
/// both documents.
pub const OPTION_KEYS: &[&str] = &[
    "rng",
    "generator",
    "dialect",
    "seed",
    "generate",
    "produce",
    "time_limit",
    "threads",
    "dds_table_mb",
    "title",
    "input_name",
    "swap",
    "quiet",
    "statistics",
    "progress",
    "csv_file",
    "export_file",
    "predeal_north",
    "predeal_east",
    "predeal_south",
    "predeal_west",
    "var0",
    "var1",
    "var2",
    "var3",
    "var4",
    "var5",
    "var6",
    "var7",
    "var8",
    "var9",
    "dds_mode",
    "par_vulnerability",
    "library_file",
    "zrd_file",
    "dl52_file",
    "server",
    "external_timeout",
    "opc_program",
    "opener",
    "debug",
    "untrusted",
    "max_seconds",
    "max_generate",
    "max_output_bytes",
    "max_script_bytes",
];

/// Parses a decimal integer the way C's `atol` does: leading blanks, an optional sign, digits;
/// trailing text ignored; no digits gives 0; overflow saturates.
pub fn atol(text: &str) -> i64 {
    let t = text.trim_start();
    let (neg, digits) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let mut v: i64 = 0;
    for b in digits.bytes().take_while(u8::is_ascii_digit) {
        v = match v.checked_mul(10).and_then(|v| v.checked_add((b - b'0') as i64)) {
            Some(v) => v,
            None => return if neg { i64::MIN } else { i64::MAX },
        };
    }
    if neg {
        -v
    } else {
        v
    }
}

/// Parses the value of a whole-number option: an optional sign and decimal digits, nothing else
/// (no blanks, no trailing text), within the range of a 64-bit integer. Unlike [`atol`], text
/// such as `abc` or `12abc` is an error, not 0 or 12.
fn parse_whole(key: &str, value: &str) -> Result<i64> {
    value.parse::<i64>().map_err(|_| {
        Error::new(
            ErrorKind::Option,
            format!("option {key}: expected a whole number from {} to {}, got '{value}'", i64::MIN, i64::MAX),
        )
    })
}

/// `Options::generate` when the `generate` option is `nothing`: the run generates no deal (what
/// the peers do with a negative `-g` or `-p`, which the CLI converts to it).
pub const GENERATE_NOTHING: i64 = -1;

/// The largest `max_seconds` accepted (a year): beyond it a deadline is no longer a point in time
/// for every clock.
const MAX_CEILING_SECONDS: f64 = 365.0 * 86_400.0;

/// Refuses, for an untrusted script, the first call among `nodes` that would start an external
/// program: `opc()`, and `usereval()` when `usereval` is set (no in-process metric). The error
/// points at the call in `source`, the text the nodes were compiled from.
fn refuse_external_calls(
    program: &Program,
    nodes: std::ops::Range<usize>,
    usereval: bool,
    source: &[u8],
) -> Result<()> {
    let Some((call, pos)) = program.first_external_call(nodes, usereval) else { return Ok(()) };
    let why = match call {
        ExternalCall::Opc => "it runs an external program",
        ExternalCall::UserEval => "it runs an external DealerServer and no in-process metric is set",
    };
    let message = format!("{}() is not allowed in an untrusted script: {why}", call.name());
    Err(Error::new(ErrorKind::NotAllowed, message).at(pos.line, pos.col).with_source(source))
}

/// Checks the value of a file option: any text but the empty string.
fn non_empty_path(key: &str, value: &str) -> Result<String> {
    if value.is_empty() {
        return Err(Error::new(ErrorKind::Option, format!("option {key}: expected a file name, got ''")));
    }
    Ok(value.to_string())
}

/// Parses the `debug` option, `n` or `n.m` (`n:m` also): n (0 to 99) is the dealer's verbosity,
/// m (0 to 9999) the DealerServer's. Anything else is `None`.
fn parse_debug(value: &str) -> Option<(i32, i32)> {
    let digits = |t: &str, max: i32| {
        (!t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
            .then(|| t.parse::<i32>().ok())
            .flatten()
            .filter(|&n| n <= max)
    };
    match value.split_once(['.', ':']) {
        Some((n, m)) => Some((digits(n, 99)?, digits(m, 9999)?)),
        None => Some((digits(value, 99)?, 0)),
    }
}

/// The longest `-N/-E/-S/-W` text read: DealerV2 reads the first 31 characters (`str_UC`).
const PREDEAL_TEXT_CHARS: usize = 31;

/// Parses one seat's command-line predeal, such as `SAQ,HK765,D-,C97` (case-insensitive): a
/// suit letter (S, H, D, C) starts a suit, ranks (AKQJT98765432) follow it, and commas, blanks
/// and `-` separate. Only the first 31 characters count, as in DealerV2. Any other character, a
/// rank before any suit, or a card given twice is an error (the reason is returned).
fn predeal_cards(text: &str) -> std::result::Result<Vec<Card>, String> {
    let mut suit: Option<Suit> = None;
    let mut cards: Vec<Card> = Vec::new();
    for ch in text.chars().take(PREDEAL_TEXT_CHARS).map(|c| c.to_ascii_uppercase()) {
        match ch {
            'C' => suit = Some(Suit::Clubs),
            'D' => suit = Some(Suit::Diamonds),
            'H' => suit = Some(Suit::Hearts),
            'S' => suit = Some(Suit::Spades),
            ',' | ' ' | '\t' | '-' => {}
            _ => {
                let Some(rank) = crate::cards::RANK_LETTERS.iter().position(|&r| r as char == ch) else {
                    return Err(format!("'{ch}' is not a suit (S, H, D, C) or a rank (AKQJT98765432)"));
                };
                let Some(su) = suit else {
                    return Err(format!("the rank '{ch}' comes before any suit letter (S, H, D, C)"));
                };
                let card = Card::new(su, rank as u8);
                if cards.contains(&card) {
                    return Err("Card predealt twice".to_string());
                }
                cards.push(card);
            }
        }
    }
    if cards.len() > 13 {
        return Err("More than 13 cards for one player".to_string());
    }
    Ok(cards)
}

fn parse_bool(key: &str, value: &str) -> Result<bool> {
    match value {
        "1" | "true" | "yes" | "on" => Ok(true),
        "0" | "false" | "no" | "off" => Ok(false),
        _ => Err(Error::new(ErrorKind::Option, format!("option {key}: expected true or false, got '{value}'"))),
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
            sinks: [None, None, None, None],
            expressions: ExtraExpressions::default(),
            own_dd: None,
            in_process_metric: None,
            interrupter: Interrupter::default(),
            last_seed: None,
            script_text: Vec::new(),
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

    /// Sets an option by key and value. The keys are those of [`OPTION_KEYS`]; what each one
    /// takes is documented with `dealer_set_option` in src/ffi/ (the C header). A refused
    /// key or value leaves the options as they were. The run ceilings of scripts typed by users
    /// (`untrusted`, `max_seconds`, `max_generate`, `max_output_bytes`) are read through
    /// [`Options::ceilings`].
    pub fn set_option(&mut self, key: &str, value: &str) -> Result<()> {
        if !OPTION_KEYS.contains(&key) {
            return Err(Error::new(ErrorKind::Option, format!("unknown option '{key}'")));
        }
        let o = &mut self.options;
        let bad = |what: &str| Error::new(ErrorKind::Option, format!("option {key}: {what} '{value}'"));
        match key {
            "rng" | "generator" => {
                o.generator = match value {
                    "chacha" => GeneratorKind::ChaCha,
                    "drand48" => GeneratorKind::Drand48,
                    "glibc" => GeneratorKind::Glibc,
                    _ => return Err(bad("expected chacha, drand48 or glibc, got")),
                }
            }
            "dialect" => {
                o.dialect = match value {
                    "classic" => Some(Dialect::Classic),
                    "v2" | "dealerv2" => Some(Dialect::V2),
                    _ => return Err(bad("expected classic or v2, got")),
                }
            }
            "seed" => o.seed = Some(parse_whole(key, value)?),
            // 0 is the default (the script's, else the dealer's); a negative count is refused.
            "generate" if value == "nothing" => o.generate = Some(GENERATE_NOTHING),
            "generate" | "produce" => {
                let n = parse_whole(key, value)?;
                if n < 0 {
                    return Err(bad("expected a number of deals, 0 (the default) or more, got"));
                }
                if key == "generate" {
                    o.generate = Some(n)
                } else {
                    o.produce = Some(n)
                }
            }
            "title" => o.title = Some(value.to_string()),
            "swap" => {
                o.swap = match value {
                    "0" => 0,
                    "2" => 2,
                    "3" => 3,
                    _ => return Err(bad("expected 0, 2 or 3, got")),
                }
            }
            "quiet" => o.quiet = parse_bool(key, value)?,
            "statistics" => o.statistics = parse_bool(key, value)?,
            "progress" => o.progress = parse_bool(key, value)?,
            "csv_file" => {
                if value.is_empty() || value == "w:" {
                    return Err(bad("expected a file name, optionally after w:, got"));
                }
                o.csv_file = Some(match value.strip_prefix("w:") {
                    Some(path) => (path.to_string(), true),
                    None => (value.to_string(), false),
                })
            }
            "export_file" => o.export_file = Some(non_empty_path(key, value)?),
            "predeal_north" | "predeal_east" | "predeal_south" | "predeal_west" => {
                let seat = match &key[8..] {
                    "north" => 0,
                    "east" => 1,
                    "south" => 2,
                    _ => 3,
                };
                // An empty value removes the seat's command-line predeal.
                if !value.is_empty() {
                    predeal_cards(value).map_err(|why| bad(&format!("{why}, in")))?;
                }
                o.predeal[seat] = (!value.is_empty()).then(|| value.to_string());
            }
            "input_name" => o.input_name = Some(value.to_string()),
            "time_limit" => {
                o.time_limit = value
                    .parse::<u64>()
                    .map_err(|_| bad("expected a whole number of seconds, 0 (no limit) or more, got"))?
            }
            "dds_mode" => {
                o.dds_mode = match value {
                    "1" => 1,
                    "2" => 2,
                    _ => return Err(bad("expected 1 or 2, got")),
                }
            }
            "threads" => {
                o.threads = match value.parse::<usize>() {
                    Ok(n) if n <= MAX_THREADS => n,
                    _ => return Err(bad("expected a number of threads from 0 (one per core) to 64, got")),
                }
            }
            "dds_table_mb" => {
                o.dds_table_memory = value.parse::<u32>().ok().and_then(TableMemory::new).ok_or_else(|| {
                    bad(&format!(
                        "expected megabytes of solver table per thread from {} to {}, got",
                        TableMemory::LEAST_MB,
                        TableMemory::MOST_MB
                    ))
                })?
            }
            "par_vulnerability" => {
                o.par_vulnerability = match value {
                    "0" | "none" => Vulnerability::None,
                    "1" | "ns" => Vulnerability::NS,
                    "2" | "ew" => Vulnerability::EW,
                    "3" | "both" | "all" => Vulnerability::All,
                    _ => return Err(bad("expected 0 (none), 1 (NS), 2 (EW) or 3 (both), got")),
                }
            }
            "library_file" => o.library_file = Some(non_empty_path(key, value)?),
            "zrd_file" => o.zrd_output = Some(OutputSpec::parse(value).map_err(|m| bad(&m))?),
            "dl52_file" => o.dl52_output = Some(OutputSpec::parse(value).map_err(|m| bad(&m))?),
            "opener" => {
                if !matches!(value, "N" | "E" | "S" | "W" | "n" | "e" | "s" | "w") {
                    return Err(bad("expected N, E, S or W, got"));
                }
                o.extra.insert(key.to_string(), value.to_string());
            }
            "debug" => {
                parse_debug(value).ok_or_else(|| {
                    bad("expected n or n.m (n from 0 to 99 for the dealer, m from 0 to 9999 for the server), got")
                })?;
                o.extra.insert(key.to_string(), value.to_string());
            }
            "server" | "opc_program" => {
                o.extra.insert(key.to_string(), non_empty_path(key, value)?);
            }
            "external_timeout" => {
                o.external_timeout = match value.parse::<f64>() {
                    Ok(seconds) if seconds > 0.0 && seconds <= 86_400.0 => std::time::Duration::from_secs_f64(seconds),
                    _ => return Err(bad("expected a number of seconds above 0, got")),
                }
            }
            "untrusted" => o.untrusted = parse_bool(key, value)?,
            // The ceilings: `default` follows `untrusted`, 0 is no ceiling.
            "max_seconds" => {
                o.max_seconds = match value {
                    "default" => None,
                    _ => match value.parse::<f64>() {
                        Ok(seconds) if (0.0..=MAX_CEILING_SECONDS).contains(&seconds) => {
                            Some(std::time::Duration::from_secs_f64(seconds))
                        }
                        _ => return Err(bad("expected a number of seconds (0: no ceiling) or default, got")),
                    },
                }
            }
            "max_generate" => {
                o.max_generate = match value {
                    "default" => None,
                    _ => Some(
                        value
                            .parse::<i64>()
                            .ok()
                            .filter(|&n| n >= 0)
                            .ok_or_else(|| bad("expected a number of deals (0: no ceiling) or default, got"))?,
                    ),
                }
            }
            "max_output_bytes" => {
                o.max_output_bytes = match value {
                    "default" => None,
                    _ => Some(
                        value
                            .parse::<u64>()
                            .map_err(|_| bad("expected a number of bytes (0: no ceiling) or default, got"))?,
                    ),
                }
            }
            "max_script_bytes" => {
                o.max_script_bytes = value
                    .parse::<u64>()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or_else(|| bad("expected a number of bytes, 1 or more, got"))?
            }
            _ => {
                if let Some(n) = key.strip_prefix("var").and_then(|d| d.parse::<usize>().ok()).filter(|n| *n < 10) {
                    o.script_vars[n] = Some(value.to_string());
                } else {
                    // A key of OPTION_KEYS without an arm above (a test checks there is none).
                    return Err(Error::new(ErrorKind::Option, format!("option '{key}' is listed but not handled")));
                }
            }
        }
        if key == "dds_table_mb" || key == "par_vulnerability" {
            // The solver `dd_table` keeps between calls was made with the old value.
            self.own_dd = None;
        }
        self.job = None;
        self.current = None;
        self.last_seed = None;
        Ok(())
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

    fn program(&self) -> Result<&Program> {
        self.program.as_ref().ok_or_else(|| Error::new(ErrorKind::Usage, "no script loaded"))
    }

    /// Builds the dealer and the limits of a new job from the options and the program, for a
    /// consumer of the produced deals that reads the hands of `produced_seats`; dealing
    /// threads add up `statistics` (empty) by chunk when given.
    fn start_job(&self, produced_seats: SeatSet, statistics: Option<Statistics>) -> Result<Job> {
        let program = self.program()?;
        let o = &self.options;
        if o.untrusted {
            let usereval = self.in_process_metric.is_none();
            refuse_external_calls(program, 0..program.script_node_count(), usereval, &self.script_text)?;
        }
        let dialect = o.dialect();
        let s = &program.settings;
        let narrow = |v: i64| if dialect == Dialect::Classic { v as i32 as i64 } else { v };
        let mut max_generate = match o.generate {
            Some(GENERATE_NOTHING) => 0,
            option => option.filter(|&g| g != 0).or(s.generate).map(narrow).unwrap_or(10_000_000),
        };
        let ceilings = o.ceilings();
        let mut generate_capped = false;
        if let Some(ceiling) = ceilings.generate {
            generate_capped = max_generate > ceiling;
            max_generate = max_generate.min(ceiling);
        }
        let mut max_produce = o
            .produce
            .filter(|&p| p != 0)
            .or(s.produce)
            .map(narrow)
            .unwrap_or(if program.prints_deals { 40 } else { max_generate });
        if let Some(ceiling) = ceilings.generate {
            // No run produces more than it generates.
            max_produce = max_produce.min(ceiling);
        }
        if dialect == Dialect::V2 {
            max_produce = max_produce.min(max_generate);
        }
        if program.actions.iter().any(|a| matches!(a, CompiledAction::PrintPages(_)))
            && max_produce.min(max_generate) > MAX_KEPT_DEALS
        {
            return Err(Error::new(
                ErrorKind::Run,
                format!(
                    "print(...) keeps every produced deal until the run ends: at most {MAX_KEPT_DEALS} deals \
                     (produce {}); lower produce or print each deal with printall",
                    max_produce.min(max_generate)
                ),
            ));
        }

        // A seed the job chooses itself is one that, given back as the `seed` option, deals the
        // same deals (never 0, which would ask for a random seed again).
        let seed_value = match (self.fixed_seed(), o.generator) {
            (Some(v), _) => v,
            // srand48 reads the low 32 bits of its seed (DealerV2 seeds a random start with
            // seed48 instead, which no `-s` value repeats).
            (None, GeneratorKind::Drand48) => (random_u64() % 0xFFFF_FFFF + 1) as i64,
            // Classic dealer seeds with the time.
            // SAFETY: time(NULL) has no preconditions.
            (None, GeneratorKind::Glibc) => (unsafe { libc::time(std::ptr::null_mut()) }) as i64,
            (None, GeneratorKind::ChaCha) => std::iter::repeat_with(random_u64).find(|&v| v != 0).unwrap_or(1) as i64,
        };

        let predeal = match self.command_line_predeal()? {
            Some(cards) => cards,
            None => s.predeal.clone(),
        };
        let setup = DealingSetup {
            generator: o.generator,
            seed: seed_value,
            drand48_state: None,
            predeal,
            bias: s.bias,
            swap: o.swap,
        };
        let mut seed_printed = seed_value as u64;
        let mut library = None;
        let mut library_discards = Vec::new();
        let dealer = match &o.library_file {
            // The script's predeal statements passed their own checks, so a refusal here is a
            // combination no deal can satisfy (cards predealt beyond a bias length, a bias the
            // card predeal makes impossible): a script error at the last predeal statement.
            None => Dealer::new(&setup).map_err(|m| match s.predeal_pos.iter().max_by_key(|p| (p.line, p.col)) {
                Some(pos) if matches!(o.swap, 0 | 2 | 3) => Error::script(m, pos.line, pos.col),
                _ => Error::new(ErrorKind::Run, m),
            }),
            Some(path) => {
                // Library mode beats every other dealing mode: the seed is a block offset into
                // the file, and the dealer only serves `rnd()`, from an unseeded drand48 as in
                // DealerV2.
                let offset = seed_value as u64;
                let reader = LibraryReader::open(path, offset).map_err(|m| Error::new(ErrorKind::Io, m))?;
                if reader.records() as i64 <= max_generate {
                    // The library ends the run, not the ceiling.
                    generate_capped = false;
                }
                max_generate = max_generate.min(reader.records() as i64);
                max_produce = max_produce.min(max_generate);
                seed_printed = reader.start_seed();
                library = Some(reader);
                if !setup.predeal.is_empty() {
                    library_discards.push("predeal");
                }
                if setup.bias.iter().flatten().any(|&b| b >= 0) {
                    library_discards.push("bias predeal");
                }
                if setup.swap != 0 {
                    library_discards.push("swapping");
                }
                Dealer::new(&DealingSetup {
                    generator: GeneratorKind::Drand48,
                    drand48_state: Some(UNSEEDED_DRAND48),
                    ..DealingSetup::default()
                })
                .map_err(|m| Error::new(ErrorKind::Run, m))
            }
        }?;
        let mut dd_use = program.dd_use();
        let zrd_tricks = o.zrd_output.as_ref().is_some_and(|z| !z.no_tricks);
        if zrd_tricks {
            // Every produced deal is written with its whole table.
            dd_use.actions = Need::TABLE;
        }
        let table_mode = o.dds_mode == 2 || dd_use.table_feature.is_some() || zrd_tricks || library.is_some();
        let threads = o.dd_threads();
        let program_seats = program.condition_seats();
        // Dealing ahead pays when batches can use several threads; `rnd()` draws from the
        // dealing stream, so its results would change.
        let lookahead = (threads > 1
            && library.is_none()
            && !(dd_use.condition.is_empty() && dd_use.actions.is_empty())
            && !program.uses_rnd()
            && !program.uses_external_metrics())
        .then(|| Lookahead {
            queue: Default::default(),
            // Deals whose verdict waits for the solver may be dealt in vain (an accepted one
            // ends the batch in drand48 mode); deals only actions need results for never are.
            batch: threads
                * if dd_use.condition.is_empty() {
                    CERTAIN_DEALS_PER_THREAD_IN_A_BATCH
                } else {
                    DEALS_PER_THREAD_IN_A_BATCH
                },
            condition_need: dd_use.condition,
            action_need: dd_use.actions,
        });
        let fast_condition = program
            .condition
            .and_then(|c| DealExpr::compile(program, c))
            .map(|condition| StagedCondition::new(program, condition));
        // Only the seats the condition reads first are dealt before it is judged.
        let program_seats = fast_condition.as_ref().map_or(program_seats, StagedCondition::first_seats);
        // Worker threads deal and judge when every deal's verdict depends on the deal alone.
        let parallel = (threads > 1
            && library.is_none()
            && lookahead.is_none()
            && dd_use.condition.is_empty()
            && dealer.deals_independently()
            && program.condition_reads_only_the_deal())
        .then(|| {
            let program = Arc::new(program.clone());
            let fast = fast_condition.clone();
            let seats = (program_seats, produced_seats);
            ParallelDealing::start(program, fast, &dealer, seats, threads, max_generate.max(0) as u64, statistics)
        })
        .flatten();
        Ok(Job {
            interrupter: self.interrupter.clone(),
            parallel,
            fast_condition,
            dealer,
            lookahead,
            library,
            library_discards,
            dd: DdCache::new(SolverPool::new(threads, o.dds_table_memory), table_mode, o.par_vulnerability),
            table_mode_notice: dd_use.table_feature.filter(|_| o.dds_mode != 2),
            external: self.external_metrics(program)?,
            condition_seats: program_seats,
            produced_seats,
            generated: 0,
            produced: 0,
            max_generate,
            max_produce,
            seed: seed_value,
            seed_printed,
            timed_out: false,
            hard_deadline: None,
            generate_capped,
            ceiling: None,
        })
    }

    /// The seed the next job will use when the options or the script fix it: the `seed` option,
    /// else the script's `seed` statement (DealerV2 dialect; in library mode either dialect);
    /// `None` when the job will choose its seed. Seed 0 asks for a chosen seed, except with the
    /// glibc generator, which takes 0 as classic dealer does, and in library mode, where the
    /// seed is a block offset into the file.
    fn fixed_seed(&self) -> Option<i64> {
        let o = &self.options;
        let script_seed = self.program.as_ref().and_then(|p| p.settings.seed);
        if o.library_file.is_some() {
            return Some(o.seed.or(script_seed).unwrap_or(0).max(0));
        }
        let seed = o.seed.or(if o.dialect() == Dialect::V2 { script_seed } else { None });
        seed.filter(|&v| v != 0 || o.generator == GeneratorKind::Glibc)
    }

    /// The seed of the last job (started by [`Session::run`] or the first
    /// [`Session::next_deal`]) while neither an option nor the script has been set since:
    /// given back as the `seed` option, it deals the same deals. Otherwise the seed the next
    /// job will use when the options or the script fix it, else 0 (the job will choose one).
    pub fn seed(&self) -> i64 {
        self.last_seed.or_else(|| self.fixed_seed()).unwrap_or(0)
    }

    /// Sets up `usereval` (the in-process metric if one is set, else the DealerServer, started
    /// whenever the script mentions `usereval`, as DealerV2 does) and `opc` for a job. Under
    /// `untrusted` only the in-process metric is set up: no program is ever started.
    fn external_metrics(&self, program: &Program) -> Result<ExternalMetrics> {
        let o = &self.options;
        let mut external = ExternalMetrics::default();
        if let Some(make) = &self.in_process_metric {
            external.usereval = Some(UserEval::new(make()));
        } else if program.mentions_usereval && !o.untrusted {
            let config = ServerConfig {
                path: o.extra.get("server").map_or(DEFAULT_SERVER, String::as_str).into(),
                timeout: o.external_timeout,
                interrupter: Some(self.interrupter.clone()),
                // `-D n[.m]`: n for the dealer, m for the server (`.` or `:` between them).
                dealer_debug: o.extra.get("debug").and_then(|d| parse_debug(d)).map_or(0, |(n, _)| n),
                server_debug: o.extra.get("debug").and_then(|d| parse_debug(d)).map_or(0, |(_, m)| m),
            };
            // A server that cannot be started is an error of the script's first usereval call.
            let server = DealerServer::start(config).map_err(|e| match program.first_usereval_call() {
                Some(pos) if e.line.is_none() => e.at(pos.line, pos.col),
                _ => e,
            })?;
            external.usereval = Some(UserEval::new(Box::new(server)));
        }
        if o.untrusted {
            // No external program for an untrusted script (its calls were refused already).
            return Ok(external);
        }
        external.opc = Some(Opc::new(self.opc_config()));
        Ok(external)
    }

    /// How `opc()` runs the DOP program under the current options: `opc_program` (default
    /// DealerV2's path), the opener (`-O`, West unless N, E or S) and `external_timeout`; the
    /// session's interrupter ends a wait for the program.
    fn opc_config(&self) -> OpcConfig {
        let o = &self.options;
        OpcConfig {
            program: o.extra.get("opc_program").map_or(DEFAULT_OPC_PROGRAM, String::as_str).into(),
            opener: o
                .extra
                .get("opener")
                .and_then(|v| v.chars().next())
                .map(|c| c.to_ascii_uppercase())
                .filter(|c| matches!(c, 'N' | 'E' | 'S'))
                .unwrap_or('W'),
            timeout: o.external_timeout,
            interrupter: Some(self.interrupter.clone()),
        }
    }

    /// Evaluates `usereval` with a metric of the caller's instead of a DealerServer: `make`
    /// builds one for each job (`None` goes back to the DealerServer).
    pub fn set_in_process_metric(&mut self, make: Option<MetricMaker>) {
        self.in_process_metric = make;
        self.job = None;
        self.current = None;
    }

    /// The `-N/-E/-S/-W` holdings, which replace every card predeal of the script when given.
    fn command_line_predeal(&self) -> Result<Option<Vec<(Seat, Card)>>> {
        if self.options.predeal.iter().all(Option::is_none) {
            return Ok(None);
        }
        let mut cards: Vec<(Seat, Card)> = Vec::new();
        for seat in Seat::ALL {
            let Some(text) = &self.options.predeal[seat.index()] else { continue };
            // The text was checked when it was set; the checks across seats are made here.
            let seat_cards = predeal_cards(text).map_err(|why| Error::new(ErrorKind::Option, why))?;
            for card in seat_cards {
                if cards.iter().any(|(_, c)| *c == card) {
                    return Err(Error::new(ErrorKind::Option, "Card predealt twice"));
                }
                cards.push((seat, card));
            }
        }
        Ok(Some(cards))
    }

    /// Returns the next deal that satisfies the condition (no actions run), or `None` when the
    /// generate limit (or an explicitly set produce limit) is reached; the deal returned becomes
    /// the current deal of [`Session::eval`]. The generate ceiling lowers the generate limit; the
    /// wall-time ceiling applies to each call, which fails with an [`ErrorKind::Run`] error when
    /// it passes before a deal is found (the next call goes on from there).
    pub fn next_deal(&mut self) -> Result<Option<Deal>> {
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
        let program = self.program.as_ref().expect("job implies program");
        let job = self.job.as_mut().expect("just set");
        let time = self.options.ceilings().time;
        job.hard_deadline = time.and_then(|t| Instant::now().checked_add(t));
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
        let node = id
            .checked_sub(self.expressions.first_id)
            .and_then(|index| self.expressions.pinned.get(index as usize))
            .map(|(_, node)| *node)
            .ok_or_else(|| {
                Error::new(
                    ErrorKind::Usage,
                    format!("unknown expression id {id} (ids are valid until the next script is loaded)"),
                )
            })?;
        let deal = self.current_deal()?;
        self.evaluate(&deal, node)
    }

    fn current_deal(&self) -> Result<Deal> {
        self.current.ok_or_else(|| Error::new(ErrorKind::Usage, "no current deal: call next_deal first"))
    }

    /// Parses one expression in the dialect and with the variables of the session.
    fn parse_expression(&self, expression: &str) -> Result<crate::script::ast::Expr> {
        // The loaded script's language, even if the dialect option changed since it was loaded.
        let dialect = self.program.as_ref().map_or_else(|| self.options.dialect(), |p| p.dialect);
        let parsed = script::parse(expression.as_bytes(), dialect, &self.options.script_vars)
            .map_err(|d| Error::script(d.message, d.line, d.col).with_source(expression.as_bytes()))?;
        // A bare expression parses as a condition statement; so does `condition EXPR`, which is
        // refused like every other statement.
        let first = script::lexer::Lexer::new(expression.as_bytes(), dialect, &self.options.script_vars).next();
        let keyword = match first {
            Some(Ok((pos, script::lexer::Token::Condition, _))) => Some(pos),
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
                    return Err(Error::new(
                        ErrorKind::Usage,
                        "the deal must hold each of the 52 cards once, 13 in every hand",
                    ));
                }
                let o = &self.options;
                let dd = self.own_dd.get_or_insert_with(|| {
                    DdCache::new(SolverPool::new(1, o.dds_table_memory), true, o.par_vulnerability)
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

    /// Runs the whole job: deals, actions and the end-of-run report, writing to the sinks. A
    /// ceiling (see [`Options::ceilings`]) stops it early and cleanly: [`RunReport::ceiling`].
    pub fn run(&mut self) -> Result<RunReport> {
        let started = Instant::now();
        let program = self.program()?;
        // Deal records are written whole, deal by deal; otherwise the actions say what they read.
        let job = if self.options.zrd_output.is_some() || self.options.dl52_output.is_some() {
            self.start_job(SeatSet::ALL, None)
        } else {
            self.start_job(program.action_seats(), Statistics::for_run(program))
        };
        let mut job = job?;
        job.hard_deadline = self.options.ceilings().time.and_then(|t| started.checked_add(t));
        self.job = None;
        self.current = None;
        self.last_seed = Some(job.seed);
        let program = self.program.take().expect("start_job checked it");
        let mut sinks = std::mem::take(&mut self.sinks);
        let result = run_job(&program, &self.options, &mut job, &mut sinks, started);
        self.sinks = sinks;
        self.program = Some(program);
        result
    }
}

/// Appends one `printrpt`/`csvrpt` record, evaluating its terms in order.
fn write_report(out: &mut Vec<u8>, deal: &Deal, parts: &[ReportPart], ev: &mut Evaluation) -> Result<()> {
    for (i, part) in parts.iter().enumerate() {
        let first = i == 0;
        match part {
            ReportPart::Value(v) => actions::report_cell(out, deal, first, &ReportCell::Number(ev.value(*v)?)),
            ReportPart::Text(t) => actions::report_cell(out, deal, first, &ReportCell::Text(t)),
            ReportPart::Hands(seats) => actions::report_cell(out, deal, first, &ReportCell::Hands(seats)),
            ReportPart::Tricks(seat) => {
                let table = ev.dd.table(deal)?;
                let seats = match seat {
                    Some(seat) => std::slice::from_ref(seat),
                    None => &Seat::ALL[..],
                };
                let mut values = [0i32; 20];
                for (value, tricks) in values.iter_mut().zip(seats.iter().flat_map(|s| table.0[s.index()])) {
                    *value = i32::from(tricks);
                }
                actions::report_cell(out, deal, first, &ReportCell::Tricks(&values[..5 * seats.len()]));
            }
            ReportPart::ParContract(vulnerability) => {
                let par = ev.dd.par(deal, *vulnerability)?;
                actions::report_cell(out, deal, first, &ReportCell::ParContract(&par.contract));
            }
        }
    }
    out.push(b'\n');
    Ok(())
}

/// DealerV2's notice when a feature switches its DDS mode 1 to table mode.
fn table_mode_notice(feature: &str) -> String {
    let (place, name) = match feature {
        "par" => ("ParScore", "Parscore"),
        "trix" => ("Trix", "Trix"),
        "parcontract" => ("ParContract", "ParContract"),
        other => (other, other),
    };
    format!("In {place}:: Using {name} requires TableMode. Setting Mode and continuing..\n")
}

/// A failed write to an output file.
fn write_error(e: std::io::Error) -> Error {
    Error::new(ErrorKind::Io, format!("cannot write output: {e}"))
}

/// 64 random bits from the operating system.
fn random_u64() -> u64 {
    let mut buf = [0u8; 8];
    // SAFETY: the buffer is valid for 8 bytes of writes.
    let n = unsafe { libc::getrandom(buf.as_mut_ptr().cast(), buf.len(), 0) };
    if n != 8 {
        let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
        return t.as_nanos() as u64 ^ (std::process::id() as u64) << 32;
    }
    u64::from_le_bytes(buf)
}

/// Today's local date as `YYYY.MM.DD` (PBN `[Date]`).
fn local_date() -> String {
    // SAFETY: localtime_r writes into the provided struct; time(NULL) has no preconditions.
    unsafe {
        let now = libc::time(std::ptr::null_mut());
        let mut tm: libc::tm = std::mem::zeroed();
        if libc::localtime_r(&now, &mut tm).is_null() {
            return "0000.00.00".to_string();
        }
        format!("{:04}.{:02}.{:02}", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday)
    }
}

/// Per-action accumulators for the end-of-run statistics.
#[derive(Clone)]
enum Tally {
    None,
    Average(Average),
    Frequency(Frequency1D),
    Frequency2(Frequency2D),
    Buckets(BucketFrequency1D),
    Buckets2(BucketFrequency2D),
    EvalContract(EvalContractTally),
}

impl Tally {
    /// The accumulator an action needs (bounds were checked when the program was compiled).
    fn for_action(action: &CompiledAction) -> Tally {
        match action {
            CompiledAction::Average { .. } => Tally::Average(Average::new()),
            CompiledAction::Frequency { lo, hi, .. } => Tally::Frequency(Frequency1D::new(*lo, *hi)),
            CompiledAction::Frequency2 { rows, cols, .. } => {
                Tally::Frequency2(Frequency2D::new((rows.1, rows.2), (cols.1, cols.2)))
            }
            CompiledAction::BucketFrequency { lo, hi, size, .. } => {
                Tally::Buckets(BucketFrequency1D::new(*lo, *hi, *size).expect("checked by program"))
            }
            CompiledAction::BucketFrequency2 { rows, cols, .. } => Tally::Buckets2(
                BucketFrequency2D::new((rows.1, rows.2, rows.3), (cols.1, cols.2, cols.3)).expect("checked by program"),
            ),
            CompiledAction::EvalContract { side, contract, vulnerable } => {
                Tally::EvalContract(EvalContractTally::new(*side, *contract, *vulnerable))
            }
            _ => Tally::None,
        }
    }

    /// Counts one deal's value (`second` is the column value of 2-D tables).
    fn add(&mut self, value: i32, second: i32) {
        match self {
            Tally::None => {}
            Tally::Average(a) => a.add(value),
            Tally::Frequency(f) => f.add(value),
            Tally::Frequency2(f) => f.add(value, second),
            Tally::Buckets(f) => f.add(value),
            Tally::Buckets2(f) => f.add(value, second),
            Tally::EvalContract(e) => e.add(value.clamp(0, 13) as u8),
        }
    }

    /// Adds what `other`, an accumulator of the same action, counted.
    fn merge(&mut self, other: &Tally) {
        match (self, other) {
            (Tally::Average(a), Tally::Average(b)) => a.merge(b),
            (Tally::Frequency(a), Tally::Frequency(b)) => a.merge(b),
            (Tally::Buckets(a), Tally::Buckets(b)) => a.merge(b),
            // Only the statistics above are added up by chunk (see `Statistics::for_run`).
            _ => debug_assert!(false, "tallies of other actions are not merged"),
        }
    }

    /// Writes the end-of-run report.
    fn write(&self, out: &mut Vec<u8>, dialect: Dialect, label: Option<&str>) {
        match self {
            Tally::None => {}
            Tally::Average(a) => a.write(out, dialect, label),
            Tally::Frequency(f) => f.write(out, dialect, label),
            Tally::Frequency2(f) => f.write(out, dialect, label),
            Tally::Buckets(f) => f.write(out, label),
            Tally::Buckets2(f) => f.write(out, label),
            Tally::EvalContract(e) => actions::write_evalcontract(out, &e.summary()),
        }
    }
}

/// The label of a statistics action.
fn label(action: &CompiledAction) -> Option<&str> {
    match action {
        CompiledAction::Average { label, .. }
        | CompiledAction::Frequency { label, .. }
        | CompiledAction::Frequency2 { label, .. }
        | CompiledAction::BucketFrequency { label, .. }
        | CompiledAction::BucketFrequency2 { label, .. } => label.as_deref(),
        _ => None,
    }
}

/// The buffered output streams of one run.
struct Outputs<'a> {
    sinks: &'a mut [Option<Sink>; 4],
    out: Vec<u8>,
    csv: Vec<u8>,
    export: Vec<u8>,
    csv_file: Option<Sink>,
    export_file: Option<Sink>,
    /// `-Z`: ZRD records of the produced deals, and whether their tricks are left at zero.
    zrd: Option<(std::io::BufWriter<std::fs::File>, bool)>,
    /// `-l`: 52-byte records of the produced deals.
    dl52: Option<std::io::BufWriter<std::fs::File>>,
    /// Bytes handed on so far: the output, csv and export buffers flushed, the records written.
    written: u64,
    /// The output ceiling on `written` and what is buffered (see [`Ceiling::Output`]).
    max_bytes: Option<u64>,
}

const FLUSH_AT: usize = 1 << 16;

impl Outputs<'_> {
    /// Bytes written and buffered so far.
    fn total(&self) -> u64 {
        self.written + (self.out.len() + self.csv.len() + self.export.len()) as u64
    }

    /// The lengths of the buffers, to drop later what came after (see [`Outputs::rewind`]).
    fn mark(&self) -> [usize; 3] {
        [self.out.len(), self.csv.len(), self.export.len()]
    }

    /// Drops what the buffers got since `mark` (nothing was flushed in between).
    fn rewind(&mut self, mark: [usize; 3]) {
        self.out.truncate(mark[0]);
        self.csv.truncate(mark[1]);
        self.export.truncate(mark[2]);
    }

    /// Writes one ZRD or DL52 record (or title record) and counts it.
    fn write_record(&mut self, zrd: bool, record: &[u8]) -> Result<()> {
        let file = if zrd { self.zrd.as_mut().map(|(f, _)| f) } else { self.dl52.as_mut() };
        if let Some(file) = file {
            file.write_all(record).map_err(write_error)?;
            self.written += record.len() as u64;
        }
        Ok(())
    }

    fn flush(&mut self) -> Result<()> {
        let io = |e: std::io::Error| Error::new(ErrorKind::Io, format!("cannot write output: {e}"));
        self.written += (self.out.len() + self.csv.len() + self.export.len()) as u64;
        // csv and export buffers are separate only when they go to their own sinks.
        let out = std::mem::take(&mut self.out);
        self.sinks[Stream::Output as usize].get_or_insert(Sink::Stdout).write_all(&out).map_err(io)?;
        let csv = std::mem::take(&mut self.csv);
        match (&mut self.csv_file, &mut self.sinks[Stream::Csv as usize]) {
            (Some(f), _) => f.write_all(&csv).map_err(io)?,
            (None, Some(s)) => s.write_all(&csv).map_err(io)?,
            (None, None) => {}
        }
        let export = std::mem::take(&mut self.export);
        match (&mut self.export_file, &mut self.sinks[Stream::Export as usize]) {
            (Some(f), _) => f.write_all(&export).map_err(io)?,
            (None, Some(s)) => s.write_all(&export).map_err(io)?,
            (None, None) => {}
        }
        if let Some((zrd, _)) = &mut self.zrd {
            zrd.flush().map_err(io)?;
        }
        if let Some(dl52) = &mut self.dl52 {
            dl52.flush().map_err(io)?;
        }
        Ok(())
    }

    fn diagnostics(&mut self, text: &[u8]) {
        let _ = self.flush();
        let _ = self.sinks[Stream::Diagnostics as usize].get_or_insert(Sink::Stderr).write_all(text);
    }

    /// The buffer csvrpt lines go to.
    fn csv_buffer(&mut self) -> &mut Vec<u8> {
        if self.csv_file.is_some() || self.sinks[Stream::Csv as usize].is_some() {
            &mut self.csv
        } else {
            &mut self.out
        }
    }

    /// The buffer export lines go to.
    fn export_buffer(&mut self) -> &mut Vec<u8> {
        if self.export_file.is_some() || self.sinks[Stream::Export as usize].is_some() {
            &mut self.export
        } else {
            &mut self.out
        }
    }
}

fn open_file(path: &str, truncate: bool) -> Result<std::fs::File> {
    let mut o = std::fs::OpenOptions::new();
    o.create(true);
    if truncate {
        o.write(true).truncate(true);
    } else {
        o.append(true);
    }
    o.open(path).map_err(|e| Error::new(ErrorKind::Io, format!("cannot open {path}: {e}")))
}

fn run_job(
    program: &Program,
    options: &Options,
    job: &mut Job,
    sinks: &mut [Option<Sink>; 4],
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

/// The statistics of a run whose actions are all `average`, `frequency` or `bktfreq` (one
/// value each) of values read from the deal alone: dealing threads add them up by chunk, and
/// their sums do not depend on the order the deals are added in.
struct Statistics {
    /// Each action's value.
    values: Arc<[DealExpr]>,
    /// Each action's accumulator, empty.
    empty: Arc<[Tally]>,
    tallies: Vec<Tally>,
}

impl Statistics {
    /// The (empty) statistics of the program's actions, when they are all such statistics.
    fn for_run(program: &Program) -> Option<Statistics> {
        let values: Vec<DealExpr> = program
            .actions
            .iter()
            .map(|action| DealExpr::compile(program, action.tallied_value()?))
            .collect::<Option<_>>()?;
        let empty: Arc<[Tally]> = program.actions.iter().map(Tally::for_action).collect();
        Some(Statistics { values: values.into(), tallies: empty.to_vec(), empty })
    }
}

impl Summary for Statistics {
    fn empty(&self) -> Statistics {
        Statistics { values: Arc::clone(&self.values), empty: Arc::clone(&self.empty), tallies: self.empty.to_vec() }
    }

    #[inline]
    fn add(&mut self, program: &Program, deal: &Deal) {
        for (value, tally) in self.values.iter().zip(&mut self.tallies) {
            tally.add(value.value(program, deal), 0);
        }
    }
}

/// The per-run state of the actions: printer flags, statistics, stored deals and the settings
/// they print with.
struct ActionState<'p> {
    program: &'p Program,
    options: &'p Options,
    title: Option<String>,
    board_offset: i64,
    date: String,
    printers: PrintState,
    /// Whether the end-of-run statistics are printed (classic `printpbn` toggles it).
    statistics: bool,
    tallies: Vec<Tally>,
    /// Produced deals, kept only for `print(compass…)`.
    kept: Option<Vec<Deal>>,
    /// Reused for every deal: no allocation per deal.
    es_items: Vec<EsItem<'p>>,
    /// Per action: the value a statistic (`average`, `frequency`, `bucketfrequency`) tallies,
    /// compiled as a deal expression when it is one.
    tallied: Vec<Option<DealExpr>>,
    /// The values the deal in hand adds to the statistics: (action, value, column value), added
    /// when the deal is committed (see [`ActionState::commit`]).
    pending: Vec<(usize, i32, i32)>,
    /// Under an output ceiling: the length of each `print(compass…)` action's pages so far.
    pages: Vec<actions::HandPagesLength>,
}

impl<'p> ActionState<'p> {
    fn new(program: &'p Program, options: &'p Options, library_title: Option<&str>) -> ActionState<'p> {
        let title = options
            .title
            .clone()
            .or_else(|| program.settings.title.clone())
            .or_else(|| library_title.map(str::to_string))
            .filter(|t| !t.is_empty());
        let board_offset = match program.dialect {
            Dialect::V2 => program.settings.startboard.map(|n| n - 1).unwrap_or(0),
            Dialect::Classic => 0,
        };
        let pages = if options.ceilings().output_bytes.is_some() {
            let measure = |seats: &[Seat]| {
                actions::HandPagesLength::new(program.dialect, seats, title.as_deref(), board_offset + 1)
            };
            let pages = program.actions.iter().filter_map(|action| match action {
                CompiledAction::PrintPages(seats) => Some(measure(seats)),
                _ => None,
            });
            pages.collect()
        } else {
            Vec::new()
        };
        ActionState {
            program,
            options,
            board_offset,
            date: if program.actions.contains(&CompiledAction::PrintPbn) { local_date() } else { String::new() },
            printers: PrintState::new(program.dialect, title.clone()),
            title,
            statistics: options.statistics,
            tallies: program.actions.iter().map(Tally::for_action).collect(),
            kept: program.actions.iter().any(|a| matches!(a, CompiledAction::PrintPages(_))).then(Vec::new),
            es_items: Vec::new(),
            tallied: program
                .actions
                .iter()
                .map(|action| action.tallied_value().and_then(|value| DealExpr::compile(program, value)))
                .collect(),
            pending: Vec::new(),
            pages,
        }
    }

    /// Runs every action on a produced deal: what they print goes into the output buffers, what
    /// they tally waits in `pending` until [`commit`](Self::commit).
    fn on_deal(&mut self, deal: &Deal, job: &mut Job, outputs: &mut Outputs) -> Result<()> {
        let program = self.program;
        let produced = job.produced;
        let board = produced + self.board_offset;
        self.pending.clear();
        for (index, (action, tallied)) in program.actions.iter().zip(&self.tallied).enumerate() {
            // The general evaluator (`job.evaluation`) is set up only by the actions that need it.
            match action {
                CompiledAction::PrintAll => self.printers.print_all(&mut outputs.out, deal, produced, board),
                CompiledAction::PrintSide(side) => {
                    self.printers.print_side(&mut outputs.out, deal, *side, produced, board)
                }
                CompiledAction::PrintCompact(v) => {
                    let v = v.map(|v| job.evaluation(program, deal).value(v)).transpose()?;
                    actions::print_compact(&mut outputs.out, deal, v)
                }
                CompiledAction::PrintOneline(v) => {
                    let v = v.map(|v| job.evaluation(program, deal).value(v)).transpose()?;
                    actions::print_oneline(&mut outputs.out, deal, v)
                }
                CompiledAction::PrintPbn => {
                    if !self.options.quiet {
                        let info = PbnInfo {
                            dialect: program.dialect,
                            input_name: self.options.input_name.as_deref(),
                            seed: job.seed_printed,
                            title: self.title.as_deref(),
                            board,
                            dealer: program.settings.dealer,
                            vulnerability: program.settings.vulnerable,
                            date: &self.date,
                            names_libdealer: self.options.generator == GeneratorKind::ChaCha,
                        };
                        if actions::print_pbn(&mut outputs.out, deal, &info) {
                            self.statistics = !self.statistics;
                        }
                    }
                }
                CompiledAction::PrintEs(parts) => {
                    self.es_items.clear();
                    let mut ev = job.evaluation(program, deal);
                    for part in parts {
                        self.es_items.push(match part {
                            EsPart::Value(v) => EsItem::Number(ev.value(*v)?),
                            EsPart::Text(t) => EsItem::Text(t),
                        });
                    }
                    actions::print_es(&mut outputs.out, &self.es_items);
                }
                CompiledAction::PrintPages(_) => {}
                CompiledAction::Average { value, .. }
                | CompiledAction::Frequency { value, .. }
                | CompiledAction::BucketFrequency { value, .. } => {
                    let v = match tallied {
                        Some(expr) => expr.value(program, deal),
                        None => job.evaluation(program, deal).value(*value)?,
                    };
                    self.pending.push((index, v, 0))
                }
                CompiledAction::Frequency2 { rows, cols, .. } => {
                    let mut ev = job.evaluation(program, deal);
                    let row = ev.value(rows.0)?;
                    self.pending.push((index, row, ev.value(cols.0)?))
                }
                CompiledAction::BucketFrequency2 { rows, cols, .. } => {
                    let mut ev = job.evaluation(program, deal);
                    let row = ev.value(rows.0)?;
                    self.pending.push((index, row, ev.value(cols.0)?))
                }
                CompiledAction::Report { parts, to_csv } => {
                    let buffer = if *to_csv { outputs.csv_buffer() } else { &mut outputs.out };
                    let start = buffer.len();
                    if let Err(e) = write_report(buffer, deal, parts, &mut job.evaluation(program, deal)) {
                        // No partial record: what was written before stays whole.
                        buffer.truncate(start);
                        return Err(e);
                    }
                }
                CompiledAction::EvalContract { side, contract, .. } => {
                    let declarer = crate::program::evalcontract_declarer(*side);
                    let tricks = job.dd.tricks(deal, declarer, contract.strain)?;
                    self.pending.push((index, i32::from(tricks), 0));
                }
                CompiledAction::Export(target) => actions::export(outputs.export_buffer(), deal, *target),
            }
        }
        Ok(())
    }

    /// The bytes a deal whose actions have run will still add when committed: its ZRD and DL52
    /// records, and what the `print(compass…)` pages grow by (all of their bytes are counted).
    fn bytes_to_come(&mut self, deal: &Deal, outputs: &Outputs) -> u64 {
        let records = if outputs.zrd.is_some() { crate::dd::zrd::RECORD_LEN } else { 0 }
            + if outputs.dl52.is_some() { 52 } else { 0 };
        let pages: usize = self.pages.iter_mut().map(|p| p.bytes_with(Some(deal))).sum();
        (records + pages) as u64
    }

    /// Completes a produced deal whose actions have run: adds its statistics, writes its ZRD
    /// and DL52 records and keeps it for `print(compass…)`.
    fn commit(&mut self, deal: &Deal, job: &mut Job, outputs: &mut Outputs) -> Result<()> {
        for &(index, value, second) in &self.pending {
            self.tallies[index].add(value, second);
        }
        self.pending.clear();
        if let Some(&(_, no_tricks)) = outputs.zrd.as_ref() {
            let tricks = if no_tricks { DdTable::default() } else { job.dd.table(deal)? };
            outputs.write_record(true, &crate::dd::zrd::encode_record(deal, &tricks.0))?;
        }
        if outputs.dl52.is_some() {
            outputs.write_record(false, &crate::dd::zrd::encode_dl52(deal))?;
        }
        if let Some(kept) = &mut self.kept {
            kept.push(*deal);
        }
        for pages in &mut self.pages {
            pages.add(deal);
        }
        Ok(())
    }

    /// Adds statistics the dealing threads added up (for every action: see [`Statistics`]).
    fn merge(&mut self, statistics: &Statistics) {
        for (tally, part) in self.tallies.iter_mut().zip(&statistics.tallies) {
            tally.merge(part);
        }
    }

    /// Writes the end-of-run actions, in list order, and the statistics footer; stops after the
    /// action that writes more than `room` bytes, if given.
    fn finish(&self, out: &mut Vec<u8>, summary: RunSummary, room: Option<u64>) {
        let dialect = self.program.dialect;
        let start = out.len();
        let full = |out: &Vec<u8>| room.is_some_and(|room| (out.len() - start) as u64 > room);
        for (action, tally) in self.program.actions.iter().zip(self.tallies.iter()) {
            if full(out) {
                return;
            }
            match action {
                CompiledAction::PrintPages(seats) => actions::print_hand_pages(
                    out,
                    dialect,
                    self.kept.as_deref().unwrap_or_default(),
                    seats,
                    self.title.as_deref(),
                    self.board_offset + 1,
                ),
                _ => tally.write(out, dialect, label(action)),
            }
        }
        if self.statistics && !full(out) {
            actions::write_footer(out, dialect, &RunSummary { title: self.title.as_deref(), ..summary });
        }
    }
}

impl Job {
    /// The number of generated deals as the peer prints it: DealerV2's loop leaves its counter
    /// one past the last deal, then corrects it (off by one when the last deal was the
    /// `generate - 1`-th).
    fn generated_as_printed(&self, dialect: Dialect) -> i64 {
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

fn deal_loop(
    program: &Program,
    options: &Options,
    job: &mut Job,
    outputs: &mut Outputs,
    started: Instant,
) -> Result<RunReport> {
    let mut state = ActionState::new(program, options, job.library.as_ref().map(|l| l.title()));
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
    outputs.out.extend_from_slice(program.echo.as_bytes());

    // A limit too far away to be a point in time is no limit.
    let deadline = (options.time_limit > 0)
        .then(|| started.checked_add(std::time::Duration::from_secs(options.time_limit)))
        .flatten();
    while let Some(produced) = job.next_produced(program, deadline)? {
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
            }
            Produced::Summary(statistics) => state.merge(&statistics),
        }
        if let Some(m) = &mut meter {
            if m.update(&mut meter_text, job.produced, job.max_produce) {
                outputs.diagnostics(&std::mem::take(&mut meter_text));
            }
        }
        if outputs.out.len() >= FLUSH_AT || outputs.csv.len() >= FLUSH_AT || outputs.export.len() >= FLUSH_AT {
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
    let summary = RunSummary {
        title: None,
        generated,
        produced: job.produced,
        seed_printed: job.seed_printed,
        seconds: started.elapsed().as_secs_f64(),
        library: job.library.as_ref().map(|l| actions::LibraryCounts {
            records_read: l.records_read() as i64,
            wrap_arounds: i64::from(l.wrap_arounds()),
        }),
    };
    let room = outputs.max_bytes.map(|max| max.saturating_sub(outputs.total()));
    let end = outputs.out.len();
    state.finish(&mut outputs.out, summary, room);
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    /// A session whose output stream is captured; returns the session and the capture.
    fn captured(options: &[(&str, &str)], script: &str) -> (Session, Arc<Mutex<Vec<u8>>>) {
        let mut s = Session::new();
        for (k, v) in options {
            s.set_option(k, v).unwrap();
        }
        s.load_script(script.as_bytes()).unwrap();
        let buffer = capture(&mut s, Stream::Output);
        (s, buffer)
    }

    /// Sends one stream of the session into a shared buffer.
    fn capture(s: &mut Session, stream: Stream) -> Arc<Mutex<Vec<u8>>> {
        let buffer = Arc::new(Mutex::new(Vec::new()));
        let sink = buffer.clone();
        s.set_sink(
            stream,
            Some(Sink::Callback(Box::new(move |b: &[u8]| {
                sink.lock().unwrap().extend_from_slice(b);
                Ok(())
            }))),
        );
        buffer
    }

    fn text(buffer: &Arc<Mutex<Vec<u8>>>) -> String {
        String::from_utf8(buffer.lock().unwrap().clone()).unwrap()
    }

    #[test]
    fn options_are_validated() {
        let mut s = Session::new();
        assert_eq!(s.set_option("rng", "glibc"), Ok(()));
        assert_eq!(s.options().dialect(), Dialect::Classic);
        assert_eq!(s.set_option("rng", "mt19937").unwrap_err().kind, ErrorKind::Option);
        assert_eq!(s.set_option("swap", "4").unwrap_err().kind, ErrorKind::Option);
        assert_eq!(s.set_option("bogus", "1").unwrap_err().kind, ErrorKind::Option);
        assert_eq!(s.set_option("var3", "hcp"), Ok(()));
        assert_eq!(s.options().script_vars[3].as_deref(), Some("hcp"));
        assert_eq!(s.set_option("csv_file", "w:/tmp/x.csv"), Ok(()));
        assert_eq!(s.options().csv_file, Some(("/tmp/x.csv".to_string(), true)));
    }

    #[test]
    fn atol_matches_c() {
        assert_eq!(atol("  42abc"), 42);
        assert_eq!(atol("-5"), -5);
        assert_eq!(atol("abc"), 0);
        assert_eq!(atol("99999999999999999999"), i64::MAX);
        assert_eq!(atol("-99999999999999999999"), i64::MIN);
    }

    /// Keys of [`OPTION_KEYS`] whose value may be any text, with the reason.
    const ANY_TEXT_KEYS: &[(&str, &str)] = &[
        ("title", "a free title, printed as given"),
        ("input_name", "a name shown by printpbn, any text"),
        ("var0", "script text substituted for $0, checked when the script is parsed"),
        ("var1", "script text, as var0"),
        ("var2", "script text, as var0"),
        ("var3", "script text, as var0"),
        ("var4", "script text, as var0"),
        ("var5", "script text, as var0"),
        ("var6", "script text, as var0"),
        ("var7", "script text, as var0"),
        ("var8", "script text, as var0"),
        ("var9", "script text, as var0"),
    ];

    /// Bad values for every other key of [`OPTION_KEYS`].
    const BAD_OPTION_VALUES: &[(&str, &[&str])] = &[
        ("rng", &["", "ChaCha", "chacha ", "x"]),
        ("generator", &["", "glibc2", "1"]),
        ("dialect", &["", "V2", "classic2"]),
        ("seed", &["", "abc", "12abc", " 1", "1.5", "99999999999999999999"]),
        ("generate", &["", "-5", "-1", "abc", "10x", "1e6", " 5"]),
        ("produce", &["", "-5", "-1", "abc", "3 ", "0x10"]),
        ("time_limit", &["", "-1", "abc", "1.5", "10s"]),
        ("threads", &["", "-1", "65", "abc", "2x", "1.0"]),
        ("swap", &["", "1", "4", "2 ", "abc"]),
        ("quiet", &["", "2", "maybe", "TRUEx", "-1"]),
        ("statistics", &["", "2", "abc"]),
        ("progress", &["", "2", "abc"]),
        ("untrusted", &["", "2", "abc", "10"]),
        ("csv_file", &["", "w:"]),
        ("export_file", &[""]),
        ("library_file", &[""]),
        ("server", &[""]),
        ("opc_program", &[""]),
        ("zrd_file", &["", "w:", "wN:"]),
        ("dl52_file", &["", "w:"]),
        ("predeal_north", &["QQQ!!", "!!garbage", "SAX", "SAA", "AK", "S A K Q J T 9 8 7 6 5 4 3 2 HA"]),
        ("predeal_east", &["QQQ!!", "S?"]),
        ("predeal_south", &["QQQ!!", "hello"]),
        ("predeal_west", &["QQQ!!", "1"]),
        ("dds_mode", &["", "0", "3", "1x", "abc"]),
        ("dds_table_mb", &["", "0", "15", "4097", "-160", "160MB", "1e3", " 160"]),
        ("par_vulnerability", &["", "4", "-1", "NS ", "abc"]),
        ("external_timeout", &["", "0", "-1", "abc", "nan", "inf", "86401"]),
        ("opener", &["", "Q", "X", "north", "NE", " N"]),
        ("debug", &["", "abc", "-1", "100", "1.10000", "1.", ".1", "1x", "1.2.3", " 1"]),
        ("max_seconds", &["", "-1", "abc", "nan", "1e9", "Default"]),
        ("max_generate", &["", "-1", "abc", "1.5"]),
        ("max_output_bytes", &["", "-1", "abc", "1k"]),
        ("max_script_bytes", &["", "0", "-1", "abc", "16M", "18446744073709551616"]),
    ];

    #[test]
    fn every_option_key_refuses_bad_values() {
        for key in OPTION_KEYS {
            let listed_any = ANY_TEXT_KEYS.iter().any(|(k, _)| k == key);
            let bad = BAD_OPTION_VALUES.iter().find(|(k, _)| k == key);
            assert!(
                listed_any != bad.is_some(),
                "option {key}: needs exactly one row, in BAD_OPTION_VALUES or (with a reason) in ANY_TEXT_KEYS"
            );
            let Some((_, values)) = bad else { continue };
            assert!(!values.is_empty(), "{key}: no bad value");
            for value in *values {
                let mut s = Session::new();
                let before = format!("{:?}", s.options);
                let e = s.set_option(key, value).expect_err(&format!("{key}={value:?} was accepted"));
                assert_eq!(e.kind, ErrorKind::Option, "{key}={value:?}");
                let message = e.to_string();
                assert!(
                    message.contains(key) && message.contains(&format!("'{value}'")),
                    "{key}={value:?}: the message does not name the key and the value: {message}"
                );
                assert_eq!(format!("{:?}", s.options), before, "{key}={value:?} changed the options");
            }
        }
        for (key, _) in ANY_TEXT_KEYS {
            assert!(OPTION_KEYS.contains(key), "{key} is not an option");
        }
        for (key, _) in BAD_OPTION_VALUES {
            assert!(OPTION_KEYS.contains(key), "{key} is not an option");
        }
    }

    #[test]
    fn good_option_values_are_accepted() {
        let mut s = Session::new();
        for (key, value) in [
            ("generate", "0"),
            ("generate", "+5"),
            ("generate", "nothing"),
            ("produce", "0"),
            ("opener", "n"),
            ("opener", "W"),
            ("debug", "0"),
            ("debug", "99.9999"),
            ("debug", "1:2"),
            ("predeal_north", "SAQ,HK765,DAQT74,C97"),
            ("predeal_north", "s a k, h -, d q"),
            ("predeal_north", ""),
            ("csv_file", "w:out.csv"),
            ("dds_table_mb", "16"),
            ("dds_table_mb", "4096"),
        ] {
            s.set_option(key, value).unwrap_or_else(|e| panic!("{key}={value:?}: {e}"));
        }
        assert_eq!(parse_debug("1:2"), Some((1, 2)));
        assert_eq!(parse_debug("7"), Some((7, 0)));
    }

    #[test]
    fn generate_nothing_deals_nothing() {
        for dialect in ["classic", "v2"] {
            let options = [("dialect", dialect), ("seed", "1"), ("generate", "nothing")];
            let (mut s, out) = captured(&options, "generate 50\nproduce 5\naction printoneline\n");
            let report = s.run().unwrap();
            assert_eq!((report.generated, report.produced), (0, 0), "{dialect}");
            let text = text(&out);
            assert!(text.contains("Generated 0 hands\n"), "{dialect}: {text}");
            assert!(!text.contains("\nn "), "{dialect}: {text}");
        }
    }

    #[test]
    fn a_nul_byte_is_a_script_error_at_its_line_and_column() {
        for dialect in ["classic", "v2"] {
            for (script, line, col) in [
                (&b"produce 1\naction printoneline\n\0 garbage ((( \n"[..], 3, 1),
                (b"produce 1\ncondition hcp(north) > 1\0", 2, 25),
                (b"\0", 1, 1),
            ] {
                let mut s = Session::new();
                s.set_option("dialect", dialect).unwrap();
                let e = s.load_script(script).unwrap_err();
                assert_eq!(e.kind, ErrorKind::Script, "{dialect} {script:?}");
                assert_eq!((e.line, e.col), (Some(line), Some(col)), "{dialect} {script:?}");
                assert!(e.message.contains("NUL byte"), "{e}");
            }
            // An error before the NUL byte is reported first, as the peers (who stop there) do.
            let mut s = Session::new();
            s.set_option("dialect", dialect).unwrap();
            let e = s.load_script(b"produce 1\n) \0 x").unwrap_err();
            assert_eq!((e.line, e.col, e.message.as_str()), (Some(2), Some(1), "syntax error"), "{dialect}");
            // In a script variable's text too (DealerV2 expands them).
            let mut s = Session::new();
            s.set_option("dialect", dialect).unwrap();
            s.set_option("var1", "3\0 x").unwrap();
            if dialect == "v2" {
                let e = s.load_script(b"produce $1\n").unwrap_err();
                assert!(e.message.contains("NUL byte"), "{e}");
            }
        }
    }

    #[test]
    fn a_byte_order_mark_opening_a_script_is_accepted() {
        for dialect in ["classic", "v2"] {
            let script = "\u{feff}produce 2\naction printoneline\n";
            let (mut s, out) = captured(&[("dialect", dialect), ("seed", "1")], script);
            let report = s.run().unwrap();
            assert_eq!(report.produced, 2, "{dialect}");
            assert_eq!(text(&out).lines().filter(|l| l.starts_with("n ")).count(), 2, "{dialect}");
            let e = Session::new().load_script("\u{feff}produce 2\n) x".as_bytes()).unwrap_err();
            assert_eq!((e.line, e.col), (Some(2), Some(1)), "{dialect}: {e}");
        }
    }

    #[test]
    fn scripts_are_capped_before_they_are_read() {
        let mut s = Session::new();
        assert_eq!(s.options().max_script_bytes, DEFAULT_MAX_SCRIPT_BYTES);
        s.set_option("max_script_bytes", "12").unwrap();
        s.load_script(b"produce 1\n").unwrap();
        let e = s.load_script(b"produce 1\n\n\n\n").unwrap_err();
        assert_eq!(e.kind, ErrorKind::Script);
        assert_eq!(e.message, "the script is 13 bytes long, more than 12 (option max_script_bytes)");
        // A file: its size is checked before it is read.
        let dir = std::env::temp_dir().join(format!("libdealer-cap-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("long.dl");
        std::fs::write(&file, "produce 1\n\n\n\n").unwrap();
        let e = s.load_script_file(file.to_str().unwrap()).unwrap_err();
        assert!(e.message.contains("13 bytes long, more than 12"), "{e}");
        s.set_option("max_script_bytes", "13").unwrap();
        s.load_script_file(file.to_str().unwrap()).unwrap();
        // What is not a regular file is refused at once: a folder, a device without end, a FIFO
        // (not opened for a writer that never comes).
        let fifo = dir.join("fifo");
        let c_path = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) }, 0);
        for path in [dir.to_str().unwrap(), "/dev/zero", fifo.to_str().unwrap()] {
            let e = s.load_script_file(path).unwrap_err();
            assert_eq!(e.kind, ErrorKind::Io, "{path}");
            assert_eq!(e.message, format!("{path}: not a regular file"));
        }
        // A library file that is a folder says so (not a length of 2^63 - 1 bytes).
        s.set_option("library_file", dir.to_str().unwrap()).unwrap();
        s.load_script(b"produce 1\n").unwrap();
        let e = s.next_deal().unwrap_err();
        assert!(e.message.contains("not a regular file"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn predeal_text_errors_quote_the_text() {
        let mut s = Session::new();
        let e = s.set_option("predeal_north", "QQQ!!").unwrap_err();
        assert_eq!(
            e.to_string(),
            "option predeal_north: the rank 'Q' comes before any suit letter (S, H, D, C), in 'QQQ!!'"
        );
        let e = s.set_option("predeal_west", "!!garbage").unwrap_err();
        assert_eq!(
            e.to_string(),
            "option predeal_west: '!' is not a suit (S, H, D, C) or a rank (AKQJT98765432), in '!!garbage'"
        );
        assert!(s.options().predeal.iter().all(Option::is_none));
    }

    #[test]
    fn every_listed_option_key_is_handled() {
        let mut seen = std::collections::HashSet::new();
        for key in OPTION_KEYS {
            assert!(seen.insert(key), "{key} is listed twice");
            for value in ["", "1", "x"] {
                if let Err(e) = Session::new().set_option(key, value) {
                    assert_eq!(e.kind, ErrorKind::Option);
                    let message = e.to_string();
                    assert!(
                        !message.contains("unknown option") && !message.contains("not handled"),
                        "{key}: {message}"
                    );
                }
            }
        }
        for key in ["bogus", "var10", "var", "varx", "Seed", "seed ", "", "predeal_", "extra"] {
            let e = Session::new().set_option(key, "1").unwrap_err();
            assert_eq!(e.to_string(), format!("unknown option '{key}'"));
        }
    }

    #[test]
    fn whole_number_options_are_strict() {
        let mut s = Session::new();
        for key in ["seed", "generate", "produce", "time_limit"] {
            for value in ["abc", "12abc", "", " 12", "12 ", "1.5", "0x10", "99999999999999999999", "--1"] {
                let e = s.set_option(key, value).expect_err(&format!("{key}={value:?} must be refused"));
                assert_eq!(e.kind, ErrorKind::Option, "{key}={value:?}");
                let message = e.to_string();
                assert!(message.contains(key) && message.contains(&format!("'{value}'")), "{message}");
            }
            for value in ["12", "+7", "0"] {
                s.set_option(key, value).unwrap();
            }
        }
        s.set_option("seed", "-5").unwrap();
        assert_eq!(s.options().seed, Some(-5));
        s.set_option("seed", "12").unwrap();
        assert_eq!(s.options().seed, Some(12));
        assert!(s.set_option("seed", "12abc").is_err());
        assert_eq!(s.options().seed, Some(12), "a refused value leaves the option as it was");
        let e = s.set_option("generate", "-3").unwrap_err();
        assert!(e.to_string().contains("generate") && e.to_string().contains("'-3'"), "{e}");
        s.set_option("time_limit", "18446744073709551615").unwrap();
        assert_eq!(s.options().time_limit, u64::MAX);
        let e = s.set_option("time_limit", "-1").unwrap_err();
        assert!(e.to_string().contains("time_limit") && e.to_string().contains("'-1'"), "{e}");
    }

    /// The first `n` deals a session with these options deals for a script with no condition.
    fn first_deals(options: &[(&str, &str)], n: usize) -> (Session, Vec<Deal>) {
        let (mut s, _) = captured(options, "generate 100\n");
        let deals = (0..n).map(|_| s.next_deal().unwrap().unwrap()).collect();
        (s, deals)
    }

    #[test]
    fn seed_zero_means_a_seed_the_job_chooses() {
        for rng in ["chacha", "drand48"] {
            for dialect in ["v2", "classic"] {
                for unset in [Some("0"), None] {
                    let mut options = vec![("rng", rng), ("dialect", dialect)];
                    options.extend(unset.map(|zero| ("seed", zero)));
                    let (mut s, _) = captured(&options, "generate 100\n");
                    assert_eq!(s.seed(), 0, "{options:?}: not chosen before the job starts");
                    let first = s.next_deal().unwrap().unwrap();
                    let chosen = s.seed();
                    assert_ne!(chosen, 0, "{options:?}");
                    if rng == "drand48" {
                        assert!(
                            (1..=0xFFFF_FFFF).contains(&chosen),
                            "{options:?}: srand48 reads 32 bits, got {chosen}"
                        );
                    }
                    let (_, again) =
                        first_deals(&[("rng", rng), ("dialect", dialect), ("seed", &chosen.to_string())], 1);
                    assert_eq!(again[0], first, "{options:?}: the seed read back repeats the deals");
                    let (other, _) = first_deals(&options, 1);
                    assert_ne!(other.seed(), chosen, "{options:?}: each job chooses its own seed");
                    // A run chooses too, and reports the seed it chose.
                    let (mut s, out) = captured(&options, "generate 10\nproduce 1\naction printoneline\n");
                    let report = s.run().unwrap();
                    assert_eq!(report.seed, s.seed() as u64);
                    assert!(text(&out).contains(&format!("Initial random seed {}\n", s.seed() as u64)), "{options:?}");
                }
            }
        }
    }

    #[test]
    fn glibc_takes_seed_zero_as_classic_dealer_does() {
        for dialect in ["classic", "v2"] {
            let (s, zero) = first_deals(&[("rng", "glibc"), ("dialect", dialect), ("seed", "0")], 3);
            assert_eq!(s.seed(), 0);
            // glibc's srandom(0) is srandom(1).
            assert_eq!(zero, first_deals(&[("rng", "glibc"), ("dialect", dialect), ("seed", "1")], 3).1);
            // Without a seed, classic dealer seeds with the time.
            let (s, deals) = first_deals(&[("rng", "glibc"), ("dialect", dialect)], 3);
            let now = unsafe { libc::time(std::ptr::null_mut()) } as i64;
            assert!((now - 5..=now).contains(&s.seed()), "{dialect}: {}", s.seed());
            let (_, again) = first_deals(&[("rng", "glibc"), ("dialect", dialect), ("seed", &s.seed().to_string())], 3);
            assert_eq!(again, deals);
        }
    }

    #[test]
    fn seed_reads_back_the_seed_of_the_last_or_next_job() {
        let mut s = Session::new();
        assert_eq!(s.seed(), 0);
        s.set_option("seed", "42").unwrap();
        assert_eq!(s.seed(), 42, "the next job's seed, before any script");
        s.load_script(b"generate 100\nseed 9\n").unwrap();
        assert_eq!(s.seed(), 42, "the option beats the script");
        s.set_option("seed", "0").unwrap();
        assert_eq!(s.seed(), 0, "0 beats the script's seed too, as DealerV2's -s 0 does");
        let mut v2 = Session::new();
        v2.load_script(b"generate 100\nseed 9\n").unwrap();
        assert_eq!(v2.seed(), 9, "DealerV2 dialect: the script's seed");
        v2.next_deal().unwrap().unwrap();
        assert_eq!(v2.seed(), 9);
        s.set_option("dialect", "classic").unwrap();
        s.load_script(b"generate 100\n").unwrap();
        assert_eq!(s.seed(), 0);
        s.next_deal().unwrap().unwrap();
        let chosen = s.seed();
        assert_ne!(chosen, 0);
        s.next_deal().unwrap().unwrap();
        assert_eq!(s.seed(), chosen, "the same job");
        s.set_option("title", "x").unwrap();
        assert_eq!(s.seed(), 0, "an option set since: the next job will choose again");
        s.set_option("seed", "-7").unwrap();
        s.run().unwrap();
        assert_eq!(s.seed(), -7);
        // Library mode: the seed is the block offset.
        let mut s = Session::new();
        s.set_option("library_file", "/nonexistent.zrd").unwrap();
        assert_eq!(s.seed(), 0);
        s.set_option("seed", "3").unwrap();
        assert_eq!(s.seed(), 3);
    }

    #[test]
    fn classic_run_reproduces_classic_dealer() {
        let (mut s, out) = captured(&[("rng", "glibc"), ("seed", "1")], "produce 2\naction printoneline\n");
        let report = s.run().unwrap();
        assert_eq!(report, RunReport { generated: 2, produced: 2, seed: 1, timed_out: false, ceiling: None });
        let text = text(&out);
        assert!(text.starts_with("n 2.T98.K752.KJT84 e 5.J7642.986.9763 s AQ8.AQ5.QJT.AQ52 w KJT97643.K3.A43. \n"));
        assert!(text.contains("Generated 2 hands\nProduced 2 hands\nInitial random seed 1\nTime needed"));
    }

    #[test]
    fn default_produce_depends_on_printing_actions() {
        let (mut s, _) = captured(&[("seed", "3"), ("statistics", "false")], "generate 500\naction printoneline\n");
        assert_eq!(s.run().unwrap().produced, 40);
        let (mut s, _) = captured(&[("seed", "3")], "generate 500\naction average hcp(north)\n");
        assert_eq!(s.run().unwrap().produced, 500);
        let (mut s, _) = captured(&[("seed", "3"), ("produce", "7")], "generate 500\n");
        assert_eq!(s.run().unwrap().produced, 7);
    }

    #[test]
    fn classic_printpbn_toggles_the_footer() {
        let (mut s, out) = captured(&[("rng", "glibc"), ("seed", "1")], "produce 3\naction printpbn\n");
        s.run().unwrap();
        assert!(!text(&out).contains("Generated"));
        let (mut s, out) = captured(&[("rng", "glibc"), ("seed", "1")], "produce 2\naction printpbn\n");
        s.run().unwrap();
        assert!(text(&out).contains("Generated 2 hands"));
    }

    #[test]
    fn printpbn_generator_tag_names_libdealer_in_chacha_mode() {
        let generator = |options: &[(&str, &str)]| {
            let (mut s, out) = captured(options, "produce 1\naction printpbn\n");
            s.run().unwrap();
            text(&out).lines().filter(|l| l.starts_with("[Generator ")).map(str::to_string).collect::<Vec<_>>()
        };
        let libdealer = format!("[Generator \"libdealer {}\"]", env!("CARGO_PKG_VERSION"));
        assert_eq!(generator(&[("seed", "1")]), [libdealer.as_str()]);
        assert_eq!(generator(&[("rng", "chacha"), ("dialect", "v2"), ("seed", "1")]), [libdealer.as_str()]);
        // The compatibility modes keep DealerV2's text; classic dealer prints no such tag.
        let peer = "[Generator \"Dealer Version 2.4 by Hans, Henk, and JGM\"]";
        assert_eq!(generator(&[("rng", "drand48"), ("seed", "1")]), [peer]);
        assert_eq!(generator(&[("rng", "glibc"), ("dialect", "v2"), ("seed", "1")]), [peer]);
        assert!(generator(&[("rng", "glibc"), ("seed", "1")]).is_empty());
        assert!(generator(&[("rng", "chacha"), ("dialect", "classic"), ("seed", "1")]).is_empty());
    }

    #[test]
    fn output_before_an_error_is_kept() {
        let script = "produce 5\naction printoneline, printes(10 / (hcp(north) - hcp(north)))\n";
        let (mut s, out) = captured(&[("seed", "1")], script);
        let e = s.run().unwrap_err();
        assert_eq!(e.to_string(), "line 2: division by zero");
        let text = text(&out);
        assert_eq!(text.lines().count(), 1, "the first deal's line was printed before the error");
        assert!(text.starts_with("n "));
    }

    #[test]
    fn run_time_errors_in_every_action_name_line_and_column() {
        // Neither operand of the `/` has a position of its own (`hcp(north)`): the error is
        // located at the operator, in every action kind, the condition and a definition.
        let d = "hcp(north)/(hcp(north)-hcp(north))";
        let cases = [
            format!("average {d}"),
            format!("average \"label\" {d}"),
            format!("frequency ({d}, 0, 10)"),
            format!("frequency \"f\" ({d}, 0, 10, hcp(south), 0, 10)"),
            format!("frequency \"f\" (hcp(south), 0, 10, {d}, 0, 10)"),
            format!("bktfreq ({d}, 0, 10, 2)"),
            format!("bktfreq \"b\" (hcp(south), 0, 10, 2, {d}, 0, 10, 2)"),
            format!("printes({d}, \"\\n\")"),
            format!("printrpt({d})"),
            format!("csvrpt({d})"),
            format!("printcompact ({d})"),
            format!("printoneline ({d})"),
        ];
        for action in &cases {
            let line = format!("  {action}");
            let script = format!("produce 1\ncondition 1\naction\n{line}\n");
            let (mut s, _out) = captured(&[("seed", "1"), ("dialect", "v2")], &script);
            let e = s.run().unwrap_err();
            assert_eq!(e.to_string(), "line 4: division by zero", "{action}");
            let col = line.find(")/(").unwrap() as u32 + 2;
            assert_eq!((e.line, e.col), (Some(4), Some(col)), "{action}");
        }
        for (script, line) in
            [(format!("produce 1\n\ncondition {d} > 0\n"), 3), (format!("produce 1\nx = {d}\ncondition x > 0\n"), 2)]
        {
            let (mut s, _out) = captured(&[("seed", "1")], &script);
            let e = s.run().unwrap_err();
            assert_eq!(e.to_string(), format!("line {line}: division by zero"), "{script}");
        }
    }

    #[test]
    fn an_impossible_bias_predeal_is_a_script_error_at_its_line() {
        let cases = [
            (
                "predeal north SAKQJ\npredeal spades(north)==2\nproduce 1\n",
                2,
                "North is predealt 4 Spades but its length is set to 2",
            ),
            (
                "predeal spades(north)==2\n\npredeal north SAKQJ\nproduce 1\n",
                3,
                "North is predealt 4 Spades but its length is set to 2",
            ),
            (
                "produce 1\npredeal spades(north)==0 hearts(north)==0 diamonds(north)==0\npredeal clubs(south)==1\n",
                3,
                "Bias predeal cannot be satisfied by any deal",
            ),
        ];
        for (script, line, message) in cases {
            for rng in ["chacha", "drand48"] {
                if rng == "drand48" && message.contains("predealt") {
                    continue; // DealerV2's bias predeal discards the card predeal
                }
                let (mut s, _out) = captured(&[("seed", "1"), ("rng", rng)], script);
                let e = s.run().unwrap_err();
                assert_eq!(e.kind, ErrorKind::Script, "{rng}: {script}");
                assert_eq!(e.to_string(), format!("line {line}: {message}"), "{rng}: {script}");
            }
        }
    }

    #[test]
    fn time_limit_stops_a_run_that_produces_nothing() {
        let (mut s, out) = captured(
            &[("rng", "glibc"), ("seed", "1"), ("time_limit", "1")],
            // Far more deals than a second deals: 10,000,000 (the default) can take under a
            // second when only North is dealt.
            "generate 1000000000
condition hcp(north) > 37
",
        );
        let started = Instant::now();
        let report = s.run().unwrap();
        assert!(report.timed_out && report.produced == 0);
        assert!(started.elapsed().as_secs_f64() < 3.0);
        assert!(text(&out).contains("Produced 0 hands"));
    }

    #[test]
    fn next_deal_and_eval() {
        let dir = std::env::temp_dir().join(format!("libdealer-session-opc-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let missing = dir.join("dop").to_string_lossy().into_owned();
        let mut s = Session::new();
        s.set_option("seed", "11").unwrap();
        s.set_option("opc_program", &missing).unwrap();
        s.load_script(b"big = hcp(south) >= 20\ncondition big\n").unwrap();
        assert_eq!(s.eval("hcp(south)").unwrap_err().kind, ErrorKind::Usage);
        for _ in 0..5 {
            let deal = s.next_deal().unwrap().expect("a deal with 20+ hcp in 10M tries");
            assert!(deal.is_complete());
            assert!(s.eval("hcp(south)").unwrap() >= 20);
            assert_eq!(s.eval("big").unwrap(), 1);
        }
        assert_eq!(s.eval("hcp(").unwrap_err().kind, ErrorKind::Script);
        let south = s.eval("dds(south, notrump)").unwrap();
        assert!((0..=13).contains(&south));
        assert_eq!(s.eval("dds(south, notrump) == tricks(south, notrump)").unwrap(), 1);
        // No DOP program where the option points (a fresh folder): a clear run error.
        let e = s.eval("opc(NS)").unwrap_err();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(e.kind, ErrorKind::Run);
        assert!(e.message.starts_with(&format!("opc: {missing}: cannot start")), "{}", e.message);
        s.set_option("produce", "2").unwrap();
        assert!(s.next_deal().unwrap().is_some());
        assert!(s.next_deal().unwrap().is_some());
        assert!(s.next_deal().unwrap().is_none());
    }

    #[test]
    fn opc_runs_dealerv2_dop_unless_told_otherwise() {
        // Only the configuration: whatever is installed at DealerV2's path is never run here.
        let mut s = Session::new();
        let config = s.opc_config();
        assert_eq!(config.program, std::path::Path::new("/usr/local/games/DealerV2_4/bin/dop"));
        assert_eq!(config.opener, 'W');
        s.set_option("opc_program", "/elsewhere/dop").unwrap();
        s.set_option("opener", "s").unwrap();
        let config = s.opc_config();
        assert_eq!(config.program, std::path::Path::new("/elsewhere/dop"));
        assert_eq!(config.opener, 'S');
    }

    #[test]
    fn eval_of_many_distinct_expressions_stays_bounded() {
        let mut s = Session::new();
        s.set_option("seed", "4").unwrap();
        s.load_script(b"produce 1\n").unwrap();
        s.next_deal().unwrap().unwrap();
        let hcp = s.eval("hcp(north)").unwrap();
        let script_nodes = s.program.as_ref().unwrap().nodes.len();
        for i in 0..3 * MAX_CACHED_EXPRESSIONS {
            assert_eq!(s.eval(&format!("hcp(north) + {i}")).unwrap(), hcp + i as i32);
        }
        assert!(s.program.as_ref().unwrap().nodes.len() < script_nodes + 4 * MAX_CACHED_EXPRESSIONS);
        assert_eq!(s.eval("hcp(north)").unwrap(), hcp);
    }

    #[test]
    fn compiled_expressions_survive_the_eval_cache_and_die_with_the_script() {
        let mut s = Session::new();
        s.set_option("seed", "4").unwrap();
        assert_eq!(s.compile_expression("hcp(north)").unwrap_err().kind, ErrorKind::Usage);
        s.load_script(b"big = hcp(north) >= 10\nproduce 3\n").unwrap();
        let hcp = s.compile_expression("hcp(north)").unwrap();
        let big = s.compile_expression("big").unwrap();
        assert_ne!(hcp, big);
        assert_eq!(s.eval_compiled(hcp).unwrap_err().kind, ErrorKind::Usage, "no current deal yet");
        let deal = s.next_deal().unwrap().unwrap();
        let expected =
            deal.hand(Seat::North).cards_descending().map(|c| c.rank().saturating_sub(8) as i32).sum::<i32>();
        assert_eq!(s.eval_compiled(hcp).unwrap(), expected);
        assert_eq!(s.eval_compiled(big).unwrap(), (expected >= 10) as i32);
        // Filling the eval cache past its bound drops its nodes; the pinned ones are rebuilt.
        for i in 0..MAX_CACHED_EXPRESSIONS + 5 {
            s.eval(&format!("hcp(south) + {i}")).unwrap();
        }
        assert_eq!(s.eval_compiled(hcp).unwrap(), expected);
        assert_eq!(s.eval_compiled(big).unwrap(), (expected >= 10) as i32);
        // A syntax error in an expression points into the expression.
        let e = s.compile_expression("hcp(north) +").unwrap_err();
        assert_eq!((e.kind, e.line), (ErrorKind::Script, Some(1)));
        assert!(e.describe().contains("hcp(north) +"), "{}", e.describe());
        // A new script invalidates the ids; new ids are not reused.
        s.load_script(b"produce 1\n").unwrap();
        assert!(s.eval_compiled(hcp).unwrap_err().message.contains("unknown expression id"));
        let again = s.compile_expression("hcp(north)").unwrap();
        assert!(again > big);
    }

    #[test]
    fn script_errors_carry_their_line_for_the_full_message() {
        let mut s = Session::new();
        let e = s.load_script(b"produce 1\ncondition hcp(north) > \naction printall\n").unwrap_err();
        assert_eq!(e.to_string(), "line 3: syntax error");
        assert_eq!(e.source_line.as_deref(), Some("action printall"));
        assert_eq!(e.describe(), "line 3, column 1: syntax error near 'action'\n    action printall\n    ^");
    }

    #[test]
    fn empty_predeal_option_removes_the_seat() {
        let mut s = Session::new();
        s.set_option("predeal_north", "SA").unwrap();
        assert!(s.options().predeal[0].is_some());
        s.set_option("predeal_north", "").unwrap();
        assert!(s.options().predeal.iter().all(Option::is_none));
    }

    #[test]
    fn output_to_a_file_descriptor() {
        use std::io::{Read, Seek};
        use std::os::fd::AsRawFd;
        let mut file = scratch_file();
        let mut s = Session::new();
        for (k, v) in [("rng", "glibc"), ("seed", "1")] {
            s.set_option(k, v).unwrap();
        }
        s.load_script(b"produce 1\naction printoneline\n").unwrap();
        s.set_sink(Stream::Output, Some(Sink::Descriptor(file.as_raw_fd())));
        s.run().unwrap();
        let mut written = String::new();
        file.rewind().unwrap();
        file.read_to_string(&mut written).unwrap();
        assert!(written.starts_with("n 2.T98.K752.KJT84 e 5.J7642.986.9763 s AQ8.AQ5.QJT.AQ52 w KJT97643.K3.A43. \n"));
        assert!(written.contains("Generated 1 hands\n"));
    }

    /// A scratch file whose directory entry is removed at once (only the open handle is used).
    fn scratch_file() -> std::fs::File {
        let path = std::env::temp_dir().join(format!("libdealer-session-test-{}", std::process::id()));
        let file = std::fs::OpenOptions::new().read(true).write(true).create(true).truncate(true).open(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        file
    }

    #[test]
    fn csv_and_export_streams() {
        let (mut s, out) = captured(
            &[("rng", "drand48"), ("seed", "5"), ("statistics", "false")],
            "produce 1\naction csvrpt(north, 7, \"x\"), export(north)\n",
        );
        let csv = capture(&mut s, Stream::Csv);
        s.run().unwrap();
        let csv = text(&csv);
        assert!(csv.starts_with(" n ") && csv.ends_with(",7,'x'\n"), "{csv}");
        assert!(text(&out).starts_with("-N S"), "export goes to the output stream");
    }

    #[test]
    fn command_line_predeal_replaces_the_script_predeal() {
        let mut s = Session::new();
        s.set_option("seed", "2").unwrap();
        s.set_option("predeal_east", "sakq,hak").unwrap();
        s.load_script(b"predeal west CA\nproduce 3\n").unwrap();
        let sa = Card::new(Suit::Spades, 12);
        let ca = Card::new(Suit::Clubs, 12);
        let mut west_had_ca = 0;
        while let Some(deal) = s.next_deal().unwrap() {
            assert_eq!(deal.holder(sa), Some(Seat::East));
            west_had_ca += (deal.holder(ca) == Some(Seat::West)) as usize;
        }
        assert!(west_had_ca < 3, "the script's predeal was replaced");
    }

    /// The sample library shipped with the parity material, if present.
    fn sample_library() -> Option<String> {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/parity/dealerv2/data/rpdd_10First");
        std::path::Path::new(&format!("{path}.zrd")).exists().then(|| path.to_string())
    }

    #[test]
    fn library_mode_reads_deals_and_their_tables() {
        let Some(sample) = sample_library() else {
            eprintln!("skipped: ../shared/parity/dealerv2/data not found");
            return;
        };
        let library = format!("{sample}.zrd");
        let (mut s, out) = captured(
            &[("library_file", &library), ("seed", "0")],
            "produce 10\naction printrpt(deal, trix(deal), par(NS, none))\n",
        );
        let report = s.run().unwrap();
        assert_eq!((report.generated, report.produced), (10, 10));
        let text = text(&out);
        // rpdd_10First.pbn: `n … w …;` and the 20 results as two-digit numbers.
        let listing = std::fs::read_to_string(format!("{sample}.pbn")).unwrap();
        for (line, want) in text.lines().zip(listing.lines()) {
            let (hands, tricks) = want.split_once(';').unwrap();
            let tricks: Vec<String> = tricks.split(',').map(|t| t.trim().parse::<u8>().unwrap().to_string()).collect();
            let expected = format!(" {} ,{},", hands, tricks.join(","));
            assert!(line.starts_with(&expected), "{line}\n{expected}");
        }
        assert!(text.contains("Library file records read 10, Wrap Arounds=0\nLibrary file starting seed 0\n"));
    }

    #[test]
    fn zrd_and_dl52_files_round_trip() {
        let dir = std::env::temp_dir().join(format!("libdealer-zrd-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let zrd = dir.join("out.zrd").to_string_lossy().into_owned();
        let dl52 = dir.join("out.dl52").to_string_lossy().into_owned();
        let report_script = "produce 4\naction printrpt(deal, trix(deal))\n";
        let (mut s, direct) = captured(
            &[("seed", "9"), ("statistics", "false"), ("title", "round trip"), ("zrd_file", &format!("w:{zrd}"))],
            report_script,
        );
        s.set_option("dl52_file", &format!("w:{dl52}")).unwrap();
        s.run().unwrap();
        let bytes = std::fs::read(&zrd).unwrap();
        assert_eq!(bytes.len(), 23 * (1 + 4), "one title record and four deals");
        assert_eq!(std::fs::read(&dl52).unwrap().len(), 52 * 4);
        let (mut s, again) = captured(&[("library_file", &zrd), ("seed", "0"), ("statistics", "false")], report_script);
        s.run().unwrap();
        assert_eq!(text(&again), text(&direct));
        // `N`: no results are solved or written.
        let (mut s, _) =
            captured(&[("seed", "9"), ("zrd_file", &format!("wN:{zrd}"))], "produce 2\naction printoneline\n");
        s.run().unwrap();
        let bytes = std::fs::read(&zrd).unwrap();
        assert_eq!(bytes.len(), 2 * 23);
        assert!(bytes[13..23].iter().all(|&b| b == 0));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn double_dummy_output_is_the_same_for_every_thread_count() {
        let scripts = [
            "produce 6\ncondition hcp(north) >= 12 && dds(north, notrump) >= 8\naction printoneline\n",
            "produce 4\ncondition shape(north, any 4432) || dds(north, notrump) >= 5\naction printrpt(deal, trix(north), parcontract), evalcontract(NS, z3N, vul)\n",
            // The actions' results are solved ahead only for the deals the condition accepts.
            "produce 5\ncondition dds(north, notrump) >= 9 || hcp(south) > 19\naction printoneline, average dds(south, spades), average dds(west, hearts)\n",
        ];
        for rng in ["chacha", "drand48"] {
            for script in scripts {
                let outputs: Vec<String> = ["1", "2", "3"]
                    .iter()
                    .map(|threads| {
                        let (mut s, out) = captured(
                            &[("rng", rng), ("seed", "21"), ("threads", threads), ("statistics", "false")],
                            script,
                        );
                        s.run().unwrap();
                        text(&out)
                    })
                    .collect();
                assert!(outputs[0].lines().count() >= 4, "{}", outputs[0]);
                assert_eq!(outputs[0], outputs[1], "{rng} {script}");
                assert_eq!(outputs[0], outputs[2], "{rng} {script}");
            }
        }
    }

    #[test]
    fn dealing_threads_change_nothing_but_the_speed() {
        let scripts = [
            "generate 200000\nproduce 30\ncondition hcp(north) >= 20 && shape(south, any 4432)\naction printoneline, average hcp(east)\n",
            "generate 50000\ncondition spades(west) >= 7\naction printes(rnd(1000), \" \", hcp(west), \"\\n\")\n",
            "generate 30000\npredeal north SAKQ\ncondition hearts(south) >= 6\naction average hcp(south), frequency(hcp(north), 9, 37)\n",
            "generate 100000\ncondition hcp(north) > 40\naction printoneline\n",
            "generate 100000\ncondition clubs(east) == 1 && 100 / (hcp(north) - 3) > 0\naction printoneline\n",
            // Statistics only: the threads add them up by chunk, the produce limit falling
            // within a chunk (then deal by deal), or no limit.
            "generate 300000\nproduce 23456\ncondition hcp(north) > 12 || spades(north) > 6\n\
             action average hcp(south) - 20, frequency \"s\" (spades(east), 1, 8), bktfreq (hcp(west), 4, 30, 3)\n",
            "generate 123457\ncondition shape(north, any 4333 + any 4432) && hcp(north) >= 12\n\
             action average \"h\" hcp(north) * hcp(north) * 100000, frequency (hearts(south), 0, 13)\n",
            "generate 100000\ncondition hcp(north) > 20\naction average hcp(north), average rnd(10)\n",
        ];
        // `bktfreq` is DealerV2's.
        let runs = scripts.iter().flat_map(|script| [(script, "v2"), (script, "classic")]);
        for (script, dialect) in runs.filter(|(script, dialect)| !(script.contains("bktfreq") && *dialect == "classic"))
        {
            let outputs: Vec<(String, String)> = ["1", "2", "3"]
                .iter()
                .map(|threads| {
                    let options = [("seed", "77"), ("threads", threads), ("rng", "chacha"), ("dialect", dialect)];
                    let (mut s, out) = captured(&options, script);
                    let result = s.run().map(|r| (r.generated, r.produced)).map_err(|e| e.to_string());
                    let text = text(&out);
                    // The run time differs; everything else must not.
                    let text: String = text.lines().filter(|l| !l.starts_with("Time")).collect::<Vec<_>>().join("\n");
                    (text, format!("{result:?}"))
                })
                .collect();
            assert_eq!(outputs[0], outputs[1], "{script} {dialect}");
            assert_eq!(outputs[0], outputs[2], "{script} {dialect}");
        }
    }

    #[test]
    fn statistics_read_the_hands_the_condition_left_undealt() {
        // The actions read only some seats, so a produced deal is completed only that far;
        // an action reading every hand (`printes("")`, which prints nothing) completes it whole.
        let body = "generate 40000\nproduce 40000\ncondition hcp(north) > 14 || spades(north) > 5\n\
                    action average hcp(west), frequency(spades(east), 0, 13), average hearts(south) + 0";
        for rng in ["chacha", "drand48", "glibc"] {
            for threads in ["1", "2"] {
                let outputs: Vec<String> = ["\n", ", printes(\"\")\n"]
                    .iter()
                    .map(|more| {
                        let options = [("seed", "11"), ("rng", rng), ("threads", threads)];
                        let (mut s, out) = captured(&options, &format!("{body}{more}"));
                        s.run().unwrap();
                        text(&out).lines().filter(|l| !l.starts_with("Time")).collect::<Vec<_>>().join("\n")
                    })
                    .collect();
                assert!(outputs[0].lines().count() > 15, "{}", outputs[0]);
                assert_eq!(outputs[0], outputs[1], "{rng} -R {threads}");
            }
        }
    }

    #[test]
    fn a_produce_limit_reached_on_a_chunk_s_last_accepted_deal() {
        // Produce exactly the deals accepted among the first 4096 (one chunk of the dealing
        // threads): the run ends at the last of them, not at the chunk's end.
        let script = |limits: &str| format!("{limits}condition hcp(north) > 14\naction average hcp(south)\n");
        let run = |limits: &str, threads: &str| {
            let (mut s, out) = captured(&[("seed", "3"), ("threads", threads), ("rng", "chacha")], &script(limits));
            let report = s.run().unwrap();
            let text: String = text(&out).lines().filter(|l| !l.starts_with("Time")).collect::<Vec<_>>().join("\n");
            (report.generated, report.produced, text)
        };
        let (_, in_first_chunk, _) = run("generate 4096\n", "1");
        let limits = format!("generate 100000\nproduce {in_first_chunk}\n");
        let one = run(&limits, "1");
        assert!(one.0 < 4096 && one.1 == in_first_chunk, "{one:?}");
        assert_eq!(run(&limits, "2"), one);
    }

    #[test]
    fn dealing_threads_stop_with_the_run() {
        // A produce limit reached early, a generate limit and next_deal all end cleanly.
        let (mut s, out) = captured(
            &[("seed", "5"), ("threads", "2")],
            "produce 3\ncondition hcp(north) >= 10\naction printoneline\n",
        );
        let report = s.run().unwrap();
        assert_eq!(report.produced, 3);
        assert_eq!(text(&out).lines().filter(|l| l.starts_with("n ")).count(), 3);
        let mut s = Session::new();
        s.set_option("threads", "2").unwrap();
        s.set_option("seed", "5").unwrap();
        s.load_script(b"condition hcp(south) >= 22\n").unwrap();
        let mut one = Session::new();
        one.set_option("threads", "1").unwrap();
        one.set_option("seed", "5").unwrap();
        one.load_script(b"condition hcp(south) >= 22\n").unwrap();
        for _ in 0..5 {
            assert_eq!(s.next_deal().unwrap(), one.next_deal().unwrap());
        }
    }

    /// Runs `body` on a new thread with `stack` bytes of stack.
    fn on_stack<T: Send + 'static>(stack: usize, body: impl FnOnce() -> T + Send + 'static) -> T {
        std::thread::Builder::new().stack_size(stack).spawn(body).unwrap().join().unwrap()
    }

    #[test]
    fn deep_expressions_fail_cleanly_on_a_small_stack() {
        // 9,000 levels: within the parser's limit, too deep for 256 KB of stack.
        let script = format!("produce 1\ncondition hcp(north){} > 10\n", "+hcp(south)".repeat(9_000));
        let e = on_stack(256 << 10, move || {
            let mut s = Session::new();
            s.load_script(script.as_bytes()).unwrap_err()
        });
        assert_eq!(e.to_string(), "line 2: expression nested too deeply for this thread's stack");
        assert_eq!(e.exit_code, 255);
        // The same depth on a large stack compiles and runs.
        let script = format!(
            "produce 1\ncondition 1{} == 9001\naction printes(0+1{}, \\n)\n",
            "+1".repeat(9_000),
            "+1".repeat(9_000)
        );
        let out = on_stack(64 << 20, move || {
            let (mut s, out) = captured(&[("seed", "1"), ("threads", "1")], &script);
            s.run().unwrap();
            text(&out)
        });
        assert!(out.starts_with("9001\n"), "{out}");
    }

    #[test]
    fn evaluation_watches_the_stack_of_the_thread_it_runs_on() {
        // Compiled on a large stack, run on a small one: an error, not an overflow.
        let script = format!("produce 1\ncondition hcp(north){} >= 0\n", "+hcp(south)".repeat(3_000));
        let mut s = on_stack(64 << 20, move || {
            let mut s = Session::new();
            s.set_option("threads", "1").unwrap();
            s.load_script(script.as_bytes()).unwrap();
            s
        });
        let _ = capture(&mut s, Stream::Output);
        let e = on_stack(256 << 10, move || s.run().unwrap_err());
        assert_eq!((e.kind, e.message.as_str()), (ErrorKind::Run, crate::program::TOO_DEEP));
    }

    #[test]
    fn an_interruption_stops_one_run_with_complete_output() {
        let script = "generate 100000000\nproduce 100000000\naction printoneline\n";
        let (mut s, out) = captured(&[("seed", "1"), ("threads", "2")], script);
        let interrupter = s.interrupter();
        let stopper = std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(200));
            interrupter.interrupt();
        });
        let e = s.run().unwrap_err();
        stopper.join().unwrap();
        assert_eq!((e.kind, e.message.as_str(), e.exit_code), (ErrorKind::Interrupted, "interrupted", 130));
        let text = text(&out);
        assert!(text.lines().count() > 100, "deals were printed before the interruption");
        assert!(text.ends_with('\n') && text.lines().all(|l| l.len() == 76 && l.starts_with("n ")));
        // The interruption was used up: the next run goes to its end.
        s.set_option("produce", "3").unwrap();
        assert_eq!(s.run().unwrap().produced, 3);
        // An interruption before a run stops that run.
        s.interrupter().interrupt();
        assert_eq!(s.run().unwrap_err().kind, ErrorKind::Interrupted);
    }

    #[test]
    fn deal_lists_for_print_are_bounded() {
        let (mut s, _) = captured(&[("seed", "1"), ("produce", "2000000")], "generate 5000000\naction print(north)\n");
        let e = s.run().unwrap_err();
        assert_eq!(e.kind, ErrorKind::Run);
        assert!(e.message.starts_with("print(...) keeps every produced deal"), "{}", e.message);
        let (mut s, out) = captured(&[("seed", "1"), ("produce", "3")], "action print(north)\n");
        s.run().unwrap();
        assert!(text(&out).contains("North hands:"), "{}", text(&out));
    }

    /// The output of a one-deal `printall` run of `title{gap}"T"`, up to the time line.
    fn titled_run(dialect: &str, gap: &str) -> Result<String> {
        let mut s = Session::new();
        for (k, v) in [("dialect", dialect), ("rng", "drand48"), ("seed", "1")] {
            s.set_option(k, v).unwrap();
        }
        s.load_script(format!("title{gap}\"T\"\ngenerate 1\nproduce 1\naction printall\n").as_bytes())?;
        let out = capture(&mut s, Stream::Output);
        s.run()?;
        let text = text(&out);
        Ok(text[..text.find("Time needed").expect("a time line")].to_string())
    }

    #[test]
    fn v2_title_keyword_takes_every_blank_after_it() {
        // Flex's `title({ws}|{nl})`, `ws=[ \t]+`: blanks and tabs after `title` are never echoed.
        let expected =
            "                  [T]\n   1. North              East                South               West \n";
        let plain = titled_run("v2", " ").unwrap();
        assert!(plain.starts_with(expected), "{plain:?}");
        assert!(plain.ends_with("\nT\nGenerated 1 hands\nProduced  1 hands\nInitial random seed 1\n"), "{plain:?}");
        for gap in ["   ", "\t", " \t \t", "\t\t  "] {
            assert_eq!(titled_run("v2", gap).unwrap(), plain, "gap {gap:?}");
        }
        // One newline is taken instead; what follows the blanks (here a newline) is echoed.
        assert_eq!(titled_run("v2", "\n").unwrap(), plain);
        assert_eq!(titled_run("v2", "  \n").unwrap(), format!("\n{plain}"));
    }

    #[test]
    fn classic_title_is_a_variable_whatever_the_blanks() {
        // Classic dealer has no `title` statement: /usr/games/dealer says "line 1: unknown variable".
        for gap in [" ", "   ", "\t"] {
            let e = titled_run("classic", gap).unwrap_err();
            assert_eq!((e.kind, e.to_string()), (ErrorKind::Script, "line 1: unknown variable".to_string()), "{gap:?}");
        }
    }

    /// A session with `untrusted` on and the options given, whose output stream is captured.
    fn untrusted(options: &[(&str, &str)], script: &str) -> (Session, Arc<Mutex<Vec<u8>>>) {
        let mut all = vec![("untrusted", "true")];
        all.extend_from_slice(options);
        captured(&all, script)
    }

    #[test]
    fn untrusted_refuses_opc_at_its_line_and_column() {
        let script = "produce 1\ncondition hcp(north) > 10 && opc(NS) > 100\n";
        let mut s = Session::new();
        s.set_option("untrusted", "true").unwrap();
        let e = s.load_script(script.as_bytes()).unwrap_err();
        assert_eq!((e.kind, e.line, e.col, e.exit_code), (ErrorKind::NotAllowed, Some(2), Some(30), 5));
        assert_eq!(e.message, "opc() is not allowed in an untrusted script: it runs an external program");
        assert!(e.describe().contains("near 'opc(NS)'"), "{}", e.describe());
        // Loaded before `untrusted` was set: refused when the run starts, before any deal.
        let (mut s, out) = captured(&[("opc_program", "/bin/true")], script);
        s.set_option("untrusted", "true").unwrap();
        let e = s.run().unwrap_err();
        assert_eq!((e.kind, e.line, e.col), (ErrorKind::NotAllowed, Some(2), Some(30)));
        assert_eq!(e.source_line.as_deref(), Some("condition hcp(north) > 10 && opc(NS) > 100"));
        assert!(text(&out).is_empty(), "nothing was dealt: {}", text(&out));
        assert_eq!(s.next_deal().unwrap_err().kind, ErrorKind::NotAllowed);
        // An expression for eval is refused too, and leaves nothing behind.
        let mut s = Session::new();
        s.set_option("untrusted", "true").unwrap();
        s.set_option("seed", "1").unwrap();
        s.load_script(b"produce 1\n").unwrap();
        s.next_deal().unwrap().unwrap();
        let nodes = s.program.as_ref().unwrap().nodes.len();
        for _ in 0..3 {
            let e = s.eval("hcp(north) + opc(EW, spades)").unwrap_err();
            assert_eq!((e.kind, e.line, e.col), (ErrorKind::NotAllowed, Some(1), Some(14)));
            assert_eq!(s.compile_expression("opc(NS)").unwrap_err().kind, ErrorKind::NotAllowed);
        }
        assert_eq!(s.program.as_ref().unwrap().nodes.len(), nodes);
        assert!(s.eval("hcp(north)").is_ok());
    }

    #[test]
    fn untrusted_refuses_usereval_through_a_dealer_server() {
        let script = "produce 1\nx = hcp(south)\ncondition x > 3 || usereval(1, NS, 2) > 0\naction printoneline\n";
        // Trusted, the DealerServer is started (and fails here: there is no such program).
        let (mut s, _) = captured(&[("server", "/nonexistent/DealerServer")], script);
        assert_eq!(s.run().unwrap_err().kind, ErrorKind::Run);
        // Untrusted, nothing is started: the call is refused at its place before any deal.
        let (mut s, out) = untrusted(&[("server", "/nonexistent/DealerServer")], script);
        let e = s.run().unwrap_err();
        assert_eq!((e.kind, e.line, e.col), (ErrorKind::NotAllowed, Some(3), Some(20)), "{e:?}");
        assert!(e.message.starts_with("usereval() is not allowed in an untrusted script"), "{}", e.message);
        assert!(text(&out).is_empty());
        assert_eq!(s.next_deal().unwrap_err().kind, ErrorKind::NotAllowed);
        s.next_deal().unwrap_err();
        assert_eq!(s.compile_expression("usereval(2, EW, 0)").unwrap_err().kind, ErrorKind::NotAllowed);
        // Set back to trusted, the same session starts the server again.
        s.set_option("untrusted", "false").unwrap();
        assert_eq!(s.run().unwrap_err().kind, ErrorKind::Run);
    }

    /// A `usereval` metric that answers 7 in every slot.
    struct Sevens;

    impl Metric for Sevens {
        fn evaluate(
            &mut self,
            _: &crate::external::usereval::Query,
            _: &crate::external::usereval::QueryContext,
            slots: &mut [i32; crate::external::usereval::SLOTS],
        ) -> Result<()> {
            slots.fill(7);
            Ok(())
        }
    }

    #[test]
    fn untrusted_allows_an_in_process_usereval_metric() {
        let script =
            "produce 2\ncondition usereval(1, NS, 2) == 7\naction printes(usereval(3, west, spades, 1), \\n)\n";
        let (mut s, out) = untrusted(&[("seed", "1"), ("server", "/nonexistent/DealerServer")], script);
        s.set_in_process_metric(Some(Box::new(|| Box::new(Sevens) as Box<dyn Metric>)));
        let report = s.run().unwrap();
        assert_eq!((report.produced, report.ceiling), (2, None));
        assert!(text(&out).starts_with("7\n7\n"), "{}", text(&out));
        s.next_deal().unwrap().unwrap();
        assert_eq!(s.eval("usereval(4, south, 0)").unwrap(), 7);
        // opc stays refused.
        assert_eq!(s.eval("opc(NS)").unwrap_err().kind, ErrorKind::NotAllowed);
        // Without the metric, the same script is refused.
        s.set_in_process_metric(None);
        assert_eq!(s.run().unwrap_err().kind, ErrorKind::NotAllowed);
    }

    #[test]
    fn ceilings_default_under_untrusted_and_follow_their_options() {
        let mut s = Session::new();
        let none = Ceilings { time: None, generate: None, output_bytes: None };
        assert_eq!(s.options().ceilings(), none);
        s.set_option("untrusted", "true").unwrap();
        let defaults = Ceilings {
            time: Some(std::time::Duration::from_secs(10)),
            generate: Some(10_000_000),
            output_bytes: Some(1 << 20),
        };
        assert_eq!(s.options().ceilings(), defaults);
        s.set_option("max_seconds", "2.5").unwrap();
        s.set_option("max_generate", "1000").unwrap();
        s.set_option("max_output_bytes", "0").unwrap();
        let c = s.options().ceilings();
        assert_eq!(
            (c.time, c.generate, c.output_bytes),
            (Some(std::time::Duration::from_millis(2500)), Some(1000), None)
        );
        for key in ["max_seconds", "max_generate", "max_output_bytes"] {
            s.set_option(key, "default").unwrap();
            assert_eq!(s.set_option(key, "-1").unwrap_err().kind, ErrorKind::Option);
            assert_eq!(s.set_option(key, "lots").unwrap_err().kind, ErrorKind::Option);
        }
        assert_eq!(s.options().ceilings(), defaults);
        assert_eq!(s.set_option("untrusted", "perhaps").unwrap_err().kind, ErrorKind::Option);
        // Trusted, a ceiling applies when its option sets one.
        s.set_option("untrusted", "false").unwrap();
        s.set_option("max_generate", "5").unwrap();
        assert_eq!(s.options().ceilings(), Ceilings { generate: Some(5), ..none });
    }

    /// The generate and produce limits a job of `script` gets with these options.
    fn job_limits(options: &[(&str, &str)], script: &str) -> (i64, i64) {
        let (s, _) = captured(options, script);
        let job = s.start_job(SeatSet::ALL, None).unwrap();
        (job.max_generate, job.max_produce)
    }

    #[test]
    fn the_generate_ceiling_caps_generate_and_produce() {
        let script = "generate 50000000\nproduce 20000000\ncondition hcp(north) > 10\n";
        assert_eq!(job_limits(&[], script), (50_000_000, 20_000_000));
        assert_eq!(job_limits(&[("untrusted", "true")], script), (10_000_000, 10_000_000));
        assert_eq!(job_limits(&[("untrusted", "true"), ("generate", "60000000")], script), (10_000_000, 10_000_000));
        assert_eq!(
            job_limits(&[("untrusted", "true"), ("max_generate", "30000000")], script),
            (30_000_000, 20_000_000)
        );
        assert_eq!(job_limits(&[("untrusted", "true"), ("max_generate", "0")], script), (50_000_000, 20_000_000));
        assert_eq!(job_limits(&[("max_generate", "77")], script), (77, 77));
        // Below the ceiling nothing changes.
        assert_eq!(job_limits(&[("untrusted", "true")], "generate 1000\n"), (1000, 40));
        // A run stopped by the ceiling says so, whatever the thread count; one that ends
        // within it does not.
        for threads in ["1", "2"] {
            let options = [("seed", "3"), ("threads", threads), ("max_generate", "5000")];
            let (mut s, out) = untrusted(&options, "generate 100000\ncondition hcp(north) > 37\naction printoneline\n");
            let report = s.run().unwrap();
            assert_eq!((report.generated, report.produced, report.ceiling), (5000, 0, Some(Ceiling::Generate)));
            assert!(text(&out).contains("Generated 5000 hands\nProduced  0 hands\n"), "{}", text(&out));
            let (mut s, _) = untrusted(&options, "generate 5000\ncondition hcp(north) > 37\n");
            assert_eq!(s.run().unwrap().ceiling, None);
        }
    }

    #[test]
    fn the_time_ceiling_stops_runs_and_next_deal() {
        // A run that produces nothing, one that prints without end, and one that solves double
        // dummy for every deal (looked at every deal): each stops within the ceiling, cleanly.
        let scripts = [
            ("generate 1000000000\ncondition hcp(north) > 37\n", "2"),
            ("generate 1000000000\nproduce 1000000000\naction printoneline\n", "1"),
            ("generate 1000000000\ncondition dds(north, notrump) > 13\n", "1"),
        ];
        for (script, threads) in scripts {
            // No generate ceiling: 10^7 deals (the untrusted default) can take under 0.3 s.
            let options = [
                ("seed", "1"),
                ("threads", threads),
                ("max_seconds", "0.3"),
                ("max_output_bytes", "0"),
                ("max_generate", "0"),
            ];
            let (mut s, out) = untrusted(&options, script);
            let started = Instant::now();
            let report = s.run().unwrap();
            let elapsed = started.elapsed().as_secs_f64();
            assert_eq!(report.ceiling, Some(Ceiling::Time), "{script}");
            assert!((0.3..3.0).contains(&elapsed), "{elapsed} s: {script}");
            let text = text(&out);
            assert!(text.contains(&format!("Produced  {} hands\n", report.produced)), "{script}");
            let deals = text.lines().filter(|l| l.starts_with("n ")).count() as i64;
            assert!(text.lines().filter(|l| l.starts_with("n ")).all(|l| l.len() == 76), "{script}");
            assert_eq!(deals, if script.contains("printoneline") { report.produced } else { 0 });
        }
        // next_deal: each call gets the ceiling; a call that finds nothing in time fails.
        let (mut s, _) =
            untrusted(&[("seed", "1"), ("max_seconds", "0.2"), ("max_generate", "0")], "condition hcp(north) > 37\n");
        let e = s.next_deal().unwrap_err();
        assert_eq!(e.kind, ErrorKind::Run);
        assert_eq!(e.message, "no deal found within the time ceiling of 0.2 s (option max_seconds)");
        let (mut s, _) = untrusted(&[("seed", "1"), ("max_seconds", "0.2")], "condition hcp(north) > 20\n");
        for _ in 0..3 {
            assert!(s.next_deal().unwrap().is_some());
        }
    }

    #[test]
    fn the_output_ceiling_keeps_whole_deals_and_lines() {
        // 12 one-line deals of 77 bytes fit in 1000: the 13th is not written at all.
        let script = "produce 100\naction printoneline\n";
        let (mut s, out) = untrusted(&[("seed", "1"), ("statistics", "false"), ("max_output_bytes", "1000")], script);
        let report = s.run().unwrap();
        assert_eq!((report.produced, report.ceiling), (12, Some(Ceiling::Output)));
        let written = text(&out);
        assert_eq!(written.len(), 12 * 77);
        assert!(written.lines().all(|l| l.len() == 76 && l.starts_with("n ")));
        // The default (1 MiB), with the statistics footer: cut after its last line that fits.
        let (mut s, out) = untrusted(&[("seed", "1")], "produce 100000\naction printoneline\n");
        let report = s.run().unwrap();
        assert_eq!(report.ceiling, Some(Ceiling::Output));
        let written = text(&out);
        assert!(written.len() <= 1 << 20 && written.len() > (1 << 20) - 77, "{}", written.len());
        assert_eq!(report.produced as usize, (1 << 20) / 77);
        let deal_lines = written.lines().take_while(|l| l.len() == 76 && l.starts_with("n ")).count();
        assert_eq!(deal_lines as i64, report.produced);
        // Then the footer's lines that fit, whole.
        assert!(written.ends_with('\n') && written[deal_lines * 77..].starts_with("Generated "), "{written}");
        // Several lines per deal, csv records and statistics: every stream counts, a deal is
        // written whole or not at all, and the statistics count the deals written.
        let script =
            "produce 1000\naction printes(hcp(north), \\n, hcp(south), \\n), csvrpt(hcp(east)), average hcp(west)\n";
        let unlimited = |max: &str| {
            let (mut s, out) = captured(&[("seed", "4"), ("max_output_bytes", max)], script);
            let csv = capture(&mut s, Stream::Csv);
            let report = s.run().unwrap();
            (report, text(&out), text(&csv))
        };
        let (full_report, full, full_csv) = unlimited("0");
        assert_eq!(full_report.ceiling, None);
        let (report, limited, csv) = unlimited("3000");
        assert_eq!(report.ceiling, Some(Ceiling::Output));
        let n = report.produced as usize;
        assert!(n > 100 && n < 1000);
        let deal_lines: Vec<&str> = limited.lines().take(2 * n).collect();
        assert_eq!(deal_lines, full.lines().take(2 * n).collect::<Vec<_>>());
        assert_eq!(csv.lines().count(), n);
        assert!(full_csv.starts_with(&csv));
        assert!(limited.len() + csv.len() <= 3000);
        if limited.contains("Sample Size") {
            assert!(limited.contains(&format!("Sample Size={n} ")), "{limited}");
        }
    }

    #[test]
    fn a_failing_deal_keeps_to_the_output_ceiling() {
        // The first deal prints 81 bytes; the second prints its line (77 bytes), then fails:
        // the line stays only within the ceiling.
        let script = "produce 5\naction printoneline, printes(10 / (rnd(0) - 2), \\n)\n";
        for (max, lines) in [("0", 3), ("200", 3), ("100", 2)] {
            let (mut s, out) = captured(&[("seed", "1"), ("max_output_bytes", max)], script);
            let e = s.run().unwrap_err();
            assert_eq!(e.message, "division by zero");
            let text = text(&out);
            assert_eq!(text.lines().count(), lines, "{max}: {text}");
            assert_eq!(text.lines().nth(1), Some("-10"));
        }
    }

    #[test]
    fn the_output_ceiling_counts_print_pages_before_they_are_printed() {
        for dialect in ["v2", "classic"] {
            let script = "title \"pages\"\nproduce 500\naction print(north, west)\n";
            let script = if dialect == "classic" { script.split_once('\n').unwrap().1 } else { script };
            let options = [("seed", "2"), ("statistics", "false"), ("dialect", dialect), ("max_output_bytes", "5000")];
            let (mut s, out) = untrusted(&options, script);
            let report = s.run().unwrap();
            assert_eq!(report.ceiling, Some(Ceiling::Output));
            let limited = text(&out);
            assert!(limited.len() <= 5000, "{}", limited.len());
            // The pages of exactly the deals produced.
            let (mut s, out) = captured(&[("seed", "2"), ("statistics", "false"), ("dialect", dialect)], script);
            s.set_option("produce", &report.produced.to_string()).unwrap();
            s.run().unwrap();
            assert_eq!(limited, text(&out), "{dialect}");
            assert!(limited.ends_with('\x0c') && limited.len() > 4000, "{}", limited.len());
        }
    }

    #[test]
    fn hand_pages_length_is_what_the_pages_print() {
        let mut s = Session::new();
        s.set_option("seed", "8").unwrap();
        s.load_script(b"condition spades(north) > 7 || hearts(west) == 0\n").unwrap();
        let deals: Vec<Deal> = (0..11).map(|_| s.next_deal().unwrap().unwrap()).collect();
        for (dialect, title, first) in
            [(Dialect::V2, Some("t"), 9_998), (Dialect::Classic, None, 1), (Dialect::V2, None, 1)]
        {
            let seats = [Seat::West, Seat::North, Seat::West];
            let mut length = actions::HandPagesLength::new(dialect, &seats, title, first);
            for n in 0..=deals.len() {
                let mut printed = Vec::new();
                actions::print_hand_pages(&mut printed, dialect, &deals[..n], &seats, title, first);
                assert_eq!(length.bytes_with(None), printed.len(), "{n} deals");
                if let Some(deal) = deals.get(n) {
                    let mut more = Vec::new();
                    actions::print_hand_pages(&mut more, dialect, &deals[..=n], &seats, title, first);
                    assert_eq!(length.bytes_with(Some(deal)), more.len());
                    length.add(deal);
                }
            }
        }
    }
}
