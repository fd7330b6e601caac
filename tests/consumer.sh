#!/usr/bin/env bash
# Install/consumer test: `make install` into a temporary prefix, then build tests/consumer/
# consumer.c against the installed library as a user would, and run each program:
#   - pkg-config: `cc $(pkg-config --cflags --libs dealer)` (shared: it starts with
#     LD_LIBRARY_PATH or with the README's `-Wl,-rpath,$(pkg-config --variable=libdir dealer)`,
#     and without either fails as the README says) and `pkg-config --static --libs dealer` with
#     libdealer.a named explicitly (static);
#   - CMake: find_package(dealer) with -DCMAKE_PREFIX_PATH, targets dealer::dealer and
#     dealer::dealer_static; then again after moving the prefix (it must be relocatable).
# Prints "N passed, M failed". Without pkg-config or cmake the test is NOT RUN: a failure
# under CI=true, otherwise exit status 0.
set -u
. "$(dirname "$0")/lib.sh"
src="$top/tests/consumer"
expected='n 2.T98.K752.KJT84 e 5.J7642.986.9763 s AQ8.AQ5.QJT.AQ52 w KJT97643.K3.A43. '
version=$(sed -n 's/^version *= *"\([^"]*\)".*/\1/p' "$top/Cargo.toml" | head -n 1)
soname=libdealer.so.0
cc=${CC:-cc}
cflags="-O2 -Wall -Wextra -Werror -std=c99"

missing=()
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
command -v cmake >/dev/null 2>&1 || missing+=(cmake)
if [ ${#missing[@]} -gt 0 ]; then
  echo "NOT RUN: install/consumer test (needs ${missing[*]}: apt-get install ${missing[*]})"
  if [ "${CI:-}" = true ]; then exit 1; fi
  exit 0
fi

step() { # step NAME COMMAND...: run a build step quietly; show its output when it fails
  local name=$1 log
  shift
  if log=$("$@" 2>&1); then ok "$name"; else ko "$name"; printf '%s\n' "$log" | tail -n 30; return 1; fi
}
deal() { # deal NAME COMMAND...: the command must succeed and print the expected deal first
  local name=$1 out status first
  shift
  out=$("$@" 2>&1); status=$?
  first=$(printf '%s\n' "$out" | head -n 1)
  if [ $status -eq 0 ] && [ "$first" = "$expected" ]; then ok "$name"; else
    ko "$name (exit status $status)"
    echo "  expected first line: '$expected'"
    printf '%s\n' "$out" | head -n 5 | sed 's/^/  got: /'
  fi
}
linked() { # linked NAME EXE yes|no: whether EXE needs the shared library (skipped without readelf)
  command -v readelf >/dev/null 2>&1 || return 0
  local needs=no
  readelf -d "$2" | grep -q "(NEEDED).*\[$soname\]" && needs=yes
  if [ $needs = "$3" ]; then ok "$1"; else ko "$1: needs $soname: $needs"; fi
}

enter_work_dir
tmp=$work
prefix="$tmp/prefix"
printf 'produce 1\naction printoneline\n' > "$tmp/one.dlr"

# The install.
step "make install PREFIX=<tmp>" ${MAKE:-make} -C "$top" --no-print-directory install \
  PREFIX="$prefix" DESTDIR= || finish
for f in bin/dealer include/dealer.h lib/libdealer.a lib/libdealer.so.$version lib/$soname \
         lib/libdealer.so lib/pkgconfig/dealer.pc lib/cmake/dealer/dealerConfig.cmake \
         lib/cmake/dealer/dealerConfigVersion.cmake; do
  [ -e "$prefix/$f" ] || ko "installed file $f is missing"
done
if command -v readelf >/dev/null 2>&1; then
  got=$(readelf -d "$prefix/lib/libdealer.so.$version" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
  if [ "$got" = "$soname" ]; then ok "SONAME $soname"; else ko "SONAME is '$got', not $soname"; fi
fi
deal "installed bin/dealer" "$prefix/bin/dealer" --rng=glibc -s 1 "$tmp/one.dlr"
for f in LICENSE THIRD-PARTY-NOTICES.md LICENSES/Apache-2.0.txt; do
  [ -s "$prefix/share/doc/libdealer/$f" ] || ko "installed file share/doc/libdealer/$f is missing"
done

# The PATH warning: only when bin/dealer would come before classic dealer's folder.
mkdir -p "$tmp/games" && printf '#!/bin/sh\n' > "$tmp/games/dealer" && chmod +x "$tmp/games/dealer"
warning() { # warning PATH: what `make install` says about that PATH (stderr only)
  PATH=$1 DEBIAN_DEALER="$tmp/games/dealer" "$top/tools/path_shadow_warning.sh" "$prefix/bin" 2>&1 >/dev/null
}
if warning "$prefix/bin:$tmp/games:/usr/bin" | grep -q "^warning: $prefix/bin/dealer comes before"; then
  ok "install warns when bin/dealer shadows classic dealer"; else ko "no warning when bin/dealer shadows classic dealer"; fi
if [ -z "$(warning "$tmp/games:$prefix/bin:/usr/bin")" ] && [ -z "$(warning "/usr/bin")" ]; then
  ok "no warning when classic dealer comes first or the prefix is not on PATH"; else
  ko "a warning although bin/dealer does not shadow classic dealer"; fi
out=$(PATH="$prefix/bin:$PATH" DEBIAN_DEALER="$tmp/games/dealer" ${MAKE:-make} -C "$top" --no-print-directory \
  install PREFIX="$prefix" DESTDIR= 2>&1 >/dev/null)
if printf '%s\n' "$out" | grep -q "^warning: $prefix/bin/dealer comes before"; then
  ok "make install prints the warning"; else ko "make install printed no warning: $out"; fi

# pkg-config.
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
got=$(pkg-config --modversion dealer 2>&1)
if [ "$got" = "$version" ]; then ok "pkg-config --modversion dealer = $version"; else
  ko "pkg-config --modversion dealer: '$got', expected $version"; fi
# shellcheck disable=SC2046  # word splitting of pkg-config's flags is intended
if step "pkg-config shared build" $cc $cflags "$src/consumer.c" $(pkg-config --cflags --libs dealer) \
     -o "$tmp/consumer_pc_shared"; then
  linked "pkg-config shared build needs $soname" "$tmp/consumer_pc_shared" yes
  deal "pkg-config shared run" env LD_LIBRARY_PATH="$prefix/lib" "$tmp/consumer_pc_shared"
  # Outside the loader's folders, without LD_LIBRARY_PATH or a run path: the README's message.
  out=$(env -u LD_LIBRARY_PATH "$tmp/consumer_pc_shared" 2>&1)
  if [ $? -ne 0 ] && printf '%s\n' "$out" | grep -qF "$soname: cannot open shared object file"; then
    ok "pkg-config shared build without a run path does not start (as the README says)"; else
    ko "pkg-config shared build without a run path: '$out'"; fi
fi
# The README's (and dealer.pc's) run path for another prefix: starts without LD_LIBRARY_PATH.
# shellcheck disable=SC2046
if step "pkg-config shared build with -Wl,-rpath" $cc $cflags "$src/consumer.c" $(pkg-config --cflags --libs dealer) \
     -Wl,-rpath,"$(pkg-config --variable=libdir dealer)" -o "$tmp/consumer_pc_rpath"; then
  deal "pkg-config shared run with the run path, no LD_LIBRARY_PATH" env -u LD_LIBRARY_PATH "$tmp/consumer_pc_rpath"
fi
grep -qF -- '-Wl,-rpath,$(pkg-config --variable=libdir dealer)' "$prefix/lib/pkgconfig/dealer.pc" \
  && ok "the installed dealer.pc names the run path flag" || ko "the installed dealer.pc has no run path hint"
# -ldealer would pick libdealer.so next to libdealer.a: name the archive (-l:libdealer.a).
static_libs=$(pkg-config --static --libs dealer | sed 's/-ldealer\( \|$\)/-l:libdealer.a\1/')
# shellcheck disable=SC2046,SC2086
if step "pkg-config static build" $cc $cflags "$src/consumer.c" $(pkg-config --cflags dealer) \
     $static_libs -o "$tmp/consumer_pc_static"; then
  linked "pkg-config static build does not need $soname" "$tmp/consumer_pc_static" no
  deal "pkg-config static run" "$tmp/consumer_pc_static"
fi
unset PKG_CONFIG_PATH

# CMake, from the install prefix and then from a moved copy of it.
cmake_consumer() { # cmake_consumer LABEL PREFIX
  local b="$tmp/build-$1"
  step "cmake configure ($1)" cmake -S "$src" -B "$b" -DCMAKE_PREFIX_PATH="$2" \
    -DDEALER_VERSION="$version" -DCMAKE_C_FLAGS="$cflags" || return
  step "cmake build ($1)" cmake --build "$b" || return
  linked "cmake consumer_shared needs $soname ($1)" "$b/consumer_shared" yes
  linked "cmake consumer_static does not need $soname ($1)" "$b/consumer_static" no
  # No LD_LIBRARY_PATH: CMake's build RPATH points at the imported library's directory.
  deal "cmake consumer_shared run ($1)" "$b/consumer_shared"
  deal "cmake consumer_static run ($1)" "$b/consumer_static"
}
cmake_consumer installed "$prefix"
if cmake -S "$src" -B "$tmp/build-version" -DCMAKE_PREFIX_PATH="$prefix" -DDEALER_VERSION=99.0 \
     >/dev/null 2>&1; then
  ko "find_package(dealer 99.0) should be rejected by dealerConfigVersion.cmake"
else
  ok "find_package(dealer 99.0) rejected"
fi
mv "$prefix" "$tmp/moved"
cmake_consumer moved "$tmp/moved"

finish
