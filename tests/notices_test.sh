#!/usr/bin/env bash
# Checks THIRD-PARTY-NOTICES.md against the crates really linked into the library (cargo tree,
# normal dependencies without proc-macros, this target): each one is in the table with its
# version and license, and the table names no crate that is no longer linked. Then
# tests/licence_check.py: the licence in LICENSE is the one every package manifest declares and
# the one README.md, THIRD-PARTY-NOTICES.md and the book name for libdealer.
set -u
. "$(dirname "$0")/lib.sh"
cd "$top" || exit 1
target=$(rustc -vV | sed -n 's/^host: //p')
linked=$(cargo tree --locked -e normal,no-proc-macro --prefix none --target "$target" -f '{p} | {l}' \
  | grep -v '^dealer v' | sed 's/ (\*)$//; s/ v\([^ ]*\) |/ | \1 |/' | sort -u)
table=$(sed -n 's/^| \([a-z][^|]*\) | \([0-9][^|]*\) | \([^|]*\) |$/\1 | \2 | \3/p' THIRD-PARTY-NOTICES.md | sort -u)
while IFS= read -r crate; do
  if grep -qxF "$crate" <<< "$table"; then passed=$((passed + 1))
  else echo "FAIL: THIRD-PARTY-NOTICES.md lacks the row: | $crate |"; failed=$((failed + 1)); fi
done <<< "$linked"
while IFS= read -r row; do
  if ! grep -qxF "$row" <<< "$linked"; then
    echo "FAIL: THIRD-PARTY-NOTICES.md names a crate that is not linked: | $row |"; failed=$((failed + 1))
  fi
done <<< "$table"
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
