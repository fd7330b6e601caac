#!/usr/bin/env bash
# Checks examples-c/eval.c (built by `make examples` as target/release/eval): the deals it
# prints are the CLI's deals for the same script and seed, every South hand is an opening hand
# (the script's condition, read back through compiled expressions), and the program's figures
# agree with the CLI's printoneline of the same expressions. Prints "N passed, M failed".
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
eval_bin="$top/target/release/eval"
cli="$top/target/release/dealer"
passed=0
failed=0
check() { if [ "$2" = "$3" ]; then echo "ok: $1"; passed=$((passed + 1)); else
  echo "FAIL: $1"; diff <(printf '%s\n' "$2") <(printf '%s\n' "$3") | head -n 10; failed=$((failed + 1)); fi; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for seed in 7 1 99; do
  out=$("$eval_bin" "$seed" 6) || { echo "FAIL: eval $seed exited with $?"; failed=$((failed + 1)); continue; }
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
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
