#!/usr/bin/env bash
# Seeds the fuzz corpora (generated, not committed; see .gitignore):
#   corpus/script/  every script of the parity suites, the C examples and the benchmarks;
#   corpus/capi/    a few hand-made call sequences for the capi target;
#   corpus/sessions/ a few thread plans for the sessions target.
# Usage: fuzz/seed-corpus.sh   (from anywhere; sources that are missing are skipped)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
main=$(cd "$here/.." && pwd)
parity=${PARITY_DIR:-/work/shared/parity}
script_dir=$here/corpus/script
capi_dir=$here/corpus/capi
sessions_dir=$here/corpus/sessions
mkdir -p "$script_dir" "$capi_dir" "$sessions_dir"

n=0
add() { # add FILE: copy into the script corpus under a name that keeps its origin
  local f=$1 name
  [ -f "$f" ] || return 0
  name=$(printf '%s' "${f#"$parity"/}" | tr '/ ' '__')
  cp "$f" "$script_dir/$name"
  n=$((n + 1))
}
shopt -s nullglob
for f in "$parity"/pbs/scripts/* \
         "$parity"/dealerv2/cases/*.dli "$parity"/dealerv2/cases/*.dlx "$parity"/dealerv2/cases/*.dls \
         "$main"/examples/*.dl "$main"/examples/*.dlr "$main"/examples-c/*.dlr \
         "$main"/tests/bench/*.dl \
         /usr/share/doc/dealer/examples/Descr.*; do
  add "$f"
done
echo "corpus/script: $n scripts copied"

# capi: fuzz_targets/capi.rs decodes any bytes as a sequence of calls (arbitrary::Unstructured),
# so these are only starting points for the mutator.
printf '\x00'                                  >"$capi_dir/create"
printf '\x00\x0e\x0e\x13\x13\x14\x14\x12\x12' >"$capi_dir/mixed-ops"
printf 'condition hcp(north) >= 12\naction printoneline\n\x01\x0e\x0e\x13\x14\x00' >"$capi_dir/script-then-deal"
printf '\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18' >"$capi_dir/every-op"
head -c 512 /dev/zero | tr '\0' '\017' >"$capi_dir/load-many"
for seed in 1 2 3 4 5 6 7 8; do
  # Deterministic pseudo-random sequences (no /dev/urandom, so the corpus is reproducible).
  LC_ALL=C awk -v s="$seed" 'BEGIN { srand(s); for (i = 0; i < 200; i++) printf "%c", int(rand() * 256) }' \
    >"$capi_dir/random-$seed"
done
echo "corpus/capi: $(ls "$capi_dir" | wc -l) inputs"

# sessions: harness/sessions.rs decodes any bytes as threads' call lists (arbitrary::Unstructured:
# thread count, slots, phases, then each list's length and calls), so these too are only
# starting points. A plan whose calls all pick the same value: every thread creates, loads,
# runs … on one slot.
for byte in 000 001 002 003 006 011 014 020 040 077 100 177 200 377; do
  head -c 256 /dev/zero | tr '\0' "\\$byte" >"$sessions_dir/same-$byte"
done
for seed in 1 2 3 4 5 6 7 8 9 10 11 12; do
  LC_ALL=C awk -v s="$seed" 'BEGIN { srand(100 + s); n = 64 + (s * 37) % 400; for (i = 0; i < n; i++) printf "%c", int(rand() * 256) }' \
    >"$sessions_dir/random-$seed"
done
# Two threads, one slot, two phases: thread 0 creates a session, loads a script and runs it
# while thread 1 pauses and interrupts; then thread 0 deals on while thread 1 evaluates and
# frees the session.
printf '\x00\x00\x01\x03\x00\x00\x00\x01\x02\x00\x06\x01\x02\x0e\x01\x00\x0c\x00\x01\x09\x02\x02\x0b\x02\x00\x0f' \
  >"$sessions_dir/create-run-interrupt"
echo "corpus/sessions: $(ls "$sessions_dir" | wc -l) inputs"
