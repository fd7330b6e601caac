"""Builds the ``libdealer`` Python package from this repository: ``make lib`` (cargo) builds the
C ABI as a static library, and cffi compiles the ``libdealer._native`` extension against it.

Install from a clone with ``pip install ./bindings/python`` (needs cargo, a C compiler and make,
as the library's own build does). The version is the crate's, read from Cargo.toml.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

REPO = Path(__file__).resolve().parents[2]


def crate_version() -> str:
    """The ``version`` of the [package] section of the repository's Cargo.toml."""
    text = (REPO / "Cargo.toml").read_text(encoding="utf-8")
    match = re.search(r'^\[package\][^\[]*?^version\s*=\s*"([^"]+)"', text, re.M | re.S)
    if not match:
        raise RuntimeError("no [package] version in Cargo.toml")
    return match.group(1)


class BuildWithLibrary(build_ext):
    """build_ext that first builds the static library the extension links."""

    def run(self) -> None:
        make = os.environ.get("MAKE", "make")
        subprocess.run([make, "-C", str(REPO), "lib"], check=True)
        super().run()


setup(
    version=crate_version(),
    cffi_modules=["build_native.py:ffibuilder"],
    cmdclass={"build_ext": BuildWithLibrary},
)
