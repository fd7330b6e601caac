#!/bin/sh
# A stand-in for DealerV2's DOP program, for tests of opc(): appends its command line to the
# file named by $FAKE_DOP_LOG (when set) and prints fixed values in DOP's format,
# "C D H S NT LONG : QL_SUIT QL_NT". FAKE_DOP_MODE=fail exits 1, =garbage prints nonsense,
# =hang sleeps.
[ -n "${FAKE_DOP_LOG:-}" ] && printf '%s\n' "$*" >> "$FAKE_DOP_LOG"
case "${FAKE_DOP_MODE:-}" in
  fail) exit 1 ;;
  garbage) echo "no numbers here"; exit 0 ;;
  hang) sleep 30; exit 0 ;;
esac
echo " 21.30 22.00 23.25 24.75 25.00 26.50 :  1.50  2.00"
