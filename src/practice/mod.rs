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
//! scenarios in one board set), [`stream_dealing`] (where the streams of deals they need are
//! dealt: here, or in parts), and [`PracticeRun`] (which run the session's options ask for).

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
pub mod stream_dealing;
pub mod write_leveled;

use crate::error::{Error, ErrorKind, Result};
use crate::job::{RunReport, Session};
use crate::practice::stream_dealing::{DealtHere, StreamDealing};

/// The run a session's options ask of its loaded script.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PracticeRun {
    /// No practice set: the script's own job ([`Session::run`]).
    Plain,
    /// `--write-leveled`: the levelled script written to this file.
    WriteLeveled(String),
    /// The scenarios added for a mix, in one board set.
    Mix,
    /// `--level`: each hand type dealt in its quota.
    Level,
    /// The scenario dealt as it stands, its deals classified by hand type: interleaved
    /// (`--interleave`) or as produced (for the JSON summary's counts).
    ByType {
        /// Whether the boards are interleaved by type.
        interleave: bool,
    },
}

impl PracticeRun {
    /// The run `session`'s options ask for: the scenarios added for a mix make a mixed board
    /// set, `--write-leveled` writes the levelled script, `--level` deals each hand type in its
    /// quota, `--interleave` orders the produced deals by hand type and `--json-summary` counts
    /// them (a script without hand types runs as it stands), otherwise the plain run.
    pub fn of(session: &Session) -> Result<PracticeRun> {
        if session.options().input.is_some() {
            // Records read from a file are a set already: no practice run reshapes them.
            let levelling = &session.options().levelling;
            let practice = if !session.mix_scenarios().is_empty() {
                Some("scenarios to mix")
            } else if levelling.write_leveled.is_some() || levelling.level || levelling.interleave {
                Some("write_leveled, level and interleave")
            } else {
                None
            };
            if let Some(what) = practice {
                return Err(Error::new(ErrorKind::Option, format!("option input is not available with {what}")));
            }
            return Ok(PracticeRun::Plain);
        }
        if !session.mix_scenarios().is_empty() {
            return Ok(PracticeRun::Mix);
        }
        let levelling = &session.options().levelling;
        if let Some(path) = levelling.write_leveled.clone() {
            return Ok(PracticeRun::WriteLeveled(path));
        }
        if levelling.level {
            return Ok(PracticeRun::Level);
        }
        // A script with hand types is classified deal by deal when its boards are to be
        // interleaved, or counted by type in the JSON summary (a plain run whose hand types
        // cannot be read, a `LevelType_` one say, runs as it stands).
        if levelling.interleave {
            if scenario::declares_hand_types(session)? {
                return Ok(PracticeRun::ByType { interleave: true });
            }
        } else if session.options().json_summary && matches!(scenario::declares_hand_types(session), Ok(true)) {
            return Ok(PracticeRun::ByType { interleave: false });
        }
        Ok(PracticeRun::Plain)
    }

    /// Runs this run of a practice set (a mix, a levelled set, a classified run) with its
    /// streams dealt by `dealing`; `None` for the plain run and `--write-leveled`, which deal
    /// no streams.
    pub fn deal_with(&self, session: &mut Session, dealing: &mut dyn StreamDealing) -> Option<Result<RunReport>> {
        match self {
            PracticeRun::Mix => Some(mix::mix(session, dealing)),
            PracticeRun::Level => Some(level_run::level(session, dealing)),
            PracticeRun::ByType { interleave } => Some(level_run::by_type(session, *interleave, dealing)),
            PracticeRun::Plain | PracticeRun::WriteLeveled(_) => None,
        }
    }
}

/// Runs the job of `session`'s loaded script as its options ask (see [`PracticeRun::of`]),
/// in this process.
pub fn run(session: &mut Session) -> Result<RunReport> {
    let practice = PracticeRun::of(session)?;
    let mut here = DealtHere { interrupter: session.interrupter() };
    if let Some(result) = practice.deal_with(session, &mut here) {
        return result;
    }
    match practice {
        PracticeRun::WriteLeveled(path) => write_leveled::write_leveled(session, &path),
        _ => session.run(),
    }
}
