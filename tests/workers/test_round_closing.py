"""Round closing in real PostgreSQL: a round is closed only once it has tables and all of them
ended. With worker concurrency 2, `collect` can run between `open_round` (the round row) and
`plan_round` (its tables); the round must survive that."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import psycopg
import pytest

from tests.integration.services import scratch_database
from workers import leagues

BOTS = ["builtin:random", "builtin:first", "builtin:last", "builtin:heuristic"]


@pytest.fixture
def conn() -> Iterator[psycopg.Connection[Any]]:
    with scratch_database() as url, leagues.connect(url) as connection:
        yield connection


def collect_and_close(conn: psycopg.Connection[Any]) -> None:
    """What the `collect` task and the `close_round` tasks it queues do, in one process."""
    leagues.collect(conn)
    for league_id, number in leagues.rounds_to_close(conn):
        leagues.close_round(conn, league_id, number)


def round_status(conn: psycopg.Connection[Any], league_id: int, number: int) -> str:
    row = conn.execute(
        "SELECT status FROM league_rounds WHERE league_id = %s AND number = %s",
        (league_id, number),
    ).fetchone()
    assert row is not None
    return str(row["status"])


def test_collect_between_opening_and_planning_a_round_leaves_it_open(
    conn: psycopg.Connection[Any],
) -> None:
    league = leagues.create_league(
        conn, name="race", game="magic-trick", format="round-robin", players=3, bots=BOTS
    )
    number = leagues.open_round(conn, league.id, datetime.now(UTC))
    assert number == 1

    collect_and_close(conn)  # the race: the round exists, its tables do not yet
    assert round_status(conn, league.id, number) == "open"

    tables = leagues.plan_round(conn, league.id, number)
    assert tables
    collect_and_close(conn)
    assert round_status(conn, league.id, number) == "open"
    # A close_round task queued earlier, arriving now: its tables are still to play.
    assert leagues.close_round(conn, league.id, number) is None
    assert round_status(conn, league.id, number) == "open"

    conn.execute(
        "UPDATE league_tables SET status = 'void' WHERE league_id = %s AND round = %s",
        (league.id, number),
    )
    assert leagues.rounds_to_close(conn) == [(league.id, number)]
    collect_and_close(conn)
    assert round_status(conn, league.id, number) == "closed"
