#!/bin/sh
# DDS as a WebAssembly module of its own: the DDS sources of the crate dds-bridge-sys (the
# version Cargo.lock names, the same files and defines as the crate's own build), compiled by
# Debian's clang for wasm32-wasi against Debian's wasi-libc and wasm32 libc++, and linked as a
# WASI "reactor" (no main; `_initialize` runs the C++ constructors) that exports DDS's calls
# and malloc/free. No generated JavaScript: pkg/dds-module.js is the module's whole host (a few
# WASI calls). The native build's DDS is the same code; only threads differ (none here:
# nothreads.h).
#
#   bindings/wasm/dds/build.sh OUT.wasm
#
# Needs clang-19, lld-19, wasi-libc, libc++-19-dev-wasm32, libc++abi-19-dev-wasm32 and
# libclang-rt-19-dev-wasm32 (tools/install_wasm_tools.sh installs them), and the crate's
# sources (cargo fetches them; in the source release they are vendored).
set -eu
out=${1:?usage: build.sh OUT.wasm}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
llvm=19
cargo=${CARGO:-cargo}
"$top/tools/need.sh" "DDS's WebAssembly module (bindings/wasm/dds/build.sh)" \
  clang++-$llvm llvm-ar-$llvm wasm-ld-$llvm

# The crate's folder, as cargo resolves it (registry, or vendor/ in the source release).
dds=$(cd "$top" && $cargo metadata --format-version 1 --locked 2>/dev/null |
  python3 -c 'import json, sys, os
meta = json.load(sys.stdin)
print(next(os.path.dirname(p["manifest_path"]) for p in meta["packages"] if p["name"] == "dds-bridge-sys"))')
[ -f "$dds/src/dds_context.cpp" ] || { echo "build.sh: no dds-bridge-sys sources at '$dds'" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sources=$(cd "$dds" && { find vendor/library/src -name '*.cpp' ! -name dds_api.cpp | sort; echo src/dds_context.cpp; })
# The crate's defines and includes; every DDS file also sees nothreads.h first. Paths of this
# machine are mapped out of the module.
flags="--target=wasm32-wasi -O3 -flto -mbulk-memory -fexceptions -std=c++20 -w \
  -include sstream -include iomanip -include $here/nothreads.h -DDDS_THREADS_STL -DDDS_NO_DUMP_ON_ERROR \
  -I$dds/vendor/library/src -I$dds/src -ffile-prefix-map=$dds=/usr/src/dds -ffile-prefix-map=$here=/usr/src/dds-wasm"
export flags dds work llvm
printf '%s\n' $sources | xargs -P "$(nproc)" -I{} sh -c \
  'clang++-$llvm $flags -c "$dds/{}" -o "$work/$(echo {} | tr / _).o"'
clang++-$llvm --target=wasm32-wasi -O3 -flto -mbulk-memory -fexceptions -c "$here/cxa_stubs.cpp" -o "$work/cxa_stubs.o"
llvm-ar-$llvm rcs "$work/libdds.a" "$work"/vendor_*.o "$work"/src_*.o

exports="malloc free ErrorMessage SidesParBin DealerParBin
  dds_solver_context_new dds_solver_context_free dds_solve_board dds_calc_dd_table"
export_flags=""
for name in $exports; do export_flags="$export_flags -Wl,--export=$name"; done
# --stack-first: a stack overflow traps instead of overwriting data. The memory grows on demand
# (DDS's transposition table: at most the context's maximum).
# shellcheck disable=SC2086
clang++-$llvm --target=wasm32-wasi -O3 -flto -mbulk-memory -fexceptions -mexec-model=reactor \
  "$work/cxa_stubs.o" "$work/libdds.a" -o "$work/dds.wasm" $export_flags \
  -Wl,--stack-first -Wl,-z,stack-size=1048576 -Wl,--strip-all -Wl,--gc-sections
mkdir -p "$(dirname "$out")"
mv -f "$work/dds.wasm" "$out"
echo "$out: $(wc -c <"$out") bytes, $(gzip -9 -c "$out" | wc -c) gzipped"
