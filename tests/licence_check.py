#!/usr/bin/env python3
"""One licence everywhere: the licence that LICENSE holds is the one every package manifest
declares and the one the documents name for libdealer (run by tests/notices_test.sh).

LICENSE's first line gives the licence and its SPDX id (`MIT License`: MIT). Then:

* each manifest declares that id: `license` in Cargo.toml and bindings/wasm/Cargo.toml, in
  bindings/python/pyproject.toml's [project], in bindings/wasm/pkg/package.json; the NuGet
  spec's `<license type="expression">` (and its licenseUrl); debian/copyright's `License:` of
  the paragraph `Files: *`, in Debian's name for it (DEP-5 calls MIT `Expat`). A manifest
  that is never published (fuzz/Cargo.toml, bindings/wasm/package.json) may declare none, but
  not another; setup.py declares none (pyproject.toml does);
* README.md's section "Licence", the introduction of THIRD-PARTY-NOTICES.md and a book page's
  licence section, where there is one, name that licence for libdealer, and their sentences
  about libdealer name no other (DDS, Apache-2.0, is named in sentences of its own);
* no sentence in README.md, the book, THIRD-PARTY-NOTICES.md or the bindings' READMEs says
  that libdealer is licensed under the Apache License.

Prints `ok: ...` or `FAIL: ...` per check, and exits 1 when one failed.
"""

import json
import re
import sys
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

TOP = Path(__file__).resolve().parent.parent

#: LICENSE's first line: the licence's SPDX id, its name in prose (a regular expression) and
#: its name in debian/copyright (DEP-5's short name).
KNOWN = {
    "MIT License": ("MIT", r"\bMIT\b", "Expat"),
}
#: Names of the other licences that must not be given as libdealer's.
OTHERS = r"Apache|\bGPL|\bBSD\b|Unlicense|\bMPL\b"

failed = 0


def check(good, what, why=""):
    global failed
    if good:
        print(f"ok: {what}")
    else:
        failed += 1
        print(f"FAIL: {what}{f' ({why})' if why else ''}")


def text(path):
    return (TOP / path).read_text(encoding="utf-8")


def clauses(prose):
    """The sentences and clauses of some Markdown prose: split at `.`, `;` and `:` followed by
    a space, at table cells and at blank lines; line breaks inside a paragraph are spaces."""
    prose = re.sub(r"\n\s*\n", "\n\n", prose)
    out = []
    for paragraph in prose.split("\n\n"):
        paragraph = " ".join(paragraph.split())
        out += [c.strip() for c in re.split(r"[.;:](?:\s|$)|\|", paragraph) if c.strip()]
    return out


def section(markdown, heading):
    """The body of the section whose heading matches `heading` (a regular expression), up to
    the next heading of the same or a higher level; None when there is no such section."""
    m = re.search(rf"^(#+)\s+(?:{heading})\s*$", markdown, re.M)
    if not m:
        return None
    level = len(m.group(1))
    rest = markdown[m.end():]
    end = re.search(rf"^#{{1,{level}}}\s", rest, re.M)
    return rest[:end.start()] if end else rest


def names_licence(where, prose, spdx, prose_name):
    """`prose` names the licence for libdealer and its sentences about libdealer name no other."""
    about = [c for c in clauses(prose) if re.search(r"libdealer", c, re.I)]
    check(any(re.search(prose_name, c) for c in about), f"{where} says libdealer is under {spdx}",
          "no sentence about libdealer names it")
    wrong = [c for c in about if re.search(OTHERS, c)]
    check(not wrong, f"{where} gives libdealer no other licence", "; ".join(wrong))


first = text("LICENSE").split("\n", 1)[0].strip()
check(first in KNOWN, f"LICENSE's first line names a known licence ({first!r})")
if first not in KNOWN:
    sys.exit(1)
spdx, prose_name, debian_name = KNOWN[first]

# The manifests.
for path, required in (("Cargo.toml", True), ("bindings/wasm/Cargo.toml", True), ("fuzz/Cargo.toml", False)):
    got = tomllib.loads(text(path)).get("package", {}).get("license")
    check(got == spdx if required or got is not None else True,
          f"{path}: license = {got!r}" if got is not None or required else f"{path}: declares no licence (not published)",
          f"wanted {spdx!r}")
got = tomllib.loads(text("bindings/python/pyproject.toml")).get("project", {}).get("license")
check(got == spdx, f"bindings/python/pyproject.toml: [project] license = {got!r}", f"wanted {spdx!r}")
check(not re.search(r"\blicen[cs]e\s*=", text("bindings/python/setup.py")),
      "bindings/python/setup.py declares no licence of its own (pyproject.toml does)")
for path, required in (("bindings/wasm/pkg/package.json", True), ("bindings/wasm/package.json", False)):
    got = json.loads(text(path)).get("license")
    check(got == spdx if required or got is not None else True,
          f"{path}: license {got!r}" if got is not None or required else f"{path}: declares no licence (private)",
          f"wanted {spdx!r}")
nuspec = ET.fromstring(text("bindings/csharp/Libdealer.nuspec.in"))
ns = {"n": nuspec.tag[1:].split("}")[0]} if nuspec.tag.startswith("{") else {"n": ""}
meta = nuspec.find("n:metadata", ns)
licence = meta.find("n:license", ns)
url = meta.find("n:licenseUrl", ns)
check(licence is not None and licence.get("type") == "expression" and licence.text == spdx,
      f"bindings/csharp/Libdealer.nuspec.in: <license type=\"expression\">"
      f"{licence.text if licence is not None else None}</license>", f"wanted {spdx}")
check(url is None or url.text.rstrip("/").endswith("/" + spdx),
      f"bindings/csharp/Libdealer.nuspec.in: <licenseUrl> {url.text if url is not None else None}")
copyright_ = text("debian/copyright")
paragraph = next((p for p in re.split(r"\n\s*\n", copyright_) if re.search(r"^Files:\s*\*\s*$", p, re.M)), "")
got = re.search(r"^License:\s*(\S+)", paragraph, re.M)
got = got.group(1) if got else None
check(got == debian_name, f"debian/copyright: Files: * has License: {got} (Debian's name for {spdx})",
      f"wanted {debian_name}")

# The documents that state libdealer's licence.
readme = text("README.md")
body = section(readme, "Licen[cs]e")
check(body is not None, "README.md has a section Licence")
if body is not None:
    names_licence("README.md, section Licence", body, spdx, prose_name)
notices = text("THIRD-PARTY-NOTICES.md")
names_licence("THIRD-PARTY-NOTICES.md, introduction", notices.split("\n## ", 1)[0], spdx, prose_name)
book = sorted((TOP / "docs" / "src").rglob("*.md"))
for page in book:
    body = section(page.read_text(encoding="utf-8"), r"Licen[cs]e|LICEN[CS]E|COPYRIGHT")
    if body is not None:
        names_licence(f"{page.relative_to(TOP)}, section Licence", body, spdx, prose_name)

# No document calls libdealer Apache-licensed.
documents = [TOP / "README.md", TOP / "THIRD-PARTY-NOTICES.md", *book, *sorted((TOP / "bindings").glob("*/README*.md")),
             TOP / "bindings" / "wasm" / "pkg" / "README.md"]
APACHE = re.compile(r"libdealer\b.*\b(?:licen[cs]ed|released|distributed|available|itself is)\b.*\bApache", re.I)
wrong = [f"{d.relative_to(TOP)}: {c}" for d in documents for c in clauses(d.read_text(encoding="utf-8"))
         if APACHE.search(c) and "DDS" not in c]
check(not wrong, f"no sentence in {len(documents)} documents says libdealer is under the Apache License",
      "; ".join(wrong))

sys.exit(1 if failed else 0)
