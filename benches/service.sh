# Shared by the HTTP benchmarks (sourced): a scratch folder removed on exit, the service
# started on a fresh demo-seeded database, and the loop over the backends. Set `bin` and
# `port` before sourcing; define `bench BACKEND DATABASE-URL` before calling `bench_backends`.
pg_admin=${PG_ADMIN_URL:-postgres://postgres@127.0.0.1:5432/postgres}
work=$(mktemp -d)
pid=""
pgdb=""
cleanup() {
  [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
  [ -n "$pgdb" ] && psql "$pg_admin" -qc "DROP DATABASE IF EXISTS $pgdb" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
base=http://127.0.0.1:$port

# Seeds the demo club into DATABASE-URL and serves it on $base (logs in $work/BACKEND.*).
start_service() { # backend database-url
  # a benchmark logs in once and may run longer than the 15-minute default access token
  export DATABASE_URL=$2 DATA_DIR=$work/$1 BIND_ADDR=127.0.0.1:$port \
    JWT_TTL_MINUTES=${JWT_TTL_MINUTES:-240}
  mkdir -p "$DATA_DIR"
  "$bin" demo > "$work/$1.demo.txt"
  "$bin" serve > "$work/$1.server.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 100); do curl -fs "$base/readyz" >/dev/null && break; sleep 0.1; done
}

stop_service() {
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  pid=""
}

# The id of the demo club's first competition of KIND (keizer, swiss, round_robin).
demo_competition() { # kind
  local season
  season=$(curl -fs "$base/api/v1/seasons" | python3 -c 'import sys,json; print(json.load(sys.stdin)["items"][0]["id"])')
  curl -fs "$base/api/v1/seasons/$season/competitions" |
    python3 -c "import sys,json; print(next(c['id'] for c in json.load(sys.stdin)['items'] if c['kind']=='$1'))"
}

# A token of a demo account.
demo_token() { # email
  curl -fs -X POST "$base/api/v1/auth/login" -H 'content-type: application/json' \
    -d "{\"email\":\"$1\",\"password\":\"demo-password\"}" |
    python3 -c 'import sys,json; print(json.load(sys.stdin)["token"])'
}

# Runs `bench` for each backend of $BACKENDS (default "sqlite postgres") on a fresh database;
# the backends measured are in `measured`.
bench_backends() {
  measured=()
  for be in ${BACKENDS:-sqlite postgres}; do
    case $be in
      sqlite)
        bench sqlite "sqlite://$work/bench.sqlite3"
        measured+=(sqlite) ;;
      postgres)
        if ! psql "$pg_admin" -qc 'SELECT 1' >/dev/null 2>&1; then
          echo "postgres: skipped ($pg_admin cannot be reached; set PG_ADMIN_URL)"
          continue
        fi
        pgdb="clubcomp_bench_$$"
        psql "$pg_admin" -q -c "SET client_min_messages = warning" \
          -c "DROP DATABASE IF EXISTS $pgdb" -c "CREATE DATABASE $pgdb" >/dev/null
        bench postgres "${pg_admin%/*}/$pgdb"
        measured+=(postgres) ;;
      *) echo "unknown backend $be"; exit 2 ;;
    esac
  done
}
