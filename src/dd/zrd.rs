//! DealerV2 library files: the 23-byte ZRD record format (`-L` input, `-Z` output), the title
//! header records, a streaming library reader with DealerV2's seed positioning and wrap-around
//! rule, the 52-byte DL52 deal format (`-l`), and the `[w][N]:file` argument of `-Z` and `-l`.
//!
//! # ZRD records
//!
//! A ZRD file is a sequence of 23-byte records with no file header of its own.
//!
//! * **Deal record.** Bytes 0–12 hold 52 two-bit fields: byte `k`, bits `2j..=2j+1` give the
//!   holder of card `4k + j`, cards ordered SA, SK, …, S2, HA, …, H2, DA, …, D2, CA, …, C2. The
//!   holder code is 0 = West, 1 = North, 2 = East, 3 = South. Bytes 13–22 are five
//!   little-endian `u16` values for the strains NT, S, H, D, C (in that order); in each, bits
//!   0–3 are West's tricks as declarer, 4–7 North's, 8–11 East's, 12–15 South's.
//! * **Header (title) record.** The first 28 bits are zero (bytes 0–2 and the low nibble of
//!   byte 3), the high nibble of byte 3 is a sequence number 1..=15, and bytes 4–22 carry 19
//!   bytes of title text. The title is stored with its terminating NUL and split over as many
//!   records as needed. A deal record can never look like a header: 28 zero bits would give
//!   West the fourteen cards SA…S2 and HA.
//!
//! # Trick tables
//!
//! Inside the crate tricks use Dealer's order, [`Tricks`]`[declarer seat N, E, S, W][strain C,
//! D, H, S, NT]`; the encoder and decoder translate to and from the file's order.

use std::fs::File;
use std::io::{BufReader, Read, Seek, SeekFrom};
use std::path::Path;

use crate::cards::{Card, Deal, Hand, Seat, Suit, LANE_MASK};

/// Double-dummy tricks indexed `[declarer seat N, E, S, W][strain C, D, H, S, NT]` (Dealer order).
pub type Tricks = [[u8; 5]; 4];

/// Length in bytes of one ZRD record.
pub const RECORD_LEN: usize = 23;

/// Number of title text bytes carried by one header record (bytes 4..=22).
pub const TITLE_CHUNK_LEN: usize = 19;

/// Highest header sequence number (a 4-bit field), hence the maximum number of header records.
pub const MAX_TITLE_RECORDS: usize = 15;

/// Longest title text a ZRD file can carry: 15 chunks of 19 bytes, less the terminating NUL.
pub const MAX_TITLE_LEN: usize = MAX_TITLE_RECORDS * TITLE_CHUNK_LEN - 1;

/// Length in bytes of one DL52 (`-l`) deal.
pub const DL52_LEN: usize = 52;

/// DealerV2's message when a library read reaches end of file a second time.
pub const TOO_MANY_PASSES: &str = "... Too Many Passes through Library. Ending Run Now";

/// One decoded ZRD record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Record {
    /// A deal with its 20 double-dummy trick counts.
    Deal {
        /// The four hands.
        deal: Deal,
        /// Tricks by declarer and strain, Dealer order.
        tricks: Tricks,
    },
    /// A header record carrying one piece of the title.
    Title {
        /// Sequence number 1..=15 (the high nibble of byte 3).
        sequence: u8,
        /// 19 bytes of title text; the chunk holding the end of the title contains its NUL.
        text: [u8; TITLE_CHUNK_LEN],
    },
}

/// The ZRD holder code (0 = W, 1 = N, 2 = E, 3 = S) of a seat; the same code selects the
/// seat's nibble in a trick word.
fn zrd_code(seat: usize) -> usize {
    (seat + 1) & 3
}

/// The seat index (N = 0 … W = 3) of a ZRD holder code.
fn seat_of_code(code: usize) -> usize {
    (code + 3) & 3
}

/// The card at position `i` (0..52) of the ZRD card order SA, SK, …, C2.
fn zrd_card(i: usize) -> Card {
    Card::new(Suit::from_index(3 - i / 13), 12 - (i % 13) as u8)
}

/// Encodes a deal and its tricks as one ZRD deal record.
///
/// The deal should be complete (52 cards, 13 per hand). A card held by nobody is written as
/// West's (code 0); a card held by several hands is written for the last of them in N, E, S, W
/// order. Trick counts are stored in 4-bit fields: values above 15 keep only their low 4 bits
/// (double-dummy results are 0..=13; `-Z N:` writes all zeros).
pub fn encode_record(deal: &Deal, tricks: &Tricks) -> [u8; RECORD_LEN] {
    let mut rec = [0u8; RECORD_LEN];
    for i in 0..52 {
        let bit = zrd_card(i).bit();
        let mut code = 0;
        for seat in 0..4 {
            if deal.0[seat].0 & bit != 0 {
                code = zrd_code(seat);
            }
        }
        rec[i / 4] |= (code as u8) << (2 * (i % 4));
    }
    for k in 0..5 {
        let strain = 4 - k;
        let mut word = 0u16;
        for (seat, row) in tricks.iter().enumerate() {
            word |= u16::from(row[strain] & 0x0F) << (4 * zrd_code(seat));
        }
        rec[13 + 2 * k..15 + 2 * k].copy_from_slice(&word.to_le_bytes());
    }
    rec
}

/// Whether a record is a header (title) record: its first 28 bits are zero.
pub fn is_title_record(rec: &[u8; RECORD_LEN]) -> bool {
    rec[0] == 0 && rec[1] == 0 && rec[2] == 0 && rec[3] & 0x0F == 0
}

/// Decodes one ZRD record.
///
/// Errors (with a message saying what is wrong) for a header record whose sequence number is 0,
/// for a deal record in which some hand does not hold exactly 13 cards, and for a trick count
/// above 13.
pub fn decode_record(rec: &[u8; RECORD_LEN]) -> Result<Record, String> {
    if is_title_record(rec) {
        let sequence = rec[3] >> 4;
        if sequence == 0 {
            return Err("corrupt ZRD header record: sequence number 0".to_string());
        }
        let mut text = [0u8; TITLE_CHUNK_LEN];
        text.copy_from_slice(&rec[4..]);
        return Ok(Record::Title { sequence, text });
    }
    let mut hands = [Hand::EMPTY; 4];
    for i in 0..52 {
        let code = ((rec[i / 4] >> (2 * (i % 4))) & 3) as usize;
        hands[seat_of_code(code)].insert(zrd_card(i));
    }
    for (seat, hand) in hands.iter().enumerate() {
        if hand.count() != 13 {
            return Err(format!(
                "corrupt ZRD deal record: {} holds {} cards instead of 13",
                Seat::from_index(seat).name(),
                hand.count()
            ));
        }
    }
    let mut tricks: Tricks = [[0; 5]; 4];
    for k in 0..5 {
        let strain = 4 - k;
        let word = u16::from_le_bytes([rec[13 + 2 * k], rec[14 + 2 * k]]);
        for (seat, row) in tricks.iter_mut().enumerate() {
            let n = ((word >> (4 * zrd_code(seat))) & 0x0F) as u8;
            if n > 13 {
                return Err(format!(
                    "corrupt ZRD deal record: {} tricks for declarer {} in {}",
                    n,
                    Seat::from_index(seat).name(),
                    ["clubs", "diamonds", "hearts", "spades", "notrump"][strain]
                ));
            }
            row[strain] = n;
        }
    }
    Ok(Record::Deal { deal: Deal(hands), tricks })
}

/// The header records DealerV2 writes for a title: the title text followed by its NUL, cut
/// into 19-byte chunks (the last one zero-padded), numbered 1, 2, … in the high nibble of byte 3.
///
/// An empty title gives no records. The text ends at its first NUL, if any (as a C string
/// would). A title longer than [`MAX_TITLE_LEN`] (284) bytes is truncated to fit the 15
/// available records, backing up to a character boundary so the stored text stays UTF-8.
/// (DealerV2's `-T` limit is 200 characters, which needs 11 records.)
pub fn title_records(title: &str) -> Vec<[u8; RECORD_LEN]> {
    let text = title.split('\0').next().unwrap_or("");
    let mut len = text.len().min(MAX_TITLE_LEN);
    while !text.is_char_boundary(len) {
        len -= 1;
    }
    if len == 0 {
        return Vec::new();
    }
    let mut bytes = text.as_bytes()[..len].to_vec();
    bytes.push(0);
    bytes
        .chunks(TITLE_CHUNK_LEN)
        .enumerate()
        .map(|(i, chunk)| {
            let mut rec = [0u8; RECORD_LEN];
            rec[3] = ((i + 1) as u8) << 4;
            rec[4..4 + chunk.len()].copy_from_slice(chunk);
            rec
        })
        .collect()
}

/// Rebuilds a title from header-record chunks.
///
/// Chunks are concatenated in the order they are pushed (file order); the title ends at the
/// first NUL. Chunks pushed after the NUL has been seen are ignored, as is anything beyond
/// 15 chunks, so the buffer stays bounded whatever the file holds.
#[derive(Clone, Debug, Default)]
pub struct TitleAssembler {
    bytes: Vec<u8>,
    chunks: usize,
    complete: bool,
}

impl TitleAssembler {
    /// An empty assembler.
    pub fn new() -> TitleAssembler {
        TitleAssembler::default()
    }

    /// Appends the text of one header record.
    pub fn push(&mut self, text: &[u8; TITLE_CHUNK_LEN]) {
        if self.complete || self.chunks >= MAX_TITLE_RECORDS {
            return;
        }
        self.chunks += 1;
        match text.iter().position(|&b| b == 0) {
            Some(end) => {
                self.bytes.extend_from_slice(&text[..end]);
                self.complete = true;
            }
            None => self.bytes.extend_from_slice(text),
        }
    }

    /// Whether the terminating NUL has been seen.
    pub fn is_complete(&self) -> bool {
        self.complete
    }

    /// Whether no chunk has been pushed.
    pub fn is_empty(&self) -> bool {
        self.chunks == 0
    }

    /// The title text so far (invalid UTF-8 is replaced by U+FFFD).
    pub fn title(&self) -> String {
        String::from_utf8_lossy(&self.bytes).into_owned()
    }
}

/// The records-per-seed-step DealerV2 uses for a library of `records` records: 1 below 100,
/// 10 below 1,000, 100 below 10,000, 1,000 otherwise.
pub fn seed_block_size(records: u64) -> u64 {
    match records {
        0..=99 => 1,
        100..=999 => 10,
        1000..=9999 => 100,
        _ => 1000,
    }
}

/// The seed actually used for a library of `records` records: `seed` clamped so that the start
/// position `seed × blocksize` is a record inside the file, i.e. to at most
/// `(records − 1) / blocksize` (0 for an empty file).
pub fn clamp_library_seed(seed: u64, records: u64) -> u64 {
    seed.min(records.saturating_sub(1) / seed_block_size(records))
}

/// Streams deals from a ZRD library file the way DealerV2's `-L` mode does.
///
/// * [`open`](LibraryReader::open) checks that the length is a whole number of records, reads
///   the header records at the very start of the file into the title, then seeks to record
///   `seed × blocksize` (see [`seed_block_size`]; the seed is clamped by
///   [`clamp_library_seed`]). Positions count every record of the file, headers included.
/// * [`next_deal`](LibraryReader::next_deal) returns the next deal record, silently skipping
///   header records (those met after the start do not change the title). At end of file it
///   wraps around to record 0 once; reaching end of file again is the error
///   [`TOO_MANY_PASSES`].
pub struct LibraryReader<R: Read + Seek = BufReader<File>> {
    source: R,
    name: String,
    records: u64,
    position: u64,
    start_seed: u64,
    records_read: u64,
    wrap_arounds: u32,
    title: String,
}

/// Opens a file for reading without blocking on a FIFO (`O_NONBLOCK`, which changes nothing for
/// a regular file); the caller checks that it is a regular file. (Windows has no FIFOs in the
/// file system, and refuses to open a folder as a file ("Access is denied"): a folder is
/// reported as `not a regular file` there, as everywhere.)
pub fn open_regular_file(path: &Path) -> std::io::Result<File> {
    if !cfg!(feature = "os") {
        return Err(std::io::Error::new(std::io::ErrorKind::Unsupported, crate::error::NO_FILES));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        std::fs::OpenOptions::new().read(true).custom_flags(libc::O_NONBLOCK).open(path)
    }
    #[cfg(not(unix))]
    {
        if std::fs::metadata(path).is_ok_and(|m| m.is_dir()) {
            return Err(std::io::Error::other("not a regular file"));
        }
        std::fs::OpenOptions::new().read(true).open(path)
    }
}

impl LibraryReader<BufReader<File>> {
    /// Opens a library file and positions it for `seed` (a block offset, clamped).
    pub fn open(path: impl AsRef<Path>, seed: u64) -> Result<Self, String> {
        let path = path.as_ref();
        let name = path.display().to_string();
        let file = open_regular_file(path).map_err(|e| format!("cannot open library file {name}: {e}"))?;
        // A folder seeks to a huge length and a FIFO or device has none: only files are read.
        let is_file = file.metadata().map_err(|e| format!("cannot open library file {name}: {e}"))?.is_file();
        if !is_file {
            return Err(format!("cannot open library file {name}: not a regular file"));
        }
        LibraryReader::from_reader(BufReader::with_capacity(64 * 1024, file), &name, seed)
    }
}

impl<R: Read + Seek> LibraryReader<R> {
    /// Wraps any seekable byte source; `name` is used in error messages.
    ///
    /// Errors when the source is empty, when its length is not a multiple of 23, or when it
    /// cannot be read or sought.
    pub fn from_reader(mut source: R, name: &str, seed: u64) -> Result<Self, String> {
        let io_err = |e: std::io::Error| format!("error reading library file {name}: {e}");
        let len = source.seek(SeekFrom::End(0)).map_err(io_err)?;
        if len % RECORD_LEN as u64 != 0 {
            return Err(format!(
                "library file {name} is {len} bytes long, not a whole number of {RECORD_LEN}-byte records"
            ));
        }
        let records = len / RECORD_LEN as u64;
        if records == 0 {
            return Err(format!("library file {name} is empty"));
        }
        source.seek(SeekFrom::Start(0)).map_err(io_err)?;
        let mut assembler = TitleAssembler::new();
        let mut rec = [0u8; RECORD_LEN];
        for _ in 0..records {
            source.read_exact(&mut rec).map_err(io_err)?;
            if !is_title_record(&rec) {
                break;
            }
            if let Ok(Record::Title { text, .. }) = decode_record(&rec) {
                assembler.push(&text);
            }
        }
        let start_seed = clamp_library_seed(seed, records);
        let position = start_seed * seed_block_size(records);
        source.seek(SeekFrom::Start(position * RECORD_LEN as u64)).map_err(io_err)?;
        Ok(LibraryReader {
            source,
            name: name.to_string(),
            records,
            position,
            start_seed,
            records_read: 0,
            wrap_arounds: 0,
            title: assembler.title(),
        })
    }

    /// The next deal record with its tricks.
    ///
    /// Never returns `Ok(None)` at present (the library wraps around instead); the `Option`
    /// leaves room for a caller-imposed end. Errors on a corrupt record (naming the file and
    /// the 0-based record number), on an I/O error, and with [`TOO_MANY_PASSES`] when end of
    /// file is reached after the one permitted wrap-around.
    pub fn next_deal(&mut self) -> Result<Option<(Deal, Tricks)>, String> {
        let mut rec = [0u8; RECORD_LEN];
        loop {
            if self.position >= self.records {
                if self.wrap_arounds >= 1 {
                    return Err(TOO_MANY_PASSES.to_string());
                }
                self.wrap_arounds += 1;
                self.position = 0;
                self.source
                    .seek(SeekFrom::Start(0))
                    .map_err(|e| format!("error reading library file {}: {e}", self.name))?;
            }
            self.source.read_exact(&mut rec).map_err(|e| format!("error reading library file {}: {e}", self.name))?;
            let index = self.position;
            self.position += 1;
            match decode_record(&rec) {
                Ok(Record::Deal { deal, tricks }) => {
                    self.records_read += 1;
                    return Ok(Some((deal, tricks)));
                }
                Ok(Record::Title { .. }) => continue,
                Err(e) => return Err(format!("library file {} record {index}: {e}", self.name)),
            }
        }
    }

    /// Total number of records in the file (file length / 23), header records included.
    pub fn records(&self) -> u64 {
        self.records
    }

    /// Number of deal records returned so far.
    pub fn records_read(&self) -> u64 {
        self.records_read
    }

    /// How many times reading has wrapped from end of file back to the start (0 or 1).
    pub fn wrap_arounds(&self) -> u32 {
        self.wrap_arounds
    }

    /// The title from the header records at the start of the file ("" if none).
    pub fn title(&self) -> &str {
        &self.title
    }

    /// The seed actually used, after clamping (see [`clamp_library_seed`]).
    pub fn start_seed(&self) -> u64 {
        self.start_seed
    }

    /// The 0-based record number the next read will look at.
    pub fn position(&self) -> u64 {
        self.position
    }
}

/// Encodes a deal in DL52 form (`-l`): for N, E, S, W in turn, the hand's 13 card bytes
/// `(suit << 4) | rank` in descending order (spades first, aces first within a suit).
///
/// A hand with other than 13 cards fills its 13 bytes with as many cards as fit and pads with
/// zero bytes (the deal should be complete).
pub fn encode_dl52(deal: &Deal) -> [u8; DL52_LEN] {
    let mut out = [0u8; DL52_LEN];
    for (seat, hand) in deal.0.iter().enumerate() {
        let mut slot = seat * 13;
        let end = slot + 13;
        'suits: for suit in (0..4u8).rev() {
            let lane = (hand.0 >> (suit as u32 * 16)) & LANE_MASK;
            for rank in (0..13u8).rev() {
                if lane & (1 << rank) != 0 {
                    if slot == end {
                        break 'suits;
                    }
                    out[slot] = (suit << 4) | rank;
                    slot += 1;
                }
            }
        }
    }
    out
}

/// A parsed `-Z` or `-l` argument: `[w][N]:file` or `file`.
///
/// If the text before the first `:` consists only of the letters `w` and `N` (any order,
/// repeats allowed, possibly none at all), it is the flag list and the rest is the file name:
/// `w` truncates the file instead of appending, `N` writes zero tricks instead of solving
/// (meaningful for `-Z`; `-l` ignores it). Otherwise the whole argument is the file name and
/// both flags are off. Examples: `w:out.zrd`, `Nw:out.zrd`, `:out.zrd` (no flags),
/// `out.zrd`, `dir:x/out.zrd` (a file named `dir:x/out.zrd`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputSpec {
    /// The file to write.
    pub path: String,
    /// Truncate (`w`) rather than append (the default).
    pub truncate: bool,
    /// Write zero tricks instead of computing them (`N`).
    pub no_tricks: bool,
}

impl OutputSpec {
    /// Parses the argument; errors when the file name is empty.
    pub fn parse(arg: &str) -> Result<OutputSpec, String> {
        let mut spec = OutputSpec { path: arg.to_string(), truncate: false, no_tricks: false };
        let flagged = arg.split_once(':').filter(|(flags, _)| flags.chars().all(|c| c == 'w' || c == 'N'));
        if let Some((flags, rest)) = flagged {
            spec.path = rest.to_string();
            spec.truncate = flags.contains('w');
            spec.no_tricks = flags.contains('N');
        }
        if spec.path.is_empty() {
            return Err(format!("missing file name in output argument '{arg}'"));
        }
        Ok(spec)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    const DATA_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/parity/dealerv2/data/");

    /// Reads a sample file, or prints a note and returns `None` if it is missing.
    fn sample(name: &str) -> Option<Vec<u8>> {
        let path = format!("{DATA_DIR}{name}");
        match std::fs::read(&path) {
            Ok(b) => Some(b),
            Err(_) => {
                eprintln!("note: {path} not found; skipping test");
                None
            }
        }
    }

    /// Parses a hand `AKQ.JT9.876.5432` (spades first).
    fn parse_hand(text: &str) -> Hand {
        let mut hand = Hand::EMPTY;
        for (i, holding) in text.split('.').enumerate() {
            let suit = Suit::PRINT_ORDER[i];
            for ch in holding.bytes() {
                let rank = crate::cards::RANK_LETTERS.iter().position(|&r| r == ch).unwrap() as u8;
                hand.insert(Card::new(suit, rank));
            }
        }
        hand
    }

    /// Parses one line of the sample .pbn listing into a deal and Dealer-order tricks.
    fn parse_listing_line(line: &str) -> (Deal, Tricks) {
        let (hands, nums) = line.split_once(';').unwrap();
        let words: Vec<&str> = hands.split_whitespace().collect();
        assert_eq!(words.len(), 8);
        let mut deal = Deal::default();
        for pair in words.chunks(2) {
            let seat = "nesw".find(pair[0]).unwrap();
            deal.0[seat] = parse_hand(pair[1]);
        }
        let values: Vec<u8> = nums.trim().split(',').map(|v| v.parse().unwrap()).collect();
        assert_eq!(values.len(), 20);
        let mut tricks: Tricks = [[0; 5]; 4];
        for (i, v) in values.into_iter().enumerate() {
            tricks[i / 5][i % 5] = v;
        }
        (deal, tricks)
    }

    fn sample_records(bytes: &[u8]) -> Vec<[u8; RECORD_LEN]> {
        bytes.chunks(RECORD_LEN).map(|c| c.try_into().unwrap()).collect()
    }

    fn temp_path(tag: &str) -> std::path::PathBuf {
        std::env::temp_dir().join(format!("zrd_test_{}_{tag}.zrd", std::process::id()))
    }

    #[test]
    fn sample_records_match_listing() {
        let (Some(zrd), Some(pbn)) = (sample("rpdd_10First.zrd"), sample("rpdd_10First.pbn")) else {
            return;
        };
        let text = String::from_utf8(pbn).unwrap();
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        assert_eq!(zrd.len(), 10 * RECORD_LEN);
        assert_eq!(lines.len(), 10);
        for (i, (rec, line)) in sample_records(&zrd).iter().zip(&lines).enumerate() {
            let (want_deal, want_tricks) = parse_listing_line(line);
            match decode_record(rec).unwrap() {
                Record::Deal { deal, tricks } => {
                    assert_eq!(deal, want_deal, "deal of record {i}");
                    assert!(deal.is_complete());
                    assert_eq!(tricks, want_tricks, "tricks of record {i}");
                }
                other => panic!("record {i} decoded as {other:?}"),
            }
            assert_eq!(&encode_record(&want_deal, &want_tricks), rec, "re-encoding record {i}");
        }
    }

    #[test]
    fn first_sample_record_matches_reference_facts() {
        let Some(zrd) = sample("rpdd_10First.zrd") else { return };
        let rec: [u8; RECORD_LEN] = zrd[..RECORD_LEN].try_into().unwrap();
        let Record::Deal { deal, tricks } = decode_record(&rec).unwrap() else { panic!("not a deal record") };
        assert_eq!(deal.hand(Seat::North).pbn(), "J873.J42.Q65.KT2");
        assert_eq!(deal.hand(Seat::East).pbn(), "AT652.A976.AJ82.");
        // Reference: NT W9 N4 E9 S4; S 9 4 9 4; H 11 2 10 2; D 9 3 9 3; C 7 6 7 6 (W N E S).
        let by_strain_wnes = [[7, 6, 7, 6], [9, 3, 9, 3], [11, 2, 10, 2], [9, 4, 9, 4], [9, 4, 9, 4]];
        for (strain, wnes) in by_strain_wnes.iter().enumerate() {
            assert_eq!(tricks[Seat::West.index()][strain], wnes[0]);
            assert_eq!(tricks[Seat::North.index()][strain], wnes[1]);
            assert_eq!(tricks[Seat::East.index()][strain], wnes[2]);
            assert_eq!(tricks[Seat::South.index()][strain], wnes[3]);
        }
    }

    #[test]
    fn corrupt_records_are_errors() {
        // All 52 cards to North: West, East and South hold none.
        let mut rec = [0x55u8; RECORD_LEN];
        rec[13..].fill(0);
        let err = decode_record(&rec).unwrap_err();
        assert!(err.contains("North holds 52 cards instead of 13"), "{err}");
        // A valid deal with one trick nibble of 14.
        let Some(zrd) = sample("rpdd_10First.zrd") else { return };
        let mut rec: [u8; RECORD_LEN] = zrd[..RECORD_LEN].try_into().unwrap();
        rec[13] = (rec[13] & 0xF0) | 14; // West, notrump
        let err = decode_record(&rec).unwrap_err();
        assert!(err.contains("14 tricks for declarer West in notrump"), "{err}");
        // Header with sequence 0.
        assert!(decode_record(&[0u8; RECORD_LEN]).unwrap_err().contains("sequence number 0"));
    }

    #[test]
    fn title_records_round_trip() {
        assert!(title_records("").is_empty());
        let short = title_records("Hello");
        assert_eq!(short.len(), 1);
        assert_eq!(&short[0][..4], &[0, 0, 0, 0x10]);
        assert_eq!(&short[0][4..10], b"Hello\0");
        assert!(short[0][10..].iter().all(|&b| b == 0));

        // 19 characters need a second record for the NUL alone.
        let exact = "ABCDEFGHIJKLMNOPQRS";
        let recs = title_records(exact);
        assert_eq!(recs.len(), 2);
        assert_eq!(recs[1][3], 0x20);
        assert_eq!(recs[1][4], 0);

        let long: String = (0..200).map(|i| (b'a' + (i % 26) as u8) as char).collect();
        let recs = title_records(&long);
        assert_eq!(recs.len(), 11); // 201 bytes with the NUL
        let mut asm = TitleAssembler::new();
        for (i, rec) in recs.iter().enumerate() {
            assert!(is_title_record(rec));
            match decode_record(rec).unwrap() {
                Record::Title { sequence, text } => {
                    assert_eq!(sequence as usize, i + 1);
                    asm.push(&text);
                }
                other => panic!("{other:?}"),
            }
        }
        assert!(asm.is_complete());
        assert_eq!(asm.title(), long);

        // Too long: truncated to 284 bytes in 15 records.
        let huge = "x".repeat(400);
        let recs = title_records(&huge);
        assert_eq!(recs.len(), MAX_TITLE_RECORDS);
        assert_eq!(recs[14][3] >> 4, 15);
        assert_eq!(recs[14][RECORD_LEN - 1], 0);
        let mut asm = TitleAssembler::new();
        for rec in &recs {
            asm.push(rec[4..].try_into().unwrap());
        }
        assert_eq!(asm.title(), "x".repeat(MAX_TITLE_LEN));
        // Interior NUL ends the title.
        assert_eq!(title_records("ab\0cd").len(), 1);
        assert_eq!(&title_records("ab\0cd")[0][4..8], b"ab\0\0");
    }

    /// A file of `n` distinct deal records: deal k is the sample's first deal rotated k seats
    /// with tricks whose North notrump count is k (so the records can be told apart).
    fn numbered_records(n: usize) -> Vec<(Deal, Tricks)> {
        let base = parse_listing_line(
            "n J873.J42.Q65.KT2 e AT652.A976.AJ82. s Q4.85.KT9.A87643 w K9.KQT3.743.QJ95;\
             06,03,02,04,04,07,09,10,09,09,06,03,02,04,04,07,09,11,09,09",
        );
        (0..n)
            .map(|k| {
                let mut deal = base.0;
                deal.0.rotate_left(k % 4);
                let mut tricks = base.1;
                tricks[0][4] = (k % 14) as u8;
                (deal, tricks)
            })
            .collect()
    }

    fn write_file(tag: &str, title: &str, deals: &[(Deal, Tricks)]) -> std::path::PathBuf {
        let path = temp_path(tag);
        let mut bytes = Vec::new();
        for r in title_records(title) {
            bytes.extend_from_slice(&r);
        }
        for (d, t) in deals {
            bytes.extend_from_slice(&encode_record(d, t));
        }
        std::fs::write(&path, bytes).unwrap();
        path
    }

    #[test]
    fn reader_wraps_once_then_fails() {
        let deals = numbered_records(4);
        let path = write_file("wrap", "My library", &deals);
        let mut reader = LibraryReader::open(&path, 0).unwrap();
        assert_eq!(reader.records(), 5);
        assert_eq!(reader.title(), "My library");
        let mut got = Vec::new();
        for _ in 0..8 {
            got.push(reader.next_deal().unwrap().unwrap());
        }
        assert_eq!(reader.wrap_arounds(), 1);
        assert_eq!(reader.records_read(), 8);
        assert_eq!(&got[..4], &deals[..]);
        assert_eq!(&got[4..], &deals[..]);
        assert_eq!(reader.next_deal().unwrap_err(), TOO_MANY_PASSES);
        std::fs::remove_file(path).ok();
    }

    #[test]
    fn reader_seed_positions_and_clamps() {
        let deals = numbered_records(10);
        let path = write_file("seed", "", &deals);
        let mut reader = LibraryReader::open(&path, 3).unwrap();
        assert_eq!(reader.start_seed(), 3);
        assert_eq!(reader.title(), "");
        assert_eq!(reader.next_deal().unwrap().unwrap(), deals[3]);
        // Seven records to the end, then the wrap starts again at record 0.
        for want in &deals[4..] {
            assert_eq!(&reader.next_deal().unwrap().unwrap(), want);
        }
        assert_eq!(reader.wrap_arounds(), 0);
        assert_eq!(reader.next_deal().unwrap().unwrap(), deals[0]);
        assert_eq!(reader.wrap_arounds(), 1);

        let mut reader = LibraryReader::open(&path, 99).unwrap();
        assert_eq!(reader.start_seed(), 9);
        assert_eq!(reader.next_deal().unwrap().unwrap(), deals[9]);
        std::fs::remove_file(path).ok();

        assert_eq!(seed_block_size(99), 1);
        assert_eq!(seed_block_size(100), 10);
        assert_eq!(seed_block_size(9_999), 100);
        assert_eq!(seed_block_size(10_000_000), 1000);
        assert_eq!(clamp_library_seed(20, 155), 15); // record 150 of 0..=154
        assert_eq!(clamp_library_seed(5, 155), 5);
        assert_eq!(clamp_library_seed(u64::MAX, 10_000_000), 9_999);
    }

    #[test]
    fn reader_skips_headers_at_start_position_and_reports_bad_files() {
        let deals = numbered_records(3);
        let mut bytes = Vec::new();
        for r in title_records("T") {
            bytes.extend_from_slice(&r);
        }
        for (d, t) in &deals {
            bytes.extend_from_slice(&encode_record(d, t));
        }
        let mut reader = LibraryReader::from_reader(Cursor::new(bytes.clone()), "mem", 0).unwrap();
        assert_eq!(reader.title(), "T");
        assert_eq!(reader.next_deal().unwrap().unwrap(), deals[0]);

        bytes.push(0);
        let err = LibraryReader::from_reader(Cursor::new(bytes), "odd.zrd", 0).err().unwrap();
        assert!(err.contains("odd.zrd") && err.contains("not a whole number"), "{err}");
        let err = LibraryReader::from_reader(Cursor::new(Vec::new()), "e.zrd", 0).err().unwrap();
        assert!(err.contains("e.zrd"), "{err}");
        let missing = temp_path("missing_dir").join("lib.zrd");
        assert!(LibraryReader::open(missing.to_str().unwrap(), 0).is_err());

        let mut bad = [0x55u8; RECORD_LEN];
        bad[13..].fill(0);
        let mut reader = LibraryReader::from_reader(Cursor::new(bad.to_vec()), "bad.zrd", 0).unwrap();
        let err = reader.next_deal().unwrap_err();
        assert!(err.contains("bad.zrd record 0"), "{err}");
    }

    #[test]
    fn dl52_layout() {
        let (deal, _) = parse_listing_line(
            "n J873.J42.Q65.KT2 e AT652.A976.AJ82. s Q4.85.KT9.A87643 w K9.KQT3.743.QJ95;\
             06,03,02,04,04,07,09,10,09,09,06,03,02,04,04,07,09,11,09,09",
        );
        let out = encode_dl52(&deal);
        // North: SJ S8 S7 S3 HJ H4 H2 DQ D6 D5 CK CT C2.
        let north = [0x39, 0x36, 0x35, 0x31, 0x29, 0x22, 0x20, 0x1A, 0x14, 0x13, 0x0B, 0x08, 0x00];
        assert_eq!(&out[..13], &north);
        // East starts with the spade ace and ends with D2 (void in clubs).
        assert_eq!(out[13], 0x3C);
        assert_eq!(out[25], 0x10);
        // West ends with C5.
        assert_eq!(out[51], 0x03);
        for seat in 0..4 {
            let hand = &out[seat * 13..seat * 13 + 13];
            assert!(hand.windows(2).all(|w| w[0] > w[1]));
            assert!(hand.iter().all(|&c| deal.0[seat].contains(Card(c))));
        }
    }

    #[test]
    fn output_spec_parsing() {
        let p = |s| OutputSpec::parse(s).unwrap();
        assert_eq!(p("out.zrd"), OutputSpec { path: "out.zrd".into(), truncate: false, no_tricks: false });
        assert_eq!(p("w:out.zrd"), OutputSpec { path: "out.zrd".into(), truncate: true, no_tricks: false });
        assert_eq!(p("N:out.zrd"), OutputSpec { path: "out.zrd".into(), truncate: false, no_tricks: true });
        assert_eq!(p("wN:a:b"), OutputSpec { path: "a:b".into(), truncate: true, no_tricks: true });
        assert_eq!(p("Nw:x"), OutputSpec { path: "x".into(), truncate: true, no_tricks: true });
        assert_eq!(p(":x"), OutputSpec { path: "x".into(), truncate: false, no_tricks: false });
        assert_eq!(p("C:/lib.zrd"), OutputSpec { path: "C:/lib.zrd".into(), truncate: false, no_tricks: false });
        assert_eq!(p("W:x").path, "W:x");
        assert!(OutputSpec::parse("w:").is_err());
        assert!(OutputSpec::parse("").is_err());
    }
}
