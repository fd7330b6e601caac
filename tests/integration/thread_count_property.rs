//! Property test of the threads contract (`dealer_set_threads` in include/dealer.h, "Threads:
//! -R" in docs/src/reference/generators.md): "the deals, the output and the statistics never
//! depend on the number of threads", for every generator, double dummy (dealt ahead and solved in
//! batches) included. Random valid scripts, drawn from a small grammar of conditions and actions,
//! run through `Session` with 1 to 8 threads must print byte-identical output (the footer's
//! `Time needed` line aside) and report the same counts.
//!
//! `THREADS_PROPERTY_CASES` sets the number of scripts (50 by default, the form `make rust-test`
//! runs); `THREADS_PROPERTY_DD` the number of double-dummy scripts (produce 2) added to those (0
//! by default); `THREADS_PROPERTY_SEED` the first script's number (each case's script, seed,
//! generator and dialect come from its number alone, so a failure names what to run again).
//! `THREADS_PROPERTY_SHOW=N` prints case N's script and its 1-thread output.
//! `make threads-property` runs the long form: 500 scripts and 20 double-dummy ones.

use std::sync::{Arc, Mutex};
use std::time::Instant;

use dealer::{Session, Sink, Stream};

/// The thread counts compared, the first being the reference.
const THREAD_COUNTS: std::ops::RangeInclusive<usize> = 1..=8;

/// SplitMix64: a small generator of the test's own choices, so that a case is its number.
struct Choices(u64);

impl Choices {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number from `low` to `high`, both included.
    fn between(&mut self, low: i64, high: i64) -> i64 {
        low + (self.next() % (high - low + 1) as u64) as i64
    }

    /// True with probability `percent` / 100.
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[(self.next() % items.len() as u64) as usize]
    }
}

const SEATS: &[&str] = &["north", "east", "south", "west"];
const SUITS: &[&str] = &["spades", "hearts", "diamonds", "clubs"];
const SHAPES: &[&str] = &[
    "any 4333 + any 4432 + any 5332",
    "any 5431 + any 5422",
    "5xxx + x5xx",
    "any 6xxx",
    "xx4x + xxx4",
    "any 4441 - 4144",
];
/// A few partial hands for `predeal` lines (no card in two of them).
const PREDEALS: &[&str] =
    &["predeal north SAK, HQ\n", "predeal south S5432, D2\n", "predeal west CAKQJ\n", "predeal east H7, DA\n"];

/// One condition term: hcp, a suit length, a shape, losers or controls of a seat.
fn atom(c: &mut Choices) -> String {
    let seat = c.pick(SEATS);
    match c.between(0, 5) {
        0 => format!("hcp({seat}) >= {}", c.between(6, 18)),
        1 => format!("hcp({seat}) <= {}", c.between(6, 14)),
        2 => format!("{}({seat}) >= {}", c.pick(SUITS), c.between(3, 6)),
        3 => format!("shape({seat}, {})", c.pick(SHAPES)),
        4 => format!("losers({seat}) <= {}", c.between(5, 9)),
        _ => format!("controls({seat}) >= {}", c.between(2, 6)),
    }
}

/// A condition of up to `depth` levels of and / or / not over atoms, in both spellings.
fn condition(c: &mut Choices, depth: u32) -> String {
    if depth == 0 || c.chance(35) {
        return atom(c);
    }
    match c.between(0, 4) {
        0 | 1 => format!("({} {} {})", condition(c, depth - 1), c.pick(&["&&", "and"]), condition(c, depth - 1)),
        2 | 3 => format!("({} {} {})", condition(c, depth - 1), c.pick(&["||", "or"]), condition(c, depth - 1)),
        _ => format!("{}({})", c.pick(&["!", "not "]), condition(c, depth - 1)),
    }
}

/// One action; `csvrpt` only in DealerV2's dialect, where it is a word.
fn action(c: &mut Choices, v2: bool) -> String {
    let seat = c.pick(SEATS);
    match c.between(0, if v2 { 5 } else { 4 }) {
        0 => "printoneline".to_string(),
        1 => "printall".to_string(),
        2 => format!("average \"hcp {seat}\" hcp({seat})"),
        3 => format!("frequency \"{0} {seat}\" ({0}({seat}), 0, 13)", c.pick(SUITS)),
        4 => "printpbn".to_string(),
        _ => format!("csvrpt(deal, hcp({seat}), {}({seat}))", c.pick(SUITS)),
    }
}

/// A case: the script and the session's options (generator, dialect, seed, PBN date).
struct Case {
    script: String,
    options: Vec<(&'static str, String)>,
}

impl std::fmt::Display for Case {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let options: Vec<String> = self.options.iter().map(|(k, v)| format!("{k}={v}")).collect();
        write!(f, "options {}\n--- script ---\n{}--------------", options.join(" "), self.script)
    }
}

/// The case numbered `number`: a random valid script; `double_dummy` adds a double-dummy
/// condition or report item and produces 2 deals.
fn case(number: u64, double_dummy: bool) -> Case {
    let mut c = Choices(number ^ if double_dummy { 0xDD00_0000 } else { 0 });
    let generator = c.pick(&["chacha", "chacha", "drand48", "glibc"]);
    // Classic dealer's pack goes with its dialect (`--rng=glibc` selects it).
    let v2 = generator != "glibc" && c.chance(70);
    let mut script = String::new();
    if c.chance(25) {
        script.push_str(c.pick(PREDEALS));
    }
    let mut condition_text = condition(&mut c, 3);
    // Often a rarer condition, so that the workers judge many deals for each one produced.
    if c.chance(50) {
        condition_text = format!("{condition_text} && {}", atom(&mut c));
    }
    let mut actions: Vec<String> = (0..c.between(1, 3)).map(|_| action(&mut c, v2)).collect();
    // Statistics alone print nothing per deal: then more deals.
    let statistics_only = actions.iter().all(|a| a.starts_with("average") || a.starts_with("frequency"));
    let produce = match (double_dummy, statistics_only) {
        (true, _) => 2,
        (false, true) => c.between(1, 300),
        (false, false) => c.between(1, 8),
    };
    // Double dummy: few deals, each solve taking about 10 to 50 ms, on each of 8 thread counts.
    let generate = if double_dummy { c.between(10, 40) } else { c.between(200, 20000) };
    script.push_str(&format!("generate {generate}\nproduce {produce}\n"));
    if double_dummy {
        let seat = c.pick(SEATS);
        let strain = c.pick(&["notrump", "spades", "hearts", "diamonds", "clubs"]);
        if c.chance(50) {
            condition_text = format!("hcp({seat}) >= 12 && tricks({seat}, {strain}) >= {}", c.between(5, 9));
        } else {
            actions.push(format!("printes(\"dd \", tricks({seat}, {strain}), \"\\n\")"));
        }
    }
    script.push_str(&format!("condition {condition_text}\naction {}\n", actions.join(", ")));
    let mut options = vec![
        ("generator", generator.to_string()),
        ("dialect", if v2 { "v2" } else { "classic" }.to_string()),
        ("seed", c.between(1, 1_000_000).to_string()),
    ];
    if script.contains("printpbn") {
        options.push(("pbn_date", "2026.05.17".to_string()));
    }
    if double_dummy {
        // The smallest solver tables: 8 threads each have their own.
        options.push(("dds_table_mb", "16".to_string()));
    }
    Case { script, options }
}

/// What one run gave: its output with the time line masked, its diagnostics, and its report or
/// error, written out.
#[derive(PartialEq)]
struct Outcome {
    output: String,
    diagnostics: String,
    result: String,
}

/// A sink that keeps what is written, shared with the caller.
fn keeper() -> (Arc<Mutex<Vec<u8>>>, Sink) {
    let kept = Arc::new(Mutex::new(Vec::new()));
    let writer = kept.clone();
    let sink = Sink::Callback(Box::new(move |bytes: &[u8]| {
        writer.lock().unwrap().extend_from_slice(bytes);
        Ok(())
    }));
    (kept, sink)
}

/// The footer's `Time needed` line is the only one that may differ between runs.
fn mask_time(text: &str) -> String {
    text.lines()
        .map(|line| if line.starts_with("Time needed") { "Time needed (masked)" } else { line })
        .collect::<Vec<_>>()
        .join("\n")
}

fn run(case: &Case, threads: usize) -> Outcome {
    let mut session = Session::new();
    for (key, value) in &case.options {
        session.set_option(key, value).unwrap_or_else(|e| panic!("option {key}={value}: {e}"));
    }
    session.set_option("threads", &threads.to_string()).expect("threads");
    let (output, output_sink) = keeper();
    let (diagnostics, diagnostics_sink) = keeper();
    session.set_sink(Stream::Output, Some(output_sink));
    session.set_sink(Stream::Diagnostics, Some(diagnostics_sink));
    session.load_script(case.script.as_bytes()).unwrap_or_else(|e| panic!("invalid generated script: {e}\n{case}"));
    let result = match session.run() {
        Ok(report) => format!("generated {} produced {} seed {}", report.generated, report.produced, report.seed),
        Err(e) => format!("error {e}"),
    };
    let text = |kept: &Arc<Mutex<Vec<u8>>>| String::from_utf8_lossy(&kept.lock().unwrap()).into_owned();
    Outcome { output: mask_time(&text(&output)), diagnostics: text(&diagnostics), result }
}

/// The first line where two texts differ, with its number.
fn first_difference(a: &str, b: &str) -> String {
    let (mut la, mut lb) = (a.lines(), b.lines());
    for number in 1.. {
        match (la.next(), lb.next()) {
            (Some(x), Some(y)) if x == y => continue,
            (None, None) => return "no line differs (a final new line does)".to_string(),
            (x, y) => {
                return format!(
                    "line {number}:\n  1 thread: {}\n  other:    {}",
                    x.unwrap_or("(end)"),
                    y.unwrap_or("(end)")
                )
            }
        }
    }
    unreachable!()
}

/// Runs `case` with every thread count and returns the differences from the 1-thread run.
fn check(number: u64, case: &Case) -> Vec<String> {
    let reference = run(case, *THREAD_COUNTS.start());
    let mut failures = Vec::new();
    // Every run prints at least its statistics: an empty output means the run did nothing.
    if reference.output.is_empty() {
        failures.push(format!("case {number}: no output ({})\n{case}", reference.result));
    }
    for threads in THREAD_COUNTS.skip(1) {
        let other = run(case, threads);
        if other != reference {
            let what = if other.output != reference.output {
                first_difference(&reference.output, &other.output)
            } else if other.diagnostics != reference.diagnostics {
                first_difference(&reference.diagnostics, &other.diagnostics)
            } else {
                format!("1 thread: {}\n  other:    {}", reference.result, other.result)
            };
            failures.push(format!("case {number}, {threads} threads differ from 1 thread at {what}\n{case}"));
        }
    }
    failures
}

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .map(|v| v.parse().unwrap_or_else(|_| panic!("{name}: not a number: {v}")))
        .unwrap_or(default)
}

#[test]
fn thread_counts_one_to_eight_print_the_same() {
    let cases = env_number("THREADS_PROPERTY_CASES", 50);
    let dd_cases = env_number("THREADS_PROPERTY_DD", 0);
    let first = env_number("THREADS_PROPERTY_SEED", 1);
    let start = Instant::now();
    let mut failures = Vec::new();
    if let Ok(number) = std::env::var("THREADS_PROPERTY_SHOW") {
        let number: u64 = number.parse().expect("THREADS_PROPERTY_SHOW: a case number");
        let case = case(number, dd_cases > 0);
        let outcome = run(&case, 1);
        eprintln!("{case}\n{}{}\n{}", outcome.output, outcome.diagnostics, outcome.result);
    }
    let all = (first..first + cases).map(|n| (n, false)).chain((first..first + dd_cases).map(|n| (n, true)));
    for (done, (number, double_dummy)) in all.enumerate() {
        let case = case(number, double_dummy);
        failures.extend(check(number, &case));
        // Progress for the long form (`cargo test -- --nocapture` shows it).
        if (done + 1) % 100 == 0 || double_dummy {
            eprintln!("{} cases done in {:.1} s", done + 1, start.elapsed().as_secs_f64());
        }
    }
    eprintln!(
        "thread counts {:?}: {} scripts and {} double-dummy scripts in {:.1} s, {} differences",
        THREAD_COUNTS,
        cases,
        dd_cases,
        start.elapsed().as_secs_f64(),
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
