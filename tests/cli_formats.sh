#!/usr/bin/env bash
# The board records of the CLI (target/release/dealer): --format=lin and --format=jsonl, the
# printlin and printjson actions, --start-board, --rotate, --no-board-title, --json-summary, in
# both dialects and with every generator. Each output is read back by tests/formats/check_records.py
# (LIN syntax, JSON schema 1, board numbers, dealer and vulnerability by the duplicate table,
# 52 distinct cards, the rotated hand in the dealer's seat); the options' absence leaves the
# peers' outputs as they were (same bytes with and without --start-board=1), bad values fail.
#
# Prints PASS/FAIL per row and 'N passed, M failed'; exit status 1 if a row failed.
# Environment: DEALER_CLI (default target/release/dealer), PYTHON (default python3).
set -u
. "$(dirname "$0")/lib.sh"
row_labels PASS FAIL
require_cli
python=${PYTHON:-python3}
checker=$top/tests/formats/check_records.py
enter_work_dir

# records NAME KIND FIRST [checker flags] -- CLI ARGS...: runs the CLI into out, then the checker.
records() {
  local name=$1 kind=$2 first=$3 flags=()
  shift 3
  while [ "$1" != -- ]; do flags+=("$1"); shift; done
  shift
  if ! "$cli" "$@" >out 2>err; then ko "$name" "exit status $?: $(head -c 200 err)"; return; fi
  local why
  if why=$("$python" "$checker" "$kind" out "$first" "${flags[@]}" 2>&1); then ok "$name"; else ko "$name" "$why"; fi
}

# same NAME FILE1 FILE2: the two outputs are the same bytes.
same() { if cmp -s "$2" "$3"; then ok "$1"; else ko "$1" "outputs differ"; fi; }

printf 'produce 32\naction printoneline\n' >plain.dl
printf 'produce 32\naction printlin\n' >lin.dl
printf 'produce 20\nx = spades(east)\ncondition hcp(north) >= 10\naction printjson("north hcp" hcp(north), hcp(south), x)\n' >json.dl
# A name with a backslash, a tab and a non-ASCII letter (script strings have no escapes): JSON
# escapes the first two.
printf 'produce 4\naction printjson("a\\b\tc\xc3\xa9" hcp(north))\n' >quote.dl
# The constrained hand: South, with every spade (a predeal), dealt by South.
printf 'dealer south\npredeal south SAKQJT98765432\nproduce 24\naction printpbn\n' >south.dl
printf 'produce 8\naction printpbn\n' >pbn.dl

for rng in chacha drand48 glibc; do
  records "$rng: --format=lin, boards 1..32" lin 1 -- --rng=$rng -s 7 --format=lin plain.dl
  records "$rng: printlin action" lin 1 -- --rng=$rng -s 7 -v lin.dl
  records "$rng: --format=lin --start-board=29 --no-board-title" lin 29 --no-title -- \
    --rng=$rng -s 7 --format=lin --start-board=29 --no-board-title plain.dl
  records "$rng: --format=jsonl --json-summary" jsonl 1 --summary -- --rng=$rng -s 7 --format=jsonl --json-summary plain.dl
  records "$rng: --format=jsonl without summary" jsonl 1 -- --rng=$rng -s 7 --format=jsonl plain.dl
  records "$rng: printjson names" jsonl 1 --values 'north hcp,v2,x' -- --rng=$rng -s 7 -v json.dl
  records "$rng: --rotate: the dealer holds the constrained hand (LIN)" lin 1 --spades-at-dealer -- \
    --rng=$rng -s 7 --format=lin --rotate south.dl
  records "$rng: --rotate --start-board=5 (JSON Lines)" jsonl 5 --spades-at-dealer -- \
    --rng=$rng -s 7 --format=jsonl --rotate --start-board=5 south.dl
  records "$rng: --rotate drives PBN [Board] [Dealer] [Vulnerable]" pbn 3 --spades-at-dealer -- \
    --rng=$rng -s 7 --rotate --start-board=3 south.dl
  records "$rng: --start-board drives PBN [Board], the cycle [Vulnerable]" pbn 11 -- --rng=$rng -s 7 -v --start-board=11 pbn.dl
  records "$rng: without --rotate the script's dealer stays" pbn 1 --dealer S -- --rng=$rng -s 7 -v south.dl
  "$cli" --rng=$rng -s 7 pbn.dl >a.out 2>&1
  "$cli" --rng=$rng -s 7 --start-board=1 pbn.dl >b.out 2>&1
  sed -i '/^Time needed/d' a.out b.out
  same "$rng: --start-board=1 changes no byte of printpbn" a.out b.out
  "$cli" --rng=$rng -s 7 south.dl >a.out 2>&1
  "$cli" --rng=$rng -s 7 --format=script south.dl >b.out 2>&1
  sed -i '/^Time needed/d' a.out b.out
  same "$rng: --format=script is the script's own output" a.out b.out
done

"$cli" -s 7 -v quote.dl >out 2>err
if "$python" - out 2>err <<'PY'
import json, sys
text = open(sys.argv[1], encoding="utf-8").read()
assert '"a\\\\b\\tc\u00e9"' in text, text[:400]   # written: "a\\b\tcé"
records = [json.loads(line) for line in text.splitlines()]
assert len(records) == 4 and all(list(r["values"]) == ["a\\b\tc\u00e9"] for r in records)
PY
then
  ok "printjson: a name with a backslash, a tab and UTF-8"
else
  ko "printjson: a name with a backslash, a tab and UTF-8" "$(tail -n 2 err)"
fi

# The same deals in three formats: LIN, JSON Lines and PBN agree board by board.
"$cli" -s 11 -p 16 --format=lin --rotate south.dl >x.lin
"$cli" -s 11 -p 16 --format=jsonl --rotate south.dl >x.jsonl
"$cli" -s 11 -p 16 -v --rotate south.dl >x.pbn
if "$python" - x.lin x.jsonl x.pbn <<'PY'
import json, re, sys
lin = [l.split("|") for l in open(sys.argv[1]).read().splitlines()]
js = [json.loads(l) for l in open(sys.argv[2])]
pbn = re.findall(r'\[Deal "([^"]*)"\]', open(sys.argv[3]).read())
assert len(lin) == len(js) == len(pbn) == 16
for l, j, p in zip(lin, js, pbn):
    assert j["deal"] == p, (j["deal"], p)
    s, w, n, e = l[3][1:].split(",")
    assert s == "S" + j["hands"]["south"]["spades"] + "H" + j["hands"]["south"]["hearts"] + "D" + \
        j["hands"]["south"]["diamonds"] + "C" + j["hands"]["south"]["clubs"], (s, j["hands"]["south"])
PY
then ok "LIN, JSON Lines and PBN hold the same boards"; else ko "LIN, JSON Lines and PBN hold the same boards"; fi

# --pbn-dd / --json-dd: 20 table rows, OptimumScore and ParContract in every PBN record, before
# its blank line; "dd" and "par" in every JSON object; the same bytes whether the tables are
# solved one by one (-R 1) or in batches across threads (-R 2); nothing else changes.
"$cli" -s 21 -p 12 -v -R 1 --pbn-dd --rotate south.dl >dd1.pbn
"$cli" -s 21 -p 12 -v -R 2 --pbn-dd --rotate south.dl >dd2.pbn
"$cli" -s 21 -p 12 -v -R 2 --rotate south.dl >nodd.pbn
same "--pbn-dd: one thread and batches on two threads write the same records" dd1.pbn dd2.pbn
if "$python" - dd2.pbn nodd.pbn <<'PY'
import re, sys
dd, plain = open(sys.argv[1]).read(), open(sys.argv[2]).read()
records = dd.split("\n\n")[:-1]
assert len(records) == 12, len(records)
for r in records:
    lines = r.split("\n")
    i = lines.index('[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]')
    assert i == len(lines) - 23, lines
    rows = lines[i + 1:i + 21]
    assert [l[0] + l[1:4].strip() for l in rows] == [s + d for s in "NESW" for d in ("NT", "S", "H", "D", "C")], rows
    assert all(re.fullmatch(r"[NESW] (NT| [SHDC]) ( \d|1[0-3])", l) for l in rows), rows
    assert re.fullmatch(r'\[OptimumScore "NS -?\d+"\]', lines[i + 21]), lines[i + 21]
    assert re.fullmatch(r'\[ParContract "(Pass|(NS|EW|[NESW]) [1-7](NT|[SHDC])X?(; (NS|EW|[NESW]) [1-7](NT|[SHDC])X?)*)"\]', lines[i + 22]), lines[i + 22]
stripped = "\n\n".join("\n".join(r.split("\n")[:-23]) for r in records) + "\n\n"
assert stripped == plain
PY
then ok "--pbn-dd: PBN 2.1 table, OptimumScore and ParContract in every record, nothing else"; else ko "--pbn-dd: PBN 2.1 tags"; fi
"$cli" -s 21 -p 12 --format=jsonl --json-dd --rotate south.dl >dd.jsonl
"$cli" -s 21 -p 12 --format=jsonl --rotate south.dl >nodd.jsonl
if "$python" - dd.jsonl nodd.jsonl <<'PY'
import json, sys
dd = [json.loads(l) for l in open(sys.argv[1])]
plain = [json.loads(l) for l in open(sys.argv[2])]
assert len(dd) == len(plain) == 12
for a, b in zip(dd, plain):
    t, p = a.pop("dd"), a.pop("par")
    assert a == b
    assert list(t) == ["north", "east", "south", "west"]
    assert all(list(t[s]) == ["notrump", "spades", "hearts", "diamonds", "clubs"] for s in t)
    assert all(0 <= v <= 13 for s in t.values() for v in s.values())
    assert set(p) == {"score_ns", "contracts"} and isinstance(p["score_ns"], int)
PY
then ok "--json-dd: \"dd\" and \"par\" in every object, the rest unchanged"; else ko "--json-dd"; fi

# Bad values: the option's message and the peers' status for an option error.
for bad in --format=PBN --start-board=-1 --start-board=abc --start-board=1000000001; do
  "$cli" -s 1 "$bad" plain.dl >out 2>err
  rc=$?
  if [ $rc -ne 0 ] && grep -q '^option ' err && [ ! -s out ]; then ok "$bad refused"; else ko "$bad refused" "exit $rc, $(head -c 120 err)"; fi
done
# --help lists the new long options.
"$cli" --help >out
if grep -q -- --format= out && grep -q -- --start-board= out && grep -q -- --rotate out && grep -q -- --json-summary out &&
  grep -q -- --pbn-dd out && grep -q -- --json-dd out; then
  ok "--help lists the board-record options"
else
  ko "--help lists the board-record options"
fi

finish
