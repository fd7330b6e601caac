#!/usr/bin/env bash
# Checks tests/run_all.sh itself with a stand-in for make: a failing suite must not stop the
# suites after it, a suite that prints NOT RUN counts as skipped, each suite is announced by a
# progress line (`=== [k/n] suite (elapsed mm:ss) ===`), the last line is the summary and the exit
# status is non-zero when a suite failed (zero otherwise); with two lanes, two suites run side by
# side and a suite that must run alone (ALONE_SUITES) overlaps no other.
set -u
. "$(dirname "$0")/lib.sh"
enter_work_dir
dir=$work
cat > "$dir/make" <<'MAKE'
#!/bin/sh
# Stand-in make: the last argument names the suite; `all` builds nothing.
for target; do :; done
echo "$target" >> "$RAN"
case $target in
  bad*) echo "suite $target fails"; exit 2 ;;
  skip*) echo "NOT RUN: suite $target (needs something)"; exit 0 ;;
  *) echo "suite $target ok" ;;
esac
MAKE
chmod +x "$dir/make"

check() { # name, condition result
  if [ "$2" = 0 ]; then ok "$1"; else ko "$1"; fi
}

export RAN="$dir/ran"
export FRESH_PATH=0 PREBUILD=
TEST_LANES=1 MAKE="$dir/make" SUITES="one bad-two skip-three four" "$top/tests/run_all.sh" > "$dir/out" 2>&1
status=$?
[ "$status" -ne 0 ]; check "a failing suite makes the run fail" $?
[ "$(tr '\n' ' ' < "$RAN")" = "all one bad-two skip-three four " ]; check "every suite runs after a failing one" $?
[ "$(tail -n 1 "$dir/out")" = "Suites: 2 passed, 1 failed, 1 skipped" ]; check "one closing summary line" $?
grep -q '^FAILED: bad-two (exit status 2)$' "$dir/out"; check "the failing suite is named" $?
[ "$(grep '^=== \[' "$dir/out" | sed 's/(elapsed [0-9][0-9]:[0-5][0-9])/(elapsed T)/' | tr '\n' '|')" = \
  "=== [1/4] one (elapsed T) ===|=== [2/4] bad-two (elapsed T) ===|=== [3/4] skip-three (elapsed T) ===|=== [4/4] four (elapsed T) ===|" ]
check "one progress line before each suite: place, name, elapsed mm:ss" $?

: > "$RAN"
TEST_LANES=1 MAKE="$dir/make" SUITES="one four" "$top/tests/run_all.sh" > "$dir/out" 2>&1
status=$?
[ "$status" -eq 0 ] && [ "$(tail -n 1 "$dir/out")" = "Suites: 2 passed, 0 failed" ]; check "all passed: status 0" $?

# Two lanes: a stand-in make whose suites take a second (slow ones two) and log when they start
# and end; `solo` must run alone.
cat > "$dir/lanes-make" <<'MAKE'
#!/bin/sh
for target; do :; done
[ "$target" = all ] && exit 0
echo "$(date +%s%N) start $target" >> "$RAN"
case $target in slow*) sleep 2 ;; *) sleep 1 ;; esac
echo "$(date +%s%N) end $target" >> "$RAN"
case $target in bad*) echo "suite $target fails"; exit 2 ;; esac
echo "suite $target ok"
MAKE
chmod +x "$dir/lanes-make"
: > "$RAN"
TEST_LANES=2 ALONE_SUITES=solo MAKE="$dir/lanes-make" SUITES="one slow-two bad-three solo four five" \
  "$top/tests/run_all.sh" > "$dir/out" 2>&1
status=$?
[ "$status" -ne 0 ] && [ "$(tail -n 1 "$dir/out")" = "Suites: 5 passed, 1 failed" ]; check "two lanes: every suite counted, the failure too" $?
# running: how many suites run at each start or end, from the log sorted by time.
overlap=$(sort -n "$RAN" | awk '$2 == "start" { n++; if (n > most) most = n; if ($3 == "solo" && n > 1) bad = 1; if (n > 1 && solo) bad = 1; if ($3 == "solo") solo = 1 }
  $2 == "end" { n--; if ($3 == "solo") solo = 0 } END { print most, bad + 0 }')
[ "${overlap% *}" = 2 ]; check "two lanes: two suites run side by side" $?
[ "${overlap#* }" = 0 ]; check "two lanes: the suite that must run alone overlaps no other" $?
grep -q '^=== slow-two (ended, elapsed [0-9:]*): its output ===$' "$dir/out" && grep -q '^suite slow-two ok$' "$dir/out"
check "two lanes: a suite's output is shown whole when it ends" $?
[ "$(grep -c '^  [a-z-]*  *[0-9][0-9]:[0-9][0-9]  (CPU [0-9][0-9]:[0-9][0-9])$' "$dir/out")" = 6 ]
check "the durations: one line per suite, its time and CPU time" $?

finish
