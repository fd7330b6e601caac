"""One job as parts on a Dask cluster (``libdealer.distributed``): a LocalCluster with worker
processes deals the parts, the client merges them, and the result is byte for byte one run of
the job (the "Time needed" line aside) — with the part files sent back to the client, and
written to a folder the workers share; a part that fails raises its error on the client."""

from __future__ import annotations

from pathlib import Path

import pytest
from dask.distributed import Client, LocalCluster

from libdealer import OptionError, Session, UsageError
from libdealer.distributed import Scenario, deal_part, run

from conftest import without_timing

STATISTICS = "condition hcp(north) >= 15 and hcp(south) >= 8\nproduce 400\naction printoneline, average \"south\" hcp(south), frequency \"spades\" (spades(north), 0, 13)\n"
DOUBLE_DUMMY = "condition hcp(north) + hcp(south) >= 26\nproduce 6\naction printes(dds(south, notrump), \"\\n\"), printpbn\n"


@pytest.fixture(scope="module")
def client():
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with Client(cluster) as client:
            yield client


def test_parts_on_dask_merge_to_one_run(client: Client, tmp_path: Path) -> None:
    for script, options in ((STATISTICS, {"seed": 5, "generate": 3000}), (DOUBLE_DUMMY, {"seed": 2, "generate": 200})):
        one = Session(script, **options).run()
        assert one.produced > 0
        merged = run(client, script, parts=4, **options)
        assert without_timing(merged.output) == without_timing(one.output)
        assert (merged.generated, merged.produced) == (one.generated, one.produced)
        shared = run(client, script, parts=3, parts_dir=tmp_path, **options)
        assert without_timing(shared.output) == without_timing(one.output)
        assert sorted(p.name for p in tmp_path.iterdir()) == ["part-0.bin", "part-1.bin", "part-2.bin"]
        for path in tmp_path.iterdir():
            path.unlink()


LADDER = """HandType_weak = hcp(south) >= 6 and hcp(south) <= 9
HandType_invite = hcp(south) >= 10 and hcp(south) <= 12
HandType_game = hcp(south) >= 13
condition hcp(north) >= 15 and hcp(north) <= 17 and shape(north, any 4333 + any 4432 + any 5332)
action printoneline
"""


def test_practice_sets_on_dask_merge_to_one_run(client: Client) -> None:
    # A levelled set: each hand type dealt in its quota, interleaved.
    one = Session(LADDER, seed=3, produce=30, level=True).run()
    merged = run(client, LADDER, parts=3, seed=3, produce=30, level=True)
    assert without_timing(merged.output) == without_timing(one.output)
    assert merged.output.count("\n") >= 30
    # A mix of two scenarios, one of them levelled, in one board set.
    mix = (Scenario(LADDER, "ladder", count=12), Scenario("condition hcp(west) >= 19\n", "strong", weight=1))
    records = {"format": "jsonl"}
    with Session("", seed=4, produce=20, level=True, options=records) as session:
        for scenario in mix:
            session.add_scenario(scenario.text, name=scenario.name, weight=scenario.weight, count=scenario.count)
        one = session.run()
    merged = run(client, "", parts=2, scenarios=mix, seed=4, produce=20, level=True, options=records)
    assert without_timing(merged.output) == without_timing(one.output)
    assert one.output.count('"scenario":"strong"') == 8


def test_errors_cross_processes_whole() -> None:
    import pickle

    with pytest.raises(OptionError) as caught:
        Session(options={"part": "2/2"})
    copy = pickle.loads(pickle.dumps(caught.value))
    assert (type(copy), copy.status, copy.message, copy.line) == (OptionError, caught.value.status, caught.value.message, None)
    assert "numbered 0 to N-1" in str(copy)


def test_a_failing_part_raises_on_the_client(client: Client) -> None:
    with pytest.raises(UsageError, match="same seed"):
        run(client, STATISTICS, parts=2, generate=1000)
    with pytest.raises(OptionError):
        deal_part(STATISTICS, 2, 2, {"seed": 1})
