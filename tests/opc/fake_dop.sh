#!/bin/sh
# A stand-in for DealerV2's DOP program, for tests of opc(): appends its command line to the
# file named by $FAKE_DOP_LOG (when set) and prints fixed values. By default it answers as the
# real `dop -q` does: "C D H S NT LONG QL_SUIT QL_NT" (Perl's "%5.2f" eight times, no ':'), then
# exits with status 1. FAKE_DOP_MODE chooses another behaviour:
#   colon    the documented form "C D H S NT LONG : QL_SUIT QL_NT", exit status 0
#   fail     prints nothing, exit status 1
#   garbage  prints "no numbers here", exit status 0
#   short    prints the first seven numbers only, exit status 1
#   signal   prints the whole answer, then is killed by SIGKILL
#   hang     sleeps 30 s
#   orphan   leaves a /bin/sleep holding its stdout (pid in $FAKE_DOP_PIDFILE when set), then
#            answers as the real program does
#   long     writes 100000 bytes with no end of line, exit status 0
[ -n "${FAKE_DOP_LOG:-}" ] && printf '%s\n' "$*" >> "$FAKE_DOP_LOG"
case "${FAKE_DOP_MODE:-}" in
  colon) echo " 21.30 22.00 23.25 24.75 25.00 26.50 :  1.50  2.00"; exit 0 ;;
  fail) exit 1 ;;
  garbage) echo "no numbers here"; exit 0 ;;
  short) echo "21.30 22.00 23.25 24.75 25.00 26.50  1.50"; exit 1 ;;
  signal) echo "21.30 22.00 23.25 24.75 25.00 26.50  1.50  2.00"; kill -KILL $$ ;;
  hang) sleep 30; exit 0 ;;
  orphan) /bin/sleep 100000 & [ -n "${FAKE_DOP_PIDFILE:-}" ] && echo $! > "$FAKE_DOP_PIDFILE" ;;
  long) head -c 100000 /dev/zero | tr '\0' 7; exit 0 ;;
esac
echo "21.30 22.00 23.25 24.75 25.00 26.50  1.50  2.00"
exit 1
