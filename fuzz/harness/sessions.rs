//! The `sessions` fuzz harness, shared by the fuzz target (`fuzz_targets/sessions.rs`) and the
//! library's regression tests of the inputs it found (`tests/integration/fuzz_regressions.rs`): the input
//! bytes are 2–4 threads' lists of C API calls (`dealer_*` from `dealer::ffi`) on up to four
//! shared session slots, which the threads run at once, the way a server's workers do.
//!
//! **Reproducible.** All the input is decoded before any thread starts: the thread count, the
//! number of phases (1–3), and for each thread and phase a list of calls (create, load, set
//! option, seed, untrusted, run, next deal(s), eval, interrupt, pause, destroy). The threads
//! run their lists concurrently and meet at a barrier between phases, so the input fixes what
//! each thread does and which calls may overlap; only the interleaving inside a phase is left
//! to the scheduler.
//!
//! **Only what the API allows.** A session is used by one thread at a time: each slot is a
//! mutex, and a thread holds it for one call, so a session created on one thread is loaded,
//! run and freed on others (ownership handed over through the mutex; a job begun by
//! `dealer_next_deal` on one thread goes on on another). Interrupters are used from any thread
//! without the slot's lock, also while the session runs, and after it is freed (they stay valid
//! on their own); they are freed when all threads are done. No slot lock is ever held while
//! waiting for another.
//!
//! **Contracts checked** (a broken one panics, which the fuzzer reports as a crash):
//! - every status is a documented code and never `DEALER_ERROR_INTERNAL` (a caught panic);
//! - `dealer_last_error` (and its summary) is non-empty after a failure and empty after a
//!   success;
//! - a run that ends early (interrupted, at a ceiling, or at the time limit) or normally leaves
//!   whole lines on the output, csv and export streams when the script is one of the harness's
//!   own (whose every print ends its line), and a run under an output ceiling the harness set
//!   writes at most that many bytes;
//! - a run's report counts no more deals produced than generated;
//! - no crash, no leak (the sanitizer's leak check: every session and interrupter is freed),
//!   and no deadlock: a per-input watchdog aborts (naming each thread's call in progress)
//!   when no thread finishes a call for [`STALL`], below the fuzzer's `-timeout`; every run or
//!   `dealer_next_deal` call is interrupted after
//!   [`RUN_WATCHDOG`](crate::api_common::RUN_WATCHDOG), and dealing calls after
//!   [`WORK_BUDGET`] are skipped, so that an input's threads finish well within the timeout.
//!
//! Like the other targets it never touches the filesystem and never starts a process: output
//! streams go to in-memory collectors, `usereval` is answered in process (the callback is set on
//! every session), and scripts mentioning `opc` and options naming files or programs are
//! skipped. Work is bounded: before dealing the generate
//! limit is forced into 1..=[`GENERATE_CAP`] (1 once the session names double dummy) unless
//! the last one set is already small, session threads are 1 or 2, and one double-dummy call is
//! shared by the whole input.

use std::ffi::{c_void, CString};
use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

use arbitrary::{Result, Unstructured};
use dealer::ffi::*;

use crate::api_common::{check, names_dd, usereval, watched, write_collect};

const MAX_THREADS: usize = 4;
const MAX_SLOTS: usize = 4;
const MAX_PHASES: usize = 3;
const MAX_CALLS_PER_PHASE: usize = 8;
const GENERATE_CAP: i64 = 200;
const GENERATE_CAP_DD: i64 = 1;
/// Double-dummy calls (runs, deals or evals of a session that names double dummy) per input.
const DD_CALLS: u32 = 1;
/// How long an input may deal: later runs, deal and eval calls are skipped.
pub const WORK_BUDGET: Duration = Duration::from_secs(6);
/// How long the threads may go without finishing a call before the harness calls it a deadlock.
pub const STALL: Duration = Duration::from_secs(20);

/// Option keys that open files, name programs or write part files: never set.
const UNSAFE_KEYS: &[&str] = &[
    "csv_file",
    "export_file",
    "zrd_file",
    "dl52_file",
    "library_file",
    "server",
    "opc_program",
    "write_leveled",
    "part",
    "deals",
    "part_file",
];

/// The harness's own scripts: every line they print ends with a newline (`printes` ends its
/// line with `\n` outside quotes: `"\n"` is a backslash and a letter), so their output is whole
/// lines whatever stops the run. Some fail to load, some fail while running.
const SCRIPTS: &[&str] = &[
    "condition hcp(north) >= 12\naction printoneline\n",
    "generate 50\nproduce 5\ncondition shape(south, any 4333 + any 4432) && hcp(south) > 14\naction printall, average hcp(north)\n",
    "a = hcp(north) + hcp(south)\ncondition a > 22 && spades(north) >= 5\naction frequency(a, 20, 40), printpbn\n",
    "predeal north SAKQ, HAK\ncondition hcp(south) > 5\naction printcompact, csvrpt(hcp(north), north)\n",
    "condition usereval(1, NS, 2) > 3\naction printes(usereval(2, north, spades, 3), \\n)\n",
    "condition hcp(north) >= $1\naction printoneline, printrpt(hcp(east), $0)\n",
    "condition dds(north, notrump) >= 9\naction printoneline\n",
    "seed 11\ngenerate 1000000\nproduce 1000000\ncondition rnd(4) == 1\naction print(north, south), bktfreq(hcp(north), 0, 30, 5)\n",
    "produce 1000000\naction printoneline\n",
    "generate 1000000\ncondition hcp(north) == 37\naction printall\n",
    "condition 1 / (hcp(north) - hcp(north))\naction printoneline\n",
    "condition hcp(north) >\naction printoneline\n",
    "condition shape(north, 5xxx) && export(north)\naction printoneline, export(south)\n",
    "title \"x\"\ndealer south\nvulnerable all\nstartboard 7\naction printpbn, printjson, printlin\n",
    "north_ok = shape{north, 5+M(4-)xx:h>s}\ncondition north_ok\naction printall\n",
    "",
];

const EXPRESSIONS: &[&str] = &[
    "hcp(north)",
    "shape(north, any 4333 + any 5332)",
    "1/0",
    "loser(north) * ltc(north)",
    "usereval(1, NS, 0)",
    "dds(north, notrump)",
    "a",
    "$0",
    "produce 5",
    "hcp(north) > 10 ? top5(south) : control(east, spades)",
];

const KEYS: &[&str] = &[
    "seed",
    "generate",
    "produce",
    "rng",
    "dialect",
    "threads",
    "untrusted",
    "max_seconds",
    "max_generate",
    "max_output_bytes",
    "time_limit",
    "format",
    "swap",
    "quiet",
    "statistics",
    "predeal_north",
    "var0",
    "var1",
    "title",
    "dds_mode",
    "rotate",
    "json_summary",
];

const VALUES: &[&str] = &[
    "",
    "0",
    "1",
    "2",
    "3",
    "-1",
    "0.01",
    "0.2",
    "200",
    "5000",
    "true",
    "false",
    "default",
    "chacha",
    "drand48",
    "glibc",
    "classic",
    "v2",
    "script",
    "lin",
    "jsonl",
    "pbn",
    "SAKQ,HJ",
    "9223372036854775807",
    "nan",
    "hcp(north) > 10",
];

/// One call a thread makes.
#[derive(Debug)]
enum Call {
    /// Creates a session in the slot, if it is empty.
    Create {
        slot: usize,
        threads: u32,
        untrusted: bool,
    },
    Load {
        slot: usize,
        script: Script,
    },
    SetOption {
        slot: usize,
        key: CString,
        value: CString,
    },
    Seed {
        slot: usize,
        seed: i64,
    },
    Run {
        slot: usize,
        report_size: Option<u32>,
    },
    NextDeal {
        slot: usize,
        count: u8,
    },
    NextDeals {
        slot: usize,
        count: usize,
    },
    Eval {
        slot: usize,
        expression: CString,
    },
    /// Interrupts through an interrupter made so far (any slot's, live or freed), without a lock.
    Interrupt {
        which: usize,
    },
    /// Sleeps, so that another thread's call gets under way.
    Pause {
        micros: u64,
    },
    Destroy {
        slot: usize,
    },
}

/// A script's bytes (shown as text in a plan).
struct Script(Vec<u8>);

impl std::fmt::Debug for Script {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "{:?}", String::from_utf8_lossy(&self.0))
    }
}

/// What each thread does: `lists[thread][phase]`.
#[derive(Debug)]
struct Plan {
    slots: usize,
    lists: Vec<Vec<Vec<Call>>>,
}

fn text(u: &mut Unstructured, pool: &[&str]) -> Result<Vec<u8>> {
    let mut bytes = match u.int_in_range(0..=7u8)? {
        0 => {
            let mut v = u.choose(pool)?.as_bytes().to_vec();
            let n = u.int_in_range(0..=16usize)?;
            v.extend_from_slice(u.bytes(n.min(u.len()))?);
            v
        }
        1 => {
            let n = u.int_in_range(0..=48usize)?;
            u.bytes(n.min(u.len()))?.to_vec()
        }
        _ => u.choose(pool)?.as_bytes().to_vec(),
    };
    if let Some(nul) = bytes.iter().position(|&b| b == 0) {
        bytes.truncate(nul);
    }
    Ok(bytes)
}

fn cstring(u: &mut Unstructured, pool: &[&str]) -> Result<CString> {
    Ok(CString::new(text(u, pool)?).expect("cut at the first NUL"))
}

fn call(u: &mut Unstructured, slots: usize) -> Result<Call> {
    let slot = u.choose_index(slots)?;
    Ok(match u.int_in_range(0..=15u8)? {
        0 => Call::Create { slot, threads: u.int_in_range(1..=2)?, untrusted: u.arbitrary()? },
        1 | 2 => Call::Load { slot, script: Script(text(u, SCRIPTS)?) },
        3 | 4 => Call::SetOption { slot, key: cstring(u, KEYS)?, value: cstring(u, VALUES)? },
        5 => Call::Seed { slot, seed: u.int_in_range(-2..=1000)? },
        6..=8 => Call::Run {
            slot,
            report_size: if u.arbitrary()? { Some(std::mem::size_of::<dealer_run_report>() as u32) } else { None },
        },
        9 => Call::NextDeal { slot, count: u.int_in_range(1..=3)? },
        10 => Call::NextDeals { slot, count: u.int_in_range(0..=20)? },
        11 => Call::Eval { slot, expression: cstring(u, EXPRESSIONS)? },
        12 | 13 => Call::Interrupt { which: u.arbitrary::<u8>()?.into() },
        14 => Call::Pause { micros: u.int_in_range(0..=3000)? },
        _ => Call::Destroy { slot },
    })
}

/// Decodes the whole input into a plan (missing bytes end lists early).
fn plan(data: &[u8]) -> Plan {
    let mut u = Unstructured::new(data);
    let threads = u.int_in_range(2..=MAX_THREADS).unwrap_or(2);
    let slots = u.int_in_range(1..=MAX_SLOTS).unwrap_or(1);
    let phases = u.int_in_range(1..=MAX_PHASES).unwrap_or(1);
    let mut lists: Vec<Vec<Vec<Call>>> = (0..threads).map(|_| (0..phases).map(|_| Vec::new()).collect()).collect();
    'decode: for phase in 0..phases {
        for list in lists.iter_mut() {
            let Ok(n) = u.int_in_range(0..=MAX_CALLS_PER_PHASE) else { break 'decode };
            for _ in 0..n {
                match call(&mut u, slots) {
                    Ok(c) => list[phase].push(c),
                    Err(_) => break 'decode,
                }
            }
        }
    }
    Plan { slots, lists }
}

/// One live session and what the harness knows of it.
struct Live {
    handle: *mut dealer_session,
    /// One collector per stream (the userdata of [`write_collect`]); boxed because the library
    /// keeps pointers to them, and dropped after the handle.
    #[allow(clippy::box_collection)]
    streams: [Box<Vec<u8>>; 4],
    usereval_status: Box<i32>,
    /// The last generate limit set (`None`: unknown, or back to the script's).
    generate: Option<i64>,
    /// The output ceiling the harness set, when it knows it.
    max_output_bytes: Option<usize>,
    /// The loaded script is one of [`SCRIPTS`] (its prints end their lines).
    whole_lines: bool,
    /// Anything given to the session names double dummy.
    dd: bool,
}

// SAFETY: a session may be used from any thread, one thread at a time (the slot's mutex).
unsafe impl Send for Live {}

/// What all threads of one input share.
struct Shared {
    slots: Vec<Mutex<Option<Live>>>,
    /// Every interrupter made so far (as addresses), freed when all threads are done.
    interrupters: Mutex<Vec<usize>>,
    dd_left: AtomicU32,
    phases: Phases,
    /// Each thread's call in progress (its index in the thread's whole list, plus one; 0: none).
    progress: Vec<AtomicUsize>,
    /// Calls finished by all threads.
    finished: AtomicUsize,
    started: Instant,
}

impl Shared {
    /// Whether the input may still deal (see [`WORK_BUDGET`]).
    fn may_deal(&self) -> bool {
        self.started.elapsed() < WORK_BUDGET
    }
}

/// A barrier that a panicking thread can break, so that the others stop instead of waiting for
/// it for ever.
struct Phases {
    parties: usize,
    /// (threads arrived, generation, broken)
    state: Mutex<(usize, usize, bool)>,
    turn: Condvar,
}

impl Phases {
    /// Waits for all threads; false when a thread broke the barrier.
    fn wait(&self) -> bool {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if state.2 {
            return false;
        }
        state.0 += 1;
        if state.0 == self.parties {
            *state = (0, state.1 + 1, false);
            self.turn.notify_all();
            return true;
        }
        let generation = state.1;
        while state.1 == generation && !state.2 {
            state = self.turn.wait(state).unwrap_or_else(|e| e.into_inner());
        }
        !state.2
    }

    fn break_all(&self) {
        self.state.lock().unwrap_or_else(|e| e.into_inner()).2 = true;
        self.turn.notify_all();
    }
}

fn new_session(threads: u32, untrusted: bool, shared: &Shared) -> Live {
    let mut handle = std::ptr::null_mut();
    assert_eq!(dealer_create_session(&mut handle), DEALER_OK);
    assert!(!handle.is_null());
    let mut live = Live {
        handle,
        streams: Default::default(),
        usereval_status: Box::new(0),
        generate: None,
        max_output_bytes: None,
        whole_lines: false,
        dd: false,
    };
    for (stream, collector) in live.streams.iter_mut().enumerate() {
        let userdata = (&mut **collector as *mut Vec<u8>).cast::<c_void>();
        check(handle, dealer_set_output(handle, stream as i32, Some(write_collect), userdata), "dealer_set_output");
    }
    check(handle, dealer_set_threads(handle, threads), "dealer_set_threads");
    check(handle, dealer_set_untrusted(handle, i32::from(untrusted)), "dealer_set_untrusted");
    let userdata = (&mut *live.usereval_status as *mut i32).cast();
    check(handle, dealer_set_usereval(handle, Some(usereval), userdata), "dealer_set_usereval");
    let mut interrupter = std::ptr::null_mut();
    assert_eq!(dealer_create_interrupter(handle, &mut interrupter), DEALER_OK);
    shared.interrupters.lock().unwrap().push(interrupter as usize);
    live
}

/// Makes the generate limit small before dealing.
fn bound_generate(s: &mut Live) {
    let cap = if s.dd { GENERATE_CAP_DD } else { GENERATE_CAP };
    let small = |v: i64| v as i32 as i64 == v && (v < 0 || (1..=cap).contains(&v));
    if !s.generate.is_some_and(small) {
        check(s.handle, dealer_set_generate(s.handle, cap), "dealer_set_generate");
        s.generate = Some(cap);
    }
}

/// Whether the input's time allows dealing, and takes its double-dummy call when the session
/// may solve; false: skip the call.
fn dd_budget(s: &Live, shared: &Shared) -> bool {
    if !shared.may_deal() {
        return false;
    }
    !s.dd || shared.dd_left.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1)).is_ok()
}

/// Checks what a run left on the output, csv and export streams.
fn check_output(s: &Live, status: i32) {
    let written: usize = [0, 2, 3].iter().map(|&i| s.streams[i].len()).sum();
    if status == DEALER_CEILING_REACHED || status == DEALER_OK || status == DEALER_INTERRUPTED {
        if let Some(ceiling) = s.max_output_bytes {
            assert!(written <= ceiling, "dealer_run: {written} bytes written under max_output_bytes {ceiling}");
        }
    }
    let ends_early = [DEALER_OK, DEALER_INTERRUPTED, DEALER_CEILING_REACHED, DEALER_TIMED_OUT].contains(&status);
    if s.whole_lines && ends_early {
        for i in [0, 2, 3] {
            let out = &s.streams[i];
            assert!(
                out.is_empty() || out.ends_with(b"\n"),
                "dealer_run (status {status}): stream {i} ends with a partial line: {:?}",
                String::from_utf8_lossy(&out[out.len().saturating_sub(200)..])
            );
        }
    }
}

/// Makes one call on a slot's session (the slot's lock held) or without one.
fn perform(call: &Call, shared: &Shared) {
    let slot_of = |slot: usize| shared.slots[slot].lock().unwrap();
    match call {
        Call::Create { slot, threads, untrusted } => {
            let mut guard = slot_of(*slot);
            if guard.is_none() {
                *guard = Some(new_session(*threads, *untrusted, shared));
            }
        }
        Call::Destroy { slot } => {
            if let Some(s) = slot_of(*slot).take() {
                dealer_free_session(s.handle);
                // The collectors are dropped after the handle that points at them.
            }
        }
        Call::Interrupt { which } => {
            let interrupters = shared.interrupters.lock().unwrap();
            if !interrupters.is_empty() {
                let interrupter = interrupters[which % interrupters.len()];
                drop(interrupters);
                // Valid until the end of the input (freed only after all threads are done).
                dealer_interrupt(interrupter as *const dealer_interrupter);
            }
        }
        Call::Pause { micros } if shared.may_deal() => std::thread::sleep(Duration::from_micros(*micros)),
        Call::Pause { .. } => {}
        Call::Load { slot, .. }
        | Call::SetOption { slot, .. }
        | Call::Seed { slot, .. }
        | Call::Run { slot, .. }
        | Call::NextDeal { slot, .. }
        | Call::NextDeals { slot, .. }
        | Call::Eval { slot, .. } => {
            let mut guard = slot_of(*slot);
            let Some(s) = guard.as_mut() else { return };
            on_session(call, s, shared);
        }
    }
}

fn on_session(call: &Call, s: &mut Live, shared: &Shared) {
    let h = s.handle;
    match call {
        Call::Load { script: Script(script), .. } => {
            if script.windows(3).any(|w| w == b"opc") {
                return;
            }
            s.dd |= names_dd(script);
            let status = check(h, dealer_load_script(h, script.as_ptr(), script.len()), "dealer_load_script");
            s.whole_lines = status == DEALER_OK && SCRIPTS.iter().any(|known| known.as_bytes() == script.as_slice());
        }
        Call::SetOption { key, value, .. } => {
            let (k, v) = (key.to_str().unwrap_or(""), value.to_str().unwrap_or(""));
            let threads_ok = v.parse::<u32>().is_ok_and(|n| (1..=2).contains(&n));
            if UNSAFE_KEYS.contains(&k) || (k == "threads" && !threads_ok) {
                return;
            }
            let status = check(h, dealer_set_option(h, key.as_ptr(), value.as_ptr()), "dealer_set_option");
            s.dd |= names_dd(value.as_bytes());
            if status == DEALER_OK && k == "generate" {
                s.generate = v.parse::<i64>().ok().filter(|&g| g != 0);
            }
            if status == DEALER_OK && k == "max_output_bytes" {
                s.max_output_bytes = v.parse::<usize>().ok().filter(|&n| n != 0);
            }
            if status == DEALER_OK && k == "untrusted" {
                // Its default output ceiling (1 MiB) is above anything a bounded run writes.
                s.max_output_bytes = s.max_output_bytes.filter(|_| v != "false");
            }
        }
        Call::Seed { seed, .. } => {
            check(h, dealer_set_seed(h, *seed), "dealer_set_seed");
        }
        Call::Run { report_size, .. } => {
            if !dd_budget(s, shared) {
                return;
            }
            bound_generate(s);
            for out in s.streams.iter_mut() {
                out.clear();
            }
            let mut report = dealer_run_report { size: report_size.unwrap_or(0), ..Default::default() };
            let report_ptr = if report_size.is_some() { &mut report as *mut _ } else { std::ptr::null_mut() };
            let status = check(h, watched(h, || dealer_run(h, report_ptr)), "dealer_run");
            if report_size.is_some() && status >= 0 {
                assert!(
                    report.produced <= report.generated,
                    "dealer_run: produced {} > generated {}",
                    report.produced,
                    report.generated
                );
            }
            check_output(s, status);
        }
        Call::NextDeal { count, .. } => {
            if !dd_budget(s, shared) {
                return;
            }
            bound_generate(s);
            for _ in 0..*count {
                let mut deal = dealer_deal::default();
                let status = check(h, watched(h, || dealer_next_deal(h, &mut deal)), "dealer_next_deal");
                if status != DEALER_OK {
                    break;
                }
                let cards: u32 = deal.hands.iter().map(|hand| hand.count_ones()).sum();
                assert_eq!(cards, 52, "dealer_next_deal: a deal of {cards} cards");
            }
        }
        Call::NextDeals { count, .. } => {
            if !dd_budget(s, shared) {
                return;
            }
            bound_generate(s);
            let mut deals = vec![dealer_deal::default(); *count];
            let mut produced = usize::MAX;
            let status = watched(h, || {
                dealer_next_deals(
                    h,
                    *count,
                    deals.as_mut_ptr(),
                    std::ptr::null(),
                    0,
                    std::ptr::null_mut(),
                    &mut produced,
                )
            });
            check(h, status, "dealer_next_deals");
            assert!(produced <= *count, "dealer_next_deals: produced {produced} of {count}");
            if status == DEALER_OK {
                assert_eq!(produced, *count, "dealer_next_deals: DEALER_OK after {produced} of {count}");
            }
        }
        Call::Eval { expression, .. } => {
            s.dd |= names_dd(expression.as_bytes());
            if !dd_budget(s, shared) {
                return;
            }
            let mut value = 0;
            check(h, dealer_eval(h, expression.as_ptr(), &mut value), "dealer_eval");
        }
        Call::Create { .. } | Call::Destroy { .. } | Call::Interrupt { .. } | Call::Pause { .. } => {
            unreachable!("calls without a session are made by perform")
        }
    }
}

/// One thread's work: its lists, phase by phase, meeting the others between phases.
fn worker(thread: usize, lists: &[Vec<Call>], shared: &Shared) {
    let mut index = 0;
    for (phase, list) in lists.iter().enumerate() {
        if phase > 0 && !shared.phases.wait() {
            return;
        }
        for call in list {
            index += 1;
            shared.progress[thread].store(index, Ordering::SeqCst);
            perform(call, shared);
            shared.finished.fetch_add(1, Ordering::SeqCst);
        }
    }
    shared.progress[thread].store(0, Ordering::SeqCst);
}

/// Decodes `data` into each thread's calls and runs them concurrently, as described in the
/// module documentation; panics on a broken contract and aborts on a deadlock.
pub fn run(data: &[u8]) {
    let plan = plan(data);
    if std::env::var_os("SESSIONS_SHOW_PLAN").is_some() {
        // To read a finding: `SESSIONS_SHOW_PLAN=1 cargo +nightly fuzz run sessions <input>`.
        eprintln!("{plan:#?}");
    }
    let threads = plan.lists.len();
    let shared = Shared {
        slots: (0..plan.slots).map(|_| Mutex::new(None)).collect(),
        interrupters: Mutex::new(Vec::new()),
        dd_left: AtomicU32::new(DD_CALLS),
        phases: Phases { parties: threads, state: Mutex::new((0, 0, false)), turn: Condvar::new() },
        progress: (0..threads).map(|_| AtomicUsize::new(0)).collect(),
        finished: AtomicUsize::new(0),
        started: Instant::now(),
    };
    let (done_tx, done_rx) = std::sync::mpsc::channel::<()>();
    let outcome = std::thread::scope(|scope| {
        let handles: Vec<_> = plan
            .lists
            .iter()
            .enumerate()
            .map(|(thread, lists)| {
                let (shared, done_tx) = (&shared, done_tx.clone());
                scope.spawn(move || {
                    let outcome =
                        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| worker(thread, lists, shared)));
                    if outcome.is_err() {
                        shared.phases.break_all();
                    }
                    let _ = done_tx.send(());
                    outcome
                })
            })
            .collect();
        drop(done_tx);
        // The per-input watchdog: some call must finish every STALL until all threads are done.
        let (mut done, mut seen, mut since) = (0, 0, Instant::now());
        while done < threads {
            match done_rx.recv_timeout(Duration::from_millis(250)) {
                Ok(()) => done += 1,
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
            }
            let finished = shared.finished.load(Ordering::SeqCst);
            if finished != seen {
                (seen, since) = (finished, Instant::now());
            } else if since.elapsed() > STALL {
                let mut report = String::new();
                for (thread, progress) in shared.progress.iter().enumerate() {
                    let at = progress.load(Ordering::SeqCst);
                    let doing = plan.lists[thread].iter().flatten().nth(at.wrapping_sub(1));
                    report.push_str(&format!("\n  thread {thread}: call {at}: {doing:?}"));
                }
                eprintln!("sessions harness: no call finished for {STALL:?} (deadlock?):{report}");
                std::process::abort();
            }
        }
        handles.into_iter().map(|h| h.join().expect("caught")).find(|o| o.is_err())
    });
    for slot in shared.slots {
        if let Some(s) = slot.into_inner().unwrap_or_else(|e| e.into_inner()) {
            dealer_free_session(s.handle);
        }
    }
    for interrupter in shared.interrupters.into_inner().unwrap_or_else(|e| e.into_inner()) {
        dealer_free_interrupter(interrupter as *mut dealer_interrupter);
    }
    if let Some(Err(panic)) = outcome {
        std::panic::resume_unwind(panic);
    }
}
