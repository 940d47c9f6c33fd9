"""Moves of the standings' scale, recorded for every visitor.

Without pinned anchors the official standings hold the established bots' average at 1500, so
the whole scale moves when a bot becomes established (or stops counting): on a young ladder one
such step shifts every standing by hundreds of points within minutes, while no bot played
better or worse. The ladder records each move (``record``, on every kept fit) and the
leaderboard carries the moves of the last ``window`` (``recent``), so a page can say that the
scale moved, by how much and why, to a first-time visitor as to one who saw the board before.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg.rows import tuple_row

from ladder.standings import (
    DEFAULT_PARAMS,
    Standings,
    StandingsParams,
    default_anchor,
    established,
    scale_shift,
)
from ladder.store import BUILTIN_PREFIX

__all__ = ["NOTICEABLE", "ScaleMove", "recent", "record"]

Connection = psycopg.Connection[Any]

NOTICEABLE = 10.0
"""A move smaller than this many points is within what a fold moves standings anyway: kept as
the new scale, not recorded as a move."""


@dataclass(frozen=True, slots=True)
class ScaleMove:
    """Every official standing moved by ``shift`` points at ``at``: these bots became
    established (``joined``), these stopped being so (``departed``); with neither, no bot is
    established yet and the scale is the average of every bot, which a newcomer moved."""

    at: datetime.datetime
    shift: float
    joined: tuple[str, ...]
    departed: tuple[str, ...]


def record(
    conn: Connection,
    game: str,
    standings: Standings[int],
    params: StandingsParams = DEFAULT_PARAMS,
) -> ScaleMove | None:
    """Compare the default anchor of a new fit (``default_anchor``) with the game's recorded
    one; when they differ, store the new one and, if the standings moved by at least
    ``NOTICEABLE``, the move, naming the bots that became established or stopped being so.
    Several ladder processes may call it: the row lock records each change once."""
    anchor = default_anchor(standings)
    now = established(standings)
    if standings.posterior is None or not anchor:
        return None
    with conn.transaction():
        cur = conn.cursor(row_factory=tuple_row)
        row = cur.execute(
            "SELECT anchor, established FROM ladder_scales WHERE game = %s FOR UPDATE", (game,)
        ).fetchone()
        if row is None:
            cur.execute(
                "INSERT INTO ladder_scales (game, anchor, established) VALUES (%s, %s, %s)"
                " ON CONFLICT (game) DO NOTHING",
                (game, sorted(anchor), sorted(now)),
            )
            return None
        before, was = frozenset(row[0]), frozenset(row[1])
        if before == anchor:
            return None
        cur.execute(
            "UPDATE ladder_scales SET anchor = %s, established = %s WHERE game = %s",
            (sorted(anchor), sorted(now), game),
        )
        shift = scale_shift(standings, before, params)
        if abs(shift) < NOTICEABLE:
            return None
        names: dict[int, str] = dict(
            cur.execute(
                "SELECT p.id, coalesce(b.name, %s || p.builtin) FROM ladder_players p"
                " LEFT JOIN bots b ON b.id = p.bot_id WHERE p.id = ANY(%s)",
                (BUILTIN_PREFIX, sorted(now ^ was)),
            ).fetchall()
        )
        joined = tuple(sorted(names.get(bot, str(bot)) for bot in now - was))
        departed = tuple(sorted(names.get(bot, str(bot)) for bot in was - now))
        at = cur.execute(
            "INSERT INTO ladder_scale_moves (game, shift, joined, departed)"
            " VALUES (%s, %s, %s, %s) RETURNING at",
            (game, shift, list(joined), list(departed)),
        ).fetchone()
    assert at is not None
    return ScaleMove(at[0], shift, joined, departed)


def recent(
    conn: Connection, game: str, window: datetime.timedelta = datetime.timedelta(days=1)
) -> tuple[ScaleMove, ...]:
    """The game's scale moves of the last ``window``, oldest first."""
    rows = (
        conn.cursor(row_factory=tuple_row)
        .execute(
            "SELECT at, shift, joined, departed FROM ladder_scale_moves"
            " WHERE game = %s AND at > now() - %s ORDER BY at, id",
            (game, window),
        )
        .fetchall()
    )
    return tuple(ScaleMove(at, shift, tuple(j), tuple(d)) for at, shift, j, d in rows)
