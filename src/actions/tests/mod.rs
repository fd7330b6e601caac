//! Byte-exact tests of the actions against DealerV2's regression references and against output
//! captured from /usr/games/dealer. Each test rebuilds the deals and values from the reference
//! text itself, feeds them to the formatters, and compares the whole output. This file holds the
//! parsing helpers the two parts share: [`dealer_v2`] (DealerV2) and [`classic`] (classic dealer).

use super::test_fixtures::*;
use super::*;
use crate::cards::Strain;
use crate::cards::{Card, Deal, Hand, Seat, Side, Suit};
use crate::dialect::Dialect;
use crate::script::ast::{Contract, ExportTarget, Vulnerability};

mod classic;
mod dealer_v2;

// ---------------------------------------------------------------------------------------------
// Parsing helpers (test only)
// ---------------------------------------------------------------------------------------------

fn rank_of(c: char) -> u8 {
    b"23456789TJQKA".iter().position(|&r| r as char == c).expect("rank letter") as u8
}

/// A PBN-style hand `S.H.D.C`.
fn pbn_hand(text: &str) -> Hand {
    let mut h = Hand::EMPTY;
    for (suit, ranks) in Suit::PRINT_ORDER.into_iter().zip(text.split('.')) {
        for c in ranks.chars() {
            h.insert(Card::new(suit, rank_of(c)));
        }
    }
    h
}

/// A deal from `N:<n> <e> <s> <w>`.
fn pbn_deal(text: &str) -> Deal {
    let body = text.strip_prefix("N:").expect("N: prefix");
    let mut d = Deal::default();
    for (seat, h) in Seat::ALL.into_iter().zip(body.split(' ')) {
        d.0[seat.index()] = pbn_hand(h);
    }
    d
}

/// A deal and the optional trailing value of a `printoneline` line.
fn oneline(line: &str) -> (Deal, Option<i32>) {
    let t: Vec<&str> = line.split(' ').collect();
    let mut d = Deal::default();
    for i in 0..4 {
        d.0[i] = pbn_hand(t[2 * i + 1]);
    }
    let value = t.get(8).filter(|s| !s.is_empty()).map(|s| s.parse().unwrap());
    (d, value)
}

/// The `[Deal "…"]` values of PBN text.
fn pbn_deals(text: &str) -> Vec<Deal> {
    text.lines().filter_map(|l| l.strip_prefix("[Deal \"")).map(|l| pbn_deal(l.trim_end_matches("\"]"))).collect()
}

/// The column cells of a column-style row (columns are separated by at least two spaces).
fn columns(row: &str) -> Vec<String> {
    row.split("  ").map(str::trim).filter(|s| !s.is_empty()).map(String::from).collect()
}

/// Hands of a 4-row column block (S, H, D, C rows).
fn column_hands(rows: &[&str]) -> Vec<Hand> {
    let mut hands: Vec<Hand> = Vec::new();
    for (suit, row) in Suit::PRINT_ORDER.into_iter().zip(rows) {
        for (i, cell) in columns(row).iter().enumerate() {
            if hands.len() <= i {
                hands.push(Hand::EMPTY);
            }
            for c in cell.split(' ').filter(|c| *c != "-") {
                hands[i].insert(Card::new(suit, rank_of(c.chars().next().unwrap())));
            }
        }
    }
    hands
}

fn deal_of(pairs: &[(Seat, Hand)]) -> Deal {
    let mut d = Deal::default();
    for (s, h) in pairs {
        d.0[s.index()] = *h;
    }
    d
}

/// Blocks `header line + 4 rows` whose header contains `marker`: (board, hands).
fn column_blocks(text: &str, marker: &str) -> Vec<(i64, Vec<Hand>)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        if l.contains(marker) {
            let l = l.trim_start_matches('\x0c');
            let board = l.trim().split('.').next().unwrap().trim().parse().unwrap();
            out.push((board, column_hands(&lines[i + 1..i + 5])));
        }
    }
    out
}

/// Deals of `print(compass…)` pages: for each `X hands:` section, the hands of seat X per board.
fn page_deals(text: &str) -> Vec<Deal> {
    let lines: Vec<&str> = text.lines().collect();
    let mut deals: Vec<Deal> = Vec::new();
    let mut seat = Seat::North;
    let mut i = 0;
    let mut index = 0;
    while i < lines.len() {
        let l = lines[i].trim_start_matches('\x0c');
        if let Some(name) = l.strip_suffix(" hands:") {
            seat = *Seat::ALL.iter().find(|s| s.name() == name).unwrap();
            index = 0;
        } else if l.trim_start().starts_with(|c: char| c.is_ascii_digit()) && l.contains(".   ") {
            let n = l.split('.').filter(|p| !p.trim().is_empty()).count();
            let hands = column_hands(&lines[i + 1..i + 5]);
            assert_eq!(hands.len(), n);
            for h in hands {
                if deals.len() <= index {
                    deals.push(Deal::default());
                }
                deals[index].0[seat.index()] = h;
                index += 1;
            }
            i += 4;
        }
        i += 1;
    }
    deals
}

/// High-card points with the default table (A4 K3 Q2 J1).
fn hcp(h: Hand) -> i32 {
    crate::program::hand_stats::CountTables::new().count(crate::program::hand_stats::HCP_TABLE, h, None)
}

fn text(v: &[u8]) -> &str {
    std::str::from_utf8(v).unwrap()
}

fn assert_same(actual: &[u8], expected: &str) {
    let actual = text(actual);
    if actual != expected {
        for (n, (a, e)) in actual.lines().zip(expected.lines()).enumerate() {
            assert_eq!(a, e, "first difference at line {}", n + 1);
        }
        assert_eq!(actual, expected);
    }
}

/// Rows of a 1-D table (`Low`, numbers, `High`) with their counts, up to the dashes line.
fn table_rows(section: &str) -> Vec<(String, i64)> {
    section
        .lines()
        .skip_while(|l| !l.starts_with("Value"))
        .skip(1)
        .take_while(|l| !l.starts_with("    \t"))
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[0].trim().to_string(), f[1].trim().parse().unwrap())
        })
        .collect()
}

/// A value that lands in a row of a table: Low → `low`, High → `high`, else the label.
fn row_value(label: &str, low: i32, high: i32) -> i32 {
    match label {
        "Low" => low,
        "High" => high,
        n => n.parse().unwrap(),
    }
}

fn frequency_from(section: &str, lo: i32, hi: i32) -> Frequency1D {
    let mut f = Frequency1D::new(lo, hi);
    for (label, count) in table_rows(section) {
        for _ in 0..count {
            f.add(row_value(&label, lo - 1, hi + 1));
        }
    }
    f
}

/// Cells of a 2-D table: (row label, column label, count) from the header and rows up to `Sum`.
fn grid_cells(section: &str) -> Vec<(String, String, i64)> {
    let mut lines = section.lines().skip_while(|l| !l.trim_start().starts_with("Low"));
    let header: Vec<&str> = lines.next().unwrap().split_whitespace().collect();
    let col_labels = &header[..header.len() - 1]; // drop "Sum"
    let mut cells = Vec::new();
    for l in lines.take_while(|l| !l.starts_with("Sum")) {
        let f: Vec<&str> = l.split_whitespace().collect();
        for (j, c) in f[1..f.len() - 1].iter().enumerate() {
            cells.push((f[0].to_string(), col_labels[j].to_string(), c.parse().unwrap()));
        }
    }
    cells
}
