#!/usr/bin/env bash
# Reading deals with the CLI (target/release/dealer): --input, --input-format, --verify-dd and
# --input-errors. A hand-record set written as PBN converts to LIN with its board numbers, and
# to PBN annotated with double dummy; read back, the annotated set answers --pbn-dd with no
# solve and the same bytes; standard input (--input=-) reads like a file; every format the CLI
# writes reads back into the same deals; bad input (a malformed record, a missing file, a
# folder, a wrong format name, the script and the records both on standard input) exits
# non-zero with a message naming the file and line, and the records before a malformed one
# stay whole on the output. (The independent readers' check is tests/formats/input_check.py,
# run by tests/formats_endplay.sh.)
#
# Prints ok/FAIL per row and 'N passed, M failed'; exit status 1 if a row failed.
set -u
. "$(dirname "$0")/lib.sh"
require_cli
enter_work_dir

# check NAME COMMAND...: a row that passes when COMMAND does.
check() {
  local name=$1
  shift
  if "$@"; then ok "$name"; else ko "$name"; fi
}

printf 'produce 16\n' >set.dl
printf 'action printoneline\n' >oneline.dl
printf 'condition hcp(north) >= 12\naction printoneline\n' >strong.dl

# A club's hand records: boards 1..16 as PBN.
"$cli" -s 3 --format=pbn --pbn-date=2026.12.07 set.dl >records.pbn

# Conversion to LIN keeps the board numbers, dealers and vulnerabilities.
"$cli" --input=records.pbn --format=lin set.dl >records.lin 2>err
check "--input=records.pbn --format=lin: 16 boards, numbered 1..16" \
  test "$(grep -o 'qx|o[0-9]*|' records.lin | tr -d 'qxo|' | tr '\n' ' ')" = "$(seq 1 16 | tr '\n' ' ')"
"$cli" -s 3 --format=lin set.dl >dealt.lin
check "the converted LIN is the LIN of the same boards dealt" cmp -s records.lin dealt.lin

# Annotating with double dummy (4 boards: a solve takes about half a second); read back, no
# table is solved and the bytes are the same.
printf 'produce 4\n' >four.dl
"$cli" -s 3 --format=pbn --pbn-date=2026.12.07 four.dl >four.pbn
"$cli" --input=four.pbn --pbn-dd --format=pbn four.dl >annotated.pbn 2>err
check "--input=four.pbn --pbn-dd --format=pbn: 4 tables" test "$(grep -c OptimumResultTable annotated.pbn)" = 4
"$cli" -s 3 --format=pbn --pbn-date=2026.12.07 --pbn-dd four.dl >dealt.pbn
check "the annotated set is the set dealt with --pbn-dd" cmp -s annotated.pbn dealt.pbn
"$cli" --input=annotated.pbn --pbn-dd --format=pbn --json-summary four.dl >again.pbn 2>err
check "read back: 0 tables solved, 4 read" grep -q '"dd_read":4,.*"tables":0,' again.pbn
grep -v '^{' again.pbn >again-records.pbn
check "read back: the same bytes" cmp -s again-records.pbn annotated.pbn
check "--verify-dd=2: 2 tables solved and equal" \
  sh -c "'$cli' --input=annotated.pbn --verify-dd=2 --json-summary -q four.dl | grep -q '\"dd_verified\":2}.*\"tables\":2,'"

# Standard input, and every format the CLI writes.
"$cli" -s 3 -p 16 oneline.dl | grep '^n ' >deals.txt
"$cli" --input=- oneline.dl <records.pbn | grep '^n ' >from-stdin.txt
check "--input=- reads standard input" cmp -s deals.txt from-stdin.txt
"$cli" -s 3 --format=jsonl set.dl >records.jsonl
"$cli" -s 3 -l w:records.dl52 -Z wN:records.zrd -q set.dl >/dev/null
for format in pbn lin jsonl dl52 zrd; do
  "$cli" --input=records.$format oneline.dl | grep '^n ' >read.txt
  check "$format reads back into the same deals" cmp -s deals.txt read.txt
  "$cli" --input=records.$format --input-format=$format oneline.dl | grep '^n ' >read.txt
  check "--input-format=$format" cmp -s deals.txt read.txt
done
"$cli" --input=deals.txt strong.dl >strong.txt
check "the condition judges each record" \
  test "$(grep -c '^n ' strong.txt)" = "$("$cli" -s 3 --json-summary strong.dl -p 16 >/dev/null; "$cli" --input=deals.txt --json-summary strong.dl | grep -o '"produced":[0-9]*' | cut -d: -f2)"

# Bad input.
head -n 5 deals.txt >bad.txt
echo 'n AKQJ.T98.765.432 e T98.765.432.AKQJ s 765.432.AKQJ.T98 w 432.AKQJ.T98.765.2' >>bad.txt
tail -n 3 deals.txt >>bad.txt
"$cli" --input=bad.txt oneline.dl >out 2>err
status=$?
check "a malformed record: exit status not 0" test "$status" -ne 0
check "a malformed record: the message names the file, line and column" grep -q '^bad.txt:6:.*a fifth' err
check "a malformed record: the records before it stay whole" test "$(grep -c '^n ' out)" = 5
"$cli" --input=bad.txt --input-errors=skip --json-summary oneline.dl >out 2>err
check "--input-errors=skip: 8 deals, 1 skipped and counted" \
  sh -c "test \$(grep -c '^n ' out) = 8 && grep -q '\"malformed_skipped\":1,' out && grep -q 'skipped a malformed record: bad.txt:6:' err"
"$cli" --input=missing.pbn oneline.dl >out 2>err
check "a missing file: an error naming it" sh -c "test $? -ne 0 && grep -q 'cannot open the input missing.pbn' err"
mkdir folder
"$cli" --input=folder oneline.dl >out 2>err
check "a folder: an error" sh -c "test $? -ne 0 && grep -q 'it is a folder' err"
"$cli" --input=records.pbn --input-format=csv oneline.dl >out 2>err
check "an unknown format: an error naming the formats" grep -q 'expected auto, pbn, lin, oneline, dl52, jsonl or zrd' err
"$cli" --input=- <records.pbn >out 2>err
check "the script and the records both on standard input: refused" grep -q 'give the script as a file' err
"$cli" --input=records.pbn --rotate oneline.dl >out 2>err
check "--rotate with --input: refused" grep -q 'option input is not available with rotate' err

# The reading benchmark's short form: 20,000 deals of every format read whole.
"$top/tests/bench_input.sh" --quick >bench.out 2>&1
status=$?
sed 's/^/  /' bench.out
check "tests/bench_input.sh --quick: every format's 20,000 records read" test "$status" -eq 0

finish
