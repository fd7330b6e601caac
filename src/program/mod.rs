//! Checking and compiling a parsed script into what runs: a flat array of expression nodes (the
//! condition, variables and action arguments all point into it), the shape tables, the count
//! tables, the compiled action list and the script's settings.
//!
//! Variables are resolved here, in textual order as the peers do: a use before the definition is
//! `unknown variable`, a second definition `redefined variable`. A variable's nodes are shared by
//! every use and re-evaluated at each use, so `rnd()` inside a variable behaves as in the peers.
//!
//! Checks run in the order the peers' parsers make them (a construct's parts before the construct,
//! constructs in textual order), at the positions the syntax tree records for them, so the first
//! error is the one the peers report, on the same line. Errors the peers only meet after parsing
//! (classic dealer's `Out of memory` for a frequency table; here also the actions this build
//! cannot run) are reported after every statement has been checked, and only for the action list
//! that is finally in force.

pub mod bbo_check;
pub mod chain_order;
pub mod dag;
pub mod dag_builder;
pub mod deal_expr;
pub mod eval;
pub mod hand_stats;
pub mod scoring;
pub mod shape;
pub mod shape_fd;
pub mod tallied_values;

use std::collections::HashMap;

use crate::actions::{self, BucketFrequency1D};
use crate::cards::{Card, Seat, SeatSet, Side, Strain, Suit};
use crate::dd::Need;
use crate::dealing::{SpotCards, SPOT_RANKS};
use crate::dialect::Dialect;
use crate::error::{Error, ErrorKind, Result};
use crate::program::hand_stats::{CountTables, HCP_TABLE};
use crate::program::shape::ShapeSet;
use crate::script;
use crate::script::ast::{
    Action, BinOp, Contract, CountTable, ExportTarget, Expr, JsonItem, ParsedScript, Pos, PredealItem, PrintItem,
    ReportItem, SideOrSeat, Statement, Vulnerability,
};

/// Index of a node in [`Program::nodes`].
pub type NodeId = u32;

/// One compiled expression node. Children are indices into the same array.
#[derive(Clone, Debug, PartialEq)]
pub enum Node {
    /// A constant.
    Const(i32),
    /// Length of a suit in a seat's hand.
    Length(Seat, Suit),
    /// A count table (index into [`CountTables`]) over a hand or one suit.
    Count {
        /// The count table.
        table: u8,
        /// The seat whose hand is read.
        seat: Seat,
        /// One suit, or the whole hand when `None`.
        suit: Option<Suit>,
    },
    /// Controls (A=2, K=1).
    Controls(Seat, Option<Suit>),
    /// Losers.
    Losers(Seat, Option<Suit>),
    /// Modern LTC ×100.
    Ltc(Seat, Option<Suit>),
    /// Kaplan–Rubens CCCC ×100.
    Cccc(Seat),
    /// Kaplan–Rubens suit quality ×100.
    Quality(Seat, Suit),
    /// Whether a seat's shape is in shape set number `set`.
    Shape(Seat, u32),
    /// Whether a seat holds a card.
    HasCard(Seat, Card),
    /// Logical not.
    Not(NodeId),
    /// A binary operator; `pos` locates division by zero.
    Binary(BinOp, NodeId, NodeId, Pos),
    /// A comparison (`==`, `!=`, `<`, `<=`, `>`, `>=`) of a node with a constant: the commonest
    /// clause of a condition, judged in one step.
    CompareConst(BinOp, NodeId, i32),
    /// `c ? a : b`.
    Conditional(NodeId, NodeId, NodeId),
    /// Bridge score of a contract for a number of tricks.
    Score {
        /// Whether declarer is vulnerable.
        vulnerable: bool,
        /// The contract.
        contract: Contract,
        /// Tricks taken by declarer.
        tricks: NodeId,
    },
    /// IMPs of a score difference.
    Imps(NodeId),
    /// `rnd(n)`.
    Rnd(NodeId),
    /// Double-dummy tricks for a declarer in a strain (`dds()`, and `tricks()`, which DDS answers
    /// too); `pos` locates solver errors.
    Dds(Seat, Strain, Pos),
    /// `par(side[, vulnerability])`: the par score from the side's point of view; without a
    /// vulnerability the session's default (`-P`) applies.
    Par(Side, Option<Vulnerability>, Pos),
    /// `opc(side[, strain])`: DOP's value ×100 in the strain, or in the longest fit without one.
    Opc(Side, Option<Strain>, Pos),
    /// `usereval(tag, side|compass, [suit,] index)`: a slot of an external metric's results.
    UserEval {
        /// The metric tag.
        tag: NodeId,
        /// The index argument.
        index: NodeId,
        /// The form of the call (side, seat, suit), which picks the slot.
        form: crate::external::usereval::SlotForm,
        /// Where it stands in the script (for errors).
        pos: Pos,
    },
}

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
}

/// Settings a script makes with its environment statements; options may override them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ScriptSettings {
    /// `generate` (the first non-zero one).
    pub generate: Option<i64>,
    /// `produce` (the first non-zero one).
    pub produce: Option<i64>,
    /// `seed` (the last one).
    pub seed: Option<i64>,
    /// `title` (the last one).
    pub title: Option<String>,
    /// `dealer` for PBN.
    pub dealer: Option<Seat>,
    /// `vulnerable` for PBN.
    pub vulnerable: Option<Vulnerability>,
    /// `startboard`.
    pub startboard: Option<i64>,
    /// `opener`.
    pub opener: Option<Seat>,
    /// Card predeal in textual order.
    pub predeal: Vec<(Seat, Card)>,
    /// Bias predeal suit lengths, `[seat][suit]`, -1 unset.
    pub bias: [[i8; 4]; 4],
    /// Spot-card holdings (`SQTxx`), each with the position of its holding; the named cards
    /// are in `predeal`.
    pub spots: Vec<(SpotCards, Pos)>,
    /// Where the card predeal and the bias predeal items stand, in textual order: where a
    /// combination that no deal can satisfy is reported (at the last of them).
    pub predeal_pos: Vec<Pos>,
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
    variables: HashMap<String, NodeId>,
    /// `shape(…)` clauses compiled from the script so far (classic dealer numbers them).
    shape_clauses: u32,
    /// Whether an `action` statement has been compiled.
    seen_action_statement: bool,
    /// Nodes and shape sets that belong to the script itself (the rest came from `dealer_eval`).
    script_size: (usize, usize),
    /// Per node: how many nodes an evaluation of it may visit, counting a variable's expression
    /// at each use (saturating); see [`MAX_EXPANDED_NODES`].
    expanded: Vec<u32>,
    /// Whether expressions being compiled come from the script (not from `dealer_eval`).
    compiling_script: bool,
    /// The error the current action list will meet after parsing, if any (see the module
    /// documentation).
    action_error: Option<Error>,
}

/// Most `shape(…)` clauses a classic script may have: classic dealer gives each clause one bit of
/// a 32-bit mask and refuses the 32nd clause (`Too many shapes -- only 32 allowed!`).
const MAX_CLASSIC_SHAPE_CLAUSES: u32 = 31;

impl Program {
    /// Parses and compiles script text, reporting the error the peers report first. When the
    /// text has a syntax error, the peers have already checked everything they parsed before it
    /// (see [`script::ParseFailure`]): a semantic error there (an unknown variable, a card
    /// predealt twice …) is reported instead of the syntax error.
    pub fn from_source(source: &[u8], dialect: Dialect, vars: &script::ScriptVars) -> Result<Program> {
        match script::parse_script(source, dialect, vars) {
            Ok(parsed) => Program::compile(&parsed, dialect),
            Err(failure) => {
                if let Some(before) = &failure.before {
                    if let Err(e) = Program::check(before, dialect) {
                        // Line 0: a check of what the placeholders completed, which the peers
                        // never reach.
                        if e.line.is_some_and(|line| line > 0) {
                            return Err(e);
                        }
                    }
                }
                Err(failure.error.into())
            }
        }
    }

    /// Compiles a parsed script.
    pub fn compile(script: &ParsedScript, dialect: Dialect) -> Result<Program> {
        let mut program = Program::check(script, dialect)?;
        if let Some(error) = program.action_error.take() {
            return Err(error);
        }
        program.check_spot_cards()?;
        program.mentions_usereval = script.mentions_usereval;
        program.compiling_script = false;
        program.script_size = (program.nodes.len(), program.shapes.len());
        Ok(program)
    }

    /// Compiles a parsed script with the checks the peers make while parsing; the errors they
    /// meet after parsing are left in `action_error`.
    fn check(script: &ParsedScript, dialect: Dialect) -> Result<Program> {
        let mut program = Program {
            dialect,
            nodes: Vec::new(),
            condition: None,
            actions: vec![CompiledAction::PrintAll],
            prints_deals: true,
            shapes: Vec::new(),
            counts: CountTables::new(),
            settings: ScriptSettings { bias: [[-1; 4]; 4], ..ScriptSettings::default() },
            echo: script.echo.clone(),
            mentions_usereval: false,
            variables: HashMap::new(),
            shape_clauses: 0,
            seen_action_statement: false,
            script_size: (0, 0),
            expanded: Vec::new(),
            compiling_script: true,
            action_error: None,
        };
        for statement in &script.statements {
            program.statement(statement)?;
        }
        Ok(program)
    }

    /// Compiles one more expression against this program's variables (for `dealer_eval`).
    pub fn compile_extra_expression(&mut self, expr: &Expr) -> Result<NodeId> {
        let id = self.expr(expr)?;
        self.check_expanded(id)?;
        Ok(id)
    }

    /// Drops every expression compiled with [`compile_extra_expression`](Self::compile_extra_expression)
    /// (their node ids become invalid), so that evaluating ever new expressions stays bounded in memory.
    pub fn forget_extra_expressions(&mut self) {
        let (nodes, shapes) = self.script_size;
        self.nodes.truncate(nodes);
        self.expanded.truncate(nodes);
        self.shapes.truncate(shapes);
    }

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
        DdUse { condition, actions, table_feature }
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

    fn statement(&mut self, statement: &Statement) -> Result<()> {
        let s = &mut self.settings;
        match statement {
            Statement::Generate(n, _) => {
                if s.generate.is_none() && *n != 0 {
                    s.generate = Some(*n);
                }
            }
            Statement::Produce(n, _) => {
                if s.produce.is_none() && *n != 0 {
                    s.produce = Some(*n);
                }
            }
            Statement::Seed(n, _) => s.seed = Some(*n),
            Statement::Title(t, _) => s.title = Some(t.clone()),
            Statement::Dealer(seat, _) => s.dealer = Some(*seat),
            Statement::Vulnerable(v, _) => s.vulnerable = Some(*v),
            Statement::Startboard(n, _) => s.startboard = Some(*n),
            Statement::Opener(seat, _) => s.opener = Some(*seat),
            Statement::Predeal(items) => {
                for item in items {
                    self.predeal(item)?;
                }
            }
            Statement::Pointcount(values, pos) => {
                self.counts.set_from_ace(HCP_TABLE, values).map_err(|m| Error::script(m, pos.line, pos.col))?
            }
            Statement::Altcount(index, values, pos) => {
                if !(0..=10).contains(index) {
                    return Err(Error::script(
                        format!("altcount table {index} out of range (0..9)"),
                        pos.line,
                        pos.col,
                    ));
                }
                self.counts.set_from_ace(*index as usize, values).map_err(|m| Error::script(m, pos.line, pos.col))?
            }
            Statement::Condition(expr, pos) => {
                let id = self
                    .expr(expr)
                    .and_then(|id| self.check_expanded(id).map(|()| id))
                    .map_err(|e| e.located_or(*pos))?;
                self.condition = Some(id);
            }
            Statement::Define(name, expr, pos) => {
                // The peers check the name when they reduce the whole definition, after its
                // expression.
                let id = self.expr(expr).map_err(|e| e.located_or(*pos))?;
                if self.variables.contains_key(name) {
                    return Err(Error::script("redefined variable", pos.line, pos.col));
                }
                self.variables.insert(name.clone(), id);
            }
            Statement::Action(list, pos) => {
                self.action_error = None;
                let mut actions = Vec::with_capacity(list.len());
                for action in list {
                    if let Some(compiled) = self.action(action).map_err(|e| e.located_or(*pos))? {
                        let mut roots = Vec::new();
                        action_roots(&compiled, &mut roots);
                        for root in roots {
                            self.check_expanded(root).map_err(|e| e.located_or(*pos))?;
                        }
                        actions.push(compiled);
                    }
                }
                let list_prints = list.iter().any(is_printing_action);
                let first_list = !self.seen_action_statement;
                self.prints_deals = match self.dialect {
                    Dialect::V2 => list_prints,
                    Dialect::Classic => list_prints || (!first_list && self.prints_deals),
                };
                self.seen_action_statement = true;
                self.actions = actions;
            }
        }
        Ok(())
    }

    fn predeal(&mut self, item: &PredealItem) -> Result<()> {
        let s = &mut self.settings;
        match item {
            PredealItem::Cards { seat, cards, spots, .. } => {
                let held = |s: &ScriptSettings| {
                    s.predeal.iter().filter(|(p, _)| p == seat).count()
                        + s.spots.iter().filter(|(x, _)| x.seat == *seat).map(|(x, _)| x.count as usize).sum::<usize>()
                };
                for (card, pos) in cards {
                    if s.predeal.iter().any(|(_, c)| c == card) {
                        return Err(Error::script("Card predealt twice", pos.line, pos.col));
                    }
                    if held(s) >= 13 {
                        return Err(Error::script("More than 13 cards for one player", pos.line, pos.col));
                    }
                    if let Some((_, at)) = s.spots.iter().find(|(x, _)| x.seat == *seat && x.suit == card.suit()) {
                        return Err(Error::script(suit_fixed(*seat, card.suit(), *at), pos.line, pos.col));
                    }
                    s.predeal.push((*seat, *card));
                    s.predeal_pos.push(*pos);
                }
                // A spot holding names the seat's whole suit: no card of it in another holding.
                for spot in spots {
                    let pos = spot.pos;
                    let err = |m: String| Error::script(m, pos.line, pos.col);
                    if let Some((_, at)) = s.spots.iter().find(|(x, _)| x.seat == *seat && x.suit == spot.suit) {
                        return Err(err(suit_fixed(*seat, spot.suit, *at)));
                    }
                    let in_suit = s.predeal.iter().filter(|(p, c)| p == seat && c.suit() == spot.suit).count();
                    let named = cards.iter().filter(|(c, at)| *at == pos && c.suit() == spot.suit).count();
                    let other_holding = in_suit > named;
                    if other_holding {
                        return Err(err(format!(
                            "{} already holds predealt {}s: a holding with x must name all of them",
                            seat.name(),
                            spot.suit.name()
                        )));
                    }
                    if held(s) + spot.count as usize > 13 {
                        return Err(err("More than 13 cards for one player".to_string()));
                    }
                    s.spots.push((SpotCards { seat: *seat, suit: spot.suit, count: spot.count }, pos));
                    s.predeal_pos.push(pos);
                }
            }
            PredealItem::SuitLength { seat, suit, length, pos } => {
                let err = |m: String| Error::script(m, pos.line, pos.col);
                let cell = s.bias[seat.index()][suit.index()];
                if cell >= 0 {
                    return Err(err(format!(
                        "{}'s {} suit has length already set to {}",
                        seat.name(),
                        suit.name(),
                        cell
                    )));
                }
                let length = (*length).clamp(0, 99);
                let seat_total: i32 =
                    s.bias[seat.index()].iter().filter(|&&v| v > 0).map(|&v| v as i32).sum::<i32>() + length;
                if seat_total > 13 {
                    return Err(err(format!("Suit lengths too long for {}", seat.name())));
                }
                let suit_total: i32 = (0..4).map(|h| s.bias[h][suit.index()].max(0) as i32).sum::<i32>() + length;
                if suit_total > 13 {
                    return Err(err(format!("Too many {}s", suit.name())));
                }
                s.bias[seat.index()][suit.index()] = length as i8;
                s.predeal_pos.push(*pos);
            }
        }
        Ok(())
    }

    /// The checks of spot holdings against the whole script's predeal: enough free small
    /// cards for the `x`s of each suit (reported at the holding that asks one too many), and a
    /// bias length equal to the holding's length (at the later of the two).
    fn check_spot_cards(&self) -> Result<()> {
        let s = &self.settings;
        for suit in Suit::ALL {
            let predealt_small =
                s.predeal.iter().filter(|(_, c)| c.suit() == suit && SPOT_RANKS & (1 << c.rank()) != 0).count() as u32;
            let free = 8 - predealt_small;
            let mut wanted = 0u32;
            for (spot, pos) in s.spots.iter().filter(|(x, _)| x.suit == suit) {
                wanted += u32::from(spot.count);
                if wanted > free {
                    let total = s.spots.iter().filter(|(x, _)| x.suit == suit).map(|(x, _)| u32::from(x.count)).sum();
                    return Err(Error::script(crate::dealing::too_many_spots(suit, total, free), pos.line, pos.col));
                }
            }
        }
        for (spot, pos) in &s.spots {
            let bias = s.bias[spot.seat.index()][spot.suit.index()];
            let named = s.predeal.iter().filter(|(p, c)| *p == spot.seat && c.suit() == spot.suit).count();
            let length = named + spot.count as usize;
            if bias >= 0 && bias as usize != length {
                let at = s
                    .predeal_pos
                    .iter()
                    .copied()
                    .filter(|p| (p.line, p.col) >= (pos.line, pos.col))
                    .max_by_key(|p| (p.line, p.col))
                    .unwrap_or(*pos);
                return Err(Error::script(
                    format!(
                        "{}'s spot-card holding has {} {}s but its length is set to {}",
                        spot.seat.name(),
                        length,
                        spot.suit.name(),
                        bias
                    ),
                    at.line,
                    at.col,
                ));
            }
        }
        Ok(())
    }

    fn push(&mut self, node: Node) -> NodeId {
        let expanded =
            children(&node).into_iter().fold(1u32, |total, child| total.saturating_add(self.expanded[child as usize]));
        self.expanded.push(expanded);
        self.nodes.push(node);
        (self.nodes.len() - 1) as NodeId
    }

    /// How many nodes an evaluation of node `id` may visit, counting a variable's expression at
    /// each use (saturating).
    pub fn expanded_size(&self, id: NodeId) -> u32 {
        self.expanded[id as usize]
    }

    /// Refuses an expression that is evaluated (a condition, an action's value) when variables
    /// used inside variables make it expand to more than [`MAX_EXPANDED_NODES`] nodes: `a1 = a0
    /// && a0`, `a2 = a1 && a1` … doubles at each step, and the peers would evaluate every copy.
    fn check_expanded(&self, id: NodeId) -> Result<()> {
        if self.expanded_size(id) > MAX_EXPANDED_NODES {
            return Err(Error::new(
                ErrorKind::Script,
                format!("expression too large: through its variables it expands to more than {MAX_EXPANDED_NODES} operations"),
            ));
        }
        Ok(())
    }

    fn expr(&mut self, expr: &Expr) -> Result<NodeId> {
        if !crate::stack::enough() {
            // Located at the first located token of the expression, else (by the statement)
            // at the statement.
            let pos = expr_pos(expr);
            let e = Error::new(ErrorKind::Script, TOO_DEEP);
            return Err(if pos.line > 0 { e.at(pos.line, pos.col) } else { e });
        }
        let node = match expr {
            Expr::Number(n, _) => Node::Const(*n),
            Expr::Variable(name, pos) => {
                return self
                    .variables
                    .get(name)
                    .copied()
                    .ok_or_else(|| Error::script("unknown variable", pos.line, pos.col));
            }
            Expr::Not(a) => {
                let a = self.expr(a)?;
                Node::Not(a)
            }
            Expr::Binary(op, a, b, op_pos) => {
                // Division by zero is located at the divisor, else at the dividend, else (when
                // neither has a position of its own, e.g. `hcp(north)`) at the operator.
                let pos =
                    [expr_pos(b), expr_pos(a), *op_pos].into_iter().find(|p| *p != Pos::default()).unwrap_or_default();
                let a = self.expr(a)?;
                let b = self.expr(b)?;
                match (op, &self.nodes[b as usize]) {
                    (BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge, Node::Const(k)) => {
                        Node::CompareConst(*op, a, *k)
                    }
                    _ => Node::Binary(*op, a, b, pos),
                }
            }
            Expr::Conditional(c, a, b) => {
                let c = self.expr(c)?;
                let a = self.expr(a)?;
                let b = self.expr(b)?;
                Node::Conditional(c, a, b)
            }
            Expr::SuitLength(seat, suit) => Node::Length(*seat, *suit),
            Expr::Count { table, seat, suit } => Node::Count {
                table: match table {
                    CountTable::Hcp => HCP_TABLE as u8,
                    CountTable::Pt(n) => *n,
                },
                seat: *seat,
                suit: *suit,
            },
            Expr::Controls { seat, suit } => Node::Controls(*seat, *suit),
            Expr::Losers { seat, suit } => Node::Losers(*seat, *suit),
            Expr::Ltc { seat, suit } => Node::Ltc(*seat, *suit),
            Expr::Cccc(seat) => Node::Cccc(*seat),
            Expr::Quality(seat, suit) => Node::Quality(*seat, *suit),
            Expr::Shape { seat, terms, term_pos, close, .. } => {
                let set = ShapeSet::from_terms(terms).map_err(|message| {
                    // Report the first term that is wrong on its own, where the peers check it.
                    let at = terms
                        .iter()
                        .zip(term_pos)
                        .find(|(term, _)| ShapeSet::from_terms(std::slice::from_ref(*term)).is_err())
                        .map_or(*close, |(_, p)| *p);
                    Error::script(message, at.line, at.col)
                })?;
                if self.compiling_script {
                    self.shape_clauses += 1;
                    if self.dialect == Dialect::Classic && self.shape_clauses > MAX_CLASSIC_SHAPE_CLAUSES {
                        // Classic dealer's message ends in a newline of its own.
                        return Err(Error::script("Too many shapes -- only 32 allowed!\n", close.line, close.col));
                    }
                }
                Node::Shape(*seat, self.add_shape(set))
            }
            Expr::ShapeFd { seat, spec, pos } => {
                let patterns = shape_fd::expand(spec).map_err(|m| Error::script(m, pos.line, pos.col))?;
                Node::Shape(*seat, self.add_shape(ShapeSet::from_patterns(&patterns)))
            }
            Expr::HasCard(seat, card) => Node::HasCard(*seat, *card),
            Expr::Tricks(seat, strain, pos) | Expr::Dds(seat, strain, pos) => Node::Dds(*seat, *strain, *pos),
            Expr::Par(side, vulnerability, pos) => Node::Par(*side, *vulnerability, *pos),
            Expr::Opc(side, strain, pos) => Node::Opc(*side, *strain, *pos),
            Expr::UserEval { tag, who, suit, index, pos } => {
                let (side, seat) = match who {
                    SideOrSeat::Side(side) => (*side as usize, None),
                    SideOrSeat::Seat(seat) => (seat.index() & 1, Some(*seat)),
                };
                let tag = self.expr(tag)?;
                let index = self.expr(index)?;
                let form = crate::external::usereval::SlotForm { side, seat, suit: *suit };
                Node::UserEval { tag, index, form, pos: *pos }
            }
            Expr::Score { vulnerable, contract, tricks } => {
                let tricks = self.expr(tricks)?;
                Node::Score { vulnerable: *vulnerable, contract: *contract, tricks }
            }
            Expr::Imps(a) => {
                let a = self.expr(a)?;
                Node::Imps(a)
            }
            Expr::Rnd(a) => {
                let a = self.expr(a)?;
                Node::Rnd(a)
            }
        };
        Ok(self.push(node))
    }

    fn add_shape(&mut self, set: ShapeSet) -> u32 {
        if let Some(i) = self.shapes.iter().position(|s| *s == set) {
            return i as u32;
        }
        self.shapes.push(set);
        (self.shapes.len() - 1) as u32
    }

    /// Compiles one action of a list. `None`: the action cannot run in this build; the error is
    /// kept in `action_error` (reported if the list stays in force).
    fn action(&mut self, action: &Action) -> Result<Option<CompiledAction>> {
        Ok(Some(match action {
            Action::PrintAll => CompiledAction::PrintAll,
            Action::PrintEw => CompiledAction::PrintSide(Side::EW),
            Action::PrintNs => CompiledAction::PrintSide(Side::NS),
            Action::PrintSide(side) => CompiledAction::PrintSide(*side),
            Action::PrintCompact(e) => CompiledAction::PrintCompact(self.optional(e)?),
            Action::PrintOneline(e) => CompiledAction::PrintOneline(self.optional(e)?),
            Action::PrintPbn => CompiledAction::PrintPbn,
            Action::PrintEs(items) => {
                let mut parts = Vec::with_capacity(items.len());
                for item in items {
                    parts.push(match item {
                        PrintItem::Expr(e) => EsPart::Value(self.expr(e)?),
                        PrintItem::Text(t) => EsPart::Text(t.clone()),
                    });
                }
                CompiledAction::PrintEs(parts)
            }
            Action::PrintLin => CompiledAction::PrintLin,
            Action::PrintJson(items) => {
                let mut values = Vec::with_capacity(items.len());
                for (i, item) in items.iter().enumerate() {
                    values.push((json_value_name(item, i), self.expr(&item.expr)?));
                }
                CompiledAction::PrintJson(values)
            }
            Action::Print(seats) => CompiledAction::PrintPages(seats.clone()),
            Action::Average { label, expr } => {
                CompiledAction::Average { label: label.clone(), value: self.expr(expr)? }
            }
            Action::Frequency { label, expr, lo, hi, pos } => {
                let value = self.expr(expr)?;
                check_range(*lo, *hi, *pos)?;
                if actions::classic_frequency_allocation_fails(*lo, *hi) {
                    self.defer(out_of_memory());
                }
                CompiledAction::Frequency { label: label.clone(), value, lo: *lo, hi: *hi }
            }
            Action::Frequency2 { label, rows, cols, pos } => {
                let row_value = self.expr(&rows.0)?;
                let col_value = self.expr(&cols.0)?;
                check_ranges((rows.1, rows.2), (cols.1, cols.2), *pos)?;
                if actions::classic_frequency2d_allocation_fails((rows.1, rows.2), (cols.1, cols.2)) {
                    self.defer(out_of_memory());
                }
                CompiledAction::Frequency2 {
                    label: label.clone(),
                    rows: (row_value, rows.1, rows.2),
                    cols: (col_value, cols.1, cols.2),
                }
            }
            Action::BucketFrequency { label, expr, lo, hi, size, pos } => {
                let value = self.expr(expr)?;
                check_buckets(*lo, *hi, *size, *pos)?;
                CompiledAction::BucketFrequency { label: label.clone(), value, lo: *lo, hi: *hi, size: *size }
            }
            Action::BucketFrequency2 { label, rows, cols, pos } => {
                let row_value = self.expr(&rows.0)?;
                let col_value = self.expr(&cols.0)?;
                check_buckets(rows.1, rows.2, rows.3, *pos)?;
                check_buckets(cols.1, cols.2, cols.3, *pos)?;
                CompiledAction::BucketFrequency2 {
                    label: label.clone(),
                    rows: (row_value, rows.1, rows.2, rows.3),
                    cols: (col_value, cols.1, cols.2, cols.3),
                }
            }
            Action::PrintRpt(items) => CompiledAction::Report { parts: self.report(items)?, to_csv: false },
            Action::CsvRpt(items) => CompiledAction::Report { parts: self.report(items)?, to_csv: true },
            Action::Export(target) => CompiledAction::Export(*target),
            Action::EvalContract { spec: Some((side, contract, vulnerable)), .. } => {
                CompiledAction::EvalContract { side: *side, contract: *contract, vulnerable: *vulnerable }
            }
            Action::EvalContract { spec: None, pos } => {
                // Classic dealer parses a bare `evalcontract` but aborts when it runs.
                self.defer(
                    Error::new(
                        crate::error::ErrorKind::NotAvailable,
                        "evalcontract without arguments is not available: classic dealer aborts on it; \
                         use evalcontract(side, contract, vul)",
                    )
                    .at(pos.line, pos.col),
                );
                return Ok(None);
            }
        }))
    }

    /// Keeps the first post-parse error of the current action list. `Out of memory` wins over
    /// an unavailable feature: classic dealer allocates its tables before it runs any action.
    fn defer(&mut self, error: Error) {
        let replace = match &self.action_error {
            None => true,
            Some(kept) => error.message == OUT_OF_MEMORY && kept.message != OUT_OF_MEMORY,
        };
        if replace {
            self.action_error = Some(error);
        }
    }

    fn optional(&mut self, e: &Option<Expr>) -> Result<Option<NodeId>> {
        e.as_ref().map(|e| self.expr(e)).transpose()
    }

    fn report(&mut self, items: &[ReportItem]) -> Result<Vec<ReportPart>> {
        let mut parts = Vec::with_capacity(items.len());
        for item in items {
            parts.push(match item {
                ReportItem::Expr(e) => ReportPart::Value(self.expr(e)?),
                ReportItem::Text(t) => ReportPart::Text(t.clone()),
                ReportItem::Seat(seat) => ReportPart::Hands(vec![*seat]),
                ReportItem::Side(side) => ReportPart::Hands(side.seats().to_vec()),
                ReportItem::Deal => ReportPart::Hands(Seat::ALL.to_vec()),
                ReportItem::Trix(seat, _) => ReportPart::Tricks(*seat),
                ReportItem::ParContract(vulnerability, _) => ReportPart::ParContract(*vulnerability),
            });
        }
        Ok(parts)
    }
}

/// Classic dealer's message when it cannot allocate a frequency table.
const OUT_OF_MEMORY: &str = "Out of memory";

/// Classic dealer's allocation failure: printed without a line (it happens after parsing), exit
/// status 255.
/// The error for a card of a suit that a spot holding at `at` already names in full.
fn suit_fixed(seat: Seat, suit: Suit, at: Pos) -> String {
    format!(
        "{}'s {}s are given in full by its holding with x at line {}, column {}",
        seat.name(),
        suit.name(),
        at.line,
        at.col
    )
}

fn out_of_memory() -> Error {
    Error::new(crate::error::ErrorKind::Script, OUT_OF_MEMORY)
}

/// Refuses frequency tables that would not fit in memory (a limit of this library; the tables
/// classic dealer cannot allocate are found by the caller).
fn check_range(lo: i32, hi: i32, pos: Pos) -> Result<()> {
    if (hi as i64) - (lo as i64) > MAX_TABLE_VALUES {
        return Err(Error::script("frequency range too large (at most 10000000 values)", pos.line, pos.col));
    }
    Ok(())
}

/// The same for 2-D frequency tables.
fn check_ranges(rows: (i32, i32), cols: (i32, i32), pos: Pos) -> Result<()> {
    let span = |(lo, hi): (i32, i32)| ((hi as i64) - (lo as i64) + 3).max(1);
    if span(rows).saturating_mul(span(cols)) > MAX_TABLE_VALUES {
        return Err(Error::script("frequency table too large (at most 10000000 cells)", pos.line, pos.col));
    }
    Ok(())
}

/// Refuses bucket tables that cannot be built or would not fit in memory.
fn check_buckets(lo: i32, hi: i32, size: i32, pos: Pos) -> Result<()> {
    BucketFrequency1D::new(lo, hi, size).map_err(|e| Error::script(e.to_string(), pos.line, pos.col))?;
    if ((hi as i64) - (lo as i64)) / size as i64 > MAX_TABLE_VALUES {
        return Err(Error::script("bktfreq range too large", pos.line, pos.col));
    }
    Ok(())
}

/// The largest number of values or cells a frequency table may have.
const MAX_TABLE_VALUES: i64 = 10_000_000;

/// Whether an action counts as printing for the default `produce`: the per-deal printers, as
/// both peers list them (statistics, `export` and `evalcontract` do not count).
fn is_printing_action(action: &Action) -> bool {
    !matches!(
        action,
        Action::Average { .. }
            | Action::Frequency { .. }
            | Action::Frequency2 { .. }
            | Action::BucketFrequency { .. }
            | Action::BucketFrequency2 { .. }
            | Action::Export(_)
            | Action::EvalContract { .. }
    )
}

/// Most nodes an evaluated expression may expand to through its variables (real scripts reach
/// a quarter of a million; short-circuits keep their evaluation far cheaper than that).
pub const MAX_EXPANDED_NODES: u32 = 10_000_000;

/// The message for an expression too deep for the stack of the thread compiling or
/// evaluating it (see [`crate::stack`]).
pub const TOO_DEEP: &str = "expression nested too deeply for this thread's stack";

/// The position of an expression's first located token, for error messages.
fn expr_pos(mut e: &Expr) -> Pos {
    loop {
        e = match e {
            Expr::Number(_, p) | Expr::Variable(_, p) => return *p,
            Expr::Not(a) | Expr::Imps(a) | Expr::Rnd(a) => a,
            Expr::Binary(_, a, _, _) | Expr::Conditional(a, _, _) => a,
            Expr::Shape { pos, .. } | Expr::ShapeFd { pos, .. } => return *pos,
            Expr::Tricks(_, _, p) | Expr::Dds(_, _, p) | Expr::Par(_, _, p) | Expr::Opc(_, _, p) => return *p,
            Expr::UserEval { pos, .. } => return *pos,
            Expr::Score { tricks, .. } => tricks,
            _ => return Pos::default(),
        };
    }
}

/// The declarer `evalcontract` uses for a side: South for NS, West for EW.
pub fn evalcontract_declarer(side: Side) -> Seat {
    match side {
        Side::NS => Seat::South,
        Side::EW => Seat::West,
    }
}

/// The operands of a node.
fn children(node: &Node) -> Vec<NodeId> {
    match node {
        Node::Not(a) | Node::Imps(a) | Node::Rnd(a) | Node::CompareConst(_, a, _) => vec![*a],
        Node::Score { tricks, .. } => vec![*tricks],
        Node::UserEval { tag, index, .. } => vec![*tag, *index],
        Node::Binary(_, a, b, _) => vec![*a, *b],
        Node::Conditional(c, a, b) => vec![*c, *a, *b],
        _ => Vec::new(),
    }
}

/// The name a `printjson` value is written under: the one given, else the variable's name when
/// the expression is a variable, else `v` and its 1-based position (`v1`, `v2` …).
fn json_value_name(item: &JsonItem, index: usize) -> String {
    match (&item.name, &item.expr) {
        (Some(name), _) => name.clone(),
        (None, Expr::Variable(name, _)) => name.clone(),
        (None, _) => format!("v{}", index + 1),
    }
}

fn action_roots(action: &CompiledAction, roots: &mut Vec<NodeId>) {
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

#[cfg(test)]
mod tests {
    use super::Program;
    use crate::dialect::Dialect;
    use crate::script::ScriptVars;

    const NO_VARS: ScriptVars = [None, None, None, None, None, None, None, None, None, None];

    /// The error classic dealer would print for `src` (`line N: message` or the bare message).
    fn classic_error(src: &str) -> String {
        match Program::from_source(src.as_bytes(), Dialect::Classic, &NO_VARS) {
            Ok(_) => panic!("{src:?} compiled"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn semantic_errors_on_the_peers_lines() {
        for (src, want) in [
            // Reduced on the token after the construct.
            ("a = 1\nb=2\na = 3\n", "line 4: redefined variable"),
            ("a = 1\na = (3\n\n)\n\n", "line 6: redefined variable"),
            ("a=3 a\n\n=4\n\n", "line 5: redefined variable"),
            ("action printsomething\n", "line 2: unknown variable"),
            ("action printsomething", "line 1: unknown variable"),
            ("condition 1\n\nfoo\n\n+ 1\n", "line 5: unknown variable"),
            ("foo // x\n\n", "line 3: unknown variable"),
            ("foo /* x\n\n */ \n\n 3", "line 5: unknown variable"),
            // Reduced on the construct's own last token.
            ("condition foo\n\n\n> 3", "line 1: unknown variable"),
            ("x = 1 + foo\n\n", "line 1: unknown variable"),
            ("condition (foo\n\n)", "line 1: unknown variable"),
            ("a = 1\na = foo\n\n", "line 2: unknown variable"),
            ("predeal north SA\n\npredeal south SA\n\n", "line 3: Card predealt twice"),
            ("predeal north SA south\n\nSA", "line 3: Card predealt twice"),
            ("predeal north SAKQJT98765432\n, \nH\n\n,\nHA\n\n", "line 6: More than 13 cards for one player"),
            (
                "predeal spades(north)==3 spades(north)\n==\n4\n\n",
                "line 3: North's Spade suit has length already set to 3",
            ),
            ("predeal spades(north)==7 hearts(north)==\n\n7\n\n", "line 3: Suit lengths too long for North"),
            ("predeal spades(north)==7 spades(south)==\n7\n\n", "line 2: Too many Spades"),
            ("condition shape(north, 4333\n\n,\n\n 5441\n\n)", "line 5: wrong number of cards in shape"),
            ("condition shape(north, 4333 - \n77xx\n\n)\n\n", "line 2: too many cards in ambiguous shape"),
        ] {
            assert_eq!(classic_error(src), want, "{src:?}");
        }
    }

    #[test]
    fn spot_holdings_are_checked_against_the_whole_predeal() {
        for (src, want) in [
            ("predeal north SQTxx, HA, SA\n", "line 1: North already holds predealt Spades: a holding with x must name all of them"),
            ("predeal north SQTxx\npredeal north SA\n", "line 2: North's Spades are given in full by its holding with x at line 1, column 15"),
            ("predeal north SA\npredeal north Sxx\n", "line 2: North already holds predealt Spades: a holding with x must name all of them"),
            ("predeal north Sxx\n east Hx, Sxxx, Hxx", "line 2: East's Hearts are given in full by its holding with x at line 2, column 7"),
            ("predeal north SAKQJT98xxxxxxx\n", "line 1: More than 13 cards for one player"),
            (
                "predeal north Sxxxxxx\npredeal west S2\npredeal south Sxx\n",
                "line 3: Too many spot cards (x) in Spades: 8 asked for, but only 7 of the Spades 2 to 9 are not predealt",
            ),
            (
                "predeal north SQTxx\npredeal spades(north) == 5\n",
                "line 2: North's spot-card holding has 4 Spades but its length is set to 5",
            ),
            (
                "predeal spades(north) == 3\npredeal north SQTxx\n",
                "line 2: North's spot-card holding has 4 Spades but its length is set to 3",
            ),
        ] {
            assert_eq!(classic_error(src), want, "{src:?}");
        }
        let ok = Program::from_source(b"predeal north SQTxx, HJ8x spades(north)==4 south S9\n", Dialect::V2, &NO_VARS)
            .unwrap();
        let spots: Vec<_> = ok.settings.spots.iter().map(|(x, p)| (x.seat, x.suit, x.count, p.col)).collect();
        use crate::cards::{Seat, Suit};
        assert_eq!(spots, [(Seat::North, Suit::Spades, 2, 15), (Seat::North, Suit::Hearts, 1, 22)]);
        assert_eq!(ok.settings.predeal.len(), 5);
    }

    #[test]
    fn shape_clauses_are_limited_in_classic() {
        let clauses = |n: usize| format!("condition 1{}", " || shape(north, 4333)".repeat(n));
        assert!(Program::from_source(clauses(31).as_bytes(), Dialect::Classic, &NO_VARS).is_ok());
        assert_eq!(classic_error(&clauses(32)), "line 1: Too many shapes -- only 32 allowed!\n");
        // Counted where the clause closes, after its terms are checked.
        let src = format!("{}\n\n|| shape\n(north,\n4333\n\n)", clauses(31));
        assert_eq!(classic_error(&src), "line 7: Too many shapes -- only 32 allowed!\n");
        let src = format!("{}\n\n|| shape\n(north,\n5441\n\n)", clauses(31));
        assert_eq!(classic_error(&src), "line 5: wrong number of cards in shape");
        assert!(Program::from_source(clauses(40).as_bytes(), Dialect::V2, &NO_VARS).is_ok());
    }

    #[test]
    fn post_parse_errors() {
        // Classic dealer allocates frequency tables after parsing: no line, parse errors first,
        // and only for the action list in force.
        let oom = Program::from_source(b"action frequency (hcp(north), 5, 3)", Dialect::Classic, &NO_VARS).unwrap_err();
        assert_eq!((oom.to_string(), oom.line, oom.exit_code), ("Out of memory".to_string(), None, 255));
        assert_eq!(classic_error("action frequency (hcp(north), 5, 3)\ncondition foo"), "line 2: unknown variable");
        let replaced = b"action frequency (hcp(north), 5, 3)\naction printall";
        assert!(Program::from_source(replaced, Dialect::Classic, &NO_VARS).is_ok());
        assert_eq!(classic_error("action evalcontract\ncondition foo"), "line 2: unknown variable");
        assert!(Program::from_source(b"action evalcontract\naction printall", Dialect::Classic, &NO_VARS).is_ok());
        let e = Program::from_source(b"action evalcontract", Dialect::Classic, &NO_VARS).unwrap_err();
        assert_eq!(e.kind, crate::error::ErrorKind::NotAvailable);
    }

    #[test]
    fn semantic_errors_before_a_syntax_error() {
        for (src, want) in [
            ("a = 1\na = 3 )", "line 2: redefined variable"),
            ("condition shape(north, 5441 hcp", "line 1: wrong number of cards in shape"),
            ("condition 1\n\nfoo\n\n?\n\n", "line 5: unknown variable"),
            ("condition hcp(north) > foo +", "line 1: unknown variable"),
            ("predeal north SA south SA, )", "line 1: Card predealt twice"),
            ("predeal spades(north)==3 spades(north)==3 )", "line 1: North's Spade suit has length already set to 3"),
            ("condition foo /* x", "line 1: unknown variable"),
            // What the syntax error cuts short is not checked.
            ("a = 1\na = 2 +\n\n", "line 4: syntax error"),
            ("a = 1\na = 2 + )", "line 2: syntax error"),
            ("predeal spades(north)==3 spades(north)==", "line 1: syntax error"),
            ("foo\n\n=", "line 3: syntax error"),
            // The lexer fails before the look-ahead is read.
            ("a = 1\na = 3 /* x", "line 2: EOF found in comment"),
            ("condition 1\nfoo /* x", "line 2: EOF found in comment"),
        ] {
            assert_eq!(classic_error(src), want, "{src:?}");
        }
    }

    #[test]
    fn default_produce_follows_each_peers_printing_rule() {
        let prints = |src: &str, dialect| Program::from_source(src.as_bytes(), dialect, &NO_VARS).unwrap().prints_deals;
        for dialect in [Dialect::Classic, Dialect::V2] {
            assert!(prints("condition 1\n", dialect), "no action statement: printall");
            assert!(prints("action printoneline, average hcp(north)\n", dialect));
            assert!(!prints("action average hcp(north), frequency (hcp(north), 0, 40)\n", dialect));
        }
        assert!(!prints("action export(NS)\n", Dialect::V2));
        // Classic accumulates over replaced action lists; DealerV2 looks at the last one.
        let replaced = "action printall\naction average hcp(north)\n";
        assert!(prints(replaced, Dialect::Classic));
        assert!(!prints(replaced, Dialect::V2));
    }

    #[test]
    fn seats_read_by_the_condition_and_the_actions() {
        use crate::cards::SeatSet;
        let seats = |src: &str| {
            let program = Program::from_source(src.as_bytes(), Dialect::V2, &NO_VARS).unwrap();
            (program.condition_seats(), program.action_seats())
        };
        let (north, north_south) = (SeatSet(0b0001), SeatSet(0b0101));
        assert_eq!(
            seats("fit = hearts(north) + hearts(south)\ncondition hcp(north) > 9\naction average fit, frequency (spades(north), 0, 13)\n"),
            (north, north_south)
        );
        assert_eq!(
            seats("condition shape(south, 5xxx) && hcp(north) > 9\naction average rnd(3)\n"),
            (north_south, SeatSet::NONE)
        );
        // Printing, solving or reading a whole deal: all four hands.
        for actions in
            ["printoneline", "average hcp(north), printpbn", "average tricks(north, spades)", "printes(hcp(west))"]
        {
            assert_eq!(seats(&format!("condition hcp(north) > 9\naction {actions}\n")).1, SeatSet::ALL, "{actions}");
        }
        assert_eq!(seats("condition dds(north, notrump) > 8\n").0, SeatSet::ALL);
        assert_eq!(seats("action average hcp(east)\n"), (SeatSet::NONE, SeatSet(0b0010)));
    }
}
