//! PBN (Portable Bridge Notation 2.1) hand records, as dealing programs, BridgeComposer, BBO,
//! endplay and libdealer write them: games separated by blank lines, each a list of tags
//! `[Name "value"]`, some followed by section lines (an auction, a play record, a table).
//!
//! A game with a `[Deal]` becomes a record: `[Board]`, `[Dealer]` and `[Vulnerable]` are its
//! board data, every other single-line tag is kept in order, and its double-dummy table is
//! read from `[OptimumResultTable]` (any column order; the columns named `Declarer`,
//! `Denomination` and `Result`) or from BridgeComposer's `[DoubleDummyTricks]` (20 hexadecimal
//! digits, declarers N S E W, each NT S H D C). A value `#` repeats the previous game's value
//! of the tag (PBN's export shorthand). `%` lines, `;` comments, `{…}` commentary and text
//! between games (the peers' statistics after their `printpbn` records) are passed over. A
//! game without a deal (a file header) is no record.

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

/// One tag of the game being read: its name and value (ranges of the game's text), and where
/// the value starts.
struct Tag {
    name: std::ops::Range<usize>,
    value: std::ops::Range<usize>,
    line: u64,
    column: u64,
    /// Whether section lines followed it (an auction, a play record, a table).
    sectioned: bool,
}

/// The game being read (its buffers are kept from game to game: reading allocates little).
#[derive(Default)]
struct Game {
    start: u64,
    /// Whether it has a `[Deal]` tag.
    has_deal: bool,
    /// The tags' names and values, one after the other.
    text: String,
    tags: Vec<Tag>,
    /// The `OptimumResultTable` rows: (line, text).
    table_rows: Vec<(u64, String)>,
}

impl Game {
    fn name(&self, tag: &Tag) -> &str {
        &self.text[tag.name.clone()]
    }

    fn value(&self, tag: &Tag) -> &str {
        &self.text[tag.value.clone()]
    }

    fn tag(&self, name: &str) -> Option<&Tag> {
        self.tags.iter().find(|t| self.name(t) == name)
    }

    fn value_of(&self, name: &str) -> Option<&str> {
        self.tag(name).map(|t| self.value(t))
    }

    fn clear(&mut self) {
        self.has_deal = false;
        self.text.clear();
        self.tags.clear();
        self.table_rows.clear();
    }
}

/// Reads PBN games.
pub struct PbnReader {
    lines: LineReader,
    state: GameReader,
}

/// What the PBN reader keeps between lines.
#[derive(Default)]
struct GameReader {
    game: Game,
    /// The previous game, for `#`.
    previous: Game,
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
        PbnReader { lines, state: GameReader::default() }
    }

    /// The next game with a deal, or `None` at the end.
    pub fn next_record(&mut self) -> Result<Option<DealRecord>, RecordError> {
        let state = &mut self.state;
        loop {
            let held = state.held.take();
            let (number, line) = match &held {
                Some((number, line)) => (*number, line.as_slice()),
                None => match self.lines.next_line() {
                    Ok(Some(line)) => line,
                    Ok(None) => {
                        state.skipping = false;
                        return state.finish_game();
                    }
                    Err(e) => {
                        if !e.fatal {
                            state.skipping = true;
                            state.game.clear();
                        }
                        return Err(e);
                    }
                },
            };
            let blank = line.iter().all(u8::is_ascii_whitespace) && !state.in_commentary;
            if state.skipping {
                if blank {
                    state.skipping = false;
                }
                continue;
            }
            if blank {
                if let Some(record) = state.finish_game()? {
                    return Ok(Some(record));
                }
                continue;
            }
            match state.read_line(number, line) {
                Ok(LineOutcome::Read) => {}
                Ok(LineOutcome::StartsNextGame) => {
                    state.held = Some((number, line.to_vec()));
                    if let Some(record) = state.finish_game()? {
                        return Ok(Some(record));
                    }
                }
                Err(e) => {
                    state.game.clear();
                    state.skipping = true;
                    return Err(e);
                }
            }
        }
    }
}

impl GameReader {
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
                    let name = std::str::from_utf8(&line[name_start..at]).expect("ASCII");
                    while line.get(at).is_some_and(u8::is_ascii_whitespace) {
                        at += 1;
                    }
                    if line.get(at) != Some(&b'"') {
                        return Err(error(at, &format!("expected '\"' before the value of the tag {name}")));
                    }
                    at += 1;
                    let value_column = at as u64 + 1;
                    let value_start = at;
                    let mut escaped = false;
                    loop {
                        match line.get(at) {
                            None => return Err(error(at, &format!("the value of the tag {name} has no closing '\"'"))),
                            Some(b'\\') if matches!(line.get(at + 1), Some(b'"' | b'\\')) => {
                                escaped = true;
                                at += 2;
                            }
                            Some(b'"') => break,
                            Some(_) => at += 1,
                        }
                    }
                    let raw = &line[value_start..at];
                    at += 1;
                    while line.get(at).is_some_and(u8::is_ascii_whitespace) {
                        at += 1;
                    }
                    if line.get(at) != Some(&b']') {
                        return Err(error(at, &format!("expected ']' after the value of the tag {name}")));
                    }
                    at += 1;
                    if tag_start == 0 && self.game.has_deal && self.game.tag(name).is_some() {
                        // The same tag again: a new game that no blank line separated.
                        return Ok(LineOutcome::StartsNextGame);
                    }
                    if BOARD_TAGS.contains(&name) && self.game.tag(name).is_some() {
                        return Err(error(tag_start, &format!("the tag {name} is given twice in a game")));
                    }
                    if self.game.tags.len() >= MAX_TAGS {
                        return Err(error(tag_start, &format!("a game has more than {MAX_TAGS} tags")));
                    }
                    if self.game.tags.is_empty() {
                        self.game.start = number;
                    }
                    let text = &mut self.game.text;
                    let name_range = text.len()..text.len() + name.len();
                    text.push_str(name);
                    let value_from = text.len();
                    let previous = if raw == b"#" { self.previous.value_of(name) } else { None };
                    match previous {
                        // `#`: the previous game's value.
                        Some(previous) => text.push_str(previous),
                        None if escaped => {
                            let mut k = 0;
                            let mut unescaped = Vec::with_capacity(raw.len());
                            while k < raw.len() {
                                if raw[k] == b'\\' && matches!(raw.get(k + 1), Some(b'"' | b'\\')) {
                                    k += 1;
                                }
                                unescaped.push(raw[k]);
                                k += 1;
                            }
                            text.push_str(&String::from_utf8_lossy(&unescaped));
                        }
                        None => match std::str::from_utf8(raw) {
                            Ok(value) => text.push_str(value),
                            Err(_) => text.push_str(&String::from_utf8_lossy(raw)),
                        },
                    }
                    let value_range = value_from..text.len();
                    self.game.has_deal |= name == "Deal";
                    self.game.tags.push(Tag {
                        name: name_range,
                        value: value_range,
                        line: number,
                        column: value_column,
                        sectioned: false,
                    });
                }
                _ => {
                    // Section text: it belongs to the tag before it.
                    let game = &mut self.game;
                    let Some(tag) = game.tags.last_mut() else {
                        // Text between games (a run's statistics after its printpbn records,
                        // a heading): no game's, passed over.
                        return Ok(LineOutcome::Read);
                    };
                    tag.sectioned = true;
                    if &game.text[tag.name.clone()] == "OptimumResultTable" && game.table_rows.len() < MAX_TABLE_ROWS {
                        let text = String::from_utf8_lossy(&line[at..]).into_owned();
                        game.table_rows.push((number, text));
                    }
                    return Ok(LineOutcome::Read);
                }
            }
        }
    }

    /// Ends the game read so far: its record when it has a deal. The game becomes the previous
    /// one (for `#`) when it has tags.
    fn finish_game(&mut self) -> Result<Option<DealRecord>, RecordError> {
        if self.game.tags.is_empty() {
            return Ok(None);
        }
        let record = record_of(&self.game);
        std::mem::swap(&mut self.game, &mut self.previous);
        self.game.clear();
        record
    }
}

/// The record of a game, when it has a deal.
fn record_of(game: &Game) -> Result<Option<DealRecord>, RecordError> {
    let Some(deal_tag) = game.tag("Deal") else { return Ok(None) };
    let at = |tag: &Tag, offset: usize, message: String| {
        RecordError::at_line(tag.line, Some(tag.column + offset as u64), message)
    };
    let deal = parse_pbn_deal(game.value(deal_tag).as_bytes())
        .map_err(|(offset, message)| at(deal_tag, offset, format!("Deal: {message}")))?;
    let mut board = BoardData::default();
    if let Some(tag) = game.tag("Board") {
        board.number = match game.value(tag).trim() {
            "" | "?" | "-" => None,
            text => Some(
                text.parse::<i64>()
                    .ok()
                    .filter(|n| (0..=1_000_000_000).contains(n))
                    .ok_or_else(|| at(tag, 0, format!("Board \"{text}\" is not a board number (0 to 1000000000)")))?,
            ),
        };
    }
    if let Some(tag) = game.tag("Dealer") {
        let value = game.value(tag);
        board.dealer = match value.trim().as_bytes() {
            b"" | b"?" | b"-" => None,
            [letter] if seat_of(*letter).is_some() => seat_of(*letter),
            _ => return Err(at(tag, 0, format!("unknown Dealer \"{value}\" (N, E, S or W)"))),
        };
    }
    if let Some(tag) = game.tag("Vulnerable") {
        let value = game.value(tag);
        board.vulnerability = match value.trim().to_ascii_lowercase().as_str() {
            "?" | "" => None,
            "none" | "love" | "-" => Some(Vulnerability::None),
            "ns" => Some(Vulnerability::NS),
            "ew" => Some(Vulnerability::EW),
            "all" | "both" => Some(Vulnerability::All),
            _ => return Err(at(tag, 0, format!("unknown Vulnerable \"{value}\" (None, NS, EW or All)"))),
        };
    }
    let kept = |t: &&Tag| !t.sectioned && !STRUCTURED_TAGS.contains(&game.name(t));
    board.tags = Vec::with_capacity(game.tags.iter().filter(kept).count());
    board.tags.extend(game.tags.iter().filter(kept).map(|t| (game.name(t).to_string(), game.value(t).to_string())));
    let table = match game.tag("OptimumResultTable") {
        Some(tag) => Some(result_table(game.value(tag), tag, &game.table_rows)?),
        None => None,
    };
    let tricks_tag = game.tag("DoubleDummyTricks");
    let tricks = match tricks_tag {
        Some(tag) => double_dummy_tricks(game.value(tag), tag)?,
        None => None,
    };
    if let (Some(table), Some(tricks), Some(tag)) = (table, tricks, tricks_tag) {
        if table != tricks {
            return Err(at(tag, 0, "DoubleDummyTricks and OptimumResultTable disagree".to_string()));
        }
    }
    Ok(Some(DealRecord { deal, line: game.start, board, dd: table.or(tricks) }))
}

/// What reading a line did.
enum LineOutcome {
    /// It belongs to the game being read.
    Read,
    /// It starts the next game (a tag the game already has, with no blank line before it).
    StartsNextGame,
}

/// The tags that make the board: one of each to a game.
const BOARD_TAGS: [&str; 4] = ["Deal", "Board", "Dealer", "Vulnerable"];

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
fn result_table(header: &str, tag: &Tag, rows: &[(u64, String)]) -> Result<DdTable, RecordError> {
    // The header names the columns: `Declarer;Denomination\2R;Result\2R` (`\…` formats them).
    let columns: Vec<String> =
        header.split(';').map(|c| c.split('\\').next().unwrap_or("").trim().to_ascii_lowercase()).collect();
    let column = |name: &str| columns.iter().position(|c| c == name);
    let (Some(declarer_at), Some(strain_at), Some(result_at)) =
        (column("declarer"), column("denomination"), column("result"))
    else {
        return Err(RecordError::at_line(
            tag.line,
            Some(tag.column),
            format!("OptimumResultTable \"{header}\" needs the columns Declarer, Denomination and Result"),
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
fn double_dummy_tricks(value: &str, tag: &Tag) -> Result<Option<DdTable>, RecordError> {
    let text = value.trim();
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
