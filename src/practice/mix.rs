//! Mixing scenarios into one board set (`--mix a.dlr b.dlr:2 c.dlr=10`, `dealer_mix_add`):
//! each scenario gets its exact count, the boards left of the produce limit are split over the
//! others by weight (largest remainder), each scenario is dealt from a seed of its own derived
//! from the run's (levelled over its own hand types under `--level`), and the boards are
//! interleaved as hand types are, numbered continuously. Every board is printed as a record
//! (PBN unless `format` asks for LIN or JSON Lines) naming its scenario (PBN `[Event]`, LIN
//! `st|…|`, JSON `"scenario"`) and its hand type when levelled; its dealer and vulnerability
//! are its scenario's `dealer` and `vulnerable` statements (turned with `rotate`), else the
//! board cycle's.

use std::sync::Arc;

use crate::actions::boards::{BoardLabel, BoardPlan};
use crate::clock::Instant;
use crate::error::Result;
use crate::job::options::{MixScenario, OutputFormat};
use crate::job::session::GivenBoards;
use crate::job::{RunReport, Session};
use crate::practice::hand_types::HandTypes;
use crate::practice::interleave::interleaved;
use crate::practice::level_run::{
    check_held, in_production_order, levelled_deals, stream_options, type_seed, LevelledScenario, OrderedDeals,
};
use crate::practice::quotas::largest_remainder;
use crate::practice::refusal::refusal;
use crate::practice::stock_scenario::StockScenario;
use crate::practice::stream_dealing::{Classified, Delivery, Stream, StreamDealing, StreamKey};
use crate::program::Program;

/// Each scenario's number of boards: its count, or its weight's share of what the counts
/// leave of `produce` (`None`: the counts' sum).
pub fn scenario_quotas(scenarios: &[MixScenario], produce: Option<i64>) -> Result<Vec<u64>> {
    let counted: u64 = scenarios.iter().filter_map(|s| s.count).sum();
    let weighted: Vec<&MixScenario> = scenarios.iter().filter(|s| s.count.is_none()).collect();
    let total = match produce {
        Some(p) => p.max(0) as u64,
        None if weighted.is_empty() => counted,
        None => {
            return Err(refusal(
                "a mix by weight needs a produce limit (-p N): the weights share the boards the counts leave",
            ))
        }
    };
    if counted > total {
        return Err(refusal(format!("the mix counts {counted} boards, more than the produce limit of {total}")));
    }
    let sum: f64 = weighted.iter().map(|s| s.weight).sum();
    if !weighted.is_empty() && sum <= 0.0 && total > counted {
        return Err(refusal("every weight of the mix is 0, which asks for no boards at all."));
    }
    let shares: Vec<f64> = weighted.iter().map(|s| if sum > 0.0 { s.weight / sum } else { 0.0 }).collect();
    let mut by_weight = largest_remainder(total - counted, &shares).into_iter();
    Ok(scenarios.iter().map(|s| s.count.unwrap_or_else(|| by_weight.next().unwrap_or(0))).collect())
}

/// One scenario compiled for mixing: its program with nature's mix (a levelling block back to
/// its placeholder), the text it was compiled from, and the hand types it declares.
fn natural_scenario(session: &Session, scenario: &MixScenario) -> Result<(Program, Vec<u8>, HandTypes)> {
    let options = session.options();
    let parsed = crate::script::parse(&scenario.text, options.dialect(), &options.script_vars)
        .map_err(|d| crate::error::Error::from(d).with_source(&scenario.text))?;
    let types = HandTypes::declared(&parsed)?;
    let text = StockScenario::natural_text(&scenario.text, &parsed)?;
    let program =
        Program::from_source(&text, options.dialect(), &options.script_vars).map_err(|e| e.with_source(&text))?;
    Ok((program, text, types))
}

/// The deals of scenario `index` of the mix (through `dealing`): levelled over its hand types
/// under `--level` (when it declares any), else dealt as it stands.
fn scenario_deals(
    session: &Session,
    dealing: &mut dyn StreamDealing,
    (index, scenario): (usize, &MixScenario),
    (quota, generate): (u64, i64),
    seed: i64,
    warnings: &mut String,
) -> Result<(OrderedDeals, BoardPlan)> {
    let options = session.options();
    let (program, text, types) = natural_scenario(session, scenario).map_err(|e| e.in_scenario(&scenario.name))?;
    let plan = BoardPlan {
        script_dealer: program.settings.dealer,
        script_vulnerability: program.settings.vulnerable,
        rotate: options.rotate,
    };
    if options.levelling.level && !types.types.is_empty() {
        let target = types.target(None).map_err(|e| e.in_scenario(&scenario.name))?;
        let levelled =
            LevelledScenario { program: &program, text: &text, types: &types, target: &target, index: index as u32 };
        let ordered = levelled_deals(dealing, options, &levelled, (quota as i64, generate), seed, warnings)
            .map_err(|e| e.in_scenario(&scenario.name))?;
        return Ok((ordered, plan));
    }
    if generate <= 0 {
        // The scenarios before it used the whole budget (a generate limit of 0 would ask for
        // the default one).
        return Ok((in_production_order(&types, Classified::default()), plan));
    }
    let dealt = dealing
        .deal(Stream {
            key: StreamKey { scenario: index as u32, hand_type: None },
            options: stream_options(options, seed, quota as i64, generate),
            program,
            text: &text,
            types: &HandTypes::default(),
        })
        .map_err(|e| e.in_scenario(&scenario.name))?;
    Ok((in_production_order(&types, dealt), plan))
}

/// Runs the mixed board set of the session's scenarios, dealt through `dealing`.
pub fn mix(session: &mut Session, dealing: &mut dyn StreamDealing) -> Result<RunReport> {
    let started = Instant::now();
    let scenarios = session.mix_scenarios().to_vec();
    let options = session.options().clone();
    let produce = options.produce.filter(|&p| p != 0);
    let quotas = scenario_quotas(&scenarios, produce)?;
    check_held(quotas.iter().sum::<u64>() as i64)?;
    let generate = options.generate.filter(|&g| g > 0).unwrap_or(10_000_000);
    let seed = session.seed_for_next_job();
    let mut warnings = String::new();
    let mut parts = Vec::with_capacity(scenarios.len());
    let mut generated = 0i64;
    for ((index, scenario), &quota) in scenarios.iter().enumerate().zip(&quotas) {
        let limits = (quota, generate - generated);
        let (dealt, plan) =
            scenario_deals(session, dealing, (index, scenario), limits, type_seed(seed, index), &mut warnings)?;
        if (dealt.deals.len() as u64) < quota {
            warnings.push_str(&format!(
                "Warning: {}: the generate limit ended it at {} of its {quota} boards.\n",
                scenario.name,
                dealt.deals.len()
            ));
        }
        generated += dealt.generated;
        parts.push((dealt, plan, Arc::<str>::from(scenario.name.as_str())));
    }
    let sizes: Vec<usize> = parts.iter().map(|(dealt, _, _)| dealt.deals.len()).collect();
    let order = interleaved(&sizes, 0, seed as u64);
    let mut taken = vec![0usize; parts.len()];
    let mut deals = Vec::with_capacity(order.len());
    let mut labels = Vec::with_capacity(order.len());
    // Each scenario's results move out in its deals' order.
    let mut results: Vec<_> = parts.iter_mut().map(|(dealt, _, _)| std::mem::take(&mut dealt.dd).into_iter()).collect();
    let mut dd = Vec::new();
    for part in order {
        dd.extend(results[part].next());
        let (dealt, plan, name) = &parts[part];
        deals.push(dealt.deals[taken[part]]);
        labels.push(BoardLabel {
            hand_type: dealt.hand_types[taken[part]].clone(),
            scenario: Some(name.clone()),
            plan: Some(*plan),
            record: None,
        });
        taken[part] += 1;
    }
    // The set's records: PBN unless LIN or JSON Lines are asked for.
    let program = Program::from_source(b"", options.dialect(), &options.script_vars)?;
    let script_format = options.format == OutputFormat::Script;
    if script_format {
        session.set_option("format", "pbn")?;
    }
    let boards = GivenBoards { deals, labels, hand_types: Vec::new(), dd, generated, started, seconds_before: 0.0 };
    let result = dealing.deliver(session, Delivery { seed, warnings, boards, records: Some(program) });
    if script_format {
        session.set_option("format", "script")?;
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scenario(name: &str, weight: f64, count: Option<u64>) -> MixScenario {
        MixScenario { name: name.into(), text: Vec::new(), weight, count }
    }

    #[test]
    fn counts_first_then_weights() {
        let mix = [scenario("a", 1.0, None), scenario("b", 2.0, None), scenario("c", 1.0, Some(10))];
        assert_eq!(scenario_quotas(&mix, Some(30)).unwrap(), [7, 13, 10]);
        assert_eq!(scenario_quotas(&mix[2..], None).unwrap(), [10]);
        assert!(scenario_quotas(&mix, None).unwrap_err().to_string().contains("needs a produce limit"));
        assert!(scenario_quotas(&mix, Some(5)).unwrap_err().to_string().contains("more than the produce limit"));
        let even =
            [scenario("a", 1.0, None), scenario("b", 1.0, None), scenario("c", 1.0, None), scenario("d", 1.0, None)];
        assert_eq!(scenario_quotas(&even, Some(10)).unwrap(), [3, 3, 2, 2]);
    }

    /// A scenario the ones before it left no budget gets no boards (a generate limit of 0 would
    /// have asked for the default one), and the set stays within the generate limit.
    #[test]
    fn a_scenario_left_no_budget_gets_no_boards() {
        use crate::job::{Sink, Stream};
        use crate::practice::stream_dealing::DealtHere;
        use std::sync::{Arc, Mutex};
        let mut session = Session::new();
        for (key, value) in [("seed", "5"), ("generate", "300"), ("smart", "off"), ("quiet", "true")] {
            session.set_option(key, value).unwrap();
        }
        let rare = MixScenario {
            name: "rare".into(),
            text: b"condition hcp(north) >= 23\n".to_vec(),
            weight: 1.0,
            count: Some(5),
        };
        let common =
            MixScenario { name: "common".into(), text: b"condition 1\n".to_vec(), weight: 1.0, count: Some(5) };
        session.add_mix_scenario(rare).unwrap();
        session.add_mix_scenario(common).unwrap();
        let warnings = Arc::new(Mutex::new(Vec::new()));
        let sink = warnings.clone();
        session.set_sink(
            Stream::Diagnostics,
            Some(Sink::Callback(Box::new(move |b: &[u8]| {
                sink.lock().unwrap().extend_from_slice(b);
                Ok(())
            }))),
        );
        session.set_sink(Stream::Output, Some(Sink::Callback(Box::new(|_: &[u8]| Ok(())))));
        let mut here = DealtHere { interrupter: session.interrupter() };
        let report = mix(&mut session, &mut here).unwrap();
        let warnings = String::from_utf8(warnings.lock().unwrap().clone()).unwrap();
        assert_eq!(report.generated, 300, "{warnings}");
        assert!(report.produced < 5, "{report:?}");
        assert!(warnings.contains("common: the generate limit ended it at 0 of its 5 boards"), "{warnings}");
    }
}
