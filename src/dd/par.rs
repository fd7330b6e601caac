//! Par: the par score and DealerV2's par-contract text of a deal from its table ([`par`]), and a
//! par score from one side's point of view.
//!
//! Uses the solver module's DDS conversions and types only; it holds no solver context and must
//! not use the results, batch or cache modules.
// Without DDS (the WebAssembly build) the conversions to its orders go unused.
#![cfg_attr(not(feature = "dds"), allow(dead_code, unused_imports))]

#[cfg(feature = "dds")]
use dds_bridge_sys as dds;

use super::solver::{dds_strain, dds_vulnerability, DdError, DdTable};
use crate::cards::{Deal, Side, Strain};
use crate::script::ast::Vulnerability;

/// The par result of a deal for one vulnerability, as DealerV2 reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Par {
    /// The par score from North–South's point of view.
    pub score_ns: i32,
    /// DealerV2's par-contract text, e.g. `" 4H  by NS both"` or `" 7D* by EW ns"`.
    pub contract: String,
}

/// The par score and contract of a deal from its table, for one vulnerability.
pub fn par(table: &DdTable, vulnerability: Vulnerability) -> Result<Par, DdError> {
    #[cfg(not(feature = "dds"))]
    {
        let _ = (table, vulnerability);
        Err(DdError { code: super::solver::DD_NOT_AVAILABLE, deal: Deal::default() })
    }
    #[cfg(feature = "dds")]
    par_from_dds(table, vulnerability)
}

/// [`par`] through DDS's SidesParBin.
#[cfg(feature = "dds")]
fn par_from_dds(table: &DdTable, vulnerability: Vulnerability) -> Result<Par, DdError> {
    let mut input = dds::DdTableResults::default();
    for seat in 0..4 {
        for strain in 0..5 {
            input.res_table[dds_strain(Strain::from_index(strain)) as usize][seat] = table.0[seat][strain] as i32;
        }
    }
    let mut sides = [dds::ParResultsMaster::default(); 2];
    // SAFETY: SidesParBin reads the table and writes two results; it holds no state.
    let code = unsafe { dds::SidesParBin(&input, sides.as_mut_ptr(), dds_vulnerability(vulnerability)) };
    if code != dds::RETURN_NO_FAULT {
        return Err(DdError { code, deal: Deal::default() });
    }
    let ns = &sides[0];
    let c = &ns.contracts[0];
    let denomination = b"NSHDC".get(c.denom as usize).copied().unwrap_or(b'?') as char;
    let seats = ["N", "E", "S", "W", "NS", "EW"].get(c.seats as usize).copied().unwrap_or("?");
    let vul = match vulnerability {
        Vulnerability::None => "none",
        Vulnerability::NS => "ns",
        Vulnerability::EW => "ew",
        Vulnerability::All => "both",
    };
    let sacrifice = if c.under_tricks > 0 { '*' } else { ' ' };
    Ok(Par { score_ns: ns.score, contract: format!("{:2}{}{} by {} {}", c.level, denomination, sacrifice, seats, vul) })
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
    fn par_contract_text_matches_dealerv2() {
        // KNOWN[3]: North–South take all 13 tricks in notrump and East–West have no sacrifice.
        let mut solver = Solver::default();
        let table = solver.table(&deal(KNOWN[3].0)).unwrap();
        let p = par(&table, Vulnerability::All).unwrap();
        assert_eq!(p.contract.len(), " 7N  by NS both".len());
        assert!(p.contract.ends_with(" by NS both"), "{p:?}");
        assert_eq!(p.score_ns, 2220, "7NT vulnerable by NS: {p:?}");
        let p = par(&table, Vulnerability::None).unwrap();
        assert_eq!((p.score_ns, p.contract.as_str()), (1520, " 7N  by NS none"));
    }
}
