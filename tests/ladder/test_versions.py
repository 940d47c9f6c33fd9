"""A new version's live Elo starts from its predecessor's, provisional, and a void's replay
starts it there again: the ladder's side of bot versions, on a scratch database."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import psycopg
import pytest

from ladder import elo
from ladder.store import rate_finished, void_match
from server.bots import announce_version
from tests.integration.services import scratch_database
from tests.ladder.synthetic import GAME, Synthetic, add_bots, insert_matches

Conn = psycopg.Connection[Any]


@pytest.fixture
def database_url() -> Iterator[str]:
    with scratch_database() as url:
        yield url


def _rating(conn: Conn, name: str) -> tuple[float, int, float | None]:
    row = conn.execute(
        "SELECT r.rating, r.games, r.start FROM ratings r JOIN bots b ON b.id = r.bot_id"
        " WHERE b.name = %s AND r.game = %s",
        (name, GAME),
    ).fetchone()
    assert row is not None
    return float(row[0]), int(row[1]), row[2]


def test_a_version_starts_from_its_predecessor_and_a_void_keeps_that_start(
    database_url: str,
) -> None:
    with psycopg.connect(database_url) as conn:
        bots = add_bots(conn, ["alpha", "beta"])
        # alpha wins 8 of 10 against beta: well above 1500.
        insert_matches(
            conn,
            [Synthetic(("alpha", "beta"), (1, 2) if i < 8 else (2, 1)) for i in range(10)],
            bots,
        )
    announce_version(database_url, "alpha", "1")
    version_id, name, created = announce_version(database_url, "alpha", "2")
    assert created and name == "alpha@2"
    assert rate_finished(database_url) == 10
    with psycopg.connect(database_url) as conn:
        before, games, start = _rating(conn, "alpha")
        assert before > 1500 and games == 10 and start is None
        ids = insert_matches(
            conn,
            [Synthetic(("alpha@2", "beta"), (2, 1)), Synthetic(("alpha@2", "beta"), (1, 2))],
            {**bots, "alpha@2": version_id},
        )
    assert rate_finished(database_url) == 2
    with psycopg.connect(database_url) as conn:
        after_two, games, start = _rating(conn, "alpha@2")
        assert start == before and games == 2
        assert _rating(conn, "alpha")[:2] == (before, 10)  # the predecessor does not move
        # Its first match moved it with the provisional K from the predecessor's rating.
        beta = conn.execute(
            "SELECT before FROM public_rating_history WHERE match_id = %s AND player = 'beta'",
            (ids[0],),
        ).fetchone()
        assert beta is not None
        expected = elo.update([before, beta[0]], [0, 10], [2, 1]).ratings[0]
        first = conn.execute(
            "SELECT before, after FROM public_rating_history WHERE match_id = %s"
            " AND player = 'alpha@2'",
            (ids[0],),
        ).fetchone()
        assert first == (before, expected)

    # Voiding its first match replays the second from the same start.
    with psycopg.connect(database_url, autocommit=True) as conn:
        assert void_match(conn, ids[0], "test") is True
        replayed, games, start = _rating(conn, "alpha@2")
        assert start == before and games == 1
        beta_now = conn.execute(
            "SELECT before FROM public_rating_history WHERE match_id = %s AND player = 'beta'",
            (ids[1],),
        ).fetchone()
        assert beta_now is not None
        assert replayed == elo.update([before, beta_now[0]], [0, 10], [1, 2]).ratings[0]
        assert replayed != after_two


def test_a_version_starts_from_its_lineages_last_rating_when_its_predecessor_never_played(
    database_url: str,
) -> None:
    """Finding 6 of issue #24: alpha@3 follows alpha@2, which never played this game; it starts
    from alpha's rating there (the lineage's last), not from 1500."""
    with psycopg.connect(database_url) as conn:
        bots = add_bots(conn, ["alpha", "beta"])
        insert_matches(
            conn,
            [Synthetic(("alpha", "beta"), (1, 2) if i < 8 else (2, 1)) for i in range(10)],
            bots,
        )
    announce_version(database_url, "alpha", "1")
    announce_version(database_url, "alpha", "2")
    third, name, _ = announce_version(database_url, "alpha", "3")
    assert name == "alpha@3"
    assert rate_finished(database_url) == 10
    with psycopg.connect(database_url) as conn:
        lineage, _, _ = _rating(conn, "alpha")
        insert_matches(conn, [Synthetic(("alpha@3", "beta"), (1, 2))], {**bots, name: third})
    assert rate_finished(database_url) == 1
    with psycopg.connect(database_url) as conn:
        _rating_now, games, start = _rating(conn, "alpha@3")
        assert games == 1 and start == lineage and lineage > 1500
