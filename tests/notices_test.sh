#!/usr/bin/env bash
# Checks THIRD-PARTY-NOTICES.md against the crates really linked into the library and into the
# deal service dealer-server (server/, a workspace of its own) (cargo tree, normal dependencies
# without proc-macros, this target): each one is in its section's table ("Rust crates linked
# into the library", "Rust crates linked into dealer-server") with its version and license, and
# the tables name no crate that is no longer linked. Then
# tests/licence_check.py: the licence in LICENSE is the one every package manifest declares and
# the one README.md, THIRD-PARTY-NOTICES.md and the book name for libdealer.
set -u
. "$(dirname "$0")/lib.sh"
cd "$top" || exit 1
target=$(rustc -vV | sed -n 's/^host: //p')
# linked MANIFEST PACKAGE: the crates linked into PACKAGE, as the tables' rows.
linked() {
  cargo tree --locked --manifest-path "$1" -e normal,no-proc-macro --prefix none --target "$target" -f '{p} | {l}' \
    | grep -v "^$2 v" | sed 's/ (\*)$//; s/ v\([^ ]*\) |/ | \1 |/' | sort -u
}
# table HEADING: the rows of the table in THIRD-PARTY-NOTICES.md's section "## HEADING".
table() {
  awk -v heading="## $1" '/^## / { on = ($0 == heading) } on' THIRD-PARTY-NOTICES.md \
    | sed -n 's/^| \([a-z][^|]*\) | \([0-9][^|]*\) | \([^|]*\) |$/\1 | \2 | \3/p' | sort -u
}
# compare WHAT LINKED TABLE
compare() {
  if [ -z "$2" ] || [ -z "$3" ]; then
    echo "FAIL: no crates read for $1 (cargo tree, or the section of THIRD-PARTY-NOTICES.md)"; failed=$((failed + 1))
  fi
  while IFS= read -r crate; do
    [ -n "$crate" ] || continue
    if grep -qxF "$crate" <<< "$3"; then passed=$((passed + 1))
    else echo "FAIL: THIRD-PARTY-NOTICES.md lacks the row for $1: | $crate |"; failed=$((failed + 1)); fi
  done <<< "$2"
  while IFS= read -r row; do
    [ -n "$row" ] || continue
    if ! grep -qxF "$row" <<< "$2"; then
      echo "FAIL: THIRD-PARTY-NOTICES.md names a crate that is not linked into $1: | $row |"; failed=$((failed + 1))
    fi
  done <<< "$3"
}
compare "the library" "$(linked Cargo.toml dealer)" "$(table 'Rust crates linked into the library')"
compare "dealer-server" "$(linked server/Cargo.toml dealer-server)" "$(table 'Rust crates linked into dealer-server')"
# Every row of the file is in one of those two sections.
rows=$(sed -n 's/^| \([a-z][^|]*\) | \([0-9][^|]*\) | \([^|]*\) |$/&/p' THIRD-PARTY-NOTICES.md | wc -l)
in_sections=$(( $(table 'Rust crates linked into the library' | wc -l) + $(table 'Rust crates linked into dealer-server' | wc -l) ))
if [ "$rows" -eq "$in_sections" ]; then passed=$((passed + 1)); else
  echo "FAIL: THIRD-PARTY-NOTICES.md has $rows crate rows, $in_sections of them in the two sections"; failed=$((failed + 1)); fi
for file in LICENSE LICENSES/Apache-2.0.txt; do
  if [ -s "$file" ]; then passed=$((passed + 1)); else echo "FAIL: $file is missing"; failed=$((failed + 1)); fi
done
licence=$(python3 tests/licence_check.py 2>&1)
status=$?
echo "$licence"
rows=$(grep -c '^ok:' <<< "$licence")
passed=$((passed + rows))
rows=$(grep -c '^FAIL:' <<< "$licence")
failed=$((failed + rows))
if [ "$status" -ne 0 ] && [ "$rows" -eq 0 ]; then
  echo "FAIL: tests/licence_check.py exited with status $status"; failed=$((failed + 1))
fi
finish
