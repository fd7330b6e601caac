#!/usr/bin/env bash
# Seeds the fuzz corpora (generated, not committed; see .gitignore):
#   corpus/script/  every script of the parity suites, the C examples and the benchmarks;
#   corpus/capi/    a few hand-made call sequences for the capi target;
#   corpus/sessions/ a few thread plans for the sessions target;
#   corpus/records/ small board-record files of every format (PBN, PBN with double-dummy tables,
#                   LIN, one-line, DL52, JSON Lines, ZRD) written by the CLI when it is built
#                   (target/release/dealer, or DEALER_CLI), and a few hand-made ones.
# Usage: fuzz/seed-corpus.sh   (from anywhere; sources that are missing are skipped)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
main=$(cd "$here/.." && pwd)
parity=${PARITY_DIR:-/work/shared/parity}
script_dir=$here/corpus/script
capi_dir=$here/corpus/capi
sessions_dir=$here/corpus/sessions
records_dir=$here/corpus/records
mkdir -p "$script_dir" "$capi_dir" "$sessions_dir" "$records_dir"

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

# records: fuzz_targets/records.rs reads the bytes as every record format. Files the CLI writes
# (4 boards each, a few with tables: each costs a double-dummy solve), then hand-made ones with
# the board data, tags and quirks the readers take (a BOM, CRLF, comments, an escaped quote,
# a LIN board spread over lines, a DL52 deal short of bytes).
cli=${DEALER_CLI:-$main/target/release/dealer}
if [ -x "$cli" ]; then
  work=$(mktemp -d)
  printf 'produce 4\n' >"$work/set.dl"
  printf 'produce 2\n' >"$work/dd.dl"
  printf 'produce 4\naction printoneline\n' >"$work/oneline.dl"
  "$cli" -s 1 --format=pbn "$work/set.dl" >"$records_dir/cli.pbn"
  "$cli" -s 2 --format=pbn --pbn-dd "$work/dd.dl" >"$records_dir/cli-dd.pbn"
  "$cli" -s 3 --format=lin "$work/set.dl" >"$records_dir/cli.lin"
  "$cli" -s 4 --format=jsonl "$work/set.dl" >"$records_dir/cli.jsonl"
  "$cli" -s 5 --format=jsonl --json-dd "$work/dd.dl" >"$records_dir/cli-dd.jsonl"
  "$cli" -s 6 "$work/oneline.dl" | grep '^n ' >"$records_dir/cli.oneline"
  "$cli" -s 7 -q -l "w:$records_dir/cli.dl52" -Z "wN:$records_dir/cli-no-tables.zrd" "$work/set.dl" >/dev/null
  "$cli" -s 8 -q -Z "w:$records_dir/cli.zrd" "$work/dd.dl" >/dev/null
  rm -rf "$work"
fi
printf '\xef\xbb\xbf%% PBN 2.1\r\n[Event "club \\"night\\""]\r\n[Board "12"]\r\n[Dealer "W"]\r\n[Vulnerable "Both"]\r\n{a comment}\r\n[Deal "W:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 -"]\r\n\r\n[Board "#"]\r\n[Deal "N:- - - AKQJT98765432..."]\r\n' \
  >"$records_dir/hand-quirks.pbn"
printf '[Deal "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"]\n[DoubleDummyTricks "d0d0d0d0d0d0d0d0d0d0"]\n' \
  >"$records_dir/hand-dd.pbn"
printf 'pn|Ann,Bob,Cy,Di|st||md|1SAKQJT98765432,HAKQJT98765432,DAKQJT98765432,|rh||ah|Board 3|sv|b|mb|1S|pg||\npn|Ed,,Fay,|md|2S2H2D2CAKQJT9876543,,,|sv|n|\n' \
  >"$records_dir/hand.lin"
printf 'qx|o7,BOARD 7|\nmd|4SAK,SQJ,ST9,S8\n|sv|e|\nqx|c8|md|3SAKQJT98765432,HAKQJT98765432,DAKQJT98765432,CAKQJT98765432|\n' \
  >"$records_dir/hand-spread.lin"
printf '# deals\nn AKQJ.T98.765.432 e T98.765.432.AKQJ s 765.432.AKQJ.T98 w 432.AKQJ.T98.765\r\nW:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765\n\n' \
  >"$records_dir/hand.oneline"
printf '{"board":5,"dealer":"S","vulnerable":"EW","tags":{"Event":"a\\u00e9 \\"b\\"","North":"x,y|z"},"deal":"N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"}\n{"deal":"E:- - - -","dd":{"north":{"notrump":7}}}\n' \
  >"$records_dir/hand.jsonl"
LC_ALL=C awk 'BEGIN { for (i = 0; i < 52; i++) printf "%c", (int(i / 13) * 16) + (i % 13); for (i = 0; i < 30; i++) printf "%c", i }' \
  >"$records_dir/hand-short.dl52"
echo "corpus/records: $(ls "$records_dir" | wc -l) inputs"
