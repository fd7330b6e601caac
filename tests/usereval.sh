#!/usr/bin/env bash
# End-to-end checks of usereval(tag, side|compass, [suit,] index) through the CLI
# (target/release/dealer -U SERVER) with the C test DealerServer examples-c/test_dealer_server.c,
# which this script builds into a temporary folder. The server's tag contract is documented at
# the top of that file:
#   99 slot fill (res[i] = 1000*(side+1)+i), 98 query counter + curr_gen/curr_prod,
#   97 echo of the hand statistics, 3 Goren, 96 die, 95 hang, other tags -(HCP of N,E,S,W).
#
# Checks: every form's slot mapping for both sides, all suits and compasses; out-of-range slots;
# the hand statistics sent to the server against the script's own functions; the Goren metric;
# the per-side (deal, tag) cache, curr_gen/curr_prod and rnd(0); failing servers (missing, not
# executable, exits early, dies, hangs); the server dying with its host (SIGKILL), names and all;
# the server started whenever the script mentions usereval. After every run: no semaphore
# (/dev/shm/sem.[qr]_sem_<pid>*), no new /tmp/dealer_mmap_* file nobody holds open, and no
# server process left.
#
# Prints "ok: NAME" / "FAIL: NAME" per check and finally "N passed, M failed"; exit status 1 when
# a check failed. Environment: DEALER_CLI (default target/release/dealer), CC (default cc).
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
dealer=${DEALER_CLI:-$top/target/release/dealer}
cc=${CC:-cc}

# check NAME CONDITION-STATUS [DETAIL]
check() { if [ "$2" = 0 ]; then ok "$1"; else ko "$1${3:+ -- $3}"; fi; }

work=$(mktemp -d /tmp/usereval_test.XXXXXX)
trap 'rm -rf "$work"' EXIT
server=$work/test_dealer_server

if [ ! -x "$dealer" ]; then
  ko "$dealer not found (run make first)"
  finish
fi
if ! "$cc" -std=c99 -D_POSIX_C_SOURCE=200809L -O2 -Wall -Wextra -Werror -o "$server" \
    "$top/examples-c/test_dealer_server.c" -pthread; then
  ko "build the test DealerServer"
  finish
fi
ok "build the test DealerServer"

# ---------------------------------------------------------------------------------------------
# Running the CLI and checking what a run leaves behind.

OUT=$work/out
ERR=$work/err
RC=0
ELAPSED=0

list_mmaps() { ls -1 /tmp 2>/dev/null | grep '^dealer_mmap_' | sort; }

# Is FILE open in some live process? (then it belongs to a run that is still going on)
held_open() {
  local link
  for link in /proc/[0-9]*/fd/*; do
    [ "$(readlink "$link" 2>/dev/null)" = "$1" ] && return 0
  done
  return 1
}

# run NAME [dealer arguments...]: runs the CLI (stdout in $OUT, stderr in $ERR, status in $RC,
# seconds in $ELAPSED), then checks that it left nothing behind.
run() {
  local name=$1
  shift
  local before after t0 pid pid6 leftovers=""
  before=$(list_mmaps)
  t0=$(date +%s.%N)
  "$dealer" "$@" >"$OUT" 2>"$ERR" &
  pid=$!
  wait "$pid"
  RC=$?
  ELAPSED=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')
  pid6=$(printf '%06d' "$pid")
  local sems
  sems=$(ls -1 /dev/shm 2>/dev/null | grep -E "^sem\.[qr]_sem_${pid6}(_|$)")
  [ -n "$sems" ] && leftovers="$leftovers semaphores: $(echo $sems);"
  after=$(list_mmaps)
  local f
  for f in $(comm -13 <(echo "$before") <(echo "$after")); do
    held_open "/tmp/$f" || leftovers="$leftovers page file /tmp/$f;"
  done
  local procs
  procs=$(pgrep -f -- "$work/" | tr '\n' ' ')
  if [ -n "$procs" ]; then
    leftovers="$leftovers processes: $procs;"
    # shellcheck disable=SC2086
    kill $procs 2>/dev/null
  fi
  check "$name: nothing left behind" "$([ -z "$leftovers" ]; echo $?)" "$leftovers"
}

# script NAME TEXT: writes a script file and echoes its path.
script() {
  printf '%s' "$2" >"$work/$1.dli"
  echo "$work/$1.dli"
}

# check_triples NAME COUNT: $OUT holds printrpt lines " 'label',got,expected"; each pair must
# be equal and there must be COUNT of them.
check_triples() {
  local name=$1 count=$2 report
  report=$(awk -F, -v want="$count" '
    /^ '\''/ {
      n++
      label = $1; sub(/^ '\''/, "", label); sub(/'\''$/, "", label)
      if (NF != 3 || $2 != $3) { bad++; if (bad <= 10) printf "%s: got %s, expected %s; ", label, $2, $3 }
      next
    }
    { other++ }
    END {
      if (n != want) printf "%d checks printed, expected %d; ", n, want
      if (other) printf "%d other lines; ", other
      if (bad > 10) printf "... %d mismatches in all", bad
    }' "$OUT")
  check "$name ($count values)" "$([ -z "$report" ]; echo $?)" "$report"
}

# expect_run_ok NAME: the run succeeded with empty stderr.
expect_run_ok() {
  check "$1: exit status 0, nothing on stderr" "$([ "$RC" = 0 ] && [ ! -s "$ERR" ]; echo $?)" \
    "status $RC, stderr: $(head -c 300 "$ERR")"
}

# expect_error NAME STATUS REGEX: the run failed with STATUS and stderr is exactly one line
# matching REGEX (extended).
expect_error() {
  local lines
  lines=$(wc -l <"$ERR")
  check "$1: exit status $2 and the message" \
    "$([ "$RC" = "$2" ] && [ "$lines" = 1 ] && grep -Eq -- "$3" "$ERR"; echo $?)" \
    "status $RC, stderr: $(head -c 300 "$ERR")"
}

suits=(clubs diamonds hearts spades)
seats=(north east south west)
# side_of SEAT-INDEX, h_of SEAT-INDEX (h = 1 for South and West)
side_of() { echo $(($1 % 2)); }
h_of() { echo $(($1 / 2)); }
sidename=(NS EW)
# The two seats of a side, h = 0 then h = 1.
seats_of_side=("north south" "east west")

# ---------------------------------------------------------------------------------------------
# 1. Slot mapping of every form (tag 99: res[i] = 1000*(side+1) + i).

acts=()
n=0
add() { acts+=("printrpt(\"$1\", $2, $3)"); n=$((n + 1)); }
for side in 0 1; do
  s=${sidename[$side]}
  for idx in 0 7 31 64 100 127; do
    add "$s $idx" "usereval(99, $s, $idx)" $((1000 * (side + 1) + idx))
  done
  for si in 0 1 2 3; do
    max=$((127 - 32 - 8 * si))
    for idx in 0 7 31 $max; do
      add "$s ${suits[$si]} $idx" "usereval(99, $s, ${suits[$si]}, $idx)" $((1000 * (side + 1) + 32 + 8 * si + idx))
    done
  done
done
for c in 0 1 2 3; do
  side=$(side_of $c)
  h=$(h_of $c)
  max=$((127 - 64 - 16 * h))
  for idx in 0 7 31 $max; do
    add "${seats[$c]} $idx" "usereval(99, ${seats[$c]}, $idx)" $((1000 * (side + 1) + 64 + 16 * h + idx))
  done
  for si in 0 1 2 3; do
    max=$((127 - 96 - 16 * h - 4 * si))
    for idx in $(printf '%s\n' 0 7 31 $max | sort -nu); do
      [ "$idx" -gt "$max" ] && continue
      add "${seats[$c]} ${suits[$si]} $idx" "usereval(99, ${seats[$c]}, ${suits[$si]}, $idx)" \
        $((1000 * (side + 1) + 96 + 16 * h + 4 * si + idx))
    done
  done
done
f=$(script slots "produce 3
condition usereval(99, EW, 5) == 2005
action $(IFS=,; echo "${acts[*]}")
")
run "slot mapping" -v -s 7 -U "$server" "$f"
expect_run_ok "slot mapping"
check_triples "slot mapping, every form, both sides, 3 deals" $((3 * n))

# The case of the words: DealerV2's keywords are lower case; the sides and suits are tokens too.
# (Nothing else to check here: the forms above cover the grammar.)

# ---------------------------------------------------------------------------------------------
# 2. An index whose slot falls outside 0..127: a clear error naming the line.

for spec in "NS, 128|128|128" "EW, 128|128|128" "NS, -1|-1|-1" "NS, 300|300|300" \
  "NS, clubs, 96|96|128" "EW, spades, 72|72|128" "north, 64|64|128" "west, 48|48|128" \
  "east, clubs, 32|32|128" "south, spades, 4|4|128" "west, hearts, -121|-121|-1"; do
  IFS='|' read -r args idx slot <<<"$spec"
  f=$(script range "produce 2

condition usereval(99, $args) > 0
action printoneline
")
  run "usereval(99, $args)" -v -s 1 -U "$server" "$f"
  expect_error "usereval(99, $args): slot $slot" 4 \
    "^line 3: usereval: index $idx selects slot $slot, outside 0\.\.127$"
  check "usereval(99, $args): no output" "$([ ! -s "$OUT" ]; echo $?)"
done
# ... also in an action, after output was written: the deals before stay written.
f=$(script range2 "produce 3
action printrpt(rnd(0)),
  printrpt(rnd(0) == 2 ? usereval(99, south, hearts, 12) : 0)
")
run "out-of-range slot in an action" -v -s 1 -U "$server" "$f"
expect_error "out-of-range slot in an action" 4 "^line 3: usereval: index 12 selects slot 132, outside 0\.\.127$"
check "out-of-range slot in an action: the first deal and the line before stay written" \
  "$([ "$(tr -d ' ' <"$OUT" | tr '\n' ' ')" = "1 0 2 " ]; echo $?)" "stdout: $(tr '\n' '|' <"$OUT")"

# ---------------------------------------------------------------------------------------------
# 3. Tag 97: the hand statistics the server receives equal the script's own functions.

acts=()
n=0
for side in 0 1; do
  s=${sidename[$side]}
  h=0
  for seat in ${seats_of_side[$side]}; do
    b=$((32 * h))
    u() { echo "usereval(97, $s, $1)"; }
    for si in 0 1 2 3; do
      add "$seat length ${suits[$si]}" "$(u $((b + si)))" "${suits[$si]}($seat)"
      add "$seat hcp ${suits[$si]}" "$(u $((b + 4 + si)))" "hcp($seat, ${suits[$si]})"
      add "$seat hcp-table ${suits[$si]}" "$(u $((b + 13 + si)))" "hcp($seat, ${suits[$si]})"
      add "$seat server length ${suits[$si]}" "$(u $((b + 18 + si)))" "${suits[$si]}($seat)"
    done
    add "$seat hcp" "$(u $((b + 8)))" "hcp($seat)"
    add "$seat losers" "$(u $((b + 9)))" "loser($seat)"
    add "$seat controls" "$(u $((b + 10)))" "control($seat)"
    add "$seat ltc" "$(u $((b + 11)))" "ltc($seat)"
    sq="(clubs($seat) >= 3 && clubs($seat) <= 4 && diamonds($seat) >= 3 && diamonds($seat) <= 4"
    sq="$sq && hearts($seat) >= 3 && hearts($seat) <= 4 && spades($seat) >= 3 && spades($seat) <= 4)"
    add "$seat square" "$(u $((b + 12)))" "$sq"
    seatno=0
    for i in 0 1 2 3; do [ "${seats[$i]}" = "$seat" ] && seatno=$i; done
    add "$seat seat" "$(u $((b + 17)))" "$seatno"
    # The server counts standard HCP itself (A4 K3 Q2 J1), whatever the script's pointcount.
    add "$seat server hcp" "$(u $((b + 22)))" "4*aces($seat) + 3*kings($seat) + 2*queens($seat) + jacks($seat)"
    add "$seat cards held" "$(u $((b + 23)))" 13
    h=1
  done
  add "$s curr_prod" "usereval(97, $s, 65)" "rnd(0)"
  add "$s dds cache (no dds asked)" "usereval(97, $s, 66)" 0
done
statacts=$(IFS=,; echo "${acts[*]}")
f=$(script stats "produce 6
condition hcp(north) >= 10
action $statacts
")
run "hand statistics" -v -s 11 -U "$server" "$f"
expect_run_ok "hand statistics"
check_triples "hand statistics echoed by the server = the script's functions, 6 deals" $((6 * n))
# The same with another HCP table: the statistics carry the script's pointcount.
f=$(script stats_pc "pointcount 6 4 2 1 1
produce 4
action $statacts
")
run "hand statistics with pointcount" -v -s 12 -U "$server" "$f"
expect_run_ok "hand statistics with pointcount"
check_triples "hand statistics with 'pointcount 6 4 2 1 1', 4 deals" $((4 * n))

# Known double-dummy results travel with the query (DealerV2's dds_cache), here after dds() in
# table mode (-M 2); the side's first query of the deal comes after dds().
acts=()
n=0
acts+=("printrpt(\"dds\", dds(north, spades), dds(north, spades))")
n=$((n + 1))
for side in 0 1; do
  s=${sidename[$side]}
  add "$s dds cache" "usereval(97, $s, 66)" 1
  for d in 0 1 2 3; do
    st=0
    for strain in clubs diamonds hearts spades notrump; do
      add "$s tricks ${seats[$d]} $strain" "usereval(97, $s, $((67 + 5 * d + st)))" "dds(${seats[$d]}, $strain)"
      st=$((st + 1))
    done
  done
done
f=$(script stats_dds "produce 2
action $(IFS=,; echo "${acts[*]}")
")
run "double-dummy results sent" -v -M 2 -s 3 -U "$server" "$f"
expect_run_ok "double-dummy results sent"
check_triples "dds_cache and dds_trix sent after dds() (-M 2), 2 deals" $((2 * n))

# ---------------------------------------------------------------------------------------------
# 4. Tag 3 (Goren) and an unknown tag against the script's own functions.

defs=""
for seat in north east south west; do
  for si in 0 1 2 3; do
    l="${suits[$si]}($seat)"
    defs="$defs${seat}_ssp$si = $l == 0 ? 3 : ($l == 1 ? 2 : ($l == 2 ? 1 : 0))
"
  done
  defs="$defs${seat}_ssp = ${seat}_ssp0 + ${seat}_ssp1 + ${seat}_ssp2 + ${seat}_ssp3
"
done
acts=()
n=0
for side in 0 1; do
  s=${sidename[$side]}
  read -r a b <<<"${seats_of_side[$side]}"
  for si in 0 1 2 3; do
    defs="$defs${s}_len$si = ${suits[$si]}($a) + ${suits[$si]}($b)
"
  done
  L="${s}_len"
  defs="$defs${s}_fit = ($L""3 >= $L""2 && $L""3 >= $L""1 && $L""3 >= $L""0) ? 3 : (($L""2 >= $L""1 && $L""2 >= $L""0) ? 2 : ($L""1 >= $L""0 ? 1 : 0))
${s}_fitlen = ${s}_fit == 3 ? $L""3 : (${s}_fit == 2 ? $L""2 : (${s}_fit == 1 ? $L""1 : $L""0))
"
  for seat in $a $b; do
    defs="$defs${seat}_fitval = hcp($seat) + ${seat}_ssp - (${s}_fit == 3 ? ${seat}_ssp3 : (${s}_fit == 2 ? ${seat}_ssp2 : (${s}_fit == 1 ? ${seat}_ssp1 : ${seat}_ssp0)))
"
  done
  add "$s side NT" "usereval(3, $s, 0)" "hcp($a) + hcp($b)"
  add "$s $a NT" "usereval(3, $s, 1)" "hcp($a)"
  add "$s $b NT" "usereval(3, $s, 2)" "hcp($b)"
  add "$s side in fit" "usereval(3, $s, 3)" "${a}_fitval + ${b}_fitval"
  add "$s $a in fit" "usereval(3, $s, 4)" "${a}_fitval"
  add "$s $b in fit" "usereval(3, $s, 5)" "${b}_fitval"
  add "$s fit suit" "usereval(3, $s, 6)" "${s}_fit"
  add "$s fit length" "usereval(3, $s, 7)" "${s}_fitlen"
  for si in 0 1 2 3; do
    add "$s hcp ${suits[$si]}" "usereval(3, $s, ${suits[$si]}, 0)" "hcp($a, ${suits[$si]}) + hcp($b, ${suits[$si]})"
    add "$s length ${suits[$si]}" "usereval(3, $s, ${suits[$si]}, 1)" "${s}_len$si"
  done
  for seat in $a $b; do
    add "$seat NT" "usereval(3, $seat, 0)" "hcp($seat)"
    add "$seat short points" "usereval(3, $seat, 1)" "${seat}_ssp"
    add "$seat suit value" "usereval(3, $seat, 2)" "hcp($seat) + ${seat}_ssp"
    add "$seat in fit" "usereval(3, $seat, 3)" "${seat}_fitval"
    for si in 0 1 2 3; do
      add "$seat hcp ${suits[$si]}" "usereval(3, $seat, ${suits[$si]}, 0)" "hcp($seat, ${suits[$si]})"
      add "$seat length ${suits[$si]}" "usereval(3, $seat, ${suits[$si]}, 1)" "${suits[$si]}($seat)"
      add "$seat short points ${suits[$si]}" "usereval(3, $seat, ${suits[$si]}, 2)" "${seat}_ssp$si"
    done
  done
  # Any other tag: res[0..3] = -(HCP of N, E, S, W), in the queried side's block.
  for tag in 5 120; do
    i=0
    for seat in north east south west; do
      add "tag $tag $s slot $i" "usereval($tag, $s, $i)" "0 - hcp($seat)"
      i=$((i + 1))
    done
  done
done
f=$(script goren "${defs}produce 12
condition usereval(3, NS, 0) >= 18 || usereval(3, EW, 7) >= 8
action $(IFS=,; echo "${acts[*]}")
")
run "Goren" -v -s 5 -U "$server" "$f"
expect_run_ok "Goren"
check_triples "tag 3 (Goren) and unknown tags = the script's functions, 12 deals" $((12 * n))

# ---------------------------------------------------------------------------------------------
# 5. The cache (one round trip per side for each deal and tag), curr_gen, curr_prod, rnd(0).
#
# The condition asks usereval(98, NS, 1) on every deal generated (one round trip each), then the
# action of a produced deal asks, in this order:
#   98 NS 0 (cached from the condition), 98 NS 1, 98 NS 2, rnd(0), 98 EW 0 (round trip),
#   98 EW 0 (cached), 99 EW 5 (round trip), 98 EW 0 (round trip: the EW cache holds tag 99),
#   98 NS 0 (cached: the NS cache still holds tag 98), 99 NS 0 (round trip), 98 NS 0 (round trip),
#   98 NS 2, 98 NS 1 (both cached from the round trip before).
# With G = the deal's number among the deals generated and P among those produced, the counter
# before this deal's condition query is (G - 1) + 5 (P - 1), so with c = G + 5 (P - 1) the line
# reads: c, G, P-1, P, c+1, c+1, 2005, c+3, c, 1000, c+5, P, G. (Plain dealing, so that the
# produced deals are among those generated: North's part would be dealt from its table.)
seed=21
f=$(script plain "produce 200
action printoneline
")
run "the deals in generation order" -v -s $seed --smart=off "$f"
expect_run_ok "the deals in generation order"
cp "$OUT" "$work/generated"
f=$(script cache "produce 8
condition usereval(98, NS, 1) > 0 && hcp(north) >= 14
action printrpt(deal, usereval(98, NS, 0), usereval(98, NS, 1), usereval(98, NS, 2), rnd(0),
  usereval(98, EW, 0), usereval(98, EW, 0), usereval(99, EW, 5), usereval(98, EW, 0),
  usereval(98, NS, 0), usereval(99, NS, 0), usereval(98, NS, 0), usereval(98, NS, 2),
  usereval(98, NS, 1))
")
run "cache" -v -s $seed --smart=off -U "$server" "$f"
expect_run_ok "cache"
report=$(awk -F, '
  FNR == NR { gen[$0] = FNR; next }
  {
    p++
    d = $1; sub(/^ /, "", d)
    if (!(d in gen)) { printf "deal %d not among the first 200 generated; ", p; next }
    g = gen[d]; c = g + 5 * (p - 1)
    want = c "," g "," p - 1 "," p "," c + 1 "," c + 1 ",2005," c + 3 "," c ",1000," c + 5 "," p "," g
    got = $2; for (i = 3; i <= NF; i++) got = got "," $i
    if (got != want) printf "deal %d (generated %d): got %s, expected %s; ", p, g, got, want
  }
  END { if (p != 8) printf "%d deals produced, expected 8", p }' "$work/generated" "$OUT")
check "cache: one round trip per side for each (deal, tag); curr_gen, curr_prod, rnd(0)" \
  "$([ -z "$report" ]; echo $?)" "$report"
# rnd(0) in the action numbers the produced deals 1, 2, 3 ...
f=$(script rnd0 "produce 5
condition hcp(south) > 12
action printrpt(rnd(0))
")
run "rnd(0)" -v -s 4 "$f"
check "rnd(0) prints 1..5 in the actions" "$([ "$(tr -d ' \n' <"$OUT")" = 12345 ] && [ "$RC" = 0 ]; echo $?)" \
  "status $RC, stdout: $(tr '\n' '|' <"$OUT")"

# ---------------------------------------------------------------------------------------------
# 6. Failures: each a clear message, a non-zero status, and nothing left behind.

f=$(script ko "produce 3
action printrpt(rnd(0) == 3 ? usereval(96, NS, 0) : usereval(99, NS, 0))
")
run "missing server" -v -s 1 -U "$work/no/such/server" "$f"
check "missing server: -U of a missing file is fatal (FATAL Error In GetOpts, status 255)" \
  "$([ "$RC" = 255 ] && grep -q 'FATAL Error In GetOpts' "$ERR" && [ ! -s "$OUT" ]; echo $?)" \
  "status $RC, stderr: $(head -c 300 "$ERR")"

# Stand-ins made here, so that no test depends on what the machine has at a fixed path.
printf 'not a program\n' >"$work/not_executable"
chmod 644 "$work/not_executable"
printf '#!/bin/sh\nexit 0\n' >"$work/exits_at_once"
chmod +x "$work/exits_at_once"
run "server not executable" -v -s 1 -U "$work/not_executable" "$f"
expect_error "server not executable" 4 "^line 2: usereval: cannot start DealerServer $work/not_executable: Permission denied"
check "server not executable: no output" "$([ ! -s "$OUT" ]; echo $?)"

run "server is a directory" -v -s 1 -U "$work" "$f"
expect_error "server is a directory" 4 "^line 2: usereval: cannot start DealerServer $work: "

run "server exits at once" -v -s 1 -U "$work/exits_at_once" "$f"
expect_error "server exits at once (exit 0)" 4 \
  "^line 2: usereval: DealerServer $work/exits_at_once ended \(exit status: 0\) without answering query tag 99$"

run "server dies (tag 96)" -v -s 1 -U "$server" "$f"
expect_error "server dies (tag 96)" 4 \
  "^line 2: usereval: DealerServer $server ended \(exit status: 3\) without answering query tag 96$"
check "server dies (tag 96): the two deals before stay written" \
  "$([ "$(tr -d ' \n' <"$OUT")" = 10001000 ]; echo $?)" "stdout: $(tr '\n' '|' <"$OUT")"

f=$(script hang "produce 3

condition usereval(95, EW, 0) > 0
")
run "server hangs (tag 95)" -v -s 1 --external-timeout=1 -U "$server" "$f"
expect_error "server hangs (tag 95), --external-timeout=1" 4 \
  "^line 3: usereval: DealerServer $server did not answer query tag 95 within 1\.0 s$"
check "server hangs (tag 95): the run stops after 1 to 1.5 s (took $ELAPSED s)" \
  "$(awk -v t="$ELAPSED" 'BEGIN { exit !(t >= 1 && t <= 1.5) }'; echo $?)"

# The host killed (SIGKILL, as by a second signal to the CLI or timeout -s KILL): the server, in
# the middle of a run or still waiting for its first query, dies with it within 1 s, and no
# semaphore stays behind. The test server ends itself when its parent goes away; the real one
# waits for a query forever, as the test server does behind a shell that stays its parent.
blocking=$work/blocking_server
printf '#!/bin/sh\n"%s" "$@"\n' "$server" >"$blocking"
chmod +x "$blocking"
f_busy=$(script busy "generate 100000000
produce 100000000
condition usereval(99, NS, 0) < 0
")
f_idle=$(script idle "x = usereval(98, NS, 0)
generate 100000000
produce 100000000
condition hcp(north) > 40
")
# An interruption (SIGINT to the CLI) ends the wait for an answer at once.
"$dealer" -s 1 -U "$server" "$work/hang.dli" >"$OUT" 2>"$ERR" &
pid=$!
sleep 0.5
t0=$(date +%s.%N)
kill -INT "$pid"
wait "$pid"
RC=$?
ELAPSED=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')
expect_error "server hangs (tag 95), SIGINT" 130 "^interrupted$"
check "server hangs (tag 95), SIGINT: ends within 0.5 s (took $ELAPSED s)" \
  "$(awk -v t="$ELAPSED" 'BEGIN { exit !(t <= 0.5) }'; echo $?)"
sleep 0.2
check "server hangs (tag 95), SIGINT: no server left" "$([ -z "$(pgrep -f -- "^$server ")" ]; echo $?)"

# A time-out ends the server's process group: here the shell and the server behind it.
run "server behind a shell hangs (tag 95)" -v -s 1 --external-timeout=1 -U "$blocking" "$(script hang "produce 3

condition usereval(95, EW, 0) > 0
")"
expect_error "server behind a shell hangs (tag 95)" 4 \
  "^line 3: usereval: DealerServer $blocking did not answer query tag 95 within 1\.0 s$"
check "server behind a shell hangs (tag 95): stops after 1 to 1.5 s (took $ELAPSED s)" \
  "$(awk -v t="$ELAPSED" 'BEGIN { exit !(t >= 1 && t <= 1.5) }'; echo $?)"
for spec in "in a run|$f_busy" "before its first query|$f_idle"; do
  IFS='|' read -r name f <<<"$spec"
  "$dealer" -s 1 -U "$blocking" "$f" >/dev/null 2>&1 &
  pid=$!
  sleep 0.5
  up=$(pgrep -f -- "^$server" | wc -l)
  kill -KILL "$pid"
  wait "$pid" 2>/dev/null
  sleep 1
  pid6=$(printf '%06d' "$pid")
  left=$(pgrep -f -- "^(/bin/sh )?($server|$blocking) " | tr '\n' ' ')
  names=$(ls -1 /dev/shm 2>/dev/null | grep -E "^sem\.[qr]_sem_${pid6}_" | tr '\n' ' ')
  check "host killed $name: the server ran ($up), then none is left, no names in /dev/shm" \
    "$([ "$up" = 1 ] && [ -z "$left" ] && [ -z "$names" ]; echo $?)" "processes: $left; names: $names"
  # shellcheck disable=SC2086
  [ -n "$left" ] && kill -KILL $left 2>/dev/null
  rm -f /dev/shm/sem.[qr]_sem_"${pid6}"_*
done

# A server is started for every run, one after another: nothing accumulates.
f=$(script repeat "produce 2
action printrpt(usereval(99, EW, 3))
")
bad=0
for i in 1 2 3 4 5 6 7 8 9 10; do
  run "run $i of 10 with a server" -v -s "$i" -U "$server" "$f"
  [ "$RC" = 0 ] && [ "$(tr -d ' \n' <"$OUT")" = 20032003 ] || bad=1
done
check "10 runs with a server each: right output" "$bad"

# ---------------------------------------------------------------------------------------------
# 7. The server starts whenever the script mentions usereval (DealerV2 starts it at sight), even
#    in a variable nobody uses; a comment does not count. A marker server shows the start.

marker=$work/marker
printf '#!/bin/sh\necho started >%s\n' "$marker" >"$work/marker_server"
chmod +x "$work/marker_server"
f_unused=$(script unused "x = usereval(98, NS, 0)
produce 2
action printoneline
")
f_comment=$(script comment "# usereval(98, NS, 0)
/* usereval(98, NS, 0) */
produce 2
action printoneline
")
rm -f "$marker"
run "usereval in an unused variable" -v -s 1 -U "$work/marker_server" "$f_unused"
check "usereval in an unused variable: the server is started, the run succeeds" \
  "$([ -f "$marker" ] && [ "$RC" = 0 ] && [ "$(wc -l <"$OUT")" = 2 ]; echo $?)" \
  "status $RC, marker: $([ -f "$marker" ] && echo yes || echo no), stderr: $(head -c 300 "$ERR")"
run "usereval in an unused variable, server not executable" -v -s 1 -U "$work/not_executable" "$f_unused"
expect_error "usereval in an unused variable, server not executable" 4 \
  "^line 1: usereval: cannot start DealerServer $work/not_executable"
rm -f "$marker"
run "usereval only in comments" -v -s 1 -U "$work/marker_server" "$f_comment"
check "usereval only in comments: no server started" \
  "$([ ! -f "$marker" ] && [ "$RC" = 0 ] && [ "$(wc -l <"$OUT")" = 2 ]; echo $?)" \
  "status $RC, marker: $([ -f "$marker" ] && echo yes || echo no), stderr: $(head -c 300 "$ERR")"

finish
