# tests/lib.sh: the preamble the shell test suites share. Sourced (not run) after `set -u`:
#
#   . "$(dirname "$0")/lib.sh"
#
# It sets `top` (the checkout's root) and the counters `passed` and `failed`, and offers:
#   row_labels PASS FAIL  the words that start a row's line (default "ok:" and "FAIL:"), so
#                         that each suite keeps the output it always had
#   ok NAME               a passing row: "ok: NAME", counted
#   ko NAME [WHY]         a failing row: "FAIL: NAME (WHY)", counted
#   require_cli           `cli` is $DEALER_CLI or target/release/dealer; without it prints
#                         "FAIL: … not found (run make first)", "0 passed, 1 failed", exits 1
#   enter_work_dir        `work` is a new temporary folder, removed at exit; cd there
#   finish [STATUS]       the closing line "N passed, M failed"; exits 1 when a row failed or
#                         STATUS (e.g. a NOT RUN part under CI) is not 0, else 0
#   without_timing FILE   a run's output without what no two runs share: the "Time needed"
#                         line and the JSON summary's "seconds"
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
passed=0
failed=0
lib_pass_label="ok:"
lib_fail_label="FAIL:"

row_labels() {
  lib_pass_label=$1
  lib_fail_label=$2
}

ok() {
  echo "$lib_pass_label $1"
  passed=$((passed + 1))
}

ko() {
  echo "$lib_fail_label $1${2:+ ($2)}"
  failed=$((failed + 1))
}

require_cli() {
  cli=${DEALER_CLI:-$top/target/release/dealer}
  if [ ! -x "$cli" ]; then
    echo "FAIL: $cli not found (run make first)"
    echo "0 passed, 1 failed"
    exit 1
  fi
}

enter_work_dir() {
  work=$(mktemp -d)
  # shellcheck disable=SC2064  # the folder's name is fixed now
  trap "rm -rf '$work'" EXIT
  cd "$work" || exit 1
}

finish() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ] && [ "${1:-0}" -eq 0 ] && exit 0
  exit 1
}

without_timing() {
  sed -e '/^Time needed/d' -e 's/"seconds":[0-9.]*/"seconds":_/' "$@"
}
