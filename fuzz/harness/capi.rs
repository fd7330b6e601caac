//! The `capi` fuzz harness, shared by the fuzz target (`fuzz_targets/capi.rs`) and the
//! library's regression tests of the inputs it found (`tests/integration/fuzz_regressions.rs`): the input
//! bytes are a program of C API calls (`dealer_*` from
//! `dealer::ffi`) with arbitrary arguments, on up to three live sessions.
//!
//! Arguments are arbitrary (integers, option keys and values, scripts, expressions, ids,
//! deals, buffer sizes) and NULL wherever the API documents NULL as allowed or as an error
//! (`DEALER_ERROR_NULL`), but memory is never misused: every non-NULL pointer is valid, every
//! buffer has the size passed, every session handle is live, and all sessions are freed at the
//! end. The target checks the API's contracts:
//! - no call returns `DEALER_ERROR_INTERNAL` (a panic caught at the library boundary) or a
//!   status outside the documented codes;
//! - `dealer_last_error` is empty after a success and non-empty after an error;
//! - `dealer_deal_to_pbn`/`_oneline` NUL-terminate within the buffer and return a non-zero
//!   length for any non-NULL deal (0 means a panic was swallowed).
//!
//! It never touches the filesystem and never starts a process: output streams go to callbacks
//! that collect into memory (or fail, to test the error path), `usereval` is answered by an
//! in-process callback (set on every new session and never cleared), `dealer_load_script_file`
//! is not called, file and program options (`csv_file`, `export_file`, `zrd_file`,
//! `dl52_file`, `library_file`, `server`, `opc_program`) are skipped, scripts mentioning `opc`
//! are skipped, and `dealer_set_output_fd` only gets descriptors that are not open (or negative,
//! after which the stream goes straight back to a callback).
//!
//! Work per input is bounded (a double-dummy solve takes milliseconds): at most 64 calls;
//! threads 1 on a new session and at most 2; before `dealer_run` and `dealer_next_deal` the
//! generate limit is forced into 1..=100 (to 1 once anything given to the session names a
//! double-dummy feature) unless the last one set is already small; and all sessions that may
//! solve double-dummy problems share 1 solving call per input. A watchdog thread interrupts
//! (`dealer_interrupt`) any `dealer_run` or `dealer_next_deal` loop still running after
//! `RUN_WATCHDOG` (script variables and other indirections can hide double-dummy work from the
//! harness's word checks). The contract checks, collectors, `usereval` and the watchdog are
//! shared with the `sessions` harness (`api_common.rs`).

use std::ffi::{c_char, c_void, CStr, CString};

use arbitrary::{Result, Unstructured};
use dealer::ffi::*;

use crate::api_common::{check, contains, last_error, names_dd, usereval, watched, write_collect};

const MAX_SESSIONS: usize = 3;
const MAX_CALLS: usize = 64;
const GENERATE_CAP: i64 = 100;
const GENERATE_CAP_DD: i64 = 1;
const DD_CALLS: u32 = 1;
/// Option keys that open files or name programs to start.
const UNSAFE_KEYS: &[&str] =
    &["csv_file", "export_file", "zrd_file", "dl52_file", "library_file", "server", "opc_program"];

const SCRIPTS: &[&str] = &[
    "",
    "condition hcp(north) >= 12\naction printoneline\n",
    "generate 50\nproduce 5\ncondition shape(south, any 4333 + any 4432) && hcp(south) > 14\naction printall, average hcp(north)\n",
    "a = hcp(north) + hcp(south)\ncondition a > 22 && spades(north) >= 5\naction frequency(a, 20, 40), printpbn\n",
    "predeal north SAKQ, HAK\ncondition hcp(south) > 5\naction printcompact, csvrpt(hcp(north), north)\n",
    "condition usereval(1, NS, 2) > 3\naction printes(usereval(2, north, spades, 3), \"\\n\")\n",
    "condition hcp(north) >= $1\naction printoneline, printrpt(hcp(east), $0)\n",
    "condition dds(north, notrump) >= 9\naction printoneline\n",
    "condition par(NS) > 0\naction printrpt(trix(north), parcontract)\n",
    "seed 11\ngenerate 1000000\nproduce 10\ncondition shape(east, 5xxx - 55xx) && rnd(4) == 1\naction print(north, south), bktfreq(hcp(north), 0, 30, 5)\n",
    "pointcount 4 3 2 1 0.5\naltcount 1 1 1 1 1\ncondition pt1(north) > 3 or loser(west) < 5\naction export(north), evalcontract(north, x4S, vul)\n",
    "title \"x\"\ndealer south\nvulnerable all\nstartboard 7\naction printpbn\n",
    "north_ok = shape{north, 5+M(4-)xx:h>s}\ncondition north_ok\naction printall\n",
];

const EXPRESSIONS: &[&str] = &[
    "hcp(north)",
    "shape(north, any 4333 + any 5332)",
    "spades(south) + 1",
    "1/0",
    "7 % 0",
    "hascard(west, AS)",
    "loser(north) * ltc(north)",
    "score(vul, x3N, 9) + imps(-500)",
    "rnd(10)",
    "usereval(1, NS, 0)",
    "dds(north, notrump)",
    "par(NS)",
    "a",
    "$0",
    "hcp(north) > 10 ? top5(south) : control(east, spades)",
];

const KEYS: &[&str] = &[
    "rng",
    "generator",
    "dialect",
    "seed",
    "generate",
    "produce",
    "title",
    "swap",
    "quiet",
    "statistics",
    "progress",
    "predeal_north",
    "predeal_east",
    "predeal_south",
    "predeal_west",
    "input_name",
    "time_limit",
    "dds_mode",
    "threads",
    "par_vulnerability",
    "opener",
    "debug",
    "external_timeout",
    "var0",
    "var1",
    "var9",
    "var10",
];

const VALUES: &[&str] = &[
    "",
    "0",
    "1",
    "2",
    "3",
    "-1",
    "true",
    "false",
    "on",
    "chacha",
    "drand48",
    "glibc",
    "classic",
    "v2",
    "dealerv2",
    "9223372036854775807",
    "-9223372036854775808",
    "99999999999999999999999",
    "2147483648",
    "4294967297",
    "SAKQ,HJ",
    "SAKQJT98765432",
    "CA,CA",
    "none",
    "ns",
    "both",
    "1.5",
    "nan",
    "inf",
    "w:",
    "N",
    "hcp(north) > 10",
    "   42xyz",
];

/// One live session and the harness's view of it.
struct Live {
    handle: *mut dealer_session,
    /// Collected output (the userdata of [`write_collect`]); outlives the handle.
    // Boxed: the library keeps a pointer to the Vec itself, which must not move.
    #[allow(clippy::box_collection)]
    output: Box<Vec<u8>>,
    /// The status the usereval callback returns (its userdata).
    usereval_status: Box<i32>,
    /// The last generate limit set (`None`: unknown, or back to the script's).
    generate: Option<i64>,
    /// Whether anything given to the session names a double-dummy feature.
    dd: bool,
    ids: Vec<u32>,
    last_deal: Option<dealer_deal>,
}

unsafe extern "C" fn write_fail(_data: *const u8, _len: usize, _userdata: *mut c_void) -> i32 {
    -1
}

/// Text from a pool or raw bytes, cut at the first NUL as C would.
fn text(u: &mut Unstructured, pool: &[&str]) -> Result<Vec<u8>> {
    let mut bytes = match u.int_in_range(0..=3u8)? {
        0 | 1 => u.choose(pool)?.as_bytes().to_vec(),
        2 => {
            // A pool entry with a raw tail.
            let mut v = u.choose(pool)?.as_bytes().to_vec();
            let n = u.int_in_range(0..=16usize)?;
            v.extend_from_slice(u.bytes(n.min(u.len()))?);
            v
        }
        _ => {
            let n = u.int_in_range(0..=64usize)?;
            u.bytes(n.min(u.len()))?.to_vec()
        }
    };
    if let Some(nul) = bytes.iter().position(|&b| b == 0) {
        bytes.truncate(nul);
    }
    Ok(bytes)
}

fn cstring(u: &mut Unstructured, pool: &[&str]) -> Result<CString> {
    Ok(CString::new(text(u, pool)?).expect("cut at the first NUL"))
}

/// A small or a huge limit.
fn limit(u: &mut Unstructured) -> Result<i64> {
    Ok(match u.int_in_range(0..=3u8)? {
        0 => u.int_in_range(-3..=120i64)?,
        1 => *u.choose(&[0, i64::MAX, i64::MIN, i64::from(i32::MAX) + 1, (1i64 << 32) + 1, -(1i64 << 32) + 3])?,
        _ => u.arbitrary()?,
    })
}

fn new_session() -> Option<Live> {
    let mut handle = std::ptr::null_mut();
    assert_eq!(dealer_create_session(&mut handle), DEALER_OK);
    assert!(!handle.is_null());
    let mut live = Live {
        handle,
        output: Box::new(Vec::new()),
        usereval_status: Box::new(0),
        generate: None,
        dd: false,
        ids: Vec::new(),
        last_deal: None,
    };
    for stream in 0..4 {
        collect(&mut live, stream);
    }
    check(handle, dealer_set_threads(handle, 1), "dealer_set_threads");
    let status = dealer_set_usereval(handle, Some(usereval), (&mut *live.usereval_status as *mut i32).cast());
    check(handle, status, "dealer_set_usereval");
    Some(live)
}

fn collect(s: &mut Live, stream: i32) {
    let userdata = (&mut *s.output as *mut Vec<u8>).cast::<c_void>();
    let status = dealer_set_output(s.handle, stream, Some(write_collect), userdata);
    check(s.handle, status, "dealer_set_output");
}

/// Makes the generate limit small before dealing.
fn bound_generate(s: &mut Live) {
    let cap = if s.dd { GENERATE_CAP_DD } else { GENERATE_CAP };
    let small = |v: i64| v as i32 as i64 == v && (v < 0 || (1..=cap).contains(&v));
    if !s.generate.is_some_and(small) {
        let status = dealer_set_generate(s.handle, cap);
        check(s.handle, status, "dealer_set_generate");
        s.generate = Some(cap);
    }
}

/// Takes one double-dummy call from the budget when the session may solve; false: skip the call.
fn dd_budget(s: &Live, left: &mut u32) -> bool {
    if !s.dd {
        return true;
    }
    if *left == 0 {
        return false;
    }
    *left -= 1;
    true
}

fn any_deal(u: &mut Unstructured, s: Option<&Live>) -> Result<Option<dealer_deal>> {
    Ok(match u.int_in_range(0..=3u8)? {
        0 => None,
        1 => Some(dealer_deal { hands: u.arbitrary()? }),
        _ => s.and_then(|s| s.last_deal).or(Some(dealer_deal { hands: u.arbitrary()? })),
    })
}

fn format_deal(u: &mut Unstructured, s: Option<&Live>) -> Result<()> {
    let deal = any_deal(u, s)?;
    let deal_ptr = deal.as_ref().map_or(std::ptr::null(), |d| d as *const dealer_deal);
    let format = if u.arbitrary()? { dealer_deal_to_pbn } else { dealer_deal_to_oneline };
    let size = u.int_in_range(0..=120usize)?;
    let mut buffer = vec![0x55 as c_char; size];
    let null_buffer = size == 0 && u.arbitrary()?;
    let ptr = if null_buffer { std::ptr::null_mut() } else { buffer.as_mut_ptr() };
    let len = format(deal_ptr, ptr, size);
    if deal.is_none() {
        assert_eq!(len, 0, "deal_to_*: NULL deal gave {len}");
        return Ok(());
    }
    assert!(len > 0, "deal_to_*: a deal formatted as nothing (panic swallowed?) {:?}", deal);
    if size > 0 {
        let end = len.min(size - 1);
        assert_eq!(buffer[end], 0, "deal_to_*: no NUL at {end} (len {len}, size {size})");
    }
    Ok(())
}

/// Calls with a NULL session or NULL required pointers: each must report an error, not crash.
fn null_calls(u: &mut Unstructured) -> Result<()> {
    let null = std::ptr::null_mut();
    let k = c"seed";
    let statuses = match u.int_in_range(0..=11u8)? {
        0 => vec![dealer_create_session(std::ptr::null_mut())],
        1 => vec![dealer_set_option(null, k.as_ptr(), c"1".as_ptr()), dealer_set_seed(null, u.arbitrary()?)],
        2 => vec![dealer_set_generator(null, u.arbitrary()?), dealer_set_dialect(null, u.arbitrary()?)],
        3 => vec![dealer_set_generate(null, 5), dealer_set_produce(null, 5), dealer_set_threads(null, 1)],
        4 => {
            vec![dealer_set_variable(null, u.arbitrary()?, c"x".as_ptr()), dealer_set_predeal(null, 0, c"SA".as_ptr())]
        }
        5 => vec![dealer_load_script(null, std::ptr::null(), 0), dealer_load_script_file(null, c"x".as_ptr())],
        6 => vec![
            dealer_set_output(null, 0, Some(write_fail), null.cast()),
            dealer_set_usereval(null, None, null.cast()),
        ],
        7 => vec![dealer_run(null, std::ptr::null_mut()), dealer_next_deal(null, std::ptr::null_mut())],
        8 => {
            let mut v = 0;
            let mut id = 0;
            vec![
                dealer_eval(null, c"1".as_ptr(), &mut v),
                dealer_compile_expression(null, c"1".as_ptr(), &mut id),
                dealer_eval_compiled(null, id, &mut v),
            ]
        }
        9 => vec![dealer_dds_table(null, std::ptr::null(), std::ptr::null_mut())],
        10 => {
            let mut line = 0;
            assert_eq!(dealer_last_error_exit_code(null), 2);
            assert!(!unsafe { CStr::from_ptr(dealer_last_error(null)) }.is_empty());
            assert!(!unsafe { CStr::from_ptr(dealer_last_error_summary(null)) }.is_empty());
            vec![dealer_last_error_location(null, &mut line, std::ptr::null_mut())]
        }
        _ => {
            dealer_free_session(null);
            let version = unsafe { CStr::from_ptr(dealer_version()) }.to_str().expect("ASCII version");
            let number = dealer_version_number();
            let parts: Vec<u32> = version.split('.').map(|p| p.parse().expect("numeric version")).collect();
            assert_eq!(parts[0] * 10_000 + parts[1] * 100 + parts[2], number);
            vec![]
        }
    };
    for status in statuses {
        assert_eq!(status, DEALER_ERROR_NULL, "a NULL session or argument gave {status}");
    }
    Ok(())
}

fn step(u: &mut Unstructured, sessions: &mut Vec<Live>, dd_left: &mut u32) -> Result<()> {
    let op = u.int_in_range(0..=24u8)?;
    if op == 0 {
        if sessions.len() < MAX_SESSIONS {
            sessions.extend(new_session());
        }
        return Ok(());
    }
    if op == 1 {
        return null_calls(u);
    }
    if op == 2 {
        return format_deal(u, None);
    }
    if sessions.is_empty() {
        sessions.extend(new_session());
    }
    let index = u.choose_index(sessions.len())?;
    let s = &mut sessions[index];
    let h = s.handle;
    match op {
        3 => {
            let s = sessions.remove(index);
            dealer_free_session(s.handle);
        }
        4 | 5 => {
            let key = cstring(u, KEYS)?;
            let value = cstring(u, VALUES)?;
            let (k, v) = (key.to_str().unwrap_or(""), value.to_str().unwrap_or(""));
            let threads = k == "threads" && v.parse::<usize>().is_ok_and(|n| (3..=64).contains(&n));
            if UNSAFE_KEYS.contains(&k) || threads {
                return Ok(());
            }
            let (key_ptr, value_ptr) = match u.int_in_range(0..=15u8)? {
                0 => (std::ptr::null(), value.as_ptr()),
                1 => (key.as_ptr(), std::ptr::null()),
                _ => (key.as_ptr(), value.as_ptr()),
            };
            let status = check(h, dealer_set_option(h, key_ptr, value_ptr), "dealer_set_option");
            if !value_ptr.is_null() && names_dd(value.as_bytes()) {
                s.dd = true;
            }
            if status == DEALER_OK && k == "generate" {
                s.generate = Some(dealer::job::atol(v)).filter(|&g| g != 0);
            }
        }
        6 => {
            check(h, dealer_set_seed(h, u.arbitrary()?), "dealer_set_seed");
        }
        7 => {
            let g = if u.arbitrary()? { u.int_in_range(-1..=3)? } else { u.arbitrary()? };
            check(h, dealer_set_generator(h, g), "dealer_set_generator");
        }
        8 => {
            let d = if u.arbitrary()? { u.int_in_range(-1..=2)? } else { u.arbitrary()? };
            check(h, dealer_set_dialect(h, d), "dealer_set_dialect");
        }
        9 => {
            let g = limit(u)?;
            if check(h, dealer_set_generate(h, g), "dealer_set_generate") == DEALER_OK {
                s.generate = Some(g).filter(|&g| g != 0);
            }
        }
        10 => {
            check(h, dealer_set_produce(h, limit(u)?), "dealer_set_produce");
        }
        11 => {
            let n = match u.int_in_range(0..=3u8)? {
                0 => u.int_in_range(65..=u32::MAX)?,
                _ => u.int_in_range(0..=2)?,
            };
            check(h, dealer_set_threads(h, n), "dealer_set_threads");
        }
        12 => {
            let index = if u.arbitrary()? { u.int_in_range(0..=10)? } else { u.arbitrary()? };
            let value = cstring(u, VALUES.iter().chain(EXPRESSIONS).copied().collect::<Vec<_>>().as_slice())?;
            let ptr = if u.int_in_range(0..=9u8)? == 0 { std::ptr::null() } else { value.as_ptr() };
            check(h, dealer_set_variable(h, index, ptr), "dealer_set_variable");
            if names_dd(value.as_bytes()) {
                s.dd = true;
            }
        }
        13 => {
            let seat = if u.arbitrary()? { u.int_in_range(-1..=4)? } else { u.arbitrary()? };
            let cards = cstring(u, VALUES)?;
            let ptr = if u.int_in_range(0..=5u8)? == 0 { std::ptr::null() } else { cards.as_ptr() };
            check(h, dealer_set_predeal(h, seat, ptr), "dealer_set_predeal");
        }
        14 | 15 => {
            let script = match u.int_in_range(0..=2u8)? {
                0 => {
                    let n = u.int_in_range(0..=1024usize)?;
                    u.bytes(n.min(u.len()))?.to_vec()
                }
                _ => text(u, SCRIPTS)?,
            };
            if contains(&script, "opc") {
                return Ok(());
            }
            if names_dd(&script) {
                s.dd = true;
            }
            let status = match u.int_in_range(0..=15u8)? {
                0 => dealer_load_script(h, std::ptr::null(), 0),
                1 => dealer_load_script(h, std::ptr::null(), 1 + usize::from(u.arbitrary::<u8>()?)),
                _ => dealer_load_script(h, script.as_ptr(), script.len()),
            };
            if check(h, status, "dealer_load_script") == DEALER_OK {
                s.ids.clear();
                s.last_deal = None;
            }
        }
        16 => {
            let stream = if u.int_in_range(0..=4u8)? == 0 { u.arbitrary()? } else { u.int_in_range(0..=3)? };
            if u.int_in_range(0..=3u8)? == 0 {
                check(h, dealer_set_output(h, stream, Some(write_fail), std::ptr::null_mut()), "dealer_set_output");
            } else if u.arbitrary()? {
                // A descriptor that is not open: refused with DEALER_ERROR_IO.
                let fd = u.int_in_range(3..=i32::MAX)?;
                // SAFETY: F_GETFD only asks whether fd is open.
                #[cfg(unix)]
                let closed = unsafe { libc::fcntl(fd, libc::F_GETFD) } == -1;
                // (Windows refuses every descriptor: nothing is ever written through one.)
                #[cfg(not(unix))]
                let closed = true;
                if closed {
                    check(h, dealer_set_output_fd(h, stream, fd), "dealer_set_output_fd");
                }
            } else if (0..4).contains(&stream) && u.arbitrary()? {
                // A negative descriptor restores the default (stdout/stderr): collect again at once.
                check(h, dealer_set_output_fd(h, stream, -1 - u.int_in_range(0..=9)?), "dealer_set_output_fd");
                collect(s, stream);
            } else {
                let userdata = (&mut *s.output as *mut Vec<u8>).cast::<c_void>();
                check(h, dealer_set_output(h, stream, Some(write_collect), userdata), "dealer_set_output");
            }
        }
        17 => {
            *s.usereval_status = if u.int_in_range(0..=3u8)? == 0 { u.arbitrary()? } else { 0 };
        }
        18 => {
            if !dd_budget(s, dd_left) {
                return Ok(());
            }
            bound_generate(s);
            let mut report = dealer_run_report::default();
            let status = match u.int_in_range(0..=5u8)? {
                0 => watched(h, || dealer_run(h, std::ptr::null_mut())),
                1 => {
                    report.size = u.int_in_range(0..=std::mem::size_of::<dealer_run_report>() as u32)?;
                    watched(h, || dealer_run(h, &mut report))
                }
                _ => {
                    report.size = std::mem::size_of::<dealer_run_report>() as u32;
                    watched(h, || dealer_run(h, &mut report))
                }
            };
            check(h, status, "dealer_run");
            s.last_deal = None;
        }
        19 => {
            if !dd_budget(s, dd_left) {
                return Ok(());
            }
            bound_generate(s);
            let calls = u.int_in_range(1..=4u8)?;
            for _ in 0..calls {
                let mut deal = dealer_deal::default();
                let ptr = if u.int_in_range(0..=15u8)? == 0 { std::ptr::null_mut() } else { &mut deal as *mut _ };
                let status = check(h, watched(h, || dealer_next_deal(h, ptr)), "dealer_next_deal");
                if status == DEALER_OK {
                    s.last_deal = Some(deal);
                } else {
                    break;
                }
            }
        }
        20 => {
            let expression = cstring(u, EXPRESSIONS)?;
            if names_dd(expression.as_bytes()) {
                s.dd = true;
            }
            if !dd_budget(s, dd_left) {
                return Ok(());
            }
            let mut value = 0;
            let status = match u.int_in_range(0..=15u8)? {
                0 => dealer_eval(h, std::ptr::null(), &mut value),
                1 => dealer_eval(h, expression.as_ptr(), std::ptr::null_mut()),
                _ => dealer_eval(h, expression.as_ptr(), &mut value),
            };
            check(h, status, "dealer_eval");
        }
        21 => {
            let expression = cstring(u, EXPRESSIONS)?;
            if names_dd(expression.as_bytes()) {
                s.dd = true;
            }
            let mut id = 0u32;
            let status = match u.int_in_range(0..=15u8)? {
                0 => dealer_compile_expression(h, std::ptr::null(), &mut id),
                1 => dealer_compile_expression(h, expression.as_ptr(), std::ptr::null_mut()),
                _ => dealer_compile_expression(h, expression.as_ptr(), &mut id),
            };
            if check(h, status, "dealer_compile_expression") == DEALER_OK {
                s.ids.push(id);
            }
        }
        22 => {
            if !dd_budget(s, dd_left) {
                return Ok(());
            }
            let id = match (u.int_in_range(0..=3u8)?, s.ids.is_empty()) {
                (0, _) | (_, true) => u.arbitrary()?,
                _ => *u.choose(&s.ids)?,
            };
            let mut value = 0;
            let ptr = if u.int_in_range(0..=15u8)? == 0 { std::ptr::null_mut() } else { &mut value as *mut i32 };
            check(h, dealer_eval_compiled(h, id, ptr), "dealer_eval_compiled");
        }
        23 => {
            // The last error's accessors, with NULL out-pointers where allowed.
            let (mut line, mut col) = (0u32, 0u32);
            let status = match u.int_in_range(0..=3u8)? {
                0 => dealer_last_error_location(h, &mut line, &mut col),
                1 => dealer_last_error_location(h, std::ptr::null_mut(), &mut col),
                2 => dealer_last_error_location(h, &mut line, std::ptr::null_mut()),
                _ => dealer_last_error_location(h, std::ptr::null_mut(), std::ptr::null_mut()),
            };
            assert_eq!(status, DEALER_OK);
            let code = dealer_last_error_exit_code(h);
            assert!((0..=255).contains(&code), "exit code {code}");
            let _ = last_error(h);
            format_deal(u, Some(s))?;
        }
        _ => {
            // Double-dummy table: every call counts against the budget, whatever the session.
            if *dd_left == 0 {
                return Ok(());
            }
            *dd_left -= 1;
            let deal = any_deal(u, Some(s))?;
            let deal_ptr = deal.as_ref().map_or(std::ptr::null(), |d| d as *const dealer_deal);
            let mut table = dealer_dds_results {
                size: std::mem::size_of::<dealer_dds_results>() as u32,
                par_vulnerability: u.int_in_range(-2..=4)?,
                tricks: [[0; 5]; 4],
                par_score_ns: 0,
                par_contract: [0; 32],
            };
            if u.int_in_range(0..=7u8)? == 0 {
                table.size = u.arbitrary()?;
            }
            let ptr = if u.int_in_range(0..=15u8)? == 0 { std::ptr::null_mut() } else { &mut table as *mut _ };
            if check(h, dealer_dds_table(h, deal_ptr, ptr), "dealer_dds_table") == DEALER_OK {
                assert!(table.par_contract.contains(&0), "par_contract not NUL-terminated");
                for row in table.tricks {
                    assert!(row.iter().all(|t| (0..=13).contains(t)), "tricks out of range: {:?}", table.tricks);
                }
            }
        }
    }
    Ok(())
}

/// Decodes `data` as a program of C API calls and runs it, as described in the module
/// documentation; panics on a broken contract.
pub fn run(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let mut sessions: Vec<Live> = Vec::new();
    let mut dd_left = DD_CALLS;
    for _ in 0..MAX_CALLS {
        if u.is_empty() || step(&mut u, &mut sessions, &mut dd_left).is_err() {
            break;
        }
    }
    for s in sessions {
        dealer_free_session(s.handle);
        // `output` and `usereval_status` are dropped after the handle that points at them.
    }
}
