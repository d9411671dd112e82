#!/usr/bin/env bash
# Readiness under database faults: starts the service, checks that /readyz answers 200, makes a
# fault, and times /readyz (and a public read) until the 503, printing status, Retry-After and
# seconds. Faults: a read-only SQLite file (a second instance opens it with mode=ro), a SQLite
# database recreated empty (every table dropped, with sqlite3) and a Postgres database dropped
# under the running service.
#
# Usage: scripts/readiness-faults.sh
# Environment: BIN (default target/release/clubcomp, built when missing), PG_ADMIN_URL
# (default postgres://postgres@127.0.0.1:5432/postgres; skipped when unreachable)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${BIN:-${CARGO_TARGET_DIR:-target}/release/clubcomp}
port=${FAULTS_PORT:-18098}
pg_admin=${PG_ADMIN_URL:-postgres://postgres@127.0.0.1:5432/postgres}
[ -x "$bin" ] || cargo build --release --locked
work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  psql "$pg_admin" -qc "DROP DATABASE IF EXISTS clubcomp_faults" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
export PGOPTIONS=--client-min-messages=warning JWT_SECRET=faults-secret-faults-secret-faults-0001 RUST_LOG=error DATA_DIR=$work

start() { # url port (waits for /healthz)
  DATABASE_URL=$1 BIND_ADDR=127.0.0.1:$2 "$bin" serve >>"$work/log" 2>&1 &
  pids+=($!)
  for _ in $(seq 200); do
    [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$2/healthz")" = 200 ] && return 0
    sleep 0.1
  done
  echo "the service on $1 did not start"; tail -5 "$work/log"; exit 1
}
probe() { # label port path
  local out
  out=$(curl -s -D "$work/h" -o "$work/b" -w '%{http_code} %{time_total}' "http://127.0.0.1:$2$3")
  printf '  %-34s %-22s %s  %6.3f s  Retry-After %s  body %s\n' "$1" "$3" "${out% *}" "${out#* }" \
    "$(awk -F': ' 'tolower($1)=="retry-after" {print $2}' "$work/h" | tr -d '\r')" "$(head -c 90 "$work/b")"
}

echo "SQLite"
db=$work/s.sqlite3
start "sqlite://$db" "$port"
probe "healthy" "$port" /readyz
start "file:$db?mode=ro" $((port + 1))
for i in 1 2; do probe "read-only file ($i)" $((port + 1)) /readyz; done
probe "read-only file" $((port + 1)) /api/v1/players
tables=$(sqlite3 "$db" "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
{ echo "PRAGMA foreign_keys = OFF;"; for t in $tables; do echo "DROP TABLE \"$t\";"; done; } | sqlite3 "$db"
for i in 1 2; do probe "every table dropped ($i)" "$port" /readyz; done
probe "every table dropped" "$port" /api/v1/players

if psql "$pg_admin" -qc "SELECT 1" >/dev/null 2>&1; then
  echo "Postgres"
  psql "$pg_admin" -qc "DROP DATABASE IF EXISTS clubcomp_faults" -c "CREATE DATABASE clubcomp_faults" >/dev/null
  start "${pg_admin%/*}/clubcomp_faults" $((port + 2))
  probe "healthy" $((port + 2)) /readyz
  psql "$pg_admin" -qc "DROP DATABASE clubcomp_faults WITH (FORCE)" >/dev/null
  for i in 1 2 3 4; do probe "database dropped ($i)" $((port + 2)) /readyz; done
  probe "database dropped" $((port + 2)) /api/v1/players
else
  echo "Postgres: $pg_admin unreachable, skipped"
fi
