#!/usr/bin/env bash
# Load benchmark of the HTTP API (issue: measured and hardened). Starts a release build of the
# service on a demo-seeded database, then measures with wrk (Debian package `wrk`):
#   1. GET /healthz                                   (the baseline)
#   2. GET standings of the 60-player Keizer winter   (target: >= 80% of the baseline)
#   3. the same standings without compression         (for comparison)
#   4. PUT game results (writes; on Postgres when DATABASE_URL is a postgres:// URL)
# Reads 1 and 2 send `Accept-Encoding: gzip, deflate, br` as browsers and phone apps do (the
# cached standings are kept gzip-compressed as well); read 3 sends no Accept-Encoding.
# Usage: benches/load.sh [seconds-per-run] [connections] [rounds]
# The reads run in `rounds` alternating rounds (healthz, standings, uncompressed standings;
# default 3): on a machine shared with other work the load changes from run to run, so the
# figures are the medians over the rounds and the ratio is the median of the per-round ratios.
# Environment: DATABASE_URL (default: a fresh SQLite file), BIN (default target/release/clubcomp)
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-10}
conns=${2:-32}
rounds=${3:-3}
bin=${BIN:-target/release/clubcomp}
port=${LOAD_PORT:-18095}
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk"; exit 2; }
[ -x "$bin" ] || cargo build --release --locked
work=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT
export DATABASE_URL=${DATABASE_URL:-sqlite://$work/load.sqlite3}
export DATA_DIR=$work BIND_ADDR=127.0.0.1:$port RUST_LOG=warn
export JWT_SECRET=load-secret-load-secret-load-secret-0001
"$bin" demo > "$work/demo.txt"
"$bin" serve > "$work/server.log" 2>&1 &
pid=$!
base=http://127.0.0.1:$port
for _ in $(seq 1 100); do curl -fs "$base/readyz" >/dev/null && break; sleep 0.1; done
token=$(curl -fs -X POST "$base/api/v1/auth/login" -H 'content-type: application/json' \
  -d '{"email":"arbiter@club.example","password":"demo-password"}' | python3 -c 'import sys,json; print(json.load(sys.stdin)["token"])')
season=$(curl -fs "$base/api/v1/seasons" | python3 -c 'import sys,json; print(json.load(sys.stdin)[0]["id"])')
comp=$(curl -fs "$base/api/v1/seasons/$season/competitions" | python3 -c '
import sys,json
print(next(c["id"] for c in json.load(sys.stdin) if c["kind"]=="keizer"))')
standings="$base/api/v1/competitions/$comp/standings"
curl -fs "$standings" >/dev/null || { echo "standings endpoint failed"; exit 1; }

run() { # name url [wrk args...]
  local name=$1 url=$2; shift 2
  local out
  out=$(wrk -t2 -c"$conns" -d"${secs}s" --latency "$@" "$url")
  local rps p99
  rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
  p99=$(echo "$out" | awk '$1=="99%" {print $2}')
  local non2xx
  non2xx=$(echo "$out" | awk '/Non-2xx/ {print $NF}')
  printf '%-28s %12s req/s   p99 %8s   non-2xx %s\n' "$name" "$rps" "$p99" "${non2xx:-0}"
  echo "$rps" >> "$work/$name.rps"
}

echo "clubcomp load benchmark: ${secs}s per run, $conns connections, $(nproc) cores, $(echo "$DATABASE_URL" | cut -d: -f1)"
gz=(-H 'Accept-Encoding: gzip, deflate, br')
for _ in $(seq 1 "$rounds"); do
  run healthz "$base/healthz" "${gz[@]}"
  run standings "$standings" "${gz[@]}"
  run standings-identity "$standings"
done

# writes: every request sets the result of one of the published evening's games (cycling)
games=$(curl -fs -H "Authorization: Bearer $token" "$base/api/v1/competitions/$comp/rounds" | python3 -c '
import sys,json
rs=json.load(sys.stdin)
ids=[g["id"] for r in rs if r["status"] in ("published","completed") for g in r["games"] if g["black"]]
print(" ".join(map(str,ids)))')
cat > "$work/write.lua" <<LUA
local ids = {}
for id in string.gmatch("$games", "%d+") do ids[#ids+1] = id end
local results = {"1-0", "0-1", "1/2-1/2"}
local n = 0
request = function()
  n = n + 1
  local id = ids[(n % #ids) + 1]
  local body = '{"result":"' .. results[(n % 3) + 1] .. '","reason":"load test"}'
  return wrk.format("PUT", "/api/v1/games/" .. id .. "/result",
    {["Content-Type"] = "application/json", ["Authorization"] = "Bearer $token"}, body)
end
LUA
run result-writes "$base" -s "$work/write.lua"

python3 - "$work" <<'PY'
import sys, statistics as st
w = sys.argv[1]
r = {n: [float(x) for x in open(f"{w}/{n}.rps").read().split()]
     for n in ("healthz", "standings", "standings-identity")}
med = lambda xs: st.median(xs)
print(f"medians over {len(r['healthz'])} rounds: healthz {med(r['healthz']):,.0f} req/s, "
      f"standings {med(r['standings']):,.0f} req/s, "
      f"uncompressed standings {med(r['standings-identity']):,.0f} req/s")
ratio = med([s / h for s, h in zip(r["standings"], r["healthz"])])
ratio_i = med([s / h for s, h in zip(r["standings-identity"], r["healthz"])])
print(f"standings / healthz throughput (median of rounds): {ratio:.0%} (target >= 80%); "
      f"uncompressed: {ratio_i:.0%}")
PY
