"""Errors: every failing status of the C ABI becomes a :class:`DealerError` (or one of its
subclasses) carrying the status, the script line and column when there is one, the peers'
one-line summary and the full message with the offending line and a caret."""

from __future__ import annotations

from typing import Optional

from ._native import ffi, lib


class DealerError(Exception):
    """A libdealer call failed.

    Attributes:
        status: the ``DEALER_ERROR_*`` status (negative), or ``DEALER_INTERRUPTED``.
        message: the full message (for script errors: ``line L, column C: …``, the line and a
            caret under the column).
        summary: the one-line summary the peers print (``line 3: syntax error``).
        line, column: where in the script (or expression, or PBN text) the error is, 1-based;
            ``None`` when the error has no place.
        exit_code: the exit status the command-line peers use for this failure.
    """

    def __init__(
        self,
        status: int,
        message: str,
        summary: str = "",
        line: Optional[int] = None,
        column: Optional[int] = None,
        exit_code: int = 1,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.summary = summary or message
        self.line = line
        self.column = column
        self.exit_code = exit_code

    def __reduce__(self):
        # Pickled whole (status, place and all), as errors cross processes (Dask, multiprocessing).
        return (type(self), (self.status, self.message, self.summary, self.line, self.column, self.exit_code))


class ScriptError(DealerError):
    """The script (or an expression) has an error: syntax, unknown variable, bad shape …"""


class OptionError(DealerError):
    """An option key or value is not valid."""


class UsageError(DealerError):
    """A call out of order or with bad arguments (no script loaded, no current deal, a PBN
    text that is not a deal, an incomplete deal …)."""


class RunError(DealerError):
    """The run failed while dealing (division by zero, a double-dummy failure, a callback
    that stopped it …)."""


class NotAvailableError(DealerError):
    """The script needs a feature this build does not provide."""


class NotAllowedError(DealerError):
    """Refused under ``untrusted``: the script would start an external program."""


class Interrupted(DealerError):
    """:meth:`Interrupter.interrupt` stopped the run."""


_BY_STATUS = {
    lib.DEALER_ERROR_SCRIPT: ScriptError,
    lib.DEALER_ERROR_OPTION: OptionError,
    lib.DEALER_ERROR_USAGE: UsageError,
    lib.DEALER_ERROR_RUN: RunError,
    lib.DEALER_ERROR_NOT_AVAILABLE: NotAvailableError,
    lib.DEALER_ERROR_NOT_ALLOWED: NotAllowedError,
    lib.DEALER_INTERRUPTED: Interrupted,
}


def error_of(session: object, status: int) -> DealerError:
    """The exception for a failing ``status`` returned by a call on ``session`` (a
    ``dealer_session *``), with the session's last error message and location."""
    message = ffi.string(lib.dealer_last_error(session)).decode("utf-8", "replace")
    summary = ffi.string(lib.dealer_last_error_summary(session)).decode("utf-8", "replace")
    where = ffi.new("uint32_t[2]")
    lib.dealer_last_error_location(session, where, where + 1)
    line = where[0] or None
    column = where[1] or None
    exit_code = lib.dealer_last_error_exit_code(session)
    kind = _BY_STATUS.get(status, DealerError)
    return kind(status, message, summary, line, column, exit_code)


def check(session: object, status: int) -> int:
    """Returns a successful ``status`` (0 or more) and raises the error of a failing one."""
    if status < 0:
        raise error_of(session, status)
    return status
