#!/usr/bin/env bash
# Benchmark: reading deals (--input). The CLI writes the files itself, from one seed: DEALS
# deals (default 1,000,000) as one-line text (printoneline), DL52 (-l w:), ZRD without tables
# (-Z wN:) and ZRD with tables (the same records with a table filled into each record's 20
# results by this script: solving a million tables would take days), and TEXT_DEALS (default
# 250,000) as PBN, LIN and JSON Lines (--format=pbn|lin|jsonl). Then the CLI reads each file on
# one thread (-R 1) with two scripts:
#   trivial  `condition hcp(north) >= 0` and `action average hcp(north)`: the reading itself;
#   shape    a condition on South's shape and points and a frequency of them (a workload the
#            readers were not tuned for);
# and prints one row per file and script: records read, the median wall time of RUNS runs
# (default 3; the whole process) and their CPU time (user and system, /usr/bin/time), records
# per second of wall time, the target of issue 54 (one-line and DL52 1,000,000 a second, PBN
# 200,000; the other formats have none) and the ratio to it. Every run's summary must count
# the records the file holds. Not a test: numbers depend on the machine (and on what else it
# runs).
#
# tests/bench_input.sh --quick: 20,000 deals of every format, one run of the trivial script;
# checks only that every file reads whole (its count of records), prints the table, exit
# status 1 when a count is wrong (tests/cli_input.sh runs it).
#
# Usage: tests/bench_input.sh [--quick]   (RUNS=n, DEALS=n, TEXT_DEALS=n; TMPDIR for the files,
#        about 400 MB with the defaults)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cli=${DEALER_CLI:-$top/target/release/dealer}
quick=false
[ "${1:-}" = --quick ] && quick=true
if $quick; then
  deals=20000 text_deals=20000 runs=1
else
  deals=${DEALS:-1000000} text_deals=${TEXT_DEALS:-250000} runs=${RUNS:-3}
fi
if [ ! -x "$cli" ]; then
  echo "FAIL: $cli not found (run make first)"
  exit 1
fi
timer=/usr/bin/time
[ -x "$timer" ] || timer=""
work=$(mktemp -d "${TMPDIR:-/tmp}/bench_input.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1

# The files.
started=$(date +%s.%N)
printf 'produce %d\naction printoneline\n' "$deals" >oneline.dl
printf 'produce %d\n' "$deals" >binary.dl
printf 'produce %d\n' "$text_deals" >text.dl
# (The run's statistics follow the deals on the output: only the deal lines are kept.)
"$cli" -s 1 oneline.dl | grep '^n ' >deals.oneline || { echo "FAIL: writing one-line deals"; exit 1; }
"$cli" -s 1 -q -l w:deals.dl52 -Z wN:deals-no-tables.zrd binary.dl >/dev/null || { echo "FAIL: writing DL52 and ZRD"; exit 1; }
for format in pbn lin jsonl; do
  "$cli" -s 1 --format=$format text.dl >deals.$format || { echo "FAIL: writing $format"; exit 1; }
done
# ZRD with tables: each record's five 16-bit words of results (bytes 14 to 23) filled with
# 0x7676, North and South 7 tricks and East and West 6 in every strain (a table no real deal
# needs to have, but the reader takes any results of 0 to 13; what it costs is the same).
tables=false
if command -v python3 >/dev/null; then
  python3 - deals-no-tables.zrd deals.zrd <<'PY' && tables=true
import sys
data = bytearray(open(sys.argv[1], "rb").read())
n = len(data) // 23
for k in range(13, 23):
    data[k::23] = b"\x76" * n
open(sys.argv[2], "wb").write(data)
PY
fi
echo "files written in $(awk -v s="$started" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }') s" \
  "($(du -sm . | cut -f1) MB); $(nproc) cores; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"

printf 'condition hcp(north) >= 0\naction average hcp(north)\n' >trivial.dl
printf 'condition shape(south, any 5xxx + any 6xxx + any 5431) and hcp(south) >= 11\naction frequency "points" (hcp(south), 11, 22)\n' >shape.dl

# rows: format, file, records, target (0: none).
rows=(
  "oneline deals.oneline $deals 1000000"
  "dl52 deals.dl52 $deals 1000000"
  "zrd deals.zrd $deals 0"
  "zrd-no-tables deals-no-tables.zrd $deals 0"
  "pbn deals.pbn $text_deals 200000"
  "lin deals.lin $text_deals 0"
  "jsonl deals.jsonl $text_deals 0"
)
workloads=(trivial shape)
$quick && workloads=(trivial)

median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

# read_once FILE SCRIPT: prints "<records read> <wall seconds> <cpu seconds>" (the wall time
# from the shell's clock, the CPU time, user and system, from /usr/bin/time when there is one).
read_once() {
  local start end read status
  start=$(date +%s.%N)
  if [ -n "$timer" ]; then
    "$timer" -f '%U %S' -o time.out "$cli" -R 1 --input="$1" --json-summary "$2" >run.out 2>run.err
  else
    "$cli" -R 1 --input="$1" --json-summary "$2" >run.out 2>run.err
  fi
  status=$?
  end=$(date +%s.%N)
  read=$(grep -o '"records_read":[0-9]*' run.out | cut -d: -f2)
  [ $status -eq 0 ] || read="error"
  if [ -n "$timer" ]; then
    tail -n 1 time.out | awk -v r="${read:-none}" -v s="$start" -v e="$end" '{ print r, e - s, $1 + $2 }'
  else
    awk -v r="${read:-none}" -v s="$start" -v e="$end" 'BEGIN { print r, e - s, "-" }'
  fi
}

status=0
$quick && echo "(--quick: checks the counts only; 20,000 records' times are mostly the process's start)"
printf '%-14s %-8s %9s %7s %8s %8s %12s %10s %7s\n' format script records MB seconds cpu-s records/s target ratio
for row in "${rows[@]}"; do
  read -r format file records target <<<"$row"
  if [ "$format" = zrd ] && ! $tables; then
    printf '%-14s %s\n' "$format" "not measured (python3 is needed to fill in the tables)"
    continue
  fi
  mb=$(awk -v b="$(stat -c %s "$file")" 'BEGIN { printf "%.1f", b / 1e6 }')
  for workload in "${workloads[@]}"; do
    walls="" cpus="" bad=""
    for _ in $(seq "$runs"); do
      read -r got wall cpu <<<"$(read_once "$file" "$workload.dl")"
      if [ "$got" != "$records" ]; then
        bad="read $got records, not $records: $(head -c 300 run.err)"
      fi
      walls+="$wall " cpus+="$cpu "
    done
    wall=$(tr ' ' '\n' <<<"$walls" | grep . | median)
    cpu=$(tr ' ' '\n' <<<"$cpus" | grep . | median | awk '{ if ($1 == "-") print "-"; else printf "%.3f", $1 }')
    rate=$(awk -v n="$records" -v t="$wall" 'BEGIN { printf "%.0f", (t > 0) ? n / t : 0 }')
    if [ "$target" -gt 0 ]; then
      ratio=$(awk -v r="$rate" -v t="$target" 'BEGIN { printf "%.2f", r / t }')
      shown_target=$target
    else
      ratio="-" shown_target="-"
    fi
    printf '%-14s %-8s %9d %7s %8.3f %8s %12d %10s %7s\n' "$format" "$workload" "$records" "$mb" "$wall" "$cpu" \
      "$rate" "$shown_target" "$ratio"
    if [ -n "$bad" ]; then
      echo "FAIL $format ($workload): $bad"
      status=1
    fi
  done
done
exit $status
