"""Visual replays: the views the engine itself shows, ply by ply, rebuilt from seed and moves.

The page draws views; it never replays rules. A match is re-executed from its seed and its
logged moves (determinism makes that exact), and after every move the engine's spectator view
is taken, plus every seat's own view once the match has ended. What a frame holds follows the
public-view rules of ``docs/security.md``:

- a running match: the spectator view after each decision, with the deciding seat and whether
  the move was defaulted, exactly what ``MatchService.WatchMatch`` shows; never the move itself
  (it may name a card passed face down), never a seat's view, never the seed;
- an ended match (finished or void): every move and, per ply, the spectator view and every
  seat's view, as ``MatchService.GetReplay`` shows them once a match has ended.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

import psycopg

import games
from games.interface import Game
from games.values import JSON, to_plain
from ladder.queries import BUILTIN_PREFIX, NotFound
from ladder.store import tuples

Connection = psycopg.Connection[Any]

ENDED = ("finished", "void")
MAX_FRAMES = 5000
"""A replay re-executes at most this many plies (every engine's bound is far below it); a
longer log (a hand-edited database) is cut there, and the replay says so."""


@dataclass(frozen=True, slots=True)
class Frame:
    """The table after ``ply`` (None: before the first decision)."""

    ply: int | None
    seat: int | None
    move: JSON
    defaulted: bool
    spectator: JSON
    seats: tuple[JSON, ...] | None


@dataclass(frozen=True, slots=True)
class ReplayViews:
    match_id: str
    game: str
    title: str
    status: str
    rated: bool
    players: tuple[str, ...]
    options: dict[str, Any]
    outcome: dict[str, Any] | None
    seat_views: bool
    truncated: bool
    frames: tuple[Frame, ...]


def _parse(match_id: str) -> uuid.UUID:
    try:
        return uuid.UUID(match_id)
    except ValueError:
        raise NotFound(f"no match {match_id[:64]!r}") from None


def replay_views(conn: Connection, match_id: str, limit: int = MAX_FRAMES) -> ReplayViews:
    """Every frame of a match, as much as its status allows anybody to see (module doc)."""
    key = _parse(match_id)
    with conn.transaction():
        cur = tuples(conn)
        row = cur.execute(
            "SELECT game, status, options, seed, outcome, players, rated FROM matches"
            " WHERE id = %s",
            (key,),
        ).fetchone()
        if row is None or row[1] == "pending":
            raise NotFound(f"no started match {match_id[:64]!r}")
        names = cur.execute(
            "SELECT coalesce(b.name, %s || s.builtin) FROM match_seats s"
            " LEFT JOIN bots b ON b.id = s.bot_id WHERE s.match_id = %s ORDER BY s.seat",
            (BUILTIN_PREFIX, key),
        ).fetchall()
        moves = cur.execute(
            "SELECT ply, seat, move, defaulted FROM match_moves WHERE match_id = %s"
            " ORDER BY ply LIMIT %s",
            (key, limit + 1),
        ).fetchall()
    game_id, status, options, seed, outcome, players, rated = row
    if game_id not in games.ids():
        raise NotFound(f"match {match_id[:64]!r} is of a game this ladder does not know")
    game = games.get(game_id)
    ended = status in ENDED
    truncated = len(moves) > limit
    frames = list(_frames(game, players, seed, options, moves[:limit], ended))
    return ReplayViews(
        match_id=str(key),
        game=game_id,
        title=game.title,
        status=status,
        rated=bool(rated),
        players=tuple(name for (name,) in names),
        options=dict(options),
        outcome=outcome if ended else None,
        seat_views=ended,
        truncated=truncated,
        frames=tuple(frames),
    )


def _frames(
    game: Game,
    players: int,
    seed: str,
    options: dict[str, Any],
    moves: list[tuple[Any, ...]],
    ended: bool,
) -> list[Frame]:
    state = game.new(players, seed, options)

    def seat_views() -> tuple[JSON, ...] | None:
        return tuple(to_plain(state.observe(s)) for s in range(players)) if ended else None

    frames = [Frame(None, None, None, False, to_plain(state.spectate()), seat_views())]
    for ply, seat, move, defaulted in moves:
        decoded = game.decode_move(move, seat)
        state.apply(seat, decoded)
        frames.append(
            Frame(
                ply=ply,
                seat=seat,
                move=game.encode_move(decoded) if ended else None,
                defaulted=bool(defaulted),
                spectator=to_plain(state.spectate()),
                seats=seat_views(),
            )
        )
    return frames


def seat_views_at(conn: Connection, match_id: str, ply: int) -> tuple[JSON, ...] | None:
    """Every seat's view right after decision ``ply``, whatever the match's status: for the
    live page's delayed omniscient view only (``ladder.live`` says when it may be shown).
    None when the match has not got that far."""
    key = _parse(match_id)
    with conn.transaction():
        cur = tuples(conn)
        row = cur.execute(
            "SELECT game, options, seed, players FROM matches WHERE id = %s", (key,)
        ).fetchone()
        if row is None:
            raise NotFound(f"no match {match_id[:64]!r}")
        moves = cur.execute(
            "SELECT ply, seat, move, defaulted FROM match_moves WHERE match_id = %s AND ply <= %s"
            " ORDER BY ply",
            (key, ply),
        ).fetchall()
    game_id, options, seed, players = row
    if len(moves) != ply + 1:
        return None
    return _frames(games.get(game_id), players, seed, options, moves, True)[-1].seats
