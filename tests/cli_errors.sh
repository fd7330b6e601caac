#!/usr/bin/env bash
# Error behaviour of the CLI in the classic dialect (target/release/dealer --rng=glibc) against
# classic dealer (the Debian package `dealer`, /usr/games/dealer), following the error table of
# ../shared/reference/dealer-v1-behaviour.md §5 and its command-line options (§4).
#
# Each "same" row runs both programs with the same arguments from a temporary folder, as
# `dealer` (argv[0], which usage and getopt messages print), and requires identical standard
# output (the 'Time needed' footer line masked), standard error and exit status. Line numbers in
# messages follow the peers' one-token look-ahead, so many rows put newlines and comments after
# the offending construct.
#
# Where classic dealer crashes (SIGFPE, SIGSEGV, assertion failures) an "ours" row asserts
# libdealer's documented behaviour instead: a clear message on standard error and an exit status
# that is not a signal.
#
# Prints PASS/FAIL per row and 'N passed, M failed'; exit status 1 if a row failed. Without
# classic dealer it prints 'NOT RUN: classic dealer not installed' and exits 1 when CI=true,
# 0 otherwise.
#
# Environment: DEALER_CLI (default target/release/dealer), DEALER_ORACLE (default
# /usr/games/dealer), CLI_ERRORS_TIMEOUT (seconds per run, default 120).
set -u
. "$(dirname "$0")/lib.sh"
row_labels PASS FAIL
oracle=${DEALER_ORACLE:-/usr/games/dealer}
limit=${CLI_ERRORS_TIMEOUT:-120}

if [ ! -x "$oracle" ]; then
  echo "NOT RUN: classic dealer not installed"
  if [ "${CI:-}" = true ]; then exit 1; fi
  exit 0
fi
require_cli
enter_work_dir
mkdir results

# invoke NAME PROGRAM ARGS...: runs PROGRAM ARGS in $work with argv[0] "dealer" and no standard
# input; leaves results/NAME.out, .err and .rc.
invoke() {
  local name=$1
  shift
  timeout "$limit" bash -c 'exec -a dealer "$@"' dealer "$@" >"results/$name.out" 2>"results/$name.err" </dev/null
  echo $? >"results/$name.rc"
}

# mask FILE: the file without the 'Time needed' footer line (its value is a timing).
mask() { grep -v -e '^Time needed' "$1"; }

# script FILE TEXT: writes TEXT (no newline added) to FILE.
script() { printf '%s' "$2" >"$1"; }

# same NAME ARGS...: both programs with ARGS must give the same stdout, stderr and exit status.
same() {
  local name=$1
  shift
  invoke want "$oracle" "$@"
  invoke got "$cli" --rng=glibc "$@"
  local why=""
  if ! cmp -s results/want.rc results/got.rc; then
    why="exit $(cat results/got.rc), classic $(cat results/want.rc)"
  elif ! cmp -s results/want.err results/got.err; then
    why="stderr: '$(head -c 100 results/got.err | tr '\n' '|')', classic '$(head -c 100 results/want.err | tr '\n' '|')'"
  elif ! cmp -s <(mask results/want.out) <(mask results/got.out); then
    why="stdout differs: $(cmp <(mask results/got.out) <(mask results/want.out) 2>&1 | head -n 1)"
  fi
  if [ -z "$why" ]; then ok "$name"; else ko "$name" "$why"; fi
}

# same_script NAME TEXT [ARGS...]: `same` on a script file holding TEXT, given after ARGS.
same_script() {
  local name=$1 text=$2
  shift 2
  script in.dl "$text"
  same "$name" "$@" in.dl
}

# ours NAME STATUS STDERR ARGS...: libdealer alone; requires exit status STATUS (not a signal),
# exactly STDERR (plus a newline) on standard error, and no standard output unless STATUS is 0.
ours() {
  local name=$1 status=$2 message=$3
  shift 3
  invoke got "$cli" --rng=glibc "$@"
  local rc why=""
  rc=$(cat results/got.rc)
  if [ "$rc" -eq 124 ]; then
    why="timed out after $limit s"
  elif [ "$rc" -ne "$status" ]; then
    why="exit $rc, expected $status"
  elif [ "$rc" -gt 128 ] && [ "$rc" -le 192 ]; then
    why="exit $rc is a signal"
  elif [ "$(cat results/got.err)" != "$message" ]; then
    why="stderr '$(head -c 160 results/got.err | tr '\n' '|')', expected '$message'"
  elif [ "$status" -ne 0 ] && [ -s results/got.out ]; then
    why="unexpected standard output"
  fi
  if [ -z "$why" ]; then ok "$name"; else ko "$name" "$why"; fi
}

# ours_script NAME STATUS STDERR TEXT [ARGS...]: `ours` on a script file holding TEXT.
ours_script() {
  local name=$1 status=$2 message=$3 text=$4
  shift 4
  script in.dl "$text"
  ours "$name" "$status" "$message" "$@" in.dl
}

# repeat TEXT N: TEXT N times.
repeat() {
  local out="" i
  for ((i = 0; i < $2; i++)); do out+=$1; done
  printf '%s' "$out"
}

# shapes N: a condition with N shape() clauses.
shapes() {
  printf 'condition 1'
  local i
  for ((i = 0; i < $1; i++)); do printf ' || shape(north, 4333)'; done
}

# ----------------------------------------------------------------------- §5: syntax errors
same_script "syntax error reported on the next line" $'condition hcp(north) > \naction printall'
same_script "syntax error at end of input" $'condition 1 &&\n\n\n'
same_script "shape 433" 'condition shape(north, 433)'
same_script "shape 43330" 'condition shape(north, 43330)'
same_script "shape 43X3" 'condition shape(north, 43X3)'
same_script "predeal SAKA" 'predeal north SAKA'
same_script "predeal S2A" 'predeal north S2A'
same_script "predeal sA" 'predeal north sA'
same_script "predeal S1" 'predeal north S1'
same_script "predeal bias -3" 'predeal spades(north)==-3'
same_script "hcp(nonsense)" 'condition hcp(nonsense)'
same_script "hcp(3)" 'condition hcp(3)'
same_script "hcp(spades, north)" 'condition hcp(spades, north)'
same_script "vulnerable All" 'vulnerable All'
same_script "dealer n" 'dealer n'
same_script "unterminated comment" $'condition 1\n/* comment\nstill comment\n'
same_script "unterminated string" 'action printes("abc)'
same_script "unary minus on a function" 'condition -hcp(north)'
same_script "frequency bound is an expression" 'action frequency (hcp(north), 0, 1+2)'
same_script "hash comment not in column 1" 'produce 1 # comment'
same_script "lone carriage return" $'produce 1\rproduce 2'

# ----------------------------------------------------------------------- §5: semantic errors
same_script "unknown variable" 'condition foo > 3'
same_script "misspelled function" 'condition shpae(south, any 4333)'
same_script "misspelled function starting a statement" $'hpc(north)\n'
same_script "misspelled variable" $'opener = hcp(north) > 11\ncondition opner\n'
same_script "unknown action" 'action printsomething'
same_script "unknown action, newline" $'action printsomething\n'
same_script "unknown action, blank lines" $'action printsomething\n\n\n'
same_script "keyword in the wrong case" 'PRODUCE 1'
same_script "wrong number of cards 5441" 'condition shape(north, 5441)'
same_script "wrong number of cards 4431" 'condition shape(north, 4431)'
same_script "too many cards in ambiguous shape" 'condition shape(north, 77xx)'
same_script "31 shape clauses" "$(shapes 31)" -s 1 -p 1
same_script "32 shape clauses" "$(shapes 32)"
same_script "40 shape clauses" "$(shapes 40)"
same_script "card predealt twice" $'predeal north SA\npredeal south SA'
same_script "more than 13 cards" 'predeal north SAKQJT98765432, HA'
same_script "bias length already set" 'predeal spades(north)==3 spades(north)==4'
same_script "bias suit lengths too long" 'predeal spades(north)==7 hearts(north)==7'
same_script "bias length 14" 'predeal spades(north)==14'
same_script "bias too many spades" 'predeal spades(north)==7 spades(south)==7'
same_script "redefined variable" $'a = 1\nb = 2\na = 3\n'
same_script "too many pointcount values" 'pointcount 1 2 3 4 5 6 7 8 9 10 11 12 13 14'
same_script "frequency out of memory" 'action frequency (hcp(north), 5, 3)'
same_script "2-D frequency out of memory" 'action frequency (hcp(north), 1, 3, hcp(south), 5, 0)'

# The full form (--explain) names the unknown word and suggests the nearest known name; the
# peers' one line (above) is unchanged.
ours_script "misspelled function, --explain" 255 $'line 1, column 11: unknown function \'shpae\' (did you mean \'shape\'?)
    condition shpae(south, any 4333)
              ^' 'condition shpae(south, any 4333)' --explain
ours_script "misspelled variable, --explain" 255 $'line 2, column 11: unknown variable \'opner\' (did you mean \'opener\'?)
    condition opner
              ^' $'opener = hcp(north) > 11\ncondition opner\n' --explain
ours_script "DealerV2 function in classic, --explain" 255 $'line 1, column 11: \'ltc\' is a DealerV2 function, not classic dealer\'s
    condition ltc(north) < 7
              ^' 'condition ltc(north) < 7' --dialect=classic --explain

# ------------------------------------------------- line numbers after one token of look-ahead
same_script "redefinition at end of file" $'condition 1\nx = 2\nx = 3'
same_script "redefinition, blank lines after" $'x = 2\nx = 3\n\n\n'
same_script "redefinition, expression over lines" $'a = 1\na = \n\n3\n\n'
same_script "redefinition in parentheses" $'a = 1\na = (3\n\n)\n\n'
same_script "redefinition before a statement" $'a = 1\na = 3\n\ncondition 1'
same_script "redefinition on one line" $'a=3 a\n\n=4\n\n'
same_script "redefinition of a shape variable" $'s = shape(north, 4333)\ns = shape(north, 4432)\n\n'
same_script "unknown variable in a condition" $'condition foo\n\n\n> 3'
same_script "unknown variable starting a statement" $'condition 1\n\nfoo\n\n+ 1\n'
same_script "unknown variable before a line comment" $'foo // x\n\n'
same_script "unknown variable before a block comment" $'foo /* x\n\n */ \n\n 3'
same_script "unknown variable before a hash comment" $'generate 3\n\nfoo\n\n# x\n\n'
same_script "unknown variable after printcompact" $'action printcompact\n\nfoo\n\n'
same_script "unknown variable after an action list" $'action printall,\n\nfoo\n\n'
same_script "unknown variable after pointcount" $'pointcount 1 2\n\nfoo\n\n'
same_script "unknown variable after predeal" $'predeal north SA\n\nfoo\n\n'
same_script "unknown variable in a definition" $'x = 1 + foo\n\n'
same_script "unknown variable defined later" $'x = y\n\ny = 1\n'
same_script "unknown variable in parentheses" $'condition (foo\n\n)'
same_script "unknown variable after not" $'condition !foo\n\n'
same_script "unknown variable in average" $'action average foo\n\n'
same_script "unknown variable in frequency" $'action frequency (foo\n\n, 1, 2)'
same_script "unknown variable in printes" $'action printes(foo\n\n)'
same_script "unknown variable in ?:" $'condition 1 ? foo\n\n: 2'
same_script "self-reference in a definition" $'a = a\n\n'
same_script "unknown variable before redefinition" $'a = 1\na = foo\n\n'
same_script "unknown variable wins over out of memory" $'action frequency (hcp(north), 5, 3)\ncondition foo'
same_script "out of memory only for the final action list" \
  $'action frequency (hcp(north), 5, 3)\naction printall' -s 1 -p 2
same_script "card predealt twice, blank lines" $'predeal north SA\n\npredeal south SA\n\n'
same_script "card predealt twice in one statement" $'predeal north SA south\n\nSA'
same_script "card predealt twice in one item" $'predeal north SA, HA\n\n, SA\n\n'
same_script "more than 13 cards, holding on line 3" $'predeal north SAKQJT98765432\n, \nHA\n\n'
same_script "more than 13 cards after an empty holding" $'predeal north SAKQJT98765432\n, \nH\n\n,\nHA\n\n'
same_script "bias already set, number on line 3" $'predeal spades(north)==3 spades(north)\n==\n4\n\n'
same_script "bias too long, number on line 3" $'predeal spades(north)==7 hearts(north)==\n\n7\n\n'
same_script "bias too many, number on line 2" $'predeal spades(north)==7 spades(south)==\n7\n\n'
same_script "shape error in the second term" $'condition shape(north, 4333\n\n,\n\n 5441\n\n)'
same_script "shape error after any" $'condition shape(north, any\n\n5441\n\n)'
same_script "ambiguous shape error in a later term" $'condition shape(north, 4333 - \n77xx\n\n)\n\n'
same_script "shape error before a syntax error" 'condition shape(north, 5441 hcp'
same_script "32nd shape clause closed on line 13" \
  "$(shapes 31)"$'\n\n|| shape\n\n(\n\nnorth\n\n,\n\n4333\n\n)\n\n'
same_script "32nd shape clause with a bad term" \
  "$(shapes 31)"$'\n\n|| shape\n\n(\n\nnorth\n\n,\n\n5441\n\n)\n\n'
same_script "32nd shape clause in a definition" "$(shapes 31)"$'\nx=shape(north, 4333)\n\n\n'
# The peers check what they have parsed before they meet a syntax error (libdealer:
# Program::from_source, which the session's script loading must use for these rows).
same_script "redefinition before a syntax error" $'a = 1\na = 3 )'
same_script "unknown variable before the end of input" 'condition hcp(north) > foo +'
same_script "unknown variable starting a cut-short statement" $'condition 1\n\nfoo\n\n?\n\n'
same_script "unknown variable before an unterminated comment" 'condition foo /* x'
same_script "card predealt twice before a syntax error" 'predeal north SA south SA, )'
same_script "bias error before a syntax error" 'predeal spades(north)==3 spades(north)==3 )'
same_script "cut-short definition is not checked" $'a = 1\na = 2 +\n\n'
same_script "cut-short bias item is not checked" 'predeal spades(north)==3 spades(north)=='
same_script "unterminated comment before a look-ahead" $'a = 1\na = 3 /* x'
same_script "too many pointcount values on line 3" $'pointcount 1 2 3 4 5 6 7 8 9 10 11 12 13\n\n14 > 3\n'

# ----------------------------------------------------------------------- §5: parser limits
same_script "20,000 nested parentheses" "condition $(repeat '(' 20000)1$(repeat ')' 20000)"
same_script "9,995 nested parentheses" "condition $(repeat '(' 9995)1$(repeat ')' 9995)"
same_script "9,994 nested parentheses" "condition $(repeat '(' 9994)1$(repeat ')' 9994)" -s 1 -p 1
same_script "5,000 nested parentheses" "condition $(repeat '(' 5000)1$(repeat ')' 5000)" -s 1 -p 1
same_script "200,000 nots" "condition $(repeat '!' 200000)1"

# ----------------------------------------------------------------------- §5: input files
# 2000 pseudo-random bytes (a fixed LCG, no NUL byte so that the text is not cut short).
garbage=""
x=12345
for ((i = 0; i < 2000; i++)); do
  x=$(((x * 1103515245 + 12345) % 2147483648))
  b=$(((x >> 16) % 255 + 1))
  garbage+=$(printf '\\%03o' "$b")
done
printf '%b' "$garbage" >garbage.dl
same "binary garbage" garbage.dl
same "the ELF binary as a script" "$oracle"
mkdir directory
same "directory as input file" directory
same "missing input file" missing/input.dl
same_script "NUL bytes only" "" -s 1 -p 2

# ----------------------------------------------------------------------- §4: options
script ok.dl $'produce 3\ncondition hcp(north) > 10\n'
script pbn.dl $'action printpbn, printoneline\n'
same "-h" -h
same "unknown option" -x ok.dl
same "two unknown options in one word" -xy ok.dl
# A word starting with "--" is one of libdealer's long options or an error of its own (classic
# dealer's getopt reads it as switches: `invalid option -- '-'`, …); tests/cli_options.sh has more.
ours "unknown long option" 2 "dealer: unknown option '--bogus' (--help lists the options)" --bogus ok.dl
same "unknown option, then -e" -x -e ok.dl
same "-h, then seed overflow" -h -s 99999999999999999999 ok.dl
same "unknown option, missing argument" -x ok.dl -p
same "missing option argument" ok.dl -p
same "three positional arguments" ok.dl ok.dl ok.dl
same "two positional arguments" -s 1 ok.dl ok.dl
same "seed overflow" -s 99999999999999999999 ok.dl
same "negative seed overflow" -s -99999999999999999999 ok.dl
same "seed LONG_MAX" -s 9223372036854775807 ok.dl
same "-e" -e ok.dl
same "-v" -s 1 -v ok.dl
same "-v -v" -s 1 -v -v ok.dl
same "-p 0" -s 1 -p 0 ok.dl
same "negative -p" -s 1 -p -3 ok.dl
same "-s abc" -s abc -p 2 ok.dl
# The library's options take whole numbers only; the CLI reads its switches with atol as the peers.
same "-s 0 (srandom(0), printed as 0)" -s 0 -p 2 ok.dl
same "-s 12abc" -s 12abc -p 2 ok.dl
same "-s with leading blanks" -s "  12" -p 2 ok.dl
same "-p 2x and -g 50y" -s 1 -p 2x -g 50y ok.dl
same "-t abc" -t abc -s 1 -p 2 ok.dl
same "options after the file name" ok.dl -s 2 -p 1
same "combined flags" -vs2 -p1 ok.dl
same "-m progress meter on stderr" -m -s 1 ok.dl
same "-q -m with printpbn" -q -m -s 3 -p 4 pbn.dl
same "-t with deals produced runs on" -t 1 -s 1 ok.dl
POSIXLY_CORRECT=1 same "POSIXLY_CORRECT turns permutation off" ok.dl -s 2 -p 1
# same_version NAME ARGS...: like `same` where -V prints its version text, which names libdealer;
# its shape (first line, number of lines), standard error and status are classic dealer's.
same_version() {
  local name=$1
  shift
  invoke want "$oracle" "$@"
  invoke got "$cli" --rng=glibc "$@"
  if cmp -s results/want.rc results/got.rc && cmp -s results/want.err results/got.err &&
    [ "$(head -n 1 results/got.out)" = "$(head -n 1 results/want.out)" ] &&
    [ "$(wc -l <results/got.out)" = "$(wc -l <results/want.out)" ]; then
    ok "$name"
  else
    ko "$name" "exit $(cat results/got.rc), classic $(cat results/want.rc), stderr '$(head -c 100 results/got.err | tr '\n' '|')'"
  fi
}
same_version "-V" -V
same_version "unknown option, then -V" -x -V
same_version "-h, then -V" -h -V ok.dl

# ----------------------------------------------- where classic dealer crashes: libdealer's behaviour
ours_script "division by zero (classic: SIGFPE)" 4 "line 1: division by zero" 'condition hcp(north)/0 > 1' -s 1
ours_script "remainder by zero (classic: SIGFPE)" 4 "line 1: division by zero" 'condition hcp(north) % 0 > 1' -s 1
ours_script "INT_MIN / -1 (classic: SIGFPE)" 4 "line 1: integer overflow in division" \
  'condition (0-2147483647-1)/(0-1) < 0' -s 1 -p 1
ours_script "evalcontract (classic: assertion, 134)" 3 \
  "line 1: evalcontract without arguments is not available: use evalcontract(side, contract, vul) (classic dealer aborts on a bare evalcontract)" \
  'action evalcontract'
ours_script "tricks() answered by DDS (classic: external GIB)" 0 "" \
  'condition tricks(north, spades) > 5' -s 1 -p 1
ours_script "altcount 8 with winners (classic: assertion, 134)" 0 "" \
  $'altcount 8 5\ncondition hcp(north) > 10' -s 1 -p 1
ours_script "altcount 12 (classic: SIGSEGV)" 255 "line 1: altcount table 12 out of range (0..10)" 'altcount 12 100'
ours_script "altcount 99999 (classic: SIGSEGV)" 255 "line 1: altcount table 99999 out of range (0..10)" \
  'altcount 99999 100'
ours_script "1,000,000-term sum (classic: SIGSEGV)" 255 "line 1: memory exhausted" \
  "condition 1$(repeat '+1' 1000000)"
ours "-l without library.dat (classic: exit 255)" 3 \
  "-l (library mode) is not available yet in this version of libdealer" -l 0 ok.dl

# ------------------------------------------ DealerV2 dialect (no DealerV2 binary: its documented behaviour)
# v2 NAME STATUS STDOUT-START STDERR-LINE ARGS...: `dealer --rng=drand48 ARGS` must exit with STATUS,
# its standard output must start with STDOUT-START and its standard error must contain the line
# STDERR-LINE (either may be empty to skip the check).
v2() {
  local name=$1 status=$2 out_start=$3 err_line=$4
  shift 4
  invoke got "$cli" --rng=drand48 "$@"
  local rc why=""
  rc=$(cat results/got.rc)
  if [ "$rc" -ne "$status" ]; then
    why="exit $rc, expected $status"
  elif [ -n "$out_start" ] && [ "$(head -c ${#out_start} results/got.out; echo .)" != "$out_start." ]; then
    why="stdout starts '$(head -c 60 results/got.out | tr '\n' '|')'"
  elif [ -n "$err_line" ] && ! grep -qxF -- "$err_line" results/got.err; then
    why="stderr '$(head -c 100 results/got.err | tr '\n' '|')'"
  fi
  if [ -z "$why" ]; then ok "v2: $name"; else ko "v2: $name" "$why"; fi
}
script v2ok.dli $'produce 1\naction printes(3*4/5, " ", 2*3%4, \\n)\n'
v2 "precedence: a*b/c is a*(b/c), a*b%c is a*(b%c)" 0 $'0 6\n' "" -s 1 -v v2ok.dli
v2 "invalid option exits 0" 0 "" "			[Q] is an invalid option" -Q v2ok.dli
v2 "-V exits 0" 0 "Version info...." "" -V
v2 "-h exits 0" 0 "--- HELP" "" -h
v2 "seed overflow" 255 "" \
  "Seed overflow: seed must be greater than -9223372036854775808 and less than 9223372036854775807" \
  -s 9223372036854775807 v2ok.dli
# ChaCha's random seed, printed unsigned (often above 2^63), deals the same run when given back.
script chacha_seed.dli $'produce 2\naction printoneline\n'
for round in 1 2 3 4; do
  "$cli" -s 0 chacha_seed.dli > results/seed0.out 2>&1
  seed=$(sed -n 's/^Initial random seed //p' results/seed0.out)
  [ "${seed:-0}" \> 9223372036854775807 ] && break
done
"$cli" -s "$seed" chacha_seed.dli > results/seed1.out 2>&1
if diff <(grep -v '^Time needed' results/seed0.out) <(grep -v '^Time needed' results/seed1.out) >/dev/null; then
  ok "v2: a random ChaCha seed printed by the statistics ($seed) deals the same run with -s"
else
  ko "v2: a random ChaCha seed printed by the statistics ($seed) deals the same run with -s" "$(head -c 200 results/seed1.out)"
fi
v2 "missing -U server is fatal" 255 "" "FATAL Error In GetOpts. Ending Program" -U missing/DealerServer v2ok.dli
v2 "-C into a missing folder is fatal" 255 "" "FATAL Error In GetOpts. Ending Program" -C missing/x.csv v2ok.dli
v2 "-L with a missing file" 255 "" "cannot open library file x.zrd: No such file or directory (os error 2)" \
  -L x.zrd v2ok.dli
v2 "-P out of range" 0 "" "Invalid Vulnerability -- Setting to Nobody Vul" -P 7 -s 1 v2ok.dli
# -R takes what the library takes (DealerV2 refuses above 10 with a message naming 0..12, then
# sets 8): a deliberate deviation, see the README.
v2 "-R 11 is taken" 0 "" "" -R 11 -s 1 v2ok.dli
v2 "-R above 64" 255 "" "option threads: expected a number of threads from 0 (one per core) to 64, got '65'" -R 65 -s 1 v2ok.dli
script v2bad.dli $'condition hcp(north) >\n\naction printall\n'
v2 "syntax error" 255 "" "line 3: syntax error" v2bad.dli
# The script errors DealerV2 shares with classic dealer (its reference, §1–2): same text, 255.
v2_script() { # v2_script NAME STDERR-LINE TEXT
  script v2err.dli "$3"
  v2 "$1" 255 "" "$2" -s 1 v2err.dli
}
v2_script "card predealt twice" "line 2: Card predealt twice" $'predeal north SA\npredeal south SA'
v2_script "more than 13 cards" "line 1: More than 13 cards for one player" 'predeal north SAKQJT98765432, HA'
v2_script "bias length already set" "line 1: North's Spade suit has length already set to 3" \
  'predeal spades(north)==3 spades(north)==4'
v2_script "bias suit lengths too long" "line 1: Suit lengths too long for North" 'predeal spades(north)==7 hearts(north)==7'
v2_script "bias too many spades" "line 1: Too many Spades" 'predeal spades(north)==7 spades(south)==7'
v2_script "unterminated comment" "line 3: EOF found in comment" $'condition 1\n/* x\n'
v2_script "unknown variable" "line 1: unknown variable" 'condition foo > 3'
v2_script "redefined variable" "line 3: redefined variable" $'a = 1\na = 2\n'
v2_script "wrong number of cards in shape" "line 1: wrong number of cards in shape" 'condition shape(north, 5441)'
v2_script "too many pointcount values" "line 1: too many pointcount values" \
  'pointcount 1 2 3 4 5 6 7 8 9 10 11 12 13 14'
v2_script "dotnum with three digits before the point" "line 1: syntax error" 'action printes(100.5, \n)'
script v2div.dli 'condition hcp(north)/0 > 1'
v2 "division by zero (DealerV2: SIGFPE)" 4 "" "line 1: division by zero" -s 1 v2div.dli
script v2dds.dli $'produce 1\naction printes(par(NS, none) + par(EW, none), \\n)\n'
v2 "par" 0 $'0\n' "In ParScore:: Using Parscore requires TableMode. Setting Mode and continuing.." -s 1 -v v2dds.dli
script v2opc.dli $'condition opc(NS) > 8\n'
v2 "opc without its DOP program" 4 "" \
  "line 1: opc: missing/dop: cannot start: No such file or directory (os error 2)" \
  --opc-program=missing/dop v2opc.dli
script v2seed.dli $'seed -5\nproduce 1\naction printoneline\n'
v2 "seed -5 echoes the sign and seeds with 5" 0 "-n " "" -v v2seed.dli
v2 "a script read without end (/dev/zero) is refused past 16 MiB, not read into memory" 255 "" \
  "/dev/zero: the script is longer than 16777216 bytes (option max_script_bytes)" /dev/zero

finish
