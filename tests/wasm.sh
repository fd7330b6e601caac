#!/usr/bin/env bash
# `make wasm-test`: the WebAssembly build. Installs its tools (tools/install_wasm_tools.sh test),
# builds it (`make wasm`), runs the JS API's unit tests under node (byte-identical to the native
# CLI on parity scripts of ../shared with the drand48, glibc and chacha generators), then the
# playground in headless Chromium (tests/wasm_browser.mjs: error marks, runs against the CLI,
# Stop, screenshot in target/wasm-test/playground.png). Without node, ../shared or chromium the
# part that needs it prints NOT RUN (a failure under CI=true).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
status=0
not_run() {
  echo "NOT RUN: $1"
  if [ "${CI:-}" = true ]; then status=1; fi
}
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  not_run "node and npm are needed (tools/install_deps.sh test)"
  exit $status
fi
tools/install_wasm_tools.sh test || exit 1
make --no-print-directory wasm || exit 1
[ -d ../shared/parity ] || not_run "../shared/parity is missing: the byte-identity tests are skipped"
node --test bindings/wasm/tests/api.test.mjs || status=1
chrome=${CHROMIUM:-$(command -v chromium || true)}
if [ -z "$chrome" ]; then
  not_run "chromium is needed for the browser test (tools/install_deps.sh test)"
elif [ ! -d ../shared/parity ]; then
  not_run "../shared/parity is needed for the browser test"
else
  CHROMIUM=$chrome node tests/wasm_browser.mjs || status=1
fi
exit $status
