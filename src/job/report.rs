//! The end-of-run report: what a finished run returns ([`RunReport`], with the [`Ceiling`] that
//! stopped it early) and the statistics dealing threads add up by chunk (`Statistics`). Holds
//! results only: it neither deals nor writes.

use std::sync::Arc;

use crate::actions::tally::Tally;
use crate::cards::Deal;
use crate::job::parallel::Summary;
use crate::program::tallied_values::TalliedValues;
use crate::program::Program;

/// The ceiling that stopped a run early (see [`RunReport::ceiling`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ceiling {
    /// The wall-time ceiling (`max_seconds`) passed.
    Time,
    /// The run generated as many deals as the ceiling (`max_generate`) allows, fewer than its
    /// `generate` asked for.
    Generate,
    /// The next output would have gone past the ceiling (`max_output_bytes`): the deal was not
    /// written (the end-of-run report is cut after its last whole line that fits).
    Output,
}

/// What a finished run reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunReport {
    /// Deals generated.
    pub generated: i64,
    /// Deals produced (accepted by the condition).
    pub produced: i64,
    /// The seed as the peers print it.
    pub seed: u64,
    /// Whether the time limit stopped the run before any deal was produced (classic `-t`).
    pub timed_out: bool,
    /// The ceiling that stopped the run early, if one did; the output written is whole (see
    /// [`Ceiling`]).
    pub ceiling: Option<Ceiling>,
}

/// The statistics of a run whose actions are all `average`, `frequency` or `bktfreq` (one
/// value each) of values read from the deal alone: dealing threads add them up by chunk, and
/// their sums do not depend on the order the deals are added in.
pub(crate) struct Statistics {
    /// The actions' values, as one program (cloned for every dealing thread's summaries).
    values: TalliedValues,
    /// Each action's accumulator, empty.
    pub(crate) empty: Arc<[Tally]>,
    pub(crate) tallies: Vec<Tally>,
}

impl Statistics {
    /// The (empty) statistics of the program's actions, when they are all such statistics.
    pub(crate) fn for_run(program: &Program) -> Option<Statistics> {
        // A printing (or any other) action rules them out before anything is compiled.
        if !program.actions.iter().all(|action| action.tallied_value().is_some()) {
            return None;
        }
        let values = TalliedValues::new(program);
        if !values.all_actions_tallied() {
            return None;
        }
        let empty: Arc<[Tally]> =
            program.actions.iter().map(|a| Tally::for_action(a, program.settings.vulnerable)).collect();
        Some(Statistics { values, tallies: empty.to_vec(), empty })
    }
}

impl Summary for Statistics {
    fn empty(&self) -> Statistics {
        Statistics { values: self.values.clone(), empty: Arc::clone(&self.empty), tallies: self.empty.to_vec() }
    }

    #[inline]
    fn add(&mut self, program: &Program, deal: &Deal) {
        self.values.tally_each(program, deal, &mut self.tallies, |tally, value| tally.add(value, 0));
    }
}
