#!/usr/bin/env bash
# Scale-out (README "Scale-out: one job on many machines"): a job cut into parts by deal
# numbers (--part K/N, --deals FIRST:COUNT), each part written to its part file, and the parts
# merged (--merge) give byte for byte what one run of the job prints (the "Time needed" line
# and the JSON summary's "seconds" aside, which no two runs share), whatever the number of
# parts and the order the files are given in:
#
# 1. statistics (average, frequency, bktfreq) with the produce limit falling inside a part,
#    and with the generate limit ending the job, dealt on one thread or two in each part; a job
#    of statistics alone, whose parts record their running state instead of their deals; printoneline/printall/printpbn boards
#    numbered across parts; LIN, JSON Lines and PBN records; rnd() in the actions; csvrpt to
#    a file (-C); export to a file (-X) and evalcontract; print(compass) pages; smart dealing from a partnership's table; the classic
#    dialect; --precision (the merge stops where one run stops); double dummy in the actions (dds()) and in PBN records (--pbn-dd), solved by the
#    parts and not again by the merge. Practice sets: --level (weights, a target, threads,
#    LIN/JSON Lines/PBN with DD, the generate limit ending types short: the same warnings),
#    --interleave, the JSON summary's hand type counts, --mix (by weight and count, levelled,
#    ended by the generate limit), a deal of two hand types refused by the merge as by one run.
# 2. Refusals, each with a clear message and nothing on standard output: a missing part, a
#    part given twice, parts of different jobs, a cut or foreign file, --part without
#    --part-file, a part with a random seed, the compatibility generators, K/N out of range,
#    --write-leveled (it writes a script, once).
#
# Prints ok/FAIL per row and 'N passed, M failed'; exit status 1 if a row failed.
# Environment: DEALER_CLI (default target/release/dealer).
set -u
. "$(dirname "$0")/lib.sh"
require_cli
enter_work_dir

# same NAME PARTS SCRIPT [OPTIONS...]: one run against PARTS parts merged (given in reverse
# order), and against the same parts cut by --deals; csv.txt compared too when written.
same() {
  local name=$1 parts=$2 script=$3
  shift 3
  rm -f ./*.part csv.txt exp.txt
  "$cli" "$@" "$script" >one.out 2>one.err
  local one_status=$? one_csv="" file
  for file in csv.txt exp.txt; do
    [ -f $file ] && one_csv+="$file: $(cat $file)" && rm -f $file
  done
  local k stdout=""
  for ((k = 0; k < parts; k++)); do
    "$cli" --part "$k/$parts" --part-file "p$k.part" "$@" "$script" >part.out 2>part.err || {
      ko "$name: part $k/$parts" "$(head -3 part.err)"
      return
    }
    stdout+=$(cat part.out)
  done
  local files
  files=$(for ((k = parts - 1; k >= 0; k--)); do echo "p$k.part"; done)
  # shellcheck disable=SC2086  # one word per file
  "$cli" --merge $files >merged.out 2>merged.err
  local merged_status=$? merged_csv=""
  for file in csv.txt exp.txt; do
    [ -f $file ] && merged_csv+="$file: $(cat $file)"
  done
  if [ -n "$stdout" ]; then
    ko "$name: a part printed something" "$(echo "$stdout" | head -2)"
  elif [ "$one_status" -ne 0 ] || [ "$merged_status" -ne 0 ]; then
    ko "$name: exit status $one_status / $merged_status" "$(head -3 one.err merged.err)"
  elif ! cmp -s <(without_timing one.out) <(without_timing merged.out); then
    ko "$name: $parts parts merged differ from one run" "$(diff <(without_timing one.out) <(without_timing merged.out) | head -6)"
  elif ! cmp -s one.err merged.err; then
    ko "$name: the warnings differ" "$(diff one.err merged.err | head -6)"
  elif [ "$one_csv" != "$merged_csv" ]; then
    ko "$name: the csv or export file differs"
  elif ! [ -s one.out ]; then
    ko "$name: one run printed nothing"
  else
    ok "$name: $parts parts merged = one run ($(wc -l <one.out) lines)"
  fi
}

cat >stats.dlr <<'DLR'
condition hcp(north) >= 15 and shape(north, any 4333 + any 4432 + any 5332) and hcp(south) >= 10
produce 300
action average "hcp south" hcp(south), frequency "spades" (spades(north), 0, 13), bktfreq "east" (hcp(east), 0, 25, 5), printoneline
DLR
same "statistics and one-line deals, produce reached in a part" 4 stats.dlr -s 11 -g 1000
same "the same cut in 7 uneven parts" 7 stats.dlr -s 11 -g 1000
same "the generate limit ends the job" 3 stats.dlr -s 12 -g 400
same "dealing threads in each part (-R 2)" 3 stats.dlr -s 13 -g 30000 -R 2
# Parts of one job on machines of different sizes: threads and solver memory are not the job's.
"$cli" -s 13 -g 30000 stats.dlr >one.out
"$cli" -s 13 -g 30000 -R 1 --part 0/2 --part-file t0.part stats.dlr &&
  "$cli" -s 13 -g 30000 -R 2 --dds-table-mb=64 --part 1/2 --part-file t1.part stats.dlr &&
  "$cli" --merge t0.part t1.part >merged.out 2>merged.err
if cmp -s <(without_timing one.out) <(without_timing merged.out); then
  ok "parts dealt with different thread counts and solver memory merge as one job"
else
  ko "parts with different thread counts" "$(head -2 merged.err)"
fi

# A job of statistics alone, with no produce limit inside it: each part records the running
# state of its statistics (a few hundred bytes), not its deals.
cat >tally.dlr <<'DLR'
condition hcp(north) >= 12 and shape(north, any 5xxx)
action average "south" hcp(south), frequency "spades" (spades(south), 0, 13), bktfreq "east" (hcp(east), 0, 25, 5)
DLR
same "statistics alone: the parts' running states merged" 3 tally.dlr -s 14 -g 300000 -R 2
bytes=$(stat -c %s p0.part)
if [ "$bytes" -lt 2000 ]; then
  ok "statistics alone: a part of 100,000 deals is $bytes bytes (no deal recorded)"
else
  ko "statistics alone: a part is $bytes bytes"
fi
# --precision: the parts deal their ranges and keep their deals; the merge applies the rule in
# deal order and stops where one run stops (inside the second of four parts here).
printf 'action average hcp(north), frequency (hcp(north) >= 12 ? 1 : 0, 0, 1)\n' >precision.dlr
same "--precision=0.1: the merge stops at the deal one run stops at" 4 precision.dlr -s 15 -g 100000 --precision=0.1
if grep -q "^Precision: widest 95 % interval 0.1000 after 26... deals (reached 0.1 or less)$" merged.out; then
  ok "--precision=0.1: the merged run says the width it reached"
else
  ko "--precision=0.1: the merged run's precision line" "$(grep -E '^(Precision|Produced)' merged.out)"
fi
cat >tally_classic.dlr <<'DLR'
condition hcp(north) >= 12
action average hcp(south), frequency (spades(south), 0, 13)
DLR
same "statistics alone, classic dialect" 2 tally_classic.dlr -s 15 -g 200000 --dialect=classic
same "statistics alone, JSON summary" 2 tally.dlr -s 16 -g 100000 --json-summary

cat >boards.dlr <<'DLR'
dealer west
vulnerable ew
condition hcp(south) >= 12
produce 25
action printpbn, printall, printes("r=", rnd(1000), " hcp=", hcp(south), "\n")
DLR
same "PBN and printall boards numbered across parts, rnd() in the actions" 3 boards.dlr -s 5 -g 400
for format in lin jsonl pbn; do
  same "--format=$format" 3 boards.dlr -s 6 -g 300 --format=$format
done
same "--json-summary" 2 stats.dlr -s 7 -g 2000 --json-summary

cat >csv.dlr <<'DLR'
condition hcp(east) + hcp(west) >= 30 and hcp(east) >= 10 and hcp(west) >= 10
produce 40
action csvrpt(deal, hcp(east), hcp(west)), print(east, west)
DLR
same "csvrpt to a file, print(compass) pages, a partnership's smart table" 3 csv.dlr -s 8 -g 3000 -C csv.txt
cat >classic.dlr <<'DLR'
condition hcp(north) >= 12 && hcp(south) >= 8
produce 50
action printall, average hcp(east), frequency (spades(west), 0, 13)
DLR
same "the classic dialect" 3 classic.dlr -s 9 -g 300 --dialect=classic

cat >export.dlr <<'DLR'
condition hcp(north) + hcp(south) >= 24
produce 12
action export(north), export(EW), evalcontract(NS, z3N, nv), printcompact
DLR
same "export files (-X), evalcontract" 3 export.dlr -s 10 -g 100 -X exp.txt

cat >dd.dlr <<'DLR'
condition hcp(north) + hcp(south) >= 28
produce 6
action printes(dds(south, notrump), " ", dds(north, spades), "\n"), printpbn
DLR
same "double dummy in the actions and in PBN records" 2 dd.dlr -s 3 -g 40 --pbn-dd

# Practice sets: a levelled set (each hand type dealt from a seed of its own, in its quota, the
# types sharing the generate budget in turn), classified and interleaved runs, mixes.
ladder=$top/examples/levelling
same "--level: exact quotas, interleaved" 3 "$ladder/nt_ladder.dlr" -s 3 --level -p 100
same "--level with weights, LIN records" 4 "$ladder/responses.dlr" -s 3 --level -p 7 --format=lin
same "--level on two threads in each part, JSON Lines" 2 "$ladder/nt_ladder.dlr" -s 11 -R 2 --level -p 60 --format=jsonl
same "--level --level-target, plain dealing" 3 "$ladder/nt_ladder.dlr" -s 5 --smart=off --level --level-target=40,30,15,10,5 -p 20
same "--level: the generate limit ends types short (warnings)" 3 "$ladder/nt_ladder.dlr" -s 3 --smart=off --level -p 100 -g 3000
same "--interleave" 3 "$ladder/nt_ladder.dlr" -s 5 --interleave -p 30
same "--json-summary counting hand types" 2 "$ladder/nt_ladder.dlr" -s 5 --json-summary -p 30
same "--level with double dummy in PBN records" 2 "$ladder/nt_ladder.dlr" -s 8 --level -p 6 --format=pbn --pbn-dd
cat >strong.dlr <<'DLR'
dealer north
vulnerable ns
condition hcp(north) >= 20
DLR
cat >shapely.dlr <<'DLR'
condition shape(south, any 6331 + any 7222) and hcp(south) >= 8
DLR
same "--mix by weight and count" 3 "$ladder/responses.dlr" -s 4 -p 30 --mix strong.dlr shapely.dlr:2
same "--level --mix, LIN" 2 "$ladder/responses.dlr=6" -s 4 -p 30 --level --format=lin --mix strong.dlr shapely.dlr:2
same "--mix ended by the generate limit (warnings)" 3 "$ladder/responses.dlr=6" -s 4 -p 30 -g 1000 --smart=off --level --mix strong.dlr shapely.dlr:2
cat >overlap.dlr <<'DLR'
HandType_big = hcp(north) >= 15
HandType_shapely = shape(north, any 5xxx + any 6xxx)
condition hcp(north) >= 12
produce 40
action printoneline
DLR
"$cli" -s 1 --interleave overlap.dlr >one.out 2>one.err
"$cli" -s 1 --interleave --part 0/2 --part-file o0.part overlap.dlr &&
  "$cli" -s 1 --interleave --part 1/2 --part-file o1.part overlap.dlr &&
  "$cli" --merge o0.part o1.part >merged.out 2>merged.err
if [ -s one.err ] && cmp -s one.err merged.err && ! [ -s merged.out ]; then
  ok "a deal of two hand types: the parts deal, the merge refuses it as one run does"
else
  ko "a deal of two hand types" "$(head -2 one.err merged.err)"
fi

# 2. Refusals.
"$cli" -s 1 --part 0/3 --part-file a0.part stats.dlr && "$cli" -s 1 --part 1/3 --part-file a1.part stats.dlr &&
  "$cli" -s 1 --part 2/3 --part-file a2.part stats.dlr && "$cli" -s 2 --part 1/3 --part-file b1.part stats.dlr
refused() { # NAME EXPECTED-TEXT COMMAND...
  local name=$1 expected=$2
  shift 2
  if "$@" >refused.out 2>refused.err; then
    ko "$name: accepted"
  elif ! grep -q -- "$expected" refused.err; then
    ko "$name: message" "$(head -2 refused.err)"
  elif [ -s refused.out ]; then
    ko "$name: printed something"
  else
    ok "refused: $name ($(head -1 refused.err))"
  fi
}
refused "a missing part" "a part is missing" "$cli" --merge a0.part a2.part
refused "the last part missing" "a part is missing" "$cli" --merge a0.part a1.part
refused "a part given twice" "a1.part and a1.part both deal" "$cli" --merge a0.part a1.part a1.part a2.part
refused "parts of different jobs" "parts of different jobs" "$cli" --merge a0.part b1.part a2.part
head -c 200 a1.part >cut.part
refused "a cut part file" "part file cut.part" "$cli" --merge a0.part cut.part a2.part
refused "a file that is no part file" "part file stats.dlr: it is not a libdealer part file" "$cli" --merge stats.dlr
refused "--part without --part-file" "part file" "$cli" -s 1 --part 0/2 stats.dlr
refused "a part with a random seed" "same seed" "$cli" --part 0/2 --part-file x.part stats.dlr
refused "a part with the glibc generator" "chacha" "$cli" -s 1 --rng=glibc --part 0/2 --part-file x.part classic.dlr
refused "part 2/2" "numbered 0 to N-1" "$cli" -s 1 --part 2/2 --part-file x.part stats.dlr
refused "deals past the generate count" "goes past" "$cli" -s 1 -g 100 --deals 90:20 --part-file x.part stats.dlr
refused "--write-leveled in parts" "run it once" "$cli" -s 1 --write-leveled x.dlr --part 0/2 --part-file x.part "$ladder/nt_ladder.dlr"
"$cli" -s 1 -p 20 --level --part 0/2 --part-file l0.part "$ladder/nt_ladder.dlr"
refused "a levelled part with a plain one" "different jobs" "$cli" --merge l0.part a1.part
finish
