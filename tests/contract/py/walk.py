"""Walks the demo club with the client openapi-python-client generates from
openapi/openapi.json: logs in, reads the season, its competitions, the Keizer standings and
rounds, enters a result and creates a competition with typed params, asserting values the demo club is known to hold (see
tests/api/demo.rs). Run by scripts/contract-test.sh with the generated package on the path and
the service at CLUBCOMP_URL."""

import datetime
import os
import re
import sys

from clubcomp_client import AuthenticatedClient, Client
from clubcomp_client.api.auth import create_token
from clubcomp_client.api.competitions import create_competition, list_competitions
from clubcomp_client.api.results import put_game_result
from clubcomp_client.api.rounds import get_round, list_rounds
from clubcomp_client.api.seasons import list_seasons
from clubcomp_client.api.standings import get_standings
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
)

INSTANT = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$")


def check(condition, what):
    if not condition:
        sys.exit(f"contract walk: {what}")


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
    print(f"contract walk: {len(rows)} Keizer rows, {len(rounds)} rounds, board {game.board} entered, "
          f"Keizer params read back (top value {made.params.top_value})")


if __name__ == "__main__":
    main()
