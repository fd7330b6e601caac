#!/usr/bin/env python3
"""Produced deals per CPU second: smart dealing against the peers (part of `make bench`; a command).

Runs every practice script of ../shared/parity/pbs/scripts (all of them) and the rare set
(tests/bench/rare/*.dlr) under:

- classic dealer (Debian's `dealer`, /usr/games/dealer);
- libdealer's CLI, ChaCha with one thread: smart dealing (the default, `--smart=auto`) and plain
  dealing by rejection (`--smart=off`);
- DealerV2 4.3.3 when `--dealerv2` / $DEALERV2 names its binary (built from its public source in
  a scratch folder, never part of this repository); on a rare script with a `.bias` twin (the same
  hands with the suit lengths fixed by DealerV2's bias predeal) that twin is run instead;
- Deal 3.1's smartstack (Debian's `deal`) on the rare set, from the `.tcl` twin of each script
  (`deal -i SCRIPT N`); NOT RUN when `deal` is missing.

Each program gets a CPU-time cap per run (`--cap` seconds, RLIMIT_CPU) and an adaptive produce
count: it starts small and grows until a run takes at least `--min-cpu` CPU seconds and produces
at least `--min-produced` deals, or the next run would not fit in the cap. The rate is that of
the largest run that finished: deals produced / CPU seconds (user + system of the child, from
wait4, start-up included), and generated / CPU seconds beside it. A program none of whose runs
finished within the cap is shown as `<` the rate of one deal per cap.

Printed: the practice table (ratios smart/classic, smart/off, smart/DealerV2 per script, then
their median and minimum), the rare table (also smart/Deal and the acceptance of the condition,
produced / generated of the `--smart=off` run), the targets of issue 32 with PASS/MISS, and the
start-up of smart dealing per practice script (compiling + counting: CPU time of a run that deals
a single deal, `-g 1`, the least of three) with its median and maximum, and the time to the
first deal produced (a run producing one).

`--quick`: a handful of scripts with small caps, for the test suites (exit status 1 when a
program that should run did not produce; NOT RUN without classic dealer or ../shared).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_scripts import CLI, TOP, Sample, median, peer_or_none, run, run_child  # noqa: E402

RARE = TOP / "tests" / "bench" / "rare"
DEAL_TRIES = re.compile(rb"found after\s+(\d+)\s+tries")
QUICK_PBS = ["Basic_Weak_2", "1N_with_Singleton", "BART"]
QUICK_RARE = ["balanced_22_24", "cheap_one_seat"]
# Rounds of start-up runs (each script once a round; the least is kept).
STARTUP_ROUNDS = 5


@dataclass
class Rate:
    """What one program did on one script: its largest finished run, or none within the cap."""

    sample: Optional[Sample]
    capped: bool = False
    note: str = ""
    bound: float = 0.0  # capped: the rate is below this (the first run's deals per cap)

    @property
    def produced_per_second(self) -> Optional[float]:
        if self.sample is None or self.sample.produced == 0:
            return None
        return self.sample.produced / max(self.sample.cpu, 1e-6)

    @property
    def generated_per_second(self) -> Optional[float]:
        return self.sample.rate if self.sample else None


@dataclass
class Workload:
    """A script, its counterparts for the peers that need another file, and the measured rates."""

    path: Path
    bias: Optional[Path] = None
    tcl: Optional[Path] = None
    cap: float = 0.0
    rates: Dict[str, Rate] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.path.stem


def measure(command: Callable[[int], List[str]], runner: Callable[[List[str], float], Optional[Sample]],
            start: int, cap: float, min_cpu: float, min_produced: int, most: int) -> Rate:
    """The adaptive produce count: runs `command(n)` with n growing from `start` until a run takes
    `min_cpu` CPU seconds, produces `min_produced` deals and spends at least 3/4 of its time after
    start-up (estimated from the first and the latest run), or the next would not fit in `cap`."""
    n, best, first, spent = start, None, None, 0.0
    while True:
        sample = runner(command(n), cap)
        if sample is None:
            return Rate(best, capped=best is None, bound=start / cap)
        spent += sample.cpu
        best = sample
        if sample.produced < n:  # the script's generate count ended it
            return Rate(best, note="g")
        startup = 0.0
        per_deal = max(sample.cpu, 1e-3) / max(sample.produced, 1)
        if first is None:
            first = sample
        elif sample.produced > first.produced:
            per_deal = max((sample.cpu - first.cpu) / (sample.produced - first.produced), 1e-9)
            startup = min(max(first.cpu - first.produced * per_deal, 0.0), first.cpu)
        wanted_cpu = max(min_cpu, 4 * startup)
        # One run cannot tell start-up from dealing: a second, longer one is made unless the
        # first already took a fifth of the cap.
        alone = first is sample and sample.cpu < 0.2 * cap
        if (sample.cpu >= wanted_cpu and sample.produced >= min_produced and not alone) or n >= most:
            return Rate(best)
        wanted = max((1.3 * wanted_cpu - startup) / per_deal, float(min_produced), 4.0 * n if alone else 0.0)
        fits = (0.8 * cap - startup) / per_deal
        grown = int(min(wanted, fits, n * 100.0, float(most)))
        if grown <= n or spent > 3 * cap:
            return Rate(best)
        n = grown


def dealer_runner(command: List[str], cap: float) -> Optional[Sample]:
    """A dealer-language program: the counts from its closing statistics."""
    return run(command, timeout=4 * cap + 30, cpu_cap=cap)


def deal_runner(command: List[str], cap: float) -> Optional[Sample]:
    """Deal 3: the deals are the lines it printed (-l); the tries from -v's progress lines."""
    done = run_child(command, timeout=4 * cap + 30, cpu_cap=cap, keep_err=True)
    if done is None or done.status != 0:
        return None
    produced = sum(1 for line in done.out.splitlines() if line.strip())
    tries = DEAL_TRIES.findall(done.err)
    generated = int(tries[-1]) if tries else produced
    return Sample(generated, done.cpu, done.wall, produced)


def ratio(a: Optional[float], b: Optional[float]) -> Optional[float]:
    return a / b if a and b else None


def fmt_rate(rate: Optional[Rate]) -> str:
    if rate is None:
        return "-"
    value = rate.produced_per_second
    if value is None:
        return "capped" if rate.capped else "failed"
    return (f"{value:,.0f}" if value >= 10 else f"{value:.2g}") + rate.note


def fmt_ratio(value: Optional[float], bound: bool = False) -> str:
    if value is None:
        return "-"
    text = f"{value:,.0f}" if value >= 100 else f"{value:.1f}" if value >= 0.1 else f"{value:.2g}"
    return (">" if bound else "") + text


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    shared = TOP.parent / "shared"
    parser.add_argument("--scripts", type=Path, default=shared / "parity" / "pbs" / "scripts")
    parser.add_argument("--rare", type=Path, default=RARE)
    parser.add_argument("--cap", type=float, default=20.0, help="CPU seconds one run may take")
    parser.add_argument("--rare-cap", type=float, default=40.0, help="the same on the rare set")
    parser.add_argument("--min-cpu", type=float, default=0.5, help="CPU seconds a measuring run should take")
    parser.add_argument("--min-produced", type=int, default=10, help="deals a measuring run should produce")
    parser.add_argument("--classic", default=os.environ.get("DEALER_ORACLE", "/usr/games/dealer"))
    parser.add_argument("--dealerv2", default=os.environ.get("DEALERV2"))
    parser.add_argument("--deal", default=os.environ.get("DEAL") or shutil.which("deal") or "/usr/games/deal")
    parser.add_argument("--only", nargs="*", default=None, help="only these script names")
    parser.add_argument("--quick", action="store_true",
                        help=f"a handful of scripts ({', '.join(QUICK_PBS + QUICK_RARE)}) with small caps")
    args = parser.parse_args(argv)
    if args.quick:
        args.cap, args.rare_cap, args.min_cpu, args.min_produced = 2.0, 2.0, 0.05, 3
        args.only = args.only or QUICK_PBS + QUICK_RARE

    classic = peer_or_none(args.classic)
    if not CLI.exists():
        print(f"{CLI} is missing (make)", file=sys.stderr)
        return 1
    if not classic or not args.scripts.is_dir():
        print(f"NOT RUN: needs classic dealer ({args.classic}: apt-get install dealer) and {args.scripts}")
        return 1 if os.environ.get("CI") == "true" else 0
    dealerv2 = peer_or_none(args.dealerv2)
    deal = peer_or_none(args.deal)

    practice = [Workload(p) for p in sorted(args.scripts.glob("*.dlr"))]
    rare = []
    for path in sorted(args.rare.glob("*.dlr")):
        bias, tcl = path.with_suffix(".bias"), path.with_suffix(".tcl")
        rare.append(Workload(path, bias if bias.exists() else None, tcl if tcl.exists() else None))
    if args.only is not None:
        practice = [w for w in practice if w.name in args.only]
        rare = [w for w in rare if w.name in args.only]

    cpu = f"{os.cpu_count()} cores; " + next(
        (line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), "?")
    load = " ".join(open("/proc/loadavg").read().split()[:3])
    print(f"{cpu}; load average at start {load}")
    print(f"cap {args.cap:g} CPU s per run ({args.rare_cap:g} on the rare set); a measuring run takes >= "
          f"{args.min_cpu:g} CPU s and >= {args.min_produced} deals; peers: classic {classic}, DealerV2 "
          f"{dealerv2 or 'NOT RUN (--dealerv2 / $DEALERV2)'}, Deal {deal or 'NOT RUN (apt-get install deal)'}",
          flush=True)

    ours = [str(CLI), "--dialect=v2", "--rng=chacha", "-R", "1", "-s", "1"]

    def run_all(work: Workload, cap: float, starts: Dict[str, int]) -> None:
        work.cap = cap
        measured = lambda command, start, runner=dealer_runner: measure(  # noqa: E731
            command, runner, start, cap, args.min_cpu, args.min_produced, 10_000_000)
        path = str(work.path)
        work.rates["classic"] = measured(lambda n: [classic, "-s", "1", "-p", str(n), path], starts["peer"])
        if dealerv2:
            v2 = str(work.bias or work.path)
            work.rates["DealerV2"] = measured(lambda n: [dealerv2, "-s", "1", "-p", str(n), v2], starts["peer"])
            if work.bias and work.rates["DealerV2"].sample:
                work.rates["DealerV2"].note += "b"
        work.rates["smart"] = measured(lambda n: [*ours, "-p", str(n), path], starts["smart"])
        work.rates["off"] = measured(lambda n: [*ours, "--smart=off", "-p", str(n), path], starts["peer"])
        if deal and work.tcl:
            tcl = str(work.tcl)
            work.rates["Deal"] = measured(lambda n: [deal, "-l", "-v", "-s", "1", "-i", tcl, str(n)],
                                          starts["peer"], deal_runner)

    failures: List[str] = []

    def check(work: Workload) -> None:
        for label, rate in work.rates.items():
            if rate.sample is None and not rate.capped:
                failures.append(f"{work.name}: {label} failed")
            elif label == "smart" and rate.produced_per_second is None:
                failures.append(f"{work.name}: smart produced nothing within the cap")

    for work in practice:
        run_all(work, args.cap, {"peer": 10, "smart": 100})
        check(work)
    print(f"practice scripts measured ({len(practice)})", file=sys.stderr, flush=True)
    for work in rare:
        run_all(work, args.rare_cap, {"peer": 1, "smart": 100})
        check(work)
    print("rare set measured", file=sys.stderr, flush=True)

    def rate_of(work: Workload, label: str) -> Optional[float]:
        rate = work.rates.get(label)
        return rate.produced_per_second if rate else None

    # Start-up (compiling + counting): CPU time of a smart run that deals a single deal (`-g 1`),
    # the least of STARTUP_ROUNDS; the time to the first deal produced (a run producing one)
    # beside it. Each round runs every script once, so that a slow spell of a shared machine
    # (timings here vary by ±30 % from minute to minute) does not fall on all the runs of one.
    startups: Dict[str, float] = {}
    first_deals: Dict[str, float] = {}
    for _ in range(STARTUP_ROUNDS):
        for work in practice:
            for switches, least in ((["-g", "1"], startups), (["-p", "1"], first_deals)):
                sample = run([*ours, *switches, str(work.path)], timeout=60)
                if sample:
                    least[work.name] = min(least.get(work.name, sample.cpu), sample.cpu)

    def smart_ratio(work: Workload, label: str) -> Optional[float]:
        """smart / label; a peer capped without a deal gives a bound (its rate < 1 deal per cap)."""
        mine, theirs = rate_of(work, "smart"), rate_of(work, label)
        rate = work.rates.get(label)
        if mine and theirs is None and rate is not None and rate.capped:
            return mine / rate.bound
        return ratio(mine, theirs)

    def bounded(work: Workload, label: str) -> bool:
        rate = work.rates.get(label)
        return bool(rate and rate.capped)

    peers = ["classic"] + (["DealerV2"] if dealerv2 else [])

    def table(works: List[Workload], title: str, with_deal: bool,
              startup: Optional[Dict[str, float]] = None) -> Dict[str, List[float]]:
        labels = peers + ["smart", "off"] + (["Deal"] if with_deal and deal else [])
        head = f"{'script':<30}" + "".join(f" {label + ' prod/s':>16}" for label in labels)
        head += f" {'classic gen/s':>13} {'smart gen/s':>12} {'x classic':>9} {'x off':>7}"
        head += f" {'x V2':>7}" if dealerv2 else ""
        head += f" {'x Deal':>7}" if with_deal and deal else ""
        if with_deal:
            head += f" {'accepts 1 in':>13}"
        if startup is not None:
            head += f" {'start ms':>8}"
        print(f"\n{title}")
        print(head)
        print("-" * len(head))
        columns: Dict[str, List[float]] = {"classic": [], "off": [], "DealerV2": [], "Deal": []}
        for work in works:
            line = f"{work.name[:30]:<30}" + "".join(f" {fmt_rate(work.rates.get(label)):>16}" for label in labels)
            for label, width in (("classic", 13), ("smart", 12)):
                rate = work.rates.get(label)
                gen = rate.generated_per_second if rate else None
                line += f" {gen:>{width},.0f}" if gen else f" {'-':>{width}}"
            for label, width in [("classic", 9), ("off", 7)] + ([("DealerV2", 7)] if dealerv2 else []) + (
                    [("Deal", 7)] if with_deal and deal else []):
                value = smart_ratio(work, label)
                if value is not None:
                    columns[label].append(value)
                line += f" {fmt_ratio(value, bounded(work, label)):>{width}}"
            if with_deal:
                off = work.rates.get("off")
                sample = off.sample if off else None
                if sample and sample.produced:
                    line += f" {sample.generated / sample.produced:>13,.0f}"
                else:
                    line += f" {'-':>13}"
            if startup is not None:
                line += f" {startup[work.name] * 1000:>8.0f}" if work.name in startup else f" {'-':>8}"
            print(line)
        print("-" * len(head))
        for label, values in columns.items():
            if values:
                print(f"smart / {label:<9} median {median(values):>9.1f}   minimum {min(values):>8.1f}   "
                      f"over {len(values)} scripts")
        return columns

    practice_ratios = table(practice, "Practice scripts (../shared/parity/pbs/scripts): produced deals per CPU "
                            "second, ChaCha -R 1", False, startups)
    table(rare, "Rare set (tests/bench/rare): produced deals per CPU second, ChaCha -R 1", True)
    print("prod/s: deals produced per CPU second of the largest run that finished within the cap (start-up "
          "included); start ms: start-up, compiling and counting (CPU time of a smart run dealing a single deal, -g 1, "
          f"least of {STARTUP_ROUNDS} rounds); gen/s: deals generated per CPU second (smart: the first seat's hands drawn from its "
          "table count as generated deals); g: the script's generate count ended that run; b: DealerV2 with bias predeal; capped: no "
          "run finished within the cap (ratios against it are lower bounds, >); accepts 1 in: generated / "
          "produced of the --smart=off run")

    if startups:
        values = sorted(startups.values())
        worst = max(startups, key=startups.get)
        print(f"\nstart-up (compiling + counting: CPU time of a smart run dealing a single deal, -g 1, least of {STARTUP_ROUNDS} rounds) "
              f"over {len(values)} practice scripts: median {median(values) * 1000:.1f} ms, "
              f"maximum {values[-1] * 1000:.1f} ms ({worst})")
        firsts = sorted(first_deals.values()) or [0.0]
        slowest = max(first_deals, key=first_deals.get)
        print(f"first deal (CPU time of that run, start-up included): median {median(firsts) * 1000:.1f} ms, "
              f"maximum {firsts[-1] * 1000:.1f} ms ({slowest})")

    # The targets of issue 32.
    print("\ntargets (ChaCha -R 1 against classic dealer, per CPU second):")
    misses: List[str] = []

    def target(ok: bool, text: str) -> None:
        print(f"  {'PASS' if ok else 'MISS'}  {text}")
        if not ok:
            misses.append(text)

    if practice:
        low = [(w.name, smart_ratio(w, "classic")) for w in practice]
        below = [f"{name} {value:.1f}x" if value else f"{name} -" for name, value in low
                 if value is None or value < 10]
        target(not below, f"practice scripts: smart/classic >= 10x on every script"
               + (f" (below: {', '.join(below)})" if below else ""))
        values = practice_ratios["classic"]
        if values:
            target(median(values) >= 50, f"practice scripts: median smart/classic {median(values):.1f}x >= 50x")
    for work in rare:
        off = work.rates.get("off")
        sample = off.sample if off else None
        accepts = sample.produced / sample.generated if sample and sample.generated and sample.produced else None
        if accepts is None and off and off.capped:
            accepts = 0.0
        if accepts is not None and accepts <= 1e-3:
            value = smart_ratio(work, "classic")
            target(value is not None and value >= 100,
                   f"{work.name}: smart/classic {fmt_ratio(value, bounded(work, 'classic'))}x >= 100x "
                   f"(accepts 1 in {1 / accepts:,.0f})" if accepts else f"{work.name}: smart/classic "
                   f"{fmt_ratio(value, bounded(work, 'classic'))}x >= 100x")
            if deal and work.tcl:
                value = smart_ratio(work, "Deal")
                target(value is not None and value >= 10, f"{work.name}: smart/Deal {fmt_ratio(value)}x >= 10x")
    rarest = [w for w in rare if w.name == "one_in_1e7"]
    if rarest and not args.quick:
        sample = run([*ours, "-p", "10000", str(rarest[0].path)], timeout=120)
        if sample and sample.produced:
            micro = sample.cpu / sample.produced * 1e6
            target(micro <= 5, f"one_in_1e7: {micro:.2f} us of CPU per produced deal, 10,000 deals, start-up "
                   f"included (<= 5 us)")
        else:
            target(False, "one_in_1e7: the 10,000-deal smart run failed")
    if startups:
        slow = sorted((name for name, value in startups.items() if value > 0.05), key=lambda n: -startups[n])
        target(not slow, f"start-up of every practice script (compiling + counting) <= 50 ms: maximum "
               f"{max(startups.values()) * 1000:.1f} ms" + (f"; over 50 ms: {len(slow)} scripts ("
               + ", ".join(f"{name} {startups[name] * 1000:.0f}" for name in slow) + ")" if slow else ""))
    print(f"load average at end {' '.join(open('/proc/loadavg').read().split()[:3])}")
    print(f"{len(misses)} target(s) missed")

    for failure in failures:
        print(f"FAILED: {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
