#!/usr/bin/env python3
"""Benchmark of scripts whose condition asks double dummy (part of `make bench`; a command, not a
test).

Every script of tests/bench/dd (games, slams, partscores, a save, defence; `dds()` and classic
`tricks()`; each a cheap clause or two, then double-dummy comparisons) runs under:

- DealerV2 4.3.3, when `--dealerv2` / $DEALERV2 names its binary (built from its public source
  in a scratch folder; never part of this repository): `-s SEED -R 1`. DealerV2's `tricks()`
  runs GIB (`/usr/games/gibcli`), not DDS: a script that uses it runs there as its twin with
  `dds()` instead, which asks DDS the same results (marked `t`);
- libdealer's CLI with `--rng=drand48 -s SEED -R 1`: DealerV2's deals, whose output must be
  DealerV2's byte for byte (the `Time needed` line aside; a difference is marked `DIFFERS`);
- libdealer's CLI with its own ChaCha generator and smart dealing (the default), `-R 1`.

For each it prints CPU seconds (user + system of the process) per produced deal, the solves per
produced deal of ours (threshold questions + exact results + tables, from the JSON summary's
`dd`), and the ratios DealerV2 / ours, with their median and minimum over the scripts. Each
figure is the median of `--rounds` runs (default 3).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Dict, List, Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_scripts import CLI, TOP, run_child  # noqa: E402

SCRIPTS = TOP / "tests" / "bench" / "dd"
PRODUCED = re.compile(rb"Produced\s+(\d+)")
TIME_LINE = re.compile(rb"Time needed[^\n]*\n")


def measure(command: List[str], rounds: int) -> Optional[Dict]:
    """Runs `command` `rounds` times: the median CPU seconds, the output of the first run and
    the deals it produced (from the text footer or the JSON summary); None when a run fails."""
    cpus, out, produced, summary = [], b"", 0, None
    for i in range(rounds):
        done = run_child(command, timeout=3600)
        if done is None or done.status != 0:
            return None
        cpus.append(done.cpu)
        if i == 0:
            out = done.out
            for line in out.splitlines():
                if line.startswith(b'{"schema"') and b'"type":"summary"' in line:
                    summary = json.loads(line)
            match = PRODUCED.search(out)
            produced = summary["produced"] if summary else int(match.group(1)) if match else 0
    return {"cpu": statistics.median(cpus), "out": out, "produced": max(produced, 1), "summary": summary}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dealerv2", default=os.environ.get("DEALERV2"))
    parser.add_argument("--rounds", type=int, default=int(os.environ.get("RUNS", "3")))
    parser.add_argument("--seed", default="1")
    args = parser.parse_args()
    if not CLI.exists():
        print(f"needs {CLI} (make)", file=sys.stderr)
        return 1
    dealerv2 = args.dealerv2 if args.dealerv2 and os.access(args.dealerv2, os.X_OK) else None
    scripts = sorted(SCRIPTS.glob("*.dl"))
    print(f"Double-dummy conditions: {len(scripts)} scripts (tests/bench/dd), CPU ms per produced deal, "
          f"median of {args.rounds}; DealerV2: {dealerv2 or 'NOT RUN (--dealerv2 / $DEALERV2)'}")
    head = f"{'script':24} {'DealerV2':>9} {'drand48':>9} {'x V2':>6} {'ChaCha':>9} {'x V2':>6} {'solves/deal (thr+exact+table)':>31}"
    print(head)
    ratios: Dict[str, List[float]] = {"drand48": [], "chacha": []}
    twins = tempfile.TemporaryDirectory()
    for script in scripts:
        seed = ["-s", args.seed, "-R", "1"]
        text = script.read_text()
        peer_script, mark = script, ""
        if "tricks(" in text:
            peer_script, mark = Path(twins.name) / script.name, "t"
            peer_script.write_text(text.replace("tricks(", "dds("))
        v2 = measure([dealerv2, *seed, str(peer_script)], args.rounds) if dealerv2 else None
        ours48 = measure([str(CLI), "--rng=drand48", *seed, str(script)], 1 if v2 is None else args.rounds)
        counted = measure([str(CLI), "--rng=drand48", *seed, "--json-summary", str(script)], 1)
        chacha = measure([str(CLI), *seed, "--json-summary", str(script)], args.rounds)
        if ours48 is None or chacha is None or counted is None:
            print(f"{script.stem:24} FAILED")
            continue
        per = lambda m: 1000 * m["cpu"] / m["produced"]  # noqa: E731
        row = f"{script.stem + mark:24} {per(v2) if v2 else float('nan'):9.2f}"
        for mode, ours in [("drand48", ours48), ("chacha", chacha)]:
            row += f" {per(ours):9.2f}"
            if v2:
                ratios[mode].append(per(v2) / per(ours))
                row += f" {ratios[mode][-1]:6.2f}"
            else:
                row += f" {'-':>6}"
        dd = counted["summary"].get("dd", {}) if counted["summary"] else {}
        produced = counted["produced"]
        solves = [dd.get("thresholds", 0) / produced, dd.get("exact", 0) / produced, dd.get("tables", 0) / produced]
        row += f"  {solves[0]:8.1f} + {solves[1]:5.1f} + {solves[2]:4.1f}"
        if v2 and TIME_LINE.sub(b"", v2["out"]) != TIME_LINE.sub(b"", ours48["out"]):
            row += "  DIFFERS from DealerV2"
        print(row, flush=True)
    for mode, values in ratios.items():
        if values:
            print(f"DealerV2 / ours ({mode}): median {statistics.median(values):.2f}x, "
                  f"minimum {min(values):.2f}x over {len(values)} scripts")
    return 0


if __name__ == "__main__":
    sys.exit(main())
