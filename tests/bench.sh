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
  echo "$(echo "$out" | awk '{print $2}') $(echo "$end - $start" | bc -l)"
}

printf '%-14s %-22s %12s %10s %8s\n' script program deals/s seconds ratio
for s in "${scripts[@]}"; do
  name=$(basename "$s" .dl)
  base=""
  if [ -x "$peer" ]; then
    read -r g t <<<"$(measure "$peer" -s 1 "$s")"
    base=$(echo "$g / $t" | bc -l)
    printf '%-14s %-22s %12.0f %10.3f %8s\n' "$name" "classic dealer" "$base" "$t" "1.00"
  fi
  for rng in chacha drand48 glibc; do
    read -r g t <<<"$(measure "$cli" --rng=$rng --dialect=classic -s 1 "$s")"
    rate=$(echo "$g / $t" | bc -l)
    ratio="-"
    [ -n "$base" ] && ratio=$(printf '%.2f' "$(echo "$rate / $base" | bc -l)")
    printf '%-14s %-22s %12.0f %10.3f %8s\n' "$name" "libdealer $rng" "$rate" "$t" "$ratio"
  done
done
