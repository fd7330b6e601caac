//! Unit tests of the C ABI as a whole: the generated header against the option keys (the book's
//! C API pages are made from the header, so they list them too) and Rust doc markup, the layout of `dealer_hand_stats`, the panic boundary and the
//! version constants. They test; they define nothing the library uses.

use std::ffi::CStr;

use crate::job::{Session, OPTION_KEYS};

use super::boundary::with_session;
use super::*;

/// The generated header, as the build wrote it from the doc comments of src/ffi/.
const HEADER: &str = include_str!("../../include/dealer.h");

/// The `//` comment right above the declaration of `function` in the header, line by line
/// without the `//`.
fn header_comment(function: &str) -> Vec<&'static str> {
    let lines: Vec<&str> = HEADER.lines().collect();
    let declaration = format!(" {function}(");
    let at = lines
        .iter()
        .position(|l| !l.starts_with("//") && l.contains(&declaration))
        .unwrap_or_else(|| panic!("{function} is not declared in include/dealer.h"));
    let start = lines[..at].iter().rposition(|l| !l.starts_with("//")).map_or(0, |i| i + 1);
    lines[start..at].iter().map(|l| l.trim_start_matches("//").trim()).collect()
}

/// The keys a comment lists: in each line that starts a list item (`- `), every `key` before
/// the first colon.
fn listed_keys(comment: &[&str]) -> Vec<String> {
    let mut keys = Vec::new();
    for item in comment.iter().filter_map(|l| l.strip_prefix("- ")) {
        let named = item.split_once(':').map_or(item, |(named, _)| named);
        keys.extend(named.split('`').skip(1).step_by(2).map(str::to_string));
    }
    keys
}

#[test]
fn header_lists_exactly_the_option_keys() {
    let listed = listed_keys(&header_comment("dealer_set_option"));
    for key in OPTION_KEYS {
        assert!(listed.iter().any(|k| k == key), "dealer_set_option's comment does not list `{key}`");
    }
    for (i, key) in listed.iter().enumerate() {
        assert!(OPTION_KEYS.contains(&key.as_str()), "dealer_set_option's comment lists `{key}`, not an option");
        assert!(!listed[..i].contains(key), "dealer_set_option's comment lists `{key}` twice");
        // And set_option takes it (a value may be refused, the key not).
        if let Err(e) = Session::new().set_option(key, "1") {
            assert!(!e.to_string().contains("unknown option"), "{key}: {e}");
        }
    }
}

#[test]
fn header_has_no_rust_doc_markup() {
    // Intra-doc links ([`X`], [`X`](path)), link targets and code fences mean nothing in C.
    for (n, line) in HEADER.lines().enumerate() {
        for markup in ["[`", "`]", "](", "```", "[Self::", "[crate::"] {
            assert!(!line.contains(markup), "include/dealer.h:{}: Rust doc markup {markup:?}: {line}", n + 1);
        }
    }
}

#[test]
fn hand_stats_are_laid_out_like_the_engine_s() {
    use crate::external::usereval::HandStats;
    use std::mem::offset_of;
    let ours = [
        offset_of!(dealer_hand_stats, seat),
        offset_of!(dealer_hand_stats, lengths),
        offset_of!(dealer_hand_stats, hcp),
        offset_of!(dealer_hand_stats, total_hcp),
        offset_of!(dealer_hand_stats, losers),
        offset_of!(dealer_hand_stats, total_losers),
        offset_of!(dealer_hand_stats, controls),
        offset_of!(dealer_hand_stats, total_controls),
        offset_of!(dealer_hand_stats, counts),
        offset_of!(dealer_hand_stats, total_counts),
        offset_of!(dealer_hand_stats, square_hand),
        offset_of!(dealer_hand_stats, ltc),
        offset_of!(dealer_hand_stats, total_ltc),
        offset_of!(dealer_hand_stats, top_cards),
        offset_of!(dealer_hand_stats, has_card),
    ];
    let engine = [
        offset_of!(HandStats, seat),
        offset_of!(HandStats, lengths),
        offset_of!(HandStats, hcp),
        offset_of!(HandStats, total_hcp),
        offset_of!(HandStats, losers),
        offset_of!(HandStats, total_losers),
        offset_of!(HandStats, controls),
        offset_of!(HandStats, total_controls),
        offset_of!(HandStats, counts),
        offset_of!(HandStats, total_counts),
        offset_of!(HandStats, square_hand),
        offset_of!(HandStats, ltc),
        offset_of!(HandStats, total_ltc),
        offset_of!(HandStats, top_cards),
        offset_of!(HandStats, has_card),
    ];
    assert_eq!(ours, engine);
    assert_eq!(std::mem::size_of::<dealer_hand_stats>(), std::mem::size_of::<HandStats>());
}

#[test]
fn a_panic_becomes_an_internal_error_with_its_message() {
    let mut session = std::ptr::null_mut();
    assert_eq!(dealer_create_session(&mut session), DEALER_OK);
    let status = with_session(session, |_| panic!("deliberate test panic"));
    assert_eq!(status, DEALER_ERROR_INTERNAL);
    // SAFETY: the session is valid and the message is NUL-terminated.
    let message = unsafe { CStr::from_ptr(dealer_last_error(session)) }.to_str().unwrap();
    assert_eq!(message, "internal error caught at the library boundary: deliberate test panic");
    // The session stays usable.
    assert_eq!(dealer_set_seed(session, 3), DEALER_OK);
    dealer_free_session(session);
}

#[test]
fn version_constants_follow_the_crate_version() {
    let parts: Vec<i32> = env!("CARGO_PKG_VERSION").split('.').map(|p| p.parse().unwrap()).collect();
    assert_eq!(parts, [super::DEALER_VERSION_MAJOR, super::DEALER_VERSION_MINOR, super::DEALER_VERSION_PATCH]);
}
