//! Tests of dealing ahead for double dummy (src/job/lookahead.rs), counted by a provided DDS:
//! batches start at one deal per solving thread, so a run that produces a few deals solves few
//! in vain, and a batch stops being solved as soon as the run is interrupted or passes its time
//! ceiling.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::*;
use crate::dd::test_deals::CountingDds;
use crate::dd::DoubleDummy;

/// A condition every deal meets, known only once a double-dummy result is solved (exactly: in
/// arithmetic; `tricks(north, notrumps) >= 0` alone is answered without a solve).
const ALWAYS_SOLVED: &str = "condition tricks(north, notrumps) + 0 >= 0\naction printoneline\n";

/// A session on two threads whose DDS is `dds`, with the options given, its output captured.
fn counted(dds: &Arc<CountingDds>, options: &[(&str, &str)], script: &str) -> (Session, Arc<Mutex<Vec<u8>>>) {
    let mut all = vec![("seed", "5"), ("threads", "2")];
    all.extend_from_slice(options);
    let (mut s, out) = captured(&all, script);
    s.set_double_dummy(DoubleDummy::provided(dds.clone()));
    (s, out)
}

#[test]
fn a_run_producing_few_deals_solves_few_ahead() {
    for produce in [1, 2, 10] {
        let dds = Arc::new(CountingDds::default());
        let (mut s, out) = counted(&dds, &[("produce", &produce.to_string())], ALWAYS_SOLVED);
        assert_eq!(s.run().unwrap().produced, produce);
        let solves = dds.solves.load(Ordering::Relaxed);
        // Batches of 2, 4, 8, ... deals: at most twice what was needed, and one batch of two.
        assert!(solves >= produce as usize && solves <= (2 * produce as usize).max(2), "{produce}: {solves} solves");
        // The same deals as on one thread, which deals nothing ahead.
        let (mut alone, alone_out) =
            captured(&[("seed", "5"), ("threads", "1"), ("produce", &produce.to_string())], ALWAYS_SOLVED);
        alone.run().unwrap();
        let deals =
            |buffer| text(buffer).lines().filter(|l| l.starts_with("n ")).map(str::to_owned).collect::<Vec<_>>();
        assert_eq!(deals(&out), deals(&alone_out));
    }
}

#[test]
fn an_interruption_stops_the_batch_being_solved() {
    // Interrupted at the 40th solve, when batches have grown to 32 deals: each thread finishes
    // the solve it is in and takes no other.
    let (mut s, out) = captured(&[("seed", "5"), ("threads", "2"), ("produce", "1000")], ALWAYS_SOLVED);
    let interrupter = s.interrupter();
    let interrupt_at_40 = move |number| {
        if number == 40 {
            interrupter.interrupt();
        }
    };
    let dds = Arc::new(CountingDds { before_solve: Some(Box::new(interrupt_at_40)), ..Default::default() });
    s.set_double_dummy(DoubleDummy::provided(dds.clone()));
    let e = s.run().unwrap_err();
    assert_eq!(e.kind, ErrorKind::Interrupted);
    let solves = dds.solves.load(Ordering::Relaxed);
    assert!((40..=41).contains(&solves), "{solves} solves");
    assert!(text(&out).lines().all(|l| l.len() == 76 && l.starts_with("n ")));
}

#[test]
fn the_time_ceiling_stops_the_batch_being_solved() {
    // Every solve takes over 50 ms: a batch of 32 deals on two threads would take 0.8 s.
    let dds = Arc::new(CountingDds {
        before_solve: Some(Box::new(|_| std::thread::sleep(Duration::from_millis(50)))),
        ..Default::default()
    });
    let options = [("untrusted", "true"), ("max_seconds", "0.5"), ("max_generate", "0"), ("produce", "1000")];
    let (mut s, out) = counted(&dds, &options, ALWAYS_SOLVED);
    let started = Instant::now();
    let report = s.run().unwrap();
    let elapsed = started.elapsed().as_secs_f64();
    assert_eq!(report.ceiling, Some(Ceiling::Time));
    // Stopped within about one solve past the ceiling (a second of slack for a busy machine).
    assert!((0.5..1.5).contains(&elapsed), "{elapsed} s");
    let solves = dds.solves.load(Ordering::Relaxed);
    assert!(solves <= 2 * (500 / 50 + 2), "{solves} solves in {elapsed} s");
    assert!(text(&out).contains(&format!("Produced  {} hands\n", report.produced)));
}
