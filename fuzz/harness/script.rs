//! The `script` fuzz harness: arbitrary bytes as a dealer script, through the Rust API. Shared
//! by the fuzz target (`fuzz_targets/script.rs`) and the library's regression tests of the
//! inputs it found (`tests/integration/fuzz_regressions.rs`).
//!
//! Each input is loaded into a fresh [`Session`] in one dialect (classic or DealerV2, with a
//! generator and seed, all picked by a hash of the input so that a crash reproduces) and, when
//! it compiles, run with a small generate limit; one input in four is then also dealt from with
//! `next_deal` and probed with `eval`. Errors are fine (they must be `Err` values); a panic, abort, hang or
//! runaway allocation is a bug.
//!
//! The target never touches the filesystem and never starts a process:
//! - every output stream goes to a callback that discards the bytes (nothing reaches stdout);
//! - no file option (`csv_file`, `export_file`, `zrd_file`, `dl52_file`, `library_file`) is set,
//!   and a script cannot name a file itself;
//! - `usereval` is answered by an in-process metric, so no DealerServer is started (and no
//!   `/tmp/dealer_mmap_*` page file is written);
//! - a program that uses `opc()` (which runs DealerV2's external `dop`) is compiled but not run.
//!
//! Work per input is bounded: `threads` 1, generate at most 200 deals, and just 1 (and no
//! `next_deal`) when the compiled program needs double-dummy results (`dds`, `par`, `trix`,
//! `tricks`, `parcontract` …), since a solve takes tens of milliseconds; the classic
//! `time_limit` is 2 seconds.

use dealer::external::usereval::{Metric, Query, QueryContext, SLOTS};
use dealer::job::{Sink, Stream};
use dealer::program::{Node, Program};
use dealer::{Dialect, Session};

/// Deals generated per run for a program without double-dummy work.
const GENERATE: i64 = 200;
/// Deals generated per run when the program needs double-dummy results.
const GENERATE_DD: i64 = 1;

/// A `usereval` metric that answers from the query alone (deterministic, no process).
struct FakeMetric;

impl Metric for FakeMetric {
    fn evaluate(
        &mut self,
        query: &Query,
        _context: &QueryContext,
        slots: &mut [i32; SLOTS],
    ) -> dealer::error::Result<()> {
        for (i, slot) in slots.iter_mut().enumerate() {
            *slot = query.tag.wrapping_mul(31).wrapping_add(i as i32) % 41;
        }
        Ok(())
    }
}

fn discard() -> Option<Sink> {
    Some(Sink::Callback(Box::new(|_bytes: &[u8]| Ok(()))))
}

fn session(dialect: &str, generator: &str, seed: i64, generate: i64) -> Session {
    let mut s = Session::new();
    for stream in [Stream::Output, Stream::Diagnostics, Stream::Csv, Stream::Export] {
        s.set_sink(stream, discard());
    }
    s.set_in_process_metric(Some(Box::new(|| Box::new(FakeMetric) as Box<dyn Metric>)));
    for (key, value) in [
        ("dialect", dialect.to_string()),
        ("rng", generator.to_string()),
        ("seed", seed.to_string()),
        ("generate", generate.to_string()),
        ("threads", "1".to_string()),
        ("time_limit", "2".to_string()),
    ] {
        s.set_option(key, &value).expect("harness options are valid");
    }
    s
}

/// Loads `data` as a script and runs it as described in the module documentation; panics on a
/// bug (errors are fine).
pub fn run(data: &[u8]) {
    // Options derived from the input (deterministic, so that a crash reproduces).
    let hash = data.iter().fold(0u32, |h, &b| h.wrapping_mul(31).wrapping_add(u32::from(b)));
    let generator = ["chacha", "drand48", "glibc"][(hash % 3) as usize];
    let seed = i64::from(hash % 1000);
    let (dialect, name) = if hash & 0x10 == 0 { (Dialect::Classic, "classic") } else { (Dialect::V2, "v2") };
    let deal_by_deal = hash & 0x60 == 0;

    // The same compilation `load_script` does, to see what a run would need.
    let program = Program::from_source(data, dialect, &Default::default()).ok();
    let uses_opc = program.as_ref().is_some_and(|p| p.nodes.iter().any(|n| matches!(n, Node::Opc(..))));
    let needs_dd = program.as_ref().is_some_and(|p| {
        let use_ = p.dd_use();
        !use_.condition.is_empty() || !use_.actions.is_empty()
    });
    let generate = if needs_dd { GENERATE_DD } else { GENERATE };

    let mut s = session(name, generator, seed, generate);
    let loaded = s.load_script(data);
    assert_eq!(
        loaded.is_ok(),
        program.is_some(),
        "load_script and Program::from_source disagree: {:?}",
        loaded.err().map(|e| e.to_string())
    );
    if loaded.is_err() || uses_opc {
        return;
    }
    let _ = s.run();
    if !deal_by_deal || needs_dd {
        return;
    }
    // The deal-by-deal interface on the same session, and expressions on its deals.
    for _ in 0..2 {
        match s.next_deal() {
            Ok(Some(_)) => {
                let _ = s.eval("hcp(north) + spades(south) * 2");
                let _ = s.eval("shape(east, any 4333 + 5xxx)");
            }
            Ok(None) | Err(_) => break,
        }
    }
}
