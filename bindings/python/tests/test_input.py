"""Reading deals from board records (``Session.set_input``, ``run(input=…)``): PBN records with
their double-dummy tables, files, deals, malformed records, ``verify_dd``, against the CLI's
``--input``."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from conftest import without_timing
from libdealer import Deal, DealerError, OptionError, RunError, Session, lib

READER = "action printoneline, average dds(north, notrump)\n"
# One-line records, line 2 malformed at column 75.
WITH_A_BAD_RECORD = (
    "n AKQJ.AKQ.AKQ.AKQ e T987.JT9.JT9.JT9 s 6543.876.876.876 w 2.5432.5432.5432\n"
    "n AKQJ.AKQ.AKQ.AKQ e T987.JT9.JT9.JT9 s 6543.876.876.876 w 2.5432.5432.543X\n"
    "w AKQJ.AKQ.AKQ.AKQ n T987.JT9.JT9.JT9 e 6543.876.876.876 s 2.5432.5432.5432\n"
)


@pytest.fixture(scope="module")
def boards():
    """Four deals (seed 3) as PBN records from board 5 on, with their double-dummy tables, and
    the deals themselves."""
    text = Session("produce 4\n", seed=3, options={"format": "pbn", "pbn_dd": True, "start_board": 5}).run().output
    deals = list(Session("produce 4\n", seed=3).deals())
    assert text.count("[OptimumResultTable ") == 4 and len(deals) == 4
    return text, deals


def test_pbn_records_go_through_the_script_and_their_tables_are_read(boards):
    text, deals = boards
    reader = Session(READER, seed=3, produce=4)
    result = reader.run(input=text)
    assert result.output.splitlines()[:4] == [deal.oneline() for deal in deals]
    assert (result.generated, result.produced) == (4, 4)
    assert result.input == {"name": "input data", "format": "pbn", "records_read": 4, "malformed_skipped": 0,
                            "off_predeal_skipped": 0, "dd_read": 4, "dd_verified": 0}
    assert (result.summary["dd"]["tables"], result.summary["dd"]["exact"]) == (0, 0)
    north_nt = [Session().dd_table(deal)["north", "NT"] for deal in deals]
    assert result.statistics[0]["mean"] == pytest.approx(sum(north_nt) / 4)
    # The records keep their boards: 5 to 8, dealers N E S W.
    boards_read = reader.run(input=text.encode("utf-8"), input_format="pbn")
    assert boards_read.input["format"] == "pbn"
    jsonl = Session(seed=3, input=text, options={"format": "jsonl"})
    jsonl.load("condition 1\n")
    lines = jsonl.run().output.splitlines()
    assert [line[:66] for line in lines[:2]] == [
        '{"schema":1,"type":"deal","board":5,"dealer":"N","vulnerable":"NS"',
        '{"schema":1,"type":"deal","board":6,"dealer":"E","vulnerable":"EW"',
    ]
    # The input was for those runs only: the session deals again (the same deals) and solves.
    dealt = reader.run()
    assert dealt.input is None and "input" not in dealt.summary
    assert dealt.output.splitlines()[:5] == result.output.splitlines()[:5]
    assert dealt.summary["dd"]["exact"] == 4


def test_a_file_is_a_path_and_a_str_is_text(boards, tmp_path, cli):
    text, deals = boards
    path = tmp_path / "boards.pbn"
    path.write_text(text, encoding="utf-8")
    session = Session(READER, seed=1, input=path)
    result = session.run()
    assert result.input["name"] == str(path) and result.input["dd_read"] == 4
    # The CLI's --input prints the same.
    assert without_timing(result.output) == without_timing(cli(READER, "-s", "1", f"--input={path}"))
    assert "Input " + str(path) + " (pbn): 4 records read, 4 double-dummy tables read" in result.output
    # A str is records, never a path: the path's text is a malformed one-line record.
    with pytest.raises(DealerError) as caught:
        session.run(input=str(path))
    assert caught.value.status == lib.DEALER_ERROR_IO
    assert str(caught.value).startswith("input data:1:")
    # A file object is read whole; the session's own input (the file) is back after each run.
    with open(path, "rb") as file:
        assert session.run(input=file).input["name"] == "input data"
    assert session.run().input["name"] == str(path)
    missing = tmp_path / "missing.pbn"
    with pytest.raises(DealerError) as caught:
        session.run(input=missing)
    assert caught.value.status == lib.DEALER_ERROR_IO and "missing.pbn" in str(caught.value)


def test_deals_are_read_as_one_line_records(boards):
    _, deals = boards
    session = Session("action printoneline\n", seed=2)
    given = [deals[0], deals[1].pbn(), "  " + deals[2].pbn() + "  "]
    result = session.run(input=given)
    assert result.output.splitlines()[:3] == [deal.oneline() for deal in deals[:3]]
    assert result.input["format"] == "oneline" and result.input["records_read"] == 3
    # deals(), next_deal() and evaluate() read the input set on the session.
    session.set_input(iter(deals))
    assert list(session.deals()) == deals
    assert session.next_deal() is None
    session.set_input(deals)
    assert session.evaluate(["hcp(north)"], 10).ravel().tolist() == [session.eval("hcp(north)", d) for d in deals]
    session.set_input(None)
    assert session.next_deal() not in (None, *deals)
    # An empty input has no records.
    empty = Session("action printoneline\n", input=b"").run()
    assert empty.produced == 0 and empty.input["records_read"] == 0
    with pytest.raises(TypeError):
        session.set_input(42)
    with pytest.raises(TypeError):
        session.set_input([deals[0], 7])


def test_a_malformed_record_stops_the_run_or_is_skipped():
    session = Session("action printoneline\n")
    with pytest.raises(DealerError) as caught:
        session.run(input=WITH_A_BAD_RECORD)
    assert caught.value.status == lib.DEALER_ERROR_IO
    assert "input data:2:75: 'X' is not a card rank" in str(caught.value)
    # The deal before it was written.
    assert caught.value.result.output == WITH_A_BAD_RECORD.splitlines()[0] + " \n"
    result = session.run(input=io.StringIO(WITH_A_BAD_RECORD), input_errors="skip")
    assert result.produced == 2
    assert result.output.splitlines()[1] == "n T987.JT9.JT9.JT9 e 6543.876.876.876 s 2.5432.5432.5432 w AKQJ.AKQ.AKQ.AKQ "
    assert result.diagnostics.startswith("skipped a malformed record: input data:2:75: ")
    assert (result.input["records_read"], result.input["malformed_skipped"]) == (3, 1)
    # input_errors was for that run only.
    with pytest.raises(DealerError):
        session.run(input=WITH_A_BAD_RECORD)
    with pytest.raises(OptionError):
        session.set_input(WITH_A_BAD_RECORD, format="csv")
    with pytest.raises(OptionError):
        Session(input_errors="ignore")


def test_verify_dd_solves_the_first_tables_again(boards):
    text, _ = boards
    session = Session(READER, seed=3)
    result = session.run(input=text, verify_dd=1)
    assert (result.input["dd_read"], result.input["dd_verified"]) == (3, 1)
    assert result.summary["dd"]["tables"] == 1
    # A table that disagrees with the solver stops the run, naming the record.
    row = text.index("\nN NT ") + 1
    tricks = int(text[row + 5:row + 7])
    wrong = text[:row + 5] + "%2d" % ((tricks + 1) % 14) + text[row + 7:]
    with pytest.raises(RunError) as caught:
        session.run(input=wrong, verify_dd=1)
    assert str(caught.value) == (
        "input data:1: verify_dd: the double-dummy table disagrees with the solver: "
        f"North in notrump: {(tricks + 1) % 14} in the input, {tricks} solved"
    )
    # Without verify_dd the table is read as it is.
    assert session.run(input=wrong).statistics[0]["mean"] != result.statistics[0]["mean"]
