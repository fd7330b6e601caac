//! Tests of where output goes (descriptors, csv and export streams, ZRD and DL52 files), library
//! mode, the command-line predeal, and dealing or solving on several threads.

use super::*;

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
    // threads): the run ends at the last of them, not at the chunk's end. (Plain dealing: from
    // North's table every deal would be accepted.)
    let script = |limits: &str| format!("{limits}condition hcp(north) > 14\naction average hcp(south)\n");
    let run = |limits: &str, threads: &str| {
        let options = [("seed", "3"), ("threads", threads), ("rng", "chacha"), ("smart", "off")];
        let (mut s, out) = captured(&options, &script(limits));
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
