#!/usr/bin/env python3
"""The club pages' facts against their JSON read models: each page type, rendered by headless
Chromium (its DOM after the scripts ran), shows at least one fact the API answers the same.
Prints one line per page; exits 1 on any difference.

Usage: scripts/page-facts.py BASE_URL PROFILE_DIR NAME=PATH...
The names say which facts are compared (see FACTS); the paths are the pages'.
PAGE_AUTH="Bearer <token>" reads the pages with that header (a page for the club's staff)."""
import html
import json
import os
import re
import subprocess
import sys
import urllib.request

base, profile, *pages = sys.argv[1:]
auth = os.environ.get("PAGE_AUTH")


def api(path):
    with urllib.request.urlopen(base + path) as r:
        return json.load(r)


def dom(path):
    if auth:
        # Chromium's --dump-dom sends no header of ours: a page for the staff (the attendance
        # view, which runs no script) is read as the server renders it
        req = urllib.request.Request(base + path, headers={"Authorization": auth})
        with urllib.request.urlopen(req) as r:
            return r.read().decode()
    out = subprocess.run(
        ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
         "--no-first-run", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--disable-dev-shm-usage", f"--user-data-dir={profile}",
         "--dump-dom", base + path],
        capture_output=True, text=True, timeout=60, check=True)
    return out.stdout


def text(fragment):
    return html.unescape(re.sub(r"<[^>]+>", "", fragment)).strip()


def between(doc, start, end):
    """The part of `doc` from the first `start` to the next `end` (empty when absent)."""
    at = doc.find(start)
    if at < 0:
        return ""
    stop = doc.find(end, at)
    return doc[at:stop if stop >= 0 else len(doc)]


def h1(doc):
    return text(between(doc, "<h1>", "</h1>"))


def body_rows(table):
    """The rows of a table's body (as served a row's end tag may be left out)."""
    return re.split(r"<tr[ >]", between(table, "<tbody>", "</tbody>"))[1:]


def first_row_name(table):
    rows = body_rows(table)
    found = re.findall(r'<th scope="row"[^>]*>(.*?)</th>', rows[0], re.S) if rows else []
    return text(found[0]) if found else None


def ids(path):
    """The competition and round (or evening, season, player) ids of a page path."""
    return [int(x) for x in re.findall(r"/(\d+)", path)]


def season(doc, path):
    want = api(f"/api/v1/seasons/{ids(path)[0]}")["name"]
    return [("season name in the heading", want in h1(doc), want)]


def calendar(doc, path):
    total = api(f"/api/v1/seasons/{ids(path)[0]}/evenings?per_page=1")["total"]
    rows = body_rows(between(doc, '<table class="calendar"', "</table>"))
    return [("evenings", len(rows) == total > 0, f"{len(rows)} on the page, {total} in the JSON")]


def competition(doc, path):
    comp = api(f"/api/v1/competitions/{ids(path)[0]}")
    rounds = api(f"/api/v1/competitions/{ids(path)[0]}/rounds")
    shown = body_rows(between(doc, '<table class="rounds"', "</table>"))
    return [("name", h1(doc) == comp["name"], comp["name"]),
            ("rounds", len(shown) == len(rounds), f"{len(shown)} on the page, {len(rounds)} in the JSON")]


def standings(kind, cls):
    def check(doc, path):
        data = api(f"/api/v1/competitions/{ids(path)[0]}/standings")[kind]
        table = between(doc, f'<table class="{cls}"', "</table>")
        rows = body_rows(table)
        first = first_row_name(table)
        want = data["rows"][0]["name"]
        return [("rows", len(rows) == len(data["rows"]), f"{len(rows)} on the page, {len(data['rows'])} in the JSON"),
                ("first place", first == want, f"{first!r}, JSON {want!r}")]
    return check


def swiss(doc, path):
    """The Swiss rank table: its rows and first place, a cell per round, the tie-break legend
    in the competition's order, and one line of "why above" per separation."""
    data = api(f"/api/v1/competitions/{ids(path)[0]}/standings")["swiss"]
    out = standings("swiss", "standings swiss")(doc, path)
    table = between(doc, '<table class="standings swiss"', "</table>")
    rounds = max((g["round"] for r in data["rows"] for g in r["games"]), default=0)
    cells = [len(re.findall(r'<td class="game">', r)) for r in body_rows(table)]
    out.append(("round cells", rounds > 0 and all(c == rounds for c in cells),
                f"{set(cells)} a row on the page, {rounds} rounds in the JSON"))
    legend = [text(t) for t in re.findall(r"<dt>(.*?)</dt>", between(doc, '<dl class="legend tiebreaks"', "</dl>"), re.S)]
    out.append(("tie-break legend", legend == data["tiebreaks"], f"{legend}, JSON {data['tiebreaks']}"))
    why = re.findall(r"<li>", between(doc, '<ul class="why"', "</ul>"))
    out.append(("why above", len(why) == len(data["separations"]),
                f"{len(why)} on the page, {len(data['separations'])} in the JSON"))
    return out


def boards_of(games):
    return len(games)


def round_page(doc, path):
    comp, number = ids(path)[:2]
    data = api(f"/api/v1/competitions/{comp}/rounds/{number}")
    shown = len(re.findall(r'<tr class="board">', doc))
    want = boards_of(data["games"])
    return [("boards", shown == want and want > 0, f"{shown} on the page, {want} in the JSON"),
            ("round in the heading", h1(doc).endswith(f" {number}"), h1(doc))]


def knockout_round(doc, path):
    """A knockout's round: its boards (group × 10 + match) and results in the JSON's order."""
    comp, number = ids(path)[:2]
    games = api(f"/api/v1/competitions/{comp}/rounds/{number}")["games"]
    want = [(str(g["board"]), g["result"]) for g in games]
    shown = [(b, re.search(r'<td class="result">([^<]*)', row).group(1) or None)
             for b, row in re.findall(r'<tr class="board"><th scope="row" class="num">(\d+)(.*?)(?=<tr|</tbody>)', doc, re.S)]
    return round_page(doc, path) + [
        ("boards and results", shown == want and len(want) > 0, f"{shown} on the page, JSON {want}")]


def playoffs(doc, path):
    """The play-offs page: per group its seeds and one row per game, as the playoffs JSON."""
    data = api(f"/api/v1/competitions/{ids(path)[0]}/playoffs")
    out = prizes(doc, path)
    for g in data["groups"]:
        section = between(doc, f"<h2>Group {g['number']}</h2>", "</section>")
        seeds = ", ".join(s["name"] for s in g["seeds"])
        games = [(x["white"]["name"], x["black"]["name"]) for m in g["matches"] for x in m["games"]]
        rows = [tuple(text(c) for c in re.findall(r"<td>(.*?)(?=<td|</tr|<tr|$)", r, re.S)[1:3])
                for r in body_rows(section)]
        out.append((f"group {g['number']} seeds", f"Seeds: {seeds}" in text(section), seeds))
        out.append((f"group {g['number']} games", rows == games and len(games) > 0,
                    f"{rows} on the page, JSON {games}"))
    return out


def evening_games(evening):
    data = api(f"/api/v1/evenings/{evening}")
    return [b for r in data["rounds"] for b in r["boards"]]


def slips(doc, path):
    games = [b for b in evening_games(ids(path)[0]) if b["black"] is not None]
    shown = len(re.findall(r'<section class="slip"', doc))
    return [("slips", shown == len(games) and shown > 0, f"{shown} on the page, {len(games)} boards with two players in the JSON")]


def player(doc, path):
    want = api(f"/api/v1/players/{ids(path)[0]}/card")["name"]
    return [("name", h1(doc) == want, f"{h1(doc)!r}, JSON {want!r}")]


def prizes(doc, path):
    comp = api(f"/api/v1/competitions/{ids(path)[0]}")
    return [("competition in the heading", comp["name"] in h1(doc), f"{h1(doc)!r}, JSON {comp['name']!r}")]


def attendance(doc, path):
    entrants = api(f"/api/v1/competitions/{ids(path)[0]}/entrants")
    rows = body_rows(between(doc, '<table class="attendance"', "</table>"))
    return [("members", len(rows) == len(entrants) > 0, f"{len(rows)} on the page, {len(entrants)} entrants in the JSON")]


def front(doc, path):
    want = api("/api/v1/evenings/next")["id"]
    shown = re.findall(r'<p class="next"><a href="/club/evenings/(\d+)', doc)
    return [("next evening", shown == [str(want)], f"{shown} on the page, {want} in the JSON")]


def evening(doc, path):
    want = len(evening_games(ids(path)[0]))
    shown = len(re.findall(r'<tr class="board">', doc))
    return [("boards", shown == want and want > 0, f"{shown} on the page, {want} in the JSON")]


FACTS = {
    "front": front,
    "evening": evening,
    "season": season,
    "calendar": calendar,
    "competition": competition,
    "standings-keizer": standings("keizer", "standings keizer"),
    "standings-swiss": swiss,
    "standings-round-robin": standings("round_robin", "standings rr"),
    "embed": standings("keizer", "standings keizer"),
    "prizes": prizes,
    "prizes-round-robin": prizes,
    "slips": slips,
    "player": player,
    "attendance": attendance,
    "round": round_page,
    "round-knockout": knockout_round,
    "prizes-knockout": playoffs,
}

failed = 0
for entry in pages:
    name, path = entry.split("=", 1)
    check = FACTS.get(name) or FACTS.get(name.split("-")[0])
    if check is None:
        print(f"FAIL {name}: no facts to compare")
        failed += 1
        continue
    try:
        results = check(dom(path), path)
    except Exception as e:  # a missing element or an unreadable answer is a failure too
        results = [("page", False, f"{type(e).__name__}: {e}")]
    for what, ok, detail in results:
        print(f"{'ok  ' if ok else 'FAIL'} {name} {what}: {detail}")
        failed += not ok
sys.exit(1 if failed else 0)
