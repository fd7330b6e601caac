#!/usr/bin/env bash
# Benchmark: the deal service (dealer-server, server/) under load, on loopback only. Starts
# target/server/release/dealer-server (built by `make server`; this script builds nothing) on a
# free port of 127.0.0.1 with its log in a file, and drives it with wrk (a Lua script that POSTs
# a JSON body and counts the answers by status, and the 2xx answers that lack a field every right
# answer carries). Workloads, each at a concurrency equal to the server's max_runs (MAX_RUNS,
# default the number of cores), no rate limit:
#   nt-opener  POST /v1/deal: a 1NT opener (15-17 balanced), produce 4, printoneline (a practice
#              table's request);
#   rare       POST /v1/deal: North 22+ balanced and South 4+ spades with 8+ points, produce 1;
#   pbn        POST /v1/deal, format pbn: a Stayman script, produce 4 (not tuned for);
#   check      POST /v1/check of a mid-size practice script (not tuned for);
# one row each: answers, 2xx answers per second, p50 and p99 latency (wrk --latency), non-2xx.
# Under each, a reference row: there is no peer server to compare with (classic dealer and
# DealerV2 are command-line programs), so the row is the CLI's own rate for the same script run
# as a process per request (target/release/dealer --untrusted -R 1 -s N, or --check=bbo, in as
# many loops side by side as the server runs at once), which shows what HTTP and the service add
# or save. Then the overload runs: a second server with a small queue (MAX_QUEUE=4,
# QUEUE_WAIT_SECONDS=1), the rare workload at 2x and 4x its capacity (max_runs + max_queue
# connections): accepted answers per second, refused ones (429 queue_full, 503 queue_timeout),
# p50 and p99 of the accepted answers (from the server's request log), which must stay below the
# queue wait + 2x the rare workload's p99 at capacity; no other status; the server answers
# /v1/health afterwards; its resident memory. Not a test: numbers depend on the machine, and wrk
# shares the machine's cores with the server. Exit status 1 when an answer is wrong (a non-2xx
# at capacity, a body without its field, a status other than 200/429/503 under overload), the
# accepted p99 passes its bound, or the server dies or stops answering.
#
# tests/bench_server.sh --quick: every workload for 3 s (the CLI loops 1 s), a smoke check.
#
# Usage: tests/bench_server.sh [--quick]   (BENCH_SECONDS=n per wrk run, default 10; MAX_RUNS=n;
#        KEEP=1 keeps the logs and wrk outputs, which a failure keeps too)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
server=${DEALER_SERVER:-$top/target/server/release/dealer-server}
cli=${DEALER_CLI:-$top/target/release/dealer}
quick=false
[ "${1:-}" = --quick ] && quick=true
if $quick; then
  seconds=3 cli_seconds=1
else
  seconds=${BENCH_SECONDS:-10} cli_seconds=3
fi
max_runs=${MAX_RUNS:-$(nproc)}
max_queue=4 queue_wait=1
for program in "$server" "$cli"; do
  if [ ! -x "$program" ]; then
    echo "FAIL: $program not found (run make all server first)"
    exit 1
  fi
done
"$top/tools/need.sh" 'tests/bench_server.sh' wrk curl || exit 1
work=$(mktemp -d "${TMPDIR:-/tmp}/bench_server.XXXXXX")
pid=""
status=0
finish() {
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    kill "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
  fi
  if [ $status -ne 0 ] || [ -n "${KEEP:-}" ]; then
    echo "(logs and wrk outputs kept in $work)"
  else
    rm -rf "$work"
  fi
}
trap finish EXIT
cd "$work" || exit 1
fail() {
  echo "FAIL: $*"
  status=1
}

# The scripts, and their requests' bodies (JSON strings: backslashes, quotes and newlines escaped).
cat >nt-opener.dl <<'EOF'
produce 4
condition shape(north, any 4333 + any 4432 + any 5332) and hcp(north) >= 15 and hcp(north) <= 17
action printoneline
EOF
cat >rare.dl <<'EOF'
produce 1
condition shape(north, any 4333 + any 4432 + any 5332) and hcp(north) >= 22 and spades(south) >= 4 and hcp(south) >= 8
action printoneline
EOF
cat >pbn.dl <<'EOF'
produce 4
nt = shape(south, any 4333 + any 4432 + any 5332 - 5xxx - x5xx) && hcp(south) >= 15 && hcp(south) <= 17
stay = hcp(north) >= 8 && (hearts(north) == 4 || spades(north) == 4) && shape(north, xxxx - any 5xxx)
condition nt && stay
EOF
cat >check.dl <<'EOF'
# A practice table's script: 1NT - 2C Stayman with an invitational responder.
generate 1000000
produce 10
dealer north
vulnerable none
nt = shape(north, any 4333 + any 4432 + any 5332 - 5xxx - x5xx) && hcp(north) >= 15 && hcp(north) <= 17
major4 = (hearts(south) == 4 || spades(south) == 4) && shape(south, xxxx - any 5xxx - any 6xxx)
invite = hcp(south) >= 8 && hcp(south) <= 9
fit = (hearts(north) >= 4 && hearts(south) == 4) || (spades(north) >= 4 && spades(south) == 4)
quiet_east = hcp(east) <= 10 && shape(east, xxxx - any 6xxx - any 7xxx)
quiet_west = hcp(west) <= 12 && !(shape(west, any 6xxx))
stoppers = top3(north, spades) >= 1 + top3(north, hearts) >= 1 + top3(north, diamonds) >= 1 + top3(north, clubs) >= 1
condition nt && major4 && invite && quiet_east && quiet_west
action
  printoneline,
  average "fit" fit,
  average "north losers" loser(north),
  average "stoppers" stoppers,
  frequency "south hcp" (hcp(south), 8, 9),
  frequency "combined" (hcp(north) + hcp(south), 23, 26)
EOF
json_string() { sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' "$1" | awk '{ printf "%s\\n", $0 }'; }
printf '{"script":"%s"}' "$(json_string nt-opener.dl)" >nt-opener.json
printf '{"script":"%s"}' "$(json_string rare.dl)" >rare.json
printf '{"script":"%s","format":"pbn"}' "$(json_string pbn.dl)" >pbn.json
printf '{"script":"%s"}' "$(json_string check.dl)" >check.json

# The wrk script: POSTs the body of the file args[1]; counts the answers by status, and the 2xx
# answers whose body lacks args[2]; prints one BENCH line of the run's numbers.
cat >post.lua <<'EOF'
local threads = {}
function setup(thread) table.insert(threads, thread) end
function init(args)
  local f = assert(io.open(args[1], "rb"))
  wrk.method = "POST"
  wrk.body = f:read("*a")
  f:close()
  wrk.headers["Content-Type"] = "application/json"
  expect = args[2]
  counts = {}
  bad = 0
end
function response(status, headers, body)
  counts[status] = (counts[status] or 0) + 1
  if status >= 200 and status < 300 and not string.find(body or "", expect, 1, true) then bad = bad + 1 end
end
function done(summary, latency, requests)
  local total, nbad, s = {}, 0, ""
  for _, t in ipairs(threads) do
    for k, v in pairs(t:get("counts")) do total[k] = (total[k] or 0) + v end
    nbad = nbad + t:get("bad")
  end
  for k, v in pairs(total) do s = s .. " " .. k .. "=" .. v end
  io.write(string.format("BENCH requests=%d seconds=%.3f p50_us=%d p99_us=%d socket_errors=%d non2xx=%d bad=%d statuses=%s\n",
    summary.requests, summary.duration / 1e6, latency:percentile(50), latency:percentile(99),
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    summary.errors.status, nbad, s))
end
EOF

# start_server NAME [VAR=VALUE...]: dealer-server on a free loopback port (sets pid, port), its
# log appended to NAME.log.
start_server() {
  local name=$1
  shift
  env DEALER_SERVER_RATE_PER_SECOND=0 DEALER_SERVER_MAX_RUNS="$max_runs" DEALER_SERVER_LOG_FORMAT=json \
    DEALER_SERVER_GRACE_SECONDS=1 "$@" "$server" --listen 127.0.0.1:0 >>"$name.log" 2>&1 &
  pid=$!
  port=""
  for _ in $(seq 100); do
    port=$(grep -o '"listen":"127.0.0.1:[0-9]*"' "$name.log" | head -n 1 | grep -o '[0-9]*"$' | tr -d '"')
    [ -n "$port" ] && return 0
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  fail "dealer-server did not start: $(tail -n 3 "$name.log")"
  exit 1
}
stop_server() {
  kill "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  pid=""
}
rss_mib() { awk '/^VmRSS:/ { printf "%.1f", $2 / 1024 }' "/proc/$pid/status" 2>/dev/null; }
# field NAME: a value of the last BENCH line ($bench).
field() { grep -o " $1=[^ ]*" <<<"$bench" | head -n 1 | cut -d= -f2; }
status_count() { grep -o " $1=[0-9]*" <<<"${bench#*statuses=}" | cut -d= -f2 | grep . || echo 0; }
# percentile P: the P-th percentile of the numbers on standard input (nearest rank).
percentile() { sort -g | awk -v p="$1" '{ a[NR] = $1 } END { if (NR == 0) print "-"; else { k = int(NR * p / 100 + 0.999999); if (k < 1) k = 1; print a[k] } }'; }
ms() { awk -v u="$1" 'BEGIN { printf "%.2f", u / 1000 }'; }

# run_wrk NAME PATH BODY EXPECT CONNECTIONS: one wrk run; sets $bench (its BENCH line).
run_wrk() {
  local threads=$5
  [ "$threads" -gt "$(nproc)" ] && threads=$(nproc)
  wrk -t "$threads" -c "$5" -d "${seconds}s" --timeout 10s --latency -s post.lua "http://127.0.0.1:$port$2" -- "$3" "$4" \
    >"$1.wrk" 2>&1
  bench=$(grep '^BENCH ' "$1.wrk" | tail -n 1)
  [ -n "$bench" ] || fail "$1: wrk printed no numbers: $(tail -n 3 "$1.wrk")"
}

# first_answer PATH BODY EXPECT: one request with curl before a run (warms the server up and
# checks the answer).
first_answer() {
  local code
  code=$(curl -s -o first.out -w '%{http_code}' -H 'Content-Type: application/json' --data-binary "@$2" \
    "http://127.0.0.1:$port$1")
  if [ "$code" != 200 ] || ! grep -qF -- "$3" first.out; then
    fail "$1 with $2: status $code, $(head -c 300 first.out)"
  fi
}

# cli_loops NAME COMMAND...: the command (with -s SEED appended unless it is a check) run in
# $max_runs loops side by side for $cli_seconds; sets cli_count, cli_failed and cli_times (one
# process's wall time in microseconds a line).
cli_loops() {
  local name=$1
  shift
  local k loops=()
  for k in $(seq "$max_runs"); do
    (
      end=$(( ${EPOCHREALTIME/./} + cli_seconds * 1000000 ))
      seed=$(( k * 1000000 ))
      : >"$name.cli.$k"
      while :; do
        start=${EPOCHREALTIME/./}
        [ "$start" -ge "$end" ] && break
        seed=$(( seed + 1 ))
        if [ "$1" = --check=bbo ]; then "$cli" "$@" >/dev/null 2>&1; else "$cli" "$@" -s "$seed" >/dev/null 2>&1; fi
        code=$?
        echo "$(( ${EPOCHREALTIME/./} - start )) $code" >>"$name.cli.$k"
      done
    ) &
    loops+=($!)
  done
  wait "${loops[@]}"
  cli_count=$(cat "$name".cli.* | wc -l)
  cli_failed=$(cat "$name".cli.* | awk '$2 != 0' | wc -l)
  cli_times=$(cat "$name".cli.* | cut -d' ' -f1)
}

row_format='%-18s %-10s %5s %9s %9s %9s %9s %8s %8s %8s\n'
row() { printf "$row_format" "$@"; }

echo "dealer-server under load on loopback: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //');" \
  "$("$server" --version); $(wrk --version 2>&1 | head -n 1 | cut -d' ' -f1-2) on the same cores"
echo "max_runs $max_runs, no rate limit; ${seconds} s per run$($quick && echo ' (--quick: a smoke check)');" \
  "load average at the start $(cut -d' ' -f1-3 /proc/loadavg) (other work lowers every row)."
echo "No peer server exists (classic dealer and DealerV2 are command-line programs): each '(cli process)' row"
echo "is the CLI run as one process per request for the same script ($max_runs loops side by side, ${cli_seconds} s;"
echo "--untrusted -R 1 -s N, or --check=bbo), to show what HTTP and the service add or save."
echo
row workload endpoint conns answers "2xx/s" "p50 ms" "p99 ms" non-2xx 429 503

start_server capacity DEALER_SERVER_MAX_QUEUE=64
# rows: name, path, body, a field every right answer carries, CLI arguments.
workloads=(
  'nt-opener|/v1/deal|nt-opener.json|"produced":4|--untrusted -R 1 nt-opener.dl'
  'rare|/v1/deal|rare.json|"produced":1|--untrusted -R 1 rare.dl'
  'pbn|/v1/deal|pbn.json|[Deal \"N:|--untrusted -R 1 --format=pbn pbn.dl'
  'check|/v1/check|check.json|"diagnostics"|--check=bbo check.dl'
)
rare_p99_us=""
for entry in "${workloads[@]}"; do
  IFS='|' read -r name path body expect cli_args <<<"$entry"
  first_answer "$path" "$body" "$expect"
  run_wrk "$name" "$path" "$body" "$expect" "$max_runs"
  [ -n "$bench" ] || continue
  requests=$(field requests) secs=$(field seconds) ok=$(status_count 200)
  non2xx=$(field non2xx) bad=$(field bad) socket=$(field socket_errors)
  row "$name" "$path" "$max_runs" "$requests" "$(awk -v n="$ok" -v t="$secs" 'BEGIN { printf "%.0f", n / t }')" \
    "$(ms "$(field p50_us)")" "$(ms "$(field p99_us)")" "$non2xx" "$(status_count 429)" "$(status_count 503)"
  [ "$name" = rare ] && rare_p99_us=$(field p99_us)
  [ "$non2xx" = 0 ] || fail "$name: $non2xx answers were not 2xx at capacity (${bench#*statuses=})"
  [ "$bad" = 0 ] || fail "$name: $bad answers lacked $expect"
  [ "$socket" = 0 ] || fail "$name: $socket socket errors or timeouts"
  # shellcheck disable=SC2086  # the CLI's arguments, one word each
  cli_loops "$name" $cli_args
  row "  (cli process)" - "$max_runs" "$cli_count" "$(awk -v n="$((cli_count - cli_failed))" -v t="$cli_seconds" \
    'BEGIN { printf "%.0f", n / t }')" "$(ms "$(percentile 50 <<<"$cli_times")")" "$(ms "$(percentile 99 <<<"$cli_times")")" \
    "$cli_failed" - -
  [ "$cli_failed" = 0 ] || fail "$name: $cli_failed CLI runs failed"
  if ! kill -0 "$pid" 2>/dev/null; then
    fail "the server died during $name: $(tail -n 3 capacity.log)"
    exit 1
  fi
done
capacity_rss=$(rss_mib)
stop_server

# Overload: a small queue, the rare workload at 2x and 4x max_runs + max_queue connections.
start_server overload DEALER_SERVER_MAX_QUEUE=$max_queue DEALER_SERVER_QUEUE_WAIT_SECONDS=$queue_wait
first_answer /v1/deal rare.json '"produced":1'
capacity=$(( max_runs + max_queue ))
bound_ms=$(awk -v w="$queue_wait" -v p="${rare_p99_us:-0}" 'BEGIN { printf "%.1f", w * 1000 + 2 * p / 1000 }')
notes=()
for times in 2 4; do
  connections=$(( times * capacity ))
  name=overload-${times}x
  : >overload.log   # (the server appends to its log: it writes on from the start)
  run_wrk "$name" /v1/deal rare.json '"produced":1' "$connections"
  [ -n "$bench" ] || continue
  requests=$(field requests) secs=$(field seconds) ok=$(status_count 200)
  r429=$(status_count 429) r503=$(status_count 503) bad=$(field bad) socket=$(field socket_errors)
  # The accepted answers' latency, from the server's log (wrk's mixes in the refusals).
  grep '"path":"/v1/deal","status":200,' overload.log | grep -o '"ms":[0-9.]*' | cut -d: -f2 >"$name.accepted"
  p50=$(percentile 50 <"$name.accepted" | awk '{ printf ($1 == "-") ? "-" : "%.2f", $1 }')
  p99=$(percentile 99 <"$name.accepted" | awk '{ printf ($1 == "-") ? "-" : "%.2f", $1 }')
  row "$name" /v1/deal "$connections" "$requests" "$(awk -v n="$ok" -v t="$secs" 'BEGIN { printf "%.0f", n / t }')" \
    "$p50" "$p99" "$(field non2xx)" "$r429" "$r503"
  other=$(( requests - ok - r429 - r503 ))
  notes+=("$name: $connections connections (${times}x max_runs $max_runs + max_queue $max_queue); accepted $ok, refused $r429 (429) + $r503 (503) = $(awk -v a="$r429" -v b="$r503" -v n="$requests" 'BEGIN { printf "%.1f", n ? 100 * (a + b) / n : 0 }') %; p99 of all answers (wrk) $(ms "$(field p99_us)") ms; accepted p99 $p99 ms (bound $bound_ms ms)")
  [ "$other" = 0 ] || fail "$name: $other answers neither 200, 429 nor 503 (${bench#*statuses=})"
  [ "$bad" = 0 ] || fail "$name: $bad accepted answers lacked '\"produced\":1'"
  [ "$socket" = 0 ] || fail "$name: $socket socket errors or timeouts"
  [ "$ok" -gt 0 ] || fail "$name: no request was accepted"
  if [ "$p99" = - ] || awk -v p="$p99" -v b="$bound_ms" 'BEGIN { exit !(p > b) }'; then
    fail "$name: the accepted answers' p99 ($p99 ms) is past the queue wait + 2x the rare workload's p99 ($bound_ms ms)"
  fi
  if ! kill -0 "$pid" 2>/dev/null; then
    fail "the server died during $name: $(tail -n 3 overload.log)"
    exit 1
  fi
done
health=$(curl -s -m 5 -o health.out -w '%{http_code} %{time_total}' "http://127.0.0.1:$port/v1/health")
overload_rss=$(rss_mib)
if [ "${health%% *}" != 200 ] || ! grep -q '"status":"ok"' health.out; then
  fail "after the overload /v1/health answered ${health%% *}: $(head -c 200 health.out)"
fi
stop_server

echo
for note in "${notes[@]}"; do echo "$note"; done
echo "after the overload: /v1/health ${health%% *} in $(awk -v t="${health#* }" 'BEGIN { printf "%.1f", t * 1000 }') ms;" \
  "resident memory $overload_rss MiB (the capacity runs' server: $capacity_rss MiB)"
echo "(the overload rows' p50 and p99 are of the accepted answers, from the server's request log; the"
echo " other rows' are wrk's, of every answer; 2xx/s: answers with status 2xx per second; load average at the"
echo " end $(cut -d' ' -f1-3 /proc/loadavg))"
exit $status
