"""Pinned anchors: built-in players an operator holds at a fixed rating on a game's ladder.

Live Elo never moves an anchor (``ladder.elo.pinned_update``), and the official standings put
their offset where the anchors' pins say (``ladder.standings.pinned_offset``), so two ladders of
one game, or one ladder a year apart, report numbers on one scale. Only built-in players can be
anchors: they are programs shipped with Premiere, the same code on every ladder and every
year, while a registered bot is code its author may change. Setting, moving or removing an
anchor takes the game's rating lock alone (as a void does), so no rating is in flight meanwhile;
ratings already applied stay as they were rated.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg.pq import TransactionStatus

from games import registry
from games.bots import bot_names
from ladder.apply import GAME_LOCK_KEY, reference_ratings, tuples
from ladder.store import BUILTIN_PREFIX

__all__ = ["Anchor", "anchors", "remove_anchor", "set_anchor"]

Connection = psycopg.Connection[Any]
LIMIT = 100_000.0
"""Pins lie strictly within plus or minus this (the table's check)."""


@dataclass(frozen=True, slots=True)
class Anchor:
    """A pinned player: its game, its ladder name ("builtin:<name>") and its rating."""

    game: str
    player: str
    rating: float


def _builtin(game: str, player: str) -> str:
    """The built-in's stored name, or ValueError saying why ``player`` cannot be an anchor."""
    try:
        engine = registry.get(game)
    except KeyError:
        raise ValueError(f"no game {game!r}") from None
    if not player.startswith(BUILTIN_PREFIX):
        raise ValueError(
            f"{player!r} is not a built-in player: anchors are built-ins (builtin:<name>),"
            " the same program on every ladder"
        )
    name = player.removeprefix(BUILTIN_PREFIX)
    if name not in bot_names(engine):
        raise ValueError(f"{game} has no built-in {name!r}")
    if name in reference_ratings(game):
        raise ValueError(f"{player} is a reference player of {game}: its rating is fixed already")
    return name


def set_anchor(conn: Connection, game: str, player: str, rating: float) -> None:
    """Pin ``player`` at ``rating`` on ``game``'s ladder (or move its pin); its live Elo is set
    to the pin at once. Raises ValueError for a player that cannot be an anchor."""
    if not (math.isfinite(rating) and -LIMIT < rating < LIMIT):
        raise ValueError(f"a pin is a finite rating between {-LIMIT:g} and {LIMIT:g}")
    name = _builtin(game, player)
    _idle(conn)
    with conn.transaction():
        cur = tuples(conn)
        cur.execute(f"SELECT pg_advisory_xact_lock({GAME_LOCK_KEY})", (game,))
        cur.execute(
            "INSERT INTO ladder_anchors (game, builtin, rating) VALUES (%s, %s, %s)"
            " ON CONFLICT (game, builtin) DO UPDATE SET rating = excluded.rating,"
            " set_at = now()",
            (game, name, rating),
        )
        cur.execute(
            "UPDATE ratings r SET rating = %s, updated_at = now() FROM ladder_players p"
            " WHERE p.id = r.player_id AND p.builtin = %s AND r.game = %s",
            (rating, name, game),
        )


def remove_anchor(conn: Connection, game: str, player: str) -> bool:
    """Unpin ``player`` on ``game``: from its next match it moves like anyone, from the pin.
    Returns False when it was not pinned."""
    _idle(conn)
    with conn.transaction():
        cur = tuples(conn)
        cur.execute(f"SELECT pg_advisory_xact_lock({GAME_LOCK_KEY})", (game,))
        row = cur.execute(
            "DELETE FROM ladder_anchors WHERE game = %s AND builtin = %s RETURNING 1",
            (game, player.removeprefix(BUILTIN_PREFIX)),
        ).fetchone()
    return row is not None


def anchors(conn: Connection, game: str | None = None) -> list[Anchor]:
    """The pinned players, of one game or of all, by game then rating."""
    with conn.transaction():
        rows = (
            tuples(conn)
            .execute(
                "SELECT game, builtin, rating FROM ladder_anchors"
                " WHERE %s::text IS NULL OR game = %s ORDER BY game, rating DESC, builtin",
                (game, game),
            )
            .fetchall()
        )
    return [Anchor(g, BUILTIN_PREFIX + name, float(rating)) for g, name, rating in rows]


def _idle(conn: Connection) -> None:
    if conn.info.transaction_status != TransactionStatus.IDLE:
        raise RuntimeError("anchors commit their own transaction; call on an idle connection")
