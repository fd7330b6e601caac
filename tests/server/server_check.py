#!/usr/bin/env python3
"""dealer-server used over real HTTP by a Python client (http.client and raw sockets), each
server started by the test on a loopback port of its own (`--listen 127.0.0.1:0`, the port read
from its "listening" log line).

Usage: server_check.py SERVER CLI OPENAPI [SCRIPT_DIR...]

Every answer is checked against the OpenAPI description (server/openapi.json: its path, method
and status must be described, its body valid against the schema there, with the jsonschema
package when the interpreter has it) and every `/v1/deal` answer against the CLI run with the
same script, seed and options (`dealer --untrusted -s SEED ...`): the same output, the deals as
data, the same counters. Then every refusal (bad JSON, wrong type, unknown fields and options,
script errors with their place, hostile scripts, ceilings, double dummy without a key, missing
and invalid keys, rate limit, full queue, queue timeout), CORS, request ids and the log, a
client that disconnects mid-run (its run interrupted, its slot given back), and SIGTERM under
load (every answer whole, the server gone within its bound). Prints ok/FAIL rows and
"N passed, M failed".
"""
import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

SERVER, CLI, OPENAPI = sys.argv[1:4]
SCRIPT_DIRS = sys.argv[4:]
SPEC = json.load(open(OPENAPI, encoding="utf-8"))
try:
    import jsonschema  # noqa: E402
except ImportError:  # the shell wrapper installs it; without it bodies are checked by hand only
    jsonschema = None

passed = failed = 0


def row(name, good, detail=""):
    global passed, failed
    if good:
        passed += 1
        print(f"ok: {name}")
    else:
        failed += 1
        print(f"FAIL: {name}" + (f" ({detail})" if detail else ""))
    sys.stdout.flush()


class Server:
    """One dealer-server process with its environment and its log."""

    def __init__(self, env=None, args=()):
        self.log = tempfile.NamedTemporaryFile(prefix="dealer-server-", suffix=".log", delete=False)
        environment = {k: v for k, v in os.environ.items() if not k.startswith("DEALER_SERVER_")}
        environment.update({"DEALER_SERVER_RATE_PER_SECOND": "0", **(env or {})})
        self.process = subprocess.Popen([SERVER, "--listen", "127.0.0.1:0", *args], env=environment,
                                        stdout=subprocess.DEVNULL, stderr=self.log)
        self.port = None
        deadline = time.time() + 15
        while time.time() < deadline and self.port is None:
            for entry in self.log_entries():
                if entry.get("message") == "listening":
                    self.port = int(entry["listen"].rsplit(":", 1)[1])
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        if self.port is None:
            raise RuntimeError("dealer-server did not start: " + open(self.log.name).read())

    def log_entries(self):
        entries = []
        for line in open(self.log.name, encoding="utf-8", errors="replace"):
            try:
                entries.append(json.loads(line))
            except ValueError:
                entries.append({"unparsed": line})
        return entries

    def request(self, method, path, body=None, headers=None, timeout=60):
        """(status, headers, body bytes) of one request on a new connection."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        head = dict(headers or {})
        if body is not None and not isinstance(body, (bytes, str)):
            body = json.dumps(body)
            head.setdefault("Content-Type", "application/json")
        connection.request(method, path, body=body, headers=head)
        response = connection.getresponse()
        data = response.read()
        connection.close()
        answer = (response.status, {k.lower(): v for k, v in response.getheaders()}, data)
        conforms(method, path, answer)
        return answer

    def json(self, method, path, body=None, headers=None, timeout=60):
        status, head, data = self.request(method, path, body, headers, timeout)
        return status, head, json.loads(data)

    def stop(self, sig=signal.SIGTERM, wait=20):
        if self.process.poll() is None:
            self.process.send_signal(sig)
        try:
            return self.process.wait(wait)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            return None
        finally:
            os.unlink(self.log.name)


# ---- The OpenAPI description ---------------------------------------------------------------
undescribed = []
invalid_bodies = []


def conforms(method, path, answer):
    """Records an answer the description does not describe, or whose body breaks its schema."""
    status, head, data = answer
    operation = SPEC["paths"].get(path, {}).get(method.lower())
    if operation is None:
        return  # the 404 of an unknown path, or a method the API does not have
    described = operation["responses"].get(str(status))
    if described is None:
        undescribed.append(f"{method} {path} {status}")
        return
    if "x-request-id" not in head:
        undescribed.append(f"{method} {path} {status} without X-Request-Id")
    content = described.get("content")
    if not content:
        return
    media, schema = next(iter(content.items()))
    if not head.get("content-type", "").startswith(media):
        invalid_bodies.append(f"{method} {path} {status}: content type {head.get('content-type')}, not {media}")
        return
    if media != "application/json":
        return
    try:
        body = json.loads(data)
    except ValueError as e:
        invalid_bodies.append(f"{method} {path} {status}: not JSON ({e})")
        return
    if jsonschema is not None:
        root = dict(schema, components=SPEC["components"])
        errors = sorted(jsonschema.Draft202012Validator(root).iter_errors(body), key=str)
        if errors:
            invalid_bodies.append(f"{method} {path} {status}: {errors[0].message} at {list(errors[0].absolute_path)}")


# A run that finds nothing until its time ceiling: a condition on three seats, which smart
# dealing cannot count, under a generate ceiling far away (the servers that run it raise it).
NEVER = "generate 1000000000000\ncondition spades(north) + hearts(south) + diamonds(east) == 39\nproduce 1\n"
FAR = {"DEALER_SERVER_MAX_GENERATE": str(10**12)}

# ---- The CLI as reference ------------------------------------------------------------------
def without_timing(text):
    text = re.sub(r"(?m)^Time needed.*\n", "", text)
    return re.sub(r'"seconds":[0-9.]+', '"seconds":_', text)


def cli_run(script, seed, extra=()):
    """The CLI's exit status, output and diagnostics for a script given on standard input (as
    the service's, which has no file name either)."""
    done = subprocess.run([CLI, "--untrusted", "-s", str(seed), *extra], input=script.encode("utf-8", "replace"),
                          capture_output=True, timeout=60)
    return done.returncode, done.stdout.decode("utf-8", "replace"), done.stderr.decode("utf-8", "replace")


def oneline_deals(output):
    """The deals a printoneline output shows, as PBN deals."""
    deals = []
    for line in output.splitlines():
        m = re.match(r"^n (\S+) e (\S+) s (\S+) w (\S+) $", line)
        if m:
            deals.append("N:" + " ".join(m.groups()))
    return deals


def main():
    practice = [
        ("1NT opener", "condition shape(north, any 4333 + any 4432 + any 5332) and hcp(north) >= 15 and hcp(north) <= 17\n"
                        "produce 4\naction printoneline\n"),
        ("weak two with a side four", "condition hearts(south) == 6 and spades(south) == 4 and hcp(south) >= 6 and hcp(south) <= 10\n"
                                      "produce 3\naction printoneline, average hcp(north)\n"),
        ("rare: 22+ balanced opposite spades", "condition hcp(north) >= 22 and shape(north, any 4333 + any 4432 + any 5332) and "
                                                "spades(south) >= 5 and hcp(south) >= 8\nproduce 2\naction printoneline\n"),
    ]
    server = Server(FAR)
    try:
        # The fixed endpoints.
        status, head, version = server.json("GET", "/v1/version")
        cli_version = subprocess.run([CLI, "--version"], capture_output=True, text=True).stdout
        row("GET /v1/version: the service, the library's version (as the CLI's), api v1",
            status == 200 and version["api"] == "v1" and version["library"] in cli_version, str(version))
        status, _, health = server.json("GET", "/v1/health")
        row("GET /v1/health: 200 ok, nothing running", status == 200 and health["status"] == "ok" and health["runs_in_progress"] == 0)
        status, head, data = server.request("GET", "/v1/openapi.json")
        row("GET /v1/openapi.json is server/openapi.json", status == 200 and json.loads(data) == SPEC)
        status, _, data = server.request("GET", "/nothing/here")
        row("an unknown path: 404 with an error body", status == 404 and json.loads(data)["error"]["code"] == "not_found")

        # Answers the same as the CLI's.
        for name, script in practice:
            for seed in (1, 20260512):
                status, _, answer = server.json("POST", "/v1/deal", {"script": script, "seed": seed})
                code, out, err = cli_run(script, seed)
                deals = [d["pbn"] for d in answer.get("deals", [])] if status == 200 else None
                produced = re.search(r"Produced\s+(\d+)", out)
                row(f"{name}, seed {seed}: output, deals and counters as the CLI's",
                    status == 200 and code == 0 and without_timing(answer["output"]) == without_timing(out)
                    and answer["diagnostics"] == err and deals == oneline_deals(out)
                    and produced and answer["produced"] == int(produced.group(1)) and answer["seed"] == seed,
                    f"status {status}, cli {code}")
        for fmt in ("pbn", "lin", "jsonl"):
            script = practice[0][1]
            status, _, answer = server.json("POST", "/v1/deal", {"script": script, "seed": 9, "format": fmt, "produce": 3,
                                                                 "options": {"start_board": 5, "rotate": True}})
            code, out, _ = cli_run(script, 9, [f"--format={fmt}", "-p", "3", "--start-board=5", "--rotate"])
            row(f"format {fmt} with start_board and rotate: the CLI's records, three deals",
                status == 200 and without_timing(answer["output"]) == without_timing(out) and len(answer["deals"]) == 3,
                f"status {status}")
        status, _, answer = server.json("POST", "/v1/deal", {"script": practice[0][1], "seed": 3, "dialect": "classic", "produce": 2})
        code, out, _ = cli_run(practice[0][1], 3, ["--dialect=classic", "-p", "2"])
        row("dialect classic: the CLI's output in classic dealer's form", status == 200 and without_timing(answer["output"]) == without_timing(out))
        status, _, answer = server.json("POST", "/v1/deal", {"script": practice[0][1], "seed": 3, "deals": 1})
        row("deals: 1 lists one deal of the four produced", status == 200 and len(answer["deals"]) == 1 and answer["produced"] == 4)
        status, _, answer = server.json("POST", "/v1/deal", {"script": "produce 1\naction printoneline\n"})
        status2, _, again = server.json("POST", "/v1/deal", {"script": "produce 1\naction printoneline\n", "seed": answer["seed"]})
        row("without a seed: a seed chosen and reported, which deals the same deal again",
            status == 200 and status2 == 200 and answer["output"].split("\n")[0] == again["output"].split("\n")[0])

        # Scripts the test was not written for: every script of the given folders that the CLI
        # runs under --untrusted within a second, with produce 2.
        compared = same = 0
        for folder in SCRIPT_DIRS:
            for entry in sorted(os.listdir(folder))[:80]:
                path = os.path.join(folder, entry)
                if not os.path.isfile(path) or os.path.getsize(path) > 60000:
                    continue
                if not entry.endswith((".dlr", ".dl", ".dea", ".txt")):
                    continue
                script = open(path, encoding="latin-1").read()
                try:
                    code, out, err = cli_run(script, 11, ["-p", "2", "-g", "200000"])
                except subprocess.TimeoutExpired:
                    continue
                if code != 0 or "tricks" in script or "score" in script or "par" in script:
                    continue
                status, _, answer = server.json("POST", "/v1/deal", {"script": script, "seed": 11, "produce": 2, "generate": 200000})
                compared += 1
                if status == 200 and without_timing(answer["output"]) == without_timing(out):
                    same += 1
                else:
                    print(f"  differs: {path} (status {status})")
        row(f"{compared} scripts of {', '.join(SCRIPT_DIRS) or 'no folder'}: the CLI's output", compared >= 5 and same == compared,
            f"{same} of {compared}")

        # /v1/check.
        status, _, checked = server.json("POST", "/v1/check", {"script": "condition hcp(nrth) > 10\n"})
        code, _, err = cli_run("condition hcp(nrth) > 10\n", 1, ["--explain"])
        m = re.search(r"line (\d+), column (\d+)", err)
        load = [d for d in checked.get("diagnostics", []) if d["source"] == "load"]
        row("check: a script error with the CLI's line and column, not ok",
            status == 200 and not checked["ok"] and load and m and (load[0]["line"], load[0]["column"]) == (int(m.group(1)), int(m.group(2))),
            str(checked)[:200])
        status, _, checked = server.json("POST", "/v1/check", {"script": "condition ltc(north) <= 7\nproduce 1\naction printoneline\n", "dialect": "v2"})
        row("check: a script DealerV2 takes and BBO refuses has only BBO's diagnostics",
            status == 200 and checked["diagnostics"] and all(d["source"] == "bbo" for d in checked["diagnostics"]), str(checked)[:300])
        status, _, checked = server.json("POST", "/v1/check", {"script": practice[0][1]})
        row("check: a clean script is ok with no diagnostics", status == 200 and checked == {"ok": True, "diagnostics": []}, str(checked))

        # Refusals.
        status, _, body = server.json("POST", "/v1/deal", b"{not json", {"Content-Type": "application/json"})
        row("bad JSON: 400 bad_request", status == 400 and body["error"]["code"] == "bad_request")
        status, _, body = server.json("POST", "/v1/deal", b'{"script":"x"}', {"Content-Type": "text/plain"})
        row("not sent as JSON: 415", status == 415)
        status, _, body = server.json("POST", "/v1/deal", {"script": "produce 1", "colour": "red"})
        row("an unknown field: 400 naming it", status == 400 and "colour" in body["error"]["message"])
        for key in ("csv_file", "opc_program", "server", "input", "untrusted", "threads"):
            status, _, body = server.json("POST", "/v1/deal", {"script": "produce 1", "options": {key: "/etc/passwd"}})
            row(f"option {key}: 400 invalid_request", status == 400 and body["error"]["code"] == "invalid_request")
        status, _, body = server.json("POST", "/v1/deal", {"script": "produce 1", "options": {"swap": 1}})
        row("an option value the library refuses: 422 invalid_request", status == 422 and body["error"]["code"] == "invalid_request", str(body))
        status, _, body = server.json("POST", "/v1/deal", {"script": "condition hcp(north) >\nproduce 1\n"})
        row("a script error: 422 script_error with line and column",
            status == 422 and body["error"]["code"] == "script_error" and body["error"]["line"] >= 1 and "column" in body["error"])
        status, _, body = server.json("POST", "/v1/deal", {"script": "condition tricks(north, notrump) >= 9\nproduce 1\n"})
        row("double dummy for an anonymous client: 403", status == 403 and body["error"]["code"] == "double_dummy_not_allowed")
        status, _, body = server.json("POST", "/v1/deal", {"script": "action printoneline\n", "options": {"csv_file": "x"}})
        hostile_dir = os.path.join(os.path.dirname(__file__), "..", "fuzz-regressions", "script")
        statuses = {}
        for entry in sorted(os.listdir(hostile_dir)):
            script = open(os.path.join(hostile_dir, entry), "rb").read().decode("utf-8", "replace")
            status, _, body = server.json("POST", "/v1/deal", {"script": script, "max_seconds": 2, "seed": 1}, timeout=30)
            statuses[status] = statuses.get(status, 0) + 1
        row(f"{sum(statuses.values())} hostile scripts (tests/fuzz-regressions/script): each answered 200, 403 or 422",
            set(statuses) <= {200, 403, 422}, str(statuses))
        # The soak's hostile requests (tests/soak/server_soak.py: script errors, nesting and
        # memory bounds, programs, random bytes, every fuzzer input, bad requests), each once
        # with its documented status, code, place and message.
        sys.dont_write_bytecode = True
        sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "soak"))
        from server_soak import hostile_entries  # noqa: E402  (the soak's own corpus)
        wrong = []
        entries = hostile_entries()
        for name, path, body, content_type, expect in entries:
            status, _, data = server.request("POST", path, body, {"Content-Type": content_type}, timeout=30)
            try:
                answer = json.loads(data)
            except ValueError:
                wrong.append(f"{name}: not JSON")
                continue
            error = answer.get("error", {})
            if expect.get("status") is not None and status not in expect["status"]:
                wrong.append(f"{name}: status {status}")
            elif status >= 500:
                wrong.append(f"{name}: status {status}")
            elif "code" in expect and error.get("code") != expect["code"]:
                wrong.append(f"{name}: code {error.get('code')}")
            elif "place" in expect and error.get("line") != expect["place"]:
                wrong.append(f"{name}: line {error.get('line')}")
            elif "message" in expect and expect["message"] not in error.get("message", ""):
                wrong.append(f"{name}: message {error.get('message', '')[:80]}")
            elif "ceiling" in expect and answer.get("ceiling") != expect["ceiling"]:
                wrong.append(f"{name}: ceiling {answer.get('ceiling')}")
        row(f"{len(entries)} hostile requests of the soak's set: each its documented status, code, place and message",
            not wrong and len(entries) >= 30, "; ".join(wrong[:5]))
        status, _, body = server.json("POST", "/v1/deal", {"script": NEVER, "max_seconds": 0.5})
        row("the time ceiling: 200 with ceiling time, nothing produced, within the ceiling",
            status == 200 and body["ceiling"] == "time" and body["produced"] == 0 and body["elapsed_ms"] < 1500, str(body)[:200])
        status, _, body = server.json("POST", "/v1/deal", {"script": "produce 50\naction printall\n", "max_output_bytes": 1000, "seed": 2})
        row("the output ceiling: 200 with ceiling output, whole deals within it, deals as printed",
            status == 200 and body["ceiling"] == "output" and len(body["output"].encode()) <= 1000
            and len(body["deals"]) == body["produced"] and 0 < body["produced"] < 50, str(body)[:200])
        row("every answer so far is described by the OpenAPI description", not undescribed, "; ".join(undescribed[:5]))
        row("every body so far is valid against its schema" + ("" if jsonschema else " (by hand: jsonschema missing)"),
            not invalid_bodies, "; ".join(invalid_bodies[:5]))

        # Request ids and the log.
        status, head, _ = server.request("GET", "/v1/health", headers={"X-Request-Id": "table-7.round-3"})
        row("a client's X-Request-Id comes back", head.get("x-request-id") == "table-7.round-3")
        status, head, _ = server.request("GET", "/v1/health", headers={"X-Request-Id": "bad id with spaces"})
        row("an unusable request id is replaced by the server's own", head.get("x-request-id", "").count(" ") == 0 and head.get("x-request-id"))
        entries = server.log_entries()
        lines = [e for e in entries if e.get("message") == "request"]
        row("the log: one JSON line per request with id, route, status, outcome, milliseconds",
            all("unparsed" not in e for e in entries) and any(e.get("request_id") == "table-7.round-3" for e in lines)
            and all({"request_id", "path", "status", "outcome", "ms"} <= e.keys() for e in lines), str(lines[-1:])[:300])

        # A client that disconnects mid-run: its run is interrupted and its slot given back.
        body = json.dumps({"script": NEVER, "max_seconds": 8}).encode()
        raw = socket.create_connection(("127.0.0.1", server.port))
        raw.sendall(b"POST /v1/deal HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: "
                    + str(len(body)).encode() + b"\r\n\r\n" + body)
        wait_for(server, lambda h: h["runs_in_progress"] == 1)
        _, _, during = server.json("GET", "/v1/health")
        raw.close()
        freed = None
        started = time.time()
        while time.time() - started < 3:
            _, _, after = server.json("GET", "/v1/health")
            if after["runs_in_progress"] == 0:
                freed = time.time() - started
                break
            time.sleep(0.05)
        _, _, metrics = server.request("GET", "/metrics")
        row("a client that disconnects: its run stops (within 2 s), counted as disconnected",
            during["runs_in_progress"] == 1 and freed is not None and freed < 2.0
            and b'outcome="disconnected"} 1' in metrics, f"during {during}, freed after {freed}")
        abandoned = [e for e in server.log_entries() if e.get("outcome") == "disconnected"]
        row("the log: the abandoned request's line, with its id", len(abandoned) == 1 and abandoned[0].get("request_id"), str(abandoned))
        row("the metrics: requests by outcome, latency histogram, runs, queue, deals",
            all(name in metrics for name in (b"dealer_server_requests_total", b"dealer_server_request_duration_seconds_bucket",
                                               b"dealer_server_runs_in_progress", b"dealer_server_queue_length",
                                               b"dealer_server_deals_produced_total")))
    finally:
        code = server.stop()
    row("SIGTERM with nothing running: exit status 0", code == 0, str(code))

    check_keys_and_double_dummy()
    check_rate_limit_and_cors()
    check_queue()
    check_sigterm_under_load()
    row("every answer is described by the OpenAPI description", not undescribed, "; ".join(undescribed[:5]))
    row("every body is valid against its schema", not invalid_bodies, "; ".join(invalid_bodies[:5]))
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


def check_keys_and_double_dummy():
    dd_key, plain_key = "dd-key-0123456789abcdef", "plain-key-0123456789abcdef"
    server = Server({"DEALER_SERVER_API_KEYS": f"coach:{dd_key}:dd,site:{plain_key}", "DEALER_SERVER_REQUIRE_KEY": "true"})
    try:
        status, _, body = server.json("POST", "/v1/check", {"script": "produce 1"})
        row("require_key: no key, 401", status == 401 and body["error"]["code"] == "unauthorized")
        status, _, body = server.json("POST", "/v1/check", {"script": "produce 1"}, {"Authorization": "Bearer wrong-key-0123456789abcdef"})
        row("an invalid key: 401", status == 401)
        status, _, body = server.json("POST", "/v1/check", {"script": "produce 1"}, {"X-API-Key": plain_key})
        row("a valid key in X-API-Key: 200", status == 200)
        script = "condition hcp(north) >= 15\nproduce 1\naction printoneline, average tricks(north, notrump)\n"
        status, _, body = server.json("POST", "/v1/deal", {"script": script, "seed": 4}, {"Authorization": f"Bearer {plain_key}"})
        row("double dummy with a key that may not: 403", status == 403)
        status, _, body = server.json("POST", "/v1/deal", {"script": script, "seed": 4}, {"Authorization": f"Bearer {dd_key}"})
        code, out, _ = cli_run(script, 4)
        row("double dummy with a key that may: the CLI's output", status == 200 and without_timing(body["output"]) == without_timing(out),
            f"status {status}")
    finally:
        server.stop()


def check_rate_limit_and_cors():
    server = Server({"DEALER_SERVER_RATE_PER_SECOND": "1", "DEALER_SERVER_RATE_BURST": "2",
                     "DEALER_SERVER_CORS_ORIGINS": "https://club.example"})
    try:
        answers = [server.request("POST", "/v1/check", {"script": "produce 1"}) for _ in range(3)]
        status, head, data = answers[2]
        row("rate limit (1/s, burst 2): the third request at once is 429 with Retry-After",
            [a[0] for a in answers] == [200, 200, 429] and json.loads(data)["error"]["code"] == "rate_limited" and int(head["retry-after"]) >= 1)
        time.sleep(1.1)
        row("after a second the client may ask again", server.request("POST", "/v1/check", {"script": "produce 1"})[0] == 200)
        status, head, _ = server.request("OPTIONS", "/v1/deal", headers={
            "Origin": "https://club.example", "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type"})
        row("CORS: a preflight from an allowed origin is allowed",
            status in (200, 204) and head.get("access-control-allow-origin") == "https://club.example", str(head))
        status, head, _ = server.request("GET", "/v1/version", headers={"Origin": "https://evil.example"})
        row("CORS: another origin gets no Access-Control-Allow-Origin", "access-control-allow-origin" not in head)
    finally:
        server.stop()
    server = Server({"DEALER_SERVER_MAX_GENERATE": "100000"})
    try:
        status, _, body = server.json("POST", "/v1/deal", {"script": "condition hcp(north) > 37\nproduce 1\n", "generate": 20000000})
        row("generate past the service's maximum (100,000 here): capped, 200 with ceiling generate",
            status == 200 and body["ceiling"] == "generate" and body["generated"] == 100000, str(body)[:200])
        status, head, _ = server.request("GET", "/v1/version", headers={"Origin": "https://club.example"})
        row("CORS off by default: no Access-Control-Allow-Origin", "access-control-allow-origin" not in head)
        big = {"script": "#" * (70 * 1024)}
        status, _, data = server.request("POST", "/v1/deal", big)
        row("a body past max_body_bytes (64 KiB): 413 too_large", status == 413 and json.loads(data)["error"]["code"] == "too_large")
    finally:
        server.stop()


def wait_for(server, condition, seconds=10):
    """Whether /v1/health satisfies `condition` within `seconds` (asked every 20 ms)."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        if condition(server.json("GET", "/v1/health")[2]):
            return True
        time.sleep(0.02)
    return False


def long_request(server, results, index, seconds=3.0):
    """A run that finds nothing until its time ceiling; its answer goes to results[index]."""
    try:
        results[index] = server.json("POST", "/v1/deal", {"script": NEVER, "max_seconds": seconds})
    except Exception as e:  # noqa: BLE001  (a lost answer is what the test looks for)
        results[index] = ("lost", {}, str(e))


def check_queue():
    server = Server({**FAR, "DEALER_SERVER_MAX_RUNS": "1", "DEALER_SERVER_MAX_QUEUE": "1", "DEALER_SERVER_QUEUE_WAIT_SECONDS": "1"})
    try:
        results = [None, None]
        first = threading.Thread(target=long_request, args=(server, results, 0, 3.0))
        first.start()
        settled = wait_for(server, lambda h: h["runs_in_progress"] == 1)
        second = threading.Thread(target=long_request, args=(server, results, 1, 1.0))
        second.start()
        settled &= wait_for(server, lambda h: h["queue_length"] == 1)
        row("the first request runs, the second waits in the queue", settled)
        status, head, body = server.json("POST", "/v1/deal", {"script": "produce 1"})
        row("max_runs 1, max_queue 1: a third request is refused at once, 429 queue_full with Retry-After",
            status == 429 and body["error"]["code"] == "queue_full" and "retry-after" in head, str(body))
        second.join()
        status, head, body = results[1]
        row("the queued request waits at most queue_wait_seconds: 503 queue_timeout with Retry-After",
            status == 503 and body["error"]["code"] == "queue_timeout" and "retry-after" in head, str(body))
        first.join()
        row("the running request is answered whole (time ceiling)", results[0][0] == 200 and results[0][2]["ceiling"] == "time")
        status, _, body = server.json("POST", "/v1/deal", {"script": "produce 1"})
        row("the slot is free again afterwards", status == 200)
    finally:
        server.stop()


def check_sigterm_under_load():
    server = Server({**FAR, "DEALER_SERVER_MAX_RUNS": "2", "DEALER_SERVER_GRACE_SECONDS": "1"})
    results = [None] * 6
    threads = [threading.Thread(target=long_request, args=(server, results, i, 8.0)) for i in range(2)]
    quick = "condition hcp(north) >= 12\nproduce 200\naction printoneline\n"

    def quick_request(i):
        try:
            results[i] = server.json("POST", "/v1/deal", {"script": quick, "seed": i})
        except Exception as e:  # noqa: BLE001
            results[i] = ("lost", {}, str(e))

    threads += [threading.Thread(target=quick_request, args=(i,)) for i in range(2, 6)]
    for t in threads[:2]:
        t.start()
    row("SIGTERM under load: two long runs in progress first", wait_for(server, lambda h: h["runs_in_progress"] == 2))
    for t in threads[2:]:
        t.start()
    row("SIGTERM under load: four more requests waiting", wait_for(server, lambda h: h["queue_length"] == 4))
    started = time.time()
    server.process.send_signal(signal.SIGTERM)
    time.sleep(0.2)
    try:
        status, _, body = server.json("POST", "/v1/deal", {"script": "produce 1"}, timeout=5)
        refused = status == 503 and body["error"]["code"] in ("stopping", "queue_timeout")
    except (ConnectionError, OSError):
        refused = True  # the listener is closed: also a refusal
    for t in threads:
        t.join(30)
    code = server.process.wait(20)
    took = time.time() - started
    whole = True
    for r in results:
        status, _, body = r
        if status == 200:
            whole &= "output" in body
        elif status == 503:
            whole &= body["error"]["code"] in ("interrupted", "queue_timeout", "stopping") and (
                body["error"]["code"] != "interrupted" or "output" in body.get("answer", {}))
        else:
            whole = False
    statuses = [r[0] for r in results]
    row("SIGTERM under load: new runs refused", refused)
    row("SIGTERM under load: every request answered whole (200, or 503 interrupted with its output so far)", whole, str(statuses))
    row("SIGTERM under load: the long runs interrupted after the 1 s grace", [r[0] for r in results[:2]] == [503, 503]
        and all(r[2]["error"]["code"] == "interrupted" for r in results[:2]), str(statuses))
    row("SIGTERM under load: exit status 0 within grace + 5 s", code == 0 and took < 1 + 5 + 1, f"code {code}, {took:.1f} s")
    os.unlink(server.log.name)


if __name__ == "__main__":
    sys.exit(main())
