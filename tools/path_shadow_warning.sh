#!/bin/sh
# Called by `make install` with the folder bin/dealer goes into: warns (on stderr, never failing
# the install) when that folder comes before the folder of Debian's classic dealer on PATH, so
# that typing `dealer` would no longer start classic dealer. DEBIAN_DEALER names classic dealer's
# program (default /usr/games/dealer; the install test points it elsewhere).
bindir=$1
prefix=$(dirname "$bindir")
classic=${DEBIAN_DEALER:-/usr/games/dealer}
[ -x "$classic" ] || exit 0
classic_dir=$(dirname "$classic")
old_ifs=$IFS
IFS=:
for dir in $PATH; do
  if [ "$dir" = "$classic_dir" ]; then exit 0; fi
  if [ "$dir" = "$bindir" ]; then
    IFS=$old_ifs
    cat >&2 <<MSG
warning: $bindir/dealer comes before Debian's $classic on PATH: typing 'dealer' now starts
  libdealer's CLI, which takes DealerV2's switches and deals with ChaCha by default. Run
  $classic for classic dealer itself, or 'dealer --rng=glibc' for classic dealer's
  deals and switches byte for byte (see NOTES in dealer(1):
  man $prefix/share/man/man1/dealer.1).
MSG
    exit 0
  fi
done
exit 0
