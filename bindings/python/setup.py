"""Builds the ``libdealer`` Python package: ``make lib`` (cargo) builds the C ABI as a static
library, and cffi compiles the ``libdealer._native`` extension against it.

Install from a clone with ``pip install ./bindings/python``, or from the sdist (``make sdist``),
which carries the library's sources under ``native/``; either way the build needs cargo, a C
compiler and make, as the library's own build does (the wheel needs none of them). The version
is the crate's, read from Cargo.toml.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.command.sdist import sdist

sys.path.insert(0, str(Path(__file__).resolve().parent))
from build_native import BUNDLED_SOURCES, PACKAGE_DIR, REPO  # noqa: E402  (the folder above first)

#: What ``make lib`` reads of the library's source tree: an sdist carries these under native/.
LIBRARY_SOURCES = [
    ".cargo", "Cargo.lock", "Cargo.toml", "LICENSE", "LICENSES", "Makefile", "THIRD-PARTY-NOTICES.md",
    "build.rs", "cbindgen.toml", "include", "src", "tools/need.sh", "tools/debian-commands.txt",
]
#: The licence files, the repository's: copied beside pyproject.toml (which names them) from a
#: checkout, so that the sdist and the wheel carry them.
LICENSE_FILES = ["LICENSE", "THIRD-PARTY-NOTICES.md"]


def crate_version() -> str:
    """The ``version`` of the [package] section of the library's Cargo.toml."""
    text = (REPO / "Cargo.toml").read_text(encoding="utf-8")
    match = re.search(r'^\[package\][^\[]*?^version\s*=\s*"([^"]+)"', text, re.M | re.S)
    if not match:
        raise RuntimeError("no [package] version in Cargo.toml")
    return match.group(1)


def library_files() -> list:
    """The files of LIBRARY_SOURCES, relative to REPO: the ones git tracks in a checkout (nothing
    built or left over), every one when REPO is an sdist's native/ folder."""
    if REPO != BUNDLED_SOURCES:
        listing = subprocess.run(
            ["git", "-C", str(REPO), "ls-files", "-z", "--", *LIBRARY_SOURCES],
            check=True, capture_output=True,
        ).stdout.decode("utf-8")
        return sorted(name for name in listing.split("\0") if name)
    files = []
    for name in LIBRARY_SOURCES:
        path = REPO / name
        found = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file())
        files.extend(str(p.relative_to(REPO)) for p in found)
    return files


class BuildWithLibrary(build_ext):
    """build_ext that first builds the static library the extension links."""

    def run(self) -> None:
        make = os.environ.get("MAKE", "make")
        subprocess.run([make, "-C", str(REPO), "lib"], check=True)
        super().run()


class SdistWithLibrary(sdist):
    """sdist that also carries the library's sources (LIBRARY_SOURCES) under native/, where
    build_native.py looks for them first."""

    def make_release_tree(self, base_dir: str, files: list) -> None:
        super().make_release_tree(base_dir, files)
        for name in library_files():
            target = Path(base_dir) / "native" / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, target)


if REPO != BUNDLED_SOURCES:
    for name in LICENSE_FILES:
        shutil.copyfile(REPO / name, PACKAGE_DIR / name)

setup(
    version=crate_version(),
    cffi_modules=["build_native.py:ffibuilder"],
    cmdclass={"build_ext": BuildWithLibrary, "sdist": SdistWithLibrary},
)
