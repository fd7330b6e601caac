//! PBN (Portable Bridge Notation 2.1) hand records, as dealing programs, BridgeComposer, BBO,
//! endplay and libdealer write them: games separated by blank lines, each a list of tags
//! `[Name "value"]`, some followed by section lines (an auction, a play record, a table).
//!
//! A game with a `[Deal]` becomes a record: `[Board]`, `[Dealer]` and `[Vulnerable]` are its
//! board data, every other single-line tag is kept in order, and its double-dummy table is
//! read from `[OptimumResultTable]` (any column order; the columns named `Declarer`,
//! `Denomination` and `Result`) or from BridgeComposer's `[DoubleDummyTricks]` (20 hexadecimal
//! digits, declarers N S E W, each NT S H D C). A value `#` repeats the previous game's value
//! of the tag (PBN's export shorthand). `%` lines, `;` comments and `{…}` commentary are passed
//! over. A game without a deal (a file header) is no record.

use crate::cards::{Seat, Strain, Suit};
use crate::dd::DdTable;
use crate::records::hand_text::{parse_pbn_deal, seat_of};
use crate::records::line_reader::LineReader;
use crate::records::{BoardData, DealRecord, RecordError};
use crate::script::ast::Vulnerability;

/// The most tags one game may hold.
const MAX_TAGS: usize = 256;
/// The most section lines of an `OptimumResultTable` kept (20 are needed).
const MAX_TABLE_ROWS: usize = 64;

/// One tag of the game being read: name, value, and where the value starts.
struct Tag {
    name: String,
    value: String,
    line: u64,
    column: u64,
    /// Whether section lines followed it (an auction, a play record, a table).
    sectioned: bool,
}

/// The game being read.
#[derive(Default)]
struct Game {
    start: u64,
    tags: Vec<Tag>,
    /// The `OptimumResultTable` rows: (line, text).
    table_rows: Vec<(u64, String)>,
}

impl Game {
    fn tag(&self, name: &str) -> Option<&Tag> {
        self.tags.iter().find(|t| t.name == name)
    }
}

/// Reads PBN games.
pub struct PbnReader {
    lines: LineReader,
    game: Game,
    /// The previous game's tag values, for `#`.
    previous: Vec<(String, String)>,
    /// Inside `{…}` commentary that runs over lines.
    in_commentary: bool,
    /// After an error: the rest of the broken game is passed over up to the next blank line.
    skipping: bool,
    /// A line that starts the next game, held back while the game before it is returned.
    held: Option<(u64, Vec<u8>)>,
}

impl PbnReader {
    /// PBN games from `lines`.
    pub fn new(lines: LineReader) -> PbnReader {
        PbnReader {
            lines,
            game: Game::default(),
            previous: Vec::new(),
            in_commentary: false,
            skipping: false,
            held: None,
        }
    }

    /// The next game with a deal, or `None` at the end.
    pub fn next_record(&mut self) -> Result<Option<DealRecord>, RecordError> {
        loop {
            let (number, line) = match self.held.take() {
                Some(held) => held,
                None => match self.lines.next_line() {
                    Ok(Some((number, line))) => (number, line.to_vec()),
                    Ok(None) => {
                        self.skipping = false;
                        match self.finish_game()? {
                            Some(record) => return Ok(Some(record)),
                            None => return Ok(None),
                        }
                    }
                    Err(e) => {
                        if !e.fatal {
                            self.skipping = true;
                            self.game = Game::default();
                        }
                        return Err(e);
                    }
                },
            };
            let blank = line.iter().all(u8::is_ascii_whitespace) && !self.in_commentary;
            if self.skipping {
                if blank {
                    self.skipping = false;
                }
                continue;
            }
            if blank {
                if let Some(record) = self.finish_game()? {
                    return Ok(Some(record));
                }
                continue;
            }
            match self.read_line(number, &line) {
                Ok(LineOutcome::Read) => {}
                Ok(LineOutcome::StartsNextGame) => {
                    self.held = Some((number, line));
                    if let Some(record) = self.finish_game()? {
                        return Ok(Some(record));
                    }
                }
                Err(e) => {
                    self.game = Game::default();
                    self.skipping = true;
                    return Err(e);
                }
            }
        }
    }

    /// Reads the tags, comments and section text of one line into the game.
    fn read_line(&mut self, number: u64, line: &[u8]) -> Result<LineOutcome, RecordError> {
        let mut at = 0;
        if self.in_commentary {
            match line.iter().position(|&b| b == b'}') {
                Some(end) => {
                    self.in_commentary = false;
                    at = end + 1;
                }
                None => return Ok(LineOutcome::Read),
            }
        }
        if at == 0 && line.first() == Some(&b'%') {
            return Ok(LineOutcome::Read);
        }
        let error = |at: usize, message: &str| RecordError::at_line(number, Some(at as u64 + 1), message);
        loop {
            while line.get(at).is_some_and(u8::is_ascii_whitespace) {
                at += 1;
            }
            let Some(&byte) = line.get(at) else { return Ok(LineOutcome::Read) };
            match byte {
                b';' => return Ok(LineOutcome::Read),
                b'{' => match line[at..].iter().position(|&b| b == b'}') {
                    Some(end) => at += end + 1,
                    None => {
                        self.in_commentary = true;
                        return Ok(LineOutcome::Read);
                    }
                },
                b'[' => {
                    let tag_start = at;
                    at += 1;
                    while line.get(at).is_some_and(u8::is_ascii_whitespace) {
                        at += 1;
                    }
                    let name_start = at;
                    while line.get(at).is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_') {
                        at += 1;
                    }
                    if at == name_start {
                        return Err(error(at, "a tag needs a name after '['"));
                    }
                    let name = String::from_utf8_lossy(&line[name_start..at]).into_owned();
                    while line.get(at).is_some_and(u8::is_ascii_whitespace) {
                        at += 1;
                    }
                    if line.get(at) != Some(&b'"') {
                        return Err(error(at, &format!("expected '\"' before the value of the tag {name}")));
                    }
                    at += 1;
                    let value_column = at as u64 + 1;
                    let mut value = Vec::new();
                    loop {
                        match line.get(at) {
                            None => return Err(error(at, &format!("the value of the tag {name} has no closing '\"'"))),
                            Some(b'\\') if matches!(line.get(at + 1), Some(b'"' | b'\\')) => {
                                value.push(line[at + 1]);
                                at += 2;
                            }
                            Some(b'"') => break,
                            Some(&b) => {
                                value.push(b);
                                at += 1;
                            }
                        }
                    }
                    at += 1;
                    while line.get(at).is_some_and(u8::is_ascii_whitespace) {
                        at += 1;
                    }
                    if line.get(at) != Some(&b']') {
                        return Err(error(at, &format!("expected ']' after the value of the tag {name}")));
                    }
                    at += 1;
                    let mut value = String::from_utf8_lossy(&value).into_owned();
                    let has_deal = self.game.tag("Deal").is_some();
                    if has_deal && self.game.tag(&name).is_some() && tag_start == 0 {
                        // The same tag again: a new game that no blank line separated.
                        return Ok(LineOutcome::StartsNextGame);
                    }
                    if value == "#" {
                        if let Some((_, v)) = self.previous.iter().find(|(n, _)| *n == name) {
                            value = v.clone();
                        }
                    }
                    if self.game.tags.len() >= MAX_TAGS {
                        return Err(error(tag_start, &format!("a game has more than {MAX_TAGS} tags")));
                    }
                    if self.game.tags.is_empty() {
                        self.game.start = number;
                    }
                    self.game.tags.push(Tag { name, value, line: number, column: value_column, sectioned: false });
                }
                _ => {
                    // Section text: it belongs to the tag before it.
                    let Some(tag) = self.game.tags.last_mut() else {
                        return Err(error(at, "text before the first tag of a game (a tag is [Name \"value\"])"));
                    };
                    tag.sectioned = true;
                    if tag.name == "OptimumResultTable" && self.game.table_rows.len() < MAX_TABLE_ROWS {
                        let text = String::from_utf8_lossy(&line[at..]).into_owned();
                        self.game.table_rows.push((number, text));
                    }
                    return Ok(LineOutcome::Read);
                }
            }
        }
    }

    /// Ends the game read so far: its record when it has a deal.
    fn finish_game(&mut self) -> Result<Option<DealRecord>, RecordError> {
        let game = std::mem::take(&mut self.game);
        if game.tags.is_empty() {
            return Ok(None);
        }
        self.previous = game.tags.iter().map(|t| (t.name.clone(), t.value.clone())).collect();
        let Some(deal_tag) = game.tag("Deal") else { return Ok(None) };
        let at = |tag: &Tag, offset: usize, message: String| {
            RecordError::at_line(tag.line, Some(tag.column + offset as u64), message)
        };
        let deal = parse_pbn_deal(deal_tag.value.as_bytes())
            .map_err(|(offset, message)| at(deal_tag, offset, format!("Deal: {message}")))?;
        let mut board = BoardData::default();
        if let Some(tag) = game.tag("Board") {
            board.number = match tag.value.trim() {
                "" | "?" | "-" => None,
                text => {
                    Some(text.parse::<i64>().ok().filter(|n| (0..=1_000_000_000).contains(n)).ok_or_else(|| {
                        at(tag, 0, format!("Board \"{text}\" is not a board number (0 to 1000000000)"))
                    })?)
                }
            };
        }
        if let Some(tag) = game.tag("Dealer") {
            board.dealer = match tag.value.trim().as_bytes() {
                b"" | b"?" | b"-" => None,
                [letter] if seat_of(*letter).is_some() => seat_of(*letter),
                _ => return Err(at(tag, 0, format!("unknown Dealer \"{}\" (N, E, S or W)", tag.value))),
            };
        }
        if let Some(tag) = game.tag("Vulnerable") {
            board.vulnerability = match tag.value.trim().to_ascii_lowercase().as_str() {
                "?" | "" => None,
                "none" | "love" | "-" => Some(Vulnerability::None),
                "ns" => Some(Vulnerability::NS),
                "ew" => Some(Vulnerability::EW),
                "all" | "both" => Some(Vulnerability::All),
                _ => return Err(at(tag, 0, format!("unknown Vulnerable \"{}\" (None, NS, EW or All)", tag.value))),
            };
        }
        board.tags = game
            .tags
            .iter()
            .filter(|t| !t.sectioned && !STRUCTURED_TAGS.contains(&t.name.as_str()))
            .map(|t| (t.name.clone(), t.value.clone()))
            .collect();
        let table = match game.tag("OptimumResultTable") {
            Some(tag) => Some(result_table(tag, &game.table_rows)?),
            None => None,
        };
        let tricks = match game.tag("DoubleDummyTricks") {
            Some(tag) => double_dummy_tricks(tag)?,
            None => None,
        };
        if let (Some(table), Some(tricks), Some(tag)) = (table, tricks, game.tag("DoubleDummyTricks")) {
            if table != tricks {
                return Err(at(tag, 0, "DoubleDummyTricks and OptimumResultTable disagree".to_string()));
            }
        }
        Ok(Some(DealRecord { deal, line: game.start, board, dd: table.or(tricks) }))
    }
}

/// What reading a line did.
enum LineOutcome {
    /// It belongs to the game being read.
    Read,
    /// It starts the next game (a tag the game already has, with no blank line before it).
    StartsNextGame,
}

/// The tags read into the record's structure (or its table), not kept as text.
const STRUCTURED_TAGS: [&str; 8] =
    ["Deal", "Board", "Dealer", "Vulnerable", "OptimumResultTable", "DoubleDummyTricks", "OptimumScore", "ParContract"];

/// A strain as tables write it: `NT` (or `N`), `S`, `H`, `D`, `C`.
fn strain_named(text: &str) -> Option<Strain> {
    Some(match text.to_ascii_uppercase().as_str() {
        "NT" | "N" => Strain::Notrump,
        "S" => Strain::Suit(Suit::Spades),
        "H" => Strain::Suit(Suit::Hearts),
        "D" => Strain::Suit(Suit::Diamonds),
        "C" => Strain::Suit(Suit::Clubs),
        _ => return None,
    })
}

/// The table of an `OptimumResultTable` tag and its rows: the 20 results, each once.
fn result_table(tag: &Tag, rows: &[(u64, String)]) -> Result<DdTable, RecordError> {
    // The header names the columns: `Declarer;Denomination\2R;Result\2R` (`\…` formats them).
    let columns: Vec<String> =
        tag.value.split(';').map(|c| c.split('\\').next().unwrap_or("").trim().to_ascii_lowercase()).collect();
    let column = |name: &str| columns.iter().position(|c| c == name);
    let (Some(declarer_at), Some(strain_at), Some(result_at)) =
        (column("declarer"), column("denomination"), column("result"))
    else {
        return Err(RecordError::at_line(
            tag.line,
            Some(tag.column),
            format!("OptimumResultTable \"{}\" needs the columns Declarer, Denomination and Result", tag.value),
        ));
    };
    let mut table = DdTable::default();
    let mut seen = [[false; 5]; 4];
    for (line, text) in rows {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let bad = |message: String| RecordError::at_line(*line, None, format!("OptimumResultTable: {message}"));
        let field =
            |k: usize| fields.get(k).copied().ok_or_else(|| bad(format!("the row \"{text}\" has too few columns")));
        let declarer = field(declarer_at)?;
        let declarer = match declarer.as_bytes() {
            [letter] => seat_of(*letter),
            _ => None,
        }
        .ok_or_else(|| bad(format!("unknown declarer \"{declarer}\" (N, E, S or W)")))?;
        let strain = field(strain_at)?;
        let strain =
            strain_named(strain).ok_or_else(|| bad(format!("unknown denomination \"{strain}\" (NT, S, H, D or C)")))?;
        let result = field(result_at)?;
        let tricks = result
            .parse::<u8>()
            .ok()
            .filter(|&t| t <= 13)
            .ok_or_else(|| bad(format!("the result \"{result}\" is not 0 to 13 tricks")))?;
        let cell = &mut seen[declarer.index()][strain.index()];
        if std::mem::replace(cell, true) {
            return Err(bad(format!("{} in {} is given twice", declarer.name(), strain_text(strain))));
        }
        table.0[declarer.index()][strain.index()] = tricks;
    }
    let known = seen.iter().flatten().filter(|&&s| s).count();
    if known != 20 {
        return Err(RecordError::at_line(
            tag.line,
            Some(tag.column),
            format!("OptimumResultTable gives {known} of the 20 results"),
        ));
    }
    Ok(table)
}

/// A strain's name in messages.
fn strain_text(strain: Strain) -> &'static str {
    match strain {
        Strain::Notrump => "notrump",
        Strain::Suit(suit) => suit.name(),
    }
}

/// The table of a `DoubleDummyTricks` tag: 20 hexadecimal digits, declarers N, S, E, W, each
/// in NT, S, H, D, C. A value holding `*`, `-` or `?` leaves results unknown: no table.
fn double_dummy_tricks(tag: &Tag) -> Result<Option<DdTable>, RecordError> {
    let text = tag.value.trim();
    if text.bytes().any(|b| matches!(b, b'*' | b'-' | b'?')) || text.is_empty() {
        return Ok(None);
    }
    let bad =
        |message: String| RecordError::at_line(tag.line, Some(tag.column), format!("DoubleDummyTricks: {message}"));
    if text.len() != 20 {
        return Err(bad(format!("expected 20 hexadecimal digits, found {} characters", text.len())));
    }
    let mut table = DdTable::default();
    const DECLARERS: [Seat; 4] = [Seat::North, Seat::South, Seat::East, Seat::West];
    const STRAINS: [Strain; 5] = [
        Strain::Notrump,
        Strain::Suit(Suit::Spades),
        Strain::Suit(Suit::Hearts),
        Strain::Suit(Suit::Diamonds),
        Strain::Suit(Suit::Clubs),
    ];
    for (k, digit) in text.chars().enumerate() {
        let tricks = digit
            .to_digit(16)
            .filter(|&t| t <= 13)
            .ok_or_else(|| bad(format!("'{digit}' is not 0 to 13 tricks in hexadecimal (0-9, a-d)")))?;
        table.0[DECLARERS[k / 5].index()][STRAINS[k % 5].index()] = tricks as u8;
    }
    Ok(Some(table))
}
