//! Dealing one part of a job: the deal numbers the `part` (`K/N`: the `K`-th of `N` equal
//! ranges, from 0) or `deals` (`FIRST:COUNT`) option names, dealt and judged as one run deals
//! them, the accepted deals written to the `part_file` with the double-dummy results their
//! actions read (see [`super::part_file`]). A practice run (a levelled set, a mix, a run
//! classified by hand type) deals the part's range of each of its streams (see
//! [`super::part_streams`]); a job whose actions are all statistics of the deal alone, with no
//! produce limit inside it, records their running state instead of its deals. Nothing else is written: the actions run when the parts are merged.

use std::io::BufWriter;

use crate::clock::Instant;
use crate::error::{Error, ErrorKind, Result};
use crate::job::deal_ranges::not_in_parts;
use crate::job::{RunReport, Session};
use crate::practice::PracticeRun;
use crate::scale_out::part_file::{PartHeader, PartWriter, PRODUCER};
use crate::scale_out::part_streams::PartStreams;

/// Deals the part of the job the session's options name and writes its part file; the report
/// counts the part's deals (the deal numbers dealt, the deals accepted, over its streams).
pub fn run_part(session: &mut Session) -> Result<RunReport> {
    let started = Instant::now();
    let options = session.options().clone();
    let range = options.scale_out.range.expect("called for a part");
    let Some(path) = options.scale_out.part_file.clone() else {
        return Err(not_in_parts("a part writes its part file: give one (--part-file)"));
    };
    let practice = PracticeRun::of(session)?;
    if let PracticeRun::WriteLeveled(_) = practice {
        return Err(not_in_parts("--write-leveled measures the scenario and writes a script: run it once"));
    }
    let Some(seed) = session.fixed_seed() else {
        return Err(not_in_parts("every part must deal with the same seed: give one (-s SEED)"));
    };
    let header = PartHeader {
        producer: PRODUCER.to_string(),
        seed,
        script: session.script_text().to_vec(),
        options: options.given.clone(),
        mix: session.mix_scenarios().to_vec(),
    };
    let io = |e: std::io::Error| Error::new(ErrorKind::Io, format!("cannot write the part file {path}: {e}"));
    let file = std::fs::File::create(&path).map_err(io)?;
    let writer = PartWriter::new(BufWriter::new(file), &header).map_err(io)?;
    let mut part = PartStreams {
        writer,
        path: path.clone(),
        range,
        interrupter: session.interrupter(),
        dealt: (0, 0),
        ceiling: None,
    };
    let report = match practice.deal_with(session, &mut part) {
        Some(report) => report?,
        None => {
            part.deal_whole_job(session)?;
            part.report(seed)
        }
    };
    part.writer.finish(started.elapsed().as_secs_f64()).map_err(io)?;
    Ok(report)
}
