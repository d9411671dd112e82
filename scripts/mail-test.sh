#!/usr/bin/env bash
# Mail against a real SMTP server: aiosmtpd (from PyPI, in a virtual environment under
# target/mail-test) listens on loopback and writes every message it accepts as a file; the
# service sends to it with SMTP_URL=smtp://127.0.0.1:PORT and SMTP_TLS=none. Checks end to
# end: three accounts invited at once get one mail each within 10 s; each mail's link opens
# the invitation page; its token sets the password and signs in; the password then logs in,
# and a second use of the link is refused. A Keizer round the admin pairs and publishes mails
# each of its two players their board, colour and opponent within 10 s. Standalone, 60 mails
# are then queued at once and the service is killed with SIGKILL while the fifth is under way
# (the SMTP server holds its answer); after a restart every one arrives, and no Message-ID twice.
#
# Standalone: scripts/mail-test.sh BINARY   (starts aiosmtpd and the service on the demo club)
# Against a running service: set MAIL_TEST_BASE_URL (e.g. http://127.0.0.1:8080),
# MAIL_TEST_CAPTURE_DIR (the folder the SMTP server writes each message to, one file each),
# MAIL_TEST_ADMIN_EMAIL and MAIL_TEST_ADMIN_PASSWORD; the service must send to that server.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${MAIL_TEST_VENV:-target/mail-test/venv}
work=$(mktemp -d)
server_pid="" smtp_pid=""
trap 'kill "$server_pid" "$smtp_pid" 2>/dev/null || true; rm -rf "$work"' EXIT

if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import aiosmtpd' 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet "aiosmtpd==1.4.6"
fi

if [ -n "${MAIL_TEST_BASE_URL:-}" ]; then
  base=$MAIL_TEST_BASE_URL
  capture=${MAIL_TEST_CAPTURE_DIR:?MAIL_TEST_CAPTURE_DIR names the folder the SMTP server writes to}
  admin_email=${MAIL_TEST_ADMIN_EMAIL:?}
  admin_password=${MAIL_TEST_ADMIN_PASSWORD:?}
else
  bin=${1:?usage: scripts/mail-test.sh BINARY}
  port=${MAIL_TEST_PORT:-18102}
  smtp_port=${MAIL_TEST_SMTP_PORT:-18103}
  capture="$work/mail"
  mkdir -p "$capture"
  "$venv/bin/python" - "$smtp_port" "$capture" > "$work/smtp.log" 2>&1 <<'PY' &
import asyncio, pathlib, sys, time
from aiosmtpd.controller import Controller

port, folder = int(sys.argv[1]), pathlib.Path(sys.argv[2])

# The kill -9 check arms the server with the file `hold` (a recipient suffix): after four
# messages to such recipients it holds the answer to the fifth, writes `held`, and waits for
# `killed` (the harness has killed the service and reaped it, so the sender is gone for sure);
# that message is then not kept: its sender never heard 250.
hold, held, killed = folder.parent / "hold", folder.parent / "held", folder.parent / "killed"

class Capture:
    kept_armed = 0

    async def handle_DATA(self, server, session, envelope):
        suffix = hold.read_text().strip() if hold.exists() else None
        armed = suffix is not None and all(r.endswith(suffix) for r in envelope.rcpt_tos)
        if armed and Capture.kept_armed == 4 and not held.exists():
            held.write_text(" ".join(envelope.rcpt_tos))
            for _ in range(1200):
                if killed.exists():
                    break
                await asyncio.sleep(0.05)
            return "451 the sender is gone"
        name = f"{time.time_ns()}.eml"
        (folder / f".{name}").write_bytes(envelope.original_content or envelope.content)
        (folder / f".{name}").rename(folder / name)
        if armed:
            Capture.kept_armed += 1
        return "250 OK"

controller = Controller(Capture(), hostname="127.0.0.1", port=port)
controller.start()
print("listening", flush=True)
while True:
    time.sleep(3600)
PY
  smtp_pid=$!
  for _ in $(seq 1 50); do grep -q listening "$work/smtp.log" && break; sleep 0.2; done
  grep -q listening "$work/smtp.log" || { echo "aiosmtpd did not start:"; cat "$work/smtp.log"; exit 1; }
  admin_email=mail-admin@club.example
  admin_password=mail-test-password
  base="http://127.0.0.1:$port"
  . scripts/demo-server.sh
  serve_env=(BOOTSTRAP_ADMIN_EMAIL="$admin_email" BOOTSTRAP_ADMIN_PASSWORD="$admin_password"
    SMTP_URL="smtp://127.0.0.1:$smtp_port" SMTP_TLS=none
    MAIL_FROM="Schaakclub De Toren <wedstrijd@toren.example>" PUBLIC_URL="$base"
    CLUB_NAME="Schaakclub De Toren" MAIL_POLL_MS=100 MAIL_MAX_PER_MINUTE=1000)
  start_demo_server "$bin" "$port" "$work" "${serve_env[@]}"
fi

"$venv/bin/python" - "$base" "$capture" "$admin_email" "$admin_password" <<'PY'
import email, email.policy, json, pathlib, sys, time, urllib.error, urllib.parse, urllib.request, uuid

base, capture, admin_email, admin_password = sys.argv[1:5]
folder = pathlib.Path(capture)

def call(method, path, body=None, token=None, form=False):
    data, headers = None, {}
    if body is not None:
        if form:
            data = urllib.parse.urlencode(body).encode()
            headers["content-type"] = "application/x-www-form-urlencoded"
        else:
            data = json.dumps(body).encode()
            headers["content-type"] = "application/json"
    if token:
        headers["authorization"] = f"Bearer {token}"
    url = path if path.startswith("http") else base + path
    req = urllib.request.Request(url, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(req, timeout=20) as r:
            text = r.read().decode()
            return r.status, text
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()

def check(ok, what):
    if not ok:
        print(f"FAILED: {what}")
        sys.exit(1)
    print(f"ok: {what}")

status, text = call("POST", "/api/v1/auth/login", {"email": admin_email, "password": admin_password})
check(status == 200, f"the admin logs in ({status})")
admin = json.loads(text)["token"]

run = uuid.uuid4().hex[:8]
addresses = [f"member{i}-{run}@club.example" for i in range(3)]
ids = []
for a in addresses:
    status, text = call("POST", "/api/v1/users", {"email": a, "password": "throwaway-pw", "roles": ["member"]}, admin)
    check(status == 201, f"account {a} is created ({status})")
    ids.append(json.loads(text)["id"])

before = set(folder.glob("*.eml"))
start = time.monotonic()
status, text = call("POST", "/api/v1/users/invite", {"user_ids": ids}, admin)
check(status == 202, f"the three accounts are invited ({status} {text})")

def mails_to(addrs, deadline):
    found = {}
    while time.monotonic() < deadline:
        for p in set(folder.glob("*.eml")) - before:
            m = email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
            to = m["To"].addresses[0].addr_spec if m["To"] else ""
            if to in addrs:
                found.setdefault(to, []).append(m)
        if all(a in found for a in addrs):
            return found
        found = {}
        time.sleep(0.1)
    return found

found = mails_to(addresses, start + 10)
check(len(found) == 3 and all(len(v) == 1 for v in found.values()),
      f"one mail to each of the three within 10 s ({ {k: len(v) for k, v in found.items()} })")

for a in addresses:
    m = found[a][0]
    check(m.get_content_type() == "multipart/alternative", f"the mail to {a} is multipart/alternative")
    text = m.get_body(preferencelist=("plain",)).get_content()
    link = next((w for w in text.split() if "/account/invitation?token=" in w), None)
    check(link is not None and link.startswith(base), f"the mail to {a} holds the link {link}")
    status, page = call("GET", link)
    check(status == 200 and "<form" in page, f"the link opens the invitation page ({status})")
    token = urllib.parse.parse_qs(urllib.parse.urlsplit(link).query)["token"][0]
    password = f"a quiet rook {run} on e-file"
    status, text = call("POST", "/api/v1/auth/invitations/accept", {"token": token, "password": password})
    check(status == 200 and "refresh_token" in json.loads(text), f"accepting signs in ({status})")
    status, _ = call("POST", "/api/v1/auth/login", {"email": a, "password": password})
    check(status == 200, f"{a} logs in with the chosen password ({status})")
    status, text = call("POST", "/api/v1/auth/invitations/accept", {"token": token, "password": password})
    check(status == 422 and "used already" in text, f"a second use of the link is refused ({status})")

# a published Keizer round mails each of its two players their board, colour and opponent
names = {f"Wit {run}": f"white-{run}@club.example", f"Zwart {run}": f"black-{run}@club.example"}
pids = {}
for n, a in names.items():
    status, text = call("POST", "/api/v1/players", {"name": n, "email": a}, admin)
    check(status == 201, f"player {n} is created ({status} {text})")
    pids[json.loads(text)["id"]] = (n, a)
status, text = call("POST", "/api/v1/seasons", {"name": f"Seizoen {run}", "opening_date": "2031-09-05"}, admin)
check(status == 201, f"a season is created ({status} {text})")
season = json.loads(text)["id"]
status, text = call("POST", f"/api/v1/seasons/{season}/competitions", {"name": f"Keizer {run}", "kind": "keizer", "half": "winter"}, admin)
check(status == 201, f"a Keizer competition is created ({status} {text})")
comp = json.loads(text)["id"]
status, text = call("POST", f"/api/v1/competitions/{comp}/entrants", {"entrants": [{"player_id": p} for p in pids]}, admin)
check(status == 200, f"the two players are entered ({status} {text})")
status, text = call("POST", f"/api/v1/competitions/{comp}/rounds", {}, admin)
check(status == 201, f"a round is created ({status} {text})")
number = json.loads(text)["number"]
status, text = call("POST", f"/api/v1/competitions/{comp}/rounds/{number}/pairing", {}, admin)
check(status in (200, 201), f"the round is paired ({status} {text})")
status, text = call("GET", f"/api/v1/competitions/{comp}/rounds/{number}", token=admin)
game = json.loads(text)["games"][0]
white, black, board = game["white"]["id"], game["black"]["id"], game["board"]
before = set(folder.glob("*.eml"))
start = time.monotonic()
status, text = call("POST", f"/api/v1/competitions/{comp}/rounds/{number}/publish", {}, admin)
check(status == 200, f"the round is published ({status} {text})")
found = mails_to([pids[white][1], pids[black][1]], start + 10)
check(len(found) == 2 and all(len(v) == 1 for v in found.values()), "one pairing mail to each player within 10 s")
for me, other, colour in ((white, black, "wit"), (black, white, "zwart")):
    m = found[pids[me][1]][0]
    text = m.get_body(preferencelist=("plain",)).get_content()
    line = f"Je speelt aan bord {board} met {colour} tegen {pids[other][0]}."
    check(line in text, f"the mail to {pids[me][0]} says: {line}")

status, text = call("GET", "/api/v1/mail/deliveries?status=failed", token=admin)
check(status == 200 and json.loads(text)["total"] == 0, "no mail failed")
print("mail test: delivery checks passed")
PY

[ -n "$server_pid" ] || { echo "mail test passed (the kill -9 check needs the standalone run)"; exit 0; }

# kill -9 with 60 mails queued: the 60 invitations are queued in one request, and the service
# is killed while the SMTP server holds its answer to the fifth of them; then it is started
# again on the same database.
#
# The kill lands at a point the service can define: four mails accepted (each recorded as sent
# before the next is begun) and the fifth sent but not answered. A kill at an arbitrary moment
# can land after the server's 250 and before the service records it; that mail is then sent
# again (at least once, with the same Message-ID: decision 0320), which is not a fault. Nor can
# the server tell that a sender has been killed by waiting for the connection to close: on a
# loaded machine the kernel takes up to seconds to tear a killed process down, and until then
# its connections stay open.
run=$(od -An -N4 -tx1 /dev/urandom | tr -d ' \n')
echo "-$run@club.example" > "$work/hold"
"$venv/bin/python" - "$base" "$admin_email" "$admin_password" "$run" <<'PY'
import json, sys, urllib.request

base, admin_email, admin_password, run = sys.argv[1:5]

def call(method, path, body, token=None):
    headers = {"content-type": "application/json"}
    if token:
        headers["authorization"] = f"Bearer {token}"
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(), headers=headers, method=method)
    with urllib.request.urlopen(req, timeout=20) as r:
        return r.status, json.loads(r.read().decode() or "null")

_, login = call("POST", "/api/v1/auth/login", {"email": admin_email, "password": admin_password})
admin = login["token"]
ids = []
for i in range(60):
    _, user = call("POST", "/api/v1/users", {"email": f"kill{i}-{run}@club.example", "password": "throwaway-pw", "roles": ["member"]}, admin)
    ids.append(user["id"])
status, _ = call("POST", "/api/v1/users/invite", {"user_ids": ids}, admin)
assert status == 202, status
print("ok: 60 invitations queued in one request")
PY
arrived() { grep -l "kill[0-9]*-$run@club.example" "$capture"/*.eml 2>/dev/null | wc -l; }
for _ in $(seq 1 600); do [ -f "$work/held" ] && break; sleep 0.05; done
[ -f "$work/held" ] || { echo "FAILED: the fifth mail did not reach the SMTP server within 30 s"; exit 1; }
kill -9 "$server_pid"
wait "$server_pid" 2>/dev/null || true
touch "$work/killed"
at_kill=$(arrived)
echo "ok: the service was killed with SIGKILL while the mail to $(cat "$work/held") was under way"
[ "$at_kill" -eq 4 ] || { echo "FAILED: $at_kill mails had arrived at the kill, not 4"; exit 1; }
mv "$work/server.log" "$work/server-killed.log"
env BIND_ADDR="127.0.0.1:$port" RUST_LOG=warn "${serve_env[@]}" "$bin" serve > "$work/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 1 50); do curl -fs "$base/readyz" >/dev/null && break; sleep 0.2; done
curl -fs "$base/readyz" >/dev/null || { echo "FAILED: the service did not start again:"; cat "$work/server.log"; exit 1; }
"$venv/bin/python" - "$capture" "$run" <<'PY'
import collections, email, email.policy, pathlib, re, sys, time

folder, run = pathlib.Path(sys.argv[1]), sys.argv[2]
wanted = {f"kill{i}-{run}@club.example" for i in range(60)}
deadline = time.monotonic() + 30
while True:
    ids, to = collections.Counter(), collections.Counter()
    for p in folder.glob("*.eml"):
        m = email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
        addr = m["To"].addresses[0].addr_spec if m["To"] else ""
        if addr in wanted:
            ids[m["Message-ID"]] += 1
            to[addr] += 1
    if len(to) == 60 or time.monotonic() > deadline:
        break
    time.sleep(0.2)
missing = sorted(wanted - set(to))
twice = [i for i, n in ids.items() if n > 1]
print(f"{len(to)} of 60 addresses reached, {len(ids)} Message-IDs, {sum(ids.values())} messages")
if missing:
    print(f"FAILED: never delivered: {missing[:5]}…")
    sys.exit(1)
if twice or len(ids) != 60:
    print(f"FAILED: Message-IDs delivered more than once: {twice}")
    sys.exit(1)
print("ok: after the restart every one of the 60 arrived, each Message-ID once")
PY
for log in "$work/server-killed.log" "$work/server.log"; do
  if grep -q "panicked" "$log"; then
    echo "server log shows a panic:"; grep -A3 panicked "$log"; exit 1
  fi
done
echo "mail test passed"
