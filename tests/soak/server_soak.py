#!/usr/bin/env python3
"""The deal service's soak test (`make soak-server`, `make soak-server-short`).

Starts dealer-server (target/server/release/dealer-server, `make server`) on a free loopback
port, its log in a file, with a small queue (max_runs the number of cores, max_queue 4, a queue
wait of 2 s, no rate limit), and sends it mixed load for --seconds from CLIENTS clients (raw
HTTP/1.1 over asyncio streams, kept-alive connections and new ones; Python's standard library
only):

- practice: a script of ../shared/parity/pbs/scripts (BBO's practice tables; $SHARED) or of the
  project's examples (examples-c, examples/levelling, tests/bench, tests/bench/rare), with one
  of 8 seed and produce variants and a format (script, jsonl, lin, pbn). Each answer is compared
  with the CLI's for the same script and seed (target/release/dealer --untrusted -R 1 -s SEED
  -p N --format=F, the script on standard input as the service has no file name either: PBN's
  Event names the file otherwise), run once per distinct request: the same output (the
  "Time needed" line aside), the seed, the produced deals as valid hands;
- hostile: script errors (422 with their line and column), nesting too deep, memory bounds,
  programs refused under untrusted, double dummy for an anonymous client (403), random bytes and
  tests/fuzz-regressions' inputs (a documented status, the same every time; see
  tests/soak/hostile.c), and scripts that hit the time, generate and output ceilings (200 with
  `ceiling` set); bad requests: not JSON, unknown fields, options a web user may not set, a body
  past the limit (413), another content type (415), an unknown path (404);
- check: POST /v1/check of practice scripts and of broken ones (a load diagnostic with its place);
- disconnect: clients that close the socket mid-run, after half a body, or at once;
- info: GET /v1/health, /v1/version, /v1/openapi.json, /metrics;
- bursts: every 8 to 16 s, 3x (max_runs + max_queue) practice requests at once: 429 queue_full
  (with Retry-After) expected, 503 only as queue_timeout, every 200 right.

Any /v1/deal request may be refused with 429 queue_full or 503 queue_timeout; no answer may be
another 5xx. Every answer must be HTTP/1.1 with valid JSON of the documented shape, and every
`deals` entry four hands of a pack. Every 10 s the server's resident memory (/proc/PID/status
VmRSS), open descriptors (/proc/PID/fd) and threads are sampled. Fails when an answer is wrong
or garbled, a `deals` entry holds hands the run never dealt ("..."), the server dies, logs a
panic or an error, or does not stop on SIGTERM with status 0, resident memory grows after
warm-up (the first quarter of the run, at least its first minute: glibc's arenas of tokio's
blocking threads climb for minutes; MALLOC_ARENA_MAX=2 keeps them flat) by more than
max(16 MiB, 20 %) from the median of the second quarter to the last quarter's median or the end
at rest (asserted in runs of 2 minutes or more), descriptors at rest at the end outnumber those
at rest at the start, or the bursts never overflow the queue. Prints a summary: requests by kind and outcome with p50/p99
latency, the server's own counts (/metrics), the memory, descriptor and thread series, ok:/FAIL:
rows and "N passed, M failed".

Usage: tests/soak/server_soak.py --seconds N [--clients 4] [--seed S]   (SOAK_SEED replays a
       run's choices; KEEP=1 keeps the server's log, which a failure keeps too)
"""

import argparse
import asyncio
import glob
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HOST = "127.0.0.1"
SAMPLE_SECONDS = 10
FAILURES_SHOWN = 20
# Seed and produce of a practice request: a bounded number of distinct requests, so that the
# CLI's references fill a bounded cache.
VARIANTS = [(1, 1), (1000004, 2), (2000007, 3), (3000010, 5), (4000013, 8), (5000016, 13), (6, 4), (77, 2)]
FORMATS = ["script"] * 5 + ["jsonl", "lin", "pbn"] * 2
RANKS = "AKQJT98765432"
# Answers a /v1/deal request may get whatever it asks for: the queue is full, or no slot came
# free in time.
BUSY = {429: "queue_full", 503: "queue_timeout"}


class Garbled(Exception):
    """An answer that is not HTTP/1.1 of the documented form."""


class Response:
    def __init__(self, status, headers, body, seconds):
        self.status, self.headers, self.body, self.seconds = status, headers, body, seconds

    def json(self):
        try:
            return json.loads(self.body)
        except (ValueError, UnicodeDecodeError) as e:
            raise Garbled(f"status {self.status}: the body is not JSON ({e}): {self.body[:200]!r}") from None


class Connection:
    """One HTTP/1.1 connection to the server (kept alive until it is closed)."""

    def __init__(self, port):
        self.port = port
        self.reader = self.writer = None
        self.used = 0

    async def open(self):
        self.reader, self.writer = await asyncio.open_connection(HOST, self.port)
        self.used = 0

    def close(self, reset=False):
        if self.writer is not None:
            if reset:
                # SO_LINGER 0: the close sends a reset, as a client that crashes does.
                sock = self.writer.get_extra_info("socket")
                if sock is not None:
                    import socket
                    import struct
                    try:
                        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                    except OSError:
                        pass
            self.writer.close()
        self.reader = self.writer = None

    @staticmethod
    def encode(port, method, path, body=None, content_type="application/json", length=None, close=False):
        head = [f"{method} {path} HTTP/1.1", f"Host: {HOST}:{port}", "User-Agent: server_soak"]
        if body is not None:
            head.append(f"Content-Type: {content_type}")
            head.append(f"Content-Length: {len(body) if length is None else length}")
        if close:
            head.append("Connection: close")
        return ("\r\n".join(head) + "\r\n\r\n").encode() + (body or b"")

    async def request(self, method, path, body=None, content_type="application/json", timeout=60.0):
        """Sends a request and reads its answer (a fresh connection when needed, and once more
        when a kept-alive one turns out closed before answering)."""
        for attempt in (0, 1):
            fresh = self.writer is None
            if fresh:
                await self.open()
            started = time.monotonic()
            try:
                self.writer.write(self.encode(self.port, method, path, body, content_type))
                await self.writer.drain()
                status, headers, data = await asyncio.wait_for(self.read_response(), timeout)
            except (ConnectionError, asyncio.IncompleteReadError, EOFError) as e:
                self.close()
                if fresh or attempt == 1:
                    raise Garbled(f"{method} {path}: the connection failed: {e!r}") from None
                continue
            except asyncio.TimeoutError:
                self.close()
                raise Garbled(f"{method} {path}: no answer within {timeout:.0f} s") from None
            self.used += 1
            if headers.get("connection", "").lower() == "close":
                self.close()
            return Response(status, headers, data, time.monotonic() - started)
        raise AssertionError("unreachable")

    async def read_response(self):
        line = await self.reader.readline()
        if not line:
            raise EOFError("closed before the status line")
        m = re.fullmatch(rb"HTTP/1\.1 (\d{3}) [^\r\n]*\r\n", line)
        if not m:
            raise Garbled(f"not an HTTP/1.1 status line: {line[:100]!r}")
        status = int(m.group(1))
        headers = {}
        while True:
            line = await self.reader.readline()
            if line == b"\r\n":
                break
            if not line.endswith(b"\r\n") or b":" not in line:
                raise Garbled(f"a malformed header line: {line[:100]!r}")
            name, _, value = line.decode("latin-1").partition(":")
            headers[name.strip().lower()] = value.strip()
        if "content-length" in headers:
            data = await self.reader.readexactly(int(headers["content-length"]))
        elif headers.get("transfer-encoding", "").lower() == "chunked":
            data = b""
            while True:
                size = int((await self.reader.readline()).split(b";")[0].strip(), 16)
                if size == 0:
                    while (await self.reader.readline()) not in (b"\r\n", b""):
                        pass
                    break
                data += await self.reader.readexactly(size)
                await self.reader.readexactly(2)
        else:
            data = await self.reader.read()
            self.close()
        return status, headers, data


def strip_times(text):
    """The output without its timing line (the only part of a run's output that varies)."""
    return "\n".join(line for line in text.split("\n") if not line.startswith("Time needed"))


def hands_verdict(deal):
    """"pack" when a `deals` entry holds four hands of 13 cards that make a pack; "undealt" when
    the hands it holds are right but some are empty ("...": hands the run never dealt); else
    None."""
    if not isinstance(deal, dict) or not isinstance(deal.get("pbn"), str) or not deal["pbn"].startswith("N:"):
        return None
    hands = deal["pbn"][2:].split(" ")
    if len(hands) != 4 or [deal.get(s) for s in ("north", "east", "south", "west")] != hands:
        return None
    cards = set()
    empty = 0
    for hand in hands:
        suits = hand.split(".")
        if len(suits) != 4:
            return None
        for suit, holding in zip("SHDC", suits):
            if any(c not in RANKS for c in holding):
                return None
            cards.update(suit + c for c in holding)
        count = sum(len(s) for s in suits)
        if count == 0:
            empty += 1
        elif count != 13:
            return None
    if len(cards) != 13 * (4 - empty):
        return None
    return "pack" if empty == 0 else "undealt"


def repeat(head, unit, times, tail):
    return head + unit * times + tail


def hostile_entries():
    """The hostile requests: (name, endpoint, body bytes, content type, expectation). An
    expectation is a dict: `status` (a set; None: any documented one, the same every time),
    `code`, `place` (the script line the error names), `message` (a piece of it), `ceiling`."""
    entries = []

    def deal(name, script, expect, **fields):
        body = json.dumps(dict(script=script, **fields)).encode()
        entries.append((name, "/v1/deal", body, "application/json", expect))

    # Script errors.
    deal("syntax-error", "produce 2\ncondition hcp(north) &&& 3\n", {"status": {422}, "code": "script_error", "place": 2,
                                                                    "message": "syntax error"})
    deal("unknown-function", "condition hcpp(north) > 10\naction printoneline\n",
         {"status": {422}, "code": "script_error", "place": 1, "message": "unknown function"})
    deal("unterminated-string", "produce 2\n\"unterminated\n", {"status": {422}, "code": "script_error", "place": 2})
    deal("nul-inside", "condition hcp(north)\0 > 10\n", {"status": {422}, "code": "script_error", "place": 1})
    deal("not-utf8-replaced", "condition hcp(north) > 10 \ufffd\ufffd\naction printoneline\n",
         {"status": {422}, "code": "script_error", "place": 1})
    deal("predeal-twice", "predeal north SA\npredeal south SA\naction printoneline\n", {"status": None})
    deal("division-by-zero", "produce 3\ncondition hcp(north) / (hcp(south) - hcp(south)) > 1\naction printoneline\n",
         {"status": None})
    deal("empty", "", {"status": None})
    # Nesting depth and memory bounds (tests/limits.sh).
    deal("deep-sum-5000", repeat("produce 2\ncondition hcp(north)", "+hcp(south)", 5000, " > 10\n"),
         {"status": {422}, "code": "script_error", "message": "nested too deeply"})
    deal("deep-not-5000", repeat("produce 2\ncondition ", "!", 5000, "(hcp(north) > 10)\n"),
         {"status": {422}, "code": "script_error", "message": "nested too deeply"})
    deal("frequency-range", "generate 100\naction frequency (hcp(north), 0, 2000000000)\n",
         {"status": {422}, "code": "script_error", "place": 2, "message": "frequency range too large"})
    deal("frequency-table", "generate 100\naction frequency (hcp(north), 0, 5000, hcp(south), 0, 5000)\n",
         {"status": {422}, "code": "script_error", "message": "frequency table too large"})
    deal("generate-beyond-64-bits", "generate 99999999999999999999\nproduce 2\naction printoneline\n", {"status": None})
    # Programs refused under untrusted; double dummy refused to an anonymous client.
    deal("opc", "produce 1\ncondition hcp(north) > 10 && opc(NS) > 100\n", {"status": {422}, "message": "not allowed"})
    deal("usereval", "produce 1\nx = usereval(1, NS, 2)\ncondition x > 0\n", {"status": {422}, "message": "not allowed"})
    deal("double-dummy", "produce 1\ncondition dds(north, notrump) > 8\n",
         {"status": {403}, "code": "double_dummy_not_allowed"})
    # The ceilings: whole answers, the ceiling named.
    deal("time-ceiling", "generate 100000000\ncondition hcp(north) > 37\n", {"status": {200}, "ceiling": "time"},
         max_seconds=0.05)
    deal("output-ceiling", "produce 100000\naction printoneline\n", {"status": {200}, "ceiling": "output"},
         max_output_bytes=4096)
    # Bad requests.
    entries.append(("not-json", "/v1/deal", b"{not json", "application/json", {"status": {400}, "code": "bad_request"}))
    entries.append(("unknown-field", "/v1/deal", b'{"script":"produce 1","bogus":1}', "application/json",
                    {"status": {400}, "code": "bad_request"}))
    entries.append(("file-option", "/v1/deal", b'{"script":"produce 1","options":{"csv_file":"/tmp/x"}}',
                    "application/json", {"status": {400}, "code": "invalid_request"}))
    entries.append(("program-option", "/v1/deal", b'{"script":"produce 1","options":{"server":"/bin/sh"}}',
                    "application/json", {"status": {400}, "code": "invalid_request"}))
    entries.append(("format-html", "/v1/deal", b'{"script":"produce 1","format":"html"}', "application/json",
                    {"status": {400}, "code": "invalid_request"}))
    entries.append(("produce-zero", "/v1/deal", b'{"script":"produce 1","produce":0}', "application/json",
                    {"status": {400}, "code": "invalid_request"}))
    entries.append(("body-too-large", "/v1/deal", json.dumps({"script": "# x\n" * 20000}).encode(), "application/json",
                    {"status": {413}, "code": "too_large"}))
    entries.append(("text-plain", "/v1/deal", b'{"script":"produce 1"}', "text/plain", {"status": {415}}))
    entries.append(("unknown-path", "/v1/dael", b'{"script":"produce 1"}', "application/json",
                    {"status": {404}, "code": "not_found"}))
    # Random bytes (as a web page would send them: decoded with replacement characters).
    for seed in range(1, 5):
        rng = random.Random(seed * 7777)
        text = bytes(rng.randrange(256) for _ in range(300)).decode("utf-8", errors="replace")
        deal(f"random-bytes-{seed}", text, {"status": None})
    # Every input the fuzzers found.
    for folder in ("script", "capi"):
        for path in sorted(glob.glob(os.path.join(TOP, "tests", "fuzz-regressions", folder, "*"))):
            with open(path, "rb") as f:
                text = f.read().decode("utf-8", errors="replace")
            deal(f"fuzz-{folder}-{os.path.basename(path)[:50]}", text, {"status": None})
    return entries


# The generate ceiling: ~0.3 s of a run slot (10,000,000 deals), so rarer than the others.
GENERATE_CEILING = ("generate-ceiling", "/v1/deal",
                    json.dumps({"script": "generate 100000000\ncondition hcp(north) > 37\n"}).encode(),
                    "application/json", {"status": {200}, "ceiling": "generate"})

BROKEN_FOR_CHECK = [
    ("produce 2\ncondition hcp(north) &&& 3\n", 2),
    ("condition hcpp(north) > 10\naction printoneline\n", 1),
    ("produce 1\ncondition hcp(north) > 10\naction printoneline\n\ncondition ) > 3\n", 5),
]


def load_practice(shared):
    """The practice scripts: (name, text)."""
    scripts = []
    folders = []
    if shared and os.path.isdir(os.path.join(shared, "parity", "pbs", "scripts")):
        folders.append(("practice", os.path.join(shared, "parity", "pbs", "scripts")))
    for folder in ("examples-c", "examples/levelling", "tests/bench", "tests/bench/rare"):
        folders.append(("example/" + folder, os.path.join(TOP, folder)))
    for prefix, folder in folders:
        for path in sorted(glob.glob(os.path.join(folder, "*.dl*"))):
            if not re.search(r"\.(dl|dlr|dli)$", path):
                continue
            with open(path, "rb") as f:
                scripts.append((f"{prefix}/{os.path.basename(path)}", f.read().decode("utf-8", errors="replace")))
    return scripts


def percentile(values, p):
    if not values:
        return 0.0
    values = sorted(values)
    k = max(0, min(len(values) - 1, int(len(values) * p / 100.0 + 0.999999) - 1))
    return values[k]


class Soak:
    def __init__(self, args):
        self.args = args
        self.rng = random.Random(args.seed)
        self.practice = load_practice(args.shared)
        self.hostile = hostile_entries()
        self.references = {}      # (script index, variant, format) -> future of (rc, stdout, stderr)
        self.cli_slots = asyncio.Semaphore(2)
        self.outcomes = {}        # kind -> {label: count}
        self.latency = {}         # kind -> [seconds] of answered requests
        self.wrong = 0
        self.failures = []
        self.hostile_status = {}  # hostile name -> the first status seen
        self.samples = []         # (seconds, rss kB, fds, threads)
        self.stop = False
        self.bursts = []          # per burst: {status: count}
        self.references_run = 0
        self.compared = 0
        self.disconnects = {}
        self.undealt = 0          # answers whose `deals` hold hands never dealt ("...")
        self.undealt_example = None
        self.max_runs = args.max_runs or os.cpu_count() or 1
        self.max_queue = 4
        self.process = None
        self.port = None

    # ---- bookkeeping
    def count(self, kind, label, seconds=None):
        self.outcomes.setdefault(kind, {})
        self.outcomes[kind][label] = self.outcomes[kind].get(label, 0) + 1
        if seconds is not None:
            self.latency.setdefault(kind, []).append(seconds)

    def fail(self, what, why):
        self.wrong += 1
        if len(self.failures) < FAILURES_SHOWN:
            self.failures.append(f"{what}: {why}")
            print(f"FAIL: {what}: {why}", flush=True)

    # ---- the server
    def start_server(self, workdir):
        self.log_path = os.path.join(workdir, "dealer-server.log")
        env = dict(os.environ)
        env.update({
            "DEALER_SERVER_MAX_RUNS": str(self.max_runs),
            "DEALER_SERVER_MAX_QUEUE": str(self.max_queue),
            "DEALER_SERVER_QUEUE_WAIT_SECONDS": "2",
            "DEALER_SERVER_RATE_PER_SECOND": "0",
            "DEALER_SERVER_LOG_FORMAT": "json",
            "DEALER_SERVER_LOG_LEVEL": "info",
            "DEALER_SERVER_GRACE_SECONDS": "2",
        })
        self.log = open(self.log_path, "ab")
        self.process = subprocess.Popen([self.args.server, "--listen", f"{HOST}:0"], stdin=subprocess.DEVNULL,
                                        stdout=self.log, stderr=self.log, env=env)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with open(self.log_path, "rb") as f:
                m = re.search(rb'"listen":"127\.0\.0\.1:(\d+)"', f.read())
            if m:
                self.port = int(m.group(1))
                return
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        raise SystemExit(f"FAIL: dealer-server did not start (see {self.log_path})")

    def resources(self):
        """(resident kB, open descriptors, threads) of the server, or None once it is gone."""
        pid = self.process.pid
        try:
            rss = threads = 0
            with open(f"/proc/{pid}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        rss = int(line.split()[1])
                    elif line.startswith("Threads:"):
                        threads = int(line.split()[1])
            fds = len(os.listdir(f"/proc/{pid}/fd"))
            return rss, fds, threads
        except (OSError, ValueError):
            return None

    def alive(self):
        return self.process.poll() is None

    # ---- references
    async def reference(self, index, variant, fmt):
        key = (index, variant, fmt)
        if key not in self.references:
            self.references[key] = asyncio.ensure_future(self.run_cli(index, variant, fmt))
        return await self.references[key]

    async def run_cli(self, index, variant, fmt):
        seed, produce = VARIANTS[variant]
        async with self.cli_slots:
            process = await asyncio.create_subprocess_exec(
                self.args.cli, "--untrusted", "-R", "1", "-s", str(seed), "-p", str(produce), f"--format={fmt}",
                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
            out, err = await process.communicate(self.practice[index][1].encode())
        self.references_run += 1
        return process.returncode, out.decode("utf-8", errors="replace"), err.decode("utf-8", errors="replace")

    # ---- checks shared by the kinds
    def check_error_body(self, what, response, data):
        error = data.get("error") if isinstance(data, dict) else None
        if not isinstance(error, dict) or not isinstance(error.get("code"), str) or not isinstance(error.get("message"), str):
            self.fail(what, f"status {response.status} without an error object: {response.body[:200]!r}")
            return None
        for field in ("line", "column"):
            if field in error and not (isinstance(error[field], int) and error[field] >= 0):
                self.fail(what, f"error {field} is not a number: {error[field]!r}")
        return error

    def check_busy(self, what, response):
        """A 429 or 503 of the admission: returns True when it is one (and is right)."""
        if response.status not in BUSY:
            return False
        error = self.check_error_body(what, response, response.json())
        if error and error["code"] != BUSY[response.status]:
            self.fail(what, f"status {response.status} with code {error['code']} (expected {BUSY[response.status]})")
        if "retry-after" not in response.headers:
            self.fail(what, f"status {response.status} without Retry-After")
        return True

    def check_answer_shape(self, what, data):
        """The fields of a 200 of /v1/deal."""
        types = {"output": str, "diagnostics": str, "deals": list, "generated": int, "produced": int, "seed": int,
                 "elapsed_ms": (int, float)}
        for field, kind in types.items():
            if not isinstance(data.get(field), kind) or isinstance(data.get(field), bool):
                self.fail(what, f"field {field} missing or of the wrong type: {str(data.get(field))[:80]!r}")
                return False
        if data.get("ceiling") not in (None, "time", "generate", "output"):
            self.fail(what, f"ceiling {data.get('ceiling')!r}")
            return False
        verdicts = [hands_verdict(d) for d in data["deals"]]
        if None in verdicts:
            self.fail(what, f"a deal is not four hands of a pack: {str(data['deals'])[:200]}")
            return False
        if "undealt" in verdicts:
            # Counted apart (a row of its own): the other checks of the answer go on.
            self.undealt += 1
            if self.undealt_example is None:
                self.undealt_example = f"{what}: {data['deals'][verdicts.index('undealt')]['pbn']}"
        if len(data["deals"]) != min(data["produced"], 1000):
            self.fail(what, f"{len(data['deals'])} deals listed, {data['produced']} produced")
            return False
        return True

    # ---- the kinds of request
    async def practice_request(self, connection, kind="practice"):
        index = self.rng.randrange(len(self.practice))
        variant = self.rng.randrange(len(VARIANTS))
        fmt = self.rng.choice(FORMATS)
        seed, produce = VARIANTS[variant]
        name = self.practice[index][0]
        what = f"{kind} {name} seed {seed} produce {produce} format {fmt}"
        body = json.dumps({"script": self.practice[index][1], "seed": seed, "produce": produce, "format": fmt,
                           "max_seconds": 10}).encode()
        response = await connection.request("POST", "/v1/deal", body)
        data = response.json()
        if self.check_busy(what, response):
            self.count(kind, str(response.status))
            return response.status
        rc, out, _err = await self.reference(index, variant, fmt)
        self.compared += 1
        if rc == 0:
            if response.status != 200:
                self.fail(what, f"status {response.status} where the CLI succeeded: {response.body[:300]!r}")
            elif self.check_answer_shape(what, data):
                if strip_times(data["output"]) != strip_times(out):
                    a, b = strip_times(data["output"]).split("\n"), strip_times(out).split("\n")
                    line = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
                    self.fail(what, f"output differs from the CLI's at line {line + 1} "
                                    f"(service {a[line][:80] if line < len(a) else '<end>'!r}, "
                                    f"CLI {b[line][:80] if line < len(b) else '<end>'!r})")
                elif data["seed"] != seed:
                    self.fail(what, f"seed {data['seed']}, asked for {seed}")
                elif data["ceiling"] is not None:
                    self.fail(what, f"ceiling {data['ceiling']} on a practice request")
                elif data["produced"] > produce:
                    self.fail(what, f"{data['produced']} deals produced, asked for {produce}")
        elif response.status != 422:
            self.fail(what, f"status {response.status} where the CLI failed (exit {rc}): {response.body[:200]!r}")
        else:
            self.check_error_body(what, response, data)
        self.count(kind, str(response.status), response.seconds)
        return response.status

    async def hostile_request(self, connection, entry=None):
        name, path, body, content_type, expect = entry or self.rng.choice(self.hostile)
        what = f"hostile {name}"
        response = await connection.request("POST", path, body, content_type)
        data = response.json()
        if path == "/v1/deal" and self.check_busy(what, response):
            self.count("hostile", str(response.status))
            return
        wanted = expect["status"]
        if wanted is None:
            # Any documented status, the same every time.
            first = self.hostile_status.setdefault(name, response.status)
            if response.status not in (200, 403, 422) or response.status != first:
                self.fail(what, f"status {response.status} (first {first}; 200, 403 or 422 expected)")
        elif response.status not in wanted:
            self.fail(what, f"status {response.status}, expected {sorted(wanted)}: {response.body[:200]!r}")
        if response.status == 200:
            if self.check_answer_shape(what, data) and "ceiling" in expect and data["ceiling"] != expect["ceiling"]:
                self.fail(what, f"ceiling {data['ceiling']!r}, expected {expect['ceiling']!r}")
        elif response.status >= 400:
            error = self.check_error_body(what, response, data)
            if error:
                if "code" in expect and error["code"] != expect["code"]:
                    self.fail(what, f"code {error['code']}, expected {expect['code']}")
                if "message" in expect and expect["message"] not in error["message"]:
                    self.fail(what, f"message {error['message'][:120]!r} lacks {expect['message']!r}")
                if "place" in expect and (error.get("line") != expect["place"] or not error.get("column")):
                    self.fail(what, f"place line {error.get('line')} column {error.get('column')}, "
                                    f"expected line {expect['place']}")
        self.count("hostile", str(response.status), response.seconds)

    async def check_request(self, connection):
        if self.rng.random() < 0.3:
            script, line = self.rng.choice(BROKEN_FOR_CHECK)
            name = f"broken (line {line})"
        else:
            name, script = self.rng.choice(self.practice)
            line = None
        what = f"check {name}"
        response = await connection.request("POST", "/v1/check", json.dumps({"script": script}).encode())
        data = response.json()
        if response.status != 200:
            self.fail(what, f"status {response.status}: {response.body[:200]!r}")
        elif not isinstance(data.get("ok"), bool) or not isinstance(data.get("diagnostics"), list):
            self.fail(what, f"not {{ok, diagnostics}}: {response.body[:200]!r}")
        else:
            for d in data["diagnostics"]:
                if not (isinstance(d, dict) and d.get("source") in ("load", "bbo") and isinstance(d.get("line"), int)
                        and isinstance(d.get("column"), int) and isinstance(d.get("message"), str)):
                    self.fail(what, f"a malformed diagnostic: {str(d)[:200]}")
            load = [d for d in data["diagnostics"] if d.get("source") == "load"]
            if line is not None and (data["ok"] or not load or load[0]["line"] != line or load[0]["column"] < 1):
                self.fail(what, f"expected a load error at line {line}: {response.body[:300]!r}")
            if line is None and load:
                self.fail(what, f"a practice script does not load: {load[0]['message'][:200]}")
        self.count("check", str(response.status), response.seconds)

    async def info_request(self, connection):
        path = self.rng.choice(["/v1/health", "/v1/health", "/v1/version", "/v1/openapi.json", "/metrics"])
        response = await connection.request("GET", path)
        if response.status != 200:
            self.fail(f"GET {path}", f"status {response.status}")
        elif path == "/metrics":
            text = response.body.decode("utf-8", errors="replace")
            if "dealer_server_requests_total" not in text or any(
                    line and not line.startswith("#") and not re.fullmatch(r"[a-z_]+(\{[^}]*\})? \S+", line)
                    for line in text.split("\n")):
                self.fail("GET /metrics", f"not Prometheus text: {text[:200]!r}")
        else:
            data = response.json()
            if path == "/v1/health" and data.get("status") != "ok":
                self.fail("GET /v1/health", f"{data}")
            if path == "/v1/version" and data.get("service") != "dealer-server":
                self.fail("GET /v1/version", f"{data}")
        self.count("info", str(response.status), response.seconds)

    async def disconnect_request(self):
        """A client that goes away: mid-run, after half a body, or at once."""
        mode = self.rng.choice(["mid-run", "mid-run", "half-body", "at-once", "connect-only"])
        connection = Connection(self.port)
        try:
            await connection.open()
            if mode == "mid-run":
                body = json.dumps({"script": "generate 100000000\ncondition hcp(north) > 37\n",
                                   "max_seconds": self.rng.choice([0.3, 0.6, 1.0])}).encode()
                connection.writer.write(Connection.encode(self.port, "POST", "/v1/deal", body))
                await connection.writer.drain()
                await asyncio.sleep(self.rng.uniform(0.005, 0.2))
            elif mode == "half-body":
                body = json.dumps({"script": self.rng.choice(self.practice)[1]}).encode()
                wire = Connection.encode(self.port, "POST", "/v1/deal", body)
                connection.writer.write(wire[: len(wire) - len(body) // 2])
                await connection.writer.drain()
                await asyncio.sleep(self.rng.uniform(0, 0.05))
            elif mode == "at-once":
                index = self.rng.randrange(len(self.practice))
                body = json.dumps({"script": self.practice[index][1], "seed": 1, "produce": 3}).encode()
                connection.writer.write(Connection.encode(self.port, "POST", "/v1/deal", body))
                await connection.writer.drain()
        except (ConnectionError, OSError) as e:
            self.fail(f"disconnect {mode}", f"could not connect or send: {e!r}")
        finally:
            connection.close(reset=self.rng.random() < 0.3)
        self.disconnects[mode] = self.disconnects.get(mode, 0) + 1
        self.count("disconnect", mode)

    # ---- the clients
    async def client(self, number):
        connection = Connection(self.port)
        kinds = ["practice"] * 45 + ["hostile"] * 18 + ["check"] * 12 + ["disconnect"] * 8 + ["info"] * 8 + \
                ["generate-ceiling"]
        while not self.stop:
            kind = self.rng.choice(kinds)
            try:
                if kind == "practice":
                    await self.practice_request(connection)
                elif kind == "hostile":
                    await self.hostile_request(connection)
                elif kind == "generate-ceiling":
                    await self.hostile_request(connection, GENERATE_CEILING)
                elif kind == "check":
                    await self.check_request(connection)
                elif kind == "info":
                    await self.info_request(connection)
                else:
                    await self.disconnect_request()
            except Garbled as e:
                self.fail(f"client {number} ({kind})", str(e))
                connection.close()
                if not self.alive():
                    return
            # Now and then a new connection, as browsers do.
            if self.rng.random() < 0.1:
                connection.close()
        connection.close()

    async def bursts_loop(self):
        size = 3 * (self.max_runs + self.max_queue)
        await asyncio.sleep(3)
        while not self.stop:
            connections = [Connection(self.port) for _ in range(size)]

            async def one(c):
                try:
                    return await self.practice_request(c, "burst")
                except Garbled as e:
                    self.fail("burst", str(e))
                    return "garbled"
                finally:
                    c.close()

            # Connect first, so that the requests arrive together.
            await asyncio.gather(*(c.open() for c in connections), return_exceptions=True)
            statuses = await asyncio.gather(*(one(c) for c in connections))
            tally = {}
            for s in statuses:
                tally[s] = tally.get(s, 0) + 1
            self.bursts.append(tally)
            pause = time.monotonic() + self.rng.uniform(8, 16)
            while not self.stop and time.monotonic() < pause:
                await asyncio.sleep(0.25)

    async def sampler(self, began):
        next_report = 60
        while not self.stop:
            await asyncio.sleep(SAMPLE_SECONDS)
            if self.stop:
                break
            sample = self.resources()
            elapsed = time.monotonic() - began
            if sample is None:
                return
            self.samples.append((elapsed, *sample))
            if elapsed >= next_report:
                total = sum(sum(v.values()) for v in self.outcomes.values())
                print(f"soak-server: {elapsed:.0f} s, {total} requests, {self.wrong} wrong, resident "
                      f"{sample[0] / 1024:.1f} MiB, {sample[1]} descriptors, {sample[2]} threads", flush=True)
                next_report += 60

    async def quiet(self, idle_fds, seconds):
        """Waits until no run is in flight or queued and the descriptors are back to `idle_fds`
        (or `seconds` pass); returns the health answer seen last."""
        deadline = time.monotonic() + seconds
        health = None
        while time.monotonic() < deadline:
            connection = Connection(self.port)
            try:
                health = (await connection.request("GET", "/v1/health", timeout=5)).json()
            except Garbled:
                health = None
            finally:
                connection.close()
            await asyncio.sleep(0.3)
            sample = self.resources()
            if health and health.get("runs_in_progress") == 0 and health.get("queue_length") == 0 and sample \
                    and (idle_fds is None or sample[1] <= idle_fds):
                break
            await asyncio.sleep(0.2)
        return health

    async def main(self):
        workdir = tempfile.mkdtemp(prefix="server_soak.")
        self.start_server(workdir)
        print(f"soak-server: {self.args.seconds} s, {self.args.clients} clients, seed {self.args.seed}, "
              f"{subprocess.run([self.args.server, '--version'], capture_output=True, text=True).stdout.strip()}; "
              f"max_runs {self.max_runs}, max_queue {self.max_queue}, queue wait 2 s; port {self.port}; "
              f"MALLOC_ARENA_MAX {os.environ.get('MALLOC_ARENA_MAX', 'unset')}; corpus: "
              f"{sum(1 for n, _ in self.practice if n.startswith('practice/'))} practice and "
              f"{sum(1 for n, _ in self.practice if n.startswith('example/'))} example scripts, "
              f"{len(self.hostile) + 1} hostile requests", flush=True)
        if not any(n.startswith("practice/") for n, _ in self.practice):
            print(f"soak-server: no practice scripts in {self.args.shared}/parity/pbs/scripts: the examples only")
        await self.quiet(None, 5)
        start = self.resources()
        began = time.monotonic()
        self.samples.append((0.0, *start))
        tasks = [asyncio.ensure_future(self.client(n)) for n in range(self.args.clients)]
        tasks.append(asyncio.ensure_future(self.bursts_loop()))
        sampler = asyncio.ensure_future(self.sampler(began))
        while time.monotonic() - began < self.args.seconds and self.alive():
            await asyncio.sleep(0.5)
        self.stop = True
        served = time.monotonic() - began
        died = not self.alive()
        if not died:
            try:
                await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 90)
            except asyncio.TimeoutError:
                self.fail("the clients", "still waiting for answers 90 s after the end")
        for t in tasks:
            t.cancel()
        sampler.cancel()
        died = died or not self.alive()
        health = None if died else await self.quiet(start[1], 15)
        end = self.resources() if not died else None
        if end:
            self.samples.append((time.monotonic() - began, *end))
        metrics = ""
        if not died:
            connection = Connection(self.port)
            try:
                metrics = (await connection.request("GET", "/metrics")).body.decode()
            except Garbled:
                pass
            connection.close()
        # Stop it as a service manager does, and read its log.
        exit_code = None
        if not died:
            self.process.send_signal(signal.SIGTERM)
            try:
                exit_code = self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                exit_code = self.process.wait()
        self.log.close()
        log_problems = []
        with open(self.log_path, "rb") as f:
            for raw in f:
                if b'"level":"ERROR"' in raw or b"panicked" in raw:
                    if len(log_problems) < 5:
                        log_problems.append(raw.decode("utf-8", errors="replace").strip()[:300])
        passed = self.report(served, start, end, health, metrics, died, exit_code, log_problems)
        if passed and not os.environ.get("KEEP"):
            shutil.rmtree(workdir, ignore_errors=True)
        else:
            print(f"(the server's log: {self.log_path})")
        return passed

    def report(self, served, start, end, health, metrics, died, exit_code, log_problems):
        total = sum(sum(v.values()) for v in self.outcomes.values())
        print(f"\nrequests: {total} in {served:.0f} s, {total / served:.1f} per second; {self.compared} practice answers "
              f"compared with the CLI's ({self.references_run} CLI reference runs); disconnects: "
              + ", ".join(f"{k} {v}" for k, v in sorted(self.disconnects.items())))
        print(f"{'kind':<17} {'requests':>9} {'p50 ms':>9} {'p99 ms':>9}  outcomes (HTTP status; the latency is of "
              f"the answers but 429 and 503)")
        for kind in ("practice", "burst", "hostile", "check", "info", "disconnect"):
            counts = self.outcomes.get(kind, {})
            lat = self.latency.get(kind, [])
            print(f"{kind:<17} {sum(counts.values()):>9} {percentile(lat, 50) * 1000:>9.2f} "
                  f"{percentile(lat, 99) * 1000:>9.2f}  " + " ".join(f"{k} {v}" for k, v in sorted(counts.items())))
        burst_429 = sum(b.get(429, 0) for b in self.bursts)
        burst_503 = sum(b.get(503, 0) for b in self.bursts)
        burst_200 = sum(b.get(200, 0) for b in self.bursts)
        print(f"bursts: {len(self.bursts)} of {3 * (self.max_runs + self.max_queue)} requests at once: "
              f"{burst_200} answered, {burst_429} refused 429, {burst_503} refused 503")
        served_metrics = {}
        for line in metrics.split("\n"):
            m = re.fullmatch(r'dealer_server_requests_total\{endpoint="([^"]+)",outcome="([^"]+)"\} (\d+)', line)
            if m:
                served_metrics[f"{m.group(1)} {m.group(2)}"] = int(m.group(3))
        if served_metrics:
            print("the server's count (/metrics): " + ", ".join(f"{k} {v}" for k, v in sorted(served_metrics.items())))
        print("samples (s: resident MiB, descriptors, threads): " + "; ".join(
            f"{t:.0f}: {rss / 1024:.1f}, {fds}, {th}" for t, rss, fds, th in self.samples))

        rows = []

        def row(ok, text):
            rows.append(ok)
            print(f"{'ok:' if ok else 'FAIL:'} {text}")

        print()
        row(self.wrong == 0, f"every answer right and well formed ({total} requests, {self.wrong} wrong)")
        row(self.undealt == 0, f"every `deals` entry holds four dealt hands: {self.undealt} answers listed hands the "
            "run never dealt" + (f" (\"...\"), the first: {self.undealt_example}" if self.undealt else ""))
        row(not died and exit_code == 0, "the server ran throughout and stopped on SIGTERM with status 0"
            + ("" if not died else ": it DIED during the run") + (f" (exit status {exit_code})" if exit_code else ""))
        row(not log_problems, "no error or panic in the server's log" + ("" if not log_problems else ": "
                                                                            + " | ".join(log_problems)))
        row(len(self.bursts) == 0 or burst_429 > 0,
            f"the bursts overflowed the queue: {burst_429} refused with 429 over {len(self.bursts)} bursts")
        busy = {k: v for kind in self.outcomes.values() for k, v in kind.items() if k.startswith("5")}
        row(set(busy) <= {"503"}, "no 5xx but 503 queue_timeout" + (f": {busy}" if busy else ""))
        if health is not None:
            row(health.get("runs_in_progress") == 0 and health.get("queue_length") == 0,
                f"at rest at the end: {health.get('runs_in_progress')} runs in progress, "
                f"{health.get('queue_length')} queued")
        # Memory: the first quarter of the run (at least its first minute) is warm-up: the
        # scripts' tables, and glibc's malloc arenas of the blocking threads tokio adds as the
        # load varies (resident memory climbs for minutes, then levels; with MALLOC_ARENA_MAX=2
        # it stays flat). The level is the median of the second quarter's samples; the last
        # quarter's median and the end at rest must stay within max(16 MiB, 20 %) of it. A run
        # under 2 minutes is all warm-up: its growth is printed, not asserted.
        def median(values):
            values = sorted(values)
            return values[len(values) // 2] if values else 0

        warmup = max(60.0, served / 4)
        second = [rss for t, rss, _, _ in self.samples if warmup - 1 <= t <= max(served / 2, warmup + 30) + 1]
        last = [rss for t, rss, _, _ in self.samples if t >= served * 0.75 and t <= served + 1]
        level, median_last = median(second), median(last)
        at_end = end[0] if end else 0
        bound = level + max(16 * 1024, level // 5)
        series = [rss for t, rss, _, _ in self.samples if t > 0]
        if served < 120 and end:
            print(f"resident memory: growth not asserted in a run under 2 minutes ({series[0] / 1024 if series else 0:.1f} "
                  f"MiB at the first sample, {at_end / 1024:.1f} MiB at rest at the end)")
        elif second and last and end:
            row(max(median_last, at_end) <= bound,
                f"resident memory flat after warm-up ({warmup:.0f} s): median {level / 1024:.1f} MiB from then to "
                f"{max(served / 2, warmup + 30):.0f} s, {median_last / 1024:.1f} MiB in the last quarter, "
                f"{at_end / 1024:.1f} MiB at rest at the end (bound {bound / 1024:.1f} MiB: +16 MiB or +20 %); peak "
                f"{max(series) / 1024:.1f} MiB")
        else:
            row(False, "resident memory: " + ("not judged: the server is gone" if end is None else "too few samples"))
        row(end is not None and end[1] <= start[1],
            f"no descriptor left: {end[1] if end else '?'} open at rest at the end, {start[1]} at rest at the start "
            f"(peak {max(fds for _, _, fds, _ in self.samples)} under load)")
        passed = sum(rows)
        print(f"{passed} passed, {len(rows) - passed} failed")
        return passed == len(rows)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, required=True)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--seed", type=int, default=int(os.environ.get("SOAK_SEED", time.time() % 1000000)))
    parser.add_argument("--max-runs", type=int, default=0, help="the server's max_runs (default: the cores)")
    parser.add_argument("--server", default=os.path.join(TOP, "target", "server", "release", "dealer-server"))
    parser.add_argument("--cli", default=os.path.join(TOP, "target", "release", "dealer"))
    parser.add_argument("--shared", default=os.environ.get("SHARED", os.path.join(TOP, "..", "shared")))
    args = parser.parse_args()
    for program in (args.server, args.cli):
        if not os.access(program, os.X_OK):
            print(f"FAIL: {program} not found (make all server builds it)")
            print("0 passed, 1 failed")
            return 1
    soak = Soak(args)
    try:
        passed = asyncio.run(soak.main())
    finally:
        if soak.process is not None and soak.process.poll() is None:
            soak.process.kill()
            soak.process.wait()
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
