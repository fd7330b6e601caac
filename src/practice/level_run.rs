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
use crate::dd::DealResults;
use crate::error::Result;
use crate::job::session::GivenBoards;
use crate::job::{Options, RunReport, Session};
use crate::practice::hand_types::HandTypes;
use crate::practice::interleave::{interleaved, splitmix64};
use crate::practice::quotas::largest_remainder;
use crate::practice::refusal::refusal;
use crate::practice::scenario::Scenario;
use crate::practice::stock_scenario::StockScenario;
use crate::practice::stream_dealing::{Classified, Delivery, Stream, StreamDealing, StreamKey};
use crate::program::Program;
use std::sync::Arc;

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

/// The most deals a levelled or interleaved run holds until it prints them (32 bytes each).
pub const MAX_HELD_DEALS: i64 = 10_000_000;

/// Options for a stream of the run: the run's, with this seed and these limits.
pub(crate) fn stream_options(options: &Options, seed: i64, produce: i64, generate: i64) -> Options {
    let mut options = options.clone();
    options.seed = Some(seed);
    options.produce = Some(produce);
    options.generate = Some(generate);
    options.levelling = Default::default();
    options
}

/// Deals in the order they are printed, each with its hand type's label (and its
/// double-dummy results when known), and the deals generated to find them.
pub struct OrderedDeals {
    /// The deals, in order.
    pub deals: Vec<Deal>,
    /// The label of each one's hand type (`None`: of no type).
    pub hand_types: Vec<Option<Arc<str>>>,
    /// Each one's double-dummy results, when known (empty: none known).
    pub dd: Vec<DealResults>,
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
        GivenBoards {
            deals: self.deals,
            labels,
            hand_types,
            dd: self.dd,
            generated: self.generated,
            started,
            seconds_before: 0.0,
        }
    }
}

/// `all` in the order they were produced, each with its type's label.
pub(crate) fn in_production_order(types: &HandTypes, all: Classified) -> OrderedDeals {
    let hand_types = all.types.iter().map(|t| t.map(|t| Arc::from(types.types[t].label.as_str()))).collect();
    OrderedDeals { deals: all.deals, hand_types, dd: all.dd, generated: all.generated }
}

/// `all` in the interleaved order of their types (see [`interleaved`]).
fn interleave_by_type(types: &HandTypes, all: Classified, seed: i64) -> OrderedDeals {
    let untyped = types.types.len();
    let mut buckets: Vec<Vec<usize>> = vec![Vec::new(); untyped + 1];
    for (index, class) in all.types.iter().enumerate() {
        buckets[class.unwrap_or(untyped)].push(index);
    }
    let sizes: Vec<usize> = buckets[..untyped].iter().map(Vec::len).collect();
    let order = interleaved(&sizes, buckets[untyped].len(), seed as u64);
    let labels: Vec<Arc<str>> = types.types.iter().map(|t| Arc::from(t.label.as_str())).collect();
    let mut taken = vec![0usize; buckets.len()];
    // Each deal's results move to its place (taken once each).
    let mut dd: Vec<Option<DealResults>> = all.dd.into_iter().map(Some).collect();
    let mut ordered = OrderedDeals {
        deals: Vec::with_capacity(order.len()),
        hand_types: Vec::with_capacity(order.len()),
        dd: Vec::with_capacity(dd.len()),
        generated: all.generated,
    };
    for bucket in order {
        let index = buckets[bucket][taken[bucket]];
        taken[bucket] += 1;
        ordered.deals.push(all.deals[index]);
        ordered.dd.extend(dd.get_mut(index).and_then(Option::take));
        ordered.hand_types.push(labels.get(bucket).cloned());
    }
    ordered
}

/// A scenario to level: its program with nature's mix (compiled from `text`), its hand types
/// and their target mix, and its place in a mix (0 outside one).
pub struct LevelledScenario<'a> {
    /// The program.
    pub program: &'a Program,
    /// Its text.
    pub text: &'a [u8],
    /// The hand types.
    pub types: &'a HandTypes,
    /// Their target shares.
    pub target: &'a [f64],
    /// The scenario's index in a mix.
    pub index: u32,
}

/// The deals of a levelled scenario: each hand type dealt directly (through `dealing`) in its
/// quota of `produce` over the target, within `generate` deals, interleaved; a type that falls
/// short of its quota is named in `warnings`.
pub fn levelled_deals(
    dealing: &mut dyn StreamDealing,
    options: &Options,
    scenario: &LevelledScenario,
    (produce, generate): (i64, i64),
    seed: i64,
    warnings: &mut String,
) -> Result<OrderedDeals> {
    check_held(produce)?;
    let types = scenario.types;
    let quotas = largest_remainder(produce.max(0) as u64, scenario.target);
    let mut all = Classified::default();
    let mut short = Vec::new();
    for (index, (hand_type, &quota)) in types.types.iter().zip(&quotas).enumerate() {
        if quota == 0 {
            continue;
        }
        let node = scenario
            .program
            .variable(&hand_type.variable)
            .ok_or_else(|| refusal(format!("the hand type `{}` is not defined", hand_type.variable)))?;
        let left = generate - all.generated;
        if left <= 0 {
            short.push(format!("{} 0/{quota}", hand_type.label));
            continue;
        }
        let dealt = dealing.deal(Stream {
            key: StreamKey { scenario: scenario.index, hand_type: Some(index as u32) },
            options: stream_options(options, type_seed(seed, index), quota as i64, left),
            program: scenario.program.with_condition_and(node),
            text: scenario.text,
            types,
        })?;
        if (dealt.deals.len() as u64) < quota {
            short.push(format!("{} {}/{quota}", hand_type.label, dealt.deals.len()));
        }
        all.generated += dealt.generated;
        all.deals.extend(dealt.deals);
        all.types.extend(dealt.types);
        all.dd.extend(dealt.dd);
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

/// Runs `--level`: each hand type dealt directly in its exact quota (through `dealing`),
/// interleaved.
pub fn level(session: &mut Session, dealing: &mut dyn StreamDealing) -> Result<RunReport> {
    let started = Instant::now();
    let scenario = Scenario::read(session)?;
    let options = session.options().clone();
    let target = scenario.types.target(options.levelling.target.as_ref())?;
    let (program, text) = natural_program(session, &scenario)?;
    let (generate, produce) = session.run_limits()?;
    let seed = session.seed_for_next_job();
    let mut warnings = String::new();
    let levelled =
        LevelledScenario { program: &program, text: &text, types: &scenario.types, target: &target, index: 0 };
    let ordered = levelled_deals(dealing, &options, &levelled, (produce, generate), seed, &mut warnings)?;
    let boards = ordered.boards(&scenario.types, started);
    dealing.deliver(session, Delivery { seed, warnings, boards, records: None })
}

/// Runs a script with hand types without `--level`: the scenario dealt as it stands (through
/// `dealing`), every produced deal classified and tagged with its type (the JSON summary
/// counts them), printed in interleaved order (`--interleave`) or as produced.
pub fn by_type(session: &mut Session, interleave: bool, dealing: &mut dyn StreamDealing) -> Result<RunReport> {
    let started = Instant::now();
    let scenario = Scenario::read(session)?;
    let program = session.loaded_program().expect("Scenario::read checked it").clone();
    let (max_generate, max_produce) = session.run_limits()?;
    check_held(max_produce)?;
    let seed = session.seed_for_next_job();
    let all = dealing.deal(Stream {
        key: StreamKey { scenario: 0, hand_type: None },
        options: stream_options(session.options(), seed, max_produce, max_generate),
        program,
        text: &scenario.text,
        types: &scenario.types,
    })?;
    let ordered = match interleave {
        true => interleave_by_type(&scenario.types, all, seed),
        false => in_production_order(&scenario.types, all),
    };
    let boards = ordered.boards(&scenario.types, started);
    dealing.deliver(session, Delivery { seed, warnings: String::new(), boards, records: None })
}
