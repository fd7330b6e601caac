//! Tests of checking and compiling scripts: the peers' errors on the peers' lines, the default
//! `produce`, the seats a program reads.

use crate::dialect::Dialect;
use crate::program::compiled_program::Program;
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
        ("predeal spades(north)==3 spades(north)\n==\n4\n\n", "line 3: North's Spade suit has length already set to 3"),
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
        (
            "predeal north SQTxx, HA, SA\n",
            "line 1: North already holds predealt Spades: a holding with x must name all of them",
        ),
        (
            "predeal north SQTxx\npredeal north SA\n",
            "line 2: North's Spades are given in full by its holding with x at line 1, column 15",
        ),
        (
            "predeal north SA\npredeal north Sxx\n",
            "line 2: North already holds predealt Spades: a holding with x must name all of them",
        ),
        (
            "predeal north Sxx\n east Hx, Sxxx, Hxx",
            "line 2: East's Hearts are given in full by its holding with x at line 2, column 7",
        ),
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
    let ok =
        Program::from_source(b"predeal north SQTxx, HJ8x spades(north)==4 south S9\n", Dialect::V2, &NO_VARS).unwrap();
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

/// The full form of the error of `src` in `dialect`, and the peers' one line.
fn both_forms(src: &str, dialect: Dialect) -> (String, String) {
    match Program::from_source(src.as_bytes(), dialect, &NO_VARS) {
        Ok(_) => panic!("{src:?} compiled"),
        Err(e) => (e.clone().with_source(src.as_bytes()).describe(), e.to_string()),
    }
}

#[test]
fn unknown_names_are_named_with_the_nearest_known_name() {
    use Dialect::{Classic, V2};
    for (src, dialect, want) in [
        // A name followed by `(` (a syntax error after it, or another statement) is a function.
        ("condition shpae(south, any 4333)", V2, "line 1, column 11: unknown function 'shpae' (did you mean 'shape'?)"),
        ("condition hpc(north) > 10", Classic, "line 1, column 11: unknown function 'hpc' (did you mean 'hcp'?)"),
        ("condition loosers (north) < 8", V2, "line 1, column 11: unknown function 'loosers' (did you mean 'losers'?)"),
        ("shpae(south, any 4333)", V2, "line 1, column 1: unknown function 'shpae' (did you mean 'shape'?)"),
        ("condition frobnicate(north) > 1", V2, "line 1, column 11: unknown function 'frobnicate'"),
        // Classic dealer's functions only, and DealerV2's named as such.
        ("condition ltx(north) < 7", V2, "line 1, column 11: unknown function 'ltx' (did you mean 'ltc'?)"),
        ("condition ltx(north) < 7", Classic, "line 1, column 11: unknown function 'ltx'"),
        ("condition ltc(north) < 7", Classic, "line 1, column 11: 'ltc' is a DealerV2 function, not classic dealer's"),
        // Variables: the variables defined so far, then keywords.
        (
            "responder = hcp(south)\ncondition respnder > 6",
            V2,
            "line 2, column 11: unknown variable 'respnder' (did you mean 'responder'?)",
        ),
        (
            "opener = 1\ncondition opner",
            Classic,
            "line 2, column 11: unknown variable 'opner' (did you mean 'opener'?)",
        ),
        ("conditon hcp(north) > 10", V2, "line 1, column 1: unknown variable 'conditon' (did you mean 'condition'?)"),
        ("x = 1\ncondition xyz > 3", V2, "line 2, column 11: unknown variable 'xyz'"),
    ] {
        let (full, one_line) = both_forms(src, dialect);
        assert_eq!(full.lines().next(), Some(want), "{src:?} {dialect:?}");
        // The peers' one line is unchanged.
        assert_eq!(one_line, format!("line {}: unknown variable", src.lines().count()), "{src:?} {dialect:?}");
    }
}
