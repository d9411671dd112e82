#!/usr/bin/env python3
"""Cost curve of the calculators: wall time and peak memory of one run of the command line
(`clubcomp calc …`, `clubcomp pair`) per input size, on generated inputs. The work limits in
docs/operations.md are chosen from these figures.

Usage: benches/calc_cost.py [BIN] [--quick]
  BIN      the clubcomp binary (default target/release/clubcomp; build with
           `cargo build --release`)
  --quick  the smaller sizes only

The limits are raised for the run (LIMIT_* variables), so sizes above the defaults are
measured too; a run is cut off after 60 s.
"""
import json
import os
import random
import subprocess
import sys
import tempfile
import time

ARGS = [a for a in sys.argv[1:] if not a.startswith("--")]
QUICK = "--quick" in sys.argv
BIN = ARGS[0] if ARGS else os.path.join(os.environ.get("CARGO_TARGET_DIR", "target"), "release", "clubcomp")
ENV = dict(os.environ)
ENV.update({
    "LIMIT_SWISS_PLAYERS": "10000", "LIMIT_SWISS_ROUNDS": "200",
    "LIMIT_ROUND_ROBIN_PLAYERS": "1000", "LIMIT_ROUND_ROBIN_GAMES": "1000000",
    "LIMIT_KEIZER_PLAYERS": "10000", "LIMIT_KEIZER_EVENINGS": "1000",
    "LIMIT_KEIZER_HISTORY": "1000000",
})
TIMEOUT = 60


def run(argv, stdin_text=None):
    """Runs argv; returns (seconds, peak RSS in MB, exit code) or (None, None, 'timeout').

    The peak resident size is taken by GNU time (`/usr/bin/time -f %M`, Debian package `time`):
    the rusage of a child forked from this Python process would carry the parent's peak over
    into the child's."""
    with tempfile.TemporaryFile("w+") as inp, tempfile.TemporaryFile("w+") as err:
        if stdin_text is not None:
            inp.write(stdin_text)
            inp.seek(0)
        t0 = time.monotonic()
        p = subprocess.Popen(["/usr/bin/time", "-f", "maxrss-kb %M"] + argv, stdin=inp,
                             stdout=subprocess.DEVNULL, stderr=err, env=ENV)
        try:
            code = p.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
            return None, None, "timeout"
        secs = time.monotonic() - t0
        err.seek(0)
        kb = [int(line.split()[1]) for line in err if line.startswith("maxrss-kb ")]
        return secs, (kb[-1] / 1024 if kb else float("nan")), code


def show(name, size, r):
    secs, mb, code = r
    if secs is None:
        print(f"{name:16} {size:>28}   > {TIMEOUT} s")
    else:
        print(f"{name:16} {size:>28} {secs:8.3f} s {mb:8.1f} MB  exit {code}")
    sys.stdout.flush()


def round_robin(n):
    """A single round robin of n players (n even), every game in its round by the circle method:
    players 0..n-2 on the circle meet in round (i + j) mod (n - 1), player n-1 meets player i in
    round 2i mod (n - 1), so nobody plays twice in a round."""
    ids = [f"p{i}" for i in range(n)]
    rnd = random.Random(n)
    games = []
    m = n - 1
    for i in range(n):
        for j in range(i + 1, n):
            r = (i + j) % m if j < m else (2 * i) % m
            games.append({"round": 1 + r, "white": ids[i], "black": ids[j],
                          "result": rnd.choice(["2-0", "1-1", "0-2"])})
    return json.dumps({"discipline": "draughts", "players": [{"id": x} for x in ids],
                       "games": games, "lots_seed": 1})


def keizer(players, evenings):
    rnd = random.Random(players * 1000 + evenings)
    ids = [f"p{i}" for i in range(players)]
    evs = []
    for _ in range(evenings):
        order = ids[:]
        rnd.shuffle(order)
        games = [{"white": order[k], "black": order[k + 1],
                  "result": rnd.choice(["1-0", "0-1", "1/2-1/2"])}
                 for k in range(0, len(order) - 1, 2)]
        evs.append({"games": games})
    return json.dumps({"players": [{"id": x, "rating": 1500 + i} for i, x in enumerate(ids)],
                       "evenings": evs})


def keizer_pairing(players, earlier):
    rnd = random.Random(players)
    ids = [f"p{i}" for i in range(players)]
    history = []
    for ev in range(1, earlier + 1):
        order = ids[:]
        rnd.shuffle(order)
        for k in range(0, len(order) - 1, 2):
            history.append({"a": order[k], "b": order[k + 1], "evening": ev, "half": "winter"})
    ranking = [{"id": x, "present": True, "colours": [rnd.choice("WB") for _ in range(earlier)]}
               for x in ids]
    return json.dumps({"evening": earlier + 1, "half": "winter", "bye_seed": 1,
                       "ranking": ranking, "history": history})


def trf(n, played, rounds):
    out = subprocess.run([BIN, "pair", "--random-trf", str(n), "--played", str(played),
                          "--rounds", str(rounds)], capture_output=True, text=True, env=ENV,
                         check=True)
    return out.stdout


def main():
    print(f"binary {BIN}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")
    for n in ([24, 50, 100] if QUICK else [24, 50, 100, 200, 400, 800]):
        show("round-robin", f"{n} players, {n*(n-1)//2} games",
             run([BIN, "calc", "round-robin"], round_robin(n)))
    for p, e in ([(100, 20), (300, 40)] if QUICK else
                 [(100, 20), (100, 80), (300, 40), (300, 80), (600, 80), (1000, 80), (300, 300)]):
        show("keizer", f"{p} players, {e} evenings", run([BIN, "calc", "keizer"], keizer(p, e)))
    for p, e in ([(100, 10), (300, 10)] if QUICK else
                 [(100, 10), (200, 10), (300, 10), (300, 30), (500, 10), (1000, 10), (2000, 5)]):
        show("keizer-pairing", f"{p} present, {e} evenings",
             run([BIN, "calc", "keizer-pairing"], keizer_pairing(p, e)))
    with tempfile.TemporaryDirectory() as d:
        for n, played in ([(100, 5), (300, 5)] if QUICK else
                          [(100, 5), (200, 5), (300, 5), (500, 5), (500, 10), (500, 20), (1000, 5), (2000, 5)]):
            path = os.path.join(d, f"t{n}-{played}.trf")
            with open(path, "w") as f:
                f.write(trf(n, played, max(played + 4, 9)))
            show("dutch", f"{n} players, round {played + 1}", run([BIN, "pair", "--dutch", path, "-p"]))
            show("tiebreaks", f"{n} players, {played} rounds",
                 run([BIN, "calc", "tiebreaks", "--trf", path]))


if __name__ == "__main__":
    main()
