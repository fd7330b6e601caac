//! `--level` and `--interleave` runs. `--level` deals each hand type directly: the scenario's
//! program with its condition `and HandType_NAME` (the levelling block back to its
//! placeholder), in an exact quota of the produce limit (largest remainder over the target
//! mix), each type from a seed of its own derived from the run's, so that the deals are the
//! same for any thread count; smart dealing deals a rare type at what dealing it exactly
//! costs. `--interleave` alone deals the scenario as it stands and classifies the produced
//! deals. Either way the deals are put in Dealer3's interleaved order and handed to the
//! script's actions, each board tagged with its type; a deal of two types is refused.

use crate::actions::boards::BoardLabel;
use crate::cards::Deal;
use crate::clock::Instant;
use crate::error::Result;
use crate::job::session::GivenBoards;
use crate::job::{Interrupter, Options, RunReport, Session};
use crate::practice::hand_types::HandTypes;
use crate::practice::interleave::{interleaved, splitmix64};
use crate::practice::natural_shares::classify;
use crate::practice::quotas::largest_remainder;
use crate::practice::refusal::refusal;
use crate::practice::scenario::Scenario;
use crate::practice::stock_scenario::StockScenario;
use crate::program::Program;
use std::sync::Arc;

/// Deals produced by one session, with the hand type each one is (`None`: of no type).
pub(crate) struct Classified {
    pub(crate) deals: Vec<Deal>,
    pub(crate) types: Vec<Option<usize>>,
    pub(crate) generated: i64,
}

/// The most deals a levelled or interleaved run holds until it prints them (32 bytes each).
pub const MAX_HELD_DEALS: i64 = 10_000_000;

/// Deals up to `count` deals with `session` and classifies each by the hand types; refuses a
/// deal of two types.
pub(crate) fn deal_and_classify(session: &mut Session, types: &HandTypes, count: usize) -> Result<Classified> {
    let ids: Vec<u32> = types.types.iter().map(|t| session.compile_expression(&t.variable)).collect::<Result<_>>()?;
    let mut values = vec![0i32; count.saturating_mul(ids.len())];
    let mut deals = Vec::with_capacity(count);
    let (got, result) = session.next_deals(count, &ids, &mut values, |_, deal| deals.push(*deal));
    result?;
    let mut classes = Vec::with_capacity(got);
    for (deal, row) in deals.iter().zip(values.chunks_exact(ids.len().max(1))) {
        classes.push(classify(types, row, deal)?);
    }
    Ok(Classified { deals, types: classes, generated: session.dealt_so_far().0 })
}

/// Runs `run` with the session's `seed` option set to `seed` (the run's, so that its report
/// prints it), then puts the option back.
pub(crate) fn with_seed(
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

/// The seed hand type (or scenario) `index` is dealt with, for a run with `seed`.
pub(crate) fn type_seed(seed: i64, index: usize) -> i64 {
    (splitmix64(seed as u64, index as u64 + 1) >> 1).max(1) as i64
}

/// The scenario's program with nature's mix: the levelling block back to its placeholder when
/// the script has one (a generated file is refused), else the loaded program.
fn natural_program(session: &Session, scenario: &Scenario) -> Result<(Program, Vec<u8>)> {
    let text = StockScenario::natural_text(&scenario.text, &scenario.script)?;
    if text == scenario.text {
        let program = session.loaded_program().expect("Scenario::read checked it").clone();
        return Ok((program, text));
    }
    let options = session.options();
    let program =
        Program::from_source(&text, options.dialect(), &options.script_vars).map_err(|e| e.with_source(&text))?;
    Ok((program, text))
}

/// Options for a session dealing part of the run: the run's, with this seed and these limits.
pub(crate) fn part_options(options: &Options, seed: i64, produce: i64, generate: i64) -> Options {
    let mut options = options.clone();
    options.seed = Some(seed);
    options.produce = Some(produce);
    options.generate = Some(generate);
    options.levelling = Default::default();
    options
}

/// Deals in the order they are printed, each with its hand type's label, and the deals
/// generated to find them.
pub struct OrderedDeals {
    /// The deals, in order.
    pub deals: Vec<Deal>,
    /// The label of each one's hand type (`None`: of no type).
    pub hand_types: Vec<Option<Arc<str>>>,
    /// Deals generated.
    pub generated: i64,
}

impl OrderedDeals {
    /// The boards the actions are given: these deals tagged with their hand types, `types`
    /// counted for the JSON summary.
    fn boards(self, types: &HandTypes, started: Instant) -> GivenBoards {
        let labels =
            self.hand_types.into_iter().map(|hand_type| BoardLabel { hand_type, ..BoardLabel::default() }).collect();
        let hand_types = types.types.iter().map(|t| Arc::from(t.label.as_str())).collect();
        GivenBoards { deals: self.deals, labels, hand_types, generated: self.generated, started }
    }
}

/// `all` in the order they were produced, each with its type's label.
fn in_production_order(types: &HandTypes, all: Classified) -> OrderedDeals {
    let hand_types = all.types.iter().map(|t| t.map(|t| Arc::from(types.types[t].label.as_str()))).collect();
    OrderedDeals { deals: all.deals, hand_types, generated: all.generated }
}

/// `all` in the interleaved order of their types (see [`interleaved`]).
fn interleave_by_type(types: &HandTypes, all: Classified, seed: i64) -> OrderedDeals {
    let mut buckets: Vec<Vec<Deal>> = vec![Vec::new(); types.types.len() + 1];
    for (deal, class) in all.deals.iter().zip(&all.types) {
        buckets[class.unwrap_or(types.types.len())].push(*deal);
    }
    let sizes: Vec<usize> = buckets[..types.types.len()].iter().map(Vec::len).collect();
    let order = interleaved(&sizes, buckets[types.types.len()].len(), seed as u64);
    let labels: Vec<Arc<str>> = types.types.iter().map(|t| Arc::from(t.label.as_str())).collect();
    let mut taken = vec![0usize; buckets.len()];
    let mut ordered =
        OrderedDeals { deals: Vec::with_capacity(order.len()), hand_types: Vec::new(), generated: all.generated };
    for bucket in order {
        ordered.deals.push(buckets[bucket][taken[bucket]]);
        taken[bucket] += 1;
        ordered.hand_types.push(labels.get(bucket).cloned());
    }
    ordered
}

/// The deals of a levelled scenario: each hand type of `types` dealt directly from `program`
/// (the scenario with nature's mix, its text `text`) in its quota of `produce` over `target`,
/// within `generate` deals, interleaved; a type that falls short of its quota is named in
/// `warnings`.
#[allow(clippy::too_many_arguments)]
pub fn levelled_deals(
    options: &Options,
    program: &Program,
    text: &[u8],
    types: &HandTypes,
    target: &[f64],
    (produce, generate): (i64, i64),
    seed: i64,
    interrupter: &Interrupter,
    warnings: &mut String,
) -> Result<OrderedDeals> {
    check_held(produce)?;
    let quotas = largest_remainder(produce.max(0) as u64, target);
    let mut all = Classified { deals: Vec::new(), types: Vec::new(), generated: 0 };
    let mut short = Vec::new();
    for (index, (hand_type, &quota)) in types.types.iter().zip(&quotas).enumerate() {
        if quota == 0 {
            continue;
        }
        let node = program
            .variable(&hand_type.variable)
            .ok_or_else(|| refusal(format!("the hand type `{}` is not defined", hand_type.variable)))?;
        let left = generate - all.generated;
        if left <= 0 {
            short.push(format!("{} 0/{quota}", hand_type.label));
            continue;
        }
        let part = part_options(options, type_seed(seed, index), quota as i64, left);
        let mut dealing = Session::with_program(part, program.with_condition_and(node), text, interrupter.clone());
        let dealt = deal_and_classify(&mut dealing, types, quota as usize)?;
        if (dealt.deals.len() as u64) < quota {
            short.push(format!("{} {}/{quota}", hand_type.label, dealt.deals.len()));
        }
        all.generated += dealt.generated;
        all.deals.extend(dealt.deals);
        all.types.extend(dealt.types);
    }
    if !short.is_empty() {
        warnings.push_str(&format!(
            "Warning: the generate limit ({generate}) ended the levelled set short of its quotas: {}.\n         \
             Raise -g, or widen the types that came up short.\n",
            short.join(", ")
        ));
    }
    Ok(interleave_by_type(types, all, seed))
}

/// Refuses to hold more than [`MAX_HELD_DEALS`] deals.
pub fn check_held(produce: i64) -> Result<()> {
    if produce > MAX_HELD_DEALS {
        return Err(refusal(format!(
            "--level, --interleave and --mix keep every produced deal until the run ends: at most \
             {MAX_HELD_DEALS} deals (produce {produce}); lower produce"
        )));
    }
    Ok(())
}

/// Runs `--level`: each hand type dealt directly in its exact quota, interleaved.
pub fn level(session: &mut Session) -> Result<RunReport> {
    let started = Instant::now();
    let scenario = Scenario::read(session)?;
    let options = session.options().clone();
    let target = scenario.types.target(options.levelling.target.as_ref())?;
    let (program, text) = natural_program(session, &scenario)?;
    let (generate, produce) = session.run_limits()?;
    let seed = session.seed_for_next_job();
    let mut warnings = String::new();
    let ordered = levelled_deals(
        &options,
        &program,
        &text,
        &scenario.types,
        &target,
        (produce, generate),
        seed,
        &session.interrupter(),
        &mut warnings,
    )?;
    session.write_diagnostics(warnings.as_bytes());
    let boards = ordered.boards(&scenario.types, started);
    with_seed(session, seed, |session| session.run_given(boards))
}

/// Runs a script with hand types without `--level`: the scenario dealt as it stands, every
/// produced deal classified and tagged with its type (the JSON summary counts them), printed in
/// interleaved order (`--interleave`) or as produced.
pub fn by_type(session: &mut Session, interleave: bool) -> Result<RunReport> {
    let started = Instant::now();
    let scenario = Scenario::read(session)?;
    let program = session.loaded_program().expect("Scenario::read checked it").clone();
    let (max_generate, max_produce) = session.run_limits()?;
    check_held(max_produce)?;
    let seed = session.seed_for_next_job();
    let part = part_options(session.options(), seed, max_produce, max_generate);
    let mut dealing = Session::with_program(part, program, &scenario.text, session.interrupter());
    let all = deal_and_classify(&mut dealing, &scenario.types, max_produce.max(0) as usize)?;
    let ordered = match interleave {
        true => interleave_by_type(&scenario.types, all, seed),
        false => in_production_order(&scenario.types, all),
    };
    let boards = ordered.boards(&scenario.types, started);
    with_seed(session, seed, |session| session.run_given(boards))
}
