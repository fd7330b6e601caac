#!/usr/bin/env bash
# `--check=bbo` (README "BBO check"): the CLI reads a script as BBO's dealer (classic dealer)
# would and prints `line:col: warning|error: message` lines without dealing; exit 0 without
# errors, 1 with errors, 2 for an unknown check.
#
# 1. Every real BBO script of ../shared/parity/pbs/scripts: no error (exit 0); the warnings, if
#    any, are listed; without any, `no problems for BBO's dealer` on stderr.
# 2. One script per construct BBO rejects: the exact diagnostics and exit 1; when classic dealer
#    (/usr/games/dealer) is installed, it must reject the same script too (non-zero exit).
# 3. A script BBO accepts but DealerV2 reads differently: a warning and exit 0.
#
# Prints PASS/FAIL per row and 'N passed, M failed'; exit status 1 if a row failed.
# Environment: DEALER_CLI (default target/release/dealer), DEALER_ORACLE (default
# /usr/games/dealer), BBO_SCRIPTS (default ../shared/parity/pbs/scripts beside the worktree).
set -u
. "$(dirname "$0")/lib.sh"
row_labels PASS: FAIL:
require_cli
oracle=${DEALER_ORACLE:-/usr/games/dealer}
scripts=${BBO_SCRIPTS:-$top/../shared/parity/pbs/scripts}
enter_work_dir
tmp=$work


# 1. The real BBO scripts.
if [ -d "$scripts" ]; then
  n=0
  for f in "$scripts"/*; do
    n=$((n + 1))
    out=$("$cli" --check=bbo "$f" 2>"$tmp/err")
    rc=$?
    # nothing to report: one line on stderr says the check ran; else the lines on stdout only
    if [ -z "$out" ]; then want_err="no problems for BBO's dealer"; else want_err=""; fi
    if [ "$rc" -eq 0 ] && ! grep -q ': error: ' <<<"$out" && [ "$(cat "$tmp/err")" = "$want_err" ]; then
      ok "$(basename "$f")"
      [ -n "$out" ] && sed "s|^|  warning in $(basename "$f"): |" <<<"$out"
    else
      ko "$(basename "$f") (exit $rc)"
      echo "$out"; cat "$tmp/err"
    fi
  done
  [ "$n" -ge 60 ] && ok "$n BBO scripts checked" || ko "only $n BBO scripts in $scripts"
else
  ko "no BBO scripts at $scripts"
fi

# 2. Constructs BBO rejects: script (printf format), expected output, exit status.
row() {
  local name=$1 script=$2 want=$3 want_rc=$4
  printf "$script" >"$tmp/s.dlr"
  local out rc
  out=$("$cli" --check=bbo "$tmp/s.dlr")
  rc=$?
  if [ "$out" = "$(printf "$want")" ] && [ "$rc" -eq "$want_rc" ]; then ok "$name"; else
    ko "$name (exit $rc)"
    printf 'got:\n%s\nwant:\n%b\n' "$out" "$want"
  fi
  if [ "$want_rc" -eq 1 ] && [ -x "$oracle" ]; then
    if (cd "$tmp" && timeout 20 "$oracle" s.dlr >/dev/null 2>&1); then
      ko "$name: classic dealer accepts it"
    else
      ok "$name: classic dealer rejects it too"
    fi
  fi
}
row "hash not in column 1" 'produce 1 # one deal\ncondition 1\n' \
  '1:11: error: `#` not in column 1: classic dealer only reads `#` in column 1 as a comment (syntax error here); use `//` or move `#` to column 1' 1
row "hash comment at EOF without newline" 'produce 1\ncondition 1\n# end' \
  '3:1: error: `#` comment at the end of the file without a newline: classic dealer reads it as a syntax error' 1
row "// at EOF without newline" 'produce 1\ncondition 1\n// end' \
  '3:1: error: `//` comment at the end of the file without a newline: classic dealer reads two `/` (syntax error)' 1
row "z3N contract" 'produce 1\ncondition 1\naction average score(vul, z3N, 9)\n' \
  '3:27: error: contract `z3N` is DealerV2 only: classic dealer knows `x` contracts without doubling (x3N)' 1
row "doubled contract" 'produce 1\ncondition 1\naction average score(vul, x4Sx, 9)\n' \
  '3:27: error: contract `x4Sx` is DealerV2 only: classic dealer knows `x` contracts without doubling (x3N)' 1
row "shape{}" 'produce 1\ncondition shape{north, 5+s}\n' '2:11: error: `shape{…}` is DealerV2 only' 1
row "dds" 'produce 1\ncondition dds(north, spades) > 9\n' '2:11: error: `dds` is DealerV2 only' 1
row "par" 'produce 1\ncondition 1\naction average par(ns)\n' '3:16: error: `par` is DealerV2 only' 1
row "csvrpt" 'produce 1\ncondition 1\naction csvrpt(hcp(north))\n' '3:8: error: `csvrpt` is DealerV2 only' 1
row "title" 'title "T"\nproduce 1\ncondition 1\n' '1:1: error: `title` is DealerV2 only' 1
row "dotnum" 'produce 1\ncondition 1\naction average .5\n' '3:16: error: decimal number `.5` is DealerV2 only' 1
row "\$n variable" 'produce 1\ncondition hcp(north) > $1\n' '2:24: error: `$1` script variables are DealerV2 only' 1
row "printlin" 'produce 1\ncondition 1\naction printlin\n' '3:8: error: `printlin` is a libdealer action: BBO does not know it' 1
clauses=$(for i in $(seq 32); do printf ' || shape(north, 4333)'; done)
row "32 shape clauses" "produce 1\ncondition 0$clauses\n" \
  '2:698: error: shape clause 32: classic dealer allows 31 (Too many shapes -- only 32 allowed!)' 1
row "spot cards" 'predeal north SQTxx, HA\nproduce 1\ncondition 1\n' \
  "1:15: error: spot cards (x) in a predeal holding are libdealer's own: classic dealer reads the word as a name (syntax error); predeal the named cards only" 1
row "classic syntax error" 'produce 1\ncondition hcp(north) >\n' \
  '3:1: error: classic dealer rejects the script: syntax error' 1

# 3. Accepted by BBO, read differently by DealerV2, or a V2 keyword as a classic variable.
row "precedence" 'produce 1\ncondition 1\naction average 3 * 4 / 5\n' \
  '3:16: warning: DealerV2 reads this statement differently (operator precedence): add parentheses to make both read it alike' 0
row "V2 keyword as a variable" 'trix = hcp(north)\nproduce 1\ncondition trix > 10\n' \
  '1:1: warning: `trix` is a DealerV2 keyword; classic dealer reads it as a variable name\n3:11: warning: `trix` is a DealerV2 keyword; classic dealer reads it as a variable name' 0

# Unknown check.
"$cli" --check=gib "$tmp/s.dlr" >/dev/null 2>&1
[ $? -eq 2 ] && ok "unknown check: exit 2" || ko "unknown check: exit 2"

finish
