#!/usr/bin/env bash
# Benchmark: how cost grows, and output speed. Not a test (numbers depend on the machine).
#   1. deals/s as the condition grows from 1 to 30 clauses (none true, so every clause is
#      evaluated on every deal), libdealer (ChaCha) beside classic dealer;
#   2. deals/s as `produce` grows (every deal accepted, `average` action): the per-deal cost
#      should stay flat;
#   3. one million deals printed with printoneline and printpbn to a file, libdealer (ChaCha and
#      glibc, one thread) beside classic dealer, with the ratio (issue target: >= 5x): the
#      median of RUNS rounds (default 5), each running classic dealer then ours.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cli="$top/target/release/dealer"
peer=${DEALER_ORACLE:-/usr/games/dealer}
runs=${RUNS:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
seconds() { # seconds COMMAND...: wall time of a command, output to $tmp/out
  local start end
  start=$(date +%s.%N)
  "$@" > "$tmp/out" 2>/dev/null
  end=$(date +%s.%N)
  awk -v s="$start" -v e="$end" 'BEGIN{printf "%.3f", e - s}'
}
rate() { awk -v n="$1" -v t="$2" 'BEGIN{printf "%.0f", n / t}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN{printf "%.2f", b / a}'; }

echo "1. condition size (generate 2000000, no deal matches)"
printf '%8s %14s %14s %8s\n' clauses libdealer/s classic/s ratio
for n in 1 5 10 20 30; do
  {
    echo "generate 2000000"
    printf 'condition hcp(north) > 37'
    for i in $(seq 2 "$n"); do
      seats=(north east south west); suits=(spades hearts diamonds clubs)
      printf ' || %s(%s) > 12' "${suits[$((i % 4))]}" "${seats[$(((i / 4) % 4))]}"
    done
    echo
  } > "$tmp/c$n.dl"
  t=$(seconds "$cli" --dialect=v2 -R 1 -s 1 "$tmp/c$n.dl")
  ours=$(rate 2000000 "$t")
  theirs="-"; r="-"
  if [ -x "$peer" ]; then
    tp=$(seconds "$peer" -s 1 "$tmp/c$n.dl"); theirs=$(rate 2000000 "$tp"); r=$(ratio "$t" "$tp")
  fi
  printf '%8s %14s %14s %8s\n' "$n" "$ours" "$theirs" "$r"
done

echo "2. produce size (every deal accepted; action average)"
printf '%10s %14s %14s\n' produce libdealer/s "us/deal"
for p in 1000 10000 100000 1000000; do
  printf 'produce %s\naction average hcp(north)\n' "$p" > "$tmp/p$p.dl"
  t=$(seconds "$cli" -R 1 -s 1 "$tmp/p$p.dl")
  printf '%10s %14s %14s\n' "$p" "$(rate "$p" "$t")" "$(awk -v t="$t" -v p="$p" 'BEGIN{printf "%.3f", t * 1e6 / p}')"
done

echo "3. printing 1,000,000 deals to a file (median of $runs rounds; ours with -R 1)"
printf '%-14s %-16s %10s %8s\n' action program seconds ratio
median() { sort -g | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}'; }
for action in printoneline printpbn; do
  printf 'produce 1000000\naction %s\n' "$action" > "$tmp/$action.dl"
  # Classic dealer, then ours, within each round; a ratio is the median of the rounds' ratios.
  declare -A times=() ratios=()
  for _ in $(seq "$runs"); do
    tp=""
    [ -x "$peer" ] && tp=$(seconds "$peer" -s 1 "$tmp/$action.dl") && times[classic]+="$tp "
    for rng in chacha glibc; do
      # One thread (glibc, which deals on one thread anyway, takes classic dealer's switches).
      threads=(); [ "$rng" = chacha ] && threads=(-R 1)
      t=$(seconds "$cli" --rng=$rng "${threads[@]}" -s 1 "$tmp/$action.dl")
      times[$rng]+="$t "
      [ -n "$tp" ] && ratios[$rng]+="$(ratio "$t" "$tp") "
    done
  done
  middle() { tr ' ' '\n' <<<"$1" | grep . | median; }
  [ -x "$peer" ] && printf '%-14s %-16s %10s %8s\n' "$action" "classic dealer" "$(middle "${times[classic]}")" 1.00
  for rng in chacha glibc; do
    r="-"; [ -x "$peer" ] && r=$(middle "${ratios[$rng]}")
    printf '%-14s %-16s %10s %8s\n' "$action" "libdealer $rng" "$(middle "${times[$rng]}")" "$r"
  done
  unset times ratios
done
