#!/usr/bin/env bash
# Fuzzes libdealer: seeds the corpora, builds the targets, then runs `script`, `capi`,
# `sessions` and `records` one after the other (all at the same time, one process each, with
# FUZZ_PARALLEL=1), each for SECONDS (default 1800). FUZZ_TARGETS picks some of them
# (for example FUZZ_TARGETS=sessions).
# Usage: [FUZZ_PARALLEL=1] [FUZZ_TARGETS="script capi sessions records"] fuzz/run.sh [SECONDS]
#        needs nightly and cargo-fuzz (see README.md)
# Crashing inputs land in fuzz/artifacts/<target>/ (crash-*, timeout-*, oom-*, leak-*).
set -eu
seconds=${1:-1800}
targets=${FUZZ_TARGETS:-script capi sessions records}
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
# Common libFuzzer options: 2 GB is runaway memory; a hang is an input still running after
# 30 s. Every target may solve one double-dummy table per input, and a solve cannot be
# interrupted: one table of a hard deal takes over half a second of a core alone, several
# times that under ASan, and ten times more again on a machine shared with other work (a
# script input with `trix(deal)` took 11 s under a soak test: tests/fuzz-regressions/script/).
# The sessions target's threads deal for at most 6 s and then finish their calls in progress
# (each interrupted after 2 s, but its one solve), and its own watchdog aborts after 20 s
# without a finished call. The records target solves nothing: its inputs take milliseconds.
common=(-rss_limit_mb=2048 -max_total_time="$seconds" -print_final_stats=1)

timeout_of() { # timeout_of TARGET: libFuzzer's -timeout for the target
  echo 30
}

./seed-corpus.sh
for target in $targets; do
  cargo +nightly fuzz build "$target"
done

status=0
run() { # run TARGET MAX_LEN TIMEOUT
  local target=$1 max_len=$2 timeout=$3
  echo "== fuzzing $target for $seconds s (crashes go to $here/artifacts/$target/)"
  cargo +nightly fuzz run "$target" corpus/"$target" -- -max_len="$max_len" -timeout="$timeout" "${common[@]}" || {
    status=1
    echo "== $target FOUND A CRASH: see $here/artifacts/$target/"
  }
}
if [ "${FUZZ_PARALLEL:-0}" = 1 ]; then
  for target in $targets; do
    run "$target" 4096 "$(timeout_of "$target")" >"$target.log" 2>&1 &
  done
  wait
  for target in $targets; do
    tail -n 30 "$target.log"
    grep -q "FOUND A CRASH" "$target.log" && status=1
  done
else
  for target in $targets; do
    run "$target" 4096 "$(timeout_of "$target")"
  done
fi
echo "== done; crashing inputs (if any):"
for target in $targets; do
  ls -l "artifacts/$target" 2>/dev/null || true
done
exit "$status"
