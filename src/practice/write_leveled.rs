//! `--write-leveled FILE` (the `write_leveled` option): the loaded script's hand types and the
//! place of its block are read, the natural shares counted or measured, the keeps worked out
//! for the target mix (within the budget), and a copy of the script written with the generated
//! block and its `{{level-mix}}` markers filled; the summary goes to the diagnostics stream.
//! No deal is produced: the file is what the user runs, here or on BBO's or classic dealer.

use crate::error::{Error, ErrorKind, Result};
use crate::job::{RunReport, Session};
use crate::practice::generated_block::{fill_markers, Levelled};
use crate::practice::keeps::Keeps;
use crate::practice::natural_shares::{count_exactly, measure, NaturalShares, Source};
use crate::practice::refusal::refusal;
use crate::practice::scenario::Scenario;
use crate::program::Program;

/// What levelling a scenario worked out: the text of the levelled script and the summary.
pub struct LevelledScript {
    /// The script with the generated block and its markers filled.
    pub text: Vec<u8>,
    /// The warnings and the summary, for the diagnostics stream.
    pub summary: String,
    /// The natural shares, counted or measured.
    pub natural: NaturalShares,
    /// The hand types' labels, in declaration order.
    pub labels: Vec<String>,
    /// The keeps (with the target and the mix they deliver).
    pub keeps: Keeps,
}

/// Levels the scenario of `session`'s loaded script under its options.
pub fn levelled_script(session: &Session) -> Result<LevelledScript> {
    let options = session.options();
    let scenario = Scenario::read(session)?;
    let stock = scenario.stock()?;
    let types = &scenario.types;
    let labels = types.labels();
    let target = types.target(options.levelling.target.as_ref())?;
    let text = stock.with_placeholder();
    let program =
        Program::from_source(&text, options.dialect(), &options.script_vars).map_err(|e| e.with_source(&text))?;
    let mut summary = String::new();
    let interrupter = session.interrupter();
    let natural = match count_exactly(options, &interrupter, &program, &text, types)? {
        Some(exact) => exact,
        None => measure(options, &interrupter, &program, &text, types, &mut summary)?,
    };
    let scale = stock.roll_scale();
    let keeps = Keeps::new(&natural.shares, &target, natural.base_rate, options.levelling.budget, scale, &labels)?;
    let levelled = Levelled {
        types,
        natural: &natural,
        keeps: &keeps,
        scale,
        own_roll: stock.own_roll.is_some(),
        verdict: stock.verdict,
    };
    let text = fill_markers(&stock.with_block(&levelled.block_body()), &labels, &keeps.mix)?;
    summary += &levelled.summary();
    let labels = labels.iter().map(|l| l.to_string()).collect();
    Ok(LevelledScript { text, summary, natural, labels, keeps })
}

/// Runs `--write-leveled`: writes the levelled copy of the loaded script to `path` and the
/// summary to the diagnostics stream. The report counts the deals measuring dealt (none
/// produced).
pub fn write_leveled(session: &mut Session, path: &str) -> Result<RunReport> {
    if session.options().levelling.interleave && !session.options().levelling.level {
        return Err(refusal(
            "--interleave has nothing to order during --write-leveled: that run measures the\n       scenario as it \
             stands. Level it first, then run the generated file with --interleave.",
        ));
    }
    let levelled = levelled_script(session)?;
    std::fs::write(path, &levelled.text)
        .map_err(|e| Error::new(ErrorKind::Io, format!("could not write {path}: {e}")))?;
    session.write_diagnostics(format!("{}\nwrote {path}\n", levelled.summary).as_bytes());
    let (generated, seed) = match levelled.natural.source {
        Source::Measured { seed, generated } => (generated as i64, seed as u64),
        Source::Exact { .. } => (0, session.seed() as u64),
    };
    Ok(RunReport { generated, produced: 0, seed, timed_out: false, ceiling: None })
}
