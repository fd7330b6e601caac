"""The cffi builder of ``libdealer._native``: the C ABI of include/dealer.h, compiled against
the static library ``target/lib/libdealer.a`` that ``make lib`` builds (``$LIBDEALER_BUILD_DIR/lib``
when that environment variable names another build folder, as ``make release`` does), in the
repository or, in an sdist, in the library's sources under ``native/``.

Every declaration is read from the header itself, so the extension always declares every
``dealer_*`` function and constant of the C ABI; nothing is declared by hand. setup.py builds
the library first; run on its own, this file only needs the header and the library to exist.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from cffi import FFI

#: This package's folder (bindings/python of the repository, or an unpacked sdist).
PACKAGE_DIR = Path(__file__).resolve().parent
#: Where an sdist carries the library's sources (setup.py's sdist command copies them there).
BUNDLED_SOURCES = PACKAGE_DIR / "native"
#: The library's source tree this package is built from: the sources an sdist carries, else the
#: repository (bindings/python is two levels down).
REPO = BUNDLED_SOURCES if (BUNDLED_SOURCES / "Cargo.toml").is_file() else PACKAGE_DIR.parents[1]
HEADER = REPO / "include" / "dealer.h"
#: The library's build folder: the Makefile's LIBDEALER_BUILD_DIR (``target``, whose library
#: ``make release``'s wheel ships: every build maps the build machine's paths out).
BUILD_DIR = REPO / os.environ.get("LIBDEALER_BUILD_DIR", "target")
STATIC_LIBRARY = BUILD_DIR / "lib" / "libdealer.a"
#: What the static library needs from the system (DDS is C++), as pkgconfig/ lists it.
SYSTEM_LIBRARIES = ["stdc++", "gcc_s", "util", "rt", "pthread", "m", "dl"]

#: Callbacks into Python, passed to dealer_set_output and dealer_set_usereval.
PYTHON_CALLBACKS = """
extern "Python" int32_t _libdealer_write(const uint8_t *data, uintptr_t len, void *userdata);
extern "Python" int32_t _libdealer_usereval(const dealer_usereval_query *query,
    const dealer_deal *deal, const dealer_hand_stats *stats, int32_t *results, void *userdata);
"""

_INTEGER_DEFINE = re.compile(r"#define\s+DEALER_[A-Z0-9_]+\s+-?\d+\s*$")


def declarations(header_text: str) -> str:
    """The header as cffi's ``cdef`` reads it: the preprocessor lines dropped, except the
    integer ``#define DEALER_*`` constants, and the C++ ``extern "C"`` block opened up."""
    kept = []
    for line in header_text.splitlines():
        stripped = line.strip()
        if stripped.startswith("#"):
            if _INTEGER_DEFINE.match(stripped):
                kept.append(stripped)
            continue
        if stripped.startswith('extern "C"') or stripped.startswith("}  // extern"):
            continue
        kept.append(line)
    return "\n".join(kept)


ffibuilder = FFI()
ffibuilder.cdef(declarations(HEADER.read_text(encoding="utf-8")) + PYTHON_CALLBACKS)
ffibuilder.set_source(
    "libdealer._native",
    '#include "dealer.h"',
    include_dirs=[str(HEADER.parent)],
    extra_objects=[str(STATIC_LIBRARY)],
    libraries=SYSTEM_LIBRARIES,
)

if __name__ == "__main__":
    ffibuilder.compile(verbose=True)
