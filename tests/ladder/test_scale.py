"""Moves of the standings' scale (ladder/scale.py) on a real database: a bot becoming
established shifts every standing, and the ladder records that once, with its size and who
became established, however many ladder processes fit the game."""

from __future__ import annotations

from typing import Any

import psycopg

from ladder import scale
from ladder.queries import StandingsCache, leaderboard
from ladder.store import rate_finished
from tests.ladder.synthetic import Synthetic, add_bots, insert_matches

Conn = psycopg.Connection[Any]
GAME = "movie-tricks"


def test_a_bot_becoming_established_is_recorded_once_as_a_move_of_the_scale(
    database_url: str, conn: Conn
) -> None:
    bots = add_bots(conn, ["anchor", "climber", *[f"guest{i}" for i in range(8)]])
    first = [Synthetic(("anchor", f"guest{i % 8}"), (1, 2) if i % 3 else (2, 1)) for i in range(25)]
    insert_matches(conn, first, bots)
    assert rate_finished(database_url) == len(first)
    two = [StandingsCache(), StandingsCache()]
    before, _ = (cache.standings(conn, GAME).by_bot() for cache in two)
    assert scale.recent(conn, GAME) == ()

    more = [Synthetic(("climber", f"guest{i % 8}"), (1, 2)) for i in range(22)]
    insert_matches(conn, more, bots)
    assert rate_finished(database_url) == len(more)
    after, _ = (cache.standings(conn, GAME).by_bot() for cache in two)

    moves = scale.recent(conn, GAME)
    assert len(moves) == 1, moves
    assert moves[0].joined == ("climber",) and moves[0].departed == ()
    anchor = bots["anchor"]
    ladder_id = conn.execute(
        "SELECT id FROM ladder_players WHERE bot_id = %s", (anchor,)
    ).fetchone()
    assert ladder_id is not None
    moved = after[ladder_id[0]].rating - before[ladder_id[0]].rating
    # The idle anchor moved by about the scale's move (its guests' new results move it a bit).
    assert abs(moves[0].shift) >= scale.NOTICEABLE
    assert abs(moves[0].shift - moved) < 0.25 * abs(moved), (moves, moved)
    board = leaderboard(conn, GAME, two[0])
    assert board.scale_moves == moves
    # Refitting what did not change records nothing more.
    StandingsCache().standings(conn, GAME)
    assert scale.recent(conn, GAME) == moves
