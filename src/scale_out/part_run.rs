//! Dealing one part of a job: the deal numbers the `part` (`K/N`: the `K`-th of `N` equal
//! ranges of the generate count, from 0) or `deals` (`FIRST:COUNT`) option names, dealt and
//! judged as one run deals them, the accepted deals written to the `part_file` with the
//! double-dummy results their actions read (see [`super::part_file`]). Nothing else is written:
//! the actions run when the parts are merged.

use std::io::BufWriter;

use crate::clock::Instant;
use crate::error::{Error, ErrorKind, Result};
use crate::job::deal_ranges::not_in_parts;
use crate::job::options::PartRange;
use crate::job::{RunReport, Session};
use crate::scale_out::part_file::{PartEnd, PartHeader, PartWriter};

/// The deal numbers a part deals, `first..first + count`, of a job of `generate` deals.
pub fn deal_numbers(range: PartRange, generate: u64) -> Result<(u64, u64)> {
    match range {
        PartRange::Share { index, parts } => {
            // Equal ranges, the remainder spread over the first parts: range k starts at
            // k·G/N (rounded down), so the ranges tile 0..G whatever N.
            let start = |k: u64| (u128::from(k) * u128::from(generate) / u128::from(parts)) as u64;
            Ok((start(index), start(index + 1) - start(index)))
        }
        PartRange::Deals { first, count } => {
            if first.checked_add(count).is_none_or(|end| end > generate) {
                return Err(Error::new(
                    ErrorKind::Option,
                    format!("option deals: {first}:{count} goes past the job's {generate} deals (its generate count)"),
                ));
            }
            Ok((first, count))
        }
    }
}

/// Deals the part of the job the session's options name and writes its part file; the report
/// counts the part's deals (the deal numbers dealt, the deals accepted).
pub fn run_part(session: &mut Session) -> Result<RunReport> {
    let started = Instant::now();
    let options = session.options().clone();
    let range = options.scale_out.range.expect("called for a part");
    let Some(path) = options.scale_out.part_file.clone() else {
        return Err(not_in_parts("a part writes its part file: give one (--part-file)"));
    };
    if !session.mix_scenarios().is_empty() {
        return Err(not_in_parts("a mix of scenarios is not available in parts"));
    }
    let levelling = &options.levelling;
    if levelling.write_leveled.is_some() || levelling.level || levelling.interleave {
        return Err(not_in_parts("levelling (--write-leveled, --level, --interleave) is not available in parts"));
    }
    if options.json_summary && matches!(crate::practice::scenario::declares_hand_types(session), Ok(true)) {
        return Err(not_in_parts("the JSON summary of hand types is not available in parts"));
    }
    let Some(seed) = session.fixed_seed() else {
        return Err(not_in_parts("every part must deal with the same seed: give one (-s SEED)"));
    };
    let (generate, produce) = session.run_limits()?;
    let (first, count) = deal_numbers(range, generate.max(0) as u64)?;
    let header = PartHeader {
        seed,
        first,
        count,
        generate: generate.max(0) as u64,
        produce,
        script: session.script_text().to_vec(),
        options: options.given.clone(),
    };
    let file = std::fs::File::create(&path)
        .map_err(|e| Error::new(ErrorKind::Io, format!("cannot write the part file {path}: {e}")))?;
    let io = |e: std::io::Error| Error::new(ErrorKind::Io, format!("cannot write the part file {path}: {e}"));
    let mut writer = PartWriter::new(BufWriter::new(file), &header).map_err(io)?;
    let mut write =
        |number: u64, deal: &crate::cards::Deal, dd: &crate::dd::DealResults| writer.deal(number, deal, dd).map_err(io);
    let dealt = session.deal_range(first, count, &mut write)?;
    let end = PartEnd { next: dealt.next, accepted: dealt.accepted, seconds: started.elapsed().as_secs_f64() };
    writer.finish(end).map_err(io)?;
    Ok(RunReport {
        generated: (dealt.next - first) as i64,
        produced: dealt.accepted as i64,
        seed: seed as u64,
        timed_out: false,
        ceiling: dealt.ceiling,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_tile_the_deal_numbers() {
        for (generate, parts) in [(10_000_000u64, 4u64), (7, 3), (3, 5), (1, 1), (u64::MAX, 7)] {
            let mut next = 0;
            for index in 0..parts {
                let (first, count) = deal_numbers(PartRange::Share { index, parts }, generate).unwrap();
                assert_eq!(first, next, "{generate} in {parts}");
                next = first + count;
            }
            assert_eq!(next, generate);
        }
        assert_eq!(deal_numbers(PartRange::Deals { first: 10, count: 5 }, 15).unwrap(), (10, 5));
        assert!(deal_numbers(PartRange::Deals { first: 10, count: 6 }, 15).is_err());
        assert!(deal_numbers(PartRange::Deals { first: u64::MAX, count: 2 }, 15).is_err());
    }
}
