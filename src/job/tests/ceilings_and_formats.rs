//! Tests of the run ceilings (generate, time, output bytes) and of the output formats, board
//! numbering and rotation.

use super::*;

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
        ("generate 1000000000\ncondition dds(north, notrump) + 0 > 13\n", "1"),
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
