#!/usr/bin/env bash
# FFI examples test: builds examples-c/embed.c (against libdealer.a) and the examples of the
# bindings, which load libdealer.so at run time: bindings/csharp/examples/Boards.cs compiled
# with the binding bindings/csharp/Dealer.cs (mcs, run with mono) and the Delphi-mode Pascal
# bindings/pascal/examples/boards.pas with the unit bindings/pascal/Dealer.pas (fpc), then checks:
#   - boards: for several SEED COUNT [SCRIPT_FILE] arguments both programs print exactly the
#     bytes embed prints (and embed prints at least one board, so empty output cannot pass);
#   - errors: a missing script file gives exit status 1 and embed's message after the program's
#     own name;
#   - capture: `--capture SEED` prints the same text from both programs (the run's timing line
#     masked), its deal lines are exactly what the CLI prints for
#     `dealer --rng=glibc -s SEED -v -p 3 FILE` with FILE = "action printoneline", and the
#     report line gives generated=3 produced=3 seed=SEED.
# Prints "ok: NAME" / "FAIL: NAME" per check and "N passed, M failed"; exit status 1 on any
# failure. Without mcs, mono or fpc the test is NOT RUN: a failure under CI=true, otherwise
# exit status 0.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
lib="$top/target/lib"
cli="$top/target/release/dealer"
examples="$top/examples-c"
csharp="$top/bindings/csharp"
pascal="$top/bindings/pascal"
cc=${CC:-cc}

missing=()
for tool in "$cc" mcs mono fpc; do
  command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "NOT RUN: FFI examples test (needs ${missing[*]}: apt-get install mono-mcs mono-runtime fp-compiler)"
  if [ "${CI:-}" = true ]; then exit 1; fi
  exit 0
fi

passed=0
failed=0
ok() { echo "ok: $1"; passed=$((passed + 1)); }
fail() { echo "FAIL: $1"; failed=$((failed + 1)); }
finish() { echo "$passed passed, $failed failed"; [ "$failed" -eq 0 ] && exit 0; exit 1; }
step() { # step NAME COMMAND...: run a build step quietly; show its output when it fails
  local name=$1 log
  shift
  if log=$("$@" 2>&1); then ok "$name"; return 0; fi
  fail "$name"
  printf '%s\n' "$log" | tail -n 30 | sed 's/^/  /'
  return 1
}
show_diff() { # show_diff EXPECTED_FILE GOT_FILE: the first lines of a difference, indented
  diff "$1" "$2" | head -n 10 | sed 's/^/  /'
}

for file in "$lib/libdealer.a" "$lib/libdealer.so" "$cli"; do
  if [ ! -e "$file" ]; then
    fail "missing $file (build the library and the CLI first: make)"
    finish
  fi
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

# Builds. A program that does not build is left out of the checks below (its build is the
# failure reported).
step "build embed.c (static)" \
  "$cc" -O2 -Wall -Wextra -Werror -std=c99 -I"$top/include" "$examples/embed.c" \
  "$lib/libdealer.a" -lstdc++ -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc -o "$tmp/embed" ||
  finish
programs=() # how to run each FFI program that built
names=()    # its name in the check lines
prefixes=() # the program name it starts its error messages with
if step "build Boards.cs + Dealer.cs (mcs)" \
  mcs -nologo -warn:4 -warnaserror+ -out:"$tmp/Boards.exe" "$csharp/examples/Boards.cs" \
  "$csharp/Dealer.cs"; then
  programs+=("mono $tmp/Boards.exe")
  names+=("C#")
  prefixes+=(Boards)
fi
mkdir -p "$tmp/fpc"
if step "build boards.pas with the Dealer unit (fpc)" \
  fpc -Mdelphi -O2 -Sew -vw -Fu"$pascal" -Fl"$lib" -FE"$tmp/fpc" -FU"$tmp/fpc" \
  "$pascal/examples/boards.pas"; then
  programs+=("$tmp/fpc/boards")
  names+=("Pascal")
  prefixes+=(boards)
fi

# Boards: the FFI programs against embed, byte for byte.
# "3 17" walks through all 16 vulnerabilities and back to board 1's dealer.
for args in "" "1 6" "7 3" "123456789 5" "3 17" "5 3 $examples/example.dlr"; do
  label="args: ${args:-none}"
  label=${label/$examples\//}
  # shellcheck disable=SC2086 # the argument sets are split on purpose
  "$tmp/embed" $args >"$tmp/expected" 2>"$tmp/expected.err"
  status=$?
  if [ $status -ne 0 ] || ! grep -q '^\[Deal "N:' "$tmp/expected"; then
    fail "embed prints boards ($label): exit status $status"
    sed 's/^/  /' "$tmp/expected.err" | head -n 5
    continue
  fi
  for i in "${!programs[@]}"; do
    # shellcheck disable=SC2086
    ${programs[$i]} $args >"$tmp/got" 2>"$tmp/got.err"
    status=$?
    if [ $status -eq 0 ] && cmp -s "$tmp/expected" "$tmp/got"; then
      ok "${names[$i]} boards = embed ($label)"
    else
      fail "${names[$i]} boards = embed ($label): exit status $status"
      show_diff "$tmp/expected" "$tmp/got"
      sed 's/^/  stderr: /' "$tmp/got.err" | head -n 5
    fi
  done
done

# Errors: a missing script file, reported with libdealer's message as embed reports it.
"$tmp/embed" 1 2 "$tmp/no-such-script.dlr" >/dev/null 2>"$tmp/expected.err"
sed 's/^embed: //' "$tmp/expected.err" >"$tmp/expected"
for i in "${!programs[@]}"; do
  ${programs[$i]} 1 2 "$tmp/no-such-script.dlr" >"$tmp/got.out" 2>"$tmp/got.err"
  status=$?
  sed "s/^${prefixes[$i]}: //" "$tmp/got.err" >"$tmp/got"
  if [ $status -eq 1 ] && [ -s "$tmp/expected" ] && [ ! -s "$tmp/got.out" ] &&
    head -n 1 "$tmp/got.err" | grep -q "^${prefixes[$i]}: script: " &&
    cmp -s "$tmp/expected" "$tmp/got"; then
    ok "${names[$i]} missing script: exit status 1 and embed's message"
  else
    fail "${names[$i]} missing script: exit status $status"
    show_diff "$tmp/expected.err" "$tmp/got.err"
  fi
done

# Capture: the whole run through a managed/Pascal output callback, against the CLI.
printf 'action printoneline\n' >"$tmp/oneline.dlr"
mask_time() { sed 's/^Time needed .*/Time needed (masked)/' "$1"; }
for seed in 1 5; do
  "$cli" --rng=glibc -s "$seed" -v -p 3 "$tmp/oneline.dlr" >"$tmp/cli" 2>"$tmp/cli.err"
  status=$?
  if [ $status -ne 0 ] || [ "$(grep -c '^n ' "$tmp/cli")" -ne 3 ] ||
    [ "$(wc -l <"$tmp/cli")" -ne 3 ]; then
    fail "CLI prints 3 deal lines (seed $seed): exit status $status"
    sed 's/^/  /' "$tmp/cli" "$tmp/cli.err" | head -n 8
    continue
  fi
  first=""
  for i in "${!programs[@]}"; do
    ${programs[$i]} --capture "$seed" >"$tmp/capture$i" 2>"$tmp/capture$i.err"
    status=$?
    # The deal lines come before the end-of-run statistics ("Generated N hands" ...).
    sed '/^Generated /,$d' "$tmp/capture$i" >"$tmp/deals"
    report=$(tail -n 1 "$tmp/capture$i")
    if [ $status -eq 0 ] && cmp -s "$tmp/cli" "$tmp/deals" &&
      [ "$report" = "report: generated=3 produced=3 seed=$seed" ]; then
      ok "${names[$i]} --capture $seed: deals = CLI, report line"
    else
      fail "${names[$i]} --capture $seed: exit status $status, last line '$report'"
      show_diff "$tmp/cli" "$tmp/deals"
      sed 's/^/  stderr: /' "$tmp/capture$i.err" | head -n 5
    fi
    if [ -z "$first" ]; then
      first=$i
    elif cmp -s <(mask_time "$tmp/capture$first") <(mask_time "$tmp/capture$i"); then
      ok "${names[$i]} --capture $seed = ${names[$first]} --capture $seed"
    else
      fail "${names[$i]} --capture $seed = ${names[$first]} --capture $seed"
      show_diff <(mask_time "$tmp/capture$first") <(mask_time "$tmp/capture$i")
    fi
  done
done

finish
