#!/usr/bin/env bash
# Standings throughput while the calculators are busy. Starts a release build of the service
# on a fresh demo-seeded SQLite database, then measures with wrk (Debian package `wrk`):
#   1. GET standings of the 60-player Keizer winter, nothing else running   (idle)
#   2. the same while 16 clients post maximal calculator requests in a loop   (busy)
# A maximal request is a Dutch pairing of a TRF at the player limit (500 players, 10 rounds
# played), posted back to back on 16 connections. The busy clients' answers are counted
# (200 computed, 503 refused by the full pool). Target: busy >= 50 % of idle.
#
# Usage: benches/calc_load.sh [seconds-per-run] [connections] [rounds]
# Environment: BIN the service binary (default target/release/clubcomp, built when missing);
# CALC_* and LIMIT_* are passed to the service.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-10}
conns=${2:-32}
rounds=${3:-3}
bin=${BIN:-${CARGO_TARGET_DIR:-target}/release/clubcomp}
port=${LOAD_PORT:-18097}
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk"; exit 2; }
[ -x "$bin" ] || cargo build --release --locked
work=$(mktemp -d)
pid=""
busy=()
cleanup() {
  for p in "${busy[@]}"; do kill "$p" 2>/dev/null || true; done
  [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
export JWT_SECRET=load-secret-load-secret-load-secret-0001 RUST_LOG=warn
export DATABASE_URL=sqlite://$work/load.sqlite3 DATA_DIR=$work BIND_ADDR=127.0.0.1:$port
base=http://127.0.0.1:$port
"$bin" demo > "$work/demo.txt"
"$bin" serve > "$work/server.log" 2>&1 &
pid=$!
for _ in $(seq 1 100); do curl -fs "$base/readyz" >/dev/null && break; sleep 0.1; done
season=$(curl -fs "$base/api/v1/seasons" | python3 -c 'import sys,json; print(json.load(sys.stdin)[0]["id"])')
comp=$(curl -fs "$base/api/v1/seasons/$season/competitions" | python3 -c '
import sys,json
print(next(c["id"] for c in json.load(sys.stdin) if c["kind"]=="keizer"))')
standings="$base/api/v1/competitions/$comp/standings"
"$bin" pair --random-trf 500 --played 10 --rounds 15 > "$work/max.trf"
one=$(curl -s -o /dev/null -w '%{http_code} %{time_total}' -X POST -H 'content-type: text/plain' \
  --data-binary @"$work/max.trf" "$base/api/v1/calc/pair")
echo "one maximal pairing alone: status and seconds: $one"
echo "$(nproc) cores, ${secs}s per run, $conns connections, $rounds rounds"

measure() {
  wrk -t2 -c"$conns" -d"${secs}s" -H 'Accept-Encoding: gzip, deflate, br' "$standings" \
    | awk '/Requests\/sec/ {print $2}'
}
# the busy clients: 16 connections posting the maximal pairing back to back (wrk with a Lua
# script, so that the load generator itself spends little CPU), each answer counted by status
cat > "$work/post.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "text/plain"
local f = io.open("$work/max.trf", "rb")
wrk.body = f:read("*a")
f:close()
done = function(summary, latency, requests)
  io.write(string.format("busy answers: %d, of which not 2xx: %d\\n",
    summary.requests, summary.errors.status))
end
LUA
for r in $(seq 1 "$rounds"); do
  idle=$(measure)
  wrk -t1 -c16 -d"$((secs + 2))s" -s "$work/post.lua" "$base/api/v1/calc/pair" \
    | grep 'busy answers' >> "$work/busy.txt" &
  busy=($!)
  sleep 1
  loaded=$(measure)
  wait "${busy[@]}" 2>/dev/null || true
  busy=()
  sleep 2
  ratio=$(python3 -c "print(f'{100*$loaded/$idle:.0f}')")
  echo "round $r: standings idle $idle req/s, with 16 calculator clients $loaded req/s ($ratio %)"
done
echo "calculator answers per run (the others are 503 from the full pool):"
cat "$work/busy.txt"
echo "server memory (VmHWM, peak): $(grep VmHWM /proc/$pid/status | awk '{print $2, $3}')"
