#!/usr/bin/env bash
# The independent check of the CLI's LIN and PBN board records: endplay (PyPI), which has LIN
# and PBN parsers of its own, reads 200 boards of each and its hands, dealer, vulnerability and
# board numbers must equal ours (the JSON Lines of the same run): once with --rotate and
# --start-board (a practice set whose script says `dealer south`), once with the boards' own
# dealers from board 1. tests/formats/endplay_check.py does the comparing.
#
# endplay is installed with pip into a virtual environment under target/ (kept between runs;
# FORMATS_VENV names another place).
# When python3's venv or endplay cannot be installed (no network, no wheel) the test is NOT RUN:
# a failure under CI=true, otherwise exit 0. Exit status 1 when a board differs.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cli=${DEALER_CLI:-$top/target/release/dealer}
python=${PYTHON:-python3}
venv=${FORMATS_VENV:-$top/target/formats-venv}

not_run() {
  echo "NOT RUN: $1"
  if [ "${CI:-}" = true ]; then exit 1; fi
  exit 0
}

if [ ! -x "$cli" ]; then
  echo "FAIL: $cli not found (run make first)"
  exit 1
fi
if ! "$venv/bin/python" -c 'import endplay.parsers.lin, endplay.parsers.pbn' >/dev/null 2>&1; then
  "$python" -c 'import venv, ensurepip' >/dev/null 2>&1 || not_run "$python with venv and ensurepip is needed (apt-get install python3-venv)"
  rm -rf "$venv"
  "$python" -m venv "$venv" >/dev/null 2>&1 || not_run "cannot create a virtual environment in $venv"
  if ! log=$("$venv/bin/python" -m pip --disable-pip-version-check --no-input install endplay 2>&1); then
    printf '%s\n' "$log" | tail -n 5 | sed 's/^/  /'
    not_run "endplay cannot be installed from PyPI"
  fi
fi
echo "endplay $("$venv/bin/python" -c 'from importlib.metadata import version; print(version("endplay"))')"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
failed=0
# compare NAME SCRIPT ARGS...: the script's 200 boards as JSON Lines, LIN and PBN, then endplay.
compare() {
  local name=$1 script=$2
  shift 2
  "$cli" "$@" --format=jsonl "$script" >ours.jsonl &&
    "$cli" "$@" --format=lin "$script" >theirs.lin &&
    "$cli" "$@" -v "$script" >theirs.pbn || { echo "FAIL $name: the CLI failed"; failed=1; return; }
  "$venv/bin/python" "$top/tests/formats/endplay_check.py" ours.jsonl theirs.lin theirs.pbn >check.out 2>&1
  local status=$?
  sed 's/^/  /' check.out
  if [ $status -eq 0 ]; then
    echo "PASS $name"
  else
    echo "FAIL $name"
    failed=1
  fi
}
printf 'dealer south\ncondition hcp(south) >= 12\nproduce 200\naction printpbn\n' >practice.dl
printf 'condition hcp(north) + hcp(south) >= 20\nproduce 200\naction printpbn\n' >boards.dl
compare "practice set: --rotate --start-board=9, 200 boards" practice.dl -s 5 --rotate --start-board=9
compare "board cycle from board 1, 200 boards" boards.dl -s 6
compare "classic dialect (glibc), board cycle, 200 boards" boards.dl --rng=glibc -s 6
exit $failed
