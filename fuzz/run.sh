#!/usr/bin/env bash
# Fuzzes libdealer: seeds the corpora, builds both targets, then runs `script` and `capi` one
# after the other (at the same time, one core each, with FUZZ_PARALLEL=1), each for SECONDS
# (default 1800).
# Usage: [FUZZ_PARALLEL=1] fuzz/run.sh [SECONDS]   needs nightly and cargo-fuzz (see README.md)
# Crashing inputs land in fuzz/artifacts/<target>/ (crash-*, timeout-*, oom-*, leak-*).
set -eu
seconds=${1:-1800}
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
# Common libFuzzer options: 2 GB is runaway memory. A hang: 10 s per script input; 30 s per
# capi input, whose arbitrary deals go to the double-dummy solver one table at a time (an
# adversarial deal takes over a second alone, up to 12 s under ASan on a loaded machine, and a
# solve cannot be interrupted).
common=(-rss_limit_mb=2048 -max_total_time="$seconds" -print_final_stats=1)

./seed-corpus.sh
cargo +nightly fuzz build script
cargo +nightly fuzz build capi

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
  run script 4096 10 >script.log 2>&1 &
  run capi 4096 30 >capi.log 2>&1 &
  wait
  tail -n 30 script.log capi.log
  grep -q "FOUND A CRASH" script.log capi.log && status=1
else
  run script 4096 10
  run capi 4096 30
fi
echo "== done; crashing inputs (if any):"
ls -l artifacts/script artifacts/capi 2>/dev/null || true
exit "$status"
