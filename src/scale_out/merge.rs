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

/// What the merge keeps of each part between checking it and reading its deals: its file and
/// range (a part's file is open only while it is read, so any number of parts can be merged).
struct PartSpan {
    path: String,
    first: u64,
    count: u64,
}

/// The error for parts that do not make one job.
fn mismatch(why: String) -> Error {
    Error::new(ErrorKind::Usage, format!("the parts do not make one job: {why}"))
}

/// Opens the part file `path` and reads its header and end.
fn open(path: &str) -> Result<Part> {
    let file =
        File::open(path).map_err(|e| Error::new(ErrorKind::Io, format!("cannot read the part file {path}: {e}")))?;
    PartReader::new(BufReader::new(file), path)
}

/// Merges the part files `paths` (in any order) into `session`: the job's script and options
/// are loaded from them (set over the session's own; its output streams stay), and its actions
/// run on the parts' deals in deal order, writing what one run of the job writes. Memory and
/// open files do not grow with the deals, nor the files open with the parts.
pub fn merge(session: &mut Session, paths: &[String]) -> Result<RunReport> {
    let Some(first_path) = paths.first() else {
        return Err(Error::new(ErrorKind::Usage, "merge: no part file given"));
    };
    let job = open(first_path)?.header;
    let mut ranges = Vec::with_capacity(paths.len());
    let mut seconds = 0.0;
    for path in paths {
        let part = open(path)?;
        if !part.header.same_job(&job) {
            return Err(mismatch(format!(
                "{first_path} and {path} are parts of different jobs (their script, options or seed differ)"
            )));
        }
        let (first, count) = (part.header.first, part.header.count);
        let end = part.end();
        let produce_reached = end.accepted >= u64::try_from(job.produce).unwrap_or(0);
        let range_end = first.saturating_add(count);
        if end.next > range_end || (end.next < range_end && !produce_reached) {
            return Err(Error::new(
                ErrorKind::Io,
                format!(
                    "part file {path}: it stopped at deal number {} of {first} to {} (a ceiling or an error stopped the part)",
                    end.next,
                    range_end.saturating_sub(1)
                ),
            ));
        }
        seconds += end.seconds;
        ranges.push(PartSpan { path: path.clone(), first, count });
    }
    check_tiling(&mut ranges, job.generate)?;
    for (key, value) in &job.options {
        session.set_option(key, value)?;
    }
    session.set_seed(Some(job.seed));
    session.load_script(&job.script)?;
    let mut ranges = ranges.into_iter();
    let mut current: Option<Part> = None;
    let deals = std::iter::from_fn(move || loop {
        if current.is_none() {
            let next = ranges.next()?;
            match open(&next.path) {
                Ok(part) => current = Some(part),
                Err(e) => return Some(Err(e)),
            }
        }
        match current.as_mut().expect("opened above").next_deal() {
            Ok(Some(d)) => return Some(Ok(RecordedDeal { number: d.number, deal: d.deal, dd: d.dd })),
            Ok(None) => current = None,
            Err(e) => return Some(Err(e)),
        }
    });
    let generate = i64::try_from(job.generate).unwrap_or(i64::MAX);
    session.run_recorded(Box::new(deals), generate, seconds)
}

/// Sorts the parts' ranges in deal order and checks that they tile `0..generate`: no gap (a
/// part missing) and no overlap (a part given twice).
fn check_tiling(ranges: &mut [PartSpan], generate: u64) -> Result<()> {
    let gap = |from: u64, to: u64| {
        mismatch(format!("no part deals deal numbers {from} to {}: a part is missing", to.saturating_sub(1)))
    };
    ranges.sort_by_key(|range| range.first);
    let mut next = 0u64;
    for (k, range) in ranges.iter().enumerate() {
        if range.first > next {
            return Err(gap(next, range.first));
        }
        if range.first < next {
            let other = ranges[..k].iter().rev().find(|r| r.first + r.count > range.first).expect("an overlap");
            return Err(mismatch(format!(
                "{} and {} both deal deal number {} (a part given twice?)",
                other.path, range.path, range.first
            )));
        }
        next = range.first + range.count;
    }
    match next == generate {
        true => Ok(()),
        false => Err(gap(next, generate)),
    }
}
