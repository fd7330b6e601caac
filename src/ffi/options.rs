//! The session's options: `dealer_set_option` by key and value, and the typed setters
//! (`dealer_set_untrusted`, `dealer_set_seed`, `dealer_get_seed`, `dealer_set_generator`,
//! `dealer_set_dialect`, `dealer_set_generate`, `dealer_set_produce`, `dealer_set_threads`,
//! `dealer_set_variable`, `dealer_set_predeal`), and `dealer_set_input_data`, the input of
//! board records from memory (the `input` option's bytes).
//!
//! Every setter but `dealer_set_input_data` (which copies the bytes into
//! `Session::set_input_data`) only turns its arguments into a key and a value for
//! `Session::set_option`, which checks them; the keys and their meaning are listed once, in `dealer_set_option`'s
//! doc comment (the header's, checked against the session's keys by a test). Output streams,
//! the `usereval` callback and scripts have their own modules.

use std::ffi::c_char;

use crate::error::{Error, ErrorKind};

use super::boundary::{bytes_arg, text_arg, with_session, Failure};
use super::session::dealer_session;
use super::status::*;

/// Sets an option by key and value (both NUL-terminated UTF-8). Returns `DEALER_OK`, or
/// `DEALER_ERROR_OPTION` for an unknown key or a value the key does not take (the message names
/// both, and the option keeps its value). Setting an option ends the job in progress and discards the
/// current deal: the next `dealer_run` or `dealer_next_deal` starts a new one. Whole numbers are an optional sign and
/// decimal digits, nothing else. The keys (the CLI's switch in parentheses):
///
/// - `rng`: the random generator and its dealing algorithm: `chacha` (the default), `drand48`
///   (DealerV2's deals) or `glibc` (classic dealer's deals); see `dealer_set_generator`. Set it
///   before loading the script.
/// - `generator`: the same as `rng`.
/// - `dialect`: the script language and output formats: `v2` (or `dealerv2`) or `classic`; by
///   default classic with the glibc generator, else DealerV2's. Set it before loading the
///   script.
/// - `seed`: a whole number (`-s`); 0 means a random seed: see `dealer_set_seed`, and
///   `dealer_get_seed` to read back the seed used.
/// - `generate`: a whole number, 0 or more, the most deals a run generates (`-g`); 0 restores
///   the script's `generate` (default 10,000,000); `nothing` generates no deal (what the peers
///   do with a negative `-g` or `-p`).
/// - `produce`: a whole number, 0 or more, the most deals a run produces (`-p`); 0 restores the
///   script's `produce`.
/// - `time_limit`: whole seconds, 0 (the default) for none: a `dealer_run` that has produced
///   nothing by then stops with `DEALER_TIMED_OUT`; one that has goes on (classic `-t`).
/// - `threads`: 0 (one per core up to 64, the default) to 64, the threads for dealing and double dummy
///   (`-R`); see `dealer_set_threads`.
/// - `title`: the title, instead of the script's `title` (`-T`).
/// - `input_name`: the input name `printpbn` shows (default: the path given to
///   `dealer_load_script_file`).
/// - `pbn_date`: the date `printpbn` shows in `[Date]`, `YYYY.MM.DD` (`?` for unknown digits;
///   default: today's local date).
/// - `swap`: the swapping mode `0`, `2` or `3` (`-x`; classic `-2`, `-3`).
/// - `smart`: `auto` (the default) or `off`: with the ChaCha generator, the seat whose part of
///   the condition keeps the fewest hands (at most 1 in 2) is dealt first, exactly uniformly
///   from the count of those hands (weighted by the other seats' deals under bias predeal),
///   so rare hands cost no more than common ones; `off` deals by plain rejection. The deals
///   produced are equally likely either way (not the same deals). Each count made is
///   reported after the statistics (`Smart dealing: 1 hand in …`) and in the JSON summary
///   (`"smart"`).
/// - `quiet`, `statistics`, `progress`: `true` or `false` (or `1`/`0`, `yes`/`no`, `on`/`off`):
///   no `printpbn` output (`-q`); the end-of-run statistics (default true; `-v`); a progress
///   meter on the diagnostics stream (`-m`).
/// - `csv_file`: `[w:]path` (file options take any path but the empty one), the file `csvrpt` appends to (`w:` empties it first; `-C`);
///   without it the records go to `DEALER_STREAM_CSV`.
/// - `export_file`: the file `export` writes to (`-X`); without it, `DEALER_STREAM_EXPORT`.
/// - `predeal_north`, `predeal_east`, `predeal_south`, `predeal_west`: cards for the seat such
///   as `SAK,HQ` or `SQTxx` (`-N`, `-E`, `-S`, `-W`); see `dealer_set_predeal`. Empty removes
///   them.
///   Suit letters `S`, `H`, `D`, `C` and ranks `AKQJT98765432` (any case), separated by
///   nothing, commas, blanks or `-`; only the first 31 characters count (as in DealerV2). Any
///   other character, a rank before a suit letter, or a card given twice is refused.
/// - `var0`, `var1`, `var2`, `var3`, `var4`, `var5`, `var6`, `var7`, `var8`, `var9`: script
///   variables `$0` to `$9` (`-0` to `-9`); see `dealer_set_variable`. Set them before loading
///   the script.
/// - `dds_mode`: `1` (solve each result asked for, the default) or `2` (whole tables; `-M`).
/// - `dds_table_mb`: the most transposition-table memory each double-dummy thread's solver uses,
///   in MB, 16 to 4096 (default 160, as in DDS); a solver starts with 95 MB or this if smaller,
///   plus about 6 MB it always holds. Results do not depend on it; a small table slows hard
///   deals. Memory for double dummy is about `threads` × (`dds_table_mb` + 10) MB.
/// - `par_vulnerability`: the vulnerability for `par` and `parcontract` when the script names
///   none (`-P`): `0` or `none` (the default), `1` or `ns`, `2` or `ew`, `3`, `both` or `all`.
/// - `library_file`: a ZRD file to read the deals and their double-dummy results from
///   (DealerV2's library mode, `-L`); the seed is then a block offset into it.
/// - `zrd_file`: `[w][N]:path`, a ZRD file each produced deal is appended to with its 20
///   double-dummy results (`w` empties it first, `N` leaves the results out; `-Z`).
/// - `dl52_file`: `[w]:path`, a file each produced deal is appended to as 52 card bytes
///   (`w` empties it first; `-l`).
/// - `server`: the DealerServer program that answers `usereval` (`-U`; default DealerV2's
///   path), unless `dealer_set_usereval` set a callback.
/// - `external_timeout`: the seconds (above 0, at most 86400, fractions allowed; default 30) a
///   DealerServer answer or an `opc` run may take before the run fails.
/// - `opc_program`: the DOP program `opc` runs (default DealerV2's path).
/// - `opener`: the opener `opc` assumes, `N`, `E`, `S` or `W`, in either case (`-O`; default
///   West).
/// - `debug`: DealerV2's debug levels `n[.m]` (`-D`; `n:m` also), passed on to the
///   DealerServer: n from 0 to 99, m from 0 to 9999, digits only.
/// - `untrusted`: `true` or `false` (the default; `--untrusted`): a script typed by a user may
///   start no external program and runs within the ceilings below; see `dealer_set_untrusted`.
/// - `max_seconds`: the wall-time ceiling of a run, and of each `dealer_next_deal` call, in
///   seconds (fractions allowed); 0 for none, `default` for the default (10 under `untrusted`,
///   else none). A run it stops returns `DEALER_CEILING_REACHED`.
/// - `max_generate`: the ceiling on deals generated (the script's `generate` and `produce`
///   above it are capped); 0 for none, `default` for the default (10,000,000 under `untrusted`,
///   else none).
/// - `max_output_bytes`: the ceiling on bytes written to the output, csv and export streams and
///   ZRD/DL52 files (never half a deal or line); 0 for none, `default` for the default (1 MiB
///   under `untrusted`, else none).
/// - `max_script_bytes`: the longest script `dealer_load_script` and `dealer_load_script_file`
///   accept, in bytes, 1 or more (default 16777216, 16 MiB); checked before the script is read
///   or copied.
/// - `format`: what a run prints for its deals (`--format=`): `script` (the default: the
///   script's actions), `lin` (one BBO LIN record per deal, as the `printlin` action), `jsonl`
///   (one JSON Lines object per deal, as a bare `printjson`) or `pbn` (one PBN record per deal,
///   as `printpbn`) in place of the script's actions, and without the text statistics and the
///   script's echoed comments. See the manual's "Output formats".
/// - `start_board`: the number of the first board, 1 to 1000000000 (`--start-board=`); 0 (the
///   default) follows the script's `startboard` (DealerV2), else 1. Board numbers set the dealer
///   and vulnerability of `printlin`, `printjson` and `printpbn` records (the standard 16-board
///   cycle) unless the script's `dealer` or `vulnerable` statement gives them.
/// - `rotate`: `true` or `false` (the default; `--rotate`): turn each board's hands so that the
///   hand of the script's `dealer` statement (the constrained hand) sits in the board's dealer
///   seat, for `printlin`, `printjson` and `printpbn`; the board's dealer and vulnerability are
///   then written (a script `vulnerable` turns with the hands). No effect without a `dealer`
///   statement.
/// - `board_title`: `true` (the default) or `false` (`--no-board-title`): LIN records carry the
///   title `ah|Board N|`.
/// - `json_summary`: `true` or `false` (the default; `--json-summary`): the run ends with a JSON
///   summary object (deals generated and produced, seed, seconds, every statistic with its 95 %
///   interval, `leads` tables, double-dummy solves) instead of the text statistics;
///   under `format` `lin` or `jsonl` it is the only end-of-run output.
/// - `intervals`: `true` or `false` (the default; `--intervals`): the text statistics show
///   their 95 % intervals (an `average`'s, each counted cell's share with Wilson's interval).
/// - `precision`: a positive number `W`, or empty for none (the default; `--precision=W`): deal
///   until every statistic's 95 % interval is at most `W` wide (`generate` and `produce` still
///   stop the run first); the same deals for any `threads`, and in parts merged (the merge
///   applies the rule).
/// - `pbn_dd`: `true` or `false` (the default; `--pbn-dd`): every `printpbn` record carries PBN
///   2.1's double-dummy tags: `OptimumResultTable` (20 rows: declarers N, E, S, W, denominations
///   NT, S, H, D, C, tricks), `OptimumScore` (`"NS <score>"`) and `ParContract`, for the record's
///   hands and vulnerability. Tables are solved in batches across the `threads`.
/// - `json_dd`: `true` or `false` (the default; `--json-dd`): every `printjson` object (and
///   `format` `jsonl`) carries `"dd"` (tricks by declarer and strain) and `"par"` (`score_ns`,
///   `contracts`). See the manual's "Double dummy" page.
///
/// Reading deals from board records instead of dealing them:
/// - `input`: a file of board records (`--input`), `-` for standard input, empty (the default)
///   for none: `dealer_run` and `dealer_next_deal` take each record's deal through the script's
///   condition and actions in place of a dealt one, until the records or the `generate` and
///   `produce` limits end (without limits, every record is read). The records' board numbers,
///   dealers, vulnerabilities and tags are kept in `printpbn`, `printlin` and `printjson`
///   output; deals that contradict the predeal in force are skipped and counted. Bytes in memory
///   are given with `dealer_set_input_data` instead (the two replace each other). The file is
///   opened when the run starts (a missing one is `DEALER_ERROR_IO` then). Not with
///   `library_file`, `swap`, `rotate`, `part`, `deals` or `part_file`.
/// - `input_format`: `auto` (the default: found from the first bytes), `pbn`, `lin`, `oneline`
///   (`printoneline` lines or PBN deals `N:…`), `dl52`, `jsonl` or `zrd` (`--input-format`).
/// - `verify_dd`: a whole number N, 0 or more (default 0; `--verify-dd`): the first N
///   double-dummy tables the records carry (PBN `OptimumResultTable`, JSON `"dd"`, ZRD) are
///   solved again, and the first that differs stops the run with `DEALER_ERROR_RUN`, its message
///   naming the record's line and the first result that differs. The others are used as they
///   are: `dds()` and the like read them without solving.
/// - `input_errors`: `stop` (the default) or `skip` (`--input-errors`): a malformed record
///   stops the run with `DEALER_ERROR_IO`, its message naming the input and the record's place
///   (`NAME:LINE:COLUMN: …`; `NAME: record N (byte OFFSET): …` in DL52 and ZRD), or is skipped
///   with a notice on the diagnostics stream and counted. The JSON summary
///   (`dealer_last_summary`) reports the reading in `"input"`: `name`, `format`,
///   `records_read`, `malformed_skipped`, `off_predeal_skipped`, `dd_read`, `dd_verified`.
///
/// - `write_leveled`: a file name (`--write-leveled`; empty: none): `dealer_run` writes a copy of the script
///   with Dealer3's generated levelling block for its `HandType_NAME` variables (natural shares
///   counted exactly where the condition and the types read one seat, else measured) and deals
///   nothing else; the summary goes to the diagnostics stream.
/// - `level`: `true` or `false` (the default; `--level`): `dealer_run` deals each hand type
///   directly (the condition `and HandType_NAME`), in exact quotas of the target mix over the
///   produce limit, interleaved in rounds.
/// - `level_target`: `even` or weights such as `40,30,15,10,5`, one per hand type in
///   declaration order (`--level-target`; empty: the script's `HandType_NAME_Share` weights,
///   else even).
/// - `level_budget`: deals dealt per deal kept, 1 or more (`--level-budget`; empty: none): the
///   generated block moves every type's share the same fraction toward nature to fit it.
/// - `level_measure`: the most produced deals natural shares are measured on (default
///   2000000; `--level-measure`).
/// - `level_timeout`: the most seconds measuring may take (default 60; `--level-timeout`).
/// - `interleave`: `true` or `false` (the default; `--interleave`): the produced deals are
///   printed in rounds holding each hand type once (shuffled by the seed), boards numbered by
///   position.
///
/// One part of a job cut by deal numbers (native generator, a fixed seed; see
/// `dealer_merge_add` for the merge):
/// - `part`: `K/N` (`--part`): `dealer_run` deals part K (0 to N−1) of N equal ranges of the
///   job's deal numbers `0 .. generate−1`; empty: the whole job.
/// - `deals`: `FIRST:COUNT` (`--deals`): the part deals deal numbers FIRST to FIRST+COUNT−1
///   (within the generate count); empty: the whole job. `part` and `deals` replace each other.
/// - `part_file`: the file the part writes (`--part-file`): the job as given (script and
///   options), its range and every accepted deal with its number and the double-dummy results
///   its actions read. A part prints nothing.
#[no_mangle]
pub extern "C" fn dealer_set_option(session: *mut dealer_session, key: *const c_char, value: *const c_char) -> i32 {
    with_session(session, |h| {
        let key = text_arg(key, "key")?;
        let value = text_arg(value, "value")?;
        h.session.set_option(key, value)?;
        Ok(DEALER_OK)
    })
}

/// Turns the `untrusted` option on (`enabled` non-zero) or off, for scripts typed by users (a
/// practice server). Under it a script cannot start any program: `opc` and `usereval` (unless
/// `dealer_set_usereval` set an in-process metric) fail with `DEALER_ERROR_NOT_ALLOWED` at the
/// call's line and column before anything is dealt (`opc` already when the script is loaded).
/// Files are opened only through the embedder's options (`csv_file`, `export_file`,
/// `zrd_file`, `dl52_file`, `library_file`): the script language names none. And the run
/// ceilings default to 10 seconds of wall time, 10,000,000 generated deals and 1 MiB of output
/// (options `max_seconds`, `max_generate`, `max_output_bytes` override them); `dealer_run`
/// returns `DEALER_CEILING_REACHED` when one stops a run. Returns `DEALER_OK`.
#[no_mangle]
pub extern "C" fn dealer_set_untrusted(session: *mut dealer_session, enabled: i32) -> i32 {
    set_typed(session, "untrusted", (if enabled != 0 { "true" } else { "false" }).to_string())
}

/// Sets the seed of the random generator (the `seed` option; `-s`). With the same seed,
/// generator, options and script, a session deals the same deals on every machine.
///
/// Seed 0, like no seed at all, means a random seed: each job (a `dealer_run`, or a loop of
/// `dealer_next_deal`) chooses its own, and `dealer_get_seed` reads it back. Seed 0 also
/// overrides the script's `seed` statement, as DealerV2's `-s 0` does. Two exceptions follow
/// the peers: the glibc generator takes 0 as a seed like any other, as classic dealer does
/// (without a seed it uses the current time); and in library mode (the `library_file` option)
/// the seed is the block offset into the file, 0 its start. Like every option, it ends the job
/// in progress and discards the current deal: call `dealer_next_deal` before `dealer_eval`
/// again. Returns `DEALER_OK`.
#[no_mangle]
pub extern "C" fn dealer_set_seed(session: *mut dealer_session, seed: i64) -> i32 {
    set_typed(session, "seed", seed.to_string())
}

/// Stores in `*seed` the seed of the session's last job (the last `dealer_run`, or the current
/// loop of `dealer_next_deal`) as long as no option has been set and no script loaded since:
/// given back to `dealer_set_seed` with the same generator, options and script, it deals the
/// same deals, also when the job chose a random seed. Otherwise it stores the seed the next job
/// will use: the `seed` option, else the script's `seed` statement (DealerV2 dialect), or 0
/// when the job will choose one (at random; from the clock for the glibc generator). In
/// library mode it is the block offset. Returns `DEALER_OK`, or `DEALER_ERROR_NULL` when
/// `session` or `seed` is NULL.
#[no_mangle]
pub extern "C" fn dealer_get_seed(session: *mut dealer_session, seed: *mut i64) -> i32 {
    with_session(session, |h| {
        if seed.is_null() {
            return Err(Failure::null("seed"));
        }
        // SAFETY: `seed` is non-NULL and points to writable storage for one int64_t.
        unsafe { *seed = h.session.seed() };
        Ok(DEALER_OK)
    })
}

/// Chooses the random generator: `DEALER_GENERATOR_CHACHA`, `DEALER_GENERATOR_DRAND48` or
/// `DEALER_GENERATOR_GLIBC`. Unless `dealer_set_dialect` says otherwise, the glibc generator also
/// selects the classic dialect (classic dealer's language and output), the others DealerV2's.
/// Call before loading the script. Returns `DEALER_OK` or `DEALER_ERROR_OPTION` for another
/// value.
#[no_mangle]
pub extern "C" fn dealer_set_generator(session: *mut dealer_session, generator: i32) -> i32 {
    let name = match generator {
        DEALER_GENERATOR_CHACHA => "chacha",
        DEALER_GENERATOR_DRAND48 => "drand48",
        DEALER_GENERATOR_GLIBC => "glibc",
        _ => return option_error(session, format!("unknown generator {generator}")),
    };
    set_typed(session, "rng", name.to_string())
}

/// Chooses the script language: `DEALER_DIALECT_V2` (default) or `DEALER_DIALECT_CLASSIC`.
/// Call before loading the script: a loaded script, and the expressions evaluated on its deals,
/// keep the dialect it was loaded with. Returns `DEALER_OK` or `DEALER_ERROR_OPTION`.
#[no_mangle]
pub extern "C" fn dealer_set_dialect(session: *mut dealer_session, dialect: i32) -> i32 {
    let name = match dialect {
        DEALER_DIALECT_V2 => "v2",
        DEALER_DIALECT_CLASSIC => "classic",
        _ => return option_error(session, format!("unknown dialect {dialect}")),
    };
    set_typed(session, "dialect", name.to_string())
}

/// Sets how many deals a run generates at most (classic `-g`); 0 restores the script's
/// `generate` (default 10,000,000). Returns `DEALER_OK`, or `DEALER_ERROR_OPTION` for a
/// negative limit.
#[no_mangle]
pub extern "C" fn dealer_set_generate(session: *mut dealer_session, limit: i64) -> i32 {
    set_typed(session, "generate", limit.to_string())
}

/// Sets how many deals a run produces at most (classic `-p`); 0 restores the script's
/// `produce` (default 40 when the script prints deals, else the generate limit). For
/// `dealer_next_deal`, a produce limit set here or in the script ends the loop with
/// `DEALER_DONE`. Returns `DEALER_OK`, or `DEALER_ERROR_OPTION` for a negative limit.
#[no_mangle]
pub extern "C" fn dealer_set_produce(session: *mut dealer_session, limit: i64) -> i32 {
    set_typed(session, "produce", limit.to_string())
}

/// Sets how many threads a run uses (the `threads` option, DealerV2 `-R`), both for dealing
/// (worker threads deal and judge deals when the script allows it) and for double dummy
/// (solved in batches across the threads): 0 (the default) one per core, at most 64. The
/// deals, output and statistics do not depend on it, only the speed. Memory: each
/// double-dummy thread has its own DDS solver, whose transposition table starts at about
/// 70–95 MB and grows to at most 160 MB (the `dds_table_mb` option sets that maximum), so
/// allow up to about 170 MB per thread when the script uses double dummy (64 threads: up to
/// about 11 GB). Like every option, it ends
/// the job in progress and discards the current deal: call `dealer_next_deal` before
/// `dealer_eval` again. Returns `DEALER_OK` or `DEALER_ERROR_OPTION`.
#[no_mangle]
pub extern "C" fn dealer_set_threads(session: *mut dealer_session, threads: u32) -> i32 {
    set_typed(session, "threads", threads.to_string())
}

/// Sets script variable `$index` (0 to 9; DealerV2's `-0` … `-9`) to `value` (NUL-terminated
/// UTF-8), substituted into the script text where `$index` appears (DealerV2 dialect; an unset
/// variable is empty). Call before loading the script. Returns `DEALER_OK`, `DEALER_ERROR_OPTION` for an index above 9, `DEALER_ERROR_NULL`
/// or `DEALER_ERROR_UTF8`.
#[no_mangle]
pub extern "C" fn dealer_set_variable(session: *mut dealer_session, index: u32, value: *const c_char) -> i32 {
    if index > 9 {
        return option_error(session, format!("script variable ${index} does not exist (0 to 9)"));
    }
    with_session(session, |h| {
        let value = text_arg(value, "value")?;
        h.session.set_option(&format!("var{index}"), value)?;
        Ok(DEALER_OK)
    })
}

/// Predeals cards to a seat (`DEALER_NORTH` … `DEALER_WEST`; classic `-N` … `-W`): `cards` is
/// NUL-terminated text such as `SAKQ,HJ` (suit letter then ranks, groups separated by commas).
/// As with classic dealer's switches, while any seat has a predeal set this way the script's
/// own `predeal` lines are replaced. NULL or an empty string removes the seat's predeal. Text
/// that is not such cards (see the `predeal_north` option) is refused at once, with the text
/// quoted; a card given to two seats is reported when the deals start. An `x` is a spot card
/// (`SQTxx`: the suit is exactly its named cards and that many cards of ranks 2 to 9 that no
/// predeal names; ChaCha generator only, reported as `DEALER_ERROR_OPTION` when the deals start
/// with another generator). Returns `DEALER_OK`, `DEALER_ERROR_OPTION` for a bad seat or bad
/// text, or `DEALER_ERROR_UTF8`.
#[no_mangle]
pub extern "C" fn dealer_set_predeal(session: *mut dealer_session, seat: i32, cards: *const c_char) -> i32 {
    let key = match seat {
        DEALER_NORTH => "predeal_north",
        DEALER_EAST => "predeal_east",
        DEALER_SOUTH => "predeal_south",
        DEALER_WEST => "predeal_west",
        _ => return option_error(session, format!("unknown seat {seat} (0 North to 3 West)")),
    };
    with_session(session, |h| {
        let cards = if cards.is_null() { "" } else { text_arg(cards, "cards")? };
        h.session.set_option(key, cards)?;
        Ok(DEALER_OK)
    })
}

/// Makes the `len` bytes at `data` the session's input: board records (PBN, LIN, one-line,
/// DL52, JSON Lines or ZRD; the `input_format` option names the format, by default it is found
/// from the first bytes) that `dealer_run` and `dealer_next_deal` read in place of dealing, each
/// record's deal going through the script's condition and actions with its board number,
/// dealer, vulnerability and tags kept in `printpbn`, `printlin` and `printjson` output. The
/// bytes are copied: the caller may free them when the call returns; every job reads them from
/// the start. An input from a file (or standard input) is the `input` option instead; this
/// function and that option replace each other. `data` NULL with `len` 0 removes the input (the
/// session deals again); a non-NULL `data` with `len` 0 is an input without records. A
/// malformed record stops the run with `DEALER_ERROR_IO` and a message naming `input data` and
/// the record's place (`input data:LINE:COLUMN: …`, or `input data: record N (byte OFFSET): …`
/// for DL52 and ZRD), unless `input_errors` is `skip`; the JSON summary (`dealer_last_summary`) counts the records
/// in `"input"`. Like every option, it ends the job in progress and discards the current deal.
/// Returns `DEALER_OK`, `DEALER_ERROR_NULL` when `session` is NULL or `data` is NULL with a
/// length, or `DEALER_ERROR_USAGE` for a length no buffer has (above `PTRDIFF_MAX`).
#[no_mangle]
pub extern "C" fn dealer_set_input_data(session: *mut dealer_session, data: *const u8, len: usize) -> i32 {
    with_session(session, |h| {
        if data.is_null() && len == 0 {
            h.session.set_input_data(None);
            return Ok(DEALER_OK);
        }
        // Checked before the bytes are looked at (a length above isize::MAX is no slice).
        if len > isize::MAX as usize {
            return Err(
                Error::new(ErrorKind::Usage, format!("input data of {len} bytes: no buffer is that long")).into()
            );
        }
        let bytes = bytes_arg(data, len, "data")?;
        h.session.set_input_data(Some(bytes));
        Ok(DEALER_OK)
    })
}

/// Sets an option from a typed setter's value.
fn set_typed(session: *mut dealer_session, key: &str, value: String) -> i32 {
    with_session(session, |h| {
        h.session.set_option(key, &value)?;
        Ok(DEALER_OK)
    })
}

/// Records an option error found before the session's options were touched.
fn option_error(session: *mut dealer_session, message: String) -> i32 {
    with_session(session, |_| Err(Error::new(ErrorKind::Option, message).into()))
}
