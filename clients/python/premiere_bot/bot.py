"""The one class a bot author writes."""

from __future__ import annotations

from typing import ClassVar, TypeAlias

from premiere_wire import bot_gateway_pb2, game_pb2

Decision: TypeAlias = int | game_pb2.Move
"""What `decide` returns: the index of a legal move, or a typed move of the match's game."""


class Bot:
    """A bot plays every decision it is sent; one instance serves all its matches.

    `decide` may be a plain or an `async def` method. Plain methods run in a worker thread,
    so a slow decision in one match does not hold up the stream for the others.
    """

    games: ClassVar[tuple[str, ...]] = ()
    """Game ids this bot plays; empty means every game."""

    max_matches: ClassVar[int] = 1
    """Matches played at once on one connection."""

    def decide(self, request: bot_gateway_pb2.DecisionRequest) -> Decision:
        raise NotImplementedError("a Bot subclass implements decide()")

    def match_started(self, event: bot_gateway_pb2.MatchStarted) -> None:
        """Called when a match with a seat of this bot starts or resumes."""

    def match_ended(self, event: bot_gateway_pb2.MatchEnded) -> None:
        """Called when such a match ends, with its outcome."""
