"""The one class a bot author writes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, TypeAlias

from premiere_bot import typed
from premiere_wire import bot_gateway_pb2, game_pb2

Decision: TypeAlias = Any
"""What `decide` returns: one of the legal moves (a typed move of the match's game, e.g.
`premiere_bot.magic_trick.PlayCard(slot=2)`), its index in `legal_moves`, or a raw
`premiere_wire.game_pb2.Move`; any of them wrapped in `Noted` to attach a note."""

MAX_NOTE_BYTES = 512
"""The longest note the arbiter accepts, in UTF-8 bytes (a longer one gets the answer refused)."""


@dataclass(frozen=True)
class Noted:
    """A decision with a short note on it (its plan, its estimate), e.g.
    ``return Noted(move, "leading trumps: I hold three")``. The arbiter stores the note with the
    move and shows it beside it in the replay once the match has ended, never while it runs."""

    decision: Any
    note: str

    def __post_init__(self) -> None:
        size = len(self.note.encode())
        if size > MAX_NOTE_BYTES:
            raise ValueError(f"a note of {size} bytes; the arbiter takes {MAX_NOTE_BYTES} at most")
        if "\x00" in self.note:
            raise ValueError("a note with a NUL character; the arbiter takes none")


class Bot:
    """A bot plays every decision it is sent; one instance serves all its matches.

    Implement `decide(observation, legal_moves)`: the observation is the game's `Observation`
    dataclass (`premiere_bot.magic_trick.Observation`, ...) and the legal moves a tuple of that
    game's move dataclasses, decoded once per request. To work from the raw protobuf
    `DecisionRequest` (its ids, clock and messages) override `decide_raw` instead.

    Plain methods run on a pool of threads made once per `run` (max(8, max_matches)), so a slow
    decision in one match does not hold up the others; `async def` methods run on the event
    loop. A bot whose `decide` answers in microseconds may set `inline = True`: it is then
    called on the event loop, straight from the loop that reads the requests (no thread, no
    task), which is the cheapest way to answer; but a slow `decide` then holds up every match
    of the connection. A subclass that overrides `decide` or `decide_raw` does not inherit
    `inline`: it declares it again if its own decisions are as fast (`runs_inline`).
    """

    games: ClassVar[tuple[str, ...]] = ()
    """Game ids this bot plays; empty means every game."""

    max_matches: ClassVar[int] = 1
    """Matches played at once on one connection."""

    accept_challenges: ClassVar[bool] = False
    """Whether other bots may challenge this one to matches while it is connected."""

    inline: ClassVar[bool] = False
    """`decide` is fast and called on the event loop itself instead of the thread pool."""

    version: ClassVar[str] = ""
    """This code's version (e.g. "2.1"); a version the ladder has not seen becomes a new entry,
    linked to its predecessor. Empty: whichever version is active."""

    def decide(self, observation: Any, legal_moves: tuple[Any, ...]) -> Decision:
        raise NotImplementedError("a Bot subclass implements decide() or decide_raw()")

    def decide_raw(self, request: bot_gateway_pb2.DecisionRequest) -> Decision:
        """Decode the request into typed views and ask `decide`. One of the `legal_moves`
        handed back as is goes on the wire as its index: the cheapest answer to encode and
        for the arbiter to check, and the same move."""
        legal = typed.legal_moves(request)
        decision = self.decide(typed.observation(request), legal)
        noted = decision if isinstance(decision, Noted) else None
        chosen = noted.decision if noted is not None else decision
        for index, move in enumerate(legal):
            if move is chosen:
                return Noted(index, noted.note) if noted is not None else index
        return decision

    def match_started(self, event: bot_gateway_pb2.MatchStarted) -> None:
        """Called when a match with a seat of this bot starts, resumes, or is announced again
        on a new connection (`event.resent`)."""

    def match_ended(self, event: bot_gateway_pb2.MatchEnded) -> None:
        """Called when such a match ends, with its outcome (or why it was voided)."""


def runs_inline(bot: Bot) -> bool:
    """Whether `bot` is answered on the event loop: `inline` set on the instance, or declared
    by the class that defines the `decide`/`decide_raw` in use or by a subclass of it."""
    if "inline" in vars(bot):
        return bool(bot.inline)
    mro = type(bot).__mro__
    decider = next(i for i, cls in enumerate(mro) if {"decide", "decide_raw"} & vars(cls).keys())
    declarer = next(i for i, cls in enumerate(mro) if "inline" in vars(cls))
    return declarer <= decider and bool(bot.inline)


def answer(
    request: bot_gateway_pb2.DecisionRequest, decision: Decision
) -> bot_gateway_pb2.DecisionAnswer:
    """The wire answer for what `decide` returned."""
    reply = bot_gateway_pb2.DecisionAnswer(request_id=request.request_id)
    _fill(reply, request, decision)
    return reply


def answer_request(
    request: bot_gateway_pb2.DecisionRequest, decision: Decision
) -> bot_gateway_pb2.ConnectRequest:
    """`answer`, built in place inside the stream message that carries it (no copy)."""
    message = bot_gateway_pb2.ConnectRequest()
    reply = message.answer
    reply.request_id = request.request_id
    _fill(reply, request, decision)
    return message


def _fill(
    reply: bot_gateway_pb2.DecisionAnswer,
    request: bot_gateway_pb2.DecisionRequest,
    decision: Decision,
) -> None:
    if isinstance(decision, Noted):
        reply.note = decision.note
        decision = decision.decision
    if isinstance(decision, int) and not isinstance(decision, bool):
        reply.legal_move_index = decision
    elif isinstance(decision, game_pb2.Move):
        reply.move.CopyFrom(decision)
    else:
        reply.move.CopyFrom(typed.move_to_wire(request.game, decision))
