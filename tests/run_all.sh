#!/usr/bin/env bash
# `make test`: runs every test suite, two at a time where they allow it (see below), going on
# after a suite that fails, and ends with one line `Suites: N passed, M failed[, K skipped]` (a
# suite is skipped when it printed NOT RUN and exited 0, which only happens outside CI). Exits
# non-zero when any suite failed. Before each suite one progress line:
# `=== [k/n] suite (elapsed mm:ss) ===`.
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
# package with DDS's module, mdBook, the Debian packages' build) run in the background from the
# start, one after another at the lowest CPU priority, while the suites before them run (most
# of those leave a core idle): each has a cargo folder of its own, so no suite waits on its
# lock, and a suite that needs one waits for it first (PREBUILD= names other make targets;
# PREBUILD="" builds nothing ahead). A build that failed there is built again, and fails, in the
# suite that needs it.
set -u
SECONDS=0
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
make=${MAKE:-make}
# The order: the suites that run alone (see ALONE_SUITES below) where they do not part the
# others, which then run two at a time.
suites=${SUITES:-runner-test notices check-header rust-test capi-test limits soak-short examples-test bindings-test \
external-test cli-errors practice-test scale-out-test server-test formats-endplay parity dd-reference consumer-test windows-test \
docs-test wasm-test release-test}

passed=0
failed=0
skipped=0
failures=()
prebuild_pid=
runs=
trap '[ -z "$runs" ] || rm -rf "$runs"; [ -z "$prebuild_pid" ] || kill -- -"$prebuild_pid" 2>/dev/null' EXIT

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

# The background builds (see the top), in this order, each a make target, and the suites that
# need each one (a target PREBUILD names that is not listed here: all four).
prebuild_targets=${PREBUILD-windows-build wasm mdbook deb-build}
needed_by() {
  case $1 in
    windows-build) echo windows-test release-test ;;
    wasm) echo docs-test wasm-test release-test ;;
    mdbook) echo docs-test ;;
    deb-build) echo release-test ;;
    *) echo windows-test wasm-test docs-test release-test ;;
  esac
}
needs_prebuild() { # suite: whether a background build is needed by it
  local target
  for target in $prebuild_targets; do case " $(needed_by "$target") " in *" $1 "*) return 0 ;; esac; done
  return 1
}
prebuild_dir=$top/target/prebuild
prebuild_waited=0
for suite in $suites; do
  if needs_prebuild "$suite"; then
    echo "=== building ahead in the background: $prebuild_targets (logs: target/prebuild/) ==="
    rm -rf "$prebuild_dir" && mkdir -p "$prebuild_dir"
    # setsid: a process group of its own, so that an interrupted run stops it whole. A new
    # session is also a scheduling group of its own (the kernel's autogroup), which competes
    # with the suites' as an equal whatever its processes' nice value: the group itself is
    # given the lowest priority. Each build leaves its exit status beside its log; the shell's
    # children's CPU time (`times`) is for the summary.
    setsid bash -c 'echo 19 > /proc/self/autogroup 2>/dev/null; dir=$1 make=$2; shift 2
      for target; do nice -n 19 "$make" --no-print-directory "$target" > "$dir/$target.log" 2>&1
        echo $? > "$dir/$target.status"; done
      times > "$dir/times"' lane "$prebuild_dir" "$make" $prebuild_targets > /dev/null 2>&1 &
    prebuild_pid=$!
    prebuild_started=$(date +%s)
    break
  fi
done

# Waits for the background builds that `suite` needs (each once).
wait_for_prebuild() { # suite
  local target waited_from=$SECONDS status
  for target in $prebuild_targets; do
    case " $(needed_by "$target") " in *" $1 "*) ;; *) continue ;; esac
    [ -e "$prebuild_dir/$target.reported" ] && continue
    [ -e "$prebuild_dir/$target.status" ] || echo "=== waiting for the background build of $target ==="
    while [ ! -e "$prebuild_dir/$target.status" ] && kill -0 "$prebuild_pid" 2>/dev/null; do sleep 1; done
    status=$(cat "$prebuild_dir/$target.status" 2>/dev/null || echo "none (the builds stopped)")
    if [ "$status" = 0 ]; then echo "=== background build of $target: done ==="
    else
      echo "=== background build of $target failed (exit status $status): the suites that need it build it again ==="
      tail -n 30 "$prebuild_dir/$target.log" 2>/dev/null
    fi
    touch "$prebuild_dir/$target.reported"
  done
  prebuild_waited=$((prebuild_waited + SECONDS - waited_from))
}

# The background builds' line among the durations, once they have ended.
prebuild_duration() {
  [ -n "$prebuild_pid" ] || return 0
  wait "$prebuild_pid"
  prebuild_pid=
  local cpu took
  took=$(($(stat -c %Y "$prebuild_dir/times" 2>/dev/null || date +%s) - prebuild_started))
  cpu=$(children_cpu "$prebuild_dir/times" 2>/dev/null || echo 0)
  durations+=("$(printf '%-16s %02d:%02d  (CPU %02d:%02d; suites waited for it %02d:%02d)' "(background)" $((took / 60)) \
    $((took % 60)) $((cpu / 60)) $((cpu % 60)) $((prebuild_waited / 60)) $((prebuild_waited % 60)))")
}

# Two suites at a time (TEST_LANES; one on a machine with one core): most run one program after
# another and leave a core idle. (More lanes are not offered: two suites that both pack the
# NuGet package, say, are kept apart only by their order.) A suite that measures time or loads every core
# itself runs alone (ALONE_SUITES): the Rust tests, the C API tests (threads, interrupts,
# valgrind side by side), the limits and soak tests (interrupts and ceilings timed), the
# browser test (Stop within a second) and the release (its builds). A suite that runs alone
# shows its output as it comes; the others' output is shown whole when they end.
lanes=${TEST_LANES:-$(( $(nproc 2>/dev/null || echo 1) > 1 ? 2 : 1 ))}
alone=${ALONE_SUITES-rust-test capi-test limits soak-short wasm-test release-test}
runs=$(mktemp -d)
is_alone() { [ "$lanes" -le 1 ] || case " $alone " in *" $1 "*) true ;; *) false ;; esac; }

# Counts a finished suite: its verdict, and its line among the durations.
record() { # suite, exit status, seconds it took
  local suite=$1 status=$2 took=$3 cpu
  cpu=$(children_cpu "$runs/$suite.times" 2>/dev/null || echo 0)
  durations+=("$(printf '%-16s %02d:%02d  (CPU %02d:%02d)' "$suite" $((took / 60)) $((took % 60)) $((cpu / 60)) $((cpu % 60)))")
  if [ "$status" -ne 0 ]; then
    failed=$((failed + 1))
    failures+=("$suite (exit status $status)")
  elif grep -q '^NOT RUN' "$runs/$suite.log"; then
    skipped=$((skipped + 1))
    echo "=== $suite: NOT RUN ==="
  else
    passed=$((passed + 1))
    echo "=== $suite: passed ==="
  fi
}

# Runs a suite in a subshell whose `times` are the suite's own, its output into its log.
run_suite() { # suite
  ( "$make" --no-print-directory "$1"; status=$?; times > "$runs/$1.times"; exit $status )
}

# The suites running beside this shell: process id -> suite; and when each suite started.
declare -A suite_of=() started_at=()

# Waits for one of them to end, then shows its output and counts it.
reap_one() {
  local ended status suite
  wait -n -p ended "${!suite_of[@]}"
  status=$?
  suite=${suite_of[$ended]}
  unset "suite_of[$ended]"
  echo
  echo "=== $suite (ended, elapsed $(printf '%02d:%02d' $((SECONDS / 60)) $((SECONDS % 60)))): its output ==="
  cat "$runs/$suite.log"
  record "$suite" "$status" $((SECONDS - ${started_at[$suite]}))
}

total=$(echo $suites | wc -w)
k=0
for suite in $suites; do
  k=$((k + 1))
  # Room for this suite: alone, once every running suite has ended; else a free lane.
  while [ ${#suite_of[@]} -gt 0 ] && { is_alone "$suite" || [ ${#suite_of[@]} -ge "$lanes" ]; }; do
    reap_one
  done
  [ -z "$prebuild_pid" ] || wait_for_prebuild "$suite"
  echo
  # progress: the suite's place in the run and the time since the run started (build included)
  printf '=== [%d/%d] %s (elapsed %02d:%02d) ===\n' "$k" "$total" "$suite" $((SECONDS / 60)) $((SECONDS % 60))
  started_at[$suite]=$SECONDS
  if is_alone "$suite"; then
    run_suite "$suite" 2>&1 | tee "$runs/$suite.log"
    record "$suite" "${PIPESTATUS[0]}" $((SECONDS - ${started_at[$suite]}))
  else
    run_suite "$suite" > "$runs/$suite.log" 2>&1 &
    suite_of[$!]=$suite
  fi
done
while [ ${#suite_of[@]} -gt 0 ]; do
  reap_one
done

prebuild_duration
echo
echo "Durations (build $(printf '%02d:%02d' $((built / 60)) $((built % 60))), whole run $(printf '%02d:%02d' $((SECONDS / 60)) $((SECONDS % 60)))):"
for line in "${durations[@]}"; do echo "  $line"; done
for failure in "${failures[@]}"; do echo "FAILED: $failure"; done
summary="Suites: $passed passed, $failed failed"
if [ "$skipped" -gt 0 ]; then summary="$summary, $skipped skipped"; fi
echo "$summary"
[ "$failed" -eq 0 ]
