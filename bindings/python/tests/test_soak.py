"""The soak test through the package (the C program is tests/soak/ of the repository): a few
threads serve random requests with the package's Session for LIBDEALER_SOAK_SECONDS (default
20): practice scripts (when ../shared is there), the C example, random valid scripts and hostile
ones under ``untrusted``, every generator and output format, some runs interrupted from another
thread, some dealt deal by deal with ``eval``. Every answer is compared with a reference run of
the same request done alone, in a fresh session on the same thread just before. Open descriptors
and threads must be back where they were, and the heap in use (glibc's mallinfo2) too once every
session is freed (no leak); the resident set's growth from the second quarter to the last is
asserted (at most 5 %) only in runs of 5 minutes or more: in a short run it follows the
allocator's warm-up."""

from __future__ import annotations

import ctypes
import gc
import os
import random
import threading
import time
from pathlib import Path
from typing import List, Tuple

import pytest

from libdealer import Interrupted, NotAllowedError, ScriptError, Session

from conftest import REPO, without_timing

SECONDS = float(os.environ.get("LIBDEALER_SOAK_SECONDS", "20"))
WORKERS = 4
GENERATORS = ("chacha", "drand48", "glibc")
FORMATS = ("script", "lin", "jsonl", "pbn")

# Hostile scripts and the error (or ceiling) each must give, every time.
HOSTILE = {
    "syntax-error": ("produce 2\ncondition hcp(north) &&& 3\n", ScriptError),
    "deep-sum": ("produce 2\ncondition hcp(north)" + "+hcp(south)" * 9000 + " > 10\n", ScriptError),
    "opc": ("produce 1\ncondition hcp(north) > 10 && opc(NS) > 100\n", NotAllowedError),
    "output-ceiling": ("produce 100000\naction printoneline\n", "output"),
}


def random_script(rng: random.Random) -> str:
    """A random valid script both dialects read."""
    seat = rng.choice(("north", "east", "south", "west"))
    terms = [f"hcp({seat}) >= {rng.randint(5, 16)}", f"spades({seat}) >= {rng.randint(3, 5)}",
             f"shape({seat}, any 4333 + any 4432 + any 5332)", f"losers({seat}) <= {rng.randint(6, 9)}"]
    condition = " && ".join(rng.sample(terms, rng.randint(1, 2)))
    action = rng.choice(("printoneline", "printall", 'printoneline, average "hcp" hcp(north)'))
    return f"condition {condition}\naction {action}\n"


def corpus() -> List[Tuple[str, str]]:
    """(class, script) pairs: practice, example, random."""
    scripts: List[Tuple[str, str]] = []
    practice = Path(os.environ.get("SHARED", REPO.parent / "shared")) / "parity" / "pbs" / "scripts"
    for path in sorted(practice.glob("*.dlr"))[:20]:
        scripts.append(("practice", path.read_text(encoding="utf-8", errors="replace")))
    scripts.append(("example", (REPO / "examples-c" / "example.dlr").read_text(encoding="utf-8")))
    rng = random.Random(38)
    scripts.extend(("random", random_script(rng)) for _ in range(30))
    return scripts


def run_alone(script: str, seed: int, generator: str, form: str, produce: int) -> List[str]:
    """The reference: the request run alone in a fresh session, one thread."""
    with Session(script, seed=seed, generator=generator, threads=1, produce=produce, untrusted=True,
                 options={"format": form, "max_generate": 200000, "pbn_date": "2026.01.01"}) as session:
        return without_timing(session.run().output)


class _MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in
                ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks",
                 "keepcost")]


def heap_in_use_kb() -> int:
    """Bytes malloc has handed out and not taken back (arenas and mmap'd blocks), in kB."""
    libc = ctypes.CDLL(None)
    libc.mallinfo2.restype = _MallInfo2
    info = libc.mallinfo2()
    return (info.uordblks + info.hblkhd) // 1024


def resident_kb() -> int:
    with open("/proc/self/statm", encoding="ascii") as statm:
        return int(statm.read().split()[1]) * (os.sysconf("SC_PAGESIZE") // 1024)


@pytest.mark.soak
def test_soak_through_the_package():
    scripts = corpus()
    lock = threading.Lock()
    failures: List[str] = []
    served = {"requests": 0, "interrupted": 0, "hostile": 0}
    run_alone(scripts[0][1], 1, "chacha", "pbn", 3)  # the package's one-time set-up, before measuring
    gc.collect()
    heap_before = heap_in_use_kb()
    deadline = time.monotonic() + SECONDS
    threads_before = threading.active_count()
    fds_before = len(os.listdir("/proc/self/fd"))
    samples: List[Tuple[float, int]] = []

    def serve(number: int) -> None:
        rng = random.Random(number)
        while time.monotonic() < deadline:
            try:
                if rng.random() < 0.15:
                    name = rng.choice(sorted(HOSTILE))
                    text, expected = HOSTILE[name]
                    options = {"max_generate": 200000}
                    if isinstance(expected, str):
                        with Session(text, seed=1, untrusted=True, options=options) as session:
                            result = session.run()
                        if result.ceiling != expected or not result.output.endswith("\n"):
                            failures.append(f"hostile {name}: ceiling {result.ceiling}")
                    else:
                        try:
                            # Refused when loaded (a script error, opc) or when run.
                            with Session(text, seed=1, untrusted=True, options=options) as session:
                                session.run()
                            failures.append(f"hostile {name}: no error")
                        except expected:
                            pass
                    with lock:
                        served["hostile"] += 1
                    continue
                _, script = rng.choice(scripts)
                seed = rng.randint(1, 4)
                key = (script, seed, rng.choice(GENERATORS), rng.choice(FORMATS), rng.choice((1, 3, 20)))
                expected_lines = run_alone(*key)
                session = Session(script, seed=seed, generator=key[2], threads=rng.randint(1, 2), produce=key[4],
                                  untrusted=True,
                                  options={"format": key[3], "max_generate": 200000, "pbn_date": "2026.01.01"})
                with session:
                    mode = rng.random()
                    if mode < 0.2:
                        timer = threading.Timer(rng.random() * 0.01, session.interrupter().interrupt)
                        timer.start()
                        try:
                            lines = without_timing(session.run().output)
                            if lines != expected_lines:
                                failures.append(f"differs from the reference: {key[1:]}")
                        except Interrupted as stop:
                            output = stop.result.output  # type: ignore[attr-defined]
                            if output and not output.endswith("\n") and set(output) - set("<>EOF"):
                                failures.append(f"interrupted mid-line: {key[1:]}")
                            if not "\n".join(expected_lines).startswith("\n".join(without_timing(output))):
                                failures.append(f"interrupted output is not a prefix: {key[1:]}")
                            with lock:
                                served["interrupted"] += 1
                        timer.join()
                    elif mode < 0.35:
                        # Deal by deal with eval: the same deals as a fresh session's.
                        values = [(deal.pbn(), session.eval("hcp(north)")) for deal in session.deals(3)]
                        with Session(script, seed=seed, generator=key[2], produce=key[4], untrusted=True,
                                     options={"max_generate": 200000}) as alone:
                            again = [(deal.pbn(), alone.eval("hcp(north)")) for deal in alone.deals(3)]
                        if values != again:
                            failures.append(f"eval differs: {key[1:]}")
                    else:
                        lines = without_timing(session.run().output)
                        if lines != expected_lines:
                            failures.append(f"differs from the reference: {key[1:]}")
                with lock:
                    served["requests"] += 1
            except Exception as error:  # noqa: BLE001 - every failure is reported with its request
                failures.append(f"{type(error).__name__}: {error}")

    workers = [threading.Thread(target=serve, args=(n,)) for n in range(WORKERS)]
    started = time.monotonic()
    for worker in workers:
        worker.start()
    while any(worker.is_alive() for worker in workers):
        samples.append((time.monotonic() - started, resident_kb()))
        time.sleep(0.25)
    for worker in workers:
        worker.join()

    assert not failures, failures[:10]
    assert served["requests"] > 0 and served["hostile"] > 0
    assert threading.active_count() == threads_before
    assert len(os.listdir("/proc/self/fd")) <= fds_before
    gc.collect()
    assert heap_in_use_kb() <= heap_before + 4096, (heap_before, heap_in_use_kb())
    total = samples[-1][0] if samples else 0
    second = [kb for t, kb in samples if total * 0.25 <= t <= total * 0.5]
    last = [kb for t, kb in samples if t >= total * 0.75]
    if second and last and SECONDS >= 300:
        # Medians: a leak moves them, a double-dummy table or a large output for a moment does not.
        assert sorted(last)[len(last) // 2] <= sorted(second)[len(second) // 2] * 1.05, (second, last)
