#!/usr/bin/env bash
# examples-c/usereval_metric.c (a Goren metric linked into the program through
# dealer_set_usereval) prints exactly what the CLI prints for the same script and seed when the
# metric comes from the test DealerServer's tag 3 instead. Prints "N passed, M failed".
set -u
. "$(dirname "$0")/lib.sh"
release="$top/target/release"
enter_work_dir
tmp=$work
printf 'condition usereval(3, NS, 3) >= 25\naction printoneline(usereval(3, NS, 3)), printoneline(usereval(3, south, 2))\n' \
  > "$tmp/goren.dli"
for seed in 3 11 2024; do
  "$release/usereval_metric" "$seed" 6 > "$tmp/in-process.txt"
  "$release/dealer" -U "$release/test_dealer_server" -s "$seed" -p 6 -v "$tmp/goren.dli" > "$tmp/server.txt"
  if [ -s "$tmp/server.txt" ] && [ "$(wc -l < "$tmp/server.txt")" -eq 12 ] && cmp -s "$tmp/in-process.txt" "$tmp/server.txt"; then
    ok "seed $seed: in-process metric = DealerServer"
  else
    ko "seed $seed: in-process metric differs from the DealerServer"
    diff "$tmp/in-process.txt" "$tmp/server.txt" | head -n 10
  fi
done
finish
