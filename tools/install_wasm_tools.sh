#!/bin/sh
# The tools `make wasm` and `make wasm-test` need beyond the native build, installed when
# missing: the Rust target wasm32-unknown-unknown (rustup), wasm-bindgen-cli at the version of
# the wasm-bindgen crate locked in bindings/wasm/Cargo.lock (cargo install; the two must
# match), and with `test` also playwright-core from the npm registry (bindings/wasm/package.json,
# no browser download: the test drives Debian's chromium, which tools/install_deps.sh test
# installs).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
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
