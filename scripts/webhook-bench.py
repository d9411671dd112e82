#!/usr/bin/env python3
"""Webhook delivery throughput: starts the service on a fresh database (SQLite, or Postgres when
BENCH_PG_URL names a server), a receiver on loopback that checks every signature, subscribes it
SUBS times, stores N public events at once, and measures the time from the events' commit
until every subscription has received every event. Prints deliveries per second.

Usage: scripts/webhook-bench.py [N] [SUBS]      (default 2000 events, 1 subscription)
Environment: BIN         the service binary (default target/release/clubcomp)
             BENCH_PORT  the service's port (default 18240)
             BENCH_PG_URL  postgres://user@host:port (a database is created and dropped)
"""
import base64
import hashlib
import hmac
import http.server
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
import uuid

N = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
SUBS = int(sys.argv[2]) if len(sys.argv) > 2 else 1
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("BIN", os.path.join(ROOT, "target", "release", "clubcomp"))
PORT = int(os.environ.get("BENCH_PORT", "18240"))
PG = os.environ.get("BENCH_PG_URL")
BASE = f"http://127.0.0.1:{PORT}"

secrets = {}
received = {}
bad = []
lock = threading.Lock()


class Hook(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self):
        body = self.rfile.read(int(self.headers["content-length"]))
        sub = self.path.rsplit("/", 1)[1]
        key = base64.b64decode(secrets[sub].removeprefix("whsec_"))
        signed = f"{self.headers['webhook-id']}.{self.headers['webhook-timestamp']}.".encode() + body
        want = "v1," + base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
        with lock:
            if want not in self.headers["webhook-signature"].split():
                bad.append(self.headers["webhook-id"])
            received.setdefault(sub, set()).add(self.headers["webhook-id"])
        self.send_response(204)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


def call(method, path, token=None, body=None):
    req = urllib.request.Request(BASE + path, method=method,
                                 data=json.dumps(body).encode() if body is not None else None)
    req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(req) as r:
        return json.loads(r.read() or b"null")


def main():
    work = tempfile.mkdtemp()
    if PG:
        name = f"clubcomp_bench_{uuid.uuid4().hex[:12]}"
        subprocess.run(["psql", f"{PG}/postgres", "-qc", f"CREATE DATABASE {name}"], check=True)
        url = f"{PG}/{name}"
    else:
        url = f"sqlite://{work}/bench.sqlite3"
    env = dict(os.environ, DATABASE_URL=url, DATA_DIR=work, BIND_ADDR=f"127.0.0.1:{PORT}",
               JWT_SECRET="bench-secret-bench-secret-bench-secret-01", RUST_LOG="error",
               BOOTSTRAP_ADMIN_EMAIL="admin@club.example", BOOTSTRAP_ADMIN_PASSWORD="admin-password",
               WEBHOOK_ALLOW_PRIVATE="true", WEBHOOK_POLL_MS="100")
    server = subprocess.Popen([BIN, "serve"], env=env, stdout=subprocess.DEVNULL,
                              stderr=open(os.path.join(work, "log"), "w"))
    hook = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Hook)
    threading.Thread(target=hook.serve_forever, daemon=True).start()
    try:
        for _ in range(200):
            try:
                urllib.request.urlopen(BASE + "/readyz")
                break
            except Exception:
                time.sleep(0.1)
        token = call("POST", "/api/v1/auth/login", body={"email": "admin@club.example",
                                                           "password": "admin-password"})["token"]
        for s in range(SUBS):
            r = call("POST", "/api/v1/webhooks", token,
                     {"url": f"http://127.0.0.1:{hook.server_address[1]}/hook/{s}"})
            secrets[str(s)] = r["secret"]
        rows = "INSERT INTO events (kind, occurred_at, competition_id, payload, visibility) "
        if PG:
            sql = (rows + f"SELECT 'result.entered', now() AT TIME ZONE 'UTC', 1, "
                   f"'{{\"round\": ' || g || '}}', 'public' FROM generate_series(1, {N}) g")
            subprocess.run(["psql", url, "-qc", sql], check=True)
        else:
            db = sqlite3.connect(f"{work}/bench.sqlite3", timeout=30)
            with db:
                db.executemany(rows + "VALUES ('result.entered', datetime('now'), 1, ?, 'public')",
                               [(json.dumps({"round": i}),) for i in range(N)])
            db.close()
        start = time.monotonic()
        while True:
            with lock:
                done = sum(len(v) for v in received.values())
            if done >= N * SUBS:
                break
            if time.monotonic() - start > 600:
                sys.exit(f"only {done} of {N * SUBS} deliveries after 600 s")
            time.sleep(0.01)
        took = time.monotonic() - start
        print(f"{'postgres' if PG else 'sqlite'}: {N} events x {SUBS} subscription(s) = "
              f"{N * SUBS} deliveries in {took:.2f} s: {N * SUBS / took:.0f} deliveries/s; "
              f"bad signatures: {len(bad)}")
    finally:
        server.terminate()
        server.wait()
        hook.shutdown()
        if PG:
            subprocess.run(["psql", f"{PG}/postgres", "-qc", f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"])


if __name__ == "__main__":
    main()
