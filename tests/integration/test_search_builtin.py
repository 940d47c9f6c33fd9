"""A search level seated on the arbiter: while it thinks (a second or more of CPU per decision)
the other matches on the same arbiter keep moving, because the search runs in a worker process
on a copy of the state, not on the event loop."""

from __future__ import annotations

import asyncio
import time

from server import builtins
from server.arbiter import Arbiter
from server.config import ArbiterSettings
from server.events import EventHub
from server.router import Router
from server.store import Store

TICK_S = 0.01
STALL_S = 0.25
"""The longest the event loop may go without running a task while a search decides."""


async def _longest_stall(done: asyncio.Event) -> float:
    longest = 0.0
    before = time.monotonic()
    while not done.is_set():
        await asyncio.sleep(TICK_S)
        now = time.monotonic()
        longest = max(longest, now - before - TICK_S)
        before = now
    return longest


def test_a_searching_seat_does_not_stall_the_arbiters_other_matches(database_url: str) -> None:
    async def main() -> tuple[float, str, int, float]:
        store = Store(database_url, retry_delay=0.05)
        await store.start()
        try:
            arbiter = Arbiter(store, Router(4, 64), EventHub(), ArbiterSettings())
            searching = await arbiter.create(
                "movie-tricks", {}, [("builtin", "search:1000"), ("builtin", "random")], "think"
            )
            quick = await arbiter.create("magic-trick", {}, [("builtin", "random")] * 3, "flow")
            done = asyncio.Event()
            stall = asyncio.create_task(_longest_stall(done))
            started = time.monotonic()
            await arbiter.hosts[quick]
            quick_s = time.monotonic() - started
            search_host = arbiter.hosts[searching]
            still_searching = "running" if not search_host.done() else "finished"
            while not any(record.seat == 0 for record in await store.moves(searching)):
                await asyncio.sleep(0.05)
            done.set()
            searched = sum(record.seat == 0 for record in await store.moves(searching))
            await arbiter.stop()
            return await stall, still_searching, searched, quick_s
        finally:
            builtins.shutdown()
            await store.close()

    longest, while_quick_ran, searched, quick_s = asyncio.run(main())
    assert while_quick_ran == "running", "the quick match should end while the search thinks"
    assert searched >= 1, "the searching seat decided"
    assert longest < STALL_S, f"the event loop stalled {longest:.2f} s during a search"
    assert quick_s < 30, quick_s
