#!/usr/bin/env python3
"""The book's C API reference, generated from include/dealer.h's comments.

Every declaration of the header (function, struct, callback type, constant) is read with the
comment above it and filed under its group: the file of src/ffi/ that defines it (sessions,
options, …). One Markdown page per group is written into OUT/capi/GROUP.md, opened by the
group file's module comment; names in backquotes become links to their entries.

Fails (exit 1, naming each) when an exported function or type has no comment, when a
declaration belongs to no group, or when the book's SUMMARY.md and the groups disagree.

Usage: tools/capi_reference.py OUT_SRC_FOLDER (a copy of docs/src; its SUMMARY.md is read)
"""

import re
import sys
from pathlib import Path

TOP = Path(__file__).resolve().parent.parent
HEADER = TOP / "include" / "dealer.h"
FFI = TOP / "src" / "ffi"

# A declaration of the header: its name, its C text, its comment (Markdown), its kind.
DEFINE = re.compile(r"^#define\s+(\w+)\s+(.*)$")
FUNCTION = re.compile(r"^[\w\s\*]*?\b(dealer_\w+)\s*\(")
TYPEDEF_FN = re.compile(r"^typedef\s+[\w\s\*]+\(\*(\w+)\)\s*\(")
OPAQUE = re.compile(r"^typedef\s+struct\s+(\w+)\s+(\w+);")


def declarations(text):
    """(name, kind, C text, comment lines) for every declaration of the header."""
    comment = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if stripped.startswith("//"):
            comment.append(re.sub(r"^// ?", "", stripped))
            i += 1
            continue
        if not stripped or stripped.startswith(("#if", "#endif", "#include", "/*", "extern", "}")) and not stripped.startswith("} "):
            if not stripped.startswith("#define"):
                comment = []
                i += 1
                continue
        m = DEFINE.match(stripped)
        if m:
            yield m.group(1), "constant", stripped, comment
            comment = []
            i += 1
            continue
        if stripped.startswith("typedef struct {") or stripped.startswith("typedef enum {"):
            j = i
            while not re.match(r"^}\s*\w+;", lines[j].strip()):
                j += 1
            name = re.match(r"^}\s*(\w+);", lines[j].strip()).group(1)
            yield name, "type", "\n".join(lines[i:j + 1]), comment
            comment = []
            i = j + 1
            continue
        m = OPAQUE.match(stripped) or TYPEDEF_FN.match(stripped)
        if m:
            name = m.group(m.lastindex)
            yield name, "type", stripped, comment
            comment = []
            i += 1
            continue
        m = FUNCTION.match(stripped)
        if m:
            j = i
            while not lines[j].rstrip().endswith(";"):
                j += 1
            yield m.group(1), "function", "\n".join(lines[i:j + 1]), comment
            comment = []
            i = j + 1
            continue
        comment = []
        i += 1


def groups():
    """Group name → (module comment, the Rust text of src/ffi/GROUP.rs)."""
    found = {}
    for path in sorted(FFI.glob("*.rs")):
        text = path.read_text()
        doc = [re.sub(r"^//! ?", "", line) for line in text.split("\n") if line.startswith("//!")]
        found[path.stem] = (doc, text)
    return found


def group_of(name, kind, rust):
    """The group that defines `name`: its `fn`, `struct`, `type` or `const` in src/ffi."""
    pattern = {
        "function": rf"\bfn\s+{name}\b",
        "type": rf"\b(struct|type|enum)\s+{name}\b",
        "constant": rf"\bconst\s+{name}\b",
    }[kind]
    owners = [g for g, (_, text) in rust.items() if g != "tests" and re.search(pattern, text)]
    return owners[0] if len(owners) == 1 else None


def rustdoc_to_markdown(lines):
    """A module comment's first paragraph (what the group is; the rest is for the library's
    own engineers) as book text: rustdoc's intra-doc links become plain code names."""
    text = "\n".join(lines).strip().split("\n\n")[0]
    text = re.sub(r"\[(`[^`]+`)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"\[(`[^`]+`)\](?!\()", r"\1", text)
    return text


def link_names(text, where, page):
    """Backquoted names of declarations become links to their entries."""
    def link(m):
        name = m.group(1)
        if name in where:
            target = f"#{name.lower()}" if where[name] == page else f"{where[name]}.md#{name.lower()}"
            return f"[`{name}`]({target})"
        return m.group(0)
    return re.sub(r"(?<!\[)`(\w+)`(?!\])", link, text)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = Path(sys.argv[1])
    rust = groups()
    problems = []
    pages = {}
    where = {}
    items = list(declarations(HEADER.read_text()))
    for name, kind, c_text, comment in items:
        group = group_of(name, kind, rust)
        if group is None:
            problems.append(f"{name}: defined in no single file of src/ffi")
            continue
        if kind != "constant" and not any(line.strip() for line in comment):
            problems.append(f"{name}: exported {kind} without a comment in include/dealer.h")
        where[name] = group
        pages.setdefault(group, []).append((name, kind, c_text, comment))
    summary = (out / "SUMMARY.md").read_text()
    listed = set(re.findall(r"\(capi/(\w+)\.md\)", summary)) - {"overview"}
    for group in sorted(set(pages) - listed):
        problems.append(f"capi/{group}.md: a group of the header that SUMMARY.md does not list")
    for group in sorted(listed - set(pages)):
        problems.append(f"capi/{group}.md: listed in SUMMARY.md but no declaration belongs to it")
    if problems:
        for problem in problems:
            print(f"capi_reference: {problem}", file=sys.stderr)
        sys.exit(1)
    titles = dict(re.findall(r"\[([^\]]+)\]\(capi/(\w+)\.md\)", summary))
    titles = {group: title for title, group in titles.items()}
    (out / "capi").mkdir(parents=True, exist_ok=True)
    order = {"function": 0, "type": 1, "constant": 2}
    for group, entries in pages.items():
        doc, _ = rust[group]
        parts = [f"# {titles[group]}", "",
                 f"*Generated from `include/dealer.h` (declarations of `src/ffi/{group}.rs`).*", "",
                 link_names(rustdoc_to_markdown(doc), where, group), ""]
        constants = []
        for name, kind, c_text, comment in sorted(entries, key=lambda e: order[e[1]]):
            if kind == "constant":
                constants.append((name, c_text, comment))
                continue
            parts += [f"## {name}", "", "```c", c_text, "```", "",
                      link_names("\n".join(comment), where, group), ""]
        if constants:
            parts += ["## Constants", ""]
            for name, c_text, comment in constants:
                parts += [f"### {name}", "", "```c", c_text, "```", ""]
                if comment:
                    parts += [link_names("\n".join(comment), where, group), ""]
        (out / "capi" / f"{group}.md").write_text("\n".join(parts).rstrip("\n") + "\n")
    functions = sum(1 for item in items if item[1] == "function")
    print(f"capi_reference: {len(pages)} pages, {functions} functions, {len(items)} declarations")


if __name__ == "__main__":
    main()
