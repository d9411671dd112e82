#!/usr/bin/env bash
# Login timing per account state: starts the service on a fresh SQLite database, makes an
# active, a disabled and a throttled account, then times logins (curl's time_total) for an
# unknown account, the disabled one, the throttled one, a wrong and a right password, taking
# turns so that a change of machine load hits every state alike. Prints the median per state
# and its difference to the median of all.
#
# Usage: scripts/login-timing.sh [logins-per-state]   (default 40)
# Environment: BIN  the service binary (default target/release/clubcomp, built when missing)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-40}
bin=${BIN:-${CARGO_TARGET_DIR:-target}/release/clubcomp}
port=${TIMING_PORT:-18097}
[ -x "$bin" ] || cargo build --release --locked
work=$(mktemp -d)
pid=""
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
export DATABASE_URL=sqlite://$work/t.sqlite3 DATA_DIR=$work BIND_ADDR=127.0.0.1:$port \
  JWT_SECRET=timing-secret-timing-secret-timing-0001 RUST_LOG=error \
  BOOTSTRAP_ADMIN_EMAIL=admin@club.example BOOTSTRAP_ADMIN_PASSWORD=admin-password \
  TRUSTED_PROXIES=127.0.0.1
base=http://127.0.0.1:$port
"$bin" serve >"$work/log" 2>&1 &
pid=$!
for _ in $(seq 100); do curl -fs "$base/readyz" >/dev/null 2>&1 && break; sleep 0.1; done

# login EMAIL PASSWORD CLIENT-ADDRESS -> "status seconds"
login() {
  curl -s -o /dev/null -w '%{http_code} %{time_total}\n' -H 'Content-Type: application/json' \
    -H "X-Forwarded-For: $3" -d "{\"email\":\"$1\",\"password\":\"$2\"}" "$base/api/v1/auth/login"
}
admin=$(curl -fs -H 'Content-Type: application/json' \
  -d '{"email":"admin@club.example","password":"admin-password"}' "$base/api/v1/auth/login" |
  sed 's/.*"token":"\([^"]*\)".*/\1/')
mk() {
  curl -fs -H "Authorization: Bearer $admin" -H 'Content-Type: application/json' \
    -d "{\"email\":\"$1\",\"password\":\"right-password\",\"roles\":[\"member\"]}" "$base/api/v1/users" |
    sed 's/.*"id":\([0-9]*\).*/\1/'
}
mk ok@club.example >/dev/null
off=$(mk off@club.example)
mk locked@club.example >/dev/null
curl -fs -o /dev/null -X PATCH -H "Authorization: Bearer $admin" -H 'Content-Type: application/json' \
  -d '{"active":false}' "$base/api/v1/users/$off"
for _ in $(seq 10); do login locked@club.example wrong-password 10.0.0.1 >/dev/null; done

states="unknown disabled throttled wrong right"
for i in $(seq "$n"); do
  a=10.$((i / 250)).$((i % 250))
  login nobody@club.example right-password "$a.1" >>"$work/unknown"
  login off@club.example right-password "$a.2" >>"$work/disabled"
  login locked@club.example right-password 10.0.0.1 >>"$work/throttled"
  login ok@club.example wrong-password "$a.3" >>"$work/wrong"
  login ok@club.example right-password "$a.4" >>"$work/right"
done
median() { awk '{print $2 * 1000}' "$1" | sort -n | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'; }
all=$(cat "$work"/unknown "$work"/disabled "$work"/throttled "$work"/wrong "$work"/right >"$work/all"; median "$work/all")
printf '%-10s %6s %10s %8s\n' state status median_ms vs_all
for s in $states; do
  m=$(median "$work/$s")
  st=$(awk '{print $1}' "$work/$s" | sort | uniq -c | awk '{printf "%s×%s ", $1, $2}')
  printf '%-10s %6s %10.2f %+7.1f%%\n' "$s" "${st% }" "$m" "$(echo "($m - $all) * 100 / $all" | bc -l)"
done
