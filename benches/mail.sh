#!/usr/bin/env bash
# Pairing mail for a field of 200 members, against a real SMTP server on loopback (aiosmtpd,
# as in scripts/mail-test.sh, but answering at once). Two measurements:
#  - what the mails add to a publish: the same publish (a Keizer round of 200 entrants, 100
#    boards) is timed with the pairing mail off (NOTIFY_DEFAULTS=none) and on (every entrant
#    has an address), ROUNDS times each on a fresh competition; the medians and their difference;
#  - how fast they go out: from the publish's answer until the 200th mail is written by the
#    SMTP server (MAIL_MAX_PER_MINUTE=100000, MAIL_POLL_MS=100), median over the runs.
# Usage: benches/mail.sh [rounds]   (default 5)
# Environment: BIN (default target/release/clubcomp, built when missing), BACKENDS and
# PG_ADMIN_URL as for benches/load.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-5}
bin=${BIN:-${CARGO_TARGET_DIR:-target}/release/clubcomp}
port=${LOAD_PORT:-18097}
smtp_port=${LOAD_SMTP_PORT:-18098}
venv=${MAIL_TEST_VENV:-target/mail-test/venv}
[ -x "$bin" ] || cargo build --release --locked
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import aiosmtpd' 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet "aiosmtpd==1.4.6"
fi
# shellcheck source=benches/service.sh
. benches/service.sh
smtp_pid=""
trap 'kill "$smtp_pid" 2>/dev/null || true; cleanup' EXIT
export JWT_SECRET=load-secret-load-secret-load-secret-0001 RUST_LOG=warn

capture="$work/mail"
mkdir -p "$capture"
"$venv/bin/python" - "$smtp_port" "$capture" > "$work/smtp.log" 2>&1 <<'PY' &
import pathlib, sys, time
from aiosmtpd.controller import Controller

port, folder = int(sys.argv[1]), pathlib.Path(sys.argv[2])

class Capture:
    async def handle_DATA(self, server, session, envelope):
        name = f"{time.time_ns()}.eml"
        (folder / f".{name}").write_bytes(envelope.original_content or envelope.content)
        (folder / f".{name}").rename(folder / name)
        return "250 OK"

Controller(Capture(), hostname="127.0.0.1", port=port).start()
print("listening", flush=True)
while True:
    time.sleep(3600)
PY
smtp_pid=$!
for _ in $(seq 1 50); do grep -q listening "$work/smtp.log" && break; sleep 0.2; done
grep -q listening "$work/smtp.log" || { echo "aiosmtpd did not start:"; cat "$work/smtp.log"; exit 1; }

serve() { # backend database-url notify-defaults
  export DATABASE_URL=$2 DATA_DIR=$work/$1 BIND_ADDR=127.0.0.1:$port JWT_TTL_MINUTES=240 \
    BOOTSTRAP_ADMIN_EMAIL=bench-admin@club.example BOOTSTRAP_ADMIN_PASSWORD=bench-password-0001 \
    SMTP_URL="smtp://127.0.0.1:$smtp_port" SMTP_TLS=none MAIL_FROM="Bench <bench@club.example>" \
    PUBLIC_URL="$base" MAIL_POLL_MS=100 MAIL_MAX_PER_MINUTE=100000 NOTIFY_DEFAULTS=$3
  mkdir -p "$DATA_DIR"
  "$bin" serve > "$work/$1.$3.server.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 100); do curl -fs "$base/readyz" >/dev/null && break; sleep 0.1; done
}

# prints "publish-ms delivery-ms" per round; delivery is "-" when no mail is expected
measure() { # label
  "$venv/bin/python" - "$base" "$capture" "$rounds" "$1" <<'PY'
import json, pathlib, sys, time, urllib.error, urllib.request

base, folder, rounds, label = sys.argv[1], pathlib.Path(sys.argv[2]), int(sys.argv[3]), sys.argv[4]

def call(method, path, body=None, token=None):
    headers = {"content-type": "application/json"}
    if token:
        headers["authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, json.loads(r.read().decode() or "null")
    except urllib.error.HTTPError as e:
        sys.exit(f"{method} {path}: {e.code} {e.read().decode()[:400]}")

_, login = call("POST", "/api/v1/auth/login", {"email": "bench-admin@club.example", "password": "bench-password-0001"})
admin = login["token"]
members = [{"name": f"Lid {label} {i:03}", "email": f"lid{i:03}-{label}@club.example",
            "knsb_number": str((8100000 if label == "on" else 8200000) + i),
            "membership": "fixed", "rating": 1200 + 4 * i} for i in range(200)]
_, imported = call("POST", "/api/v1/members/import", {"members": members}, admin)
players = [row["player_id"] for row in imported["rows"]]
assert len(players) == 200, imported
mail_on = label == "on"
for r in range(rounds):
    _, season = call("POST", "/api/v1/seasons", {"name": f"Bench {label} {r}", "opening_date": f"{2040 + r}-09-05"}, admin)
    _, comp = call("POST", f"/api/v1/seasons/{season['id']}/competitions",
                   {"name": f"Keizer {label} {r}", "kind": "keizer", "half": "winter"}, admin)
    call("POST", f"/api/v1/competitions/{comp['id']}/entrants", {"entrants": [{"player_id": p} for p in players]}, admin)
    _, rnd = call("POST", f"/api/v1/competitions/{comp['id']}/rounds", {}, admin)
    call("POST", f"/api/v1/competitions/{comp['id']}/rounds/{rnd['number']}/pairing", {}, admin)
    before = set(folder.glob("*.eml"))
    t0 = time.monotonic()
    call("POST", f"/api/v1/competitions/{comp['id']}/rounds/{rnd['number']}/publish", {}, admin)
    t1 = time.monotonic()
    delivery = "-"
    if mail_on:
        while len(set(folder.glob("*.eml")) - before) < 200:
            if time.monotonic() - t1 > 120:
                sys.exit("fewer than 200 mails within 120 s")
            time.sleep(0.02)
        delivery = f"{(time.monotonic() - t1) * 1000:.0f}"
    print(f"{(t1 - t0) * 1000:.1f} {delivery}", flush=True)
PY
}

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

bench() { # backend database-url
  serve "$1" "$2" none
  measure off > "$work/$1.off"
  stop_service
  serve "$1" "$2" pairing,reminder
  measure on > "$work/$1.on"
  stop_service
  local off on deliver
  off=$(cut -d' ' -f1 "$work/$1.off" | median)
  on=$(cut -d' ' -f1 "$work/$1.on" | median)
  deliver=$(cut -d' ' -f2 "$work/$1.on" | median)
  echo "$1: publish of 200 entrants, median of $rounds: mail off $off ms, mail on $on ms" \
    "(adds $(awk -v a="$on" -v b="$off" 'BEGIN {printf "%.1f", a - b}') ms);" \
    "200 mails at the SMTP server $deliver ms after the publish's answer"
}

bench_backends
