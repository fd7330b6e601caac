//! Each hand type's natural share of the deals a scenario produces, counted exactly where
//! smart dealing can count (the condition and every type read the same seat's hand alone:
//! then a type's share is the number of that seat's hands satisfying `condition and type`
//! over the number satisfying the condition), and measured otherwise as Dealer3 does: the
//! scenario is dealt with nature's mix until the rarest type has been seen 2,000 times (within
//! `level_measure` produced deals and `level_timeout` seconds), every produced deal classified.
//! Either way the types must partition the produced deals: a deal of two types, deals of none,
//! and a type never seen are refused; a type seen fewer than 500 times is warned about.

use crate::cards::{Deal, Seat};
use crate::clock::Instant;
use crate::error::{Error, ErrorKind, Result};
use crate::job::{Interrupter, Options, Session};
use crate::practice::hand_types::HandTypes;
use crate::practice::refusal::refusal;
use crate::program::{NodeId, Program};
use crate::script::ast::BinOp;

/// Sightings of the rarest type after which measuring stops (its share then known within
/// about 2.2 %, one standard deviation).
pub const MEASURE_GOAL: u64 = 2000;
/// Sightings below which a measured share is warned about.
const THIN_SAMPLE: u64 = 500;
/// Produced deals between two looks at the clock while measuring.
const CLOCK_EVERY: u64 = 1024;

/// Where natural shares come from.
#[derive(Clone, Debug, PartialEq)]
pub enum Source {
    /// Measured on the deals of a seed.
    Measured {
        /// The seed dealt with.
        seed: i64,
        /// The deals generated while measuring.
        generated: u64,
    },
    /// Counted exactly over the hands of one seat (or the card sets of one pair).
    Exact {
        /// The seat the condition and the types read (the first of the pair).
        seat: Seat,
        /// When they read a pair's cards together: the other seat of the pair.
        partner: Option<Seat>,
        /// The hands that seat may hold (the sets of cards the pair may hold together).
        possible: u64,
    },
}

impl Source {
    /// What exact shares were counted over (`all 635013559600 hands South can hold`); `None`
    /// for measured ones.
    pub fn counted_over(&self) -> Option<String> {
        match *self {
            Source::Measured { .. } => None,
            Source::Exact { seat, partner, possible } => Some(format!("all {possible} {}", holdings((seat, partner)))),
        }
    }
}

/// Who the condition and the types read: a seat, or a pair (its first seat and the other).
type Holder = (Seat, Option<Seat>);

/// What a holder holds, as the counts name them (`hands South can hold`).
fn holdings((seat, partner): Holder) -> String {
    match partner {
        None => format!("hands {} can hold", seat.name()),
        Some(partner) => format!("sets of cards {} and {} can hold together", seat.name(), partner.name()),
    }
}

/// The natural shares of a scenario's hand types.
#[derive(Clone, Debug, PartialEq)]
pub struct NaturalShares {
    /// Each type's share of the produced deals.
    pub shares: Vec<f64>,
    /// Each type's sightings (measured) or hands (exact).
    pub seen: Vec<u64>,
    /// The produced deals measured, or the qualifying hands counted.
    pub over: u64,
    /// The share of all deals that qualify, when known.
    pub base_rate: Option<f64>,
    /// Measured or exact.
    pub source: Source,
}

/// The node of each type's variable in `program`.
fn type_nodes(program: &Program, types: &HandTypes) -> Result<Vec<NodeId>> {
    types
        .types
        .iter()
        .map(|t| {
            program
                .variable(&t.variable)
                .ok_or_else(|| refusal(format!("the hand type `{}` is not defined", t.variable)))
        })
        .collect()
}

/// The error for deals that match no type.
fn gap_error(untyped: u64, of: u64, unit: &str, types: &HandTypes) -> Error {
    let all: Vec<String> = types.types.iter().map(|t| t.variable.clone()).collect();
    refusal(format!(
        "{untyped} of {of} {unit} matched no hand type. They have to partition what the scenario produces,\n       \
             or the keeps will not add up — a rate is only a rate if it is a share of something.\n       Either widen \
             the types, or narrow the condition to the deals they cover:\n\n           and ({})\n",
        all.join(" or ")
    ))
}

/// The type of `deal`, from its values of the types' variables (`values[i]`: type `i`'s):
/// `None` when it is of none; a deal of two types is refused, showing the deal.
pub fn classify(types: &HandTypes, values: &[i32], deal: &Deal) -> Result<Option<usize>> {
    let mut matched = values.iter().enumerate().filter(|(_, v)| **v != 0).map(|(i, _)| i);
    match (matched.next(), matched.next()) {
        (Some(first), Some(second)) => {
            let mut line = Vec::new();
            deal.write_oneline(&mut line);
            let line = String::from_utf8_lossy(&line).trim_end().to_string();
            let detail = format!("The deal:\n       {line}");
            Err(overlap_error_with(&types.types[first].variable, &types.types[second].variable, &detail))
        }
        (first, _) => Ok(first),
    }
}

/// The error for a deal of two types, with `detail` on its last line.
fn overlap_error_with(first: &str, second: &str, detail: &str) -> Error {
    refusal(format!(
        "a deal is both `{first}` and `{second}`. Hand types have to partition the deals, so at most one may \
             match.\n       {detail}"
    ))
}

/// The error for types never seen.
fn never_seen_error(labels: &[&str], over: u64, unit: &str) -> Error {
    let names: Vec<String> = labels.iter().map(|l| format!("`{l}`")).collect();
    refusal(format!(
        "never seen in {over} {unit}: {}.\n       A keep cannot make a hand that does not occur, so there is no \
             levelling that delivers the asked-for mix.\n       Check those definitions: a type that matches nothing \
             usually means a misspelled name or a condition\n       narrower than the type meant to sit inside it.",
        names.join(", ")
    ))
}

/// The count of the hands satisfying `program`'s condition, when it reads `holder`'s hand (or,
/// with `None`, any one seat's hand or pair's cards together) alone.
fn count(
    options: &Options,
    interrupter: &Interrupter,
    program: Program,
    text: &[u8],
    holder: Option<Holder>,
) -> Result<Option<(Holder, u64, u64)>> {
    let session = Session::with_program(options.clone(), program, text, interrupter.clone());
    Ok(session
        .exact_count()?
        .map(|c| ((c.seat, c.partner), c.accepted, c.possible))
        .filter(|(counted, _, _)| holder.is_none_or(|h| h == *counted)))
}

/// The natural shares counted exactly, when the condition and every type read one seat alone,
/// or one pair's cards together (`None` otherwise); refuses types that overlap, leave gaps or
/// never occur.
pub fn count_exactly(
    options: &Options,
    interrupter: &Interrupter,
    program: &Program,
    text: &[u8],
    types: &HandTypes,
) -> Result<Option<NaturalShares>> {
    let nodes = type_nodes(program, types)?;
    let mut holder = None;
    let mut seen = Vec::with_capacity(nodes.len());
    let mut possible = 0;
    for &node in &nodes {
        let Some((h, accepted, all)) = count(options, interrupter, program.with_condition_and(node), text, holder)?
        else {
            return Ok(None);
        };
        holder = Some(h);
        possible = all;
        seen.push(accepted);
    }
    let Some(holder) = holder else { return Ok(None) };
    // The hands of the condition with other than one type.
    let mut with_count = program.clone();
    let matched = with_count.count_true(&nodes);
    let not_one = with_count.compare(BinOp::Ne, matched, 1);
    let Some((_, outside, _)) =
        count(options, interrupter, with_count.with_condition_and(not_one), text, Some(holder))?
    else {
        return Ok(None);
    };
    let over: u64 = seen.iter().sum();
    let unit = holdings(holder);
    if outside > 0 {
        let none = with_count.compare(BinOp::Eq, matched, 0);
        let untyped =
            count(options, interrupter, with_count.with_condition_and(none), text, Some(holder))?.map_or(0, |c| c.1);
        if untyped < outside {
            for (a, &first) in nodes.iter().enumerate() {
                for (b, &second) in nodes.iter().enumerate().skip(a + 1) {
                    let both = program.with_condition_and(first).with_condition_and(second);
                    if let Some((_, n, _)) = count(options, interrupter, both, text, Some(holder))?.filter(|c| c.1 > 0)
                    {
                        let detail = format!("{n} of the {unit} are both.");
                        return Err(overlap_error_with(&types.types[a].variable, &types.types[b].variable, &detail));
                    }
                }
            }
        }
        return Err(gap_error(untyped, over + untyped, &format!("qualifying {unit}"), types));
    }
    let never: Vec<&str> =
        types.types.iter().zip(&seen).filter(|(_, &n)| n == 0).map(|(t, _)| t.label.as_str()).collect();
    if !never.is_empty() {
        return Err(never_seen_error(&never, over, &format!("qualifying {unit}")));
    }
    Ok(Some(NaturalShares {
        shares: seen.iter().map(|&n| n as f64 / over as f64).collect(),
        seen,
        over,
        base_rate: Some(over as f64 / possible as f64),
        source: Source::Exact { seat: holder.0, partner: holder.1, possible },
    }))
}

/// The natural shares measured by dealing `program` (the scenario with nature's mix) under
/// `options`; warnings (a thin sample, measuring stopped by the clock) are added to
/// `warnings`.
pub fn measure(
    options: &Options,
    interrupter: &Interrupter,
    program: &Program,
    text: &[u8],
    types: &HandTypes,
    warnings: &mut String,
) -> Result<NaturalShares> {
    let mut options = options.clone();
    // Measuring is not bounded by the run's produce limit, only by its own.
    options.produce = Some(options.levelling.measure.min(i64::MAX as u64) as i64);
    let started = Instant::now();
    let mut session = Session::with_program(options.clone(), program.clone(), text, interrupter.clone());
    let ids: Vec<u32> = types.types.iter().map(|t| session.compile_expression(&t.variable)).collect::<Result<_>>()?;
    let mut seen = vec![0u64; ids.len()];
    let mut values = vec![0i32; ids.len()];
    let mut produced = 0u64;
    let mut untyped = 0u64;
    let mut deal = None;
    loop {
        let (got, result) = session.next_deals(1, &ids, &mut values, |_, d| deal = Some(*d));
        result?;
        if got == 0 {
            break;
        }
        produced += 1;
        match classify(types, &values, &deal.expect("stored"))? {
            None => untyped += 1,
            Some(i) => seen[i] += 1,
        }
        if seen.iter().all(|&n| n >= MEASURE_GOAL) || produced >= options.levelling.measure {
            break;
        }
        if produced % CLOCK_EVERY == 0 && started.elapsed().as_secs() >= options.levelling.timeout_seconds {
            let (generated, _) = session.dealt_so_far();
            warnings.push_str(&format!(
                "Note: stopped characterizing after {}s ({generated} dealt). Raise --level-timeout to characterize for \
                 longer.\n",
                started.elapsed().as_secs()
            ));
            break;
        }
    }
    let (generated, _) = session.dealt_so_far();
    if produced == 0 {
        return Err(Error::new(ErrorKind::Run, "nothing was produced, so there is nothing to measure."));
    }
    if untyped > 0 {
        return Err(gap_error(untyped, produced, "deals", types));
    }
    let never: Vec<&str> =
        types.types.iter().zip(&seen).filter(|(_, &n)| n == 0).map(|(t, _)| t.label.as_str()).collect();
    if !never.is_empty() {
        return Err(never_seen_error(&never, produced, "deals"));
    }
    let thin: Vec<String> = types
        .types
        .iter()
        .zip(&seen)
        .filter(|(_, &n)| n < THIN_SAMPLE)
        .map(|(t, n)| format!("`{}` seen {n} times", t.label))
        .collect();
    if !thin.is_empty() {
        warnings.push_str(&format!(
            "Warning: measured on fewer than {THIN_SAMPLE} deals of {}, over {produced} produced.\n         A keep is \
             `mix / natural`, so an error in a rate this thin is baked into the mix for good — it does not average \
             out.\n         Raise --level-measure or --level-timeout, or widen the rare types.\n",
            thin.join("; ")
        ));
    }
    Ok(NaturalShares {
        shares: seen.iter().map(|&n| n as f64 / produced as f64).collect(),
        seen,
        over: produced,
        base_rate: session.generated_share().map(|share| share * produced as f64 / generated.max(1) as f64),
        source: Source::Measured { seed: session.seed(), generated: generated.max(0) as u64 },
    })
}
