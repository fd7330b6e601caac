#!/usr/bin/env bash
# dealer-server (make server) used over HTTP on loopback ports the test picks, with two real
# clients:
#
# 1. curl: the endpoints, a deal whose `output` is the CLI's for the same script and seed, and
#    refusals (a body past the cap, bad JSON, a wrong key, a method the API does not have).
# 2. tests/server/server_check.py (Python's http.client and raw sockets, with jsonschema from
#    PyPI in a virtual environment of its own, target/server-venv, to check every answer against
#    server/openapi.json, which openapi-spec-validator checks first): every endpoint and refusal
#    (the soak's hostile requests among them), answers the same as the CLI's on the
#    practice scripts and on every script of ../shared/parity/pbs/scripts and tests/bench/rare,
#    ceilings, keys, double dummy, rate limit, CORS, the queue, a client that disconnects,
#    SIGTERM under load.
#
# The server's own unit tests (config, requests, admission, rate limit, keys) run first
# (`cargo test` in server/, make server-test). Prints ok/FAIL rows and "N passed, M failed".
set -u
. "$(dirname "$0")/lib.sh"
require_cli
server=${DEALER_SERVER:-$top/target/server/release/dealer-server}
[ -x "$server" ] || { ko "$server not found (make server)"; finish; }
command -v curl >/dev/null || { ko "curl is not installed (tools/install_deps.sh test)"; finish; }

# The Python client's environment: jsonschema and openapi-spec-validator from PyPI (once per
# build folder).
venv=${SERVER_VENV:-$top/target/server-venv}
if ! "$venv/bin/python" -c 'import jsonschema, openapi_spec_validator' >/dev/null 2>&1; then
  rm -rf "$venv"
  if ! { python3 -m venv "$venv" &&
    "$venv/bin/python" -m pip --disable-pip-version-check --no-input -q install jsonschema openapi-spec-validator; } >/dev/null 2>&1; then
    ko "a virtual environment with jsonschema and openapi-spec-validator (python3 -m venv, pip install)"
    venv=
  fi
fi
python=${venv:+$venv/bin/python}
python=${python:-python3}

enter_work_dir
if [ -n "$venv" ] && "$venv/bin/python" -c 'import json, sys; from openapi_spec_validator import validate
validate(json.load(open(sys.argv[1])))' "$top/server/openapi.json" 2>spec.err; then
  ok "server/openapi.json is a valid OpenAPI 3.1 description, as openapi-spec-validator reads it"
else
  ko "server/openapi.json is a valid OpenAPI description" "$(tail -n 3 spec.err 2>/dev/null)"
fi
port_of() { # log file: the port of the "listening" line
  local i
  for i in $(seq 100); do
    port=$(sed -n 's/.*"message":"listening".*"listen":"127.0.0.1:\([0-9]*\)".*/\1/p' "$1" | head -n 1)
    [ -n "$port" ] && return 0
    sleep 0.1
  done
  return 1
}
DEALER_SERVER_API_KEYS="club:club-key-0123456789abcdef" "$server" --listen 127.0.0.1:0 2>server.log &
pid=$!
trap 'kill $pid 2>/dev/null; rm -rf "$work"' EXIT
if port_of server.log; then ok "dealer-server started on 127.0.0.1:$port"; else ko "dealer-server started" "$(head -c 300 server.log)"; finish; fi
url=http://127.0.0.1:$port

code=$(curl -s -o health.json -w '%{http_code}' "$url/v1/health")
if [ "$code" = 200 ] && grep -q '"status":"ok"' health.json; then ok "curl GET /v1/health: 200 ok"; else ko "curl GET /v1/health" "$code $(cat health.json)"; fi
if curl -sf "$url/v1/version" | grep -q '"service":"dealer-server"'; then ok "curl GET /v1/version"; else ko "curl GET /v1/version"; fi
if curl -sf "$url/metrics" | grep -q '^dealer_server_requests_total{'; then ok "curl GET /metrics: Prometheus text"; else ko "curl GET /metrics"; fi

printf 'condition hcp(south) >= 20\nproduce 3\naction printoneline\n' >strong.dlr
python3 -c 'import json,sys; print(json.dumps({"script": open(sys.argv[1]).read(), "seed": 77}))' strong.dlr >request.json
curl -s -H 'Content-Type: application/json' --data-binary @request.json "$url/v1/deal" >answer.json
python3 -c 'import json,sys; sys.stdout.write(json.load(open(sys.argv[1]))["output"])' answer.json >served.out 2>/dev/null
"$cli" --untrusted -s 77 <strong.dlr >cli.out
if cmp -s <(without_timing served.out) <(without_timing cli.out); then ok "curl POST /v1/deal: the CLI's output for the same script and seed"
else ko "curl POST /v1/deal: the CLI's output" "$(head -c 300 answer.json)"; fi

head -c 70000 /dev/zero | tr '\0' '#' | python3 -c 'import json,sys; print(json.dumps({"script": sys.stdin.read()}))' >huge.json
code=$(curl -s -o huge.out -w '%{http_code}' -H 'Content-Type: application/json' --data-binary @huge.json "$url/v1/deal")
if [ "$code" = 413 ] && grep -q '"code":"too_large"' huge.out; then ok "curl: a 70 KB body is refused, 413"; else ko "curl: a 70 KB body" "$code"; fi
code=$(curl -s -o bad.out -w '%{http_code}' -H 'Content-Type: application/json' --data-binary '{"script": ' "$url/v1/deal")
if [ "$code" = 400 ] && grep -q '"code":"bad_request"' bad.out; then ok "curl: bad JSON, 400"; else ko "curl: bad JSON" "$code"; fi
code=$(curl -s -o key.out -w '%{http_code}' -H 'Authorization: Bearer not-the-key-0123456789' -H 'Content-Type: application/json' \
  --data-binary @request.json "$url/v1/deal")
if [ "$code" = 401 ]; then ok "curl: an invalid API key, 401"; else ko "curl: an invalid API key" "$code"; fi
code=$(curl -s -o ok.out -w '%{http_code}' -H 'X-API-Key: club-key-0123456789abcdef' -H 'Content-Type: application/json' \
  --data-binary @request.json "$url/v1/deal")
if [ "$code" = 200 ]; then ok "curl: a valid API key, 200"; else ko "curl: a valid API key" "$code"; fi
code=$(curl -s -o method.out -w '%{http_code}' "$url/v1/deal")
if [ "$code" = 405 ] && grep -q '"code":"method_not_allowed"' method.out; then ok "curl: GET /v1/deal is 405 with an error body"
else ko "curl: GET /v1/deal" "$code $(cat method.out)"; fi
kill -TERM $pid
if wait $pid; then ok "SIGTERM: exit status 0"; else ko "SIGTERM: exit status $?"; fi
if grep -q '"message":"stopped"' server.log; then ok "the log says it stopped"; else ko "the log says it stopped" "$(tail -n 2 server.log)"; fi

# The Python client.
scripts=()
for dir in "$top/../shared/parity/pbs/scripts" "$top/tests/bench/rare" "$top/examples/levelling"; do
  [ -d "$dir" ] && scripts+=("$dir")
done
if [ -z "$venv" ] && [ "${CI:-}" = true ]; then ko "the OpenAPI checks need jsonschema"; fi
"$python" "$top/tests/server/server_check.py" "$server" "$cli" "$top/server/openapi.json" "${scripts[@]}" >check.out 2>&1
cat check.out
read -r p f < <(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' check.out | tail -n 1)
passed=$((passed + ${p:-0}))
failed=$((failed + ${f:-1}))
finish
