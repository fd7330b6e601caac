#!/bin/sh
# Writes debian/changelog for version $1 (Cargo.toml's, the one place the version comes from),
# dated by the last commit (so that the same commit gives the same packages), else now.
set -eu
version=$1
date=$(git log -1 --format=%cD 2>/dev/null || date -R)
cat <<CHANGELOG
libdealer ($version) unstable; urgency=medium

  * Release $version: see CHANGELOG.md.

 -- libdealer maintainers <maintainers@users.noreply.a-seed-d2b1b466.example>  $date
CHANGELOG
