#!/usr/bin/env bash
# Benchmark: runs the same scripts under our CLI and classic dealer (/usr/games/dealer, when
# installed) and prints deals generated per second (the median of RUNS runs, whole process
# timed) with the ratio to classic dealer; then the ChaCha generator with two dealing threads
# against one. Not a test: numbers depend on the machine.
# Usage: tests/bench.sh [script ...]   (RUNS=n to change the number of runs, default 3)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cli="$top/target/release/dealer"
peer=${DEALER_ORACLE:-/usr/games/dealer}
runs=${RUNS:-3}
scripts=("$@")
[ ${#scripts[@]} -gt 0 ] || scripts=("$top"/tests/bench/*.dl)

# Runs a command on a script RUNS times; prints "<generated> <median seconds>".
measure() {
  local out start end times=()
  for _ in $(seq "$runs"); do
    start=$(date +%s.%N)
    out=$("$@" 2>/dev/null | grep '^Generated')
    end=$(date +%s.%N)
    times+=("$(awk -v s="$start" -v e="$end" 'BEGIN{print e - s}')")
  done
  median=$(printf '%s\n' "${times[@]}" | sort -g | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}')
  echo "$out" | awk -v t="$median" '{print $2, t}'
}

rate() { awk -v g="$1" -v t="$2" 'BEGIN{printf "%.0f", g / t}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN{printf "%.2f", a / b}'; }

echo "median of $runs runs; $(nproc) cores; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
printf '%-10s %-34s %12s %9s %8s\n' script program deals/s seconds ratio
for s in "${scripts[@]}"; do
  name=$(basename "$s" .dl)
  base=""
  if [ -x "$peer" ]; then
    read -r g t <<<"$(measure "$peer" -s 1 "$s")"
    base=$(rate "$g" "$t")
    printf '%-10s %-34s %12s %9.3f %8s\n' "$name" "classic dealer" "$base" "$t" "1.00"
  fi
  one=""
  for mode in "chacha 1" "drand48 1" "glibc 1" "chacha 2"; do
    read -r rng threads <<<"$mode"
    read -r g t <<<"$(measure "$cli" --rng="$rng" --dialect=v2 -R "$threads" -s 1 "$s")"
    r=$(rate "$g" "$t")
    [ "$mode" = "chacha 1" ] && one=$r
    shown="-"
    [ -n "$base" ] && shown=$(ratio "$r" "$base")
    label="libdealer $rng -R $threads"
    [ "$mode" = "chacha 2" ] && label="$label (x$(ratio "$r" "$one") of -R 1)"
    printf '%-10s %-34s %12s %9.3f %8s\n' "$name" "$label" "$r" "$t" "$shown"
  done
done
