#!/usr/bin/env bash
# Double-dummy benchmark: full tables per second on the same random deals
#   - through libdealer (the CLI, `printrpt(deal, trix(deal))`, -R 1 and -R 2),
#   - calling DDS directly through dds-bridge-sys (examples/dds_direct.rs, 1 and 2 threads),
#   - with Debian's DDS 2.9 (libdds-dev, tests/dds29/dd_bench29.c, 1 and 2 threads), if installed,
# and the ratios the project tracks. Not a test: numbers depend on the machine.
# Usage: tests/bench_dd.sh [DEALS] (default 100).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cli="$top/target/release/dealer"
direct="$top/target/release/examples/dds_direct"
dds29="$top/target/release/dd_bench29"
deals=${1:-100}
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
printf 'produce %s\naction printrpt(deal, trix(deal))\n' "$deals" >"$work/dd.dl"

# Prints tables per second of one CLI run with THREADS threads; keeps its output as deals.
ours() {
  local start end
  start=$(date +%s.%N)
  "$cli" -s 1 -v -R "$1" "$work/dd.dl" >"$work/deals.$1" 2>/dev/null
  end=$(date +%s.%N)
  awk -v n="$deals" -v s="$start" -v e="$end" 'BEGIN{printf "%.1f", n / (e - s)}'
}
# Prints the tables_per_second field of a line `... tables_per_second=R`.
rate() { sed -n 's/.*tables_per_second=\([0-9.]*\).*/\1/p'; }

ours1=$(ours 1)
ours2=$(ours 2)
cmp -s "$work/deals.1" "$work/deals.2" || echo "WARNING: outputs of -R 1 and -R 2 differ"
direct1=$("$direct" 1 <"$work/deals.1" | rate)
direct2=$("$direct" 2 <"$work/deals.1" | rate)
printf '%-34s %12s %12s\n' "full tables per second ($deals deals)" "1 thread" "2 threads"
printf '%-34s %12s %12s\n' "libdealer (CLI)" "$ours1" "$ours2"
printf '%-34s %12s %12s\n' "DDS direct (dds-bridge-sys)" "$direct1" "$direct2"
if [ -x "$dds29" ]; then
  lib1=$("$dds29" 1 <"$work/deals.1" | rate)
  lib2=$("$dds29" 2 <"$work/deals.1" | rate)
  printf '%-34s %12s %12s\n' "Debian libdds 2.9" "$lib1" "$lib2"
fi
ratio() { awk -v a="$1" -v b="$2" 'BEGIN{printf "%.2f", a / b}'; }
echo "libdealer / DDS direct, 1 thread:     $(ratio "$ours1" "$direct1")  (target >= 0.95)"
echo "libdealer 2 threads / 1 thread:       $(ratio "$ours2" "$ours1")  (target >= 1.7)"
if [ -x "$dds29" ]; then
  echo "libdealer / libdds 2.9, 1 thread:     $(ratio "$ours1" "$lib1")  (target >= 0.9)"
  echo "libdealer / libdds 2.9, 2 threads:    $(ratio "$ours2" "$lib2")  (target >= 0.9)"
fi
