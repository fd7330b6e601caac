//! Bad input costs time linear in its size: a script holding a 10 MB unknown name, string
//! literal, unterminated comment (`#` or `/* */`) or number is refused with its clear error in about the time a
//! valid script of the same size and the same kind of token takes to load (not minutes, as the
//! "did you mean" search once took for a long unknown name).
//!
//! Each bad script is timed against a valid twin of the same size in the same process (the
//! fastest of up to [`REPETITIONS`] loads each, so that a busy machine does not fail the test):
//! the bad one may take at most [`FACTOR`] times as long, plus [`SLACK`].

use std::time::{Duration, Instant};

use dealer::{Error, Session};

/// Bytes of the long token in each script.
const SIZE: usize = 10_000_000;

/// How many times longer than its valid twin a bad script may take to load.
const FACTOR: u32 = 4;

/// Time a bad script may take beyond [`FACTOR`] times its twin's.
const SLACK: Duration = Duration::from_millis(200);

/// Loads of each script, of which the fastest counts.
const REPETITIONS: usize = 3;

/// A script with a long token that a session must refuse, and a valid one of the same size.
struct Case {
    /// What the long token is, for failure messages.
    what: &'static str,
    /// The script refused.
    bad: String,
    /// A valid script with a token of the same kind and length.
    valid: String,
    /// The error's one-line form (`line N: message`).
    error: &'static str,
    /// How its full form ([`Error::describe`]) starts.
    explanation: &'static str,
}

/// The kinds of long tokens.
fn cases() -> Vec<Case> {
    let name = "a".repeat(SIZE);
    let text = "s".repeat(SIZE);
    let zeros = "0".repeat(SIZE - 8);
    vec![
        Case {
            what: "unknown name",
            bad: format!("condition {name} > 1\n"),
            valid: format!("{name} = 1\ncondition hcp(north) > 1\n"),
            error: "line 1: unknown variable",
            explanation: "line 1, column 11: unknown variable 'aaaa",
        },
        Case {
            what: "string",
            bad: format!("condition \"{text}\"\n"),
            valid: format!("condition hcp(north) > 1\naction printes(\"{text}\")\n"),
            error: "line 1: syntax error",
            explanation: "line 1, column 11: syntax error near '\"ssss",
        },
        Case {
            what: "# comment",
            // Without its line end, `#` is a stray character.
            bad: format!("condition hcp(north) > 1\n# {text}"),
            valid: format!("# {text}\ncondition hcp(north) > 1\n"),
            error: "line 2: syntax error",
            explanation: "line 2, column 1: syntax error near '#'",
        },
        Case {
            what: "/* comment */",
            bad: format!("condition hcp(north) > 1\n/* {text}\n"),
            valid: format!("condition hcp(north) > 1\n/* {text} */\n"),
            error: "line 3: EOF found in comment",
            explanation: "line 3, column 1: EOF found in comment",
        },
        Case {
            what: "number",
            // Leading zeros do not count: the upper bound is 20,000,000, too many values.
            bad: format!("action frequency (hcp(north), 0, {zeros}20000000)\n"),
            valid: format!("action frequency (hcp(north), 0, {zeros}00000040)\n"),
            error: "line 1: frequency range too large (at most 10000000 values)",
            explanation: "line 1, column 8: frequency range too large",
        },
    ]
}

/// Loads `script` into a new session and describes the error in full; the result and the time
/// it took.
fn load(script: &str) -> (Result<(), Error>, Duration) {
    let started = Instant::now();
    let mut session = Session::new();
    let result = session.load_script(script.as_bytes());
    if let Err(error) = &result {
        std::hint::black_box(error.describe());
    }
    (result, started.elapsed())
}

/// The fastest of up to [`REPETITIONS`] loads of `script`, with the result of the last: the
/// loads stop early at one that takes no longer than `enough`.
fn fastest_load(script: &str, enough: Duration) -> (Result<(), Error>, Duration) {
    let mut fastest = Duration::MAX;
    let mut result = Ok(());
    for _ in 0..REPETITIONS {
        let (outcome, time) = load(script);
        fastest = fastest.min(time);
        result = outcome;
        if fastest <= enough {
            break;
        }
    }
    (result, fastest)
}

#[test]
fn bad_input_costs_time_linear_in_its_size() {
    // One test, so that no other test of this file runs beside the timings.
    for case in cases() {
        let (valid, valid_time) = fastest_load(&case.valid, Duration::ZERO);
        assert!(valid.is_ok(), "{}: the valid twin fails: {:?}", case.what, valid.err().map(|e| e.to_string()));
        let allowed = valid_time * FACTOR + SLACK;
        let (bad, bad_time) = fastest_load(&case.bad, allowed);
        let error = bad.expect_err(case.what);
        assert_eq!(error.to_string(), case.error, "{}", case.what);
        let explained = error.describe();
        assert!(
            explained.starts_with(case.explanation),
            "{}: {:?}",
            case.what,
            explained.chars().take(100).collect::<String>()
        );
        eprintln!("{}: the valid twin loads in {valid_time:?}, the bad script in {bad_time:?}", case.what);
        assert!(
            bad_time <= allowed,
            "{}: {bad_time:?} to refuse, more than {allowed:?} ({FACTOR} × the valid twin's {valid_time:?} + {SLACK:?})",
            case.what
        );
    }
}
