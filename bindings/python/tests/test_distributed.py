"""One job as parts on a Dask cluster (``libdealer.distributed``): a LocalCluster with worker
processes deals the parts, the client merges them, and the result is byte for byte one run of
the job (the "Time needed" line aside) — with the part files sent back to the client, and
written to a folder the workers share; a part that fails raises its error on the client."""

from __future__ import annotations

from pathlib import Path

import pytest
from dask.distributed import Client, LocalCluster

from libdealer import OptionError, Session, UsageError
from libdealer.distributed import deal_part, run

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
