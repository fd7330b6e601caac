//! Byte-exact tests of the actions against output captured from /usr/games/dealer, and of the
//! `-m` progress meter.

use super::*;

fn classic_footer(out: &mut Vec<u8>, generated: i64, produced: i64, seed: u64) {
    let s = RunSummary {
        title: None,
        generated,
        produced,
        seed_printed: seed,
        seconds: 0.0,
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
    write_footer(out, Dialect::Classic, &s);
}

/// The `printoneline` lines of classic output: (deal, value).
fn oneline_lines(t: &str) -> Vec<(Deal, Option<i32>)> {
    t.lines().filter(|l| l.starts_with("n ") && l.contains(" e ")).map(oneline).collect()
}

#[test]
fn classic_per_deal_printers() {
    // produce 3; action printall, printew, printcompact, printcompact(hcp(north)), printoneline,
    // printoneline(hcp(north)-20); dealer -s 5
    let lines = oneline_lines(CLASSIC_PRINTERS);
    assert_eq!(lines.len(), 6);
    let mut state = PrintState::new(Dialect::Classic, None);
    let mut out = Vec::new();
    for (i, pair) in lines.chunks(2).enumerate() {
        let deal = pair[0].0;
        let v = pair[1].1.unwrap();
        assert_eq!(v + 20, hcp(deal.hand(Seat::North)));
        let n = i as i64 + 1;
        state.print_all(&mut out, &deal, n, n);
        state.print_side(&mut out, &deal, Side::EW, n, n);
        print_compact(&mut out, &deal, None);
        print_compact(&mut out, &deal, Some(v + 20));
        print_oneline(&mut out, &deal, None);
        print_oneline(&mut out, &deal, Some(v));
    }
    classic_footer(&mut out, 3, 3, 5);
    assert_same(&out, CLASSIC_PRINTERS);
}

#[test]
fn classic_printall_long_suit_pushes_columns() {
    // Sample from the classic reference: north holds 12 spades.
    let deal = pbn_deal("N:AKQJT9876543..A. .AKQJT98765.KQ.A .432.J98765.K32 2...");
    let mut state = PrintState::new(Dialect::Classic, None);
    let mut out = Vec::new();
    state.print_all(&mut out, &deal, 1, 1);
    let second_line = text(&out).lines().nth(1).unwrap().to_string();
    assert_eq!(second_line, "A K Q J T 9 8 7 6 5 4 3 -                   -                   2 ");
}

#[test]
fn classic_printpbn_and_verbose_flip() {
    for (fixture, file, dealer, vul, produced) in [
        (CLASSIC_PBN2, "pbn2.dl", None, None, 2),
        (CLASSIC_PBN3, "pbn3.dl", Some(Seat::East), Some(Vulnerability::NS), 3),
    ] {
        let mut out = Vec::new();
        let mut verbose = true;
        let deals = pbn_deals(fixture);
        assert_eq!(deals.len(), produced);
        for (i, d) in deals.iter().enumerate() {
            let info = PbnInfo {
                dialect: Dialect::Classic,
                label: None,
                input_name: Some(file),
                seed: 7,
                title: Some("ignored by classic"),
                board: i as i64 + 1,
                dealer,
                vulnerability: vul,
                date: "2026.11.21",
                names_libdealer: false,
            };
            if print_pbn(&mut out, d, &info) {
                verbose = !verbose;
            }
        }
        if verbose {
            classic_footer(&mut out, produced as i64, produced as i64, 7);
        }
        assert_same(&out, fixture);
    }
}

#[test]
fn classic_pbn_from_stdin() {
    let deal = pbn_deal("N:AQT6542.5.T86.A5 K7.QJT743.74.KQ6 983.A96.J9.J9432 J.K82.AKQ532.T87");
    let info = PbnInfo {
        dialect: Dialect::Classic,
        label: None,
        input_name: None,
        seed: u64::MAX,
        title: None,
        board: 16,
        dealer: None,
        vulnerability: None,
        date: "2026.11.21",
        names_libdealer: false,
    };
    let mut out = Vec::new();
    print_pbn(&mut out, &deal, &info);
    let t = text(&out);
    assert!(t.starts_with("[Event \"Hand simulated by dealer with file (null), seed 18446744073709551615\"]\n"));
    assert!(t.contains("[Dealer \"W\"]\n[Vulnerable \"EW\"]\n"));
}

#[test]
fn classic_print_pages() {
    // produce 6; action print(west, east), printoneline; dealer -s 3
    let deals: Vec<Deal> = oneline_lines(CLASSIC_PAGES).into_iter().map(|(d, _)| d).collect();
    assert_eq!(deals.len(), 6);
    let mut out = Vec::new();
    for d in &deals {
        print_oneline(&mut out, d, None);
    }
    print_hand_pages(&mut out, Dialect::Classic, &deals, &[Seat::West, Seat::East], Some("ignored"), 1);
    classic_footer(&mut out, 6, 6, 3);
    assert_same(&out, CLASSIC_PAGES);
}

#[test]
fn classic_averages_and_printes() {
    // produce 5; action average hcp(north), average "NS pts" hcp(north)+hcp(south),
    // average "" hcp(east)*100000, printoneline(hcp(north)), printes(hcp(south), " ", hcp(east), \n)
    let lines = oneline_lines(CLASSIC_AVERAGE);
    let mut averages = [Average::new(), Average::new(), Average::new()];
    let mut out = Vec::new();
    for (deal, v) in &lines {
        let (n, e, s) = (hcp(deal.hand(Seat::North)), hcp(deal.hand(Seat::East)), hcp(deal.hand(Seat::South)));
        assert_eq!(Some(n), *v);
        print_oneline(&mut out, deal, Some(n));
        print_es(&mut out, &[EsItem::Number(s), EsItem::Text(" "), EsItem::Number(e), EsItem::Text("\n")]);
        averages[0].add(n);
        averages[1].add(n + s);
        averages[2].add(e * 100000);
    }
    averages[0].write(&mut out, Dialect::Classic, None);
    averages[1].write(&mut out, Dialect::Classic, Some("NS pts"));
    averages[2].write(&mut out, Dialect::Classic, Some(""));
    classic_footer(&mut out, 5, 5, 11);
    assert_same(&out, CLASSIC_AVERAGE);
}

#[test]
fn classic_average_of_nothing_and_overflow() {
    let mut out = Vec::new();
    Average::new().write(&mut out, Dialect::Classic, None);
    Average::new().write(&mut out, Dialect::Classic, Some("lbl"));
    classic_footer(&mut out, 100, 0, 11);
    assert_same(&out, CLASSIC_AVERAGE_EMPTY);
    // `average 1000` over 3,000,000 deals: the int sum wraps (classic reference).
    let mut avg = Average::new();
    for _ in 0..3_000_000 {
        avg.add(1000);
    }
    let mut out = Vec::new();
    avg.write(&mut out, Dialect::Classic, None);
    assert_same(&out, "-431.656\n");
}

#[test]
fn classic_frequencies() {
    // produce 8; frequency "N hcp" (hcp(north)-10, -3, 2), frequency (spades(north), 3, 5),
    // frequency "2d" (hcp(north), 8, 11, spades(north), 2, 4), printoneline(hcp(north)); -s 13
    let lines = oneline_lines(CLASSIC_FREQ);
    let mut a = Frequency1D::new(-3, 2);
    let mut b = Frequency1D::new(3, 5);
    let mut c = Frequency2D::new((8, 11), (2, 4));
    let mut out = Vec::new();
    for (deal, v) in &lines {
        let h = hcp(deal.hand(Seat::North));
        let s = deal.hand(Seat::North).len(Suit::Spades) as i32;
        assert_eq!(Some(h), *v);
        print_oneline(&mut out, deal, Some(h));
        a.add(h - 10);
        b.add(s);
        c.add(h, s);
    }
    a.write(&mut out, Dialect::Classic, Some("N hcp"));
    b.write(&mut out, Dialect::Classic, None);
    c.write(&mut out, Dialect::Classic, Some("2d"));
    classic_footer(&mut out, 8, 8, 13);
    assert_same(&out, CLASSIC_FREQ);
}

/// A classic run `printoneline(spades(north))` (or hcp) plus one frequency table over
/// (hcp(north), spades(north)).
/// One frequency table of a classic run: label, (lo1, hi1), optional (lo2, hi2).
type ClassicTable<'a> = (&'a str, (i32, i32), Option<(i32, i32)>);

fn classic_degenerate(fixture: &str, tables: &[ClassicTable], value_is_hcp: bool) {
    let lines = oneline_lines(fixture);
    let mut out = Vec::new();
    let mut ones: Vec<Frequency1D> = Vec::new();
    let mut twos: Vec<Frequency2D> = Vec::new();
    for (_, rows, cols) in tables {
        match cols {
            None => ones.push(Frequency1D::new(rows.0, rows.1)),
            Some(c) => twos.push(Frequency2D::new(*rows, *c)),
        }
    }
    for (deal, _) in &lines {
        let h = hcp(deal.hand(Seat::North));
        let s = deal.hand(Seat::North).len(Suit::Spades) as i32;
        print_oneline(&mut out, deal, Some(if value_is_hcp { h } else { s }));
        ones.iter_mut().for_each(|f| f.add(h));
        twos.iter_mut().for_each(|f| f.add(h, s));
    }
    let (mut i1, mut i2) = (0, 0);
    for (label, _, cols) in tables {
        if cols.is_none() {
            ones[i1].write(&mut out, Dialect::Classic, Some(label));
            i1 += 1;
        } else {
            twos[i2].write(&mut out, Dialect::Classic, Some(label));
            i2 += 1;
        }
    }
    classic_footer(&mut out, lines.len() as i64, lines.len() as i64, 13);
    assert_same(&out, fixture);
}

#[test]
fn classic_degenerate_frequency_tables() {
    classic_degenerate(CLASSIC_FREQ_ONE_ROW, &[("r1", (10, 8), Some((2, 3))), ("r2", (10, 9), Some((2, 0)))], false);
    classic_degenerate(CLASSIC_FREQ_NO_COLUMNS, &[("inv2", (10, 11), Some((5, 2)))], false);
    classic_degenerate(CLASSIC_FREQ_EMPTY_RANGE, &[("e", (10, 9), None)], true);
    classic_degenerate(CLASSIC_FREQ_NEGATIVE_DIMS, &[("dd", (10, 6), Some((5, 1)))], false);
}

#[test]
fn classic_allocation_failures() {
    // Observed with /usr/games/dealer: `Out of memory`, exit 255, for these and only these.
    assert!(classic_frequency_allocation_fails(5, 3));
    assert!(!classic_frequency_allocation_fails(10, 9));
    assert!(classic_frequency2d_allocation_fails((10, 5), (3, 4)));
    assert!(!classic_frequency2d_allocation_fails((10, 6), (5, 1)));
    assert!(!classic_frequency2d_allocation_fails((10, 7), (5, 2)));
    assert!(!classic_frequency2d_allocation_fails((10, 8), (2, 3)));
}

#[test]
fn classic_footer_negative_seed() {
    let mut out = Vec::new();
    classic_footer(&mut out, 2, 2, (-1i64) as u64);
    assert!(text(&out).contains("Initial random seed 18446744073709551615\n"));
    let mut out = Vec::new();
    let s = RunSummary {
        title: Some("T"),
        generated: 1,
        produced: 1,
        seed_printed: 1,
        seconds: 7.6079,
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
    write_footer(&mut out, Dialect::Classic, &s);
    assert_same(&out, "Generated 1 hands\nProduced 1 hands\nInitial random seed 1\nTime needed    7.608 sec\n");
}

#[test]
fn progress_meter_matches_classic_stream() {
    // `dealer -m` with produce 3 and produce 7 (stderr).
    for (max, expected) in [
        (3, "Calculating...  0% complete\rCalculating... 33% complete\rCalculating... 66% complete\rCalculating... 100% complete\r"),
        (
            7,
            "Calculating...  0% complete\rCalculating... 14% complete\rCalculating... 28% complete\rCalculating... 42% complete\rCalculating... 57% complete\rCalculating... 71% complete\rCalculating... 85% complete\rCalculating... 100% complete\r",
        ),
    ] {
        let mut meter = ProgressMeter::new();
        let mut out = Vec::new();
        meter.start(&mut out);
        for n in 1..=max {
            assert!(meter.update(&mut out, n, max));
        }
        meter.finish(&mut out);
        let mut want = expected.to_string();
        want.push_str(&" ".repeat(38));
        want.push('\r');
        assert_same(&out, &want);
    }
    let mut meter = ProgressMeter::new();
    let mut out = Vec::new();
    assert!(!meter.update(&mut out, 1, 250));
    assert!(meter.update(&mut out, 3, 250));
    assert!(!meter.update(&mut out, 4, 250));
    assert!(!meter.update(&mut out, 1, 0));
}
