#!/usr/bin/env bash
# Load benchmark of the live event stream (docs/benchmarks.md, "Event stream"): starts the service
# on a fresh demo-seeded database, opens CLIENTS streams (`types=result.corrected`), writes one
# result correction every INTERVAL_MS for SECONDS, and reports the delay from each event's
# commit to its arrival at every client (median, p99, max; `examples/bench_stream.rs`), the
# servers' resident memory per open stream, and their CPU time while writing.
#
# Usage: benches/stream.sh [CLIENTS] [SECONDS] [INTERVAL_MS]   (default 1000 60 10)
# Environment:
#   BACKEND     sqlite (default) or postgres (a fresh database on PG_ADMIN_URL)
#   INSTANCES   1 (default) or 2: a second instance on the same database, the streams split
#               over both (Postgres: the writes reach the second by NOTIFY)
#   PG_ADMIN_URL  default postgres://postgres@127.0.0.1:5432/postgres
#   BIN         the service binary (default target/release/clubcomp; build it first)
#   STREAM_BENCH_PORT  the first port (default 18240)
set -euo pipefail
cd "$(dirname "$0")/.."
clients=${1:-1000}
seconds=${2:-60}
interval=${3:-10}
backend=${BACKEND:-sqlite}
instances=${INSTANCES:-1}
bin=${BIN:-${CARGO_TARGET_DIR:-target}/release/clubcomp}
port=${STREAM_BENCH_PORT:-18240}
profile=$(basename "$(dirname "$bin")")
bench=$(dirname "$bin")/examples/bench_stream
[ -x "$bench" ] || { echo "build it first: cargo build --example bench_stream (${profile})"; exit 1; }
work=$(mktemp -d)
server_pid=""
second_pid=""
pg_db=""
pg_admin=${PG_ADMIN_URL:-postgres://postgres@127.0.0.1:5432/postgres}
cleanup() {
  kill "$server_pid" "$second_pid" 2>/dev/null || true
  wait 2>/dev/null || true
  if [ -n "$pg_db" ]; then psql -q "$pg_admin" -c "DROP DATABASE IF EXISTS $pg_db WITH (FORCE)" >/dev/null; fi
  rm -rf "$work"
}
trap cleanup EXIT
if [ "$backend" = postgres ]; then
  pg_db="clubcomp_stream_bench_$$"
  psql -q "$pg_admin" -c "CREATE DATABASE $pg_db" >/dev/null
  export DEMO_DATABASE_URL="${pg_admin%/*}/$pg_db"
fi
ulimit -n 8192 2>/dev/null || true
. scripts/demo-server.sh
limits=(STREAM_MAX_CLIENTS=$((clients + 10)) STREAM_MAX_ANON_PER_ADDRESS=$((clients + 10))
  BOOTSTRAP_ADMIN_EMAIL=bench@club.example
  BOOTSTRAP_ADMIN_PASSWORD=bench-password JWT_TTL_MINUTES=240 LOGIN_MAX_FAILURES=1000)
start_demo_server "$bin" "$port" "$work" "${limits[@]}"
ports=("$port")
if [ "$instances" = 2 ]; then
  env BIND_ADDR="127.0.0.1:$((port + 1))" RUST_LOG=warn "${limits[@]}" "$bin" serve > "$work/second.log" 2>&1 &
  second_pid=$!
  for _ in $(seq 1 50); do curl -fs "http://127.0.0.1:$((port + 1))/readyz" >/dev/null && break; sleep 0.2; done
  ports+=("$((port + 1))")
fi
api="http://127.0.0.1:$port/api/v1"
token=$(curl -fs -X POST "$api/auth/login" -H 'content-type: application/json' \
  -d '{"email":"bench@club.example","password":"bench-password"}' \
  | python3 -c 'import sys,json; print(json.load(sys.stdin)["token"])')
# a game of a published (not completed) Keizer round of the demo club
game=$(API="$api" python3 - <<'PY'
import json, os, urllib.request
api = os.environ["API"]
get = lambda p: json.load(urllib.request.urlopen(api + p))
items = lambda v: v["items"] if isinstance(v, dict) else v
comps = [c for s in items(get("/seasons")) for c in items(get(f"/seasons/{s['id']}/competitions"))]
for c in sorted(comps, key=lambda c: c["kind"] != "keizer"):
    rounds = get(f"/competitions/{c['id']}/rounds")
    rounds = rounds["items"] if isinstance(rounds, dict) else rounds
    for r in rounds:
        if r["status"] in ("published", "completed"):
            games = get(f"/competitions/{c['id']}/rounds/{r['number']}").get("games", [])
            games = [g for g in games if g.get("white") and g.get("black")] or games
            if games:
                print(games[0]["id"]); raise SystemExit
raise SystemExit("no game of a published round in the demo club")
PY
)
rss() { awk '/VmRSS/ {print $2}' "/proc/$1/status"; }
cpu() { awk '{print $14 + $15}' "/proc/$1/stat"; }
pids=("$server_pid"); [ -n "$second_pid" ] && pids+=("$second_pid")
declare -A rss0
for p in "${pids[@]}"; do rss0[$p]=$(rss "$p"); done
echo "backend $backend, $instances instance(s), $clients clients, $seconds s, a write every $interval ms, $profile build"
"$bench" "$token" "$game" "$clients" "$seconds" "$interval" "${ports[@]}" > "$work/bench.out" 2>"$work/bench.err" &
bench_pid=$!
until grep -q OPEN_DONE "$work/bench.out" 2>/dev/null; do
  kill -0 "$bench_pid" 2>/dev/null || { cat "$work/bench.out" "$work/bench.err"; exit 1; }
  sleep 0.2
done
total_delta=0
for p in "${pids[@]}"; do
  r=$(rss "$p"); total_delta=$((total_delta + r - rss0[$p]))
  echo "server $p: RSS ${rss0[$p]} kB before the streams, $r kB with them open"
done
echo "memory per stream: $((total_delta * 1024 / clients)) bytes (RSS delta / streams)"
declare -A cpu0
for p in "${pids[@]}"; do cpu0[$p]=$(cpu "$p"); done
t0=$(date +%s.%N)
wait "$bench_pid" || true
t1=$(date +%s.%N)
hz=$(getconf CLK_TCK)
for p in "${pids[@]}"; do
  c=$(cpu "$p")
  python3 -c "print(f'server $p: CPU {($c - ${cpu0[$p]}) / $hz:.1f} s over {$t1 - $t0:.1f} s of wall time ({100 * ($c - ${cpu0[$p]}) / $hz / ($t1 - $t0):.0f} % of one core)')"
done
grep -v OPEN_DONE "$work/bench.out"
if [ -s "$work/bench.err" ]; then echo "client errors: $(wc -l < "$work/bench.err")"; head -3 "$work/bench.err"; fi
