"""The official standings published for the other services (table ``published_standings``,
read through the view ``official_standings``): each stored fit's entries, anchored, with
their 95% intervals. The workers seed an event's entrants by them; they never see live Elo
for that, which depends on the order the results came in."""

from __future__ import annotations

from typing import Any

import psycopg

from ladder.standings import Standings

__all__ = ["publish"]


def publish(conn: psycopg.Connection[Any], game: str, standings: Standings[int]) -> None:
    """Replace the game's published standings by ``standings``, in one transaction."""
    rows = [
        (
            game,
            entry.bot,
            entry.rating,
            entry.low,
            entry.high,
            entry.games,
            entry.provisional,
            standings.matches,
        )
        for entry in standings.entries
    ]
    with conn.transaction(), conn.cursor() as cur:
        cur.execute("DELETE FROM published_standings WHERE game = %s", (game,))
        cur.executemany(
            "INSERT INTO published_standings (game, player_id, rating, low, high, games,"
            " provisional, matches) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
            rows,
        )
