//! The part file: what one part of a job cut by deal numbers (see [`super`]) leaves for the
//! merge — the job as given (script, options, the scenarios of a mix), and for each stream of
//! deals the job deals (the job itself; a practice run's hand types and scenarios, each dealt
//! from a seed of its own) the range of deal numbers the part dealt and every deal it accepted,
//! with its number, the hand types it is of and the double-dummy results it solved — in a
//! documented little-endian binary format, written as a stream.
//!
//! ```text
//! magic     "libdealer part\n" (15 bytes), then u32 version (2)
//! header    u32 length + the producing library ("libdealer 0.1.0": parts of one job come
//!           from one version); i64 seed; u32 length + the script's bytes;
//!           u32 count, then each option as given: u32 length + key, u32 length + value;
//!           u32 count, then each scenario of a mix: u32 length + name, u32 length + text,
//!           f64 weight, u8 1 + u64 count of boards (or u8 0)
//! records   'D', u64 deal number, 13 bytes deal (card by card, clubs 2 to spades ace, the
//!           seat holding it in two bits: north 0, east 1, south 2, west 3, lowest bits
//!           first), u32 double-dummy results known (bit 5·declarer + strain: declarers
//!           north 0 to west 3, strains clubs 0, diamonds 1, hearts 2, spades 3, notrump 4),
//!           10 bytes tricks (the 20 results in that order, 4 bits each, low nibble first),
//!           u16 + u16 the first two hand types the deal is of, by index (0xFFFF: none)
//! statistics  (instead of records, for a job whose actions are all statistics of the deal
//!           alone and whose produce limit cannot fall inside it) 'T', u32 count of actions,
//!           then each action's running state: u32 count + that many i64 (`average`: the sum,
//!           the classic 32-bit sum, the sum of squares, the count; `frequency`: below, above,
//!           each value's count; `bktfreq`: each bucket's count)
//! trailer   'E', u32 count of streams, then for each: u32 scenario (0 outside a mix),
//!           u32 hand type dealt directly (0xFFFFFFFF: the scenario as it stands),
//!           u64 first, u64 count (the deal numbers dealt: first..first+count),
//!           u64 total (the stream's deal numbers: the parts' ranges tile 0..total),
//!           i64 quota (the most deals the stream keeps), u64 next (the first deal number
//!           not dealt), u64 accepted, u64 offset of its first record, u64 records,
//!           u64 offset of its statistics (0: none);
//!           f64 seconds; u64 offset of the trailer (the file's last 8 bytes)
//! ```
//!
//! A record is 40 bytes; a part of a billion accepted deals writes 40 GB, unless the job's
//! statistics suffice: then a part is a few hundred bytes whatever its deals. A file without
//! its trailer (a part that failed or was stopped) is refused by the merge.

use std::io::{Read, Seek, SeekFrom, Write};

use crate::cards::{Card, Deal, Hand};
use crate::dd::DealResults;
use crate::error::{Error, ErrorKind, Result};
use crate::job::options::MixScenario;
use crate::practice::stream_dealing::StreamKey;

/// The file's first bytes.
const MAGIC: &[u8; 15] = b"libdealer part\n";
/// The format's version.
pub const VERSION: u32 = 2;
/// A record's tag.
const DEAL: u8 = b'D';
/// A record's length.
const RECORD_LEN: u64 = 40;
/// The trailer's tag.
const END: u8 = b'E';
/// A stream's entry in the trailer.
const STREAM_LEN: u64 = 80;
/// The statistics' tag.
const STATISTICS: u8 = b'T';
/// The most actions, and values per action, statistics are read with.
const MAX_STATISTICS: u32 = 1 << 20;
/// "No hand type" in a record, "the scenario as it stands" in a stream's key.
const NONE_16: u16 = u16::MAX;
const NONE_32: u32 = u32::MAX;
/// The library that writes part files.
pub const PRODUCER: &str = concat!("libdealer ", env!("CARGO_PKG_VERSION"));

/// The job a part belongs to: what every part of a job shares (parts of one job have equal
/// headers).
#[derive(Clone, Debug, PartialEq)]
pub struct PartHeader {
    /// The library that wrote the part.
    pub producer: String,
    /// The job's seed.
    pub seed: i64,
    /// The script as given.
    pub script: Vec<u8>,
    /// The options as given, in order (the part's own range options left out).
    pub options: Vec<(String, String)>,
    /// The scenarios of a mixed board set, in order (empty: none).
    pub mix: Vec<MixScenario>,
}

/// A stream as a part dealt it: its key, its range of deal numbers, how it ended and where its
/// records are.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PartStream {
    /// The stream.
    pub key: StreamKey,
    /// The first deal number the part dealt.
    pub first: u64,
    /// How many deal numbers it dealt from there.
    pub count: u64,
    /// The stream's deal numbers: the parts' ranges tile `0..total`.
    pub total: u64,
    /// The most deals the stream keeps (its produce limit): a part stops once it has as many.
    pub quota: i64,
    /// The first deal number not dealt (the range's end, or one past the deal that reached
    /// the quota).
    pub next: u64,
    /// The deals accepted.
    pub accepted: u64,
    /// Where the stream's records start in the file.
    offset: u64,
    /// How many records it has.
    records: u64,
    /// Where its statistics are, when it has them instead of records.
    statistics: Option<u64>,
}

impl PartStream {
    /// The deal numbers the part was to deal, `first..first + count`.
    pub fn range_end(&self) -> u64 {
        self.first.saturating_add(self.count)
    }

    /// Whether the part recorded the running state of the job's statistics instead of deals.
    pub fn has_statistics(&self) -> bool {
        self.statistics.is_some()
    }

    /// Whether the part dealt the whole range, or stopped at the quota.
    pub fn finished(&self) -> bool {
        self.next == self.range_end() || (self.next < self.range_end() && self.accepted >= self.quota.max(0) as u64)
    }
}

/// One accepted deal of a part.
#[derive(Clone, Debug)]
pub struct PartDeal {
    /// Its deal number in its stream.
    pub number: u64,
    /// The deal.
    pub deal: Deal,
    /// The first two hand types (by index) the deal is of, when it is of any.
    pub hand_types: [Option<u16>; 2],
    /// The double-dummy results the part solved for it.
    pub dd: DealResults,
}

/// Writes a part file.
pub struct PartWriter<W: Write> {
    out: W,
    /// Bytes written so far.
    at: u64,
    /// The streams ended so far.
    streams: Vec<PartStream>,
    /// The stream being written.
    current: Option<PartStream>,
}

impl<W: Write> PartWriter<W> {
    /// Starts a part file on `out` with its header.
    pub fn new(out: W, header: &PartHeader) -> std::io::Result<PartWriter<W>> {
        let mut writer = PartWriter { out, at: 0, streams: Vec::new(), current: None };
        writer.put(MAGIC)?;
        writer.put(&VERSION.to_le_bytes())?;
        writer.put_bytes(header.producer.as_bytes())?;
        writer.put(&header.seed.to_le_bytes())?;
        writer.put_bytes(&header.script)?;
        writer.put(&(header.options.len() as u32).to_le_bytes())?;
        for (key, value) in &header.options {
            writer.put_bytes(key.as_bytes())?;
            writer.put_bytes(value.as_bytes())?;
        }
        writer.put(&(header.mix.len() as u32).to_le_bytes())?;
        for scenario in &header.mix {
            writer.put_bytes(scenario.name.as_bytes())?;
            writer.put_bytes(&scenario.text)?;
            writer.put(&scenario.weight.to_le_bytes())?;
            match scenario.count {
                Some(count) => {
                    writer.put(&[1])?;
                    writer.put(&count.to_le_bytes())?;
                }
                None => writer.put(&[0])?,
            }
        }
        Ok(writer)
    }

    fn put(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.at += bytes.len() as u64;
        self.out.write_all(bytes)
    }

    fn put_bytes(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.put(&(bytes.len() as u32).to_le_bytes())?;
        self.put(bytes)
    }

    /// Starts the records of stream `key`, of which the part deals deal numbers
    /// `first..first + count` of `0..total`, keeping at most `quota` deals.
    pub fn begin_stream(&mut self, key: StreamKey, (first, count): (u64, u64), total: u64, quota: i64) {
        let stream = PartStream {
            key,
            first,
            count,
            total,
            quota,
            next: first,
            accepted: 0,
            offset: self.at,
            records: 0,
            statistics: None,
        };
        self.current = Some(stream);
    }

    /// Writes accepted deal number `number` of the current stream, the first two hand types
    /// it is of, and the double-dummy results solved for it.
    pub fn deal(
        &mut self,
        number: u64,
        deal: &Deal,
        hand_types: [Option<u16>; 2],
        dd: &DealResults,
    ) -> std::io::Result<()> {
        let mut record = [0u8; RECORD_LEN as usize];
        record[0] = DEAL;
        record[1..9].copy_from_slice(&number.to_le_bytes());
        record[9..22].copy_from_slice(&pack_deal(deal));
        let (known, tricks) = dd.known_results();
        record[22..26].copy_from_slice(&known.to_le_bytes());
        for (cell, &t) in tricks.iter().enumerate() {
            record[26 + cell / 2] |= (t & 0xF) << (4 * (cell % 2));
        }
        for (k, hand_type) in hand_types.iter().enumerate() {
            let value = hand_type.filter(|&t| t != NONE_16).unwrap_or(NONE_16);
            record[36 + 2 * k..38 + 2 * k].copy_from_slice(&value.to_le_bytes());
        }
        if let Some(stream) = &mut self.current {
            stream.records += 1;
        }
        self.put(&record)
    }

    /// Writes the running state of each action's statistic over the current stream's accepted
    /// deals (instead of the deals).
    pub fn statistics(&mut self, counts: &[Vec<i64>]) -> std::io::Result<()> {
        if let Some(stream) = &mut self.current {
            stream.statistics = Some(self.at);
        }
        self.put(&[STATISTICS])?;
        self.put(&(counts.len() as u32).to_le_bytes())?;
        for action in counts {
            self.put(&(action.len() as u32).to_le_bytes())?;
            for n in action {
                self.put(&n.to_le_bytes())?;
            }
        }
        Ok(())
    }

    /// Ends the current stream: `next` the first deal number not dealt, `accepted` the deals
    /// accepted.
    pub fn end_stream(&mut self, next: u64, accepted: u64) {
        if let Some(mut stream) = self.current.take() {
            stream.next = next;
            stream.accepted = accepted;
            self.streams.push(stream);
        }
    }

    /// Ends the file with its trailer (the part took `seconds`); the writer.
    pub fn finish(mut self, seconds: f64) -> std::io::Result<W> {
        let trailer = self.at;
        self.put(&[END])?;
        let streams = std::mem::take(&mut self.streams);
        self.put(&(streams.len() as u32).to_le_bytes())?;
        for s in &streams {
            self.put(&s.key.scenario.to_le_bytes())?;
            self.put(&s.key.hand_type.unwrap_or(NONE_32).to_le_bytes())?;
            let statistics = s.statistics.unwrap_or(0);
            for n in [s.first, s.count, s.total, s.quota as u64, s.next, s.accepted, s.offset, s.records, statistics] {
                self.put(&n.to_le_bytes())?;
            }
        }
        self.put(&seconds.to_le_bytes())?;
        self.put(&trailer.to_le_bytes())?;
        self.out.flush()?;
        Ok(self.out)
    }
}

/// The 13 bytes of a deal: each card's seat in two bits, in card order.
fn pack_deal(deal: &Deal) -> [u8; 13] {
    let mut packed = [0u8; 13];
    for ordinal in 0..52 {
        let card = Card::from_ordinal(ordinal);
        let seat = (0..4).find(|&s| deal.0[s].0 & card.bit() != 0).unwrap_or(0) as u8;
        packed[ordinal / 4] |= seat << (2 * (ordinal % 4));
    }
    packed
}

/// The deal of 13 packed bytes; `None` when a seat does not hold 13 cards.
fn unpack_deal(packed: &[u8]) -> Option<Deal> {
    let mut hands = [Hand(0); 4];
    for ordinal in 0..52 {
        let seat = (packed[ordinal / 4] >> (2 * (ordinal % 4)) & 3) as usize;
        hands[seat].0 |= Card::from_ordinal(ordinal).bit();
    }
    hands.iter().all(|h| h.0.count_ones() == 13).then_some(Deal(hands))
}

/// Reads a part file: its header and its trailer (read first: a part that did not finish is
/// refused before any deal is read), then the deals of one stream at a time.
pub struct PartReader<R: Read + Seek> {
    input: R,
    /// The file's name, for errors.
    name: String,
    /// The header.
    pub header: PartHeader,
    /// The streams, in the order the part dealt them.
    streams: Vec<PartStream>,
    /// The part's wall-clock seconds.
    seconds: f64,
    /// The stream being read, and the records of it left.
    reading: Option<(usize, u64)>,
}

impl<R: Read + Seek> PartReader<R> {
    /// Reads the header and the trailer of the part file `name` from `input`.
    pub fn new(mut input: R, name: &str) -> Result<PartReader<R>> {
        let bad = |what: &str| corrupt(name, what);
        let mut magic = [0u8; 15];
        input.read_exact(&mut magic).map_err(|_| bad("it is not a libdealer part file"))?;
        if &magic != MAGIC {
            return Err(bad("it is not a libdealer part file"));
        }
        let version = read_u32(&mut input).map_err(|_| bad("it ends in its header"))?;
        if version != VERSION {
            return Err(bad(&format!(
                "format version {version}; this libdealer reads version {VERSION} (deal the parts again with it)"
            )));
        }
        let header = read_header(&mut input).map_err(|_| bad("it ends in its header"))?;
        let unfinished = || bad("it has no end: the part did not finish");
        let records_start = input.stream_position().map_err(|_| unfinished())?;
        let len = input.seek(SeekFrom::End(0)).map_err(|_| unfinished())?;
        let trailer = (|| -> std::io::Result<Option<(Vec<PartStream>, f64)>> {
            input.seek(SeekFrom::End(-8))?;
            let at = read_u64(&mut input)?;
            if at < records_start || at >= len {
                return Ok(None);
            }
            input.seek(SeekFrom::Start(at))?;
            let mut tag = [0u8; 1];
            input.read_exact(&mut tag)?;
            let n = u64::from(read_u32(&mut input)?);
            if tag[0] != END || at + 1 + 4 + n * STREAM_LEN + 16 != len {
                return Ok(None);
            }
            let mut streams = Vec::with_capacity(n as usize);
            for _ in 0..n {
                let scenario = read_u32(&mut input)?;
                let hand_type = Some(read_u32(&mut input)?).filter(|&t| t != NONE_32);
                let mut v = [0u64; 9];
                for x in &mut v {
                    *x = read_u64(&mut input)?;
                }
                let [first, count, total, quota, next, accepted, offset, records, statistics] = v;
                let statistics = Some(statistics).filter(|&at| at != 0);
                let stream = PartStream {
                    key: StreamKey { scenario, hand_type },
                    first,
                    count,
                    total,
                    quota: quota as i64,
                    next,
                    accepted,
                    offset,
                    records,
                    statistics,
                };
                let inside = records
                    .checked_mul(RECORD_LEN)
                    .and_then(|bytes| offset.checked_add(bytes))
                    .is_some_and(|end| offset >= records_start && end <= at);
                let statistics_inside = statistics.is_none_or(|s| s >= records_start && s < at);
                let counted = records == accepted || (statistics.is_some() && records == 0);
                if !inside || !statistics_inside || !counted {
                    return Ok(None);
                }
                streams.push(stream);
            }
            let seconds = f64::from_le_bytes(read_u64(&mut input)?.to_le_bytes());
            Ok(Some((streams, seconds)))
        })()
        .ok()
        .flatten()
        .ok_or_else(unfinished)?;
        let (streams, seconds) = trailer;
        Ok(PartReader { input, name: name.to_string(), header, streams, seconds, reading: None })
    }

    /// The streams the part dealt, in the order it dealt them.
    pub fn streams(&self) -> &[PartStream] {
        &self.streams
    }

    /// The part's wall-clock seconds.
    pub fn seconds(&self) -> f64 {
        self.seconds
    }

    /// Starts reading the deals of stream `key` ([`next_deal`](Self::next_deal)); `false` when
    /// the part has no such stream.
    pub fn read_stream(&mut self, key: StreamKey) -> Result<bool> {
        let Some(index) = self.streams.iter().position(|s| s.key == key) else {
            self.reading = None;
            return Ok(false);
        };
        let stream = self.streams[index];
        self.input.seek(SeekFrom::Start(stream.offset)).map_err(|_| corrupt(&self.name, "it ends in a deal"))?;
        self.reading = Some((index, stream.records));
        Ok(true)
    }

    /// The running state of each action's statistic the part recorded for stream `key`
    /// instead of its deals; `None` when it recorded deals.
    pub fn read_statistics(&mut self, key: StreamKey) -> Result<Option<Vec<Vec<i64>>>> {
        let Some(at) = self.streams.iter().find(|s| s.key == key).and_then(|s| s.statistics) else {
            return Ok(None);
        };
        let bad = || corrupt(&self.name, "its statistics are damaged");
        let input = &mut self.input;
        let counts = (|| -> std::io::Result<Option<Vec<Vec<i64>>>> {
            input.seek(SeekFrom::Start(at))?;
            let mut tag = [0u8; 1];
            input.read_exact(&mut tag)?;
            let actions = read_u32(input)?;
            if tag[0] != STATISTICS || actions > MAX_STATISTICS {
                return Ok(None);
            }
            let mut counts = Vec::with_capacity(actions as usize);
            for _ in 0..actions {
                let n = read_u32(input)?;
                if n > MAX_STATISTICS {
                    return Ok(None);
                }
                counts.push((0..n).map(|_| read_u64(input).map(|v| v as i64)).collect::<std::io::Result<Vec<i64>>>()?);
            }
            Ok(Some(counts))
        })()
        .ok()
        .flatten()
        .ok_or_else(bad)?;
        self.reading = None;
        Ok(Some(counts))
    }

    /// The next accepted deal of the stream being read; `None` after its last one.
    pub fn next_deal(&mut self) -> Result<Option<PartDeal>> {
        let Some((index, left)) = self.reading.filter(|(_, left)| *left > 0) else { return Ok(None) };
        self.reading = Some((index, left - 1));
        let mut record = [0u8; RECORD_LEN as usize];
        self.input.read_exact(&mut record).map_err(|_| corrupt(&self.name, "it ends in a deal"))?;
        if record[0] != DEAL {
            return Err(corrupt(&self.name, "a record of an unknown kind"));
        }
        let number = u64::from_le_bytes(record[1..9].try_into().expect("8 bytes"));
        let deal = unpack_deal(&record[9..22]).ok_or_else(|| corrupt(&self.name, "a deal is not a deal"))?;
        let known = u32::from_le_bytes(record[22..26].try_into().expect("4 bytes"));
        let tricks: [u8; 20] = std::array::from_fn(|cell| record[26 + cell / 2] >> (4 * (cell % 2)) & 0xF);
        let hand_types: [Option<u16>; 2] = std::array::from_fn(|k| {
            Some(u16::from_le_bytes(record[36 + 2 * k..38 + 2 * k].try_into().expect("2 bytes")))
                .filter(|&t| t != NONE_16)
        });
        let stream = &self.streams[index];
        let in_range = (stream.first..stream.next).contains(&number);
        if !in_range || known >> 20 != 0 || tricks.iter().any(|&t| t > 13) {
            return Err(corrupt(&self.name, &format!("deal number {number} is out of its range or damaged")));
        }
        Ok(Some(PartDeal { number, deal, hand_types, dd: DealResults::from_known(known, tricks) }))
    }
}

/// Reads the header after the version.
fn read_header(input: &mut impl Read) -> std::io::Result<PartHeader> {
    let text = |input: &mut dyn Read| -> std::io::Result<String> {
        String::from_utf8(read_bytes(input)?).map_err(std::io::Error::other)
    };
    let producer = text(input)?;
    let seed = read_u64(input)? as i64;
    let script = read_bytes(input)?;
    let mut options = Vec::new();
    for _ in 0..read_u32(input)? {
        options.push((text(input)?, text(input)?));
    }
    let mut mix = Vec::new();
    for _ in 0..read_u32(input)? {
        let name = text(input)?;
        let text = read_bytes(input)?;
        let weight = f64::from_le_bytes(read_u64(input)?.to_le_bytes());
        let mut has_count = [0u8; 1];
        input.read_exact(&mut has_count)?;
        let count = match has_count[0] {
            0 => None,
            _ => Some(read_u64(input)?),
        };
        mix.push(MixScenario { name, text, weight, count });
    }
    Ok(PartHeader { producer, seed, script, options, mix })
}

/// The error for a part file that cannot be read as one.
fn corrupt(name: &str, what: &str) -> Error {
    Error::new(ErrorKind::Io, format!("part file {name}: {what}"))
}

fn read_u32(input: &mut (impl Read + ?Sized)) -> std::io::Result<u32> {
    let mut b = [0u8; 4];
    input.read_exact(&mut b)?;
    Ok(u32::from_le_bytes(b))
}

fn read_u64(input: &mut (impl Read + ?Sized)) -> std::io::Result<u64> {
    let mut b = [0u8; 8];
    input.read_exact(&mut b)?;
    Ok(u64::from_le_bytes(b))
}

fn read_bytes(input: &mut (impl Read + ?Sized)) -> std::io::Result<Vec<u8>> {
    let n = read_u32(input)? as usize;
    if n > 64 << 20 {
        return Err(std::io::Error::other("too long"));
    }
    let mut bytes = vec![0u8; n];
    input.read_exact(&mut bytes)?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dealing::{Dealer, DealingSetup};

    #[test]
    fn a_part_file_reads_back_what_was_written() {
        let header = PartHeader {
            producer: PRODUCER.into(),
            seed: -7,
            script: b"condition hcp(north) > 20\naction printoneline\n".to_vec(),
            options: vec![("title".into(), "A title, with spaces".into()), ("produce".into(), "40".into())],
            mix: vec![
                MixScenario { name: "a.dlr".into(), text: b"produce 3".to_vec(), weight: 1.5, count: None },
                MixScenario { name: "b.dlr".into(), text: Vec::new(), weight: 1.0, count: Some(9) },
            ],
        };
        let mut dealer = Dealer::new(&DealingSetup::default()).unwrap();
        let mut writer = PartWriter::new(Vec::new(), &header).unwrap();
        let keys = [StreamKey { scenario: 0, hand_type: None }, StreamKey { scenario: 1, hand_type: Some(3) }];
        let mut deals = Vec::new();
        for (s, key) in keys.iter().enumerate() {
            writer.begin_stream(*key, (1000, 500), 4000, 40);
            for k in 0..25u64 {
                let deal = dealer.deal().unwrap();
                let tricks: [u8; 20] = std::array::from_fn(|c| ((c as u64 + k) % 14) as u8);
                let dd = DealResults::from_known(if k % 2 == 0 { (1 << 20) - 1 } else { 0b101 }, tricks);
                let hand_types = [Some(k as u16 % 3), (k == 4).then_some(7)];
                let record = (s, PartDeal { number: 1000 + 3 * k, deal, hand_types, dd });
                writer.deal(record.1.number, &record.1.deal, record.1.hand_types, &record.1.dd).unwrap();
                deals.push(record);
            }
            writer.end_stream(1500, 25);
        }
        let counted = StreamKey { scenario: 0, hand_type: Some(0) };
        writer.begin_stream(counted, (0, 1000), 4000, 4000);
        let counts = vec![vec![10, 10, 70, 7], vec![0, 1, 2, 3, 4]];
        writer.statistics(&counts).unwrap();
        writer.end_stream(1000, 7);
        let bytes = writer.finish(1.25).unwrap();
        let mut reader = PartReader::new(std::io::Cursor::new(bytes.as_slice()), "p").unwrap();
        assert_eq!(reader.header, header);
        assert_eq!(reader.seconds(), 1.25);
        assert_eq!(reader.streams().len(), 3);
        assert!(reader.streams()[..2].iter().all(|s| s.finished() && s.accepted == 25 && s.total == 4000));
        assert_eq!(reader.read_statistics(counted).unwrap(), Some(counts));
        assert!(reader.streams()[2].has_statistics() && !reader.streams()[0].has_statistics());
        assert_eq!(reader.read_statistics(keys[0]).unwrap(), None);
        assert!(!reader.read_stream(StreamKey { scenario: 2, hand_type: None }).unwrap());
        // Streams read in any order.
        for s in [1, 0] {
            assert!(reader.read_stream(keys[s]).unwrap());
            for (_, expected) in deals.iter().filter(|(t, _)| *t == s) {
                let read = reader.next_deal().unwrap().unwrap();
                assert_eq!(
                    (read.number, read.deal, read.hand_types),
                    (expected.number, expected.deal, expected.hand_types)
                );
                assert_eq!(read.dd.known_results(), expected.dd.known_results());
            }
            assert!(reader.next_deal().unwrap().is_none());
        }
        // Cut anywhere, the file is refused with its name.
        for cut in [3, 40, 150, bytes.len() - 5, bytes.len() - 30, bytes.len() - 200] {
            let refused = PartReader::new(std::io::Cursor::new(&bytes[..cut]), "cut.part").and_then(|mut r| {
                for key in keys {
                    r.read_stream(key)?;
                    while r.next_deal()?.is_some() {}
                }
                Ok(())
            });
            let e = refused.unwrap_err().to_string();
            assert!(e.contains("part file cut.part"), "{cut}: {e}");
        }
    }
}
