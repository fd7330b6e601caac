#!/usr/bin/env python3
"""The index of the language reference the playground links to, written beside the built book.

Reads the built pages HTML_DIR/reference/*.html (mdBook writes a heading as
`<h2 id="X"><a class="header" href="#X">TEXT</a></h2>`) and writes HTML_DIR/reference-index.json:

  {"names":  {WORD: "reference/PAGE.html#ANCHOR", ...},
   "errors": [{"text": HEADING_TEXT, "href": "reference/errors.html#ANCHOR"}, ...]}

names: the lowercase identifiers named by the h2/h3 headings ("High-card points: hcp" → hcp,
"shape(seat, patterns)" → shape, "printew, printns, printside" → each of them, "Losers" →
losers). A word named by several headings goes to one where it is in code, the heading's first
word or a call's name (`word(`), else to its first heading in the book's order (the pages in the
order of docs/src/SUMMARY.md). errors: the h3 headings of reference/errors.html, each an error
message or a family of them, in the page's order, with mdBook's typographic punctuation turned
back into the characters the messages use (– → --, ’ → ') so that a message can be matched.

Fails (exit 1) when there is no reference page or errors.html has no h3 heading.

Usage: tools/reference_index.py HTML_DIR (the built book, target/docs/html)
"""

import html.parser
import json
import re
import sys
from pathlib import Path

TOP = Path(__file__).resolve().parent.parent
SUMMARY = TOP / "docs" / "src" / "SUMMARY.md"

# An identifier of the language as a heading names it, and a numbered range of them (pt0…pt9).
WORD = r"[A-Za-z][A-Za-z0-9_]*"
RANGE = re.compile(r"^([a-z]+)(\d+)(?:…|\.\.\.)\1(\d+)$")
# A heading part that is a list of words: "hcp", "dds and tricks", "printew, printns, printside".
LIST = re.compile(rf"^(?:{WORD}|[a-z]+\d+(?:…|\.\.\.)[a-z]+\d+)(?:\s*,\s*\S+)*(?:,?\s+(?:and|or)\s+\S+)?$")
# A call's name: shape(seat, patterns), shape{seat, spec}.
CALL = re.compile(r"\b([a-z][a-z0-9_]*)[({]")
# mdBook's smart punctuation, undone for matching error messages.
PLAIN = {"–": "--", "—": "---", "’": "'", "‘": "'", "“": '"', "”": '"', "…": "..."}


class Headings(html.parser.HTMLParser):
    """The h2/h3 headings of one page: (level, anchor, text, the texts of its code spans)."""

    def __init__(self):
        super().__init__()
        self.found = []
        self.current = None  # [level, anchor, text parts, code spans] while inside a heading
        self.in_code = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in ("h2", "h3") and attrs.get("id"):
            self.current = [int(tag[1]), attrs["id"], [], []]
        elif tag == "code" and self.current:
            self.in_code = True

    def handle_endtag(self, tag):
        if tag == "code":
            self.in_code = False
        elif tag in ("h2", "h3") and self.current:
            level, anchor, parts, code = self.current
            self.found.append((level, anchor, "".join(parts).strip(), code))
            self.current = None

    def handle_data(self, data):
        if self.current:
            self.current[2].append(data)
            if self.in_code:
                self.current[3].append(data.strip())


def headings(page):
    """The headings of a built page, in its order."""
    parser = Headings()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser.found


def book_order(pages):
    """The reference pages in the order of SUMMARY.md (any it does not list last, by name)."""
    listed = re.findall(r"\(reference/([\w-]+)\.md\)", SUMMARY.read_text(encoding="utf-8"))
    rank = {name: i for i, name in enumerate(listed)}
    return sorted(pages, key=lambda p: (rank.get(p.stem, len(listed)), p.name))


def expand(word):
    """A word, or the words of a numbered range (pt0…pt9 → pt0, pt1, …, pt9)."""
    m = RANGE.match(word)
    if not m:
        return [word]
    return [f"{m.group(1)}{n}" for n in range(int(m.group(2)), int(m.group(3)) + 1)]


def names_of(text, code):
    """(word, strong) for every name a heading's text gives: strong when the word is in code,
    the heading's first word or a call's name."""
    found = [(c, True) for c in code if re.fullmatch(r"[a-z][a-z0-9_]*", c)]
    found += [(w, True) for w in CALL.findall(text)]
    # Calls' arguments and qualifiers such as "(DealerV2)" or "(-M)" name nothing.
    bare = re.sub(r"\s*[({][^(){}]*[)}]", "", text)
    first = True
    for part in bare.split(":"):
        part = part.strip()
        if LIST.match(part):
            words = [w for w in re.split(r"\s*,\s*|\s+(?:and|or)\s+|,?\s+", part) if w]
            if len(words) == 1 and re.fullmatch(r"[A-Z][a-z0-9_]*", words[0]):
                words = [words[0].lower()]  # a heading of one word, capitalised: "Losers"
            elif any(re.match(r"[A-Z]", w) for w in words):
                words = []  # prose ("Files and output") or other names ("OptimumScore, ParContract")
            for w in words:
                if re.fullmatch(r"[a-z][a-z0-9_]*(?:(?:…|\.\.\.)[a-z]+\d+)?", w):
                    found += [(x, first) for x in expand(w)]
                first = False
        first = False
    return found


def plain(text):
    """A heading's text as the messages write it (mdBook's typographic punctuation undone)."""
    return "".join(PLAIN.get(c, c) for c in text)


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip().split("\n")[-1], file=sys.stderr)
        return 2
    out = Path(argv[1])
    pages = book_order(list((out / "reference").glob("*.html")))
    if not pages:
        print(f"reference_index: no page in {out / 'reference'}", file=sys.stderr)
        return 1
    names = {}  # word → (strong, href), the first strong heading winning
    errors = []
    for page in pages:
        for level, anchor, text, code in headings(page):
            href = f"reference/{page.name}#{anchor}"
            for word, strong in names_of(text, code):
                if word not in names or (strong and not names[word][0]):
                    names[word] = (strong, href)
            if page.name == "errors.html" and level == 3:
                errors.append({"text": plain(text), "href": href})
    if not errors:
        print("reference_index: reference/errors.html has no h3 heading", file=sys.stderr)
        return 1
    index = {"names": {w: href for w, (_, href) in names.items()}, "errors": errors}
    (out / "reference-index.json").write_text(
        json.dumps(index, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{out / 'reference-index.json'}: {len(names)} names, {len(errors)} errors")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
