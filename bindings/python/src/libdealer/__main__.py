"""``python -m libdealer``: ``--version`` prints the package's and the compiled-in library's
versions; anything else prints how to use the package."""

from __future__ import annotations

import sys
from importlib import metadata

from . import __version__


def main(argv: list) -> int:
    """Answers ``--version`` (exit status 0); prints the usage otherwise (exit status 2)."""
    if argv == ["--version"]:
        try:
            package = metadata.version("libdealer")
        except metadata.PackageNotFoundError:  # imported from a source tree, not installed
            package = __version__
        print(f"libdealer {package} (library {__version__})")
        return 0
    print("usage: python -m libdealer --version\n(the package is a library: import libdealer)", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
