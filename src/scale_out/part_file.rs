//! The part file: what one part of a job cut by deal numbers (see [`super`]) leaves for the
//! merge — the job as given (script and options), the range of deal numbers it dealt, and
//! every deal it accepted with its number and the double-dummy results it solved — in a
//! documented little-endian binary format, read and written as a stream.
//!
//! ```text
//! magic     "libdealer part\n" (15 bytes), then u32 version (1)
//! header    i64 seed; u64 first, u64 count (the deal numbers dealt: first..first+count);
//!           u64 generate (the job's generate count: the parts' ranges tile 0..generate);
//!           i64 produce (the job's produce limit);
//!           u32 length + the script's bytes;
//!           u32 count, then each option as given: u32 length + key, u32 length + value
//! records   'D', u64 deal number, 13 bytes deal (card by card, clubs 2 to spades ace, the
//!           seat holding it in two bits: north 0, east 1, south 2, west 3, lowest bits
//!           first), u32 double-dummy results known (bit 5·declarer + strain: declarers
//!           north 0 to west 3, strains clubs 0, diamonds 1, hearts 2, spades 3, notrump 4),
//!           10 bytes tricks (the 20 results in that order, 4 bits each, low nibble first)
//! trailer   'E', u64 the first deal number not dealt, u64 deals accepted, f64 seconds
//! ```
//!
//! A record is 36 bytes; a part of a billion accepted deals writes 36 GB. A file without its
//! trailer (a part that failed or was stopped) is refused by the merge.

use std::io::{Read, Seek, SeekFrom, Write};

use crate::cards::{Card, Deal, Hand};
use crate::dd::DealResults;
use crate::error::{Error, ErrorKind, Result};

/// The file's first bytes.
const MAGIC: &[u8; 15] = b"libdealer part\n";
/// The format's version.
pub const VERSION: u32 = 1;
/// A record's tag.
const DEAL: u8 = b'D';
/// A record's length.
const RECORD_LEN: u64 = 36;
/// The trailer's tag.
const END: u8 = b'E';

/// The job a part belongs to and the deals it dealt: what every part of a job shares, and
/// its range.
#[derive(Clone, Debug, PartialEq)]
pub struct PartHeader {
    /// The job's seed.
    pub seed: i64,
    /// The first deal number the part dealt.
    pub first: u64,
    /// How many deal numbers it dealt from there.
    pub count: u64,
    /// The job's generate count: the parts' ranges tile `0..generate`.
    pub generate: u64,
    /// The job's produce limit.
    pub produce: i64,
    /// The script as given.
    pub script: Vec<u8>,
    /// The options as given, in order (the part's own range options left out).
    pub options: Vec<(String, String)>,
}

impl PartHeader {
    /// Whether `other` is a part of the same job (everything but the range alike).
    pub fn same_job(&self, other: &PartHeader) -> bool {
        (self.seed, self.generate, self.produce, &self.script, &self.options)
            == (other.seed, other.generate, other.produce, &other.script, &other.options)
    }
}

/// One accepted deal of a part.
#[derive(Clone, Debug)]
pub struct PartDeal {
    /// Its deal number in the job.
    pub number: u64,
    /// The deal.
    pub deal: Deal,
    /// The double-dummy results the part solved for it.
    pub dd: DealResults,
}

/// How a part ended: the first deal number it did not deal, the deals it accepted, its
/// seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PartEnd {
    /// The first deal number not dealt (the range's end, or one past the deal that reached
    /// the produce limit).
    pub next: u64,
    /// The deals accepted.
    pub accepted: u64,
    /// The part's wall-clock seconds.
    pub seconds: f64,
}

/// Writes a part file.
pub struct PartWriter<W: Write> {
    out: W,
}

impl<W: Write> PartWriter<W> {
    /// Starts a part file on `out` with its header.
    pub fn new(mut out: W, header: &PartHeader) -> std::io::Result<PartWriter<W>> {
        out.write_all(MAGIC)?;
        out.write_all(&VERSION.to_le_bytes())?;
        out.write_all(&header.seed.to_le_bytes())?;
        for n in [header.first, header.count, header.generate] {
            out.write_all(&n.to_le_bytes())?;
        }
        out.write_all(&header.produce.to_le_bytes())?;
        write_bytes(&mut out, &header.script)?;
        out.write_all(&(header.options.len() as u32).to_le_bytes())?;
        for (key, value) in &header.options {
            write_bytes(&mut out, key.as_bytes())?;
            write_bytes(&mut out, value.as_bytes())?;
        }
        Ok(PartWriter { out })
    }

    /// Writes accepted deal number `number` with the double-dummy results solved for it.
    pub fn deal(&mut self, number: u64, deal: &Deal, dd: &DealResults) -> std::io::Result<()> {
        let mut record = [0u8; RECORD_LEN as usize];
        record[0] = DEAL;
        record[1..9].copy_from_slice(&number.to_le_bytes());
        record[9..22].copy_from_slice(&pack_deal(deal));
        let (known, tricks) = dd.known_results();
        record[22..26].copy_from_slice(&known.to_le_bytes());
        for (cell, &t) in tricks.iter().enumerate() {
            record[26 + cell / 2] |= (t & 0xF) << (4 * (cell % 2));
        }
        self.out.write_all(&record)
    }

    /// Ends the file with its trailer; the writer.
    pub fn finish(mut self, end: PartEnd) -> std::io::Result<W> {
        self.out.write_all(&[END])?;
        self.out.write_all(&end.next.to_le_bytes())?;
        self.out.write_all(&end.accepted.to_le_bytes())?;
        self.out.write_all(&end.seconds.to_le_bytes())?;
        self.out.flush()?;
        Ok(self.out)
    }
}

fn write_bytes(out: &mut impl Write, bytes: &[u8]) -> std::io::Result<()> {
    out.write_all(&(bytes.len() as u32).to_le_bytes())?;
    out.write_all(bytes)
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

/// The trailer's length: its tag, two counts and the seconds.
const TRAILER_LEN: u64 = 25;

/// Reads a part file: its header and its end (the trailer, read first: a part that did not
/// finish is refused before any deal is read), then its deals one at a time.
pub struct PartReader<R: Read + Seek> {
    input: R,
    /// The file's name, for errors.
    name: String,
    /// The header.
    pub header: PartHeader,
    /// The trailer.
    end: PartEnd,
    /// Where the trailer starts: the records end there.
    records_end: u64,
    /// Where the next record starts.
    at: u64,
}

impl<R: Read + Seek> PartReader<R> {
    /// Reads the header and the end of the part file `name` from `input`.
    pub fn new(mut input: R, name: &str) -> Result<PartReader<R>> {
        let bad = |what: &str| corrupt(name, what);
        let mut magic = [0u8; 15];
        input.read_exact(&mut magic).map_err(|_| bad("it is not a libdealer part file"))?;
        if &magic != MAGIC {
            return Err(bad("it is not a libdealer part file"));
        }
        let version = read_u32(&mut input).map_err(|_| bad("it ends in its header"))?;
        if version != VERSION {
            return Err(bad(&format!("format version {version}; this libdealer reads version {VERSION}")));
        }
        let header = (|| -> std::io::Result<PartHeader> {
            let seed = read_u64(&mut input)? as i64;
            let (first, count, generate) = (read_u64(&mut input)?, read_u64(&mut input)?, read_u64(&mut input)?);
            let produce = read_u64(&mut input)? as i64;
            let script = read_bytes(&mut input)?;
            let n = read_u32(&mut input)?;
            let mut options = Vec::new();
            for _ in 0..n {
                let key = String::from_utf8_lossy(&read_bytes(&mut input)?).into_owned();
                let value = String::from_utf8_lossy(&read_bytes(&mut input)?).into_owned();
                options.push((key, value));
            }
            Ok(PartHeader { seed, first, count, generate, produce, script, options })
        })()
        .map_err(|_| bad("it ends in its header"))?;
        let unfinished = || bad("it has no end: the part did not finish");
        let at = input.stream_position().map_err(|_| unfinished())?;
        let len = input.seek(SeekFrom::End(0)).map_err(|_| unfinished())?;
        let records_end = len.checked_sub(TRAILER_LEN).filter(|&e| e >= at).ok_or_else(unfinished)?;
        let end = (|| -> std::io::Result<Option<PartEnd>> {
            input.seek(SeekFrom::Start(records_end))?;
            let mut tag = [0u8; 1];
            input.read_exact(&mut tag)?;
            let next = read_u64(&mut input)?;
            let accepted = read_u64(&mut input)?;
            let seconds = f64::from_le_bytes(read_u64(&mut input)?.to_le_bytes());
            input.seek(SeekFrom::Start(at))?;
            Ok((tag[0] == END).then_some(PartEnd { next, accepted, seconds }))
        })()
        .ok()
        .flatten()
        .ok_or_else(unfinished)?;
        if (records_end - at) % RECORD_LEN != 0 || (records_end - at) / RECORD_LEN != end.accepted {
            return Err(bad("its deals do not match its end: the file is damaged"));
        }
        Ok(PartReader { input, name: name.to_string(), header, end, records_end, at })
    }

    /// The next accepted deal; `None` after the last one.
    pub fn next_deal(&mut self) -> Result<Option<PartDeal>> {
        if self.at >= self.records_end {
            return Ok(None);
        }
        let mut record = [0u8; RECORD_LEN as usize];
        self.input.read_exact(&mut record).map_err(|_| corrupt(&self.name, "it ends in a deal"))?;
        self.at += RECORD_LEN;
        if record[0] != DEAL {
            return Err(corrupt(&self.name, "a record of an unknown kind"));
        }
        let number = u64::from_le_bytes(record[1..9].try_into().expect("8 bytes"));
        let deal = unpack_deal(&record[9..22]).ok_or_else(|| corrupt(&self.name, "a deal is not a deal"))?;
        let known = u32::from_le_bytes(record[22..26].try_into().expect("4 bytes"));
        let tricks: [u8; 20] = std::array::from_fn(|cell| record[26 + cell / 2] >> (4 * (cell % 2)) & 0xF);
        let in_range = (self.header.first..self.header.first.saturating_add(self.header.count)).contains(&number);
        if !in_range || known >> 20 != 0 || tricks.iter().any(|&t| t > 13) {
            return Err(corrupt(&self.name, &format!("deal number {number} is out of its range or damaged")));
        }
        Ok(Some(PartDeal { number, deal, dd: DealResults::from_known(known, tricks) }))
    }

    /// The part's end (its trailer).
    pub fn end(&self) -> PartEnd {
        self.end
    }

    /// The file's name.
    pub fn name(&self) -> &str {
        &self.name
    }
}

/// The error for a part file that cannot be read as one.
fn corrupt(name: &str, what: &str) -> Error {
    Error::new(ErrorKind::Io, format!("part file {name}: {what}"))
}

fn read_u32(input: &mut impl Read) -> std::io::Result<u32> {
    let mut b = [0u8; 4];
    input.read_exact(&mut b)?;
    Ok(u32::from_le_bytes(b))
}

fn read_u64(input: &mut impl Read) -> std::io::Result<u64> {
    let mut b = [0u8; 8];
    input.read_exact(&mut b)?;
    Ok(u64::from_le_bytes(b))
}

fn read_bytes(input: &mut impl Read) -> std::io::Result<Vec<u8>> {
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
            seed: -7,
            first: 1000,
            count: 500,
            generate: 4000,
            produce: 40,
            script: b"condition hcp(north) > 20\naction printoneline\n".to_vec(),
            options: vec![("title".into(), "A title, with spaces".into()), ("produce".into(), "40".into())],
        };
        let mut dealer = Dealer::new(&DealingSetup::default()).unwrap();
        let mut writer = PartWriter::new(Vec::new(), &header).unwrap();
        let mut deals = Vec::new();
        for k in 0..50u64 {
            let deal = dealer.deal().unwrap();
            let tricks: [u8; 20] = std::array::from_fn(|c| ((c as u64 + k) % 14) as u8);
            let dd = DealResults::from_known(if k % 2 == 0 { (1 << 20) - 1 } else { 0b101 }, tricks);
            let record = PartDeal { number: 1000 + 3 * k, deal, dd };
            writer.deal(record.number, &record.deal, &record.dd).unwrap();
            deals.push(record);
        }
        let end = PartEnd { next: 1500, accepted: 50, seconds: 1.25 };
        let bytes = writer.finish(end).unwrap();
        let mut reader = PartReader::new(std::io::Cursor::new(bytes.as_slice()), "p").unwrap();
        assert_eq!(reader.header, header);
        for expected in &deals {
            let read = reader.next_deal().unwrap().unwrap();
            assert_eq!((read.number, read.deal), (expected.number, expected.deal));
            assert_eq!(read.dd.known_results(), expected.dd.known_results());
        }
        assert!(reader.next_deal().unwrap().is_none());
        assert_eq!(reader.end(), end);
        // Cut anywhere, the file is refused with its name.
        for cut in [3, 40, bytes.len() - 5, bytes.len() - 30] {
            let refused = PartReader::new(std::io::Cursor::new(&bytes[..cut]), "cut.part").and_then(|mut r| {
                while r.next_deal()?.is_some() {}
                Ok(())
            });
            let e = refused.unwrap_err().to_string();
            assert!(e.contains("part file cut.part"), "{cut}: {e}");
        }
    }
}
