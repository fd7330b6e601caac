//! Tests of loading scripts and their errors: caps, NUL bytes, byte-order marks, line and
//! column of run-time errors, predeal and spot cards, titles.

use super::*;

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
