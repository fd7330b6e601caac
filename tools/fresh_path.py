#!/usr/bin/env python3
"""The commands a fresh Debian machine has once `tools/install_deps.sh test` has run.

A fresh machine holds the base system (Debian's Essential and required packages) and what
`apt-get install --no-install-recommends` of install_deps.sh's packages brings: those packages
and their Depends and Pre-Depends, recursively (never a Recommends). A command that this
machine has from any other source (a package installed by hand, a Recommends, /usr/local, a
version manager's shim) is one a new user's machine does not have.

    tools/fresh_path.py packages        the packages of that closure, one per line
    tools/fresh_path.py make-path DIR   DIR/ becomes a folder of links to the closure's
                                        commands, the PATH of a fresh machine (tests/run_all.sh)
    tools/fresh_path.py check           every external command the Makefiles and the build and
                                        test scripts call is one of the closure's commands, or
                                        Rust's toolchain (rustup's folder), or the project's own;
                                        prints ok/FAIL per command and exits 1 on any FAIL

Only installed packages are read (/var/lib/dpkg/status and the file lists of
/var/lib/dpkg/info), so this needs no network and takes a second.
"""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

TOP = Path(__file__).resolve().parent.parent
DPKG = Path("/var/lib/dpkg")
# The folders of a Debian root's PATH (/bin and /sbin are links to these on Debian 12).
SYSTEM_BIN_DIRS = ["/usr/sbin", "/usr/bin", "/sbin", "/bin"]
COMMAND_TABLE = TOP / "tools" / "debian-commands.txt"


def installed_packages():
    """Installed packages from dpkg's status file: name -> fields (Depends, Provides, …)."""
    packages = {}
    for stanza in (DPKG / "status").read_text(encoding="utf-8", errors="replace").split("\n\n"):
        fields = {}
        key = None
        for line in stanza.splitlines():
            if line.startswith((" ", "\t")) and key:
                fields[key] += "\n" + line
            elif ":" in line:
                key, _, value = line.partition(":")
                fields[key] = value.strip()
        if fields.get("Status", "").endswith(" installed") and "Package" in fields:
            packages[fields["Package"]] = fields
    return packages


def providers(packages):
    """Virtual package name -> the installed packages that provide it."""
    provided = {}
    for name, fields in packages.items():
        for item in split_relations(fields.get("Provides", "")):
            provided.setdefault(item, []).append(name)
    return provided


def split_relations(text):
    """Package names of a relation field with no alternatives (Provides)."""
    return [relation_name(part) for part in text.split(",") if part.strip()]


def relation_name(relation):
    """`libc6 (>= 2.34)` or `python3:any` -> the bare package name."""
    return re.sub(r"\(.*?\)|\[.*?\]|<.*?>", "", relation).strip().split(":")[0]


def install_deps_packages():
    """The packages `tools/install_deps.sh test` installs (its own list, `install_deps.sh list`)."""
    out = subprocess.run([str(TOP / "tools" / "install_deps.sh"), "list"], check=True,
                         capture_output=True, text=True).stdout
    return out.split()


def closure(packages):
    """The installed packages a fresh machine has: the base system and install_deps.sh's
    packages, with their Depends and Pre-Depends recursively (the first installed alternative
    of each `a | b`; a virtual package by its installed providers)."""
    provided = providers(packages)
    roots = [name for name, fields in packages.items()
             if fields.get("Essential") == "yes" or fields.get("Priority") == "required"]
    roots += [name for name in install_deps_packages() if name in packages]
    seen = set()
    todo = list(roots)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        fields = packages[name]
        for field in ("Pre-Depends", "Depends"):
            for group in fields.get(field, "").split(","):
                if not group.strip():
                    continue
                for alternative in group.split("|"):
                    wanted = relation_name(alternative)
                    found = [wanted] if wanted in packages else provided.get(wanted, [])
                    if found:
                        todo.extend(found)
                        break
    return seen


def package_files(name):
    """The paths dpkg lists for an installed package, /bin and /sbin written as /usr/bin and
    /usr/sbin (Debian 12's merged /usr)."""
    for candidate in (DPKG / "info" / f"{name}.list", *sorted((DPKG / "info").glob(f"{name}:*.list"))):
        if candidate.exists():
            return {merged(line) for line in candidate.read_text(errors="replace").splitlines() if line}
    return set()


def merged(path):
    """A path with /bin, /sbin and /lib as their /usr equivalents."""
    for top in ("/bin", "/sbin", "/lib"):
        if path == top or path.startswith(top + "/"):
            return "/usr" + path
    return path


def closure_commands(brought):
    """Command name -> path, for the executables of the system folders that a package of
    `brought` (the closure) owns (the link itself or where it leads: alternatives such as cc)."""
    files = set()
    for name in brought:
        files |= package_files(name)
    commands = {}
    for folder in SYSTEM_BIN_DIRS:
        if not os.path.isdir(folder):
            continue
        for entry in sorted(os.listdir(folder)):
            path = os.path.join(folder, entry)
            if entry in commands or not os.access(path, os.X_OK) or os.path.isdir(path):
                continue
            if merged(path) in files or merged(os.path.realpath(path)) in files:
                commands[entry] = path
    return commands


def make_path(folder):
    """Fills `folder` with links to the closure's commands (emptied first)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.iterdir():
        old.unlink()
    commands = closure_commands(closure(installed_packages()))
    for name, path in commands.items():
        (folder / name).symlink_to(path)
    print(f"{folder}: {len(commands)} commands of a fresh machine")


def command_table():
    """tools/debian-commands.txt: command -> the Debian package that has it."""
    table = {}
    for line in COMMAND_TABLE.read_text().splitlines():
        line = line.split("#", 1)[0].split()
        if len(line) == 2:
            table[line[0]] = line[1]
    return table


SHELL_WORDS = set("""
if then else elif fi for while until do done case esac in function select time return exit
break continue local export readonly declare typeset set unset shift trap eval exec source
alias unalias cd pwd read wait jobs kill type hash ulimit umask getopts let true false test
echo printf command builtin printf : . [ [[ ]] ] { } ! mapfile readarray shopt pushd popd
""".split())
# Words that stand where a command does and hand the next word a command position.
# (`command -v X` asks for X: X counts as called.)
PREFIX_WORDS = {"command", "exec", "time", "env", "nohup", "timeout", "xargs", "sudo", "nice",
                "stdbuf", "setsid", "ionice", "then", "do", "else", "!", "{", "(", "if", "while",
                "until", "elif"}
# Of those, the ones that are programs, not the shell's own words.
RUNNERS = {"env", "nohup", "timeout", "xargs", "sudo", "nice", "stdbuf", "setsid", "ionice"}


def script_sources():
    """The files whose commands run in a build or a test: the Makefiles (recipes), debian/rules,
    and every shell script of the tree outside target/, node_modules and fuzz/ (cargo-fuzz's
    own tools are not part of make test)."""
    makefiles = [TOP / "Makefile", TOP / "capi-tests" / "Makefile", TOP / "debian" / "rules"]
    scripts = []
    for path in sorted(TOP.rglob("*.sh")):
        parts = path.relative_to(TOP).parts
        if parts[0] in ("target", "fuzz", "vendor") or "node_modules" in parts:
            continue
        scripts.append(path)
    return makefiles, scripts


def make_variables(text):
    """A Makefile's one-word variables (`CC ?= cc`, `WIN_CC ?= x86_64-w64-mingw32-gcc-posix`)."""
    values = {}
    for match in re.finditer(r"^([A-Z_][A-Z0-9_]*)\s*[:?]?=\s*(\S+)\s*$", text, re.M):
        values[match.group(1)] = match.group(2)
    return values


def shell_variables(text):
    """A script's one-word variables (`llvm=19`, `cc=${CC:-cc}`: the default)."""
    values = {}
    for match in re.finditer(r"^\s*([A-Za-z_][A-Za-z0-9_]*)=(?:\$\{[A-Z_]+:-([A-Za-z0-9._+-]+)\}|([A-Za-z0-9._+-]+))\s*$",
                             text, re.M):
        values[match.group(1)] = match.group(2) or match.group(3)
    return values


def command_lines(path, is_makefile):
    """The shell lines of a file: a Makefile's recipe lines (tab-indented, the make variables
    substituted), a script's lines; comments removed, continued lines joined."""
    text = path.read_text(errors="replace")
    variables = make_variables(text) if is_makefile else shell_variables(text)
    lines = []
    pending = ""
    in_heredoc = None
    for raw in text.splitlines():
        if in_heredoc:
            if raw.strip() == in_heredoc:
                in_heredoc = None
            continue
        if is_makefile and not raw.startswith("\t") and not pending:
            continue
        line = pending + raw.lstrip("\t").lstrip("@-")
        if line.endswith("\\"):
            pending = line[:-1] + " "
            continue
        pending = ""
        heredoc = re.search(r"<<-?\s*'?\"?([A-Za-z_]+)", line)
        if heredoc:
            in_heredoc = heredoc.group(1)
        if is_makefile:
            line = re.sub(r"\$[({]([A-Z_][A-Z0-9_]*)[)}]", lambda m: variables.get(m.group(1), m.group(0)), line)
            line = line.replace("$$", "$")
        else:
            line = re.sub(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?", lambda m: variables.get(m.group(1), m.group(0)), line)
        lines.append(strip_comment(line))
    return lines


def strip_comment(line):
    """The line without a `# comment` that stands outside quotes."""
    quote = None
    for index, char in enumerate(line):
        if quote:
            if char == quote:
                quote = None
        elif char in "'\"":
            quote = char
        elif char == "#" and (index == 0 or line[index - 1] in " \t;"):
            return line[:index]
    return line


def called_commands(line):
    """The words of a shell line that stand in a command's place."""
    # Separators become their own words; quoted parts are kept apart from the splitting.
    line = re.sub(r"'[^']*'", " '' ", line)
    tokens = re.findall(r"\$\(|&&|\|\||[;|(){}`]|[^\s;|(){}`]+", line)
    commands = []
    expect = True
    for token in tokens:
        if token in (";", "|", "&&", "||", "$(", "(", "`", "{"):
            expect = True
            continue
        if token in (")", "}"):
            expect = False
            continue
        if not expect:
            continue
        if re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", token):   # an assignment before the command
            continue
        if token in PREFIX_WORDS or token.startswith("-"):
            if token in RUNNERS:   # a command itself, which runs the next word
                commands.append(token)
            continue
        expect = False
        commands.append(token.strip("\"'"))
    return commands


def defined_functions(lines):
    """Shell functions a script defines (`name() {`)."""
    return {m.group(1) for line in lines for m in [re.match(r"^\s*([A-Za-z_][A-Za-z0-9_-]*)\s*\(\)", line)] if m}


def external_commands():
    """Command word -> the files that call it, over every Makefile and script."""
    makefiles, scripts = script_sources()
    found = {}
    for path, is_makefile in [(m, True) for m in makefiles] + [(s, False) for s in scripts]:
        if not path.exists():
            continue
        lines = command_lines(path, is_makefile)
        functions = defined_functions(lines)
        for line in lines:
            for word in called_commands(line):
                if word in SHELL_WORDS or word in functions:
                    continue
                if not re.match(r"^(/usr/[A-Za-z0-9_./+-]+|[A-Za-z0-9][A-Za-z0-9_.+-]*)$", word):
                    continue
                found.setdefault(word, set()).add(str(path.relative_to(TOP)))
    return found


def owner(path):
    """The Debian package that owns `path` (dpkg -S), or None."""
    for candidate in dict.fromkeys([path, os.path.realpath(path)]):
        result = subprocess.run(["dpkg", "-S", candidate], capture_output=True, text=True)
        if result.returncode == 0:
            return result.stdout.split(":", 1)[0].split(",")[0].strip()
    return None


def check():
    """Every command the Makefiles and scripts call resolves on a fresh machine's PATH."""
    packages = installed_packages()
    brought = closure(packages)
    fresh = closure_commands(brought)
    table = command_table()
    cargo_bin = os.path.join(os.environ.get("CARGO_HOME", os.path.expanduser("~/.cargo")), "bin")
    full_path = os.environ.get("PATH", "") + ":" + ":".join(SYSTEM_BIN_DIRS)
    passed = failed = 0

    def report(good, message):
        nonlocal passed, failed
        print(("ok   " if good else "FAIL ") + message)
        if good:
            passed += 1
        else:
            failed += 1

    for word, files in sorted(external_commands().items()):
        where = ", ".join(sorted(files)[:3]) + (" …" if len(files) > 3 else "")
        name = os.path.basename(word)
        if word.startswith("/usr/"):
            if name in fresh and merged(os.path.realpath(fresh[name])) == merged(os.path.realpath(word)):
                report(True, f"{word} (fresh machine: {fresh[name]})")
            elif os.path.exists(word):
                report(False, f"{word}, called by {where}: from package {owner(word) or 'none'}, "
                              f"which install_deps.sh does not bring")
            continue
        if word in fresh:
            report(True, f"{word} ({fresh[word]}, called by {where})")
            continue
        if shutil.which(word, path=cargo_bin):
            report(True, f"{word} (Rust's toolchain or cargo install: {cargo_bin})")
            continue
        elsewhere = shutil.which(word, path=full_path)
        if elsewhere:
            package = owner(elsewhere)
            if package:
                report(False, f"{word}, called by {where}: {elsewhere} comes from package {package}, which "
                              f"apt-get install --no-install-recommends of install_deps.sh's packages does not bring")
            else:
                report(False, f"{word}, called by {where}: {elsewhere} belongs to no Debian package")
        elif word in table:
            report(False, f"{word}, called by {where}: not installed (Debian package {table[word]})")
        # Other words are not commands of this machine's at all: the script's own names.
    for command, package in sorted(table.items()):
        name = os.path.basename(command)
        if name in fresh:
            continue
        if package not in packages:
            report(False, f"tools/debian-commands.txt: {command} is missing (its package {package} is not installed)")
        elif package not in brought:
            report(False, f"tools/debian-commands.txt: {command}'s package {package} is not one install_deps.sh brings")
    print(f"{passed} passed, {failed} failed")
    return failed == 0


def main(argv):
    """Command-line entry: packages, make-path DIR or check."""
    if not DPKG.joinpath("status").exists():
        print("not a Debian system: no dpkg database", file=sys.stderr)
        return 2
    if argv[1:2] == ["packages"]:
        print("\n".join(sorted(closure(installed_packages()))))
        return 0
    if argv[1:2] == ["make-path"] and len(argv) == 3:
        make_path(argv[2])
        return 0
    if argv[1:2] == ["check"]:
        return 0 if check() else 1
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
