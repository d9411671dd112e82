#!/usr/bin/env bash
# The club's pages against their JSON read models on the demo club, measured with wrk in
# alternating rounds with gzip accepted: the 60-player Keizer standings
# (/club/competitions/{id}/standings against /api/v1/competitions/{id}/standings), the next
# evening (/club/evenings/{id} against /api/v1/evenings/{id}), the Keizer leader's page
# (/club/players/{id} against /api/v1/players/{id}/card) and the front page (/club/ against
# /api/v1/evenings/next): requests per second, and the service's own CPU time per request
# (user + system, from /proc), which a busy machine disturbs far less than the request rate.
# Usage: benches/pages.sh [seconds-per-run] [connections] [rounds]   (default 5 32 5)
# Environment: BACKENDS, PG_ADMIN_URL, BIN as for benches/load.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-5}
conns=${2:-32}
rounds=${3:-5}
bin=${BIN:-${CARGO_TARGET_DIR:-target}/release/clubcomp}
port=${LOAD_PORT:-18096}
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk"; exit 2; }
[ -x "$bin" ] || cargo build --release --locked
# shellcheck source=benches/service.sh
. benches/service.sh
export JWT_SECRET=load-secret-load-secret-load-secret-0001 RUST_LOG=warn

ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }

# "requests/s cpu-µs-per-request" of one wrk run
rps() { # url [wrk args...]
  local url=$1; shift
  local t0 t1 out
  t0=$(ticks)
  out=$(wrk -t2 -c"$conns" -d"${secs}s" "$@" "$url")
  t1=$(ticks)
  awk -v dt=$((t1 - t0)) -v hz="$(getconf CLK_TCK)" '
    / requests in / {n = $1}
    /Requests\/sec/ {r = $2}
    END {printf "%s %.1f\n", r, dt / hz * 1e6 / n}' <<<"$out"
}

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

# "name JSON-url page-url" of each page measured against its JSON read model
pairs() { # competition evening player
  echo "standings $base/api/v1/competitions/$1/standings $base/club/competitions/$1/standings"
  echo "evening $base/api/v1/evenings/$2 $base/club/evenings/$2"
  echo "player $base/api/v1/players/$3/card $base/club/players/$3"
  echo "front $base/api/v1/evenings/next $base/club/"
}

bench() { # backend database-url
  local be=$1
  start_service "$be" "$2"
  local comp evening player
  comp=$(demo_competition keizer)
  evening=$(curl -fs "$base/api/v1/evenings/next" | python3 -c 'import sys,json; print(json.load(sys.stdin)["id"])')
  player=$(curl -fs "$base/api/v1/competitions/$comp/standings" |
    python3 -c 'import sys,json; print(json.load(sys.stdin)["keizer"]["rows"][0]["player_id"])')
  echo "$be: ${secs}s per run, $conns connections, $(nproc) cores, Accept-Encoding: gzip, deflate, br"
  local gz=(-H 'Accept-Encoding: gzip, deflate, br')
  for _ in $(seq 1 "$rounds"); do
    while read -r name json page; do
      rps "$json" "${gz[@]}" >> "$work/$be.$name.json"
      rps "$page" "${gz[@]}" >> "$work/$be.$name.page"
    done < <(pairs "$comp" "$evening" "$player")
  done
  while read -r name json page; do
    local j p jc pc
    j=$(cut -d' ' -f1 "$work/$be.$name.json" | median)
    p=$(cut -d' ' -f1 "$work/$be.$name.page" | median)
    jc=$(cut -d' ' -f2 "$work/$be.$name.json" | median)
    pc=$(cut -d' ' -f2 "$work/$be.$name.page" | median)
    printf '  %-9s JSON %10s req/s %6s µs CPU   page %10s req/s %6s µs CPU   page/JSON %s\n' \
      "$name" "$j" "$jc" "$p" "$pc" "$(python3 -c "print(f'{$p/$j:.0%}')")"
  done < <(pairs "$comp" "$evening" "$player")
  stop_service
}

bench_backends
