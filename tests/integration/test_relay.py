"""The relay between two arbiters' routers, over a real Redis: presence, match slots counted
across arbiters, forwarded decisions (answer, timeout, disconnect) and lifecycle news."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import tempfile
import uuid
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path

import pytest

from premiere.services import PrivateRedis
from premiere_wire import bot_gateway_pb2
from server.relay import REPLY_GRACE_S, Relay
from server.router import Connection, Disconnected, Request, Router, Unreachable
from tests.integration.services import redis_url

GAME = "magic-trick"


@pytest.fixture
def own_redis() -> Iterator[PrivateRedis]:
    """A Redis of the test's own, to stop or pause."""
    folder = Path(tempfile.mkdtemp(prefix="premiere-relay-redis-"))
    folder.chmod(0o755)
    server = PrivateRedis(folder / "redis")
    server.start()
    try:
        yield server
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)


async def pair(url: str | None = None) -> tuple[Relay, Relay, Connection]:
    """Arbiter "a" with no streams; arbiter "b" holding bot 7's one stream (1 match at once)."""
    namespace = f"test-{uuid.uuid4().hex[:8]}"
    here, there = Router(), Router()
    a = Relay(here, url or redis_url(), "a", namespace)
    b = Relay(there, url or redis_url(), "b", namespace)
    await a.start()
    await b.start()
    stream = Connection(bot_id=7, bot_name="seven", games=frozenset({GAME}), max_matches=1)
    await there.add(stream)
    for _ in range(100):
        if await a.reachable(7):
            break
        await asyncio.sleep(0.02)
    return a, b, stream


async def next_message(stream: Connection) -> bot_gateway_pb2.ConnectResponse:
    message = await asyncio.wait_for(stream.outbox.get(), 2)
    assert message is not None
    if isinstance(message, Request):
        return bot_gateway_pb2.ConnectResponse.FromString(message.framed())
    return message


def request(match: str) -> Request:
    return Request.of(
        bot_gateway_pb2.DecisionRequest(request_id=f"{match}:x:0", match_id=match, game=GAME)
    )


def test_a_bot_on_another_arbiter_is_seen_seated_and_asked() -> None:
    async def main() -> None:
        a, b, stream = await pair()
        try:
            assert await a.reachable(7) and await a.can_play(7, GAME)
            assert not await a.can_play(7, "movie-fight")
            assert not await a.reachable(8)

            # One slot across both arbiters; the same match keeps its slot on a takeover.
            assert await a.lease([7], GAME, 1, holder="m1")
            assert not await b.lease([7], GAME, 0.2, holder="m2")
            assert await b.lease([7], GAME, 0.2, holder="m1")
            await a.release([7], holder="m1")
            assert await b.lease([7], GAME, 1, holder="m2")
            await b.release([7], holder="m2")

            asked = asyncio.create_task(a.ask(7, GAME, request("m1"), 2))
            sent = await next_message(stream)
            assert sent.decision.request_id == "m1:x:0"
            b.router.answer(
                stream,
                bot_gateway_pb2.DecisionAnswer(request_id="m1:x:0", legal_move_index=2),
            )
            assert (await asked).legal_move_index == 2

            with pytest.raises(TimeoutError):
                await a.ask(7, GAME, request("m2"), 0.3)
            await next_message(stream)  # the request that was never answered

            a.broadcast(7, bot_gateway_pb2.ConnectResponse(welcome=bot_gateway_pb2.Welcome()))
            assert (await next_message(stream)).HasField("welcome")

            asked = asyncio.create_task(a.ask(7, GAME, request("m3"), 2))
            await next_message(stream)
            await b.router.remove(stream)
            with pytest.raises(Disconnected):
                await asked
        finally:
            await a.close()
            await b.close()

    asyncio.run(main())


def test_a_request_forwarded_while_redis_dropped_the_subscriptions_is_still_answered() -> None:
    """Redis drops both arbiters' channel subscriptions (as it does to a subscriber over its
    output buffer limit). Pub/sub keeps nothing, so a request published before the holder is
    subscribed again, or an answer before the asker is, would be lost and the decision would
    wait out its deadline; the relay publishes again until somebody listens."""

    async def main() -> None:
        a, b, stream = await pair()
        try:
            await drop_subscriptions(a, a, b)
            asked = asyncio.create_task(a.ask(7, GAME, request("m1"), 4))
            sent = await next_message(stream)
            answer = bot_gateway_pb2.DecisionAnswer(request_id=sent.decision.request_id)
            answer.legal_move_index = 3
            await drop_subscriptions(a, a, b)
            b.router.answer(stream, answer)
            assert (await asyncio.wait_for(asked, 3)).legal_move_index == 3
        finally:
            await a.close()
            await b.close()

    asyncio.run(main())


def test_an_answer_the_relay_holds_past_the_deadline_is_the_infrastructures_fault(
    own_redis: PrivateRedis,
) -> None:
    """The bot answers its arbiter at once, but Redis stalls (SIGSTOP) before the answer can
    travel back: the host hears nothing by the deadline, nor in the grace after it in which the
    holder's own verdict would come. No strike: the relay failed, not the bot."""
    assert own_redis.process is not None
    pid = own_redis.process.pid

    async def main() -> None:
        a, b, stream = await pair(own_redis.url)
        try:
            asked = asyncio.create_task(a.ask(7, GAME, request("m1"), 0.8))
            sent = await next_message(stream)
            os.kill(pid, signal.SIGSTOP)
            try:
                answer = bot_gateway_pb2.DecisionAnswer(request_id=sent.decision.request_id)
                answer.legal_move_index = 1
                b.router.answer(stream, answer)
                with pytest.raises(Unreachable, match="relay"):
                    await asyncio.wait_for(asked, 0.8 + REPLY_GRACE_S + 2)
            finally:
                os.kill(pid, signal.SIGCONT)
        finally:
            await a.close()
            await b.close()

    asyncio.run(main())


async def listeners(via: Relay, *relays: Relay) -> list[str]:
    """The Redis client ids of the channel subscriptions of `relays`."""
    names = {relay.listener_name for relay in relays}
    listing = await via.redis.execute_command("CLIENT", "LIST", "TYPE", "pubsub")
    text = listing.decode() if isinstance(listing, bytes) else str(listing)
    return [
        fields["id"]
        for line in text.splitlines()
        if (fields := dict(f.split("=", 1) for f in line.split() if "=" in f)).get("name") in names
    ]


async def drop_subscriptions(via: Relay, *relays: Relay) -> None:
    """Once each of `relays` listens, Redis closes their subscriptions (and no other client's)."""
    await until(lambda: _all_listen(via, relays))
    for client_id in await listeners(via, *relays):
        await via.redis.execute_command("CLIENT", "KILL", "ID", client_id)


async def _all_listen(via: Relay, relays: tuple[Relay, ...]) -> bool:
    return len(await listeners(via, *relays)) == len(relays)


def test_a_redis_outage_delays_seating_and_then_the_relay_works_again(
    own_redis: PrivateRedis,
) -> None:
    """With Redis gone a match cannot be seated (it waits, it does not fail), a bot connected
    elsewhere is not reachable, a forwarded request fails as a disconnect; once Redis is back,
    presence is published again and requests are forwarded again."""
    server = own_redis

    async def main() -> None:
        a, b, stream = await pair(server.url)
        try:
            await asyncio.to_thread(server.stop)
            assert not await a.lease([7], GAME, 0.5, holder="m1")
            assert not await a.reachable(7)
            with pytest.raises(Disconnected, match="relay"):
                await a.ask(7, GAME, request("m1"), 0.5)
            await asyncio.to_thread(server.start)
            await until(lambda: a.reachable(7))
            assert await a.lease([7], GAME, 5, holder="m1")
            asked = asyncio.create_task(a.ask(7, GAME, request("m1"), 5))
            sent = await next_message(stream)
            answer = bot_gateway_pb2.DecisionAnswer(request_id=sent.decision.request_id)
            answer.legal_move_index = 1
            b.router.answer(stream, answer)
            assert (await asked).legal_move_index == 1
        finally:
            await a.close()
            await b.close()

    asyncio.run(main())


async def until(check: Callable[[], Awaitable[bool]], timeout: float = 10) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not await check():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.05)
