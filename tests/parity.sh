#!/usr/bin/env bash
# Runs the two parity suites against target/release/dealer:
#   - DealerV2 4.3.3 regression references (../shared/parity/dealerv2/run) with --rng=drand48,
#     every case except the double-dummy ones (they need the next issue's DDS support);
#   - classic dealer live (../shared/parity/dealer-v1/run) with --rng=glibc, which needs the
#     Debian package `dealer` (/usr/games/dealer).
# A suite that cannot run here is reported as NOT RUN, never as passed; with CI=true that fails.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
shared=$(cd "${SHARED:-$top/../shared}" 2>/dev/null && pwd)
cli="$top/target/release/dealer"
status=0
not_run() {
  echo "NOT RUN: $1"
  if [ "${CI:-}" = true ]; then status=1; fi
}

# Cases that need double-dummy analysis (dds, par, parcontract, trix, evalcontract).
double_dummy=" Bias_4Hands_s283 DDS_NT_s59 DDSmode1_s61 EvalContract_New_s103 EvalContract_n_dds_s101
  EvalContractx5_s107 ParScoreContract_s173 csvTrixDeal_s43 ddsNTpar_s67 ddsParContract_s317
  ddsTrixCond_s73 printrpt_show_s191 score4Hx_s199 test_rpts_s241 "

if [ -n "$shared" ] && [ -x "$shared/parity/dealerv2/run" ]; then
  cases=()
  for f in "$shared"/parity/dealerv2/cases/*.ref; do
    b=$(basename "$f" .ref)
    [[ " $(echo $double_dummy) " == *" $b "* ]] && continue
    cases+=("$b")
  done
  echo "== DealerV2 parity (drand48), ${#cases[@]} cases without double dummy"
  "$shared/parity/dealerv2/run" "$cli --rng=drand48" "${cases[@]}" || status=1
else
  not_run "DealerV2 parity suite (../shared/parity/dealerv2/run not found)"
fi

if [ -n "$shared" ] && [ -x "$shared/parity/dealer-v1/run" ] && [ -x /usr/games/dealer ]; then
  echo "== classic dealer parity (glibc)"
  "$shared/parity/dealer-v1/run" "$cli --rng=glibc" || status=1
else
  not_run "classic dealer parity suite (needs ../shared/parity/dealer-v1/run and /usr/games/dealer)"
fi
exit $status
