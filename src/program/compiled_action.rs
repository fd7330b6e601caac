//! The action list after compilation: [`CompiledAction`] with its `printes` and report terms,
//! the expressions each action reads, and the declarer `evalcontract` plays from.

use crate::cards::{Seat, Side, Strain};
use crate::pos::Pos;
use crate::program::nodes::NodeId;
use crate::script::ast::{Contract, ExportTarget, Vulnerability};

/// A `printes` item after compilation.
#[derive(Clone, Debug, PartialEq)]
pub enum EsPart {
    /// An expression printed with `%d`.
    Value(NodeId),
    /// Raw text.
    Text(String),
}

/// A `printrpt`/`csvrpt` term after compilation.
#[derive(Clone, Debug, PartialEq)]
pub enum ReportPart {
    /// An expression printed with `%d`.
    Value(NodeId),
    /// A quoted string.
    Text(String),
    /// Hands of these seats (N, E, S, W order).
    Hands(Vec<Seat>),
    /// `trix(seat)`, or `trix(deal)` (`None`): double-dummy tricks in C, D, H, S, NT per hand.
    Tricks(Option<Seat>),
    /// `parcontract[(vul)]`: the par contract text; without a vulnerability the default (`-P`).
    ParContract(Option<Vulnerability>),
}

/// One compiled action.
#[derive(Clone, Debug, PartialEq)]
pub enum CompiledAction {
    /// `printall`.
    PrintAll,
    /// `printew`, `printns`, `printside(side)`.
    PrintSide(Side),
    /// `printcompact[(e)]`.
    PrintCompact(Option<NodeId>),
    /// `printoneline[(e)]`.
    PrintOneline(Option<NodeId>),
    /// `printpbn`.
    PrintPbn,
    /// `printes(…)`.
    PrintEs(Vec<EsPart>),
    /// `printlin` (libdealer): one BBO LIN record per deal.
    PrintLin,
    /// `printjson(…)` (libdealer): one JSON object per deal with these named values.
    PrintJson(Vec<(String, NodeId)>),
    /// `print(seats…)` at the end of the run.
    PrintPages(Vec<Seat>),
    /// `average`.
    Average {
        /// The optional label.
        label: Option<String>,
        /// The expression tallied.
        value: NodeId,
    },
    /// 1-D `frequency`.
    Frequency {
        /// The optional label.
        label: Option<String>,
        /// The expression tallied.
        value: NodeId,
        /// The lowest value with a row of its own.
        lo: i32,
        /// The highest value with a row of its own.
        hi: i32,
    },
    /// 2-D `frequency`.
    Frequency2 {
        /// The optional label.
        label: Option<String>,
        /// The row expression with its bounds (and bucket size for `bktfreq`).
        rows: (NodeId, i32, i32),
        /// The column expression with its bounds (and bucket size for `bktfreq`).
        cols: (NodeId, i32, i32),
    },
    /// 1-D `bktfreq`.
    BucketFrequency {
        /// The optional label.
        label: Option<String>,
        /// The expression tallied.
        value: NodeId,
        /// The lowest value with a row of its own.
        lo: i32,
        /// The highest value with a row of its own.
        hi: i32,
        /// The bucket size.
        size: i32,
    },
    /// 2-D `bktfreq`.
    BucketFrequency2 {
        /// The optional label.
        label: Option<String>,
        /// The row expression with its bounds (and bucket size for `bktfreq`).
        rows: (NodeId, i32, i32, i32),
        /// The column expression with its bounds (and bucket size for `bktfreq`).
        cols: (NodeId, i32, i32, i32),
    },
    /// `printrpt` (to stdout) or `csvrpt` (`to_csv`: to the csv sink).
    Report {
        /// The terms of the record.
        parts: Vec<ReportPart>,
        /// Whether the record goes to the csv stream (`csvrpt`), not the output (`printrpt`).
        to_csv: bool,
    },
    /// `export(…)`.
    Export(ExportTarget),
    /// `evalcontract(side, contract, vul)`: a trick histogram per produced deal, summarised at
    /// the end of the run.
    EvalContract {
        /// The declaring side (declarer South for NS, West for EW).
        side: Side,
        /// The contract.
        contract: Contract,
        /// Whether the declaring side is vulnerable.
        vulnerable: bool,
    },
    /// `leads(seat, strain, tricks[, vul])`: every opening lead of `leader` scored on each
    /// produced deal, summarised at the end of the run.
    Leads(LeadStudy),
}

/// What a `leads` action studies: `leader`'s opening leads against the contract of `needed`
/// tricks in `strain` by `leader`'s right-hand opponent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LeadStudy {
    /// The opening leader.
    pub leader: Seat,
    /// The contract's strain.
    pub strain: Strain,
    /// The tricks declarer needs, 7 to 13.
    pub needed: u8,
    /// Whether declarer is vulnerable, when the action says (else the script's `vulnerable`).
    pub vulnerable: Option<bool>,
    /// Where the action stands in the script.
    pub pos: Pos,
}

impl LeadStudy {
    /// Declarer: the leader's right-hand opponent.
    pub fn declarer(&self) -> Seat {
        self.leader.partner().left()
    }
}

impl CompiledAction {
    /// The value a one-value statistic (`average`, `frequency`, `bktfreq`) tallies.
    pub fn tallied_value(&self) -> Option<NodeId> {
        match self {
            CompiledAction::Average { value, .. }
            | CompiledAction::Frequency { value, .. }
            | CompiledAction::BucketFrequency { value, .. } => Some(*value),
            _ => None,
        }
    }
}

/// The declarer `evalcontract` uses for a side: South for NS, West for EW.
pub fn evalcontract_declarer(side: Side) -> Seat {
    match side {
        Side::NS => Seat::South,
        Side::EW => Seat::West,
    }
}

/// Adds the expressions `action` reads to `roots`.
pub(crate) fn action_roots(action: &CompiledAction, roots: &mut Vec<NodeId>) {
    match action {
        CompiledAction::PrintJson(values) => roots.extend(values.iter().map(|(_, v)| *v)),
        CompiledAction::PrintCompact(Some(v)) | CompiledAction::PrintOneline(Some(v)) => roots.push(*v),
        CompiledAction::PrintEs(parts) => roots.extend(parts.iter().filter_map(|p| match p {
            EsPart::Value(v) => Some(*v),
            EsPart::Text(_) => None,
        })),
        CompiledAction::Average { value, .. }
        | CompiledAction::Frequency { value, .. }
        | CompiledAction::BucketFrequency { value, .. } => roots.push(*value),
        CompiledAction::Frequency2 { rows, cols, .. } => roots.extend([rows.0, cols.0]),
        CompiledAction::BucketFrequency2 { rows, cols, .. } => roots.extend([rows.0, cols.0]),
        CompiledAction::Report { parts, .. } => roots.extend(parts.iter().filter_map(|p| match p {
            ReportPart::Value(v) => Some(*v),
            _ => None,
        })),
        _ => {}
    }
}
