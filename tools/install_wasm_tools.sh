#!/bin/sh
# The tools `make wasm` and `make wasm-test` need beyond the native build, installed when
# missing: Debian's clang 19 with the wasm32 C and C++ libraries for DDS's module (as root); the Rust target wasm32-unknown-unknown (rustup), wasm-bindgen-cli at the version of
# the wasm-bindgen crate locked in bindings/wasm/Cargo.lock (cargo install; the two must
# match), and with `test` also playwright-core from the npm registry (bindings/wasm/package.json,
# no browser download: the test drives Debian's chromium, which tools/install_deps.sh test
# installs).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
# DDS's own WebAssembly module is compiled by Debian's clang 19 for wasm32-wasi.
dds_packages="clang-19 lld-19 wasi-libc libc++-19-dev-wasm32 libc++abi-19-dev-wasm32 libclang-rt-19-dev-wasm32"
missing=
for package in $dds_packages; do
  status=$(dpkg-query -W -f '${db:Status-Status}' "$package" 2>/dev/null || true)
  [ "$status" = installed ] || missing="$missing $package"
done
if [ -n "$missing" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing Debian packages:$missing"
    apt-get update -qq
    # shellcheck disable=SC2086  # one word per package
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
  else
    echo "missing Debian packages for DDS's WebAssembly module (as root: apt-get install -y$missing)" >&2
  fi
fi
want=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' "$top/bindings/wasm/Cargo.lock")
if command -v rustup >/dev/null 2>&1 && ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  rustup target add wasm32-unknown-unknown
fi
have=$(wasm-bindgen --version 2>/dev/null | awk '{ print $2 }' || true)
if [ "$have" != "$want" ]; then
  echo "installing wasm-bindgen-cli $want (found: ${have:-none})"
  cargo install wasm-bindgen-cli --version "$want"
fi
if [ "${1:-}" = test ] && [ ! -d "$top/bindings/wasm/node_modules/playwright-core" ]; then
  (cd "$top/bindings/wasm" && npm ci --no-audit --no-fund)
fi
