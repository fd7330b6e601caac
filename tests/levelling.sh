#!/usr/bin/env bash
# Practice sets (README "Practice sets: levelling hand types"): Dealer3's levelling convention
# and what libdealer adds to it.
#
# 1. --write-leveled on the bundled examples (examples/levelling): the five-band NT ladder
#    (natural shares counted exactly) and the 1NT responses (measured, the condition reads two
#    seats) give byte for byte the generated files kept in tests/levelling, for any seed
#    (exact) or for seed 1 (measured) and any thread count; a partnership ladder's shares are
#    counted exactly over the pair's cards together.
# 2. The levelled files run under classic dealer (/usr/games/dealer, and libdealer's
#    --rng=glibc, which prints the same bytes) deliver each type's target share within the
#    precision their header states, at 10,000 produced deals (tests/levelling/check_delivered.py).
# 3. --level gives exact quotas (-p 100 over five even bands: 20 each; weights 2:1:1 over 7:
#    3, 2, 2), each board of its type, the same boards on 1 or 2 threads.
# 4. --interleave reorders a run: boards numbered 1..N, the same deals; --json-summary counts
#    the boards of each type.
# 5. Every refusal Dealer3 makes: status 1, its message, no file written.
#
# Prints ok/FAIL per row and 'N passed, M failed'; exit status 1 if a row failed.
# Environment: DEALER_CLI (default target/release/dealer), DEALER_ORACLE (default /usr/games/dealer).
set -u
. "$(dirname "$0")/lib.sh"
require_cli
oracle=${DEALER_ORACLE:-/usr/games/dealer}
examples=$top/examples/levelling
expected=$top/tests/levelling
check=$top/tests/levelling/check_delivered.py
enter_work_dir
status=0

# 1. The generated files.
"$cli" -s 1 --write-leveled ladder.dlr "$examples/nt_ladder.dlr" 2>ladder.err
"$cli" -s 99 -R 1 --write-leveled ladder99.dlr "$examples/nt_ladder.dlr" 2>/dev/null
if cmp -s ladder.dlr "$expected/nt_ladder.leveled.dlr" && cmp -s ladder.dlr ladder99.dlr; then
  ok "--write-leveled nt_ladder: the expected file, for any seed (exact shares)"
else
  ko "--write-leveled nt_ladder" "$(diff ladder.dlr "$expected/nt_ladder.leveled.dlr" | head -5)"
fi
grep -q "^# exact: counted over all 635013559600 hands South can hold" ladder.dlr &&
  grep -q "^wrote ladder.dlr$" ladder.err &&
  ok "the header and the summary say the shares are exact" || ko "exact header" "$(head -3 ladder.err)"
"$cli" -s 1 -R 1 --write-leveled resp1.dlr "$examples/responses.dlr" 2>/dev/null
"$cli" -s 1 -R 2 --write-leveled resp2.dlr "$examples/responses.dlr" 2>resp.err
if cmp -s resp1.dlr "$expected/responses.leveled.dlr" && cmp -s resp1.dlr resp2.dlr &&
  grep -q "^# measured over  [0-9]* deals, seed 1$" resp1.dlr; then
  ok "--write-leveled responses (measured): the expected file on 1 and 2 threads"
else
  ko "--write-leveled responses" "$(diff resp1.dlr "$expected/responses.leveled.dlr" | head -5)"
fi
# A partnership ladder (North and South's points together): counted exactly over the pair's
# sets of 26 cards (62,712,131,115,012 of them hold 26 points or more: the sum over the aces,
# kings, queens and jacks they may hold of the ways to hold them and 26 cards in all).
printf '%s\n' 'HandType_game = hcp(north) + hcp(south) <= 30' \
  'HandType_slam = hcp(north) + hcp(south) >= 31 and hcp(north) + hcp(south) <= 35' \
  'HandType_grand = hcp(north) + hcp(south) >= 36' 'condition hcp(north) + hcp(south) >= 26' \
  'action printoneline' >pair_ladder.dlr
if "$cli" --write-leveled pair_leveled.dlr pair_ladder.dlr 2>pair.err &&
  grep -q "^# exact: counted over all 495918532948104 sets of cards North and South can hold together, 62712131115012 of them qualifying$" pair_leveled.dlr &&
  grep -q "^# grand    0.00213 " pair_leveled.dlr; then
  ok "--write-leveled on a partnership ladder: shares counted exactly over the pair's cards"
else
  ko "partnership ladder" "$(grep '^#' pair_leveled.dlr | head -12; cat pair.err)"
fi

# 2. The levelled files under classic dealer.
for file in ladder resp1; do
  if [ -x "$oracle" ]; then
    "$oracle" -s 5 -p 10000 -q $file.dlr >classic.out 2>&1
    "$cli" --rng=glibc -s 5 -p 10000 -q $file.dlr >glibc.out 2>&1
    if sed '/^Time needed/d' classic.out | cmp -s - <(sed '/^Time needed/d' glibc.out); then
      ok "$file: libdealer --rng=glibc prints what classic dealer prints"
    else
      ko "$file: --rng=glibc against classic dealer" "$(diff classic.out glibc.out | head -4)"
    fi
  else
    if [ "${CI:-}" = true ]; then ko "$oracle is not installed"; else echo "NOT RUN: $oracle is not installed"; fi
    "$cli" --rng=glibc -s 5 -p 10000 -q $file.dlr >classic.out 2>&1
  fi
  if python3 "$check" $file.dlr classic.out 10000 >check.out; then
    ok "$file: classic dealer delivers every target share within the stated precision"
  else
    ko "$file: delivered shares" "$(grep OUT check.out)"
  fi
  sed 's/^/  /' check.out
done

# 3. --level: exact quotas.
"$cli" -s 3 --level -p 100 -q "$examples/nt_ladder.dlr" >level.out 2>level.err
if grep -q '^Produced  100 hands' level.out && [ "$(grep -c '^[0-9_]*: Mean=   20.0000, ' level.out)" = 5 ]; then
  ok "--level -p 100 over five even bands: exactly 20 of each"
else
  ko "--level -p 100" "$(cat level.out level.err | head -12)"
fi
"$cli" -s 3 --level -p 7 "$examples/responses.dlr" >resp.out 2>&1
types=$(sed -n 's/^\[HandType "\([a-z]*\)"\]$/\1/p' resp.out | sort | uniq -c | awk '{print $1 $2}' | tr '\n' ' ')
boards=$(grep -o '^\[Board "[0-9]*"\]' resp.out | tr -dc '0-9\n' | tr '\n' ' ')
if [ "$types" = '2game 2invite 3weak ' ] && [ "$boards" = "1 2 3 4 5 6 7 " ]; then
  ok "--level -p 7 with weights 2:1:1: 3, 2, 2, boards 1 to 7"
else
  ko "--level -p 7" "types: $types boards: $boards"
fi
"$cli" -s 11 -R 1 --level -p 60 --format=jsonl "$examples/nt_ladder.dlr" >r1.out 2>&1
"$cli" -s 11 -R 2 --level -p 60 --format=jsonl "$examples/nt_ladder.dlr" >r2.out 2>&1
"$cli" -s 12 -R 2 --level -p 60 --format=jsonl "$examples/nt_ladder.dlr" >r3.out 2>&1
if cmp -s r1.out r2.out && ! cmp -s r1.out r3.out && [ "$(grep -c '"hand_type":"20_21"' r1.out)" = 12 ]; then
  ok "--level: the same boards on 1 and 2 threads, others for another seed"
else
  ko "--level and threads" "$(diff r1.out r2.out | head -3)"
fi
"$cli" -s 5 --level --level-target=40,30,15,10,5 -p 20 -q "$examples/nt_ladder.dlr" >t.out 2>&1
if grep -q '^12_14: Mean=   40.0000, ' t.out && grep -q '^22_24: Mean=    5.0000, ' t.out; then
  ok "--level --level-target 40,30,15,10,5: 8, 6, 3, 2, 1 of 20"
else
  ko "--level-target" "$(head -8 t.out)"
fi

# 4. --interleave.
printf 'HandType_low = hcp(north) <= 9\nHandType_mid = hcp(north) >= 10 and hcp(north) <= 14\nHandType_high = hcp(north) >= 15\ncondition 1\nproduce 24\naction printpbn\n' >bands.dlr
"$cli" -s 3 bands.dlr >plain.out 2>&1
"$cli" -s 3 --interleave bands.dlr >inter.out 2>&1
if [ "$(grep -o '^\[Deal .*' plain.out | sort)" = "$(grep -o '^\[Deal .*' inter.out | sort)" ] &&
  [ "$(grep -o '^\[Board "[0-9]*"\]' inter.out | tr -dc '0-9\n' | tr '\n' ' ')" = "$(seq 1 24 | tr '\n' ' ')" ] &&
  ! cmp -s plain.out inter.out; then
  ok "--interleave: the same 24 deals in rounds, boards 1 to 24"
else
  ko "--interleave" "$(head -3 inter.out)"
fi

# The JSON summary counts the boards of each type (Dealer3's --stats-json hand_types rows).
"$cli" -s 3 --level -p 20 --format=jsonl --json-summary "$examples/nt_ladder.dlr" >summary.out 2>&1
if tail -n 1 summary.out | grep -qF '"hand_types":[{"name":"12_14","produced":4,"share":0.2},{"name":"15_17","produced":4,"share":0.2},{"name":"18_19","produced":4,"share":0.2},{"name":"20_21","produced":4,"share":0.2},{"name":"22_24","produced":4,"share":0.2}]}'; then
  ok "--json-summary: hand_types of a levelled run"
else
  ko "--json-summary hand_types (--level)" "$(tail -n 1 summary.out)"
fi
"$cli" -s 3 --json-summary --format=jsonl bands.dlr >summary.out 2>&1
if [ "$(grep -c '"hand_type"' summary.out)" = 24 ] &&
  tail -n 1 summary.out | python3 -c 'import json,sys; s=json.load(sys.stdin); assert sum(t["produced"] for t in s["hand_types"]) == 24 and [t["name"] for t in s["hand_types"]] == ["low","mid","high"]'; then
  ok "--json-summary: a plain run of a script with hand types is classified and counted"
else
  ko "--json-summary hand_types (plain)" "$(tail -n 1 summary.out)"
fi

# 5. Refusals: status 1, the message, no file written.
stock() { printf 'HandType_a = hcp(south) <= 11\nHandType_b = hcp(south) >= 12\n%s\ncondition hcp(south) >= 5 and levelTheDeal\n' "$1"; }
placeholder=$'### BEGIN GENERATED LEVELING ###\nnoLeveling = 1\nlevelTheDeal = noLeveling\n### END GENERATED LEVELING ###'
refused() { # NAME MESSAGE-PART SCRIPT-TEXT [OPTIONS...]
  local name=$1 part=$2 text=$3
  shift 3
  printf '%s\n' "$text" >refused.dlr
  rm -f written.dlr
  "$cli" -s 1 "$@" --write-leveled written.dlr refused.dlr >out 2>err
  local rc=$?
  if [ $rc -eq 1 ] && grep -qF -- "$part" err && [ ! -e written.dlr ]; then
    ok "refused: $name"
  else
    ko "refused: $name" "exit $rc, $(head -c 300 err)"
  fi
}
refused "a share naming no type" 'sets the share of a `c` the scenario never declares' "$(stock "$placeholder
HandType_c_Share = 2")"
refused "a share that depends on the deal" "has to be a plain number" "$(stock "$placeholder
HandType_a_Share = hcp(north)")"
refused "overlapping types" 'a deal is both `HandType_a` and `HandType_b`' "$(stock "$placeholder" | sed 's/<= 11/<= 12/')"
refused "overlapping types (measured)" 'a deal is both `HandType_a` and `HandType_b`' \
  "$(stock "$placeholder" | sed 's/<= 11/<= 12 and hcp(north) >= 0/')"
refused "gaps" "matched no hand type" "$(stock "$placeholder" | sed 's/<= 11/<= 10/')"
refused "gaps (measured)" "matched no hand type" "$(stock "$placeholder" | sed 's/<= 11/<= 10 and hcp(north) >= 0/')"
refused "a type never seen" "never seen" "$(stock "$placeholder
HandType_c = hcp(south) > 40" | sed 's/>= 12$/>= 12 and hcp(south) <= 40/')"
cp ladder.dlr generated.dlr
refused "a generated file given as the stock one" "not written by hand" "$(cat generated.dlr)"
refused "no condition to gate" "has no condition" $'HandType_a = hcp(south) <= 11\nHandType_b = hcp(south) >= 12\naction printall'
refused "a levelTheDeal nothing uses" "nothing after the generated block uses" "$(stock "$placeholder" | sed 's/ and levelTheDeal//')"
refused "an unsafe roll" "not in the form the keeps assume" "$(stock "$placeholder
roll = rnd(1000)")"
refused "a keep below 1/1000" "less than one deal in 1000" \
  "$(stock "$placeholder" | sed 's/<= 11/<= 26/; s/>= 12/>= 27/')"
refused "an unknown {{level-mix}} name" "names a category the scenario does not declare" "$(stock "$placeholder
# {{level-mix:c}}")"
printf 'HandType_a = hcp(south) <= 11\nHandType_b = hcp(south) >= 12\ncondition 1\n' | "$cli" --write-leveled x.dlr >out 2>err
[ $? -eq 1 ] && grep -q "needs the scenario as a file argument" err && ok "refused: a script on standard input" ||
  ko "refused: standard input" "$(cat err)"
"$cli" --interleave --write-leveled x.dlr "$examples/nt_ladder.dlr" >out 2>err
[ $? -eq 1 ] && grep -q "has nothing to order during --write-leveled" err && [ ! -e x.dlr ] &&
  ok "refused: --interleave with --write-leveled alone" || ko "--interleave with --write-leveled" "$(cat err)"

# The budget and the markers.
"$cli" -s 1 --level-budget 40 --write-leveled budget.dlr "$examples/nt_ladder.dlr" 2>budget.err
if grep -q "relaxed to fit the budget" budget.dlr && grep -q "^level_22_24 = HandType_22_24$" budget.dlr &&
  grep -q "about 40 deals dealt per deal kept" budget.dlr; then
  ok "--level-budget 40: every type relaxed toward nature, 40 deals per deal kept"
else
  ko "--level-budget" "$(grep -E 'exactness|cost' budget.dlr)"
fi
grep -q "^# Nature deals 12-14 in 58 % of these hands and 22-24 in 1.3 %; levelled, each band is$" ladder.dlr &&
  grep -q "^# 20%, 20%, 20%, 20%, 20%.$" ladder.dlr && ok "{{level-mix:NAME}} markers filled" ||
  ko "markers" "$(sed -n 3p ladder.dlr)"

finish $status
