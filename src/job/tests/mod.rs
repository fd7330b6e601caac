//! Tests of whole sessions: runs, `next_deal` and `eval`, seeds, dealing threads, library and
//! record files, interruption and the ceilings, mostly through [`Session`]'s public API (the
//! tests of one module's own rules live in that module: option values in src/job/options.rs).
//! This file holds the helpers the parts share; each part is one concern.

use std::sync::{Arc, Mutex};
use std::time::Instant;

use crate::actions;
use crate::cards::{Card, Deal, Seat, SeatSet, Suit};
use crate::dialect::Dialect;
use crate::error::{ErrorKind, Result};
use crate::external::usereval::Metric;
use crate::job::options::DEFAULT_MAX_SCRIPT_BYTES;
use crate::job::session::MAX_CACHED_EXPRESSIONS;
use crate::job::{Ceiling, RunReport, Session, Sink, Stream};

mod ceilings_and_formats;
mod expressions;
#[cfg(feature = "dds")]
mod input;
mod leads;
mod lookahead;
mod outputs_and_threads;
mod precision;
mod runs;
mod safety;
mod scripts;
#[cfg(feature = "dds")]
mod thresholds;

/// A session whose output stream is captured; returns the session and the capture.
fn captured(options: &[(&str, &str)], script: &str) -> (Session, Arc<Mutex<Vec<u8>>>) {
    let mut s = Session::new();
    for (k, v) in options {
        s.set_option(k, v).unwrap();
    }
    s.load_script(script.as_bytes()).unwrap();
    let buffer = capture(&mut s, Stream::Output);
    (s, buffer)
}

/// Sends one stream of the session into a shared buffer.
fn capture(s: &mut Session, stream: Stream) -> Arc<Mutex<Vec<u8>>> {
    let buffer = Arc::new(Mutex::new(Vec::new()));
    let sink = buffer.clone();
    s.set_sink(
        stream,
        Some(Sink::Callback(Box::new(move |b: &[u8]| {
            sink.lock().unwrap().extend_from_slice(b);
            Ok(())
        }))),
    );
    buffer
}

fn text(buffer: &Arc<Mutex<Vec<u8>>>) -> String {
    String::from_utf8(buffer.lock().unwrap().clone()).unwrap()
}

/// A session with `untrusted` on and the options given, whose output stream is captured.
fn untrusted(options: &[(&str, &str)], script: &str) -> (Session, Arc<Mutex<Vec<u8>>>) {
    let mut all = vec![("untrusted", "true")];
    all.extend_from_slice(options);
    captured(&all, script)
}
