#!/usr/bin/env bash
# The release artifacts (make release, target/release-artifacts/) installed and used as their
# users would, away from the source tree: the artifacts and the consumer program are copied to
# a temporary folder first and nothing below reads the checkout but the test's own tools
# (tests/release_npm_browser.mjs, playwright-core of bindings/wasm's tests).
#
# 1. SHA256SUMS covers every artifact and verifies; no artifact (the files in the packages, the
#    wheel, the sdist, the npm package, the NuGet package and the Windows zip) names the build
#    machine's paths (this checkout, cargo's home) or carries a test or a test fixture; every
#    version in them is Cargo.toml's; the NuGet package and the Windows zip hold what they
#    should.
# 2. The Python wheel: tagged cp38-abi3 (every CPython from 3.8) and manylinux, as auditwheel
#    reads it; a fresh virtual environment with no compiler on PATH (CC=false, a PATH of the
#    environment's own folder alone: no cc, no cargo, no make) installs it (and NumPy, cffi from PyPI) and runs
#    `python -m libdealer --version` and a script that deals, evaluates in bulk with NumPy and
#    computes a double-dummy table.
# 3. Debian packages: lintian finds no error and no warning; `dpkg -i` of libdealer0,
#    libdealer-dev, dealer-cli and dealer-server into this machine; `dealer --version` and a
#    script; `man 1 dealer`, `man 3 libdealer` and `man 1 dealer-server` read the installed man
#    pages; the header's version macros; a C program built with pkg-config (shared and static)
#    and with CMake's find_package(dealer) (dealer::dealer, dealer::dealer_static) against the
#    installed packages, with no -L, -I or run path of ours. The deal service: `dealer-server
#    --version`; its configuration, a conffile, gives the defaults; its systemd unit is
#    installed and enabled (no systemd runs here: the package installs without it) and passes
#    `systemd-analyze verify` where that command is; started by hand on a free loopback port,
#    /v1/health answers 200, POST /v1/deal prints what the installed `dealer --untrusted` prints
#    for the same script and seed, and SIGTERM stops it with status 0 within 5 seconds.
#    `dpkg -r` removes every file again (dealer-server's configuration stays until `dpkg -P`,
#    which removes it and the unit's enabling link).
#
#    The sdist: its version and licences, the library's sources under native/; a fresh virtual
#    environment (with the compiler, cargo and make this time) builds and installs it with pip
#    and runs the same script.
# 4. The npm package: `npm install` of the tarball into a fresh folder; from Node, init() finds
#    its .wasm itself, a failed init() can be tried again, check() and generate() (the same
#    output as the installed CLI for the same seed). In headless Chromium
#    (tests/release_npm_browser.mjs): a plain `<script type=module>` page with an import map,
#    and the same page bundled by Vite and by webpack, each dealing on the page and in
#    worker-client.js's Web Worker what the installed CLI prints, double dummy too.
# 5. The source release: unpacked, built by `make` and `make server` with no network
#    (CARGO_NET_OFFLINE) and an empty cargo home (every crate of both workspaces from its
#    vendor/ folder); its CLI deals as the packaged one, its dealer-server runs.
#
# Prints ok/FAIL per row and 'N passed, M failed'. As a user who is not root, or without
# dpkg-deb, lintian, pkg-config or cmake, the package part is NOT RUN: a failure under CI=true.
set -u
. "$(dirname "$0")/lib.sh"
artifacts="$top/target/release-artifacts"
version=$(sed -n 's/^version *= *"\([^"]*\)".*/\1/p' "$top/Cargo.toml" | head -n 1)
expected='n 2.T98.K752.KJT84 e 5.J7642.986.9763 s AQ8.AQ5.QJT.AQ52 w KJT97643.K3.A43. '
packages=(libdealer0 libdealer-dev dealer-cli dealer-server)
build_paths=("$top" "${CARGO_HOME:-$HOME/.cargo}")

not_run() {
  echo "NOT RUN: $1"
  if [ "${CI:-}" = true ]; then finish 1; fi
  finish
}
[ -d "$artifacts" ] || { ko "no $artifacts: run make release first"; finish; }
if grep -q "^## \[$version\] - [0-9-]*$" "$top/CHANGELOG.md"; then ok "CHANGELOG.md has a section for $version"; else
  ko "CHANGELOG.md has no '## [$version] - DATE' section"; fi
enter_work_dir
cp -r "$artifacts" "$work/artifacts"
cp "$top/tests/consumer/consumer.c" "$top/tests/consumer/CMakeLists.txt" "$work/"
cd "$work" || exit 1

# The source release, unpacked and built with no network and an empty cargo home: in the
# background from here on (the longest step, whose serial parts leave a core to the checks of
# the other artifacts, the sdist's build among them), checked at the end.
source=artifacts/libdealer-$version-src.tar.gz
source_build=
# The two builds from source below (the source release's and the sdist's) prove that they build
# where a user builds them; the release profile's optimisation and link-time optimisation,
# proved by the everyday build of the same sources, are left out of them (minutes of CPU off
# make test; the sdist's one double-dummy table then takes seconds instead of a fraction).
export CARGO_PROFILE_RELEASE_OPT_LEVEL=0 CARGO_PROFILE_RELEASE_LTO=off CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16
if [ -f "$source" ]; then
  mkdir -p source cargo-home && tar -xzf "$source" -C source
  # setsid: a process group of its own, stopped whole if the test ends first.
  (cd "source/libdealer-$version" && CARGO_HOME="$work/cargo-home" CARGO_NET_OFFLINE=true \
    exec setsid sh -c 'make && make server' >"$work/source-build.log" 2>&1) &
  source_build=$!
  trap '[ -z "$source_build" ] || kill -- -"$source_build" 2>/dev/null; rm -rf "$work"' EXIT
fi

# 1. Checksums, paths, versions.
if (cd artifacts && sha256sum --quiet -c SHA256SUMS) >/dev/null 2>&1; then
  listed=$(awk '{print $2}' artifacts/SHA256SUMS | sort | tr '\n' ' ')
  present=$(cd artifacts && ls | grep -v '^SHA256SUMS$' | sort | tr '\n' ' ')
  if [ "$listed" = "$present" ]; then ok "SHA256SUMS covers and verifies every artifact ($present)"; else
    ko "SHA256SUMS lists '$listed' but the folder holds '$present'"; fi
else
  ko "SHA256SUMS does not verify"
fi
mkdir -p unpacked
for deb in artifacts/*.deb; do dpkg-deb -x "$deb" "unpacked/$(basename "$deb" .deb)"; done
for tgz in artifacts/libdealer-*.tgz; do
  mkdir -p "unpacked/$(basename "$tgz" .tgz)" && tar -xzf "$tgz" -C "unpacked/$(basename "$tgz" .tgz)"
  got=$(sed -n 's/^ *"version": "\(.*\)",$/\1/p' unpacked/"$(basename "$tgz" .tgz)"/package/package.json)
  if [ "$got" = "$version" ]; then ok "$(basename "$tgz"): version $got"; else ko "the npm package is version $got"; fi
done
for zip in artifacts/*.nupkg artifacts/*-win64.zip; do
  [ -f "$zip" ] || { ko "no $(basename "$zip")"; continue; }
  "${PYTHON:-python3}" -m zipfile -e "$zip" "unpacked/$(basename "$zip")"
done
nuspec=$(cat unpacked/Libdealer."$version".nupkg/Libdealer.nuspec 2>/dev/null)
layout=""
for f in lib/netstandard2.0/Libdealer.dll runtimes/linux-x64/native/libdealer.so runtimes/win-x64/native/dealer.dll LICENSE THIRD-PARTY-NOTICES.md; do
  [ -s "unpacked/Libdealer.$version.nupkg/$f" ] || layout+=" $f"
done
if [ -z "$layout" ] && printf '%s' "$nuspec" | grep -q "<version>$version</version>"; then
  ok "Libdealer.$version.nupkg: version $version, the managed assembly, the Linux and Windows libraries, the licenses"
else
  ko "the NuGet package: missing$layout, or not version $version"
fi
win=unpacked/libdealer-$version-win64.zip/libdealer-$version-win64
layout=""
for f in bin/dealer.exe bin/dealer.dll lib/dealer.lib lib/libdealer.dll.a lib/libdealer.a include/dealer.h LICENSE THIRD-PARTY-NOTICES.md; do
  [ -s "$win/$f" ] || layout+=" $f"
done
macros=$(sed -n 's/^#define DEALER_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\)$/\2/p' "$win/include/dealer.h" 2>/dev/null | tr '\n' '.')
if [ -z "$layout" ] && [ "$macros" = "$version." ]; then
  ok "libdealer-$version-win64.zip: the CLI, the DLL and its import libraries, the static library, the header of $version, the licenses"
else
  ko "the Windows zip: missing$layout, or its header says $macros"
fi
for wheel in artifacts/*.whl; do
  "${PYTHON:-python3}" -m zipfile -e "$wheel" "unpacked/$(basename "$wheel" .whl)"
  info=$(echo unpacked/"$(basename "$wheel" .whl)"/*.dist-info)
  got=$(sed -n 's/^Version: //p' "$info/METADATA")
  if [ "$got" = "$version" ] && [ -s "$info/licenses/LICENSE" ] && [ -s "$info/licenses/THIRD-PARTY-NOTICES.md" ] &&
    grep -q '^License-Expression: MIT$' "$info/METADATA"; then
    ok "$(basename "$wheel"): version $got, License-Expression MIT, LICENSE and THIRD-PARTY-NOTICES.md"
  else
    ko "the wheel: version $got, or its licence files or licence expression missing"
  fi
  extension=$(echo unpacked/"$(basename "$wheel" .whl)"/libdealer/_native*.so)
  if [ -s "$extension" ] && ! readelf -S "$extension" | grep -q '\.debug_\|\.symtab'; then
    ok "the wheel's extension is stripped ($(wc -c <"$extension") bytes)"
  else
    ko "the wheel's extension $extension is missing or not stripped"
  fi
done
sdist=artifacts/libdealer-$version.tar.gz
if [ -f "$sdist" ]; then
  mkdir -p unpacked/sdist && tar -xzf "$sdist" -C unpacked/sdist
  tree=unpacked/sdist/libdealer-$version
  got=$(sed -n 's/^Version: //p' "$tree/PKG-INFO")
  layout=""
  for f in PKG-INFO pyproject.toml setup.py build_native.py src/libdealer/py.typed LICENSE THIRD-PARTY-NOTICES.md \
    native/Cargo.toml native/Cargo.lock native/Makefile native/build.rs native/include/dealer.h native/src/lib.rs; do
    [ -s "$tree/$f" ] || [ "$f" = src/libdealer/py.typed -a -f "$tree/$f" ] || layout+=" $f"
  done
  if [ "$got" = "$version" ] && [ -z "$layout" ]; then
    ok "libdealer-$version.tar.gz (sdist): version $got, the package, its licences, the library's sources under native/"
  else
    ko "the sdist: version $got, missing$layout"
  fi
else
  ko "no Python sdist libdealer-$version.tar.gz"
fi
leaks=""
while IFS= read -r -d '' file; do
  for path in "${build_paths[@]}"; do
    if grep -qaF -- "$path/" "$file"; then leaks+=" ${file#unpacked/} ($path)"; fi
  done
done < <(find unpacked -type f -print0)
if [ -z "$leaks" ]; then ok "no artifact names a path of the build machine (${build_paths[*]})"; else
  ko "build machine paths in:$leaks"; fi
# The packages carry no test or fixture (the sdist's neither: the package's tests stay in the
# repository; the library's Rust sources under native/src keep their unit test modules, which
# only `cargo test` compiles; the source release holds everything and is not unpacked here).
fixtures=$(cd unpacked && find . -type f | grep -v '^\./sdist/[^/]*/native/src/' | grep -E '/(tests?|fixtures?|testdata)/' | head -n 5)
if [ -z "$fixtures" ]; then ok "no package carries a test or a test fixture"; else ko "test files in the packages: $fixtures"; fi
for package in "${packages[@]}"; do
  found=$(ls artifacts/"${package}_"*.deb 2>/dev/null | head -n 1)
  if [ -z "$found" ]; then ko "no $package package"; continue; fi
  got=$(dpkg-deb -f "$found" Version)
  if [ "$got" = "$version" ]; then ok "$package $got: Cargo.toml's version"; else ko "$package is version $got, not $version"; fi
done

# 2. The Python wheel, installed where nothing can compile.
# The script the wheel and the sdist's build run: deals, evaluates in bulk, solves.
cat >use_wheel.py <<'PY'
import numpy as np
from libdealer import Deal, Session
s = Session("condition hcp(north) >= 15 && spades(north) >= 5", seed=42)
deal = next(s.deals(1))
values = s.evaluate(["hcp(north)", "spades(north)"], 2000)
assert values.shape == (2000, 2) and values.dtype == np.int32
assert values[:, 0].min() >= 15 and values[:, 1].min() >= 5
table = s.dd_table(deal, vulnerability="none")
assert all(0 <= table[seat, strain] <= 13 for seat in ("north", "south") for strain in ("S", "NT"))
print(f"{deal.pbn()} mean hcp {values[:, 0].mean():.2f} north makes {table['north', 'NT']} in NT, par {table.par_score}")
PY
wheels=(artifacts/libdealer-"$version"-*.whl)
python=${PYTHON:-python3}
if [ ! -f "${wheels[0]}" ]; then
  ko "no Python wheel libdealer-$version-*.whl"
elif ! "$python" -c 'import venv, ensurepip' >/dev/null 2>&1; then
  ko "the wheel's test needs $python with venv and ensurepip"
else
  wheel=$(basename "${wheels[0]}")
  case $wheel in
    *-cp38-abi3-manylinux_*_x86_64.whl) ok "wheel $wheel: the stable ABI from CPython 3.8, a manylinux tag" ;;
    *) ko "wheel $wheel: not cp38-abi3 manylinux" ;;
  esac
  "$python" -m venv wheel-venv
  # The environment's own folder alone on PATH: its python and pip, nothing that compiles.
  no_compiler() { env -i HOME="$work" PATH="$work/wheel-venv/bin" CC=false CXX=false "$@"; }
  if no_compiler python -m pip install -q "artifacts/$wheel" >pip.log 2>&1; then
    ok "pip install $wheel with no compiler, cargo or make on PATH"
    got=$(no_compiler python -m libdealer --version 2>&1)
    if [ "$got" = "libdealer $version (library $version)" ]; then ok "python -m libdealer --version: $got"; else
      ko "python -m libdealer --version: '$got'"; fi
    if got=$(no_compiler python use_wheel.py 2>&1); then ok "the wheel deals, evaluates in bulk and solves: $got"; else
      ko "the wheel's script" "$(printf '%s\n' "$got" | tail -3)"; fi
    got=$(no_compiler python -c 'import libdealer, os; print(os.path.dirname(libdealer.__file__))')
    case $got in "$work"/wheel-venv/*) ok "imported from the installed wheel ($got)" ;; *) ko "imported from $got" ;; esac
  else
    ko "pip install $wheel" "$(tail -3 pip.log)"
  fi
fi

# The sdist, built and installed by pip where the compiler, cargo and make are.
if [ -f "$sdist" ] && "$python" -c 'import venv, ensurepip' >/dev/null 2>&1; then
  "$python" -m venv sdist-venv
  if sdist-venv/bin/python -m pip install -q "$sdist" >sdist-pip.log 2>&1; then
    got=$(cd "$work" && sdist-venv/bin/python -m libdealer --version 2>&1)
    if [ "$got" = "libdealer $version (library $version)" ] && got=$(cd "$work" && sdist-venv/bin/python use_wheel.py 2>&1); then
      ok "pip install libdealer-$version.tar.gz builds the library from the sdist; it deals, evaluates and solves: $got"
    else
      ko "the package built from the sdist" "$(printf '%s\n' "$got" | tail -3)"
    fi
  else
    ko "pip install of the sdist" "$(tail -5 sdist-pip.log)"
  fi
fi

# 3. The Debian packages, installed.
missing=()
for tool in dpkg-deb lintian pkg-config cmake; do command -v $tool >/dev/null 2>&1 || missing+=("$tool"); done
[ ${#missing[@]} -eq 0 ] || not_run "the Debian packages' test needs ${missing[*]}"
[ "$(id -u)" = 0 ] || not_run "the Debian packages' test installs them: run it as root"
for package in "${packages[@]}"; do
  if dpkg-query -W -f '${db:Status-Status}' "$package" 2>/dev/null | grep -q installed; then
    not_run "$package is installed on this machine already (dpkg -r it first)"
  fi
done
lintian_out=$(lintian artifacts/*.deb 2>&1 | grep -v "^running with root")
errors=$(printf '%s\n' "$lintian_out" | grep -c '^[EW]:')
if [ "$errors" = 0 ]; then
  ok "lintian: no error, no warning"
else
  ko "lintian: $errors errors and warnings" "$(printf '%s\n' "$lintian_out" | grep '^[EW]:' | head -5)"
fi
remove_packages() { dpkg -r "${packages[@]}" >/dev/null 2>&1; }
server_pid=
trap '[ -z "$source_build" ] || kill -- -"$source_build" 2>/dev/null; [ -z "$server_pid" ] || kill -9 "$server_pid" 2>/dev/null;
  remove_packages; dpkg -P dealer-server >/dev/null 2>&1; rm -rf "$work"' EXIT
debs=()
for package in "${packages[@]}"; do debs+=(artifacts/"${package}_${version}_"*.deb); done
if dpkg -i "${debs[@]}" >dpkg.log 2>&1; then ok "dpkg -i ${packages[*]}"; else
  ko "dpkg -i" "$(tail -3 dpkg.log)"; finish; fi

got=$(/usr/bin/dealer --version 2>&1 | head -n 1)
case $got in *"$version"*) ok "/usr/bin/dealer --version: $got" ;; *) ko "dealer --version: '$got'" ;; esac
printf 'produce 1\naction printoneline\n' >one.dlr
printf 'condition hcp(north) >= 15\nproduce 4\naction printoneline\n' >node.dlr
got=$(/usr/bin/dealer --rng=glibc -s 1 one.dlr 2>&1 | head -n 1)
if [ "$got" = "$expected" ]; then ok "the installed dealer deals a script"; else ko "installed dealer: '$got'"; fi
for page in "1 dealer" "3 libdealer" "1 dealer-server"; do
  # shellcheck disable=SC2086  # section and name
  if [ "$(man -w $page 2>/dev/null)" = "/usr/share/man/man${page% *}/${page#* }.${page% *}.gz" ] &&
    MANWIDTH=80 man $page 2>/dev/null | grep -q "libdealer $version"; then
    ok "man $page reads the installed page"
  else
    ko "man $page" "$(man -w $page 2>&1)"
  fi
done
macros=$(sed -n 's/^#define DEALER_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\)$/\2/p' /usr/include/dealer.h | tr '\n' '.')
if [ "$macros" = "$version." ]; then ok "dealer.h's version macros say $version"; else ko "dealer.h's version macros: $macros"; fi

cflags="-O2 -Wall -Wextra -Werror -std=c99"
# shellcheck disable=SC2046  # pkg-config's flags split into words
if cc $cflags consumer.c $(pkg-config --cflags --libs dealer) -o consumer_pc >build.log 2>&1 &&
  [ "$(./consumer_pc | head -n 1)" = "$expected" ]; then
  ok "pkg-config: a program linked with libdealer.so runs (no run path, no LD_LIBRARY_PATH)"
else
  ko "pkg-config shared build" "$(tail -3 build.log)"
fi
static_libs=$(pkg-config --static --libs dealer | sed 's/-ldealer\( \|$\)/-l:libdealer.a\1/')
# shellcheck disable=SC2046,SC2086
if cc $cflags consumer.c $(pkg-config --cflags dealer) $static_libs -o consumer_static >build.log 2>&1 &&
  [ "$(./consumer_static | head -n 1)" = "$expected" ] && ! readelf -d consumer_static | grep -q 'libdealer.so'; then
  ok "pkg-config --static: a program linked with libdealer.a runs without libdealer.so"
else
  ko "pkg-config static build" "$(tail -3 build.log)"
fi
if cmake -S . -B build -DDEALER_VERSION="$version" -DCMAKE_C_FLAGS="$cflags" >build.log 2>&1 &&
  cmake --build build >>build.log 2>&1 &&
  [ "$(build/consumer_shared | head -n 1)" = "$expected" ] && [ "$(build/consumer_static | head -n 1)" = "$expected" ]; then
  ok "CMake: find_package(dealer $version) finds the installed package; dealer::dealer and dealer::dealer_static run"
else
  ko "CMake consumer" "$(tail -5 build.log)"
fi

# The deal service, installed: its configuration and unit, then started by hand (no systemd
# runs here) on a free loopback port, asked over HTTP and stopped with SIGTERM.
got=$(/usr/bin/dealer-server --version 2>&1)
case $got in "dealer-server $version (libdealer $version)") ok "/usr/bin/dealer-server --version: $got" ;;
  *) ko "dealer-server --version: '$got'" ;; esac
config=/etc/dealer-server/config.toml
defaults=$(env -i /usr/bin/dealer-server --print-config 2>&1)
from_file=$(env -i /usr/bin/dealer-server --config "$config" --print-config 2>&1)
if dpkg-query -W -f '${Conffiles}' dealer-server | grep -q "^ $config " && [ -n "$defaults" ] &&
  [ "$from_file" = "$defaults" ]; then
  ok "$config: a conffile; every setting in it is the default --print-config prints"
else
  ko "$config: not a conffile, or it differs from the defaults" "$(diff <(echo "$defaults") <(echo "$from_file") | head -4)"
fi
unit=/lib/systemd/system/dealer-server.service
if [ -f "$unit" ] && grep -qx 'ExecStart=/usr/bin/dealer-server --config /etc/dealer-server/config.toml' "$unit" &&
  [ -L /etc/systemd/system/multi-user.target.wants/dealer-server.service ]; then
  ok "the systemd unit $unit is installed and enabled, with no systemd running"
else
  ko "the systemd unit $unit: missing, another ExecStart, or not enabled"
fi
if command -v systemd-analyze >/dev/null 2>&1; then
  if verified=$(systemd-analyze verify "$unit" 2>&1); then ok "systemd-analyze verify $unit"; else
    ko "systemd-analyze verify $unit" "$(printf '%s\n' "$verified" | head -3)"; fi
fi
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
/usr/bin/dealer-server --listen "127.0.0.1:$port" 2>server.log &
server_pid=$!
health=000
for _ in $(seq 50); do
  health=$(curl -s -o health.json -w '%{http_code}' "http://127.0.0.1:$port/v1/health") && [ "$health" = 200 ] && break
  kill -0 "$server_pid" 2>/dev/null || break
  sleep 0.2
done
if [ "$health" = 200 ]; then ok "dealer-server on 127.0.0.1:$port: GET /v1/health answers 200"; else
  ko "dealer-server: GET /v1/health answered $health" "$(tail -3 server.log)"; fi
python3 -c 'import json, sys; print(json.dumps({"script": open(sys.argv[1]).read(), "seed": 5}))' node.dlr >deal.json
status=$(curl -s -o answer.json -w '%{http_code}' -H 'Content-Type: application/json' --data-binary @deal.json \
  "http://127.0.0.1:$port/v1/deal")
python3 -c 'import json, sys; sys.stdout.write(json.load(open(sys.argv[1]))["output"])' answer.json 2>/dev/null \
  | sed '/^Time needed/d' >server.deals
/usr/bin/dealer --untrusted -s 5 node.dlr 2>/dev/null | sed '/^Time needed/d' >cli-untrusted.deals
if [ "$status" = 200 ] && [ -s cli-untrusted.deals ] && cmp -s server.deals cli-untrusted.deals; then
  ok "POST /v1/deal: the output dealer --untrusted -s 5 prints ($(wc -l <cli-untrusted.deals) lines)"
else
  ko "POST /v1/deal answered $status, not what dealer --untrusted prints" "$(diff server.deals cli-untrusted.deals | head -4)"
fi
kill -TERM "$server_pid" 2>/dev/null
for _ in $(seq 50); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$server_pid" 2>/dev/null; then
  ko "dealer-server still runs 5 seconds after SIGTERM" "$(tail -3 server.log)"
  kill -9 "$server_pid" 2>/dev/null
  wait "$server_pid" 2>/dev/null
else
  wait "$server_pid"
  status=$?
  if [ "$status" = 0 ]; then ok "SIGTERM stops dealer-server with status 0"; else
    ko "dealer-server stopped with status $status after SIGTERM" "$(tail -3 server.log)"; fi
fi
server_pid=

# The npm package, installed into a fresh folder (it has no dependencies: nothing is fetched),
# used from Node with the .wasm found by the package itself, against the installed CLI.
tgz=artifacts/libdealer-$version.tgz
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  ko "the npm package's test needs node and npm"
elif [ ! -f "$tgz" ]; then
  ko "no npm package libdealer-$version.tgz"
else
  mkdir -p node-app && (cd node-app && npm init -y >/dev/null && npm install --offline --no-audit --no-fund "../$tgz" >npm.log 2>&1)
  cat >node-app/use.mjs <<'JS'
import { readFileSync } from 'node:fs';
import { init, check, generate, version } from 'libdealer';
// A load that fails can be tried again.
const failed = await init('file:///nonexistent/dealer.wasm').then(() => 'loaded', (e) => 'failed');
await init();
const script = readFileSync(process.argv[2], 'utf8');
const errors = check('condition hcp(north) >=\n', { bbo: false });
const run = generate(script, { seed: 7 });
process.stdout.write(JSON.stringify({ failed, version: version(), errors: errors.length, line: errors[0]?.line, ok: run.ok }) + '\n');
process.stdout.write(run.output);
JS
  if (cd node-app && node use.mjs ../node.dlr) >node.out 2>node.err; then
    head -n 1 node.out >node.summary
    if grep -q "\"failed\":\"failed\",\"version\":\"$version\",\"errors\":1,\"line\":2,\"ok\":true" node.summary; then
      ok "npm install libdealer-$version.tgz; in Node: init() finds its .wasm, a failed init() can be retried, check() finds the error"
    else
      ko "the npm package in Node: $(cat node.summary)"
    fi
    tail -n +2 node.out | sed '/^Time needed/d' >node.deals
    /usr/bin/dealer -s 7 node.dlr | sed '/^Time needed/d' >cli.deals
    printf 'produce 2\ncondition tricks(north, notrumps) >= 7\naction printoneline, average par(NS)\n' >dd.dlr
    /usr/bin/dealer -s 7 dd.dlr 2>/dev/null | sed '/^Time needed/d' >cli-dd.deals
    if [ -s cli.deals ] && cmp -s node.deals cli.deals; then
      ok "generate() in Node prints what the installed dealer prints ($(wc -l <cli.deals) lines)"
    else
      ko "generate() in Node differs from the CLI" "$(diff node.deals cli.deals | head -4)"
    fi
  else
    ko "the npm package in Node" "$(tail -3 node.err; tail -3 node-app/npm.log)"
  fi
  # The same package in a real browser: a plain page, and pages bundled by Vite and by webpack.
  chrome=${CHROMIUM:-$(command -v chromium || true)}
  if [ -z "$chrome" ]; then
    ko "the npm package's browser test needs chromium (tools/install_deps.sh test)"
  elif ! "$top/tools/install_wasm_tools.sh" test >wasm-tools.log 2>&1; then
    ko "the npm package's browser test needs playwright-core (tools/install_wasm_tools.sh test)" "$(tail -3 wasm-tools.log)"
  else
    /usr/bin/dealer -s 7 node.dlr | sed '/^Time needed/d' >cli.deals
    printf 'produce 2\ncondition tricks(north, notrumps) >= 7\naction printoneline, average par(NS)\n' >dd.dlr
    /usr/bin/dealer -s 7 dd.dlr 2>/dev/null | sed '/^Time needed/d' >cli-dd.deals
    rows=0
    while IFS=$'\t' read -r verdict what; do
      rows=$((rows + 1))
      if [ "$verdict" = ok ]; then ok "$what"; else ko "$what"; fi
    done < <(CHROMIUM=$chrome node "$top/tests/release_npm_browser.mjs" "$work" "$version" 2>browser.err)
    [ "$rows" -gt 0 ] || ko "the npm package in the browser" "$(tail -5 browser.err)"
  fi
fi

# The source release's offline build (started at the top).
if [ -z "$source_build" ]; then
  ko "no source release libdealer-$version-src.tar.gz"
else
  wait "$source_build"
  status=$?
  source_build=
  if [ "$status" -eq 0 ]; then
    ok "libdealer-$version-src.tar.gz builds the library, the CLI and dealer-server offline (vendored crates, an empty cargo home)"
    got=$("source/libdealer-$version/target/server/release/dealer-server" --version 2>&1)
    if [ "$got" = "dealer-server $version (libdealer $version)" ]; then
      ok "dealer-server built from the source release: $got"
    else
      ko "dealer-server built from the source release: '$got'"
    fi
    got=$("source/libdealer-$version/target/release/dealer" -s 7 node.dlr | sed '/^Time needed/d')
    if [ -n "$got" ] && [ "$got" = "$(/usr/bin/dealer -s 7 node.dlr | sed '/^Time needed/d')" ]; then
      ok "the CLI built from the source release deals as the packaged one"
    else
      ko "the CLI built from the source release deals otherwise"
    fi
  else
    ko "the source release's offline build" "$(tail -5 source-build.log)"
  fi
fi

files=$(dpkg -L "${packages[@]}" 2>/dev/null | while read -r f; do [ -f "$f" ] && echo "$f"; done)
# dpkg -r keeps the conffiles (dealer-server's configuration) until dpkg -P.
conffiles=$(dpkg-query -W -f '${Conffiles}\n' "${packages[@]}" 2>/dev/null | awk 'NF { print $1 }')
if remove_packages && [ -n "$files" ]; then
  left=$(printf '%s\n' "$files" | while read -r f; do [ -e "$f" ] && ! grep -qxF "$f" <<< "$conffiles" && echo "$f"; done)
  if [ -z "$left" ]; then ok "dpkg -r removes every file but the conffiles ($(printf '%s\n' "$files" | wc -l) files)"; else ko "left after dpkg -r: $left"; fi
else
  ko "dpkg -r"
fi
if dpkg -P dealer-server >/dev/null 2>&1 && [ ! -e /etc/dealer-server ] &&
  [ ! -L /etc/systemd/system/multi-user.target.wants/dealer-server.service ]; then
  ok "dpkg -P dealer-server removes its configuration and the unit's enabling link"
else
  ko "dpkg -P dealer-server left /etc/dealer-server or the enabling link"
fi
finish
