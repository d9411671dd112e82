#!/usr/bin/env bash
# Worst case of a stored competition's pairing (docs/operations.md, "Work limits"): the Dutch
# pairing of a Swiss at the entrant limit runs inside the round's write transaction, so its
# time is how long it holds the write lock. For each backend it starts a release build on a
# fresh demo-seeded database, makes a Swiss of PLAYERS entrants (default 500, the
# LIMIT_SWISS_PLAYERS default), and plays ROUNDS rounds through the API: every entrant checked
# in, the pairing generated (timed: curl's total time, the transaction included), published,
# a seeded random result on every board, the round completed.
#
# Usage: benches/stored-pairing.sh [PLAYERS] [ROUNDS]     (default 500 7)
# Environment: PG_ADMIN_URL, BACKENDS, BIN as in benches/arbiter-limits.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
players=${1:-500}
rounds=${2:-7}
bin=${BIN:-${CARGO_TARGET_DIR:-target}/release/clubcomp}
port=${PAIRING_PORT:-18095}
[ -x "$bin" ] || cargo build --release --locked
# shellcheck source=benches/service.sh
. benches/service.sh
export JWT_SECRET=pairing-secret-pairing-secret-pairing-01 RUST_LOG=warn

bench() { # backend database-url
  be=$1
  start_service "$be" "$2"
  token=$(demo_token leader@club.example)
  python3 - "$base" "$token" "$players" "$rounds" "$be" <<'PY'
import http.client, json, random, sys, time, urllib.parse
base, token, n, rounds, be = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
u = urllib.parse.urlparse(base)
conn = http.client.HTTPConnection(u.hostname, u.port)

def call(method, path, body=None, expect=(200, 201)):
    conn.request(method, path, json.dumps(body) if body is not None else None,
                 {"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    r = conn.getresponse()
    data = r.read()
    if r.status not in expect:
        sys.exit(f"{method} {path}: HTTP {r.status}: {data[:300]!r}")
    return json.loads(data) if data else None

rnd = random.Random(7)
season = call("POST", "/api/v1/seasons", {"name": f"Bench {time.time_ns()}", "opening_date": "2026-09-04"})["id"]
ids = [call("POST", "/api/v1/players", {"name": f"Speler {i:04d}", "membership": "guest"})["id"]
       for i in range(n)]
comp = call("POST", f"/api/v1/seasons/{season}/competitions",
            {"name": "Open", "kind": "swiss", "system": "dutch", "rounds_planned": rounds})["id"]
call("POST", f"/api/v1/competitions/{comp}/entrants",
     {"entrants": [{"player_id": p} for p in ids]})
times = []
for k in range(1, rounds + 1):
    call("POST", f"/api/v1/competitions/{comp}/rounds", {"date": f"2099-01-{k:02d}"})
    call("POST", f"/api/v1/competitions/{comp}/rounds/{k}/check-ins",
         {"marks": [{"player_id": p, "mark": "present"} for p in ids]})
    t0 = time.monotonic()
    rd = call("POST", f"/api/v1/competitions/{comp}/rounds/{k}/pairing", {})
    times.append(time.monotonic() - t0)
    call("POST", f"/api/v1/competitions/{comp}/rounds/{k}/publish", {})
    for g in rd["games"]:
        if g.get("black"):
            call("PUT", f"/api/v1/games/{g['id']}/result",
                 {"result": rnd.choice(["1-0", "0-1", "1/2-1/2"])})
    call("POST", f"/api/v1/competitions/{comp}/rounds/{k}/complete", {})
print(f"{be}: pairing of {n} entrants, round by round (s): "
      + " ".join(f"{t:.2f}" for t in times) + f"; slowest {max(times):.2f}")
PY
  stop_service
}

bench_backends
