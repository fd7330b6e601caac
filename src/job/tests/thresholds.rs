//! Double-dummy results compared with numbers: a script whose condition compares `dds()` (or
//! classic `tricks()`) with a constant, asked of the solver as threshold questions, produces the
//! deals the same script produces when each result is solved exactly and then compared (the
//! result inside arithmetic, `+ 0`, is solved exactly), for every operator, in both dialects,
//! on one thread and on two (dealing ahead, the questions solved in rounds of batches).

use super::*;

/// `(operator, number)`: each comparison operator, with numbers near where 3NT makes.
const COMPARISONS: [(&str, i32); 6] = [(">=", 9), (">", 8), ("<=", 8), ("<", 9), ("==", 9), ("!=", 9)];

/// The deals a script prints.
fn deals(dialect: &str, threads: &str, script: &str) -> String {
    let (mut s, out) = captured(
        &[("dialect", dialect), ("rng", "drand48"), ("seed", "11"), ("threads", threads), ("statistics", "false")],
        script,
    );
    s.run().unwrap();
    text(&out)
}

#[test]
fn thresholds_produce_the_deals_of_exact_results_compared() {
    for (dialect, function) in [("v2", "dds"), ("classic", "tricks")] {
        for (op, k) in COMPARISONS {
            let script = |result: &str| {
                format!(
                    "generate 24\ncondition hcp(north) + hcp(south) >= 22 && {result} {op} {k}\naction printoneline\n"
                )
            };
            let threshold = script(&format!("{function}(south, notrump)"));
            let exact = script(&format!("{function}(south, notrump) + 0"));
            let want = deals(dialect, "1", &exact);
            assert!(!want.is_empty() || op == "==", "{dialect} {op} {k}: no deal produced");
            assert_eq!(deals(dialect, "1", &threshold), want, "{dialect} {op} {k}, one thread");
            assert_eq!(deals(dialect, "2", &threshold), want, "{dialect} {op} {k}, two threads");
        }
    }
}

#[test]
fn several_questions_on_one_result_and_results_needed_exactly_after_them() {
    // A range asked as two thresholds, a result printed after being compared, and numbers
    // outside 0..13 (answered without a solve).
    let script = |a: &str, b: &str| {
        format!(
            "generate 30\ncondition hcp(north) + hcp(south) >= 20 && {a} >= 8 && {b} <= 9 && {a} > -1 && {b} < 14\n\
             action printoneline, average dds(south, notrump)\n"
        )
    };
    let want = deals("v2", "1", &script("dds(south, hearts) + 0", "dds(south, hearts) + 0"));
    for threads in ["1", "2"] {
        assert_eq!(deals("v2", threads, &script("dds(south, hearts)", "dds(south, hearts)")), want, "{threads}");
    }
}

#[test]
fn the_json_summary_counts_the_solves_by_kind_the_same_for_any_thread_count() {
    let script = "generate 12\ncondition hcp(north) + hcp(south) >= 20 && dds(south, notrump) >= 9\n\
                  action printoneline, average dds(south, notrump) + 0\n";
    let summary = |threads: &str, rng: &str| {
        let (mut s, out) =
            captured(&[("seed", "3"), ("threads", threads), ("rng", rng), ("json_summary", "true")], script);
        s.run().unwrap();
        let text = text(&out);
        let at = text.find(",\"dd\":{").expect(&text);
        text[at..].split('}').next().unwrap().to_string()
    };
    let one = summary("1", "chacha");
    assert!(one.starts_with(",\"dd\":{\"thresholds\":") && one.contains(",\"tables\":0,"), "{one}");
    assert!(!one.contains("\"thresholds\":0,"), "{one}");
    // Solves made ahead for deals never judged are not counted: the same on two threads.
    assert_eq!(summary("2", "chacha"), one);
    assert_eq!(summary("2", "drand48"), summary("1", "drand48"));
    // The text footer stays the peers'.
    let (mut s, out) = captured(&[("seed", "3"), ("threads", "1")], script);
    s.run().unwrap();
    assert!(!text(&out).contains("Double dummy"));
    // With -D2 it ends with the same counts, on any thread count.
    for threads in ["1", "2"] {
        let (mut s, out) = captured(&[("seed", "3"), ("threads", threads), ("debug", "2")], script);
        s.run().unwrap();
        let text = text(&out);
        let last = text.lines().last().unwrap();
        let number =
            |key: &str| one.split(&format!("\"{key}\":")).nth(1).unwrap().split(',').next().unwrap().to_string();
        let want = format!(
            "Double dummy: {} threshold questions, {} exact results, 0 tables solved; {} answered by the cards",
            number("thresholds"),
            number("exact"),
            number("by_the_cards")
        );
        assert_eq!(last, want, "{text}");
        assert!(text.contains("\nTime needed "), "{text}");
    }
    // -D1, or a script that asks no double dummy: no such line.
    let (mut s, out) = captured(&[("seed", "3"), ("debug", "1")], script);
    s.run().unwrap();
    assert!(!text(&out).contains("Double dummy"));
    let (mut s, out) = captured(&[("seed", "3"), ("debug", "2")], "generate 5\naction printoneline\n");
    s.run().unwrap();
    assert!(!text(&out).contains("Double dummy"));
}

#[test]
fn a_number_on_the_left_is_the_same_question() {
    for (op, mirrored) in [("<=", ">="), ("<", ">"), (">=", "<="), (">", "<"), ("==", "=="), ("!=", "!=")] {
        let script = |comparison: &str| {
            format!("generate 16\ncondition hcp(north) + hcp(south) >= 22 && {comparison}\naction printoneline\n")
        };
        let left = deals("v2", "1", &script(&format!("9 {op} dds(south, notrump)")));
        let right = deals("v2", "1", &script(&format!("dds(south, notrump) {mirrored} 9")));
        assert_eq!(left, right, "9 {op} dds()");
        let exact = deals("v2", "1", &script(&format!("9 {op} dds(south, notrump) + 0")));
        assert_eq!(left, exact, "9 {op} dds() + 0");
    }
}

#[test]
fn a_double_dummy_clause_written_first_solves_only_the_deals_the_other_clauses_accept() {
    let counts = |script: &str, threads: &str| {
        let (mut s, out) =
            captured(&[("rng", "drand48"), ("seed", "7"), ("threads", threads), ("json_summary", "true")], script);
        s.run().unwrap();
        let text = text(&out);
        let (deals, summary) = text.split_at(text.find("{\"schema\"").expect(&text));
        let at = summary.find("\"thresholds\":").expect(summary);
        let thresholds: u64 = summary[at + 13..].split(',').next().unwrap().parse().unwrap();
        (deals.to_string(), thresholds)
    };
    let body = "generate 20000\nproduce 8\naction printoneline\ncondition ";
    let dd_first = format!("{body}dds(south, notrump) >= 9 && hcp(north) + hcp(south) >= 24\n");
    let points_first = format!("{body}hcp(north) + hcp(south) >= 24 && dds(south, notrump) >= 9\n");
    // The same clauses with one that may fail (a division by a hand's points): judged as written.
    let as_written =
        format!("{body}dds(south, notrump) >= 9 && hcp(north) + hcp(south) >= 24 && 1 / (hcp(west) + 1) >= 0\n");
    for threads in ["1", "2"] {
        let (deals, solved) = counts(&dd_first, threads);
        assert_eq!(counts(&points_first, threads), (deals.clone(), solved), "threads {threads}");
        let (written_deals, written_solved) = counts(&as_written, threads);
        assert_eq!(written_deals, deals);
        assert!(written_solved > 2 * solved, "{written_solved} against {solved}");
    }
}
