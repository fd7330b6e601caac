#!/usr/bin/env python3
"""Checks the mix a levelled scenario delivered against what its generated block states.

Usage: check_delivered.py LEVELLED_FILE RUN_OUTPUT PRODUCED

LEVELLED_FILE is a script written by `dealer --write-leveled`; RUN_OUTPUT the output of a run
of it (by libdealer or by classic dealer) whose actions include `average "LABEL" 100 *
HandType_LABEL` for every hand type; PRODUCED the deals that run produced.

From the block's header it reads each type's natural share and target, and from its
`level_LABEL` lines each threshold on the roll. With exact natural shares (the header says
"exact"), the mix the thresholds deliver is known exactly: d = n*k / sum(n*k); it must be within
the header's stated rounding precision of the target, and every observed share within four
standard deviations of d. With measured shares the observed share must be within three times
the stated precision of the target plus four standard deviations. Prints one line per type and
exits 1 when any is out of bounds.
"""
import math
import re
import sys


def main():
    levelled, output, produced = sys.argv[1], sys.argv[2], int(sys.argv[3])
    text = open(levelled, encoding="utf-8").read()
    block = text[text.index("### BEGIN GENERATED LEVELING ###"):text.index("### END GENERATED LEVELING ###")]
    exact = "# exact:" in block
    rows = re.findall(r"^# (\S+)\s+([0-9.]+)\s+([0-9.]+)\s+([0-9.]+)\s+(\d+)$", block, re.M)
    natural = {label: float(n) for label, n, _, _, _ in rows}
    target = {label: float(t) for label, _, t, _, _ in rows}
    stated = float(re.search(r"within \+-([0-9.]+) points", block).group(1))
    scale = 1000
    roll = re.search(r"rnd\((\d+)\)", block)
    if roll:
        scale = int(roll.group(1))
    steps = {}
    for label, rest in re.findall(r"^level_(\S+) = (.*)$", block, re.M):
        below = re.search(r"roll < (\d+)$", rest)
        steps[label] = 0 if rest == "0" else int(below.group(1)) if below else scale
    kept = {label: natural[label] * steps[label] for label in natural}
    total = sum(kept.values())
    delivered = {label: kept[label] / total for label in kept}
    observed = {}
    for label, value in re.findall(r"^(\S+): (-?[0-9.]+)$", open(output, encoding="utf-8").read(), re.M):
        observed[label] = float(value)
    bad = 0
    for label in natural:
        share = delivered[label] * 100
        sigma = 100 * math.sqrt(delivered[label] * (1 - delivered[label]) / produced)
        got = observed.get(label)
        if exact:
            ok = got is not None and abs(got - share) <= 4 * sigma + 0.01 and abs(share - 100 * target[label]) <= stated + 0.005
            bound = f"delivered {share:.3f} +- {4 * sigma:.2f}, target {100 * target[label]:.2f} +- {stated}"
        else:
            limit = 3 * stated + 4 * sigma
            ok = got is not None and abs(got - 100 * target[label]) <= limit
            bound = f"target {100 * target[label]:.2f} +- {limit:.2f}"
        print(f"{'ok' if ok else 'OUT'}: {label}: observed {got} ({bound})")
        bad += not ok
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
