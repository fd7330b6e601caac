//! Checking and compiling a parsed script into what runs: a flat array of expression nodes (the
//! condition, variables and action arguments all point into it), the shape tables, the count
//! tables, the compiled action list and the script's settings.
//!
//! Variables are resolved here, in textual order as the peers do: a use before the definition is
//! `unknown variable`, a second definition `redefined variable`. A variable's nodes are shared by
//! every use and re-evaluated at each use, so `rnd()` inside a variable behaves as in the peers.

use std::collections::HashMap;

use crate::actions::{self, BucketFrequency1D};
use crate::analysis::{CountTables, HCP_TABLE};
use crate::cards::{Card, Seat, Side, Suit};
use crate::dialect::Dialect;
use crate::error::{Error, Result};
use crate::script::ast::{
    Action, BinOp, Contract, CountTable, Expr, ExportTarget, ParsedScript, Pos, PredealItem,
    PrintItem, ReportItem, Statement, Vulnerability,
};
use crate::script::shape_fd;
use crate::shape::ShapeSet;

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
    Count { table: u8, seat: Seat, suit: Option<Suit> },
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
    /// `c ? a : b`.
    Conditional(NodeId, NodeId, NodeId),
    /// Bridge score of a contract for a number of tricks.
    Score { vulnerable: bool, contract: Contract, tricks: NodeId },
    /// IMPs of a score difference.
    Imps(NodeId),
    /// `rnd(n)`.
    Rnd(NodeId),
    /// A function this build cannot evaluate yet; evaluating it stops the run.
    Unavailable { feature: &'static str, pos: Pos },
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
    /// `print(seats…)` at the end of the run.
    PrintPages(Vec<Seat>),
    /// `average`.
    Average { label: Option<String>, value: NodeId },
    /// 1-D `frequency`.
    Frequency { label: Option<String>, value: NodeId, lo: i32, hi: i32 },
    /// 2-D `frequency`.
    Frequency2 { label: Option<String>, rows: (NodeId, i32, i32), cols: (NodeId, i32, i32) },
    /// 1-D `bktfreq`.
    BucketFrequency { label: Option<String>, value: NodeId, lo: i32, hi: i32, size: i32 },
    /// 2-D `bktfreq`.
    BucketFrequency2 {
        label: Option<String>,
        rows: (NodeId, i32, i32, i32),
        cols: (NodeId, i32, i32, i32),
    },
    /// `printrpt` (to stdout) or `csvrpt` (`to_csv`: to the csv sink).
    Report { parts: Vec<ReportPart>, to_csv: bool },
    /// `export(…)`.
    Export(ExportTarget),
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
    /// Whether any bias item was given.
    pub has_bias: bool,
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
    /// Whether the script had an `action` statement at all.
    pub has_action_statement: bool,
    /// Whether any action statement, even a replaced one, had a printing action (classic's
    /// `will_print`) — the default `produce` depends on it.
    pub any_print_action_seen: bool,
    /// Shape sets referenced by [`Node::Shape`].
    pub shapes: Vec<ShapeSet>,
    /// Count tables after `pointcount`/`altcount`.
    pub counts: CountTables,
    /// Environment settings.
    pub settings: ScriptSettings,
    /// Text the peers echo at parse time.
    pub echo: String,
    /// Variables by name.
    variables: HashMap<String, NodeId>,
}

impl Program {
    /// Compiles a parsed script.
    pub fn compile(script: &ParsedScript, dialect: Dialect) -> Result<Program> {
        let mut program = Program {
            dialect,
            nodes: Vec::new(),
            condition: None,
            actions: vec![CompiledAction::PrintAll],
            has_action_statement: false,
            any_print_action_seen: false,
            shapes: Vec::new(),
            counts: CountTables::new(),
            settings: ScriptSettings { bias: [[-1; 4]; 4], ..ScriptSettings::default() },
            echo: script.echo.clone(),
            variables: HashMap::new(),
        };
        for statement in &script.statements {
            program.statement(statement)?;
        }
        Ok(program)
    }

    /// Compiles one more expression against this program's variables (for `dealer_eval`).
    pub fn compile_extra_expression(&mut self, expr: &Expr) -> Result<NodeId> {
        self.expr(expr)
    }

    /// The first feature this program needs at run time that the build does not provide.
    pub fn first_unavailable(&self) -> Option<(&'static str, Pos)> {
        let mut roots: Vec<NodeId> = self.condition.into_iter().collect();
        for action in &self.actions {
            action_roots(action, &mut roots);
        }
        let mut seen = vec![false; self.nodes.len()];
        while let Some(id) = roots.pop() {
            if std::mem::replace(&mut seen[id as usize], true) {
                continue;
            }
            match &self.nodes[id as usize] {
                Node::Unavailable { feature, pos } => return Some((feature, *pos)),
                Node::Not(a) | Node::Imps(a) | Node::Rnd(a) => roots.push(*a),
                Node::Score { tricks, .. } => roots.push(*tricks),
                Node::Binary(_, a, b, _) => roots.extend([*a, *b]),
                Node::Conditional(c, a, b) => roots.extend([*c, *a, *b]),
                _ => {}
            }
        }
        None
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
            Statement::Pointcount(values, pos) => self
                .counts
                .set_from_ace(HCP_TABLE, values)
                .map_err(|m| Error::script(m, pos.line, pos.col))?,
            Statement::Altcount(index, values, pos) => {
                if !(0..=10).contains(index) {
                    return Err(Error::script(
                        format!("altcount table {index} out of range (0..9)"),
                        pos.line,
                        pos.col,
                    ));
                }
                self.counts
                    .set_from_ace(*index as usize, values)
                    .map_err(|m| Error::script(m, pos.line, pos.col))?
            }
            Statement::Condition(expr) => {
                let id = self.expr(expr)?;
                self.condition = Some(id);
            }
            Statement::Define(name, expr, pos) => {
                if self.variables.contains_key(name) {
                    return Err(Error::script("redefined variable", pos.line, pos.col));
                }
                let id = self.expr(expr)?;
                self.variables.insert(name.clone(), id);
            }
            Statement::Action(list, _) => {
                let mut actions = Vec::with_capacity(list.len());
                for action in list {
                    if is_printing_action(action) {
                        self.any_print_action_seen = true;
                    }
                    actions.push(self.action(action)?);
                }
                self.actions = actions;
                self.has_action_statement = true;
            }
        }
        Ok(())
    }

    fn predeal(&mut self, item: &PredealItem) -> Result<()> {
        let s = &mut self.settings;
        match item {
            PredealItem::Cards { seat, cards, pos } => {
                for card in cards {
                    if s.predeal.iter().any(|(_, c)| c == card) {
                        return Err(Error::script("Card predealt twice", pos.line, pos.col));
                    }
                    if s.predeal.iter().filter(|(p, _)| p == seat).count() >= 13 {
                        return Err(Error::script("More than 13 cards for one player", pos.line, pos.col));
                    }
                    s.predeal.push((*seat, *card));
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
                let suit_total: i32 =
                    (0..4).map(|h| s.bias[h][suit.index()].max(0) as i32).sum::<i32>() + length;
                if suit_total > 13 {
                    return Err(err(format!("Too many {}s", suit.name())));
                }
                s.bias[seat.index()][suit.index()] = length as i8;
                s.has_bias = true;
            }
        }
        Ok(())
    }

    fn push(&mut self, node: Node) -> NodeId {
        self.nodes.push(node);
        (self.nodes.len() - 1) as NodeId
    }

    fn expr(&mut self, expr: &Expr) -> Result<NodeId> {
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
            Expr::Binary(op, a, b) => {
                let pos = expr_pos(b);
                let a = self.expr(a)?;
                let b = self.expr(b)?;
                Node::Binary(*op, a, b, pos)
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
            Expr::Shape { seat, terms, pos } => {
                let set = ShapeSet::from_terms(terms).map_err(|m| Error::script(m, pos.line, pos.col))?;
                Node::Shape(*seat, self.add_shape(set))
            }
            Expr::ShapeFd { seat, spec, pos } => {
                let patterns = shape_fd::expand(spec).map_err(|m| Error::script(m, pos.line, pos.col))?;
                Node::Shape(*seat, self.add_shape(ShapeSet::from_patterns(&patterns)))
            }
            Expr::HasCard(seat, card) => Node::HasCard(*seat, *card),
            Expr::Tricks(_, _, pos) => unavailable("tricks()", *pos),
            Expr::Dds(_, _, pos) => unavailable("dds()", *pos),
            Expr::Par(_, _, pos) => unavailable("par()", *pos),
            Expr::Opc(_, _, pos) => unavailable("opc()", *pos),
            Expr::UserEval { pos, .. } => unavailable("usereval()", *pos),
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

    fn action(&mut self, action: &Action) -> Result<CompiledAction> {
        Ok(match action {
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
            Action::Print(seats) => CompiledAction::PrintPages(seats.clone()),
            Action::Average { label, expr } => {
                CompiledAction::Average { label: label.clone(), value: self.expr(expr)? }
            }
            Action::Frequency { label, expr, lo, hi, pos } => {
                check_range(*lo, *hi, *pos)?;
                CompiledAction::Frequency { label: label.clone(), value: self.expr(expr)?, lo: *lo, hi: *hi }
            }
            Action::Frequency2 { label, rows, cols, pos } => {
                check_ranges((rows.1, rows.2), (cols.1, cols.2), *pos)?;
                CompiledAction::Frequency2 {
                    label: label.clone(),
                    rows: (self.expr(&rows.0)?, rows.1, rows.2),
                    cols: (self.expr(&cols.0)?, cols.1, cols.2),
                }
            }
            Action::BucketFrequency { label, expr, lo, hi, size, pos } => {
                check_buckets(*lo, *hi, *size, *pos)?;
                CompiledAction::BucketFrequency {
                    label: label.clone(),
                    value: self.expr(expr)?,
                    lo: *lo,
                    hi: *hi,
                    size: *size,
                }
            }
            Action::BucketFrequency2 { label, rows, cols, pos } => {
                check_buckets(rows.1, rows.2, rows.3, *pos)?;
                check_buckets(cols.1, cols.2, cols.3, *pos)?;
                CompiledAction::BucketFrequency2 {
                    label: label.clone(),
                    rows: (self.expr(&rows.0)?, rows.1, rows.2, rows.3),
                    cols: (self.expr(&cols.0)?, cols.1, cols.2, cols.3),
                }
            }
            Action::PrintRpt(items) => CompiledAction::Report { parts: self.report(items)?, to_csv: false },
            Action::CsvRpt(items) => CompiledAction::Report { parts: self.report(items)?, to_csv: true },
            Action::Export(target) => CompiledAction::Export(*target),
            Action::EvalContract { pos, .. } => {
                return Err(not_available("evalcontract", *pos));
            }
        })
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
                ReportItem::Trix(_, pos) => return Err(not_available("trix", *pos)),
                ReportItem::ParContract(_, pos) => return Err(not_available("parcontract", *pos)),
            });
        }
        Ok(parts)
    }
}

/// The error for a feature that parses but cannot run in this build.
pub fn not_available(feature: &str, pos: Pos) -> Error {
    Error::new(
        crate::error::ErrorKind::NotAvailable,
        format!("{feature} is not available yet: double-dummy analysis, usereval and opc come in a later release"),
    )
    .at(pos.line, pos.col)
}

fn unavailable(feature: &'static str, pos: Pos) -> Node {
    Node::Unavailable { feature, pos }
}

/// Refuses frequency tables the peers cannot build (classic: `Out of memory`) or that would
/// not fit in memory.
fn check_range(lo: i32, hi: i32, pos: Pos) -> Result<()> {
    if (hi as i64) - (lo as i64) > MAX_TABLE_VALUES {
        return Err(Error::script("frequency range too large (at most 10000000 values)", pos.line, pos.col));
    }
    if actions::classic_frequency_allocation_fails(lo, hi) {
        return Err(Error::new(crate::error::ErrorKind::Script, "Out of memory").at(pos.line, pos.col));
    }
    Ok(())
}

/// The same for 2-D frequency tables.
fn check_ranges(rows: (i32, i32), cols: (i32, i32), pos: Pos) -> Result<()> {
    let span = |(lo, hi): (i32, i32)| ((hi as i64) - (lo as i64) + 3).max(1);
    if span(rows).saturating_mul(span(cols)) > MAX_TABLE_VALUES {
        return Err(Error::script("frequency table too large (at most 10000000 cells)", pos.line, pos.col));
    }
    if actions::classic_frequency2d_allocation_fails(rows, cols) {
        return Err(Error::new(crate::error::ErrorKind::Script, "Out of memory").at(pos.line, pos.col));
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

/// Whether an action counts as printing for the default `produce` (either peer's list).
fn is_printing_action(action: &Action) -> bool {
    !matches!(
        action,
        Action::Average { .. }
            | Action::Frequency { .. }
            | Action::Frequency2 { .. }
            | Action::BucketFrequency { .. }
            | Action::BucketFrequency2 { .. }
            | Action::Export(_)
    ) && !(matches!(action, Action::EvalContract { .. }))
}

/// The position of an expression's first located token, for error messages.
fn expr_pos(e: &Expr) -> Pos {
    match e {
        Expr::Number(_, p) | Expr::Variable(_, p) => *p,
        Expr::Not(a) | Expr::Imps(a) | Expr::Rnd(a) => expr_pos(a),
        Expr::Binary(_, a, _) | Expr::Conditional(a, _, _) => expr_pos(a),
        Expr::Shape { pos, .. } | Expr::ShapeFd { pos, .. } => *pos,
        Expr::Tricks(_, _, p) | Expr::Dds(_, _, p) | Expr::Par(_, _, p) | Expr::Opc(_, _, p) => *p,
        Expr::UserEval { pos, .. } => *pos,
        Expr::Score { tricks, .. } => expr_pos(tricks),
        _ => Pos::default(),
    }
}

fn action_roots(action: &CompiledAction, roots: &mut Vec<NodeId>) {
    match action {
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
