"""Each ratings row's ``last_played``: the end of its player's last rated match, in the
ladder's order, kept by both rating paths, a void's replay and the migration that added it; the
leaderboard shows it."""

from __future__ import annotations

import datetime
from typing import Any

import psycopg

from ladder.queries import StandingsCache, leaderboard
from ladder.store import rate_finished, rate_match, void_match
from premiere.db import MIGRATIONS
from tests.ladder.synthetic import GAME, Synthetic, add_bots, insert_matches, random_matches

Conn = psycopg.Connection[Any]
NAMES = [f"bot{i:02d}" for i in range(8)]
POOL = [*NAMES, "builtin:random"]


def stored(conn: Conn) -> dict[int, datetime.datetime | None]:
    """``last_played`` of every ratings row with a rated match."""
    return dict(
        conn.execute(
            "SELECT player_id, last_played FROM ratings WHERE game = %s AND games > 0", (GAME,)
        ).fetchall()
    )


def from_history(conn: Conn) -> dict[int, datetime.datetime | None]:
    """The same, read from the history: the end of each player's match of highest seq."""
    return dict(
        conn.execute(
            "SELECT DISTINCT ON (h.player_id) h.player_id, m.finished_at FROM rating_history h"
            " JOIN matches m ON m.id = h.match_id WHERE h.game = %s"
            " ORDER BY h.player_id, h.seq DESC",
            (GAME,),
        ).fetchall()
    )


def ended(conn: Conn, match_id: str) -> datetime.datetime:
    row = conn.execute("SELECT finished_at FROM matches WHERE id = %s", (match_id,)).fetchone()
    assert row is not None and isinstance(row[0], datetime.datetime)
    return row[0]


def test_rating_voiding_and_the_migration_keep_last_played(database_url: str, conn: Conn) -> None:
    bots = add_bots(conn, [*NAMES, "once"])
    ids = insert_matches(conn, random_matches(40, POOL, seed=5), bots)
    # The first 15 one transaction each (rate_match), the rest by the queue in batches.
    assert sum(rate_match(conn, match_id) for match_id in ids[:15]) == 15
    played = stored(conn)
    assert played and None not in played.values()
    assert played == from_history(conn)
    assert rate_finished(database_url) == 25
    assert stored(conn) == from_history(conn)
    assert max(v for v in stored(conn).values() if v is not None) == ended(conn, ids[-1])

    # A bot whose only match is the last: voided, it has played nothing; the players of the
    # match before it go back to the end of their previous match.
    only = insert_matches(conn, [Synthetic(("once", "bot00", "bot01"), (1, 2, 3))], bots)[0]
    assert rate_finished(database_url) == 1
    once = conn.execute("SELECT id FROM ladder_players WHERE bot_id = %s", (bots["once"],))
    once_id = once.fetchone()[0]  # type: ignore[index]
    assert stored(conn)[once_id] == ended(conn, only)
    assert void_match(conn, only, "operator: test") is True
    assert once_id not in stored(conn)
    row = conn.execute(
        "SELECT last_played FROM ratings WHERE game = %s AND player_id = %s", (GAME, once_id)
    ).fetchone()
    assert row == (None,)
    assert stored(conn) == from_history(conn)
    assert max(v for v in stored(conn).values() if v is not None) == ended(conn, ids[-1])
    # A void in the middle of the ladder replays the matches after it.
    assert void_match(conn, ids[20], "operator: test") is True
    assert stored(conn) == from_history(conn)

    board = leaderboard(conn, GAME, StandingsCache())
    names = dict(
        conn.execute(
            "SELECT p.id, coalesce(b.name, 'builtin:' || p.builtin) FROM ladder_players p"
            " LEFT JOIN bots b ON b.id = p.bot_id"
        ).fetchall()
    )
    assert {e.player: e.last_played for e in board.entries} == {
        names[player]: last for player, last in from_history(conn).items()
    }

    # The migration fills the column of a ladder rated before it (and may run again).
    before = stored(conn)
    conn.execute("UPDATE ratings SET last_played = NULL")
    migration = next(MIGRATIONS.glob("0048.*.sql")).read_text()
    conn.execute(migration.encode())
    assert stored(conn) == before
