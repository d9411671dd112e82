#!/usr/bin/env bash
# Schema-driven fuzzing of the running service with schemathesis (from PyPI) against the
# committed OpenAPI document, in all four of its phases (the document's examples, boundary
# values, random data, and stateful sequences that feed the ids a call returns into the next
# calls) with valid and schema-violating data. Checks: no 5xx; responses, status codes,
# headers and content types as documented; a request that breaks the schema is refused
# (negative data); a created resource can be read (stateful);
# authentication is not ignored; 405 with Allow for undeclared methods.
# Left out: positive_data_acceptance, which expects every schema-valid request to succeed;
# the service refuses schema-valid requests that break a rule of the competition (a round
# that does not exist, a stale If-Match, an empty TRF), and must. And use_after_free, which
# expects a 404 after a DELETE: `DELETE /players/{id}` deactivates the player, as documented,
# because results and standings keep referring to them; the player stays readable.
# The event stream (`GET /api/v1/stream`) is fuzzed in a run of its own: the service runs with
# `STREAM_MAX_SECONDS=1`, so every stream the fuzzer opens ends after a second. The document
# gives its body as what it is on the wire, a string of server-sent events (`text/event-stream`,
# `type: string`), so that generated clients read it as text; schemathesis instead checks each
# parsed event against that schema as an object, so that one check is left out for the stream
# (its status codes, headers and content type are still checked).
# Usage: scripts/fuzz-api.sh [BINARY] [MAX_EXAMPLES]   (default: target/debug/clubcomp, 25)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-target/debug/clubcomp}
examples=${2:-25}
port=${FUZZ_PORT:-18090}
venv=${FUZZ_VENV:-/tmp/clubcomp-schemathesis}
if [ ! -x "$venv/bin/schemathesis" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet "schemathesis==4.32.5"
fi
work=$(mktemp -d)
server_pid=""
trap 'kill "$server_pid" 2>/dev/null || true; rm -rf "$work"' EXIT
. scripts/demo-server.sh
DEMO_DATABASE_URL="${FUZZ_DATABASE_URL:-}" start_demo_server "$bin" "$port" "$work" \
  BOOTSTRAP_ADMIN_EMAIL=fuzz-admin@club.example BOOTSTRAP_ADMIN_PASSWORD=fuzz-password \
  LOGIN_MAX_FAILURES=1000 JWT_TTL_MINUTES=240 STREAM_MAX_SECONDS=1
token=$(curl -fs -X POST "http://127.0.0.1:$port/api/v1/auth/login" -H 'content-type: application/json' \
  -d '{"email":"fuzz-admin@club.example","password":"fuzz-password"}' \
  | python3 -c 'import sys,json; print(json.load(sys.stdin)["token"])')
status=0
# The fuzzer logs in once, so its access token is made to outlast the run (JWT_TTL_MINUTES,
# default 15). Changing a user's password or active flag ends that user's earlier tokens by
# design; the fuzzer would end its own and see 401 everywhere, so those two operations are
# left out here (the API tests cover them).
excluded=${FUZZ_EXCLUDE_CHECKS:-positive_data_acceptance,use_after_free}
run() {
  "$venv/bin/schemathesis" run openapi/openapi.json -u "http://127.0.0.1:$port" \
    -H "Authorization: Bearer $token" --max-examples "$examples" --seed 20261129 \
    --no-color --workers 2 --request-timeout 20 \
    --mode all --phases examples,coverage,fuzzing,stateful \
    --checks "${FUZZ_CHECKS:-all}" "$@"
}
run --exclude-path-regex '^/api/v1/(users/\{id\}|stream)' --exclude-checks "$excluded" || status=$?
run --include-path /api/v1/stream --exclude-checks "$excluded,response_schema_conformance" || status=$?
if grep -q "panicked" "$work/server.log"; then
  echo "server log shows a panic:"; grep -A3 panicked "$work/server.log"; status=1
fi
exit $status
