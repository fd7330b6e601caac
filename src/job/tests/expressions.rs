//! Tests of `next_deal`, `eval` and compiled expressions, and of `opc`'s configuration.

use super::*;
use crate::job::job_setup::opc_config;

#[test]
fn next_deal_and_eval() {
    let dir = std::env::temp_dir().join(format!("libdealer-session-opc-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let missing = dir.join("dop").to_string_lossy().into_owned();
    let mut s = Session::new();
    s.set_option("seed", "11").unwrap();
    s.set_option("opc_program", &missing).unwrap();
    s.load_script(b"big = hcp(south) >= 20\ncondition big\n").unwrap();
    assert_eq!(s.eval("hcp(south)").unwrap_err().kind, ErrorKind::Usage);
    for _ in 0..5 {
        let deal = s.next_deal().unwrap().expect("a deal with 20+ hcp in 10M tries");
        assert!(deal.is_complete());
        assert!(s.eval("hcp(south)").unwrap() >= 20);
        assert_eq!(s.eval("big").unwrap(), 1);
    }
    assert_eq!(s.eval("hcp(").unwrap_err().kind, ErrorKind::Script);
    let south = s.eval("dds(south, notrump)").unwrap();
    assert!((0..=13).contains(&south));
    assert_eq!(s.eval("dds(south, notrump) == tricks(south, notrump)").unwrap(), 1);
    // No DOP program where the option points (a fresh folder): a clear run error.
    let e = s.eval("opc(NS)").unwrap_err();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(e.kind, ErrorKind::Run);
    assert!(e.message.starts_with(&format!("opc: {missing}: cannot start")), "{}", e.message);
    s.set_option("produce", "2").unwrap();
    assert!(s.next_deal().unwrap().is_some());
    assert!(s.next_deal().unwrap().is_some());
    assert!(s.next_deal().unwrap().is_none());
}

#[test]
fn opc_runs_dealerv2_dop_unless_told_otherwise() {
    // Only the configuration: whatever is installed at DealerV2's path is never run here.
    let mut s = Session::new();
    let config = opc_config(s.options(), &s.interrupter());
    assert_eq!(config.program, std::path::Path::new("/usr/local/games/DealerV2_4/bin/dop"));
    assert_eq!(config.opener, 'W');
    s.set_option("opc_program", "/elsewhere/dop").unwrap();
    s.set_option("opener", "s").unwrap();
    let config = opc_config(s.options(), &s.interrupter());
    assert_eq!(config.program, std::path::Path::new("/elsewhere/dop"));
    assert_eq!(config.opener, 'S');
}

#[test]
fn eval_of_many_distinct_expressions_stays_bounded() {
    let mut s = Session::new();
    s.set_option("seed", "4").unwrap();
    s.load_script(b"produce 1\n").unwrap();
    s.next_deal().unwrap().unwrap();
    let hcp = s.eval("hcp(north)").unwrap();
    let script_nodes = s.program.as_ref().unwrap().nodes.len();
    for i in 0..3 * MAX_CACHED_EXPRESSIONS {
        assert_eq!(s.eval(&format!("hcp(north) + {i}")).unwrap(), hcp + i as i32);
    }
    assert!(s.program.as_ref().unwrap().nodes.len() < script_nodes + 4 * MAX_CACHED_EXPRESSIONS);
    assert_eq!(s.eval("hcp(north)").unwrap(), hcp);
}

#[test]
fn compiled_expressions_survive_the_eval_cache_and_die_with_the_script() {
    let mut s = Session::new();
    s.set_option("seed", "4").unwrap();
    assert_eq!(s.compile_expression("hcp(north)").unwrap_err().kind, ErrorKind::Usage);
    s.load_script(b"big = hcp(north) >= 10\nproduce 3\n").unwrap();
    let hcp = s.compile_expression("hcp(north)").unwrap();
    let big = s.compile_expression("big").unwrap();
    assert_ne!(hcp, big);
    assert_eq!(s.eval_compiled(hcp).unwrap_err().kind, ErrorKind::Usage, "no current deal yet");
    let deal = s.next_deal().unwrap().unwrap();
    let expected = deal.hand(Seat::North).cards_descending().map(|c| c.rank().saturating_sub(8) as i32).sum::<i32>();
    assert_eq!(s.eval_compiled(hcp).unwrap(), expected);
    assert_eq!(s.eval_compiled(big).unwrap(), (expected >= 10) as i32);
    // Filling the eval cache past its bound drops its nodes; the pinned ones are rebuilt.
    for i in 0..MAX_CACHED_EXPRESSIONS + 5 {
        s.eval(&format!("hcp(south) + {i}")).unwrap();
    }
    assert_eq!(s.eval_compiled(hcp).unwrap(), expected);
    assert_eq!(s.eval_compiled(big).unwrap(), (expected >= 10) as i32);
    // A syntax error in an expression points into the expression.
    let e = s.compile_expression("hcp(north) +").unwrap_err();
    assert_eq!((e.kind, e.line), (ErrorKind::Script, Some(1)));
    assert!(e.describe().contains("hcp(north) +"), "{}", e.describe());
    // A new script invalidates the ids; new ids are not reused.
    s.load_script(b"produce 1\n").unwrap();
    assert!(s.eval_compiled(hcp).unwrap_err().message.contains("unknown expression id"));
    let again = s.compile_expression("hcp(north)").unwrap();
    assert!(again > big);
}

#[test]
fn script_errors_carry_their_line_for_the_full_message() {
    let mut s = Session::new();
    let e = s.load_script(b"produce 1\ncondition hcp(north) > \naction printall\n").unwrap_err();
    assert_eq!(e.to_string(), "line 3: syntax error");
    assert_eq!(e.source_line.as_deref(), Some("action printall"));
    assert_eq!(e.describe(), "line 3, column 1: syntax error near 'action'\n    action printall\n    ^");
}
