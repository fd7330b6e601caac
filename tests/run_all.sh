#!/usr/bin/env bash
# `make test`: runs every test suite in turn, going on after a suite that fails, and ends with one
# line `Suites: N passed, M failed[, K skipped]` (a suite is skipped when it printed NOT RUN and
# exited 0, which only happens outside CI). Exits non-zero when any suite failed. Before each
# suite one progress line: `=== [k/n] suite (elapsed mm:ss) ===`.
#
# Each suite is a make target of its own (`make rust-test`, `make parity`, …), so one suite can
# be run alone; SUITES="parity limits" tests/run_all.sh runs a chosen few.
set -u
SECONDS=0
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
make=${MAKE:-make}
suites=${SUITES:-runner-test notices check-header rust-test capi-test examples-test bindings-test external-test cli-errors practice-test scale-out-test formats-endplay limits soak-short parity \
dd-reference consumer-test windows-test wasm-test docs-test release-test}

passed=0
failed=0
skipped=0
failures=()
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# Nothing can be tested without the build: a failed build fails every suite.
if ! "$make" --no-print-directory all; then
  echo
  echo "FAILED: the build; every suite counts as failed"
  echo "Suites: 0 passed, $(echo $suites | wc -w) failed"
  exit 1
fi

total=$(echo $suites | wc -w)
k=0
for suite in $suites; do
  k=$((k + 1))
  echo
  # progress: the suite's place in the run and the time since the run started (build included)
  printf '=== [%d/%d] %s (elapsed %02d:%02d) ===\n' "$k" "$total" "$suite" $((SECONDS / 60)) $((SECONDS % 60))
  "$make" --no-print-directory "$suite" 2>&1 | tee "$log"
  status=${PIPESTATUS[0]}
  if [ "$status" -ne 0 ]; then
    failed=$((failed + 1))
    failures+=("$suite (exit status $status)")
  elif grep -q '^NOT RUN' "$log"; then
    skipped=$((skipped + 1))
    echo "=== $suite: NOT RUN ==="
  else
    passed=$((passed + 1))
    echo "=== $suite: passed ==="
  fi
done

echo
for failure in "${failures[@]}"; do echo "FAILED: $failure"; done
summary="Suites: $passed passed, $failed failed"
if [ "$skipped" -gt 0 ]; then summary="$summary, $skipped skipped"; fi
echo "$summary"
[ "$failed" -eq 0 ]
