//! PBN 2.1's double-dummy tags, which the `pbn_dd` option adds to every `printpbn` record
//! ([`write_pbn_dd`]): the `OptimumResultTable` section (PBN 2.1 §5.7: columns `Declarer`,
//! `Denomination` and `Result`, the last two right-aligned in two characters as the column
//! format `\2R` says), `OptimumScore` (§4.2, the `"NS <score>"` form: North–South's score) and
//! `ParContract`, and the par-contract text it shares with the JSON Lines records
//! ([`par_contracts_text`]).
//!
//! ```text
//! [OptimumResultTable "Declarer;Denomination\2R;Result\2R"]
//! N NT  9
//! N  S 10
//! …           (20 rows: declarers N, E, S, W; denominations NT, S, H, D, C)
//! W  C  3
//! [OptimumScore "NS 420"]
//! [ParContract "NS 4S"]
//! ```
//!
//! Only formats results already solved; knows nothing of solving.

use std::io::Write;

use crate::cards::{Seat, Side, Strain, Suit};
use crate::dd::{DdTable, Par, ParDeclarer};

/// The `OptimumResultTable` tag line (its value names the columns and their formats).
pub const OPTIMUM_RESULT_TABLE_TAG: &str = "[OptimumResultTable \"Declarer;Denomination\\2R;Result\\2R\"]";

/// The denominations of the table's rows, in their order for each declarer.
pub const ROW_STRAINS: [Strain; 5] = [
    Strain::Notrump,
    Strain::Suit(Suit::Spades),
    Strain::Suit(Suit::Hearts),
    Strain::Suit(Suit::Diamonds),
    Strain::Suit(Suit::Clubs),
];

/// A denomination as PBN writes it: `NT`, `S`, `H`, `D`, `C`.
pub fn denomination_name(strain: Strain) -> &'static str {
    match strain {
        Strain::Notrump => "NT",
        Strain::Suit(Suit::Spades) => "S",
        Strain::Suit(Suit::Hearts) => "H",
        Strain::Suit(Suit::Diamonds) => "D",
        Strain::Suit(Suit::Clubs) => "C",
    }
}

/// The par contracts as one text: each contract as `<declarer> <level><denomination>`, the
/// declarer a side (`NS`, `EW`) or, when only one seat of the side makes it, a seat (`N`, …),
/// with `X` after a doubled sacrifice (`EW 5DX`); several contracts joined by `"; "`
/// (`NS 4H; NS 4S`); `Pass` when the deal is passed out.
pub fn par_contracts_text(par: &Par) -> String {
    if par.contracts.is_empty() {
        return "Pass".to_string();
    }
    let mut text = String::new();
    for (i, c) in par.contracts.iter().enumerate() {
        if i > 0 {
            text.push_str("; ");
        }
        let declarer = match c.declarer {
            ParDeclarer::Seat(seat) => seat.upper_letter().to_string(),
            ParDeclarer::Side(Side::NS) => "NS".to_string(),
            ParDeclarer::Side(Side::EW) => "EW".to_string(),
        };
        text.push_str(&format!(
            "{declarer} {}{}{}",
            c.level,
            denomination_name(c.strain),
            if c.doubled { "X" } else { "" }
        ));
    }
    text
}

/// Appends the double-dummy tags of one PBN record: the `OptimumResultTable` tag and its 20
/// rows, `OptimumScore` and `ParContract`. `table` and `par` are those of the deal as the record
/// shows it (turned with the hands, par for the record's vulnerability).
pub fn write_pbn_dd(out: &mut Vec<u8>, table: &DdTable, par: &Par) {
    out.extend_from_slice(OPTIMUM_RESULT_TABLE_TAG.as_bytes());
    out.push(b'\n');
    for seat in Seat::ALL {
        for strain in ROW_STRAINS {
            let _ = writeln!(
                out,
                "{} {:>2} {:>2}",
                seat.upper_letter(),
                denomination_name(strain),
                table.tricks(seat, strain)
            );
        }
    }
    let _ = writeln!(out, "[OptimumScore \"NS {}\"]", par.score_ns);
    let _ = writeln!(out, "[ParContract \"{}\"]", par_contracts_text(par));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dd::ParContract;

    fn table() -> DdTable {
        // Declarers N, E, S, W; strains C, D, H, S, NT.
        DdTable([[8, 7, 8, 10, 9], [5, 6, 5, 3, 4], [8, 7, 8, 10, 9], [5, 6, 4, 3, 4]])
    }

    #[test]
    fn the_table_has_twenty_aligned_rows_in_order() {
        let par = Par {
            score_ns: 420,
            contract: String::new(),
            contracts: vec![ParContract {
                level: 4,
                strain: Strain::Suit(Suit::Spades),
                declarer: ParDeclarer::Side(Side::NS),
                doubled: false,
            }],
        };
        let mut out = Vec::new();
        write_pbn_dd(&mut out, &table(), &par);
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 23);
        assert_eq!(lines[0], r#"[OptimumResultTable "Declarer;Denomination\2R;Result\2R"]"#);
        assert_eq!(&lines[1..6], ["N NT  9", "N  S 10", "N  H  8", "N  D  7", "N  C  8"]);
        assert_eq!(lines[6], "E NT  4");
        assert_eq!(lines[11], "S NT  9");
        assert_eq!(&lines[16..21], ["W NT  4", "W  S  3", "W  H  4", "W  D  6", "W  C  5"]);
        assert_eq!(lines[21], r#"[OptimumScore "NS 420"]"#);
        assert_eq!(lines[22], r#"[ParContract "NS 4S"]"#);
        assert!(text.ends_with("]\n"));
    }

    #[test]
    fn par_contract_text_names_seats_sides_sacrifices_and_pass() {
        let contract = |level, strain, declarer, doubled| ParContract { level, strain, declarer, doubled };
        let par = |score_ns, contracts| Par { score_ns, contract: String::new(), contracts };
        assert_eq!(par_contracts_text(&par(0, vec![])), "Pass");
        let sacrifice = contract(5, Strain::Suit(Suit::Diamonds), ParDeclarer::Side(Side::EW), true);
        assert_eq!(par_contracts_text(&par(300, vec![sacrifice])), "EW 5DX");
        let two = vec![
            contract(3, Strain::Notrump, ParDeclarer::Seat(Seat::North), false),
            contract(4, Strain::Suit(Suit::Hearts), ParDeclarer::Side(Side::NS), false),
        ];
        assert_eq!(par_contracts_text(&par(400, two)), "N 3NT; NS 4H");
        let mut out = Vec::new();
        write_pbn_dd(&mut out, &table(), &par(-1430, vec![]));
        assert!(String::from_utf8(out).unwrap().contains("[OptimumScore \"NS -1430\"]\n[ParContract \"Pass\"]\n"));
    }
}
