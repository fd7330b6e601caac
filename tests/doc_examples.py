#!/usr/bin/env python3
"""The book's doc test: every example in docs/src is run and its shown output compared.

The convention (docs/src/contributing.md says the same for writers):

* A fenced code block whose first line is a comment naming a file is that file's text:
  `# name.dlr` (a dealer script), `/* name.c */` or `// name.c` (C), `# name.py` (Python),
  `// name.mjs` (JavaScript), `// name.cs` (C#), `{ name.pas }` (Pascal), `# name.sh` (shell). The page's files are written into one scratch
  folder per page, in the order they appear, before the page's commands run.
* A ```console block is a session: each line starting with `$ ` is a command (run by bash in the
  page's folder), the lines after it up to the next `$ ` are what it prints: its standard output,
  then its standard error. A command ending in `# exit N` must exit with status N (else with 0).
  A line `...` in the shown output stands for any number of lines. "Time needed" figures are
  compared as digits of any value. A session may not run or show a program at a path that some
  machines have and others lack (/usr/local/games/..., /usr/games/...): it fails.
* ```sh blocks (installation commands and the like) are shown, never run.

The commands find `dealer`, `cc` with `pkg-config --cflags --libs dealer`, and `python3` with
`import libdealer`, from a `make install` into a scratch prefix (and the Python binding's test
virtual environment, made when missing); `$LIBDEALER_SOURCE` is the source tree (for the C# and
Pascal bindings' files, `mcs ... $LIBDEALER_SOURCE/bindings/csharp/Dealer.cs`), and `import ...
from 'libdealer'` in JavaScript finds the WebAssembly package `make wasm` built (each page's
folder has it as node_modules/libdealer).

Usage: tests/doc_examples.py [--show] [PAGE.md ...]. --show prints each command's real output
(for writing a page); without it, prints `ok:`/`FAIL:` per command and `N passed, M failed`.
"""

import difflib
import fcntl
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TOP = Path(__file__).resolve().parent.parent
DOCS = TOP / "docs" / "src"
FENCE = re.compile(r"^(\s*)(```+)\s*([^`\s]*)(.*)$")
FILE_NAME = re.compile(r"^\s*(?:#|//|/\*|\{)\s*([\w.-]+\.(?:dlr|c|py|mjs|cs|pas|sh|txt|pbn|lin|dli))\s*(?:\*/|\})?\s*$")
TIME_NEEDED = re.compile(r"(Time needed\s+)[\d.]+")
EXIT = re.compile(r"\s+#\s*exit\s+(\d+)\s*$")
#: Paths whose programs some machines have and others do not (DealerV2's DealerServer and dop,
#: classic dealer): a session that runs or shows one prints what the machine holds.
MACHINE_PATH = re.compile(r"/usr/(?:local/)?games/")


def blocks(text):
    """The fenced blocks of a page: (info word, lines, line number of the fence)."""
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, ticks, info = m.group(1), m.group(2), m.group(3)
        start = i + 1
        j = start
        while j < len(lines) and not lines[j].strip().startswith(ticks):
            j += 1
        body = [line[len(indent):] if line.startswith(indent) else line for line in lines[start:j]]
        yield info.split(",")[0], body, start
        i = j + 1


def sessions(body):
    """A console block's commands with their shown output."""
    commands = []
    for line in body:
        if line.startswith("$ "):
            commands.append([line[2:], []])
        elif commands:
            commands[-1][1].append(line)
    return commands


def normalise(lines):
    return [TIME_NEEDED.sub(r"\g<1>N", line.rstrip()) for line in lines]


def matches(shown, real):
    """Whether the real output lines fit the shown ones (`...` stands for any lines)."""
    if not shown:
        return not real
    if shown[0] == "...":
        return any(matches(shown[1:], real[k:]) for k in range(len(real) + 1))
    return bool(real) and shown[0] == real[0] and matches(shown[1:], real[1:])


def environment(scratch):
    """PATH, pkg-config and Python set up as the pages assume."""
    prefix = scratch / "prefix"
    # One `make install` at a time in this checkout (two at once would race on the library's
    # archive); the lock is dropped with the file.
    (TOP / "target").mkdir(exist_ok=True)
    with open(TOP / "target" / ".doc-examples.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        made = subprocess.run(["make", "-s", "--no-print-directory", "install", f"PREFIX={prefix}"], cwd=TOP,
                              capture_output=True, text=True)
    if made.returncode != 0:
        sys.exit(f"make install failed:\n{made.stdout}{made.stderr}")
    venv = TOP / "target" / "python-venv"
    python = venv / "bin" / "python"
    has_binding = python.exists() and subprocess.run([str(python), "-c", "import libdealer"],
                                                     capture_output=True).returncode == 0
    if not has_binding:
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check",
                        str(TOP / "bindings" / "python")], check=True)
    env = dict(os.environ)
    lib = next(p for p in (prefix / "lib").rglob("libdealer.so")).parent
    env["PATH"] = f"{prefix}/bin:{venv}/bin:{env['PATH']}"
    env["PKG_CONFIG_PATH"] = str(lib / "pkgconfig")
    env["LD_LIBRARY_PATH"] = str(lib)
    env["LC_ALL"] = "C.UTF-8"
    env["LIBDEALER_SOURCE"] = str(TOP)
    env.pop("DEALER_OPTIONS", None)
    return env


def run_page(page, env, scratch, show, tally):
    text = page.read_text()
    folder = scratch / page.relative_to(DOCS).with_suffix("").as_posix().replace("/", "_")
    folder.mkdir(parents=True, exist_ok=True)
    package = TOP / "bindings" / "wasm" / "pkg"
    if (package / "package.json").exists():
        (folder / "node_modules").mkdir(exist_ok=True)
        (folder / "node_modules" / "libdealer").symlink_to(package)
    found = list(blocks(text))
    for info, body, _ in found:
        if body and info != "console":
            m = FILE_NAME.match(body[0])
            if m:
                (folder / m.group(1)).write_text("\n".join(body).rstrip("\n") + "\n")
    for info, body, line in found:
        if info != "console":
            continue
        for command, shown in sessions(body):
            where = f"{page.relative_to(TOP)}:{line}: $ {command}"
            fixed = [text for text in [command, *shown] if MACHINE_PATH.search(text)]
            if fixed:
                tally[1] += 1
                print(f"FAIL: {where} (names a path whose program some machines have: {fixed[0]!r};"
                      " give the path with an option instead)")
                continue
            status = 0
            m = EXIT.search(command)
            if m:
                status = int(m.group(1))
                command = command[:m.start()]
            started = time.monotonic()
            result = subprocess.run(["bash", "-c", command], cwd=folder, env=env, capture_output=True, text=True,
                                    timeout=300)
            seconds = time.monotonic() - started
            real = normalise((result.stdout + result.stderr).rstrip("\n").split("\n"))
            if real == [""]:
                real = []
            want = normalise(shown)
            while want and want[-1] == "":
                want.pop()
            if show:
                print(f"--- {where} (exit {result.returncode})")
                print("\n".join(real))
                continue
            if result.returncode == status and matches(want, real):
                tally[0] += 1
                print(f"ok: {where} ({seconds:.2f} s)")
            else:
                tally[1] += 1
                print(f"FAIL: {where} (exit {result.returncode}, wanted {status})")
                for diff in difflib.unified_diff(want, real, "shown", "printed", lineterm="", n=2):
                    print("    " + diff)


def main():
    args = sys.argv[1:]
    show = "--show" in args
    pages = [Path(a).resolve() for a in args if a != "--show"] or sorted(DOCS.rglob("*.md"))
    tally = [0, 0]
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        env = environment(scratch)
        for page in pages:
            run_page(page, env, scratch, show, tally)
    if not show:
        print(f"{tally[0]} passed, {tally[1]} failed")
        sys.exit(1 if tally[1] else 0)


if __name__ == "__main__":
    main()
