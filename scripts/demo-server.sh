# Sourced by the scripts that test the running service: seeds the demo club into a fresh
# SQLite database (or DEMO_DATABASE_URL) and starts `clubcomp serve` on it in the background.
# The demo is built for DEMO_DATE (default 2026-10-28: five Keizer evenings played, the sixth
# published), so the scripts find the same rounds on every run.
# Usage: start_demo_server BINARY PORT WORKDIR [VAR=value …]   (extra environment for serve)
# Sets `server_pid`; the caller stops it (kill "$server_pid") and removes WORKDIR.
start_demo_server() {
  local bin=$1 port=$2 work=$3
  shift 3
  export DATABASE_URL="${DEMO_DATABASE_URL:-sqlite://$work/demo.sqlite3}" DATA_DIR="$work" \
    JWT_SECRET="demo-secret-demo-secret-demo-secret-0001"
  # the demo club and season, so that every page and operation finds data to show
  "$bin" demo --date "${DEMO_DATE:-2026-10-28}" > "$work/demo.log" 2>&1 || { echo "demo seeding failed:"; cat "$work/demo.log"; return 1; }
  env BIND_ADDR="127.0.0.1:$port" RUST_LOG=warn "$@" "$bin" serve > "$work/server.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 1 50); do curl -fs "http://127.0.0.1:$port/readyz" >/dev/null && break; sleep 0.2; done
  if ! curl -fs "http://127.0.0.1:$port/readyz" >/dev/null; then
    echo "server did not start:"; cat "$work/server.log"; return 1
  fi
}
