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
# Common libFuzzer options: 10 s per input is a hang; 2 GB is runaway memory.
common=(-timeout=10 -rss_limit_mb=2048 -max_total_time="$seconds" -print_final_stats=1)

./seed-corpus.sh
cargo +nightly fuzz build script
cargo +nightly fuzz build capi

status=0
run() { # run TARGET MAX_LEN
  local target=$1 max_len=$2
  echo "== fuzzing $target for $seconds s (crashes go to $here/artifacts/$target/)"
  cargo +nightly fuzz run "$target" corpus/"$target" -- -max_len="$max_len" "${common[@]}" || {
    status=1
    echo "== $target FOUND A CRASH: see $here/artifacts/$target/"
  }
}
if [ "${FUZZ_PARALLEL:-0}" = 1 ]; then
  run script 4096 >script.log 2>&1 &
  run capi 4096 >capi.log 2>&1 &
  wait
  tail -n 30 script.log capi.log
  grep -q "FOUND A CRASH" script.log capi.log && status=1
else
  run script 4096
  run capi 4096
fi
echo "== done; crashing inputs (if any):"
ls -l artifacts/script artifacts/capi 2>/dev/null || true
exit "$status"
