"""A decision's clock starts when its request goes on the bot's stream, not when the match
asks: a request queued behind a slow write (a busy arbiter, a stream still writing a big
message) does not spend the bot's time (docs/protocol.md, "The clock"). Router and the
gateway's writer, with a stand-in for the gRPC call whose first write is slow."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from premiere_wire import bot_gateway_pb2
from server.gateway import BotGateway
from server.router import Connection, Request, Router

SLOW_WRITE_S = 0.3


class SlowFirstWrite:
    """The call's `write`: the first takes SLOW_WRITE_S, as a backed-up stream does."""

    def __init__(self) -> None:
        self.written: list[Any] = []

    async def write(self, message: Any) -> None:
        if not self.written:
            await asyncio.sleep(SLOW_WRITE_S)
        self.written.append(message)


async def _asked(timeout: float, answer_after: float | None, batches: bool) -> tuple[Any, float]:
    router = Router()
    conn = Connection(bot_id=1, bot_name="b", games=frozenset(), max_matches=4, batches=batches)
    await router.add(conn)
    context = SlowFirstWrite()
    writer = asyncio.create_task(BotGateway._write(conn, context))  # type: ignore[arg-type]
    conn.send(bot_gateway_pb2.ConnectResponse(refused=bot_gateway_pb2.AnswerRefused()))
    await asyncio.sleep(0)
    request = Request("m:1", b"")
    asked = time.monotonic()

    async def bot() -> None:
        while request.sent_at == 0:
            await asyncio.sleep(0.01)
        if answer_after is not None:
            await asyncio.sleep(answer_after)
            router.answer(conn, bot_gateway_pb2.DecisionAnswer(request_id="m:1"))

    answering = asyncio.create_task(bot())
    try:
        outcome: Any = await router.ask(1, "magic-trick", request, timeout)
    except TimeoutError as error:
        outcome = error
    finally:
        await answering
        conn.outbox.put_nowait(None)
        await writer
    return outcome, request.sent_at - asked


@pytest.mark.parametrize("batches", [False, True])
def test_a_request_written_late_gives_the_bot_its_whole_time(batches: bool) -> None:
    """Written 0.3 s after the ask, answered 0.2 s after that: within a 0.35 s limit counted
    from the write, though 0.5 s after the ask."""
    outcome, late = asyncio.run(_asked(0.35, 0.2, batches))
    assert late >= SLOW_WRITE_S * 0.9
    assert isinstance(outcome, bot_gateway_pb2.DecisionAnswer)


def test_a_request_written_late_still_times_out_from_its_write() -> None:
    """Unanswered, it times out its limit after the write. (One not written by the end of
    its limit times out then: a stream that takes nothing must not hold the match forever.)"""
    started = time.monotonic()
    outcome, late = asyncio.run(_asked(0.35, None, False))
    waited = time.monotonic() - started
    assert isinstance(outcome, TimeoutError)
    assert late + 0.35 <= waited < late + 0.35 + 0.15
