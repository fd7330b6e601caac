#!/usr/bin/env bash
# Double-dummy benchmark: full tables per second on the same random deals
#   - through libdealer (the CLI, `printrpt(deal, trix(deal))`, -R 1 and -R 2),
#   - calling DDS directly through dds-bridge-sys (examples/dds_direct.rs, 1 and 2 threads),
#   - with Debian's DDS 2.9 (libdds-dev, tests/dds29/dd_bench29.c, 1 and 2 threads), if installed,
#   - and, through libdealer only, deals judged per second by a condition that reads `dds()`
#     with actions that read it too (-R 1 and -R 2),
# each the median of REPEAT runs taken in turn, and the ratios the project tracks. Not a test:
# numbers depend on the machine (and on a shared virtual machine they vary by several percent
# from run to run).
# Usage: tests/bench_dd.sh [DEALS [REPEAT]] (default 40 deals, 5 runs; the double-dummy condition
# workload judges 3 × DEALS deals).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cli="$top/target/release/dealer"
direct="$top/target/release/examples/dds_direct"
dds29="$top/target/release/dd_bench29"
deals=${1:-40}
repeat=${2:-5}
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
printf 'produce %s\naction printrpt(deal, trix(deal))\n' "$deals" >"$work/dd.dl"

# Prints tables per second of one CLI run with THREADS threads; keeps its output as deals.
ours() {
  local start end
  start=$(date +%s.%N)
  "$cli" -s 1 -v -R "$1" "$work/dd.dl" >"$work/deals.$1" 2>/dev/null
  end=$(date +%s.%N)
  awk -v n="$deals" -v s="$start" -v e="$end" 'BEGIN{printf "%.2f", n / (e - s)}'
}
# Prints the tables_per_second field of a line `... tables_per_second=R`.
rate() { sed -n 's/.*tables_per_second=\([0-9.]*\).*/\1/p'; }
median() { tr ' ' '\n' | grep . | sort -g | awk '{v[NR]=$1} END{print v[int((NR+1)/2)]}'; }

declare -A runs
for ((i = 0; i < repeat; i++)); do
  for t in 1 2; do
    runs[ours$t]+="$(ours $t) "
    runs[direct$t]+="$("$direct" $t <"$work/deals.1" | rate) "
    [ -x "$dds29" ] && runs[lib$t]+="$("$dds29" $t <"$work/deals.1" | rate) "
  done
done
cmp -s "$work/deals.1" "$work/deals.2" || echo "WARNING: outputs of -R 1 and -R 2 differ"
m() { echo "${runs[$1]}" | median; }
printf '%-36s %10s %10s\n' "tables/s ($deals deals, median of $repeat)" "1 thread" "2 threads"
printf '%-36s %10s %10s\n' "libdealer (CLI)" "$(m ours1)" "$(m ours2)"
printf '%-36s %10s %10s\n' "DDS direct (dds-bridge-sys)" "$(m direct1)" "$(m direct2)"
[ -x "$dds29" ] && printf '%-36s %10s %10s\n' "Debian libdds 2.9" "$(m lib1)" "$(m lib2)"
ratio() { awk -v a="$1" -v b="$2" 'BEGIN{printf "%.2f", a / b}'; }
echo "libdealer / DDS direct, 1 thread:     $(ratio "$(m ours1)" "$(m direct1)")  (target >= 0.95)"
echo "libdealer 2 threads / 1 thread:       $(ratio "$(m ours2)" "$(m ours1)")  (target >= 1.7)"
if [ -x "$dds29" ]; then
  echo "libdealer / libdds 2.9, 1 thread:     $(ratio "$(m ours1)" "$(m lib1)")  (target >= 0.9)"
  echo "libdealer / libdds 2.9, 2 threads:    $(ratio "$(m ours2)" "$(m lib2)")  (target >= 0.9)"
fi

# A condition that reads double dummy, with actions that read it too: deals judged per second
# (every generated deal needs the solver; the actions' results only for the deals accepted).
# With several threads the deals are solved ahead in batches: the condition's results first,
# then the actions' for the deals the condition accepts.
judged=$((deals * 3))
printf 'generate %s\nproduce %s\ncondition dds(north, notrump) >= 8 || hcp(south) > 17\naction average dds(south, spades), average dds(east, hearts)\n' \
  "$judged" "$judged" >"$work/cond.dl"
judge() {
  local start end
  start=$(date +%s.%N)
  "$cli" -s 1 -R "$1" "$work/cond.dl" 2>/dev/null | grep -v '^Time' >"$work/cond.$1"
  end=$(date +%s.%N)
  awk -v n="$judged" -v s="$start" -v e="$end" 'BEGIN{printf "%.2f", n / (e - s)}'
}
for ((i = 0; i < repeat; i++)); do
  for t in 1 2; do runs[cond$t]+="$(judge $t) "; done
done
cmp -s "$work/cond.1" "$work/cond.2" || echo "WARNING: outputs of -R 1 and -R 2 differ (condition with dds)"
echo
printf '%-36s %10s %10s\n' "deals/s, dds() condition + actions" "1 thread" "2 threads"
printf '%-36s %10s %10s\n' "libdealer (CLI), $judged deals" "$(m cond1)" "$(m cond2)"
echo "libdealer 2 threads / 1 thread:       $(ratio "$(m cond2)" "$(m cond1)")"

