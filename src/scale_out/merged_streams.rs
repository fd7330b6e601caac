//! A practice run's streams read back from the part files of a job (see
//! [`crate::practice::stream_dealing`]): each stream's accepted deals taken from the parts in
//! deal order, as one run dealing the stream within its budget would have taken them — the
//! first `quota` of those numbered below the budget — so that the levelled set, the mix or
//! the classified run put together from them is the one run's.

use std::fs::File;
use std::io::BufReader;

use crate::error::{Error, ErrorKind, Result};
use crate::job::{RunReport, Session};
use crate::practice::natural_shares::classify;
use crate::practice::stream_dealing::{deliver_to_actions, Classified, Delivery, Stream, StreamDealing};
use crate::scale_out::part_file::{PartReader, PartStream};

/// A part file being read.
pub type Part = PartReader<BufReader<File>>;

/// Opens the part file `path` and reads its header and trailer.
pub fn open(path: &str) -> Result<Part> {
    let file =
        File::open(path).map_err(|e| Error::new(ErrorKind::Io, format!("cannot read the part file {path}: {e}")))?;
    PartReader::new(BufReader::new(file), path)
}

/// What the merge keeps of each part between checking it and reading its deals: its file and
/// its streams (a part's file is open only while it is read).
pub struct PartIndex {
    /// The part file.
    pub path: String,
    /// Its streams.
    pub streams: Vec<PartStream>,
}

/// The streams of a job's parts, read back.
pub struct MergedStreams {
    /// The parts, checked to make one job.
    pub parts: Vec<PartIndex>,
    /// The parts' seconds, counted into the report's time.
    pub seconds: f64,
}

impl StreamDealing for MergedStreams {
    fn deal(&mut self, stream: Stream) -> Result<Classified> {
        let quota = stream.options.produce.unwrap_or(0).max(0) as usize;
        let budget = stream.options.generate.unwrap_or(0).max(0) as u64;
        let dealt = |p: &PartIndex| p.streams.iter().find(|s| s.key == stream.key).copied();
        if let Some(part) = self.parts.iter().find(|p| dealt(p).is_some_and(|s| s.has_statistics())) {
            return Err(Error::new(ErrorKind::Io, format!("part file {}: statistics where deals belong", part.path)));
        }
        let mut holders: Vec<(&str, u64)> =
            self.parts.iter().filter_map(|p| dealt(p).map(|s| (p.path.as_str(), s.first))).collect();
        if holders.is_empty() {
            return Err(Error::new(
                ErrorKind::Usage,
                format!("the parts do not make one job: no part dealt its stream {:?}", stream.key),
            ));
        }
        holders.sort_by_key(|(_, first)| *first);
        let mut classified = Classified::default();
        let mut values = vec![0i32; stream.types.types.len()];
        'parts: for (path, _) in holders {
            let mut part = open(path)?;
            part.read_stream(stream.key)?;
            while classified.deals.len() < quota {
                let Some(d) = part.next_deal()? else { break };
                if d.number >= budget {
                    break 'parts;
                }
                values.iter_mut().for_each(|v| *v = 0);
                for t in d.hand_types.iter().flatten() {
                    if let Some(v) = values.get_mut(usize::from(*t)) {
                        *v = 1;
                    }
                }
                classified.types.push(classify(stream.types, &values, &d.deal)?);
                classified.deals.push(d.deal);
                classified.dd.push(d.dd);
                classified.generated = d.number as i64 + 1;
            }
            if classified.deals.len() >= quota {
                break;
            }
        }
        if classified.deals.len() < quota {
            // The budget ran out first: the stream dealt every number of it.
            classified.generated = budget as i64;
        }
        Ok(classified)
    }

    fn deliver(&mut self, session: &mut Session, mut delivery: Delivery) -> Result<RunReport> {
        delivery.boards.seconds_before = self.seconds;
        deliver_to_actions(session, delivery)
    }
}
