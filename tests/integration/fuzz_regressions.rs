//! Every input the fuzzers ever found failing (a panic, a crash, a hang or a runaway
//! allocation), replayed through the same harness as the fuzz target, so that the bug stays
//! fixed. Inputs live in `tests/fuzz-regressions/<target>/`; see `fuzz/README.md`.

use std::path::Path;
use std::sync::mpsc;
use std::time::Duration;

use crate::{capi, records, script, sessions};

/// Time an input may take: the `script` fuzzer's `-timeout` (the others allow 30 s; their
/// regression inputs must still finish within this).
const LIMIT: Duration = Duration::from_secs(10);

/// Replays every input of `tests/fuzz-regressions/<target>` through `harness`, each within
/// [`LIMIT`] and without a panic.
fn replay(target: &str, harness: fn(&[u8])) {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz-regressions").join(target);
    let mut inputs: Vec<_> = std::fs::read_dir(&folder).unwrap().map(|entry| entry.unwrap().path()).collect();
    inputs.sort();
    assert!(!inputs.is_empty(), "no inputs in {}", folder.display());
    for input in inputs {
        let data = std::fs::read(&input).unwrap();
        let (done, finished) = mpsc::channel();
        std::thread::spawn(move || {
            let outcome = std::panic::catch_unwind(|| harness(&data));
            let _ = done.send(outcome.is_ok());
        });
        match finished.recv_timeout(LIMIT) {
            Ok(true) => {}
            Ok(false) => panic!("{}: the harness panicked", input.display()),
            Err(_) => panic!("{}: still running after {LIMIT:?}", input.display()),
        }
    }
}

#[test]
fn script_inputs_found_by_the_fuzzer_run_cleanly() {
    replay("script", script::run);
}

#[test]
fn capi_inputs_found_by_the_fuzzer_run_cleanly() {
    replay("capi", capi::run);
}

#[test]
fn sessions_inputs_found_by_the_fuzzer_run_cleanly() {
    replay("sessions", sessions::run);
}

#[test]
fn records_inputs_found_by_the_fuzzer_run_cleanly() {
    replay("records", records::run);
}

/// The records inputs again, each through a session in every format and with every script of
/// the harness (the fuzz target picks one by the input's hash).
#[test]
fn records_inputs_read_by_every_session_script() {
    replay("records", records::run_every_session);
}
