//! The compiled script, [`Program`]: its node array, condition, actions, shape and count tables
//! and settings, and what it reads, found by looking at it before it runs (the double-dummy
//! results, the hands the condition and the actions read, `rnd()`, external programs).
//! How a script becomes a program is [`crate::program::compile`]'s.

use std::collections::HashMap;

use crate::cards::SeatSet;
use crate::dd::Need;
use crate::dialect::Dialect;
use crate::error::Error;
use crate::program::compiled_action::{action_roots, evalcontract_declarer, CompiledAction, ReportPart};
use crate::program::hand_stats::CountTables;
use crate::program::nodes::{children, Node, NodeId};
use crate::program::settings::ScriptSettings;
use crate::program::shape::ShapeSet;
use crate::script::ast::{Call, Pos};

/// A script function that runs an external program (see [`Program::first_external_call`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExternalCall {
    /// `opc(side[, strain])`: runs DealerV2's DOP program.
    Opc,
    /// `usereval(…)`: asks a DealerServer program (unless a metric is set in process).
    UserEval,
}

impl ExternalCall {
    /// The function's name in the script.
    pub fn name(self) -> &'static str {
        match self {
            ExternalCall::Opc => "opc",
            ExternalCall::UserEval => "usereval",
        }
    }
}

/// The double-dummy results a program asks for, found by looking at it before it runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DdUse {
    /// Results the condition may read.
    pub condition: Need,
    /// Results the actions may read on a produced deal.
    pub actions: Need,
    /// The first feature that needs whole tables (DealerV2's mode 2), if any: `par`, `trix`,
    /// `parcontract`.
    pub table_feature: Option<&'static str>,
    /// Whether an action searches every opening lead (`leads`).
    pub leads: bool,
}

impl DdUse {
    /// Whether a run solves double dummy at all.
    pub fn solves(&self) -> bool {
        !(self.condition.is_empty() && self.actions.is_empty()) || self.leads
    }
}

/// A compiled script, ready to run.
#[derive(Clone, Debug)]
pub struct Program {
    /// The dialect it was compiled for.
    pub dialect: Dialect,
    /// Every expression node.
    pub nodes: Vec<Node>,
    /// The condition (`None`: every deal is accepted).
    pub condition: Option<NodeId>,
    /// The actions, in list order.
    pub actions: Vec<CompiledAction>,
    /// Whether the script prints deals by its peer's rule, so that `produce` defaults to 40
    /// rather than to `generate`: no `action` statement at all, or a printing action in the
    /// final list (DealerV2) or in any list, even a replaced one (classic's `will_print`).
    pub prints_deals: bool,
    /// Shape sets referenced by [`Node::Shape`].
    pub shapes: Vec<ShapeSet>,
    /// Count tables after `pointcount`/`altcount`.
    pub counts: CountTables,
    /// Environment settings.
    pub settings: ScriptSettings,
    /// Text the peers echo at parse time.
    pub echo: String,
    /// Whether the word `usereval` appears in the script: DealerV2 then starts its DealerServer
    /// for the job, used or not.
    pub mentions_usereval: bool,
    /// Variables by name.
    pub(super) variables: HashMap<String, NodeId>,
    /// `shape(…)` clauses compiled from the script so far (classic dealer numbers them).
    pub(super) shape_clauses: u32,
    /// Whether an `action` statement has been compiled.
    pub(super) seen_action_statement: bool,
    /// Nodes and shape sets that belong to the script itself (the rest came from `dealer_eval`).
    pub(super) script_size: (usize, usize),
    /// Per node: how many nodes an evaluation of it may visit, counting a variable's expression
    /// at each use (saturating); see [`MAX_EXPANDED_NODES`](crate::program::MAX_EXPANDED_NODES).
    pub(super) expanded: Vec<u32>,
    /// Whether expressions being compiled come from the script (not from `dealer_eval`).
    pub(super) compiling_script: bool,
    /// The error the current action list will meet after parsing, if any (see the module
    /// documentation).
    pub(super) action_error: Option<Error>,
    /// While the script is compiled, its names followed by `(`: an unknown one is an unknown
    /// function in the full form of the error.
    pub(super) calls: Vec<Call>,
}

impl Program {
    /// The double-dummy results the condition and the action list may need.
    pub fn dd_use(&self) -> DdUse {
        let mut table_feature = None;
        let condition = self.dd_need_below(self.condition.into_iter().collect(), &mut table_feature);
        let mut roots = Vec::new();
        let mut actions = Need::NONE;
        for action in &self.actions {
            action_roots(action, &mut roots);
            match action {
                CompiledAction::Report { parts, .. } => {
                    for part in parts {
                        let feature = match part {
                            ReportPart::Tricks(_) => "trix",
                            ReportPart::ParContract(_) => "parcontract",
                            _ => continue,
                        };
                        table_feature.get_or_insert(feature);
                        actions = Need::TABLE;
                    }
                }
                CompiledAction::EvalContract { side, contract, .. } => {
                    actions = actions.union(Need::cell(evalcontract_declarer(*side), contract.strain));
                }
                _ => {}
            }
        }
        let actions = actions.union(self.dd_need_below(roots, &mut table_feature));
        let leads = self.actions.iter().any(|a| matches!(a, CompiledAction::Leads(_)));
        DdUse { condition, actions, table_feature, leads }
    }

    /// The double-dummy results reachable from the given nodes; notes the first `par`.
    fn dd_need_below(&self, roots: Vec<NodeId>, table_feature: &mut Option<&'static str>) -> Need {
        let mut need = Need::NONE;
        self.walk(roots, |node| {
            match node {
                Node::Dds(seat, strain, _) => need = need.union(Need::cell(*seat, *strain)),
                Node::Par(..) => {
                    table_feature.get_or_insert("par");
                    need = Need::TABLE;
                }
                _ => {}
            }
            false
        });
        need
    }

    /// The seats whose hands the condition may read: all four when it reads the whole deal
    /// (double dummy, external metrics), none when there is no condition. The dealer settles
    /// only these seats before the condition is judged.
    pub fn condition_seats(&self) -> SeatSet {
        let Some(condition) = self.condition else { return SeatSet::NONE };
        self.seats_read(vec![condition])
    }

    /// The seats whose hands the actions may read on a produced deal: those the statistics'
    /// values read, and all four when an action prints, keeps, exports or solves deals. The
    /// dealer completes a produced deal only this far.
    pub fn action_seats(&self) -> SeatSet {
        let mut values = Vec::new();
        for action in &self.actions {
            if let Some(value) = action.tallied_value() {
                values.push(value);
                continue;
            }
            match action {
                CompiledAction::Frequency2 { rows, cols, .. } => values.extend([rows.0, cols.0]),
                CompiledAction::BucketFrequency2 { rows, cols, .. } => values.extend([rows.0, cols.0]),
                _ => return SeatSet::ALL,
            }
        }
        self.seats_read(values)
    }

    /// The seats whose hands the expressions `roots` may read: all four when they read the
    /// whole deal (double dummy, external metrics).
    fn seats_read(&self, roots: Vec<NodeId>) -> SeatSet {
        let mut seats = SeatSet::NONE;
        self.walk(roots, |node| {
            seats = seats.union(match node {
                Node::Length(seat, _)
                | Node::Count { seat, .. }
                | Node::Controls(seat, _)
                | Node::Losers(seat, _)
                | Node::Ltc(seat, _)
                | Node::Cccc(seat)
                | Node::Quality(seat, _)
                | Node::Shape(seat, _)
                | Node::HasCard(seat, _) => SeatSet::of(*seat),
                Node::Dds(..) | Node::Par(..) | Node::Opc(..) | Node::UserEval { .. } => SeatSet::ALL,
                Node::Const(_)
                | Node::Not(_)
                | Node::Binary(..)
                | Node::CompareConst(..)
                | Node::Conditional(..)
                | Node::Score { .. }
                | Node::Imps(_)
                | Node::Rnd(_) => SeatSet::NONE,
            });
            seats == SeatSet::ALL
        });
        seats
    }

    /// Whether the condition reads nothing but the deal (no `rnd()`, double dummy or external
    /// metric), so that any thread judging a deal gives the same verdict.
    pub fn condition_reads_only_the_deal(&self) -> bool {
        let Some(condition) = self.condition else { return true };
        let mut pure = true;
        self.walk(vec![condition], |node| {
            pure =
                !matches!(node, Node::Rnd(_) | Node::Dds(..) | Node::Par(..) | Node::Opc(..) | Node::UserEval { .. });
            !pure
        });
        pure
    }

    /// Whether `rnd()` is reachable from the condition or the actions: it draws from the dealing
    /// stream, so deals cannot be dealt ahead of their evaluation.
    pub fn uses_rnd(&self) -> bool {
        self.reaches(|node| matches!(node, Node::Rnd(_)))
    }

    /// Whether `opc()` or `usereval()` is reachable from the condition or the actions: they run
    /// external programs in the order the deals are judged, so deals are not dealt ahead.
    pub fn uses_external_metrics(&self) -> bool {
        self.reaches(|node| matches!(node, Node::Opc(..) | Node::UserEval { .. }))
    }

    /// How many of [`nodes`](Self::nodes) the script itself compiled to (the rest came from
    /// `dealer_eval` and `dealer_compile_expression`).
    pub fn script_node_count(&self) -> usize {
        self.script_size.0
    }

    /// The first call among `nodes` (compiled from the script, or later for `dealer_eval`)
    /// that would start an external program unless the embedder serves it in process: `opc()`,
    /// and `usereval()` when `usereval` is set; with its position. "First" is by position, so the
    /// error points at the call the reader meets first.
    pub fn first_external_call(&self, nodes: std::ops::Range<usize>, usereval: bool) -> Option<(ExternalCall, Pos)> {
        self.nodes
            .get(nodes)
            .unwrap_or_default()
            .iter()
            .filter_map(|node| match node {
                Node::Opc(_, _, pos) => Some((ExternalCall::Opc, *pos)),
                Node::UserEval { pos, .. } if usereval => Some((ExternalCall::UserEval, *pos)),
                _ => None,
            })
            .min_by_key(|(_, pos)| (pos.line, pos.col))
    }

    /// The position of the script's first `usereval()` call (by position), if one was compiled.
    pub fn first_usereval_call(&self) -> Option<Pos> {
        self.nodes[..self.script_node_count().min(self.nodes.len())]
            .iter()
            .filter_map(|node| match node {
                Node::UserEval { pos, .. } => Some(*pos),
                _ => None,
            })
            .min_by_key(|pos| (pos.line, pos.col))
    }

    /// Whether a node for which `wanted` holds is reachable from the condition or the actions.
    fn reaches(&self, wanted: impl Fn(&Node) -> bool) -> bool {
        let mut roots: Vec<NodeId> = self.condition.into_iter().collect();
        for action in &self.actions {
            action_roots(action, &mut roots);
        }
        let mut found = false;
        self.walk(roots, |node| {
            found = wanted(node);
            found
        });
        found
    }

    /// Visits each node reachable from `roots` once; stops as soon as `visit` returns true.
    fn walk(&self, mut roots: Vec<NodeId>, mut visit: impl FnMut(&Node) -> bool) {
        let mut seen = vec![false; self.nodes.len()];
        while let Some(id) = roots.pop() {
            if std::mem::replace(&mut seen[id as usize], true) {
                continue;
            }
            let node = &self.nodes[id as usize];
            if visit(node) {
                return;
            }
            roots.extend(children(node));
        }
    }
}
