#!/usr/bin/env bash
# `make tsan`: the threaded C API tests under ThreadSanitizer, with everything they run
# instrumented: the Rust library and its standard library (nightly Rust, `-Zsanitizer=thread`
# with `-Zbuild-std`, which needs nightly's rust-src component), DDS's C++ (CFLAGS/CXXFLAGS for
# the cc crate) and the C tests (`-fsanitize=thread`). The library is built in target/tsan.
#
# First a canary (test_threads_tsan --canary, a race on purpose) must be reported, which proves
# the sanitizer is live; then test_parallel, test_threads_tsan and test_capi must pass with no
# report. capi-tests/tsan.supp holds the suppressions: only DDS's own known-benign races, each
# explained (none are needed today).
#
# Not part of `make test`: nightly Rust is not on the CI machines. Without nightly or its
# rust-src component it prints NOT RUN and exits 0. Ends with "N passed, M failed".
set -u
. "$(dirname "$0")/lib.sh"
cd "$top" || exit 1

if ! command -v rustup >/dev/null || ! rustup run nightly rustc --version >/dev/null 2>&1; then
  echo "NOT RUN: ThreadSanitizer needs nightly Rust (rustup toolchain install nightly)"
  exit 0
fi
if ! rustup component list --toolchain nightly --installed 2>/dev/null | grep -q '^rust-src'; then
  echo "NOT RUN: ThreadSanitizer needs nightly's rust-src (rustup component add rust-src --toolchain nightly)"
  exit 0
fi

host=$(rustup run nightly rustc -vV | sed -n 's/^host: //p')
build=$top/target/tsan
lib=$build/$host/release/libdealer.a
bin=$build/bin
mkdir -p "$bin"
cc=${CC:-cc}
static_libs=${STATIC_LIBS:--lstdc++ -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc}

# The library with the sanitizer's instrumentation everywhere (line tables for the reports).
echo "building the instrumented library in $build (the first build takes several minutes)"
if RUSTFLAGS="-Zsanitizer=thread -Cforce-frame-pointers=yes" \
  CFLAGS="-fsanitize=thread -g" CXXFLAGS="-fsanitize=thread -g" \
  CARGO_PROFILE_RELEASE_DEBUG=line-tables-only \
  cargo +nightly build -Zbuild-std --target "$host" --release --locked --lib --target-dir "$build" >"$build/build.log" 2>&1; then
  ok "the library builds with -Zsanitizer=thread (Rust, std and DDS instrumented)"
else
  tail -n 30 "$build/build.log"
  ko "the library builds with -Zsanitizer=thread" "see $build/build.log"
  finish
fi

# One runtime for the whole program: the one rustc ships (LLVM's compiler-rt, the version of
# the instrumentation in the Rust code). GCC's libtsan (`-fsanitize=thread` at link time) is
# older: it lacks the __tsan_memcpy, __tsan_memset and __tsan_memmove that Rust's code calls.
# GCC's instrumentation of the C and C++ code calls entry points both runtimes have.
runtime=$(rustup run nightly rustc --print sysroot)/lib/rustlib/$host/lib/librustc-nightly_rt.tsan.a
for test in test_parallel test_threads_tsan test_capi; do
  # shellcheck disable=SC2086  # static_libs is a list of flags
  if $cc -O1 -g -std=c99 -Wall -Wextra -Werror -fsanitize=thread -pthread -Iinclude -c "capi-tests/$test.c" -o "$bin/$test.o" \
    2>"$bin/$test.link.log" &&
    $cc "$bin/$test.o" "$lib" -Wl,--whole-archive "$runtime" -Wl,--no-whole-archive $static_libs -o "$bin/$test" \
      2>>"$bin/$test.link.log"; then
    ok "$test links with -fsanitize=thread"
  else
    head -n 20 "$bin/$test.link.log"
    ko "$test links with -fsanitize=thread" "see $bin/$test.link.log"
  fi
done

# exitcode=66 tells a report from a failed check; halt_on_error=0 shows every report.
export TSAN_OPTIONS="suppressions=$top/capi-tests/tsan.supp halt_on_error=0 exitcode=66 second_deadlock_stack=1 ${TSAN_OPTIONS:-}"

"$bin/test_threads_tsan" --canary >"$bin/canary.out" 2>"$bin/canary.err"
status=$?
if [ "$status" -eq 66 ] && grep -q 'WARNING: ThreadSanitizer: data race' "$bin/canary.err"; then
  ok "the canary's race is reported (the sanitizer is live)"
else
  ko "the canary's race is reported" "exit status $status, see $bin/canary.err"
fi

for test in test_parallel test_threads_tsan test_capi; do
  [ -x "$bin/$test" ] || continue
  start=$SECONDS
  "$bin/$test" >"$bin/$test.out" 2>"$bin/$test.err"
  status=$?
  reports=$(grep -c 'WARNING: ThreadSanitizer' "$bin/$test.err")
  summary=$(tail -n 1 "$bin/$test.out")
  if [ "$status" -eq 0 ] && [ "$reports" -eq 0 ]; then
    ok "$test: $summary, no ThreadSanitizer report ($((SECONDS - start)) s)"
  else
    grep -A 40 'WARNING: ThreadSanitizer' "$bin/$test.err" | head -n 120
    ko "$test" "exit status $status, $reports reports, $summary; see $bin/$test.err"
  fi
done
finish
