#!/usr/bin/env bash
# The independent check of the CLI's LIN and PBN board records: endplay (PyPI), which has LIN
# and PBN parsers of its own, reads 200 boards of each and its hands, dealer, vulnerability and
# board numbers must equal ours (the JSON Lines of the same run): once with --rotate and
# --start-board (a practice set whose script says `dealer south`), once with the boards' own
# dealers from board 1. tests/formats/endplay_check.py does the comparing.
#
# Then a board set mixed from four scenarios (--mix): each board names its scenario, which the
# checker compares too.
#
# Then --pbn-dd and --json-dd (tests/formats/pbn_dd_check.py): 50 boards of PBN with PBN 2.1's
# OptimumResultTable, OptimumScore and ParContract, read by endplay and by a strict reader written
# from the standard, must equal endplay's own double-dummy tables and par, our script's
# dds()/par() values for the same deals and our JSON Lines' "dd"/"par"; once with the board
# cycle, once rotated. Without --pbn-dd the PBN must be byte for byte what it was without it.
#
# Then an opening-lead table (`leads`) against endplay's solve after each lead
# (tests/formats/leads_check.py).
#
# Then reading deals (--input, tests/formats/input_check.py): 200 boards endplay wrote with its
# own PBN and LIN writers (numbers, dealers, vulnerabilities, some player names and events), read
# by the CLI and compared with what endplay wrote; our PBN and LIN of them read back by endplay;
# 20 of them with endplay's double-dummy tables as PBN 2.1 OptimumResultTable, which dds() and
# --json-dd must answer without solving.
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
# run_checker NAME COMMAND...: runs a checker, shows what it printed (indented), then PASS or
# FAIL NAME.
run_checker() {
  local name=$1
  shift
  "$@" >check.out 2>&1
  local status=$?
  sed 's/^/  /' check.out
  if [ $status -eq 0 ]; then
    echo "PASS $name"
  else
    echo "FAIL $name"
    failed=1
  fi
}

# compare NAME SCRIPT ARGS...: the script's 200 boards as JSON Lines, LIN and PBN, then endplay.
compare() {
  local name=$1 script=$2
  shift 2
  "$cli" "$@" --format=jsonl "$script" >ours.jsonl &&
    "$cli" "$@" --format=lin "$script" >theirs.lin &&
    "$cli" "$@" -v "$script" >theirs.pbn || { echo "FAIL $name: the CLI failed"; failed=1; return; }
  run_checker "$name" "$venv/bin/python" "$top/tests/formats/endplay_check.py" ours.jsonl theirs.lin theirs.pbn
}
printf 'dealer south\ncondition hcp(south) >= 12\nproduce 200\naction printpbn\n' >practice.dl
printf 'condition hcp(north) + hcp(south) >= 20\nproduce 200\naction printpbn\n' >boards.dl
compare "practice set: --rotate --start-board=9, 200 boards" practice.dl -s 5 --rotate --start-board=9
compare "board cycle from board 1, 200 boards" boards.dl -s 6
compare "classic dialect (glibc), board cycle, 200 boards" boards.dl --rng=glibc -s 6

# A board set mixed from four scenarios (--mix, two by weight, one by count, one levelled):
# boards numbered 1 to 200, each naming its scenario in PBN [Event], LIN st|…| and JSON.
mixed() {
  local name=$1
  shift
  "$cli" "$@" --format=jsonl --mix $mix >ours.jsonl &&
    "$cli" "$@" --format=lin --mix $mix >theirs.lin &&
    "$cli" "$@" --mix $mix >theirs.pbn || { echo "FAIL $name: the CLI failed"; failed=1; return; }
  run_checker "$name" "$venv/bin/python" "$top/tests/formats/endplay_check.py" ours.jsonl theirs.lin theirs.pbn
}
cp "$top/examples/levelling/nt_ladder.dlr" "$top/examples/levelling/responses.dlr" .
printf 'condition hcp(north) + hcp(south) >= 25\naction printall\n' >game.dl
printf 'dealer west\nvulnerable EW\ncondition spades(west) >= 6 and hcp(west) <= 10\n' >weak2.dl
mix="nt_ladder.dlr:2 responses.dlr game.dl=40 weak2.dl"
mixed "four scenarios mixed (--mix), 200 boards" -s 8 -p 200
counts=$(grep -o '"scenario":"[^"]*"' ours.jsonl | sort | uniq -c | awk '{print $1}' | tr '\n' ' ')
if [ "$counts" = "40 80 40 40 " ]; then
  echo "PASS the mix's quotas: game.dl=40 exactly, the other 160 boards 2:1:1"
else
  echo "FAIL the mix's quotas: $counts"
  failed=1
fi
mixed "four scenarios mixed and levelled (--mix --level), rotated, 200 boards" -s 9 -p 200 --level --rotate

# dd_compare NAME SCRIPT VALUES-SCRIPT ARGS...: 50 boards with --pbn-dd and --json-dd, checked by
# pbn_dd_check.py (VALUES-SCRIPT, when not "-", prints the same deals' dds()/par() values).
dd_compare() {
  local name=$1 script=$2 values=$3
  shift 3
  local args=(dd.pbn dd.jsonl)
  "$cli" "$@" -v --pbn-dd "$script" >dd.pbn &&
    "$cli" "$@" --format=jsonl --json-dd "$script" >dd.jsonl &&
    "$cli" "$@" -v "$script" >plain.pbn || { echo "FAIL $name: the CLI failed"; failed=1; return; }
  if [ "$values" != - ]; then
    "$cli" "$@" -v "$values" >values.jsonl 2>/dev/null || { echo "FAIL $name: the CLI failed on the values script"; failed=1; return; }
    args+=(values.jsonl)
  fi
  # Without the DD tags the records are what --pbn-dd was not given for.
  if ! "$venv/bin/python" - dd.pbn plain.pbn <<'PY'; then
import re, sys
with_dd = open(sys.argv[1]).read()
plain = open(sys.argv[2]).read()
stripped = re.sub(r'\[OptimumResultTable [^\n]*\n(?:[NESW] [ A-Z]{2} [ 0-9]{2}\n){20}\[OptimumScore [^\n]*\n\[ParContract [^\n]*\n', '', with_dd)
sys.exit(0 if stripped == plain else 1)
PY
    echo "FAIL $name: --pbn-dd changed more than adding the DD tags"
    failed=1
    return
  fi
  run_checker "$name" "$venv/bin/python" "$top/tests/formats/pbn_dd_check.py" "${args[@]}"
}
condition='condition hcp(north) + hcp(south) >= 18'
printf '%s\nproduce 50\naction printpbn\n' "$condition" >dd_boards.dl
{
  echo "$condition"
  echo 'produce 50'
  printf 'action printjson('
  for s in north east south west; do
    for d in notrump spades hearts diamonds clubs; do
      printf '"%s%s" dds(%s, %s), ' "${s:0:1}" "${d:0:1}" "$s" "$d"
    done
  done
  echo '"par_none" par(NS, none), "par_ns" par(NS, ns), "par_ew" par(NS, ew), "par_all" par(NS, both))'
} >dd_values.dl
printf 'dealer south\ncondition hcp(south) >= 12\nproduce 50\naction printpbn\n' >dd_practice.dl
dd_compare "--pbn-dd/--json-dd, board cycle, 50 boards, against endplay and dds()/par()" dd_boards.dl dd_values.dl -s 11
dd_compare "--pbn-dd/--json-dd, --rotate --start-board=3, 50 boards, against endplay" dd_practice.dl - -s 12 --rotate --start-board=3

# An opening-lead study (leads): West's fixed hand against 6NT, 200 deals; endplay plays each of
# West's cards and solves the position after it, and the mean tricks and beaten share per lead
# must equal the JSON summary's table (leads_check.py). The summary must count 200 searches of
# every lead (one per deal), not one solve per card.
printf 'predeal west SKJ74, HQ3, D9862, CJ75\ncondition hcp(north) + hcp(south) >= 30\nproduce 200\naction printoneline, leads(west, notrump, 12)\n' >leads.dl
if "$cli" -s 13 --json-summary leads.dl >leads.out; then
  run_checker "leads(west, notrump, 12): 200 deals, every lead against endplay's solve after it" \
    "$venv/bin/python" "$top/tests/formats/leads_check.py" leads.out west notrump 12
  if grep -q '"dd":{"thresholds":0,"exact":0,"tables":0,"by_the_cards":0,"leads":200}' leads.out; then
    echo "PASS leads: one search of every lead per deal (200 for 200 deals)"
  else
    echo "FAIL leads: the summary's solve counts are $(grep -o '"dd":{[^}]*}' leads.out)"
    failed=1
  fi
else
  echo "FAIL leads: the CLI failed"
  failed=1
fi

# Reading deals: files endplay wrote, read by --input; ours read back by endplay; endplay's DD tables.
run_checker "--input: endplay's PBN and LIN (200 boards) read, ours read back by endplay, 8 OptimumResultTables answer dds()" \
  "$venv/bin/python" "$top/tests/formats/input_check.py" "$cli"
exit $failed
