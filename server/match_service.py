"""MatchService: create, inspect, watch and replay matches."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from typing import Any

import grpc
from premiere_bot.wire import match_pb2, match_pb2_grpc

import games
from games.interface import Game, Outcome, State, TieBreak
from server.arbiter import Arbiter, BadRequest
from server.codec import encode_move, encode_observation, encode_outcome
from server.events import EventHub
from server.gateway import bearer_token
from server.store import MoveRecord, Row, Store

STATUS = {
    "pending": match_pb2.MATCH_STATUS_PENDING,
    "running": match_pb2.MATCH_STATUS_RUNNING,
    "finished": match_pb2.MATCH_STATUS_FINISHED,
    "void": match_pb2.MATCH_STATUS_VOID,
}


def outcome_from_plain(data: Mapping[str, Any]) -> Outcome:
    return Outcome(
        scores=tuple(data["scores"]),
        ranks=tuple(data["ranks"]),
        tiebreaks=tuple(
            TieBreak(t["name"], tuple(t["values"]), t["higher_wins"]) for t in data["tiebreaks"]
        ),
        forfeited=tuple(data.get("forfeited", ())),
    )


def _options_as_text(options: Mapping[str, Any]) -> dict[str, str]:
    return {k: str(v).lower() if isinstance(v, bool) else str(v) for k, v in options.items()}


class MatchService(match_pb2_grpc.MatchServiceServicer):
    def __init__(self, arbiter: Arbiter, store: Store, hub: EventHub) -> None:
        self.arbiter = arbiter
        self.store = store
        self.hub = hub

    async def CreateMatch(
        self, request: match_pb2.CreateMatchRequest, context: grpc.aio.ServicerContext[Any, Any]
    ) -> match_pb2.CreateMatchResponse:
        seats = []
        for seat in request.seats:
            kind = seat.WhichOneof("player")
            if kind is None:
                await context.abort(grpc.StatusCode.INVALID_ARGUMENT, "every seat needs a player")
            seats.append((kind, getattr(seat, kind)))
        control = request.time_control
        try:
            match_id = await self.arbiter.create(
                request.game,
                dict(request.options),
                seats,
                request.seed,
                control.move_time_ms,
                control.time_bank_ms,
                control.strike_limit,
            )
        except BadRequest as error:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(error))
        return match_pb2.CreateMatchResponse(match_id=match_id)

    async def _row(self, match_id: str, context: grpc.aio.ServicerContext[Any, Any]) -> Row:
        row = await self.store.match(match_id)
        if row is None:
            await context.abort(grpc.StatusCode.NOT_FOUND, f"no match {match_id!r}")
        assert row is not None
        return row

    async def GetMatch(
        self, request: match_pb2.GetMatchRequest, context: grpc.aio.ServicerContext[Any, Any]
    ) -> match_pb2.GetMatchResponse:
        row = await self._row(request.match_id, context)
        return match_pb2.GetMatchResponse(match=await self._record(row))

    async def _record(self, row: Row) -> match_pb2.Match:
        match_id = str(row["id"])
        seats = await self.store.seats(match_id)
        faults = await self.store.faults(match_id)
        moves = await self.store.moves(match_id)
        record = match_pb2.Match(
            match_id=match_id,
            game=row["game"],
            options=_options_as_text(row["options"]),
            status=STATUS[row["status"]],
            decisions=len(moves),
            void_reason=row["void_reason"] or "",
            time_control=match_pb2.TimeControl(
                move_time_ms=row["move_time_ms"],
                time_bank_ms=row["time_bank_ms"],
                strike_limit=row["strike_limit"],
            ),
        )
        strikes = [0] * row["players"]
        for fault in faults:
            record.faults.add(
                decision_number=fault.ply,
                seat=fault.seat,
                kind=fault.kind,
                blame=fault.blame,
                detail=fault.detail,
            )
            if fault.blame == "bot" and fault.seat >= 0:
                strikes[fault.seat] += 1
        for seat in seats:
            player = seat["bot_name"] or f"builtin:{seat['builtin']}"
            record.seats.add(
                player=player, strikes=strikes[seat["seat"]], forfeited=seat["forfeited"]
            )
        if row["outcome"] is not None:
            record.outcome.CopyFrom(encode_outcome(outcome_from_plain(row["outcome"])))
        return record

    async def WatchMatch(
        self, request: match_pb2.WatchMatchRequest, context: grpc.aio.ServicerContext[Any, Any]
    ) -> AsyncIterator[match_pb2.WatchMatchResponse]:
        if self.hub.is_live(request.match_id):
            async for event in self.hub.follow(request.match_id):
                yield event
            return
        row = await self._row(request.match_id, context)
        game, state = self._replayer(row)
        sequence = 0
        faults = await self.store.faults(request.match_id)
        for move in await self.store.moves(request.match_id):
            for fault in [f for f in faults if f.ply == move.ply]:
                yield match_pb2.WatchMatchResponse(
                    sequence=sequence,
                    fault=match_pb2.Fault(
                        decision_number=fault.ply,
                        seat=fault.seat,
                        kind=fault.kind,
                        blame=fault.blame,
                        detail=fault.detail,
                    ),
                )
                sequence += 1
            state.apply(move.seat, game.decode_move(move.move, move.seat))
            yield match_pb2.WatchMatchResponse(
                sequence=sequence,
                move=match_pb2.MoveApplied(
                    decision_number=move.ply,
                    seat=move.seat,
                    view=encode_observation(game, state.spectate()),
                    defaulted=move.defaulted,
                ),
            )
            sequence += 1
        if row["status"] in ("finished", "void"):
            yield match_pb2.WatchMatchResponse(sequence=sequence, ended=await self._record(row))

    @staticmethod
    def _replayer(row: Row) -> tuple[Game, State]:
        game = games.get(row["game"])
        return game, game.new(row["players"], row["seed"], row["options"])

    async def GetReplay(
        self, request: match_pb2.GetReplayRequest, context: grpc.aio.ServicerContext[Any, Any]
    ) -> match_pb2.GetReplayResponse:
        row = await self._row(request.match_id, context)
        ended = row["status"] in ("finished", "void")
        moves = await self.store.moves(request.match_id)
        reply = match_pb2.GetReplayResponse(
            game=row["game"], options=_options_as_text(row["options"]), players=row["players"]
        )
        if row["outcome"] is not None:
            reply.outcome.CopyFrom(encode_outcome(outcome_from_plain(row["outcome"])))
        if not request.HasField("seat"):
            if not ended:
                await context.abort(
                    grpc.StatusCode.FAILED_PRECONDITION,
                    "the full replay (seed and every move) is available once the match ends",
                )
            reply.seed = row["seed"]
            game = games.get(row["game"])
            for move in moves:
                reply.steps.add(seat=move.seat, move=encode_move(game, game.decode_move(move.move)))
            return reply
        await self._check_seat_access(row, request.seat, ended, context)
        self._seat_steps(row, request.seat, moves, reply)
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

    def _seat_steps(
        self, row: Row, seat: int, moves: list[MoveRecord], reply: match_pb2.GetReplayResponse
    ) -> None:
        game, state = self._replayer(row)
        for record in moves:
            move = game.decode_move(record.move, record.seat)
            if record.seat == seat:
                reply.steps.add(
                    seat=seat,
                    move=encode_move(game, move),
                    observation=encode_observation(game, state.observe(seat)),
                )
            state.apply(record.seat, move)
