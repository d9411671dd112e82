#!/usr/bin/env bash
# The club's standings page against its JSON in instructions per request: the service runs
# under valgrind's callgrind (which counts the instructions it executes, unaffected by other
# work on the machine) on the demo club, once idle and once per URL under wrk; the idle count
# is subtracted and the rest divided by the requests served. User-space instructions only (the
# kernel's share, about the same for both answers, is not counted).
# Usage: benches/pages-instructions.sh [seconds]   (default 20; needs valgrind and wrk)
# Environment: BIN (default target/release/clubcomp).
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-20}
bin=${BIN:-${CARGO_TARGET_DIR:-target}/release/clubcomp}
port=${LOAD_PORT:-18298}
for tool in valgrind callgrind_annotate wrk; do
  command -v $tool >/dev/null || { echo "$tool is missing: apt-get install -y valgrind wrk"; exit 2; }
done
[ -x "$bin" ] || cargo build --release --locked
# shellcheck source=benches/service.sh
. benches/service.sh
export JWT_SECRET=load-secret-load-secret-load-secret-0001 RUST_LOG=warn
# the demo club, served once to find its Keizer competition
start_service sqlite "sqlite://$work/bench.sqlite3"
comp=$(demo_competition keizer)
stop_service
run() { # name [url]
  valgrind --tool=callgrind --callgrind-out-file="$work/cg.$1" "$bin" serve >"$work/log.$1" 2>&1 &
  local vp=$! n=0
  for _ in $(seq 1 300); do curl -fs -o /dev/null "$base/readyz" && break; sleep 0.5; done
  if [ -n "${2:-}" ]; then
    curl -fs -o /dev/null -H 'Accept-Encoding: gzip' "$base$2"   # fill the cache
    n=$(wrk -t1 -c4 -d"${secs}s" -H 'Accept-Encoding: gzip' "$base$2" | awk '/ requests in /{print $1}')
  fi
  kill -INT $vp; wait $vp || true
  total=$(callgrind_annotate "$work/cg.$1" 2>/dev/null | awk '/PROGRAM TOTALS/ && !done {gsub(",", "", $1); print $1; done = 1}')
  echo "$n $total"
}
read -r _ idle < <(run idle)
for what in json page; do
  url=/api/v1/competitions/$comp/standings
  [ $what = page ] && url=/club/competitions/$comp/standings
  read -r n total < <(run "$what" "$url")
  echo "$what: $n requests, $(( (total - idle) / n )) instructions per request (gzip), $url"
done
