#!/usr/bin/env bash
# `make test`: runs every test suite in turn, going on after a suite that fails, and ends with one
# line `Suites: N passed, M failed[, K skipped]` (a suite is skipped when it printed NOT RUN and
# exited 0, which only happens outside CI). Exits non-zero when any suite failed. Before each
# suite one progress line: `=== [k/n] suite (elapsed mm:ss) ===`.
#
# Each suite is a make target of its own (`make rust-test`, `make parity`, …), so one suite can
# be run alone; SUITES="parity limits" tests/run_all.sh runs a chosen few. The summary lists
# each suite's duration, so that make test's budget (25 minutes on 2 cores) stays visible.
#
# On Debian, everything runs on the PATH of a fresh machine: the commands of the packages
# tools/install_deps.sh installs and what they depend on, and Rust's toolchain (rustup's
# folder), nothing else (tools/fresh_path.py); a tool installed by hand or only recommended
# is not found, as on a new user's machine. FRESH_PATH=0 keeps the caller's PATH.
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

if [ "${FRESH_PATH:-1}" != 0 ] && [ -r /var/lib/dpkg/status ]; then
  python3 tools/fresh_path.py make-path "$top/target/fresh-path" || exit 1
  PATH="$top/target/fresh-path:${CARGO_HOME:-$HOME/.cargo}/bin"
  export PATH
fi

# Nothing can be tested without the build: a failed build fails every suite.
if ! "$make" --no-print-directory all; then
  echo
  echo "FAILED: the build; every suite counts as failed"
  echo "Suites: 0 passed, $(echo $suites | wc -w) failed"
  exit 1
fi

built=$SECONDS
durations=()
total=$(echo $suites | wc -w)
k=0
for suite in $suites; do
  k=$((k + 1))
  echo
  # progress: the suite's place in the run and the time since the run started (build included)
  printf '=== [%d/%d] %s (elapsed %02d:%02d) ===\n' "$k" "$total" "$suite" $((SECONDS / 60)) $((SECONDS % 60))
  started=$SECONDS
  "$make" --no-print-directory "$suite" 2>&1 | tee "$log"
  status=${PIPESTATUS[0]}
  durations+=("$(printf '%-16s %02d:%02d' "$suite" $(((SECONDS - started) / 60)) $(((SECONDS - started) % 60)))")
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
echo "Durations (build $(printf '%02d:%02d' $((built / 60)) $((built % 60))), whole run $(printf '%02d:%02d' $((SECONDS / 60)) $((SECONDS % 60)))):"
for line in "${durations[@]}"; do echo "  $line"; done
for failure in "${failures[@]}"; do echo "FAILED: $failure"; done
summary="Suites: $passed passed, $failed failed"
if [ "$skipped" -gt 0 ]; then summary="$summary, $skipped skipped"; fi
echo "$summary"
[ "$failed" -eq 0 ]
