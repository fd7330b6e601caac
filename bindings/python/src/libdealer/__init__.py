"""libdealer for Python: bridge deals from dealer / DealerV2 scripts.

The library's C ABI (``include/dealer.h``) through cffi, with a Pythonic layer:

>>> from libdealer import Session
>>> s = Session("condition hcp(north) >= 15 && spades(north) >= 5", seed=7)
>>> deal = s.next_deal()
>>> s.eval("hcp(north)"), deal.pbn()
>>> values = s.evaluate(["hcp(north)", "spades(north)"], 100_000)   # NumPy, n × 2

Deals pass to and from other libraries as PBN text (:meth:`Deal.pbn`, :meth:`Deal.from_pbn`).
The raw C functions and constants are ``libdealer.lib`` and ``libdealer.ffi``.
"""

from ._native import ffi, lib
from .dd import STRAINS, VULNERABILITIES, DdTable
from .deal import SEATS, SUITS, Deal
from .errors import (
    DealerError,
    Interrupted,
    NotAllowedError,
    NotAvailableError,
    OptionError,
    RunError,
    ScriptError,
    UsageError,
)
from .session import GENERATORS, DIALECTS, InputSource, Interrupter, Metric, RunResult, Session

__version__ = ffi.string(lib.dealer_version()).decode("ascii")

__all__ = [
    "DIALECTS",
    "GENERATORS",
    "SEATS",
    "STRAINS",
    "SUITS",
    "VULNERABILITIES",
    "DdTable",
    "Deal",
    "DealerError",
    "InputSource",
    "Interrupted",
    "Interrupter",
    "Metric",
    "NotAllowedError",
    "NotAvailableError",
    "OptionError",
    "RunError",
    "RunResult",
    "ScriptError",
    "Session",
    "UsageError",
    "ffi",
    "lib",
]
