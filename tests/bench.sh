#!/usr/bin/env bash
# Benchmark: runs the same scripts under our CLI (each generator) and classic dealer
# (/usr/games/dealer, when installed) and prints deals generated per second and the ratio to
# classic dealer. Not a test: numbers depend on the machine. Usage: tests/bench.sh [script ...]
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cli="$top/target/release/dealer"
peer=${DEALER_ORACLE:-/usr/games/dealer}
scripts=("$@")
[ ${#scripts[@]} -gt 0 ] || scripts=("$top"/tests/bench/*.dl)

# Runs a command on a script; prints "<generated> <seconds>".
measure() {
  local out start end
  start=$(date +%s.%N)
  out=$("$@" 2>/dev/null | grep '^Generated')
  end=$(date +%s.%N)
  echo "$out" | awk -v s="$start" -v e="$end" '{print $2, e - s}'
}

printf '%-14s %-22s %12s %10s %8s\n' script program deals/s seconds ratio
for s in "${scripts[@]}"; do
  name=$(basename "$s" .dl)
  base=""
  if [ -x "$peer" ]; then
    read -r g t <<<"$(measure "$peer" -s 1 "$s")"
    base=$(awk -v g="$g" -v t="$t" 'BEGIN{print g / t}')
    printf '%-14s %-22s %12.0f %10.3f %8s\n' "$name" "classic dealer" "$base" "$t" "1.00"
  fi
  for rng in chacha drand48 glibc; do
    read -r g t <<<"$(measure "$cli" --rng=$rng --dialect=classic -s 1 "$s")"
    rate=$(awk -v g="$g" -v t="$t" 'BEGIN{print g / t}')
    ratio="-"
    [ -n "$base" ] && ratio=$(awk -v r="$rate" -v b="$base" 'BEGIN{printf "%.2f", r / b}')
    printf '%-14s %-22s %12.0f %10.3f %8s\n' "$name" "libdealer $rng" "$rate" "$t" "$ratio"
  done
done
