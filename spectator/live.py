"""Live matches on the ladder's HTTP side: server-sent events fed by the arbiter's WatchMatch.

One WatchMatch stream per watched match, shared by every browser watching it (the arbiter
counts the ladder as one peer, ``PREMIERE_MAX_WATCHERS_PER_PEER``); the stream ends when nobody
watches any more. Each browser gets the whole match so far, then every decision as it happens.

What is sent is what WatchMatch shows anybody: after each decision the engine's spectator
view, the deciding seat and whether the move was defaulted; faults by kind, seat and blame;
the final record. Never the move itself or a seat's view.

The delayed omniscient view (every seat's view, ``omniscient_delay_moves`` decisions behind
the live one) is off by default. Even when an operator turns it on, it is offered only for a
match whose every seat is a built-in bot: a seat held by a network bot could read a hand
shown a few moves late while that hand is still being played (most hands last the whole
match), and no delay counted in moves rules that out.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import uuid
import zlib
from collections.abc import AsyncGenerator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import grpc
from aiohttp import hdrs, web
from google.protobuf.json_format import MessageToDict
from psycopg_pool import ConnectionPool

import games
from games.interface import Game
from games.values import JSON, to_plain
from ladder.queries import NotFound
from ladder.store import BUILTIN_PREFIX
from premiere.config import Settings
from premiere_wire import match_pb2, match_pb2_grpc
from premiere_wire.convert import build
from spectator import results
from spectator.replays import Replica, logged_moves, open_replica

log = logging.getLogger("premiere.spectator.live")

KEEPALIVE_S = 15.0

_T = TypeVar("_T")


class Busy(Exception):
    """Too many matches watched at once."""


class TooManyFromOneAddress(Busy):
    """One address already holds its share of the live viewers."""


def arbiter_channel(settings: Settings) -> grpc.aio.Channel:
    """The ladder's channel to the arbiter (PREMIERE_ARBITER_TARGET, TLS as the workers')."""
    if not settings.arbiter_tls:
        return grpc.aio.insecure_channel(settings.arbiter_target)
    roots = Path(settings.tls_ca).read_bytes() if settings.tls_ca else None
    options = (
        [("grpc.ssl_target_name_override", settings.arbiter_tls_name)]
        if settings.arbiter_tls_name
        else []
    )
    credentials = grpc.ssl_channel_credentials(root_certificates=roots)
    return grpc.aio.secure_channel(settings.arbiter_target, credentials, options=options)


_VIEW_TYPES: dict[str, type[Any]] = {}


def spectator_view(game: Game, envelope: Any) -> JSON:
    """A WatchMatch view as the same plain value the replays use (``to_plain`` of the
    engine's own observation type)."""
    cls = _VIEW_TYPES.get(game.id)
    if cls is None:
        players = min(game.player_counts)
        cls = _VIEW_TYPES[game.id] = type(game.new(players, "0" * 64).spectate())
    oneof = game.id.replace("-", "_")  # the game's field in the Observation oneof
    return to_plain(build(cls, getattr(envelope, oneof)))


@dataclass
class Feed:
    """One match's events so far, shared by its watchers."""

    match_id: str
    events: list[dict[str, Any]] = field(default_factory=list)
    done: bool = False
    watchers: int = 0
    changed: asyncio.Condition = field(default_factory=asyncio.Condition)
    task: asyncio.Task[None] | None = None
    caught_up: bool = False
    """Every decision made before the feed opened has arrived: a viewer waits for that, and
    gets the history as one backlog."""

    async def add(self, event: dict[str, Any]) -> None:
        self.events.append(event)
        async with self.changed:
            self.changed.notify_all()

    async def finish(self) -> None:
        self.done = True
        async with self.changed:
            self.changed.notify_all()


def _moved(feed: Feed, sent: int) -> Callable[[], bool]:
    return lambda: (len(feed.events) > sent and feed.caught_up) or feed.done


def _status(status: match_pb2.MatchStatus.ValueType) -> str:
    return match_pb2.MatchStatus.Name(status).removeprefix("MATCH_STATUS_").lower()


class LiveHub:
    def __init__(
        self,
        pool: ConnectionPool[Any],
        stub: Callable[[], match_pb2_grpc.MatchServiceStub],
        max_matches: int,
        max_viewers: int,
        omniscient_delay: int,
        max_viewers_per_address: int | None = None,
        max_matches_per_address: int | None = None,
    ) -> None:
        self.pool = pool
        self.stub = stub
        self.max_matches = max_matches
        self.max_viewers = max_viewers
        self.max_per_address = max_viewers_per_address or max_viewers
        self.max_matches_per_address = max_matches_per_address or max(1, max_matches // 2)
        """Distinct matches one address may follow at once: its share of ``max_matches``, so
        that one address cannot take every live feed."""
        self.matches_by_address: dict[str, dict[str, int]] = {}
        self.omniscient_delay = omniscient_delay
        self.feeds: dict[str, Feed] = {}
        self.viewers = 0
        self.by_address: dict[str, int] = {}

    def omniscient_for(self, builtin_only: bool) -> int:
        """Moves of delay of the omniscient view for a match, 0 when none is offered."""
        return self.omniscient_delay if builtin_only else 0

    async def follow(
        self,
        match_id: str,
        game: Game,
        delay: int = 0,
        address: str = "",
        names: tuple[str, ...] = (),
    ) -> AsyncGenerator[dict[str, Any], None]:
        """The match's events so far, then as they come; with ``delay``, after each move also
        every seat's view ``delay`` moves back ("omniscient" events), worked out once per
        match for all its watchers. ``address`` (the client's) may hold at most
        ``max_viewers_per_address`` of the viewers. Several events waiting at once (a new
        viewer's history, a viewer that fell behind) come as one "backlog" event (`backlog`)."""
        if self.by_address.get(address, 0) >= self.max_per_address:
            raise TooManyFromOneAddress(
                f"this address already follows {self.max_per_address} live matches at once"
            )
        if self.viewers >= self.max_viewers:
            raise Busy(f"the ladder already has {self.max_viewers} live viewers")
        followed = self.matches_by_address.get(address, {})
        if match_id not in followed and len(followed) >= self.max_matches_per_address:
            raise TooManyFromOneAddress(
                f"this address already follows {self.max_matches_per_address} different live"
                " matches at once"
            )
        feed = self.feeds.get(match_id)
        if feed is None:
            if len(self.feeds) >= self.max_matches:
                raise Busy(f"the ladder already shows {self.max_matches} live matches")
            feed = self.feeds[match_id] = Feed(match_id)
            feed.task = asyncio.create_task(self._pump(feed, game, delay, names))
        feed.watchers += 1
        self.viewers += 1
        self.by_address[address] = self.by_address.get(address, 0) + 1
        followed = self.matches_by_address.setdefault(address, {})
        followed[match_id] = followed.get(match_id, 0) + 1
        sent = 0
        try:
            while True:
                while sent < len(feed.events) and (feed.caught_up or feed.done):
                    run = _collapsible(feed.events, sent)
                    if run > 1:
                        yield backlog(feed.events[sent : sent + run])
                        sent += run
                    else:
                        yield feed.events[sent]
                        sent += 1
                if feed.done:
                    return
                try:
                    async with asyncio.timeout(KEEPALIVE_S), feed.changed:
                        await feed.changed.wait_for(_moved(feed, sent))
                except TimeoutError:
                    yield {"type": "keepalive"}
        finally:
            feed.watchers -= 1
            self.viewers -= 1
            left = self.by_address.pop(address, 1) - 1
            if left:
                self.by_address[address] = left
            mine = self.matches_by_address.get(address, {})
            mine[match_id] = mine.get(match_id, 1) - 1
            if mine[match_id] <= 0:
                del mine[match_id]
            if not mine:
                self.matches_by_address.pop(address, None)
            if feed.watchers == 0 and self.feeds.get(match_id) is feed:
                del self.feeds[match_id]
                if feed.task is not None and not feed.task.done():
                    feed.task.cancel()

    async def _pump(self, feed: Feed, game: Game, delay: int, names: tuple[str, ...]) -> None:
        replica: Replica | None = None
        try:
            request = match_pb2.GetMatchRequest(match_id=feed.match_id)
            found = await self.stub().GetMatch(request)  # type: ignore[misc]
            history = found.match.decisions
            feed.caught_up = history == 0
            call = self.stub().WatchMatch(match_pb2.WatchMatchRequest(match_id=feed.match_id))
            async for message in call:  # type: ignore[attr-defined]
                event = self._event(game, message, names)
                if event["type"] == "end" or (
                    event["type"] == "move" and event["ply"] + 1 >= history
                ):
                    feed.caught_up = True
                await feed.add(event)
                if delay and event["type"] == "move" and event["ply"] >= delay:
                    if replica is None:
                        replica = await self._sql(open_replica, feed.match_id)
                    await feed.add(await self._omniscient(feed.match_id, replica, event, delay))
        except asyncio.CancelledError:
            raise
        except grpc.aio.AioRpcError as error:
            await feed.add({"type": "problem", "error": error.details() or error.code().name})
        except Exception:
            log.exception("watching match %s failed", feed.match_id)
            await feed.add({"type": "problem", "error": "the live feed failed"})
        finally:
            await feed.finish()
            if self.feeds.get(feed.match_id) is feed and feed.watchers == 0:
                del self.feeds[feed.match_id]

    async def _sql(self, query: Callable[..., _T], *args: Any) -> _T:
        def work() -> _T:
            with self.pool.connection() as conn:
                return query(conn, *args)

        return await asyncio.to_thread(work)

    async def _omniscient(
        self, match_id: str, replica: Replica, event: dict[str, Any], delay: int
    ) -> dict[str, Any]:
        upto = event["ply"] - delay
        moves = await self._sql(logged_moves, match_id, replica.applied, upto)
        await asyncio.to_thread(replica.advance, moves)
        spectator, seats = await asyncio.to_thread(replica.views)
        return {"type": "omniscient", "ply": upto, "spectator": spectator, "seats": seats}

    @staticmethod
    def _event(
        game: Game, message: match_pb2.WatchMatchResponse, names: tuple[str, ...] = ()
    ) -> dict[str, Any]:
        kind = message.WhichOneof("event")
        if kind == "move":
            move = message.move
            return {
                "type": "move",
                "ply": move.decision_number,
                "seat": move.seat,
                "defaulted": move.defaulted,
                "spectator": spectator_view(game, move.view),
                "text": _told(names, move.seat, move.text),
                "forced": [
                    {"seat": f.seat, "text": _told(names, f.seat, f.text)} for f in move.forced
                ],
                "to_move": list(move.to_move),
                "clocks": [{"move_ms": c.move_ms, "bank_ms": c.bank_ms} for c in move.clocks],
                "scores": list(move.scores),
                "group": move.group,
                "elapsed_ms": move.elapsed_ms,
            }
        if kind == "fault":
            fault = message.fault
            return {
                "type": "fault",
                "ply": fault.decision_number,
                "seat": fault.seat,
                "kind": fault.kind,
                "blame": fault.blame,
            }
        ended = message.ended
        outcome = (
            MessageToDict(
                ended.outcome,
                preserving_proto_field_name=True,
                always_print_fields_with_no_presence=True,
            )
            if ended.HasField("outcome")
            else None
        )
        return {
            "type": "end",
            "status": _status(ended.status),
            "outcome": outcome,
            "result": results.result(outcome, names),
        }


def _told(names: tuple[str, ...], seat: int, text: str) -> str:
    name = names[seat] if 0 <= seat < len(names) else f"seat {seat}"
    return f"{name} {text}"


BACKLOGGED = ("move", "fault", "omniscient")


def _collapsible(events: list[dict[str, Any]], start: int) -> int:
    """How many events from ``start`` on may go out as one backlog (moves, faults and
    omniscient views; the end and a problem go on their own)."""
    count = 0
    for event in events[start:]:
        if event["type"] not in BACKLOGGED:
            break
        count += 1
    return count


def backlog(events: list[dict[str, Any]]) -> dict[str, Any]:
    """Several events as one: every move in words (not a view per move), the faults, and the
    table after the last move (its view, scores, seats to move, clocks), the latest
    omniscient view."""
    moves = [e for e in events if e["type"] == "move"]
    last = moves[-1] if moves else None
    omniscient = [e for e in events if e["type"] == "omniscient"]
    return {
        "type": "backlog",
        "moves": [
            {
                key: move.get(key)
                for key in ("ply", "seat", "defaulted", "text", "forced", "group", "scores")
            }
            for move in moves
        ],
        "faults": [e for e in events if e["type"] == "fault"],
        "ply": last["ply"] if last else None,
        "spectator": last["spectator"] if last else None,
        "to_move": last.get("to_move", []) if last else [],
        "clocks": last.get("clocks", []) if last else [],
        "scores": last.get("scores", []) if last else [],
        "omniscient": omniscient[-1] if omniscient else None,
    }


@dataclass(frozen=True)
class Watched:
    match_id: str  # canonical
    game: str
    status: str
    players: list[str]
    builtin_only: bool


def _match(conn: Any, match_id: str) -> Watched:
    try:
        key = uuid.UUID(match_id)
    except ValueError:
        raise NotFound(f"no match {match_id[:64]!r}") from None
    row = conn.execute("SELECT game, status FROM matches WHERE id = %s", (key,)).fetchone()
    if row is None:
        raise NotFound(f"no match {match_id[:64]!r}")
    seats = conn.execute(
        "SELECT coalesce(b.name, %s || s.builtin), s.builtin IS NOT NULL FROM match_seats s"
        " LEFT JOIN bots b ON b.id = s.bot_id WHERE s.match_id = %s ORDER BY s.seat",
        (BUILTIN_PREFIX, key),
    ).fetchall()
    return Watched(str(key), row[0], row[1], [name for name, _ in seats], all(b for _, b in seats))


def add_routes(app: web.Application, hub: LiveHub) -> None:
    def sql(query: Callable[..., Any], *args: Any) -> Any:
        def work() -> Any:
            with hub.pool.connection() as conn:
                return query(conn, *args)

        return asyncio.to_thread(work)

    async def events(request: web.Request) -> web.StreamResponse:
        watched: Watched = await sql(_match, request.match_info["match_id"])
        match_id = watched.match_id
        if watched.game not in games.ids():
            raise NotFound(f"match {match_id} is of a game this ladder does not know")
        game = games.get(watched.game)
        delay = hub.omniscient_for(watched.builtin_only)
        gzipped = "gzip" in request.headers.get(hdrs.ACCEPT_ENCODING, "").lower()
        headers = {
            "Content-Type": "text/event-stream",
            "Cache-Control": "no-cache",
            "X-Content-Type-Options": "nosniff",
            "X-Accel-Buffering": "no",  # a proxy in front must pass each event at once
            "Vary": "Accept-Encoding",
        }
        if gzipped:
            headers["Content-Encoding"] = "gzip"
        response = web.StreamResponse(headers=headers)
        # Each event is flushed on its own (a sync flush), so it reaches the browser at once.
        packer = zlib.compressobj(6, zlib.DEFLATED, 16 + zlib.MAX_WBITS) if gzipped else None

        async def write(data: bytes) -> None:
            if packer is not None:
                data = packer.compress(data) + packer.flush(zlib.Z_SYNC_FLUSH)
            await response.write(data)

        try:
            stream = hub.follow(match_id, game, delay, request.remote or "", tuple(watched.players))
            first = await anext(stream, None)
        except TooManyFromOneAddress as error:
            return web.json_response({"error": str(error)}, status=429)
        except Busy as error:
            return web.json_response({"error": str(error)}, status=503)
        try:
            await response.prepare(request)

            async def send(name: str, data: Any) -> None:
                await write(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode())

            await send(
                "match",
                {
                    "match_id": match_id,
                    "game": watched.game,
                    "title": game.title,
                    "status": watched.status,
                    "players": watched.players,
                    "omniscient_delay": delay,
                    "labels": {kind: dict(names) for kind, names in game.labels().items()},
                },
            )
            event = first
            while event is not None:
                if event["type"] != "keepalive":
                    await send(event["type"], event)
                event = await anext(stream, None)
                while event is not None and event["type"] == "keepalive":
                    await write(b": keep-alive\n\n")
                    event = await anext(stream, None)
        finally:
            await stream.aclose()
        with contextlib.suppress(ConnectionResetError):
            if packer is not None:
                await response.write(packer.flush())
            await response.write_eof()
        return response

    # No HEAD: it would open a stream whose body nobody reads.
    app.router.add_get("/api/live/{match_id:[^/]+}/events", events, allow_head=False)
