#!/usr/bin/env bash
# Spot-card predeal (README "Spot-card predeal"): `predeal north SQTxx, HJ8x` and `-N SQTxx`.
#
# 1. ChaCha, both dialects: every produced deal gives North exactly SQ, ST and two spades of 2-9
#    (no other spade) and exactly HJ, H8 and one heart of 2-9 but the 8; the x cards vary.
# 2. The command-line predeal (-N) takes x the same way and replaces the script's predeal.
# 3. The compatibility generators (drand48, glibc) refuse a script with x: status 255, the
#    message at the holding's line (and column with --explain); -N with x is an option error.
# 4. Errors: more x than free small cards, a bias length that contradicts the holding.
# 5. When classic dealer (/usr/games/dealer) is installed: it rejects x (a syntax error), so the
#    peers' behaviour for such scripts is an error, as documented.
#
# Prints PASS/FAIL per row and 'N passed, M failed'; exit status 1 if a row failed.
# Environment: DEALER_CLI (default target/release/dealer), DEALER_ORACLE (default /usr/games/dealer).
set -u
. "$(dirname "$0")/lib.sh"
row_labels PASS: FAIL:
require_cli
oracle=${DEALER_ORACLE:-/usr/games/dealer}
enter_work_dir
tmp=$work

# North's spades and hearts of every `printoneline` deal (`n S.H.D.C e …`) on stdin must match.
check_north() {
  awk -v want_s="$1" -v want_h="$2" '
    $1 == "n" { split($2, suit, "."); n++
      if (suit[1] !~ want_s || suit[2] !~ want_h) { bad++; print "bad: " $0 > "/dev/stderr" }
      seen[suit[1] " " suit[2]] = 1 }
    END { k = 0; for (x in seen) k++; if (n < 100 || bad || k < 10) { print n, bad, k > "/dev/stderr"; exit 1 } }'
}

printf 'predeal north SQTxx, HJ8x\nproduce 300\naction printoneline\n' >spot.dl
for dialect in v2 classic; do
  if "$cli" --rng=chacha --dialect=$dialect -s 7 spot.dl >out 2>err &&
    check_north '^QT[2-9][2-9]$' '^J(9[2-7]|8[2-7])$|^J98$' <out; then
    ok "ChaCha ($dialect): North holds SQ ST + two small spades, HJ H8 + one small heart"
  else
    ko "ChaCha ($dialect)" "$(head -c 300 err)"
  fi
done

printf 'predeal north SAK\nproduce 300\naction printoneline\n' >plain.dl
if "$cli" -s 8 -N 'SQTxx,HJ8x' plain.dl >out 2>err &&
  check_north '^QT[2-9][2-9]$' '^J(9[2-7]|8[2-7])$|^J98$' <out; then
  ok "-N SQTxx,HJ8x replaces the script's predeal"
else
  ko "-N SQTxx,HJ8x" "$(head -c 300 err)"
fi

for rng in drand48 glibc; do
  "$cli" --rng=$rng -s 1 spot.dl >out 2>err
  rc=$?
  if [ $rc -eq 255 ] && [ ! -s out ] &&
    grep -q "^line 1: spot cards (x) in predeal need the ChaCha generator: the $rng generator reproduces" err; then
    ok "--rng=$rng refuses x (status 255, line 1)"
  else
    ko "--rng=$rng refuses x" "exit $rc, $(head -c 200 err)"
  fi
  "$cli" --rng=$rng --explain -s 1 spot.dl >out 2>err
  if grep -q "^line 1, column 15: spot cards (x)" err; then ok "--rng=$rng --explain: line 1, column 15"; else
    ko "--rng=$rng --explain" "$(head -c 200 err)"
  fi
done
"$cli" --rng=drand48 -s 1 -N 'SQTxx' plain.dl >out 2>err
rc=$?
if [ $rc -ne 0 ] && grep -q "^option predeal_north: spot cards (x) in predeal need the ChaCha generator" err; then
  ok "--rng=drand48 -N SQTxx is an option error"
else
  ko "--rng=drand48 -N SQTxx" "exit $rc, $(head -c 200 err)"
fi

# Script errors: status 255 at the holding's line.
err_row() {
  local name=$1 script=$2 want=$3
  printf "$script" >e.dl
  "$cli" -s 1 e.dl >out 2>err
  local rc=$?
  if [ $rc -eq 255 ] && [ "$(cat err)" = "$want" ]; then ok "$name"; else ko "$name" "exit $rc, $(head -c 300 err)"; fi
}
err_row "too many x" 'predeal north Sxxxxxx\npredeal west S2\n\npredeal south Sxx\nproduce 1\n' \
  'line 4: Too many spot cards (x) in Spades: 8 asked for, but only 7 of the Spades 2 to 9 are not predealt'
err_row "bias length against the holding" 'predeal north SQTxx\npredeal spades(north) == 5\nproduce 1\n' \
  "line 2: North's spot-card holding has 4 Spades but its length is set to 5"
err_row "x before a named card" 'predeal north SxQ\nproduce 1\n' 'line 1: syntax error'
err_row "a card of a suit given in full" 'predeal north SQTxx\npredeal north SA\nproduce 1\n' \
  "line 2: North's Spades are given in full by its holding with x at line 1, column 15"

if [ -x "$oracle" ]; then
  printf 'predeal north SQTxx\nproduce 1\naction printoneline\n' >c.dl
  "$oracle" -s 1 c.dl >out 2>err
  rc=$?
  if [ $rc -ne 0 ] && grep -q "syntax error" err; then ok "classic dealer rejects x (syntax error)"; else
    ko "classic dealer rejects x" "exit $rc, $(head -c 200 err)"
  fi
else
  echo "NOT RUN: classic dealer ($oracle) not installed"
fi

finish
