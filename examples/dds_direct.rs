//! Benchmark helper: full double-dummy tables computed by calling DDS (through dds-bridge-sys)
//! directly, without libdealer, on the same deals as the library's benchmark run.
//!
//! Usage: `cargo run --release --example dds_direct -- THREADS < deals`, where each input line
//! starts with a deal as `printrpt(deal)` prints it (` n AKQ.JT9.876.5432 e … s … w … `); the rest
//! of a line is ignored. Each thread owns one solver context and takes deals from a shared
//! counter, configured as libdealer configures its own (large transposition table, 95 MB at
//! start, at most 160 MB; the environment variables DDS_TT_KIND, DDS_TT_DEFAULT_MB and
//! DDS_TT_MAXIMUM_MB override them for experiments). Prints
//! `dds-direct threads=T tables=N seconds=S tables_per_second=R`.

use std::io::Read;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use dds_bridge_sys as dds;

/// The deal of one input line in DDS's layout `[hand N..W][suit S, H, D, C]`, rank bit `r + 2`
/// for rank r (0 = deuce).
fn parse_deal(line: &str) -> Option<[[u32; 4]; 4]> {
    let words: Vec<&str> = line.split_whitespace().take(8).collect();
    let mut cards = [[0u32; 4]; 4];
    for (hand, pair) in words.chunks(2).enumerate() {
        if pair.len() != 2 || pair[0] != ["n", "e", "s", "w"][hand] {
            return None;
        }
        let holdings: Vec<&str> = pair[1].split('.').collect();
        if holdings.len() != 4 {
            return None;
        }
        for (suit, holding) in holdings.iter().enumerate() {
            for ch in holding.chars() {
                let rank = "23456789TJQKA".find(ch)?;
                cards[hand][suit] |= 1 << (rank + 2);
            }
        }
    }
    (words.len() == 8).then_some(cards)
}

fn main() {
    let threads: usize = std::env::args().nth(1).and_then(|t| t.parse().ok()).unwrap_or(1).max(1);
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).expect("deals on standard input");
    let deals: Vec<[[u32; 4]; 4]> = input.lines().filter_map(parse_deal).collect();
    let next = AtomicUsize::new(0);
    let started = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let env =
                    |key: &str, default: i32| std::env::var(key).ok().and_then(|v| v.parse().ok()).unwrap_or(default);
                let config = dds::DdsSolverConfig {
                    tt_kind: env("DDS_TT_KIND", dds::DDS_TT_KIND_LARGE as i32),
                    tt_mem_default_mb: env("DDS_TT_DEFAULT_MB", 95),
                    tt_mem_maximum_mb: env("DDS_TT_MAXIMUM_MB", 160),
                };
                // SAFETY: a valid config; the context is used by this thread only and freed below.
                let context = unsafe { dds::dds_solver_context_new(&config) };
                assert!(!context.is_null(), "DDS could not allocate a solver context");
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(cards) = deals.get(i) else { break };
                    let deal = dds::DdTableDeal { cards: *cards };
                    let mut table = dds::DdTableResults::default();
                    // SAFETY: valid input and output; the context belongs to this thread.
                    let code = unsafe { dds::dds_calc_dd_table(context, &deal, &mut table) };
                    assert_eq!(code, dds::RETURN_NO_FAULT, "DDS failed on deal {i}");
                }
                // SAFETY: created above, freed once.
                unsafe { dds::dds_solver_context_free(context) };
            });
        }
    });
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "dds-direct threads={threads} tables={} seconds={seconds:.3} tables_per_second={:.1}",
        deals.len(),
        deals.len() as f64 / seconds
    );
}
