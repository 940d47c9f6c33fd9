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

The moves the engine applied on its own (a seat's only legal move) are frames of their own,
after the decision that led to them; the move log records them, and re-executing it must apply
exactly those (``Game.checked_forced``), so a log that disagrees with its engine is refused
rather than drawn.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import psycopg

import games
from games.interface import EVERYONE, SPECTATOR, Game, State, Viewer
from games.values import JSON, to_plain
from ladder.queries import NotFound
from ladder.store import BUILTIN_PREFIX, tuples
from spectator import results
from spectator.breakdowns import score_breakdown

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
    text: str = ""
    """The move in words, for the spectator while the match runs, for everyone once ended."""
    forced: bool = False
    """A move the engine applied on its own (the seat's only legal one) after decision
    ``ply``; its views are those after that decision, which already hold it."""
    scores: tuple[int, ...] = ()
    group: str = ""
    note: str | None = None
    """The bot's note on this decision: only in an ended match's replay, never while it runs
    (a note can reveal a hand)."""


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
    labels: dict[str, dict[str, str]]
    result: dict[str, Any] | None
    frames: tuple[Frame, ...]
    breakdown: dict[str, Any] | None = None
    """How the final scores were made (``spectator.breakdowns``), once the match finished."""


def _parse(match_id: str) -> uuid.UUID:
    try:
        return uuid.UUID(match_id)
    except ValueError:
        raise NotFound(f"no match {match_id[:64]!r}") from None


@dataclass(frozen=True, slots=True)
class Logged:
    """A match as the database holds it: what ``build_views`` re-executes."""

    match_id: str
    game: str
    status: str
    options: dict[str, Any]
    seed: str
    outcome: dict[str, Any] | None
    players: int
    rated: bool
    names: tuple[str, ...]
    moves: tuple[tuple[int, int, Any, bool, Any, str | None], ...]
    """(ply, seat, move, defaulted, forced, note): ``forced`` as the log keeps it
    (``Game.encode_forced``), None where it kept none; ``note`` the bot's note on its answer."""
    truncated: bool
    forced_at_start: Any = None
    """The moves applied at set-up, as the log keeps them (None: not kept)."""


def load(conn: Connection, match_id: str, limit: int = MAX_FRAMES) -> Logged:
    """Read a started match and its move log (the connection is not needed afterwards)."""
    key = _parse(match_id)
    with conn.transaction():
        cur = tuples(conn)
        row = cur.execute(
            "SELECT game, status, options, seed, outcome, players, rated,"
            " deal_tables > 1 AND NOT match_revealed(id), forced_at_start"
            " FROM matches WHERE id = %s",
            (key,),
        ).fetchone()
        if row is None or row[1] == "pending":
            raise NotFound(f"no started match {match_id[:64]!r}")
        if row[7]:
            # Even its spectator views, move by move, would show how the shared deal plays
            # out to a bot seated at a sibling table still to come (the arbiter refuses its
            # watch stream for the same reason).
            raise NotFound(
                f"match {match_id[:64]!r} shares its deal with duplicate tables still playing;"
                " its replay is published when they have all ended"
            )
        names = cur.execute(
            "SELECT coalesce(b.name, %s || s.builtin) FROM match_seats s"
            " LEFT JOIN bots b ON b.id = s.bot_id WHERE s.match_id = %s ORDER BY s.seat",
            (BUILTIN_PREFIX, key),
        ).fetchall()
        moves = cur.execute(
            "SELECT ply, seat, move, defaulted, forced, note FROM match_moves WHERE match_id = %s"
            " ORDER BY ply LIMIT %s",
            (key, limit + 1),
        ).fetchall()
    game_id, status, options, seed, outcome, players, rated, _sealed, forced_at_start = row
    if game_id not in games.ids():
        raise NotFound(f"match {match_id[:64]!r} is of a game this ladder does not know")
    return Logged(
        match_id=str(key),
        game=game_id,
        status=status,
        options=dict(options),
        seed=seed,
        outcome=outcome,
        players=players,
        rated=bool(rated),
        names=tuple(name for (name,) in names),
        moves=tuple(tuple(move) for move in moves[:limit]),
        truncated=len(moves) > limit,
        forced_at_start=forced_at_start,
    )


def build_views(logged: Logged) -> ReplayViews:
    """Re-execute a loaded match into its frames (CPU only: run it off the event loop)."""
    game = games.get(logged.game)
    ended = logged.status in ENDED
    finals: list[State] = []
    frames = _frames(
        game,
        logged.players,
        logged.seed,
        logged.options,
        logged.moves,
        ended,
        logged.names,
        logged.forced_at_start,
        finals,
    )
    breakdown = (
        score_breakdown(game, finals[0], logged.names, logged.options)
        if logged.status == "finished" and not logged.truncated
        else None
    )
    return ReplayViews(
        match_id=logged.match_id,
        game=logged.game,
        title=game.title,
        status=logged.status,
        rated=logged.rated,
        players=logged.names,
        options=logged.options,
        outcome=logged.outcome if ended else None,
        seat_views=ended,
        truncated=logged.truncated,
        labels={kind: dict(names) for kind, names in game.labels().items()},
        result=results.result(logged.outcome, logged.names) if ended else None,
        frames=tuple(frames),
        breakdown=breakdown,
    )


def compact(views: ReplayViews) -> dict[str, Any]:
    """The replay as the JSON API sends it: each frame's spectator view holds only the fields
    that changed since the previous frame (the first frame's is whole), and each seat's view
    only the fields where it differs from that frame's spectator view. A long match's views
    repeat most of themselves; this keeps an 8-player Movie Trailer replay small.
    ``expand`` (and the page's ``replay.js``) undo it."""
    frames: list[dict[str, Any]] = []
    previous: dict[str, Any] = {}
    for frame in views.frames:
        spectator = frame.spectator if isinstance(frame.spectator, dict) else {}
        changed = {k: v for k, v in spectator.items() if previous.get(k, _NONE) != v}
        seats = (
            [
                {k: v for k, v in seat.items() if spectator.get(k, _NONE) != v}
                if isinstance(seat, dict)
                else seat
                for seat in frame.seats
            ]
            if frame.seats is not None
            else None
        )
        frames.append(
            {
                "ply": frame.ply,
                "seat": frame.seat,
                "move": frame.move,
                "defaulted": frame.defaulted,
                "spectator": changed,
                "seats": seats,
                "text": frame.text,
                "forced": frame.forced,
                "scores": list(frame.scores),
                "group": frame.group,
                "note": frame.note,
            }
        )
        previous = spectator
    meta = {name: getattr(views, name) for name in ReplayViews.__slots__ if name != "frames"}
    return {**meta, "encoding": "changes", "frames": frames}


def expand(body: dict[str, Any]) -> dict[str, Any]:
    """The whole views back from ``compact``."""
    frames = []
    spectator: dict[str, Any] = {}
    for frame in body["frames"]:
        spectator = {**spectator, **frame["spectator"]}
        seats = frame["seats"]
        frames.append(
            {
                **frame,
                "spectator": spectator,
                "seats": None if seats is None else [{**spectator, **seat} for seat in seats],
            }
        )
    return {**body, "frames": frames}


_NONE = object()


def replay_views(conn: Connection, match_id: str, limit: int = MAX_FRAMES) -> ReplayViews:
    """Every frame of a match, as much as its status allows anybody to see (module doc)."""
    return build_views(load(conn, match_id, limit))


def _frames(
    game: Game,
    players: int,
    seed: str,
    options: dict[str, Any],
    moves: Sequence[tuple[Any, ...]],
    ended: bool,
    names: Sequence[str] = (),
    forced_at_start: Any = None,
    finals: list[State] | None = None,
) -> list[Frame]:
    """The frames of a match; ``finals`` (when given) receives the state it ends in."""
    state = game.new(players, seed, options)
    if finals is not None:
        finals.append(state)
    viewer: Viewer = EVERYONE if ended else SPECTATOR

    def seat_views() -> tuple[JSON, ...] | None:
        return tuple(to_plain(state.observe(s)) for s in range(players)) if ended else None

    def told(before: State, seat: int, move: Any) -> str:
        name = names[seat] if seat < len(names) else f"seat {seat}"
        return f"{name} {game.describe(before, seat, move, viewer)}"

    def forced(ply: int | None, before: State, group: str, last: Frame, logged: Any) -> list[Frame]:
        """The moves the engine applied on its own after ``last`` (held to ``logged``, the
        log's record of them), with its views."""
        return [
            Frame(
                ply=ply,
                seat=seat,
                move=game.encode_move(move) if ended else None,
                defaulted=False,
                spectator=last.spectator,
                seats=last.seats,
                text=told(before, seat, move),
                forced=True,
                scores=last.scores,
                group=group,
            )
            for seat, move in game.checked_forced(state, logged)
        ]

    first = Frame(
        None,
        None,
        None,
        False,
        to_plain(state.spectate()),
        seat_views(),
        "",
        False,
        state.current_scores(),
    )
    frames = [first, *forced(None, state, game.group(state), first, forced_at_start)]
    for ply, seat, move, defaulted, logged, *rest in moves:
        decoded = game.decode_move(move, seat)
        before = state.clone()
        group = game.group(before)
        state.apply(seat, decoded)
        frame = Frame(
            ply=ply,
            seat=seat,
            move=game.encode_move(decoded) if ended else None,
            defaulted=bool(defaulted),
            spectator=to_plain(state.spectate()),
            seats=seat_views(),
            text=told(before, seat, decoded),
            scores=state.current_scores(),
            group=group,
            note=(rest[0] or None) if ended and rest else None,
        )
        frames.append(frame)
        frames.extend(forced(ply, before, group, frame, logged))
    return frames


class Replica:
    """A match re-executed move by move, for the live page's delayed omniscient view (every
    seat's view, whatever the match's status: ``spectator.live`` says when it may be shown)."""

    def __init__(self, game_id: str, players: int, seed: str, options: dict[str, Any]) -> None:
        self.game = games.get(game_id)
        self.players = players
        self.state = self.game.new(players, seed, options)
        self.applied = 0

    def advance(self, moves: Sequence[tuple[int, int, Any]]) -> None:
        for ply, seat, move in moves:
            if ply != self.applied:
                raise ValueError(f"move {ply} where move {self.applied} was expected")
            self.state.apply(seat, self.game.decode_move(move, seat))
            self.applied += 1

    def table(self) -> dict[str, Any]:
        """The table now, as any spectator sees it: the view, every seat's score, who moves."""
        return {
            "spectator": to_plain(self.state.spectate()),
            "scores": list(self.state.current_scores()),
            "to_move": sorted(self.state.to_move()),
        }

    def views(self) -> tuple[JSON, JSON]:
        """(the spectator's view, every seat's view) now."""
        seats: JSON = [to_plain(self.state.observe(s)) for s in range(self.players)]
        return to_plain(self.state.spectate()), seats


def open_replica(conn: Connection, match_id: str) -> Replica:
    row = (
        tuples(conn)
        .execute(
            "SELECT game, players, seed, options FROM matches WHERE id = %s", (_parse(match_id),)
        )
        .fetchone()
    )
    if row is None:
        raise NotFound(f"no match {match_id[:64]!r}")
    game_id, players, seed, options = row
    return Replica(game_id, players, seed, dict(options))


def sealed(conn: Connection, match_id: str) -> bool:
    """Whether the match shares its deal with duplicate tables still playing: nothing of its
    play may be shown yet (``load``)."""
    row = (
        tuples(conn)
        .execute(
            "SELECT deal_tables > 1 AND NOT match_revealed(id) FROM matches WHERE id = %s",
            (_parse(match_id),),
        )
        .fetchone()
    )
    return row is None or bool(row[0])


def waiting(conn: Connection, match_ids: Sequence[str]) -> set[str]:
    """The running matches among ``match_ids`` that wait for a host or its bots, not for a
    move: no arbiter holds them (their lease has lapsed), or the arbiter that took one over has
    written nothing yet (its fencing number is above every move and fault logged, some of which
    an earlier host wrote): it waits for the match's bots to come back."""
    rows = (
        tuples(conn)
        .execute(
            "SELECT l.match_id FROM match_leases l WHERE l.match_id = ANY(%s::uuid[])"
            " AND (l.expires_at < now() OR ("
            "  EXISTS (SELECT 1 FROM match_moves mv WHERE mv.match_id = l.match_id)"
            "  AND l.fence > (SELECT coalesce(max(mv.fence), 0) FROM match_moves mv"
            "   WHERE mv.match_id = l.match_id)"
            "  AND l.fence > (SELECT coalesce(max(f.fence), 0) FROM match_faults f"
            "   WHERE f.match_id = l.match_id)))",
            ([_parse(match_id) for match_id in match_ids],),
        )
        .fetchall()
    )
    return {str(match_id) for (match_id,) in rows}


def tables(
    conn: Connection, matches: Sequence[tuple[str, str, int]], cache: dict[str, Replica]
) -> dict[str, dict[str, Any]]:
    """The table now of each running match (id, game, decisions so far), kept up to date in
    ``cache`` (one `Replica` per match, advanced by the moves since the last call); a sealed
    match, or one of a game this ladder does not know, has none."""
    found: dict[str, dict[str, Any]] = {}
    for match_id, game, decisions in matches:
        if game not in games.ids() or sealed(conn, match_id):
            continue
        replica = cache.get(match_id)
        if replica is None:
            replica = cache[match_id] = open_replica(conn, match_id)
        if decisions > replica.applied:
            replica.advance(logged_moves(conn, match_id, replica.applied, decisions - 1))
        found[match_id] = replica.table()
    for gone in set(cache) - {match_id for match_id, _, _ in matches}:
        del cache[gone]
    return found


def logged_moves(
    conn: Connection, match_id: str, start: int, upto: int
) -> list[tuple[int, int, Any]]:
    """Moves ``start`` to ``upto`` (inclusive) of the move log."""
    rows = (
        tuples(conn)
        .execute(
            "SELECT ply, seat, move FROM match_moves WHERE match_id = %s AND ply >= %s"
            " AND ply <= %s ORDER BY ply",
            (_parse(match_id), start, upto),
        )
        .fetchall()
    )
    return [(ply, seat, move) for ply, seat, move in rows]
