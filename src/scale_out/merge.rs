//! Merging the parts of a job (see [`super`]): the part files are checked to make one job —
//! each file whole, the same script, options and seed, their ranges of deal numbers tiling
//! the job's without a gap or an overlap — before anything is written; then they are read in
//! deal order, one deal at a time, and the job's actions run on their deals as one run of the
//! job would have run them.

use std::collections::BTreeSet;

use crate::error::{Error, ErrorKind, Result};
use crate::job::deal_ranges::{Recorded, RecordedDeal};
use crate::job::{RunReport, Session};
use crate::practice::stream_dealing::StreamKey;
use crate::scale_out::merged_streams::{open, MergedStreams, Part, PartIndex};
use crate::scale_out::part_file::PartStream;
use crate::scale_out::part_streams::WHOLE_JOB;

/// The error for parts that do not make one job.
fn mismatch(why: String) -> Error {
    Error::new(ErrorKind::Usage, format!("the parts do not make one job: {why}"))
}

/// Merges the part files `paths` (in any order) into `session`: the job's script, options and
/// mixed scenarios are loaded from them (set over the session's own; its output streams
/// stay), and its actions run on the parts' deals in deal order, writing what one run of the
/// job writes. For a job that is not a practice run, memory and open files do not grow with
/// the deals, nor the files open with the parts; a practice run holds its boards, as one run
/// does.
pub fn merge(session: &mut Session, paths: &[String]) -> Result<RunReport> {
    let Some(first_path) = paths.first() else {
        return Err(Error::new(ErrorKind::Usage, "merge: no part file given"));
    };
    let job = open(first_path)?.header;
    let mut parts = Vec::with_capacity(paths.len());
    let mut seconds = 0.0;
    for path in paths {
        let part = open(path)?;
        if part.header.producer != job.producer {
            return Err(mismatch(format!(
                "{first_path} was dealt by {} and {path} by {}: deal every part with one version",
                job.producer, part.header.producer
            )));
        }
        if part.header != job {
            return Err(mismatch(format!(
                "{first_path} and {path} are parts of different jobs (their script, options or seed differ)"
            )));
        }
        if let Some(stream) = part.streams().iter().find(|s| !s.finished()) {
            return Err(Error::new(
                ErrorKind::Io,
                format!(
                    "part file {path}: it stopped at deal number {} of {} to {} (a ceiling or an error stopped the part)",
                    stream.next,
                    stream.first,
                    stream.range_end().saturating_sub(1)
                ),
            ));
        }
        seconds += part.seconds();
        parts.push(PartIndex { path: path.clone(), streams: part.streams().to_vec() });
    }
    check_tiling(&parts)?;
    for (key, value) in &job.options {
        session.set_option(key, value)?;
    }
    session.set_seed(Some(job.seed));
    session.load_script(&job.script)?;
    session.clear_mix();
    for scenario in job.mix {
        session.add_mix_scenario(scenario)?;
    }
    let practice = crate::practice::PracticeRun::of(session)?;
    let mut merged = MergedStreams { parts, seconds };
    if let Some(report) = practice.deal_with(session, &mut merged) {
        return report;
    }
    merge_whole_job(session, merged)
}

/// Runs the actions of a job that is not a practice run on its deals, read from the parts in
/// deal order one at a time.
fn merge_whole_job(session: &mut Session, merged: MergedStreams) -> Result<RunReport> {
    let mut spans: Vec<(String, PartStream)> = Vec::with_capacity(merged.parts.len());
    for part in merged.parts {
        match part.streams.iter().find(|s| s.key == WHOLE_JOB) {
            Some(stream) => spans.push((part.path, *stream)),
            None => return Err(mismatch(format!("{} holds no deals of the job itself", part.path))),
        }
    }
    spans.sort_by_key(|(_, stream)| stream.first);
    let generate = spans.first().map_or(0, |(_, stream)| stream.total);
    let mut spans = spans.into_iter();
    let mut current: Option<Part> = None;
    let deals = std::iter::from_fn(move || loop {
        if current.is_none() {
            let (path, stream) = spans.next()?;
            let mut part = match open(&path) {
                Ok(part) => part,
                Err(e) => return Some(Err(e)),
            };
            // A part of a job whose statistics suffice recorded them instead of its deals.
            match part.read_statistics(WHOLE_JOB) {
                Ok(Some(counts)) => {
                    return Some(Ok(Recorded::Statistics { counts, accepted: stream.accepted, next: stream.next }))
                }
                Ok(None) => {}
                Err(e) => return Some(Err(e)),
            }
            match part.read_stream(WHOLE_JOB) {
                Ok(_) => current = Some(part),
                Err(e) => return Some(Err(e)),
            }
        }
        match current.as_mut().expect("opened above").next_deal() {
            Ok(Some(d)) => return Some(Ok(Recorded::Deal(RecordedDeal { number: d.number, deal: d.deal, dd: d.dd }))),
            Ok(None) => current = None,
            Err(e) => return Some(Err(e)),
        }
    });
    let generate = i64::try_from(generate).unwrap_or(i64::MAX);
    session.run_recorded(Box::new(deals), generate, merged.seconds)
}

/// Checks that, for every stream, the parts' ranges tile its deal numbers: no gap (a part
/// missing) and no overlap (a part given twice), every part dealing every stream.
fn check_tiling(parts: &[PartIndex]) -> Result<()> {
    let keys: BTreeSet<StreamKey> = parts.iter().flat_map(|p| p.streams.iter().map(|s| s.key)).collect();
    for key in keys {
        let mut ranges = Vec::with_capacity(parts.len());
        for part in parts {
            match part.streams.iter().find(|s| s.key == key) {
                Some(s) => ranges.push((part.path.as_str(), s.first, s.count, s.total)),
                None => return Err(mismatch(format!("{} did not deal all the streams the others dealt", part.path))),
            }
        }
        let gap = |from: u64, to: u64| {
            mismatch(format!("no part deals deal numbers {from} to {}: a part is missing", to.saturating_sub(1)))
        };
        ranges.sort_by_key(|range| range.1);
        let total = ranges[0].3;
        let mut next = 0u64;
        for (k, &(path, first, count, of)) in ranges.iter().enumerate() {
            if of != total {
                return Err(mismatch(format!("{path} cuts {of} deal numbers, the others {total}")));
            }
            if first > next {
                return Err(gap(next, first));
            }
            if first < next {
                let other = ranges[..k].iter().rev().find(|r| r.1 + r.2 > first).expect("an overlap");
                return Err(mismatch(format!(
                    "{} and {path} both deal deal number {first} (a part given twice?)",
                    other.0
                )));
            }
            next = first + count;
        }
        if next != total {
            return Err(gap(next, total));
        }
    }
    Ok(())
}
