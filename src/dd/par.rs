//! Par: the par score, the par contracts and DealerV2's par-contract text of a deal from its
//! table ([`par`]), and a par score from one side's point of view.
//!
//! Uses the solver module's DDS conversions and types and DDS's par entry points; it holds no
//! solver context and must not use the results, batch or cache modules.

use super::double_dummy::DoubleDummy;
use super::entry_points::{DdsParResult, DdsTable};
use super::solver::{dds_strain, dds_vulnerability, DdError, DdTable, DD_NOT_AVAILABLE};
use crate::cards::{Deal, Seat, Side, Strain, Suit};
use crate::script::ast::Vulnerability;

/// The par result of a deal for one vulnerability, as DealerV2 reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Par {
    /// The par score from North–South's point of view.
    pub score_ns: i32,
    /// DealerV2's par-contract text, e.g. `" 4H  by NS both"` or `" 7D* by EW ns"`.
    pub contract: String,
    /// Every par contract, as DDS lists them for North–South's view (empty when the deal is
    /// passed out).
    pub contracts: Vec<ParContract>,
}

/// Who declares a par contract: one seat, or either seat of a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParDeclarer {
    /// Only this seat (its partner takes fewer tricks).
    Seat(Seat),
    /// Either seat of the side.
    Side(Side),
}

/// One par contract.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParContract {
    /// The level, 1 to 7.
    pub level: u8,
    /// The strain.
    pub strain: Strain,
    /// Who declares it.
    pub declarer: ParDeclarer,
    /// Whether it is a doubled sacrifice (it goes down).
    pub doubled: bool,
}

/// Our strain of a DDS denomination in par results (0 NT, 1 S, 2 H, 3 D, 4 C).
fn par_strain(denom: i32) -> Option<Strain> {
    Some(match denom {
        0 => Strain::Notrump,
        1 => Strain::Suit(Suit::Spades),
        2 => Strain::Suit(Suit::Hearts),
        3 => Strain::Suit(Suit::Diamonds),
        4 => Strain::Suit(Suit::Clubs),
        _ => return None,
    })
}

/// Our declarer of DDS's `seats` in par results (0–3 N, E, S, W; 4 NS; 5 EW).
fn par_declarer(seats: i32) -> Option<ParDeclarer> {
    Some(match seats {
        0..=3 => ParDeclarer::Seat(Seat::from_index(seats as usize)),
        4 => ParDeclarer::Side(Side::NS),
        5 => ParDeclarer::Side(Side::EW),
        _ => return None,
    })
}

/// The table in DDS's layout (`[DDS strain][seat]`).
fn dds_table(table: &DdTable) -> DdsTable {
    let mut input = DdsTable::default();
    for (seat, row) in table.0.iter().enumerate() {
        for (strain, &tricks) in row.iter().enumerate() {
            input[dds_strain(Strain::from_index(strain)) as usize][seat] = tricks as i32;
        }
    }
    input
}

/// A par failure: DDS's code, or "not available" without a DDS.
fn par_error(code: i32) -> DdError {
    DdError { code, deal: Deal::default() }
}

/// The par score and contract of a deal from its table, for one vulnerability: DDS's par with
/// North–South first to bid (`SidesParBin`), as DealerV2's `par` computes it.
pub fn par(dds: &DoubleDummy, table: &DdTable, vulnerability: Vulnerability) -> Result<Par, DdError> {
    let dds = dds.entry_points().ok_or_else(|| par_error(DD_NOT_AVAILABLE))?;
    let sides = dds.sides_par(&dds_table(table), dds_vulnerability(vulnerability)).map_err(par_error)?;
    Ok(from_master(&sides[0], sides[0].score, vulnerability))
}

/// The par result of a board from its table: DDS's par for the board's dealer (who bids first
/// matters when both sides can make the same contract) and vulnerability (`DealerParBin`).
pub fn board_par(
    dds: &DoubleDummy,
    table: &DdTable,
    vulnerability: Vulnerability,
    dealer: Seat,
) -> Result<Par, DdError> {
    let dds = dds.entry_points().ok_or_else(|| par_error(DD_NOT_AVAILABLE))?;
    let result = dds
        .dealer_par(&dds_table(table), dealer.index() as i32, dds_vulnerability(vulnerability))
        .map_err(par_error)?;
    // DealerParBin scores from North–South's view whoever deals.
    Ok(from_master(&result, result.score, vulnerability))
}

/// Our par result from DDS's: the score from North–South's view, DealerV2's text of the first
/// contract and every contract.
fn from_master(master: &DdsParResult, score_ns: i32, vulnerability: Vulnerability) -> Par {
    let c = &master.contracts[0];
    let denomination = b"NSHDC".get(c.denom as usize).copied().unwrap_or(b'?') as char;
    let seats = ["N", "E", "S", "W", "NS", "EW"].get(c.seats as usize).copied().unwrap_or("?");
    let vul = match vulnerability {
        Vulnerability::None => "none",
        Vulnerability::NS => "ns",
        Vulnerability::EW => "ew",
        Vulnerability::All => "both",
    };
    let sacrifice = if c.under_tricks > 0 { '*' } else { ' ' };
    let count = (master.number.max(0) as usize).min(master.contracts.len());
    let contracts = master.contracts[..count]
        .iter()
        .filter(|c| (1..=7).contains(&c.level))
        .filter_map(|c| {
            Some(ParContract {
                level: c.level as u8,
                strain: par_strain(c.denom)?,
                declarer: par_declarer(c.seats)?,
                doubled: c.under_tricks > 0,
            })
        })
        .collect();
    Par { score_ns, contract: format!("{:2}{}{} by {} {}", c.level, denomination, sacrifice, seats, vul), contracts }
}

/// The score of `par` from one side's point of view.
pub fn par_for_side(par: &Par, side: Side) -> i32 {
    match side {
        Side::NS => par.score_ns,
        Side::EW => -par.score_ns,
    }
}

#[cfg(all(test, feature = "dds"))]
mod tests {
    use super::*;
    use crate::dd::solver::Solver;
    use crate::dd::test_deals::{deal, KNOWN};

    #[test]
    fn board_par_scores_from_north_south_whoever_deals() {
        let mut solver = Solver::default();
        let dds = DoubleDummy::of_this_build();
        for (text, _) in KNOWN {
            let table = solver.table(&deal(text)).unwrap();
            for v in [Vulnerability::None, Vulnerability::NS, Vulnerability::EW, Vulnerability::All] {
                let sides = par(&dds, &table, v).unwrap();
                // North–South bid first when North or South deals: then both agree.
                for dealer in [Seat::North, Seat::South] {
                    let p = board_par(&dds, &table, v, dealer).unwrap();
                    assert_eq!((p.score_ns, &p.contracts), (sides.score_ns, &sides.contracts), "{text} {v:?}");
                }
                // North–South's view whoever deals: a grand slam with no sacrifice is par from
                // every seat.
                if text == KNOWN[3].0 && v == Vulnerability::None {
                    assert_eq!(board_par(&dds, &table, v, Seat::East).unwrap().score_ns, 1520);
                    assert_eq!(board_par(&dds, &table, v, Seat::West).unwrap().score_ns, 1520);
                }
                // East or West dealing: the same for both (they bid first either way).
                let east = board_par(&dds, &table, v, Seat::East).unwrap();
                let west = board_par(&dds, &table, v, Seat::West).unwrap();
                assert_eq!((east.score_ns, &east.contracts), (west.score_ns, &west.contracts), "{text} {v:?}");
            }
        }
    }

    #[test]
    fn par_contract_text_matches_dealerv2() {
        // KNOWN[3]: North–South take all 13 tricks in notrump and East–West have no sacrifice.
        let mut solver = Solver::default();
        let dds = DoubleDummy::of_this_build();
        let table = solver.table(&deal(KNOWN[3].0)).unwrap();
        let p = par(&dds, &table, Vulnerability::All).unwrap();
        assert_eq!(p.contract.len(), " 7N  by NS both".len());
        assert!(p.contract.ends_with(" by NS both"), "{p:?}");
        assert_eq!(p.score_ns, 2220, "7NT vulnerable by NS: {p:?}");
        let p = par(&dds, &table, Vulnerability::None).unwrap();
        assert_eq!((p.score_ns, p.contract.as_str()), (1520, " 7N  by NS none"));
    }
}
