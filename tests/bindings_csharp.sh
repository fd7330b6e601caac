#!/usr/bin/env bash
# C# binding test: builds bindings/csharp/Dealer.cs with its console test
# bindings/csharp/TestDealer.cs (mcs) and runs it with mono against target/lib/libdealer.so:
#   - drift: every dealer_* name (functions and types) and every DEALER_* constant of
#     include/dealer.h appears in Dealer.cs (each missing one is a FAIL);
#   - record sizes: Marshal.SizeOf of each struct equals the C sizeof (a small C program
#     compiled against include/dealer.h prints them);
#   - the test's own checks (errors with positions, iteration, Eval, double dummy, output
#     callback against the CLI's stdout for the same script and seed, Dispose, …).
# Prints "ok: NAME" / "FAIL: NAME" per check and "N passed, M failed"; exit status 1 on any
# failure. Without mcs, mono or a C compiler the test is NOT RUN: a failure under CI=true,
# otherwise exit status 0 (as tests/ffi_examples.sh).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
lib="$top/target/lib"
cli="$top/target/release/dealer"
header="$top/include/dealer.h"
binding="$top/bindings/csharp/Dealer.cs"
testsrc="$top/bindings/csharp/TestDealer.cs"
cc=${CC:-cc}

missing=()
for tool in mcs mono "$cc"; do
  command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
if [ ${#missing[@]} -gt 0 ]; then
  if ! command -v mcs >/dev/null 2>&1 || ! command -v mono >/dev/null 2>&1; then
    echo "NOT RUN: mono not installed (needs ${missing[*]}: apt-get install mono-mcs mono-runtime)"
  else
    echo "NOT RUN: C# binding test (needs ${missing[*]})"
  fi
  if [ "${CI:-}" = true ]; then exit 1; fi
  exit 0
fi

passed=0
failed=0
ok() { echo "ok: $1"; passed=$((passed + 1)); }
fail() { echo "FAIL: $1"; failed=$((failed + 1)); }
finish() { echo "$passed passed, $failed failed"; [ "$failed" -eq 0 ] && exit 0; exit 1; }

# Drift: names of the header missing from the binding.
names=$( (grep -o '\bdealer_[a-z_]*' "$header"; sed -n 's/^#define \(DEALER_[A-Z_0-9]*\) .*/\1/p' "$header") | sort -u)
count=0
drift=0
for name in $names; do
  count=$((count + 1))
  if ! grep -qw "$name" "$binding"; then
    fail "drift: $name (include/dealer.h) missing from bindings/csharp/Dealer.cs"
    drift=$((drift + 1))
  fi
done
if [ "$count" -lt 40 ]; then
  fail "drift: only $count names found in include/dealer.h"
elif [ "$drift" -eq 0 ]; then
  ok "drift: all $count dealer_*/DEALER_* names of include/dealer.h are in Dealer.cs"
fi

for file in "$lib/libdealer.so" "$cli"; do
  if [ ! -e "$file" ]; then
    fail "missing $file (build the library and the CLI first: make)"
    finish
  fi
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Record sizes from the C compiler.
cat >"$tmp/sizes.c" <<'C'
#include <stdio.h>
#include "dealer.h"
int main(void) {
  printf("dealer_deal=%zu\n", sizeof(dealer_deal));
  printf("dealer_run_report=%zu\n", sizeof(dealer_run_report));
  printf("dealer_dds_results=%zu\n", sizeof(dealer_dds_results));
  printf("dealer_usereval_query=%zu\n", sizeof(dealer_usereval_query));
  printf("dealer_hand_stats=%zu\n", sizeof(dealer_hand_stats));
  return 0;
}
C
if log=$("$cc" -std=c99 -Wall -I"$top/include" "$tmp/sizes.c" -o "$tmp/sizes" 2>&1) &&
  "$tmp/sizes" >"$tmp/sizes.txt"; then
  ok "C sizeof program"
else
  fail "C sizeof program"
  printf '%s\n' "$log" | tail -n 10 | sed 's/^/  /'
  finish
fi
# The script the output check runs, and the CLI's stdout for it with seed 7.
printf 'generate 1000\nproduce 5\naction printoneline\n' >"$tmp/seed7.dlr"
if "$cli" -s 7 "$tmp/seed7.dlr" >"$tmp/seed7.out" 2>"$tmp/seed7.err" &&
  [ "$(grep -c '^n ' "$tmp/seed7.out")" -eq 5 ]; then
  ok "CLI prints 5 deals for seed 7"
else
  fail "CLI prints 5 deals for seed 7"
  sed 's/^/  /' "$tmp/seed7.out" "$tmp/seed7.err" | head -n 8
fi

if log=$(mcs -out:"$tmp/TestDealer.exe" "$binding" "$testsrc" 2>&1); then
  ok "build Dealer.cs + TestDealer.cs (mcs)"
else
  fail "build Dealer.cs + TestDealer.cs (mcs)"
  printf '%s\n' "$log" | tail -n 30 | sed 's/^/  /'
  finish
fi

# Mono maps DllImport("dealer") to libdealer.so, found through LD_LIBRARY_PATH.
size_args=()
while IFS= read -r line; do size_args+=(--size "$line"); done <"$tmp/sizes.txt"
LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" timeout 300 \
  mono "$tmp/TestDealer.exe" "${size_args[@]}" \
  --script7 "$tmp/seed7.dlr" --cli-output7 "$tmp/seed7.out" >"$tmp/test.out" 2>"$tmp/test.err"
status=$?
sed '$d' "$tmp/test.out" | grep -v '^[0-9]* passed, [0-9]* failed$'
last=$(tail -n 1 "$tmp/test.out")
if [[ $last =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
  passed=$((passed + BASH_REMATCH[1]))
  failed=$((failed + BASH_REMATCH[2]))
  if [ $status -ne 0 ] && [ "${BASH_REMATCH[2]}" -eq 0 ]; then
    fail "TestDealer.exe: exit status $status with no failed check"
  fi
else
  echo "$last"
  fail "TestDealer.exe did not finish: exit status $status"
fi
if [ -s "$tmp/test.err" ]; then
  sed 's/^/  stderr: /' "$tmp/test.err" | head -n 20
fi
finish
