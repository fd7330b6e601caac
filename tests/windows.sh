#!/usr/bin/env bash
# The Windows build (make windows) tested under Wine, against the Linux build:
#   - the C API tests (capi-tests/test_capi.c, built with mingw-w64) against dealer.dll through
#     the mingw import library libdealer.dll.a, through dealer.lib (the import library made for
#     MSVC users), and against the static libdealer.a;
#   - dealer.exe on the DealerV2 parity cases that need no external program (drand48; the two
#     slowest double-dummy cases only with WINDOWS_PARITY_ALL=1) and on classic dealer's examples
#     and the BBO scripts (glibc): standard output and exit status byte for byte equal to the
#     Linux CLI's (target/release/dealer) with the same arguments in the same folder (only the
#     `Time needed` line, a measured time, is masked);
#   - double-dummy tables (printrpt of trix, ChaCha, 2 solver threads), a ChaCha run on two
#     dealing threads, 9,000 nested parentheses (an error, not a stack overflow), scripts with
#     CRLF line ends, Windows paths (a script and a -C csv file
#     named Z:\...), opc through a stand-in DOP program built for each system (the same
#     answers; one that hangs ends at the time limit), and usereval through a DealerServer refused as not available on Windows;
#   - the Pascal binding for Windows when Free Pascal has its win64 units (Debian has none).
# Wine runs in a fresh prefix under target/windows-test with one persistent wineserver, killed
# at the end. Without the mingw-w64 posix compilers or Wine the suite is NOT RUN (a failure
# under CI=true). Wine 8 lacks bcryptprimitives.dll (ProcessPrng, which Rust's standard library
# uses): tests/windows/bcryptprimitives.c, a test-only stand-in, goes beside the test programs.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
shared=$(cd "${SHARED:-$top/../shared}" 2>/dev/null && pwd)
status=0
not_run() {
  echo "NOT RUN: $1"
  if [ "${CI:-}" = true ]; then exit 1; fi
  exit 0
}
failed() { echo "FAIL: $1"; status=1; }
passed() { echo "ok: $1"; }

WIN_CC=${WIN_CC:-x86_64-w64-mingw32-gcc-posix}
command -v "$WIN_CC" >/dev/null || not_run "$WIN_CC not found (apt-get install -y g++-mingw-w64-x86-64-posix)"
wine=${WINE:-}
if [ -z "$wine" ]; then
  for candidate in /usr/lib/wine/wine64 "$(command -v wine64 2>/dev/null)" "$(command -v wine 2>/dev/null)"; do
    if [ -n "$candidate" ] && [ -x "$candidate" ]; then wine=$candidate; break; fi
  done
fi
[ -n "$wine" ] && [ -x "$wine" ] || not_run "Wine not found (apt-get install -y wine64)"
wineserver=$(dirname "$wine")/wineserver
[ -x "$wineserver" ] || wineserver=$(command -v wineserver 2>/dev/null)
[ -n "$wineserver" ] || not_run "wineserver not found beside $wine"
[ -x target/release/dealer ] || make --no-print-directory all >/dev/null || { echo "FAIL: the Linux build"; exit 1; }
linux_cli=$top/target/release/dealer

echo "== make windows"
make --no-print-directory windows || { echo "FAIL: make windows"; exit 1; }

work=$top/target/windows-test
rm -rf "$work"
mkdir -p "$work/bin" "$work/runs"
export WINEPREFIX=$work/prefix WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=;winemenubuilder.exe=d"
cleanup() { "$wineserver" -k >/dev/null 2>&1; }
trap cleanup EXIT
bin=$work/bin
win=$top/target/windows

# ---- The programs ----
cflags=(-O1 -Wall -Wextra -Werror -std=c99 -Iinclude)
static_libs=(-Wl,-Bstatic -lstdc++ -lwinpthread -Wl,-Bdynamic -lws2_32 -lntdll -luserenv -ladvapi32 -lkernel32)
cp "$win/dealer.dll" "$win/dealer.exe" "$bin/"
"$WIN_CC" -O2 -shared tests/windows/bcryptprimitives.c -ladvapi32 -o "$bin/bcryptprimitives.dll" &&
  "$WIN_CC" "${cflags[@]}" capi-tests/test_capi.c -L"$win" -ldealer -o "$bin/test_capi_dll.exe" &&
  "$WIN_CC" "${cflags[@]}" capi-tests/test_capi.c "$win/dealer.lib" -o "$bin/test_capi_lib.exe" &&
  "$WIN_CC" "${cflags[@]}" capi-tests/test_capi.c "$win/libdealer.a" "${static_libs[@]}" -o "$bin/test_capi_static.exe" &&
  "$WIN_CC" -O1 -Wall -Wextra -Werror -std=c99 tests/windows/fake_dop.c -o "$bin/fake_dop.exe" &&
  ${CC:-cc} -O1 -Wall -Wextra -Werror -std=c99 tests/windows/fake_dop.c -o "$work/fake_dop" ||
  { echo "FAIL: building the test programs"; exit 1; }
for exe in test_capi_dll test_capi_lib test_capi_static; do
  if ! "${WIN_OBJDUMP:-x86_64-w64-mingw32-objdump}" -p "$bin/$exe.exe" | grep -qi 'DLL Name: dealer.dll'; then
    [ "$exe" = test_capi_static ] || failed "$exe.exe does not import dealer.dll"
  fi
done

echo "== Wine: $("$wine" --version 2>/dev/null), prefix $WINEPREFIX"
started=$(date +%s)
"$wine" wineboot -i >/dev/null 2>&1
"$wineserver" -w
"$wineserver" -p
# Wine's services (services.exe, winedevice.exe …) start with the first program and inherit its
# standard streams: started here, they hold /dev/null, not a pipe a caller waits on.
"$wine" wineboot >/dev/null 2>&1 </dev/null
echo "prefix ready in $(( $(date +%s) - started )) s"

# Runs a Windows program under Wine from folder $1: run_wine DIR PROGRAM ARGS...
run_wine() { (cd "$1" && shift && "$wine" "$@"); }

# ---- C API tests ----
echo "== C API tests under Wine"
for exe in test_capi_dll test_capi_lib test_capi_static; do
  # (To files, never through a pipe of the shell's: see wineboot above.)
  run_wine "$bin" "$exe.exe" >"$work/runs/$exe.out" 2>&1 </dev/null
  rc=$?
  last=$(tr -d '\r' <"$work/runs/$exe.out" | tail -n 1)
  if [ $rc -eq 0 ] && [[ $last =~ ^[0-9]+\ passed,\ 0\ failed ]]; then
    passed "$exe: $last"
  else
    grep FAIL "$work/runs/$exe.out" | head -n 20
    failed "$exe (exit $rc): $last"
  fi
done

# ---- Parity with the Linux CLI ----
mask() { grep -v -e '^Time needed' "$1"; }
# compare NAME: runs/NAME.{linux,win} (stdout) and .rc (exit status) must be equal.
compare() {
  local name=$1 r=$work/runs/$1
  if [ "$(cat "$r.linux.rc")" = "$(cat "$r.win.rc")" ] && cmp -s <(mask "$r.linux") <(mask "$r.win"); then
    pass_count=$((pass_count + 1))
  else
    local first
    first=$(cmp <(mask "$r.linux") <(mask "$r.win") 2>&1 | head -n 1)
    failed "$name: exit $(cat "$r.linux.rc") on Linux, $(cat "$r.win.rc") under Wine; ${first:-same output}"
  fi
}
# both NAME DIR ARGS...: the Linux CLI and dealer.exe with the same arguments in DIR. The Linux
# runs go on in the background meanwhile (collected by `wait` before comparing). A Wine run that
# failed without printing anything at all (seen once in a few hundred runs on a loaded machine:
# exit 1, no output, and the same run then passing 5 times in 5) is made once more; any run
# that prints something is compared as it is.
both() {
  local name=$1 dir=$2 attempt
  shift 2
  (cd "$dir" && timeout 600 "$linux_cli" "$@" >"$work/runs/$name.linux" 2>/dev/null </dev/null
   echo $? >"$work/runs/$name.linux.rc") &
  for attempt in 1 2; do
    (cd "$dir" && timeout 600 "$wine" "$bin/dealer.exe" "$@" >"$work/runs/$name.win" 2>"$work/runs/$name.err" </dev/null
     echo $? >"$work/runs/$name.win.rc")
    if [ "$(cat "$work/runs/$name.win.rc")" = 0 ] || [ -s "$work/runs/$name.win" ] || [ -s "$work/runs/$name.err" ]; then
      break
    fi
    echo "(Wine: $name exited $(cat "$work/runs/$name.win.rc") printing nothing; run once more)"
  done
  names+=("$name")
}

names=()
pass_count=0
if [ -n "$shared" ] && [ -d "$shared/parity/dealerv2/cases" ]; then
  echo "== DealerV2 cases (drand48) that need no external program: Linux CLI and dealer.exe"
  v2=$work/dealerv2
  mkdir -p "$v2"
  cp "$shared"/parity/dealerv2/cases/* "$v2"/
  cp "$shared"/parity/dealerv2/data/* "$v2"/ 2>/dev/null
  script_vars=(-0 east -1 west -2 hcp -3 top4 -4 ltc -5 12 -6 6.5 -7 spade -8 'any 4333 + any 4432 + any 5332' -9 '5+s4+mxx + 6+Mxxx')
  for ref in "$v2"/*.ref; do
    c=$(basename "$ref" .ref)
    input=$(cd "$v2" && ls "$c".dl? 2>/dev/null | head -n 1)
    [ -n "$input" ] || continue
    if grep -q -E 'usereval|opc' "$v2/$input"; then continue; fi
    case $c in
      ParScoreContract_s173 | EvalContract_New_s103) [ "${WINDOWS_PARITY_ALL:-}" = 1 ] || continue ;;
    esac
    case "$input" in
      *.dls) args=(-v -D0.0 "${script_vars[@]}") ;;
      *.dlx) args=(-v -D0 -x3) ;;
      *) args=(-v -D0.0) ;;
    esac
    both "v2-$c" "$v2" --rng=drand48 "${args[@]}" "$input"
  done
else
  failed "DealerV2 parity cases not found (../shared/parity/dealerv2; SHARED=...)"
fi

classic=()
for f in /usr/share/doc/dealer/examples/Descr.* ${shared:+"$shared"/parity/pbs/scripts/*.dlr}; do
  [ -f "$f" ] && classic+=("$f")
done
if [ ${#classic[@]} -gt 0 ]; then
  echo "== classic scripts (glibc, -s 11 -p 20): Linux CLI and dealer.exe"
  for f in "${classic[@]}"; do
    both "classic-$(basename "$f")" "$(dirname "$f")" --rng=glibc -s 11 -p 20 "$(basename "$f")"
  done
else
  failed "no classic scripts (the Debian package dealer's examples, ../shared/parity/pbs/scripts)"
fi

echo "== double dummy, threads, CRLF scripts, Windows paths"
extra=$work/extra
mkdir -p "$extra/crlf" "$extra/win"
printf 'generate 100\nproduce 12\naction printrpt(deal, trix(deal))\n' >"$extra/trix.dli"
both dd-trix-chacha-R2 "$extra" --rng=chacha -s 5 -R 2 trix.dli
both dd-trix-drand48 "$extra" --rng=drand48 -s 9 -R 1 trix.dli
printf 'generate 2000000\nproduce 40\ncondition hcp(north) >= 20 && shape(south, any 4333 + any 4432)\naction printoneline, average "hcp S" hcp(south), frequency "len" (spades(north), 0, 13)\n' \
  >"$extra/chacha.dli"
both chacha-R2 "$extra" --rng=chacha -s 77 -R 2 chacha.dli
both chacha-R1 "$extra" --rng=chacha -s 77 -R 1 chacha.dli
# 9,000 nested parentheses: an error (the thread's stack limits come from the system), no crash.
{ printf 'condition '; printf '(%.0s' $(seq 9000); printf 'hcp(north)'; printf ' + 1)%.0s' $(seq 9000)
  printf ' > 3\nproduce 1\naction printoneline\n'; } >"$extra/deep.dli"
both deep-nesting "$extra" -s 1 deep.dli
# CRLF: the same scripts with "\r\n" line ends, under the same names in another folder.
for c in 2nt_Demo_s11 Bias_0S7D_s281 15_17NT_Hcp_Dist_s5; do
  if [ -f "$work/runs/v2-$c.linux" ]; then
    input=$(cd "$v2" && ls "$c".dl? | head -n 1)
    sed 's/$/\r/' "$v2/$input" >"$extra/crlf/$input"
    (cd "$extra/crlf" && timeout 600 "$wine" "$bin/dealer.exe" --rng=drand48 -v -D0.0 "$input" \
      >"$work/runs/crlf-$c.win" 2>/dev/null </dev/null; echo $? >"$work/runs/crlf-$c.win.rc")
    cp "$work/runs/v2-$c.linux" "$work/runs/crlf-$c.linux"
    cp "$work/runs/v2-$c.linux.rc" "$work/runs/crlf-$c.linux.rc"
    names+=("crlf-$c")
  fi
done
# A script and a csv file named by Windows paths (drive letter, backslashes) against Linux's.
printf 'generate 10000\nproduce 5\ncondition hcp(north) >= 12\naction printoneline, csvrpt(hcp(north), hcp(south), deal)\n' \
  >"$extra/paths.dli"
(cd "$extra" && "$linux_cli" --rng=drand48 -s 3 -C w:paths.csv paths.dli >"$work/runs/paths.linux" 2>/dev/null </dev/null
 echo $? >"$work/runs/paths.linux.rc")
winpath() { printf 'Z:%s' "$1" | tr '/' '\\'; }
(cd "$bin" && "$wine" dealer.exe --rng=drand48 -s 3 -C "w:$(winpath "$extra/win/paths.csv")" "$(winpath "$extra/paths.dli")" \
  >"$work/runs/paths.win" 2>/dev/null </dev/null; echo $? >"$work/runs/paths.win.rc")
names+=(paths)
wait
for name in "${names[@]}"; do compare "$name"; done
if cmp -s "$extra/paths.csv" "$extra/win/paths.csv" && [ -s "$extra/paths.csv" ]; then
  passed "the csv file written through a Windows path equals Linux's"
else
  failed "csv file through a Windows path: $(cmp "$extra/paths.csv" "$extra/win/paths.csv" 2>&1 | head -n 1)"
fi
echo "$pass_count of ${#names[@]} runs: dealer.exe under Wine printed what the Linux CLI printed"
# (Each line: the deal, then its 20 double-dummy results, here twice.)
[ "$(grep -c -E '^ n .*(,[0-9]+){20}' "$work/runs/dd-trix-chacha-R2.win")" = 12 ] ||
  failed "the double-dummy report has not 12 tables of tricks"

echo "== opc and usereval"
printf 'generate 1000\nproduce 4\ncondition hcp(north) >= 10\naction printoneline, average "opc NS" opc(NS), average "opc EW notrump" opc(EW, notrump), average "opc NS hearts" opc(NS, hearts)\n' \
  >"$extra/opc.dli"
(cd "$extra" && "$linux_cli" --rng=drand48 -s 4 --opc-program="$work/fake_dop" opc.dli >"$work/runs/opc.linux" 2>&1 </dev/null
 echo $? >"$work/runs/opc.linux.rc")
(cd "$extra" && "$wine" "$bin/dealer.exe" --rng=drand48 -s 4 --opc-program="$(winpath "$bin/fake_dop.exe")" opc.dli \
  >"$work/runs/opc.win" 2>&1 </dev/null; echo $? >"$work/runs/opc.win.rc")
names=(opc)
pass_count=0
compare opc
[ $pass_count -eq 1 ] && passed "opc through a stand-in DOP program: the same answers as on Linux ($(grep -c . "$work/runs/opc.win") lines)"
# A DOP program that never answers: the time limit ends the run (and the program) in time.
cp "$bin/fake_dop.exe" "$bin/hang_dop.exe"
started=$(date +%s)
(cd "$extra" && "$wine" "$bin/dealer.exe" --rng=drand48 -s 4 --external-timeout=2 --opc-program="$(winpath "$bin/hang_dop.exe")" \
  opc.dli >"$work/runs/opc-hang.out" 2>"$work/runs/opc-hang.err" </dev/null)
rc=$?
took=$(( $(date +%s) - started ))
if [ $rc -eq 4 ] && grep -q 'opc: .*hang_dop.exe: no answer within 2.0 s' "$work/runs/opc-hang.err" && [ $took -lt 20 ]; then
  passed "opc with a program that hangs: exit 4 after ${took} s, $(tr -d '\r' <"$work/runs/opc-hang.err" | head -n 1)"
else
  failed "opc with a program that hangs: exit $rc after ${took} s, $(head -c 300 "$work/runs/opc-hang.err")"
fi
printf 'produce 1\naction printoneline, average "u" usereval(1, NS, 0)\n' >"$extra/usereval.dli"
(cd "$extra" && "$wine" "$bin/dealer.exe" -s 1 usereval.dli >"$work/runs/usereval.out" 2>"$work/runs/usereval.err" </dev/null)
rc=$?
if [ $rc -eq 3 ] && grep -q 'not available on Windows' "$work/runs/usereval.err" && [ ! -s "$work/runs/usereval.out" ]; then
  passed "usereval through a DealerServer: exit 3, $(tr -d '\r' <"$work/runs/usereval.err" | head -n 1)"
else
  failed "usereval through a DealerServer: exit $rc, $(head -c 300 "$work/runs/usereval.err")"
fi

echo "== NuGet package with runtimes/win-x64/native/dealer.dll"
if command -v mcs >/dev/null; then
  if make --no-print-directory nuget >"$work/nuget.log" 2>&1 &&
    python3 - "$top/target/Libdealer.$(sed -n 's/^version *= *"\([^"]*\)".*/\1/p' Cargo.toml | head -n 1).nupkg" "$win/dealer.dll" <<'PY'
import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
names = z.namelist()
manifest = z.read("Libdealer.nuspec").decode("utf-8")
ok = (z.read("runtimes/win-x64/native/dealer.dll") == open(sys.argv[2], "rb").read()
      and "runtimes/linux-x64/native/libdealer.so" in names)
sys.exit(0 if ok else 1)
PY
  then
    passed "make nuget: the package carries dealer.dll under runtimes/win-x64/native/ beside the linux-x64 library"
  else
    failed "make nuget with the Windows DLL: $(tail -n 3 "$work/nuget.log")"
  fi
else
  echo "not tested: the NuGet package (mcs is not installed)"
fi

echo "== Pascal binding"
if command -v fpc >/dev/null && echo 'program p; begin end.' >"$work/p.pas" && fpc -Twin64 -o"$work/p.exe" "$work/p.pas" >/dev/null 2>&1; then
  if fpc -Twin64 -Mdelphi -Fubindings/pascal -Fl"$win" -FE"$bin" -FU"$work" bindings/pascal/test_dealer.pas >"$work/fpc.log" 2>&1 &&
    run_wine "$bin" test_dealer.exe >"$work/runs/pascal.out" 2>&1 </dev/null; then
    passed "bindings/pascal/test_dealer.pas built for win64, run under Wine: $(tail -n 1 "$work/runs/pascal.out")"
  else
    failed "the Pascal binding for win64: $(tail -n 3 "$work/fpc.log" "$work/runs/pascal.out" 2>/dev/null)"
  fi
else
  echo "not tested: the Pascal binding for Windows (Free Pascal has no win64 units here; Debian packages none)"
fi

# Nothing of Wine is left running: the prefix's wineserver (and every process it serves) ends.
"$wineserver" -k >/dev/null 2>&1
"$wineserver" -w >/dev/null 2>&1
trap - EXIT
if [ $status -eq 0 ]; then echo "windows: all passed"; else echo "windows: FAILED"; fi
exit $status
