#!/usr/bin/env bash
# Compares libdealer's double-dummy results with Debian's independent build of DDS 2.9
# (libdds-dev): 100 random deals of each generator (ChaCha and drand48; about 0.2 s of CPU per
# table on each side), all 20 results and the par score and contract for each of the four
# vulnerabilities, through the CLI's
#   printrpt(deal, trix(deal), par(NS,none..both), parcontract(none..both))
# and tests/dds29/dd_reference.c, which reads the same deals and prints the same line from DDS 2.9.
# Without libdds-dev it reports NOT RUN (a failure when CI=true).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cli="$top/target/release/dealer"
reference="$top/target/release/dd_reference"
if [ ! -x "$reference" ]; then
  echo "NOT RUN: DDS 2.9 comparison (needs libdds-dev to build $reference)"
  [ "${CI:-}" = true ] && exit 1
  exit 0
fi
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
cat >"$work/dd.dl" <<'SCRIPT'
produce 100
action printrpt(deal, trix(deal), par(NS,none), par(NS,ns), par(NS,ew), par(NS,both),
                parcontract(none), parcontract(ns), parcontract(ew), parcontract(both))
SCRIPT
pass=0; fail=0
for rng in chacha drand48; do
  "$cli" --rng=$rng -s 2026 -v "$work/dd.dl" >"$work/ours" 2>/dev/null
  "$reference" <"$work/ours" >"$work/theirs"
  lines=$(wc -l <"$work/ours")
  if [ "$lines" -eq 100 ] && cmp -s "$work/ours" "$work/theirs"; then
    echo "PASS 100 random deals ($rng): tables and par identical to DDS 2.9"; pass=$((pass+1))
  else
    echo "FAIL 100 random deals ($rng): $lines lines; first difference:"; fail=$((fail+1))
    diff "$work/ours" "$work/theirs" | head -n 4
  fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
