#!/usr/bin/env python3
"""Data for the pages the demo does not hold, made through the API of a running demo server
(scripts/browser-test.sh), and the pages the links of its mails open.

  setup BASE          a season of its own (opened 2020-09-01, so that it is never the current
                      one) with a Keizer winter and summer half of four new players, one round
                      each, played and completed, and the play-offs made from them (a knockout:
                      docs/rules/keizer.md#playoffs), their semi-finals published and one
                      game's result in; and a Keizer half with a member who has an
                      address and a planned round two days from now, whose sign-up deadline
                      (the day before at 18:00) falls within REMINDER_HOURS_BEFORE (72), so that
                      the server's reminder pass mails him a sign-off link. Prints the
                      knockout's id.
  links BASE MAIL_DIR PASSWORD
                      causes an invitation, a password reset and an address change, waits for
                      their mails and the reminder (the server writes each mail to MAIL_DIR as
                      mail-ID.eml without SMTP_URL) and prints one line per page a link opens:
                      NAME PATH (the invitation, reset, address and sign-off pages, and the
                      unsubscribe page of the reminder).
  check BASE PASSWORD after the forms were sent once with PASSWORD: the invited account and the
                      reset one log in with it, the changed account with its new address (and
                      not the old one), and the reminded member is signed off the round.
Exits 1 on any failure, naming it."""
import datetime
import email
import email.policy
import json
import pathlib
import re
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

DEMO_PASSWORD = "demo-password"
# the accounts and the member the links are for
INVITED = "walk-invited@club.example"
RESET = "walk-reset@club.example"
CHANGED = "walk-changed@club.example"
CHANGED_TO = "walk-changed-new@club.example"
REMINDED = "walk-reminded@club.example"
REMINDER_SEASON = "Seizoen herinnering"
REMINDER_COMPETITION = "Keizer herinnering"


def fail(what):
    print(f"FAIL {what}")
    sys.exit(1)


def call(method, path, body=None, token=None):
    headers = {}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["content-type"] = "application/json"
    if token:
        headers["authorization"] = f"Bearer {token}"
    req = urllib.request.Request(base + path, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            text = r.read().decode()
            return r.status, json.loads(text) if text else None
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def must(status, answer, want, what):
    if status not in want:
        fail(f"{what}: {status} {answer}")
    return answer


def login(address, password):
    status, answer = call("POST", "/api/v1/auth/login", {"email": address, "password": password})
    return answer["token"] if status == 200 else None


def leader():
    token = login("leader@club.example", DEMO_PASSWORD)
    if token is None:
        fail("the demo leader does not log in")
    return token


def player(token, name, address=None):
    body = {"name": name, "membership": "fixed"}
    if address:
        body["email"] = address
    return must(*call("POST", "/api/v1/players", body, token), (201,), f"player {name}")["id"]


def competition(token, season, body, entrants):
    comp = must(*call("POST", f"/api/v1/seasons/{season}/competitions", body, token), (201,),
                f"competition {body['name']}")["id"]
    must(*call("POST", f"/api/v1/competitions/{comp}/entrants",
               {"entrants": [{"player_id": p} for p in entrants]}, token), (200, 201),
         f"the entrants of {body['name']}")
    return comp


def played_round(token, comp, date):
    """One round on `date`, paired by the Keizer engine, every game won by White, completed."""
    r = f"/api/v1/competitions/{comp}/rounds"
    number = must(*call("POST", r, {"date": date}, token), (201,), f"a round of {comp}")["number"]
    must(*call("POST", f"{r}/{number}/pairing", {}, token), (200, 201), f"the pairing of {comp}")
    must(*call("POST", f"{r}/{number}/publish", {}, token), (200,), f"publishing {comp}")
    games = must(*call("GET", f"{r}/{number}", token=token), (200,), f"round {number}")["games"]
    for g in games:
        if g["black"] is not None:
            must(*call("PUT", f"/api/v1/games/{g['id']}/result", {"result": "1-0"}, token), (200,),
                 f"the result of game {g['id']}")
    must(*call("POST", f"{r}/{number}/complete", {}, token), (200,), f"completing {comp}")


def setup():
    token = leader()
    season = must(*call("POST", "/api/v1/seasons", {"name": "Seizoen 2020-2021",
                                                    "opening_date": "2020-09-01"}, token),
                  (201,), "the play-off season")["id"]
    four = [player(token, f"{first} Knock") for first in ("Aart", "Bea", "Cor", "Dina")]
    winter = competition(token, season, {"name": "Keizer winter 2020", "kind": "keizer",
                                         "half": "winter"}, four)
    played_round(token, winter, "2020-10-07")
    summer = competition(token, season, {"name": "Keizer zomer 2021", "kind": "keizer",
                                         "half": "summer", "seeded_from": winter}, four)
    played_round(token, summer, "2021-03-03")
    knockout = must(*call("POST", f"/api/v1/seasons/{season}/playoffs", {}, token), (201,),
                    "the play-offs")["competition_id"]
    # the semi-finals published, the first game of the first one won by White
    r = f"/api/v1/competitions/{knockout}/rounds/1"
    games = must(*call("POST", f"{r}/publish", {}, token), (200,), "publishing the semi-finals")["games"]
    must(*call("PUT", f"/api/v1/games/{games[0]['id']}/result", {"result": "1-0"}, token), (200,),
         "a semi-final's result")
    # the reminder: a round two days from now in a season of its own
    season = must(*call("POST", "/api/v1/seasons", {"name": REMINDER_SEASON,
                                                    "opening_date": "2021-09-01"}, token),
                  (201,), "the reminder season")["id"]
    member = player(token, "Rik Herinnering", REMINDED)
    comp = competition(token, season, {"name": REMINDER_COMPETITION, "kind": "keizer",
                                       "half": "winter"}, [member])
    date = (datetime.date.today() + datetime.timedelta(days=2)).isoformat()
    must(*call("POST", f"/api/v1/competitions/{comp}/rounds", {"date": date}, token), (201,),
         "the reminder round")
    print(knockout)


def account(admin, address):
    return must(*call("POST", "/api/v1/users", {"email": address, "password": "throwaway-pw",
                                                "roles": ["member"]}, admin), (201,),
                f"account {address}")["id"]


def mails(folder, wanted, deadline):
    """The text of the newest mail to each address in `wanted` holding its link path, waiting
    until `deadline` (time.monotonic())."""
    found = {}
    while time.monotonic() < deadline:
        for p in sorted(pathlib.Path(folder).glob("*.eml")):
            m = email.message_from_bytes(p.read_bytes(), policy=email.policy.default)
            to = m["To"].addresses[0].addr_spec if m["To"] else ""
            text = m.get_body(preferencelist=("plain",)).get_content()
            if to in wanted and wanted[to] in text:
                found[to] = text
        if len(found) == len(wanted):
            return found
        time.sleep(0.2)
    fail(f"no mail with its link to {sorted(set(wanted) - set(found))}")


def link_path(text, path):
    url = next((w for w in text.split() if f"{path}?token=" in w), None)
    if url is None or not url.startswith(base):
        fail(f"no link to {path} on this server in the mail: {url}")
    return url[len(base):]


def links(folder):
    admin = login("admin@club.example", DEMO_PASSWORD)
    if admin is None:
        fail("the demo admin does not log in")
    invited = account(admin, INVITED)
    must(*call("POST", f"/api/v1/users/{invited}/invite", None, admin), (200, 201, 202),
         "the invitation")
    account(admin, RESET)
    must(*call("POST", "/api/v1/auth/password-reset", {"email": RESET}), (200, 202, 204),
         "the password reset")
    account(admin, CHANGED)
    changed = login(CHANGED, "throwaway-pw")
    must(*call("PUT", "/api/v1/me/email", {"email": CHANGED_TO}, changed), (202,),
         "the address change")
    wanted = {INVITED: "/account/invitation", RESET: "/account/password-reset",
              CHANGED_TO: "/account/email", REMINDED: "/mail/attendance"}
    # the reminder pass runs at the server's start and then once a minute
    found = mails(folder, wanted, time.monotonic() + 75)
    for name, address in (("invitation", INVITED), ("password-reset", RESET),
                          ("email", CHANGED_TO), ("sign-off", REMINDED)):
        print(name, link_path(found[address], wanted[address]))
    print("unsubscribe", link_path(found[REMINDED], "/mail/unsubscribe"))


def check(password):
    for address, what in ((INVITED, "the invited account"), (RESET, "the reset account")):
        if login(address, password) is None:
            fail(f"{what} does not log in with the password of the form")
        print(f"ok   {what} logs in with the password of the form")
    if login(CHANGED_TO, "throwaway-pw") is None or login(CHANGED, "throwaway-pw") is not None:
        fail("the changed account does not log in with its new address alone")
    print("ok   the changed account logs in with its new address, not the old one")
    token = leader()
    seasons = must(*call("GET", "/api/v1/seasons?per_page=100"), (200,), "the seasons")["items"]
    season = next(s["id"] for s in seasons if s["name"] == REMINDER_SEASON)
    comps = must(*call("GET", f"/api/v1/seasons/{season}/competitions"), (200,),
                 "the reminder season's competitions")["items"]
    comp = next(c["id"] for c in comps if c["name"] == REMINDER_COMPETITION)
    seen = must(*call("GET", f"/api/v1/competitions/{comp}/rounds/1/attendance", token=token),
                (200,), "the reminder round's attendance")
    # signed off before the deadline: excused (docs/rules/keizer.md#attendance-and-deadlines),
    # recorded as the member's own change by mail
    status = [p["status"] for p in seen["players"]]
    history = [(h["action"], h["channel"], h["capacity"]) for h in seen["history"]]
    if status != ["excused"] or history != [("sign_off", "email", "member")]:
        fail(f"the reminded member is not signed off by mail: {status}, {history}")
    print("ok   the reminded member is signed off by mail (excused)")


command, base = sys.argv[1], sys.argv[2].rstrip("/")
if command == "setup":
    setup()
elif command == "links":
    links(sys.argv[3])
elif command == "check":
    check(sys.argv[3])
else:
    fail(f"unknown command {command}")
