//! Checking and compiling a parsed script into a [`Program`]: its statements in textual order,
//! each expression into the node array, each action into a [`CompiledAction`], the predeal
//! into the settings.
//!
//! Variables are resolved here, in textual order as the peers do: a use before the definition is
//! `unknown variable` (its full form names it and suggests the nearest known name, see
//! [`suggestion`]), a second definition `redefined variable`. A variable's nodes are shared by
//! every use and re-evaluated at each use, so `rnd()` inside a variable behaves as in the peers.
//!
//! Checks run in the order the peers' parsers make them (a construct's parts before the construct,
//! constructs in textual order), at the positions the syntax tree records for them, so the first
//! error is the one the peers report, on the same line. Errors the peers only meet after parsing
//! (classic dealer's `Out of memory` for a frequency table; here also the actions this build
//! cannot run) are reported after every statement has been checked, and only for the action list
//! that is finally in force.

use std::collections::HashMap;

use crate::cards::{Seat, Side, Suit};
use crate::dealing::{SpotCards, SPOT_RANKS};
use crate::dialect::Dialect;
use crate::error::{Error, ErrorKind, Result};
use crate::program::compiled_action::{action_roots, CompiledAction, EsPart, LeadStudy, ReportPart};
use crate::program::compiled_program::Program;
use crate::program::hand_stats::{CountTables, HCP_TABLE};
use crate::program::nodes::{children, Node, NodeId, TOO_DEEP};
use crate::program::settings::ScriptSettings;
use crate::program::shape::ShapeSet;
use crate::program::shape_fd;
use crate::program::table_limits::{
    check_buckets, check_range, check_ranges, classic_frequency2d_allocation_fails, classic_frequency_allocation_fails,
    out_of_memory, OUT_OF_MEMORY,
};
use crate::script;
use crate::script::ast::{
    Action, BinOp, CountTable, Expr, JsonItem, ParsedScript, Pos, PredealItem, PrintItem, ReportItem, SideOrSeat,
    Statement,
};
use crate::script::suggestion;

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
        program.calls = Vec::new();
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
            calls: script.calls.clone(),
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

    /// The node of the variable `name`, if the script defines it.
    pub fn variable(&self, name: &str) -> Option<NodeId> {
        self.variables.get(name).copied()
    }

    /// A copy of this program whose condition is its own `&&` `extra` (`extra` alone when it
    /// has none), as if the script's condition ended so: the program deals the deals of one
    /// hand type (see [`crate::practice`]).
    pub fn with_condition_and(&self, extra: NodeId) -> Program {
        let mut program = self.clone();
        program.condition = Some(match self.condition {
            Some(condition) => program.push(Node::Binary(BinOp::And, condition, extra, Pos::default())),
            None => extra,
        });
        program.script_size = (program.nodes.len(), program.shapes.len());
        program
    }

    /// One more node: how many of the nodes `ids` are true (non-zero).
    pub fn count_true(&mut self, ids: &[NodeId]) -> NodeId {
        let mut total = self.push(Node::Const(0));
        for &id in ids {
            let truth = self.push(Node::CompareConst(BinOp::Ne, id, 0));
            total = self.push(Node::Binary(BinOp::Add, total, truth, Pos::default()));
        }
        self.script_size = (self.nodes.len(), self.shapes.len());
        total
    }

    /// One more node: whether `id` compares with the constant `value` by `op` (`==`, `>=` …).
    pub fn compare(&mut self, op: BinOp, id: NodeId, value: i32) -> NodeId {
        let node = self.push(Node::CompareConst(op, id, value));
        self.script_size = (self.nodes.len(), self.shapes.len());
        node
    }

    /// Drops every expression compiled with [`compile_extra_expression`](Self::compile_extra_expression)
    /// (their node ids become invalid), so that evaluating ever new expressions stays bounded in memory.
    pub fn forget_extra_expressions(&mut self) {
        let (nodes, shapes) = self.script_size;
        self.nodes.truncate(nodes);
        self.expanded.truncate(nodes);
        self.shapes.truncate(shapes);
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
                        format!("altcount table {index} out of range (0..10)"),
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
                return self.variables.get(name).copied().ok_or_else(|| {
                    let explanation = if self.calls.iter().any(|call| call.is_of(name, *pos)) {
                        suggestion::unknown_function(name, self.dialect)
                    } else {
                        suggestion::unknown_variable(name, self.dialect, self.variables.keys().map(String::as_str))
                    };
                    Error::script("unknown variable", pos.line, pos.col).explained(explanation)
                });
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
                let comparison = matches!(op, BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge);
                match (&self.nodes[a as usize], &self.nodes[b as usize]) {
                    (_, Node::Const(k)) if comparison => Node::CompareConst(*op, a, *k),
                    // `9 <= x` is `x >= 9` (a constant has nothing to evaluate first).
                    (Node::Const(k), _) if comparison => Node::CompareConst(mirrored(*op), b, *k),
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
                if classic_frequency_allocation_fails(*lo, *hi) {
                    self.defer(out_of_memory());
                }
                CompiledAction::Frequency { label: label.clone(), value, lo: *lo, hi: *hi }
            }
            Action::Frequency2 { label, rows, cols, pos } => {
                let row_value = self.expr(&rows.0)?;
                let col_value = self.expr(&cols.0)?;
                check_ranges((rows.1, rows.2), (cols.1, cols.2), *pos)?;
                if classic_frequency2d_allocation_fails((rows.1, rows.2), (cols.1, cols.2)) {
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
            Action::Leads { leader, strain, needed, vulnerable, pos } => {
                let needed = u8::try_from(*needed).ok().filter(|n| (7..=13).contains(n)).ok_or_else(|| {
                    Error::script(
                        format!("leads: declarer needs 7 to 13 tricks (a contract of one to seven), not {needed}"),
                        pos.line,
                        pos.col,
                    )
                })?;
                CompiledAction::Leads(LeadStudy {
                    leader: *leader,
                    strain: *strain,
                    needed,
                    vulnerable: *vulnerable,
                    pos: *pos,
                })
            }
            Action::EvalContract { spec: None, pos } => {
                // Classic dealer parses a bare `evalcontract` but aborts when it runs.
                self.defer(
                    Error::new(
                        crate::error::ErrorKind::NotAvailable,
                        "evalcontract without arguments is not available: use evalcontract(side, contract, vul) \
                         (classic dealer aborts on a bare evalcontract)",
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

/// Whether an action counts as printing for the default `produce`: the per-deal printers, as
/// both peers list them (statistics, `export`, `evalcontract` and `leads` do not count).
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
            | Action::Leads { .. }
    )
}

/// Most nodes an evaluated expression may expand to through its variables (real scripts reach
/// a quarter of a million; short-circuits keep their evaluation far cheaper than that).
pub const MAX_EXPANDED_NODES: u32 = 10_000_000;

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

/// the expression is a variable, else `v` and its 1-based position (`v1`, `v2` …).
fn json_value_name(item: &JsonItem, index: usize) -> String {
    match (&item.name, &item.expr) {
        (Some(name), _) => name.clone(),
        (None, Expr::Variable(name, _)) => name.clone(),
        (None, _) => format!("v{}", index + 1),
    }
}

/// The comparison that holds of `y op' x` exactly when `x op y` holds.
fn mirrored(op: BinOp) -> BinOp {
    match op {
        BinOp::Lt => BinOp::Gt,
        BinOp::Le => BinOp::Ge,
        BinOp::Gt => BinOp::Lt,
        BinOp::Ge => BinOp::Le,
        other => other,
    }
}
