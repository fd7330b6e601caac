//! JSON Lines: one JSON object per line, as libdealer's `printjson` writes them. An object
//! whose `type` is not `deal` (the run's summary object) is passed over; a deal object gives
//! `deal` (a PBN deal, required), and when present `board`, `dealer` (`N`…), `vulnerable`
//! (`None`, `NS`, `EW`, `All`), `dd` (tricks per declarer `north`… and strain `notrump`,
//! `spades`, `hearts`, `diamonds`, `clubs`) and `tags` (an object of strings, kept as PBN
//! tags). Other fields (`hands`, `values`, `par`…) are what libdealer derives and are read
//! again from the deal.

use serde_json::Value;

use crate::cards::{Seat, Strain};
use crate::dd::DdTable;
use crate::records::hand_text::parse_pbn_deal;
use crate::records::line_reader::LineReader;
use crate::records::{BoardData, DealRecord, RecordError};
use crate::script::ast::Vulnerability;

/// Reads JSON Lines deal objects.
pub struct JsonlReader {
    lines: LineReader,
}

impl JsonlReader {
    /// Deal objects from `lines`.
    pub fn new(lines: LineReader) -> JsonlReader {
        JsonlReader { lines }
    }

    /// The next deal object, or `None` at the end.
    pub fn next_record(&mut self) -> Result<Option<DealRecord>, RecordError> {
        loop {
            let Some((number, text)) = self.lines.next_line()? else { return Ok(None) };
            if text.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            let object: Value = serde_json::from_slice(text).map_err(|e| {
                RecordError::at_line(number, Some(e.column() as u64), format!("not a JSON object: {e}"))
            })?;
            let bad = |message: String| RecordError::at_line(number, None, message);
            let Value::Object(fields) = object else {
                return Err(bad("a line holds a JSON object ({…})".to_string()));
            };
            match fields.get("type") {
                None => {}
                Some(Value::String(kind)) if kind == "deal" => {}
                Some(Value::String(_)) => continue,
                Some(other) => return Err(bad(format!("\"type\" is a string, not {other}"))),
            }
            let Some(deal) = fields.get("deal") else { return Err(bad("a deal object needs \"deal\"".to_string())) };
            let Value::String(deal) = deal else {
                return Err(bad(format!("\"deal\" is a PBN deal string, not {deal}")));
            };
            let deal = parse_pbn_deal(deal.as_bytes()).map_err(|(_, message)| bad(format!("\"deal\": {message}")))?;
            let mut board = BoardData::default();
            if let Some(value) = fields.get("board") {
                board.number = Some(
                    value
                        .as_i64()
                        .filter(|n| (0..=1_000_000_000).contains(n))
                        .ok_or_else(|| bad(format!("\"board\" is a board number (0 to 1000000000), not {value}")))?,
                );
            }
            if let Some(value) = fields.get("dealer") {
                let seat = value.as_str().and_then(|s| match s.as_bytes() {
                    [letter] => crate::records::hand_text::seat_of(*letter),
                    _ => None,
                });
                board.dealer = Some(seat.ok_or_else(|| bad(format!("\"dealer\" is N, E, S or W, not {value}")))?);
            }
            if let Some(value) = fields.get("vulnerable") {
                let vulnerability = match value.as_str().map(str::to_ascii_lowercase).as_deref() {
                    Some("none") => Some(Vulnerability::None),
                    Some("ns") => Some(Vulnerability::NS),
                    Some("ew") => Some(Vulnerability::EW),
                    Some("all" | "both") => Some(Vulnerability::All),
                    _ => None,
                };
                board.vulnerability = Some(
                    vulnerability.ok_or_else(|| bad(format!("\"vulnerable\" is None, NS, EW or All, not {value}")))?,
                );
            }
            if let Some(value) = fields.get("tags") {
                let Value::Object(tags) = value else {
                    return Err(bad("\"tags\" is an object of strings".to_string()));
                };
                for (name, value) in tags {
                    let Value::String(value) = value else {
                        return Err(bad(format!("the tag \"{name}\" is a string, not {value}")));
                    };
                    board.tags.push((name.clone(), value.clone()));
                }
            }
            let dd = match fields.get("dd") {
                Some(value) => Some(dd_table(value).map_err(|m| bad(format!("\"dd\": {m}")))?),
                None => None,
            };
            return Ok(Some(DealRecord { deal, line: number, board, dd }));
        }
    }
}

/// The names of the strains in `dd` objects, by strain index (C, D, H, S, NT).
const STRAIN_NAMES: [&str; 5] = ["clubs", "diamonds", "hearts", "spades", "notrump"];

/// A `dd` object's table: every declarer and strain, 0 to 13 tricks.
fn dd_table(value: &Value) -> Result<DdTable, String> {
    let mut table = DdTable::default();
    for seat in Seat::ALL {
        let name = seat.name().to_ascii_lowercase();
        let row = value.get(&name).ok_or_else(|| format!("no \"{name}\" row"))?;
        for (strain, strain_name) in STRAIN_NAMES.iter().enumerate() {
            let tricks = row
                .get(strain_name)
                .and_then(Value::as_u64)
                .filter(|&t| t <= 13)
                .ok_or_else(|| format!("{name}'s \"{strain_name}\" is not 0 to 13 tricks"))?;
            table.0[seat.index()][Strain::from_index(strain).index()] = tricks as u8;
        }
    }
    Ok(table)
}
