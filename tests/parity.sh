#!/usr/bin/env bash
# Runs the two parity suites against target/release/dealer:
#   - DealerV2 4.3.3 regression references (../shared/parity/dealerv2/run) with --rng=drand48,
#     every case, the double-dummy ones included;
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

if [ -n "$shared" ] && [ -x "$shared/parity/dealerv2/run" ]; then
  echo "== DealerV2 parity (drand48), every case"
  "$shared/parity/dealerv2/run" "$cli --rng=drand48" || status=1
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
