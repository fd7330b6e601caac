//! Tests of the parser: statements, expressions and actions of both dialects, error lines,
//! script variables, recovery of garbage, and the shared example scripts.

use super::ast::*;
use super::{parse, Diagnostic, ScriptVars};
use crate::cards::{Card, Seat, Side, Strain, Suit};
use crate::dialect::Dialect;

const NO_VARS: ScriptVars = [None, None, None, None, None, None, None, None, None, None];

fn v2(src: &str) -> ParsedScript {
    parse(src.as_bytes(), Dialect::V2, &NO_VARS).unwrap_or_else(|e| panic!("{src:?}: {e}"))
}

fn classic(src: &str) -> ParsedScript {
    parse(src.as_bytes(), Dialect::Classic, &NO_VARS).unwrap_or_else(|e| panic!("{src:?}: {e}"))
}

fn error(src: &str, dialect: Dialect) -> (u32, String) {
    match parse(src.as_bytes(), dialect, &NO_VARS) {
        Ok(p) => panic!("{src:?} parsed: {p:?}"),
        Err(Diagnostic { line, message, .. }) => (line, message),
    }
}

/// The full-form explanation of a script's error (`None`: the peers' message says it all).
fn explanation(src: &str, dialect: Dialect) -> Option<String> {
    let error = parse(src.as_bytes(), dialect, &NO_VARS).expect_err(src);
    assert_eq!(error.message, "syntax error", "{src:?}");
    error.explanation
}

/// The expression of the only `condition` in a script.
fn condition(script: ParsedScript) -> Expr {
    let conditions: Vec<_> = script
        .statements
        .into_iter()
        .filter_map(|s| match s {
            Statement::Condition(e, _) => Some(e),
            _ => None,
        })
        .collect();
    assert_eq!(conditions.len(), 1, "{conditions:?}");
    conditions.into_iter().next().unwrap()
}

/// A compact rendering of an expression: numbers, variables, fully parenthesised operators.
fn show(e: &Expr) -> String {
    let op = |o: &BinOp| match o {
        BinOp::Or => "||",
        BinOp::And => "&&",
        BinOp::Eq => "==",
        BinOp::Ne => "!=",
        BinOp::Lt => "<",
        BinOp::Le => "<=",
        BinOp::Gt => ">",
        BinOp::Ge => ">=",
        BinOp::Add => "+",
        BinOp::Sub => "-",
        BinOp::Mul => "*",
        BinOp::Div => "/",
        BinOp::Mod => "%",
    };
    match e {
        Expr::Number(n, _) => n.to_string(),
        Expr::Variable(v, _) => v.clone(),
        Expr::Not(e) => format!("!{}", show(e)),
        Expr::Binary(o, a, b, _) => format!("({} {} {})", show(a), op(o), show(b)),
        Expr::Conditional(c, a, b) => format!("({} ? {} : {})", show(c), show(a), show(b)),
        other => format!("{other:?}"),
    }
}

fn shown(src: &str, dialect: Dialect) -> String {
    let script = parse(format!("condition {src}").as_bytes(), dialect, &NO_VARS).unwrap();
    show(&condition(script))
}

const fn pos(line: u32, col: u32) -> Pos {
    Pos { line, col }
}

#[test]
fn precedence_differs_by_dialect() {
    use Dialect::{Classic, V2};
    let n = |v| Box::new(Expr::Number(v, Pos::default()));
    let strip = |e: Expr| show(&e);
    let three_four_five = condition(v2("condition 3*4/5"));
    assert!(matches!(&three_four_five,
        Expr::Binary(BinOp::Mul, a, b, _) if matches!(**a, Expr::Number(3, _))
            && matches!(&**b, Expr::Binary(BinOp::Div, c, d, _)
                if matches!(**c, Expr::Number(4, _)) && matches!(**d, Expr::Number(5, _)))));
    assert_eq!(
        strip(Expr::Binary(
            BinOp::Mul,
            n(3),
            Box::new(Expr::Binary(BinOp::Div, n(4), n(5), Pos::default())),
            Pos::default()
        )),
        "(3 * (4 / 5))"
    );
    assert_eq!(shown("3*4/5", V2), "(3 * (4 / 5))");
    assert_eq!(shown("3*4/5", Classic), "((3 * 4) / 5)");
    assert_eq!(shown("a/b%c", V2), "(a / (b % c))");
    assert_eq!(shown("a/b%c", Classic), "((a / b) % c)");
    assert_eq!(shown("a/b*c", V2), "((a / b) * c)");
    assert_eq!(shown("a==b!=c", V2), "(a == (b != c))");
    assert_eq!(shown("a!=b==c", V2), "((a != b) == c)");
    assert_eq!(shown("a==b!=c", Classic), "((a == b) != c)");
    assert_eq!(shown("a<b>=c", V2), "(a < (b >= c))");
    assert_eq!(shown("a<b>=c", Classic), "((a < b) >= c)");
    for d in [V2, Classic] {
        assert_eq!(shown("1 ? 0 : 1 || 1", d), "(1 ? 0 : (1 || 1))");
        assert_eq!(shown("1 || 0 ? 1 : 0", d), "((1 || 0) ? 1 : 0)");
        assert_eq!(shown("1 ? 0 ? 3 : 2 : 1", d), "(1 ? (0 ? 3 : 2) : 1)");
        assert_eq!(shown("1 ? 3 : 1 ? 2 : 1", d), "(1 ? 3 : (1 ? 2 : 1))");
        assert_eq!(shown("0 && 0 || 1", d), "((0 && 0) || 1)");
        assert_eq!(shown("1 || 0 && 0", d), "(1 || (0 && 0))");
        assert_eq!(shown("!0 * 2", d), "(!0 * 2)");
        assert_eq!(shown("not 1 and 0 or 1", d), "((!1 && 0) || 1)");
        assert_eq!(shown("1 - 1 + 1", d), "((1 - 1) + 1)");
        assert_eq!(shown("-1 - 2", d), "(-1 - 2)");
        assert_eq!(shown("2 - -1", d), "(2 - -1)");
        assert_eq!(shown("1 -1", d), "(1 - 1)");
        assert_eq!(shown("1 + 2 * 3 < 7 == 1", d), "(((1 + (2 * 3)) < 7) == 1)");
        assert_eq!(shown("(1 + 2) * 3", d), "((1 + 2) * 3)");
    }
}

#[test]
fn numbers() {
    assert_eq!(shown("6.5 + .25 + 12. + 99.99", Dialect::V2), "(((650 + 25) + 1200) + 9999)");
    // atoi: strtol saturates, then the long is truncated to int.
    assert_eq!(shown("99999999999999999999", Dialect::Classic), "-1");
    assert_eq!(shown("2147483648", Dialect::Classic), "-2147483648");
    assert_eq!(shown("1000 + -7", Dialect::Classic), "(1000 + -7)");
    let s = v2("generate 99999999999999999999 produce -5 startboard 1000 seed 7");
    assert_eq!(
        s.statements,
        vec![
            Statement::Generate(i64::MAX, pos(1, 1)),
            Statement::Produce(-5, pos(1, 31)),
            Statement::Startboard(1000, pos(1, 42)),
            Statement::Seed(7, pos(1, 58)),
        ]
    );
    // `-` before a four-digit word is not a number.
    assert_eq!(error("condition -1000 > 1", Dialect::Classic), (1, "syntax error".to_string()));
    // Classic has no dotnums.
    assert_eq!(error("condition hcp(north) > 6.5", Dialect::Classic), (1, "syntax error".to_string()));
}

#[test]
fn environment_statements() {
    let s = v2("title \"T 1\"\ndealer east\nvulnerable both\nvulnerable EW\nopener south\nseed -5\n");
    assert_eq!(
        s.statements,
        vec![
            Statement::Title("T 1".to_string(), pos(1, 1)),
            Statement::Dealer(Seat::East, pos(2, 1)),
            Statement::Vulnerable(Vulnerability::None, pos(3, 1)),
            Statement::Vulnerable(Vulnerability::EW, pos(4, 1)),
            Statement::Opener(Seat::South, pos(5, 1)),
            Statement::Seed(5, pos(6, 1)),
        ]
    );
    assert_eq!(s.echo, "-");
    let s = v2("vulnerable All vulnerable none");
    assert_eq!(
        s.statements,
        vec![
            Statement::Vulnerable(Vulnerability::All, pos(1, 1)),
            Statement::Vulnerable(Vulnerability::None, pos(1, 16)),
        ]
    );
    // Flex's `title({ws}|{nl})` takes both blanks; only the text before the string is echoed.
    assert_eq!(v2("title  junk\"x\"").echo, "junk");
    let s = classic("vulnerable NS vulnerable all vulnerable ew dealer west");
    assert_eq!(
        s.statements,
        vec![
            Statement::Vulnerable(Vulnerability::NS, pos(1, 1)),
            Statement::Vulnerable(Vulnerability::All, pos(1, 15)),
            Statement::Vulnerable(Vulnerability::EW, pos(1, 30)),
            Statement::Dealer(Seat::West, pos(1, 44)),
        ]
    );
    assert_eq!(error("vulnerable All", Dialect::Classic), (1, "syntax error".to_string()));
    assert_eq!(error("vulnerable both", Dialect::Classic), (1, "syntax error".to_string()));
    assert_eq!(error("dealer n", Dialect::Classic), (1, "syntax error".to_string()));
    assert_eq!(error("dealer North", Dialect::V2), (1, "syntax error".to_string()));
}

#[test]
fn predeal_items() {
    let c = |suit, rank| Card::new(suit, rank);
    // Each card carries its holding's position; a bias item the line of its number.
    let s = classic("predeal north SAQ2, HK,\nD, CT west DQ5 spades(east)==\n7 diamond(south) == 0");
    let (sa, hk, ct, dq) = (pos(1, 15), pos(1, 21), pos(2, 4), pos(2, 12));
    assert_eq!(
        s.statements,
        vec![Statement::Predeal(vec![
            PredealItem::Cards {
                seat: Seat::North,
                cards: vec![
                    (c(Suit::Spades, 12), sa),
                    (c(Suit::Spades, 10), sa),
                    (c(Suit::Spades, 0), sa),
                    (c(Suit::Hearts, 11), hk),
                    (c(Suit::Clubs, 8), ct)
                ],
                spots: vec![],
                pos: pos(1, 9),
            },
            PredealItem::Cards {
                seat: Seat::West,
                cards: vec![(c(Suit::Diamonds, 10), dq), (c(Suit::Diamonds, 3), dq)],
                spots: vec![],
                pos: pos(2, 7)
            },
            PredealItem::SuitLength { seat: Seat::East, suit: Suit::Spades, length: 7, pos: pos(3, 16) },
            PredealItem::SuitLength { seat: Seat::South, suit: Suit::Diamonds, length: 0, pos: pos(3, 3) },
        ])]
    );
    for bad in
        ["predeal north SAKA", "predeal north S2A", "predeal north sA", "predeal north S1", "predeal spades(north)==-3"]
    {
        assert_eq!(error(bad, Dialect::Classic), (1, "syntax error".to_string()), "{bad}");
    }
    // After a predeal, `hearts(north) == 3` is another bias item, not a condition.
    let s = classic("predeal north SA\nhearts(north) == 3");
    assert_eq!(s.statements.len(), 1);
    assert_eq!(error("predeal north SA\nspades(north) > 3", Dialect::Classic), (2, "syntax error".to_string()));
}

#[test]
fn spot_holdings_only_where_a_holding_stands() {
    let s = classic("predeal north SQTxx, HJ8x spades(north)==4 south\nSx");
    let Statement::Predeal(items) = &s.statements[0] else { panic!("{s:?}") };
    let spots: Vec<&SpotHolding> = items
        .iter()
        .flat_map(|i| match i {
            PredealItem::Cards { spots, .. } => spots.iter().collect(),
            _ => Vec::new(),
        })
        .collect();
    assert_eq!(
        spots,
        [
            &SpotHolding { suit: Suit::Spades, count: 2, pos: pos(1, 15) },
            &SpotHolding { suit: Suit::Hearts, count: 1, pos: pos(1, 22) },
            &SpotHolding { suit: Suit::Spades, count: 1, pos: pos(2, 1) },
        ]
    );
    let PredealItem::Cards { cards, .. } = &items[0] else { panic!() };
    assert_eq!(cards.len(), 4, "SQ ST HJ H8");
    // Elsewhere such words stay identifiers (the peers' variable names).
    let s = v2("Sxx = hcp(north)\ncondition Sxx > 3 && Hx == 1\nHx = 1\n");
    assert_eq!(s.statements.len(), 3);
    assert!(matches!(&s.statements[0], Statement::Define(name, _, _) if name == "Sxx"));
    for bad in ["predeal north SxQ", "predeal north SQxT", "predeal north sQx", "predeal north SQTxX"] {
        assert_eq!(error(bad, Dialect::Classic), (1, "syntax error".to_string()), "{bad}");
        assert_eq!(error(bad, Dialect::V2), (1, "syntax error".to_string()), "{bad}");
    }
}

#[test]
fn pointcount_and_altcount() {
    let s = v2("pointcount 6 4.5 2 -1 1000\naltcount 9 6 4 2 1");
    assert_eq!(
        s.statements,
        vec![
            Statement::Pointcount(vec![6, 450, 2, -1, 1000], pos(1, 1)),
            Statement::Altcount(9, vec![6, 4, 2, 1], pos(2, 1)),
        ]
    );
    assert_eq!(v2("pointcount").statements, vec![Statement::Pointcount(vec![], pos(1, 1))]);
    let thirteen = "pointcount 1 2 3 4 5 6 7 8 9 10 11 12 13";
    assert_eq!(classic(thirteen).statements.len(), 1);
    // The list swallows following numbers: the 14th value on line 2.
    assert_eq!(error(&format!("{thirteen}\n14 > 3"), Dialect::Classic), (2, "too many pointcount values".to_string()));
    assert_eq!(error(&format!("{thirteen} 14"), Dialect::V2), (1, "too many pointcount values".to_string()));
    // … and a following `-N`.
    assert_eq!(classic("pointcount 4 3\n-2").statements, vec![Statement::Pointcount(vec![4, 3, -2], pos(1, 1))]);
}

#[test]
fn shift_preferences() {
    // printcompact followed by `(` takes the expression.
    let s = classic("action printcompact\n(hcp(north) > 20)");
    assert_eq!(s.statements.len(), 1);
    let Statement::Action(actions, _) = &s.statements[0] else { panic!() };
    assert!(matches!(&actions[..], [Action::PrintCompact(Some(Expr::Binary(BinOp::Gt, _, _, _)))]));
    // After an expression statement, `-N` is a subtraction.
    let s = classic("x = 3\n-5 x");
    assert_eq!(s.statements.len(), 2);
    assert!(matches!(&s.statements[0], Statement::Define(name, Expr::Binary(BinOp::Sub, _, _, _), _) if name == "x"));
    let s = classic("action average 3\n-4");
    assert_eq!(s.statements.len(), 1);
    // … but after a statement not ending in an expression it starts a new one.
    let s = classic("generate 5 -3 > 1");
    assert_eq!(s.statements.len(), 2);
    let s = classic("action printall,\n-3 > x");
    assert_eq!(s.statements.len(), 2);
    // An unknown action is an empty action list followed by a bare expression.
    let s = classic("action printsomething\n");
    assert_eq!(
        s.statements,
        vec![
            Statement::Action(vec![], pos(1, 1)),
            // Reported on the line of the look-ahead (the end of the input, line 2).
            Statement::Condition(Expr::Variable("printsomething".to_string(), pos(2, 8)), pos(1, 8)),
        ]
    );
}

#[test]
fn printlin_and_printjson_in_both_dialects() {
    for script in [
        v2("x = 1\naction printlin, printjson, printjson(x, \"fit\" spades(north) + 1)\n"),
        classic("x = 1\naction printlin, printjson, printjson(x, \"fit\" spades(north) + 1)\n"),
    ] {
        let Statement::Action(actions, _) = &script.statements[1] else { panic!("{script:?}") };
        assert_eq!(actions[..2], [Action::PrintLin, Action::PrintJson(Vec::new())]);
        let Action::PrintJson(items) = &actions[2] else { panic!("{actions:?}") };
        assert_eq!(items.len(), 2);
        assert_eq!((items[0].name.as_deref(), &items[0].expr), (None, &Expr::Variable("x".to_string(), pos(2, 39))));
        assert_eq!(items[1].name.as_deref(), Some("fit"));
    }
    // A bare printjson ends the list like a bare printoneline: `(…)` after it is its argument.
    let s = v2("action printjson\n(1)\n");
    let Statement::Action(actions, _) = &s.statements[0] else { panic!("{s:?}") };
    assert!(matches!(&actions[0], Action::PrintJson(items) if items.len() == 1));
}

#[test]
fn actions() {
    let s = v2(concat!(
        "action printall, printew, printns, printside(EW), printpbn, printcompact, printcompact(1),\n",
        "printoneline, printoneline(hcp(north)), printes(\"a\", \\n, 2), print(north, west),\n",
        "average hcp(south), average \"lbl\" 1, frequency \"f\" (hcp(north), 0, 37),\n",
        "frequency (1, -2, 3, 4, 5, 6), bktfreq \"b\" (cccc(north), 5.00, 22.00, 0.50),\n",
        "bktfreq (1, 2, 3, 4, 5, 6, 7, 8), printrpt(\"x\", 1, north, NS, deal, trix(east), trix(deal), parcontract, parcontract(both)),\n",
        "csvrpt(south), export(EW), export(north), evalcontract(NS, z3Nx, vul),"
    ));
    let Statement::Action(actions, p) = &s.statements[0] else { panic!("{s:?}") };
    assert_eq!(*p, pos(1, 1));
    let one = Expr::Number(1, pos(1, 88));
    assert_eq!(
        actions[..7],
        [
            Action::PrintAll,
            Action::PrintEw,
            Action::PrintNs,
            Action::PrintSide(Side::EW),
            Action::PrintPbn,
            Action::PrintCompact(None),
            Action::PrintCompact(Some(one)),
        ]
    );
    assert_eq!(actions[7], Action::PrintOneline(None));
    assert_eq!(
        actions[9],
        Action::PrintEs(vec![
            PrintItem::Text("a".to_string()),
            PrintItem::Text("\n".to_string()),
            PrintItem::Expr(Expr::Number(2, pos(2, 58))),
        ])
    );
    assert_eq!(actions[10], Action::Print(vec![Seat::North, Seat::West]));
    assert!(matches!(
        &actions[11],
        Action::Average { label: None, expr: Expr::Count { table: CountTable::Hcp, seat: Seat::South, suit: None } }
    ));
    assert!(
        matches!(&actions[13], Action::Frequency { label: Some(l), lo: 0, hi: 37, pos: p, .. } if l == "f" && *p == pos(3, 38))
    );
    assert!(matches!(&actions[14], Action::Frequency2 { label: None, rows: (_, -2, 3), cols: (_, 5, 6), .. }));
    assert!(matches!(&actions[15], Action::BucketFrequency { lo: 500, hi: 2200, size: 50, .. }));
    assert!(matches!(&actions[16], Action::BucketFrequency2 { rows: (_, 2, 3, 4), cols: (_, 6, 7, 8), .. }));
    let Action::PrintRpt(items) = &actions[17] else { panic!() };
    assert_eq!(
        items[..5],
        [
            ReportItem::Text("x".to_string()),
            ReportItem::Expr(Expr::Number(1, pos(5, 49))),
            ReportItem::Seat(Seat::North),
            ReportItem::Side(Side::NS),
            ReportItem::Deal,
        ]
    );
    assert!(matches!(
        items[5..],
        [
            ReportItem::Trix(Some(Seat::East), _),
            ReportItem::Trix(None, _),
            ReportItem::ParContract(None, _),
            ReportItem::ParContract(Some(Vulnerability::All), _),
        ]
    ));
    assert_eq!(actions[18], Action::CsvRpt(vec![ReportItem::Seat(Seat::South)]));
    assert_eq!(actions[19], Action::Export(ExportTarget::Side(Side::EW)));
    assert_eq!(actions[20], Action::Export(ExportTarget::Seat(Seat::North)));
    let z3nx = Contract { level: 3, strain: Strain::Notrump, doubled: 1 };
    assert!(matches!(actions[21], Action::EvalContract { spec: Some((Side::NS, c, true)), .. } if c == z3nx));
    assert_eq!(actions.len(), 22);
    // Classic: bare evalcontract; empty list; trailing comma.
    assert!(matches!(&classic("action evalcontract").statements[0],
        Statement::Action(a, _) if matches!(a[..], [Action::EvalContract { spec: None, .. }])));
    assert_eq!(classic("action").statements, vec![Statement::Action(vec![], pos(1, 1))]);
    assert_eq!(error("action frequency (x, 0, 1+2)", Dialect::Classic), (1, "syntax error".to_string()));
    assert_eq!(error("action printes(\"abc)", Dialect::Classic), (1, "syntax error".to_string()));
}

#[test]
fn functions() {
    let e = condition(v2(concat!(
        "condition spades(north) + hearts(east) + hcp(south, club) + pt3(west) + tens(north, diamonds)",
        " + c13(east) + controls(north) + loser(south, hearts) + ltc(west) + cccc(north) + quality(south, spade)",
        " + shape(east, any 4333 - 5xxx , xx4x 4432) + hascard(west, TC) + tricks(north, notrump) + dds(south, hearts)",
        " + par(NS) + par(EW, EW) + score(vul, z4Hx, 10) + imps(3) + rnd(5) + opc(NS) + opc(EW, spades)",
        " + usereval(1, NS, 2) + usereval(2, north, spade, 3) + shape{west, 5+M(4-)xx:h>s} + top5(north)"
    )));
    let mut terms = Vec::new();
    let mut e = &e;
    while let Expr::Binary(BinOp::Add, a, b, _) = e {
        terms.push((**b).clone());
        e = a;
    }
    terms.push(e.clone());
    terms.reverse();
    assert_eq!(terms.len(), 26);
    assert_eq!(terms[0], Expr::SuitLength(Seat::North, Suit::Spades));
    assert_eq!(terms[2], Expr::Count { table: CountTable::Hcp, seat: Seat::South, suit: Some(Suit::Clubs) });
    assert_eq!(terms[3], Expr::Count { table: CountTable::Pt(3), seat: Seat::West, suit: None });
    assert_eq!(terms[4], Expr::Count { table: CountTable::Pt(0), seat: Seat::North, suit: Some(Suit::Diamonds) });
    assert_eq!(terms[5], Expr::Count { table: CountTable::Pt(9), seat: Seat::East, suit: None });
    assert_eq!(terms[6], Expr::Controls { seat: Seat::North, suit: None });
    assert_eq!(terms[7], Expr::Losers { seat: Seat::South, suit: Some(Suit::Hearts) });
    assert_eq!(terms[8], Expr::Ltc { seat: Seat::West, suit: None });
    assert_eq!(terms[9], Expr::Cccc(Seat::North));
    assert_eq!(terms[10], Expr::Quality(Seat::South, Suit::Spades));
    let Expr::Shape { seat: Seat::East, terms: shape, .. } = &terms[11] else { panic!("{:?}", terms[11]) };
    assert_eq!(
        shape,
        &vec![
            ShapeTerm { exclude: false, any: true, pattern: [Some(4), Some(3), Some(3), Some(3)] },
            ShapeTerm { exclude: true, any: false, pattern: [Some(5), None, None, None] },
            ShapeTerm { exclude: false, any: false, pattern: [None, None, Some(4), None] },
            ShapeTerm { exclude: false, any: false, pattern: [Some(4), Some(4), Some(3), Some(2)] },
        ]
    );
    assert_eq!(terms[12], Expr::HasCard(Seat::West, Card::new(Suit::Clubs, 8)));
    assert!(matches!(terms[13], Expr::Tricks(Seat::North, Strain::Notrump, _)));
    assert!(matches!(terms[14], Expr::Dds(Seat::South, Strain::Suit(Suit::Hearts), _)));
    assert!(matches!(terms[15], Expr::Par(Side::NS, None, _)));
    assert!(matches!(terms[16], Expr::Par(Side::EW, Some(Vulnerability::EW), _)));
    let z4hx = Contract { level: 4, strain: Strain::Suit(Suit::Hearts), doubled: 1 };
    assert!(
        matches!(&terms[17], Expr::Score { vulnerable: true, contract, tricks } if *contract == z4hx && matches!(**tricks, Expr::Number(10, _)))
    );
    assert!(matches!(&terms[18], Expr::Imps(_)));
    assert!(matches!(&terms[19], Expr::Rnd(_)));
    assert!(matches!(terms[20], Expr::Opc(Side::NS, None, _)));
    assert!(matches!(terms[21], Expr::Opc(Side::EW, Some(Strain::Suit(Suit::Spades)), _)));
    assert!(matches!(&terms[22], Expr::UserEval { who: SideOrSeat::Side(Side::NS), suit: None, .. }));
    assert!(matches!(&terms[23], Expr::UserEval { who: SideOrSeat::Seat(Seat::North), suit: Some(Suit::Spades), .. }));
    assert!(matches!(&terms[24], Expr::ShapeFd { seat: Seat::West, spec, .. } if spec == " 5+M(4-)xx:h>s"));
    assert_eq!(terms[25], Expr::Count { table: CountTable::Pt(8), seat: Seat::North, suit: None });
    assert!(v2("x = usereval(1, NS, 2)").mentions_usereval);
    assert!(!v2("x = 1").mentions_usereval);
    // Classic: these words are variables.
    assert_eq!(shown("par + ltc", Dialect::Classic), "(par + ltc)");
    for bad in [
        "-hcp(north)",
        "hcp(nonsense)",
        "hcp(3)",
        "hcp(spades, north)",
        "shape(north, 433)",
        "shape(north, 43330)",
        "shape(north, 43X3)",
        "hascard(north, SA)",
        "shape(north, any + 4333)",
    ] {
        assert_eq!(error(&format!("condition {bad}"), Dialect::Classic), (1, "syntax error".to_string()), "{bad}");
    }
}

#[test]
fn error_lines() {
    use Dialect::{Classic, V2};
    let syntax = |line| (line, "syntax error".to_string());
    for d in [Classic, V2] {
        assert_eq!(error("condition hcp(north) > \naction printall", d), syntax(2));
        // Unexpected end of input: the line count at EOF.
        assert_eq!(error("condition 1 &&\n\n\n", d), syntax(4));
        assert_eq!(error("condition 1 &&\n/* x\ny */", d), syntax(3));
        assert_eq!(error("a\n/* x\ny\n", d), (4, "EOF found in comment".to_string()));
        assert_eq!(error("produce 1 # x", d), syntax(1));
        assert_eq!(error("produce 1\n #x", d), syntax(2));
        assert_eq!(error("produce 1\n//x", d), syntax(2));
        assert_eq!(error("# a\n// b\n/* c\n */ produce 1 )", d), syntax(4));
        assert_eq!(error("produce 1\rproduce 2", d), syntax(1));
    }
    // Newlines inside classic strings are not counted.
    assert_eq!(error("action printes(\"a\nb\nc\"),\nproduce 1 )", Classic), syntax(2));
    // Classic: `vulnerable NS` is accepted, `dealer` needs a lowercase seat.
    assert_eq!(error("dealer n", Classic), syntax(1));
}

#[test]
fn echo_and_end_of_input() {
    let s = classic("/* HELLO WORLD <FOE> eof */ produce 1 /* > */");
    assert_eq!(s.echo, "EOO<FOE>>");
    // A NUL byte no longer ends the input: it is an error at its line (what precedes it first).
    assert_eq!(error("produce 1\0 garbage )))", Dialect::Classic), (1, super::NUL_MESSAGE.to_string()));
    assert_eq!(error(&"\0".repeat(2000), Dialect::V2), (1, super::NUL_MESSAGE.to_string()));
    assert_eq!(error("produce )\0", Dialect::Classic), (1, "syntax error".to_string()));
    assert_eq!(classic("").statements, vec![]);
    assert_eq!(classic(" \t\r\n\n").statements, vec![]);
}

#[test]
fn script_variables() {
    let mut vars = NO_VARS;
    vars[0] = Some("west".to_string());
    vars[2] = Some("hcp".to_string());
    vars[5] = Some("12".to_string());
    vars[6] = Some("6.5".to_string());
    vars[8] = Some("any 4333 + any 4432".to_string());
    vars[9] = Some("5+s4+mxx".to_string());
    let src = b"condition $2($0) >= $5 && $2($0) <= $6 && shape($0, $8) && shape{$0, $9 + 6+Mxxx} && $1 1 $7";
    let e = condition(parse(src, Dialect::V2, &vars).unwrap());
    let text = format!("{e:?}");
    assert!(text.contains("Count { table: Hcp, seat: West, suit: None }, Number(12"), "{text}");
    assert!(text.contains("Number(650"), "{text}");
    assert!(text.contains("ShapeFd { seat: West, spec: \" 5+s4+mxx + 6+Mxxx\""), "{text}");
    assert!(text.contains("Shape { seat: West, terms: [ShapeTerm { exclude: false, any: true"), "{text}");
    // Classic has no script variables.
    assert_eq!(error("condition $1", Dialect::Classic), (1, "syntax error".to_string()));
}

#[test]
fn garbage_never_panics() {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let words: &[&[u8]] = &[
        b"condition ",
        b"action ",
        b"predeal ",
        b"north ",
        b"SAK",
        b"(",
        b")",
        b",",
        b"-",
        b"1 ",
        b"4333 ",
        b"hcp",
        b"shape{",
        b"}",
        b"\"",
        b"/*",
        b"*/",
        b"\n",
        b"#",
        b"$1",
        b"?",
        b":",
        b"printes",
        b"title ",
        b"seed ",
        b"vulnerable ",
        b"pointcount ",
        b"x = ",
        b"!",
        b"\0",
        b"\xff",
    ];
    let mut vars = NO_VARS;
    vars[1] = Some("$2 $2".to_string());
    vars[2] = Some("$1 (".to_string());
    for round in 0..3000 {
        let len = (next() % 60) as usize;
        let src: Vec<u8> = if round % 2 == 0 {
            (0..len * 4).map(|_| next() as u8).collect()
        } else {
            (0..len).flat_map(|_| words[(next() % words.len() as u64) as usize].iter().copied()).collect()
        };
        for d in [Dialect::Classic, Dialect::V2] {
            let _ = parse(&src, d, &vars);
        }
    }
    // Deep nesting is refused the way Bison refuses it, without recursion.
    let bangs = format!("condition {}1", "!".repeat(200_000));
    assert_eq!(error(&bangs, Dialect::Classic), (1, "memory exhausted".to_string()));
    let sum = format!("condition 1{}", "+1".repeat(1_000_000));
    assert_eq!(error(&sum, Dialect::V2), (1, "memory exhausted".to_string()));
    let parens = |n| format!("condition {}1{}", "(".repeat(n), ")".repeat(n));
    assert_eq!(error(&parens(20_000), Dialect::V2), (1, "memory exhausted".to_string()));
    // Classic dealer's limit for this shape of input.
    assert_eq!(error(&parens(9_995), Dialect::Classic), (1, "memory exhausted".to_string()));
    assert!(parse(parens(9_994).as_bytes(), Dialect::Classic, &NO_VARS).is_ok());
}

/// The first of `candidates` that exists (the shared test material lives outside the crate).
fn material(candidates: &[&str]) -> Option<std::path::PathBuf> {
    let manifest = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    candidates.iter().flat_map(|c| [manifest.join(c), std::path::PathBuf::from(c)]).find(|p| p.is_dir())
}

fn files_in(dir: &std::path::Path, keep: impl Fn(&str) -> bool) -> Vec<std::path::PathBuf> {
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(&keep))
        .collect();
    v.sort();
    v
}

#[test]
fn dealerv2_regression_cases_parse() {
    let Some(dir) = material(&["../shared/parity/dealerv2/cases", "/work/shared/parity/dealerv2/cases"]) else {
        eprintln!("skipped: no DealerV2 parity cases found");
        return;
    };
    // The script variables `shared/parity/dealerv2/run` passes to `.dls` cases.
    let values = [
        "east",
        "west",
        "hcp",
        "top4",
        "ltc",
        "12",
        "6.5",
        "spade",
        "any 4333 + any 4432 + any 5332",
        "5+s4+mxx + 6+Mxxx",
    ];
    let vars: ScriptVars = values.map(|v| Some(v.to_string()));
    let cases = files_in(&dir, |n| n.contains(".dl"));
    assert!(cases.len() >= 40);
    let mut failures = Vec::new();
    for path in &cases {
        let vars = if path.extension().is_some_and(|e| e == "dls") { &vars } else { &NO_VARS };
        match parse(&std::fs::read(path).unwrap(), Dialect::V2, vars) {
            Ok(script) => {
                let name = path.file_name().unwrap().to_str().unwrap();
                if name.starts_with("ShapeFD_simple") {
                    assert_eq!(script.echo, ">>");
                } else if !name.starts_with("ShapeFD") {
                    assert_eq!(script.echo, "", "{name}");
                }
            }
            Err(e) => failures.push(format!("{}: {e}", path.display())),
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn classic_scripts_parse() {
    let mut scripts = Vec::new();
    if let Some(dir) = material(&["../shared/parity/pbs/scripts", "/work/shared/parity/pbs/scripts"]) {
        scripts.extend(files_in(&dir, |n| n.ends_with(".dlr")));
    }
    if let Some(dir) = material(&["/usr/share/doc/dealer/examples"]) {
        scripts.extend(files_in(&dir, |n| n.starts_with("Descr.")));
    }
    if scripts.is_empty() {
        eprintln!("skipped: no classic scripts found");
        return;
    }
    let mut failures = Vec::new();
    for path in &scripts {
        if let Err(e) = parse(&std::fs::read(path).unwrap(), Dialect::Classic, &NO_VARS) {
            failures.push(format!("{}: {e}", path.display()));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn operator_order_example() {
    // Descr.test_operator_order's definitions, as classic dealer groups them.
    let src = "qc1 = 1 ? 0 ? 3 : 2 : 1\nqco2 = 1 ?  0 : 1 || 1\nea1 = 2 == 2 != 0\nle1 = -2 <  -1 <= 0\nta1 = 3 * 3 % 2\nnt1 = !0 * 2\num2 = 2 - -1\n";
    let s = classic(src);
    let shown: Vec<String> = s
        .statements
        .iter()
        .map(|st| match st {
            Statement::Define(n, e, _) => format!("{n} {}", show(e)),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(
        shown,
        [
            "qc1 (1 ? (0 ? 3 : 2) : 1)",
            "qco2 (1 ? 0 : (1 || 1))",
            "ea1 ((2 == 2) != 0)",
            "le1 ((-2 < -1) <= 0)",
            "ta1 ((3 * 3) % 2)",
            "nt1 (!0 * 2)",
            "um2 (2 - -1)",
        ]
    );
}

#[test]
fn unknown_seats() {
    use Dialect::{Classic, V2};
    let seat = |w: &str| Some(format!("unknown seat '{w}' (north, east, south, west)"));
    for d in [Classic, V2] {
        for (src, word) in [
            ("condition hcp(nrth) > 10", "nrth"),
            ("condition hcp(North, spades)", "North"),
            ("condition shape(sout, any 4333)", "sout"),
            ("condition hascard(n, SA)", "n"),
            ("condition spades(w) > 4", "w"),
            ("condition controls(S)", "S"),
            ("predeal nrth SAK", "nrth"),
            ("dealer nrth", "nrth"),
            ("action print(north, est)", "est"),
        ] {
            assert_eq!(explanation(src, d), seat(word), "{src:?} {d:?}");
        }
        // Only a word says what went wrong; elsewhere the grammar wants more than a seat.
        for src in ["condition hcp(3)", "condition hcp(north) > nrth )", "condition hcp(north, nrth)"] {
            assert_eq!(explanation(src, d), None, "{src:?} {d:?}");
        }
    }
    assert_eq!(explanation("condition shape{nrth, 5xxx}", V2), seat("nrth"));
    assert_eq!(explanation("condition shape{, 5xxx}", V2), None);
    assert_eq!(
        explanation("condition usereval(1, nrth, 2)", V2),
        Some("unknown seat or side 'nrth' (north, east, south, west, NS, EW)".to_string())
    );
    // The error keeps the peers' line and gives the word's column; the full form explains it.
    let error = parse(b"produce 1\ncondition\n  hcp(nrth\n)", Classic, &NO_VARS).unwrap_err();
    assert_eq!((error.line, error.col), (3, 7));
    let error = crate::error::Error::from(error).with_source(b"produce 1\ncondition\n  hcp(nrth\n)");
    assert_eq!(error.to_string(), "line 3: syntax error");
    assert_eq!(
        error.describe(),
        "line 3, column 7: unknown seat 'nrth' (north, east, south, west)\n      hcp(nrth\n          ^"
    );
}

#[test]
fn leads_in_both_dialects() {
    for script in [
        v2("action printoneline, leads(west, notrump, 9), leads(north, hearts, 10, vul)\n"),
        classic("action leads(south, clubs, 11, nv)\n"),
    ] {
        let Statement::Action(actions, _) = &script.statements[0] else { panic!("{script:?}") };
        for action in actions {
            if let Action::Leads { leader, strain, needed, vulnerable, pos } = action {
                let want = match leader {
                    Seat::West => (Strain::Notrump, 9, None),
                    Seat::North => (Strain::Suit(Suit::Hearts), 10, Some(true)),
                    Seat::South => (Strain::Suit(Suit::Clubs), 11, Some(false)),
                    Seat::East => panic!("{action:?}"),
                };
                assert_eq!((*strain, *needed, *vulnerable), want);
                assert_eq!(pos.line, 1);
            }
        }
        let count = actions.iter().filter(|a| matches!(a, Action::Leads { .. })).count();
        assert_eq!(count, if script.statements.len() == 1 && actions.len() == 3 { 2 } else { 1 });
    }
}
