#!/usr/bin/env bash
# Pascal binding test: builds bindings/pascal/test_dealer.pas (fpc -Mdelphi) against the unit
# bindings/pascal/Dealer.pas and libdealer.so, then checks:
#   - drift: every dealer_* name and DEALER_* constant of include/dealer.h appears in Dealer.pas;
#   - layout: a small C program prints sizeof and offsetof of the header's structs and fields;
#     the Pascal test compares its records with them;
#   - the Pascal test's own checks (script error line and column, NextDeal / Eval, DD table,
#     freeing twice, CheckScript: a real BBO script of ../shared/parity/pbs/scripts without
#     error, a script with a `#` not in column 1 and a `shape{}` with both errors' positions);
#   - capture: "generate 1000 produce 5 action printoneline" run with a fixed seed through
#     SetOutput gives the bytes `dealer -s SEED` prints (the timing line masked).
# Prints "ok: NAME" / "FAIL: NAME" per check and "N passed, M failed"; exit status 1 on any
# failure. Without fpc (or cc) the test is NOT RUN: a failure under CI=true, otherwise exit 0.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
lib="$top/target/lib"
cli="$top/target/release/dealer"
unit_dir="$top/bindings/pascal"
header="$top/include/dealer.h"
cc=${CC:-cc}

if ! command -v fpc >/dev/null 2>&1; then
  echo "NOT RUN: fpc not installed"
  if [ "${CI:-}" = true ]; then exit 1; fi
  exit 0
fi
if ! command -v "$cc" >/dev/null 2>&1; then
  echo "NOT RUN: $cc not installed"
  if [ "${CI:-}" = true ]; then exit 1; fi
  exit 0
fi

passed=0
failed=0
ok() { echo "ok: $1"; passed=$((passed + 1)); }
fail() { echo "FAIL: $1"; failed=$((failed + 1)); }
finish() { echo "$passed passed, $failed failed"; [ "$failed" -eq 0 ] && exit 0; exit 1; }

if [ ! -e "$lib/libdealer.so" ] || [ ! -x "$cli" ]; then
  (cd "$top" && make -s) >/dev/null 2>&1
fi
for file in "$lib/libdealer.so" "$cli"; do
  if [ ! -e "$file" ]; then
    fail "missing $file (build the library and the CLI first: make)"
    finish
  fi
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Drift: every name of the header in the unit.
missing=0
for name in $(grep -o 'dealer_[a-z_]*' "$header" | sort -u) \
            $(grep -o 'DEALER_[A-Z_0-9]*' "$header" | grep -v -e '^DEALER_H$' -e '_$' | sort -u); do
  if ! grep -q "\\b$name\\b" "$unit_dir/Dealer.pas"; then
    fail "drift: $name of include/dealer.h missing from Dealer.pas"
    missing=$((missing + 1))
  fi
done
[ "$missing" -eq 0 ] && ok "drift: every dealer_* and DEALER_* name of the header is in Dealer.pas"

# The C layout of the header's structs.
cat >"$tmp/layout.c" <<'C'
#include <stdio.h>
#include <stddef.h>
#include "dealer.h"
#define S(t) printf(#t " %zu\n", sizeof(t))
#define O(t, f) printf(#t "." #f " %zu\n", offsetof(t, f))
int main(void) {
  S(dealer_deal); O(dealer_deal, hands);
  S(dealer_run_report); O(dealer_run_report, size); O(dealer_run_report, generated);
  O(dealer_run_report, produced); O(dealer_run_report, seed); O(dealer_run_report, ceiling);
  S(dealer_dds_results); O(dealer_dds_results, size); O(dealer_dds_results, par_vulnerability);
  O(dealer_dds_results, tricks); O(dealer_dds_results, par_score_ns);
  O(dealer_dds_results, par_contract);
  S(dealer_usereval_query); O(dealer_usereval_query, index);
  O(dealer_usereval_query, generated); O(dealer_usereval_query, produced);
  S(dealer_hand_stats); O(dealer_hand_stats, counts); O(dealer_hand_stats, total_counts);
  O(dealer_hand_stats, square_hand); O(dealer_hand_stats, top_cards);
  O(dealer_hand_stats, has_card);
  return 0;
}
C
if log=$("$cc" -I"$top/include" -o "$tmp/layout" "$tmp/layout.c" 2>&1) \
   && "$tmp/layout" >"$tmp/layout.txt"; then
  ok "C layout program"
else
  fail "C layout program"
  printf '%s\n' "$log" | tail -n 20 | sed 's/^/  /'
  finish
fi
# Every struct with a size field must be compared by the Pascal test.
for struct in $(awk '/^typedef struct \{/{s=1; f=0; next} s && /uint32_t size;/{f=1}
                    s && /^\} /{if (f) {sub(/;/, "", $2); print $2}; s=0}' "$header"); do
  if grep -q "'$struct'" "$unit_dir/test_dealer.pas" && grep -q "^$struct " "$tmp/layout.txt"; then
    ok "layout: $struct (has a size field) is checked"
  else
    fail "layout: $struct (has a size field) is not checked"
  fi
done

# Build the Pascal test.
mkdir -p "$tmp/build"
if log=$(fpc -Mdelphi -O2 -vw -Fu"$unit_dir" -Fl"$lib" -FE"$tmp/build" -FU"$tmp/build" \
           "$unit_dir/test_dealer.pas" 2>&1); then
  ok "fpc builds test_dealer.pas"
else
  fail "fpc builds test_dealer.pas"
  printf '%s\n' "$log" | tail -n 30 | sed 's/^/  /'
  finish
fi

seed=12345
printf 'generate 1000\nproduce 5\naction printoneline\n' >"$tmp/capture.dlr"
# A real BBO script for CheckScript (no error expected), when the shared material is there.
bbo_script=$(ls "${BBO_SCRIPTS:-$top/../shared/parity/pbs/scripts}"/*.dlr 2>/dev/null | head -n 1)
[ -n "$bbo_script" ] || echo "note: no BBO script found: CheckScript runs on built-in scripts only"
LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
  "$tmp/build/test_dealer" "$tmp/layout.txt" "$tmp/capture.dlr" "$seed" "$tmp/captured.txt" ${bbo_script:+"$bbo_script"} \
  >"$tmp/pascal.out" 2>&1
status=$?
grep -E '^(ok|FAIL): ' "$tmp/pascal.out"
p=$(grep -c '^ok: ' "$tmp/pascal.out")
f=$(grep -c '^FAIL: ' "$tmp/pascal.out")
passed=$((passed + p))
failed=$((failed + f))
if [ "$status" -eq 0 ] && grep -q "^$p passed, 0 failed\$" "$tmp/pascal.out"; then
  ok "test_dealer exit status 0 and summary"
else
  fail "test_dealer exit status $status"
  grep -vE '^(ok|FAIL): ' "$tmp/pascal.out" | head -n 20 | sed 's/^/  /'
fi

# Capture: the same bytes as the CLI, the timing line masked.
mask() { sed 's/^Time needed .*/Time needed (masked)/' "$1"; }
"$cli" -s "$seed" "$tmp/capture.dlr" >"$tmp/cli.txt" 2>/dev/null
if [ -s "$tmp/cli.txt" ] && [ "$(grep -c '^n ' "$tmp/cli.txt")" -eq 5 ] \
   && cmp -s <(mask "$tmp/cli.txt") <(mask "$tmp/captured.txt"); then
  ok "capture through SetOutput equals the CLI's output"
else
  fail "capture through SetOutput equals the CLI's output"
  diff <(mask "$tmp/cli.txt") <(mask "$tmp/captured.txt") | head -n 10 | sed 's/^/  /'
fi

finish
