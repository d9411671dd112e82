"""Walks the demo club with the client openapi-python-client generates from
openapi/openapi.json: logs in, reads the season, its competitions, the Keizer standings and
rounds, enters a result and creates a competition with typed params, asserting values the demo club is known to hold (see
tests/api/demo.rs); reads the standings as CSV, pairs a TRF file with the calculator and
checks a member list as CSV (a dry run), the file bodies sent as bytes. Run by scripts/contract-test.sh with the generated package on the path and
the service at CLUBCOMP_URL."""

import datetime
import io
import os
import re
import sys

from clubcomp_client import AuthenticatedClient, Client
from clubcomp_client.api.auth import create_token
from clubcomp_client.api.calculators import create_pairing_calculation
from clubcomp_client.api.competitions import create_competition, list_competitions
from clubcomp_client.api.results import put_game_result
from clubcomp_client.api.rounds import get_round, list_rounds
from clubcomp_client.api.seasons import list_seasons
from clubcomp_client.api.standings import get_standings, get_standings_csv
from clubcomp_client.api.users import import_members
from clubcomp_client.models import (
    CompetitionKind,
    CreateKeizerCompetition,
    CreateKeizerCompetitionKind,
    KeizerCompetitionView,
    KeizerParams,
    RoundRobinCompetitionView,
    SwissCompetitionView,
    LoginRequest,
    ResultCode,
    ResultInput,
    RoundStatus,
    StandingsKind,
    SwissSystem,
)
from clubcomp_client.types import File

INSTANT = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$")


def check(condition, what):
    if not condition:
        sys.exit(f"contract walk: {what}")


def trf_player(number, name, rating):
    """One TRF-16 player line without games (as tests/api/calc.rs writes them)."""
    return (f"001 {number:>4}      {name:<33} {rating:>4} {'':>3} {'':>11} {'':>10} "
            f"{'0.0':>4} {number:>4}")


def file_operations(public, leader, keizer_id, rows):
    """The text and CSV operations: standings as CSV, a TRF paired, a member list checked."""
    csv = get_standings_csv.sync(id=keizer_id, client=public)
    lines = [line for line in csv.split("\r\n") if line]
    check(lines[0].startswith("rank,player_id,name,value,score"), f"CSV header {lines[0]!r}")
    check(len(lines) == 1 + len(rows), f"{len(lines)} CSV lines for {len(rows)} rows")
    check(lines[1].startswith(f"1,{rows[0].player_id},"), f"CSV first line {lines[1]!r}")

    # round 1 of four players, FIDE Dutch: S1 = {1, 2} against S2 = {3, 4}; 1 has White
    # (XXC white1) and the colours alternate down the boards: 1-3, 4-2
    trf = "012 Club rapid\nXXR 9\nXXC white1\n" + "".join(
        trf_player(i, f"P{i}", 2100 - 100 * i) + "\n" for i in range(1, 5))
    pairing = create_pairing_calculation.sync(
        client=public, system=SwissSystem.DUTCH,
        body=File(payload=io.BytesIO(trf.encode())))
    boards = [(b.board, b.white, b.black) for b in pairing.boards]
    check(pairing.round_ == 1 and boards == [(1, 1, 3), (2, 4, 2)], f"pairing {pairing!r}")

    members = ("name,email,knsb_number,membership,rating,language\r\n"
               "Wim Contract,wim.contract@club.example,,fixed,,nl\r\n")
    report = import_members.sync(
        client=leader, dry_run=True,
        body=File(payload=io.BytesIO(members.encode())))
    check(getattr(report, "dry_run", False), f"import report {report!r}")
    return len(lines) - 1, len(boards)


def main():
    base = os.environ["CLUBCOMP_URL"]
    public = Client(base_url=base, raise_on_unexpected_status=True)

    # result codes carry readable names (x-enum-varnames)
    check(ResultCode.WHITE_WINS.value == "1-0", "ResultCode.WHITE_WINS")
    check(ResultCode.DRAW.value == "1/2-1/2", "ResultCode.DRAW")
    check(ResultCode.PLUSREMISE_WHITE.value == "1+-1-", "ResultCode.PLUSREMISE_WHITE")

    token = create_token.sync(
        client=public,
        body=LoginRequest(email="arbiter@club.example", password="demo-password"),
    )
    check(token is not None and token.token_type == "Bearer", f"login: {token!r}")
    check(isinstance(token.expires_at, datetime.datetime), f"expires_at {token.expires_at!r}")
    arbiter = AuthenticatedClient(base_url=base, token=token.token, raise_on_unexpected_status=True)

    seasons = list_seasons.sync(client=public)
    check([s.name for s in seasons.items] == ["2026-2027"], f"seasons {seasons!r}")
    check(seasons.total == 1 and seasons.page == 1, f"season page {seasons!r}")
    season = seasons.items[0]

    competitions = list_competitions.sync(id=season.id, client=public)
    items = competitions.items
    kinds = sorted(c.kind for c in items)
    check(
        kinds == [CompetitionKind.KEIZER, CompetitionKind.ROUND_ROBIN, CompetitionKind.SWISS],
        f"kinds {kinds!r}",
    )
    # each competition is read as the variant of its kind (the one-value `kind` picks it)
    variants = {"keizer": KeizerCompetitionView, "swiss": SwissCompetitionView,
                "round_robin": RoundRobinCompetitionView}
    for c in items:
        check(isinstance(c, variants[str(c.kind)]), f"{c.kind}: read as {type(c).__name__}")
    keizer = next(c for c in items if c.kind == CompetitionKind.KEIZER)

    standings = get_standings.sync(id=keizer.id, client=public)
    check(standings.kind == StandingsKind.KEIZER, f"standings kind {standings.kind!r}")
    rows = standings.keizer.rows
    check(len(rows) == 60, f"{len(rows)} Keizer rows")
    check([r.rank for r in rows[:3]] == [1, 2, 3], "ranks")
    check(all(float(rows[i].score) >= float(rows[i + 1].score) for i in range(len(rows) - 1)), "scores descend")

    rounds = list_rounds.sync(id=keizer.id, client=public)
    statuses = [r.status for r in rounds]
    check(
        statuses == [RoundStatus.COMPLETED] * 5 + [RoundStatus.PUBLISHED] + [RoundStatus.PLANNED] * 4,
        f"statuses {statuses!r}",
    )
    check(rounds[0].date == datetime.date(2026, 9, 11), f"first evening {rounds[0].date!r}")

    in_play = get_round.sync(id=keizer.id, number=6, client=public)
    game = next(g for g in in_play.games if g.black is not None and not g.result)
    entered = put_game_result.sync(
        id=game.id, client=arbiter, body=ResultInput(result=ResultCode.WHITE_WINS)
    )
    check(entered.game.result == ResultCode.WHITE_WINS, f"entered {entered.game.result!r}")
    check(entered.game.version == game.version + 1, "the game's version went up by one")
    again = get_round.sync(id=keizer.id, number=6, client=public)
    shown = next(g for g in again.games if g.id == game.id)
    check(shown.result == ResultCode.WHITE_WINS, f"shown {shown.result!r}")

    # a new Keizer half with typed params comes back as a Keizer competition with them
    login = create_token.sync(
        client=public,
        body=LoginRequest(email="leader@club.example", password="demo-password"),
    )
    leader = AuthenticatedClient(base_url=base, token=login.token, raise_on_unexpected_status=True)
    made = create_competition.sync(
        id=season.id,
        client=leader,
        body=CreateKeizerCompetition(
            name="Keizer for the juniors",
            kind=CreateKeizerCompetitionKind.KEIZER,
            params=KeizerParams(top_value=50, draw=0.5),
        ),
    )
    check(isinstance(made, KeizerCompetitionView), f"created {made!r}")
    check(made.params.top_value == 50 and made.params.draw == 0.5, f"params {made.params!r}")
    csv_rows, boards = file_operations(public, leader, keizer.id, rows)
    print(f"contract walk: {len(rows)} Keizer rows, {len(rounds)} rounds, board {game.board} entered, "
          f"Keizer params read back (top value {made.params.top_value}), {csv_rows} CSV rows, "
          f"{boards} boards paired from a TRF, a member list checked as CSV")


if __name__ == "__main__":
    main()
