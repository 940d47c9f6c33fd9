"""MatchService: create, inspect, watch and replay matches."""

from __future__ import annotations

import asyncio
import hmac
import uuid
from collections.abc import AsyncIterator
from typing import Any

import grpc

import games
from games.interface import EVERYONE, SPECTATOR, Game, State, Viewer, options_as_text
from premiere.outcome import outcome_to_wire
from premiere_wire import match_pb2, match_pb2_grpc
from server.arbiter import MAX_BATCH, Arbiter, BadRequest
from server.codec import move_to_wire, observation_to_wire
from server.config import ArbiterSettings
from server.events import EndEvent, Event, EventHub, FaultEvent, MoveEvent
from server.gateway import bearer_token
from server.limits import LimitExceeded, Slots, peer_host
from server.store import FaultRecord, MoveRecord, Row, Store

LOG_POLL_S = 0.5
"""How often a watcher of a match hosted by another arbiter reads its log again."""

STATUS = {
    "pending": match_pb2.MATCH_STATUS_PENDING,
    "running": match_pb2.MATCH_STATUS_RUNNING,
    "finished": match_pb2.MATCH_STATUS_FINISHED,
    "void": match_pb2.MATCH_STATUS_VOID,
}


def _fault_message(fault: FaultRecord, show_detail: bool) -> match_pb2.Fault:
    """While a match runs, a fault's detail (it may name the card a bot tried to play) is for
    the seat's own bot only; kind, seat and blame are public."""
    return match_pb2.Fault(
        decision_number=fault.ply,
        seat=fault.seat,
        kind=fault.kind,
        blame=fault.blame,
        detail=fault.detail if show_detail else "",
    )


def forced_messages(
    game: Game, before: State, forced: tuple[tuple[int, Any], ...], viewer: Viewer
) -> list[match_pb2.ForcedMove]:
    """Moves the engine applied on its own, told to ``viewer``: in words as it may be told
    them, and the move itself only to everyone (an ended match) or to the seat that made it.
    ``before`` is the state the decision that led to them was made in (`Game.describe`)."""
    told = []
    for seat, move in forced:
        message = match_pb2.ForcedMove(seat=seat, text=game.describe(before, seat, move, viewer))
        if viewer in (EVERYONE, seat):
            message.move.CopyFrom(move_to_wire(game, move))
        told.append(message)
    return told


def seat_pairs(request: match_pb2.CreateMatchRequest) -> list[tuple[str, str]]:
    """The request's seats as ("bot" | "builtin", name) pairs; BadRequest for an empty one."""
    seats: list[tuple[str, str]] = []
    for seat in request.seats:
        kind = seat.WhichOneof("player")
        if kind is None:
            raise BadRequest("every seat needs a player")
        seats.append((kind, getattr(seat, kind)))
    return seats


def canonical_match_id(text: str) -> str:
    """A match id in any spelling ``uuid.UUID`` reads (upper case, no hyphens, braces,
    ``urn:uuid:``) as PostgreSQL reads it: lower case, hyphenated. Text that is no UUID comes
    back as it is (the store finds no match for it). PostgreSQL's uuid refuses several of those
    spellings, so passed on as they came they failed the query (INTERNAL)."""
    try:
        return str(uuid.UUID(text))
    except ValueError:
        return text


def operator_allowed(operator_token: str | None, given: str | None) -> bool:
    """Fail closed: without a configured (non-empty) operator token nobody qualifies."""
    if not operator_token or not given:
        return False
    return hmac.compare_digest(given.encode(), operator_token.encode())


class MatchService(match_pb2_grpc.MatchServiceServicer):
    def __init__(
        self,
        arbiter: Arbiter,
        store: Store,
        hub: EventHub,
        operator_token: str | None = None,
        settings: ArbiterSettings | None = None,
    ) -> None:
        self.arbiter = arbiter
        self.store = store
        self.hub = hub
        self.operator_token = operator_token
        settings = settings or ArbiterSettings()
        self.watchers = Slots(settings.max_watchers_per_match, "watchers of one match")
        self.peers = Slots(settings.max_watchers_per_peer, "watch streams from one address")

    async def _check_operator(self, context: grpc.aio.ServicerContext[Any, Any]) -> None:
        if not self.operator_token:
            await context.abort(
                grpc.StatusCode.PERMISSION_DENIED,
                "this arbiter creates no matches over the network (no PREMIERE_OPERATOR_TOKEN)",
            )
        if not operator_allowed(self.operator_token, bearer_token(context)):
            await context.abort(
                grpc.StatusCode.UNAUTHENTICATED,
                "creating matches needs 'authorization: Bearer <PREMIERE_OPERATOR_TOKEN>'",
            )

    async def _create(self, request: match_pb2.CreateMatchRequest) -> str:
        """The one path of CreateMatch and CreateMatches; BadRequest says why not."""
        control = request.time_control
        return await self.arbiter.create(
            request.game,
            dict(request.options),
            seat_pairs(request),
            request.seed,
            control.move_time_ms,
            control.time_bank_ms,
            control.strike_limit,
            request.idempotency_key,
            request.rated,
            request.validation,
            request.deal_tables,
            request.unrated_reason or None,
        )

    async def CreateMatch(
        self, request: match_pb2.CreateMatchRequest, context: grpc.aio.ServicerContext[Any, Any]
    ) -> match_pb2.CreateMatchResponse:
        await self._check_operator(context)
        try:
            match_id = await self._create(request)
        except BadRequest as error:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(error))
        return match_pb2.CreateMatchResponse(match_id=match_id)

    async def _result(self, request: match_pb2.CreateMatchRequest) -> match_pb2.CreateMatchResult:
        try:
            return match_pb2.CreateMatchResult(match_id=await self._create(request))
        except BadRequest as error:
            return match_pb2.CreateMatchResult(refused=str(error))

    async def CreateMatches(
        self,
        request: match_pb2.CreateMatchesRequest,
        context: grpc.aio.ServicerContext[Any, Any],
    ) -> match_pb2.CreateMatchesResponse:
        await self._check_operator(context)
        if len(request.matches) > MAX_BATCH:
            await context.abort(
                grpc.StatusCode.INVALID_ARGUMENT,
                f"at most {MAX_BATCH} matches per CreateMatches, not {len(request.matches)}",
            )
        results = await asyncio.gather(*(self._result(one) for one in request.matches))
        return match_pb2.CreateMatchesResponse(results=results)

    async def _revealed(self, row: Row) -> bool:
        """Ended, and (for a table of a shared deal) so has every table of the deal."""
        if row["status"] not in ("finished", "void"):
            return False
        return row["deal_tables"] <= 1 or await self.store.revealed(str(row["id"]))

    async def _row(self, match_id: str, context: grpc.aio.ServicerContext[Any, Any]) -> Row:
        row = await self.store.match(canonical_match_id(match_id))
        if row is None:
            await context.abort(grpc.StatusCode.NOT_FOUND, f"no match {match_id[:64]!r}")
        assert row is not None
        return row

    async def _full_row(self, match_id: str, context: grpc.aio.ServicerContext[Any, Any]) -> Row:
        """The match row with its seats, faults, decision count and whether it is revealed
        (`Store.match_record`), for `_record`."""
        row = await self.store.match_record(canonical_match_id(match_id))
        if row is None:
            await context.abort(grpc.StatusCode.NOT_FOUND, f"no match {match_id[:64]!r}")
        assert row is not None
        return row

    async def GetMatch(
        self, request: match_pb2.GetMatchRequest, context: grpc.aio.ServicerContext[Any, Any]
    ) -> match_pb2.GetMatchResponse:
        row = await self._full_row(request.match_id, context)
        viewer = await self._viewer(context)
        return match_pb2.GetMatchResponse(match=self._record(row, viewer))

    async def _viewer(self, context: grpc.aio.ServicerContext[Any, Any]) -> int | None:
        """The bot whose token came with the call, if any: it may see its own seats' faults
        (those of every version of it: the token is the family's)."""
        token = bearer_token(context)
        bot = await self.store.bot_by_token(token) if token else None
        return int(bot["id"]) if bot is not None else None

    async def _own_seats(self, match_id: str, viewer: int | None) -> set[int]:
        if viewer is None:
            return set()
        return {s["seat"] for s in await self.store.seats(match_id) if s["family_id"] == viewer}

    @staticmethod
    def _record(row: Row, viewer: int | None = None) -> match_pb2.Match:
        """The public record of a match read by `_full_row`: a fault's detail only to its
        seat's bot until the match (and every match dealt from its seed) has ended
        (``revealed``, the database's `match_revealed`)."""
        seats = row["seat_rows"]
        ended = bool(row["revealed"])
        own = {s["seat"] for s in seats if viewer is not None and s["family_id"] == viewer}
        record = match_pb2.Match(
            match_id=str(row["id"]),
            game=row["game"],
            options=options_as_text(row["options"]),
            status=STATUS[row["status"]],
            decisions=int(row["decisions"]),
            void_reason=row["void_reason"] or "",
            time_control=match_pb2.TimeControl(
                move_time_ms=row["move_time_ms"],
                time_bank_ms=row["time_bank_ms"],
                strike_limit=row["strike_limit"],
            ),
            rated=row["rated"],
        )
        strikes = [0] * row["players"]
        for fault in (FaultRecord(**fields) for fields in row["fault_rows"]):
            record.faults.append(_fault_message(fault, ended or fault.seat in own))
            if fault.blame == "bot" and fault.seat >= 0:
                strikes[fault.seat] += 1
        for seat in seats:
            player = seat["bot_name"] or f"builtin:{seat['builtin']}"
            record.seats.add(
                player=player, strikes=strikes[seat["seat"]], forfeited=seat["forfeited"]
            )
        if row["outcome"] is not None:
            record.outcome.CopyFrom(outcome_to_wire(row["outcome"]))
        return record

    async def WatchMatch(
        self, request: match_pb2.WatchMatchRequest, context: grpc.aio.ServicerContext[Any, Any]
    ) -> AsyncIterator[match_pb2.WatchMatchResponse]:
        row = await self._row(request.match_id, context)
        if row["deal_tables"] > 1 and not await self.store.revealed(str(row["id"])):
            await context.abort(
                grpc.StatusCode.PERMISSION_DENIED,
                "this match shares its deal with other tables (a duplicate group): it can be"
                " watched once every one of them has ended",
            )
        try:
            with (
                self.peers.take(peer_host(context.peer())),
                self.watchers.take(str(row["id"])),
            ):
                async for message in self._watch(row, request, context):
                    yield message
        except LimitExceeded as error:
            await context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, str(error))

    async def _watch(
        self,
        row: Row,
        request: match_pb2.WatchMatchRequest,
        context: grpc.aio.ServicerContext[Any, Any],
    ) -> AsyncIterator[match_pb2.WatchMatchResponse]:
        viewer = await self._viewer(context)
        own = await self._own_seats(str(row["id"]), viewer)
        over = await self._revealed(row)
        game, replica = self._replayer(row)
        move_ms = int(row["move_time_ms"])
        banks = [int(row["time_bank_ms"])] * int(row["players"])
        sequence = 0
        async for event in self._events(row, game):
            if isinstance(event, MoveEvent):
                before = replica.clone()
                replica.apply(event.seat, event.move)
                forced = game.checked_forced(replica, event.forced)
                overtime = max(0, event.elapsed_ms - move_ms)
                banks[event.seat] = max(0, banks[event.seat] - overtime)
                message = match_pb2.WatchMatchResponse(
                    move=match_pb2.MoveApplied(
                        decision_number=event.ply,
                        seat=event.seat,
                        view=observation_to_wire(game, replica.spectate()),
                        defaulted=event.defaulted,
                        text=game.describe(before, event.seat, event.move, SPECTATOR),
                        forced=forced_messages(game, before, forced, SPECTATOR),
                        to_move=sorted(replica.to_move()),
                        clocks=[match_pb2.SeatClock(move_ms=move_ms, bank_ms=b) for b in banks],
                        scores=replica.current_scores(),
                        group=game.group(before),
                        elapsed_ms=max(0, event.elapsed_ms),
                    )
                )
            elif isinstance(event, FaultEvent):
                fault = _fault_message(event.fault, over or event.fault.seat in own)
                message = match_pb2.WatchMatchResponse(fault=fault)
            else:
                ended = await self._full_row(request.match_id, context)
                message = match_pb2.WatchMatchResponse(ended=self._record(ended, viewer))
            message.sequence = sequence
            sequence += 1
            yield message

    async def _events(self, row: Row, game: Game) -> AsyncIterator[Event]:
        """The log so far from the database, then the live tail until the match ends.

        Moves are durable before they are published, so plies already read from the log are
        skipped in the tail. While this arbiter hosts the match the tail is its event hub;
        while another arbiter does (or none, between a failover and the takeover), the log is
        read again every `LOG_POLL_S` until the match ends.
        """
        match_id = str(row["id"])
        emitted = 0
        async for event in self._logged(match_id, game, 0):
            emitted = event.ply + 1 if isinstance(event, MoveEvent) else emitted
            yield event
        while True:
            if self.hub.is_live(match_id):
                async for event in self.hub.follow(match_id):
                    if isinstance(event, EndEvent):
                        yield event
                        return
                    if event.ply >= emitted:
                        emitted = event.ply + 1 if isinstance(event, MoveEvent) else emitted
                        yield event
            latest = await self.store.match(match_id)
            async for event in self._logged(match_id, game, emitted):
                emitted = event.ply + 1 if isinstance(event, MoveEvent) else emitted
                yield event
            if latest is None or latest["status"] in ("finished", "void"):
                yield EndEvent(latest["status"] if latest else "void")
                return
            await asyncio.sleep(LOG_POLL_S)

    async def _logged(self, match_id: str, game: Game, start: int) -> AsyncIterator[Event]:
        moves = await self.store.moves(match_id)
        faults = await self.store.faults(match_id)
        for record in moves[start:]:
            for fault in faults:
                if fault.ply == record.ply:
                    yield FaultEvent(fault)
            move = game.decode_move(record.move, record.seat)
            yield MoveEvent(
                record.ply, record.seat, move, record.defaulted, record.elapsed_ms, record.forced
            )

    @staticmethod
    def _replayer(row: Row) -> tuple[Game, State]:
        game = games.get(row["game"])
        return game, game.new(row["players"], row["seed"], row["options"])

    async def GetReplay(
        self, request: match_pb2.GetReplayRequest, context: grpc.aio.ServicerContext[Any, Any]
    ) -> match_pb2.GetReplayResponse:
        row = await self._row(request.match_id, context)
        ended = await self._revealed(row)
        moves = await self.store.moves(str(row["id"]))
        reply = match_pb2.GetReplayResponse(
            game=row["game"],
            options=options_as_text(row["options"]),
            players=row["players"],
            rated=row["rated"],
        )
        if row["outcome"] is not None:
            reply.outcome.CopyFrom(outcome_to_wire(row["outcome"]))
        if not request.HasField("seat"):
            if not ended:
                await context.abort(
                    grpc.StatusCode.FAILED_PRECONDITION,
                    "the full replay (seed and every move) is available once the match ends"
                    " (for a duplicate table, once every table of its deal has ended)",
                )
            reply.seed = row["seed"]
        else:
            await self._check_seat_access(row, request.seat, ended, context)
        self._steps(row, request.seat if request.HasField("seat") else None, moves, reply)
        return reply

    async def _check_seat_access(
        self, row: Row, seat: int, ended: bool, context: grpc.aio.ServicerContext[Any, Any]
    ) -> None:
        if not 0 <= seat < row["players"]:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"no seat {seat}")
        if ended:
            return
        token = bearer_token(context)
        bot = await self.store.bot_by_token(token) if token else None
        seats = await self.store.seats(str(row["id"]))
        if bot is None or seats[seat]["bot_id"] != bot["id"]:
            await context.abort(
                grpc.StatusCode.PERMISSION_DENIED,
                "while a match runs, a seat's view is only for the bot in that seat",
            )

    def _steps(
        self,
        row: Row,
        seat: int | None,
        moves: list[MoveRecord],
        reply: match_pb2.GetReplayResponse,
    ) -> None:
        """Every decision with the forced moves after it (``seat`` None: the full view), or
        that seat's decisions with what it saw, each told as that seat may be told it."""
        game, state = self._replayer(row)
        viewer: Viewer = EVERYONE if seat is None else seat
        start = game.checked_forced(state, row["forced_at_start"])
        reply.forced_at_start.extend(forced_messages(game, state, start, viewer))
        for record in moves:
            move = game.decode_move(record.move, record.seat)
            shown = seat is None or record.seat == seat
            before = state.clone() if shown else state
            state.apply(record.seat, move)
            forced = game.checked_forced(state, record.forced)
            if not shown:
                continue
            step = reply.steps.add(
                seat=record.seat,
                move=move_to_wire(game, move),
                text=game.describe(before, record.seat, move, viewer),
                group=game.group(before),
                forced=forced_messages(game, before, forced, viewer),
            )
            if seat is not None:
                step.observation.CopyFrom(observation_to_wire(game, before.observe(seat)))
