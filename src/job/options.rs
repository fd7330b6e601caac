//! Session options: [`Options`], the keys [`OPTION_KEYS`] they are set by, the parsing of each
//! key's value ([`Options::set`]) and the run ceilings they put in force ([`Options::ceilings`]).
//! Pure values: nothing here deals, evaluates, writes output or starts a program.

use std::collections::HashMap;

use crate::cards::{Card, Suit};
use crate::dd::zrd::OutputSpec;
use crate::dd::TableMemory;
use crate::dealing::GeneratorKind;
use crate::dialect::Dialect;
use crate::error::{Error, ErrorKind, Result};
use crate::records::{InputFormat, InputSource};
use crate::script::{ast::Vulnerability, ScriptVars};

/// Session options, settable by key and value (see
/// [`Session::set_option`](crate::job::Session::set_option)).
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
    /// Smart dealing (`smart`: `auto`, the default, or `off`): with the ChaCha generator, the
    /// seat whose part of the condition keeps the fewest hands is dealt first, from the exact
    /// count of those hands when they are few (see [`crate::job::smart`]).
    pub smart: bool,
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
    /// PBN's `[Date]`, `YYYY.MM.DD` (`None`: today's local date where the build has a clock;
    /// the WebAssembly package passes the browser's).
    pub pbn_date: Option<String>,
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
    /// The number of the first board (`start_board`): overrides DealerV2's `startboard`
    /// statement and numbers boards in both dialects. `None`: the script's, else 1.
    pub start_board: Option<i64>,
    /// Turn each board's hands so that the hand of the script's `dealer` statement sits in the
    /// board's dealer seat (`rotate`; see [`BoardPlan`](crate::actions::BoardPlan)).
    pub rotate: bool,
    /// What a run prints for its deals (`format`): the script's actions, or LIN or JSON Lines
    /// records in their place.
    pub format: OutputFormat,
    /// Whether LIN records carry the board title `ah|Board N|` (`board_title`, default on).
    pub board_title: bool,
    /// Whether the run ends with a JSON summary object instead of the text statistics
    /// (`json_summary`).
    pub json_summary: bool,
    /// Whether the text statistics show their 95 % intervals (`intervals`).
    pub intervals: bool,
    /// Deal until every statistic's 95 % interval is at most this wide (`precision`), or until
    /// `generate`/`produce` stops the run first.
    pub precision: Option<f64>,
    /// Whether every `printpbn` record carries the PBN 2.1 double-dummy tags `OptimumResultTable`,
    /// `OptimumScore` and `ParContract` (`pbn_dd`).
    pub pbn_dd: bool,
    /// Whether every `printjson` object carries the double-dummy table and par (`json_dd`).
    pub json_dd: bool,
    /// Deals read from board records instead of dealt (`input`: a file, `-` for standard
    /// input; or bytes given with [`Session::set_input_data`](crate::job::Session::set_input_data)).
    pub input: Option<InputSource>,
    /// The format of `input` (`input_format`: `pbn`, `lin`, `oneline`, `dl52`, `jsonl`, `zrd`);
    /// `None` (`auto`): found from its first bytes.
    pub input_format: Option<InputFormat>,
    /// How many of the double-dummy tables the records carry are checked by solving them
    /// (`verify_dd`); the first that disagrees stops the run with an error.
    pub verify_dd: u64,
    /// Whether a malformed record is skipped and counted (`input_errors` `skip`) instead of
    /// stopping the run with an error (`stop`, the default).
    pub skip_malformed: bool,
    /// Levelling the script's hand types and ordering the produced deals by them (see
    /// [`crate::practice`]).
    pub levelling: LevelOptions,
    /// Dealing one part of the job (see [`crate::scale_out`]).
    pub scale_out: PartOptions,
    /// The options as set, in order (`key`, `value`), but for those of [`PART_KEYS`]: what a
    /// part file records of the job, so that the merge runs the job as given.
    pub given: Vec<(String, String)>,
}

/// Which part of a job a run deals (`part`, `deals`) and where it writes it (`part_file`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PartOptions {
    /// The deal numbers of the part; `None`: the whole job.
    pub range: Option<PartRange>,
    /// The part file the part writes.
    pub part_file: Option<String>,
}

/// The deal numbers a part deals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PartRange {
    /// `part K/N`: the `index`-th (from 0) of `parts` equal ranges of the generate count.
    Share {
        /// Which range, from 0.
        index: u64,
        /// How many ranges.
        parts: u64,
    },
    /// `deals FIRST:COUNT`: deal numbers `first..first + count`.
    Deals {
        /// The first deal number.
        first: u64,
        /// How many.
        count: u64,
    },
}

/// The keys not recorded among the options given (see [`Options::given`]): those of
/// [`PartOptions`], which name a part of the job rather than the job, and those that change
/// only how fast a machine deals it (the same deals and output on any number of threads and
/// any solver memory), so that the parts of one job may run on different machines.
pub const PART_KEYS: &[&str] = &["part", "deals", "part_file", "threads", "dds_table_mb"];

/// Parses `part`'s `K/N` (0 <= K < N) and `deals`' `FIRST:COUNT`.
fn parse_part_range(key: &str, value: &str) -> std::result::Result<Option<PartRange>, String> {
    if value.is_empty() {
        return Ok(None);
    }
    let number = |text: &str| text.parse::<u64>().ok().filter(|_| text.bytes().all(|b| b.is_ascii_digit()));
    match key {
        "part" => {
            let (k, n) = value.split_once('/').ok_or("expected K/N (part K of N, from 0)")?;
            let (Some(index), Some(parts)) = (number(k), number(n)) else {
                return Err("expected K/N with whole numbers (part K of N, from 0)".into());
            };
            if parts == 0 || index >= parts {
                return Err(format!("part {index}/{parts}: parts are numbered 0 to N-1, N at least 1"));
            }
            Ok(Some(PartRange::Share { index, parts }))
        }
        _ => {
            let (f, c) = value.split_once(':').ok_or("expected FIRST:COUNT (deal numbers from 0)")?;
            let (Some(first), Some(count)) = (number(f), number(c)) else {
                return Err("expected FIRST:COUNT with whole numbers".into());
            };
            Ok(Some(PartRange::Deals { first, count }))
        }
    }
}

/// The options of levelling (Dealer3's `--write-leveled`, `--level`, `--level-target`,
/// `--level-budget`, `--level-measure`, `--level-timeout`, `--interleave`).
#[derive(Clone, Debug, PartialEq)]
pub struct LevelOptions {
    /// Write a copy of the script with the generated levelling block to this file, and deal
    /// nothing (`write_leveled`).
    pub write_leveled: Option<String>,
    /// Deal the produced deals of each hand type directly, in exact quotas of the target mix,
    /// interleaved (`level`).
    pub level: bool,
    /// The target mix over the hand types (`level_target`): `None` follows the script's
    /// `HandType_NAME_Share` weights (default even).
    pub target: Option<LevelTarget>,
    /// The most deals dealt per deal kept that the generated block may cost (`level_budget`).
    pub budget: Option<f64>,
    /// The most produced deals the natural shares are measured on (`level_measure`).
    pub measure: u64,
    /// The most seconds measuring the natural shares may take (`level_timeout`).
    pub timeout_seconds: u64,
    /// Print the produced deals in rounds holding each hand type, boards numbered by position
    /// (`interleave`).
    pub interleave: bool,
}

/// One scenario of a mixed board set (`--mix`, `dealer_mix_add`): its name (printed with its
/// boards), its script's text, and its part of the set: a weight, or an exact count.
#[derive(Clone, Debug, PartialEq)]
pub struct MixScenario {
    /// The name boards carry (the file name on the command line).
    pub name: String,
    /// The script's text.
    pub text: Vec<u8>,
    /// The scenario's weight among those without a count (default 1).
    pub weight: f64,
    /// An exact number of boards, when given.
    pub count: Option<u64>,
}

/// A target mix given as an option (`level_target`).
#[derive(Clone, Debug, PartialEq)]
pub enum LevelTarget {
    /// Every hand type alike (`even`).
    Even,
    /// Weights in the order the hand types are declared (`40,30,15,10,5`).
    Weights(Vec<f64>),
}

impl Default for LevelOptions {
    fn default() -> LevelOptions {
        LevelOptions {
            write_leveled: None,
            level: false,
            target: None,
            budget: None,
            measure: 2_000_000,
            timeout_seconds: 60,
            interleave: false,
        }
    }
}

/// Parses `level_target`: `even`, or weights separated by commas (each a finite number, none
/// negative, not all zero).
fn parse_level_target(value: &str) -> std::result::Result<LevelTarget, String> {
    if value.trim().eq_ignore_ascii_case("even") {
        return Ok(LevelTarget::Even);
    }
    let weights: Option<Vec<f64>> =
        value.split(',').map(|w| w.trim().parse::<f64>().ok().filter(|w| w.is_finite())).collect();
    let weights = weights
        .ok_or_else(|| format!("expected `even` or weights separated by commas (40,30,15,10,5), got '{value}'"))?;
    if weights.iter().any(|&w| w < 0.0) {
        return Err(format!("weights cannot be negative, got '{value}'"));
    }
    if weights.iter().sum::<f64>() <= 0.0 {
        return Err(format!("weights sum to zero, got '{value}'"));
    }
    Ok(LevelTarget::Weights(weights))
}

/// What a run prints for its deals (the `format` option).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OutputFormat {
    /// The script's actions (default).
    #[default]
    Script,
    /// `printlin` in place of the script's actions, and no text statistics.
    Lin,
    /// `printjson` in place of the script's actions, and no text statistics (the JSON summary
    /// object when `json_summary` is on).
    Jsonl,
    /// `printpbn` in place of the script's actions, and no text statistics (a PBN file as
    /// readers expect it; the board set of `--mix` by default).
    Pbn,
}

/// The highest `start_board`.
pub const MAX_START_BOARD: i64 = 1_000_000_000;

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
            smart: true,
            quiet: false,
            statistics: true,
            progress: false,
            csv_file: None,
            export_file: None,
            predeal: Default::default(),
            script_vars: Default::default(),
            input_name: None,
            pbn_date: None,
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
            start_board: None,
            rotate: false,
            format: OutputFormat::Script,
            board_title: true,
            json_summary: false,
            intervals: false,
            precision: None,
            pbn_dd: false,
            json_dd: false,
            input: None,
            input_format: None,
            verify_dd: 0,
            skip_malformed: false,
            levelling: LevelOptions::default(),
            scale_out: PartOptions::default(),
            given: Vec::new(),
        }
    }
}

impl Options {
    /// The number of threads double-dummy batches use: with `threads` 0, one per available core
    /// up to the most a session may use (64).
    pub fn dd_threads(&self) -> usize {
        // Without the `threads` feature (the WebAssembly build) everything runs on one thread.
        if !cfg!(feature = "threads") {
            return 1;
        }
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

    /// Sets one option by key and value (the keys of [`OPTION_KEYS`]; what each one takes is
    /// documented with `dealer_set_option` in src/ffi/). A refused key or value leaves the
    /// options as they were. [`Session::set_option`](crate::job::Session::set_option) calls it
    /// and resets what the session derived from the old options.
    pub fn set(&mut self, key: &str, value: &str) -> Result<()> {
        self.apply(key, value)?;
        if !PART_KEYS.contains(&key) {
            self.given.push((key.to_string(), value.to_string()));
        }
        Ok(())
    }

    /// [`set`](Self::set) without recording it among the options given.
    fn apply(&mut self, key: &str, value: &str) -> Result<()> {
        if !OPTION_KEYS.contains(&key) {
            return Err(Error::new(ErrorKind::Option, format!("unknown option '{key}'")));
        }
        let o = self;
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
            "smart" => {
                o.smart = match value {
                    "auto" | "on" => true,
                    "off" => false,
                    _ => return Err(bad("expected auto or off, got")),
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
            "pbn_date" => {
                let digits_or_unknown = |part: &str| part.chars().all(|c| c.is_ascii_digit() || c == '?');
                let parts: Vec<&str> = value.split('.').collect();
                let lengths: Vec<usize> = parts.iter().map(|p| p.len()).collect();
                if lengths != [4, 2, 2] || !parts.iter().all(|p| digits_or_unknown(p)) {
                    return Err(bad("expected a PBN date YYYY.MM.DD (digits, ? where unknown), got"));
                }
                o.pbn_date = Some(value.to_string());
            }
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
                o.max_script_bytes =
                    one_or_more(value).ok_or_else(|| bad("expected a number of bytes, 1 or more, got"))?
            }
            "start_board" => {
                o.start_board = match value.parse::<i64>() {
                    Ok(0) => None,
                    Ok(n) if (1..=MAX_START_BOARD).contains(&n) => Some(n),
                    _ => return Err(bad("expected a board number from 1 to 1000000000 (0: the script's), got")),
                }
            }
            "rotate" => o.rotate = parse_bool(key, value)?,
            "format" => {
                o.format = match value {
                    "script" => OutputFormat::Script,
                    "lin" => OutputFormat::Lin,
                    "jsonl" => OutputFormat::Jsonl,
                    "pbn" => OutputFormat::Pbn,
                    _ => return Err(bad("expected script, lin, jsonl or pbn, got")),
                }
            }
            "board_title" => o.board_title = parse_bool(key, value)?,
            "json_summary" => o.json_summary = parse_bool(key, value)?,
            "intervals" => o.intervals = parse_bool(key, value)?,
            "precision" => o.precision = parse_precision(value)?,
            "pbn_dd" => o.pbn_dd = parse_bool(key, value)?,
            "json_dd" => o.json_dd = parse_bool(key, value)?,
            "input" => {
                o.input = match value {
                    "" => None,
                    "-" => Some(InputSource::Stdin),
                    path => Some(InputSource::Path(path.to_string())),
                }
            }
            "input_format" => {
                o.input_format = match value {
                    "auto" => None,
                    name => Some(
                        InputFormat::named(name)
                            .ok_or_else(|| bad("expected auto, pbn, lin, oneline, dl52, jsonl or zrd, got"))?,
                    ),
                }
            }
            "verify_dd" => {
                o.verify_dd = value.parse::<u64>().map_err(|_| bad("expected a number of tables (0 or more), got"))?
            }
            "input_errors" => {
                o.skip_malformed = match value {
                    "stop" => false,
                    "skip" => true,
                    _ => return Err(bad("expected stop or skip, got")),
                }
            }
            "write_leveled" => o.levelling.write_leveled = (!value.is_empty()).then(|| value.to_string()),
            "level" => o.levelling.level = parse_bool(key, value)?,
            "level_target" => {
                o.levelling.target = match value {
                    "" => None,
                    _ => Some(
                        parse_level_target(value)
                            .map_err(|why| Error::new(ErrorKind::Option, format!("option {key}: {why}")))?,
                    ),
                }
            }
            "level_budget" => {
                o.levelling.budget = match value {
                    "" => None,
                    _ => Some(
                        value
                            .parse::<f64>()
                            .ok()
                            .filter(|b| b.is_finite() && *b >= 1.0)
                            .ok_or_else(|| bad("expected deals dealt per deal kept, a number from 1 up, got"))?,
                    ),
                }
            }
            "level_measure" => {
                o.levelling.measure =
                    one_or_more(value).ok_or_else(|| bad("expected a number of produced deals, 1 or more, got"))?
            }
            "level_timeout" => {
                o.levelling.timeout_seconds =
                    one_or_more(value).ok_or_else(|| bad("expected a number of seconds, 1 or more, got"))?
            }
            "interleave" => o.levelling.interleave = parse_bool(key, value)?,
            "part" | "deals" => {
                let range = parse_part_range(key, value)
                    .map_err(|why| Error::new(ErrorKind::Option, format!("option {key}: {why}: '{value}'")))?;
                // One names the part: setting either replaces the other.
                o.scale_out.range = range;
            }
            "part_file" => o.scale_out.part_file = (!value.is_empty()).then(|| value.to_string()),
            _ => {
                if let Some(n) = key.strip_prefix("var").and_then(|d| d.parse::<usize>().ok()).filter(|n| *n < 10) {
                    o.script_vars[n] = Some(value.to_string());
                } else {
                    // A key of OPTION_KEYS without an arm above (a test checks there is none).
                    return Err(Error::new(ErrorKind::Option, format!("option '{key}' is listed but not handled")));
                }
            }
        }
        Ok(())
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

/// The most threads a session's double-dummy batches may use.
const MAX_THREADS: usize = 64;

/// Every key [`Session::set_option`](crate::job::Session::set_option) (through [`Options::set`])
/// accepts, and nothing else. The `dealer_set_option` comment in src/ffi/ (and so
/// include/dealer.h, and the manual's C API page made from it) lists the same keys: a test
/// compares them, so a new key needs an arm in [`Options::set`], an entry here and a line there.
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
    "pbn_date",
    "swap",
    "smart",
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
    "start_board",
    "rotate",
    "format",
    "board_title",
    "json_summary",
    "intervals",
    "precision",
    "pbn_dd",
    "json_dd",
    "input",
    "input_format",
    "verify_dd",
    "input_errors",
    "write_leveled",
    "level",
    "level_target",
    "level_budget",
    "level_measure",
    "level_timeout",
    "interleave",
    "part",
    "deals",
    "part_file",
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

/// A whole number of 1 or more (digits only), or `None`.
fn one_or_more(value: &str) -> Option<u64> {
    value.parse::<u64>().ok().filter(|&n| n > 0)
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
pub(crate) fn parse_debug(value: &str) -> Option<(i32, i32)> {
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
///
/// An `x` (libdealer's own, ChaCha only) is a spot card of the current suit, as in a script's
/// `SQTxx`: a suit with `x`s holds exactly its named cards and that many cards of ranks 2 to 9
/// that no predeal names. Returns the cards and the `x`s per suit (index: [`Suit::index`]).
pub(crate) fn predeal_cards(text: &str) -> std::result::Result<(Vec<Card>, [u8; 4]), String> {
    let mut suit: Option<Suit> = None;
    let mut cards: Vec<Card> = Vec::new();
    let mut spots = [0u8; 4];
    for ch in text.chars().take(PREDEAL_TEXT_CHARS).map(|c| c.to_ascii_uppercase()) {
        match ch {
            'C' => suit = Some(Suit::Clubs),
            'D' => suit = Some(Suit::Diamonds),
            'H' => suit = Some(Suit::Hearts),
            'S' => suit = Some(Suit::Spades),
            ',' | ' ' | '\t' | '-' => {}
            'X' => {
                let Some(su) = suit else {
                    return Err("the spot card 'x' comes before any suit letter (S, H, D, C)".to_string());
                };
                spots[su.index()] += 1;
            }
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
    if cards.len() + spots.iter().map(|&x| x as usize).sum::<usize>() > 13 {
        return Err("More than 13 cards for one player".to_string());
    }
    Ok((cards, spots))
}

/// Parses the value of a true/false option: `1`, `true`, `yes`, `on` or `0`, `false`, `no`, `off`.
fn parse_bool(key: &str, value: &str) -> Result<bool> {
    match value {
        "1" | "true" | "yes" | "on" => Ok(true),
        "0" | "false" | "no" | "off" => Ok(false),
        _ => Err(Error::new(ErrorKind::Option, format!("option {key}: expected true or false, got '{value}'"))),
    }
}

/// The `precision` option: a positive finite width, or empty for none.
fn parse_precision(value: &str) -> Result<Option<f64>> {
    if value.is_empty() {
        return Ok(None);
    }
    match value.parse::<f64>() {
        Ok(width) if width.is_finite() && width > 0.0 => Ok(Some(width)),
        _ => Err(Error::new(
            ErrorKind::Option,
            format!("option precision: expected the widest 95 % interval wanted, a positive number, got '{value}'"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::job::Session;

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
        ("write_leveled", "a file name, any text (empty: none)"),
        ("part_file", "a file name, any text (empty: none)"),
        ("input", "a file name or - (standard input), any text (empty: none); read when the run starts"),
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
        ("smart", &["", "on ", "yes", "Auto", "0"]),
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
        (
            "predeal_north",
            &["QQQ!!", "!!garbage", "SAY", "SAA", "XS", "SAKQJT98xxxxxxx", "AK", "S A K Q J T 9 8 7 6 5 4 3 2 HA"],
        ),
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
        ("start_board", &["", "-1", "abc", "1.5", "1000000001", " 1"]),
        ("rotate", &["", "2", "abc"]),
        ("format", &["", "LIN", "json", "PBN", "lin "]),
        ("board_title", &["", "2", "abc"]),
        ("json_summary", &["", "2", "abc"]),
        ("intervals", &["", "2", "abc"]),
        ("precision", &["0", "-1", "abc", "nan", "inf", "1e400"]),
        ("pbn_dd", &["", "2", "abc", "ON"]),
        ("json_dd", &["", "2", "abc"]),
        ("input_format", &["", "PBN", "csv", "pbn "]),
        ("verify_dd", &["", "-1", "abc", "1.5"]),
        ("input_errors", &["", "Skip", "ignore"]),
        ("level", &["", "2", "abc"]),
        ("level_target", &["even,1", "1,,2", "1;2", "-1,2", "0,0", "nan", "1,inf"]),
        ("level_budget", &["0", "0.5", "-3", "abc", "nan", "inf"]),
        ("level_measure", &["", "0", "-1", "1e6", "abc"]),
        ("level_timeout", &["", "0", "-1", "1.5", "abc"]),
        ("interleave", &["", "2", "abc"]),
        ("pbn_date", &["", "2026-11-29", "2026.1.29", "26.11.29", "2026.11.2x", "2026.11.29 ", "2026.11.29.1"]),
        ("part", &["1", "1/0", "4/4", "-1/4", "a/b", "1/", "/4", "1/4x", "+1/4"]),
        ("deals", &["1", "1:", ":5", "-1:5", "1:-5", "a:b", "1:2:3"]),
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
                let before = format!("{:?}", s.options());
                let e = s.set_option(key, value).expect_err(&format!("{key}={value:?} was accepted"));
                assert_eq!(e.kind, ErrorKind::Option, "{key}={value:?}");
                let message = e.to_string();
                assert!(
                    message.contains(key) && message.contains(&format!("'{value}'")),
                    "{key}={value:?}: the message does not name the key and the value: {message}"
                );
                assert_eq!(format!("{:?}", s.options()), before, "{key}={value:?} changed the options");
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
            ("predeal_north", "SQTxx,HJ8X"),
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

    #[test]
    fn empty_predeal_option_removes_the_seat() {
        let mut s = Session::new();
        s.set_option("predeal_north", "SA").unwrap();
        assert!(s.options().predeal[0].is_some());
        s.set_option("predeal_north", "").unwrap();
        assert!(s.options().predeal.iter().all(Option::is_none));
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
}
