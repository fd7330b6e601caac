//! The syntax tree of a dealer script, as written: the contract between the parser (which builds
//! it) and `program` (which checks and compiles it). Every node that can be the subject of a later
//! error carries a [`Pos`]: where the peers report that error.
//!
//! The peers check a construct when their Bison parser reduces its rule. Some rules are reduced
//! as soon as their last token is read, others only after one more token of look-ahead, and the
//! peers print the line their lexer has reached at that moment. So the line of an error position
//! is either the line of the construct's last token or that of the token after it; its column
//! is that of one of the construct's own tokens, for richer diagnostics (each node says which).

use crate::cards::{Card, Seat, Side, Strain, Suit};

pub use crate::pos::Pos;

/// A whole script: its statements in textual order, plus text the peers' lexers echo to stdout
/// while reading (see [`ParsedScript::echo`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ParsedScript {
    /// Statements in textual order.
    pub statements: Vec<Statement>,
    /// Characters that the peers' lexers echo to standard output at parse time (the `< > E O F`
    /// characters inside `/* */` comments, stray text in `title`/`seed` statements), in order.
    /// They are printed before any deal.
    pub echo: String,
    /// Whether the word `usereval` appeared anywhere (DealerV2 starts its server on sight).
    pub mentions_usereval: bool,
    /// The identifiers followed by `(`, in textual order (see [`Call`]).
    pub calls: Vec<Call>,
}

/// An identifier followed by `(`: a call of a function that the dialect does not have, unless
/// the name is a variable's. The peers report an unknown one as an `unknown variable` (the `(`
/// starts another statement or is a syntax error), which the full form of the error calls an
/// unknown function.
#[derive(Clone, Debug, PartialEq)]
pub struct Call {
    /// The name, as written.
    pub name: String,
    /// Where the name starts.
    pub pos: Pos,
    /// The line of the `(`.
    pub paren_line: u32,
}

impl Call {
    /// Whether the variable reference `name` at `pos` (see [`Expr::Variable`]: the line is the
    /// next token's when the name starts a statement) is this call's name.
    pub fn is_of(&self, name: &str, pos: Pos) -> bool {
        self.name == name && pos.col == self.pos.col && (pos.line == self.pos.line || pos.line == self.paren_line)
    }
}

/// One top-level statement.
#[derive(Clone, Debug, PartialEq)]
pub enum Statement {
    /// `generate N`.
    Generate(i64, Pos),
    /// `produce N`.
    Produce(i64, Pos),
    /// `seed N` (DealerV2). The value is the text's number saturated to `i64`.
    Seed(i64, Pos),
    /// `title "text"` (DealerV2).
    Title(String, Pos),
    /// `dealer COMPASS` (PBN `[Dealer]`).
    Dealer(Seat, Pos),
    /// `vulnerable …` (PBN `[Vulnerable]`).
    Vulnerable(Vulnerability, Pos),
    /// `startboard N` (DealerV2).
    Startboard(i64, Pos),
    /// `opener COMPASS` (DealerV2; effectively ignored by it).
    Opener(Seat, Pos),
    /// `predeal …`: card holdings and bias (suit-length) items, in textual order.
    Predeal(Vec<PredealItem>),
    /// `pointcount v1 v2 …` (values for A, K, Q, … downwards; dotnums already ×100).
    Pointcount(Vec<i32>, Pos),
    /// `altcount N v1 v2 …`.
    Altcount(i32, Vec<i32>, Pos),
    /// `condition EXPR`, or a bare expression statement, with where the statement starts.
    Condition(Expr, Pos),
    /// `IDENT = EXPR`. The position is where `redefined variable` is reported: the line of the
    /// token after the expression (the peers reduce the definition on that look-ahead), the
    /// column of the name.
    Define(String, Expr, Pos),
    /// `action a1, a2, …` (possibly empty).
    Action(Vec<Action>, Pos),
}

/// Vulnerability as written in `vulnerable`, `par` and `parcontract`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Vulnerability {
    /// Nobody vulnerable.
    None,
    /// North–South vulnerable.
    NS,
    /// East–West vulnerable.
    EW,
    /// Both sides vulnerable.
    All,
}

/// The `x`s of a predeal holding such as `SQTxx`: `count` cards of `suit` below the ten that no
/// predeal names. The holding names the seat's whole suit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpotHolding {
    /// The holding's suit.
    pub suit: Suit,
    /// How many `x`s (at least 1).
    pub count: u8,
    /// Where the holding stands (its suit letter).
    pub pos: Pos,
}

/// One item of a `predeal` statement.
#[derive(Clone, Debug, PartialEq)]
pub enum PredealItem {
    /// `COMPASS HOLDING, HOLDING…`: the cards in textual order, each with the position of the
    /// holding it was written in (the peers check every holding as they read it: that is where
    /// `Card predealt twice` and `More than 13 cards for one player` are reported). `pos` is the
    /// compass word.
    Cards {
        /// The seat that receives the cards.
        seat: Seat,
        /// The cards, each with the position of its holding.
        cards: Vec<(Card, Pos)>,
        /// The spot-card (`x`) parts of its holdings (libdealer's own), in textual order; a
        /// holding's named cards are those of `cards` with its position.
        spots: Vec<SpotHolding>,
        /// Where it stands in the script.
        pos: Pos,
    },
    /// `SUIT(COMPASS) == N`: bias predeal of a suit length. `pos` is where its errors are
    /// reported: the line of the number `N`, the column of the suit word.
    SuitLength {
        /// The seat whose hand is read.
        seat: Seat,
        /// The suit.
        suit: Suit,
        /// The required suit length.
        length: i32,
        /// Where it stands in the script.
        pos: Pos,
    },
}

/// Binary operators. Precedence is the grammar's business; this only names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    /// `||`, `or`.
    Or,
    /// `&&`, `and`.
    And,
    /// `==`.
    Eq,
    /// `!=`.
    Ne,
    /// `<`.
    Lt,
    /// `<=`.
    Le,
    /// `>`.
    Gt,
    /// `>=`.
    Ge,
    /// `+`.
    Add,
    /// `-`.
    Sub,
    /// `*`.
    Mul,
    /// `/` (C truncation).
    Div,
    /// `%` (C remainder).
    Mod,
}

/// Which count table a point-count function reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CountTable {
    /// `hcp`.
    Hcp,
    /// `pt0`..`pt9` and their aliases (`tens` = pt0 … `c13` = pt9).
    Pt(u8),
}

/// A contract as written in `score`/`evalcontract`: `x3N`, `z4Hx`, `z6Sxx`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Contract {
    /// Level 1..=7.
    pub level: u8,
    /// Strain.
    pub strain: Strain,
    /// 0 undoubled, 1 doubled, 2 redoubled.
    pub doubled: u8,
}

/// The shape of one HvS shape term, spades first: `Some(n)` is a digit, `None` an `x`.
pub type ShapePattern = [Option<u8>; 4];

/// One term of an HvS shape list: `[+|-|,] [any] DIST`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShapeTerm {
    /// `-` (exclude) instead of `+`/`,`/nothing (include).
    pub exclude: bool,
    /// `any`: all 24 permutations of the suits.
    pub any: bool,
    /// The four lengths in S, H, D, C order.
    pub pattern: ShapePattern,
}

/// What a `usereval` call names: a side or a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SideOrSeat {
    /// `NS` / `EW`.
    Side(Side),
    /// `north` …
    Seat(Seat),
}

/// An expression. Variables are references by name, resolved by `program`.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    /// An integer literal (dotnums already ×100; `-N` literals negative).
    Number(i32, Pos),
    /// A reference to a variable defined with `IDENT = EXPR`. The position is where
    /// `unknown variable` is reported: the line of the identifier, except when it is the first
    /// token of a statement (the peers then need a look-ahead to tell it from a definition, and
    /// report the line of the token after it); the column of the identifier.
    Variable(String, Pos),
    /// `!e` / `not e`.
    Not(Box<Expr>),
    /// `a OP b`; the position is the operator's (where a run-time division by zero is reported
    /// when neither operand has a position of its own).
    Binary(BinOp, Box<Expr>, Box<Expr>, Pos),
    /// `c ? a : b`.
    Conditional(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `spades(seat)` …: a suit length.
    SuitLength(Seat, Suit),
    /// `hcp(seat[, suit])`, `pt0..pt9(seat[, suit])` and aliases.
    Count {
        /// The count table.
        table: CountTable,
        /// The seat whose hand is read.
        seat: Seat,
        /// One suit, or the whole hand when `None`.
        suit: Option<Suit>,
    },
    /// `control(s)(seat[, suit])`.
    Controls {
        /// The seat whose hand is read.
        seat: Seat,
        /// One suit, or the whole hand when `None`.
        suit: Option<Suit>,
    },
    /// `loser(s)(seat[, suit])`.
    Losers {
        /// The seat whose hand is read.
        seat: Seat,
        /// One suit, or the whole hand when `None`.
        suit: Option<Suit>,
    },
    /// `ltc(seat[, suit])` (DealerV2, ×100).
    Ltc {
        /// The seat whose hand is read.
        seat: Seat,
        /// One suit, or the whole hand when `None`.
        suit: Option<Suit>,
    },
    /// `cccc(seat)` (×100).
    Cccc(Seat),
    /// `quality(seat, suit)` (×100).
    Quality(Seat, Suit),
    /// `shape(seat, list)`: HvS terms in textual order. `pos` is the word `shape`;
    /// `term_pos[i]` is the distribution word of `terms[i]`, where errors in that term are
    /// reported; `close` is the closing parenthesis, where the peers number the clause (and
    /// report `Too many shapes`).
    Shape {
        /// The seat whose hand is read.
        seat: Seat,
        /// The HvS terms in textual order.
        terms: Vec<ShapeTerm>,
        /// Where each term's pattern stands (for shape errors).
        term_pos: Vec<Pos>,
        /// Where it stands in the script.
        pos: Pos,
        /// Where the closing parenthesis stands (classic's clause-limit error).
        close: Pos,
    },
    /// `shape{seat, spec}`: François Dellacherie's syntax; `spec` is the text after the comma, with
    /// script variables already substituted and with the characters the peers drop removed.
    ShapeFd {
        /// The seat whose hand is read.
        seat: Seat,
        /// The FD spec text (after the compass).
        spec: String,
        /// Where it stands in the script.
        pos: Pos,
    },
    /// `hascard(seat, CARD)`.
    HasCard(Seat, Card),
    /// `trick(s)(seat, strain)`: double-dummy tricks (GIB in the peers).
    Tricks(Seat, Strain, Pos),
    /// `dds(seat, strain)`.
    Dds(Seat, Strain, Pos),
    /// `par(side[, vulnerability])`.
    Par(Side, Option<Vulnerability>, Pos),
    /// `score(nv|vul, CONTRACT, tricks)`; `vulnerable` is `vul`.
    Score {
        /// Whether declarer is vulnerable.
        vulnerable: bool,
        /// The contract.
        contract: Contract,
        /// Tricks taken by declarer.
        tricks: Box<Expr>,
    },
    /// `imp(s)(e)`.
    Imps(Box<Expr>),
    /// `rnd(e)`.
    Rnd(Box<Expr>),
    /// `opc(side[, strain])`.
    Opc(Side, Option<Strain>, Pos),
    /// `usereval(tag, side|seat, [suit,] index)`.
    UserEval {
        /// The metric tag.
        tag: Box<Expr>,
        /// The side or seat the metric is asked about.
        who: SideOrSeat,
        /// One suit, or the whole hand when `None`.
        suit: Option<Suit>,
        /// The result slot.
        index: Box<Expr>,
        /// Where it stands in the script.
        pos: Pos,
    },
}

/// One item of `printes(…)`.
#[derive(Clone, Debug, PartialEq)]
pub enum PrintItem {
    /// An expression, printed with `%d`.
    Expr(Expr),
    /// A string (or the `\n` token), printed raw.
    Text(String),
}

/// One item of `printjson(…)`: an expression and the name its value is written under.
#[derive(Clone, Debug, PartialEq)]
pub struct JsonItem {
    /// The name given before the expression (`printjson("fit" spades(north) + spades(south))`).
    pub name: Option<String>,
    /// The expression.
    pub expr: Expr,
}

/// One term of a `printrpt`/`csvrpt` list.
#[derive(Clone, Debug, PartialEq)]
pub enum ReportItem {
    /// An expression, printed with `%d`.
    Expr(Expr),
    /// A string, printed in single quotes.
    Text(String),
    /// A seat's hand.
    Seat(Seat),
    /// A side's two hands.
    Side(Side),
    /// `deal`: all four hands.
    Deal,
    /// `trix(seat)` or `trix(deal)` (`None`): double-dummy tricks in C, D, H, S, NT.
    Trix(Option<Seat>, Pos),
    /// `parcontract` or `parcontract(vul)`.
    ParContract(Option<Vulnerability>, Pos),
}

/// What `export(…)` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportTarget {
    /// One seat's hand.
    Seat(Seat),
    /// Both hands of a side, on one line.
    Side(Side),
}

/// One action of an `action` list.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// `printall`.
    PrintAll,
    /// `printew`.
    PrintEw,
    /// `printns` (DealerV2).
    PrintNs,
    /// `printside(NS|EW)` (DealerV2).
    PrintSide(Side),
    /// `printcompact[(expr)]`.
    PrintCompact(Option<Expr>),
    /// `printoneline[(expr)]`.
    PrintOneline(Option<Expr>),
    /// `printpbn`.
    PrintPbn,
    /// `printes(items)`.
    PrintEs(Vec<PrintItem>),
    /// `printlin` (libdealer): one BBO LIN record per deal.
    PrintLin,
    /// `printjson[(items)]` (libdealer): one JSON Lines object per deal with the named values.
    PrintJson(Vec<JsonItem>),
    /// `print(seat, …)`, stored and printed at the end.
    Print(Vec<Seat>),
    /// `average ["label"] expr`.
    Average {
        /// The optional label.
        label: Option<String>,
        /// The expression tallied.
        expr: Expr,
    },
    /// `frequency ["label"] (expr, lo, hi)`.
    Frequency {
        /// The optional label.
        label: Option<String>,
        /// The expression tallied.
        expr: Expr,
        /// The lowest value with a row of its own.
        lo: i32,
        /// The highest value with a row of its own.
        hi: i32,
        /// Where it stands in the script.
        pos: Pos,
    },
    /// `frequency ["label"] (e1, lo1, hi1, e2, lo2, hi2)`.
    Frequency2 {
        /// The optional label.
        label: Option<String>,
        /// The row expression with its bounds (and bucket size for `bktfreq`).
        rows: (Expr, i32, i32),
        /// The column expression with its bounds (and bucket size for `bktfreq`).
        cols: (Expr, i32, i32),
        /// Where it stands in the script.
        pos: Pos,
    },
    /// `bktfreq ["label"] (expr, lo, hi, size)` (DealerV2).
    BucketFrequency {
        /// The optional label.
        label: Option<String>,
        /// The expression tallied.
        expr: Expr,
        /// The lowest value with a row of its own.
        lo: i32,
        /// The highest value with a row of its own.
        hi: i32,
        /// The bucket size.
        size: i32,
        /// Where it stands in the script.
        pos: Pos,
    },
    /// `bktfreq ["label"] (e1, lo1, hi1, sz1, e2, lo2, hi2, sz2)` (DealerV2).
    BucketFrequency2 {
        /// The optional label.
        label: Option<String>,
        /// The row expression with its bounds (and bucket size for `bktfreq`).
        rows: (Expr, i32, i32, i32),
        /// The column expression with its bounds (and bucket size for `bktfreq`).
        cols: (Expr, i32, i32, i32),
        /// Where it stands in the script.
        pos: Pos,
    },
    /// `printrpt(items)` (to stdout).
    PrintRpt(Vec<ReportItem>),
    /// `csvrpt(items)` (to the `-C` file, or stdout).
    CsvRpt(Vec<ReportItem>),
    /// `export(side|seat)` (to the `-X` file, or stdout).
    Export(ExportTarget),
    /// `leads(seat, strain, tricks[, nv|vul])` (libdealer): the opening-lead table of `seat`
    /// against the contract of `tricks` tricks in `strain` by its right-hand opponent.
    Leads {
        /// The opening leader.
        leader: Seat,
        /// The contract's strain.
        strain: Strain,
        /// The tricks declarer needs (as written; checked when compiled).
        needed: i32,
        /// Whether declarer is vulnerable, when given.
        vulnerable: Option<bool>,
        /// Where it stands in the script.
        pos: Pos,
    },
    /// `evalcontract(side, CONTRACT, nv|vul)` (DealerV2) or bare `evalcontract` (classic).
    EvalContract {
        /// Side, contract and vulnerability (DealerV2); `None` for classic's bare keyword.
        spec: Option<(Side, Contract, bool)>,
        /// Where it stands in the script.
        pos: Pos,
    },
}

impl Expr {
    /// The boxed operands of this node.
    fn operands_mut(&mut self) -> impl Iterator<Item = &mut Box<Expr>> {
        let (a, b, c) = match self {
            Expr::Not(a) | Expr::Imps(a) | Expr::Rnd(a) | Expr::Score { tricks: a, .. } => (Some(a), None, None),
            Expr::Binary(_, a, b, _) | Expr::UserEval { tag: a, index: b, .. } => (Some(a), Some(b), None),
            Expr::Conditional(a, b, c) => (Some(a), Some(b), Some(c)),
            _ => (None, None, None),
        };
        a.into_iter().chain(b).chain(c)
    }
}

/// Trees are dropped with a list instead of recursion, so that a tree as deep as the parser
/// allows (10,000 levels) is freed on any thread's stack.
impl Drop for Expr {
    fn drop(&mut self) {
        /// Moves the operands of `node` that have operands themselves to `deep`.
        fn detach(node: &mut Expr, deep: &mut Vec<Expr>) {
            for operand in node.operands_mut() {
                if operand.operands_mut().next().is_some() {
                    deep.push(std::mem::replace(&mut **operand, Expr::Number(0, Pos::default())));
                }
            }
        }
        let mut deep: Vec<Expr> = Vec::new();
        detach(self, &mut deep);
        while let Some(mut node) = deep.pop() {
            // `node`'s operands become leaves here, so dropping it does not recurse.
            detach(&mut node, &mut deep);
        }
    }
}
