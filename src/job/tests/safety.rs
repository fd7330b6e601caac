//! Tests of what keeps a run safe: the stack watch, interruption, the bound on kept deals and
//! the `untrusted` option.

use super::*;

/// Runs `body` on a new thread with `stack` bytes of stack.
fn on_stack<T: Send + 'static>(stack: usize, body: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new().stack_size(stack).spawn(body).unwrap().join().unwrap()
}

#[test]
fn deep_expressions_fail_cleanly_on_a_small_stack() {
    // 9,000 levels: within the parser's limit, too deep for 256 KB of stack.
    let script = format!("produce 1\ncondition hcp(north){} > 10\n", "+hcp(south)".repeat(9_000));
    let e = on_stack(256 << 10, move || {
        let mut s = Session::new();
        s.load_script(script.as_bytes()).unwrap_err()
    });
    assert_eq!(e.to_string(), "line 2: expression nested too deeply for this thread's stack");
    assert_eq!(e.exit_code, 255);
    // The same depth on a large stack compiles and runs.
    let script = format!(
        "produce 1\ncondition 1{} == 9001\naction printes(0+1{}, \\n)\n",
        "+1".repeat(9_000),
        "+1".repeat(9_000)
    );
    let out = on_stack(64 << 20, move || {
        let (mut s, out) = captured(&[("seed", "1"), ("threads", "1")], &script);
        s.run().unwrap();
        text(&out)
    });
    assert!(out.starts_with("9001\n"), "{out}");
}

#[test]
fn evaluation_watches_the_stack_of_the_thread_it_runs_on() {
    // Compiled on a large stack, run on a small one: an error, not an overflow.
    let script = format!("produce 1\ncondition hcp(north){} >= 0\n", "+hcp(south)".repeat(3_000));
    let mut s = on_stack(64 << 20, move || {
        let mut s = Session::new();
        s.set_option("threads", "1").unwrap();
        s.load_script(script.as_bytes()).unwrap();
        s
    });
    let _ = capture(&mut s, Stream::Output);
    let e = on_stack(256 << 10, move || s.run().unwrap_err());
    assert_eq!((e.kind, e.message.as_str()), (ErrorKind::Run, crate::program::TOO_DEEP));
}

#[test]
fn an_interruption_stops_one_run_with_complete_output() {
    let script = "generate 100000000\nproduce 100000000\naction printoneline\n";
    let (mut s, out) = captured(&[("seed", "1"), ("threads", "2")], script);
    let interrupter = s.interrupter();
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(200));
        interrupter.interrupt();
    });
    let e = s.run().unwrap_err();
    stopper.join().unwrap();
    assert_eq!((e.kind, e.message.as_str(), e.exit_code), (ErrorKind::Interrupted, "interrupted", 130));
    let text = text(&out);
    assert!(text.lines().count() > 100, "deals were printed before the interruption");
    assert!(text.ends_with('\n') && text.lines().all(|l| l.len() == 76 && l.starts_with("n ")));
    // The interruption was used up: the next run goes to its end.
    s.set_option("produce", "3").unwrap();
    assert_eq!(s.run().unwrap().produced, 3);
    // An interruption before a run stops that run.
    s.interrupter().interrupt();
    assert_eq!(s.run().unwrap_err().kind, ErrorKind::Interrupted);
}

#[test]
fn deal_lists_for_print_are_bounded() {
    let (mut s, _) = captured(&[("seed", "1"), ("produce", "2000000")], "generate 5000000\naction print(north)\n");
    let e = s.run().unwrap_err();
    assert_eq!(e.kind, ErrorKind::Run);
    assert!(e.message.starts_with("print(...) keeps every produced deal"), "{}", e.message);
    let (mut s, out) = captured(&[("seed", "1"), ("produce", "3")], "action print(north)\n");
    s.run().unwrap();
    assert!(text(&out).contains("North hands:"), "{}", text(&out));
}

#[test]
fn untrusted_refuses_opc_at_its_line_and_column() {
    let script = "produce 1\ncondition hcp(north) > 10 && opc(NS) > 100\n";
    let mut s = Session::new();
    s.set_option("untrusted", "true").unwrap();
    let e = s.load_script(script.as_bytes()).unwrap_err();
    assert_eq!((e.kind, e.line, e.col, e.exit_code), (ErrorKind::NotAllowed, Some(2), Some(30), 5));
    assert_eq!(e.message, "opc() is not allowed in an untrusted script: it runs an external program");
    assert!(e.describe().contains("near 'opc(NS)'"), "{}", e.describe());
    // Loaded before `untrusted` was set: refused when the run starts, before any deal.
    let (mut s, out) = captured(&[("opc_program", "/bin/true")], script);
    s.set_option("untrusted", "true").unwrap();
    let e = s.run().unwrap_err();
    assert_eq!((e.kind, e.line, e.col), (ErrorKind::NotAllowed, Some(2), Some(30)));
    assert_eq!(e.source_line.as_deref(), Some("condition hcp(north) > 10 && opc(NS) > 100"));
    assert!(text(&out).is_empty(), "nothing was dealt: {}", text(&out));
    assert_eq!(s.next_deal().unwrap_err().kind, ErrorKind::NotAllowed);
    // An expression for eval is refused too, and leaves nothing behind.
    let mut s = Session::new();
    s.set_option("untrusted", "true").unwrap();
    s.set_option("seed", "1").unwrap();
    s.load_script(b"produce 1\n").unwrap();
    s.next_deal().unwrap().unwrap();
    let nodes = s.program.as_ref().unwrap().nodes.len();
    for _ in 0..3 {
        let e = s.eval("hcp(north) + opc(EW, spades)").unwrap_err();
        assert_eq!((e.kind, e.line, e.col), (ErrorKind::NotAllowed, Some(1), Some(14)));
        assert_eq!(s.compile_expression("opc(NS)").unwrap_err().kind, ErrorKind::NotAllowed);
    }
    assert_eq!(s.program.as_ref().unwrap().nodes.len(), nodes);
    assert!(s.eval("hcp(north)").is_ok());
}

#[test]
fn untrusted_refuses_usereval_through_a_dealer_server() {
    let script = "produce 1\nx = hcp(south)\ncondition x > 3 || usereval(1, NS, 2) > 0\naction printoneline\n";
    // Trusted, the DealerServer is started (and fails here: there is no such program).
    let (mut s, _) = captured(&[("server", "/nonexistent/DealerServer")], script);
    assert_eq!(s.run().unwrap_err().kind, ErrorKind::Run);
    // Untrusted, nothing is started: the call is refused at its place before any deal.
    let (mut s, out) = untrusted(&[("server", "/nonexistent/DealerServer")], script);
    let e = s.run().unwrap_err();
    assert_eq!((e.kind, e.line, e.col), (ErrorKind::NotAllowed, Some(3), Some(20)), "{e:?}");
    assert!(e.message.starts_with("usereval() is not allowed in an untrusted script"), "{}", e.message);
    assert!(text(&out).is_empty());
    assert_eq!(s.next_deal().unwrap_err().kind, ErrorKind::NotAllowed);
    s.next_deal().unwrap_err();
    assert_eq!(s.compile_expression("usereval(2, EW, 0)").unwrap_err().kind, ErrorKind::NotAllowed);
    // Set back to trusted, the same session starts the server again.
    s.set_option("untrusted", "false").unwrap();
    assert_eq!(s.run().unwrap_err().kind, ErrorKind::Run);
}

/// A `usereval` metric that answers 7 in every slot.
struct Sevens;

impl Metric for Sevens {
    fn evaluate(
        &mut self,
        _: &crate::external::usereval::Query,
        _: &crate::external::usereval::QueryContext,
        slots: &mut [i32; crate::external::usereval::SLOTS],
    ) -> Result<()> {
        slots.fill(7);
        Ok(())
    }
}

#[test]
fn untrusted_allows_an_in_process_usereval_metric() {
    let script = "produce 2\ncondition usereval(1, NS, 2) == 7\naction printes(usereval(3, west, spades, 1), \\n)\n";
    let (mut s, out) = untrusted(&[("seed", "1"), ("server", "/nonexistent/DealerServer")], script);
    s.set_in_process_metric(Some(Box::new(|| Box::new(Sevens) as Box<dyn Metric>)));
    let report = s.run().unwrap();
    assert_eq!((report.produced, report.ceiling), (2, None));
    assert!(text(&out).starts_with("7\n7\n"), "{}", text(&out));
    s.next_deal().unwrap().unwrap();
    assert_eq!(s.eval("usereval(4, south, 0)").unwrap(), 7);
    // opc stays refused.
    assert_eq!(s.eval("opc(NS)").unwrap_err().kind, ErrorKind::NotAllowed);
    // Without the metric, the same script is refused.
    s.set_in_process_metric(None);
    assert_eq!(s.run().unwrap_err().kind, ErrorKind::NotAllowed);
}
