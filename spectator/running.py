"""The matches running now, for the live pages: game, players, rated or not, decisions so far,
and the league they belong to. No seeds, no moves (``spectator.replays`` re-executes them into
the spectator's views)."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

import psycopg

from ladder.store import BUILTIN_PREFIX, tuples

Connection = psycopg.Connection[Any]

RUNNING_LIMIT = 100


@dataclass(frozen=True, slots=True)
class RunningMatch:
    match_id: str
    game: str
    players: tuple[str, ...]
    rated: bool
    decisions: int
    started_at: datetime.datetime | None
    league: str | None


def running_matches(conn: Connection, limit: int = RUNNING_LIMIT) -> tuple[RunningMatch, ...]:
    """Matches being played now, most recently started first."""
    rows = (
        tuples(conn)
        .execute(
            "SELECT m.id, m.game, m.rated, m.started_at,"
            " (SELECT count(*) FROM match_moves mv WHERE mv.match_id = m.id),"
            " (SELECT array_agg(coalesce(b.name, %s || s.builtin) ORDER BY s.seat)"
            "  FROM match_seats s LEFT JOIN bots b ON b.id = s.bot_id WHERE s.match_id = m.id),"
            " (SELECT l.name FROM league_tables t JOIN leagues l ON l.id = t.league_id"
            "  WHERE t.match_id = m.id LIMIT 1)"
            " FROM matches m WHERE m.status = 'running'"
            " ORDER BY m.started_at DESC NULLS LAST, m.id LIMIT %s",
            (BUILTIN_PREFIX, limit),
        )
        .fetchall()
    )
    return tuple(
        RunningMatch(
            match_id=str(match_id),
            game=game,
            players=tuple(players or ()),
            rated=bool(rated),
            decisions=int(decisions),
            started_at=started,
            league=league,
        )
        for match_id, game, rated, started, decisions, players, league in rows
    )
