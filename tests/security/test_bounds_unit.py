"""The pure parts of the resource bounds: counters, rates, a bot stream's outbox, and the
per-match wakeups of watchers."""

from __future__ import annotations

import asyncio

import pytest

from premiere_wire import bot_gateway_pb2
from server.events import EventHub, MoveEvent
from server.limits import LimitExceeded, Rate, Slots, peer_host
from server.router import Connection, Router


def test_slots_are_per_key_and_given_back() -> None:
    slots = Slots(2, "watchers")
    with slots.take("a"), slots.take("a"), slots.take("b"):
        with pytest.raises(LimitExceeded, match="at most 2 watchers"), slots.take("a"):
            pass
        assert slots.held("a") == 2
    assert slots.held("a") == 0 and slots.held("b") == 0


def test_rate_is_a_sliding_window() -> None:
    rate = Rate(3, window_s=10)
    assert [rate.allow(t) for t in (0, 1, 2, 3)] == [True, True, True, False]
    assert rate.allow(10.5) is True


def test_peer_host_drops_the_port() -> None:
    assert peer_host("ipv4:10.0.0.1:5555") == "ipv4:10.0.0.1"
    assert peer_host("ipv6:[::1]:5555") == "ipv6:[::1]"
    assert peer_host("unix:/tmp/s") == "unix:/tmp/s"


def test_a_stream_that_does_not_read_is_closed_not_buffered() -> None:
    killed = []
    conn = Connection(1, "b", frozenset(), 1, max_outbox=16)
    conn.kill = lambda: killed.append(True)
    for number in range(1000):
        conn.send(
            bot_gateway_pb2.ConnectResponse(welcome=bot_gateway_pb2.Welcome(server=str(number)))
        )
    assert conn.outbox.qsize() == 16
    assert conn.closed and killed == [True]
    assert "16 messages unread" in conn.overflowed


def test_refusals_are_rate_limited_and_request_ids_truncated() -> None:
    router = Router(max_request_id_bytes=32)
    conn = Connection(1, "b", frozenset(), 1, max_outbox=1000, refusals=Rate(5))
    for _ in range(10):
        router.answer(conn, bot_gateway_pb2.DecisionAnswer(request_id="x" * 100_000))
    refused = []
    while not conn.outbox.empty():
        message = conn.outbox.get_nowait()
        assert message is not None
        refused.append(message.refused)
    assert len(refused) == 5
    assert all(len(r.request_id) == 32 for r in refused)
    assert conn.closed and "refused answers" in conn.overflowed


async def _wakeups(hub: EventHub) -> int:
    """Watchers of match A while 200 moves are published on match B: how often A's watchers
    look at their condition."""
    looks = 0
    original = hub._waiter

    def counting(match_id: str, events: list[object], sent: int):  # type: ignore[no-untyped-def]
        check = original(match_id, events, sent)  # type: ignore[arg-type]

        def predicate() -> bool:
            nonlocal looks
            looks += 1
            return check()

        return predicate

    hub._waiter = counting  # type: ignore[method-assign]
    hub.open("A")
    hub.open("B")

    async def watch() -> None:
        async for _ in hub.follow("A"):
            pass

    watchers = [asyncio.create_task(watch()) for _ in range(50)]
    await asyncio.sleep(0.05)
    before = looks
    for ply in range(200):
        await hub.publish("B", MoveEvent(ply, 0, None, False))
        await asyncio.sleep(0)
    await asyncio.sleep(0.05)
    during = looks - before
    await hub.close("A")
    await asyncio.gather(*watchers)
    return during


def test_a_move_wakes_only_the_watchers_of_its_match() -> None:
    assert asyncio.run(_wakeups(EventHub())) == 0
