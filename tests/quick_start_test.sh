#!/usr/bin/env bash
# The README's Quick start and the book's Installing page name the Debian packages `make` and
# `make test` install: their two lists ("Debian packages for the build:" and "Debian packages for
# the tests:", each word in backquotes) must be exactly what tools/install_deps.sh installs — its `build` and `test`
# variables and the packages it adds when a command is missing (`missing="$missing …"`) — in
# both directions. Prints ok/FAIL per check and 'N passed, M failed'; exit status 1 on a
# difference.
set -u
. "$(dirname "$0")/lib.sh"
readme=$top/README.md
book_page=$top/docs/src/getting-started/install.md
deps=$top/tools/install_deps.sh

check() { # name, condition result, detail
  if [ "$2" = 0 ]; then ok "$1"; else ko "$1" "${3:-}"; fi
}

# readme_list HEADING [FILE]: the backquoted words of the list item that starts with "- HEADING"
# (the item goes on over its indented lines) in the README's Quick start, or anywhere in FILE,
# one per line, sorted.
readme_list() {
  awk -v heading="- $1" -v whole="${2:+1}" '
    /^## / { quick = whole || ($0 ~ /^## Quick start/) }
    !quick && !whole { next }
    index($0, heading) == 1 { item = 1; print; next }
    item && /^  / { print; next }
    { item = 0 }' "${2:-$readme}" | sed 's/^- [^:]*://' | grep -o '`[^`]*`' | tr -d '`' | sort -u
}

# deps_variable NAME: the words of install_deps.sh's `NAME="…"` (over continued lines), without
# the variables it names, one per line, sorted.
deps_variable() {
  awk -v start="$1=\"" '
    index($0, start) == 1 { on = 1; sub(/^[^"]*"/, "") }
    on { line = $0; if (sub(/".*$/, "", line)) { print line; on = 0 } else print line }' "$deps" \
    | tr -d '\\' | tr ' ' '\n' | grep -v -e '^\$' -e '^$' | sort -u
}

# deps_when_missing: the packages install_deps.sh adds when a command or module is missing.
deps_when_missing() {
  sed -n 's/.*missing="\$missing \([^"]*\)".*/\1/p' "$deps" | tr ' ' '\n' | grep -v -e '^\$' -e '^$' | sort -u
}

differ() { # differ WANT HAVE: "missing: …; extra: …" or nothing
  local missing extra
  missing=$(comm -23 <(echo "$1") <(echo "$2") | grep -v '^$' | paste -sd ' ')
  extra=$(comm -13 <(echo "$1") <(echo "$2") | grep -v '^$' | paste -sd ' ')
  [ -z "$missing$extra" ] || echo "not in the README: ${missing:-none}; not installed: ${extra:-none}"
}

build_readme=$(readme_list "Debian packages for the build:")
test_readme=$(readme_list "Debian packages for the tests:")
build_deps=$(deps_variable build)
test_deps=$( (deps_variable test; deps_when_missing) | sort -u)

[ -n "$build_deps" ] && [ -n "$test_deps" ]
check "install_deps.sh's lists are read" $?
[ -n "$build_readme" ] && [ -n "$test_readme" ]
check "the Quick start's lists are found" $?
why=$(differ "$build_deps" "$build_readme")
[ -z "$why" ]
check "the build packages: README = install_deps.sh build" $? "$why"
why=$(differ "$test_deps" "$test_readme")
[ -z "$why" ]
check "the test packages: README = install_deps.sh test (beside the build's)" $? "$why"
why=$(differ "$build_deps" "$(readme_list "Debian packages for the build:" "$book_page")")
[ -z "$why" ]
check "the build packages: the book's Installing page = install_deps.sh build" $? "$why"
why=$(differ "$test_deps" "$(readme_list "Debian packages for the tests:" "$book_page")")
[ -z "$why" ]
check "the test packages: the book's Installing page = install_deps.sh test" $? "$why"

finish
