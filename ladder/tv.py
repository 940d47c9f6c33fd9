"""The TV channel: the one live match /tv (or /tv/<game>) follows, as lichess TV does. A match
the operator pinned to the channel while it runs; else the highest-rated table being played
(the seats' mean live Elo on its game, 1500 for a seat not rated yet), the most recently
started first among equals. A match whose deal is still sealed (duplicate tables to come) is
never shown, as the live page refuses it too."""

from __future__ import annotations

import datetime
import uuid
from dataclasses import dataclass
from typing import Any

import psycopg

from ladder.queries import NotFound
from ladder.store import BUILTIN_PREFIX, tuples

Connection = psycopg.Connection[Any]

START = 1500.0


@dataclass(frozen=True, slots=True)
class TvPick:
    match_id: str
    game: str
    players: tuple[str, ...]
    rating: float
    """The seats' mean live Elo."""
    pinned: bool
    started_at: datetime.datetime | None


def pin(conn: Connection, match_id: str, game: str | None = None) -> None:
    """Pin a match to /tv (``game`` None) or /tv/<game>; it is shown while it runs."""
    try:
        key = uuid.UUID(match_id)
    except ValueError:
        raise NotFound(f"no match {match_id[:64]!r}") from None
    with conn.transaction():
        row = conn.execute("SELECT game FROM matches WHERE id = %s", (key,)).fetchone()
        if row is None:
            raise NotFound(f"no match {match_id[:64]!r}")
        if game is not None and row[0] != game:
            raise NotFound(f"match {match_id[:64]!r} is of {row[0]}, not {game}")
        conn.execute(
            "INSERT INTO tv_pins (channel, match_id) VALUES (%s, %s) ON CONFLICT (channel)"
            " DO UPDATE SET match_id = excluded.match_id, pinned_at = now()",
            (game or "", key),
        )


def unpin(conn: Connection, game: str | None = None) -> bool:
    """Take the pin off a channel; whether there was one."""
    with conn.transaction():
        cur = conn.execute("DELETE FROM tv_pins WHERE channel = %s", (game or "",))
        return cur.rowcount > 0


_RUNNING = (
    "SELECT m.id, m.game, m.started_at,"
    " ARRAY(SELECT coalesce(b.name, %s || s.builtin) FROM match_seats s"
    "       LEFT JOIN bots b ON b.id = s.bot_id WHERE s.match_id = m.id ORDER BY s.seat),"
    " (SELECT avg(coalesce(r.rating, %s)) FROM match_seats s"
    "  LEFT JOIN ladder_players p ON p.bot_id = s.bot_id OR p.builtin = s.builtin"
    "  LEFT JOIN ratings r ON r.player_id = p.id AND r.game = m.game"
    "  WHERE s.match_id = m.id)"
    " FROM matches m WHERE m.status = 'running'"
    " AND NOT (m.deal_tables > 1 AND NOT match_revealed(m.id))"
)


def pick(conn: Connection, game: str | None = None) -> TvPick | None:
    """The match the channel shows now, or None while no match is being played."""
    cur = tuples(conn)
    with conn.transaction():
        pinned = cur.execute(
            _RUNNING + " AND m.id = (SELECT match_id FROM tv_pins WHERE channel = %s)",
            (BUILTIN_PREFIX, START, game or ""),
        ).fetchone()
        row = (
            pinned
            or cur.execute(
                _RUNNING + (" AND m.game = %s" if game else "") + " ORDER BY 5 DESC,"
                " coalesce(m.started_at, m.created_at) DESC, m.id LIMIT 1",
                (BUILTIN_PREFIX, START, *((game,) if game else ())),
            ).fetchone()
        )
    if row is None:
        return None
    match_id, found_game, started, players, rating = row
    return TvPick(
        match_id=str(match_id),
        game=found_game,
        players=tuple(players),
        rating=float(rating if rating is not None else START),
        pinned=pinned is not None,
        started_at=started,
    )
