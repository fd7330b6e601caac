"""Deals per second through the Python binding, beside the CLI and the Python peers.

For each condition of ``peers.CONDITIONS`` (the same condition text for every program) it
prints the produced deals per second of:

- the CLI (``target/release/dealer -R 1``, printing each deal with ``printoneline`` to a pipe);
- ``Session.deals()`` (a :class:`libdealer.Deal` object per deal);
- ``Session.evaluate()`` (the bulk call: two expressions per deal into a NumPy array);
- endplay's and redeal's own dealers with a Python predicate, when they are installed;

and the ratios to the CLI. Every program uses one thread. Each figure is the best of
``--rounds`` runs (default 3) sized to take about ``--seconds`` (default 1) each.

Run it with the interpreter the package is installed in: ``python bench/bench.py``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable, Dict, List, Optional

import libdealer

sys.path.insert(0, str(Path(__file__).resolve().parent))
import peers  # noqa: E402  (beside this file)

REPO = Path(__file__).resolve().parents[3]
CLI = REPO / "target" / "release" / "dealer"
EXPRESSIONS = ["hcp(north)", "spades(north)"]


def best_rate(run: Callable[[int], int], seconds: float, rounds: int) -> float:
    """Deals per second of ``run(n)`` (which returns the deals it produced): n is grown until
    a run takes ``seconds / 4``, then sized to ``seconds``; the best of ``rounds`` runs."""
    n = 100
    while True:
        started = time.perf_counter()
        run(n)
        took = time.perf_counter() - started
        if took >= seconds / 4 or n >= 100_000_000:
            break
        n *= 4
    n = max(1, int(n * seconds / max(took, 1e-6)))
    best = 0.0
    for _ in range(rounds):
        started = time.perf_counter()
        produced = run(n)
        best = max(best, produced / (time.perf_counter() - started))
    return best


def cli_runner(condition: str, folder: Path) -> Callable[[int], int]:
    """The CLI producing n deals of the condition, printed one per line to a pipe."""

    def run(n: int) -> int:
        script = folder / f"bench-{n}.dlr"
        script.write_text(f"generate 1000000000\ncondition {condition}\nproduce {n}\naction printoneline\n")
        done = subprocess.run([str(CLI), "-R", "1", "-s", "1", str(script)], capture_output=True, check=True)
        return sum(1 for line in done.stdout.splitlines() if line.startswith(b"n "))

    return run


def session_runner(condition: str, bulk: bool) -> Callable[[int], int]:
    """Session.deals() or Session.evaluate() producing n deals of the condition."""

    def run(n: int) -> int:
        session = libdealer.Session(f"generate 1000000000\ncondition {condition}\n", seed=1, threads=1)
        if bulk:
            return len(session.evaluate(EXPRESSIONS, n))
        return sum(1 for _ in session.deals(n))

    return run


def peer_rate(name: str, condition: str) -> float:
    """A peer's own dealer: its rate for the condition, at the size peers.MAIN_N gives."""
    rate_of = {"endplay": peers.endplay_rate, "redeal": peers.redeal_rate}[name]
    return rate_of(condition, peers.MAIN_N[name][condition])


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="length of one timed run")
    parser.add_argument("--rounds", type=int, default=3, help="timed runs per figure (best kept)")
    args = parser.parse_args(argv)
    if not CLI.exists():
        print(f"{CLI} is missing: run make first", file=sys.stderr)
        return 1
    installed = {name: version for name, version in peers.peer_versions().items() if version}
    print(f"libdealer {libdealer.__version__}; peers: "
          + (", ".join(f"{k} {v}" for k, v in installed.items()) or "none installed"))
    header = f"{'condition':<8} {'program':<24} {'deals/s':>12} {'vs CLI':>8}"
    print(header)
    print("-" * len(header))
    with tempfile.TemporaryDirectory() as folder:
        for name, (condition, _description) in peers.CONDITIONS.items():
            rows: Dict[str, float] = {}
            rows["CLI (printoneline)"] = best_rate(cli_runner(condition, Path(folder)), args.seconds, args.rounds)
            rows["Session.deals()"] = best_rate(session_runner(condition, False), args.seconds, args.rounds)
            rows["Session.evaluate() bulk"] = best_rate(session_runner(condition, True), args.seconds, args.rounds)
            for peer in installed:
                rows[f"{peer} (own dealer)"] = peer_rate(peer, name)
            cli = rows["CLI (printoneline)"]
            for program, rate in rows.items():
                print(f"{name:<8} {program:<24} {rate:>12,.0f} {rate / cli:>8.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
