"""The Pythonic layer against the C ABI and the CLI: dealing, evaluation, bulk arrays, runs,
double dummy, errors with positions, callbacks and the session's life."""

from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path

import numpy
import pytest

from conftest import without_timing
from libdealer import (
    Deal,
    DealerError,
    Interrupted,
    OptionError,
    RunError,
    ScriptError,
    Session,
    UsageError,
)

OPENER = "condition hcp(north) >= 15 && spades(north) >= 5\n"


def test_deals_are_those_of_next_deal_and_eval_sees_each():
    one = Session(OPENER, seed=7)
    singles = [one.next_deal() for _ in range(50)]
    many = Session(OPENER, seed=7)
    seen = []
    for deal in many.deals(50, batch=16):
        seen.append(deal)
        # Inside the loop, eval reads the deal just yielded, not the batch's last one.
        assert many.eval("hcp(north)") == one.eval("hcp(north)", deal)
        assert many.eval("spades(north)") >= 5
    assert seen == singles
    assert all(d.is_complete() for d in seen)


def test_bulk_values_equal_evaluation_deal_by_deal():
    exprs = ["hcp(north)", "spades(north) * 10 + hearts(south)", "shape(north, any 5332)"]
    bulk = Session(OPENER, seed=11)
    values, hands = bulk.evaluate(exprs, 2000, return_deals=True)
    assert values.shape == (2000, 3) and values.dtype == numpy.int32
    assert hands.shape == (2000, 4) and hands.dtype == numpy.uint64
    check = Session(OPENER, seed=11)
    for row, masks in zip(values[:200], hands[:200]):
        deal = check.next_deal()
        assert Deal(masks) == deal
        assert list(row) == [check.eval(e) for e in exprs]
    assert values[:, 0].min() >= 15 and values[:, 1].min() >= 50
    # The shape column is a truth value with a plausible frequency.
    assert set(numpy.unique(values[:, 2])) <= {0, 1}


def test_bulk_stops_at_the_produce_limit():
    s = Session("condition hcp(north) > 10\nproduce 30\n", seed=1)
    assert s.evaluate(["hcp(north)"], 100).shape == (30, 1)
    assert s.evaluate(["hcp(north)"], 100).shape == (0, 1)
    assert s.next_deal() is None
    assert list(Session("produce 5\ncondition 1", seed=2).deals()) == list(Session("produce 5\ncondition 1", seed=2).deals(9))


def test_bulk_failure_keeps_the_rows_before_it():
    s = Session("condition 1\n", seed=5)
    with pytest.raises(RunError) as caught:
        s.evaluate(["hcp(north)", "10 / (hcp(north) - 10)"], 5000)
    kept = caught.value.values
    assert 0 < len(kept) < 5000
    assert (kept[:, 0] != 10).all()
    assert "zero" in str(caught.value).lower()


def test_run_prints_what_the_cli_prints(cli):
    script = "condition hcp(south) >= 12\nproduce 4\naction printoneline, average hcp(north)\n"
    for generator, args in (("chacha", []), ("drand48", ["--rng=drand48"]), ("glibc", ["--rng=glibc"])):
        result = Session(script, seed=9, generator=generator).run()
        expected = cli(script, "-s", "9", *args)
        assert without_timing(result.output) == without_timing(expected)
        assert (result.generated, result.produced, result.seed) == (result.generated, 4, 9)
        assert result.generated >= 4


def test_the_summary_holds_the_statistics_intervals_and_a_lead_table(cli):
    script = "generate 5000\naction average hcp(north), frequency (hcp(north) >= 12 ? 1 : 0, 0, 1)\n"
    result = Session(script, seed=3, precision=0.5).run()
    assert result.summary["produced"] == result.produced < 5000
    assert result.summary["precision"]["reached"] and result.summary["precision"]["widest"] <= 0.5
    average, table = result.statistics
    assert average["type"] == "average" and average["low"] < average["mean"] < average["high"]
    assert [cell["value"] for cell in table["cells"]] == ["low", 0, 1, "high"]
    assert sum(cell["count"] for cell in table["cells"]) == result.produced
    # The same object the CLI prints with --json-summary.
    printed = [line for line in cli(script, "-s", "3", "--precision=0.5", "--json-summary").splitlines()
               if line.startswith('{"schema"')]
    assert {k: v for k, v in json.loads(printed[0]).items() if k != "seconds"} == \
        {k: v for k, v in result.summary.items() if k != "seconds"}
    lead = ("predeal west SKJ74, HQ3, D9862, CJ75\ncondition hcp(north) + hcp(south) >= 32\n"
            "produce 3\naction leads(west, notrump, 12)\n")
    result = Session(lead, seed=5).run()
    (table,) = result.leads
    assert (table["leader"], table["contract"], table["deals"]) == ("west", "6NT", 3)
    assert [row["cards"] for row in table["leads"]][:5] == ["SK", "SJ", "S7", "S4", "HQ"]
    assert result.summary["dd"]["leads"] == 3
    assert len(table["imps"]) == len(table["leads"]) == len(table["matchpoints"][0])


def test_run_to_a_file_object_and_pbn_deals(cli, tmp_path):
    script = "produce 3\naction printpbn\n"
    path = tmp_path / "out.pbn"
    with open(path, "w", encoding="utf-8") as out:
        result = Session(script, seed=4).run(output=out)
    assert result.output == "" and result.produced == 3
    text = path.read_text(encoding="utf-8")
    expected = cli(script, "-s", "4")
    # The event names the script file: a text has none, the CLI's has its path.
    assert "with file (null)" in text
    def events_apart(lines):
        return [line for line in without_timing(lines) if not line.startswith("[Event ")]

    assert events_apart(text) == events_apart(expected)
    script_file = tmp_path / "three.dlr"
    script_file.write_text(script, encoding="utf-8")
    assert f"with file {script_file}," in Session(script_file, seed=4).run().output
    deals = [Deal.from_pbn(line.split('"')[1]) for line in text.splitlines() if line.startswith("[Deal ")]
    assert deals == [d for d in Session("condition 1", seed=4).deals(3)]


def test_classic_dialect_and_variables():
    classic = Session("condition hcp(north) >= 10\nproduce 2\naction printoneline\n", seed=3, generator="glibc")
    assert classic.run().output.startswith("n ")
    v2 = Session("condition hcp(north) >= $0\n", seed=3, variables=["22"])
    assert all(v2.eval("hcp(north)", d) >= 22 for d in v2.deals(5))
    predealt = Session("condition 1\n", seed=3, predeal={"south": "SAKQJ"})
    assert all("SA" in d.cards("south") for d in predealt.deals(5))


def test_errors_carry_line_column_and_summary():
    with pytest.raises(ScriptError) as caught:
        Session("produce 3\ncondition hcp(north) &&& 3\n")
    e = caught.value
    assert (e.line, e.column, e.summary) == (2, 24, "line 2: syntax error")
    assert "condition hcp(north) &&& 3" in e.message and e.exit_code == 255
    # A misspelled function: the exception's text names it and the nearest function.
    with pytest.raises(ScriptError) as caught:
        Session("condition shpae(south, any 4333)\n")
    assert str(caught.value).startswith("line 1, column 11: unknown function 'shpae' (did you mean 'shape'?)\n")
    assert caught.value.summary == "line 1: unknown variable"
    s = Session(OPENER, seed=1)
    s.next_deal()
    with pytest.raises(ScriptError) as caught:
        s.eval("hcp(north) + nosuchvar")
    assert caught.value.line == 1
    with pytest.raises(OptionError):
        s.set_option("rng", "mersenne")
    with pytest.raises(ValueError):
        Session(generator="chacha", predeal={"middle": "SA"})
    with pytest.raises(UsageError):
        Session().next_deal()


def test_pbn_both_ways():
    for deal in Session("condition 1", seed=21).deals(20):
        assert Deal.from_pbn(deal.pbn()) == deal
        assert Deal.from_pbn(deal.pbn().lower()) == deal
    east_first = Deal.from_pbn("E:AKQJT98765432... - - -")
    assert east_first.hand("east") == "AKQJT98765432..." and not east_first.is_complete()
    with pytest.raises(UsageError) as caught:
        Deal.from_pbn("N:AK.Q.J.T QX.. - -")
    assert (caught.value.line, caught.value.column) == (1, 13)
    assert "unexpected character 'X'" in str(caught.value)
    s = Session("condition 1")
    with pytest.raises(UsageError, match="52 cards"):
        s.set_deal(east_first)


def test_set_deal_and_eval_on_a_given_deal():
    deal = Deal.from_pbn("N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432")
    s = Session("condition 1")
    assert s.eval("hcp(north)", deal) == 37
    assert s.eval("spades(west)") == 1  # the deal stays current
    assert s.eval("shape(north, 4333)") == 1


def test_double_dummy_table_and_par():
    deal = Deal.from_pbn("N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432")
    s = Session("condition 1")
    table = s.dd_table(deal, vulnerability="none")
    assert table["north", "NT"] == 13 and table["east", "spades"] == 0
    assert table.par_score == 1520 and "7N" in table.par_contract
    assert table.as_array().shape == (4, 5)
    # The same numbers as the script's dds() on the same deal.
    s.set_deal(deal)
    assert s.eval("dds(south, hearts)") == table["south", "hearts"]
    dealt = Session(OPENER, seed=3)
    first = dealt.next_deal()
    assert dealt.dd_table().tricks == Session("condition 1").dd_table(first).tricks


def test_usereval_metric_in_python():
    def metric(query, deal, stats):
        # Result 0: the side's combined HCP; result 1: the tag.
        seats = (0, 2) if query.side == 0 else (1, 3)
        return [sum(stats[i].total_hcp for i in seats), query.tag]

    s = Session("condition usereval(3, NS, 0) >= 26 && usereval(3, NS, 1) == 3\n", seed=8)
    s.set_usereval(metric)
    for deal in s.deals(5):
        assert s.eval("hcp(north) + hcp(south)") >= 26

    def broken(query, deal, stats):
        raise KeyError("from the metric")

    s.set_usereval(broken)
    with pytest.raises(KeyError, match="from the metric"):
        s.next_deal()


def test_interrupt_from_another_thread():
    s = Session("generate 1000000000\nproduce 1000000000\ncondition hcp(north) > 40\n", seed=1)
    stopper = s.interrupter()
    timer = threading.Timer(0.3, stopper.interrupt)
    started = time.monotonic()
    timer.start()
    with pytest.raises(Interrupted):
        s.run()
    assert time.monotonic() - started < 5


def test_output_callback_exception_stops_the_run():
    class Full:
        def write(self, text):
            raise OSError("disk full")

    with pytest.raises(OSError, match="disk full"):
        Session("produce 5\naction printoneline\n", seed=1).run(output=Full())


def test_close_twice_and_use_after_close():
    s = Session("condition 1")
    with s:
        s.next_deal()
    s.close()
    with pytest.raises(ValueError, match="closed"):
        s.next_deal()


def test_seed_read_back_reproduces_a_random_run():
    s = Session("condition 1", seed=0)
    first = list(s.deals(3))
    again = Session("condition 1", seed=s.seed)
    assert list(again.deals(3)) == first


def test_threads_do_not_change_the_deals():
    one = Session(OPENER, seed=13, threads=1).evaluate(["hcp(north)"], 300, return_deals=True)
    two = Session(OPENER, seed=13, threads=2).evaluate(["hcp(north)"], 300, return_deals=True)
    assert (one[0] == two[0]).all() and (one[1] == two[1]).all()


def test_every_export_and_constant_is_reachable(header_text):
    import re

    import libdealer

    functions = set(re.findall(r"\b(dealer_[a-z_0-9]+)\(", header_text))
    constants = set(re.findall(r"#define (DEALER_[A-Z_0-9]+) -?\d", header_text))
    assert len(functions) >= 36 and len(constants) >= 30
    missing = sorted(name for name in functions | constants if not hasattr(libdealer.lib, name))
    assert missing == []
    assert libdealer.lib.DEALER_ERROR_SCRIPT == -1


def test_errors_are_dealer_errors():
    assert issubclass(ScriptError, DealerError) and issubclass(Interrupted, DealerError)


def test_check_bbo_lists_what_bbo_rejects():
    session = Session()
    errors, lines = session.check_bbo("produce 1 # x\ncondition dds(north, spades) > 9\n")
    assert errors == 2
    assert lines[0].startswith("1:11: error: `#` not in column 1")
    assert lines[1] == "2:11: error: `dds` is DealerV2 only"
    assert session.check_bbo("condition 1\n") == (0, [])


LADDER = Path(os.environ["LIBDEALER_REPO"]) / "examples" / "levelling" / "nt_ladder.dlr"
RESPONSES = Path(os.environ["LIBDEALER_REPO"]) / "examples" / "levelling" / "responses.dlr"


def test_level_gives_exact_quotas():
    result = Session(LADDER, seed=3, produce=100, level=True, options={"format": "jsonl"}).run()
    types = [json.loads(line)["hand_type"] for line in result.output.splitlines() if '"type":"deal"' in line]
    assert sorted(set(types)) == ["12_14", "15_17", "18_19", "20_21", "22_24"]
    assert all(types.count(t) == 20 for t in set(types))


def test_write_leveled(tmp_path):
    out = tmp_path / "levelled.dlr"
    result = Session(LADDER, seed=1).write_leveled(out)
    assert "wrote" in result.diagnostics and result.produced == 0
    assert "level_22_24 = HandType_22_24\n" in out.read_text()


def test_mix_scenarios_by_count_and_weight():
    s = Session(seed=5, produce=12, options={"format": "jsonl"})
    s.add_scenario(LADDER, count=4)
    s.add_scenario(RESPONSES.read_text(), name="responses", weight=1)
    boards = [json.loads(line) for line in s.run().output.splitlines() if '"type":"deal"' in line]
    assert [b["board"] for b in boards] == list(range(1, 13))
    assert sum(b["scenario"] == "nt_ladder.dlr" for b in boards) == 4
    assert sum(b["scenario"] == "responses" for b in boards) == 8
    with pytest.raises(ScriptError, match="in scenario broken"):
        s.add_scenario("condition hcp(north) >", name="broken")
    s.clear_scenarios()


def test_a_run_error_keeps_its_message_and_place():
    # Read before the output streams are put back (which clears the session's last error).
    with pytest.raises(RunError) as caught:
        Session("x = 0\ncondition hcp(north) / x > 1\n", seed=1, produce=1).run()
    assert "division by zero" in caught.value.message and caught.value.line == 2
