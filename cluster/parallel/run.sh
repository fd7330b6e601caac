#!/bin/sh
# Runs one libdealer job as N parts under GNU parallel (Debian `parallel`), then merges them
# (README "Scale-out"):
#
#   cluster/parallel/run.sh N OUTPUT [DEALER OPTIONS...] SCRIPT
#
# deals parts 0/N … (N-1)/N at once (as many at a time as parallel runs: one per core here,
# or on other machines with PARALLEL_SSHLOGIN="host1,host2" and a directory they all see) into
# $PARTS_DIR/part-K.bin, stops at the first part that fails, and merges them into OUTPUT:
# exactly what one run of the job prints. The dealer options must fix the seed (-s).
# Environment: DEALER (default `dealer`), PARTS_DIR (default the current directory),
# PARALLEL_SSHLOGIN (parallel's --sshlogin; default this machine only).
set -eu
if [ $# -lt 3 ]; then
  echo "usage: $0 N OUTPUT [DEALER OPTIONS...] SCRIPT" >&2
  exit 2
fi
n=$1
output=$2
shift 2
dealer=${DEALER:-dealer}
parts=${PARTS_DIR:-.}
# -q: the dealer's arguments go through as they are, spaces and all.
set -- --halt now,fail=1 -q "$dealer" --part "{}/$n" --part-file "$parts/part-{}.bin" "$@"
[ -n "${PARALLEL_SSHLOGIN:-}" ] && set -- --sshlogin "$PARALLEL_SSHLOGIN" "$@"
seq 0 $((n - 1)) | parallel "$@"
set --
k=0
while [ "$k" -lt "$n" ]; do
  set -- "$@" "$parts/part-$k.bin"
  k=$((k + 1))
done
"$dealer" --merge "$@" >"$output"
