//! Scale-out: one job cut into parts by deal numbers, dealt anywhere, merged into exactly the
//! output of one run.
//!
//! With the native generator deal number `i` depends only on the seed and `i`, so the deal
//! numbers `0..generate` of a job can be cut into ranges that any number of processes deal
//! independently (`--part K/N`, `--deals FIRST:COUNT`). A part judges its deals and writes the
//! ones it accepts — each with its number and the double-dummy results its actions will read,
//! solved by the part — to a part file ([`part_file`]), with the job as given (script and
//! options). The merge ([`merge`]) checks that the parts make one job, reads them in deal
//! order and runs the job's actions on their deals as one run would have: boards numbered
//! across parts, `produce` honoured (a part may accept more deals than the job keeps; the
//! merge stops at the limit), `rnd()` in the actions drawn from each deal's own stream, the
//! statistics and the end-of-run report of one run, the job's `csvrpt`/`export` files written
//! by the merge. It reads one deal at a time: its memory does not grow with the deals (except
//! what `print(compass…)` keeps, as in one run).
//!
//! A practice run (a levelled set, a mix, a run classified by hand type) deals several
//! streams, each from a seed of its own, sharing the generate budget in turn (see
//! [`crate::practice::stream_dealing`]): a part deals its range of every deal number each
//! stream could use ([`part_streams`]), and the merge takes each stream's deals as one run
//! would have within the budget the streams before it left ([`merged_streams`]), then runs the
//! practice run's own ordering and printing on them.
//!
//! This stage composes jobs of the [`crate::job`] stage, beside [`crate::practice`]; engines
//! that run the parts (Slurm job arrays, GNU parallel, Dask) call the command line, the C API
//! or the Python package — nothing here schedules anything.
//!
//! One concept per file: [`part_file`] (the file format), [`part_run`] (dealing one part),
//! [`part_streams`] (a part's streams written), [`merge`] (putting the parts together),
//! [`merged_streams`] (a practice run's streams read back), and [`run`] (which run the
//! session's options ask for).

pub mod merge;
pub mod merged_streams;
pub mod part_file;
pub mod part_run;
pub mod part_streams;

use crate::error::Result;
use crate::job::{RunReport, Session};

/// Runs the job of `session`'s loaded script as its options ask: one part of it when the
/// `part` or `deals` option names one (see [`part_run`]), otherwise as [`crate::practice::run`]
/// does.
pub fn run(session: &mut Session) -> Result<RunReport> {
    if session.options().scale_out.range.is_some() {
        return part_run::run_part(session);
    }
    crate::practice::run(session)
}
