#!/usr/bin/env bash
# Worst case of the arbiter's writes (docs/operations.md, "Work limits"): how long the longest
# move record and a claim on it hold the write transaction, in a release build. For each
# backend it starts the service on a fresh demo-seeded database and, on `runs` fresh games:
#   1. PUT /games/{id}/moves with the longest record (2000 half-moves; knights or kings going
#      out and back, so that every position repeats)
#   2. POST /games/{id}/claims on it: the log is empty, so the claim appends all 2000 moves,
#      the claim and the decision in its one transaction (chess threefold repetition, chess
#      fifty moves, draughts third time); the claim is upheld and the game ends, so no later
#      event can make the log longer
# and prints the slowest and the median of each (curl's total time: the whole request, the
# transaction included).
#
# Usage: benches/arbiter-limits.sh [runs]            (default 5)
# Environment: PG_ADMIN_URL (default postgres://postgres@127.0.0.1:5432/postgres; Postgres is
# skipped when it cannot be reached), BACKENDS ("sqlite postgres"), BIN (the service binary,
# default target/release/clubcomp, built when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
bin=${BIN:-${CARGO_TARGET_DIR:-target}/release/clubcomp}
port=${LIMITS_PORT:-18096}
[ -x "$bin" ] || cargo build --release --locked
# shellcheck source=benches/service.sh
. benches/service.sh
export JWT_SECRET=limits-secret-limits-secret-limits-0001 RUST_LOG=warn

python3 - "$work" <<'PY'
import json, sys
w = sys.argv[1]
chess = [m for _, m in zip(range(2000), __import__("itertools").cycle(["Nf3", "Nf6", "Ng1", "Ng8"]))]
json.dump({"san": chess}, open(f"{w}/chess.json", "w"))
kings = [m for _, m in zip(range(2000), __import__("itertools").cycle(["47-42", "4-10", "42-47", "10-4"]))]
json.dump({"pdn": " ".join(kings), "start_fen": "W:WK47:BK4"}, open(f"{w}/draughts.json", "w"))
PY

timed() { # label method url [body-file]
  local label=$1 method=$2 url=$3 file=${4:-}
  local args=(-s -o "$work/out.json" -w '%{http_code} %{time_total}' -X "$method" "$url"
    -H "Authorization: Bearer $token" -H 'content-type: application/json')
  if [ -n "$file" ]; then args+=(--data-binary "@$file"); fi
  local res
  res=$(curl "${args[@]}")
  case ${res%% *} in
    2*) ;;
    *) echo "$label: HTTP ${res%% *}: $(cat "$work/out.json")"; exit 1 ;;
  esac
  echo "${res#* }" >> "$work/$be.$label"
}

bench() { # backend database-url
  be=$1
  start_service "$be" "$2"
  token=$(demo_token arbiter@club.example)
  local season games
  season=$(curl -fs "$base/api/v1/seasons" | python3 -c 'import sys,json; print(json.load(sys.stdin)[0]["id"])')
  games() { # discipline → game ids
    curl -fs "$base/api/v1/seasons/$season/competitions" | python3 -c "
import sys,json,urllib.request
for c in json.load(sys.stdin):
    if c['discipline'] != '$1': continue
    req = urllib.request.Request('$base/api/v1/competitions/%d/rounds' % c['id'],
        headers={'Authorization': 'Bearer $token'})
    for r in json.load(urllib.request.urlopen(req)):
        for g in r.get('games', []):
            if g.get('black'): print(g['id'])"
  }
  mapfile -t chess < <(games chess)
  mapfile -t draughts < <(games draughts)
  local i=0
  for _ in $(seq 1 "$runs"); do
    for kind in threefold_repetition fifty_moves; do
      g=${chess[$i]}; i=$((i + 1))
      timed moves-chess PUT "$base/api/v1/games/$g/moves" "$work/chess.json"
      echo "{\"kind\": \"$kind\"}" > "$work/claim.json"
      timed "claim-$kind" POST "$base/api/v1/games/$g/claims" "$work/claim.json"
    done
  done
  for j in $(seq 0 $((runs - 1))); do
    g=${draughts[$j]}
    timed moves-draughts PUT "$base/api/v1/games/$g/moves" "$work/draughts.json"
    echo '{"kind": "draughts_third_time"}' > "$work/claim.json"
    timed claim-draughts_third_time POST "$base/api/v1/games/$g/claims" "$work/claim.json"
  done
  stop_service
}

bench_backends

python3 - "$work" "${measured[@]}" <<'PY'
import sys, os, statistics as st
w, backends = sys.argv[1], sys.argv[2:]
labels = ["moves-chess", "claim-threefold_repetition", "claim-fifty_moves",
          "moves-draughts", "claim-draughts_third_time"]
print("| request | " + " | ".join(f"{b}: median / slowest" for b in backends) + " |")
print("|---|" + "---|" * len(backends))
for l in labels:
    cells = []
    for b in backends:
        p = f"{w}/{b}.{l}"
        xs = [float(x) for x in open(p)] if os.path.exists(p) else []
        cells.append(f"{st.median(xs)*1000:.0f} ms / {max(xs)*1000:.0f} ms (n={len(xs)})" if xs else "–")
    print(f"| {l} | " + " | ".join(cells) + " |")
PY
