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
#
# The builds that only the last suites need (the Windows library's cargo build, the WebAssembly
# package with DDS's module, mdBook) run in the background from the start, at the lowest CPU
# priority, while the suites before them run (most of those leave a core idle): each has a
# cargo folder of its own, so no suite waits on its lock, and the first suite that needs them
# waits for them first (PREBUILD= names other make targets; PREBUILD="" builds nothing ahead).
# A build that failed there is built again, and fails, in the suite that needs it.
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
times_file=$(mktemp)
prebuild_pid=
trap 'rm -f "$log" "$times_file"; [ -z "$prebuild_pid" ] || kill -- -"$prebuild_pid" 2>/dev/null' EXIT

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

# The CPU seconds (user and system) of a shell's finished children, from the output of bash's
# `times` that FILE holds.
children_cpu() {
  awk 'NR == 2 { total = 0; for (i = 1; i <= 2; i++) { split($i, t, /[ms]/); total += t[1] * 60 + t[2] } printf "%d\n", total }' "$1"
}

built=$SECONDS
durations=()

# The background builds (see the top), started when a suite that needs them is to run.
prebuild_targets=${PREBUILD-windows-build wasm mdbook}
needs_prebuild() { case " windows-test wasm-test docs-test release-test " in *" $1 "*) return 0 ;; esac; return 1; }
prebuild_log=$top/target/prebuild.log
for suite in $suites; do
  if [ -n "$prebuild_targets" ] && needs_prebuild "$suite"; then
    echo "=== building ahead in the background: $prebuild_targets (log: target/prebuild.log) ==="
    # setsid: a process group of its own, so that an interrupted run stops it whole.
    # The shell that runs make writes its children's CPU time (`times`) for the summary.
    setsid bash -c 'nice -n 19 "$0" --no-print-directory -k "$@"; status=$?; times > "'"$prebuild_log"'.times"; exit $status' \
      "$make" $prebuild_targets > "$prebuild_log" 2>&1 &
    prebuild_pid=$!
    prebuild_started=$SECONDS
    break
  fi
done

# Waits for the background builds (once), and lists their time among the suites'.
wait_for_prebuild() {
  [ -n "$prebuild_pid" ] || return 0
  echo
  echo "=== waiting for the background builds: $prebuild_targets ==="
  local waited_from=$SECONDS status
  wait "$prebuild_pid"
  status=$?
  prebuild_pid=
  local cpu took=$((SECONDS - prebuild_started)) waited=$((SECONDS - waited_from))
  cpu=$(children_cpu "$prebuild_log.times" 2>/dev/null || echo 0)
  if [ "$status" -eq 0 ]; then echo "=== background builds: done ==="
  else
    echo "=== background builds failed (exit status $status): the suites that need them build again ==="
    tail -n 30 "$prebuild_log"
  fi
  durations+=("$(printf '%-16s %02d:%02d  (CPU %02d:%02d; waited for %02d:%02d)' "(background)" $((took / 60)) $((took % 60)) \
    $((cpu / 60)) $((cpu % 60)) $((waited / 60)) $((waited % 60)))")
}

total=$(echo $suites | wc -w)
k=0
for suite in $suites; do
  k=$((k + 1))
  if needs_prebuild "$suite"; then wait_for_prebuild; fi
  echo
  # progress: the suite's place in the run and the time since the run started (build included)
  printf '=== [%d/%d] %s (elapsed %02d:%02d) ===\n' "$k" "$total" "$suite" $((SECONDS / 60)) $((SECONDS % 60))
  started=$SECONDS
  # In a subshell whose `times` are the suite's alone (a background build ending meanwhile is
  # not counted).
  ( "$make" --no-print-directory "$suite"; status=$?; times > "$times_file"; exit $status ) 2>&1 | tee "$log"
  status=${PIPESTATUS[0]}
  took=$((SECONDS - started))
  cpu=$(children_cpu "$times_file")
  durations+=("$(printf '%-16s %02d:%02d  (CPU %02d:%02d)' "$suite" $((took / 60)) $((took % 60)) $((cpu / 60)) $((cpu % 60)))")
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
