#!/usr/bin/env bash
# opc() through a stand-in DOP program (tests/opc/fake_dop.sh, fixed values): the values read
# (×100, per strain and the longest fit) both from the real program's answer (no ':', exit
# status 1) and from the documented form (with ':', exit status 0), the command line DealerV2
# builds (-O<opener>, -N/-S or -E/-W, hands spades to clubs with '/' and '-' for a void, -q), one
# run per side per deal (the cache), and clear errors when the program prints no answer,
# nonsense, too few numbers or too much, is killed by a signal, hangs, leaves a child holding its
# output (answered, the child ended), is missing or cannot be run.
# Prints "N passed, M failed".
set -u
. "$(dirname "$0")/lib.sh"
require_cli
dop="$top/tests/opc/fake_dop.sh"
check() { if [ "$2" = "$3" ]; then ok "$1"; else
  ko "$1"; echo "  expected: $3"; echo "  got:      $2"; fi; }
enter_work_dir
tmp=$work
export FAKE_DOP_LOG="$tmp/log"

printf 'produce 2\naction printoneline(opc(NS)), printoneline(opc(NS, hearts)), printoneline(opc(EW, notrump)), printoneline(opc(NS, clubs)), printoneline(opc(EW, spades))\n' > "$tmp/values.dli"
for mode in real colon; do
  : > "$tmp/log"
  out=$(FAKE_DOP_MODE=$mode "$cli" --opc-program="$dop" -O e -s 1 -v "$tmp/values.dli"); status=$?
  check "$mode answer: exit status" "$status" "0"
  check "$mode answer: values x100: longest fit, hearts, notrump, clubs, spades" \
    "$(printf '%s\n' "$out" | awk '{print $NF}' | head -n 5 | tr '\n' ' ')" "2650 2325 2500 2130 2475 "
  check "$mode answer: one run per side per deal" "$(wc -l < "$tmp/log" | tr -d ' ')" "4"
done
deal=$(printf '%s\n' "$out" | head -n 1)
hand() { printf '%s\n' "$deal" | awk -v s="$1" '{for (i = 1; i < NF; i++) if ($i == s) print $(i + 1)}' | tr . / | sed 's|//|/-/|g; s|^/|-/|; s|/$|/-|'; }
check "NS command line" "$(head -n 1 "$tmp/log")" "-OE -N $(hand n) -S $(hand s) -q"
check "EW command line" "$(sed -n 2p "$tmp/log")" "-OE -E $(hand e) -W $(hand w) -q"
: > "$tmp/log"
"$cli" --opc-program="$dop" -s 1 -v "$tmp/values.dli" > /dev/null
check "default opener West" "$(head -n 1 "$tmp/log" | cut -d' ' -f1)" "-OW"

printf 'produce 1\ncondition opc(NS) > 0\naction printoneline\n' > "$tmp/cond.dli"
expected="expected eight numbers 'C D H S NT LONG QL_SUIT QL_NT'"
for mode in fail garbage short signal; do
  err=$(FAKE_DOP_MODE=$mode "$cli" --opc-program="$dop" -s 1 "$tmp/cond.dli" 2>&1 >/dev/null); status=$?
  check "program that does '$mode': exit status" "$status" "4"
  case $mode in
    fail) want="line 2: opc: $dop: $expected, got '' (exit status: 1)" ;;
    garbage) want="line 2: opc: $dop: $expected, got 'no numbers here'" ;;
    short) want="line 2: opc: $dop: $expected, got '21.30 22.00 23.25 24.75 25.00 26.50  1.50' (exit status: 1)" ;;
    signal) want="line 2: opc: $dop: killed by signal: 9 (SIGKILL)" ;;
  esac
  check "program that does '$mode': message" "$err" "$want"
done
start=$(date +%s)
err=$(FAKE_DOP_MODE=hang "$cli" --opc-program="$dop" --external-timeout=1 -s 1 "$tmp/cond.dli" 2>&1 >/dev/null)
check "hanging program: message" "$err" "line 2: opc: $dop: no answer within 1.0 s"
check "hanging program: stopped in time" "$(( $(date +%s) - start < 5 ))" "1"
start=$(date +%s)
out=$(FAKE_DOP_MODE=orphan FAKE_DOP_PIDFILE="$tmp/orphan.pid" timeout 20 "$cli" --opc-program="$dop" -s 1 "$tmp/cond.dli" 2>&1); status=$?
check "program that leaves a child holding its output: answered" "$status:$(printf '%s\n' "$out" | grep -c '^Produced  1 hands')" "0:1"
check "program that leaves a child holding its output: in time" "$(( $(date +%s) - start < 5 ))" "1"
sleep 0.2
check "program that leaves a child holding its output: the child is ended" \
  "$(ps -o stat= -p "$(cat "$tmp/orphan.pid")" 2>/dev/null | grep -v '^Z')" ""
err=$(FAKE_DOP_MODE=long timeout 20 "$cli" --opc-program="$dop" -s 1 "$tmp/cond.dli" 2>&1 >/dev/null)
check "program whose answer is too long" "$err" "line 2: opc: $dop: answer too long (more than 65536 bytes)"
err=$("$cli" --opc-program="$tmp/missing/dop" -s 1 "$tmp/cond.dli" 2>&1 >/dev/null)
check "missing program" "$err" "line 2: opc: $tmp/missing/dop: cannot start: No such file or directory (os error 2)"
cp "$dop" "$tmp/not_executable"
chmod 644 "$tmp/not_executable"
err=$("$cli" --opc-program="$tmp/not_executable" -s 1 "$tmp/cond.dli" 2>&1 >/dev/null)
check "program that is not executable" "$err" \
  "line 2: opc: $tmp/not_executable: cannot start: Permission denied (os error 13)"
finish
