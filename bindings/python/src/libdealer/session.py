"""A libdealer session: a script loaded once, then dealt from — deal by deal, in bulk into
NumPy arrays, or as a whole run with the script's own actions and output.

Every call goes through the C ABI of ``include/dealer.h`` (compiled in by cffi); the GIL is
released while the library works, so an :class:`Interrupter` can stop a run from another
thread and sessions in different threads deal in parallel. One session must be used by one
thread at a time."""

from __future__ import annotations

import codecs
import json
import os
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterable, Iterator, List, Mapping, Optional, Sequence, TextIO, Tuple, Union

from ._native import ffi, lib
from .dd import DdTable, vulnerability_index
from .deal import Deal, SeatLike, seat_index
from .errors import DealerError, check, error_of

GENERATORS = {"chacha": lib.DEALER_GENERATOR_CHACHA, "drand48": lib.DEALER_GENERATOR_DRAND48,
              "glibc": lib.DEALER_GENERATOR_GLIBC}
DIALECTS = {"v2": lib.DEALER_DIALECT_V2, "dealerv2": lib.DEALER_DIALECT_V2, "classic": lib.DEALER_DIALECT_CLASSIC}
_CEILINGS = {lib.DEALER_CEILING_TIME: "time", lib.DEALER_CEILING_GENERATE: "generate",
             lib.DEALER_CEILING_OUTPUT: "output"}
_STREAMS = (("output", lib.DEALER_STREAM_OUTPUT), ("diagnostics", lib.DEALER_STREAM_DIAGNOSTICS),
            ("csv", lib.DEALER_STREAM_CSV), ("export", lib.DEALER_STREAM_EXPORT))

Script = Union[str, bytes, "os.PathLike[str]"]
#: A ``usereval`` metric: ``metric(query, deal, stats)`` returns the values of ``results[0..]``
#: (at most 128 ints) for ``query.side``. ``query`` is the C ``dealer_usereval_query`` and
#: ``stats[0..3]`` the four seats' ``dealer_hand_stats``, valid only during the call.
Metric = Callable[[Any, Deal, Any], Sequence[int]]
OptionValue = Union[str, int, float, bool]
#: What a session reads its deals from instead of dealing them (see :meth:`Session.set_input`):
#: a file (``pathlib.Path`` or other ``os.PathLike``), board records in memory (``bytes``, or a
#: ``str`` of record text — never a path), an open file object (read whole), or deals (an
#: iterable of :class:`Deal` or PBN deal strings such as ``"N:AKQJ.AKQ.AKQ.AKQ T987.JT9…"``).
InputSource = Union["os.PathLike[str]", str, bytes, bytearray, memoryview, Any, Iterable[Union[Deal, str]]]
#: The options of reading deals, with their defaults (what :meth:`Session.run` restores).
_INPUT_OPTIONS = {"input_format": "auto", "verify_dd": "0", "input_errors": "stop"}
#: :meth:`Session.run`'s "argument not given" (``None`` is an input there: none, deal).
_UNSET: Any = object()


@dataclass
class RunResult:
    """What :meth:`Session.run` wrote and counted.

    Attributes:
        output: the output stream (deals, reports, statistics) as text, unless it was sent to
            a file object.
        diagnostics: messages and the progress meter, likewise.
        csv, export: ``csvrpt`` and ``export`` lines not sent to a file by an option.
        generated, produced: deals generated and produced.
        seed: the seed, as the end-of-run statistics print it.
        ceiling: ``"time"``, ``"generate"`` or ``"output"`` when that ceiling stopped the run.
        timed_out: the ``time_limit`` option stopped a run that had produced nothing.
        summary: the run's JSON summary object as a dict (whatever the ``json_summary`` option
            says): ``generated``, ``produced``, ``seed``, ``seconds``; ``statistics`` (each
            ``average``, ``frequency`` and ``bktfreq`` with its standard error and 95 %
            interval); ``leads`` (the tables of ``leads`` actions); ``precision``; ``dd`` (the
            double-dummy solves); ``input`` when the deals were read (see :attr:`input`).
    """

    output: str = ""
    diagnostics: str = ""
    csv: str = ""
    export: str = ""
    generated: int = 0
    produced: int = 0
    seed: int = 0
    ceiling: Optional[str] = None
    timed_out: bool = False
    summary: Dict[str, Any] = field(default_factory=dict)

    @property
    def leads(self) -> List[Dict[str, Any]]:
        """The ``leads`` actions' tables, one dict each (``leader``, ``contract``, ``deals``,
        ``best``, ``imps``, ``matchpoints``), with ``leads`` a list of rows (``cards``,
        ``tricks``, ``tricks_se``, ``beaten``, ``beaten_se``): a list ``pandas.DataFrame`` takes
        as it is."""
        return list(self.summary.get("leads", []))

    @property
    def statistics(self) -> List[Dict[str, Any]]:
        """The statistics with their standard errors and 95 % intervals, in action order."""
        return list(self.summary.get("statistics", []))

    @property
    def input(self) -> Optional[Dict[str, Any]]:
        """What a run reading its deals (:meth:`Session.set_input`) read, else ``None``: a dict
        with ``name`` (the path, or ``"input data"``), ``format``, ``records_read``,
        ``malformed_skipped``, ``off_predeal_skipped``, ``dd_read`` (double-dummy tables taken
        from the records) and ``dd_verified`` (tables solved again, ``verify_dd``)."""
        found = self.summary.get("input")
        return dict(found) if found is not None else None


class Interrupter:
    """Stops the runs of one session from any thread (or a signal handler): a
    :meth:`Session.run`, :meth:`Session.evaluate` or deal loop in progress ends with
    :class:`Interrupted`. It stays valid after the session is closed."""

    def __init__(self, session: Any) -> None:
        out = ffi.new("dealer_interrupter **")
        check(session, lib.dealer_create_interrupter(session, out))
        self._ptr = ffi.gc(out[0], lib.dealer_free_interrupter)

    def interrupt(self) -> None:
        """Asks the session's current (or next) run to stop."""
        lib.dealer_interrupt(self._ptr)


class _Sink:
    """Where one output stream goes during a run: a text file object, or kept as text."""

    def __init__(self, target: Optional[TextIO]) -> None:
        self.target = target
        self.decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self.parts: List[str] = []
        self.error: Optional[BaseException] = None

    def write(self, data: bytes) -> None:
        text = self.decoder.decode(data)
        if self.target is None:
            self.parts.append(text)
        else:
            self.target.write(text)

    def text(self) -> str:
        self.write(b"")
        tail = self.decoder.decode(b"", final=True)
        if self.target is None:
            return "".join(self.parts) + tail
        if tail:
            self.target.write(tail)
        return ""


@ffi.def_extern()
def _libdealer_write(data: Any, length: int, userdata: Any) -> int:
    sink: _Sink = ffi.from_handle(userdata)
    try:
        sink.write(ffi.buffer(data, length)[:])
        return 0
    except BaseException as error:  # stops the run; re-raised by Session.run
        sink.error = error
        return 1


class _MetricHolder:
    """A Python ``usereval`` metric and the exception that stopped it, if any."""

    def __init__(self, metric: Metric) -> None:
        self.metric = metric
        self.error: Optional[BaseException] = None


@ffi.def_extern()
def _libdealer_usereval(query: Any, deal: Any, stats: Any, results: Any, userdata: Any) -> int:
    holder: _MetricHolder = ffi.from_handle(userdata)
    try:
        values = holder.metric(query, Deal._from_c(deal), stats)
        if len(values) > 128:
            raise ValueError("a usereval metric returns at most 128 results")
        for i, value in enumerate(values):
            results[i] = int(value)
        return 0
    except BaseException as error:  # stops the run with RunError; re-raised by the caller
        holder.error = error
        return 1


def _option_text(value: OptionValue) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _input_of(source: InputSource) -> Tuple[Optional[Tuple[str, Any]], bool]:
    """What ``source`` (see :data:`InputSource`) gives the session: ``("path", text)`` for the
    ``input`` option, ``("data", bytes)`` for ``dealer_set_input_data``, or ``None`` (no input);
    and whether it is one-line text made from deals."""
    if source is None:
        return None, False
    if isinstance(source, os.PathLike):
        return ("path", os.fsdecode(source)), False
    if isinstance(source, str):
        return ("data", source.encode("utf-8")), False
    if isinstance(source, (bytes, bytearray, memoryview)):
        return ("data", bytes(source)), False
    if hasattr(source, "read"):
        data = source.read()
        return ("data", data.encode("utf-8") if isinstance(data, str) else bytes(data)), False
    deals = [source] if isinstance(source, Deal) else source
    try:
        items = iter(deals)
    except TypeError:
        raise TypeError(
            f"input takes a path (os.PathLike), records (str, bytes or a file object) or deals, not {type(source).__name__}"
        ) from None
    lines = []
    for item in items:
        if isinstance(item, Deal):
            lines.append(item.pbn())
        elif isinstance(item, str) and "\n" not in item.strip():
            lines.append(item.strip())
        else:
            raise TypeError(f"a deal of the input is a Deal or one PBN deal string, not {item!r}")
    return ("data", "".join(line + "\n" for line in lines).encode("utf-8")), True


class Session:
    """A script and the dealing from it.

    >>> s = Session("condition hcp(north) >= 20", seed=1)
    >>> for deal in s.deals(3):
    ...     print(deal, s.eval("hcp(north)"))

    Args:
        script: the script text (``str`` or ``bytes``) or a path (``pathlib.Path`` or other
            ``os.PathLike``); ``None`` to load one later with :meth:`load`.
        seed: the seed (``-s``); with the same seed, generator, options and script the deals
            are the same on every machine. ``0`` or ``None``: a random seed (see :attr:`seed`).
        generator: ``"chacha"`` (default, libdealer's own), ``"drand48"`` (DealerV2's deals)
            or ``"glibc"`` (classic dealer's deals).
        dialect: ``"v2"`` (DealerV2 4.3.3's language) or ``"classic"`` (classic dealer's); by
            default classic with the glibc generator, else v2.
        threads: threads for dealing and double dummy (0: one per core).
        produce, generate: limits of a run (``-p``, ``-g``); for :meth:`deals` a produce limit
            ends the dealing.
        predeal: cards to give seats, e.g. ``{"north": "SAKQ,HJ"}`` (replaces the script's
            ``predeal`` lines).
        variables: values of the script variables ``$0``..``$9`` (a sequence or a mapping from
            index).
        untrusted: run a script typed by a user: no external program, run ceilings on.
        level: :meth:`run` deals each of the script's hand types (``HandType_NAME``
            variables) directly, in exact quotas of the target mix, interleaved (``--level``).
        interleave: :meth:`run` prints the produced deals in rounds holding each hand type
            (``--interleave``).
        level_target: the target mix, ``"even"`` or weights (``[40, 30, 15, 10, 5]``), one per
            hand type (``--level-target``); default the script's ``HandType_NAME_Share``.
        precision: :meth:`run` deals until every statistic's 95 % interval is at most this
            wide (``--precision``; ``produce`` and ``generate`` still stop it first).
        input, input_format, verify_dd, input_errors: read the deals from board records
            instead of dealing them; see :meth:`set_input`.
        options: any other options of ``dealer_set_option`` (``{"dds_mode": 2}`` …).
    """

    def __init__(
        self,
        script: Optional[Script] = None,
        *,
        seed: Optional[int] = None,
        generator: Optional[str] = None,
        dialect: Optional[str] = None,
        threads: Optional[int] = None,
        produce: Optional[int] = None,
        generate: Optional[int] = None,
        predeal: Optional[Mapping[SeatLike, str]] = None,
        variables: Union[Sequence[str], Mapping[int, str], None] = None,
        untrusted: bool = False,
        level: bool = False,
        interleave: bool = False,
        level_target: Union[str, Sequence[float], None] = None,
        precision: Optional[float] = None,
        input: Optional[InputSource] = None,
        input_format: Optional[str] = None,
        verify_dd: Optional[int] = None,
        input_errors: Optional[str] = None,
        options: Optional[Mapping[str, OptionValue]] = None,
    ) -> None:
        out = ffi.new("dealer_session **")
        if lib.dealer_create_session(out) != lib.DEALER_OK:
            raise MemoryError("cannot create a libdealer session")
        self._ptr: Any = ffi.gc(out[0], lib.dealer_free_session)
        self._expression_ids: Dict[str, int] = {}
        self._metric: Optional[_MetricHolder] = None
        self._metric_handle: Any = None
        # The deal `eval` and `dd_table` see when it differs from the C session's current deal
        # (a deal `deals()` yielded from a batch dealt ahead).
        self._view: Optional[Deal] = None
        # The session's input and the options read with it, as set (restored after a run given
        # its own input).
        self._input: Optional[Tuple[str, Any]] = None
        self._input_options: Dict[str, str] = dict(_INPUT_OPTIONS)
        if untrusted:
            self._call(lib.dealer_set_untrusted, 1)
        if generator is not None:
            self.set_option("rng", generator)
        if dialect is not None:
            self.set_option("dialect", dialect)
        if variables is not None:
            items = variables.items() if isinstance(variables, Mapping) else enumerate(variables)
            for index, value in items:
                self.set_option(f"var{int(index)}", value)
        if seed is not None:
            self.set_option("seed", seed)
        if threads is not None:
            self.set_option("threads", threads)
        if precision is not None:
            self.set_option("precision", repr(float(precision)))
        if produce is not None:
            self.set_option("produce", produce)
        if generate is not None:
            self.set_option("generate", generate)
        for seat, cards in (predeal or {}).items():
            self.set_option(f"predeal_{('north', 'east', 'south', 'west')[seat_index(seat)]}", cards)
        if level:
            self.set_option("level", True)
        if interleave:
            self.set_option("interleave", True)
        if level_target is not None:
            weights = level_target if isinstance(level_target, str) else ",".join(repr(float(w)) for w in level_target)
            self.set_option("level_target", weights)
        if input is not None or input_format is not None or verify_dd is not None or input_errors is not None:
            self.set_input(input, format=input_format, verify_dd=verify_dd, errors=input_errors)
        for key, value in (options or {}).items():
            self.set_option(key, value)
        if script is not None:
            self.load(script)

    # -- set-up ---------------------------------------------------------------------------

    def _session(self) -> Any:
        if self._ptr is None:
            raise ValueError("the session is closed")
        return self._ptr

    def _call(self, function: Callable[..., int], *args: Any) -> int:
        session = self._session()
        return check(session, function(session, *args))

    def set_option(self, key: str, value: OptionValue) -> None:
        """Sets an option of ``dealer_set_option`` (``"seed"``, ``"rng"``, ``"produce"``,
        ``"dds_mode"`` …); ``True``/``False`` become ``"true"``/``"false"``. Like every option,
        it ends the dealing in progress. Raises :class:`OptionError`."""
        self._forget_deals()
        text = _option_text(value)
        self._call(lib.dealer_set_option, key.encode("utf-8"), text.encode("utf-8"))
        if key == "input":
            self._input = ("path", text) if text else None
        elif key in _INPUT_OPTIONS:
            self._input_options[key] = text

    def set_input(
        self,
        source: Optional[InputSource],
        *,
        format: Optional[str] = None,
        verify_dd: Optional[int] = None,
        errors: Optional[str] = None,
    ) -> None:
        """Reads the deals from board records instead of dealing them, in :meth:`run`,
        :meth:`deals`, :meth:`next_deal` and :meth:`evaluate`: each record's deal goes through
        the script's condition and actions, its board number, dealer, vulnerability and tags
        kept in ``printpbn``, ``printlin`` and ``printjson`` output, and the double-dummy table
        it carries (PBN ``OptimumResultTable``, JSON ``"dd"``, ZRD) answers ``dds()`` and the
        like without solving. Every run reads the records from the start; the ``generate`` and
        ``produce`` limits still apply (without them every record is read).

        Args:
            source: a file of records: ``pathlib.Path`` or another ``os.PathLike`` (the
                ``input`` option; read when the run starts). Records in memory: ``bytes``, a
                ``str`` of record text (a ``str`` is never a path), or a file object (read
                whole now, e.g. ``sys.stdin.buffer``). Deals: an iterable of :class:`Deal` or
                PBN deal strings (``"N:AKQJ.AKQ.AKQ.AKQ …"``), read as one-line records (the
                format is then ``oneline`` unless ``format`` says otherwise). ``None``: no input,
                the session deals again.
            format: ``input_format``: ``"auto"`` (found from the first bytes), ``"pbn"``,
                ``"lin"``, ``"oneline"``, ``"dl52"``, ``"jsonl"`` or ``"zrd"``.
            verify_dd: ``verify_dd``: solve the first N tables the records carry again; the
                first that differs stops the run with :class:`RunError`.
            errors: ``input_errors``: ``"stop"`` (a malformed record stops the run with a
                :class:`DealerError` naming the input, line and column) or ``"skip"`` (skipped,
                reported on the diagnostics stream and counted).

        The options given keep their values for later inputs; :attr:`RunResult.input` counts
        what a run read. Raises :class:`OptionError` for a bad value, ``TypeError`` for a
        source of another kind."""
        state, from_deals = _input_of(source)
        if format is None and from_deals:
            format = "oneline"
        if format is not None:
            self.set_option("input_format", format)
        if verify_dd is not None:
            self.set_option("verify_dd", int(verify_dd))
        if errors is not None:
            self.set_option("input_errors", errors)
        self._apply_input(state)

    def _apply_input(self, state: Optional[Tuple[str, Any]]) -> None:
        """Makes ``state`` (from :func:`_input_of`) the session's input."""
        self._forget_deals()
        if state is None:
            self._call(lib.dealer_set_input_data, ffi.NULL, 0)
        elif state[0] == "path":
            self._call(lib.dealer_set_option, b"input", state[1].encode("utf-8"))
        else:
            self._call(lib.dealer_set_input_data, state[1], len(state[1]))
        self._input = state

    def load(self, script: Script) -> None:
        """Loads a script: text (``str``/``bytes``) or a file (``os.PathLike``). Raises
        :class:`ScriptError` with ``line`` and ``column``; the previous script stays loaded."""
        self._forget_deals()
        if isinstance(script, os.PathLike):
            self._call(lib.dealer_load_script_file, os.fsencode(script))
        else:
            text = script.encode("utf-8") if isinstance(script, str) else bytes(script)
            self._call(lib.dealer_load_script, text, len(text))
        self._expression_ids.clear()

    def add_scenario(
        self, script: Script, *, name: Optional[str] = None, weight: float = 1.0, count: Optional[int] = None
    ) -> None:
        """Adds a scenario to the board set :meth:`run` mixes (``--mix``): a script's text or
        file, the ``name`` its boards carry (PBN ``[Event]``, LIN ``st|…|``, JSON ``"scenario"``;
        default the file's name), and its part of the set: exactly ``count`` boards, else a share
        of what the counts leave of ``produce`` in proportion to ``weight``. While scenarios are
        added, :meth:`run` deals their mixed set. Raises :class:`ScriptError` naming it."""
        if isinstance(script, os.PathLike):
            with open(script, "rb") as file:
                text = file.read()
            name = name if name is not None else os.path.basename(os.fsdecode(script))
        else:
            text = script.encode("utf-8") if isinstance(script, str) else bytes(script)
        if not name:
            raise ValueError("a scenario given as text needs a name")
        self._forget_deals()
        self._call(lib.dealer_mix_add, name.encode("utf-8"), text, len(text), float(weight), -1 if count is None else int(count))

    def clear_scenarios(self) -> None:
        """Forgets the scenarios :meth:`add_scenario` added: :meth:`run` runs the script again."""
        self._call(lib.dealer_mix_clear)

    def add_part(self, path: "os.PathLike[str] | str") -> None:
        """Adds a part file (written by a run with the ``part`` or ``deals`` option and
        ``part_file``) to those :meth:`run` merges: while parts are added, :meth:`run` loads the
        job's script and options from them and prints exactly what one run of the job prints."""
        self._forget_deals()
        self._call(lib.dealer_merge_add, os.fsencode(path))

    def clear_parts(self) -> None:
        """Forgets the part files :meth:`add_part` added: :meth:`run` runs the script again."""
        self._call(lib.dealer_merge_clear)

    def write_leveled(self, path: "os.PathLike[str] | str", **streams: Optional[TextIO]) -> "RunResult":
        """Writes a copy of the loaded script with Dealer3's generated levelling block for its
        hand types to ``path`` (``--write-leveled``): natural shares counted exactly where the
        condition and the types read one seat, else measured; the summary is the result's
        ``diagnostics``. Takes :meth:`run`'s stream arguments."""
        self.set_option("write_leveled", os.fsdecode(path))
        try:
            return self.run(**streams)
        finally:
            self.set_option("write_leveled", "")

    def check_bbo(self, script: Script) -> Tuple[int, List[str]]:
        """Checks a script as BBO's dealer (classic dealer) reads it, without loading it or
        dealing (``dealer_check_script`` with ``DEALER_CHECK_BBO``). Returns the number of errors
        (0: BBO accepts the script) and the diagnostics, ``"line:col: warning|error: message"``."""
        if isinstance(script, os.PathLike):
            with open(script, "rb") as file:
                text = file.read()
        else:
            text = script.encode("utf-8") if isinstance(script, str) else bytes(script)
        sink = _Sink(None)
        handle = ffi.new_handle(sink)
        errors = self._call(lib.dealer_check_script, text, len(text), lib.DEALER_CHECK_BBO, lib._libdealer_write, handle)
        return errors, sink.text().splitlines()

    def set_usereval(self, metric: Optional[Metric]) -> None:
        """Answers the script's ``usereval`` calls with a Python function instead of a
        DealerServer (see :data:`Metric`); ``None`` goes back to the server. An exception in
        the metric stops the run and is raised from the call that dealt."""
        self._forget_deals()
        if metric is None:
            self._call(lib.dealer_set_usereval, ffi.NULL, ffi.NULL)
            self._metric = self._metric_handle = None
            return
        holder = _MetricHolder(metric)
        handle = ffi.new_handle(holder)
        self._call(lib.dealer_set_usereval, lib._libdealer_usereval, handle)
        self._metric, self._metric_handle = holder, handle

    @property
    def seed(self) -> int:
        """The seed of the last dealing (also a random one it chose), or of the next one."""
        out = ffi.new("int64_t *")
        self._call(lib.dealer_get_seed, out)
        return int(out[0])

    def interrupter(self) -> Interrupter:
        """A handle that stops this session's runs from another thread."""
        return Interrupter(self._session())

    # -- dealing --------------------------------------------------------------------------

    def _forget_deals(self) -> None:
        self._view = None

    def _raise_metric_error(self, error: DealerError) -> None:
        """Raises the exception a Python metric raised, if it is what stopped the call."""
        if self._metric is not None and self._metric.error is not None:
            cause, self._metric.error = self._metric.error, None
            raise cause from error
        raise error

    def next_deal(self) -> Optional[Deal]:
        """The next deal that satisfies the condition, or ``None`` when the generate or
        produce limit is reached. It becomes the deal :meth:`eval` sees."""
        deal = ffi.new("dealer_deal *")
        try:
            status = self._call(lib.dealer_next_deal, deal)
        except DealerError as error:
            self._raise_metric_error(error)
        self._view = None
        return None if status == lib.DEALER_DONE else Deal._from_c(deal)

    def deals(self, n: Optional[int] = None, *, batch: int = 1024) -> Iterator[Deal]:
        """Yields up to ``n`` deals that satisfy the condition (all until the generate or
        produce limit when ``n`` is ``None``). Inside the loop :meth:`eval` and
        :meth:`dd_table` see the deal just yielded. Deals are dealt ``batch`` at a time: leaving
        the loop early drops the rest of the batch dealt ahead."""
        if n is not None and n < 0:
            raise ValueError("n must be 0 or more")
        if batch < 1:
            raise ValueError("batch must be 1 or more")
        buffer = ffi.new("dealer_deal[]", batch if n is None else max(1, min(batch, n)))
        produced = ffi.new("uintptr_t *")
        left = n
        while left is None or left > 0:
            want = len(buffer) if left is None else min(len(buffer), left)
            try:
                status = self._call(lib.dealer_next_deals, want, buffer, ffi.NULL, 0, ffi.NULL, produced)
            except DealerError as error:
                got = int(produced[0])
                # The deals before the failure are good: hand them out, then fail.
                for i in range(got):
                    self._view = Deal._from_c(buffer[i])
                    yield self._view
                self._raise_metric_error(error)
            got = int(produced[0])
            for i in range(got):
                deal = Deal._from_c(buffer[i])
                self._view = deal
                yield deal
            if left is not None:
                left -= got
            if status == lib.DEALER_DONE:
                return

    def _sync_view(self) -> None:
        """Makes the deal last yielded by :meth:`deals` the C session's current deal."""
        if self._view is not None:
            self._call(lib.dealer_set_deal, self._view._to_c())
            self._view = None

    def _compiled(self, expression: str) -> int:
        """The id of an expression compiled once per script."""
        ident = self._expression_ids.get(expression)
        if ident is None:
            out = ffi.new("uint32_t *")
            self._call(lib.dealer_compile_expression, expression.encode("utf-8"), out)
            ident = self._expression_ids[expression] = int(out[0])
        return ident

    def eval(self, expression: str, deal: Optional[Deal] = None) -> int:
        """The value of an expression in script syntax (``"hcp(north) + hcp(south)"``; the
        script's variables are visible; true is 1) on ``deal``, or on the current deal (the
        last one dealt). Raises :class:`ScriptError` with the column for a bad expression."""
        if deal is not None:
            self.set_deal(deal)
        else:
            self._sync_view()
        value = ffi.new("int32_t *")
        try:
            self._call(lib.dealer_eval_compiled, self._compiled(expression), value)
        except DealerError as error:
            self._raise_metric_error(error)
        return int(value[0])

    def set_deal(self, deal: Deal) -> None:
        """Makes a complete deal (from :meth:`Deal.from_pbn`, another library …) the current
        deal of :meth:`eval` and :meth:`dd_table`, without dealing."""
        self._view = None
        self._call(lib.dealer_set_deal, deal._to_c())

    def evaluate(self, expressions: Sequence[str], n: int, *, return_deals: bool = False):
        """Deals up to ``n`` deals that satisfy the condition and evaluates the expressions on
        each, in one call into the library: a NumPy ``int32`` array of shape (deals, len(
        expressions)), fewer rows than ``n`` when the generate or produce limit came first.
        With ``return_deals``, returns ``(values, hands)`` where ``hands`` is a (deals, 4)
        ``uint64`` array of card masks (``Deal(hands[i])`` is deal i). On an error the
        exception's ``values`` and ``hands`` hold the rows dealt before it."""
        import numpy

        if n < 0:
            raise ValueError("n must be 0 or more")
        ids = [self._compiled(e) for e in expressions]
        self._view = None
        k = len(ids)
        values = numpy.empty((n, k), dtype=numpy.int32)
        hands = numpy.empty((n, 4), dtype=numpy.uint64) if return_deals else None
        produced = ffi.new("uintptr_t *")
        id_array = ffi.new("uint32_t[]", ids) if k else ffi.NULL
        value_ptr = ffi.from_buffer("int32_t[]", values, require_writable=True) if k and n else ffi.NULL
        deal_ptr = ffi.from_buffer("dealer_deal[]", hands, require_writable=True) if hands is not None and n else ffi.NULL
        try:
            self._call(lib.dealer_next_deals, n, deal_ptr, id_array, k, value_ptr, produced)
        except DealerError as error:
            got = int(produced[0])
            error.values = values[:got]  # type: ignore[attr-defined]
            error.hands = None if hands is None else hands[:got]  # type: ignore[attr-defined]
            self._raise_metric_error(error)
        got = int(produced[0])
        if hands is None:
            return values[:got]
        return values[:got], hands[:got]

    def dd_table(self, deal: Optional[Deal] = None, vulnerability: Union[int, str, None] = None) -> DdTable:
        """The 20 double-dummy results of ``deal`` (or of the current deal), and the par score
        and contract for a vulnerability (``"none"``, ``"ns"``, ``"ew"``, ``"both"``) when one
        is given."""
        table = ffi.new("dealer_dds_results *")
        table.size = ffi.sizeof("dealer_dds_results")
        table.par_vulnerability = -1 if vulnerability is None else vulnerability_index(vulnerability)
        if deal is None:
            self._sync_view()
            self._call(lib.dealer_dds_table, ffi.NULL, table)
        else:
            self._call(lib.dealer_dds_table, deal._to_c(), table)
        tricks = tuple(tuple(int(table.tricks[d][s]) for s in range(5)) for d in range(4))
        if vulnerability is None:
            return DdTable(tricks)  # type: ignore[arg-type]
        return DdTable(tricks, int(table.par_score_ns), ffi.string(table.par_contract).decode("ascii"))  # type: ignore[arg-type]

    def run(
        self,
        *,
        output: Optional[TextIO] = None,
        diagnostics: Optional[TextIO] = None,
        csv: Optional[TextIO] = None,
        export: Optional[TextIO] = None,
        input: Optional[InputSource] = _UNSET,
        input_format: Optional[str] = None,
        verify_dd: Optional[int] = None,
        input_errors: Optional[str] = None,
    ) -> RunResult:
        """Runs the script's whole job: deals, actions, end-of-run statistics. Each stream is
        kept as text in the result unless a text file object is given for it (``sys.stdout``
        …). On an error the exception's ``result`` holds the output written before it (complete
        up to the deal that failed).

        ``input`` (records or deals, as :meth:`set_input` takes them; ``None`` to deal) and
        ``input_format``, ``verify_dd``, ``input_errors`` apply to this run only: the session's
        own input and options are put back after it: ``s.run(input=pathlib.Path("boards.pbn"))``
        runs the script on the file's deals, ``s.run(input=deals)`` on a list of :class:`Deal`."""
        given = {"input_format": input_format, "verify_dd": verify_dd, "input_errors": input_errors}
        if input is _UNSET and all(value is None for value in given.values()):
            return self._run(output, diagnostics, csv, export)
        saved_input, saved_options = self._input, dict(self._input_options)
        try:
            if input is _UNSET:
                for key, value in given.items():
                    if value is not None:
                        self.set_option(key, value)
            else:
                self.set_input(input, format=input_format, verify_dd=verify_dd, errors=input_errors)
            return self._run(output, diagnostics, csv, export)
        finally:
            for key, value in saved_options.items():
                if self._input_options[key] != value:
                    self.set_option(key, value)
            self._apply_input(saved_input)

    def _run(
        self,
        output: Optional[TextIO],
        diagnostics: Optional[TextIO],
        csv: Optional[TextIO],
        export: Optional[TextIO],
    ) -> RunResult:
        """:meth:`run` with the session's input as it is."""
        session = self._session()
        self._view = None
        sinks = {name: _Sink(target) for (name, _), target in zip(_STREAMS, (output, diagnostics, csv, export))}
        handles = {name: ffi.new_handle(sink) for name, sink in sinks.items()}
        report = ffi.new("dealer_run_report *")
        report.size = ffi.sizeof("dealer_run_report")
        try:
            for name, stream in _STREAMS:
                check(session, lib.dealer_set_output(session, stream, lib._libdealer_write, handles[name]))
            status = lib.dealer_run(session, report)
            # (Read now: the calls that put the streams back clear the last error.)
            error = error_of(session, status) if status < 0 else None
            summary_text = ffi.string(lib.dealer_last_summary(session)).decode("utf-8", "replace")
        finally:
            for _, stream in _STREAMS:
                lib.dealer_set_output(session, stream, ffi.NULL, ffi.NULL)
        result = RunResult(
            **{name: sink.text() for name, sink in sinks.items()},
            generated=int(report.generated),
            produced=int(report.produced),
            seed=int(report.seed),
            ceiling=_CEILINGS.get(int(report.ceiling)),
            timed_out=status == lib.DEALER_TIMED_OUT,
            summary=json.loads(summary_text) if summary_text else {},
        )
        if error is not None:
            error.result = result  # type: ignore[attr-defined]
            for sink in sinks.values():
                if sink.error is not None:
                    raise sink.error from error
            self._raise_metric_error(error)
        return result

    # -- life ---------------------------------------------------------------------------

    def close(self) -> None:
        """Frees the session now (it is also freed when collected). Closing twice is fine;
        any other use after closing raises ``ValueError``."""
        if self._ptr is not None:
            ffi.release(self._ptr)
            self._ptr = None

    def __enter__(self) -> "Session":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
