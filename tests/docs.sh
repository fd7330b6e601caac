#!/usr/bin/env bash
# The manual's test (`make docs-test`, after `make docs` built the book and the man pages with no
# warning): the man pages read by man(1) with its warnings on; dealer(1) names every switch and
# long option the CLI's help lists, libdealer(3) every function of the header; every link of the
# book (between pages and to headings) resolves, checked by linkchecker on the built HTML with
# no network; and every example of the book runs and prints what its page shows
# (tests/doc_examples.py); and the playground links its errors and keywords to the reference
# (tests/playground_manual_links.mjs); the README stays a front page (at most 250 lines, its
# links into the book resolve). Prints ok:/FAIL: per check and `N passed, M failed`.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
out=target/docs
passed=0
failed=0
ok() { echo "ok: $1"; passed=$((passed + 1)); }
fail() { echo "FAIL: $1"; failed=$((failed + 1)); }

for page in $out/man/dealer.1 $out/man/libdealer.3 $out/man/dealer-server.1; do
  warnings=$(MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null)
  if [ -s "$page" ] && [ -z "$warnings" ]; then ok "man reads $page with no warning"; else fail "man $page: $warnings"; fi
done

# The README is a front page into the book: short, and every page it links to exists.
lines=$(wc -l < README.md)
missing=$(grep -o '](docs/src/[^)#]*' README.md | sed 's/^](//' | sort -u | while read -r page; do [ -f "$page" ] || echo " $page"; done)
if [ "$lines" -le 250 ] && [ -z "$missing" ]; then ok "README: $lines lines, its links into the book resolve"
else fail "README: $lines lines (at most 250); missing pages:$missing"; fi

# Every long option of `dealer --help` (both dialects) and every switch of -h is in dealer(1).
missing=
for dialect in v2 classic; do
  for option in $(target/release/dealer --dialect=$dialect --help 2>&1 | grep -o -- '--[a-z][a-z-]*' | sort -u); do
    grep -q -- "\\\\$option" docs/src/man/dealer.1.md || missing="$missing $option"
  done
done
for switch in $(target/release/dealer -h 2>&1 | grep -o '^  -[A-Za-z0-9]' | tr -d ' '); do
  grep -q -- "\*\*$switch\*\*" docs/src/man/dealer.1.md || missing="$missing $switch"
done
if [ -z "$missing" ]; then ok "dealer(1) names every switch and long option"; else fail "dealer(1) lacks:$missing"; fi

# dealer-server(1) names every option of its usage and every environment variable it reads
# (server/src/main.rs, server/src/config.rs: read from the source, the service need not be built).
missing=
for name in $(sed -n '/^fn usage/,/^}/p' server/src/main.rs | grep -o -- '--[a-z][a-z-]*' | sort -u) \
  $(grep -o '("DEALER_SERVER_[A-Z_]*"' server/src/config.rs | tr -d '("'); do
  grep -qF -- "**$(sed 's/^--/\\--/' <<< "$name")**" docs/src/man/dealer-server.1.md || missing="$missing $name"
done
if [ -z "$missing" ]; then ok "dealer-server(1) names every option and environment variable"; else fail "dealer-server(1) lacks:$missing"; fi

missing=
for function in $(grep -o '^[a-z].*[ *]\(dealer_[a-z0-9_]*\)(' include/dealer.h | grep -o 'dealer_[a-z0-9_]*'); do
  grep -q "\*\*$function\*\*" docs/src/man/libdealer.3.md || missing="$missing $function"
done
if [ -z "$missing" ]; then ok "libdealer(3) names every function of dealer.h"; else fail "libdealer(3) lacks:$missing"; fi

# Links: linkchecker reads the built book from files (it drops root's rights to nobody, so it
# gets a copy it can read), starting from every page (mdBook's sidebar is written by a script,
# which linkchecker does not run), follows every link between pages and checks every #anchor
# (a missing anchor is a warning to linkchecker, a failure here); the web is left alone, and so
# is print.html (every page again in one file: its thousand anchors would each be a reading of
# the whole book).
if command -v linkchecker >/dev/null; then
  copy=$(mktemp -d)
  cp -r $out/html "$copy/html" && chmod -R a+rX "$copy"
  printf '[AnchorCheck]\n' > "$copy/linkcheckerrc"
  report=$(cd "$copy/html" && find . -name '*.html' ! -name print.html | sort | sed "s|^\.|file://$copy/html|" |
    xargs linkchecker --config "$copy/linkcheckerrc" --no-status --ignore-url '^(https?|mailto):' \
      --ignore-url '\.(css|js|woff2?|png|svg|ttf|eot|ico|json)$' --ignore-url 'print\.html' 2>&1)
  broken=$(echo "$report" | grep -c -E '^Result +Error|^Warning .*Anchor')
  if [ "$broken" -eq 0 ] && echo "$report" | grep -q ' 0 errors found'; then
    ok "the book's links and anchors ($(echo "$report" | grep -o '[0-9]* links in [0-9]* URLs' | head -n 1))"
  else
    fail "the book's links: $broken broken"
    echo "$report" | grep -E -A1 -B6 '^Result +Error|^Warning .*Anchor' | grep -E '^(URL|Parent URL|Result|Warning)|not found' | head -n 80 | sed 's/^/  /'
  fi
  rm -rf "$copy"
else
  fail "linkchecker is not installed (apt-get install linkchecker)"
fi

if python3 tests/doc_examples.py > $out/doc_examples.log 2>&1; then
  ok "every example of the book: $(tail -n 1 $out/doc_examples.log)"
else
  grep -A12 '^FAIL' $out/doc_examples.log | head -n 120
  fail "the book's examples: $(tail -n 1 $out/doc_examples.log)"
fi

# The playground's links into the manual (tests/playground_manual_links.mjs): the book's
# reference-index.json, and the playground in headless Chromium with the book beside it (needs
# `make wasm`, and node with playwright-core from tools/install_wasm_tools.sh test).
chrome=${CHROMIUM:-$(command -v chromium || true)}
if ! command -v node >/dev/null || [ -z "$chrome" ] || [ ! -d bindings/wasm/node_modules/playwright-core ]; then
  fail "the playground's manual links: node, chromium and playwright-core are needed (tools/install_wasm_tools.sh test)"
elif CHROMIUM=$chrome node tests/playground_manual_links.mjs > $out/playground_manual_links.log 2>&1; then
  ok "the playground links to the manual: $(tail -n 1 $out/playground_manual_links.log)"
else
  grep -v '^PASS' $out/playground_manual_links.log | head -n 40 | sed 's/^/  /'
  fail "the playground's manual links: $(tail -n 1 $out/playground_manual_links.log)"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
