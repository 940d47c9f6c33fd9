"""The workers' side of the gate on a real database: a new version inherits its predecessor's
probation (finding 6 of issue #24), a validation pass is recorded per game for the whole
lineage, and a rated bot claiming a new game gets validation matches planned in that game only
(finding 5)."""

from __future__ import annotations

from collections.abc import Iterator

import psycopg
import pytest

from server.bots import announce_version
from server.store import add_bot
from tests.integration.services import scratch_database
from workers import gate, leagues
from workers.standing import Policy


@pytest.fixture
def database_url() -> Iterator[str]:
    with scratch_database() as url:
        yield url


def connected(database_url: str, name: str, games: list[str]) -> None:
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute("UPDATE bots SET games = %s WHERE name = %s", (games, name))


def test_a_version_bump_keeps_probation_and_the_lineages_games(database_url: str) -> None:
    add_bot(database_url, "x")
    announce_version(database_url, "x", "1")
    connected(database_url, "x", ["magic-trick"])
    policy = Policy(matches=1)
    with leagues.connect(database_url) as conn:
        assert gate.admit_new(conn, policy) == ["x"]
        conn.execute("UPDATE bot_standing SET state = 'probation' WHERE bot = 'x'")
        conn.execute(
            "INSERT INTO lineage_validations (family, game, bot) VALUES ('x', 'magic-trick', 'x')"
        )
    announce_version(database_url, "x", "2")
    connected(database_url, "x@2", ["magic-trick", "movie-tricks"])
    with leagues.connect(database_url) as conn:
        assert gate.admit_new(conn, policy) == ["x@2"]
        now = gate.standing(conn, "x@2")
        assert now is not None and now.state == "probation"
        seats = gate.seat_standings(conn, ["x"])
        assert seats["x"].bot == "x@2" and seats["x"].validated == frozenset({"magic-trick"})
        # Out of probation, the version validates only the game its lineage has not played.
        conn.execute("UPDATE bot_standing SET state = 'rated', since = now() WHERE bot = 'x@2'")
        assert gate.plan_validation(conn, policy) == 1
        planned = conn.execute("SELECT bot, game FROM validation_matches").fetchall()
        assert planned == [{"bot": "x@2", "game": "movie-tricks"}]
