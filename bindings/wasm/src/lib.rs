//! libdealer in the browser: [`check`], [`generate`], [`hand_types`] and [`keywords`] over the
//! same core as the native library (`dealer` with default features off: no DDS linked in,
//! threads, files or external programs; a script that needs one of those stops with a "not available in this build"
//! error). Double dummy is solved by DDS compiled to a module of its own, which the JavaScript
//! side loads when [`needs_double_dummy`] says a job needs it and hands to [`generate`]
//! (`dds_module`).
//!
//! Results cross to JavaScript as JSON text (the JS wrapper in `pkg/` parses it), so this crate
//! needs nothing beyond wasm-bindgen and js-sys.

#![warn(missing_docs)]

use std::sync::{Arc, Mutex};

use dealer::actions::jsonl::write_json_string;
use dealer::job::{Sink, Stream};
use dealer::program::bbo_check::{check_bbo, Severity};
use dealer::dd::DoubleDummy;
use dealer::script::token::{self, Token};
use dealer::{Dialect, Error, Session};
use wasm_bindgen::prelude::*;

mod dds_module;

use dds_module::{DdsModule, ModuleDds};

/// A JSON string literal of `text` (the core's escaping, that of its JSON Lines records).
fn json_string(text: &str) -> String {
    let mut out = Vec::with_capacity(text.len() + 2);
    write_json_string(&mut out, text);
    String::from_utf8(out).expect("escaping keeps UTF-8")
}

/// One diagnostic as a JSON object: `message` as the peers word it, and `explanation` (or null)
/// when libdealer can say more (see [`Error::explanation`]).
fn diagnostic_json(line: u32, col: u32, severity: &str, source: &str, message: &str, explanation: Option<&str>) -> String {
    format!(
        "{{\"line\":{line},\"column\":{col},\"severity\":\"{severity}\",\"source\":\"{source}\",\"message\":{},\"explanation\":{}}}",
        json_string(message),
        explanation.map_or_else(|| "null".to_string(), json_string)
    )
}

/// An error as a diagnostic object (line and column 0 when it has none).
fn error_json(e: &Error) -> String {
    diagnostic_json(e.line.unwrap_or(0), e.col.unwrap_or(0), "error", "dealer", &e.message, e.explanation.as_deref())
}

/// A session with the given options set, in order (`options`: alternating keys and values),
/// solving double dummy with `dds` when given.
fn session_with(options: &[String], dds: Option<&DdsModule>) -> Result<Session, Error> {
    session_reading(options, dds, None)
}

/// [`session_with`], reading its deals from `input` (board records, see [`generate`]) when
/// given.
fn session_reading(options: &[String], dds: Option<&DdsModule>, input: Option<&[u8]>) -> Result<Session, Error> {
    let mut session = Session::new();
    if let Some(module) = dds {
        session.set_double_dummy(DoubleDummy::provided(Arc::new(ModuleDds(module.clone()))));
    }
    if input.is_some() {
        session.set_input_data(input);
    }
    for pair in options.chunks(2) {
        if let [key, value] = pair {
            session.set_option(key, value)?;
        }
    }
    Ok(session)
}

/// Checks a script without dealing: loads it as `dialect` (`classic`, `v2` or empty for the
/// generator's default) and, with `bbo`, also reads it as Bridge Base Online's dealer does.
/// Returns a JSON array of diagnostics `{line, column, severity, source, message, explanation}`
/// (`source`: `dealer` for libdealer's own error, `bbo` for the BBO check; `explanation`: what
/// libdealer says beyond the peers' `message`, or null). Cheap enough to
/// call on every keystroke.
#[wasm_bindgen]
pub fn check(script: &str, dialect: &str, bbo: bool) -> String {
    let mut found = Vec::new();
    let mut options = Vec::new();
    if !dialect.is_empty() {
        options.push("dialect".to_string());
        options.push(dialect.to_string());
    }
    match session_with(&options, None).and_then(|mut s| s.load_script(script.as_bytes())) {
        Ok(()) => {}
        Err(e) => found.push(error_json(&e)),
    }
    if bbo {
        for d in check_bbo(script.as_bytes()) {
            let severity = match d.severity {
                Severity::Warning => "warning",
                Severity::Error => "error",
            };
            found.push(diagnostic_json(d.line, d.col, severity, "bbo", &d.message, None));
        }
    }
    format!("[{}]", found.join(","))
}

/// Writes one stream's bytes to a buffer and, when given, to a JavaScript callback
/// `(stream, text)` (`stream`: 0 output, 1 diagnostics) as they come.
struct Forward {
    /// The callback, if any.
    callback: Option<js_sys::Function>,
    /// The stream's number for the callback.
    stream: u32,
    /// Everything written.
    buffer: Arc<Mutex<Vec<u8>>>,
}

// SAFETY: the WebAssembly build has no threads (the core's `threads` feature is off), so the
// JavaScript function is only ever called on the thread that created it.
unsafe impl Send for Forward {}

impl Forward {
    /// Appends `bytes` and hands them to the callback.
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.buffer.lock().map_err(|_| std::io::Error::other("poisoned"))?.extend_from_slice(bytes);
        if let Some(cb) = &self.callback {
            let text = JsValue::from_str(&String::from_utf8_lossy(bytes));
            cb.call2(&JsValue::NULL, &JsValue::from(self.stream), &text)
                .map_err(|_| std::io::Error::other("the output callback failed"))?;
        }
        Ok(())
    }
}

/// The seats' hands of a deal as a JSON object `{"N": "AKQ.xxx..", ...}` (PBN suit order).
fn deal_json(deal: &dealer::cards::Deal) -> String {
    let hands: Vec<String> = ["N", "E", "S", "W"]
        .iter()
        .zip(deal.0.iter())
        .map(|(seat, hand)| format!("\"{seat}\":{}", json_string(&hand.pbn())))
        .collect();
    format!("{{{}}}", hands.join(","))
}

/// Runs a script's whole job, as the native CLI does with the same options, and returns JSON:
/// `{ok, output, diagnostics, generated, produced, seed, deals, hand_types, summary, error}`
/// (`summary`: the run's JSON summary object, as `json_summary` prints it; null when it failed).
///
/// `options`: alternating option keys and values of the C API's `dealer_set_option` (`seed`,
/// `generator`, `dialect`, `produce`, `generate`, `format`, ...). `on_text`, if not null, is
/// called as output is written (`(stream, text)`; 0: output, 1: diagnostics such as the
/// progress meter). `deals`: how many of the produced deals to return as objects as well (dealt
/// again by a second session with the same options, which deals the same deals; at most as
/// many as the run produced). `dds`: the loaded DDS module, which double dummy needs (without
/// it such a script stops with "not available"). `input`: board records (PBN, LIN, one-line,
/// DL52, JSON Lines or ZRD bytes) the run reads its deals from instead of dealing them (the
/// core's `Session::set_input_data`; the options `input_format`, `verify_dd` and
/// `input_errors` say how), for the second session too.
#[wasm_bindgen]
pub fn generate(
    script: &str,
    options: Vec<String>,
    on_text: Option<js_sys::Function>,
    deals: u32,
    dds: Option<DdsModule>,
    input: Option<Vec<u8>>,
) -> String {
    let dds = dds.as_ref();
    let input = input.as_deref();
    let output = Arc::new(Mutex::new(Vec::new()));
    let diagnostics = Arc::new(Mutex::new(Vec::new()));
    let mut summary = String::new();
    let mut run = || -> Result<dealer::RunReport, Error> {
        let mut session = session_reading(&options, dds, input)?;
        for (stream, number, buffer) in [(Stream::Output, 0, &output), (Stream::Diagnostics, 1, &diagnostics)] {
            let mut forward = Forward { callback: on_text.clone(), stream: number, buffer: Arc::clone(buffer) };
            session.set_sink(stream, Some(Sink::Callback(Box::new(move |bytes: &[u8]| forward.write(bytes)))));
        }
        session.load_script(script.as_bytes())?;
        let report = dealer::practice::run(&mut session);
        summary = session.last_summary().to_string();
        report
    };
    let result = run();
    let mut dealt = Vec::new();
    // The second session looks for no more deals than the run produced: past them it would
    // deal on to the generate limit (the run's time limit does not bind it).
    let wanted = result.as_ref().map_or(0, |r| r.produced.clamp(0, i64::from(deals)) as usize);
    // A script with hand types is run once more as JSON Lines records by hand type (the same
    // deals, interleaved unless levelled): its boards count the types delivered, and a
    // practice run's deals are those boards, in order.
    let typed = result.is_ok().then(|| typed_boards(script, &options, dds, input)).flatten();
    let practice = options.chunks(2).any(|kv| matches!(kv, [k, v] if (k == "level" || k == "interleave") && v == "true"));
    if let (Some(boards), true) = (&typed, practice) {
        dealt = boards.iter().take(wanted).map(|(deal, _)| deal.clone()).collect();
    } else if wanted > 0 {
        if let Ok(mut again) = session_reading(&options, dds, input) {
            if again.load_script(script.as_bytes()).is_ok() {
                while dealt.len() < wanted {
                    match again.next_deal() {
                        Ok(Some(deal)) => dealt.push(deal_json(&deal)),
                        _ => break,
                    }
                }
            }
        }
    }
    let text = |b: &Arc<Mutex<Vec<u8>>>| {
        String::from_utf8_lossy(&b.lock().map(|v| v.clone()).unwrap_or_default()).into_owned()
    };
    let (ok, report, error) = match &result {
        Ok(r) => (
            true,
            format!("\"generated\":{},\"produced\":{},\"seed\":\"{}\"", r.generated, r.produced, r.seed),
            "null".to_string(),
        ),
        Err(e) => (false, "\"generated\":0,\"produced\":0,\"seed\":null".to_string(), error_json(e)),
    };
    let hand_types = match &typed {
        Some(boards) => {
            let mut counts: Vec<(String, u64)> = Vec::new();
            for (_, label) in boards {
                match counts.iter_mut().find(|(l, _)| l == label) {
                    Some((_, n)) => *n += 1,
                    None => counts.push((label.clone(), 1)),
                }
            }
            let rows: Vec<String> =
                counts.iter().map(|(l, n)| format!("{{\"label\":{},\"produced\":{n}}}", json_string(l))).collect();
            format!("[{}]", rows.join(","))
        }
        None => "null".to_string(),
    };
    // The run's JSON summary object (statistics with their intervals, lead tables), as is.
    let summary = if summary.is_empty() { "null".to_string() } else { summary };
    format!(
        "{{\"ok\":{ok},\"output\":{},\"diagnostics\":{},{report},\"deals\":[{}],\"hand_types\":{hand_types},\"summary\":{summary},\"error\":{error}}}",
        json_string(&text(&output)),
        json_string(&text(&diagnostics)),
        dealt.join(",")
    )
}

/// The boards of `script` run under `options` as JSON Lines records by hand type (interleaved
/// unless levelled; the deals read from `input` when given): each board's hands (as
/// [`deal_json`]) and hand type label (`""`: none). `None` when the script declares no hand
/// types or the run fails.
fn typed_boards(
    script: &str,
    options: &[String],
    dds: Option<&DdsModule>,
    input: Option<&[u8]>,
) -> Option<Vec<(String, String)>> {
    let mut options: Vec<String> = options.to_vec();
    options.extend(["format", "jsonl", "progress", "false", "interleave", "true"].map(String::from));
    let mut session = session_reading(&options, dds, input).ok()?;
    session.load_script(script.as_bytes()).ok()?;
    if !dealer::practice::scenario::declares_hand_types(&session).ok()? {
        return None;
    }
    let out = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&out);
    session.set_sink(
        Stream::Output,
        Some(Sink::Callback(Box::new(move |bytes: &[u8]| {
            sink.lock().map_err(|_| std::io::Error::other("poisoned"))?.extend_from_slice(bytes);
            Ok(())
        }))),
    );
    session.set_sink(Stream::Diagnostics, Some(Sink::Callback(Box::new(|_: &[u8]| Ok(())))));
    dealer::practice::run(&mut session).ok()?;
    let text = String::from_utf8(out.lock().ok()?.clone()).ok()?;
    let field = |line: &str, key: &str| -> Option<String> {
        let start = line.find(&format!("\"{key}\":\""))? + key.len() + 4;
        Some(line[start..].split('"').next()?.to_string())
    };
    Some(
        text.lines()
            .filter(|line| line.contains("\"type\":\"deal\""))
            .filter_map(|line| {
                let deal = dealer::cards::Deal::from_pbn(&field(line, "deal")?).ok()?;
                Some((deal_json(&deal), field(line, "hand_type").unwrap_or_default()))
            })
            .collect(),
    )
}

/// The hand types a script declares (Dealer3's `HandType_NAME` variables) and its levelling,
/// as `--write-leveled` works it out under `options` (alternating keys and values, as for
/// [`generate`]): JSON `{ok, exact, over, types: [{label, natural, target, mix, keep, seen}],
/// text, summary, error}` — the natural shares counted exactly where the condition and the
/// types read one seat, else measured (`level_measure` and `level_timeout` bound it), `text`
/// the levelled script and `summary` what the CLI prints about it.
#[wasm_bindgen]
pub fn hand_types(script: &str, options: Vec<String>) -> String {
    let levelled = session_with(&options, None).and_then(|mut session| {
        session.load_script(script.as_bytes())?;
        dealer::practice::write_leveled::levelled_script(&session)
    });
    match levelled {
        Ok(l) => {
            let exact = matches!(l.natural.source, dealer::practice::natural_shares::Source::Exact { .. });
            let number = |v: f64| if v.is_finite() { format!("{v}") } else { "null".to_string() };
            let rows: Vec<String> = l
                .labels
                .iter()
                .enumerate()
                .map(|(i, label)| {
                    format!(
                        "{{\"label\":{},\"natural\":{},\"target\":{},\"mix\":{},\"keep\":{},\"seen\":{}}}",
                        json_string(label),
                        number(l.natural.shares[i]),
                        number(l.keeps.target[i]),
                        number(l.keeps.mix[i]),
                        number(l.keeps.keep[i]),
                        l.natural.seen[i]
                    )
                })
                .collect();
            format!(
                "{{\"ok\":true,\"exact\":{exact},\"over\":{},\"types\":[{}],\"text\":{},\"summary\":{},\"error\":null}}",
                l.natural.over,
                rows.join(","),
                json_string(&String::from_utf8_lossy(&l.text)),
                json_string(&l.summary)
            )
        }
        Err(e) => format!(
            "{{\"ok\":false,\"exact\":false,\"over\":0,\"types\":[],\"text\":\"\",\"summary\":\"\",\"error\":{}}}",
            error_json(&e)
        ),
    }
}

/// Whether running `script` under `options` (as for [`generate`]) solves double dummy, so that
/// the DDS module must be loaded first; `false` when the script does not load (running it
/// reports the error).
#[wasm_bindgen]
pub fn needs_double_dummy(script: &str, options: Vec<String>) -> bool {
    session_with(&options, None)
        .and_then(|mut session| session.load_script(script.as_bytes()).map(|()| session))
        .is_ok_and(|session| session.needs_double_dummy())
}

/// The script language's keywords in `dialect` (`classic`, else DealerV2's set: `v2` or empty),
/// in the core's fixed order: the words an editor may treat as the language's own (a word
/// DealerV2 added is an identifier to classic dealer, so it is left out there).
#[wasm_bindgen]
pub fn keywords(dialect: &str) -> Vec<String> {
    let dialect = if dialect == "classic" { Dialect::Classic } else { Dialect::V2 };
    token::keywords().filter(|word| Token::keyword(word, dialect).is_some()).map(str::to_string).collect()
}

/// The library's version.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}
