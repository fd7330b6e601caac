#!/usr/bin/env bash
# Python binding test: installs bindings/python the way the README tells users to
# (`pip install ./bindings/python`, which builds the static library with make and the cffi
# extension against it) into a fresh virtual environment under target/, then runs its pytest
# suite from outside the source tree (so the installed package is what is imported):
# dealing and eval against the C ABI, NumPy bulk values against deal-by-deal eval, runs
# against the CLI's bytes for all three generators, PBN both ways, double dummy and par,
# errors with line and column, usereval and output callbacks, interrupts, every export reachable,
# and a 20-second soak (tests/test_soak.py: threads serving random requests, each against a run
# done alone; nothing leaked or left behind).
# Prints "ok: NAME" / "FAIL: NAME" per step, pytest's lines, and "N passed, M failed" (pytest's
# tests and the steps); exit status 1 on any failure. Without python3's venv the test is NOT
# RUN: a failure under CI=true, otherwise exit 0.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
python=${PYTHON:-python3}
venv="$top/target/python-venv"

if ! "$python" -c 'import venv, ensurepip' >/dev/null 2>&1; then
  echo "NOT RUN: $python with venv and ensurepip is needed (apt-get install python3-venv)"
  if [ "${CI:-}" = true ]; then exit 1; fi
  exit 0
fi

passed=0
failed=0
ok() { echo "ok: $1"; passed=$((passed + 1)); }
fail() { echo "FAIL: $1"; failed=$((failed + 1)); }
finish() { echo "$passed passed, $failed failed"; [ "$failed" -eq 0 ] && exit 0; exit 1; }
step() { # step NAME COMMAND...: run a step quietly; show the end of its output when it fails
  local name=$1 log
  shift
  if log=$("$@" 2>&1); then ok "$name"; return 0; fi
  fail "$name"
  printf '%s\n' "$log" | tail -n 30 | sed 's/^/  /'
  return 1
}

if [ ! -x "$top/target/release/dealer" ]; then
  (cd "$top" && make -s) >/dev/null 2>&1
fi
# pip builds in the source tree: a build folder left from an earlier library would be reused
# (its extension does not know the static library changed), so it goes too.
rm -rf "$venv" "$top/bindings/python/build"
step "python3 -m venv" "$python" -m venv "$venv" || finish
pip=("$venv/bin/python" -m pip --disable-pip-version-check --no-input)
step "pip install ./bindings/python[test]" "${pip[@]}" install "$top/bindings/python[test]" || finish

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Run from an empty folder with a copy of the tests: `import libdealer` must find the
# installed package, not the source folder.
cp -r "$top/bindings/python/tests" "$tmp/tests"
(cd "$tmp" && LIBDEALER_REPO="$top" timeout 600 "$venv/bin/python" -m pytest -q -p no:cacheprovider tests) \
  >"$tmp/pytest.out" 2>&1
status=$?
grep -v '^$' "$tmp/pytest.out"
summary=$(tail -n 1 "$tmp/pytest.out")
tests_passed=$(grep -o '[0-9]* passed' <<<"$summary" | grep -o '[0-9]*' || true)
tests_failed=0
for n in $(grep -oE '[0-9]+ (failed|error|errors)\b' <<<"$summary" | grep -oE '^[0-9]+'); do
  tests_failed=$((tests_failed + n))
done
passed=$((passed + ${tests_passed:-0}))
failed=$((failed + ${tests_failed:-0}))
if [ $status -ne 0 ] && [ "${tests_failed:-0}" -eq 0 ]; then
  fail "pytest: exit status $status with no failed test"
fi
if [ "${tests_passed:-0}" -eq 0 ]; then
  fail "pytest ran no test"
fi
finish
