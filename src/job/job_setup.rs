//! A job's setup: what a job of a session's loaded program is built from, decided when it
//! starts. [`JobSetup::start`] reads the options and the program and chooses the seed
//! (src/job/seed.rs), the generate and produce limits ([`limits`]), the predeal in force
//! ([`predeal_in_force`]), the dealer (smart dealing's first seat, library mode), the
//! double-dummy solver and whether it deals ahead, the dealing threads, and the external
//! metrics (`usereval`'s in-process metric or DealerServer, `opc`'s DOP program); the calls of
//! external programs an untrusted script makes are refused here ([`refuse_external_calls`]).
//! The [`Session`](super::session::Session) lends it what it holds and runs the job it gets.

use std::sync::Arc;

use crate::cards::{Card, Seat, SeatSet, Suit};
use crate::dd::zrd::LibraryReader;
use crate::dd::{DdCache, DoubleDummy, Need, SolverPool};
use crate::dealing::{spots_need_chacha, Dealer, DealingSetup, GeneratorKind, SpotCards};
use crate::dialect::Dialect;
use crate::error::{Error, ErrorKind, Result};
use crate::external::dealer_server::{DealerServer, ServerConfig};
use crate::external::opc::{Opc, OpcConfig};
use crate::external::usereval::{ExternalMetrics, Metric, UserEval};
use crate::interrupter::Interrupter;
use crate::job::clause_order::ClauseOrder;
use crate::job::dealing_loop::Job;
use crate::job::lookahead::{Lookahead, CERTAIN_DEALS_PER_THREAD_IN_A_BATCH, DEALS_PER_THREAD_IN_A_BATCH};
use crate::job::options::{parse_debug, predeal_cards, Options, PartOptions, GENERATE_NOTHING};
use crate::job::parallel::ParallelDealing;
use crate::job::record_input::{PredealCheck, RecordInput};
use crate::job::report::Statistics;
use crate::job::seed::seed_for_next_job;
use crate::job::smart::SmartChoice;
use crate::program::deal_expr::StagedCondition;
use crate::program::{CompiledAction, DdUse, ExternalCall, Program};
use crate::records::{InputSource, RecordReader};

/// A card predeal: the predealt cards and the spot holdings.
pub(crate) type CardPredeal = (Vec<(Seat, Card)>, Vec<SpotCards>);

/// glibc's drand48 state before any seeding (`rnd()` in DealerV2's library mode).
const UNSEEDED_DRAND48: u64 = 0x1234_ABCD_330E;

/// Most deals a run may keep for `print(compass…)`, which prints them all at the end (32 MB).
const MAX_KEPT_DEALS: i64 = 1_000_000;

/// Builds a `usereval` metric for a job.
pub type MetricMaker = Box<dyn Fn() -> Box<dyn Metric> + Send>;

/// DealerV2's DealerServer program, used when no `server` option is set.
const DEFAULT_SERVER: &str = "/usr/local/games/DealerV2_4/bin/DealerServer";

/// DealerV2's DOP program, used by `opc()` when no `opc_program` option is set.
const DEFAULT_OPC_PROGRAM: &str = "/usr/local/games/DealerV2_4/bin/dop";

/// What a job is set up from: a session's options and loaded program, and what the session
/// lends each of its jobs.
pub(crate) struct JobSetup<'a> {
    /// The options in force.
    pub(crate) options: &'a Options,
    /// The loaded program.
    pub(crate) program: &'a Program,
    /// The program's source, for the excerpts of errors.
    pub(crate) script_text: &'a [u8],
    /// Builds the caller's `usereval` metric for each job, when one is set.
    pub(crate) in_process_metric: Option<&'a MetricMaker>,
    /// Where the double-dummy results come from.
    pub(crate) double_dummy: &'a DoubleDummy,
    /// Stops the job's runs from outside.
    pub(crate) interrupter: &'a Interrupter,
}

impl JobSetup<'_> {
    /// Builds the dealer and the limits of a new job from the options and the program, for a
    /// consumer of the produced deals that reads the hands of `produced_seats`; dealing
    /// threads add up `statistics` (empty) by chunk when given, and judge the deal numbers
    /// `deals` (a part of the job) instead of the whole job's when given.
    pub(crate) fn start(
        &self,
        produced_seats: SeatSet,
        statistics: Option<Statistics>,
        deals: Option<std::ops::Range<u64>>,
    ) -> Result<Job> {
        let (program, o) = (self.program, self.options);
        if o.untrusted {
            let usereval = self.in_process_metric.is_none();
            refuse_external_calls(program, 0..program.script_node_count(), usereval, self.script_text)?;
        }
        let s = &program.settings;
        let (mut max_generate, mut max_produce, mut generate_capped) = limits(o, program);
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

        let seed_value = seed_for_next_job(o, Some(program));

        let (predeal, spots) = predeal_in_force(o, program)?;
        check_lead_studies(program, o, &predeal, &spots)?;
        let mut setup = DealingSetup {
            generator: o.generator,
            seed: seed_value,
            drand48_state: None,
            predeal,
            bias: s.bias,
            spots,
            swap: o.swap,
            first_seat: None,
            first_seat_table: None,
            first_partner: None,
            first_seat_biased: None,
        };
        // Smart dealing: the seat read first, dealt from its exact count when that pays.
        let input = match &o.input {
            Some(source) => Some(open_input(o, source, &setup.predeal, &setup.spots, s.bias)?),
            None => None,
        };
        let smart = if o.smart && o.library_file.is_none() && input.is_none() {
            SmartChoice::new(program, &setup)
        } else {
            SmartChoice::default()
        };
        setup.first_seat = smart.first_seat;
        setup.first_seat_table = smart.table.clone();
        setup.first_partner = smart.partner;
        setup.first_seat_biased = smart.biased.clone();
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
                if !setup.predeal.is_empty() || !setup.spots.is_empty() {
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
        let dd_use = job_dd_use(program, o);
        let table_mode = o.dds_mode == 2 || dd_use.table_feature.is_some() || zrd_tricks(o) || library.is_some();
        let threads = o.dd_threads();
        // Double dummy solves on the pool's threads, or on the DDS's own workers where it has
        // them (the WebAssembly build).
        let dd_threads = threads.max(self.double_dummy.parallel_jobs());
        let program_seats = program.condition_seats();
        // Dealing ahead pays when batches can use several threads; `rnd()` draws from the
        // dealing stream, so its results would change.
        let lookahead = (dd_threads > 1
            && library.is_none()
            && input.is_none()
            && !(dd_use.condition.is_empty() && dd_use.actions.is_empty())
            && !program.uses_rnd()
            && !program.uses_external_metrics())
        .then(|| Lookahead {
            queue: Default::default(),
            batch: dd_threads,
            // Deals whose verdict waits for the solver may be dealt in vain (an accepted one
            // ends the batch in drand48 mode); deals only actions need results for never are.
            largest_batch: dd_threads
                * if dd_use.condition.is_empty() {
                    CERTAIN_DEALS_PER_THREAD_IN_A_BATCH
                } else {
                    DEALS_PER_THREAD_IN_A_BATCH
                },
            condition_need: dd_use.condition,
            action_need: dd_use.actions,
        });
        // The clauses that ask no solver judged before those that do.
        let clause_order =
            program.condition.filter(|_| !dd_use.condition.is_empty()).and_then(|c| ClauseOrder::arrange(program, c));
        let fast_condition =
            program.condition.and_then(|condition| StagedCondition::new(program, condition, dealer.dealing_order()));
        // Only the seats the condition reads first are dealt before it is judged.
        let program_seats = fast_condition.as_ref().map_or(program_seats, StagedCondition::first_seats);
        // Worker threads deal and judge when every deal's verdict depends on the deal alone.
        let parallel = (threads > 1
            && library.is_none()
            && input.is_none()
            && lookahead.is_none()
            && dd_use.condition.is_empty()
            && dealer.deals_independently()
            && program.condition_reads_only_the_deal())
        .then(|| {
            let program = Arc::new(program.clone());
            let fast = fast_condition.clone();
            let seats = (program_seats, produced_seats);
            let deals = match deals {
                Some(range) => range,
                None => 0..max_generate.max(0) as u64,
            };
            ParallelDealing::start(program, fast, &dealer, seats, threads, deals, statistics)
        })
        .flatten();
        Ok(Job {
            interrupter: self.interrupter.clone(),
            parallel,
            fast_condition,
            dealer,
            lookahead,
            library,
            input,
            library_discards,
            dd: DdCache::new(
                SolverPool::new(dd_threads, o.dds_table_memory, self.double_dummy.clone()),
                table_mode,
                o.par_vulnerability,
            ),
            table_mode_notice: dd_use.table_feature.filter(|_| o.dds_mode != 2),
            external: self.external_metrics()?,
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
            smart_counts: smart.counted,
            clause_order,
            // Verifying the tables a file carries solves them: counted too.
            counts_dd: dd_use.solves() || (o.input.is_some() && o.verify_dd > 0),
            summary_json: Vec::new(),
            dd_counts_line: o.extra.get("debug").and_then(|d| parse_debug(d)).is_some_and(|(n, _)| n >= 2),
            given: None,
            action_need: dd_use.actions,
            seconds_before: 0.0,
        })
    }

    /// Sets up `usereval` (the in-process metric if one is set, else the DealerServer, started
    /// whenever the script mentions `usereval`, as DealerV2 does) and `opc` for a job. Under
    /// `untrusted` only the in-process metric is set up: no program is ever started.
    fn external_metrics(&self) -> Result<ExternalMetrics> {
        let (program, o) = (self.program, self.options);
        let mut external = ExternalMetrics::default();
        if let Some(make) = self.in_process_metric {
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
        external.opc = Some(Opc::new(opc_config(o, self.interrupter)));
        Ok(external)
    }
}

/// How `opc()` runs the DOP program under `options`: `opc_program` (default DealerV2's path),
/// the opener (`-O`, West unless N, E or S) and `external_timeout`; `interrupter` ends a wait
/// for the program.
pub(crate) fn opc_config(options: &Options, interrupter: &Interrupter) -> OpcConfig {
    let o = options;
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
        interrupter: Some(interrupter.clone()),
    }
}

/// The run's generate and produce limits for `program` under `options` (the script's
/// `generate` and `produce`, the options', the peers' defaults, the generate ceiling), and
/// whether the ceiling lowered the generate limit.
pub(crate) fn limits(options: &Options, program: &Program) -> (i64, i64, bool) {
    let o = options;
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
    let mut max_produce = o.produce.filter(|&p| p != 0).or(s.produce).map(narrow).unwrap_or(if program.prints_deals {
        40
    } else {
        max_generate
    });
    if let Some(ceiling) = ceilings.generate {
        // No run produces more than it generates.
        max_produce = max_produce.min(ceiling);
    }
    if o.input.is_some() {
        // Records read from a file: every record unless a limit is given.
        if o.generate.filter(|&g| g != 0).or(s.generate).is_none() {
            max_generate = ceilings.generate.unwrap_or(i64::MAX);
        }
        if o.produce.filter(|&p| p != 0).or(s.produce).is_none() {
            max_produce = max_generate;
        }
    }
    if dialect == Dialect::V2 {
        max_produce = max_produce.min(max_generate);
    }
    (max_generate, max_produce, generate_capped)
}

/// Opens the input of records `source` for a job under the predeal in force (`predeal`,
/// `spots`, the bias lengths `bias`); refuses the options that cannot go with it.
fn open_input(
    o: &Options,
    source: &InputSource,
    predeal: &[(Seat, Card)],
    spots: &[SpotCards],
    bias: [[i8; 4]; 4],
) -> Result<RecordInput> {
    let refused = if o.library_file.is_some() {
        Some("a library file (-L): the deals come from one or the other")
    } else if o.swap != 0 {
        Some("swapping (-x): a record is one deal")
    } else if o.rotate {
        Some("rotate: a record's board keeps its own dealer")
    } else if o.scale_out != PartOptions::default() {
        Some("part, deals and part_file: an input is read whole, by one run")
    } else {
        None
    };
    if let Some(why) = refused {
        return Err(Error::new(ErrorKind::Option, format!("option input is not available with {why}")));
    }
    let reader = RecordReader::open(source, o.input_format).map_err(|m| Error::new(ErrorKind::Io, m))?;
    let check = PredealCheck::new(predeal, bias, spots);
    Ok(RecordInput::new(reader, check, o.skip_malformed, o.verify_dd))
}

/// The cards and spot holdings predealt under `options`: the command line's, else those of
/// `program`'s script.
pub(crate) fn predeal_in_force(options: &Options, program: &Program) -> Result<CardPredeal> {
    let (o, s) = (options, &program.settings);
    Ok(match command_line_predeal(options)? {
        Some(given) => given,
        None => {
            let compatibility = o.generator != GeneratorKind::ChaCha && o.library_file.is_none();
            if let (Some((_, pos)), true) = (s.spots.first(), compatibility) {
                return Err(Error::script(spots_need_chacha(o.generator), pos.line, pos.col));
            }
            (s.predeal.clone(), s.spots.iter().map(|(x, _)| *x).collect())
        }
    })
}

/// Refuses a `leads` action whose leader's thirteen cards the predeal in force does not fix
/// (spot cards, `x`, leave some to chance), or that reads its deals from a library file (which
/// ignores predeal): the error stands where the action does.
fn check_lead_studies(program: &Program, o: &Options, predeal: &[(Seat, Card)], spots: &[SpotCards]) -> Result<()> {
    for action in &program.actions {
        let CompiledAction::Leads(study) = action else { continue };
        let leader = study.leader;
        let fixed = predeal.iter().filter(|(seat, _)| *seat == leader).count();
        let why = if o.library_file.is_some() {
            "leads is not available with a library file, whose deals ignore predeal".to_string()
        } else if fixed < 13 || spots.iter().any(|spot| spot.seat == leader) {
            format!(
                "leads({}, ...) needs {}'s thirteen cards fixed by predeal (the leader's hand of a lead study); \
                 the predeal fixes {fixed}",
                leader.name().to_lowercase(),
                leader.name()
            )
        } else {
            continue;
        };
        return Err(Error::script(why, study.pos.line, study.pos.col));
    }
    Ok(())
}

/// The `-N/-E/-S/-W` holdings (cards and spot holdings), which replace every card predeal
/// of the script when given. Spot cards (`x`) need the ChaCha generator.
fn command_line_predeal(options: &Options) -> Result<Option<CardPredeal>> {
    if options.predeal.iter().all(Option::is_none) {
        return Ok(None);
    }
    let mut cards: Vec<(Seat, Card)> = Vec::new();
    let mut spots: Vec<SpotCards> = Vec::new();
    for seat in Seat::ALL {
        let Some(text) = &options.predeal[seat.index()] else { continue };
        // The text was checked when it was set; the checks across seats are made here.
        let (seat_cards, seat_spots) = predeal_cards(text).map_err(|why| Error::new(ErrorKind::Option, why))?;
        for card in seat_cards {
            if cards.iter().any(|(_, c)| *c == card) {
                return Err(Error::new(ErrorKind::Option, "Card predealt twice"));
            }
            cards.push((seat, card));
        }
        for suit in Suit::ALL {
            let count = seat_spots[suit.index()];
            if count > 0 {
                if options.generator != GeneratorKind::ChaCha {
                    let key = ["predeal_north", "predeal_east", "predeal_south", "predeal_west"][seat.index()];
                    return Err(Error::new(
                        ErrorKind::Option,
                        format!("option {key}: {}, in '{text}'", spots_need_chacha(options.generator)),
                    ));
                }
                spots.push(SpotCards { seat, suit, count });
            }
        }
    }
    Ok(Some((cards, spots)))
}

/// Whether the script's board records carry double-dummy results for every produced deal:
/// `printpbn` (not silenced) with the `pbn_dd` option, `printjson` with `json_dd`.
fn board_records_need_tables(program: &Program, o: &Options) -> bool {
    program.actions.iter().any(|a| match a {
        CompiledAction::PrintPbn => o.pbn_dd && !o.quiet,
        CompiledAction::PrintJson(_) => o.json_dd,
        _ => false,
    })
}

/// Whether the ZRD file a job writes carries each deal's tricks.
fn zrd_tricks(o: &Options) -> bool {
    o.zrd_output.as_ref().is_some_and(|z| !z.no_tricks)
}

/// The double-dummy results a job of `program` under `o` solves: the program's own, and every
/// produced deal's whole table when its board records or its ZRD file carry it (solved ahead in
/// batches across threads, as for a script's own `par`).
pub(crate) fn job_dd_use(program: &Program, o: &Options) -> DdUse {
    let mut dd_use = program.dd_use();
    if zrd_tricks(o) || board_records_need_tables(program, o) {
        dd_use.actions = Need::TABLE;
    }
    dd_use
}

/// Refuses, for an untrusted script, the first call among `nodes` that would start an external
/// program: `opc()`, and `usereval()` when `usereval` is set (no in-process metric). The error
/// points at the call in `source`, the text the nodes were compiled from.
pub(crate) fn refuse_external_calls(
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
