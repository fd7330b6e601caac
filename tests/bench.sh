#!/usr/bin/env bash
# Benchmark: runs the same scripts under our CLI (each generator, one thread; ChaCha with two
# threads) and classic dealer (/usr/games/dealer, when installed), and prints deals generated
# per second (the median of RUNS runs, whole process timed) with the ratio to classic dealer;
# the ChaCha `-R 2` row also gives its speed-up over `-R 1`. Every run is `--smart=off`: this
# measures plain dealing (tests/bench_smart.py measures produced deals with smart dealing). Not a test: numbers depend on the
# machine.
#
# The programs run in turn within each round (classic dealer, then ours), and a ratio is the
# median over the rounds of the ratio measured within one round: on a shared machine whose
# speed drifts by tens of percent within minutes, both sides of a ratio then see the same
# conditions.
#
# The speed-up of two threads compares the best of five alternating runs of each (`-R 1`,
# `-R 2`, `-R 1`, …) within a round: a slow spell on one of the two cores slows a two-thread
# run whichever core it hits, a one-thread run only when it hits that run's core, so single
# runs understate the speed-up by a varying amount. Both sides get the same treatment, and
# the runs last well under a second, so five of each cost little.
# Usage: tests/bench.sh [script ...]   (RUNS=n to change the number of rounds, default 5)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cli="$top/target/release/dealer"
peer=${DEALER_ORACLE:-/usr/games/dealer}
runs=${RUNS:-5}
scripts=("$@")
[ ${#scripts[@]} -gt 0 ] || scripts=("$top"/tests/bench/*.dl)
modes=("chacha 1" "drand48 1" "glibc 1" "chacha 2")

# Runs a command; prints "<deals generated> <seconds>".
measure() {
  local out start end
  start=$(date +%s.%N)
  out=$("$@" 2>/dev/null | grep '^Generated')
  end=$(date +%s.%N)
  echo "$out" | awk -v s="$start" -v e="$end" '{print $2, e - s}'
}

median() { sort -g | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}'; }

echo "median of $runs rounds; $(nproc) cores; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
printf '%-10s %-34s %12s %9s %8s\n' script program deals/s seconds ratio
for s in "${scripts[@]}"; do
  name=$(basename "$s" .dl)
  have_peer=false
  [ -x "$peer" ] && have_peer=true
  # rates[k] / seconds[k]: one line per round; k = 0 classic, 1.. the modes.
  declare -a rates=() seconds=() ratios=()
  parallel=""
  for _ in $(seq "$runs"); do
    base=""
    if $have_peer; then
      read -r g t <<<"$(measure "$peer" -s 1 "$s")"
      base=$(awk -v g="$g" -v t="$t" 'BEGIN{print g / t}')
      rates[0]+="$base "; seconds[0]+="$t "
    fi
    for k in "${!modes[@]}"; do
      read -r rng threads <<<"${modes[$k]}"
      read -r g t <<<"$(measure "$cli" --rng="$rng" --smart=off --dialect=v2 -R "$threads" -s 1 "$s")"
      r=$(awk -v g="$g" -v t="$t" 'BEGIN{print g / t}')
      rates[k + 1]+="$r "; seconds[k + 1]+="$t "
      [ -n "$base" ] && ratios[k + 1]+="$(awk -v a="$r" -v b="$base" 'BEGIN{print a / b}') "
      [ "$k" = 0 ] && best1=$t
      [ "${modes[$k]}" = "chacha 2" ] && best2=$t
    done
    for _ in 1 2 3 4; do
      read -r _ t <<<"$(measure "$cli" --rng=chacha --smart=off --dialect=v2 -R 1 -s 1 "$s")"
      best1=$(awk -v a="$best1" -v b="$t" 'BEGIN{print (b < a) ? b : a}')
      read -r _ t <<<"$(measure "$cli" --rng=chacha --smart=off --dialect=v2 -R 2 -s 1 "$s")"
      best2=$(awk -v a="$best2" -v b="$t" 'BEGIN{print (b < a) ? b : a}')
    done
    parallel+="$(awk -v a="$best1" -v b="$best2" 'BEGIN{print a / b}') "
  done
  row() { # row LABEL K
    local rate secs ratio="-"
    rate=$(tr ' ' '\n' <<<"${rates[$2]}" | grep . | median)
    secs=$(tr ' ' '\n' <<<"${seconds[$2]}" | grep . | median)
    if [ "$2" = 0 ]; then ratio="1.00"; elif $have_peer; then
      ratio=$(tr ' ' '\n' <<<"${ratios[$2]}" | grep . | median | awk '{printf "%.2f", $1}')
    fi
    printf '%-10s %-34s %12.0f %9.3f %8s\n' "$name" "$1" "$rate" "$secs" "$ratio"
  }
  $have_peer && row "classic dealer" 0
  for k in "${!modes[@]}"; do
    read -r rng threads <<<"${modes[$k]}"
    label="libdealer $rng -R $threads"
    if [ "${modes[$k]}" = "chacha 2" ]; then
      label="$label (x$(tr ' ' '\n' <<<"$parallel" | grep . | median | awk '{printf "%.2f", $1}') of -R 1)"
    fi
    row "$label" $((k + 1))
  done
  unset rates seconds ratios parallel
done
