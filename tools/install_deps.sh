#!/bin/sh
# The Debian packages libdealer needs, installed when missing: `build` (what `make`, `make example`
# and `make install` need: the C++ compiler for DDS, libclang for bindgen, binutils for the static
# library, pandoc for the man pages, git for the header check and the source release) or `test` (those and what `make test` uses: classic dealer for the parity and error
# suites, Debian's DDS 2.9 to compare double-dummy results, pkg-config and cmake for the install
# test, valgrind, mono and Free Pascal for the C# and Pascal bindings, nuget to read the C#
# package back, Debian's Python 3 with venv for the Python binding and the test tools, and for
# the Windows build tested under Wine (tests/windows.sh) the mingw-w64 posix cross compilers,
# wine64 and zip; the Rust target x86_64-pc-windows-gnu is added by `make windows` itself; and
# for the WebAssembly build's tests node and npm (Debian's, unless the commands are there) and
# the chromium they drive headless (the Rust target, wasm-bindgen-cli and playwright-core come
# from tools/install_wasm_tools.sh), with clang 19, llvm 19 (llvm-ar), lld 19 and the wasm32 C
# and C++ libraries that compile DDS to its own WebAssembly module (bindings/wasm/dds/build.sh);
# and the engines a job's parts run on (tests/scale_out_engines.sh):
# GNU parallel, and Slurm with munge (the test starts its own single-node cluster); and
# Debian's debhelper and lintian, which build and check the release's Debian packages, and curl,
# which sends the installed deal service its requests (tests/release.sh); and linkchecker, which
# checks the links of the book (tests/docs.sh); and wrk, which with curl drives the deal service
# in its benchmark (tests/bench_server.sh).
# As root with apt-get, missing packages are installed (after one `apt-get update`); otherwise
# the missing ones are named with the command that installs them, and the build goes on (a
# suite whose tools are missing reports NOT RUN, which CI=true turns into a failure).
# Every command a build or test calls comes from these packages or what they depend on (never
# what they only recommend: they are installed with --no-install-recommends); make test runs
# on a PATH made of those commands only, and runner-test checks it (tools/fresh_path.py).
set -eu
build="make gcc g++ binutils libclang-dev pandoc git"
test="$build dealer libdds-dev pkg-config cmake valgrind mono-mcs mono-runtime nuget fp-compiler \
  gcc-mingw-w64-x86-64-posix g++-mingw-w64-x86-64-posix wine64 zip chromium parallel slurm-wlm munge \
  debhelper lintian clang-19 llvm-19 lld-19 wasi-libc libc++-19-dev-wasm32 libc++abi-19-dev-wasm32 \
  libclang-rt-19-dev-wasm32 linkchecker python3 python3-venv bc curl wrk"
case ${1:-} in
  build) wanted=$build ;;
  test) wanted=$test ;;
  # The packages of `test` and those added below when a command is missing, one per line
  # (tools/fresh_path.py reads them).
  list) printf '%s\n' $test nodejs npm; exit 0 ;;
  *) echo "usage: $0 build|test|list" >&2; exit 2 ;;
esac
command -v dpkg-query >/dev/null 2>&1 || exit 0   # not Debian: the README lists what to install
missing=
for package in $wanted; do
  status=$(dpkg-query -W -f '${db:Status-Status}' "$package" 2>/dev/null || true)
  [ "$status" = installed ] || missing="$missing $package"
done
# Node.js and npm: a package nodejs of another Debian archive (NodeSource's, which carries npm)
# serves, and Debian's npm package cannot be installed beside it.
if [ "${1:-}" = test ]; then
  status=$(dpkg-query -W -f '${db:Status-Status}' nodejs 2>/dev/null || true)
  [ "$status" = installed ] || missing="$missing nodejs"
  [ "$status" = installed ] && [ -x /usr/bin/npm ] || missing="$missing npm"
fi
[ -n "$missing" ] || exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing Debian packages:$missing"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  # shellcheck disable=SC2086  # one word per package
  apt-get install -y -qq --no-install-recommends $missing >/dev/null
else
  echo "missing Debian packages:$missing (as root: apt-get install -y$missing)" >&2
fi
