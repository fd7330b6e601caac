#!/bin/sh
# Runs one libdealer job on a Slurm cluster as N parts and their merge (README "Scale-out"):
#
#   cluster/slurm/submit.sh N OUTPUT [DEALER OPTIONS...] SCRIPT
#
# submits part.sbatch as a job array of N tasks (`sbatch --array=0-(N-1)`), each dealing its
# part into $PARTS_DIR/part-K.bin (its log in part-K.log), then merge.sbatch, which runs once
# every part has succeeded (`--dependency=afterok`) and writes the job's output to OUTPUT (its
# errors to OUTPUT.err). Prints the merge job's id; `squeue`/`sacct` follow it. The dealer
# options must fix the seed (-s). Environment: DEALER (the dealer command on the nodes, default
# `dealer`), PARTS_DIR (a directory every node sees; default the current one), and anything
# sbatch reads (SBATCH_PARTITION, SBATCH_ACCOUNT, …).
set -eu
if [ $# -lt 3 ]; then
  echo "usage: $0 N OUTPUT [DEALER OPTIONS...] SCRIPT" >&2
  exit 2
fi
n=$1
output=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
parts=${PARTS_DIR:-.}
array=$(sbatch --parsable --array=0-$((n - 1)) --output="$parts/part-%a.log" "$here/part.sbatch" "$@")
sbatch --parsable --dependency="afterok:${array%%;*}" --output="$output" --error="$output.err" "$here/merge.sbatch" "$n"
