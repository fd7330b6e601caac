//! What one record read from a file holds: the deal, the board data that goes with it and,
//! when the record carries one, its double-dummy table.

use crate::cards::{Deal, Seat};
use crate::dd::DdTable;
use crate::script::ast::Vulnerability;

/// The board data a record carries, each part when the record gives it: they replace the
/// numbers, dealers and vulnerabilities computed from a deal's position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BoardData {
    /// The board number (PBN `[Board]`, LIN `ah|Board N|` or `qx|oN|`, JSON `board`).
    pub number: Option<i64>,
    /// The dealer (PBN `[Dealer]`, LIN `md|` digit, JSON `dealer`).
    pub dealer: Option<Seat>,
    /// The vulnerability (PBN `[Vulnerable]`, LIN `sv|`, JSON `vulnerable`).
    pub vulnerability: Option<Vulnerability>,
    /// Other tags, in the record's order, with their values unescaped: PBN `[Event]`, `[Site]`,
    /// `[Date]`, player names…, LIN player names (`pn|`) as `South`, `West`, `North`, `East`,
    /// JSON `tags`.
    pub tags: Vec<(String, String)>,
}

impl BoardData {
    /// The value of tag `name` (case as written in PBN: `Event`, `Site`…), when the record has it.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// Whether the record gives no board data at all.
    pub fn is_empty(&self) -> bool {
        self.number.is_none() && self.dealer.is_none() && self.vulnerability.is_none() && self.tags.is_empty()
    }
}

/// One deal read from a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DealRecord {
    /// The deal: all 52 cards, 13 to a hand.
    pub deal: Deal,
    /// Where the record starts: its first line (text formats) or its number from 1 (binary).
    pub line: u64,
    /// The board data the record carries.
    pub board: BoardData,
    /// The double-dummy table the record carries (PBN `OptimumResultTable` or
    /// `DoubleDummyTricks`, JSON `dd`, ZRD's 20 results), when it has a whole one.
    pub dd: Option<DdTable>,
}

impl DealRecord {
    /// A record of `deal` alone, starting at `line`.
    pub fn bare(deal: Deal, line: u64) -> DealRecord {
        DealRecord { deal, line, board: BoardData::default(), dd: None }
    }
}
