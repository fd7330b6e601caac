"""One dealer job as parts on a Dask cluster (README "Scale-out: one job on many machines").

The job's deal numbers are cut into ``parts`` equal ranges; a Dask task deals each range into
a part file (the deals the part accepts, with their numbers and the double-dummy results their
actions read), and the client merges the parts into exactly what one run of the job prints:

>>> from dask.distributed import Client, LocalCluster
>>> from libdealer.distributed import run
>>> with LocalCluster(n_workers=4) as cluster, Client(cluster) as client:
...     result = run(client, pathlib.Path("par.dlr"), parts=16, seed=42, generate=400_000)
>>> print(result.output, end="")

Practice sets are cut the same way: ``level=True``, ``interleave=True`` and the scenarios of a
mix (``scenarios=[Scenario(text, name="1nt", weight=2), ...]``) give the one run's board set.

Each task sends its part file's bytes back to the client, so the workers need no folder in
common (a part file holds 40 bytes per accepted deal plus the script; a job of statistics
alone, the statistics' running state); with ``parts_dir`` the
tasks write their files there instead (a folder the workers and the client share) and only
the names travel. Dask schedules; libdealer only deals and merges. Dask is imported only by
the caller (``pip install libdealer[dask]``).
"""

from __future__ import annotations

import os
import tempfile
from typing import Any, List, Mapping, NamedTuple, Optional, Sequence, TextIO, Union

from .session import RunResult, Script, Session


class Scenario(NamedTuple):
    """A scenario of a mixed board set, as :meth:`Session.add_scenario` takes it: its script's
    text, the name its boards carry, and its weight or exact count of boards."""

    text: Union[str, bytes]
    name: str
    weight: float = 1.0
    count: Optional[int] = None


def deal_part(
    script: Union[str, bytes],
    index: int,
    parts: int,
    options: Mapping[str, Any],
    part_file: Optional[str] = None,
    scenarios: Sequence[Scenario] = (),
) -> Union[bytes, str]:
    """Deals part ``index`` (from 0) of ``parts`` of the job of ``script`` under ``options``
    (:class:`Session`'s keyword arguments; the seed must be fixed), mixing ``scenarios`` when
    given, into ``part_file`` and returns its name; without ``part_file``, into a temporary
    file whose bytes it returns. What a Dask task runs (any other engine may call it too)."""
    own = part_file is None
    if part_file is None:
        handle, part_file = tempfile.mkstemp(prefix="libdealer-", suffix=".part")
        os.close(handle)
    try:
        session = Session(script, **options)
        for scenario in scenarios:
            session.add_scenario(scenario.text, name=scenario.name, weight=scenario.weight, count=scenario.count)
        session.set_option("part", f"{index}/{parts}")
        session.set_option("part_file", part_file)
        session.run()
        session.close()
        if not own:
            return part_file
        with open(part_file, "rb") as file:
            return file.read()
    finally:
        if own:
            os.remove(part_file)


def run(
    client: Any,
    script: Script,
    *,
    parts: int,
    parts_dir: Union[str, "os.PathLike[str]", None] = None,
    scenarios: Sequence[Scenario] = (),
    output: Optional[TextIO] = None,
    diagnostics: Optional[TextIO] = None,
    csv: Optional[TextIO] = None,
    export: Optional[TextIO] = None,
    **options: Any,
) -> RunResult:
    """Runs the job of ``script`` (text, or a path read here) on the Dask cluster of
    ``client`` as ``parts`` parts and merges them here: the result is :meth:`Session.run`'s
    for one run of the job (its output, statistics and counters; the time is the parts'
    added up). ``options`` are :class:`Session`'s keyword arguments (``seed`` is required:
    every part deals with it); ``scenarios`` make it a mixed board set. A failing part raises
    its error here, and nothing is merged.
    The streams are :meth:`Session.run`'s."""
    if parts < 1:
        raise ValueError("parts must be 1 or more")
    if isinstance(script, os.PathLike):
        with open(script, "rb") as file:
            script = file.read()
    from dask.distributed import as_completed  # the caller has Dask: it passed a client

    names: List[Optional[str]] = [None] * parts
    if parts_dir is not None:
        names = [os.path.join(os.fspath(parts_dir), f"part-{k}.bin") for k in range(parts)]
    futures = [
        client.submit(deal_part, script, k, parts, dict(options), names[k], tuple(scenarios), pure=False)
        for k in range(parts)
    ]
    where = {future.key: k for k, future in enumerate(futures)}
    with tempfile.TemporaryDirectory(prefix="libdealer-parts-") as folder:
        paths: List[str] = [""] * parts
        # Each part is written down as it arrives and released: the client holds one at a time.
        for future in as_completed(futures):
            k = where[future.key]
            value = future.result()
            if isinstance(value, bytes):
                paths[k] = os.path.join(folder, f"part-{k}.bin")
                with open(paths[k], "wb") as file:
                    file.write(value)
            else:
                paths[k] = value
            future.release()
        merger = Session()
        for path in paths:
            merger.add_part(path)
        result = merger.run(output=output, diagnostics=diagnostics, csv=csv, export=export)
        merger.close()
        return result


__all__ = ["Scenario", "deal_part", "run"]
