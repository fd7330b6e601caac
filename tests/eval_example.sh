#!/usr/bin/env bash
# Checks examples-c/eval.c (built by `make examples` as target/release/eval): the deals it
# prints are the CLI's deals for the same script and seed, every South hand is an opening hand
# (the script's condition, read back through compiled expressions), and the program's figures
# agree with the CLI's printoneline of the same expressions. Prints "N passed, M failed".
set -u
. "$(dirname "$0")/lib.sh"
require_cli
eval_bin="$top/target/release/eval"
check() { if [ "$2" = "$3" ]; then ok "$1"; else
  ko "$1"; diff <(printf '%s\n' "$2") <(printf '%s\n' "$3") | head -n 10; fi; }
enter_work_dir
tmp=$work

for seed in 7 1 99; do
  out=$("$eval_bin" "$seed" 6) || { ko "eval $seed exited with $?"; continue; }
  printf 'opening = hcp(south) >= 12 && spades(south) >= 5\ncondition opening\naction printoneline\n' > "$tmp/deals.dlr"
  check "eval $seed: the CLI's deals" "$(printf '%s\n' "$out" | grep '^n ')" "$("$cli" -s "$seed" -p 6 "$tmp/deals.dlr" | grep '^n ')"
  # The CLI prints the deal then the value of printoneline's expression: compare the figures.
  for figure in 'hcp S:hcp(south)' 'fit:spades(north) + spades(south)' 'losers S:losers(south)'; do
    label=${figure%%:*}
    expr=${figure#*:}
    printf 'opening = hcp(south) >= 12 && spades(south) >= 5\ncondition opening\naction printoneline(%s)\n' \
      "$expr" > "$tmp/figure.dlr"
    check "eval $seed: $label" "$(printf '%s\n' "$out" | sed -n "s/^  $label  *//p")" \
      "$("$cli" -s "$seed" -p 6 "$tmp/figure.dlr" | sed -n 's/^n .* w [^ ]* //p')"
  done
  check "eval $seed: summary" "$(printf '%s\n' "$out" | tail -n 1 | cut -d, -f1)" "6 deals"
done
finish
