"""The runner against a scripted arbiter in this process: every way of deciding (inline, on the
pool, async) answers every request exactly as `answer()` says, a slow plain bot does not hold
up its other matches, and an exception in `decide` is counted, per match, on the finished line.
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime
import io
import threading
import time
from collections import Counter
from collections.abc import AsyncIterator
from typing import Any

import grpc
import pytest

from premiere_bot import Bot
from premiere_bot.bot import answer
from premiere_bot.report import Reporter
from premiere_bot.runner import run
from premiere_wire import bot_gateway_pb2, bot_gateway_pb2_grpc, game_pb2

MATCHES = 12
DECISIONS = 40


def requests(matches: int = MATCHES, decisions: int = DECISIONS) -> list[Any]:
    made = []
    for number in range(decisions):
        for match in range(matches):
            request = bot_gateway_pb2.DecisionRequest(
                request_id=f"m{match}:{number}",
                match_id=f"m{match}",
                game="magic-trick",
                seat=number % 3,
                decision_number=number,
            )
            for slot in range(1 + (number + match) % 7):
                request.legal_moves.add().magic_trick.play.slot = slot
            made.append(request)
    return made


class ScriptedArbiter(bot_gateway_pb2_grpc.BotGatewayServiceServicer):
    """Welcomes the bot, starts every match, sends one round of requests (a request of each
    match) at a time and waits for all their answers, then ends every match and the stream."""

    def __init__(self, rounds: list[list[Any]], batches: bool = False) -> None:
        self.rounds = rounds
        self.batches = batches
        """Speak batches (each round one DecisionBatch) with a bot whose Hello asks for them."""
        self.answers: list[Any] = []
        self.arrival: list[str] = []
        self.kinds: Counter[str] = Counter()
        """The kinds of the bot's messages after its Hello."""

    async def Connect(
        self, request_iterator: AsyncIterator[Any], context: Any
    ) -> AsyncIterator[Any]:
        incoming = request_iterator.__aiter__()
        hello = await incoming.__anext__()
        assert hello.WhichOneof("message") == "hello"
        batches = self.batches and hello.hello.batches
        welcome = bot_gateway_pb2.Welcome(bot_name="b", batches=batches)
        yield bot_gateway_pb2.ConnectResponse(welcome=welcome)
        match_ids = sorted({r.match_id for batch in self.rounds for r in batch})
        for match_id in match_ids:
            started = bot_gateway_pb2.MatchStarted(match_id=match_id, game="magic-trick")
            yield bot_gateway_pb2.ConnectResponse(match_started=started)
        for batch in self.rounds:
            if batches:
                message = bot_gateway_pb2.ConnectResponse()
                message.decisions.requests.extend(batch)
                yield message
            else:
                for request in batch:
                    yield bot_gateway_pb2.ConnectResponse(decision=request)
            answered = 0
            while answered < len(batch):
                message = await incoming.__anext__()
                kind = message.WhichOneof("message")
                self.kinds[kind] += 1
                answers = message.answers.answers if kind == "answers" else [message.answer]
                self.answers.extend(answers)
                self.arrival.extend(a.request_id for a in answers)
                answered += len(answers)
        for match_id in match_ids:
            ended = bot_gateway_pb2.MatchEnded(match_id=match_id)
            yield bot_gateway_pb2.ConnectResponse(match_ended=ended)


async def play(
    bot: Bot, rounds: list[list[Any]], batches: bool = False, **options: Any
) -> ScriptedArbiter:
    arbiter = ScriptedArbiter(rounds, batches)
    server = grpc.aio.server()
    bot_gateway_pb2_grpc.add_BotGatewayServiceServicer_to_server(arbiter, server)
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    try:
        await asyncio.wait_for(run(bot, f"127.0.0.1:{port}", "t", reconnect=False, **options), 60)
    finally:
        await server.stop(None)
    return arbiter


def by_rounds(made: list[Any], matches: int = MATCHES) -> list[list[Any]]:
    return [made[i : i + matches] for i in range(0, len(made), matches)]


def pick(request: bot_gateway_pb2.DecisionRequest) -> Any:
    """Index, raw move or typed move, by the request, so every kind of answer is covered."""
    index = (request.decision_number * 7 + len(request.request_id)) % len(request.legal_moves)
    kind = request.decision_number % 3
    if kind == 0:
        return index
    if kind == 1:
        move = game_pb2.Move()
        move.CopyFrom(request.legal_moves[index])
        return move
    from premiere_bot.magic_trick import PlayCard

    return PlayCard(slot=index)


class InlineBot(Bot):
    inline = True

    def decide_raw(self, request: bot_gateway_pb2.DecisionRequest) -> Any:
        return pick(request)


class PooledBot(Bot):
    def __init__(self) -> None:
        self.threads: set[str] = set()

    def decide_raw(self, request: bot_gateway_pb2.DecisionRequest) -> Any:
        self.threads.add(threading.current_thread().name)
        return pick(request)


class AsyncBot(Bot):
    async def decide_raw(self, request: bot_gateway_pb2.DecisionRequest) -> Any:
        await asyncio.sleep(0.001 * (request.decision_number % 3))
        return pick(request)


@pytest.mark.parametrize("make", [InlineBot, PooledBot, AsyncBot])
def test_every_way_of_deciding_answers_every_request_as_answer_says(make: type[Bot]) -> None:
    made = requests()
    bot = make()
    bot.max_matches = MATCHES  # type: ignore[misc]
    arbiter = asyncio.run(play(bot, by_rounds(made)))
    got = {a.request_id: a for a in arbiter.answers}
    assert len(arbiter.answers) == len(got) == len(made)
    for request in made:
        assert got[request.request_id] == answer(request, pick(request))
    if isinstance(bot, PooledBot):
        assert all(name.startswith("premiere-bot-decide") for name in bot.threads)


@pytest.mark.parametrize("make", [InlineBot, PooledBot, AsyncBot])
def test_batches_are_answered_as_answer_says_and_together_when_ready_together(
    make: type[Bot],
) -> None:
    made = requests()
    bot = make()
    bot.max_matches = MATCHES  # type: ignore[misc]
    arbiter = asyncio.run(play(bot, by_rounds(made), batches=True))
    got = {a.request_id: a for a in arbiter.answers}
    assert len(arbiter.answers) == len(got) == len(made)
    for request in made:
        assert got[request.request_id] == answer(request, pick(request))
    if isinstance(bot, InlineBot):
        assert arbiter.kinds == Counter(answers=DECISIONS)
    else:
        assert arbiter.kinds["answers"] > 0


def test_an_arbiter_that_does_not_welcome_batches_gets_single_answers() -> None:
    bot = PooledBot()
    bot.max_matches = MATCHES  # type: ignore[misc]
    arbiter = asyncio.run(play(bot, by_rounds(requests())))
    assert set(arbiter.kinds) == {"answer"}


class SlowInOneMatch(Bot):
    """Plain (pool) bot: match m0's decisions take 300 ms, the others' none."""

    def decide_raw(self, request: bot_gateway_pb2.DecisionRequest) -> Any:
        if request.match_id == "m0":
            time.sleep(0.3)
        return 0


def test_a_slow_plain_decision_does_not_hold_up_the_other_matches() -> None:
    bot = SlowInOneMatch()
    bot.max_matches = 4  # type: ignore[misc]
    arbiter = asyncio.run(play(bot, by_rounds(requests(4, 1), 4)))
    assert arbiter.arrival[-1] == "m0:0"


class Raising(Bot):
    """Raises on every third decision of match m1, and on the first of m2."""

    inline = True

    def decide_raw(self, request: bot_gateway_pb2.DecisionRequest) -> Any:
        if request.match_id == "m1" and request.decision_number % 3 == 0:
            raise RuntimeError("oops")
        if request.match_id == "m2" and request.decision_number == 0:
            raise ValueError("first")
        return len(request.legal_moves) - 1


class RaisingOnPool(Raising):
    inline = False


@pytest.mark.parametrize("make", [Raising, RaisingOnPool])
def test_decide_errors_are_answered_with_the_first_move_and_counted_per_match(
    make: type[Bot],
) -> None:
    made = requests(4, 9)
    errors: list[tuple[str, str]] = []
    arbiter = asyncio.run(
        play(
            make(),
            by_rounds(made, 4),
            on_error=lambda request, error: errors.append((request.request_id, str(error))),
        )
    )
    got = {a.request_id: a for a in arbiter.answers}
    for request in made:
        failed = (request.match_id == "m1" and request.decision_number % 3 == 0) or (
            request.match_id == "m2" and request.decision_number == 0
        )
        expected = 0 if failed else len(request.legal_moves) - 1
        assert got[request.request_id].legal_move_index == expected
    assert sorted(errors) == sorted([(f"m1:{n}", "oops") for n in (0, 3, 6)] + [("m2:0", "first")])


class Reported(Reporter):
    async def faults(self, match_id: str, seat: int) -> str:
        return "1 illegal" if match_id == "m1" else "none"


def test_the_finished_line_says_how_often_decide_raised() -> None:
    out = io.StringIO()
    reporter = Reported("a:1", "t", out=out, clock=lambda: datetime.datetime(2026, 1, 1, 12, 0, 0))

    async def go() -> None:
        for match_id, raised in (("m1", 3), ("m2", 1), ("m3", 0)):
            reporter.started(bot_gateway_pb2.MatchStarted(match_id=match_id, game="magic-trick"))
            for _ in range(raised):
                reporter.decide_raised(
                    bot_gateway_pb2.DecisionRequest(match_id=match_id), RuntimeError()
                )
            ended = bot_gateway_pb2.MatchEnded(match_id=match_id, seat=0)
            ended.outcome.scores.extend([3, 1])
            ended.outcome.ranks.extend([1, 2])
            await reporter.ended(ended)

        reporter.started(bot_gateway_pb2.MatchStarted(match_id="m4", game="magic-trick"))
        reporter.decide_raised(bot_gateway_pb2.DecisionRequest(match_id="m4"), RuntimeError())
        await reporter.ended(bot_gateway_pb2.MatchEnded(match_id="m4", void_reason="stalled"))

    asyncio.run(go())
    lines = out.getvalue().splitlines()
    assert lines[7] == "12:00:00 match m4 magic-trick voided: stalled; decide raised 1 time"
    tail = "finished: rank 1 of 2 (scores 3 / 1; yours 3); faults:"
    assert lines[1] == f"12:00:00 match m1 magic-trick {tail} 1 illegal; decide raised 3 times"
    assert lines[3] == f"12:00:00 match m2 magic-trick {tail} none; decide raised 1 time"
    assert lines[5] == f"12:00:00 match m3 magic-trick {tail} none"
    assert reporter.raised == Counter()


class Stopping(Bot):
    inline = True

    def __init__(self, stop: asyncio.Event) -> None:
        self.stop = stop
        self.answered = 0

    def decide_raw(self, request: bot_gateway_pb2.DecisionRequest) -> Any:
        self.answered += 1
        self.stop.set()
        return 0


class Endless(ScriptedArbiter):
    async def Connect(self, request_iterator: AsyncIterator[Any], context: Any) -> Any:
        async for message in super().Connect(request_iterator, context):
            yield message
        await asyncio.sleep(3600)


def test_setting_stop_ends_run_cleanly_while_the_stream_is_open() -> None:
    async def go() -> int:
        stop = asyncio.Event()
        bot = Stopping(stop)
        arbiter = Endless(by_rounds(requests(1, 1), 1))
        server = grpc.aio.server()
        bot_gateway_pb2_grpc.add_BotGatewayServiceServicer_to_server(arbiter, server)
        port = server.add_insecure_port("127.0.0.1:0")
        await server.start()
        try:
            await asyncio.wait_for(run(bot, f"127.0.0.1:{port}", "t", stop=stop), 30)
        finally:
            await server.stop(None)
        return bot.answered

    assert asyncio.run(go()) == 1


def test_inline_is_not_inherited_by_a_bot_that_decides_differently() -> None:
    from premiere_bot.bot import runs_inline
    from premiere_bot.examples.random_bot import RandomBot

    class Thinking(RandomBot):
        def decide_raw(self, request: bot_gateway_pb2.DecisionRequest) -> Any:
            time.sleep(0.01)
            return super().decide_raw(request)

    class ThinkingFast(Thinking):
        inline = True

    class Renamed(RandomBot):
        games = ("magic-trick",)

    class Typed(Bot):
        inline = True

        def decide(self, observation: Any, legal_moves: tuple[Any, ...]) -> Any:
            return 0

    assert runs_inline(RandomBot()) and runs_inline(Renamed()) and runs_inline(Typed())
    assert runs_inline(ThinkingFast())
    assert not runs_inline(Thinking()) and not runs_inline(Bot())
    assert not runs_inline(PooledBot())
    forced = Thinking()
    forced.inline = True  # type: ignore[misc]
    assert runs_inline(forced)


class TypedBot(Bot):
    """Hands back one of the legal moves as is, or a copy of it (equal, not the same)."""

    inline = True

    def decide(self, observation: Any, legal_moves: tuple[Any, ...]) -> Any:
        chosen = legal_moves[observation.phase.__len__() % len(legal_moves)]
        if len(legal_moves) % 2:
            return dataclasses.replace(chosen)
        return chosen


def test_a_legal_move_handed_back_as_is_goes_on_the_wire_as_its_index() -> None:
    from premiere_bot import typed
    from tests.sdk.test_node_wire import decision_requests

    made = [r for r in decision_requests(1) if r.game in ("magic-trick", "movie-tricks")]
    assert {r.game for r in made} == {"magic-trick", "movie-tricks"}
    bot = TypedBot()
    for request in made:
        legal = typed.legal_moves(request)
        expected = legal[typed.observation(request).phase.__len__() % len(legal)]
        reply = answer(request, bot.decide_raw(request))
        if len(legal) % 2:
            assert reply.move == typed.move_to_wire(request.game, expected)
        else:
            assert reply.legal_move_index == legal.index(expected)
            assert reply.WhichOneof("choice") == "legal_move_index"


def test_the_finished_line_takes_the_faults_from_the_end_itself() -> None:
    """With `MatchEnded.faults` set, no GetMatch is asked: the arbiter address here answers
    nothing, so a lookup would print "unknown (UNAVAILABLE)"."""
    out = io.StringIO()
    reporter = Reporter(
        "127.0.0.1:9", "t", out=out, clock=lambda: datetime.datetime(2026, 1, 1, 12, 0, 0)
    )

    async def go() -> None:
        for match_id, kinds in (("m1", {"timeout": 2, "illegal": 1}), ("m2", {})):
            reporter.started(bot_gateway_pb2.MatchStarted(match_id=match_id, game="magic-trick"))
            ended = bot_gateway_pb2.MatchEnded(
                match_id=match_id, seat=1, faults=bot_gateway_pb2.SeatFaults(by_kind=kinds)
            )
            ended.outcome.scores.extend([3, 1])
            ended.outcome.ranks.extend([1, 2])
            await reporter.ended(ended)

    asyncio.run(go())
    lines = out.getvalue().splitlines()
    tail = "finished: rank 2 of 2 (scores 3 / 1; yours 1); faults:"
    assert lines[1] == f"12:00:00 match m1 magic-trick {tail} 1 illegal, 2 timeout"
    assert lines[3] == f"12:00:00 match m2 magic-trick {tail} none"
