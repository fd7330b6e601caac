#!/bin/sh
# Stops a build step whose commands are missing, naming their Debian packages and the line that
# installs them, instead of a shell's "not found" halfway through:
#
#   tools/need.sh 'make wasm' clang++-19 llvm-ar-19 wasm-ld-19
#
# The packages come from tools/debian-commands.txt (COMMAND PACKAGE per line). Exit status 0
# when every command is there, 1 (with the message on standard error) when one is not.
set -eu
step=${1:?usage: need.sh STEP COMMAND...}
shift
table=$(dirname "$0")/debian-commands.txt
missing=
packages=
for command in "$@"; do
  if [ "${command#/}" != "$command" ]; then [ -x "$command" ] && continue
  else command -v "$command" >/dev/null 2>&1 && continue
  fi
  package=$(awk -v c="$command" '$1 == c { print $2; exit }' "$table")
  missing="$missing
  $command (Debian package ${package:-unknown: add it to tools/debian-commands.txt})"
  case " $packages " in *" ${package:-?} "*) ;; *) [ -z "$package" ] || packages="$packages $package" ;; esac
done
[ -n "$missing" ] || exit 0
{
  echo "$step needs commands this machine does not have:$missing"
  [ -z "$packages" ] || echo "install them (as root): apt-get install -y --no-install-recommends$packages"
  echo "(tools/install_deps.sh test installs every package the build and the tests use)"
} >&2
exit 1
