//! Byte-exact tests of the actions against DealerV2's regression references.

use super::*;

#[test]
fn v2_printall_with_title_and_form_feed() {
    let blocks = column_blocks(V2_YOU_HOLD, ". North ");
    assert_eq!(blocks.len(), 13);
    let title = "This is the problem from the User Guide -- inherited from Dealer V1";
    let mut state = PrintState::new(Dialect::V2, Some(title.to_string()));
    let mut out = Vec::new();
    for (board, hands) in &blocks {
        let deal = Deal([hands[0], hands[1], hands[2], hands[3]]);
        state.print_all(&mut out, &deal, *board, *board);
    }
    assert_same(&out, V2_YOU_HOLD);
}

#[test]
fn v2_printew() {
    let mut state = PrintState::new(Dialect::V2, Some("Dealer V2 Demo. East 2NT West Stayman or Jacoby".into()));
    let mut out = Vec::new();
    for (board, h) in column_blocks(V2_DEMO_PRINTEW, ". West ") {
        let deal = deal_of(&[(Seat::West, h[0]), (Seat::East, h[1])]);
        state.print_side(&mut out, &deal, Side::EW, board, board);
    }
    assert_same(&out, V2_DEMO_PRINTEW);
}

#[test]
fn v2_printns_printew_and_pages() {
    let title = "Bidding Practice National Teams Session 1  ";
    let ns = column_blocks(V2_PRT_COMPASS, ". South ");
    let ew = column_blocks(V2_PRT_COMPASS, ". West ");
    assert_eq!(ns.len(), 8);
    let deals: Vec<Deal> = ns
        .iter()
        .zip(&ew)
        .map(|((_, a), (_, b))| {
            deal_of(&[(Seat::South, a[0]), (Seat::North, a[1]), (Seat::West, b[0]), (Seat::East, b[1])])
        })
        .collect();
    let mut state = PrintState::new(Dialect::V2, Some(title.into()));
    let mut out = Vec::new();
    for (i, d) in deals.iter().enumerate() {
        let n = i as i64 + 1;
        state.print_side(&mut out, d, Side::NS, n, n);
        state.print_side(&mut out, d, Side::EW, n, n);
    }
    let seats = [Seat::South, Seat::North, Seat::West, Seat::East];
    print_hand_pages(&mut out, Dialect::V2, &deals, &seats, Some(title), 1);
    assert_same(&out, V2_PRT_COMPASS);
}

#[test]
fn v2_pages_east_west() {
    let deals = page_deals(V2_NOTRUMP_PAGES);
    assert_eq!(deals.len(), 12);
    let mut out = Vec::new();
    print_hand_pages(&mut out, Dialect::V2, &deals, &[Seat::West, Seat::East], Some("Practice Bidding 1NT"), 1);
    assert_same(&out, V2_NOTRUMP_PAGES);
}

#[test]
fn v2_printoneline() {
    let mut out = Vec::new();
    for line in V2_ONELINE.lines() {
        let (deal, value) = oneline(line);
        print_oneline(&mut out, &deal, value);
    }
    assert_same(&out, V2_ONELINE);
}

fn v2_pbn_info<'a>(input: &'a str, seed: u64, title: &'a str, board: i64) -> PbnInfo<'a> {
    PbnInfo {
        dialect: Dialect::V2,
        label: None,
        input_name: Some(input),
        seed,
        title: Some(title),
        board,
        dealer: None,
        vulnerability: None,
        date: "2025.06.29",
        names_libdealer: false,
    }
}

#[test]
fn v2_printpbn_rotates_dealer_and_vulnerability() {
    let title = "Regression Test PBN output; Both Vul; Dealer Rotates";
    let mut out = Vec::new();
    for (i, d) in pbn_deals(V2_PBN).iter().enumerate() {
        let flips = print_pbn(&mut out, d, &v2_pbn_info("pbn_s179.dli", 179, title, i as i64 + 1));
        assert!(!flips);
    }
    assert_same(&out, V2_PBN);
}

#[test]
fn v2_printpbn_names_libdealer_when_asked() {
    // ChaCha mode: only the [Generator] tag changes; every other byte is DealerV2's.
    let title = "Regression Test PBN output; Both Vul; Dealer Rotates";
    let mut out = Vec::new();
    for (i, d) in pbn_deals(V2_PBN).iter().enumerate() {
        let info = PbnInfo { names_libdealer: true, ..v2_pbn_info("pbn_s179.dli", 179, title, i as i64 + 1) };
        print_pbn(&mut out, d, &info);
    }
    let peer = "[Generator \"Dealer Version 2.4 by Hans, Henk, and JGM\"]";
    let ours = format!("[Generator \"libdealer {}\"]", env!("CARGO_PKG_VERSION"));
    assert_eq!(printers::LIBDEALER_GENERATOR, format!("libdealer {}", env!("CARGO_PKG_VERSION")));
    assert_eq!(text(&out).matches(ours.as_str()).count(), pbn_deals(V2_PBN).len());
    assert_same(text(&out).replace(ours.as_str(), peer).as_bytes(), V2_PBN);
}

#[test]
fn v2_startboard_pbn_and_pages() {
    let title = "Testing Starting Board Number 26";
    let deals = pbn_deals(V2_STARTBOARD);
    assert_eq!(deals.len(), 8);
    let mut out = Vec::new();
    for (i, d) in deals.iter().enumerate() {
        print_pbn(&mut out, d, &v2_pbn_info("Startboard_s347.dli", 347, title, 26 + i as i64));
    }
    let seats = [Seat::North, Seat::South, Seat::East, Seat::West];
    print_hand_pages(&mut out, Dialect::V2, &deals, &seats, Some(title), 26);
    assert_same(&out, V2_STARTBOARD);
}

#[test]
fn v2_frequency_with_low_and_high() {
    let f = frequency_from(V2_FREQ_EX, 15, 17);
    let mut out = Vec::new();
    f.write(&mut out, Dialect::V2, Some("HCP North Between 15 and 17 "));
    assert_same(&out, V2_FREQ_EX);
}

#[test]
fn v2_frequency_cumulative_rounding() {
    let f = frequency_from(V2_CONTROLS, 0, 12);
    let mut out = Vec::new();
    f.write(&mut out, Dialect::V2, Some("controls"));
    assert_same(&out, V2_CONTROLS);
}

#[test]
fn v2_average_and_frequency() {
    let f = frequency_from(V2_CLUB_LEN, 0, 13);
    let mut avg = Average::new();
    for (label, count) in table_rows(V2_CLUB_LEN) {
        for _ in 0..count {
            avg.add(label.parse().unwrap());
        }
    }
    let mut out = Vec::new();
    avg.write(&mut out, Dialect::V2, Some("Clubs held by W"));
    f.write(&mut out, Dialect::V2, Some("Number of clubs"));
    assert_same(&out, V2_CLUB_LEN);
}

#[test]
fn v2_averages_of_booleans() {
    let f = frequency_from(V2_NT_HCP, 12, 14);
    let rows = table_rows(V2_NT_HCP);
    let mut out = Vec::new();
    for target in 12..=14 {
        let mut avg = Average::new();
        for (label, count) in &rows {
            let v: i32 = label.parse().unwrap();
            for _ in 0..*count {
                avg.add((v == target) as i32);
            }
        }
        avg.write(&mut out, Dialect::V2, Some(&format!("{} hcp", target)));
    }
    f.write(&mut out, Dialect::V2, Some("12-14 HCP Distribution"));
    assert_same(&out, V2_NT_HCP);
}

#[test]
fn v2_unlabelled_frequencies() {
    // Ones among 37 samples, read off the printed means (0.0541, 0.4054, 0.5405).
    let mut out = Vec::new();
    for (label, ones) in [("4450,7d", 2), ("4450,8d", 15), ("4450,8M", 20)] {
        let mut avg = Average::new();
        for i in 0..37 {
            avg.add((i < ones) as i32);
        }
        avg.write(&mut out, Dialect::V2, Some(label));
    }
    let sections: Vec<&str> = V2_JUNKSTAYMAN.split("\nDescription").collect();
    let first = format!("\nDescription{}", sections[1]);
    let second = format!("\nDescription{}", sections[2]);
    frequency_from(&first, 0, 1).write(&mut out, Dialect::V2, None);
    frequency_from(&second, 0, 13).write(&mut out, Dialect::V2, None);
    assert_same(&out, V2_JUNKSTAYMAN);
}

#[test]
fn v2_frequency_2d() {
    let (lo1, hi1, lo2, hi2) = (10, 23, 1, 9);
    let mut f = Frequency2D::new((lo1, hi1), (lo2, hi2));
    for (r, c, n) in grid_cells(V2_FREQ_2D) {
        for _ in 0..n {
            f.add(row_value(&r, lo1 - 1, hi1 + 1), row_value(&c, lo2 - 1, hi2 + 1));
        }
    }
    let mut out = Vec::new();
    f.write(&mut out, Dialect::V2, Some("Controls(across) Vs HCP(down)"));
    assert_same(&out, V2_FREQ_2D);
}

#[test]
fn v2_bucket_frequencies() {
    let sections: Vec<&str> = V2_BKTFREQ.split("\nDescription").collect();
    let one = format!("\nDescription{}", sections[1]);
    let two = format!("\nDescription{}", sections[2]);
    let mut b1 = BucketFrequency1D::new(500, 2200, 50).unwrap();
    for (label, count) in table_rows(&one) {
        for _ in 0..count {
            b1.add(row_value(&label, 499, 2250));
        }
    }
    let mut b2 = BucketFrequency2D::new((500, 2200, 50), (5, 22, 1)).unwrap();
    for (r, c, n) in grid_cells(&two) {
        for _ in 0..n {
            b2.add(row_value(&r, 499, 2250), row_value(&c, 4, 23));
        }
    }
    let mut out = Vec::new();
    b1.write(&mut out, Some("KnR North"));
    b2.write(&mut out, Some("KnR(down) Vs HCP "));
    assert_same(&out, V2_BKTFREQ);
}

#[test]
fn v2_bucket_edges_and_errors() {
    // 3 + 10/3 = 6 buckets: Low, 0, 3, 6, 9, High; High starts at 0 + 4 * 3 = 12, so 11 is in 9.
    let mut b = BucketFrequency1D::new(0, 10, 3).unwrap();
    for v in [-1, 0, 2, 3, 9, 11, 12, 100] {
        b.add(v);
    }
    let mut out = Vec::new();
    b.write(&mut out, None);
    let t = text(&out);
    assert!(t.starts_with("\nDescription: \nValue"));
    assert!(t.contains("Low\t       1\t  12.50\t  12.50\n    0\t       2\t  25.00\t  37.50\n"));
    assert!(t.contains("    9\t       2\t  25.00\t  75.00\nHigh\t       2\t  25.00\t 100.00\n"));
    assert_eq!(BucketFrequency1D::new(0, 10, 0).unwrap_err(), TableError::NonPositiveBucketSize);
    assert_eq!(BucketFrequency1D::new(10, 0, 1).unwrap_err(), TableError::InvertedRange);
    assert!(BucketFrequency2D::new((0, 10, 1), (0, 10, -2)).is_err());
}

#[test]
fn v2_export_side() {
    let mut out = Vec::new();
    for line in V2_EXPORT.lines() {
        let mut hands = [Hand::EMPTY; 2];
        for (k, part) in line.split("  -W ").enumerate() {
            let part = part.trim_start_matches("-E ").trim_end();
            for suit_text in part.split(',') {
                let suit = Suit::ALL.iter().copied().find(|s| suit_text.starts_with(s.letter())).unwrap();
                for c in suit_text[1..].chars() {
                    hands[k].insert(Card::new(suit, rank_of(c)));
                }
            }
        }
        let deal = deal_of(&[(Seat::East, hands[0]), (Seat::West, hands[1])]);
        export(&mut out, &deal, ExportTarget::Side(Side::EW));
    }
    assert_same(&out, V2_EXPORT);
}

#[test]
fn v2_export_seat() {
    let deal = pbn_deal("N:AT752.KQJ.T3.876 .98.KQJ94.JT9532 QJ.AT76543.752.K K98643.2.A86.AQ4");
    let mut out = Vec::new();
    export(&mut out, &deal, ExportTarget::Seat(Seat::East));
    export(&mut out, &deal, ExportTarget::Side(Side::NS));
    assert_same(&out, "-E H98,DKQJ94,CJT9532 \n-N SAT752,HKQJ,DT3,C876  -S SQJ,HAT76543,D752,CK \n");
}

#[test]
fn v2_printrpt_cells() {
    let lines: Vec<&str> = V2_PRINTRPT.lines().collect();
    let mut out = Vec::new();
    let numbers_after = |line: &str, key: &str| -> Vec<i32> {
        let rest = &line[line.find(key).unwrap() + key.len()..];
        rest.split(',').take(5).map(|n| n.parse().unwrap()).collect()
    };
    for chunk in lines.chunks(4) {
        let whole = chunk[0].split(",n ").nth(1).unwrap();
        let (deal, _) = oneline(&format!("n {}", whole));
        let hcp_w: i32 = chunk[2].rsplit(',').next().unwrap().parse().unwrap();
        let south = numbers_after(chunk[3], "'S:',");
        let west = numbers_after(chunk[3], "'W:',");
        report_line(&mut out, &deal, &[ReportCell::Text("The Whole Deal: "), ReportCell::Hands(&Seat::ALL)]);
        report_line(
            &mut out,
            &deal,
            &[ReportCell::Text("The NS Side hands only: "), ReportCell::Hands(&Side::NS.seats())],
        );
        report_line(
            &mut out,
            &deal,
            &[
                ReportCell::Text("A single compass direction and an expression: "),
                ReportCell::Hands(&[Seat::West]),
                ReportCell::Number(hcp_w),
            ],
        );
        report_line(
            &mut out,
            &deal,
            &[
                ReportCell::Text("A pair of hands for NS, a string, and some trix "),
                ReportCell::Hands(&[Seat::South, Seat::North]),
                ReportCell::Text("S:"),
                ReportCell::Tricks(&south),
                ReportCell::Hands(&Side::EW.seats()),
                ReportCell::Text("W:"),
                ReportCell::Tricks(&west),
            ],
        );
    }
    assert_same(&out, V2_PRINTRPT);
}

#[test]
fn v2_printrpt_par_contract_and_leading_number() {
    // ddsParContract_s317.ref, first record.
    let deal = pbn_deal("N:KQ.A72.AJ65.KQJ9 A9853.KJ8.T87.A6 JT764.9543.K92.4 2.QT6.Q43.T87532");
    let mut out = Vec::new();
    report_line(
        &mut out,
        &deal,
        &[
            ReportCell::Number(600),
            ReportCell::ParContract(" 3N  by NS both"),
            ReportCell::ParContract(" 3N  by NS ew"),
            ReportCell::ParContract(" 3N  by NS ns"),
            ReportCell::ParContract(" 3N  by NS none"),
            ReportCell::Number(24),
            ReportCell::Hands(&Side::NS.seats()),
        ],
    );
    assert_same(
        &out,
        " 600,' 3N  by NS both',' 3N  by NS ew',' 3N  by NS ns',' 3N  by NS none',24,n KQ.A72.AJ65.KQJ9 s JT764.9543.K92.4 \n",
    );
    // csvTrixDeal_s43.ref: csvrpt(deal, trix(deal)).
    let deal = pbn_deal("N:J.AK97.J83.KJ863 953.QJT.T97542.2 AKQT84.3.A6.AQ75 762.86542.KQ.T94");
    let tricks = [13, 9, 10, 13, 13, 0, 4, 3, 0, 0, 13, 9, 10, 13, 13, 0, 4, 3, 0, 0];
    let mut out = Vec::new();
    report_line(&mut out, &deal, &[ReportCell::Hands(&Seat::ALL), ReportCell::Tricks(&tricks)]);
    assert_same(
        &out,
        " n J.AK97.J83.KJ863 e 953.QJT.T97542.2 s AKQT84.3.A6.AQ75 w 762.86542.KQ.T94 ,13,9,10,13,13,0,4,3,0,0,13,9,10,13,13,0,4,3,0,0\n",
    );
}

#[test]
fn v2_printes_and_printall() {
    let blocks = column_blocks(V2_CTLS_LTC, ". North ");
    let es_lines: Vec<&str> = V2_CTLS_LTC.lines().filter(|l| l.starts_with("Ctls")).collect();
    assert_eq!(blocks.len(), es_lines.len());
    let mut state = PrintState::new(Dialect::V2, Some(" Checking Losers and Controls  ".into()));
    let mut out = Vec::new();
    for ((board, h), line) in blocks.iter().zip(es_lines) {
        let v: Vec<i32> = line.split('=').skip(1).map(|p| p.split(' ').next().unwrap().parse().unwrap()).collect();
        print_es(
            &mut out,
            &[
                EsItem::Text("Ctls N="),
                EsItem::Number(v[0]),
                EsItem::Text(" Ctls E(H)="),
                EsItem::Number(v[1]),
                EsItem::Text(" Loser S(C)="),
                EsItem::Number(v[2]),
                EsItem::Text(" losers W="),
                EsItem::Number(v[3]),
                EsItem::Text("\n"),
            ],
        );
        state.print_all(&mut out, &Deal([h[0], h[1], h[2], h[3]]), *board, *board);
    }
    assert_same(&out, V2_CTLS_LTC);
}

#[test]
fn v2_separate_title_flags_and_double_form_feed() {
    // printall and printside keep separate title flags (test_rpts_s241.ref prints the title
    // before each); printns and printew share one, and each prints `\f` after deal 10.
    let deal = pbn_deal("N:65.KT2.AKJ9.AT85 KQ942.Q95.874.J6 T7.AJ4.Q653.KQ42 AJ83.8763.T2.973");
    let mut state = PrintState::new(Dialect::V2, Some("T".into()));
    let mut out = Vec::new();
    state.print_side(&mut out, &deal, Side::NS, 1, 1);
    state.print_all(&mut out, &deal, 1, 1);
    let t = text(&out);
    assert_eq!(t.matches("                  [T]\n").count(), 2);
    assert!(t.starts_with("                  [T]\n   1. South              North\n     T 7                 6 5 \n"));

    let mut out = Vec::new();
    state.print_side(&mut out, &deal, Side::NS, 10, 10);
    state.print_side(&mut out, &deal, Side::EW, 10, 10);
    state.print_side(&mut out, &deal, Side::EW, 11, 11);
    let t = text(&out);
    assert_eq!(t.matches('\x0c').count(), 2);
    assert!(t.contains("\n\n\x0c                  [T]\n  10. West               East \n"));
    assert!(t.contains("\n\n\x0c                  [T]\n  11. West"));

    // Without a title (or with an empty one) there is neither a title line nor a form feed.
    let mut state = PrintState::new(Dialect::V2, Some(String::new()));
    let mut out = Vec::new();
    state.print_all(&mut out, &deal, 10, 10);
    assert!(text(&out).starts_with("  10. North"));
    assert!(!text(&out).contains('\x0c'));
}

#[test]
fn v2_average_nan_and_overflow() {
    let mut out = Vec::new();
    Average::new().write(&mut out, Dialect::V2, None);
    assert_same(&out, "Mean=      -nan, Std Dev=      -nan, Var=      -nan, Sample Size=0 \n");
    let mut avg = Average::new();
    avg.add(50000);
    avg.add(50000);
    let mut out = Vec::new();
    avg.write(&mut out, Dialect::V2, Some(""));
    let t = text(&out);
    assert!(t.starts_with(": Mean=50000.0000, Std Dev=      -nan, Var=-"), "{}", t);
}

#[test]
fn v2_frequency_with_no_deals() {
    let mut out = Vec::new();
    Frequency1D::new(1, 2).write(&mut out, Dialect::V2, Some("x"));
    assert_same(
        &out,
        "\nDescription: x:\nValue\t   Count\t   Pct.\t  CumPct\n    1\t       0\t   -nan\t   -nan\n    2\t       0\t   -nan\t   -nan\n    \t--------\t-------\nTotal\t       0\t 100.00\n",
    );
}

#[test]
fn v2_evalcontract_slam_level_reports_no_missed_slams() {
    // DealerV2 prints Missed Slam_pct from a variable it never sets at level 6 and above
    // (the manual, "Dialects and deliberate deviations"); libdealer reports 0.00, and no missed-slam IMPs.
    for level in [6, 7] {
        let contract = Contract { level, strain: Strain::Suit(Suit::Spades), doubled: 0 };
        let mut tally = EvalContractTally::new(Side::NS, contract, false);
        for tricks in [11, 12, 12, 13] {
            tally.add(tricks);
        }
        let s = tally.summary();
        assert_eq!((s.missed_slam_pct, s.missed_slam_imps, s.missed_game_pct), (0.0, 0.0, 0.0), "level {level}");
        let mut out = Vec::new();
        write_evalcontract(&mut out, &s);
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains(", Missed Slam_pct=   0.00,"), "{text}");
    }
}

#[test]
fn v2_evalcontract_summary() {
    // EvalContract_New_s103.ref: figures read off the reference.
    let lines = [
        ((2, Strain::Notrump, 1), true, Side::NS, [357.82, 59.80, 40.20, 33.80, 1.00, 3.38, 0.16]),
        ((3, Strain::Notrump, 0), true, Side::NS, [75.36, 33.80, 66.20, 0.00, 1.00, 0.00, 0.13]),
        ((2, Strain::Suit(Suit::Hearts), 0), false, Side::EW, [9.44, 44.40, 55.60, 4.80, 0.00, 0.29, 0.00]),
        ((4, Strain::Suit(Suit::Hearts), 0), false, Side::EW, [-114.40, 4.80, 95.20, 0.00, 0.00, 0.00, 0.00]),
        ((3, Strain::Suit(Suit::Hearts), 2), false, Side::EW, [-5.0, 0.0, 100.0, 0.0, 0.0, 0.0, 0.0]),
    ];
    let mut out = Vec::new();
    for ((level, strain, doubled), vulnerable, side, f) in lines {
        let s = EvalContractSummary {
            contract: Contract { level, strain, doubled },
            vulnerable,
            side,
            average_score: f[0],
            made_pct: f[1],
            fail_pct: f[2],
            missed_game_pct: f[3],
            missed_slam_pct: f[4],
            missed_game_imps: f[5],
            missed_slam_imps: f[6],
        };
        write_evalcontract(&mut out, &s);
    }
    let expected = concat!(
        "\nContract  2Nx V by NS Avg Result =  357.82, Made pct=  59.80, Fail pct=  40.20\n",
        "Missed Game_pct=  33.80, Missed Slam_pct=   1.00, Missed Game Imps/board=   3.38, Missed Slam Imps/board=   0.16\n",
        "\nContract  3N  V by NS Avg Result =   75.36, Made pct=  33.80, Fail pct=  66.20\n",
        "Missed Game_pct=   0.00, Missed Slam_pct=   1.00, Missed Game Imps/board=   0.00, Missed Slam Imps/board=   0.13\n",
        "\nContract  2H    by EW Avg Result =    9.44, Made pct=  44.40, Fail pct=  55.60\n",
        "Missed Game_pct=   4.80, Missed Slam_pct=   0.00, Missed Game Imps/board=   0.29, Missed Slam Imps/board=   0.00\n",
        "\nContract  4H    by EW Avg Result = -114.40, Made pct=   4.80, Fail pct=  95.20\n",
        "Missed Game_pct=   0.00, Missed Slam_pct=   0.00, Missed Game Imps/board=   0.00, Missed Slam Imps/board=   0.00\n",
        "\nContract 3Hxx   by EW Avg Result =   -5.00, Made pct=   0.00, Fail pct= 100.00\n",
        "Missed Game_pct=   0.00, Missed Slam_pct=   0.00, Missed Game Imps/board=   0.00, Missed Slam Imps/board=   0.00\n",
    );
    assert_same(&out, expected);
}

#[test]
fn v2_footer() {
    let mut out = Vec::new();
    let s = RunSummary {
        title: Some("T"),
        generated: 1234,
        produced: 10,
        seed_printed: 42,
        seconds: 0.0123,
        library: None,
        input: None,
        smart: &[],
        hand_types: &[],
        dd: None,
        dd_line: false,
        leads: &[],
        statistics: "",
        precision: None,
    };
    write_footer(&mut out, Dialect::V2, &s);
    assert_same(
        &out,
        "\nT\nGenerated 1234 hands\nProduced  10 hands\nInitial random seed 42\nTime needed    0.012 sec\n",
    );
    // -D2: the double-dummy counts end the footer; without -D2 they are the JSON summary's only.
    let dd = DdCount { thresholds: 115, exact: 2, tables: 0, by_the_cards: 3, leads: 0 };
    let mut out = Vec::new();
    write_footer(&mut out, Dialect::V2, &RunSummary { title: None, dd: Some(dd), dd_line: true, ..s });
    assert_same(
        &out,
        "Generated 1234 hands\nProduced  10 hands\nInitial random seed 42\nTime needed    0.012 sec\n\
         Double dummy: 115 threshold questions, 2 exact results, 0 tables solved; 3 answered by the cards\n",
    );
    let mut out = Vec::new();
    write_footer(&mut out, Dialect::V2, &RunSummary { title: None, dd: Some(dd), ..s });
    assert!(!String::from_utf8(out).unwrap().contains("Double dummy"));
    let mut out = Vec::new();
    let lib = LibraryCounts { records_read: 7, wrap_arounds: 0 };
    write_footer(&mut out, Dialect::V2, &RunSummary { title: None, library: Some(lib), ..s });
    assert_same(
        &out,
        "Generated 1234 hands\nProduced  10 hands\nLibrary file records read 7, Wrap Arounds=0\nLibrary file starting seed 42\nTime needed    0.012 sec\n",
    );
    // Smart dealing's counts follow, one line per counted seat.
    let smart = [
        SmartCount {
            seat: Seat::South,
            partner: None,
            accepted: 311_089_243,
            possible: 635_013_559_600,
            share_under_bias: None,
            dealt_from_table: true,
        },
        SmartCount {
            seat: Seat::North,
            partner: None,
            accepted: 1_000,
            possible: 8_300,
            share_under_bias: Some(0.0125),
            dealt_from_table: false,
        },
        SmartCount {
            seat: Seat::East,
            partner: None,
            accepted: 1_000,
            possible: 42_460,
            share_under_bias: None,
            dealt_from_table: false,
        },
        SmartCount {
            seat: Seat::North,
            partner: Some(Seat::South),
            accepted: 133_439_296_392,
            possible: 495_918_532_948_104,
            share_under_bias: None,
            dealt_from_table: true,
        },
    ];
    let mut out = Vec::new();
    write_footer(&mut out, Dialect::V2, &RunSummary { title: None, smart: &smart, ..s });
    assert_same(
        &out,
        "Generated 1234 hands\nProduced  10 hands\nInitial random seed 42\nTime needed    0.012 sec\n\
         Smart dealing: 1 hand in 2,041 satisfies South's part of the condition (311,089,243 of 635,013,559,600), dealt from their exact table\n\
         Smart dealing: 1 hand in 8.30 satisfies North's part of the condition (1,000 of 8,300); under the bias predeal 1 deal in 80.0\n\
         Smart dealing: 1 hand in 42.5 satisfies East's part of the condition (1,000 of 42,460)\n\
         Smart dealing: 1 pair of hands in 3,716 satisfies North and South's joint part of the condition (133,439,296,392 of 495,918,532,948,104), dealt from their exact table\n",
    );
}
