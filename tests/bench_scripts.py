#!/usr/bin/env python3
"""Benchmark on real practice scripts (part of `make bench`; a command, not a test).

Runs every script of ../shared/parity/pbs/scripts (Bridge Base Online practice scripts) whose
classic-dealer run of the chosen produce count (`--produce`, default 200) takes at least
`--min-cpu` CPU seconds (default 0.5), plus today's workloads (tests/bench/*.dl, at their own
counts), under:

- classic dealer (Debian's `dealer`, /usr/games/dealer);
- DealerV2 4.3.3, when `--dealerv2` / $DEALERV2 names its binary (built from its public source
  in a scratch folder; never part of this repository);
- libdealer's CLI: ChaCha (plain dealing, `--smart=off`; tests/bench_smart.py measures smart
  dealing), drand48 (DealerV2's deals) and glibc (classic dealer's deals) with one thread, and
  ChaCha with two threads;
- Dealer3, when `--dealer3` / $DEALER3 names its binary.

For each it prints deals generated per CPU second (user + system time of the process, so a
busy machine changes the figures less than wall time would), the ratios (ChaCha and glibc
against classic dealer, drand48 against DealerV2), their median and minimum over the scripts,
and the two-thread speed-up (wall time of `-R 1` over `-R 2`, the best of two runs of each
within a round; a pbs script produces `--thread-produce` deals here, default 2000, so that the
runs measure dealing rather than start-up). Each figure is the median over `--rounds` rounds (default 3; $RUNS), and each
ratio the median of the ratios measured within one round. Modes that deal the same deals as a
peer must generate the same number of deals: a difference is marked `!`.

Instructions per generated deal for the three heaviest scripts (by classic CPU time) come from
`perf stat` where the machine supports it, else from valgrind's callgrind (on `--count-produce`
deals, default 10).
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

TOP = Path(__file__).resolve().parents[1]
CLI = TOP / "target" / "release" / "dealer"
GENERATED = re.compile(rb"Generated\s+(\d+)")
PRODUCED = re.compile(rb"Produced\s+(\d+)")


@dataclass
class Sample:
    """One run: deals generated, CPU seconds, wall seconds and (when printed) deals produced."""

    generated: int
    cpu: float
    wall: float
    produced: int = 0

    @property
    def rate(self) -> float:
        """Deals generated per CPU second."""
        return self.generated / max(self.cpu, 1e-6)


@dataclass
class Program:
    """A program under test: a label and how to start it on a script."""

    label: str
    command: List[str]


@dataclass
class Script:
    """A script and the extra arguments every program gets for it."""

    path: Path
    args: List[str]
    dialect: str
    samples: Dict[str, List[Sample]] = field(default_factory=dict)
    speedups: List[float] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.path.stem


@dataclass
class Finished:
    """A child run to its end: exit status, what it wrote, CPU and wall seconds."""

    status: int
    out: bytes
    err: bytes
    cpu: float
    wall: float


def run_child(command: Sequence[str], timeout: float = 600, cpu_cap: Optional[float] = None,
              keep_err: bool = False) -> Optional[Finished]:
    """Runs a command to the end (killed after `timeout` wall seconds, or by RLIMIT_CPU after
    `cpu_cap` CPU seconds): its status, output and the CPU time of that child alone (wait4);
    None when it could not start. Standard error is read only with `keep_err`."""
    started = time.perf_counter()

    def limit() -> None:
        if cpu_cap is not None:
            seconds = max(1, int(cpu_cap + 0.999))
            resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 1))

    try:
        child = subprocess.Popen(list(command), stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE if keep_err else subprocess.DEVNULL,
                                 preexec_fn=limit if cpu_cap is not None else None)
    except OSError:
        return None
    timer = threading.Timer(timeout, child.kill)
    timer.start()
    err = [b""]
    reader = None
    if keep_err:
        assert child.stderr is not None
        reader = threading.Thread(target=lambda: err.__setitem__(0, child.stderr.read()))
        reader.start()
    assert child.stdout is not None
    out = child.stdout.read()
    child.stdout.close()
    if reader:
        reader.join()
        child.stderr.close()
    _, status, usage = os.wait4(child.pid, 0)
    timer.cancel()
    child.returncode = os.waitstatus_to_exitcode(status)
    return Finished(child.returncode, out, err[0], usage.ru_utime + usage.ru_stime,
                    time.perf_counter() - started)


def run(command: Sequence[str], timeout: float = 600, cpu_cap: Optional[float] = None) -> Optional[Sample]:
    """Runs a command to the end: its sample (the CPU time of that child alone, from wait4), or
    None when it failed, timed out, went over `cpu_cap` CPU seconds or printed no count of
    generated deals."""
    done = run_child(command, timeout, cpu_cap)
    if done is None:
        return None
    match = GENERATED.search(done.out)
    if done.status != 0 or not match:
        return None
    produced = PRODUCED.search(done.out)
    return Sample(int(match.group(1)), done.cpu, done.wall, int(produced.group(1)) if produced else 0)


def peer_or_none(path: Optional[str]) -> Optional[str]:
    """The path when it names an executable file."""
    return path if path and os.access(path, os.X_OK) else None


def instructions(command: Sequence[str]) -> Optional[Tuple[int, int]]:
    """(instructions, deals generated) of one run: perf stat when supported, else callgrind."""
    perf = shutil.which("perf")
    if perf:
        probe = subprocess.run([perf, "stat", "-x,", "-e", "instructions", "true"], capture_output=True, text=True)
        if probe.returncode == 0 and "not supported" not in probe.stderr:
            done = subprocess.run([perf, "stat", "-x,", "-e", "instructions", *command], capture_output=True)
            count = re.search(rb"^(\d+),[^,]*,instructions", done.stderr, re.M)
            deals = GENERATED.search(done.stdout)
            if count and deals:
                return int(count.group(1)), int(deals.group(1))
    valgrind = shutil.which("valgrind")
    if not valgrind:
        return None
    done = subprocess.run(
        [valgrind, "--tool=callgrind", "--callgrind-out-file=/dev/null", *command], capture_output=True
    )
    count = re.search(rb"Collected\s*:\s*(\d+)", done.stderr)
    deals = GENERATED.search(done.stdout)
    if done.returncode != 0 or not count or not deals:
        return None
    return int(count.group(1)), int(deals.group(1))


def median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else float("nan")


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    shared = TOP.parent / "shared"
    parser.add_argument("--scripts", type=Path, default=shared / "parity" / "pbs" / "scripts")
    parser.add_argument("--produce", type=int, default=200, help="deals each pbs script produces")
    parser.add_argument("--min-cpu", type=float, default=0.5, help="classic CPU seconds a pbs script needs")
    parser.add_argument("--rounds", type=int, default=int(os.environ.get("RUNS", "3")))
    parser.add_argument("--classic", default=os.environ.get("DEALER_ORACLE", "/usr/games/dealer"))
    parser.add_argument("--dealerv2", default=os.environ.get("DEALERV2"))
    parser.add_argument("--dealer3", default=os.environ.get("DEALER3"))
    parser.add_argument("--count-produce", type=int, default=10, help="produce count of the instruction counts")
    parser.add_argument("--no-count", action="store_true", help="skip the instruction counts")
    parser.add_argument("--only", nargs="*", default=None, help="only these script names (testing the bench)")
    parser.add_argument("--thread-produce", type=int, default=2000,
                        help="deals each pbs script produces in the two-thread comparison")
    parser.add_argument("--threads-only", action="store_true",
                        help="only the two-thread comparison (and the selection by classic's time)")
    args = parser.parse_args(argv)

    classic = peer_or_none(args.classic)
    if not classic or not CLI.exists():
        print(f"needs classic dealer ({args.classic}: apt-get install dealer) and {CLI} (make)", file=sys.stderr)
        return 1
    dealerv2 = peer_or_none(args.dealerv2)
    dealer3 = peer_or_none(args.dealer3)

    def programs(script: Script, counts: Optional[List[str]] = None) -> List[Program]:
        """The programs on a script, with its counts (or the ones given)."""
        counts = script.args if counts is None else counts
        ours = [str(CLI), f"--dialect={script.dialect}", "-s", "1", *counts]
        listed = [Program("classic", [classic, "-s", "1", *counts])]
        if dealerv2:
            listed.append(Program("DealerV2", [dealerv2, "-s", "1", *counts]))
        if dealer3:
            listed.append(Program("Dealer3", [dealer3, "-s", "1", *counts]))
        listed += [
            # Plain dealing: generated deals per second of the generator and the judge. Smart
            # dealing (the default) deals a seat from its count and is measured by bench_smart.py.
            Program("chacha", [*ours[:1], "--rng=chacha", "--smart=off", "-R", "1", *ours[1:]]),
            Program("drand48", [*ours[:1], "--rng=drand48", "-R", "1", *ours[1:]]),
            Program("glibc", [*ours[:1], "--rng=glibc", "-R", "1", *ours[1:]]),
        ]
        return listed

    # Today's workloads at their own counts; the practice scripts at the chosen produce count.
    scripts: List[Script] = [Script(p, [], "v2") for p in sorted((TOP / "tests" / "bench").glob("*.dl"))]
    pbs = sorted(args.scripts.glob("*.dlr")) if args.scripts.is_dir() else []
    if not pbs:
        print(f"no scripts in {args.scripts}", file=sys.stderr)
    candidates = [Script(p, ["-p", str(args.produce)], "v2") for p in pbs]
    if args.only is not None:
        scripts = [s for s in scripts if s.name in args.only]
        candidates = [s for s in candidates if s.name in args.only]

    cpu = f"{os.cpu_count()} cores; " + next(
        (line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), "?"
    )
    print(f"{cpu}; rounds {args.rounds}; pbs scripts at -p {args.produce}, kept when classic takes "
          f">= {args.min_cpu} CPU s; peers: classic {classic}, DealerV2 {dealerv2 or '(not given)'}, "
          f"Dealer3 {dealer3 or '(not given)'}")
    # Round 1 of classic on the candidates decides which are kept.
    kept: List[Script] = []
    for script in candidates:
        sample = run([classic, "-s", "1", *script.args, str(script.path)])
        if sample and sample.cpu >= args.min_cpu:
            script.samples["classic"] = [sample]
            kept.append(script)
    print(f"{len(kept)} of {len(candidates)} pbs scripts kept", flush=True)
    scripts += kept

    for round_number in range(args.rounds):
        for script in scripts:
            for program in programs(script):
                if program.label == "classic" and round_number == 0 and script.samples.get("classic"):
                    continue  # measured by the selection
                if args.threads_only:
                    continue
                sample = run([*program.command, str(script.path)])
                if sample:
                    script.samples.setdefault(program.label, []).append(sample)
            # Two threads against one: best wall time of two alternating runs of each. A pbs
            # script produces `--thread-produce` deals here: at its benchmark count our runs
            # last a few hundredths of a second, and start-up (a few milliseconds, DDS's tables
            # included) would be measured instead of dealing.
            one = two = float("inf")
            counts = ["-p", str(args.thread_produce)] if script.args[:1] == ["-p"] else script.args
            base = [str(CLI), f"--dialect={script.dialect}", "--rng=chacha", "-s", "1", *counts]
            for _ in range(2):
                a = run([*base, "-R", "1", str(script.path)])
                b = run([*base, "-R", "2", str(script.path)])
                if a and b:
                    one, two = min(one, a.wall), min(two, b.wall)
            if one < float("inf"):
                script.speedups.append(one / two)
        print(f"round {round_number + 1} done", file=sys.stderr, flush=True)

    labels = ["classic"] + (["DealerV2"] if dealerv2 else []) + (["Dealer3"] if dealer3 else [])
    ours = ["chacha", "drand48", "glibc"]
    base_of = {"chacha": "classic", "drand48": "DealerV2" if dealerv2 else None, "glibc": "classic",
               "Dealer3": "classic", "DealerV2": "classic"}

    def ratio(script: Script, label: str) -> Optional[float]:
        """Median over rounds of (label's rate / its base's rate) within a round."""
        base = base_of.get(label)
        mine, theirs = script.samples.get(label, []), script.samples.get(base or "", [])
        pairs = [a.rate / b.rate for a, b in zip(mine, theirs)]
        return median(pairs) if pairs else None

    def same_deals(script: Script, label: str, peer: str) -> bool:
        mine, theirs = script.samples.get(label, []), script.samples.get(peer, [])
        return not mine or not theirs or mine[0].generated == theirs[0].generated

    head = f"{'script':<30} {'classic s':>9} {'classic/s':>10}"
    for label in labels[1:]:
        head += f" {label + '/s':>11} {'x':>5}"
    head += f" {'chacha/s':>11} {'x cl':>6} {'drand48/s':>11} {'x V2':>6} {'glibc/s':>11} {'x cl':>6} {'R2 x':>5}"
    print(head)
    print("-" * len(head))
    columns: Dict[str, List[float]] = {label: [] for label in labels[1:] + ours + ["R2"]}
    for script in scripts:
        rates = {label: median([s.rate for s in script.samples.get(label, [])]) for label in labels + ours}
        line = f"{script.name[:30]:<30} {median([s.cpu for s in script.samples.get('classic', [])]):>9.2f}"
        line += f" {rates['classic']:>10,.0f}"
        for label in labels[1:] + ours:
            r = ratio(script, label)
            if r is not None:
                columns[label].append(r)
            mark = ""
            if label == "drand48" and dealerv2 and not same_deals(script, "drand48", "DealerV2"):
                mark = "!"
            if label == "glibc" and not same_deals(script, "glibc", "classic"):
                mark = "!"
            shown = f"{r:.1f}{mark}" if r is not None else "-"
            line += f" {rates[label]:>11,.0f} {shown:>{5 if label in labels else 6}}"
        speedup = median(script.speedups)
        if script.speedups:
            columns["R2"].append(speedup)
        line += f" {speedup:>5.2f}"
        print(line)
    print("-" * len(head))
    print("x: ratio of rates (median over rounds); !: generated a different number of deals than the peer "
          "(DealerV2 judges the shape clauses after the 16th wrongly, a documented deviation)")
    for label, values in columns.items():
        if values:
            what = {"chacha": "ChaCha -R 1 / classic", "drand48": "drand48 -R 1 / DealerV2",
                    "glibc": "glibc -R 1 / classic", "R2": "ChaCha -R 2 / -R 1 (wall)",
                    "DealerV2": "DealerV2 / classic", "Dealer3": "Dealer3 / classic"}[label]
            print(f"{what:<28} median {median(values):6.2f}   minimum {min(values):6.2f}   over {len(values)} scripts")

    if not args.no_count:
        heaviest = sorted(kept, key=lambda s: -median([x.cpu for x in s.samples.get("classic", [])]))[:3]
        print(f"\ninstructions per generated deal (-p {args.count_produce}):")
        for script in heaviest:
            row = f"{script.name[:30]:<30}"
            for program in programs(script, ["-p", str(args.count_produce)]):
                if program.label not in ("classic", "DealerV2", "chacha"):
                    continue
                label = program.label
                got = instructions([*program.command, str(script.path)])
                row += f"  {label} {got[0] / max(got[1], 1):,.0f}" if got else f"  {label} -"
            print(row, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
