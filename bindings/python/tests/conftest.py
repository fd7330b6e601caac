"""Shared fixtures: where the repository, its header and its CLI are (the tests compare the
binding with both), and a runner of the CLI."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import List

import pytest

REPO = Path(os.environ.get("LIBDEALER_REPO", Path(__file__).resolve().parents[3]))


def pytest_configure(config: pytest.Config) -> None:
    """The markers of this suite: `soak` (test_soak.py, LIBDEALER_SOAK_SECONDS long, default 20;
    `-m "not soak"` leaves it out)."""
    config.addinivalue_line("markers", "soak: the soak test through the package (LIBDEALER_SOAK_SECONDS, default 20)")


@pytest.fixture(scope="session")
def header_text() -> str:
    """The C header the package was built from."""
    return (REPO / "include" / "dealer.h").read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def cli(tmp_path_factory: pytest.TempPathFactory):
    """Runs the repository's CLI (target/release/dealer) on a script text with arguments and
    returns its standard output as text."""
    program = REPO / "target" / "release" / "dealer"
    if not program.exists():
        pytest.fail(f"{program} is missing: build it with make")
    folder = tmp_path_factory.mktemp("cli")

    def run(script: str, *args: str) -> str:
        path = folder / "script.dlr"
        path.write_text(script, encoding="utf-8")
        done = subprocess.run([str(program), *args, str(path)], capture_output=True, check=True)
        return done.stdout.decode("utf-8")

    return run


def without_timing(text: str) -> List[str]:
    """The lines of a run's output without the time line the statistics end with."""
    return [line for line in text.splitlines() if not line.startswith("Time needed")]
