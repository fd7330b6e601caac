#!/usr/bin/env bash
# Limits of the CLI (target/release/dealer) on inputs a server may be fed: each row asserts a
# clear message, an exit status that is not a signal, and that output already written is
# complete. The rows mirror README "Limits and errors" (untrusted scripts at the end).
#
# Prints PASS/FAIL per row and 'N passed, M failed'; exit status 1 if a row failed.
# Environment: DEALER_CLI (default target/release/dealer).
set -u
. "$(dirname "$0")/lib.sh"
row_labels PASS FAIL
require_cli
enter_work_dir

# expect NAME STATUS STDERR-LINE: checks the last run (out, err, rc files).
expect() {
  local name=$1 status=$2 line=$3 rc
  rc=$(cat rc)
  if [ "$rc" -ne "$status" ]; then
    ko "$name" "exit $rc, expected $status: $(head -c 160 err | tr '\n' '|')"
  elif [ -n "$line" ] && ! grep -qxF -- "$line" err; then
    ko "$name" "stderr '$(head -c 160 err | tr '\n' '|')', expected '$line'"
  else
    ok "$name"
  fi
}

# run ARGS...: runs the CLI with a 120 s limit; leaves out, err, rc.
run() {
  timeout 120 "$cli" "$@" >out 2>err </dev/null
  echo $? >rc
}

# complete_lines FILE LENGTH: whether every line of FILE is LENGTH characters and the file ends
# with a newline.
complete_lines() {
  [ -s "$1" ] && [ "$(tail -c 1 "$1" | od -An -c | tr -d ' ')" = '\n' ] &&
    awk -v n="$2" 'length($0) != n { bad = 1 } END { exit bad }' "$1"
}

# repeat TEXT N: TEXT N times.
repeat() { printf "$1%.0s" $(seq "$2"); }

# deep KIND N: a script whose condition nests N levels of KIND.
deep() {
  printf 'produce 2\ncondition '
  case $1 in
    sum) printf 'hcp(north)%s > 10\n' "$(repeat '+hcp(south)' "$2")" ;;
    not) printf '%s(hcp(north) > 10)\n' "$(repeat '!' "$2")" ;;
    ternary) printf '%s1%s\n' "$(repeat 'hcp(north) > 1 ? ' "$2")" "$(repeat ' : 0' "$2")" ;;
    product) printf 'hcp(north)%s > 10\n' "$(repeat '*1' "$2")" ;;
  esac
}

# random_bytes SEED N: N pseudo-random bytes.
random_bytes() {
  LC_ALL=C awk -v seed="$1" -v n="$2" 'BEGIN { srand(seed); for (i = 0; i < n; i++) printf "%c", int(rand() * 256) }'
}

# ------------------------------------------------------------- interruption (SIGINT, SIGTERM)
printf 'generate 100000000\nproduce 100000000\naction printoneline\n' >many.dl
for signal in INT TERM; do
  for threads in 1 2; do
    "$cli" -s 1 -R "$threads" many.dl >out 2>err &
    pid=$!
    sleep 1
    kill -"$signal" "$pid"
    wait "$pid"
    echo $? >rc
    name="SIG$signal with -R $threads leaves complete lines"
    if [ "$(cat rc)" -ne 130 ] || [ "$(cat err)" != "interrupted" ]; then
      ko "$name" "exit $(cat rc), stderr '$(head -c 100 err)'"
    elif ! complete_lines out 76; then
      ko "$name" "an incomplete line: $(tail -c 80 out | tr '\n' '|')"
    else
      ok "$name"
    fi
  done
done

# ---------------------------------------------------------------------------- nesting depth
for kind in sum not ternary product; do
  deep "$kind" 9000 >deep.dl
  for stack in 8192 1024 256; do
    (ulimit -s "$stack" && timeout 120 "$cli" -s 1 -R 1 deep.dl >out 2>err </dev/null)
    echo $? >rc
    expect "9,000-level $kind on a ${stack} KB stack" 255 \
      "line 2: expression nested too deeply for this thread's stack"
  done
  deep "$kind" 1500 >deep.dl
  (ulimit -s 8192 && timeout 120 "$cli" -s 1 -R 2 deep.dl >out 2>err </dev/null)
  echo $? >rc
  expect "1,500-level $kind runs on 8 MB, two threads" 0 ""
done
deep sum 20000 >deep.dl
run -s 1 deep.dl
expect "20,000-level sum: the parser's limit" 255 "line 2: memory exhausted"

# ------------------------------------------------------------------------ memory bounds
printf 'generate 100\naction frequency (hcp(north), 0, 2000000000)\n' >freq.dl
run -s 1 freq.dl
expect "frequency over 2*10^9 values" 255 "line 2: frequency range too large (at most 10000000 values)"
printf 'generate 100\naction frequency (hcp(north), 0, 5000, hcp(south), 0, 5000)\n' >freq2.dl
run -s 1 freq2.dl
expect "2-D frequency over 25*10^6 cells" 255 "line 2: frequency table too large (at most 10000000 cells)"
printf 'generate 5000000\nproduce 2000000\naction print(north, south)\n' >pages.dl
run -s 1 pages.dl
expect "print(compass) of 2*10^6 deals" 4 \
  "print(...) keeps every produced deal until the run ends: at most 1000000 deals (produce 2000000); lower produce or print each deal with printall"
printf 'generate 99999999999999999999\nproduce 2\naction printoneline\n' >big.dl
run -s 1 big.dl
expect "generate beyond 64 bits" 0 ""

# ------------------------------------------------------------------------- output failures
printf 'produce 100\naction printoneline\n' >w.dl
timeout 60 "$cli" -s 1 w.dl >/dev/full 2>err
echo $? >rc
expect "standard output on a full disk" 255 "cannot write output: No space left on device (os error 28)"
printf 'produce 100\naction csvrpt(hcp(north))\n' >csv.dl
run -s 1 -C /dev/full csv.dl
expect "csv report on a full disk" 255 "cannot write output: No space left on device (os error 28)"
run -s 1 -C missing/x.csv csv.dl
expect "csv report in a missing folder" 255 "FATAL Error In GetOpts. Ending Program"
mkdir readonly && chmod 500 readonly
if [ "$(id -u)" -ne 0 ]; then
  run -s 1 -C "readonly/x.csv" csv.dl
  expect "csv report in a read-only folder" 255 "FATAL Error In GetOpts. Ending Program"
fi
run -s 1 -Z "w:/dev/full" w.dl
expect "ZRD output on a full disk" 255 "cannot write output: No space left on device (os error 28)"
run -s 1 -L missing.zrd w.dl
expect "missing ZRD library" 255 "cannot open library file missing.zrd: No such file or directory (os error 2)"
random_bytes 9 100 >bad.zrd
run -s 1 -L bad.zrd w.dl
expect "ZRD library of 100 random bytes" 255 \
  "library file bad.zrd is 100 bytes long, not a whole number of 23-byte records"
# Whole records of random bytes: refused with a message, or read; never a signal.
for seed in 1 2 3; do
  random_bytes "$seed" $((23 * 40)) >rand.zrd
  run -s 1 -L rand.zrd w.dl
  rc=$(cat rc)
  if [ "$rc" -eq 0 ] || { { [ "$rc" -lt 129 ] || [ "$rc" -gt 192 ]; } && [ -s err ]; }; then
    ok "ZRD library of random records ($seed): exit $rc"
  else
    ko "ZRD library of random records ($seed)" "exit $rc, stderr '$(head -c 100 err)'"
  fi
done

# ------------------------------------------------------------------ untrusted scripts
# --untrusted: no program is started for the script, and the run ceilings apply (10 s, 10^7
# generated deals, 1 MiB of output); a run stopped by one has whole output and exit status 1.
printf 'produce 1\ncondition hcp(north) > 10 && opc(NS) > 100\n' >opc.dl
run --untrusted --opc-program=/bin/true -s 1 opc.dl
expect "--untrusted refuses opc" 5 "line 2: opc() is not allowed in an untrusted script: it runs an external program"
printf '#!/bin/sh\ntouch started\n' >server.sh && chmod +x server.sh
printf 'produce 1\nx = usereval(1, NS, 2)\ncondition x > 0\n' >usereval.dl
run --untrusted -U ./server.sh -s 1 usereval.dl
expect "--untrusted refuses usereval through a DealerServer" 5 \
  "line 2: usereval() is not allowed in an untrusted script: it runs an external DealerServer and no in-process metric is set"
if [ -e started ] || [ -s out ]; then ko "--untrusted starts no DealerServer and deals nothing" "$(ls)"; else ok "--untrusted starts no DealerServer and deals nothing"; fi
printf 'produce 100000\naction printoneline\n' >many.dl
run --untrusted -s 1 many.dl
expect "--untrusted: the output ceiling (1 MiB)" 1 "the run stopped early at the output ceiling (max_output_bytes)"
grep '^n ' out >deals
if [ "$(wc -c <out)" -le 1048576 ] && [ "$(wc -l <deals)" -eq 13617 ] && complete_lines deals 76; then
  ok "--untrusted: 1 MiB of whole lines"
else
  ko "--untrusted: 1 MiB of whole lines" "$(wc -c <out) bytes, $(wc -l <deals) deals"
fi
printf 'generate 100000000\ncondition hcp(north) > 37\n' >never.dl
run --untrusted -s 1 never.dl
expect "--untrusted: the generate ceiling (10,000,000)" 1 "the run stopped early at the generate ceiling (max_generate)"
grep -qx 'Generated 10000000 hands' out || ko "--untrusted: 10,000,000 deals generated" "$(head -c 100 out)"
printf 'generate 100000000\ncondition dds(north, notrump) + 0 > 13\n' >slow.dl
start=$(date +%s)
run --untrusted -R 1 -s 1 slow.dl
expect "--untrusted: the time ceiling (10 s)" 1 "the run stopped early at the time ceiling (max_seconds)"
took=$(($(date +%s) - start))
if [ "$took" -ge 10 ] && [ "$took" -le 20 ]; then ok "--untrusted: stopped after ${took} s"; else ko "--untrusted: time ceiling" "took ${took} s"; fi

finish
