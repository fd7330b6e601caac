#!/usr/bin/env bash
# Checks tests/run_all.sh itself with a stand-in for make: a failing suite must not stop the
# suites after it, a suite that prints NOT RUN counts as skipped, each suite is announced by a
# progress line (`=== [k/n] suite (elapsed mm:ss) ===`), the last line is the summary and the exit
# status is non-zero when a suite failed (zero otherwise).
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
MAKE="$dir/make" SUITES="one bad-two skip-three four" "$top/tests/run_all.sh" > "$dir/out" 2>&1
status=$?
[ "$status" -ne 0 ]; check "a failing suite makes the run fail" $?
[ "$(tr '\n' ' ' < "$RAN")" = "all one bad-two skip-three four " ]; check "every suite runs after a failing one" $?
[ "$(tail -n 1 "$dir/out")" = "Suites: 2 passed, 1 failed, 1 skipped" ]; check "one closing summary line" $?
grep -q '^FAILED: bad-two (exit status 2)$' "$dir/out"; check "the failing suite is named" $?
[ "$(grep '^=== \[' "$dir/out" | sed 's/(elapsed [0-9][0-9]:[0-5][0-9])/(elapsed T)/' | tr '\n' '|')" = \
  "=== [1/4] one (elapsed T) ===|=== [2/4] bad-two (elapsed T) ===|=== [3/4] skip-three (elapsed T) ===|=== [4/4] four (elapsed T) ===|" ]
check "one progress line before each suite: place, name, elapsed mm:ss" $?

: > "$RAN"
MAKE="$dir/make" SUITES="one four" "$top/tests/run_all.sh" > "$dir/out" 2>&1
status=$?
[ "$status" -eq 0 ] && [ "$(tail -n 1 "$dir/out")" = "Suites: 2 passed, 0 failed" ]; check "all passed: status 0" $?

finish
