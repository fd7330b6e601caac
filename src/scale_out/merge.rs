//! Merging the parts of a job (see [`super`]): the part files are checked to make one job —
//! each file whole, the same script, options and seed, their ranges of deal numbers tiling
//! the job's without a gap or an overlap — before anything is written; then they are read in
//! deal order, one deal at a time, and the job's actions run on their deals as one run of the
//! job would have run them.

use std::fs::File;
use std::io::BufReader;

use crate::error::{Error, ErrorKind, Result};
use crate::job::deal_ranges::RecordedDeal;
use crate::job::{RunReport, Session};
use crate::scale_out::part_file::PartReader;

/// A part file being read.
type Part = PartReader<BufReader<File>>;

/// The error for parts that do not make one job.
fn mismatch(why: String) -> Error {
    Error::new(ErrorKind::Usage, format!("the parts do not make one job: {why}"))
}

/// Merges the part files `paths` (in any order) into `session`: the job's script and options
/// are loaded from them (set over the session's own; its output streams stay), and its actions
/// run on the parts' deals in deal order, writing what one run of the job writes.
pub fn merge(session: &mut Session, paths: &[String]) -> Result<RunReport> {
    if paths.is_empty() {
        return Err(Error::new(ErrorKind::Usage, "merge: no part file given"));
    }
    let mut parts = Vec::with_capacity(paths.len());
    for path in paths {
        let file = File::open(path)
            .map_err(|e| Error::new(ErrorKind::Io, format!("cannot read the part file {path}: {e}")))?;
        parts.push(PartReader::new(BufReader::new(file), path)?);
    }
    check_one_job(&mut parts)?;
    let job = parts[0].header.clone();
    let seconds: f64 = parts.iter().map(|part| part.end().seconds).sum();
    for (key, value) in &job.options {
        session.set_option(key, value)?;
    }
    session.set_seed(Some(job.seed));
    session.load_script(&job.script)?;
    let mut parts = parts.into_iter();
    let mut current = parts.next();
    let deals = std::iter::from_fn(move || loop {
        let part = current.as_mut()?;
        match part.next_deal() {
            Ok(Some(d)) => return Some(Ok(RecordedDeal { number: d.number, deal: d.deal, dd: d.dd })),
            Ok(None) => current = parts.next(),
            Err(e) => return Some(Err(e)),
        }
    });
    let generate = i64::try_from(job.generate).unwrap_or(i64::MAX);
    session.run_recorded(Box::new(deals), generate, seconds)
}

/// Checks that `parts` make one job and sorts them in deal order: the same script, options
/// and seed; ranges tiling `0..generate`; each part dealt to its range's end, or stopped
/// there by the produce limit.
fn check_one_job(parts: &mut [Part]) -> Result<()> {
    let job = parts[0].header.clone();
    for part in &parts[1..] {
        if !part.header.same_job(&job) {
            return Err(mismatch(format!(
                "{} and {} are parts of different jobs (their script, options or seed differ)",
                parts[0].name(),
                part.name()
            )));
        }
    }
    parts.sort_by_key(|part| part.header.first);
    let mut next = 0u64;
    for (k, part) in parts.iter().enumerate() {
        let (first, end) = (part.header.first, part.header.first.saturating_add(part.header.count));
        if first > next {
            return Err(mismatch(format!("no part deals deal numbers {next} to {}: a part is missing", first - 1)));
        }
        if first < next {
            let other = parts[..k].iter().rev().find(|p| p.header.first + p.header.count > first).expect("an overlap");
            return Err(mismatch(format!(
                "{} and {} both deal deal number {first} (a part given twice?)",
                other.name(),
                part.name()
            )));
        }
        let stopped = part.end();
        let produce_reached = stopped.accepted >= u64::try_from(job.produce).unwrap_or(0);
        if stopped.next > end || (stopped.next < end && !produce_reached) {
            return Err(Error::new(
                ErrorKind::Io,
                format!(
                    "part file {}: it stopped at deal number {} of {first} to {} (a ceiling or an error stopped the part)",
                    part.name(),
                    stopped.next,
                    end - 1
                ),
            ));
        }
        next = end;
    }
    if next != job.generate {
        return Err(mismatch(format!(
            "no part deals deal numbers {next} to {}: a part is missing",
            job.generate.saturating_sub(1)
        )));
    }
    Ok(())
}
