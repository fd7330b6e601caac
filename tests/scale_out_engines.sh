#!/usr/bin/env bash
# Scale-out on real engines (README "Scale-out: one job on many machines"): the recipes of
# cluster/ run a job as parts and a merge, and the merged output is byte for byte what one run
# of the job prints (the "Time needed" line aside):
#
# 1. GNU parallel (Debian `parallel`): cluster/parallel/run.sh, 4 parts on this machine.
# 2. Slurm: a single-node cluster started here (munged with its own key and socket, slurmctld
#    and slurmd on 127.0.0.1 on free ports, state and logs in a temporary folder; stopped at
#    the end), cluster/slurm/submit.sh submitting a job array of 4 parts and the merge that
#    depends on it, for a double-dummy script and a statistics script.
#
# An engine that is not installed (or Slurm without root) is NOT RUN, a failure under CI=true.
# Prints ok/FAIL per row and 'N passed, M failed'; exit status 1 if a row failed.
# Environment: DEALER_CLI (default target/release/dealer).
set -u
. "$(dirname "$0")/lib.sh"
require_cli
enter_work_dir
status=0
not_run() {
  echo "NOT RUN: $1"
  if [ "${CI:-}" = true ]; then status=1; fi
}

cat >dd.dlr <<'DLR'
condition hcp(north) + hcp(south) >= 26
produce 8
action printes(dds(south, notrump), " ", dds(north, hearts), "\n"), printpbn, average "tricks" dds(south, spades)
DLR
cat >stats.dlr <<'DLR'
condition hcp(north) >= 15 and hcp(south) >= 8
produce 2000
action average "south" hcp(south), frequency "spades" (spades(north), 0, 13), printoneline
DLR

# compare NAME ONE MERGED
compare() {
  if ! [ -s "$2" ]; then
    ko "$1: one run printed nothing"
  elif cmp -s <(without_timing "$2") <(without_timing "$3"); then
    ok "$1: merged = one run ($(wc -l <"$2") lines)"
  else
    ko "$1: merged output differs" "$(diff <(without_timing "$2") <(without_timing "$3") | head -4)"
  fi
}

# 1. GNU parallel.
if command -v parallel >/dev/null; then
  mkdir parallel-parts
  "$cli" -s 5 -g 200000 stats.dlr >stats.one
  if DEALER=$cli PARTS_DIR=parallel-parts "$top/cluster/parallel/run.sh" 4 stats.parallel -s 5 -g 200000 stats.dlr 2>parallel.err; then
    compare "GNU parallel, 4 parts of a statistics job" stats.one stats.parallel
  else
    ko "GNU parallel recipe" "$(head -3 parallel.err)"
  fi
else
  not_run "GNU parallel is not installed (apt-get install parallel)"
fi

# 2. Slurm.
slurm_ready=
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null; then
  not_run "Slurm is not installed (apt-get install slurm-wlm munge)"
elif [ "$(id -u)" != 0 ]; then
  not_run "Slurm: slurmd runs as root"
else
  cluster=$PWD/cluster
  . "$top/tests/slurm_cluster.sh"
  trap 'stop_slurm_cluster "$cluster"; rm -rf "$work"' EXIT
  if start_slurm_cluster "$cluster"; then
    slurm_ready=1
    ok "a single-node Slurm cluster started ($(sinfo -h -o '%P %D %T'))"
  else
    ko "the Slurm cluster did not start" "$(tail -3 "$cluster/slurmctld.log" "$cluster/slurmd.log" 2>/dev/null)"
  fi
fi

# slurm_job NAME SCRIPT OPTIONS...: submit.sh with 4 parts, waits for the merge, compares.
slurm_job() {
  local name=$1 script=$2
  shift 2
  mkdir -p "$name.parts"
  "$cli" "$@" "$script" >"$name.one"
  local merge
  merge=$(DEALER=$cli PARTS_DIR=$PWD/$name.parts "$top/cluster/slurm/submit.sh" 4 "$PWD/$name.merged" "$@" "$script") || {
    ko "Slurm $name: sbatch refused"
    return
  }
  wait_for_slurm_job "$merge" 300
  if [ -s "$name.merged.err" ]; then
    ko "Slurm $name: the merge failed" "$(head -3 "$name.merged.err")"
  elif ! [ -f "$name.merged" ]; then
    ko "Slurm $name: no merged output" "$(cat "$name".parts/*.log | head -4)"
  else
    compare "Slurm job array of 4 parts and a dependent merge, $name" "$name.one" "$name.merged"
  fi
}
if [ -n "$slurm_ready" ]; then
  slurm_job "double dummy" dd.dlr -s 3 -g 400
  slurm_job "statistics" stats.dlr -s 4 -g 400000
fi
finish "$status"
