#!/usr/bin/env bash
# A fresh Debian machine has every tool the build and the tests call (part of runner-test):
# tools/fresh_path.py check holds every command the Makefiles and the build and test scripts
# call to the packages tools/install_deps.sh installs (named there, or a Depends of one,
# recursively; a command this machine has from a package installed by hand, a Recommends or no
# package at all fails, which is the point); and a build step whose tools are missing names
# their Debian packages and the apt-get line instead of a shell's "not found" (tools/need.sh):
# DDS's WebAssembly module, make windows and the man pages, each on a PATH that lacks its tools.
# Prints ok/FAIL per check and `N passed, M failed`.
set -u
. "$(dirname "$0")/lib.sh"
[ -r /var/lib/dpkg/status ] || { echo "NOT RUN: not a Debian system"; exit 0; }
enter_work_dir

if python3 "$top/tools/fresh_path.py" check > "$work/check.txt" 2>&1; then
  ok "every command the Makefiles and scripts call comes from install_deps.sh's packages ($(tail -n 1 "$work/check.txt"))"
else
  ko "commands not from install_deps.sh's packages" "$(grep '^FAIL' "$work/check.txt" | head -n 20)"
fi

# A PATH of a fresh machine's commands without some of them.
python3 "$top/tools/fresh_path.py" make-path "$work/bin" > /dev/null
cargo_bin=${CARGO_HOME:-$HOME/.cargo}/bin
without() { # COMMAND...: a PATH of the fresh machine without these commands
  rm -rf "$work/less" && cp -a "$work/bin" "$work/less"
  for command; do rm -f "$work/less/$command"; done
  echo "$work/less:$cargo_bin"
}

# expect_named NAME PACKAGE STATUS OUTPUT: the step failed and named the package and the line.
expect_named() {
  if [ "$3" -ne 0 ] && grep -q "apt-get install -y --no-install-recommends.* $2" <<<"$4" && ! grep -q 'not found' <<<"$4"; then
    ok "$1 names the Debian package $2 and the apt-get line"
  else
    ko "$1 (exit status $3) does not name $2" "$(tail -n 5 <<<"$4")"
  fi
}

out=$(PATH=$(without llvm-ar-19 clang++-19) "$top/bindings/wasm/dds/build.sh" "$work/dds.wasm" 2>&1)
expect_named "DDS's WebAssembly module without llvm-ar-19 and clang++-19" llvm-19 $? "$out"
grep -q 'clang-19' <<<"$out" && ok "... and clang-19 too" || ko "clang-19 not named" "$out"

out=$(PATH=$(without x86_64-w64-mingw32-gcc-posix) make -C "$top" --no-print-directory windows-lib 2>&1)
expect_named "make windows without the mingw-w64 compilers" gcc-mingw-w64-x86-64-posix $? "$out"

out=$(PATH=$(without pandoc) make -C "$top" --no-print-directory -W docs/src/man/dealer.1.md \
  target/docs/man/dealer.1 2>&1)
expect_named "the man pages without pandoc" pandoc $? "$out"

finish
