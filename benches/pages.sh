#!/usr/bin/env bash
# The club's standings page against its JSON: the 60-player Keizer standings of the demo club
# as HTML (/club/competitions/{id}/standings) and as JSON (/api/v1/competitions/{id}/standings),
# measured with wrk on a release build, in alternating rounds, with and without gzip: requests
# per second, and the service's own CPU time per request (user + system, from /proc), which
# a busy machine disturbs far less than the request rate.
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

bench() { # backend database-url
  local be=$1
  start_service "$be" "$2"
  local comp json page
  comp=$(demo_competition keizer)
  json="$base/api/v1/competitions/$comp/standings"
  page="$base/club/competitions/$comp/standings"
  echo "$be: ${secs}s per run, $conns connections, $(nproc) cores;" \
    "JSON $(curl -fs "$json" | wc -c) bytes, page $(curl -fs "$page" | wc -c) bytes"
  local gz=(-H 'Accept-Encoding: gzip, deflate, br')
  for _ in $(seq 1 "$rounds"); do
    for what in json page; do
      local url=$json; [ $what = page ] && url=$page
      rps "$url" "${gz[@]}" >> "$work/$be.$what.gz"
      rps "$url" >> "$work/$be.$what.plain"
    done
  done
  for enc in gz plain; do
    local j p jc pc
    j=$(cut -d' ' -f1 "$work/$be.json.$enc" | median)
    p=$(cut -d' ' -f1 "$work/$be.page.$enc" | median)
    jc=$(cut -d' ' -f2 "$work/$be.json.$enc" | median)
    pc=$(cut -d' ' -f2 "$work/$be.page.$enc" | median)
    printf '  %-6s JSON %10s req/s %6s µs CPU   page %10s req/s %6s µs CPU   page/JSON %s (CPU %s)\n' \
      "$enc" "$j" "$jc" "$p" "$pc" \
      "$(python3 -c "print(f'{$p/$j:.0%}')")" "$(python3 -c "print(f'{$pc/$jc:.0%}')")"
  done
  stop_service
}

bench_backends
