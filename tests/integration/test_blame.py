"""Blame with controlled lateness (issue 41, finding 4): a bot answers at chosen offsets around
the host's deadline, on a stream held by the host itself and on one held by another arbiter
(the relay, over a real Redis), with the forwarded request held up on its way (as a busy
holder or a slow link would). Every answer earlier than the deadline minus the tolerance is
used, every one later than the deadline plus the tolerance is the bot's timeout, and none is
ever charged to the infrastructure while the relay works."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from premiere_wire import bot_gateway_pb2
from server.relay import CLOCK_TOLERANCE_S, Relay
from server.router import Connection, Router, Unreachable
from tests.integration.test_relay import GAME, next_message, pair, request

TIMEOUT = 1.0
TRANSIT = 0.3
"""How long the forwarded request is held up before the holder hears it."""
OFFSETS = (-0.35, -0.2, -0.1, 0.1, 0.15, 0.2, 0.25, 0.4)
"""When the bot answers, from the host's deadline (seconds); none within the tolerance."""


def _slow_asks(holder: Relay, delay: float) -> None:
    """The holder hears every forwarded request ``delay`` late."""
    handle = holder._handle

    def late(message: dict[str, Any]) -> None:
        if message.get("kind") == "ask":
            asyncio.get_running_loop().call_later(delay, handle, message)
        else:
            handle(message)

    holder._handle = late  # type: ignore[method-assign]


async def _one(
    asker: Router | Relay, router: Router, stream: Connection, match: str, offset: float
) -> str:
    """Ask with TIMEOUT; the bot answers at deadline + offset. "answer", "timeout" or
    "unreachable"."""
    start = time.monotonic()
    asked = asyncio.create_task(asker.ask(7, GAME, request(match), TIMEOUT))
    sent = await next_message(stream)
    await asyncio.sleep(max(0.0, start + TIMEOUT + offset - time.monotonic()))
    answer = bot_gateway_pb2.DecisionAnswer(request_id=sent.decision.request_id)
    answer.legal_move_index = 0
    router.answer(stream, answer)
    try:
        await asyncio.wait_for(asked, TIMEOUT + 5)
    except TimeoutError:
        return "timeout"
    except Unreachable:
        return "unreachable"
    return "answer"


def _expected(offset: float) -> str:
    assert abs(offset) > CLOCK_TOLERANCE_S
    return "answer" if offset < 0 else "timeout"


async def _drain(stream: Connection) -> None:
    while not stream.outbox.empty():
        stream.outbox.get_nowait()


@pytest.mark.parametrize("where", ["host", "relay"])
def test_a_late_answer_is_the_bots_timeout_and_never_the_infrastructures(where: str) -> None:
    async def main() -> dict[float, str]:
        a, b, stream = await pair()
        try:
            if where == "relay":
                _slow_asks(b, TRANSIT)
            seen = {}
            for n, offset in enumerate(OFFSETS):
                if where == "host":
                    local = Connection(
                        bot_id=7, bot_name="seven", games=frozenset({GAME}), max_matches=1
                    )
                    await a.router.add(local)
                    seen[offset] = await _one(a.router, a.router, local, f"h{n}", offset)
                    await a.router.remove(local)
                else:
                    # An answer the holder refused as late comes back as AnswerRefused.
                    seen[offset] = await _one(a, b.router, stream, f"r{n}", offset)
                    await _drain(stream)
            return seen
        finally:
            await a.close()
            await b.close()

    seen = asyncio.run(main())
    assert seen == {offset: _expected(offset) for offset in OFFSETS}
    assert "unreachable" not in seen.values()
