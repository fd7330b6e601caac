//! Per-deal printers (`printall`, `printew`/`printns`/`printside`, `printcompact`,
//! `printoneline`, `printpbn`, `printes`) and the end-of-run `print(compass…)` pages, in both
//! peers' exact formats.
//!
//! The column-style layout shared by printall, printside and the pages: every card is `"X "`, a
//! void is `"- "`, and before every hand of a row except the first, `"  "` is written until the
//! previous hand has used 10 cells, so columns are 20 characters wide unless a suit has more than
//! 10 cards.

use std::io::Write;

use crate::actions::boards::{board_dealer, board_vulnerability, vulnerability_name, BoardLabel};
use crate::cards::{Deal, Hand, Seat, Side, Suit, RANK_LETTERS};
use crate::dialect::Dialect;
use crate::script::ast::Vulnerability;

/// Number of cells a column-style hand occupies before the next hand starts.
const COLUMN_CELLS: usize = 10;

/// Appends one suit row of column-style hands (no indent, no newline).
fn write_column_row(out: &mut Vec<u8>, hands: &[Hand], suit: Suit) {
    let mut used = COLUMN_CELLS;
    for hand in hands {
        while used < COLUMN_CELLS {
            out.extend_from_slice(b"  ");
            used += 1;
        }
        let bits = hand.suit_bits(suit);
        used = 0;
        if bits == 0 {
            out.extend_from_slice(b"- ");
            used = 1;
        } else {
            for rank in (0..13).rev() {
                if bits & (1 << rank) != 0 {
                    out.push(RANK_LETTERS[rank]);
                    out.push(b' ');
                    used += 1;
                }
            }
        }
    }
}

/// Appends the four suit rows (S, H, D, C) of column-style hands, each row prefixed by `indent`
/// and ended by `\n`.
fn write_column_block(out: &mut Vec<u8>, hands: &[Hand], indent: &[u8]) {
    for suit in Suit::PRINT_ORDER {
        out.extend_from_slice(indent);
        write_column_row(out, hands, suit);
        out.push(b'\n');
    }
}

/// The 5-space indent of DealerV2's printall and printside rows.
const V2_INDENT: &[u8] = b"     ";

/// Per-run state of the per-deal printers: the dialect, the title, and DealerV2's "print the title
/// next time" flags, kept separately for printall and for printside (printns/printew/printside
/// share one flag, as they share one function in DealerV2).
#[derive(Clone, Debug)]
pub struct PrintState {
    dialect: Dialect,
    title: Option<String>,
    printall_title_due: bool,
    printside_title_due: bool,
}

impl PrintState {
    /// State for a new run. An empty title counts as no title.
    pub fn new(dialect: Dialect, title: Option<String>) -> Self {
        let title = title.filter(|t| !t.is_empty());
        let due = title.is_some();
        PrintState { dialect, title, printall_title_due: due, printside_title_due: due }
    }

    /// Writes the `[title]` line if due (DealerV2 only) and clears the flag.
    fn write_title_if_due(out: &mut Vec<u8>, title: Option<&str>, due: &mut bool) {
        if let (true, Some(t)) = (*due, title) {
            let _ = writeln!(out, "{:18}[{}]", "", t);
            *due = false;
        }
    }

    /// After a deal, DealerV2 prints `\f` and re-arms the title every 10 produced deals.
    fn form_feed_if_due(out: &mut Vec<u8>, title: Option<&str>, produced: i64, due: &mut bool) {
        if title.is_some() && produced % 10 == 0 {
            out.push(b'\x0c');
            *due = true;
        }
    }

    /// `printall`. `produced` is the 1-based count of produced deals (nprod); `board` the number to
    /// print (nprod + startboard − 1 in DealerV2, nprod in classic).
    pub fn print_all(&mut self, out: &mut Vec<u8>, deal: &Deal, produced: i64, board: i64) {
        match self.dialect {
            Dialect::Classic => {
                let _ = writeln!(out, "{:4}.", board);
                write_column_block(out, &deal.0, b"");
                out.push(b'\n');
            }
            Dialect::V2 => {
                let title = self.title.as_deref();
                Self::write_title_if_due(out, title, &mut self.printall_title_due);
                let _ = writeln!(out, "{:4}. North              East                South               West ", board);
                write_column_block(out, &deal.0, V2_INDENT);
                out.push(b'\n');
                Self::form_feed_if_due(out, title, produced, &mut self.printall_title_due);
            }
        }
    }

    /// `printew` / `printns` / `printside(side)`. DealerV2 prints South, North or West, East under
    /// a numbered header; classic (which only has printew) prints West, East with no header and
    /// no indent (a North–South request prints South, North the same way).
    pub fn print_side(&mut self, out: &mut Vec<u8>, deal: &Deal, side: Side, produced: i64, board: i64) {
        let [first, second] = match side {
            Side::NS => [Seat::South, Seat::North],
            Side::EW => [Seat::West, Seat::East],
        };
        let hands = [deal.hand(first), deal.hand(second)];
        match self.dialect {
            Dialect::Classic => {
                write_column_block(out, &hands, b"");
                out.push(b'\n');
            }
            Dialect::V2 => {
                let title = self.title.as_deref();
                Self::write_title_if_due(out, title, &mut self.printside_title_due);
                let _ = writeln!(out, "{:4}. {:<5}              {:<5}", board, first.name(), second.name());
                write_column_block(out, &hands, V2_INDENT);
                out.push(b'\n');
                Self::form_feed_if_due(out, title, produced, &mut self.printside_title_due);
            }
        }
    }
}

/// `printcompact[(expr)]`: four lines `n <hand>` … `w <hand>`, then the value on its own line.
/// Same in both peers.
pub fn print_compact(out: &mut Vec<u8>, deal: &Deal, value: Option<i32>) {
    for seat in Seat::ALL {
        out.push(seat.lower_letter() as u8);
        out.push(b' ');
        deal.hand(seat).write_pbn(out);
        out.push(b'\n');
    }
    if let Some(v) = value {
        let _ = writeln!(out, "{}", v);
    }
}

/// `printoneline[(expr)]`: `n <hand> e <hand> s <hand> w <hand> ` then the value, then `\n`.
/// Same in both peers.
pub fn print_oneline(out: &mut Vec<u8>, deal: &Deal, value: Option<i32>) {
    deal.write_oneline(out);
    if let Some(v) = value {
        let _ = write!(out, "{}", v);
    }
    out.push(b'\n');
}

/// What `printpbn` needs besides the deal.
#[derive(Clone, Copy, Debug)]
pub struct PbnInfo<'a> {
    /// Which peer's tags to write.
    pub dialect: Dialect,
    /// What a practice run says of the board: its scenario names the `[Event]`, its hand type
    /// adds `[HandType]` after `[Board]` (Dealer3's tag).
    pub label: Option<&'a BoardLabel>,
    /// The script path as given on the command line; `None` (stdin) prints `(null)`.
    pub input_name: Option<&'a str>,
    /// The seed as the peer prints it with `%lu`.
    pub seed: u64,
    /// The title (DealerV2 `[Description]`; empty or `None` omits the tag).
    pub title: Option<&'a str>,
    /// Board number (nprod + startboard − 1 in DealerV2, nprod in classic).
    pub board: i64,
    /// The `dealer` statement, if any; otherwise the dealer rotates with the board.
    pub dealer: Option<Seat>,
    /// The `vulnerable` statement, if any; otherwise the 16-board cycle.
    pub vulnerability: Option<Vulnerability>,
    /// Today's date as `YYYY.MM.DD`.
    pub date: &'a str,
    /// The DealerV2 `[Generator]` tag names libdealer and its version ([`LIBDEALER_GENERATOR`])
    /// instead of DealerV2's text: set in ChaCha mode, where the deals are libdealer's own; the
    /// compatibility generators (drand48, glibc) keep the peer's bytes.
    pub names_libdealer: bool,
}

/// DealerV2's `[Generator]` tag value.
pub const PEER_GENERATOR: &str = "Dealer Version 2.4 by Hans, Henk, and JGM";

/// The `[Generator]` tag value in ChaCha mode: libdealer and the crate version.
pub const LIBDEALER_GENERATOR: &str = concat!("libdealer ", env!("CARGO_PKG_VERSION"));

/// `printpbn`: one PBN record followed by a blank line. A deal read from a record (`input`)
/// keeps the record's tags: its `[Event]`, `[Site]`, `[Date]`, players, `[Declarer]`,
/// `[Contract]` and `[Result]` replace the generated ones, and its other tags follow them.
///
/// Returns `true` when the peer toggles its end-of-run footer flag as a side effect: classic
/// dealer flips `verbose` on every call, so the session must flip its "print the footer" state
/// whenever this returns `true` (and must not call this at all under `-q`).
pub fn print_pbn(out: &mut Vec<u8>, deal: &Deal, info: &PbnInfo) -> bool {
    let file = info.input_name.unwrap_or("(null)");
    let scenario = info.label.and_then(|l| l.scenario.as_deref());
    // A record read from a file keeps its tags: its values replace the generated ones.
    let record = info.label.and_then(|l| l.record.as_deref());
    let recorded = |name: &str| record.and_then(|r| r.tag(name));
    let write_tag = |out: &mut Vec<u8>, name: &str, value: &str| {
        // A PBN value is one line: control characters (a line break from a JSON tag) become
        // spaces; `\` and `"` are escaped.
        let value: String = value.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
        let _ = writeln!(out, "[{name} \"{}\"]", value.replace('\\', "\\\\").replace('"', "\\\""));
    };
    match info.dialect {
        _ if recorded("Event").is_some() || recorded("Site").is_some() => {
            write_tag(out, "Event", recorded("Event").unwrap_or("-"));
            write_tag(out, "Site", recorded("Site").unwrap_or("-"));
            for name in ["Description", "Generator"] {
                if let Some(value) = recorded(name) {
                    write_tag(out, name, value);
                }
            }
        }
        _ if scenario.is_some() => {
            let _ = writeln!(out, "[Event \"{}\"]", scenario.unwrap_or_default());
            out.extend_from_slice(b"[Site \"-\"]\n");
        }
        Dialect::Classic => {
            let _ = writeln!(out, "[Event \"Hand simulated by dealer with file {}, seed {}\"]", file, info.seed);
            out.extend_from_slice(b"[Site \"-\"]\n");
        }
        Dialect::V2 => {
            let _ = writeln!(out, "[Event \"Hand simulated by DealerV2_4 with file {}, seed {}\"]", file, info.seed);
            out.extend_from_slice(b"[Site \"-\"]\n");
            if let Some(t) = info.title.filter(|t| !t.is_empty()) {
                let _ = writeln!(out, "[Description \"{}\"]", t);
            }
            let generator = if info.names_libdealer { LIBDEALER_GENERATOR } else { PEER_GENERATOR };
            let _ = writeln!(out, "[Generator \"{}\"]", generator);
        }
    }
    let dealer = info.dealer.unwrap_or_else(|| board_dealer(info.board));
    let vulnerability = info.vulnerability.unwrap_or_else(|| board_vulnerability(info.board));
    match recorded("Date") {
        Some(date) => write_tag(out, "Date", date),
        None => {
            let _ = writeln!(out, "[Date \"{}\"]", info.date);
        }
    }
    let _ = writeln!(out, "[Board \"{}\"]", info.board);
    if let Some(hand_type) = info.label.and_then(|l| l.hand_type.as_deref()) {
        let _ = writeln!(out, "[HandType \"{hand_type}\"]");
    }
    for seat in ["West", "North", "East", "South"] {
        write_tag(out, seat, recorded(seat).unwrap_or("-"));
    }
    let _ = writeln!(out, "[Dealer \"{}\"]", dealer.upper_letter());
    let _ = writeln!(out, "[Vulnerable \"{}\"]", vulnerability_name(vulnerability));
    out.extend_from_slice(b"[Deal \"N:");
    for (i, seat) in Seat::ALL.into_iter().enumerate() {
        if i > 0 {
            out.push(b' ');
        }
        deal.hand(seat).write_pbn(out);
    }
    out.extend_from_slice(b"\"]\n");
    for name in ["Declarer", "Contract", "Result"] {
        write_tag(out, name, recorded(name).unwrap_or("?"));
    }
    if let Some(record) = record {
        for (name, value) in &record.tags {
            // Only names PBN allows, and none a board's structure writes (`Deal`…).
            let pbn_name = name.starts_with(|c: char| c.is_ascii_alphabetic())
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            if pbn_name && !WRITTEN_TAGS.contains(&name.as_str()) && !STRUCTURE_TAGS.contains(&name.as_str()) {
                write_tag(out, name, value);
            }
        }
    }
    out.push(b'\n');
    info.dialect == Dialect::Classic
}

/// The tags a board's structure and double dummy write: a record's tags of these names (from a
/// JSON Lines `tags` object) are not copied.
const STRUCTURE_TAGS: [&str; 7] =
    ["Deal", "Dealer", "Vulnerable", "OptimumResultTable", "DoubleDummyTricks", "OptimumScore", "ParContract"];

/// The tags `printpbn` writes in its fixed order (a record's values replace the generated ones);
/// a record's other tags follow them.
const WRITTEN_TAGS: [&str; 14] = [
    "Event",
    "Site",
    "Description",
    "Generator",
    "Date",
    "West",
    "North",
    "East",
    "South",
    "Declarer",
    "Contract",
    "Result",
    "Board",
    "HandType",
];

/// One item of `printes(…)`: an evaluated expression or raw text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EsItem<'a> {
    /// An expression's value, printed with `%d`.
    Number(i32),
    /// A string (or the `\n` token), printed as is.
    Text(&'a str),
}

/// `printes(…)`: the items concatenated, nothing added. Same in both peers.
pub fn print_es(out: &mut Vec<u8>, items: &[EsItem]) {
    for item in items {
        match item {
            EsItem::Number(n) => {
                let _ = write!(out, "{}", n);
            }
            EsItem::Text(t) => out.extend_from_slice(t.as_bytes()),
        }
    }
}

/// Deals per row of `print(compass…)` pages.
const PAGE_DEALS_PER_ROW: usize = 4;

/// The end-of-run `print(compass…)` pages from the stored produced deals. Seats print in N, E, S,
/// W order whatever order `seats` has (duplicates print once); `first_board` is the number of the
/// first deal (startboard in DealerV2, 1 in classic). `title` is used by DealerV2 only.
pub fn print_hand_pages(
    out: &mut Vec<u8>,
    dialect: Dialect,
    deals: &[Deal],
    seats: &[Seat],
    title: Option<&str>,
    first_board: i64,
) {
    for seat in page_seats(seats) {
        write_page_header(out, dialect, seat, title);
        let mut board = first_board;
        for group in deals.chunks(PAGE_DEALS_PER_ROW) {
            write_page_row(out, seat, group, board);
            board += group.len() as i64;
        }
        out.push(b'\x0c');
    }
}

/// The seats `print(seats…)` prints, in N, E, S, W order, each once.
fn page_seats(seats: &[Seat]) -> impl Iterator<Item = Seat> + '_ {
    Seat::ALL.into_iter().filter(|s| seats.contains(s))
}

/// The heading of one seat's page.
fn write_page_header(out: &mut Vec<u8>, dialect: Dialect, seat: Seat, title: Option<&str>) {
    match dialect {
        Dialect::Classic => {
            let _ = write!(out, "\n\n{} hands:\n\n\n\n", seat.name());
        }
        Dialect::V2 => {
            if let Some(t) = title.filter(|t| !t.is_empty()) {
                let _ = writeln!(out, "{}", t);
            }
            let _ = write!(out, "\n{} hands:\n\n", seat.name());
        }
    }
}

/// One row of a seat's page: the board numbers of up to [`PAGE_DEALS_PER_ROW`] deals, then the
/// seat's hands side by side, from board `board` on.
fn write_page_row(out: &mut Vec<u8>, seat: Seat, group: &[Deal], board: i64) {
    for (i, _) in group.iter().enumerate() {
        let _ = write!(out, "{:4}.{:15}", board + i as i64, "");
    }
    out.push(b'\n');
    let mut hands = [Hand::EMPTY; PAGE_DEALS_PER_ROW];
    for (slot, deal) in hands.iter_mut().zip(group) {
        *slot = deal.hand(seat);
    }
    write_column_block(out, &hands[..group.len()], b"");
    out.push(b'\n');
}

/// The length of what [`print_hand_pages`] will print, kept up to date deal by deal without the
/// text (an output ceiling must count the pages before they are printed at the end of the run).
#[derive(Clone, Debug)]
pub struct HandPagesLength {
    seats: Vec<Seat>,
    /// The bytes of the headings, form feeds and complete rows.
    settled: usize,
    /// The deals of the row being filled (fewer than a row).
    row: Vec<Deal>,
    /// The board number of the row's first deal.
    row_board: i64,
    /// Where rows are printed to be measured.
    scratch: Vec<u8>,
}

impl HandPagesLength {
    /// The length of `print_hand_pages` with these arguments and no deals yet.
    pub fn new(dialect: Dialect, seats: &[Seat], title: Option<&str>, first_board: i64) -> HandPagesLength {
        let seats: Vec<Seat> = page_seats(seats).collect();
        let mut scratch = Vec::new();
        for &seat in &seats {
            write_page_header(&mut scratch, dialect, seat, title);
            scratch.push(b'\x0c');
        }
        HandPagesLength { seats, settled: scratch.len(), row: Vec::new(), row_board: first_board, scratch }
    }

    /// The length of the pages of the deals counted so far and `extra` after them.
    pub fn bytes_with(&mut self, extra: Option<&Deal>) -> usize {
        self.row.extend(extra);
        self.scratch.clear();
        if !self.row.is_empty() {
            for &seat in &self.seats {
                write_page_row(&mut self.scratch, seat, &self.row, self.row_board);
            }
        }
        if extra.is_some() {
            self.row.pop();
        }
        self.settled + self.scratch.len()
    }

    /// Counts one more deal.
    pub fn add(&mut self, deal: &Deal) {
        self.row.push(*deal);
        if self.row.len() == PAGE_DEALS_PER_ROW {
            self.settled = self.bytes_with(None);
            self.row.clear();
            self.row_board += PAGE_DEALS_PER_ROW as i64;
        }
    }
}
