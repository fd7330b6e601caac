//! The `records` fuzz harness: arbitrary bytes as board records (`input`), shared by the fuzz
//! target (`fuzz_targets/records.rs`) and the library's regression tests of the inputs it found
//! (`tests/integration/fuzz_regressions.rs`).
//!
//! **The readers.** The bytes are read by [`RecordReader`] in every format (PBN, LIN, one-line,
//! DL52, JSON Lines, ZRD) and in the format found from them (`None`), from memory, until the
//! end or a fatal error. Checked: every record read holds a whole deal (52 different cards, 13
//! to a hand) and, when it has one, a double-dummy table of 0 to 13 tricks; an error names a
//! place and says what is wrong; a reader that errs without being fatal goes on to the next
//! record and ends (reading must consume input: at most one record or error per input byte, and
//! a few more at the end); `records_read` counts every record and error; the format found is
//! the one [`InputFormat::sniff`] names for the first bytes; reading is deterministic (a
//! second reader in the found format reads the same records).
//!
//! **A session.** One input in two is also a session's input ([`Session::set_input_data`]) in
//! one format (or found), with malformed records skipped (three in four) or stopping the run,
//! and one of four scripts, each checked against the records the reader read:
//! - `action printoneline`: the output is each record's deal, one line each, in order, exactly
//!   (the records up to the first error when errors stop the run);
//! - `action printjson`: each line is a JSON object whose `deal`, and `board`, `dealer` and
//!   `vulnerable` when the record gives them, are the record's;
//! - `action printpbn` and `action printlin`: what they write reads back (with this module's
//!   readers) into the same deals, and the same board numbers, dealers and vulnerabilities where
//!   the record gave them.
//!
//! No file is opened and no process started (the input is memory; every stream goes to a
//! buffer); no double dummy is solved (no script asks for it and `verify_dd` is 0). An input is
//! at most a few kilobytes, so a run reads at most a few thousand records.

use std::sync::{Arc, Mutex};

use dealer::job::{Sink, Stream};
use dealer::records::{DealRecord, InputFormat, InputSource, RecordError, RecordReader};
use dealer::script::ast::Vulnerability;
use dealer::Session;

/// Every format, then `None` (found from the bytes).
const FORMATS: [Option<InputFormat>; 7] = [
    Some(InputFormat::Pbn),
    Some(InputFormat::Lin),
    Some(InputFormat::Oneline),
    Some(InputFormat::Dl52),
    Some(InputFormat::Jsonl),
    Some(InputFormat::Zrd),
    None,
];

/// What a reader read: the records before the end or the first fatal error, the non-fatal
/// errors, and the fatal error that stopped it, each with the number of records read before it.
#[derive(Debug, Default, PartialEq)]
pub struct Read {
    pub format: Option<InputFormat>,
    /// Records and non-fatal errors, in order.
    pub items: Vec<Result<DealRecord, RecordError>>,
    pub fatal: Option<RecordError>,
}

impl Read {
    /// The records read, without the errors.
    fn records(&self) -> impl Iterator<Item = &DealRecord> {
        self.items.iter().filter_map(|item| item.as_ref().ok())
    }
}

/// Reads `data` in `format` (or the format found) to the end or the first fatal error,
/// checking each record; `None` when the reader does not open (no format found).
pub fn read_all(data: &[u8], format: Option<InputFormat>) -> Option<Read> {
    let source = InputSource::Memory(Arc::from(data));
    let mut reader = match RecordReader::open(&source, format) {
        Ok(reader) => reader,
        Err(message) => {
            assert!(!message.is_empty(), "an empty open error");
            // Only a format found from the bytes can fail to open memory.
            assert!(format.is_none(), "{format:?}: memory did not open: {message}");
            assert_eq!(InputFormat::sniff(&data[..data.len().min(4096)]), None, "sniffed, yet not opened: {message}");
            return None;
        }
    };
    if let Some(named) = format {
        assert_eq!(reader.format(), named);
    } else {
        assert_eq!(Some(reader.format()), InputFormat::sniff(&data[..data.len().min(4096)]), "the format found");
    }
    let mut read = Read { format: Some(reader.format()), ..Read::default() };
    // A record or an error consumes at least one byte of input; a few more at the end (a last
    // record ended by the end of the input, an error about an unfinished one).
    let bound = data.len() + 8;
    loop {
        assert!(
            read.items.len() <= bound,
            "{:?}: more than {bound} records and errors from {} bytes: a reader does not advance",
            reader.format(),
            data.len()
        );
        let before = reader.records_read();
        match reader.next_record() {
            Ok(None) => {
                assert_eq!(reader.records_read(), before, "the end counted as a record");
                // The end stays the end.
                assert!(matches!(reader.next_record(), Ok(None)), "{:?}: a record after the end", reader.format());
                break;
            }
            Ok(Some(record)) => {
                assert_eq!(reader.records_read(), before + 1);
                check_record(&record);
                read.items.push(Ok(record));
            }
            Err(error) => {
                assert_eq!(reader.records_read(), before + 1);
                assert!(!error.message.trim().is_empty(), "an error without a message");
                assert!(!error.describe(reader.name()).is_empty());
                if error.fatal {
                    read.fatal = Some(error);
                    break;
                }
                read.items.push(Err(error));
            }
        }
    }
    Some(read)
}

/// A record's invariants.
fn check_record(record: &DealRecord) {
    assert!(record.deal.is_complete(), "an incomplete deal read: {:?}", record.deal);
    if let Some(table) = &record.dd {
        for row in table.0.iter() {
            for &tricks in row.iter() {
                assert!(tricks <= 13, "a table with {tricks} tricks");
            }
        }
    }
    assert!(record.line >= 1, "a record at line or number 0");
}

/// Runs a session on `data` in `format` with `script`; returns (whether the run succeeded, the
/// output).
fn session_run(data: &[u8], format: Option<InputFormat>, skip: bool, script: &str) -> (bool, Vec<u8>) {
    let output = Arc::new(Mutex::new(Vec::new()));
    let mut s = Session::new();
    let sink = output.clone();
    s.set_sink(
        Stream::Output,
        Some(Sink::Callback(Box::new(move |bytes: &[u8]| {
            sink.lock().unwrap().extend_from_slice(bytes);
            Ok(())
        }))),
    );
    for stream in [Stream::Diagnostics, Stream::Csv, Stream::Export] {
        s.set_sink(stream, Some(Sink::Callback(Box::new(|_bytes: &[u8]| Ok(())))));
    }
    let format_name = format.map_or("auto", InputFormat::name);
    for (key, value) in [
        ("threads", "1"),
        ("seed", "1"),
        // No end-of-run statistics on the output: only what the actions write.
        ("statistics", "false"),
        ("input_format", format_name),
        ("input_errors", if skip { "skip" } else { "stop" }),
    ] {
        s.set_option(key, value).expect("harness options are valid");
    }
    s.set_input_data(Some(data));
    s.load_script(script.as_bytes()).expect("the harness's scripts load");
    let ok = s.run().is_ok();
    let out = output.lock().unwrap().clone();
    (ok, out)
}

/// The records a run reads: all of them when malformed ones are skipped, else those before
/// the first error; and whether the run should succeed.
fn expected_records(read: &Read, skip: bool) -> (Vec<&DealRecord>, bool) {
    let mut records = Vec::new();
    for item in &read.items {
        match item {
            Ok(record) => records.push(record),
            Err(_) if skip => {}
            Err(_) => return (records, false),
        }
    }
    (records, read.fatal.is_none())
}

fn seat_letter(seat: dealer::cards::Seat) -> &'static str {
    ["N", "E", "S", "W"][seat.index()]
}

fn vulnerability_name(v: Vulnerability) -> &'static str {
    match v {
        Vulnerability::None => "None",
        Vulnerability::NS => "NS",
        Vulnerability::EW => "EW",
        Vulnerability::All => "All",
    }
}

/// The session part: `data` through a session in a format and with a script picked by `pick`.
fn session_check(data: &[u8], pick: u32) {
    let format = FORMATS[(pick % 7) as usize];
    let skip = (pick >> 3) % 4 != 0;
    let script = ["action printoneline\n", "action printjson\n", "action printpbn\n", "action printlin\n"]
        [((pick >> 5) % 4) as usize];
    let Some(read) = read_all(data, format) else {
        // No format found: the run fails, writing nothing.
        let (ok, out) = session_run(data, format, skip, script);
        assert!(!ok && out.is_empty(), "a run on input of no format: ok {ok}, {} bytes written", out.len());
        return;
    };
    let (records, should_succeed) = expected_records(&read, skip);
    let (ok, out) = session_run(data, format, skip, script);
    assert_eq!(ok, should_succeed, "{script:?} {format:?} skip {skip}: the run's outcome");
    let text = String::from_utf8_lossy(&out);
    match script {
        "action printoneline\n" => {
            let mut expected = Vec::new();
            for record in &records {
                record.deal.write_oneline(&mut expected);
                expected.push(b'\n');
            }
            assert!(out == expected, "printoneline: the output is not the records' deals\n{text}");
        }
        "action printjson\n" => {
            let lines: Vec<&str> = text.lines().collect();
            assert_eq!(lines.len(), records.len(), "printjson: one line per record\n{text}");
            for (line, record) in lines.iter().zip(&records) {
                let value: serde_json::Value =
                    serde_json::from_str(line).unwrap_or_else(|e| panic!("printjson wrote no JSON ({e}): {line}"));
                assert_eq!(value["deal"].as_str(), Some(record.deal.pbn().as_str()), "{line}");
                if let Some(n) = record.board.number {
                    assert_eq!(value["board"].as_i64(), Some(n), "{line}");
                }
                if let Some(d) = record.board.dealer {
                    assert_eq!(value["dealer"].as_str(), Some(seat_letter(d)), "{line}");
                }
                if let Some(v) = record.board.vulnerability {
                    assert_eq!(value["vulnerable"].as_str(), Some(vulnerability_name(v)), "{line}");
                }
                for (name, tag) in &record.board.tags {
                    // A tag the record repeats is one key of the object (either value).
                    let once = record.board.tags.iter().filter(|(n, _)| n == name).count() == 1;
                    if let (true, Some(written)) = (once, value["tags"].get(name)) {
                        assert_eq!(written.as_str(), Some(tag.as_str()), "the tag {name}: {line}");
                    }
                }
            }
        }
        _ => {
            let format = if script == "action printpbn\n" { InputFormat::Pbn } else { InputFormat::Lin };
            let back = read_all(&out, Some(format)).expect("a named format opens");
            let errors: Vec<_> = back.items.iter().filter_map(|i| i.as_ref().err()).collect();
            assert!(
                errors.is_empty() && back.fatal.is_none(),
                "{script:?}: our own output does not read back: {:?} {:?}\n{text}",
                errors.first(),
                back.fatal
            );
            let again: Vec<&DealRecord> = back.records().collect();
            assert_eq!(again.len(), records.len(), "{script:?}: records read back\n{text}");
            for (theirs, ours) in again.iter().zip(&records) {
                assert_eq!(theirs.deal, ours.deal, "{script:?}: a deal read back\n{text}");
                if let Some(n) = ours.board.number {
                    assert_eq!(theirs.board.number, Some(n), "{script:?}: a board number read back\n{text}");
                }
                if let Some(d) = ours.board.dealer {
                    assert_eq!(theirs.board.dealer, Some(d), "{script:?}: a dealer read back\n{text}");
                }
                if let Some(v) = ours.board.vulnerability {
                    assert_eq!(theirs.board.vulnerability, Some(v), "{script:?}: a vulnerability read back\n{text}");
                }
            }
        }
    }
}

/// `data` through a session in every format (and found), skipping malformed records and not,
/// with every script: the regression tests' thorough replay of an input (56 runs).
#[allow(dead_code)] // the fuzz target calls `run` only
pub fn run_every_session(data: &[u8]) {
    for format in 0..7 {
        for skip in [0, 1] {
            for script in 0..4 {
                session_check(data, format | (skip << 3) | (script << 5));
            }
        }
    }
}

/// Reads `data` in every format and, for one input in two, through a session; panics on a bug.
pub fn run(data: &[u8]) {
    let hash = data.iter().fold(0u32, |h, &b| h.wrapping_mul(31).wrapping_add(u32::from(b)));
    for format in FORMATS {
        let first = read_all(data, format);
        if format.is_none() {
            // Deterministic: the found format, named, reads the same records.
            if let Some(first) = first {
                let again = read_all(data, first.format).expect("a named format opens");
                assert_eq!(first.items, again.items, "found and named {:?} read differently", first.format);
                assert_eq!(first.fatal, again.fatal);
            }
        }
    }
    if hash & 1 == 0 {
        session_check(data, hash >> 1);
    }
}
