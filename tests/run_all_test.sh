#!/usr/bin/env bash
# Checks tests/run_all.sh itself with a stand-in for make: a failing suite must not stop the
# suites after it, a suite that prints NOT RUN counts as skipped, the last line is the summary
# and the exit status is non-zero when a suite failed (zero otherwise).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
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

passed=0
failed=0
check() { # name, condition result
  if [ "$2" = 0 ]; then echo "ok: $1"; passed=$((passed + 1)); else echo "FAIL: $1"; failed=$((failed + 1)); fi
}

export RAN="$dir/ran"
MAKE="$dir/make" SUITES="one bad-two skip-three four" "$top/tests/run_all.sh" > "$dir/out" 2>&1
status=$?
[ "$status" -ne 0 ]; check "a failing suite makes the run fail" $?
[ "$(tr '\n' ' ' < "$RAN")" = "all one bad-two skip-three four " ]; check "every suite runs after a failing one" $?
[ "$(tail -n 1 "$dir/out")" = "Suites: 2 passed, 1 failed, 1 skipped" ]; check "one closing summary line" $?
grep -q '^FAILED: bad-two (exit status 2)$' "$dir/out"; check "the failing suite is named" $?

: > "$RAN"
MAKE="$dir/make" SUITES="one four" "$top/tests/run_all.sh" > "$dir/out" 2>&1
status=$?
[ "$status" -eq 0 ] && [ "$(tail -n 1 "$dir/out")" = "Suites: 2 passed, 0 failed" ]; check "all passed: status 0" $?

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
