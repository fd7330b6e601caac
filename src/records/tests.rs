//! The record readers: every format libdealer writes reads back into the same deals and board
//! data; other writers' forms (PBN tag sections, BridgeComposer's `DoubleDummyTricks`, LIN
//! spread over lines, PBN deals as one-liners); the format found from the first bytes; and a
//! table of malformed records, each an error at its line with what is wrong, after which the
//! next record reads.

use std::sync::Arc;

use rand_chacha::rand_core::{Rng, SeedableRng};

use super::*;
use crate::actions::boards::{BoardLabel, BoardPlan};
use crate::actions::{print_json, print_lin, print_pbn, write_pbn_dd, PbnInfo};
use crate::cards::{Card, Deal, Seat};
use crate::dd::zrd::{encode_dl52, encode_record};
use crate::dd::{DdTable, Par};
use crate::dialect::Dialect;
use crate::script::ast::Vulnerability;

/// `count` random deals (a ChaCha shuffle), the same for a given `seed`.
fn random_deals(count: usize, seed: u64) -> Vec<Deal> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    (0..count)
        .map(|_| {
            let mut slots: [Card; 52] = std::array::from_fn(Card::from_ordinal);
            for i in (1..52).rev() {
                let j = (rng.next_u32() as usize) % (i + 1);
                slots.swap(i, j);
            }
            Deal::from_slots(&slots)
        })
        .collect()
}

/// Every record of `bytes` read as `format` (`None`: found from the bytes).
fn read_all(bytes: &[u8], format: Option<InputFormat>) -> Vec<Result<DealRecord, RecordError>> {
    let source = InputSource::Memory(Arc::from(bytes));
    let mut reader = RecordReader::open(&source, format).expect("opens");
    let mut records = Vec::new();
    loop {
        match reader.next_record() {
            Ok(None) => break,
            Ok(Some(record)) => records.push(Ok(record)),
            Err(e) => {
                let fatal = e.fatal;
                records.push(Err(e));
                if fatal {
                    break;
                }
            }
        }
    }
    records
}

/// The deals of records that must all read.
fn deals_of(records: &[Result<DealRecord, RecordError>]) -> Vec<Deal> {
    records.iter().map(|r| r.as_ref().expect("a record").deal).collect()
}

/// A table that is some deal's (any values 0..=13 in the right shape do for reading).
fn table_of(k: usize) -> DdTable {
    DdTable(std::array::from_fn(|seat| std::array::from_fn(|strain| ((seat * 5 + strain + k) % 14) as u8)))
}

/// The PBN printer's settings for board `board` with `label` (DealerV2's tags, a fixed date).
fn pbn_info(
    label: Option<&BoardLabel>,
    board: i64,
    dealer: Option<Seat>,
    vulnerability: Option<Vulnerability>,
) -> PbnInfo<'_> {
    PbnInfo {
        dialect: Dialect::V2,
        label,
        input_name: None,
        seed: 0,
        title: None,
        board,
        dealer,
        vulnerability,
        date: "2026.12.07",
        names_libdealer: true,
    }
}

#[test]
fn printpbn_records_read_back_with_their_board_data_and_tables() {
    let deals = random_deals(40, 1);
    let mut out = Vec::new();
    for (k, deal) in deals.iter().enumerate() {
        let board = k as i64 + 7;
        let info = PbnInfo {
            dialect: Dialect::V2,
            label: None,
            input_name: Some("x.dlr"),
            seed: 1,
            title: None,
            board,
            dealer: None,
            vulnerability: None,
            date: "2026.12.07",
            names_libdealer: true,
        };
        print_pbn(&mut out, deal, &info);
        if k % 2 == 0 {
            out.pop();
            let par = Par { score_ns: 0, contract: String::new(), contracts: Vec::new() };
            write_pbn_dd(&mut out, &table_of(k), &par);
            out.push(b'\n');
        }
    }
    let records = read_all(&out, None);
    assert_eq!(deals_of(&records), deals);
    for (k, record) in records.iter().enumerate() {
        let record = record.as_ref().unwrap();
        let board = k as i64 + 7;
        assert_eq!(record.board.number, Some(board));
        assert_eq!(record.board.dealer, Some(crate::actions::board_dealer(board)));
        assert_eq!(record.board.vulnerability, Some(crate::actions::board_vulnerability(board)));
        assert_eq!(record.board.tag("Event"), Some("Hand simulated by DealerV2_4 with file x.dlr, seed 1"));
        assert_eq!(record.board.tag("Date"), Some("2026.12.07"));
        assert_eq!(record.dd, (k % 2 == 0).then(|| table_of(k)));
        assert!(record.board.tag("OptimumScore").is_none(), "tables are not kept as text tags");
    }
}

#[test]
fn a_record_that_keeps_its_tags_prints_the_same_pbn_again() {
    let text = "% PBN 2.1\n[Event \"Club \\\"Monday\\\" pairs\"]\n[Site \"Oxford\"]\n[Date \"2026.11.30\"]\n\
        [Board \"12\"]\n[West \"Ann\"]\n[North \"Bob\"]\n[East \"Cy\"]\n[South \"Di\"]\n[Dealer \"W\"]\n\
        [Vulnerable \"NS\"]\n[Deal \"W:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765\"]\n\
        [Scoring \"MP\"]\n[Declarer \"S\"]\n[Contract \"3NT\"]\n[Result \"9\"]\n[Auction \"W\"]\nPass 1NT Pass 3NT\n\n";
    let records = read_all(text.as_bytes(), None);
    let record = records[0].as_ref().unwrap();
    assert_eq!(record.board.number, Some(12));
    assert_eq!(record.board.dealer, Some(Seat::West));
    assert_eq!(record.board.vulnerability, Some(Vulnerability::NS));
    assert_eq!(record.board.tag("Event"), Some("Club \"Monday\" pairs"));
    assert_eq!(record.board.tag("Auction"), None, "a tag with a section is not kept");
    assert_eq!(record.deal.hand(Seat::West), Deal::from_pbn("N:AKQJ.T98.765.432 - - -").unwrap().hand(Seat::North));
    let label = BoardLabel { record: Some(Arc::new(record.board.clone())), ..BoardLabel::default() };
    let info = pbn_info(Some(&label), 12, Some(Seat::West), Some(Vulnerability::NS));
    let mut out = Vec::new();
    print_pbn(&mut out, &record.deal, &info);
    let again = read_all(&out, None);
    let again = again[0].as_ref().unwrap();
    let sorted = |board: &BoardData| {
        let mut tags = board.tags.clone();
        tags.sort();
        (board.number, board.dealer, board.vulnerability, tags)
    };
    assert_eq!((again.deal, sorted(&again.board)), (record.deal, sorted(&record.board)));
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("[Event \"Club \\\"Monday\\\" pairs\"]\n[Site \"Oxford\"]\n[Date \"2026.11.30\"]"), "{text}");
    assert!(text.contains("[Contract \"3NT\"]\n[Result \"9\"]\n[Scoring \"MP\"]\n\n"), "{text}");
}

#[test]
fn tags_that_pbn_cannot_hold_are_left_out_or_cleaned_and_the_record_reads_back() {
    let json =
        "{\"tags\":{\"\":\"x\",\"Two words\":\"y\",\"Deal\":\"z\",\"Event\":\"a\\nb\\u0001\",\"Room\":\"Open\"},\
                \"deal\":\"N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765\"}\n";
    let record = read_all(json.as_bytes(), None).remove(0).unwrap();
    let label = BoardLabel { record: Some(Arc::new(record.board.clone())), ..BoardLabel::default() };
    let info = pbn_info(Some(&label), 1, None, None);
    let mut out = Vec::new();
    print_pbn(&mut out, &record.deal, &info);
    let text = String::from_utf8(out.clone()).unwrap();
    assert!(text.starts_with("[Event \"a b \"]\n[Site \"-\"]\n"), "{text}");
    assert_eq!(text.matches("[Deal ").count(), 1, "{text}");
    assert!(text.contains("[Room \"Open\"]") && !text.contains("Two words") && !text.contains("[ "), "{text}");
    let again = read_all(&out, None).remove(0).unwrap();
    assert_eq!(again.deal, record.deal);
    // LIN players: no character that would end the field or the line.
    let board = BoardPlan::default().board(1, &record.deal);
    let names = BoardData { tags: vec![("South".into(), "a|b,c\nd".into())], ..BoardData::default() };
    let mut lin = Vec::new();
    print_lin(&mut lin, &board, true, None, Some(&names));
    let again = read_all(&lin, None).remove(0).unwrap();
    assert_eq!(again.board.tag("South"), Some("a b c d"));
}

#[test]
fn lin_players_before_a_deal_belong_to_that_deal() {
    let text = "pn|Ann,,,|md|1SAKQJT98765432,HAKQJT98765432,DAKQJT98765432,|\n\
                pn|Bob,,,|md|1SAKQJT98765432,HAKQJT98765432,DAKQJT98765432,|\n\
                pn|,,,|md|1SAKQJT98765432,HAKQJT98765432,DAKQJT98765432,|\n";
    let records = read_all(text.as_bytes(), None);
    let south: Vec<_> = records.iter().map(|r| r.as_ref().unwrap().board.tag("South").map(str::to_string)).collect();
    assert_eq!(south, [Some("Ann".to_string()), Some("Bob".to_string()), None]);
}

#[test]
fn printlin_records_read_back_with_numbers_dealers_vulnerabilities_and_players() {
    let deals = random_deals(40, 2);
    let mut out = Vec::new();
    for (k, deal) in deals.iter().enumerate() {
        let board = BoardPlan::default().board(k as i64 + 1, deal);
        let names = BoardData {
            tags: vec![("South".into(), "s1".into()), ("North".into(), format!("n{k}"))],
            ..BoardData::default()
        };
        print_lin(&mut out, &board, k % 3 != 0, None, (k % 2 == 0).then_some(&names));
    }
    let records = read_all(&out, None);
    assert_eq!(deals_of(&records), deals);
    for (k, record) in records.iter().enumerate() {
        let record = record.as_ref().unwrap();
        let board = k as i64 + 1;
        assert_eq!(record.board.number, Some(board), "qx|oN| numbers the board without a title too");
        assert_eq!(record.board.dealer, Some(crate::actions::board_dealer(board)));
        assert_eq!(record.board.vulnerability, Some(crate::actions::board_vulnerability(board)));
        if k % 2 == 0 {
            assert_eq!(record.board.tag("North"), Some(format!("n{k}").as_str()));
            assert_eq!(record.board.tag("South"), Some("s1"));
        }
    }
}

#[test]
fn printjson_dl52_zrd_and_oneline_records_read_back() {
    let deals = random_deals(50, 3);
    let (mut json, mut dl52, mut zrd, mut oneline) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for (k, deal) in deals.iter().enumerate() {
        let board = BoardPlan::default().board(k as i64 + 3, deal);
        let label = BoardLabel {
            record: Some(Arc::new(BoardData { tags: vec![("Event".into(), "e".into())], ..BoardData::default() })),
            ..BoardLabel::default()
        };
        let par = Par { score_ns: 0, contract: String::new(), contracts: Vec::new() };
        let table = table_of(k);
        print_json(&mut json, &board, Some(&label), &[("v", 1)], (k % 2 == 1).then_some((&table, &par)));
        dl52.extend_from_slice(&encode_dl52(deal));
        zrd.extend_from_slice(&encode_record(deal, &table.0));
        deal.write_oneline(&mut oneline);
        oneline.extend_from_slice(if k % 2 == 0 { b"\n" } else { b" 17\n" });
    }
    json.extend_from_slice(b"{\"schema\":1,\"type\":\"summary\",\"generated\":50}\n");
    for (bytes, format) in [
        (&json, InputFormat::Jsonl),
        (&dl52, InputFormat::Dl52),
        (&zrd, InputFormat::Zrd),
        (&oneline, InputFormat::Oneline),
    ] {
        assert_eq!(InputFormat::sniff(&bytes[..bytes.len().min(4096)]), Some(format));
        let records = read_all(bytes, None);
        assert_eq!(deals_of(&records), deals, "{format:?}");
        for (k, record) in records.iter().enumerate() {
            let record = record.as_ref().unwrap();
            match format {
                InputFormat::Jsonl => {
                    assert_eq!(record.board.number, Some(k as i64 + 3));
                    assert_eq!(record.board.tag("Event"), Some("e"));
                    assert_eq!(record.dd, (k % 2 == 1).then(|| table_of(k)));
                }
                InputFormat::Zrd => assert_eq!(record.dd, Some(table_of(k))),
                _ => assert!(record.board.is_empty() && record.dd.is_none()),
            }
        }
    }
}

#[test]
fn other_writers_forms_read() {
    // BridgeComposer's DoubleDummyTricks (declarers N S E W, each NT S H D C, hexadecimal) and
    // a table whose columns come in another order, with CRLF line ends and commentary.
    let deal = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765";
    let text = format!(
        "{{ a comment\r\nover two lines }}\r\n[Board \"3\"]\r\n[Deal \"{deal}\"] ; trailing comment\r\n\
         [DoubleDummyTricks \"0123456789abcd012345\"]\r\n[OptimumResultTable \"Result;Declarer;Denomination\\2R\"]\r\n{}\r\n",
        [("N", 0), ("S", 1), ("E", 2), ("W", 3)]
            .iter()
            .flat_map(|&(seat, k)| {
                ["NT", "S", "H", "D", "C"].iter().enumerate().map(move |(j, strain)| {
                    format!("{} {seat} {strain}", (k * 5 + j) % 14)
                })
            })
            .collect::<Vec<_>>()
            .join("\r\n")
    );
    let records = read_all(text.as_bytes(), None);
    let record = records[0].as_ref().unwrap();
    let table = record.dd.expect("a table");
    assert_eq!(table.tricks(Seat::North, crate::cards::Strain::Notrump), 0);
    assert_eq!(table.tricks(Seat::South, crate::cards::Strain::Notrump), 5);
    assert_eq!(table.tricks(Seat::East, crate::cards::Strain::Suit(crate::cards::Suit::Spades)), 11);
    assert_eq!(table.tricks(Seat::West, crate::cards::Strain::Suit(crate::cards::Suit::Clubs)), 5);
    // A byte order mark and Windows line ends (as Windows editors save a file).
    let text = format!("\u{feff}[Board \"4\"]\r\n[Deal \"{deal}\"]\r\n");
    assert_eq!(read_all(text.as_bytes(), None)[0].as_ref().unwrap().board.number, Some(4));
    // `#` repeats the previous game's value; a game without a deal is no record.
    let text = format!(
        "[Event \"E\"]\n[Site \"S\"]\n\n[Event \"Pairs\"]\n[Deal \"{deal}\"]\n\n[Event \"#\"]\n[Deal \"{deal}\"]\n"
    );
    let records = read_all(text.as_bytes(), None);
    assert_eq!(records.len(), 2);
    assert_eq!(records[1].as_ref().unwrap().board.tag("Event"), Some("Pairs"));
    // DealerV2's statistics after its printpbn records are no game.
    let text =
        format!("[Board \"1\"]\n[Deal \"{deal}\"]\n\nGenerated 1 hands\nProduced  1 hands\nTime needed    0.001 sec\n");
    assert_eq!(read_all(text.as_bytes(), None).len(), 1);
    // Games not separated by a blank line.
    let text = format!("[Board \"1\"]\n[Deal \"{deal}\"]\n[Board \"2\"]\n[Deal \"{deal}\"]\n");
    let numbers: Vec<_> = read_all(text.as_bytes(), None).iter().map(|r| r.as_ref().unwrap().board.number).collect();
    assert_eq!(numbers, [Some(1), Some(2)]);
    // A vugraph LIN: players once, boards over several lines, the fourth hand left out.
    let text = "vg|Final,Match,I,1,2,A,0,B,0|\npn|Ann,Bob,Cy,Di|\nqx|o1|st||md|3SAKQJHT98D765C432,ST98H765D432CAKQJ,S765H432DAKQJCT98,|sv|b|\nmb|p|mb|p|\npc|SA|\nqx|c1|md|3SAKQJHT98D765C432,ST98H765D432CAKQJ,S765H432DAKQJCT98,|sv|b|\n";
    let records = read_all(text.as_bytes(), None);
    assert_eq!(records.len(), 2);
    for record in &records {
        let record = record.as_ref().unwrap();
        assert_eq!((record.board.number, record.board.dealer), (Some(1), Some(Seat::North)));
        assert_eq!(record.board.vulnerability, Some(Vulnerability::All));
        assert_eq!(record.board.tag("South"), Some("Ann"));
        assert_eq!(record.board.tag("East"), Some("Di"));
        assert_eq!(record.deal.hand(Seat::South).pbn(), "AKQJ.T98.765.432");
        assert_eq!(record.deal.hand(Seat::East).count(), 13);
    }
    // One-line files: PBN deals, comments, blank lines, `10` for the ten, lower case.
    let text = "# deals\n\nN:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765\n\
                w akqj.1098.765.432 n t98.765.432.akqj e 765.432.akqj.t98 s 432.akqj.t98.765\n";
    let records = read_all(text.as_bytes(), None);
    assert_eq!(deals_of(&records).len(), 2);
    assert_eq!(records[1].as_ref().unwrap().deal.hand(Seat::West).pbn(), "AKQJ.T98.765.432");
    assert_eq!(records[1].as_ref().unwrap().line, 4);
}

#[test]
fn the_format_is_found_from_the_first_bytes() {
    let sniff = |text: &str| InputFormat::sniff(text.as_bytes());
    assert_eq!(sniff("% PBN 2.1\n"), Some(InputFormat::Pbn));
    assert_eq!(sniff("\u{feff}[Event \"x\"]"), Some(InputFormat::Pbn));
    assert_eq!(sniff("{ commentary }\n[Deal"), Some(InputFormat::Pbn));
    assert_eq!(sniff("{\"deal\":\"N:...\"}"), Some(InputFormat::Jsonl));
    assert_eq!(sniff("qx|o1|md|3S..."), Some(InputFormat::Lin));
    assert_eq!(sniff("n AKQ.. e"), Some(InputFormat::Oneline));
    assert_eq!(sniff("N:AKQ..."), Some(InputFormat::Oneline));
    assert_eq!(sniff(""), Some(InputFormat::Oneline));
    assert_eq!(InputFormat::sniff(&[0, 1, 2, 3, 0xFF, 0xFE]), None);
}

/// Malformed records: (format, text, the line (or record) the error names, what it says).
const MALFORMED: &[(InputFormat, &str, u64, &str)] = &[
    (InputFormat::Oneline, "n AKQJ.T98.765.432 e T98.765.432.AKQJ s 765.432.AKQJ.T98 w 432.AKQJ.T98.76A\n", 1, "appears twice"),
    (InputFormat::Oneline, "n AKQJ.T98.765.43 e T98.765.432.AKQJ s 765.432.AKQJ.T98 w 432.AKQJ.T98.765\n", 1, "North holds 12 cards"),
    (InputFormat::Oneline, "n AKQJ.T98.765.432 e T98.765.432.AKQJ s 765.432.AKQJ.T98 w 432.AKQJ.T98\n", 1, "a hand needs four suits"),
    (InputFormat::Oneline, "\nn AKQJ.T98.765.432 n T98.765.432.AKQJ s 765.432.AKQJ.T98 w 432.AKQJ.T98.765\n", 2, "North is given twice"),
    (InputFormat::Oneline, "n AKQJ.T98.765.43X e T98.765.432.AKQJ s 765.432.AKQJ.T98 w 432.AKQJ.T98.765\n", 1, "'X' is not a card rank"),
    (InputFormat::Oneline, "n AKQJ.T98.765.432 e T98.765.432.AKQJ\n", 1, "found 2"),
    (InputFormat::Oneline, "x AKQJ.T98.765.432\n", 1, "expected a seat letter"),
    (InputFormat::Oneline, "n AKQJ.T98.765.432 e T98.765.432.AKQJ s 765.432.AKQJ.T98 w 432.AKQJ.T98.765 extra\n", 1, "unexpected text after the four hands"),
    (InputFormat::Oneline, "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98\n", 1, "four hands: found 3"),
    (InputFormat::Oneline, "N:AKQJ.T98.765.432 T98.765.432.AKQJ.2 765.432.AKQJ.T98 432.AKQJ.T98.765\n", 1, "a fifth '.'"),
    (InputFormat::Oneline, "N:AKQJ.T98.765.432 - - -\n", 1, "3 hands are not given"),
    (InputFormat::Pbn, "[Deal \"N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.76A\"]\n\n", 1, "appears twice"),
    (InputFormat::Pbn, "[Board \"1\"]\n[Deal \"N:AKQJ.T98.765.43 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765\"]\n\n", 2, "North holds 12 cards"),
    (InputFormat::Pbn, "[Dealer \"Q\"]\n[Deal \"N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765\"]\n\n", 1, "unknown Dealer \"Q\""),
    (InputFormat::Pbn, "[Vulnerable \"Some\"]\n[Deal \"N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765\"]\n\n", 1, "unknown Vulnerable \"Some\""),
    (InputFormat::Pbn, "[Board \"twelve\"]\n[Deal \"N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765\"]\n\n", 1, "is not a board number"),
    (InputFormat::Pbn, "[Board \"1]\n\n", 1, "has no closing '\"'"),
    (InputFormat::Pbn, "[Board 1]\n\n", 1, "expected '\"' before the value of the tag Board"),
    (InputFormat::Pbn, "[ \"1\"]\n\n", 1, "a tag needs a name"),
    (InputFormat::Pbn, "[Board \"1\" x]\n\n", 1, "expected ']'"),
    (InputFormat::Pbn, "[Board \"1\"] [Board \"2\"]\n[Deal \"N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765\"]\n\n", 1, "the tag Board is given twice in a game"),
    (InputFormat::Pbn, "[Deal \"AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765\"]\n\n", 1, "starts with its first hand's seat"),
    (InputFormat::Pbn, "[Deal \"N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765\"]\n[DoubleDummyTricks \"0123\"]\n\n", 2, "expected 20 hexadecimal digits"),
    (InputFormat::Pbn, "[Deal \"N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765\"]\n[DoubleDummyTricks \"0123456789abcdef0123\"]\n\n", 2, "'e' is not 0 to 13 tricks"),
    (InputFormat::Pbn, "[Deal \"N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765\"]\n[OptimumResultTable \"Declarer;Denomination\\2R;Result\\2R\"]\nN NT 9\nN S 14\n\n", 4, "the result \"14\" is not 0 to 13 tricks"),
    (InputFormat::Pbn, "[Deal \"N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765\"]\n[OptimumResultTable \"Declarer;Denomination\\2R;Result\\2R\"]\nN NT 9\n\n", 2, "gives 1 of the 20 results"),
    (InputFormat::Pbn, "[Deal \"N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765\"]\n[OptimumResultTable \"Declarer;Denomination\\2R;Result\\2R\"]\nN NT 9\nN NT 9\n\n", 4, "North in notrump is given twice"),
    (InputFormat::Pbn, "[Deal \"N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765\"]\n[OptimumResultTable \"Declarer;Denomination\\2R;Result\\2R\"]\nX NT 9\n\n", 3, "unknown declarer \"X\""),
    (InputFormat::Pbn, "[Deal \"N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765\"]\n[OptimumResultTable \"Declarer;Result\"]\n\n", 2, "needs the columns Declarer, Denomination and Result"),
    (InputFormat::Lin, "qx|o1|md|3SAKQJHT98D765C432,ST98H765D432CAKQJ,S765H432DAKQJCT98,SA|\n", 1, "appears twice"),
    (InputFormat::Lin, "md|3SAKQJHT98D765C43,ST98H765D432CAKQJ,S765H432DAKQJCT98,|\n", 1, "South holds 12 cards"),
    (InputFormat::Lin, "md|0SAKQJHT98D765C432,ST98H765D432CAKQJ,S765H432DAKQJCT98,|\n", 1, "the dealer digit"),
    (InputFormat::Lin, "md|3SAKQJXT98D765C432,ST98H765D432CAKQJ,S765H432DAKQJCT98,|\n", 1, "expected a suit letter"),
    (InputFormat::Lin, "md|3SAKQJHT98D765C432S2,ST98H765D432CAKQJ,S765H432DAKQJCT98,|\n", 1, "the suit S appears twice"),
    (InputFormat::Lin, "md|3SAKQJHT98D765C432,ST98H765D432CAKQJ,S765H432DAKQJCT98,,S2|\n", 1, "a fifth ','"),
    (InputFormat::Lin, "md|3SAKQJHT98D765C432,ST98H765D432CAKQJ,S765H432DAKQJCT98,|sv|x|\n", 1, "unknown vulnerability sv|x|"),
    (InputFormat::Lin, "md|3SAKQJHT98D765C432,,,|\n", 1, "3 hands are not given"),
    (InputFormat::Lin, "|o1|\n", 1, "needs a key"),
    (InputFormat::Jsonl, "{\"deal\":\"N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.76A\"}\n", 1, "appears twice"),
    (InputFormat::Jsonl, "{\"deal\":\"N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765\",\n", 1, "not a JSON object"),
    (InputFormat::Jsonl, "[1,2]\n", 1, "a line holds a JSON object"),
    (InputFormat::Jsonl, "{\"board\":1}\n", 1, "needs \"deal\""),
    (InputFormat::Jsonl, "{\"deal\":\"N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765\",\"dealer\":\"X\"}\n", 1, "\"dealer\" is N, E, S or W"),
    (InputFormat::Jsonl, "{\"deal\":\"N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765\",\"vulnerable\":\"Some\"}\n", 1, "\"vulnerable\" is None, NS, EW or All"),
    (InputFormat::Jsonl, "{\"deal\":\"N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765\",\"board\":-3}\n", 1, "\"board\" is a board number"),
    (InputFormat::Jsonl, "{\"deal\":\"N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765\",\"dd\":{\"north\":{}}}\n", 1, "\"dd\": north's \"clubs\" is not 0 to 13 tricks"),
    (InputFormat::Jsonl, "{\"deal\":42}\n", 1, "\"deal\" is a PBN deal string"),
];

#[test]
fn every_malformed_record_is_an_error_at_its_line_and_the_next_record_reads() {
    assert!(MALFORMED.len() >= 40);
    let good: &[(InputFormat, &str)] = &[
        (InputFormat::Oneline, "n AKQJ.T98.765.432 e T98.765.432.AKQJ s 765.432.AKQJ.T98 w 432.AKQJ.T98.765\n"),
        (InputFormat::Pbn, "\n[Deal \"N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765\"]\n\n"),
        (InputFormat::Lin, "md|3SAKQJHT98D765C432,ST98H765D432CAKQJ,S765H432DAKQJCT98,|\n"),
        (InputFormat::Jsonl, "{\"deal\":\"N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765\"}\n"),
    ];
    for (format, text, line, what) in MALFORMED {
        let after = good.iter().find(|(f, _)| f == format).expect("a good record").1;
        let bytes = format!("{text}{after}");
        let records = read_all(bytes.as_bytes(), Some(*format));
        let error = records.iter().find_map(|r| r.as_ref().err()).unwrap_or_else(|| panic!("{text:?} read"));
        let message = error.describe("in.txt");
        assert!(message.contains(what), "{text:?}: {message}");
        assert!(message.starts_with(&format!("in.txt:{line}:")), "{text:?}: {message}");
        assert!(!error.fatal, "{text:?}");
        let last = records.last().expect("records").as_ref();
        assert!(last.is_ok_and(|r| r.deal.is_complete()), "{text:?}: the record after it does not read: {records:?}");
    }
}

#[test]
fn malformed_binary_records_name_their_number_and_offset() {
    let deal = random_deals(1, 4)[0];
    let mut dl52 = encode_dl52(&deal).to_vec();
    let mut twice = encode_dl52(&deal);
    twice[51] = twice[0];
    dl52.extend_from_slice(&twice);
    let mut bad_byte = encode_dl52(&deal);
    bad_byte[7] = 0x4F;
    dl52.extend_from_slice(&bad_byte);
    dl52.extend_from_slice(&encode_dl52(&deal)[..20]);
    let records = read_all(&dl52, Some(InputFormat::Dl52));
    let messages: Vec<String> = records.iter().filter_map(|r| r.as_ref().err()).map(|e| e.describe("d.dl52")).collect();
    assert_eq!(messages.len(), 3, "{messages:?}");
    assert!(messages[0].starts_with("d.dl52: record 2 (byte 52): the card"), "{}", messages[0]);
    assert!(messages[1].contains("record 3 (byte 104): byte 8 (0x4f) is not a card"), "{}", messages[1]);
    assert!(messages[2].contains("record 4 (byte 156): the input ends inside a deal: 20 of its 52 bytes"));
    let mut zrd = encode_record(&deal, &table_of(0).0).to_vec();
    zrd.extend_from_slice(&[0xFF; 23]);
    zrd.extend_from_slice(&[1; 5]);
    let records = read_all(&zrd, Some(InputFormat::Zrd));
    let messages: Vec<String> = records.iter().filter_map(|r| r.as_ref().err()).map(|e| e.describe("z")).collect();
    assert!(messages[0].starts_with("z: record 2 (byte 23): corrupt ZRD deal record"), "{messages:?}");
    assert!(messages[1].contains("ends inside a record: 5 of its 23 bytes"), "{messages:?}");
}

#[test]
fn an_overlong_line_is_an_error_and_the_next_line_reads() {
    let mut bytes = vec![b'n'; super::line_reader::MAX_LINE_BYTES + 10];
    bytes.extend_from_slice(b"\nn AKQJ.T98.765.432 e T98.765.432.AKQJ s 765.432.AKQJ.T98 w 432.AKQJ.T98.765\n");
    let records = read_all(&bytes, Some(InputFormat::Oneline));
    assert!(records[0].as_ref().unwrap_err().message.contains("longer than"));
    assert_eq!(records[1].as_ref().unwrap().line, 2);
}
