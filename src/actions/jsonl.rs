//! `printjson(…)` and `--format=jsonl`: JSON Lines, one object per board and, on request, one
//! end-of-run summary object. The schema (version [`SCHEMA`], field `"schema"` in every object) is
//! documented in the manual ("Output formats", docs/src/reference/output-formats.md):
//!
//! ```text
//! {"schema":1,"type":"deal","board":1,"dealer":"N","vulnerable":"None","deal":"N:… … … …",
//!  "hands":{"north":{"pbn":"AK2.Q3.KJ43.AT98","spades":"AK2","hearts":"Q3","diamonds":"KJ43",
//!  "clubs":"AT98"},"east":{…},"south":{…},"west":{…}},"values":{"hcp_north":13}}
//! {"schema":1,"type":"deal",…,"values":{},"dd":{"north":{"notrump":9,"spades":10,"hearts":8,
//!  "diamonds":7,"clubs":8},"east":{…},"south":{…},"west":{…}},"par":{"score_ns":420,
//!  "contracts":"NS 4S"}}
//! {"schema":1,"type":"summary","generated":1234,"produced":10,"seed":42,"seconds":0.012}
//! {"schema":1,"type":"summary",…,"seconds":0.012,"smart":[{"seat":"south","accepted":311089243,
//!  "possible":635013559600,"dealt_from_table":true}]}
//! {"schema":1,"type":"summary",…,"smart":[{"seat":"east","accepted":89685351723,
//!  "possible":635013559600,"share_under_bias":5.287105870578126e-2,"dealt_from_table":true}]}
//! ```
//!
//! (each object on one line; `"smart"` only when smart dealing counted a seat's part of the
//! condition, with `"partner"` when it counted a pair's cards together; `"dd"` and `"par"` only with the `json_dd` option). Strings are escaped as RFC 8259 requires: `"` and `\` with a
//! backslash, control characters as `\n`, `\t`, … or `\u00XX`; other text is written as is (UTF-8).

use std::io::Write;

use crate::actions::boards::{vulnerability_name, Board, BoardLabel};
use crate::actions::footer::RunSummary;
use crate::actions::pbn_dd::{par_contracts_text, ROW_STRAINS};
use crate::cards::{Seat, Strain, Suit};
use crate::dd::{DdTable, Par};

/// The version of the JSON Lines schema, written as `"schema"` in every object. Raised when a
/// field changes meaning or disappears; new fields may be added without raising it.
pub const SCHEMA: u32 = 1;

/// Appends `text` as a JSON string literal (quotes included), escaped per RFC 8259.
pub fn write_json_string(out: &mut Vec<u8>, text: &str) {
    out.push(b'"');
    for c in text.chars() {
        match c {
            '"' => out.extend_from_slice(b"\\\""),
            '\\' => out.extend_from_slice(b"\\\\"),
            '\n' => out.extend_from_slice(b"\\n"),
            '\r' => out.extend_from_slice(b"\\r"),
            '\t' => out.extend_from_slice(b"\\t"),
            '\u{8}' => out.extend_from_slice(b"\\b"),
            '\u{c}' => out.extend_from_slice(b"\\f"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => {
                let mut buf = [0u8; 4];
                out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            }
        }
    }
    out.push(b'"');
}

/// The key of a seat's hand in `"hands"`.
fn seat_key(seat: Seat) -> &'static str {
    ["north", "east", "south", "west"][seat.index()]
}

/// The key of a suit in a hand object.
fn suit_key(suit: Suit) -> &'static str {
    ["clubs", "diamonds", "hearts", "spades"][suit.index()]
}

/// The key of a strain in a `"dd"` declarer object.
fn strain_key(strain: Strain) -> &'static str {
    match strain {
        Strain::Notrump => "notrump",
        Strain::Suit(suit) => suit_key(suit),
    }
}

/// `printjson(…)`: the object of one board and its named values (and the tags of a record read
/// from a file, `"tags"`), then a newline; with `dd` (the
/// `json_dd` option) also the board's double-dummy table (`"dd"`: tricks by declarer and strain)
/// and par for its vulnerability (`"par"`: North–South's score and the par contracts, written as
/// PBN's `ParContract`).
pub fn print_json(
    out: &mut Vec<u8>,
    board: &Board,
    label: Option<&BoardLabel>,
    values: &[(&str, i32)],
    dd: Option<(&DdTable, &Par)>,
) {
    let _ = write!(
        out,
        "{{\"schema\":{SCHEMA},\"type\":\"deal\",\"board\":{},\"dealer\":\"{}\",\"vulnerable\":\"{}\",",
        board.number,
        board.dealer.upper_letter(),
        vulnerability_name(board.vulnerability)
    );
    if let Some(scenario) = label.and_then(|l| l.scenario.as_deref()) {
        out.extend_from_slice(b"\"scenario\":");
        write_json_string(out, scenario);
        out.push(b',');
    }
    if let Some(hand_type) = label.and_then(|l| l.hand_type.as_deref()) {
        out.extend_from_slice(b"\"hand_type\":");
        write_json_string(out, hand_type);
        out.push(b',');
    }
    if let Some(record) = label.and_then(|l| l.record.as_deref()).filter(|r| !r.tags.is_empty()) {
        // The tags of a record read from a file (PBN's `[Event]`, players…), as read.
        out.extend_from_slice(b"\"tags\":{");
        for (i, (name, value)) in record.tags.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            write_json_string(out, name);
            out.push(b':');
            write_json_string(out, value);
        }
        out.extend_from_slice(b"},");
    }
    out.extend_from_slice(b"\"deal\":\"N:");
    for (i, seat) in Seat::ALL.into_iter().enumerate() {
        if i > 0 {
            out.push(b' ');
        }
        board.deal.hand(seat).write_pbn(out);
    }
    out.extend_from_slice(b"\",\"hands\":{");
    for (i, seat) in Seat::ALL.into_iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        let hand = board.deal.hand(seat);
        let _ = write!(out, "\"{}\":{{\"pbn\":\"", seat_key(seat));
        hand.write_pbn(out);
        out.push(b'"');
        for suit in Suit::PRINT_ORDER {
            let _ = write!(out, ",\"{}\":\"", suit_key(suit));
            hand.write_suit(suit, out);
            out.push(b'"');
        }
        out.push(b'}');
    }
    out.extend_from_slice(b"},\"values\":{");
    for (i, (name, value)) in values.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        write_json_string(out, name);
        let _ = write!(out, ":{value}");
    }
    out.push(b'}');
    if let Some((table, par)) = dd {
        out.extend_from_slice(b",\"dd\":{");
        for (i, seat) in Seat::ALL.into_iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            let _ = write!(out, "\"{}\":{{", seat_key(seat));
            for (j, strain) in ROW_STRAINS.into_iter().enumerate() {
                if j > 0 {
                    out.push(b',');
                }
                let _ = write!(out, "\"{}\":{}", strain_key(strain), table.tricks(seat, strain));
            }
            out.push(b'}');
        }
        let _ = write!(out, "}},\"par\":{{\"score_ns\":{},\"contracts\":", par.score_ns);
        write_json_string(out, &par_contracts_text(par));
        out.push(b'}');
    }
    out.extend_from_slice(b"}\n");
}

/// The end-of-run summary object: deals generated and produced, the seed, elapsed seconds, the
/// seat factors smart dealing counted (when it counted any), and what double dummy cost (`dd`:
/// threshold questions, exact results and tables solved, questions the cards answered; when
/// the run could ask double dummy, merged runs aside).
pub fn write_json_summary(out: &mut Vec<u8>, s: &RunSummary) {
    let _ = write!(
        out,
        "{{\"schema\":{SCHEMA},\"type\":\"summary\",\"generated\":{},\"produced\":{},\"seed\":{},\"seconds\":{:.3}",
        s.generated, s.produced, s.seed_printed, s.seconds
    );
    if !s.smart.is_empty() {
        out.extend_from_slice(b",\"smart\":[");
        for (i, count) in s.smart.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            let _ = write!(out, "{{\"seat\":\"{}\",", seat_key(count.seat));
            if let Some(partner) = count.partner {
                let _ = write!(out, "\"partner\":\"{}\",", seat_key(partner));
            }
            let _ = write!(out, "\"accepted\":{},\"possible\":{},", count.accepted, count.possible);
            if let Some(share) = count.share_under_bias {
                let _ = write!(out, "\"share_under_bias\":{share:e},");
            }
            let _ = write!(out, "\"dealt_from_table\":{}}}", count.dealt_from_table);
        }
        out.push(b']');
    }
    if let Some(input) = s.input {
        out.extend_from_slice(b",\"input\":{\"name\":");
        write_json_string(out, input.name);
        let _ = write!(
            out,
            ",\"format\":\"{}\",\"records_read\":{},\"malformed_skipped\":{},\"off_predeal_skipped\":{},\"dd_read\":{},\"dd_verified\":{}}}",
            input.format, input.records_read, input.malformed, input.off_predeal, input.dd_read, input.dd_verified
        );
    }
    if let Some(dd) = s.dd {
        let _ = write!(
            out,
            ",\"dd\":{{\"thresholds\":{},\"exact\":{},\"tables\":{},\"by_the_cards\":{},\"leads\":{}}}",
            dd.thresholds, dd.exact, dd.tables, dd.by_the_cards, dd.leads
        );
    }
    if let Some(p) = s.precision {
        let _ = write!(
            out,
            ",\"precision\":{{\"wanted\":{},\"widest\":{},\"reached\":{}}}",
            p.wanted,
            crate::actions::precision::json_number(p.widest),
            p.widest <= p.wanted
        );
    }
    if !s.statistics.is_empty() {
        out.extend_from_slice(b",\"statistics\":");
        out.extend_from_slice(s.statistics.as_bytes());
    }
    if !s.leads.is_empty() {
        out.extend_from_slice(b",\"leads\":[");
        for (i, report) in s.leads.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            report.write_json(out);
        }
        out.push(b']');
    }
    if !s.hand_types.is_empty() {
        // Dealer3's `hand_types` rows: every declared type, its boards and their share.
        out.extend_from_slice(b",\"hand_types\":[");
        for (i, (name, produced)) in s.hand_types.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            out.extend_from_slice(b"{\"name\":");
            write_json_string(out, name);
            let share = if s.produced > 0 { *produced as f64 / s.produced as f64 } else { 0.0 };
            let _ = write!(out, ",\"produced\":{produced},\"share\":{share}}}");
        }
        out.push(b']');
    }
    out.extend_from_slice(b"}\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::actions::boards::BoardPlan;
    use crate::cards::Deal;

    fn escaped(text: &str) -> String {
        let mut out = Vec::new();
        write_json_string(&mut out, text);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn strings_are_escaped_as_rfc_8259_requires() {
        assert_eq!(escaped("hcp"), "\"hcp\"");
        assert_eq!(escaped("a\"b\\c"), "\"a\\\"b\\\\c\"");
        assert_eq!(escaped("\n\r\t\u{8}\u{c}"), "\"\\n\\r\\t\\b\\f\"");
        assert_eq!(escaped("\u{0}\u{1}\u{1f}"), "\"\\u0000\\u0001\\u001f\"");
        assert_eq!(escaped("/é♠\u{7f}"), "\"/é♠\u{7f}\"");
    }

    #[test]
    fn a_deal_object_follows_schema_1() {
        let deal = Deal::from_pbn("N:AK2.Q3.KJ43.AT98 QJT9.AKJ2.A5.732 876.T98.QT987.K5 543.7654.62.QJ64").unwrap();
        let board = BoardPlan::default().board(2, &deal);
        let mut out = Vec::new();
        print_json(&mut out, &board, None, &[("hcp \"n\"", 17), ("v2", -3)], None);
        let expected = concat!(
            "{\"schema\":1,\"type\":\"deal\",\"board\":2,\"dealer\":\"E\",\"vulnerable\":\"NS\",",
            "\"deal\":\"N:AK2.Q3.KJ43.AT98 QJT9.AKJ2.A5.732 876.T98.QT987.K5 543.7654.62.QJ64\",",
            "\"hands\":{",
            "\"north\":{\"pbn\":\"AK2.Q3.KJ43.AT98\",\"spades\":\"AK2\",\"hearts\":\"Q3\",\"diamonds\":\"KJ43\",\"clubs\":\"AT98\"},",
            "\"east\":{\"pbn\":\"QJT9.AKJ2.A5.732\",\"spades\":\"QJT9\",\"hearts\":\"AKJ2\",\"diamonds\":\"A5\",\"clubs\":\"732\"},",
            "\"south\":{\"pbn\":\"876.T98.QT987.K5\",\"spades\":\"876\",\"hearts\":\"T98\",\"diamonds\":\"QT987\",\"clubs\":\"K5\"},",
            "\"west\":{\"pbn\":\"543.7654.62.QJ64\",\"spades\":\"543\",\"hearts\":\"7654\",\"diamonds\":\"62\",\"clubs\":\"QJ64\"}},",
            "\"values\":{\"hcp \\\"n\\\"\":17,\"v2\":-3}}\n"
        );
        assert_eq!(String::from_utf8(out).unwrap(), expected);
    }

    #[test]
    fn json_dd_adds_the_table_and_par_after_the_values() {
        let deal = Deal::from_pbn("N:AK2.Q3.KJ43.AT98 QJT9.AKJ2.A5.732 876.T98.QT987.K5 543.7654.62.QJ64").unwrap();
        let board = BoardPlan::default().board(1, &deal);
        // Declarers N, E, S, W; strains C, D, H, S, NT.
        let table = DdTable([[8, 7, 8, 10, 9], [5, 6, 5, 3, 4], [8, 7, 8, 10, 9], [5, 6, 4, 3, 4]]);
        let par = Par { score_ns: 420, contract: String::new(), contracts: Vec::new() };
        let mut out = Vec::new();
        print_json(&mut out, &board, None, &[], Some((&table, &par)));
        let text = String::from_utf8(out).unwrap();
        let tail = concat!(
            "\"values\":{},\"dd\":{",
            "\"north\":{\"notrump\":9,\"spades\":10,\"hearts\":8,\"diamonds\":7,\"clubs\":8},",
            "\"east\":{\"notrump\":4,\"spades\":3,\"hearts\":5,\"diamonds\":6,\"clubs\":5},",
            "\"south\":{\"notrump\":9,\"spades\":10,\"hearts\":8,\"diamonds\":7,\"clubs\":8},",
            "\"west\":{\"notrump\":4,\"spades\":3,\"hearts\":4,\"diamonds\":6,\"clubs\":5}},",
            "\"par\":{\"score_ns\":420,\"contracts\":\"Pass\"}}\n"
        );
        assert!(text.ends_with(tail), "{text}");
        assert_eq!(text.lines().count(), 1);
    }

    #[test]
    fn the_summary_object() {
        let summary = RunSummary {
            title: None,
            generated: 1234,
            produced: 10,
            seed_printed: 42,
            seconds: 0.0125,
            library: None,
            input: None,
            smart: &[],
            hand_types: &[],
            dd: None,
            dd_line: false,
            leads: &[],
            statistics: "",
            precision: None,
        };
        let mut out = Vec::new();
        write_json_summary(&mut out, &summary);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "{\"schema\":1,\"type\":\"summary\",\"generated\":1234,\"produced\":10,\"seed\":42,\"seconds\":0.013}\n"
        );
        let smart = [crate::actions::SmartCount {
            seat: Seat::South,
            partner: None,
            accepted: 311_089_243,
            possible: 635_013_559_600,
            share_under_bias: None,
            dealt_from_table: true,
        }];
        let mut out = Vec::new();
        write_json_summary(&mut out, &RunSummary { smart: &smart, ..summary });
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "{\"schema\":1,\"type\":\"summary\",\"generated\":1234,\"produced\":10,\"seed\":42,\"seconds\":0.013,\
             \"smart\":[{\"seat\":\"south\",\"accepted\":311089243,\"possible\":635013559600,\"dealt_from_table\":true}]}\n"
        );
        // What double dummy cost.
        let dd = crate::actions::DdCount { thresholds: 30, exact: 2, tables: 0, by_the_cards: 4, leads: 0 };
        let mut out = Vec::new();
        write_json_summary(&mut out, &RunSummary { dd: Some(dd), ..summary });
        assert!(String::from_utf8(out)
            .unwrap()
            .ends_with(",\"dd\":{\"thresholds\":30,\"exact\":2,\"tables\":0,\"by_the_cards\":4,\"leads\":0}}\n"));
        // Under bias predeal, the share of the deals meeting it.
        let smart = [crate::actions::SmartCount { share_under_bias: Some(0.0529), ..smart[0] }];
        let mut out = Vec::new();
        write_json_summary(&mut out, &RunSummary { smart: &smart, ..summary });
        assert!(String::from_utf8(out)
            .unwrap()
            .ends_with("\"possible\":635013559600,\"share_under_bias\":5.29e-2,\"dealt_from_table\":true}]}\n"),);
        // A pair's cards counted together name the pair.
        let smart = [crate::actions::SmartCount { partner: Some(Seat::North), ..smart[0] }];
        let mut out = Vec::new();
        write_json_summary(&mut out, &RunSummary { smart: &smart, ..summary });
        assert!(String::from_utf8(out)
            .unwrap()
            .contains("\"smart\":[{\"seat\":\"south\",\"partner\":\"north\",\"accepted\""));
        // A practice run's hand types: every declared one, its boards and their share.
        let hand_types =
            [(std::sync::Arc::from("12_14"), 4), (std::sync::Arc::from("22_24"), 6), (std::sync::Arc::from("x"), 0)];
        let mut out = Vec::new();
        write_json_summary(&mut out, &RunSummary { hand_types: &hand_types, ..summary });
        assert!(String::from_utf8(out).unwrap().ends_with(
            "\"seconds\":0.013,\"hand_types\":[{\"name\":\"12_14\",\"produced\":4,\"share\":0.4},\
             {\"name\":\"22_24\",\"produced\":6,\"share\":0.6},{\"name\":\"x\",\"produced\":0,\"share\":0}]}\n"
        ));
    }
}
