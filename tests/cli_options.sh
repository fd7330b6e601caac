#!/usr/bin/env bash
# libdealer's own long options of the CLI (target/release/dealer), in both dialects:
#   - errors: the peers' one line by default (`line N: message`), the library's full text (line,
#     column, the script line and a caret) with --explain or when standard error is a terminal,
#     the one line again with --no-explain; exit statuses the same in every form;
#   - --help (libdealer's own usage text) and --version (standard output, status 0) beside the
#     peers' -h and -V (unchanged);
#   - a misspelled long option (named, the nearest suggested), one without its value or a flag
#     given one: stderr only, status 2, in both dialects;
#   - -R takes what the library takes (0..64), and its errors state that range;
#   - --check=bbo on a clean script says so in one line (stderr; stdout with -v);
#   - long options do not change how the peers' short switches parse (`-T --help` is a title,
#     `--` ends the options, POSIXLY_CORRECT stops at the first operand);
#   - printpbn's [Generator] tag: libdealer and its version with ChaCha, DealerV2's text otherwise.
# No peer is needed. The terminal rows run the CLI under `script` (util-linux) so that standard
# error is a pseudo-terminal; without it they are NOT RUN (a failure when CI=true).
#
# Prints PASS/FAIL per row and 'N passed, M failed'; exit status 1 if a row failed.
# Environment: DEALER_CLI (default target/release/dealer).
set -u
. "$(dirname "$0")/lib.sh"
row_labels PASS FAIL
require_cli
version=$(sed -n 's/^version *= *"\([^"]*\)".*/\1/p' "$top/Cargo.toml" | head -n 1)
enter_work_dir
status=0

# run ARGS...: the CLI with argv[0] "dealer" and no standard input; leaves out, err and rc.
run() {
  bash -c 'exec -a dealer "$@"' dealer "$cli" "$@" >out 2>err </dev/null
  echo $? >rc
}

# check NAME STATUS STDOUT STDERR: the last run's exit status, standard output and standard
# error; STDOUT/STDERR are exact texts (a newline added), or '*' for "anything", '-' for empty,
# '^TEXT' for "starts with TEXT", '~TEXT' for "has a line TEXT".
matches() { # matches FILE PATTERN
  case $2 in
  '*') return 0 ;;
  '-') [ ! -s "$1" ] ;;
  '^'*) [ "$(head -c $((${#2} - 1)) "$1"; echo .)" = "${2#^}." ] ;;
  '~'*) grep -qxF -- "${2#\~}" "$1" ;;
  *) [ "$(cat "$1"; echo .)" = "$2"$'\n'. ] ;;
  esac
}
check() {
  local why=""
  if [ "$(cat rc)" != "$2" ]; then
    why="exit $(cat rc), expected $2"
  elif ! matches out "$3"; then
    why="stdout '$(head -c 120 out | tr '\n' '|')'"
  elif ! matches err "$4"; then
    why="stderr '$(head -c 160 err | tr '\n' '|')'"
  fi
  if [ -z "$why" ]; then ok "$1"; else ko "$1" "$why"; fi
}

# has NAME WORD...: the last run's standard output holds every WORD.
has() {
  local name=$1 word missing=""
  shift
  for word in "$@"; do grep -qF -- "$word" out || missing+=" $word"; done
  if [ -z "$missing" ]; then ok "$name"; else ko "$name" "missing:$missing"; fi
}

# lacks NAME WORD...: the last run's standard output holds none of the WORDs.
lacks() {
  local name=$1 word found=""
  shift
  for word in "$@"; do grep -qF -- "$word" out && found+=" $word"; done
  if [ -z "$found" ]; then ok "$name"; else ko "$name" "found:$found"; fi
}

printf 'condition hcp(north) > \naction printall\n' >syntax.dl
printf 'produce 1\ncondition hcp(north)/0 > 1\n' >div.dl
printf 'produce 1\naction printpbn\n' >pbn.dl
short='line 2: syntax error'
full=$'line 2, column 1: syntax error near \'action\'\n    action printall\n    ^'

# ------------------------------------------------------------------------- error messages
for rng in glibc drand48 chacha; do
  run --rng=$rng -s 1 syntax.dl
  check "$rng: one-line error by default" 255 - "$short"
  run --rng=$rng --explain -s 1 syntax.dl
  check "$rng: --explain prints line, column, text and caret" 255 - "$full"
  run --rng=$rng -s 1 syntax.dl --explain
  check "$rng: --explain after the file name" 255 - "$full"
  run --rng=$rng --explain --no-explain -s 1 syntax.dl
  check "$rng: the last of --explain/--no-explain wins" 255 - "$short"
  run --rng=$rng -s 1 div.dl
  check "$rng: run error, one line" 4 - 'line 2: division by zero'
  run --rng=$rng --explain -s 1 div.dl
  check "$rng: run error with --explain, same status" 4 - '^line 2, column '
done

# ----------------------------------------------- stderr on a terminal: full errors unless --no-explain
# on_tty NAME STATUS STDERR ARGS...: the CLI with standard error on a pseudo-terminal (standard
# output to a file); STDERR as in check, read from the terminal with its CRs removed.
on_tty() {
  local name=$1 want_rc=$2 want_err=$3
  shift 3
  SHELL=/bin/bash script -qec "$(printf '%q ' "$cli" "$@") >out" /dev/null </dev/null >tty
  echo $? >rc
  tr -d '\r' <tty >err
  check "$name" "$want_rc" - "$want_err"
}
if command -v script >/dev/null && script -qec true /dev/null </dev/null >/dev/null 2>&1; then
  on_tty "terminal: full error by default" 255 "$full" -s 1 syntax.dl
  on_tty "terminal, classic dialect: full error by default" 255 "$full" --rng=glibc -s 1 syntax.dl
  on_tty "terminal: --no-explain prints the peers' line" 255 "$short" --no-explain -s 1 syntax.dl
  on_tty "terminal: --no-explain, classic dialect" 255 "$short" --rng=glibc -s 1 syntax.dl --no-explain
  on_tty "terminal: run error, same status" 4 '^line 2, column ' -s 1 div.dl
  on_tty "terminal: run error with --no-explain" 4 'line 2: division by zero' --no-explain -s 1 div.dl
else
  echo "NOT RUN: terminal rows (script from util-linux is not installed)"
  if [ "${CI:-}" = true ]; then status=1; fi
fi

# ----------------------------------------------------------------------- --help and --version
# --help is libdealer's own usage text (no DealerV2 banner), in both dialects; -h keeps the peers'.
usage='Usage: dealer [switches] [long options] [script]'
run --help
check "v2: --help is a plain usage text" 0 "^$usage"$'\n' -
has "v2: --help lists the long options" --rng= --dialect= --explain --no-explain --help --version
has "v2: --help groups the options, an example, the manual" "DealerV2's switches" "Dealing:" \
  "Generator and dialect:" "Board records:" "Example:" "-s 1 -p 5 example.dlr" "man dealer" "-R N  threads, 0..64"
lacks "v2: --help without DealerV2's banner" '--- HELP'
run --rng=glibc --help
check "classic: --help on stdout" 0 "^$usage"$'\n' -
has "classic: --help lists the long options" --rng= --dialect= --explain --no-explain --help --version
has "classic: --help lists classic dealer's switches" "Classic dealer's switches" "-t N  time limit"
run --dialect=classic --help
check "classic dialect with ChaCha: --help" 0 "^$usage" -
run --version
check "v2: --version" 0 "^dealer (libdealer) $version"$'\n' -
run --rng=glibc --version
check "classic: --version" 0 "^dealer (libdealer) $version"$'\n' -
run --rng=drand48 -s 1 --help syntax.dl
check "--help wins over the script" 0 "^$usage" -
run --rng=glibc --version -x
check "--version wins over an invalid switch" 0 "^dealer (libdealer) $version" -
# The peers' switches are unchanged.
run --rng=glibc -h
check "classic: -h prints the usage line on stderr, 255" 255 - \
  'Usage: dealer [-023ehuvmqV] [-p n] [-g n] [-s seed] [-l n] [inputfile]'
run --rng=glibc -V
check "classic: -V exits 1" 1 '^Version info....' -
run -h
check "v2: -h" 0 '^--- HELP' -
run -V
check "v2: -V" 0 '^Version info....' -

# ------------------------------------------------- long options and the peers' short switches
run -s 1 -T --help pbn.dl
check "v2: -T --help is a title" 0 '~[Description "--help"]' -
run -s1 -T--version pbn.dl
check "v2: -T--version is a title" 0 '~[Description "--version"]' -
run -s 1 -0 --explain syntax.dl
check "v2: -0 takes --explain as \$0" 255 - "$short"
run --rng=glibc -0 --version
check "classic: -0 is a switch, --version an option" 0 "^dealer (libdealer) $version" -
run --rng=glibc -s 1 -0 --explain syntax.dl
check "classic: -0 then --explain" 255 - "$full"
run -s 1 -- --help
check "-- ends the options: --help is the file" 255 - '--help: No such file or directory'
POSIXLY_CORRECT=1 run --rng=glibc -s 1 -p 1 pbn.dl --help
check "POSIXLY_CORRECT: --help after the file is an operand" 0 '^[Event ' -

# ------------------------------------------- misspelled and misused long options: status 2
# (the peers' getopt would read "--frmat" as the switches -, f, r, …: DealerV2 exits 0 after its
# help on stdout, classic dealer 255 after one message per letter)
for dialect in v2 classic; do
  run --dialect=$dialect --frmat=lin pbn.dl
  check "$dialect: --frmat=lin is named, --format suggested" 2 - "dealer: unknown option '--frmat=lin' (did you mean --format?)"
  run --dialect=$dialect -s 1 pbn.dl --rotte
  check "$dialect: --rotte after the file" 2 - "dealer: unknown option '--rotte' (did you mean --rotate?)"
  run --dialect=$dialect --bogus pbn.dl
  check "$dialect: --bogus, nothing close" 2 - "dealer: unknown option '--bogus' (--help lists the options)"
  run --dialect=$dialect --format pbn.dl
  check "$dialect: --format without its value" 2 - "dealer: option '--format' needs a value: --format=script|lin|jsonl|pbn"
  run --dialect=$dialect --rotate=yes pbn.dl
  check "$dialect: --rotate=yes, a flag given a value" 2 - "dealer: option '--rotate' takes no value: '--rotate=yes'"
  run --dialect=$dialect --help --chek=bbo
  check "$dialect: a misspelled option wins over --help" 2 - "dealer: unknown option '--chek=bbo' (did you mean --check?)"
done
run --rng=glibc --vers
check "classic: --vers suggests --version" 2 - "dealer: unknown option '--vers' (did you mean --version?)"
run -T --frmat -s 1 pbn.dl
check "v2: -T --frmat is a title, not an option" 0 '~[Description "--frmat"]' -

# ------------------------------------------------- -R: what the library takes, 0..64
for threads in 0 1 11 12 64; do
  run -R $threads -s 1 -p 1 pbn.dl
  check "v2: -R $threads is taken" 0 '^[Event ' -
done
for threads in 65 99 -1 abc; do
  run -R $threads -s 1 -p 1 pbn.dl
  check "v2: -R $threads names the range" 255 - "option threads: expected a number of threads from 0 (one per core) to 64, got '$threads'"
done
run -h
has "v2: -h states -R's range" "-R n          threads for dealing and double dummy, 0..64"

# ------------------------------------------------------- --check=bbo on a clean script
printf 'produce 1\ncondition hcp(north) > 10\n' >clean.dlr
run --check=bbo clean.dlr
check "--check=bbo, clean script: one line on stderr" 0 - "no problems for BBO's dealer"
run --check=bbo -v clean.dlr
check "--check=bbo -v, clean script: the line on stdout" 0 "no problems for BBO's dealer" -
printf 'produce 1\ncondition dds(north, spades) > 9\n' >v2only.dlr
run --check=bbo v2only.dlr
check "--check=bbo with an error: only the diagnostics" 1 '2:11: error: `dds` is DealerV2 only' -
run --dialect=other pbn.dl
check "unknown --dialect" 2 - "unknown dialect 'other' (classic or v2)"
run --dds-table-mb=8 -s 1 pbn.dl
check "--dds-table-mb below 16 MB" 255 - "option dds_table_mb: expected megabytes of solver table per thread from 16 to 4096, got '8'"
run --dds-table-mb=32 -s 1 -p 1 pbn.dl
check "--dds-table-mb=32 is taken" 0 '^[Event ' -

# ------------------------------------------------------- switch values the library refuses
# -N text that is not cards stops the run (DealerV2 aborts) instead of dealing without it; -O
# and -D keep DealerV2's lenient reading (the CLI converts before the library's strict check).
for rng in chacha drand48; do # (classic dealer has no -N)
  run --rng=$rng -s 1 -N '!!garbage' pbn.dl
  check "$rng: -N with text that is not cards" 255 - \
    "option predeal_north: '!' is not a suit (S, H, D, C) or a rank (AKQJT98765432), in '!!garbage'"
done
run --dialect=v2 -s 1 -W 'QQQ!!' pbn.dl
check "v2: -W with a rank before a suit" 255 - \
  "option predeal_west: the rank 'Q' comes before any suit letter (S, H, D, C), in 'QQQ!!'"
run --dialect=v2 -s 1 -O Q -D abc pbn.dl
check "v2: -O Q and -D abc are read as DealerV2 reads them" 0 '~[Generator "libdealer '"$version"'"]' -

# ----------------------------------------------------------------------- printpbn [Generator]
run -s 1 pbn.dl
check "chacha: [Generator] names libdealer" 0 "~[Generator \"libdealer $version\"]" -
run --rng=drand48 -s 1 pbn.dl
check "drand48: DealerV2's [Generator]" 0 '~[Generator "Dealer Version 2.4 by Hans, Henk, and JGM"]' -
run --rng=glibc --dialect=v2 -s 1 pbn.dl
check "glibc, v2 dialect: DealerV2's [Generator]" 0 '~[Generator "Dealer Version 2.4 by Hans, Henk, and JGM"]' -
run --pbn-date=2026.01.02 -s 1 pbn.dl
check "--pbn-date sets printpbn's [Date]" 0 '~[Date "2026.01.02"]' -
run --pbn-date=2026.1.2 -s 1 pbn.dl
check "--pbn-date refuses a date not YYYY.MM.DD" 255 - "~option pbn_date: expected a PBN date YYYY.MM.DD (digits, ? where unknown), got '2026.1.2'"

# --intervals and --precision: the statistics' 95 % intervals, and dealing until they are narrow.
printf 'generate 100000\naction average hcp(north), frequency (hcp(north) >= 12 ? 1 : 0, 0, 1)\n' >stats.dl
run --intervals -s 1 stats.dl
has "--intervals: an average's 95 % interval, the shares of a frequency table with Wilson's intervals" \
  'Sample Size=100000 ' '95 % interval 9.' '95 % intervals of the shares (Wilson), in % of 100000 deals:'
run --precision=0.1 -s 1 stats.dl
has "--precision=0.1: the run stops when the widest interval is 0.1 or less" \
  'Precision: widest 95 % interval 0.1000 after 26375 deals (reached 0.1 or less)' 'Sample Size=26375 '
run --precision=0 -s 1 stats.dl
check "--precision refuses a width that is not positive" 255 - "~option precision: expected the widest 95 % interval wanted, a positive number, got '0'"

finish "$status"
