//! A part's streams of deals: each stream a job deals (the job itself, or a practice run's
//! hand types and scenarios, see [`crate::practice::stream_dealing`]) dealt over the part's
//! range of its deal numbers, and its accepted deals written to the part file with the hand
//! types they are of and their double-dummy results. A part cannot know how many deal numbers
//! the streams before a stream used (the merge does), so it deals each stream's share of all
//! the deal numbers the stream could use, keeping at most the stream's quota.

use std::fs::File;
use std::io::BufWriter;

use crate::error::{Error, ErrorKind, Result};
use crate::job::deal_ranges::{not_in_parts, DealtRange};
use crate::job::options::PartRange;
use crate::job::report::Ceiling;
use crate::job::{Interrupter, RunReport, Session};
use crate::practice::hand_types::HandTypes;
use crate::practice::stream_dealing::{Classified, Delivery, Stream, StreamDealing, StreamKey};
use crate::scale_out::part_file::PartWriter;

/// The stream of a job that is not a practice run: the job itself.
pub const WHOLE_JOB: StreamKey = StreamKey { scenario: 0, hand_type: None };

/// The deal numbers a part deals, `first..first + count`, of a stream of `total` deal numbers.
pub fn deal_numbers(range: PartRange, total: u64) -> Result<(u64, u64)> {
    match range {
        PartRange::Share { index, parts } => {
            // Equal ranges, the remainder spread over the first parts: range k starts at
            // k·G/N (rounded down), so the ranges tile 0..G whatever N.
            let start = |k: u64| (u128::from(k) * u128::from(total) / u128::from(parts)) as u64;
            Ok((start(index), start(index + 1) - start(index)))
        }
        PartRange::Deals { first, count } => {
            if first.checked_add(count).is_none_or(|end| end > total) {
                return Err(Error::new(
                    ErrorKind::Option,
                    format!("option deals: {first}:{count} goes past the job's {total} deals (its generate count)"),
                ));
            }
            Ok((first, count))
        }
    }
}

/// The streams of one part, written to its part file as they are dealt.
pub struct PartStreams {
    /// The part file.
    pub writer: PartWriter<BufWriter<File>>,
    /// Its name, for errors.
    pub path: String,
    /// The part's range of each stream's deal numbers.
    pub range: PartRange,
    /// Interrupts the streams' jobs.
    pub interrupter: Interrupter,
    /// The deal numbers dealt and the deals accepted, over all streams.
    pub dealt: (u64, u64),
    /// The ceiling that stopped a stream early, if one did (the merge refuses the part).
    pub ceiling: Option<Ceiling>,
}

impl PartStreams {
    /// The error for a part file that cannot be written.
    fn io(&self, e: std::io::Error) -> Error {
        Error::new(ErrorKind::Io, format!("cannot write the part file {}: {e}", self.path))
    }

    /// Deals the part's range of stream `key`, the job loaded in `session` (whose generate
    /// count is the stream's deal numbers, whose produce limit its quota), classifying each
    /// accepted deal by `types`.
    pub fn deal_stream(&mut self, session: &mut Session, key: StreamKey, types: &HandTypes) -> Result<()> {
        if types.types.len() >= usize::from(u16::MAX) {
            return Err(not_in_parts(&format!(
                "a part file names at most {} hand types (the script declares {})",
                u16::MAX - 1,
                types.types.len()
            )));
        }
        let ids: Vec<u32> =
            types.types.iter().map(|t| session.compile_expression(&t.variable)).collect::<Result<_>>()?;
        let (first, count) = self.begin(session, key)?;
        let writer = &mut self.writer;
        let mut failed = None;
        let mut write = |number: u64, deal: &crate::cards::Deal, values: &[i32], dd: &crate::dd::DealResults| {
            let mut matched = values.iter().enumerate().filter(|(_, v)| **v != 0).map(|(i, _)| i as u16);
            writer.deal(number, deal, [matched.next(), matched.next()], dd).map_err(|e| {
                failed = Some(e);
                Error::new(ErrorKind::Io, "the part file")
            })
        };
        let dealt = session.deal_range((first, count), &ids, &mut write);
        if let Some(e) = failed {
            return Err(self.io(e));
        }
        self.end(first, dealt?);
        Ok(())
    }

    /// Deals the part's range of the job loaded in `session`, which is not a practice run:
    /// the running state of its statistics when they suffice (see
    /// [`Session::statistics_suffice`]), else its accepted deals.
    pub fn deal_whole_job(&mut self, session: &mut Session) -> Result<()> {
        if !session.statistics_suffice()? {
            return self.deal_stream(session, WHOLE_JOB, &HandTypes::default());
        }
        let (first, count) = self.begin(session, WHOLE_JOB)?;
        let (dealt, counts) = session.deal_range_statistics((first, count))?;
        self.writer.statistics(&counts).map_err(|e| self.io(e))?;
        self.end(first, dealt);
        Ok(())
    }

    /// Starts writing stream `key`, the job loaded in `session` (its generate count the stream's
    /// deal numbers, its produce limit the quota); the part's range of its deal numbers.
    fn begin(&mut self, session: &Session, key: StreamKey) -> Result<(u64, u64)> {
        let (generate, produce) = session.run_limits()?;
        let total = generate.max(0) as u64;
        let range = deal_numbers(self.range, total)?;
        self.writer.begin_stream(key, range, total, produce);
        Ok(range)
    }

    /// Ends the stream being written, `dealt` from deal number `first`.
    fn end(&mut self, first: u64, dealt: DealtRange) {
        self.writer.end_stream(dealt.next, dealt.accepted);
        self.dealt.0 += dealt.next - first;
        self.dealt.1 += dealt.accepted;
        self.ceiling = self.ceiling.or(dealt.ceiling);
    }

    /// The part's report: the deal numbers dealt and the deals accepted, over all streams.
    pub fn report(&self, seed: i64) -> RunReport {
        RunReport {
            generated: self.dealt.0 as i64,
            produced: self.dealt.1 as i64,
            seed: seed as u64,
            timed_out: false,
            ceiling: self.ceiling,
        }
    }
}

impl StreamDealing for PartStreams {
    /// Deals the part's range of the stream; the practice run sees no deals (and all of its
    /// budget left for the streams after it: each is dealt over all it could use).
    fn deal(&mut self, stream: Stream) -> Result<Classified> {
        let mut session = Session::with_program(stream.options, stream.program, stream.text, self.interrupter.clone());
        self.deal_stream(&mut session, stream.key, stream.types)?;
        Ok(Classified::default())
    }

    /// Nothing is printed by a part.
    fn deliver(&mut self, _session: &mut Session, delivery: Delivery) -> Result<RunReport> {
        Ok(self.report(delivery.seed))
    }
}
