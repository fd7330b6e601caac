#!/usr/bin/env python3
"""Levelled practice sets: libdealer's `--level` against the `--write-leveled` file run by
classic dealer (part of `make bench`; a command, not a test).

For every workload (the levelling examples, examples/levelling/*.dlr, and the scripts of
tests/bench/levelling/*.dlr, none chosen by how it performs):

1. `dealer --write-leveled` writes the levelled file (its natural shares, counted or measured,
   give the rarest type's share);
2. classic dealer (/usr/games/dealer) runs that file for `--produce` deals: deals dealt per
   deal kept is its Generated / Produced, and produced per CPU second;
3. `dealer --level` deals the same number of boards in exact quotas: the same two numbers.

Printed: one row per workload with both programs' deals dealt per deal kept and produced/s and
their ratios, then the target of issue 33 — at least 10x fewer deals dealt wherever a type is
rarer than 1 in 50 — with PASS/MISS per such workload. CPU time is the child's user + system
time (wait4), start-up included. `--quick`: 200 boards.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

TOP = Path(__file__).resolve().parent.parent


def run(command: list[str]) -> tuple[str, float]:
    """Runs `command`; returns its standard output and its CPU seconds."""
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) as child:
        out = child.stdout.read() if child.stdout else ""
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({child.returncode}): {out[-300:]}")
    return out, usage.ru_utime + usage.ru_stime


def counts(output: str) -> tuple[int, int]:
    """Generated and produced, from the end-of-run statistics."""
    generated = int(re.search(r"^Generated\s+(\d+) hands", output, re.M).group(1))
    produced = int(re.search(r"^Produced\s+(\d+) hands", output, re.M).group(1))
    return generated, produced


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--produce", type=int, default=2000)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--classic", default="/usr/games/dealer")
    args = parser.parse_args()
    produce = 200 if args.quick else args.produce
    cli = os.environ.get("DEALER_CLI", str(TOP / "target" / "release" / "dealer"))
    if not Path(args.classic).exists():
        print(f"NOT RUN: {args.classic} is not installed")
        return 1 if os.environ.get("CI") == "true" else 0
    workloads = sorted((TOP / "examples" / "levelling").glob("*.dlr")) + sorted((TOP / "tests" / "bench" / "levelling").glob("*.dlr"))
    print(f"Levelled practice sets, {produce} boards: classic dealer running the --write-leveled file against --level")
    header = f"{'workload':<16} {'rarest':>8} {'classic dealt/kept':>19} {'--level dealt/kept':>19} {'ratio':>7} {'classic /s':>11} {'--level /s':>11} {'ratio':>7}"
    print(header)
    print("-" * len(header))
    verdicts = []
    with tempfile.TemporaryDirectory() as work:
        for script in workloads:
            levelled = Path(work) / f"{script.stem}.leveled.dlr"
            run([cli, "-s", "1", "--write-leveled", str(levelled), str(script)])
            rows = re.findall(r"^# (\S+)\s+([0-9.]+)\s+[0-9.]+\s+[0-9.]+\s+\d+$", levelled.read_text(), re.M)
            rarest = min(float(n) for _, n in rows)
            out, classic_cpu = run([args.classic, "-s", "1", "-q", "-p", str(produce), str(levelled)])
            classic_generated, classic_produced = counts(out)
            out, level_cpu = run([cli, "-s", "1", "-q", "--level", "-p", str(produce), str(script)])
            level_generated, level_produced = counts(out)
            classic_dealt = classic_generated / classic_produced
            level_dealt = level_generated / level_produced
            classic_rate = classic_produced / max(classic_cpu, 1e-3)
            level_rate = level_produced / max(level_cpu, 1e-3)
            print(
                f"{script.stem:<16} {rarest:>8.4f} {classic_dealt:>19.1f} {level_dealt:>19.2f} {classic_dealt / level_dealt:>6.1f}x"
                f" {classic_rate:>11,.0f} {level_rate:>11,.0f} {level_rate / classic_rate:>6.1f}x"
            )
            if rarest < 1 / 50:
                verdicts.append((script.stem, rarest, classic_dealt / level_dealt))
    print()
    print("Target (issue 33): at least 10x fewer deals dealt per deal kept where a type is rarer than 1 in 50")
    missed = 0
    for name, rarest, ratio in verdicts:
        verdict = "PASS" if ratio >= 10 else "MISS"
        missed += verdict == "MISS"
        print(f"  {verdict} {name}: rarest type 1 in {1 / rarest:,.0f}, {ratio:.1f}x fewer deals dealt")
    return 0


if __name__ == "__main__":
    sys.exit(main())
