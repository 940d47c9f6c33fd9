"""`premiere-bot run`'s terminal lines: one when a match starts, one when it ends (result and
faults), and one when the ladder has rated it (rating change), for each match of the bot; with
``moves``, the bot's own moves in words after the end (the arbiter's words, from its replay)."""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import sys
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TextIO

import grpc

from premiere_wire import bot_gateway_pb2, ladder_pb2, ladder_pb2_grpc, match_pb2, match_pb2_grpc

RATING_WAIT_S = 60.0
"""How long to wait for the ladder to rate a finished match before saying it is not rated."""


@dataclass
class Reporter:
    """A `runner.run` listener. With a `ladder` address it also looks up each finished match's
    rating change. The faults come with the match's end (`MatchEnded.faults`); from an arbiter
    older than that field, from its `MatchService.GetMatch`, asked with the bot's token (which
    shows this bot's own seats' fault details)."""

    arbiter: str
    token: str
    credentials: grpc.ChannelCredentials | None = None
    ladder: str | None = None
    out: TextIO = sys.stdout
    clock: Callable[[], datetime.datetime] = field(
        default=lambda: datetime.datetime.now().astimezone()
    )
    matches: dict[str, bot_gateway_pb2.MatchStarted] = field(default_factory=dict)
    tasks: set[asyncio.Task[None]] = field(default_factory=set)
    name: str = ""
    raised: Counter[str] = field(default_factory=Counter)
    """Per match id: how often `decide` raised (each answered with the first legal move)."""
    channels: dict[str, grpc.aio.Channel] = field(default_factory=dict)
    moves: bool = False
    """Print the bot's moves in words once each match has ended."""

    def __call__(self, message: bot_gateway_pb2.ConnectResponse) -> None:
        kind = message.WhichOneof("message")
        if kind == "welcome":
            self.name = message.welcome.bot_name
            self.say(f"connected to {self.arbiter} as {self.name} ({message.welcome.server})")
        elif kind == "match_started":
            self.started(message.match_started)
        elif kind == "match_ended":
            self.spawn(self.ended(message.match_ended))
        elif kind == "refused":
            refused = message.refused
            self.say(f"answer {refused.request_id} refused: {refused.reason}")

    def decide_raised(self, request: bot_gateway_pb2.DecisionRequest, error: Exception) -> None:
        """A `runner.run` on_error listener: counted for the match's finished line."""
        self.raised[request.match_id] += 1

    def say(self, text: str) -> None:
        print(f"{self.clock():%H:%M:%S} {text}", file=self.out, flush=True)

    def spawn(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def started(self, event: bot_gateway_pb2.MatchStarted) -> None:
        self.matches[event.match_id] = event
        how = "resumed after an arbiter restart" if event.resumed else "started"
        if event.resent:
            how = "is running (reconnected)"
        seats = ", ".join(
            f"[{name}]" if seat == event.seat else name
            for seat, name in enumerate(event.seat_names)
        )
        options = " ".join(f"{k}={v}" for k, v in sorted(event.options.items()))
        self.say(
            f"match {event.match_id} {event.game} {how}: seat {event.seat} of {event.players}"
            f" ({seats}){' ' + options if options else ''}"
        )

    async def ended(self, event: bot_gateway_pb2.MatchEnded) -> None:
        started = self.matches.pop(event.match_id, None)
        raised = self.raised.pop(event.match_id, 0)
        errors = f"; decide raised {raised} time{'s' if raised != 1 else ''}" if raised else ""
        game = started.game if started is not None else "match"
        if not event.HasField("outcome"):
            self.say(f"match {event.match_id} {game} voided: {event.void_reason}{errors}")
            return
        outcome = event.outcome
        seat = event.seat
        rank = outcome.ranks[seat] if seat < len(outcome.ranks) else 0
        scores = " / ".join(str(score) for score in outcome.scores)
        forfeited = ", forfeited" if seat in outcome.forfeited else ""
        if event.HasField("faults"):
            faults = self.in_words(event.faults.by_kind)
        else:  # an arbiter from before MatchEnded told the faults
            faults = await self.faults(event.match_id, seat)
        self.say(
            f"match {event.match_id} {game} finished: rank {rank} of {len(outcome.ranks)}"
            f" (scores {scores}; yours {outcome.scores[seat]}){forfeited}; faults: {faults}"
            f"{errors}"
        )
        if self.moves:
            for line in await self.moves_in_words(event.match_id, seat):
                self.say(line)
        if self.ladder and started is not None:
            await self.rating(event.match_id, started.game, seat)

    async def moves_in_words(self, match_id: str, seat: int) -> list[str]:
        """The seat's moves as the arbiter tells them to that seat, under their groups."""
        try:
            reply = await match_pb2_grpc.MatchServiceStub(self.channel(self.arbiter)).GetReplay(
                match_pb2.GetReplayRequest(match_id=match_id, seat=seat),
                metadata=(("authorization", f"Bearer {self.token}"),),
                timeout=30,
            )
        except grpc.aio.AioRpcError as error:
            return [f"match {match_id}: moves unknown ({error.code().name})"]
        lines = [f"match {match_id}: your moves"]
        lines.extend(f"  {step.group}: {step.text}" for step in reply.steps)
        return lines

    async def faults(self, match_id: str, seat: int) -> str:
        try:
            reply = await match_pb2_grpc.MatchServiceStub(self.channel(self.arbiter)).GetMatch(
                match_pb2.GetMatchRequest(match_id=match_id),
                metadata=(("authorization", f"Bearer {self.token}"),),
                timeout=10,
            )
        except grpc.aio.AioRpcError as error:
            return f"unknown ({error.code().name})"
        return self.in_words(Counter(f.kind for f in reply.match.faults if f.seat == seat))

    @staticmethod
    def in_words(kinds: Mapping[str, int]) -> str:
        if not any(kinds.values()):
            return "none"
        return ", ".join(f"{count} {kind}" for kind, count in sorted(kinds.items()) if count)

    async def rating(self, match_id: str, game: str, seat: int) -> None:
        assert self.ladder is not None
        deadline = asyncio.get_running_loop().time() + RATING_WAIT_S
        stub = ladder_pb2_grpc.LadderServiceStub(self.channel(self.ladder))
        while asyncio.get_running_loop().time() < deadline:
            with contextlib.suppress(grpc.aio.AioRpcError):
                page = await stub.ListMatches(
                    ladder_pb2.ListMatchesRequest(game=game, page_size=50), timeout=10
                )
                for match in page.matches:
                    if match.match_id == match_id and match.rated:
                        self.say(self.rating_line(match, seat))
                        return
            await asyncio.sleep(1.0)
        self.say(f"match {match_id} {game}: not rated within {RATING_WAIT_S:g} s")

    @staticmethod
    def rating_line(match: ladder_pb2.LadderMatch, seat: int) -> str:
        mine = match.seats[seat]
        if not mine.rated:
            return f"match {match.match_id} {match.game} rated; seat {seat} not rated"
        after = mine.rating_before + mine.rating_delta
        return (
            f"match {match.match_id} {match.game} rated: {mine.player}"
            f" {mine.rating_before:.1f} -> {after:.1f} ({mine.rating_delta:+.1f})"
        )

    def channel(self, address: str) -> grpc.aio.Channel:
        """One channel per address for the reporter's life, not one per match."""
        channel = self.channels.get(address)
        if channel is None:
            if self.credentials is None:
                channel = grpc.aio.insecure_channel(address)
            else:
                channel = grpc.aio.secure_channel(address, self.credentials)
            self.channels[address] = channel
        return channel
