#!/usr/bin/env bash
# Load benchmark of the HTTP API (issue: measured and hardened). For each backend it starts a
# release build of the service on a fresh demo-seeded database, then measures with wrk
# (Debian package `wrk`):
#   1. GET /healthz                                   (the baseline)
#   2. GET standings of the 60-player Keizer winter   (target: >= 80% of the baseline)
#   3. the same standings without compression         (for comparison)
#   4. PUT game results                               (writes)
# Reads 1 and 2 send `Accept-Encoding: gzip, deflate, br` as browsers and phone apps do (the
# cached standings are kept gzip-compressed as well); read 3 sends no Accept-Encoding.
#
# Usage: benches/load.sh [seconds-per-run] [connections] [rounds]
# One run measures SQLite and then Postgres and prints both side by side. The reads run in
# `rounds` alternating rounds (default 5): on a machine shared with other work the load
# changes from run to run, so the figures are the medians over the rounds and the ratio is the
# median of the per-round ratios.
# Environment:
#   PG_ADMIN_URL  a Postgres server to create the benchmark's database on (default
#                 postgres://postgres@127.0.0.1:5432/postgres); Postgres is skipped, with a
#                 message, when it cannot be reached
#   BACKENDS      "sqlite postgres" (default), or one of them
#   DATABASE_URL  measure only this database (it is demo-seeded; use a fresh one)
#   BIN           the service binary (default target/release/clubcomp, built when missing)
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-10}
conns=${2:-32}
rounds=${3:-5}
bin=${BIN:-${CARGO_TARGET_DIR:-target}/release/clubcomp}
port=${LOAD_PORT:-18095}
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk"; exit 2; }
[ -x "$bin" ] || cargo build --release --locked
# shellcheck source=benches/service.sh
. benches/service.sh
export JWT_SECRET=load-secret-load-secret-load-secret-0001 RUST_LOG=warn

run() { # backend name url [wrk args...]
  local be=$1 name=$2 url=$3; shift 3
  local out rps p99 non2xx
  out=$(wrk -t2 -c"$conns" -d"${secs}s" --latency "$@" "$url")
  rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
  p99=$(echo "$out" | awk '$1=="99%" {print $2}')
  non2xx=$(echo "$out" | awk '/Non-2xx/ {print $NF}')
  printf '  %-22s %12s req/s   p99 %8s   non-2xx %s\n' "$name" "$rps" "$p99" "${non2xx:-0}"
  echo "$rps" >> "$work/$be.$name.rps"
  echo "$p99 ${non2xx:-0}" > "$work/$be.$name.extra"
}

bench() { # backend database-url
  local be=$1
  start_service "$be" "$2"
  local token season comp standings games
  token=$(demo_token arbiter@club.example)
  season=$(curl -fs "$base/api/v1/seasons" | python3 -c 'import sys,json; print(json.load(sys.stdin)[0]["id"])')
  comp=$(curl -fs "$base/api/v1/seasons/$season/competitions" | python3 -c '
import sys,json
print(next(c["id"] for c in json.load(sys.stdin) if c["kind"]=="keizer"))')
  standings="$base/api/v1/competitions/$comp/standings"
  curl -fs "$standings" >/dev/null || { echo "standings endpoint failed"; exit 1; }
  echo "$be: ${secs}s per run, $conns connections, $(nproc) cores"
  local gz=(-H 'Accept-Encoding: gzip, deflate, br')
  for _ in $(seq 1 "$rounds"); do
    run "$be" healthz "$base/healthz" "${gz[@]}"
    run "$be" standings "$standings" "${gz[@]}"
    run "$be" standings-identity "$standings"
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
  run "$be" result-writes "$base" -s "$work/write.lua"
  stop_service
}

if [ -n "${DATABASE_URL:-}" ]; then
  be=$(echo "$DATABASE_URL" | cut -d: -f1 | sed 's/postgresql/postgres/')
  bench "$be" "$DATABASE_URL"
  measured=("$be")
else
  bench_backends
fi

python3 - "$work" "${measured[@]}" <<'PY'
import sys, statistics as st
w, backends = sys.argv[1], sys.argv[2:]
med = st.median
print()
print("| backend | /healthz | standings (gzip) | standings / healthz | uncompressed | result writes |")
print("|---|---|---|---|---|---|")
for be in backends:
    r = {n: [float(x) for x in open(f"{w}/{be}.{n}.rps").read().split()]
         for n in ("healthz", "standings", "standings-identity", "result-writes")}
    ratios = [s / h for s, h in zip(r["standings"], r["healthz"])]
    ratio = med(ratios)
    rounds = "/".join(f"{x:.0%}" for x in ratios)
    ratio_i = med([s / h for s, h in zip(r["standings-identity"], r["healthz"])])
    p99, non2xx = open(f"{w}/{be}.result-writes.extra").read().split()
    print(f"| {be} | {med(r['healthz']):,.0f} req/s | {med(r['standings']):,.0f} req/s | "
          f"**{ratio:.0%}** (rounds {rounds}; target >= 80%) | {med(r['standings-identity']):,.0f} req/s "
          f"({ratio_i:.0%}) | {r['result-writes'][0]:,.0f} req/s, p99 {p99}, "
          f"{non2xx} non-2xx |")
print(f"\nmedians over the rounds; the ratio is the median of the per-round ratios")
PY
