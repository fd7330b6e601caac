#!/usr/bin/env bash
# The soak test's runner (`make soak`, `make soak-short`): target/release/soak (tests/soak/)
# for SECONDS with WORKERS threads over the corpus of ../shared/parity/pbs/scripts, the
# examples, random scripts and the hostile inputs. Prints the program's report, its ok:/FAIL:
# rows and "N passed, M failed". Without ../shared (or $SHARED) the test is NOT RUN: a failure
# under CI=true, otherwise exit 0.
#
# Usage: tests/soak.sh SECONDS [WORKERS]
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:?usage: tests/soak.sh SECONDS [WORKERS]}
workers=${2:-8}
shared=$(cd "${SHARED:-$top/../shared}" 2>/dev/null && pwd)
if [ -z "$shared" ] || [ ! -d "$shared/parity/pbs/scripts" ]; then
  echo "NOT RUN: the soak test needs the practice scripts of ../shared/parity/pbs/scripts"
  if [ "${CI:-}" = true ]; then exit 1; fi
  exit 0
fi
soak=$top/target/release/soak
if [ ! -x "$soak" ]; then
  echo "FAIL: $soak not found (run make soak-short)"
  echo "0 passed, 1 failed"
  exit 1
fi
# The seed of the request stream: a new one each run (printed, so that a failing run can be
# replayed with SOAK_SEED).
seed=${SOAK_SEED:-$(( $(date +%s) % 1000000 ))}
exec "$soak" --seconds "$seconds" --workers "$workers" --seed "$seed" --top "$top" --shared "$shared"
