//! Deals read from board records (`input`): every format libdealer writes reads back into the
//! same deals through a script; records keep their board data in the outputs; double-dummy
//! tables read back answer `dds()` and par with no solve and the same bytes as solving; the
//! predeal, `generate` and `produce` apply to records; malformed records stop the run at their
//! line (or are skipped and counted) with the output before them whole.

use super::*;

/// The output of a run of `script` with `options` over the records `input`, and the run's
/// result.
fn run_over(input: &[u8], options: &[(&str, &str)], script: &str) -> (Result<RunReport>, String) {
    let mut s = Session::new();
    for (k, v) in options {
        s.set_option(k, v).unwrap();
    }
    s.set_input_data(Some(input));
    s.load_script(script.as_bytes()).unwrap();
    let out = capture(&mut s, Stream::Output);
    let result = s.run();
    (result, text(&out))
}

/// The output of a run that deals (no input).
fn dealt(options: &[(&str, &str)], script: &str) -> String {
    let (mut s, out) = captured(options, script);
    s.run().unwrap();
    text(&out)
}

/// The JSON summary line of an output.
fn summary_of(output: &str) -> &str {
    output.lines().find(|l| l.starts_with("{\"schema\":1,\"type\":\"summary\"")).expect(output)
}

/// The one-line deals of an output, in order.
fn oneline_deals(output: &str) -> Vec<&str> {
    output.lines().filter(|l| l.starts_with("n ")).map(str::trim_end).collect()
}

#[test]
fn every_format_libdealer_writes_reads_back_into_the_same_deals() {
    let deals = dealt(&[("seed", "11")], "produce 60\naction printoneline\n");
    let deals = oneline_deals(&deals);
    assert_eq!(deals.len(), 60);
    let folder = std::env::temp_dir().join(format!("libdealer-input-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    let zrd = folder.join("deals.zrd");
    let dl52 = folder.join("deals.dl52");
    let options = [
        ("seed", "11"),
        ("zrd_file", &format!("wN:{}", zrd.display())),
        ("dl52_file", &format!("w:{}", dl52.display())),
    ];
    dealt(&options, "produce 60\naction printoneline\n");
    let written = [
        ("oneline", dealt(&[("seed", "11")], "produce 60\naction printoneline\n").into_bytes()),
        ("pbn", dealt(&[("seed", "11"), ("format", "pbn")], "produce 60\n").into_bytes()),
        ("lin", dealt(&[("seed", "11"), ("format", "lin")], "produce 60\n").into_bytes()),
        ("jsonl", dealt(&[("seed", "11"), ("format", "jsonl"), ("json_summary", "true")], "produce 60\n").into_bytes()),
        ("zrd", std::fs::read(&zrd).unwrap()),
        ("dl52", std::fs::read(&dl52).unwrap()),
    ];
    // The text statistics after the one-line deals are no record: the one-line file is only the
    // deals.
    let oneline_only = deals.join("\n").into_bytes();
    for (format, bytes) in written {
        let bytes = if format == "oneline" { oneline_only.clone() } else { bytes };
        let (result, out) = run_over(&bytes, &[("json_summary", "true")], "action printoneline\n");
        result.unwrap_or_else(|e| panic!("{format}: {e}"));
        assert_eq!(oneline_deals(&out), deals, "{format}");
        let summary = summary_of(&out);
        assert!(summary.contains(&format!("\"format\":\"{format}\",\"records_read\":60,")), "{format}: {summary}");
        assert!(summary.contains("\"generated\":60,\"produced\":60"), "{format}: {summary}");
    }
    std::fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn a_pbn_file_with_double_dummy_answers_dds_and_par_without_a_solve_and_the_same_bytes() {
    let records =
        dealt(&[("seed", "5"), ("format", "pbn"), ("pbn_dd", "true"), ("pbn_date", "2026.12.07")], "produce 4\n");
    // Read back and written again with the tables: the same file, not one table solved.
    let options = [("format", "pbn"), ("pbn_dd", "true"), ("json_summary", "true")];
    let (result, out) = run_over(records.as_bytes(), &options, "");
    result.unwrap();
    let summary = summary_of(&out);
    assert!(summary.contains("\"dd\":{\"thresholds\":0,\"exact\":0,\"tables\":0,"), "{summary}");
    assert!(summary.contains("\"dd_read\":4,"), "{summary}");
    assert_eq!(out.replace(&format!("{summary}\n"), ""), records);
    // The script's questions answered from the tables equal the solver's answers.
    let script = "action printes(dds(north, notrump), \" \", dds(west, spades), \" \", par(NS), \\n)\n";
    let (result, from_tables) = run_over(records.as_bytes(), &[("json_summary", "true")], script);
    result.unwrap();
    assert!(summary_of(&from_tables).contains("\"tables\":0,"), "{from_tables}");
    let bare: String = records
        .lines()
        .filter(|l| {
            !l.starts_with("[Optimum") && !l.starts_with("[ParContract") && !l.starts_with(|c: char| "NESW".contains(c))
        })
        .map(|l| format!("{l}\n"))
        .collect();
    let (result, solved) = run_over(bare.as_bytes(), &[("json_summary", "true")], script);
    result.unwrap();
    assert!(!summary_of(&solved).contains("\"exact\":0,\"tables\":0,"), "{solved}");
    let answers = |out: &str| out.lines().filter(|l| !l.starts_with('{')).map(str::to_string).collect::<Vec<_>>();
    assert_eq!(answers(&from_tables), answers(&solved));
    assert_eq!(answers(&solved).len(), 4);
}

#[test]
fn verify_dd_solves_the_first_tables_and_stops_on_one_that_disagrees() {
    let records = dealt(&[("seed", "5"), ("format", "pbn"), ("pbn_dd", "true")], "produce 3\n");
    let (result, out) = run_over(records.as_bytes(), &[("verify_dd", "3"), ("json_summary", "true")], "");
    result.unwrap();
    assert!(summary_of(&out).contains("\"dd_read\":0,\"dd_verified\":3}"), "{out}");
    // The second board's North-notrump row made one trick wrong.
    let second = records.match_indices("[OptimumResultTable").nth(1).unwrap().0;
    let row = second + records[second..].find("\nN NT ").unwrap() + 1;
    let tricks: u8 = records[row + 5..row + 7].trim().parse().unwrap();
    let wrong = format!("{}N NT {:>2}{}", &records[..row], (tricks + 1) % 14, &records[row + 7..]);
    let (result, _) = run_over(wrong.as_bytes(), &[("verify_dd", "5")], "");
    let message = result.unwrap_err().to_string();
    assert!(message.contains("input data:"), "{message}");
    assert!(
        message.contains(&format!("North in notrump: {} in the input, {tricks} solved", (tricks + 1) % 14)),
        "{message}"
    );
    // Unverified, the table is taken as read.
    let (result, out) = run_over(wrong.as_bytes(), &[], "action printes(dds(north, notrump), \\n)\n");
    result.unwrap();
    assert_eq!(out.lines().nth(1), Some(((tricks + 1) % 14).to_string().as_str()), "{out}");
}

#[test]
fn records_keep_their_board_numbers_dealers_vulnerabilities_and_names_in_every_format() {
    let text = "[Event \"Club night\"]\n[Board \"17\"]\n[North \"Nell\"]\n[Dealer \"W\"]\n[Vulnerable \"EW\"]\n\
        [Deal \"N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765\"]\n\n\
        [Event \"#\"]\n[Board \"18\"]\n[Dealer \"N\"]\n[Vulnerable \"All\"]\n\
        [Deal \"E:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765\"]\n\n";
    let (result, lin) = run_over(text.as_bytes(), &[("format", "lin")], "");
    result.unwrap();
    let lines: Vec<&str> = lin.lines().collect();
    assert_eq!(lines.len(), 2, "{lin}");
    assert!(lines[0].starts_with("qx|o17|pn|,,Nell,|md|2"), "{lin}");
    assert!(lines[0].contains("ah|Board 17|sv|e|"), "{lin}");
    assert!(lines[1].starts_with("qx|o18|md|3") && lines[1].contains("sv|b|"), "{lin}");
    let (result, json) = run_over(text.as_bytes(), &[("format", "jsonl")], "");
    result.unwrap();
    assert!(json.starts_with("{\"schema\":1,\"type\":\"deal\",\"board\":17,\"dealer\":\"W\",\"vulnerable\":\"EW\",\"tags\":{\"Event\":\"Club night\",\"North\":\"Nell\"}"), "{json}");
    let (result, pbn) = run_over(text.as_bytes(), &[("format", "pbn")], "");
    result.unwrap();
    assert!(pbn.starts_with("[Event \"Club night\"]\n[Site \"-\"]\n"), "{pbn}");
    assert!(pbn.contains("[Board \"18\"]\n[West \"-\"]\n[North \"-\"]"), "{pbn}");
    // A record without board data takes its number from its place, as dealt deals do.
    let (result, lin) =
        run_over(b"N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765\n", &[("format", "lin")], "");
    result.unwrap();
    assert!(lin.starts_with("qx|o1|md|3"), "{lin}");
}

#[test]
fn the_predeal_generate_and_produce_apply_to_records() {
    let records = dealt(&[("seed", "21")], "produce 200\naction printoneline\n");
    let records = oneline_deals(&records).join("\n");
    let holding_sa = records.lines().filter(|l| l.split(' ').nth(1).unwrap().starts_with('A')).count();
    assert!((30..90).contains(&holding_sa), "{holding_sa}");
    let (result, out) =
        run_over(records.as_bytes(), &[("json_summary", "true")], "predeal north SA\naction printoneline\n");
    let report = result.unwrap();
    assert_eq!((report.generated, report.produced), (200, holding_sa as i64));
    let summary = summary_of(&out);
    assert!(summary.contains(&format!("\"off_predeal_skipped\":{}", 200 - holding_sa)), "{summary}");
    assert!(oneline_deals(&out).iter().all(|l| l.split(' ').nth(1).unwrap().starts_with('A')));
    // `produce` stops as usual; `generate` counts records read.
    let (result, _) = run_over(records.as_bytes(), &[], "produce 3\ncondition hcp(north) > 10\n");
    let report = result.unwrap();
    assert_eq!(report.produced, 3);
    assert!(report.generated < 200);
    let (result, _) = run_over(records.as_bytes(), &[("generate", "7")], "");
    assert_eq!(result.unwrap().generated, 7);
    // The condition judges each record: those with South's 15 points or more, in order.
    let (result, out) = run_over(records.as_bytes(), &[], "condition hcp(south) >= 15\naction printoneline\n");
    let points = |hand: &str| hand.chars().map(|c| "JQKA".find(c).map_or(0, |k| k + 1)).sum::<usize>();
    let expected: Vec<&str> = records.lines().filter(|l| points(l.split(' ').nth(5).unwrap()) >= 15).collect();
    assert!(expected.len() > 10);
    assert_eq!(result.unwrap().produced, expected.len() as i64);
    assert_eq!(oneline_deals(&out), expected);
}

#[test]
fn a_malformed_record_stops_the_run_at_its_line_with_the_output_before_it_whole() {
    let good = "n AKQJ.T98.765.432 e T98.765.432.AKQJ s 765.432.AKQJ.T98 w 432.AKQJ.T98.765\n";
    let bad = "n AKQJ.T98.765.432 e T98.765.432.AKQJ s 765.432.AKQJ.T98 w 432.AKQJ.T98.76\n";
    let input = format!("{good}{good}{bad}{good}");
    let (result, out) = run_over(input.as_bytes(), &[], "action printoneline, printpbn\n");
    let e = result.unwrap_err();
    assert_eq!(e.kind, ErrorKind::Io);
    assert!(e.to_string().contains("input data:3:1: West holds 12 cards (13 needed)"), "{e}");
    // Two whole records each (one-line and PBN), nothing of the third.
    assert_eq!(oneline_deals(&out).len(), 2);
    assert_eq!(out.matches("[Deal ").count(), 2);
    assert!(out.ends_with("\n\n"), "{out}");
    // Skipping: the malformed record is counted and named on the diagnostics stream.
    let mut s = Session::new();
    s.set_option("input_errors", "skip").unwrap();
    s.set_option("json_summary", "true").unwrap();
    s.set_input_data(Some(input.as_bytes()));
    s.load_script(b"action printoneline\n").unwrap();
    let out = capture(&mut s, Stream::Output);
    let diagnostics = capture(&mut s, Stream::Diagnostics);
    let report = s.run().unwrap();
    assert_eq!((report.generated, report.produced), (4, 3));
    assert!(summary_of(&text(&out)).contains("\"records_read\":4,\"malformed_skipped\":1,"));
    assert_eq!(text(&diagnostics), "skipped a malformed record: input data:3:1: West holds 12 cards (13 needed)\n");
}

#[test]
fn options_that_cannot_go_with_an_input_are_refused() {
    let records = b"N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765\n";
    for (key, value, why) in
        [("rotate", "true", "rotate"), ("swap", "2", "swapping"), ("library_file", "/nonexistent.zrd", "library file")]
    {
        let (result, _) = run_over(records, &[(key, value)], "dealer south\n");
        let message = result.unwrap_err().to_string();
        assert!(message.contains("option input is not available with") && message.contains(why), "{key}: {message}");
    }
    for (key, why) in [("level", "level"), ("interleave", "interleave")] {
        let mut s = Session::new();
        s.set_option(key, "true").unwrap();
        s.set_input_data(Some(records));
        s.load_script(b"produce 2\n").unwrap();
        let message = crate::practice::run(&mut s).unwrap_err().to_string();
        assert!(message.contains("option input is not available with") && message.contains(why), "{key}: {message}");
    }
    let mut s = Session::new();
    s.set_option("input", "/nonexistent/records.pbn").unwrap();
    s.load_script(b"").unwrap();
    let message = s.run().unwrap_err().to_string();
    assert!(message.contains("cannot open the input /nonexistent/records.pbn"), "{message}");
    // The input removed, the session deals again.
    let mut s = Session::new();
    s.set_input_data(Some(records));
    s.set_input_data(None);
    s.load_script(b"produce 2\n").unwrap();
    assert_eq!(s.run().unwrap().produced, 2);
}
