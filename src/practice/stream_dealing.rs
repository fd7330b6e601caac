//! Where a practice run's deals are dealt. A levelled set, a mix or a classified run deals
//! one or more streams — a hand type dealt directly, a scenario of a mix, the scenario as it
//! stands — each a job of its own (its program, its seed, its quota, the deal budget the
//! streams before it left), then orders the deals and hands them to the actions. A
//! [`StreamDealing`] does the dealing of each stream and takes the ordered boards:
//! [`DealtHere`] deals every stream in this process and runs the actions (one run); the
//! scale-out stage deals one range of deal numbers of every stream into a part file, or reads
//! the streams back from the part files of a job and runs the actions (the merge), so that a
//! practice run cut into parts prints what one run prints.

use crate::cards::Deal;
use crate::dd::DealResults;
use crate::error::Result;
use crate::job::session::GivenBoards;
use crate::job::{Interrupter, Options, RunReport, Session};
use crate::practice::hand_types::HandTypes;
use crate::practice::natural_shares::classify;
use crate::program::Program;

/// Which stream of a practice run: the scenario of a mix (0 outside one) and the hand type a
/// levelled run deals directly (`None`: the scenario as it stands).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StreamKey {
    /// The scenario's index in the mix.
    pub scenario: u32,
    /// The hand type's index among the scenario's.
    pub hand_type: Option<u32>,
}

/// One stream to deal: a job of `program` (compiled from `text`) under `options`, whose seed,
/// produce limit (the stream's quota) and generate limit (the budget the streams before it
/// left) are the stream's; its deals are classified by `types` (none: no classes).
pub struct Stream<'a> {
    /// Which stream.
    pub key: StreamKey,
    /// The job's options.
    pub options: Options,
    /// The job's program.
    pub program: Program,
    /// The text it was compiled from.
    pub text: &'a [u8],
    /// The hand types the deals are classified by.
    pub types: &'a HandTypes,
}

/// The deals of a stream, in the order dealt, each with its hand type and, when known already
/// (a merge), its double-dummy results; and the deals generated to find them.
#[derive(Default)]
pub struct Classified {
    /// The deals.
    pub deals: Vec<Deal>,
    /// Each one's hand type (`None`: of no type).
    pub types: Vec<Option<usize>>,
    /// Each one's double-dummy results, when known (empty: none known).
    pub dd: Vec<DealResults>,
    /// The deals generated.
    pub generated: i64,
}

/// What a practice run hands over once its deals are ordered.
pub struct Delivery {
    /// The run's seed (its report prints it).
    pub seed: i64,
    /// Warnings for the diagnostics stream (quotas that fell short).
    pub warnings: String,
    /// The boards, in the order they are printed.
    pub boards: GivenBoards,
    /// The program whose actions print them, when not the loaded script (a mix's records).
    pub records: Option<Program>,
}

/// Where a practice run's streams are dealt and its boards go.
pub trait StreamDealing {
    /// Deals `stream`.
    fn deal(&mut self, stream: Stream) -> Result<Classified>;

    /// Hands the ordered boards to `session`'s actions (or keeps them, for a part).
    fn deliver(&mut self, session: &mut Session, delivery: Delivery) -> Result<RunReport>;
}

/// Every stream dealt here, in full, and the actions run on the boards: one run.
pub struct DealtHere {
    /// Interrupts the streams' jobs.
    pub interrupter: Interrupter,
}

impl StreamDealing for DealtHere {
    fn deal(&mut self, stream: Stream) -> Result<Classified> {
        let count = stream.options.produce.unwrap_or(0).max(0) as usize;
        let mut session = Session::with_program(stream.options, stream.program, stream.text, self.interrupter.clone());
        deal_and_classify(&mut session, stream.types, count)
    }

    fn deliver(&mut self, session: &mut Session, delivery: Delivery) -> Result<RunReport> {
        deliver_to_actions(session, delivery)
    }
}

/// Writes the warnings and runs the actions on the boards, with the run's seed.
pub fn deliver_to_actions(session: &mut Session, delivery: Delivery) -> Result<RunReport> {
    let Delivery { seed, warnings, boards, records } = delivery;
    session.write_diagnostics(warnings.as_bytes());
    with_seed(session, seed, |session| match records {
        Some(program) => session.run_given_with(program, boards),
        None => session.run_given(boards),
    })
}

/// Runs `run` with the session's `seed` option set to `seed` (the run's, so that its report
/// prints it), then puts the option back.
pub fn with_seed(
    session: &mut Session,
    seed: i64,
    run: impl FnOnce(&mut Session) -> Result<RunReport>,
) -> Result<RunReport> {
    let given = session.options().seed;
    session.set_seed(Some(seed));
    let result = run(session);
    session.set_seed(given);
    result
}

/// Deals up to `count` deals with `session` and classifies each by the hand types; refuses a
/// deal of two types.
pub fn deal_and_classify(session: &mut Session, types: &HandTypes, count: usize) -> Result<Classified> {
    let ids: Vec<u32> = types.types.iter().map(|t| session.compile_expression(&t.variable)).collect::<Result<_>>()?;
    let mut values = vec![0i32; count.saturating_mul(ids.len())];
    let mut deals = Vec::with_capacity(count);
    let (_, result) = session.next_deals(count, &ids, &mut values, |_, deal| deals.push(*deal));
    result?;
    let mut classes = Vec::with_capacity(deals.len());
    for (index, deal) in deals.iter().enumerate() {
        classes.push(classify(types, &values[index * ids.len()..(index + 1) * ids.len()], deal)?);
    }
    Ok(Classified { deals, types: classes, dd: Vec::new(), generated: session.dealt_so_far().0 })
}
