//! Practice sets: levelling a scenario's hand types (Dealer3's naming convention: variables
//! `HandType_NAME`, weights `HandType_NAME_Share`), exact quotas, interleaving, and mixing
//! scenarios into one board set. This stage composes jobs of the [`crate::job`] stage: it
//! deals through sessions and hands the deals it chose to the actions, in the order it chose.
//!
//! One concept per file: [`hand_types`] (the types a script declares and their weights),
//! [`stock_scenario`] (the script's text around its generated block) and [`condition_extent`]
//! (where its condition stands), [`scenario`] (a session's script read for practice),
//! [`natural_shares`] (counted or measured), [`keeps`] (the arithmetic of keeps and budget),
//! [`generated_block`] (the text written), [`write_leveled`] (`--write-leveled`), [`quotas`]
//! (exact quotas), [`refusal`] (the error a practice run refuses with), [`interleave`] (the
//! order boards are printed in), [`level_run`] (`--level` and `--interleave`), [`mix`] (several
//! scenarios in one board set), and [`run`] (which run the session's options ask for).

pub mod condition_extent;
pub mod generated_block;
pub mod hand_types;
pub mod interleave;
pub mod keeps;
pub mod level_run;
pub mod mix;
pub mod natural_shares;
pub mod quotas;
pub mod refusal;
pub mod scenario;
pub mod stock_scenario;
pub mod write_leveled;

use crate::error::Result;
use crate::job::{RunReport, Session};

/// Runs the job of `session`'s loaded script as its options ask: the scenarios added for a
/// mix make a mixed board set, `--write-leveled` writes the levelled script, `--level` deals
/// each hand type in its quota, `--interleave` orders the produced deals by hand type and
/// `--json-summary` counts them (a script without hand types runs as it stands), otherwise the
/// plain run ([`Session::run`]).
pub fn run(session: &mut Session) -> Result<RunReport> {
    if !session.mix_scenarios().is_empty() {
        return mix::mix(session);
    }
    let levelling = &session.options().levelling;
    if let Some(path) = levelling.write_leveled.clone() {
        return write_leveled::write_leveled(session, &path);
    }
    if levelling.level {
        return level_run::level(session);
    }
    // A script with hand types is classified deal by deal when its boards are to be
    // interleaved, or counted by type in the JSON summary (a plain run whose hand types cannot
    // be read, a `LevelType_` one say, runs as it stands).
    if levelling.interleave {
        if scenario::declares_hand_types(session)? {
            return level_run::by_type(session, true);
        }
    } else if session.options().json_summary && matches!(scenario::declares_hand_types(session), Ok(true)) {
        return level_run::by_type(session, false);
    }
    session.run()
}
