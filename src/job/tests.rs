//! Tests of whole sessions: runs, `next_deal` and `eval`, seeds, dealing threads, library and
//! record files, interruption and the ceilings, mostly through [`Session`]'s public API (the
//! tests of one module's own rules live in that module: option values in src/job/options.rs).

use std::sync::{Arc, Mutex};
use std::time::Instant;

use crate::actions;
use crate::cards::{Card, Deal, Seat, SeatSet, Suit};
use crate::dialect::Dialect;
use crate::error::{ErrorKind, Result};
use crate::external::usereval::Metric;
use crate::job::options::DEFAULT_MAX_SCRIPT_BYTES;
use crate::job::session::MAX_CACHED_EXPRESSIONS;
use crate::job::{Ceiling, RunReport, Session, Sink, Stream};

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
    #[cfg(unix)]
    let fifo = dir.join("fifo");
    #[cfg(unix)]
    {
        let c_path = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) }, 0);
    }
    // (Windows has neither devices nor FIFOs in the file system: the folder only.)
    #[cfg(unix)]
    let not_files = [dir.to_str().unwrap(), "/dev/zero", fifo.to_str().unwrap()];
    #[cfg(not(unix))]
    let not_files = [dir.to_str().unwrap()];
    for path in not_files {
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
                    assert!((1..=0xFFFF_FFFF).contains(&chosen), "{options:?}: srand48 reads 32 bits, got {chosen}");
                }
                let (_, again) = first_deals(&[("rng", rng), ("dialect", dialect), ("seed", &chosen.to_string())], 1);
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
fn spot_cards_deal_with_chacha_and_are_refused_by_the_compatibility_generators() {
    let script = "produce 50\npredeal south HA\npredeal north S2, HQ9x\n  east SQTxx\n";
    let (mut s, _out) = captured(&[("seed", "3")], script);
    let mut produced = 0;
    while let Some(deal) = s.next_deal().unwrap() {
        let east = deal.hand(Seat::East);
        assert_eq!(east.len(Suit::Spades), 4);
        assert_eq!(east.suit_bits(Suit::Spades) & 0x1F00, (1 << 10) | (1 << 8));
        assert_eq!(east.suit_bits(Suit::Spades) & 1, 0, "the S2 is North's");
        assert_eq!(deal.hand(Seat::North).len(Suit::Hearts), 3);
        produced += 1;
    }
    assert_eq!(produced, 50);
    for rng in ["drand48", "glibc"] {
        let (mut s, _out) = captured(&[("seed", "1"), ("rng", rng)], script);
        let e = s.run().unwrap_err();
        assert_eq!(e.kind, ErrorKind::Script, "{rng}");
        // The first spot holding: `HQ9x` at line 3, column 19.
        assert_eq!((e.line, e.col), (Some(3), Some(19)), "{rng}: {e}");
        assert!(e.to_string().contains("spot cards (x) in predeal need the ChaCha generator"), "{e}");
    }
    // The command-line predeal takes x too, and replaces the script's spot holdings.
    let (mut s, _out) = captured(&[("seed", "4"), ("predeal_west", "sakx,dxx")], script);
    while let Some(deal) = s.next_deal().unwrap() {
        let west = deal.hand(Seat::West);
        assert_eq!((west.len(Suit::Spades), west.len(Suit::Diamonds)), (3, 2));
        assert_eq!(west.suit_bits(Suit::Diamonds) & 0x1F00, 0);
        assert_ne!(deal.hand(Seat::East).len(Suit::Spades), 99);
    }
    let (mut s, _out) = captured(&[("seed", "4"), ("rng", "drand48"), ("predeal_west", "sakx")], script);
    let e = s.run().unwrap_err();
    assert_eq!(e.kind, ErrorKind::Option);
    assert!(e.to_string().starts_with("option predeal_west: spot cards (x)"), "{e}");
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
    let expected = deal.hand(Seat::North).cards_descending().map(|c| c.rank().saturating_sub(8) as i32).sum::<i32>();
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
#[cfg(unix)]
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
#[cfg(unix)]
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
    let (mut s, _) = captured(&[("seed", "9"), ("zrd_file", &format!("wN:{zrd}"))], "produce 2\naction printoneline\n");
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
    for (script, dialect) in runs.filter(|(script, dialect)| !(script.contains("bktfreq") && *dialect == "classic")) {
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
    let (mut s, out) =
        captured(&[("seed", "5"), ("threads", "2")], "produce 3\ncondition hcp(north) >= 10\naction printoneline\n");
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
    let expected = "                  [T]\n   1. North              East                South               West \n";
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
    let script = "produce 2\ncondition usereval(1, NS, 2) == 7\naction printes(usereval(3, west, spades, 1), \\n)\n";
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
    assert_eq!(job_limits(&[("untrusted", "true"), ("max_generate", "30000000")], script), (30_000_000, 20_000_000));
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

#[test]
fn format_replaces_the_scripts_actions_and_gives_them_back() {
    let script = "produce 6\ncondition hcp(north) > 12\naction printoneline, average hcp(south)\n";
    let (mut s, out) = captured(&[("seed", "4"), ("statistics", "false")], script);
    s.run().unwrap();
    let own = text(&out);
    assert!(own.contains("Sample Size=6"));
    for (format, start) in [("lin", "qx|o"), ("jsonl", "{\"schema\":1,\"type\":\"deal\"")] {
        s.set_option("format", format).unwrap();
        s.set_option("statistics", "true").unwrap();
        out.lock().unwrap().clear();
        let report = s.run().unwrap();
        let records = text(&out);
        assert_eq!(report.produced, 6);
        assert_eq!(records.lines().count(), 6, "{records}");
        assert!(records.lines().all(|l| l.starts_with(start)), "{records}");
        assert!(!records.contains("Sample Size") && !records.contains("Generated"), "{records}");
    }
    // The summary object in place of the text statistics.
    s.set_option("json_summary", "true").unwrap();
    out.lock().unwrap().clear();
    s.run().unwrap();
    let last = text(&out).lines().last().unwrap().to_string();
    assert!(
        last.starts_with("{\"schema\":1,\"type\":\"summary\",\"generated\":")
            && last.contains("\"produced\":6,\"seed\":4,")
    );
    // Back to the script's own actions, on the same deals.
    s.set_option("format", "script").unwrap();
    s.set_option("json_summary", "false").unwrap();
    s.set_option("statistics", "false").unwrap();
    out.lock().unwrap().clear();
    s.run().unwrap();
    assert_eq!(text(&out), own);
}

#[test]
fn format_set_before_the_script_and_with_threads() {
    let script = "produce 40\ncondition shape(south, any 4333) && hcp(south) >= 10\naction printall\n";
    let mut outputs = Vec::new();
    for threads in ["1", "4"] {
        let (mut s, out) = captured(&[("seed", "9"), ("format", "lin"), ("threads", threads)], script);
        s.run().unwrap();
        outputs.push(text(&out));
    }
    assert_eq!(outputs[0].lines().count(), 40);
    assert_eq!(outputs[0], outputs[1]);
}

#[test]
fn start_board_overrides_startboard_and_numbers_both_dialects() {
    let board_tags = |options: &[(&str, &str)], script: &str| {
        let (mut s, out) = captured(options, script);
        s.run().unwrap();
        text(&out).lines().filter(|l| l.starts_with("[Board ")).map(str::to_string).collect::<Vec<_>>()
    };
    let v2 = "startboard 7\nproduce 2\naction printpbn\n";
    assert_eq!(board_tags(&[("seed", "1")], v2), ["[Board \"7\"]", "[Board \"8\"]"]);
    assert_eq!(board_tags(&[("seed", "1"), ("start_board", "30")], v2), ["[Board \"30\"]", "[Board \"31\"]"]);
    assert_eq!(board_tags(&[("seed", "1"), ("start_board", "0")], v2), ["[Board \"7\"]", "[Board \"8\"]"]);
    let classic = "produce 2\naction printpbn\n";
    let options = [("rng", "glibc"), ("seed", "1"), ("start_board", "16")];
    assert_eq!(board_tags(&options, classic), ["[Board \"16\"]", "[Board \"17\"]"]);
    // printall numbers its deals from the start board too.
    let (mut s, out) = captured(&[("seed", "1"), ("start_board", "5")], "produce 2\naction printall\n");
    s.run().unwrap();
    assert!(text(&out).contains("   5. North") && text(&out).contains("   6. North"));
}

#[test]
fn rotate_moves_the_dealers_hand_in_printpbn_and_printlin_only() {
    // West holds every spade and is the script's dealer.
    let script = "dealer west\npredeal west SAKQJT98765432\nproduce 8\naction printpbn, printoneline\n";
    let (mut s, out) = captured(&[("seed", "2"), ("rotate", "true"), ("statistics", "false")], script);
    s.run().unwrap();
    let output = text(&out);
    let dealers: Vec<&str> = output.lines().filter(|l| l.starts_with("[Dealer ")).collect();
    assert_eq!(dealers, ["[Dealer \"N\"]", "[Dealer \"E\"]", "[Dealer \"S\"]", "[Dealer \"W\"]"].repeat(2));
    for (board, deal) in output.lines().filter_map(|l| l.strip_prefix("[Deal \"N:")).enumerate() {
        let hands: Vec<&str> = deal.trim_end_matches("\"]").split(' ').collect();
        assert_eq!(hands[board % 4], "AKQJT98765432...", "board {}", board + 1);
    }
    // printoneline shows the deal as dealt: West still holds the spades there.
    assert!(output.lines().filter(|l| l.starts_with("n ")).all(|l| l.contains(" w AKQJT98765432... ")));
}
