//! Tests of whole runs: seeds, classic dealer's output, the default produce limit, PBN records,
//! output kept before an error, the time limit.

use super::*;

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
